"""Argument-less reads act for the signed-in user: the state says who, the read filters by it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from doc_tools import doc_tool  # type: ignore[import-not-found]

from autoforge.cli.main import main
from autoforge.env import Environment, StateSchema
from autoforge.env.artifact.spec import Attribute, CollectionSchema
from autoforge.lexicon import SESSION, session_owner, signed_in, target_collection
from autoforge.tasks import generate_tasks
from autoforge.tasks.runtime import bind_state
from autoforge.tooldocs import ToolSpec

DOCS = [
    doc_tool("get_user_details", "Get a user's profile.", user_id="The user's id"),
    doc_tool(
        "place_order", "Place an order for a user.", user_id="The user's id", item="Item name"
    ),
    doc_tool("get_order_details", "Get the details of an order.", order_id="The order id"),
    doc_tool("cancel_order", "Cancel an order.", order_id="The order id"),
    doc_tool("get_my_orders", "Get all orders of the current user."),
    doc_tool("update_user_email", "Change the signed-in user's email.", email="The new email"),
]


@pytest.fixture(scope="module")
def env_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shop")
    (root / "tools.json").write_text(json.dumps(DOCS))
    try:
        main(
            ["synth", "env", str(root / "tools.json"), "--llm", "none", "--out", str(root / "env")]
        )
    except SystemExit as exc:
        assert not exc.code
    return root / "env"


def test_the_state_says_who_is_signed_in_and_the_read_returns_their_orders_only(
    env_dir: Path,
) -> None:
    env = Environment.load(env_dir)
    schema = env.spec.state_schema
    assert session_owner(schema) == ("users", "user_id")
    state = {
        "users": {"u1": {"user_id": "u1"}, "u2": {"user_id": "u2"}},
        "orders": {
            f"o{i}": {"order_id": f"o{i}", "user_id": u, "item": "x"}
            for i, u in enumerate(["u1", "u2", "u2"])
        },
        SESSION: {"session": {"session_id": "session", "user_id": "u2"}},
    }
    episode = bind_state(env, state).episode()
    got = episode.call("get_my_orders", {})
    assert sorted(r["order_id"] for r in got.result) == ["o1", "o2"]  # u2's, not u1's o0
    state.pop(SESSION)
    refused = bind_state(env, state).episode().call("get_my_orders", {})
    assert not refused.ok and "signed in" in refused.content  # never every user's orders


def test_a_write_without_the_users_key_acts_on_the_signed_in_user(env_dir: Path) -> None:
    env = Environment.load(env_dir)
    state = {
        "users": {"u1": {"user_id": "u1", "email": "a@x"}, "u2": {"user_id": "u2", "email": "b@x"}},
        "orders": {},
        SESSION: {"session": {"session_id": "session", "user_id": "u2"}},
    }
    episode = bind_state(env, state).episode()
    assert episode.call("update_user_email", {"email": "new@x"}).ok
    users = episode.snapshot()["users"]
    assert users["u2"]["email"] == "new@x" and users["u1"]["email"] == "a@x"


def test_tasks_sign_in_the_user_the_agent_is_told(env_dir: Path) -> None:
    env = Environment.load(env_dir)
    tasks, stats = generate_tasks(env, 12, "easy", seed=0)
    assert tasks, stats.rejected
    scoped = 0
    for task in tasks:
        me = signed_in(task.initial_state or {}, env.spec.state_schema)
        assert me is not None and task.session == {"user_id": me}
        episode = bind_state(env, task.initial_state).episode()
        for call in task.gold_calls:
            result = episode.call(call.name, call.arguments).result
            if call.name == "get_my_orders":
                scoped += 1
                assert all(r["user_id"] == me for r in result)
    assert scoped  # some gold solution reads the signed-in user's orders


def test_an_argument_less_read_targets_the_records_the_named_owner_has() -> None:
    users = CollectionSchema(
        name="users", primary_key="user_id", attributes=[Attribute(name="user_id", type="id")]
    )
    orders = CollectionSchema(
        name="orders",
        primary_key="order_id",
        attributes=[
            Attribute(name="order_id", type="id"),
            Attribute(name="user_id", type="id", references="users"),
        ],
    )
    schema = StateSchema(collections=[users, orders])
    coll = target_collection(ToolSpec(name="get_user_all_orders"), schema)
    assert coll is not None and coll.name == "orders"
    keyed = ToolSpec(
        name="get_user_orders",
        parameters={"type": "object", "properties": {"user_id": {"type": "string"}}},
    )
    coll = target_collection(keyed, schema)
    assert coll is not None and coll.name == "users"  # with parameters: as before
