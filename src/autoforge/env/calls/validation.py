"""Argument validation against a tool's JSON Schema, compiled once per environment.

Most tool schemas are flat objects of strings, numbers, enums and simple arrays. For those a
hand-compiled checker (a few closures) validates in ~1 us; ``jsonschema`` takes ~20-50 us per
call even with a cached validator. Schemas using anything else (``$ref``, ``anyOf``,
``patternProperties``...) fall back to ``jsonschema`` with the declared (or 2020-12) draft.

Messages follow ``jsonschema``'s wording (``'order_id' is a required property``), prefixed
with the path of the offending value when it is not the top level (``items[0].quantity: ...``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError, best_match
from jsonschema.validators import validator_for

from autoforge.env.calls.docregex import PatternTimeout, doc_regex
from autoforge.env.calls.linear_keywords import (
    enum_keys,
    json_key,
    linear_validator_class,
    regex_problem,
)

Check = Callable[[Any, str], str | None]
Validator = Callable[[dict[str, Any]], str | None]

_ANNOTATIONS = frozenset(
    {
        "description",
        "title",
        "default",
        "examples",
        "format",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$schema",
        "$id",
    }
)
_FAST_KEYS = _ANNOTATIONS | {
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
}


def _is_integer(v: Any) -> bool:
    t = type(v)
    return t is int or (t is float and v.is_integer())


_TYPE_TESTS: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: type(v) is str,
    "integer": _is_integer,
    "number": lambda v: type(v) in (int, float),
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
    "array": lambda v: type(v) is list,
    "object": lambda v: type(v) is dict,
}


_Test = Callable[[Any], bool]


class _Unsupported(Exception):
    """The schema needs the general validator."""


def _where(path: str, message: str) -> str:
    return f"{path}: {message}" if path else message


def _type_check(spec: Any) -> Check | None:
    if spec is None:
        return None
    if not isinstance(spec, (str, list)):
        raise _Unsupported
    names = [spec] if isinstance(spec, str) else list(spec)
    if not names or any(n not in _TYPE_TESTS for n in names):
        raise _Unsupported
    tests = [_TYPE_TESTS[n] for n in names]
    expected = ", ".join(repr(n) for n in names)

    if len(tests) == 1:
        test = tests[0]

        def check_one(v: Any, path: str) -> str | None:
            return None if test(v) else _where(path, f"{v!r} is not of type {expected}")

        return check_one

    def check_any(v: Any, path: str) -> str | None:
        if any(t(v) for t in tests):
            return None
        return _where(path, f"{v!r} is not of type {expected}")

    return check_any


def _bound_checks(schema: dict[str, Any]) -> list[Check]:
    checks: list[Check] = []
    number = (int, float)

    def add(
        key: str, applies: Callable[[Any], bool], ok: Callable[[Any, Any], bool], msg: str
    ) -> None:
        if key not in schema:
            return
        limit = schema[key]

        def check(v: Any, path: str) -> str | None:
            if applies(v) and not ok(v, limit):
                return _where(path, msg.format(v=v, limit=limit))
            return None

        checks.append(check)

    def is_num(v: Any) -> bool:
        return type(v) in number

    add("minimum", is_num, lambda v, m: v >= m, "{v!r} is less than the minimum of {limit!r}")
    add("maximum", is_num, lambda v, m: v <= m, "{v!r} is greater than the maximum of {limit!r}")
    add(
        "exclusiveMinimum",
        is_num,
        lambda v, m: v > m,
        "{v!r} is less than or equal to the minimum of {limit!r}",
    )
    add(
        "exclusiveMaximum",
        is_num,
        lambda v, m: v < m,
        "{v!r} is greater than or equal to the maximum of {limit!r}",
    )
    is_str = _TYPE_TESTS["string"]
    is_list = _TYPE_TESTS["array"]
    add("minLength", is_str, lambda v, m: len(v) >= m, "{v!r} is too short")
    add("maxLength", is_str, lambda v, m: len(v) <= m, "{v!r} is too long")
    add("minItems", is_list, lambda v, m: len(v) >= m, "{v!r} is too short")
    add("maxItems", is_list, lambda v, m: len(v) <= m, "{v!r} is too long")
    if "pattern" in schema:
        checks.append(_pattern_check(schema["pattern"]))
    return checks


def _pattern_check(source: Any) -> Check:
    """``pattern`` run by :mod:`autoforge.env.calls.docregex` (never backtracking in the host)."""
    if not isinstance(source, str):
        raise _Unsupported
    regex = doc_regex(source)

    def check(v: Any, path: str) -> str | None:
        if type(v) is not str:
            return None
        try:
            if regex.search(v):
                return None
        except PatternTimeout as exc:
            return _where(path, f"{v!r} was refused: {exc}")
        return _where(path, f"{v!r} does not match {source!r}")

    return check


def _compile(schema: Any) -> Check:
    """A checker for ``schema`` or :class:`_Unsupported`."""
    if schema is True or schema == {}:
        return lambda v, path: None
    if not isinstance(schema, dict) or not set(schema) <= _FAST_KEYS:
        raise _Unsupported
    checks: list[Check] = []
    type_check = _type_check(schema.get("type"))
    if type_check is not None:
        checks.append(type_check)
    if "enum" in schema:
        checks.append(_enum_check(schema["enum"]))
    if "const" in schema:
        checks.append(_enum_check([schema["const"]], const=True))
    checks.extend(_bound_checks(schema))
    if "items" in schema:
        checks.append(_items_check(_compile(schema["items"])))
    if {"properties", "required", "additionalProperties"} & set(schema):
        checks.append(_object_check(schema))
    if len(checks) == 1:
        return checks[0]

    def check_all(v: Any, path: str) -> str | None:
        for check in checks:
            error = check(v, path)
            if error is not None:
                return error
        return None

    return check_all


def _enum_check(values: list[Any], const: bool = False) -> Check:
    """A set lookup of the value's :func:`json_key`: one step whatever the enum's length."""
    if not isinstance(values, list):
        raise _Unsupported
    keys = enum_keys(values)

    def check(v: Any, path: str) -> str | None:
        if json_key(v) in keys:
            return None
        if const:
            return _where(path, f"{values[0]!r} was expected")
        return _where(path, f"{v!r} is not one of {values!r}")

    return check


def _items_check(item: Check) -> Check:
    def check(v: Any, path: str) -> str | None:
        if type(v) is not list:
            return None
        for i, element in enumerate(v):
            error = item(element, f"{path}[{i}]")
            if error is not None:
                return error
        return None

    return check


def _object_check(schema: dict[str, Any]) -> Check:
    props = {name: _compile(sub) for name, sub in schema.get("properties", {}).items()}
    required = list(schema.get("required", []))
    extra = schema.get("additionalProperties", True)
    if not isinstance(extra, bool):
        raise _Unsupported

    def check(v: Any, path: str) -> str | None:
        if type(v) is not dict:
            return None
        for name in required:
            if name not in v:
                return _where(path, f"{name!r} is a required property")
        if not extra:
            unexpected = [k for k in v if k not in props]
            if unexpected:
                listed = ", ".join(repr(k) for k in unexpected)
                verb = "was" if len(unexpected) == 1 else "were"
                return _where(
                    path, f"Additional properties are not allowed ({listed} {verb} unexpected)"
                )
        for name, value in v.items():
            sub = props.get(name)
            if sub is not None:
                error = sub(value, f"{path}.{name}" if path else name)
                if error is not None:
                    return error
        return None

    return check


def schema_problem(schema: Any) -> str | None:
    """Why ``schema`` is not a valid JSON Schema, or None."""
    if not isinstance(schema, dict):
        return "the schema must be a JSON object"
    cls = validator_for(schema, default=Draft202012Validator)
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        return exc.message
    return regex_problem(schema)


def _general(schema: dict[str, Any]) -> Validator:
    cls = linear_validator_class(validator_for(schema, default=Draft202012Validator))
    validator = cls(schema)

    def validate(arguments: dict[str, Any]) -> str | None:
        error = best_match(validator.iter_errors(arguments))
        if error is None:
            return None
        path = ""
        for part in error.absolute_path:
            path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
        return _where(path, error.message)

    return validate


def compile_validator(schema: dict[str, Any]) -> tuple[Validator, bool]:
    """``(validate, fast)``: ``validate(arguments)`` is None or the error message.

    ``fast`` says whether the hand-compiled checker is used (else ``jsonschema``).
    """
    try:
        check = _compile(schema)
    except _Unsupported:
        return _general(schema), False

    def validate(arguments: dict[str, Any]) -> str | None:
        return check(arguments, "")

    return validate, True
