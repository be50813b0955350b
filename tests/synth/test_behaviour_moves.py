"""A record moved from one referred record to another, on data written for this test: a
lesson moves "to a different slot in the same room"; the current slot and a slot of another
room are refused."""

from __future__ import annotations

from typing import Any

from doc_tools import guard_refuses  # type: ignore[import-not-found]

from autoforge.env import Effect, ParamInfo, ToolBehaviour, Value
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.moves import move_checks

DATA: dict[str, Any] = {
    "rooms": {"RM1": {"room_id": "RM1"}, "RM2": {"room_id": "RM2"}},
    "slots": {
        "SL1": {"slot_id": "SL1", "room_id": "RM1"},
        "SL2": {"slot_id": "SL2", "room_id": "RM1"},
        "SL3": {"slot_id": "SL3", "room_id": "RM2"},
    },
    "lessons": {"LS1": {"lesson_id": "LS1", "slot_id": "SL1"}},
}


def _move() -> ToolBehaviour:
    params = [ParamInfo(name="lesson_id"), ParamInfo(name="to_slot")]
    write = Effect(kind="set", fields={"slot_id": Value(source="param", name="to_slot")})
    return ToolBehaviour(tool="move_lesson", kind="action", collection="lessons",
                         id_param="lesson_id", params=params, effects=[write])  # fmt: skip


def test_a_move_to_a_different_slot_in_the_same_room() -> None:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    said = ["Moves the lesson to a different slot in the same room."]
    checks = move_checks(_move(), said, ctx)
    assert {c.kind for c in checks} == {"differs", "same_parent"}
    code = "\n".join(line for c in checks for line in _check_lines(c, _move()))
    for slot, ok in (("SL2", True), ("SL1", False), ("SL3", False)):
        refused = guard_refuses(code, state=DATA, to_slot=slot, _rec=DATA["lessons"]["LS1"])
        assert refused is not ok


def test_a_move_no_sentence_bounds_is_free() -> None:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    assert move_checks(_move(), ["Moves the lesson to the given slot."], ctx) == []
