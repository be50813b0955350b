"""A log every write adds to ("Every accepted write adds one entry to `journal`"): one entry
per accepted write with the next id, today, the kind the policy's table gives the tool (else
the value sharing the tool's words, else the status it sets), the records it concerns (the
one acted on, the one that record refers to, and one further), and, for a log of status
changes, the status before and after. Rules only, on a small desk-booking API written for
this test."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from doc_tools import rules_env  # type: ignore[import-not-found]

from autoforge.synth.behaviour.audit import audit_log
from autoforge.synth.behaviour.data import Context, DataEvidence

_RESPONSE = """      responses:
        "200":
          description: The booking
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Booking"}
"""
_DOC = f"""
openapi: 3.0.3
info: {{title: Desks, version: "1"}}
paths:
  /bookings:
    post:
      operationId: book_desk
      summary: Book a desk for a member
      description: The booking starts `booked`. Booking ids are assigned in sequence.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [member_id, desk_id, day]
              properties:
                member_id: {{type: string}}
                desk_id: {{type: string}}
                day: {{type: string, format: date}}
{_RESPONSE}  /bookings/{{booking_id}}/cancel:
    post:
      operationId: cancel_booking
      summary: Cancel a booking
      description: Only `booked` bookings can be cancelled. The booking becomes `cancelled`.
      parameters:
        - {{name: booking_id, in: path, required: true, schema: {{type: string}}}}
{_RESPONSE}  /bookings/{{booking_id}}/check-in:
    post:
      operationId: check_in_booking
      summary: Check a member in
      description: Only `booked` bookings can be checked in. The booking becomes `checked_in`.
      parameters:
        - {{name: booking_id, in: path, required: true, schema: {{type: string}}}}
{_RESPONSE}components:
  schemas:
    Booking:
      type: object
      properties:
        booking_id: {{type: string}}
        member_id: {{type: string}}
        desk_id: {{type: string}}
        day: {{type: string, format: date}}
        status: {{type: string, enum: [booked, checked_in, cancelled]}}
"""
_TABLE = """
| operation | `event` | `booking_id` |
|---|---|---|
| book_desk | `booked` | the new booking |
"""


def _data(log: str) -> dict[str, Any]:
    sites = {f"S{i}": {"site_id": f"S{i}", "name": f"Floor {i}"} for i in (1, 2)}
    desks = {f"D{i}": {"desk_id": f"D{i}", "site_id": f"S{1 + i % 2}"} for i in range(1, 5)}
    members = {f"M{i}": {"member_id": f"M{i}", "name": f"Member {i}"} for i in range(1, 5)}
    statuses = ["booked", "checked_in", "cancelled"]
    bookings = {
        f"B{i:03d}": {
            "booking_id": f"B{i:03d}",
            "member_id": f"M{1 + i % 4}",
            "desk_id": f"D{1 + i % 4}",
            "day": f"2025-03-{10 + i:02d}",
            "status": statuses[i % 3],
        }
        for i in range(1, 10)
    }
    data: dict[str, Any] = {
        "meta": {"today": "2025-03-05"},
        "sites": sites,
        "desks": desks,
        "members": members,
        "bookings": bookings,
    }
    if log == "journal":
        events = ["booked", "booking_cancelled", "checked_in"]
        data["journal"] = {
            f"J{i:03d}": {
                "entry_id": f"J{i:03d}",
                "on": f"2025-03-0{1 + i % 4}",
                "event": events[i % 3],
                "member_id": f"M{1 + i % 4}",
                "booking_id": f"B{1 + i % 9:03d}",
                "site_id": f"S{1 + i % 2}",
            }
            for i in range(1, 7)
        }
    else:
        data["changes"] = {
            f"C{i:02d}": {
                "change_id": f"C{i:02d}",
                "booking_id": f"B{i:03d}",
                "old_status": None if i % 2 else "booked",
                "new_status": "booked" if i % 2 else "cancelled",
                "at": f"2025-03-0{1 + i % 4}T09:00:00Z",
            }
            for i in range(1, 7)
        }
    return data


def _new(before: dict[str, Any], after: dict[str, Any], coll: str) -> list[dict[str, Any]]:
    return [r for k, r in after.get(coll, {}).items() if k not in before.get(coll, {})]


def _call(env: Any, data: dict[str, Any], tool: str, args: dict[str, Any]) -> dict[str, Any]:
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call(tool, args).ok
    return ep.snapshot()


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    data = _data("journal")
    policy = (
        "Every accepted write adds one entry to `journal`, dated today, with the member, "
        f"the booking and the site.\n{_TABLE}\nReads log nothing.\n"
    )
    return rules_env(tmp_path_factory.mktemp("audit"), _DOC, data, policy), data


def test_a_create_logs_the_table_kind_the_new_record_and_what_it_refers_to(
    journal: tuple[Any, dict[str, Any]],
) -> None:
    env, data = journal
    after = _call(env, data, "book_desk", {"member_id": "M2", "desk_id": "D3", "day": "2025-03-20"})
    (made,) = _new(data, after, "bookings")
    assert _new(data, after, "journal") == [
        {
            "entry_id": "J007",
            "on": "2025-03-05",
            "event": "booked",
            "member_id": "M2",
            "booking_id": made["booking_id"],
            "site_id": "S2",
        }
    ]


def test_a_change_logs_the_kind_its_words_or_its_status_name(
    journal: tuple[Any, dict[str, Any]],
) -> None:
    env, data = journal
    booked = next(k for k, r in data["bookings"].items() if r["status"] == "booked")
    rec = data["bookings"][booked]
    for tool, kind in (("cancel_booking", "booking_cancelled"), ("check_in_booking", "checked_in")):
        (entry,) = _new(data, _call(env, data, tool, {"booking_id": booked}), "journal")
        assert entry["event"] == kind
        assert (entry["booking_id"], entry["member_id"]) == (booked, rec["member_id"])


def test_a_refused_call_logs_nothing(journal: tuple[Any, dict[str, Any]]) -> None:
    env, data = journal
    done = next(k for k, r in data["bookings"].items() if r["status"] == "cancelled")
    ep = env.episode(state=copy.deepcopy(data))
    assert not ep.call("cancel_booking", {"booking_id": done}).ok
    assert ep.snapshot()["journal"] == data["journal"]


def test_a_log_of_status_changes_holds_the_status_before_and_after(tmp_path: Path) -> None:
    data = _data("changes")
    policy = "Every status change adds one entry to `changes` with the old and new status.\n"
    env = rules_env(tmp_path, _DOC, data, policy)
    booked = next(k for k, r in data["bookings"].items() if r["status"] == "booked")
    (entry,) = _new(data, _call(env, data, "cancel_booking", {"booking_id": booked}), "changes")
    assert entry == {
        "change_id": "C07",
        "booking_id": booked,
        "old_status": "booked",
        "new_status": "cancelled",
        "at": "2025-03-05T00:00:00",
    }
    after = _call(env, data, "book_desk", {"member_id": "M1", "desk_id": "D1", "day": "2025-03-21"})
    (first,) = _new(data, after, "changes")
    assert (first["old_status"], first["new_status"]) == (None, "booked")


@pytest.mark.parametrize(
    "policy",
    [
        "Reads and refused calls log nothing in `journal`.",
        "No write adds an entry to `journal`.",
        "A cancellation may be noted in `journal` by staff.",
    ],
)
def test_no_sentence_that_every_write_logs_means_no_log(policy: str) -> None:
    ev = DataEvidence.of(_data("journal"))
    assert audit_log(Context(ev=ev, policy=policy)) is None
