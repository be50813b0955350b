"""Task generation on what real API documents give: keys in the form the docs require, walk
lengths the tool graph has, a deletion that ends its record and not the account it sits in,
and the names and response schemas such documents use (camel case, id lists, failure
reports, batch verbs). Invented domains throughout."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Attribute, CollectionSchema, Environment, EnvironmentSpec, StateSchema
from autoforge.lexicon import (
    IdShape,
    KeyRules,
    derive_state,
    entity_of,
    find_user_collection,
    fitting,
    tool_access,
    tool_scope,
    words,
)
from autoforge.llm import LLMClient
from autoforge.synth.pipeline import synthesize
from autoforge.tasks import generate_tasks
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec
from autoforge.tasks.difficulty import parse_difficulty
from autoforge.tasks.gold.plausible import doomed
from autoforge.tasks.pipeline import walk_lengths
from autoforge.tooldocs import ToolSpec, load_docs


def _forged(doc: str, n: int, tmp: Path) -> tuple[Environment, list[Any], Any]:
    """The environment rules synthesize from one of the invented documents, and ``n`` medium
    tasks generated on it (seed 0)."""
    docs = load_docs([Path(__file__).parents[1] / "synth" / "docs_only" / doc])
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    asyncio.run(synthesize(docs, tmp / "env", client))
    env = Environment.load(tmp / "env")
    tasks, stats = generate_tasks(env, n, "medium", seed=0)
    return env, tasks, stats


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


def test_a_user_is_a_person_an_account_or_a_bare_account_the_records_sit_in() -> None:
    def coll(name: str, key: str, *attrs: Attribute) -> CollectionSchema:
        return CollectionSchema(name=name, primary_key=key,
                                attributes=[Attribute(name=key, type="id"), *attrs])  # fmt: skip

    shards = coll("shards", "ShardId", Attribute(name="StreamName", references="streams"))
    streams = coll("streams", "StreamName", Attribute(name="RetentionHours", type="integer"))
    assert find_user_collection(StateSchema(collections=[streams, shards])) is None
    yards = coll("yards", "YardId")  # nothing but its key, and two kinds of records sit in it
    sheds = coll("sheds", "ShedId", Attribute(name="YardId", references="yards"))
    kilns = coll("kilns", "KilnId", Attribute(name="YardId", references="yards"))
    assert find_user_collection(StateSchema(collections=[yards, sheds, kilns])) == "yards"
    owners = coll("potters", "PotterId", Attribute(name="email"))
    pots = coll("pots", "PotId", Attribute(name="PotterId", references="potters"))
    assert find_user_collection(StateSchema(collections=[owners, pots])) == "potters"


def test_a_batch_read_in_an_all_post_api_is_a_read() -> None:
    assert tool_access(ToolSpec(name="BatchGetShed")) == "read"
    assert tool_access(ToolSpec(name="BatchDeleteShed")) == "write"


def test_requests_on_a_document_with_several_word_nouns_read_as_words(tmp_path: Path) -> None:
    _, tasks, stats = _forged("glaze.yaml", 6, tmp_path)
    assert len(tasks) == 6, stats.rejected
    said = " ".join(t.scenario.question for t in tasks)
    assert "glaze batch" in said and "_" not in said and "batchs" not in said
    assert "glaze batch of glaze batch" not in said  # the record is named once
    assert all("glaze" not in t.scenario.persona for t in tasks)  # no user among the batches
    assert not any("GlazeBatchIds" in t.user_facts for t in tasks)  # no empty list filter


def test_a_request_that_asks_the_same_thing_twice_is_rejected(bookstore_env: Any) -> None:
    from autoforge.tasks.pipeline import TaskHooks
    from autoforge.tasks.scenario.question import ScenarioRequest, TemplateWriter, intent_steps

    class Twice:
        """The template request, its intent's first step said twice."""

        name = "twice"

        def write(self, request: ScenarioRequest) -> Any:
            said = TemplateWriter().write(request)
            step = intent_steps(said.intent)[0]
            return said.model_copy(update={"intent": f"{said.intent[:-1]}; then {step}."})

    tasks, stats = generate_tasks(bookstore_env, 2, "medium", seed=0,
                                  hooks=TaskHooks(writer=Twice()), max_attempts=40)  # fmt: skip
    assert not tasks and stats.rejected.get("repeated_ask", 0) > 0
    tasks, _ = generate_tasks(bookstore_env, 2, "medium", seed=0, max_attempts=40)
    assert tasks  # the same blueprints, said once each, pass


def test_dotted_operation_names_read_as_their_nouns_without_the_api_name() -> None:
    from autoforge.lexicon import api_prefix, target_collection, without_prefix

    schema = StateSchema(collections=[
        CollectionSchema(name="yards", primary_key="yardId"),
        CollectionSchema(name="glaze_batches", primary_key="glazeBatchId",
                         attributes=[Attribute(name="yardId", references="yards")]),
    ])  # fmt: skip
    listed = ToolSpec(name="shedhost_glazebatches_list",
                      parameters={"properties": {"yardId": {"type": "string"}}})  # fmt: skip
    found = target_collection(listed, schema)
    assert found is not None and found.name == "glaze_batches"  # one word for glaze_batches
    names = ["shedhost_glazebatches_list", "shedhost_yards_get"]
    assert api_prefix(names) == "shedhost" and api_prefix(["get_yard", "get_shed"]) == ""
    assert without_prefix("shedhost_glazebatches_insert", "shedhost") == "glazebatches_insert"


def test_a_create_named_by_its_parent_gets_a_value_and_a_delete_finds_under_the_parent(
    tmp_path: Path,
) -> None:
    env, tasks, stats = _forged("yards.yaml", 6, tmp_path)
    assert "DeleteShed" in env.tools  # a delete that names the parent is a plain delete
    state = {"yards": {"Y1": {"yardId": "Y1"}, "Y2": {"yardId": "Y2"}},
             "sheds": {"S1": {"shedId": "S1", "yardId": "Y1"}}}  # fmt: skip
    wrong = env.episode(state=state).call("DeleteShed", {"yardId": "Y2", "shedId": "S1"})
    assert not wrong.ok and "not found" in wrong.content
    creates = [c for t in tasks for c in t.gold_calls if c.name == "CreateShed"]
    assert creates, stats.rejected
    assert all(set(c.arguments) - {"yardId"} for c in creates)  # never an empty shed


def test_a_describe_reply_is_the_record_and_a_list_for_a_parent_lists_its_noun() -> None:
    from autoforge.lexicon import listed_noun

    shed = {"id": {"type": "string"}, "colour": {"type": "string"}}
    tools = [
        ToolSpec(name="CreateShed", access="write",
                 returns={"title": "CreateShedResult", "type": "object",
                          "properties": {"id": shed["id"]}}),
        ToolSpec(name="DescribeShed", access="read",
                 parameters={"type": "object", "properties": {"id": {"type": "string"}}},
                 returns={"title": "DescribeShedResult", "type": "object", "properties": shed}),
    ]  # fmt: skip
    names = [c.name for c in derive_state(tools).schema.collections]
    assert names == ["sheds"]  # not "describe_sheds" beside "sheds"
    assert listed_noun("ListTagsForShed") == "tag" and listed_noun("search_by_colour") == "colour"
