"""Base states sent to the worker as changes to a held one: the worker's state is exact."""

from __future__ import annotations

import copy
import json
from typing import Any

from autoforge.env import Environment
from autoforge.env.state.base_delta import delta, derive, fingerprint


def _state(n: int = 12) -> dict[str, Any]:
    items = {
        f"i{i}": {"item_id": f"i{i}", "name": f"n{i}", "price": 1.5 * i, "tags": ["t"],
                  "kind": "toy", "stock": i}
        for i in range(1, n + 1)
    }  # fmt: skip
    return {"items": items, "log": {}}


def _derived(old: dict[str, Any], new: dict[str, Any]) -> tuple[dict[str, Any], int]:
    old_fp, new_fp = fingerprint(old), fingerprint(new)
    assert old_fp is not None and new_fp is not None
    changes, size = delta(new_fp, old_fp, new)
    wire = json.loads(json.dumps(changes))  # as the worker gets them
    return derive(json.loads(json.dumps(old)), wire), size


def test_a_derived_state_is_the_new_state_text_for_text() -> None:
    old = _state()
    new = copy.deepcopy(old)
    new["items"]["i3"]["stock"] = 99
    new["log"] = {"e1": {"at": 1}}
    got, size = _derived(old, new)
    assert json.dumps(got) == json.dumps(new)
    assert size == 2  # one record, one collection of one record sent whole (its keys changed)


def test_a_change_of_type_only_or_of_key_order_is_a_change() -> None:
    old = _state()
    old["items"]["i1"]["flag"] = True
    new = copy.deepcopy(old)
    new["items"]["i1"]["flag"] = 1  # == True in Python, not in the state's JSON
    got, size = _derived(old, new)
    assert size == 1 and got["items"]["i1"]["flag"] is not True
    reordered = {"items": dict(reversed(list(old["items"].items()))), "log": {}}
    got, size = _derived(old, reordered)
    assert list(got["items"]) == list(reordered["items"]) and size == len(old["items"])


def test_states_a_delta_cannot_render_exactly_get_no_fingerprint() -> None:
    assert fingerprint({"items": {1: {"a": 1}}}) is None  # JSON would make the key "1"
    assert fingerprint({"items": {"a": {"x": object()}}}) is None


def test_derive_leaves_the_parent_unchanged() -> None:
    parent = _state()
    before = json.dumps(parent)
    derive(parent, [["items", "i2", "v", {"item_id": "i2"}], [None, "log", "v", {"e": {}}]])
    assert json.dumps(parent) == before


def test_the_worker_runs_on_a_base_sent_as_changes(shop: Environment) -> None:
    sent: list[str] = []
    runtime = shop._runtime
    register = runtime._register

    def spy(env: Any) -> list[Any]:
        op = register(env)
        sent.append(op[0])
        return op

    runtime._register = spy
    first = _state()
    second = copy.deepcopy(first)
    second["items"]["i5"]["price"] = 777.0
    a = shop.with_initial_state(first, owned=True).episode()
    b = shop.with_initial_state(second, owned=True).episode()
    assert a.call("get_item", {"item_id": "i5"}).result["price"] == 7.5
    assert b.call("get_item", {"item_id": "i5"}).result["price"] == 777.0
    assert b.call("list_items", {"max_price": 100}).result == sorted(
        k for k, i in second["items"].items() if i["price"] <= 100
    )
    assert sent == ["base", "derive"]
    assert b.state_hash() == shop.with_initial_state(second).episode().state_hash()


def test_a_bounded_delta_stops_past_the_bound_and_is_whole_within_it() -> None:
    old = _state()
    new = copy.deepcopy(old)
    for i in (2, 5, 9):
        new["items"][f"i{i}"]["stock"] = 100 + i
    old_fp, new_fp = fingerprint(old), fingerprint(new)
    assert old_fp is not None and new_fp is not None
    full = delta(new_fp, old_fp, new)
    assert full[1] == 3 and delta(new_fp, old_fp, new, 3) == full
    cut, size = delta(new_fp, old_fp, new, 1)
    assert size == 2 and len(cut) == 2  # stopped at the second change: over the bound


def test_the_closest_held_base_is_chosen_as_before(
    shop: Environment, shop_initial: Any, monkeypatch: Any
) -> None:
    """With the search pruned by the best delta so far, a new base is still sent as the
    smallest delta (the first found among equals) and the worker's state is exact."""
    runtime = shop._runtime
    near = copy.deepcopy(shop_initial)
    name = next(iter(near))
    key = next(iter(near[name]))
    near[name][key] = {**near[name][key], "note": "x"}
    bases = [shop.with_initial_state(s) for s in (near, shop_initial)]  # newest checked first
    for env in bases:
        env.episode().call("list_items", {})  # registers each base in the worker
    nearer = copy.deepcopy(near)
    target = shop.with_initial_state(nearer)
    ops: list[Any] = []
    real = runtime._register
    monkeypatch.setattr(runtime, "_register", lambda env: ops.append(real(env)) or ops[-1])
    assert target.episode().call("list_items", {}).ok
    assert [op[0] for op in ops] == ["derive"]
    assert ops[0][2] == bases[0].base_id and ops[0][3] == []
