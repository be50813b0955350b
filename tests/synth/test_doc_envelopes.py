"""State design from response schemas: an entity wrapped in ``<Entity>Description`` is that
entity, keyed by the key the tools take; listings of keys and paging flags are no records."""

from __future__ import annotations

from typing import Any

from autoforge.lexicon import derive_state
from autoforge.tooldocs import ToolSpec

KILN = {
    "type": "object",
    "properties": {
        "KilnName": {"type": "string"},
        "KilnArn": {"type": "string", "description": "The Amazon Resource Name of the kiln."},
        "Temperature": {"type": "integer"},
        "HasMoreFirings": {"type": "boolean"},
    },
}


def _tool(name: str, params: list[str], returns: dict[str, Any], access: str) -> ToolSpec:
    props = {p: {"type": "string"} for p in params}
    return ToolSpec(
        name=name,
        parameters={"type": "object", "properties": props, "required": params[:1]},
        returns=returns,
        access=access,  # type: ignore[arg-type]
    )


TOOLS = [
    _tool(
        "DescribeKiln",
        ["KilnName"],
        {"type": "object", "properties": {"KilnDescription": KILN}},
        "read",
    ),
    _tool(
        "ListKilns",
        ["Limit", "ExclusiveStartKilnName"],
        {
            "type": "object",
            "properties": {
                "KilnNames": {"type": "array", "items": {"type": "string"}},
                "HasMoreKilns": {"type": "boolean"},
            },
        },
        "read",
    ),
    _tool(
        "DeleteKiln",
        ["KilnName"],
        {"type": "object", "properties": {"KilnDescription": KILN}},
        "write",
    ),
    _tool("TagKiln", ["KilnArn", "Tag"], {"type": "object", "properties": {}}, "write"),
]


def test_wrapped_entity_is_keyed_by_the_key_most_tools_take() -> None:
    schema = derive_state(TOOLS).schema
    names = [c.name for c in schema.collections]
    assert names == ["kilns"], names
    kilns = schema.collections[0]
    assert kilns.primary_key == "KilnName"
    attrs = {a.name for a in kilns.attributes}
    assert {"KilnName", "KilnArn", "Temperature"} <= attrs
    assert "KilnDescription" not in attrs and "KilnNames" not in attrs
    assert "HasMoreKilns" not in attrs
