"""Round trips the docs imply, run by the conformance checker on one collection's tools.

A create, a lookup by key, an update, a delete and a list over the same collection
(:func:`~autoforge.lexicon.toolscope.tool_scope`) promise each other things no single call
shows:

* create then get (and list) finds the new record, holding the values the create was given;
* update then get shows the new values, and the other values the create gave unchanged;
* delete then get refuses the key;
* a list's page-size parameter pages: asked for one record, it returns at most one;
* a sign-in tool never returns a secret (a password or secret field with a value).

Each finding is ``(check, tool, detail)``; a trip whose first call fails (a create that needs
records the state lacks) is skipped, since the per-call checks already report crashes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from autoforge.env import CollectionSchema, EnvironmentSpec, Observation
from autoforge.lexicon import ToolScope, envelope_of, tool_scope, unwrap
from autoforge.tooldocs import ToolSpec, snake_words

Call = dict[str, Any]
Runner = Callable[[Sequence[Call]], list[Observation]]
Finding = tuple[str, str, str]

_SIGN_IN = re.compile(r"^(login|log_in|logon|signin|sign_in|authenticate|auth)$")
_SECRET = re.compile(r"pass(word|wd|phrase)?$|secret", re.IGNORECASE)
_PAGE_SIZE = ("limit", "max_results", "page_size", "per_page", "top", "max_items", "count")


def _call(tool: ToolSpec, args: Mapping[str, Any]) -> Call:
    return {"tool": tool.name, "arguments": dict(args)}


def _inside(obs: Observation, tool: ToolSpec, coll: CollectionSchema | None, many: bool) -> Any:
    """What a successful reply holds inside its documented envelope, if any (None: failed)."""
    return unwrap(obs.result, envelope_of(tool.returns, coll, many)) if obs.ok else None


def _record(obs: Observation, tool: ToolSpec, coll: CollectionSchema) -> dict[str, Any] | None:
    """The record a one-record reply holds."""
    result = _inside(obs, tool, coll, many=False)
    return result if isinstance(result, dict) else None


def _items(obs: Observation, tool: ToolSpec, coll: CollectionSchema | None) -> list[Any] | None:
    """The items a list reply holds."""
    result = _inside(obs, tool, coll, many=True)
    return result if isinstance(result, list) else None


def _changed(value: Any) -> Any:
    """A value of the same JSON type that differs from ``value``."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 1.5
    if isinstance(value, str):
        return f"{value} (changed)"
    return None


class _Trips:
    """The tools of one collection and the calls that chain them."""

    def __init__(
        self,
        coll: CollectionSchema,
        scopes: list[tuple[ToolSpec, ToolScope]],
        run: Runner,
        calls_for: Callable[[ToolSpec], list[dict[str, Any]]],
    ) -> None:
        self.coll, self.run, self.calls_for = coll, run, calls_for
        by: dict[str, list[tuple[ToolSpec, ToolScope]]] = {}
        for tool, scope in scopes:
            by.setdefault(scope.cls, []).append((tool, scope))
        self.by = by
        self.lookup = next(
            (t for t, s in by.get("lookup", []) if s.key_param and t.required == [s.key_param]),
            None,
        )
        self.lookup_key = next(
            (s.key_param for t, s in by.get("lookup", []) if t is self.lookup), None
        )

    def given(self, tool: ToolSpec, args: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments a write puts in same-named scalar attributes of the record."""
        return {
            p: v
            for p, v in args.items()
            if self.coll.attribute(p) is not None
            and p != self.coll.primary_key
            and isinstance(v, (str, int, float, bool))
        }

    def _is_record(self, reply: Mapping[str, Any]) -> bool:
        """Whether a create's reply is a record of this collection: most of its keys are the
        collection's attributes. A tool that writes a record of another collection under a
        record of this one (a booking under a class) promises nothing about this one's get."""
        known = sum(1 for k in reply if self.coll.attribute(k) is not None)
        return known * 2 > len(reply)

    def found(self, obs: Observation) -> dict[str, Any] | None:
        """The record the lookup's reply ``obs`` holds (None: it failed or holds none)."""
        return _record(obs, self.lookup, self.coll) if self.lookup is not None else None

    def get(self, key: Any) -> Call | None:
        if self.lookup is None or self.lookup_key is None:
            return None
        return _call(self.lookup, {self.lookup_key: key})

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for create, _ in self.by.get("create", []):
            out += self._from_create(create)
        return out

    def _from_create(self, create: ToolSpec) -> list[Finding]:
        samples = self.calls_for(create)
        if not samples:
            return []
        args = {k: v for k, v in samples[-1].items()  # let the tool pick a new key
                if k != self.coll.primary_key or k in create.required}  # fmt: skip
        first = self.run([_call(create, args)])
        made = _record(first[0], create, self.coll)
        key = made.get(self.coll.primary_key) if made and self._is_record(made) else None
        if key is None:
            return []
        given = self.given(create, args)
        out: list[Finding] = []
        get = self.get(key)
        if get is not None:
            obs = self.run([_call(create, args), get])[1]
            got = self.found(obs)
            reader = get["tool"]
            if got is None:
                why = f"{create.name} made {key!r} but {reader} does not find it: {obs.content}"
                out.append(("roundtrip", create.name, why[:300]))
            else:
                wrong = {p: got.get(p) for p, v in given.items() if p in got and got[p] != v}
                if wrong:
                    why = f"{create.name}({given}) then {reader} shows {wrong}"
                    out.append(("roundtrip", create.name, why[:300]))
                out += self._update(create, args, key, given)
                out += self._delete(create, args, key)
        return out

    def _update(
        self, create: ToolSpec, args: Mapping[str, Any], key: Any, given: Mapping[str, Any]
    ) -> list[Finding]:
        out: list[Finding] = []
        get = self.get(key)
        for update, scope in self.by.get("update", []):
            if scope.key_param is None or get is None:
                continue
            fields = [p for p in update.param_names if p != scope.key_param and p in given]
            if not fields or any(p not in [*fields, scope.key_param] for p in update.required):
                continue
            new = {p: _changed(given[p]) for p in fields[:1]}
            if None in new.values():
                continue
            call = _call(update, {scope.key_param: key, **new})
            obs = self.run([_call(create, args), call, get])
            if not obs[1].ok:
                continue
            got = self.found(obs[2]) or {}
            missed = {p: got.get(p) for p, v in new.items() if p in got and got[p] != v}
            moved = {p: got.get(p) for p, v in given.items()
                     if p not in new and p in got and got[p] != v}  # fmt: skip
            if missed or moved:
                why = (
                    f"{update.name}({call['arguments']}) then {get['tool']}: not changed "
                    f"{missed or '-'}, changed besides {moved or '-'}"
                )
                out.append(("roundtrip", update.name, why[:300]))
        return out

    def _delete(self, create: ToolSpec, args: Mapping[str, Any], key: Any) -> list[Finding]:
        out: list[Finding] = []
        get = self.get(key)
        for delete, scope in self.by.get("delete", []):
            if scope.key_param is None or get is None:
                continue
            if any(p != scope.key_param for p in delete.required):
                continue
            call = _call(delete, {scope.key_param: key})
            obs = self.run([_call(create, args), call, get])
            if obs[1].ok and obs[2].ok:
                why = f"{delete.name}({key!r}) succeeded but {get['tool']} still finds it"
                out.append(("roundtrip", delete.name, why))
        return out


def _paging_findings(
    tools: Sequence[tuple[ToolSpec, CollectionSchema | None]],
    run: Runner,
    calls_for: Callable[[ToolSpec], list[dict[str, Any]]],
) -> list[Finding]:
    out: list[Finding] = []
    for tool, coll in tools:
        props = tool.parameters.get("properties", {})
        size = next((p for p in tool.param_names
                     if "_".join(snake_words(p.lstrip("$"))) in _PAGE_SIZE
                     and (props.get(p) or {}).get("type") in ("integer", None)), None)  # fmt: skip
        samples = calls_for(tool)
        if size is None or not samples:
            continue
        args = {k: v for k, v in samples[0].items() if k != size}
        whole, one = run([_call(tool, args)])[0], run([_call(tool, {**args, size: 1})])[0]
        all_items, page = _items(whole, tool, coll), _items(one, tool, coll)
        if all_items is not None and len(all_items) > 1 and (page is None or len(page) != 1):
            why = (
                f"{tool.name}({size}=1) gave {str(one.result)[:120]} where the whole list has "
                f"{len(all_items)} items"
            )
            out.append(("paging", tool.name, why))
    return out


def _secrets(value: Any, depth: int = 0) -> list[str]:
    if depth > 6:
        return []
    if isinstance(value, dict):
        found = [k for k, v in value.items() if _SECRET.search(str(k)) and v not in (None, "")]
        return found + [s for v in value.values() for s in _secrets(v, depth + 1)]
    if isinstance(value, list):
        return [s for v in value[:20] for s in _secrets(v, depth + 1)]
    return []


def _sign_in_findings(
    tools: Sequence[ToolSpec], run: Runner, calls_for: Callable[[ToolSpec], list[dict[str, Any]]]
) -> list[Finding]:
    out: list[Finding] = []
    for tool in tools:
        words = snake_words(tool.name)
        if not any(_SIGN_IN.match(w) for w in ["_".join(words[:2]), *words]):
            continue
        for args in calls_for(tool):
            obs = run([_call(tool, args)])[0]
            leaked = _secrets(obs.result) if obs.ok else []
            if leaked:
                why = f"sign-in tool {tool.name} returns secret fields {sorted(set(leaked))}"
                out.append(("secret", tool.name, why))
                break
    return out


def round_trip_findings(
    spec: EnvironmentSpec, run: Runner, calls_for: Callable[[ToolSpec], list[dict[str, Any]]]
) -> list[Finding]:
    """Every round-trip, paging and sign-in finding over ``spec``'s tools (see the module
    doc); ``run`` runs a call sequence from the initial state, ``calls_for`` samples
    arguments for a tool."""
    schema = spec.state_schema
    groups: dict[str, list[tuple[ToolSpec, ToolScope]]] = {}
    lists: list[tuple[ToolSpec, CollectionSchema | None]] = []
    for tool in spec.tools:
        scope = tool_scope(tool, schema)
        if scope.collection is not None:
            groups.setdefault(scope.collection, []).append((tool, scope))
        if scope.cls == "list":
            lists.append((tool, schema.collection(scope.collection) if scope.collection else None))
    out: list[Finding] = []
    for name, scopes in groups.items():
        coll = schema.collection(name)
        if coll is not None:
            out += _Trips(coll, scopes, run, calls_for).findings()
    out += _paging_findings(lists, run, calls_for)
    out += _sign_in_findings(spec.tools, run, calls_for)
    return out


__all__ = ["round_trip_findings"]
