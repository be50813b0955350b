"""Plausible sequences: what the policy says a record must be before a tool may change it.

A real user does not ask to redirect an order they just cancelled, and an agent must not
cancel an order the policy says can no longer be cancelled. The rules are read from the policy
text ("Only `pending` orders can be cancelled", "An order can only be returned if its status is
'delivered'") as :class:`Eligibility` rules: a verb, a collection, an attribute and the value it
must have. :func:`implausible` says why a gold run breaks them (a state-changing call on a
record an earlier call cancelled or deleted; a call on a record whose S0 value the policy
forbids), and :func:`refusal` picks, for hard tasks, a request the policy forbids: the task then
asks for it too, and the correct outcome of that part is a refusal (S* unchanged by it).

Before a gold call is made, :func:`call_guards` gives the preconditions the docs state per write
tool (the status and uniqueness rules of :mod:`autoforge.synth.doc_rules`, the same rules the
synthesized code enforces as guards): :func:`guarded_facts` says which facts of a blueprint
become a guarded record key, so instantiation chooses records that meet the rule, and
:func:`breach` tells, from the state the host already mirrors, that a call would be refused,
so that the call is not sent to the sandbox to fail there.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from autoforge.env import EnvironmentSpec
from autoforge.synth.classify import classify_tool
from autoforge.synth.doc_rules import DocRule, extract_rules, status_values
from autoforge.tasks.blueprint import Binding, Blueprint, CallNode, FactRef, OutputRef
from autoforge.tasks.domain import domains
from autoforge.tasks.merge import user_collection
from autoforge.tasks.model import GoldCall
from autoforge.tasks.schema import entity_of, singular, tool_access

#: Verbs after which the record is gone or closed: nothing more is done to it in one task.
TERMINAL_VERBS = ("cancel", "delete", "remove", "close", "void", "revoke", "terminate")

_ONLY = re.compile(
    r"only\s+[`'\"]?(?P<value>[\w ]{1,30}?)[`'\"]?\s+(?P<noun>[a-z_]+?)s?\s+can\s+be\s+"
    r"(?P<verb>[a-z]+)", re.IGNORECASE,
)  # fmt: skip
_IF = re.compile(
    r"(?:an?|the)\s+(?P<noun>[a-z_]+)\s+can\s+only\s+be\s+(?P<verb>[a-z]+)\s+if\s+its\s+"
    r"(?P<attr>[a-z_]+)\s+is\s+[`'\"](?P<value>[^`'\"]{1,30})[`'\"]", re.IGNORECASE,
)  # fmt: skip


@dataclass(frozen=True)
class Eligibility:
    """``verb`` (a word stem, ``cancel``) applies to ``collection`` records only when
    ``attribute`` is ``value``."""

    verb: str
    collection: str
    attribute: str
    value: Any


def _stem(verb: str) -> str:
    verb = verb.lower()
    if verb.endswith("ied"):
        return verb[:-3] + "y"  # modified -> modify
    for suffix in ("led", "ed", "d"):
        if verb.endswith(suffix) and len(verb) - len(suffix) >= 4:
            return verb[: -len(suffix)]
    return verb


def eligibility_rules(
    spec: EnvironmentSpec, data: Mapping[str, Any] | None = None
) -> list[Eligibility]:
    """The eligibility rules the policy states, resolved against the state schema (the
    collection named by the noun, the attribute whose domain holds the value)."""
    found = domains(spec, data)
    rules: list[Eligibility] = []
    for match in [*_ONLY.finditer(spec.policy or ""), *_IF.finditer(spec.policy or "")]:
        noun, value = match.group("noun").lower(), match.group("value").strip()
        coll = next((c for c in spec.state_schema.collections
                     if singular(c.name) == singular(noun)), None)  # fmt: skip
        if coll is None:
            continue
        named = match.groupdict().get("attr")
        for attr in coll.attributes:
            allowed = found.allowed(coll.name, attr.name) or set()
            if (named is None or attr.name == named) and value in allowed:
                rules.append(Eligibility(_stem(match.group("verb")), coll.name, attr.name, value))
                break
    return rules


def _keys(spec: EnvironmentSpec, call: GoldCall) -> list[tuple[str, str]]:
    """``(collection, key)`` of the records a call names by a top-level key argument."""
    out = []
    for name, value in call.arguments.items():
        coll = entity_of(name, None, spec.state_schema)
        if coll is not None and isinstance(value, str):
            out.append((coll, value))
    return out


def implausible(
    spec: EnvironmentSpec, rules: list[Eligibility], state: Mapping[str, Any], calls: list[GoldCall]
) -> str:
    """Why the gold calls are not a sequence a user would ask for, or ``""``.

    ``after_terminal``: a state-changing call on a record an earlier call cancelled/deleted;
    ``ineligible``: a call the policy forbids on a record as it is in S0 (records an earlier
    call of the task changed or created are not judged by S0).
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
        for rule in rules:
            if rule.verb not in call.name.lower():
                continue
            for coll, key in keys:
                record = (state.get(coll) or {}).get(key)
                if coll == rule.collection and (coll, key) not in touched and isinstance(
                    record, Mapping) and record.get(rule.attribute) != rule.value:  # fmt: skip
                    return "ineligible"
        touched.update(keys)
        if any(v in call.name.lower() for v in TERMINAL_VERBS):
            closed.update(keys)
    return ""


def refusal(
    spec: EnvironmentSpec,
    rules: list[Eligibility],
    state: Mapping[str, Any],
    calls: list[GoldCall],
    user_key: str,
    rng: random.Random,
) -> dict[str, Any] | None:
    """A request the policy forbids, on a record of the user ``user_key`` that the gold calls
    do not touch: ``{"tool", "collection", "key", "rule"}``; None when there is none."""
    used = {k for call in calls for k in _keys(spec, call)}
    user = user_collection(spec.state_schema)
    options = []
    for rule in rules:
        coll = spec.state_schema.collection(rule.collection)
        refs = [a.name for a in coll.attributes if a.references == user] if coll else []
        link = refs[0] if refs else None
        owner = {link: user_key} if link else {}
        tools = [t for t in spec.tools if tool_access(t) == "write" and rule.verb in t.name.lower()
                 and any(entity_of(p, None, spec.state_schema) == rule.collection
                         for p in t.required)]  # fmt: skip
        for key, record in sorted((state.get(rule.collection) or {}).items()):
            if not isinstance(record, Mapping) or (rule.collection, key) in used:
                continue
            mine = owner and all(record.get(k) == v for k, v in owner.items())
            if mine and record.get(rule.attribute) not in (None, rule.value):
                options += [(t.name, rule, key) for t in tools]
    if not options:
        return None
    tool, rule, key = rng.choice(options)
    return {"tool": tool, "collection": rule.collection, "key": key,
            "rule": f"only {rule.attribute} {rule.value!r} may be {rule.verb}ed"}  # fmt: skip


def user_key(spec: EnvironmentSpec, calls: list[GoldCall]) -> str | None:
    """The one user key the calls pass (``customer_id``), else None."""
    user = user_collection(spec.state_schema)
    keys = {v for call in calls for k, v in call.arguments.items()
            if isinstance(v, str) and user
            and entity_of(k, None, spec.state_schema) == user}  # fmt: skip
    return keys.pop() if len(keys) == 1 else None


@dataclass(frozen=True)
class Guard:
    """A stated precondition of a write tool (``rule``); for a status rule, ``allowed``: the
    status values that meet it (the rule's own, or the domain's values it does not forbid)."""

    rule: DocRule
    allowed: tuple[Any, ...] = ()

    def admits(self, record: Mapping[str, Any]) -> bool:
        """Whether a record meets the status rule."""
        value = record.get(self.rule.attribute or "")
        return value in self.allowed if self.allowed else value not in self.rule.forbidden


@dataclass(frozen=True)
class Breach:
    """A call a guard refuses: why (naming the values), and for a status rule the record."""

    guard: Guard
    message: str
    key: str | None = None


def call_guards(
    spec: EnvironmentSpec, data: Mapping[str, Any] | None = None
) -> dict[str, list[Guard]]:
    """Per write tool, the status and uniqueness rules its docs and the policy state."""
    out: dict[str, list[Guard]] = {}
    for tool in spec.tools:
        if tool_access(tool) != "write":
            continue
        c = classify_tool(tool, spec.state_schema)
        rules = extract_rules(tool, c, spec.state_schema, spec.policy, data)
        guards = [_guard(spec, rule, data) for rule in rules
                  if rule.kind in ("status", "unique") and rule.collection]  # fmt: skip
        if guards:
            out[tool.name] = guards
    return out


def _guard(spec: EnvironmentSpec, rule: DocRule, data: Mapping[str, Any] | None) -> Guard:
    if rule.kind != "status" or rule.allowed:
        return Guard(rule, tuple(rule.allowed))
    coll = spec.state_schema.collection(rule.collection or "")
    found = status_values(coll, data) if coll is not None else None
    values = [v for v in found[1] if v not in rule.forbidden] if found else []
    return Guard(rule, tuple(values))


def breach(guards: list[Guard], args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
    """The first guard the call ``args`` breaks in ``state``, or None (what the guard code
    of :func:`autoforge.synth.doc_rules.guard_lines` would refuse)."""
    for guard in guards:
        rule = guard.rule
        records = state.get(rule.collection or "") or {}
        if rule.kind == "status":
            key = args.get(rule.param)
            record = records.get(str(key)) if key is not None else None
            if isinstance(record, Mapping) and not guard.admits(record):
                why = f"{key} is {record.get(rule.attribute or '')}: {rule.describe()}"
                return Breach(guard, why, str(key))
        elif rule.fields and all(f in args for f in rule.fields):
            wanted = [args[f] for f in rule.fields]
            if any(isinstance(r, Mapping) and [r.get(f) for f in rule.fields] == wanted
                   for r in records.values()):  # fmt: skip
                return Breach(guard, f"{' + '.join(map(str, wanted))}: {rule.describe()}")
    return None


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
            if guard.rule.kind == "status":
                name = _source_fact(node.args.get(guard.rule.param), nodes)
                if name is not None:
                    out.setdefault(name, []).append(guard)
    return out


def _source_fact(binding: Binding | None, nodes: Mapping[str, Any], depth: int = 0) -> str | None:
    if isinstance(binding, FactRef):
        return binding.name
    if isinstance(binding, OutputRef) and len(binding.path) == 1 and depth < 8:
        source = nodes.get(binding.node)
        field = binding.path[0]
        if isinstance(source, CallNode) and isinstance(field, str) and field in source.args:
            return _source_fact(source.args[field], nodes, depth + 1)
    return None


__all__ = ["TERMINAL_VERBS", "Breach", "Eligibility", "Guard", "breach", "call_guards",
           "eligibility_rules", "guarded_facts", "implausible", "refusal",
           "user_key"]  # fmt: skip
