"""The values a task's agent must tell the user: the output nodes' values, rendered as text.

``render`` gives the canonical text of a value and other acceptable renderings (``19.9`` for
``19.90``); :func:`required_outputs` turns the blueprint's output nodes into
:class:`~autoforge.tasks.model.RequiredOutput` records after a gold run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from autoforge.tasks.blueprints.blueprint import Blueprint, ReasonNode
from autoforge.tasks.blueprints.reasoning import field_words
from autoforge.tasks.model import RequiredOutput


def render(value: Any) -> tuple[str, list[str]]:
    """The canonical text of a value to tell the user, and other acceptable renderings."""
    if isinstance(value, bool):
        return ("yes" if value else "no"), []
    if isinstance(value, float):
        text = f"{value:.2f}"
        alts = sorted({f"{value:g}", str(value)} - {text})
        return text, alts
    if isinstance(value, int):
        return str(value), []
    if isinstance(value, str):
        return value, [value.replace("_", " ")] if "_" in value else []
    return str(value), []


def required_outputs(bp: Blueprint, values: Mapping[str, Any]) -> list[RequiredOutput]:
    """What the agent must tell the user: the values of the blueprint's output nodes, as a
    gold run computed them (``values``: node id -> value)."""
    out = []
    for node_id in bp.outputs:
        node = bp.node(node_id)
        value = values[node_id]
        text, alts = render(value)
        desc = field_words(node.spec.field) if isinstance(node, ReasonNode) else node_id
        if isinstance(node, ReasonNode):
            desc = f"{node.spec.op} {desc} of the {node.noun}"
        out.append(RequiredOutput(node=node_id, description=desc, value=value, text=text,
                                  alternatives=alts))  # fmt: skip
    return out


__all__ = ["render", "required_outputs"]
