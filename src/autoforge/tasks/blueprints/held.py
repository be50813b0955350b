"""Ids inside nested values that name an entry of the owner's own keyed map, read from the data
and kept so in generated states.

In the data an order's ``payment_history[].payment_method_id`` is always a key of its user's
``payment_methods``: the id points into a map the referenced record holds, not at a collection.
Nested values copied from the data keep the id of the data's owner, so in a generated state
the order paid with a method its user does not have, and every refund or exchange "to the
original payment method" failed or went nowhere. :func:`held_keys` finds such fields (at
least :data:`_LEAST` values, :data:`_AGREE` of them keys of the owner's map) and :func:`rehold`
points each at a key of the generated owner's map.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from autoforge.env import StateSchema

_AGREE = 0.9
_LEAST = 4


@dataclass(frozen=True)
class HeldKey:
    """``collection.attribute[...].field`` holds a key of ``target[record.owner].holding``."""

    collection: str
    attribute: str
    field: str
    owner: str
    target: str
    holding: str


def _maps(records: list[Any]) -> list[str]:
    """The attributes of ``records`` that are keyed maps of records (``payment_methods``:
    ``{id: {...}}``) in most records that have them."""
    names: dict[str, list[bool]] = {}
    for record in records[:200]:
        for name, value in record.items() if isinstance(record, Mapping) else []:
            if isinstance(value, Mapping) and value:
                names.setdefault(name, []).append(
                    all(isinstance(v, Mapping) for v in value.values())
                )
    return [n for n, flags in names.items() if sum(flags) >= _AGREE * len(flags)]


def _fields(value: Any) -> Iterator[tuple[str, Any]]:
    """``(field, value)`` for each scalar field of each object in ``value`` (objects, lists)."""
    if isinstance(value, Mapping):
        for name, inner in value.items():
            if isinstance(inner, Mapping | list):
                yield from _fields(inner)
            elif isinstance(inner, str):
                yield str(name), inner
    elif isinstance(value, list):
        for inner in value:
            yield from _fields(inner)


def held_keys(schema: StateSchema, data: Mapping[str, Any]) -> list[HeldKey]:
    """The nested fields whose values in ``data`` are keys of a map the referenced record
    holds (see the module)."""
    found: list[HeldKey] = []
    for coll in schema.collections:
        table = data.get(coll.name)
        if not isinstance(table, Mapping) or not table:
            continue
        nested = [a.name for a in coll.attributes if a.type in ("object", "array")]
        for ref in coll.attributes:
            targets = data.get(ref.references or "")
            if ref.type == "array" or not isinstance(targets, Mapping) or not targets:
                continue
            for holding in _maps(list(targets.values())):
                for attr in nested:
                    for name in _held_fields(table, attr, ref.name, targets, holding):
                        found.append(HeldKey(coll.name, attr, name, ref.name,
                                             ref.references or "", holding))  # fmt: skip
    return found


def _held_fields(
    table: Mapping[str, Any], attr: str, owner: str, targets: Mapping[str, Any], holding: str
) -> list[str]:
    hits: dict[str, list[bool]] = {}
    for record in list(table.values())[:500]:
        if not isinstance(record, Mapping):
            continue
        held = (targets.get(str(record.get(owner))) or {}).get(holding)
        keys = held if isinstance(held, Mapping) else {}
        for name, value in _fields(record.get(attr)):
            hits.setdefault(name, []).append(value in keys)
    return sorted(n for n, h in hits.items() if len(h) >= _LEAST and sum(h) >= _AGREE * len(h))


def rehold(state: dict[str, Any], rules: list[HeldKey], rng: random.Random) -> None:
    """Point each field of ``rules`` that names no key of its owner's map at one of them (at
    random), in place; a record that changes is replaced by a changed copy. A field whose
    owner holds no such map is left as it is."""
    for rule in rules:
        records = state.get(rule.collection) or {}
        targets = state.get(rule.target) or {}
        for key, record in list(records.items()):
            owner = targets.get(str(record.get(rule.owner)))
            held = owner.get(rule.holding) if isinstance(owner, Mapping) else None
            if not isinstance(held, Mapping) or not held:
                continue
            choices = sorted(held)
            value = _pointed(record.get(rule.attribute), rule.field, held, choices, rng)
            if value is not None:
                records[key] = {**record, rule.attribute: value}


def _pointed(
    value: Any, field: str, held: Mapping[str, Any], choices: list[str], rng: random.Random
) -> Any:
    """A copy of ``value`` with each ``field`` outside ``held`` set to one of ``choices``, or
    None when every one is inside."""
    if isinstance(value, list):
        items = [_pointed(v, field, held, choices, rng) for v in value]
        if all(v is None for v in items):
            return None
        return [new if new is not None else old for new, old in zip(items, value, strict=True)]
    if not isinstance(value, Mapping):
        return None
    changed = {k: _pointed(v, field, held, choices, rng) for k, v in value.items()
               if isinstance(v, Mapping | list)}  # fmt: skip
    out = {k: v for k, v in changed.items() if v is not None}
    current = value.get(field)
    if isinstance(current, str) and current not in held:
        out[field] = rng.choice(choices)
    return {**value, **out} if out else None


__all__ = ["HeldKey", "held_keys", "rehold"]
