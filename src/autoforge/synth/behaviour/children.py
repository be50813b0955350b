"""Limits on how many records of a kind may belong to one record: "refused when the owner
already has 5 active pets", "a customer who already has a ticket that is `open` or
`in_progress` cannot open another".

In a refusing sentence (a "refused/rejected when" alternative, or one saying "cannot") of the
tool's description or of the policy sentences that speak of it, "<parent> already has <n>
<statuses> <children>" (or "<children> that is/are <statuses>") names:

- the parent: the record a parameter of the tool or its target names;
- the children: a collection whose records refer to the parent's collection;
- the bound: "a"/"an"/"one" is 1, else the number; the statuses (of the child's status enum,
  plain or in code) the counted children are in, every child when none is named.

A call is refused when the parent already has that many such children (check ``no_child``
with ``high``). A phrase that singles out a child ("an active pet with the same name", "a
booking for a class on the same date") says something narrower and is skipped. Every rule is
stated without naming a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Check, ToolBehaviour, doc_sentences, refusal_alternatives
from autoforge.lexicon import count_of, number_words
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.headings import tool_sentences

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_UNTIL = r"(?=\s+(?:cannot|can\s|may\s|must\s)|$)"
_REFUSING = re.compile(r"\b(?:cannot|can\s*not|may\s+not|must\s+not|refused|rejected)\b", re.I)


def _parents(tb: ToolBehaviour) -> list[tuple[str, str]]:
    """``(collection, parameter)`` of the records the tool's arguments name."""
    out = [(str(p.references), p.name) for p in tb.params if p.references]
    return [(c, p) for c, p in out if c]


def _child_ref(ctx: Context, child: str, parent: str) -> str | None:
    refs = [a for a in ctx.ev.attributes.get(child, []) if ctx.ev.references(child, a) == parent]
    return refs[0] if len(refs) == 1 else None


def _qualified(head: str, tb: ToolBehaviour, ctx: Context) -> bool:
    """Whether the words before the limit restrict the record acted on by a status in code
    ("Assigning an `in_progress` task to a member who already has ..."): the limit then holds
    only in that case, which a plain limit would not say."""
    _attr, values = ctx.status_enum(tb.collection)
    return any(f"`{v}`" in head for v in values)


def _limit(part: str, tb: ToolBehaviour, ctx: Context) -> Check | None:
    for parent, param in _parents(tb):
        pnouns = "|".join(re.escape(n) for n in noun_forms(parent))
        for child in ctx.ev.attributes:
            via = _child_ref(ctx, child, parent) if child != parent else None
            if via is None:
                continue
            cnouns = "|".join(re.escape(n) for n in noun_forms(child))
            attr, values = ctx.status_enum(child)
            spaced = "|".join(re.escape(v.replace("_", " ")) for v in values) or "(?!)"
            m = re.search(
                rf"\b(?:{pnouns})\s+(?:who\s+|that\s+)?already\s+(?:has|have|holds?)\s+"
                rf"(?P<n>an?|{number_words()}|\d+)\s+(?P<pre>(?:[`\w-]+,?\s+){{0,4}}?)"
                rf"(?:{cnouns})\b(?P<tail>\s+(?:{spaced})\b)?"
                rf"(?P<post>\s+(?:that|which)\s+(?:is|are)\s+[`\w, ]+?{_UNTIL})?"
                rf"(?!\s+(?:with|named|called|for|on|at|in|during|the\s+same|that\s+day)\b)",
                part,
                re.I,
            )
            if m is None or _qualified(part[: m.start()], tb, ctx):
                continue
            said = " ".join(m.group(g) or "" for g in ("pre", "tail", "post")).lower()
            statuses = [
                v
                for v in values
                if re.search(
                    rf"\b{re.escape(v.replace('_', ' '))}\b|`{re.escape(v)}`",
                    said.replace("_", " "),
                )
            ]
            n = m.group("n").lower()
            bound = 1 if n.lower() in ("a", "an") else count_of(n)
            return Check(kind="no_child", param=param, collection=child, via=via,
                         attribute=attr if statuses else None, values=statuses,
                         high=float(bound), sentence=part)  # fmt: skip
    return None


def child_limits(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The ``no_child`` limits of ``tb`` (see the module docstring)."""
    if tb.kind not in ("create", "action"):
        return []
    out: list[Check] = []
    for s in doc_sentences(spec.description) + tool_sentences(
        ctx.policy, tb.tool, ctx.headed, ctx.verbs
    ):
        parts = refusal_alternatives(s)[1] or ([s] if _REFUSING.search(s) else [])
        for part in parts:
            check = _limit(part, tb, ctx)
            if check is not None and not any(c.collection == check.collection for c in out):
                out.append(check)
    return out
