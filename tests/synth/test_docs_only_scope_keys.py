"""Documents without data: where records live (scopes), what names them (keys), and the
names real API documents use (``Noun_Verb`` operations, ``...Definition`` schemas, enum
words that are also nouns, ``XNames`` filters, creates that take their record's key)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import CollectionSchema, Environment, StateSchema
from autoforge.env.artifact.spec import Attribute
from autoforge.lexicon import target_collection
from autoforge.lexicon.toolscope import names_key
from autoforge.llm import LLMClient
from autoforge.synth.pipeline import synthesize
from autoforge.tooldocs import ToolSpec, load_docs

DOC = Path(__file__).parent / "docs_only" / "hangars.yaml"


@pytest.fixture(scope="module")
def hangars(tmp_path_factory: pytest.TempPathFactory) -> tuple[Environment, dict[str, Any]]:
    out = tmp_path_factory.mktemp("hangars") / "env"
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    report = asyncio.run(synthesize(load_docs([DOC]), out, client))
    return Environment.load(out), report.model_dump(mode="json")


def _state() -> dict[str, Any]:
    return {
        "hangars": {
            "north": {"id": "h1", "name": "north", "size": 3, "regionName": "coast"},
            "south": {"id": "h2", "name": "south", "size": 5, "regionName": "hills"},
        },
        "sheds": {
            "red": {"ShedName": "red", "Colour": "red", "ShedArn": "a1"},
            "blue": {"ShedName": "blue", "Colour": "blue", "ShedArn": "a2"},
        },
        "events": {},
    }


def _call(env: Environment, tool: str, **args: Any) -> tuple[bool, Any, dict[str, Any]]:
    ep = env.episode(state=_state())
    obs = ep.call(tool, args)
    return obs.ok, obs.result if obs.ok else obs.content, ep.snapshot()


def test_the_key_is_what_the_tools_name_records_by(hangars: Any) -> None:
    env, report = hangars
    coll = env.spec.state_schema.collection("hangars")
    assert coll is not None and coll.primary_key == "name"  # the docs' ``id`` no tool passes
    assert report["state"]["rekeyed"] == ["hangars: id -> name"]


def test_a_list_s_required_parameter_is_the_scope_its_records_live_in(hangars: Any) -> None:
    env, report = hangars
    assert "hangars.regionName" in report["state"]["scoped"]
    ok, got, _ = _call(env, "Hangars_ListByRegion", regionName="coast")
    assert ok and [h["name"] for h in got["value"]] == ["north"]  # the documented reply


def test_one_record_is_found_only_in_the_scope_the_call_names(hangars: Any) -> None:
    env, _ = hangars
    ok, got, _ = _call(env, "Hangars_Get", regionName="coast", hangarName="north")
    assert ok and got["size"] == 3
    ok, got, state = _call(env, "Hangars_Delete", regionName="hills", hangarName="north")
    assert not ok and "not found" in got and "north" in state["hangars"]
    ok, _, state = _call(env, "Hangars_Delete", regionName="coast", hangarName="north")
    assert ok and "north" not in state["hangars"]


def test_a_plural_names_filter_keeps_the_records_named(hangars: Any) -> None:
    env, _ = hangars
    ok, got, _ = _call(env, "DescribeSheds", ShedNames=["blue"])
    assert ok and [s["ShedName"] for s in got["Sheds"]] == ["blue"]
    ok, got, _ = _call(env, "DescribeSheds")
    assert ok and len(got["Sheds"]) == 2


def test_a_create_that_takes_its_key_makes_a_new_record_and_refuses_a_taken_one(
    hangars: Any,
) -> None:
    env, _ = hangars
    assert "CreateShed" in env.tools  # a create, not an update of an existing shed
    ok, _, state = _call(env, "CreateShed", ShedName="green", Colour="green")
    assert ok and state["sheds"]["green"]["Colour"] == "green"
    ok, got, state = _call(env, "CreateShed", ShedName="red", Colour="green")
    assert not ok and "already exists" in got and state["sheds"]["red"]["Colour"] == "red"


def test_schema_role_words_and_noun_verb_names_give_the_collection(hangars: Any) -> None:
    env, report = hangars
    names = [c.name for c in env.spec.state_schema.collections]
    assert "hangars" in names and "hangar_definitions" not in names
    by_tool = {t["name"]: t["collection"] for t in report["tools"]}
    assert by_tool["Hangars_Get"] == by_tool["Hangars_ListByRegion"] == "hangars"


def test_an_enum_word_that_is_a_collection_noun_still_names_it() -> None:
    schema = StateSchema(
        collections=[
            CollectionSchema(name="sheds", primary_key="shed_name"),
            CollectionSchema(
                name="events",
                primary_key="event_id",
                attributes=[Attribute(name="source", type="enum", enum=["shed", "hangar"])],
            ),
        ]
    )
    spec = ToolSpec(name="create_shed", parameters={"properties": {"colour": {}}})
    found = target_collection(spec, schema)
    assert found is not None and found.name == "sheds"


def test_a_key_after_the_noun_or_its_last_words_names_the_record() -> None:
    coll = CollectionSchema(name="storage_accounts", primary_key="name")
    assert names_key("storage_account_name", coll) and names_key("account_name", coll)
    assert not names_key("resource_group_name", coll) and not names_key("count_name", coll)
    assert not names_key("id", CollectionSchema(name="orders", primary_key="order_id"))


def test_a_record_the_tools_name_by_its_bare_noun_is_keyed_by_its_documented_name() -> None:
    from autoforge.synth.state.keys import key_by_tools

    def tool(name: str, params: list[str], required: list[str]) -> ToolSpec:
        props = {p: {"type": "string"} for p in params}
        return ToolSpec(name=name, parameters={"properties": props, "required": required})

    sheds = CollectionSchema(
        name="sheds",
        primary_key="id",
        attributes=[Attribute(name="id"), Attribute(name="name"), Attribute(name="colour")],
    )
    schema = StateSchema(collections=[sheds])
    tools = [
        tool("get_shed", ["yard", "shed"], ["yard", "shed"]),
        tool("delete_shed", ["yard", "shed"], ["yard", "shed"]),
        tool("update_shed", ["yard", "shed", "id", "colour"], ["yard", "shed"]),  # body's id
    ]
    docs = {"id": "docs:Shed", "name": "docs:Shed", "colour": "docs:Shed"}
    assert key_by_tools(schema, tools, {"sheds": dict(docs)}) == ["sheds: id -> name"]
    assert names_key("shed", sheds) and not names_key("yard", sheds)
    undocumented = CollectionSchema(
        name="sheds", primary_key="id", attributes=[Attribute(name="id"), Attribute(name="name")]
    )
    origins = {"sheds": {"id": "docs:Shed", "name": "rules:from a parameter"}}
    assert key_by_tools(StateSchema(collections=[undocumented]), tools, origins) == []


def test_a_key_a_tool_takes_as_an_integer_is_digits_in_test_and_task_states() -> None:
    from autoforge.env import EnvironmentSpec
    from autoforge.lexicon import IdShape, fitting, key_rules
    from autoforge.synth.checking.teststate import integer_passed, synthetic_state

    sheds = CollectionSchema(name="sheds", primary_key="id", attributes=[Attribute(name="id")])
    schema = StateSchema(collections=[sheds])
    get = ToolSpec(name="get_shed", parameters={"properties": {"shed_id": {"type": "integer"}}})
    assert integer_passed(schema, [get]) == {"sheds"}
    state = synthetic_state(schema, digits=integer_passed(schema, [get]))
    assert list(state["sheds"]) == ["1", "2", "3"]  # str(2) finds a record
    spec = EnvironmentSpec(name="sheds", tools=[get], state_schema=schema)
    assert fitting(IdShape("SHE-", 4), key_rules(spec, sheds)).key("1234") == "1234"


def test_a_key_a_tool_takes_as_a_number_names_a_record_of_the_test_state() -> None:
    from autoforge.synth.checking.teststate import integer_passed, sample_value, synthetic_state

    sheds = CollectionSchema(name="sheds", primary_key="id", attributes=[Attribute(name="id")])
    schema = StateSchema(collections=[sheds])
    prop = {"type": "number", "format": "double"}
    get = ToolSpec(name="get_shed", parameters={"properties": {"shed_id": prop}})
    assert integer_passed(schema, [get]) == {"sheds"}
    state = synthetic_state(schema, digits=integer_passed(schema, [get]))
    value = sample_value(prop, "shed_id", schema, state)
    assert str(value) in state["sheds"]  # not 2.5, which names no record
    assert sample_value(prop, "weight", schema, state) == 2.5


def test_a_read_finds_a_record_only_under_the_parent_the_call_names() -> None:
    from autoforge.lexicon import scope_params
    from autoforge.synth.checking.teststate import unknown_key_calls
    from autoforge.synth.rulecode.classify import classify_tool
    from autoforge.synth.state.design import rule_based_schema

    yards = CollectionSchema(name="yards", primary_key="yard_id")
    sheds = CollectionSchema(
        name="sheds",
        primary_key="shed_id",
        attributes=[Attribute(name="shed_id"), Attribute(name="yard_id", references="yards")],
    )
    # a design that took the cursor for a kind of record (the rules no longer make one)
    cursor = CollectionSchema(name="exclusive_start_sheds", primary_key="exclusive_start_shed_id")
    schema = StateSchema(collections=[yards, sheds, cursor])
    props = {"yard_id": {"type": "string"}, "shed_id": {"type": "string"},
             "exclusive_start_shed_id": {"type": "string"}}  # fmt: skip
    get = ToolSpec(name="get_shed", access="read", parameters={"properties": props})
    paint = ToolSpec(name="paint_shed", access="write", parameters={"properties": props})
    assert scope_params(get, sheds, "shed_id") == ["yard_id"]
    assert scope_params(paint, sheds, "shed_id") == []  # a write's reference may be a new value
    c = classify_tool(get, schema)
    probed = [p for p, _ in unknown_key_calls(get, c, schema, {"shed_id": "SHE-1"})]
    assert "exclusive_start_shed_id" not in probed  # a cursor need not name a record
    assert "yard_id" in probed  # an unknown parent is refused
    names = [c.name for c in rule_based_schema([get]).collections]
    assert "exclusive_start_sheds" not in names and "sheds" in names
