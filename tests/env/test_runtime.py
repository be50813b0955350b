"""The runtime API: calls, observations, validation, transactions, reset, isolation, loading."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from autoforge.env import (
    Environment,
    EnvironmentSpec,
    EnvLoadError,
    SandboxViolation,
    diff_states,
    state_hash,
)
from autoforge.tooldocs.spec import ToolSpec


def test_read_call_returns_json_and_leaves_state(shop: Environment) -> None:
    ep = shop.episode()
    before = ep.state_hash()
    obs = ep.call("get_item", {"item_id": "i1"})
    assert obs.ok and obs.error_kind is None
    assert json.loads(obs.content) == shop.initial_state["items"]["i1"]
    assert obs.result == shop.initial_state["items"]["i1"]
    assert ep.state_hash() == before
    assert ep.diff() == []


def test_string_results_are_passed_through(shop: Environment) -> None:
    obs = shop.episode().call("set_price", {"item_id": "i1", "price": 3})
    assert obs.ok and obs.content == "ok" and obs.result == "ok"


def test_write_changes_state_hash_and_diff(shop: Environment) -> None:
    ep = shop.episode()
    h0 = ep.state_hash()
    assert ep.call("set_price", {"item_id": "i2", "price": 25.5}).ok
    assert ep.state["items"]["i2"]["price"] == 25.5
    assert ep.state_hash() != h0
    assert ep.state_hash() == state_hash(ep.snapshot())
    assert ep.diff() == [
        {"op": "replace", "path": ["items", "i2", "price"], "old": 30.0, "new": 25.5}
    ]
    assert shop.initial_state["items"]["i2"]["price"] == 30.0  # base untouched


def test_unknown_tool_is_an_observation(shop: Environment) -> None:
    obs = shop.episode().call("drop_database", {})
    assert not obs.ok and obs.error_kind == "unknown_tool"
    assert obs.content.startswith("Error: unknown tool 'drop_database'")
    assert "get_item" in obs.content
    assert obs.result is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({}, "'item_id' is a required property"),
        ({"item_id": 5}, "item_id: 5 is not of type 'string'"),
        ({"item_id": "i1", "colour": "red"}, "unexpected argument 'colour'"),
        ("not json", "arguments are not valid JSON"),
        (["i1"], "arguments must be a JSON object"),
    ],
)
def test_invalid_arguments_are_observations(shop: Environment, args: Any, message: str) -> None:
    obs = shop.episode().call("get_item", args)
    assert not obs.ok and obs.error_kind == "invalid_arguments"
    assert obs.content.startswith("Error: invalid arguments for get_item: ")
    assert message in obs.content


def test_nested_and_enum_validation(shop: Environment) -> None:
    ep = shop.episode()
    bad_tag = ep.call("add_item", {"name": "x", "price": 1, "tags": ["a", 3]})
    assert (
        bad_tag.error_kind == "invalid_arguments" and "tags[1]: 3 is not of type" in bad_tag.content
    )
    bad_kind = ep.call("add_item", {"name": "x", "price": 1, "kind": "car"})
    assert "'car' is not one of ['book', 'toy']" in bad_kind.content
    negative = ep.call("set_price", {"item_id": "i1", "price": -1})
    assert "-1 is less than the minimum of 0" in negative.content
    boolean = ep.call("restock", {"item_id": "i1", "amount": True})
    assert boolean.error_kind == "invalid_arguments"
    assert ep.diff() == []


def test_json_string_arguments_are_accepted(shop: Environment) -> None:
    obs = shop.episode().call("get_item", '{"item_id": "i3"}')
    assert obs.ok and obs.result["name"] == "Kite"


def test_tool_error_is_observation_and_call_is_atomic(shop: Environment) -> None:
    ep = shop.episode()
    h0 = ep.state_hash()
    obs = ep.call("restock", {"item_id": "i1", "amount": -10})
    assert not obs.ok and obs.error_kind == "tool_error"
    assert obs.content == "Error: stock would become negative"
    # the tool had already changed stock and the log before raising: both were rolled back
    assert ep.state_hash() == h0
    assert ep.state["items"]["i1"]["stock"] == 3 and "n" not in ep.state["log"]
    missing = ep.call("get_item", {"item_id": "nope"})
    assert missing.error_kind == "tool_error" and missing.content == "Error: item nope not found"


def test_arguments_are_copied(shop: Environment) -> None:
    ep = shop.episode()
    tags = ["a", "b"]
    args = {"name": "Ball", "price": 2, "tags": tags}
    assert ep.call("add_item", args).ok
    tags.append("mutated-after-call")
    assert ep.state["items"]["i4"]["tags"] == ["a", "b"]
    assert args == {"name": "Ball", "price": 2, "tags": tags}


def test_result_does_not_alias_state(shop: Environment) -> None:
    ep = shop.episode()
    obs = ep.call("get_item", {"item_id": "i1"})
    obs.result["price"] = 999
    assert ep.state["items"]["i1"]["price"] == 12.5
    view = ep.state["items"]["i1"]
    view["price"] = 1
    assert ep.state["items"]["i1"]["price"] == 12.5


def test_add_delete_and_iteration(shop: Environment) -> None:
    ep = shop.episode()
    assert ep.call("add_item", {"name": "Ball", "price": 2}).result == {"item_id": "i4"}
    assert ep.call("delete_item", {"item_id": "i1"}).ok
    assert ep.call("list_items", {}).result == ["i2", "i3", "i4"]
    assert list(ep.state["items"]) == ["i2", "i3", "i4"]
    assert len(ep.state["items"]) == 3
    assert ep.call("get_item", {"item_id": "i1"}).error_kind == "tool_error"
    snap = ep.snapshot()
    assert diff_states(shop.initial_state, snap) == ep.diff()
    assert state_hash(snap) == ep.state_hash()


def test_reset_restores_initial_hash(shop: Environment) -> None:
    ep = shop.episode()
    h0 = ep.state_hash()
    ep.call("set_price", {"item_id": "i1", "price": 1})
    ep.call("delete_item", {"item_id": "i2"})
    ep.call("restock", {"item_id": "i3", "amount": 2})
    assert ep.state_hash() != h0
    ep.reset()
    assert ep.state_hash() == h0 and ep.snapshot() == shop.initial_state


def test_episode_from_custom_state(shop: Environment, shop_initial: dict[str, Any]) -> None:
    shop_initial["items"]["i1"]["price"] = 1.0
    ep = shop.episode(state=shop_initial)
    shop_initial["items"]["i1"]["price"] = 2.0  # the episode took a copy
    assert ep.call("get_item", {"item_id": "i1"}).result["price"] == 1.0
    ep.call("set_price", {"item_id": "i1", "price": 5})
    ep.reset()
    assert ep.state["items"]["i1"]["price"] == 1.0
    assert shop.episode().state["items"]["i1"]["price"] == 12.5


def test_same_state_object_reuses_its_copy(shop: Environment, shop_initial: Any) -> None:
    first = shop.episode(state=shop_initial)
    second = shop.episode(state=shop_initial)
    assert first.env is second.env and first.env is not shop
    shop_initial["items"]["i1"]["price"] = 99
    third = shop.episode(state=shop_initial)
    assert third.env is not first.env
    assert third.state["items"]["i1"]["price"] == 99
    assert first.state["items"]["i1"]["price"] == 12.5


def test_episodes_are_isolated_across_threads(shop: Environment) -> None:
    errors: list[str] = []
    hashes: dict[int, str] = {}

    def run(n: int) -> None:
        ep = shop.episode()
        for _ in range(30):
            obs = ep.call("restock", {"item_id": "i1", "amount": n})
            if not obs.ok:
                errors.append(obs.content)
        stock = ep.state["items"]["i1"]["stock"]
        if stock != 3 + 30 * n:
            errors.append(f"thread {n}: stock {stock}")
        hashes[n] = ep.state_hash()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(1, 9)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(set(hashes.values())) == 8
    assert shop.initial_state["items"]["i1"]["stock"] == 3


async def test_episodes_are_isolated_under_asyncio(shop: Environment) -> None:
    async def run(n: int) -> int:
        ep = shop.episode()
        for _ in range(10):
            ep.call("restock", {"item_id": "i3", "amount": n})
            await asyncio.sleep(0)
        return int(ep.state["items"]["i3"]["stock"])

    stocks = await asyncio.gather(*(run(n) for n in range(1, 6)))
    assert stocks == [7 + 10 * n for n in range(1, 6)]


def test_non_json_result_is_a_crash_and_rolls_back(env_factory: Any, schema_obj: Any) -> None:
    env = env_factory(
        """
        def bad(state):
            state["c"]["k"] = 1
            return {1, 2}
        """,
        [ToolSpec(name="bad", parameters=schema_obj({}))],
        {"c": {}},
    )
    ep = env.episode()
    obs = ep.call("bad", {})
    assert obs.error_kind == "crash" and "not JSON" in obs.content
    assert ep.snapshot() == {"c": {}}


def test_python_exception_is_a_crash(env_factory: Any, schema_obj: Any) -> None:
    env = env_factory(
        "def boom(state):\n    return state['missing']['x']\n",
        [ToolSpec(name="boom", parameters=schema_obj({}))],
    )
    obs = env.episode().call("boom")
    assert obs.error_kind == "crash" and obs.content.startswith("Error: boom failed: KeyError")


def test_keyword_parameter_names_are_renamed(env_factory: Any, schema_obj: Any) -> None:
    env = env_factory(
        "def trip(state, from_, to):\n    return from_ + '-' + to\n",
        [ToolSpec(name="trip", parameters=schema_obj({"from": {}, "to": {}}, ["from", "to"]))],
    )
    assert env.episode().call("trip", {"from": "A", "to": "B"}).result == "A-B"


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("def get_item(state):\n    return 1\n", "documented parameter 'item_id' is missing"),
        ("def get_item(state, item_id=None):\n    return 1\n", "must have no default"),
        ("def get_item(state, item_id, **kw):\n    return 1\n", "*args/**kwargs"),
        ("def get_item(item_id, state):\n    return 1\n", "first parameter must be 'state'"),
        ("def get_item(state, item_id, extra):\n    return 1\n", "'extra' is not documented"),
        ("def helper(state):\n    return 1\n", "has no implementation"),
        (
            "def get_item(state, item_id):\n    return 1\ndef helper():\n    return 2\n",
            "function 'helper' is not a documented tool",
        ),
        (
            "def get_item(state, item_id):\n    return 1\ndef get_item(state, item_id):\n"
            "    return 2\n",
            "defined 2 times",
        ),
        ("x = 1 / 0\n", "ZeroDivisionError"),
    ],
)
def test_load_errors_name_the_tool_and_fix(
    env_factory: Any, schema_obj: Any, source: str, fragment: str
) -> None:
    tools = [ToolSpec(name="get_item", parameters=schema_obj({"item_id": {}}, ["item_id"]))]
    with pytest.raises(EnvLoadError) as err:
        env_factory(source, tools)
    assert fragment in str(err.value)


def test_optional_parameter_needs_default(env_factory: Any, schema_obj: Any) -> None:
    tools = [ToolSpec(name="f", parameters=schema_obj({"a": {}}))]
    with pytest.raises(EnvLoadError, match="optional parameter 'a' needs a default"):
        env_factory("def f(state, a):\n    return a\n", tools)


def test_invalid_schema_is_a_load_error(env_factory: Any) -> None:
    tools = [ToolSpec(name="f", parameters={"type": "object", "properties": {"a": {"type": 5}}})]
    with pytest.raises(EnvLoadError, match="invalid parameters schema"):
        env_factory("def f(state, a=None):\n    return a\n", tools)


def test_load_directory(tmp_path: Path, shop_initial: dict[str, Any], shop_parts: Any) -> None:
    spec, source = shop_parts
    (tmp_path / "environment.json").write_text(spec.model_dump_json())
    (tmp_path / "tools.py").write_text(source)
    (tmp_path / "initial_state.json").write_text(json.dumps(shop_initial))
    env = Environment.load(tmp_path)
    assert env.path == tmp_path
    assert env.episode().call("get_item", {"item_id": "i2"}).result["name"] == "Robot"


def test_load_directory_errors(tmp_path: Path) -> None:
    with pytest.raises(EnvLoadError, match="does not exist"):
        Environment.load(tmp_path / "nope")
    with pytest.raises(EnvLoadError, match=r"environment\.json: missing"):
        Environment.load(tmp_path)
    (tmp_path / "environment.json").write_text('{"tools": []}')
    with pytest.raises(EnvLoadError, match="invalid environment spec at name"):
        Environment.load(tmp_path)
    (tmp_path / "environment.json").write_text(EnvironmentSpec(name="x").model_dump_json())
    with pytest.raises(EnvLoadError, match=r"tools\.py: missing"):
        Environment.load(tmp_path)
    (tmp_path / "tools.py").write_text("import os\n")
    with pytest.raises(SandboxViolation, match="line 1: import of 'os' is not allowed"):
        Environment.load(tmp_path)
    (tmp_path / "tools.py").write_text("")
    (tmp_path / "initial_state.json").write_text("{oops")
    with pytest.raises(EnvLoadError, match="invalid JSON"):
        Environment.load(tmp_path)


def test_bookstore_example_loads_and_replays_sequences() -> None:
    from autoforge.examples import example_path

    root = example_path("bookstore")
    env = Environment.load(root)
    sequences = json.loads((root / "sequences.json").read_text())
    for sequence in sequences:
        ep = env.episode()
        for call in sequence:
            obs = ep.call(call["tool"], call["arguments"])
            assert obs.error_kind in (None, "tool_error"), obs
        assert ep.state_hash() == state_hash(ep.snapshot())
        assert diff_states(env.initial_state, ep.snapshot()) == ep.diff()
