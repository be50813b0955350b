"""Copy-on-write episode state: a shared, never-mutated base and a small private overlay.

Why: an episode of tau-bench retail starts from a 2 MB database; deep-copying it on every
reset costs ~35 ms, hashing it ~20 ms. Episodes touch a handful of records, so each episode
keeps only what it touched.

Design (measured in ``benchmarks/runtime.py``; choices and costs in ``docs/sandbox.md``):

* :class:`CowState` maps collection names to :class:`CowCollection` views over the base dicts.
* Reading a record through a collection (``coll[key]``, ``.get``, ``.values()``, ``.items()``)
  returns a *private deep copy* (made with ``marshal``, C speed) held in the current call's
  transaction layer ``_tx``; the tool may mutate it freely. Records are plain dicts, so
  ``json.dumps(record)`` and the like work.
* Each tool call is a transaction: :meth:`CowState._commit` folds ``_tx`` into the episode layer
  ``_over`` keeping only records that really changed (their ``marshal`` bytes differ from the
  source's: type-exact, ``True`` is not ``1``); :meth:`CowState._abort` drops it, so a call that
  fails (tool error, timeout, crash) leaves the state exactly as it was.
* A read copy the call left unchanged and that nothing refers to any more (its ``marshal``
  bytes equal a fresh copy's and its reference count is the transaction's own) is kept as a
  *spare* of that base record, shared by the base's episodes: the next read of the record
  takes it instead of loading a new copy. Scans (``for o in state["orders"].values()``) read
  the same records call after call; a spare halves what such a read costs.
* Deleted keys are marked :data:`DELETED`; iteration yields base keys in base order, then keys
  added by the episode.
* Hashing reuses per-record digests of the base (:class:`~autoforge.env.state.hashing.BaseDigests`)
  and rehashes only changed records.

One episode must be used by one thread at a time; different episodes over the same base are
independent and may run concurrently (the base is only read).
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, Mapping, MutableMapping, ValuesView
from marshal import dumps as _marshal_dumps
from marshal import loads as _marshal_loads
from operator import itemgetter
from sys import getrefcount as _getrefcount
from typing import Any

from autoforge.env.state.diff import diff_into
from autoforge.env.state.hashing import (
    MOD,
    BaseDigests,
    checked_record_digest,
    collection_summary,
    combine,
    record_digest,
    value_digest,
)
from autoforge.env.state.values import jcopy, json_encoder, strict_equal, to_jsonable

_MISSING: Any = object()
_encode = json_encoder(default=to_jsonable)
_TOP: Any = object()  # the key of the top level's marshal cache in BaseDigests.raw
_second = itemgetter(1)


class _Deleted:
    """Marks a key deleted in a layer."""

    def __repr__(self) -> str:
        return "<deleted>"


DELETED: Any = _Deleted()
RESTORED: Any = _MISSING  # in a change list: the key is back to its base value

Change = tuple[Any, Any, Any]


class _Obj:
    """The value a transaction copy was made from, when it could not be marshalled."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


class _BaseBytes:
    """The cached ``marshal`` bytes of one base value (shared by the base's episodes).

    ``raw``: version 4, what copies are loaded from (repeated keys are written once and
    loaded as references: faster than version 2 both ways). ``fresh``: what a fresh, untouched
    copy dumps to in version 4, the commit's quick unchanged check. Version 4 marks an object
    shared when its reference count exceeds one, so a copy that the tool left equal may still
    dump differently (the tool kept a reference to a part of it); equal bytes always mean an
    equal value, and the check falls back to comparing version 2 bytes (no references) with
    those of ``value``, the base value itself (made on the first fallback, then kept).
    """

    __slots__ = ("fresh", "raw", "v2", "value")

    def __init__(self, value: Any) -> None:
        self.raw = raw = _marshal_dumps(value, 4)
        fresh = _FRESH.get(raw)
        if fresh is None:
            copy = _marshal_loads(raw)
            fresh = _marshal_dumps(copy, 4)  # held in a variable, like a transaction copy
            _remember_fresh(raw, fresh)
        self.fresh = fresh
        self.value = value
        self.v2: bytes | None = None

    def unchanged(self, copy: Any) -> int:
        """0: changed; 1: unchanged; :data:`_PRISTINE`: unchanged and dumps as a fresh copy
        does (no part of it is referenced from elsewhere, see :func:`_spare`)."""
        try:
            if _marshal_dumps(copy, 4) == self.fresh:
                return _PRISTINE
        except ValueError:
            return 0
        return self.equal_v2(copy)

    def equal_v2(self, copy: Any) -> bool:
        """Whether ``copy`` equals the base value type-exactly, by version 2 bytes (no
        references): the check for a copy whose version 4 bytes differ from a fresh one's."""
        try:
            if self.v2 is None:
                self.v2 = _marshal_dumps(self.value, 2)
            return _marshal_dumps(copy, 2) == self.v2
        except ValueError:
            return False


_PRISTINE = 2

#: ``raw`` -> ``fresh`` of :class:`_BaseBytes`, a function of the bytes alone: start states
#: are perturbed copies of a few populations, so most of a new base's records were seen in
#: an earlier one. Cleared past a byte budget.
_FRESH: dict[bytes, bytes] = {}
_FRESH_BYTES = [0]
FRESH_LIMIT_BYTES = 16 << 20


def _remember_fresh(raw: bytes, fresh: bytes) -> None:
    if _FRESH_BYTES[0] > FRESH_LIMIT_BYTES:
        _FRESH.clear()
        _FRESH_BYTES[0] = 0
    _FRESH[raw] = fresh
    _FRESH_BYTES[0] += len(raw) + len(fresh) + 100


def _unchanged(value: Any, src: Any) -> bool:
    """Whether a transaction copy still equals (type-exactly) the value it was copied from.

    ``src`` is the marshalled source (bytes), the :class:`_BaseBytes` of a base value, an
    :class:`_Obj`, or missing (a new value).
    """
    if type(src) is _BaseBytes:
        return src.unchanged(value) > 0
    if type(src) is bytes:
        try:
            return _marshal_dumps(value, 2) == src
        except ValueError:
            return False
    if type(src) is _Obj:
        return bool(value == src.value) and strict_equal(value, src.value)
    return False


def _not_json(key: Any, value: Any) -> str | None:
    """Why a changed state value cannot be committed, or None (it is JSON data)."""
    if value is DELETED or type(value) in (str, int, float, bool, type(None)):
        return None
    try:
        _encode(value)
    except (TypeError, ValueError, RecursionError) as exc:
        return _not_json_reason(key, exc)
    return None


def _not_json_reason(key: Any, exc: BaseException) -> str:
    return f"a value at {key!r} in the state that is not JSON data ({exc})"


class _Layered(MutableMapping[Any, Any]):
    """A mapping over ``base`` with a committed layer ``_over`` and a per-call layer ``_tx``."""

    __slots__ = ("_base", "_over", "_raw", "_spares", "_src", "_tx")

    def __init__(
        self,
        base: Mapping[Any, Any],
        raw: dict[Any, Any] | None = None,
        spares: dict[Any, Any] | None = None,
    ) -> None:
        self._base = base
        self._raw: dict[Any, _BaseBytes] = {} if raw is None else raw
        self._spares: dict[Any, Any] = {} if spares is None else spares
        self._over: dict[Any, Any] = {}
        self._tx: dict[Any, Any] = {}
        self._src: dict[Any, Any] = {}

    # -- committed (between calls) view -------------------------------------------------
    def _committed(self, key: Any, default: Any = _MISSING) -> Any:
        """The committed value of ``key`` (no copy, do not mutate), or ``default``/KeyError."""
        value = self._over.get(key, _MISSING)
        if value is _MISSING:
            value = self._base.get(key, _MISSING)
        if value is _MISSING or value is DELETED:
            if default is _MISSING:
                raise KeyError(key)
            return default
        return value

    def _copy_in(self, key: Any, value: Any) -> Any:
        """A private copy of ``value`` recorded in the transaction (copy on first access).

        JSON-like values are copied through ``marshal`` (C speed) and the bytes are kept, so
        the commit can tell an untouched copy from a changed one by one more ``marshal.dumps``
        (type-exact: ``True`` and ``1`` differ). Other values fall back to :func:`jcopy`.
        """
        try:
            raw = _marshal_dumps(value, 2)
        except ValueError:
            copied = jcopy(value)
            self._src[key] = _Obj(value)
        else:
            copied = _marshal_loads(raw)
            self._src[key] = raw
        self._tx[key] = copied
        return copied

    def _copy_base(self, key: Any, value: Any) -> Any:
        """:meth:`_copy_in` for the base value of ``key``: its ``marshal`` bytes are cached
        (``_raw``, shared by every episode of the base, which is never mutated), so a record
        read again costs one ``marshal.loads`` instead of a ``dumps`` and a ``loads``; or
        nothing, when an earlier transaction left a pristine copy of it (``_spares``)."""
        cached = self._raw.get(key)
        if cached is None:
            try:
                cached = _BaseBytes(value)
            except ValueError:
                return self._copy_in(key, value)
            self._raw[key] = cached
        copied = self._spares.pop(key, None)  # atomic: racing episodes never share a spare
        if copied is None:
            copied = _marshal_loads(cached.raw)
        self._src[key] = cached
        self._tx[key] = copied
        return copied

    def _iter_items(self) -> Iterator[tuple[Any, Any]]:
        """``(key, private copy)`` pairs in iteration order (the scan fast path).

        The common case of :meth:`_copy_base` (the record's bytes cached, a spare or one
        ``marshal.loads``) is written out here: a scan does it for every record."""
        over, tx, raw = self._over, self._tx, self._raw
        take = self._spares.pop
        copy_in, copy_base = self._copy_in, self._copy_base
        for key, value in self._base.items():
            current = tx.get(key, _MISSING)
            if current is _MISSING:
                committed = over.get(key, _MISSING) if over else _MISSING
                if committed is _MISSING:
                    cached = raw.get(key)
                    if cached is None:
                        current = copy_base(key, value)
                    else:
                        current = take(key, None)  # atomic, as in _copy_base
                        if current is None:
                            current = _marshal_loads(cached.raw)
                        self._src[key] = cached
                        self._tx[key] = current
                elif committed is DELETED:
                    continue
                else:
                    current = copy_in(key, committed)
            elif current is DELETED:
                continue
            yield key, current
        base = self._base
        for key in [k for k in (*over, *tx) if k not in base]:
            if key in self:
                yield key, self[key]

    def items(self) -> ItemsView[Any, Any]:
        return _Items(self)

    def values(self) -> ValuesView[Any]:
        return _Values(self)

    # -- MutableMapping -------------------------------------------------------------------
    def __getitem__(self, key: Any) -> Any:
        value = self._tx.get(key, _MISSING)
        if value is _MISSING:
            value = self._over.get(key, _MISSING)
            if value is _MISSING:
                return self._copy_base(key, self._base[key])
            if value is DELETED:
                raise KeyError(key)
            return self._copy_in(key, value)
        if value is DELETED:
            raise KeyError(key)
        return value

    def get(self, key: Any, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        value = self._tx.get(key, _MISSING)
        if value is _MISSING:
            value = self._over.get(key, _MISSING)
            if value is _MISSING:
                return key in self._base
        return value is not DELETED

    def __setitem__(self, key: Any, value: Any) -> None:
        self._tx[key] = value
        self._src.pop(key, None)

    def __delitem__(self, key: Any) -> None:
        if key not in self:
            raise KeyError(key)
        self._tx[key] = DELETED
        self._src.pop(key, None)

    def _current(self, key: Any) -> Any:
        value = self._tx.get(key, _MISSING)
        if value is _MISSING:
            value = self._over.get(key, _MISSING)
        return value

    def __iter__(self) -> Iterator[Any]:
        base, over, tx = self._base, self._over, self._tx
        if not over and not tx:
            yield from base
            return
        for key in base:
            if self._current(key) is not DELETED:
                yield key
        for key in list(over):
            if key not in base and self._current(key) is not DELETED:
                yield key
        for key in list(tx):
            if key not in base and key not in over and tx.get(key, DELETED) is not DELETED:
                yield key

    def __len__(self) -> int:
        base, over, tx = self._base, self._over, self._tx
        n = len(base)
        for key in {**over, **tx}:
            n += (self._current(key) is not DELETED) - (key in base)
        return n

    def clear(self) -> None:
        for key in list(self):
            self._tx[key] = DELETED
        self._src.clear()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({dict(self.items())!r})"

    def __copy__(self) -> dict[Any, Any]:
        return {k: self[k] for k in self}

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[Any, Any]:
        return {k: jcopy(self[k]) for k in self}

    # -- transactions -----------------------------------------------------------------------
    def _changed_tx(self) -> list[tuple[Any, Any]]:
        """``(key, value)`` of the transaction entries that really changed (reads dropped).

        A copy of a base record that is unchanged, dumps as a fresh copy and is referenced by
        nothing but this transaction (its reference count, see :func:`_free_refs`) is kept as
        the record's spare: the next read of the record takes it instead of loading a new
        copy. Nothing can tell it from a fresh copy: same value, types and inner sharing,
        and no reference to it or to any part of it left anywhere."""
        srcs, spares, free = self._src, self._spares, _FREE_REFS
        changed: list[tuple[Any, Any]] = []
        for key, value in self._tx.items():
            if value is DELETED:
                changed.append((key, value))
                continue
            src = srcs.get(key, _MISSING)
            if type(src) is _BaseBytes:  # _BaseBytes.unchanged, its common case written out
                try:
                    pristine = _marshal_dumps(value, 4) == src.fresh
                except ValueError:
                    changed.append((key, value))
                    continue
                if pristine:
                    refs = _getrefcount(value)
                    if refs == free:
                        spares[key] = value
                    elif free == 0:  # calibrating
                        _SEEN.append(refs)
                elif not src.equal_v2(value):
                    changed.append((key, value))
            elif not _unchanged(value, src):
                changed.append((key, value))
        return changed

    def _fold(self, changed: list[tuple[Any, Any]]) -> list[Any]:
        """Fold changed entries into the committed layer; their keys."""
        base, over = self._base, self._over
        keys = []
        for key, value in changed:
            if value is DELETED:
                if key in base:
                    over[key] = DELETED
                else:
                    over.pop(key, None)
            else:
                old = base.get(key, _MISSING)
                if old is not _MISSING and key in over and strict_equal(value, old):
                    del over[key]  # restored to the base value
                else:
                    over[key] = value
            keys.append(key)
        self._tx = {}
        self._src = {}
        return keys

    def _commit_layer(self) -> list[Any]:
        """Fold the transaction into the committed layer; the keys that really changed."""
        return self._fold(self._changed_tx())

    def _abort_layer(self) -> None:
        self._tx = {}
        self._src = {}


#: references a pristine transaction copy has in :meth:`_Layered._changed_tx` when nothing
#: else holds it (measured by :func:`_free_refs`; -1: spares off)
_FREE_REFS = 0
_SEEN: list[int] = []


def _free_refs() -> int:
    """The reference count :meth:`_Layered._changed_tx` sees for a transaction copy nothing
    else refers to, measured on that very code (the count depends on the interpreter); -1
    (no spares) unless one more reference shows as exactly one more."""
    counts = []
    for held in (False, True):
        _SEEN.clear()
        layer = _Layered({"k": {"v": [1.5, "x"]}})
        layer["k"]  # a transaction copy, held by the layer only
        keep = layer._tx["k"] if held else None
        layer._changed_tx()
        counts.append(_SEEN[0] if len(_SEEN) == 1 else -1)
        del keep
    _SEEN.clear()
    free, held_count = counts
    return free if free > 0 and held_count == free + 1 else -1


_FREE_REFS = _free_refs()


class _Items(ItemsView[Any, Any]):
    _mapping: _Layered

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        return self._mapping._iter_items()


class _Values(ValuesView[Any]):
    _mapping: _Layered

    def __iter__(self) -> Iterator[Any]:
        return map(_second, self._mapping._iter_items())  # no generator frame per record


class CowCollection(_Layered):
    """One collection (``state[name]``) of an episode; records are copied on first access."""

    __slots__ = ("_digests",)

    def __init__(
        self,
        base: Mapping[Any, Any],
        raw: dict[Any, Any] | None = None,
        spares: dict[Any, Any] | None = None,
    ) -> None:
        super().__init__(base, raw, spares)
        self._digests: dict[Any, int] = {}

    def _commit(self) -> list[Any]:
        """Keep the call's changes; the keys that changed."""
        changed = self._commit_layer()
        for key in changed:
            self._digests.pop(key, None)
        return changed

    def _abort(self) -> None:
        """Drop the call's changes."""
        self._abort_layer()

    def _summary(self, base_digests: dict[Any, int], count: int, total: int) -> tuple[int, int]:
        """``(count, digest sum)`` of the committed collection, from the base's summary."""
        for key, value in self._over.items():
            old = base_digests.get(key)
            if old is not None:
                total -= old
                count -= 1
            if value is not DELETED:
                digest = self._digests.get(key)
                if digest is None:
                    digest = self._digests[key] = record_digest(key, value)
                total += digest
                count += 1
        return count, total % MOD

    def _reset(self) -> None:
        """Forget every change of the episode."""
        self._over.clear()
        self._digests.clear()
        self._abort_layer()

    def _materialise(self) -> dict[Any, Any]:
        """A plain, independent copy of the committed collection."""
        if not self._over:
            return jcopy(self._base)
        return {k: jcopy(self._committed(k)) for k in self}

    def _changed_items(self) -> tuple[dict[Any, Any], dict[Any, Any]]:
        """``(old, new)`` restricted to the changed keys, in diff order, for cheap diffs."""
        over = self._over
        old = {k: v for k, v in self._base.items() if k in over}
        new = {k: over[k] for k in old if over[k] is not DELETED}
        new.update((k, v) for k, v in over.items() if k not in old)
        return old, new


class CowState(_Layered):
    """The state of one episode: ``state[collection][key] = record`` over a shared base.

    Collections that are dicts in the base are served as :class:`CowCollection` views (no
    copy); any other top-level value is copied on access like a record.
    """

    __slots__ = ("_children", "_digests", "_hash", "_last_changes", "_touched")

    def __init__(self, base: Mapping[str, Any], digests: BaseDigests | None = None) -> None:
        digests = digests if digests is not None else BaseDigests(base)
        super().__init__(base, digests.raw(_TOP), digests.spares(_TOP))
        self._children: dict[Any, CowCollection] = {}
        self._touched: dict[Any, CowCollection] = {}
        self._digests = digests
        self._last_changes: list[Change] = []
        #: the hash of the committed state, kept until a commit changes it or a reset
        self._hash: str | None = None

    def __getitem__(self, key: Any) -> Any:
        value = self._tx.get(key, _MISSING)
        if value is _MISSING:
            value = self._over.get(key, _MISSING)
            if value is _MISSING:
                value = self._base[key]
                if type(value) is dict:
                    return self._child(key, value)
                return self._copy_base(key, value)
            if value is DELETED:
                raise KeyError(key)
            return self._copy_in(key, value)
        if value is DELETED:
            raise KeyError(key)
        return value

    def _child(self, key: Any, base: dict[Any, Any]) -> CowCollection:
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = CowCollection(
                base, self._digests.raw(key), self._digests.spares(key)
            )
        self._touched[key] = child
        return child

    def __setitem__(self, key: Any, value: Any) -> None:
        if value is self._children.get(key) and key not in self._tx and key not in self._over:
            return  # state[name] = state[name]
        super().__setitem__(key, value)

    def _collection_view(self, key: Any) -> CowCollection | None:
        """The child view of ``key`` when its committed value is the base collection."""
        if key in self._over or type(self._base.get(key)) is not dict:
            return None
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = CowCollection(
                self._base[key], self._digests.raw(key), self._digests.spares(key)
            )
        return child

    # -- transactions -----------------------------------------------------------------------
    def _commit(self) -> str | None:
        """Keep the changes of the current call (listed in ``_last_changes``); None.

        A changed value that is not JSON data (a record containing itself, nesting too deep
        to hash, an object) is refused: nothing is committed and the reason is returned (the
        caller then aborts the call), so the state stays hashable and diffable.
        """
        pending = [(name, child, child._changed_tx()) for name, child in self._touched.items()]
        top = self._changed_tx()
        digests: list[dict[Any, int]] = []
        for _, _, changed in pending:
            new: dict[Any, int] = {}
            for key, value in changed:
                if value is not DELETED:
                    try:  # the check and the record's digest from one encoding
                        new[key] = checked_record_digest(key, value)
                    except (TypeError, ValueError, RecursionError) as exc:
                        return _not_json_reason(key, exc)
            digests.append(new)
        for key, value in top:
            problem = _not_json(key, value)
            if problem is not None:
                return problem
        changes: list[Change] = []
        for (name, child, changed), new in zip(pending, digests, strict=True):
            over, known = child._over, child._digests
            for key in child._fold(changed):
                value = over.get(key, _MISSING)
                digest = new.get(key)
                if digest is None or value is _MISSING or value is DELETED:
                    known.pop(key, None)
                else:
                    known[key] = digest
                changes.append((name, key, value))
        self._touched = {}
        for key in self._fold(top):
            changes.append((None, key, self._over.get(key, _MISSING)))
        self._last_changes = changes
        if changes:
            self._hash = None
        return None

    def _committed_changes(self) -> list[Change]:
        """Every committed change of the episode, as :meth:`apply` takes them."""
        changes: list[Change] = [(None, k, v) for k, v in self._over.items()]
        for name, child in self._children.items():
            if name not in self._over:
                changes.extend((name, k, v) for k, v in child._over.items())
        return changes

    def _apply(self, changes: list[Change]) -> None:
        """Replay changes (from ``_last_changes`` of another copy) as one committed call.

        A change is ``(collection or None for top level, key, value)``; the value
        :data:`DELETED` deletes, :data:`RESTORED` puts the base value back.
        """
        for name, key, value in changes:
            target: MutableMapping[Any, Any] = self if name is None else self[name]
            if value is DELETED:
                target.pop(key, None)
            elif value is _MISSING:  # back to the base: absent there for a key made and dropped
                base = self._base if name is None else self._base.get(name, {})
                if key in base:
                    target[key] = jcopy(base[key])
                else:
                    target.pop(key, None)
            else:
                target[key] = value
        problem = self._commit()
        if problem is not None:
            self._abort()
            raise ValueError(problem)

    def _abort(self) -> None:
        """Drop the changes of the current call."""
        for child in self._touched.values():
            child._abort()
        self._touched = {}
        self._abort_layer()

    def _reset(self) -> None:
        """Back to the base state."""
        for child in self._children.values():
            child._reset()
        self._touched = {}
        self._over.clear()
        self._abort_layer()
        self._hash = None

    # -- whole-state operations (between calls) ---------------------------------------------
    def _state_hash(self) -> str:
        """The canonical hash of the committed state; equals ``state_hash(self._snapshot())``.

        An episode that changed nothing is in its base state, whose hash the base keeps; a
        state is hashed once between two commits that change it (task generation asks again
        after each verification replay)."""
        found = self._hash
        if found is not None:
            return found
        if not self._over and not any(child._over for child in self._children.values()):
            digests = self._digests
            found = digests.base_hash
            if found is None:
                found = digests.base_hash = self._hash_of_committed()
        else:
            found = self._hash_of_committed()
        self._hash = found
        return found

    def _hash_of_committed(self) -> str:
        parts: dict[str, tuple[str, int, int]] = {}
        for name in self:
            child = self._collection_view(name)
            if child is not None:
                digests, count, total = self._digests.collection(name)
                if child._over:
                    count, total = child._summary(digests, count, total)
                parts[str(name)] = ("c", count, total)
                continue
            value = self._committed(name)
            if isinstance(value, Mapping):
                count, total = collection_summary(value)
                parts[str(name)] = ("c", count, total)
            else:
                parts[str(name)] = ("v", 0, value_digest(value))
        return combine(parts)

    def _snapshot(self) -> dict[Any, Any]:
        """A plain, independent copy of the committed state."""
        out: dict[Any, Any] = {}
        for name in self:
            child = self._collection_view(name)
            out[name] = child._materialise() if child is not None else jcopy(self._committed(name))
        return out

    def _diff(self) -> list[dict[str, Any]]:
        """``diff_states(base, current)`` computed from the changed records only."""
        out: list[dict[str, Any]] = []
        base = self._base
        for name in base:
            if name not in self:
                out.append({"op": "remove", "path": [name], "old": jcopy(base[name])})
                continue
            child = self._collection_view(name)
            if child is None:
                diff_into(base[name], self._committed(name), [name], out)
            elif child._over:
                old, new = child._changed_items()
                diff_into(old, new, [name], out)
        for name in self:
            if name not in base:
                out.append({"op": "add", "path": [name], "new": jcopy(self._committed(name))})
        return out

    def _view(self) -> StateView:
        """A read-only mapping view of the committed state (values are copies)."""
        return StateView(self)


class CollectionView(Mapping[Any, Any]):
    """Read-only view of one committed collection; records come back as copies."""

    __slots__ = ("_coll",)

    def __init__(self, coll: CowCollection) -> None:
        self._coll = coll

    def __getitem__(self, key: Any) -> Any:
        return jcopy(self._coll._committed(key))

    def __iter__(self) -> Iterator[Any]:
        return iter(self._coll)

    def __len__(self) -> int:
        return len(self._coll)

    def __contains__(self, key: object) -> bool:
        return key in self._coll


class StateView(Mapping[Any, Any]):
    """Read-only view of an episode's committed state (``ep.state``)."""

    __slots__ = ("_state",)

    def __init__(self, state: CowState) -> None:
        self._state = state

    def __getitem__(self, key: Any) -> Any:
        child = self._state._collection_view(key)
        if child is not None:
            return CollectionView(child)
        return jcopy(self._state._committed(key))

    def __iter__(self) -> Iterator[Any]:
        return iter(self._state)

    def __len__(self) -> int:
        return len(self._state)

    def __contains__(self, key: object) -> bool:
        return key in self._state
