"""An identifier the user would not know, said as how its record differs from a sibling's.

A person who swaps one variant of a product for another does not quote the new variant's id;
they say "the one in blue, size L". When a write's argument is an identifier the user states
(no lookup chose it) and the task's S0 keeps its record among siblings (the entries of one
map or list) together with the record of another value of the same call (the variant being
swapped out), the identifier is described by the fields in which the two differ, with just
enough of them that no other sibling matches. The agent then finds the id from the data.

Everything is read from the S0 and the gold call: no field, collection or value is named here.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from autoforge.lexicon import is_identifier_name, singular, words
from autoforge.tasks.blueprints.blueprint import Blueprint, FactRef, ListBinding
from autoforge.tasks.model import GoldCall

#: Most fields said to describe one record (more reads as a spec sheet, not a request).
MOST_FIELDS = 3
#: Records scanned in S0 per value looked for (a bound on the work for a large state).
MOST_NODES = 200_000

Entries = list[tuple[str, dict[str, Any]]]


def described_facts(bp: Blueprint, calls: list[GoldCall], facts: dict[str, Any],
                    state: dict[str, Any]) -> dict[str, str]:  # fmt: skip
    """Per stated identifier fact that S0 lets a person describe, its description
    (``color blue, size L``); facts it does not apply to are left out."""
    out: dict[str, str] = {}
    found: list[Entries] | None = None  # S0's maps and lists of records, read once
    for node in bp.calls:
        gold = next((c for c in calls if c.node == node.id), None)
        for name, binding in node.args.items() if gold is not None else ():
            ref = binding.items[0] if isinstance(binding, ListBinding) and len(
                binding.items) == 1 else binding  # fmt: skip
            if not isinstance(ref, FactRef) or ref.name in out or ref.name not in facts:
                continue
            if bp.fact(ref.name).role != "value" or not is_identifier_name(singular(name)):
                continue
            found = list(_containers(state, [MOST_NODES])) if found is None else found
            said = _describe(name, facts[ref.name], gold.arguments, found)  # type: ignore[union-attr]
            if said:
                out[ref.name] = said
    return out


def _describe(name: str, value: Any, args: dict[str, Any], found: list[Entries]) -> str | None:
    values = value if isinstance(value, list) else [value]
    if not values or not all(isinstance(v, str) and v for v in values):
        return None
    parts = []
    for i, one in enumerate(values):
        said = None
        for other in _counterparts(name, i, len(values), args):
            entries = _siblings(found, one, other)
            if entries is not None:
                said = _difference(entries, one, other)
                break
        if said is None:
            return None
        parts.append(said)
    return "; ".join(parts)


def _counterparts(name: str, index: int, size: int, args: dict[str, Any]) -> Iterator[str]:
    """The call's other string values, the one at ``index`` of a list as long as ``name``'s
    first (the item a new item replaces sits at the same place)."""
    for key, value in args.items():
        if key != name and isinstance(value, list) and len(value) == size and isinstance(
                value[index], str):  # fmt: skip
            yield value[index]
    for key, value in args.items():
        if key != name and isinstance(value, str):
            yield value


def _siblings(found: list[Entries], one: str, other: str) -> Entries | None:
    """The entries of the first map or list of records among ``found`` that holds records
    keyed by both ``one`` and ``other``; None when there is none."""
    for entries in found:
        keys = {k for k, _ in entries}
        if one in keys and other in keys and one != other:
            return entries
    return None


def _containers(node: Any, budget: list[int]) -> Iterator[Entries]:
    budget[0] -= 1
    if budget[0] < 0:
        return
    if isinstance(node, dict):
        if len(node) > 1 and all(isinstance(v, dict) for v in node.values()):
            yield [(str(k), v) for k, v in node.items()]
        for v in node.values():
            if isinstance(v, dict | list):
                yield from _containers(v, budget)
    elif isinstance(node, list):
        records = [v for v in node if isinstance(v, dict)]
        if len(records) > 1 and len(records) == len(node):
            keys = [_own_key(r) for r in records]
            if all(keys):
                yield [(str(k), r) for k, r in zip(keys, records, strict=True)]
        for v in records:
            yield from _containers(v, budget)


def _own_key(record: dict[str, Any]) -> str | None:
    """The value of a record's own identifier field (``item_id``), if it has one."""
    return next((str(v) for k, v in record.items()
                 if is_identifier_name(k) and isinstance(v, str | int)), None)  # fmt: skip


def _said_fields(record: dict[str, Any], prefix: str = "") -> dict[str, str]:
    """The fields a person describes a record by: its strings that are no identifiers, the
    ones in nested objects included (``options.color``)."""
    out: dict[str, str] = {}
    for key, value in record.items():
        if isinstance(value, dict):
            out.update(_said_fields(value, f"{prefix}{key}."))
        elif isinstance(value, str) and value and not is_identifier_name(str(key)):
            out[f"{prefix}{key}"] = value
    return out


def _difference(entries: Entries, one: str, other: str) -> str | None:
    """``color blue, size L``: the fewest fields of ``one``'s record, at least one of them
    one where it differs from ``other``'s, that no other entry matches as well (the ones
    it differs in first); None when no such set exists."""
    records = dict(entries)
    mine, theirs = _said_fields(records[one]), _said_fields(records[other])
    differ = [k for k, v in mine.items() if theirs.get(k) != v]
    usable = differ + [k for k in mine if k not in differ]  # a kept field narrows it too
    fields = {k: _said_fields(r) for k, r in entries if k != one}
    for size in range(1, min(len(usable), MOST_FIELDS) + 1):
        for chosen in combinations(usable, size):
            if chosen[0] not in differ:  # what the user asks for differs in something
                break
            if not any(all(f.get(k) == mine[k] for k in chosen) for f in fields.values()):
                return ", ".join(f"{words(k.rsplit('.', 1)[-1])} {mine[k]}" for k in chosen)
    return None
