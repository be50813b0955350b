"""Plausible sequences: what the docs and policy say a record must be before a tool may change it.

A real user does not ask to redirect an order they just cancelled, and an agent must not
cancel an order the policy says can no longer be cancelled. The rules are not read here: they
are the environment's :class:`~autoforge.env.artifact.rules.DocRule` list, recorded by synthesis in
``rules.json`` (the rules its tool guards enforce) or, for an environment without that file,
extracted from its spec by the same extractor (:func:`environment_rules`).

:func:`call_guards` turns the status and uniqueness rules into preconditions per tool (the
tool's key argument must name a record with an allowed status; no second record of what the
tool creates for the same referenced records): :func:`guarded_facts` says which facts of a
blueprint become a guarded record key, so instantiation chooses records that meet the rule (and
:func:`owned_facts` which become the key of a record a write changes for the signed-in user, so
instantiation chooses among that user's records), and :func:`breach` tells, from the state the
host already mirrors, that a call would be refused, so that the call is not sent to the sandbox
to fail there. :func:`implausible` says why a gold run breaks them (a state-changing call on a
record an earlier call cancelled or deleted; a call on a record whose S0 status a rule
forbids), and :func:`refusal` picks, for hard tasks, a request a rule forbids: the task then
asks for it too, and the correct outcome of that part is a refusal (S* unchanged by it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from autoforge.env import DocRule, EnvironmentLike, EnvironmentSpec
from autoforge.lexicon import (
    TERMINAL_VERBS,
    acting_for,
    entity_of,
    environment_rules,
    rules_of,
    status_values,
    tool_access,
    tool_scope,
)
from autoforge.tasks.blueprints.blueprint import (
    Binding,
    Blueprint,
    CallNode,
    FactRef,
    OutputRef,
    ReasoningRef,
)
from autoforge.tasks.graph.merge import user_collection
from autoforge.tasks.model import GoldCall
from autoforge.tooldocs import ToolSpec, singular, tokens

#: Where a binding's value comes from (:func:`doomed`): a fact, or a node's output path.
Source = tuple[Any, ...]


@dataclass(frozen=True)
class Left:
    """What a state-changing tool always leaves on the record it acts on (read from the
    environment's behaviour model): ``values`` per attribute, the constants its unconditional
    writes set there (a status it moves the record to). ``param``: the key argument naming
    that record; None for a create, whose new record is in its reply."""

    collection: str
    param: str | None
    values: Mapping[str, Any]


def stated_rules(env: EnvironmentLike) -> list[DocRule]:
    """The rules of ``env``: those synthesis recorded (``rules.json``), else extracted from its
    spec and initial state by the one extractor (:func:`autoforge.lexicon.rules_of`)."""
    return list(rules_of(env).rules)


def _keys(spec: EnvironmentSpec, call: GoldCall) -> list[tuple[str, str]]:
    """``(collection, key)`` of the records a call names by a top-level key argument."""
    out = []
    for name, value in call.arguments.items():
        coll = entity_of(name, None, spec.state_schema)
        if coll is not None and isinstance(value, str):
            out.append((coll, value))
    return out


def implausible(
    spec: EnvironmentSpec,
    guards: Mapping[str, list[Guard]],
    state: Mapping[str, Any],
    calls: list[GoldCall],
) -> str:
    """Why the gold calls are not a sequence a user would ask for, or ``""``.

    ``after_terminal``: a state-changing call on a record an earlier call cancelled/deleted;
    ``ineligible``: a call a status guard (:func:`call_guards`) refuses on a record as it is in
    S0 (records an earlier call of the task changed or created are not judged by S0).
    """
    closed: set[tuple[str, str]] = set()
    touched: set[tuple[str, str]] = set()
    for call in calls:
        tool = spec.tool(call.name)
        if tool_access(tool) != "write":
            continue
        keys = _keys(spec, call)
        if any(k in closed for k in keys):
            return "after_terminal"
        for guard in guards.get(call.name, ()):
            key = call.arguments.get(guard.param)
            if guard.fields or not isinstance(key, str) or (guard.collection, key) in touched:
                continue
            record = (state.get(guard.collection) or {}).get(key)
            if isinstance(record, Mapping) and not guard.admits(record):
                return "ineligible"
        touched.update(keys)
        closed.update(_ended(tool, keys, spec))
    return ""


def _ended(tool: ToolSpec, keys: Iterable[tuple[str, Any]], spec: EnvironmentSpec) -> list[Any]:
    """Of the records a call names (``(collection, key or source)``), those it ends: a call
    with a terminal verb ends the record it acts on, not the account or parent it also names."""
    if not any(v in tool.name.lower() for v in TERMINAL_VERBS):
        return []
    acted_on = tool_scope(tool, spec.state_schema).collection
    if acted_on is not None and not _names_whole(tool, acted_on):
        return []  # "remove_line_item" on an invoice ends a line, not the invoice
    return [k for k in keys if acted_on is None or k[0] == acted_on]


def _names_whole(tool: ToolSpec, collection: str) -> bool:
    """Whether the noun a terminal tool's name ends in is the record it acts on
    (``cancel_order`` on orders), not a part of it (``remove_line_item`` on invoices); a name
    with no noun after its verb counts as naming it."""
    words = [w for w in tokens(tool.name) if w not in TERMINAL_VERBS]
    if not words:
        return True
    own = {singular(w) for w in tokens(collection)}
    return singular(words[-1]) in own


def refusal(
    spec: EnvironmentSpec,
    guards: Mapping[str, list[Guard]],
    state: Mapping[str, Any],
    calls: list[GoldCall],
    user_key: str,
    rng: random.Random,
) -> dict[str, Any] | None:
    """A request a status guard refuses, on a record of the user ``user_key`` that the gold
    calls do not touch: ``{"tool", "collection", "key", "rule"}``; None when there is none."""
    used = {k for call in calls for k in _keys(spec, call)}
    user = user_collection(spec.state_schema)
    options = []
    for name, tool_guards in guards.items():
        tool = spec.tool(name)
        for guard in tool_guards:
            if guard.fields or tool_access(tool) != "write" or not any(
                    entity_of(p, None, spec.state_schema) == guard.collection
                    for p in tool.required):  # fmt: skip
                continue
            coll = spec.state_schema.collection(guard.collection)
            refs = [a.name for a in coll.attributes if a.references == user] if coll else []
            owner = {refs[0]: user_key} if refs else {}
            for key, record in sorted((state.get(guard.collection) or {}).items()):
                if not isinstance(record, Mapping) or (guard.collection, key) in used:
                    continue
                mine = owner and all(record.get(k) == v for k, v in owner.items())
                if mine and record.get(guard.attribute) is not None and not guard.admits(record):
                    options.append((name, guard, key))
    if not options:
        return None
    tool_name, guard, key = rng.choice(options)
    return {"tool": tool_name, "collection": guard.collection, "key": key, "rule": guard.rule}


def user_key(spec: EnvironmentSpec, calls: list[GoldCall]) -> str | None:
    """The one user key the calls pass (``customer_id``), else None."""
    user = user_collection(spec.state_schema)
    keys = {v for call in calls for k, v in call.arguments.items()
            if isinstance(v, str) and user
            and entity_of(k, None, spec.state_schema) == user}  # fmt: skip
    return keys.pop() if len(keys) == 1 else None


@dataclass(frozen=True)
class Guard:
    """A status or uniqueness :class:`~autoforge.env.artifact.rules.DocRule` as a check on one call:
    the record of ``collection`` that argument ``param`` names must have ``attribute`` in
    ``allowed`` (a rule that names the forbidden statuses allows the others); with ``fields``,
    instead: no record of ``collection`` may already hold the call's values of those
    arguments. ``rule``: the rule in words, with the sentence it came from."""

    tool: str
    param: str
    collection: str
    attribute: str = ""
    allowed: tuple[Any, ...] = ()
    fields: tuple[str, ...] = ()
    rule: str = ""
    #: when set, the values the record must not hold (any other passes, an unset one too);
    #: ``allowed`` then names those an S0 repair may set (:mod:`~autoforge.tasks.gold.settle`)
    forbidden: tuple[Any, ...] = ()

    def admits(self, record: Mapping[str, Any]) -> bool:
        """Whether a record meets the rule."""
        if self.forbidden:
            return record.get(self.attribute) not in self.forbidden
        return record.get(self.attribute) in self.allowed


@dataclass(frozen=True)
class Breach:
    """A call a guard refuses: why (naming the record), and the record's key (for a
    uniqueness rule: the record that already holds the call's values)."""

    guard: Guard
    message: str
    key: str


def call_guards(
    spec: EnvironmentSpec,
    rules: Iterable[DocRule] | None = None,
    data: Any = None,
    values: Mapping[tuple[str, str], list[Any]] | None = None,
) -> dict[str, list[Guard]]:
    """Per tool, the guards its status and uniqueness rules put on a call: ``rules`` (the
    environment's, :func:`stated_rules`), or, when None, those extracted from ``spec`` with
    ``data`` as the records (:func:`~autoforge.env.artifact.rules.environment_rules`). ``values``:
    per ``(collection, attribute)`` the domain's values (:class:`~autoforge.tasks.states.domain.
    Domains`), the statuses a rule naming only forbidden ones allows where ``data`` shows none
    (a docs-only environment starts without records)."""
    found = environment_rules(spec, data).rules if rules is None else rules
    out: dict[str, list[Guard]] = {}
    for rule in found:
        guard = _guard(spec, rule, data, values or {})
        if guard is not None:
            out.setdefault(rule.tool, []).append(guard)
    return out


def _guard(
    spec: EnvironmentSpec, rule: DocRule, data: Any, values: Mapping[tuple[str, str], list[Any]]
) -> Guard | None:
    """The call check of a status or uniqueness rule (None for other kinds)."""
    if rule.collection is None or rule.kind not in ("status", "unique"):
        return None
    said = f"{rule.describe()} (docs: {rule.sentence})"
    if rule.kind == "unique":
        return Guard(rule.tool, rule.param, rule.collection, fields=tuple(rule.fields), rule=said)
    allowed = tuple(rule.allowed)
    coll = spec.state_schema.collection(rule.collection)
    if not allowed and coll is not None:  # "shipped or cancelled orders cannot be ...": the rest
        found = status_values(coll, data)
        known = found[1] if found else values.get((rule.collection, rule.attribute or ""), [])
        allowed = tuple(v for v in dict.fromkeys(known) if v not in rule.forbidden)
    if not allowed or rule.attribute is None:
        return None
    return Guard(
        rule.tool,
        rule.param,
        rule.collection,
        rule.attribute,
        allowed,
        rule=said,
        forbidden=tuple(rule.forbidden),
    )  # as the tool's guard: an unset value passes


def breach(guards: list[Guard], args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
    """The first guard the call ``args`` breaks in ``state``, or None."""
    for guard in guards:
        if guard.fields:
            holder = _holder(guard, args, state)
            if holder is not None:
                values = " + ".join(str(args[f]) for f in guard.fields)
                return Breach(guard, f"{values}: one {guard.collection} record per "
                                     f"{' + '.join(guard.fields)} (docs)", holder)  # fmt: skip
            continue
        key = args.get(guard.param)
        if not isinstance(key, str):
            continue
        record = (state.get(guard.collection) or {}).get(key)
        if isinstance(record, Mapping) and not guard.admits(record):
            allowed = " or ".join(map(str, guard.allowed))
            why = (f"{key} is {record.get(guard.attribute)}: only {allowed} {guard.collection} "
                   f"may be used by {guard.tool} (policy)")  # fmt: skip
            return Breach(guard, why, key)
    return None


def _holder(guard: Guard, args: Mapping[str, Any], state: Mapping[str, Any]) -> str | None:
    """The key of a record of the guard's collection that already holds the call's field
    values, or None."""
    if not all(f in args for f in guard.fields):
        return None
    wanted = [args[f] for f in guard.fields]
    return next((str(k) for k, r in (state.get(guard.collection) or {}).items()
                 if isinstance(r, Mapping) and [r.get(f) for f in guard.fields] == wanted),
                None)  # fmt: skip


def guarded_facts(bp: Blueprint, guards: Mapping[str, list[Guard]]) -> dict[str, list[Guard]]:
    """The status guards each fact of ``bp`` meets as the key of a guarded call's record:
    bound to that argument directly, or through calls that echo their key argument
    (``get_order(order_id=F).order_id`` feeding ``cancel_order(order_id)``)."""
    nodes = {n.id: n for n in bp.nodes}
    out: dict[str, list[Guard]] = {}
    for node in bp.nodes:
        if not isinstance(node, CallNode):
            continue
        for guard in guards.get(node.tool, ()):
            if guard.fields:
                continue  # no one record to choose
            name = source_fact(node.args.get(guard.param), nodes)
            if name is not None:
                out.setdefault(name, []).append(guard)
    return out


def owned_facts(bp: Blueprint, spec: EnvironmentSpec) -> dict[str, str]:
    """Per fact of ``bp`` that names the record a write changes for the signed-in user: the
    attribute of that record which must hold the signed-in user's key.

    A write that acts for whoever is signed in (:func:`~autoforge.env.acting_for`: the docs
    show a session user, the record belongs to a user, no parameter names one) refuses another
    user's record, as the API it describes does; a real user asks about their own records
    anyway. The fact is bound to the write's argument directly, or through calls that echo
    their key argument (``get_booking(booking_id=F).booking_id`` feeding
    ``cancel_booking``), as in :func:`guarded_facts`.
    """
    schema = spec.state_schema
    nodes = {n.id: n for n in bp.nodes}
    facts = {f.name: f for f in bp.facts}
    out: dict[str, str] = {}
    for node in bp.nodes:
        if not isinstance(node, CallNode) or tool_access(spec.tool(node.tool)) != "write":
            continue
        for binding in node.args.values():
            fact = facts.get(source_fact(binding, nodes) or "")
            coll = schema.collection(fact.collection) if fact and fact.collection else None
            found = acting_for(spec.tool(node.tool), coll, schema) if coll else None
            if fact is not None and found is not None:
                out[fact.name] = found[2]
    return out


def source_fact(binding: Binding | None, nodes: Mapping[str, Any]) -> str | None:
    """The fact a single-value binding's value comes from (directly, or through calls that
    echo their key argument), or None (a node's output, a list or object of bindings)."""
    found = _source(binding, nodes)
    return found[1] if found is not None and found[0] == "fact" else None


def _source(binding: Binding | None, nodes: Mapping[str, Any], depth: int = 0) -> Source | None:
    """Where a single-value binding's value comes from, through calls that echo their key
    argument: ``("fact", name)`` or ``("node", node id, path)``; None for a list or object
    built from bindings (or no binding)."""
    if isinstance(binding, FactRef):
        return ("fact", binding.name)
    if isinstance(binding, OutputRef) and 1 <= len(binding.path) <= 2 and depth < 8:
        # the call's reply, or the record one key of it wraps ({"claim": {...}}), echoes
        # the argument of the same name
        source = nodes.get(binding.node)
        field = binding.path[-1]
        wrapped = all(isinstance(p, str) for p in binding.path)
        if isinstance(source, CallNode) and wrapped and field in source.args:
            return _source(source.args[str(field)], nodes, depth + 1)
    if isinstance(binding, OutputRef | ReasoningRef):
        return ("node", binding.node, tuple(binding.path))
    return None


def doomed(
    bp: Blueprint, spec: EnvironmentSpec, guards: Mapping[str, list[Guard]],
    left: Mapping[str, Left] | None = None,
) -> tuple[str, str] | None:  # fmt: skip
    """Why ``bp`` can never give a task, decided from its structure before any S0 is drawn:
    ``(reason, call node)`` or None.

    ``after_terminal``: a state-changing call names a record that an earlier call with a
    terminal verb (:data:`TERMINAL_VERBS`) names by the same source (the same fact, or the
    same output through calls that echo their key argument): :func:`implausible` rejects
    every gold run of it, and a status guard usually fails it before. ``repeat_unique``: a
    tool with a uniqueness guard is called twice with the guard's fields from the same
    sources: the second call always finds the record the first one created (:func:`breach`).
    ``after_status``: an earlier call of the task always leaves the record a later call names
    (by the same source) with a value the later call's status guard refuses (``left``, per
    tool: :func:`~autoforge.tasks.gold.modelled.left_by`), as picking an order and then
    cancelling it where only unpicked orders may be cancelled.
    Either way instantiation could only spend its runs on it and fail.
    """
    nodes = {n.id: n for n in bp.nodes}
    closed: set[tuple[str, Source]] = set()
    unique: set[tuple[str, tuple[Source | None, ...]]] = set()
    held: dict[tuple[str, Source], dict[str, Any]] = {}
    for node_id in bp.topo_order():
        node = nodes[node_id]
        if not isinstance(node, CallNode) or tool_access(spec.tool(node.tool)) != "write":
            continue
        keys = _record_sources(node, nodes, spec)
        if keys & closed:
            return "after_terminal", node.id
        for guard in guards.get(node.tool, ()):
            if guard.fields and all(f in node.args for f in guard.fields):
                fields = tuple(_source(node.args[f], nodes) for f in guard.fields)
                if None not in fields and (node.tool, fields) in unique:
                    return "repeat_unique", node.id
                unique.add((node.tool, fields))
            elif _refused_after(guard, node, nodes, held):
                return "after_status", node.id
        closed.update(_ended(spec.tool(node.tool), keys, spec))
        _note_left((left or {}).get(node.tool), node, nodes, held)
    return None


def _refused_after(
    guard: Guard, node: CallNode, nodes: Mapping[str, Any],
    held: Mapping[tuple[str, Source], Mapping[str, Any]],
) -> bool:  # fmt: skip
    """Whether an earlier call left the record ``guard`` checks with a value it refuses."""
    if guard.fields or not guard.attribute or guard.param not in node.args:
        return False
    source = _source(node.args[guard.param], nodes)
    if source is None:
        return False
    now = held.get((guard.collection, source))
    if now is None and source[0] == "node" and len(source[2]) == 1:  # a key of a new record
        now = held.get((guard.collection, ("new", source[1])))
    if now is None or guard.attribute not in now:
        return False
    return not guard.admits({guard.attribute: now[guard.attribute]})


def _note_left(
    left: Left | None, node: CallNode, nodes: Mapping[str, Any],
    held: dict[tuple[str, Source], dict[str, Any]],
) -> None:  # fmt: skip
    """Record what ``node``'s call always leaves on the record it acts on."""
    if left is None:
        return
    if left.param is None:
        source: Source | None = ("new", node.id)
    else:
        binding = node.args.get(left.param)
        source = _source(binding, nodes) if binding is not None else None
    if source is not None:
        held[(left.collection, source)] = {**held.get((left.collection, source), {}),
                                           **left.values}  # fmt: skip


def _record_sources(
    node: CallNode, nodes: Mapping[str, Any], spec: EnvironmentSpec
) -> set[tuple[str, Source]]:
    """``(collection, source)`` of the records a call names by a top-level key argument (the
    arguments :func:`implausible` reads)."""
    out = set()
    for name, binding in node.args.items():
        coll = entity_of(name, None, spec.state_schema)
        source = _source(binding, nodes)
        if coll is not None and source is not None:
            out.add((coll, source))
    return out


__all__ = ["TERMINAL_VERBS", "Breach", "Guard", "Left", "breach", "call_guards", "doomed",
           "guarded_facts", "implausible", "owned_facts", "refusal", "source_fact",
           "stated_rules", "user_key"]  # fmt: skip
