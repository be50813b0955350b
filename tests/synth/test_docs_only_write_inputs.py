"""Documents without data: what a write is given, its record keeps (``synth.state.inputs``);
a POST whose path ends in a read verb reads (``tooldocs.importers.openapi.method_access``)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import CollectionSchema, Environment
from autoforge.env.artifact.spec import Attribute
from autoforge.llm import LLMClient
from autoforge.synth.pipeline import synthesize
from autoforge.synth.rulecode.doc_templates import noun_field
from autoforge.tooldocs import load_docs

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
    assert noun_field(coll, "DataSourceName") == "Name"
    assert noun_field(coll, "data_source_name") == "Name"
    assert noun_field(coll, "DataSourceId") is None  # the key is the key parameter's
    assert noun_field(coll, "OwnerName") is None


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
