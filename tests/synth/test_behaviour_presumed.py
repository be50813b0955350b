"""Requirements a tool's description takes for granted: "Approves a `submitted` permit" acts
on submitted permits only, "dated today or earlier" bounds the date, and a status in a change
("a `draft` permit becomes `submitted`") or in a condition requires nothing. A policy sentence
whose main verb is another tool's ("only X can be revoked; ... must be withdrawn instead") is
not the other tool's rule."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env.artifact.behaviour import Check, ParamInfo, ToolBehaviour
from autoforge.env.artifact.spec import Attribute, CollectionSchema
from autoforge.lexicon.rules import _status_rule
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.presumed import presumed_checks
from autoforge.tooldocs import ToolSpec

STATUSES = ["draft", "submitted", "approved", "withdrawn"]
DATA: dict[str, Any] = {
    "meta": {"today": "2031-05-10"},
    "permits": {
        "PM1": {"permit_id": "PM1", "status": "draft", "date": "2031-05-01"},
        "PM2": {"permit_id": "PM2", "status": "submitted", "date": "2031-05-09"},
        "PM3": {"permit_id": "PM3", "status": "submitted", "date": "2031-05-20"},
        "PM4": {"permit_id": "PM4", "status": "approved", "date": "2031-04-02"},
    },
}


class ToolError(Exception):
    pass


def _checks(
    description: str, kind: str = "action", known: list[Check] | None = None
) -> list[Check]:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    ctx.schemas["permits"] = {"status": {"type": "string", "enum": STATUSES}}
    tb = ToolBehaviour(
        tool="act_on_permit", kind=kind, collection="permits", id_param="permit_id",  # type: ignore[arg-type]
        params=[ParamInfo(name="permit_id", references="permits")],
    )  # fmt: skip
    return presumed_checks(
        ToolSpec(name="act_on_permit", description=description), tb, ctx, known or []
    )


def _refusal(checks: list[Check], permit: str) -> str:
    tb = ToolBehaviour(tool="t", kind="action", collection="permits", id_param="permit_id")
    code = "\n".join(line for c in checks for line in _check_lines(c, tb))
    scope = {"ToolError": ToolError, "state": DATA, "permit_id": permit, "_today": "2031-05-10"}
    scope["_rec"] = DATA["permits"][permit]
    try:
        exec(code, scope)
    except ToolError as exc:
        return str(exc)
    return ""


@pytest.mark.parametrize(
    "text",
    [
        "Approves a `submitted` permit and stamps it.",
        "Approves every page of a `submitted` building-site permit.",  # modifiers between
    ],
)
def test_a_status_before_the_record_noun_is_required(text: str) -> None:
    (check,) = _checks(text)
    assert (check.kind, check.values) == ("status_in", ["submitted"])
    assert _refusal([check], "PM1") and not _refusal([check], "PM2")


def test_a_run_of_statuses_is_required_and_a_change_is_not() -> None:
    text = (
        "Attaches a file to a `draft` or `submitted` permit; a `draft` permit becomes `submitted`."
    )
    (check,) = _checks(text)
    assert check.values == ["draft", "submitted"]
    assert _refusal([check], "PM4") and not _refusal([check], "PM1")


def test_not_yet_a_status_refuses_it() -> None:
    (check,) = _checks("Withdraws a permit that is not yet `approved`.")
    assert (check.kind, check.values) == ("status_not_in", ["approved"])
    assert _refusal([check], "PM4") and not _refusal([check], "PM2")


def test_a_date_the_description_presumes_bounds_the_record() -> None:
    checks = _checks("Inspects a `submitted` permit dated today or earlier.")
    window = next(c for c in checks if c.kind == "date_window")
    assert (window.attribute, window.values) == ("date", ["<="])
    assert _refusal(checks, "PM3") and not _refusal(checks, "PM2")


@pytest.mark.parametrize(
    "text",
    [
        "If a `draft` permit is given, its date is cleared.",
        "When an `approved` permit is archived, nothing else changes.",
        "Stamps the permit; an `approved` permit moves to `withdrawn`.",
    ],
)
def test_conditions_and_changes_require_nothing(text: str) -> None:
    assert _checks(text) == []


def test_creates_and_already_bounded_collections_get_nothing_more() -> None:
    assert _checks("Files a `draft` permit.", kind="create") == []
    known = [Check(kind="status_in", collection="permits", values=["draft"])]
    assert _checks("Approves a `submitted` permit.", known=known) == []


def test_a_policy_rule_belongs_to_the_verb_of_its_own_clause() -> None:
    coll = CollectionSchema(
        name="permits", primary_key="permit_id",
        attributes=[Attribute(name="permit_id", type="string"),
                    Attribute(name="status", type="string", enum=STATUSES)],
    )  # fmt: skip
    sentence = "Only `submitted` permits can be revoked; an approved one must be withdrawn instead."
    for name, allowed in (("revoke_permit", ["submitted"]), ("withdraw_permit", None)):
        rule = _status_rule(ToolSpec(name=name), coll, "permit_id", sentence, "policy", DATA)
        assert (rule.allowed if rule else None) == allowed


def test_a_list_valued_state_attribute_is_no_status() -> None:
    data = {"agents": {"A1": {"agent_id": "A1", "licensed_states": ["NY", "CA"]},
                       "A2": {"agent_id": "A2", "licensed_states": ["TX"]}}}  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    assert ctx.status_enum("agents") == (None, [])  # no crash on lists, and no status


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Allowed from `draft` (as `void`), `submitted` (as `lapsed`) and `approved`.",
         ["approved", "draft", "submitted"]),
        ("Only `submitted` permits. For an `approved` permit the fee must be paid first.",
         ["submitted"]),
        ("Only `submitted` permits (an approved one must be withdrawn instead).", ["submitted"]),
        ("The permit has to be `approved` before it is issued.", ["approved"]),
        ("A permit needs to be `submitted` or `approved`.", ["approved", "submitted"]),
    ],
)  # fmt: skip
def test_asides_cases_and_alternatives_are_not_required_statuses(
    text: str, want: list[str]
) -> None:
    from autoforge.synth.behaviour.text import status_checks

    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    ctx.schemas["permits"] = {"status": {"type": "string", "enum": STATUSES}}
    tb = ToolBehaviour(
        tool="act_on_permit", kind="action", collection="permits", id_param="permit_id",
        params=[ParamInfo(name="permit_id", references="permits")],
    )  # fmt: skip
    checks = status_checks(ToolSpec(name="act_on_permit", description=text), tb, ctx)
    assert [c.values for c in checks if c.kind == "status_in"] == [want]


def test_days_before_today_is_a_window_not_a_past_refusal() -> None:
    from autoforge.synth.behaviour.text import not_past_params

    tb = ToolBehaviour(tool="t", kind="create", params=[ParamInfo(name="seen_on", format="date")])
    said = "`seen_on` is not after today and at most 60 days before today."
    assert not_past_params([(said, "docs")], tb) == []
    assert not_past_params([("`seen_on` may not be before today.", "docs")], tb)
