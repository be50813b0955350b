"""The status a change requires, said as the subject of the sentence that says what the
record becomes ("A placed order becomes `shipped`")."""

from __future__ import annotations


def test_the_subject_of_a_becomes_sentence_is_the_status_required() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.subjects import subject_status_checks
    from autoforge.tooldocs import ToolSpec

    states = ["placed", "shipped", "ready", "done"]
    data = {"orders": {f"O{i}": {"order_id": f"O{i}", "status": s, "mode": "ship"}
                       for i, s in enumerate(states)}}  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    ctx.schemas["orders"] = {"status": {"type": "string", "enum": states}}
    tb = ToolBehaviour(tool="fulfil_order", kind="action", collection="orders",
                       id_param="order_id", params=[ParamInfo(name="order_id")])  # fmt: skip
    said = "A placed `ship` order becomes `shipped`; a placed `pickup` order becomes `ready`."
    (check,) = subject_status_checks(ToolSpec(name="fulfil_order", description=said), tb, ctx)
    assert (check.kind, check.values) == ("status_in", ["placed"])
    other = "Sends the parcel. The customer becomes `shipped` at once."
    assert subject_status_checks(ToolSpec(name="fulfil_order", description=other), tb, ctx) == []
