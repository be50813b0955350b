"""Ownership read from a tool's own sentence, on data written for this test: the member named
in a cancellation must be the one who booked the slot; the argument is checked, never written
over the record."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env import Effect, ParamInfo, ToolBehaviour, Value
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.ownership import owned_checks, without_owner_writes

DATA: dict[str, Any] = {
    "members": {"M1": {"member_id": "M1"}, "M2": {"member_id": "M2"}},
    "slots": {
        "S1": {"slot_id": "S1", "member_id": "M1", "state": "held"},
        "S2": {"slot_id": "S2", "member_id": "M2", "state": "held"},
    },
}


class ToolError(Exception):
    pass


def _cancel() -> ToolBehaviour:
    params = [ParamInfo(name="slot_id", required=True), ParamInfo(name="member_id", required=True)]
    write = Effect(kind="set", fields={"member_id": Value(source="param", name="member_id"),
                                       "state": Value(source="const", const="free")})  # fmt: skip
    return ToolBehaviour(tool="cancel_slot", kind="action", collection="slots",
                         id_param="slot_id", params=params, effects=[write])  # fmt: skip


@pytest.mark.parametrize(
    "sentence",
    [
        "Only the member who booked the slot may cancel it.",
        "The member named in the call must be the one holding the slot.",
    ],
)
def test_the_holder_named_beside_the_record_must_hold_it(sentence: str) -> None:
    tb = _cancel()
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    (check,) = owned_checks(tb, [sentence], ctx)
    assert (check.kind, check.param) == ("owned", "member_id")
    for member, ok in (("M1", True), ("M2", False)):
        scope = {"ToolError": ToolError, "_rec": DATA["slots"]["S1"], "member_id": member}
        try:
            exec("\n".join(_check_lines(check, tb)), scope)
        except ToolError:
            assert not ok
        else:
            assert ok
    (kept,) = without_owner_writes(tb.effects, [check])
    assert set(kept.fields) == {"state"}


def test_a_uniqueness_rule_or_no_sentence_is_not_ownership() -> None:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    assert owned_checks(_cancel(), ["The slot must not belong to another member."], ctx) == []
    assert owned_checks(_cancel(), ["The member is recorded on the slot."], ctx) == []
