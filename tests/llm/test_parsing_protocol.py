"""Pure parts of the LLM layer: output parsing and the schema-constrained action protocol."""

from __future__ import annotations

import json

import jsonschema
import pytest

from autoforge.llm import protocol
from autoforge.llm.parsing import extract_json, split_thinking, strip_fences

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Look up an order.",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
    },
    {
        "name": "add_item",  # bare function form, with $defs like pydantic emits
        "description": "Add an item.",
        "parameters": {
            "type": "object",
            "properties": {"item": {"$ref": "#/$defs/Item"}},
            "required": ["item"],
            "$defs": {
                "Item": {
                    "type": "object",
                    "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
                    "required": ["sku", "qty"],
                }
            },
        },
    },
]


def test_split_thinking_variants() -> None:
    assert split_thinking("<think>plan a</think>\nanswer") == ("answer", "plan a")
    assert split_thinking("no thoughts") == ("no thoughts", None)
    assert split_thinking("<think>cut off while thinking") == ("", "cut off while thinking")
    assert split_thinking("opened in prompt</think> the answer") == (
        "the answer",
        "opened in prompt",
    )
    assert split_thinking(None) == (None, None)


def test_extract_json_tolerates_fences_and_prose() -> None:
    assert extract_json('```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json('Sure! Here it is: {"a": [1, 2]} hope that helps') == {"a": [1, 2]}
    assert extract_json("[1, 2]") == [1, 2]
    assert strip_fences("```\nx\n```") == "x"
    with pytest.raises(ValueError, match="not valid JSON"):
        extract_json("no json at all")


def test_action_schema_admits_exactly_tool_calls_and_replies() -> None:
    schema = protocol.action_schema(TOOLS)
    validator = jsonschema.Draft202012Validator(schema)
    good = [
        {"action": "get_order", "arguments": {"order_id": "o1"}},
        {"action": "add_item", "arguments": {"item": {"sku": "b-1", "qty": 2}}},
        {"action": "reply", "content": "hello"},
    ]
    bad = [
        {"action": "get_order", "arguments": {}},  # missing required argument
        {"action": "add_item", "arguments": {"item": {"sku": "b-1", "qty": "two"}}},  # hoisted $ref
        {"action": "delete_everything", "arguments": {}},
        {"action": "reply"},
        {"action": "reply", "content": "x", "extra": 1},
    ]
    assert all(validator.is_valid(g) for g in good)
    assert not any(validator.is_valid(b) for b in bad)
    assert "add_item__Item" in schema["$defs"]


def test_normalize_tools_rejects_reserved_and_duplicate_names() -> None:
    with pytest.raises(ValueError, match="reply"):
        protocol.normalize_tools([{"name": "reply"}])
    with pytest.raises(ValueError, match="duplicate"):
        protocol.normalize_tools([{"name": "a"}, {"name": "a"}])


def test_render_history_turns_tool_traffic_into_plain_turns() -> None:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "get_order", "arguments": '{"order_id": "o1"}'},
    }
    history = [
        {"role": "system", "content": "You help customers."},
        {"role": "user", "content": "Where is o1?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": '{"status": "shipped"}'},
        {"role": "assistant", "content": "It shipped."},
    ]
    out = protocol.render_history(history, TOOLS)
    assert [m["role"] for m in out] == ["system", "user", "assistant", "user", "assistant"]
    assert out[0]["content"].startswith("You help customers.")
    assert "get_order" in out[0]["content"] and "add_item" in out[0]["content"]
    assert json.loads(out[2]["content"]) == {"action": "get_order", "arguments": {"order_id": "o1"}}
    assert "get_order" in out[3]["content"] and '{"status": "shipped"}' in out[3]["content"]
    assert json.loads(out[4]["content"]) == {"action": "reply", "content": "It shipped."}
    assert all("tool_calls" not in m and m["role"] != "tool" for m in out)
    assert history[2]["tool_calls"] == [call]  # input untouched


def test_render_history_merges_consecutive_results_and_adds_system() -> None:
    calls = [
        {"id": f"c{i}", "function": {"name": "get_order", "arguments": f'{{"order_id": "o{i}"}}'}}
        for i in (1, 2)
    ]
    history = [
        {"role": "user", "content": "both orders?"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_call_id": "c1", "content": "A"},
        {"role": "tool", "tool_call_id": "c2", "content": "B"},
    ]
    out = protocol.render_history(history, TOOLS)
    assert out[0]["role"] == "system"
    assert len(out[2]["content"].splitlines()) == 2  # two JSON actions
    assert out[3]["role"] == "user" and "A" in out[3]["content"] and "B" in out[3]["content"]
    assert len(out) == 4


def test_parse_action_builds_tool_calls_with_deterministic_ids() -> None:
    msg = protocol.parse_action(
        '{"action": "get_order", "arguments": {"order_id": "o9"}}', TOOLS, "k"
    )
    again = protocol.parse_action(
        '{"action": "get_order", "arguments": {"order_id": "o9"}}', TOOLS, "k"
    )
    other = protocol.parse_action(
        '{"action": "get_order", "arguments": {"order_id": "o9"}}', TOOLS, "j"
    )
    call = msg["tool_calls"][0]
    assert msg["content"] is None
    assert call["function"]["name"] == "get_order"
    assert json.loads(call["function"]["arguments"]) == {"order_id": "o9"}
    assert call["id"] == again["tool_calls"][0]["id"] != other["tool_calls"][0]["id"]
    assert protocol.parse_action('{"action": "reply", "content": "hi"}', TOOLS, "k") == {
        "role": "assistant",
        "content": "hi",
    }
    with pytest.raises(ValueError, match="unknown action"):
        protocol.parse_action('{"action": "nope", "arguments": {}}', TOOLS, "k")
    with pytest.raises(ValueError, match="arguments"):
        protocol.parse_action('{"action": "get_order", "arguments": [1]}', TOOLS, "k")


def test_strict_schema_closes_objects_and_requires_all_fields() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "null"}], "default": None},
            "m": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
        "required": ["a"],
        "$defs": {"B": {"type": "object", "properties": {"x": {"type": "integer"}}}},
    }
    strict = protocol.strict_schema(schema)
    assert strict["required"] == ["a", "b", "m"] and strict["additionalProperties"] is False
    assert strict["$defs"]["B"] == {
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "additionalProperties": False,
        "required": ["x"],
    }
    assert strict["properties"]["m"] == schema["properties"]["m"]  # maps stay open
    validator = jsonschema.Draft202012Validator(strict)
    assert validator.is_valid({"a": "s", "b": None, "m": {"k": 1}})
    assert not validator.is_valid({"a": "s", "m": {}})  # b is now required
    assert not validator.is_valid({"a": "s", "b": None, "m": {}, "extra": 1})


def test_instructions_frame_the_test_and_show_a_worked_tool_call() -> None:
    tools = [
        {"name": "lookup", "description": "d", "parameters": {"type": "object", "properties": {
            "filters": {"type": "object"}}, "required": ["filters"]}},
        {"name": "cancel_order", "description": "Cancel.", "parameters": {"type": "object",
            "properties": {"order_id": {"type": "string"},
                           "reason": {"type": "string", "enum": ["other", "mistake"]},
                           "count": {"type": "integer"}},
            "required": ["order_id", "reason", "count"]}},
    ]  # fmt: skip
    text = protocol.instructions(tools)
    assert "simulated test environment" in text and "Do not refuse" in text
    # the first tool with only scalar required arguments is the example, with placeholders
    call = (
        '{"action":"cancel_order","arguments":{"count":1,"order_id":"<order_id>","reason":"other"}}'
    )
    assert f"you: {call}" in text
    assert "user: Please cancel order (order id: <order_id>; reason: other; count: 1)." in text
    assert "Result of tool call cancel_order:" in text
    assert protocol.example_call([tools[0]]) == ""  # no scalar-only tool: no example
