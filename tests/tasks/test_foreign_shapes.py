"""Graph and schema shapes common in foreign tool docs (tau-bench, tau2, vitabench): lookups
that nothing consumes, lists of keys pointing back at their owner, walk lengths that must add
up to a difficulty range."""

from __future__ import annotations

import random
from typing import Any

from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec
from autoforge.tasks.difficulty import preset
from autoforge.tasks.gold.instantiate import instantiate
from autoforge.tasks.graph.dependency import FieldMapping, ToolEdge, ToolGraph, ToolNode
from autoforge.tasks.graph.walks import WalkConfig, random_walk, reach
from autoforge.tasks.pipeline import walk_lengths
from autoforge.tasks.states.population import StateGenerator
from autoforge.tooldocs.spec import ToolSpec


def _edge(source: str, target: str) -> ToolEdge:
    mapping = FieldMapping(output="order_id", param="order_id", reason="key", required=True)
    return ToolEdge(source=source, target=target, mappings=[mapping], reason="key")


def _sinky_graph() -> ToolGraph:
    """Six read tools feeding nothing, one chain ``get_order -> pay -> ship``."""
    sinks = [ToolNode(name=f"lookup_{i}", access="read") for i in range(6)]
    chain = [
        ToolNode(name="get_order", access="read"),
        ToolNode(name="pay", access="write"),
        ToolNode(name="ship", access="write"),
    ]
    edges = [_edge("get_order", "pay"), _edge("pay", "ship")]
    return ToolGraph(env_id="x", nodes=[*sinks, *chain], edges=edges)


def test_reach_knows_which_tools_start_long_walks() -> None:
    graph = _sinky_graph()
    plan = reach(graph, WalkConfig(min_length=1, max_length=3))
    assert plan.chains[3] == {"get_order"}
    assert plan.chains[2] == {"get_order", "pay"}
    assert plan.can_start("get_order", 2, 3, must_write=True)
    assert not plan.can_start("lookup_0", 2, 3, must_write=False)
    assert plan.can_start("lookup_0", 1, 1, must_write=False)


def test_walks_never_start_at_sinks_when_they_must_go_on() -> None:
    graph = _sinky_graph()
    rng = random.Random(0)
    config = WalkConfig(min_length=2, max_length=3, tries=1)
    walks = [random_walk(graph, config, rng) for _ in range(200)]
    # reads are three times as likely to start, and six of seven reads are sinks: the old
    # sampler gave None for most of these
    assert all(w is not None for w in walks)
    assert {w.steps[0].tool for w in walks if w} <= {"get_order", "pay"}
    assert all(w.steps[-1].tool in graph.writes() for w in walks if w and len(w.steps) == 3)
    # a length no chain reaches is still impossible
    assert random_walk(graph, WalkConfig(min_length=4, max_length=4), rng) is None


def test_walk_lengths_add_up_to_the_call_range() -> None:
    for name in ("easy", "medium", "hard"):
        spec = preset(name)
        low, high = spec.ranges["tool_calls"]
        rng = random.Random(1)
        for _ in range(300):
            lengths = walk_lengths(spec, rng)
            assert spec.walks_per_task[0] <= len(lengths) <= spec.walks_per_task[1]
            assert all(spec.walk_length[0] <= n <= spec.walk_length[1] for n in lengths)
            assert low <= sum(lengths) and (high is None or sum(lengths) <= high)


def _shop_spec() -> EnvironmentSpec:
    users = CollectionSchema(
        name="users",
        primary_key="user_id",
        attributes=[
            Attribute(name="user_id", type="id"),
            Attribute(name="email", type="string"),
            Attribute(name="orders", type="array", references="orders"),
        ],
    )
    orders = CollectionSchema(
        name="orders",
        primary_key="order_id",
        attributes=[
            Attribute(name="order_id", type="id"),
            Attribute(name="user_id", type="id", references="users"),
            Attribute(name="total", type="number"),
        ],
    )
    tags = CollectionSchema(
        name="tags",
        primary_key="tag_id",
        attributes=[
            Attribute(name="tag_id", type="id"),
            Attribute(name="orders", type="array", references="orders"),
        ],
    )
    return EnvironmentSpec(name="shop", state_schema=StateSchema(collections=[orders, users, tags]))


def test_lists_of_keys_point_back_consistently() -> None:
    state = StateGenerator(_shop_spec()).generate(random.Random(3))
    users, orders = state["users"], state["orders"]
    assert users and orders
    for order in orders.values():
        assert order["user_id"] in users  # the owner exists (generated first)
    for key, user in users.items():
        assert isinstance(user["orders"], list)
        assert sorted(user["orders"]) == sorted(k for k, o in orders.items() if o["user_id"] == key)
    for tag in state["tags"].values():  # no reference back: a few existing keys
        assert isinstance(tag["orders"], list) and 1 <= len(tag["orders"]) <= 3
        assert set(tag["orders"]) <= set(orders)


_RETURNS_TOOLS = '''
def return_items(state, order_id, item_ids):
    """Return some items of a delivered order."""
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError(f"order {order_id} not found")
    known = {line["item_id"] for line in order["items"]}
    unknown = [i for i in item_ids if i not in known]
    if unknown:
        raise ToolError(f"items {unknown} are not in order {order_id}")
    order["status"] = "return requested"
    return {"order_id": order_id, "returned": len(item_ids)}
'''


def _returns_env() -> Any:
    orders = CollectionSchema(
        name="orders",
        primary_key="order_id",
        attributes=[
            Attribute(name="order_id", type="id"),
            Attribute(name="status", type="string"),
            Attribute(name="items", type="array"),
        ],
    )
    tool = ToolSpec(
        name="return_items",
        access="write",
        parameters={
            "type": "object",
            "properties": {
                "order_id": {"type": "string"},
                "item_ids": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["order_id", "item_ids"],
        },
    )
    spec = EnvironmentSpec(name="rets", tools=[tool],
                           state_schema=StateSchema(collections=[orders]))  # fmt: skip
    state = {"orders": {f"#W{i}": {"order_id": f"#W{i}", "status": "delivered",
                                   "items": [{"item_id": f"{i}00{j}", "price": 5 + j}
                                             for j in range(3)]}
                        for i in range(4)}}  # fmt: skip
    return Environment.from_parts(spec, _RETURNS_TOOLS, state)


def test_plain_identifier_facts_reuse_ids_the_state_holds() -> None:
    env = _returns_env()
    item_schema = {"type": "array", "items": {"type": "string"}}
    bp = Blueprint(
        nodes=[CallNode(id="c0", tool="return_items",
                        args={"order_id": FactRef(name="order_id"),
                              "item_ids": FactRef(name="item_ids")})],
        facts=[FactSpec(name="order_id", role="entity", collection="orders",
                        attribute="order_id"),
               FactSpec(name="item_ids", role="value", json_schema=item_schema)],
    )  # fmt: skip
    for seed in range(6):
        inst = instantiate(bp, env, seed, retries=1)  # no second chance: the first ids work
        order, items = inst.run.facts["order_id"], inst.run.facts["item_ids"]
        lines = {line["item_id"] for line in env.initial_state["orders"][order]["items"]}
        assert len(items) == 1 and set(items) <= lines  # an item of *that* order


def test_an_unreachable_difficulty_stops_early_and_says_why(bookstore_env: Any) -> None:
    from autoforge.tasks.pipeline import UNREACHABLE_AFTER, generate_tasks

    tasks, stats = generate_tasks(bookstore_env, 2, "tool_calls=40-", max_attempts=5000)
    assert not tasks and stats.attempts == UNREACHABLE_AFTER
    assert "out of reach" in stats.note and "tool_calls" in stats.note
    _, fine = generate_tasks(bookstore_env, 2, "medium", seed=1)
    assert fine.note == ""


def test_after_a_call_that_ends_its_record_only_reads_follow() -> None:
    """``cancel_order -> refund_order`` on the same order is always doomed; reading the
    cancelled order is a task."""
    nodes = [
        ToolNode(name="get_order", access="read"),
        ToolNode(name="cancel_order", access="write"),
        ToolNode(name="refund_order", access="write"),
    ]
    edges = [
        _edge("get_order", "cancel_order"),
        _edge("cancel_order", "refund_order"),
        _edge("cancel_order", "get_order"),
    ]
    plan = reach(ToolGraph(env_id="x", nodes=nodes, edges=edges), WalkConfig(max_length=3))
    assert plan.successors["cancel_order"] == ("get_order",)
    assert plan.successors["get_order"] == ("cancel_order",)
