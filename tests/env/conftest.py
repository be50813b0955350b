"""A small shop environment written for these tests (independent of the bundled examples)."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from autoforge.env import Environment, EnvironmentSpec
from autoforge.tooldocs.spec import ToolSpec


def obj(props: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    """An object schema."""
    return {"type": "object", "properties": props, "required": required or []}


STR = {"type": "string"}

SHOP_TOOLS = [
    ToolSpec(name="get_item", parameters=obj({"item_id": STR}, ["item_id"]), access="read"),
    ToolSpec(
        name="list_items",
        parameters=obj({"max_price": {"type": "number"}, "tag": STR}),
        access="read",
    ),
    ToolSpec(
        name="set_price",
        parameters=obj(
            {"item_id": STR, "price": {"type": "number", "minimum": 0}}, ["item_id", "price"]
        ),
        access="write",
    ),
    ToolSpec(
        name="add_item",
        parameters=obj(
            {
                "name": STR,
                "price": {"type": "number"},
                "tags": {"type": "array", "items": STR},
                "kind": {"type": "string", "enum": ["book", "toy"]},
            },
            ["name", "price"],
        ),
        access="write",
    ),
    ToolSpec(name="delete_item", parameters=obj({"item_id": STR}, ["item_id"]), access="write"),
    ToolSpec(
        name="restock",
        parameters=obj({"item_id": STR, "amount": {"type": "integer"}}, ["item_id", "amount"]),
        access="write",
    ),
]

SHOP_SOURCE = textwrap.dedent(
    """
    import copy

    _KINDS = ("book", "toy")


    def _item(state, item_id):
        item = state["items"].get(item_id)
        if item is None:
            raise ToolError(f"item {item_id} not found")
        return item


    def get_item(state, item_id):
        return copy.deepcopy(_item(state, item_id))


    def list_items(state, max_price=None, tag=None):
        out = []
        for item in state["items"].values():
            if max_price is not None and item["price"] > max_price:
                continue
            if tag is not None and tag not in item["tags"]:
                continue
            out.append(item["item_id"])
        return sorted(out)


    def set_price(state, item_id, price):
        item = _item(state, item_id)
        item["price"] = price
        return "ok"


    def add_item(state, name, price, tags=None, kind="book"):
        items = state["items"]
        item_id = f"i{len(items) + 1}"
        while item_id in items:
            item_id = item_id + "x"
        items[item_id] = {"item_id": item_id, "name": name, "price": price,
                          "tags": list(tags or []), "kind": kind, "stock": 0}
        return {"item_id": item_id}


    def delete_item(state, item_id):
        _item(state, item_id)
        del state["items"][item_id]
        return "deleted"


    def restock(state, item_id, amount):
        item = _item(state, item_id)
        item["stock"] += amount
        if item["stock"] < 0:
            raise ToolError("stock would become negative")
        state["log"]["n"] = state["log"].get("n", 0) + 1
        return item["stock"]
    """
)


def shop_state() -> dict[str, Any]:
    """A fresh initial state of the shop."""
    return {
        "items": {
            "i1": {
                "item_id": "i1",
                "name": "Atlas",
                "price": 12.5,
                "tags": ["map"],
                "kind": "book",
                "stock": 3,
            },
            "i2": {
                "item_id": "i2",
                "name": "Robot",
                "price": 30.0,
                "tags": ["kids", "tech"],
                "kind": "toy",
                "stock": 0,
            },
            "i3": {
                "item_id": "i3",
                "name": "Kite",
                "price": 8,
                "tags": ["kids"],
                "kind": "toy",
                "stock": 7,
            },
        },
        "log": {},
    }


def shop_spec(tools: list[ToolSpec] | None = None) -> EnvironmentSpec:
    """The shop's spec (optionally with other tools)."""
    return EnvironmentSpec(name="shop", tools=tools if tools is not None else SHOP_TOOLS)


def make_env(
    source: str, tools: list[ToolSpec], state: dict[str, Any] | None = None, **kwargs: Any
) -> Environment:
    """An environment from inline source and tool specs."""
    return Environment.from_parts(
        EnvironmentSpec(name="t", tools=tools), textwrap.dedent(source), state, **kwargs
    )


@pytest.fixture
def shop() -> Environment:
    """The shop environment."""
    return Environment.from_parts(shop_spec(), SHOP_SOURCE, shop_state())


@pytest.fixture
def env_factory() -> Any:
    """``make_env(source, tools, state=None, **kwargs)``."""
    return make_env


@pytest.fixture
def schema_obj() -> Any:
    """``obj(props, required)``: build an object schema."""
    return obj


@pytest.fixture
def shop_initial() -> dict[str, Any]:
    """A fresh copy of the shop's initial state."""
    return shop_state()


@pytest.fixture
def shop_parts() -> tuple[EnvironmentSpec, str]:
    """``(spec, tools source)`` of the shop."""
    return shop_spec(), SHOP_SOURCE
