"""The bookstore's business rules: what each write tool does, and what it refuses to do."""

from __future__ import annotations

import copy
from typing import Any

import pytest


@pytest.fixture
def call(bookstore: Any) -> Any:
    """``call(tool, **args)`` on one fresh state per test; the state is ``call.state``."""

    class Caller:
        state = bookstore.fresh_state()

        def __call__(self, tool: str, **args: Any) -> Any:
            return bookstore.tool(tool)(self.state, **args)

    return Caller()


def _refuses(bookstore: Any, call: Any, match: str, tool: str, **args: Any) -> None:
    """The call raises ToolError matching ``match`` and leaves the state as it was."""
    before = copy.deepcopy(call.state)
    with pytest.raises(bookstore.namespace["ToolError"], match=match):
        call(tool, **args)
    assert call.state == before


def test_find_customer_by_email_is_case_insensitive(bookstore: Any, call: Any) -> None:
    assert call("find_customer_by_email", email=" PRIYA.V@example.org ") == {
        "customer_id": "C-1003",
        "name": "Priya Venkataraman",
    }
    _refuses(bookstore, call, "no customer", "find_customer_by_email", email="nobody@example.com")


def test_get_customer_lists_orders_in_natural_order(call: Any) -> None:
    call("place_order", customer_id="C-1003", items=[{"book_id": "B-209", "quantity": 1}])
    assert call("get_customer", customer_id="C-1003")["order_ids"] == ["ORD-3", "ORD-7", "ORD-11"]


def test_search_books_combines_filters(bookstore: Any, call: Any) -> None:
    found = call("search_books", genre="fantasy", max_price=20)
    assert [b["book_id"] for b in found] == ["B-201", "B-203"]
    in_stock = call("search_books", genre="fantasy", max_price=20, in_stock_only=True)
    assert [b["book_id"] for b in in_stock] == ["B-201"]
    assert [b["book_id"] for b in call("search_books", author="varga")] == ["B-201", "B-202"]
    assert call("search_books", title="no such title") == []
    assert len(call("search_books")) == len(call.state["books"])
    _refuses(bookstore, call, "negative", "search_books", max_price=-1)


def test_place_order_takes_stock_prices_and_numbers_orders(call: Any) -> None:
    stock = call.state["books"]["B-209"]["stock"]
    items = [{"book_id": "B-209", "quantity": 2}, {"book_id": "B-209", "quantity": 1}]
    order = call("place_order", customer_id="C-1002", items=items)
    assert order["order_id"] == "ORD-11"
    assert order["items"] == [
        {
            "book_id": "B-209",
            "title": "Nine Keys to Saint Aldric",
            "quantity": 3,
            "unit_price": 11.5,
        },
    ]
    assert (order["subtotal"], order["discount"], order["shipping_fee"]) == (34.5, 0.0, 4.99)
    assert order["total"] == 39.49 and order["status"] == "pending"
    assert order["shipping_address"] == call.state["customers"]["C-1002"]["address"]
    assert call.state["books"]["B-209"]["stock"] == stock - 3
    assert call.state["orders"]["ORD-11"] == order
    second = call("place_order", customer_id="C-1002", items=[{"book_id": "B-206", "quantity": 1}])
    assert second["order_id"] == "ORD-12"


def test_place_order_shipping_and_coupons(call: Any) -> None:
    gold = call("place_order", customer_id="C-1001", items=[{"book_id": "B-219", "quantity": 1}])
    assert (gold["shipping_fee"], gold["total"]) == (0.0, 8.99)
    coupon = call(
        "place_order",
        customer_id="C-1003",
        items=[{"book_id": "B-201", "quantity": 1}, {"book_id": "B-213", "quantity": 1}],
        coupon_code="SPRING20",
    )
    # 44.99 - 9.00 = 35.99 reaches the free-shipping threshold
    assert (coupon["subtotal"], coupon["discount"], coupon["shipping_fee"]) == (44.99, 9.0, 0.0)
    assert coupon["total"] == 35.99 and coupon["coupon_code"] == "SPRING20"
    below = call(
        "place_order",
        customer_id="C-1005",
        items=[{"book_id": "B-212", "quantity": 1}],
        coupon_code="WELCOME10",
    )
    # 29.95 - 3.00 (2.995 rounded half up) = 26.95 < 35: standard shipping
    assert (below["discount"], below["shipping_fee"], below["total"]) == (3.0, 4.99, 31.94)
    items = [{"book_id": "B-217", "quantity": 1}, {"book_id": "B-219", "quantity": 1}]
    after = call("place_order", customer_id="C-1005", items=items, coupon_code="WELCOME10")
    # 35.99 before the discount, 32.39 after it: the threshold applies after the discount
    assert (after["subtotal"], after["discount"], after["shipping_fee"]) == (35.99, 3.6, 4.99)
    assert after["total"] == 37.38


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ({"customer_id": "C-9999", "items": [{"book_id": "B-201", "quantity": 1}]}, "customer"),
        ({"customer_id": "C-1001", "items": []}, "at least one item"),
        ({"customer_id": "C-1001", "items": [{"book_id": "B-999", "quantity": 1}]}, "book B-999"),
        ({"customer_id": "C-1001", "items": [{"book_id": "B-201", "quantity": 0}]}, "positive"),
        (
            {
                "customer_id": "C-1001",
                "items": [{"book_id": "B-201", "quantity": 1}, {"book_id": "B-203", "quantity": 1}],
            },
            "not enough stock for book B-203",
        ),
        (
            {"customer_id": "C-1001", "items": [{"book_id": "B-216", "quantity": 1}] * 2},
            "not enough stock",
        ),
        (
            {"customer_id": "C-1001", "items": [{"book_id": "B-201", "quantity": 1}],
             "coupon_code": "NOPE"},
            "coupon NOPE not found",
        ),
        (
            {"customer_id": "C-1001", "items": [{"book_id": "B-212", "quantity": 1}],
             "coupon_code": "BOOKWORM15"},
            "no longer active",
        ),
        (
            {"customer_id": "C-1001", "items": [{"book_id": "B-201", "quantity": 1}],
             "coupon_code": "SPRING20"},
            "at least 40.00",
        ),
    ],
)  # fmt: skip
def test_place_order_refusals_change_nothing(
    bookstore: Any, call: Any, args: dict[str, Any], match: str
) -> None:
    _refuses(bookstore, call, match, "place_order", **args)


def test_order_ids_skip_ids_already_taken(call: Any) -> None:
    del call.state["orders"]["ORD-3"]  # 9 orders left, but ORD-10 exists
    order = call("place_order", customer_id="C-1001", items=[{"book_id": "B-201", "quantity": 1}])
    assert order["order_id"] == "ORD-11"


def test_cancel_order_restocks_and_only_when_pending(bookstore: Any, call: Any) -> None:
    stock = {b: call.state["books"][b]["stock"] for b in ("B-210", "B-213")}
    order = call("cancel_order", order_id="ORD-9", reason="found_cheaper")
    assert (order["status"], order["cancel_reason"]) == ("cancelled", "found_cheaper")
    assert call.state["orders"]["ORD-9"]["status"] == "cancelled"
    restocked = {b: call.state["books"][b]["stock"] for b in stock}
    assert restocked == {b: n + 1 for b, n in stock.items()}
    refusals = [
        ("ORD-9", "other", "ORD-9 is cancelled"),
        ("ORD-6", "other", "ORD-6 is shipped"),
        ("ORD-1", "other", "ORD-1 is delivered"),
        ("ORD-8", "bored", "reason must be one of"),
        ("ORD-77", "other", "ORD-77 not found"),
    ]
    for order_id, reason, match in refusals:
        _refuses(bookstore, call, match, "cancel_order", order_id=order_id, reason=reason)


def test_update_shipping_address_changes_only_the_order(bookstore: Any, call: Any) -> None:
    profile = copy.deepcopy(call.state["customers"]["C-1008"])
    new = {"street": " 9 Elm St ", "city": "Evanston", "postal_code": "60201", "country": "US"}
    order = call("update_shipping_address", order_id="ORD-10", address=new)
    assert order["shipping_address"] == {**new, "street": "9 Elm St"}
    assert call.state["orders"]["ORD-10"]["shipping_address"]["city"] == "Evanston"
    assert call.state["customers"]["C-1008"] == profile
    _refuses(bookstore, call, "ORD-7 is shipped", "update_shipping_address",
             order_id="ORD-7", address=new)  # fmt: skip
    partial = {"street": "9 Elm St", "city": "", "postal_code": "60201", "country": "US"}
    _refuses(bookstore, call, "missing city", "update_shipping_address",
             order_id="ORD-8", address=partial)  # fmt: skip


def test_add_review_needs_a_delivered_copy_once(bookstore: Any, call: Any) -> None:
    review = call("add_review", customer_id="C-1001", book_id="B-201", rating=5)
    assert review == {
        "review_id": "REV-4", "customer_id": "C-1001", "book_id": "B-201", "rating": 5, "text": "",
    }  # fmt: skip
    assert call.state["reviews"]["REV-4"] == review
    _refuses(bookstore, call, "already reviewed", "add_review",
             customer_id="C-1001", book_id="B-201", rating=4)  # fmt: skip
    # B-202 is only in the customer's pending order ORD-8; B-206 was never ordered by her
    for book in ("B-202", "B-206"):
        _refuses(bookstore, call, "no delivered order", "add_review",
                 customer_id="C-1001", book_id=book, rating=4)  # fmt: skip
    _refuses(bookstore, call, "rating", "add_review",
             customer_id="C-1001", book_id="B-204", rating=6)  # fmt: skip
    _refuses(bookstore, call, "book B-000", "add_review",
             customer_id="C-1001", book_id="B-000", rating=3)  # fmt: skip
