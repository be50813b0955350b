"""Checks of a candidate tool against what its docs and the data make checkable.

Each returns :class:`~autoforge.synth.report.CheckResult` items that send the tool back to
repair when they fail:

* ``schema_attrs`` -- a write adds top-level attributes the collection's schema does not have;
* ``untouched`` -- an update called without one of its optional parameters changes the field
  that parameter sets (it must stay as it was);
* ``list_return`` -- a tool documented to return a list (a ``list`` tool, or ``returns`` of
  type array) returns something else;
* ``id_pattern`` -- a create adds a record whose key does not look like the existing keys
  (``ORD-11`` among ``ORD-1``..``ORD-10``; digits count as one shape).

(Read tools that change the state are caught by ``read_only`` in :mod:`autoforge.synth.checks`.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from autoforge.synth.report import CheckResult

if TYPE_CHECKING:
    from autoforge.env import Environment

_DIGITS = re.compile(r"\d+")


def _shape(key: str) -> str:
    return _DIGITS.sub("9", key)


def _records(state: Mapping[str, Any], coll: str) -> Mapping[str, Any]:
    value = state.get(coll)
    return value if isinstance(value, Mapping) else {}


def schema_attrs_check(
    ctx: Any, before: Mapping[str, Any], after: Mapping[str, Any]
) -> list[CheckResult]:
    """Top-level attributes written that the collection's schema does not list."""
    out: list[CheckResult] = []
    for coll in ctx.schema.collections:
        known = {a.name for a in coll.attributes}
        if not known:
            continue
        old, new = _records(before, coll.name), _records(after, coll.name)
        added: set[str] = set()
        for key, rec in new.items():
            if not isinstance(rec, Mapping) or rec == old.get(key):
                continue
            prev_rec = old.get(key)
            prev: Mapping[str, Any] = prev_rec if isinstance(prev_rec, Mapping) else {}
            added |= {k for k in rec if k not in known and k not in prev}
        if added:
            detail = (
                f"the call added {', '.join(sorted(added))} to {coll.name} records; the schema has "
                f"only {', '.join(sorted(known))}: store values in existing attributes"
            )
            out.append(CheckResult(name="schema_attrs", ok=False, detail=detail))
    return out or [CheckResult(name="schema_attrs", ok=True)]


def untouched_check(
    env: Environment, ctx: Any, paths: Mapping[str, list[str]]
) -> list[CheckResult]:
    """An update without an optional parameter leaves that parameter's field alone."""
    c, spec = ctx.classification, ctx.spec
    if c.cls != "update" or c.collection is None or c.key_param is None:
        return []
    from autoforge.synth.teststate import sample_value

    key = ctx.happy.get(c.key_param)
    props = spec.parameters.get("properties", {})
    optional = [
        p for p in spec.param_names
        if p not in spec.required and p != c.key_param and paths.get(p)
    ]  # fmt: skip
    full = dict(ctx.happy)
    for p in optional:
        full.setdefault(p, sample_value(props.get(p) or {}, p, ctx.schema, ctx.state, True))
    out: list[CheckResult] = []
    for param in optional:
        path = paths[param]
        args = {k: v for k, v in full.items() if k != param}
        ep = env.episode()
        before = _get(_records(ep.snapshot(), c.collection).get(str(key)), path)
        obs = ep.call(spec.name, args)
        if not obs.ok:
            continue
        after = _get(_records(ep.snapshot(), c.collection).get(str(key)), path)
        ok = before == after
        detail = "" if ok else (
            f"called without {param}, {spec.name} changed {'.'.join(path)} from {before!r} to "
            f"{after!r}; a field whose parameter is not given must stay as it is"
        )  # fmt: skip
        out.append(CheckResult(name=f"untouched:{param}", ok=ok, detail=detail))
    return out


def _get(record: Any, path: list[str]) -> Any:
    node = record
    for part in path:
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node


def list_return_check(ctx: Any, obs: Any) -> list[CheckResult]:
    """A documented list return must be a list."""
    returns = ctx.spec.returns or {}
    documented = ctx.classification.cls == "list" or returns.get("type") == "array"
    if not documented or not obs.ok:
        return []
    ok = isinstance(obs.result, list)
    got = type(obs.result).__name__
    detail = "" if ok else f"{ctx.spec.name} is documented to return a list but returned {got}"
    return [CheckResult(name="list_return", ok=ok, detail=detail)]


def id_pattern_check(
    ctx: Any, before: Mapping[str, Any], after: Mapping[str, Any]
) -> list[CheckResult]:
    """New records of a create get keys shaped like the existing ones."""
    c = ctx.classification
    if c.cls != "create" or c.collection is None:
        return []
    old, new = _records(before, c.collection), _records(after, c.collection)
    shapes = {_shape(str(k)) for k in old}
    if not shapes:
        return []
    fresh = [str(k) for k in new if k not in old]
    bad = [k for k in fresh if _shape(k) not in shapes]
    example = sorted(old)[-1]
    detail = "" if not bad else (
        f"new {c.collection} key {bad[0]!r} does not follow the existing keys (e.g. "
        f"{example!r}): derive the next id in the same pattern"
    )  # fmt: skip
    return [CheckResult(name="id_pattern", ok=not bad, detail=detail)]


# -- an environment directory, checked against its own docs --------------------------------------


def _context(spec: Any, schema: Any, state: dict[str, dict[str, Any]], paths: Any) -> Any:
    """The :class:`~autoforge.synth.checks.CheckContext` synthesis would build for ``spec``:
    its class, the preconditions its description states, arguments that should succeed."""
    from autoforge.synth.checks import CheckContext
    from autoforge.synth.classify import classify_tool
    from autoforge.synth.doc_rules import extract_rules, guard_for, meet_rules
    from autoforge.synth.teststate import happy_arguments

    c = classify_tool(spec, schema, paths)
    rules = extract_rules(spec, c, schema, None, state)
    c = c.model_copy(update={"guard": guard_for(c, rules)})
    happy = meet_rules(happy_arguments(spec, c, schema, state), rules, c.refs, state)
    return CheckContext(
        spec=spec, classification=c, schema=schema, state=state, happy=happy,
        paths=paths.get(c.collection or "", {}),
    )  # fmt: skip


def tool_doc_checks(env: Any, ctx: Any) -> list[CheckResult]:
    """The docs- and data-checkable behaviour of one tool of ``env`` on its happy call: a
    documented read leaves the state alone, and the checks of this module."""
    from autoforge.synth.classify import READ_CLASSES

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
    import json
    from pathlib import Path

    from autoforge.env import Environment
    from autoforge.synth.infer import field_paths
    from autoforge.synth.teststate import slice_state

    root = Path(env_dir)
    env = Environment.load(root, trusted=trusted)
    schema = env.spec.state_schema
    if schema is None or not schema.collections or not (root / "initial_state.json").is_file():
        return []
    state = slice_state(env.initial_state)
    small = Environment.from_parts(
        env.spec, (root / "tools.py").read_text(encoding="utf-8"), initial_state=state,
        trusted=trusted,
    )  # fmt: skip
    report = root / "synthesis_report.json"
    profile = json.loads(report.read_text()).get("conventions") if report.is_file() else None
    paths = {name: field_paths(coll.values()) for name, coll in state.items()}
    out: list[tuple[str, str, bool, str]] = []
    for spec in env.spec.tools:
        ctx = _context(spec, schema, state, paths)
        ctx.allow_new_attrs = profile not in (None, "generic")
        for r in tool_doc_checks(small, ctx):
            if r.name == "schema_attrs" and ctx.allow_new_attrs:
                continue
            out.append((r.name.split(":")[0], spec.name, r.ok, r.detail))
    return out
