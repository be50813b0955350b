"""Test states and arguments built without a model."""

from __future__ import annotations

from autoforge.env.artifact.spec import StateSchema
from autoforge.synth.checking.teststate import (
    fits,
    happy_arguments,
    sample_value,
    synthetic_state,
    unknown_key_calls,
)
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.tooldocs import ToolDocs
from autoforge.tooldocs.spec import ToolSpec

ITEMS = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "task_id": {"type": "string"},
            "weight": {"type": "integer", "minimum": 5, "maximum": 9},
            "note": {"type": "string"},
        },
        "required": ["task_id", "weight"],
    },
}


def test_sample_value_is_valid_and_uses_real_keys(todo_schema: StateSchema) -> None:
    state = synthetic_state(todo_schema)
    value = sample_value(ITEMS, "items", todo_schema, state)
    assert value == [{"task_id": "TAS-1", "weight": 5}]
    assert fits(value, ITEMS)
    assert not fits([{"task_id": "TAS-1"}], ITEMS)  # weight is required
    assert sample_value({"type": "string"}, "due_date", todo_schema, state) == "2024-05-15"


def test_happy_arguments_meet_the_guard_and_unknown_keys_are_probed(
    todo_docs: ToolDocs, todo_schema: StateSchema
) -> None:
    state = synthetic_state(todo_schema)
    state["tasks"]["TAS-1"]["status"] = "done"
    spec = todo_docs.tool("complete_task")
    c = classify_tool(spec, todo_schema)
    assert c.guard == ("status", "open")  # "Mark an open task as done"
    happy = happy_arguments(spec, c, todo_schema, state)
    assert state["tasks"][happy["task_id"]]["status"] == "open"
    assert unknown_key_calls(spec, c, todo_schema, happy) == [
        ("task_id", {"task_id": "__no_such_id__"})
    ]


def test_create_refs_are_checked_keys(todo_docs: ToolDocs, todo_schema: StateSchema) -> None:
    spec = todo_docs.tool("create_task")
    c = classify_tool(spec, todo_schema)
    assert c.refs == {"project_id": "projects"}
    state = synthetic_state(todo_schema)
    happy = happy_arguments(spec, c, todo_schema, state)
    assert happy["project_id"] in state["projects"] and happy["title"]
    probes = dict(unknown_key_calls(spec, c, todo_schema, happy))
    assert probes["project_id"]["project_id"] == "__no_such_id__"


def test_synthetic_state_respects_references(todo_schema: StateSchema) -> None:
    state = synthetic_state(todo_schema, n=2)
    assert set(state["tasks"]) == {"TAS-1", "TAS-2"}
    assert all(t["project_id"] in state["projects"] for t in state["tasks"].values())
    assert ToolSpec(name="x").param_names == []


def test_a_new_entry_avoids_only_the_flags_the_docs_require() -> None:
    """``new_item_ids`` next to ``item_ids`` names a sibling entry; an entry whose field is
    false is skipped only when the docs require that field of a new entry: no field name
    (``available``) is built in."""
    from autoforge.env.artifact.spec import Attribute, CollectionSchema
    from autoforge.synth.checking.teststate import _pair_new_ids
    from autoforge.synth.rulecode.effects import tool_entry_flags

    entries = "map from id to object with keys: item_id, stocked, available"
    schema = StateSchema(collections=[CollectionSchema(
        name="products", primary_key="product_id", attributes=[
            Attribute(name="product_id", type="id"),
            Attribute(name="variants", type="object", description=entries)])])  # fmt: skip
    variants = {"i1": {"item_id": "i1", "stocked": True, "available": True},
                "i2": {"item_id": "i2", "stocked": False, "available": False},
                "i3": {"item_id": "i3", "stocked": True, "available": True}}  # fmt: skip
    state = {"products": {"p1": {"product_id": "p1", "variants": variants}}}

    def new_ids(description: str) -> tuple[list[str], list[str]]:
        flags = tool_entry_flags(ToolSpec(name="exchange_items", description=description),
                                 "", schema)  # fmt: skip
        args: dict[str, list[str]] = {"item_ids": ["i1"], "new_item_ids": []}
        _pair_new_ids(args, state, flags)  # type: ignore[arg-type]
        return args["new_item_ids"], flags

    assert new_ids("Each item can be exchanged for a stocked new item.") == (["i3"], ["stocked"])
    assert new_ids("Each item can be exchanged for another one.") == (["i2"], [])


def test_slice_state_is_the_same_under_every_hash_seed() -> None:
    """Records a slice pulls in because another record mentions them come in one order, not
    in the order of a set of strings (which changes with PYTHONHASHSEED)."""
    import json
    import os
    import subprocess
    import sys

    code = (
        "import json\nfrom autoforge.synth.checking.teststate import slice_state\n"
        "state = {'a': {f'a{i}': {'refs': [f'b{j}' for j in range(9)]} for i in range(2)},\n"
        "         'b': {f'b{j}': {'n': j} for j in range(9)}}\n"
        "print(json.dumps(list(slice_state(state, n=1)['b'])))\n"
    )
    orders = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        orders.add(tuple(json.loads(run.stdout)))
    assert len(orders) == 1
    assert sorted(next(iter(orders))[1:]) == list(next(iter(orders))[1:])
