"""Phrases of documentation text whose meaning every stage reads the same way.

The rule extractor (:mod:`autoforge.env.artifact.rules`) reads them; synthesis turns its rules into
guards in the tool code and task generation into preconditions it checks before calling.
"""

from __future__ import annotations

import re

#: a create the docs allow only once per combination of its references ("may review each book
#: only once", "one review per book", "at most once")
ONCE_ONLY = re.compile(
    # "only once its expiry date has passed" is "only when", not "one time"
    r"\bonly once\b(?!\s+(?:the|its|their|it|they|this|that|these|those|all|every|each|an?)\b)"
    r"|\bonce per\b|\bat most once\b",
    re.IGNORECASE,
)

#: a status a description says records take: "order status changes to unpaid", "update order
#: status to 'paid'", "status will be set to pending"
STATUS_TO = re.compile(
    r"\bstatus (?:changes|changed|becomes|turns|(?:will be |is )?(?:set|updated|changed))? ?"
    r"to [`'\"]?([a-z][a-z_\-]{2,30})\b",
    re.IGNORECASE,
)
_NOT_STATUS = frozenset({"the", "a", "an", "be", "its", "their", "his", "her", "reflect", "match"})

#: a status a sentence names a record as being in: "orders that are already in cancelled
#: status", "with 'paid' status"
IN_STATUS = re.compile(
    r"\b(?:in|with) (?:an? |the )?[`'\"]?([a-z][a-z_\-]{2,30})[`'\"]? (?:status|state)\b",
    re.IGNORECASE,
)
#: a status a sentence compares a record's with: "ensure order status is not cancelled",
#: "its status is 'delivered'"
STATUS_IS = re.compile(
    r"\bstatus (?:is|was|remains) (?:not |still |already )?[`'\"]?([a-z][a-z_\-]{2,30})\b",
    re.IGNORECASE,
)
#: words those patterns meet that say how a status is handled, not which it is
_NOT_NAMED = frozenset({"set", "updated", "changed", "now", "also", "then", "same", "any", "one"})


def stated_statuses(text: str) -> list[str]:
    """The status words ``text`` says records take (:data:`STATUS_TO`), in order, as written."""
    words = [m.group(1) for m in STATUS_TO.finditer(text or "")]
    return [w for w in words if w.lower() not in _NOT_STATUS]


def named_statuses(text: str) -> list[str]:
    """Every status word ``text`` names, in order, as written, once each: those records take
    (:func:`stated_statuses`), those a record is said to be in (:data:`IN_STATUS`) and those
    its status is compared with (:data:`STATUS_IS`). The docs' own values of a status the
    schema leaves open: the values a rule about statuses may name."""
    words = stated_statuses(text)
    for pattern in (IN_STATUS, STATUS_IS):
        for m in pattern.finditer(text or ""):
            low = m.group(1).lower()
            if low not in _NOT_STATUS and low not in _NOT_NAMED:
                words.append(m.group(1))
    return list(dict.fromkeys(words))


__all__ = ["IN_STATUS", "ONCE_ONLY", "STATUS_IS", "STATUS_TO", "named_statuses", "stated_statuses"]
