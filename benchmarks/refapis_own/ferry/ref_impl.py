"""Reference implementation of the ferry booking desk API (stdlib only)."""
import math
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass

WRITE_TOOLS = {"register_customer", "create_booking", "add_vehicle", "check_in_booking",
               "cancel_booking", "change_booking_sailing", "cancel_sailing"}

DISCOUNT = {"adult": 0, "child": 50, "senior": 30, "student": 20}
SPACES = {"car": 1, "van": 2, "motorcycle": 1}
ACTIVE = ("confirmed", "checked_in")
BOOKING_STATUSES = ("confirmed", "checked_in", "cancelled", "completed")
SAILING_STATUSES = ("scheduled", "departed", "cancelled")
CUSTOMER_CANCEL_REASONS = ("change_of_plans", "illness", "weather", "other")
SAILING_CANCEL_REASONS = ("weather", "technical", "operational")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
REG_RE = re.compile(r"^[A-Z0-9]{2,8}$")

def _d(x):
    return Decimal(str(x))

def _money(x):
    return float(_d(x).quantize(Decimal("0.01"), ROUND_HALF_UP))

# ---------------------------------------------------------------- argument helpers
def _str(args, key, required=True):
    v = args.get(key)
    if v is None:
        if required:
            raise RefError("missing argument: %s" % key)
        return None
    if not isinstance(v, str):
        raise RefError("%s must be a string" % key)
    return v

def _date(args, key, required=True):
    v = _str(args, key, required)
    if v is None:
        return None
    if not DATE_RE.match(v):
        raise RefError("%s must be YYYY-MM-DD" % key)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a real date" % key)

def _enum(args, key, values, required=True):
    v = _str(args, key, required)
    if v is not None and v not in values:
        raise RefError("%s must be one of %s" % (key, ", ".join(values)))
    return v

def _get(db, coll, key, args, label):
    rid = _str(args, key)
    rec = db[coll].get(rid)
    if rec is None:
        raise RefError("%s %s not found" % (label, rid))
    return rec

def _today(db):
    return date.fromisoformat(db["meta"]["today"])

def _next_id(coll, prefix):
    nums = [int(k[len(prefix):]) for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    width = max((len(k) - len(prefix) for k in coll), default=4)
    return "%s%0*d" % (prefix, width, max(nums, default=0) + 1)

# ---------------------------------------------------------------- domain helpers
def _mult(sailing):
    return Decimal("1.25") if sailing["peak"] else Decimal("1")

def _pax_fare(route, sailing, cat):
    return _money(_d(route["adult_fare"]) * _mult(sailing) * Decimal(100 - DISCOUNT[cat]) / 100)

def _veh_fare(route, sailing, vtype):
    return _money(_d(route["vehicle_surcharges"][vtype]) * _mult(sailing))

def _spaces(booking):
    return SPACES[booking["vehicle"]["type"]] if booking.get("vehicle") else 0

def _norm_reg(raw):
    if not isinstance(raw, str):
        raise RefError("registration must be a string")
    reg = raw.replace(" ", "").upper()
    if not REG_RE.match(reg):
        raise RefError("registration must be 2-8 letters or digits")
    return reg

def _active_on(db, sailing_id, exclude=None):
    return [b for b in db["bookings"].values() if b["sailing_id"] == sailing_id
            and b["status"] in ACTIVE and b["booking_id"] != exclude]

def _bookable(db, sailing):
    """Refuse unless a sailing accepts new bookings / transfers."""
    if sailing["status"] != "scheduled":
        raise RefError("sailing is not scheduled")
    if db["routes"][sailing["route_id"]]["status"] != "active":
        raise RefError("route is suspended")
    dd, today = date.fromisoformat(sailing["departure_date"]), _today(db)
    if dd < today or dd > today + timedelta(days=db["meta"].get("booking_window_days", 90)):
        raise RefError("sailing is outside the booking window")

def _check_room(sailing, pax, spaces):
    if sailing["passengers_booked"] + pax > sailing["passenger_capacity"]:
        raise RefError("not enough passenger places")
    if sailing["vehicle_spaces_booked"] + spaces > sailing["vehicle_spaces"]:
        raise RefError("not enough vehicle deck space")

def _check_unique(db, sailing, customer_id, reg, exclude=None):
    for b in _active_on(db, sailing["sailing_id"], exclude):
        if b["customer_id"] == customer_id:
            raise RefError("customer already holds a booking on this sailing")
        if reg and b.get("vehicle") and b["vehicle"]["registration"] == reg:
            raise RefError("vehicle already booked on this sailing")

# ---------------------------------------------------------------- reads
def list_routes(db, args):
    port = _str(args, "port", False)
    status = _enum(args, "status", ("active", "suspended"), False)
    out = []
    for rid in sorted(db["routes"]):
        r = db["routes"][rid]
        if status and r["status"] != status:
            continue
        if port is not None and port.lower() not in r["origin"].lower() \
                and port.lower() not in r["destination"].lower():
            continue
        out.append(r)
    return out

def search_sailings(db, args):
    route_id = _str(args, "route_id", False)
    if route_id is not None and route_id not in db["routes"]:
        raise RefError("route not found")
    origin, dest = _str(args, "origin", False), _str(args, "destination", False)
    dfrom, dto = _date(args, "date_from", False), _date(args, "date_to", False)
    status = _enum(args, "status", SAILING_STATUSES, False)
    if dfrom and dto and dfrom > dto:
        raise RefError("date_from is after date_to")
    out = []
    for s in db["sailings"].values():
        r = db["routes"][s["route_id"]]
        dd = date.fromisoformat(s["departure_date"])
        if route_id and s["route_id"] != route_id:
            continue
        if origin is not None and r["origin"].lower() != origin.lower():
            continue
        if dest is not None and r["destination"].lower() != dest.lower():
            continue
        if (dfrom and dd < dfrom) or (dto and dd > dto) or (status and s["status"] != status):
            continue
        out.append(s)
    out.sort(key=lambda s: (s["departure_date"], s["departure_time"], s["sailing_id"]))
    return out

def get_sailing(db, args):
    return _get(db, "sailings", "sailing_id", args, "sailing")

def search_customers(db, args):
    q = _str(args, "query").strip().lower()
    if len(q) < 2:
        raise RefError("query must have at least 2 characters")
    return [db["customers"][c] for c in sorted(db["customers"])
            if q in db["customers"][c]["name"].lower() or q in db["customers"][c]["email"].lower()]

def list_customer_bookings(db, args):
    cust = _get(db, "customers", "customer_id", args, "customer")
    status = _enum(args, "status", BOOKING_STATUSES, False)
    return [db["bookings"][b] for b in sorted(db["bookings"])
            if db["bookings"][b]["customer_id"] == cust["customer_id"]
            and (status is None or db["bookings"][b]["status"] == status)]

def get_booking(db, args):
    return _get(db, "bookings", "booking_id", args, "booking")

# ---------------------------------------------------------------- writes
def register_customer(db, args):
    name = _str(args, "name").strip()
    if not name:
        raise RefError("name is required")
    email = _str(args, "email").strip().lower()
    if not EMAIL_RE.match(email):
        raise RefError("email is not valid")
    if any(c["email"].lower() == email for c in db["customers"].values()):
        raise RefError("email already registered")
    phone = _str(args, "phone", False)
    cid = _next_id(db["customers"], "C")
    rec = {"customer_id": cid, "name": name, "email": email, "phone": phone,
           "loyalty_points": 0, "status": "active", "joined_date": db["meta"]["today"]}
    db["customers"][cid] = rec
    return rec

def create_booking(db, args):
    cust = _get(db, "customers", "customer_id", args, "customer")
    sailing = _get(db, "sailings", "sailing_id", args, "sailing")
    pax = args.get("passengers")
    if not isinstance(pax, list) or not 1 <= len(pax) <= 9:
        raise RefError("passengers must be a list of 1 to 9 entries")
    for p in pax:
        if not isinstance(p, dict):
            raise RefError("each passenger must be an object")
        if not isinstance(p.get("name"), str) or not p["name"].strip():
            raise RefError("passenger name is required")
        if not isinstance(p.get("category"), str) or p["category"] not in DISCOUNT:
            raise RefError("passenger category is invalid")
    if not any(p["category"] in ("adult", "senior") for p in pax):
        raise RefError("at least one adult or senior must travel")
    veh = args.get("vehicle")
    reg = None
    if veh is not None:
        if not isinstance(veh, dict) or not isinstance(veh.get("type"), str) or veh["type"] not in SPACES:
            raise RefError("vehicle type is invalid")
        reg = _norm_reg(veh.get("registration"))
    points = args.get("redeem_points") or 0
    if not isinstance(points, int) or isinstance(points, bool) or points < 0 or points % 100:
        raise RefError("redeem_points must be a non-negative multiple of 100")
    if cust["status"] != "active":
        raise RefError("customer account is suspended")
    _bookable(db, sailing)
    _check_unique(db, sailing, cust["customer_id"], reg)
    spaces = SPACES[veh["type"]] if veh is not None else 0
    _check_room(sailing, len(pax), spaces)
    route = db["routes"][sailing["route_id"]]
    passengers = [{"name": p["name"].strip(), "category": p["category"],
                   "fare": _pax_fare(route, sailing, p["category"])} for p in pax]
    vehicle = None
    if veh is not None:
        vehicle = {"type": veh["type"], "registration": reg,
                   "surcharge": _veh_fare(route, sailing, veh["type"])}
    fare_total = _money(sum(_d(p["fare"]) for p in passengers)
                        + (_d(vehicle["surcharge"]) if vehicle else 0))
    if points > cust["loyalty_points"]:
        raise RefError("not enough loyalty points")
    if Decimal(points) / 100 > _d(fare_total):
        raise RefError("points would exceed the fare")
    bid = _next_id(db["bookings"], "BK")
    rec = {"booking_id": bid, "customer_id": cust["customer_id"],
           "sailing_id": sailing["sailing_id"], "status": "confirmed",
           "passengers": passengers, "vehicle": vehicle, "fare_total": fare_total,
           "points_redeemed": points,
           "amount_paid": _money(_d(fare_total) - Decimal(points) / 100),
           "change_count": 0, "points_earned": 0, "created_date": db["meta"]["today"],
           "checked_in_date": None, "cancelled_date": None, "cancel_reason": None,
           "refund_amount": None}
    cust["loyalty_points"] -= points
    sailing["passengers_booked"] += len(passengers)
    sailing["vehicle_spaces_booked"] += spaces
    db["bookings"][bid] = rec
    return rec

def add_vehicle(db, args):
    b = _get(db, "bookings", "booking_id", args, "booking")
    vtype = _enum(args, "vehicle_type", tuple(SPACES))
    reg = _norm_reg(args.get("registration"))
    if b["status"] != "confirmed":
        raise RefError("only confirmed bookings can take a vehicle")
    if b.get("vehicle"):
        raise RefError("booking already has a vehicle")
    sailing = db["sailings"][b["sailing_id"]]
    for o in _active_on(db, sailing["sailing_id"], b["booking_id"]):
        if o.get("vehicle") and o["vehicle"]["registration"] == reg:
            raise RefError("vehicle already booked on this sailing")
    _check_room(sailing, 0, SPACES[vtype])
    sur = _veh_fare(db["routes"][sailing["route_id"]], sailing, vtype)
    b.update(vehicle={"type": vtype, "registration": reg, "surcharge": sur},
             fare_total=_money(_d(b["fare_total"]) + _d(sur)),
             amount_paid=_money(_d(b["amount_paid"]) + _d(sur)))
    sailing["vehicle_spaces_booked"] += SPACES[vtype]
    return b

def check_in_booking(db, args):
    b = _get(db, "bookings", "booking_id", args, "booking")
    if b["status"] != "confirmed":
        raise RefError("only confirmed bookings can check in")
    sailing = db["sailings"][b["sailing_id"]]
    if sailing["status"] != "scheduled":
        raise RefError("sailing is not scheduled")
    dd, today = date.fromisoformat(sailing["departure_date"]), _today(db)
    if not (dd - timedelta(days=1) <= today <= dd):
        raise RefError("check-in opens the day before departure")
    earned = math.floor(_d(b["amount_paid"]))
    b.update(status="checked_in", checked_in_date=today.isoformat(), points_earned=earned)
    db["customers"][b["customer_id"]]["loyalty_points"] += earned
    return b

def _release(db, b, refund, reason):
    sailing = db["sailings"][b["sailing_id"]]
    sailing["passengers_booked"] -= len(b["passengers"])
    sailing["vehicle_spaces_booked"] -= _spaces(b)
    db["customers"][b["customer_id"]]["loyalty_points"] += b["points_redeemed"]
    b.update(status="cancelled", cancelled_date=db["meta"]["today"], cancel_reason=reason,
             refund_amount=refund)

def cancel_booking(db, args):
    b = _get(db, "bookings", "booking_id", args, "booking")
    reason = _enum(args, "reason", CUSTOMER_CANCEL_REASONS)
    if b["status"] != "confirmed":
        raise RefError("only confirmed bookings can be cancelled")
    dd = date.fromisoformat(db["sailings"][b["sailing_id"]]["departure_date"])
    days = (dd - _today(db)).days
    if days < 0:
        raise RefError("sailing has already left")
    pct = 100 if days >= 30 else 75 if days >= 14 else 50 if days >= 3 else 0
    _release(db, b, _money(_d(b["amount_paid"]) * pct / 100), reason)
    return b

def change_booking_sailing(db, args):
    b = _get(db, "bookings", "booking_id", args, "booking")
    new = _get(db, "sailings", "new_sailing_id", args, "sailing")
    if b["status"] != "confirmed":
        raise RefError("only confirmed bookings can be changed")
    old = db["sailings"][b["sailing_id"]]
    if new["sailing_id"] == old["sailing_id"]:
        raise RefError("booking is already on that sailing")
    if new["route_id"] != old["route_id"]:
        raise RefError("transfers must stay on the same route")
    if b["change_count"] >= 2:
        raise RefError("booking has already been changed twice")
    days = (date.fromisoformat(old["departure_date"]) - _today(db)).days
    if days < 1:
        raise RefError("changes close the day before the original sailing")
    _bookable(db, new)
    reg = b["vehicle"]["registration"] if b.get("vehicle") else None
    _check_unique(db, new, b["customer_id"], reg, b["booking_id"])
    _check_room(new, len(b["passengers"]), _spaces(b))
    route = db["routes"][new["route_id"]]
    for p in b["passengers"]:
        p["fare"] = _pax_fare(route, new, p["category"])
    if b.get("vehicle"):
        b["vehicle"]["surcharge"] = _veh_fare(route, new, b["vehicle"]["type"])
    new_total = _money(sum(_d(p["fare"]) for p in b["passengers"])
                       + (_d(b["vehicle"]["surcharge"]) if b.get("vehicle") else 0))
    fee = Decimal("10.00") if days >= 7 else Decimal("25.00")
    extra = max(Decimal(0), _d(new_total) - _d(b["fare_total"]))
    b.update(amount_paid=_money(_d(b["amount_paid"]) + fee + extra), fare_total=new_total,
             change_count=b["change_count"] + 1)
    old["passengers_booked"] -= len(b["passengers"])
    old["vehicle_spaces_booked"] -= _spaces(b)
    new["passengers_booked"] += len(b["passengers"])
    new["vehicle_spaces_booked"] += _spaces(b)
    b["sailing_id"] = new["sailing_id"]
    return b

def cancel_sailing(db, args):
    s = _get(db, "sailings", "sailing_id", args, "sailing")
    reason = _enum(args, "reason", SAILING_CANCEL_REASONS)
    if s["status"] != "scheduled":
        raise RefError("only scheduled sailings can be cancelled")
    if date.fromisoformat(s["departure_date"]) < _today(db):
        raise RefError("sailing date has passed")
    ids, total = [], Decimal(0)
    for b in sorted(_active_on(db, s["sailing_id"]), key=lambda x: x["booking_id"]):
        _release(db, b, b["amount_paid"], "operator_cancelled")
        ids.append(b["booking_id"])
        total += _d(b["amount_paid"])
    s.update(status="cancelled", cancel_reason=reason)
    return {"sailing": s, "cancelled_booking_ids": ids, "total_refunded": _money(total)}

TOOLS = {f.__name__: f for f in (
    list_routes, search_sailings, get_sailing, search_customers, list_customer_bookings,
    get_booking, register_customer, create_booking, add_vehicle, check_in_booking,
    cancel_booking, change_booking_sailing, cancel_sailing)}

def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool: %s" % name)
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return TOOLS[name](db, args)
