"""Tools of the Inkwell Books bookstore environment.

One function per documented tool, ``def tool_name(state, **arguments)``. The state is
``state[collection][primary_key] = record`` with the collections ``customers``, ``books``,
``orders``, ``coupons`` and ``reviews`` (see ``environment.json``).

Business errors raise ``ToolError``, a name the runtime puts in this module's globals (it is
not imported on purpose). Everything is deterministic: new ids come from the size of the
collection, never from a clock or a random source. Results are copies, never live records.
Writes validate everything first and only then mutate, so a failed call leaves the state as it was.
"""

import copy
from decimal import ROUND_HALF_UP, Decimal

_FREE_SHIPPING_FROM = Decimal("35.00")
_SHIPPING_FEE = Decimal("4.99")
_CANCEL_REASONS = ("no_longer_needed", "ordered_by_mistake", "found_cheaper", "other")
_ADDRESS_FIELDS = ("street", "city", "postal_code", "country")


def _money(value):
    """Round a money amount to cents (half up) and return it as a float."""
    return float(Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _require(state, collection, key, label):
    """The live record ``state[collection][key]``, or a ToolError naming what is missing."""
    record = state[collection].get(key)
    if record is None:
        raise ToolError(f"{label} {key} not found")
    return record


def _next_id(records, prefix):
    """The next free id ``<prefix><n>``, n counted from the number of records (deterministic)."""
    n = len(records) + 1
    while f"{prefix}{n}" in records:
        n += 1
    return f"{prefix}{n}"


def _merge_items(items):
    """Sum the quantities of an item list per book id, keeping first-seen order."""
    if not items:
        raise ToolError("an order needs at least one item")
    merged = {}
    for item in items:
        book_id = item.get("book_id")
        quantity = item.get("quantity")
        if not isinstance(quantity, int) or isinstance(quantity, bool) or quantity < 1:
            raise ToolError(f"quantity for book {book_id} must be a positive integer")
        merged[book_id] = merged.get(book_id, 0) + quantity
    return merged


def _price_order(subtotal, coupon, membership):
    """Discount, shipping fee and total of an order, following the store policy."""
    sub = Decimal(str(subtotal))
    discount = Decimal("0")
    if coupon is not None:
        discount = Decimal(str(_money(sub * coupon["percent_off"] / 100)))
    after_discount = sub - discount
    free = membership == "gold" or after_discount >= _FREE_SHIPPING_FROM
    shipping = Decimal("0") if free else _SHIPPING_FEE
    return _money(discount), _money(shipping), _money(after_discount + shipping)


def _check_coupon(state, coupon_code, subtotal):
    """The coupon record if ``coupon_code`` may be used on this subtotal, else a ToolError."""
    if coupon_code is None:
        return None
    coupon = _require(state, "coupons", coupon_code, "coupon")
    if not coupon["active"]:
        raise ToolError(f"coupon {coupon_code} is no longer active")
    if subtotal < coupon["min_subtotal"]:
        raise ToolError(
            f"coupon {coupon_code} needs a subtotal of at least {coupon['min_subtotal']:.2f}"
        )
    return coupon


def _pending_order(state, order_id, action):
    """The live order if it is still pending; otherwise a ToolError naming its status."""
    order = _require(state, "orders", order_id, "order")
    if order["status"] != "pending":
        raise ToolError(f"order {order_id} is {order['status']}; only pending orders can {action}")
    return order


def find_customer_by_email(state, email):
    """Find a customer by email address (case-insensitive); returns their id and name."""
    wanted = email.strip().lower()
    for customer in state["customers"].values():
        if customer["email"].lower() == wanted:
            return {"customer_id": customer["customer_id"], "name": customer["name"]}
    raise ToolError(f"no customer with email {email}")


def get_customer(state, customer_id):
    """A customer's profile together with the ids of all their orders."""
    customer = _require(state, "customers", customer_id, "customer")
    result = copy.deepcopy(customer)
    result["order_ids"] = sorted(
        (o["order_id"] for o in state["orders"].values() if o["customer_id"] == customer_id),
        key=lambda oid: (len(oid), oid),
    )
    return result


def search_books(state, title=None, author=None, genre=None, max_price=None, in_stock_only=False):
    """Books matching all given filters, sorted by book id (summaries, not full records)."""
    if max_price is not None and max_price < 0:
        raise ToolError("max_price must not be negative")
    found = []
    for book in sorted(state["books"].values(), key=lambda b: b["book_id"]):
        if title is not None and title.lower() not in book["title"].lower():
            continue
        if author is not None and author.lower() not in book["author"].lower():
            continue
        if genre is not None and book["genre"] != genre:
            continue
        if max_price is not None and book["price"] > max_price:
            continue
        if in_stock_only and book["stock"] < 1:
            continue
        summary = ("book_id", "title", "author", "genre", "price", "stock")
        found.append({k: book[k] for k in summary})
    return found


def get_book(state, book_id):
    """The full record of one book."""
    return copy.deepcopy(_require(state, "books", book_id, "book"))


def get_order(state, order_id):
    """The full record of one order: items, amounts, status and shipping address."""
    return copy.deepcopy(_require(state, "orders", order_id, "order"))


def place_order(state, customer_id, items, coupon_code=None):
    """Create a pending order: check and take stock, price it, ship to the default address."""
    customer = _require(state, "customers", customer_id, "customer")
    wanted = _merge_items(items)
    lines = []
    subtotal = Decimal("0")
    for book_id, quantity in wanted.items():
        book = _require(state, "books", book_id, "book")
        if book["stock"] < quantity:
            raise ToolError(
                f"not enough stock for book {book_id}: {book['stock']} left, {quantity} requested"
            )
        lines.append(
            {
                "book_id": book_id,
                "title": book["title"],
                "quantity": quantity,
                "unit_price": book["price"],
            }
        )
        subtotal += Decimal(str(book["price"])) * quantity
    subtotal = _money(subtotal)
    coupon = _check_coupon(state, coupon_code, subtotal)
    discount, shipping, total = _price_order(subtotal, coupon, customer["membership"])
    for line in lines:
        state["books"][line["book_id"]]["stock"] -= line["quantity"]
    order_id = _next_id(state["orders"], "ORD-")
    state["orders"][order_id] = {
        "order_id": order_id,
        "customer_id": customer_id,
        "items": lines,
        "status": "pending",
        "subtotal": subtotal,
        "discount": discount,
        "shipping_fee": shipping,
        "total": total,
        "coupon_code": coupon_code,
        "shipping_address": copy.deepcopy(customer["address"]),
        "cancel_reason": None,
    }
    return copy.deepcopy(state["orders"][order_id])


def cancel_order(state, order_id, reason):
    """Cancel a pending order and put its items back in stock; the payment is refunded."""
    if reason not in _CANCEL_REASONS:
        raise ToolError(f"reason must be one of {', '.join(_CANCEL_REASONS)}")
    order = _pending_order(state, order_id, "be cancelled")
    for line in order["items"]:
        book = state["books"].get(line["book_id"])
        if book is not None:
            book["stock"] += line["quantity"]
    order["status"] = "cancelled"
    order["cancel_reason"] = reason
    return copy.deepcopy(order)


def update_shipping_address(state, order_id, address):
    """Change where a pending order will be shipped; the customer's profile is not changed."""
    missing = [f for f in _ADDRESS_FIELDS if not str(address.get(f) or "").strip()]
    if missing:
        raise ToolError(f"address is missing {', '.join(missing)}")
    order = _pending_order(state, order_id, "have their address changed")
    order["shipping_address"] = {f: str(address[f]).strip() for f in _ADDRESS_FIELDS}
    return copy.deepcopy(order)


def add_review(state, customer_id, book_id, rating, text=""):
    """Publish a customer's review of a book they received; one review per customer and book."""
    _require(state, "customers", customer_id, "customer")
    _require(state, "books", book_id, "book")
    if not isinstance(rating, int) or isinstance(rating, bool) or not 1 <= rating <= 5:
        raise ToolError("rating must be an integer from 1 to 5")
    received = any(
        o["customer_id"] == customer_id
        and o["status"] == "delivered"
        and any(line["book_id"] == book_id for line in o["items"])
        for o in state["orders"].values()
    )
    if not received:
        raise ToolError(f"customer {customer_id} has no delivered order containing book {book_id}")
    for review in state["reviews"].values():
        if review["customer_id"] == customer_id and review["book_id"] == book_id:
            raise ToolError(f"customer {customer_id} already reviewed book {book_id}")
    review_id = _next_id(state["reviews"], "REV-")
    state["reviews"][review_id] = {
        "review_id": review_id,
        "customer_id": customer_id,
        "book_id": book_id,
        "rating": rating,
        "text": text,
    }
    return copy.deepcopy(state["reviews"][review_id])
