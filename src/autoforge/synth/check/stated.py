"""The stated-rules check of ``autoforge check``: every sentence of a tool's own description
that states a rule must be carried by a guard or an effect.

What carries a sentence is read from the environment's artifacts: ``behaviour.json`` (the
behaviour model synthesis compiled) and ``rules.json`` (the guards synthesis wrote). A directory
with neither (a hand-written environment) has nothing to hold its code against and is skipped.
Per tool the check lists the enforced sentences (one passed item) and each stated rule that no
guard or effect carries (one error), so no sentence is silently dropped.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from autoforge.env import (
    RULES_FILE,
    BehaviourModel,
    EnvironmentSpec,
    ToolBehaviour,
    unenforced_sentences,
)

CHECK_NAME = "stated_rules"


class StatedItem(BaseModel):
    """One tool's verdict: the rule sentences enforced and those not enforced."""

    tool: str
    enforced: list[str]
    unenforced: list[str]
    #: whether the code was compiled from the behaviour model (its gaps are then certain)
    compiled: bool = False


def _rule_sentences(root: Path) -> dict[str, set[str]] | None:
    path = root / RULES_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    out: dict[str, set[str]] = {}
    for rule in data.get("rules", []) if isinstance(data, dict) else []:
        if isinstance(rule, dict) and rule.get("sentence"):
            out.setdefault(str(rule.get("tool")), set()).add(str(rule["sentence"]))
    return out


def stated_rules(root: Path, spec: EnvironmentSpec) -> list[StatedItem] | None:
    """Per tool, which rule sentences of its description are enforced; None when the
    directory records no guards (nothing to hold the code against)."""
    model = BehaviourModel.load(root)
    guards = _rule_sentences(root)
    if model is None and guards is None:
        return None
    out = []
    for tool in spec.tools:
        tb = (model.tool(tool.name) if model else None) or ToolBehaviour(
            tool=tool.name, kind="compute"
        )
        also = (guards or {}).get(tool.name, set())
        missing = unenforced_sentences(tb, tool.description, also)
        carried = sorted(s for s in tb.carried() | also if s)
        compiled = tb.compiled or model is None
        out.append(
            StatedItem(tool=tool.name, enforced=carried, unenforced=missing, compiled=compiled)
        )
    return out
