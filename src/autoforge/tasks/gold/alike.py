"""Values for the arguments a write stores on a record, taken from that collection's own data.

A create (``register_pet(name, weight_kg, ...)``) or a change (``update_pet(weight_kg)``) stores
its argument in an attribute of a record of one collection; the behaviour model says which. The
records of that collection in the data show what such a value looks like: a weight that goes
with the species given in the same call, a name like the other records' names. Drawing the
argument from the column of the same name in *any* collection gave a pet the name of a drug
and a cat a weight of 84 kg drawn from the schema's range; the data's own records of the same
kind give values the docs' rules and a reader both accept.

What this module reads: the model's ``create`` effects (a new record's fields) and ``set``
effects on the call's own record whose value is a parameter. What it draws, per kind of
value the data holds in that attribute:

- numbers: the value of one record like the one the call makes (sharing the values of the
  arguments already chosen that explain the numbers, :func:`explaining`, which
  :mod:`.dated` uses to narrow dates too);
- text that repeats (a category): one of the values the data holds;
- text that never repeats: a new value shaped like the data's (a unique one must not be
  reused): several words recombined from different records ("Ana" of one, "Ortiz" of
  another), else one renumbered or marked (:func:`fresh_like`).

Nothing here names a field or a domain; dates are left to :mod:`.dated`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from autoforge.env import BehaviourModel, Effect

_WORDS = re.compile(r"[^\W\d_]+(?:[-'][^\W\d_]+)*")


@dataclass(frozen=True)
class _Stored:
    """Where one write's argument lands: the collection, the attribute, and argument ->
    attribute for the call's other arguments stored on the same record."""

    collection: str
    attribute: str
    others: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class DataColumns:
    """Per ``(tool, argument)``: the attribute of which collection the argument is stored in
    (:func:`data_columns`)."""

    stored: Mapping[tuple[str, str], _Stored]

    def value(
        self, tool: str, param: str, partial: Mapping[str, Any], state: Mapping[str, Any],
        rng: random.Random, allowed: Callable[[Any], bool],
    ) -> tuple[bool, Any]:  # fmt: skip
        """``(True, value)`` for argument ``param`` of ``tool`` drawn from the column its
        value is stored in (see the module docstring), among the values ``allowed`` accepts
        (not the record's current one, not one the task rules out); ``(False, None)`` when
        no model says where it is stored or the data holds no such value."""
        found = self.stored.get((tool, param))
        records = state.get(found.collection) if found else None
        if found is None or not isinstance(records, Mapping):
            return False, None
        rows = [(r, r[found.attribute]) for r in records.values()
                if isinstance(r, Mapping) and _plain(r.get(found.attribute))]  # fmt: skip
        if not rows:
            return False, None
        if all(isinstance(v, (int, float)) for _, v in rows):
            return _number(rows, found, partial, rng, allowed)
        if all(isinstance(v, str) for _, v in rows):
            return _text([v for _, v in rows], rng, allowed)
        return False, None


def _plain(value: Any) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool) and value != ""


def _number(
    rows: list[tuple[Mapping[str, Any], Any]], found: _Stored, partial: Mapping[str, Any],
    rng: random.Random, allowed: Callable[[Any], bool],
) -> tuple[bool, Any]:  # fmt: skip
    """The number of a record like the one the call writes: the records are narrowed by the
    arguments chosen so far whose values explain the numbers (a weight by the species)."""
    given = {a: p for p, a in found.others if p in partial}
    pairs = [(r, float(v)) for r, v in rows]
    for attr in explaining(pairs, list(given)):
        pairs = [p for p in pairs if p[0].get(attr) == partial[given[attr]]] or pairs
    keep = {id(r) for r, _ in pairs}
    left = [v for r, v in rows if id(r) in keep and allowed(v)]  # as often as the data has it
    return (True, rng.choice(left)) if left else (False, None)


def _text(seen: list[str], rng: random.Random, allowed: Callable[[Any], bool]) -> tuple[bool, Any]:
    """One of the values when they repeat, else a new one like them (module docstring)."""
    if len(set(seen)) < len(seen):  # a category: a value as often as the data has it
        left = [v for v in seen if allowed(v)]
        return (True, rng.choice(left)) if left else (False, None)
    mixed = _recombined(seen, rng)
    if mixed is not None and allowed(mixed):
        return True, mixed
    new = fresh_like(seen, rng)
    return (True, new) if new is not None and allowed(new) else (False, None)


def fresh_like(seen: list[Any], rng: random.Random) -> str | None:
    """A text value none of ``seen`` is, made from one of them so it keeps their shape: its
    last run of digits renumbered at the same width, else a digit put before its last dot
    (``report.pdf``: ``report2.pdf``), else one appended; None when none is new."""
    taken = {str(v) for v in seen}
    for _ in range(20):
        base = str(rng.choice(seen))
        runs = list(re.finditer(r"\d+", base))
        if runs:
            m = runs[-1]
            width = len(m.group(0))
            num = str(rng.randrange(10**width)).zfill(width)
            new = base[: m.start()] + num + base[m.end() :]
        else:
            cut = base.rfind(".")
            digit = str(rng.randrange(2, 10))
            new = base[:cut] + digit + base[cut:] if cut > 0 else base + digit
        if new not in taken:
            return new
    return None


def _recombined(seen: list[str], rng: random.Random) -> str | None:
    """A value of several words, each word at its place taken from a different value of the
    same shape (letters only, as many words), that no value already is; None when the values
    have no such shape (an e-mail, a code, a single word)."""
    shaped = [v for v in seen if " " in v and " ".join(_WORDS.findall(v)) == v]
    by_len: dict[int, list[list[str]]] = {}
    for value in shaped:
        by_len.setdefault(len(value.split()), []).append(value.split())
    groups = [g for _, g in sorted(by_len.items()) if len(g) >= 3]
    taken = set(seen)
    for _ in range(20 if groups else 0):
        group = rng.choice(groups)
        words = [rng.choice(group)[i] for i in range(len(group[0]))]
        new = " ".join(words)
        if new not in taken:
            return new
    return None


def stored_params(effect: Effect) -> dict[str, str]:
    """attribute -> parameter for what a create stores on its new record or a change sets
    on the call's own record; ``{}`` for any other effect."""
    if effect.kind == "create" and effect.record == "new":
        values = effect.fields
    elif effect.kind == "set" and effect.record == "target":
        values = dict(effect.fields)  # several attributes set at once, or one
        if effect.attribute and effect.value:
            values[effect.attribute] = effect.value
    else:
        return {}
    return {a: v.name for a, v in values.items() if v.source == "param" and v.name}


def _spread(numbers: list[float]) -> float:
    mean = sum(numbers) / len(numbers)
    return sum((d - mean) ** 2 for d in numbers)


def explaining(rows: list[tuple[Mapping[str, Any], float]], attrs: list[str]) -> list[str]:
    """The attributes whose values explain the numbers of ``rows`` (record, number), the
    best first: grouping the records by one leaves at most 0.8 of the spread that grouping by
    chance into as many groups would leave (a window that depends on a kind, not on which
    customer asks). An attribute with a value on nearly every record of its own is no kind:
    it is not considered."""
    total, n = _spread([r[1] for r in rows]), len(rows)
    found: list[tuple[float, str]] = []
    for attr in attrs:
        groups: dict[str, list[float]] = {}
        for record, number in rows:
            groups.setdefault(repr(record.get(attr)), []).append(number)
        if len(groups) < 2 or len(groups) > n / 2 or total == 0:
            continue
        chance = total * (1 - (len(groups) - 1) / (n - 1))  # left by a random grouping
        ratio = sum(_spread(g) for g in groups.values()) / chance
        if ratio <= 0.8:
            found.append((ratio, attr))
    return [attr for _, attr in sorted(found)]


def data_columns(model: BehaviourModel | None) -> DataColumns | None:
    """Where the model's creates and changes store their non-date arguments; None without a
    model or without such arguments."""
    stored: dict[tuple[str, str], _Stored] = {}
    for tool in model.tools if model is not None else ():
        dates = {p.name for p in tool.params if p.format in ("date", "date-time")}
        for effect in tool.effects:
            coll = effect.collection or tool.collection
            params = stored_params(effect)
            for attr, param in params.items():
                if coll and param not in dates:
                    others = tuple(sorted((p, a) for a, p in params.items() if p != param))
                    stored.setdefault((tool.tool, param), _Stored(coll, attr, others))
    return DataColumns(stored) if stored else None


__all__ = ["DataColumns", "data_columns", "explaining", "fresh_like", "stored_params"]
