"""A log every write adds to: "Every successful write adds one entry to `activity`", "Every
status change adds exactly one entry to `job_events` with the old and new status".

One sentence of the policy or the API description says that every write (or every status
change) adds an entry to a collection ``L`` of the data. Each write tool in that scope then
adds one entry after its other writes, unless it already makes one there. The entry gets, per
attribute of ``L``:

- the next id of ``L``'s sequence;
- for ``L``'s kind attribute, the value a table of the policy gives the tool (a row naming
  the tool, a column headed by the attribute), else the value whose words share the most
  stems with the tool's name (one value only), else the status the tool sets if it is one;
- for two attributes holding the tool's record's status values, the status before the call
  (the one null on some entries: a create's first entry comes from nothing) and after it;
- today's date or now, where every entry in the data holds one;
- for an attribute that refers to the tool's collection, or to records of several
  collections, the key of the record acted on (or just made); for one that refers to another
  collection, the acted-on record's attribute that refers there (after the call), else the
  parameter that does, else the reference of the record the acted-on one refers to; a table
  cell naming another collection's noun or an attribute of the acted-on record says which;
- an argument of the same name, else the acted-on record's attribute of the same name;
- null otherwise.

Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import kind_attributes, noun_forms, status_defaults
from autoforge.tooldocs import markdown_tables

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_EVERY = re.compile(
    r"\b(?:every|each|any|all)\s+(?:\w+\s+){0,2}?"
    r"(?P<what>writes?|changes?|status\s+changes?|transitions?|calls?|operations?|requests?|"
    r"updates?|mutations?)\b",
    re.I,
)
_ADDS = re.compile(
    r"\b(?:writes?|adds?|appends?|logs?|records?|creates?|inserts?|produces?|gets?)\b"
    r"(?:\s+\w+){0,3}?\s+(?:entry|entries|record|event|line|row|item)\b",
    re.I,
)
_NOT = re.compile(r"\b(?:no|not|never|nothing)\b", re.I)
_WRITES = ("create", "update", "action", "delete")


def audit_log(ctx: Context) -> tuple[str, str, str] | None:
    """``(collection, scope, sentence)`` of the sentence saying every write (scope
    ``write``) or every status change (``status``) adds an entry to a collection."""
    for s in doc_sentences(ctx.policy):
        every = _EVERY.search(s)
        if every is None or not _ADDS.search(s) or _NOT.search(s[: every.start()]):
            continue
        coll = _named_collection(s, ctx)
        if coll is None or ctx.ev.id_pattern(coll) is None:
            continue
        what = every.group("what").lower()
        return coll, "status" if "status" in what or "transition" in what else "write", s
    return None


def _named_collection(sentence: str, ctx: Context) -> str | None:
    ticked = [c for c in re.findall(r"`(\w+)`", sentence) if c in ctx.ev.state]
    if ticked:
        return ticked[0]
    for coll in ctx.ev.attributes:
        if any(re.search(rf"\b{re.escape(n)}\b", sentence, re.I) for n in noun_forms(coll)):
            return coll
    return None


def _stem(word: str) -> str:
    w = word.lower()
    for suffix in ("ing", "ed", "es", "s", "e"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    return w[:4]


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in re.findall(r"[a-z]+", text.lower()) if len(w) > 2}


def _table_row(ctx: Context, tool: str) -> dict[str, str]:
    """``{header: cell}`` of the policy table row naming ``tool`` in its first column."""
    for header, *rows in markdown_tables(ctx.policy):
        for row in rows:
            if row and row[0].strip("` ") == tool:
                names = [h.strip("` ").lower() for h in header]
                return {h: c.strip() for h, c in zip(names, row, strict=False)}
    return {}


def _kind_value(tb: ToolBehaviour, values: list[str], cell: str | None, status: str | None) -> Any:
    if cell is not None:
        said = [v for v in re.findall(r"[\w-]+", cell) if v in values]
        ticked = re.findall(r"`([\w-]+)`", cell)
        if said or len(ticked) == 1:  # the table names it, even one the data has no entry of
            return (said or ticked)[0]
    own = _stems(tb.tool.replace("_", " "))
    scores = [(len(_stems(v.replace("_", " ")) & own), v) for v in values]
    best = max((n for n, _ in scores), default=0)
    top = [v for n, v in scores if n == best]
    if best > 0 and len(top) == 1:
        return top[0]
    return status if status in values else None


def _set_status(tb: ToolBehaviour, attr: str | None) -> str | None:
    """The status value the tool writes on its own record, if one constant."""
    for e in tb.effects:
        if e.collection != tb.collection or e.record not in ("target", "new") or not attr:
            continue
        v = e.fields.get(attr)
        if v is not None and v.source == "const" and isinstance(v.const, str):
            return v.const
    return None


def _history_attrs(ctx: Context, coll: str, statuses: list[str]) -> tuple[str, str] | None:
    """``(from, to)``: the two attributes of ``coll`` whose values are ``statuses``; ``from``
    is the one null on some entries."""
    recs = [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]
    held = []
    for a in ctx.ev.attributes.get(coll, []):
        vals = [r.get(a) for r in recs]
        if vals and all(v is None or v in statuses for v in vals) and any(v for v in vals):
            held.append((any(v is None for v in vals), a))
    if len(held) != 2 or held[0][0] == held[1][0]:
        return None
    return (held[0][1], held[1][1]) if held[0][0] else (held[1][1], held[0][1])


def _spread(ctx: Context, coll: str, attr: str) -> bool:
    """Whether ``attr`` holds keys of two or more collections (a reference to any record)."""
    vals = {str(r.get(attr)) for r in ctx.ev.state.get(coll, {}).values()
            if isinstance(r, dict) and r.get(attr) is not None}  # fmt: skip
    hits = [c for c, recs in ctx.ev.state.items() if isinstance(recs, dict) and vals & set(recs)]
    covered = sum(any(v in ctx.ev.state[c] for c in hits) for v in vals)
    return len(hits) >= 2 and bool(vals) and covered >= 0.9 * len(vals)


def _cell_value(cell: str, tb: ToolBehaviour, ctx: Context) -> Value | None:
    """A table cell naming an attribute of the acted-on record, or a collection's noun."""
    own = ctx.ev.attributes.get(tb.collection or "", [])
    for w in re.findall(r"[a-z_]+", cell.lower()):
        if w in own:
            return Value(source="formula", const=["left", w])
    named = [(len(n), c) for c in ctx.ev.attributes for n in noun_forms(c)
             if re.search(rf"\b{re.escape(n)}\b", cell, re.I)]  # fmt: skip
    named.sort(key=lambda x: (-(x[1] == tb.collection), -x[0]))
    if not named:
        return None
    coll = named[0][1]
    if coll == tb.collection:
        return Value(source="formula", const=["made_key"])
    via = _referring(ctx, tb.collection or "", coll)
    return Value(source="formula", const=["left", via[0]]) if via else None


def _referring(ctx: Context, coll: str, target: str) -> list[str]:
    """The attributes of ``coll``'s records that refer to records of ``target``."""
    return [a for a in ctx.ev.attributes.get(coll, []) if ctx.ev.references(coll, a) == target]


def _ref_value(ctx: Context, tb: ToolBehaviour, coll: str, attr: str) -> Value | None:
    target = ctx.ev.references(coll, attr)
    if target == tb.collection or (target is None and _spread(ctx, coll, attr)):
        return Value(source="formula", const=["made_key"])
    if target is None:
        return None
    own = ctx.ev.attributes.get(tb.collection or "", [])
    via = _referring(ctx, tb.collection or "", target)
    if via:
        return Value(source="formula", const=["left", via[0]])
    params = [p.name for p in tb.params if p.references == target]
    if params:
        return Value(source="param", name=params[0])
    for a in own:  # one record further: the acted-on record's reference's own reference
        mid = ctx.ev.references(tb.collection or "", a)
        if mid is None or mid == tb.collection:
            continue
        onward = _referring(ctx, mid, target)
        if onward:
            return Value(source="formula", const=["through", a, mid, onward[0]])
    return None


def _fields(tb: ToolBehaviour, ctx: Context, coll: str) -> dict[str, Value]:
    attrs = ctx.ev.attributes.get(coll, [])
    pat = ctx.ev.id_pattern(coll)
    row = _table_row(ctx, tb.tool)
    status_attr, statuses = ctx.status_enum(tb.collection)
    history = _history_attrs(ctx, coll, [str(s) for s in statuses])
    kinds = [k for k in kind_attributes(ctx, coll) if not history or k[0] not in history]
    stamps = status_defaults(ctx.ev, coll, None, None)
    params = {p.name for p in tb.params if p.name != tb.id_param}
    own = set(ctx.ev.attributes.get(tb.collection or "", []))
    out: dict[str, Value] = {}
    for a in attrs:
        cell = row.get(a.lower())
        if pat is not None and a == pat.attribute:
            v: Value | None = Value(source="new_id")
        elif kinds and a == kinds[0][0]:
            status = _set_status(tb, status_attr)
            v = Value(source="const", const=_kind_value(tb, kinds[0][1], cell, status))
        elif history and status_attr and a in history:
            v = Value(source="formula", const=["was" if a == history[0] else "left", status_attr])
        elif stamps.get(a) in ("today", "now"):
            v = Value(source=stamps[a])
        elif (v := _cell_value(cell or "", tb, ctx) or _ref_value(ctx, tb, coll, a)) is not None:
            pass
        elif a in params:
            v = Value(source="param", name=a)
        elif a in own:
            v = Value(source="formula", const=["left", a])
        out[a] = v or Value(source="const", const=None)
    return out


def _in_scope(tb: ToolBehaviour, ctx: Context, scope: str) -> bool:
    if tb.kind not in _WRITES or tb.collection is None:
        return False
    if tb.kind != "create" and tb.id_param is None:
        return False
    if scope == "write":
        return True
    return _set_status(tb, ctx.status_enum(tb.collection)[0]) is not None


def audit_entries(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, effects: list[Effect]
) -> list[Effect]:
    """The ``create`` (record ``logged``) of the entry the log sentence says the call adds
    (see the module docstring); none where ``effects`` already make a record there."""
    del spec  # the log sentence is global; the tool's own words add nothing here
    said = audit_log(ctx)
    if said is None:
        return []
    coll, scope, sentence = said
    if coll == tb.collection or not _in_scope(tb, ctx, scope):
        return []
    if any(e.kind == "create" and e.collection == coll for e in effects):
        return []
    pat = ctx.ev.id_pattern(coll)
    assert pat is not None  # audit_log checked it
    return [Effect(kind="create", record="logged", collection=coll, fields=_fields(tb, ctx, coll),
                   id_prefix=pat.prefix, id_width=pat.width, id_attribute=pat.attribute,
                   sentence=sentence)]  # fmt: skip
