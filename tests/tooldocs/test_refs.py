"""$ref resolution (cycles, siblings, escaping) and the name/schema helpers."""

from __future__ import annotations

import pytest

from autoforge.tooldocs import DocParseError, is_tool_name, sanitize_name
from autoforge.tooldocs.refs import RefResolver, inline_local_refs


def test_self_and_mutual_cycles_are_cut() -> None:
    root = {
        "defs": {
            "Node": {"type": "object", "properties": {"next": {"$ref": "#/defs/Node"}}},
            "A": {"type": "object", "properties": {"b": {"$ref": "#/defs/B"}}},
            "B": {"type": "array", "items": {"$ref": "#/defs/A"}},
        }
    }
    resolver = RefResolver(root, file="f")
    node = resolver.schema({"$ref": "#/defs/Node"}, "")
    assert node["properties"]["next"] == {"type": "object", "description": "(recursive Node)"}
    a = resolver.schema({"$ref": "#/defs/A"}, "")
    assert a["properties"]["b"]["type"] == "array"
    assert a["properties"]["b"]["items"] == {"type": "object", "description": "(recursive A)"}
    b = resolver.schema({"$ref": "#/defs/B"}, "")
    assert b["items"]["properties"]["b"] == {"type": "array", "description": "(recursive B)"}


def test_shared_non_cyclic_ref_expanded_each_time() -> None:
    root = {"S": {"type": "string"}}
    schema = {"type": "object", "properties": {"a": {"$ref": "#/S"}, "b": {"$ref": "#/S"}}}
    out = RefResolver(root, file="f").schema(schema, "")
    assert out["properties"] == {"a": {"type": "string"}, "b": {"type": "string"}}
    assert out["properties"]["a"] is not out["properties"]["b"]


def test_sibling_keywords_override_and_escaped_pointers() -> None:
    root = {"paths": {"/a/b": {"x~y": {"type": "integer", "description": "old"}}}}
    out = RefResolver(root, file="f").schema(
        {"$ref": "#/paths/~1a~1b/x~0y", "description": "new"}, ""
    )
    assert out == {"type": "integer", "description": "new"}
    out = RefResolver({"a b": {"type": "null"}}, file="f").schema({"$ref": "#/a%20b"}, "")
    assert out == {"type": "null"}


def test_data_keywords_are_not_resolved() -> None:
    schema = {"type": "object", "default": {"$ref": "#/nowhere"}, "examples": [{"$ref": "x.json"}]}
    assert RefResolver({}, file="f").schema(schema, "") == schema


def test_deref_loop_and_anchor_and_node_limit() -> None:
    root = {"a": {"$ref": "#/b"}, "b": {"$ref": "#/a"}}
    with pytest.raises(DocParseError, match="circular \\$ref"):
        RefResolver(root, file="f").deref({"$ref": "#/a"}, "/x")
    with pytest.raises(DocParseError, match="names an anchor"):
        RefResolver({}, file="f").schema({"$ref": "#Pet"}, "")
    wide: dict[str, object] = {"L0": {"type": "string"}}
    for i in range(1, 12):
        wide[f"L{i}"] = {"type": "array", "items": [{"$ref": f"#/L{i - 1}"}] * 4}
    with pytest.raises(DocParseError, match="grows beyond 1000 nodes"):
        RefResolver(wide, file="f", max_nodes=1000).schema({"$ref": "#/L11"}, "")


def test_inline_local_refs_reports_file_pointer() -> None:
    with pytest.raises(DocParseError) as info:
        inline_local_refs(
            {"properties": {"a": {"$ref": "#/$defs/X"}}}, file="t.json", pointer="/0/parameters"
        )
    assert str(info.value).startswith("t.json#/0/parameters/properties/a/$ref: unresolvable")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("getPetById", "get_pet_by_id"),
        ("HTTPServer-status", "http_server_status"),
        ("list pets", "list_pets"),
        ("3d.render", "op_3d_render"),
        ("class", "class_"),
        ("---", "tool"),
        ("x" * 80, "x" * 64),
    ],
)
def test_sanitize_name(raw: str, expected: str) -> None:
    assert sanitize_name(raw) == expected
    assert is_tool_name(sanitize_name(raw))


def test_is_tool_name() -> None:
    assert is_tool_name("get_order") and is_tool_name("x_1_")
    assert not any(
        is_tool_name(n)
        for n in ("get-order", "a.b", "1a", "def", "naïve", "", "x" * 65, 3, "_x1", "__import__")
    )
