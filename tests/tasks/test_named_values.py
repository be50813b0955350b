"""Values for string fields whose name says what they hold, docs only (no data, no enum)."""

from __future__ import annotations

import random
import re

import pytest

from autoforge.tasks.states.population import value_for

_STRING = {"type": "string"}


@pytest.mark.parametrize("name", ["address", "home_address", "delivery_address", "location"])
def test_an_address_named_field_gets_an_address(name: str) -> None:
    rng = random.Random(3)
    for _ in range(20):
        value = value_for(name, _STRING, rng)
        assert re.search(r"\d", value) and " " in value and "\n" not in value, value


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("city_name", r"[A-Z][A-Za-z .'-]+"),
        ("zip", r"\d{5}"),
        ("website_url", r"https?://\S+"),
        ("mobile_phone", r"\+1-\d{3}-\d{3}-\d{4}"),
        ("year", r"(19|20)\d\d"),
        ("date_of_visit", r"\d{4}-\d\d-\d\d"),
        ("time_slot", r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"),
    ],
)
def test_a_field_named_by_its_kind_gets_that_kind(name: str, shape: str) -> None:
    rng = random.Random(5)
    for _ in range(20):
        assert re.fullmatch(shape, value_for(name, _STRING, rng)), name


def test_an_ip_address_is_no_postal_address_and_plain_names_stay_words() -> None:
    rng = random.Random(1)
    assert "\n" not in value_for("ip_address", _STRING, rng)
    assert not re.search(r"\d", value_for("ip_address", _STRING, rng))  # a word, as before
    assert re.fullmatch(r"[a-z]+", value_for("flavour", _STRING, rng))
