"""A parameter that is the new value of an attribute writes that attribute.

A made-up clinic: ``book_visit(pet_id, date, room)`` makes a visit, ``reschedule_visit
(visit_id, new_date)`` and ``move_visit(visit_id, room_updated)`` change it, ``note_visit
(visit_id, new_remark)`` stores a remark no visit has yet; rules only, no model.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from doc_tools import doc_tool  # type: ignore[import-not-found]

from autoforge.cli.main import main
from autoforge.env import Attribute, CollectionSchema, Environment
from autoforge.synth.rulecode.transition_fields import modified_field
from autoforge.synth.state.design import rule_based_schema
from autoforge.tasks.runtime import bind_state
from autoforge.tooldocs import ToolSpec

DOCS = [
    doc_tool("get_pet_info", "Get a pet.", pet_id="Pet id"),
    doc_tool("book_visit", "Book a visit.", pet_id="Pet id", date="Visit date", room="Room"),
    doc_tool("get_visit_detail", "Get a visit.", visit_id="Visit id"),
    doc_tool("reschedule_visit", "Change a visit's date.", visit_id="Visit id", new_date="New"),
    doc_tool("move_visit", "Move a visit to another room.", visit_id="Id", room_updated="Room"),
    doc_tool("note_visit", "Add a remark to a visit.", visit_id="Id", new_remark="Remark"),
]


def _specs() -> list[ToolSpec]:
    return [
        ToolSpec(name=f["name"], description=f["description"], parameters=f["parameters"])
        for f in (d["function"] for d in DOCS)
    ]


def test_modified_field_names_the_attribute_a_parameter_replaces() -> None:
    visits = CollectionSchema(
        name="visits",
        primary_key="visit_id",
        attributes=[Attribute(name=n, type="string") for n in ("visit_id", "date", "room")],
    )
    assert modified_field(visits, "new_date") == "date"
    assert modified_field(visits, "room_updated") == "room"
    assert modified_field(visits, "updatedRoom") == "room"
    assert modified_field(visits, "new_remark") is None  # visits have no remark
    assert modified_field(visits, "date") is None  # not a new value of anything
    assert modified_field(visits, "new_visit_id") is None  # never the record's own key


def test_the_rule_schema_keeps_one_date_per_visit() -> None:
    visits = rule_based_schema(_specs()).collection("visits")
    assert visits is not None
    names = {a.name for a in visits.attributes}
    assert {"date", "room", "new_remark"} <= names
    assert not names & {"new_date", "room_updated"}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    root = tmp_path_factory.mktemp("clinic")
    (root / "tools.json").write_text(json.dumps(DOCS))
    try:
        main(["synth", "env", str(root / "tools.json"), "--llm", "none", "--out", str(root / "e")])
    except SystemExit as exc:
        assert not exc.code
    return Environment.load(Path(root / "e"))


def test_a_new_value_replaces_the_records_own(env: Environment) -> None:
    visit = {"visit_id": "v1", "pet_id": "p1", "date": "2025-01-02", "room": "A"}
    state = {"pets": {"p1": {"pet_id": "p1"}}, "visits": {"v1": visit}}
    episode = bind_state(env, state).episode()
    assert episode.call("reschedule_visit", {"visit_id": "v1", "new_date": "2025-03-04"}).ok
    assert episode.call("move_visit", {"visit_id": "v1", "room_updated": "B"}).ok
    assert episode.call("note_visit", {"visit_id": "v1", "new_remark": "calm"}).ok
    after = episode.state["visits"]["v1"]
    assert after["date"] == "2025-03-04" and after["room"] == "B"
    assert "new_date" not in after and "room_updated" not in after
    assert after["new_remark"] == "calm"  # nothing it replaces: stored under its own name
