"""Dates computed from a date and a number of days ("`due_date` = today + 30 days"), by a
calendar the sandboxed tools can run; a number that opens a formula ("10% of") is no literal;
a POST on a record's verb path acts on that record even when it also makes another."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from autoforge.synth.behaviour.dates import days_after_expr, helper_lines, offset_fields
from autoforge.synth.behaviour.derive import Operation, _acts_on_path_record
from autoforge.synth.behaviour.stated import literal_fields, time_fields

ATTRS = ["due_date", "ends_on", "starts_on", "discount", "issued_on"]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("The bill is issued today and `due_date` = today + 30 days.", ["today", 30]),
        ("`ends_on` = `starts_on` + `nights`.", ["new:starts_on", "param:nights"]),
        ("`due_date` is 14 days after today.", ["today", 14]),
        ("`due_date` = `starts_on` - 2 days.", ["new:starts_on", -2]),
    ],
)
def test_a_date_plus_days_is_read_as_a_formula(text: str, want: list[Any]) -> None:
    fields = offset_fields(text, ATTRS, ["nights"])
    (value,) = fields.values()
    assert value.const == ["days_after", *want]


def test_today_plus_days_is_not_today_and_a_percentage_is_not_a_literal() -> None:
    text = "`issued_on` = today, `due_date` = today + 30 days, `discount` = 10% of the subtotal."
    assert time_fields(text, ATTRS) == {"issued_on": "today"}
    assert "discount" not in literal_fields(text, ATTRS, [])
    assert literal_fields("`discount` 0.00 otherwise.", ATTRS, [])["discount"] == 0.0


@pytest.mark.parametrize(
    ("day", "n"),
    [("2031-01-31", 30), ("2032-02-28", 1), ("2031-12-31", 1), ("2000-03-01", -1),
     ("2031-05-10", 400), ("2100-02-28", 1), ("2024-02-29", 365)],
)  # fmt: skip
def test_the_calendar_agrees_with_the_standard_library(day: str, n: int) -> None:
    scope: dict[str, Any] = {}
    exec("\n".join(helper_lines()), scope)
    want = (dt.date.fromisoformat(day) + dt.timedelta(days=n)).isoformat()
    assert scope["_plus_days"](day, n) == want
    assert scope["_plus_days"]("someday", n) is None and scope["_plus_days"](day, None) is None


def test_the_expression_reads_its_base_and_days() -> None:
    assert days_after_expr("today", 30) == "_plus_days(_today, 30)"
    assert days_after_expr("param:start_date", "param:days") == "_plus_days(start_date, days)"
    assert days_after_expr("new:starts_on", 3) == "_plus_days(_new.get('starts_on'), 3)"


@pytest.mark.parametrize(
    ("path", "acts"),
    [("/visits/{visit_id}/complete", True), ("/visits/{visit_id}/payments", False),
     ("/visits", False), ("/visits/{visit_id}/check-in", True)],
)  # fmt: skip
def test_a_verb_after_the_key_acts_on_the_record(path: str, acts: bool) -> None:
    assert _acts_on_path_record(Operation(method="post", path=path)) is acts


def test_a_date_compared_with_today_is_no_write() -> None:
    text = "Only passes whose date is today or later. Sets `revoked_on` = today."
    assert time_fields(text, ["date", "revoked_on"]) == {"revoked_on": "today"}
    assert time_fields("A pass whose date is today is kept.", ["date"]) == {}


def test_a_date_an_only_sentence_or_an_alternative_tests_is_no_write() -> None:
    text = (
        "Only open visits that have ended: date before today, or date = today and end <= now. "
        "Sets `closed_on` = today."
    )
    assert time_fields(text, ["date", "closed_on"]) == {"closed_on": "today"}
    assert time_fields("Refused unless day is past, or day = today.", ["day"]) == {}
