"""The bookstore's data files agree with each other: state vs schema, docs vs spec, prices."""

from __future__ import annotations

import importlib
import json
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
import yaml

from autoforge.env.artifact.spec import Attribute

PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "id": (str,), "enum": (str,), "date": (str,), "datetime": (str,),
    "integer": (int,), "number": (int, float), "boolean": (bool,), "object": (dict,),
    "array": (list,),
}  # fmt: skip


def _type_ok(attr: Attribute, value: Any) -> bool:
    if value is None:
        return attr.nullable
    if isinstance(value, bool) and attr.type != "boolean":
        return False
    if not isinstance(value, PY_TYPES[attr.type]):
        return False
    return attr.enum is None or value in attr.enum


def test_initial_state_matches_the_state_schema(bookstore: Any) -> None:
    schema = bookstore.spec.state_schema
    state = bookstore.initial_state
    assert set(state) == {c.name for c in schema.collections}
    for coll in schema.collections:
        names = {a.name for a in coll.attributes}
        assert coll.primary_key in names
        for key, record in state[coll.name].items():
            assert record[coll.primary_key] == key
            assert set(record) == names, (coll.name, key)
            for attr in coll.attributes:
                assert _type_ok(attr, record[attr.name]), (coll.name, key, attr.name)
                if attr.references and record[attr.name] is not None:
                    assert record[attr.name] in state[attr.references], (key, attr.name)
    assert len(state["customers"]) >= 8 and len(state["books"]) >= 20
    assert len(state["orders"]) >= 10
    assert {o["status"] for o in state["orders"].values()} == {
        "pending", "shipped", "delivered", "cancelled",
    }  # fmt: skip
    emails = [c["email"].lower() for c in state["customers"].values()]
    assert len(set(emails)) == len(emails)


def _cents(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_initial_orders_are_priced_by_the_policy(bookstore: Any) -> None:
    state = bookstore.initial_state
    for order in state["orders"].values():
        for line in order["items"]:
            assert line["book_id"] in state["books"]
            assert line["title"] == state["books"][line["book_id"]]["title"]
        sub = sum(Decimal(str(i["unit_price"])) * i["quantity"] for i in order["items"])
        assert Decimal(str(order["subtotal"])) == _cents(sub), order["order_id"]
        pct = state["coupons"][order["coupon_code"]]["percent_off"] if order["coupon_code"] else 0
        discount = _cents(sub * pct / 100)
        assert Decimal(str(order["discount"])) == discount, order["order_id"]
        gold = state["customers"][order["customer_id"]]["membership"] == "gold"
        fee = Decimal("0") if gold or sub - discount >= 35 else Decimal("4.99")
        assert Decimal(str(order["shipping_fee"])) == fee, order["order_id"]
        assert Decimal(str(order["total"])) == sub - discount + fee, order["order_id"]
        assert (order["cancel_reason"] is None) == (order["status"] != "cancelled")


def test_openai_docs_and_policy_are_the_spec_s(bookstore: Any) -> None:
    openai = json.loads((bookstore.root / "tools.openai.json").read_text())
    assert openai == [t.openai_tool() for t in bookstore.spec.tools]
    assert (bookstore.root / "policy.md").read_text().strip() == bookstore.spec.policy.strip()
    assert "authenticate" in bookstore.spec.policy.lower()


def _resolve(doc: dict[str, Any], node: Any) -> Any:
    """``node`` with every local ``$ref`` replaced by its target (recursively)."""
    if isinstance(node, dict):
        if "$ref" in node:
            target: Any = doc
            for part in node["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            return _resolve(doc, target)
        return {k: _resolve(doc, v) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve(doc, v) for v in node]
    return node


def _operations(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """operationId -> {"params": {name: schema}, "required": set, "returns": schema}."""
    ops = {}
    for path_item in doc["paths"].values():
        for op in path_item.values():
            params = {p["name"]: p["schema"] for p in op.get("parameters", [])}
            required = {p["name"] for p in op.get("parameters", []) if p["required"]}
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            params |= body.get("schema", {}).get("properties", {})
            required |= set(body.get("schema", {}).get("required", []))
            returns = op["responses"]["200"]["content"]["application/json"]["schema"]
            ops[op["operationId"]] = {"params": params, "required": required, "returns": returns}
    return ops


def _shape(schema: dict[str, Any]) -> Any:
    """The structural skeleton of a schema: types and property names, nullability folded in."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next(k for k in kind if k != "null")
    if kind == "object":
        return {k: _shape(v) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [_shape(schema["items"])]
    return kind


def test_openapi_describes_the_same_tools(bookstore: Any) -> None:
    raw = yaml.safe_load((bookstore.root / "openapi.yaml").read_text())
    assert raw["openapi"].startswith("3.0") and raw["components"]["schemas"]
    assert "$ref" in json.dumps(raw["paths"])
    ops = _operations(_resolve(raw, raw))
    assert set(ops) == {t.name for t in bookstore.spec.tools}
    for spec in bookstore.spec.tools:
        op = ops[spec.name]
        assert list(op["params"]) == spec.param_names, spec.name
        assert op["required"] == set(spec.required), spec.name
        for name, schema in op["params"].items():
            assert _shape(schema) == _shape(spec.parameters["properties"][name]), (spec.name, name)
        assert spec.returns is not None
        assert _shape(op["returns"]) == _shape(spec.returns), spec.name


def test_ingest_reads_the_bundled_docs_like_the_spec(bookstore: Any) -> None:
    tooldocs = importlib.import_module("autoforge.tooldocs")
    if not hasattr(tooldocs, "load_docs"):
        pytest.skip("autoforge.tooldocs.load_docs is not implemented yet")
    for doc_file in ("tools.openai.json", "openapi.yaml"):
        docs = tooldocs.load_docs([bookstore.root / doc_file])
        assert {t.name for t in docs.tools} == {t.name for t in bookstore.spec.tools}, doc_file
        for tool in docs.tools:
            spec = bookstore.spec.tool(tool.name)
            assert tool.param_names == spec.param_names, (doc_file, tool.name)
            assert set(tool.required) == set(spec.required), (doc_file, tool.name)
