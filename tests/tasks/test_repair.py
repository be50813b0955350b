"""State repair from error messages, and blueprints no S0 can satisfy."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.tasks.blueprints.blueprint import Blueprint, CallNode, FactRef, FactSpec, OutputRef
from autoforge.tasks.gold.instantiate import GoldFailure, instantiate
from autoforge.tasks.states.population import StateGenerator
from autoforge.tasks.states.repair import repair_state


def test_repair_sets_the_value_the_message_asks_for(bookstore_env: Any) -> None:
    spec: EnvironmentSpec = bookstore_env.spec
    state = copy.deepcopy(bookstore_env.initial_state)
    order_id = next(k for k, o in state["orders"].items() if o["status"] == "shipped")
    message = f"Error: order {order_id} is shipped; only pending orders can be cancelled"
    assert repair_state(state, spec, message) == "changed"
    assert state["orders"][order_id]["status"] == "pending"
    assert repair_state(state, spec, message) == "unchanged"  # nothing left to change
    # a message that names a record but not its current value: leave it alone
    other = next(k for k, o in state["orders"].items() if o["status"] == "delivered")
    assert repair_state(state, spec, f"Error: order {other} needs pending review") == "unchanged"
    assert state["orders"][other]["status"] == "delivered"
    assert repair_state(state, spec, "Error: something unrelated") == "unchanged"


def test_repair_through_related_records(bookstore_env: Any) -> None:
    state = copy.deepcopy(bookstore_env.initial_state)
    order = next(o for o in state["orders"].values() if o["status"] != "delivered")
    customer, book = order["customer_id"], order["items"][0]["book_id"]
    message = f"Error: customer {customer} has no delivered order containing book {book}"
    assert repair_state(state, bookstore_env.spec, message) == "changed"
    assert state["orders"][order["order_id"]]["status"] == "delivered"


def test_impossible_blueprint_is_rejected_as_gold_error(bookstore_env: Any) -> None:
    # cancel an order, then change its shipping address: only pending orders allow that
    bp = Blueprint(
        nodes=[
            CallNode(id="c0", tool="cancel_order",
                     args={"order_id": FactRef(name="order_id"), "reason": FactRef(name="reason")}),
            CallNode(id="c1", tool="update_shipping_address",
                     args={"order_id": OutputRef(node="c0", path=["order_id"]),
                           "address": FactRef(name="address")}),
        ],
        facts=[
            FactSpec(name="order_id", role="entity", collection="orders", attribute="order_id"),
            FactSpec(name="reason", json_schema=bookstore_env.spec.tool("cancel_order")
                     .parameters["properties"]["reason"]),
            FactSpec(name="address", json_schema=bookstore_env.spec.tool("update_shipping_address")
                     .parameters["properties"]["address"]),
        ],
    )  # fmt: skip
    generator = StateGenerator(bookstore_env.spec, bookstore_env.initial_state)
    with pytest.raises(GoldFailure) as err:
        instantiate(bp, bookstore_env, 0, generator=generator)
    assert err.value.reason == "gold_error" and err.value.node in ("c0", "c1")
    assert "cancelled" in err.value.detail


def test_repair_detects_contradictory_needs(bookstore_env: Any) -> None:
    state = copy.deepcopy(bookstore_env.initial_state)
    order = next(o for o in state["orders"].values() if o["status"] == "shipped")
    oid, customer, book = order["order_id"], order["customer_id"], order["items"][0]["book_id"]
    history: dict[Any, Any] = {}
    cancel = f"Error: order {oid} is shipped; only pending orders can be cancelled"
    assert repair_state(state, bookstore_env.spec, cancel, history) == "changed"
    review = f"Error: customer {customer} has no delivered order containing book {book}"
    assert repair_state(state, bookstore_env.spec, review, history) == "conflict"
