"""Tool calls written as text become ``tool_calls``; prose and unknown names stay text."""

from __future__ import annotations

import json

from autoforge.llm.textcalls import calls_from_text, with_text_calls

TOOLS = [
    {"type": "function", "function": {"name": "get_order", "parameters": {}}},
    {"type": "function", "function": {"name": "cancel_order", "parameters": {}}},
]


def _names_args(calls: list[dict]) -> list[tuple[str, dict]]:
    return [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in calls]


def test_the_shapes_small_models_write() -> None:
    shapes = [
        '<tool_call>\n{"name": "get_order", "arguments": {"order_id": "O1"}}\n</tool_call>',
        '```json\n{"name": "get_order", "arguments": {"order_id": "O1"}}\n```',
        '{"name": "get_order", "arguments": {"order_id": "O1"}}',
        '{"name": "get_order", "parameters": {"order_id": "O1"}}',
        '{"function": {"name": "get_order", "arguments": "{\\"order_id\\": \\"O1\\"}"}}',
        '[{"tool": "get_order", "args": {"order_id": "O1"}}]',
    ]
    for text in shapes:
        rest, calls = calls_from_text(text, TOOLS)
        assert _names_args(calls) == [("get_order", {"order_id": "O1"})], text
        assert rest is None, text


def test_text_around_the_call_is_kept_and_several_calls_are_read() -> None:
    first = '{"name": "get_order", "arguments": {"order_id": "O1"}}'
    second = '{"name": "cancel_order", "arguments": {"order_id": "O1", "reason": "late"}}'
    text = f"Let me check. {first} and then {second}"
    rest, calls = calls_from_text(text, TOOLS)
    assert [n for n, _ in _names_args(calls)] == ["get_order", "cancel_order"]
    assert rest == "Let me check.  and then"
    assert calls_from_text(text, TOOLS)[1][0]["id"] == calls[0]["id"]  # stable ids


def test_prose_json_and_unknown_tools_stay_text() -> None:
    texts = [
        'Your order is {"status": "shipped"}.',
        '{"name": "delete_all", "arguments": {}}',
        "No braces here.",
        '{"name": "get_order", "arguments": "not json"}',
        None,
    ]
    for text in texts:
        assert calls_from_text(text, TOOLS) == (text, [])


def test_a_message_with_native_calls_is_left_alone() -> None:
    native = {"role": "assistant", "content": '{"name": "get_order"}', "tool_calls": [{"id": "x"}]}
    assert with_text_calls(native, TOOLS) is native
    text = {"role": "assistant", "content": '{"name": "get_order", "arguments": {}}'}
    converted = with_text_calls(text, TOOLS)
    assert converted["content"] is None and _names_args(converted["tool_calls"]) == [
        ("get_order", {})
    ]
