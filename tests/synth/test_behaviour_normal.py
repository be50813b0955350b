"""What the docs say a text argument becomes before it is used, and values a sentence gives by
the value and the attribute's words; written for this test, no benchmark's phrasing."""

from __future__ import annotations

from typing import Any

from autoforge.env import ParamInfo
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.normal import normal_forms, normal_lines
from autoforge.synth.behaviour.stated import named_values

DATA: dict[str, Any] = {
    "members": {
        "M1": {"member_id": "M1", "handle": "ada", "plate": "XK12AB", "motto": "Carpe Diem"},
        "M2": {"member_id": "M2", "handle": "bo", "plate": "QQ7", "motto": "Onward"},
    }
}
TEXT = {"type": "string"}


def _forms(*sentences: str) -> dict[str, list[str]]:
    params = [ParamInfo(name=n) for n in ("handle", "plate", "motto", "member_id")]
    schemas = {"handle": TEXT, "plate": TEXT, "motto": TEXT,
               "member_id": {"type": "string", "format": "uuid"}}  # fmt: skip
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    normal_forms(params, schemas, list(sentences), ctx, "members")
    return {p.name: p.normal for p in params if p.normal}


def test_trimmed_lowered_and_cleaned_of_spaces_in_upper_case() -> None:
    got = _forms(
        "The handle is trimmed and kept in lower case.",
        "Before use the plate has all spaces removed and is converted to upper case.",
    )
    assert got == {"handle": ["strip", "lower"], "plate": ["nospace", "upper"]}


def test_a_comparison_that_ignores_case_changes_nothing() -> None:
    assert _forms("Handles are compared without regard to upper or lower case.") == {}
    assert _forms("The motto is matched ignoring upper/lower case.") == {}


def test_a_case_the_data_contradicts_is_not_applied() -> None:
    # mottos in the data keep their capitals: "stored in lower case" cannot be what it means
    assert _forms("The motto is stored in lower case.") == {}


def test_the_compiled_prelude_cleans_the_argument_and_leaves_a_missing_one() -> None:
    p = ParamInfo(name="plate", normal=["nospace", "upper"])
    scope: dict[str, Any] = {"plate": " ab 12 c "}
    exec("\n".join(normal_lines([p], "<unset>")), scope)
    assert scope["plate"] == "AB12C"
    scope = {"plate": "<unset>"}
    exec("\n".join(normal_lines([p], "<unset>")), scope)
    assert scope["plate"] == "<unset>"


def test_a_value_given_by_the_value_and_the_attributes_words() -> None:
    enums = {"support_level": ["standard", "priority"], "status": ["open", "closed"]}
    assert named_values("Every new account starts on the `standard` support level.", enums) == {
        "support_level": "standard"
    }
    assert named_values("Its support level is `priority` from then on.", enums) == {
        "support_level": "priority"
    }
    assert named_values("Only `open` accounts can be moved.", enums) == {}


def test_a_reference_named_by_its_records_noun_takes_their_case() -> None:
    data = {
        "vouchers": {"SPRING5": {"code": "SPRING5"}},
        "carts": {
            "C1": {"cart_id": "C1", "voucher": "SPRING5"},
            "C2": {"cart_id": "C2", "voucher": None},
        },
    }
    params = [ParamInfo(name="voucher", references="vouchers"),
              ParamInfo(name="cart_id", references="carts")]  # fmt: skip
    schemas = {"voucher": {"type": ["string", "null"]}, "cart_id": TEXT}
    ctx = Context(ev=DataEvidence.of(data), policy="")
    said = ["A voucher may be typed in any case; the cart keeps it in upper case."]
    normal_forms(params, schemas, said, ctx, "carts", "cart_id")
    assert [p.normal for p in params] == [["upper"], []]  # the key is not rewritten


def test_today_as_an_attribute_and_a_later_changes_stamp() -> None:
    from autoforge.synth.behaviour.derive import _mostly_unset
    from autoforge.synth.behaviour.stated import time_fields

    said = "The entry starts as `open` with today's date as `opened_on`; now as `seen_at`."
    assert time_fields(said, ["opened_on", "seen_at", "closed_on"]) == {
        "opened_on": "today", "seen_at": "now"}  # fmt: skip
    data = {"entries": {f"E{i}": {"entry_id": f"E{i}", "state": "open", "opened_on": "2030-01-01",
                                  "closed_on": "2030-02-01" if i == 0 else None}
                        for i in range(4)}}  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    # most open entries have no closed_on: a create never stamps it, whatever a sentence says
    assert _mostly_unset(ctx, "entries", "state", "open") == {"closed_on"}
