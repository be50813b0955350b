"""Reference implementation of the museum group-tour booking API (stdlib only)."""
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"create_booking", "pay_deposit", "confirm_booking", "update_headcount",
               "cancel_booking", "record_attendance", "assign_guide", "cancel_tour"}

PROGRAMS = ("highlights", "dinosaurs", "ancient_egypt", "modern_art", "maritime")
LANGUAGES = ("en", "fr", "de", "es", "nl")
TOUR_STATUSES = ("scheduled", "cancelled")
BOOKING_STATUSES = ("pending", "confirmed", "cancelled", "attended", "no_show")
CANCEL_REASONS = ("customer_request", "illness", "weather", "scheduling_conflict", "other")
PAYMENT_KINDS = ("deposit", "refund")
DISCOUNT = {"school": Decimal("0.20"), "youth_group": Decimal("0.10"),
            "adult_group": Decimal("0"), "corporate": Decimal("0")}
DEPOSIT_RATE = Decimal("0.30")
MIN_PARTICIPANTS, MAX_CHAPERONES = 5, 10
CENT = Decimal("0.01")


def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def dec(x):
    return Decimal(str(x))


def num(x):
    return float(q2(x))


# ---------------------------------------------------------------- pricing rules
def free_chaperones(ctype, participants):
    """one free chaperone per started ten participants for schools and youth groups"""
    return -(-participants // 10) if ctype in ("school", "youth_group") else 0


def min_chaperones(ctype, participants):
    return -(-participants // 15) if ctype == "school" else 0


def total_amount(unit_price, discount, participants, chaperones, free):
    price = dec(unit_price)
    paid_chap = max(0, chaperones - free)
    return q2(participants * price * (1 - dec(discount)) + paid_chap * price)


def deposit_for(customer, total):
    if customer["type"] == "school" and customer["no_show_count"] < 2:
        return Decimal("0.00")
    return q2(total * DEPOSIT_RATE)


# ---------------------------------------------------------------- argument helpers
def _req(a, key):
    if key not in a or a[key] is None:
        raise RefError(f"missing argument {key}")
    return a[key]


def _str(a, key, required=True):
    v = _req(a, key) if required else a.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{key} must be a non-empty string")
    return v


def _int(a, key, required=True, default=None):
    v = _req(a, key) if required else a.get(key, default)
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, int):
        raise RefError(f"{key} must be an integer")
    return v


def _money(a, key):
    v = _req(a, key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RefError(f"{key} must be a number")
    d = dec(v)
    if d.as_tuple().exponent < -2:
        raise RefError(f"{key} must have at most two decimals")
    return d


def _enum(a, key, values, required=True):
    v = _req(a, key) if required else a.get(key)
    if v is None:
        return None
    if v not in values:
        raise RefError(f"{key} must be one of {values}")
    return v


def _date(a, key):
    v = a.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError(f"{key} must be a date YYYY-MM-DD")
    try:
        _dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{key} is not a valid date")
    return v


def _get(db, coll, key, rid):
    if not isinstance(rid, str) or rid not in db[coll]:
        raise RefError(f"{key} {rid!r} not found")
    return db[coll][rid]


def _days_until(db, date):
    """tour date minus today, in calendar days (negative for past tours)."""
    return (_dt.date.fromisoformat(date) - _dt.date.fromisoformat(db["meta"]["today"])).days


def _next_id(coll):
    best = None
    for k in coll:
        m = re.fullmatch(r"([A-Za-z]*)(\d+)", k)
        if m and (best is None or int(m.group(2)) > int(best[1])):
            best = (m.group(1), m.group(2))
    prefix, digits = best
    return f"{prefix}{int(digits) + 1:0{len(digits)}d}"


def _pay(db, booking, kind, amount):
    pid = _next_id(db["payments"])
    db["payments"][pid] = {"payment_id": pid, "booking_id": booking["booking_id"],
                           "customer_id": booking["customer_id"], "kind": kind,
                           "amount": num(amount), "paid_on": db["meta"]["today"]}
    return db["payments"][pid]


# ---------------------------------------------------------------- tours and guides
def list_tours(db, a):
    dfrom, dto = _date(a, "date_from"), _date(a, "date_to")
    if dfrom and dto and dfrom > dto:
        raise RefError("date_from is after date_to")
    prog = _enum(a, "program", PROGRAMS, False)
    lang = _enum(a, "language", LANGUAGES, False)
    st = _enum(a, "status", TOUR_STATUSES, False)
    minfree = _int(a, "min_free_places", False)
    if minfree is not None and minfree < 1:
        raise RefError("min_free_places must be at least 1")
    q = _str(a, "q", False)
    return [t for _, t in sorted(db["tours"].items())
            if (not dfrom or t["date"] >= dfrom) and (not dto or t["date"] <= dto)
            and (not prog or t["program"] == prog) and (not lang or t["language"] == lang)
            and (not st or t["status"] == st)
            and (minfree is None or t["capacity"] - t["booked_places"] >= minfree)
            and (q is None or q.lower() in t["title"].lower())]


def get_tour(db, a):
    return _get(db, "tours", "tour_id", _req(a, "tour_id"))


def assign_guide(db, a):
    t = _get(db, "tours", "tour_id", _req(a, "tour_id"))
    g = _get(db, "guides", "guide_id", _req(a, "guide_id"))
    if t["status"] != "scheduled":
        raise RefError("tour is cancelled")
    if _days_until(db, t["date"]) < 0:
        raise RefError("tour is in the past")
    if t["guide_id"] == g["guide_id"]:
        raise RefError("guide already assigned to this tour")
    if g["status"] != "active":
        raise RefError("guide is on leave")
    if t["language"] not in g["languages"]:
        raise RefError("guide does not speak the tour language")
    if t["capacity"] > 30 and not g["senior"]:
        raise RefError("tours with more than 30 places need a senior guide")
    for o in db["tours"].values():
        if o["tour_id"] != t["tour_id"] and o["status"] == "scheduled" \
                and o["date"] == t["date"] and o["guide_id"] == g["guide_id"]:
            raise RefError("guide already leads another tour that day")
    t["guide_id"] = g["guide_id"]
    return t


def cancel_tour(db, a):
    t = _get(db, "tours", "tour_id", _req(a, "tour_id"))
    reason = _str(a, "reason")
    if t["status"] != "scheduled":
        raise RefError("tour already cancelled")
    if _days_until(db, t["date"]) < 1:
        raise RefError("tours can only be cancelled up to the day before")
    today = db["meta"]["today"]
    for bid in sorted(db["bookings"]):
        b = db["bookings"][bid]
        if b["tour_id"] == t["tour_id"] and b["status"] in ("pending", "confirmed"):
            refund = dec(b["amount_paid"])
            if refund > 0:
                _pay(db, b, "refund", refund)
            b.update(status="cancelled", cancelled_on=today, cancel_reason="tour_cancelled",
                     refund_amount=num(refund))
    t.update(status="cancelled", cancelled_on=today, cancel_reason=reason, guide_id=None,
             booked_places=0)
    return t


# ---------------------------------------------------------------- customers and payments
def get_customer(db, a):
    return _get(db, "customers", "customer_id", _req(a, "customer_id"))


def list_payments(db, a):
    cid = _get(db, "customers", "customer_id", _req(a, "customer_id"))["customer_id"]
    kind = _enum(a, "kind", PAYMENT_KINDS, False)
    return [p for k, p in sorted(db["payments"].items())
            if p["customer_id"] == cid and (kind is None or p["kind"] == kind)]


# ---------------------------------------------------------------- bookings
def list_bookings(db, a):
    cid, tid = a.get("customer_id"), a.get("tour_id")
    if cid is not None:
        _get(db, "customers", "customer_id", cid)
    if tid is not None:
        _get(db, "tours", "tour_id", tid)
    st = _enum(a, "status", BOOKING_STATUSES, False)
    return [b for k, b in sorted(db["bookings"].items())
            if (cid is None or b["customer_id"] == cid) and (tid is None or b["tour_id"] == tid)
            and (st is None or b["status"] == st)]


def get_booking(db, a):
    return _get(db, "bookings", "booking_id", _req(a, "booking_id"))


def _check_group(ctype, participants, chaperones):
    if participants < MIN_PARTICIPANTS:
        raise RefError("at least 5 participants")
    if chaperones < 0 or chaperones > MAX_CHAPERONES:
        raise RefError("chaperones must be 0 to 10")
    if chaperones < min_chaperones(ctype, participants):
        raise RefError("school groups need one chaperone per 15 pupils")


def create_booking(db, a):
    t = _get(db, "tours", "tour_id", _req(a, "tour_id"))
    c = _get(db, "customers", "customer_id", _req(a, "customer_id"))
    p = _int(a, "participants")
    ch = _int(a, "chaperones", False, 0)
    _check_group(c["type"], p, ch)
    if c["status"] != "active":
        raise RefError("customer account is suspended")
    if t["status"] != "scheduled":
        raise RefError("tour is cancelled")
    if _days_until(db, t["date"]) < 2:
        raise RefError("bookings close two days before the tour")
    for b in db["bookings"].values():
        if b["tour_id"] == t["tour_id"] and b["customer_id"] == c["customer_id"] \
                and b["status"] in ("pending", "confirmed"):
            raise RefError("customer already holds an open booking on this tour")
    if p + ch > t["capacity"] - t["booked_places"]:
        raise RefError("not enough free places")
    free = free_chaperones(c["type"], p)
    disc = DISCOUNT[c["type"]]
    total = total_amount(t["price_per_person"], disc, p, ch, free)
    bid = _next_id(db["bookings"])
    rec = {"booking_id": bid, "tour_id": t["tour_id"], "customer_id": c["customer_id"],
           "participants": p, "chaperones": ch, "places": p + ch, "free_chaperones": free,
           "unit_price": t["price_per_person"], "discount_rate": float(disc),
           "total_amount": num(total), "deposit_due": num(deposit_for(c, total)),
           "amount_paid": 0.0, "status": "pending", "created_on": db["meta"]["today"],
           "deposit_paid_on": None, "confirmed_on": None, "cancelled_on": None,
           "cancel_reason": None, "refund_amount": None, "attended_count": None,
           "balance_due": None}
    db["bookings"][bid] = rec
    t["booked_places"] += p + ch
    return rec


def pay_deposit(db, a):
    b = _get(db, "bookings", "booking_id", _req(a, "booking_id"))
    amount = _money(a, "amount")
    if b["status"] != "pending":
        raise RefError("deposits are only taken on pending bookings")
    if dec(b["deposit_due"]) == 0:
        raise RefError("no deposit is due on this booking")
    if dec(b["amount_paid"]) > 0:
        raise RefError("deposit already paid")
    if _days_until(db, db["tours"][b["tour_id"]]["date"]) < 0:
        raise RefError("tour is in the past")
    if amount != dec(b["deposit_due"]):
        raise RefError("amount must equal the deposit due")
    _pay(db, b, "deposit", amount)
    b.update(amount_paid=num(amount), deposit_paid_on=db["meta"]["today"])
    return b


def confirm_booking(db, a):
    b = _get(db, "bookings", "booking_id", _req(a, "booking_id"))
    if b["status"] != "pending":
        raise RefError("only pending bookings can be confirmed")
    t = db["tours"][b["tour_id"]]
    if _days_until(db, t["date"]) < 0:
        raise RefError("tour is in the past")
    if dec(b["amount_paid"]) < dec(b["deposit_due"]):
        raise RefError("deposit not paid")
    if t["guide_id"] is None:
        raise RefError("the tour has no guide yet")
    b.update(status="confirmed", confirmed_on=db["meta"]["today"])
    return b


def update_headcount(db, a):
    b = _get(db, "bookings", "booking_id", _req(a, "booking_id"))
    p = _int(a, "participants")
    ch = _int(a, "chaperones", False, b["chaperones"])
    c = db["customers"][b["customer_id"]]
    t = db["tours"][b["tour_id"]]
    _check_group(c["type"], p, ch)
    if b["status"] not in ("pending", "confirmed"):
        raise RefError("only pending or confirmed bookings can be changed")
    if _days_until(db, t["date"]) < 2:
        raise RefError("changes close two days before the tour")
    if p + ch > t["capacity"] - t["booked_places"] + b["places"]:
        raise RefError("not enough free places")
    free = free_chaperones(c["type"], p)
    total = total_amount(b["unit_price"], b["discount_rate"], p, ch, free)
    t["booked_places"] += p + ch - b["places"]
    b.update(participants=p, chaperones=ch, places=p + ch, free_chaperones=free,
             total_amount=num(total))
    if b["status"] == "pending" and dec(b["amount_paid"]) == 0:
        b["deposit_due"] = num(deposit_for(c, total))
    return b


def cancel_booking(db, a):
    b = _get(db, "bookings", "booking_id", _req(a, "booking_id"))
    reason = _enum(a, "reason", CANCEL_REASONS)
    if b["status"] not in ("pending", "confirmed"):
        raise RefError("only pending or confirmed bookings can be cancelled")
    t = db["tours"][b["tour_id"]]
    days = _days_until(db, t["date"])
    if days < 0:
        raise RefError("the tour date has passed")
    paid = dec(b["amount_paid"])
    refund = paid if days >= 14 else q2(paid * Decimal("0.5")) if days >= 7 else Decimal(0)
    if refund > 0:
        _pay(db, b, "refund", refund)
    b.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason,
             refund_amount=num(refund))
    t["booked_places"] -= b["places"]
    return b


def record_attendance(db, a):
    b = _get(db, "bookings", "booking_id", _req(a, "booking_id"))
    n = _int(a, "attended_count")
    if b["status"] != "confirmed":
        raise RefError("attendance is recorded for confirmed bookings only")
    days = _days_until(db, db["tours"][b["tour_id"]]["date"])
    if days > 0:
        raise RefError("the tour has not taken place yet")
    if days < -14:
        raise RefError("attendance must be recorded within 14 days of the tour")
    if n < 0 or n > b["places"]:
        raise RefError("attended_count must be 0 to the booked places")
    if n == 0:
        b.update(status="no_show", attended_count=0, balance_due=0.0)
        db["customers"][b["customer_id"]]["no_show_count"] += 1
    else:
        b.update(status="attended", attended_count=n,
                 balance_due=num(dec(b["total_amount"]) - dec(b["amount_paid"])))
    return b


PARAMS = {
    "list_tours": {"date_from", "date_to", "program", "language", "status", "min_free_places", "q"},
    "get_tour": {"tour_id"}, "assign_guide": {"tour_id", "guide_id"},
    "cancel_tour": {"tour_id", "reason"}, "get_customer": {"customer_id"},
    "list_payments": {"customer_id", "kind"}, "list_bookings": {"customer_id", "tour_id", "status"},
    "get_booking": {"booking_id"}, "confirm_booking": {"booking_id"},
    "create_booking": {"tour_id", "customer_id", "participants", "chaperones"},
    "pay_deposit": {"booking_id", "amount"}, "cancel_booking": {"booking_id", "reason"},
    "update_headcount": {"booking_id", "participants", "chaperones"},
    "record_attendance": {"booking_id", "attended_count"},
}


def invoke(db, name, args):
    if name not in PARAMS:
        raise RefError(f"unknown tool {name}")
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    extra = set(args) - PARAMS[name]
    if extra:
        raise RefError(f"unknown arguments {sorted(extra)}")
    return globals()[name](db, args)
