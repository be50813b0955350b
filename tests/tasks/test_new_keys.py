"""A create that takes the key of the record it makes needs a key no record has: nothing an
earlier call returned feeds it, and the value drawn for it is new (``lexicon.new_key_param``,
``tasks.graph.dependency``, ``tasks.blueprints.facts``)."""

from __future__ import annotations

from typing import Any

from autoforge.env import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon import new_key_param
from autoforge.tasks.graph.dependency import build_graph
from autoforge.tooldocs import ToolSpec


def _tool(name: str, params: list[str], returns: Any = None, access: str = "write") -> ToolSpec:
    props = {p: {"type": "string"} for p in params}
    return ToolSpec(
        name=name,
        access=access,  # type: ignore[arg-type]
        parameters={"type": "object", "properties": props, "required": params},
        returns=returns,
    )


SCHEMA = StateSchema(
    collections=[
        CollectionSchema(
            name="buckets",
            primary_key="bucket_name",
            attributes=[Attribute(name="bucket_name", type="id"), Attribute(name="region")],
        )
    ]
)
LISTED = {
    "type": "object",
    "properties": {
        "buckets": {
            "type": "array",
            "items": {"type": "object", "properties": {"bucket_name": {"type": "string"}}},
        }
    },
}
TOOLS = [
    _tool("list_buckets", [], LISTED, access="read"),
    _tool("create_bucket", ["bucket_name", "region"]),
    _tool("create_or_update_bucket", ["bucket_name", "region"]),
    _tool("get_bucket", ["bucket_name"], access="read"),
]


def test_only_a_create_that_cannot_replace_needs_a_new_key() -> None:
    tools = {t.name: t for t in TOOLS}
    assert new_key_param(tools["create_bucket"], SCHEMA) == "bucket_name"
    assert new_key_param(tools["create_or_update_bucket"], SCHEMA) is None  # may replace
    assert new_key_param(tools["get_bucket"], SCHEMA) is None
    upsert = _tool("upsert_bucket", ["bucket_name", "region"])
    assert new_key_param(upsert, SCHEMA) is None


def test_no_listed_key_feeds_the_key_of_a_record_being_made() -> None:
    graph = build_graph(EnvironmentSpec(name="b", tools=TOOLS, state_schema=SCHEMA))
    fed = {(e.source, e.target) for e in graph.edges}
    assert ("list_buckets", "get_bucket") in fed
    assert ("list_buckets", "create_or_update_bucket") in fed  # replacing a listed bucket
    assert ("list_buckets", "create_bucket") not in fed
