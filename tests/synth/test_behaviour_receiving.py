""" "Only <status> <noun> accept / take / get <what>": the tools whose action the words after
the verb name need the record of that noun in one of those statuses."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.policy import policy_receiving_status

DATA: dict[str, Any] = {
    "trips": {f"T{i}": {"trip_id": f"T{i}", "status": s}
              for i, s in enumerate(["scheduled", "departed", "cancelled"])},
    "seats": {"S1": {"seat_id": "S1", "trip_id": "T0", "status": "held"}},
}  # fmt: skip
HOLD = ToolBehaviour(tool="hold_seat", kind="create", collection="seats",
                     params=[ParamInfo(name="trip_id", references="trips")])  # fmt: skip
MOVE = ToolBehaviour(tool="move_seat", kind="action", collection="seats", id_param="seat_id",
                     params=[ParamInfo(name="seat_id", references="seats")])  # fmt: skip
RATE = ToolBehaviour(tool="rate_trip", kind="action", collection="trips", id_param="trip_id",
                     params=[ParamInfo(name="trip_id", references="trips")])  # fmt: skip


def _read(policy: str, tb: ToolBehaviour) -> list[tuple[str, str | None, list[Any]]]:
    ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
    ctx.schemas["trips"] = {"status": {"enum": ["scheduled", "departed", "cancelled"]}}
    return [(c.kind, c.via, c.values) for c in policy_receiving_status(tb, ctx)]


def test_only_records_in_a_status_accept_what_a_tool_makes_or_does() -> None:
    policy = "# T\n\nOnly scheduled trips take seats or moves.\n"
    assert _read(policy, HOLD) == [("status_in", "param:trip_id", ["scheduled"])]
    assert _read(policy, MOVE) == [("status_in", "trip_id", ["scheduled"])]
    assert _read(policy, RATE) == []  # rating is not what they take
    ticked = "# T\n\nOnly `scheduled` or `departed` trips accept new seats.\n"
    assert _read(ticked, HOLD) == [("status_in", "param:trip_id", ["departed", "scheduled"])]


def test_no_status_before_the_noun_is_no_requirement() -> None:
    assert _read("# T\n\nOnly staff trips take seats.\n", HOLD) == []
    assert _read("# T\n\nOnly scheduled buses take seats.\n", HOLD) == []  # not a trip


def test_records_that_can_do_nothing_refuse_every_change() -> None:
    from autoforge.synth.behaviour.policy import policy_status_checks

    policy = "# T\n\nDeparted trips may still be rated; cancelled trips can do nothing.\n"
    ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
    ctx.schemas["trips"] = {"status": {"enum": ["scheduled", "departed", "cancelled"]}}
    for tb, via in ((HOLD, "param:trip_id"), (MOVE, "trip_id"), (RATE, None)):
        found = [(c.kind, c.via, c.values) for c in policy_status_checks(tb, ctx)]
        assert found == [("status_not_in", via, ["cancelled"])], tb.tool


def test_only_a_status_standing_for_the_record_is_required_of_it() -> None:
    from autoforge.synth.behaviour.policy import policy_status_nouns

    ctx = Context(ev=DataEvidence.of(DATA), policy="# T\n\nOnly scheduled ones may be rated.\n")
    ctx.schemas["trips"] = {"status": {"enum": ["scheduled", "departed", "cancelled"]}}
    found = policy_status_nouns("Rate a trip. Only a departed trip or a scheduled trip counts.",
                                RATE, ctx)  # fmt: skip
    assert [(c.kind, c.via, c.values) for c in found] == [("status_in", None, ["scheduled"])]
    ctx.policy = ""
    said = policy_status_nouns("Only departures or `cancelled` can be rated.", RATE, ctx)
    assert said == []  # "departures" is no status
    plural = policy_status_nouns("Only departeds or cancelleds can be rated.", RATE, ctx)
    assert [c.values for c in plural] == [["cancelled", "departed"]]
    assert policy_status_nouns("Only scheduled ones can be moved.", RATE, ctx) == []


def test_a_read_only_record_is_refused_not_required() -> None:
    from autoforge.synth.behaviour.text import status_checks
    from autoforge.tooldocs import ToolSpec

    policy = "# T\n\n## Rating\n\nA cancelled trip is read-only: no edits, no ratings.\n"
    ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
    ctx.schemas["trips"] = {"status": {"enum": ["scheduled", "departed", "cancelled"]}}
    ctx.headed = {"Rating": "rate_trip"}
    found = status_checks(ToolSpec(name="rate_trip", description="Rate a trip."), RATE, ctx)
    assert ("status_in", ["cancelled"]) not in [(c.kind, c.values) for c in found]
