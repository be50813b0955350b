"""The dates and times a change stamps on its record: "`completed_on` today", "`last_amended_on`
becomes today", "moving to `done` also sets `completed_on`".

Read from the write's description, then from the non-conditional sentences of its own policy
section; a stamp stated only for reaching a status is written only when the record reaches
it. A policy sentence about other records ("every one of the member's bookings ...", or one
naming another collection that holds the attribute) stamps nothing on this one. Every rule is
stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Effect, ToolBehaviour, Value, ValueSource
from autoforge.synth.behaviour.data import not_dated, noun_forms
from autoforge.synth.behaviour.guards import mention
from autoforge.synth.behaviour.headings import tool_sentences
from autoforge.synth.behaviour.stated import CONDITIONAL, time_fields
from autoforge.synth.behaviour.text import stamp_condition

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec


def record_attrs(tb: ToolBehaviour, ctx: Context) -> list[str]:
    """The attributes of the tool's collection: the data's, else the documented schema's."""
    attrs = ctx.ev.attributes.get(tb.collection or "") or list(
        ctx.schemas.get(tb.collection or "", {})
    )
    return attrs


def stated_dates(times: dict[str, ValueSource], ctx: Context, coll: str) -> dict[str, ValueSource]:
    """The today/now stamps a sentence states, less attributes the data says are no dates."""
    other = not_dated(ctx.ev, coll)
    return {a: src for a, src in times.items() if a not in other}


def change_stamps(
    spec: ToolSpec,
    tb: ToolBehaviour,
    ctx: Context,
    fixed: dict[str, Value],
    target: str | None,
) -> list[Effect]:
    """Dates and times the description, then the tool's own policy sentences, say the change
    stamps: into ``fixed`` when stamped on every call, as an effect of their own when stamped
    only on reaching another status. A policy sentence that makes its stamp depend on
    anything but a status ("when the order ships") stamps nothing."""
    coll = tb.collection or ""
    status_attr, status_values = ctx.status_enum(coll)
    attrs = record_attrs(tb, ctx)
    said: dict[str, tuple[ValueSource, str]] = {
        a: (src, spec.description)
        for a, src in stated_dates(time_fields(spec.description, attrs), ctx, coll).items()
    }
    for s in tool_sentences(ctx.policy, spec.name, ctx.headed, ctx.verbs):
        for a, src in stated_dates(time_fields(s, attrs), ctx, coll).items():
            on_status = stamp_condition(s, a, status_values) if status_attr else None
            if a in said or _other_records(s, a, coll, ctx):
                continue
            if on_status is not None or not CONDITIONAL.search(s):
                said[a] = (src, s)
    later: list[Effect] = []
    for a, (src, text) in said.items():
        cond = stamp_condition(text, a, status_values) if status_attr else None
        if cond is not None and (target is None or cond != target):
            later.append(
                Effect(
                    kind="set",
                    collection=coll,
                    fields={a: Value(source=src)},
                    when=[status_attr, cond],
                    sentence=mention(text, a, (cond,)),
                )
            )
        else:
            fixed[a] = Value(source=src)
    return later


def _other_records(s: str, attr: str, coll: str, ctx: Context) -> bool:
    """Whether a policy sentence on the tool may stamp ``attr`` on records other than the one
    the call names: it speaks of every or other such record ("every one of the member's
    bookings is cancelled ..."), or names another collection that holds the attribute too
    ("writes one transaction: ... `created_on` is today")."""
    if re.search(r"\b(?:every|each|all|other|others)\b", s, re.I):
        return True
    holders = [c for c, held in ctx.ev.attributes.items() if c != coll and attr in held]
    return any(re.search(rf"\b{re.escape(n)}\b", s, re.I) for c in holders for n in noun_forms(c))
