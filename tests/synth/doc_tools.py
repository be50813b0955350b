"""Made-up tool documents for synthesis tests: one OpenAI-style function entry per tool.

Imported by the tests of this folder (``conftest.py`` puts the folder on ``sys.path``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.llm import LLMClient
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import load_docs


def doc_tool(name: str, description: str, **params: str) -> dict[str, Any]:
    """A function-list entry whose parameters are required strings described by ``params``."""
    props = {p: {"type": "string", "description": d} for p, d in params.items()}
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": props, "required": list(props)},
        },
    }


def rules_env(folder: Path, doc: str, data: dict[str, Any], policy: str = "") -> Environment:
    """The environment rules alone (``--llm none``) synthesize from an OpenAPI ``doc`` text,
    the ``data`` and the ``policy``, written under ``folder``."""
    (folder / "openapi.yaml").write_text(doc)
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    docs = load_docs([folder / "openapi.yaml"])
    options = SynthOptions(policy=policy) if policy else SynthOptions()
    asyncio.run(synthesize(docs, folder / "env", client, data=data, options=options))
    return Environment.load(folder / "env")


class GuardError(Exception):
    """What a compiled guard raises as ``ToolError`` when its lines run alone in a test."""


def guard_refuses(code: str, **scope: Any) -> bool:
    """Whether the guard lines ``code`` refuse the call whose names ``scope`` binds."""
    try:
        exec(code, {"ToolError": GuardError, **scope})
    except GuardError:
        return True
    return False
