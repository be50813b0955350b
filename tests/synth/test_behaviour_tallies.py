"""Tallies the data shows and no sentence states, on a small API written for this test: an
apiary's ``hive_count`` is the number of its hives that are active or resting, its
``box_total`` the summed length of its hives' ``boxes``. Writes that change the hives keep both
true; a new apiary starts them (and its other number attributes) at 0. The docs say only that
a new hive is refused "when the apiary is already at its limit": ``hive_limit``, which the
count never passes in the data, is the bound. The same API has a ``POST`` on an apiary that
answers with a new inspection of it."""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.cli.llm import llm_config_from_options
from autoforge.env import BehaviourModel, Effect, Environment, ToolBehaviour, Value
from autoforge.llm import LLMClient
from autoforge.synth.behaviour.data import DataEvidence
from autoforge.synth.behaviour.tallies import add_tallies, learn_tallies
from autoforge.synth.pipeline import SynthOptions, synthesize
from autoforge.tooldocs import load_docs

HERE = Path(__file__).parent / "behaviour_apis"
DATA: dict[str, Any] = json.loads((HERE / "apiary_db.json").read_text())


@pytest.fixture(scope="module")
def apiary(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    out = tmp_path_factory.mktemp("apiary") / "env"
    docs = load_docs([HERE / "apiary_openapi.yaml"])
    client = LLMClient.scripted([], config=llm_config_from_options(llm_model="none"))
    asyncio.run(synthesize(docs, out, client, data=copy.deepcopy(DATA), options=SynthOptions()))
    return Environment.load(out)


def _call(env: Environment, tool: str, **args: Any) -> tuple[bool, Any, Any]:
    ep = env.episode(state=copy.deepcopy(DATA))
    obs = ep.call(tool, args)
    return obs.ok, obs.result, ep.snapshot()


def test_the_data_shows_a_filtered_count_and_a_summed_length() -> None:
    got = {(t.attribute, t.measure, t.field, t.status, t.counted) for t in learn_tallies(
        DataEvidence.of(DATA))}  # fmt: skip
    assert got == {
        ("hive_count", "count", None, "status", ("active", "resting")),
        ("box_total", "len", "boxes", None, ("",)),
    }


def test_a_one_to_one_copy_is_not_a_tally() -> None:
    data = copy.deepcopy(DATA)
    for h in data["hives"].values():  # every apiary now holds one hive at most
        h["apiary_id"] = "A0" + str(int(h["hive_id"][1:]) % 4 + 1) if h["hive_id"] <= "H004" else ""
    for k, a in data["apiaries"].items():
        mine = [h for h in data["hives"].values() if h["apiary_id"] == k]
        a["box_total"] = sum(len(h["boxes"]) for h in mine)
    assert not [t for t in learn_tallies(DataEvidence.of(data)) if t.attribute == "box_total"]


def test_a_new_hive_moves_both_tallies_of_its_apiary_only(apiary: Environment) -> None:
    ok, new, state = _call(apiary, "add_hive", apiary_id="A03", boxes=["x", "y", "z"])
    assert ok and new["status"] == "active"
    a3, before = state["apiaries"]["A03"], DATA["apiaries"]["A03"]
    assert a3["hive_count"] == before["hive_count"] + 1
    assert a3["box_total"] == before["box_total"] + 3
    assert state["apiaries"]["A01"] == DATA["apiaries"]["A01"]


def test_a_stated_limit_the_tally_never_passes_in_the_data_refuses(apiary: Environment) -> None:
    before = DATA["apiaries"]["A02"]
    assert before["hive_count"] == before["hive_limit"]
    ok, _, state = _call(apiary, "add_hive", apiary_id="A02", boxes=["x"])
    assert not ok and state == DATA  # the refusal undoes the call's writes
    assert _call(apiary, "add_hive", apiary_id="A01", boxes=["x"])[0]


def test_retiring_leaves_the_count_but_not_the_boxes(apiary: Environment) -> None:
    ok, _, state = _call(apiary, "retire_hive", hive_id="H004")  # resting, in A02
    a2, before = state["apiaries"]["A02"], DATA["apiaries"]["A02"]
    assert ok and a2["hive_count"] == before["hive_count"] - 1
    assert a2["box_total"] == before["box_total"]


def test_a_new_holder_starts_its_numbers_at_zero(apiary: Environment) -> None:
    ok, new, _ = _call(apiary, "create_apiary", name="Meadow")
    assert ok and (new["hive_count"], new["box_total"], new["honey_kg"]) == (0, 0, 0)


def test_a_stated_counter_on_a_tally_gives_way_to_the_tally_in_its_place() -> None:
    """The data shows what the call does to the count; a sentence's amount is read from words
    and may be misread, so the tally replaces it, where it stood (a later write that reads the
    count sees it moved)."""
    stated = Effect(kind="increment", record="via:apiary_id", collection="apiaries",
                    attribute="hive_count", value=Value(source="const", const=-1))  # fmt: skip
    later = Effect(kind="set", record="target", collection="hives", fields={})
    retire = ToolBehaviour(tool="retire_hive", kind="action", collection="hives",
                           id_param="hive_id", effects=[stated, later])  # fmt: skip
    model = BehaviourModel(tools=[retire])
    add_tallies(model, DataEvidence.of(DATA))
    assert [(e.kind, e.attribute) for e in retire.effects] == [
        ("tally", "hive_count"), ("set", None), ("tally", "box_total")]  # fmt: skip
    assert not [c for c in retire.checks if c.kind == "within"]


def _moved_and_bounded(said: str) -> list[str]:
    """The ``within`` checks a new hive gets when a sentence moves the count and another
    refuses a full apiary."""
    one = Value(source="const", const=1)
    stated = Effect(kind="increment", record="via:apiary_id", collection="apiaries",
                    attribute="hive_count", value=one, sentence=said)  # fmt: skip
    add = ToolBehaviour(tool="add_hive", kind="create", collection="hives", effects=[stated])
    full = ["Refused when the apiary is already at its limit."]
    add_tallies(BehaviourModel(tools=[add]), DataEvidence.of(DATA), {"add_hive": full})
    return [c.attribute or "" for c in add.checks if c.kind == "within"]


def test_a_stated_move_keeps_the_bound_unless_the_move_is_made_in_some_cases_only() -> None:
    """The bound a refusal states holds beside a stated move ("the count goes up by one"); a
    move made only in some cases ("while there is room, otherwise the hive waits") means a full
    apiary gets something else, not a refusal."""
    assert _moved_and_bounded("The apiary's `hive_count` goes up by one.") == ["hive_count"]
    waits = "The `hive_count` goes up by one while there is room, otherwise the hive waits."
    assert _moved_and_bounded(waits) == []


def test_a_post_on_a_record_answering_with_another_kind_opens_one(apiary: Environment) -> None:
    """``POST /apiaries/{apiary_id}/inspections`` answering with an inspection: a new one for
    that apiary, with the argument, the stated start status and today's date."""
    ok, new, state = _call(apiary, "request_inspection", apiary_id="A03", inspector="Kim")
    assert ok and new == state["inspections"]["IN04"]
    assert new == {"inspection_id": "IN04", "apiary_id": "A03", "inspector": "Kim",
                   "status": "open", "opened_on": "2026-05-01"}  # fmt: skip
    assert state["apiaries"] == DATA["apiaries"]


def test_room_asked_in_the_tallys_own_words_bounds_it() -> None:
    from autoforge.synth.behaviour.tallies import _bound_said

    (count,) = [t for t in learn_tallies(DataEvidence.of(DATA)) if t.attribute == "hive_count"]
    said = _bound_said(count, ["hive_limit"], ["There must be enough room left for one more hive."])
    assert said is not None and said[0] == "hive_limit"
    assert _bound_said(count, ["hive_limit"], ["The hive is weighed first."]) is None
