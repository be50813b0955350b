"""Counters stated as "`a` +1" or kept on a record two references away; numbers stated as
arithmetic ("`cost` = plant.price_per_tray x trays x (100 +
region.tax_pct) / 100"), over arguments and records reached through up to two references,
with pieces ("8% of the cost when trays >= 50, else 3% when ..., else 0"); a formula with a
name nobody can read is not used; the compiled code rounds half up and lets a missing number
through as None, which moves nothing."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env.artifact.behaviour import Effect, ParamInfo, ToolBehaviour, Value
from autoforge.synth.behaviour.compile import _effect_lines, _prelude
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.formulas import expr_code, formula_values, helper_lines
from autoforge.synth.behaviour.transfers import transfer_effects
from autoforge.tooldocs import ToolSpec

DATA: dict[str, Any] = {
    "regions": {"R1": {"region_id": "R1", "tax_pct": 20, "orders_count": 5}},
    "growers": {
        "G1": {"grower_id": "G1", "region_id": "R1", "balance": 100.0, "tier": "premium"},
        "G2": {"grower_id": "G2", "region_id": "R1", "balance": 0.0, "tier": "basic"},
    },
    "plants": {"P1": {"plant_id": "P1", "price_per_tray": 12.5, "tray_size": 24}},
    "orders": {
        "O1": {"order_id": "O1", "grower_id": "G1", "plant_id": "P1", "trays": 4, "cost": 60.0,
               "surcharge": 0.0, "discount": 0.0, "total": 60.0, "seedlings": 96,
               "created_on": "2031-01-02", "updated_on": "2031-01-02"},
    },
}  # fmt: skip


def _create() -> ToolBehaviour:
    params = [
        ParamInfo(name="grower_id", references="growers"),
        ParamInfo(name="plant_id", references="plants"),
        ParamInfo(name="trays"),
    ]
    return ToolBehaviour(tool="t", kind="create", collection="orders", params=params)


def _values(text: str) -> dict[str, Any]:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    return {a: v.const for a, v in formula_values([text], _create(), ctx).items()}


def _run(value: list[Any], args: dict[str, Any], new: dict[str, Any] | None = None) -> Any:
    scope: dict[str, Any] = {"state": DATA, "_new": dict(new or {}), **args}
    exec("\n".join(helper_lines()), scope)
    return eval(expr_code(value[1], value[2]), scope)


def test_a_formula_reads_arguments_and_records_two_references_away() -> None:
    text = (
        "`cost` = plant.price_per_tray x trays x (100 + region.tax_pct) / 100, rounded to 2"
        " decimals half up."
    )
    (value,) = _values(text).values()
    assert value[2] == 2  # the stated rounding
    args = {"grower_id": "G1", "plant_id": "P1", "trays": 3}
    assert _run(value, args) == 45.0  # 12.5 x 3 x 1.2
    assert _run(value, {**args, "plant_id": "P9"}) is None  # no such plant: no number


def test_the_noun_s_attribute_and_a_bare_name_one_record_holds() -> None:
    values = _values("`seedlings` = the plant's tray_size x trays.")
    assert _run(values["seedlings"], {"plant_id": "P1", "trays": 2}) == 48
    values = _values("`cost` = price_per_tray x trays.")  # only plants have price_per_tray
    assert _run(values["cost"], {"plant_id": "P1", "trays": 2}) == 25.0


@pytest.mark.parametrize(("trays", "want"), [(60, 4.8), (20, 1.8), (5, 0)])
def test_pieces_with_a_share_of_the_first_piece_s_base(trays: int, want: float) -> None:
    text = "Surcharge: 8% of the cost when trays >= 50, else 3% when trays >= 10, else 0."
    value = _values(text)["surcharge"]
    assert _run(value, {"trays": trays}, {"cost": 60.0}) == want


@pytest.mark.parametrize(
    ("grower", "cost", "discount", "want"),
    [("G1", 10.0, 0.0, 0), ("G2", 10.0, 0.0, 7.5), ("G2", 120.0, 0.0, 0), ("G2", 120.0, 30.0, 7.5)],
)
def test_pieces_in_words_a_value_named_and_an_amount_after_another(
    grower: str, cost: float, discount: float, want: float
) -> None:
    text = (
        "`total` = cost - discount + surcharge. Computes the surcharge (free for premium"
        " growers or when the cost after discount is at least 100, else 7.5)."
    )
    value = _values(text)["surcharge"]
    assert _run(value, {"grower_id": grower}, {"cost": cost, "discount": discount}) == want


def test_the_smaller_of_two_amounts() -> None:
    value = _values("`discount` = min(cost x 10%, 9.5).")["discount"]
    assert _run(value, {}, {"cost": 60.0}) == 6.0 and _run(value, {}, {"cost": 200.0}) == 9.5


@pytest.mark.parametrize(
    "text",
    [
        "`total` = cost + handling_fee.",  # nothing holds handling_fee
        "`cost` = price_per_tray x trays when trays > hours_left, else 0.",  # an unread condition
        "`created_on` = `updated_on` = today.",  # no number, and a chain
        "`surcharge`: Extra charged on large orders.",  # prose, not arithmetic
    ],
)
def test_a_formula_with_anything_unread_is_not_used(text: str) -> None:
    assert _values(text) == {}


def test_the_amount_a_formula_computes_is_the_one_moved() -> None:
    text = "`total` = cost + surcharge and is added to the grower's `balance`."
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    (e,) = transfer_effects(ToolSpec(name="t", description=text), _create(), ctx)
    assert (e.record, e.attribute, e.value and e.value.const) == (
        "param:grower_id", "balance", ["new", "total", 1]
    )  # fmt: skip


def test_rounding_is_half_up_and_a_missing_number_moves_nothing() -> None:
    scope: dict[str, Any] = {}
    exec("\n".join(helper_lines()), scope)
    assert scope["_rd"](2.675, 2) == 2.68 and scope["_rd"](-2.675, 2) == -2.68
    assert scope["_rd"](7.5, 0) == 8 and isinstance(scope["_rd"](7.5, 0), int)
    assert scope["_ar"](None, "+", 1) is None and scope["_ar"](1, "/", 0) is None
    assert scope["_cm"]([None, 3], [">="]) is False
    tb = _create()
    moved = Effect(
        kind="increment", record="param:grower_id", collection="growers", attribute="balance",
        value=Value(source="formula", const=["new", "total", 1]),
    )  # fmt: skip
    state = {"growers": {"G1": {"balance": 100.0}}}
    for total, want in ((None, 100.0), (15.5, 115.5)):
        exec("\n".join(_effect_lines(moved, tb)), {"state": state, "_new": {"total": total},
                                                   "grower_id": "G1"})  # fmt: skip
        assert state["growers"]["G1"]["balance"] == want


def test_a_whole_json_number_argument_is_kept_as_a_float() -> None:
    tb = ToolBehaviour(
        tool="t", kind="action", collection="growers", id_param="grower_id",
        params=[ParamInfo(name="grower_id"), ParamInfo(name="amount", number=True),
                ParamInfo(name="trays")],
    )  # fmt: skip
    scope: dict[str, Any] = {"state": {}, "amount": 50, "trays": 3}
    exec("\n".join(_prelude(tb)), scope)
    assert isinstance(scope["amount"], float) and isinstance(scope["trays"], int)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("the plant's `n` +1.", (1, 1)),
        ("Sets status `x`; `n` -1; done.", (-1, 1)),
        ("`n` += `trays`.", (1, "trays")),
        ("`n` -= trays", (-1, "trays")),
        ("free hours are start+n-1)", None),  # arithmetic, no write
        ("`n` +1.5 on average", None),
    ],
)
def test_a_counter_in_notation(text: str, want: tuple[int, Any] | None) -> None:
    from autoforge.synth.behaviour.counters import _amount

    got = _amount(text, "n", ["trays"])
    if want is None:
        assert got is None
    else:
        assert got is not None and (got[0], got[1].const or got[1].name) == want


def test_a_counter_two_references_away_moves_on_that_record() -> None:
    from autoforge.synth.behaviour.counters import increments

    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    spec = ToolSpec(name="t", description="The region's `orders_count` goes up by 1.")
    (e,) = increments(spec, _create(), ctx)
    assert e.collection == "regions" and e.record.startswith("path:")
    state = {"regions": {"R1": {"orders_count": 5}}, "growers": DATA["growers"]}
    exec("\n".join(_effect_lines(e, _create())), {"state": state, "grower_id": "G1", "_new": {}})
    assert state["regions"]["R1"]["orders_count"] == 6


def test_a_counter_grows_by_a_product_and_a_count_of_others_is_left_to_the_tallies() -> None:
    from autoforge.synth.behaviour.counters import increments

    tb = ToolBehaviour(
        tool="receive_trays", kind="action", collection="plants", id_param="plant_id",
        params=[ParamInfo(name="plant_id", references="plants"), ParamInfo(name="packs")],
    )  # fmt: skip
    data = {**DATA, "plants": {"P1": {**DATA["plants"]["P1"], "stock": 10}}}
    ctx = Context(ev=DataEvidence.of(data), policy="")
    said = "`stock` grows by `packs × tray_size` seedlings and nothing else changes."
    (eff,) = increments(ToolSpec(name="receive_trays", description=said), tb, ctx)
    assert eff.attribute == "stock" and eff.value is not None
    assert _run(eff.value.const, {"packs": 3, "plant_id": "P1", "_rec": data["plants"]["P1"]}) == 72
    fewer = "`stock` drops by the number of trays sold."
    assert increments(ToolSpec(name="receive_trays", description=fewer), tb, ctx) == []


def test_an_attribute_that_becomes_today_is_stamped() -> None:
    from autoforge.synth.behaviour.stated import time_fields

    said = "`stock` grows by `packs` and `last_received_on` becomes today."
    assert time_fields(said, ["stock", "last_received_on"]) == {"last_received_on": "today"}
