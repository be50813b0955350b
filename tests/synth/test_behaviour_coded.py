"""Rules a tool's sentences state as code ("closed at most 30 days ago (today - closed_on <=
30)", "(start_hour + hours <= 21)", "have `open_count < max_open`"): a call that breaks the
comparison is refused, a call that meets it goes through, and comparisons that say when a
call is refused, or that sit in a sentence about one case, are not read as requirements."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from doc_tools import rules_env  # type: ignore[import-not-found]

from autoforge.env import BehaviourModel, Environment

FOLDER: dict[str, Path] = {}

TICKET = {
    "type": "object",
    "properties": {
        "ticket_id": {"type": "string"},
        "agent_id": {"type": "string"},
        "status": {"type": "string", "enum": ["open", "closed"]},
        "closed_on": {"type": "string", "format": "date", "nullable": True},
        "start_hour": {"type": "integer"},
        "hours": {"type": "integer"},
    },
}
AGENT = {
    "type": "object",
    "properties": {"agent_id": {"type": "string"}, "open_count": {"type": "integer"},
                   "max_open": {"type": "integer"}},
}  # fmt: skip


def _op(op_id: str, description: str, body: dict[str, Any]) -> dict[str, Any]:
    return {
        "post": {
            "operationId": op_id,
            "summary": op_id.replace("_", " "),
            "description": description,
            "parameters": [{"name": "ticket_id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
            "responses": {"200": {"description": "The ticket", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Ticket"}}}}},
        }
    }  # fmt: skip


OPENAPI = {
    "openapi": "3.0.3",
    "info": {"title": "Tickets", "version": "1"},
    "paths": {
        "/tickets/{ticket_id}/reopen": _op(
            "reopen_ticket",
            "Only `closed` tickets closed at most 30 days ago (today - closed_on <= 30). "
            "Sets status `open`.",
            {"type": "object", "properties": {}},
        ),
        "/tickets/{ticket_id}/schedule": _op(
            "schedule_ticket",
            "The work must end by 18:00 (start_hour + hours <= 18). Sets `start_hour` and "
            "`hours`.",
            {"type": "object", "required": ["start_hour", "hours"],
             "properties": {"start_hour": {"type": "integer"}, "hours": {"type": "integer"}}},
        ),
        "/tickets/{ticket_id}/assign": _op(
            "assign_ticket",
            "The agent must have `open_count < max_open`. Sets `agent_id`. Refused when the "
            "agent is full (open_count >= max_open).",
            {"type": "object", "required": ["agent_id"],
             "properties": {"agent_id": {"type": "string"}}},
        ),
        "/tickets/{ticket_id}/remind": _op(
            "remind_ticket",
            "Sets `hours`. Rejected if the ticket has no agent, was closed in the past "
            "(closed_on before today), or is archived.",
            {"type": "object", "required": ["hours"], "properties": {"hours": {"type": "integer"}}},
        ),
    },
    "components": {"schemas": {"Ticket": TICKET, "Agent": AGENT}},
}  # fmt: skip
DATA: dict[str, Any] = {
    "meta": {"today": "2026-05-31"},
    "agents": {"A1": {"agent_id": "A1", "open_count": 2, "max_open": 3},
               "A2": {"agent_id": "A2", "open_count": 3, "max_open": 3}},
    "tickets": {
        "T1": {"ticket_id": "T1", "agent_id": "A1", "status": "closed", "closed_on": "2026-05-20",
               "start_hour": 9, "hours": 2},
        "T2": {"ticket_id": "T2", "agent_id": "A1", "status": "closed", "closed_on": "2026-04-01",
               "start_hour": 9, "hours": 2},
        "T3": {"ticket_id": "T3", "agent_id": None, "status": "open", "closed_on": None,
               "start_hour": 9, "hours": 2},
    },
}  # fmt: skip


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    folder = tmp_path_factory.mktemp("coded")
    FOLDER["env"] = folder / "env"
    return rules_env(folder, yaml.safe_dump(OPENAPI, sort_keys=False), DATA)


def _ok(env: Environment, tool: str, **args: Any) -> bool:
    return env.episode(state=copy.deepcopy(DATA)).call(tool, args).ok


def test_a_difference_of_dates_counts_days(env: Environment) -> None:
    assert _ok(env, "reopen_ticket", ticket_id="T1")  # closed 11 days ago
    assert not _ok(env, "reopen_ticket", ticket_id="T2")  # closed 60 days ago


def test_arithmetic_over_the_arguments(env: Environment) -> None:
    assert _ok(env, "schedule_ticket", ticket_id="T3", start_hour=14, hours=4)
    assert not _ok(env, "schedule_ticket", ticket_id="T3", start_hour=15, hours=4)


def test_a_comparison_on_a_record_an_argument_names(env: Environment) -> None:
    assert _ok(env, "assign_ticket", ticket_id="T3", agent_id="A1")
    assert not _ok(env, "assign_ticket", ticket_id="T3", agent_id="A2")


def test_a_comparison_after_a_refusal_word_is_the_case_refused(env: Environment) -> None:
    # "Refused when the agent is full (open_count >= max_open)" says when the call is
    # refused; read as a requirement it would refuse the agent with room (2 of 3)
    assert _ok(env, "assign_ticket", ticket_id="T3", agent_id="A1")
    model = BehaviourModel.load(FOLDER["env"])
    assert model is not None
    held = [c for t in model.tools if t.tool == "assign_ticket" for c in t.checks
            if c.kind == "holds"]  # fmt: skip
    assert [(c.values[0][1], c.values[1:]) for c in held] == [(["<"], []), ([">="], [False])]


def test_a_refused_case_in_words_over_dates(env: Environment) -> None:
    assert not _ok(env, "remind_ticket", ticket_id="T1", hours=1)  # closed before today
    assert _ok(env, "remind_ticket", ticket_id="T3", hours=1)  # never closed: nothing known
