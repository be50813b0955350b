"""Writes made once a number reaches a bound: "When amount_paid reaches the total the invoice
becomes `paid` and `paid_on` = today; otherwise it becomes `partially_paid`", "When the count
reaches 3 the owner's account status becomes `suspended`".

The number is an attribute of the record that changes (named in code or plain, or "the
<word>" for the attribute named earlier whose name holds the word); the bound is a number or
another attribute of that record. The record is the tool's target, or the one "the <noun>'s"
names among those the tool reaches. The change is read after the tool's other writes (the
payment is added first), and an "otherwise" status replaces the one the tool would set
without a condition. Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.paths import effect_record
from autoforge.synth.behaviour.stated import time_fields
from autoforge.synth.behaviour.text import write_targets

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_REACH = re.compile(
    r"\b(?:when|once|if)\s+(?:the\s+)?(?P<num>`?\w+`?)\s+(?:reaches|hits|is\s+at\s+least)\s+"
    r"(?:the\s+)?(?P<bound>`?\w+(?:\.\d+)?`?)\s*,?\s+(?P<then>[^;]*?)"
    r"(?:;\s*otherwise\s+(?P<else>[^.;]*))?$",
    re.I,
)


def _attribute(word: str, attrs: list[str], before: str) -> str | None:
    name = word.strip("`")
    if name in attrs:
        return name
    named = [a for a in re.findall(r"`(\w+)`", before) if a in attrs]
    same = [a for a in named if name.lower() in a.split("_")]
    return same[-1] if same else None


def _record(then: str, tb: ToolBehaviour, ctx: Context) -> tuple[str, str] | None:
    """``(record, collection)`` of the record whose status the clause sets."""
    m = re.match(r"\s*(?:the\s+)?(\w+)(?:'s)?", then)
    word = m.group(1).lower() if m else ""
    if tb.collection and word in noun_forms(tb.collection):
        return "target", tb.collection
    for coll, via in write_targets(tb, ctx):
        if coll and via and word in noun_forms(coll):
            return effect_record(via), coll
    return None


def _becomes(clause: str, values: list[str]) -> str | None:
    m = re.search(r"\bbecomes\s+`(\w+)`", clause)
    return m.group(1) if m and m.group(1) in values else None


def reached_sets(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """Sets written when a number reaches its bound (see the module docstring)."""
    out: list[Effect] = []
    for s in doc_sentences(spec.description):
        m = _REACH.search(s.rstrip(". "))
        found = _record(m.group("then"), tb, ctx) if m else None
        if m is None or found is None:
            continue
        record, coll = found
        attrs = ctx.ev.attributes.get(coll, [])
        status, values = ctx.status_enum(coll)
        num = _attribute(m.group("num"), attrs, spec.description)
        bound_word = m.group("bound").strip("`")
        bound: Any = float(bound_word) if re.fullmatch(r"\d+(?:\.\d+)?", bound_word) else None
        if bound is None and (other := _attribute(bound_word, attrs, "")) is not None:
            bound = f"attr:{other}"
        to = _becomes(m.group("then"), values)
        if num is None or bound is None or status is None or to is None:
            continue
        fields: dict[str, Value] = {status: Value(source="const", const=to)}
        fields.update(
            {a: Value(source=src) for a, src in time_fields(m.group("then"), attrs).items()}
        )
        out.append(Effect(kind="set", record=record, collection=coll, fields=fields,
                          when=[num, ">=", bound], sentence=s))  # fmt: skip
        other_to = _becomes(m.group("else") or "", values)
        if other_to is not None:
            out.append(Effect(kind="set", record=record, collection=coll,
                              fields={status: Value(source="const", const=other_to)},
                              when=[num, "<", bound], sentence=s))  # fmt: skip
    return out


def without_replaced(effects: list[Effect], reached: list[Effect]) -> list[Effect]:
    """``effects`` less the unconditional status writes a reached pair (both branches) decides."""
    decided = {
        (e.record, e.collection, a)
        for e in reached
        if e.when and e.when[1] == "<"
        for a in e.fields
    }
    out = []
    for e in effects:
        if e.kind == "set" and not e.when and decided:
            kept = {a: v for a, v in e.fields.items() if (e.record, e.collection, a) not in decided}
            if not kept:
                continue
            e = e.model_copy(update={"fields": kept})
        out.append(e)
    return out
