"""Line items: a create whose list parameter holds objects that each name a record and a count.

"Checks and reserves stock for every item (quantities of repeated books are added up)": the
parameter's objects carry a reference field (``book_id``, a key of another collection) and an
integer count. What the call does with them is read from the docs and learned from the data,
each rule stated without a domain:

- every referenced record must exist;
- an integer attribute of the referenced records the description names beside a reserving verb
  ("reserves stock", "out of stock") must cover the summed count, and goes down by it;
- the stored lines take the fields the data's lines show: the reference, the count, and each
  other field every line in the data copies from its referenced record (a title, a unit price);
  lines for the same record are merged when the description says repeated ones are added up;
- a number attribute every record in the data holds as the sum of count x a line field is that
  sum (a subtotal); one every record holds as a percentage (an attribute of the record another
  parameter names) of that sum, and 0 without it, is that share (a coupon's discount); one
  every record holds as a signed sum of others is that sum when all are known (a total).

Two rules read a parameter's own description ("It must be active and the subtotal must reach
its minimum"): "it must be <flag>" where the flag is a yes/no attribute of the record the
parameter names requires it true; "the <attribute> must reach its minimum" bounds the new
record's computed attribute by that record's ``min_<attribute>`` (checked once computed; the
call is one transaction, so a refusal leaves nothing behind).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Check, Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.data import copied_attributes, noun_forms, status_defaults
from autoforge.synth.behaviour.dates import offset_fields
from autoforge.synth.behaviour.headings import tool_sentences
from autoforge.synth.behaviour.prices import priced_fields, stated_sums
from autoforge.synth.behaviour.stated import literal_fields, time_fields
from autoforge.synth.behaviour.targets import target_status
from autoforge.synth.behaviour.text import new_record_sentences

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_RESERVE = r"(reserves?|reserving|takes?|deducts?|decrements?|consumes?|out\s+of)"
_MERGED = re.compile(r"\b(added\s+up|summed|combined|merged)\b", re.I)
_INCREASED = re.compile(r"\balready\b[^.;]*\b(?:increas\w*|raised|added\s+to)\b", re.I)


def _line_shape(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context
) -> tuple[str, str, str, str] | None:
    """``(parameter, reference field, referenced collection, count field)`` of the tool's list
    parameter of line objects, or None."""
    for name, schema in (spec.parameters.get("properties") or {}).items():
        items = schema.get("items") if isinstance(schema, dict) else None
        props = items.get("properties") if isinstance(items, dict) else None
        if not isinstance(props, dict):
            continue
        refs = [(f, ctx.ev.collection_named(f)) for f in props if f.endswith("_id")]
        counts = [f for f, s in props.items() if isinstance(s, dict) and s.get("type") == "integer"]
        refs = [(f, c) for f, c in refs if c is not None]
        if len(refs) == 1 and len(counts) == 1 and refs[0][1] != tb.collection:
            return name, refs[0][0], str(refs[0][1]), counts[0]
    return None


def _stock_attribute(spec: ToolSpec, ctx: Context, coll: str) -> tuple[str, str] | None:
    """The integer attribute of ``coll`` a sentence names beside a reserving verb, with it."""
    for s in doc_sentences(spec.description):
        for a in ctx.ev.typed_attributes(coll, "int"):
            word = re.escape(a.replace("_", " "))
            if re.search(rf"\b{_RESERVE}\s+(the\s+)?`?{word}`?\b", s, re.I):
                return a, s
    return None


def _records(ctx: Context, coll: str) -> list[dict[str, Any]]:
    return [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]


def _stored_lines(
    ctx: Context, coll: str, ref: str, ref_coll: str, count: str
) -> tuple[str, dict[str, Value]] | None:
    """The list attribute of ``coll`` whose entries are lines of ``ref``, and how each field
    of a stored line is made (the data's field order)."""
    for attr in ctx.ev.attributes.get(coll, []):
        lines = _lines_of(ctx, coll, attr)
        if not lines or not all(ref in x and count in x for x in lines):
            continue
        fields: dict[str, Value] = {}
        for f in lines[0]:
            if f in (ref, count):
                fields[f] = Value(source="field", name=f)
                continue
            for g in ctx.ev.attributes.get(ref_coll, []):
                if all(
                    x.get(f) == (ctx.ev.state[ref_coll].get(str(x.get(ref))) or {}).get(g)
                    for x in lines
                ):
                    fields[f] = Value(source="copy", name=ref, const=[ref_coll, g])
                    break
        return attr, fields
    return None


def _lines_of(ctx: Context, coll: str, attr: str) -> list[dict[str, Any]]:
    """The objects of list attribute ``attr`` over every record of ``coll``."""
    out: list[dict[str, Any]] = []
    for r in _records(ctx, coll):
        items = r.get(attr)
        if isinstance(items, list):
            out += [x for x in items if isinstance(x, dict)]
    return out


def _close(a: Any, b: float) -> bool:
    return isinstance(a, int | float) and not isinstance(a, bool) and abs(a - b) < 0.011


def _numbers(ctx: Context, coll: str) -> list[str]:
    recs = _records(ctx, coll)
    return [
        a
        for a in ctx.ev.attributes.get(coll, [])
        if recs and all(_close(r.get(a), r.get(a) or 0) for r in recs)
    ]


def _sum_attribute(
    ctx: Context, coll: str, attr: str, count: str, fields: dict[str, Value]
) -> tuple[str, str] | None:
    """``(attribute, line field)``: the attribute every record holds as sum(count x field)."""
    recs = _records(ctx, coll)
    for f in fields:
        if f == count:
            continue
        for a in _numbers(ctx, coll):
            if recs and all(
                _close(
                    r.get(a), sum(_num(x.get(count)) * _num(x.get(f)) for x in r.get(attr) or [])
                )
                for r in recs
            ):
                return a, f
    return None


def _count_attribute(ctx: Context, coll: str, attr: str, count: str) -> str | None:
    """The whole-number attribute every record holds as the sum of its lines' counts (at
    least one record holding lines that sum to more than one)."""
    recs = _records(ctx, coll)
    sums = [sum(_num(x.get(count)) for x in r.get(attr) or [] if isinstance(x, dict)) for r in recs]
    if not recs or max(sums, default=0) <= 1:
        return None
    for a in ctx.ev.typed_attributes(coll, "int"):
        if a != count and all(r.get(a) == n for r, n in zip(recs, sums, strict=True)):
            return a
    return None


def _num(v: Any) -> float:
    """``v`` as a number; anything else (a text, null) counts as nothing."""
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else float("nan")


def _share_attribute(
    ctx: Context, tb: ToolBehaviour, coll: str, base: str
) -> tuple[str, str, str, str] | None:
    """``(attribute, parameter, collection, percent attribute)``: the attribute every record
    holds as ``base`` x percent / 100 of the record its parameter-named reference names, and 0
    where that reference is empty."""
    recs = _records(ctx, coll)
    for p in tb.params:
        if p.references is None or p.name not in ctx.ev.attributes.get(coll, []):
            continue
        ref_coll = p.references
        used = [r for r in recs if r.get(p.name) not in (None, "")]
        if len(used) < 2:
            continue
        for a in _numbers(ctx, coll):
            if a == base or not all(_close(r.get(a), 0) for r in recs if r not in used):
                continue
            for pct in _numbers(ctx, ref_coll):
                if all(
                    _close(
                        r.get(a),
                        (r.get(base) or 0)
                        * ((ctx.ev.state[ref_coll].get(str(r[p.name])) or {}).get(pct) or 0)
                        / 100,
                    )
                    for r in used
                ):
                    return a, p.name, ref_coll, pct
    return None


def _signed_sum(ctx: Context, coll: str, known: list[str]) -> tuple[str, list[list[Any]]] | None:
    """``(attribute, [[sign, attribute], ...])``: an attribute every record holds as a signed
    sum of two or three others, at least one of them ``known`` (computed by the call), and
    whose documented description names each of them (the data alone cannot say which side of
    ``t = s - d + f`` is the result)."""
    recs = _records(ctx, coll)
    if len(recs) < 3:
        return None
    nums = _numbers(ctx, coll)
    for a in nums:
        said = str((ctx.schemas.get(coll, {}).get(a) or {}).get("description") or "")
        if a in known or not said:
            continue
        for terms in _term_sets(known, [b for b in nums if b != a]):
            if all(re.search(rf"\b{t}\b", said) for _, t in terms) and all(
                _close(r.get(a), sum(sign * _num(r.get(t)) for sign, t in terms)) for r in recs
            ):
                return a, [[sign, t] for sign, t in terms]
    return None


def _term_sets(known: list[str], others: list[str]) -> list[list[tuple[int, str]]]:
    """Signed sums of one known attribute (+1) with one or two others (either sign)."""
    out: list[list[tuple[int, str]]] = []
    for first in known:
        rest = [b for b in others if b != first]
        for i, b in enumerate(rest):
            for sb in (1, -1):
                out.append([(1, first), (sb, b)])
                for c in rest[i + 1 :]:
                    out += [[(1, first), (sb, b), (sc, c)] for sc in (1, -1)]
    return out


def line_items(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> tuple[list[Check], list[Effect]]:
    """The checks and effects of a create with line items (see the module docstring)."""
    if tb.kind != "create" or tb.collection is None:
        return [], []
    shape = _line_shape(spec, tb, ctx)
    if shape is None:
        return [], []
    param, ref, ref_coll, count = shape
    nouns = "|".join(re.escape(n) for n in noun_forms(ref_coll))
    said = next(
        (
            s
            for s in doc_sentences(spec.description)
            if re.search(rf"\b({nouns})\b.*\b(unknown|not\s+found|does\s+not\s+exist)", s, re.I)
        ),
        "",
    )
    checks = [
        Check(kind="exists", param=param, collection=ref_coll, values=["each", ref], sentence=said)
    ]
    effects: list[Effect] = []
    stock = _stock_attribute(spec, ctx, ref_coll)
    if stock is not None:
        checks.append(
            Check(
                kind="lines_within",
                param=param,
                collection=ref_coll,
                attribute=stock[0],
                values=[ref, count],
                sentence=stock[1],
            )
        )
    stored = _stored_lines(ctx, tb.collection, ref, ref_coll, count)
    if stored is None:
        return checks, effects
    attr, fields = stored
    _shown_fields(ctx, tb.collection, attr, fields)
    merged = any(_MERGED.search(s) for s in doc_sentences(spec.description))
    effects.append(
        Effect(
            kind="lines",
            record="new",
            collection=ref_coll,
            attribute=attr,
            value=Value(source="param", name=param, const=[ref, count]),
            fields=fields,
            merge=[ref, count] if merged else [],
            when=[stock[0]] if stock else [],
            sentence=stock[1] if stock else "",
        )
    )
    computed = _computed(ctx, tb, attr, count, fields)
    if computed:
        effects.append(Effect(kind="set", record="new", collection=tb.collection, fields=computed))
    return checks, effects


def _one_line_shape(tb: ToolBehaviour, ctx: Context) -> tuple[str, str, str] | None:
    """``(reference parameter, referenced collection, count parameter)`` of an action that
    adds one line to its target: one parameter names a record of another collection, one
    integer parameter counts it."""
    refs = [p for p in tb.params if p.references and p.name != tb.id_param]
    refs = [p for p in refs if p.references != tb.collection]
    counts = [
        p for p in tb.params if p.name != tb.id_param and not p.references and p.format is None
    ]
    counts = [p for p in counts if p.name in ("quantity", "qty", "count", "units")
              or p.name.endswith(("_quantity", "_count"))]  # fmt: skip
    if len(refs) != 1 or len(counts) != 1:
        return None
    return refs[0].name, str(refs[0].references), counts[0].name


def _numbered(lines_by_record: list[list[dict[str, Any]]], f: str) -> bool:
    """Whether every record numbers its lines 1, 2, ... in field ``f``."""
    return bool(lines_by_record) and all(
        [x.get(f) for x in lines] == list(range(1, len(lines) + 1)) for lines in lines_by_record
    )


def _line_product(lines: list[dict[str, Any]], f: str, fields: list[str]) -> list[str] | None:
    """The two fields whose product, to cents, every line holds in ``f``."""
    for i, a in enumerate(fields):
        for b in fields[i + 1 :]:
            if (
                a != f
                and b != f
                and all(
                    _close(x.get(f), round(_num(x.get(a)) * _num(x.get(b)) + 1e-9, 2))
                    for x in lines
                )
            ):
                return [a, b]
    return None


def _shown_fields(ctx: Context, coll: str, attr: str, fields: dict[str, Value]) -> None:
    """Add to ``fields`` the line fields the data's lines show and no argument gives: a
    running line number, a product of two fields (to cents)."""
    held = [r.get(attr) for r in _records(ctx, coll)]
    by_record = [[x for x in ls if isinstance(x, dict)] for ls in held if isinstance(ls, list)]
    every = [x for ls in by_record for x in ls]
    names = list(every[0]) if every else []
    for f in names:
        if f in fields:
            continue
        if _numbered(by_record, f):
            fields[f] = Value(source="formula", const=["line_no"])
        elif (pair := _line_product(every, f, names)) is not None:
            fields[f] = Value(source="formula", const=["times", *pair])


def one_line(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """An action adding one line to its target's list (see ``_one_line_shape``): the line
    takes the fields the data's lines show (the reference and count from the arguments, copies
    of the referenced record, a running line number, a product of two fields), merges into a
    line for the same record when the description says its quantity is increased, and the
    target's numbers computed from its lines are recomputed."""
    shape = _one_line_shape(tb, ctx) if tb.kind == "action" and tb.collection else None
    if shape is None:
        return []
    ref, ref_coll, count = shape
    stored = _stored_lines(ctx, str(tb.collection), ref, ref_coll, count)
    if stored is None:
        return []
    attr, fields = stored
    if any(e.kind in ("append", "lines") and e.attribute == attr for e in tb.effects):
        return []  # another reader already adds the line
    _shown_fields(ctx, str(tb.collection), attr, fields)
    merged = any(_MERGED.search(s) or _INCREASED.search(s) for s in doc_sentences(spec.description))
    out = [
        Effect(
            kind="lines", record="target", collection=ref_coll, attribute=attr,
            value=Value(source="object", name=None, const=[ref, count]), fields=fields,
            merge=[ref, count] if merged else [],
        )
    ]  # fmt: skip
    computed = _computed(ctx, tb, attr, count, fields)
    numbers = _numbers(ctx, str(tb.collection))
    for text in (spec.description, ctx.policy):
        for a, v in stated_sums(text, numbers).items():
            if a not in computed and any(t in computed for _, t in v.const[1]):
                computed[a] = v
    if computed:
        out.append(Effect(kind="set", record="new", collection=tb.collection, fields=computed))
    return out


def _computed(
    ctx: Context, tb: ToolBehaviour, attr: str, count: str, fields: dict[str, Value]
) -> dict[str, Value]:
    coll = tb.collection or ""
    out: dict[str, Value] = {}
    counted = _count_attribute(ctx, coll, attr, count)
    if counted is not None:
        out[counted] = Value(source="formula", const=["count_sum", attr, count])
    total = _sum_attribute(ctx, coll, attr, count, fields)
    if total is None:
        return out
    out[total[0]] = Value(source="formula", const=["sum", attr, count, total[1]])
    share = _share_attribute(ctx, tb, coll, total[0])
    if share is not None:
        a, p, ref_coll, pct = share
        out[a] = Value(source="formula", name=p, const=["percent", total[0], ref_coll, pct])
    signed = _signed_sum(ctx, coll, list(out))
    if signed is not None:
        out[signed[0]] = Value(source="formula", const=["signed", signed[1]])
    return out


def _param_sentences(spec: ToolSpec, name: str) -> list[str]:
    schema = (spec.parameters.get("properties") or {}).get(name)
    said = schema.get("description") if isinstance(schema, dict) else None
    return doc_sentences(str(said)) if said else []


def param_record_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The flag and minimum rules of a referencing parameter's description (see the module
    docstring)."""
    out: list[Check] = []
    for p in tb.params:
        if p.references is None or p.name == tb.id_param:
            continue
        flags = ctx.ev.typed_attributes(p.references, "bool")
        for s in _param_sentences(spec, p.name):
            for a in flags:
                if re.search(rf"\b(it|this|the\s+\w+)\s+must\s+be\s+`?{re.escape(a)}`?\b", s, re.I):
                    out.append(
                        Check(
                            kind="status_in",
                            collection=p.references,
                            attribute=a,
                            via=f"param:{p.name}",
                            values=[True],
                            sentence=s,
                        )
                    )
            for m in re.finditer(
                r"\bthe\s+`?(\w+)`?\s+must\s+(reach|meet)\s+its\s+minimum", s, re.I
            ):
                low = f"min_{m.group(1)}"
                if low in ctx.ev.attributes.get(p.references, []):
                    out.append(
                        Check(
                            kind="new_not_below",
                            attribute=m.group(1),
                            collection=p.references,
                            via=f"param:{p.name}",
                            values=[low],
                            sentence=s,
                        )
                    )
    return out


_BACK = r"(?:go(?:es)?|are\s+put|is\s+put|are\s+returned|is\s+returned|return)\s+back\s+(?:in)?to"


def line_returns(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """ "The <records> go back into <attribute>": each line of the target's list of lines gives
    its count back to that integer attribute of the record it names (a cancelled order's books
    go back into stock)."""
    if tb.kind not in ("action", "update", "delete") or tb.collection is None:
        return []
    out: list[Effect] = []
    for attr in ctx.ev.attributes.get(tb.collection, []):
        lines = _lines_of(ctx, tb.collection, attr)
        if not lines:
            continue
        refs = [f for f in lines[0] if f.endswith("_id") and ctx.ev.collection_named(f)]
        counts = [f for f, v in lines[0].items() if isinstance(v, int) and not isinstance(v, bool)]
        if len(refs) != 1 or len(counts) != 1:
            continue
        ref_coll = str(ctx.ev.collection_named(refs[0]))
        nouns = "|".join(re.escape(n) for n in noun_forms(ref_coll))
        for s in doc_sentences(spec.description):
            for a in ctx.ev.typed_attributes(ref_coll, "int"):
                word = re.escape(a.replace("_", " "))
                if re.search(rf"\b(?:{nouns})\s+{_BACK}\s+`?{word}`?\b", s, re.I):
                    out.append(
                        Effect(
                            kind="lines",
                            record="target",
                            collection=ref_coll,
                            attribute=attr,
                            value=Value(source="param", name="", const=[refs[0], counts[0]]),
                            when=[a, "back"],
                            sentence=s,
                        )
                    )
    return out


_OPENS = (
    r"\b(?:opens?|creates?|starts?|adds?|issues?)\s+(?:an?|one|exactly\s+one)\s+(?:new\s+)?"
    r"(?:`\w+`\s+)?"  # "creates a `final` invoice": a kind of it, in code
)


def opened_records(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """ "Opens a new check" in an action's description, or an HTTP ``POST`` on the target
    that answers with a record of that collection: a record of another collection whose
    records refer to the target is created, with the next id, the target's key, the arguments
    named as its attributes, what every such record in the data copies from its target, the
    start values and stamps the docs state for it, and the target's attribute that names such
    records set to the new id."""
    if tb.kind not in ("action", "update") or tb.collection is None or tb.id_param is None:
        return []
    out: list[Effect] = []
    text = doc_sentences(spec.description)
    for coll in ctx.ev.attributes:
        back = [a for a in ctx.ev.attributes[coll] if ctx.ev.references(coll, a) == tb.collection]
        pat = ctx.ev.id_pattern(coll)
        nouns = "|".join(re.escape(n) for n in noun_forms(coll))
        said = [s for s in text if re.search(rf"{_OPENS}(?:{nouns})\b", s, re.I)]
        answered = tb.operation.startswith("POST ") and tb.reply.collection == coll
        if coll == tb.collection or not back or pat is None or not (said or answered):
            continue
        out.append(
            Effect(kind="create", record="opened", collection=coll,
                   fields=_opened_fields(spec, tb, ctx, coll, back[0], nouns, answered),
                   id_prefix=pat.prefix, id_width=pat.width, id_attribute=pat.attribute,
                   sentence=said[0] if said else "")
        )  # fmt: skip
        mine = [
            a
            for a in ctx.ev.attributes.get(tb.collection, [])
            if ctx.ev.references(tb.collection, a) == coll
        ]
        if mine:
            out.append(
                Effect(
                    kind="set", collection=tb.collection, fields={mine[0]: Value(source="new_id")}
                )
            )
    return out


def _named_kinds(said: list[str], nouns: str, ctx: Context, coll: str) -> dict[str, str]:
    """Values the sentences give a record of ``coll`` by naming them before or after its noun
    (``nouns``): "The invoice is `unpaid`" (the status it starts in), "a `final` invoice"
    (a value the schema documents for exactly one attribute)."""
    status_attr, enum = ctx.status_enum(coll)
    enums = {a: [str(x) for x in sch.get("enum") or []]
             for a, sch in ctx.schemas.get(coll, {}).items() if isinstance(sch, dict)}  # fmt: skip
    out: dict[str, str] = {}
    for s in said:
        m = re.search(rf"\b(?:{nouns})\s+(?:is|starts(?:\s+as|\s+in)?)\s+`(\w+)`", s, re.I)
        if status_attr and m and m.group(1) in (enum or []):
            out.setdefault(status_attr, m.group(1))
        for kind in re.finditer(rf"\ban?\s+`(\w+)`\s+(?:{nouns})\b", s, re.I):
            owners = [a for a, vs in enums.items() if kind.group(1) in vs]
            if len(owners) == 1:
                out.setdefault(owners[0], kind.group(1))
    return out


def _opened_fields(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, coll: str, back: str, nouns: str,
    answered: bool = False,
) -> dict[str, Value]:  # fmt: skip
    """How each attribute of a record an action opens is made: the next id, the target's key
    (``back``), what the tool's description or the policy states, or a copy of the target's
    attribute the data shows. Where the tool answers with the record (``answered``), its own
    sentences speak of it whatever noun they use."""
    attrs = ctx.ev.attributes[coll]
    pat = ctx.ev.id_pattern(coll)
    said = new_record_sentences(ctx.policy, coll) + tool_sentences(
        ctx.policy, tb.tool, ctx.headed, ctx.verbs
    )
    said = doc_sentences(spec.description) + said
    said = [s for s in said if re.search(rf"\b(?:{nouns})\b", s, re.I)]
    said += doc_sentences(spec.description) if answered else []
    status_attr, enum = ctx.status_enum(coll)
    consts: dict[str, Any] = {}
    times: dict[str, Any] = {}
    for s in said:
        for a, v in literal_fields(s, attrs, enum, ctx.ev.list_attributes(coll)).items():
            consts.setdefault(a, v)
        for a, src in time_fields(s, attrs).items():
            times.setdefault(a, src)
    for a, v in _named_kinds(said, nouns, ctx, coll).items():
        consts.setdefault(a, v)
    start = target_status(spec, coll, enum, ctx.policy, create=True) if answered else None
    if status_attr and start:
        consts.setdefault(status_attr, start[0])
    priced = priced_fields(spec, tb, ctx, coll, "target", str(tb.collection))
    offsets: dict[str, Value] = {}
    for s in said:
        for a, v in offset_fields(s, attrs, [p.name for p in tb.params]).items():
            offsets.setdefault(a, v)
    copied = copied_attributes(ctx.ev, coll, [(back, str(tb.collection))])
    stamps = status_defaults(ctx.ev, coll, status_attr, consts.get(status_attr or ""))
    fields: dict[str, Value] = {}
    given = {p.name for p in tb.params} - {tb.id_param}
    for a in attrs:
        if pat is not None and a == pat.attribute:
            fields[a] = Value(source="new_id")
        elif a == back:
            fields[a] = Value(source="param", name=tb.id_param)
        elif a in given:
            fields[a] = Value(source="param", name=a)
        elif a in priced:
            fields[a] = priced[a]
        elif a in offsets:
            fields[a] = offsets[a]
        elif a in consts:
            fields[a] = Value(source="const", const=consts[a])
        elif a in times and not isinstance(stamps.get(a), tuple):
            fields[a] = Value(source=times[a])
        elif a in copied:
            fields[a] = Value(source="copy", name=tb.id_param, const=[tb.collection, copied[a][2]])
        else:
            fields[a] = Value(source="const", const=None)
    return fields
