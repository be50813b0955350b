"""Reference implementation of the regional blood service API (stdlib only).

invoke(db, name, args) mutates db in place and returns a JSON-serialisable result, or raises RefError.
"""
import copy
import datetime as dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_donor", "book_appointment", "cancel_appointment", "record_donation",
               "record_test_result", "discard_unit", "create_request", "reserve_units",
               "dispatch_request", "cancel_request"}

BLOOD_GROUPS = {"O-", "O+", "A-", "A+", "B-", "B+", "AB-", "AB+"}
COMPONENTS = {"whole_blood", "plasma", "platelets"}
DONOR_STATUS = {"active", "permanently_deferred"}
APPT_STATUS = {"booked", "attended", "deferred", "cancelled", "no_show"}
UNIT_STATUS = {"quarantined", "available", "reserved", "dispatched", "discarded"}
REQ_STATUS = {"open", "partially_reserved", "reserved", "dispatched", "cancelled"}
PRIORITIES = {"routine", "urgent", "emergency"}
STAFF_CANCEL = {"donor_request", "illness", "travel", "centre_request"}
DISCARD_REASONS = {"expired", "damaged", "temperature_breach"}
REQ_CANCEL = {"no_longer_needed", "duplicate", "patient_transferred"}
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

SHELF_DAYS = {"whole_blood": 35, "plasma": 365, "platelets": 5}
VOLUME = {"whole_blood": (405, 495), "plasma": (500, 880), "platelets": (180, 400)}
HB_MIN = {"F": 12.5, "M": 13.0}
FEE = {"whole_blood": Decimal("185.00"), "plasma": Decimal("92.50"), "platelets": Decimal("410.00")}
SURCHARGE = {"routine": Decimal("0"), "urgent": Decimal("10"), "emergency": Decimal("25")}
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

SIGNATURES = {
    "search_donors": (set(), {"q", "blood_group", "status", "home_centre_id"}),
    "list_appointments": (set(), {"donor_id", "centre_id", "date", "status"}),
    "list_units": (set(), {"status", "component", "blood_group", "centre_id", "expiring_by"}),
    "list_requests": (set(), {"hospital_id", "status", "priority"}),
    "register_donor": ({"first_name", "last_name", "email", "birth_date", "sex", "blood_group", "weight_kg",
                        "home_centre_id"}, {"phone"}),
    "book_appointment": ({"donor_id", "centre_id", "date", "donation_type"}, set()),
    "cancel_appointment": ({"appointment_id", "reason"}, set()),
    "record_donation": ({"appointment_id", "hemoglobin_g_dl", "volume_ml"}, set()),
    "record_test_result": ({"unit_id", "result"}, set()),
    "discard_unit": ({"unit_id", "reason"}, set()),
    "create_request": ({"hospital_id", "component", "blood_group", "units_requested", "priority", "needed_by"},
                       set()),
    "reserve_units": ({"request_id"}, set()),
    "dispatch_request": ({"request_id"}, set()),
    "cancel_request": ({"request_id", "reason"}, set()),
}


# ------------------------------------------------------------------ argument helpers
def _s(a, k):
    v = a.get(k)
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{k} must be a non-empty string")
    return v


def _enum(a, k, allowed):
    v = a.get(k)
    if not isinstance(v, str) or v not in allowed:
        raise RefError(f"{k} must be one of {sorted(allowed)}")
    return v


def _int(a, k, lo, hi):
    v = a.get(k)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RefError(f"{k} must be an integer in {lo}..{hi}")
    return v


def _date(a, k):
    v = _s(a, k)
    if not DATE_RE.match(v):
        raise RefError(f"{k} must be YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{k} is not a calendar date")


def _get(db, coll, key):
    if not isinstance(key, str) or key not in db[coll]:
        raise RefError(f"unknown {coll} id {key!r}")
    return db[coll][key]


def _today(db):
    return dt.date.fromisoformat(db["meta"]["today"])


def _next_id(db, coll, prefix):
    width, top = 4, 0
    for k in db[coll]:
        if k.startswith(prefix) and k[len(prefix):].isdigit():
            width = len(k) - len(prefix)
            top = max(top, int(k[len(prefix):]))
    return f"{prefix}{top + 1:0{width}d}"


def _age(birth, on):
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


def _money(x):
    return float(Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _opt(a, k, fn, *extra):
    return fn(a, k, *extra) if k in a else None


def _ref(db, a, k, coll):
    return _get(db, coll, a[k])[k] if k in a else None


# ------------------------------------------------------------------ reads
def search_donors(db, a):
    q = _s(a, "q").lower() if "q" in a else None
    grp = _opt(a, "blood_group", _enum, BLOOD_GROUPS)
    st = _opt(a, "status", _enum, DONOR_STATUS)
    cen = _get(db, "centres", a["home_centre_id"])["centre_id"] if "home_centre_id" in a else None
    out = []
    for k in sorted(db["donors"]):
        d = db["donors"][k]
        if q is not None and q not in f"{d['first_name']} {d['last_name']}".lower() and q not in d["email"].lower():
            continue
        if (grp and d["blood_group"] != grp) or (st and d["status"] != st) or (cen and d["home_centre_id"] != cen):
            continue
        out.append(copy.deepcopy(d))
    return out


def list_appointments(db, a):
    don, cen = _ref(db, a, "donor_id", "donors"), _ref(db, a, "centre_id", "centres")
    day = _date(a, "date").isoformat() if "date" in a else None
    st = _opt(a, "status", _enum, APPT_STATUS)
    return [copy.deepcopy(x) for k, x in sorted(db["appointments"].items())
            if (not don or x["donor_id"] == don) and (not cen or x["centre_id"] == cen)
            and (not day or x["date"] == day) and (not st or x["status"] == st)]


def list_units(db, a):
    st = _opt(a, "status", _enum, UNIT_STATUS)
    comp = _opt(a, "component", _enum, COMPONENTS)
    grp = _opt(a, "blood_group", _enum, BLOOD_GROUPS)
    cen = _ref(db, a, "centre_id", "centres")
    by = _date(a, "expiring_by").isoformat() if "expiring_by" in a else None
    return [copy.deepcopy(u) for k, u in sorted(db["units"].items())
            if (not st or u["status"] == st) and (not comp or u["component"] == comp)
            and (not grp or u["blood_group"] == grp) and (not cen or u["centre_id"] == cen)
            and (not by or u["expires_on"] <= by)]


def list_requests(db, a):
    hid = _ref(db, a, "hospital_id", "hospitals")
    st = _opt(a, "status", _enum, REQ_STATUS)
    pr = _opt(a, "priority", _enum, PRIORITIES)
    return [copy.deepcopy(r) for k, r in sorted(db["requests"].items())
            if (not hid or r["hospital_id"] == hid) and (not st or r["status"] == st)
            and (not pr or r["priority"] == pr)]


# ------------------------------------------------------------------ donors and appointments
def register_donor(db, a):
    today = _today(db)
    first, last = _s(a, "first_name"), _s(a, "last_name")
    email = _s(a, "email").lower()
    if not EMAIL_RE.match(email):
        raise RefError("malformed email")
    birth = _date(a, "birth_date")
    sex = _enum(a, "sex", {"F", "M"})
    grp = _enum(a, "blood_group", BLOOD_GROUPS)
    weight = _int(a, "weight_kg", 50, 250)
    centre = _get(db, "centres", a["home_centre_id"])
    phone = _s(a, "phone") if "phone" in a else None
    if centre["status"] != "open":
        raise RefError("home centre is closed")
    if not 18 <= _age(birth, today) <= 65:
        raise RefError("new donors must be 18 to 65 years old")
    for d in db["donors"].values():
        if d["email"].lower() == email:
            raise RefError("email already registered")
        if (d["first_name"].lower(), d["last_name"].lower(), d["birth_date"]) == \
                (first.lower(), last.lower(), birth.isoformat()):
            raise RefError("this person is already registered")
    did = _next_id(db, "donors", "DNR-")
    rec = db["donors"][did] = {
        "donor_id": did, "first_name": first, "last_name": last, "email": email, "phone": phone, "sex": sex,
        "birth_date": birth.isoformat(), "blood_group": grp, "weight_kg": weight,
        "home_centre_id": centre["centre_id"], "status": "active", "deferred_until": None, "total_donations": 0,
        "last_donation_date": None, "last_donation_type": None, "late_cancellations": 0,
        "registered_on": today.isoformat()}
    return copy.deepcopy(rec)


def book_appointment(db, a):
    today = _today(db)
    donor = _get(db, "donors", a["donor_id"])
    centre = _get(db, "centres", a["centre_id"])
    day = _date(a, "date")
    dtype = _enum(a, "donation_type", COMPONENTS)
    if not today + dt.timedelta(days=1) <= day <= today + dt.timedelta(days=42):
        raise RefError("appointments are booked 1 to 42 days ahead")
    if centre["status"] != "open":
        raise RefError("centre closed")
    if WEEKDAYS[day.weekday()] in centre["closed_weekdays"]:
        raise RefError("centre does not run sessions on that weekday")
    if dtype != "whole_blood" and not centre["apheresis"]:
        raise RefError("plasma and platelets need an apheresis centre")
    if donor["status"] != "active":
        raise RefError("donor permanently deferred")
    if donor["late_cancellations"] >= 3:
        raise RefError("too many late cancellations")
    if any(x["donor_id"] == donor["donor_id"] and x["status"] == "booked" for x in db["appointments"].values()):
        raise RefError("donor already holds a booking")
    if donor["deferred_until"] and day.isoformat() <= donor["deferred_until"]:
        raise RefError("donor deferred on that date")
    age = _age(dt.date.fromisoformat(donor["birth_date"]), day)
    if age < 18 or age > (65 if donor["total_donations"] == 0 else 70):
        raise RefError("age outside the donation limits")
    if donor["weight_kg"] < (60 if dtype == "platelets" else 50):
        raise RefError("donor weight too low")
    if donor["last_donation_date"]:
        lt = donor["last_donation_type"]
        gap = 14 if lt == "plasma" else 7 if lt == "platelets" else (84 if donor["sex"] == "F" else 56)
        if (day - dt.date.fromisoformat(donor["last_donation_date"])).days < gap:
            raise RefError("too soon after the last donation")
    used = sum(1 for x in db["appointments"].values() if x["centre_id"] == centre["centre_id"]
               and x["date"] == day.isoformat() and x["status"] != "cancelled")
    if used >= centre["daily_capacity"]:
        raise RefError("centre fully booked that day")
    aid = _next_id(db, "appointments", "APT-")
    rec = db["appointments"][aid] = {
        "appointment_id": aid, "donor_id": donor["donor_id"], "centre_id": centre["centre_id"],
        "date": day.isoformat(), "donation_type": dtype, "status": "booked", "booked_on": today.isoformat(),
        "cancelled_on": None, "cancel_reason": None, "hemoglobin_g_dl": None, "unit_id": None}
    return copy.deepcopy(rec)


def cancel_appointment(db, a):
    today = _today(db)
    ap = _get(db, "appointments", a["appointment_id"])
    reason = _enum(a, "reason", STAFF_CANCEL)
    if ap["status"] != "booked":
        raise RefError("only booked appointments can be cancelled")
    day = dt.date.fromisoformat(ap["date"])
    if day < today:
        raise RefError("appointment date has passed")
    if reason != "centre_request" and (day - today).days <= 1:
        db["donors"][ap["donor_id"]]["late_cancellations"] += 1
    ap.update(status="cancelled", cancelled_on=today.isoformat(), cancel_reason=reason)
    return copy.deepcopy(ap)


def record_donation(db, a):
    today = _today(db)
    ap = _get(db, "appointments", a["appointment_id"])
    hb = a.get("hemoglobin_g_dl")
    if isinstance(hb, bool) or not isinstance(hb, (int, float)) or not 5.0 <= hb <= 25.0:
        raise RefError("hemoglobin_g_dl must be a number in 5.0..25.0")
    vol = _int(a, "volume_ml", 1, 1000)
    if ap["status"] != "booked":
        raise RefError("appointment is not booked")
    if ap["date"] != today.isoformat():
        raise RefError("only today's appointments can be recorded")
    donor = db["donors"][ap["donor_id"]]
    if donor["status"] != "active":
        raise RefError("donor permanently deferred")
    dtype = ap["donation_type"]
    lo, hi = VOLUME[dtype]
    if hb >= HB_MIN[donor["sex"]] and not lo <= vol <= hi:
        raise RefError("volume outside the range for this component")
    ap["hemoglobin_g_dl"] = float(hb)
    if hb < HB_MIN[donor["sex"]]:
        ap["status"] = "deferred"
        until = (today + dt.timedelta(days=28)).isoformat()
        if not donor["deferred_until"] or donor["deferred_until"] < until:
            donor["deferred_until"] = until
        return {"appointment": copy.deepcopy(ap), "unit": None}
    uid = _next_id(db, "units", "UNIT-")
    unit = db["units"][uid] = {
        "unit_id": uid, "donor_id": donor["donor_id"], "appointment_id": ap["appointment_id"],
        "centre_id": ap["centre_id"], "component": dtype, "blood_group": donor["blood_group"], "volume_ml": vol,
        "collected_on": today.isoformat(), "expires_on": (today + dt.timedelta(days=SHELF_DAYS[dtype])).isoformat(),
        "status": "quarantined", "test_result": "pending", "released_on": None, "request_id": None,
        "dispatched_on": None, "discarded_on": None, "discard_reason": None}
    ap.update(status="attended", unit_id=uid)
    donor["total_donations"] += 1
    donor["last_donation_date"] = today.isoformat()
    donor["last_donation_type"] = dtype
    return {"appointment": copy.deepcopy(ap), "unit": copy.deepcopy(unit)}


# ------------------------------------------------------------------ units
def _drop_from_request(db, unit):
    req = db["requests"][unit["request_id"]]
    req["unit_ids"] = [u for u in req["unit_ids"] if u != unit["unit_id"]]
    req["units_reserved"] = len(req["unit_ids"])
    req["status"] = "partially_reserved" if req["unit_ids"] else "open"
    unit["request_id"] = None


def record_test_result(db, a):
    today = _today(db).isoformat()
    unit = _get(db, "units", a["unit_id"])
    result = _enum(a, "result", {"negative", "reactive"})
    if unit["status"] != "quarantined":
        raise RefError("unit is not in quarantine")
    if result == "negative":
        if unit["expires_on"] < today:
            raise RefError("expired unit cannot be released")
        unit.update(status="available", test_result="negative", released_on=today)
        return copy.deepcopy(unit)
    unit.update(status="discarded", test_result="reactive", discarded_on=today, discard_reason="reactive_test")
    donor = db["donors"][unit["donor_id"]]
    donor["status"] = "permanently_deferred"
    for k in sorted(db["units"]):
        o = db["units"][k]
        if o["donor_id"] == donor["donor_id"] and o["status"] in ("quarantined", "available"):
            o.update(status="discarded", discarded_on=today, discard_reason="donor_lookback")
    for ap in db["appointments"].values():
        if ap["donor_id"] == donor["donor_id"] and ap["status"] == "booked":
            ap.update(status="cancelled", cancelled_on=today, cancel_reason="donor_deferred")
    return copy.deepcopy(unit)


def discard_unit(db, a):
    today = _today(db).isoformat()
    unit = _get(db, "units", a["unit_id"])
    reason = _enum(a, "reason", DISCARD_REASONS)
    if unit["status"] not in ("quarantined", "available", "reserved"):
        raise RefError("unit already left the inventory")
    if reason == "expired" and unit["expires_on"] >= today:
        raise RefError("unit has not expired")
    if unit["status"] == "reserved":
        _drop_from_request(db, unit)
    unit.update(status="discarded", discarded_on=today, discard_reason=reason)
    return copy.deepcopy(unit)


# ------------------------------------------------------------------ hospital requests
ACTIVE_REQ = ("open", "partially_reserved", "reserved")


def create_request(db, a):
    today = _today(db)
    hosp = _get(db, "hospitals", a["hospital_id"])
    comp = _enum(a, "component", COMPONENTS)
    grp = _enum(a, "blood_group", BLOOD_GROUPS)
    n = _int(a, "units_requested", 1, 8)
    prio = _enum(a, "priority", PRIORITIES)
    need = _date(a, "needed_by")
    if hosp["status"] != "active":
        raise RefError("hospital account suspended")
    lo, hi = {"routine": (1, 14), "urgent": (0, 3), "emergency": (0, 0)}[prio]
    if not lo <= (need - today).days <= hi:
        raise RefError("needed_by outside the window for this priority")
    if prio == "routine" and hosp["balance_due"] > hosp["credit_limit"]:
        raise RefError("hospital over its credit limit")
    for r in db["requests"].values():
        if (r["hospital_id"], r["component"], r["blood_group"]) == (hosp["hospital_id"], comp, grp) \
                and r["status"] in ACTIVE_REQ:
            raise RefError("an active request for this component and group already exists")
    rid = _next_id(db, "requests", "REQ-")
    rec = db["requests"][rid] = {
        "request_id": rid, "hospital_id": hosp["hospital_id"], "component": comp, "blood_group": grp,
        "units_requested": n, "priority": prio, "needed_by": need.isoformat(), "status": "open", "unit_ids": [],
        "units_reserved": 0, "units_dispatched": 0, "created_on": today.isoformat(), "dispatched_on": None,
        "cancelled_on": None, "cancel_reason": None, "total_fee": None}
    return copy.deepcopy(rec)


def reserve_units(db, a):
    today = _today(db).isoformat()
    req = _get(db, "requests", a["request_id"])
    if req["status"] not in ("open", "partially_reserved"):
        raise RefError("request cannot take reservations")
    if req["needed_by"] < today:
        raise RefError("request has lapsed")
    want = req["units_requested"] - len(req["unit_ids"])

    def pool(group):
        return sorted((u for u in db["units"].values() if u["status"] == "available"
                       and u["component"] == req["component"] and u["blood_group"] == group
                       and u["expires_on"] >= req["needed_by"]), key=lambda u: (u["expires_on"], u["unit_id"]))

    cands = pool(req["blood_group"])
    if req["priority"] == "emergency" and req["component"] == "whole_blood" and req["blood_group"] != "O-":
        cands += pool("O-")
    take = cands[:want]
    if not take:
        raise RefError("no suitable units available")
    for u in take:
        u.update(status="reserved", request_id=req["request_id"])
        req["unit_ids"].append(u["unit_id"])
    req["units_reserved"] = len(req["unit_ids"])
    req["status"] = "reserved" if req["units_reserved"] == req["units_requested"] else "partially_reserved"
    return copy.deepcopy(req)


def dispatch_request(db, a):
    today = _today(db).isoformat()
    req = _get(db, "requests", a["request_id"])
    if not (req["status"] == "reserved" or (req["status"] == "partially_reserved" and req["priority"] == "emergency")):
        raise RefError("request is not ready for dispatch")
    hosp = db["hospitals"][req["hospital_id"]]
    n = len(req["unit_ids"])
    for uid in req["unit_ids"]:
        db["units"][uid].update(status="dispatched", dispatched_on=today)
    total = n * FEE[req["component"]] * (100 + SURCHARGE[req["priority"]]) / 100 \
        * (100 - Decimal(hosp["contract_discount_pct"])) / 100
    fee = _money(total)
    req.update(status="dispatched", units_dispatched=n, units_reserved=0, dispatched_on=today, total_fee=fee)
    hosp["units_received"] += n
    hosp["balance_due"] = _money(Decimal(str(hosp["balance_due"])) + Decimal(str(fee)))
    return copy.deepcopy(req)


def cancel_request(db, a):
    today = _today(db).isoformat()
    req = _get(db, "requests", a["request_id"])
    reason = _enum(a, "reason", REQ_CANCEL)
    if req["status"] not in ACTIVE_REQ:
        raise RefError("request already closed")
    for uid in req["unit_ids"]:
        db["units"][uid].update(status="available", request_id=None)
    req.update(status="cancelled", cancelled_on=today, cancel_reason=reason, unit_ids=[], units_reserved=0)
    return copy.deepcopy(req)


TOOLS = {n: globals()[n] for n in SIGNATURES}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError(f"unknown tool {name!r}")
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    args = {k: v for k, v in args.items() if v is not None}
    req, opt = SIGNATURES[name]
    if set(args) - req - opt:
        raise RefError(f"unknown arguments {sorted(set(args) - req - opt)}")
    if req - set(args):
        raise RefError(f"missing arguments {sorted(req - set(args))}")
    return TOOLS[name](db, args)
