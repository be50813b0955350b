"""Numbers a record takes from a list keyed by one of its values, and sums of its own numbers.

Docs give price lists inline ("Labor price list: flat_fix 12.00, brake_service 29.00, ...",
"(wellness_exam 55.00, vaccination 35.00, ...)") or as a two-column markdown table whose
first column holds the values. A list is read when it names every value of one enum: a
parameter's, or one of the record's own attributes' (its schema enum, else the values the
data holds). The number goes to the attribute the description says comes "from" the list or
table ("`labor_price` from the service price list"), else the one whose name the words before
the list or the table's number column spell ("Labor price list" -> ``labor_price``).

A sentence "`a` = `b`" or "`a` = `b` + `c` - `d`" over the record's own attributes computes
``a`` from them once they are written. Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Value, doc_sentences
from autoforge.tooldocs import markdown_tables

if TYPE_CHECKING:
    from autoforge.env import ToolBehaviour
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_NUM = r"-?\d+(?:\.\d+)?"


def _enums(spec: ToolSpec, tb: ToolBehaviour, ctx: Context, coll: str) -> dict[str, list[str]]:
    """``{key: values}``: ``param:<name>`` for enum parameters, ``attr:<a>`` for the record's
    attributes with a closed set of string values."""
    out: dict[str, list[str]] = {}
    for name, schema in (spec.parameters.get("properties") or {}).items():
        if isinstance(schema, dict) and isinstance(schema.get("enum"), list):
            out[f"param:{name}"] = [str(v) for v in schema["enum"]]
    for a, values in closed_values(ctx, coll).items():
        out.setdefault(f"attr:{a}", values)
    return out


def closed_values(ctx: Context, coll: str) -> dict[str, list[str]]:
    """``{attribute: values}`` for the attributes of ``coll`` with a closed set of string
    values: the schema's enum, else the at most 12 the data holds."""
    props = ctx.schemas.get(coll, {})
    recs = [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]
    out: dict[str, list[str]] = {}
    for a in ctx.ev.attributes.get(coll, []):
        enum = (props.get(a) or {}).get("enum") if isinstance(props.get(a), dict) else None
        seen = sorted({r[a] for r in recs if isinstance(r.get(a), str)})
        values = [str(v) for v in enum] if isinstance(enum, list) else seen
        if 2 <= len(values) <= 12 and len(seen) <= 12:
            out[a] = values
    return out


def _inline(text: str, values: list[str]) -> tuple[dict[str, float], str] | None:
    """The ``{value: number}`` a sentence lists for every value, and the words before it."""
    for s in doc_sentences(text):
        found = {}
        for v in values:
            m = re.search(rf"(?<![\w-])`?{re.escape(v)}`?\s*(?:[:=]\s*|\()?\s*\$?({_NUM})\b", s)
            if m:
                found[v] = (float(m.group(1)), m.start())
        if len(found) == len(values):
            first = min(p for _, p in found.values())
            return {v: n for v, (n, _) in found.items()}, s[:first]
    return None


def _tabled(text: str, values: list[str]) -> tuple[dict[str, float], str] | None:
    for header, *rows in markdown_tables(text):
        if len(header) < 2:
            continue
        got = {}
        for r in rows:
            key = r[0].strip("` ")
            num = re.fullmatch(rf"\$?\s*({_NUM})", r[1].strip()) if len(r) > 1 else None
            if key in values and num:
                got[key] = float(num.group(1))
        if len(got) == len(values):
            return got, header[1]
    return None


def _attribute(desc: str, lead: str, attrs: list[str]) -> str | None:
    froms = [
        a
        for a in attrs
        if re.search(
            rf"`{re.escape(a)}`\s+(?:is\s+)?(?:taken\s+)?from\s+the\b[^.;]*\b(?:list|table)\b", desc
        )
    ]
    if len(froms) == 1:
        return froms[0]
    words = set(re.findall(r"[a-z]+", lead.lower()))
    spelled = [a for a in attrs if len(a.split("_")) >= 2 and set(a.split("_")) <= words]
    return spelled[0] if len(spelled) == 1 else None


def priced_fields(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, coll: str, key_of: str, keyed: str = ""
) -> dict[str, Value]:
    """``{attribute: map value}`` for the record of ``coll`` a write makes, keyed by a
    parameter or an attribute of the records of ``keyed`` (default ``coll``), read as
    ``key_of`` says (``"new"``: the record being made, ``"target"``: the tool's target)."""
    attrs = ctx.ev.attributes.get(coll, [])
    out: dict[str, Value] = {}
    for key, values in _enums(spec, tb, ctx, keyed or coll).items():
        lists = [f(t, values) for t in (spec.description, ctx.policy) for f in (_inline, _tabled)]
        for table, lead in [x for x in lists if x is not None]:
            attr = _attribute(spec.description, lead, [a for a in attrs if a not in out])
            if attr is None or key == f"attr:{attr}":
                continue
            where = key if key.startswith("param:") else f"{key_of}:{key.split(':', 1)[1]}"
            out[attr] = Value(source="formula", const=["map", where, table])
            break
    return out


def stated_sums(text: str, attrs: list[str]) -> dict[str, Value]:
    """``{a: signed formula}`` for "`a` = `b` (+|-) `c` ..." over ``attrs`` (all in code; the
    caller passes number attributes only)."""
    out: dict[str, Value] = {}
    names = "|".join(re.escape(a) for a in sorted(attrs, key=len, reverse=True))
    if not names:
        return out
    term = rf"`(?:{names})`"
    for m in re.finditer(
        rf"`({names})`\s*=\s*({term}(?:\s*[+-]\s*{term})*)(?![\w`]|\s*[*/x×(=])", text
    ):
        terms: list[list[Any]] = []
        for sign, a in re.findall(rf"([+-]?)\s*`({names})`", m.group(2)):
            terms.append([-1 if sign == "-" else 1, a])
        if m.group(1) not in [a for _, a in terms]:
            out.setdefault(m.group(1), Value(source="formula", const=["signed", terms]))
    return out


def map_expr(where: str, table: dict[str, Any]) -> str:
    """The expression of a ``map`` formula inside a compiled tool."""
    side, name = where.split(":", 1)
    if side == "param":
        key = name
    elif side == "new":
        key = f"_new.get({name!r})"
    else:
        key = f"_rec.get({name!r})"
    return f"{table!r}.get(str({key}))"
