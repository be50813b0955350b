"""An entry of a list held inside a record (``DELETE /tickets/{ticket_id}/parts/{part_no}``):
the call changes the ticket (its part leaves the list; an unknown part is refused), it does not
delete the ticket, and task generation does not read it as ending the ticket."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.llm import LLMClient
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tasks.gold.plausible import _names_whole
from autoforge.tooldocs import ToolSpec, load_docs

_DOC = """
openapi: 3.0.3
info: {title: Repairs, version: "1"}
paths:
  /tickets/{ticket_id}/parts/{part_no}:
    delete:
      operationId: remove_part
      summary: Take a part off a ticket
      description: Only drafts can be edited. Returns the updated ticket.
      parameters:
        - {name: ticket_id, in: path, required: true, schema: {type: string}}
        - {name: part_no, in: path, required: true, schema: {type: integer}}
      responses:
        "200":
          description: The ticket
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Ticket"}
components:
  schemas:
    Ticket:
      type: object
      properties:
        ticket_id: {type: string}
        status: {type: string, enum: [draft, quoted, closed]}
        parts:
          type: array
          items:
            type: object
            properties:
              part_no: {type: integer}
              name: {type: string}
"""


def _data() -> dict[str, Any]:
    tickets = {}
    for n, status in enumerate(["draft", "draft", "quoted", "closed"], 1):
        key = f"TK{n:02d}"
        parts = [{"part_no": i, "name": f"part {i}"} for i in (1, 2, 3)]
        tickets[key] = {"ticket_id": key, "status": status, "parts": parts}
    return {"meta": {"today": "2026-02-10"}, "tickets": tickets}


def test_removing_an_entry_changes_its_record(tmp_path: Path) -> None:
    (tmp_path / "openapi.yaml").write_text(_DOC)
    data = _data()
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    docs = load_docs([tmp_path / "openapi.yaml"])
    asyncio.run(synthesize(docs, tmp_path / "env", client, data=data, options=SynthOptions()))
    env = Environment.load(tmp_path / "env")
    ep = env.episode(state=copy.deepcopy(data))
    assert ep.call("remove_part", {"ticket_id": "TK01", "part_no": 2}).ok
    ticket = ep.snapshot()["tickets"]["TK01"]
    assert [p["part_no"] for p in ticket["parts"]] == [1, 3] and ticket["status"] == "draft"
    assert not ep.call("remove_part", {"ticket_id": "TK01", "part_no": 7}).ok  # no such part
    assert not ep.call("remove_part", {"ticket_id": "TK03", "part_no": 1}).ok  # not a draft


def test_a_terminal_verb_on_a_part_does_not_end_the_record() -> None:
    assert not _names_whole(ToolSpec(name="remove_part"), "tickets")
    assert _names_whole(ToolSpec(name="cancel_ticket"), "tickets")
    assert _names_whole(ToolSpec(name="cancel"), "tickets")
