"""The model as reader: a rule sentence no rule of the behaviour model carries, read into a
typed rule under a schema, and kept only where the sentence itself grounds every part of it.

The regex readers cover the phrasings they were written from; docs that state the same rule
in other words ("Frozen accounts are barred from placing new orders") get nothing from
them. Here the model is asked, per sentence, for one reading whose every slot is a closed
choice built from the tool's own context: the kind of rule, the record (the nouns of the
records the tool reaches) or the number parameter it is about, the status values those
records can hold, and a number. Nothing it answers is trusted as is:

- only the clause naming the tool's own action is read ("Frozen accounts can still pay, but
  they cannot place orders" grounds nothing about ordering for the payment tool);
- a status rule keeps the values the sentence writes (as words), and is kept when they are
  the values of a record the sentence names (a noun of its collection: the one the reading
  names, else the only one), not the tool's own new record and not already bounded by another
  check; "must not be" needs a negation in the clause and "must be" no negation and "only"
  or "must be <value>";
- a number bound is kept when the sentence names the parameter (the one read, else the only
  one it names) and writes the number right after a word of the bound's direction ("at most",
  "up to", "and" of "between 1 and 14" for a maximum; "at least", "from", "between" for a
  minimum).

So a bigger model can only add grounded rules, and a model that answers nonsense adds none.
Kept readings become ordinary checks (``status_in``/``status_not_in``, ``argument``) with
``source`` "model" and the sentence they came from.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, create_model

from autoforge.env import (
    BehaviourModel,
    Check,
    StateSchema,
    ToolBehaviour,
    doc_sentences,
    unenforced_sentences,
)
from autoforge.synth.behaviour.data import noun_forms
from autoforge.synth.behaviour.derive import reading_context
from autoforge.synth.behaviour.headings import _stem, tool_sentences
from autoforge.synth.behaviour.headings import _words as _small_words
from autoforge.synth.behaviour.paths import path_record, reach
from autoforge.synth.behaviour.text import value_check

if TYPE_CHECKING:
    from autoforge.llm import LLMClient
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolDocs, ToolSpec

RULES = ("record_status_must_be", "record_status_must_not_be", "number_at_most",
         "number_at_least", "no_rule")  # fmt: skip
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|can't|blocked|refused|rejected|except|unless|nobody|none)\b", re.I
)
_REQUIREMENT = re.compile(r"\b(?:only|must|requires?|required|needs?|has\s+to|have\s+to)\b", re.I)
_CUE = re.compile(
    r"\b(?:only|must|may\s+not|cannot|can't|blocked|refused|rejected|not\s+allowed|at\s+most|"
    r"at\s+least|no\s+more\s+than|requires?|needs?|between|up\s+to)\b",
    re.I,
)
#: sentences read per tool at most (each is one model call)
PER_TOOL = 8


@dataclass
class _Record:
    noun: str
    coll: str
    via: str | None
    attribute: str
    values: list[str]


def _records(tb: ToolBehaviour, ctx: Context) -> list[_Record]:
    """The records a check of ``tb`` can read before it writes, with their status values."""
    own, others = reach(tb, ctx)
    out: list[_Record] = []
    seen: set[str] = set()
    if own is not None and own.start == "target":
        others = [own, *others]
    for path in others:
        if path.start == "new" or path.end in seen:
            continue
        attr, values = ctx.status_enum(path.end)
        if not attr or not values:
            continue
        seen.add(path.end)
        if path.start == "target" and not path.hops:
            via = None
        elif not path.hops and path.start.startswith("param:"):
            via = path.start
        else:
            via = path_record(path)
        noun = noun_forms(path.end)[-1]  # the shortest: the singular
        out.append(_Record(noun, path.end, via, attr, [str(v) for v in values]))
    return out


def _numbers(spec: ToolSpec, tb: ToolBehaviour) -> list[str]:
    props = spec.parameters.get("properties") or {}
    return [p.name for p in tb.params
            if (props.get(p.name) or {}).get("type") in ("number", "integer")]  # fmt: skip


def _reading_model(records: list[_Record], numbers: list[str]) -> type[BaseModel]:
    """The schema of one answer, every slot a closed choice from the tool's context."""
    subjects = tuple(dict.fromkeys([*(r.noun for r in records), *numbers, "none"]))
    values = tuple(dict.fromkeys(v for r in records for v in r.values)) or ("none",)
    fields: dict[str, Any] = {
        "rule": (Literal.__getitem__(RULES), ...),
        "about": (Literal.__getitem__(subjects), ...),
        "values": (list[Literal.__getitem__(values)], ...),  # type: ignore[misc]
        "number": (float | None, None),
    }
    model: type[BaseModel] = create_model("RuleReading", **fields)
    return model


def _prompt(spec: ToolSpec, sentence: str, records: list[_Record], numbers: list[str]) -> str:
    held = "; ".join(f"{r.noun} (status one of {', '.join(r.values)})" for r in records)
    what = (doc_sentences(spec.description) or [spec.name])[0]
    return (
        f"An API operation `{spec.name}`: {what}\n"
        f"Records it reads: {held or 'none'}. Number parameters: {', '.join(numbers) or 'none'}.\n"
        f'Rule sentence from its documentation: "{sentence}"\n'
        "Which rule does the sentence state for a call of this operation? "
        "record_status_must_be / record_status_must_not_be: the call is refused unless / when "
        "that record's status is one of `values`; number_at_most / number_at_least: the "
        "parameter `about` may not be above / below `number`; no_rule: anything else."
    )


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9_]+", text.lower()))


def _named_record(sentence: str, records: list[_Record], about: Any) -> _Record | None:
    """The record the reading is about: the one it names if the sentence names it too, else
    the only record the sentence names."""

    def names(r: _Record) -> bool:
        return any(re.search(rf"\b{re.escape(n)}\b", sentence, re.I) for n in noun_forms(r.coll))

    named = [r for r in records if names(r)]
    chosen = [r for r in named if r.noun == about]
    return chosen[0] if chosen else (named[0] if len(named) == 1 else None)


_AT_MOST = re.compile(
    r"(?:at\s+most|up\s+to|no\s+more\s+than|maximum(?:\s+of)?|exceeds?|and|to|under|below|"
    r"max\.?|<=?)\s*$",
    re.I,
)
_AT_LEAST = re.compile(
    r"(?:at\s+least|no\s+less\s+than|minimum(?:\s+of)?|from|between|above|over|more\s+than|"
    r"min\.?|>=?)\s*$",
    re.I,
)


def _clauses(sentence: str) -> list[str]:
    return [c for c in re.split(r"[;:,()]|\bbut\b|\bwhile\b|\bwhereas\b", sentence) if c.strip()]


def verb_clause(sentence: str, stems: set[str], made: str = "") -> str | None:
    """The clause of ``sentence`` that names the tool's action (a word with one of its verb
    ``stems``, or for a create "new <noun>" of what it makes, ``made`` a regex of the
    nouns), None when no clause or more than one does: a rule read from the sentence must be
    about this tool's action, not another's in the same sentence."""

    def names(c: str) -> bool:
        if {_stem(w) for w in _small_words(c)} & stems:
            return True
        return bool(made) and re.search(rf"\bnew\s+(?:{made})\b", c, re.I) is not None

    hits = [c for c in _clauses(sentence) if names(c)]
    return hits[0] if len(hits) == 1 else None


def _status(
    reading: Mapping[str, Any], sentence: str, clause: str, records: list[_Record]
) -> tuple[str, Any] | None:
    """Values and record from the sentence; the polarity from the clause of the action."""
    said = _words(sentence)
    values = [str(v) for v in reading.get("values") or []]
    values = [v for v in values if v.lower() in said or v.replace("_", " ") in sentence.lower()]
    rec = _named_record(sentence, [r for r in records if set(values) <= set(r.values)],
                        reading.get("about"))  # fmt: skip
    if rec is None or not values:
        return None
    refused = reading.get("rule") == "record_status_must_not_be"
    if refused != bool(_NEGATION.search(clause)):
        return None
    ticked = "|".join(re.escape(v) for v in values)
    if not refused and not re.search(
        rf"\bonly\b|\bmust\s+(?:be|have)\b.*\b(?:{ticked})\b", sentence, re.I
    ):
        return None
    return "status", (rec, sorted(set(values)), refused)


def _bound(reading: Mapping[str, Any], sentence: str, numbers: list[str]) -> tuple[str, Any] | None:
    said = _words(sentence)

    def named(p: str) -> bool:
        words = {w for w in p.split("_") if len(w) > 2}
        return p in sentence or bool(words and words <= said)

    about = reading.get("about")
    params = [about] if about in numbers and named(str(about)) else []
    params = params or [p for p in numbers if named(p)]
    number = reading.get("number")
    if len(params) != 1 or number is None:
        return None
    at_most = reading.get("rule") == "number_at_most"
    for m in re.finditer(r"\d+(?:\.\d+)?", sentence):
        if float(m.group(0)) == float(number):
            cue = _AT_MOST if at_most else _AT_LEAST
            if cue.search(sentence[max(0, m.start() - 24) : m.start()]):
                return "bound", (params[0], "<=" if at_most else ">=", float(number))
    return None


def grounded(
    reading: Mapping[str, Any],
    sentence: str,
    records: list[_Record],
    numbers: list[str],
    stems: set[str] | None = None,
    made: str = "",
) -> tuple[str, Any] | None:
    """``("status", (record, values, refused))`` or ``("bound", (param, op, number))`` when
    the sentence grounds the reading (see the module), else None. What the sentence alone
    decides is taken from it: of the values read, those it writes; the record, when the
    reading names none the sentence names, the only record it names. With the tool's verb
    ``stems``, a status rule's polarity is read from the one clause naming its action."""
    rule = reading.get("rule")
    if rule in ("record_status_must_be", "record_status_must_not_be"):
        clause = sentence if stems is None else verb_clause(sentence, stems, made)
        return None if clause is None else _status(reading, sentence, clause, records)
    if rule in ("number_at_most", "number_at_least"):
        return _bound(reading, sentence, numbers)
    return None


def _candidates(spec: ToolSpec, tb: ToolBehaviour, ctx: Context) -> list[str]:
    """Rule sentences of the tool (its description, then its policy sentences) that nothing
    in its behaviour model carries."""
    texts = unenforced_sentences(tb, spec.description, set())
    texts += [s for s in doc_sentences(spec.description) if _CUE.search(s)]
    texts += [
        s for s in tool_sentences(ctx.policy, spec.name, ctx.headed, ctx.verbs) if _CUE.search(s)
    ]
    carried = {" ".join(c.split()) for c in tb.carried() if c}
    out = [s for s in dict.fromkeys(texts) if " ".join(s.split()) not in carried]
    return [s for s in out if doc_sentences(s)][:PER_TOOL]


async def read_rules(
    model: BehaviourModel,
    docs: ToolDocs,
    data: Mapping[str, Any],
    policy: str,
    client: LLMClient,
    log: list[dict[str, Any]] | None = None,
    layout: StateSchema | None = None,
) -> int:
    """Add to ``model`` the grounded rules the client's model reads from the sentences the
    rules did not carry (write tools only); returns how many were added. ``log`` gets one
    entry per sentence asked about: the tool, the sentence and whether a rule was kept."""
    from autoforge.llm import LLMFailure

    ctx = reading_context(docs, data, policy, layout)
    added = 0
    for spec in docs.tools:
        tb = model.tool(spec.name)
        if tb is None or tb.kind not in ("create", "action", "update", "delete"):
            continue
        records, numbers = _records(tb, ctx), _numbers(spec, tb)
        bounded = {c.collection for c in tb.checks if c.kind in ("status_in", "status_not_in")}
        records = [r for r in records if r.coll not in bounded]
        if not records and not numbers:
            continue
        schema = _reading_model(records, numbers)
        for sentence in _candidates(spec, tb, ctx):
            ask = [{"role": "user", "content": _prompt(spec, sentence, records, numbers)}]
            try:
                answer = await client.structured(
                    ask, schema, role="synthesizer", purpose="synth.read_rule", max_tokens=120
                )
            except LLMFailure:
                continue  # an unreadable answer adds nothing
            stems = ctx.verbs.get(spec.name, set())
            made = (
                "|".join(re.escape(n) for n in noun_forms(tb.collection or ""))
                if tb.kind == "create"
                else ""
            )
            found = grounded(answer.model_dump(), sentence, records, numbers, stems, made)
            check = _check(tb, found, sentence)
            if log is not None:
                log.append({"tool": spec.name, "kind": "rule", "text": sentence,
                            "kept": check is not None})  # fmt: skip
            if check is not None:
                tb.checks.append(check)
                added += 1
                if found and found[0] == "status":
                    records = [r for r in records if r.coll != found[1][0].coll]
    return added


def _check(tb: ToolBehaviour, found: tuple[str, Any] | None, sentence: str) -> Check | None:
    if found is None:
        return None
    if found[0] == "status":
        rec, values, refused = found[1]
        return value_check(tb, refused, rec.coll, rec.attribute, rec.via, values, sentence,
                           source="model")  # fmt: skip
    param, op, number = found[1]
    return Check(kind="argument", param=param, values=[op, number], sentence=sentence,
                 source="model")  # fmt: skip
