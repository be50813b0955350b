"""Plausible sequences: what the policy says a record must be before a tool may change it.

A real user does not ask to redirect an order they just cancelled, and an agent must not
cancel an order the policy says can no longer be cancelled. The rules are read from the policy
text ("Only `pending` orders can be cancelled", "An order can only be returned if its status is
'delivered'") as :class:`Eligibility` rules: a verb, a collection, an attribute and the value it
must have. :func:`implausible` says why a gold run breaks them (a state-changing call on a
record an earlier call cancelled or deleted; a call on a record whose S0 value the policy
forbids), and :func:`refusal` picks, for hard tasks, a request the policy forbids: the task then
asks for it too, and the correct outcome of that part is a refusal (S* unchanged by it).

Before a gold call is made, :func:`call_guards` turns the same rules into preconditions per
write tool (the tool's key argument must name a record with the allowed value), with the
uniqueness the docs state ("only once per book": no second record of what the tool creates
for the same referenced records):
:func:`guarded_facts` says which facts of a blueprint become a guarded record key, so
instantiation chooses records that meet the rule, and :func:`breach` tells, from the state
the host already mirrors, that a call would be refused, so that the call is not sent to the
sandbox to fail there.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from autoforge.env import EnvironmentSpec
from autoforge.tasks.blueprint import Binding, Blueprint, CallNode, FactRef, OutputRef
from autoforge.tasks.domain import domains
from autoforge.tasks.merge import user_collection
from autoforge.tasks.model import GoldCall
from autoforge.tasks.schema import entity_of, singular, tool_access
from autoforge.tooldocs import ONCE_ONLY

#: Verbs after which the record is gone or closed: nothing more is done to it in one task.
TERMINAL_VERBS = ("cancel", "delete", "remove", "close", "void", "revoke", "terminate")

_ONLY = re.compile(
    r"only\s+[`'\"]?(?P<value>[\w ]{1,30}?)[`'\"]?\s+(?P<noun>[a-z_]+?)s?\s+can\s+be\s+"
    r"(?P<verb>[a-z]+)(?P<rest>(?:\s+or\s+have\s+(?:their|its)\s+[a-z ]{1,40}?\s+[a-z]+ed\b)?)",
    re.IGNORECASE,
)  # fmt: skip
#: "... or have their shipping address changed": a second action the same rule covers
_HAVE = re.compile(r"have\s+(?:their|its)\s+(?P<object>[a-z ]{1,40}?)\s+(?P<verb>[a-z]+ed)\b",
                   re.IGNORECASE)  # fmt: skip
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
    object: str = ""  # the attribute the action changes (``shipping_address``), if named

    def applies(self, tool: str) -> bool:
        """Whether the rule covers a tool: its name has the verb, or the object changed."""
        name = tool.lower()
        return (self.object or self.verb) in name


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
                rest = _HAVE.search(match.groupdict().get("rest") or "")
                if rest:  # "or have their shipping address changed"
                    thing = "_".join(rest.group("object").lower().split())
                    rules.append(Eligibility(_stem(rest.group("verb")), coll.name, attr.name,
                                             value, thing))  # fmt: skip
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
            if not rule.applies(call.name):
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
        tools = [t for t in spec.tools if tool_access(t) == "write" and rule.applies(t.name)
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
    """A precondition of a write tool: the record of ``collection`` that argument ``param``
    names must have ``attribute`` in ``allowed``; with ``fields``, instead: no record of
    ``collection`` may already hold the call's values of those arguments."""

    tool: str
    param: str
    collection: str
    attribute: str = ""
    allowed: tuple[Any, ...] = ()
    fields: tuple[str, ...] = ()

    def admits(self, record: Mapping[str, Any]) -> bool:
        """Whether a record meets the rule."""
        return record.get(self.attribute) in self.allowed


@dataclass(frozen=True)
class Breach:
    """A call a guard refuses: why (naming the record), and the record's key."""

    guard: Guard
    message: str
    key: str


def call_guards(
    spec: EnvironmentSpec, rules: list[Eligibility] | None = None, data: Any = None
) -> dict[str, list[Guard]]:
    """Per write tool, the guards the policy's eligibility rules (:func:`eligibility_rules`,
    or ``rules``) put on its key arguments: the rule applies to the tool and the argument
    names a record of the rule's collection."""
    rules = eligibility_rules(spec, data) if rules is None else rules
    out: dict[str, list[Guard]] = {}
    for tool in spec.tools:
        if tool_access(tool) != "write":
            continue
        params = tool.parameters.get("properties") or {}
        for rule in rules:
            if not rule.applies(tool.name):
                continue
            for param in params:
                if entity_of(param, None, spec.state_schema) == rule.collection:
                    guard = Guard(tool.name, param, rule.collection, rule.attribute, (rule.value,))
                    out.setdefault(tool.name, []).append(guard)
    for guard in _unique_guards(spec):
        out.setdefault(guard.tool, []).append(guard)
    return out


def _unique_guards(spec: EnvironmentSpec) -> list[Guard]:
    """ "May review each book only once": a write tool whose created collection a sentence
    of its description or the policy names with a once-only phrase may not create a second
    record with the same referenced records (the tool's arguments that are references of
    that collection)."""
    texts = re.split(r"(?<=[.!?])\s+|\n", spec.policy or "")
    out: list[Guard] = []
    for tool in spec.tools:
        if tool_access(tool) != "write":
            continue
        words = set(tool.name.lower().split("_"))
        coll = next((c for c in spec.state_schema.collections
                     if singular(c.name) in words or c.name in words), None)  # fmt: skip
        if coll is None:
            continue
        noun = singular(coll.name)
        clauses = [c for t in [*texts, tool.description or ""] for c in re.split(r"[,;:]", t)]
        noun_re = re.compile(rf"\b{re.escape(noun)}", re.IGNORECASE)
        # the once-only phrase and the noun in one clause
        said = [c for c in clauses if ONCE_ONLY.search(c) and noun_re.search(c)]
        params = tool.parameters.get("properties") or {}
        fields = tuple(p for p in params
                       if (a := coll.attribute(p)) is not None and a.references)  # fmt: skip
        if said and fields:
            out.append(Guard(tool.name, fields[0], coll.name, fields=fields))
    return out


def breach(guards: list[Guard], args: Mapping[str, Any], state: Mapping[str, Any]) -> Breach | None:
    """The first guard the call ``args`` breaks in ``state``, or None."""
    for guard in guards:
        if guard.fields:
            if _taken(guard, args, state):
                values = " + ".join(str(args[f]) for f in guard.fields)
                return Breach(guard, f"{values}: one {guard.collection} record per "
                                     f"{' + '.join(guard.fields)} (docs)", "")  # fmt: skip
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


def _taken(guard: Guard, args: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    """Whether a record of the guard's collection already holds the call's field values."""
    if not all(f in args for f in guard.fields):
        return False
    wanted = [args[f] for f in guard.fields]
    return any(isinstance(r, Mapping) and [r.get(f) for f in guard.fields] == wanted
               for r in (state.get(guard.collection) or {}).values())  # fmt: skip


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
            name = _source_fact(node.args.get(guard.param), nodes)
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
