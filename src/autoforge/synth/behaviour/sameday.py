"""Actions allowed only on a record's own day: "Start (only on the session date itself)",
"Allowed only on the reservation's start date", "only possible on the day the booking starts",
"Check-in works only on the day of the event".

Each is a ``date_window`` check with ``==``: the date attribute of the record the words name
(the tool's target, or a record the target or a parameter refers to) must be today. The record
is the one whose noun the words after "only ... on the" use (the target when they name none);
its date attribute is the one those words name ("start" for ``start_date``), else the one
called ``date`` or ``<noun>_date``, else its only date (a moment's day counts). Sentences
are the tool's own and those of the policy on it. Nothing here names a domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Check, ToolBehaviour
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.text import related_records

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context

_SAME_DAY = re.compile(
    r"\bonly\s+(?:[\w-]+\s+){0,3}?on\s+the\s+(?P<span>(?:[\w']+\s+){0,3}?)(?:date|day)\b"
    r"(?P<tail>(?:\s+[\w']+){0,4})",
    re.I,
)
#: words that make "the day" another one than the record's own
_OTHER_DAY = {"before", "after", "prior", "following", "preceding", "next", "previous", "last"}
#: words that name no date attribute
_FILLER = {"the", "of", "its", "their", "itself", "same", "actual", "scheduled", "a", "an",
           "and", "or", "when", "if", "is", "own"}  # fmt: skip


def _words(text: str) -> list[str]:
    return [w.lower().removesuffix("'s") for w in re.findall(r"[\w']+", text)]


def _alike(part: str, cue: str) -> bool:
    """Whether a part of an attribute's name and a word share their stem ("start", "starts")."""
    return len(part) > 2 and (part.startswith(cue) or cue.startswith(part[:5]))


def _day_attribute(ctx: Context, coll: str, words: list[str], nouns: set[str]) -> str | None:
    """The date attribute of ``coll`` the words name ("start" for ``start_date``), else the
    one called ``date`` or after the record's noun and date (``event_date``), else the only
    one."""
    days = ctx.ev.dated_attributes(coll, moments=True)
    cues = [w[:5] for w in words if w not in _FILLER and w not in nouns and len(w) > 2]
    named = [a for a in days if any(_alike(p, c) for p in a.lower().split("_") for c in cues)]
    if len(named) == 1:
        return named[0]
    plain = [a for a in days if a == "date" or a in {f"{n}_date" for n in nouns}]
    if len(plain) == 1:
        return plain[0]
    return days[0] if len(days) == 1 else None


def same_day_checks(texts: list[str], tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The ``date_window ==`` checks the sentences ``texts`` state (see the module)."""
    related = related_records(tb, ctx)
    if not related:
        return []
    out: list[Check] = []
    for said in texts:
        s = said.replace("**", "")
        m = _SAME_DAY.search(s)
        if m is None:
            continue
        words = _words(m.group("span") + " " + m.group("tail"))
        if set(words) & _OTHER_DAY:  # "only on the day before": another day, not its own
            continue
        found = [
            (coll, via)
            for coll, via in related
            if any(w in {n.lower() for n in noun_forms(coll)} for w in words)
        ]
        coll, via = found[0] if found else related[0]
        if not found and (via is not None or tb.kind == "create"):
            continue  # no record named and no target of its own
        nouns = {n.lower() for n in noun_forms(coll)}
        attr = _day_attribute(ctx, coll, words, nouns)
        if attr is None or any(c.kind == "date_window" and c.collection == coll for c in
                               [*tb.checks, *out]):  # fmt: skip
            continue
        out.append(Check(kind="date_window", collection=coll, attribute=attr, via=via,
                         values=["=="], sentence=said))  # fmt: skip
    return out


__all__ = ["same_day_checks"]
