"""Fact values as a person says them, and which of them a request's text holds.

A fact is said as its parts (an address comma-separated, ``yes``/``no``, two decimals), a
``snake_case`` value in words (``found cheaper``); :func:`missing_facts` finds the facts a
written request leaves out and :func:`hidden_values` what the agent must find out itself.
Shared by the template writer (:mod:`autoforge.tasks.scenario.question`), the model writer
and the generation gates.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from autoforge.tasks.gold.failures import scalars
from autoforge.tasks.model import GoldCall, RequiredOutput, UserScenario

__all__ = ["fact_text", "hidden_values", "missing_facts", "spoken"]


def fact_text(value: Any) -> str:
    """A fact value as the user would say it (an address as its parts, comma-separated)."""
    if isinstance(value, dict):
        return ", ".join(fact_text(v) for v in value.values() if v not in (None, ""))
    if isinstance(value, list):
        return ", ".join(fact_text(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


_SNAKE = re.compile(r"^[a-z]+(?:_[a-z]+)+$")


def spoken(value: Any) -> str:
    """A fact as a person says it: ``found_cheaper`` -> ``found cheaper`` (the agent maps it
    back to the documented value), everything else as :func:`fact_text`."""
    text = fact_text(value)
    return text.replace("_", " ") if isinstance(value, str) and _SNAKE.match(value) else text


def _tokens(value: Any) -> Iterator[str]:
    """Every non-empty leaf of a fact value, as the user says it."""
    return (fact_text(v) for v in scalars(value) if v is not None and v != "")


def missing_facts(scenario: UserScenario, facts: dict[str, Any]) -> list[str]:
    """Names of the facts whose value (every part of it) the scenario text does not contain
    (a ``snake_case`` value also counts when said in words: ``found cheaper``)."""
    text = f"{scenario.question}\n{scenario.known_info}".lower()
    loose = text.replace("_", " ")
    return [
        name
        for name, value in facts.items()
        if any(t.lower() not in text and t.lower().replace("_", " ") not in loose
               for t in _tokens(value))
    ]  # fmt: skip


def hidden_values(
    outputs: Iterable[RequiredOutput], calls: Iterable[GoldCall], facts: dict[str, Any]
) -> tuple[str, ...]:
    """What the agent must find out, as text: every rendering of each required output and
    every scalar argument of a gold call that is not a user fact (an order id the agent looks
    up). Booleans are left out (``yes``/``no`` are ordinary words)."""
    known = {t.lower() for value in facts.values() for t in _tokens(value)}
    found: dict[str, None] = {}
    for out in outputs:
        if not isinstance(out.value, bool):
            for text in (out.text, *out.alternatives):
                found[text] = None
    for call in calls:
        for value in scalars(call.arguments):
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                found[fact_text(value)] = None
    return tuple(t for t in found if t and t.lower() not in known)
