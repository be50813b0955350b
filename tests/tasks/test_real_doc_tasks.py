"""Task generation on what real API documents give: keys in the form the docs require, walk
lengths the tool graph has, a deletion that ends its record and not the account it sits in,
and the names and response schemas such documents use (camel case, id lists, failure
reports, batch verbs). Invented domains throughout."""

from __future__ import annotations

import random
from typing import Any

from autoforge.env import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon import derive_state, entity_of, tool_scope, words
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec
from autoforge.tasks.difficulty import parse_difficulty
from autoforge.tasks.gold.plausible import doomed
from autoforge.tasks.pipeline import walk_lengths
from autoforge.tasks.states.idshape import IdShape, KeyRules, fitting
from autoforge.tooldocs import ToolSpec


def test_generated_keys_take_the_form_the_docs_require() -> None:
    lower = fitting(IdShape("KIL-", 4), KeyRules(patterns=("^[a-z][a-z0-9-]+$",)))
    assert lower.key("1234") == "kil-1234"
    twelve = fitting(IdShape("KIL-", 4), KeyRules(shortest=12, longest=12))
    assert len(twelve.key("1" * (twelve.width or 0))) == 12
    digits = fitting(IdShape("KIL-", 4), KeyRules(patterns=(r"^\d+$",)))
    assert digits.key("1234") == "1234"
    assert fitting(IdShape("KIL-", 4), KeyRules()) == IdShape("KIL-", 4)  # nothing required


def test_walk_lengths_stay_within_the_longest_walk_the_graph_has() -> None:
    spec = parse_difficulty("medium")
    rng = random.Random(3)
    drawn = [walk_lengths(spec, rng, longest=2) for _ in range(200)]
    assert all(n <= 2 for lengths in drawn for n in lengths)
    assert all(sum(lengths) >= 3 for lengths in drawn)  # two walks make up the calls
    assert any(n > 2 for _ in range(50) for n in walk_lengths(spec, rng))  # no bound: as before


def _shed_spec() -> EnvironmentSpec:
    key = {"type": "string"}
    params = {"type": "object", "properties": {"YardId": key, "ShedName": key},
              "required": ["YardId", "ShedName"]}  # fmt: skip
    tools = [ToolSpec(name="DeleteShed", parameters=params, access="write"),
             ToolSpec(name="PaintShed", parameters=params, access="write")]  # fmt: skip
    schema = StateSchema(collections=[
        CollectionSchema(name="yards", primary_key="YardId",
                         attributes=[Attribute(name="YardId", type="id")]),
        CollectionSchema(name="sheds", primary_key="ShedName", attributes=[
            Attribute(name="ShedName", type="id"),
            Attribute(name="YardId", type="id", references="yards")]),
    ])  # fmt: skip
    return EnvironmentSpec(name="yards", tools=tools, state_schema=schema)


def _then(spec: EnvironmentSpec, later: str, same_shed: bool) -> Blueprint:
    shed = "shed" if same_shed else "other"
    facts = [FactSpec(name=n, role="entity", collection=c, attribute=a) for n, c, a in
             [("yard", "yards", "YardId"), ("shed", "sheds", "ShedName"),
              ("other", "sheds", "ShedName")]]  # fmt: skip
    return Blueprint(
        nodes=[
            CallNode(id="c0", tool="DeleteShed",
                     args={"YardId": FactRef(name="yard"), "ShedName": FactRef(name="shed")}),
            CallNode(id="c1", tool=later,
                     args={"YardId": FactRef(name="yard"), "ShedName": FactRef(name=shed)}),
        ],
        facts=facts,
    )  # fmt: skip


def test_a_deletion_ends_its_record_not_the_account_it_sits_in() -> None:
    spec = _shed_spec()
    assert tool_scope(spec.tool("DeleteShed"), spec.state_schema).collection == "sheds"
    assert doomed(_then(spec, "PaintShed", same_shed=True), spec, {}) == ("after_terminal", "c1")
    assert doomed(_then(spec, "PaintShed", same_shed=False), spec, {}) is None
    assert doomed(_then(spec, "DeleteShed", same_shed=False), spec, {}) is None


def test_camel_case_names_are_said_as_words() -> None:
    assert words("DeleteNamedShed") == "delete named shed"
    assert words("getHTTPStatus") == "get HTTP status"
    assert words("Colour") == "colour" and words("SKU") == "SKU"
    assert words("update_shed_colour") == "update shed colour"


def _reply(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def test_response_schemas_of_real_documents_read_as_the_records_they_hold() -> None:
    shed = _reply(ShedId={"type": "string"}, Colour={"type": "string"})
    failed = _reply(ShedId={"type": "string"}, ErrorCode={"type": "string"},
                    ErrorMessage={"type": "string"})  # fmt: skip
    ids = {"type": "array", "items": {"type": "string"}, "description": "The shed IDs."}
    tools = [
        ToolSpec(name="BatchGetShed", access="read",
                 parameters={"type": "object", "properties": {"ShedIds": ids}},
                 returns=_reply(Sheds={"type": "array", "items": shed},
                                UnprocessedShedIds={"type": "array", "items": failed})),
        ToolSpec(name="ListShedIds", access="read",
                 returns=_reply(ShedIds=ids, NextToken={"type": "string"})),
    ]  # fmt: skip
    derived = derive_state(tools)
    colls = {c.name: c for c in derived.schema.collections}
    assert list(colls) == ["sheds"]  # no collection of failure reports nor of id lists
    assert {a.name for a in colls["sheds"].attributes} == {"ShedId", "Colour"}
    assert entity_of("ShedIds", None, derived.schema) == "sheds"
    scope = tool_scope(tools[0], derived.schema)
    assert scope.cls == "list" and scope.collection == "sheds"  # a batch lookup lists
