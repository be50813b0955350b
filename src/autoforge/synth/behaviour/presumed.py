"""What a tool's own description takes for granted about the record it acts on.

A description that names its record with a status or a date ("Cancels a `reserved` rental",
"Moves a `scheduled` appointment dated today to `checked_in`", "Takes a payment on an
invoice that is not yet `paid`", "adds them to an `open` or `in_progress` ticket") says which
records the tool acts on: a call on any other is refused. Read here, for write tools only:

- a run of statuses written as code right before the noun of the target or of a record the
  tool reaches ("a `reserved` rental") requires one of them;
- "<noun> that is (not yet) `<status>`" requires (refuses) it;
- "<noun> dated today / today or earlier / today or later" bounds the record's date;
- in the tool's description or its own policy section, "the <noun> is (not) `<status>`" or
  "the <noun> must be `<status>`" about a record the tool reaches other than its own (its own
  record's status is what the tool writes) requires (refuses) it, for creates too ("To create
  one: the grower is `active` and the plant is `listed`");
- "a <noun> that has no <attribute> can ..." / "without a <attribute> may ..." about the
  tool's own target requires that attribute to be empty.

A noun phrase that is the subject of a change ("an `open` ticket moves to `in_progress`") or
sits in a condition ("if", "when") states an effect, not a requirement, and is skipped; so is
a collection the tool's other checks already bound. Every rule is stated without naming a
domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Check, ToolBehaviour, doc_sentences
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.headings import opens_on_action, tool_sentences
from autoforge.synth.behaviour.paths import path_record, reach, single_routes
from autoforge.synth.behaviour.terms import expand_terms, record_nouns, status_terms
from autoforge.synth.behaviour.text import (
    _WINDOWS,
    _clause_of,
    _date_attribute,
    related_records,
    spelled,
    value_check,
    write_targets,
)

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_CHANGE = re.compile(
    r"^\s*(?:\w+\s+){0,2}?(?:moves?|becomes?|goes|turns?|changes?|is\s+(?:set|moved|changed))\b",
    re.I,
)
_CONDITION = re.compile(r"\b(?:if|when|whenever|once|unless|until)\b", re.I)


def _statuses(
    s: str, values: list[str], nouns: str, plain: bool | None = None, own: bool = True
) -> list[tuple[list[str], bool]]:
    """``(values, refused)`` for each status-qualified noun phrase of ``s`` naming the record;
    ``plain``: the values may be written without backticks (a summary line: "Record payment of
    an open invoice"); left out, they may be only in a sentence that opens on the records
    ("For a confirmed booking whose ...", "Draft, confirmed and scheduled orders can be
    cancelled"), and only for the tool's ``own`` record: "Suspended members may be refunded"
    allows a member the call reaches, it does not require one."""
    ticked = "|".join(re.escape(v) for v in sorted(values, key=len, reverse=True))
    run = rf"`(?:{ticked})`(?:(?:\s*,\s*|\s+or\s+)`(?:{ticked})`)*"
    if plain:
        run = rf"(?:{ticked})(?:(?:\s*,\s*|\s+or\s+)(?:{ticked}))*"
    out: list[tuple[list[str], bool]] = []
    # up to two plain modifiers may sit between ("a `submitted` building-site permit")
    mods = r"(?:[a-z][\w-]*\s+){0,2}?"
    # an article, or a sentence that opens on the records it is for ("For `a` or `b` bookings")
    lead = r"(?:\b(?:an?|the|one)\s+|^\s*(?:only\s+)?for\s+(?:an?\s+)?)"
    if plain is None and own:  # plain words only where a sentence opens on the tool's records
        plain_run = run.replace("`", "").replace(r"\s+or\s+", r"\s+(?:or|and)\s+")
        opened = rf"^\s*(?:only\s+)?(?:for\s+(?:an?\s+)?)?({plain_run})\s+{mods}(?:{nouns})\b"
        m = re.search(opened, s, re.I)
        if m is not None and (s.lower().lstrip().startswith(("for ", "only for ")) or re.match(
            r"\s+(?:can|may)\s+(?:only\s+)?be\b", s[m.end() :], re.I)):  # fmt: skip
            canon = {v.lower(): v for v in values}
            words = re.findall(rf"(?i)\b({ticked})\b", m.group(1))
            out.append(([canon[w.lower()] for w in words], False))
    plain = bool(plain)
    for m in re.finditer(rf"{lead}({run})\s+{mods}(?:{nouns})\b", s, re.I):
        if _CHANGE.match(s[m.end() :]) or _CONDITION.search(_clause_of(s, m.start())):
            continue
        if re.search(r"\b(?:into|as)\s+$", s[: m.start()], re.I):
            continue  # "turns a draft into an `issued` invoice": what the call makes of it
        out.append((re.findall(rf"`?({ticked})`?", m.group(1)), False))
    pat = rf"\b(?:{nouns})\s+(?:that|which)\s+(?:is|are)\s+(not\s+)?(?:yet\s+|still\s+)?({run})"
    for m in re.finditer(pat, s, re.I):
        if not _CONDITION.search(_clause_of(s, m.start())):
            out.append((re.findall(rf"`?({ticked})`?", m.group(2)), bool(m.group(1))))
    return [(vals, refused) for vals, refused in out if vals]


def _title(description: str) -> str | None:
    """The description's first line when it reads as a summary title ("Record payment of an
    open invoice": short, no full stop), where statuses go without backticks; else None."""
    first = description.split("\n", 1)[0].strip()
    return first if first and not first.endswith(".") and len(first.split()) <= 12 else None


def _date_window(s: str, coll: str, via: str | None, nouns: str, ctx: Context) -> Check | None:
    rel = r"(?P<rel>today(?:\s+or\s+(?:earlier|later))?)"
    pat = rf"\b(?:an?|the)\s+(?:`\w+`\s+)?(?:{nouns})\s+(?P<verb>dated)\s+{rel}\b"
    m = re.search(pat, s, re.I)
    if m is None or _CONDITION.search(_clause_of(s, m.start())):
        return None
    op = next((o for cue, o in _WINDOWS if re.fullmatch(cue, m.group("rel"), re.I)), None)
    attr = _date_attribute(ctx, coll, "dated")
    if op is None or attr is None:
        return None
    return Check(kind="date_window", collection=coll, attribute=attr, via=via, values=[op],
                 sentence=s)  # fmt: skip


def presumed_checks(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, known: list[Check]
) -> list[Check]:
    """Status and date requirements the description presumes of the records the tool acts
    on, for collections no check in ``known`` already bounds that way (a refused status
    alone, "cancelled ones are final", does not say which one is required)."""
    if tb.kind not in ("action", "update", "delete"):
        return []
    bounded = {(c.collection, c.kind) for c in known}
    out: list[Check] = []
    for coll, via in related_records(tb, ctx):
        nouns = "|".join(spelled(n) for n in noun_forms(coll))
        attr, values = ctx.status_enum(coll)
        summary = _title(spec.description)
        terms = status_terms(ctx.policy, [str(v) for v in values], record_nouns(ctx))
        for s in doc_sentences(spec.description):
            if attr and values and (coll, "status_in") not in bounded:
                found = _statuses(expand_terms(s, terms, coll), list(values), nouns,
                                  own=via is None)  # fmt: skip
                if not found and s == summary:  # the summary names statuses in plain words
                    found = _statuses(s, list(values), nouns, plain=True)
                merged: dict[bool, list[str]] = {}  # "an `a` one or a `b` one": a or b
                for vals, refused in found:
                    merged.setdefault(refused, []).extend(vals)
                for refused, vals in merged.items():
                    out.append(value_check(tb, refused, coll, attr, via, sorted(set(vals)), s))
                    bounded.add((coll, "status_not_in" if refused else "status_in"))
            if (coll, "date_window") not in bounded and (
                check := _date_window(s, coll, via, nouns, ctx)
            ):
                out.append(check)
                bounded.add((coll, "date_window"))
    return out


_EFFECT_WORDS = re.compile(
    r"\b(?:sets?|becomes?|moves?|changes?|marks?|updates?|then|afterwards|stays|remains|"
    r"is\s+(?:set|moved|changed|marked|updated))\b",
    re.I,
)


def _reached(tb: ToolBehaviour, ctx: Context) -> list[tuple[str, str]]:
    """``(collection, via)`` of the records a check of ``tb`` can read before it writes: those
    :func:`write_targets` gives, then those one more reference away by one route."""
    out = [(c, v) for c, v in write_targets(tb, ctx) if c and v]
    near = {c for c, _ in out} | ({tb.collection} if tb.collection else set())
    far = [p for p in reach(tb, ctx)[1] if p.start != "new"]
    out += [(end, path_record(p)) for end, p in single_routes(far, near)]
    return out


def stated_requirements(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context, known: list[Check]
) -> list[Check]:
    """ "The <noun> is (not) `<status>`", "must (exist and) be `<status>`", "belong to an
    <status> <noun>", and in a sentence that says the tool's action itself ("A claim is filed
    against one line of a `collected` order") "<preposition> a `<status>` <noun>", in the
    tool's own sentences about a record it reaches other than its own
    (see the module), for collections no check in ``known`` already bounds by status."""
    if tb.kind not in ("create", "action", "update", "delete"):
        return []
    bounded = {c.collection for c in known if c.kind in ("status_in", "status_not_in")}
    texts = doc_sentences(spec.description) + tool_sentences(
        ctx.policy, tb.tool, ctx.headed, ctx.verbs
    )
    acting = {s for s in texts if opens_on_action(s, tb.tool, ctx.verbs)}  # said once
    out: list[Check] = []
    for coll, via in _reached(tb, ctx):
        attr, values = ctx.status_enum(coll)
        if coll == tb.collection or coll in bounded or not attr or not values:
            continue
        nouns = "|".join(spelled(n) for n in noun_forms(coll))
        ticked = "|".join(re.escape(str(v)) for v in sorted(values, key=len, reverse=True))
        run = rf"`(?:{ticked})`(?:(?:\s*,\s*|\s+or\s+)`(?:{ticked})`)*"
        plain = rf"`?(?:{ticked})`?(?:(?:\s*,\s*|\s+or\s+)`?(?:{ticked})`?)*"
        pats = (
            rf"\b(?:the|its)\s+(?:{nouns})\s+(?:is|(?:must|has\s+to|needs\s+to)\s+(?:\w+\s+and\s+)?be)"
            rf"\s+(not\s+)?({run})",
            rf"\bbelongs?\s+to\s+(?:an?|the)\s+()({plain})\s+(?:{nouns})\b",
        )
        # in a sentence saying the action itself: "A claim is filed against a `collected` order"
        acted = rf"\b(?:against|on|for|to|from|of|with)\s+(?:an?|the)\s+()({run})\s+(?:{nouns})\b"
        for s in texts:
            tried = [*pats, acted] if s in acting else pats
            m = next((m for m in (re.search(p, s, re.I) for p in tried) if m), None)
            if m is None or _EFFECT_WORDS.search(s):
                continue
            if _CONDITION.search(_clause_of(s, m.start())):
                continue
            said = re.findall(rf"`?({ticked})`?", m.group(2), re.I)
            vals = sorted({v for v in values for w in said if str(v).lower() == w.lower()})
            out.append(value_check(tb, bool(m.group(1)), coll, attr, via, vals, s))
            break
    return out


def empty_requirements(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "A confirmed booking that has no vehicle can have one added": the target's attribute
    the words name (exactly, or as its first word) must be empty (null, or an empty list)."""
    if tb.kind not in ("action", "update") or not tb.collection or tb.id_param is None:
        return []
    nouns = "|".join(re.escape(n) for n in noun_forms(tb.collection))
    attrs = ctx.ev.attributes.get(tb.collection, [])
    lists = ctx.ev.list_attributes(tb.collection)
    texts = doc_sentences(spec.description) + tool_sentences(
        ctx.policy, tb.tool, ctx.headed, ctx.verbs
    )
    pat = rf"\b(?:{nouns})\s+(?:(?:that|which)\s+(?:has|have)\s+no|without\s+an?)\s+`?(\w+)`?"
    out: list[Check] = []
    for s in texts:
        for m in re.finditer(pat, s, re.I):
            w = m.group(1).lower()
            named = [a for a in attrs if a == w or a.split("_")[0] == w or a == w + "s"]
            rest = re.split(r"[,;.]", s[m.end() :], maxsplit=1)[0]
            if len(named) != 1 or _CONDITION.search(_clause_of(s, m.start())):
                continue
            if not re.search(r"\b(?:can|may)\b", rest, re.I):
                continue  # a requirement says what such a record can have done to it
            empty: list[Any] = [None, []] if named[0] in lists else [None]
            out.append(value_check(tb, False, tb.collection, named[0], None, empty, s))
            return out
    return out
