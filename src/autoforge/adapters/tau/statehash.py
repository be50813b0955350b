"""The state hashes of tau-bench and tau2-bench, reproduced exactly, and ``apply_diff``.

- tau-bench: ``consistent_hash(to_hashable(data))`` = sha256 of ``str()`` of the data turned into
  recursively key-sorted tuples.
- tau2-bench: ``get_dict_hash(db.model_dump())`` = sha256 of
  ``json.dumps(obj, sort_keys=True, default=str)``.

Both are whole-state hashes; hashing a 2-7 MB database per task is slow, so
:class:`CachedStateHasher` builds the same string from per-record pieces cached by object
identity. :func:`apply_diff` is copy-on-write (unchanged records keep their identity), so hashing
many gold states of one domain only re-encodes the records a diff touched.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

HashKind = Literal["tau", "tau2"]


def to_hashable(item: Any) -> Any:
    """tau-bench's ``to_hashable``: dicts to key-sorted tuples of pairs, lists to tuples."""
    if isinstance(item, dict):
        return tuple((key, to_hashable(value)) for key, value in sorted(item.items()))
    if isinstance(item, list):
        return tuple(to_hashable(element) for element in item)
    if isinstance(item, set):
        return tuple(sorted(to_hashable(element) for element in item))
    return item


def tau_hash(data: Any) -> str:
    """tau-bench's state hash."""
    return hashlib.sha256(str(to_hashable(data)).encode("utf-8")).hexdigest()


def tau2_hash(data: Any) -> str:
    """tau2-bench's state hash."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def state_hash_of(kind: HashKind, data: Any) -> str:
    """The hash of ``data`` by the named benchmark's method."""
    return tau_hash(data) if kind == "tau" else tau2_hash(data)


def _tuple_str(items: Sequence[str]) -> str:
    if not items:
        return "()"
    if len(items) == 1:
        return f"({items[0]},)"
    return "(" + ", ".join(items) + ")"


class CachedStateHasher:
    """The same hash as :func:`tau_hash` / :func:`tau2_hash`, reusing record encodings.

    Each ``state[collection][key]`` entry and each collection is encoded once and cached by
    identity, so the state objects hashed must not be mutated afterwards (use
    :func:`apply_diff`, which copies what it changes).
    """

    def __init__(self, kind: HashKind) -> None:
        self.kind = kind
        self._colls: dict[int, tuple[Any, bytes]] = {}
        self._entries: dict[int, tuple[Any, str, bytes]] = {}

    def _leaf(self, value: Any) -> str:
        if self.kind == "tau":
            return repr(to_hashable(value))
        return json.dumps(value, sort_keys=True, default=str)

    def _pair(self, key: str, text: str) -> str:
        if self.kind == "tau":
            return _tuple_str([repr(key), text])
        return f"{json.dumps(key)}: {text}"

    def _entry(self, key: str, value: Any) -> bytes:
        """``key: value`` of one record, cached by the record's identity."""
        if not isinstance(value, (dict, list)):
            return self._pair(key, self._leaf(value)).encode("utf-8")
        hit = self._entries.get(id(value))
        if hit is not None and hit[0] is value and hit[1] == key:
            return hit[2]
        data = self._pair(key, self._leaf(value)).encode("utf-8")
        self._entries[id(value)] = (value, key, data)
        return data

    def _join(self, parts: list[bytes]) -> bytes:
        if self.kind == "tau":
            if len(parts) == 1:
                return b"(" + parts[0] + b",)"
            return b"(" + b", ".join(parts) + b")"
        return b"{" + b", ".join(parts) + b"}"

    def _collection(self, name: str, coll: dict[str, Any]) -> list[bytes]:
        hit = self._colls.get(id(coll))
        if hit is None or hit[0] is not coll:
            hit = (coll, self._join([self._entry(k, coll[k]) for k in sorted(coll)]))
            self._colls[id(coll)] = hit
        if self.kind == "tau":
            return [b"(", repr(name).encode("utf-8"), b", ", hit[1], b")"]
        return [json.dumps(name).encode("utf-8"), b": ", hit[1]]

    def chunks(self, state: Mapping[str, Any]) -> list[bytes]:
        """The bytes the benchmark hashes (utf-8 of its string), in pieces (no big copies)."""
        parts: list[list[bytes]] = []
        for name in sorted(state):
            coll = state[name]
            if isinstance(coll, dict) and all(isinstance(k, str) for k in coll):
                parts.append(self._collection(name, coll))
            else:
                parts.append([self._pair(name, self._leaf(coll)).encode("utf-8")])
        opening, closing = (b"(", b")") if self.kind == "tau" else (b"{", b"}")
        out = [opening]
        for i, part in enumerate(parts):
            if i:
                out.append(b", ")
            out.extend(part)
        if self.kind == "tau" and len(parts) == 1:
            out.append(b",")
        out.append(closing)
        return out

    def encode(self, state: Mapping[str, Any]) -> bytes:
        """The bytes the benchmark hashes."""
        return b"".join(self.chunks(state))

    def hash(self, state: Mapping[str, Any]) -> str:
        """The benchmark's hash of ``state``."""
        digest = hashlib.sha256()
        for chunk in self.chunks(state):
            digest.update(chunk)
        return digest.hexdigest()

    def clear(self) -> None:
        """Drop the cache (and the references it holds)."""
        self._colls.clear()
        self._entries.clear()


def _shallow(node: Any) -> Any:
    if isinstance(node, dict):
        return dict(node)
    if isinstance(node, list):
        return list(node)
    raise TypeError(f"cannot descend into {type(node).__name__}")


def _set(node: Any, key: Any, value: Any, op: str) -> None:
    if isinstance(node, list):
        index = int(key)
        if op == "add" and index == len(node):
            node.append(value)
        else:
            node[index] = value
    else:
        node[key] = value


def apply_diff(state: Mapping[str, Any], diff: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """A new state: ``state`` with ``diff`` applied; ``state`` itself is never changed.

    ``diff`` is what ``autoforge.env.diff_states`` and the benchmarks' ``gt_replay.json`` hold:
    ``{"op": "add"|"remove"|"replace", "path": [...], "old": ..., "new": ...}``. Only the
    containers along each path are copied; everything else is shared with ``state``.
    """
    root: dict[str, Any] = dict(state)
    fresh = {id(root)}
    for op in diff:
        kind, path = op["op"], list(op["path"])
        if not path or kind not in ("add", "remove", "replace"):
            raise ValueError(f"bad diff operation: {op!r}")
        node: Any = root
        for key in path[:-1]:
            child = node[int(key) if isinstance(node, list) else key]
            if id(child) not in fresh:
                child = _shallow(child)
                _set(node, key, child, "replace")
                fresh.add(id(child))
            node = child
        last = path[-1]
        if kind == "remove":
            del node[int(last) if isinstance(node, list) else last]
        else:
            _set(node, last, copy.deepcopy(op["new"]), kind)
    return root
