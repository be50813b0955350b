"""Reference implementation of the Marlow Street Archive reading-room service."""
import copy
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_reader", "renew_reader_card", "book_seat", "cancel_booking", "place_request",
               "deliver_request", "return_request", "cancel_request", "place_copy_order",
               "cancel_copy_order"}
READ_TOOLS = {"get_reader", "search_items", "list_bookings", "list_requests"}

READER_TYPES = ("academic", "student", "public")
SESSIONS = ("morning", "afternoon")
FORMATS = ("manuscript", "photograph", "map", "printed", "audio")
ACCESS = ("open", "restricted", "closed")
LOCATIONS = ("in_storage", "reading_room", "conservation")
STORAGE = ("onsite", "offsite")
BOOKING_STATUS = ("booked", "attended", "no_show", "cancelled")
REQUEST_STATUS = ("requested", "delivered", "on_hold", "returned", "cancelled")
OPEN_REQUEST = ("requested", "delivered", "on_hold")
METHODS = ("photocopy", "scan", "photograph")
DELIVERY = ("collect", "post", "email")

DESKS = 10
BOOKING_HORIZON = 21
MAX_UPCOMING = 4
OFFSITE_LEAD = 2
HOLD_MAX_DAYS = 10
HOLD_MAX_COUNT = 2
RENEW_WINDOW = 30
CARD_DAYS = {"academic": 365, "public": 365, "student": 180}
REQUEST_LIMIT = {"academic": 6, "student": 4, "public": 3}
UNIT_PRICE = {"photocopy": Decimal("0.30"), "scan": Decimal("0.45"), "photograph": Decimal("1.20")}
POSTAGE = Decimal("4.50")
STUDENT_FACTOR = Decimal("0.85")
MIN_FEE = Decimal("2.00")
BALANCE_CAP = Decimal("60.00")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# ------------------------------------------------------------------ helpers
def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _money(x):
    return Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _parse_date(value, field):
    if not isinstance(value, str) or not DATE_RE.match(value):
        raise RefError(f"{field} must be a date YYYY-MM-DD")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise RefError(f"{field} is not a real date")


def _args(args, spec):
    """spec: field -> (kind, required, enum-or-None). Returns cleaned dict."""
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    out = {}
    for field, (kind, required, enum) in spec.items():
        if field not in args or args[field] is None:
            if required:
                raise RefError(f"missing {field}")
            out[field] = None
            continue
        v = args[field]
        if kind == "str":
            if not isinstance(v, str) or not v.strip():
                raise RefError(f"{field} must be a non-empty string")
        elif kind == "int":
            if isinstance(v, bool) or not isinstance(v, int):
                raise RefError(f"{field} must be an integer")
        elif kind == "bool":
            if not isinstance(v, bool):
                raise RefError(f"{field} must be a boolean")
        elif kind == "date":
            v = _parse_date(v, field)
        if enum is not None and v not in enum:
            raise RefError(f"{field} must be one of {', '.join(enum)}")
        out[field] = v
    return out


def _get(db, coll, key, label):
    rec = db[coll].get(key)
    if rec is None:
        raise RefError(f"{label} {key} not found")
    return rec


def _next_id(db, coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in db[coll] if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return f"{prefix}{(max(nums) if nums else 0) + 1:0{width}d}"


_out = copy.deepcopy


def _require_active(reader):
    if reader["status"] != "active":
        raise RefError("reader is suspended")


def _open_for_item(db, item_id):
    return [q for q in db["requests"].values() if q["item_id"] == item_id and q["status"] in OPEN_REQUEST]


def _may_view(reader, item):
    if item["access"] == "closed":
        raise RefError("closed items are not produced")
    if item["access"] == "restricted" and reader["reader_type"] != "academic":
        raise RefError("restricted items are for academic readers only")
    if item["location"] == "conservation":
        raise RefError("item is with the conservation studio")


def copy_fee(reader_type, method, pages, delivery):
    page_charge = UNIT_PRICE[method] * pages
    if reader_type == "student":
        page_charge *= STUDENT_FACTOR
    total = page_charge + (POSTAGE if delivery == "post" else Decimal("0"))
    return max(_money(total), MIN_FEE)


# ------------------------------------------------------------------ readers
def get_reader(db, a):
    a = _args(a, {"reader_id": ("str", True, None)})
    return _out(_get(db, "readers", a["reader_id"], "reader"))


def register_reader(db, a):
    a = _args(a, {"name": ("str", True, None), "email": ("str", True, None),
                  "reader_type": ("str", True, READER_TYPES)})
    email = a["email"].strip().lower()
    if not EMAIL_RE.match(email):
        raise RefError("email is not a valid address")
    if any(r["email"].lower() == email for r in db["readers"].values()):
        raise RefError("a reader with this email already exists")
    today = _today(db)
    rid = _next_id(db, "readers", "RD", 4)
    rec = {"id": rid, "name": a["name"], "email": email, "reader_type": a["reader_type"], "status": "active",
           "registered_on": today.isoformat(),
           "card_expires": (today + timedelta(days=CARD_DAYS[a["reader_type"]])).isoformat(),
           "open_requests": 0, "balance_due": 0.0}
    db["readers"][rid] = rec
    return _out(rec)


def renew_reader_card(db, a):
    a = _args(a, {"reader_id": ("str", True, None)})
    r = _get(db, "readers", a["reader_id"], "reader")
    _require_active(r)
    if _money(r["balance_due"]) > 0:
        raise RefError("outstanding balance must be cleared before renewal")
    today = _today(db)
    exp = date.fromisoformat(r["card_expires"])
    if exp > today + timedelta(days=RENEW_WINDOW):
        raise RefError("too early to renew")
    r["card_expires"] = (max(exp, today) + timedelta(days=CARD_DAYS[r["reader_type"]])).isoformat()
    return _out(r)


# ------------------------------------------------------------------ items
def search_items(db, a):
    a = _args(a, {"q": ("str", False, None), "format": ("str", False, FORMATS),
                  "access": ("str", False, ACCESS), "location": ("str", False, LOCATIONS),
                  "storage": ("str", False, STORAGE)})
    q = a["q"].lower() if a["q"] is not None else None
    res = [_out(it) for it in db["items"].values()
           if (q is None or q in it["title"].lower() or q in it["reference_code"].lower())
           and all(a[f] is None or it[f] == a[f] for f in ("format", "access", "location", "storage"))]
    return sorted(res, key=lambda x: x["id"])


# ------------------------------------------------------------------ bookings
def list_bookings(db, a):
    a = _args(a, {"reader_id": ("str", False, None), "date": ("date", False, None),
                  "session": ("str", False, SESSIONS), "status": ("str", False, BOOKING_STATUS)})
    if a["reader_id"] is not None:
        _get(db, "readers", a["reader_id"], "reader")
    if a["date"] is not None:
        a["date"] = a["date"].isoformat()
    res = [_out(b) for b in db["bookings"].values()
           if all(a[f] is None or b[f] == a[f] for f in ("reader_id", "date", "session", "status"))]
    return sorted(res, key=lambda x: x["id"])


def book_seat(db, a):
    a = _args(a, {"reader_id": ("str", True, None), "date": ("date", True, None),
                  "session": ("str", True, SESSIONS)})
    r = _get(db, "readers", a["reader_id"], "reader")
    _require_active(r)
    today, day, session = _today(db), a["date"], a["session"]
    if day < today or day > today + timedelta(days=BOOKING_HORIZON):
        raise RefError("seats can be booked from today up to 21 days ahead")
    if day.weekday() == 6 or (day.weekday() == 5 and session == "afternoon"):
        raise RefError("the reading room is closed for that session")
    if date.fromisoformat(r["card_expires"]) < day:
        raise RefError("reader ticket is not valid on that date")
    mine = [b for b in db["bookings"].values() if b["reader_id"] == r["id"] and b["status"] == "booked"]
    if any(b["date"] == day.isoformat() and b["session"] == session for b in mine):
        raise RefError("reader already has a seat for this session")
    if sum(1 for b in mine if b["date"] >= today.isoformat()) >= MAX_UPCOMING:
        raise RefError("reader already holds the maximum number of upcoming bookings")
    taken = {b["desk"] for b in db["bookings"].values()
             if b["date"] == day.isoformat() and b["session"] == session and b["status"] == "booked"}
    free = [n for n in range(1, DESKS + 1) if n not in taken]
    if not free:
        raise RefError("session is fully booked")
    bid = _next_id(db, "bookings", "BK", 4)
    rec = {"id": bid, "reader_id": r["id"], "date": day.isoformat(), "session": session, "desk": free[0],
           "status": "booked", "created_on": today.isoformat()}
    db["bookings"][bid] = rec
    return _out(rec)


def cancel_booking(db, a):
    a = _args(a, {"booking_id": ("str", True, None)})
    b = _get(db, "bookings", a["booking_id"], "booking")
    today = _today(db)
    if b["status"] != "booked":
        raise RefError("only booked seats can be cancelled")
    if b["date"] < today.isoformat():
        raise RefError("past bookings cannot be cancelled")
    linked = [q for q in db["requests"].values() if q["booking_id"] == b["id"]]
    if any(q["status"] == "delivered" for q in linked):
        raise RefError("an item is still out at this desk")
    b["status"] = "cancelled"
    b["cancelled_on"] = today.isoformat()
    reader = db["readers"].get(b["reader_id"])
    for q in linked:
        if q["status"] == "requested":
            q["status"] = "cancelled"
            q["cancelled_on"] = today.isoformat()
            if reader is not None:
                reader["open_requests"] = max(0, reader["open_requests"] - 1)
    return _out(b)


# ------------------------------------------------------------------ requests
def list_requests(db, a):
    a = _args(a, {"reader_id": ("str", False, None), "item_id": ("str", False, None),
                  "status": ("str", False, REQUEST_STATUS)})
    if a["reader_id"] is not None:
        _get(db, "readers", a["reader_id"], "reader")
    if a["item_id"] is not None:
        _get(db, "items", a["item_id"], "item")
    res = [_out(q) for q in db["requests"].values()
           if all(a[f] is None or q[f] == a[f] for f in ("reader_id", "item_id", "status"))]
    return sorted(res, key=lambda x: x["id"])


def place_request(db, a):
    a = _args(a, {"reader_id": ("str", True, None), "item_id": ("str", True, None),
                  "booking_id": ("str", True, None)})
    r = _get(db, "readers", a["reader_id"], "reader")
    it = _get(db, "items", a["item_id"], "item")
    b = _get(db, "bookings", a["booking_id"], "booking")
    today = _today(db)
    _require_active(r)
    if b["reader_id"] != r["id"]:
        raise RefError("booking belongs to another reader")
    if b["status"] != "booked" or b["date"] < today.isoformat():
        raise RefError("booking is not an upcoming booked seat")
    day = date.fromisoformat(b["date"])
    if date.fromisoformat(r["card_expires"]) < day:
        raise RefError("reader ticket is not valid on the booking date")
    _may_view(r, it)
    if _open_for_item(db, it["id"]) or it["location"] != "in_storage":
        raise RefError("item is already requested by a reader")
    if it["storage"] == "offsite" and day < today + timedelta(days=OFFSITE_LEAD):
        raise RefError("offsite items need two days' notice")
    if r["open_requests"] >= REQUEST_LIMIT[r["reader_type"]]:
        raise RefError("reader has reached the open request limit")
    qid = _next_id(db, "requests", "RQ", 4)
    rec = {"id": qid, "reader_id": r["id"], "item_id": it["id"], "booking_id": b["id"], "status": "requested",
           "placed_on": today.isoformat(), "needed_on": b["date"], "desk": b["desk"], "hold_count": 0,
           "delivered_on": None, "hold_until": None, "returned_on": None, "cancelled_on": None}
    db["requests"][qid] = rec
    r["open_requests"] += 1
    return _out(rec)


def deliver_request(db, a):
    a = _args(a, {"request_id": ("str", True, None)})
    q = _get(db, "requests", a["request_id"], "request")
    today = _today(db).isoformat()
    if q["status"] == "requested":
        if q["needed_on"] != today:
            raise RefError("items are delivered only on the day they are needed")
    elif q["status"] == "on_hold":
        if q["hold_until"] is None or q["hold_until"] < today:
            raise RefError("hold has lapsed; the item must be returned")
        todays = sorted((b for b in db["bookings"].values() if b["reader_id"] == q["reader_id"]
                         and b["status"] == "booked" and b["date"] == today),
                        key=lambda b: SESSIONS.index(b["session"]))
        if not todays:
            raise RefError("reader has no seat booked today")
        q["booking_id"], q["desk"], q["needed_on"] = todays[0]["id"], todays[0]["desk"], today
        q["hold_until"] = None
    else:
        raise RefError("request cannot be delivered in its current status")
    q["status"] = "delivered"
    q["delivered_on"] = today
    it = db["items"].get(q["item_id"])
    if it is not None:
        it["location"] = "reading_room"
    return _out(q)


def return_request(db, a):
    a = _args(a, {"request_id": ("str", True, None), "hold": ("bool", False, None),
                  "hold_until": ("date", False, None)})
    q = _get(db, "requests", a["request_id"], "request")
    today = _today(db)
    if a["hold"]:
        if q["status"] != "delivered":
            raise RefError("only a delivered item can be put on hold")
        if q["hold_count"] >= HOLD_MAX_COUNT:
            raise RefError("request has already been held the maximum number of times")
        until = a["hold_until"]
        if until is None:
            raise RefError("hold_until is required when hold is true")
        if until <= today or until > today + timedelta(days=HOLD_MAX_DAYS):
            raise RefError("hold_until must be within the next 10 days")
        q["status"] = "on_hold"
        q["hold_until"] = until.isoformat()
        q["hold_count"] += 1
        return _out(q)
    if q["status"] not in ("delivered", "on_hold"):
        raise RefError("only delivered or held items can be returned")
    q["status"] = "returned"
    q["returned_on"] = today.isoformat()
    q["hold_until"] = None
    it = db["items"].get(q["item_id"])
    if it is not None:
        it["location"] = "in_storage"
    r = db["readers"].get(q["reader_id"])
    if r is not None:
        r["open_requests"] = max(0, r["open_requests"] - 1)
    return _out(q)


def cancel_request(db, a):
    a = _args(a, {"request_id": ("str", True, None)})
    q = _get(db, "requests", a["request_id"], "request")
    if q["status"] != "requested":
        raise RefError("only requests not yet delivered can be cancelled")
    q["status"] = "cancelled"
    q["cancelled_on"] = _today(db).isoformat()
    r = db["readers"].get(q["reader_id"])
    if r is not None:
        r["open_requests"] = max(0, r["open_requests"] - 1)
    return _out(q)


# ------------------------------------------------------------------ copy orders
def place_copy_order(db, a):
    a = _args(a, {"reader_id": ("str", True, None), "item_id": ("str", True, None),
                  "method": ("str", True, METHODS), "pages": ("int", True, None),
                  "delivery": ("str", True, DELIVERY)})
    r = _get(db, "readers", a["reader_id"], "reader")
    it = _get(db, "items", a["item_id"], "item")
    today = _today(db)
    _require_active(r)
    if date.fromisoformat(r["card_expires"]) < today:
        raise RefError("reader ticket has expired")
    if a["pages"] < 1:
        raise RefError("pages must be at least 1")
    if not it["copy_allowed"]:
        raise RefError("copying is not permitted for this item")
    _may_view(r, it)
    if it["fragile"] and a["method"] != "photograph":
        raise RefError("fragile items may only be photographed")
    if a["pages"] > it["page_count"]:
        raise RefError("more pages than the item has")
    if a["delivery"] == "email" and a["method"] == "photocopy":
        raise RefError("photocopies cannot be emailed")
    fee = copy_fee(r["reader_type"], a["method"], a["pages"], a["delivery"])
    owed = _money(r["balance_due"])
    if owed + fee > BALANCE_CAP:
        raise RefError("order would take the balance above 60.00")
    oid = _next_id(db, "copy_orders", "CO", 4)
    rec = {"id": oid, "reader_id": r["id"], "item_id": it["id"], "method": a["method"], "pages": a["pages"],
           "delivery": a["delivery"], "fee": float(fee), "status": "pending", "ordered_on": today.isoformat()}
    db["copy_orders"][oid] = rec
    r["balance_due"] = float(owed + fee)
    return _out(rec)


def cancel_copy_order(db, a):
    a = _args(a, {"order_id": ("str", True, None)})
    o = _get(db, "copy_orders", a["order_id"], "copy order")
    if o["status"] != "pending":
        raise RefError("only pending copy orders can be cancelled")
    o["status"] = "cancelled"
    o["cancelled_on"] = _today(db).isoformat()
    r = db["readers"].get(o["reader_id"])
    if r is not None:
        r["balance_due"] = float(max(Decimal("0.00"), _money(r["balance_due"]) - _money(o["fee"])))
    return _out(o)


TOOLS = {name: globals()[name] for name in WRITE_TOOLS | READ_TOOLS}


def invoke(db, name, args):
    fn = TOOLS.get(name)
    if fn is None:
        raise RefError(f"unknown tool {name}")
    return fn(db, args if args is not None else {})
