"""Two status checks on the same record that no status passes together (a sentence about the
value a call sets, read as the status the record must have) are dropped, not compiled into a
tool that refuses every call; checks that agree, or bound different records, stay."""

from __future__ import annotations

from autoforge.env import BehaviourModel, Check, ToolBehaviour
from autoforge.synth.behaviour.contradict import contradicted, drop_contradictions


def _status(values: list[str], via: str | None = None, sentence: str = "") -> Check:
    return Check(kind="status_in", param="kiln_id", collection="kilns", attribute="state",
                 values=values, via=via, sentence=sentence)  # fmt: skip


def test_disjoint_status_checks_on_one_record_are_dropped() -> None:
    cold = _status(["cold"], sentence="A kiln can be put `cold` only when no firing is queued.")
    hot = _status(["hot"], sentence="Setting `hot` is always allowed.")
    exists = Check(kind="exists", param="kiln_id", collection="kilns")
    tb = ToolBehaviour(tool="set_kiln_state", kind="update", collection="kilns",
                       id_param="kiln_id", checks=[exists, cold, hot])  # fmt: skip
    assert contradicted(tb) == [cold, hot]
    model = BehaviourModel(tools=[tb])
    drop_contradictions(model)
    assert model.tools[0].checks == [exists]


def test_agreeing_checks_and_checks_on_other_records_stay() -> None:
    one = _status(["cold", "idle"])
    two = _status(["idle"])
    other = _status(["hot"], via="twin_kiln_id")  # another record: no contradiction
    tb = ToolBehaviour(tool="load_kiln", kind="action", collection="kilns", id_param="kiln_id",
                       checks=[one, two, other])  # fmt: skip
    assert contradicted(tb) == []
    model = BehaviourModel(tools=[tb])
    drop_contradictions(model)
    assert model.tools[0].checks == [one, two, other]
