"""Stamps and keys the docs state in plain words: "Creates a `Payment` dated today" dates the
new record's one date attribute, "Sets `status` to `x`" with the attribute written as code
moves the status, and a key the data holds as a whole number is written as one. Rules only,
on a small account API written for this test."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from doc_tools import rules_env  # type: ignore[import-not-found]

from autoforge.synth.behaviour.stated import dated_today, stated_params
from autoforge.synth.behaviour.writes import _stated_choices

_DOC = """
openapi: 3.0.3
info: {title: Accounts, version: "1"}
paths:
  /accounts/{account_id}/payments:
    post:
      operationId: take_payment
      summary: Take a payment
      description: Creates a `Payment` dated today and records the amount.
      parameters:
        - {name: account_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [amount]
              properties:
                amount: {type: number}
      responses:
        "201":
          description: The payment
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Payment"}
  /visits/{visit_id}/arrive:
    post:
      operationId: arrive_visit
      summary: Record an arrival
      description: Only for a `booked` visit. Sets `status` to `arrived` and `arrived_on` to today.
      parameters:
        - {name: visit_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The visit
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Visit"}
components:
  schemas:
    Payment:
      type: object
      properties:
        id: {type: integer}
        account_id: {type: string}
        amount: {type: number}
        paid_on: {type: string, format: date}
    Visit:
      type: object
      properties:
        visit_id: {type: string}
        account_id: {type: string}
        status: {type: string, enum: [booked, arrived, cancelled]}
        arrived_on: {type: string, format: date, nullable: true}
"""


def _data() -> dict[str, Any]:
    accounts = {f"A{i}": {"account_id": f"A{i}", "name": f"n{i}"} for i in range(1, 4)}
    payments = {str(700 + i): {"id": 700 + i, "account_id": f"A{1 + i % 3}", "amount": 5.0 * i,
                               "paid_on": f"2026-01-0{i}"} for i in range(1, 7)}  # fmt: skip
    visits = {f"V{i}": {"visit_id": f"V{i}", "account_id": f"A{1 + i % 3}",
                        "status": ["booked", "arrived", "cancelled"][i % 3],
                        "arrived_on": "2026-01-02" if i % 3 == 1 else None}
              for i in range(1, 7)}  # fmt: skip
    return {"meta": {"today": "2026-02-10"}, "accounts": accounts, "payments": payments,
            "visits": visits}  # fmt: skip


def test_a_record_dated_today_with_a_whole_number_key_and_a_coded_status(tmp_path: Path) -> None:
    data = _data()
    env = rules_env(tmp_path, _DOC, data)
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("take_payment", {"account_id": "A2", "amount": 12.5}).ok
    new = ep.snapshot()["payments"]["707"]
    assert new["id"] == 707 and new["paid_on"] == "2026-02-10"
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("arrive_visit", {"visit_id": "V3"}).ok  # booked
    assert ep.snapshot()["visits"]["V3"]["status"] == "arrived"
    assert ep.snapshot()["visits"]["V3"]["arrived_on"] == "2026-02-10"


def test_a_date_the_record_must_already_have_is_no_stamp() -> None:
    assert dated_today("A new ticket starts `open`, dated today, with no parts.")
    assert not dated_today("Only a `booked` reservation dated today can be seated.")
    assert not dated_today("Creates a payment for the amount.")


def test_an_attribute_assigned_a_parameter_takes_its_value() -> None:
    attrs = ["resulted_by", "verified_by", "status", "note"]
    params = ["entered_by", "pharmacist_initials", "note"]
    said = "The order moves to `resulted` with resulted_by = entered_by and resulted_on = today."
    assert stated_params(said, attrs, params) == {"resulted_by": "entered_by"}
    said = "Either way `verified_by` is set to the initials and `verified_on` to today."
    assert stated_params(said, attrs, params) == {"verified_by": "pharmacist_initials"}
    assert stated_params("`status` is set to `closed`.", attrs, params) == {}


def test_choices_mapped_to_statuses_by_an_arrow_need_no_shared_stem() -> None:
    said = "* `approve` → status `active`.\n* `reject` → status `rejected`; a reason is required."
    assert _stated_choices(said, ["approve", "reject"], ["pending", "active", "rejected"]) == {
        "approve": "active",
        "reject": "rejected",
    }
    assert _stated_choices("`approve` it when ready.", ["approve"], ["active"]) == {}


def test_attributes_joined_by_and_take_a_value_only_with_a_verb() -> None:
    from autoforge.synth.behaviour.stated import literal_fields

    attrs = ["rack_id", "position", "ids", "count", "fines_due"]
    said = "The sample's rack_id and position become null, and it is checked out."
    assert literal_fields(said, attrs, []) == {"rack_id": None, "position": None}
    assert literal_fields("It has an empty `ids` and `count` 0.", attrs, []) == {"count": 0}
    said = "A patron whose `fines_due` becomes 0.00 is reinstated."
    assert literal_fields(said, attrs, []) == {}


def test_sets_a_to_a_value_and_equal_to_an_argument() -> None:
    from autoforge.synth.behaviour.stated import literal_fields

    attrs = ["status", "closed_on", "remaining", "quantity", "authorized"]
    said = "Sets `closed_on` to today and `remaining` to 0. Fills are not touched."
    assert literal_fields(said, attrs, []) == {"remaining": 0}
    assert literal_fields("Limits `quantity` to 5.", attrs, []) == {}
    said = "It starts with `remaining` equal to `authorized` and no fills."
    assert stated_params(said, attrs, ["authorized", "quantity"]) == {"remaining": "authorized"}


def test_a_create_s_one_date_argument_goes_to_the_one_free_date_attribute() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour, Value
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.derive import _renamed_date

    orders = {f"O{i}": {"order_id": f"O{i}", "created_on": "2026-01-01",
                        "wanted_for": f"2026-01-1{i}"} for i in range(4)}  # fmt: skip
    ctx = Context(ev=DataEvidence.of({"orders": orders}), policy="")
    tb = ToolBehaviour(tool="order", kind="create", collection="orders",
                       params=[ParamInfo(name="date", format="date")])  # fmt: skip
    fields = {"order_id": Value(source="new_id"), "created_on": Value(source="today"),
              "wanted_for": Value(source="today")}  # fmt: skip
    assert _renamed_date(tb, ctx, "orders", fields, {"created_on"}) == {
        "wanted_for": Value(source="param", name="date")}  # fmt: skip
    both = {"created_on", "wanted_for"}  # the docs state both: nothing is left to fill
    assert _renamed_date(tb, ctx, "orders", fields, both) == {}


def test_an_argument_bounded_by_the_one_reached_attribute_of_that_name() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.text import attribute_bounds
    from autoforge.tooldocs import ToolSpec

    data = {
        "accounts": {"A1": {"account_id": "A1", "owed": 10.0}},
        "payments": {"P1": {"payment_id": "P1", "account_id": "A1", "amount": 5.0}},
    }
    tb = ToolBehaviour(tool="pay", kind="create", collection="payments",
                       params=[ParamInfo(name="account_id", references="accounts"),
                               ParamInfo(name="amount")])  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    said = "`amount` must be positive and not exceed the current `owed` of the account holder."
    (c,) = attribute_bounds(ToolSpec(name="pay", description=said), tb, ctx)
    assert (c.kind, c.param, c.collection, c.attribute) == (
        "not_above",
        "amount",
        "accounts",
        "owed",
    )


def test_a_record_whose_date_is_today_and_a_case_s_rule_is_not_the_call_s() -> None:
    from autoforge.env.artifact.behaviour import ParamInfo, ToolBehaviour
    from autoforge.synth.behaviour.data import Context, DataEvidence
    from autoforge.synth.behaviour.text import date_window_checks
    from autoforge.tooldocs import ToolSpec

    data = {"stays": {f"S{i}": {"stay_id": f"S{i}", "arrival": f"2026-01-0{i}"} for i in (1, 2)}}
    tb = ToolBehaviour(tool="arrive", kind="action", collection="stays", id_param="stay_id",
                       params=[ParamInfo(name="stay_id", references="stays")])  # fmt: skip
    ctx = Context(ev=DataEvidence.of(data), policy="")
    said = "Allowed only for a stay whose `arrival` is today."
    (c,) = date_window_checks(ToolSpec(name="arrive", description=said), tb, ctx)
    assert (c.attribute, c.values) == ("arrival", ["=="])
    case = "The reason `late` is accepted only for a stay whose `arrival` is before today."
    props = {"properties": {"reason": {"type": "string", "enum": ["late", "other"]}}}
    spec = ToolSpec(name="arrive", description=case, parameters=props)
    assert date_window_checks(spec, tb, ctx) == []
