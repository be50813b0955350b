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

from autoforge.env import EnvironmentSpec, StateSchema
from autoforge.tasks.graph import ToolGraph
from autoforge.tasks.schema import singular
from autoforge.tasks.walks import Walk, WalkStep, concat

_USER_ATTRS = ("email", "phone", "username", "user_name", "login")
#: Nouns of a person who holds an account: break a tie between equally referenced collections
#: (orders reference both their store and their user once).
_PERSON_NOUNS = ("user", "customer", "client", "member", "account", "person", "patient", "guest")


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


_USER_CACHE: dict[int, tuple[StateSchema, str | None]] = {}


def user_collection(schema: StateSchema) -> str | None:
    """The collection that identifies the user: referenced by most others, with a login field.

    Collections with an email/phone/username attribute win; among those (or all, if none has
    one) the one referenced by the most attributes of other collections. None if no collection
    is referenced at all. Memoised per schema object.
    """
    cached = _USER_CACHE.get(id(schema))
    if cached is not None and cached[0] is schema:
        return cached[1]
    found = _user_collection(schema)
    if len(_USER_CACHE) > 256:
        _USER_CACHE.clear()
    _USER_CACHE[id(schema)] = (schema, found)
    return found


def _user_collection(schema: StateSchema) -> str | None:
    refs = {c.name: 0 for c in schema.collections}
    for coll in schema.collections:
        for attr in coll.attributes:
            if attr.references in refs and attr.references != coll.name:
                refs[attr.references] += 1

    def login(name: str) -> bool:
        coll = schema.collection(name)
        return coll is not None and any(coll.attribute(a) for a in _USER_ATTRS)

    def person(name: str) -> bool:
        return singular(name.lower().split("_")[-1]) in _PERSON_NOUNS

    ranked = sorted(refs, key=lambda n: (login(n), refs[n], person(n)), reverse=True)
    if not ranked or (refs[ranked[0]] == 0 and not login(ranked[0])):
        return None
    return ranked[0]


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
