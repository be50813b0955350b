"""A call that names a record by its key and also names the scope the record lives in (a
resource group, a project) gets the record's own scope: the tool refuses any other value as
not found (``lexicon.scope_params``, ``tasks.blueprints.facts.FactChooser.follows_key``,
``tasks.gold.instantiate``)."""

from __future__ import annotations

import random
from typing import Any

from autoforge.env import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon import SCOPE_NOTE
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec
from autoforge.tasks.blueprints.facts import FactChooser
from autoforge.tasks.gold.instantiate import GoldRun, _resolve_args
from autoforge.tooldocs import ToolSpec

SHEDS = CollectionSchema(
    name="sheds",
    primary_key="shed_name",
    attributes=[
        Attribute(name="shed_name", type="id"),
        Attribute(name="yard", type="string", description=f"{SCOPE_NOTE} list_sheds lists"),
        Attribute(name="colour", type="string"),
    ],
)
SCHEMA = StateSchema(collections=[SHEDS])


def _tool(name: str, params: list[str], access: str) -> ToolSpec:
    return ToolSpec(
        name=name,
        access=access,  # type: ignore[arg-type]
        parameters={
            "type": "object",
            "properties": {p: {"type": "string"} for p in params},
            "required": params,
        },
    )


TOOLS = [
    _tool("list_sheds", ["yard"], "read"),
    _tool("get_shed", ["yard", "shed_name"], "read"),
    _tool("delete_shed", ["yard", "shed_name"], "write"),
    _tool("paint_shed", ["shed_name", "colour"], "write"),
]
SPEC = EnvironmentSpec(name="yards", tools=TOOLS, state_schema=SCHEMA)
#: every shed in a yard of its own: a yard drawn apart from the shed is almost never its own
DATA: dict[str, Any] = {
    "sheds": {
        f"S{i}": {"shed_name": f"S{i}", "yard": f"yard-{i}", "colour": "red" if i % 2 else "blue"}
        for i in range(12)
    }
}


class _Episode:
    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state


def _chooser(seed: int) -> FactChooser:
    return FactChooser(SPEC, _Episode(DATA), random.Random(seed), base_state=DATA)  # type: ignore[arg-type]


def _resolved(tool: str, facts: dict[str, Any], seed: int) -> dict[str, Any]:
    node = CallNode(
        id="c0", tool=tool, args={"yard": FactRef(name="yard"), "shed_name": FactRef(name="shed")}
    )
    bp = Blueprint(
        nodes=[node],
        facts=[
            FactSpec(name="yard", role="attribute", collection="sheds", attribute="yard"),
            FactSpec(name="shed", role="entity", collection="sheds", attribute="shed_name"),
        ],
    )
    run = GoldRun(facts=dict(facts), values={}, calls=[], final_hash="")
    return _resolve_args(node, bp, run, _chooser(seed))


def test_only_the_scope_of_a_keyed_read_or_delete_follows_the_key() -> None:
    chooser = _chooser(0)
    assert chooser.follows_key("get_shed") == {"yard"}
    assert chooser.follows_key("delete_shed") == {"yard"}
    assert chooser.follows_key("list_sheds") == frozenset()  # no record named: yard is free
    assert chooser.follows_key("paint_shed") == frozenset()


def test_the_scope_named_with_a_key_is_the_records_own() -> None:
    for tool in ("get_shed", "delete_shed"):
        for seed in range(10):
            args = _resolved(tool, {}, seed)
            assert DATA["sheds"][args["shed_name"]]["yard"] == args["yard"], (tool, seed)


def test_a_scope_already_held_picks_a_record_that_lives_in_it() -> None:
    for seed in range(10):
        args = _resolved("get_shed", {"yard": "yard-7"}, seed)
        assert args == {"yard": "yard-7", "shed_name": "S7"}
