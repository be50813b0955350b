"""The compiled argument validators agree with jsonschema and are used for simple schemas."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from autoforge.env.calls.validation import compile_validator

SCHEMAS: list[dict[str, Any]] = [
    {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "description": "id"},
            "qty": {"type": "integer", "minimum": 1, "maximum": 10},
            "price": {"type": "number", "exclusiveMinimum": 0},
            "gift": {"type": "boolean"},
            "reason": {"type": "string", "enum": ["a", "b"]},
            "tags": {"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": 2},
            "note": {"type": ["string", "null"], "maxLength": 5},
            "code": {"type": "string", "pattern": "^[A-Z]{2}[0-9]+$"},
            "addr": {
                "type": "object",
                "properties": {"zip": {"type": "string"}},
                "required": ["zip"],
                "additionalProperties": False,
            },
        },
        "required": ["order_id"],
    },
]
VALUES = [
    None,
    True,
    False,
    0,
    1,
    2.0,
    2.5,
    -1,
    11,
    "",
    "a",
    "b",
    "AB12",
    "toolong",
    [],
    ["x"],
    ["x", "y", "z"],
    [""],
    [1],
    {},
    {"zip": "1"},
    {"zip": 1},
    {"zip": "1", "x": 2},
]


def _samples(schema: dict[str, Any]) -> list[dict[str, Any]]:
    props = list(schema["properties"])
    out = [{}]
    for name, value in itertools.product(props, VALUES):
        out.append({"order_id": "o1", name: value})
        out.append({name: value})
    return out


@pytest.mark.parametrize("schema", SCHEMAS)
def test_fast_validator_agrees_with_jsonschema(schema: dict[str, Any]) -> None:
    validate, fast = compile_validator(schema)
    assert fast
    reference = Draft202012Validator(schema)
    samples = _samples(schema)
    assert len(samples) > 300
    for args in samples:
        expected = reference.is_valid(args)
        got = validate(args)
        assert (got is None) == expected, (args, got)


def test_messages_follow_jsonschema_wording() -> None:
    validate, _ = compile_validator(SCHEMAS[0])
    assert validate({}) == "'order_id' is a required property"
    assert validate({"order_id": 1}) == "order_id: 1 is not of type 'string'"
    assert validate({"order_id": "o", "reason": "c"}) == "reason: 'c' is not one of ['a', 'b']"
    assert validate({"order_id": "o", "tags": ["x", 2]}) == "tags[1]: 2 is not of type 'string'"
    assert validate({"order_id": "o", "addr": {"zip": "1", "x": 1}}) == (
        "addr: Additional properties are not allowed ('x' was unexpected)"
    )


def test_complex_schemas_fall_back_to_jsonschema() -> None:
    schema = {
        "type": "object",
        "properties": {"x": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
        "required": ["x"],
    }
    validate, fast = compile_validator(schema)
    assert not fast
    assert validate({"x": 1}) is None and validate({"x": "a"}) is None
    assert validate({"x": 1.5}) is not None and validate({}) == "'x' is a required property"


def test_benchmark_tool_schemas_compile_fast(benchmarks_dir: Path) -> None:
    fast = total = 0
    for path in benchmarks_dir.glob("tau*/*/tools.json"):
        for tool in json.loads(path.read_text()):
            schema = tool.get("function", tool)["parameters"]
            total += 1
            fast += compile_validator(schema)[1]
    assert total > 40
    assert fast / total > 0.8


def test_a_binding_checks_as_it_prepares_without_copying() -> None:
    from autoforge.env.calls.signatures import ToolBinding
    from autoforge.tooldocs.spec import ToolSpec

    def fn(state: Any, order_id: Any = None, **rest: Any) -> None:  # pragma: no cover
        return None

    binding = ToolBinding(ToolSpec(name="reserve", parameters=SCHEMAS[0]), fn)
    for args in [*_samples(SCHEMAS[0]), {"nope": 1}, "not json", '{"order_id": "o"}', None, [1]]:
        checked, problem = binding.check(args)
        kwargs, expected = binding.prepare(args)
        assert problem == expected, args
        assert (checked if problem is None else kwargs) == (kwargs if problem is None else {})
    args = {"order_id": "o1", "addr": {"zip": "1"}, "tags": ["x"]}
    checked, _ = binding.check(args)
    kwargs, _ = binding.prepare(args)
    assert checked["addr"] is args["addr"] and kwargs["addr"] is not args["addr"]
