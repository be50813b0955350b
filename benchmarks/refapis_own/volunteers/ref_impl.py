"""Reference implementation: Copperleaf Food Share volunteer scheduling API (stdlib only)."""
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    """Raised whenever the API would answer with a 4xx."""

WRITE_TOOLS = {"register_volunteer", "add_certification", "create_shift", "cancel_shift", "sign_up",
               "withdraw_signup", "check_in", "check_out", "mark_no_show"}

CERTS = ("food_safety", "first_aid", "forklift", "driver", "youth_safeguarding")
ROLES = ("intake", "sorting", "distribution", "kitchen", "driving", "team_lead")
V_STATUS, LEVELS = ("active", "suspended", "inactive"), ("newcomer", "regular", "mainstay")
E_STATUS, SH_STATUS = ("active", "archived"), ("scheduled", "cancelled")
SH_REASONS = ("weather", "low_turnout", "site_unavailable", "staffing")
SU_STATUS = ("confirmed", "waitlisted", "checked_in", "completed", "no_show", "cancelled")
LIVE = ("confirmed", "waitlisted", "checked_in")
WAITLIST_MAX, STRIKE_LIMIT, MIN_REG_AGE = 5, 3, 14

TIME_RE, DATE_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$"), re.compile(r"^\d{4}-\d{2}-\d{2}$")
EMAIL_RE = re.compile(r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$")
PHONE_RE = re.compile(r"^\d{3}-\d{3}-\d{4}$")

# tool -> its arguments; a trailing "?" marks an optional one. Arguments are strings unless TYPES says otherwise.
SPECS = {
    "list_volunteers": "status? level? certification? q?",
    "get_volunteer": "volunteer_id",
    "register_volunteer": "first_name last_name email date_of_birth phone?",
    "add_certification": "volunteer_id code expires_on",
    "list_events": "status? city? q? on_date?",
    "list_shifts": "event_id? role? status? date_from? date_to? required_certification? open_only?",
    "create_shift": "event_id date start_time end_time role capacity required_certification? min_age?",
    "cancel_shift": "shift_id reason",
    "sign_up": "shift_id volunteer_id",
    "list_signups": "volunteer_id? shift_id? status?",
    "withdraw_signup": "signup_id",
    "check_in": "signup_id time",
    "check_out": "signup_id time",
    "mark_no_show": "signup_id",
}
TYPES = {"open_only": "bool", "capacity": "int", "min_age": "int"}
NULLABLE = {("create_shift", "required_certification")}

# ------------------------------------------------------------------ helpers
def _validate(name, args):
    if name not in SPECS:
        raise RefError("no such tool: %s" % name)
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    spec = {w.rstrip("?"): not w.endswith("?") for w in SPECS[name].split()}
    for k, v in args.items():
        if k not in spec:
            raise RefError("unexpected argument %s" % k)
        kind = TYPES.get(k, "str")
        ok = (v is None and (name, k) in NULLABLE) or (
            isinstance(v, bool) if kind == "bool" else
            isinstance(v, int) and not isinstance(v, bool) if kind == "int" else isinstance(v, str))
        if not ok:
            raise RefError("argument %s has the wrong type" % k)
    missing = [k for k, req in spec.items() if req and k not in args]
    if missing:
        raise RefError("missing argument %s" % missing[0])
    return args

def _one_of(v, allowed, what):
    if v not in allowed:
        raise RefError("%s must be one of %s" % (what, ", ".join(allowed)))
    return v

def _enums(a, table):
    for k, allowed in table.items():
        if k in a:
            _one_of(a[k], allowed, k)

def _day(v, what):
    if not DATE_RE.match(v):
        raise RefError("%s must be YYYY-MM-DD" % what)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a real date" % what)

def _mins(v, what):
    if not TIME_RE.match(v):
        raise RefError("%s must be HH:MM" % what)
    return int(v[:2]) * 60 + int(v[3:])

def _today(db):
    return date.fromisoformat(db["meta"]["today"])

def _fetch(db, coll, rid, label):
    rec = db[coll].get(rid)
    if rec is None:
        raise RefError("%s %s not found" % (label, rid))
    return rec

def _num(rid):
    return int(rid.split("-")[1])

def _new_id(db, coll, prefix):
    return "%s-%d" % (prefix, max(_num(k) for k in db[coll]) + 1)

def _age(dob, on):
    # a 29 February birthday counts from 1 March in non-leap years
    return on.year - dob.year - ((on.month, on.day) < (dob.month, dob.day))

def _r2(x):
    """Round half-up to 2 decimals (x is a Decimal)."""
    return float(x.quantize(Decimal("0.01"), ROUND_HALF_UP))

def _level(hours):
    return "newcomer" if hours < 25 else ("regular" if hours < 100 else "mainstay")

def _span(shift):
    return _mins(shift["start_time"], "start_time"), _mins(shift["end_time"], "end_time")

def _signup(db, a):
    su = _fetch(db, "signups", a["signup_id"], "sign-up")
    return _today(db).isoformat(), su, db["shifts"][su["shift_id"]]

def _valid_cert(vol, code, on_iso):
    return any(c["code"] == code and c["expires_on"] >= on_iso for c in vol["certifications"])

def _release_spot(db, shift):
    """A confirmed spot on `shift` was given up: promote the earliest waitlisted sign-up, if any."""
    waiting = sorted((s for s in db["signups"].values()
                      if s["shift_id"] == shift["id"] and s["status"] == "waitlisted"), key=lambda s: _num(s["id"]))
    if waiting:
        waiting[0]["status"] = "confirmed"
        shift["waitlist_count"] -= 1
    else:
        shift["filled_count"] -= 1

def _cancel_signup(db, su, reason, today):
    """today is an ISO date string."""
    shift = db["shifts"][su["shift_id"]]
    was = su["status"]
    su.update(status="cancelled", cancel_reason=reason, cancelled_on=today)
    if was == "waitlisted":
        shift["waitlist_count"] -= 1
    elif was == "confirmed":
        _release_spot(db, shift)

def _strike(db, vol, today):
    vol["no_show_strikes"] += 1
    if vol["status"] != "active" or vol["no_show_strikes"] < STRIKE_LIMIT:
        return
    vol["status"] = "suspended"
    vol["suspended_on"] = today
    for sid in sorted(db["signups"], key=_num):
        su = db["signups"][sid]
        if (su["volunteer_id"] == vol["id"] and su["status"] in ("confirmed", "waitlisted")
                and db["shifts"][su["shift_id"]]["date"] >= today):
            _cancel_signup(db, su, "volunteer_suspended", today)

# ------------------------------------------------------------------ volunteers
def list_volunteers(db, a):
    today = _today(db).isoformat()
    _enums(a, {"status": V_STATUS, "level": LEVELS, "certification": CERTS})
    q = a.get("q")
    if q is not None and len(q) < 2:
        raise RefError("q needs at least 2 characters")
    out = []
    for vid in sorted(db["volunteers"], key=_num):
        v = db["volunteers"][vid]
        if any(k in a and v[k] != a[k] for k in ("status", "level")):
            continue
        if "certification" in a and not _valid_cert(v, a["certification"], today):
            continue
        if q is not None and not any(q.lower() in x.lower() for x in (v["first_name"] + " " + v["last_name"], v["email"])):
            continue
        out.append(v)
    return out

def get_volunteer(db, a):
    return _fetch(db, "volunteers", a["volunteer_id"], "volunteer")

def register_volunteer(db, a):
    today = _today(db)
    for k in ("first_name", "last_name"):
        if not a[k].strip() or len(a[k]) > 40:
            raise RefError("%s must be 1-40 characters and not blank" % k)
    if not EMAIL_RE.match(a["email"]):
        raise RefError("email is malformed")
    email = a["email"].lower()
    dob = _day(a["date_of_birth"], "date_of_birth")
    phone = a.get("phone")
    if phone is not None and not PHONE_RE.match(phone):
        raise RefError("phone must look like 555-201-3344")
    if any(v["email"].lower() == email for v in db["volunteers"].values()):
        raise RefError("email already registered")
    if dob > today or _age(dob, today) < MIN_REG_AGE:
        raise RefError("volunteers must be at least 14")
    rec = {"id": _new_id(db, "volunteers", "VOL"), "first_name": a["first_name"], "last_name": a["last_name"], "email": email,
           "phone": phone, "date_of_birth": dob.isoformat(), "status": "active", "level": "newcomer",
           "certifications": [], "hours_logged": 0.0, "shifts_completed": 0, "no_show_strikes": 0,
           "joined_on": today.isoformat(), "suspended_on": None}
    db["volunteers"][rec["id"]] = rec
    return rec

def add_certification(db, a):
    today = _today(db)
    vol = _fetch(db, "volunteers", a["volunteer_id"], "volunteer")
    code = _one_of(a["code"], CERTS, "code")
    exp = _day(a["expires_on"], "expires_on")
    if vol["status"] == "inactive":
        raise RefError("volunteer is inactive")
    if not today < exp <= today + timedelta(days=1095):
        raise RefError("expires_on must be after today and within 1095 days")
    for c in vol["certifications"]:
        if c["code"] == code:
            if exp.isoformat() <= c["expires_on"]:
                raise RefError("a renewal must extend the expiry date")
            c["expires_on"] = exp.isoformat()
            return vol
    vol["certifications"].append({"code": code, "expires_on": exp.isoformat()})
    return vol

# ------------------------------------------------------------------ events and shifts
def list_events(db, a):
    _enums(a, {"status": E_STATUS})
    on = _day(a["on_date"], "on_date").isoformat() if "on_date" in a else None
    out = []
    for eid in sorted(db["events"], key=_num):
        e = db["events"][eid]
        q = a.get("q", "").lower()
        if ("status" in a and e["status"] != a["status"]) or ("city" in a and e["city"].lower() != a["city"].lower()) \
                or (q not in e["name"].lower() and q not in e["site_name"].lower()) \
                or (on is not None and not e["start_date"] <= on <= e["end_date"]):
            continue
        out.append(e)
    return out

def list_shifts(db, a):
    today = _today(db).isoformat()
    if "event_id" in a:
        _fetch(db, "events", a["event_id"], "event")
    _enums(a, {"role": ROLES, "status": SH_STATUS, "required_certification": CERTS})
    lo = _day(a["date_from"], "date_from").isoformat() if "date_from" in a else None
    hi = _day(a["date_to"], "date_to").isoformat() if "date_to" in a else None
    if lo and hi and lo > hi:
        raise RefError("date_from is after date_to")
    out = []
    for sid in sorted(db["shifts"], key=_num):
        s = db["shifts"][sid]
        if any(k in a and s[k] != a[k] for k in ("event_id", "role", "status", "required_certification")):
            continue
        if (lo and s["date"] < lo) or (hi and s["date"] > hi):
            continue
        if a.get("open_only") and not (s["status"] == "scheduled" and s["date"] >= today
                                       and s["filled_count"] < s["capacity"]):
            continue
        out.append(s)
    return out

def create_shift(db, a):
    today = _today(db)
    ev = _fetch(db, "events", a["event_id"], "event")
    d = _day(a["date"], "date")
    start, end = _mins(a["start_time"], "start_time"), _mins(a["end_time"], "end_time")
    role = _one_of(a["role"], ROLES, "role")
    cert = a.get("required_certification")
    if cert is not None:
        _one_of(cert, CERTS, "required_certification")
    if not 1 <= a["capacity"] <= 30:
        raise RefError("capacity must be 1-30")
    min_age = a.get("min_age", 21 if role == "driving" else 16)
    if not 14 <= min_age <= 21:
        raise RefError("min_age must be 14-21")
    if ev["status"] != "active":
        raise RefError("event is archived")
    if d < today or not ev["start_date"] <= d.isoformat() <= ev["end_date"]:
        raise RefError("date must be today or later and inside the event window")
    if start % 15 or end % 15 or start < 6 * 60 or end > 22 * 60 or not 60 <= end - start <= 480:
        raise RefError("shift times break the timing rules")
    if role == "driving":
        if cert not in (None, "driver"):
            raise RefError("driving shifts require the driver certification")
        cert = "driver"
        if min_age < 21:
            raise RefError("driving shifts need min_age 21")
    rec = {"id": _new_id(db, "shifts", "SH"), "event_id": ev["id"], "date": d.isoformat(), "start_time": a["start_time"],
           "end_time": a["end_time"], "role": role, "capacity": a["capacity"], "required_certification": cert,
           "min_age": min_age, "filled_count": 0, "waitlist_count": 0, "status": "scheduled",
           "cancel_reason": None, "cancelled_on": None}
    db["shifts"][rec["id"]] = rec
    return rec

def cancel_shift(db, a):
    today = _today(db)
    shift = _fetch(db, "shifts", a["shift_id"], "shift")
    reason = _one_of(a["reason"], SH_REASONS, "reason")
    if shift["status"] != "scheduled":
        raise RefError("shift is already cancelled")
    if shift["date"] < today.isoformat():
        raise RefError("past shifts cannot be cancelled")
    mine = [db["signups"][k] for k in sorted(db["signups"], key=_num) if db["signups"][k]["shift_id"] == shift["id"]]
    if any(s["status"] == "checked_in" for s in mine):
        raise RefError("someone is checked in on this shift")
    for s in mine:
        if s["status"] in ("confirmed", "waitlisted"):
            shift["filled_count"] -= s["status"] == "confirmed"
            s.update(status="cancelled", cancel_reason="shift_cancelled", cancelled_on=today.isoformat())
    shift.update(status="cancelled", cancel_reason=reason, cancelled_on=today.isoformat(), waitlist_count=0)
    return shift

# ------------------------------------------------------------------ sign-ups
def sign_up(db, a):
    today = _today(db)
    shift = _fetch(db, "shifts", a["shift_id"], "shift")
    vol = _fetch(db, "volunteers", a["volunteer_id"], "volunteer")
    d = date.fromisoformat(shift["date"])
    if vol["status"] != "active":
        raise RefError("volunteer is not active")
    if shift["status"] != "scheduled":
        raise RefError("shift is cancelled")
    horizon = 90 if vol["level"] == "mainstay" else 45
    if not today <= d <= today + timedelta(days=horizon):
        raise RefError("shift date is outside the booking window")
    if _age(date.fromisoformat(vol["date_of_birth"]), d) < shift["min_age"]:
        raise RefError("volunteer is under the minimum age")
    if shift["required_certification"] and not _valid_cert(vol, shift["required_certification"], shift["date"]):
        raise RefError("missing or expired certification")
    if shift["role"] == "team_lead" and vol["level"] == "newcomer":
        raise RefError("team lead shifts need a regular or mainstay volunteer")
    s0, e0 = _span(shift)
    for su in db["signups"].values():
        if su["volunteer_id"] != vol["id"]:
            continue
        if su["shift_id"] == shift["id"] and su["status"] != "cancelled":
            raise RefError("already signed up for this shift")
        other = db["shifts"][su["shift_id"]]
        if su["status"] in LIVE and other["date"] == shift["date"] and other["id"] != shift["id"]:
            s1, e1 = _span(other)
            if s1 < e0 and s0 < e1:
                raise RefError("overlaps another shift %s" % other["id"])
    status = "confirmed" if shift["filled_count"] < shift["capacity"] else "waitlisted"
    if status == "waitlisted" and shift["waitlist_count"] >= WAITLIST_MAX:
        raise RefError("shift and waitlist are full")
    shift["filled_count" if status == "confirmed" else "waitlist_count"] += 1
    rec = {"id": _new_id(db, "signups", "SU"), "shift_id": shift["id"], "volunteer_id": vol["id"], "status": status,
           "signed_up_on": today.isoformat(), "check_in_time": None, "check_out_time": None,
           "hours_credited": None, "cancel_reason": None, "cancelled_on": None}
    db["signups"][rec["id"]] = rec
    return rec

def list_signups(db, a):
    if "volunteer_id" not in a and "shift_id" not in a:
        raise RefError("give volunteer_id or shift_id")
    for k, coll in (("volunteer_id", "volunteers"), ("shift_id", "shifts")):
        if k in a:
            _fetch(db, coll, a[k], k)
    _enums(a, {"status": SU_STATUS})
    return [db["signups"][k] for k in sorted(db["signups"], key=_num)
            if all(k2 not in a or db["signups"][k][k2] == a[k2] for k2 in ("volunteer_id", "shift_id", "status"))]

def withdraw_signup(db, a):
    today, su, shift = _signup(db, a)
    if su["status"] not in ("confirmed", "waitlisted"):
        raise RefError("only confirmed or waitlisted sign-ups can be withdrawn")
    if shift["date"] < today:
        raise RefError("the shift has already happened")
    late = su["status"] == "confirmed" and shift["date"] == today
    _cancel_signup(db, su, "late_withdrawal" if late else "volunteer_withdrew", today)
    if late:
        _strike(db, db["volunteers"][su["volunteer_id"]], today)
    return su

def check_in(db, a):
    today, su, shift = _signup(db, a)
    t = _mins(a["time"], "time")
    if su["status"] != "confirmed":
        raise RefError("only confirmed sign-ups can check in")
    if shift["date"] != today:
        raise RefError("check-in is only possible on the shift date")
    start, end = _span(shift)
    if not start - 30 <= t < end:
        raise RefError("outside the check-in window")
    su.update(status="checked_in", check_in_time=a["time"])
    return su

def check_out(db, a):
    _, su, shift = _signup(db, a)
    t = _mins(a["time"], "time")
    if su["status"] != "checked_in":
        raise RefError("sign-up is not checked in")
    start, end = _span(shift)
    cin = _mins(su["check_in_time"], "check_in_time")
    if t <= cin or t <= start:
        raise RefError("check-out must be after check-in and after the shift start")
    minutes = min(t - max(cin, start), end - start)
    hours = _r2(Decimal(minutes) / Decimal(60))
    su.update(status="completed", check_out_time=a["time"], hours_credited=hours)
    vol = db["volunteers"][su["volunteer_id"]]
    vol["hours_logged"] = _r2(Decimal(str(vol["hours_logged"])) + Decimal(str(hours)))
    vol["shifts_completed"] += 1
    vol["level"] = _level(vol["hours_logged"])
    return su

def mark_no_show(db, a):
    today, su, shift = _signup(db, a)
    if su["status"] != "confirmed":
        raise RefError("only confirmed sign-ups can be marked as no-shows")
    if shift["date"] >= today:
        raise RefError("the shift has not happened yet")
    su["status"] = "no_show"
    _strike(db, db["volunteers"][su["volunteer_id"]], today)
    return su

# ------------------------------------------------------------------ entry point
def invoke(db, name, args):
    args = _validate(name, args)
    return globals()[name](db, dict(args))
