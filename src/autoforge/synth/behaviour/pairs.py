"""One record per pair: a new record may not repeat the two records it refers to ("a customer
may hold only one `entered` or `finished` entry per race", "refused if the runner already has
an entry for this race", "each voucher once per member").

Read for a tool that makes a record (a create, or an action that opens one) and takes both
references as arguments, from a sentence of its own or of the policy on it that names both
kinds of record and says "only one", "once per", "already has" or the like; the statuses it
names (if any) say which existing records count. The data must agree: no two records there
already share such a pair. Nothing here names a domain.
"""

from __future__ import annotations

import re
from typing import Any

from autoforge.env import Check, ToolBehaviour
from autoforge.synth.behaviour.data import Context, noun_forms
from autoforge.synth.behaviour.headings import carried_part
from autoforge.synth.behaviour.terms import expand_terms, record_nouns, status_terms

_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
_ONE = re.compile(
    r"\b(?:only\s+one|at\s+most\s+one|one\s+[\w`-]+(?:\s+[\w`-]+)?\s+per|once\s+per|"
    r"only\s+once(?!\s+(?:its|it|the|they|their|a|an|this|that)\b)|"
    r"already\s+(?:has|have|holds?|used|uses|booked|is|got)|not\s+twice|no\s+second)\b",
    re.I,
)


def pair_checks(tb: ToolBehaviour, sentences: list[str], ctx: Context) -> list[Check]:
    """A ``no_record_for`` check per pair of reference arguments a sentence makes unique."""
    coll = _made(tb)
    if coll is None:
        return []
    attrs = ctx.ev.attributes.get(coll, [])
    refs: list[tuple[str, str]] = []
    for p in tb.params:
        r = ctx.ev.references(coll, p.name) if p.name in attrs else None
        if r and r != coll:
            refs.append((p.name, r))
    status, values = ctx.status_enum(coll)
    out: list[Check] = []
    for i, (a, ra) in enumerate(refs):
        for b, rb in refs[i + 1 :]:
            said = next((s for s in sentences if _ONE.search(s)
                         and _names(s, a, ra) and _names(s, b, rb)), None)  # fmt: skip
            if said is None:
                continue
            counted = _statuses(said, values)
            if not _data_agrees(ctx, coll, a, b, status, counted):
                continue
            out.append(Check(kind="no_record_for", collection=coll, values=[a, b],
                             attribute=status if counted else None,
                             table={"counted": counted} if counted else {},
                             sentence=carried_part(said, _ONE)))  # fmt: skip
    paired = {str(v) for c in out for v in c.values}
    day = _day_param(tb, attrs)
    return out + [c for a, ra in refs if a not in paired
                  if (c := _one_per(coll, a, ra, sentences, ctx, day)) is not None]  # fmt: skip


def _day_param(tb: ToolBehaviour, attrs: list[str]) -> str | None:
    """The call's one date argument stored under its own name on the new record."""
    days = [p.name for p in tb.params if p.format in ("date", "date-time") and p.name in attrs]
    return days[0] if len(days) == 1 else None


#: a period the uniqueness is counted in ("one show a day", "once per month")
_PERIOD = re.compile(
    r"\b(?:a|per|each|every|one|the\s+same)\s+(?:day|date|night|week|month|year|season)\b", re.I
)


def _one_per(
    coll: str, a: str, ra: str, sentences: list[str], ctx: Context, day: str | None
) -> Check | None:
    """One record per referred record: "one open request per household" (a status word the
    policy defines as a list of statuses says which records count), or per referred record
    and day ("one visit per pet per day") where the call takes the new record's one date
    (``day``; a moment counts by its day). The sentence names both kinds of record; the data
    must agree (no referred record holds two counted ones, on one day)."""
    status, values = ctx.status_enum(coll)
    terms = status_terms(ctx.policy, [str(v) for v in values], record_nouns(ctx))
    mine = "|".join(re.escape(n) for n in noun_forms(coll))
    for said in sentences:
        s = expand_terms(said, terms, coll)
        if not (_ONE.search(said) and _names(s, a, ra) and re.search(rf"\b(?:{mine})\b", s, re.I)):
            continue
        daily = None
        if (period := _PERIOD.search(said)) is not None:  # "one show a day": per record and day
            if day is None or not re.search(r"\b(?:day|date)\b", period.group(0), re.I):
                continue
            daily = day
        counted = _statuses(s, [str(v) for v in values])
        if not _data_agrees(ctx, coll, a, daily, status, counted):
            continue
        table: dict[str, Any] = {"counted": counted} if counted else {}
        if daily:
            table["day"] = [daily]
        return Check(kind="no_record_for", collection=coll, values=[a, daily] if daily else [a],
                     attribute=status if counted else None, table=table,
                     sentence=carried_part(said, _ONE))  # fmt: skip
    return None


def _made(tb: ToolBehaviour) -> str | None:
    if tb.kind == "create":
        return tb.collection
    opened = [e.collection for e in tb.effects if e.kind == "create" and e.record == "opened"]
    return opened[0] if len(opened) == 1 else None


def _names(sentence: str, param: str, coll: str) -> bool:
    words = [" ".join(param.split("_")), *noun_forms(coll)]
    said = "|".join(re.escape(w) for w in words)
    return re.search(rf"(?<![\w-])(?:{said})(?![\w-])", sentence.replace("`", ""), re.I) is not None


def _statuses(sentence: str, values: list[str]) -> list[str]:
    """The statuses that count: those the sentence names, as code or as words ("checked-in"
    for ``checked_in``); where it names them as the ones that do not count ("cancelled ones
    don't count", "not counting cancelled visits", "other than `void` ones", "an event that
    has not been cancelled"), every other."""
    flat = sentence.lower().replace("-", "_").replace("`", "")
    named = [v for v in values if re.search(rf"(?<!\w){re.escape(v.lower())}(?!\w)", flat)]
    left_out = [v for v in named if _not_counted(re.escape(v.lower())).search(flat)]
    if left_out:
        return [v for v in values if v not in left_out]
    return named


def _not_counted(v: str) -> re.Pattern[str]:
    """The words that leave status ``v`` out of the count."""
    return re.compile(
        rf"\b{v}(?:\s*(?:,|\bor\b|\band\b)\s*\w+)*\s+(?:ones?\s+|\w+\s+)?"
        rf"(?:don't|do\s+not|doesn't|does\s+not|never)\s+count\b"
        rf"|\b(?:that|which)\s+(?:has|have|is|are)\s+not\s+(?:been\s+|yet\s+)?{v}\b"
        rf"|\b(?:not\s+counting|excluding|except(?:\s+for)?|other\s+than|ignoring)\s+"
        rf"(?:the\s+|any\s+)?(?:\w+\s+(?:or|and)\s+)?{v}\b"
    )


def _data_agrees(
    ctx: Context, coll: str, a: str, b: str | None, status: str | None, counted: list[str]
) -> bool:
    """No two records of ``coll`` (in a counted status) share their ``a`` (and ``b``)."""
    seen: set[tuple[str, str]] = set()
    for r in ctx.ev.state.get(coll, {}).values():
        x, y = r.get(a), (r.get(b) if b else "")
        y = y[:10] if isinstance(y, str) and _ISO_DAY.match(y) else y  # a moment counts by day
        if x is None or y is None or (counted and str(r.get(status or "")) not in counted):
            continue
        if (str(x), str(y)) in seen:
            return False
        seen.add((str(x), str(y)))
    return True


def pair_lines(c: Check, given: Any, why: str) -> list[str]:
    """The guard of a pair of arguments: ``record_for``, some record of the collection holds
    both; ``no_record_for``, none does yet (in a counted status)."""
    names = [str(v) for v in c.values]
    lines = c.table.get("lines") or []
    days = set(c.table.get("day") or [])
    cond = " and ".join(
        f"any(str(_l.get({n!r})) == str({n}) for _l in (_r.get({lines[0]!r}) or []) "
        "if isinstance(_l, dict))"
        if lines and i == len(names) - 1
        else f"str(_r.get({n!r}))[:10] == str({n})[:10]"
        if n in days
        else f"str(_r.get({n!r})) == str({n})"
        for i, n in enumerate(names)
    )
    if c.attribute and c.table.get("counted"):
        cond += f" and str(_r.get({c.attribute!r})) in {c.table['counted']!r}"
    needed = c.kind == "record_for"
    these = " and ".join(names)
    said = f"no {c.collection} record for this {these}" if needed else (
        f"a {c.collection} record for this {these} exists")  # fmt: skip
    if lines and needed:
        said = f"no {' or '.join(c.table['counted'])} {c.collection} record lists this {these}"
    sent = " and ".join(given(n) for n in names)
    return [
        f"if {sent} and {'not ' if needed else ''}any(",
        f"    {cond}",
        f"    for _r in state.get({c.collection!r}, {{}}).values()",
        "):",
        f"    raise ToolError({said + why!r})",
    ]
