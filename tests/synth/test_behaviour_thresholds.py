"""Preconditions read from an "Only ..." sentence that also names an attribute in code: the
plain status word still counts as the status required, and "(`a` above N)" bounds the
target's attribute."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.compile import _check_lines
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.relations import attribute_thresholds
from autoforge.synth.behaviour.text import status_checks
from autoforge.tooldocs import ToolSpec


class ToolError(Exception):
    pass


DATA: dict[str, Any] = {
    "jobs": {
        "J1": {"job_id": "J1", "status": "open", "hours": 2.5},
        "J2": {"job_id": "J2", "status": "open", "hours": 0},
        "J3": {"job_id": "J3", "status": "closed", "hours": 1.0},
    }
}
TEXT = "Only an open job with some work logged (`hours` above 0)."
TB = ToolBehaviour(
    tool="close_job", kind="action", collection="jobs", id_param="job_id",
    params=[ParamInfo(name="job_id", references="jobs")],
)  # fmt: skip


def _ctx() -> Context:
    ctx = Context(ev=DataEvidence.of(DATA), policy="")
    ctx.schemas["jobs"] = {"status": {"type": "string", "enum": ["open", "closed"]}}
    return ctx


def _run(job: str) -> None:
    checks = status_checks(ToolSpec(name="close_job", description=TEXT), TB, _ctx())
    checks += attribute_thresholds(TEXT, TB, _ctx())
    code = "\n".join(line for c in checks for line in _check_lines(c, TB))
    exec(code, {"ToolError": ToolError, "state": DATA, "job_id": job, "_rec": DATA["jobs"][job]})


def test_a_plain_status_word_beside_code_is_still_the_status_required() -> None:
    (check,) = status_checks(ToolSpec(name="close_job", description=TEXT), TB, _ctx())
    assert (check.kind, check.values) == ("status_in", ["open"])


def test_an_attribute_compared_with_a_number_bounds_the_target() -> None:
    (check,) = attribute_thresholds(TEXT, TB, _ctx())
    assert (check.kind, check.attribute, check.values) == ("threshold", "hours", [">", 0])
    _run("J1")
    with pytest.raises(ToolError, match="hours must be > 0"):
        _run("J2")
    with pytest.raises(ToolError):
        _run("J3")  # closed
    assert attribute_thresholds("Logs `hours` above 0.", TB, _ctx()) == []  # no rule stated


def test_a_count_the_refusal_names_on_a_reached_record_bounds_it() -> None:
    from autoforge.synth.behaviour.relations import count_refusals

    data = {
        "riders": {
            "RI1": {"rider_id": "RI1", "late_returns": 1},
            "RI2": {"rider_id": "RI2", "late_returns": 4},
        },
        "rides": {"RD1": {"ride_id": "RD1", "rider_id": "RI1"}},
    }
    tb = ToolBehaviour(
        tool="book_ride", kind="create", collection="rides",
        params=[ParamInfo(name="rider_id", references="riders")],
    )  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    text = "Rejected if the rider is banned or has 3 or more late returns."
    (check,) = count_refusals(text, tb, ctx)
    assert (check.attribute, check.via, check.values) == (
        "late_returns",
        "param:rider_id",
        ["<", 3],
    )
    code = "\n".join(_check_lines(check, tb))
    exec(code, {"ToolError": ToolError, "state": data, "rider_id": "RI1"})
    with pytest.raises(ToolError):
        exec(code, {"ToolError": ToolError, "state": data, "rider_id": "RI2"})
    assert count_refusals("The rider has 3 or more late returns.", tb, ctx) == []


def test_a_value_that_must_not_belong_to_another_record_is_unique() -> None:
    from autoforge.synth.behaviour.relations import unique_params

    data = {"bikes": {"BK1": {"bike_id": "BK1", "frame_no": "F-1"}}}
    tb = ToolBehaviour(
        tool="add_bike", kind="create", collection="bikes", params=[ParamInfo(name="frame_no")]
    )
    ctx = Context(ev=DataEvidence.of(data), policy="")
    text = "`frame_no` is printed on the frame and must not belong to another bike."
    (check,) = unique_params(text, tb, ctx)
    assert (check.kind, check.param, check.attribute) == ("unique", "frame_no", "frame_no")
    assert unique_params("`frame_no` is printed on the frame.", tb, ctx) == []
    # the attribute named by its words, and "any existing" record of any noun
    text = "The frame-no must be given and may not already belong to any existing cycle."
    (check,) = unique_params(text, tb, ctx)
    assert check.param == "frame_no"
    assert unique_params("The frame no may belong to another bike.", tb, ctx) == []


def test_each_alternative_of_a_rejected_if_sentence_names_a_status() -> None:
    from autoforge.synth.behaviour.relations import rejected_if_statuses

    data = {
        "renters": {
            "RE1": {"renter_id": "RE1", "status": "ok"},
            "RE2": {"renter_id": "RE2", "status": "barred"},
        },
        "leases": {"LE1": {"lease_id": "LE1", "renter_id": "RE1", "status": "open"}},
    }
    ctx = Context(ev=DataEvidence.of(data), policy="")
    ctx.schemas["renters"] = {"status": {"enum": ["ok", "barred"]}}
    ctx.schemas["leases"] = {"status": {"enum": ["open", "ended"]}}
    tb = ToolBehaviour(
        tool="extend_lease", kind="action", collection="leases", id_param="lease_id",
        params=[ParamInfo(name="lease_id", references="leases")],
    )  # fmt: skip
    text = "Rejected if the lease is not open, is overdue, or the renter is barred."
    got = [(c.kind, c.collection, c.via, c.values) for c in rejected_if_statuses(text, tb, ctx)]
    assert got == [
        ("status_in", "leases", None, ["open"]),
        ("status_not_in", "renters", "renter_id", ["barred"]),
    ]
    assert rejected_if_statuses("The lease is not open.", tb, ctx) == []


def test_a_counter_moved_by_a_number_word() -> None:
    from autoforge.env.artifact.behaviour import Value
    from autoforge.synth.behaviour.counters import _amount

    assert _amount("Adds one to `renewals`.", "renewals", []) == (1, Value(source="const", const=1))


def test_a_refusal_with_alternatives_stays_unenforced_for_the_ones_no_check_carries() -> None:
    from autoforge.env import Check, refusal_alternatives, unenforced_sentences

    text = (
        "Rejected if the lease is not open, is overdue (due before today), has been extended "
        "twice, or the renter is barred."
    )
    head, alts = refusal_alternatives(text)
    assert head == "Rejected if" and alts == [
        "the lease is not open", "is overdue (due before today)", "has been extended twice",
        "the renter is barred",
    ]  # fmt: skip
    assert refusal_alternatives("A booked, waitlisted or attended one.") == ("", [])
    tb = TB.model_copy(
        update={"checks": [Check(kind="status_in", sentence="the lease is not open")]}
    )
    assert unenforced_sentences(tb, text, set()) == [
        "Rejected if is overdue (due before today)",
        "Rejected if has been extended twice",
        "Rejected if the renter is barred",
    ]
    whole = TB.model_copy(update={"checks": [Check(kind="status_in", sentence=text)]})
    assert unenforced_sentences(whole, text, set()) == []
