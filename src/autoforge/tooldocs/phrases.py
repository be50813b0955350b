"""Phrases of documentation text whose meaning every stage reads the same way.

The rule extractor (:mod:`autoforge.env.rules`) reads them; synthesis turns its rules into
guards in the tool code and task generation into preconditions it checks before calling.
"""

from __future__ import annotations

import re

#: a create the docs allow only once per combination of its references ("may review each book
#: only once", "one review per book", "at most once")
ONCE_ONLY = re.compile(r"\bonly once\b|\bonce per\b|\bat most once\b", re.IGNORECASE)

#: a status a description says records take: "order status changes to unpaid", "update order
#: status to 'paid'", "status will be set to pending"
STATUS_TO = re.compile(
    r"\bstatus (?:changes|changed|becomes|turns|(?:will be |is )?(?:set|updated|changed))? ?"
    r"to [`'\"]?([a-z][a-z_\-]{2,30})\b",
    re.IGNORECASE,
)
_NOT_STATUS = frozenset({"the", "a", "an", "be", "its", "their", "his", "her", "reflect", "match"})


def stated_statuses(text: str) -> list[str]:
    """The status words ``text`` says records take (:data:`STATUS_TO`), in order, as written."""
    words = [m.group(1) for m in STATUS_TO.finditer(text or "")]
    return [w for w in words if w.lower() not in _NOT_STATUS]


__all__ = ["ONCE_ONLY", "STATUS_TO", "stated_statuses"]
