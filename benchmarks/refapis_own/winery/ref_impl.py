"""Reference implementation of the Alder Creek Vineyards member API (stdlib only)."""
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"set_membership_status", "change_tier", "create_order", "fulfill_order",
               "complete_order", "cancel_order", "book_tasting", "cancel_reservation", "restock_wine"}

TIERS = ("classic", "reserve", "collector")
RANK = {t: i for i, t in enumerate(TIERS)}
TIER_RATE = {"classic": Decimal("0.10"), "reserve": Decimal("0.15"), "collector": Decimal("0.20")}
TIER_BOTTLES = {"classic": 0, "reserve": 12, "collector": 36}
SHIP_TAX = {"CA": "0.0725", "OR": "0", "WA": "0.065", "NV": "0.0685", "AZ": "0.056", "CO": "0.029",
            "NY": "0.04", "TX": "0.0625", "IL": "0.0625", "FL": "0.06", "MA": "0.0625", "VA": "0.053"}
PICKUP_TAX = Decimal("0.0725")
HEAT_STATES = ("AZ", "NV", "TX", "FL")
COLORS = ("red", "white", "rose", "sparkling", "dessert")
ORDER_STATUSES = ("placed", "shipped", "delivered", "ready_for_pickup", "picked_up", "cancelled")
FULFILLMENTS = ("ship", "pickup")
CANCEL_REASONS = ("member_request", "payment_declined", "shipping_restriction", "other")
OPEN_ORDER = ("placed", "shipped", "ready_for_pickup")
CENT = Decimal("0.01")


def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def dec(x):
    return Decimal(str(x))


def num(x):
    return float(q2(x))


# ---------------------------------------------------------------- argument helpers
def _req(a, k):
    if a.get(k) is None:
        raise RefError(f"missing argument {k}")
    return a[k]


def _str(a, k, required=True):
    v = _req(a, k) if required else a.get(k)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{k} must be a non-empty string")
    return v


def _enum(a, k, values, required=True):
    v = _req(a, k) if required else a.get(k)
    if v is not None and v not in values:
        raise RefError(f"{k} must be one of {values}")
    return v


def _int(a, k, lo, hi, required=True):
    v = _req(a, k) if required else a.get(k)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RefError(f"{k} must be a whole number from {lo} to {hi}")
    return v


def _bool(a, k, default):
    v = a.get(k)
    if v is None:
        return default
    if not isinstance(v, bool):
        raise RefError(f"{k} must be true or false")
    return v


def _date(a, k):
    v = a.get(k)
    if v is None:
        return None
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError(f"{k} must be a date YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{k} is not a valid date")


def _get(db, coll, key, a):
    v = _req(a, key)
    if not isinstance(v, str) or v not in db[coll]:
        raise RefError(f"unknown {key}")
    return db[coll][v]


def _today(db):
    return _dt.date.fromisoformat(db["meta"]["today"])


def _next_id(coll):
    ids = sorted(coll)
    m = re.fullmatch(r"([A-Z]+)(\d+)", ids[-1])
    prefix, width = m.group(1), len(m.group(2))
    return f"{prefix}{max(int(i[len(prefix):]) for i in ids) + 1:0{width}d}"


# ---------------------------------------------------------------- members
def get_member(db, a):
    return _get(db, "members", "member_id", a)


def set_membership_status(db, a):
    m = _get(db, "members", "member_id", a)
    action = _enum(a, "action", ("pause", "resume", "cancel"))
    if action == "pause":
        if m["status"] != "active":
            raise RefError("only active memberships can be paused")
        m["status"] = "paused"
    elif action == "resume":
        if m["status"] != "paused":
            raise RefError("only paused memberships can be resumed")
        m["status"] = "active"
    else:
        if m["status"] == "cancelled":
            raise RefError("membership already cancelled")
        if any(o["member_id"] == m["member_id"] and o["status"] in OPEN_ORDER for o in db["orders"].values()):
            raise RefError("member has open orders")
        if any(r["member_id"] == m["member_id"] and r["status"] == "confirmed"
               for r in db["reservations"].values()):
            raise RefError("member has confirmed tasting reservations")
        m["status"] = "cancelled"
        m["credit_balance"] = 0.0
    m["status_changed_on"] = db["meta"]["today"]
    return m


def change_tier(db, a):
    m = _get(db, "members", "member_id", a)
    tier = _enum(a, "tier", TIERS)
    if m["status"] != "active":
        raise RefError("only active members can change tier")
    if tier == m["tier"]:
        raise RefError("member is already on that tier")
    if m["tier_changed_on"] is not None and \
            (_today(db) - _dt.date.fromisoformat(m["tier_changed_on"])).days < 90:
        raise RefError("one tier change per 90 days")
    if RANK[tier] > RANK[m["tier"]] and m["bottles_purchased"] < TIER_BOTTLES[tier]:
        raise RefError("not enough lifetime bottles for that tier")
    m["tier"] = tier
    m["tier_changed_on"] = db["meta"]["today"]
    return m


# ---------------------------------------------------------------- wines
def list_wines(db, a):
    color = _enum(a, "color", COLORS, False)
    search = _str(a, "search", False)
    mp = a.get("max_price")
    if mp is not None and (isinstance(mp, bool) or not isinstance(mp, (int, float)) or mp < 0):
        raise RefError("max_price must be a number of at least 0")
    avail = _bool(a, "available_only", False)
    out = []
    for k in sorted(db["wines"]):
        w = db["wines"][k]
        if color and w["color"] != color:
            continue
        if search and search.lower() not in w["name"].lower() and search.lower() not in w["varietal"].lower():
            continue
        if mp is not None and dec(w["price"]) > dec(mp):
            continue
        if avail and w["status"] != "available":
            continue
        out.append(w)
    return out


def restock_wine(db, a):
    w = _get(db, "wines", "wine_id", a)
    qty = _int(a, "quantity", 1, 500)
    if w["status"] == "retired":
        raise RefError("retired wines cannot be restocked")
    w["stock"] += qty
    w["status"] = "available"
    w["last_restocked_on"] = db["meta"]["today"]
    return w


# ---------------------------------------------------------------- orders
def get_order(db, a):
    return _get(db, "orders", "order_id", a)


def list_orders(db, a):
    mid = _get(db, "members", "member_id", a)["member_id"] if a.get("member_id") is not None else None
    st = _enum(a, "status", ORDER_STATUSES, False)
    ff = _enum(a, "fulfillment", FULFILLMENTS, False)
    return [o for k, o in sorted(db["orders"].items())
            if (mid is None or o["member_id"] == mid) and (st is None or o["status"] == st)
            and (ff is None or o["fulfillment"] == ff)]


def create_order(db, a):
    m = _get(db, "members", "member_id", a)
    items = _req(a, "items")
    ff = _enum(a, "fulfillment", FULFILLMENTS, False) or "ship"
    state = _str(a, "ship_state", False)
    use_credit = _bool(a, "use_credit", False)
    if not isinstance(items, list) or not 1 <= len(items) <= 10:
        raise RefError("items must be a list of 1 to 10 lines")
    lines, seen = [], set()
    for it in items:
        if not isinstance(it, dict) or set(it) - {"wine_id", "quantity"}:
            raise RefError("each item has wine_id and quantity only")
        w = _get(db, "wines", "wine_id", it)
        if w["wine_id"] in seen:
            raise RefError("a wine may appear only once per order")
        seen.add(w["wine_id"])
        qty = _int(it, "quantity", 1, w["max_per_order"])
        lines.append((w, qty))
    if ff == "ship":
        if state is None:
            raise RefError("ship_state is required for shipped orders")
        if state not in SHIP_TAX:
            raise RefError("we cannot ship wine to that state")
        tax_rate = dec(SHIP_TAX[state])
    else:
        if state is not None:
            raise RefError("ship_state is not accepted for pickup orders")
        tax_rate = PICKUP_TAX
    if m["status"] != "active":
        raise RefError("only active members can order")
    bottles = sum(q for _, q in lines)
    if bottles > 24:
        raise RefError("at most 24 bottles per order")
    for w, q in lines:
        if w["status"] != "available":
            raise RefError(f"{w['wine_id']} is not available")
        if RANK[m["tier"]] < RANK[w["min_tier"]]:
            raise RefError(f"{w['wine_id']} is reserved for a higher tier")
        if q > w["stock"]:
            raise RefError(f"not enough stock of {w['wine_id']}")
    out, sub = [], Decimal(0)
    for w, q in lines:
        lt = q2(dec(w["price"]) * q)
        sub += lt
        out.append({"wine_id": w["wine_id"], "quantity": q, "unit_price": w["price"], "line_total": float(lt)})
    rate = TIER_RATE[m["tier"]] + (Decimal("0.05") if bottles >= 12 else 0)
    disc = q2(sub * rate)
    ship = Decimal(0) if ff == "pickup" or bottles >= 12 else Decimal("15.00" if bottles <= 5 else "25.00")
    tax = q2((sub - disc) * tax_rate)
    total = sub - disc + ship + tax
    credit = min(dec(m["credit_balance"]), total) if use_credit else Decimal(0)
    for w, q in lines:
        w["stock"] -= q
        if w["stock"] == 0:
            w["status"] = "sold_out"
    m["bottles_purchased"] += bottles
    m["credit_balance"] = num(dec(m["credit_balance"]) - credit)
    oid = _next_id(db["orders"])
    db["orders"][oid] = {
        "order_id": oid, "member_id": m["member_id"], "status": "placed", "fulfillment": ff,
        "ship_state": state if ff == "ship" else None, "lines": out, "bottle_count": bottles,
        "subtotal": num(sub), "discount_percent": float(rate * 100), "discount": num(disc),
        "shipping_fee": num(ship), "tax": num(tax), "total": num(total), "credit_applied": num(credit),
        "amount_due": num(total - credit), "created_on": db["meta"]["today"], "shipped_on": None,
        "ready_on": None, "completed_on": None, "cancelled_on": None, "cancel_reason": None,
        "refund_amount": None}
    return db["orders"][oid]


def fulfill_order(db, a):
    o = _get(db, "orders", "order_id", a)
    if o["status"] != "placed":
        raise RefError("only placed orders can be fulfilled")
    today = _today(db)
    if o["fulfillment"] == "pickup":
        o.update(status="ready_for_pickup", ready_on=db["meta"]["today"])
        return o
    if o["ship_state"] in HEAT_STATES and 6 <= today.month <= 9:
        raise RefError("heat hold: no shipments to that state from June through September")
    o.update(status="shipped", shipped_on=db["meta"]["today"])
    return o


def complete_order(db, a):
    o = _get(db, "orders", "order_id", a)
    if o["status"] == "shipped":
        if o["shipped_on"] >= db["meta"]["today"]:
            raise RefError("delivery can be confirmed from the day after shipping")
        o.update(status="delivered", completed_on=db["meta"]["today"])
    elif o["status"] == "ready_for_pickup":
        o.update(status="picked_up", completed_on=db["meta"]["today"])
    else:
        raise RefError("only shipped or ready_for_pickup orders can be completed")
    return o


def cancel_order(db, a):
    o = _get(db, "orders", "order_id", a)
    reason = _enum(a, "reason", CANCEL_REASONS)
    if o["status"] != "placed":
        raise RefError("only placed orders can be cancelled")
    for ln in o["lines"]:
        w = db["wines"][ln["wine_id"]]
        w["stock"] += ln["quantity"]
        if w["status"] == "sold_out":
            w["status"] = "available"
    m = db["members"][o["member_id"]]
    m["bottles_purchased"] = max(0, m["bottles_purchased"] - o["bottle_count"])
    m["credit_balance"] = num(dec(m["credit_balance"]) + dec(o["credit_applied"]))
    o.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason,
             refund_amount=o["amount_due"])
    return o


# ---------------------------------------------------------------- tastings
def list_tastings(db, a):
    frm, to = _date(a, "from_date"), _date(a, "to_date")
    if frm and to and frm > to:
        raise RefError("from_date is after to_date")
    seats = _bool(a, "available_only", False)
    out = []
    for k in sorted(db["tastings"]):
        t = db["tastings"][k]
        d = _dt.date.fromisoformat(t["tasting_date"])
        if (frm and d < frm) or (to and d > to):
            continue
        if seats and (t["status"] != "scheduled" or t["seats_booked"] >= t["capacity"]):
            continue
        out.append(t)
    return out


def book_tasting(db, a):
    m = _get(db, "members", "member_id", a)
    t = _get(db, "tastings", "tasting_id", a)
    size = _int(a, "party_size", 1, 6)
    if m["status"] != "active":
        raise RefError("only active members can book")
    if t["status"] != "scheduled":
        raise RefError("tasting is not open for booking")
    days = (_dt.date.fromisoformat(t["tasting_date"]) - _today(db)).days
    if not 1 <= days <= 60:
        raise RefError("bookings are taken from 60 days to 1 day before the tasting")
    if RANK[m["tier"]] < RANK[t["min_tier"]]:
        raise RefError("tasting reserved for a higher tier")
    if any(r["member_id"] == m["member_id"] and r["tasting_id"] == t["tasting_id"] and r["status"] == "confirmed"
           for r in db["reservations"].values()):
        raise RefError("member already holds a reservation for this tasting")
    if t["seats_booked"] + size > t["capacity"]:
        raise RefError("not enough seats left")
    comp = 0 if m["tier"] == "classic" else 1
    fee = dec(t["fee_per_guest"]) * (size - comp)
    t["seats_booked"] += size
    rid = _next_id(db["reservations"])
    db["reservations"][rid] = {"reservation_id": rid, "tasting_id": t["tasting_id"],
                               "member_id": m["member_id"], "party_size": size, "fee": num(fee),
                               "status": "confirmed", "booked_on": db["meta"]["today"],
                               "cancelled_on": None, "refund_amount": None}
    return db["reservations"][rid]


def cancel_reservation(db, a):
    r = _get(db, "reservations", "reservation_id", a)
    if r["status"] != "confirmed":
        raise RefError("only confirmed reservations can be cancelled")
    t = db["tastings"][r["tasting_id"]]
    days = (_dt.date.fromisoformat(t["tasting_date"]) - _today(db)).days
    if days < 1:
        raise RefError("reservations can be cancelled until the day before the tasting")
    fee = dec(r["fee"])
    refund = fee if days >= 7 else (q2(fee / 2) if days >= 2 else Decimal(0))
    t["seats_booked"] -= r["party_size"]
    m = db["members"][r["member_id"]]
    m["credit_balance"] = num(dec(m["credit_balance"]) + refund)
    r.update(status="cancelled", cancelled_on=db["meta"]["today"], refund_amount=num(refund))
    return r


PARAMS = {
    "get_member": {"member_id"},
    "set_membership_status": {"member_id", "action"},
    "change_tier": {"member_id", "tier"},
    "list_wines": {"color", "search", "max_price", "available_only"},
    "restock_wine": {"wine_id", "quantity"},
    "get_order": {"order_id"},
    "list_orders": {"member_id", "status", "fulfillment"},
    "create_order": {"member_id", "items", "fulfillment", "ship_state", "use_credit"},
    "fulfill_order": {"order_id"},
    "complete_order": {"order_id"},
    "cancel_order": {"order_id", "reason"},
    "list_tastings": {"from_date", "to_date", "available_only"},
    "book_tasting": {"member_id", "tasting_id", "party_size"},
    "cancel_reservation": {"reservation_id"},
}


def invoke(db, name, args):
    if name not in PARAMS:
        raise RefError(f"unknown tool {name}")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    extra = set(args) - PARAMS[name]
    if extra:
        raise RefError(f"unknown arguments {sorted(extra)}")
    return globals()[name](db, args)
