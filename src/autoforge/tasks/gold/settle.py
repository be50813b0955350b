"""Writes that would change nothing: a transition on a record already in the status it sets.

A synthesized ``pay_order`` writes ``status = 'paid'``; called on an order S0 already holds as
paid, the gold call changes nothing, and the task asks for what is done (a request no user
makes, a step an agent may skip and still pass). :func:`settling_guards` turns each write's
constant into a guard that refuses only that end value: instantiation then chooses a record
not yet there, or, when the blueprint's record is there, sets it in S0 to another value of its
domain (a value the docs or tools state; an unset one where records start unset,
:attr:`~autoforge.tasks.states.domain.Domains.unset`) and runs again, as it does for a stated rule.
These guards are no rule of the docs: no refusal or plausibility check reads them.
"""

from __future__ import annotations

from collections.abc import Mapping

from autoforge.env import EnvironmentSpec
from autoforge.lexicon import tool_scope
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, ReasoningRef
from autoforge.tasks.gold.plausible import Guard
from autoforge.tasks.states.domain import Domains, written_constants


def settling_guards(
    spec: EnvironmentSpec, tools_source: str, found: Domains
) -> dict[str, list[Guard]]:
    """Per write tool that sets a constant on the record its key argument names (not a
    create): a guard that the record does not already hold that constant, with the other
    values of the attribute's domain as the values an S0 repair may set."""
    out: dict[str, list[Guard]] = {}
    written = written_constants(tools_source) if tools_source else {}
    for tool in spec.tools:
        scope = tool_scope(tool, spec.state_schema)
        if scope.cls == "create" or scope.key_param is None or scope.collection is None:
            continue
        for attribute, value in written.get(tool.name, []):
            values = found.values.get((scope.collection, attribute)) or []
            others = [v for v in dict.fromkeys(values) if v != value]
            if (scope.collection, attribute) in found.unset:
                others.append(None)  # records start unset: the state before any write
            if value in values and others:
                guard = Guard(tool.name, scope.key_param, scope.collection, attribute,
                              tuple(others), forbidden=(value,),
                              rule=f"{tool.name} sets {attribute} to {value!r}")  # fmt: skip
                out.setdefault(tool.name, []).append(guard)
    return out


def with_settling(
    stated: Mapping[str, list[Guard]], settling: Mapping[str, list[Guard]]
) -> dict[str, list[Guard]]:
    """The stated guards, and the settling ones on attributes no stated guard of the tool
    checks (a stated rule says more: the status the record must have)."""
    out = {tool: list(guards) for tool, guards in stated.items()}
    for tool, guards in settling.items():
        taken = {(g.collection, g.attribute) for g in out.get(tool, [])}
        extra = [g for g in guards if (g.collection, g.attribute) not in taken]
        if extra:
            out.setdefault(tool, []).extend(extra)
    return out


def guarded_steps(bp: Blueprint, guards: Mapping[str, list[Guard]]) -> dict[str, list[Guard]]:
    """Per reasoning node of ``bp`` whose result is a guarded call's key argument: the guards
    the record it picks must meet ("my only cancelled order" fed to a cancel picks an order
    the cancel still changes, when the items allow)."""
    out: dict[str, list[Guard]] = {}
    for node in bp.nodes:
        if not isinstance(node, CallNode):
            continue
        for guard in guards.get(node.tool, ()):
            binding = node.args.get(guard.param)
            if not guard.fields and isinstance(binding, ReasoningRef):
                out.setdefault(binding.node, []).append(guard)
    return out


__all__ = ["guarded_steps", "settling_guards", "with_settling"]
