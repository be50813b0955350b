"""A create's date argument is placed as far from today as the data's records place theirs,
read with the call's other arguments: a window per kind of request that only prose states
holds for the drawn dates, where a date copied from the data's column lay in its past.
Invented domain throughout."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import random
from pathlib import Path
from typing import Any

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import BehaviourModel, Effect, Environment, ParamInfo, ToolBehaviour, Value
from autoforge.llm import LLMClient
from autoforge.synth.options import SynthOptions
from autoforge.synth.pipeline import synthesize
from autoforge.tasks import generate_tasks
from autoforge.tasks.gold.dated import data_dates
from autoforge.tooldocs import load_docs

#: days from the order to its due date the (prose) policy allows, per urgency
_WINDOW = {"slow": (5, 9), "fast": (0, 2)}


def _model() -> BehaviourModel:
    fields = {
        "ticket_id": Value(source="new_id"),
        "urgency": Value(source="param", name="urgency"),
        "due_on": Value(source="param", name="due_on"),
        "opened_on": Value(source="today"),
    }
    tool = ToolBehaviour(
        tool="open_ticket", kind="create", collection="tickets", today="2031-05-20",
        params=[ParamInfo(name="urgency", required=True),
                ParamInfo(name="due_on", required=True, format="date")],
        effects=[Effect(kind="create", record="new", collection="tickets", fields=fields)],
    )  # fmt: skip
    return BehaviourModel(tools=[tool])


def _records(n: int, rng: random.Random) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i in range(n):
        urgency = rng.choice(sorted(_WINDOW))
        opened = dt.date(2031, 1, 1) + dt.timedelta(days=rng.randrange(120))
        due = opened + dt.timedelta(days=rng.randint(*_WINDOW[urgency]))
        key = f"TK-{i + 1:03d}"
        out[key] = {"ticket_id": key, "urgency": urgency, "due_on": due.isoformat(),
                    "opened_on": opened.isoformat()}  # fmt: skip
    return out


def test_a_due_date_keeps_the_distance_records_of_its_kind_keep() -> None:
    dates = data_dates(_model())
    assert dates is not None
    state = {"meta": {"today": "2031-06-01"}, "tickets": _records(40, random.Random(1))}
    rng = random.Random(0)
    for urgency, (low, high) in _WINDOW.items():
        for _ in range(30):
            drawn = dates.value("open_ticket", "due_on", {"urgency": urgency}, state, rng)
            assert drawn is not None
            days = (dt.date.fromisoformat(drawn) - dt.date(2031, 6, 1)).days
            assert low <= days <= high, (urgency, drawn)


def test_no_stamp_or_no_records_leaves_the_date_to_other_rules() -> None:
    model = _model()
    dates = data_dates(model)
    assert dates is not None
    assert dates.value("open_ticket", "due_on", {}, {"tickets": {}}, random.Random(0)) is None
    assert dates.value("open_ticket", "urgency", {}, {"tickets": {}}, random.Random(0)) is None
    model.tools[0].effects[0].fields.pop("opened_on")  # nothing says when a record was made
    assert data_dates(model) is None
    assert data_dates(None) is None


_DOC = {
    "openapi": "3.0.3",
    "info": {"title": "Lift repairs", "version": "1",
             "description": "Ids continue each collection's sequence. Today is meta.today."},
    "paths": {
        "/tickets": {
            "get": {"operationId": "list_tickets", "summary": "List repair tickets",
                    "responses": {"200": {"description": "ok", "content": {"application/json": {
                        "schema": {"type": "array",
                                   "items": {"$ref": "#/components/schemas/Ticket"}}}}}}},
            "post": {"operationId": "open_ticket", "summary": "Open a repair ticket",
                     "description": "The new ticket gets `opened_on` = today.",
                     "requestBody": {"required": True, "content": {"application/json": {
                         "schema": {"type": "object", "required": ["urgency", "due_on"],
                                    "properties": {
                                        "urgency": {"type": "string", "enum": ["slow", "fast"]},
                                        "due_on": {"type": "string", "format": "date"}}}}}},
                     "responses": {"201": {"description": "opened", "content": {
                         "application/json": {
                             "schema": {"$ref": "#/components/schemas/Ticket"}}}}}},
        },
    },
    "components": {"schemas": {"Ticket": {"type": "object", "properties": {
        "ticket_id": {"type": "string"},
        "urgency": {"type": "string", "enum": ["slow", "fast"]},
        "due_on": {"type": "string", "format": "date"},
        "opened_on": {"type": "string", "format": "date",
                      "description": "The day the ticket was opened (today)."},
    }}}},
}  # fmt: skip


def test_forged_creates_keep_the_window_only_prose_states(tmp_path: Path) -> None:
    """End to end, rules only: the policy's window per urgency is prose no rule reads; every
    gold ``open_ticket`` still asks for a due date inside it."""
    doc = tmp_path / "openapi.json"
    doc.write_text(json.dumps(_DOC), encoding="utf-8")
    data = {"meta": {"today": "2031-06-01"}, "tickets": _records(40, random.Random(2))}
    policy = ("A slow ticket is due between five and nine days after it is opened; a fast "
              "one within two days.")  # fmt: skip
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    asyncio.run(synthesize(load_docs([doc]), tmp_path / "env", client, data=data,
                           options=SynthOptions(policy=policy)))  # fmt: skip
    env = Environment.load(tmp_path / "env")
    tasks, _ = generate_tasks(env, 6, "easy", seed=0, state_source="data")
    calls = [c for t in tasks for c in t.gold_calls if c.name == "open_ticket"]
    assert calls, "no task opened a ticket"
    for call in calls:
        low, high = _WINDOW[call.arguments["urgency"]]
        days = (dt.date.fromisoformat(call.arguments["due_on"]) - dt.date(2031, 6, 1)).days
        assert low <= days <= high, call.arguments
