"""A balance the data shows as the sum of its postings' amounts is a ledger: a call that moves
the balance and says it is "posted as a <posting> of type `<kind>`" writes that posting (next
id, the holder, the kind, the signed change, today). Rules only, on a small account API
written for this test."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from doc_tools import rules_env  # type: ignore[import-not-found]

_DOC = """
openapi: 3.0.3
info: {title: Accounts, version: "1"}
paths:
  /accounts/{account_id}/pay:
    post:
      operationId: pay_account
      summary: Take a payment
      description: >
        The `balance` goes down by the `amount`. The payment is posted as a posting of type
        `payment` with a negative amount.
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
        "200":
          description: The account
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Account"}
components:
  schemas:
    Account:
      type: object
      properties:
        account_id: {type: string}
        balance: {type: number}
"""


def _data() -> dict[str, Any]:
    postings: dict[str, Any] = {}
    accounts: dict[str, Any] = {}
    n = 0
    for a in range(1, 6):
        total = 0.0
        for j in range(a):
            n += 1
            kind, amount = ("fee", 12.5 * (j + 1)) if j % 2 == 0 else ("payment", -5.25)
            total = round(total + amount, 2)
            postings[f"PS-{n:04d}"] = {
                "posting_id": f"PS-{n:04d}",
                "account_id": f"AC{a}",
                "kind": kind,
                "amount": amount,
                "on": "2025-02-01",
            }
        accounts[f"AC{a}"] = {"account_id": f"AC{a}", "balance": total}
    return {"meta": {"today": "2025-02-10"}, "accounts": accounts, "postings": postings}


def test_a_payment_moves_the_balance_and_writes_its_posting(tmp_path: Path) -> None:
    data = _data()
    env = rules_env(tmp_path, _DOC, data)
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("pay_account", {"account_id": "AC3", "amount": 10.0}).ok
    after = ep.snapshot()
    assert after["accounts"]["AC3"]["balance"] == round(data["accounts"]["AC3"]["balance"] - 10, 2)
    new = {k: v for k, v in after["postings"].items() if k not in data["postings"]}
    assert new == {
        "PS-0016": {
            "posting_id": "PS-0016",
            "account_id": "AC3",
            "kind": "payment",
            "amount": -10.0,
            "on": "2025-02-10",
        }
    }
