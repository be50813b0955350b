"""Tasks whose S0 is drawn from the data keep every record as the data holds it: a gold call
that needs another status draws a record in that status rather than setting it on one (a
status set on one record would leave the records that depend on it disagreeing)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.llm import LLMClient
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tasks.pipeline import generate_tasks
from autoforge.tooldocs import load_docs

TICKET = {"type": "object", "properties": {
    "ticket_id": {"type": "string"}, "title": {"type": "string"},
    "status": {"type": "string", "enum": ["open", "closed"]},
    "closed_on": {"type": "string", "format": "date", "nullable": True}}}  # fmt: skip


def _reply(many: bool = False) -> dict[str, Any]:
    ref: dict[str, Any] = {"$ref": "#/components/schemas/Ticket"}
    schema = {"type": "array", "items": ref} if many else ref
    return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}


DOC = {
    "openapi": "3.0.3",
    "info": {"title": "Desk", "version": "1"},
    "paths": {
        "/tickets": {"get": {"operationId": "list_tickets", "summary": "List tickets",
                             "responses": _reply(many=True)}},
        "/tickets/{ticket_id}/close": {"post": {
            "operationId": "close_ticket", "summary": "Close a ticket",
            "description": "Only `open` tickets can be closed. Sets status `closed` and "
                           "`closed_on` = today.",
            "parameters": [{"name": "ticket_id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "responses": _reply()}},
    },
    "components": {"schemas": {"Ticket": TICKET}},
}  # fmt: skip


def _data() -> dict[str, Any]:
    tickets = {}
    for i in range(1, 41):
        closed = i % 3 != 0
        tickets[f"T{i:03d}"] = {"ticket_id": f"T{i:03d}", "title": f"Printer {i} jams",
                                "status": "closed" if closed else "open",
                                "closed_on": "2025-02-01" if closed else None}  # fmt: skip
    return {"meta": {"today": "2025-03-01"}, "tickets": tickets}


def test_data_starts_keep_every_record_as_the_data_holds_it(tmp_path: Path) -> None:
    doc = tmp_path / "openapi.json"
    doc.write_text(json.dumps(DOC), encoding="utf-8")
    data = _data()
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    asyncio.run(synthesize(load_docs([doc]), tmp_path / "env", client, data=data,
                           options=SynthOptions()))  # fmt: skip
    env = Environment.load(tmp_path / "env")
    tasks, _ = generate_tasks(env, 8, "easy", seed=0, state_source="data")
    closing = [t for t in tasks if any(c.name == "close_ticket" for c in t.gold_calls)]
    assert closing, "no task closed a ticket"
    for task in tasks:
        for key, rec in task.initial_state.get("tickets", {}).items():
            assert rec == data["tickets"][key], (task.id, key)
