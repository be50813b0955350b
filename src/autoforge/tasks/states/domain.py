"""The domain of each state attribute: which values are plausible, read from docs and data.

Enumerations come from the docs (a schema ``enum``; "one of a, b or c" or a list of
back-quoted values in a description) and, when data is given (``--data``, an example's sample
data, the environment's initial state), from the values observed there, with their
frequencies: a string attribute whose records share a handful of values (an order ``status``)
is categorical, and generated records draw from those values only. Where neither docs nor data
close a string attribute's domain, the values the domain itself states are its domain
(:func:`stated_values`: a tool parameter's ``default``, ``enum`` or ``examples`` for the
attribute it filters or sets, and the constants the environment's own tools write into it, a
transition's target status): an order ``status`` the docs leave open is "paid" or
"cancelled" when those are the statuses the tools search by and set, never a Faker word.
Numbers keep to the range the data shows. A value outside the domain the docs or data define
is a defect (an order status "calm-50"); :func:`out_of_domain` finds such values in a state.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from autoforge.env import Attribute, CollectionSchema, EnvironmentSpec
from autoforge.lexicon import status_attribute, tool_scope
from autoforge.tooldocs import ToolSpec, stated_statuses

_ONE_OF = re.compile(r"\bone of\b[:\s]*(?P<list>[^.;\n]+)", re.IGNORECASE)
#: Observed numbers needed before their range bounds generated ones (3 ratings of 4-5 stars
#: say little about the scale).
_RANGE_MIN = 8
_EITHER = re.compile(
    r"\beither\s+[`'\"]([^`'\"]{1,40})[`'\"]\s+or\s+[`'\"]([^`'\"]{1,40})[`'\"]", re.IGNORECASE
)
_QUOTED = re.compile(r"[`'\"]([A-Za-z0-9_\- ]{1,40})[`'\"]")


def enum_from_text(text: str) -> list[str]:
    """The values a description enumerates ("one of `a`, `b` or `c`", "either 'x' or 'y'"),
    else ``[]``."""
    either = _EITHER.search(text or "")
    if either:
        return [either.group(1), either.group(2)]
    match = _ONE_OF.search(text or "")
    if not match:
        return []
    part = match.group("list")
    quoted = _QUOTED.findall(part)
    if len(quoted) >= 2:
        return list(dict.fromkeys(quoted))
    items = [x.strip(" `'\"") for x in re.split(r",|\bor\b|\band\b|/", part)]
    items = [x for x in items if x and len(x.split()) <= 3]
    return list(dict.fromkeys(items)) if len(items) >= 2 else []


def categorical(values: list[Any]) -> bool:
    """Whether observed string values look like a category: at least 4 of them, at most 8
    distinct, and each distinct value shared by two records on average."""
    distinct = set(values)
    return len(values) >= 4 and len(distinct) <= 8 and len(distinct) * 2 <= len(values)


@dataclass
class Domains:
    """Per ``(collection, attribute)``: the values to draw from (repeats keep the observed
    distribution) and the numeric range ``(low, high, integer)`` the data shows."""

    values: dict[tuple[str, str], list[Any]] = field(default_factory=dict)
    ranges: dict[tuple[str, str], tuple[float, float, bool]] = field(default_factory=dict)
    #: attributes whose every stated value is one the tools write (a transition's target, the
    #: end of a record's life as often as not): a record before any such write leaves them
    #: unset, so S0 holds records a transition can still act on
    unset: set[tuple[str, str]] = field(default_factory=set)

    def allowed(self, collection: str, attribute: str) -> set[Any] | None:
        """The set of allowed values, or None when the attribute has no closed domain."""
        found = self.values.get((collection, attribute))
        return set(found) if found else None


def _observed(records: list[Any], name: str) -> list[Any]:
    return [r.get(name) for r in records if isinstance(r, Mapping) and r.get(name) is not None]


def _attribute_domain(attr: Attribute, seen: list[Any], stated: list[Any]) -> list[Any]:
    if attr.enum:
        inside = [v for v in seen if v in attr.enum]
        return inside if len(inside) >= 4 else list(attr.enum)  # the data's mix, else uniform
    listed = enum_from_text(attr.description)
    if listed:
        return listed
    strings = [v for v in seen if isinstance(v, str)]
    if attr.type == "string" and not attr.references and strings and categorical(strings):
        return strings
    if stated and attr.type == "string" and not attr.references and len(strings) < 4:
        return stated  # the domain's own values; data that shows free text keeps Faker
    return []


def _stated_add(
    out: dict[tuple[str, str], list[Any]], coll: CollectionSchema, name: str, value: Any
) -> None:
    attr = coll.attribute(name)
    if attr is None or name == coll.primary_key or attr.references or attr.enum:
        return
    if isinstance(value, str) and value.strip():
        found = out.setdefault((coll.name, name), [])
        if value not in found:
            found.append(value)


def _param_values(schema: Any) -> list[Any]:
    """The values a parameter's schema states: its ``default``, ``enum`` and ``examples``."""
    if not isinstance(schema, Mapping):
        return []
    values = [schema.get("default"), *(schema.get("enum") or []), *(schema.get("examples") or [])]
    return [v for v in values if v is not None]


def _written(source: str) -> dict[str, list[tuple[str, Any]]]:
    """Per function of ``source``: the ``(attribute, constant)`` pairs it writes into a record,
    ``record['status'] = 'paid'`` (a dict literal is as often a reply as a record: skipped)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    out: dict[str, list[tuple[str, Any]]] = {}
    for func in tree.body:
        if not isinstance(func, ast.FunctionDef):
            continue
        pairs = out.setdefault(func.name, [])
        for node in ast.walk(func):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for target in node.targets:
                    if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Constant):
                        pairs.append((str(target.slice.value), node.value.value))
    return out


def stated_values(
    spec: EnvironmentSpec, tools_source: str = ""
) -> dict[tuple[str, str], list[Any]]:
    """Per ``(collection, attribute)``: the string values the domain states for it, in order
    of mention: the ``default``/``enum``/``examples`` of a tool parameter named like an
    attribute of the collection the tool acts on (a search's ``status`` defaulting to
    ``paid``), and the constants the environment's tools (``tools_source``) write into that
    collection's records (the status a transition sets)."""
    return _merged(*_stated(spec, tools_source))


def _merged(
    params: dict[tuple[str, str], list[Any]], written: dict[tuple[str, str], list[Any]]
) -> dict[tuple[str, str], list[Any]]:
    """The parameters' stated values, then the written ones not among them."""
    out = {k: list(v) for k, v in params.items()}
    for key, values in written.items():
        out.setdefault(key, []).extend(v for v in values if v not in out[key])
    return out


def _stated(
    spec: EnvironmentSpec, tools_source: str
) -> tuple[dict[tuple[str, str], list[Any]], dict[tuple[str, str], list[Any]]]:
    """The values tool parameters state, and those the tools write (:func:`stated_values`)."""
    schema = spec.state_schema
    code = _written(tools_source) if tools_source else {}
    params: dict[tuple[str, str], list[Any]] = {}
    written: dict[tuple[str, str], list[Any]] = {}
    told: list[tuple[CollectionSchema, str, str]] = []
    for tool in spec.tools:
        scope = tool_scope(tool, schema)
        coll = schema.collection(scope.collection or "")
        if coll is None or coll.fixed is not None:
            continue
        for name, param in _tool_params(tool).items():
            for value in _param_values(param):
                _stated_add(params, coll, name, value)
        told += [(coll, name, value) for name, value in _status_words(tool, coll)]
        for name, value in code.get(tool.name, []):  # a create's constants: a record's start
            _stated_add(params if scope.cls == "create" else written, coll, name, value)
    for coll, name, value in told:  # as the code spells it: "to Suspended" is 'suspended'
        known = [*params.get((coll.name, name), []), *written.get((coll.name, name), [])]
        if not any(str(v).casefold() == value.casefold() for v in known):
            _stated_add(params, coll, name, value)
    return params, written


def _status_words(tool: ToolSpec, coll: CollectionSchema) -> list[tuple[str, str]]:
    """``(status attribute, value)`` for each status the tool's description states its
    collection's records take ("order status changes to unpaid"): a value of the domain even
    where no code writes it (the status before a payment)."""
    status = status_attribute(coll)
    if status is None or status.type != "string":
        return []
    return [(status.name, w) for w in stated_statuses(tool.description)]


def _tool_params(tool: ToolSpec) -> dict[str, Any]:
    props = (tool.parameters or {}).get("properties")
    return dict(props) if isinstance(props, Mapping) else {}


def domains(
    spec: EnvironmentSpec, data: Mapping[str, Any] | None = None, tools_source: str = ""
) -> Domains:
    """The domains of ``spec``'s attributes from its docs, from ``data`` (the sample data) and
    from the values the docs and the environment's tools (``tools_source``) state
    (:func:`stated_values`)."""
    out = Domains()
    data = data or {}
    params, written = _stated(spec, tools_source)  # the tools' source parsed once
    stated = _merged(params, written)
    for coll in spec.state_schema.collections:
        table = data.get(coll.name)
        records = list(table.values()) if isinstance(table, Mapping) else []
        for attr in coll.attributes:
            if attr.name == coll.primary_key:
                continue
            seen = _observed(records, attr.name)
            key = (coll.name, attr.name)
            values = _attribute_domain(attr, seen, stated.get(key, []))
            if values:
                out.values[key] = values
            if _unset(values, stated.get(key), written.get(key, [])):
                out.unset.add(key)
            numbers = [v for v in seen if isinstance(v, int | float) and not isinstance(v, bool)]
            if attr.type in ("integer", "number") and len(numbers) >= _RANGE_MIN:
                integer = all(isinstance(v, int) for v in numbers)
                out.ranges[(coll.name, attr.name)] = (min(numbers), max(numbers), integer)
    return out


def _unset(values: list[Any], stated: list[Any] | None, written: list[Any]) -> bool:
    """Whether records before any write leave an attribute unset: its one stated value is one
    a transition writes (a ``cancelled``, the end of a record's life), so a value for every
    record would leave no record a transition can still act on. With two stated values or
    more (``paid``, ``cancelled``) every record takes one of them: ``None`` is no value the
    docs state."""
    return bool(values) and values == stated and set(values) <= set(written) and len(values) < 2


def out_of_domain(state: Mapping[str, Any], found: Domains) -> list[str]:
    """``collection.attribute=value`` for each value of ``state`` outside its domain."""
    bad: list[str] = []
    for (coll, attr), values in found.values.items():
        allowed = set(values)
        table = state.get(coll)
        for record in table.values() if isinstance(table, Mapping) else []:
            value = record.get(attr) if isinstance(record, Mapping) else None
            if value is not None and value not in allowed:
                bad.append(f"{coll}.{attr}={value!r}")
    return bad


def written_constants(tools_source: str) -> dict[str, list[tuple[str, Any]]]:
    """Per function of ``tools_source``: the ``(attribute, constant)`` pairs it writes into a
    record (``record['status'] = 'paid'``)."""
    return _written(tools_source)


__all__ = [
    "Domains", "categorical", "domains", "enum_from_text", "out_of_domain", "stated_values",
    "written_constants",
]  # fmt: skip
