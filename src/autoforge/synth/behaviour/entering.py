"""What a change writes on entering a status besides the status itself, and what it empties
or keeps.

The data shows the stamps records in a status carry (a date set on entering it) and the
attribute such records carry for a parameter (a reason given to a cancel). Where the call's
starting statuses are known (its ``status_in`` check), what every record in them already holds
is kept rather than stamped again, and what every one holds but no record in the new status
does is emptied: the only reading that keeps the data's rule true. The docs say the rest in so
many words: "clears `a` and `b`", "`a` goes back to null", "`a` is kept". Nothing here names a
domain.
"""

from __future__ import annotations

from typing import cast

from autoforge.env import ToolBehaviour, Value, ValueSource, doc_sentences
from autoforge.synth.behaviour.data import (
    Context,
    entered_with,
    entry_stamps,
    held_by,
    left_behind,
)
from autoforge.synth.behaviour.headings import tool_sentences
from autoforge.synth.behaviour.stated import CONDITIONAL, cleared_fields, kept_fields
from autoforge.tooldocs import ToolSpec


def cleared_kept(
    spec: ToolSpec, ctx: Context, attrs: list[str], fixed: dict[str, Value], skip: set[str]
) -> None:
    """Attributes the description or the policy's plain sentences on the tool say the change
    empties ("clears `a`") become null; those they say it keeps ("`a` is kept") are not
    written, whatever the data suggested."""
    said = doc_sentences(spec.description) + [
        s
        for s in tool_sentences(ctx.policy, spec.name, ctx.headed, ctx.verbs)
        if not CONDITIONAL.search(s)
    ]
    for s in said:
        for a in cleared_fields(s, attrs):
            if a not in skip:
                fixed.setdefault(a, Value(source="const", const=None))
    for a in {a for s in said for a in kept_fields(s, attrs)}:
        if a in fixed and fixed[a].source != "param":
            del fixed[a]


def entry_fields(
    tb: ToolBehaviour, ctx: Context, attrs: list[str], status_attr: str, status: str
) -> dict[str, Value]:
    """What entering ``status`` writes besides the status: the stamps records in that status
    carry in the data, and a parameter into the attribute such records carry with its name
    as a suffix (a reason given to a cancel). Where the call's starting statuses are known,
    what their records all hold already is kept rather than stamped again, and what they all
    hold but no record in ``status`` does is emptied (see :func:`left_behind`)."""
    coll = tb.collection or ""
    sources = source_statuses(tb, status_attr)
    held = held_by(ctx.ev, coll, status_attr, sources)
    out = {
        a: Value(source=cast(ValueSource, src))
        for a, src in entry_stamps(ctx.ev, coll, status_attr, status).items()
        if a not in held
    }
    for a in left_behind(ctx.ev, coll, status_attr, sources, status):
        out.setdefault(a, Value(source="const", const=None))
    carried = entered_with(ctx.ev, coll, status_attr, status)
    for p in tb.params:
        if p.name in attrs or p.name == tb.id_param:
            continue
        for a in carried:
            if a.endswith("_" + p.name) or a.endswith(p.name):
                out[a] = Value(source="param", name=p.name)
    return out


def source_statuses(tb: ToolBehaviour, status_attr: str) -> list[str]:
    """The statuses the call's own record must be in (its ``status_in`` check)."""
    for c in tb.checks:
        if (c.kind == "status_in" and c.param == tb.id_param and c.via is None
                and c.attribute == status_attr and c.when_given is None):  # fmt: skip
            return [str(v) for v in c.values]
    return []
