"""Reference implementation: the booking desk of an escape-room venue (Cipher Street)."""
import re
from datetime import date, datetime, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_customer", "issue_voucher", "create_booking", "update_booking",
               "cancel_booking", "check_in_booking", "mark_no_show", "record_outcome"}

DIFFICULTIES = ("beginner", "intermediate", "advanced", "expert")
ROOM_STATUSES = ("open", "maintenance")
SESSION_STATUSES = ("open", "booked", "played", "missed")
BOOKING_STATUSES = ("confirmed", "checked_in", "completed", "cancelled", "no_show")
PAYMENT_METHODS = ("card", "cash")
PERIODS = ("all_time", "last_30_days")
CENT = Decimal("0.01")
PEAK_WEEKDAYS = (4, 5, 6)  # Friday, Saturday, Sunday
GROUP_DISCOUNT_MIN = 6
GROUP_DISCOUNT_RATE = Decimal("0.10")
HINT_PENALTY = 120
EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}")


# ---------------------------------------------------------------- helpers
def _get(args, key, kind, required=True, default=None):
    if key not in args or args[key] is None:
        if required:
            raise RefError("missing argument: %s" % key)
        return default
    v = args[key]
    if kind is int and (isinstance(v, bool) or not isinstance(v, int)):
        raise RefError("%s must be an integer" % key)
    if kind is float and (isinstance(v, bool) or not isinstance(v, (int, float))):
        raise RefError("%s must be a number" % key)
    if kind is str and not isinstance(v, str):
        raise RefError("%s must be a string" % key)
    if kind is bool and not isinstance(v, bool):
        raise RefError("%s must be a boolean" % key)
    return v


def _text(args, key, required=True, max_len=None):
    v = _get(args, key, str, required=required)
    if v is None:
        return None
    if not v.strip():
        raise RefError("%s must not be blank" % key)
    if max_len is not None and len(v) > max_len:
        raise RefError("%s is too long" % key)
    return v


def _parse_date(s):
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        raise RefError("date must be YYYY-MM-DD")
    try:
        return date.fromisoformat(s)
    except ValueError:
        raise RefError("invalid date")


def _money(x):
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)


def _now(db):
    return datetime.fromisoformat(db["meta"]["now"])


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _next_id(coll, prefix, width):
    n = max([int(k[len(prefix):]) for k in coll if k.startswith(prefix)] or [0])
    return "%s%0*d" % (prefix, width, n + 1)


def _lookup(db, coll, key, args, what):
    rid = _get(args, key, str)
    if rid not in db[coll]:
        raise RefError("%s not found: %s" % (what, rid))
    return db[coll][rid]


def _enum(args, key, values):
    v = _get(args, key, str, required=False)
    if v is not None and v not in values:
        raise RefError("unknown %s: %s" % (key, v))
    return v


def _start(rec):
    return datetime.fromisoformat(rec["session_date"] + "T" + rec["start_time"])


def _session_start(s):
    return datetime.fromisoformat(s["date"] + "T" + s["start_time"])


def _find_voucher(db, code):
    for k, v in db["vouchers"].items():
        if k.upper() == code.strip().upper():
            return v
    return None


def _price_per_player(db, room, session_date):
    d = date.fromisoformat(session_date)
    peak = d.weekday() in PEAK_WEEKDAYS or session_date in db["meta"]["peak_dates"]
    return _money(room["peak_price"] if peak else room["offpeak_price"])


def _pricing(ppp, players):
    subtotal = ppp * players
    discount = Decimal("0.00")
    if players >= GROUP_DISCOUNT_MIN:
        discount = _money(subtotal * GROUP_DISCOUNT_RATE)
    return subtotal, discount, subtotal - discount


def _players(args, room, required=True):
    p = _get(args, "players", int, required=required)
    if p is not None and not room["min_players"] <= p <= room["max_players"]:
        raise RefError("players must be between %d and %d for this room"
                       % (room["min_players"], room["max_players"]))
    return p


def _status(rec, *allowed):
    if rec["status"] not in allowed:
        raise RefError("booking is %s" % rec["status"])


# ---------------------------------------------------------------- reads
def list_rooms(db, args):
    q = _get(args, "query", str, required=False)
    diff = _enum(args, "difficulty", DIFFICULTIES)
    st = _enum(args, "status", ROOM_STATUSES)
    players = _get(args, "players", int, required=False)
    if players is not None and players < 1:
        raise RefError("players must be at least 1")
    out = []
    for k in sorted(db["rooms"]):
        r = db["rooms"][k]
        if q is not None and q.lower() not in r["name"].lower() and q.lower() not in r["theme"].lower():
            continue
        if diff is not None and r["difficulty"] != diff:
            continue
        if st is not None and r["status"] != st:
            continue
        if players is not None and not r["min_players"] <= players <= r["max_players"]:
            continue
        out.append(r)
    return out


def _bookable(db, s):
    return (s["status"] == "open" and db["rooms"][s["room_id"]]["status"] == "open"
            and _session_start(s) - _now(db) >= timedelta(hours=2))


def list_sessions(db, args):
    ds = _get(args, "date", str, required=False)
    if ds is not None:
        _parse_date(ds)
    rid = _get(args, "room_id", str, required=False)
    st = _enum(args, "status", SESSION_STATUSES)
    players = _get(args, "players", int, required=False)
    if players is not None and players < 1:
        raise RefError("players must be at least 1")
    only = _get(args, "bookable_only", bool, required=False, default=False)
    out = []
    for s in db["sessions"].values():
        room = db["rooms"][s["room_id"]]
        if (ds is not None and s["date"] != ds) or (rid is not None and s["room_id"] != rid):
            continue
        if st is not None and s["status"] != st:
            continue
        if players is not None and not room["min_players"] <= players <= room["max_players"]:
            continue
        if only and not _bookable(db, s):
            continue
        out.append(s)
    return sorted(out, key=lambda s: (s["date"], s["start_time"], s["room_id"]))


def list_bookings(db, args):
    cid = _get(args, "customer_id", str, required=False)
    st = _enum(args, "status", BOOKING_STATUSES)
    ds = _get(args, "date", str, required=False)
    if ds is not None:
        _parse_date(ds)
    rid = _get(args, "room_id", str, required=False)
    out = [b for b in db["bookings"].values()
           if (cid is None or b["customer_id"] == cid) and (st is None or b["status"] == st)
           and (ds is None or b["session_date"] == ds) and (rid is None or b["room_id"] == rid)]
    return sorted(out, key=lambda b: (b["session_date"], b["start_time"], b["id"]))


def get_leaderboard(db, args):
    room = _lookup(db, "rooms", "room_id", args, "room")
    period = _enum(args, "period", PERIODS) or "all_time"
    limit = _get(args, "limit", int, required=False, default=10)
    if not 1 <= limit <= 25:
        raise RefError("limit must be between 1 and 25")
    since = (_today(db) - timedelta(days=30)).isoformat()
    rows = [b for b in db["bookings"].values()
            if b["room_id"] == room["id"] and b["status"] == "completed" and b["escaped"]
            and (period == "all_time" or b["session_date"] >= since)]
    rows.sort(key=lambda b: (b["escape_seconds"] + HINT_PENALTY * b["hints_used"],
                             b["escape_seconds"], b["session_date"], b["id"]))
    entries = [{"rank": i + 1, "booking_id": b["id"], "team_name": b["team_name"],
                "session_date": b["session_date"], "escape_seconds": b["escape_seconds"],
                "hints_used": b["hints_used"],
                "score_seconds": b["escape_seconds"] + HINT_PENALTY * b["hints_used"]}
               for i, b in enumerate(rows[:limit])]
    return {"room_id": room["id"], "period": period, "entries": entries}


def get_voucher(db, args):
    code = _get(args, "code", str)
    v = _find_voucher(db, code)
    if v is None:
        raise RefError("voucher not found")
    return v


# ---------------------------------------------------------------- writes
def register_customer(db, args):
    name = _text(args, "name", max_len=80)
    email = _get(args, "email", str).strip().lower()
    if not EMAIL_RE.fullmatch(email):
        raise RefError("invalid email address")
    if any(c["email"].lower() == email for c in db["customers"].values()):
        raise RefError("a customer with this email already exists")
    phone = _get(args, "phone", str, required=False)
    if phone is not None:
        digits = sum(ch.isdigit() for ch in phone)
        if not re.fullmatch(r"[0-9 +\-]+", phone) or not 7 <= digits <= 15:
            raise RefError("invalid phone number")
    cid = _next_id(db["customers"], "CU", 3)
    rec = {"id": cid, "name": name.strip(), "email": email, "phone": phone, "no_show_count": 0,
           "games_played": 0, "escapes": 0, "created_on": db["meta"]["today"]}
    db["customers"][cid] = rec
    return rec


def issue_voucher(db, args):
    purchaser = _text(args, "purchaser_name", max_len=80)
    value = _get(args, "value", float)
    recipient = _text(args, "recipient_name", required=False, max_len=80)
    dv = Decimal(str(value))
    if dv < 20 or dv > 500 or dv % 5 != 0:
        raise RefError("value must be a multiple of 5.00 between 20.00 and 500.00")
    today = _today(db)
    try:
        expires = today.replace(year=today.year + 1)
    except ValueError:  # 29 February
        expires = today.replace(year=today.year + 1, day=28)
    code = _next_id(db["vouchers"], "GV", 4)
    rec = {"code": code, "purchaser_name": purchaser.strip(),
           "recipient_name": recipient.strip() if recipient else None,
           "initial_value": float(_money(dv)), "balance": float(_money(dv)), "status": "active",
           "issued_on": today.isoformat(), "expires_on": expires.isoformat()}
    db["vouchers"][code] = rec
    return rec


def create_booking(db, args):
    cust = _lookup(db, "customers", "customer_id", args, "customer")
    sess = _lookup(db, "sessions", "session_id", args, "session")
    room = db["rooms"][sess["room_id"]]
    players = _players(args, room)
    team = _text(args, "team_name", required=False, max_len=30)
    notes = _get(args, "notes", str, required=False, default="")
    code = _get(args, "voucher_code", str, required=False)
    if cust["no_show_count"] >= 3:
        raise RefError("customer is blocked after three no-shows")
    if room["status"] != "open":
        raise RefError("room is closed for maintenance")
    if sess["status"] != "open":
        raise RefError("session is not open")
    if _session_start(sess) - _now(db) < timedelta(hours=2):
        raise RefError("sessions can be booked until two hours before the start")
    if any(b["customer_id"] == cust["id"] and b["status"] == "confirmed"
           and b["session_date"] == sess["date"] for b in db["bookings"].values()):
        raise RefError("customer already holds a confirmed booking on that date")
    if any(b["customer_id"] == cust["id"] and b["room_id"] == room["id"]
           and b["status"] == "completed" and b["escaped"] for b in db["bookings"].values()):
        raise RefError("customer has already escaped this room")
    voucher = None
    if code is not None:
        voucher = _find_voucher(db, code)
        if voucher is None:
            raise RefError("voucher not found")
        if voucher["status"] != "active" or voucher["balance"] <= 0:
            raise RefError("voucher is not active")
        if voucher["expires_on"] < sess["date"]:
            raise RefError("voucher expires before the session date")
    ppp = _price_per_player(db, room, sess["date"])
    subtotal, discount, total = _pricing(ppp, players)
    vamt = min(_money(voucher["balance"]), total) if voucher else Decimal("0.00")
    rate = Decimal("0.50") if cust["no_show_count"] >= 1 else Decimal("0.25")
    deposit = _money((total - vamt) * rate)
    bid = _next_id(db["bookings"], "B", 4)
    rec = {"id": bid, "customer_id": cust["id"], "session_id": sess["id"], "room_id": room["id"],
           "session_date": sess["date"], "start_time": sess["start_time"], "players": players,
           "team_name": team.strip() if team is not None else cust["name"], "notes": notes,
           "price_per_player": float(ppp), "subtotal": float(subtotal),
           "group_discount": float(discount), "total": float(total),
           "voucher_code": voucher["code"] if voucher else None, "voucher_amount": float(vamt),
           "deposit_rate": float(rate), "deposit_amount": float(deposit),
           "deposit_status": "paid" if deposit > 0 else "none",
           "balance_due": float(total - vamt - deposit), "balance_collected": None,
           "payment_method": None, "status": "confirmed", "created_at": db["meta"]["now"],
           "checked_in_at": None, "late_minutes": None, "game_minutes": None,
           "completed_at": None, "escaped": None, "escape_seconds": None, "hints_used": None,
           "cancelled_at": None, "cancel_reason": None, "late_cancellation": None,
           "no_show_at": None}
    db["bookings"][bid] = rec
    sess["status"] = "booked"
    sess["booking_id"] = bid
    if voucher:
        voucher["balance"] = float(_money(voucher["balance"]) - vamt)
        if voucher["balance"] == 0:
            voucher["status"] = "redeemed"
    return rec


def update_booking(db, args):
    b = _lookup(db, "bookings", "booking_id", args, "booking")
    room = db["rooms"][b["room_id"]]
    players = _players(args, room, required=False)
    team = _text(args, "team_name", required=False, max_len=30)
    notes = _get(args, "notes", str, required=False)
    if players is None and team is None and notes is None:
        raise RefError("nothing to update")
    _status(b, "confirmed", "checked_in")
    if players is not None:
        if b["status"] != "confirmed":
            raise RefError("the group size is fixed once the team has checked in")
        if _start(b) - _now(db) < timedelta(hours=24):
            raise RefError("the group size can be changed until 24 hours before the start")
        subtotal, discount, total = _pricing(_money(b["price_per_player"]), players)
        due = total - _money(b["voucher_amount"]) - _money(b["deposit_amount"])
        if due < 0:
            raise RefError("the new total would be below what has already been paid")
    if players is not None:
        b.update({"players": players, "subtotal": float(subtotal),
                  "group_discount": float(discount), "total": float(total),
                  "balance_due": float(due)})
    if team is not None:
        b["team_name"] = team.strip()
    if notes is not None:
        b["notes"] = notes
    return b


def cancel_booking(db, args):
    b = _lookup(db, "bookings", "booking_id", args, "booking")
    reason = _text(args, "reason")
    _status(b, "confirmed")
    now = _now(db)
    if _start(b) <= now:
        raise RefError("the session has started; record a no-show instead")
    late = _start(b) - now < timedelta(hours=72)
    b.update({"status": "cancelled", "cancelled_at": db["meta"]["now"], "cancel_reason": reason,
              "late_cancellation": late})
    if b["deposit_status"] == "paid":
        b["deposit_status"] = "forfeited" if late else "refunded"
    if not late and b["voucher_code"] and b["voucher_amount"] > 0:
        v = db["vouchers"][b["voucher_code"]]
        v["balance"] = float(_money(v["balance"]) + _money(b["voucher_amount"]))
        if v["status"] == "redeemed":
            v["status"] = "active"
    s = db["sessions"][b["session_id"]]
    s["status"] = "open"
    s["booking_id"] = None
    return b


def check_in_booking(db, args):
    b = _lookup(db, "bookings", "booking_id", args, "booking")
    pm = _enum(args, "payment_method", PAYMENT_METHODS)
    _status(b, "confirmed")
    now, start = _now(db), _start(b)
    if now < start - timedelta(minutes=30):
        raise RefError("check-in opens 30 minutes before the start")
    if now > start + timedelta(minutes=15):
        raise RefError("more than 15 minutes late: the session is lost")
    due = _money(b["balance_due"])
    if due > 0 and pm is None:
        raise RefError("payment_method is required to collect the balance")
    late = max(0, int((now - start).total_seconds() // 60))
    b.update({"status": "checked_in", "checked_in_at": db["meta"]["now"], "late_minutes": late,
              "game_minutes": db["rooms"][b["room_id"]]["duration_minutes"] - late,
              "balance_collected": float(due), "balance_due": 0.0,
              "payment_method": pm if due > 0 else None})
    if b["deposit_status"] == "paid":
        b["deposit_status"] = "applied"
    return b


def mark_no_show(db, args):
    b = _lookup(db, "bookings", "booking_id", args, "booking")
    _status(b, "confirmed")
    if _now(db) <= _start(b) + timedelta(minutes=15):
        raise RefError("a no-show can be recorded only once the 15-minute grace period is over")
    b["status"] = "no_show"
    b["no_show_at"] = db["meta"]["now"]
    if b["deposit_status"] == "paid":
        b["deposit_status"] = "forfeited"
    db["customers"][b["customer_id"]]["no_show_count"] += 1
    db["sessions"][b["session_id"]]["status"] = "missed"
    return b


def record_outcome(db, args):
    b = _lookup(db, "bookings", "booking_id", args, "booking")
    room = db["rooms"][b["room_id"]]
    escaped = _get(args, "escaped", bool)
    hints = _get(args, "hints_used", int)
    secs = _get(args, "escape_seconds", int, required=False)
    _status(b, "checked_in")
    if not 0 <= hints <= room["hint_limit"]:
        raise RefError("hints_used must be between 0 and the room's hint_limit")
    if escaped:
        if secs is None or not 1 <= secs <= b["game_minutes"] * 60:
            raise RefError("escape_seconds must be between 1 and the game time in seconds")
    elif secs is not None:
        raise RefError("escape_seconds is only given for teams that escaped")
    b.update({"status": "completed", "completed_at": db["meta"]["now"], "escaped": escaped,
              "escape_seconds": secs if escaped else None, "hints_used": hints})
    cust = db["customers"][b["customer_id"]]
    cust["games_played"] += 1
    if escaped:
        cust["escapes"] += 1
        if room["record_seconds"] is None or secs < room["record_seconds"]:
            room["record_seconds"] = secs
            room["record_booking_id"] = b["id"]
    db["sessions"][b["session_id"]]["status"] = "played"
    return b


TOOLS = {f.__name__: f for f in (
    list_rooms, list_sessions, list_bookings, get_leaderboard, get_voucher, register_customer,
    issue_voucher, create_booking, update_booking, cancel_booking, check_in_booking,
    mark_no_show, record_outcome)}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool: %s" % name)
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return TOOLS[name](db, args)
