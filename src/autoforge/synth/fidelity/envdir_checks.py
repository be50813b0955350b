"""An environment directory checked against its own docs and data (what ``autoforge check``
runs besides the conformance checker): each tool's happy call, meeting the rules of its
``rules.json`` (:meth:`~autoforge.env.EnvDir.read_rules`), with the checks of
:mod:`autoforge.synth.checking.doc_checks` and a documented read that must leave the state alone.

Kept apart from :mod:`autoforge.synth.checking.doc_checks` because it builds the same
:class:`~autoforge.synth.checking.checks.CheckContext` synthesis builds, and ``checks`` imports
``doc_checks``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from autoforge.env import EnvDir, Environment
from autoforge.lexicon import dir_rules
from autoforge.synth.checking.checks import CheckContext
from autoforge.synth.checking.doc_checks import (
    id_pattern_check,
    list_return_check,
    schema_attrs_check,
    untouched_check,
)
from autoforge.synth.checking.teststate import happy_arguments, slice_state
from autoforge.synth.report import CheckResult
from autoforge.synth.rulecode.classify import READ_CLASSES, classify_tool
from autoforge.synth.rulecode.conventions import GENERIC, Conventions, conventions_profile
from autoforge.synth.rulecode.doc_rules import DocRule, guard_for, meet_rules
from autoforge.synth.rulecode.effects import tool_entry_flags
from autoforge.synth.state.infer import field_paths


def _context(
    spec: Any,
    schema: Any,
    state: dict[str, dict[str, Any]],
    paths: Any,
    rules: list[DocRule],
    policy: str = "",
    conv: Conventions = GENERIC,
) -> Any:
    """The :class:`~autoforge.synth.checking.checks.CheckContext` synthesis would build for
    ``spec``:
    its class, its preconditions (``rules``, the environment's), arguments that should
    succeed."""
    c = classify_tool(spec, schema, paths)
    c = c.model_copy(update={"guard": guard_for(c, rules)})
    flags = tool_entry_flags(spec, policy, schema, conv)
    happy = meet_rules(happy_arguments(spec, c, schema, state, flags), rules, c.refs, state)
    return CheckContext(
        spec=spec, classification=c, schema=schema, state=state, happy=happy,
        paths=paths.get(c.collection or "", {}),
    )  # fmt: skip


def tool_doc_checks(env: Any, ctx: Any) -> list[CheckResult]:
    """The docs- and data-checkable behaviour of one tool of ``env`` on its happy call: a
    documented read leaves the state alone, and the checks of this module."""
    ep = env.episode()
    base = ep.state_hash()
    obs = ep.call(ctx.spec.name, ctx.happy)
    if not obs.ok:
        return []
    changed = ep.state_hash() != base
    out: list[CheckResult] = []
    if ctx.classification.cls in READ_CLASSES or ctx.spec.access == "read":
        detail = f"{ctx.spec.name} is documented to read but changed the state" if changed else ""
        out.append(CheckResult(name="read_only", ok=not changed, detail=detail))
    out += list_return_check(ctx, obs)
    if changed:
        after = ep.snapshot()
        out += schema_attrs_check(ctx, ctx.state, after)
        out += id_pattern_check(ctx, ctx.state, after)
    return out + untouched_check(env, ctx, ctx.paths)


def check_env_dir(env_dir: Any, *, trusted: bool = False) -> list[tuple[str, str, bool, str]]:
    """``(check, tool, ok, detail)`` for every tool of an environment directory whose
    ``environment.json`` carries the tool docs and a state schema, run on (a slice of) its
    ``initial_state.json``. Nothing when there is no schema or no initial state to test on.

    An environment synthesized with a convention profile that allows new attributes (its
    ``synthesis_report.json`` says which) is not held to the schema's attributes.
    """
    d = EnvDir(Path(env_dir))
    parts = d.read()
    schema = parts.spec.state_schema
    if schema is None or not schema.collections or parts.initial_state is None:
        return []
    state = slice_state(parts.initial_state)
    small = Environment.from_parts(
        parts.spec, parts.tools_source, initial_state=state, trusted=trusted
    )
    report = d.report_path
    profile = json.loads(report.read_text()).get("conventions") if report.is_file() else None
    paths = {name: field_paths(coll.values()) for name, coll in state.items()}
    rules = dir_rules(d)  # rules.json, else extracted from the spec now (same extractor)
    conv = conventions_profile(profile)
    out: list[tuple[str, str, bool, str]] = []
    for spec in parts.spec.tools:
        ctx = _context(
            spec, schema, state, paths, rules.for_tool(spec.name), parts.spec.policy, conv
        )
        ctx.allow_new_attrs = profile not in (None, "generic")
        for r in tool_doc_checks(small, ctx):
            if r.name == "schema_attrs" and ctx.allow_new_attrs:
                continue
            out.append((r.name.split(":")[0], spec.name, r.ok, r.detail))
    return out
