"""Writes stated in the policy for one case of a call: the literal values a choice's own list
item gives ("- `deny`: status `denied`, `refund` 0.00"), written only when that choice is
made, and the stamp a tool's own policy section states ("`amended_on` becomes today"), while
a stamp on other records ("every other booking ... `cancelled_on` = today") stays theirs; and
"at least one of the two must be sent" there refuses a call that sends none; and a stated
sequence of stages ("requested to granted, granted to cancelled") moves a record one stage."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from doc_tools import rules_env  # type: ignore[import-not-found]

from autoforge.env import Environment

TODAY = "2026-05-04"
BOOKING = {
    "type": "object",
    "properties": {
        "booking_id": {"type": "string"},
        "status": {"type": "string", "enum": ["requested", "granted", "denied", "cancelled"]},
        "guest": {"type": "string"},
        "notes": {"type": "string"},
        "refund": {"type": "number", "nullable": True},
        "decided_on": {"type": "string", "format": "date", "nullable": True},
        "amended_on": {"type": "string", "format": "date", "nullable": True},
        "cancelled_on": {"type": "string", "format": "date", "nullable": True},
    },
}


def _op(op_id: str, summary: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "post": {
            "operationId": op_id,
            "summary": summary,
            "parameters": [
                {"name": "booking_id", "in": "path", "required": True, "schema": {"type": "string"}}
            ],
            "requestBody": {"content": {"application/json": {"schema": body}}},
            "responses": {"200": {"description": "The booking", "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Booking"}}}}},
        }
    }  # fmt: skip


OPENAPI = {
    "openapi": "3.0.3",
    "info": {"title": "Bookings", "version": "1"},
    "paths": {
        "/bookings/{booking_id}/decision": _op("decide_booking", "Decide a booking request", {
            "type": "object", "required": ["decision"],
            "properties": {"decision": {"type": "string", "enum": ["grant", "deny"]}}}),
        "/bookings/{booking_id}/advance": _op("advance_booking", "Advance a booking", {
            "type": "object", "properties": {}}),
        "/bookings/{booking_id}/amend": _op("amend_booking", "Amend a booking", {
            "type": "object",
            "properties": {"guest": {"type": "string"}, "notes": {"type": "string"}}}),
    },
    "components": {"schemas": {"Booking": BOOKING}},
}  # fmt: skip
POLICY = """# Bookings

Today is the `today` of the data's `meta`.

## Deciding (decide_booking)

Only `requested` bookings can be decided.

- `deny`: status `denied`, `refund` 0.00, `decided_on` today.
- `grant`: status `granted`, `decided_on` today; the refund stays as it was.

## Advancing (advance_booking)

Steps a booking forward by one stage: requested to granted, granted to cancelled.

## Amending (amend_booking)

Only `requested` or `granted` bookings can be amended. At least one of the two must be
sent. `amended_on` becomes today.
Amending also cancels every other booking of the guest, with `cancelled_on` = today.
"""


def _record(i: int, status: str) -> dict[str, Any]:
    return {"booking_id": f"B{i}", "status": status, "guest": f"G{i}", "notes": "", "refund": None,
            "decided_on": None, "amended_on": None, "cancelled_on": None}  # fmt: skip


DATA: dict[str, Any] = {
    "meta": {"today": TODAY},
    "bookings": {f"B{i}": _record(i, s) for i, s in
                 enumerate(["requested", "requested", "granted", "denied", "cancelled"])},
}  # fmt: skip


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    folder = tmp_path_factory.mktemp("cases")
    return rules_env(folder, yaml.safe_dump(OPENAPI, sort_keys=False), DATA, POLICY)


def _call(env: Environment, tool: str, **args: Any) -> tuple[bool, dict[str, Any]]:
    ep = env.episode(state=copy.deepcopy(DATA))
    obs = ep.call(tool, args)
    return obs.ok, ep.snapshot()["bookings"]


def test_a_choice_writes_the_literals_its_own_case_states(env: Environment) -> None:
    ok, after = _call(env, "decide_booking", booking_id="B0", decision="deny")
    assert ok and after["B0"]["status"] == "denied" and after["B0"]["refund"] == 0.0
    assert after["B0"]["decided_on"] == TODAY
    ok, after = _call(env, "decide_booking", booking_id="B1", decision="grant")
    assert ok and after["B1"]["status"] == "granted" and after["B1"]["refund"] is None


def test_a_tools_own_section_stamps_its_record_but_not_the_others(env: Environment) -> None:
    ok, after = _call(env, "amend_booking", booking_id="B2", guest="G9")
    assert ok and after["B2"]["amended_on"] == TODAY and after["B2"]["guest"] == "G9"
    # "every other booking ... `cancelled_on` = today" is about other records
    assert after["B2"]["cancelled_on"] is None


def test_a_section_saying_one_argument_must_be_sent_refuses_a_call_without_any(
    env: Environment,
) -> None:
    assert not _call(env, "amend_booking", booking_id="B2")[0]
    assert _call(env, "amend_booking", booking_id="B2", notes="late")[0]


def test_at_least_one_must_be_sent_in_the_description_is_read_too() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.guards import _at_least_one
    from autoforge.tooldocs import ToolSpec

    params = [ParamInfo(name="pet_id", required=True), ParamInfo(name="a"), ParamInfo(name="b")]
    tb = ToolBehaviour(tool="t", kind="update", collection="pets", id_param="pet_id",
                       params=params)  # fmt: skip
    ctx = Context(ev=DataEvidence.of({}), policy="")
    said = "Updates one or more dates; at least one must be sent."
    assert _at_least_one(ToolSpec(name="t", description=said), tb, ctx) == (said, "docs")
    # "at least one line" is about the record, not the call's arguments
    other = "Updates the order; it must have at least one line."
    assert _at_least_one(ToolSpec(name="t", description=other), tb, ctx) is None


def test_a_stated_sequence_moves_the_record_one_stage_per_call(env: Environment) -> None:
    ok, after = _call(env, "advance_booking", booking_id="B0")
    assert ok and after["B0"]["status"] == "granted"  # one stage, not on to cancelled
    ok, after = _call(env, "advance_booking", booking_id="B2")
    assert ok and after["B2"]["status"] == "cancelled"
    assert not _call(env, "advance_booking", booking_id="B3")[0]  # denied: no stage after it


def test_a_sequence_needs_two_moves_from_distinct_starts_and_no_loop() -> None:
    from autoforge.synth.behaviour.steps import stated_steps

    statuses = ["a", "b", "c"]
    assert stated_steps(["Moves it: a to b, b to c."], statuses)[0] == [("b", "c"), ("a", "b")]
    assert stated_steps(["Moves a to b."], statuses)[0] == []
    assert stated_steps(["a to b, a to c."], statuses)[0] == []  # one start, two ends
    assert stated_steps(["a to b, b to a."], statuses)[0] == []  # a loop
    assert stated_steps(["If late, a to b, b to c."], statuses)[0] == []


def test_a_sentence_saying_an_optional_argument_is_required_makes_the_call_need_it() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.guards import stated_required
    from autoforge.tooldocs import ToolSpec

    params = [ParamInfo(name="event_id", required=True), ParamInfo(name="cancel_reason"),
              ParamInfo(name="note", nullable=True)]  # fmt: skip
    tb = ToolBehaviour(tool="t", kind="action", collection="events", id_param="event_id",
                       params=params)  # fmt: skip
    ctx = Context(ev=DataEvidence.of({}), policy="")

    def needs(text: str) -> list[list[str]]:
        return [c.values for c in stated_required(ToolSpec(name="t", description=text), tb, ctx)]

    assert needs("Cancels the event. A reason is required.") == [["cancel_reason"]]
    assert needs("`cancel_reason` must always be sent.") == [["cancel_reason"]]
    assert needs("A reason is required for late cancellations.") == []  # a condition
    assert needs("A note is required.") == []  # nullable: null says something
