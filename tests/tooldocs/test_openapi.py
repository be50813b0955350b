"""OpenAPI 3.0 (YAML) and 3.1 (JSON) import: names, merged parameters, refs, returns, access."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from autoforge.tooldocs import ToolDocs, load_doc, parse_text
from autoforge.tooldocs.importers.openapi import derive_name, openapi30_to_json_schema

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def library() -> ToolDocs:
    return load_doc(FIXTURES / "library_openapi30.yaml")


@pytest.fixture(scope="module")
def clinic() -> ToolDocs:
    return load_doc(FIXTURES / "petclinic_openapi31.json")


def test_one_tool_per_operation_with_names(library: ToolDocs) -> None:
    names = [t.name for t in library.tools]
    assert len(names) == 13
    assert names[:3] == ["searchBooks", "addBook", "getBook"]
    assert "get_members_by_member_id_loans" in names  # no operationId: method + path
    assert "post_loans_by_loan_id_return" in names
    assert "loans_renew" in names  # operationId 'loans.renew' sanitised
    assert library.domain == "library_openapi30"
    assert library.description.startswith("City Library API\n\nCatalogue")


def test_access_from_method(library: ToolDocs) -> None:
    access = {t.name: t.access for t in library.tools}
    assert access["searchBooks"] == "read"
    assert access["finesExist"] == "read"  # HEAD
    assert access["addBook"] == "write"
    assert access["updateBook"] == "write"  # PATCH
    assert access["removeBook"] == "write"  # DELETE


def test_path_query_header_cookie_params_merged(library: ToolDocs) -> None:
    search = library.tool("searchBooks")
    assert search.param_names == [
        "q",
        "categoryId",
        "available",
        "pageSize",
        "page",
        "x_request_id",
    ]
    assert search.required == []
    header = search.parameters["properties"]["x_request_id"]
    assert header["x-original-name"] == "X-Request-ID"
    assert header["description"] == "Idempotency key of the request."
    loans = library.tool("get_members_by_member_id_loans")
    assert loans.param_names == ["memberId", "status", "x_branch_code"]  # Accept header ignored
    assert loans.required == ["memberId"]
    assert loans.parameters["properties"]["status"]["enum"] == ["active", "overdue", "returned"]
    ret = library.tool("post_loans_by_loan_id_return")
    assert ret.param_names == ["loanId", "session", "damaged", "note"]  # cookie + optional body


def test_path_level_parameters_and_body_merge(library: ToolDocs) -> None:
    update = library.tool("updateBook")
    assert update.param_names == ["isbn", "title", "categoryId", "copies"]
    assert update.required == ["isbn"]  # path param always required; body optional fields
    assert update.parameters["properties"]["isbn"]["pattern"] == "^97[89][0-9]{10}$"
    assert update.parameters["properties"]["categoryId"]["type"] == ["string", "null"]


def test_ref_request_body_flattened_without_read_only(library: ToolDocs) -> None:
    add = library.tool("addBook")
    assert add.param_names == ["x_request_id", "isbn", "title", "authors", "category", "copies"]
    assert "addedAt" not in add.param_names  # readOnly
    assert add.required == ["isbn", "title", "authors"]
    author = add.parameters["properties"]["authors"]["items"]
    assert author["properties"]["born"]["type"] == ["integer", "null"]


def test_all_of_body_merged(library: ToolDocs) -> None:
    member = library.tool("registerMember")
    assert member.param_names == ["name", "email", "phone", "birthDate"]
    assert member.required == ["name", "email", "birthDate"]
    assert member.parameters["properties"]["birthDate"]["examples"] == ["1990-04-01"]


def test_recursive_schema_is_cut(library: ToolDocs) -> None:
    tree = library.tool("listCategories").returns
    assert tree is not None
    inner = tree["items"]["properties"]["subcategories"]["items"]
    assert inner == {"type": "object", "description": "(recursive Category)"}
    assert "$ref" not in json.dumps(library.model_dump())


def test_returns_first_2xx_json(library: ToolDocs) -> None:
    assert library.tool("getBook").returns["required"] == ["isbn", "title", "authors"]  # type: ignore[index]
    assert library.tool("removeBook").returns is None  # 204 without content
    assert library.tool("finesExist").returns is None


def test_openapi30_dialect_converted(library: ToolDocs) -> None:
    props = library.tool("searchBooks").parameters["properties"]
    assert props["page"] == {"type": "integer", "exclusiveMinimum": 0}
    depth = library.tool("listCategories").parameters["properties"]["depth"]
    assert "exclusiveMaximum" not in depth and depth["maximum"] == 5


def test_every_schema_is_valid_json_schema(library: ToolDocs, clinic: ToolDocs) -> None:
    for docs in (library, clinic):
        for tool in docs.tools:
            Draft202012Validator.check_schema(tool.parameters)
            if tool.returns is not None:
                Draft202012Validator.check_schema(tool.returns)


def test_openapi31_json(clinic: ToolDocs) -> None:
    assert [t.name for t in clinic.tools] == [
        "findOwners", "createOwner", "addPet", "get_pets_by_pet_id", "updatePet",
        "scheduleVisit", "cancelVisit", "listVets",
    ]  # fmt: skip
    add = clinic.tool("addPet")
    assert add.param_names == ["ownerId", "name", "birthDate", "type"]
    assert add.required == ["ownerId", "name", "type"]
    assert add.parameters["properties"]["birthDate"]["type"] == ["string", "null"]
    assert clinic.tool("findOwners").parameters["properties"]["limit"]["exclusiveMinimum"] == 0
    pet = clinic.tool("get_pets_by_pet_id").returns
    assert pet is not None
    owner = pet["properties"]["owner"]  # a Pet extends NewPet (allOf): one object
    assert owner["properties"]["pets"]["items"]["description"] == "(recursive Pet)"


def test_sanitised_and_deduplicated_derived_names() -> None:
    spec = """
openapi: 3.0.0
info: {title: t, version: "1"}
paths:
  /a-b:
    get: {responses: {"200": {description: ok}}}
  /a_b:
    get: {responses: {"200": {description: ok}}}
  /items/{id}:
    get: {operationId: "2fetch item", responses: {"200": {description: ok}}}
"""
    docs = parse_text(spec, filename="x.yaml")
    assert [t.name for t in docs.tools] == ["get_a_b", "get_a_b_2", "op_2fetch_item"]


def test_a_body_repeating_a_parameter_merges_and_a_non_object_body_is_one_argument() -> None:
    spec = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/x/{id}": {
                "put": {
                    "operationId": "put_x",
                    "parameters": [{"name": "id", "in": "path", "required": True}],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "properties": {"id": {}, "label": {"type": "string"}},
                                    "required": ["label"],
                                }
                            }
                        },
                    },
                    "responses": {"204": {"description": "ok"}},
                },
                "post": {
                    "operationId": "post_x",
                    "requestBody": {"content": {"application/json": {"schema": {"type": "array"}}}},
                    "responses": {"204": {"description": "ok"}},
                },
            }
        },
    }
    docs = parse_text(json.dumps(spec), filename="x.json")
    put = docs.tool("put_x")
    assert put.param_names == ["id", "label"]  # the body's ``id`` is the path's
    assert put.required == ["id", "label"]
    assert put.parameters["properties"]["id"] == {"type": "string"}  # no schema -> string
    post = docs.tool("post_x")
    assert post.param_names == ["body"]
    assert post.parameters["properties"]["body"]["type"] == "array"
    assert post.required == []


def test_derive_name() -> None:
    assert derive_name("get", "/pets/{petId}") == "get_pets_by_pet_id"
    assert (
        derive_name("delete", "/v1/Users/{user-id}/API.keys")
        == "delete_v1_users_by_user_id_api_keys"
    )
    assert derive_name("get", "/") == "get"


def test_openapi30_to_json_schema_nested() -> None:
    schema = {
        "type": "object",
        "properties": {
            "default": {"type": "string", "nullable": True, "enum": ["a", "b"]},
            "n": {"type": "number", "minimum": 1, "exclusiveMinimum": True, "example": 2},
        },
        "default": {"nullable": True},
    }
    out = openapi30_to_json_schema(schema)
    assert out["properties"]["default"] == {"type": ["string", "null"], "enum": ["a", "b", None]}
    assert out["properties"]["n"] == {"type": "number", "exclusiveMinimum": 1, "examples": [2]}
    assert out["default"] == {"nullable": True}  # data, not a schema: untouched
