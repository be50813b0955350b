"""Writes stated for one case and for the other: "If the shift has a free spot
(`filled_count < capacity`) the sign-up is `confirmed` and the shift's `filled_count` goes up
by 1. Otherwise it joins the waitlist as `waitlisted` and `waitlist_count` goes up by 1."

A sentence that opens with "If" or "When" and states its condition as code (a comparison over
the call's arguments and the records it reaches, read as a formula condition) is followed by
one that opens with "Otherwise". The writes read from the first sentence happen only when the
condition holds, those read from the second only when it does not; a create's status named in
the second ("as `waitlisted`") replaces the one the first gave. The condition is evaluated once,
before any write, so the first case's writes cannot change which case the call is in.

Every rule is stated without naming a domain.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Effect, ToolBehaviour, Value, doc_sentences
from autoforge.synth.behaviour.formulas import condition_tree, tree_nodes

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_CODE_CMP = re.compile(r"`([^`]*(?:<=|>=|==|!=|<|>)[^`]*)`")


def _mentions_new(tree: Any) -> bool:
    """Whether a condition reads the record the call is creating (not known before it)."""
    return any(n[1] == "new" for n in tree_nodes(tree, "rec"))


def branch_effects(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, effects: list[Effect]
) -> list[Effect]:
    """``effects`` with the writes of an "If <code> ... Otherwise ..." pair made conditional
    (``when`` ``["expr", condition, holds]``), and the other case's create status added."""
    sentences = doc_sentences(spec.description)
    out = list(effects)
    status_attr, values = ctx.status_enum(tb.collection)
    for first, second in itertools.pairwise(sentences):
        code = _CODE_CMP.search(first)
        if not re.match(r"\s*(?:if|when)\b", first, re.I) or code is None:
            continue
        if not re.match(r"\s*otherwise\b", second, re.I):
            continue
        tree = condition_tree(code.group(1), tb, ctx)
        if tree is None or _mentions_new(tree):
            continue
        for e in out:
            if e.kind in ("increment", "set") and not e.when and e.sentence in (first, second):
                e.when = ["expr", tree, e.sentence == first]
        named = [v for v in values if re.search(rf"\b(?:as|is)\s+`{re.escape(v)}`", second)]
        if tb.kind == "create" and status_attr and len(named) == 1:
            out.append(
                Effect(
                    kind="set",
                    record="new",
                    collection=tb.collection,
                    fields={status_attr: Value(source="const", const=named[0])},
                    when=["expr", tree, False],
                    sentence=second,
                )
            )
    return out


def conditions(tb: ToolBehaviour) -> list[Any]:
    """The distinct conditions of ``tb``'s case writes, in order (each evaluated once)."""
    out: list[Any] = []
    for e in tb.effects:
        if len(e.when) == 3 and e.when[0] == "expr" and e.when[1] not in out:
            out.append(e.when[1])
    return out
