"""Derive each tool's behaviour model (:mod:`autoforge.env.artifact.behaviour`) deterministically
from
its documentation, the data and the policy.

The operation's shape (method, path, response codes) says what kind of tool it is; the response
schema says which collection it answers with (matched to the data by attribute overlap); the
data says which parameter points into which collection and what pattern ids follow; sentences of
the tool's description and the policy say which statuses a record must be in, which values an
effect writes and which counters move. Every rule is stated without naming a domain.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from autoforge.env import (
    Check,
    Effect,
    ParamInfo,
    Reply,
    StateSchema,
    ToolBehaviour,
    ToolKind,
    Value,
    ValueSource,
    doc_sentences,
    states_rule,
)
from autoforge.synth.behaviour.audit import audit_entries
from autoforge.synth.behaviour.branches import branch_effects
from autoforge.synth.behaviour.cascade import cascades
from autoforge.synth.behaviour.coded import coded_checks
from autoforge.synth.behaviour.counters import increments, not_stored
from autoforge.synth.behaviour.data import (
    Context,
    DataEvidence,
    carried_attributes,
    copied_attributes,
    copied_through,
    is_number,
    status_defaults,
)
from autoforge.synth.behaviour.dates import offset_fields
from autoforge.synth.behaviour.entering import cleared_kept, entry_fields
from autoforge.synth.behaviour.entries import logged_entries
from autoforge.synth.behaviour.envelopes import enveloped_reply, schema_props
from autoforge.synth.behaviour.fallbacks import record_defaults, with_record_defaults
from autoforge.synth.behaviour.formulas import after_computed, formula_texts, formula_values
from autoforge.synth.behaviour.fullness import min_items_checks
from autoforge.synth.behaviour.guards import tool_checks
from autoforge.synth.behaviour.headings import heading_owners, tool_sentences, verb_stems
from autoforge.synth.behaviour.ledger import amount_digits, ledger_effects
from autoforge.synth.behaviour.lines import (
    line_items,
    line_returns,
    one_line,
    opened_records,
    param_record_checks,
)
from autoforge.synth.behaviour.listing import list_filters
from autoforge.synth.behaviour.matches import match_checks
from autoforge.synth.behaviour.moves import move_checks
from autoforge.synth.behaviour.normal import normal_forms
from autoforge.synth.behaviour.offsets import offset_values
from autoforge.synth.behaviour.outcomes import outcome_effects
from autoforge.synth.behaviour.ownership import (
    owned_checks,
    parent_checks,
    without_owner_writes,
)
from autoforge.synth.behaviour.pairs import pair_checks
from autoforge.synth.behaviour.prices import priced_fields, stated_sums
from autoforge.synth.behaviour.reached import reached_sets, without_replaced
from autoforge.synth.behaviour.received import (
    received_checks,
)
from autoforge.synth.behaviour.relations import (
    member_checks,
    record_for_checks,
)
from autoforge.synth.behaviour.sameday import same_day_checks
from autoforge.synth.behaviour.sequenced import next_numbers
from autoforge.synth.behaviour.settles import settled_status
from autoforge.synth.behaviour.stamps import change_stamps, record_attrs, stated_dates
from autoforge.synth.behaviour.stated import (
    CONDITIONAL,
    dated_today,
    literal_fields,
    named_values,
    stated_default,
    stated_params,
    time_fields,
)
from autoforge.synth.behaviour.steps import step_moves
from autoforge.synth.behaviour.subjects import subject_status_checks
from autoforge.synth.behaviour.tables import keyed_tables
from autoforge.synth.behaviour.targets import target_status
from autoforge.synth.behaviour.text import (
    appends,
    list_caps,
    new_record_sentences,
    related_status_sets,
    repeat_refusals,
    transition_tables,
    write_targets,
)
from autoforge.synth.behaviour.transfers import cover_checks, transfer_effects
from autoforge.synth.behaviour.uses import use_counters
from autoforge.synth.behaviour.writes import (
    composed_fields,
    decision_status,
    param_onto_related,
    priced_choices,
    stated_amounts,
)
from autoforge.tooldocs import ToolDocs, ToolSpec

_DOCS: dict[str, Any] = {}


@dataclass
class Operation:
    """Where a tool sits in its HTTP API (empty when the docs are not OpenAPI)."""

    method: str = ""
    path: str = ""
    codes: list[str] = field(default_factory=list)


def operation(spec: ToolSpec) -> Operation:
    """Method, path and response codes of ``spec`` read from its OpenAPI source; none for an
    RPC call written as a path (``/#DeleteProject``, ``/?Action=DeleteProject``: the
    operation's name in a fragment or query), whose method and path say nothing of what it
    does (every such call is a POST to one address)."""
    src = spec.source
    if src is None or not src.pointer or not src.pointer.startswith("/paths/"):
        return Operation()
    parts = src.pointer.split("/")
    if len(parts) < 4:
        return Operation()
    path = parts[2].replace("~1", "/").replace("~0", "~")
    if "#" in path or "?" in path:
        return Operation()
    method = parts[3].lower()
    doc = _load(src.file)
    op = ((doc.get("paths") or {}).get(path) or {}).get(method) if isinstance(doc, dict) else None
    codes = [str(c) for c in (op or {}).get("responses", {})] if isinstance(op, dict) else []
    return Operation(method, path, codes)


def _load(file: str | None) -> Any:
    if not file:
        return {}
    if file not in _DOCS:
        try:
            text = Path(file).read_text(encoding="utf-8")
            _DOCS[file] = json.loads(text) if file.endswith(".json") else yaml.safe_load(text)
        except (OSError, ValueError, yaml.YAMLError):
            _DOCS[file] = {}
    return _DOCS[file]


def reading_context(
    docs: ToolDocs, data: Mapping[str, Any], policy: str, layout: StateSchema | None = None
) -> Context:
    """The context a model reader reads a tool in: :func:`context_of` over the data (without
    data, over the state design's ``layout``), with the policy and the document's own
    description as the prose."""
    text = "\n".join(x for x in (policy, docs.description or "") if x)
    ev = (
        DataEvidence.of_layout(layout, docs.tools)
        if layout and not data
        else DataEvidence.of(dict(data))
    )
    return context_of(docs.tools, ev, text)


def context_of(specs: list[ToolSpec], ev: DataEvidence, policy: str) -> Context:
    """The derivation context: the data, the policy's transition tables, and per collection
    the documented property schemas of the tools answering with it."""
    ctx = Context(ev=ev, policy=policy, tables=transition_tables(policy))
    writes = [(s.name, (s.description.strip().splitlines() or [""])[0]) for s in specs
              if operation(s).method not in ("get", "")]  # fmt: skip
    ctx.headed = heading_owners(policy, writes, list(ev.attributes))
    ctx.verbs = verb_stems(writes, list(ev.attributes))
    for spec in specs:
        props = schema_props(spec.returns)
        coll = ev.collection_for(list(props)) if props else None
        if coll is not None:
            ctx.schemas.setdefault(coll, {}).update(props)
    return ctx


def _enum(schema: Any) -> bool:
    return isinstance(schema, dict) and isinstance(schema.get("enum"), list)


def _path_params(path: str) -> list[tuple[str, str]]:
    """(segment before, parameter) for each ``{param}`` of ``path``."""
    segs = [s for s in path.split("/") if s]
    return [
        (segs[i - 1] if i else "", s[1:-1])
        for i, s in enumerate(segs)
        if s.startswith("{") and s.endswith("}")
    ]


def _kind(spec: ToolSpec, op: Operation, reply: Reply) -> ToolKind:
    segs = [s for s in op.path.split("/") if s]
    ends_param = bool(segs) and segs[-1].startswith("{")
    if op.method == "get" or spec.access == "read":  # a POST its docs say reads is a query
        if reply.kind == "list":
            return "list"
        return "get" if reply.kind == "record" and ends_param else "compute"
    if op.method in ("patch", "put"):
        return "update"
    if op.method == "delete":
        return "delete"
    if "201" in op.codes and reply.kind == "record" and not _acts_on_path_record(op):
        return "create"
    if (
        op.method == "post"
        and not ends_param
        and not _path_params(op.path)
        and reply.kind == "record"
    ):
        return "create"
    return "action" if _path_params(op.path) else "compute"


def _acts_on_path_record(op: Operation) -> bool:
    """Whether the path ends in a verb after the record's key (``/visits/{id}/complete``):
    the tool acts on that record, whatever else it makes; a noun there (``/{id}/payments``)
    names what is created."""
    segs = [s for s in op.path.split("/") if s]
    if len(segs) < 2 or not segs[-2].startswith("{") or segs[-1].startswith("{"):
        return False
    return not segs[-1].lower().replace("-", "_").split("_")[-1].endswith("s")


def _reply(spec: ToolSpec, ev: DataEvidence) -> Reply:
    ret = spec.returns
    if not isinstance(ret, dict):
        return Reply(kind="none")
    props = schema_props(ret)
    enveloped = None
    if ev.collection_for(list(props)) is None:
        enveloped = enveloped_reply(ret, ev, list(spec.param_names))
    if enveloped is not None:
        return enveloped
    coll = ev.collection_for(list(props)) if props else None
    if ret.get("type") == "array":
        return Reply(kind="list", collection=coll, keys=list(props))
    if coll is not None:
        return Reply(kind="record", collection=coll, keys=list(props))
    return Reply(kind="object", keys=list(props))


def _target(
    op: Operation, kind: str, reply: Reply, ev: DataEvidence
) -> tuple[str | None, str | None]:
    """(collection, id parameter) of the record the tool reads or changes."""
    pp = _path_params(op.path)
    if kind in ("list", "create"):
        return reply.collection, None
    if not pp:
        return reply.collection, None
    seg, param = pp[-1]
    coll = ev.collection_named(seg.replace("-", "_")) or ev.collection_named(param)
    if coll is None and reply.kind == "record":
        coll = reply.collection
    return coll, param


def nested_item(op: Operation, ev: DataEvidence) -> tuple[str, str, str, str] | None:
    """``(collection, its key parameter, list attribute, item field)`` when the path's last
    parameter keys an entry of a list held inside a record (``/invoices/{invoice_id}/lines/
    {line_no}``): the segment before it names no collection, an earlier parameter's does,
    and that collection's records hold a list of objects carrying a field of that name."""
    pp = _path_params(op.path)
    segs = [x for x in op.path.split("/") if x]
    if len(pp) < 2 or not segs[-1].startswith("{"):
        return None
    seg, item = pp[-1]
    if ev.collection_named(seg.replace("-", "_")) or ev.collection_named(item):
        return None
    parent_seg, parent = pp[-2]
    coll = ev.collection_named(parent_seg.replace("-", "_")) or ev.collection_named(parent)
    if coll is None:
        return None
    for a in ev.attributes.get(coll, []):
        entries: list[Any] = []
        for r in ev.state.get(coll, {}).values():
            held = r.get(a) if isinstance(r, dict) else None
            entries += held if isinstance(held, list) else []
        if entries and all(isinstance(x, dict) and item in x for x in entries):
            return coll, parent, a, item
    return None


def _params(
    spec: ToolSpec, coll: str | None, id_param: str | None, ctx: Context
) -> list[ParamInfo]:
    ev = ctx.ev
    attrs = ev.attributes.get(coll or "", [])
    out = []
    own = [spec.description, *tool_sentences(ctx.policy, spec.name, ctx.headed, ctx.verbs)]
    for name, schema in (spec.parameters.get("properties") or {}).items():
        types = schema.get("type") if isinstance(schema, dict) else None
        info = ParamInfo(
            name=name,
            required=name in spec.required,
            nullable=isinstance(types, list) and "null" in types,
            default=schema.get("default") if isinstance(schema, dict) else None,
            has_default=isinstance(schema, dict) and "default" in schema,
            format=schema.get("format") if isinstance(schema, dict) else None,
            number=types == "number" or (isinstance(types, list) and "number" in types),
        )
        enum = [str(v) for v in schema.get("enum") or []] if isinstance(schema, dict) else []
        said = None if info.has_default else stated_default(own, name, enum)
        if said is not None:
            info.default, info.has_default = said[0], True
        if name == id_param:
            info.references = coll
        elif name in attrs:
            info.references = ev.references(coll or "", name)
            info.attribute = name
        elif name + "s" in attrs:
            info.attribute, info.match = name + "s", "member"
            info.references = ev.references(coll or "", name + "s")
        if info.references is None and name != id_param and re.search(r"_id$", name):
            info.references = ev.collection_named(name)
        if info.attribute and info.match is None:
            sample: dict[str, Any] = next(iter(ev.state.get(coll or "", {}).values()), {})
            info.match = "contains" if isinstance(sample.get(info.attribute), list) else "eq"
        out.append(info)
    texts = doc_sentences(spec.description) + doc_sentences(ctx.policy)
    normal_forms(out, spec.parameters.get("properties") or {}, texts, ctx, coll, id_param)
    return out


def skeleton(spec: ToolSpec, ctx: Context) -> ToolBehaviour:
    """What a tool is before any rule: its kind, record, documented parameters and reply."""
    op = operation(spec)
    reply = _reply(spec, ctx.ev)
    kind = _kind(spec, op, reply)
    coll, id_param = _target(op, kind, reply, ctx.ev)
    held = nested_item(op, ctx.ev)
    if held is not None:  # an entry of a record's list: the call changes that record
        coll, id_param = held[0], held[1]
        kind = "update" if kind == "delete" else kind
    params = _params(spec, coll, id_param, ctx)
    if kind == "list":
        list_filters(spec, params, coll, ctx)
        reply.sort_by = ctx.ev.key_attribute(coll or "")
    return ToolBehaviour(
        tool=spec.name,
        kind=kind,
        collection=coll,
        id_param=id_param,
        params=params,
        operation=f"{op.method.upper()} {op.path}".strip(),
        reply=reply,
        today=ctx.ev.today,
    )


def derive_tool(spec: ToolSpec, ctx: Context) -> ToolBehaviour:
    """The behaviour model of one tool."""
    tb = skeleton(spec, ctx)
    tb.checks = tool_checks(spec, tb, ctx)
    tb.effects = not_stored(_effects(spec, tb, ctx))
    line_checks, lines = line_items(spec, tb, ctx)  # stored right after the create
    tb.checks += line_checks + param_record_checks(spec, tb, ctx)
    tb.effects[1:1] = lines
    tb.effects = after_computed(tb.effects + one_line(spec, tb, ctx))
    tb.effects = ledger_effects(spec, tb, ctx, tb.effects)
    keyed_checks, keyed = keyed_tables(spec, tb, ctx)
    tb.checks += keyed_checks
    tb.effects += keyed
    tb.effects += transfer_effects(spec, tb, ctx)  # after the writes that set the amount
    tb.checks += cover_checks(spec, tb, ctx)
    tb.checks += _entry_removal(spec, tb, ctx)
    counted, counters = use_counters(spec, tb, ctx)
    tb.checks += counted
    tb.effects += counters
    reached = reached_sets(spec, tb, ctx)  # read once every number has moved
    tb.effects = without_replaced(tb.effects, reached) + reached
    tb.effects += outcome_effects(spec, tb, ctx, tb.effects)  # after what they depend on
    stepped_from, stepped = step_moves(spec, tb, ctx)  # only where no status is set
    tb.checks += stepped_from
    tb.effects += stepped
    tb.effects += logged_entries(spec, tb, ctx, tb.effects)  # last: they log what was done
    tb.effects += audit_entries(spec, tb, ctx, tb.effects)
    tb.effects = branch_effects(spec, tb, ctx, tb.effects)
    with_record_defaults(tb.effects, record_defaults(spec, tb, ctx))
    settled_status(tb, ctx, tb.effects)  # a status entered once an amount reaches its goal
    for e in tb.effects:  # amounts kept to cents in the data stay so
        if e.kind == "increment" and e.attribute in ctx.ev.float_attributes(e.collection or ""):
            e.digits = amount_digits(ctx, e.collection or "", e.attribute or "")
    ruled = doc_sentences(spec.description) + tool_sentences(
        ctx.policy, spec.name, ctx.headed, ctx.verbs
    )
    tb.policy_rules = [s for s in ruled[len(doc_sentences(spec.description)) :] if states_rule(s)]
    own = owned_checks(tb, ruled, ctx)
    own += [c for c in parent_checks(tb, operation(spec).path, ctx)
            if all(o.param != c.param for o in own)]  # fmt: skip
    tb.checks += own + pair_checks(tb, ruled, ctx) + move_checks(tb, ruled, ctx)
    tb.checks += match_checks(tb, ruled, ctx)
    tb.checks += received_checks(tb, ruled, ctx) + same_day_checks(ruled, tb, ctx)
    tb.checks += min_items_checks(tb, [s for s in ruled if states_rule(s)], ctx)
    tb.effects = without_owner_writes(tb.effects, own)
    texts = doc_sentences(spec.description) + doc_sentences(ctx.policy)
    tb.checks += repeat_refusals(tb, texts, ctx) + list_caps(tb, texts)
    tb.checks += record_for_checks(tb, texts, ctx) + member_checks(tb, texts, ctx, spec.parameters)
    tb.checks += coded_checks(spec, tb, ctx)
    tb.checks += subject_status_checks(spec, tb, ctx)
    return tb


def _entry_removal(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """A DELETE of an entry of a record's list (:func:`nested_item`): the entry must be
    there, and the call takes it out of the list (the record itself stays)."""
    op = operation(spec)
    held = nested_item(op, ctx.ev)
    if held is None or op.method != "delete":
        return []
    coll, _parent, attr, item = held
    tb.effects.append(
        Effect(
            kind="remove",
            collection=coll,
            attribute=attr,
            value=Value(source="param", name=item),
            merge=[item],
        )
    )
    return [Check(kind="member_of", param=item, collection=coll, attribute=attr, values=[item])]


def _effects(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    if tb.kind == "create":
        return _create_effects(spec, tb, ctx)
    if tb.kind in ("update", "action"):
        return _change_effects(spec, tb, ctx)
    if tb.kind == "delete":
        return [Effect(kind="delete", collection=tb.collection)]
    return []


def _new_record_said(
    spec: ToolSpec, ctx: Context, coll: str, attrs: list[str]
) -> tuple[list[str], dict[str, Any], dict[str, ValueSource]]:
    """``(sentences, literals, today/now stamps)`` the docs state for a new record of
    ``coll``: the description first, then the policy's sentences on such records and the
    tool's own that hold whatever the case (a condition's values, "when full, `waitlisted`",
    do not)."""
    lists, floats = ctx.ev.list_attributes(coll), ctx.ev.float_attributes(coll)
    enum = ctx.status_enum(coll)[1]
    consts = literal_fields(spec.description, attrs, enum, lists, floats)
    times = stated_dates(time_fields(spec.description, attrs), ctx, coll)
    said = new_record_sentences(ctx.policy, coll) + [
        s
        for s in tool_sentences(ctx.policy, spec.name, ctx.headed, ctx.verbs)
        if not CONDITIONAL.search(s)
    ]
    for s in said:
        for a, v in literal_fields(s, attrs, enum, lists, floats).items():
            consts.setdefault(a, v)
        for a, src in stated_dates(time_fields(s, attrs), ctx, coll).items():
            times.setdefault(a, src)
    enums = _attr_enums(ctx, coll, attrs)
    for s in [*doc_sentences(spec.description), *said]:
        for a, v in named_values(s, enums).items():
            consts.setdefault(a, v)
    if any(dated_today(s) for s in [*doc_sentences(spec.description), *said]):
        params = set(spec.parameters.get("properties") or {})
        free = [a for a in ctx.ev.date_attributes(coll) if a not in params | set(times)]
        if len(free) == 1:  # the record's one date nothing else fills
            times[free[0]] = "today"
    return said, consts, times


def _attr_enums(ctx: Context, coll: str, attrs: list[str]) -> dict[str, list[str]]:
    """The documented values of each of ``attrs`` of ``coll`` that has an enum."""
    return {a: [str(x) for x in sch["enum"]] for a, sch in ctx.schemas.get(coll, {}).items()
            if a in attrs and _enum(sch)}  # fmt: skip


def _create_effects(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    coll = tb.collection or ""
    attrs = record_attrs(tb, ctx)
    pat = ctx.ev.id_pattern(coll)
    key_attr = pat.attribute if pat else ctx.ev.key_attribute(coll)
    fields: dict[str, Value] = {}
    said, consts, times = _new_record_said(spec, ctx, coll, attrs)
    status_attr, status_values = ctx.status_enum(coll)
    start = target_status(spec, coll, status_values, ctx.policy, create=True)
    names = {p.name for p in tb.params}
    seen = status_defaults(ctx.ev, coll, status_attr, start[0] if start else None)
    attrs = carried_attributes(ctx.ev, coll, status_attr, start[0] if start else None) or attrs
    refs = [(p.name, p.references) for p in tb.params if p.references and p.name in attrs]
    copied = copied_attributes(ctx.ev, coll, refs)
    through = copied_through(ctx.ev, coll, refs, set(copied) | names)
    later = _mostly_unset(ctx, coll, status_attr, start[0] if start else None)
    assigned = stated_params(spec.description, attrs, sorted(names))
    for a in attrs:
        if a == key_attr:
            whole = a in ctx.ev.typed_attributes(coll, "int")
            fields[a] = Value(source="new_id", const="int" if whole else None)
        elif a in names:
            fields[a] = Value(source="param", name=a)
        elif a in assigned:
            fields[a] = Value(source="param", name=assigned[a])
        elif a in consts:
            fields[a] = Value(source="const", const=consts[a])
        elif a in times and a not in later:  # not the stamp of a later change
            fields[a] = Value(source=times[a])
        elif a == status_attr and start:
            fields[a] = Value(source="const", const=start[0])
        elif a in copied:
            ref_attr, ref_coll, b = copied[a]
            fields[a] = Value(source="copy", name=ref_attr, const=[ref_coll, b])
        elif a in through:  # two references away: [collection, attribute, further hops]
            ref_attr, ref_coll, b, hops = through[a]
            fields[a] = Value(source="copy", name=ref_attr, const=[ref_coll, b, hops])
        elif a in seen:  # what every record in its start status (or every record) shows
            d = seen[a]
            fields[a] = (
                Value(source="const", const=d[1]) if isinstance(d, tuple) else Value(source=d)
            )
        else:
            fields[a] = Value(source="const", const=_start_number(ctx, coll, a))
    fields.update(_renamed_date(tb, ctx, coll, fields, set(consts) | set(times)))
    fields.update({a: v for a, v in composed_fields(spec, tb, ctx).items() if a in fields})
    copies, moves = stated_amounts(spec, tb, ctx)
    fields.update({a: v for a, v in copies.items() if a in fields})
    fields = computed_last(fields, spec, tb, ctx, names, said)
    eff = Effect(
        kind="create",
        record="new",
        collection=coll,
        fields=fields,
        id_prefix=pat.prefix if pat else "",
        id_width=pat.width if pat else 0,
        id_attribute=key_attr,
        sentence=start[1] if start else "",
    )
    return [eff, *moves, *increments(spec, tb, ctx), *related_status_sets(spec, tb, ctx)]


def _renamed_date(
    tb: ToolBehaviour, ctx: Context, coll: str, fields: dict[str, Value], said: set[str]
) -> dict[str, Value]:
    """A create's one date argument that names no attribute goes to the new record's one date
    attribute nothing states and no argument fills (``date`` -> ``scheduled_for``): every
    record holds a date there, so the call must give one, and no other date is left."""
    used = {v.name for v in fields.values() if v.source == "param"}
    dates = [p.name for p in tb.params if p.format == "date" and p.name not in fields]

    def open_(v: Value | None) -> bool:  # today by the data's default, or nothing
        return v is not None and (v.source == "today" or (v.source == "const" and v.const is None))

    free = [a for a in ctx.ev.date_attributes(coll) if a not in said and open_(fields.get(a))]
    if len(dates) == 1 and dates[0] not in used and len(free) == 1:
        return {free[0]: Value(source="param", name=dates[0])}
    return {}


def _mostly_unset(ctx: Context, coll: str, status_attr: str | None, start: str | None) -> set[str]:
    """Attributes null on most records in the status a create starts in (all records without
    one): the stamps of a later change ("with today as `upgraded_on`"), not of the create."""
    recs = [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)
            and (status_attr is None or start is None or r.get(status_attr) == start)]  # fmt: skip
    attrs = ctx.ev.attributes.get(coll, [])
    return {a for a in attrs if recs and sum(r.get(a) is None for r in recs) * 2 > len(recs)}


def _start_number(ctx: Context, coll: str, attr: str) -> float | list[Any] | None:
    """The value a new record takes for a number attribute nothing else gives: 0 (or the
    documented minimum above it) where the documented schema types it as a number that cannot
    be null and every record in the data holds one; None otherwise. A count or an amount that
    the create does not set has not moved yet, and null would break the schema. Likewise an
    array every record holds starts empty."""
    schema = ctx.schemas.get(coll, {}).get(attr)
    recs = [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]
    if isinstance(schema, dict) and schema.get("type") == "array" and not schema.get("nullable"):
        return [] if recs and all(isinstance(r.get(attr), list) for r in recs) else None
    if not isinstance(schema, dict) or schema.get("type") not in ("integer", "number"):
        return None
    held = [r.get(attr) for r in recs]
    if schema.get("nullable") or not recs or not all(is_number(v) for v in held):
        return None
    low = schema.get("minimum")
    start = int(low) if isinstance(low, int | float) and low > 0 else 0
    return float(start) if attr in ctx.ev.float_attributes(coll) else start  # as the data writes


def computed_last(
    fields: dict[str, Value],
    spec: ToolSpec,
    tb: ToolBehaviour,
    ctx: Context,
    names: set[str],
    said: list[str],
) -> dict[str, Value]:
    """``fields`` with the dates the description or ``said`` (policy sentences on the new
    record) give as a date plus days, then the prices the docs list and the sums they state,
    for attributes no parameter gives; prices and sums come after every other field (a sum
    reads the record as made)."""
    coll = tb.collection or ""
    fields = dict(fields)
    for text in [spec.description, *said]:
        for a, v in offset_fields(text, list(fields), sorted(names)).items():
            if a not in names:
                fields[a] = v
    side = "new" if tb.kind == "create" else "target"
    if side == "new":
        for a, v in offset_values(ctx.ev, coll, fields, names).items():
            fields.pop(a)
            fields[a] = v  # after the date it counts from
    priced = priced_fields(spec, tb, ctx, coll, side)
    recs = [r for r in ctx.ev.state.get(coll, {}).values() if isinstance(r, dict)]
    numbers = [a for a in fields if recs and all(
        isinstance(r.get(a), int | float | None) and not isinstance(r.get(a), bool) for r in recs
    ) and any(r.get(a) is not None for r in recs)]  # fmt: skip
    sums = stated_sums(spec.description, numbers)
    late = {a: v for a, v in {**priced, **sums}.items() if a in fields and a not in names}
    stated = formula_values(formula_texts(spec.description, tb, ctx), tb, ctx)
    late |= {a: v for a, v in stated.items() if a in fields and a not in names | set(late)}
    return {**{a: v for a, v in fields.items() if a not in late}, **late}


def _given_fields(spec: ToolSpec, tb: ToolBehaviour, attrs: list[str]) -> dict[str, str]:
    """``{attribute: parameter}`` a change writes as given: a parameter named after an
    attribute of the target, or ``new_<attribute>``; one the description redirects to an
    attribute it names in code as ``<word>_<parameter>`` ("records `cancel_reason`" for
    ``reason``) while never naming the parameter's own attribute in code (or the target having
    none: "sets `delivery_slot_id`" for ``slot_id``, "`session_date` changes" for
    ``new_date``) goes there; one the
    description assigns ("resulted_by = entered_by") goes to that attribute."""
    named = set(re.findall(r"`(\w+)`", spec.description))
    out: dict[str, str] = {}
    for p in tb.params:
        if p.name == tb.id_param:
            continue
        own = p.name if p.name in attrs else p.name.removeprefix("new_")
        moved = [a for a in attrs if a.endswith("_" + own) and a in named]
        if own not in attrs and len(moved) == 1:  # "sets `delivery_slot_id`" for ``slot_id``
            out[moved[0]] = p.name
        if own not in attrs or (own != p.name and own in {q.name for q in tb.params}):
            continue
        out[moved[0] if len(moved) == 1 and own not in named else own] = p.name
    names = [p.name for p in tb.params if p.name != tb.id_param]
    for a, p_name in stated_params(spec.description, attrs, names).items():
        out.setdefault(a, p_name)
    return out


def _change_effects(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    coll = tb.collection or ""
    attrs = record_attrs(tb, ctx)
    out: list[Effect] = []
    status_attr, status_values = ctx.status_enum(coll)
    onto = _given_fields(spec, tb, attrs)
    given = [p for p in tb.params if p.name in onto.values()]
    if given:
        out.append(
            Effect(
                kind="set",
                collection=coll,
                only_given=True,
                fields={a: Value(source="param", name=n) for a, n in onto.items()},
            )
        )
    target = (
        None
        if any(p.name == status_attr for p in given)
        else target_status(spec, coll, status_values, ctx.policy, create=False)
    )
    fixed: dict[str, Value] = {}
    out += decision_status(spec, tb, ctx) if target is None else []
    if target and status_attr:
        fixed[status_attr] = Value(source="const", const=target[0])
        entered = entry_fields(tb, ctx, attrs, status_attr, target[0])
        fixed.update({a: v for a, v in entered.items() if a not in onto})  # given, not stamped
    later = change_stamps(spec, tb, ctx, fixed, target[0] if target else None)
    names = {p.name for p in tb.params}
    floats = ctx.ev.float_attributes(coll)
    enums = _attr_enums(ctx, coll, attrs)
    for a, v in literal_fields(spec.description, attrs, status_values, None, floats, enums).items():
        if a != status_attr and a not in names:
            fixed.setdefault(a, Value(source="const", const=v))
    cleared_kept(spec, ctx, attrs, fixed, {status_attr or "", *names})
    if fixed:
        out.append(
            Effect(kind="set", collection=coll, fields=fixed, sentence=target[1] if target else "")
        )
    stated = formula_values(formula_texts(spec.description, tb, ctx), tb, ctx)
    stated = {a: v for a, v in stated.items() if a not in onto and a not in fixed}
    out += [Effect(kind="set", collection=coll, fields=stated)] if stated else []
    opened = opened_records(spec, tb, ctx) + next_numbers(spec, tb, ctx)
    return out + later + appends(spec, tb, attrs) + opened + _moved(spec, tb, ctx)


def _moved(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """What a change moves beyond its target's own fields: counters, related statuses,
    arguments onto related records, lines back into stock, amounts, priced choices, and
    cascades onto the records that refer to the target."""
    moved = increments(spec, tb, ctx) + related_status_sets(spec, tb, ctx)
    moved += param_onto_related(spec, tb, ctx, write_targets(tb, ctx)) + line_returns(spec, tb, ctx)
    moved += stated_amounts(spec, tb, ctx)[1] + priced_choices(spec, tb, ctx)
    return moved + cascades(spec, tb, ctx)
