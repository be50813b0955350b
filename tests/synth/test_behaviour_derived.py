"""Numbers the data shows as arithmetic of a record's other values (days between two dates,
a signed sum, a product with a referenced record's number, a referenced number rounded up):
learned from the data alone and computed by a create that gives every input. Rules only, on
a small hire API written for this test."""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

from doc_tools import rules_env  # type: ignore[import-not-found]

from autoforge.synth.behaviour.data import DataEvidence
from autoforge.synth.behaviour.derived import learn_derivations

_DOC = """
openapi: 3.0.3
info: {title: Hire, version: "1"}
paths:
  /hires:
    post:
      operationId: create_hire
      summary: Hire a boat
      description: The hire starts `open`. Hire ids are assigned in sequence.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [boat_id, start, end, fee]
              properties:
                boat_id: {type: string}
                start: {type: string, format: date}
                end: {type: string, format: date}
                fee: {type: number}
      responses:
        "201":
          description: The hire
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Hire"}
  /hires/{hire_id}/extend:
    post:
      operationId: extend_hire
      summary: Move a hire's end
      description: Sets `end` to the given date.
      parameters:
        - {name: hire_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [end]
              properties:
                end: {type: string, format: date}
      responses:
        "200":
          description: The hire
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Hire"}
  /hires/{hire_id}/waive:
    post:
      operationId: waive_fee
      summary: Waive a hire's fee
      description: "The hire's `fee` becomes 0.00."
      parameters:
        - {name: hire_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The hire
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Hire"}
components:
  schemas:
    Hire:
      type: object
      properties:
        hire_id: {type: string}
        boat_id: {type: string}
        start: {type: string, format: date}
        end: {type: string, format: date}
        days: {type: integer}
        length_charged: {type: integer}
        rent: {type: number}
        fee: {type: number}
        total: {type: number}
        status: {type: string, enum: [open, closed]}
"""


def _data(n: int = 10) -> dict[str, Any]:
    boats = {
        f"B{i}": {"boat_id": f"B{i}", "length_m": 6.2 + 1.3 * i, "daily_rate": 40.0 + 5 * i}
        for i in range(1, 6)
    }
    hires = {}
    for i in range(1, n + 1):
        boat = boats[f"B{1 + i % 5}"]
        days = 1 + i % 4
        rent = round(days * boat["daily_rate"], 2)
        fee = [0.0, 12.5, 7.25][i % 3]
        hires[f"H{i:03d}"] = {
            "hire_id": f"H{i:03d}",
            "boat_id": boat["boat_id"],
            "start": f"2025-04-{i:02d}",
            "end": f"2025-04-{i + days:02d}",
            "days": days,
            "length_charged": math.ceil(boat["length_m"]),
            "rent": rent,
            "fee": fee,
            "total": round(rent + fee, 2),
            "status": ["open", "closed"][i % 2],
            "label_copy": boat["daily_rate"],
        }
    return {"meta": {"today": "2025-04-01"}, "boats": boats, "hires": hires}


def _learned(data: dict[str, Any]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for d in learn_derivations(DataEvidence.of(data)).get("hires", []):
        out.setdefault(d.attribute, set()).add(d.kind)
    return out


def test_the_data_shows_days_sums_products_and_rounding_up() -> None:
    assert _learned(_data()) == {
        "days": {"days"},
        "length_charged": {"ceil"},
        "rent": {"product", "sum"},  # rent = total - fee fits too
        "fee": {"sum"},
        "total": {"sum"},
    }


def test_a_copy_and_too_few_records_give_nothing() -> None:
    assert "label_copy" not in _learned(_data())
    assert _learned(_data(n=7)) == {}


def test_one_record_that_breaks_a_fit_drops_it() -> None:
    data = _data()
    data["hires"]["H004"]["total"] += 1
    assert "total" not in _learned(data)


def test_a_create_computes_what_the_data_derives_from_what_it_writes(tmp_path: Path) -> None:
    data = _data()
    env = rules_env(tmp_path, _DOC, data)
    ep = env.episode(state=copy.deepcopy(data))
    args = {"boat_id": "B3", "start": "2025-05-01", "end": "2025-05-04", "fee": 7.25}
    assert ep.call("create_hire", args).ok
    (made,) = [r for k, r in ep.snapshot()["hires"].items() if k not in data["hires"]]
    assert made["days"] == 3
    assert made["length_charged"] == math.ceil(data["boats"]["B3"]["length_m"])
    assert made["rent"] == round(3 * data["boats"]["B3"]["daily_rate"], 2)
    assert made["total"] == round(made["rent"] + 7.25, 2)


def test_a_change_works_out_again_what_the_create_computes_from_it(tmp_path: Path) -> None:
    data = _data()
    env = rules_env(tmp_path, _DOC, data)
    before = data["hires"]["H002"]  # boat B3, 3 days, fee 7.25
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("extend_hire", {"hire_id": "H002", "end": "2025-04-10"}).ok
    after = ep.snapshot()["hires"]["H002"]
    rate = data["boats"]["B3"]["daily_rate"]
    assert after["days"] == 8
    assert after["rent"] == round(8 * rate, 2)
    assert after["total"] == round(after["rent"] + before["fee"], 2)
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("waive_fee", {"hire_id": "H002"}).ok
    waived = ep.snapshot()["hires"]["H002"]
    # the total follows the fee; the rent, which the create computes from days and rate
    # (although rent = total - fee fits the data too), stays
    assert (waived["fee"], waived["rent"]) == (0, before["rent"])
    assert waived["total"] == before["rent"]
