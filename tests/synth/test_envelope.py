"""Documented reply envelopes: a tool answers ``{"Kiln": {...}}`` or ``{"Kilns": [...]}`` when
its docs say so, the checks look inside the envelope, and task generation reads the records
through it (an invented Swagger 2.0 document, ``docs_only/kilns.yaml``)."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import CollectionSchema, Environment, EnvironmentSpec, StateSchema
from autoforge.env.artifact.spec import Attribute
from autoforge.lexicon import Envelope, envelope_of, unwrap
from autoforge.llm import LLMClient
from autoforge.synth.check.checker import check_directory
from autoforge.synth.modelcode.codegen import from_source
from autoforge.synth.pipeline import synthesize
from autoforge.synth.rulecode.envelope import enveloped
from autoforge.tasks import generate_tasks
from autoforge.tooldocs import ToolSpec, load_docs

DOC = Path(__file__).parent / "docs_only" / "kilns.yaml"

KILNS = CollectionSchema(
    name="kilns",
    primary_key="KilnName",
    attributes=[Attribute(name="KilnName"), Attribute(name="Fuel")],
)
KILN = {"type": "object", "properties": {"KilnName": {"type": "string"}, "Fuel": {}}}


def _obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def test_the_envelope_is_read_off_the_documented_reply() -> None:
    assert envelope_of(_obj(Kiln=KILN), KILNS, many=False) == Envelope("Kiln", "record")
    listed = _obj(Kilns={"type": "array", "items": KILN}, NextToken={"type": "string"})
    assert envelope_of(listed, KILNS, many=True) == Envelope("Kilns", "records")
    names = _obj(KilnNames={"type": "array", "items": {"type": "string"}})
    assert envelope_of(names, KILNS, many=True) == Envelope("KilnNames", "keys", "KilnName")


def test_a_reply_that_is_the_record_or_says_nothing_has_no_envelope() -> None:
    assert envelope_of(KILN, KILNS, many=False) is None  # the record's own fields
    assert envelope_of({"type": "array", "items": KILN}, KILNS, many=True) is None
    assert envelope_of(_obj(Kiln=KILN), None, many=False) is None
    assert envelope_of(_obj(Count={"type": "integer"}), KILNS, many=True) is None
    other = _obj(Fuels={"type": "array", "items": {"type": "string"}})  # not the key's plural
    assert envelope_of(other, KILNS, many=True) is None


def test_a_page_with_a_record_field_of_its_own_still_envelopes_its_records() -> None:
    page = _obj(Fuel={"type": "string"}, items={"type": "array", "items": KILN})
    assert envelope_of(page, KILNS, many=True) == Envelope("items", "records")
    thin = _obj(Fuel={"type": "string"}, items={"type": "array", "items": _obj(Other={})})
    assert envelope_of(thin, KILNS, many=True) is None  # the items share less than the page
    assert envelope_of(page, KILNS, many=False) is None  # one record: the reply is it


def test_every_return_of_the_tool_and_none_of_a_helper_is_enveloped() -> None:
    source = (
        "def get_kiln(state, KilnName):\n"
        "    def pick(r):\n"
        "        return r\n"
        "    if KilnName == 'x':\n"
        "        return state['kilns']['a']\n"
        "    return pick(state['kilns'][KilnName])\n"
    )
    code = enveloped(from_source(source, "get_kiln"), Envelope("Kiln", "record"))
    assert code.body.count("{'Kiln': ") == 2 and "return r\n" in code.body
    assert enveloped(code, Envelope("Kiln", "record")).body == code.body  # once only
    assert unwrap({"Kiln": {"Fuel": "gas"}}, Envelope("Kiln", "record")) == {"Fuel": "gas"}


def _sandboxed(
    source: str, tool: str, params: list[str], state: dict[str, Any], args: dict[str, Any]
) -> Any:
    """One call of a generated tool through the environment runtime (sandbox and worker), as
    every synthesized tool runs."""
    spec = EnvironmentSpec(
        name="kilns",
        tools=[ToolSpec(name=tool, parameters={"properties": {p: {} for p in params},
                                               "required": params[:1]})],
    )  # fmt: skip
    obs = Environment.from_parts(spec, source).episode(state=state).call(tool, args)
    assert obs.ok, obs.content
    return obs.result


@pytest.fixture(scope="module")
def kilns(tmp_path_factory: pytest.TempPathFactory) -> tuple[Environment, Path]:
    out = tmp_path_factory.mktemp("kilns") / "env"
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    asyncio.run(synthesize(load_docs([DOC]), out, client))
    return Environment.load(out), out


def _state() -> dict[str, Any]:
    return {
        "kilns": {
            "k1": {"KilnName": "k1", "Fuel": "gas", "MaxTemperature": 1200},
            "k2": {"KilnName": "k2", "Fuel": "wood", "MaxTemperature": 1300},
        }
    }


def _call(env: Environment, tool: str, **args: Any) -> Any:
    obs = env.episode(state=_state()).call(tool, args)
    assert obs.ok, obs.content
    return obs.result


def test_synthesized_tools_answer_as_their_docs_say(kilns: Any) -> None:
    env, _ = kilns
    assert set(env.tools) == {
        "ListKilns", "CreateKiln", "ListKilnNames", "DescribeKiln", "UpdateKiln", "DeleteKiln"
    }  # fmt: skip
    assert _call(env, "DescribeKiln", KilnName="k2") == {"Kiln": _state()["kilns"]["k2"]}
    assert [k["KilnName"] for k in _call(env, "ListKilns")["Kilns"]] == ["k1", "k2"]
    assert len(_call(env, "ListKilns", MaxResults=1)["Kilns"]) == 1  # paging inside it
    assert _call(env, "ListKilnNames") == {"KilnNames": ["k1", "k2"]}
    made = _call(env, "CreateKiln", KilnName="k3", Fuel="oil")["Kiln"]
    assert made["KilnName"] == "k3" and made["Fuel"] == "oil"


def test_the_round_trips_are_checked_through_the_envelope(kilns: Any) -> None:
    _, out = kilns
    report = check_directory(out)
    names = {i.check for i in report.items}
    assert report.ok, [i.detail for i in report.items if not i.ok]
    assert "roundtrip" in names or any(n.startswith("roundtrip") for n in names)


def test_tasks_bind_through_the_envelope_and_updates_get_a_new_value(kilns: Any) -> None:
    env, _ = kilns
    tasks, stats = generate_tasks(env, 6, "medium", seed=0)
    assert len(tasks) == 6, stats.rejected
    updates = [c for t in tasks for c in t.gold_calls if c.name == "UpdateKiln"]
    assert updates and all("Fuel" in c.arguments for c in updates)
    said = " ".join(t.scenario.question for t in tasks)
    assert "the Kilns of" not in said  # the list is said by its records, not its field
    paging = {"MaxResults", "NextToken"}
    assert not any(paging & set(t.user_facts) for t in tasks)


def test_a_broken_update_behind_an_envelope_fails_its_round_trip(
    kilns: Any, tmp_path: Path
) -> None:
    _, out = kilns
    broken = tmp_path / "env"
    shutil.copytree(out, broken)
    tools = broken / "tools.py"
    source = tools.read_text()
    assert "record['Fuel'] = Fuel\n    return {'Kiln': record}" in source
    tools.write_text(source.replace("record['Fuel'] = Fuel\n    return {'Kiln'", "return {'Kiln'"))
    report = check_directory(broken)
    found = [i.detail for i in report.items if i.check == "roundtrip" and not i.ok]
    assert not report.ok and any("UpdateKiln" in d for d in found), found


def test_a_record_s_envelope_carries_the_records_that_point_at_it() -> None:
    firings = CollectionSchema(
        name="firings",
        primary_key="firing_id",
        attributes=[
            Attribute(name="firing_id"),
            Attribute(name="KilnName", type="id", references="kilns"),
            Attribute(name="cone"),
        ],
    )
    schema = StateSchema(collections=[KILNS, firings])
    firing = _obj(firing_id={}, KilnName={}, cone={})
    reply = _obj(kiln=KILN, firings={"type": "array", "items": firing})
    env = envelope_of(reply, KILNS, many=False, schema=schema)
    assert env == Envelope(
        "kiln", "record", related=(("firings", "firings", "KilnName", "KilnName"),)
    )
    source = (
        "def get_kiln(state, KilnName):\n    record = state['kilns'][KilnName]\n    return record\n"
    )
    code = enveloped(from_source(source, "get_kiln"), env)
    state: dict[str, Any] = {
        "kilns": {"k1": {"KilnName": "k1"}, "k2": {"KilnName": "k2"}},
        "firings": {
            "f1": {"firing_id": "f1", "KilnName": "k1", "cone": 6},
            "f2": {"firing_id": "f2", "KilnName": "k2", "cone": 10},
        },
    }
    got = _sandboxed(code.body, "get_kiln", ["KilnName"], state, {"KilnName": "k2"})
    assert got == {"kiln": {"KilnName": "k2"}, "firings": [state["firings"]["f2"]]}


def test_a_reply_field_named_as_a_parameter_echoes_the_call_s_value() -> None:
    listed = _obj(Kilns={"type": "array", "items": KILN}, yardId={"type": "string"})
    env = envelope_of(listed, KILNS, many=True, params=["yard_id", "Fuel"])
    assert env == Envelope("Kilns", "records", echo=(("yardId", "yard_id"),))
    source = (
        "def list_kilns(state, yard_id, Fuel=None):\n    return list(state['kilns'].values())\n"
    )
    code = enveloped(from_source(source, "list_kilns"), env, {"yard_id": "yard_id"})
    got = _sandboxed(
        code.body, "list_kilns", ["yard_id", "Fuel"], {"kilns": {}}, {"yard_id": "Y-1"}
    )
    assert got == {"Kilns": [], "yardId": "Y-1"}
