"""Fixtures for the forge tests: a scripted LLM that answers synthesis like a perfect model.

The scripted answers come from the bundled hand-written bookstore environment: its state schema
for the state-design prompts and its ``tools.py`` for the code prompts. Synthesis from the
bookstore docs then follows the same code path as with a real model, deterministically.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autoforge.examples import example_path
from autoforge.llm import LLMClient, RecordedRequest

BOOKSTORE = example_path("bookstore")


def _spec() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((BOOKSTORE / "environment.json").read_text())
    return data


def _entities() -> dict[str, Any]:
    colls = _spec()["state_schema"]["collections"]
    return {
        "collections": [
            {"name": c["name"], "primary_key": c["primary_key"], "description": c["description"]}
            for c in colls
        ]
    }


def _attributes(req: RecordedRequest) -> dict[str, Any]:
    text = req.messages[-1]["content"]
    names = re.findall(r"Collection `(\w+)`", text)
    colls = {c["name"]: c for c in _spec()["state_schema"]["collections"]}
    if "Collections to design" in text:  # several collections in one call
        return {
            "collections": [
                {"name": n, "attributes": colls.get(n, {"attributes": []})["attributes"]}
                for n in names
            ]
        }
    coll = colls.get(names[0] if names else "", {"attributes": []})
    return {"attributes": coll["attributes"]}


def _code(req: RecordedRequest) -> str:
    return "```python\n" + (BOOKSTORE / "tools.py").read_text() + "\n```"


def bookstore_llm(
    n: int = 400, on_call: Callable[[RecordedRequest], None] | None = None
) -> LLMClient:
    """A scripted client answering the synthesis prompts for the bookstore docs."""
    answers: dict[str, Callable[[RecordedRequest], Any]] = {
        "synth.state.entities": lambda req: _entities(),
        "synth.state.attributes": _attributes,
        "synth.tests": lambda req: {"cases": []},
        "synth.tool": _code,
        "synth.repair": _code,
    }

    def answer(req: RecordedRequest) -> Any:
        if on_call is not None:
            on_call(req)
        respond = answers.get(req.purpose)
        return respond(req) if respond else "no answer scripted"

    return LLMClient.scripted([answer] * n)


@pytest.fixture
def scripted_llm() -> Callable[..., LLMClient]:
    """Factory of scripted bookstore clients."""
    return bookstore_llm


@pytest.fixture
def bookstore_dir() -> Path:
    """The bundled bookstore example directory."""
    return BOOKSTORE
