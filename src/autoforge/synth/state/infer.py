"""From-data mode: infer the state schema from an existing database (``db.json``).

Collections are the top-level keys whose values are dicts of records keyed by id, or lists of
records with an id-like field (turned into dicts keyed by that field). Attribute types come from
the values; nested objects and arrays stay ``object``/``array`` with their inner keys described,
because the tool functions are written against real record shapes, not a flattened model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from autoforge.env import Attribute, AttributeType, CollectionSchema, StateSchema
from autoforge.errors import UserError
from autoforge.tooldocs import is_id_like, singular

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$")
_SAMPLE = 400


class DataShapeError(UserError, ValueError):
    """The data file has no collections autoforge can use; the message says what it expected."""


def _id_field(records: list[Mapping[str, Any]]) -> str | None:
    """The field every record has with a distinct scalar value (the best id candidate)."""
    if not records:
        return None
    common = set(records[0])
    for rec in records[1:]:
        common &= set(rec)
    candidates = [k for k in records[0] if k in common and is_id_like(k)]
    for key in candidates:
        values = [r[key] for r in records]
        if all(isinstance(v, str | int) for v in values) and len(set(values)) == len(values):
            return key
    return None


def data_to_state(data: Mapping[str, Any]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Split ``data`` into collections ``{name: {key: record}}`` and warnings for what is left out.

    Lists of records become dicts keyed by their id field (stringified). Values that are not
    collections of records are left out and named in the warnings.
    """
    state: dict[str, dict[str, Any]] = {}
    warnings: list[str] = []
    for name, value in data.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            state[name] = dict(value)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            key = _id_field(value)
            if key is None:
                warnings.append(f"{name}: list of records without a unique id-like field, left out")
                continue
            state[name] = {str(r[key]): r for r in value}
        elif isinstance(value, dict | list) and not value:
            state[name] = {}
        else:
            warnings.append(f"{name}: not a collection of records, left out")
    if not state:
        raise DataShapeError(
            "no collections found: expected top-level keys whose values are dicts of records "
            "keyed by id, or lists of records with an id field"
        )
    return state, warnings


def _sample(records: list[Any]) -> list[Any]:
    if len(records) <= _SAMPLE:
        return records
    step = len(records) / _SAMPLE
    return [records[int(i * step)] for i in range(_SAMPLE)]


def is_map(value: Any) -> bool:
    """Whether a nested dict is a map keyed by data (ids, dates), not a record with fields."""
    if not isinstance(value, dict) or not value:
        return False
    if not all(isinstance(v, dict) for v in value.values()):
        return False
    return all(any(c.isdigit() for c in str(k)) for k in value) or len(value) > 20


def _inner_keys(values: Iterable[Any]) -> list[str]:
    keys: dict[str, None] = {}
    for v in values:
        if isinstance(v, dict):
            for k in v:
                keys.setdefault(str(k), None)
    return list(keys)


def _describe_nested(values: list[Any]) -> str:
    """One line that names the inner keys of an object or array attribute."""
    dicts = [v for v in values if isinstance(v, dict)]
    lists = [v for v in values if isinstance(v, list)]
    if dicts:
        if any(is_map(d) for d in dicts):
            inner = _inner_keys(x for d in dicts if is_map(d) for x in d.values())
            return f"map from id to object with keys: {', '.join(inner[:15])}"
        return f"object with keys: {', '.join(_inner_keys(dicts)[:15])}"
    items = [x for lst in lists for x in lst]
    if items and all(isinstance(x, dict) for x in items):
        return f"list of objects with keys: {', '.join(_inner_keys(items)[:15])}"
    if items:
        kinds = sorted({type(x).__name__ for x in items})
        return f"list of {'/'.join(kinds)}"
    return ""


def _scalar_type(name: str, values: list[Any]) -> tuple[AttributeType, list[str] | None]:
    kinds = {type(v) for v in values}
    if kinds <= {bool}:
        return "boolean", None
    if kinds <= {int}:
        return ("id" if is_id_like(name) else "integer"), None
    if kinds <= {int, float}:
        return "number", None
    if kinds <= {str}:
        strs: list[str] = values
        if all(_DATE.match(s) for s in strs):
            return "date", None
        if all(_DATETIME.match(s) for s in strs):
            return "datetime", None
        if is_id_like(name):
            return "id", None
        distinct = sorted(set(strs))
        few = 1 < len(distinct) <= 8 and len(strs) >= max(10, 3 * len(distinct))
        if few and max(len(s) for s in distinct) <= 40:
            return "enum", distinct
        return "string", None
    return "string", None


def _attribute(name: str, values: list[Any], total: int) -> Attribute:
    present = [v for v in values if v is not None]
    nullable = len(present) < total
    if present and all(isinstance(v, dict) for v in present):
        return Attribute(
            name=name, type="object", description=_describe_nested(present), nullable=nullable
        )
    if present and all(isinstance(v, list) for v in present):
        return Attribute(
            name=name, type="array", description=_describe_nested(present), nullable=nullable
        )
    typ, enum = _scalar_type(name, present) if present else ("string", None)
    return Attribute(name=name, type=typ, enum=enum, nullable=nullable)


def _primary_key(name: str, coll: Mapping[str, Any]) -> str:
    records = _sample(list(coll.items()))
    if records:
        first = records[0][1]
        for field in first:
            if all(str(rec.get(field)) == str(key) for key, rec in records):
                return str(field)
    return f"{singular(name)}_id"


def infer_collection(name: str, coll: Mapping[str, Any]) -> CollectionSchema:
    """The schema of one collection: primary key, attributes with types, nested keys described."""
    records = [r for r in _sample(list(coll.values())) if isinstance(r, dict)]
    pk = _primary_key(name, coll)
    order: dict[str, None] = {}
    for rec in records:
        for k in rec:
            order.setdefault(str(k), None)
    attrs = []
    for attr in order:
        values = [rec.get(attr) for rec in records]
        attrs.append(_attribute(attr, values, len(records)))
    if pk not in order:
        attrs.insert(0, Attribute(name=pk, type="id", description="the record's key"))
    else:
        attrs = [a.model_copy(update={"type": "id"}) if a.name == pk else a for a in attrs]
    return CollectionSchema(
        name=name,
        primary_key=pk,
        description=f"{len(coll)} records keyed by {pk}",
        attributes=attrs,
    )


def _link_references(schema: StateSchema, state: Mapping[str, Mapping[str, Any]]) -> None:
    """Set ``references`` on id attributes whose name or values point at another collection."""
    by_pk = {c.primary_key: c.name for c in schema.collections}
    by_singular = {f"{singular(c.name)}_id": c.name for c in schema.collections}
    for coll in schema.collections:
        for attr in coll.attributes:
            if attr.name == coll.primary_key or attr.type not in ("id", "array", "string"):
                continue
            target = by_pk.get(attr.name) or by_singular.get(attr.name)
            if target is None and attr.type == "array":
                target = _array_reference(coll.name, attr.name, state)
            if target is not None:
                attr.references = target


def _array_reference(coll: str, attr: str, state: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The collection whose keys an array of strings holds (``users.orders`` -> ``orders``)."""
    values: list[str] = []
    for rec in _sample(list(state[coll].values()))[:50]:
        v = rec.get(attr) if isinstance(rec, dict) else None
        if isinstance(v, list):
            values.extend(x for x in v if isinstance(x, str))
    if not values:
        return None
    for name, other in state.items():
        if all(v in other for v in values):
            return name
    return None


def infer_schema(state: Mapping[str, Mapping[str, Any]]) -> StateSchema:
    """The state schema of collections already split out by :func:`data_to_state`."""
    schema = StateSchema(collections=[infer_collection(n, c) for n, c in state.items()])
    _link_references(schema, state)
    return schema


def nested_field_names(state: Mapping[str, Mapping[str, Any]], depth: int = 4) -> set[str]:
    """Every field name that occurs inside records, at any depth (map keys excluded)."""
    names: set[str] = set()

    def walk(value: Any, level: int) -> None:
        if level > depth:
            return
        if isinstance(value, dict):
            mapped = is_map(value)
            for k, v in value.items():
                if not mapped:
                    names.add(str(k))
                walk(v, level + 1)
        elif isinstance(value, list):
            for v in value[:5]:
                walk(v, level + 1)

    for coll in state.values():
        for rec in _sample(list(coll.values()))[:50]:
            walk(rec, 0)
    return names


def _shrink(value: Any, width: int) -> Any:
    """A copy of ``value`` with long maps and lists cut to ``width`` entries (marked)."""
    if isinstance(value, dict):
        items = list(value.items())
        out = {k: _shrink(v, width) for k, v in items[:width]}
        if len(items) > width and is_map(value):
            out["..."] = f"{len(items) - width} more entries of the same shape"
        elif len(items) > width:
            out.update({k: _shrink(v, width) for k, v in items[width:]})
        return out
    if isinstance(value, list):
        head = [_shrink(v, width) for v in value[:width]]
        return [*head, "..."] if len(value) > width else head
    return value


def record_sample(state: Mapping[str, Mapping[str, Any]], collection: str, max_chars: int) -> str:
    """A real record of ``collection`` as compact JSON, nested maps cut so it fits ``max_chars``."""
    records = state.get(collection) or {}
    if not records:
        return "{}"
    key, rec = next(iter(records.items()))
    for width in (3, 2, 1):
        text = json.dumps({key: _shrink(rec, width)}, ensure_ascii=False)
        if len(text) <= max_chars:
            return text
    return text[: max_chars - 3] + "..."


def field_paths(records: Iterable[Any], depth: int = 3) -> dict[str, list[str]]:
    """Where each field sits inside records, through plain nested objects only.

    ``{"address1": ["address", "address1"], "email": ["email"]}``. Maps keyed by data and lists
    are not entered: a template can only set a field it reaches through named keys.
    """
    paths: dict[str, list[str]] = {}

    def walk(value: Any, prefix: list[str]) -> None:
        if len(prefix) >= depth or not isinstance(value, dict) or is_map(value):
            return
        for k, v in value.items():
            paths.setdefault(str(k), [*prefix, str(k)])
            walk(v, [*prefix, str(k)])

    for rec in list(records)[:50]:
        walk(rec, [])
    return paths


def schema_field_paths(coll: CollectionSchema) -> dict[str, list[str]]:
    """Field paths from a schema alone: attributes, plus keys named by ``object with keys: ...``."""
    paths: dict[str, list[str]] = {a.name: [a.name] for a in coll.attributes}
    for attr in coll.attributes:
        prefix = "object with keys: "
        if attr.type == "object" and attr.description.startswith(prefix):
            for key in attr.description[len(prefix) :].split(","):
                key = key.strip()
                if key:
                    paths.setdefault(key, [attr.name, key])
    return paths
