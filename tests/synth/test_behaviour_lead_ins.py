"""Lists of conditions a lead-in sentence names the action of, wherever in the policy they
stand; parameters bounded by a record's attribute named in words; moves of a value only one
reached record holds; stamps "set to today"; tally bounds beside a stated move."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.headings import checklist_items, tool_sentences, verb_stems
from autoforge.synth.behaviour.stated import time_fields
from autoforge.synth.behaviour.text import attribute_bounds, status_checks
from autoforge.tooldocs import ToolSpec

WRITES = [("hire_helper", "Put a helper on an accepted errand"), ("accept_errand", "Accept")]
VERBS = verb_stems(WRITES, ["helpers", "errands"])
POLICY = (
    "# Errands\n\n## Staffing\n\nSome text first.\n\n"
    "A helper can be put on an `accepted` errand when:\n\n"
    "- the helper is `available` (people away can't be hired);\n"
    "- the errand's deadline is today or later, and the helper\n"
    "  has never been on it before.\n\n"
    "## Closing\n\nA reactive result sets off the follow-up, which does all of the following:\n\n"
    "- the helper is `away`.\n"
)


def test_a_lead_in_naming_the_action_gives_its_items_to_that_tool() -> None:
    """The section's heading names no tool; the lead-in names ``hire_helper``'s action by the
    verb of its name ("hired") or summary ("put"); a word in code (a status) is no action, and
    an item's text may go on over an indented line."""
    items = checklist_items(POLICY, "hire_helper", {}, VERBS)
    assert items == [
        "the helper is `available` (people away can't be hired)",
        "the errand's deadline is today or later, and the helper has never been on it before",
    ]
    assert checklist_items(POLICY, "accept_errand", {}, VERBS) == []
    assert checklist_items(POLICY, "hire_helper") == []  # without the verbs: sections only


def test_the_items_reach_every_reader_said_as_requirements() -> None:
    """In :func:`tool_sentences` an item says "must be", never "is" (a status it names is
    asked for, not written)."""
    said = tool_sentences(POLICY, "hire_helper", {}, VERBS)
    assert "the helper must be `available` (people away can't be hired)" in said
    assert not any("`away`" in s for s in said)  # a list of what is done opens no conditions


DATA: dict[str, Any] = {
    "helpers": {
        f"H{i}": {"helper_id": f"H{i}", "status": s, "balance": 10.0 * i}
        for i, s in enumerate(["available", "away"])
    },
    "errands": {"E1": {"errand_id": "E1", "status": "accepted", "helper_id": "H0"}},
}
TB = ToolBehaviour(
    tool="hire_helper", kind="action", collection="errands", id_param="errand_id",
    params=[ParamInfo(name="errand_id", references="errands"),
            ParamInfo(name="helper_id", references="helpers"), ParamInfo(name="amount")],
)  # fmt: skip


def _ctx(policy: str = "") -> Context:
    ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
    ctx.schemas["helpers"] = {"status": {"type": "string", "enum": ["available", "away"]}}
    ctx.schemas["errands"] = {"status": {"type": "string", "enum": ["accepted", "done"]}}
    ctx.verbs = VERBS
    return ctx


def test_a_listed_status_of_a_named_record_is_required() -> None:
    spec = ToolSpec(name="hire_helper", description="Put a helper on an errand.")
    checks = status_checks(spec, TB, _ctx(POLICY))
    assert [(c.kind, c.collection, c.values) for c in checks if c.collection == "helpers"] == [
        ("status_in", "helpers", ["available"])]  # fmt: skip


def test_the_statuses_of_all_of_their_records_are_no_requirement() -> None:
    policy = (
        "## Staffing\n\nA helper can be put on an errand when:\n\n"
        "- the sum of the fees of all of their errands currently `accepted` or `done` is "
        "under the limit.\n"
    )
    spec = ToolSpec(name="hire_helper", description="Put a helper on an errand.")
    assert status_checks(spec, TB, _ctx(policy)) == []


def test_a_bound_named_in_words_is_read() -> None:
    """ "The amount must ... not exceed the helper's current balance": the parameter and the
    attribute in words, not in code."""
    spec = ToolSpec(
        name="hire_helper",
        description="The amount must be positive and not exceed the helper's current balance.",
    )
    checks = attribute_bounds(spec, TB, _ctx())
    assert [(c.kind, c.param, c.collection, c.attribute) for c in checks] == [
        ("not_above", "amount", "helpers", "balance")]  # fmt: skip
    other = ToolSpec(name="hire_helper", description="The amount is the helper's balance.")
    assert attribute_bounds(other, TB, _ctx()) == []


def test_set_to_today_stamps_the_attribute() -> None:
    assert time_fields("A payment is created with `paid_on` set to today.", ["paid_on"]) == {
        "paid_on": "today"}  # fmt: skip
    assert time_fields("Only when `paid_on` is set to a day before today.", ["paid_on"]) == {}


def test_a_move_of_a_value_only_one_reached_record_holds_needs_no_noun() -> None:
    """ "The balance goes down by the amount" on a call that reaches the helper (the only
    record it reaches that has a ``balance``): the helper's balance moves."""
    from autoforge.synth.behaviour.counters import increments

    said = "The balance goes down by the amount and a receipt is written."
    (eff,) = increments(ToolSpec(name="hire_helper", description=said), TB, _ctx())
    assert (eff.collection, eff.attribute, eff.value and eff.value.name) == (
        "helpers", "balance", "-amount")  # fmt: skip
    both = {**DATA, "clients": {"C1": {"client_id": "C1", "balance": 5.0}}}
    client = ParamInfo(name="client_id", references="clients")
    tb = TB.model_copy(update={"params": [*TB.params, client]})
    ctx = Context(ev=DataEvidence.of(both), policy="")
    assert increments(ToolSpec(name="hire_helper", description=said), tb, ctx) == []


def test_a_restriction_on_the_action_anywhere_in_the_policy_is_the_tool_s() -> None:
    """ "Only `available` helpers can be hired." under a heading about something else: the
    verb is ``hire_helper``'s and no other tool's."""
    from autoforge.synth.behaviour.headings import restricting

    policy = (
        "## People\n\nOnly `available` helpers can be hired. Errands may not be accepted twice."
    )
    assert restricting(policy, "hire_helper", VERBS) == ["Only `available` helpers can be hired."]
    assert restricting(policy, "accept_errand", VERBS) == ["Errands may not be accepted twice."]
    assert restricting(policy, "hire_helper", None) == []


def test_what_a_record_owes_in_brackets_bounds_the_argument() -> None:
    said = "The amount must be greater than zero and not exceed what the helper owes (its balance)."
    spec = ToolSpec(name="hire_helper", description=said)
    checks = attribute_bounds(spec, TB, _ctx())
    assert [(c.kind, c.attribute) for c in checks] == [("not_above", "balance")]


def test_one_record_per_referred_record_when_the_data_agrees() -> None:
    """ "one open errand per helper" (open defined as a list of statuses): a new errand is
    refused while the helper holds one in those statuses; "one errand a day" is per day, and a
    rule the data breaks is no rule read right."""
    from autoforge.synth.behaviour.pairs import pair_checks

    make = ToolBehaviour(
        tool="add_errand", kind="create", collection="errands",
        params=[ParamInfo(name="helper_id", references="helpers")],
    )  # fmt: skip
    data = {**DATA, "errands": {
        "E1": {"errand_id": "E1", "status": "accepted", "helper_id": "H0"},
        "E2": {"errand_id": "E2", "status": "done", "helper_id": "H0"}}}  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="An errand still open (`accepted` or `new`).")
    ctx.schemas["errands"] = {"status": {"type": "string", "enum": ["new", "accepted", "done"]}}
    (check,) = pair_checks(make, ["Refused: one open errand per helper."], ctx)
    assert (check.kind, check.values, check.table) == (
        "no_record_for", ["helper_id"], {"counted": ["new", "accepted"]})  # fmt: skip
    assert pair_checks(make, ["A helper runs one errand a day."], ctx) == []
    assert pair_checks(make, ["Refused: one errand per helper."], ctx) == []  # H0 has two


def test_a_lead_time_and_a_bold_horizon_bound_a_date_argument() -> None:
    """ "must be at least **2 days** after today and no more than **42 days** after today"."""
    from autoforge.synth.behaviour.arguments import argument_checks

    said = "`due_on` must be at least **2 days** after today and at most **42 days** ahead."
    spec = ToolSpec(name="hire_helper", description=said)
    tb = TB.model_copy(update={"params": [*TB.params, ParamInfo(name="due_on", format="date")]})
    got = sorted((c.param, c.values[0], c.values[1][1]) for c in argument_checks(spec, tb, _ctx()))
    assert got == [("due_on", "<=", 42), ("due_on", ">=", 2)]


def test_a_record_past_a_limit_refuses_the_call() -> None:
    """ "A helper whose `balance` is above 20 cannot be hired": the reached helper's balance
    must stay at or under 20; a sentence that refuses nothing reads no limit."""
    from autoforge.synth.behaviour.relations import whose_refusals

    said = ["A helper whose `balance` is **above 20.00** cannot be hired until it is paid."]
    (check,) = whose_refusals(said, TB, _ctx())
    assert (check.kind, check.collection, check.attribute, check.values) == (
        "threshold", "helpers", "balance", ["<=", 20.0])  # fmt: skip
    assert whose_refusals(["A helper whose balance is above 20 gets a letter."], TB, _ctx()) == []


def test_a_window_on_a_referred_record_s_date() -> None:
    """ "The errand date is inside the window: from today up to 10 days after today": the
    errand the call names must be dated from today to today + 10; when the horizon has an
    exception ("Seniors get a longer window."), only the start is read."""
    from autoforge.synth.behaviour.text import date_range_checks

    data = {**DATA, "errands": {"E1": {"errand_id": "E1", "status": "accepted",
                                       "helper_id": "H0", "date": "2026-01-05"}}}  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    said = "The errand date is inside the window: from today up to 10 days after today."
    got = [(c.collection, c.attribute, c.values) for c in date_range_checks([said], TB, ctx)]
    assert got == [("errands", "date", [">=", 0]), ("errands", "date", ["<=", 10])]
    later = date_range_checks([said, "Seniors get a longer window of 20 days."], TB, ctx)
    assert [c.values for c in later] == [[">=", 0]]
