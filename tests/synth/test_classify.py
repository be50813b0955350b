"""Deterministic tool classification on the bookstore and tau2 tool sets."""

from __future__ import annotations

import json
from pathlib import Path

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.examples import example_path
from autoforge.synth.rulecode.classify import classify_tool
from autoforge.synth.state.infer import data_to_state, field_paths, infer_schema
from autoforge.tooldocs import load_docs


def test_bookstore_classes() -> None:
    root = example_path("bookstore")
    spec = EnvironmentSpec.model_validate_json((root / "environment.json").read_text())
    got = {t.name: classify_tool(t, spec.state_schema) for t in spec.tools}
    assert {n: c.cls for n, c in got.items()} == {
        "find_customer_by_email": "lookup",
        "get_customer": "lookup",
        "search_books": "list",
        "get_book": "lookup",
        "get_order": "lookup",
        "place_order": "create",
        "cancel_order": "transition",
        "update_shipping_address": "update",
        "add_review": "create",
    }
    assert got["get_book"].collection == "books" and got["get_book"].key_param == "book_id"
    assert got["get_book"].plain
    assert got["cancel_order"].collection == "orders" and not got["cancel_order"].plain
    # place_order's items are not attributes of orders one to one: not plain
    assert not got["place_order"].plain


def test_tau2_retail_classes_guards_and_plainness(benchmarks_dir: Path) -> None:
    domain = benchmarks_dir / "tau2-bench" / "retail"
    docs = load_docs([domain])
    state, _ = data_to_state(json.loads((domain / "db.json").read_text()))
    schema = infer_schema(state)
    paths = {name: field_paths(coll.values()) for name, coll in state.items()}
    got = {t.name: classify_tool(t, schema, paths) for t in docs.tools}
    classes = {n: c.cls for n, c in got.items()}
    assert classes["calculate"] == "compute"
    assert classes["transfer_to_human_agents"] == "generic"
    assert classes["cancel_pending_order"] == "transition"
    assert classes["exchange_delivered_order_items"] == "transition"
    assert classes["return_delivered_order_items"] == "transition"
    assert classes["find_user_id_by_email"] == "lookup"
    assert classes["list_all_product_types"] == "list"
    assert classes["modify_user_address"] == "update"
    # a status precondition stated in the name
    assert got["modify_pending_order_address"].guard == ("status", "pending")
    assert got["exchange_delivered_order_items"].guard == ("status", "delivered")
    # address fields sit under orders.address: a plain update; item swaps are not plain
    assert got["modify_pending_order_address"].plain
    assert not got["modify_pending_order_items"].plain
    # find by nested fields (name.first_name, address.zip) is a plain lookup
    assert got["find_user_id_by_name_zip"].plain
    assert got["find_user_id_by_name_zip"].collection == "users"


def test_read_write_hint_overrides_the_verb(benchmarks_dir: Path) -> None:
    docs = load_docs([benchmarks_dir / "tau2-bench" / "airline"])
    schema = infer_schema(
        data_to_state(
            json.loads((benchmarks_dir / "tau2-bench" / "airline" / "db.json").read_text())
        )[0]
    )
    tool = docs.tool("send_certificate")
    assert classify_tool(tool, schema).cls == "transition"
    assert classify_tool(tool.model_copy(update={"access": "read"}), schema).cls in (
        "lookup",
        "list",
    )
