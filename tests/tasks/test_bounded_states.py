"""Generated start states stay bounded when a documented record nests without end (a tree
whose nodes hold nodes), and the generator says how much it cut."""

from __future__ import annotations

import json
import random
from typing import Any

from autoforge.env import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.states.population import MAX_NESTED_DEPTH, StateGenerator
from autoforge.tooldocs import ToolSpec


def _node(depth: int) -> dict[str, Any]:
    if depth == 0:
        return {"type": "object", "properties": {"label": {"type": "string"}}}
    child = _node(depth - 1)
    return {
        "type": "object",
        "properties": {
            "label": {"type": "string"},
            "children": {"type": "array", "items": child},
            "first": child,
        },
    }


def _spec() -> EnvironmentSpec:
    tree = CollectionSchema(
        name="trees",
        primary_key="tree_id",
        attributes=[Attribute(name="tree_id", type="id"), Attribute(name="root", type="object")],
    )
    returns = {
        "type": "object",
        "properties": {"tree_id": {"type": "string"}, "root": _node(16)},
    }
    get = ToolSpec(
        name="get_tree",
        parameters={
            "type": "object",
            "properties": {"tree_id": {"type": "string"}},
            "required": ["tree_id"],
        },
        returns=returns,
        access="read",
    )
    return EnvironmentSpec(name="grove", tools=[get], state_schema=StateSchema(collections=[tree]))


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def test_a_record_nested_without_end_is_cut_and_the_cut_is_counted() -> None:
    generator = StateGenerator(_spec(), {})
    state = generator.generate(random.Random(3))
    trees = state["trees"]
    assert trees
    for record in trees.values():
        assert _depth(record["root"]) <= MAX_NESTED_DEPTH + 1
    assert len(json.dumps(state)) < 2_000_000
    assert generator.cuts["children"] + generator.cuts["first"] > 0
