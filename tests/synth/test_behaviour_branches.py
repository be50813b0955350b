"""Writes stated for one case and for the other ("If ... (`taken < seats`) ... Otherwise ..."):
each case's writes happen only in it, the condition is read once before any write, and a
create's status named for the other case replaces the first. Rules only, on a small class
booking API written for this test."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from doc_tools import rules_env  # type: ignore[import-not-found]

_DOC = """
openapi: 3.0.3
info: {title: Classes, version: "1"}
paths:
  /classes/{class_id}/places:
    post:
      operationId: book_place
      summary: Book a place in a class
      description: |
        Creates a place for the member. If the class has room (`taken < seats`) the place is
        `booked` and the class's `taken` goes up by 1. Otherwise it is kept as `queued` and the
        class's `queue_length` goes up by 1.
      parameters:
        - {name: class_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [member]
              properties:
                member: {type: string}
      responses:
        "201":
          description: The place
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Place"}
components:
  schemas:
    Class:
      type: object
      properties:
        class_id: {type: string}
        seats: {type: integer}
        taken: {type: integer}
        queue_length: {type: integer}
    Place:
      type: object
      properties:
        place_id: {type: string}
        class_id: {type: string}
        member: {type: string}
        status: {type: string, enum: [booked, queued, cancelled]}
"""


def _data() -> dict[str, Any]:
    classes = {"C1": {"class_id": "C1", "seats": 2, "taken": 1, "queue_length": 0},
               "C2": {"class_id": "C2", "seats": 2, "taken": 2, "queue_length": 1},
               "C3": {"class_id": "C3", "seats": 3, "taken": 0, "queue_length": 0}}  # fmt: skip
    places = {"P01": {"place_id": "P01", "class_id": "C1", "member": "a", "status": "booked"},
              "P02": {"place_id": "P02", "class_id": "C2", "member": "b", "status": "booked"},
              "P03": {"place_id": "P03", "class_id": "C2", "member": "c", "status": "booked"},
              "P04": {"place_id": "P04", "class_id": "C2", "member": "d", "status": "queued"},
              "P05": {"place_id": "P05", "class_id": "C3", "member": "e",
                      "status": "cancelled"}}  # fmt: skip
    return {"meta": {"today": "2026-02-10"}, "classes": classes, "places": places}


def test_each_case_writes_only_its_own_effects(tmp_path: Path) -> None:
    data = _data()
    env = rules_env(tmp_path, _DOC, data)
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("book_place", {"class_id": "C1", "member": "x"}).ok  # the last seat
    after = ep.snapshot()
    assert after["places"]["P06"]["status"] == "booked"
    assert (after["classes"]["C1"]["taken"], after["classes"]["C1"]["queue_length"]) == (2, 0)
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("book_place", {"class_id": "C2", "member": "y"}).ok  # full
    after = ep.snapshot()
    assert after["places"]["P06"]["status"] == "queued"
    assert (after["classes"]["C2"]["taken"], after["classes"]["C2"]["queue_length"]) == (2, 2)
