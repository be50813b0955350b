"""The model as reader: a rule sentence the regex readers miss, read into a typed rule under a
closed schema, kept only where the sentence grounds it; scripted answers here, the embedded
0.5B in ``test_a_real_small_model_reads_a_blocked_status``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.llm import LLMClient
from autoforge.synth.behaviour.reader import _Record, grounded, read_rules
from autoforge.synth.behaviour.run import derive_model
from autoforge.tooldocs import load_doc

RECORDS = [_Record("account", "accounts", "param:account_id", "status", ["active", "suspended"])]
DOC = """
openapi: 3.0.3
info: {title: Kennel, version: "1"}
paths:
  /stays:
    post:
      operationId: book_stay
      summary: Book a stay for a dog
      description: >
        Creates a `booked` stay. Suspended accounts are blocked from making new stays.
        A stay lasts between 1 and 14 nights.
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              required: [account_id, nights]
              properties:
                account_id: {type: string}
                nights: {type: integer}
      responses:
        "201":
          description: The stay
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Stay'}
components:
  schemas:
    Account:
      type: object
      properties:
        account_id: {type: string}
        status: {type: string, enum: [active, suspended]}
    Stay:
      type: object
      properties:
        stay_id: {type: string}
        account_id: {type: string}
        nights: {type: integer}
        status: {type: string, enum: [booked, ended]}
"""
DATA: dict[str, Any] = {
    "meta": {"today": "2031-05-01"},
    "accounts": {
        "A1": {"account_id": "A1", "status": "active"},
        "A2": {"account_id": "A2", "status": "suspended"},
    },
    "stays": {"S1": {"stay_id": "S1", "account_id": "A1", "nights": 3, "status": "booked"}},
}
BLOCKED = "Suspended accounts are blocked from making new stays."


@pytest.mark.parametrize(
    ("reading", "sentence", "kept"),
    [
        ({"rule": "record_status_must_not_be", "about": "account", "values": ["suspended"]},
         BLOCKED, True),
        ({"rule": "record_status_must_be", "about": "account", "values": ["suspended"]},
         BLOCKED, False),  # the wrong way round: the sentence says no
        ({"rule": "record_status_must_not_be", "about": "account", "values": ["active"]},
         BLOCKED, False),  # "active" is not in the sentence
        ({"rule": "record_status_must_be", "about": "account", "values": ["active"]},
         "Only active accounts may book.", True),
        ({"rule": "record_status_must_not_be", "about": "account", "values": ["suspended"]},
         "Suspended stays are blocked.", False),  # no account in the sentence
        ({"rule": "number_at_most", "about": "nights", "number": 14},
         "A stay lasts between 1 and 14 nights.", True),
        ({"rule": "number_at_most", "about": "nights", "number": 30},
         "A stay lasts between 1 and 14 nights.", False),  # 30 is not written
        ({"rule": "no_rule", "about": "none", "values": []}, BLOCKED, False),
        # what the sentence alone decides comes from it: its values, its only record
        ({"rule": "record_status_must_not_be", "about": "none", "values": ["active", "suspended"]},
         BLOCKED, True),
        # the direction must follow the sentence's words: 14 ends "between 1 and 14"
        ({"rule": "number_at_least", "about": "nights", "number": 14},
         "A stay lasts between 1 and 14 nights.", False),
        ({"rule": "number_at_least", "about": "none", "number": 1},
         "A stay lasts between 1 and 14 nights.", True),
    ],
)  # fmt: skip
def test_only_what_the_sentence_grounds_is_kept(
    reading: dict[str, Any], sentence: str, kept: bool
) -> None:
    assert (grounded(reading, sentence, RECORDS, ["nights"]) is not None) is kept


def _forge(tmp_path: Path, client: LLMClient) -> tuple[int, Any]:
    (tmp_path / "api.yaml").write_text(DOC)
    docs = load_doc(str(tmp_path / "api.yaml"))
    model = derive_model(docs, DATA, "")
    added = asyncio.run(read_rules(model, docs, DATA, "", client))
    return added, model


def test_a_scripted_reading_becomes_a_check(tmp_path: Path) -> None:
    answers = [
        {"rule": "record_status_must_not_be", "about": "account", "values": ["suspended"],
         "number": None},
        {"rule": "number_at_most", "about": "nights", "values": [], "number": 99},  # not written
    ]  # fmt: skip
    client = LLMClient.scripted([json.dumps(a) for a in answers] * 4)
    added, model = _forge(tmp_path, client)
    tool = model.tool("book_stay")
    assert added == 1 and tool is not None
    (check,) = [c for c in tool.checks if c.source == "model"]
    assert (check.kind, check.collection, check.values) == (
        "status_not_in", "accounts", ["suspended"]
    )  # fmt: skip
    assert "Suspended accounts" in check.sentence


@pytest.mark.llm
def test_a_real_small_model_reads_a_blocked_status(
    embedded_small_config: Any, tmp_path: Path
) -> None:
    client = LLMClient(embedded_small_config, cache=False)
    added, model = _forge(tmp_path, client)
    tool = model.tool("book_stay")
    assert tool is not None
    read = [c for c in tool.checks if c.source == "model"]
    assert added == len(read) >= 1
    assert all(c.kind == "status_not_in" and c.values == ["suspended"] for c in read
               if c.kind.startswith("status"))  # fmt: skip


@pytest.mark.parametrize(
    ("stems", "made", "kept"),
    [
        ({"pay"}, "", False),  # the refusal is about booking, not paying
        ({"book"}, "", True),
        (set(), "stay|stays", True),  # a create: "new stays" names what it makes
    ],
)
def test_only_the_clause_of_the_tool_s_own_action_is_read(
    stems: set[str], made: str, kept: bool
) -> None:
    sentence = (
        "Suspended accounts can still pay (to settle a debt), but they cannot book new stays."
    )
    reading = {"rule": "record_status_must_not_be", "about": "account", "values": ["suspended"]}
    assert (grounded(reading, sentence, RECORDS, [], stems, made) is not None) is kept
    positive = {"rule": "record_status_must_be", "about": "account", "values": ["active"]}
    keep = "An account must keep an active card: booking needs one."
    assert grounded(positive, keep, RECORDS, [], {"keep"}) is None  # no "only", no "must be"
