"""Every kind of bad input gives a DocParseError naming where, what, and how to fix it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from autoforge.tooldocs import DocParseError, load_doc, load_docs, parse_text

OPENAPI_HEAD = 'openapi: 3.0.3\ninfo: {title: t, version: "1"}\n'


def _error(text: str, filename: str, format: str = "auto") -> DocParseError:
    with pytest.raises(DocParseError) as info:
        parse_text(text, format=format, filename=filename)
    return info.value


def _assert_message(err: DocParseError, *parts: str) -> None:
    message = str(err)
    assert "(fix: " in message, message
    for part in parts:
        assert part in message, f"{part!r} not in {message!r}"


def _openai(tools: Sequence[object]) -> str:
    return json.dumps(tools)


def test_invalid_json_names_the_line() -> None:
    text = '[\n  {"name": "a",\n   "parameters": {,}}\n]'
    err = _error(text, "tools.json")
    assert err.location.line == 3
    _assert_message(err, "tools.json:3", "invalid JSON at line 3", "fix the JSON syntax")


def test_invalid_yaml_names_the_line() -> None:
    text = OPENAPI_HEAD + "paths:\n  /a:\n    get: {responses: {200: {description: ok}}\n  - oops\n"
    err = _error(text, "api.yaml")
    assert err.location.line is not None and err.location.line >= 5
    _assert_message(err, f"api.yaml:{err.location.line}", "invalid YAML at line", "indentation")


def test_unknown_format_lists_known_formats() -> None:
    err = _error("[]", "tools.json", format="xml")
    _assert_message(err, "tools.json", "unknown format 'xml'", "auto", "openapi", "mcp", "bench")


def test_undetectable_content_lists_formats() -> None:
    err = _error('{"hello": "world"}', "thing.json")
    _assert_message(err, "thing.json", "could not tell the format", "--format", "mcp, openai")


def test_missing_tool_name() -> None:
    err = _error(_openai([{"type": "function", "function": {"parameters": {}}}]), "t.json")
    _assert_message(err, "t.json#/0/function/name", "tool has no name", 'give every tool a "name"')


def test_duplicate_tool_names_in_one_file() -> None:
    tools = [{"name": "get_a", "description": ""}, {"name": "get_b"}, {"name": "get_a"}]
    err = _error(_openai(tools), "t.json")
    _assert_message(err, "t.json#/2", "duplicate tool name 'get_a'", "t.json#/0", "rename")


def test_duplicate_tool_names_across_files(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(_openai([{"name": "get_a", "parameters": {}}]))
    (tmp_path / "b.json").write_text(
        json.dumps({"tools": [{"name": "get_a", "description": "A."}]})
    )
    with pytest.raises(DocParseError) as info:
        load_docs([tmp_path / "a.json", tmp_path / "b.json"])
    _assert_message(info.value, "b.json#/tools/0", "duplicate tool name 'get_a'", "a.json#/0")


def test_parameters_not_an_object_schema() -> None:
    tools = [{"name": "f", "parameters": {"type": "string"}}]
    err = _error(_openai(tools), "t.json")
    _assert_message(err, "t.json#/0/parameters/type", "must be an object schema", "wrap the")
    err = _error(_openai([{"name": "f", "parameters": ["a", "b"]}]), "t.json")
    _assert_message(err, "t.json#/0/parameters", "got a JSON array", '"type": "object"')


def test_parameters_not_valid_json_schema() -> None:
    params = {"type": "object", "properties": {"a": {"type": "strin"}}}
    err = _error(_openai([{"name": "f", "parameters": params}]), "t.json")
    _assert_message(
        err, "t.json#/0/parameters/properties/a/type", "not a valid JSON Schema", "correct the"
    )
    params = {"type": "object", "properties": {"a": {}}, "required": "a"}
    err = _error(_openai([{"name": "f", "parameters": params}]), "t.json")
    _assert_message(err, "#/0/parameters/required", "not of type 'array'")


def test_unresolvable_ref() -> None:
    text = OPENAPI_HEAD + (
        "paths:\n  /a:\n    get:\n      operationId: get_a\n      responses:\n"
        "        '200':\n          description: ok\n          content:\n"
        "            application/json:\n              schema: {$ref: '#/components/schemas/Nope'}\n"
    )
    err = _error(text, "api.yaml")
    _assert_message(
        err,
        "api.yaml#/paths/~1a/get/responses/200/content/application~1json/schema/$ref",
        "unresolvable $ref '#/components/schemas/Nope'",
        "define the referenced schema",
    )


def test_unresolvable_ref_inside_tool_parameters() -> None:
    params = {"type": "object", "properties": {"x": {"$ref": "#/$defs/Missing"}}}
    err = _error(_openai([{"name": "f", "parameters": params}]), "t.json")
    _assert_message(err, "t.json#/0/parameters/properties/x/$ref", "unresolvable $ref")


def test_external_ref() -> None:
    text = OPENAPI_HEAD + (
        "paths:\n  /a:\n    get:\n      parameters:\n        - $ref: 'common.yaml#/Limit'\n"
        "      responses: {'200': {description: ok}}\n"
    )
    err = _error(text, "api.yaml")
    _assert_message(
        err, "api.yaml#/paths/~1a/get/parameters/0/$ref", "external $ref", "bundle the document"
    )


def test_openapi_without_paths() -> None:
    err = _error(OPENAPI_HEAD + "components: {}\n", "api.yaml")
    _assert_message(err, "api.yaml", "no 'paths' object", "add 'paths'")


def test_swagger_other_than_2_is_unsupported() -> None:
    err = _error('swagger: "1.2"\ninfo: {title: t, version: "1"}\npaths: {}\n', "old.yaml")
    _assert_message(err, "old.yaml#/swagger", "unsupported Swagger version '1.2'", "Swagger 2.0")


def test_swagger_2_given_as_openapi_names_the_right_format() -> None:
    text = 'swagger: "2.0"\ninfo: {title: t, version: "1"}\npaths: {}\n'
    err = _error(text, "old.yaml", format="openapi")
    _assert_message(err, "old.yaml#/swagger", "format 'swagger2'")


def test_unsupported_openapi_version() -> None:
    err = _error('openapi: "4.0.0"\npaths: {}\n', "new.yaml")
    _assert_message(err, "new.yaml#/openapi", "unsupported OpenAPI version '4.0.0'", "3.1")


def test_empty_tool_lists() -> None:
    for text in ("[]", '{"tools": []}', '{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}'):
        err = _error(text, "t.json")
        _assert_message(err, "t.json", "no tools found", "at least one tool")
    err = _error(OPENAPI_HEAD + "paths: {}\n", "api.yaml")
    _assert_message(err, "api.yaml", "no tools found")


def test_mcp_tool_without_input_schema() -> None:
    text = json.dumps({"tools": [{"name": "a", "inputSchema": {}}, {"name": "b"}]})
    err = _error(text, "mcp.json")
    _assert_message(err, "mcp.json#/tools/1", "MCP tool 'b' has no inputSchema", '"inputSchema"')


def test_non_identifier_names() -> None:
    err = _error(_openai([{"name": "get-weather", "parameters": {}}]), "t.json")
    _assert_message(
        err, "t.json#/0/name", "'get-weather' is not a valid identifier", "'get_weather'"
    )
    text = json.dumps({"tools": [{"name": "calendar.list events", "inputSchema": {}}]})
    err = _error(text, "mcp.json", format="mcp")
    _assert_message(
        err, "mcp.json#/tools/0/name", "not a valid identifier", "'calendar_list_events'"
    )
    err = _error(_openai([{"name": "class", "description": "x"}]), "t.json")
    _assert_message(err, "t.json#/0/name", "a Python keyword", "'class_'")


def test_file_not_found(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(DocParseError) as info:
        load_doc(missing)
    _assert_message(info.value, str(missing), "file not found", "check the path")


def test_duplicate_operation_id() -> None:
    text = OPENAPI_HEAD + (
        "paths:\n  /a:\n    get: {operationId: fetch, responses: {'200': {description: ok}}}\n"
        "  /b:\n    get: {operationId: fetch, responses: {'200': {description: ok}}}\n"
    )
    err = _error(text, "api.yaml")
    _assert_message(err, "api.yaml#/paths/~1b/get/operationId", "duplicate operationId 'fetch'")


def test_parameter_without_location() -> None:
    text = OPENAPI_HEAD + (
        "paths:\n  /a:\n    get:\n      parameters: [{name: q}]\n"
        "      responses: {'200': {description: ok}}\n"
    )
    err = _error(text, "api.yaml")
    _assert_message(err, "api.yaml#/paths/~1a/get/parameters/0", "needs a 'name' and 'in'")


def test_bench_format_needs_a_directory_with_tools_json(tmp_path: Path) -> None:
    with pytest.raises(DocParseError) as info:
        load_doc(tmp_path, format="bench")
    _assert_message(info.value, str(tmp_path), "no tools.json", "<domain dir>/tools.json")
    with pytest.raises(DocParseError) as info:
        load_doc(tmp_path)
    _assert_message(info.value, str(tmp_path), "directory without tools.json", "as files")


def test_newer_schema_version_of_ir() -> None:
    err = _error('{"schema_version": 99, "tools": []}', "ir.json")
    _assert_message(err, "ir.json#/schema_version", "newer than this autoforge", "upgrade")
