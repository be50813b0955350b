"""A policy section whose heading names no tool belongs to the tool its opening sentence says
the action of ("A complaint is lodged against ..."), and such a sentence's "against a
`finished` errand" requires that status of the record the call names."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.headings import heading_owners, opens_on_action, verb_stems
from autoforge.synth.behaviour.presumed import stated_requirements
from autoforge.tooldocs import ToolSpec

WRITES = [("lodge_complaint", "Lodge a complaint"), ("finish_errand", "Finish an errand"),
          ("log_hours", "Log hours on an errand")]  # fmt: skip
COLLECTIONS = ["complaints", "errands", "hours"]
VERBS = verb_stems(WRITES, COLLECTIONS)


def _policy(opening: str, more: str = "") -> str:
    return f"# Errands\n\n## Bad experiences\n\n- {opening}\n- {more or 'Be kind.'}\n"


def test_a_section_opening_on_a_tools_action_is_that_tools() -> None:
    said = "A complaint is lodged against a `finished` errand."
    assert heading_owners(_policy(said), WRITES, COLLECTIONS) == {
        "Bad experiences": "lodge_complaint"}  # fmt: skip
    assert opens_on_action(said, "lodge_complaint", VERBS)
    assert not opens_on_action(said, "finish_errand", VERBS)
    # a doubled consonant before "-ed" is the verb's own ("logged": log)
    assert opens_on_action("Hours are logged on started errands.", "log_hours", VERBS)


def test_a_section_of_several_actions_or_no_action_is_no_tools() -> None:
    several = _policy("A complaint is lodged against an errand.", "Hours are logged daily.")
    assert heading_owners(several, WRITES, COLLECTIONS) == {}
    assert heading_owners(_policy("Complaints matter to us."), WRITES, COLLECTIONS) == {}
    # the verb alone, on another noun, is not the tool's action
    assert heading_owners(_policy("A note is lodged with HR."), WRITES, COLLECTIONS) == {}
    # a heading that names a tool keeps it, whatever its first sentence says
    named = "# E\n\n## After work (finish_errand)\n\nA complaint is lodged later.\n"
    assert heading_owners(named, WRITES, COLLECTIONS) == {
        "After work (finish_errand)": "finish_errand"}  # fmt: skip


DATA: dict[str, Any] = {
    "errands": {f"E{i}": {"errand_id": f"E{i}", "status": s}
                for i, s in enumerate(["open", "finished", "cancelled"])},
    "complaints": {"C1": {"complaint_id": "C1", "errand_id": "E1", "status": "open"}},
}  # fmt: skip
TB = ToolBehaviour(
    tool="lodge_complaint", kind="create", collection="complaints",
    params=[ParamInfo(name="errand_id", references="errands"), ParamInfo(name="text")],
)  # fmt: skip


def _required(policy: str) -> list[tuple[str, str | None, list[Any]]]:
    ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
    ctx.schemas["errands"] = {"status": {"enum": ["open", "finished", "cancelled"]}}
    ctx.verbs = VERBS
    ctx.headed = heading_owners(policy, WRITES, COLLECTIONS)
    spec = ToolSpec(name="lodge_complaint", description="Lodge a complaint.")
    return [(c.kind, c.via, c.values) for c in stated_requirements(spec, TB, ctx, [])]


def test_the_status_of_the_record_the_action_is_done_against_is_required() -> None:
    said = "A complaint is lodged against one visit of a `finished` errand (any visit)."
    assert _required(_policy(said)) == [("status_in", "param:errand_id", ["finished"])]
    # the same words in a sentence that is not the action's own require nothing
    other = "Refunds are paid for a `finished` errand."
    assert _required(_policy("A complaint is lodged by phone.", other)) == []


LABELLED = (
    "# Errands\n\n## Day to day\n\n"
    "**Finishing.** An errand can be finished only while it is `open`.\n\n"
    "**Paperwork.** Keep receipts.\n\n"
    "## Lodging (lodge_complaint)\n\n"
    "**Finishing first.** The errand must be `finished`.\n"
)


def test_a_bold_label_heads_a_sub_section_of_a_section_no_tool_owns() -> None:
    from autoforge.synth.behaviour.headings import section_sentences

    headed = heading_owners(LABELLED, WRITES, COLLECTIONS)
    assert headed["Finishing"] == "finish_errand"
    said = section_sentences(LABELLED, "finish_errand", headed)
    assert said == ["An errand can be finished only while it is `open`."]  # not "Keep receipts"
    # in a section a tool owns, a label of another action stays with that section's tool
    assert section_sentences(LABELLED, "lodge_complaint", headed) == [
        "The errand must be `finished`."]  # fmt: skip
    # a bold word that goes on with the line before opens nothing
    going_on = "# E\n\n## Misc\n\nThe errand is\n**finished** by the helper.\n"
    assert "finished" not in heading_owners(going_on, WRITES, COLLECTIONS)


def test_a_label_of_a_verb_several_tools_share_is_chosen_by_the_noun_of_its_line() -> None:
    writes = [("cancel_stay", "Cancel a stay"), ("cancel_visit", "Cancel a visit")]
    policy = ("# K\n\n## Rules\n\n- **Cancellation** is possible only while the stay is "
              "booked.\n- **Cancelling** needs a reason.\n")  # fmt: skip
    assert heading_owners(policy, writes, ["stays", "visits"]) == {"Cancellation": "cancel_stay"}


def test_we_will_not_restricts_the_tool_of_its_verb() -> None:
    from autoforge.synth.behaviour.headings import restricting

    policy = "# E\n\nWe will not lodge a complaint while the errand is open. We will not shout.\n"
    assert restricting(policy, "lodge_complaint", VERBS) == [
        "We will not lodge a complaint while the errand is open."]  # fmt: skip
    assert restricting(policy, "finish_errand", VERBS) == []


def test_a_label_of_another_action_leaves_a_section_whose_owner_was_inferred() -> None:
    from autoforge.synth.behaviour.headings import section_sentences

    policy = ("# E\n\n## Finishing\n\nAn errand must be `open` to finish.\n\n"
              "**Lodging.** A complaint needs a `finished` errand.\n\n"
              "## Extras (finish_errand)\n\n**Lodging.** Keep a copy.\n")  # fmt: skip
    headed = heading_owners(policy, WRITES, COLLECTIONS)
    assert headed["Finishing"] == "finish_errand" and headed["Lodging"] == "lodge_complaint"
    assert section_sentences(policy, "lodge_complaint", headed) == [
        "A complaint needs a `finished` errand."]  # fmt: skip
    assert section_sentences(policy, "finish_errand", headed) == [
        "An errand must be `open` to finish.", "Keep a copy."]  # fmt: skip
