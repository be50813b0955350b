"""A move written as an arrow in a write's description ("active -> suspended.") names the
statuses the call starts from; a chain of arrows, words that are not statuses, and a tool
whose start is already bounded read into nothing (a membership API written here)."""

from __future__ import annotations

from autoforge.env import Check, ToolBehaviour
from autoforge.synth.behaviour.arrows import arrow_checks
from autoforge.synth.behaviour.data import Context, DataEvidence

STATUS = {"type": "string", "enum": ["pending", "active", "paused", "closed"]}


def _ctx() -> Context:
    return Context(ev=DataEvidence.of({"memberships": {}}), policy="",
                   schemas={"memberships": {"status": STATUS}})  # fmt: skip


def _tool(checks: list[Check] | None = None) -> ToolBehaviour:
    return ToolBehaviour(tool="pause_membership", kind="action", collection="memberships",
                         id_param="membership_id", checks=checks or [])  # fmt: skip


def test_the_statuses_before_the_arrow_are_required() -> None:
    (c,) = arrow_checks("active -> paused. Sets `paused_on`.", _tool(), _ctx())
    assert (c.kind, c.attribute, c.values) == ("status_in", "status", ["active"])
    (c,) = arrow_checks("`pending`, `active` or `paused` -> `closed`.", _tool(), _ctx())
    assert c.values == ["pending", "active", "paused"]


def test_diagrams_other_words_and_bounded_tools_read_into_nothing() -> None:
    assert arrow_checks("pending -> active -> closed.", _tool(), _ctx()) == []
    assert arrow_checks("request -> paused.", _tool(), _ctx()) == []
    bounded = _tool([Check(kind="status_in", collection="memberships", attribute="status",
                           values=["active"])])  # fmt: skip
    assert arrow_checks("active -> paused.", bounded, _ctx()) == []


def test_a_move_in_words_with_its_values_in_code_is_read_the_same() -> None:
    (c,) = arrow_checks("Moves a membership from `pending` or `paused` to `active`.", _tool(),
                        _ctx())  # fmt: skip
    assert (c.kind, c.values) == ("status_in", ["pending", "paused"])
    assert arrow_checks("If it moved from `pending` to `active`, nothing is owed.", _tool(),
                        _ctx()) == []  # fmt: skip
    assert arrow_checks("Copies notes from `pending` to `archive`.", _tool(), _ctx()) == []


def test_clauses_where_one_status_becomes_another_name_the_starts() -> None:
    d = "`pending` becomes `active` (only after payment), `paused` becomes `active`. Returns it."
    (c,) = arrow_checks(d, _tool(), _ctx())
    assert (c.kind, c.values) == ("status_in", ["pending", "paused"])
    assert arrow_checks("If `pending` becomes `active`, a mail goes out.", _tool(), _ctx()) == []
    assert arrow_checks("Its `renewal` becomes `closed`.", _tool(), _ctx()) == []
