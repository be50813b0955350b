"""Numbers taken from a list keyed by a value ("Cleaning price list: studio 40.00, loft
65.00"), from a two-column table keyed by the target's own attribute, and sums stated over a
record's own numbers ("`total` = `base_price` + `extras`")."""

from __future__ import annotations

from typing import Any

from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
from autoforge.synth.behaviour.data import Context, DataEvidence
from autoforge.synth.behaviour.prices import priced_fields, stated_sums
from autoforge.synth.behaviour.values import _formula
from autoforge.tooldocs import ToolSpec

DATA: dict[str, Any] = {
    "jobs": {
        "J1": {"job_id": "J1", "unit": "studio", "base_price": 40.0, "extras": 5.0, "total": 45.0},
        "J2": {"job_id": "J2", "unit": "loft", "base_price": 65.0, "extras": 0.0, "total": 65.0},
    },
    "bills": {"B1": {"bill_id": "B1", "job_id": "J1", "visit_fee": 20.0}},
}
POLICY = """Cleaning price list: studio 40.00, loft 65.00, house 90.00.

| unit | visit fee |
|---|---|
| studio | 20.00 |
| loft | 25.00 |
| house | 30.00 |
"""


def _ctx() -> Context:
    ctx = Context(ev=DataEvidence.of(DATA), policy=POLICY)
    ctx.schemas["jobs"] = {"unit": {"type": "string", "enum": ["studio", "loft", "house"]}}
    return ctx


def _eval(value: Any, **scope: Any) -> Any:
    return eval(_formula(value), {"state": DATA, **scope})


def test_a_list_naming_every_value_of_an_enum_parameter_prices_the_new_record() -> None:
    spec = ToolSpec(
        name="book_job",
        description="Books a cleaning; `base_price` from the price list in the policy.",
        parameters={
            "properties": {"unit": {"type": "string", "enum": ["studio", "loft", "house"]}}
        },
    )
    tb = ToolBehaviour(
        tool="book_job", kind="create", collection="jobs", params=[ParamInfo(name="unit")]
    )
    fields = priced_fields(spec, tb, _ctx(), "jobs", "new")
    assert list(fields) == ["base_price"]
    assert _eval(fields["base_price"], unit="loft", _new={}) == 65.0


def test_a_table_keyed_by_the_target_s_attribute_prices_a_record_it_opens() -> None:
    spec = ToolSpec(name="bill_job", description="Closes the job and issues one bill.")
    tb = ToolBehaviour(
        tool="bill_job", kind="action", collection="jobs", id_param="job_id",
        params=[ParamInfo(name="job_id", references="jobs")],
    )  # fmt: skip
    fields = priced_fields(spec, tb, _ctx(), "bills", "target", "jobs")
    assert list(fields) == ["visit_fee"]  # the table's number column spells the attribute
    assert _eval(fields["visit_fee"], _rec=DATA["jobs"]["J2"]) == 25.0


def test_a_list_missing_a_value_prices_nothing() -> None:
    ctx = _ctx()
    ctx.policy = "Cleaning price list: studio 40.00, loft 65.00."
    units = {"properties": {"unit": {"enum": ["studio", "loft", "house"]}}}
    spec = ToolSpec(
        name="book_job", description="`base_price` from the price list.", parameters=units
    )
    tb = ToolBehaviour(
        tool="book_job", kind="create", collection="jobs", params=[ParamInfo(name="unit")]
    )
    assert priced_fields(spec, tb, ctx, "jobs", "new") == {}


def test_sums_over_the_record_s_own_numbers() -> None:
    attrs = ["base_price", "extras", "total", "discount"]
    sums = stated_sums("`total` = `base_price` + `extras` - `discount`.", attrs)
    assert _eval(sums["total"], _new={"base_price": 40.0, "extras": 5.0, "discount": 2.5}) == 42.5
    assert stated_sums("`total` = `base_price` x 2.", attrs) == {}
    assert stated_sums("`total` = `extras` = 0.", attrs) == {}
