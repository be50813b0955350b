"""Base states sent to the sandbox worker as changes to one it already holds.

Task generation binds a new start state S0 for every few attempts (and for each S0 repair);
each S0 differs from one held before by a few records (a perturbed copy of one of a handful
of generated populations, or a repaired copy of an S0). Sending it whole cost a JSON encoding
of the full state on the host and a decoding in the worker, a twentieth of the host's
generation time. The host keeps a fingerprint of each base it sent (:func:`fingerprint`) and
sends a new one as its records that differ from the closest held base (:func:`delta`); the
worker rebuilds it over that base's records (:func:`derive`), which are never mutated.

Exactness: records are compared by their ``marshal`` bytes (version 2, no references), so
equal bytes mean the same value *and* types (``True`` is not ``1``) and the same key order,
hence the same JSON text: the worker's state is the one a full send gives. A collection whose
keys or key order changed, or a top-level value that changed, is sent whole; a state with
non-string keys or values ``marshal`` refuses gets no fingerprint and is sent whole.
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from typing import Any

#: per top-level entry: the marshal bytes of a plain value, or of each record of a collection
Fingerprint = dict[str, bytes | dict[str, bytes]]
#: ``[collection or None for a top-level entry, key, "v", value]``, as change entries are
Delta = list[list[Any]]


def fingerprint(state: Mapping[str, Any]) -> Fingerprint | None:
    """Per-record bytes of ``state``, or None where a delta could not be exact."""
    out: Fingerprint = {}
    try:
        for name, value in state.items():
            if type(name) is not str:
                return None
            if type(value) is dict:
                records: dict[str, bytes] = {}
                for key, record in value.items():
                    if type(key) is not str:
                        return None
                    records[key] = marshal.dumps(record, 2)
                out[name] = records
            else:
                out[name] = marshal.dumps(value, 2)
    except ValueError:
        return None
    return out


def delta(
    new: Fingerprint, old: Fingerprint, state: Mapping[str, Any], bound: int = 1 << 30
) -> tuple[Delta, int]:
    """The changes that turn the base fingerprinted ``old`` into ``state`` (fingerprinted
    ``new``), and their size in records (a collection sent whole counts all its records).

    ``bound``: the caller has no use for a delta larger than this; the comparison stops as
    soon as the size passes it (the size returned then exceeds ``bound``, the changes are
    incomplete). Most held bases are other populations that differ in almost every record.
    """
    changes: Delta = []
    size = 0
    if list(new) != list(old):
        return [[None, name, "v", state[name]] for name in new], 1 << 30
    for name, part in new.items():
        if size > bound:
            break
        prev = old[name]
        if isinstance(part, bytes) or isinstance(prev, bytes):
            if part != prev:
                changes.append([None, name, "v", state[name]])
                size += len(part) if isinstance(part, dict) else 1
            continue
        if list(part) != list(prev):  # dicts compare equal in any key order: check it first
            changes.append([None, name, "v", state[name]])
            size += len(part)
            continue
        records = state[name]
        for key, raw in part.items():
            if raw != prev[key]:
                changes.append([name, key, "v", records[key]])
                size += 1
                if size > bound:
                    break
    return changes, size


def records(fp: Fingerprint) -> int:
    """How many records (and plain top-level values) a fingerprinted state holds."""
    return sum(len(part) if type(part) is dict else 1 for part in fp.values())


def derive(parent: Mapping[str, Any], changes: Delta) -> dict[str, Any]:
    """The state ``parent`` with ``changes`` applied, sharing its unchanged records (new
    top-level and collection dicts: ``parent`` is not changed)."""
    state = dict(parent)
    copied: set[str] = set()
    for name, key, _flag, value in changes:
        if name is None:
            state[key] = value
            copied.add(key)
            continue
        if name not in copied:
            state[name] = dict(state[name])
            copied.add(name)
        state[name][key] = value
    return state


__all__ = ["Delta", "Fingerprint", "delta", "derive", "fingerprint", "records"]
