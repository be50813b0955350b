"""An argument that, left out, takes a value from a record the call names: "`hourly_rate`
defaults to the client's `default_hourly_rate`", "`currency` defaults to the `currency` of the
account".

The sentence (in the write's description or its own policy section) names the parameter,
then the owner by a noun of a collection another parameter of the call refers to, and an
attribute that collection's records hold. Every write of the parameter's value then writes
that attribute of the named record when the argument is not given. A noun no parameter
refers to, or an attribute the records do not hold, leaves the sentence to the report.
Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Effect, ToolBehaviour, Value
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.headings import own_sentences

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec


def _said(s: str, name: str) -> tuple[str, str] | None:
    """``(owner noun, attribute)`` of "`p` defaults to the <owner>'s `a`" or "... to the `a`
    of the <owner>"."""
    p = rf"(?<![\w`])`?{re.escape(name)}`?\s+defaults\s+to\s+(?:that\s+of\s+)?the\s+"
    m = re.search(p + r"(\w+)'s\s+`?(\w+)`?", s) or re.search(p + r"`(\w+)`\s+of\s+the\s+(\w+)", s)
    if m is None:
        return None
    return (m.group(1), m.group(2)) if "'s" in m.group(0) else (m.group(2), m.group(1))


def record_defaults(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> dict[str, list[str]]:
    """``{parameter: [reference parameter, collection, attribute]}`` for the optional
    parameters a sentence says default to an attribute of a record the call names."""
    if tb.kind != "create":
        return {}  # a change leaves what it is not given alone
    texts = own_sentences(spec, ctx)
    refs = [(p.name, str(p.references)) for p in tb.params if p.references]
    out: dict[str, list[str]] = {}
    for p in tb.params:
        if p.required or p.has_default:
            continue
        for s in texts:
            said = _said(s, p.name)
            if said is None:
                continue
            owner, attr = said
            hits = [(r, c) for r, c in refs if owner.lower() in noun_forms(c)]
            if len(hits) == 1 and attr in ctx.ev.attributes.get(hits[0][1], []):
                out[p.name] = [hits[0][0], hits[0][1], attr]
                break
    return out


def with_record_defaults(effects: list[Effect], defaults: dict[str, list[str]]) -> None:
    """Every field an effect fills from a defaulted parameter falls back to the record's
    attribute when the argument is left out (in place)."""
    for e in effects:
        if e.only_given:
            continue
        for a, v in list(e.fields.items()):
            e.fields[a] = _fallback(v, defaults)
        if e.value is not None:
            e.value = _fallback(e.value, defaults)


def _fallback(v: Value, defaults: dict[str, list[str]]) -> Value:
    if v.source != "param" or v.name not in defaults:
        return v
    return Value(source="formula", const=["given_else", v.name, *defaults[v.name]])
