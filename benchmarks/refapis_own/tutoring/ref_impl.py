"""Reference implementation of the Brightpath Tutoring API (stdlib only)."""
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"add_student", "update_tutor", "purchase_package", "book_session",
               "reschedule_session", "cancel_session", "record_attendance", "refund_package"}

SUBJECTS = ("math", "english", "physics", "chemistry", "biology", "french", "spanish",
            "history", "computer_science")
TUTOR_STATUSES = ("active", "on_leave")
PACKAGE_STATUSES = ("active", "exhausted", "expired", "refunded")
SESSION_STATUSES = ("scheduled", "completed", "no_show", "cancelled", "late_cancelled",
                    "tutor_absent")
CANCELLERS = ("family", "tutor", "agency")
OUTCOMES = {"attended": "completed", "no_show": "no_show", "tutor_absent": "tutor_absent"}
DURATIONS = (Decimal(1), Decimal("1.5"), Decimal(2))
MAX_STUDENTS, MAX_ACTIVE_PACKAGES = 5, 3
BOOKING_HORIZON, PACKAGE_VALIDITY, COOLING_OFF, ATTENDANCE_WINDOW = 60, 180, 14, 14
CENT = Decimal("0.01")


# ---------------------------------------------------------------- helpers
def D(x):
    return Decimal(str(x))


def money(x):
    return float(D(x).quantize(CENT, rounding=ROUND_HALF_UP))


def _today(db):
    return _dt.date.fromisoformat(db["meta"]["today"])


def _check_args(args, allowed):
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    extra = set(args) - set(allowed)
    if extra:
        raise RefError(f"unknown arguments {sorted(extra)}")


def _req(a, k):
    if a.get(k) is None:
        raise RefError(f"missing argument {k}")
    return a[k]


def _text(a, k, required=True):
    v = _req(a, k) if required else a.get(k)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{k} must be a non-empty string")
    return v


def _int(a, k, lo, hi, required=True):
    v = _req(a, k) if required else a.get(k)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RefError(f"{k} must be a whole number from {lo} to {hi}")
    return v


def _num(a, k, required=True):
    v = _req(a, k) if required else a.get(k)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RefError(f"{k} must be a number")
    return D(v)


def _enum(a, k, values, required=True):
    v = _req(a, k) if required else a.get(k)
    if v is None:
        return None
    if v not in values:
        raise RefError(f"{k} must be one of {list(values)}")
    return v


def _date(a, k, required=True):
    v = _req(a, k) if required else a.get(k)
    if v is None:
        return None
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError(f"{k} must be a date YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{k} is not a valid date")


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


def _available(pkg):
    return D(pkg["hours_purchased"]) - D(pkg["hours_used"]) - D(pkg["hours_reserved"])


def _check_slot(db, pkg, student_id, day, start, dur, skip=None):
    """Date window, Sunday, expiry, opening hours and clashes for a booking or a move."""
    today = _today(db)
    if day <= today or (day - today).days > BOOKING_HORIZON:
        raise RefError("session_date must be from tomorrow to 60 days ahead")
    if day.weekday() == 6:
        raise RefError("no sessions on Sundays")
    if day > _dt.date.fromisoformat(pkg["expires_on"]):
        raise RefError("session_date is after the package expiry")
    if D(start) + dur > 21:
        raise RefError("sessions must end by 21:00")
    for s in db["sessions"].values():
        if s["status"] != "scheduled" or s["session_id"] == skip or s["session_date"] != day.isoformat():
            continue
        if s["student_id"] == student_id:
            raise RefError("student already has a session that day")
        if s["tutor_id"] == pkg["tutor_id"]:
            s0 = D(s["start_hour"])
            if D(start) < s0 + D(s["duration_hours"]) and s0 < D(start) + dur:
                raise RefError("tutor already booked at that time")


def _settle(pkg, dur, charged):
    """Release a reserved session from the package and charge hours."""
    pkg["hours_reserved"] = float(D(pkg["hours_reserved"]) - dur)
    pkg["hours_used"] = float(D(pkg["hours_used"]) + charged)
    if D(pkg["hours_used"]) >= D(pkg["hours_purchased"]) and pkg["status"] == "active":
        pkg["status"] = "exhausted"


# ---------------------------------------------------------------- read tools
def get_family(db, a):
    _check_args(a, ["family_id"])
    return _get(db, "families", "family_id", _req(a, "family_id"))


def list_students(db, a):
    _check_args(a, ["family_id"])
    fid = _get(db, "families", "family_id", _req(a, "family_id"))["family_id"]
    return [s for k, s in sorted(db["students"].items()) if s["family_id"] == fid]


def list_tutors(db, a):
    _check_args(a, ["subject", "status", "max_rate", "grade", "name"])
    subject = _enum(a, "subject", SUBJECTS, False)
    status = _enum(a, "status", TUTOR_STATUSES, False)
    max_rate = _num(a, "max_rate", False)
    grade = _int(a, "grade", 1, 13, False)
    name = _text(a, "name", False)
    out = []
    for _, t in sorted(db["tutors"].items()):
        if subject and subject not in t["subjects"]:
            continue
        if status and t["status"] != status:
            continue
        if max_rate is not None and D(t["hourly_rate"]) > max_rate:
            continue
        if grade is not None and t["max_grade"] < grade:
            continue
        if name and name.lower() not in t["full_name"].lower():
            continue
        out.append(t)
    return out


def list_packages(db, a):
    _check_args(a, ["family_id", "tutor_id", "status"])
    fid = a.get("family_id")
    tid = a.get("tutor_id")
    if fid is not None:
        _get(db, "families", "family_id", fid)
    if tid is not None:
        _get(db, "tutors", "tutor_id", tid)
    status = _enum(a, "status", PACKAGE_STATUSES, False)
    return [p for _, p in sorted(db["packages"].items())
            if (fid is None or p["family_id"] == fid) and (tid is None or p["tutor_id"] == tid)
            and (status is None or p["status"] == status)]


def get_package(db, a):
    _check_args(a, ["package_id"])
    return _get(db, "packages", "package_id", _req(a, "package_id"))


def list_sessions(db, a):
    _check_args(a, ["family_id", "student_id", "tutor_id", "package_id", "status",
                    "date_from", "date_to"])
    flt = {}
    for k, coll in (("family_id", "families"), ("student_id", "students"),
                    ("tutor_id", "tutors"), ("package_id", "packages")):
        if a.get(k) is not None:
            flt[k] = _get(db, coll, k, a[k])[k]
    status = _enum(a, "status", SESSION_STATUSES, False)
    d_from, d_to = _date(a, "date_from", False), _date(a, "date_to", False)
    if d_from and d_to and d_from > d_to:
        raise RefError("date_from is after date_to")
    out = []
    for _, s in sorted(db["sessions"].items()):
        if any(s[k] != v for k, v in flt.items()):
            continue
        if status and s["status"] != status:
            continue
        day = _dt.date.fromisoformat(s["session_date"])
        if (d_from and day < d_from) or (d_to and day > d_to):
            continue
        out.append(s)
    return out


# ---------------------------------------------------------------- write tools
def add_student(db, a):
    _check_args(a, ["family_id", "full_name", "grade_level"])
    fam = _get(db, "families", "family_id", _req(a, "family_id"))
    name = _text(a, "full_name")
    grade = _int(a, "grade_level", 1, 13)
    if fam["status"] != "active":
        raise RefError("family is suspended")
    kids = [s for s in db["students"].values() if s["family_id"] == fam["family_id"]]
    if len(kids) >= MAX_STUDENTS:
        raise RefError("a family can register at most 5 students")
    if any(s["full_name"].strip().lower() == name.strip().lower() for s in kids):
        raise RefError("student already registered in this family")
    sid = _next_id(db["students"])
    rec = {"student_id": sid, "family_id": fam["family_id"], "full_name": name,
           "grade_level": grade, "enrolled_on": db["meta"]["today"]}
    db["students"][sid] = rec
    return rec


def update_tutor(db, a):
    _check_args(a, ["tutor_id", "hourly_rate", "status"])
    t = _get(db, "tutors", "tutor_id", _req(a, "tutor_id"))
    rate = _num(a, "hourly_rate", False)
    status = _enum(a, "status", TUTOR_STATUSES, False)
    if rate is None and status is None:
        raise RefError("nothing to update")
    if rate is not None:
        if rate.as_tuple().exponent < -2 or not Decimal(25) <= rate <= Decimal(120):
            raise RefError("hourly_rate must be 25.00 to 120.00 with at most two decimals")
        if rate > D(t["hourly_rate"]) * Decimal("1.2"):
            raise RefError("a single change may raise the rate by at most 20%")
    if status == "on_leave" and any(s["tutor_id"] == t["tutor_id"] and s["status"] == "scheduled"
                                    for s in db["sessions"].values()):
        raise RefError("tutor still has scheduled sessions")
    if rate is not None:
        t["hourly_rate"] = money(rate)
    if status is not None:
        t["status"] = status
    return t


def purchase_package(db, a):
    _check_args(a, ["family_id", "tutor_id", "hours"])
    fam = _get(db, "families", "family_id", _req(a, "family_id"))
    t = _get(db, "tutors", "tutor_id", _req(a, "tutor_id"))
    hours = _int(a, "hours", 5, 40)
    if fam["status"] != "active":
        raise RefError("family is suspended")
    if t["status"] != "active":
        raise RefError("tutor is not taking new packages")
    active = [p for p in db["packages"].values()
              if p["family_id"] == fam["family_id"] and p["status"] == "active"]
    if any(p["tutor_id"] == t["tutor_id"] for p in active):
        raise RefError("family already has an active package with this tutor")
    if len(active) >= MAX_ACTIVE_PACKAGES:
        raise RefError("family already holds 3 active packages")
    disc = 10 if hours >= 20 else 5 if hours >= 10 else 0
    amount = money(D(hours) * D(t["hourly_rate"]) * (100 - disc) / 100)
    today = _today(db)
    pid = _next_id(db["packages"])
    rec = {"package_id": pid, "family_id": fam["family_id"], "tutor_id": t["tutor_id"],
           "hours_purchased": hours, "price_per_hour": t["hourly_rate"],
           "discount_percent": disc, "amount_paid": amount, "hours_used": 0.0,
           "hours_reserved": 0.0, "status": "active", "purchased_on": today.isoformat(),
           "expires_on": (today + _dt.timedelta(days=PACKAGE_VALIDITY)).isoformat(),
           "refunded_on": None, "refund_amount": None}
    db["packages"][pid] = rec
    fam["total_paid"] = money(D(fam["total_paid"]) + D(amount))
    return rec


def book_session(db, a):
    _check_args(a, ["package_id", "student_id", "subject", "session_date", "start_hour",
                    "duration_hours"])
    pkg = _get(db, "packages", "package_id", _req(a, "package_id"))
    st = _get(db, "students", "student_id", _req(a, "student_id"))
    subject = _enum(a, "subject", SUBJECTS)
    day = _date(a, "session_date")
    start = _int(a, "start_hour", 8, 20)
    dur = _num(a, "duration_hours")
    if dur not in DURATIONS:
        raise RefError("duration_hours must be 1, 1.5 or 2")
    if pkg["status"] != "active":
        raise RefError("package is not active")
    if db["families"][pkg["family_id"]]["status"] != "active":
        raise RefError("family is suspended")
    if st["family_id"] != pkg["family_id"]:
        raise RefError("student does not belong to the package's family")
    t = db["tutors"][pkg["tutor_id"]]
    if t["status"] != "active":
        raise RefError("tutor is on leave")
    if subject not in t["subjects"]:
        raise RefError("tutor does not teach this subject")
    if st["grade_level"] > t["max_grade"]:
        raise RefError("student's grade is above the tutor's maximum grade")
    if _available(pkg) < dur:
        raise RefError("not enough unreserved hours on the package")
    _check_slot(db, pkg, st["student_id"], day, start, dur)
    sid = _next_id(db["sessions"])
    rec = {"session_id": sid, "package_id": pkg["package_id"], "family_id": pkg["family_id"],
           "student_id": st["student_id"], "tutor_id": t["tutor_id"], "subject": subject,
           "session_date": day.isoformat(), "start_hour": start, "duration_hours": float(dur),
           "status": "scheduled", "hours_charged": 0.0, "reschedule_count": 0,
           "booked_on": db["meta"]["today"], "cancelled_on": None, "cancelled_by": None,
           "attendance_recorded_on": None, "tutor_notes": None}
    db["sessions"][sid] = rec
    pkg["hours_reserved"] = float(D(pkg["hours_reserved"]) + dur)
    return rec


def reschedule_session(db, a):
    _check_args(a, ["session_id", "new_date", "new_start_hour"])
    s = _get(db, "sessions", "session_id", _req(a, "session_id"))
    day = _date(a, "new_date")
    start = _int(a, "new_start_hour", 8, 20, False)
    start = s["start_hour"] if start is None else start
    if s["status"] != "scheduled":
        raise RefError("only scheduled sessions can be moved")
    if (_dt.date.fromisoformat(s["session_date"]) - _today(db)).days < 2:
        raise RefError("too close to the session to reschedule")
    if s["reschedule_count"] >= 2:
        raise RefError("a session can be rescheduled at most twice")
    if day.isoformat() == s["session_date"] and start == s["start_hour"]:
        raise RefError("new slot is the same as the current one")
    pkg = db["packages"][s["package_id"]]
    _check_slot(db, pkg, s["student_id"], day, start, D(s["duration_hours"]), skip=s["session_id"])
    s["session_date"], s["start_hour"] = day.isoformat(), start
    s["reschedule_count"] += 1
    return s


def cancel_session(db, a):
    _check_args(a, ["session_id", "cancelled_by"])
    s = _get(db, "sessions", "session_id", _req(a, "session_id"))
    who = _enum(a, "cancelled_by", CANCELLERS)
    if s["status"] != "scheduled":
        raise RefError("only scheduled sessions can be cancelled")
    days = (_dt.date.fromisoformat(s["session_date"]) - _today(db)).days
    if days < 0:
        raise RefError("the session date has passed; record attendance instead")
    dur = D(s["duration_hours"])
    late = who == "family" and days <= 1
    charged = dur / 2 if late else Decimal(0)
    s["status"] = "late_cancelled" if late else "cancelled"
    s["hours_charged"] = float(charged)
    s["cancelled_on"], s["cancelled_by"] = db["meta"]["today"], who
    _settle(db["packages"][s["package_id"]], dur, charged)
    return s


def record_attendance(db, a):
    _check_args(a, ["session_id", "outcome", "tutor_notes"])
    s = _get(db, "sessions", "session_id", _req(a, "session_id"))
    outcome = _enum(a, "outcome", tuple(OUTCOMES))
    notes = _text(a, "tutor_notes", False)
    if s["status"] != "scheduled":
        raise RefError("attendance already settled")
    days = (_today(db) - _dt.date.fromisoformat(s["session_date"])).days
    if days < 0:
        raise RefError("the session has not taken place yet")
    if days > ATTENDANCE_WINDOW:
        raise RefError("attendance must be recorded within 14 days")
    dur = D(s["duration_hours"])
    charged = Decimal(0) if outcome == "tutor_absent" else dur
    s["status"] = OUTCOMES[outcome]
    s["hours_charged"] = float(charged)
    s["attendance_recorded_on"] = db["meta"]["today"]
    if notes is not None:
        s["tutor_notes"] = notes
    _settle(db["packages"][s["package_id"]], dur, charged)
    if outcome == "attended":
        t = db["tutors"][s["tutor_id"]]
        t["sessions_completed"] += 1
        t["hours_taught"] = float(D(t["hours_taught"]) + dur)
    return s


def refund_package(db, a):
    _check_args(a, ["package_id"])
    pkg = _get(db, "packages", "package_id", _req(a, "package_id"))
    if pkg["status"] != "active":
        raise RefError("only active packages can be refunded")
    if D(pkg["hours_reserved"]) > 0:
        raise RefError("cancel the scheduled sessions first")
    purchased = D(pkg["hours_purchased"])
    unused = purchased - D(pkg["hours_used"])
    if unused <= 0:
        raise RefError("nothing left to refund")
    age = (_today(db) - _dt.date.fromisoformat(pkg["purchased_on"])).days
    if age <= COOLING_OFF and D(pkg["hours_used"]) == 0:
        amount = money(pkg["amount_paid"])
    else:
        amount = money(D(pkg["amount_paid"]) * unused / purchased * Decimal("0.9"))
    pkg["status"], pkg["refunded_on"], pkg["refund_amount"] = "refunded", db["meta"]["today"], amount
    fam = db["families"][pkg["family_id"]]
    fam["total_refunded"] = money(D(fam["total_refunded"]) + D(amount))
    return pkg


TOOLS = {f.__name__: f for f in (
    get_family, list_students, list_tutors, list_packages, get_package, list_sessions,
    add_student, update_tutor, purchase_package, book_session, reschedule_session,
    cancel_session, record_attendance, refund_package)}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError(f"unknown tool {name}")
    return TOOLS[name](db, args if args is not None else {})
