"""State repair: make S0 satisfy a business rule that a gold call's error message names.

Tools often say what they need: ``order ORD-3 is shipped; only pending orders can be
cancelled``. When such a message names an enum value of an attribute (``pending`` of
``orders.status``) and the records it is about (``ORD-3``, or the orders of the customer and book
it names), instantiation sets that attribute in S0 and runs the blueprint again, instead of
drawing new facts. S0 is generated anyway, so this only makes it consistent with the blueprint.
A stated guard's fix (:func:`apply_fix`) is applied the same way: a status set, or, for a
uniqueness rule, the record that already holds the call's values left out of S0. A filter
for "the only one" whose items share every value gets one item made unique in S0 from the
values the items already hold (:func:`selective_fixes`).
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from autoforge.env import EnvironmentSpec, StateSchema
from autoforge.lexicon import entity_of, singular
from autoforge.tasks.gold.alike import fresh_like

_TOKEN = re.compile(r"[\w-]+")


def _mentions(text: str, value: str, tokens: set[str] | None = None) -> int:
    """Position of ``value`` as a word in ``text`` (also with spaces for underscores), or -1.

    With ``tokens`` (the message's words) a value that is one word is first checked against
    them, which avoids a regex per candidate key.
    """
    one_word = _TOKEN.fullmatch(value) and "_" not in value
    if tokens is not None and one_word and value.lower() not in tokens:
        return -1
    lowered = text.lower()
    for form in (value, value.replace("_", " ")):
        start = lowered.find(form.lower())
        while start >= 0:
            end = start + len(form)
            before = lowered[start - 1] if start else " "
            after = lowered[end] if end < len(lowered) else " "
            if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
                return start
            start = lowered.find(form.lower(), start + 1)
    return -1


def _anywhere(lowered: str, value: str) -> bool:
    """Whether ``value`` (or it with spaces for underscores) occurs in ``lowered`` at all: a
    substring test that rules out most keys before :func:`_mentions` looks for a word."""
    low = value.lower()
    return low in lowered or ("_" in low and low.replace("_", " ") in lowered)


def _targets(
    state: dict[str, Any], collection: str, named: dict[str, set[str]]
) -> tuple[list[str], bool]:
    """Records of ``collection`` the message is about, and whether they are named directly.

    Named directly (``order ORD-3``), or else related to every named record of the other
    collections (referencing or mentioning them in nested values: *the customer's order that
    contains the book*).
    """
    records = state.get(collection) or {}
    direct = [k for k in records if k in named.get(collection, set())]
    if direct:
        return direct, True
    others: set[str] = set()
    for coll, keys in named.items():
        if coll != collection:
            others |= keys
    if not others:
        return [], False
    quoted = [json.dumps(o) for o in others]
    related = []
    for key, record in records.items():
        text = _record_json(collection, key, record)
        if all(q in text for q in quoted):
            related.append(key)
    return related, False


#: ``(collection, key) -> (record, its JSON)``: the records of the base populations recur in
#: every S0 drawn from them (the same objects, or equal copies after a repair), so each is
#: written as JSON once. A record is never changed in place (see :func:`repair_state`).
_TEXTS: dict[tuple[str, str], tuple[Any, str]] = {}


def _record_json(collection: str, key: str, record: Any) -> str:
    entry = _TEXTS.get((collection, key))
    if entry is None or (entry[0] is not record and entry[0] != record):
        if len(_TEXTS) >= 50_000:
            _TEXTS.clear()
        entry = _TEXTS[(collection, key)] = (record, json.dumps(record))
    return entry[1]


def _best(options: list[tuple[int, str]], message: str, collection: str) -> str:
    """The asked-for value among several: one used as an adjective of the collection's noun
    ("only *pending* orders", "no *delivered* order") wins, else the first mentioned."""
    nouns = (collection.lower(), singular(collection).lower())

    def describes_noun(pos: int, value: str) -> bool:
        rest = message[pos + len(value) :].lower().split()
        return bool(rest) and rest[0].strip(".,;:") in nouns

    return min(options, key=lambda o: (not describes_noun(*o), o[0]))[1]


Repair = Literal["changed", "unchanged", "conflict"]


def repair_state(
    state: dict[str, Any],
    spec: EnvironmentSpec,
    message: str,
    history: dict[tuple[str, str, str], Any] | None = None,
) -> Repair:
    """Set the enum attribute values ``message`` asks for on the records it is about, in
    ``state`` (a changed record is replaced by a changed copy: record objects themselves are
    never mutated, so they can be shared and cached).

    ``changed``; ``unchanged`` when the message names no enum value or no record, or the
    records already have the value; ``conflict`` when it would undo an earlier repair recorded
    in ``history`` (one call needs the order pending, a later one needs it delivered: no S0
    satisfies both, so the blueprint should be given up rather than repaired back and forth).
    """
    named: dict[str, set[str]] = {}
    tokens = {t.lower() for t in _TOKEN.findall(message)}
    lowered = message.lower()
    for name, records in state.items():
        if isinstance(records, dict):
            keys = {k for k in records if isinstance(k, str) and _anywhere(lowered, k)
                    and _mentions(message, k, tokens) >= 0}  # fmt: skip
            if keys:
                named[name] = keys
    changed = False
    history = {} if history is None else history
    for coll in spec.state_schema.collections:
        found: tuple[list[str], bool] | None = None
        for attr in coll.attributes:
            if not attr.enum:
                continue
            wanted = [(pos, v) for v in attr.enum if (pos := _mentions(message, v, tokens)) >= 0]
            if not wanted:
                continue
            found = found or _targets(state, coll.name, named)
            targets, direct = found
            mentioned = {v for _, v in wanted}
            for key in targets:
                record = state[coll.name][key]
                current = record.get(attr.name)
                best = _best(wanted, message, coll.name)
                # a record named directly is repaired only when the message names its current
                # value too ("is shipped; only pending ..."): then this attribute is the issue
                if best != current and (not direct or current in mentioned):
                    slot = (coll.name, key, attr.name)
                    if slot in history and history[slot] != best:
                        return "conflict"
                    record = state[coll.name][key] = dict(record)  # a new record, not in place
                    history[slot] = record[attr.name] = best
                    changed = True
    return "changed" if changed else "unchanged"


def set_value(
    state: dict[str, Any],
    collection: str,
    key: str,
    attribute: str,
    value: Any,
    history: dict[tuple[str, str, str], Any] | None = None,
) -> Repair:
    """Set one attribute of one record of ``state`` (as a changed copy of the record), the
    repair a stated guard asks for; ``conflict`` / ``unchanged`` as :func:`repair_state`."""
    record = (state.get(collection) or {}).get(key)
    if not isinstance(record, dict) or record.get(attribute) == value:
        return "unchanged"
    history = {} if history is None else history
    slot = (collection, key, attribute)
    if slot in history and history[slot] != value:
        return "conflict"
    record = state[collection][key] = dict(record)
    history[slot] = record[attribute] = value
    return "changed"


def apply_fix(
    state: dict[str, Any],
    fix: tuple[str, str, str, Any],
    history: dict[tuple[str, str, str], Any] | None = None,
) -> Repair:
    """Apply a stated guard's fix ``(collection, key, attribute, value)``: the attribute set
    (:func:`set_value`), or with no attribute (``""``) the record removed from ``state`` (a
    uniqueness rule: S0 must not hold the record the call would create again); ``conflict``
    when an earlier repair set an attribute of that record (a status the run needed)."""
    collection, key, attribute, value = fix
    if attribute:
        return set_value(state, collection, key, attribute, value, history)
    records = state.get(collection)
    if not isinstance(records, dict) or key not in records:
        return "unchanged"
    history = {} if history is None else history
    if any(slot[:2] == (collection, key) for slot in history):
        return "conflict"
    state[collection] = {k: v for k, v in records.items() if k != key}
    history[(collection, key, "")] = None
    return "changed"


def shape_to_value(
    state: dict[str, Any], data: Mapping[str, Any], slot: tuple[str, str, str]
) -> bool:
    """Give the record a repair moved into a status the attributes the data's records in that
    status all show: cleared (None) where every such record has none, filled from one of them
    where every such record has one and this record has none (:func:`_filled`). Why: a
    record only set to ``approved`` kept no approved amount and a denial reason, a record the
    API itself then refuses or fails on. Needs two records of the data in that status (one
    shows no pattern); whether anything changed."""
    collection, key, attribute = slot
    record = (state.get(collection) or {}).get(key)
    rows = data.get(collection)
    if not attribute or not isinstance(record, dict) or not isinstance(rows, Mapping):
        return False
    value = record.get(attribute)
    donors = [r for k, r in sorted(rows.items()) if k != key and isinstance(r, Mapping)
              and r.get(attribute) == value]  # fmt: skip
    if len(donors) < 2:
        return False
    shaped = dict(record)
    for name, current in record.items():
        held = [d.get(name) for d in donors]
        if current is not None and all(v is None for v in held):
            shaped[name] = None
        elif current is None and all(v is not None for v in held):
            shaped[name] = _filled(rows, name, held, key, f"{collection}/{key}/{name}")
    if shaped == record:
        return False
    state[collection][key] = shaped
    return True


def _filled(rows: Mapping[str, Any], name: str, held: list[Any], key: str, seed: str) -> Any:
    """A value for attribute ``name`` like the ones ``held`` shows: one of them, or, where the
    data's text values there never repeat (a tracking number, an e-mail), a new one shaped
    like them, so that no two records share what the API keeps unique."""
    column = [r.get(name) for r in rows.values() if isinstance(r, Mapping)]
    texts = [v for v in column if isinstance(v, str)]
    if len(texts) >= 3 and len(set(texts)) == len(texts) == len([v for v in column if v]):
        new = fresh_like(texts, random.Random(seed))
        if new is not None:
            return new
    return copy.deepcopy(held[len(key) % len(held)])


def referenced(spec: EnvironmentSpec, collection: str) -> bool:
    """Whether a record of another collection may hold a key of ``collection`` (an attribute
    that references it, or is named after its key): removing one of its records could then
    leave a dangling reference."""
    schema = spec.state_schema
    return any(
        coll.name != collection
        and (attr.references == collection or entity_of(attr.name, coll.name, schema) == collection)
        for coll in schema.collections
        for attr in coll.attributes
    )


Fix = tuple[str, str, str, Any]


def selective_fixes(
    items: Sequence[Any],
    path: Sequence[Any],
    start: Mapping[str, Any],
    schema: StateSchema,
    admits: Callable[[Any], bool] = lambda item: True,
) -> list[Fix]:
    """S0 changes after which one of a filter's ``items`` holds a value of the field ``path``
    that no other item holds ("my only cancelled order"), or ``[]``.

    The value held by the fewest items is kept by one of them (one that ``admits`` takes: the
    record a later call must still be able to change); the others take the value the most
    items hold besides it, so no value is made up: both are values the records already had.
    Only items that are S0 records of ``schema``'s collections, unchanged in that field since
    ``start``, are changed. Why: S0 is generated, and a draw of a few statuses over a user's
    handful of records rarely leaves one unique."""
    if len(path) != 1 or not isinstance(path[0], str):
        return []
    name = path[0]
    values = [item.get(name) if isinstance(item, Mapping) else None for item in items]
    counts: dict[str, int] = {}
    for value in values:
        if isinstance(value, str) and value:
            counts[value] = counts.get(value, 0) + 1
    for rare in sorted(counts, key=lambda v: (counts[v], v)) if len(counts) > 1 else []:
        common = max(sorted(v for v in counts if v != rare), key=lambda v: counts[v])
        held = [(item, _s0_record(item, name, start, schema))
                for item, v in zip(items, values, strict=True) if v == rare]  # fmt: skip
        fixed = [item for item, found in held if found is None]  # not S0's: it keeps the value
        kept = next((item for item in fixed or [i for i, _ in held] if admits(item)), None)
        if kept is not None and len(fixed) <= 1:
            return [(*found, name, common) for item, found in held if found and item is not kept]
    return []


def _s0_record(
    item: Any, name: str, start: Mapping[str, Any], schema: StateSchema
) -> tuple[str, str] | None:
    """``(collection, key)`` of the S0 record ``item`` is, when its ``name`` is as in S0."""
    for coll in schema.collections:
        key = item.get(coll.primary_key)
        record = (start.get(coll.name) or {}).get(str(key)) if key is not None else None
        if isinstance(record, Mapping) and record.get(name) == item.get(name):
            return coll.name, str(key)
    return None
