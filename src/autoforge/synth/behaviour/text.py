"""Sentence rules of the behaviour model: what a sentence of the docs or the policy says a tool
checks or writes.

Each rule is statable without a domain: "only <status> <noun>" is a status precondition, "sets
<attribute> to today" a time effect, "<noun>'s <attribute> is increased by N" a counter, a
markdown table with *from* and *to* columns a transition table.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from autoforge.env import (
    Check,
    Effect,
    ToolBehaviour,
    Value,
    doc_sentences,
)
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.headings import (
    about_another,
    as_requirement,
    checklist_items,
    refused_for,
    restricting,
    section_sentences,
)
from autoforge.synth.behaviour.paths import effect_record
from autoforge.synth.behaviour.terms import expand_terms, record_nouns, status_terms
from autoforge.tooldocs import markdown_tables

if TYPE_CHECKING:
    from collections.abc import Sequence

    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

_CONDITION = re.compile(r"\b(only|must|allowed|unless|if|when|while)\b", re.I)
#: "a unit that is ...": what follows describes the record before the call
_RELATIVE = re.compile(r"\b(?:that|which|who|whose\s+\w+)\s*$", re.I)
_NEG = re.compile(r"\b(cannot|can not|can't|not|never|no)\b", re.I)
_EFFECT = re.compile(
    r"\b(sets?|moves?|moving|marks?|becomes?|starts?|stores?|creates?|is created|new)\b", re.I
)


def _word(value: str) -> str:
    """A status value as prose says it: in code or bare, "partially paid" for
    ``partially_paid``, also after "already-" ("already-void")."""
    said = re.escape(value).replace("_", "[_ ]")
    return rf"(?:(?<=already-)|(?<![\w-]))`?{said}`?(?![\w-])"


def transition_tables(policy: str) -> list[dict[str, list[str]]]:
    """Markdown tables of the policy whose header has a *from* and a *to* column:
    ``{from: [to, ...]}``."""
    out: list[dict[str, list[str]]] = []
    for header, *rows in markdown_tables(policy):
        cells = [c.lower() for c in header]
        if "from" not in cells or "to" not in cells:
            continue
        fi, ti = cells.index("from"), cells.index("to")
        table: dict[str, list[str]] = {}
        for rc in rows:
            if len(rc) <= max(fi, ti):
                continue
            targets = re.findall(r"[A-Za-z_][\w-]*", rc[ti])
            table[rc[fi].strip("` ")] = [
                t for t in targets if t.lower() not in ("none", "and", "or")
            ]
        if table:
            out.append(table)
    return out


def new_record_sentences(policy: str, coll: str) -> list[str]:
    """Policy sentences that describe a new record of ``coll`` without a condition ("A new
    loan is `active`, ... with `renewals` 0 and `returned_on` null", "Every invoice the desk
    raises has `amount_paid` 0.0"): where the values a create writes beyond its parameters
    are stated."""
    nouns = noun_forms(coll)
    out = []
    for s in doc_sentences(policy):
        low = s.lower()
        if not any(re.search(rf"\b{re.escape(n)}\b", low) for n in nouns):
            continue
        every = any(re.search(rf"\b(?:every|each)\s+{re.escape(n)}\b", low) for n in nouns)
        if not (re.search(r"\b(new|created|starts?)\b", low) or every):
            continue
        if re.search(r"\b(if|otherwise|unless|when|whenever|while|cannot|never)\b", low):
            continue
        out.append(s)
    return out


#: between two values of a run: a comma, "and", "or", and "or in" ("`received` or in `cleaning`")
_SEP = r"(\s*,\s*(and\s+|or\s+)?|\s+(and|or)\s+)((still\s+)?in\s+)?"


def skip_value_run(text: str, values: Sequence[Any], *, at_end: bool = False) -> str:
    """``text`` without the run of further status values that starts it (", shipped and
    cancelled" after "picked"), or with ``at_end`` the run that ends it ("on_loan or " before
    "on_hold"); case-insensitive, whole values only."""
    forms = {str(v) for v in values} | {str(v).replace("_", " ") for v in values}
    run = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    if not run:
        return text
    value = rf"(?:already-)?`?({run})`?(?![\w-])"
    pattern = rf"({value}{_SEP})+$" if at_end else rf"^({_SEP}{value})+"
    return re.sub(pattern, "", text, flags=re.IGNORECASE)


def _noun_after(s: str, pos: int, colls: list[str], values: Sequence[str] = ()) -> str | None:
    """The collection a noun right after ``pos`` names, skipping a run of further status
    values ("picked, shipped and cancelled orders")."""
    tail = skip_value_run(s[pos : pos + 80].lower(), values)
    for c in colls:
        for n in noun_forms(c):
            if re.match(rf"^[`\s]*(\w+\s+){{0,1}}{re.escape(n)}\b", tail):
                return c
    return None


def _noun_before(s: str, pos: int, colls: list[str]) -> str | None:
    """The collection a noun names right before a relative clause ending at ``pos``
    ("orders that have shipped", "tasks which are closed")."""
    head = s[max(0, pos - 60) : pos].lower()
    for c in colls:
        for n in noun_forms(c):
            rel = r"\s+(that|which)\s+(have|has|are|is|were|was)\s+(been\s+|already\s+)?`?$"
            if re.search(rf"\b{re.escape(n)}{rel}", head):
                return c
    return None


#: a status that only says in which case the sentence applies ("For a `reopened` claim ...")
_SUPPOSED = re.compile(r"\b(?:for|if|when|once)\s+(?:a|an|the|each|any)\s+`?$", re.I)
_STATE_SAID = re.compile(
    r"\b(?:must|has\s+to|needs\s+to)\s+(?:currently\s+|still\s+)?(?:be|have\s+(?:the\s+)?status)\b"
    r"|\bonly\b|\b(?:cannot|can\s*not|may\s+not)\s+be\b",
    re.I,
)


def status_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """Status preconditions stated by the tool's description or its policy sections: "only
    <values> <noun>", "<values> <noun> cannot be ...", "must be <value>" (the noun choosing
    the record: the target, or a record the target or a parameter refers to)."""
    out: list[Check] = []
    related = related_records(tb, ctx)
    own = section_sentences(ctx.policy, tb.tool, ctx.headed) if tb.kind != "list" else []
    if tb.kind != "list":  # "Only `active` households can book." wherever it stands
        own += [s for s in restricting(ctx.policy, tb.tool, ctx.verbs) if s not in own]
    # of a policy section, sentences that say what a record must be ("must keep ..." is not)
    own = [s for s in own if _STATE_SAID.search(s) and not about_another(s, tb.tool, ctx.verbs)]
    if tb.kind != "list" and tb.collection:  # anywhere: "closed tasks cannot be edited"
        nouns = noun_forms(tb.collection)  # about the tool's own records, not another kind
        own += [s for s in doc_sentences(ctx.policy)
                if s not in own and refused_for(s, tb.tool, ctx.verbs)
                and any(re.search(rf"\b{re.escape(n)}\b", s, re.I) for n in nouns)]  # fmt: skip
    required = {
        as_requirement(item): item
        for item in (
            checklist_items(ctx.policy, tb.tool, ctx.headed, ctx.verbs) if tb.kind != "list" else []
        )
    }
    everyone = record_nouns(ctx)
    terms = {c: status_terms(ctx.policy, [str(v) for v in ctx.status_enum(c)[1]], everyone)
             for c, _ in related}  # fmt: skip
    for said in doc_sentences(spec.description) + own + list(required):
        # asides blanked, positions kept: "from `paid` (reason `settled`), `denied` (...)",
        # "... whose date is today or later <em dash> a lapsed one must be cancelled"
        s = re.sub(
            r"\([^()]*\)|\s\u2014\s[^\u2014]*(?:\u2014|$)", lambda m: " " * len(m.group(0)), said
        )
        # "read-only" says what may not be done, it asks for no status
        asks = rf"(?<!-)only|must|allowed|possible|permitted|{_HAS_TO}"
        if _EFFECT.search(s) and not re.search(rf"\b({asks})\b", s, re.I):
            continue
        if not re.search(rf"\b({asks}|cannot|can not|can't)\b", s, re.I) and not _REFUSING.search(
            s
        ):
            continue
        for (coll, neg), vals in _statuses_said(s, tb, ctx, related, terms).items():
            via = next(v for c, v in related if c == coll)
            attr, _values = ctx.status_enum(coll)
            source = required.get(said, said)  # a list item: reported as written
            out.append(value_check(tb, neg, coll, attr, via, sorted(set(vals)), source))
    return out


def _statuses_said(
    said: str,
    tb: ToolBehaviour,
    ctx: Context,
    related: list[tuple[str, str | None]],
    terms: dict[str, dict[str, list[str]]],
) -> dict[tuple[str, bool], list[str]]:
    """``{(collection, refused): statuses}`` a rule sentence names of the records the tool
    reaches, leaving out participles, cases, outcomes, remedies and other records; a word the
    docs define as statuses (``terms``, per collection) names them."""
    found: dict[tuple[str, bool], list[str]] = {}
    colls = [c for c, _ in related]
    for coll, _via in related:
        _attr, values = ctx.status_enum(coll)
        s = expand_terms(said, terms.get(coll, {}), coll)
        # statuses the sentence writes as code: then only those are statuses named
        ticked = any(f"`{v}`" in s for v in values)
        for v, m in _value_matches(s, values):
            plural = m.group(0).lower().strip("`") == f"{v.lower()}s"
            noun = tb.collection if plural and coll == tb.collection else None
            noun = noun or _noun_after(s, m.end(), colls, values)
            noun = noun or _noun_before(s, m.start(), colls)
            noun = noun or _subject_must_be(s, m.start(), colls, values)
            if not (m.group(0).startswith("`") if ticked else noun):
                continue  # a participle ("can be returned"), not a status named
            if _SUPPOSED.search(s[: m.start()]) or re.match(
                r"`?\s+(?:instead|(?:again\s+)?first)\b", s[m.end() :]
            ):  # "for a `reopened` claim, ...", "must be denied instead", "must be
                continue  # stored again first": a case, an outcome, a remedy
            if (
                _OTHERS.search(_clause_of(s, m.start()))
                or _ONLY_WHEN.match(s[m.end() :])
                or _THEIR_ALL.search(s[max(0, m.start() - 80) : m.start()])
            ):
                continue  # "who has no other trip `active`"; "an issued invoice can
                # only be voided when ...": the case a rule is about, not a status asked
            refused = _refused(s, m.start())
            if re.match(
                rf"[`\s\w-]{{0,30}}?\b(?:must|{_HAS_TO})\s+be\s+\w+\s+(?:again\s+)?first\b",
                s[m.end() :],
            ):  # "checked-out samples must be stored again first"; "tentative sessions have to
                refused = True  # be confirmed first"
            if refused is False and _open_alternative(s, m.end(), values):
                continue  # "must be available, or on the shelf with ...": incomplete
            if (noun or tb.collection) == coll and refused is not None:
                found.setdefault((coll, refused), []).append(v)
    return found


#: a clause about records other than the one acted on ("no other trip `active`")
_OTHERS = re.compile(r"\b(?:no|any)\s+other\b|\banother\b", re.I)
#: statuses of a set of other records the rule counts or sums ("the `quote_amount` of all of
#: their jobs currently `accepted`, `assigned` or `delivered`")
_THEIR_ALL = re.compile(r"\ball\s+(?:of\s+)?(?:their|its|his|her)\s+\w+", re.I)
#: after "<status> <noun>": "can only be voided when/if ...", the case the rule is about
_ONLY_WHEN = re.compile(
    r"^`?\s+(?:[\w-]+\s+){1,2}(?:can|may|will)\s+only\s+be\s+\w+\s+"
    r"(?:when|if|once|after|before|within|while|until|by)\b",
    re.I,
)


def _clause_of(s: str, pos: int) -> str:
    """The text of ``s`` from the start of the clause holding ``pos`` up to ``pos``."""
    start = max((s.rfind(c, 0, pos) for c in "();,"), default=-1) + 1
    return s[start:pos]


#: a value that reads as a noun, so its plural names records in it ("drafts", "holds");
#: participles and adjectives ("cancelled", "active") have none
_PLURAL_OK = re.compile(r"^[a-z]+(?<!ed)(?<!ive)(?<!ing)(?<!al)(?<!ble)(?<!s)$")


def _value_matches(s: str, values: Sequence[str]) -> list[tuple[str, re.Match[str]]]:
    """Each status value named in ``s`` (``partially_reserved`` also as "partially
    reserved" or "partially-reserved"; a noun-like value also in the plural: "only drafts"),
    a value inside a longer one's words left out ("reserved" there)."""
    found: list[tuple[str, re.Match[str]]] = []
    for v in values:
        forms = [_word(v)] + ([rf"(?<![\w-]){re.escape(v).replace('_', '[ -]')}(?![\w-])"]
                              if "_" in v else [])  # fmt: skip
        if _PLURAL_OK.search(v):
            forms.append(rf"(?<![\w-]){re.escape(v)}s(?![\w-])")
        for form in forms:
            found += [(v, m) for m in re.finditer(form, s, re.IGNORECASE)]
    return [
        (v, m)
        for v, m in found
        if not any(
            o is not m
            and o.start() <= m.start()
            and m.end() <= o.end()
            and o.group(0) != m.group(0)
            for _, o in found
        )
    ]


def value_check(
    tb: ToolBehaviour,
    refuse: bool,
    coll: str,
    attr: str | None,
    via: str | None,
    values: list[Any],
    sentence: str,
    source: str = "docs",
) -> Check:
    """A ``status_in`` (or, ``refuse``, ``status_not_in``) check of ``attr`` on the record of
    ``coll`` the tool reaches: its target (``via`` None: the id parameter names it) or the one
    ``via`` leads to."""
    return Check(
        kind="status_not_in" if refuse else "status_in",
        param=tb.id_param if via is None else None,
        collection=coll,
        attribute=attr,
        via=via,
        values=values,
        sentence=sentence,
        source=source,
    )


def _subject_must_be(s: str, pos: int, colls: list[str], values: Sequence[str]) -> str | None:
    """The collection of the subject of "<noun> must be <value>" ("the copy must be on_loan
    or on_hold"), with a run of further values before ``pos`` skipped."""
    head = skip_value_run(s[max(0, pos - 120) : pos].lower(), values, at_end=True)
    for c in colls:
        for n in noun_forms(c):
            if re.search(
                rf"\b{re.escape(n)}\s+(must|has to|needs to)\s+(?:currently\s+|still\s+)?"
                rf"(?:be|have\s+(?:the\s+)?status|be\s+in\s+(?:the\s+)?status)\s+(either\s+)?"
                rf"(?:an?\s+)?`?$",
                head,
            ):
                return c
    return None


def _open_alternative(s: str, end: int, values: Sequence[str]) -> bool:
    """Whether a required status is followed, after a run of further values, by "or" and
    something that is not a status: the requirement has another way to be met that a status
    list cannot hold ("must be available, or on the hold shelf with a ready hold")."""
    tail = skip_value_run(s[end : end + 120].lower(), values)
    return re.match(r"^\s*,?\s*or\b", tail) is not None


_REFUSING = re.compile(
    r"\b(cannot|can not|can't|never|(?:is\s+|are\s+)?not\s+(?:allowed|permitted)"
    r"|(?:is|are)\s+(?:refused|rejected))\b",
    re.I,
)


#: "has to be", "needs to be": a requirement in other words than "must"
_HAS_TO = r"has to|have to|needs? to"


def _refused(s: str, pos: int) -> bool | None:
    """Whether the status named at ``pos`` is one the sentence refuses (True) or requires
    (False), read from its own clause (clauses end at brackets and semicolons): "only" before
    it requires, a negation refuses, "must"/"allowed" require; None when the clause says
    neither. In "Only a booked job (a job in progress cannot be cancelled)" booked is
    required; in "... (an available copy is borrowed instead; ...)" nothing is said of
    available."""
    start = max((s.rfind(c, 0, pos) for c in "();"), default=-1) + 1
    ends = [i for i in (s.find(c, pos) for c in "();") if i >= 0]
    clause = s[start : min(ends, default=len(s))]
    at = pos - start
    if re.search(r"\bonly\b", clause[:at], re.I):
        return False
    if _REFUSING.search(clause):
        return True
    asks = rf"only|must|allowed|possible|permitted|{_HAS_TO}"
    return False if re.search(rf"\b({asks})\b", clause, re.I) else None


def spelled(noun: str) -> str:
    """A pattern for ``noun`` as prose may split a compound ("signup": "sign-up", "sign up")."""
    if " " in noun:
        return re.escape(noun)
    return r"[-\s]?".join(re.escape(ch) for ch in noun)


def related_records(tb: ToolBehaviour, ctx: Context) -> list[tuple[str, str | None]]:
    """The target's collection (via None) and the collections its attributes or the tool's
    parameters refer to (via: the attribute or ``param:<name>``)."""
    out: list[tuple[str, str | None]] = []
    if tb.collection and tb.kind != "create":
        out.append((tb.collection, None))
    for p in tb.params:  # every parameter naming a record: a source and a destination both
        if p.references and p.name != tb.id_param and (p.references, None) not in out:
            out.append((p.references, f"param:{p.name}"))
    if tb.collection and tb.kind != "create":
        for a in ctx.ev.attributes.get(tb.collection, []):
            ref = ctx.ev.references(tb.collection, a)
            if ref and ref not in [c for c, _ in out]:
                out.append((ref, a))
    return out


def write_targets(tb: ToolBehaviour, ctx: Context) -> list[tuple[str, str | None]]:
    """The records a tool's writes and bounds can reach: :func:`related_records`'s, or for a create
    (which has no target yet) the records its parameters refer to."""
    if tb.kind != "create":
        return related_records(tb, ctx)
    return [(p.references, f"param:{p.name}") for p in tb.params if p.references]


def non_blank_params(texts: list[tuple[str, str]], params: list[str]) -> list[tuple[str, str, str]]:
    """Parameters a sentence says must not be blank (named as written, or capitalised as the
    sentence's first word: "Name is trimmed and may not be blank")."""
    out: list[tuple[str, str, str]] = []
    for text, src in texts:
        for s in doc_sentences(text):
            if not re.search(r"non-?blank|non-space|not be blank|non-empty", s, re.I):
                continue
            for p in params:
                named = re.search(rf"\b{re.escape(p)}\b|^`?{re.escape(p.capitalize())}\b", s)
                if named and p not in [o[0] for o in out]:
                    out.append((p, s, src))
    return out


_GENERIC_WORDS = frozenset({"on", "at", "date", "id", "time", "day"})


def not_past_params(texts: list[tuple[str, str]], tb: ToolBehaviour) -> list[tuple[str, str, str]]:
    """Date parameters a sentence says may not be before today / in the past."""
    out: list[tuple[str, str, str]] = []
    for text, src in texts:
        for s in doc_sentences(text):
            if (
                not re.search(r"(?<!days\s)before today|in the past|past date", s, re.I)
                or _NEG.search(s) is None
            ):
                continue
            words = set(re.findall(r"[a-z]+", s.lower()))
            for p in tb.params:
                if p.format not in ("date", "date-time"):
                    continue
                own = {w for w in p.name.lower().split("_") if w not in _GENERIC_WORDS}
                hit = p.name in s or (own and own <= words)
                if hit and p.name not in [o[0] for o in out]:
                    out.append((p.name, s, src))
    return out


def related_status_sets(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Effect]:
    """Statuses the tool's description says a related record takes: "the <noun> becomes
    `<value>`", "marks the <noun> `<value>`" for a collection a parameter or the target refers
    to (not the target's own, which :func:`target_status` reads), in a sentence without a
    condition."""
    related = write_targets(tb, ctx)
    out: list[Effect] = []
    for s in doc_sentences(spec.description):
        if re.search(r"\b(if|unless|when|whenever|while|otherwise|which|whose)\b", s, re.I):
            continue
        for coll, via in related:
            if coll is None or via is None or coll == tb.collection:
                continue
            attr, values = ctx.status_enum(coll)
            if attr is None or any(e.collection == coll for e in out):
                continue
            nouns = "|".join(re.escape(n) for n in noun_forms(coll))
            for v in values:
                own = rf"(?:'s\s+`?{re.escape(attr)}`?)?"  # "the bike's status becomes"
                becomes = rf"\bthe\s+({nouns}){own}\s+becomes\s+{_word(v)}"
                marks = rf"\b(?:marks?|sets?)\s+the\s+({nouns}){own}\s+(?:as\s+|to\s+)?{_word(v)}"
                if re.search(becomes, s, re.I) or re.search(marks, s, re.I):
                    record = effect_record(via)
                    fields = {attr: Value(source="const", const=v)}
                    out.append(
                        Effect(
                            kind="set", record=record, collection=coll, fields=fields, sentence=s
                        )
                    )
                    break
    return out


_ABOVE = (
    r"(must|may|can)\s*not\s+exceed|not\s+exceed(ing)?|(be\s+)?at\s+most|(be\s+)?no\s+more\s+than"
    r"|(may|must)\s+not\s+be\s+(above|more\s+than|greater\s+than)"
)
_BELOW = (
    r"(may|must|can)\s*not\s+be\s+(below|less\s+than|lower\s+than)|(be\s+)?at\s+least"
    r"|(be\s+)?no\s+less\s+than"
)


def attribute_bounds(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """A parameter bounded by an attribute of a record: "`amount` must ... not exceed the
    patron's `fines_due`" (at most), "`mileage` ... may not be below the vehicle's recorded
    `mileage`" (at least), "The amount must ... not exceed the owner's current balance" (names
    in words), "... may not exceed what the owner currently owes (its balance)". The parameter
    is the one the sentence starts with; the record is the target or one the target or a
    parameter refers to, named by its noun, or by nothing where only one of them has the
    attribute ("not exceed the current `balance_due`")."""
    params = {p.name for p in tb.params}
    related = write_targets(tb, ctx)
    out: list[Check] = []
    for s in doc_sentences(spec.description):
        head = re.match(r"^\s*(?:`(\w+)`|the\s+(\w+)\b)", s, re.I)
        param = head and (head.group(1) or head.group(2).lower())
        if not param or param not in params:
            continue
        for coll, via in related:
            if coll is None:
                continue
            nouns = "|".join(re.escape(n) for n in noun_forms(coll))
            for a in ctx.ev.attributes.get(coll, []):
                words = r"[\s_]".join(map(re.escape, a.split("_")))
                named = rf"(?:`{re.escape(a)}`|{words}\b)"
                owes = rf"what\s+the\s+(?:{nouns})\b[^()]{{0,40}}\(\s*its\s+{named}\s*\)"
                # "the household's current balance", "what the household owes (its balance)"
                target = rf"(?:the\s+({nouns})'s\s+(\w+\s+)?{named}|{owes})"
                owners = [c for c, _ in related if c and a in ctx.ev.attributes.get(c, [])]
                if len(owners) == 1 and a not in params:  # "the current `balance_due`"
                    target = rf"(?:{target}|the\s+(?:\w+\s+)?`{re.escape(a)}`)"
                for kind, cue in (("not_above", _ABOVE), ("not_below", _BELOW)):
                    if re.search(rf"\b({cue})\s+{target}", s, re.I):
                        fields = {"param": param, "collection": coll, "attribute": a}
                        out.append(
                            Check.model_validate(
                                {"kind": kind, **fields, "via": via, "sentence": s}
                            )
                        )
    return out


_WINDOWS = (
    (r"today\s+or\s+(?:already\s+)?(?:earlier|past|before)|on\s+or\s+before\s+today", "<="),
    (r"today\s+or\s+later|on\s+or\s+after\s+today", ">="),
    (r"after\s+today", ">"),
    (r"before\s+today", "<"),
    (r"today", "=="),
)


def _date_attribute(ctx: Context, coll: str, verb: str) -> str | None:
    """The date attribute "<noun> <verb> today" speaks of: the one named by the verb
    ("scheduled" -> ``scheduled_on``), else one named ``date``, else the only one."""
    days = ctx.ev.dated_attributes(coll)
    named = [a for a in days if verb != "dated" and a.lower().startswith(verb[:5])]
    if len(named) == 1:
        return named[0]
    if "date" in days:
        return "date"
    return days[0] if len(days) == 1 else None


def date_window_checks(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """Requirements on a record's date relative to the domain's today, stated as "only a
    <noun> dated today or earlier", "a <noun> dated after today", "scheduled for today", "a
    <noun> whose `<date>` is today", "For a <noun> whose <date> is today or earlier" (the
    attribute by its own name, in code or not)."""
    related = related_records(tb, ctx)
    out: list[Check] = []
    choices = {
        str(v)
        for sch in (spec.parameters.get("properties") or {}).values()
        if isinstance(sch, dict)
        for v in (sch.get("enum") or [])
    }
    for s in doc_sentences(spec.description):
        opens = re.match(r"\s*(?:only\s+)?for\s+an?\b", s, re.I)  # "For a <noun> whose ..."
        if not (opens or re.search(r"\b(only|allowed|must)\b", s, re.I)) or _REFUSING.search(s):
            continue
        for coll, via in related:
            nouns = "|".join(re.escape(n) for n in noun_forms(coll))
            rel = r"(?P<rel>[a-z\s]*?today(\s+or\s+(?:already\s+)?(earlier|later|past|before))?)"
            pat = rf"\b({nouns})\s+(dated|scheduled(\s+for)?|due)\s+{rel}\b"
            whose = rf"\b(?:{nouns})\s+whose\s+`?(?P<attr>\w+)`?\s+is\s+{rel}\b"
            m = re.search(pat, s, re.I) or re.search(whose, s, re.I)
            if m is None and via is None:  # "a sign-up whose shift date is before today"
                out += _hop_window(s, coll, related, rel, ctx)
            if m is None or any(c.collection == coll for c in out):
                continue
            if set(re.findall(r"`(\w+)`", s[: m.start()])) & choices:
                continue  # "The reason `expired` is accepted only for ...": one case's rule
            if "attr" in m.groupdict() and m.group("attr"):  # "a booking whose `arrival` is today"
                named = m.group("attr")
                attr = named if named in ctx.ev.attributes.get(coll, []) else None
            else:
                attr = _date_attribute(ctx, coll, m.group(2).split()[0].lower())
            op = next(
                (o for cue, o in _WINDOWS if re.fullmatch(cue, m.group("rel").strip(), re.I)), None
            )
            if attr is None or op is None:
                continue
            out.append(
                Check(
                    kind="date_window",
                    collection=coll,
                    attribute=attr,
                    via=via,
                    values=[op],
                    sentence=s,
                )
            )
    return out


def _hop_window(
    s: str, coll: str, related: list[tuple[str, str | None]], rel: str, ctx: Context
) -> list[Check]:
    """ "<noun> whose <other noun> date is <rel>": the date of the record the target refers
    to under that other noun."""
    nouns = "|".join(spelled(n) for n in noun_forms(coll))
    m = re.search(rf"\b(?:{nouns})\s+whose\s+(?P<hop>[a-z][\w-]*)(?:'s)?\s+(?:date|day)\s+is\s+"
                  rf"{rel}\b", s, re.I)  # fmt: skip
    if m is None:
        return []
    op = next((o for cue, o in _WINDOWS if re.fullmatch(cue, m.group("rel").strip(), re.I)), None)
    for far, via in related:
        if (
            far == coll
            or via is None
            or not re.fullmatch("|".join(spelled(n) for n in noun_forms(far)), m.group("hop"), re.I)
        ):
            continue
        attr = _date_attribute(ctx, far, "dated")
        if attr is not None and op is not None:
            return [Check(kind="date_window", collection=far, attribute=attr, via=via,
                          values=[op], sentence=s)]  # fmt: skip
    return []


#: "from today up to N days after today", "between today and N days from today"
_RANGE = re.compile(
    r"\b(?:from\s+today\s+(?:up\s+)?to|between\s+today\s+and)\s+(?P<n>\d+)\s+days?\s+"
    r"(?:after|from)\s+today\b",
    re.I,
)


_EXCEPTED = re.compile(r"\b(?:longer|shorter|extended|instead|except|unless)\b", re.I)


def date_range_checks(texts: list[str], tb: ToolBehaviour, ctx: Context) -> list[Check]:
    """A window from today to N days ahead that a referred record's date must lie in ("The
    shift date is inside the booking window: from today up to 45 days after today"): two
    ``date_window`` checks on that record (on or after today; on or before today + N). The
    record is named by its noun before the window, in the same sentence; its date is the
    attribute :func:`_date_attribute` finds. A new record's own date is an argument, read by
    :mod:`autoforge.synth.behaviour.arguments`."""
    out: list[Check] = []
    for i, said in enumerate(texts):
        s = said.replace("**", "")
        m = _RANGE.search(s)
        if m is None:
            continue
        # "... 45 days after today. Long-standing members get a longer window of 90 days.":
        # the horizon has exceptions, the start (today) holds for everyone
        upper = not _EXCEPTED.search(" ".join([s[m.end() :], *texts[i + 1 : i + 2]]))
        for coll, via in related_records(tb, ctx):
            if coll is None or (coll == tb.collection and tb.kind == "create"):
                continue
            nouns = "|".join(re.escape(n) for n in noun_forms(coll))
            named = re.search(
                rf"\b(?:{nouns})(?:'s)?\s+(?:`(?P<attr>\w+)`|date)\b", s[: m.start()], re.I
            )
            if named is None or any(c.collection == coll for c in out):
                continue
            attr = named.group("attr") or _date_attribute(ctx, coll, "dated")
            if attr is None or attr not in ctx.ev.attributes.get(coll, []):
                continue
            for op, k in ((">=", 0), ("<=", int(m.group("n"))))[: 2 if upper else 1]:
                out.append(Check(kind="date_window", collection=coll, attribute=attr, via=via,
                                 values=[op, k], sentence=said))  # fmt: skip
    return out


def repeat_refusals(tb: ToolBehaviour, texts: list[str], ctx: Context) -> list[Check]:
    """Appends that would repeat an item, refused: the list never repeats an item in the data
    (:meth:`DataEvidence.set_lists`) and a sentence says so ("refused if the member is already
    on the project", "the list may not contain duplicates" naming the list)."""
    coll = tb.collection or ""
    sets = ctx.ev.set_lists(coll)
    nouns = "|".join(re.escape(n) for n in noun_forms(coll))
    out: list[Check] = []
    for e in tb.effects:
        if e.kind != "append" or e.attribute not in sets or e.value is None:
            continue
        for s in texts:
            on = nouns and re.search(
                rf"\balready\s+(on|in)\s+(the|this|that)\s+({nouns})\b", s, re.I
            )
            dup = re.search(r"\bduplicat", s, re.I) and re.search(
                rf"\b{re.escape(e.attribute or '')}\b", s
            )
            if on or dup:
                out.append(
                    Check(
                        kind="not_member",
                        param=e.value.name,
                        collection=coll,
                        attribute=e.attribute,
                        sentence=s,
                    )
                )
                break
    return out


def list_caps(tb: ToolBehaviour, texts: list[str]) -> list[Check]:
    """Appends refused once the list is full: a sentence naming the target's noun says it has
    "at most N <items>", the items named after the list (``member_ids`` holds members)."""
    coll = tb.collection or ""
    nouns = "|".join(re.escape(n) for n in noun_forms(coll))
    out: list[Check] = []
    for e in tb.effects:
        if e.kind != "append" or not e.attribute or not nouns:
            continue
        item = re.sub(r"_(ids?|keys?|codes?)$", "", e.attribute)
        items = "|".join(re.escape(n.replace("_", " ")) for n in noun_forms(item + "s"))
        for s in texts:
            if not re.search(rf"\b({nouns})\b", s, re.I):
                continue
            m = re.search(rf"\bat\s+most\s+\**(\d+)\**\s+\**({items})\b", s, re.I)
            if m:
                out.append(
                    Check(
                        kind="max_items",
                        collection=coll,
                        attribute=e.attribute,
                        high=float(m.group(1)),
                        sentence=s,
                    )
                )
                break
    return out


def appends(spec: ToolSpec, tb: ToolBehaviour, attrs: list[str]) -> list[Effect]:
    """List attributes a sentence says a parameter is appended to ("appends the <x> to
    `attr`"): the parameter named like the list's items (``x_id`` into ``x_ids``), else the
    only parameter besides the record's id."""
    out = []
    others = [p.name for p in tb.params if p.name != tb.id_param]
    for s in doc_sentences(spec.description):
        if not re.search(r"\bappend", s, re.I):
            continue
        for a in attrs:
            if not re.search(rf"`?\b{re.escape(a)}\b`?", s):
                continue
            entry = _object_entry(s, others)
            if entry is not None:
                out.append(entry.model_copy(update={"collection": tb.collection, "attribute": a}))
                continue
            named = [p for p in others if p + "s" == a or re.search(rf"\b{re.escape(p)}\b", s)]
            param = named[0] if named else (others[0] if len(others) == 1 else None)
            if param is not None:
                out.append(
                    Effect(
                        kind="append",
                        collection=tb.collection,
                        attribute=a,
                        value=Value(source="param", name=param),
                        sentence=s,
                    )
                )
    return out


def _object_entry(s: str, params: list[str]) -> Effect | None:
    """An appended entry written as an object of parameters ("gets a line `{part_id, qty}`
    appended"); with "or the <word> of the <noun> for that ... increased" an entry with the
    same first field instead gets the number field added."""
    m = re.search(r"`?\{\s*(\w+(?:\s*,\s*\w+)+)\s*\}`?", s)
    if m is None:
        return None
    names = [n.strip() for n in m.group(1).split(",")]
    if not all(n in params for n in names):
        return None
    merge: list[str] = []
    if re.search(r"\bor\s+the\s+\w+\s+of\s+the\s+\w+\s+for\s+that\b.*\bincreased\b", s, re.I):
        merge = [names[0], names[-1]]
    value = Value(source="object", const=names)
    return Effect(kind="append", value=value, merge=merge, sentence=s)


def stamp_condition(text: str, attr: str, values: list[str]) -> str | None:
    """The status value a sentence makes writing ``attr`` depend on ("moving to `done` also
    sets `completed_on` to today"): a value after "moving to", "when", "if" or "once" in the
    clause that names the attribute, before it."""
    for s in doc_sentences(text):
        for clause in re.split(r"[;:]", s):
            m = re.search(rf"`?\b{re.escape(attr)}\b`?", clause)
            if m is None:
                continue
            head = clause[: m.start()]
            for v in values:  # "moves a `received` order into cleaning": where it goes
                cue = rf"\b(moving|moves|moved)\b[^,]*?\b(?:into|to)\s+(?:the\s+)?{_word(v)}"
                if re.search(cue, head, re.I):
                    return v
            for v in values:
                cue = rf"\b(moving|moves|moved|when|if|once)\b[^,]*?{_word(v)}"
                if re.search(cue, head, re.I):
                    return v
    return None
