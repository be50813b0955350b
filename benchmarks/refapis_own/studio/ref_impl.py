"""Reference implementation of the Brasswick Sound Yard studio booking API (stdlib only)."""
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass


WRITE_TOOLS = {"book_session", "confirm_session", "start_session", "complete_session",
               "cancel_session", "mark_no_show", "add_rental", "pay_invoice"}

OPEN_HOUR, CLOSE_HOUR, NIGHT_FROM = 10, 24, 20
MAX_DURATION, BOOKING_HORIZON_DAYS, PAYMENT_TERMS_DAYS = 10, 90, 14
NIGHT_SURCHARGE = Decimal("0.25")
DEPOSIT_PCT, NO_SHOW_PCT = 20, 75
BLOCKING = {"tentative", "confirmed", "in_progress"}
WEEKLY_COUNTED = BLOCKING | {"completed"}
ROOM_KINDS = ["tracking", "mixing", "mastering", "vocal_booth", "rehearsal"]
ROOM_STATUSES = ["open", "maintenance"]
SKILLS = ["tracking", "mixing", "mastering", "vocal_production", "live_sound"]
CATEGORIES = ["microphone", "amplifier", "instrument", "outboard", "monitoring"]
CLIENT_KINDS = ["artist", "band", "label", "producer", "podcast"]
CLIENT_STATUSES = ["active", "suspended"]
SESSION_STATUSES = ["tentative", "confirmed", "in_progress", "completed", "cancelled", "no_show"]
INVOICE_STATUSES = ["open", "paid"]
PAY_METHODS = ["card", "bank_transfer", "account_balance"]
CENT = Decimal("0.01")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

SPECS = {  # tool -> (required, optional)
    "list_rooms": ((), ("kind", "status", "min_capacity")),
    "list_engineers": ((), ("skill", "active", "q")),
    "list_equipment": ((), ("category", "available_only", "q")),
    "list_clients": ((), ("q", "status", "kind")),
    "list_sessions": ((), ("client_id", "room_id", "engineer_id", "status", "date_from", "date_to")),
    "list_invoices": ((), ("client_id", "status", "overdue")),
    "book_session": (("client_id", "room_id", "date", "start_hour", "duration_hours"),
                     ("engineer_id", "party_size")),
    "confirm_session": (("session_id",), ()),
    "start_session": (("session_id",), ()),
    "complete_session": (("session_id",), ()),
    "cancel_session": (("session_id", "reason"), ("cancelled_by",)),
    "mark_no_show": (("session_id",), ()),
    "add_rental": (("session_id", "equipment_id"), ("quantity",)),
    "pay_invoice": (("invoice_id", "payment_method"), ()),
}

# ------------------------------------------------------------------ helpers
def _args(name, args):
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

def _int(v, what, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RefError("%s must be an integer from %d to %d" % (what, lo, hi))
    return v

def _bool(v, what):
    if not isinstance(v, bool):
        raise RefError("%s must be true or false" % what)
    return v

def _enum(v, allowed, what):
    if not isinstance(v, str) or v not in allowed:
        raise RefError("%s must be one of %s" % (what, allowed))
    return v

def _date(v, what):
    if not isinstance(v, str) or not DATE_RE.match(v):
        raise RefError("%s must be YYYY-MM-DD" % what)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a calendar date" % what)

def _today(db):
    return date.fromisoformat(db["meta"]["today"])

def _get(db, coll, rid, what):
    _str(rid, what)
    rec = db[coll].get(rid)
    if rec is None:
        raise RefError("%s %s not found" % (what, rid))
    return rec

def _next_id(db, coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in db[coll] if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return "%s%0*d" % (prefix, width, (max(nums) if nums else 0) + 1)

def _d(x):
    return Decimal(str(x))

def _money(x):  # cents, halves rounded up
    return x.quantize(CENT, rounding=ROUND_HALF_UP)

def _f(x):
    return float(_money(x))

def _pct(amount, p):
    return _money(amount * Decimal(p) / 100)

def _night_hours(start, dur):
    return max(0, start + dur - max(start, NIGHT_FROM))

def _hourly(db, s):
    eng = db["engineers"][s["engineer_id"]]["hourly_rate"] if s["engineer_id"] else 0
    return _d(db["rooms"][s["room_id"]]["hourly_rate"]) + _d(eng)

def _log(db, action, ref_id, client_id, amount):
    aid = _next_id(db, "activity", "AC", 5)
    db["activity"][aid] = {"id": aid, "on": db["meta"]["today"], "action": action, "ref_id": ref_id,
                           "client_id": client_id, "amount": None if amount is None else _f(amount)}

def _sorted(recs):
    return sorted(recs, key=lambda r: r["id"])

def _overlaps(s, day, start, dur):
    return s["date"] == day and s["start_hour"] < start + dur and start < s["start_hour"] + s["duration_hours"]

def _release_rentals(db, sid, new_status):
    for rt in db["rentals"].values():
        if rt["session_id"] == sid and rt["status"] == "reserved":
            rt["status"] = new_status
            db["equipment"][rt["equipment_id"]]["quantity_out"] -= rt["quantity"]

def _settle(db, s, amount, kind):
    """Set the deposit against an amount owed; refund the excess or invoice the rest."""
    client = db["clients"][s["client_id"]]
    deposit = _d(s["deposit"])
    if amount > deposit:
        iid = _next_id(db, "invoices", "IV", 4)
        today = _today(db)
        db["invoices"][iid] = {"id": iid, "client_id": s["client_id"], "session_id": s["id"], "kind": kind,
                               "amount": _f(amount - deposit), "issued_on": today.isoformat(),
                               "due_on": (today + timedelta(days=PAYMENT_TERMS_DAYS)).isoformat(),
                               "status": "open", "paid_on": None, "payment_method": None}
        s["invoice_id"] = iid
    else:
        client["account_balance"] = _f(_d(client["account_balance"]) + deposit - amount)

def _session(db, args, *statuses):
    s = _get(db, "sessions", args["session_id"], "session")
    if statuses and s["status"] not in statuses:
        raise RefError("session %s is %s" % (s["id"], s["status"]))
    return s

# ------------------------------------------------------------------ reads
def list_rooms(db, a):
    out = list(db["rooms"].values())
    if "kind" in a:
        out = [r for r in out if r["kind"] == _enum(a["kind"], ROOM_KINDS, "kind")]
    if "status" in a:
        out = [r for r in out if r["status"] == _enum(a["status"], ROOM_STATUSES, "status")]
    if "min_capacity" in a:
        out = [r for r in out if r["capacity"] >= _int(a["min_capacity"], "min_capacity", 1, 1000)]
    return _sorted(out)

def list_engineers(db, a):
    out = list(db["engineers"].values())
    if "skill" in a:
        out = [e for e in out if _enum(a["skill"], SKILLS, "skill") in e["skills"]]
    if "active" in a:
        out = [e for e in out if e["active"] == _bool(a["active"], "active")]
    if "q" in a:
        q = _str(a["q"], "q").lower()
        out = [e for e in out if q in e["name"].lower()]
    return _sorted(out)

def list_equipment(db, a):
    out = list(db["equipment"].values())
    if "category" in a:
        out = [e for e in out if e["category"] == _enum(a["category"], CATEGORIES, "category")]
    if "available_only" in a and _bool(a["available_only"], "available_only"):
        out = [e for e in out if not e["retired"] and e["quantity_total"] > e["quantity_out"]]
    if "q" in a:
        q = _str(a["q"], "q").lower()
        out = [e for e in out if q in e["name"].lower()]
    return _sorted(out)

def list_clients(db, a):
    out = list(db["clients"].values())
    if "q" in a:
        q = _str(a["q"], "q").lower()
        out = [c for c in out if q in c["name"].lower() or q in c["email"].lower()]
    if "status" in a:
        out = [c for c in out if c["status"] == _enum(a["status"], CLIENT_STATUSES, "status")]
    if "kind" in a:
        out = [c for c in out if c["kind"] == _enum(a["kind"], CLIENT_KINDS, "kind")]
    return _sorted(out)

def list_sessions(db, a):
    out = list(db["sessions"].values())
    for key, coll in (("client_id", "clients"), ("room_id", "rooms"), ("engineer_id", "engineers")):
        if key in a:
            _get(db, coll, a[key], key)
            out = [s for s in out if s[key] == a[key]]
    if "status" in a:
        out = [s for s in out if s["status"] == _enum(a["status"], SESSION_STATUSES, "status")]
    lo = _date(a["date_from"], "date_from") if "date_from" in a else None
    hi = _date(a["date_to"], "date_to") if "date_to" in a else None
    if lo and hi and lo > hi:
        raise RefError("date_from is after date_to")
    if lo:
        out = [s for s in out if s["date"] >= lo.isoformat()]
    if hi:
        out = [s for s in out if s["date"] <= hi.isoformat()]
    return _sorted(out)

def list_invoices(db, a):
    out = list(db["invoices"].values())
    if "client_id" in a:
        _get(db, "clients", a["client_id"], "client_id")
        out = [i for i in out if i["client_id"] == a["client_id"]]
    if "status" in a:
        out = [i for i in out if i["status"] == _enum(a["status"], INVOICE_STATUSES, "status")]
    if "overdue" in a:
        want, today = _bool(a["overdue"], "overdue"), db["meta"]["today"]
        out = [i for i in out if (i["status"] == "open" and i["due_on"] < today) == want]
    return _sorted(out)

# ------------------------------------------------------------------ writes
def book_session(db, a):
    today = _today(db)
    client = _get(db, "clients", a["client_id"], "client")
    room = _get(db, "rooms", a["room_id"], "room")
    day = _date(a["date"], "date")
    start = _int(a["start_hour"], "start_hour", OPEN_HOUR, CLOSE_HOUR - 1)
    dur = _int(a["duration_hours"], "duration_hours", 1, MAX_DURATION)
    party = _int(a.get("party_size", 1), "party_size", 1, 1000)
    eid = a.get("engineer_id")
    eng = None if eid is None else _get(db, "engineers", eid, "engineer")
    if start + dur > CLOSE_HOUR:
        raise RefError("sessions must end by midnight")
    if day < today or day > today + timedelta(days=BOOKING_HORIZON_DAYS):
        raise RefError("date must be between today and %d days ahead" % BOOKING_HORIZON_DAYS)
    if day.weekday() == 6:
        raise RefError("the studio is closed on Sundays")
    if client["status"] != "active":
        raise RefError("client is suspended")
    if any(i["client_id"] == client["id"] and i["status"] == "open" and i["due_on"] < today.isoformat()
           for i in db["invoices"].values()):
        raise RefError("client has an overdue invoice")
    if room["status"] != "open":
        raise RefError("room is under maintenance")
    if party > room["capacity"]:
        raise RefError("party exceeds room capacity")
    if room["required_skill"] and eng is None:
        raise RefError("this room needs an engineer")
    ds = day.isoformat()
    live = [s for s in db["sessions"].values() if s["status"] in BLOCKING]
    if any(s["client_id"] == client["id"] and s["date"] == ds for s in live):
        raise RefError("client already has a booking that day")
    if any(s["room_id"] == room["id"] and _overlaps(s, ds, start, dur) for s in live):
        raise RefError("room is already booked")
    if eng is not None:
        if not eng["active"]:
            raise RefError("engineer is inactive")
        if room["required_skill"] and room["required_skill"] not in eng["skills"]:
            raise RefError("engineer lacks the %s skill" % room["required_skill"])
        if any(s["engineer_id"] == eng["id"] and _overlaps(s, ds, start, dur) for s in live):
            raise RefError("engineer is already booked")
        week = day.isocalendar()[:2]
        booked = sum(s["duration_hours"] for s in db["sessions"].values()
                     if s["engineer_id"] == eng["id"] and s["status"] in WEEKLY_COUNTED
                     and date.fromisoformat(s["date"]).isocalendar()[:2] == week)
        if booked + dur > eng["weekly_hour_limit"]:
            raise RefError("engineer weekly hour limit exceeded")
    hourly = _d(room["hourly_rate"]) + _d(eng["hourly_rate"] if eng else 0)
    quote = _money(hourly * dur + hourly * NIGHT_SURCHARGE * _night_hours(start, dur))
    sid = _next_id(db, "sessions", "SS", 4)
    s = {"id": sid, "client_id": client["id"], "room_id": room["id"], "engineer_id": eid, "date": ds,
         "start_hour": start, "duration_hours": dur, "party_size": party, "status": "tentative",
         "quote": _f(quote), "deposit": 0.0, "created_on": today.isoformat(), "confirmed_on": None,
         "started_on": None, "completed_on": None, "cancelled_on": None, "cancelled_by": None,
         "cancel_reason": None, "cancellation_fee": None, "no_show_on": None, "no_show_fee": None,
         "package_hours_used": 0, "total": None, "invoice_id": None}
    db["sessions"][sid] = s
    _log(db, "session_booked", sid, client["id"], quote)
    return s

def confirm_session(db, a):
    s = _session(db, a, "tentative")
    client = db["clients"][s["client_id"]]
    if s["date"] < db["meta"]["today"]:
        raise RefError("session date has passed")
    if client["status"] != "active":
        raise RefError("client is suspended")
    deposit = _pct(_d(s["quote"]), DEPOSIT_PCT)
    balance = _d(client["account_balance"])
    if balance < deposit:
        raise RefError("account balance does not cover the deposit")
    client["account_balance"] = _f(balance - deposit)
    s.update(status="confirmed", deposit=_f(deposit), confirmed_on=db["meta"]["today"])
    _log(db, "session_confirmed", s["id"], s["client_id"], deposit)
    return s

def start_session(db, a):
    s = _session(db, a, "confirmed")
    if s["date"] != db["meta"]["today"]:
        raise RefError("a session can only be started on its date")
    s.update(status="in_progress", started_on=db["meta"]["today"])
    _log(db, "session_started", s["id"], s["client_id"], None)
    return s

def complete_session(db, a):
    s = _session(db, a, "in_progress")
    client = db["clients"][s["client_id"]]
    dur, hourly = s["duration_hours"], _hourly(db, s)
    used = min(client["prepaid_hours"], dur)
    rentals = sum((_d(rt["amount"]) for rt in db["rentals"].values()
                   if rt["session_id"] == s["id"] and rt["status"] == "reserved"), Decimal(0))
    total = _money(hourly * (dur - used) + hourly * NIGHT_SURCHARGE * _night_hours(s["start_hour"], dur) + rentals)
    client["prepaid_hours"] -= used
    if s["engineer_id"]:
        db["engineers"][s["engineer_id"]]["hours_logged"] += dur
    _release_rentals(db, s["id"], "returned")
    s.update(status="completed", completed_on=db["meta"]["today"], package_hours_used=used, total=_f(total))
    _settle(db, s, total, "session")
    _log(db, "session_completed", s["id"], s["client_id"], total)
    return s

def cancel_session(db, a):
    s = _session(db, a, "tentative", "confirmed")
    reason = _str(a["reason"], "reason")
    if not reason.strip() or len(reason) > 200:
        raise RefError("reason must be 1-200 characters")
    by = _enum(a.get("cancelled_by", "client"), ["client", "studio"], "cancelled_by")
    today = _today(db)
    day = date.fromisoformat(s["date"])
    if day < today:
        raise RefError("past sessions cannot be cancelled")
    notice = (day - today).days
    fee = Decimal(0)
    if s["status"] == "confirmed" and by == "client":
        fee = _pct(_d(s["quote"]), 0 if notice >= 7 else 25 if notice >= 2 else 50)
    _release_rentals(db, s["id"], "released")
    s.update(status="cancelled", cancelled_on=today.isoformat(), cancelled_by=by, cancel_reason=reason,
             cancellation_fee=_f(fee))
    _settle(db, s, fee, "cancellation")
    _log(db, "session_cancelled", s["id"], s["client_id"], fee)
    return s

def mark_no_show(db, a):
    s = _session(db, a, "confirmed")
    if s["date"] > db["meta"]["today"]:
        raise RefError("the session date has not come yet")
    fee = _pct(_d(s["quote"]), NO_SHOW_PCT)
    _release_rentals(db, s["id"], "released")
    s.update(status="no_show", no_show_on=db["meta"]["today"], no_show_fee=_f(fee))
    _settle(db, s, fee, "no_show")
    _log(db, "session_no_show", s["id"], s["client_id"], fee)
    return s

def add_rental(db, a):
    s = _session(db, a, "tentative", "confirmed", "in_progress")
    eq = _get(db, "equipment", a["equipment_id"], "equipment")
    qty = _int(a.get("quantity", 1), "quantity", 1, 1000)
    if s["date"] < db["meta"]["today"]:
        raise RefError("session date has passed")
    if eq["retired"]:
        raise RefError("equipment is retired")
    if any(rt["session_id"] == s["id"] and rt["equipment_id"] == eq["id"] and rt["status"] == "reserved"
           for rt in db["rentals"].values()):
        raise RefError("this item is already on the session")
    if qty > eq["quantity_total"] - eq["quantity_out"]:
        raise RefError("not enough units in stock")
    eq["quantity_out"] += qty
    amount = _money(_d(eq["session_rate"]) * qty)
    rid = _next_id(db, "rentals", "RT", 4)
    rt = {"id": rid, "session_id": s["id"], "equipment_id": eq["id"], "quantity": qty, "amount": _f(amount),
          "added_on": db["meta"]["today"], "status": "reserved"}
    db["rentals"][rid] = rt
    _log(db, "rental_added", s["id"], s["client_id"], amount)
    return rt

def pay_invoice(db, a):
    inv = _get(db, "invoices", a["invoice_id"], "invoice")
    method = _enum(a["payment_method"], PAY_METHODS, "payment_method")
    if inv["status"] != "open":
        raise RefError("invoice is already paid")
    if method == "account_balance":
        client = db["clients"][inv["client_id"]]
        balance = _d(client["account_balance"])
        if balance < _d(inv["amount"]):
            raise RefError("account balance is too low")
        client["account_balance"] = _f(balance - _d(inv["amount"]))
    inv.update(status="paid", paid_on=db["meta"]["today"], payment_method=method)
    _log(db, "invoice_paid", inv["id"], inv["client_id"], _d(inv["amount"]))
    return inv

def invoke(db, name, args):
    a = _args(name, args)
    return globals()[name](db, a)
