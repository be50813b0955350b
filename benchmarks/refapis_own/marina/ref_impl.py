"""Reference implementation: Kestrel Haven Marina berth bookings, fuel dock and boat services."""
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP, ROUND_CEILING

class RefError(Exception):
    pass

WRITE_TOOLS = {"create_booking", "cancel_booking", "check_in_booking", "check_out_booking",
               "extend_booking", "place_service_order", "cancel_service_order", "record_payment"}

BERTH_STATUSES = ("active", "out_of_service")
BOOKING_STATUSES = ("reserved", "checked_in", "checked_out", "cancelled", "no_show")
HULL_TYPES = ("monohull", "multihull")
PAY_METHODS = ("card", "bank_transfer", "cash")
ACTIVE = ("reserved", "checked_in")
CENT = Decimal("0.01")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

_KINDS = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "num": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1e12,
          "str": lambda v: isinstance(v, str), "bool": lambda v: isinstance(v, bool)}

# ------------------------------------------------------------------ argument helpers
def _refuse_if(cond, msg):
    if cond:
        raise RefError(msg)

def _check_names(args, allowed):
    extra = set(args) - set(allowed)
    _refuse_if(extra, "unknown argument(s): %s" % ", ".join(sorted(extra)))

def _arg(args, key, kind, required=True):
    if key not in args or args[key] is None:
        _refuse_if(required, "missing argument: %s" % key)
        return None
    v = args[key]
    _refuse_if(not _KINDS[kind](v), "%s must be of type %s" % (key, kind))
    return v

def _date(args, key, required=True):
    v = _arg(args, key, "str", required)
    if v is None:
        return None
    _refuse_if(not DATE_RE.fullmatch(v), "%s must be YYYY-MM-DD" % key)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a calendar date" % key)

def _get(db, coll, key, what):
    rec = db[coll].get(key)
    _refuse_if(rec is None, "%s not found: %s" % (what, key))
    return rec

def _today(db):
    return date.fromisoformat(db["meta"]["today"])

def _dec(x):
    return Decimal(str(x))

def _q(x):
    return Decimal(x).quantize(CENT, rounding=ROUND_HALF_UP)

def _money(d):
    return float(_q(d))

# ------------------------------------------------------------------ domain helpers
def _charged_length(boat):
    return int(_dec(boat["length_m"]).to_integral_value(rounding=ROUND_CEILING))

def _night_rate(db, d):
    ps = db["meta"]["peak_season"]
    peak = ps["from"] <= d.strftime("%m-%d") <= ps["to"]
    return _dec(db["meta"]["rate_per_metre_night"]["peak" if peak else "off_peak"])

def _berth_fee(db, boat, start, end, mult=1):
    factor = _dec(db["meta"]["multihull_factor"]) if boat["hull_type"] == "multihull" else Decimal(1)
    length = _charged_length(boat)
    total, d = Decimal(0), start
    while d < end:
        total += _night_rate(db, d) * length * factor * mult
        d += timedelta(days=1)
    return _q(total)

def _price(db, boat, cust, arrival, departure, power):
    m = db["meta"]
    nights = (departure - arrival).days
    fee = _berth_fee(db, boat, arrival, departure)
    pct = m["member_discount_pct"][cust["tier"]]
    if nights >= m["long_stay_min_nights"]:
        pct = max(pct, m["long_stay_discount_pct"])
    disc = _q(fee * pct / 100)
    pfee = _q(_dec(m["shore_power_per_night"]) * nights) if power else Decimal("0.00")
    total = fee - disc + pfee
    return {"nights": nights, "charged_length_m": _charged_length(boat), "berth_fee": float(fee),
            "discount_pct": pct, "discount": float(disc), "power_fee": float(pfee), "total": float(total)}

def _overlaps(rec, start, end):
    return date.fromisoformat(rec["arrival"]) < end and start < date.fromisoformat(rec["departure"])

def _free(db, field, value, start, end, skip=None):
    """No reserved/checked-in booking with booking[field] == value shares a night with [start, end)."""
    return not any(b[field] == value and b["status"] in ACTIVE and b["id"] != skip
                   and _overlaps(b, start, end) for b in db["bookings"].values())

def _fits(db, boat, berth):
    depth = _dec(db["pontoons"][berth["pontoon_id"]]["depth_m"])
    return (_dec(boat["length_m"]) <= _dec(berth["max_length_m"])
            and _dec(boat["beam_m"]) <= _dec(berth["max_beam_m"])
            and _dec(boat["draft_m"]) + _dec(db["meta"]["keel_clearance_m"]) <= depth)

def _bookable(db, boat, berth, start, end):
    return (berth["status"] == "active" and db["pontoons"][berth["pontoon_id"]]["status"] == "open"
            and _fits(db, boat, berth) and _free(db, "berth_id", berth["id"], start, end))

def _on_hold(db, cust):
    return _dec(cust["balance_due"]) > _dec(db["meta"]["account_hold_threshold"])

def _stay_dates(db, args):
    today, m = _today(db), db["meta"]
    arrival, departure = _date(args, "arrival"), _date(args, "departure")
    _refuse_if(arrival < today, "arrival is in the past")
    if arrival > today + timedelta(days=m["booking_horizon_days"]):
        raise RefError("arrival is beyond the booking horizon")
    _refuse_if(departure <= arrival, "departure must be after arrival")
    _refuse_if((departure - arrival).days > m["max_nights"], "stay too long")
    return arrival, departure

def _candidates(db, boat, arrival, departure, pontoon_id, power):
    out = [b for b in db["berths"].values() if (pontoon_id is None or b["pontoon_id"] == pontoon_id)
           and (b["shore_power"] or not power) and _bookable(db, boat, b, arrival, departure)]
    return sorted(out, key=lambda b: (_dec(b["max_length_m"]), b["id"]))

def _next_id(coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return "%s%0*d" % (prefix, width, max(nums, default=0) + 1)

# ------------------------------------------------------------------ read tools
def list_berths(db, a):
    _check_names(a, ["pontoon_id", "min_length_m", "shore_power", "status"])
    pid = _arg(a, "pontoon_id", "str", False)
    if pid is not None:
        _get(db, "pontoons", pid, "pontoon")
    minlen = _arg(a, "min_length_m", "num", False)
    _refuse_if(minlen is not None and minlen <= 0, "min_length_m must be positive")
    power = _arg(a, "shore_power", "bool", False)
    status = _arg(a, "status", "str", False)
    _refuse_if(status is not None and status not in BERTH_STATUSES, "bad status")
    return [b for b in sorted(db["berths"].values(), key=lambda b: b["id"])
            if (pid is None or b["pontoon_id"] == pid) and (power is None or b["shore_power"] == power)
            and (minlen is None or _dec(b["max_length_m"]) >= _dec(minlen))
            and (status is None or b["status"] == status)]

def find_available_berths(db, a):
    _check_names(a, ["boat_id", "arrival", "departure", "pontoon_id", "shore_power"])
    boat = _get(db, "boats", _arg(a, "boat_id", "str"), "boat")
    arrival, departure = _stay_dates(db, a)
    pid = _arg(a, "pontoon_id", "str", False)
    if pid is not None:
        _get(db, "pontoons", pid, "pontoon")
    power = bool(_arg(a, "shore_power", "bool", False))
    return _candidates(db, boat, arrival, departure, pid, power)

def search_boats(db, a):
    _check_names(a, ["query", "customer_id", "hull_type"])
    query = _arg(a, "query", "str").strip().lower()
    _refuse_if(len(query) < 2, "query needs at least 2 characters")
    cid = _arg(a, "customer_id", "str", False)
    if cid is not None:
        _get(db, "customers", cid, "customer")
    hull = _arg(a, "hull_type", "str", False)
    _refuse_if(hull is not None and hull not in HULL_TYPES, "bad hull_type")
    return [b for b in sorted(db["boats"].values(), key=lambda b: b["id"])
            if (query in b["name"].lower() or query in b["registration"].lower())
            and (cid is None or b["customer_id"] == cid) and (hull is None or b["hull_type"] == hull)]

def get_booking(db, a):
    _check_names(a, ["booking_id"])
    return _get(db, "bookings", _arg(a, "booking_id", "str"), "booking")

def list_bookings(db, a):
    _check_names(a, ["status", "boat_id", "berth_id", "customer_id", "from_date", "to_date"])
    status = _arg(a, "status", "str", False)
    _refuse_if(status is not None and status not in BOOKING_STATUSES, "bad status")
    filters = {}
    for key, coll in (("boat_id", "boats"), ("berth_id", "berths"), ("customer_id", "customers")):
        v = _arg(a, key, "str", False)
        if v is not None:
            _get(db, coll, v, key)
            filters[key] = v
    lo, hi = _date(a, "from_date", False), _date(a, "to_date", False)
    _refuse_if(lo is not None and hi is not None and lo > hi, "from_date after to_date")
    out = [b for b in db["bookings"].values()
           if (status is None or b["status"] == status) and all(b[k] == v for k, v in filters.items())
           and (hi is None or b["arrival"] <= hi.isoformat()) and (lo is None or b["departure"] > lo.isoformat())]
    return sorted(out, key=lambda b: (b["arrival"], b["id"]))

def get_customer_account(db, a):
    _check_names(a, ["customer_id"])
    return _get(db, "customers", _arg(a, "customer_id", "str"), "customer")

# ------------------------------------------------------------------ bookings
def create_booking(db, a):
    _check_names(a, ["boat_id", "arrival", "departure", "berth_id", "shore_power"])
    m, today = db["meta"], _today(db)
    boat = _get(db, "boats", _arg(a, "boat_id", "str"), "boat")
    arrival, departure = _stay_dates(db, a)
    berth_id = _arg(a, "berth_id", "str", False)
    power = bool(_arg(a, "shore_power", "bool", False))
    cust = db["customers"][boat["customer_id"]]
    _refuse_if(boat["insurance_expiry"] < departure.isoformat(), "insurance does not cover the stay")
    _refuse_if(_on_hold(db, cust), "customer account on hold")
    held = sum(1 for b in db["bookings"].values() if b["customer_id"] == cust["id"] and b["status"] == "reserved")
    _refuse_if(held >= m["max_reserved_bookings_per_customer"], "too many reserved bookings")
    if not _free(db, "boat_id", boat["id"], arrival, departure):
        raise RefError("boat already booked for these nights")
    if berth_id is not None:
        berth = _get(db, "berths", berth_id, "berth")
        _refuse_if(power and not berth["shore_power"], "berth has no shore power")
        if not _bookable(db, boat, berth, arrival, departure):
            raise RefError("berth not available for this boat and dates")
    else:
        cands = _candidates(db, boat, arrival, departure, None, power)
        _refuse_if(not cands, "no berth available")
        berth = cands[0]
    rec = {"id": _next_id(db["bookings"], "BK", 4), "boat_id": boat["id"], "customer_id": cust["id"],
           "berth_id": berth["id"], "arrival": arrival.isoformat(), "departure": departure.isoformat(),
           "shore_power": power}
    rec.update(_price(db, boat, cust, arrival, departure, power))
    if cust["tier"] == "none" or cust["late_cancellations"] >= m["deposit_late_cancellation_trigger"]:
        dep = _money(_dec(rec["total"]) * m["deposit_pct"] / 100)
    else:
        dep = 0.0
    rec.update({"deposit_paid": dep, "status": "reserved", "created_on": today.isoformat(),
                "checked_in_on": None, "checked_out_on": None, "overstay_fee": None, "final_amount": None,
                "cancelled_on": None, "cancel_reason": None, "refund_amount": None})
    db["bookings"][rec["id"]] = rec
    return rec

def cancel_booking(db, a):
    _check_names(a, ["booking_id", "reason"])
    bk = _get(db, "bookings", _arg(a, "booking_id", "str"), "booking")
    reason = _arg(a, "reason", "str").strip()
    _refuse_if(not reason, "reason must not be blank")
    _refuse_if(bk["status"] != "reserved", "only reserved bookings can be cancelled")
    today = _today(db)
    notice = (date.fromisoformat(bk["arrival"]) - today).days
    if notice >= db["meta"]["free_cancellation_notice_days"]:
        bk["refund_amount"] = bk["deposit_paid"]
    else:
        bk["refund_amount"] = 0.0
        db["customers"][bk["customer_id"]]["late_cancellations"] += 1
    bk.update({"status": "cancelled", "cancelled_on": today.isoformat(), "cancel_reason": reason})
    return bk

def check_in_booking(db, a):
    _check_names(a, ["booking_id"])
    bk = _get(db, "bookings", _arg(a, "booking_id", "str"), "booking")
    _refuse_if(bk["status"] != "reserved", "booking is not reserved")
    _refuse_if(bk["arrival"] != db["meta"]["today"], "check-in only on the arrival date")
    _refuse_if(_on_hold(db, db["customers"][bk["customer_id"]]), "customer account on hold")
    bk.update({"status": "checked_in", "checked_in_on": db["meta"]["today"]})
    return bk

def check_out_booking(db, a):
    _check_names(a, ["booking_id"])
    bk = _get(db, "bookings", _arg(a, "booking_id", "str"), "booking")
    _refuse_if(bk["status"] != "checked_in", "booking is not checked in")
    today = _today(db)
    dep = date.fromisoformat(bk["departure"])
    boat = db["boats"][bk["boat_id"]]
    fee = _berth_fee(db, boat, dep, today, db["meta"]["overstay_multiplier"]) if today > dep else Decimal("0.00")
    final = _dec(bk["total"]) + fee
    bk.update({"status": "checked_out", "checked_out_on": today.isoformat(), "overstay_fee": float(fee),
               "final_amount": _money(final)})
    cust = db["customers"][bk["customer_id"]]
    cust["balance_due"] = _money(_dec(cust["balance_due"]) + final - _dec(bk["deposit_paid"]))
    return bk

def extend_booking(db, a):
    _check_names(a, ["booking_id", "new_departure"])
    bk = _get(db, "bookings", _arg(a, "booking_id", "str"), "booking")
    new_dep = _date(a, "new_departure")
    _refuse_if(bk["status"] not in ACTIVE, "only reserved or checked-in bookings can be extended")
    today = _today(db)
    old_dep, arrival = date.fromisoformat(bk["departure"]), date.fromisoformat(bk["arrival"])
    if new_dep <= old_dep or new_dep <= today:
        raise RefError("new departure must be later than the current departure and today")
    _refuse_if((new_dep - arrival).days > db["meta"]["max_nights"], "stay too long")
    boat = db["boats"][bk["boat_id"]]
    cust = db["customers"][bk["customer_id"]]
    _refuse_if(boat["insurance_expiry"] < new_dep.isoformat(), "insurance does not cover the stay")
    _refuse_if(_on_hold(db, cust), "customer account on hold")
    if not _free(db, "berth_id", bk["berth_id"], old_dep, new_dep, bk["id"]):
        raise RefError("berth taken for the extra nights")
    if not _free(db, "boat_id", boat["id"], old_dep, new_dep, bk["id"]):
        raise RefError("boat booked elsewhere for the extra nights")
    bk["departure"] = new_dep.isoformat()
    bk.update(_price(db, boat, cust, arrival, new_dep, bk["shore_power"]))
    return bk

# ------------------------------------------------------------------ services and payments
def place_service_order(db, a):
    _check_names(a, ["boat_id", "service_code", "date", "quantity"])
    m, today = db["meta"], _today(db)
    boat = _get(db, "boats", _arg(a, "boat_id", "str"), "boat")
    svc = _get(db, "services", _arg(a, "service_code", "str"), "service")
    day = _date(a, "date")
    qty = _arg(a, "quantity", "int", False)
    if day < today or day > today + timedelta(days=m["service_horizon_days"]):
        raise RefError("service date outside the booking window")
    if not any(b["boat_id"] == boat["id"] and b["status"] in ACTIVE and b["arrival"] <= day.isoformat() < b["departure"]
               for b in db["bookings"].values()):
        raise RefError("boat has no stay covering that date")
    cust = db["customers"][boat["customer_id"]]
    _refuse_if(_on_hold(db, cust), "customer account on hold")
    if svc["category"] == "fuel":
        _refuse_if(qty is None, "quantity is required for fuel")
        _refuse_if(boat["fuel_type"] != svc["code"].lower(), "wrong fuel for this boat")
        _refuse_if(qty < 1 or qty > boat["fuel_capacity_l"], "quantity outside 1..fuel_capacity_l")
        _refuse_if(qty > svc["stock_l"], "not enough fuel in stock")
    else:
        _refuse_if(qty is not None, "quantity is only accepted for fuel")
        qty = _charged_length(boat) if svc["unit"] == "metre" else 1
    if svc["max_boat_length_m"] is not None and _dec(boat["length_m"]) > _dec(svc["max_boat_length_m"]):
        raise RefError("boat too long for this service")
    same_day = [o for o in db["service_orders"].values() if o["service_code"] == svc["code"]
                and o["scheduled_for"] == day.isoformat() and o["status"] != "cancelled"]
    if any(o["boat_id"] == boat["id"] for o in same_day):
        raise RefError("boat already has this service on that date")
    if svc["daily_capacity"] is not None and len(same_day) >= svc["daily_capacity"]:
        raise RefError("service fully booked that day")
    gross = _q(_dec(svc["unit_price"]) * qty)
    pct = m["member_discount_pct"][cust["tier"]] if svc["member_discount"] else 0
    disc = _q(gross * pct / 100)
    oid = max((int(k) for k in db["service_orders"]), default=0) + 1
    rec = {"id": oid, "boat_id": boat["id"], "customer_id": cust["id"], "service_code": svc["code"],
           "scheduled_for": day.isoformat(), "quantity": qty, "unit_price": svc["unit_price"],
           "gross": float(gross), "discount_pct": pct, "discount": float(disc), "amount": float(gross - disc),
           "status": "scheduled", "created_on": today.isoformat(), "completed_on": None,
           "cancelled_on": None, "cancel_fee": None}
    db["service_orders"][str(oid)] = rec
    if svc["category"] == "fuel":
        svc["stock_l"] -= qty
    cust["balance_due"] = _money(_dec(cust["balance_due"]) + gross - disc)
    return rec

def cancel_service_order(db, a):
    _check_names(a, ["order_id"])
    oid = _arg(a, "order_id", "int")
    order = _get(db, "service_orders", str(oid), "service order")
    _refuse_if(order["status"] != "scheduled", "only scheduled orders can be cancelled")
    today = db["meta"]["today"]
    amount = _dec(order["amount"])
    fee = _q(amount * db["meta"]["same_day_service_cancel_fee_pct"] / 100) if order["scheduled_for"] == today else Decimal("0.00")
    order.update({"status": "cancelled", "cancelled_on": today, "cancel_fee": float(fee)})
    svc = db["services"][order["service_code"]]
    if svc["category"] == "fuel":
        svc["stock_l"] += order["quantity"]
    cust = db["customers"][order["customer_id"]]
    cust["balance_due"] = _money(_dec(cust["balance_due"]) - (amount - fee))
    return order

def record_payment(db, a):
    _check_names(a, ["customer_id", "amount", "method", "reference"])
    cust = _get(db, "customers", _arg(a, "customer_id", "str"), "customer")
    amount = _arg(a, "amount", "num")
    method = _arg(a, "method", "str")
    ref = _arg(a, "reference", "str", False)
    _refuse_if(method not in PAY_METHODS, "bad method")
    amt = _dec(amount)
    _refuse_if(amt <= 0 or _q(amt) != amt, "amount must be positive with at most two decimals")
    _refuse_if(amt > _dec(cust["balance_due"]), "payment exceeds balance due")
    if method == "cash":
        _refuse_if(amt > _dec(db["meta"]["cash_payment_limit"]), "cash payment over the limit")
        _refuse_if(ref is not None, "cash payments carry no reference")
    _refuse_if(method == "bank_transfer" and not (ref and ref.strip()), "bank transfers need a reference")
    rec = {"id": _next_id(db["payments"], "PY", 4), "customer_id": cust["id"], "amount": float(_q(amt)),
           "method": method, "paid_on": db["meta"]["today"], "reference": ref}
    db["payments"][rec["id"]] = rec
    cust["balance_due"] = _money(_dec(cust["balance_due"]) - amt)
    return rec

TOOLS = {f.__name__: f for f in (
    list_berths, find_available_berths, search_boats, get_booking, list_bookings, get_customer_account,
    create_booking, cancel_booking, check_in_booking, check_out_booking, extend_booking,
    place_service_order, cancel_service_order, record_payment)}

def invoke(db, name, args):
    _refuse_if(name not in TOOLS, "unknown tool: %s" % name)
    if args is None:
        args = {}
    _refuse_if(not isinstance(args, dict), "arguments must be an object")
    return TOOLS[name](db, args)
