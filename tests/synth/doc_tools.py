"""Made-up tool documents for synthesis tests: one OpenAI-style function entry per tool.

Imported by the tests of this folder (``conftest.py`` puts the folder on ``sys.path``).
"""

from __future__ import annotations

from typing import Any


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
