"""Reference implementation of the Wrenfield Wheels car-sharing API (stdlib only)."""
import copy
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass

WRITE_TOOLS = {"create_reservation", "extend_reservation", "cancel_reservation", "start_trip",
               "end_trip", "mark_no_show", "report_damage", "return_vehicle_to_service", "pay_invoice"}

TARIFF = {"compact": ("4.50", "39.00", "0.22"), "electric": ("5.00", "45.00", "0.15"),
          "family": ("6.00", "52.00", "0.26"), "van": ("8.50", "70.00", "0.32")}
PLAN_RULES = {"basic": {"window": 14, "limit": 2, "free_km": 0},
              "plus": {"window": 30, "limit": 4, "free_km": 50}}
MEMBER_STATUS = ("active", "suspended", "closed")
VEHICLE_STATUS = ("available", "in_use", "maintenance", "retired")
RES_STATUS = ("booked", "active", "completed", "cancelled", "no_show")
CALLER_REASONS = ("member_request", "plans_changed", "other")
INVOICE_KINDS = ("trip", "cancellation_fee", "no_show_fee")
CENT = Decimal("0.01")
BALANCE_CEILING = Decimal("100.00")
NO_SHOW_HANDLING = Decimal("15.00")
LATE_BLOCK_FEE = Decimal("12.50")
SERVICE_INTERVAL = 15000
MAX_TRIP_KM = 1500
MAX_HOURS = 72
NULL_ON_CREATE = ("start_odometer_km", "end_odometer_km", "returned_at", "distance_km", "time_charge",
                  "distance_charge", "late_fee", "total_charge", "cancellation_fee", "cancel_reason",
                  "cancelled_on", "invoice_id")

REQUIRED = {
    "search_members": set(), "get_member": {"member_id"}, "list_vehicles": set(),
    "list_reservations": set(), "list_invoices": set(),
    "create_reservation": {"member_id", "vehicle_id", "start", "end"},
    "extend_reservation": {"reservation_id", "new_end"}, "cancel_reservation": {"reservation_id"},
    "start_trip": {"reservation_id"}, "end_trip": {"reservation_id", "returned_at", "odometer_km"},
    "mark_no_show": {"reservation_id"},
    "report_damage": {"vehicle_id", "member_id", "severity", "description"},
    "return_vehicle_to_service": {"vehicle_id"}, "pay_invoice": {"invoice_id", "payment_method"},
}
OPTIONAL = {
    "search_members": {"query", "status", "plan"}, "list_vehicles": {"station_id", "category", "status", "min_seats"},
    "list_reservations": {"member_id", "vehicle_id", "status", "start_date"},
    "list_invoices": {"member_id", "status", "kind"}, "cancel_reservation": {"reason"},
    "report_damage": {"reservation_id"},
}
STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$")
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")

# ---------------------------------------------------------------- helpers
def _money(x):
    return Decimal(x).quantize(CENT, rounding=ROUND_HALF_UP)

def _today(db):
    return _dt.date.fromisoformat(db["meta"]["today"])

def _str(args, key, required=True):
    v = args.get(key)
    if v is None and not required:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{key} must be a non-empty string")
    return v

def _enum(args, key, allowed, required=False):
    v = _str(args, key, required)
    if v is not None and v not in allowed:
        raise RefError(f"{key} must be one of {allowed}")
    return v

def _stamp(value, key, slot):
    if not isinstance(value, str) or not STAMP.match(value):
        raise RefError(f"{key} must look like YYYY-MM-DDTHH:MM")
    try:
        t = _dt.datetime.strptime(value, "%Y-%m-%dT%H:%M")
    except ValueError:
        raise RefError(f"{key} is not a real date and time")
    if slot and t.minute not in (0, 30):
        raise RefError(f"{key} must fall on :00 or :30")
    return t

def _t(s):
    return _dt.datetime.strptime(s, "%Y-%m-%dT%H:%M")

def _get(db, coll, key, args, required=True):
    rid = _str(args, key, required)
    if rid is not None and rid not in db[coll]:
        raise RefError(f"{key} {rid} not found")
    return None if rid is None else db[coll][rid]

def _date(value, key):
    if not isinstance(value, str) or not DAY.match(value):
        raise RefError(f"{key} must be YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(value)
    except ValueError:
        raise RefError(f"{key} is not a real date")

def _next_id(db, coll, prefix):
    width = max(len(k) for k in db[coll]) - len(prefix)
    n = max(int(k[len(prefix):]) for k in db[coll]) + 1
    return f"{prefix}{n:0{width}d}"

def _time_charge(cat, start, end):
    rate, cap = Decimal(TARIFF[cat][0]), Decimal(TARIFF[cat][1])
    hours = Decimal(int((end - start).total_seconds())) / Decimal(3600)
    days = int(hours // 24)
    rest = hours - 24 * days
    return _money(days * cap + min(rest * rate, cap))

def _clash(db, start, end, vehicle_id, member_id, skip=None):
    for r in db["reservations"].values():
        if r["reservation_id"] == skip or r["status"] not in ("booked", "active"):
            continue
        if r["vehicle_id"] != vehicle_id and r["member_id"] != member_id:
            continue
        if start < _t(r["end"]) and _t(r["start"]) < end:
            raise RefError(f"overlaps reservation {r['reservation_id']}")

def _bill(db, member, reservation, kind, amount):
    iid = _next_id(db, "invoices", "I")
    db["invoices"][iid] = {"invoice_id": iid, "member_id": member["member_id"],
                           "reservation_id": reservation["reservation_id"], "kind": kind,
                           "amount": float(amount), "status": "open", "issued_on": db["meta"]["today"],
                           "paid_on": None, "payment_method": None}
    member["balance"] = float(_money(Decimal(str(member["balance"])) + amount))
    reservation["invoice_id"] = iid

def _ground(db, vehicle):
    """Vehicle goes to maintenance: every booked reservation on it is cancelled free of charge."""
    vehicle["status"] = "maintenance"
    for r in db["reservations"].values():
        if r["vehicle_id"] == vehicle["vehicle_id"] and r["status"] == "booked":
            r.update(status="cancelled", cancel_reason="vehicle_unavailable",
                     cancelled_on=db["meta"]["today"], cancellation_fee=0.0)

def _out(x):
    return copy.deepcopy(x)

# ---------------------------------------------------------------- reads
def search_members(db, a):
    q = _str(a, "query", False)
    status = _enum(a, "status", MEMBER_STATUS)
    plan = _enum(a, "plan", tuple(PLAN_RULES))
    out = []
    for k in sorted(db["members"]):
        m = db["members"][k]
        if q is not None and q.lower() not in m["name"].lower() and q.lower() not in m["email"].lower():
            continue
        if status and m["status"] != status or plan and m["plan"] != plan:
            continue
        out.append(m)
    return _out(out)

def get_member(db, a):
    return _out(_get(db, "members", "member_id", a))

def list_vehicles(db, a):
    station = _get(db, "stations", "station_id", a, False) and a["station_id"]
    cat = _enum(a, "category", tuple(TARIFF))
    status = _enum(a, "status", VEHICLE_STATUS)
    seats = a.get("min_seats")
    if seats is not None and (not isinstance(seats, int) or isinstance(seats, bool) or seats < 1):
        raise RefError("min_seats must be a positive integer")
    out = [v for k, v in sorted(db["vehicles"].items())
           if (station is None or v["station_id"] == station) and (cat is None or v["category"] == cat)
           and (status is None or v["status"] == status) and (seats is None or v["seats"] >= seats)]
    return _out(out)

def list_reservations(db, a):
    mid = _get(db, "members", "member_id", a, False) and a["member_id"]
    vid = _get(db, "vehicles", "vehicle_id", a, False) and a["vehicle_id"]
    status = _enum(a, "status", RES_STATUS)
    day = a.get("start_date")
    if day is not None:
        _date(day, "start_date")
    out = [r for k, r in sorted(db["reservations"].items())
           if (mid is None or r["member_id"] == mid) and (vid is None or r["vehicle_id"] == vid)
           and (status is None or r["status"] == status) and (day is None or r["start"][:10] == day)]
    return _out(out)

def list_invoices(db, a):
    mid = _get(db, "members", "member_id", a, False) and a["member_id"]
    status = _enum(a, "status", ("open", "paid"))
    kind = _enum(a, "kind", INVOICE_KINDS)
    out = [i for k, i in sorted(db["invoices"].items())
           if (mid is None or i["member_id"] == mid) and (status is None or i["status"] == status)
           and (kind is None or i["kind"] == kind)]
    return _out(out)

# ---------------------------------------------------------------- reservations
def create_reservation(db, a):
    today = _today(db)
    m = _get(db, "members", "member_id", a)
    v = _get(db, "vehicles", "vehicle_id", a)
    start = _stamp(a.get("start"), "start", True)
    end = _stamp(a.get("end"), "end", True)
    hours = (end - start).total_seconds() / 3600
    if hours < 1 or hours > MAX_HOURS:
        raise RefError("a reservation lasts between 1 and 72 hours")
    rules = PLAN_RULES[m["plan"]]
    ahead = (start.date() - today).days
    if ahead < 0 or ahead > rules["window"]:
        raise RefError("start outside the booking window")
    if m["status"] != "active":
        raise RefError("member is not active")
    if m["licence_expiry"] < end.date().isoformat():
        raise RefError("licence expires before the reservation ends")
    if Decimal(str(m["balance"])) > BALANCE_CEILING:
        raise RefError("outstanding balance above 100.00")
    held = sum(1 for r in db["reservations"].values()
               if r["member_id"] == m["member_id"] and r["status"] == "booked")
    if held >= rules["limit"]:
        raise RefError("booking limit reached")
    if v["status"] in ("maintenance", "retired"):
        raise RefError("vehicle cannot be booked")
    if v["category"] == "van":
        try:
            cutoff = today.replace(year=today.year - 3)
        except ValueError:
            cutoff = today.replace(year=today.year - 3, day=28)
        if m["driving_since"] > cutoff.isoformat():
            raise RefError("vans need three years of driving experience")
    _clash(db, start, end, v["vehicle_id"], m["member_id"])
    rid = _next_id(db, "reservations", "R")
    rec = {"reservation_id": rid, "member_id": m["member_id"], "vehicle_id": v["vehicle_id"],
           "station_id": v["station_id"], "start": a["start"], "end": a["end"], "status": "booked",
           "created_on": db["meta"]["today"], "extension_count": 0}
    rec.update(dict.fromkeys(NULL_ON_CREATE))
    db["reservations"][rid] = rec
    return _out(rec)

def extend_reservation(db, a):
    r = _get(db, "reservations", "reservation_id", a)
    new_end = _stamp(a.get("new_end"), "new_end", True)
    if r["status"] not in ("booked", "active"):
        raise RefError("only booked or active reservations can be extended")
    if r["extension_count"] >= 2:
        raise RefError("already extended twice")
    start, end = _t(r["start"]), _t(r["end"])
    if new_end <= end:
        raise RefError("new_end must be later than the current end")
    if (new_end - start).total_seconds() / 3600 > MAX_HOURS:
        raise RefError("a reservation lasts at most 72 hours")
    m = db["members"][r["member_id"]]
    if m["status"] != "active":
        raise RefError("member is not active")
    if m["licence_expiry"] < new_end.date().isoformat():
        raise RefError("licence expires before the new end")
    _clash(db, end, new_end, r["vehicle_id"], r["member_id"], skip=r["reservation_id"])
    r["end"] = a["new_end"]
    r["extension_count"] += 1
    return _out(r)

def cancel_reservation(db, a):
    r = _get(db, "reservations", "reservation_id", a)
    reason = _enum(a, "reason", CALLER_REASONS) or "member_request"
    if r["status"] != "booked":
        raise RefError("only booked reservations can be cancelled")
    start = _t(r["start"])
    ahead = (start.date() - _today(db)).days
    if ahead < 0:
        raise RefError("start date has passed; record a no-show instead")
    pct = {0: Decimal("0.50"), 1: Decimal("0.25")}.get(ahead, Decimal(0))
    cat = db["vehicles"][r["vehicle_id"]]["category"]
    fee = _money(_time_charge(cat, start, _t(r["end"])) * pct)
    r.update(status="cancelled", cancel_reason=reason, cancelled_on=db["meta"]["today"],
             cancellation_fee=float(fee))
    if fee > 0:
        _bill(db, db["members"][r["member_id"]], r, "cancellation_fee", fee)
    return _out(r)

def start_trip(db, a):
    r = _get(db, "reservations", "reservation_id", a)
    if r["status"] != "booked":
        raise RefError("only booked reservations can start")
    if r["start"][:10] != db["meta"]["today"]:
        raise RefError("a trip starts only on the reservation's start date")
    m = db["members"][r["member_id"]]
    if m["status"] != "active":
        raise RefError("member is not active")
    if m["licence_expiry"] < db["meta"]["today"]:
        raise RefError("driving licence has expired")
    if any(x["member_id"] == m["member_id"] and x["status"] == "active" for x in db["reservations"].values()):
        raise RefError("member already has a trip under way")
    v = db["vehicles"][r["vehicle_id"]]
    if v["status"] != "available":
        raise RefError("vehicle is not available")
    v["status"] = "in_use"
    r.update(status="active", start_odometer_km=v["odometer_km"])
    return _out(r)

def end_trip(db, a):
    r = _get(db, "reservations", "reservation_id", a)
    back = _stamp(a.get("returned_at"), "returned_at", False)
    odo = a.get("odometer_km")
    if not isinstance(odo, int) or isinstance(odo, bool):
        raise RefError("odometer_km must be an integer")
    if r["status"] != "active":
        raise RefError("only active trips can end")
    start, end = _t(r["start"]), _t(r["end"])
    if back <= start or back.date() > _today(db):
        raise RefError("returned_at must be after the start and not after today")
    dist = odo - r["start_odometer_km"]
    if dist < 0 or dist > MAX_TRIP_KM:
        raise RefError("odometer reading is implausible")
    m = db["members"][r["member_id"]]
    v = db["vehicles"][r["vehicle_id"]]
    rate_km = Decimal(TARIFF[v["category"]][2])
    tc = _time_charge(v["category"], start, end)
    dc = _money(Decimal(max(0, dist - PLAN_RULES[m["plan"]]["free_km"])) * rate_km)
    late = (back - end).total_seconds() / 60
    blocks = int(-(-late // 30)) if late > 0 else 0
    lf = _money(LATE_BLOCK_FEE * blocks)
    total = tc + dc + lf
    r.update(status="completed", returned_at=a["returned_at"], end_odometer_km=odo, distance_km=dist,
             time_charge=float(tc), distance_charge=float(dc), late_fee=float(lf), total_charge=float(total))
    _bill(db, m, r, "trip", total)
    m["trips_count"] += 1
    v["odometer_km"] = odo
    if odo >= v["next_service_km"]:
        _ground(db, v)
    else:
        v["status"] = "available"
    return _out(r)

def mark_no_show(db, a):
    r = _get(db, "reservations", "reservation_id", a)
    if r["status"] != "booked":
        raise RefError("only booked reservations can be marked as no-show")
    if r["start"][:10] >= db["meta"]["today"]:
        raise RefError("the start date has not passed yet")
    m = db["members"][r["member_id"]]
    cat = db["vehicles"][r["vehicle_id"]]["category"]
    fee = _time_charge(cat, _t(r["start"]), _t(r["end"])) + NO_SHOW_HANDLING
    r["status"] = "no_show"
    _bill(db, m, r, "no_show_fee", fee)
    m["no_show_count"] += 1
    if m["no_show_count"] >= 3 and m["status"] == "active":
        m["status"] = "suspended"
    return _out(r)

# ---------------------------------------------------------------- fleet and money
def report_damage(db, a):
    v = _get(db, "vehicles", "vehicle_id", a)
    m = _get(db, "members", "member_id", a)
    sev = _enum(a, "severity", ("minor", "major"), required=True)
    text = _str(a, "description")
    if len(text) > 500:
        raise RefError("description is limited to 500 characters")
    rid = _str(a, "reservation_id", False)
    if rid is not None:
        r = db["reservations"].get(rid)
        if r is None:
            raise RefError("reservation not found")
        if r["vehicle_id"] != v["vehicle_id"] or r["member_id"] != m["member_id"]:
            raise RefError("reservation is not this member's booking of this vehicle")
    if v["status"] == "retired":
        raise RefError("vehicle is retired")
    if sev == "major":
        if v["status"] == "in_use":
            raise RefError("end the trip before reporting major damage")
        if any(d["vehicle_id"] == v["vehicle_id"] and d["severity"] == "major" and d["status"] == "open"
               for d in db["damage_reports"].values()):
            raise RefError("vehicle already has an open major report")
    did = _next_id(db, "damage_reports", "D")
    rec = {"report_id": did, "vehicle_id": v["vehicle_id"], "member_id": m["member_id"],
           "reservation_id": rid, "severity": sev, "description": text, "status": "open",
           "reported_on": db["meta"]["today"], "resolved_on": None}
    db["damage_reports"][did] = rec
    if sev == "major":
        _ground(db, v)
    return _out(rec)

def return_vehicle_to_service(db, a):
    v = _get(db, "vehicles", "vehicle_id", a)
    if v["status"] != "maintenance":
        raise RefError("vehicle is not in maintenance")
    v["status"] = "available"
    v["next_service_km"] = v["odometer_km"] + SERVICE_INTERVAL
    for d in db["damage_reports"].values():
        if d["vehicle_id"] == v["vehicle_id"] and d["status"] == "open":
            d.update(status="resolved", resolved_on=db["meta"]["today"])
    return _out(v)

def pay_invoice(db, a):
    inv = _get(db, "invoices", "invoice_id", a)
    method = _enum(a, "payment_method", ("card", "sepa_debit"), required=True)
    if inv["status"] != "open":
        raise RefError("invoice is already paid")
    m = db["members"][inv["member_id"]]
    inv.update(status="paid", paid_on=db["meta"]["today"], payment_method=method)
    m["balance"] = float(max(Decimal(0), _money(Decimal(str(m["balance"])) - Decimal(str(inv["amount"])))))
    return _out(inv)

def invoke(db, name, args):
    if name not in REQUIRED:
        raise RefError(f"unknown tool {name}")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    allowed = REQUIRED[name] | OPTIONAL.get(name, set())
    extra = set(args) - allowed
    if extra:
        raise RefError(f"unknown arguments {sorted(extra)}")
    missing = [k for k in REQUIRED[name] if args.get(k) is None]
    if missing:
        raise RefError(f"missing arguments {sorted(missing)}")
    return globals()[name](db, args)
