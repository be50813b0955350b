"""Writes a tool's description implies beyond its target's own given fields.

Two rules, each stated without a domain:

- **A parameter becomes a related record's attribute.** "`mileage` ... may not be below the
  vehicle's recorded `mileage`; it becomes the vehicle's `mileage`": a sentence about a
  parameter says "it becomes (or is stored as) the <noun>'s `attribute`", and the noun names a
  record the target or a parameter refers to; the call writes the argument there.
- **A choice parameter decides the status.** A parameter whose enum values each name one of the
  target's statuses by their stem (``approve`` -> ``approved``, ``reject`` -> ``rejected``)
  sets the status to the matching one, with the stamps the data shows every such status
  carrying, when nothing else in the docs says which status the tool leaves.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import noun_forms, status_defaults

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec


def param_onto_related(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, related: list[tuple[str, str | None]]
) -> list[Effect]:
    """Set effects for "`p` ... it becomes the <noun>'s `a`" (see the module docstring);
    ``related`` lists ``(collection, via)`` of the records the tool can reach."""
    params = {p.name for p in tb.params}
    out: list[Effect] = []
    for s in doc_sentences(spec.description):
        head = re.match(r"^\s*`(\w+)`", s)
        if head is None or head.group(1) not in params:
            continue
        for coll, via in related:
            if via is None or coll == tb.collection:
                continue
            nouns = "|".join(re.escape(n) for n in noun_forms(coll))
            for a in ctx.ev.attributes.get(coll, []):
                onto = (
                    rf"\b(?:it|which)\s+(?:then\s+)?(?:becomes|is\s+stored\s+as|replaces)\s+"
                    rf"the\s+(?:{nouns})'s\s+(?:\w+\s+)?`?{re.escape(a)}`?(?![\w-])"
                )
                if re.search(onto, s, re.I):
                    record = via if via.startswith("param:") else f"via:{via}"
                    value = Value(source="param", name=head.group(1))
                    out.append(
                        Effect(
                            kind="set",
                            record=record,
                            collection=coll,
                            fields={a: value},
                            sentence=s,
                        )
                    )
    return out


def _stem(word: str) -> str:
    """The part of a verb its past form keeps: approve -> approv, deny -> deni, grant."""
    w = word.lower()
    if w.endswith("y") and len(w) > 3:
        return w[:-1] + "i"
    return w[:-1] if w.endswith("e") else w


def decision_status(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> Effect | None:
    """The status set from a choice parameter (see the module docstring), or None."""
    status_attr, values = ctx.status_enum(tb.collection)
    if status_attr is None or tb.collection is None:
        return None
    for name, schema in (spec.parameters.get("properties") or {}).items():
        enum = schema.get("enum") if isinstance(schema, dict) else None
        if not isinstance(enum, list) or len(enum) < 2 or name == status_attr:
            continue
        mapping: dict[str, Any] = {}
        for choice in enum:
            hits = [
                v
                for v in values
                if len(str(choice)) >= 3
                and v.lower().startswith(_stem(str(choice)))
                and 0 < len(v) - len(_stem(str(choice))) <= 3
            ]
            if len(hits) == 1:
                mapping[str(choice)] = hits[0]
        if len(mapping) != len(enum) or len(set(mapping.values())) != len(enum):
            continue
        fields = {status_attr: Value(source="param_map", name=name, const=mapping)}
        stamps = _decided_stamps(ctx, tb.collection, status_attr, list(mapping.values()))
        return Effect(kind="set", collection=tb.collection, fields={**fields, **stamps})
    return None


def _decided_stamps(
    ctx: Context, coll: str, status_attr: str, statuses: list[str]
) -> dict[str, Value]:
    """The today/now stamps every record in any of ``statuses`` carries and records in the
    other statuses leave empty: what entering one of the decided statuses writes."""
    out: dict[str, Value] | None = None
    for status in statuses:
        seen = status_defaults(ctx.ev, coll, status_attr, status)
        mine = {a: Value(source=v) for a, v in seen.items() if v in ("today", "now")}
        out = mine if out is None else {a: v for a, v in out.items() if a in mine}
    rest = [
        r
        for r in ctx.ev.state.get(coll, {}).values()
        if isinstance(r, dict) and r.get(status_attr) not in statuses
    ]
    return {
        a: v
        for a, v in (out or {}).items()
        if rest and sum(r.get(a) in (None, "") for r in rest) >= 0.8 * len(rest)
    }


_SEPARATORS = {"hyphen": "-", "dash": "-", "slash": "/", "colon": ":", "dot": ".", "space": " "}


def composed_fields(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> dict[str, Value]:
    """Values of a new record the description composes from a referenced record or the
    arguments:

    - "`key` is the project key, a hyphen and the project's `next_task_number`": the two
      attributes of the record a parameter names, joined by the named separator;
    - "`member_ids` ... is the lead first, then the given member_ids (the lead is not repeated)":
      the parameter the noun names, then the list parameter's items without it.
    """
    out: dict[str, Value] = {}
    attrs = ctx.ev.attributes.get(tb.collection or "", [])
    for s in doc_sentences(spec.description):
        for a in attrs:
            joined = _joined(s, a, tb, ctx)
            if joined is not None:
                out[a] = joined
            first = re.search(
                rf"`{re.escape(a)}`.*?\bis\s+the\s+(\w+)\s+first,\s+then\s+the\s+given\s+`?"
                rf"{re.escape(a)}`?",
                s,
                re.I,
            )
            lead = _param_named(first.group(1), tb) if first else None
            if lead is not None and a in {p.name for p in tb.params}:
                out[a] = Value(source="formula", const=["first_then", lead, a])
    return out


def _param_named(word: str, tb: ToolBehaviour) -> str | None:
    names = {p.name for p in tb.params}
    return next((n for n in (word, f"{word}_id") if n in names), None)


def _joined(s: str, a: str, tb: ToolBehaviour, ctx: Context) -> Value | None:
    """ "`a` is the <noun>'s? <attr>, a <separator> and the <noun>'s `<attr2>`"."""
    for p in tb.params:
        if p.references is None:
            continue
        nouns = "|".join(re.escape(n) for n in noun_forms(p.references))
        theirs = ctx.ev.attributes.get(p.references, [])
        m = re.search(
            rf"`{re.escape(a)}`\s+is\s+the\s+(?:{nouns})(?:'s)?\s+`?(?P<one>\w+)`?,\s+an?\s+"
            rf"(?P<sep>\w+)\s+and\s+the\s+(?:{nouns})'s\s+`?(?P<two>\w+)`?",
            s,
            re.I,
        )
        if m and m.group("one") in theirs and m.group("two") in theirs:
            sep = _SEPARATORS.get(m.group("sep").lower())
            if sep is not None:
                parts = [m.group("one"), sep, m.group("two")]
                return Value(source="formula", name=p.name, const=["join", p.references, parts])
    return None
