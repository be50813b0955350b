"""Canonical state hashes: stable across runs, processes and key order; cheap to update.

A state is ``state[collection][key] = record``. Its hash is built per record, Merkle-style:

* each record gets ``d = sha256(json(key) + US + canonical_json(record))`` read as a 256-bit int;
* a collection is summarised by ``(count, sum of d mod 2**256)``; the sum does not depend on
  order, so an episode that changed three records updates the sum with three subtractions and
  three additions instead of rehashing 2 MB (the base digests are computed once per base state);
* the state hash is ``sha256`` over the sorted lines ``json(name) RS kind RS count RS sum``.

Top-level values that are not dicts (a list, a scalar) are hashed whole (kind ``v``).
The additive combination is not meant to resist an adversary crafting collisions (an agent
cannot choose records freely); it is exact for telling states apart in practice.
"""

from __future__ import annotations

import functools
import hashlib
import json
import marshal
import threading
from collections.abc import Mapping
from typing import Any

from autoforge.env.state.base_delta import Fingerprint, fingerprint
from autoforge.env.state.values import canonical_json, checked_canonical_json

MOD = 1 << 256
_US = "\x1f"


#: ``marshal`` bytes of ``(key, record)`` -> its digest: states derived from one another (a
#: perturbed or repaired copy, the next task's S0 drawn from the same base population) share
#: most records, and a record's canonical JSON costs ~100 us where it holds floats. Equal
#: bytes mean a type-exact equal value, so a hit is always right; cleared past a byte budget.
_MEMO: dict[bytes, int] = {}
_MEMO_BYTES = [0]
MEMO_LIMIT_BYTES = 32 << 20


#: the same for :func:`checked_record_digest`, holding only entries that passed its check
#: (``_MEMO`` may hold a record with a set, which :func:`record_digest` accepts): a changed
#: record is committed again and again with the same value (a task's gold run and its replays)
_CHECKED: dict[bytes, int] = {}


def _remember(memo: dict[bytes, int], raw: bytes, digest: int) -> None:
    if _MEMO_BYTES[0] > MEMO_LIMIT_BYTES:
        _MEMO.clear()
        _CHECKED.clear()
        _MEMO_BYTES[0] = 0
    memo[raw] = digest
    _MEMO_BYTES[0] += len(raw) + 100


def record_digest(key: Any, record: Any) -> int:
    """The 256-bit digest of one ``(key, record)`` entry of a collection (memoised)."""
    try:
        raw = marshal.dumps((key, record), 2)
    except ValueError:  # not plain data: no memo
        return _record_digest(key, record)
    return _memo_digest(raw, key, record)


#: the head of a 2-tuple in ``marshal`` version 2 (type code and item count): the bytes of
#: ``(key, record)`` are this, the key's bytes and the record's bytes (no back references in
#: version 2), so a record whose bytes are at hand needs no second marshal for its memo key
_PAIR = b"(\x02\x00\x00\x00"


def record_digest_of(key: Any, record: Any, raw: bytes) -> int:
    """:func:`record_digest` of a record whose ``marshal.dumps(record, 2)`` is ``raw``
    (a base's :meth:`BaseDigests.fingerprint`): the same memo entry, found without
    marshalling the record again."""
    try:
        pair = _PAIR + marshal.dumps(key, 2) + raw
    except ValueError:
        return record_digest(key, record)
    return _memo_digest(pair, key, record)


def _memo_digest(memo_key: bytes, key: Any, record: Any) -> int:
    """The digest memoised under ``memo_key`` (the marshal bytes of ``(key, record)``)."""
    digest = _MEMO.get(memo_key)
    if digest is None:
        digest = _record_digest(key, record)
        _remember(_MEMO, memo_key, digest)
    return digest


def _record_digest(key: Any, record: Any) -> int:
    return _digest(key, canonical_json(record))


def checked_record_digest(key: Any, record: Any) -> int:
    """:func:`record_digest` of a record that must be JSON data; raises ``TypeError`` or
    ``RecursionError`` when it is not (see
    :func:`~autoforge.env.state.values.checked_canonical_json`).

    Memoised by ``marshal`` bytes like :func:`record_digest`: equal bytes mean a value of the
    same builtin types, equal type-exactly (``marshal`` refuses subclasses and other objects),
    so a value that passed the check once passes it again with the same digest."""
    try:
        raw = marshal.dumps((key, record), 2)
    except ValueError:  # not plain data (or too deep): no memo, the check decides
        return _digest(key, checked_canonical_json(record))
    digest = _CHECKED.get(raw)
    if digest is None:
        digest = _digest(key, checked_canonical_json(record))  # raises: nothing remembered
        _remember(_CHECKED, raw, digest)
    return digest


def _digest(key: Any, canonical_text: str) -> int:
    text = json.dumps(key if isinstance(key, str) else str(key)) + _US + canonical_text
    return int.from_bytes(hashlib.sha256(text.encode()).digest(), "big")


def value_digest(value: Any) -> int:
    """The digest of a top-level value that is not a collection (hashed whole)."""
    return int.from_bytes(hashlib.sha256(canonical_json(value).encode()).digest(), "big")


def collection_summary(records: Mapping[Any, Any]) -> tuple[int, int]:
    """``(count, digest sum)`` of a collection given as a plain mapping."""
    total = 0
    for key, record in records.items():
        total += record_digest(key, record)
    return len(records), total % MOD


@functools.lru_cache(maxsize=1024)
def _name_json(name: str) -> str:
    return json.dumps(name)


def combine(parts: Mapping[str, tuple[str, int, int]]) -> str:
    """The state hash from ``name -> (kind, count, digest)`` of every top-level entry."""
    lines = [
        f"{_name_json(name)}\x1e{kind}\x1e{count}\x1e{digest:064x}\n"
        for name, (kind, count, digest) in sorted(parts.items())
    ]
    return hashlib.sha256(("autoforge-state-v1\n" + "".join(lines)).encode()).hexdigest()


def state_hash(state: Mapping[str, Any]) -> str:
    """The canonical hash of a state (a mapping of collections).

    Equal for equal states whatever the key order, the process or the run; any change of a
    value, a key or a type (``1`` vs ``True`` vs ``"1"``) changes it. ``86.0`` and ``86`` hash
    the same (they are the same JSON number).
    """
    parts: dict[str, tuple[str, int, int]] = {}
    for name, value in state.items():
        if isinstance(value, Mapping):
            count, digest = collection_summary(value)
            parts[str(name)] = ("c", count, digest)
        else:
            parts[str(name)] = ("v", 0, value_digest(value))
    return combine(parts)


class BaseDigests:
    """Per-record digests of one base state, computed lazily (once) and shared by episodes;
    also the shared cache of the base records' ``marshal`` bytes (:meth:`raw`).

    Thread-safe: the first episode that needs a collection's digests computes them under a lock.
    The base state must never be mutated afterwards (the runtime never does).
    """

    def __init__(self, base: Mapping[str, Any]) -> None:
        self._base = base
        self._lock = threading.Lock()
        self._records: dict[str, dict[Any, int]] = {}
        self._sums: dict[str, tuple[int, int]] = {}
        self._raw: dict[Any, dict[Any, Any]] = {}
        self._spares: dict[Any, dict[Any, Any]] = {}
        self._fingerprint: Fingerprint | bool | None = False  # False: not computed yet
        #: the hash of the base state itself (set by the first episode that hashes it
        #: unchanged; every fresh episode of the base starts there)
        self.base_hash: str | None = None

    def raw(self, name: Any) -> dict[Any, Any]:
        """The cache of ``marshal`` bytes of the base values under ``name`` (a collection,
        or a key of the caller's choosing for the top level), filled by the copy-on-write
        state as records are read."""
        cache = self._raw.get(name)
        if cache is None:
            cache = self._raw.setdefault(name, {})  # atomic: racing episodes get one dict
        return cache

    def spares(self, name: Any) -> dict[Any, Any]:
        """Pristine copies of base values under ``name`` that no one holds, left by
        committed transactions for the next read to take (``CowState``)."""
        cache = self._spares.get(name)
        if cache is None:
            cache = self._spares.setdefault(name, {})
        return cache

    def fingerprint(self) -> Fingerprint | None:
        """The base's :func:`~autoforge.env.state.base_delta.fingerprint` (per-record ``marshal``
        bytes), computed once: a contained runtime sends the base as changes to one it
        holds with it, and the record digests of :meth:`collection` reuse its bytes."""
        found = self._fingerprint
        if found is False:
            found = self._fingerprint = fingerprint(self._base)
        return found if type(found) is dict else None

    def collection(self, name: str) -> tuple[dict[Any, int], int, int]:
        """``(digest per key, count, digest sum)`` of base collection ``name``."""
        digests = self._records.get(name)
        if digests is None:
            with self._lock:
                digests = self._records.get(name)
                if digests is None:
                    records = self._base[name]
                    known = self._fingerprint
                    raws = known.get(name) if type(known) is dict else None
                    if type(raws) is dict:
                        digests = {k: record_digest_of(k, v, raws[k]) for k, v in records.items()}
                    else:
                        digests = {k: record_digest(k, v) for k, v in records.items()}
                    self._sums[name] = (len(digests), sum(digests.values()) % MOD)
                    self._records[name] = digests
        count, total = self._sums[name]
        return digests, count, total
