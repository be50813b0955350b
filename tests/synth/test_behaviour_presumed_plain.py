"""Statuses a description presumes of its record in sentences that open on the records they
are for: without an article ("For `reserved` or `checked_in` bookings."), in plain words
("For a confirmed booking whose ...", "Draft, confirmed and scheduled orders can be
cancelled."), and with the noun spelled as two words ("sign-up" for ``signups``); plain words
elsewhere are not read (a lending-desk API written here)."""

from __future__ import annotations

from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.presumed import _statuses
from autoforge.synth.behaviour.text import spelled as _spelled

VALUES = ["draft", "confirmed", "scheduled", "checked_in", "cancelled"]


def _read(s: str, coll: str = "bookings") -> list[tuple[list[str], bool]]:
    return _statuses(s, VALUES, "|".join(_spelled(n) for n in noun_forms(coll)))


def test_sentences_that_open_on_their_records() -> None:
    assert _read("For `scheduled` or `checked_in` bookings.") == [(["scheduled", "checked_in"],
                                                                   False)]  # fmt: skip
    assert _read("For a confirmed booking whose date is today or earlier.") == [(["confirmed"],
                                                                                False)]  # fmt: skip
    assert _read("Draft, confirmed and scheduled bookings can be cancelled.") == [
        (["draft", "confirmed", "scheduled"], False)
    ]
    assert _read("For a `confirmed` sign-up.", "signups") == [(["confirmed"], False)]


def test_plain_words_elsewhere_are_not_read() -> None:
    assert _read("Confirmed bookings are billed next day.") == []
    assert _read("Returns the confirmed bookings.") == []


def test_a_record_the_call_only_reaches_is_allowed_not_required() -> None:
    nouns = "|".join(_spelled(n) for n in noun_forms("bookings"))
    s = "Confirmed bookings may be refunded."
    assert _statuses(s, VALUES, nouns, own=False) == []
    assert _statuses(s, VALUES, nouns) == [(["confirmed"], False)]
