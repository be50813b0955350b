"""A move written as an arrow names the statuses a call starts from: "active -> suspended."
or "pending, active or suspended -> terminated" in a write's description, or in words with
the values in code: "moves a record from `intake` or `on_hold` to `listed`".

The values before the arrow and the one after it must all be values of the status attribute
of the tool's collection, and the sentence must hold one arrow (a chain "a -> b -> c" is a
diagram, not one move). The record the call names must then hold one of the values before
the arrow: a ``status_in`` check, unless another check already bounds that attribute. Every
rule is stated without naming a domain.
"""

from __future__ import annotations

import re

from autoforge.env import Check, ToolBehaviour, doc_sentences
from autoforge.synth.behaviour.data import Context

_ARROW = re.compile(r"->|\u2192")
_WORD = re.compile(r"`?([A-Za-z][\w-]*)`?")
#: "`a` becomes `b`" opening a clause: the record in ``a`` moves to ``b``
_BECOMES = re.compile(r"(?:^|[;,(]\s*|\band\s+)`([\w-]+)`\s+becomes\s+`([\w-]+)`")
#: "moves a record from `a` or `b` to `c`": the same move in words, its values in code
_FROM_TO = re.compile(
    r"\bfrom\s+(`[\w-]+`(?:\s*(?:,|\bor\b|,\s*or\b)\s*`[\w-]+`)*)\s+to\s+(`[\w-]+`)"
)


def _values(part: str) -> list[str]:
    """The words of "a, b or c" (backticks and a leading "from" dropped)."""
    part = re.sub(r"^\s*from\s+", "", part.strip(), flags=re.I)
    pieces = re.split(r"\s*,\s*(?:or\s+)?|\s+or\s+", part)
    out = []
    for p in pieces:
        m = _WORD.fullmatch(p.strip())
        if m is None:
            return []
        out.append(m.group(1))
    return out


def arrow_checks(description: str, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The ``status_in`` check an arrow sentence of ``description`` states (see the module)."""
    if tb.kind not in ("action", "update", "delete") or not tb.collection or not tb.id_param:
        return []
    attr, statuses = ctx.status_enum(tb.collection)
    if not attr or not statuses:
        return []
    if any(c.kind in ("status_in", "status_not_in", "transition") and c.attribute == attr
           and c.via is None for c in tb.checks):  # fmt: skip
        return []
    for s in doc_sentences(description):
        moved = _FROM_TO.search(s)
        if len(_ARROW.findall(s)) == 1:
            before, after = _ARROW.split(s, maxsplit=1)
        elif moved is not None and not re.match(r"\s*(?:if|when|unless|once)\b", s, re.I):
            before, after = moved.group(1), moved.group(2)
        else:
            continue
        start = _values(before)
        end = _WORD.match(after.strip())
        if not start or end is None or end.group(1) not in statuses:
            continue
        if all(v in statuses for v in start):
            return [Check(kind="status_in", param=tb.id_param, collection=tb.collection,
                          attribute=attr, values=start, sentence=s)]  # fmt: skip
    return _becomes(description, tb, attr, [str(v) for v in statuses])


def _becomes(description: str, tb: ToolBehaviour, attr: str, statuses: list[str]) -> list[Check]:
    """ "`shipped` becomes `delivered`, `ready` becomes `collected`": each clause opening on a
    status that becomes another names a status the call starts from; together, all of them."""
    starts: list[str] = []
    said: list[str] = []
    for s in doc_sentences(description):
        if re.match(r"\s*(?:if|when|unless|once)\b", s, re.I):
            continue
        for m in _BECOMES.finditer(s):
            if m.group(1) in statuses and m.group(2) in statuses and m.group(1) != m.group(2):
                starts += [m.group(1)] if m.group(1) not in starts else []
                said += [s] if s not in said else []
    if not starts:
        return []
    return [Check(kind="status_in", param=tb.id_param, collection=tb.collection,
                  attribute=attr, values=starts, sentence=" ".join(said))]  # fmt: skip
