"""Reference implementation: museum group-visit and guided-tour booking desk."""
import math
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"create_booking", "record_payment", "add_audio_guides", "assign_guide",
               "reschedule_booking", "cancel_booking", "mark_no_show", "complete_visit"}
READ_TOOLS = {"list_slots", "search_organizations", "list_bookings", "get_booking"}

ACTIVE = ("pending_deposit", "confirmed")
BOOKING_STATUSES = ("pending_deposit", "confirmed", "completed", "cancelled", "no_show")
SLOT_STATUSES = ("open", "closed", "cancelled")
LANGS = ("en", "fr", "es", "de")
ORG_TYPES = ("school", "community", "corporate")
METHODS = ("card", "bank_transfer", "purchase_order")
REASONS = ("customer_request", "illness", "weather", "other")
REFUND_SCHEDULE = ((30, Decimal("1.00")), (14, Decimal("0.75")), (7, Decimal("0.50")), (0, Decimal("0")))
DEPOSIT_RATE = Decimal("0.25")
SECOND_RESCHEDULE_FEE = Decimal("20.00")
MAX_RESCHEDULES = 2

# tool -> {arg: (type, required)}
SPECS = {
    "list_slots": {"gallery_id": ("str", False), "date_from": ("date", False), "date_to": ("date", False),
                   "status": ("str", False), "has_guide": ("bool", False), "min_available": ("int", False)},
    "search_organizations": {"query": ("str", False), "type": ("str", False)},
    "list_bookings": {"org_id": ("str", False), "status": ("str", False), "slot_id": ("str", False),
                      "date_from": ("date", False), "date_to": ("date", False)},
    "get_booking": {"booking_id": ("str", True)},
    "create_booking": {"org_id": ("str", True), "slot_id": ("str", True), "group_size": ("int", True),
                       "chaperones": ("int", True), "language": ("str", True)},
    "record_payment": {"booking_id": ("str", True), "amount": ("num", True), "method": ("str", True)},
    "add_audio_guides": {"booking_id": ("str", True), "set_id": ("str", True), "quantity": ("int", True)},
    "assign_guide": {"slot_id": ("str", True), "guide_id": ("str", True)},
    "reschedule_booking": {"booking_id": ("str", True), "new_slot_id": ("str", True)},
    "cancel_booking": {"booking_id": ("str", True), "reason": ("str", True)},
    "mark_no_show": {"booking_id": ("str", True)},
    "complete_visit": {"booking_id": ("str", True)},
}


def D(x):
    return Decimal(str(x))


def money(x):
    return float(D(x).quantize(Decimal("0.01"), ROUND_HALF_UP))


def today(db):
    return date.fromisoformat(db["meta"]["today"])


def check_args(name, args):
    if name not in SPECS:
        raise RefError("unknown tool %s" % name)
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    spec = SPECS[name]
    for k in args:
        if k not in spec:
            raise RefError("unknown argument %s" % k)
    out = {}
    for k, (typ, req) in spec.items():
        v = args.get(k)
        if v is None:
            if req:
                raise RefError("missing argument %s" % k)
            continue
        if typ in ("str", "date") and (not isinstance(v, str) or not v.strip()):
            raise RefError("%s must be a non-empty string" % k)
        if typ == "date":
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
                raise RefError("%s must be YYYY-MM-DD" % k)
            try:
                v = date.fromisoformat(v)
            except ValueError:
                raise RefError("%s is not a valid date" % k)
        if typ == "int" and (isinstance(v, bool) or not isinstance(v, int)):
            raise RefError("%s must be an integer" % k)
        if typ == "num" and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise RefError("%s must be a number" % k)
        if typ == "bool" and not isinstance(v, bool):
            raise RefError("%s must be a boolean" % k)
        out[k] = v
    return out


def get(db, coll, key, label):
    rec = db[coll].get(key)
    if rec is None:
        raise RefError("%s %s not found" % (label, key))
    return rec


def next_id(coll, prefix):
    nums = [int(k[len(prefix):]) for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    width = max((len(k) - len(prefix) for k in coll), default=4)
    return "%s%0*d" % (prefix, width, max(nums, default=0) + 1)


def party(b):
    return b["group_size"] + b["chaperones"]


def reprice(b):
    """Recompute addons, total, deposit and balance after a change."""
    addons = sum((D(l["line_amount"]) for l in b["audio_guides"]), Decimal("0"))
    b["addons_amount"] = money(addons)
    total = D(b["base_amount"]) - D(b["discount_amount"]) + addons + D(b["fees_amount"])
    b["total_amount"] = money(total)
    b["deposit_amount"] = money(D(b["total_amount"]) * DEPOSIT_RATE)
    b["balance_due"] = money(D(b["total_amount"]) - D(b["amount_paid"]))


def release(db, b):
    """Give the booking's places back to its slot and its audio guides back to stock."""
    db["slots"][b["slot_id"]]["booked_count"] -= party(b)
    return_audio(db, b)


def return_audio(db, b):
    for l in b["audio_guides"]:
        db["audio_guide_sets"][l["set_id"]]["stock_available"] += l["quantity"]


def check_window(db, slot):
    d = date.fromisoformat(slot["date"])
    t = today(db)
    if d < t + timedelta(days=2) or d > t + timedelta(days=120):
        raise RefError("slot date must be 2 to 120 days from today")


def check_language(db, slot, language):
    if slot["guide_id"] and language not in db["guides"][slot["guide_id"]]["languages"]:
        raise RefError("the slot's guide does not speak %s" % language)


def check_one_per_date(db, org_id, visit_date, exclude=None):
    for b in db["bookings"].values():
        if b["org_id"] == org_id and b["visit_date"] == visit_date and b["status"] in ACTIVE \
                and b["booking_id"] != exclude:
            raise RefError("organization already has an active booking on that date")


def active_booking(db, booking_id):
    b = get(db, "bookings", booking_id, "booking")
    if b["status"] not in ACTIVE:
        raise RefError("booking is %s" % b["status"])
    return b


# ---------------------------------------------------------------- reads
def list_slots(db, a):
    if "status" in a and a["status"] not in SLOT_STATUSES:
        raise RefError("bad status")
    if "gallery_id" in a:
        get(db, "galleries", a["gallery_id"], "gallery")
    if a.get("min_available", 0) < 0:
        raise RefError("min_available must be >= 0")
    out = []
    for s in db["slots"].values():
        d = date.fromisoformat(s["date"])
        if "gallery_id" in a and s["gallery_id"] != a["gallery_id"]:
            continue
        if "date_from" in a and d < a["date_from"] or "date_to" in a and d > a["date_to"]:
            continue
        if "status" in a and s["status"] != a["status"]:
            continue
        if "has_guide" in a and bool(s["guide_id"]) != a["has_guide"]:
            continue
        if "min_available" in a and s["capacity"] - s["booked_count"] < a["min_available"]:
            continue
        out.append(s)
    return sorted(out, key=lambda s: (s["date"], s["start_time"], s["slot_id"]))


def search_organizations(db, a):
    if "type" in a and a["type"] not in ORG_TYPES:
        raise RefError("bad type")
    q = a.get("query", "").strip().lower()
    return [o for k, o in sorted(db["organizations"].items())
            if q in o["name"].lower() and ("type" not in a or o["type"] == a["type"])]


def list_bookings(db, a):
    if "status" in a and a["status"] not in BOOKING_STATUSES:
        raise RefError("bad status")
    if "org_id" in a:
        get(db, "organizations", a["org_id"], "organization")
    if "slot_id" in a:
        get(db, "slots", a["slot_id"], "slot")
    out = []
    for k, b in sorted(db["bookings"].items()):
        d = date.fromisoformat(b["visit_date"])
        if any(f in a and b[f] != a[f] for f in ("org_id", "status", "slot_id")):
            continue
        if "date_from" in a and d < a["date_from"] or "date_to" in a and d > a["date_to"]:
            continue
        out.append(b)
    return out


def get_booking(db, a):
    return get(db, "bookings", a["booking_id"], "booking")


# ---------------------------------------------------------------- writes
def create_booking(db, a):
    org = get(db, "organizations", a["org_id"], "organization")
    slot = get(db, "slots", a["slot_id"], "slot")
    if org["status"] != "active":
        raise RefError("organization is suspended")
    if a["language"] not in LANGS:
        raise RefError("bad language")
    if slot["status"] != "open":
        raise RefError("slot is not open")
    check_window(db, slot)
    gal = db["galleries"][slot["gallery_id"]]
    gs, ch = a["group_size"], a["chaperones"]
    if gs < 8:
        raise RefError("a group has at least 8 visitors")
    if ch < 0 or ch > math.ceil(gs / 5):
        raise RefError("chaperones must be between 0 and one per five visitors (rounded up)")
    if org["type"] == "school" and ch < 1:
        raise RefError("school groups need at least one chaperone")
    if gs + ch > gal["max_group_size"]:
        raise RefError("group exceeds the gallery's maximum group size")
    if slot["booked_count"] + gs + ch > slot["capacity"]:
        raise RefError("slot does not have enough places")
    check_one_per_date(db, org["org_id"], slot["date"])
    check_language(db, slot, a["language"])
    base = D(gs) * D(gal["rate_per_visitor"])
    if org["type"] == "school" and org["educator_verified"]:
        disc = base * Decimal("0.20")
    elif org["type"] != "school" and gs >= 25:
        disc = base * Decimal("0.10")
    else:
        disc = Decimal("0")
    bid = next_id(db["bookings"], "BK")
    b = {"booking_id": bid, "org_id": org["org_id"], "slot_id": slot["slot_id"],
         "gallery_id": slot["gallery_id"], "visit_date": slot["date"], "start_time": slot["start_time"],
         "language": a["language"], "group_size": gs, "chaperones": ch, "status": "pending_deposit",
         "base_amount": money(base), "discount_amount": money(disc), "addons_amount": 0.0,
         "fees_amount": 0.0, "total_amount": 0.0, "deposit_amount": 0.0, "amount_paid": 0.0,
         "balance_due": 0.0, "reschedule_count": 0, "audio_guides": [],
         "created_date": db["meta"]["today"], "cancelled_date": None, "cancel_reason": None,
         "refund_amount": 0.0}
    reprice(b)
    slot["booked_count"] += gs + ch
    db["bookings"][bid] = b
    return b


def record_payment(db, a):
    b = active_booking(db, a["booking_id"])
    if a["method"] not in METHODS:
        raise RefError("bad method")
    amt = D(a["amount"])
    if amt <= 0 or amt != amt.quantize(Decimal("0.01")):
        raise RefError("amount must be positive with at most two decimals")
    if a["method"] == "purchase_order" and db["organizations"][b["org_id"]]["type"] != "school":
        raise RefError("purchase orders are accepted from schools only")
    if amt > D(b["balance_due"]):
        raise RefError("amount exceeds the balance due")
    if b["status"] == "pending_deposit" and D(b["amount_paid"]) + amt < D(b["deposit_amount"]):
        raise RefError("payment does not cover the deposit")
    kind = "deposit" if b["status"] == "pending_deposit" else "balance"
    pid = next_id(db["payments"], "PAY")
    p = {"payment_id": pid, "booking_id": b["booking_id"], "kind": kind, "amount": money(amt),
         "method": a["method"], "date": db["meta"]["today"]}
    db["payments"][pid] = p
    b["amount_paid"] = money(D(b["amount_paid"]) + amt)
    b["balance_due"] = money(D(b["total_amount"]) - D(b["amount_paid"]))
    if b["status"] == "pending_deposit":
        b["status"] = "confirmed"
    return p


def add_audio_guides(db, a):
    b = active_booking(db, a["booking_id"])
    st = get(db, "audio_guide_sets", a["set_id"], "audio guide set")
    q = a["quantity"]
    if q < 1:
        raise RefError("quantity must be at least 1")
    if date.fromisoformat(b["visit_date"]) < today(db):
        raise RefError("visit date has passed")
    if any(l["set_id"] == st["set_id"] for l in b["audio_guides"]):
        raise RefError("booking already rents this set")
    if sum(l["quantity"] for l in b["audio_guides"]) + q > party(b):
        raise RefError("more audio guides than people in the group")
    if st["stock_available"] < q:
        raise RefError("not enough audio guides in stock")
    st["stock_available"] -= q
    b["audio_guides"].append({"set_id": st["set_id"], "quantity": q,
                              "line_amount": money(D(q) * D(st["fee_per_unit"]))})
    reprice(b)
    return b


def assign_guide(db, a):
    slot = get(db, "slots", a["slot_id"], "slot")
    g = get(db, "guides", a["guide_id"], "guide")
    if slot["status"] != "open":
        raise RefError("slot is not open")
    if date.fromisoformat(slot["date"]) < today(db):
        raise RefError("slot is in the past")
    if g["status"] != "active":
        raise RefError("guide is inactive")
    if slot["guide_id"] == g["guide_id"]:
        raise RefError("guide already assigned to this slot")
    if slot["gallery_id"] not in g["galleries"]:
        raise RefError("guide is not qualified for this gallery")
    same_day = [s for s in db["slots"].values() if s["guide_id"] == g["guide_id"]
                and s["date"] == slot["date"] and s["slot_id"] != slot["slot_id"]]
    if any(s["start_time"] == slot["start_time"] for s in same_day):
        raise RefError("guide already leads a tour at that time")
    if len(same_day) >= g["max_tours_per_day"]:
        raise RefError("guide has reached the daily tour limit")
    for b in db["bookings"].values():
        if b["slot_id"] == slot["slot_id"] and b["status"] in ACTIVE and b["language"] not in g["languages"]:
            raise RefError("guide does not speak the language of booking %s" % b["booking_id"])
    slot["guide_id"] = g["guide_id"]
    return slot


def reschedule_booking(db, a):
    b = active_booking(db, a["booking_id"])
    new = get(db, "slots", a["new_slot_id"], "slot")
    if b["reschedule_count"] >= MAX_RESCHEDULES:
        raise RefError("booking has used its reschedules")
    if (date.fromisoformat(b["visit_date"]) - today(db)).days < 3:
        raise RefError("too close to the visit to reschedule")
    if new["slot_id"] == b["slot_id"]:
        raise RefError("booking is already in that slot")
    if new["gallery_id"] != b["gallery_id"]:
        raise RefError("reschedules must stay in the same gallery")
    if new["status"] != "open":
        raise RefError("slot is not open")
    check_window(db, new)
    if new["booked_count"] + party(b) > new["capacity"]:
        raise RefError("slot does not have enough places")
    check_one_per_date(db, b["org_id"], new["date"], exclude=b["booking_id"])
    check_language(db, new, b["language"])
    db["slots"][b["slot_id"]]["booked_count"] -= party(b)
    new["booked_count"] += party(b)
    b.update(slot_id=new["slot_id"], visit_date=new["date"], start_time=new["start_time"])
    b["reschedule_count"] += 1
    if b["reschedule_count"] == 2:
        b["fees_amount"] = money(D(b["fees_amount"]) + SECOND_RESCHEDULE_FEE)
    reprice(b)
    return b


def cancel_booking(db, a):
    b = active_booking(db, a["booking_id"])
    if a["reason"] not in REASONS:
        raise RefError("bad reason")
    days = (date.fromisoformat(b["visit_date"]) - today(db)).days
    if days < 0:
        raise RefError("visit date has passed")
    pct = next(p for lim, p in REFUND_SCHEDULE if days >= lim)
    refund = money(D(b["amount_paid"]) * pct)
    release(db, b)
    b.update(status="cancelled", cancelled_date=db["meta"]["today"], cancel_reason=a["reason"],
             refund_amount=refund, balance_due=0.0)
    if refund > 0:
        pid = next_id(db["payments"], "PAY")
        db["payments"][pid] = {"payment_id": pid, "booking_id": b["booking_id"], "kind": "refund",
                               "amount": refund, "method": "original", "date": db["meta"]["today"]}
    return b


def mark_no_show(db, a):
    b = get(db, "bookings", a["booking_id"], "booking")
    if b["status"] != "confirmed":
        raise RefError("only confirmed bookings can be marked as no-show")
    if date.fromisoformat(b["visit_date"]) >= today(db):
        raise RefError("a no-show can be recorded only after the visit date")
    release(db, b)
    b["status"] = "no_show"
    org = db["organizations"][b["org_id"]]
    org["no_show_count"] += 1
    if org["no_show_count"] >= 2:
        org["status"] = "suspended"
    return b


def complete_visit(db, a):
    b = get(db, "bookings", a["booking_id"], "booking")
    if b["status"] != "confirmed":
        raise RefError("only confirmed bookings can be completed")
    if date.fromisoformat(b["visit_date"]) > today(db):
        raise RefError("visit has not happened yet")
    if D(b["balance_due"]) > 0:
        raise RefError("balance must be paid in full")
    if not db["slots"][b["slot_id"]]["guide_id"]:
        raise RefError("slot has no guide assigned")
    return_audio(db, b)
    b["status"] = "completed"
    db["organizations"][b["org_id"]]["completed_visits"] += 1
    return b


def invoke(db, name, args):
    a = check_args(name, args if args is not None else {})
    return globals()[name](db, a)
