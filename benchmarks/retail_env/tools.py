# ruff: noqa: F821  (ToolError is put in the globals by the runtime)
"""A small retail environment over tau-bench's retail database (for benchmarks/runtime.py).

State: ``users``, ``products``, ``orders`` keyed by id, as in tau-bench's ``db.json``. Tool
schemas are read from the benchmark's ``tools.json`` at run time; these implementations are
written for this repository (same observable behaviour as the documented tools, simplified).
Runs both sandboxed (through the runtime) and as plain functions (the naive baseline).
"""

import copy

_CANCEL_REASONS = ("no longer needed", "ordered by mistake")


def _user(state, user_id):
    user = state["users"].get(user_id)
    if user is None:
        raise ToolError("User not found")
    return user


def _order(state, order_id):
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError("Order not found")
    return order


def _pending(state, order_id):
    order = _order(state, order_id)
    if order["status"] != "pending":
        raise ToolError("Non-pending order cannot be modified")
    return order


def _address(address1, address2, city, state_, country, zip_):
    return {
        "address1": address1,
        "address2": address2,
        "city": city,
        "country": country,
        "state": state_,
        "zip": zip_,
    }


def get_user_details(state, user_id):
    return copy.deepcopy(_user(state, user_id))


def get_order_details(state, order_id):
    return copy.deepcopy(_order(state, order_id))


def get_product_details(state, product_id):
    product = state["products"].get(product_id)
    if product is None:
        raise ToolError("Product not found")
    return copy.deepcopy(product)


def find_user_id_by_name_zip(state, first_name, last_name, zip):
    for user_id, user in state["users"].items():
        name = user["name"]
        if (
            name["first_name"].lower() == first_name.lower()
            and name["last_name"].lower() == last_name.lower()
            and user["address"]["zip"] == zip
        ):
            return user_id
    raise ToolError("User not found")


def cancel_pending_order(state, order_id, reason):
    order = _pending(state, order_id)
    if reason not in _CANCEL_REASONS:
        raise ToolError("Invalid reason")
    user = _user(state, order["user_id"])
    refunds = []
    for payment in order["payment_history"]:
        method_id = payment["payment_method_id"]
        refunds.append(
            {
                "transaction_type": "refund",
                "amount": payment["amount"],
                "payment_method_id": method_id,
            }
        )
        method = user["payment_methods"].get(method_id, {})
        if "balance" in method:
            method["balance"] = round(method["balance"] + payment["amount"], 2)
    order["status"] = "cancelled"
    order["cancel_reason"] = reason
    order["payment_history"].extend(refunds)
    return copy.deepcopy(order)


def modify_pending_order_address(state, order_id, address1, address2, city, state_, country, zip):
    order = _pending(state, order_id)
    order["address"] = _address(address1, address2, city, state_, country, zip)
    return copy.deepcopy(order)


def modify_user_address(state, user_id, address1, address2, city, state_, country, zip):
    user = _user(state, user_id)
    user["address"] = _address(address1, address2, city, state_, country, zip)
    return copy.deepcopy(user)
