"""Compiled behaviour code enforces the rules the environment records (``rules.json``): a rule
the artifact states is a rule the tool keeps, and an absent optional argument is no value."""

from __future__ import annotations

import pytest

from autoforge.env import DocRule, ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.compile import compile_tool
from autoforge.synth.behaviour.run import _guarded
from autoforge.tooldocs import ToolSpec


class ToolError(Exception):
    pass


SPEC = ToolSpec(
    name="ship_parcel",
    description="Ship a parcel.",
    parameters={
        "type": "object",
        "properties": {"parcel_id": {"type": "string"}, "speed": {"type": "string"}},
        "required": ["parcel_id"],
    },
    access="write",
)
RULES = [
    DocRule(tool="ship_parcel", kind="status", param="parcel_id", collection="parcels",
            attribute="status", allowed=["packed"], sentence="Only packed parcels ship.",
            source="policy"),
    DocRule(tool="ship_parcel", kind="enum", param="speed", allowed=["slow", "fast"],
            sentence="speed: enum", source="parameter schema"),
]  # fmt: skip


def _tool() -> object:
    tb = ToolBehaviour(
        tool="ship_parcel", kind="update", collection="parcels", id_param="parcel_id",
        params=[ParamInfo(name="parcel_id", required=True), ParamInfo(name="speed")],
    )  # fmt: skip
    code = _guarded(SPEC, compile_tool(tb, SPEC.description), RULES)
    scope: dict[str, object] = {"ToolError": ToolError}
    exec(code, scope)
    return scope["ship_parcel"]


def test_compiled_code_runs_the_recorded_rules_first() -> None:
    ship = _tool()
    state = {"parcels": {"P1": {"status": "packed"}, "P2": {"status": "new"}}}
    assert ship(state, "P1")["status"] == "packed"  # absent ``speed``: no enum refusal
    ship(state, "P1", speed="fast")
    with pytest.raises(ToolError, match="must be one of packed"):
        ship(state, "P2")
    with pytest.raises(ToolError, match="speed"):
        ship(state, "P1", speed="warp")


def test_no_rules_leave_the_code_as_compiled() -> None:
    tb = ToolBehaviour(tool="ship_parcel", kind="update", collection="parcels",
                       id_param="parcel_id", params=[ParamInfo(name="parcel_id")])  # fmt: skip
    code = compile_tool(tb, SPEC.description)
    assert _guarded(SPEC, code, None) == code == _guarded(SPEC, code, [])
