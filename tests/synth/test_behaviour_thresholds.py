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
