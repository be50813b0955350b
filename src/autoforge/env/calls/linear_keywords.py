"""``jsonschema`` keywords the host runs on a document's schemas, in linear time.

Argument validation runs in the host, on untrusted schemas and untrusted arguments, so no
keyword may take more than linear time in either:

- ``pattern``, ``patternProperties`` and ``additionalProperties`` (the names its patterns leave
  over) run their regexes on :mod:`autoforge.env.calls.docregex` instead of Python's backtracking
  ``re``. ``unevaluatedProperties`` next to ``patternProperties`` would still reach ``re``
  inside ``jsonschema``, so :func:`regex_problem` refuses that pairing (and any pattern that
  does not compile) when the schema is checked;
- ``uniqueItems`` hashes a canonical form of each item: ``jsonschema`` compares unhashable
  items pairwise, and 4,000 distinct objects took 30 s (a 1 MiB body of them, days);
- ``enum`` looks the value up in a set of those forms, built once per list, instead of
  comparing it with every allowed value (a long enum times a long array of arguments).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from jsonschema import ValidationError, validators
from jsonschema.protocols import Validator

from autoforge.env.calls.docregex import PatternTimeout, doc_regex

#: Keys whose values are data, not subschemas: a "pattern" key inside them is no regex.
_DATA_KEYS = frozenset({"enum", "const", "default", "examples", "example"})


def _matches(pattern: str, text: str) -> bool:
    return doc_regex(pattern).search(text)


def _pattern(validator: Any, pattern: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "string") or not isinstance(pattern, str):
        return
    try:
        if not _matches(pattern, instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")
    except PatternTimeout as exc:
        yield ValidationError(f"{instance!r} was refused: {exc}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            try:
                hit = _matches(pattern, key)
            except PatternTimeout as exc:
                yield ValidationError(f"property {key!r} was refused: {exc}")
                continue
            if hit:
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _extras(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    """The properties neither ``properties`` nor a ``patternProperties`` regex covers (a
    regex out of time covers nothing, so the name stays refused)."""
    named = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    extras = []
    for key in instance:
        if key in named:
            continue
        try:
            if any(_matches(p, key) for p in patterns):
                continue
        except PatternTimeout:
            pass
        extras.append(key)
    return extras


def _additional_properties(validator: Any, extra: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    extras = _extras(instance, schema)
    if validator.is_type(extra, "object"):
        for key in extras:
            yield from validator.descend(instance[key], extra, path=key)
    elif not extra and extras:
        listed = ", ".join(repr(k) for k in sorted(extras))
        if "patternProperties" in schema:
            verb = "does" if len(extras) == 1 else "do"
            patterns = ", ".join(repr(p) for p in sorted(schema["patternProperties"]))
            yield ValidationError(f"{listed} {verb} not match any of the regexes: {patterns}")
        else:
            verb = "was" if len(extras) == 1 else "were"
            yield ValidationError(
                f"Additional properties are not allowed ({listed} {verb} unexpected)"
            )


def json_key(value: Any) -> Any:
    """A hashable form of a JSON value, equal exactly when JSON Schema calls two values equal
    (``1 == 1.0``, but ``true != 1``; object key order does not matter)."""
    if isinstance(value, dict):
        return ("object", frozenset((k, json_key(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("array", tuple(json_key(v) for v in value))
    if isinstance(value, bool):
        return ("bool", value)
    return ("scalar", value)


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not unique or not validator.is_type(instance, "array"):
        return
    seen: set[Any] = set()
    for item in instance:
        key = json_key(item)
        if key in seen:
            yield ValidationError(f"{instance!r} has non-unique elements")
            return
        seen.add(key)


#: enum lists seen by :func:`_enum`, by id, each kept with its keys (the list itself is held,
#: so its id cannot be reused while the entry lives); schemas are few and long-lived.
_ENUM_KEYS: dict[int, tuple[Any, frozenset[Any]]] = {}
_ENUM_KEYS_MAX = 4096


def enum_keys(values: Any) -> frozenset[Any]:
    """The :func:`json_key` of each allowed value (computed once per enum list)."""
    hit = _ENUM_KEYS.get(id(values))
    if hit is not None and hit[0] is values:
        return hit[1]
    keys = frozenset(json_key(v) for v in values)
    if len(_ENUM_KEYS) < _ENUM_KEYS_MAX:
        _ENUM_KEYS[id(values)] = (values, keys)
    return keys


def _enum(validator: Any, enums: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if not isinstance(enums, list):
        return
    if json_key(instance) not in enum_keys(enums):
        yield ValidationError(f"{instance!r} is not one of {enums!r}")


_KEYWORDS = {
    "enum": _enum,
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "uniqueItems": _unique_items,
}


def linear_validator_class(cls: type[Validator]) -> type[Validator]:
    """``cls`` with its regex keywords run on RE2 (or the timed fallback) and a linear
    ``uniqueItems``."""
    return validators.extend(cls, _KEYWORDS)


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for key, value in node.items():
            if key not in _DATA_KEYS:
                yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def regex_problem(schema: Any) -> str | None:
    """Why the schema's regexes cannot be run safely, or None."""
    nodes = list(_walk(schema))
    sources: list[str] = []
    for node in nodes:
        if isinstance(node.get("pattern"), str):
            sources.append(node["pattern"])
        if isinstance(node.get("patternProperties"), dict):
            sources.extend(str(k) for k in node["patternProperties"])
    for source in sources:
        try:
            doc_regex(source)
        except re.error as exc:
            return f"pattern {source!r} is not a valid regular expression: {exc}"
    if any("patternProperties" in n for n in nodes) and any(
        "unevaluatedProperties" in n for n in nodes
    ):
        return (
            "'unevaluatedProperties' together with 'patternProperties' is not supported (their "
            "regexes would be run with backtracking); use 'additionalProperties' instead"
        )
    return None
