"""Documents without data get the behaviour model too: the state design's layout (collections,
attributes, keys, references) stands in for the data, so the operations and sentences the docs
state become the tools' code, and a create continues the key shape the schema states
(``pattern: '^PL\\d{3}$'``). Before, such a create wrote its arguments onto the grower it was
given (and passed the check), and a documented action was left out."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import Environment
from autoforge.llm import LLMClient
from autoforge.synth.pipeline import synthesize
from autoforge.tooldocs import load_docs

DOC = Path(__file__).parent / "docs_only" / "plots.yaml"


@pytest.fixture(scope="module")
def plots(tmp_path_factory: pytest.TempPathFactory) -> tuple[Environment, dict[str, Any]]:
    out = tmp_path_factory.mktemp("plots") / "env"
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    report = asyncio.run(synthesize(load_docs([DOC]), out, client))
    return Environment.load(out), report.model_dump(mode="json")


def _state() -> dict[str, Any]:
    return {
        "plots": {
            "PL007": {"plot_id": "PL007", "grower_id": "G1", "size_m2": 10.0, "status": "rented"},
            "PL009": {"plot_id": "PL009", "grower_id": None, "size_m2": 8.0, "status": "vacant"},
        },
        "growers": {
            "G1": {"grower_id": "G1", "name": "Ana", "status": "active"},
            "G2": {"grower_id": "G2", "name": "Bo", "status": "suspended"},
        },
    }


def _call(env: Environment, tool: str, **args: Any) -> tuple[bool, Any, dict[str, Any]]:
    ep = env.episode(state=_state())
    obs = ep.call(tool, args)
    return obs.ok, obs.result if obs.ok else obs.content, ep.snapshot()


def test_every_documented_tool_is_written_from_the_docs(plots: Any) -> None:
    env, report = plots
    assert set(env.tools) == {"list_plots", "rent_plot", "get_plot", "release_plot", "get_grower"}
    assert {t["name"]: t["source"] for t in report["tools"]} == dict.fromkeys(
        env.tools, "behaviour"
    )
    assert report["conformance"]["ok"]


def test_a_create_makes_a_record_of_its_own_collection_in_the_stated_key_shape(plots: Any) -> None:
    env, _ = plots
    ok, made, state = _call(env, "rent_plot", grower_id="G1", size_m2=12)
    assert ok, made
    assert made["plot_id"] == "PL010" and state["plots"]["PL010"]["status"] == "rented"
    assert state["growers"] == _state()["growers"]  # the grower is not overwritten


def test_a_create_checks_the_record_it_refers_to(plots: Any) -> None:
    env, _ = plots
    ok, why, state = _call(env, "rent_plot", grower_id="G2", size_m2=12)
    assert not ok and "suspended" in why and state == _state()
    ok, why, _ = _call(env, "rent_plot", grower_id="G9", size_m2=12)
    assert not ok and "not found" in why


def test_a_documented_action_is_present_and_keeps_its_rule(plots: Any) -> None:
    env, _ = plots
    ok, _, state = _call(env, "release_plot", plot_id="PL007")
    assert ok and state["plots"]["PL007"]["status"] == "vacant"
    ok, why, _ = _call(env, "release_plot", plot_id="PL009")
    assert not ok and "rented" in why


def test_an_envelope_reply_is_read_and_kept_around_the_record() -> None:
    from autoforge.env import Attribute, CollectionSchema, StateSchema
    from autoforge.synth.behaviour.compile import compile_tool
    from autoforge.synth.behaviour.data import DataEvidence
    from autoforge.synth.behaviour.derive import context_of, skeleton
    from autoforge.tooldocs import ToolSpec

    attrs = [Attribute(name=n) for n in ("plot_id", "grower_id", "status")]
    schema = StateSchema(
        collections=[CollectionSchema(name="plots", primary_key="plot_id", attributes=attrs)]
    )
    record = {"type": "object", "properties": {a.name: {"type": "string"} for a in attrs}}
    get = ToolSpec(
        name="get_plot",
        parameters={"type": "object", "properties": {"plot_id": {"type": "string"}}},
        returns={"type": "object", "properties": {"Plot": record}},
        access="read",
    )
    listed = get.model_copy(
        update={
            "name": "list_plots",
            "parameters": {"type": "object", "properties": {}},
            "returns": {
                "type": "object",
                "properties": {"Plots": {"type": "array", "items": record}},
            },
        }
    )
    ctx = context_of([get, listed], DataEvidence.of_layout(schema), "")
    tb = skeleton(listed, ctx)
    assert (tb.kind, tb.reply.kind, tb.reply.wrap) == ("list", "list", "Plots")
    assert "return {'Plots': _out}" in compile_tool(tb, "")


def test_an_rpc_path_says_nothing_and_a_post_that_reads_is_no_create(tmp_path: Path) -> None:
    """``POST /#DeleteWidget`` (the operation's name in the path's fragment, as RPC-style
    documents write every call) is not read as a create of a widget; a POST its docs call a
    read (a search) lists, it does not create. Before, every such call was a create, and a
    delete made a record."""
    out = tmp_path / "env"
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    asyncio.run(synthesize(load_docs([DOC.parent / "rpc.yaml"]), out, client))
    from autoforge.env import BehaviourModel

    model = BehaviourModel.load(out)
    kinds = {t.tool: (t.kind, t.operation) for t in model.tools}
    assert kinds["DeleteWidget"] == ("compute", "") and kinds["CreateWidget"] == ("compute", "")
    assert kinds["search_widgets"] == ("list", "POST /widgets/search")
    # a PUT named as a create (it makes the record its path names): the method says update,
    # the name create; without data nothing settles it, so the behaviour model writes neither
    report = json.loads((out / "synthesis_report.json").read_text(encoding="utf-8"))
    sources = {t["name"]: t["source"] for t in report["tools"]}
    assert kinds["create_gadget"][0] == "update" and sources["create_gadget"] != "behaviour"
    assert sources["get_gadget"] == "behaviour"
