"""Paging and sorting parameters of a list page or order its results, never filter them, and
the state design keeps them out of records."""

from __future__ import annotations

from typing import Any

import pytest

from autoforge.env import Attribute, CollectionSchema, Environment, EnvironmentSpec, StateSchema
from autoforge.lexicon import paging_role
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.synth.rulecode.templates import render_template
from autoforge.synth.state.design import rule_based_schema
from autoforge.tooldocs import ToolSpec

FOSSILS = StateSchema(
    collections=[
        CollectionSchema(
            name="fossils",
            primary_key="fossil_id",
            attributes=[
                Attribute(name="fossil_id", type="id"),
                Attribute(name="era", type="string"),
                Attribute(name="weight", type="integer"),
            ],
        )
    ]
)
STATE = {
    "fossils": {
        f"F-{i}": {"fossil_id": f"F-{i}", "era": era, "weight": w}
        for i, (era, w) in enumerate(
            [("jurassic", 30), ("triassic", 10), ("jurassic", 20), ("cretaceous", 40)], start=1
        )
    }
}


@pytest.mark.parametrize(
    ("name", "prop", "role"),
    [
        ("limit", {}, "limit"),
        ("maxResults", {"type": "string"}, "limit"),
        ("$top", {"type": "integer"}, "limit"),
        ("pageSize", {}, "limit"),
        ("count", {"type": "integer"}, "limit"),
        ("count", {"type": "string"}, None),
        ("offset", {}, "offset"),
        ("$skip", {}, "offset"),
        ("NextToken", {}, "token"),
        ("page", {}, "page"),
        ("sortBy", {}, "sort"),
        ("sort_order", {}, "direction"),
        ("era", {}, None),
        ("start", {"type": "string", "format": "date"}, None),
        ("ClientRequestToken", {}, "request"),
        ("idempotency_key", {}, "request"),
        ("FossilToken", {"description": "Makes the call idempotent."}, "request"),
        ("FossilToken", {"description": "The token printed on the label."}, None),
        ("maxresults", {"type": "integer"}, "limit"),
        ("pagesize", {"type": "string"}, "limit"),
        ("skip_token", {"type": "string"}, "token"),
        ("depth", {"type": "integer", "description": "The maximum number of fossils"}, None),
        ("n", {"type": "integer", "description": "Maximum number of items to return."}, "limit"),
        ("n", {"type": "string", "description": "The maximum number of items to return."}, None),
        ("on", {"type": "string", "description": "Continuation token for pagination."}, "token"),
        ("resume", {"type": "string", "description": "Where the dig resumes."}, None),
        ("filter", {"type": "string"}, "filter"),
        ("$filter", {}, "filter"),
        ("filter", {"type": "string", "enum": ["all", "mine"]}, None),  # a choice, one field
        ("filter", {"type": "array"}, None),
    ],
)
def test_paging_role_by_name_and_type(name: str, prop: dict[str, Any], role: str | None) -> None:
    assert paging_role(name, prop) == role


def _lister() -> ToolSpec:
    props = {
        "era": {"type": "string"},
        "maxResults": {"type": "string"},
        "nextToken": {"type": "string"},
        "sortBy": {"type": "string"},
        "page": {"type": "integer"},
    }
    return ToolSpec(
        name="list_fossils",
        description="List fossils",
        parameters={"type": "object", "properties": props, "required": []},
        access="read",
    )


def _env() -> Environment:
    spec = _lister()
    c = classify_tool(spec, FOSSILS)
    assert c.cls == "list" and c.plain
    coll = FOSSILS.collection("fossils")
    source = render_template(spec, c, coll, {"era": ["era"]}, schema=FOSSILS)
    assert source is not None
    env_spec = EnvironmentSpec(name="fossils", tools=[spec], state_schema=FOSSILS)
    return Environment.from_parts(env_spec, source, STATE)


def _ids(env: Environment, args: dict[str, Any]) -> list[str]:
    obs = env.episode().call("list_fossils", args)
    assert obs.ok, obs.content
    return [r["fossil_id"] for r in obs.result]


def test_paging_parameters_page_and_sort_rather_than_filter() -> None:
    env = _env()
    assert len(_ids(env, {})) == 4
    assert _ids(env, {"maxResults": "2"}) == ["F-1", "F-2"]
    assert _ids(env, {"maxResults": "2", "page": 2}) == ["F-3", "F-4"]
    assert _ids(env, {"nextToken": "3"}) == ["F-4"]
    assert _ids(env, {"maxResults": "not a number"}) == ["F-1", "F-2", "F-3", "F-4"]
    assert _ids(env, {"sortBy": "-weight"}) == ["F-4", "F-1", "F-3", "F-2"]
    assert _ids(env, {"era": "jurassic", "maxResults": "1"}) == ["F-1"]


def _filtered(expression: str | None) -> Any:
    spec = ToolSpec(
        name="list_fossils",
        parameters={"type": "object", "properties": {"filter": {"type": "string"}}},
        access="read",
    )
    c = classify_tool(spec, FOSSILS)
    assert c.cls == "list" and c.plain  # the expression is no field the list must match
    source = render_template(spec, c, FOSSILS.collection("fossils"), {}, schema=FOSSILS)
    assert source is not None
    env_spec = EnvironmentSpec(name="fossils", tools=[spec], state_schema=FOSSILS)
    env = Environment.from_parts(env_spec, source, STATE)  # contained: the sandbox runs it
    args = {"filter": expression} if expression is not None else {}
    obs = env.episode().call("list_fossils", args)
    return [r["fossil_id"] for r in obs.result] if obs.ok else obs.content


@pytest.mark.parametrize(
    ("expression", "kept"),
    [
        (None, ["F-1", "F-2", "F-3", "F-4"]),
        ('era = "jurassic"', ["F-1", "F-3"]),
        ("era=jurassic AND weight > 25", ["F-1"]),
        ("weight <= 20", ["F-2", "F-3"]),
        ("era != jurassic", ["F-2", "F-4"]),
        ("era eq 'triassic'", ["F-2"]),
        ("era:ret", ["F-4"]),
        ("era = *assic", ["F-1", "F-2", "F-3"]),
        ("(weight ge 40)", ["F-4"]),
    ],
)
def test_a_filter_expression_keeps_the_records_it_selects(
    expression: str | None, kept: list[str]
) -> None:
    assert _filtered(expression) == kept


def test_a_filter_expression_it_cannot_read_is_refused_not_ignored() -> None:
    for expression in ("era = jurassic OR weight > 25", "startsWith(era, 'j')"):
        refused = _filtered(expression)
        assert isinstance(refused, str) and "cannot read the filter" in refused, refused


def test_rule_state_design_keeps_paging_parameters_out_of_records() -> None:
    lister = _lister()
    getter = ToolSpec(
        name="get_fossil",
        parameters={
            "type": "object",
            "properties": {"fossil_id": {"type": "string"}},
            "required": ["fossil_id"],
        },
        access="read",
    )
    schema = rule_based_schema([lister, getter])
    coll = schema.collection("fossils")
    assert coll is not None
    names = {a.name for a in coll.attributes}
    assert "era" in names
    assert not names & {"maxResults", "nextToken", "sortBy", "page"}
