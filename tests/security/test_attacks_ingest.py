"""Attacks on ingest (issue 34, items 5 and 6): hostile tool names and type-confused documents.

Every payload ends in one of autoforge's own errors (a ``DocParseError`` that starts with the
file name and says how to fix it) or, where the importer may rename, in a clean tool name and a
``DocWarning`` that says so; never a ``TypeError`` from inside an importer, never a tool named
``__import__``.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from autoforge.env import Environment, EnvironmentSpec
from autoforge.env.errors import EnvLoadError, SandboxViolation
from autoforge.tooldocs import DocParseError, DocWarning, parse_text
from autoforge.tooldocs.spec import ToolSpec

LAYER = "ingest"

HOSTILE_NAMES = ["__import__", "__class__", "__builtins__", "__init__", "_private", "_", "__"]
OBJECT = {"type": "object", "properties": {}}


def _openai(name: str) -> str:
    return json.dumps([{"type": "function", "function": {"name": name, "parameters": OBJECT}}])


def _mcp(name: str) -> str:
    return json.dumps({"tools": [{"name": name, "inputSchema": OBJECT}]})


def _native(name: str) -> str:
    return json.dumps({"schema_version": 1, "tools": [{"name": name, "parameters": OBJECT}]})


def _openapi(op_id: str, version: str = "3.0.3") -> str:
    op = {"operationId": op_id, "responses": {"200": {"description": "ok"}}}
    return json.dumps(
        {"openapi": version, "info": {"title": "t", "version": "1"}, "paths": {"/x": {"get": op}}}
    )


def _swagger(op_id: str) -> str:
    op = {"operationId": op_id, "responses": {"200": {"description": "ok"}}}
    return json.dumps(
        {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {"/x": {"get": op}}}
    )


def _refused(text: str, filename: str = "tools.json") -> str:
    with pytest.raises(DocParseError) as info:
        parse_text(text, filename=filename)
    message = str(info.value)
    assert message.startswith(filename) and "(fix: " in message, message
    return message


# --- dunder and private tool names (item 6) ---------------------------------------------------


@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("build", [_openai, _mcp, _native], ids=["openai", "mcp", "native"])
def test_a_named_dunder_or_private_tool_is_refused(build: Any, name: str) -> None:
    """A tool named ``__import__`` survived ingest; a name the author chose is never changed
    silently, so it is refused with the reason and a name to use instead."""
    message = _refused(build(name))
    assert repr(name) in message
    assert any(w in message for w in ("dunder", "private", "not a valid identifier")), message


@pytest.mark.parametrize("op_id", ["__import__", "__getattribute__", "_internal", "__"])
@pytest.mark.parametrize("build", [_openapi, _swagger], ids=["openapi", "swagger2"])
def test_a_dunder_operation_id_is_renamed_and_said(build: Any, op_id: str) -> None:
    """An operationId is only a hint (a name is derived when it is missing), so it is renamed,
    with a warning naming the operation."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = parse_text(build(op_id), filename="api.json")
    (tool,) = docs.tools
    assert not tool.name.startswith("_") and tool.name.isidentifier(), tool.name
    said = [str(w.message) for w in caught if issubclass(w.category, DocWarning)]
    assert any(repr(op_id) in s and repr(tool.name) in s for s in said), said


@pytest.mark.parametrize("name", ["__import__", "_private"])
def test_an_environment_with_a_dunder_or_private_tool_does_not_load(
    tmp_path: Path, name: str
) -> None:
    """An environment directory written by hand is checked too, not only ingest's output (the
    sandbox refuses to define a dunder; the spec check refuses any leading underscore)."""
    spec = EnvironmentSpec(name="d", tools=[ToolSpec(name=name, parameters=OBJECT)])
    (tmp_path / "environment.json").write_text(spec.model_dump_json())
    (tmp_path / "tools.py").write_text(f"def {name}(state):\n    return 1\n")
    with pytest.raises((EnvLoadError, SandboxViolation)) as info:
        Environment.load(tmp_path)
    assert any(w in str(info.value) for w in ("not a public Python identifier", "dunder")), info


# --- type confusion: a scalar where a list or an object belongs (item 5) ----------------------

BODY = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}


def _openapi_with(body: Any = None, params: Any = None, responses: Any = None) -> str:
    op: dict[str, Any] = {
        "operationId": "op",
        "responses": responses or {"200": {"description": "ok"}},
    }
    if body is not None:
        op["requestBody"] = {"content": {"application/json": {"schema": body}}}
    if params is not None:
        op["parameters"] = params
    doc = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"post": op}},
    }
    return json.dumps(doc)


CONFUSED_OPENAPI = {
    "body-required-true": _openapi_with(body={**BODY, "required": True}),
    "body-required-number": _openapi_with(body={**BODY, "required": 3}),
    "body-required-null": _openapi_with(body={**BODY, "required": None}),
    "allOf-true": _openapi_with(body={"allOf": True}),
    "allOf-number": _openapi_with(body={"allOf": 7}),
    "allOf-member-required-true": _openapi_with(body={"allOf": [{**BODY, "required": True}]}),
    "properties-true": _openapi_with(body={"type": "object", "properties": True}),
    "parameters-true": _openapi_with(params=True),
    "parameter-schema-true": _openapi_with(params=[{"name": "p", "in": "query", "schema": 3}]),
    "parameter-number": _openapi_with(params=[5]),
    "type-true": _openapi_with(body={"type": True, "properties": {}}),
    "enum-number": _openapi_with(body={"type": "object", "properties": {"a": {"enum": 3}}}),
    "items-true-list": _openapi_with(body={"type": "array", "items": [True]}),
}


@pytest.mark.parametrize("text", list(CONFUSED_OPENAPI.values()), ids=list(CONFUSED_OPENAPI))
def test_a_scalar_in_place_of_a_list_is_a_doc_error(text: str) -> None:
    """``required: true`` in a body schema raised "'bool' object is not iterable"."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            docs = parse_text(text, filename="api.json")
        except DocParseError as exc:
            assert str(exc).startswith("api.json") and "(fix: " in str(exc), str(exc)
            return
    # what loads is a clean tool: an object schema the host can validate against
    (tool,) = docs.tools
    assert tool.parameters.get("type") == "object", tool.parameters


CONFUSED_OTHER = {
    "openai-parameters-number": json.dumps(
        [{"type": "function", "function": {"name": "f", "parameters": 3}}]
    ),
    "openai-function-true": json.dumps([{"type": "function", "function": True}]),
    "openai-required-true": json.dumps(
        [{"type": "function", "function": {"name": "f", "parameters": {**BODY, "required": True}}}]
    ),
    "mcp-input-schema-true": json.dumps({"tools": [{"name": "f", "inputSchema": True}]}),
    "mcp-tools-number": json.dumps({"tools": 4, "jsonrpc": "2.0"}),
    "native-parameters-list": json.dumps(
        {"schema_version": 1, "tools": [{"name": "f", "parameters": []}]}
    ),
    "swagger-parameters-true": _swagger("op").replace(
        '"responses"', '"parameters": true, "responses"'
    ),
}


@pytest.mark.parametrize("text", list(CONFUSED_OTHER.values()), ids=list(CONFUSED_OTHER))
def test_a_confused_document_of_any_format_is_a_doc_error(text: str) -> None:
    _refused(text, "tools.json")


@pytest.mark.stopped_by("doc-loader")
@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f"], ids=["nul", "bel", "esc", "del"])
def test_a_yaml_control_character_is_a_doc_error_with_its_line(char: str) -> None:
    message = _refused(f"openapi: 3.0.3\ninfo: {{title: a{char}b}}\n", "api.yaml")
    assert "line 2" in message
