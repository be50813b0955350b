"""An item the caller must have had through an earlier record in a stated status."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.pairs import pair_lines
from autoforge.synth.behaviour.received import received_checks

DATA: dict[str, Any] = {
    "members": {"M1": {"member_id": "M1"}, "M2": {"member_id": "M2"}},
    "lessons": {"L1": {"lesson_id": "L1"}, "L2": {"lesson_id": "L2"}},
    "bookings": {
        "B1": {"booking_id": "B1", "member_id": "M1", "status": "attended",
               "slots": [{"lesson_id": "L1", "seat": 3}]},
        "B2": {"booking_id": "B2", "member_id": "M2", "status": "cancelled",
               "slots": [{"lesson_id": "L2", "seat": 1}]},
    },
    "ratings": {"R1": {"rating_id": "R1", "member_id": "M1", "lesson_id": "L1", "stars": 5}},
}  # fmt: skip
RATE = ToolBehaviour(
    tool="rate_lesson", kind="create", collection="ratings",
    params=[ParamInfo(name="member_id", references="members"),
            ParamInfo(name="lesson_id", references="lessons"), ParamInfo(name="stars")],
)  # fmt: skip
SAID = "A member may rate a lesson only if they attended it in an attended booking."


def _ctx(data: dict[str, Any]) -> Context:
    ctx = Context(ev=DataEvidence.of(data), policy="")
    ctx.schemas["bookings"] = {"status": {"type": "string", "enum": ["booked", "attended",
                                                                     "cancelled"]}}  # fmt: skip
    return ctx


def test_the_item_must_be_listed_by_a_parent_of_the_owner_in_the_stated_status() -> None:
    (check,) = received_checks(RATE, [SAID], _ctx(DATA))
    assert (check.kind, check.collection, check.values) == (
        "record_for", "bookings", ["member_id", "lesson_id"])  # fmt: skip
    assert check.attribute == "status" and check.table == {"counted": ["attended"],
                                                           "lines": ["slots"]}  # fmt: skip
    guard = "\n".join(pair_lines(check, lambda n: f"{n} is not None", ""))
    state = DATA

    def refused(member: str, lesson: str) -> bool:
        scope = {"state": state, "member_id": member, "lesson_id": lesson, "ToolError": ValueError}
        try:
            exec(guard, scope)
        except ValueError:
            return True
        return False

    assert not refused("M1", "L1")
    assert refused("M1", "L2") and refused("M2", "L2")  # never had it; had it cancelled


def test_no_check_where_the_data_disagrees_or_the_status_is_not_one() -> None:
    broken = {**DATA, "ratings": {"R1": {"rating_id": "R1", "member_id": "M2",
                                         "lesson_id": "L2", "stars": 1}}}  # fmt: skip
    assert received_checks(RATE, [SAID], _ctx(broken)) == []  # a stored rating breaks it
    assert received_checks(RATE, [SAID.replace("an attended", "a paid")], _ctx(DATA)) == []
    reader = RATE.model_copy(update={"kind": "get"})
    assert received_checks(reader, [SAID], _ctx(DATA)) == []
