"""Writes act for the signed-in user too: a create attaches its record to them, a write by key
refuses another user's record, and a read of "the user's X" makes X's records name their user.

A made-up lending library: members sign in (``get_my_loans()`` acts for "the current member"),
loans and addresses belong to members although no write names the member.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from doc_tools import doc_tool  # type: ignore[import-not-found]

from autoforge.cli.main import main
from autoforge.env import Environment
from autoforge.env.artifact.spec import Attribute, CollectionSchema, StateSchema
from autoforge.lexicon import SESSION, acting_for, session_user, target_collection
from autoforge.synth.checking.teststate import happy_arguments
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.synth.rulecode.templates import render_skeleton
from autoforge.synth.state.design import rule_based_schema, user_lists
from autoforge.tasks.runtime import bind_state
from autoforge.tooldocs import ToolSpec

DOCS = [
    doc_tool("get_member_details", "Get a member's profile.", member_id="The member's id"),
    doc_tool("find_member_by_email", "Find a member by email.", email="The member's email"),
    doc_tool(
        "place_hold", "Place a hold on a book for a member.", member_id="Member", book_id="Book"
    ),
    doc_tool("get_my_loans", "List all loans of the current member."),
    doc_tool("add_loan", "Add a loan of a book.", book_id="The book id"),
    doc_tool("get_loan_details", "Get a loan.", loan_id="The loan id"),
    doc_tool("update_loan_note", "Update the note of a loan.", loan_id="The loan id", note="Note"),
    doc_tool("delete_loan", "Delete a loan.", loan_id="The loan id"),
    doc_tool("return_loan", "Return a loan.", loan_id="The loan id"),
    doc_tool(
        "add_address", "Add an address to the current member's account.", street="S", city="C"
    ),
    doc_tool("get_my_addresses", "List the current member's saved addresses."),
]


def _spec(doc: dict[str, Any]) -> ToolSpec:
    f = doc["function"]
    return ToolSpec(name=f["name"], description=f["description"], parameters=f["parameters"])


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Environment:
    root = tmp_path_factory.mktemp("library")
    (root / "tools.json").write_text(json.dumps(DOCS))
    try:
        main(["synth", "env", str(root / "tools.json"), "--llm", "none", "--out", str(root / "e")])
    except SystemExit as exc:
        assert not exc.code
    return Environment.load(Path(root / "e"))


def _state(signed_in: str | None = "m2") -> dict[str, Any]:
    state: dict[str, Any] = {
        "members": {m: {"member_id": m, "email": f"{m}@x"} for m in ("m1", "m2")},
        "books": {"b1": {"book_id": "b1"}},
        "loans": {
            "l1": {"loan_id": "l1", "book_id": "b1", "member_id": "m1", "note": "", "status": None},
            "l2": {"loan_id": "l2", "book_id": "b1", "member_id": "m2", "note": "", "status": None},
        },
        "holds": {},
        "addresses": {},
    }
    if signed_in is not None:
        state[SESSION] = {"session": {"session_id": "session", "member_id": signed_in}}
    return state


def test_a_read_of_the_users_records_makes_them_name_their_user(env: Environment) -> None:
    schema = env.spec.state_schema
    for listed in ("loans", "addresses"):  # no write names the member: the reads do
        coll = schema.collection(listed)
        owner = coll.attribute("member_id") if coll is not None else None
        assert owner is not None and owner.references == "members"
    episode = bind_state(env, _state()).episode()
    assert [r["loan_id"] for r in episode.call("get_my_loans", {}).result] == ["l2"]


def test_a_create_without_a_user_parameter_attaches_the_record_to_the_signed_in_user(
    env: Environment,
) -> None:
    episode = bind_state(env, _state()).episode()
    made = episode.call("add_address", {"street": "1 Main St", "city": "Springfield"})
    assert made.ok and made.result["member_id"] == "m2"
    assert [a["street"] for a in episode.call("get_my_addresses", {}).result] == ["1 Main St"]
    refused = (
        bind_state(env, _state(None)).episode().call("add_address", {"street": "s", "city": "c"})
    )
    assert not refused.ok and "signed in" in refused.content  # never a record of nobody


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("update_loan_note", {"note": "late"}),  # update template
        ("delete_loan", {}),  # delete template
        ("return_loan", {}),  # transition draft
    ],
)
def test_a_write_by_key_refuses_another_users_record(
    env: Environment, tool: str, args: dict[str, Any]
) -> None:
    episode = bind_state(env, _state("m2")).episode()
    before = episode.snapshot()
    refused = episode.call(tool, {"loan_id": "l1", **args})  # m1's loan
    assert not refused.ok and "does not belong" in refused.content
    assert episode.snapshot() == before
    assert episode.call(tool, {"loan_id": "l2", **args}).ok  # m2's own loan
    nobody = bind_state(env, _state(None)).episode().call(tool, {"loan_id": "l2", **args})
    assert not nobody.ok and "signed in" in nobody.content


def test_a_write_that_names_its_user_is_not_scoped(env: Environment) -> None:
    schema = env.spec.state_schema
    hold = _spec(DOCS[2])
    assert acting_for(hold, schema.collection("holds"), schema) is None  # it takes member_id
    episode = bind_state(env, _state("m2")).episode()
    assert (
        episode.call("place_hold", {"member_id": "m1", "book_id": "b1"}).result["member_id"] == "m1"
    )
    by_email = ToolSpec(
        name="add_address",
        description="Add an address for the member with this email.",
        parameters={"type": "object", "properties": {"email": {}, "street": {}}},
    )
    assert acting_for(by_email, schema.collection("addresses"), schema) is None
    bare = StateSchema(collections=[c for c in schema.collections if c.name != SESSION])
    loan = _spec(DOCS[6])
    assert acting_for(loan, bare.collection("loans"), bare) is None  # nobody signs in here


def test_the_draft_of_a_computing_create_attaches_its_record_too(env: Environment) -> None:
    schema = env.spec.state_schema
    spec = _spec(DOCS[4])  # add_loan: loans also hold a note and a status, so no template
    c = classify_tool(spec, schema)
    assert c.cls == "create" and not c.plain
    draft = render_skeleton(spec, c, schema.collection("loans"), {}, schema=schema)
    assert "record['member_id'] = me" in draft and "no member is signed in" in draft


def test_synthesis_tries_a_write_on_a_record_of_the_signed_in_user(env: Environment) -> None:
    schema = env.spec.state_schema
    spec = _spec(DOCS[8])  # return_loan: the happy call must not hit another member's loan
    args = happy_arguments(spec, classify_tool(spec, schema), schema, _state("m2"))
    assert args == {"loan_id": "l2"}  # l1 comes first but is m1's


VISITS = [
    ToolSpec(
        name="get_patient_profile",
        description="Get a patient's profile.",
        parameters={"type": "object", "properties": {"patient_id": {"type": "string"}}},
    ),
    ToolSpec(
        name="book_clinic",  # acts on the clinic: no visits tool takes the patient
        description="Book a visit at a clinic for a patient.",
        parameters={
            "type": "object",
            "properties": {"clinic_id": {"type": "string"}, "patient_id": {"type": "string"}},
        },
    ),
    ToolSpec(
        name="cancel_visit",
        description="Cancel a visit.",
        parameters={"type": "object", "properties": {"visit_id": {"type": "string"}}},
    ),
    ToolSpec(name="get_patient_all_visits", description="Get all visit information for patient"),
]


def test_a_users_list_read_gives_the_listed_collection_a_user_reference() -> None:
    schema = rule_based_schema(VISITS)  # the visits' patient is a parameter of the clinic's
    visits = schema.collection("visits")
    assert visits is not None and not any(a.references == "patients" for a in visits.attributes)
    read = VISITS[-1]
    found = target_collection(read, schema)
    assert found is not None and found.name == "patients"  # the patient's own record, before
    provenance: dict[str, dict[str, str]] = {}
    assert user_lists(schema, VISITS, provenance) == ["visits.patient_id"]
    owner = visits.attribute("patient_id")
    assert owner is not None and owner.type == "id" and owner.references == "patients"
    assert provenance["visits"]["patient_id"].startswith("rules:get_patient_all_visits()")
    found = target_collection(read, schema)
    assert found is not None and found.name == "visits"  # now: the patient's visits
    assert user_lists(schema, VISITS, provenance) == []  # once only


def test_a_field_already_named_as_the_users_key_becomes_the_reference() -> None:
    schema = rule_based_schema(VISITS)
    visits = schema.collection("visits")
    assert visits is not None
    visits.attributes.insert(1, Attribute(name="patient_id", type="string", description="who"))
    provenance = {"visits": {"patient_id": "docs:get_visit/returns/properties/patient_id"}}
    assert user_lists(schema, VISITS, provenance) == ["visits.patient_id"]
    owner = visits.attributes[1]
    assert (owner.name, owner.type, owner.references) == ("patient_id", "id", "patients")
    names = [a.name for a in visits.attributes]
    assert owner.description == "who" and names.count("patient_id") == 1
    assert provenance["visits"]["patient_id"].startswith("docs:")  # where it came from stays


@pytest.mark.parametrize(
    "read",
    [
        ToolSpec(name="get_patient_all_visits", description="Get all visits."),  # no user said
        ToolSpec(
            name="get_patient_all_visits",
            description="Get all visits of a patient.",
            parameters={"type": "object", "properties": {"patient_id": {"type": "string"}}},
        ),  # says whose: not the signed-in user's list
        ToolSpec(name="cancel_patient_visits", description="Cancel the patient's visits."),
    ],
)
def test_only_a_read_acting_for_the_user_gives_its_list_an_owner(read: ToolSpec) -> None:
    tools = [*VISITS[:-1], read]
    schema = rule_based_schema(tools)
    assert user_lists(schema, tools, {}) == []


def test_a_camel_case_read_of_my_records_shows_a_session_user() -> None:
    users = CollectionSchema(
        name="users",
        primary_key="user_id",
        attributes=[Attribute(name="user_id", type="id"), Attribute(name="email", type="string")],
    )
    schema = StateSchema(collections=[users])
    read = ToolSpec(name="getMyProfile", description="The signed-in user's profile.")
    assert session_user([read], schema, "users") == "getMyProfile() acts for the signed-in user"
