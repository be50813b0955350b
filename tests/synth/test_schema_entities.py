"""State design from the documents' own schemas: entities, unwrapping, merging, the call budget."""

from __future__ import annotations

import json
from typing import Any

import pytest

from autoforge.env.artifact.spec import Attribute, CollectionSchema, StateSchema
from autoforge.examples import example_path
from autoforge.lexicon import derive_state, doc_field_names, fields_under
from autoforge.llm import LLMClient
from autoforge.synth.state.design import design_state, merge_unused_collections
from autoforge.synth.state.mapping import unmapped_params
from autoforge.tooldocs import ToolDocs, load_docs, parse_text
from autoforge.tooldocs.spec import ToolSpec

# A Google-style API: list wrappers with page tokens, entities keyed by ``id``, nested value
# objects without ids, nested entities with ids, and tool names that are operation paths.
CATALOG = """
openapi: 3.0.3
info: {title: Catalog, version: "1"}
paths:
  /products:
    get:
      operationId: catalog_products_list
      parameters:
        - {name: pageToken, in: query, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/ListProductsResponse"}
  /products/{product_id}:
    get:
      operationId: catalog_products_get
      parameters:
        - {name: product_id, in: path, required: true, schema: {type: string}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Product"}
  /products/{product_id}/move:
    post:
      operationId: move_product
      parameters:
        - {name: product_id, in: path, required: true, schema: {type: string}}
        - {name: warehouse_id, in: query, required: true, schema: {type: string}}
      responses:
        "200": {description: ok}
components:
  schemas:
    ListProductsResponse:
      type: object
      properties:
        products:
          type: array
          items: {$ref: "#/components/schemas/Product"}
        nextPageToken: {type: string}
    Price:
      type: object
      properties:
        amount: {type: number}
        currency: {type: string}
    Issue:
      type: object
      properties:
        id: {type: string, description: Unique identifier of the issue.}
        severity: {type: string, enum: [error, warning]}
    Product:
      type: object
      properties:
        id: {type: string, description: Unique identifier of the product.}
        title: {type: string}
        price: {$ref: "#/components/schemas/Price"}
        issues:
          type: array
          items: {$ref: "#/components/schemas/Issue"}
        updated: {type: string, format: date-time}
        state: {type: string, enum: [draft, active, retired]}
"""


def _refuse(_: Any) -> str:
    raise AssertionError("the model must not be asked when the docs define everything")


@pytest.fixture
def bookstore() -> ToolDocs:
    return load_docs([example_path("bookstore") / "openapi.yaml"])


def test_bookstore_entities_come_from_the_response_schemas(bookstore: ToolDocs) -> None:
    derived = derive_state(bookstore.tools)
    schema = derived.schema
    assert {c.name for c in schema.collections} == {"customers", "books", "orders", "reviews"}
    books = schema.collection("books")
    assert books is not None and books.primary_key == "book_id"
    names = {a.name for a in books.attributes}
    # Book and its search projection BookSummary merge by their key; line items do not
    assert {"published_year", "price", "stock", "genre"} <= names
    assert "quantity" not in names and "unit_price" not in names
    orders = schema.collection("orders")
    assert orders is not None
    owner = orders.attribute("customer_id")
    assert owner is not None and owner.type == "id" and owner.references == "customers"
    items = orders.attribute("items")
    assert items is not None and items.description.startswith("list of objects with keys:")
    customers = schema.collection("customers")
    assert customers is not None
    address = customers.attribute("address")
    assert address is not None and address.description.startswith("object with keys: street")
    order_ids = customers.attribute("order_ids")
    assert order_ids is not None and order_ids.references == "orders"
    membership = customers.attribute("membership")
    assert membership is not None and membership.enum == ["standard", "gold"]
    assert derived.provenance["books"]["published_year"].startswith("docs:get_book/returns")


async def test_no_model_call_when_the_schemas_cover_the_tools(bookstore: ToolDocs) -> None:
    client = LLMClient.scripted([_refuse])
    result = await design_state(client, bookstore.tools, bookstore.policy)
    assert result.model_calls == 0 and client.requests == []
    assert result.source == "docs"
    assert unmapped_params(bookstore.tools, result.state_schema) == []
    assert all(o.startswith(("docs:", "rules:")) for o in result.provenance["orders"].values())
    assert result.provenance["reviews"]["rating"].startswith("docs:")


def test_wrappers_are_unwrapped_and_nested_entities_kept_apart() -> None:
    docs = parse_text(CATALOG, filename="catalog.yaml")
    derived = derive_state(docs.tools)
    names = {c.name for c in derived.schema.collections}
    assert names == {"products", "issues"}
    assert any("products" in u for u in derived.unwrapped)
    products = derived.schema.collection("products")
    assert products is not None and products.primary_key == "id"
    price = products.attribute("price")
    assert price is not None and price.type == "object"
    assert price.description == "object with keys: amount, currency"
    updated = products.attribute("updated")
    assert updated is not None and updated.type == "datetime"
    state = products.attribute("state")
    assert state is not None and state.enum == ["draft", "active", "retired"]
    assert "next_page_token" not in {a.name for a in products.attributes}


async def test_only_open_collections_go_to_the_model_and_answers_are_checked() -> None:
    city = "- {name: city, in: query, schema: {type: string}}\n        - {name: warehouse_id"
    docs = parse_text(CATALOG.replace("- {name: warehouse_id", city), filename="catalog.yaml")
    answer = {
        "collections": [
            {"name": "warehouses", "key": "warehouse_id", "add": ["city: string", "capacity"]},
            {"name": "products", "key": "id", "add": ["color: string"]},
            {"name": "bins", "key": "bin_id", "add": ["size: integer"]},
        ]
    }
    client = LLMClient.scripted([answer])
    result = await design_state(client, docs.tools)
    assert result.model_calls == 1
    assert [r.purpose for r in client.requests] == ["synth.state.design"]
    warehouses = result.state_schema.collection("warehouses")
    assert warehouses is not None and warehouses.attribute("city") is not None
    assert result.provenance["warehouses"]["city"] == "model"
    assert result.provenance["products"]["title"].startswith("docs:")
    assert not any(c.name.startswith("catalog_") for c in result.state_schema.collections)
    # with schemas, the model adds only names the docs define (a parameter, a returned field)
    assert warehouses.attribute("capacity") is None
    assert "warehouses.capacity: model guess, not in the docs" in result.rejected
    # only the open collection is asked about: no field added to a documented one, no new one
    products = result.state_schema.collection("products")
    assert products is not None and products.attribute("color") is None
    assert result.state_schema.collection("bins") is None


TAG = """
  /products/{product_id}/tag:
    post:
      operationId: tag_product
      parameters:
        - {name: product_id, in: path, required: true, schema: {type: string}}
        - {name: tag_name, in: query, required: true, schema: {type: string}}
      responses:
        "200": {description: ok}
components:"""


async def test_on_documented_collections_the_model_adds_only_what_was_asked() -> None:
    docs = parse_text(CATALOG.replace("\ncomponents:", TAG, 1), filename="catalog.yaml")
    warehouse = {"collections": [{"name": "warehouses", "key": "warehouse_id", "add": ["city"]}]}
    feedback = {
        "collections": [
            {"name": "products", "key": "id", "add": ["tag_name", "color", "updated: integer"]}
        ]
    }
    client = LLMClient.scripted([warehouse, feedback])
    result = await design_state(client, docs.tools)
    products = result.state_schema.collection("products")
    assert products is not None
    assert products.attribute("tag_name") is not None
    assert result.provenance["products"]["tag_name"] == "model"
    assert products.attribute("color") is None
    updated = products.attribute("updated")
    assert updated is not None and updated.type == "datetime"
    assert "products.color: not in the docs' schema" in result.rejected
    assert any(r.startswith("products.updated: model type integer") for r in result.rejected)
    assert result.model_calls == 2


async def test_without_schemas_at_most_three_model_calls() -> None:
    tools = [
        ToolSpec(
            name=f"get_{noun}",
            parameters={
                "type": "object",
                "properties": {f"{noun}_id": {"type": "string"}, "owner_email": {"type": "string"}},
                "required": [f"{noun}_id"],
            },
        )
        for noun in ("order", "user", "flight", "seat", "hotel", "room")
    ]
    entities = {
        "collections": [
            {"name": n, "key": f"{n[:-1]}_id", "add": ["owner_email: string"]}
            for n in ("orders", "users", "flights", "seats", "hotels", "rooms")
        ]
    }
    useless = {"collections": [{"name": "orders", "key": "order_id", "add": ["note"]}]}
    client = LLMClient.scripted([entities] + [useless] * 20)
    result = await design_state(client, tools)
    assert result.model_calls <= 3 and len(client.requests) <= 3
    assert unmapped_params(tools, result.state_schema) == []


async def test_collections_named_after_operations_are_rejected() -> None:
    tools = [
        ToolSpec(
            name="list_orders",
            parameters={"type": "object", "properties": {"order_id": {"type": "string"}}},
        )
    ]
    entities = {"collections": [{"name": "list_orders", "key": "list_order_id", "add": ["x"]}]}
    client = LLMClient.scripted([entities, {"collections": []}, {"collections": []}])
    result = await design_state(client, tools)
    names = {c.name for c in result.state_schema.collections}
    assert "list_orders" not in names and "orders" in names
    assert any("named after an operation" in r for r in result.rejected)


def test_a_proposed_collection_nothing_reaches_is_merged_away() -> None:
    tools = [
        ToolSpec(
            name="lock_device",
            parameters={"type": "object", "properties": {"device_id": {"type": "string"}}},
        )
    ]
    devices = CollectionSchema(
        name="devices",
        primary_key="device_id",
        attributes=[
            Attribute(name="device_id", type="id"),
            Attribute(name="kind", type="enum", enum=["lock", "light"]),
        ],
    )
    locks = CollectionSchema(
        name="locks", primary_key="lock_id", attributes=[Attribute(name="lock_id", type="id")]
    )
    schema = StateSchema(collections=[devices, locks])
    merged = merge_unused_collections(schema, tools)
    assert [c.name for c in schema.collections] == ["devices"]
    assert merged and merged[0].startswith("locks")


def test_named_refs_keep_their_name_as_title() -> None:
    docs = parse_text(CATALOG, filename="catalog.yaml")
    returns = docs.tool("catalog_products_get").returns
    assert returns is not None and returns["title"] == "Product"
    assert {"amount", "currency", "severity"} <= doc_field_names(docs.tools)


def test_a_proposed_kind_of_an_existing_collection_is_merged_into_it() -> None:
    """``locks`` with its own attributes next to ``devices.kind`` in {lock, light}: no tool
    passes ``lock_id``, so its attributes move to ``devices`` instead of a parallel table."""
    tools = [
        ToolSpec(
            name="lock_device",
            parameters={"type": "object", "properties": {"device_id": {"type": "string"}}},
        )
    ]
    devices = CollectionSchema(
        name="devices",
        primary_key="device_id",
        attributes=[
            Attribute(name="device_id", type="id"),
            Attribute(name="kind", type="enum", enum=["lock", "light"]),
        ],
    )
    locks = CollectionSchema(
        name="locks",
        primary_key="lock_id",
        attributes=[
            Attribute(name="lock_id", type="id"),
            Attribute(name="is_locked", type="boolean"),
        ],
    )
    schema = StateSchema(collections=[devices, locks])
    merged = merge_unused_collections(schema, tools)
    assert [c.name for c in schema.collections] == ["devices"]
    assert [a.name for a in devices.attributes] == ["device_id", "kind", "is_locked"]
    assert merged == ["locks: a kind of devices (devices.kind), merged into it"]


def test_a_kind_that_a_tool_reaches_by_its_key_is_kept() -> None:
    tools = [
        ToolSpec(
            name="lock_door",
            parameters={"type": "object", "properties": {"lock_id": {"type": "string"}}},
        )
    ]
    devices = CollectionSchema(
        name="devices",
        primary_key="device_id",
        attributes=[
            Attribute(name="device_id", type="id"),
            Attribute(name="kind", type="enum", enum=["lock"]),
        ],
    )
    locks = CollectionSchema(
        name="locks",
        primary_key="lock_id",
        attributes=[
            Attribute(name="lock_id", type="id"),
            Attribute(name="is_locked", type="boolean"),
        ],
    )
    schema = StateSchema(collections=[devices, locks])
    assert merge_unused_collections(schema, tools) == []
    assert [c.name for c in schema.collections] == ["devices", "locks"]


def _tool(name: str, returns: dict[str, Any], access: str | None = None) -> ToolSpec:
    return ToolSpec(
        name=name,
        parameters={"type": "object", "properties": {}},
        returns=returns,
        access=access,  # type: ignore[arg-type]
    )


NOTIFICATION = {
    "type": "object",
    "properties": {"Threshold": {"type": "number"}, "ComparisonOperator": {"type": "string"}},
}


def test_records_a_list_returns_without_an_identifier_become_a_collection() -> None:
    """AWS-style ``{Notifications: [...], NextToken}``: the elements are records of a
    collection (keyed by the state's own key), the envelope and its token are no fields."""
    listed = {
        "type": "object",
        "properties": {
            "Notifications": {"type": "array", "items": NOTIFICATION},
            "NextToken": {"type": "string"},
        },
    }
    derived = derive_state([_tool("DescribeNotificationsForBudget", listed, "write")])
    coll = derived.schema.collection("notifications")
    assert coll is not None and coll.primary_key == "notification_id"
    assert [a.name for a in coll.attributes] == [
        "notification_id",
        "Threshold",
        "ComparisonOperator",
    ]
    assert derived.provenance["notifications"]["notification_id"].startswith("rules:key")
    assert doc_field_names([_tool("DescribeNotificationsForBudget", listed)]) == {
        "Threshold",
        "ComparisonOperator",
    }


def test_the_object_a_read_returns_without_an_identifier_is_a_singleton() -> None:
    info = {
        "type": "object",
        "properties": {
            "balance": {"type": "integer"},
            "free_screenshots_left": {"type": "integer"},
        },
    }
    read = derive_state([_tool("GetAccountInfo", info, "read")])
    coll = read.schema.collection("accounts")
    assert coll is not None and "balance" in [a.name for a in coll.attributes]
    # what a write returns without an identifier is the operation's result, not a record
    assert derive_state([_tool("RegenerateKey", info, "write")]).schema.collections == []


def test_an_envelope_holding_one_entity_is_no_field() -> None:
    budget = {
        "type": "object",
        "properties": {"BudgetName": {"type": "string"}, "Limit": {"type": "number"}},
    }
    envelope = {"type": "object", "properties": {"Budget": budget}}
    tools = [_tool("DescribeBudget", envelope, "read")]
    assert doc_field_names(tools) == {"BudgetName", "Limit"}
    assert [c.name for c in derive_state(tools).schema.collections] == ["budgets"]


def test_nested_all_of_and_deep_fields_of_an_object_attribute() -> None:
    reference = {"type": "object", "properties": {"id": {"type": "string"}}}
    file = {
        "type": "object",
        "properties": {
            "size": {"type": "integer"},
            "permissions": {
                "type": "object",
                "properties": {"lock": {"type": "object", "properties": {"by": {}}}},
            },
        },
    }
    listed = {
        "type": "object",
        "properties": {
            "entries": {"type": "array", "items": {"allOf": [{"allOf": [reference]}, file]}}
        },
    }
    tools = [_tool("uploadFile", listed, "write")]
    derived = derive_state(tools)
    entries = derived.schema.collection("files")  # ``entries`` names no entity: the tool's noun
    assert entries is not None and {"id", "size", "permissions"} <= {
        a.name for a in entries.attributes
    }
    pointer = derived.provenance["files"]["permissions"]
    assert fields_under(tools, pointer) == {"lock", "by"}


def test_a_singleton_keeps_its_own_fields_and_an_envelope_with_meta_is_no_record() -> None:
    browser = {"type": "object", "properties": {"id": {"type": "integer"}, "name": {}}}
    info = {
        "type": "object",
        "properties": {
            "balance": {"type": "integer"},
            "browsers": {"type": "array", "items": browser},
        },
    }
    derived = derive_state([_tool("GetAccountInfo", info, "read")])
    account = derived.schema.collection("accounts")
    assert account is not None and [a.name for a in account.attributes] == ["account_id", "balance"]
    gif = {"type": "object", "properties": {"id": {"type": "string"}, "url": {}}}
    search = {
        "type": "object",
        "properties": {
            "data": {"type": "array", "items": gif},
            "meta": {"type": "object", "properties": {"msg": {}}},
            "pagination": {"type": "object", "properties": {"total_count": {}, "offset": {}}},
        },
    }
    tools = [_tool("search_gifs", search, "read")]
    gifs = derive_state(tools).schema
    assert [(c.name, [a.name for a in c.attributes]) for c in gifs.collections] == [
        ("gifs", ["id", "url"])
    ]
    assert doc_field_names(tools) == {"id", "url", "meta", "msg"}


async def test_every_request_counts_against_the_budget_re_asks_included() -> None:
    docs = parse_text(CATALOG.replace("\ncomponents:", TAG, 1), filename="catalog.yaml")
    client = LLMClient.scripted(["[[[ not json"] * 30)
    result = await design_state(client, docs.tools, max_rounds=5)
    # every answer is unusable: the design and feedback calls still stop at three requests
    assert len(client.requests) == 3 == result.model_calls
    assert all(len(r.messages) == 2 for r in client.requests)  # no re-ask of an earlier one
    assert unmapped_params(docs.tools, result.state_schema) == []


def _large_api(operations: int = 30, fields: int = 150) -> str:
    """An OpenAPI document with ``operations`` operations on one entity of ``fields`` long-
    described fields, and one collection (warehouses) only an id parameter names."""
    long = "A very long description of this field that the model does not need to read. " * 4
    props = {f"field_{i}": {"type": "string", "description": long} for i in range(fields)}
    props["id"] = {"type": "string"}
    item = {"$ref": "#/components/schemas/Product"}
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": item}}}}
    paths: dict[str, Any] = {}
    for i in range(operations):
        params = [
            {"name": "product_id", "in": "path", "required": True, "schema": {"type": "string"}},
            {"name": "warehouse_id", "in": "query", "schema": {"type": "string"}},
        ]
        op = {"operationId": f"update_product_{i}", "description": long, "parameters": params}
        paths[f"/products/{{product_id}}/op{i}"] = {"post": {**op, "responses": ok}}
    doc = {
        "openapi": "3.0.3",
        "info": {"title": "Big", "version": "1"},
        "paths": paths,
        "components": {"schemas": {"Product": {"type": "object", "properties": props}}},
    }
    return json.dumps(doc)


async def test_a_large_schema_reaches_the_model_summarised() -> None:
    text = _large_api()
    docs = parse_text(text, filename="big.json")
    client = LLMClient.scripted([{"collections": []}] * 3)
    await design_state(client, docs.tools)
    assert client.requests, "the open warehouses collection is asked about"
    prompt = "\n".join(m["content"] for r in client.requests for m in r.messages)
    assert len(text) > 70_000 and len(prompt) < 7_000
    assert "does not need to read" not in prompt  # field descriptions are left out
    assert "field_0" in prompt and "warehouses (key warehouse_id)" in prompt
