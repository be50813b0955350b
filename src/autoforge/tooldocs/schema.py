"""Normalisation shared by all importers: tool names, parameter schemas, JSON Schema checks.

The rules every :class:`ToolSpec` obeys after import:

* ``name`` is an ASCII Python identifier of at most 64 characters, not a keyword (tools become
  Python functions and OpenAI-style tool names);
* ``parameters`` is an object schema with ``properties`` and ``required`` lists, valid against its
  JSON Schema metaschema (draft 2020-12 unless ``$schema`` says otherwise), without any ``$ref``;
* ``returns`` (when given) is a valid JSON Schema without ``$ref``.
"""

from __future__ import annotations

import functools
import json
import keyword
import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from autoforge.tooldocs.naming import break_camel
from autoforge.tooldocs.source import pointer_join
from autoforge.tooldocs.spec import DocParseError, DocWarning

MAX_NAME_LENGTH = 64
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

# Keywords whose value is a map of name -> subschema, one subschema, or a list of subschemas.
SCHEMA_MAP_KEYS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_ONE_KEYS = (
    "additionalProperties", "items", "not", "contains", "if", "then", "else", "propertyNames",
    "unevaluatedItems", "unevaluatedProperties", "additionalItems", "contentSchema",
)  # fmt: skip
SCHEMA_LIST_KEYS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")

SubschemaFn = Callable[[Any, str], Any]


def iter_subschemas(schema: dict[str, Any]) -> Iterator[tuple[Any, tuple[str | int, ...]]]:
    """The direct subschemas of ``schema`` with their pointer tokens, in document order."""
    for key, value in schema.items():
        if key in SCHEMA_MAP_KEYS and isinstance(value, dict):
            for name, sub in value.items():
                yield sub, (key, name)
        elif key in SCHEMA_LIST_KEYS and isinstance(value, list):
            for i, sub in enumerate(value):
                yield sub, (key, i)
        elif key in SCHEMA_ONE_KEYS and isinstance(value, dict | bool):
            yield value, (key,)


def map_subschemas(schema: dict[str, Any], fn: SubschemaFn, pointer: str = "") -> dict[str, Any]:
    """A copy of ``schema`` with ``fn(subschema, pointer)`` applied to each direct subschema.

    Values that are data rather than schemas (``default``, ``enum``, ``examples``, ...) are
    copied untouched, so a property literally called ``default`` is still treated as a schema.
    """
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in SCHEMA_MAP_KEYS and isinstance(value, dict):
            ptr = pointer_join(pointer, key)
            out[key] = {name: fn(sub, pointer_join(ptr, name)) for name, sub in value.items()}
        elif key in SCHEMA_LIST_KEYS and isinstance(value, list):
            ptr = pointer_join(pointer, key)
            out[key] = [fn(sub, pointer_join(ptr, i)) for i, sub in enumerate(value)]
        elif key in SCHEMA_ONE_KEYS and isinstance(value, dict | bool):
            out[key] = fn(value, pointer_join(pointer, key))
        else:
            out[key] = copy_json(value)
    return out


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (much faster than :func:`copy.deepcopy` for this case)."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


def is_tool_name(name: object) -> bool:
    """Whether ``name`` can be a tool name: an ASCII identifier, not a keyword, <= 64 chars,
    not starting with an underscore (dunder and private names such as ``__import__`` would
    shadow Python's own names once the tools are Python functions)."""
    return (
        isinstance(name, str)
        and _IDENTIFIER.fullmatch(name) is not None
        and not name.startswith("_")
        and not keyword.iskeyword(name)
        and len(name) <= MAX_NAME_LENGTH
    )


def sanitize_name(raw: str) -> str:
    """A snake_case identifier derived from ``raw`` (``"getPet-ById"`` -> ``"get_pet_by_id"``)."""
    text = break_camel(raw)
    text = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", text)
    text = re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower() or "tool"
    if text[0].isdigit():
        text = "op_" + text
    text = text[:MAX_NAME_LENGTH].rstrip("_")
    if keyword.iskeyword(text):
        text += "_"
    return text


def check_tool_name(name: object, *, file: str, pointer: str) -> str:
    """``name`` when it is a valid tool name; else a :class:`DocParseError` saying how to fix it."""
    if name is None or name == "":
        raise DocParseError(
            "tool has no name",
            file=file,
            pointer=pointer,
            hint='give every tool a "name" (letters, digits and underscores)',
        )
    if not isinstance(name, str):
        raise DocParseError(
            f"tool name must be a string, got {type(name).__name__}",
            file=file,
            pointer=pointer,
            hint='write the name as a JSON string, e.g. "name": "get_order"',
        )
    if not is_tool_name(name):
        why = (
            "longer than 64 characters" if len(name) > MAX_NAME_LENGTH else "not a valid identifier"
        )
        if keyword.iskeyword(name):
            why = "a Python keyword"
        elif name.startswith("__") and name.endswith("__") and len(name) > 4:
            why = "a dunder name, reserved for Python's own names"
        elif name.startswith("_") and _IDENTIFIER.fullmatch(name):
            why = "a private name (it starts with an underscore)"
        raise DocParseError(
            f"tool name {name!r} is {why} (tools become Python functions)",
            file=file,
            pointer=pointer,
            hint=f"rename it, e.g. to {sanitize_name(name)!r} (letters, digits, underscores)",
        )
    return name


def description_text(value: object, *, file: str, pointer: str) -> str:
    """The description as a string (None -> ``""``); other types are an error."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DocParseError(
            f"description must be a string, got {type(value).__name__}",
            file=file,
            pointer=pointer,
            hint="write the description as one JSON string",
        )
    return value.strip()


def check_json_schema(schema: Any, *, file: str, pointer: str, what: str) -> None:
    """Raise :class:`DocParseError` unless ``schema`` is valid against its metaschema.

    Equivalent to ``check_schema`` but node by node: each subschema is checked with its own
    subschemas replaced by ``{}``, and results are cached by the node's content. Expanded
    ``$ref`` trees repeat the same nodes many times, and a whole-tree check of the 2020-12
    metaschema costs about half a millisecond per node, so this is what keeps large OpenAPI
    documents fast.
    """
    validator = _meta_validator(validator_for(schema, default=Draft202012Validator))
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(schema, ())]
    while stack:
        node, path = stack.pop()
        problem = _node_problem(validator, node)
        if problem is not None:
            raise DocParseError(
                f"{what} is not a valid JSON Schema: {problem[0]}",
                file=file,
                pointer=pointer_join(pointer, *path, *problem[1]),
                hint="correct the schema keyword there; "
                "see https://json-schema.org/understanding-json-schema",
            )
        if isinstance(node, dict):
            subs = [(sub, path + tokens) for sub, tokens in iter_subschemas(node)]
            stack.extend(reversed(subs))


_Problem = tuple[str, tuple[str | int, ...]]
_NODE_CACHE: dict[tuple[str, str], _Problem | None] = {}
_NODE_CACHE_MAX = 100_000


@functools.cache
def _meta_validator(cls: type[Validator]) -> Validator:
    return cls(cls.META_SCHEMA, format_checker=cls.FORMAT_CHECKER)


def _node_problem(validator: Validator, node: Any) -> _Problem | None:
    """The metaschema error of one node (subschemas stubbed out), or None."""
    if isinstance(node, bool):
        return None
    if not isinstance(node, dict):
        return f"{node!r} is not of type 'object', 'boolean'", ()
    shallow = _shallow(node)
    try:
        key: tuple[str, str] | None = (
            type(validator).__name__,
            json.dumps(shallow, sort_keys=True),
        )
    except (TypeError, ValueError):
        key = None
    if key is not None and key in _NODE_CACHE:
        return _NODE_CACHE[key]
    error = best_match(validator.iter_errors(shallow))
    problem = None if error is None else (error.message, tuple(error.absolute_path))
    if key is not None:
        if len(_NODE_CACHE) >= _NODE_CACHE_MAX:
            _NODE_CACHE.clear()
        _NODE_CACHE[key] = problem
    return problem


def _shallow(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with each direct subschema replaced by ``{}`` (checked on its own)."""
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in SCHEMA_MAP_KEYS and isinstance(value, dict):
            out[key] = {name: {} for name in value}
        elif key in SCHEMA_LIST_KEYS and isinstance(value, list):
            out[key] = [{}] * len(value)
        elif key in SCHEMA_ONE_KEYS and isinstance(value, dict | bool):
            out[key] = {}
        else:
            out[key] = value
    return out


def normalize_parameters(schema: Any, *, file: str, pointer: str) -> dict[str, Any]:
    """The parameters schema as an object schema with ``properties`` and ``required`` lists.

    ``None`` (no parameters documented) becomes the empty object schema. A schema of another
    type, or one that is not valid JSON Schema, is a :class:`DocParseError`.
    """
    if schema is None:
        return {"type": "object", "properties": {}, "required": []}
    if not isinstance(schema, dict):
        raise DocParseError(
            f"parameters must be a JSON object schema, got a JSON {_json_type(schema)}",
            file=file,
            pointer=pointer,
            hint='write {"type": "object", "properties": {...}, "required": [...]}',
        )
    kind = schema.get("type", "object")
    if kind != "object":
        raise DocParseError(
            f'parameters must be an object schema ("type": "object"), got "type": {kind!r}',
            file=file,
            pointer=pointer_join(pointer, "type"),
            hint='wrap the argument: {"type": "object", "properties": {"value": <this schema>}}',
        )
    out = dict(schema)
    out["type"] = "object"
    out.setdefault("properties", {})
    out.setdefault("required", [])
    check_json_schema(out, file=file, pointer=pointer, what="parameters")
    missing = [r for r in out["required"] if r not in out["properties"]]
    if missing:
        warnings.warn(
            DocWarning(f"{file}#{pointer}: required {missing} not among the properties"),
            stacklevel=2,
        )
    return out


def normalize_returns(schema: Any, *, file: str, pointer: str) -> dict[str, Any] | None:
    """The result schema (None when absent); must be a valid JSON Schema object."""
    if schema is None:
        return None
    if not isinstance(schema, dict):
        raise DocParseError(
            f"result schema must be a JSON object, got a JSON {_json_type(schema)}",
            file=file,
            pointer=pointer,
            hint='describe the result as a JSON Schema, e.g. {"type": "object", ...}',
        )
    check_json_schema(schema, file=file, pointer=pointer, what="result schema")
    return fold_all_of(schema)


def fold_all_of(schema: Any, depth: int = 0) -> Any:
    """``schema`` with each ``allOf`` of object schemas folded into one object: the parts'
    properties and required names united with the node's own (its own win). A record that
    extends a base (``{properties: {sku}, allOf: [Resource]}``, Resource holding ``name``)
    then shows every field to whoever reads its properties. An ``allOf`` with any part that is
    not an object schema (a reference to an enum with a default beside it) stays as written."""
    if not isinstance(schema, dict) or depth > 32:
        return schema
    out = map_subschemas(schema, lambda sub, _: fold_all_of(sub, depth + 1))
    parts = out.get("allOf")
    if not isinstance(parts, list) or not parts or out.get("type") not in (None, "object"):
        return out
    if not all(_object_schema(p) for p in parts):
        return out
    props: dict[str, Any] = {}
    required: list[str] = []
    for part in [*parts, out]:
        props.update(part.get("properties") or {})
        required += [r for r in part.get("required") or [] if r not in required]
    folded = {k: v for k, v in out.items() if k != "allOf"}
    folded.update(type="object", properties=props)
    if required:
        folded["required"] = required
    return folded


def _object_schema(part: Any) -> bool:
    """Whether an ``allOf`` part is a plain object schema (properties, no combinators left)."""
    if not isinstance(part, dict) or any(k in part for k in ("allOf", "anyOf", "oneOf", "$ref")):
        return False
    return part.get("type") == "object" or (part.get("type") is None and "properties" in part)


def _json_type(value: Any) -> str:
    names = {list: "array", str: "string", bool: "boolean", int: "number", float: "number"}
    return "null" if value is None else names.get(type(value), type(value).__name__)
