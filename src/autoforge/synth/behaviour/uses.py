"""Counters of how often a tool was used on a record: "A booking can be changed at most twice
(`change_count` tracks this)", "at most once per shipment (`redirect_count` goes from 0 to
1)", "Rejected if the loan has already been renewed twice".

A whole-number attribute of the record a tool acts on whose name holds the tool's verb
(``change_count`` for ``change_booking``, ``renewals`` for ``renew_loan``) counts the tool's
uses: each accepted call adds one. When the docs bound it (the schema's ``maximum``, or a
sentence about the tool that says "at most twice", "N times at most", "already been <verb>ed
N times"), a call on a record already at the bound is refused (a ``threshold`` check). A
counter some other effect already writes is left alone. Every rule is stated without naming a
domain.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from autoforge.env import Check, Effect, ToolBehaviour, Value, doc_sentences
from autoforge.lexicon import count_of, name_verb, number_words
from autoforge.synth.behaviour.headings import carried_part, tool_sentences

if TYPE_CHECKING:
    from autoforge.synth.behaviour.data import Context
    from autoforge.tooldocs import ToolSpec

#: words that make an attribute a count: ``change_count``, ``times_renewed``
_COUNTING = frozenset({"count", "counter", "times", "number", "num", "total"})
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
_NUMBER = rf"(?P<n>once|twice|thrice|(?:\d+|{number_words()})\s+times?)"
#: "at most twice", "no more than 3 times", "twice at most", "up to 2 times"
_BOUND = re.compile(
    rf"\b(?:at\s+most|no\s+more\s+than|up\s+to|not\s+more\s+than)\s+{_NUMBER}"
    rf"|\b{_NUMBER.replace('?P<n>', '?P<m>')}\s+at\s+(?:the\s+)?most\b",
    re.I,
)


def _stem(verb: str) -> str:
    """The part of a verb its other forms keep: change -> chang, renew, reschedul."""
    w = verb.lower()
    return w[:-1] if w.endswith("e") and len(w) > 4 else w


def _count(text: str) -> int | None:
    text = " ".join(text.lower().split())
    if text in _TIMES:
        return _TIMES[text]
    m = re.match(rf"(\d+|{number_words()}) times?$", text)
    return None if m is None else count_of(m.group(1))


def _counters(tb: ToolBehaviour, verb: str, ctx: Context) -> list[str]:
    """Whole-number attributes of the target whose name holds the verb and no effect sets
    (one an effect already counts up is kept: its bound may still be unread)."""
    coll = tb.collection or ""
    stem = _stem(verb)
    own = [e for e in tb.effects if e.record == "target" and e.collection == coll]
    written = {e.attribute for e in own if e.kind != "increment"}
    written |= {f for e in own for f in e.fields}
    params = {p.name for p in tb.params}
    props = ctx.schemas.get(coll, {})
    whole = set(ctx.ev.typed_attributes(coll, "int"))
    whole |= {a for a, s in props.items() if isinstance(s, dict) and s.get("type") == "integer"}
    return [
        a
        for a in ctx.ev.attributes.get(coll, []) or list(props)
        if a in whole and a not in written and a not in params and _counts_verb(a, stem)
    ]


def _counts_verb(attr: str, stem: str) -> bool:
    """Whether ``attr`` names a count of the verb's uses: a word sharing the verb's first five
    letters (``extension`` for extend) beside a counting word (``extension_count``,
    ``times_extended``), or in the plural (``renewals``, ``changes``)."""
    head = stem[:5]
    parts = attr.lower().split("_")
    for i, w in enumerate(parts):
        if len(head) < 4 or not w.startswith(head):
            continue
        others = parts[:i] + parts[i + 1 :]
        if any(o in _COUNTING for o in others) or (not others and w.endswith("s")):
            return True
    return False


def _bound(attr: str, verb: str, sentences: list[str], ctx: Context, coll: str) -> tuple[int, str]:
    """The most uses the docs allow, and the sentence that says so ("" for the schema's
    ``maximum``); 0 when nothing bounds it."""
    stem = _stem(verb)
    for s in sentences:
        if not re.search(rf"\b{re.escape(stem)}\w*", s, re.I) and f"`{attr}`" not in s:
            continue
        m = _BOUND.search(s)
        if m is None:
            m = re.search(rf"\balready\s+(?:been\s+)?{re.escape(stem)}\w*\s+{_NUMBER}", s, re.I)
        if m is not None:
            n = _count(m.group("n") or (m.groupdict().get("m") or ""))
            if n:  # of "Rejected if A, B, or C" only the alternative read is carried
                return n, carried_part(s, re.escape(m.group(0)))
    schema = ctx.schemas.get(coll, {}).get(attr)
    high = schema.get("maximum") if isinstance(schema, dict) else None
    return (int(high), "") if isinstance(high, int) and high > 0 else (0, "")


def use_counters(
    spec: ToolSpec, tb: ToolBehaviour, ctx: Context
) -> tuple[list[Check], list[Effect]]:
    """The checks and effects of the counters of ``tb``'s uses (see the module docstring)."""
    if tb.kind not in ("action", "update") or tb.collection is None or tb.id_param is None:
        return [], []
    verb = name_verb(spec)
    counters = _counters(tb, verb, ctx)
    if not counters:
        return [], []
    sentences = doc_sentences(spec.description) + tool_sentences(
        ctx.policy, spec.name, ctx.headed, ctx.verbs
    )
    checks: list[Check] = []
    effects: list[Effect] = []
    bounded = {c.attribute for c in tb.checks if c.kind == "threshold"}
    counted = {
        e.attribute
        for e in tb.effects
        if e.kind == "increment" and e.record == "target" and e.collection == tb.collection
    }
    for a in counters:
        high, said = _bound(a, verb, sentences, ctx, tb.collection)
        if a not in counted:
            effects.append(
                Effect(
                    kind="increment",
                    collection=tb.collection,
                    attribute=a,
                    value=Value(source="const", const=1),
                    sentence=said,
                    source="docs" if said else "data",
                )
            )
        if high and a not in bounded:
            checks.append(
                Check(
                    kind="threshold",
                    collection=tb.collection,
                    attribute=a,
                    values=["<", high],
                    sentence=said,
                    source="docs" if said else "parameter schema",
                )
            )
    return checks, effects
