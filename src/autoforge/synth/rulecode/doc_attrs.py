"""Optional attributes the docs or policy name for a collection, found where a write stores them.

Data only shows the attributes its records already have. A domain's text can state more: "Orders
can have other optional attributes based on the actions that have been taken (cancellation
reason, ...)". When such a sentence (one that speaks of *attributes*, *fields* or *properties*
and names the collection) holds, as consecutive words, a name made of a word of a write tool's
name and one of its parameters that no attribute holds (``cancel_order(reason)`` -> ``cancel``
+ ``reason``, stated as "cancellation reason"), that name becomes an optional attribute of the
collection. The draft then stores the parameter there by the existing rule that places a
parameter in ``<words of the tool's name>_<param>`` (:func:`autoforge.synth.rulecode.templates.
existing_field`). Words match when equal, or when the shorter (four letters or more) begins the
longer ("cancel" / "cancellation"). Nothing is added without such a sentence: a parameter with no
stated attribute stays a TODO.

Pure: reads the tool docs, the schema and the text; returns a new schema.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from autoforge.env import Attribute, StateSchema
from autoforge.lexicon import READ_CLASSES, tool_scope
from autoforge.tooldocs import ToolSpec, phrase_in, singular, tokens, word_match

_ATTR_WORDS = frozenset({"attribute", "attributes", "field", "fields", "property", "properties"})
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_TYPES = {"string": "string", "integer": "integer", "number": "number", "boolean": "boolean"}


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def attribute_sentences(text: str, collection: str) -> list[list[str]]:
    """The sentences of ``text`` that speak of attributes and name ``collection`` (as words)."""
    noun = singular(collection).replace("_", " ").split()[-1]
    out = []
    for part in _SENTENCE.split(text):
        ws = _words(part)
        if _ATTR_WORDS & set(ws) and any(word_match(noun, w) for w in ws):
            out.append(ws)
    return out


def _candidates(spec: ToolSpec, schema: StateSchema) -> tuple[str | None, list[tuple[str, str]]]:
    """The tool's collection and ``(attribute name, parameter)`` pairs it could store."""
    scope = tool_scope(spec, schema)
    coll = schema.collection(scope.collection) if scope.collection else None
    if coll is None or scope.cls in READ_CLASSES or scope.cls == "create":
        return None, []
    known = {a.name for a in coll.attributes}
    noun = set(tokens(singular(coll.name))) | set(tokens(coll.name))
    verbs = [w for w in tokens(spec.name) if w not in noun]
    pairs = [
        (f"{w}_{param}", param)
        for param in spec.param_names
        if param != scope.key_param and param not in known
        and not any(a.endswith("_" + param) for a in known)
        for w in verbs
    ]  # fmt: skip
    return coll.name, pairs


def documented_attributes(
    tools: Sequence[ToolSpec], schema: StateSchema, text: str
) -> dict[str, list[Attribute]]:
    """Per collection, the optional attributes ``text`` names for a write's parameters."""
    out: dict[str, list[Attribute]] = {}
    for spec in tools:
        coll, pairs = _candidates(spec, schema)
        if coll is None or not pairs:
            continue
        sentences = attribute_sentences(text, coll)
        for name, param in pairs:
            stated = next((s for s in sentences if phrase_in(tokens(name), [s], "phrase")), None)
            if stated is None or any(a.name == name for a in out.get(coll, [])):
                continue
            prop = spec.parameters.get("properties", {}).get(param, {})
            out.setdefault(coll, []).append(
                Attribute(
                    name=name,
                    type=_TYPES.get(str(prop.get("type")), "string"),  # type: ignore[arg-type]
                    description=f"optional; named by the docs: {' '.join(stated)[:160]}",
                    nullable=True,
                )
            )
    return out


def with_documented_attributes(
    tools: Sequence[ToolSpec], schema: StateSchema, text: str
) -> StateSchema:
    """``schema`` with :func:`documented_attributes` added to their collections."""
    added = documented_attributes(tools, schema, text)
    if not added:
        return schema
    return schema.model_copy(
        update={
            "collections": [
                c.model_copy(update={"attributes": [*c.attributes, *added.get(c.name, [])]})
                for c in schema.collections
            ]
        }
    )
