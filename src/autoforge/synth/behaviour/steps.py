"""A call that moves its record one stage along a stated sequence: "steps an open application
forward by one stage: submitted to screening, screening to home_check, home_check to
approved", "`shipped` becomes `delivered`, `ready` becomes `collected`".

A sentence of the write's description or of its own policy section that pairs two or more
status values ("a to b", "a -> b", "`a` becomes `b`"), each from a different start, gives the
move from every start. The status is set to a pair's end only when the record is at that
pair's start, in an order where no move feeds the next, so a call moves one stage. The starts
are what the call needs (a ``status_in`` check, unless another check already bounds the
status). Read only for a write that sets no status otherwise; a sentence opening on a
condition is left alone. Every rule is stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Check, Effect, ToolBehaviour, Value
from autoforge.synth.behaviour.headings import own_sentences
from autoforge.synth.behaviour.stated import OPENS_ON_CONDITION

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_PAIR = re.compile(
    r"`?\b([A-Za-z][\w-]*)`?\s*(?:\bto\b|->|\u2192|\bbecomes\b)\s*`?([A-Za-z][\w-]*)\b`?"
)


def stated_steps(texts: list[str], statuses: list[str]) -> tuple[list[tuple[str, str]], str]:
    """``(pairs, sentence)``: the first sentence's moves between statuses, two or more from
    distinct starts, in an order where no move's end is a later move's start; ``([], "")``
    when no sentence states such a sequence (or its moves form a loop)."""
    for s in texts:
        if OPENS_ON_CONDITION.match(s):
            continue
        pairs = [(a, b) for a, b in _PAIR.findall(s) if a in statuses and b in statuses and a != b]
        starts = [a for a, _ in pairs]
        if len(pairs) < 2 or len(set(starts)) != len(starts):
            continue
        ordered = _one_step_order(pairs)
        if ordered:
            return ordered, s
    return [], ""


def _one_step_order(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The moves in an order where a move whose start is another's end comes first, so that
    no record moves twice in one call; empty for a loop."""
    left, out = list(pairs), []
    while left:
        ready = [p for p in left if not any(q[0] == p[1] for q in left if q != p)]
        if not ready:
            return []
        out.append(ready[0])
        left.remove(ready[0])
    return out


def step_moves(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> tuple[list[Check], list[Effect]]:
    """The check and the conditional status sets of a stated sequence (see the module)."""
    if tb.kind not in ("action", "update") or not tb.collection or not tb.id_param:
        return [], []
    attr, statuses = ctx.status_enum(tb.collection)
    if not attr or any(e.kind == "set" and attr in e.fields for e in tb.effects):
        return [], []
    pairs, said = stated_steps(own_sentences(spec, ctx), [str(v) for v in statuses])
    if not pairs:
        return [], []
    effects = [
        Effect(kind="set", collection=tb.collection, when=[attr, a], sentence=said,
               fields={attr: Value(source="const", const=b)})
        for a, b in pairs
    ]  # fmt: skip
    bounded = any(c.kind in ("status_in", "status_not_in", "transition") and c.attribute == attr
                  and c.via is None for c in tb.checks)  # fmt: skip
    check = Check(kind="status_in", param=tb.id_param, collection=tb.collection, attribute=attr,
                  values=sorted({a for a, _ in pairs}), sentence=said)  # fmt: skip
    return ([] if bounded else [check]), effects
