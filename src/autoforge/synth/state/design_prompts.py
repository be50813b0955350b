"""Prompts of the state design's model calls, sized for a 0.5B model on one CPU thread.

The cost of a call on such a model is its prompt (processed at some hundred tokens a second)
plus its answer (generated at some ten tokens a second), so both are kept small:

* the documents reach the model summarised: one line per tool (name, parameters with their
  types, the first sentence of its description), shortened further until the whole listing
  fits a character bound; a large schema is never sent whole, only its field names;
* the model is shown what the documents and rules already give (collections, keys, known
  attributes) and asked only for what is missing, one short line per attribute
  (``name: type``) instead of a JSON object per attribute.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from autoforge.llm import Message
from autoforge.synth.modelcode.prompts import clip
from autoforge.tooldocs import ToolSpec

LINE_TYPES = "string, integer, number, boolean, date, datetime, object, array"
DOCS_LIMIT = 3000
"""Characters of tool summary in one prompt (about 800 tokens): ~30 tools at full detail."""
POLICY_LIMIT = 600
KNOWN_LIMIT = 1500
"""Characters of the known-collections listing (field names only, however large the schemas)."""

_SYSTEM = "You design databases for simulated apps. Answer in JSON."
_FORMAT = (
    'Write each attribute as one short line "name: type" (type one of '
    f'{LINE_TYPES}); "name: id -> collection" for the key of a record of another collection; '
    '"name: enum a|b|c" for a field with fixed values.'
)
_EXAMPLE = (
    'Example answer for a greenhouse app: {"collections": [{"name": "plantings", "key": '
    '"planting_id", "add": ["bed_id: id -> beds", "sown_on: date", '
    '"status: enum growing|harvested"]}]}'
)


def _param_type(schema: Mapping[str, Any]) -> str:
    if schema.get("enum"):
        return "enum " + "|".join(str(v) for v in schema["enum"][:6])
    typ = str(schema.get("type", "any"))
    items = schema.get("items")
    if typ == "array" and isinstance(items, Mapping):
        typ = f"array of {items.get('type', 'any')}"
    return typ


def tool_summary(spec: ToolSpec, detail: int = 2) -> str:
    """One line for one tool; ``detail`` 2: typed parameters and first sentence (100 chars),
    1: parameter names and 60 chars, 0: parameter names only. ``*`` marks required ones."""
    props = spec.parameters.get("properties", {})
    params = []
    for name in spec.param_names:
        star = "*" if name in spec.required else ""
        typed = f": {_param_type(props.get(name) or {})}" if detail >= 2 else ""
        params.append(f"{name}{star}{typed}")
    line = f"- {spec.name}({', '.join(params)})"
    limit = {2: 100, 1: 60}.get(detail, 0)
    first = spec.description.strip().split("\n")[0].split(". ")[0]
    return f"{line}: {clip(first, limit)}" if limit and first else line


def docs_summary(tools: Sequence[ToolSpec], limit: int = DOCS_LIMIT) -> str:
    """All tools, one line each, at the most detail that fits ``limit`` characters; at the
    least detail the listing is cut (and says how many tools were left off)."""
    for detail in (2, 1, 0):
        lines = [tool_summary(t, detail) for t in tools]
        text = "\n".join(lines)
        if len(text) <= limit:
            return text
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > limit - 40:
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join([*kept, f"(and {len(lines) - len(kept)} more tools)"])


def known_listing(known: Iterable[tuple[str, str, Sequence[str]]], limit: int = KNOWN_LIMIT) -> str:
    """``- name (key k): a, b, c`` per collection: field names only, cut to ``limit`` chars."""
    lines = []
    for name, key, attrs in known:
        rest = [a for a in attrs if a != key]
        lines.append(f"- {name} (key {key})" + (f": {', '.join(rest)}" if rest else ""))
    text = "\n".join(clip(line, 240) for line in lines)
    return clip(text, limit)


def design_messages(
    tools: Sequence[ToolSpec],
    known: Iterable[tuple[str, str, Sequence[str]]],
    policy: str | None = None,
    *,
    new_collections: bool = True,
    context: Iterable[tuple[str, str, Sequence[str]]] = (),
) -> list[Message]:
    """The one design call: the known collections and what their records still need.

    ``new_collections``: whether the model may propose collections not listed (without
    schemas); with schemas the listed ones are all it is asked about, and ``context`` lists
    the collections the docs define (field names only) for the references.
    """
    pol = f"\nPolicy excerpt:\n{clip(policy, POLICY_LIMIT)}\n" if policy else ""
    ctx = known_listing(context)
    ctx = f"Collections the documents define (complete):\n{ctx}\n\n" if ctx else ""
    extra = (
        " Add a collection only if the tools need one that is not listed."
        if new_collections
        else " Answer only for the collections listed."
    )
    user = (
        f"Tools of an application (* = required):\n{docs_summary(tools)}\n{pol}\n{ctx}"
        f"Collections of its database, with the attributes known so far:\n"
        f"{known_listing(known) or '(none found yet)'}\n\n"
        "For each collection give name, key, and in add only the attributes its records "
        "still need that are not listed (values the tools return, look up, filter on or "
        f"change); an empty add when none are missing.{extra} {_FORMAT}\n{_EXAMPLE}"
    )
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def feedback_messages(
    name: str,
    key: str,
    attrs: Sequence[str],
    missing: Iterable[tuple[str, str, str]],
    tools: Sequence[ToolSpec],
) -> list[Message]:
    """Where the tool parameters no attribute holds live: ``missing`` are (parameter, tool,
    description); the answer names the attribute of collection ``name`` for each."""
    asked = "\n".join(f"- {p} (used by {t}: {clip(d, 80)})" for p, t, d in missing)
    user = (
        f"Tools of an application (* = required):\n{docs_summary(tools, DOCS_LIMIT // 2)}\n\n"
        f"Collection:\n{known_listing([(name, key, attrs)])}\n\n"
        f"These tool parameters name a value no attribute holds:\n{asked}\n"
        f"Give the attributes of `{name}` that hold them, in add. {_FORMAT}\n{_EXAMPLE}"
    )
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]
