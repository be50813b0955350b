"""Spare copies: a pristine, unreferenced transaction copy of a base record is reused by the
next read instead of a new ``marshal`` copy, and never when anything could still see it."""

from __future__ import annotations

import copy
import marshal
from typing import Any

from autoforge.env.state import cow
from autoforge.env.state.cow import CowState
from autoforge.env.state.hashing import BaseDigests

BASE: dict[str, Any] = {
    "orders": {
        "o1": {"id": "o1", "items": [{"sku": "x", "n": 1}], "vip": True, "total": 1.5},
        "o2": {"id": "o2", "items": [], "vip": False, "total": 2},
    }
}


def _scan(state: CowState) -> list[Any]:
    """A read-only tool: scans every order (one transaction)."""
    out = list(state["orders"].values())
    state._commit()
    return out


def test_the_reference_count_was_measured() -> None:
    assert cow._FREE_REFS > 0


def test_an_unreferenced_read_copy_is_reused_by_the_next_read() -> None:
    digests = BaseDigests(copy.deepcopy(BASE))
    first = CowState(digests._base, digests)
    orders = first["orders"]
    seen_id = id(orders["o1"])
    first._commit()
    spare = digests.spares("orders").get("o1")
    assert spare is not None and id(spare) == seen_id
    second = CowState(digests._base, digests)  # another episode of the same base
    record = second["orders"]["o1"]
    assert record is spare and "o1" not in digests.spares("orders")
    assert record == BASE["orders"]["o1"]


def test_a_copy_something_still_holds_is_not_reused() -> None:
    digests = BaseDigests(copy.deepcopy(BASE))
    state = CowState(digests._base, digests)
    kept = state["orders"]["o1"]  # e.g. a tool that stashed the record in a global
    state._commit()
    assert "o1" not in digests.spares("orders")
    again = CowState(digests._base, digests)["orders"]["o1"]
    assert again is not kept
    kept["vip"] = "changed later"  # the stash cannot reach the next episode's record
    assert again["vip"] is True


def test_a_copy_whose_inner_list_is_held_is_not_reused() -> None:
    digests = BaseDigests(copy.deepcopy(BASE))
    state = CowState(digests._base, digests)
    items = state["orders"]["o1"]["items"]
    state._commit()
    assert "o1" not in digests.spares("orders")
    items.append({"sku": "y", "n": 2})
    assert CowState(digests._base, digests)["orders"]["o1"]["items"] == [{"sku": "x", "n": 1}]


def test_a_changed_or_type_changed_copy_is_committed_not_reused() -> None:
    digests = BaseDigests(copy.deepcopy(BASE))
    state = CowState(digests._base, digests)
    state["orders"]["o1"]["vip"] = 1  # == True, but another type: a change
    state["orders"]["o2"]["total"] = 3
    state._commit()
    assert {(c[0], c[1]) for c in state._last_changes} == {("orders", "o1"), ("orders", "o2")}
    assert not digests.spares("orders")
    assert BASE["orders"]["o1"]["vip"] is True and digests._base["orders"]["o1"]["vip"] is True


def test_reads_through_spares_give_the_same_states_and_hashes() -> None:
    """Scans, writes and hashes over many episodes equal those with spares switched off."""

    def run(spares: bool) -> list[Any]:
        saved = cow._FREE_REFS
        cow._FREE_REFS = saved if spares else -1
        try:
            digests = BaseDigests(copy.deepcopy(BASE))
            out = []
            for i in range(6):
                state = CowState(digests._base, digests)
                out.append(_scan(state))
                if i % 2:
                    state["orders"]["o2"]["total"] = i
                    state._commit()
                out.append(_scan(state))
                out.append(state._state_hash())
            return out
        finally:
            cow._FREE_REFS = saved

    assert run(True) == run(False)


def test_the_fresh_bytes_of_an_equal_record_are_remembered_not_recomputed(
    monkeypatch: Any,
) -> None:
    """A record equal (type-exactly) to one of an earlier base reuses its ``fresh`` bytes,
    which equal what a fresh copy dumps to; a record that differs only in type does not."""
    monkeypatch.setattr(cow, "_FRESH", {})
    record = {"id": "o9", "items": [{"sku": "z", "n": 2}], "vip": True, "total": 1.5}
    first = cow._BaseBytes(record)
    loaded = marshal.loads(first.raw)
    assert first.fresh == marshal.dumps(loaded, 4)
    second = cow._BaseBytes(copy.deepcopy(record))
    assert second.fresh is first.fresh and len(cow._FRESH) == 1
    third = cow._BaseBytes({**record, "vip": 1})
    assert third.fresh is not first.fresh and len(cow._FRESH) == 2
    assert third.unchanged(marshal.loads(third.raw)) == cow._PRISTINE
