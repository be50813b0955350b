"""A write on a record already in the value it sets changes nothing: the settling guard.

A made-up boat hire, docs only: ``hires`` have a ``phase``; ``dock_hire`` writes ``"docked"``,
``launch_hire`` writes ``"afloat"``, ``sink_hire`` writes ``"sunk"`` (its only stated value
in a collection of its own, so records there start unset).
"""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, ReasoningRef
from autoforge.tasks.gold.plausible import Guard
from autoforge.tasks.gold.settle import guarded_steps, settling_guards, with_settling
from autoforge.tasks.states.domain import domains
from autoforge.tooldocs.spec import ToolSpec

_SOURCE = """
def dock_hire(state, hire_id):
    state["hires"][hire_id]["phase"] = "docked"
    return state["hires"][hire_id]


def launch_hire(state, hire_id):
    state["hires"][hire_id]["phase"] = "afloat"
    return state["hires"][hire_id]


def sink_raft(state, raft_id):
    state["rafts"][raft_id]["phase"] = "sunk"
    return state["rafts"][raft_id]
"""


def _tool(name: str, key: str) -> ToolSpec:
    params = {key: {"type": "string"}}
    return ToolSpec(
        name=name, description=name.replace("_", " "), access="write",
        parameters={"type": "object", "properties": params, "required": [key]},
    )  # fmt: skip


def _spec() -> EnvironmentSpec:
    colls = [
        CollectionSchema(name=name, primary_key=f"{name[:-1]}_id", attributes=[
            Attribute(name=f"{name[:-1]}_id", type="id"), Attribute(name="phase", type="string")])
        for name in ("hires", "rafts")
    ]  # fmt: skip
    tools = [_tool("dock_hire", "hire_id"), _tool("launch_hire", "hire_id"),
             _tool("sink_raft", "raft_id")]  # fmt: skip
    return EnvironmentSpec(name="boats", tools=tools, state_schema=StateSchema(collections=colls))


def test_each_write_refuses_only_the_value_it_sets() -> None:
    spec = _spec()
    found = settling_guards(spec, _SOURCE, domains(spec, None, _SOURCE))
    dock = found["dock_hire"][0]
    assert (dock.param, dock.collection, dock.attribute) == ("hire_id", "hires", "phase")
    assert dock.forbidden == ("docked",) and dock.allowed == ("afloat",)
    assert not dock.admits({"phase": "docked"})
    assert dock.admits({"phase": "afloat"}) and dock.admits({"phase": None})  # a new record
    sink = found["sink_raft"][0]
    assert sink.allowed == (None,)  # rafts start unset: the state before the one write


def test_a_stated_guard_on_the_attribute_wins() -> None:
    spec = _spec()
    settle = settling_guards(spec, _SOURCE, domains(spec, None, _SOURCE))
    stated = Guard("dock_hire", "hire_id", "hires", "phase", ("afloat",), rule="docs")
    merged = with_settling({"dock_hire": [stated]}, settle)
    assert merged["dock_hire"] == [stated]
    assert merged["launch_hire"] == settle["launch_hire"]


def test_a_reasoning_step_feeding_a_guarded_call_carries_its_guard() -> None:
    spec = _spec()
    settle = settling_guards(spec, _SOURCE, domains(spec, None, _SOURCE))
    nodes: list[Any] = [
        CallNode(id="c1", tool="dock_hire", args={"hire_id": ReasoningRef(node="r1")}),
        CallNode(id="c2", tool="launch_hire", args={"hire_id": FactRef(name="h")}),
    ]
    bp = Blueprint(id="b", nodes=nodes)
    assert guarded_steps(bp, settle) == {"r1": settle["dock_hire"]}
