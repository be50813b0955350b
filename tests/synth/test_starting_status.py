"""A create's record starts in the status the docs state before a transition's end.

A made-up gym, docs only: ``create_booking`` books a class and asks the member to pay,
``pay_booking`` sets its status to 'paid', and ``move_booking`` says the status "changes to
unpaid" when a fee is due. A new booking is then ``unpaid``; without that sentence nothing
names a starting status and the create leaves it empty. Rules only, no model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from doc_tools import doc_tool  # type: ignore[import-not-found]

from autoforge.cli.main import main
from autoforge.env import Attribute, CollectionSchema, Environment
from autoforge.synth.rulecode.transition_fields import starting_status
from autoforge.tasks.runtime import bind_state

_MOVE = "Move a booking to another slot. If a fee is due, the booking status changes to unpaid."


def _docs(move: str) -> list[dict[str, Any]]:
    return [
        doc_tool("get_member_info", "Get a member.", member_id="Member id"),
        doc_tool("create_booking", "Book a class; ask the member to pay.", member_id="Member"),
        doc_tool("pay_booking", "Pay a booking: status changed to 'paid'.", booking_id="Id"),
        doc_tool("move_booking", move, booking_id="Booking id", slot="New slot"),
        doc_tool("get_booking_detail", "Get a booking.", booking_id="Booking id"),
    ]


def _env(root: Path, move: str) -> Environment:
    root.mkdir()
    (root / "tools.json").write_text(json.dumps(_docs(move)))
    try:
        main(["synth", "env", str(root / "tools.json"), "--llm", "none", "--out", str(root / "e")])
    except SystemExit as exc:
        assert not exc.code
    return Environment.load(root / "e")


def _booked(env: Environment) -> Any:
    episode = bind_state(env, {"members": {"m1": {"member_id": "m1"}}}).episode()
    made = episode.call("create_booking", {"member_id": "m1"})
    assert made.ok, made.content
    return made.result.get("status")


def test_starting_status_negates_a_transitions_end() -> None:
    attrs = [Attribute(name="booking_id", type="id"), Attribute(name="status", type="string")]
    bookings = CollectionSchema(name="bookings", primary_key="booking_id", attributes=attrs)
    assert starting_status(bookings, [_MOVE], ["paid"]) == ("status", "unpaid")
    assert starting_status(bookings, [_MOVE], ["cancelled"]) is None  # negates no end
    assert starting_status(bookings, ["Pay it."], ["paid"]) is None  # the docs name none


def test_a_new_booking_is_unpaid_where_the_docs_say_so(tmp_path: Path) -> None:
    assert _booked(_env(tmp_path / "stated", _MOVE)) == "unpaid"


def test_a_new_booking_has_no_status_the_docs_do_not_name(tmp_path: Path) -> None:
    assert _booked(_env(tmp_path / "silent", "Move a booking to another slot.")) is None


@pytest.mark.parametrize("word", ["not_paid", "UNPAID"])
def test_other_spellings_of_the_negation(word: str) -> None:
    attrs = [Attribute(name="booking_id", type="id"), Attribute(name="status", type="string")]
    bookings = CollectionSchema(name="bookings", primary_key="booking_id", attributes=attrs)
    text = f"The booking status changes to {word} when a fee is due."
    assert starting_status(bookings, [text], ["paid"]) == ("status", word)
