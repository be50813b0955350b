"""Documents without data: what a write is given, its record keeps (``synth.state.inputs``);
a POST whose path ends in a read verb reads (``tooldocs.importers.openapi.method_access``); a
record's name that no read shows is its key (``synth.state.keys``); an update named within its
scope gets a new value in the checks (``synth.checking.teststate``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import CollectionSchema, Environment, StateSchema
from autoforge.env.artifact.spec import Attribute
from autoforge.lexicon import SCOPE_NOTE, tool_scope
from autoforge.llm import LLMClient
from autoforge.synth.checking.teststate import happy_arguments
from autoforge.synth.pipeline import synthesize
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.synth.rulecode.doc_templates import field_by_noun
from autoforge.synth.rulecode.transition_fields import modified_field
from autoforge.synth.state.keys import key_by_tools
from autoforge.tooldocs import ToolSpec, load_docs

DOC = Path(__file__).parent / "docs_only" / "lanterns.yaml"


@pytest.fixture(scope="module")
def lanterns(tmp_path_factory: pytest.TempPathFactory) -> tuple[Environment, dict[str, Any]]:
    out = tmp_path_factory.mktemp("lanterns") / "env"
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    report = asyncio.run(synthesize(load_docs([DOC]), out, client))
    return Environment.load(out), report.model_dump(mode="json")


def _state() -> dict[str, Any]:
    return {
        "lanterns": {"L1": {"LanternId": "L1", "Name": "porch", "Lit": False}},
        "wicks": {"W1": {"WickId": "W1", "Fibre": "cotton"}},
    }


def test_a_parameter_named_by_the_record_s_noun_names_that_field() -> None:
    coll = CollectionSchema(
        name="data_sources",
        primary_key="DataSourceId",
        attributes=[Attribute(name="DataSourceId"), Attribute(name="Name")],
    )
    assert field_by_noun(coll, "DataSourceName") == "Name"
    assert field_by_noun(coll, "data_source_name") == "Name"
    assert field_by_noun(coll, "DataSourceId") is None  # the key is the key parameter's
    assert field_by_noun(coll, "OwnerName") is None
    models = CollectionSchema(
        name="mlmodels", primary_key="MLModelId", attributes=[Attribute(name="Name")]
    )
    assert field_by_noun(models, "MLModelName") == "Name"  # the noun's words run together


def test_the_create_s_inputs_get_a_place_and_control_words_do_not(lanterns: Any) -> None:
    env, report = lanterns
    kept = report["state"]["kept_inputs"]
    assert {"lanterns.BurnHours", "lanterns.Colours", "lanterns.WickIds"} <= set(kept)
    assert "lanterns.LanternName" not in kept  # it is the lantern's Name
    assert "lanterns.ClientToken" not in kept  # an idempotency token is no value
    wick_ids = env.spec.state_schema.collection("lanterns").attribute("WickIds")  # type: ignore[union-attr]
    assert wick_ids is not None and wick_ids.type == "array"
    tools = {t["name"]: t for t in report["tools"]}
    assert tools["CreateLantern"]["status"] in ("accepted", "fallback")


def test_create_then_describe_shows_what_the_call_gave(lanterns: Any) -> None:
    env, _ = lanterns
    ep = env.episode(state=_state())
    made = ep.call(
        "CreateLantern",
        {"LanternId": "L2", "LanternName": "gate", "BurnHours": 6, "Colours": ["amber"]},
    )
    assert made.ok, made.content
    got = ep.call("DescribeLantern", {"LanternId": "L2"})
    assert got.ok
    lantern = got.result["Lantern"]
    assert (lantern["Name"], lantern["BurnHours"], lantern["Colours"]) == ("gate", 6, ["amber"])


def test_a_list_of_keys_is_checked_key_by_key(lanterns: Any) -> None:
    env, _ = lanterns
    ep = env.episode(state=_state())
    args = {"LanternId": "L3", "LanternName": "shed", "BurnHours": 2}
    bad = ep.call("CreateLantern", {**args, "WickIds": ["W1", "W9"]})
    assert not bad.ok and "W9" in bad.content
    good = ep.call("CreateLantern", {**args, "WickIds": ["W1"]})
    assert good.ok, good.content
    assert ep.snapshot()["lanterns"]["L3"]["WickIds"] == ["W1"]


def test_a_post_to_a_search_path_reads() -> None:
    docs = load_docs([DOC])
    access = {t.name: t.access for t in docs.tools}
    assert access["post_wicks_search"] == "read"
    assert access["CreateLantern"] == "write"


def _tool(name: str, *params: str, access: str = "write") -> ToolSpec:
    props = {p: {"type": "string"} for p in params}
    return ToolSpec(
        name=name,
        access=access,  # type: ignore[arg-type]
        parameters={"type": "object", "properties": props, "required": list(params)},
    )


def test_a_record_name_no_read_shows_becomes_the_key() -> None:
    """``accountName`` in every call on a storage account whose documented fields have no
    name: the account is found by it, so it is the key."""
    coll = CollectionSchema(
        name="storage_accounts",
        primary_key="storage_account_id",
        attributes=[Attribute(name="storage_account_id", type="id"), Attribute(name="kind")],
    )
    schema = StateSchema(collections=[coll])
    tools = [
        _tool("StorageAccounts_Get", "groupName", "accountName", access="read"),
        _tool("StorageAccounts_Delete", "groupName", "accountName"),
    ]
    provenance = {"storage_accounts": {"storage_account_id": "rules:invented"}}
    assert key_by_tools(schema, tools, provenance) == [
        "storage_accounts: storage_account_id -> accountName"
    ]
    assert coll.primary_key == "accountName" and coll.attribute("accountName") is not None
    assert coll.attribute("groupName") is None  # where it lives names no account


def test_an_update_named_within_its_scope_still_gets_a_new_value() -> None:
    coll = CollectionSchema(
        name="jobs",
        primary_key="jobName",
        attributes=[
            Attribute(name="jobName", type="id"),
            Attribute(name="groupName", description=f"{SCOPE_NOTE} list_jobs lists jobs of"),
            Attribute(name="state", type="string"),
        ],
    )
    schema = StateSchema(collections=[coll])
    spec = ToolSpec(
        name="Jobs_Patch",
        access="write",
        parameters={
            "type": "object",
            "properties": {
                "groupName": {"type": "string"},
                "jobName": {"type": "string"},
                "state": {"type": "string"},
            },
            "required": ["groupName", "jobName"],
        },
    )
    state = {"jobs": {"J1": {"jobName": "J1", "groupName": "g", "state": "on"}}}
    args = happy_arguments(spec, classify_tool(spec, schema), schema, state)
    assert "state" in args  # naming the record within its scope is no change


def test_a_name_the_parameters_alone_added_is_the_key_too() -> None:
    coll = CollectionSchema(
        name="domains",
        primary_key="domain_id",
        attributes=[Attribute(name="domain_id", type="id"), Attribute(name="DomainName")],
    )
    schema = StateSchema(collections=[coll])
    tools = [_tool("CreateDomain", "DomainName"), _tool("DeleteDomain", "DomainName")]
    origins = {"domains": {"domain_id": "rules:invented", "DomainName": "rules:a parameter"}}
    assert key_by_tools(schema, tools, origins) == ["domains: domain_id -> DomainName"]


def test_a_record_given_whole_is_stored_field_by_field(lanterns: Any) -> None:
    env, report = lanterns
    assert "wicks.Wick" not in report["state"]["kept_inputs"]
    ep = env.episode(state=_state())
    made = ep.call("CreateWick", {"Wick": {"WickId": "W2", "Fibre": "hemp"}})
    assert made.ok, made.content
    assert ep.snapshot()["wicks"]["W2"] == {"WickId": "W2", "Fibre": "hemp"}
    unnamed = ep.call("CreateWick", {"Wick": {"Fibre": "wool"}})
    assert not unnamed.ok and "WickId" in unnamed.content
    again = ep.call("CreateWick", {"Wick": {"WickId": "W1", "Fibre": "wool"}})
    assert not again.ok and "already exists" in again.content


def test_a_change_named_by_a_word_of_its_name_acts_on_the_record_its_key_names() -> None:
    """``IncreaseReplicationFactor(ClusterName, NewReplicationFactor)``: "factor" is no record
    the docs describe; the call acts on the cluster and sets its ``ReplicationFactor``."""
    clusters = CollectionSchema(
        name="clusters",
        primary_key="ClusterName",
        description="A cluster.",
        attributes=[Attribute(name="ClusterName", type="id"), Attribute(name="ReplicationFactor")],
    )
    factors = CollectionSchema(
        name="factors",
        primary_key="factor_id",
        attributes=[Attribute(name="factor_id", type="id"), Attribute(name="ClusterName")],
    )
    schema = StateSchema(collections=[clusters, factors])
    spec = _tool("IncreaseReplicationFactor", "ClusterName", "NewReplicationFactor")
    scope = tool_scope(spec, schema)
    assert (scope.collection, scope.key_param) == ("clusters", "ClusterName")
    assert modified_field(clusters, "NewReplicationFactor") == "ReplicationFactor"
    described = factors.model_copy(update={"description": "A factor the docs describe."})
    other = StateSchema(collections=[clusters, described])
    assert tool_scope(spec, other).collection == "factors"  # a documented record stays
