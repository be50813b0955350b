"""apply_diff and the cached benchmark hashes on small hand-made states."""

from __future__ import annotations

import pytest

from autoforge.adapters.tau.statehash import CachedStateHasher, apply_diff, state_hash_of

STATES = [
    {},
    {"a": {}},
    {"a": {"k": 1}},
    {"a": [1, 2]},
    {"a": {"k": [1]}, "b": {"x": {"y": "é", "z": None}}},
    {"orders": {"o1": {"status": "open", "items": [{"id": 1}]}, "o2": {"status": "done"}}},
]


@pytest.mark.parametrize("kind", ["tau", "tau2"])
@pytest.mark.parametrize("state", STATES)
def test_cached_hash_matches_plain(kind: str, state: dict) -> None:  # type: ignore[type-arg]
    hasher = CachedStateHasher(kind)  # type: ignore[arg-type]
    assert hasher.hash(state) == state_hash_of(kind, state)  # type: ignore[arg-type]
    assert hasher.hash(state) == state_hash_of(kind, state)  # type: ignore[arg-type]


def test_apply_diff_is_copy_on_write() -> None:
    base = {"orders": {"o1": {"status": "open"}, "o2": {"status": "done"}}, "users": {"u": {}}}
    diff = [
        {"op": "replace", "path": ["orders", "o1", "status"], "old": "open", "new": "cancelled"},
        {"op": "add", "path": ["orders", "o3"], "new": {"status": "new"}},
        {"op": "remove", "path": ["orders", "o2"], "old": {"status": "done"}},
    ]
    out = apply_diff(base, diff)
    assert out == {
        "orders": {"o1": {"status": "cancelled"}, "o3": {"status": "new"}},
        "users": {"u": {}},
    }
    assert base["orders"] == {"o1": {"status": "open"}, "o2": {"status": "done"}}
    assert out["users"] is base["users"]


def test_apply_diff_lists_and_errors() -> None:
    out = apply_diff({"a": {"l": [1, 2]}}, [{"op": "add", "path": ["a", "l", 2], "new": 3}])
    assert out["a"]["l"] == [1, 2, 3]
    with pytest.raises(ValueError):
        apply_diff({}, [{"op": "move", "path": ["a"]}])


def test_cache_sees_changed_records_after_apply_diff() -> None:
    hasher = CachedStateHasher("tau2")
    base = {"c": {"k": {"v": 1}}}
    h0 = hasher.hash(base)
    changed = apply_diff(base, [{"op": "replace", "path": ["c", "k", "v"], "old": 1, "new": 2}])
    assert hasher.hash(changed) != h0
    assert hasher.hash(changed) == state_hash_of("tau2", {"c": {"k": {"v": 2}}})
    assert hasher.hash(base) == h0
