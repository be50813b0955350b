"""Policy sections that speak of a tool without naming it ("### Lending" for a tool whose
summary is "Lend a tool"), and yes/no attributes the docs make a condition of the call
("Retired tools cannot be lent")."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.flags import flag_checks
from autoforge.synth.behaviour.headings import heading_owners, tool_sentences
from autoforge.tooldocs import ToolSpec

POLICY = """# Tool library handbook

## Lending
Retired tools cannot be lent.

## Returns
A tool comes back clean.

## Tools
Every tool has a shelf.

## Members and fees
Fees are paid at the desk.
"""
WRITES = [("lend_tool", "Lend a tool to a member"), ("take_back_tool", "Returning a tool"),
          ("retire_tool", "Retire a worn tool"), ("pay_fee", "Pay a fee"),
          ("waive_fee", "Waive a fee")]  # fmt: skip


def test_headings_belong_to_the_one_tool_whose_verb_they_share() -> None:
    owners = heading_owners(POLICY, WRITES, ["tools", "members"])
    assert owners["Lending"] == "lend_tool"
    assert owners["Returns"] == "take_back_tool"  # the summary's verb: "Returning" ~ "Returns"
    assert "Tool library handbook" not in owners  # the document's title covers everything
    assert "Tools" not in owners  # a noun every tool shares is nobody's heading
    assert "Members and fees" not in owners  # two tools pay and waive fees: whose?
    said = tool_sentences(POLICY, "lend_tool", owners)
    assert said == ["Retired tools cannot be lent."]


def test_one_verb_for_several_tools_the_heading_noun_chooses() -> None:
    policy = "# Rules\n\n## Retiring a kit\nKits go to the basement.\n\n## Retiring\nAsk first.\n"
    writes = [("retire_tool", "Retire a tool"), ("retire_kit", "Retire a kit")]
    owners = heading_owners(policy, writes, ["tools", "kits"])
    assert owners == {"Retiring a kit": "retire_kit"}  # "Retiring" alone fits both: nobody's


DATA: dict[str, Any] = {
    "tools": {"T1": {"tool_id": "T1", "retired": False, "active": True},
              "T2": {"tool_id": "T2", "retired": True, "active": False}},
}  # fmt: skip
TB = ToolBehaviour(
    tool="lend_tool", kind="action", collection="tools", id_param="tool_id",
    params=[ParamInfo(name="tool_id", references="tools")],
)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "attr", "refused"),
    [
        ("Retired tools cannot be lent.", "retired", True),
        ("The tool must not be retired.", "retired", True),
        ("The tool must be active.", "active", False),
        ("Refused when the tool is retired.", "retired", True),
        ("The tool must exist and must not be withdrawn (`active` false).", "active", False),
        ("Refused when the tool is deactivated.", "active", False),  # the flag's negation
        ("Inactive tools cannot be lent.", "active", False),
    ],
)
def test_a_yes_no_attribute_named_as_a_condition(text: str, attr: str, refused: bool) -> None:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    (check,) = flag_checks(ToolSpec(name="lend_tool", description=text), TB, ctx)
    assert (check.kind, check.attribute, check.values) == ("status_not_in", attr, [refused])


def test_a_flag_word_elsewhere_is_no_condition() -> None:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    assert flag_checks(ToolSpec(name="lend_tool", description="Lends a tool."), TB, ctx) == []


def test_a_section_s_must_have_status_sentence_is_its_tool_s_precondition() -> None:
    from autoforge.synth.behaviour.text import status_checks

    policy = (
        "## Lending\nThe tool must currently have status `shelved`.\nA lent tool must keep a tag.\n"
    )
    ctx = Context(ev=DataEvidence.of(DATA), policy=policy)
    ctx.schemas["tools"] = {"status": {"enum": ["shelved", "lent"]}}
    ctx.headed = {"Lending": "lend_tool"}
    (check,) = status_checks(ToolSpec(name="lend_tool", description="Lends a tool."), TB, ctx)
    assert (check.kind, check.values) == ("status_in", ["shelved"])
    ctx.headed = {}
    assert status_checks(ToolSpec(name="lend_tool", description="Lends a tool."), TB, ctx) == []


def test_a_section_sentence_about_another_tool_s_action_is_not_this_tool_s() -> None:
    from autoforge.synth.behaviour.headings import about_another, verb_stems

    verbs = verb_stems([("lend_tool", "Lend a tool"), ("retire_tool", "Retire a tool")], ["tools"])
    assert about_another("Only shelved tools can be retired.", "lend_tool", verbs)
    assert not about_another("Shelved tools qualify for lending or retiring.", "lend_tool", verbs)
    assert not about_another("Only shelved tools count.", "lend_tool", verbs)


def test_a_refusal_anywhere_in_the_policy_belongs_to_the_tools_whose_action_it_names() -> None:
    from autoforge.synth.behaviour.headings import refused_for, verb_stems

    writes = [("update_kiln", "Edit a kiln's name"), ("assign_kiln", "Assign a kiln"),
              ("fire_kiln", "Fire a kiln"), ("pay_fee", "Pay a fee")]  # fmt: skip
    verbs = verb_stems(writes, ["kilns", "fees"])
    closed = "Kilns that are `retired` are closed: they cannot be edited or (re)assigned."
    assert [t for t, _ in writes if refused_for(closed, t, verbs)] == ["update_kiln", "assign_kiln"]
    assert [t for t, _ in writes if refused_for("Cold kilns cannot be fired.", t, verbs)] == [
        "fire_kiln"]  # fmt: skip
    assert not any(refused_for("A fee may not be negative.", t, verbs) for t, _ in writes)
    assert not any(refused_for("Kilns can be edited by anyone.", t, verbs) for t, _ in writes)
