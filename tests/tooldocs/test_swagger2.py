"""Swagger / OpenAPI 2.0 import: detection, parameters in every location, body, refs, returns."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from autoforge.tooldocs import DocWarning, ToolDocs, load_doc, parse_text
from autoforge.tooldocs.registry import detect_format
from autoforge.tooldocs.source import DocInput

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def kennel() -> ToolDocs:
    return load_doc(FIXTURES / "kennel_swagger20.yaml")


@pytest.fixture(scope="module")
def parcels() -> ToolDocs:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DocWarning)
        return load_doc(FIXTURES / "parcels_swagger20.json")


def _no_ref(value: object) -> bool:
    if isinstance(value, dict):
        return "$ref" not in value and all(_no_ref(v) for v in value.values())
    if isinstance(value, list):
        return all(_no_ref(v) for v in value)
    return True


def test_detected_as_swagger2_not_openapi() -> None:
    doc = DocInput.from_path(FIXTURES / "kennel_swagger20.yaml")
    assert detect_format(doc) == "swagger2"
    assert detect_format(DocInput.from_path(FIXTURES / "library_openapi30.yaml")) == "openapi"


def test_one_tool_per_operation_names_and_access(kennel: ToolDocs) -> None:
    names = [t.name for t in kennel.tools]
    assert names == [
        "listDogs", "registerDog", "getDog", "delete_dogs_by_dog_id", "getDogPhoto",
        "upload_dog_photo", "bookStay", "setReservationNote",
    ]  # fmt: skip
    access = {t.name: t.access for t in kennel.tools}
    assert access["listDogs"] == "read" and access["delete_dogs_by_dog_id"] == "write"
    assert kennel.description.startswith("Riverside Kennel API\n\nBoarding")
    assert "Base URL: https://api.riverside-kennel.example/v1" in kennel.description
    assert kennel.tool("listDogs").source.pointer == "/paths/~1dogs/get"  # type: ignore[union-attr]


def test_query_and_header_params_from_inline_keywords(kennel: ToolDocs) -> None:
    tool = kennel.tool("listDogs")
    assert tool.param_names == ["page_size", "breed", "x_request_id"]  # Authorization ignored
    props = tool.parameters["properties"]
    assert props["page_size"] == {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}
    assert props["breed"] == {"type": "array", "items": {"type": "string"}}
    assert props["x_request_id"]["x-original-name"] == "X-Request-Id"
    assert tool.required == []


def test_path_level_ref_parameter_is_required(kennel: ToolDocs) -> None:
    tool = kennel.tool("getDog")
    assert tool.required == ["dogId"]
    assert tool.parameters["properties"]["dogId"]["description"] == "Identifier of the dog."


def test_object_body_flattened_with_dialect_converted(kennel: ToolDocs) -> None:
    tool = kennel.tool("registerDog")
    assert tool.param_names == ["name", "breed", "weight_kg", "vaccinated", "owner"]  # no readOnly
    assert tool.required == ["name", "breed"]
    props = tool.parameters["properties"]
    assert props["name"] == {"type": "string", "examples": ["Biscuit"]}
    assert props["weight_kg"] == {"type": "number", "exclusiveMinimum": 0}
    assert props["vaccinated"] == {"type": ["boolean", "null"]}
    dog_again = props["owner"]["properties"]["dogs"]["items"]
    assert dog_again == {"type": "object", "description": "(recursive Dog)"}


def test_form_data_and_file_upload(kennel: ToolDocs) -> None:
    tool = kennel.tool("upload_dog_photo")
    assert tool.param_names == ["dogId", "caption", "file"]
    assert tool.required == ["dogId", "file"]
    assert tool.parameters["properties"]["file"] == {"type": "string", "format": "binary"}
    assert tool.parameters["properties"]["caption"] == {"type": "string", "maxLength": 140}


def test_non_object_or_non_json_body_is_one_argument(kennel: ToolDocs) -> None:
    book = kennel.tool("bookStay")
    assert book.param_names == ["stay"] and book.required == ["stay"]
    assert book.parameters["properties"]["stay"]["type"] == "array"
    note = kennel.tool("setReservationNote")  # consumes text/plain only: not flattened
    assert note.param_names == ["reservation_id", "note"]


def test_returns_follow_responses_and_produces(kennel: ToolDocs) -> None:
    assert kennel.tool("getDog").returns["properties"]["name"]["type"] == "string"  # type: ignore[index]
    assert kennel.tool("registerDog").returns is not None  # 201 when there is no 200
    assert kennel.tool("getDogPhoto").returns is None  # produces image/jpeg only
    assert kennel.tool("delete_dogs_by_dog_id").returns is None  # 204 without schema


def test_json_document_without_operation_ids_and_malformed_keywords(parcels: ToolDocs) -> None:
    listing = parcels.tools[0]
    assert listing.name == "get_lockers_by_locker_id_parcels"
    assert listing.required == ["locker_id"]
    parcel = listing.returns["items"]  # type: ignore[index]
    assert "required" not in parcel["properties"]["code"]  # `required: true` dropped
    assert parcel["properties"]["dimensions"]["prefixItems"] == [{"type": "number"}] * 3
    deposit = parcels.tool("depositParcel")
    assert deposit.param_names == ["locker_id", "tracking_code", "size"]
    code = deposit.parameters["properties"]["tracking_code"]
    assert "pattern" not in code and code["x-pattern"] == "^[\\p{Lu}0-9]{10}$"


def test_malformed_keywords_are_reported_once() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DocWarning)
        load_doc(FIXTURES / "parcels_swagger20.json")
    messages = [str(w.message) for w in caught if issubclass(w.category, DocWarning)]
    assert len(messages) == 1
    assert "required: True" in messages[0] and "x-pattern" in messages[0]


def test_a_body_repeating_a_path_param_merges_into_one_argument(parcels: ToolDocs) -> None:
    tool = parcels.tool("pickUpParcel")  # path ``code``; body {pin, code}
    assert tool.param_names == ["code", "pin"]
    assert tool.parameters["properties"]["code"]["type"] == "string"


def test_every_schema_is_valid_2020_12_without_refs(kennel: ToolDocs, parcels: ToolDocs) -> None:
    for tool in [*kennel.tools, *parcels.tools]:
        Draft202012Validator.check_schema(tool.parameters)
        assert _no_ref(tool.parameters) and _no_ref(tool.returns)
        if tool.returns is not None:
            Draft202012Validator.check_schema(tool.returns)


def test_body_parameter_without_schema_is_an_error() -> None:
    text = (
        'swagger: "2.0"\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    post:\n'
        "      parameters:\n        - {name: payload, in: body}\n"
        "      responses: {'200': {description: ok}}\n"
    )
    with pytest.raises(ValueError) as info:
        parse_text(text, filename="api.yaml")
    message = str(info.value)
    assert "api.yaml#/paths/~1a/post/parameters/0" in message
    assert "needs a 'schema'" in message and "(fix: " in message


def test_unknown_parameter_location_is_an_error() -> None:
    text = (
        'swagger: "2.0"\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n'
        "      parameters:\n        - {name: sid, in: cookie, type: string}\n"
        "      responses: {'200': {description: ok}}\n"
    )
    with pytest.raises(ValueError, match="formData or body"):
        parse_text(text, filename="api.yaml")


RPC_DOC = """
swagger: "2.0"
info: {title: Ledger RPC, version: "3"}
securityDefinitions:
  key: {type: apiKey, name: api_key, in: query}
parameters:
  Signature: {name: X-Signature, in: header, type: string}
  Format: {name: format, in: query, type: string, enum: [json, xml]}
paths:
  /rpc#OpenAccount:
    parameters: [{$ref: "#/parameters/Signature"}, {$ref: "#/parameters/Format"}]
    post:
      operationId: OpenAccount
      parameters:
        - {name: owner_email, in: query, type: string, required: true}
        - {name: api_key, in: query, type: string}
      responses: {"200": {description: ok}}
  /rpc#DescribeAccount:
    parameters: [{$ref: "#/parameters/Signature"}, {$ref: "#/parameters/Format"}]
    post:
      operationId: DescribeAccount
      parameters: [{name: account_id, in: query, type: string, required: true}]
      responses: {"200": {description: ok}}
  /rpc#CloseAccount:
    parameters: [{$ref: "#/parameters/Signature"}, {$ref: "#/parameters/Format"}]
    post:
      operationId: CloseAccount
      parameters: [{name: account_id, in: query, type: string, required: true}]
      responses: {"200": {description: ok}}
"""


def test_api_wide_parameters_left_out_and_rpc_documents_give_no_access_hint() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DocWarning)
        docs = parse_text(RPC_DOC, filename="ledger.yaml")
    assert docs.tool("OpenAccount").param_names == ["owner_email"]  # no api_key, header, format
    assert docs.tool("CloseAccount").param_names == ["account_id"]  # on 2 of 3 ops: kept
    assert {t.access for t in docs.tools} == {None}  # every operation is a POST
    messages = [str(w.message) for w in caught if issubclass(w.category, DocWarning)]
    assert any("X-Signature (header)" in m and "api_key (query)" in m for m in messages)


def test_rest_document_keeps_access_and_single_operation_params(kennel: ToolDocs) -> None:
    assert kennel.tool("listDogs").access == "read"
    assert "x_request_id" in kennel.tool("listDogs").param_names  # on one operation only


VERSIONED_DOC = """
swagger: "2.0"
info: {title: Greenhouse, version: "1"}
paths:
  /beds:
    get:
      operationId: listBeds
      parameters:
        - {name: api-version, in: query, type: string, required: true}
        - {name: callback, in: query, type: string, required: true}
        - {name: crop, in: query, type: string}
      responses: {"200": {description: ok}}
  /beds/{bedId}:
    get:
      operationId: getBed
      parameters:
        - {name: api-version, in: query, type: string, required: true}
        - {name: callback, in: query, type: string, required: true}
        - {name: bedId, in: path, type: string, required: true}
      responses: {"200": {description: ok}}
    delete:
      operationId: deleteBed
      parameters:
        - {name: api-version, in: query, type: string, required: true}
        - {name: callback, in: query, type: string, required: true}
        - {name: bedId, in: path, type: string, required: true}
        - {name: crop, in: query, type: string, required: true}
      responses: {"200": {description: ok}}
"""


def test_required_transport_parameters_of_every_operation_are_left_out() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DocWarning)
        docs = parse_text(VERSIONED_DOC, filename="greenhouse.yaml")
    assert docs.tool("listBeds").param_names == ["crop"]
    assert docs.tool("getBed").param_names == ["bedId"]  # a path key every op has: kept
    assert docs.tool("deleteBed").param_names == ["bedId", "crop"]
    messages = [str(w.message) for w in caught if issubclass(w.category, DocWarning)]
    assert any("api-version (query)" in m and "callback (query)" in m for m in messages)


def test_signing_parameters_every_operation_requires_are_left_out() -> None:
    """A signed query protocol: the access key, the signature and how it was made, the signing
    time and the action name are on every call; none is a value of a record."""
    signing = ["AWSAccessKeyId", "Action", "SignatureMethod", "Signature", "Timestamp"]
    doc = VERSIONED_DOC
    for name in signing:
        doc = doc.replace(
            "        - {name: callback, in: query, type: string, required: true}\n",
            "        - {name: callback, in: query, type: string, required: true}\n"
            f"        - {{name: {name}, in: query, type: string, required: true}}\n",
        )
    docs = parse_text(doc, filename="greenhouse.yaml")
    assert docs.tool("listBeds").param_names == ["crop"]
    assert docs.tool("deleteBed").param_names == ["bedId", "crop"]


EMPTY_BODY = """
swagger: "2.0"
info: {title: Sheds, version: "1"}
paths:
  /sheds/{ShedId}:
    post:
      operationId: GetShed
      parameters:
        - {name: ShedId, in: path, required: true, type: string}
        - name: body
          in: body
          required: true
          schema: {type: object, properties: {}, description: The request to get a shed.}
      responses: {"200": {description: the shed}}
  /sheds:
    post:
      operationId: CreateShed
      parameters:
        - name: body
          in: body
          required: true
          schema: {type: object, properties: {Colour: {type: string}}}
      responses: {"200": {description: the new shed}}
"""


def test_an_empty_request_body_is_no_argument() -> None:
    docs = parse_text(EMPTY_BODY, filename="sheds.yaml")
    get = next(t for t in docs.tools if t.name == "GetShed")
    assert get.param_names == ["ShedId"] and get.required == ["ShedId"]
    create = next(t for t in docs.tools if t.name == "CreateShed")
    assert create.param_names == ["Colour"]  # a body with properties still gives them


EXTENDED_RECORD = """
swagger: "2.0"
info: {title: Greenhouse, version: "1"}
paths:
  /beds:
    get:
      operationId: listBeds
      responses:
        "200":
          description: the beds
          schema:
            type: object
            properties:
              value: {type: array, items: {$ref: "#/definitions/Bed"}}
definitions:
  Resource:
    type: object
    required: [name]
    properties:
      name: {type: string, readOnly: true}
      location: {type: string}
  Bed:
    type: object
    properties:
      crop: {type: string}
      soil: {allOf: [{$ref: "#/definitions/Soil"}], description: what the bed holds}
    allOf: [{$ref: "#/definitions/Resource"}]
  Soil:
    type: string
    enum: [clay, loam]
"""


def test_a_record_that_extends_a_base_shows_the_base_s_fields() -> None:
    """``allOf`` of object schemas is one object: the base's ``name`` is a field of a bed; an
    ``allOf`` around a non-object (an enum with its own description) stays as written."""
    docs = parse_text(EXTENDED_RECORD, filename="greenhouse.yaml")
    bed = docs.tool("listBeds").returns["properties"]["value"]["items"]  # type: ignore[index]
    assert list(bed["properties"]) == ["name", "location", "crop", "soil"]
    assert bed["required"] == ["name"] and "allOf" not in bed
    assert "allOf" in bed["properties"]["soil"]


REPEATED_PARAM = """
swagger: "2.0"
info: {title: Sheds, version: "1"}
paths:
  /sheds/{ShedId}/paint:
    post:
      operationId: PaintShed
      parameters:
        - {name: ShedId, in: path, required: true, type: string}
        - {name: ShedId, in: query, required: false, type: string}
        - {name: Colour, in: query, required: true, type: string}
        - {name: Colour, in: header, required: true, type: string}
      responses: {"200": {description: painted}}
"""


def test_an_optional_repeat_of_a_parameter_is_one_value_a_required_one_is_kept() -> None:
    with pytest.warns(DocWarning, match="repeats another of that name"):
        docs = parse_text(REPEATED_PARAM, filename="sheds.yaml")
    paint = docs.tools[0]
    assert paint.param_names == ["ShedId", "Colour", "header_Colour"]
    assert paint.required == ["ShedId", "Colour", "header_Colour"]
