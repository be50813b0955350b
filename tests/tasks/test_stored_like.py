"""A write's argument is drawn like the values its own collection's records hold in the
attribute it is stored in: a number of a record of the same kind, a text the column holds or
one shaped like it; never a value of the same-named column of another collection nor a
number from the schema's whole range. Invented domain throughout."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import BehaviourModel, Effect, Environment, ParamInfo, ToolBehaviour, Value
from autoforge.llm import LLMClient
from autoforge.synth.options import SynthOptions
from autoforge.synth.pipeline import synthesize
from autoforge.tasks import generate_tasks
from autoforge.tasks.gold.alike import data_columns, stored_params
from autoforge.tooldocs import load_docs

#: load (tonnes) of the barges of each hull class, in the data
_LOAD = {"river": (100, 300), "coastal": (900, 1500)}
_GIVEN = ["Alder", "Birch", "Cedar", "Dunlin", "Egret", "Finch", "Gannet", "Heron"]
_FAMILY = ["Star", "Wave", "Crest", "Tide", "Gale", "Reef", "Shoal", "Spray"]


def _model() -> BehaviourModel:
    fields = {
        "barge_id": Value(source="new_id"),
        "title": Value(source="param", name="title"),
        "hull": Value(source="param", name="hull"),
        "load_t": Value(source="param", name="load_t"),
    }
    tool = ToolBehaviour(
        tool="enrol_barge", kind="create", collection="barges",
        params=[ParamInfo(name="title", required=True), ParamInfo(name="hull", required=True),
                ParamInfo(name="load_t", required=True)],
        effects=[Effect(kind="create", record="new", collection="barges", fields=fields)],
    )  # fmt: skip
    rename = ToolBehaviour(
        tool="retitle_barge", kind="update", collection="barges", id_param="barge_id",
        params=[ParamInfo(name="barge_id", required=True), ParamInfo(name="title")],
        effects=[Effect(kind="set", record="target", collection="barges", attribute="title",
                        value=Value(source="param", name="title"))],
    )  # fmt: skip
    return BehaviourModel(tools=[tool, rename])


def _state(n: int, rng: random.Random) -> dict[str, Any]:
    barges: dict[str, Any] = {}
    for i in range(n):
        hull = rng.choice(sorted(_LOAD))
        key = f"BG{i + 1:03d}"
        barges[key] = {"barge_id": key, "hull": hull, "load_t": rng.randint(*_LOAD[hull]),
                       "title": f"{_GIVEN[i % 8]} {_FAMILY[(i * 3 + i // 8) % 8]}"}  # fmt: skip
    # another collection with a column of the same name and nothing in common
    locks = {f"LK{i}": {"lock_id": f"LK{i}", "title": f"Weir gate {i} north", "load_t": 90000 + i}
             for i in range(30)}  # fmt: skip
    return {"barges": barges, "locks": locks}


def test_a_number_comes_from_records_of_the_same_kind() -> None:
    columns = data_columns(_model())
    assert columns is not None
    state = _state(40, random.Random(1))
    rng = random.Random(0)
    for hull, (low, high) in _LOAD.items():
        for _ in range(15):
            ok, load = columns.value("enrol_barge", "load_t", {"hull": hull}, state, rng,
                                     lambda v: True)  # fmt: skip
            assert ok and low <= load <= high, (hull, load)


def test_a_unique_text_is_new_and_shaped_like_its_own_column() -> None:
    columns = data_columns(_model())
    assert columns is not None
    state = _state(40, random.Random(1))
    titles = {b["title"] for b in state["barges"].values()}
    assert len(titles) == 40  # no title repeats: a new one must be made
    rng = random.Random(0)
    for tool in ("enrol_barge", "retitle_barge"):
        for _ in range(15):
            ok, title = columns.value(tool, "title", {}, state, rng, lambda v: True)
            first, last = title.split()
            assert ok and title not in titles and first in _GIVEN and last in _FAMILY, title


def test_nothing_is_said_without_a_model_records_or_an_allowed_value() -> None:
    columns = data_columns(_model())
    assert columns is not None
    rng = random.Random(0)
    assert columns.value("enrol_barge", "load_t", {}, {"barges": {}}, rng, lambda v: True) == (
        False, None)  # fmt: skip
    state = _state(10, random.Random(1))
    assert columns.value("enrol_barge", "load_t", {}, state, rng, lambda v: False) == (False, None)
    assert columns.value("enrol_barge", "barge_id", {}, state, rng, lambda v: True)[0] is False
    assert data_columns(None) is None


def _doc() -> dict[str, Any]:
    barge = {"type": "object", "properties": {
        "barge_id": {"type": "string"}, "title": {"type": "string"},
        "hull": {"type": "string", "enum": sorted(_LOAD)},
        "load_t": {"type": "integer", "minimum": 1, "maximum": 100000}}}  # fmt: skip
    lock = {"type": "object", "properties": {
        "lock_id": {"type": "string"}, "title": {"type": "string"},
        "load_t": {"type": "integer"}}}  # fmt: skip

    def reply(name: str, many: bool = False) -> dict[str, Any]:
        ref: dict[str, Any] = {"$ref": f"#/components/schemas/{name}"}
        schema = {"type": "array", "items": ref} if many else ref
        return {"200": {"description": "ok", "content": {"application/json": {"schema": schema}}}}

    asked = ("title", "hull", "load_t")
    body = {"type": "object", "required": list(asked),
            "properties": {k: barge["properties"][k] for k in asked}}  # fmt: skip
    return {
        "openapi": "3.0.3",
        "info": {"title": "Canal registry", "version": "1",
                 "description": "Ids continue each collection's sequence."},
        "paths": {
            "/barges": {
                "get": {"operationId": "list_barges", "summary": "List barges",
                        "responses": reply("Barge", many=True)},
                "post": {"operationId": "enrol_barge", "summary": "Enrol a barge",
                         "requestBody": {"required": True,
                                         "content": {"application/json": {"schema": body}}},
                         "responses": reply("Barge")}},
            "/locks": {"get": {"operationId": "list_locks", "summary": "List locks",
                               "responses": reply("Lock", many=True)}},
        },
        "components": {"schemas": {"Barge": barge, "Lock": lock}},
    }  # fmt: skip


def test_forged_creates_draw_from_their_own_collection(tmp_path: Path) -> None:
    """End to end, rules only: the enrolments the gold calls make carry a load of their hull's
    range and a title like the barges', never a lock's."""
    doc = tmp_path / "openapi.json"
    doc.write_text(json.dumps(_doc()), encoding="utf-8")
    data = _state(40, random.Random(2))
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    asyncio.run(synthesize(load_docs([doc]), tmp_path / "env", client, data=data,
                           options=SynthOptions()))  # fmt: skip
    env = Environment.load(tmp_path / "env")
    tasks, _ = generate_tasks(env, 6, "easy", seed=0, state_source="data")
    calls = [c for t in tasks for c in t.gold_calls if c.name == "enrol_barge"]
    assert calls, "no task enrolled a barge"
    for call in calls:
        low, high = _LOAD[call.arguments["hull"]]
        assert low <= call.arguments["load_t"] <= high, call.arguments
        assert call.arguments["title"].split()[0] in _GIVEN, call.arguments


def test_a_change_setting_several_attributes_stores_each_of_its_arguments() -> None:
    """A change that sets several attributes at once (status and the reason given) stores
    its argument in the attribute it names: the reason is drawn from that column."""
    both = Effect(kind="set", record="target", collection="barges", fields={
        "state": Value(source="const", const="laid_up"),
        "lay_up_note": Value(source="param", name="note")})  # fmt: skip
    assert stored_params(both) == {"lay_up_note": "note"}
    one = Effect(kind="set", record="target", collection="barges", attribute="title",
                 value=Value(source="param", name="title"))  # fmt: skip
    assert stored_params(one) == {"title": "title"}
