"""OpenAI function lists (both shapes, Anthropic input_schema) and MCP tools/list results."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

from autoforge.tooldocs import DocWarning, load_doc, parse_text

FIXTURES = Path(__file__).parent / "fixtures"


def test_openai_wrapped_list() -> None:
    docs = load_doc(FIXTURES / "weather_openai_wrapped.json")
    assert [t.name for t in docs.tools] == ["get_weather", "get_forecast", "list_alerts"]
    weather = docs.tool("get_weather")
    assert weather.required == ["location"]
    assert weather.parameters["additionalProperties"] is False
    assert weather.access is None and weather.returns is None
    assert str(weather.source).endswith("weather_openai_wrapped.json#/0/function")
    alerts = docs.tool("list_alerts")  # no parameters documented
    assert alerts.parameters == {"type": "object", "properties": {}, "required": []}


def test_openai_bare_tools_object_gets_type_and_required() -> None:
    docs = load_doc(FIXTURES / "weather_openai_bare.json")
    sub = docs.tool("subscribe_alerts")  # "type" missing in the file
    assert sub.parameters["type"] == "object"
    assert docs.tool("get_air_quality").required == []
    assert docs.tool("get_air_quality").source.pointer == "/tools/2"  # type: ignore[union-attr]


def test_openai_shapes_give_the_same_tool() -> None:
    wrapped = load_doc(FIXTURES / "weather_openai_wrapped.json").tool("get_weather")
    bare = load_doc(FIXTURES / "weather_openai_bare.json").tool("get_weather")
    assert wrapped.param_names == bare.param_names and wrapped.required == bare.required


def test_single_tool_and_anthropic_input_schema() -> None:
    one = parse_text('{"name": "ping", "description": " Ping. "}', filename="one.json")
    assert [t.name for t in one.tools] == ["ping"] and one.tools[0].description == "Ping."
    anthropic = [
        {
            "name": "get_stock",
            "input_schema": {
                "type": "object",
                "properties": {"sku": {"type": "string"}},
                "required": ["sku"],
            },
        }
    ]
    docs = parse_text(json.dumps(anthropic), filename="a.json")
    assert docs.tool("get_stock").required == ["sku"]


def test_local_defs_are_inlined() -> None:
    params = {
        "$defs": {"Item": {"type": "object", "properties": {"sku": {"type": "string"}}}},
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/Item"}}},
    }
    docs = parse_text(json.dumps([{"name": "order", "parameters": params}]), filename="t.json")
    out = docs.tool("order").parameters
    assert "$defs" not in out
    assert out["properties"]["items"]["items"]["properties"]["sku"] == {"type": "string"}


def test_required_not_in_properties_warns() -> None:
    params = {"type": "object", "properties": {"a": {}}, "required": ["a", "b"]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parse_text(json.dumps([{"name": "f", "parameters": params}]), filename="t.json")
    messages = [str(w.message) for w in caught if issubclass(w.category, DocWarning)]
    assert messages == ["t.json#/0/parameters: required ['b'] not among the properties"]


def test_mcp_tools_list_response() -> None:
    docs = load_doc(FIXTURES / "calendar_mcp_tools.json")
    assert len(docs.tools) == 8
    access = {t.name: t.access for t in docs.tools}
    assert access["list_calendars"] == "read" and access["get_event"] == "read"
    assert access["create_event"] == "write" and access["delete_event"] == "write"
    assert access["find_free_slots"] is None  # no annotations: unknown
    cals = docs.tool("list_calendars").returns
    assert cals is not None and "$defs" not in cals
    assert cals["properties"]["calendars"]["items"]["required"] == ["id", "name"]
    create = docs.tool("create_event")
    assert create.parameters["properties"]["attendees"]["items"]["required"] == ["email"]
    assert docs.tool("find_free_slots").description == "Find free time"  # title fallback
    assert docs.tool("respond_to_invitation").source.pointer == "/result/tools/6"  # type: ignore[union-attr]


@pytest.mark.parametrize("shape", ["result", "tools", "list"])
def test_mcp_shapes(shape: str) -> None:
    tools = [
        {"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}
    ]
    data: object = {"result": {"tools": tools}} if shape == "result" else tools
    if shape == "tools":
        data = {"tools": tools}
    docs = parse_text(json.dumps(data), filename="m.json")
    assert docs.tool("a").access == "read"
    assert docs.tool("a").parameters == {"type": "object", "properties": {}, "required": []}


def test_mcp_next_cursor_warns_and_error_response_fails() -> None:
    page = {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"tools": [{"name": "a", "inputSchema": {}}], "nextCursor": "c2"},
    }
    with pytest.warns(DocWarning, match="nextCursor"):
        parse_text(json.dumps(page), filename="m.json")
    error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}
    with pytest.raises(Exception, match=r"m.json#/error: this is a JSON-RPC error response"):
        parse_text(json.dumps(error), filename="m.json")


def test_mcp_invalid_output_schema_names_pointer() -> None:
    bad = {"tools": [{"name": "a", "inputSchema": {}, "outputSchema": {"type": 5}}]}
    with pytest.raises(Exception, match=r"#/tools/0/outputSchema/type: result schema is not"):
        parse_text(json.dumps(bad), filename="m.json")
