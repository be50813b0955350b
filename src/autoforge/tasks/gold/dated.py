"""Dates for the arguments of a create, placed the way the data's records place theirs.

A create that stamps its new record with the domain's today (``created_on``) and takes a date
argument stored on that record (``needed_by``) makes a record whose two dates lie some days
apart. The data's records of that collection show which distances are usual, and, read
together with the record's other arguments, which distances go with which values (a window
that depends on a priority, a booking horizon). A date drawn as "today plus the distance of a
data record like the one being made" therefore lies inside windows the docs state in prose
that no rule reads, where a date copied from the data's column lies in the data's past.

The reading comes from the environment's behaviour model (which field a create stamps with
today, which field stores which argument); the distances come from the state itself. Nothing
here names a field or a domain.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from autoforge.env import BehaviourModel
from autoforge.lexicon import iso_day
from autoforge.tasks.gold.alike import explaining, stored_params


@dataclass(frozen=True)
class _Dated:
    """One create's date argument: the collection it makes, the attribute the argument is
    stored in, the attribute stamped with today, and argument -> attribute for the others."""

    collection: str
    attribute: str
    stamp: str
    others: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class DataDates:
    """Per ``(tool, argument)``: where the argument's date is stored and what it is measured
    from (:func:`data_dates`)."""

    dated: Mapping[tuple[str, str], _Dated]
    today: Mapping[str, str]  # per tool: the data's today, when the state's meta has none

    def value(self, tool: str, param: str, partial: Mapping[str, Any],
              state: Mapping[str, Any], rng: random.Random) -> str | None:  # fmt: skip
        """A date for argument ``param`` of ``tool``: today plus the distance between the two
        dates of a record of the data like the one the call makes (sharing the values of the
        arguments chosen so far that explain the distances, :func:`explaining`); None
        when the tool has no such argument or the state no such record."""
        found = self.dated.get((tool, param))
        meta = state.get("meta")
        today = iso_day((meta.get("today") if isinstance(meta, Mapping) else None)
                     or self.today.get(tool))  # fmt: skip
        if found is None or today is None:
            return None
        rows = _distances(found, state)
        if not rows:
            return None
        given = {a: p for p, a in found.others if p in partial}
        pairs = [(r[0], float(r[1])) for r in rows]
        for attr in explaining(pairs, list(given)):  # the best first, while records are left
            rows = [r for r in rows if r[0].get(attr) == partial[given[attr]]] or rows
        _, days, rest = rng.choice(sorted(rows, key=lambda r: (r[1], r[2])))
        return (today + dt.timedelta(days=days)).isoformat() + rest


def _distances(found: _Dated, state: Mapping[str, Any]) -> list[tuple[Mapping[str, Any], int, str]]:
    """Per record of the collection with both dates: the record, the days from its stamp to
    its date, and what follows the day in the date (a time of day)."""
    out: list[tuple[Mapping[str, Any], int, str]] = []
    records = state.get(found.collection)
    for record in (records or {}).values() if isinstance(records, Mapping) else ():
        if not isinstance(record, Mapping):
            continue
        value, stamp = record.get(found.attribute), iso_day(record.get(found.stamp))
        day = iso_day(value)
        if day is not None and stamp is not None:
            out.append((record, (day - stamp).days, str(value)[10:]))
    return out


def data_dates(model: BehaviourModel | None) -> DataDates | None:
    """The date arguments of the model's creates that are stored on a new record also stamped
    with today; None without a model or without such arguments."""
    dated: dict[tuple[str, str], _Dated] = {}
    today: dict[str, str] = {}
    for tool in model.tools if model is not None else ():
        for effect in tool.effects:
            if effect.kind != "create" or effect.record != "new" or not effect.collection:
                continue
            stamps = sorted(a for a, v in effect.fields.items() if v.source == "today")
            params = stored_params(effect)
            dates = {p.name for p in tool.params if p.format in ("date", "date-time")}
            if not stamps:
                continue
            for attr, param in params.items():
                if param in dates and attr not in stamps:
                    others = tuple(sorted((p, a) for a, p in params.items() if p != param))
                    dated[(tool.tool, param)] = _Dated(effect.collection, attr, stamps[0], others)
            if tool.today:
                today[tool.tool] = tool.today
    return DataDates(dated, today) if dated else None


__all__ = ["DataDates", "data_dates"]
