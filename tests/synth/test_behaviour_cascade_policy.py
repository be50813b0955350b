"""A cascade the policy states in the tool's own section, when its description says nothing of
the records that refer to its target; written for this test."""

from __future__ import annotations

from typing import Any

from autoforge.env import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.cascade import cascades
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.headings import heading_owners
from autoforge.tooldocs import ToolSpec

DATA: dict[str, Any] = {
    "shelves": {"S1": {"shelf_id": "S1", "status": "open"}},
    "jars": {
        "J1": {"jar_id": "J1", "shelf_id": "S1", "status": "stored", "moved_on": None},
        "J2": {"jar_id": "J2", "shelf_id": "S1", "status": "moved", "moved_on": "2030-01-02"},
    },
}
POLICY = """# Pantry

## Closing a shelf
- every `stored` jar on it becomes `moved`;
- the shelf itself becomes `closed`.
"""


def _ctx() -> Context:
    ctx = Context(ev=DataEvidence.of(DATA), policy=POLICY)
    ctx.schemas["jars"] = {"status": {"type": "string", "enum": ["stored", "moved"]}}
    ctx.headed = heading_owners(POLICY, [("close_shelf", "Close a shelf")], list(DATA))
    return ctx


def test_the_tools_policy_section_gives_the_cascade() -> None:
    tb = ToolBehaviour(tool="close_shelf", kind="action", collection="shelves",
                       id_param="shelf_id", params=[ParamInfo(name="shelf_id")])  # fmt: skip
    spec = ToolSpec(name="close_shelf", description="Closes a shelf.")
    (effect,) = cascades(spec, tb, _ctx())
    assert (effect.collection, effect.over, effect.where) == (
        "jars", ["jars", "shelf_id"], {"status": ["stored"]})  # fmt: skip
    assert effect.fields["status"].const == "moved"
