"""The importer registry: plug-in importers, detection order, merging, the IR round trip."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from autoforge.tooldocs import (
    DocInput,
    DocParseError,
    SourceLocation,
    ToolDocs,
    ToolSpec,
    detect_format,
    importer_names,
    load_doc,
    load_docs,
    parse_text,
    register_importer,
    unregister_importer,
)

FIXTURES = Path(__file__).parent / "fixtures"


def _toy_load(doc: DocInput) -> ToolDocs:
    """A toy plug-in importer: every '## name' heading is a tool."""
    assert doc.text is not None
    names = [line[3:].strip() for line in doc.text.splitlines() if line.startswith("## ")]
    return ToolDocs(domain=doc.stem, tools=[ToolSpec(name=n) for n in names])


@pytest.fixture
def toy() -> Iterator[None]:
    register_importer("toydoc", lambda d: d.suffix == ".toy", _toy_load, priority=-10)
    yield
    unregister_importer("toydoc")


def test_builtin_formats_in_detection_order() -> None:
    names = importer_names()
    assert names[:6] == ["bench", "autoforge", "openapi", "swagger2", "mcp", "openai"]
    assert "toydoc" not in names


def test_plugin_importer_is_detected_and_checked(toy: None) -> None:
    assert importer_names()[-1] == "toydoc"  # lowest priority: asked last
    docs = parse_text("# Shop\n## get_order\n## cancel_order\n", filename="shop.toy")
    assert [t.name for t in docs.tools] == ["get_order", "cancel_order"]
    assert docs.domain == "shop"
    with pytest.raises(DocParseError, match="no tools found"):
        parse_text("# nothing\n", filename="empty.toy")
    with pytest.raises(DocParseError, match="'get order' is not a valid identifier"):
        parse_text("## get order\n", filename="bad.toy")
    with pytest.raises(DocParseError, match="duplicate tool name 'a'"):
        parse_text("## a\n## a\n", format="toydoc", filename="dup.txt")


def test_plugin_results_are_normalised() -> None:
    params = {
        "properties": {"item": {"$ref": "#/$defs/Item"}},
        "$defs": {"Item": {"type": "object", "properties": {"sku": {"type": "string"}}}},
    }

    def load(doc: DocInput) -> ToolDocs:
        return ToolDocs(tools=[ToolSpec(name="add_item", parameters=params)])

    def load_bad(doc: DocInput) -> ToolDocs:
        spec = ToolSpec(name="f", parameters={"type": "string"})
        return ToolDocs(tools=[spec.model_copy(update={"source": SourceLocation(pointer="/x")})])

    register_importer("sloppy", lambda d: False, load)
    register_importer("broken", lambda d: False, load_bad)
    try:
        tool = parse_text("", format="sloppy", filename="s.txt").tools[0]
        assert tool.parameters == {
            "properties": {
                "item": {
                    "title": "Item",
                    "type": "object",
                    "properties": {"sku": {"type": "string"}},
                }
            },
            "type": "object",
            "required": [],
        }
        with pytest.raises(DocParseError, match=r"b.txt#/x/parameters/type: parameters must"):
            parse_text("", format="broken", filename="b.txt")
    finally:
        unregister_importer("sloppy")
        unregister_importer("broken")


def test_register_rejects_duplicates_and_bad_names(toy: None) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_importer("toydoc", lambda d: False, _toy_load)
    register_importer("toydoc", lambda d: False, _toy_load, replace=True)
    with pytest.raises(ValueError, match="invalid importer name"):
        register_importer("auto", lambda d: False, _toy_load)


def test_priority_wins_over_registration_order() -> None:
    def load(doc: DocInput) -> ToolDocs:
        return ToolDocs(tools=[ToolSpec(name="from_plugin")])

    register_importer("greedy", lambda d: True, load, priority=100)
    try:
        assert detect_format(DocInput(filename="x.json", text="[]")) == "greedy"
        assert load_doc(FIXTURES / "weather_openai_bare.json").tools[0].name == "from_plugin"
        assert (
            load_doc(FIXTURES / "weather_openai_bare.json", "openai").tools[0].name == "get_weather"
        )
    finally:
        unregister_importer("greedy")


def test_detection_of_each_fixture() -> None:
    expected = {
        "library_openapi30.yaml": "openapi",
        "petclinic_openapi31.json": "openapi",
        "calendar_mcp_tools.json": "mcp",
        "weather_openai_wrapped.json": "openai",
        "weather_openai_bare.json": "openai",
    }
    for name, fmt in expected.items():
        assert detect_format(DocInput.from_path(FIXTURES / name)) == fmt


def test_default_domain_from_file_or_folder(tmp_path: Path) -> None:
    assert load_doc(FIXTURES / "calendar_mcp_tools.json").domain == "calendar_mcp_tools"
    for name in ("openapi.json", "tools.json", "tools.openai.json"):
        folder = tmp_path / name.replace(".", "_") / "bookshop"
        folder.mkdir(parents=True)
        (folder / name).write_text(json.dumps([{"name": "f", "parameters": {}}]))
        assert load_doc(folder / name).domain == "bookshop"
    assert parse_text('[{"name": "f", "description": ""}]', filename="tools.json").domain == "tools"


def test_explicit_wrong_format_explains_expected_shape() -> None:
    with pytest.raises(DocParseError, match="expected an MCP tools/list result"):
        load_doc(FIXTURES / "library_openapi30.yaml", format="mcp")


def test_merge_keeps_order_and_policy(tmp_path: Path) -> None:
    docs = load_docs(
        [FIXTURES / "weather_openai_wrapped.json", FIXTURES / "calendar_mcp_tools.json"]
    )
    assert docs.domain == "weather_openai_wrapped"
    assert [t.name for t in docs.tools][:4] == [
        "get_weather",
        "get_forecast",
        "list_alerts",
        "list_calendars",
    ]
    assert len(docs.tools) == 11
    with pytest.raises(DocParseError, match="no documents given"):
        load_docs([])


def test_ir_round_trip(tmp_path: Path) -> None:
    original = load_docs(
        [FIXTURES / "library_openapi30.yaml", FIXTURES / "calendar_mcp_tools.json"]
    )
    path = tmp_path / "ir.json"
    path.write_text(json.dumps(original.model_dump(mode="json")))
    assert detect_format(DocInput.from_path(path)) == "autoforge"
    again = load_doc(path)
    assert again == original
    assert again.tool("addBook").source == original.tool("addBook").source


def test_ir_with_broken_tool_is_rejected(tmp_path: Path) -> None:
    data = {
        "schema_version": 1,
        "domain": "d",
        "tools": [{"name": "f", "parameters": {"type": "array"}}],
    }
    with pytest.raises(DocParseError, match=r"ir.json#/tools/0/parameters/type: parameters must"):
        parse_text(json.dumps(data), filename="ir.json")
    data = {"schema_version": 1, "tools": [{"description": "no name"}]}
    with pytest.raises(DocParseError, match=r"ir.json#/tools/0/name: not a valid autoforge"):
        parse_text(json.dumps(data), filename="ir.json")
