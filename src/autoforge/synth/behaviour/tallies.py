"""Tallies the data shows: a number attribute of a record that equals, on every record of its
collection, a count or a sum over the records that refer to it ("a shelf's ``jar_count`` is
the number of its jars in status stored or aging", "a ferry's ``berths_taken`` is the
summed length of its bookings' ``passengers`` lists").

The data is the evidence; no sentence is needed. A tally holds exactly on every holder record,
some holder aggregates two or more counted records (so it is a tally, not a copy of a one-to-one
field), and at least three holders differ. A write tool that can change the counted records
keeps the tally true by adding the change it made to each holder's attribute; a create of the
holder starts it at 0, since nothing refers to a new record yet. A tool whose own effects
already write the attribute (a stated counter, a ledger) keeps those instead.

Nothing here names a domain.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from autoforge.env import BehaviourModel, Check, Effect, ToolBehaviour, Value
from autoforge.synth.behaviour.data import DataEvidence, is_number, noun_forms
from autoforge.synth.behaviour.headings import carried_part

#: how a referring record counts: itself, a number attribute, a list's length, a set attribute
MEASURES = ("count", "sum", "len", "present")
#: a filter attribute holds at most this many distinct values (so subsets stay few)
_MAX_FILTER_VALUES = 7
_MIN_HOLDERS_THAT_DIFFER = 3
_WRITES = ("create", "update", "action", "delete")


@dataclass(frozen=True)
class Tally:
    """``holder``'s ``attribute`` = the ``measure`` (of ``field``) summed over the records of
    ``source`` whose ``ref`` names the holder and (with ``status``) whose ``status`` is in
    ``counted``."""

    holder: str
    attribute: str
    measure: str
    source: str
    ref: str
    field: str | None
    status: str | None
    counted: tuple[str, ...]


def measure_of(measure: str, field: str | None, rec: Mapping[str, Any]) -> float:
    """What one referring record adds to the tally."""
    if measure == "count":
        return 1
    v = rec.get(field or "")
    if measure == "sum":
        return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0
    if measure == "len":
        return len(v) if isinstance(v, list) else 0
    return 0 if v in (None, "", []) else 1


def _measures(recs: list[Mapping[str, Any]], attrs: list[str]) -> Iterator[tuple[str, str | None]]:
    yield "count", None
    for a in attrs:
        vals = [r.get(a) for r in recs]
        given = [v for v in vals if v is not None]
        if not given:
            continue
        if all(is_number(v) for v in given):
            yield "sum", a
        elif all(isinstance(v, list) for v in given):
            yield "len", a
        if len(given) < len(vals):
            yield "present", a


def _filters(recs: list[Mapping[str, Any]], attrs: list[str]) -> list[str | None]:
    out: list[str | None] = [None]
    for a in attrs:
        vals = [r.get(a) for r in recs]
        words = all(isinstance(v, str | None) for v in vals)
        if words and 1 < len({str(v) for v in vals}) <= _MAX_FILTER_VALUES:
            out.append(a)
    return out


def _per_holder(
    recs: list[Mapping[str, Any]], ref: str, status: str | None, measure: str, field: str | None
) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, int]]]:
    """Per holder key, per filter value: the summed measure and how many records counted."""
    sums: dict[str, dict[str, float]] = {}
    counts: dict[str, dict[str, int]] = {}
    for r in recs:
        h = r.get(ref)
        if not isinstance(h, str | int) or isinstance(h, bool):
            continue
        s = str(r.get(status)) if status else ""
        row = sums.setdefault(str(h), {})
        row[s] = row.get(s, 0) + measure_of(measure, field, r)
        n = counts.setdefault(str(h), {})
        n[s] = n.get(s, 0) + 1
    return sums, counts


def _fits(
    holders: Mapping[str, Mapping[str, Any]], attr: str, sums: dict[str, dict[str, float]],
    subset: tuple[str, ...],
) -> bool:  # fmt: skip
    return all(
        abs(sum(sums.get(k, {}).get(s, 0) for s in subset) - h.get(attr, 0)) < 1e-6
        for k, h in holders.items()
    )


def _smallest_subset(
    holders: Mapping[str, Mapping[str, Any]], attr: str, sums: dict[str, dict[str, float]],
    values: list[str],
) -> tuple[str, ...] | None:  # fmt: skip
    for k in range(1, len(values) + 1):
        for subset in combinations(values, k):
            if _fits(holders, attr, sums, subset):
                return subset
    return None


def _aggregates(counts: dict[str, dict[str, int]], subset: tuple[str, ...]) -> bool:
    """Some holder gathers two or more counted records: a tally, not a copied field."""
    return any(sum(row.get(s, 0) for s in subset) >= 2 for row in counts.values())


def learn_tallies(ev: DataEvidence) -> list[Tally]:
    """Every tally the start state shows, at most one per holder attribute (the first found:
    unfiltered before filtered, a count before sums)."""
    found: dict[tuple[str, str], Tally] = {}
    for source, coll in ev.state.items():
        recs: list[Mapping[str, Any]] = [r for r in coll.values() if isinstance(r, dict)]
        attrs = ev.attributes.get(source, [])
        for ref in attrs:
            holder = ev.references(source, ref)
            if not holder or holder == source:
                continue
            for tally in _tallies_via(ev, holder, recs, attrs, source, ref):
                found.setdefault((tally.holder, tally.attribute), tally)
    return list(found.values())


def _candidates(ev: DataEvidence, holder: str) -> list[str]:
    holders = ev.state.get(holder, {})
    out = []
    for a in ev.attributes.get(holder, []):
        vals = [h.get(a) for h in holders.values()]
        if all(is_number(v) for v in vals) and len(set(vals)) >= _MIN_HOLDERS_THAT_DIFFER:
            out.append(a)
    return out


def _tallies_via(
    ev: DataEvidence, holder: str, recs: list[Mapping[str, Any]], attrs: list[str], source: str,
    ref: str,
) -> Iterator[Tally]:  # fmt: skip
    wanted = [a for a in _candidates(ev, holder) if a != ref]
    holders = ev.state.get(holder, {})
    for measure, field in _measures(recs, [a for a in attrs if a != ref]):
        for status in _filters(recs, [a for a in attrs if a != ref]):
            sums, counts = _per_holder(recs, ref, status, measure, field)
            values = sorted({s for row in sums.values() for s in row})
            for attr in wanted:
                subset = _smallest_subset(holders, attr, sums, values)
                if subset is None or not _aggregates(counts, subset):
                    continue
                yield Tally(holder, attr, measure, source, ref, field, status, subset)


def tally_effect(t: Tally, digits: int | None) -> Effect:
    """The effect that keeps ``t`` true across a write."""
    return Effect(
        kind="tally",
        record="over",
        collection=t.holder,
        attribute=t.attribute,
        value=Value(source="formula", const=["tally", t.measure, t.source, t.ref, t.field]),
        where={t.status: list(t.counted)} if t.status else {},
        digits=digits,
        source="data",
    )


def _writes_source(tb: ToolBehaviour, source: str) -> bool:
    if tb.kind not in _WRITES:
        return False
    return tb.collection == source or any(
        e.collection == source and e.kind != "tally" for e in tb.effects
    )


#: a move made only in some cases ("goes up by one while the class has space, otherwise ...")
_SOME_CASES = re.compile(r"\b(?:otherwise|while|unless|if\s+there\s+is)\b", re.I)


def _drop_stated_moves(tb: ToolBehaviour, t: Tally) -> tuple[int | None, bool]:
    """Take out the counters a sentence moves on the tally's attribute: (the place of the
    first, None if none; whether a sentence makes the move only in some cases). The tally moves
    it by what the call did to the counted records, as every record of the data shows, where a
    sentence's amount is read from words ("grows by the word count and ... by one")."""
    moves = [i for i, e in enumerate(tb.effects) if
             e.kind == "increment" and (e.collection or tb.collection) == t.holder
             and e.attribute == t.attribute and not e.when and not e.over]  # fmt: skip
    some = any(_SOME_CASES.search(tb.effects[i].sentence) for i in moves)
    tb.effects = [e for i, e in enumerate(tb.effects) if i not in moves]
    return (moves[0] if moves else None), some


def _writes_attribute(tb: ToolBehaviour, t: Tally) -> bool:
    for e in tb.effects:
        coll = e.collection or tb.collection
        if coll != t.holder:
            continue
        if e.attribute == t.attribute and e.kind in ("increment", "ledger", "set"):
            return True
        if e.kind == "set" and e.record != "new" and t.attribute in e.fields:
            return True
    return False


def _start_at_zero(tb: ToolBehaviour, t: Tally, digits: int | None) -> None:
    for e in tb.effects:
        v = e.fields.get(t.attribute)
        unset = v is not None and v.source == "const" and v.const is None
        if e.kind == "create" and e.collection == t.holder and unset:
            e.fields[t.attribute] = Value(source="const", const=0 if digits == 0 else 0.0)


def add_tallies(
    model: BehaviourModel, ev: DataEvidence, sentences: Mapping[str, list[str]] | None = None
) -> None:
    """Give each write tool that can change a tally's counted records the effect that keeps it
    true, and each create of a holder the tally's start at 0. ``sentences``: per tool, the
    rule sentences of its description and of the policy on it; one that refuses a call going
    over a number the tally never exceeds in the data makes that number the tally's bound."""
    tallies = learn_tallies(ev)
    for t in tallies:
        digits = _digits(ev, t)
        bounds = _bounds(ev, t, {x.attribute for x in tallies if x.holder == t.holder})
        for tb in model.tools:
            _start_at_zero(tb, t, digits)
            at, some = _drop_stated_moves(tb, t) if _writes_source(tb, t.source) else (None, False)
            if _writes_source(tb, t.source) and not _writes_attribute(tb, t):
                if at is not None:  # where the sentence moved it (a later write may read it)
                    tb.effects.insert(at, tally_effect(t, digits))
                else:
                    tb.effects.append(tally_effect(t, digits))
                if some:  # past the bound the call does something else; it is not refused
                    continue
                said = _bound_said(t, bounds, (sentences or {}).get(tb.tool, []))
                if said is not None:
                    tb.checks.append(Check(kind="within", collection=t.holder,
                                           attribute=t.attribute, values=[said[0]],
                                           sentence=said[1], source="data"))  # fmt: skip


_REFUSES = re.compile(
    r"\b(refused|rejected|must|cannot|can't|may not|not enough|exceeds?|go(?:es)? over|full|"
    r"still have|no more than|at most|fails?)\b",
    re.IGNORECASE,
)


def _bounds(ev: DataEvidence, t: Tally, tallied: set[str]) -> list[str]:
    """The holder's other number attributes the tally stays at or under on every record, of
    its kind (whole numbers for a whole-number tally) and not tallies themselves; those some
    record reaches first (a full record is evidence of a limit)."""
    holders = [h for h in ev.state.get(t.holder, {}).values() if isinstance(h, dict)]
    whole = all(isinstance(h.get(t.attribute), int) for h in holders)
    out: list[tuple[int, str]] = []
    for a in ev.attributes.get(t.holder, []):
        if a == t.attribute or a in tallied:
            continue
        vals = [(h.get(t.attribute), h.get(a)) for h in holders]
        nums = [(x, y) for x, y in vals if is_number(x) and is_number(y)]
        if whole and not all(isinstance(y, int) for _, y in nums):
            continue
        if nums and len(nums) == len(vals) and all(float(x) <= float(y) for x, y in nums):  # type: ignore[arg-type]
            out.append((-sum(x == y for x, y in nums), a))
    return [a for _, a in sorted(out)]


_ROOM = re.compile(r"\b(enough|room|left|remaining|exceed\w*|over|full)\b", re.I)


def _bound_said(t: Tally, bounds: list[str], sentences: list[str]) -> tuple[str, str] | None:
    """The bound a refusing sentence names by a word of its name that the tally's own name
    and the holder's do not share, with the sentence; else the first bound, where a refusing
    sentence asks for room ("enough", "left", "over") in words of the tally's own name
    ("there must be enough free berths" for ``berths_taken``)."""
    shared = set(t.attribute.lower().split("_")) | set(noun_forms(t.holder))
    refusing = [(s, set(re.findall(r"[a-z]+", s.lower()))) for s in sentences
                if _REFUSES.search(s)]  # fmt: skip
    for b in bounds:
        own = {w for w in b.lower().split("_") if len(w) > 3} - shared
        said = next((s for s, words in refusing if own & words), None)
        if said is not None:
            return b, carried_part(said, "|".join(sorted(own)))
    mine = {w for w in t.attribute.lower().split("_") if len(w) > 3} - set(noun_forms(t.holder))
    roomy = next((s for s, words in refusing if _ROOM.search(s) and mine & words), None)
    if not bounds or roomy is None:
        return None
    return bounds[0], carried_part(roomy, _ROOM)


def _digits(ev: DataEvidence, t: Tally) -> int | None:
    vals = [h.get(t.attribute) for h in ev.state.get(t.holder, {}).values()]
    if all(isinstance(v, int) for v in vals):
        return 0
    if all(is_number(v) and abs(v * 100 - round(v * 100)) < 1e-6 for v in vals):
        return 2
    return None


def _measure_code(measure: str, field: str | None) -> str:
    if measure == "count":
        return "1"
    f = repr(field)
    if measure == "sum":
        return f"(_r.get({f}) if isinstance(_r.get({f}), (int, float)) else 0)"
    if measure == "len":
        return f"(len(_r.get({f})) if isinstance(_r.get({f}), list) else 0)"
    return f"(0 if _r.get({f}) in (None, '', []) else 1)"


def _sum_lines(e: Effect, name: str) -> list[str]:
    _, measure, source, ref, field = e.value.const if e.value else ["", "count", "", "", None]
    measure = str(measure)
    cond = "isinstance(_r, dict)"
    for attr, values in e.where.items():
        cond += f" and str(_r.get({attr!r})) in {[str(v) for v in values]!r}"
    return [
        f"{name} = {{}}",
        f"for _r in state.get({source!r}, {{}}).values():",
        f"    if {cond}:",
        f"        _k = str(_r.get({ref!r}))",
        f"        {name}[_k] = {name}.get(_k, 0) + {_measure_code(measure, field)}",
    ]


def tally_before_lines(effects: list[Effect]) -> list[str]:
    """Before the writes: each tally's per-holder sums (``_tally<i>``)."""
    out: list[str] = []
    for i, e in enumerate(x for x in effects if x.kind == "tally"):
        out += _sum_lines(e, f"_tally{i}")
    return out


def tally_lines(e: Effect, i: int, checks: list[Check]) -> list[str]:
    """Where tally ``e`` (the ``i``-th of its tool) stands among the writes: each holder's
    attribute moves by the change in its sum so far; one that grew past its bound (a
    ``within`` check) is refused, which undoes the call."""
    bound = next((c for c in checks if c.kind == "within" and c.attribute == e.attribute
                  and c.collection == e.collection and c.values), None)  # fmt: skip
    moved = "_h[_a] + _d" if e.digits is None else f"round(_h[_a] + _d, {e.digits})"
    if e.digits == 0:
        moved = "int(round(_h[_a] + _d))"
    out = _sum_lines(e, "_after")
    out += [
        f"_a = {e.attribute!r}",
        f"for _k in set(_tally{i}) | set(_after):",
        f"    _d = _after.get(_k, 0) - _tally{i}.get(_k, 0)",
        f"    _h = state.get({e.collection!r}, {{}}).get(_k)",
        "    if _d and isinstance(_h, dict) and isinstance(_h.get(_a), (int, float)):",
        f"        _h[_a] = {moved}",
    ]
    if bound is not None:
        b = str(bound.values[0])
        why = f"{e.attribute} would exceed {b} (docs: {bound.sentence[:120]})"
        out += [
            f"        if _d > 0 and isinstance(_h.get({b!r}), (int, float))"
            f" and _h[_a] > _h[{b!r}]:",
            f"            raise ToolError({why!r})",
        ]
    return out
