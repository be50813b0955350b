"""Reference implementation of the Spokes & Sprockets rental and repair API (stdlib only)."""
import datetime as dt
import re
from decimal import Decimal, ROUND_HALF_UP, InvalidOperation


class RefError(Exception):
    """Raised when the shop refuses a request."""


WRITE_TOOLS = {"top_up_wallet", "create_rental", "start_rental", "return_rental", "cancel_rental",
               "open_repair_ticket", "add_part_to_ticket", "complete_repair"}

BIKE_TYPES = {"city", "road", "mountain", "hybrid", "ebike", "kids"}
BIKE_SIZES = {"XS", "S", "M", "L", "XL"}
BIKE_STATUSES = {"available", "reserved", "rented", "in_repair", "retired"}
RENTAL_STATUSES = {"reserved", "active", "returned", "cancelled"}
TICKET_STATUSES = {"open", "in_progress", "completed", "cancelled"}
PART_CATEGORIES = {"tires", "brakes", "drivetrain", "cables", "lights", "accessories"}
CANCEL_REASONS = {"customer_request", "weather", "bike_issue", "other"}
CONDITIONS = {"good", "damaged"}
LABOR = {"flat_fix": "12.00", "brake_service": "29.00", "basic_tune": "35.00",
         "drivetrain_service": "49.00", "full_service": "89.00"}
MEMBER_RENTAL_DISCOUNT = {"basic": 10, "premium": 20}
PREMIUM_LABOR_FACTOR = Decimal("0.85")
DAMAGE_FEE = Decimal("40.00")
TOPUP_MIN, TOPUP_MAX, WALLET_CAP = Decimal("5.00"), Decimal("500.00"), Decimal("1000.00")
MAX_OPEN_RENTALS = 2
MAX_DAYS = 14
BOOKING_WINDOW_DAYS = 30
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# ---------------------------------------------------------------- helpers
def _money(x):
    return float(Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _dec(x):
    return Decimal(str(x))


def _today(db):
    return dt.date.fromisoformat(db["meta"]["today"])


def _args(args):
    if args is None:
        return {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return args


def _str(args, key, required=True):
    v = args.get(key)
    if v is None:
        if required:
            raise RefError(f"{key} is required")
        return None
    if not isinstance(v, str) or not v:
        raise RefError(f"{key} must be a non-empty string")
    return v


def _enum(args, key, allowed, required=True):
    v = _str(args, key, required)
    if v is not None and v not in allowed:
        raise RefError(f"{key} must be one of {sorted(allowed)}")
    return v


def _int(args, key, lo, hi):
    v = args.get(key)
    if v is None:
        raise RefError(f"{key} is required")
    if isinstance(v, bool) or not isinstance(v, int):
        raise RefError(f"{key} must be an integer")
    if not lo <= v <= hi:
        raise RefError(f"{key} must be between {lo} and {hi}")
    return v


def _date(args, key):
    v = _str(args, key)
    if not DATE_RE.match(v):
        raise RefError(f"{key} must be YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{key} is not a valid date")


def _bool(args, key):
    v = args.get(key)
    if v is None:
        return False
    if not isinstance(v, bool):
        raise RefError(f"{key} must be a boolean")
    return v


def _get(db, coll, key, label):
    if key is None or key not in db[coll]:
        raise RefError(f"{label} {key} not found")
    return db[coll][key]


def _next_id(coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return f"{prefix}{(max(nums) if nums else 0) + 1:0{width}d}"


def _member_on(cust, day):
    exp = cust.get("membership_expires")
    return cust["membership"] != "none" and exp is not None and exp >= day.isoformat()


def _sorted(records):
    return [records[k] for k in sorted(records)]


# ---------------------------------------------------------------- reads
def get_customer(db, a):
    return _get(db, "customers", _str(a, "customer_id"), "customer")


def list_bikes(db, a):
    typ = _enum(a, "type", BIKE_TYPES, False)
    status = _enum(a, "status", BIKE_STATUSES, False)
    size = _enum(a, "size", BIKE_SIZES, False)
    return [b for b in _sorted(db["bikes"]) if (typ is None or b["type"] == typ)
            and (status is None or b["status"] == status) and (size is None or b["size"] == size)]


def list_rentals(db, a):
    cid = _str(a, "customer_id", False)
    bid = _str(a, "bike_id", False)
    status = _enum(a, "status", RENTAL_STATUSES, False)
    if cid is not None:
        _get(db, "customers", cid, "customer")
    if bid is not None:
        _get(db, "bikes", bid, "bike")
    return [r for r in _sorted(db["rentals"]) if (cid is None or r["customer_id"] == cid)
            and (bid is None or r["bike_id"] == bid) and (status is None or r["status"] == status)]


def list_repair_tickets(db, a):
    cid = _str(a, "customer_id", False)
    status = _enum(a, "status", TICKET_STATUSES, False)
    if cid is not None:
        _get(db, "customers", cid, "customer")
    return [t for t in _sorted(db["repair_tickets"]) if (cid is None or t["customer_id"] == cid)
            and (status is None or t["status"] == status)]


def search_parts(db, a):
    q = a.get("q")
    if q is not None and not isinstance(q, str):
        raise RefError("q must be a string")
    cat = _enum(a, "category", PART_CATEGORIES, False)
    in_stock = _bool(a, "in_stock_only")
    q = (q or "").strip().lower()
    return [p for p in _sorted(db["parts"]) if q in p["name"].lower()
            and (cat is None or p["category"] == cat) and (not in_stock or p["stock"] > 0)]


# ---------------------------------------------------------------- wallet
def top_up_wallet(db, a):
    cust = _get(db, "customers", _str(a, "customer_id"), "customer")
    amt = a.get("amount")
    if amt is None:
        raise RefError("amount is required")
    if isinstance(amt, bool) or not isinstance(amt, (int, float)):
        raise RefError("amount must be a number")
    try:
        d = _dec(amt)
    except InvalidOperation:
        raise RefError("amount must be a number")
    if d != d.quantize(Decimal("0.01")):
        raise RefError("amount may have at most two decimals")
    if d < TOPUP_MIN or d > TOPUP_MAX:
        raise RefError("top-up must be between 5.00 and 500.00")
    new = _dec(cust["wallet_balance"]) + d
    if new > WALLET_CAP:
        raise RefError("wallet balance may not exceed 1000.00")
    cust["wallet_balance"] = _money(new)
    return cust


# ---------------------------------------------------------------- rentals
def create_rental(db, a):
    today = _today(db)
    cust = _get(db, "customers", _str(a, "customer_id"), "customer")
    bike = _get(db, "bikes", _str(a, "bike_id"), "bike")
    start = _date(a, "start_date")
    days = _int(a, "days", 1, MAX_DAYS)
    if cust["status"] != "active":
        raise RefError("suspended customers cannot book rentals")
    if bike["status"] != "available":
        raise RefError("bike is not available")
    if start < today or start > today + dt.timedelta(days=BOOKING_WINDOW_DAYS):
        raise RefError("start date must be between today and 30 days ahead")
    open_ = [r for r in db["rentals"].values()
             if r["customer_id"] == cust["id"] and r["status"] in ("reserved", "active")]
    if len(open_) >= MAX_OPEN_RENTALS:
        raise RefError("customer already has two open rentals")
    member = _member_on(cust, start)
    if bike["type"] == "ebike" and not member:
        raise RefError("e-bikes are for members only")
    pct = MEMBER_RENTAL_DISCOUNT[cust["membership"]] if member else 0
    total = _money(_dec(bike["daily_rate"]) * days * (100 - pct) / 100)
    if _dec(cust["wallet_balance"]) < _dec(total):
        raise RefError("insufficient wallet balance")
    cust["wallet_balance"] = _money(_dec(cust["wallet_balance"]) - _dec(total))
    rid = _next_id(db["rentals"], "R", 4)
    rec = {"id": rid, "customer_id": cust["id"], "bike_id": bike["id"], "status": "reserved",
           "booked_on": today.isoformat(), "start_date": start.isoformat(), "days": days,
           "due_date": (start + dt.timedelta(days=days)).isoformat(), "daily_rate": bike["daily_rate"],
           "discount_pct": pct, "total": total, "picked_up_date": None, "returned_date": None,
           "return_condition": None, "late_fee": 0.0, "damage_fee": 0.0, "cancelled_on": None,
           "cancel_reason": None, "refund_amount": None}
    db["rentals"][rid] = rec
    bike["status"] = "reserved"
    return rec


def start_rental(db, a):
    today = _today(db)
    r = _get(db, "rentals", _str(a, "rental_id"), "rental")
    if r["status"] != "reserved":
        raise RefError("only reserved rentals can be picked up")
    if dt.date.fromisoformat(r["start_date"]) > today:
        raise RefError("rental cannot be picked up before its start date")
    r["status"] = "active"
    r["picked_up_date"] = today.isoformat()
    db["bikes"][r["bike_id"]]["status"] = "rented"
    return r


def return_rental(db, a):
    today = _today(db)
    r = _get(db, "rentals", _str(a, "rental_id"), "rental")
    cond = _enum(a, "condition", CONDITIONS)
    if r["status"] != "active":
        raise RefError("only active rentals can be returned")
    late_days = max(0, (today - dt.date.fromisoformat(r["due_date"])).days)
    late_fee = _dec(r["daily_rate"]) * late_days
    dmg = DAMAGE_FEE if cond == "damaged" else Decimal("0")
    r.update(status="returned", returned_date=today.isoformat(), return_condition=cond,
             late_fee=_money(late_fee), damage_fee=_money(dmg))
    cust = db["customers"][r["customer_id"]]
    cust["wallet_balance"] = _money(_dec(cust["wallet_balance"]) - late_fee - dmg)
    bike = db["bikes"][r["bike_id"]]
    bike["status"] = "in_repair" if cond == "damaged" else "available"
    bike["rental_count"] += 1
    return r


def cancel_rental(db, a):
    today = _today(db)
    r = _get(db, "rentals", _str(a, "rental_id"), "rental")
    reason = _enum(a, "reason", CANCEL_REASONS)
    if r["status"] != "reserved":
        raise RefError("only reserved rentals can be cancelled")
    start = dt.date.fromisoformat(r["start_date"])
    total = _dec(r["total"])
    refund = total if (start - today).days >= 2 else total / 2
    r.update(status="cancelled", cancelled_on=today.isoformat(), cancel_reason=reason,
             refund_amount=_money(refund))
    cust = db["customers"][r["customer_id"]]
    cust["wallet_balance"] = _money(_dec(cust["wallet_balance"]) + _dec(r["refund_amount"]))
    db["bikes"][r["bike_id"]]["status"] = "available"
    return r


# ---------------------------------------------------------------- repairs
def open_repair_ticket(db, a):
    today = _today(db)
    cust = _get(db, "customers", _str(a, "customer_id"), "customer")
    desc = _str(a, "bike_description")
    if not 3 <= len(desc.strip()) <= 80:
        raise RefError("bike_description must be 3 to 80 characters")
    service = _enum(a, "service", set(LABOR))
    if cust["status"] != "active":
        raise RefError("suspended customers cannot open repair tickets")
    if any(t["customer_id"] == cust["id"] and t["status"] in ("open", "in_progress")
           for t in db["repair_tickets"].values()):
        raise RefError("customer already has an unfinished repair ticket")
    labor = Decimal(LABOR[service])
    if cust["membership"] == "premium" and _member_on(cust, today):
        labor = labor * PREMIUM_LABOR_FACTOR
    labor = _money(labor)
    tid = _next_id(db["repair_tickets"], "T", 4)
    rec = {"id": tid, "customer_id": cust["id"], "bike_description": desc, "service": service,
           "status": "open", "opened_date": today.isoformat(), "completed_date": None,
           "labor_price": labor, "parts": [], "parts_total": 0.0, "total": labor}
    db["repair_tickets"][tid] = rec
    return rec


def add_part_to_ticket(db, a):
    t = _get(db, "repair_tickets", _str(a, "ticket_id"), "repair ticket")
    part = _get(db, "parts", _str(a, "part_id"), "part")
    qty = _int(a, "quantity", 1, 10)
    if t["status"] not in ("open", "in_progress"):
        raise RefError("parts can only be added to open or in-progress tickets")
    if part["discontinued"]:
        raise RefError("part is discontinued")
    if part["stock"] < qty:
        raise RefError("not enough stock")
    part["stock"] -= qty
    for line in t["parts"]:
        if line["part_id"] == part["id"]:
            line["quantity"] += qty
            break
    else:
        t["parts"].append({"part_id": part["id"], "quantity": qty, "unit_price": part["unit_price"]})
    pt = sum((_dec(l["unit_price"]) * l["quantity"] for l in t["parts"]), Decimal("0"))
    t["parts_total"] = _money(pt)
    t["total"] = _money(_dec(t["labor_price"]) + pt)
    if t["status"] == "open":
        t["status"] = "in_progress"
    return t


def complete_repair(db, a):
    today = _today(db)
    t = _get(db, "repair_tickets", _str(a, "ticket_id"), "repair ticket")
    if t["status"] not in ("open", "in_progress"):
        raise RefError("ticket is already closed")
    cust = db["customers"][t["customer_id"]]
    if _dec(cust["wallet_balance"]) < _dec(t["total"]):
        raise RefError("insufficient wallet balance")
    cust["wallet_balance"] = _money(_dec(cust["wallet_balance"]) - _dec(t["total"]))
    t["status"] = "completed"
    t["completed_date"] = today.isoformat()
    return t


TOOLS = {f.__name__: f for f in (get_customer, list_bikes, list_rentals, list_repair_tickets, search_parts,
                                 top_up_wallet, create_rental, start_rental, return_rental, cancel_rental,
                                 open_repair_ticket, add_part_to_ticket, complete_repair)}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError(f"unknown tool {name}")
    return TOOLS[name](db, _args(args))
