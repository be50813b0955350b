"""Reference implementation of the ski school API."""
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_guest", "create_booking", "pay_booking", "cancel_booking",
               "check_in_booking", "assign_instructor", "cancel_lesson", "create_rental",
               "pickup_rental", "return_rental"}
READ_TOOLS = {"search_guests", "list_lessons", "list_instructors", "list_bookings"}

LEVELS = ["beginner", "intermediate", "advanced"]
DISCIPLINES = ["ski", "snowboard"]
RATES = {"skis": "28.00", "snowboard": "30.00", "boots": "12.00", "helmet": "6.00", "poles": "5.00"}
BOOKING_STATUSES = ["reserved", "paid", "attended", "no_show", "cancelled"]
LESSON_STATUSES = ["scheduled", "completed", "cancelled"]
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def _money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _date(v, name):
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError("%s must be a date YYYY-MM-DD" % name)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % name)


def _str(args, name, required=True):
    v = args.get(name)
    if v is None:
        if required:
            raise RefError("missing %s" % name)
        return None
    if not isinstance(v, str):
        raise RefError("%s must be a string" % name)
    return v


def _int(args, name, required=True, default=None):
    v = args.get(name)
    if v is None:
        if required:
            raise RefError("missing %s" % name)
        return default
    if isinstance(v, bool) or not isinstance(v, int):
        raise RefError("%s must be an integer" % name)
    return v


def _enum(args, name, values, required=True):
    v = _str(args, name, required)
    if v is not None and v not in values:
        raise RefError("%s must be one of %s" % (name, values))
    return v


def _get(db, coll, rid, what):
    if not isinstance(rid, str) or rid not in db[coll]:
        raise RefError("%s not found" % what)
    return db[coll][rid]


def _next_id(db, coll, prefix, width):
    n = max([int(k[len(prefix):]) for k in db[coll]] + [0]) + 1
    return "%s%0*d" % (prefix, width, n)


def _age(birth, on):
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


# ---------------------------------------------------------------- reads

def search_guests(db, a):
    q = _str(a, "query")
    st = _enum(a, "account_status", ["active", "on_hold"], False)
    q = q.strip().lower()
    if len(q) < 2:
        raise RefError("query needs at least 2 characters")
    out = [g for g in db["guests"].values()
           if (q in g["full_name"].lower() or q in g["email"].lower())
           and (st is None or g["account_status"] == st)]
    return sorted(out, key=lambda g: g["id"])


def list_lessons(db, a):
    df = _date(a["date_from"], "date_from") if a.get("date_from") is not None else None
    dt = _date(a["date_to"], "date_to") if a.get("date_to") is not None else None
    if df and dt and df > dt:
        raise RefError("date_from after date_to")
    disc = _enum(a, "discipline", DISCIPLINES, False)
    lvl = _enum(a, "level", LEVELS, False)
    lt = _enum(a, "lesson_type", ["group", "private"], False)
    st = _enum(a, "status", LESSON_STATUSES, False)
    ins = _str(a, "instructor_id", False)
    if ins is not None:
        _get(db, "instructors", ins, "instructor")
    avail = a.get("has_open_seats")
    if avail is not None and not isinstance(avail, bool):
        raise RefError("has_open_seats must be a boolean")
    out = []
    for les in db["lessons"].values():
        d = date.fromisoformat(les["date"])
        if (df and d < df) or (dt and d > dt):
            continue
        if disc and les["discipline"] != disc or lvl and les["level"] != lvl:
            continue
        if lt and les["lesson_type"] != lt or st and les["status"] != st:
            continue
        if ins and les["instructor_id"] != ins:
            continue
        if avail is not None and (les["seats_booked"] < les["capacity"]) != avail:
            continue
        out.append(les)
    return sorted(out, key=lambda x: (x["date"], x["slot"] != "morning", x["id"]))


def list_instructors(db, a):
    disc = _enum(a, "discipline", DISCIPLINES, False)
    st = _enum(a, "status", ["active", "on_leave"], False)
    mcl = _int(a, "min_cert_level", False)
    if mcl is not None and not 1 <= mcl <= 3:
        raise RefError("min_cert_level must be 1-3")
    out = [i for i in db["instructors"].values()
           if (disc is None or disc in i["disciplines"]) and (st is None or i["status"] == st)
           and (mcl is None or i["cert_level"] >= mcl)]
    return sorted(out, key=lambda i: i["id"])


def list_bookings(db, a):
    gid = _str(a, "guest_id", False)
    lid = _str(a, "lesson_id", False)
    st = _enum(a, "status", BOOKING_STATUSES, False)
    if gid is not None:
        _get(db, "guests", gid, "guest")
    if lid is not None:
        _get(db, "lessons", lid, "lesson")
    out = [b for b in db["bookings"].values()
           if (gid is None or b["guest_id"] == gid) and (lid is None or b["lesson_id"] == lid)
           and (st is None or b["status"] == st)]
    return sorted(out, key=lambda b: b["id"])


# ---------------------------------------------------------------- guests

def register_guest(db, a):
    name = _str(a, "full_name").strip()
    email = _str(a, "email").strip().lower()
    birth = _date(_str(a, "birth_date"), "birth_date")
    lvl = _enum(a, "skill_level", LEVELS, False) or "beginner"
    if not name:
        raise RefError("full_name is empty")
    if not EMAIL_RE.match(email):
        raise RefError("invalid email")
    if any(g["email"].lower() == email for g in db["guests"].values()):
        raise RefError("email already registered")
    today = _today(db)
    if birth > today or _age(birth, today) < 4:
        raise RefError("guests must be at least 4 years old")
    gid = _next_id(db, "guests", "G", 4)
    g = {"id": gid, "full_name": name, "email": email, "birth_date": birth.isoformat(),
         "skill_level": lvl, "account_status": "active", "credit_balance": 0.0,
         "lessons_attended": 0, "created_on": today.isoformat()}
    db["guests"][gid] = g
    return g


# ---------------------------------------------------------------- bookings

def create_booking(db, a):
    g = _get(db, "guests", _str(a, "guest_id"), "guest")
    les = _get(db, "lessons", _str(a, "lesson_id"), "lesson")
    seats = _int(a, "seats", False, 1)
    if not 1 <= seats <= 4:
        raise RefError("seats must be 1-4")
    if g["account_status"] != "active":
        raise RefError("guest account on hold")
    if les["status"] != "scheduled":
        raise RefError("lesson not open for booking")
    today = _today(db)
    d = date.fromisoformat(les["date"])
    if not today + timedelta(days=1) <= d <= today + timedelta(days=60):
        raise RefError("lesson outside booking window")
    active = [b for b in db["bookings"].values() if b["status"] in ("reserved", "paid")]
    if any(b["guest_id"] == g["id"] and b["lesson_id"] == les["id"] for b in active):
        raise RefError("guest already booked on this lesson")
    for b in active:
        o = db["lessons"][b["lesson_id"]]
        if b["guest_id"] == g["id"] and o["date"] == les["date"] and o["slot"] == les["slot"]:
            raise RefError("guest already booked in this slot")
    if les["lesson_type"] == "private":
        if any(b["lesson_id"] == les["id"] for b in active):
            raise RefError("private lesson already taken")
    elif LEVELS.index(g["skill_level"]) < LEVELS.index(les["level"]):
        raise RefError("group lesson above guest's level")
    if les["seats_booked"] + seats > les["capacity"]:
        raise RefError("not enough seats")
    early = (d - today).days >= 14
    amount = Decimal(str(les["price_per_seat"])) * seats
    if early:
        amount *= Decimal("0.9")
    bid = _next_id(db, "bookings", "B", 4)
    b = {"id": bid, "guest_id": g["id"], "lesson_id": les["id"], "seats": seats,
         "status": "reserved", "booked_on": today.isoformat(), "early_bird": early,
         "amount": _money(amount), "payment_method": None, "paid_on": None,
         "cancelled_on": None, "cancelled_by": None, "refund_amount": None}
    db["bookings"][bid] = b
    les["seats_booked"] += seats
    return b


def pay_booking(db, a):
    b = _get(db, "bookings", _str(a, "booking_id"), "booking")
    method = _enum(a, "payment_method", ["card", "credit"])
    if b["status"] != "reserved":
        raise RefError("only reserved bookings can be paid")
    les = db["lessons"][b["lesson_id"]]
    today = _today(db)
    if date.fromisoformat(les["date"]) < today:
        raise RefError("lesson already past")
    g = db["guests"][b["guest_id"]]
    if method == "credit":
        if Decimal(str(g["credit_balance"])) < Decimal(str(b["amount"])):
            raise RefError("insufficient credit")
        g["credit_balance"] = _money(Decimal(str(g["credit_balance"])) - Decimal(str(b["amount"])))
    b.update(status="paid", payment_method=method, paid_on=today.isoformat())
    return b


def _refund(db, b, pct, by, today):
    refund = _money(Decimal(str(b["amount"])) * pct) if b["status"] == "paid" else 0.0
    if refund:
        g = db["guests"][b["guest_id"]]
        g["credit_balance"] = _money(Decimal(str(g["credit_balance"])) + Decimal(str(refund)))
    b.update(status="cancelled", cancelled_on=today.isoformat(), cancelled_by=by,
             refund_amount=refund)


def cancel_booking(db, a):
    b = _get(db, "bookings", _str(a, "booking_id"), "booking")
    if b["status"] not in ("reserved", "paid"):
        raise RefError("booking cannot be cancelled")
    les = db["lessons"][b["lesson_id"]]
    today = _today(db)
    left = (date.fromisoformat(les["date"]) - today).days
    if left < 0:
        raise RefError("lesson already took place")
    pct = Decimal("1") if left >= 3 else (Decimal("0.5") if left >= 1 else Decimal("0"))
    _refund(db, b, pct, "guest", today)
    les["seats_booked"] -= b["seats"]
    return b


def check_in_booking(db, a):
    b = _get(db, "bookings", _str(a, "booking_id"), "booking")
    if b["status"] != "paid":
        raise RefError("only paid bookings can be checked in")
    les = db["lessons"][b["lesson_id"]]
    if les["date"] != db["meta"]["today"]:
        raise RefError("check-in only on the lesson day")
    if les["status"] != "scheduled" or not les["instructor_id"]:
        raise RefError("lesson has no instructor")
    b["status"] = "attended"
    db["guests"][b["guest_id"]]["lessons_attended"] += 1
    return b


# ---------------------------------------------------------------- lessons

def assign_instructor(db, a):
    les = _get(db, "lessons", _str(a, "lesson_id"), "lesson")
    ins = _get(db, "instructors", _str(a, "instructor_id"), "instructor")
    if les["status"] != "scheduled" or les["date"] < db["meta"]["today"]:
        raise RefError("lesson is not an upcoming scheduled lesson")
    if les["instructor_id"] == ins["id"]:
        raise RefError("instructor already assigned")
    if ins["status"] != "active":
        raise RefError("instructor not active")
    if les["discipline"] not in ins["disciplines"]:
        raise RefError("instructor does not teach this discipline")
    need = {"beginner": 1, "intermediate": 2, "advanced": 3}[les["level"]]
    if les["lesson_type"] == "private":
        need = max(need, 2)
    if ins["cert_level"] < need:
        raise RefError("certification level too low")
    for o in db["lessons"].values():
        if (o["id"] != les["id"] and o["instructor_id"] == ins["id"] and o["status"] == "scheduled"
                and o["date"] == les["date"] and o["slot"] == les["slot"]):
            raise RefError("instructor already teaching in this slot")
    if les["instructor_id"]:
        db["instructors"][les["instructor_id"]]["lessons_assigned"] -= 1
    les["instructor_id"] = ins["id"]
    ins["lessons_assigned"] += 1
    return les


def cancel_lesson(db, a):
    les = _get(db, "lessons", _str(a, "lesson_id"), "lesson")
    reason = _str(a, "reason").strip()
    if not reason:
        raise RefError("reason required")
    if les["status"] != "scheduled" or les["date"] < db["meta"]["today"]:
        raise RefError("only upcoming scheduled lessons can be cancelled")
    today = _today(db)
    for b in sorted(db["bookings"].values(), key=lambda x: x["id"]):
        if b["lesson_id"] == les["id"] and b["status"] in ("reserved", "paid"):
            _refund(db, b, Decimal("1"), "school", today)
    les.update(status="cancelled", cancel_reason=reason, seats_booked=0)
    if les["instructor_id"]:
        db["instructors"][les["instructor_id"]]["lessons_assigned"] -= 1
    return les


# ---------------------------------------------------------------- rentals

def create_rental(db, a):
    g = _get(db, "guests", _str(a, "guest_id"), "guest")
    et = _enum(a, "equipment_type", list(RATES))
    start = _date(_str(a, "start_date"), "start_date")
    days = _int(a, "days")
    if not 1 <= days <= 14:
        raise RefError("days must be 1-14")
    today = _today(db)
    if not today <= start <= today + timedelta(days=30):
        raise RefError("start_date outside rental window")
    if g["account_status"] != "active":
        raise RefError("guest account on hold")
    if any(r["guest_id"] == g["id"] and r["equipment_type"] == et
           and r["status"] in ("reserved", "out") for r in db["rentals"].values()):
        raise RefError("guest already has an open rental of this type")
    rate = Decimal(RATES[et])
    if et == "helmet" and _age(date.fromisoformat(g["birth_date"]), start) < 12:
        rate = Decimal("0")
    total = rate * days * (Decimal("0.85") if days >= 6 else 1)
    rid = _next_id(db, "rentals", "R", 4)
    r = {"id": rid, "guest_id": g["id"], "equipment_type": et, "start_date": start.isoformat(),
         "end_date": (start + timedelta(days=days - 1)).isoformat(), "days": days,
         "daily_rate": float(rate), "total": _money(total), "status": "reserved",
         "picked_up_on": None, "returned_on": None, "late_fee": None}
    db["rentals"][rid] = r
    return r


def pickup_rental(db, a):
    r = _get(db, "rentals", _str(a, "rental_id"), "rental")
    if r["status"] != "reserved":
        raise RefError("only reserved rentals can be picked up")
    t = db["meta"]["today"]
    if not r["start_date"] <= t <= r["end_date"]:
        raise RefError("pick-up only within the rental period")
    r.update(status="out", picked_up_on=t)
    return r


def return_rental(db, a):
    r = _get(db, "rentals", _str(a, "rental_id"), "rental")
    if r["status"] != "out":
        raise RefError("rental is not out")
    today = _today(db)
    late = max(0, (today - date.fromisoformat(r["end_date"])).days)
    fee = _money(Decimal(str(r["daily_rate"])) * late * Decimal("1.5"))
    r.update(status="returned", returned_on=today.isoformat(), late_fee=fee)
    return r


TOOLS = {f.__name__: f for f in [search_guests, list_lessons, list_instructors, list_bookings,
                                 register_guest, create_booking, pay_booking, cancel_booking,
                                 check_in_booking, assign_instructor, cancel_lesson,
                                 create_rental, pickup_rental, return_rental]}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool %s" % name)
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return TOOLS[name](db, args)
