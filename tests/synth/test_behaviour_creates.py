"""What a create writes that the docs leave to the data: a key continuing the latest period's
sequence, the status records start in, empty lists, and a value copied from a record two
references away. Rules only, on a small repair-shop API written for this test."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.llm import LLMClient
from autoforge.synth.behaviour.targets import target_status
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import ToolSpec, load_docs

_DOC = """
openapi: 3.0.3
info: {title: Repairs, version: "1"}
paths:
  /tickets:
    post:
      operationId: open_ticket
      summary: Open a repair ticket
      description: Creates an empty draft (no parts yet) for the customer.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [customer_id]
              properties:
                customer_id: {type: string}
      responses:
        "201":
          description: The new ticket
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Ticket"}
components:
  schemas:
    Ticket:
      type: object
      properties:
        ticket_id: {type: string}
        customer_id: {type: string}
        status: {type: string, enum: [draft, quoted, closed]}
        labour_rate: {type: number}
        parts: {type: array, items: {type: string}}
        opened_on: {type: string, format: date}
"""


def _data() -> dict[str, Any]:
    regions = {"RG1": {"region_id": "RG1", "labour_rate": 40.0},
               "RG2": {"region_id": "RG2", "labour_rate": 55.5}}  # fmt: skip
    customers = {f"CU{i}": {"customer_id": f"CU{i}", "region_id": f"RG{1 + i % 2}"}
                 for i in range(1, 5)}  # fmt: skip
    tickets: dict[str, Any] = {}
    made = [(2025, "closed"), (2025, "quoted"), (2026, "draft"), (2026, "draft"),
            (2026, "quoted"), (2026, "draft")]  # fmt: skip
    for n, (year, status) in enumerate(made):
        key = f"TK-{year}-{n + 1:04d}"
        cust = f"CU{1 + n % 4}"
        rate = regions[customers[cust]["region_id"]]["labour_rate"]
        tickets[key] = {"ticket_id": key, "customer_id": cust, "status": status,
                        "labour_rate": rate, "parts": [] if status == "draft" else ["valve"],
                        "opened_on": f"{year}-01-0{1 + n % 5}"}  # fmt: skip
    return {"meta": {"today": "2026-02-10"}, "regions": regions, "customers": customers,
            "tickets": tickets}  # fmt: skip


def test_a_create_continues_the_latest_period_with_the_data_s_start(tmp_path: Path) -> None:
    (tmp_path / "openapi.yaml").write_text(_DOC)
    data = _data()
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    docs = load_docs([tmp_path / "openapi.yaml"])
    asyncio.run(synthesize(docs, tmp_path / "env", client, data=data, options=SynthOptions()))
    env = Environment.load(tmp_path / "env")
    ep = env.episode(state=copy.deepcopy(data))
    obs = ep.call("open_ticket", {"customer_id": "CU1"})
    assert obs.ok, obs.content
    new = ep.snapshot()["tickets"]["TK-2026-0007"]  # the 2026 sequence, four digits
    assert new["status"] == "draft" and new["parts"] == [] and new["opened_on"] == "2026-02-10"
    assert new["labour_rate"] == 55.5  # the customer's region's rate, as every ticket shows


def test_a_policy_saying_records_start_life_as_a_status_gives_the_create_s_start() -> None:
    spec = ToolSpec(name="open_ticket", description="Open a ticket for a customer.")
    policy = "Tickets always start life as a **draft**; a quote moves them on."
    assert target_status(spec, "tickets", ["draft", "quoted"], policy, create=True) == (
        "draft", "Tickets always start life as a **draft**; a quote moves them on.")  # fmt: skip
