"""A write "For a <noun> whose <date> is today or earlier" requires its record's date to be so,
the date named by its own name with or without backticks; an attribute the record lacks, or a
sentence that neither opens on its records nor says "only" or "must", gives nothing (a small
events API written here)."""

from __future__ import annotations

from typing import Any

from autoforge.env import ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.text import date_window_checks
from autoforge.tooldocs import ToolSpec

DATA: dict[str, Any] = {
    "events": {
        f"E{i}": {"event_id": f"E{i}", "held_on": f"2031-01-0{i}", "status": "booked"}
        for i in range(1, 5)
    }
}


def _checks(description: str) -> list[Any]:
    tb = ToolBehaviour(tool="bill_event", kind="action", collection="events", id_param="event_id")
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    return date_window_checks(ToolSpec(name="bill_event", description=description), tb, ctx)


def test_the_record_date_a_sentence_opening_on_the_records_bounds() -> None:
    (c,) = _checks("For a booked event whose held_on is today or earlier. Bills it.")
    assert (c.kind, c.attribute, c.values) == ("date_window", "held_on", ["<="])
    (c,) = _checks("For an event whose `held_on` is after today.")
    assert c.values == [">"]


def test_other_sentences_and_unknown_attributes_give_nothing() -> None:
    assert _checks("An event whose held_on is today or earlier is billed at once.") == []
    assert _checks("For an event whose closing is today or earlier.") == []


def test_today_or_already_past_is_on_or_before_today() -> None:
    (c,) = _checks("For an event whose held_on is today or already past.")
    assert c.values == ["<="]


def test_the_date_of_the_record_the_target_names_under_another_noun() -> None:
    """ "For a `booked` ticket whose event date is before today": the event's date, reached
    through the ticket's reference to it."""
    data: dict[str, Any] = {
        **DATA,
        "tickets": {f"T{i}": {"ticket_id": f"T{i}", "event_id": f"E{i}"} for i in range(1, 5)},
    }
    tb = ToolBehaviour(tool="void_ticket", kind="action", collection="tickets",
                       id_param="ticket_id")  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    spec = ToolSpec(
        name="void_ticket", description="For a ticket whose event date is before today."
    )
    (c,) = date_window_checks(spec, tb, ctx)
    assert (c.collection, c.via, c.attribute, c.values) == ("events", "event_id", "held_on", ["<"])
