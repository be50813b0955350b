"""The data as evidence for what the docs leave implicit: which collection a documented schema
describes, the id pattern of each collection, which attribute of a record refers to which
collection, and which attributes records carry in which status.

Everything here is read from the start state; nothing names a domain.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from autoforge.env import StateSchema
from autoforge.lexicon import documented_in, from_examples, status_rank
from autoforge.tooldocs import ToolSpec

_ID_SHAPE = re.compile(r"^(.*?)(\d+)$")
_DAY_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T ]|$)")

#: words that end an identifier's name: what is left names the collection (``task_id``,
#: ``ticketid``, ``ticket_number``, ``item_sku``); the longer words only after an underscore
_ID_SUFFIX = re.compile(r"(_?(ids?|key|code|sku)|_(keys|codes|numbers?|no|refs?|uuids?|skus))$")


def is_number(v: Any) -> bool:
    """A JSON number: an int or a float, not a yes/no."""
    return isinstance(v, int | float) and not isinstance(v, bool)


@dataclass
class IdPattern:
    """New ids continue the data's pattern: prefix, zero-padded width, the next number."""

    prefix: str
    width: int
    next_number: int
    attribute: str | None


@dataclass
class DataEvidence:
    """What the start state shows about its collections."""

    state: Mapping[str, Mapping[str, Any]]
    today: str | None = None
    now: str | None = None
    attributes: dict[str, list[str]] = field(default_factory=dict)
    #: without records (:meth:`of_layout`): each collection's key attribute and, per
    #: collection, the attributes holding another collection's keys, as the design laid out
    keys: dict[str, str] = field(default_factory=dict)
    links: dict[str, dict[str, str]] = field(default_factory=dict)
    #: without records: each collection's key shape the documents state (prefix, digits)
    shapes: dict[str, tuple[str, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> DataEvidence:
        """Evidence from raw data: collections of records and a ``meta`` of scalars."""
        state = {
            k: v
            for k, v in data.items()
            if isinstance(v, dict) and all(isinstance(r, dict) for r in v.values())
        }
        meta = next(
            (v for v in data.values() if isinstance(v, dict) and isinstance(v.get("today"), str)),
            {},
        )
        ev = cls(state=state, today=meta.get("today"), now=meta.get("now"))
        for name, coll in state.items():
            seen: dict[str, None] = {}
            for rec in coll.values():
                seen.update(dict.fromkeys(rec))
            ev.attributes[name] = list(seen)
        return ev

    @classmethod
    def of_layout(cls, schema: StateSchema, tools: Sequence[ToolSpec] = ()) -> DataEvidence:
        """Evidence without records: the collections, attributes, keys and references a
        state design laid out from the docs alone, and the key shapes the ``tools``' schemas
        state. Everything the docs state still binds to a record's attributes; nothing is
        learned from values (no statuses or fits from records)."""
        return cls(
            shapes=_documented_shapes(schema, tools),
            state={c.name: {} for c in schema.collections},
            attributes={c.name: [a.name for a in c.attributes] for c in schema.collections},
            keys={c.name: c.primary_key for c in schema.collections},
            links={
                c.name: {a.name: a.references for a in c.attributes if a.references}
                for c in schema.collections
            },
        )

    def number_attributes(self, collection: str) -> list[str]:
        """Attributes every record of ``collection`` holds as a number (in attribute order;
        none when it has no records)."""
        recs = [r for r in self.state.get(collection, {}).values() if isinstance(r, dict)]
        attrs = self.attributes.get(collection, [])
        return [a for a in attrs if recs and all(is_number(r.get(a)) for r in recs)]

    def float_attributes(self, collection: str) -> set[str]:
        """Attributes whose non-null values in the data are numbers, at least one a float: a
        whole literal the docs give them ("`hours` 0") is written as the data writes it."""
        out: set[str] = set()
        recs = list(self.state.get(collection, {}).values())
        for a in self.attributes.get(collection, []):
            vals = [r[a] for r in recs if r.get(a) is not None]
            nums = all(isinstance(v, int | float) and not isinstance(v, bool) for v in vals)
            if vals and nums and any(isinstance(v, float) for v in vals):
                out.add(a)
        return out

    def typed_attributes(self, collection: str, kind: str) -> list[str]:
        """Attributes every record of ``collection`` holds as an ``int`` (whole numbers, not
        yes/no) or a ``bool`` (yes/no), in the data's order; none without records."""
        recs = [r for r in self.state.get(collection, {}).values() if isinstance(r, dict)]

        def fits(v: Any) -> bool:
            if kind == "bool":
                return isinstance(v, bool)
            return isinstance(v, int) and not isinstance(v, bool)

        return [
            a
            for a in self.attributes.get(collection, [])
            if recs and all(fits(r.get(a)) for r in recs)
        ]

    def date_attributes(self, collection: str) -> list[str]:
        """Attributes that nearly every record of ``collection`` holds as a calendar date
        (``YYYY-MM-DD``): the record's own dates, not the stamps only some statuses carry."""
        recs = [r for r in self.state.get(collection, {}).values() if isinstance(r, dict)]

        def day(v: Any) -> bool:
            return isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) is not None

        return [
            a
            for a in self.attributes.get(collection, [])
            if recs and sum(day(r.get(a)) for r in recs) >= 0.95 * len(recs)
        ]

    def dated_attributes(self, collection: str, moments: bool = False) -> list[str]:
        """Attributes whose every value in ``collection`` is a calendar day (``YYYY-MM-DD``)
        or, with ``moments``, also a date-time (its day counts), on the records that hold
        one: a stamp only some statuses carry counts, unlike :meth:`date_attributes`."""
        recs = [r for r in self.state.get(collection, {}).values() if isinstance(r, dict)]
        shape = _MOMENT if moments else _DAY_ONLY
        return [
            a
            for a in self.attributes.get(collection, [])
            if (vals := [r[a] for r in recs if r.get(a) is not None])
            and all(isinstance(v, str) and shape.match(v) for v in vals)
        ]

    def set_lists(self, collection: str) -> set[str]:
        """List attributes that behave as sets in the data: no record repeats an item, and
        some record holds two or more (so the absence of repeats is evidence)."""
        out: set[str] = set()
        recs = list(self.state.get(collection, {}).values())
        for a in self.list_attributes(collection):
            lists = [r[a] for r in recs if isinstance(r.get(a), list)]
            hashable = all(isinstance(x, str | int) for v in lists for x in v)
            if (
                hashable
                and any(len(v) > 1 for v in lists)
                and all(len(v) == len(set(v)) for v in lists)
            ):
                out.add(a)
        return out

    def list_attributes(self, collection: str) -> set[str]:
        """Attributes whose every non-null value in the data is a list."""
        out: set[str] = set()
        recs = list(self.state.get(collection, {}).values())
        for a in self.attributes.get(collection, []):
            vals = [r[a] for r in recs if r.get(a) is not None]
            if vals and all(isinstance(v, list) for v in vals):
                out.add(a)
        return out

    def collection_for(self, props: list[str]) -> str | None:
        """The collection whose records best carry ``props`` (a documented schema's
        properties); None below half overlap."""
        best, score = None, 0.0
        wanted = set(props)
        for name, attrs in self.attributes.items():
            if not attrs or not wanted:
                continue
            share = len(wanted & set(attrs)) / len(wanted | set(attrs))
            if share > score:
                best, score = name, share
        return best if score >= 0.5 else None

    def id_pattern(self, collection: str) -> IdPattern | None:
        """The id pattern of ``collection`` (None when its keys are not prefix + number)."""
        keys = list(self.state.get(collection, {}))
        if not keys and collection in self.shapes:
            prefix, width = self.shapes[collection]
            return IdPattern(prefix, width, 1, self.key_attribute(collection))
        shapes = [m for k in keys if (m := _ID_SHAPE.match(k))]
        if not keys or len(shapes) != len(keys):
            return None
        prefixes = {m.group(1) for m in shapes}
        if len(prefixes) > 1 and len({re.sub(r"\d", "0", p) for p in prefixes}) == 1:
            # prefixes that differ in digits only (``INV-2025-``, ``INV-2026-``): a sequence
            # per period, continued in the latest one
            latest = max(prefixes, key=lambda p: [int(d) for d in re.findall(r"\d+", p)])
            shapes = [m for m in shapes if m.group(1) == latest]
            prefixes = {latest}
        widths = {len(m.group(2)) for m in shapes}
        if len(prefixes) != 1:
            return None
        width = widths.pop() if len(widths) == 1 else 0
        top = max(int(m.group(2)) for m in shapes)
        return IdPattern(prefixes.pop(), width, top + 1, self.key_attribute(collection))

    def key_attribute(self, collection: str) -> str | None:
        """The attribute every record carries equal to its key (``id``, ``sku``...)."""
        coll = self.state.get(collection, {})
        for attr in self.attributes.get(collection, []):
            if coll and all(str(r.get(attr)) == k for k, r in coll.items()):
                return attr
        return None if coll else self.keys.get(collection)

    def references(self, collection: str, attribute: str) -> str | None:
        """The collection whose keys the values of ``attribute`` (or its list items) are."""
        values: list[str] = []
        for rec in self.state.get(collection, {}).values():
            v = rec.get(attribute)
            if isinstance(v, list):
                values += [str(x) for x in v if isinstance(x, str | int)]
            elif isinstance(v, str | int) and not isinstance(v, bool):
                values.append(str(v))
        if not values:
            return self.links.get(collection, {}).get(attribute)
        for name, coll in self.state.items():
            if coll and sum(v in coll for v in values) >= 0.9 * len(values):
                return name
        return None

    def collection_named(self, word: str) -> str | None:
        """The collection a noun or an id parameter's stem names (``task``, ``task_id``)."""
        stem = re.sub(_ID_SUFFIX, "", word.lower())
        for name in self.state:
            n = name.lower()
            if (stem and n in (stem, stem + "s", stem + "es")) or (
                stem.endswith("y") and n == stem[:-1] + "ies"
            ):
                return name
        return None

    def status_attributes(self, collection: str, attribute: str, status: str) -> list[str]:
        """Attributes set (not null) on every record of ``collection`` in ``status`` and null
        or absent on most records in other statuses: what that status carries."""
        recs = list(self.state.get(collection, {}).values())
        inside = [r for r in recs if r.get(attribute) == status]
        outside = [r for r in recs if r.get(attribute) != status]
        if not inside or not outside:
            return []
        groups: dict[Any, list[dict[str, Any]]] = {}
        for r in outside:
            groups.setdefault(r.get(attribute), []).append(r)
        out = []
        for attr in self.attributes.get(collection, []):
            if attr == attribute or not all(r.get(attr) not in (None, "") for r in inside):
                continue
            mostly = sum(r.get(attr) in (None, "") for r in outside) >= 0.8 * len(outside)
            # a life-cycle stamp stays on the later statuses: empty on every record of some
            # other status (one the record passed through before) is enough
            unset = any(all(r.get(attr) in (None, "") for r in g) for g in groups.values())
            if mostly or unset:
                out.append(attr)
        return out


def entered_with(ev: DataEvidence, collection: str, attribute: str, status: str) -> list[str]:
    """The attributes records get on entering ``status``: those it carries
    (:meth:`DataEvidence.status_attributes`) minus those an earlier status already carries
    (a status whose carried set is a strict subset of this one's, carrying the attribute)."""
    mine = set(ev.status_attributes(collection, attribute, status))
    values = {r.get(attribute) for r in ev.state.get(collection, {}).values()} - {status}
    earlier: set[str] = set()
    for other in values:
        if not isinstance(other, str):
            continue
        theirs = set(ev.status_attributes(collection, attribute, other))
        recs = [r for r in ev.state.get(collection, {}).values() if r.get(attribute) == other]
        held = {a for a in mine if recs and all(r.get(a) not in (None, "") for r in recs)}
        if theirs < mine or (held and held < mine):
            earlier |= held
    return [a for a in ev.status_attributes(collection, attribute, status) if a not in earlier]


def entry_stamps(ev: DataEvidence, collection: str, attribute: str, status: str) -> dict[str, str]:
    """The today/now stamps a record gets on entering ``status``: the attributes it enters
    with (:func:`entered_with`) whose values the data shows are dates of that entry."""
    stamps = status_defaults(ev, collection, attribute, status)
    return {
        a: str(stamps[a])
        for a in entered_with(ev, collection, attribute, status)
        if stamps.get(a) in ("today", "now")
    }


def _in(
    ev: DataEvidence, collection: str, attribute: str, statuses: list[str]
) -> list[dict[str, Any]]:
    return [r for r in ev.state.get(collection, {}).values() if r.get(attribute) in statuses]


def held_by(ev: DataEvidence, collection: str, attribute: str, sources: list[str]) -> set[str]:
    """Attributes every record in the ``sources`` statuses already holds (at least two such
    records): a change starting from them keeps those, it does not stamp them anew."""
    recs = _in(ev, collection, attribute, sources)
    if len(recs) < 2:
        return set()
    return {a for a in ev.attributes.get(collection, []) if a != attribute
            and all(r.get(a) not in (None, "") for r in recs)}  # fmt: skip


def left_behind(
    ev: DataEvidence, collection: str, attribute: str, sources: list[str], status: str
) -> list[str]:
    """Attributes a change from ``sources`` to ``status`` empties: every record in the sources
    holds a value, every record in ``status`` holds none (at least three records on each
    side). Keeping the data's rule true is the only reading that fits both sides."""
    before = _in(ev, collection, attribute, sources)
    after = _in(ev, collection, attribute, [status])
    if status in sources or len(before) < 3 or len(after) < 3:
        return []
    return [
        a
        for a in ev.attributes.get(collection, [])
        if a != attribute
        and all(r.get(a) not in (None, "") for r in before)
        and all(r.get(a) in (None, "") for r in after)
        and not all(isinstance(r.get(a), list | dict) for r in before)
    ]


def noun_forms(collection: str) -> list[str]:
    """Singular and plural words a sentence may use for ``collection`` (``tasks``: task,
    tasks; ``menu_items``: menu item, item...)."""
    words = collection.lower().replace("-", "_").split("_")
    plural = " ".join(words)
    last = words[-1]
    single = last[:-3] + "y" if last.endswith("ies") else last[:-1] if last.endswith("s") else last
    forms = {plural, " ".join([*words[:-1], single]), last, single}
    if re.search(r"(ch|sh|ss|x|z)es$", last):  # branches, boxes: branch, box
        forms |= {last[:-2], " ".join([*words[:-1], last[:-2]])}
    return sorted(forms, key=len, reverse=True)


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$")


def status_defaults(
    ev: DataEvidence, collection: str, attribute: str | None, status: str | None
) -> dict[str, Any]:
    """What records in ``status`` show for attributes nothing else sets: one shared scalar on
    every such record (at least three) is that value; a date on every such record is written
    when the record enters the status: ``"today"`` (or ``"now"`` for a timestamp)."""
    recs = [
        r
        for r in ev.state.get(collection, {}).values()
        if attribute is None or status is None or r.get(attribute) == status
    ]
    out: dict[str, Any] = {}
    if len(recs) < 3:
        return out
    for attr in ev.attributes.get(collection, []):
        values = [r.get(attr) for r in recs]
        if all(isinstance(v, str) and _DATE.match(v) for v in values):
            out[attr] = "now" if any("T" in str(v) for v in values) else "today"
        elif all(v == values[0] for v in values) and not isinstance(values[0], list | dict):
            out[attr] = ("const", values[0])
    return out


def carried_attributes(
    ev: DataEvidence, collection: str, attribute: str | None, status: str | None
) -> list[str]:
    """The attributes a new record carries: those records in its start ``status`` carry
    (any of them), else those most records carry; empty when the data has no records."""
    recs = list(ev.state.get(collection, {}).values())
    same = [r for r in recs if attribute and status and r.get(attribute) == status]
    pool = same or recs
    if not pool:
        return []
    need = 1 if same else max(1, len(pool) // 2)
    return [a for a in ev.attributes.get(collection, []) if sum(a in r for r in pool) >= need]


def not_dated(ev: DataEvidence, collection: str) -> set[str]:
    """Attributes of ``collection`` the data gives values that are not dates: a sentence
    listing them beside a date attribute ("sets x, y_at = now") does not make them dates."""
    out: set[str] = set()
    for rec in ev.state.get(collection, {}).values():
        if isinstance(rec, dict):
            for a, v in rec.items():
                if v is not None and not (isinstance(v, str) and _DATE.match(v)):
                    out.add(a)
    return out


def _enum(schema: Any) -> bool:
    return isinstance(schema, dict) and isinstance(schema.get("enum"), list)


@dataclass
class Context:
    """What derivation reads besides the tool itself."""

    ev: DataEvidence
    policy: str
    #: per collection: the documented property schemas (from any tool answering with it)
    schemas: dict[str, dict[str, Any]] = field(default_factory=dict)
    tables: list[dict[str, list[str]]] = field(default_factory=list)
    #: policy heading titles that speak of one tool without naming it: {title: tool}
    headed: dict[str, str] = field(default_factory=dict)
    #: per write tool, the stems of its action words (:func:`headings.verb_stems`)
    verbs: dict[str, set[str]] = field(default_factory=dict)

    def status_enum(self, collection: str | None) -> tuple[str | None, list[str]]:
        """The status-like attribute of ``collection`` (an enum named status or state, that
        very name before one that only holds it, as ``deposit_status`` does; else the first
        enum) and its values."""
        props = self.schemas.get(collection or "", {})
        enums = [(k, list(v["enum"])) for k, v in props.items() if _enum(v)]
        enums = [(k, [str(x) for x in e]) for k, e in enums]
        for k, e in sorted(enums, key=lambda ke: status_rank(ke[0])):
            if "status" in k or "state" in k:
                return k, e
        return enums[0] if enums else self._data_status(collection)

    def _data_status(self, collection: str | None) -> tuple[str | None, list[str]]:
        """For a collection no tool answers with: an attribute named status or state whose
        values in the data are words, with the values seen."""
        records = [
            r for r in self.ev.state.get(collection or "", {}).values() if isinstance(r, dict)
        ]
        attrs = self.ev.attributes.get(collection or "", [])
        for k in sorted(attrs, key=status_rank):
            if "status" not in k and "state" not in k:
                continue
            values = [r.get(k) for r in records]
            words = sorted({v for v in values if isinstance(v, str) and v.strip()})
            if len([v for v in values if isinstance(v, str) and v.strip()]) < len(values):
                continue  # a list of states or a missing value: not a status
            if words:
                return k, words
        return None, []


def copied_through(
    ev: DataEvidence, collection: str, refs: list[tuple[str, str]], skip: set[str]
) -> dict[str, tuple[str, str, str, list[list[str]]]]:
    """Attributes every record of ``collection`` takes from a record two references away (the
    new invoice's rate from its project's client): ``{attribute: (reference attribute,
    referenced collection, the far record's attribute, [[its reference attribute, far
    collection]])}``, on the same evidence as :func:`copied_attributes`; ``skip``: attributes
    already copied one reference away."""
    out: dict[str, tuple[str, str, str, list[list[str]]]] = {}
    for ref_attr, ref_coll in refs:
        for hop in ev.attributes.get(ref_coll, []):
            far = ev.references(ref_coll, hop)
            if far is None or far in (ref_coll, collection):
                continue
            joined = {collection: _joined(ev, collection, ref_attr, ref_coll, hop)}
            view = DataEvidence.of({**joined, far: ev.state.get(far, {})})
            view.attributes[collection] = ev.attributes.get(collection, [])
            found = copied_attributes(view, collection, [("_far", far)])
            for a, (_r, _c, b) in found.items():
                if a not in skip and a not in out and a != ref_attr:
                    out[a] = (ref_attr, ref_coll, b, [[hop, far]])
    return out


def _joined(
    ev: DataEvidence, collection: str, ref_attr: str, ref_coll: str, hop: str
) -> dict[str, dict[str, Any]]:
    """The records of ``collection`` with ``_far``: the reference ``hop`` of the record their
    ``ref_attr`` names."""
    table = ev.state.get(ref_coll, {})
    out: dict[str, dict[str, Any]] = {}
    for k, r in ev.state.get(collection, {}).items():
        if isinstance(r, dict):
            mid = table.get(str(r.get(ref_attr)))
            out[k] = {**r, "_far": mid.get(hop) if isinstance(mid, dict) else None}
    return out


def copied_attributes(
    ev: DataEvidence, collection: str, refs: list[tuple[str, str]]
) -> dict[str, tuple[str, str, str]]:
    """Attributes every record of ``collection`` takes from the record one of its reference
    attributes names (``refs``: attribute, referenced collection): ``{attribute: (reference
    attribute, referenced collection, its attribute)}``. An attribute counts when at least
    three records show it, with at least two distinct values, and none disagrees."""
    records = [r for r in ev.state.get(collection, {}).values() if isinstance(r, dict)]
    out: dict[str, tuple[str, str, str]] = {}
    for ref_attr, ref_coll in refs:
        table = ev.state.get(ref_coll, {})
        pairs: list[tuple[dict[str, Any], dict[str, Any]]] = [
            (r, table[str(r.get(ref_attr))])
            for r in records
            if r.get(ref_attr) is not None and isinstance(table.get(str(r.get(ref_attr))), dict)
        ]
        if len(pairs) < 3:
            continue
        for a in ev.attributes.get(collection, []):
            if a == ref_attr or a in out:
                continue
            names = [a, *sorted(k for k in pairs[0][1] if k != a)]
            for b in names:
                vals = [r.get(a) for r, _ in pairs]
                same = all(r.get(a) == o.get(b) for r, o in pairs)
                if same and len({repr(v) for v in vals}) >= 2 and None not in vals:
                    out[a] = (ref_attr, ref_coll, b)
                    break
    return out


def kind_attributes(ctx: Context, coll: str) -> list[tuple[str, list[str]]]:
    """The collection's documented status-like enum, else each attribute whose values in the
    data are a handful of words: what an entry's kind can be."""
    attr, values = ctx.status_enum(coll)
    if attr is not None:
        return [(attr, values)]
    out = []
    recs = [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]
    for a in ctx.ev.attributes.get(coll, []):
        seen = {r.get(a) for r in recs}
        words = all(isinstance(v, str) and re.fullmatch(r"[a-z][a-z_]*", v) for v in seen)
        if words and 0 < len(seen) <= 12 and len(seen) < len(recs):
            out.append((a, sorted(str(v) for v in seen)))
    return out


def _documented_shapes(
    schema: StateSchema, tools: Sequence[ToolSpec]
) -> dict[str, tuple[str, int]]:
    """``{collection: (prefix, digits)}`` for each text-keyed collection whose key the docs
    give a shape of (:func:`autoforge.lexicon.documented_in`: ``pattern: '^T\\d{4}$'`` or
    ``example: T0042`` on the key), so that a create continues it without data."""
    shapes: dict[str, tuple[str, int]] = {}
    for coll in schema.collections:
        shape = None if coll.integer_keyed else from_examples(documented_in(tools, schema, coll))
        if shape is not None and not shape.suffix and not shape.fields:
            shapes[coll.name] = (shape.stem, shape.width or 0)
    return shapes
