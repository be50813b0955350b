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

(Read tools that change the state are caught by ``read_only`` in
:mod:`autoforge.synth.checking.checks`.)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from autoforge.lexicon import envelope_of, unwrap
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
    from autoforge.synth.checking.teststate import sample_value

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
    """A documented list return must be a list (inside the documented reply envelope, when
    there is one: ``{"items": [...]}``)."""
    returns = ctx.spec.returns or {}
    documented = ctx.classification.cls == "list" or returns.get("type") == "array"
    if not documented or not obs.ok:
        return []
    c = ctx.classification
    coll = ctx.schema.collection(c.collection) if c.collection else None
    env = envelope_of(returns, coll, many=c.cls == "list")
    where = f" under {env.field!r}" if env is not None else ""
    inner = unwrap(obs.result, env)
    ok = isinstance(inner, list) and (env is None or isinstance(obs.result, dict))
    got = type(inner).__name__
    detail = "" if ok else f"{ctx.spec.name} is documented to return a list{where}, got {got}"
    return [CheckResult(name="list_return", ok=ok, detail=detail)]


def id_pattern_check(
    ctx: Any, before: Mapping[str, Any], after: Mapping[str, Any]
) -> list[CheckResult]:
    """New records of a create get keys shaped like the existing ones (the caller's own key,
    ``create_cluster(cluster_name)``, is whatever the caller chose)."""
    c = ctx.classification
    if c.cls != "create" or c.collection is None or c.key_param is not None:
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
