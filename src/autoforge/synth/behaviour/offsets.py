"""Date offsets the data shows: a date attribute that lies a fixed number of days after another
date attribute of the same record, on every record that holds both ("`due_on` is 30 days after
`issued_on`"), or a number of days that depends on one attribute of the record or of the
record it refers to ("ten days for a seedling tray, three for a cutting"), or that equals a number
attribute of the record itself.

The data is the evidence; docs that state the offset in any words are not needed. A create
whose new record gets the first date and nothing else gives the second one computes it. The
offset must hold on nearly every record holding both dates, and nearly every record must hold
the second date (a date only some statuses carry is a transition's stamp, not an offset).

Nothing here names a domain.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from autoforge.env import Value
from autoforge.lexicon import iso_day
from autoforge.synth.behaviour.data import DataEvidence

#: share of the records holding both dates that the offset must fit, and share of all records
#: that must hold the later date
_AGREE = 0.95
_HELD = 0.95
_MIN_PAIRS = 5
_MAX_KEYS = 8


@dataclass(frozen=True)
class DateOffset:
    """``end`` = ``start`` + days: ``days`` when fixed; else ``table[key]`` where the key is
    attribute ``key`` of the record (``via`` None) or attribute ``key`` of the ``via[1]``
    record its attribute ``via[0]`` names; or (``by``) the record's own number attribute."""

    collection: str
    start: str
    end: str
    days: int | None = None
    key: str | None = None
    via: tuple[str, str] | None = None
    table: dict[str, int] = field(default_factory=dict, hash=False)
    by: str | None = None

    def days_value(self) -> int | list[Any]:
        """The ``days`` of a ``days_after`` formula on the new record."""
        if self.days is not None:
            return self.days
        if self.by is not None:
            return ["new", self.by]
        return ["keyed", self.key, list(self.via) if self.via else None, self.table]


Pair = tuple[Mapping[str, Any], int]


def learn_offsets(ev: DataEvidence) -> list[DateOffset]:
    """Every date offset the start state shows, at most one per (collection, later date)."""
    out: dict[tuple[str, str], DateOffset] = {}
    for coll, recs_by_key in ev.state.items():
        recs: list[Mapping[str, Any]] = [r for r in recs_by_key.values() if isinstance(r, dict)]
        dates = [a for a in ev.attributes.get(coll, []) if recs and sum(
            iso_day(r.get(a)) is not None for r in recs) >= _HELD * len(recs)]  # fmt: skip
        days_only = [a for a in dates if all(len(str(r.get(a))) == 10 for r in recs if r.get(a))]
        for start in dates:
            for end in days_only:
                if start == end or (coll, end) in out:
                    continue
                days = [(r, iso_day(r.get(start)), iso_day(r.get(end))) for r in recs]
                pairs = [(r, (d1 - d0).days) for r, d0, d1 in days if d0 and d1]
                found = _offset(ev, coll, start, end, pairs) if len(pairs) >= _MIN_PAIRS else None
                if found is not None:
                    out[(coll, end)] = found
    return list(out.values())


def _offset(
    ev: DataEvidence, coll: str, start: str, end: str, pairs: list[Pair]
) -> DateOffset | None:
    days, n = Counter(k for _, k in pairs).most_common(1)[0]
    if n >= _AGREE * len(pairs):
        return DateOffset(coll, start, end, days=days) if days > 0 else None
    for attr in ev.attributes.get(coll, []):
        nums = [r.get(attr) for r, _ in pairs]
        whole = all(isinstance(v, int) and not isinstance(v, bool) for v in nums)
        fits = sum(v == k for (_, k), v in zip(pairs, nums, strict=True))
        if whole and fits >= _AGREE * len(pairs):
            return DateOffset(coll, start, end, by=attr)
    best: DateOffset | None = None
    for key, via in _keys(ev, coll):  # the smallest table that explains the data
        table = _table([(r, k, _read(ev, r, key, via)) for r, k in pairs])
        if table is not None and (best is None or len(table) < len(best.table)):
            best = DateOffset(coll, start, end, key=key, via=via, table=table)
    return best


def _keys(ev: DataEvidence, coll: str) -> list[tuple[str, tuple[str, str] | None]]:
    """Attributes that may decide the offset: few-valued ones of the record, then of each
    record it refers to (``(attribute, (reference, collection))``)."""
    recs = list(ev.state.get(coll, {}).values())
    out: list[tuple[str, tuple[str, str] | None]] = [
        (a, None)
        for a in ev.attributes.get(coll, [])
        if 1 < len({str(r.get(a)) for r in recs}) <= _MAX_KEYS
    ]
    for a in ev.attributes.get(coll, []):
        other = ev.references(coll, a)
        if not other or other == coll:
            continue
        held = ev.state.get(other, {}).values()
        out += [(b, (a, other)) for b in ev.attributes.get(other, [])
                if 1 < len({str(h.get(b)) for h in held}) <= _MAX_KEYS]  # fmt: skip
    return out


def _read(ev: DataEvidence, rec: Mapping[str, Any], key: str, via: tuple[str, str] | None) -> str:
    if via is None:
        return str(rec.get(key))
    held = ev.state.get(via[1], {}).get(str(rec.get(via[0]))) or {}
    return str(held.get(key))


def _table(keyed: list[tuple[Mapping[str, Any], int, str]]) -> dict[str, int] | None:
    groups: dict[str, Counter[int]] = defaultdict(Counter)
    for _, k, key in keyed:
        groups[key][k] += 1
    table = {key: c.most_common(1)[0][0] for key, c in groups.items()}
    agree = sum(c.most_common(1)[0][1] for c in groups.values())
    if agree < _AGREE * len(keyed) or len(set(table.values())) < 2:
        return None
    if any(v <= 0 for v in table.values()) or "None" in table:
        return None
    return table


def offset_values(
    ev: DataEvidence, coll: str, fields: Mapping[str, Value], given: set[str]
) -> dict[str, Value]:
    """For a create's ``fields``: the later dates to compute, where the new record gets the
    earlier date and no other value for the later one (nothing, or today where the data
    never shows the two dates equal)."""
    out: dict[str, Value] = {}
    for off in learn_offsets(ev):
        if off.collection != coll or off.start not in fields or off.end not in fields:
            continue
        now = fields[off.end]
        open_ = (now.source == "const" and now.const is None) or now.source in ("today", "now")
        if off.end in given or not open_ or fields[off.start].source == "const":
            continue
        out[off.end] = Value(
            source="formula", const=["days_after", f"new:{off.start}", off.days_value()]
        )
    return out
