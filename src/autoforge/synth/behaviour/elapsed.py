"""Deadlines counted from a record's own date: "at the latest 30 days after `completed_on`",
"within 14 days of `delivered_on`", "cannot be claimed more than 30 days after
`collected_on`"; and lead times before one: "no later than the day before the event", "the
event must still be at least 3 days out".

Such a sentence about a write tool bounds how long after a date attribute of a record the
call reaches (its target, a record a parameter names, or one the target refers to) the call
is still accepted: that date must be no earlier than today minus the days, a
``date_window`` check with ``[">=", -days]``. The attribute is named as the data names it
(in code or as a bare identifier) and must hold calendar days there. A sentence that states
two different deadlines ("lost items up to 30 days after ..., damage up to 7 days") depends
on a condition this reading does not carry, and is left alone.

A lead time bounds a date still ahead: "no later than the day before the <word>" needs it
at least a day after today, "at least N days out / ahead / before the <word>" at least N
days after today.
The date is the one attribute of a reached record whose name holds the word ("event" in
``event_date``), or the date of the record the word names; in a condition ("If the
cancellation is made at least 2 days before ...") it is a case of a fee, not a rule.

"Its check-in date is today or later", "whose date is before today" compare a reached
record's date, named by the words before "date" (the record's own first), with today.
"""

from __future__ import annotations

import re
from typing import Any

from autoforge.env import Check, ToolBehaviour, doc_sentences
from autoforge.lexicon import count_of, number_words
from autoforge.synth.behaviour.data import Context, noun_forms
from autoforge.synth.behaviour.headings import tool_sentences
from autoforge.synth.behaviour.text import related_records
from autoforge.tooldocs import ToolSpec

#: a count of days in digits or in words
_NUMBER = r"\d+|" + number_words()


_BOUND = r"at\s+the\s+latest|no\s+later\s+than|up\s+to|within|at\s+most|(?:no|not)\s+more\s+than"
#: "<bound> N days after|of|from|since <attribute>"
_DEADLINE = re.compile(
    rf"\b(?P<cue>{_BOUND}|more\s+than)\s+(?P<n>{_NUMBER})\s+(?:calendar\s+)?days?\s+"
    r"(?:after|of|from|since)\s+(?:the\s+|its\s+|their\s+)?(?:\w+'s\s+)?`?(?P<attr>[a-z]\w*)`?",
    re.I,
)
#: a sentence that refuses what it describes ("more than N days after" is then the refusal)
_REFUSES = re.compile(
    r"\b(cannot|can\s*not|can't|refused|rejected|too\s+late|not\s+allowed)\b", re.I
)
#: a sentence that states a rule at all (not "refunds are paid within 14 days of ...")
_RULE = re.compile(
    r"\b(only|must|may|can|cannot|allowed|accepted|refused|rejected|at\s+the\s+latest|"
    r"no\s+later\s+than|too\s+late)\b",
    re.I,
)


#: "no later than the day before the event": the date must be at least a day after today
_DAY_BEFORE = re.compile(
    r"\b(?:no\s+later\s+than|until|up\s+to|by|at\s+the\s+latest)\s+the\s+day\s+before\s+"
    r"(?:the\s+|its\s+|their\s+)?(?:original\s+)?(?P<what>[a-z][\w-]*)",
    re.I,
)
#: "at least 3 days out", "at least 2 days before the start date", "no earlier than three
#: days after today"
_DAYS_OUT = re.compile(
    rf"\b(?:at\s+least|no\s+(?:earlier|sooner)\s+than)\s+(?P<n>{_NUMBER})\s+days?\s+"
    r"(?:out|ahead|in\s+advance|(?:after|from)\s+today|before\s+"
    r"(?:the\s+|its\s+|their\s+)?(?P<what>[a-z][\w-]*))",
    re.I,
)
_CONDITION = re.compile(r"\b(?:if|when|whenever|otherwise|unless)\b", re.I)


#: "its check-in date is today or later", "whose date is before today": a reached record's
#: date, by the words before "date", against today
_ITS_DATE = re.compile(
    r"\b(?:its|whose|their)\s+(?P<words>(?:[a-z][\w-]*\s+){0,2}?)date\s+is\s+(?:still\s+)?"
    r"(?P<rel>today\s+or\s+(?:later|earlier|already\s+past|before)|on\s+or\s+(?:before|after)"
    r"\s+today|(?:before|after)\s+today)\b",
    re.I,
)
_RELATIONS = (
    (r"today\s+or\s+(?:earlier|already\s+past|before)|on\s+or\s+before\s+today", "<="),
    (r"today\s+or\s+later|on\s+or\s+after\s+today", ">="),
    (r"after\s+today", ">"),
    (r"before\s+today", "<"),
)
_REFUSAL_AFTER = re.compile(r"^[^,;.]*\b(?:cannot|can\s*not|can't|may\s+not|is\s+refused)\b", re.I)


def deadline_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The ``date_window`` checks of the deadlines the tool's description and policy
    sentences count from a date of a record the call reaches, and of the lead times they
    ask before one."""
    said = doc_sentences(spec.description)
    policy = tool_sentences(ctx.policy, tb.tool, ctx.headed, ctx.verbs) if ctx.policy else []
    out: list[Check] = []
    for s, source in [(x, "docs") for x in said] + [(x, "policy") for x in policy]:
        found = _deadline(s, tb, ctx) or _lead_time(s, tb, ctx) or _dated(s, tb, ctx)
        if found is not None and not any(
            c.attribute == found[1] and c.collection == found[0] for c in out
        ):
            coll, attr, via, window = found
            out.append(Check(kind="date_window", collection=coll, attribute=attr, via=via,
                             values=window, sentence=s, source=source))  # fmt: skip
    return out


#: what a reading found: ``(collection, attribute, via, [op, days after today])``
_Window = tuple[str, str, str | None, list[Any]]


def _deadline(s: str, tb: ToolBehaviour, ctx: Context) -> _Window | None:
    """The window of the one deadline ``s`` states, or None."""
    if not _RULE.search(s):
        return None
    hits = [
        m
        for m in _DEADLINE.finditer(s)
        if not m.group("cue").lower().startswith("more") or _REFUSES.search(s)
    ]
    if len({(m.group("n"), m.group("attr")) for m in hits}) != 1:
        return None
    m = hits[0]
    attr = m.group("attr")
    where = [(c, v) for c, v in related_records(tb, ctx) if attr in ctx.ev.dated_attributes(c)]
    if len(where) != 1:
        return None
    coll, via = where[0]
    return coll, attr, via, [">=", -count_of(m.group("n"))]


def _lead_time(s: str, tb: ToolBehaviour, ctx: Context) -> _Window | None:
    """The window of the one lead time ``s`` asks before a reached record's date, or None."""
    if not _RULE.search(s):
        return None
    found = [(m, [">=", 1]) for m in _DAY_BEFORE.finditer(s)]
    found += [(m, [">=", count_of(m.group("n"))]) for m in _DAYS_OUT.finditer(s)]
    if len({str(w) for _, w in found}) != 1 or _CONDITION.search(s[: found[0][0].start()]):
        return None
    m, window = found[0]
    words = [m.group("what")] if m.group("what") else re.findall(r"[a-z]+", s[: m.start()].lower())
    where = {(c, v, a) for c, v in related_records(tb, ctx) for a in _dates_named(ctx, c, words)}
    if len(where) != 1:
        return None
    coll, via, attr = where.pop()
    return coll, attr, via, window


def _dated(s: str, tb: ToolBehaviour, ctx: Context) -> _Window | None:
    """The window of "its <words> date is <today relation>" in a rule sentence: the date of
    the record the call reaches that the words name (its own first), or None. A relation
    the clause then refuses ("whose date is still ahead cannot ...") is left alone."""
    found = list(_ITS_DATE.finditer(s)) if _RULE.search(s) else []
    if len(found) != 1 or _CONDITION.search(s[: found[0].start()]):
        return None
    m = found[0]
    if _REFUSAL_AFTER.search(s[m.end() :]):
        return None
    op = next(o for cue, o in _RELATIONS if re.fullmatch(cue, m.group("rel"), re.I))
    words = re.findall(r"[a-z]+", m.group("words").lower())
    for coll, via in related_records(tb, ctx):
        named = _dates_named(ctx, coll, words) if words else _own_date(ctx, coll)
        if len(named) == 1:
            return coll, named[0], via, [op]
    return None


def _own_date(ctx: Context, coll: str) -> list[str]:
    """The date of a record named by no word: its attribute ``date``, or one ending in
    ``_date`` when it has only one such."""
    days = ctx.ev.dated_attributes(coll)
    if "date" in days:
        return ["date"]
    ending = [a for a in days if a.endswith("_date")]
    return ending if len(ending) == 1 else []


def _dates_named(ctx: Context, coll: str, words: list[str]) -> list[str]:
    """The date attributes of ``coll`` one of ``words`` names: by a word their name holds
    ("event" in ``event_date``), else, when a word is a noun of ``coll``, its date (one named
    ``date``, or its only one)."""
    days = ctx.ev.dated_attributes(coll)
    named = [a for a in days if any(len(w) > 3 and w in a.lower().split("_") for w in words)]
    if named:
        return named
    if any(w in noun_forms(coll) for w in words):
        return ["date"] if "date" in days else days[:1] if len(days) == 1 else []
    return []


__all__ = ["deadline_checks"]
