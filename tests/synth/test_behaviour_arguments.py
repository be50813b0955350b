"""Rules on an argument's own value: decimals, a sign, a date window relative to today; the
guard refuses a value that breaks them and lets the others through."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.arguments import argument_checks
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.dates import helper_lines
from autoforge.tooldocs import ToolSpec

PARAMS = {
    "properties": {"fee": {"type": "number"}, "visit_on": {"type": "string", "format": "date"}}
}
TB = ToolBehaviour(
    tool="plan_visit", kind="create", collection="visits",
    params=[ParamInfo(name="fee"), ParamInfo(name="visit_on", format="date")],
)  # fmt: skip


class ToolError(Exception):
    pass


def _checks(text: str) -> list[Any]:
    ctx = Context(ev=DataEvidence.of({"visits": {}}), policy="")
    return argument_checks(
        ToolSpec(name="plan_visit", description=text, parameters=PARAMS), TB, ctx
    )


def _refused(text: str, **args: Any) -> bool:
    code = "\n".join([*helper_lines(), *(ln for c in _checks(text) for ln in _check_lines(c, TB))])
    scope = {"ToolError": ToolError, "_today": "2031-03-30", "fee": None, "visit_on": None, **args}
    try:
        exec(code, scope)
    except ToolError:
        return True
    return False


@pytest.mark.parametrize(
    ("text", "args", "refused"),
    [
        ("The `fee` must be positive and have at most two decimals.", {"fee": 12.345}, True),
        ("The `fee` must be positive and have at most two decimals.", {"fee": 12.34}, False),
        ("The `fee` must be positive and have at most two decimals.", {"fee": 0}, True),
        ("The visit date may be today but not in the future.", {"visit_on": "2031-03-31"}, True),
        ("The visit date may be today but not in the future.", {"visit_on": "2031-03-30"}, False),
        ("The visit on must be no more than 5 days ahead.", {"visit_on": "2031-04-04"}, False),
        ("The visit on must be no more than 5 days ahead.", {"visit_on": "2031-04-05"}, True),
        ("It is booked between today and 5 days from today.", {"visit_on": "2031-03-29"}, True),
        (
            "`visit_on` must be after today and at most 5 days after today.",
            {"visit_on": "2031-03-30"},
            True,
        ),
        (
            "`visit_on` must be after today and at most 5 days after today.",
            {"visit_on": "2031-04-04"},
            False,
        ),
        (
            "`visit_on` must be after today and at most 5 days after today.",
            {"visit_on": "2031-04-05"},
            True,
        ),
        ("Any day up to 5 days from today is fine.", {"visit_on": "2031-04-05"}, True),
        ("`visit_on` may be at most 7 days before today.", {"visit_on": "2031-03-23"}, False),
        ("`visit_on` may be at most 7 days before today.", {"visit_on": "2031-03-22"}, True),
        ("It happened within the last 7 days.", {"visit_on": "2031-03-22"}, True),
        ("`visit_on` may be today or up to 9 days after today.", {"visit_on": "2031-03-29"}, True),
        ("`visit_on` may be today or up to 9 days after today.", {"visit_on": "2031-03-30"}, False),
        ("`visit_on` may be today or up to 9 days after today.", {"visit_on": "2031-04-09"}, True),
        ("It falls between tomorrow and 3 days from today.", {"visit_on": "2031-03-30"}, True),
        ("It falls between tomorrow and 3 days from today.", {"visit_on": "2031-03-31"}, False),
        ("It falls between tomorrow and 3 days from today.", {"visit_on": "2031-04-03"}, True),
        ("`visit_on` is never on a Sunday.", {"visit_on": "2031-03-30"}, True),
        ("`visit_on` is never on a Sunday.", {"visit_on": "2031-03-31"}, False),
        ("We are closed on weekends.", {"visit_on": "2031-03-29"}, True),
        ("We are closed on weekends.", {"visit_on": "2031-03-31"}, False),
    ],
)
def test_an_argument_rule_refuses_what_breaks_it(
    text: str, args: dict[str, Any], refused: bool
) -> None:
    assert _refused(text, **args) is refused


def test_no_rule_without_its_words_or_a_clear_parameter() -> None:
    assert _checks("Plans a visit for a pet.") == []
    tb = TB.model_copy(update={"params": [*TB.params, ParamInfo(name="extra_fee")]})
    params = {"properties": {**PARAMS["properties"], "extra_fee": {"type": "number"}}}
    spec = ToolSpec(
        name="plan_visit", description="Amounts have at most two decimals.", parameters=params
    )
    ctx = Context(ev=DataEvidence.of({"visits": {}}), policy="")
    assert argument_checks(spec, tb, ctx) == []  # two amounts, none named: whose rule?


def test_the_two_dates_of_a_range_must_be_in_order_when_the_docs_say_so() -> None:
    params = {"properties": {"seen_from": {"type": "string", "format": "date"},
                             "seen_to": {"type": "string", "format": "date"}}}  # fmt: skip
    tb = ToolBehaviour(
        tool="list_visits", kind="list", collection="visits",
        params=[ParamInfo(name="seen_from", format="date"),
                ParamInfo(name="seen_to", format="date")],
    )  # fmt: skip
    ctx = Context(ev=DataEvidence.of({"visits": {}}), policy="")
    said = "Both bounds are inclusive; seen_from later than seen_to is refused."
    spec = ToolSpec(name="list_visits", description=said, parameters=params)
    (check,) = argument_checks(spec, tb, ctx, pair_only=True)
    code = "\n".join(_check_lines(check, tb))
    for a, b, refused in (("2031-01-02", "2031-01-01", True), ("2031-01-01", "2031-01-02", False),
                          ("2031-01-02", None, False)):  # fmt: skip
        try:
            exec(code, {"ToolError": ToolError, "seen_from": a, "seen_to": b})
            assert not refused
        except ToolError:
            assert refused
    quiet = ToolSpec(
        name="list_visits", description="Both bounds are inclusive.", parameters=params
    )
    assert argument_checks(quiet, tb, ctx, pair_only=True) == []


def test_one_choice_requires_or_forbids_another_argument() -> None:
    from autoforge.synth.behaviour.arguments import choice_rules

    props = {"properties": {"method": {"type": "string", "enum": ["card", "cash", "wire"]},
                            "reference": {"type": "string"}}}  # fmt: skip
    tb = ToolBehaviour(tool="pay", kind="create", collection="payments",
                       params=[ParamInfo(name="method"), ParamInfo(name="reference")])  # fmt: skip
    said = ("`reference` is mandatory (non-blank) for `wire`, optional for `card`, and must not"
            " be sent for `cash`.")  # fmt: skip
    checks = choice_rules(ToolSpec(name="pay", description=said, parameters=props), tb)
    code = "\n".join(ln for c in checks for ln in _check_lines(c, tb))

    def refused(**args: Any) -> bool:
        try:
            exec(code, {"ToolError": ToolError, **args})
        except ToolError:
            return True
        return False

    assert refused(method="wire", reference="  ") and not refused(method="wire", reference="R1")
    assert refused(method="cash", reference="R1") and not refused(method="cash", reference=None)
    assert not refused(method="card", reference=None)


def test_a_read_takes_the_window_of_a_sentence_naming_its_date_in_code() -> None:
    tb = TB.model_copy(update={"kind": "list", "tool": "free_slots"})
    ctx = Context(ev=DataEvidence.of({"visits": {}}), policy="")

    def rules(text: str) -> list[Any]:
        spec = ToolSpec(name="free_slots", description=text, parameters=PARAMS)
        return [c.values for c in argument_checks(spec, tb, ctx, pair_only=True)]

    assert rules("`visit_on` may be today or up to 9 days after today.") == [
        ["<=", ["today", 9]],
        [">=", ["today", 0]],
    ]
    assert rules("Slots may be today or up to 9 days after today.") == []
