"""Schema inference from benchmark data (from-data mode)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from autoforge.synth.state.infer import (
    DataShapeError,
    data_to_state,
    field_paths,
    infer_schema,
    nested_field_names,
    record_sample,
)


def _load(benchmarks_dir: Path, domain: str) -> dict:
    return json.loads((benchmarks_dir / domain / "db.json").read_text(encoding="utf-8"))


def test_tau2_retail_collections_keys_and_types(benchmarks_dir: Path) -> None:
    state, warnings = data_to_state(_load(benchmarks_dir, "tau2-bench/retail"))
    assert warnings == []
    schema = infer_schema(state)
    assert [c.name for c in schema.collections] == ["products", "users", "orders"]
    orders = schema.collection("orders")
    assert orders is not None and orders.primary_key == "order_id"
    by_name = {a.name: a for a in orders.attributes}
    assert by_name["order_id"].type == "id"
    assert by_name["user_id"].references == "users"
    assert by_name["status"].type == "enum"
    assert {"pending", "delivered", "cancelled"} <= set(by_name["status"].enum or [])
    assert by_name["items"].type == "array"
    assert "item_id" in by_name["items"].description
    users = schema.collection("users")
    assert users is not None
    user_attrs = {a.name: a for a in users.attributes}
    assert user_attrs["orders"].references == "orders"  # array of order keys
    assert user_attrs["payment_methods"].description.startswith("map from id to object")
    assert user_attrs["name"].description == "object with keys: first_name, last_name"


def test_tau2_airline_dates_numbers_and_enums(benchmarks_dir: Path) -> None:
    state, _ = data_to_state(_load(benchmarks_dir, "tau2-bench/airline"))
    schema = infer_schema(state)
    res = schema.collection("reservations")
    assert res is not None and res.primary_key == "reservation_id"
    attrs = {a.name: a for a in res.attributes}
    assert attrs["created_at"].type == "datetime"
    assert attrs["total_baggages"].type == "integer"
    assert attrs["cabin"].enum == ["basic_economy", "business", "economy"]
    flights = schema.collection("flights")
    assert flights is not None and flights.primary_key == "flight_number"
    users = schema.collection("users")
    assert users is not None
    assert {a.name: a.type for a in users.attributes}["dob"] == "date"


def test_key_missing_from_records_gets_a_named_key(benchmarks_dir: Path) -> None:
    # tau-bench airline users do not repeat their key inside the record
    state, _ = data_to_state(_load(benchmarks_dir, "tau-bench/airline"))
    users = infer_schema(state).collection("users")
    assert users is not None
    assert users.primary_key == "user_id"
    assert users.attributes[0].name == "user_id"


def test_lists_of_records_become_keyed_collections() -> None:
    data = {
        "plans": [{"plan_id": "P1", "price": 10.0}, {"plan_id": "P2", "price": 12.5}],
        "config": {"currency": "USD"},
        "log": [1, 2, 3],
    }
    state, warnings = data_to_state(data)
    assert set(state) == {"plans"}
    assert state["plans"]["P2"]["price"] == 12.5
    assert len(warnings) == 2
    assert infer_schema(state).collections[0].primary_key == "plan_id"


def test_no_collections_is_an_error() -> None:
    with pytest.raises(DataShapeError, match="no collections"):
        data_to_state({"a": 1, "b": "x"})


def test_nested_fields_and_paths(benchmarks_dir: Path) -> None:
    state, _ = data_to_state(_load(benchmarks_dir, "tau2-bench/retail"))
    names = nested_field_names(state)
    assert {"first_name", "zip", "item_id", "payment_method_id"} <= names
    assert "9612497925" not in names  # map keys are data, not fields
    paths = field_paths(state["users"].values())
    assert paths["zip"] == ["address", "zip"]
    assert paths["first_name"] == ["name", "first_name"]
    assert "balance" not in paths  # inside the payment_methods map: not reachable by name


def test_record_sample_is_small_json(benchmarks_dir: Path) -> None:
    state, _ = data_to_state(_load(benchmarks_dir, "tau2-bench/retail"))
    text = record_sample(state, "products", 700)
    assert len(text) <= 700
    sample = json.loads(text)
    (record,) = sample.values()
    assert "..." in record["variants"]  # the long variant map is cut and marked
