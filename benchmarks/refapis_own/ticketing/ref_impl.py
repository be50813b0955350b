"""Reference implementation of the Severn Nights ticketing API (stdlib only)."""
import datetime as dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_customer", "place_order", "cancel_order", "upgrade_order", "check_in_order",
               "create_event", "publish_event", "cancel_event", "join_waitlist"}
READ_TOOLS = {"list_events", "get_event", "find_customers", "get_order", "list_customer_orders"}

EVENT_STATUSES = ("draft", "on_sale", "sold_out", "completed", "cancelled")
ORDER_STATUSES = ("confirmed", "attended", "cancelled", "refunded")
CATEGORIES = ("concert", "theatre", "comedy", "family")
TIERS = ("standard", "premium")
FEE_PER_TICKET = {"basic": Decimal("2.50"), "silver": Decimal("1.25"), "gold": Decimal("0.00")}
CENT = Decimal("0.01")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
LIVE = ("confirmed", "attended")
MAX_PER_CUSTOMER = 6


# ---------------------------------------------------------------- helpers
def D(x):
    return Decimal(str(x))


def cents(x):
    return float(D(x).quantize(CENT, ROUND_HALF_UP))


def today(db):
    return dt.date.fromisoformat(db["meta"]["today"])


def parse_date(s, field):
    if not isinstance(s, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        raise RefError(f"{field} must be a date YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(s)
    except ValueError:
        raise RefError(f"{field} is not a valid date")


def check_args(args, required, optional=()):
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    for k in args:
        if k not in required and k not in optional:
            raise RefError(f"unknown argument {k}")
    for k in required:
        if k not in args or args[k] is None:
            raise RefError(f"missing argument {k}")


def text(args, key, required=True, max_len=200):
    v = args.get(key)
    if v is None and not required:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{key} must be a non-empty string")
    if len(v) > max_len:
        raise RefError(f"{key} is too long")
    return v


def integer(args, key, lo, hi):
    v = args.get(key)
    if not isinstance(v, int) or isinstance(v, bool):
        raise RefError(f"{key} must be an integer")
    if v < lo or v > hi:
        raise RefError(f"{key} must be between {lo} and {hi}")
    return v


def price(args, key):
    v = args.get(key)
    if not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0:
        raise RefError(f"{key} must be a positive amount")
    if D(v) != D(v).quantize(CENT):
        raise RefError(f"{key} has more than two decimals")
    return float(D(v).quantize(CENT))


def fetch(db, coll, key, what):
    if not isinstance(key, str) or key not in db[coll]:
        raise RefError(f"{what} not found")
    return db[coll][key]


def next_id(coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return f"{prefix}{(max(nums) if nums else 0) + 1:0{width}d}"


def event_day(ev):
    return dt.date.fromisoformat(ev["event_date"])


def held_tickets(db, customer_id, event_id):
    return sum(o["quantity"] for o in db["orders"].values()
               if o["customer_id"] == customer_id and o["event_id"] == event_id and o["status"] in LIVE)


# ---------------------------------------------------------------- reads
def list_events(db, a):
    check_args(a, (), ("city", "category", "status", "date_from", "date_to", "q"))
    if a.get("category") is not None and a["category"] not in CATEGORIES:
        raise RefError("unknown category")
    if a.get("status") is not None and a["status"] not in EVENT_STATUSES:
        raise RefError("unknown status")
    lo = parse_date(a["date_from"], "date_from") if a.get("date_from") is not None else None
    hi = parse_date(a["date_to"], "date_to") if a.get("date_to") is not None else None
    if lo and hi and lo > hi:
        raise RefError("date_from is after date_to")
    out = []
    for ev in db["events"].values():
        venue = db["venues"][ev["venue_id"]]
        if a.get("city") is not None and venue["city"].lower() != str(a["city"]).strip().lower():
            continue
        if a.get("category") is not None and ev["category"] != a["category"]:
            continue
        if a.get("status") is not None and ev["status"] != a["status"]:
            continue
        if lo and event_day(ev) < lo or hi and event_day(ev) > hi:
            continue
        if a.get("q") is not None and str(a["q"]).lower() not in ev["title"].lower():
            continue
        out.append(ev)
    return sorted(out, key=lambda e: (e["event_date"], e["id"]))


def get_event(db, a):
    check_args(a, ("event_id",))
    return fetch(db, "events", a["event_id"], "event")


def find_customers(db, a):
    check_args(a, (), ("email", "name"))
    email, name = a.get("email"), a.get("name")
    if not email and not name:
        raise RefError("give an email or a name")
    out = []
    for c in db["customers"].values():
        if email and c["email"].lower() != str(email).strip().lower():
            continue
        if name and str(name).strip().lower() not in c["name"].lower():
            continue
        out.append(c)
    return out


def get_order(db, a):
    check_args(a, ("order_id",))
    return fetch(db, "orders", a["order_id"], "order")


def list_customer_orders(db, a):
    check_args(a, ("customer_id",), ("status",))
    fetch(db, "customers", a["customer_id"], "customer")
    st = a.get("status")
    if st is not None and st not in ORDER_STATUSES:
        raise RefError("unknown status")
    return sorted([o for o in db["orders"].values() if o["customer_id"] == a["customer_id"]
                   and (st is None or o["status"] == st)], key=lambda o: o["id"])


# ---------------------------------------------------------------- customers
def register_customer(db, a):
    check_args(a, ("name", "email"), ("phone",))
    name = text(a, "name", max_len=100)
    email = text(a, "email", max_len=120).strip().lower()
    if not EMAIL_RE.match(email):
        raise RefError("email is not valid")
    if any(c["email"].lower() == email for c in db["customers"].values()):
        raise RefError("email already registered")
    phone = text(a, "phone", required=False, max_len=30)
    cid = next_id(db["customers"], "C", 4)
    rec = {"id": cid, "name": name.strip(), "email": email, "phone": phone, "loyalty_tier": "basic",
           "joined_on": db["meta"]["today"], "orders_count": 0, "total_spent": 0.0}
    db["customers"][cid] = rec
    return rec


# ---------------------------------------------------------------- orders
def resolve_promo(db, code, customer_id, ev, qty):
    if not isinstance(code, str) or not code.strip():
        raise RefError("promo_code must be a string")
    p = db["promo_codes"].get(code.strip().upper())
    if p is None:
        raise RefError("unknown promo code")
    t = db["meta"]["today"]
    if not p["active"] or not (p["valid_from"] <= t <= p["valid_until"]):
        raise RefError("promo code is not valid today")
    if p["max_uses"] is not None and p["times_used"] >= p["max_uses"]:
        raise RefError("promo code fully used")
    if p["event_id"] is not None and p["event_id"] != ev["id"]:
        raise RefError("promo code is for another event")
    if qty < p["min_tickets"]:
        raise RefError("too few tickets for this promo code")
    if any(o["customer_id"] == customer_id and o["promo_code"] == p["code"] for o in db["orders"].values()):
        raise RefError("customer already used this promo code")
    return p


def place_order(db, a):
    check_args(a, ("customer_id", "event_id", "tier", "quantity"), ("promo_code",))
    cust = fetch(db, "customers", a["customer_id"], "customer")
    ev = fetch(db, "events", a["event_id"], "event")
    tier = a["tier"]
    if tier not in TIERS:
        raise RefError("tier must be standard or premium")
    qty = integer(a, "quantity", 1, MAX_PER_CUSTOMER)
    if ev["status"] != "on_sale":
        raise RefError("event is not on sale")
    if event_day(ev) <= today(db):
        raise RefError("sales for this event have closed")
    if ev["seats_sold"] + qty > ev["capacity"]:
        raise RefError("not enough seats left")
    if tier == "premium" and ev["premium_sold"] + qty > ev["premium_capacity"]:
        raise RefError("not enough premium seats left")
    if held_tickets(db, cust["id"], ev["id"]) + qty > MAX_PER_CUSTOMER:
        raise RefError("ticket limit per customer exceeded")
    promo = None
    if a.get("promo_code") is not None:
        promo = resolve_promo(db, a["promo_code"], cust["id"], ev, qty)
    unit = D(ev["premium_price"] if tier == "premium" else ev["standard_price"])
    subtotal = unit * qty
    discount = Decimal("0")
    if promo:
        if promo["kind"] == "percent":
            discount = (subtotal * D(promo["value"]) / 100).quantize(CENT, ROUND_HALF_UP)
        else:
            discount = min(D(promo["value"]), subtotal)
        promo["times_used"] += 1
    fee = FEE_PER_TICKET[cust["loyalty_tier"]] * qty
    total = subtotal - discount + fee
    oid = next_id(db["orders"], "ORD-", 5)
    t = db["meta"]["today"]
    rec = {"id": oid, "customer_id": cust["id"], "event_id": ev["id"], "tier": tier, "quantity": qty,
           "unit_price": cents(unit), "subtotal": cents(subtotal), "discount": cents(discount),
           "promo_code": promo["code"] if promo else None, "booking_fee": cents(fee), "total": cents(total),
           "status": "confirmed", "created_on": t, "upgraded_on": None, "checked_in_on": None,
           "cancelled_on": None, "cancel_reason": None, "refund_amount": 0.0, "refunded_on": None}
    db["orders"][oid] = rec
    ev["seats_sold"] += qty
    if tier == "premium":
        ev["premium_sold"] += qty
    if ev["seats_sold"] == ev["capacity"]:
        ev["status"] = "sold_out"
    cust["orders_count"] += 1
    cust["total_spent"] = cents(D(cust["total_spent"]) + total)
    for w in db["waitlist"].values():
        if w["event_id"] == ev["id"] and w["customer_id"] == cust["id"] and w["status"] == "waiting":
            w.update(status="converted", resolved_on=t, order_id=oid)
            ev["waitlist_count"] -= 1
    return rec


def owned_order(db, a):
    order = fetch(db, "orders", a["order_id"], "order")
    fetch(db, "customers", a["customer_id"], "customer")
    if order["customer_id"] != a["customer_id"]:
        raise RefError("order belongs to another customer")
    return order


def cancel_order(db, a):
    check_args(a, ("order_id", "customer_id", "reason"))
    order = owned_order(db, a)
    reason = text(a, "reason")
    ev = db["events"][order["event_id"]]
    if order["status"] != "confirmed":
        raise RefError("only confirmed orders can be cancelled")
    if ev["status"] not in ("on_sale", "sold_out"):
        raise RefError("event is not upcoming")
    days = (event_day(ev) - today(db)).days
    if days < 2:
        raise RefError("too close to the event to cancel")
    ticket_amount = D(order["subtotal"]) - D(order["discount"])
    refund = ticket_amount if days >= 14 else (ticket_amount / 2).quantize(CENT, ROUND_HALF_UP)
    order.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason,
                 refund_amount=cents(refund))
    ev["seats_sold"] -= order["quantity"]
    if order["tier"] == "premium":
        ev["premium_sold"] -= order["quantity"]
    if ev["status"] == "sold_out":
        ev["status"] = "on_sale"
    cust = db["customers"][order["customer_id"]]
    cust["total_spent"] = cents(D(cust["total_spent"]) - refund)
    return order


def upgrade_order(db, a):
    check_args(a, ("order_id", "customer_id"))
    order = owned_order(db, a)
    ev = db["events"][order["event_id"]]
    if order["status"] != "confirmed":
        raise RefError("only confirmed orders can be upgraded")
    if order["tier"] != "standard":
        raise RefError("order is already premium")
    if ev["status"] not in ("on_sale", "sold_out") or event_day(ev) <= today(db):
        raise RefError("upgrades close the day before the event")
    if ev["premium_sold"] + order["quantity"] > ev["premium_capacity"]:
        raise RefError("not enough premium seats left")
    old_total = D(order["total"])
    unit = D(ev["premium_price"])
    subtotal = unit * order["quantity"]
    total = subtotal - D(order["discount"]) + D(order["booking_fee"])
    order.update(tier="premium", unit_price=cents(unit), subtotal=cents(subtotal), total=cents(total),
                 upgraded_on=db["meta"]["today"])
    ev["premium_sold"] += order["quantity"]
    cust = db["customers"][order["customer_id"]]
    cust["total_spent"] = cents(D(cust["total_spent"]) + total - old_total)
    return order


def check_in_order(db, a):
    check_args(a, ("order_id",))
    order = fetch(db, "orders", a["order_id"], "order")
    ev = db["events"][order["event_id"]]
    if order["status"] != "confirmed":
        raise RefError("only confirmed orders can be checked in")
    if ev["status"] not in ("on_sale", "sold_out") or event_day(ev) != today(db):
        raise RefError("check-in is only open on the day of the event")
    order.update(status="attended", checked_in_on=db["meta"]["today"])
    return order


# ---------------------------------------------------------------- events
def create_event(db, a):
    check_args(a, ("venue_id", "title", "category", "event_date", "standard_price", "premium_price"),
               ("capacity", "premium_capacity"))
    venue = fetch(db, "venues", a["venue_id"], "venue")
    title = text(a, "title", max_len=120)
    if a["category"] not in CATEGORIES:
        raise RefError("unknown category")
    day = parse_date(a["event_date"], "event_date")
    if (day - today(db)).days < 7:
        raise RefError("events must be scheduled at least 7 days ahead")
    cap = integer(a, "capacity", 1, venue["capacity"]) if a.get("capacity") is not None else venue["capacity"]
    pcap = integer(a, "premium_capacity", 0, cap) if a.get("premium_capacity") is not None else 0
    if pcap * 2 > cap:
        raise RefError("premium seats may not exceed half the capacity")
    sp, pp = price(a, "standard_price"), price(a, "premium_price")
    if pp <= sp:
        raise RefError("premium price must be higher than standard price")
    for ev in db["events"].values():
        if ev["venue_id"] == venue["id"] and ev["event_date"] == day.isoformat() and ev["status"] != "cancelled":
            raise RefError("venue already booked that day")
    eid = next_id(db["events"], "E", 3)
    rec = {"id": eid, "venue_id": venue["id"], "title": title, "category": a["category"],
           "event_date": day.isoformat(), "status": "draft", "capacity": cap, "premium_capacity": pcap,
           "seats_sold": 0, "premium_sold": 0, "standard_price": sp, "premium_price": pp, "waitlist_count": 0,
           "created_on": db["meta"]["today"], "published_on": None, "cancelled_on": None, "cancel_reason": None}
    db["events"][eid] = rec
    return rec


def publish_event(db, a):
    check_args(a, ("event_id",))
    ev = fetch(db, "events", a["event_id"], "event")
    if ev["status"] != "draft":
        raise RefError("only draft events can be published")
    if event_day(ev) <= today(db):
        raise RefError("event date has passed")
    ev.update(status="on_sale", published_on=db["meta"]["today"])
    return ev


def cancel_event(db, a):
    check_args(a, ("event_id", "reason"))
    ev = fetch(db, "events", a["event_id"], "event")
    reason = text(a, "reason")
    if ev["status"] not in ("draft", "on_sale", "sold_out") or event_day(ev) < today(db):
        raise RefError("event can no longer be cancelled")
    mine = [o for o in db["orders"].values() if o["event_id"] == ev["id"]]
    if any(o["status"] == "attended" for o in mine):
        raise RefError("check-in has started")
    t = db["meta"]["today"]
    refunded = []
    for o in mine:
        if o["status"] == "confirmed":
            o.update(status="refunded", refund_amount=o["total"], refunded_on=t)
            cust = db["customers"][o["customer_id"]]
            cust["total_spent"] = cents(D(cust["total_spent"]) - D(o["total"]))
            refunded.append(o)
    for w in db["waitlist"].values():
        if w["event_id"] == ev["id"] and w["status"] == "waiting":
            w.update(status="closed", resolved_on=t)
    ev.update(status="cancelled", cancelled_on=t, cancel_reason=reason, seats_sold=0, premium_sold=0,
              waitlist_count=0)
    return {"event": ev, "refunded_orders": refunded}


def join_waitlist(db, a):
    check_args(a, ("event_id", "customer_id", "quantity"))
    ev = fetch(db, "events", a["event_id"], "event")
    cust = fetch(db, "customers", a["customer_id"], "customer")
    qty = integer(a, "quantity", 1, 4)
    if ev["status"] != "sold_out":
        raise RefError("waitlists are only for sold-out events")
    if event_day(ev) <= today(db):
        raise RefError("waitlist closed for this event")
    if any(w["event_id"] == ev["id"] and w["customer_id"] == cust["id"] and w["status"] == "waiting"
           for w in db["waitlist"].values()):
        raise RefError("customer is already waiting for this event")
    wid = next_id(db["waitlist"], "W", 4)
    rec = {"id": wid, "event_id": ev["id"], "customer_id": cust["id"], "quantity": qty, "status": "waiting",
           "joined_on": db["meta"]["today"], "resolved_on": None, "order_id": None}
    db["waitlist"][wid] = rec
    ev["waitlist_count"] += 1
    return rec


TOOLS = {f.__name__: f for f in (list_events, get_event, find_customers, get_order, list_customer_orders,
                                 register_customer, place_order, cancel_order, upgrade_order, check_in_order,
                                 create_event, publish_event, cancel_event, join_waitlist)}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError(f"unknown tool {name}")
    return TOOLS[name](db, args if args is not None else {})
