"""A create with line items gives each stored line the fields the data's lines show and no
argument gives (a running number, a product of two fields), and the record the sum of its
lines' counts when every record in the data holds it."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml
from doc_tools import rules_env  # type: ignore[import-not-found]

LINE = {"type": "object", "properties": {"item_id": {"type": "string"},
                                         "qty": {"type": "integer"}}}  # fmt: skip
KIT = {
    "type": "object",
    "properties": {"kit_id": {"type": "string"}, "lines": {"type": "array", "items": LINE},
                   "item_count": {"type": "integer"}, "lines_sum": {"type": "number"}},
}  # fmt: skip
OPENAPI = {
    "openapi": "3.0.3",
    "info": {"title": "Kits", "version": "1"},
    "paths": {"/kits": {"post": {
        "operationId": "create_kit",
        "summary": "Make a kit",
        "description": "Makes a kit of the items given. Kit ids continue the data's sequence.",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["items"],
            "properties": {"items": {"type": "array", "minItems": 1, "items": LINE}}}}}},
        "responses": {"201": {"description": "The kit", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Kit"}}}}},
    }}},
    "components": {"schemas": {"Kit": KIT, "Item": {"type": "object", "properties": {
        "item_id": {"type": "string"}, "price": {"type": "number"}}}}},
}  # fmt: skip
PRICES = {"I1": 2.5, "I2": 1.2, "I3": 4.15}


def _line(n: int, item: str, qty: int) -> dict[str, Any]:
    price = PRICES[item]
    return {"n": n, "item_id": item, "qty": qty, "price": price, "amount": round(qty * price, 2)}


def _kit(i: int, lines: list[tuple[str, int]]) -> dict[str, Any]:
    made = [_line(n, item, q) for n, (item, q) in enumerate(lines, 1)]
    return {"kit_id": f"K{i}", "lines": made, "item_count": sum(q for _, q in lines),
            "lines_sum": round(sum(x["amount"] for x in made), 2)}  # fmt: skip


DATA: dict[str, Any] = {
    "items": {k: {"item_id": k, "price": p} for k, p in PRICES.items()},
    "kits": {f"K{i}": _kit(i, ls) for i, ls in enumerate(
        [[("I1", 2)], [("I2", 1), ("I1", 3)], [("I3", 2), ("I2", 5), ("I1", 1)], [("I3", 4)]], 1)},
}  # fmt: skip


def test_stored_lines_are_numbered_priced_and_counted(tmp_path: Path) -> None:
    env = rules_env(tmp_path, yaml.safe_dump(OPENAPI, sort_keys=False), DATA)
    ep = env.episode(state=copy.deepcopy(DATA))
    items = [{"item_id": "I3", "qty": 3}, {"item_id": "I2", "qty": 2}]
    assert ep.call("create_kit", {"items": items}).ok
    (made,) = [k for key, k in ep.snapshot()["kits"].items() if key not in DATA["kits"]]
    assert [(x["n"], x["amount"]) for x in made["lines"]] == [(1, 12.45), (2, 2.4)]
    assert made["item_count"] == 5
    assert made["lines_sum"] == 14.85
