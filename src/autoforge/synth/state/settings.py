"""Settings: facts the docs state that are not records, given a place in the state.

A policy or a tool description often fixes values the tools' rules depend on but that no
record holds: "the current time is 2024-05-15 15:00", "at most five passengers", "a $25
change fee", "open from 9:00 to 17:00", a table of fees per tier. They are read here without
any model, each with the sentence (or table) it came from, and become the attributes of one
``settings`` record in a singleton ``settings`` collection (:func:`settings_collection`), so a
tool can read ``state["settings"]["settings"]["max_passengers"]`` and a rule can use it.

Only what the text makes explicit is taken: a number next to a limit word, a money amount next
to a fee word, a date after "today is" / "the current date is", a time span next to an opening
word, a Markdown table with a key column. Nothing is guessed; a fact that does not match stays
in the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from autoforge.env import Attribute, AttributeType, CollectionSchema
from autoforge.lexicon import NUMBER_WORDS, number_words
from autoforge.tooldocs import ToolSpec, identifier, plural, singular

SETTINGS = "settings"
SETTINGS_KEY = "settings_id"
#: The key of the one record of the ``settings`` collection.
SETTINGS_RECORD = "settings"

_NUM = r"(\d+(?:\.\d+)?|" + number_words() + r")"
_STOP = {
    "a", "an", "the", "of", "per", "each", "for", "to", "in", "on", "and", "or", "be", "at",
    "after", "before", "by", "with", "which", "that", "long", "from", "into", "is", "are",
}  # fmt: skip
#: Limits on the agent's own conduct ("at most one tool call at a time") are no state.
_CONDUCT = {"tool", "tools", "call", "calls", "message", "messages", "question", "questions"}
_LIMITS = [
    (re.compile(rf"\b(?:at most|no more than|up to|a maximum of|maximum of|max\.?)\s+{_NUM}"
                r"\s+((?:[a-z][a-z\-]*\s*){1,3})", re.I), "max"),
    (re.compile(rf"\b(?:at least|no fewer than|a minimum of|minimum of)\s+{_NUM}"
                r"\s+((?:[a-z][a-z\-]*\s*){1,3})", re.I), "min"),
]  # fmt: skip
_MONEY = r"[$€£]\s?(\d+(?:[.,]\d{1,2})?)"
_FEE_WORDS = {"fee", "charge", "penalty", "deposit", "surcharge"}
_FEE = re.compile(
    rf"(?:((?:[a-z\-]+\s+){{0,2}}(?:fee|charge|penalty|deposit|surcharge)s?\b)\s+(?:of|is|costs?)\s+"
    rf"{_MONEY}|{_MONEY}\s+((?:[a-z\-]+\s+){{0,2}}(?:fee|charge|penalty|deposit|surcharge)s?\b))",
    re.I,
)
_TODAY = re.compile(
    r"\b(?:today is|today's date is|the current (?:date|time|date and time) is|current "
    r"(?:date|time) is|it is now)\s+(\d{4}-\d{2}-\d{2}(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?"
    r"(?:\s?[A-Z]{2,4}\b)?)",
    re.I,
)
_CLOCK = r"(\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?)"
_HOURS = re.compile(
    rf"\b(open|opening hours?|business hours|hours|service hours|operates?|available)\b[^.\n]*?"
    rf"\b(?:from\s+)?{_CLOCK}\s*(?:-|–|to|until|till)\s*{_CLOCK}",
    re.I,
)
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?](?=\s|$)|\n|$)")


class Setting(BaseModel):
    """One fact of the docs that is no record: a name, its value and where it was read."""

    name: str
    value: Any
    type: AttributeType
    source: str


def _number(text: str) -> int | float:
    low = text.lower()
    if low in NUMBER_WORDS:
        return NUMBER_WORDS[low]
    value = float(low.replace(",", "."))
    return int(value) if value.is_integer() else value


def _noun(words: str) -> str:
    """The noun phrase a number counts: ``bikes``, ``travel certificates``; it ends at the
    first small word (``10 times per second`` -> ``times``)."""
    kept: list[str] = []
    for word in re.findall(r"[a-z][a-z\-]*", words.lower()):
        if word in _STOP:
            if kept:
                break
            continue
        kept.append(word)
    return identifier("_".join(kept[:2]).replace("-", "_")) if kept else ""


def _fee_name(words: str) -> str:
    """``late return fee`` -> ``late_return_fee``: the fee word and up to two words before."""
    kept = [w for w in re.findall(r"[a-z][a-z\-]*", words.lower()) if w not in _STOP]
    last = max((i for i, w in enumerate(kept) if singular(w) in _FEE_WORDS), default=-1)
    return identifier("_".join(kept[max(0, last - 2) : last + 1]).replace("-", "_"))


def _clock(text: str) -> str:
    """``9am`` / ``9:30 p.m.`` / ``17:00`` as ``HH:MM``."""
    low = text.lower().replace(".", "").replace(" ", "")
    pm, am = low.endswith("pm"), low.endswith("am")
    hour, _, minute = low.rstrip("apm").partition(":")
    h = int(hour) % 12 + (12 if pm else 0) if (pm or am) else int(hour)
    return f"{h:02d}:{int(minute or 0):02d}"


def _from_sentence(sentence: str, source: str) -> list[Setting]:
    out: list[Setting] = []
    quote = f'{source}: "{sentence.strip()[:160]}"'
    if (m := _TODAY.search(sentence)) is not None:
        value = m.group(1).strip()
        typ: AttributeType = "datetime" if re.search(r"\d:\d", value) else "date"
        out.append(Setting(name=f"current_{typ}", value=value, type=typ, source=quote))
    for pattern, prefix in _LIMITS:
        for m in pattern.finditer(sentence):
            noun = _noun(m.group(2))
            if noun and noun.split("_")[0] not in _CONDUCT:
                value = _number(m.group(1))
                typ = "integer" if isinstance(value, int) else "number"
                name = f"{prefix}_{plural(singular(noun))}"
                out.append(Setting(name=name, value=value, type=typ, source=quote))
    for m in _FEE.finditer(sentence):
        noun = _fee_name(m.group(1) or m.group(4) or "")
        amount = _number(m.group(2) or m.group(3))
        if noun:
            typ = "integer" if isinstance(amount, int) else "number"
            out.append(Setting(name=noun, value=amount, type=typ, source=quote))
    if (m := _HOURS.search(sentence)) is not None:
        hours = {"open": _clock(m.group(2)), "close": _clock(m.group(3))}
        out.append(Setting(name="opening_hours", value=hours, type="object", source=quote))
    return out


def _tables(text: str, source: str) -> list[Setting]:
    """Markdown tables: ``{first column: {other column: value}}`` named after the header."""
    out: list[Setting] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines) - 2:
        head, rule = lines[i].strip(), lines[i + 1].strip()
        if head.startswith("|") and re.fullmatch(r"\|?[\s:\-|]+\|?", rule) and "-" in rule:
            cols = [c.strip() for c in head.strip("|").split("|")]
            rows, j = {}, i + 2
            while j < len(lines) and lines[j].strip().startswith("|"):
                cells = [c.strip() for c in lines[j].strip().strip("|").split("|")]
                if len(cells) == len(cols) and cells[0]:
                    rows[cells[0]] = {
                        identifier(c) or f"col{k}": _cell(v)
                        for k, (c, v) in enumerate(zip(cols[1:], cells[1:], strict=True), 1)
                    }
                j += 1
            name = _noun(" ".join(cols[:2])) or "table"
            if rows:
                where = f"{source}: table {' | '.join(cols)[:120]}"
                out.append(Setting(name=f"{name}_table", value=rows, type="object", source=where))
            i = j
        else:
            i += 1
    return out


def _cell(text: str) -> Any:
    bare = text.replace("$", "").replace("€", "").replace("£", "").replace("%", "").strip()
    if re.fullmatch(r"-?\d+", bare):
        return int(bare)
    if re.fullmatch(r"-?\d+\.\d+", bare):
        return float(bare)
    return text


def extract_settings(tools: Sequence[ToolSpec], policy: str | None = None) -> list[Setting]:
    """The settings the policy and the tool descriptions state, first statement of a name
    winning (the policy before the tools)."""
    texts = [("policy", policy or "")] + [(f"tool {t.name}", t.description) for t in tools]
    found: dict[str, Setting] = {}
    for source, text in texts:
        settings = _tables(text, source)
        for sentence in _SENTENCE.findall(text):
            settings += _from_sentence(sentence, source)
        for setting in settings:
            found.setdefault(setting.name, setting)
    return list(found.values())


def settings_collection(settings: Sequence[Setting]) -> CollectionSchema:
    """The singleton ``settings`` collection: one attribute per setting, its value and its
    source in the description (what a tool author, model or person, reads)."""
    attrs = [Attribute(name=SETTINGS_KEY, type="id")]
    for s in settings:
        text = f"fixed value {json.dumps(s.value)}; from {s.source}"
        attrs.append(Attribute(name=s.name, type=s.type, description=text[:200]))
    return CollectionSchema(
        name=SETTINGS,
        primary_key=SETTINGS_KEY,
        description=f"Singleton: one record, key {SETTINGS_RECORD!r}, holding facts the docs "
        "state that are no records (limits, fees, hours, today's date).",
        attributes=attrs,
        fixed=settings_record(settings),
    )


def settings_record(settings: Sequence[Setting]) -> dict[str, dict[str, Any]]:
    """The ``settings`` collection's content: ``{"settings": {settings_id, name: value...}}``."""
    record: dict[str, Any] = {SETTINGS_KEY: SETTINGS_RECORD}
    record.update({s.name: s.value for s in settings})
    return {SETTINGS_RECORD: record}
