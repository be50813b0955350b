"""Identifiers drawn from related records when no collection of the state schema is theirs.

``item_ids``, ``new_item_ids`` or ``payment_method_id`` name no collection, but their values sit
inside the records a call acts on (an order's item lines), in an id-keyed map of the user's
record (``payment_methods``), or in a catalogue that lists the old value among its siblings
(the other variants of an ordered product). Invented values made such writes fail. Pure
functions over plain state data; :class:`~autoforge.tasks.gold.instantiate.FactChooser` uses them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from jsonschema import Draft202012Validator

from autoforge.lexicon import singular
from autoforge.tasks.states.domain import categorical


def names_map(attr: str, key: str) -> bool:
    """Whether a map attribute is named after the records ``key`` identifies
    (``payment_methods`` for ``payment_method_id``)."""
    return f"{singular(attr)}_id" == key or f"{singular(attr)}id" == key.lower()


def map_keys(record: Mapping[str, Any], key: str) -> Iterator[str]:
    """The keys of a map attribute named after ``key``'s records and keyed by their ids
    (``payment_methods: {"paypal_1": {...}}`` for ``payment_method_id``)."""
    for attr, value in record.items():
        if not (names_map(attr, key) and isinstance(value, dict) and value):
            continue
        if all(isinstance(v, dict) for v in value.values()):
            yield from (k for k in value if isinstance(k, str))


def element_groups(value: Any, key: str) -> Iterator[list[dict[str, Any]]]:
    """Every list or map nested in ``value`` whose elements are all objects holding ``key``."""
    if isinstance(value, dict):
        elems = list(value.values())
    elif isinstance(value, list):
        elems = value
    else:
        return
    group = [e for e in elems if isinstance(e, dict) and key in e]
    if group and len(group) == len(elems):
        yield group
    for e in elems:
        if isinstance(e, dict | list):
            yield from element_groups(e, key)


def paired_values(name: str, partial: Mapping[str, Any]) -> Iterator[tuple[str, set[str]]]:
    """For a qualified identifier (``new_item_ids``), the argument it qualifies already in
    ``partial`` (``item_ids``): ``(element field name, reprs of its values)``."""
    words = name.split("_")
    for cut in range(1, len(words) - 1):
        paired = "_".join(words[cut:])
        old = partial.get(paired)
        if old is None:
            continue
        many = isinstance(old, list)
        yield (singular(paired) if many else paired), {repr(v) for v in (old if many else [old])}


def replacements(
    state: Mapping[str, Any], skip: set[str], field_name: str, olds: set[str], kind: type,
    banned: set[str],
) -> dict[str, Any]:  # fmt: skip
    """Values of ``field_name`` beside an old value in a catalogue outside the collections in
    ``skip`` (those the call acts on: an order lists its own items, not their replacements),
    keyed by repr; neither an old value nor a ``banned`` one."""
    found: dict[str, Any] = {}
    for coll, records in state.items():
        if coll in skip or not isinstance(records, Mapping):
            continue
        for record in records.values():
            for group in element_groups(record, field_name):
                values = [e[field_name] for e in group]
                if not olds & {repr(v) for v in values}:
                    continue
                for v in values:
                    fresh = repr(v) not in olds and repr(v) not in banned
                    if type(v) is kind and fresh and repr([v]) not in banned:
                        found.setdefault(repr(v), v)
    return found


def observed_category(state: Mapping[str, Any], name: str, limit: int = 50) -> list[Any]:
    """The values a nested field called ``name`` takes in the state's records when they look
    like a category (an address ``country`` that is always "USA"), with repeats; else ``[]``.
    A new value the user states is then one the data would hold, not a random country code."""
    seen: list[Any] = []
    for records in state.values():
        if not isinstance(records, Mapping):
            continue
        for record in list(records.values())[:limit]:
            if isinstance(record, Mapping):
                seen.extend(v for v in _nested_values(record, name) if isinstance(v, str))
    return seen if seen and categorical(seen) else []


def column_values(
    state: Mapping[str, Any], name: str, kind: type | tuple[type, ...], limit: int = 200
) -> list[Any]:
    """The values (with repeats, booleans left out) of the records' own attribute ``name``
    of type ``kind``, in every collection: what the data holds in that column."""
    seen: list[Any] = []
    for records in state.values():
        if not isinstance(records, Mapping):
            continue
        for record in list(records.values())[:limit]:
            value = record.get(name) if isinstance(record, Mapping) else None
            if isinstance(value, kind) and not isinstance(value, bool) and value != "":
                seen.append(value)
    return seen


def shaped_values(state: Mapping[str, Any], name: str, schema: Mapping[str, Any]) -> list[Any]:
    """The lists or objects (with repeats; empty ones left out) the records hold in their own
    attribute ``name`` that the JSON ``schema`` (an array or object) admits: the lines of an
    existing request, ready to be a new request's lines."""
    kind = {"array": list, "object": dict}.get(str(schema.get("type")))
    if kind is None:
        return []
    fits = Draft202012Validator(dict(schema))
    return [v for v in column_values(state, name, kind) if v and fits.is_valid(v)]


def _nested_values(value: Any, name: str) -> Iterator[Any]:
    """Values under ``name`` inside the objects nested in a record (not its own attributes,
    which the domains of :mod:`autoforge.tasks.states.domain` already cover)."""
    for item in value.values() if isinstance(value, Mapping) else value:
        if isinstance(item, Mapping):
            if name in item:
                yield item[name]
            yield from _nested_values(item, name)
        elif isinstance(item, list):
            yield from _nested_values(item, name)
