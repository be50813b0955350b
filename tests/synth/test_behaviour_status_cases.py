"""Statuses a sentence names that are no requirement on the record acted on: another record's
("no other trip `active`"), the case a rule is about ("An issued invoice can only be voided
when ..."), the result ("turns a draft into an `issued` invoice"), an em-dash aside."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.presumed import presumed_checks
from autoforge.synth.behaviour.text import status_checks
from autoforge.tooldocs import ToolSpec

STATUSES = ["draft", "issued", "partially_paid", "paid", "void"]
DATA: dict[str, Any] = {
    "bills": {f"B{i}": {"bill_id": f"B{i}", "status": s} for i, s in enumerate(STATUSES)}
}
TB = ToolBehaviour(
    tool="settle_bill", kind="action", collection="bills", id_param="bill_id",
    params=[ParamInfo(name="bill_id", references="bills")],
)  # fmt: skip


def _ctx() -> Context:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    ctx.schemas["bills"] = {"status": {"type": "string", "enum": STATUSES}}
    return ctx


def _status(text: str) -> list[tuple[str, list[Any]]]:
    spec = ToolSpec(name="settle_bill", description=text)
    checks = status_checks(spec, TB, _ctx())
    checks += presumed_checks(spec, TB, _ctx(), checks)
    return [(c.kind, c.values) for c in checks]


def test_statuses_that_are_no_requirement_make_no_check() -> None:
    assert _status("Allowed only for a payer who has no other bill `issued`.") == []
    assert _status("An issued bill can only be settled when nothing is owed on it.") == []
    assert _status("Turns a draft into an `issued` bill dated today.") == []
    assert _status("Works on open bills \u2014 a lapsed bill must be void first.") == []


def test_the_statuses_a_requirement_names_still_make_one() -> None:
    assert _status("Only issued or partially paid bills can be settled.") == [
        ("status_in", ["issued", "partially_paid"])]  # fmt: skip
    assert _status("Settles an `issued` bill.") == [("status_in", ["issued"])]


def test_a_list_of_conditions_after_a_lead_in_requires_each() -> None:
    """ "Before it lets a bill go, the system checks that:" then "- the bill is still a draft":
    a list item says "is", yet is a requirement of the tool its section is about."""
    from autoforge.synth.behaviour.headings import checklist_items

    policy = (
        "## Settling (settle_bill)\n\nSettling closes a bill. Before it does, the system "
        "checks that:\n\n- the bill is still a draft and has a line;\n- nothing else is owed.\n\n"
        "Afterwards the bill is paid.\n"
    )
    assert checklist_items(policy, "settle_bill") == [
        "the bill is still a draft and has a line", "nothing else is owed"]  # fmt: skip
    ctx = _ctx()
    ctx.policy = policy
    checks = status_checks(ToolSpec(name="settle_bill", description="Settle a bill."), TB, ctx)
    assert [(c.kind, c.values, c.sentence) for c in checks] == [
        ("status_in", ["draft"], "the bill is still a draft and has a line")]  # fmt: skip


def test_a_status_in_the_plural_names_the_records_in_it() -> None:
    """ "Only drafts can be changed": the plural of a noun-like status is its records; a
    participle has no such plural ("cancelleds" is no word to look for)."""
    assert _status("Only drafts can be changed.") == [("status_in", ["draft"])]
    from autoforge.synth.behaviour.text import _PLURAL_OK

    assert _PLURAL_OK.search("draft") and _PLURAL_OK.search("hold")
    assert not any(_PLURAL_OK.search(v) for v in ("cancelled", "active", "pending", "approved"))


def test_a_summary_names_the_status_it_acts_on_in_plain_words() -> None:
    """A summary line ("Settle an issued bill") writes statuses without backticks; the same
    words in a later sentence need them (prose there names many things)."""
    assert _status("Settle an issued bill\n\nThe bill is settled in full.") == [
        ("status_in", ["issued"])]  # fmt: skip
    assert _status("Settle a bill\n\nThe payer gets an issued bill in the post.") == []


def test_not_allowed_refuses_and_what_must_first_be_done_is_a_remedy() -> None:
    assert _status("Not allowed for `void` bills (409); paid and draft bills are fine.") == [
        ("status_not_in", ["void"])]  # fmt: skip
    assert _status("Drafts must be issued again first, and nothing is owed after it.") == [
        ("status_not_in", ["draft"])]  # fmt: skip
    assert _status("Only on the due date; draft bills have to be issued first.") == [
        ("status_not_in", ["draft"])]  # fmt: skip


def test_refused_and_possible_say_which_statuses_a_call_takes() -> None:
    assert _status("Possible while the bill is `issued` or `paid`.") == [
        ("status_in", ["issued", "paid"])]  # fmt: skip
    assert _status("Payments on a void bill are refused.") == [("status_not_in", ["void"])]
