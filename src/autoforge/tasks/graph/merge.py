"""Merging walks into one multi-requirement task, without redundant lookups.

Two walks of the same user ("cancel my priciest order" and "review a book I received") each
start by identifying the user. Merged naively, the agent would be asked to look the user up
twice. The rules below drop a step when an earlier one already resolves the same thing:

* **same call**: the same tool fed by the same (re-indexed) parent, or both fed only by user
  facts, gets the same arguments, so it is the same call;
* **same user entity**: two lookups with the same tool over the *user collection* (the
  collection that identifies the user, e.g. ``customers``) resolve the same record: a task has
  one user.

A :class:`MergeAdvisor` (an LLM later) may declare further same-tool pairs redundant where the
schemas do not show it; the default advisor never does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from autoforge.env import EnvironmentSpec
from autoforge.lexicon import user_collection as user_collection
from autoforge.tasks.graph.dependency import ToolGraph
from autoforge.tasks.graph.walks import Walk, WalkStep, concat


class MergeAdvisor(Protocol):
    """Judges whether two same-tool steps of a merged walk resolve the same thing."""

    name: str

    def same_lookup(self, spec: EnvironmentSpec, walk: Walk, earlier: int, later: int) -> bool:
        """True when step ``later`` repeats what step ``earlier`` already resolved."""
        ...


class RuleMergeAdvisor:
    """The deterministic default: no redundancy beyond the schema rules."""

    name = "rules"

    def same_lookup(self, spec: EnvironmentSpec, walk: Walk, earlier: int, later: int) -> bool:
        """Never."""
        return False


def _user_lookup(graph: ToolGraph, tool: str, user: str | None) -> bool:
    """A read tool that consumes nothing but the user collection and produces it."""
    if user is None:
        return False
    node = graph.node(tool)
    return node.access == "read" and set(node.consumes) <= {user} and user in node.produces


def _redundant_with(
    walk: Walk,
    index: int,
    kept: dict[int, int],
    graph: ToolGraph,
    spec: EnvironmentSpec,
    advisor: MergeAdvisor,
) -> int | None:
    """The kept earlier step that step ``index`` duplicates (its new index), or None."""
    step = walk.steps[index]
    parent = None if step.parent is None else kept[step.parent]
    user = user_collection(spec.state_schema)
    for old, new in kept.items():
        other = walk.steps[old]
        if other.tool != step.tool or other.origin == step.origin:
            continue
        other_parent = None if other.parent is None else kept[other.parent]
        if other_parent == parent:
            return new
        if graph.node(step.tool).access == "read" and (
            _user_lookup(graph, step.tool, user) or advisor.same_lookup(spec, walk, old, index)
        ):
            return new
    return None


def merge_walks(
    walks: Sequence[Walk],
    graph: ToolGraph,
    spec: EnvironmentSpec,
    advisor: MergeAdvisor | None = None,
) -> Walk:
    """One walk doing all of ``walks``, redundant steps removed (their names in ``removed``)."""
    advisor = advisor or RuleMergeAdvisor()
    joined = concat(walks)
    kept: dict[int, int] = {}
    steps: list[WalkStep] = []
    removed: list[str] = []
    for index, step in enumerate(joined.steps):
        same = _redundant_with(joined, index, kept, graph, spec, advisor)
        if same is not None:
            kept[index] = same
            removed.append(step.tool)
            continue
        parent = None if step.parent is None else kept[step.parent]
        kept[index] = len(steps)
        steps.append(WalkStep(tool=step.tool, parent=parent, origin=step.origin))
    return Walk(steps=tuple(steps), removed=tuple(removed))
