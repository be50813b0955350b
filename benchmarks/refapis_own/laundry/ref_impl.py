"""Reference implementation of the Linenfold Laundry & Dry Cleaning order desk API (stdlib only)."""
import math
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"top_up_wallet", "create_order", "update_order", "advance_order", "book_delivery",
               "collect_order", "cancel_order", "file_claim"}

SPECS = {  # tool -> (required args, optional args)
    "list_customers": ((), ("q", "tier", "zone", "status")),
    "list_orders": ((), ("customer_id", "status", "express", "return_method", "overdue")),
    "get_order": (("order_id",), ()),
    "list_slots": ((), ("zone", "date", "window", "available")),
    "list_claims": ((), ("customer_id", "order_id", "status", "claim_type")),
    "top_up_wallet": (("customer_id", "amount"), ()),
    "create_order": (("customer_id", "items"), ("express", "prepay", "starch_level", "notes")),
    "update_order": (("order_id",), ("notes", "starch_level", "express")),
    "advance_order": (("order_id", "status"), ("rack",)),
    "book_delivery": (("order_id", "slot_id"), ()),
    "collect_order": (("order_id",), ("payment_method", "redeem_points")),
    "cancel_order": (("order_id", "reason"), ()),
    "file_claim": (("order_id", "service_id", "claim_type", "declared_value", "description"), ()),
}

TIERS, ZONES, CUSTOMER_STATUSES = ["regular", "gold"], ["north", "central", "south"], ["active", "suspended"]
ORDER_STATUSES = ["received", "cleaning", "ready", "collected", "cancelled"]
OPEN = ("received", "cleaning", "ready")
RETURN_METHODS, WINDOWS, PAY_METHODS = ["counter", "delivery"], ["morning", "evening"], ["wallet", "card", "cash"]
STARCH = ["none", "light", "medium", "heavy"]
CANCEL_REASONS = ["customer_request", "duplicate_ticket", "cannot_process"]
CLAIM_TYPES, CLAIM_STATUSES = ["lost", "damaged"], ["open", "approved", "rejected"]

CENT = Decimal("0.01")
MIN_KG, MAX_ITEMS, MAX_OPEN_ORDERS, EXPRESS_DAILY_CAP = Decimal("3"), 8, 4, 8
EXPRESS_RATE, GOLD_RATE = Decimal("0.50"), Decimal("0.10")
DELIVERY_FEE, FREE_DELIVERY_FROM = Decimal("5.00"), Decimal("50.00")
STORAGE_GRACE_DAYS, STORAGE_WEEK_FEE = 14, Decimal("2.00")
POINT_BLOCK, POINT_BLOCK_VALUE = 100, Decimal("5.00")
TOPUP_MIN, TOPUP_MAX = Decimal("10.00"), Decimal("500.00")
BONUS_FROM, BONUS_RATE, WALLET_CAP = Decimal("100.00"), Decimal("0.05"), Decimal("1000.00")
CLAIM_WINDOW = {"lost": 30, "damaged": 7}
CLAIM_FACTOR = {"lost": Decimal("10"), "damaged": Decimal("5")}
CLAIM_CAP, AUTO_APPROVE_UP_TO, MAX_DECLARED = Decimal("250.00"), Decimal("40.00"), Decimal("5000.00")
RACK_RE = re.compile(r"^[A-F](0[1-9]|[1-3][0-9]|40)$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# ---------------------------------------------------------------- helpers
def D(x):
    return Decimal(str(x))


def q2(x):
    return D(x).quantize(CENT, rounding=ROUND_HALF_UP)


def m(x):  # stored amount, two decimals
    return float(q2(x))


def _is(v, kind, what):
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise RefError("%s must be of type %s" % (what, kind.__name__))
    return v


def _str(v, what):
    return _is(v, str, what)


def _bool(v, what):
    return _is(v, bool, what)


def _int(v, what):
    return _is(v, int, what)


def _num(v, what):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
        raise RefError("%s must be a number" % what)
    return D(v)


def _amount(v, what, lo, hi):
    d = _num(v, what)
    if d < lo or d > hi:
        raise RefError("%s must be between %s and %s" % (what, lo, hi))
    if d != d.quantize(CENT):
        raise RefError("%s has more than two decimals" % what)
    return q2(d)


def _enum(v, allowed, what):
    if not isinstance(v, str) or v not in allowed:
        raise RefError("%s must be one of %s" % (what, allowed))
    return v


def _text(v, what, maxlen):
    _str(v, what)
    if not v.strip() or len(v) > maxlen:
        raise RefError("%s must be non-blank and at most %d characters" % (what, maxlen))
    return v


def _date(v, what):
    _str(v, what)
    if not DATE_RE.match(v):
        raise RefError("%s must be YYYY-MM-DD" % what)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % what)


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _get(db, coll, rid, what):
    _str(rid, what)
    rec = db[coll].get(rid)
    if rec is None:
        raise RefError("%s %s not found" % (what, rid))
    return rec


def _next_id(db, coll):
    keys = sorted(db[coll])
    last = keys[-1]
    prefix = last.rstrip("0123456789")
    width = len(last) - len(prefix)
    nums = [int(k[len(prefix):]) for k in keys if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return "%s%0*d" % (prefix, width, max(nums) + 1)


def ready_by(services, items, express, received):
    """Promised ready date: +1 day for express, else the slowest item's turnaround; Sunday -> Monday."""
    days = 1 if express else max(services[i["service_id"]]["turnaround_days"] for i in items)
    d = received + timedelta(days=days)
    if d.weekday() == 6:
        d += timedelta(days=1)
    return d


def price_line(svc, qty):
    if svc["unit"] == "kg":
        billed = max(D(qty), MIN_KG)
        qty_out, billed_out = float(qty), float(billed)
    else:
        billed = D(qty)
        qty_out = billed_out = int(qty)
    return {"service_id": svc["id"], "quantity": qty_out, "billed_quantity": billed_out,
            "unit_price": svc["unit_price"], "line_total": m(billed * D(svc["unit_price"]))}


def subtotal(o):
    return sum((D(i["line_total"]) for i in o["items"]), Decimal("0"))


def express_fee(sub, express):
    return q2(sub * EXPRESS_RATE) if express else Decimal("0.00")


def refresh_total(o):
    o["total"] = m(D(o["subtotal"]) - D(o["discount"]) + D(o["express_fee"]) + D(o["delivery_fee"])
                   + D(o["storage_fee"]))


def delivery_fee(customer, sub):
    return Decimal("0.00") if customer["tier"] == "gold" or sub >= FREE_DELIVERY_FROM else DELIVERY_FEE


def storage_fee(ready_on, on):
    days = (on - ready_on).days
    if days <= STORAGE_GRACE_DAYS:
        return Decimal("0.00")
    return STORAGE_WEEK_FEE * math.ceil((days - STORAGE_GRACE_DAYS) / 7)


def claim_eligible(claim_type, declared, line_total):
    return q2(min(declared, CLAIM_FACTOR[claim_type] * D(line_total), CLAIM_CAP))


def _express_count(db, day, exclude=None):
    return sum(1 for o in db["orders"].values() if o["express"] and o["received_on"] == day
               and o["status"] != "cancelled" and o["id"] != exclude)


def _check_express(db, items, day, exclude=None):
    if not all(db["services"][i["service_id"]]["express_allowed"] for i in items):
        raise RefError("an item's service has no express option")
    if _express_count(db, day, exclude) >= EXPRESS_DAILY_CAP:
        raise RefError("express capacity for %s is used up" % day)


def _release_slot(db, o):
    if o["delivery_slot_id"]:
        db["slots"][o["delivery_slot_id"]]["booked"] -= 1
        o["delivery_slot_id"] = None


# ---------------------------------------------------------------- reads
def _listing(db, coll, a, refs=(), enums=(), bools=()):
    res = sorted(db[coll].values(), key=lambda r: r["id"])
    for key, ref_coll in refs:
        if key in a:
            _get(db, ref_coll, a[key], key)
            res = [r for r in res if r[key] == a[key]]
    for key, allowed in enums:
        if key in a:
            v = _enum(a[key], allowed, key)
            res = [r for r in res if r[key] == v]
    for key in bools:
        if key in a:
            v = _bool(a[key], key)
            res = [r for r in res if r[key] == v]
    return res


def list_customers(db, a):
    res = _listing(db, "customers", a, enums=(("tier", TIERS), ("zone", ZONES), ("status", CUSTOMER_STATUSES)))
    if "q" in a:
        q = _str(a["q"], "q").lower()
        res = [c for c in res if q in c["name"].lower() or q in c["email"].lower() or q in c["phone"].lower()]
    return res


def list_orders(db, a):
    res = _listing(db, "orders", a, refs=(("customer_id", "customers"),),
                   enums=(("status", ORDER_STATUSES), ("return_method", RETURN_METHODS)), bools=("express",))
    if "overdue" in a:
        ov = _bool(a["overdue"], "overdue")
        today = db["meta"]["today"]
        res = [o for o in res if (o["status"] in ("received", "cleaning") and o["ready_by"] < today) == ov]
    return res


def get_order(db, a):
    return _get(db, "orders", a["order_id"], "order")


def list_slots(db, a):
    res = _listing(db, "slots", a, enums=(("zone", ZONES), ("window", WINDOWS)))
    if "date" in a:
        day = _date(a["date"], "date").isoformat()
        res = [s for s in res if s["date"] == day]
    if "available" in a:
        av = _bool(a["available"], "available")
        today = db["meta"]["today"]
        res = [s for s in res if (s["date"] >= today and s["booked"] < s["capacity"]) == av]
    return res


def list_claims(db, a):
    return _listing(db, "claims", a, refs=(("customer_id", "customers"), ("order_id", "orders")),
                    enums=(("status", CLAIM_STATUSES), ("claim_type", CLAIM_TYPES)))


# ---------------------------------------------------------------- writes
def top_up_wallet(db, a):
    c = _get(db, "customers", a["customer_id"], "customer")
    if c["status"] != "active":
        raise RefError("customer %s is suspended" % c["id"])
    amount = _amount(a["amount"], "amount", TOPUP_MIN, TOPUP_MAX)
    bonus = q2(amount * BONUS_RATE) if amount >= BONUS_FROM else Decimal("0.00")
    new = D(c["wallet_balance"]) + amount + bonus
    if new > WALLET_CAP:
        raise RefError("wallet balance may not exceed %s" % WALLET_CAP)
    c["wallet_balance"] = m(new)
    return c


def _items(db, raw):
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_ITEMS:
        raise RefError("items must be a list of 1 to %d entries" % MAX_ITEMS)
    out, seen = [], set()
    for it in raw:
        if not isinstance(it, dict) or set(it) != {"service_id", "quantity"}:
            raise RefError("each item needs exactly service_id and quantity")
        svc = _get(db, "services", it["service_id"], "service")
        if not svc["active"]:
            raise RefError("service %s is no longer offered" % svc["id"])
        if svc["id"] in seen:
            raise RefError("service %s listed twice" % svc["id"])
        seen.add(svc["id"])
        qty = it["quantity"]
        if svc["unit"] == "kg":
            d = _num(qty, "quantity")
            if d <= 0 or d > 25 or d != d.quantize(Decimal("0.1")):
                raise RefError("weight must be above 0 and at most 25 kg, one decimal")
        else:
            _int(qty, "quantity")
            if not 1 <= qty <= 60:
                raise RefError("piece count must be 1 to 60")
        out.append(price_line(svc, qty))
    return out


def create_order(db, a):
    c = _get(db, "customers", a["customer_id"], "customer")
    if c["status"] != "active":
        raise RefError("customer %s is suspended" % c["id"])
    if sum(1 for o in db["orders"].values() if o["customer_id"] == c["id"] and o["status"] in OPEN) >= MAX_OPEN_ORDERS:
        raise RefError("customer already has %d open orders" % MAX_OPEN_ORDERS)
    items = _items(db, a["items"])
    express = _bool(a.get("express", False), "express")
    prepay = _bool(a.get("prepay", False), "prepay")
    starch = _enum(a.get("starch_level", "none"), STARCH, "starch_level")
    notes = a.get("notes")
    if notes is not None:
        _text(notes, "notes", 300)
    today = _today(db)
    if express:
        _check_express(db, items, today.isoformat())
    sub = subtotal({"items": items})
    o = {"id": _next_id(db, "orders"), "customer_id": c["id"], "status": "received", "items": items,
         "express": express, "starch_level": starch, "notes": notes, "subtotal": m(sub),
         "discount": m(sub * GOLD_RATE) if c["tier"] == "gold" else 0.0,
         "express_fee": m(express_fee(sub, express)), "delivery_fee": 0.0, "storage_fee": 0.0,
         "total": 0.0, "amount_paid": 0.0, "payment_status": "unpaid", "payment_method": None,
         "points_redeemed": 0, "points_earned": 0, "return_method": "counter", "delivery_slot_id": None,
         "rack": None, "received_on": today.isoformat(),
         "ready_by": ready_by(db["services"], items, express, today).isoformat(),
         "cleaning_started_on": None, "ready_on": None, "collected_on": None, "cancelled_on": None,
         "cancel_reason": None, "refund_amount": None}
    refresh_total(o)
    if prepay:
        if D(c["wallet_balance"]) < D(o["total"]):
            raise RefError("wallet balance does not cover the order total")
        c["wallet_balance"] = m(D(c["wallet_balance"]) - D(o["total"]))
        o.update(amount_paid=o["total"], payment_status="prepaid", payment_method="wallet")
    c["order_count"] += 1
    db["orders"][o["id"]] = o
    return o


def update_order(db, a):
    o = _get(db, "orders", a["order_id"], "order")
    if len(a) < 2:
        raise RefError("nothing to update")
    if o["status"] not in ("received", "cleaning"):
        raise RefError("order %s can no longer be edited" % o["id"])
    new = {}
    if "notes" in a:
        new["notes"] = None if a["notes"] is None else _text(a["notes"], "notes", 300)
    if "starch_level" in a:
        new["starch_level"] = _enum(a["starch_level"], STARCH, "starch_level")
    if "express" in a:
        exp = _bool(a["express"], "express")
        if o["status"] != "received":
            raise RefError("express can only be changed before cleaning starts")
        if o["payment_status"] == "prepaid":
            raise RefError("express cannot be changed on a prepaid order")
        if exp and not o["express"]:
            _check_express(db, o["items"], o["received_on"], o["id"])
        rb = ready_by(db["services"], o["items"], exp, date.fromisoformat(o["received_on"])).isoformat()
        if o["delivery_slot_id"] and db["slots"][o["delivery_slot_id"]]["date"] < rb:
            raise RefError("the booked delivery slot would fall before the new ready date")
        new.update(express=exp, ready_by=rb, express_fee=m(express_fee(D(o["subtotal"]), exp)))
    o.update(new)
    refresh_total(o)
    return o


def advance_order(db, a):
    o = _get(db, "orders", a["order_id"], "order")
    target = _enum(a["status"], ["cleaning", "ready"], "status")
    today = db["meta"]["today"]
    if target == "cleaning":
        if "rack" in a:
            raise RefError("rack is only given when an order becomes ready")
        if o["status"] != "received":
            raise RefError("only a received order can go into cleaning")
        o["status"], o["cleaning_started_on"] = "cleaning", today
        return o
    if "rack" not in a:
        raise RefError("a rack position is required")
    rack = _str(a["rack"], "rack")
    if not RACK_RE.match(rack):
        raise RefError("bad rack position")
    if o["status"] != "cleaning":
        raise RefError("only an order in cleaning can become ready")
    if any(x["rack"] == rack and x["status"] == "ready" for x in db["orders"].values()):
        raise RefError("rack %s is occupied" % rack)
    o.update(status="ready", ready_on=today, rack=rack)
    return o


def book_delivery(db, a):
    o = _get(db, "orders", a["order_id"], "order")
    s = _get(db, "slots", a["slot_id"], "slot")
    if o["status"] not in OPEN:
        raise RefError("order %s is %s" % (o["id"], o["status"]))
    c = db["customers"][o["customer_id"]]
    if c["zone"] is None or c["zone"] != s["zone"]:
        raise RefError("slot zone does not match the customer's delivery zone")
    if s["date"] < db["meta"]["today"]:
        raise RefError("slot is in the past")
    if o["status"] != "ready" and s["date"] < o["ready_by"]:
        raise RefError("slot is before the order's ready date")
    if o["delivery_slot_id"] == s["id"]:
        raise RefError("order is already booked on this slot")
    if s["booked"] >= s["capacity"]:
        raise RefError("slot is full")
    _release_slot(db, o)
    s["booked"] += 1
    o.update(delivery_slot_id=s["id"], return_method="delivery",
             delivery_fee=m(delivery_fee(c, D(o["subtotal"]))))
    refresh_total(o)
    return o


def collect_order(db, a):
    o = _get(db, "orders", a["order_id"], "order")
    if o["status"] != "ready":
        raise RefError("order %s is not ready" % o["id"])
    today = _today(db)
    if o["return_method"] == "delivery" and db["slots"][o["delivery_slot_id"]]["date"] > today.isoformat():
        raise RefError("a delivery order is handed over on its slot date")
    method = a.get("payment_method")
    if method is not None:
        _enum(method, PAY_METHODS, "payment_method")
    pts = _int(a.get("redeem_points", 0), "redeem_points")
    c = db["customers"][o["customer_id"]]
    fee = storage_fee(date.fromisoformat(o["ready_on"]), today)
    total = D(o["subtotal"]) - D(o["discount"]) + D(o["express_fee"]) + D(o["delivery_fee"]) + fee
    due = total - D(o["amount_paid"])
    if pts < 0 or pts % POINT_BLOCK or pts > c["loyalty_points"]:
        raise RefError("points are redeemed in blocks of %d from the customer's balance" % POINT_BLOCK)
    value = POINT_BLOCK_VALUE * (pts // POINT_BLOCK)
    if value > due:
        raise RefError("points would exceed the amount due")
    charge = due - value
    if charge > 0:
        if method is None:
            raise RefError("payment_method is required")
        if method == "wallet" and D(c["wallet_balance"]) < charge:
            raise RefError("wallet balance is too low")
    paid = D(o["amount_paid"]) + charge
    earned = int(paid // 1)
    o.update(storage_fee=m(fee), total=m(total), points_redeemed=pts, amount_paid=m(paid),
             payment_status="paid", points_earned=earned, status="collected",
             collected_on=today.isoformat(), rack=None)
    if charge > 0:
        o["payment_method"] = method
        if method == "wallet":
            c["wallet_balance"] = m(D(c["wallet_balance"]) - charge)
    c["loyalty_points"] += earned - pts
    c["total_spent"] = m(D(c["total_spent"]) + paid)
    return o


def cancel_order(db, a):
    o = _get(db, "orders", a["order_id"], "order")
    reason = _enum(a["reason"], CANCEL_REASONS, "reason")
    allowed = ("received", "cleaning") if reason == "cannot_process" else ("received",)
    if o["status"] not in allowed:
        raise RefError("order %s cannot be cancelled for %s while %s" % (o["id"], reason, o["status"]))
    refund = D(o["amount_paid"])
    if refund > 0:
        c = db["customers"][o["customer_id"]]
        c["wallet_balance"] = m(D(c["wallet_balance"]) + refund)
        o["payment_status"] = "refunded"
    _release_slot(db, o)
    o.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason,
             refund_amount=m(refund))
    return o


def file_claim(db, a):
    o = _get(db, "orders", a["order_id"], "order")
    kind = _enum(a["claim_type"], CLAIM_TYPES, "claim_type")
    sid = _str(a["service_id"], "service_id")
    declared = _amount(a["declared_value"], "declared_value", CENT, MAX_DECLARED)
    desc = _text(a["description"], "description", 500)
    if o["status"] != "collected":
        raise RefError("claims are only taken on collected orders")
    line = next((i for i in o["items"] if i["service_id"] == sid), None)
    if line is None:
        raise RefError("service %s is not on order %s" % (sid, o["id"]))
    today = _today(db)
    if (today - date.fromisoformat(o["collected_on"])).days > CLAIM_WINDOW[kind]:
        raise RefError("the %s claim window has passed" % kind)
    if any(cl["order_id"] == o["id"] for cl in db["claims"].values()):
        raise RefError("order %s already has a claim" % o["id"])
    elig = claim_eligible(kind, declared, line["line_total"])
    cl = {"id": _next_id(db, "claims"), "order_id": o["id"], "customer_id": o["customer_id"],
          "service_id": sid, "claim_type": kind, "declared_value": m(declared),
          "eligible_amount": m(elig), "description": desc, "status": "open", "payout": None,
          "filed_on": today.isoformat(), "resolved_on": None, "resolution_note": None}
    if elig <= AUTO_APPROVE_UP_TO:
        c = db["customers"][o["customer_id"]]
        c["wallet_balance"] = m(D(c["wallet_balance"]) + elig)
        cl.update(status="approved", payout=m(elig), resolved_on=today.isoformat())
    db["claims"][cl["id"]] = cl
    return cl


def invoke(db, name, args):
    if not isinstance(name, str) or name not in SPECS:
        raise RefError("unknown tool %r" % (name,))
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    req, opt = SPECS[name]
    for k in args:
        if k not in req and k not in opt:
            raise RefError("unknown argument %r" % k)
    for k in req:
        if k not in args:
            raise RefError("missing argument %r" % k)
    return globals()[name](db, dict(args))
