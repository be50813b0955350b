"""Log entries a write adds ("a `checked_out` event is written"): the next id, the key of the
record acted on (or just created), the kind, today, the argument the sentence assigns, and a
shared attribute's value after the call or the one it cleared. Rules only, on a small
item-tracking API written for this test."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from doc_tools import rules_env  # type: ignore[import-not-found]

_DOC = """
openapi: 3.0.3
info: {title: Items, version: "1"}
paths:
  /items:
    post:
      operationId: receive_item
      summary: Receive an item
      description: |
        The item starts `held` on no shelf. An event `received` is written
        (performed_by = received_by).
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [label, received_by]
              properties:
                label: {type: string}
                received_by: {type: string}
      responses:
        "201":
          description: The item
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Item"}
  /items/{item_id}/lend:
    post:
      operationId: lend_item
      summary: Lend an item out
      description: |
        Only `held` items can be lent. The item becomes `lent` and its shelf becomes null, and a
        `lent` event is written with performed_by = lent_to and the shelf the item left.
      parameters:
        - {name: item_id, in: path, required: true, schema: {type: string}}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [lent_to]
              properties:
                lent_to: {type: string}
      responses:
        "200":
          description: The item
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Item"}
  /items/{item_id}/lose:
    post:
      operationId: lose_item
      summary: Mark an item lost
      description: The item becomes `lost`. No event is written for a loss.
      parameters:
        - {name: item_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: The item
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Item"}
components:
  schemas:
    Item:
      type: object
      properties:
        item_id: {type: string}
        label: {type: string}
        status: {type: string, enum: [held, lent, lost]}
        shelf: {type: string, nullable: true}
    Event:
      type: object
      properties:
        event_id: {type: string}
        item_id: {type: string}
        action: {type: string, enum: [received, lent, returned]}
        performed_by: {type: string}
        event_date: {type: string, format: date}
        shelf: {type: string, nullable: true}
"""


def _data() -> dict[str, Any]:
    items = {f"IT-{i:03d}": {"item_id": f"IT-{i:03d}", "label": f"l{i}",
                             "status": ["held", "lent", "held"][i % 3],
                             "shelf": None if i % 3 == 1 else f"S{i}"}
             for i in range(1, 7)}  # fmt: skip
    events = {f"EV-{i:04d}": {"event_id": f"EV-{i:04d}", "item_id": f"IT-{1 + i % 6:03d}",
                              "action": ["received", "lent", "returned"][i % 3],
                              "performed_by": f"p{i}", "event_date": f"2026-01-0{1 + i % 9}",
                              "shelf": None} for i in range(1, 10)}  # fmt: skip
    return {"meta": {"today": "2026-02-10"}, "items": items, "events": events}


def test_writes_add_the_entries_their_docs_say_they_log(tmp_path: Path) -> None:
    data = _data()
    env = rules_env(tmp_path, _DOC, data)
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("lend_item", {"item_id": "IT-003", "lent_to": "Ann"}).ok
    after = ep.snapshot()
    assert after["items"]["IT-003"]["shelf"] is None
    assert after["events"]["EV-0010"] == {
        "event_id": "EV-0010", "item_id": "IT-003", "action": "lent", "performed_by": "Ann",
        "event_date": "2026-02-10", "shelf": "S3"}  # fmt: skip
    ep = env.episode(state=copy.deepcopy(data))
    obs = ep.call("receive_item", {"label": "new", "received_by": "Bo"})
    assert obs.ok and ep.snapshot()["events"]["EV-0010"]["item_id"] == "IT-007"
    assert ep.snapshot()["events"]["EV-0010"]["performed_by"] == "Bo"
    assert "IT-007" in str(obs.content)  # the reply is the item, not the entry
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("lose_item", {"item_id": "IT-003"}).ok
    assert len(ep.snapshot()["events"]) == 9  # "No event is written for a loss"
