"""The state design's model calls: a bounded compact answer, a hard call budget, repair.

* **Compact answer.** The model answers ``{"collections": [{"name", "key", "add": [lines]}]}``
  with one short line per attribute (``price: number``, ``user_id: id -> users``,
  ``status: enum open|done``), parsed by :func:`parse_line`. The JSON schema sent with the
  request bounds every list and string (``maxItems``/``maxLength``), so a constrained decoder
  (llama.cpp) cannot ramble past ``max_tokens`` and the answer is complete JSON.
* **Budget.** Every request sent counts against :class:`Budget`: the client is asked with
  ``retries=0``, so a validation re-ask is never a hidden extra call.
* **Evidence.** An attribute the model adds is kept only when the documents state it: its
  name, as words, occurs in the tools' names, descriptions or parameters or in the policy
  (``membership tier`` for ``membership_tier``); a name found nowhere is a guess.
* **Repair.** An answer that does not validate (cut off, a list longer than asked for, stray
  text) is repaired deterministically (``json_repair``, then trimmed to the bounds) instead of
  being re-asked; only an answer with nothing usable is a failure.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Annotated, Any, get_args

import json_repair
from pydantic import BaseModel, Field, StringConstraints, ValidationError

from autoforge.env import Attribute, AttributeType
from autoforge.lexicon import doc_field_names
from autoforge.llm import LLMClient, LLMFailure, Message
from autoforge.tooldocs import ToolSpec, identifier, is_id_like, singular, tokens

MAX_COLLECTIONS = 12
MAX_LINES = 10
NAME_CHARS = 40
LINE_CHARS = 64

_Name = Annotated[str, StringConstraints(max_length=NAME_CHARS)]
_Line = Annotated[str, StringConstraints(max_length=LINE_CHARS)]

_TYPES: dict[str, AttributeType] = {t: t for t in get_args(AttributeType)}
_ALIASES: dict[str, AttributeType] = {
    "str": "string",
    "text": "string",
    "int": "integer",
    "float": "number",
    "decimal": "number",
    "bool": "boolean",
    "timestamp": "datetime",
    "list": "array",
    "dict": "object",
    "json": "object",
}


class CompactCollection(BaseModel):
    """One collection of a compact design answer: its name, key, and attribute lines to add."""

    name: _Name
    key: _Name = ""
    add: list[_Line] = Field(default_factory=list, max_length=MAX_LINES)


class CompactDesign(BaseModel):
    """The compact design answer (see the module docstring)."""

    collections: list[CompactCollection] = Field(default_factory=list, max_length=MAX_COLLECTIONS)


def max_tokens_for(collections: int) -> int:
    """A generation cap that a bounded answer for ``collections`` collections fits in (about
    10 tokens per attribute line, 15 per collection head), so a cut-off is rare but a
    runaway answer cannot cost more."""
    per = 15 + 8 * 10
    return min(1200, 60 + per * max(1, min(collections, MAX_COLLECTIONS)))


_LINE = re.compile(r"^\s*[-*\"']*\s*([A-Za-z_][\w .]*?)\s*(?:[:=(]\s*(.*?))?[\s\"',)]*$")
_REF = re.compile(r"(?:->|→|references?|ref)\s*:?\s*([A-Za-z_]\w*)")


def parse_line(line: str) -> Attribute | None:
    """One attribute from a compact line: ``name: type``, ``name: id -> collection`` or
    ``name: enum a|b|c``; a bare name is a string (an id when id-like). None for a line with
    no usable name."""
    match = _LINE.match(line.replace("`", ""))
    if match is None:
        return None
    name = identifier(match.group(1))
    if not name or name in _TYPES:
        return None
    rest = (match.group(2) or "").strip()
    word = rest.split()[0].lower().strip(",;|") if rest else ""
    typ: AttributeType = _TYPES.get(word) or _ALIASES.get(word) or "string"
    ref_match = _REF.search(rest)
    ref = identifier(ref_match.group(1)) if ref_match else None
    if ref or (not word and is_id_like(name)):
        typ = "id" if typ not in ("array",) else typ
    enum = None
    if typ == "enum":
        values = [v.strip(" '\"[](){}") for v in re.split(r"[|,/]", rest[len(word) :])]
        enum = [v for v in values if v][:20] or None
        typ = "enum" if enum else "string"
    return Attribute(name=name, type=typ, enum=enum, references=ref)


def parse_lines(lines: list[str]) -> list[Attribute]:
    """The attributes of ``lines``, first mention of a name wins, unusable lines skipped."""
    out: dict[str, Attribute] = {}
    for line in lines:
        attr = parse_line(line)
        if attr is not None:
            out.setdefault(attr.name, attr)
    return list(out.values())


class Budget:
    """At most ``limit`` requests to the model for one state design (re-asks included)."""

    def __init__(self, limit: int) -> None:
        self.limit, self.used = limit, 0

    @property
    def left(self) -> int:
        return self.limit - self.used

    def take(self) -> bool:
        if self.used >= self.limit:
            return False
        self.used += 1
        return True


def _bounded(value: Any) -> Any:
    """A repaired answer cut to the schema's bounds (too many items, too long strings)."""
    if not isinstance(value, dict):
        return {"collections": []}
    colls = value.get("collections")
    if not isinstance(colls, list):
        return {"collections": []}
    out = []
    for c in colls[:MAX_COLLECTIONS]:
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            continue
        add = c.get("add")
        lines = (
            [str(x)[:LINE_CHARS] for x in add if isinstance(x, (str, int, float))]
            if isinstance(add, list)
            else []
        )
        key = c.get("key")
        key = key if isinstance(key, str) else ""
        out.append({"name": c["name"][:NAME_CHARS], "key": key[:NAME_CHARS],
                    "add": lines[:MAX_LINES]})  # fmt: skip
    return {"collections": out}


def repair(text: str) -> CompactDesign | None:
    """A compact answer recovered from output that did not validate, or None when nothing
    usable is in it (no collection with a name)."""
    try:
        value = json_repair.loads(text or "")
    except (ValueError, RecursionError):
        return None
    try:
        design = CompactDesign.model_validate(_bounded(value))
    except ValidationError:
        return None
    return design if design.collections else None


async def ask(
    client: LLMClient,
    messages: list[Message],
    budget: Budget,
    *,
    purpose: str,
    collections: int,
    notes: list[str],
) -> CompactDesign | None:
    """One request within ``budget`` (None when it is spent); an invalid answer is repaired,
    not re-asked (``notes`` records that). Raises ``LLMFailure`` when nothing is usable."""
    if not budget.take():
        return None
    try:
        return await client.structured(
            messages,
            CompactDesign,
            role="synthesizer",
            purpose=purpose,
            max_tokens=max_tokens_for(collections),
            retries=0,
        )
    except LLMFailure as exc:
        output = str(exc.attempts[-1].get("output") or "") if exc.attempts else ""
        fixed = repair(output) if output else None
        if fixed is None:
            raise
        notes.append(f"{purpose}: invalid answer repaired without a new call")
        return fixed


def docs_words(tools: Sequence[ToolSpec], policy: str | None = None) -> str:
    """The documents' text (tool names and descriptions, parameter names, descriptions and
    enum values, the fields of returned records, the policy) as singular lower-case words,
    space-separated and -padded; one field name per chunk, so no phrase spans two."""
    parts = [policy or "", *sorted(doc_field_names(tools))]
    for spec in tools:
        parts += [spec.name, spec.description]
        for name, prop in spec.parameters.get("properties", {}).items():
            prop = prop if isinstance(prop, dict) else {}
            parts += [name, str(prop.get("description", ""))]
            parts += [str(v) for v in prop.get("enum") or []]
    chunks = (" ".join(singular(w) for w in tokens(text)) for text in parts)
    return " " + " | ".join(c for c in chunks if c) + " "


def stated(name: str, words: str) -> bool:
    """Whether attribute ``name`` occurs, as consecutive words, in ``words`` (see
    :func:`docs_words`): ``due_date`` in "... the due date of ...", ``prices`` as "price"."""
    phrase = " ".join(singular(w) for w in tokens(name))
    return bool(phrase) and f" {phrase} " in words
