"""What a change empties and what it keeps: "clears `a` and `b`", "`a` goes back to null",
"`a` is kept", and, with no sentence, the data's own rule (every record in the starting
status holds an attribute, no record in the new one does). Run as synthesized code on a small
lending-desk API written for this test."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.llm import LLMClient
from autoforge.synth.behaviour.stated import cleared_fields, kept_fields, literal_fields
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import load_docs

ATTRS = ["paused_on", "pause_note", "resumed_on", "opened_on", "desk", "closed_on"]


def test_sentences_that_empty_or_keep_attributes() -> None:
    s = "Sets `resumed_on` to today and clears `paused_on` and `pause_note` (both become null)."
    assert cleared_fields(s, ATTRS) == ["paused_on", "pause_note"]
    assert cleared_fields("Closing frees the desk (`desk` goes back to null).", ATTRS) == ["desk"]
    assert cleared_fields("`paused_on`, `pause_note` (all become null)", ATTRS) == [
        "paused_on",
        "pause_note",
    ]
    assert literal_fields("It resets `desk` to null.", ATTRS, []) == {"desk": None}
    assert cleared_fields("Refused if it clears `desk`.", ATTRS) == []  # a condition
    assert cleared_fields("Clears `desk` to the main hall.", ATTRS) == []  # a value, not null
    assert cleared_fields("Clears the account.", ATTRS) == []  # no attribute named
    assert kept_fields("`opened_on` is kept.", ATTRS) == ["opened_on"]
    assert kept_fields("It keeps `opened_on` and `desk`.", ATTRS) == ["opened_on", "desk"]
    assert kept_fields("`desk` stays unchanged.", ATTRS) == ["desk"]
    assert kept_fields("Keeps `desk` free for walk-ins until noon.", ATTRS) == []


def _loan(i: int, status: str, **more: Any) -> dict[str, Any]:
    rec = {"loan_id": f"L{i}", "status": status, "opened_on": f"2025-01-0{i % 9 + 1}",
           "desk": None, "paused_on": None, "pause_note": None, "resumed_on": None,
           "closed_on": None}  # fmt: skip
    rec.update(more)
    return rec


DATA: dict[str, Any] = {
    "meta": {"today": "2025-03-01"},
    "loans": {
        r["loan_id"]: r
        for r in [
            *[_loan(i, "active", desk=f"D{i}") for i in range(1, 5)],
            *[_loan(i, "paused", paused_on="2025-02-01", pause_note="away") for i in range(5, 8)],
            *[_loan(i, "closed", closed_on="2025-02-10") for i in range(8, 11)],
        ]
    },
}


def _op(name: str, path: str, description: str) -> dict[str, Any]:
    return {"post": {
        "operationId": name, "summary": name.replace("_", " "), "description": description,
        "parameters": [{"name": "loan_id", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"200": {"description": "The loan", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Loan"}}}}}}}  # fmt: skip


DOC = {
    "openapi": "3.0.3",
    "info": {"title": "Lending desk", "version": "1"},
    "paths": {
        "/loans/{loan_id}/resume": _op(
            "resume_loan",
            "resume",
            "paused -> active. Sets `resumed_on` to today and clears `paused_on` and "
            "`pause_note` (both become null). `opened_on` is kept.",
        ),
        "/loans/{loan_id}/close": _op("close_loan", "close", "active -> closed."),
    },
    "components": {
        "schemas": {
            "Loan": {
                "type": "object",
                "properties": {
                    "loan_id": {"type": "string"},
                    "status": {"type": "string", "enum": ["active", "paused", "closed"]},
                    **{a: {"type": "string", "nullable": True} for a in ATTRS},
                },
            }
        }
    },
}


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    root = tmp_path_factory.mktemp("desk")
    (root / "openapi.yaml").write_text(yaml.safe_dump(DOC))
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    docs = load_docs([Path(root / "openapi.yaml")])
    asyncio.run(synthesize(docs, root / "env", client, data=DATA, options=SynthOptions()))
    return Environment.load(root / "env")


def _after(env: Environment, tool: str, loan: str) -> dict[str, Any]:
    ep = env.episode(state=copy.deepcopy(DATA))
    obs = ep.call(tool, {"loan_id": loan})
    assert obs.ok, obs
    return dict(ep.snapshot()["loans"][loan])


def test_the_stated_clears_and_keeps_are_written(desk: Environment) -> None:
    rec = _after(desk, "resume_loan", "L5")
    assert rec["status"] == "active" and rec["resumed_on"] == "2025-03-01"
    assert rec["paused_on"] is None and rec["pause_note"] is None
    assert rec["opened_on"] == DATA["loans"]["L5"]["opened_on"]  # kept, not stamped today


def test_what_no_record_in_the_new_status_holds_is_emptied(desk: Environment) -> None:
    rec = _after(desk, "close_loan", "L1")
    assert rec["status"] == "closed" and rec["desk"] is None
    assert rec["opened_on"] == DATA["loans"]["L1"]["opened_on"]


def test_setting_names_to_null_empties_them() -> None:
    s = "Moves it from `paused` to `active` and sets `paused_on` and `pause_note` to null."
    assert cleared_fields(s, ATTRS) == ["paused_on", "pause_note"]
    assert cleared_fields("Sets `desk` to the given value.", ATTRS) == []
