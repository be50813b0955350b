"""The behaviour model: one typed, inspectable description per tool of what it checks, what it
changes and what it answers.

Synthesis derives it from the docs, the data and the policy and compiles it into tool code;
task generation reads it to choose calls that a tool accepts or refuses; ``autoforge check``
holds it against each tool's own description (every sentence that states a rule must be carried
by a precondition or an effect, or be listed as not enforced). It is saved next to the tools as
``behaviour.json``.

The vocabulary is domain-free: a precondition names a parameter, the collection it points into
and the attribute it reads; an effect names the record it changes (the tool's target, a new
record, or a record a parameter or the target refers to) and where the value comes from.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

BEHAVIOUR_FILE = "behaviour.json"
BEHAVIOUR_VERSION = 1

ToolKind = Literal["list", "get", "create", "update", "action", "delete", "compute"]
CheckKind = Literal[
    "exists",  # the parameter names a record of `collection` (when given)
    "absent_ok",  # an unknown id in a filter is not an error (stated by the docs)
    "format",  # `values[0]` is the format: date, date-time, email
    "non_blank",  # a text parameter must hold a non-space character
    "not_past",  # a date parameter may not be before the domain's today
    "status_in",  # the record `param` names (or its `via` reference) has `attribute` in values
    "status_not_in",  # ... has `attribute` outside values
    "transition",  # (current, requested) is in `table`
    "unique",  # no other record of `collection` has `attribute` equal to the parameter
    "at_least_one",  # at least one of the optional parameters is given
    "bounds",  # low <= parameter <= high
    "not_above",  # parameter <= `attribute` of the record `via` names (the target when None)
    "not_below",  # parameter >= `attribute` of that record
    "date_window",  # the date `attribute` of that record compares to today by `values[0]`
    "not_member",  # the parameter is not already an item of the target's list `attribute`
    "max_items",  # the target's list `attribute` holds fewer than `high` items before the call
    "min_items",  # the target's list `attribute` holds at least `low` items before the call
    "record_for",  # some record of `collection` has attributes `values` equal to those parameters
    "member_of",  # the parameter (or field `values[0]` of each of its objects) is in the list
    # `attribute` of the record `via` names (the target when None)
    "lines_within",  # per referenced record, the summed counts (field `values[1]`) of the
    # parameter's line objects naming it (field `values[0]`) do not exceed its `attribute`
    "new_not_below",  # once computed, the new record's `attribute` >= attribute `values[0]`
    # of the record `via` names (when given)
    "threshold",  # the target's `attribute` compares to `values[1]` by `values[0]` (>, >=, <, <=)
    "keyed_from",  # the record (`via`, the target when None) has `attribute` among the
    # values `table` lists for the parameter's value (a table keyed by the parameter)
    "no_child",  # no record of `collection` whose `via` names the target has `attribute` in values
    "covers",  # once the writes are done, number `attribute` of the record `via` names (an
    # effect's record: ``param:``, ``via:``, ``path:``; the target when None) is not below 0
    "no_record_for",  # no record of `collection` has attributes `values` equal to those
    # parameters (and, with `attribute`, that attribute among `table["counted"]`)
    "differs",  # the parameter is not the target's current `attribute` (a move elsewhere)
    "same_parent",  # the `collection` record the parameter names has attribute `values[0]`
    # equal to that of the record the target's `attribute` names (a move within one parent)
    "same_value",  # the `collection` record (`via`, the target when None) and the record
    # `values` [collection, via] names hold equal `attribute` (where both hold one)
    "owned",  # the target's `attribute` names the record the parameter names (its holder)
    "within",  # once the writes are done, a tally `attribute` of a `collection` record that
    # grew is not above that record's number `values[0]`
    "argument",  # the parameter's own value: `values` [op, operand], op one of >, >=, <, <=
    # (operand a number, or ["today", days] for a date) or "decimals" (operand: how many)
    "holds",  # the comparison `values[0]` (a formula condition over the arguments and the
    # records the call reaches) is true before the writes, wherever all its values are known
]
EffectKind = Literal[
    "create", "set", "increment", "append", "remove", "delete", "lines", "ledger", "tally"
]
ValueSource = Literal[
    "param",
    "const",
    "today",
    "now",
    "target_param",
    "new_id",
    "copy",
    "param_map",
    "object",
    "field",
    "formula",
]


class Check(BaseModel):
    """One precondition; a call that breaks it is refused."""

    kind: CheckKind
    param: str | None = None
    collection: str | None = None
    attribute: str | None = None
    #: the reference attribute of the target record leading to the checked record (``via``)
    via: str | None = None
    values: list[Any] = Field(default_factory=list)
    table: dict[str, list[str]] = Field(default_factory=dict)
    low: float | None = None
    high: float | None = None
    #: an optional parameter the check's sentence is about ("`express` is only accepted while
    #: ..."): the check applies only to a call that gives it
    when_given: str | None = None
    sentence: str = ""
    source: str = "docs"


class Value(BaseModel):
    """Where an effect's value comes from: a parameter, a constant, the domain's today/now,
    or (``copy``) attribute ``const[1]`` of the ``const[0]`` record parameter ``name`` names,
    or (``param_map``) the entry of the mapping ``const`` for the argument of ``name``, or
    (``object``) an object of the parameters ``const`` names, each under its own name, or
    (``field``) field ``name`` of a line object, or (``formula``) a value computed on the new
    record: ``["sum", list, count, field]`` (sum of count x field over its lines, to cents),
    ``["percent", base, collection, attribute]`` (base x that attribute of the record
    parameter ``name`` names / 100, 0 without it), ``["signed", [[sign, attribute], ...]]``
    (None while a term is)."""

    source: ValueSource
    name: str | None = None
    const: Any = None


class Effect(BaseModel):
    """One write: ``create`` a record, ``set`` attributes, ``increment`` a counter, ``delete``,
    or (``ledger``) move number ``attribute`` of the ``record`` in ``collection`` by ``value``
    and log one entry in collection ``ledger`` made as ``fields`` say (``formula`` values
    ``["delta"]``, ``["after"]``, ``["holder_key"]``, ``["target_key"]``, ``["target", a,
    sign]``); or (``tally``) keep number ``attribute`` of each ``collection`` record equal to
    a count or sum over the records referring to it, as the data shows (``value.const``
    ``["tally", measure, source, ref, field]``, counted where ``where`` says); or store
    ``lines``: the line objects of parameter ``value`` on the new record's list
    ``attribute``, each made as ``fields`` say, merged by ``merge`` and, with ``when`` naming
    an attribute of the referenced ``collection``, taking each count off that attribute.

    ``remove`` takes out of the target's list ``attribute`` the entries whose field
    ``merge[0]`` equals ``value`` (an entry of a list held inside the record).

    ``record`` says which record: ``target`` (the record the id parameter names), ``new`` (the
    record a create makes) or ``ref:<param>``/``via:<attribute>`` (a record a parameter, or an
    attribute of the target, refers to)."""

    kind: EffectKind
    record: str = "target"
    collection: str | None = None
    attribute: str | None = None
    value: Value | None = None
    fields: dict[str, Value] = Field(default_factory=dict)
    id_prefix: str = ""
    id_width: int = 0
    id_attribute: str | None = None
    only_given: bool = False
    #: ``[attribute, value]``: written only when the record's attribute has that value after
    #: the tool's other writes ("moving to done also sets completed_on"); ``["param:<name>",
    #: value]``: only when that argument has that value (a row of a table keyed by it)
    when: list[Any] = Field(default_factory=list)
    #: ``[collection, attribute]``: the write applies to every record of that collection whose
    #: attribute names the target (``record`` is then read from each such record), and
    #: ``where`` says which of them by their attribute values ("every booked booking")
    over: list[str] = Field(default_factory=list)
    #: an ``append`` of an object: ``[key field, summed field]`` when an entry with the same
    #: key instead gets the new entry's summed field added ("or the quantity of the line for
    #: that part increased")
    merge: list[str] = Field(default_factory=list)
    #: a ``ledger`` write: the collection of the entry logged with the change
    ledger: str | None = None
    #: decimals the written number is rounded to (the data's), None to leave it as computed
    digits: int | None = None
    where: dict[str, list[Any]] = Field(default_factory=dict)
    sentence: str = ""
    source: str = "docs"


class Reply(BaseModel):
    """The documented response: a record, a list of records, or an object of given keys."""

    kind: Literal["record", "list", "object", "none"] = "record"
    collection: str | None = None
    keys: list[str] = Field(default_factory=list)
    sort_by: str | None = None
    #: the one key the documented response holds the record or list under (an envelope:
    #: ``{"Kiln": {...}}``); None when the response is the record or list itself
    wrap: str | None = None


class ParamInfo(BaseModel):
    """A documented parameter as the model uses it."""

    name: str
    required: bool = False
    nullable: bool = False
    default: Any = None
    has_default: bool = False
    format: str | None = None
    #: documented as a JSON ``number`` (not ``integer``): a whole-number argument is taken as
    #: the float it stands for, as the API stores it
    number: bool = False
    #: list filters: the record attribute compared, and how (eq, contains, substring, member)
    attribute: str | None = None
    match: str | None = None
    references: str | None = None
    #: the sentence saying how the parameter filters (a list's min/max or search parameter)
    sentence: str = ""
    #: what a text argument becomes before it is used, in order: strip, nospace, lower, upper
    normal: list[str] = Field(default_factory=list)


class ToolBehaviour(BaseModel):
    """What one tool checks, changes and answers, with the sentences it does not enforce."""

    tool: str
    kind: ToolKind
    collection: str | None = None
    #: the HTTP operation it was read from (``POST /tasks``); empty when the docs have none
    operation: str = ""
    id_param: str | None = None
    params: list[ParamInfo] = Field(default_factory=list)
    checks: list[Check] = Field(default_factory=list)
    effects: list[Effect] = Field(default_factory=list)
    reply: Reply = Field(default_factory=Reply)
    today: str | None = None
    #: sentences of the tool's own description that state a rule no check or effect carries
    unenforced: list[str] = Field(default_factory=list)
    #: rule sentences of the policy about the tool (its sections, sentences naming it)
    policy_rules: list[str] = Field(default_factory=list)
    #: those of ``policy_rules`` no check, effect or recorded guard carries: the tool's code
    #: may accept a call the policy refuses, so task generation keeps it out of gold calls
    policy_unenforced: list[str] = Field(default_factory=list)
    partial: bool = False
    #: whether the tool's code was compiled from this model (else another stage wrote it, and
    #: what that code enforces beyond the recorded guards is not known here)
    compiled: bool = False
    #: a promise of the docs the conformance check found this tool breaking (a round trip)
    broken: str = ""

    def carried(self) -> set[str]:
        """The sentences a check or an effect of this tool carries."""
        items: list[Check | Effect | ParamInfo] = [*self.checks, *self.effects, *self.params]
        return {x.sentence for x in items if x.sentence}


class BehaviourModel(BaseModel):
    """The behaviour of every tool of one environment (``behaviour.json``)."""

    version: int = BEHAVIOUR_VERSION
    tools: list[ToolBehaviour] = Field(default_factory=list)

    def tool(self, name: str) -> ToolBehaviour | None:
        """The behaviour of tool ``name``, if modelled."""
        return next((t for t in self.tools if t.tool == name), None)

    def save(self, root: Path) -> None:
        """Write ``behaviour.json`` under ``root``."""
        (root / BEHAVIOUR_FILE).write_text(self.model_dump_json(indent=2), encoding="utf-8")

    @classmethod
    def load(cls, root: Path) -> BehaviourModel | None:
        """``behaviour.json`` under ``root``; None when there is none (hand-written env)."""
        path = root / BEHAVIOUR_FILE
        if not path.is_file():
            return None
        return cls.model_validate(json.loads(path.read_text(encoding="utf-8")))


_RULE_WORDS = re.compile(
    r"\b(must|only|refused|rejected|cannot|can not|can't|may not|not allowed|at most|"
    r"at least|fails? if|required|unique|no duplicates|never|allowed|has to|have to)\b",
    re.IGNORECASE,
)
#: "we will not renew ... while" refuses; "the fee will not be refunded" says an effect, and
#: "when a sailing will not run" a case
_WILL_NOT = re.compile(r"\b(?:will\s+not|won't)\s+(?!be\b)[a-z]+", re.IGNORECASE)
_CASE = re.compile(r"\b(?:when|whenever|if|unless|until|once)\b[^,;:]*$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"(])")


_BLOCK_BREAK = re.compile(r"\n\s*\n|\n\s*(?:[-*+]|\d+[.)])\s+|\n\s*#+\s*|\n(?=\s*\|)")


def doc_sentences(text: str) -> list[str]:
    """``text`` split into sentences: paragraphs, list items, headings and table rows apart,
    line breaks inside a sentence joined."""
    out = []
    for block in _BLOCK_BREAK.split(text):
        flat = " ".join(block.split()).strip("-*# ")
        out += [s.strip() for s in _SENTENCE_END.split(flat) if s.strip()]
    return out


_PERMISSIVE = re.compile(
    r"\b(is|are) (still )?accepted\b|\bnot an error\b|\b(stays?|remains?) as (it|they) (is|are)\b|"
    r"\b(is|are) (left )?unchanged\b",
    re.IGNORECASE,
)


#: advice to the caller, not a refusal ("you are strongly advised to ...")
_ADVICE = re.compile(r"\b(?:advised|recommended|we recommend|you (?:may|might) want)\b", re.I)
#: a warning of a consequence, not a refusal ("This cannot be undone"): read past it
_IRREVERSIBLE = re.compile(r"\b(?:cannot|can not|can't) be (?:undone|reversed|recovered)\b", re.I)


def rule_words(sentence: str) -> set[str]:
    """The words of ``sentence`` that mark a rule (lower case): "must", "only", "required"..."""
    return {m.group(0).lower() for m in _RULE_WORDS.finditer(sentence)}


def states_rule(sentence: str) -> bool:
    """Whether a sentence states a rule a call can break (a refusal condition); a sentence
    saying what is accepted or advising the caller states no refusal, and a warning that an
    effect is irreversible is none ("Deletion cannot be undone; only drafts can be deleted"
    still states one)."""
    text = _IRREVERSIBLE.sub("", sentence)
    refusing = any(not _CASE.search(text[: m.start()]) for m in _WILL_NOT.finditer(text))
    said = bool(_RULE_WORDS.search(text)) or refusing
    return said and not (_PERMISSIVE.search(text) or _ADVICE.search(text))


def rule_sentences(description: str) -> list[str]:
    """The sentences of a tool's own description that state a rule."""
    return [s for s in doc_sentences(description) if states_rule(s)]


#: a rule on the time of day or a span from the current moment ("once now is at least 15
#: minutes after its start", "whose start is still after now")
_CLOCK_RULE = re.compile(
    r"\bnow\s+is\b|\b(after|before|than)\s+now\b|\b\d+\s+(minutes?|hours?)\s+(after|before)\b",
    re.IGNORECASE,
)


def unenforced_sentences(tool: ToolBehaviour, description: str, also: set[str]) -> list[str]:
    """The rule sentences of ``description`` that neither ``tool`` nor ``also`` (sentences the
    environment's other guards carry) carries. No check of the behaviour model reads the
    clock, so it never carries a sentence with a clock rule: a status or date check on the
    same sentence ("Allowed for a booked reservation dated today when now is within its
    seating window") leaves the time of day unenforced."""
    model = {" ".join(c.split()) for c in tool.carried() if c}
    guards = {" ".join(c.split()) for c in also if c}
    out = []
    for s in rule_sentences(description):
        mine = set() if _CLOCK_RULE.search(s) else model
        carriers = {c for c in mine | guards if c and (s in c or c in s)}
        if not carriers:
            out.append(s)
            continue
        head, alternatives = refusal_alternatives(s)
        if any(c == s or s in c for c in carriers) or not alternatives:
            continue  # something carries the whole sentence
        # a part of "Rejected if A, B or C" is carried: each alternative no part carries is not
        left = [a for a in alternatives if not any(a in c or c in a for c in carriers)]
        out += [f"{head} {a}" for a in left]
    return out + [c for c in _uncomputed(tool, description) if not any(c in s for s in out)]


_REFUSAL_HEAD = re.compile(
    r"^(?P<head>.*?\b(?:rejected|refused|fails?|not\s+allowed)\s+(?:if|when|while))\b(?P<rest>.*)$",
    re.IGNORECASE,
)


def refusal_alternatives(sentence: str) -> tuple[str, list[str]]:
    """``(head, alternatives)`` of "Rejected if A, B, or C": the alternatives a refusal lists,
    split at commas and at "or" (not "3 or more"), each stripped; ``("", [])`` for any other
    sentence. A check that enforces one alternative carries that alternative's text."""
    m = _REFUSAL_HEAD.match(sentence.strip())
    if m is None:
        return "", []
    rest = m.group("rest").strip().rstrip(" .;")
    # a new alternative starts with a subject or a verb, not with a further value of a list
    # ("a booked, waitlisted or attended booking", "today or earlier", "3 or more")
    starts = r"(?=(?:the|is|are|has|have|already|its|their|it|a|an|no|when|if)\b|[a-z]+[^s\W]s\b)"
    parts = re.split(rf"(?:,\s*(?:or\s+)?|\s+or\s+){starts}", rest)
    # "refused when A, when B, or when C": each alternative repeats the conjunction
    parts = [re.sub(r"^\s*(?:when|if)\s+", "", p) for p in parts]
    return m.group("head"), [p.strip() for p in parts if p.strip()]


_COMPUTES = re.compile(
    r"\b(?:computes|calculates|works\s+out)\s+the\s+(?P<what>[a-z][a-z ]{1,40}?)"
    r"(?P<how>\s*\([^)]*\))?(?=\s*[,.;]|\s+and\b|\s*$)",
    re.I,
)


def _uncomputed(tool: ToolBehaviour, description: str) -> list[str]:
    """Clauses saying the tool computes an attribute its create writes empty and nothing later
    sets ("computes the shipping fee (...)"): a sentence other parts of which are carried still
    leaves these unenforced."""
    new = next((e for e in tool.effects if e.kind == "create"), None)
    if new is None:
        return []
    later = {a for e in tool.effects if e.record == "new" and e.kind == "set" for a in e.fields}
    empty = {
        a
        for a, v in new.fields.items()
        if v.source == "const" and v.const is None and a not in later
    }
    out = []
    for s in doc_sentences(description):
        for m in _COMPUTES.finditer(s):
            if "_".join(m.group("what").lower().split()) in empty:
                out.append(m.group(0).strip())
    return out


__all__ = [
    "BEHAVIOUR_FILE",
    "BehaviourModel",
    "Check",
    "Effect",
    "ParamInfo",
    "Reply",
    "ToolBehaviour",
    "Value",
    "doc_sentences",
    "refusal_alternatives",
    "rule_sentences",
    "rule_words",
    "states_rule",
    "unenforced_sentences",
]
