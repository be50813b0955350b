"""Writes a tool's description implies beyond its target's own given fields.

Two rules, each stated without a domain:

- **A parameter becomes a related record's attribute.** "`mileage` ... may not be below the
  vehicle's recorded `mileage`; it becomes the vehicle's `mileage`": a sentence about a
  parameter says "it becomes (or is stored as) the <noun>'s `attribute`", and the noun names a
  record the target or a parameter refers to; the call writes the argument there.
- **A choice parameter decides the status.** A parameter whose enum values each name one of the
  target's statuses, as the docs state ("`approve` → status `active`") or by their stem
  (``approve`` -> ``approved``, ``reject`` -> ``rejected``), sets the status to the matching
  one, with the stamps the data shows every such status carrying, when nothing else in the
  docs says which status the tool leaves; the literal values a choice's own list item states
  ("- `reject`: status `rejected`, `payout_amount` 0.00") are written when that choice is made.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import noun_forms, status_defaults
from autoforge.synth.behaviour.paths import effect_record
from autoforge.synth.behaviour.stated import literal_fields

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec


def param_onto_related(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, related: list[tuple[str, str | None]]
) -> list[Effect]:
    """Set effects for "`p` ... it becomes the <noun>'s `a`" and "pass `p` ...; the <noun>'s
    `a` is updated to it" (see the module docstring); ``related`` lists ``(collection, via)``
    of the records the tool can reach."""
    params = {p.name for p in tb.params}
    out: list[Effect] = []
    for s in doc_sentences(spec.description):
        head = re.match(r"^\s*`(\w+)`", s)
        subject = head.group(1) if head and head.group(1) in params else None
        for coll, via in related:
            if via is None or coll == tb.collection:
                continue
            nouns = "|".join(re.escape(n) for n in noun_forms(coll))
            for a in ctx.ev.attributes.get(coll, []):
                param = _onto(s, nouns, a, params, subject)
                if param is None:
                    continue
                record = effect_record(via)
                value = Value(source="param", name=param)
                out.append(
                    Effect(
                        kind="set", record=record, collection=coll, fields={a: value}, sentence=s
                    )
                )
    return out


def _onto(s: str, nouns: str, a: str, params: set[str], subject: str | None) -> str | None:
    """The parameter ``s`` writes onto attribute ``a`` of the record its nouns name."""
    attr = rf"`?{re.escape(a)}`?(?![\w-])"
    onto = r"\b(?:it|which)\s+(?:then\s+)?(?:becomes|is\s+stored\s+as|replaces)\s+"
    if subject and re.search(rf"{onto}the\s+(?:{nouns})'s\s+(?:\w+\s+)?{attr}", s, re.I):
        return subject
    to_it = rf"\bthe\s+(?:{nouns})'s\s+`{re.escape(a)}`\s+is\s+(?:updated|set|changed)\s+to\s+it\b"
    found = re.search(to_it, s, re.I)
    named = [x for x in re.findall(r"`(\w+)`", s[: found.start()]) if x in params] if found else []
    return named[-1] if named else None


def _stem(word: str) -> str:
    """The part of a verb its past form keeps: approve -> approv, deny -> deni, grant."""
    w = word.lower()
    if w.endswith("y") and len(w) > 3:
        return w[:-1] + "i"
    return w[:-1] if w.endswith("e") else w


def decision_status(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """The status set from a choice parameter (see the module docstring), with the literal
    values each choice's case states (:func:`choice_literals`); empty when no parameter
    decides the status."""
    status_attr, values = ctx.status_enum(tb.collection)
    if status_attr is None or tb.collection is None:
        return []
    for name, schema in (spec.parameters.get("properties") or {}).items():
        enum = schema.get("enum") if isinstance(schema, dict) else None
        if not isinstance(enum, list) or len(enum) < 2 or name == status_attr:
            continue
        said = spec.description + "\n" + ctx.policy
        mapping: dict[str, Any] = _stated_choices(said, enum, values)
        for choice in enum:
            if str(choice) in mapping:
                continue
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
        chosen = Effect(kind="set", collection=tb.collection, fields={**fields, **stamps})
        written = {status_attr, *stamps}
        return [chosen, *choice_literals(said, name, [str(c) for c in enum], tb, ctx, written)]
    return []


def _case_text(text: str, choice: str) -> str:
    """The list item or line a choice opens ("- `reject`: status `rejected`, `payout_amount`
    0.00 ...", "- deny: ..."), with the lines that continue it, or ""."""
    lines = text.splitlines()
    c = re.escape(choice)
    lead = re.compile(rf"^(\s*)(?:[-*+]\s+)?(?:`{c}`|\*\*{c}\*\*|{c})\s*(?:→|->|=>|:|\s-\s|—)")
    for i, line in enumerate(lines):
        m = lead.match(line)
        if m is None:
            continue
        out = [line]
        for more in lines[i + 1 :]:
            indent = len(more) - len(more.lstrip())
            if not more.strip() or indent <= len(m.group(1)) or re.match(r"\s*[-*+]\s", more):
                break
            out.append(more)
        return " ".join(s.strip() for s in out)
    return ""


def choice_literals(
    text: str,
    param: str,
    choices: list[str],
    tb: ToolBehaviour,
    ctx: Context,
    written: set[str],
) -> list[Effect]:
    """Literal values the case of each choice states for the target's attributes ("`reject`:
    ..., `payout_amount` 0.00"), less those already ``written``: one set effect for those
    every case states alike, and one per choice, written only when the argument is that
    choice, for the others."""
    coll = tb.collection or ""
    attrs = ctx.ev.attributes.get(coll, [])
    enum = ctx.status_enum(coll)[1]
    lists, floats = ctx.ev.list_attributes(coll), ctx.ev.float_attributes(coll)
    names = {p.name for p in tb.params} | written
    cases = {c: _case_text(text, c) for c in choices}
    said: dict[str, dict[str, Any]] = {}
    for c, case in cases.items():
        found = literal_fields(case, attrs, enum, lists, floats)
        said[c] = {a: v for a, v in found.items() if a not in names}
    first = said[choices[0]]
    common = {a: v for a, v in first.items() if all(said[c].get(a, ...) == v for c in choices)}
    out = []
    if common:
        fields = {a: Value(source="const", const=v) for a, v in common.items()}
        out.append(Effect(kind="set", collection=coll, fields=fields))
    for c in choices:
        own = {a: Value(source="const", const=v) for a, v in said[c].items() if a not in common}
        if own:
            when = [f"param:{param}", c]
            out.append(
                Effect(kind="set", collection=coll, fields=own, when=when, sentence=cases[c])
            )
    return out


def _stated_choices(text: str, enum: list[Any], values: list[str]) -> dict[str, str]:
    """``{choice: status}`` the docs state with an arrow or a verb: "`approve` → status
    `active`", "`reject` -> `rejected`", "`hold` moves it to `on_hold`"."""
    flat = " ".join(text.split())
    out: dict[str, str] = {}
    for choice in enum:
        c = re.escape(str(choice))
        lead = rf"`{c}`\s*(?:→|->|=>|:|\bmoves?\s+(?:it|the\s+\w+)\s+to|\bsets?\s+(?:it\s+)?to)"
        m = re.search(lead + r"\s*(?:the\s+)?(?:status\s+)?`(\w+)`", flat)
        if m is not None and m.group(1) in values:
            out[str(choice)] = m.group(1)
    return out


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


def _noun_param(tb: ToolBehaviour, coll: str) -> str | None:
    """The parameter naming a record of ``coll``, or "target" for the tool's own."""
    if tb.collection == coll and tb.kind != "create":
        return "target"
    return next((p.name for p in tb.params if p.references == coll and p.name != tb.id_param), None)


def _related_colls(tb: ToolBehaviour, ctx: Context) -> list[str]:
    out = [p.references for p in tb.params if p.references]
    if tb.kind != "create" and tb.collection:
        out += [
            str(ctx.ev.references(tb.collection, a))
            for a in ctx.ev.attributes.get(tb.collection, [])
            if ctx.ev.references(tb.collection, a)
        ]
    return list(dict.fromkeys(c for c in out if c))


def stated_amounts(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context
) -> tuple[dict[str, Value], list[Effect]]:
    """A create's value taken from a referenced record and moved onto another one, and an
    amount a tool gives back:

    - "`a` equal to the <noun>'s `b` (N on the <value> <attribute>), deducted from the
      <noun2>'s `c`": the new record's ``a`` copies ``b`` (N where the named record's attribute
      has that value), and ``c`` goes down by it;
    - "refunds `a` to the <noun>": the target's ``a`` goes back to the attribute of that record
      ``a`` is named after (``credits_charged`` -> ``credits``).
    """
    fields: dict[str, Value] = {}
    effects: list[Effect] = []
    attrs = ctx.ev.attributes.get(tb.collection or "", [])
    colls = _related_colls(tb, ctx)
    for s in doc_sentences(spec.description):
        for a in attrs:
            if tb.kind == "create":
                value = _equal_to(s, a, tb, ctx, colls)
                if value is not None:
                    fields[a] = value
                    effects += _deducted(s, a, tb, ctx, colls)
            else:
                effects += _refunded(s, a, tb, ctx, colls)
    return fields, effects


def _equal_to(s: str, a: str, tb: ToolBehaviour, ctx: Context, colls: list[str]) -> Value | None:
    for coll in colls:
        nouns = "|".join(re.escape(n) for n in noun_forms(coll))
        for b in ctx.ev.attributes.get(coll, []):
            m = re.search(
                rf"`{re.escape(a)}`\s+equal\s+to\s+the\s+(?:{nouns})'s\s+`{re.escape(b)}`"
                r"(?:\s*\((?P<n>\d+(?:\.\d+)?)\s+(?:on|for)\s+the\s+(?P<v>[\w-]+)\s+(?P<w>\w+)\))?",
                s,
                re.I,
            )
            param = _noun_param(tb, coll)
            if m is None or param is None or param == "target":
                continue
            unless = _unless(m.group("n"), m.group("v"), m.group("w"), tb, ctx, colls)
            return Value(source="formula", name=param, const=["copy_unless", coll, b, unless])
    return None


def _unless(
    n: str | None, value: str | None, word: str | None, tb: ToolBehaviour, ctx: Context,
    colls: list[str],
) -> list[Any]:  # fmt: skip
    """``[parameter, collection, attribute, value, number]``: the number to use instead where
    the record the parameter names has that value ("0 on the unlimited plan"), or []."""
    if n is None or value is None or word is None:
        return []
    for coll in colls:
        param = _noun_param(tb, coll)
        if param is None or param == "target" or word not in ctx.ev.attributes.get(coll, []):
            continue
        seen = {r.get(word) for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)}
        if value in seen:
            return [param, coll, word, value, float(n) if "." in n else int(n)]
    return []


def _deducted(s: str, a: str, tb: ToolBehaviour, ctx: Context, colls: list[str]) -> list[Effect]:
    for coll in colls:
        nouns = "|".join(re.escape(n) for n in noun_forms(coll))
        for c in ctx.ev.attributes.get(coll, []):
            pat = (
                rf",\s+(deducted|subtracted|taken)\s+from\s+the\s+(?:{nouns})'s\s+`{re.escape(c)}`"
            )
            param = _noun_param(tb, coll)
            if re.search(pat, s, re.I) and param not in (None, "target"):
                value = Value(source="formula", const=["new", a, -1])
                return [
                    Effect(
                        kind="increment",
                        record=f"param:{param}",
                        collection=coll,
                        attribute=c,
                        value=value,
                        sentence=s,
                    )
                ]
    return []


def _refunded(s: str, a: str, tb: ToolBehaviour, ctx: Context, colls: list[str]) -> list[Effect]:
    for coll in colls:
        nouns = "|".join(re.escape(n) for n in noun_forms(coll))
        if not re.search(
            rf"\b(refunds?|returns?|gives?\s+back)\s+`{re.escape(a)}`\s+to\s+the\s+(?:{nouns})\b",
            s,
            re.I,
        ):
            continue
        into = [c for c in ctx.ev.attributes.get(coll, []) if a.startswith(c + "_")]
        via = next(
            (x for x in ctx.ev.attributes.get(tb.collection or "", [])
             if ctx.ev.references(tb.collection or "", x) == coll),
            None,
        )  # fmt: skip
        if len(into) == 1 and via is not None:
            return [
                Effect(
                    kind="increment",
                    record=f"via:{via}",
                    collection=coll,
                    attribute=into[0],
                    value=Value(source="formula", const=["target", a, 1]),
                    sentence=s,
                )
            ]
    return []


_NUM = r"\d+(?:\.\d+)?"


def priced_choices(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """ "`pack` is 5, 10 or 20 credits, priced 60.00, 110.00 and 200.00. Adds ... the price to
    `total_spent`": the listed prices belong to the listed values in order, and "adds the price
    to `a`" adds the price of the given value to the target's ``a``."""
    text = " ".join(doc_sentences(spec.description))
    names = {p.name for p in tb.params}
    out: list[Effect] = []
    for m in re.finditer(
        rf"`(?P<p>\w+)`\s+is\s+(?P<vals>{_NUM}(?:\s*(?:,|or)\s*{_NUM})+)\s+\w+,\s+"
        rf"(?:priced|costing|at)\s+(?P<prices>{_NUM}(?:\s*(?:,|and)\s*{_NUM})+)",
        text,
        re.I,
    ):
        vals = re.findall(_NUM, m.group("vals"))
        prices = [float(x) for x in re.findall(_NUM, m.group("prices"))]
        if m.group("p") not in names or len(vals) != len(prices):
            continue
        mapping = dict(zip(vals, prices, strict=True))
        for a in ctx.ev.attributes.get(tb.collection or "", []):
            if re.search(rf"\badds?\b[^.]*\bthe\s+price\s+to\s+`{re.escape(a)}`", text, re.I):
                out.append(
                    Effect(
                        kind="increment",
                        record="target",
                        collection=tb.collection,
                        attribute=a,
                        value=Value(source="param_map", name=m.group("p"), const=mapping),
                        sentence=m.group(0),
                    )
                )
    return out
