"""Reference implementation of the Larkspur Canyon campground reservation API (stdlib only)."""
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_camper", "create_reservation", "change_reservation_dates",
               "cancel_reservation", "check_in", "check_out", "mark_no_show", "issue_permit",
               "close_campsite"}

SITE_TYPES = ("tent", "rv", "group", "cabin")
SITE_STATUSES = ("open", "closed")
PASS_TYPES = ("none", "senior", "access")
CAMPER_STATUSES = ("active", "suspended")
RES_STATUSES = ("reserved", "checked_in", "checked_out", "cancelled", "no_show")
CANCEL_REASONS = ("change_of_plans", "weather", "illness", "other")
PERMIT_TYPES = ("campfire", "generator", "extra_vehicle")
PERMIT_STATUSES = ("issued", "void")
ACTIVE = ("reserved", "checked_in")

RESERVATION_FEE = Decimal("8.00")
WEEKEND_SURCHARGE = Decimal("5.00")
PERMIT_FEES = {"campfire": Decimal("5.00"), "generator": Decimal("4.00"),
               "extra_vehicle": Decimal("10.00")}
PER_NIGHT = ("generator", "extra_vehicle")
MAX_NIGHTS = 14
BOOKING_WINDOW = 180
MAX_RESERVED = 3
MAX_DATE_CHANGES = 2
NO_SHOW_LIMIT = 3
GROUP_MIN_PARTY = 8
CENT = Decimal("0.01")
EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
PLATE_RE = re.compile(r"[A-Za-z0-9-]{2,8}")
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")


def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def dec(x):
    return Decimal(str(x))


def num(x):
    return float(q2(x))


def _arg(a, k, ok, required, default, what):
    """Read argument k: null counts as absent; a present value must satisfy ok()."""
    v = a.get(k)
    if v is None:
        if required:
            raise RefError(f"missing argument {k}")
        return default
    if not ok(v):
        raise RefError(f"{k} must be {what}")
    return v


def _req(a, k):
    return _arg(a, k, lambda v: True, True, None, "given")


def _str(a, k, required=True):
    return _arg(a, k, lambda v: isinstance(v, str) and v.strip(), required, None, "non-blank text")


def _int(a, k, required=True, default=None):
    return _arg(a, k, lambda v: isinstance(v, int) and not isinstance(v, bool), required, default,
                "an integer")


def _bool(a, k):
    return _arg(a, k, lambda v: isinstance(v, bool), False, None, "a boolean")


def _enum(a, k, values, required=True, default=None):
    return _arg(a, k, lambda v: isinstance(v, str) and v in values, required, default, f"one of {values}")


def _date(a, k, required=True):
    def ok(v):
        try:
            return isinstance(v, str) and DATE_RE.fullmatch(v) and _dt.date.fromisoformat(v)
        except ValueError:
            return False
    v = _arg(a, k, ok, required, None, "a date YYYY-MM-DD")
    return None if v is None else _dt.date.fromisoformat(v)


def _d(s):
    return _dt.date.fromisoformat(s)


def _today(db):
    return _d(db["meta"]["today"])


def _get(db, coll, k, rid):
    if not isinstance(rid, str) or rid not in db[coll]:
        raise RefError(f"{k} {rid!r} not found")
    return db[coll][rid]


def _next_id(coll):
    best = None
    for key in coll:
        m = re.fullmatch(r"([A-Za-z-]*)(\d+)", key)
        if m and (best is None or int(m.group(2)) > int(best[1])):
            best = (m.group(1), m.group(2))
    return f"{best[0]}{int(best[1]) + 1:0{len(best[1])}d}"


def _overlaps(a1, d1, a2, d2):
    return a1 < d2 and a2 < d1


def nightly_fees(site, camper, arrival, departure):
    base = Decimal(0)
    d = arrival
    while d < departure:
        base += dec(site["nightly_rate"])
        if d.weekday() in (4, 5):
            base += WEEKEND_SURCHARGE
        d += _dt.timedelta(days=1)
    discount = Decimal(0)
    if camper["pass_type"] in ("senior", "access") and site["site_type"] in ("tent", "rv"):
        discount = q2(base * Decimal("0.5"))
    return base - discount, discount


def _check_dates(db, arrival, departure):
    today = _today(db)
    if arrival < today:
        raise RefError("arrival_date is in the past")
    if (arrival - today).days > BOOKING_WINDOW:
        raise RefError("arrival_date beyond the booking window")
    nights = (departure - arrival).days
    if nights < 1:
        raise RefError("departure_date must be after arrival_date")
    if nights > MAX_NIGHTS:
        raise RefError("stay longer than 14 nights")
    return nights


def _check_free(db, site_id, camper_id, arrival, departure, skip=None):
    for rid, r in db["reservations"].items():
        if rid == skip or r["status"] not in ACTIVE:
            continue
        if not _overlaps(arrival, departure, _d(r["arrival_date"]), _d(r["departure_date"])):
            continue
        if r["site_id"] == site_id:
            raise RefError("campsite already booked for some of these nights")
        if r["camper_id"] == camper_id:
            raise RefError("camper already holds a reservation for some of these nights")


def _permits_of(db, rid):
    return [p for _, p in sorted(db["permits"].items())
            if p["reservation_id"] == rid and p["status"] == "issued"]


def _settle(r):
    r["amount_paid"] = num(dec(r["nightly_fees"]) + dec(r["reservation_fee"])
                           + dec(r["permit_fees"]) + dec(r["late_fee"]))


def _void_permits(db, rid):
    total = Decimal(0)
    for p in _permits_of(db, rid):
        total += dec(p["fee"])
        p["status"] = "void"
    return total


def list_campsites(db, a):
    st = _enum(a, "site_type", SITE_TYPES, False)
    loop = _str(a, "loop", False)
    acc = _bool(a, "accessible")
    elec = _bool(a, "electric_hookup")
    status = _enum(a, "status", SITE_STATUSES, False)
    party = _int(a, "party_size", False)
    if party is not None and party < 1:
        raise RefError("party_size must be at least 1")
    arr, dep = _date(a, "arrival_date", False), _date(a, "departure_date", False)
    if (arr is None) != (dep is None):
        raise RefError("arrival_date and departure_date go together")
    if arr is not None and dep <= arr:
        raise RefError("departure_date must be after arrival_date")
    out = []
    for sid, s in sorted(db["campsites"].items()):
        if st and s["site_type"] != st or loop and s["loop"] != loop.upper():
            continue
        if acc is not None and s["accessible"] != acc or elec is not None and s["electric_hookup"] != elec:
            continue
        if status and s["status"] != status or party is not None and s["max_occupancy"] < party:
            continue
        if arr is not None:
            if s["status"] != "open" or any(
                    r["site_id"] == sid and r["status"] in ACTIVE and
                    _overlaps(arr, dep, _d(r["arrival_date"]), _d(r["departure_date"]))
                    for r in db["reservations"].values()):
                continue
        out.append(s)
    return out


def close_campsite(db, a):
    s = _get(db, "campsites", "site_id", _req(a, "site_id"))
    reason = _str(a, "reason")
    if s["status"] == "closed":
        raise RefError("campsite already closed")
    if s["current_reservation_id"]:
        raise RefError("a party is checked in on this campsite")
    today = db["meta"]["today"]
    cancelled = []
    for rid, r in sorted(db["reservations"].items()):
        if r["site_id"] == s["site_id"] and r["status"] == "reserved":
            _void_permits(db, rid)
            r.update(status="cancelled", cancelled_on=today, cancel_reason="site_closed",
                     refund_amount=r["amount_paid"])
            cancelled.append(rid)
    s["status"], s["closed_reason"] = "closed", reason
    return {"campsite": s, "cancelled_reservation_ids": cancelled}


def get_camper(db, a):
    return _get(db, "campers", "camper_id", _req(a, "camper_id"))


def register_camper(db, a):
    name = _str(a, "full_name")
    email = _str(a, "email")
    phone = _str(a, "phone", False)
    pass_type = _enum(a, "pass_type", PASS_TYPES, False, "none")
    if not EMAIL_RE.fullmatch(email):
        raise RefError("email is not a valid address")
    if any(c["email"].lower() == email.lower() for c in db["campers"].values()):
        raise RefError("a camper with this email already exists")
    cid = _next_id(db["campers"])
    rec = {"camper_id": cid, "full_name": name, "email": email.lower(), "phone": phone,
           "pass_type": pass_type, "status": "active", "no_show_count": 0,
           "stays_completed": 0, "created_on": db["meta"]["today"]}
    db["campers"][cid] = rec
    return rec


def get_reservation(db, a):
    return _get(db, "reservations", "reservation_id", _req(a, "reservation_id"))


def list_reservations(db, a):
    cid = a.get("camper_id")
    if cid is not None:
        _get(db, "campers", "camper_id", cid)
    sid = a.get("site_id")
    if sid is not None:
        _get(db, "campsites", "site_id", sid)
    status = _enum(a, "status", RES_STATUSES, False)
    frm, to = _date(a, "arrival_from", False), _date(a, "arrival_to", False)
    name = _str(a, "camper_name", False)
    out = []
    for rid, r in sorted(db["reservations"].items()):
        if cid and r["camper_id"] != cid or sid and r["site_id"] != sid:
            continue
        if status and r["status"] != status:
            continue
        if frm and _d(r["arrival_date"]) < frm or to and _d(r["arrival_date"]) > to:
            continue
        if name and name.lower() not in db["campers"][r["camper_id"]]["full_name"].lower():
            continue
        out.append(r)
    return out


def create_reservation(db, a):
    c = _get(db, "campers", "camper_id", _req(a, "camper_id"))
    s = _get(db, "campsites", "site_id", _req(a, "site_id"))
    arr, dep = _date(a, "arrival_date"), _date(a, "departure_date")
    party = _int(a, "party_size")
    vehicles = _int(a, "vehicles", False, 1)
    if c["status"] != "active":
        raise RefError("camper is suspended")
    if s["status"] != "open":
        raise RefError("campsite is closed")
    nights = _check_dates(db, arr, dep)
    if party < 1 or party > s["max_occupancy"]:
        raise RefError("party_size outside the campsite's occupancy")
    if s["site_type"] == "group" and party < GROUP_MIN_PARTY:
        raise RefError("group sites need a party of at least 8")
    if vehicles < 0 or vehicles > s["max_vehicles"]:
        raise RefError("too many vehicles for this campsite")
    if sum(1 for r in db["reservations"].values()
           if r["camper_id"] == c["camper_id"] and r["status"] == "reserved") >= MAX_RESERVED:
        raise RefError("camper already holds 3 upcoming reservations")
    _check_free(db, s["site_id"], c["camper_id"], arr, dep)
    fees, discount = nightly_fees(s, c, arr, dep)
    rid = _next_id(db["reservations"])
    r = {"reservation_id": rid, "camper_id": c["camper_id"], "site_id": s["site_id"],
         "arrival_date": arr.isoformat(), "departure_date": dep.isoformat(), "nights": nights,
         "party_size": party, "vehicles": vehicles, "status": "reserved",
         "nightly_fees": num(fees), "discount_amount": num(discount),
         "reservation_fee": num(RESERVATION_FEE), "permit_fees": 0.0, "late_fee": 0.0,
         "amount_paid": 0.0, "refund_amount": 0.0, "date_changes": 0,
         "booked_on": db["meta"]["today"], "checked_in_on": None, "checked_out_on": None,
         "cancelled_on": None, "cancel_reason": None}
    _settle(r)
    db["reservations"][rid] = r
    return r


def change_reservation_dates(db, a):
    r = _get(db, "reservations", "reservation_id", _req(a, "reservation_id"))
    arr, dep = _date(a, "arrival_date"), _date(a, "departure_date")
    if r["status"] != "reserved":
        raise RefError("only reserved reservations can be changed")
    if _d(r["arrival_date"]) <= _today(db):
        raise RefError("dates can only be changed before the arrival day")
    if r["date_changes"] >= MAX_DATE_CHANGES:
        raise RefError("dates were already changed twice")
    nights = _check_dates(db, arr, dep)
    _check_free(db, r["site_id"], r["camper_id"], arr, dep, skip=r["reservation_id"])
    s, c = db["campsites"][r["site_id"]], db["campers"][r["camper_id"]]
    fees, discount = nightly_fees(s, c, arr, dep)
    permit_total = Decimal(0)
    for p in _permits_of(db, r["reservation_id"]):
        if p["permit_type"] in PER_NIGHT:
            p["fee"] = num(PERMIT_FEES[p["permit_type"]] * nights)
        p["valid_from"], p["valid_to"] = arr.isoformat(), dep.isoformat()
        permit_total += dec(p["fee"])
    r.update(arrival_date=arr.isoformat(), departure_date=dep.isoformat(), nights=nights,
             nightly_fees=num(fees), discount_amount=num(discount),
             permit_fees=num(permit_total), date_changes=r["date_changes"] + 1)
    _settle(r)
    return r


def cancel_reservation(db, a):
    r = _get(db, "reservations", "reservation_id", _req(a, "reservation_id"))
    reason = _enum(a, "reason", CANCEL_REASONS)
    if r["status"] != "reserved":
        raise RefError("only reserved reservations can be cancelled")
    days = (_d(r["arrival_date"]) - _today(db)).days
    if days < 0:
        raise RefError("the arrival day has passed")
    pct = Decimal("1") if days >= 14 else Decimal("0.8") if days >= 2 else Decimal("0.5")
    permits = _void_permits(db, r["reservation_id"])
    r.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason,
             refund_amount=num(q2(dec(r["nightly_fees"]) * pct) + permits))
    return r


def check_in(db, a):
    r = _get(db, "reservations", "reservation_id", _req(a, "reservation_id"))
    if r["status"] != "reserved":
        raise RefError("only reserved reservations can check in")
    today = _today(db)
    if today < _d(r["arrival_date"]):
        raise RefError("too early: check-in opens on the arrival day")
    if today >= _d(r["departure_date"]):
        raise RefError("the stay is already over")
    s = db["campsites"][r["site_id"]]
    if s["status"] != "open":
        raise RefError("campsite is closed")
    if s["current_reservation_id"]:
        raise RefError("the previous party has not checked out yet")
    r.update(status="checked_in", checked_in_on=db["meta"]["today"])
    s["current_reservation_id"] = r["reservation_id"]
    return r


def check_out(db, a):
    r = _get(db, "reservations", "reservation_id", _req(a, "reservation_id"))
    if r["status"] != "checked_in":
        raise RefError("only checked-in reservations can check out")
    today, dep = _today(db), _d(r["departure_date"])
    s = db["campsites"][r["site_id"]]
    if today < dep:
        unused = (dep - today).days
        r["refund_amount"] = num(q2(dec(r["nightly_fees"]) * unused / r["nights"]))
    elif today > dep:
        r["late_fee"] = num(dec(s["nightly_rate"]) * (today - dep).days)
        _settle(r)
    r.update(status="checked_out", checked_out_on=db["meta"]["today"])
    if s["current_reservation_id"] == r["reservation_id"]:
        s["current_reservation_id"] = None
    c = db["campers"][r["camper_id"]]
    c["stays_completed"] += 1
    return r


def mark_no_show(db, a):
    r = _get(db, "reservations", "reservation_id", _req(a, "reservation_id"))
    if r["status"] != "reserved":
        raise RefError("only reserved reservations can be marked no-show")
    if _today(db) <= _d(r["arrival_date"]):
        raise RefError("a no-show can only be recorded after the arrival day")
    _void_permits(db, r["reservation_id"])
    r["status"] = "no_show"
    c = db["campers"][r["camper_id"]]
    c["no_show_count"] += 1
    if c["no_show_count"] >= NO_SHOW_LIMIT:
        c["status"] = "suspended"
    return r


def list_permits(db, a):
    rid = a.get("reservation_id")
    if rid is not None:
        _get(db, "reservations", "reservation_id", rid)
    pt = _enum(a, "permit_type", PERMIT_TYPES, False)
    st = _enum(a, "status", PERMIT_STATUSES, False)
    return [p for _, p in sorted(db["permits"].items())
            if (rid is None or p["reservation_id"] == rid) and (pt is None or p["permit_type"] == pt)
            and (st is None or p["status"] == st)]


def issue_permit(db, a):
    r = _get(db, "reservations", "reservation_id", _req(a, "reservation_id"))
    pt = _enum(a, "permit_type", PERMIT_TYPES)
    plate = _str(a, "vehicle_plate", False)
    if r["status"] not in ACTIVE:
        raise RefError("permits are only issued for reserved or checked-in reservations")
    s = db["campsites"][r["site_id"]]
    if any(p["permit_type"] == pt for p in _permits_of(db, r["reservation_id"])):
        raise RefError("this reservation already holds a permit of this type")
    if pt == "campfire":
        if s["site_type"] == "cabin":
            raise RefError("cabins have no fire ring")
        if s["loop"] in db["meta"]["fire_ban_loops"]:
            raise RefError("campfires are banned in this loop")
    if pt == "generator" and s["site_type"] != "rv":
        raise RefError("generators are only allowed on rv sites")
    if pt == "extra_vehicle":
        if plate is None:
            raise RefError("vehicle_plate is required for an extra vehicle permit")
        if not PLATE_RE.fullmatch(plate):
            raise RefError("vehicle_plate must be 2-8 letters, digits or hyphens")
        if r["vehicles"] < s["max_vehicles"]:
            raise RefError("the campsite still has a free vehicle space")
        plate = plate.upper()
    elif plate is not None:
        raise RefError("vehicle_plate only applies to extra vehicle permits")
    fee = PERMIT_FEES[pt] * (r["nights"] if pt in PER_NIGHT else 1)
    pid = _next_id(db["permits"])
    p = {"permit_id": pid, "reservation_id": r["reservation_id"], "permit_type": pt,
         "vehicle_plate": plate, "fee": num(fee), "status": "issued",
         "issued_on": db["meta"]["today"], "valid_from": r["arrival_date"],
         "valid_to": r["departure_date"]}
    db["permits"][pid] = p
    r["permit_fees"] = num(dec(r["permit_fees"]) + fee)
    if pt == "extra_vehicle":
        r["vehicles"] += 1
    _settle(r)
    return p


PARAMS = {
    "list_campsites": {"site_type", "loop", "accessible", "electric_hookup", "status", "party_size",
                       "arrival_date", "departure_date"},
    "close_campsite": {"site_id", "reason"},
    "get_camper": {"camper_id"},
    "register_camper": {"full_name", "email", "phone", "pass_type"},
    "get_reservation": {"reservation_id"},
    "list_reservations": {"camper_id", "site_id", "status", "arrival_from", "arrival_to",
                          "camper_name"},
    "create_reservation": {"camper_id", "site_id", "arrival_date", "departure_date", "party_size",
                           "vehicles"},
    "change_reservation_dates": {"reservation_id", "arrival_date", "departure_date"},
    "cancel_reservation": {"reservation_id", "reason"},
    "check_in": {"reservation_id"},
    "check_out": {"reservation_id"},
    "mark_no_show": {"reservation_id"},
    "list_permits": {"reservation_id", "permit_type", "status"},
    "issue_permit": {"reservation_id", "permit_type", "vehicle_plate"},
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
