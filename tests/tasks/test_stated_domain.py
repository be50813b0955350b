"""Values from the domain when the docs give no enum, and records of one kind each.

A made-up vet clinic, docs only: ``visits`` reference a vet or a groomer (and a pet). Its
tools treat them as two kinds: ``cancel_vet_visit`` acts on a visit whose ``vet_id`` is set,
``cancel_groomer_visit`` on one whose ``groomer_id`` is. No attribute has an enum; the search's
``state`` parameter defaults to ``"booked"`` and the cancels set ``"called off"``.
"""

from __future__ import annotations

import random
from typing import Any

from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.lexicon import tool_scope
from autoforge.tasks.states.domain import domains, out_of_domain, stated_values
from autoforge.tasks.states.population import StateGenerator, record_kinds
from autoforge.tooldocs.spec import ToolSpec

_SOURCE = """
def cancel_vet_visit(state, visit_id):
    visit = state["visits"][visit_id]
    visit["state"] = "called off"
    return {"state": "ok"}


def cancel_groomer_visit(state, visit_id):
    visit = state["visits"][visit_id]
    visit["state"] = "called off"
    return visit
"""


def _tool(name: str, access: str, params: dict[str, dict[str, Any]]) -> ToolSpec:
    return ToolSpec(
        name=name, description=name.replace("_", " "), access=access,
        parameters={"type": "object", "properties": params, "required": list(params)[:1]},
    )  # fmt: skip


def _clinic() -> EnvironmentSpec:
    key = {"type": "string"}
    collections = [
        CollectionSchema(name=name, primary_key=f"{name[:-1]}_id",
                         attributes=[Attribute(name=f"{name[:-1]}_id", type="id")])
        for name in ("vets", "groomers", "pets")
    ]  # fmt: skip
    visits = CollectionSchema(name="visits", primary_key="visit_id", attributes=[
        Attribute(name="visit_id", type="id"),
        Attribute(name="vet_id", type="id", references="vets"),
        Attribute(name="groomer_id", type="id", references="groomers"),
        Attribute(name="pet_id", type="id", references="pets"),
        Attribute(name="state", type="string"),
        Attribute(name="note", type="string")])  # fmt: skip
    tools = [
        _tool("create_vet_visit", "write", {"vet_id": key, "pet_id": key}),
        _tool("create_groomer_visit", "write", {"groomer_id": key, "pet_id": key}),
        _tool("search_vet_visit", "read",
              {"pet_id": key, "state": {"type": "string", "default": "booked"}}),
        _tool("cancel_vet_visit", "write", {"visit_id": key}),
        _tool("cancel_groomer_visit", "write", {"visit_id": key}),
    ]  # fmt: skip
    schema = StateSchema(collections=[*collections, visits])
    return EnvironmentSpec(name="clinic", tools=tools, state_schema=schema)


def test_stated_values_are_defaults_and_the_values_tools_write() -> None:
    spec = _clinic()
    assert stated_values(spec) == {("visits", "state"): ["booked"]}
    # the reply dict's "ok" is not a value of the record
    assert stated_values(spec, _SOURCE) == {("visits", "state"): ["booked", "called off"]}
    assert domains(spec, None, _SOURCE).allowed("visits", "state") == {"booked", "called off"}
    assert domains(spec).allowed("visits", "note") is None  # nothing stated: free text


def test_generated_states_use_the_stated_values_not_invented_words() -> None:
    spec = _clinic()
    found = domains(spec, None, _SOURCE)
    generator = StateGenerator(spec, tools_source=_SOURCE)
    seen: set[Any] = set()
    for seed in range(3):
        state = generator.generate(random.Random(seed))
        assert not out_of_domain(state, found)
        seen |= {v["state"] for v in state["visits"].values()}
    assert seen == {"booked", "called off"}


def test_stated_values_yield_to_observed_data() -> None:
    """Data that shows the attribute's values keeps the data's domain."""
    spec = _clinic()
    data = {"visits": {f"V{i}": {"visit_id": f"V{i}", "state": s}
                       for i, s in enumerate(["open", "open", "done", "done"])}}  # fmt: skip
    assert domains(spec, data, _SOURCE).allowed("visits", "state") == {"open", "done"}


def test_each_record_is_of_one_kind() -> None:
    spec = _clinic()
    visits = spec.state_schema.collection("visits")
    assert visits is not None
    assert record_kinds(spec, visits) == {
        "vet_id": frozenset({"groomer_id"}), "groomer_id": frozenset({"vet_id"})}  # fmt: skip
    pets = spec.state_schema.collection("pets")
    assert pets is not None and record_kinds(spec, pets) == {}
    scopes = [(t, tool_scope(t, spec.state_schema)) for t in spec.tools]  # worked out once
    assert record_kinds(spec, visits, scopes) == record_kinds(spec, visits)
    assert StateGenerator(spec, tools_source=_SOURCE).kinds == {
        "visits": record_kinds(spec, visits)
    }
    state = StateGenerator(spec, tools_source=_SOURCE).generate(random.Random(0))
    kinds = []
    for visit in state["visits"].values():
        assert visit["pet_id"] in state["pets"]  # a reference every kind takes stays set
        set_refs = [r for r in ("vet_id", "groomer_id") if visit[r] is not None]
        assert len(set_refs) == 1, visit
        assert visit[set_refs[0]] in state[set_refs[0][:-3] + "s"]
        kinds.append(set_refs[0])
    assert abs(kinds.count("vet_id") - kinds.count("groomer_id")) <= 1  # spread evenly


def test_a_status_only_transitions_write_is_also_unset_in_s0() -> None:
    """Without the search's default, "called off" is the only stated value, and the tools
    only write it: records before that transition leave ``state`` unset, so S0 is not all
    cancelled visits."""
    spec = _clinic()
    search = next(t for t in spec.tools if t.name == "search_vet_visit")
    search.parameters["properties"]["state"].pop("default")
    found = domains(spec, None, _SOURCE)
    assert found.allowed("visits", "state") == {"called off"}
    assert found.unset == {("visits", "state")}
    assert domains(_clinic(), None, _SOURCE).unset == set()  # "booked" is no transition's
    state = StateGenerator(spec, tools_source=_SOURCE).generate(random.Random(1))
    assert {v["state"] for v in state["visits"].values()} == {None, "called off"}


_FINISH = """
def finish_vet_visit(state, visit_id):
    state["visits"][visit_id]["state"] = "done"
    return state["visits"][visit_id]
"""
_TWO_WRITES = _SOURCE + _FINISH


def test_two_statuses_the_transitions_write_leave_no_record_without_one() -> None:
    """Two written values ("called off", "done") and no other stated: every visit takes one
    of them; ``None`` is no value the docs state."""
    spec = _clinic()
    search = next(t for t in spec.tools if t.name == "search_vet_visit")
    search.parameters["properties"]["state"].pop("default")
    spec.tools.append(_tool("finish_vet_visit", "write", {"visit_id": {"type": "string"}}))
    found = domains(spec, None, _TWO_WRITES)
    assert found.allowed("visits", "state") == {"called off", "done"}
    assert found.unset == set()
    state = StateGenerator(spec, tools_source=_TWO_WRITES).generate(random.Random(1))
    assert {v["state"] for v in state["visits"].values()} == {"called off", "done"}


def test_a_status_the_description_states_is_of_the_domain() -> None:
    """A status changing "to waiting" in a description states a value no code writes: visits start
    there as well as at the written end of their life."""
    spec = _clinic()
    search = next(t for t in spec.tools if t.name == "search_vet_visit")
    search.parameters["properties"]["state"].pop("default")
    cancel = next(t for t in spec.tools if t.name == "cancel_vet_visit")
    cancel.description = "Cancel a visit. If a fee is due, the visit status changes to waiting."
    found = domains(spec, None, _SOURCE)
    assert found.allowed("visits", "state") == {"waiting", "called off"}
    assert found.unset == set()
    assert stated_values(_clinic()) == {("visits", "state"): ["booked"]}  # no such sentence


_CREATE = """
def create_vet_visit(state, vet_id, pet_id):
    record = {"visit_id": "V1", "vet_id": vet_id, "pet_id": pet_id}
    record["state"] = "requested"
    state["visits"]["V1"] = record
    return record
"""


def test_a_constant_a_create_writes_is_where_records_start() -> None:
    spec = _clinic()
    search = next(t for t in spec.tools if t.name == "search_vet_visit")
    search.parameters["properties"]["state"].pop("default")
    found = domains(spec, None, _SOURCE + _CREATE)
    assert found.allowed("visits", "state") == {"requested", "called off"}
    assert found.unset == set()  # "requested" is no transition's end


def test_a_status_the_description_capitalizes_is_the_one_the_code_writes() -> None:
    """A description's "Sets ticket status to Open" names the 'open' the code writes."""
    attrs = [Attribute(name="ticket_id", type="id"), Attribute(name="status", type="string")]
    tickets = CollectionSchema(name="tickets", primary_key="ticket_id", attributes=attrs)
    key = {"ticket_id": {"type": "string"}}
    close = _tool("close_ticket", "write", key)
    reopen = _tool("reopen_ticket", "write", key)
    reopen.description = "Reopen a ticket. Sets ticket status to Open; then it may wait."
    spec = EnvironmentSpec(
        name="desk", tools=[close, reopen], state_schema=StateSchema(collections=[tickets])
    )
    source = """
def close_ticket(state, ticket_id):
    state["tickets"][ticket_id]["status"] = "closed"


def reopen_ticket(state, ticket_id):
    state["tickets"][ticket_id]["status"] = "open"
"""
    assert domains(spec, None, source).allowed("tickets", "status") == {"closed", "open"}
    assert domains(spec).allowed("tickets", "status") == {"Open"}  # no code: the docs' word
