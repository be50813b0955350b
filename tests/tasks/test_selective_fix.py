"""A filter for "the only one" whose items share every value: S0 made to hold one unique item."""

from __future__ import annotations

from typing import Any

from autoforge.env import Attribute, CollectionSchema, StateSchema
from autoforge.tasks.states.repair import apply_fix, selective_fixes

_SCHEMA = StateSchema(
    collections=[
        CollectionSchema(
            name="kites",
            primary_key="kite_id",
            attributes=[
                Attribute(name="kite_id", type="id"),
                Attribute(name="mood", type="string"),
            ],
        )
    ]
)


def _state(moods: list[str | None]) -> dict[str, Any]:
    return {"kites": {f"K{i}": {"kite_id": f"K{i}", "mood": m} for i, m in enumerate(moods)}}


def _items(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [dict(r) for r in state["kites"].values()]


def test_one_item_keeps_the_rarest_value_the_rest_take_the_commonest() -> None:
    state = _state(["calm", "calm", "calm", "wild", "wild", "wild", "wild"])
    fixes = selective_fixes(_items(state), ["mood"], state, _SCHEMA)
    assert len(fixes) == 2 and {f[3] for f in fixes} == {"wild"}
    for fix in fixes:
        assert apply_fix(state, fix) == "changed"
    moods = [r["mood"] for r in state["kites"].values()]
    assert moods.count("calm") == 1 and set(moods) == {"calm", "wild"}  # no value made up


def test_no_fix_without_two_values_or_s0_records_to_change() -> None:
    same = _state(["calm", "calm", "calm"])
    assert selective_fixes(_items(same), ["mood"], same, _SCHEMA) == []
    state = _state(["calm", "calm", "wild", "wild"])
    items = _items(state)
    for item in items:
        item["mood"] = "wild" if item["mood"] == "calm" else "calm"  # the run changed them all
    assert selective_fixes(items, ["mood"], state, _SCHEMA) == []  # S0 no longer says them
    assert selective_fixes(_items(state), ["mood", 0], state, _SCHEMA) == []  # nested: left


def test_the_kept_item_is_one_the_next_call_can_still_change() -> None:
    state = _state(["calm", "calm", "wild", "wild", "wild"])
    items = _items(state)
    fixes = selective_fixes(items, ["mood"], state, _SCHEMA, lambda i: i["kite_id"] != "K0")
    assert fixes == [("kites", "K0", "mood", "wild")]  # K1 stays the only calm kite
    only_wild = selective_fixes(items, ["mood"], state, _SCHEMA, lambda i: i["mood"] == "wild")
    assert sorted(f[1] for f in only_wild) == ["K3", "K4"]  # calm is refused: wild made unique
    assert {f[3] for f in only_wild} == {"calm"}


def test_a_holder_not_in_s0_keeps_the_value() -> None:
    state = _state(["calm", "wild", "wild", "wild"])
    items = [*_items(state), {"kite_id": "NEW", "mood": "calm"}]  # created by the run
    fixes = selective_fixes(items, ["mood"], state, _SCHEMA)
    assert fixes == [("kites", "K0", "mood", "wild")]
