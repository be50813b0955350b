"""A list led by a label naming a tool ("Filing (file_errand_claim):") holds that tool's
conditions, and a deadline counted from a reached record's date ("at the latest 30 days after
`finished_on`") bounds the call."""

from __future__ import annotations

from typing import Any

from doc_tools import guard_refuses

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.dates import helper_lines
from autoforge.synth.behaviour.elapsed import deadline_checks
from autoforge.synth.behaviour.headings import checklist_items, tool_sentences, verb_stems
from autoforge.tooldocs import ToolSpec

WRITES = [("lodge_complaint", "Lodge a complaint"), ("finish_errand", "Finish an errand")]
VERBS = verb_stems(WRITES, ["complaints", "errands"])
POLICY = (
    "# Errands\n\n## Complaints\n\n"
    "Lodging (lodge_complaint):\n"
    "- only for finished errands, and at the latest 30 days after finished_on;\n"
    "- an errand can have one open complaint at a time.\n\n"
    "Results:\n- the errand is `finished`.\n"
)
DATA: dict[str, Any] = {
    "errands": {
        f"E{i}": {"errand_id": f"E{i}", "status": "finished", "finished_on": f"2025-0{i}-10"}
        for i in range(1, 4)
    },
    "complaints": {"C1": {"complaint_id": "C1", "errand_id": "E1", "status": "open"}},
}
TB = ToolBehaviour(
    tool="lodge_complaint", kind="create", collection="complaints",
    params=[ParamInfo(name="errand_id", references="errands"), ParamInfo(name="text")],
)  # fmt: skip


def _ctx(policy: str = POLICY) -> Context:
    ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
    ctx.verbs = VERBS
    return ctx


def test_a_label_naming_a_tool_opens_its_list_of_conditions() -> None:
    items = checklist_items(POLICY, "lodge_complaint", {}, VERBS)
    assert items == [
        "only for finished errands, and at the latest 30 days after finished_on",
        "an errand can have one open complaint at a time",
    ]
    assert checklist_items(POLICY, "finish_errand", {}, VERBS) == []
    # a label without a tool's name in parentheses opens nothing ("Results:" lists effects)
    assert not any("`finished`" in s for s in tool_sentences(POLICY, "finish_errand", {}, VERBS))


def _deadlines(sentence: str, where: str = "policy") -> list[Any]:
    policy = f"# E\n\n## Complaints\n\nLodging (lodge_complaint):\n- {sentence}\n"
    desc = sentence if where == "docs" else "Lodge a complaint."
    spec = ToolSpec(name="lodge_complaint", description=desc)
    return deadline_checks(spec, TB, _ctx(policy if where == "policy" else ""))


def test_a_deadline_after_a_reached_records_date_is_a_date_window() -> None:
    [check] = _deadlines("only for finished errands, and at the latest 30 days after finished_on")
    assert (check.kind, check.collection, check.attribute, check.via, check.values) == (
        "date_window", "errands", "finished_on", "param:errand_id", [">=", -30])  # fmt: skip
    [said] = _deadlines("A complaint can be lodged within 14 days of `finished_on`.", "docs")
    assert said.values == [">=", -14] and said.source == "docs"
    [refused] = _deadlines(
        "Complaints are refused more than 7 days after the errand's finished_on."
    )
    assert refused.values == [">=", -7]


def test_what_is_no_deadline_on_a_reached_date_is_left_alone() -> None:
    # two deadlines under a condition this reading does not carry
    assert _deadlines("Lost items up to 30 days after finished_on, damage up to 7 days after "
                      "finished_on.") == []  # fmt: skip
    assert _deadlines("Refunds are paid 14 days after finished_on.") == []  # no rule said
    assert _deadlines("more than 30 days after finished_on the errand is archived.") == []
    assert _deadlines("at the latest 30 days after the due date") == []  # no such attribute


def test_the_compiled_window_refuses_a_date_older_than_the_deadline() -> None:
    [check] = _deadlines("at the latest 30 days after finished_on")
    code = "\n".join([*helper_lines(), *_check_lines(check, TB)])
    scope = {"_today": "2025-03-31", "_rec": {}, "state": {"errands": DATA["errands"]},
             "errand_id": "E2"}  # fmt: skip
    assert guard_refuses(code, **scope)  # finished on 2025-02-10: 49 days before today
    assert not guard_refuses(code, **{**scope, "errand_id": "E3"})  # 2025-03-10: 21 days


VISITS: dict[str, Any] = {
    "visits": {f"V{i}": {"visit_id": f"V{i}", "status": "booked", "event_date": f"2025-04-0{i}",
                         "booked_on": "2025-03-01"} for i in range(1, 4)},
}  # fmt: skip
CANCEL = ToolBehaviour(tool="cancel_visit", kind="action", collection="visits",
                       id_param="visit_id", params=[ParamInfo(name="visit_id")])  # fmt: skip


def _lead(sentence: str) -> list[Any]:
    ctx = Context(ev=DataEvidence.of(VISITS), policy="")
    ctx.verbs = verb_stems([("cancel_visit", "Cancel a visit")], ["visits"])
    spec = ToolSpec(name="cancel_visit", description=sentence)
    return [(c.attribute, c.via, c.values) for c in deadline_checks(spec, CANCEL, ctx)]


def test_a_lead_time_before_a_records_date_is_a_date_window() -> None:
    assert _lead("Visits can be cancelled no later than the day before the event.") == [
        ("event_date", None, [">=", 1])]  # fmt: skip
    # the same lead time said twice is one window
    assert _lead("Only until the day before the event (at least 1 day out).") == [
        ("event_date", None, [">=", 1])]  # fmt: skip
    assert _lead("Cancelling is allowed only while the event is at least 3 days out.") == [
        ("event_date", None, [">=", 3])]  # fmt: skip
    assert _lead("The event must be no earlier than three days after today.") == [
        ("event_date", None, [">=", 3])]  # fmt: skip
    # a condition of a fee, two different lead times, or no date the words name: nothing
    assert _lead("If the visit is cancelled at least 2 days before the event, no fee is "
                 "due.") == []  # fmt: skip
    assert _lead("Cancel at least 2 days out, or at least 5 days out for groups, only.") == []
    assert _lead("Visits can be cancelled no later than the day before the payment.") == []


def test_its_date_against_today_is_a_date_window_on_the_date_its_words_name() -> None:
    assert _lead("Possible only while the visit is booked and its event date is today or "
                 "later.") == [("event_date", None, [">="])]  # fmt: skip
    assert _lead("Only for a visit whose date is before today.") == [("event_date", None, ["<"])]
    # a relation the clause refuses, or one in a condition, is left alone
    assert _lead("A visit whose date is after today cannot be closed.") == []
    assert _lead("If its date is before today, a fee is due; visits must be booked.") == []
