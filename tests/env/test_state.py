"""State hashing, diffs (against tau2-bench's recorded oracle) and the copy-on-write state."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from autoforge.adapters.tau import tau2_hash
from autoforge.env import diff_states, state_hash
from autoforge.env.state.cow import CowState

STATE: dict[str, Any] = {
    "users": {
        "u1": {
            "name": "Ann",
            "age": 31,
            "vip": True,
            "score": 1.5,
            "tags": ["a", "b"],
            "address": {"city": "Oslo", "zip": None},
        },
        "u2": {"name": "Bo", "age": 0, "vip": False, "score": 0.0, "tags": [], "address": {}},
    },
    "orders": {"o1": {"user": "u1", "total": 86, "items": [{"sku": "x", "n": 1}]}},
    "meta": {"version": 3},
}


def _reordered(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reordered(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reordered(v) for v in value]
    return value


def _leaf_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict) and value:
        return [p for k, v in value.items() for p in _leaf_paths(v, (*path, k))]
    if isinstance(value, list) and value:
        return [p for i, v in enumerate(value) for p in _leaf_paths(v, (*path, i))]
    return [path]


def _changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return 0
    if isinstance(value, list):
        return [*value, 1]
    return {**value, "new": 1}


def _set(state: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    target = state
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value


def test_hash_ignores_key_order_and_is_hex() -> None:
    h = state_hash(STATE)
    assert h == state_hash(_reordered(STATE))
    assert len(h) == 64 and int(h, 16) >= 0


def test_every_single_change_changes_the_hash() -> None:
    base = state_hash(STATE)
    seen = {base}
    paths = _leaf_paths(STATE)
    assert len(paths) > 15
    for path in paths:
        changed = copy.deepcopy(STATE)
        target: Any = STATE
        for part in path:
            target = target[part]
        _set(changed, path, _changed(target))
        seen.add(state_hash(changed))
    assert len(seen) == len(paths) + 1


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ({"c": {"k": {"x": 86}}}, {"c": {"k": {"x": 86.0}}}, True),
        ({"c": {"k": {"x": 0}}}, {"c": {"k": {"x": -0.0}}}, True),
        ({"c": {"k": {"x": 1}}}, {"c": {"k": {"x": True}}}, False),
        ({"c": {"k": {"x": 1}}}, {"c": {"k": {"x": "1"}}}, False),
        ({"c": {"k": {"x": [1, 2]}}}, {"c": {"k": {"x": [2, 1]}}}, False),
        ({"c": {"k": {"x": [1, 2]}}}, {"c": {"k": {"x": (1, 2)}}}, True),
        ({"c": {}}, {}, False),
        ({"c": {"k": 1}}, {"c": {"k2": 1}}, False),
        ({"c": {"k": {"x": 1e16}}}, {"c": {"k": {"x": 10**16}}}, True),
        ({"c": {"k": {"x": "é"}}}, {"c": {"k": {"x": "\u00e9"}}}, True),
        ({"c": [1, 2]}, {"c": [1, 2.0]}, True),
        ({"c": {"a": {"b": 1}}}, {"c": {"a": {"b": None}}}, False),
    ],
)
def test_hash_canonicalisation(a: Any, b: Any, same: bool) -> None:
    assert (state_hash(a) == state_hash(b)) is same


def test_hash_is_stable_across_processes() -> None:
    code = (
        "import json, sys\nfrom autoforge.env import state_hash\n"
        "print(state_hash(json.loads(sys.stdin.read())))"
    )
    hashes = set()
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run(
            [sys.executable, "-c", code],
            input=json.dumps(_reordered(STATE)),
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        hashes.add(out.stdout.strip())
    assert hashes == {state_hash(STATE)}


def _tau2_retail(benchmarks_dir: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    root = benchmarks_dir / "tau2-bench" / "retail"
    db = json.loads((root / "db.json").read_text())
    # tau2's Order model dumps these optional fields as null; db.json omits them
    optional = [
        "cancel_reason",
        "exchange_items",
        "exchange_new_items",
        "exchange_payment_method_id",
        "exchange_price_difference",
        "return_items",
        "return_payment_method_id",
    ]
    for order in db["orders"].values():
        for name in optional:
            order.setdefault(name, None)
    tasks = json.loads((root / "gt_replay.json").read_text())["tasks"]
    return db, tasks


def _apply(db: dict[str, Any], ops: list[dict[str, Any]]) -> dict[str, Any]:
    """``db`` with ``ops`` applied; only the touched records are copied."""
    state = {name: dict(coll) for name, coll in db.items()}
    for op in ops:
        coll, key = op["path"][:2]
        if key in db[coll] and state[coll][key] is db[coll][key]:
            state[coll][key] = copy.deepcopy(db[coll][key])
        target: Any = state
        for part in op["path"][:-1]:
            target = target[part]
        if op["op"] == "remove":
            del target[op["path"][-1]]
        else:
            target[op["path"][-1]] = copy.deepcopy(op["new"])
    return state


def test_tau2_hash_and_diffs_match_the_recorded_oracle(benchmarks_dir: Path) -> None:
    db, tasks = _tau2_retail(benchmarks_dir)
    assert tau2_hash(db) == tasks[0]["initial_db_hash"]
    checked = 0
    for task in tasks:
        if not task["db_diff"] or task["gold_db_hash"] is None:
            continue
        new = _apply(db, task["db_diff"])
        if checked < 8:  # hashing 2.8 MB is slow; a few tasks prove the point
            assert tau2_hash(new) == task["gold_db_hash"], task["id"]
        # same operations, same order, same list/dict treatment as the oracle
        assert diff_states(db, new) == task["db_diff"], task["id"]
        checked += 1
    assert checked > 50


def test_diff_rules() -> None:
    old = {"c": {"k": {"a": 1, "b": [1, 2], "c": [1], "d": {"x": 1}, "e": 9}}}
    new = {"c": {"k": {"a": 1.0, "b": [1, 3], "c": [1, 2], "d": {"y": 1}, "f": True}}}
    assert diff_states(old, new) == [
        {"op": "replace", "path": ["c", "k", "a"], "old": 1, "new": 1.0},
        {"op": "replace", "path": ["c", "k", "b", 1], "old": 2, "new": 3},
        {"op": "replace", "path": ["c", "k", "c"], "old": [1], "new": [1, 2]},
        {"op": "remove", "path": ["c", "k", "d", "x"], "old": 1},
        {"op": "add", "path": ["c", "k", "d", "y"], "new": 1},
        {"op": "remove", "path": ["c", "k", "e"], "old": 9},
        {"op": "add", "path": ["c", "k", "f"], "new": True},
    ]
    assert diff_states(old, copy.deepcopy(old)) == []


def test_cow_collection_behaves_like_a_dict() -> None:
    base = copy.deepcopy(STATE)
    state = CowState(base)
    users = state["users"]
    assert isinstance(users["u1"], dict) and json.loads(json.dumps(users["u1"]))["age"] == 31
    assert "u1" in users and "zz" not in users and len(users) == 2
    assert users.get("zz") is None and users.get("zz", 5) == 5
    assert sorted(users) == ["u1", "u2"] and [u["name"] for u in users.values()] == ["Ann", "Bo"]
    assert dict(users.items())["u2"]["name"] == "Bo"
    users["u3"] = {"name": "Cy"}
    assert users.pop("u2")["name"] == "Bo"
    assert users.setdefault("u4", {"name": "Di"}) == {"name": "Di"}
    users["u1"]["age"] += 1
    assert list(users) == ["u1", "u3", "u4"] and len(users) == 3
    assert copy.deepcopy(users) == {"u1": users["u1"], "u3": {"name": "Cy"}, "u4": {"name": "Di"}}
    state._commit()
    assert base == STATE  # the base was never touched
    snap = state._snapshot()
    assert snap["users"]["u1"]["age"] == 32 and set(snap["users"]) == {"u1", "u3", "u4"}
    assert state._state_hash() == state_hash(snap)
    assert state._diff() == diff_states(STATE, snap)
    state["users"].clear()
    state._abort()
    assert len(state["users"]) == 3
    state._reset()
    assert state._snapshot() == STATE and state._state_hash() == state_hash(STATE)


def test_cow_commit_keeps_only_real_changes() -> None:
    state = CowState(copy.deepcopy(STATE))
    for user in state["users"].values():
        user["tags"].sort()  # already sorted: no change
    state["users"]["u2"]["age"] = False  # 0 -> False is a change (types differ)
    state._commit()
    assert [(c, k) for c, k, _ in state._last_changes] == [("users", "u2")]
    assert state._diff() == [
        {"op": "replace", "path": ["users", "u2", "age"], "old": 0, "new": False}
    ]
    state["users"]["u2"]["age"] = 0
    state._commit()
    assert state._diff() == [] and state._state_hash() == state_hash(STATE)


def test_top_level_values_and_collections_can_be_replaced() -> None:
    state = CowState(copy.deepcopy(STATE))
    state["meta"]["version"] = 4
    state["orders"] = {}
    state["extra"] = [1, 2]
    del state["users"]
    state._commit()
    snap = state._snapshot()
    assert snap == {"orders": {}, "meta": {"version": 4}, "extra": [1, 2]}
    assert state._state_hash() == state_hash(snap)
    assert state._diff() == diff_states(STATE, snap)
    other = CowState(copy.deepcopy(STATE))
    other._apply(state._committed_changes())
    assert other._snapshot() == snap


def test_record_digests_are_memoised_type_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    from autoforge.env.state import hashing

    computed: list[Any] = []
    direct = hashing._record_digest

    def counting(key: Any, record: Any) -> int:
        computed.append(record)
        return direct(key, record)

    monkeypatch.setattr(hashing, "_record_digest", counting)
    monkeypatch.setattr(hashing, "_MEMO", {})
    record = {"price": 12.5, "tags": ["a"], "vip": True}
    first = hashing.record_digest("k", record)
    assert hashing.record_digest("k", copy.deepcopy(record)) == first == direct("k", record)
    assert len(computed) == 1  # an equal record (another object) is not digested again
    for other in ({**record, "vip": 1}, {**record, "price": 12.50001}):
        assert hashing.record_digest("k", other) == direct("k", other) != first
    assert hashing.record_digest("k2", record) == direct("k2", record) != first
    assert len(computed) == 4
    monkeypatch.setattr(hashing, "MEMO_LIMIT_BYTES", 0)  # past the budget: cleared, still exact
    assert hashing.record_digest("k", {"x": 1}) == direct("k", {"x": 1})
    assert len(hashing._MEMO) == 1
