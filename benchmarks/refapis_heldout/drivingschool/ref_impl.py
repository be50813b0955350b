"""Reference implementation of the Kerbside Driving School API (stdlib only)."""
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_student", "purchase_package", "record_payment", "book_lesson",
               "cancel_lesson", "complete_lesson", "mark_no_show", "book_test",
               "cancel_test", "record_test_result"}

PACKAGES = {"single": (1, Decimal("57.50")), "pack_5": (5, Decimal("279.00")),
            "pack_10": (10, Decimal("545.00")), "pack_20": (20, Decimal("1049.00"))}
YOUTH_RATE = Decimal("0.15")
CREDIT_CAP = 40
LESSON_DEBT_LIMIT = Decimal("100.00")
LATE_FEE_PER_CREDIT = Decimal("30.00")
NO_SHOW_FEE = Decimal("40.00")
NO_SHOW_LIMIT = 3
TEST_FEES = {"theory": Decimal("45.00"), "practical": Decimal("120.00")}
PRACTICAL_RETAKE_FEE = Decimal("135.00")
TRANSMISSIONS = ("manual", "automatic")
STUDENT_STATUSES = ("active", "suspended", "graduated")
LESSON_STATUSES = ("booked", "completed", "no_show", "cancelled")
TEST_STATUSES = ("scheduled", "passed", "failed", "cancelled")
TEST_TYPES = ("theory", "practical")
METHODS = ("card", "cash", "bank_transfer")
CENT = Decimal("0.01")
EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")

def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)

def dec(x):
    return Decimal(str(x))

def num(v):
    return float(q2(v))

# ---------------------------------------------------------------- argument helpers
def _req(args, key):
    if key not in args or args[key] is None:
        raise RefError(f"missing argument {key}")
    return args[key]

def _str(args, key, required=True):
    v = _req(args, key) if required else args.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{key} must be a non-empty string")
    return v

def _int(args, key):
    v = _req(args, key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise RefError(f"{key} must be an integer")
    return v

def _money(args, key):
    v = _req(args, key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RefError(f"{key} must be a number")
    d = dec(v)
    if not d.is_finite() or d.as_tuple().exponent < -2:
        raise RefError(f"{key} must have at most two decimals")
    return d

def _enum(args, key, values, required=True):
    v = _req(args, key) if required else args.get(key)
    if v is None:
        return None
    if v not in values:
        raise RefError(f"{key} must be one of {values}")
    return v

def _date(args, key, required=True):
    v = _req(args, key) if required else args.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError(f"{key} must be a date YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{key} is not a valid date")

def _d(s):
    return _dt.date.fromisoformat(s)

def _today(db):
    return _d(db["meta"]["today"])

def _get(db, coll, key, rid):
    if not isinstance(rid, str) or rid not in db[coll]:
        raise RefError(f"{key} {rid!r} not found")
    return db[coll][rid]

def _next_id(coll):
    best = None
    for k in coll:
        m = re.fullmatch(r"([A-Za-z]*)(\d+)", k)
        if m and (best is None or int(m.group(2)) > int(best[1])):
            best = (m.group(1), m.group(2))
    prefix, digits = best
    return f"{prefix}{int(digits) + 1:0{len(digits)}d}"

def _age(dob, on):
    return on.year - dob.year - ((on.month, on.day) < (dob.month, dob.day))

def _minutes(hhmm):
    return int(hhmm[:2]) * 60 + int(hhmm[3:])

def _hhmm(m):
    return f"{m // 60:02d}:{m % 60:02d}"

def _add_due(st, amount):
    st["amount_due"] = num(dec(st["amount_due"]) + amount)

# ---------------------------------------------------------------- students
def get_student(db, a):
    return _get(db, "students", "student_id", _req(a, "student_id"))

def search_students(db, a):
    name = _str(a, "name", False)
    status = _enum(a, "status", STUDENT_STATUSES, False)
    tr = _enum(a, "transmission", TRANSMISSIONS, False)
    return [s for k, s in sorted(db["students"].items())
            if (name is None or name.lower() in s["full_name"].lower())
            and (status is None or s["status"] == status) and (tr is None or s["transmission"] == tr)]

def register_student(db, a):
    name = _str(a, "full_name")
    email = _str(a, "email")
    dob = _date(a, "date_of_birth")
    tr = _enum(a, "transmission", TRANSMISSIONS)
    phone = _str(a, "phone", False)
    if not EMAIL_RE.fullmatch(email):
        raise RefError("email is not a valid address")
    if any(s["email"].lower() == email.lower() for s in db["students"].values()):
        raise RefError("a student with this email is already registered")
    if _age(dob, _today(db)) < 17:
        raise RefError("students must be at least 17 years old")
    sid = _next_id(db["students"])
    rec = {"student_id": sid, "full_name": name, "email": email, "phone": phone,
           "date_of_birth": dob.isoformat(), "transmission": tr, "status": "active",
           "lesson_credits": 0, "lessons_completed": 0, "minutes_driven": 0, "no_show_count": 0,
           "amount_due": 0.0, "theory_passed": False, "theory_passed_on": None,
           "registered_on": db["meta"]["today"]}
    db["students"][sid] = rec
    return rec

def purchase_package(db, a):
    st = _get(db, "students", "student_id", _req(a, "student_id"))
    ptype = _enum(a, "package_type", tuple(PACKAGES))
    if st["status"] != "active":
        raise RefError("only active students can buy lesson packages")
    credits, price = PACKAGES[ptype]
    if st["lesson_credits"] + credits > CREDIT_CAP:
        raise RefError("a student may hold at most 40 lesson credits")
    disc = q2(price * YOUTH_RATE) if _age(_d(st["date_of_birth"]), _today(db)) < 21 else Decimal(0)
    pid = _next_id(db["packages"])
    rec = {"package_id": pid, "student_id": st["student_id"], "package_type": ptype,
           "credits": credits, "list_price": num(price), "discount_amount": num(disc),
           "price_paid": num(price - disc), "purchased_on": db["meta"]["today"]}
    db["packages"][pid] = rec
    st["lesson_credits"] += credits
    return rec

def record_payment(db, a):
    st = _get(db, "students", "student_id", _req(a, "student_id"))
    amount = _money(a, "amount")
    method = _enum(a, "method", METHODS)
    if amount <= 0 or amount > dec(st["amount_due"]):
        raise RefError("amount must be above 0.00 and at most the amount due")
    _add_due(st, -amount)
    if st["status"] == "suspended" and dec(st["amount_due"]) == 0:
        st["status"] = "active"
        st["no_show_count"] = 0
    pid = _next_id(db["payments"])
    rec = {"payment_id": pid, "student_id": st["student_id"], "amount": num(amount),
           "method": method, "paid_on": db["meta"]["today"], "amount_due_after": st["amount_due"]}
    db["payments"][pid] = rec
    return rec

# ---------------------------------------------------------------- lessons
def list_lessons(db, a):
    sid = a.get("student_id")
    if sid is not None:
        _get(db, "students", "student_id", sid)
    iid = a.get("instructor_id")
    if iid is not None:
        _get(db, "instructors", "instructor_id", iid)
    status = _enum(a, "status", LESSON_STATUSES, False)
    d_from = _date(a, "date_from", False)
    d_to = _date(a, "date_to", False)
    if d_from and d_to and d_from > d_to:
        raise RefError("date_from is after date_to")
    return [l for k, l in sorted(db["lessons"].items())
            if (sid is None or l["student_id"] == sid) and (iid is None or l["instructor_id"] == iid)
            and (status is None or l["status"] == status)
            and not (d_from and _d(l["date"]) < d_from) and not (d_to and _d(l["date"]) > d_to)]

def book_lesson(db, a):
    st = _get(db, "students", "student_id", _req(a, "student_id"))
    ins = _get(db, "instructors", "instructor_id", _req(a, "instructor_id"))
    car = _get(db, "cars", "car_id", _req(a, "car_id"))
    day = _date(a, "date")
    start = _req(a, "start_time")
    dur = _int(a, "duration_minutes")
    if not isinstance(start, str) or not re.fullmatch(r"\d{2}:(00|30)", start):
        raise RefError("start_time must be HH:MM on the hour or half hour")
    if dur not in (60, 120):
        raise RefError("duration_minutes must be 60 or 120")
    s_min = _minutes(start)
    e_min = s_min + dur
    if s_min < 7 * 60 or e_min > 20 * 60:
        raise RefError("lessons run between 07:00 and 20:00")
    today = _today(db)
    if day <= today or (day - today).days > 60:
        raise RefError("lessons can be booked from tomorrow up to 60 days ahead")
    if day.weekday() == 6:
        raise RefError("no lessons on Sundays")
    if st["status"] != "active":
        raise RefError("student is not active")
    if dec(st["amount_due"]) > LESSON_DEBT_LIMIT:
        raise RefError("student owes more than 100.00")
    credits = dur // 60
    if st["lesson_credits"] < credits:
        raise RefError("not enough lesson credits")
    if ins["status"] != "active":
        raise RefError("instructor is not available")
    if car["status"] != "available":
        raise RefError("car is in maintenance")
    if car["transmission"] != st["transmission"]:
        raise RefError("car transmission does not match the student's")
    if car["transmission"] not in ins["transmissions"]:
        raise RefError("instructor does not teach this transmission")
    ds = day.isoformat()
    same_day = [l for l in db["lessons"].values() if l["date"] == ds and l["status"] == "booked"]
    if any(l["student_id"] == st["student_id"] for l in same_day):
        raise RefError("student already has a lesson that day")
    for l in same_day:
        overlap = _minutes(l["start_time"]) < e_min and s_min < _minutes(l["end_time"])
        if overlap and l["instructor_id"] == ins["instructor_id"]:
            raise RefError("instructor is busy at that time")
        if overlap and l["car_id"] == car["car_id"]:
            raise RefError("car is busy at that time")
    used = sum(l["duration_minutes"] for l in same_day if l["instructor_id"] == ins["instructor_id"])
    if used + dur > ins["max_hours_per_day"] * 60:
        raise RefError("instructor's daily hours are full")
    st["lesson_credits"] -= credits
    lid = _next_id(db["lessons"])
    rec = {"lesson_id": lid, "student_id": st["student_id"], "instructor_id": ins["instructor_id"],
           "car_id": car["car_id"], "date": ds, "start_time": start, "end_time": _hhmm(e_min),
           "duration_minutes": dur, "credits_used": credits, "status": "booked",
           "booked_on": db["meta"]["today"], "completed_on": None, "km_driven": None,
           "cancelled_on": None, "cancelled_by": None, "credits_refunded": 0, "fee_charged": 0.0}
    db["lessons"][lid] = rec
    return rec

def cancel_lesson(db, a):
    l = _get(db, "lessons", "lesson_id", _req(a, "lesson_id"))
    by = _enum(a, "cancelled_by", ("student", "school"))
    if l["status"] != "booked":
        raise RefError("only booked lessons can be cancelled")
    notice = (_d(l["date"]) - _today(db)).days
    if notice < 0:
        raise RefError("a past lesson cannot be cancelled")
    st = db["students"][l["student_id"]]
    refund, fee = l["credits_used"], Decimal(0)
    if by == "student" and notice == 1:
        fee = LATE_FEE_PER_CREDIT * l["credits_used"]
    elif by == "student" and notice == 0:
        refund = 0
    st["lesson_credits"] += refund
    _add_due(st, fee)
    l.update(status="cancelled", cancelled_on=db["meta"]["today"], cancelled_by=by,
             credits_refunded=refund, fee_charged=num(fee))
    return l

def _past_booked(db, a):
    l = _get(db, "lessons", "lesson_id", _req(a, "lesson_id"))
    if l["status"] != "booked":
        raise RefError("only booked lessons can be closed")
    if _d(l["date"]) > _today(db):
        raise RefError("the lesson has not taken place yet")
    return l

def complete_lesson(db, a):
    l = _past_booked(db, a)
    km = _int(a, "km_driven")
    if km < 1 or km > 400:
        raise RefError("km_driven must be 1 to 400")
    st, ins, car = db["students"][l["student_id"]], db["instructors"][l["instructor_id"]], db["cars"][l["car_id"]]
    st["lessons_completed"] += 1
    st["minutes_driven"] += l["duration_minutes"]
    ins["lessons_given"] += 1
    car["odometer_km"] += km
    if car["odometer_km"] >= car["next_service_km"]:
        car["status"] = "maintenance"
    l.update(status="completed", completed_on=db["meta"]["today"], km_driven=km)
    return l

def mark_no_show(db, a):
    l = _past_booked(db, a)
    st = db["students"][l["student_id"]]
    _add_due(st, NO_SHOW_FEE)
    st["no_show_count"] += 1
    if st["no_show_count"] >= NO_SHOW_LIMIT and st["status"] == "active":
        st["status"] = "suspended"
    l.update(status="no_show", fee_charged=num(NO_SHOW_FEE))
    return l

# ---------------------------------------------------------------- tests
def list_tests(db, a):
    sid = a.get("student_id")
    if sid is not None:
        _get(db, "students", "student_id", sid)
    status = _enum(a, "status", TEST_STATUSES, False)
    tt = _enum(a, "test_type", TEST_TYPES, False)
    return [t for k, t in sorted(db["tests"].items())
            if (sid is None or t["student_id"] == sid) and (status is None or t["status"] == status)
            and (tt is None or t["test_type"] == tt)]

def book_test(db, a):
    st = _get(db, "students", "student_id", _req(a, "student_id"))
    tt = _enum(a, "test_type", TEST_TYPES)
    day = _date(a, "date")
    today = _today(db)
    ahead = (day - today).days
    if ahead < (7 if tt == "theory" else 14) or ahead > 90:
        raise RefError("test date outside the booking window")
    if day.weekday() >= 5:
        raise RefError("tests are held Monday to Friday")
    if st["status"] != "active":
        raise RefError("student is not active")
    if dec(st["amount_due"]) > 0:
        raise RefError("the student must settle the amount due first")
    mine = [t for t in db["tests"].values() if t["student_id"] == st["student_id"]]
    if any(t["status"] == "scheduled" for t in mine):
        raise RefError("the student already has a scheduled test")
    fee = TEST_FEES[tt]
    if tt == "theory":
        if st["theory_passed"]:
            raise RefError("theory test already passed")
    else:
        if not st["theory_passed"]:
            raise RefError("the theory test must be passed first")
        if st["lessons_completed"] < 10:
            raise RefError("at least 10 completed lessons are required")
        failed = [_d(t["date"]) for t in mine if t["test_type"] == "practical" and t["status"] == "failed"]
        if failed:
            if (day - max(failed)).days < 21:
                raise RefError("a practical retest must be at least 21 days after the failed test")
            fee = PRACTICAL_RETAKE_FEE
    _add_due(st, fee)
    tid = _next_id(db["tests"])
    rec = {"test_id": tid, "student_id": st["student_id"], "test_type": tt,
           "date": day.isoformat(), "status": "scheduled", "fee": num(fee),
           "booked_on": db["meta"]["today"], "result_recorded_on": None,
           "cancelled_on": None, "refund_amount": None}
    db["tests"][tid] = rec
    return rec

def cancel_test(db, a):
    t = _get(db, "tests", "test_id", _req(a, "test_id"))
    if t["status"] != "scheduled":
        raise RefError("only scheduled tests can be cancelled")
    notice = (_d(t["date"]) - _today(db)).days
    if notice < 1:
        raise RefError("tests can be cancelled up to the day before")
    refund = dec(t["fee"]) if notice >= 5 else q2(dec(t["fee"]) * Decimal("0.5"))
    _add_due(db["students"][t["student_id"]], -refund)
    t.update(status="cancelled", cancelled_on=db["meta"]["today"], refund_amount=num(refund))
    return t

def record_test_result(db, a):
    t = _get(db, "tests", "test_id", _req(a, "test_id"))
    result = _enum(a, "result", ("passed", "failed"))
    if t["status"] != "scheduled":
        raise RefError("the result of this test is already settled")
    if _d(t["date"]) > _today(db):
        raise RefError("the test has not taken place yet")
    st = db["students"][t["student_id"]]
    if result == "passed" and t["test_type"] == "theory":
        st["theory_passed"] = True
        st["theory_passed_on"] = t["date"]
    elif result == "passed":
        st["status"] = "graduated"
    t.update(status=result, result_recorded_on=db["meta"]["today"])
    return t

PARAMS = {
    "get_student": {"student_id"},
    "search_students": {"name", "status", "transmission"},
    "register_student": {"full_name", "email", "date_of_birth", "transmission", "phone"},
    "purchase_package": {"student_id", "package_type"},
    "record_payment": {"student_id", "amount", "method"},
    "list_lessons": {"student_id", "instructor_id", "status", "date_from", "date_to"},
    "book_lesson": {"student_id", "instructor_id", "car_id", "date", "start_time", "duration_minutes"},
    "cancel_lesson": {"lesson_id", "cancelled_by"},
    "complete_lesson": {"lesson_id", "km_driven"},
    "mark_no_show": {"lesson_id"},
    "list_tests": {"student_id", "status", "test_type"},
    "book_test": {"student_id", "test_type", "date"},
    "cancel_test": {"test_id"},
    "record_test_result": {"test_id", "result"},
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
