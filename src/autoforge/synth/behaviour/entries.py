"""Log entries a write adds: "a `disposed` custody event is written", "writes a `received`
entry to the custody log".

A sentence of the tool's description names a record of another collection ``L`` together
with a value of one of ``L``'s kind attributes (its status-like enum, else an attribute whose
values in the data are a handful of words), next to a word that adds it ("is written",
"is logged", "writes a", "records a"). ``L``'s records refer to the tool's collection; the call
adds one: the next id of ``L``'s sequence, the key of the record the tool acts on (or has just
created), the kind value, today's date or now where every entry in the data holds one, the
argument the sentence assigns ("performed_by = received_by") or one named like the attribute,
and, for an attribute the acted-on record shares by name, its value after the call or, where
the call cleared it, the one it had ("the rack and position the sample left"). A sentence
that says no entry is written ("No custody event is written for depletion") adds none, and a
ledger's entries (see :mod:`ledger`) are left to it: they carry amounts and running totals.

Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import kind_attributes, noun_forms, status_defaults
from autoforge.synth.behaviour.ledger import ledgers
from autoforge.synth.behaviour.stated import stated_params

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_ADDED = r"(?:is|gets|are)\s+(?:also\s+)?(?:written|logged|recorded|added|appended|created)"
_ADDS = r"\b(?:writes?|logs?|records?|adds?|appends?)\s+(?:an?|one)\s+(?:new\s+)?"


def _said_entry(
    sentences: list[str], nouns: str, kinds: list[tuple[str, list[str]]]
) -> tuple[str, str, str] | None:
    """``(kind attribute, value, sentence)`` of the first sentence that adds an entry."""
    for s in sentences:
        if re.search(rf"\b(?:no|not|never)\s+(?:\w+\s+){{0,2}}(?:{nouns})\b", s, re.I):
            continue
        for attr, values in kinds:
            for v in values:
                kv = rf"`{re.escape(v)}`"
                near = rf"(?:{kv}\s+(?:{nouns})|(?:{nouns})\s+{kv})"
                if re.search(
                    rf"{_ADDS}{near}|\b(?:an?|one)\s+(?:new\s+)?{near}\s+{_ADDED}", s, re.I
                ):
                    return attr, v, s
    return None


def logged_entries(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, effects: list[Effect]
) -> list[Effect]:
    """A ``create`` effect (record ``logged``) for each entry the description says the call
    adds (see the module docstring), unless ``effects`` already create one there."""
    if tb.kind not in ("action", "update", "create") or tb.collection is None:
        return []
    if tb.kind != "create" and tb.id_param is None:
        return []
    made = {e.collection for e in effects if e.kind == "create" and e.record != "new"}
    made |= {ledger.collection for ledger in ledgers(ctx)}  # their entries carry amounts
    sentences = doc_sentences(spec.description)
    out: list[Effect] = []
    for coll, attrs in ctx.ev.attributes.items():
        back = [a for a in attrs if ctx.ev.references(coll, a) == tb.collection]
        pat = ctx.ev.id_pattern(coll)
        if coll in (tb.collection, *made) or not back or pat is None:
            continue
        nouns = "|".join(re.escape(n) for n in noun_forms(coll))
        said = _said_entry(sentences, nouns, kind_attributes(ctx, coll))
        if said is None:
            continue
        out.append(
            Effect(
                kind="create",
                record="logged",
                collection=coll,
                fields=_entry_fields(tb, ctx, coll, back[0], said),
                id_prefix=pat.prefix,
                id_width=pat.width,
                id_attribute=pat.attribute,
                sentence=said[2],
            )
        )
    return out


def _entry_fields(
    tb: ToolBehaviour, ctx: Context, coll: str, back: str, said: tuple[str, str, str]
) -> dict[str, Value]:
    kind_attr, value, sentence = said
    attrs = ctx.ev.attributes.get(coll, [])
    pat = ctx.ev.id_pattern(coll)
    params = [p.name for p in tb.params if p.name != tb.id_param]
    assigned = stated_params(sentence, attrs, params)
    stamps = status_defaults(ctx.ev, coll, None, None)
    shared = set(ctx.ev.attributes.get(tb.collection or "", []))
    fields: dict[str, Value] = {}
    for a in attrs:
        if pat is not None and a == pat.attribute:
            fields[a] = Value(source="new_id")
        elif a == back:
            fields[a] = Value(source="formula", const=["made_key"])
        elif a == kind_attr:
            fields[a] = Value(source="const", const=value)
        elif a in assigned:
            fields[a] = Value(source="param", name=assigned[a])
        elif a in params:
            fields[a] = Value(source="param", name=a)
        elif stamps.get(a) in ("today", "now"):
            fields[a] = Value(source=stamps[a])
        elif a in shared:
            fields[a] = Value(source="formula", const=["left", a])
        else:
            fields[a] = Value(source="const", const=None)
    return fields


def uses_left(tb: ToolBehaviour) -> bool:
    """Whether an entry of ``tb`` reads a value the acted-on record had before the call."""
    return any(
        v.source == "formula" and v.const and v.const[0] in ("left", "was")
        for e in tb.effects
        for v in e.fields.values()
    )
