"""Checks one candidate tool implementation must pass before it is accepted.

Every candidate is loaded through the real runtime (``Environment.from_parts``: sandbox policy,
compilation, signature binding) on a small test state and called:

* ``load`` — passes the sandbox policy, loads, and binds: ``state`` first, exactly the
  documented parameters, optional ones with defaults (the runtime's rules and messages);
* ``runs`` — the happy-path call does not crash or time out (plain CRUD must succeed);
* ``json`` — the result is JSON-serialisable;
* ``deterministic`` — the same call on the same state gives the same result and state;
* ``read_only`` — read tools leave the state unchanged; ``writes`` — a successful write changes it;
* ``unknown_id`` — a key naming no record gives a ToolError, not a crash or a success;
* ``test:<n>`` — the LLM-proposed test cases (expected error or success);
* what the docs and data make checkable (:mod:`autoforge.synth.checking.doc_checks`):
``schema_attrs``,
  ``untouched:<param>``, ``list_return``, ``id_pattern``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from autoforge.env import EnvironmentSpec, StateSchema
from autoforge.synth.checking import doc_checks
from autoforge.synth.checking.teststate import State, unknown_key_calls
from autoforge.synth.modelcode.codegen import ToolCode
from autoforge.synth.report import CheckResult
from autoforge.synth.rulecode.classify import READ_CLASSES, Classification
from autoforge.tooldocs import ToolSpec

if TYPE_CHECKING:
    from autoforge.env import Environment

_BROKEN = ("crash", "timeout", "sandbox")
_LOAD_PREFIX = "<tools>"


class TestCase(BaseModel):
    """One LLM-proposed test call."""

    __test__ = False  # not a pytest class

    arguments: dict[str, Any] = Field(default_factory=dict)
    expect_error: bool = False
    description: str = ""


class TestCases(BaseModel):
    """The structured answer of the test-writing prompt."""

    __test__ = False

    cases: list[TestCase] = Field(default_factory=list)


@dataclass
class CheckContext:
    """Everything the checks of one tool need besides the candidate code."""

    spec: ToolSpec
    classification: Classification
    schema: StateSchema
    state: State
    happy: dict[str, Any]
    cases: list[TestCase] = field(default_factory=list)
    paths: Mapping[str, list[str]] = field(default_factory=dict)
    allow_new_attrs: bool = False


def _call_text(name: str, args: Mapping[str, Any]) -> str:
    inner = ", ".join(f"{k}={json.dumps(v, default=str)[:80]}" for k, v in args.items())
    return f"{name}({inner})"


def valid_cases(cases: Sequence[TestCase], ctx: CheckContext) -> list[TestCase]:
    """Drop proposed cases that cannot be right: unknown or missing parameters."""
    params = set(ctx.spec.param_names)
    out = []
    for case in cases:
        keys = set(case.arguments)
        if not keys <= params or not set(ctx.spec.required) <= keys:
            continue
        out.append(case)
    return out[:4]


def _load(code: ToolCode, ctx: CheckContext) -> tuple[Environment | None, CheckResult]:
    from autoforge.env import EnvDir, Environment

    spec = EnvironmentSpec(name="synth-check", tools=[ctx.spec], state_schema=ctx.schema)
    try:
        env = Environment.from_parts(spec, code.source, initial_state=ctx.state)
    except Exception as exc:  # sandbox violation, load error, bad code: all fed back
        detail = str(exc).replace(_LOAD_PREFIX, EnvDir.TOOLS)
        return None, CheckResult(name="load", ok=False, detail=f"{type(exc).__name__}: {detail}")
    return env, CheckResult(name="load", ok=True)


def _happy_checks(env: Environment, ctx: CheckContext) -> list[CheckResult]:
    name, args, c = ctx.spec.name, ctx.happy, ctx.classification
    call = _call_text(name, args)
    base_hash = env.episode().state_hash()
    ep1 = env.episode()
    obs1 = ep1.call(name, args)
    out: list[CheckResult] = []
    if obs1.error_kind == "invalid_arguments":  # our test arguments, not the tool, are wrong
        return [CheckResult(name="runs", ok=True, detail=f"skipped: {obs1.content[:200]}")]
    if obs1.error_kind in _BROKEN:
        return [CheckResult(name="runs", ok=False, detail=f"{call} failed: {obs1.content}")]
    must_succeed = c.plain and c.cls not in ("compute",)
    if must_succeed and not obs1.ok:
        detail = f"{call} should succeed on the test state but gave: {obs1.content}"
        return [CheckResult(name="runs", ok=False, detail=detail)]
    out.append(CheckResult(name="runs", ok=True, detail=obs1.content[:200]))
    if obs1.ok:
        try:
            json.dumps(obs1.result)
            out.append(CheckResult(name="json", ok=True))
        except (TypeError, ValueError) as exc:
            out.append(CheckResult(name="json", ok=False, detail=f"result of {call}: {exc}"))
    ep2 = env.episode()
    obs2 = ep2.call(name, args)
    same = obs2.content == obs1.content and ep2.state_hash() == ep1.state_hash()
    detail = "" if same else f"{call} gave different results or states on two identical runs"
    out.append(CheckResult(name="deterministic", ok=same, detail=detail))
    changed = ep1.state_hash() != base_hash
    out += _doc_checks(env, ctx, obs1, ep1.snapshot() if changed else None)
    if c.cls in READ_CLASSES or ctx.spec.access == "read":
        detail = "" if not changed else f"{call} changed the state but {name} only reads"
        out.append(CheckResult(name="read_only", ok=not changed, detail=detail))
    elif obs1.ok:
        detail = "" if changed else f"{call} succeeded but changed nothing in the state"
        out.append(CheckResult(name="writes", ok=changed, detail=detail))
    return out


def _doc_checks(env: Environment, ctx: CheckContext, obs: Any, after: Any) -> list[CheckResult]:
    """The checks the docs and data make possible (:mod:`autoforge.synth.checking.doc_checks`)."""
    out = doc_checks.list_return_check(ctx, obs)
    if after is not None and obs.ok:
        if not ctx.allow_new_attrs:
            out += doc_checks.schema_attrs_check(ctx, ctx.state, after)
        out += doc_checks.id_pattern_check(ctx, ctx.state, after)
    if obs.ok:
        out += doc_checks.untouched_check(env, ctx, ctx.paths)
    return out


def _unknown_id_checks(env: Environment, ctx: CheckContext) -> list[CheckResult]:
    out = []
    calls = unknown_key_calls(ctx.spec, ctx.classification, ctx.schema, ctx.happy)
    for param, args in calls:
        obs = env.episode().call(ctx.spec.name, args)
        if obs.error_kind == "invalid_arguments":  # our probe, not the tool, is at fault
            continue
        ok = obs.error_kind == "tool_error"
        got = "succeeded" if obs.ok else f"gave {obs.error_kind}: {obs.content[:200]}"
        detail = (
            ""
            if ok
            else (
                f"{_call_text(ctx.spec.name, args)} {got}; an unknown {param} must raise ToolError"
            )
        )
        out.append(CheckResult(name=f"unknown_id:{param}", ok=ok, detail=detail))
    return out


def _case_checks(env: Environment, ctx: CheckContext) -> list[CheckResult]:
    out = []
    for i, case in enumerate(ctx.cases, 1):
        obs = env.episode().call(ctx.spec.name, case.arguments)
        call = _call_text(ctx.spec.name, case.arguments)
        if obs.error_kind in _BROKEN:
            ok, detail = False, f"{call} crashed: {obs.content[:300]}"
        elif obs.error_kind == "invalid_arguments":
            continue
        else:
            ok = (not obs.ok) == case.expect_error
            want = "fail with ToolError" if case.expect_error else "succeed"
            detail = (
                ""
                if ok
                else f"{call} should {want} ({case.description}) but gave: " + (obs.content[:300])
            )
        out.append(CheckResult(name=f"test:{i}", ok=ok, detail=detail))
    return out


def run_checks(code: ToolCode, ctx: CheckContext) -> list[CheckResult]:
    """All checks of one candidate; stops early when it does not even load."""
    env, loaded = _load(code, ctx)
    results = [loaded]
    if env is None:
        return results
    results += _happy_checks(env, ctx)
    if results[-1].name == "runs" and not results[-1].ok:
        return results
    results += _unknown_id_checks(env, ctx)
    results += _case_checks(env, ctx)
    return results


def failures(results: Sequence[CheckResult]) -> list[str]:
    """The failed checks as lines for the repair prompt."""
    return [f"{r.name}: {r.detail}" for r in results if not r.ok]
