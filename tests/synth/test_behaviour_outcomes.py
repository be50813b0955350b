"""A status that depends on how the call left a record, its condition in words ("becomes
`paid` when nothing is left to pay, otherwise `part_paid`"): the data tells the two statuses
apart by a number the call moves, and the call takes the one the moved number says. Rules
only, on a small billing API written for this test."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from doc_tools import rules_env  # type: ignore[import-not-found]

_DOC = """
openapi: 3.0.3
info: {title: Bills, version: "1"}
paths:
  /bills/{bill_id}/pay:
    post:
      operationId: pay_bill
      summary: Pay towards a bill
      description: >
        The bill's `balance_due` falls by the `amount`. The bill becomes `paid` (with `paid_on`
        = today) when nothing is left to pay, otherwise `part_paid`.
      parameters:
        - {name: bill_id, in: path, required: true, schema: {type: string}}
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
        "200":
          description: The bill
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Bill"}
components:
  schemas:
    Bill:
      type: object
      properties:
        bill_id: {type: string}
        total: {type: number}
        balance_due: {type: number}
        status: {type: string, enum: [open, part_paid, paid]}
        paid_on: {type: string, format: date, nullable: true}
"""


def _data(separated: bool = True) -> dict[str, Any]:
    bills: dict[str, Any] = {}
    for i in range(1, 10):
        status = ["open", "part_paid", "paid"][i % 3]
        due = {"open": 80.0, "part_paid": 30.0 + i, "paid": 0.0}[status]
        if not separated and status == "paid":
            due = 5.0  # the data does not tell paid from part_paid by what is due
        bills[f"B{i}"] = {
            "bill_id": f"B{i}",
            "total": 80.0,
            "balance_due": due,
            "status": status,
            "paid_on": f"2025-01-0{i % 9 + 1}" if status == "paid" else None,
        }
    return {"meta": {"today": "2025-01-20"}, "bills": bills}


def _pay(tmp_path: Path, data: dict[str, Any], amount: float) -> dict[str, Any]:
    env = rules_env(tmp_path, _DOC, data)
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("pay_bill", {"bill_id": "B3", "amount": amount}).ok
    return dict(ep.snapshot()["bills"]["B3"])


def test_paying_it_all_takes_the_first_status_with_its_date(tmp_path: Path) -> None:
    data = _data()
    data["bills"]["B3"].update(status="open", balance_due=80.0, paid_on=None)
    bill = _pay(tmp_path, data, 80.0)
    assert (bill["status"], bill["paid_on"], bill["balance_due"]) == ("paid", "2025-01-20", 0.0)


def test_paying_part_takes_the_other(tmp_path: Path) -> None:
    data = _data()
    data["bills"]["B3"].update(status="open", balance_due=80.0, paid_on=None)
    bill = _pay(tmp_path, data, 20.0)
    assert (bill["status"], bill["paid_on"], bill["balance_due"]) == ("part_paid", None, 60.0)


def test_statuses_the_data_does_not_tell_apart_are_left_alone(tmp_path: Path) -> None:
    data = _data(separated=False)
    data["bills"]["B3"].update(status="open", balance_due=80.0, paid_on=None)
    assert _pay(tmp_path, data, 80.0)["status"] == "open"
