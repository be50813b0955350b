"""Work no attempt should spend: a condition the feeding search already fixed, a run given up
for a record S0 need not hold, a blueprint built in full to be rejected for its calls, a run
made again only to leave out a read that repeated an earlier one.

A made-up plant nursery: ``search_plants(kind)`` lists the plants of one kind (each with its
kind, price and height), ``get_plant`` reads one, ``adopt_plant`` records that a gardener
adopts a plant, at most once per gardener and plant (a uniqueness rule).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.blueprints.blueprint import (
    Binding,
    Blueprint,
    CallNode,
    FactRef,
    FactSpec,
    OutputRef,
    ReasonNode,
)
from autoforge.tasks.blueprints.build import TooManyCalls, build_blueprint, without_calls
from autoforge.tasks.gold.instantiate import FactChooser, GoldFailure, execute
from autoforge.tasks.gold.plausible import Guard, breach
from autoforge.tasks.graph.dependency import build_graph
from autoforge.tasks.graph.walks import Walk, WalkStep
from autoforge.tasks.pipeline import _without_reads
from autoforge.tasks.states.repair import apply_fix, referenced
from autoforge.tooldocs.spec import ToolSpec

_NURSERY_TOOLS = '''
def search_plants(state, kind):
    """The plants of one kind."""
    return [p for p in state["plants"].values() if p["kind"] == kind]


def get_plant(state, plant_id):
    """One plant."""
    plant = state["plants"].get(plant_id)
    if plant is None:
        raise ToolError(f"plant {plant_id} not found")
    return plant


def adopt_plant(state, gardener_id, plant_id):
    """A gardener adopts a plant; each gardener may adopt each plant only once."""
    for adoption in state["adoptions"].values():
        if adoption["gardener_id"] == gardener_id and adoption["plant_id"] == plant_id:
            raise ToolError(f"{gardener_id} already adopted {plant_id}")
    key = f"AD-{len(state['adoptions']) + 1}"
    state["adoptions"][key] = {"adoption_id": key, "gardener_id": gardener_id,
                               "plant_id": plant_id}
    return state["adoptions"][key]
'''

_KINDS = ["fern", "cactus", "palm"]
_PLANT = {"type": "object", "properties": {
    "plant_id": {"type": "string"}, "name": {"type": "string"},
    "kind": {"type": "string", "enum": _KINDS}, "price": {"type": "number"},
    "height": {"type": "integer"}}}  # fmt: skip
_ADOPTION = {"type": "object", "properties": {"adoption_id": {"type": "string"},
                                              "gardener_id": {"type": "string"},
                                              "plant_id": {"type": "string"}}}  # fmt: skip


def _params(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": list(props)}


def _nursery(adoptions_referenced: bool = False) -> Environment:
    plants = CollectionSchema(name="plants", primary_key="plant_id", attributes=[
        Attribute(name="plant_id", type="id"), Attribute(name="name", type="string"),
        Attribute(name="kind", type="enum", enum=_KINDS), Attribute(name="price", type="number"),
        Attribute(name="height", type="integer")])  # fmt: skip
    gardener_attrs = [Attribute(name="gardener_id", type="id"),
                      Attribute(name="email", type="string")]  # fmt: skip
    if adoptions_referenced:  # a gardener lists the ids of their adoptions
        gardener_attrs.append(Attribute(name="adoption_ids", type="array", references="adoptions"))
    gardeners = CollectionSchema(name="gardeners", primary_key="gardener_id",
                                 attributes=gardener_attrs)  # fmt: skip
    adoptions = CollectionSchema(name="adoptions", primary_key="adoption_id", attributes=[
        Attribute(name="adoption_id", type="id"),
        Attribute(name="gardener_id", type="id", references="gardeners"),
        Attribute(name="plant_id", type="id", references="plants")])  # fmt: skip
    string = {"type": "string"}
    tools = [
        ToolSpec(name="search_plants", access="read", returns={"type": "array", "items": _PLANT},
                 parameters=_params(kind={"type": "string", "enum": _KINDS})),
        ToolSpec(name="get_plant", access="read", returns=_PLANT,
                 parameters=_params(plant_id=string)),
        ToolSpec(name="adopt_plant", access="write", returns=_ADOPTION,
                 parameters=_params(gardener_id=string, plant_id=string)),
    ]  # fmt: skip
    rng = random.Random(3)
    state: dict[str, Any] = {"plants": {}, "gardeners": {}, "adoptions": {}}
    for i in range(18):
        state["plants"][f"P{i}"] = {"plant_id": f"P{i}", "name": f"plant {i}",
                                    "kind": _KINDS[i % 3], "price": 5.0 + i,
                                    "height": rng.randint(10, 90)}  # fmt: skip
    for g in range(4):
        state["gardeners"][f"G{g}"] = {"gardener_id": f"G{g}", "email": f"g{g}@nursery.test"}
    state["adoptions"]["AD-1"] = {"adoption_id": "AD-1", "gardener_id": "G0", "plant_id": "P0"}
    spec = EnvironmentSpec(name="nursery", tools=tools, state_schema=StateSchema(
        collections=[plants, gardeners, adoptions]))  # fmt: skip
    return Environment.from_parts(spec, _NURSERY_TOOLS, state)


@pytest.fixture(scope="module")
def nursery() -> Environment:
    return _nursery()


def _conditions(bp: Blueprint) -> list[tuple[str, str]]:
    return [(n.spec.op, str(n.spec.field[0])) for n in bp.reasoning
            if n.spec.op in ("filter", "argmax", "argmin") and n.spec.field]  # fmt: skip


def test_no_condition_on_the_field_the_search_was_asked_to_match(nursery: Environment) -> None:
    """``search_plants(kind=fern)`` lists ferns only: "the only fern among them" selects no
    proper subset and every extreme over a shared value ties, so the plant to adopt is picked
    by its price or height instead, never by its kind."""
    spec, graph = nursery.spec, build_graph(nursery.spec)
    walk = Walk(steps=(WalkStep(tool="search_plants"), WalkStep(tool="adopt_plant", parent=0)))
    picked = []
    for seed in range(40):
        bp = build_blueprint(walk, graph, spec, random.Random(seed), 1.0)
        search = next(c for c in bp.calls if c.tool == "search_plants")
        assert isinstance(search.args.get("kind"), FactRef)  # the search is by kind
        picked += _conditions(bp)
    assert picked and all(field != "kind" for _, field in picked)
    assert {field for _, field in picked} == {"price", "height"}


def _adopt(gardener: str, plant: str) -> tuple[Blueprint, dict[str, Any]]:
    bp = Blueprint(
        nodes=[CallNode(id="c0", tool="adopt_plant",
                        args={"gardener_id": FactRef(name="gardener"),
                              "plant_id": FactRef(name="plant")})],
        facts=[FactSpec(name="gardener", role="entity", collection="gardeners",
                        attribute="gardener_id"),
               FactSpec(name="plant", role="entity", collection="plants",
                        attribute="plant_id")],
    )  # fmt: skip
    return bp, {"gardener": gardener, "plant": plant}


_ONCE = Guard(
    tool="adopt_plant",
    param="gardener_id",
    collection="adoptions",
    fields=("gardener_id", "plant_id"),
    rule="one adoption per gardener + plant",
)


def test_a_record_s0_already_holds_is_left_out_of_s0_and_the_run_succeeds(
    nursery: Environment,
) -> None:
    """G0 already adopted P0 in S0: the call is refused on the host, its fix leaves that
    adoption out of S0, and the same facts then run cleanly."""
    spec = nursery.spec
    state = copy.deepcopy(nursery.initial_state)
    found = breach([_ONCE], {"gardener_id": "G0", "plant_id": "P0"}, state)
    assert found is not None and found.key == "AD-1"
    assert breach([_ONCE], {"gardener_id": "G1", "plant_id": "P0"}, state) is None
    bp, facts = _adopt("G0", "P0")
    chooser = FactChooser(spec, nursery.episode(state=state), random.Random(0), base_state=state,
                          guards={"adopt_plant": [_ONCE]})  # fmt: skip
    with pytest.raises(GoldFailure) as err:
        execute(bp, spec, chooser.episode, facts, chooser)
    assert err.value.fix == ("adoptions", "AD-1", "", None)
    history: dict[Any, Any] = {}
    assert apply_fix(state, err.value.fix, history) == "changed"
    assert "AD-1" not in state["adoptions"] and "AD-1" in nursery.initial_state["adoptions"]
    run = execute(bp, spec, nursery.episode(state=state), facts)
    assert [c.name for c in run.calls] == ["adopt_plant"]
    assert apply_fix(state, err.value.fix, history) == "unchanged"  # already gone


def test_no_record_is_left_out_that_the_run_made_or_another_record_names() -> None:
    """Only S0's own record, of a collection nothing refers to, is left out: one this run
    created (the same adoption asked twice) or one a gardener's list names stays, and the
    run fails as before."""
    plain, listed = _nursery(), _nursery(adoptions_referenced=True)
    assert not referenced(plain.spec, "adoptions") and referenced(listed.spec, "adoptions")
    assert referenced(plain.spec, "plants")  # adoptions name plants
    bp, facts = _adopt("G0", "P0")
    state = copy.deepcopy(listed.initial_state)
    chooser = FactChooser(listed.spec, listed.episode(state=state), random.Random(0),
                          base_state=state, guards={"adopt_plant": [_ONCE]})  # fmt: skip
    with pytest.raises(GoldFailure) as err:
        execute(bp, listed.spec, chooser.episode, facts, chooser)
    assert err.value.fix is None
    # made by this run: G1 adopts P1 and then asks for it again
    twice = bp.model_copy(update={"nodes": [*bp.nodes, bp.nodes[0].model_copy(
        update={"id": "c1"})]})  # fmt: skip
    state = copy.deepcopy(plain.initial_state)
    chooser = FactChooser(plain.spec, plain.episode(state=state), random.Random(0),
                          base_state=state, guards={"adopt_plant": [_ONCE]})  # fmt: skip
    with pytest.raises(GoldFailure) as err:
        execute(twice, plain.spec, chooser.episode, {"gardener": "G1", "plant": "P1"}, chooser)
    assert err.value.node == "c1" and err.value.fix is None


def test_a_fix_on_a_record_an_earlier_repair_changed_is_a_conflict() -> None:
    state = {"adoptions": {"AD-1": {"adoption_id": "AD-1", "gardener_id": "G0", "note": "a"}}}
    history = {("adoptions", "AD-1", "note"): "b"}
    assert apply_fix(state, ("adoptions", "AD-1", "", None), history) == "conflict"
    assert "AD-1" in state["adoptions"]
    assert apply_fix(state, ("adoptions", "AD-9", "", None), {}) == "unchanged"


def test_a_walk_with_more_calls_than_the_difficulty_allows_is_not_built_further(
    nursery: Environment,
) -> None:
    """Two steps where at most one call is asked: rejected before the answers and values are
    worked out; with room for both, the same walk builds (and keeps within the limit)."""
    spec, graph = nursery.spec, build_graph(nursery.spec)
    walk = Walk(steps=(WalkStep(tool="search_plants"), WalkStep(tool="adopt_plant", parent=0)))
    with pytest.raises(TooManyCalls):
        build_blueprint(walk, graph, spec, random.Random(0), 1.0, limits={"tool_calls": (1, 1)})
    bp = build_blueprint(walk, graph, spec, random.Random(0), 1.0, limits={"tool_calls": (1, 2)})
    assert len(bp.calls) == 2
    assert any(isinstance(n, ReasonNode) for n in bp.nodes)


def test_a_run_without_a_repeated_read_is_read_off_the_run(nursery: Environment) -> None:
    """The same plant looked up twice, the second lookup feeding the adoption: without the
    repeat, the adoption reads the first lookup's (equal) answer; the run of the slimmer
    blueprint is the first run less that call, exactly what running it again gives."""
    lookup: dict[str, Binding] = {"plant_id": FactRef(name="plant")}
    bp = Blueprint(
        nodes=[CallNode(id="c0", tool="get_plant", args=lookup),
               CallNode(id="c1", tool="get_plant", args=lookup),
               CallNode(id="c2", tool="adopt_plant",
                        args={"gardener_id": FactRef(name="gardener"),
                              "plant_id": OutputRef(node="c1", path=["plant_id"])})],
        facts=_adopt("G1", "P4")[0].facts,
    )  # fmt: skip
    facts = {"gardener": "G1", "plant": "P4"}
    run = execute(bp, nursery.spec, nursery.episode(), facts)
    assert [c.node for c in run.calls] == ["c0", "c1", "c2"]
    slim = without_calls(bp, {"c1": "c0"})
    derived = _without_reads(run, slim, facts)
    again = execute(slim, nursery.spec, nursery.episode(), facts)
    assert derived is not None
    assert [c.model_dump() for c in derived.calls] == [c.model_dump() for c in again.calls]
    assert (derived.facts, derived.values, derived.final_hash) == (
        again.facts, again.values, again.final_hash)  # fmt: skip
    assert list(derived.values) == list(again.values) == ["c0", "c2"]
