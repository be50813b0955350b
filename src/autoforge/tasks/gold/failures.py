"""Failed gold runs: the failure, and which fact values to blame for it.

A gold call that fails (or that a stated guard refuses before it is sent) fails the run with
a :class:`GoldFailure`. Its message is read for the values it names: the facts chosen for the
call are chosen again only when the message names one of them (or none of the call's values),
and after the run the facts it names are excluded from the next run on the same S0.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import networkx as nx

from autoforge.errors import AutoforgeError
from autoforge.tasks.blueprints.blueprint import Blueprint, FactRef, iter_refs


class GoldFailure(AutoforgeError):
    """The gold run failed; ``reason`` is a rejection reason (``gold_error``, ``degenerate``)."""

    def __init__(self, reason: str, detail: str, node: str | None = None) -> None:
        self.reason = reason
        self.detail = detail
        self.node = node
        self.facts: dict[str, Any] = {}
        self.calls: list[Any] = []  # the calls the run made before it failed (GoldCall)
        #: ``(collection, key, attribute, value)``: the S0 change that meets the broken guard
        self.fix: tuple[str, str, str, Any] | None = None
        #: S0 changes that make a degenerate reasoning step informative (a unique filter value)
        self.fixes: list[tuple[str, str, str, Any]] = []
        super().__init__(f"{reason}: {detail}")


def blame(bp: Blueprint, failure: GoldFailure) -> dict[str, str]:
    """The facts to exclude after a failed run: those the failing node depends on.

    Among the facts feeding the failing node (directly or through its ancestors), those whose
    value the error message names are blamed; when the message names none, all of them.
    """
    if failure.node is None:
        return {}
    dag = bp.dag()
    nodes = nx.ancestors(dag, failure.node) | {failure.node}
    names = {
        ref.name
        for node_id in nodes
        for binding in bp.bindings(bp.node(node_id)).values()
        for ref in iter_refs(binding)
        if isinstance(ref, FactRef) and ref.name in failure.facts
    }
    named = {n for n in names if mentioned(failure.facts[n], failure.detail)}
    return {n: repr(failure.facts[n]) for n in sorted(named or names)}


def mentioned(value: Any, text: str, words: bool = False) -> bool:
    """Whether ``text`` names ``value`` (three characters or more, as a substring; with
    ``words`` also a shorter number standing as a word: "4 requested")."""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        token = str(value)
        if len(token) >= 3:
            return token in text
        return words and not isinstance(value, str) and token in re.findall(r"[\w.]+", text)
    return False


def scalars(value: Any) -> Iterator[Any]:
    """The scalar values inside call arguments (nested objects and lists)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from scalars(item)
    elif isinstance(value, list):
        for item in value:
            yield from scalars(item)
    else:
        yield value


def blames_given(args: dict[str, Any], fresh: list[Any], message: str) -> bool:
    """Whether a failed call's error names an argument value that was *not* just chosen for
    it (the order taken from an earlier step, while only the reason was chosen here) and none
    that was: choosing the fresh facts again cannot help ("order ORD-3 is shipped" whatever
    the cancellation reason), so the call is not probed again (each probe is a tool call)."""
    chosen = {repr(v) for f in fresh for v in scalars(f)}
    return any(repr(v) not in chosen and mentioned(v, message) for v in scalars(args))


__all__ = ["GoldFailure", "blame", "blames_given", "mentioned", "scalars"]
