"""Reference implementation of the Northlight Fitness class-booking API (stdlib only)."""
import re
from datetime import date, timedelta


class RefError(Exception):
    pass


WRITE_TOOLS = {"book_class", "cancel_booking", "check_in", "complete_class", "cancel_class",
               "buy_credits", "freeze_membership"}
WAITLIST_MAX = 3
NO_SHOW_BLOCK = 3
MAX_FREEZE_DAYS = 60
PACKS = {5: 60.0, 10: 110.0, 20: 200.0}
LIVE = ("booked", "waitlisted")
CLASS_STATUSES = ["scheduled", "completed", "cancelled"]
BOOKING_STATUSES = ["booked", "waitlisted", "attended", "no_show", "cancelled"]
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SPECS = {
    "get_member": (("member_id",), ()),
    "list_classes": ((), ("date", "activity", "status", "has_space")),
    "get_class": (("class_id",), ()),
    "list_bookings": ((), ("member_id", "class_id", "status")),
    "book_class": (("member_id", "class_id"), ()),
    "cancel_booking": (("booking_id",), ()),
    "check_in": (("booking_id",), ()),
    "complete_class": (("class_id",), ()),
    "cancel_class": (("class_id", "reason"), ()),
    "buy_credits": (("member_id", "pack"), ()),
    "freeze_membership": (("member_id", "until"), ()),
}


def _check_args(name, args):
    if name not in SPECS:
        raise RefError("unknown tool %r" % name)
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    req, opt = SPECS[name]
    for k in args:
        if k not in req and k not in opt:
            raise RefError("unknown argument %r" % k)
    for k in req:
        if k not in args:
            raise RefError("missing argument %r" % k)
    return args


def _str(v, what):
    if not isinstance(v, str):
        raise RefError("%s must be a string" % what)
    return v


def _date(v, what):
    if not DATE_RE.match(_str(v, what)):
        raise RefError("%s must be YYYY-MM-DD" % what)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % what)


def _get(db, coll, rid, what):
    rec = db[coll].get(_str(rid, what))
    if rec is None:
        raise RefError("%s %s not found" % (what, rid))
    return rec


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _next_id(db, coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in db[coll] if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return "%s%0*d" % (prefix, width, (max(nums) if nums else 0) + 1)


def _class_date(db, cls):
    return date.fromisoformat(cls["date"])


def _bookings_of_class(db, cid, status):
    return sorted((b for b in db["bookings"].values() if b["class_id"] == cid and b["status"] == status),
                  key=lambda b: b["id"])


def _cancel(db, booking):
    booking["status"] = "cancelled"
    booking["cancelled_on"] = _today(db).isoformat()
    db["members"][booking["member_id"]]["credits"] += booking["credits_charged"]


# ---------------------------------------------------------------- reads
def get_member(db, a):
    return _get(db, "members", a["member_id"], "member")


def list_classes(db, a):
    out = list(db["classes"].values())
    if "date" in a:
        day = _date(a["date"], "date").isoformat()
        out = [c for c in out if c["date"] == day]
    if "activity" in a:
        q = _str(a["activity"], "activity").lower()
        out = [c for c in out if q in c["activity"].lower()]
    if "status" in a:
        if a["status"] not in CLASS_STATUSES:
            raise RefError("status must be one of %s" % CLASS_STATUSES)
        out = [c for c in out if c["status"] == a["status"]]
    if "has_space" in a:
        if not isinstance(a["has_space"], bool):
            raise RefError("has_space must be a boolean")
        out = [c for c in out if (c["booked_count"] < c["capacity"]) == a["has_space"]]
    return sorted(out, key=lambda c: c["id"])


def get_class(db, a):
    return _get(db, "classes", a["class_id"], "class")


def list_bookings(db, a):
    out = list(db["bookings"].values())
    if "member_id" in a:
        _get(db, "members", a["member_id"], "member")
        out = [b for b in out if b["member_id"] == a["member_id"]]
    if "class_id" in a:
        _get(db, "classes", a["class_id"], "class")
        out = [b for b in out if b["class_id"] == a["class_id"]]
    if "status" in a:
        if a["status"] not in BOOKING_STATUSES:
            raise RefError("status must be one of %s" % BOOKING_STATUSES)
        out = [b for b in out if b["status"] == a["status"]]
    return sorted(out, key=lambda b: b["id"])


# ---------------------------------------------------------------- writes
def book_class(db, a):
    member = _get(db, "members", a["member_id"], "member")
    cls = _get(db, "classes", a["class_id"], "class")
    if member["status"] != "active":
        raise RefError("membership is frozen")
    if member["no_shows"] >= NO_SHOW_BLOCK:
        raise RefError("too many no-shows")
    if cls["status"] != "scheduled" or _class_date(db, cls) <= _today(db):
        raise RefError("class is not open for booking")
    if cls["level"] == "advanced" and member["plan"] == "basic":
        raise RefError("advanced classes need the plus or unlimited plan")
    for b in db["bookings"].values():
        if b["member_id"] == member["id"] and b["status"] in ("booked", "waitlisted", "attended") \
                and db["classes"][b["class_id"]]["date"] == cls["date"]:
            raise RefError("one class per day")
    cost = 0 if member["plan"] == "unlimited" else cls["credit_cost"]
    if member["credits"] < cost:
        raise RefError("not enough credits")
    if cls["booked_count"] < cls["capacity"]:
        status = "booked"
    elif len(_bookings_of_class(db, cls["id"], "waitlisted")) < WAITLIST_MAX:
        status = "waitlisted"
    else:
        raise RefError("class and waitlist are full")
    bid = _next_id(db, "bookings", "B", 4)
    booking = {"id": bid, "member_id": member["id"], "class_id": cls["id"], "status": status,
               "booked_on": _today(db).isoformat(), "credits_charged": cost}
    db["bookings"][bid] = booking
    member["credits"] -= cost
    if status == "booked":
        cls["booked_count"] += 1
    return booking


def cancel_booking(db, a):
    booking = _get(db, "bookings", a["booking_id"], "booking")
    cls = db["classes"][booking["class_id"]]
    if booking["status"] not in LIVE:
        raise RefError("booking is %s" % booking["status"])
    if _class_date(db, cls) <= _today(db):
        raise RefError("cancellations close the day before the class")
    was_booked = booking["status"] == "booked"
    _cancel(db, booking)
    if was_booked:
        cls["booked_count"] -= 1
        waiting = _bookings_of_class(db, cls["id"], "waitlisted")
        if waiting:
            waiting[0]["status"] = "booked"
            cls["booked_count"] += 1
    return booking


def check_in(db, a):
    booking = _get(db, "bookings", a["booking_id"], "booking")
    cls = db["classes"][booking["class_id"]]
    if booking["status"] != "booked":
        raise RefError("booking is %s" % booking["status"])
    if cls["status"] != "scheduled" or _class_date(db, cls) != _today(db):
        raise RefError("check-in only on the day of a scheduled class")
    booking["status"] = "attended"
    return booking


def complete_class(db, a):
    cls = _get(db, "classes", a["class_id"], "class")
    if cls["status"] != "scheduled" or _class_date(db, cls) > _today(db):
        raise RefError("only a scheduled class on or before today can be completed")
    cls["status"] = "completed"
    for b in _bookings_of_class(db, cls["id"], "booked"):
        b["status"] = "no_show"
        db["members"][b["member_id"]]["no_shows"] += 1
    for b in _bookings_of_class(db, cls["id"], "waitlisted"):
        _cancel(db, b)
    return cls


def cancel_class(db, a):
    cls = _get(db, "classes", a["class_id"], "class")
    reason = _str(a["reason"], "reason")
    if not reason.strip() or len(reason) > 200:
        raise RefError("reason must be non-blank and at most 200 characters")
    if cls["status"] != "scheduled" or _class_date(db, cls) < _today(db):
        raise RefError("only a scheduled class today or later can be cancelled")
    if _bookings_of_class(db, cls["id"], "attended"):
        raise RefError("someone has already checked in")
    cls["status"] = "cancelled"
    cls["cancel_reason"] = reason
    for status in LIVE:
        for b in _bookings_of_class(db, cls["id"], status):
            _cancel(db, b)
    cls["booked_count"] = 0
    return cls


def buy_credits(db, a):
    member = _get(db, "members", a["member_id"], "member")
    pack = a["pack"]
    if isinstance(pack, bool) or not isinstance(pack, int) or pack not in PACKS:
        raise RefError("pack must be 5, 10 or 20")
    if member["plan"] == "unlimited":
        raise RefError("unlimited members do not use credits")
    member["credits"] += pack
    member["total_spent"] = round(member["total_spent"] + PACKS[pack], 2)
    return member


def freeze_membership(db, a):
    member = _get(db, "members", a["member_id"], "member")
    until = _date(a["until"], "until")
    today = _today(db)
    if member["status"] != "active":
        raise RefError("membership is already frozen")
    if until <= today or until > today + timedelta(days=MAX_FREEZE_DAYS):
        raise RefError("until must be after today and at most 60 days ahead")
    for b in db["bookings"].values():
        if b["member_id"] == member["id"] and b["status"] in LIVE \
                and today.isoformat() <= db["classes"][b["class_id"]]["date"] <= until.isoformat():
            raise RefError("member has bookings during the freeze")
    member["status"] = "frozen"
    member["frozen_until"] = until.isoformat()
    return member


TOOLS = {n: globals()[n] for n in SPECS}


def invoke(db, name, args):
    args = _check_args(name, args)
    return TOOLS[name](db, args)
