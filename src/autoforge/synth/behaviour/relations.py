"""Sentence rules about how a call's arguments must relate to records other than its target.

Two rules, each stated without a domain:

- **A record for a pair of parameters must exist.** "A stock record for that sku at that
  location must exist", "a seat for the flight on that date must exist": a collection named by
  the noun holds, for the two parameters the sentence names, attributes of the same names; a
  call whose pair no record carries is refused (check kind ``record_for``).
- **An item must be one of a record's list.** "Each sku must be a line of the purchase order",
  "the guest must be an attendee of the event": the record (the tool's target, or the one a
  parameter names) has a list attribute named after the item noun whose entries carry the
  field; the parameter (or that field of each object of a list parameter) must be among them
  (check kind ``member_of``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import Check, ToolBehaviour, doc_sentences, refusal_alternatives
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.text import value_check, write_targets

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context, DataEvidence

#: a sentence that makes the relation a condition of the call
_REQUIRED = re.compile(
    r"\bmust\s+(?:already\s+)?(?:exist|be|have)\b|\b(?:is|are|gets?)\s+refused\b|\brequired\b",
    re.I,
)
_DET = r"(?:that|the|this|its|their|each|a|an)"
_PAIR = re.compile(
    rf"\b(?:a|an|one)\s+(?P<noun>[a-z][a-z ]{{1,40}}?)\s+(?:record\s+|entry\s+)?for\s+{_DET}\s+"
    rf"`?(?P<a>[a-z_]+)`?\s+(?:at|in|on|of|for)\s+{_DET}\s+`?(?P<b>[a-z_]+)`?",
    re.I,
)
_MEMBER = re.compile(
    r"\b`?(?P<field>[a-z_]+)`?\s+must\s+be\s+(?:a|an|one)\s+(?P<item>[a-z_]+)\s+of\s+"
    r"(?:the|that|this|its)\s+(?P<noun>[a-z]+(?:\s+[a-z]+){0,3})",
    re.I,
)


def noun_collection(noun: str, ev: DataEvidence) -> str | None:
    """The collection the longest run of a noun phrase's words names ("stock record" ->
    ``stock``, "purchase order may" -> ``purchase_orders``)."""
    words = noun.lower().split()
    runs = [(i, j) for i in range(len(words)) for j in range(len(words), i, -1)]
    for i, j in sorted(runs, key=lambda r: (r[0] - r[1], r[0])):
        phrase = " ".join(words[i:j])
        for name in ev.state:
            if phrase in noun_forms(name):
                return name
    return None


def param_for(word: str, tb: ToolBehaviour) -> str | None:
    """The parameter a word of a sentence names: itself, or ``<word>_id``."""
    names = {p.name for p in tb.params}
    for cand in (word, f"{word}_id", f"{word}id"):
        if cand.lower() in names:
            return cand.lower()
    return None


def record_for_checks(tb: ToolBehaviour, texts: list[str], ctx: Context) -> list[Check]:
    """``record_for`` checks: a sentence requires a record of a collection for two of the
    tool's parameters, and that collection's records carry both parameters' names."""
    out: list[Check] = []
    if tb.kind in ("list", "get"):
        return out  # a read filter that matches nothing is an empty answer, not a refusal
    for s in texts:
        if not _REQUIRED.search(s):
            continue
        for m in _PAIR.finditer(s):
            coll = noun_collection(m.group("noun"), ctx.ev)
            a, b = param_for(m.group("a"), tb), param_for(m.group("b"), tb)
            attrs = set(ctx.ev.attributes.get(coll or "", []))
            if coll is None or a is None or b is None or a == b or not {a, b} <= attrs:
                continue
            if coll == tb.collection and tb.kind == "create":
                continue  # the call makes that record; it need not exist before
            out.append(Check(kind="record_for", collection=coll, values=[a, b], sentence=s))
    return _unique(out)


def _list_param_field(tb: ToolBehaviour, schema: dict[str, Any], field: str) -> str | None:
    """The parameter that carries ``field``: a parameter of that name, or a list parameter
    whose objects have it."""
    props = schema.get("properties") or {}
    for p in tb.params:
        if p.name == field:
            return p.name
        items = (
            (props.get(p.name) or {}).get("items") if isinstance(props.get(p.name), dict) else None
        )
        if isinstance(items, dict) and field in (items.get("properties") or {}):
            return p.name
    return None


def _record_of(coll: str, tb: ToolBehaviour) -> str | None:
    """How a check reaches a record of ``coll``: the target (``None`` via), or the parameter
    that names one (``param:<name>``); empty string when the tool reaches none."""
    if coll == tb.collection and tb.id_param is not None:
        return None
    for p in tb.params:
        if p.references == coll:
            return f"param:{p.name}"
    return ""


def member_checks(
    tb: ToolBehaviour, texts: list[str], ctx: Context, schema: dict[str, Any]
) -> list[Check]:
    """``member_of`` checks: a sentence says a field must be an item of a record's list, the
    data's list holds objects with that field (or plain values), and the tool reaches the
    record."""
    out: list[Check] = []
    for s in texts:
        for m in _MEMBER.finditer(s):
            coll = noun_collection(m.group("noun"), ctx.ev)
            if coll is None:
                continue
            via = _record_of(coll, tb)
            item, field = m.group("item").lower(), m.group("field").lower()
            lists = [a for a in ctx.ev.list_attributes(coll) if a in (item + "s", item + "es")]
            param = _list_param_field(tb, schema, field)
            if via == "" or not lists or param is None:
                continue
            entries = [
                x for r in ctx.ev.state.get(coll, {}).values() for x in (r.get(lists[0]) or [])
            ]
            objects = bool(entries) and all(isinstance(x, dict) for x in entries)
            if objects and not all(field in x for x in entries):
                continue
            out.append(
                Check(
                    kind="member_of",
                    param=param,
                    collection=coll,
                    attribute=lists[0],
                    via=via,
                    values=[field] if objects else [],
                    sentence=s,
                )
            )
    return _unique(out)


def _unique(checks: list[Check]) -> list[Check]:
    seen: set[str] = set()
    out = []
    for c in checks:
        key = c.model_dump_json(exclude={"sentence"})
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


#: the comparison each of :data:`_ABOVE_N`'s words says
_OPS = {"above": ">", "greater than": ">", "more than": ">", "over": ">", "at least": ">=",
        "below": "<", "less than": "<", "under": "<", "at most": "<="}  # fmt: skip
_ABOVE_N = (
    r"(?P<op>above|greater\s+than|more\s+than|over|at\s+least|below|less\s+than|under|at\s+most)"
)


def attribute_thresholds(spec_text: str, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "Only an in_progress job with some labour logged (`labour_hours` above 0)": in a sentence
    that states a rule, an attribute of the target compared with a number is a precondition on
    the target (check kind ``threshold``: ``values`` = [operator, number])."""
    if tb.id_param is None or tb.collection is None or tb.kind == "create":
        return []
    out: list[Check] = []
    for s in doc_sentences(spec_text):
        if not re.search(r"\b(only|must|refused|rejected|requires?)\b", s, re.I):
            continue
        for a in ctx.ev.attributes.get(tb.collection, []):
            m = re.search(
                rf"`{re.escape(a)}`\s+(?:is\s+)?{_ABOVE_N}\s+(?P<n>-?\d+(?:\.\d+)?)\b", s, re.I
            )
            if m is None or tb.id_param == a or any(p.name == a for p in tb.params):
                continue
            op = _OPS[" ".join(m.group("op").lower().split())]
            n = float(m.group("n")) if "." in m.group("n") else int(m.group("n"))
            out.append(
                Check(
                    kind="threshold",
                    collection=tb.collection,
                    attribute=a,
                    values=[op, n],
                    sentence=s,
                )
            )
    return out


def count_refusals(spec_text: str, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "Rejected if the member ... has 3 or more no-shows": in a refusing sentence, a record the
    tool reaches whose number attribute the words name (``no_shows``) must stay below N."""
    out: list[Check] = []
    for s in doc_sentences(spec_text):
        if not re.search(r"\b(rejected|refused|cannot|may\s+not|not\s+allowed)\b", s, re.I):
            continue
        for m in re.finditer(
            r"\bha(?:s|ve)\s+(?P<n>\d+)\s+or\s+more\s+(?P<w>[\w-]+(?:\s+[\w-]+)?)", s, re.I
        ):
            words = re.sub(r"[\s-]+", "_", m.group("w").lower())
            for coll, via in write_targets(tb, ctx):
                attrs = ctx.ev.attributes.get(coll, [])
                name = next((a for a in attrs if a in (words, words.split("_")[0])), None)
                if name is None:
                    continue
                noun = "|".join(re.escape(n) for n in noun_forms(coll))
                if not re.search(rf"\b(?:{noun})\b", s[: m.start()], re.I):
                    continue
                part = next((a for a in refusal_alternatives(s)[1] if m.group(0) in a), s)
                out.append(
                    Check(
                        kind="threshold",
                        collection=coll,
                        attribute=name,
                        via=via,
                        values=["<", int(m.group("n"))],
                        sentence=part,
                    )
                )
                break
    return out


#: the allowed side of a limit a refused case states ("whose balance is above 150" refused)
_ALLOWED = {">": "<=", ">=": "<", "<": ">=", "<=": ">"}


def whose_refusals(texts: list[str], tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "A household whose `balance` is above 150.00 cannot book": in a refusing sentence, a
    record the tool reaches, named by its noun, whose number attribute is past a limit refuses
    the call (check kind ``threshold`` on that record, ``values`` the allowed side)."""
    refusing = r"\b(?:cannot|can\s*not|can't|may\s+not|must\s+not|refused|rejected|not\s+allowed)\b"
    out: list[Check] = []
    for said in texts:
        s = said.replace("**", "")
        if not re.search(refusing, s, re.I):
            continue
        for coll, via in write_targets(tb, ctx):
            if coll is None or (coll == tb.collection and tb.kind == "create"):
                continue
            nouns = "|".join(re.escape(n) for n in noun_forms(coll))
            for a in ctx.ev.number_attributes(coll):
                m = re.search(rf"\b(?:{nouns})\s+whose\s+`?{re.escape(a)}`?\s+is\s+{_ABOVE_N}"
                              rf"\s+(?P<n>-?\d+(?:\.\d+)?)\b", s, re.I)  # fmt: skip
                if m is None or not re.search(refusing, s[m.end() :], re.I):
                    continue
                op = _OPS[" ".join(m.group("op").lower().split())]
                n = float(m.group("n")) if "." in m.group("n") else int(m.group("n"))
                out.append(Check(kind="threshold", collection=coll, attribute=a, via=via,
                                 values=[_ALLOWED[op], n], sentence=said))  # fmt: skip
    return out


def unique_params(spec_text: str, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "`plate` ... must not belong to another vehicle" / "must be unique": no other record of
    the collection may hold the argument in the attribute of the same name."""
    if tb.collection is None or tb.kind not in ("create", "update"):
        return []
    attrs = set(ctx.ev.attributes.get(tb.collection, [])) - {tb.id_param}
    params = {p.name for p in tb.params}
    out: list[Check] = []
    for s in doc_sentences(spec_text):
        p = _subject(s, attrs & params)
        if p is None or any(c.param == p for c in out):
            continue
        if re.search(
            r"\b(?:must|may|can)\s+(?:not|never)\s+(?:already\s+)?belong\s+to\s+(?:another|any\s+"
            r"other|any\s+existing)\s+\w+|\bmust\s+be\s+unique\b",
            s,
            re.I,
        ):
            out.append(
                Check(kind="unique", param=p, collection=tb.collection, attribute=p, sentence=s)
            )
    return out


def _subject(sentence: str, names: set[str]) -> str | None:
    """The attribute a sentence opens with: written as code (```plate` must ...``), or by its
    words after "the" ("The frame-no may not ...")."""
    head = re.match(r"^\s*`(\w+)`", sentence)
    if head is not None:
        return head.group(1) if head.group(1) in names else None
    low = sentence.lower()
    for n in sorted(names, key=len, reverse=True):
        words = " ".join(n.lower().split("_"))
        # "e-mail" is the word "email"; "frame-no" the words "frame no"
        if any(re.match(rf"^\s*the\s+{words}\b", low.replace("-", j)) for j in ("", " ")):
            return n
    return None


def rejected_if_statuses(spec_text: str, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "Rejected if the loan is not active, ..., or the patron is suspended": each alternative of
    a "rejected/refused/fails if" sentence that says a reached record "is (not) <status>"
    requires (with "not") or refuses that status of that record. The record is the one its noun
    names, else the last one named before it in the sentence."""
    out: list[Check] = []
    related = write_targets(tb, ctx)
    for s in doc_sentences(spec_text):
        current: tuple[str, str | None] | None = None
        for part in refusal_alternatives(s)[1]:
            for coll, via in related:
                nouns = "|".join(re.escape(n) for n in noun_forms(coll))
                if re.search(rf"\bthe\s+(?:{nouns})\b", part, re.I):
                    current = (coll, via)
                    break
            if current is None:
                continue
            coll, via = current
            attr, values = ctx.status_enum(coll)
            said = re.match(
                r"^\s*(?:the\s+[\w ]+?\s+)?is\s+(?P<not>not\s+)?`?(?P<v>[\w-]+)`?\s*$", part, re.I
            )
            if attr is None or said is None or said.group("v") not in values:
                continue
            required = said.group("not") is not None
            out.append(value_check(tb, not required, coll, attr, via, [said.group("v")], part))
    return out + refused_for_statuses(spec_text, tb, ctx)


def refused_for_statuses(spec_text: str, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """ "Refused for suspended customers", "not allowed for `cancelled` or `closed` orders":
    the statuses named right before a noun of a record the tool reaches are refused for it."""
    out: list[Check] = []
    for s in doc_sentences(spec_text):
        for coll, via in write_targets(tb, ctx):
            attr, values = ctx.status_enum(coll)
            nouns = "|".join(re.escape(n) for n in noun_forms(coll))
            m = re.search(rf"\b(?:refused|rejected|not\s+allowed|not\s+possible)\s+for\s+"
                          rf"(?:an?\s+|the\s+)?((?:`?[\w-]+`?(?:\s*,\s*|\s+or\s+)?)+?)\s+"
                          rf"(?:{nouns})\b", s, re.I)  # fmt: skip
            named = [v for v in values if m and re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])",
                                                          m.group(1), re.I)]  # fmt: skip
            if attr and m and named:
                out.append(value_check(tb, True, coll, attr, via, named, s))
    return out
