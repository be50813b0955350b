"""Money moved onto or off a number a record holds ("Credits the card by `amount`", "the
booking `price` is debited from the member's card"), amounts kept to cents, and arguments a
change writes under another attribute's name (``new_<a>``, "records `void_reason`")."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.compile import _effect_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.derive import _given_fields
from autoforge.synth.behaviour.transfers import transfer_effects
from autoforge.tooldocs import ToolSpec

DATA: dict[str, Any] = {
    "members": {
        "M1": {"member_id": "M1", "card_balance": 40.5, "debt": 0.0, "visits": 3},
        "M2": {"member_id": "M2", "card_balance": 12.25, "debt": 10.0, "visits": 0},
    },
    "bookings": {
        "B1": {"booking_id": "B1", "member_id": "M1", "price": 18.1, "penalty": 0.0,
               "late_fee": 2.0, "cleaning_fee": 5.5, "refund_amount": None},
        "B2": {"booking_id": "B2", "member_id": "M2", "price": 9.9, "penalty": 0.0,
               "late_fee": 0.0, "cleaning_fee": 0.0, "refund_amount": 4.95},
    },
}  # fmt: skip


def _tool(kind: str, coll: str) -> ToolBehaviour:
    if coll == "members":
        params = [ParamInfo(name="member_id", references="members"), ParamInfo(name="amount")]
        return ToolBehaviour(
            tool="t", kind=kind, collection=coll, id_param="member_id", params=params
        )  # type: ignore[arg-type]
    if kind == "create":
        params = [ParamInfo(name="member_id", references="members")]
        return ToolBehaviour(tool="t", kind="create", collection=coll, params=params)
    params = [ParamInfo(name="booking_id", references="bookings")]
    return ToolBehaviour(tool="t", kind=kind, collection=coll, id_param="booking_id", params=params)  # type: ignore[arg-type]


def _moves(text: str, kind: str = "action", coll: str = "bookings") -> list[tuple[str, str, Any]]:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    effects = transfer_effects(ToolSpec(name="t", description=text), _tool(kind, coll), ctx)
    out = []
    for e in effects:
        v = e.value
        assert v is not None
        out.append((e.record, e.attribute or "", v.name if v.source == "param" else v.const))
    return out


def test_a_credit_by_a_parameter_raises_the_target_s_number() -> None:
    assert _moves("Credits the card by `amount`.", coll="members") == [
        ("target", "card_balance", "amount")
    ]


def test_an_attribute_debited_from_a_referenced_holder_lowers_it() -> None:
    text = "Closes the booking: the booking `price` is debited from the member's card."
    assert _moves(text) == [("via:member_id", "card_balance", ["target", "price", -1])]


def test_a_charge_on_a_create_reads_the_new_record() -> None:
    text = "Books a slot and charges the booking price to the member's card."
    assert _moves(text, kind="create") == [
        ("param:member_id", "card_balance", ["new", "price", -1])
    ]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        (
            "A no-show fee of 15.00 is set as the booking's `penalty` and added to the member's"
            " `debt`.",
            [("via:member_id", "debt", ["target", "penalty", 1])],
        ),
        (
            "Late and cleaning fees are computed as stated and debited from the card.",
            [("via:member_id", "card_balance", ["target", "late_fee", -1]),
             ("via:member_id", "card_balance", ["target", "cleaning_fee", -1])],
        ),
        (
            "Sets status `void`; the refund is credited to the card.",
            [("via:member_id", "card_balance", ["target", "refund_amount", 1])],
        ),
    ],
)  # fmt: skip
def test_amounts_named_by_words_or_by_the_clause_before(text: str, want: list[Any]) -> None:
    assert _moves(text) == want


@pytest.mark.parametrize(
    "text",
    [
        "If the member asks, the booking `price` is debited from the member's card.",
        "Closes the booking; the visits are added to the member's history.",  # no number named
    ],
)
def test_conditions_and_holders_without_a_number_move_nothing(text: str) -> None:
    assert _moves(text) == []


def test_a_moved_amount_keeps_the_data_s_cents() -> None:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    tb = _tool("action", "members")
    (e,) = transfer_effects(
        ToolSpec(name="t", description="Credits the card by `amount`."), tb, ctx
    )
    e.digits = 2
    state = {"members": {"M1": {"card_balance": 118.67}}}
    scope: dict[str, Any] = {"state": state, "_rec": state["members"]["M1"], "amount": 46.14}
    exec("\n".join(_effect_lines(e, tb)), scope)
    assert state["members"]["M1"]["card_balance"] == 164.81


def test_arguments_go_to_the_attribute_the_change_names() -> None:
    tb = ToolBehaviour(
        tool="t", kind="action", collection="bookings", id_param="booking_id",
        params=[ParamInfo(name="booking_id"), ParamInfo(name="reason"),
                ParamInfo(name="new_date"), ParamInfo(name="note")],
    )  # fmt: skip
    attrs = ["booking_id", "reason", "void_reason", "date", "note"]
    spec = ToolSpec(name="t", description="Sets status `void` and records `void_reason`.")
    assert _given_fields(spec, tb, attrs) == {
        "void_reason": "reason",
        "date": "new_date",
        "note": "note",
    }
    plain = ToolSpec(name="t", description="Sets status `void`; `reason` is kept.")
    assert _given_fields(plain, tb, attrs)["reason"] == "reason"


def test_by_it_is_the_amount_named_before_and_names_match_whole() -> None:
    from autoforge.synth.behaviour.counters import _amount

    s = "`amount_paid` increases by the amount and the member's `debt` decreases by it."
    down = _amount(s, "debt", ["amount"])
    assert down is not None and (down[0], down[1].name) == (-1, "amount")
    assert _amount(s, "id", ["amount"]) is None  # "amount_paid" holds no attribute "id"


def test_a_fee_set_as_an_attribute_a_stated_default_and_that_word() -> None:
    from autoforge.synth.behaviour.counters import _that_named
    from autoforge.synth.behaviour.stated import literal_fields, stated_default

    fee = (
        "A no-show fee of 15.00 is set as the booking's `penalty` and added to the member's `debt`."
    )
    assert literal_fields(fee, ["penalty", "debt"], [])["penalty"] == 15.0
    late = "When the member is late, a fee of 15.00 is set as the booking's `penalty`."
    assert "penalty" not in literal_fields(late, ["penalty"], [])  # a condition: not always
    desc = '`label` defaults to "Plain" when not given; `size` defaults to 3.'
    assert stated_default([desc], "label", []) == ("Plain",)
    assert stated_default([desc], "size", []) == (3,)
    assert stated_default([desc], "colour", []) is None
    # a bare word only when it is one of the parameter's values; "... and x to y" continues
    listed = "The three flags default to false and insurance_plan to basic."
    assert stated_default([listed], "insurance_plan", ["basic", "full"]) == ("basic",)
    assert stated_default([listed], "insurance_plan", ["full"]) is None
    assert stated_default(["`starch` defaults to `none`."], "starch", ["none", "light"]) == (
        "none",
    )
    said = "For items whose `stock_level` is a number, that stock is reduced by the quantity."
    assert "`stock_level` is reduced" in _that_named(said, ["stock_level", "price"])


def test_an_optional_argument_updates_a_reached_record_only_when_given() -> None:
    from autoforge.synth.behaviour.writes import param_onto_related

    tb = ToolBehaviour(
        tool="t", kind="action", collection="bookings", id_param="booking_id",
        params=[ParamInfo(name="booking_id", references="bookings"),
                ParamInfo(name="visits_now", required=False)],
    )  # fmt: skip
    text = "If counted, pass `visits_now`; the member's `visits` is updated to it."
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    (e,) = param_onto_related(
        ToolSpec(name="t", description=text), tb, ctx, [("members", "member_id")]
    )
    assert (e.record, e.fields["visits"].name) == ("via:member_id", "visits_now")
    for given, want in ((None, 3), (7, 7)):
        state: dict[str, Any] = {"members": {"M1": {"visits": 3}}}
        rec = {"member_id": "M1"}
        exec("\n".join(_effect_lines(e, tb)), {"state": state, "_rec": rec, "visits_now": given})
        assert state["members"]["M1"]["visits"] == want


def test_on_a_number_counting_what_is_owed_a_charge_raises_it_and_a_refund_lowers_it() -> None:
    def moves(text: str, policy: str) -> list[tuple[str, str, Any]]:
        ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
        tb = _tool("action", "bookings")
        effects = transfer_effects(ToolSpec(name="t", description=text), tb, ctx)
        return [(e.record, e.attribute or "", e.value.const if e.value else None)
                for e in effects]  # fmt: skip

    charge = "The booking `price` is charged to the member's `card_balance`."
    refund = "The `refund_amount` is refunded to the member's `card_balance`."
    assert moves(charge, "") == [("via:member_id", "card_balance", ["target", "price", -1])]
    owes = "# P\n\nEvery member has a `card_balance`: what they owe us. Charges add to it.\n"
    assert moves(charge, owes) == [("via:member_id", "card_balance", ["target", "price", 1])]
    assert moves(refund, owes) == [
        ("via:member_id", "card_balance", ["target", "refund_amount", -1])
    ]
    added = "The booking `price` is added to the member's `card_balance`."
    assert moves(added, owes) == [("via:member_id", "card_balance", ["target", "price", 1])]


def test_a_stated_sum_with_no_holder_after_the_verb_moves_the_number_the_sentence_names() -> None:
    text = "A reinstatement fee of 25.00 is deducted (refused when the card is below 25.00)."
    assert _moves(text, coll="members") == [("target", "card_balance", -25.0)]


def test_a_sum_with_no_number_and_no_holder_moves_nothing() -> None:
    assert _moves("The stored fee is refunded.", coll="members") == []


def test_an_amount_a_referenced_record_holds_is_read_as_a_formula() -> None:
    text = "The member's visits is deducted from the card balance."
    moved = _moves(text, kind="create")
    assert moved == [
        (
            "param:member_id",
            "card_balance",
            ["expr", ["op", "-", ["num", 0], ["rec", "param:member_id", "members", [], "visits"]],
             None],
        )
    ]  # fmt: skip


def test_a_holder_refused_below_the_sum_must_cover_it() -> None:
    from autoforge.synth.behaviour.transfers import _SHORT

    assert _SHORT.search("A fee of 25.00 is deducted (refused when the card is below 25.00).")
    assert not _SHORT.search("A fee of 25.00 is deducted from the card.")
