"""Status refusals the policy states about a kind of record, for every tool they touch.

A policy sentence such as "Suspended accounts cannot create shipments or buy labels", "A
`blocked` location accepts no receipts", "An archived project is read-only: no edits" or
"cancelled members can do nothing" names a status value right before the noun of a
collection, then a negation. It refuses a writing tool when the record of that collection the
tool works on (its target, a record a parameter names, or one the target refers to) is in
that status, and either the sentence says the record is read-only (or can do nothing) or the
negation is followed by the tool's verb (by its stem: "receive" in "receipts") or, for a
create, by a noun of the records it makes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Check, ToolBehaviour, doc_sentences
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.headings import section_sentences
from autoforge.synth.behaviour.text import (
    _noun_after,
    _word,
    related_records,
    skip_value_run,
    value_check,
    write_targets,
)

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context

#: "no" before a comparison bounds a quantity ("no more than 60 days"); it refuses nothing
#: "no" after "have"/"has"/"with" describes the records the sentence is about ("staff who
#: have no booked shift"), it does not refuse anything
_NEGATION = re.compile(
    r"\b(cannot|can not|can't|never|(?<!\bhave\s)(?<!\bhas\s)(?<!\bwith\s)"
    r"no(?!\s+(?:more|less|fewer|later|earlier|longer|sooner)\b)|read-only|"
    r"can\s+do\s+nothing)(?![\w-])",
    re.I,
)
#: negations that close the record to every change, whatever the tool
_CLOSED = ("read-only", "can do nothing")
#: at most this many words between the status noun and the negation that governs it
_SUBJECT_GAP = 4
_WRITES = ("create", "update", "action", "delete")


def _stem(word: str) -> str:
    return word.lower()[: max(5, len(word) - 2)]


def _names_tool(tail: str, tb: ToolBehaviour) -> bool:
    """Whether ``tail`` names what ``tb`` does: the verb its name starts with (by its stem:
    "receive" in "receipts"), or, for a create, a noun of the records it makes ("no new
    tasks", "no transfers")."""
    words = set(re.findall(r"[a-z]+", tail.lower()))
    verb = tb.tool.lower().split("_")[0]
    if len(verb) >= 4 and any(w.startswith(_stem(verb)) for w in words):
        return True
    nouns = set(noun_forms(tb.collection)) if tb.kind == "create" and tb.collection else set()
    return bool(words & nouns)


def _governs(between: str, values: list[Any]) -> bool:
    """Whether a negation after the status noun (``between`` is the text from the status value
    to the negation; a run of further values, "shipped and cancelled", is skipped) is that
    noun's own: a few words, no clause break. In "Freezing needs an active member and an end
    date ... and no more than ..." the negation is another clause's."""
    between = skip_value_run(between, values)
    if re.search(r"[,;:()]|\band\b|\bor\b", between[:-1] if between.endswith(":") else between):
        return False
    return len(re.findall(r"[\w`-]+", between)) <= _SUBJECT_GAP + 1


_LITERALS: dict[str, Any] = {"true": True, "false": False, "null": None}


def _flag(head: str, coll: str, ctx: Context) -> tuple[str, Any] | None:
    """``(attribute, value)`` of "a <noun> with `<attribute>: <value>`" in ``head``, for an
    attribute the data's records of ``coll`` carry."""
    attrs = ctx.ev.attributes.get(coll, [])
    for n in noun_forms(coll):
        pat = rf"\b{re.escape(n)}\s+with\s+`?(\w+)\s*[:=]\s*([\w.-]+)`?"
        for m in re.finditer(pat, head, re.I):
            if m.group(1) in attrs:
                raw = m.group(2)
                value = _LITERALS.get(raw.lower(), int(raw) if raw.isdigit() else raw)
                return m.group(1), value
    return None


def policy_status_checks(tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The refusals policy sentences "<status> <noun> cannot/no/read-only ..." (or "a <noun>
    with `<attribute>: <value>` ... cannot ...") give ``tb``."""
    if tb.kind not in _WRITES or not ctx.policy:
        return []
    related = related_records(tb, ctx)
    colls = [c for c, _ in related]
    out: list[Check] = []
    for s in doc_sentences(ctx.policy):
        neg = _NEGATION.search(s)
        if neg is None:
            continue
        for coll, via in related:
            attr, values = ctx.status_enum(coll)
            hits: list[Any] = [
                v
                for v in values
                for m in re.finditer(_word(v), s[: neg.start()], re.I)
                if _noun_after(s, m.end(), colls, values) == coll
                and _governs(s[m.end() : neg.start()], values)
            ]
            flag = _flag(s[: neg.start()], coll, ctx)
            if not hits and flag is not None:
                attr, hits = flag[0], [flag[1]]
            # what follows a dash is a remedy or an aside: "cannot be started - confirm it first"
            tail = re.split(r"[;(]|,?\s+but\b|\s[\u2014\u2013-]\s", s[neg.start() :], maxsplit=1)[0]
            closed = re.sub(r"\s+", " ", neg.group(1).lower()) in _CLOSED
            if not hits or not (closed or _names_tool(tail, tb)):
                continue
            values = sorted(set(hits), key=repr)
            out.append(value_check(tb, True, coll, attr, via, values, s, "policy"))
    return out


_ONLY_WITH_STATUS = re.compile(
    r"\bonly\s+(?:an?\s+|the\s+)?(?P<noun>[a-z]+(?:\s+[a-z]+){0,2}?)\s+(?:with|in)\s+(?:the\s+)?"
    r"(?:status|state)(?:es)?\s+(?P<values>[^;:.]*?)\s+(?:can|may)\s+be\s+(?P<verb>[a-z]+)",
    re.I,
)


def policy_required_status(tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The requirement "only <noun> with status <values> can be <verb>" gives the tool whose
    name the verb names (by its stem) a ``status_in`` check on the record of that noun it
    works on (its target, or one a parameter or the target refers to)."""
    if tb.kind not in _WRITES or not ctx.policy:
        return []
    related = related_records(tb, ctx)
    out: list[Check] = []
    for s in doc_sentences(ctx.policy):
        for m in _ONLY_WITH_STATUS.finditer(s):
            if not _names_tool(m.group("verb"), tb):
                continue
            noun = m.group("noun").lower()
            for coll, via in related:
                if noun not in noun_forms(coll):
                    continue
                attr, values = ctx.status_enum(coll)
                named = [v for v in values if re.search(_word(v), m.group("values"), re.I)]
                if attr is None or not named:
                    continue
                values = sorted(set(named), key=repr)
                out.append(value_check(tb, False, coll, attr, via, values, s, "policy"))
    return out


#: "Only `active` policies accept new claims", "Only scheduled sailings take bookings,
#: transfers or check-ins", "Only active clients can get new work"
_ONLY_RECEIVING = re.compile(
    r"\bonly\s+(?P<head>(?:`?[\w-]+`?\s*(?:,|\bor\b|\band\b)\s*)*`?[\w-]+`?\s+[a-z]+"
    r"(?:\s+[a-z]+)?)\s+(?:can\s+|may\s+)?(?:accept|take|get|receive)s?\s+(?P<tail>[^.;:]+)",
    re.I,
)


def policy_receiving_status(tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """The requirement "Only <status> <noun> accept / take / get <what>": a tool whose action
    the words after the verb name (by its verb's stem, or for a create by a noun of what it
    makes) needs the record of that noun it reaches in one of those statuses (written in
    code or not)."""
    if tb.kind not in _WRITES or not ctx.policy:
        return []
    related = related_records(tb, ctx) if tb.kind != "create" else write_targets(tb, ctx)
    out: list[Check] = []
    for s in doc_sentences(ctx.policy):
        for m in _ONLY_RECEIVING.finditer(s):
            if not _names_tool(m.group("tail"), tb):
                continue
            head = m.group("head").replace("`", "").lower()
            for coll, via in related:
                attr, values = ctx.status_enum(coll)
                noun = next((n for n in noun_forms(coll) if head.endswith(" " + n)), None)
                if attr is None or noun is None:
                    continue
                named = [v for v in values if re.search(_word(v), head[: -len(noun)], re.I)]
                if named and not any(c.collection == coll and c.via == via for c in out):
                    values = sorted(set(named), key=repr)
                    out.append(value_check(tb, False, coll, attr, via, values, s, "policy"))
    return out


#: "Only a draft can be confirmed", "only `pending` or `held` ones may be released": the
#: status stands for the record itself
_ONLY_STATUS_NOUN = re.compile(
    r"\bonly\s+(?:an?\s+|the\s+)?(?P<run>`?[\w-]+`?(?:\s*(?:,|\bor\b|\band\b)\s*`?[\w-]+`?)*)"
    r"(?:\s+ones?)?\s+(?:can|may)\s+be\s+(?P<verb>[a-z]+)",
    re.I,
)


def policy_status_nouns(spec_text: str, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "Only a draft can be confirmed" in the tool's description or the policy: when every
    word before the verb is a status of the tool's own record (a plural "drafts" too) and
    the verb names the tool's action, that record must be in one of them."""
    if tb.kind not in ("action", "update", "delete") or not tb.collection or not tb.id_param:
        return []
    attr, values = ctx.status_enum(tb.collection)
    canon = {str(v).lower(): v for v in values}
    out: list[Check] = []
    for s in doc_sentences(spec_text) + doc_sentences(ctx.policy):
        for m in _ONLY_STATUS_NOUN.finditer(s):
            words = [w.strip("`").lower() for w in re.split(r"\s*(?:,|\bor\b|\band\b)\s*",
                                                            m.group("run")) if w]  # fmt: skip
            said = [canon.get(w, canon.get(w.removesuffix("s"))) for w in words]
            if attr is None or not said or None in said or not _names_tool(m.group("verb"), tb):
                continue
            vals = sorted({v for v in said if v is not None}, key=repr)
            out.append(value_check(tb, False, tb.collection, attr, None, vals, s, "policy"))
            return out
    return out


_ONLY_VERB = re.compile(
    r"\bonly\s+(?:(?:an?|the)\s+)?(?:`?[\w-]+`?\s*(?:,|\bor\b|\band\b)\s*)*`?[\w-]+`?\s+"
    r"(?P<noun>[a-z]+(?:\s+[a-z]+)?)\s+(?:can|may)\s+be\s+(?P<verb>[a-z]+)",
    re.I,
)
_ONLY_IF_DATE = re.compile(
    r"\bonly\s+if\s+(?:its|their)\s+`?(?P<attr>\w+)`?(?:\s+date)?\s+is\s+(?P<rel>today\s+or\s+"
    r"(?:later|earlier)|on\s+or\s+(?:before|after)\s+today|(?:before|after)\s+today|today)\b",
    re.I,
)


def policy_date_windows(tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "Only <...> <noun> can be <verb>, and only if their <date attribute> is today or later"
    in the policy: a ``date_window`` check on the record of that noun, for the tool the verb
    names (by its stem)."""
    from autoforge.synth.behaviour.text import _WINDOWS

    if tb.kind not in _WRITES or not ctx.policy:
        return []
    out: list[Check] = []
    for s in doc_sentences(ctx.policy):
        head, when = _ONLY_VERB.search(s), _ONLY_IF_DATE.search(s)
        if head is None or when is None or not _names_tool(head.group("verb"), tb):
            continue
        op = next((o for cue, o in _WINDOWS if re.fullmatch(cue, when.group("rel"), re.I)), None)
        for coll, via in related_records(tb, ctx):
            words = head.group("noun").lower().split()
            if op is None or not any(
                " ".join(words[i:]) in noun_forms(coll) for i in range(len(words))
            ):
                continue
            if when.group("attr") not in ctx.ev.attributes.get(coll, []):
                continue
            out.append(
                Check(
                    kind="date_window",
                    collection=coll,
                    attribute=when.group("attr"),
                    via=via,
                    values=[op],
                    sentence=s,
                    source="policy",
                )
            )
    return out


_IN_ATTRIBUTE = re.compile(
    r"\b(?P<modal>must\s+not|may\s+not|cannot|can\s+not|must)\s+(?:be\s+)?(?:[^.;()]*?\band\s+)?"
    r"in\s+(?:the\s+)?(?P<attr>[a-z_]+)\s+(?P<values>`[^`]+`(?:\s*(?:,|\bor\b|\band\b)\s*`[^`]+`)*)",
    re.I,
)


def policy_attribute_checks(tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "The <noun> must (not) be ... in <attribute> `a` or `b`" in a policy section about the
    tool: the record of that noun the tool reaches (its target, or the one parameter naming a
    record of it) must (not) have one of those values in that attribute, for any attribute
    whose values the data shows (a zone, a tier; at least one named value appears there), not
    only a status."""
    if tb.kind not in _WRITES or not ctx.policy:
        return []
    related = related_records(tb, ctx)
    out: list[Check] = []
    for s in section_sentences(ctx.policy, tb.tool, ctx.headed):
        for m in _IN_ATTRIBUTE.finditer(s):
            before = s[: m.start()].lower().split()
            for coll, via in related:
                if sum(c == coll for c, _ in related) != 1:
                    continue  # two records of that kind (a source and a destination): whose?
                if not any(" ".join(before[-n:]) in noun_forms(coll) for n in (1, 2) if before):
                    continue
                attr = m.group("attr")
                seen = {r.get(attr) for r in ctx.ev.state.get(coll, {}).values()}
                named = re.findall(r"`([^`]+)`", m.group("values"))
                if attr not in ctx.ev.attributes.get(coll, []) or not set(named) & seen:
                    continue
                refuse = m.group("modal").lower() != "must"
                values = sorted(set(named))
                out.append(value_check(tb, refuse, coll, attr, via, values, s, "policy"))
    return out
