"""Reference implementation: Crumb & Hearth custom-order and preorder desk."""
import copy
import datetime as dt
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"create_order", "pay_deposit", "amend_order", "cancel_order", "mark_ready",
               "record_pickup", "record_no_show", "issue_store_credit"}

NUM = (int, float)
# tool -> (required args, optional args)
ARGS = {
    "list_products": ({}, {"category": str, "allergen_free": str, "search": str}),
    "get_customer": ({"customer_id": str}, {}),
    "list_oven_days": ({}, {"from_date": str, "to_date": str, "min_free_slots": int}),
    "list_orders": ({}, {"customer_id": str, "status": str, "pickup_from": str, "pickup_to": str}),
    "get_order": ({"order_id": str}, {}),
    "create_order": ({"customer_id": str, "pickup_date": str, "items": list}, {"inscription": str}),
    "pay_deposit": ({"order_id": str, "method": str}, {}),
    "amend_order": ({"order_id": str}, {"items": list, "pickup_date": str, "inscription": str}),
    "cancel_order": ({"order_id": str, "reason": str}, {}),
    "mark_ready": ({"order_id": str}, {}),
    "record_pickup": ({"order_id": str, "payment_method": str}, {}),
    "record_no_show": ({"order_id": str}, {}),
    "issue_store_credit": ({"customer_id": str, "amount": NUM, "reason": str}, {}),
}

CATEGORIES = ("celebration_cake", "bread", "pastry")
ALLERGENS = ("gluten", "dairy", "eggs", "nuts", "soy", "sesame")
STATUSES = ("pending_deposit", "confirmed", "ready", "picked_up", "cancelled", "no_show")
OPEN = ("pending_deposit", "confirmed", "ready")
TIER_RATE = {"standard": "0.00", "silver": "0.05", "gold": "0.10"}
CANCEL_REASONS = ("customer_request", "schedule_change", "allergy_concern", "other")
CREDIT_REASONS = ("goodwill", "quality_issue", "price_adjustment")
MAX_LINES, MAX_OPEN_ORDERS, BOOKING_WINDOW_DAYS, AMEND_CUTOFF_DAYS, MAX_AMENDMENTS = 5, 3, 30, 2, 3
NO_DEPOSIT_BELOW, MAX_CREDIT_GRANT, MAX_CREDIT_BALANCE = Decimal("20.00"), Decimal("100.00"), Decimal("300.00")
NULL_FIELDS = ("deposit_method", "ready_on", "picked_up_on", "pickup_payment_method", "amount_paid_at_pickup",
               "cancelled_on", "cancel_reason", "cancellation_fee", "refund_amount", "no_show_on", "forfeited_amount")
SILVER_AT, GOLD_AT = Decimal("300.00"), Decimal("1000.00")


D = lambda x: Decimal(str(x))  # noqa: E731
def money(x):
    return float(D(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def today(db):  # "today" is always the data's meta.today
    return dt.date.fromisoformat(db["meta"]["today"])


pdate = lambda o: dt.date.fromisoformat(o["pickup_date"])  # noqa: E731


def parse_date(s, field):
    try:
        if len(s) != 10:
            raise ValueError
        return dt.date.fromisoformat(s)
    except (ValueError, TypeError):
        raise RefError("%s must be a date YYYY-MM-DD" % field)


def check_args(name, args):
    if name not in ARGS:
        raise RefError("unknown tool %s" % name)
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    req, opt = ARGS[name]
    clean = {}
    for k, v in args.items():
        if k not in req and k not in opt:
            raise RefError("unknown argument %s" % k)
        if v is None and k in opt:
            continue
        t = req.get(k) or opt.get(k)
        if isinstance(v, bool) or not isinstance(v, t):
            raise RefError("argument %s has the wrong type" % k)
        clean[k] = v
    for k in req:
        if k not in clean:
            raise RefError("missing argument %s" % k)
    return clean


def get(db, coll, key, label):
    rec = db[coll].get(key)
    if rec is None:
        raise RefError("%s %s not found" % (label, key))
    return rec


def build_lines(db, items, cust):
    if not 1 <= len(items) <= MAX_LINES:
        raise RefError("an order has 1 to %d lines" % MAX_LINES)
    lines, seen = [], set()
    for it in items:
        if not isinstance(it, dict) or set(it) != {"product_id", "quantity"}:
            raise RefError("each line needs exactly product_id and quantity")
        pid, qty = it["product_id"], it["quantity"]
        if not isinstance(pid, str) or isinstance(qty, bool) or not isinstance(qty, int):
            raise RefError("bad line")
        if pid in seen:
            raise RefError("product %s appears twice" % pid)
        seen.add(pid)
        p = get(db, "products", pid, "product")
        if not p["active"]:
            raise RefError("product %s is no longer offered" % pid)
        if not 1 <= qty <= p["max_quantity"]:
            raise RefError("quantity for %s must be 1 to %d" % (pid, p["max_quantity"]))
        clash = set(p["allergens"]) & set(cust["allergies"])
        if clash:
            raise RefError("product %s contains %s, which the customer is allergic to" % (pid, sorted(clash)))
        lines.append({"product_id": pid, "quantity": qty, "unit_price": p["unit_price"],
                      "line_total": money(D(p["unit_price"]) * qty)})
    return lines


def has_cake(db, lines):
    return any(db["products"][l["product_id"]]["category"] == "celebration_cake" for l in lines)


def slots_of(db, lines):
    return sum(db["products"][l["product_id"]]["oven_slots"] * l["quantity"] for l in lines)


def check_pickup_date(db, d, lines):
    t = today(db)
    oday = db["oven_days"].get(d.isoformat())
    if d <= t or (d - t).days > BOOKING_WINDOW_DAYS or oday is None:
        raise RefError("pickup date must be within the next %d days" % BOOKING_WINDOW_DAYS)
    if oday["closed"]:
        raise RefError("the bakery is closed on %s" % d)
    lead = max(db["products"][l["product_id"]]["lead_time_days"] for l in lines)
    if (d - t).days < lead:
        raise RefError("pickup date is inside the %d-day lead time" % lead)
    return oday


def check_inscription(db, text, lines):
    if len(text) > 40:
        raise RefError("inscription is limited to 40 characters")
    if not has_cake(db, lines):
        raise RefError("an inscription needs a celebration cake in the order")


def price(db, order):
    sub = sum(D(l["line_total"]) for l in order["items"])
    order["subtotal"] = money(sub)
    order["discount_amount"] = money(D(order["subtotal"]) * D(order["discount_rate"]))
    order["total"] = money(D(order["subtotal"]) - D(order["discount_amount"]))
    rate = Decimal("0.50") if has_cake(db, order["items"]) else Decimal("0.20")
    order["deposit_required"] = 0.0 if D(order["total"]) < NO_DEPOSIT_BELOW else money(D(order["total"]) * rate)


def open_on(db, cid, d, exclude=None):
    return [o for o in db["orders"].values() if o["customer_id"] == cid and o["status"] in OPEN
            and o["pickup_date"] == d and o["order_id"] != exclude]


def next_id(db, coll, prefix, width):
    n = max([int(k[len(prefix):]) for k in db[coll] if k.startswith(prefix)] + [0]) + 1
    return "%s%0*d" % (prefix, width, n)


def order_for(db, args, statuses, what):
    o = get(db, "orders", args["order_id"], "order")
    if o["status"] not in statuses:
        raise RefError("order %s is %s; cannot %s" % (o["order_id"], o["status"], what))
    return o


# ---------------------------------------------------------------- reads
def list_products(db, a):
    for k, allowed in (("category", CATEGORIES), ("allergen_free", ALLERGENS)):
        if k in a and a[k] not in allowed:
            raise RefError("unknown %s" % k)
    return [p for p in sorted(db["products"].values(), key=lambda p: p["product_id"])
            if a.get("category", p["category"]) == p["category"]
            and ("allergen_free" not in a or a["allergen_free"] not in p["allergens"])
            and a.get("search", "").lower() in p["name"].lower()]


def list_oven_days(db, a):
    lo = parse_date(a["from_date"], "from_date") if "from_date" in a else None
    hi = parse_date(a["to_date"], "to_date") if "to_date" in a else None
    if lo and hi and lo > hi:
        raise RefError("from_date is after to_date")
    if a.get("min_free_slots", 0) < 0:
        raise RefError("min_free_slots cannot be negative")
    out = []
    for k in sorted(db["oven_days"]):
        od = db["oven_days"][k]
        d = dt.date.fromisoformat(k)
        if (lo and d < lo) or (hi and d > hi):
            continue
        if "min_free_slots" in a and (od["closed"] or od["capacity"] - od["booked_slots"] < a["min_free_slots"]):
            continue
        out.append(od)
    return out


def list_orders(db, a):
    if "customer_id" in a:
        get(db, "customers", a["customer_id"], "customer")
    if "status" in a and a["status"] not in STATUSES:
        raise RefError("unknown status")
    lo = parse_date(a["pickup_from"], "pickup_from") if "pickup_from" in a else None
    hi = parse_date(a["pickup_to"], "pickup_to") if "pickup_to" in a else None
    if lo and hi and lo > hi:
        raise RefError("pickup_from is after pickup_to")
    out = []
    for k in sorted(db["orders"]):
        o = db["orders"][k]
        d = pdate(o)
        if ("customer_id" in a and o["customer_id"] != a["customer_id"]) or \
                ("status" in a and o["status"] != a["status"]) or (lo and d < lo) or (hi and d > hi):
            continue
        out.append(o)
    return out


# ---------------------------------------------------------------- writes
def create_order(db, a):
    cust = get(db, "customers", a["customer_id"], "customer")
    if cust["status"] != "active":
        raise RefError("customer account is suspended")
    d = parse_date(a["pickup_date"], "pickup_date")
    lines = build_lines(db, a["items"], cust)
    oday = check_pickup_date(db, d, lines)
    if open_on(db, cust["customer_id"], d.isoformat()):
        raise RefError("customer already has an open order for that pickup date")
    if sum(1 for o in db["orders"].values() if o["customer_id"] == cust["customer_id"]
           and o["status"] in OPEN) >= MAX_OPEN_ORDERS:
        raise RefError("customer already has %d open orders" % MAX_OPEN_ORDERS)
    inscription = a.get("inscription") or None
    if inscription is not None:
        check_inscription(db, inscription, lines)
    slots = slots_of(db, lines)
    if oday["booked_slots"] + slots > oday["capacity"]:
        raise RefError("not enough oven capacity on %s" % d)
    oid = next_id(db, "orders", "O", 4)
    o = dict.fromkeys(NULL_FIELDS)
    o.update({"order_id": oid, "customer_id": cust["customer_id"], "status": "confirmed",
              "placed_on": today(db).isoformat(), "pickup_date": d.isoformat(), "items": lines,
              "inscription": inscription, "oven_slots": slots, "deposit_paid": 0.0, "amendment_count": 0,
              "discount_rate": float(TIER_RATE[cust["loyalty_tier"]])})
    price(db, o)
    o["balance_due"] = o["total"]
    if o["deposit_required"] > 0:
        o["status"] = "pending_deposit"
    oday["booked_slots"] += slots
    db["orders"][oid] = o
    return o


def pay_deposit(db, a):
    o = order_for(db, a, ("pending_deposit",), "take a deposit")
    if a["method"] not in ("card", "store_credit"):
        raise RefError("deposit method must be card or store_credit")
    if pdate(o) < today(db):
        raise RefError("pickup date has passed")
    amount = D(o["deposit_required"]) - D(o["deposit_paid"])
    cust = db["customers"][o["customer_id"]]
    if a["method"] == "store_credit":
        if D(cust["store_credit"]) < amount:
            raise RefError("not enough store credit")
        cust["store_credit"] = money(D(cust["store_credit"]) - amount)
    o["deposit_paid"] = o["deposit_required"]
    o["deposit_method"] = a["method"]
    o["balance_due"] = money(D(o["total"]) - D(o["deposit_paid"]))
    o["status"] = "confirmed"
    return o


def amend_order(db, a):
    o = order_for(db, a, ("pending_deposit", "confirmed"), "amend")
    if not any(k in a for k in ("items", "pickup_date", "inscription")):
        raise RefError("nothing to change")
    t = today(db)
    cur = pdate(o)
    if (cur - t).days < AMEND_CUTOFF_DAYS:
        raise RefError("amendments close %d days before pickup" % AMEND_CUTOFF_DAYS)
    if o["amendment_count"] >= MAX_AMENDMENTS:
        raise RefError("an order can be amended at most %d times" % MAX_AMENDMENTS)
    cust = db["customers"][o["customer_id"]]
    lines = build_lines(db, a["items"], cust) if "items" in a else copy.deepcopy(o["items"])
    new = parse_date(a["pickup_date"], "pickup_date") if "pickup_date" in a else cur
    oday = db["oven_days"][o["pickup_date"]]
    if (new - t).days < AMEND_CUTOFF_DAYS:
        raise RefError("the new pickup date must also be at least %d days away" % AMEND_CUTOFF_DAYS)
    if "items" in a or "pickup_date" in a:
        oday = check_pickup_date(db, new, lines)
    if new != cur and open_on(db, o["customer_id"], new.isoformat(), exclude=o["order_id"]):
        raise RefError("customer already has an open order for that pickup date")
    inscription = o["inscription"]
    if "inscription" in a:
        inscription = a["inscription"] or None
        if inscription is not None:
            check_inscription(db, inscription, lines)
    elif not has_cake(db, lines):
        inscription = None
    slots = slots_of(db, lines)
    already = o["oven_slots"] if new == cur else 0
    if oday["booked_slots"] - already + slots > oday["capacity"]:
        raise RefError("not enough oven capacity on %s" % new)
    db["oven_days"][o["pickup_date"]]["booked_slots"] -= o["oven_slots"]
    oday["booked_slots"] += slots
    o.update({"items": lines, "pickup_date": new.isoformat(), "inscription": inscription, "oven_slots": slots})
    price(db, o)
    if D(o["deposit_paid"]) > D(o["total"]):
        cust["store_credit"] = money(D(cust["store_credit"]) + D(o["deposit_paid"]) - D(o["total"]))
        o["deposit_paid"] = o["total"]
    o["balance_due"] = money(D(o["total"]) - D(o["deposit_paid"]))
    o["status"] = "confirmed" if D(o["deposit_paid"]) >= D(o["deposit_required"]) else "pending_deposit"
    o["amendment_count"] += 1
    return o


def cancel_order(db, a):
    o = order_for(db, a, ("pending_deposit", "confirmed"), "cancel")
    if a["reason"] not in CANCEL_REASONS:
        raise RefError("unknown cancellation reason")
    days = (pdate(o) - today(db)).days
    if days < 0:
        raise RefError("pickup date has passed; record a no-show instead")
    pct = Decimal("0") if days >= 7 else Decimal("0.25") if days >= 2 else Decimal("0.50")
    fee = min(D(money(D(o["total"]) * pct)), D(o["deposit_paid"]))
    refund = D(o["deposit_paid"]) - fee
    cust = db["customers"][o["customer_id"]]
    cust["store_credit"] = money(D(cust["store_credit"]) + refund)
    db["oven_days"][o["pickup_date"]]["booked_slots"] -= o["oven_slots"]
    o.update({"status": "cancelled", "cancelled_on": today(db).isoformat(), "cancel_reason": a["reason"],
              "cancellation_fee": money(fee), "refund_amount": money(refund), "balance_due": 0.0})
    return o


def mark_ready(db, a):
    o = order_for(db, a, ("confirmed",), "mark ready")
    days = (pdate(o) - today(db)).days
    if days not in (0, 1):
        raise RefError("orders are marked ready on the pickup date or the day before")
    o["status"] = "ready"
    o["ready_on"] = today(db).isoformat()
    return o


def record_pickup(db, a):
    o = order_for(db, a, ("ready",), "hand over")
    if a["payment_method"] not in ("card", "cash", "store_credit"):
        raise RefError("unknown payment method")
    late = (today(db) - pdate(o)).days
    if late not in (0, 1):
        raise RefError("pickup is possible on the pickup date and the day after only")
    cust = db["customers"][o["customer_id"]]
    due = D(o["balance_due"])
    if a["payment_method"] == "store_credit":
        if D(cust["store_credit"]) < due:
            raise RefError("not enough store credit")
        cust["store_credit"] = money(D(cust["store_credit"]) - due)
    o.update({"status": "picked_up", "picked_up_on": today(db).isoformat(), "amount_paid_at_pickup": money(due),
              "pickup_payment_method": a["payment_method"], "balance_due": 0.0})
    cust["lifetime_spend"] = money(D(cust["lifetime_spend"]) + D(o["total"]))
    spend = D(cust["lifetime_spend"])
    if spend >= GOLD_AT:
        cust["loyalty_tier"] = "gold"
    elif spend >= SILVER_AT and cust["loyalty_tier"] == "standard":
        cust["loyalty_tier"] = "silver"
    return o


def record_no_show(db, a):
    o = order_for(db, a, ("confirmed", "ready"), "record a no-show")
    if (today(db) - pdate(o)).days < 2:
        raise RefError("a no-show can be recorded only once the pickup window has closed")
    o.update({"status": "no_show", "no_show_on": today(db).isoformat(),
              "forfeited_amount": o["deposit_paid"], "balance_due": 0.0})
    cust = db["customers"][o["customer_id"]]
    cust["no_show_count"] += 1
    if cust["no_show_count"] >= 2:
        cust["status"] = "suspended"
    return o


def issue_store_credit(db, a):
    cust = get(db, "customers", a["customer_id"], "customer")
    if a["reason"] not in CREDIT_REASONS:
        raise RefError("unknown reason")
    amt = D(a["amount"])
    if amt <= 0 or amt > MAX_CREDIT_GRANT or amt != amt.quantize(Decimal("0.01")):
        raise RefError("amount must be 0.01 to 100.00 with at most two decimals")
    if D(cust["store_credit"]) + amt > MAX_CREDIT_BALANCE:
        raise RefError("store credit balance would exceed 300.00")
    cust["store_credit"] = money(D(cust["store_credit"]) + amt)
    return cust


TOOLS = {f.__name__: f for f in (list_products, list_oven_days, list_orders, create_order, pay_deposit,
                                 amend_order, cancel_order, mark_ready, record_pickup, record_no_show,
                                 issue_store_credit)}
TOOLS["get_customer"] = lambda db, a: get(db, "customers", a["customer_id"], "customer")
TOOLS["get_order"] = lambda db, a: get(db, "orders", a["order_id"], "order")


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool %s" % name)
    a = check_args(name, args or {})
    return copy.deepcopy(TOOLS[name](db, a))
