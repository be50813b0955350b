"""Reference implementation of the Copper Ladle catering booking desk (stdlib only)."""
import math
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    """The desk refuses the call; the data is left unchanged."""


WRITE_TOOLS = {"create_booking", "update_booking", "add_booking_addon", "record_deposit", "assign_staff",
               "cancel_booking", "issue_final_invoice", "record_payment"}

STYLES = ("buffet", "plated", "family_style", "cocktail", "boxed_lunch")
BOOKING_STATUSES = ("tentative", "confirmed", "invoiced", "settled", "cancelled")
OPEN = ("tentative", "confirmed")
ROLES = ("server", "bartender", "chef", "captain")
DEPOSIT_METHODS = ("card", "bank_transfer", "check")
UPDATABLE = ("event_name", "venue", "start_time", "duration_hours", "guest_count", "notes")
CENT = Decimal("0.01")
ZERO = Decimal("0")


# ------------------------------------------------------------------ argument helpers
def _arg(args, key, kind, required=True):
    v = args.get(key)
    if v is None:
        if required:
            raise RefError("missing argument %s" % key)
        return None
    if kind == "int":
        ok = isinstance(v, int) and not isinstance(v, bool)
    elif kind == "num":
        ok = isinstance(v, (int, float)) and not isinstance(v, bool)
    elif kind == "bool":
        ok = isinstance(v, bool)
    else:
        ok = isinstance(v, str)
    if not ok:
        raise RefError("%s has the wrong type" % key)
    return v


def _text(args, key, required=True):
    v = _arg(args, key, "str", required)
    if v is not None and not v.strip():
        raise RefError("%s may not be blank" % key)
    return v


def _day(s, key):
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        raise RefError("%s must be YYYY-MM-DD" % key)
    try:
        return date.fromisoformat(s)
    except ValueError:
        raise RefError("%s is not a calendar date" % key)


def _start_time(s):
    m = re.fullmatch(r"(\d{2}):(\d{2})", s)
    if not m or int(m.group(2)) not in (0, 15, 30, 45):
        raise RefError("start_time must be HH:MM on a quarter hour")
    if not "07:00" <= s <= "20:00":
        raise RefError("events start between 07:00 and 20:00")
    return s


def _hours(v):
    if not 2 <= v <= 8:
        raise RefError("duration_hours must be 2 to 8")
    return v


def _enum(args, key, values, required=False):
    v = _arg(args, key, "str", required)
    if v is not None and v not in values:
        raise RefError("%s must be one of %s" % (key, ", ".join(values)))
    return v


def _amount(args, key):
    v = _arg(args, key, "num")
    d = Decimal(str(v))
    if d != d.quantize(CENT) or d <= 0:
        raise RefError("%s must be a positive amount with at most two decimals" % key)
    return d


def _find(db, coll, args, key):
    rid = _arg(args, key, "str")
    if rid not in db[coll]:
        raise RefError("unknown %s %s" % (key, rid))
    return db[coll][rid]


def _q(x):
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _days_out(db, bk):
    return (date.fromisoformat(bk["event_date"]) - _today(db)).days


def _next_id(coll, prefix, width):
    top = max([int(k[len(prefix):]) for k in coll if k.startswith(prefix)] or [0])
    return "%s%0*d" % (prefix, width, top + 1)


def _terms(db, client):
    return db["meta"]["payment_terms_days"][client["client_type"]]


# ------------------------------------------------------------------ business helpers
def _reprice(db, bk):
    """Amounts of a booking from its package, guest count and add-on lines (policy: Pricing)."""
    meta = db["meta"]
    pkg = db["packages"][bk["package_id"]]
    food = _q(pkg["price_per_guest"]) * bk["guest_count"]
    extras = sum((_q(a["line_total"]) for a in bk["addons"]), ZERO)
    base = food + extras
    disc = ZERO
    if db["clients"][bk["client_id"]]["client_type"] == "nonprofit":
        disc = _q(base * Decimal(str(meta["nonprofit_discount_rate"])))
    net = base - disc
    svc = _q(net * Decimal(str(meta["service_charge_rate"])))
    tax = _q((net + svc) * Decimal(str(meta["tax_rate"])))
    total = net + svc + tax
    bk.update(staff_required=math.ceil(bk["guest_count"] / pkg["guests_per_staff"]),
              food_subtotal=float(food), addons_subtotal=float(extras), discount=float(disc),
              service_charge=float(svc), tax=float(tax), total=float(total),
              deposit_required=float(_q(total * Decimal(str(meta["deposit_rate"])))))


def _guests_on(db, day, skip=None):
    return sum(b["guest_count"] for b in db["bookings"].values()
               if b["event_date"] == day and b["status"] != "cancelled" and b["id"] != skip)


def _has_overdue(db, client_id):
    today = db["meta"]["today"]
    return any(i["client_id"] == client_id and i["status"] == "open" and i["due_date"] < today
               for i in db["invoices"].values())


def _new_invoice(db, bk, kind, amount):
    client = db["clients"][bk["client_id"]]
    today = _today(db)
    iid = _next_id(db["invoices"], "INV-", 4)
    inv = {"id": iid, "booking_id": bk["id"], "client_id": client["id"], "kind": kind,
           "amount": float(amount), "amount_paid": 0.0, "status": "open", "issued_on": today.isoformat(),
           "due_date": (today + timedelta(days=_terms(db, client))).isoformat(), "paid_at": None}
    db["invoices"][iid] = inv
    client["balance_due"] = float(_q(client["balance_due"]) + amount)
    return inv


def _fee_rate(days_out):
    if days_out >= 60:
        return ZERO
    if days_out >= 30:
        return Decimal("0.25")
    if days_out >= 10:
        return Decimal("0.50")
    return Decimal("1")


# ------------------------------------------------------------------ reads
def list_packages(db, args):
    style = _enum(args, "service_style", STYLES)
    guests = _arg(args, "guest_count", "int", False)
    if guests is not None and guests < 1:
        raise RefError("guest_count must be at least 1")
    active_only = _arg(args, "active_only", "bool", False)
    out = []
    for pid in sorted(db["packages"]):
        p = db["packages"][pid]
        if style is not None and p["service_style"] != style:
            continue
        if guests is not None and not p["min_guests"] <= guests <= p["max_guests"]:
            continue
        if active_only and not p["active"]:
            continue
        out.append(p)
    return out


def list_bookings(db, args):
    cid = _arg(args, "client_id", "str", False)
    status = _enum(args, "status", BOOKING_STATUSES)
    lo = _arg(args, "event_date_from", "str", False)
    hi = _arg(args, "event_date_to", "str", False)
    if lo is not None:
        _day(lo, "event_date_from")
    if hi is not None:
        _day(hi, "event_date_to")
    if lo is not None and hi is not None and lo > hi:
        raise RefError("event_date_from is after event_date_to")
    out = [b for b in db["bookings"].values()
           if (cid is None or b["client_id"] == cid) and (status is None or b["status"] == status)
           and (lo is None or b["event_date"] >= lo) and (hi is None or b["event_date"] <= hi)]
    return sorted(out, key=lambda b: (b["event_date"], b["start_time"], b["id"]))


def get_booking(db, args):
    return _find(db, "bookings", args, "booking_id")


def list_available_staff(db, args):
    day = _day(_arg(args, "event_date", "str"), "event_date").isoformat()
    role = _enum(args, "role", ROLES)
    busy = {a["staff_id"] for a in db["assignments"].values()
            if a["event_date"] == day and a["status"] == "scheduled"}
    return [db["staff"][s] for s in sorted(db["staff"])
            if db["staff"][s]["status"] == "active" and s not in busy
            and (role is None or db["staff"][s]["role"] == role)]


# ------------------------------------------------------------------ writes
def create_booking(db, args):
    client = _find(db, "clients", args, "client_id")
    pkg = _find(db, "packages", args, "package_id")
    name = _text(args, "event_name")
    venue = _text(args, "venue")
    day = _day(_arg(args, "event_date", "str"), "event_date")
    start = _start_time(_arg(args, "start_time", "str"))
    hours = _hours(_arg(args, "duration_hours", "int"))
    guests = _arg(args, "guest_count", "int")
    notes = _arg(args, "notes", "str", False)
    meta, today = db["meta"], _today(db)
    iso = day.isoformat()
    if not pkg["active"]:
        raise RefError("package is no longer offered")
    if not pkg["min_guests"] <= guests <= pkg["max_guests"]:
        raise RefError("guest_count outside the package's range")
    out = (day - today).days
    if out < pkg["lead_days"]:
        raise RefError("the package needs %d days of notice" % pkg["lead_days"])
    if out > meta["booking_horizon_days"]:
        raise RefError("event date beyond the booking horizon")
    if iso in meta["blackout_dates"]:
        raise RefError("the kitchen is closed on that date")
    if _has_overdue(db, client["id"]):
        raise RefError("client has an overdue invoice")
    if any(b["client_id"] == client["id"] and b["event_date"] == iso and b["status"] != "cancelled"
           for b in db["bookings"].values()):
        raise RefError("client already has a booking on that date")
    if _guests_on(db, iso) + guests > meta["daily_guest_capacity"]:
        raise RefError("daily guest capacity exceeded")
    bid = _next_id(db["bookings"], "BK", 4)
    hold = min(today + timedelta(days=meta["hold_days"]), day - timedelta(days=1))
    bk = {"id": bid, "client_id": client["id"], "package_id": pkg["id"], "event_name": name,
          "event_date": iso, "start_time": start, "duration_hours": hours, "venue": venue,
          "guest_count": guests, "addons": [], "notes": notes if notes is not None else "",
          "status": "tentative", "created_at": meta["now"], "hold_expires": hold.isoformat(),
          "confirmed_at": None, "deposit_paid": 0.0, "deposit_method": None, "staff_required": 0,
          "staff_assigned": 0, "food_subtotal": 0.0, "addons_subtotal": 0.0, "discount": 0.0,
          "service_charge": 0.0, "tax": 0.0, "total": 0.0, "deposit_required": 0.0,
          "invoiced_at": None, "final_invoice_id": None, "settled_at": None, "cancelled_at": None,
          "cancel_reason": None, "cancellation_fee": None, "deposit_refund": None}
    _reprice(db, bk)
    db["bookings"][bid] = bk
    client["active_bookings"] += 1
    return bk


def update_booking(db, args):
    bk = _find(db, "bookings", args, "booking_id")
    unknown = set(args) - set(UPDATABLE) - {"booking_id"}
    if unknown:
        raise RefError("these fields cannot be changed: %s" % ", ".join(sorted(unknown)))
    changes = {}
    for key in ("event_name", "venue"):
        if args.get(key) is not None:
            changes[key] = _text(args, key)
    if args.get("notes") is not None:
        changes["notes"] = _arg(args, "notes", "str")
    if args.get("start_time") is not None:
        changes["start_time"] = _start_time(_arg(args, "start_time", "str"))
    if args.get("duration_hours") is not None:
        changes["duration_hours"] = _hours(_arg(args, "duration_hours", "int"))
    if args.get("guest_count") is not None:
        changes["guest_count"] = _arg(args, "guest_count", "int")
    if not changes:
        raise RefError("nothing to update")
    if bk["status"] not in OPEN:
        raise RefError("only tentative or confirmed bookings can be changed")
    out = _days_out(db, bk)
    if out < 1:
        raise RefError("changes close the day before the event")
    if "guest_count" in changes:
        new, old = changes["guest_count"], bk["guest_count"]
        pkg = db["packages"][bk["package_id"]]
        if out <= 3:
            raise RefError("the guest count is locked within 3 days of the event")
        if not pkg["min_guests"] <= new <= pkg["max_guests"]:
            raise RefError("guest_count outside the package's range")
        if out <= 13 and abs(new - old) > old // 10:
            raise RefError("within 13 days the guest count may move by at most 10%")
        if _guests_on(db, bk["event_date"], skip=bk["id"]) + new > db["meta"]["daily_guest_capacity"]:
            raise RefError("daily guest capacity exceeded")
        for line in bk["addons"]:
            if db["addons"][line["addon_id"]]["pricing"] == "per_guest" and line["quantity"] > new:
                raise RefError("an add-on covers more guests than the new count")
    bk.update(changes)
    _reprice(db, bk)
    return bk


def add_booking_addon(db, args):
    bk = _find(db, "bookings", args, "booking_id")
    addon = _find(db, "addons", args, "addon_id")
    qty = _arg(args, "quantity", "int", False)
    if bk["status"] not in OPEN:
        raise RefError("add-ons can only be added to tentative or confirmed bookings")
    if _days_out(db, bk) < db["meta"]["addon_cutoff_days"]:
        raise RefError("add-ons close 5 days before the event")
    if not addon["active"]:
        raise RefError("add-on is no longer offered")
    if any(a["addon_id"] == addon["id"] for a in bk["addons"]):
        raise RefError("add-on already on this booking")
    if addon["pricing"] == "per_guest":
        if qty is None or not 1 <= qty <= bk["guest_count"]:
            raise RefError("quantity must be 1 to the guest count")
    else:
        if qty not in (None, 1):
            raise RefError("a flat add-on has quantity 1")
        qty = 1
    bk["addons"].append({"addon_id": addon["id"], "quantity": qty, "unit_price": addon["price"],
                         "line_total": float(_q(addon["price"]) * qty)})
    _reprice(db, bk)
    return bk


def record_deposit(db, args):
    bk = _find(db, "bookings", args, "booking_id")
    amount = _amount(args, "amount")
    method = _enum(args, "method", DEPOSIT_METHODS, required=True)
    if bk["status"] != "tentative":
        raise RefError("a deposit is taken only on a tentative booking")
    if bk["hold_expires"] < db["meta"]["today"]:
        raise RefError("the hold has lapsed")
    if _days_out(db, bk) < 1:
        raise RefError("the event date has arrived")
    if amount < _q(bk["deposit_required"]) or amount > _q(bk["total"]):
        raise RefError("deposit must be between deposit_required and total")
    bk.update(status="confirmed", confirmed_at=db["meta"]["now"], deposit_paid=float(amount),
              deposit_method=method, hold_expires=None)
    return bk


def assign_staff(db, args):
    bk = _find(db, "bookings", args, "booking_id")
    person = _find(db, "staff", args, "staff_id")
    if bk["status"] != "confirmed":
        raise RefError("staff are assigned only to confirmed bookings")
    if _days_out(db, bk) < 0:
        raise RefError("the event is over")
    if person["status"] != "active":
        raise RefError("staff member is not active")
    mine = [a for a in db["assignments"].values() if a["status"] == "scheduled"]
    if any(a["staff_id"] == person["id"] and a["event_date"] == bk["event_date"] for a in mine):
        raise RefError("staff member already works an event that day")
    if bk["staff_assigned"] >= bk["staff_required"]:
        raise RefError("booking is fully staffed")
    if person["role"] == "bartender" and not any(
            db["addons"][a["addon_id"]]["category"] == "beverage" for a in bk["addons"]):
        raise RefError("bartenders need a beverage add-on on the booking")
    if person["role"] == "captain" and any(
            a["booking_id"] == bk["id"] and a["role"] == "captain" for a in mine):
        raise RefError("the booking already has a captain")
    hours = bk["duration_hours"] + db["meta"]["setup_hours"]
    aid = _next_id(db["assignments"], "AS", 4)
    rec = {"id": aid, "booking_id": bk["id"], "staff_id": person["id"], "role": person["role"],
           "event_date": bk["event_date"], "hours": hours,
           "labor_cost": float(_q(person["hourly_rate"]) * hours), "status": "scheduled",
           "assigned_at": db["meta"]["now"], "released_at": None}
    db["assignments"][aid] = rec
    bk["staff_assigned"] += 1
    return rec


def cancel_booking(db, args):
    bk = _find(db, "bookings", args, "booking_id")
    reason = _text(args, "reason")
    if bk["status"] not in OPEN:
        raise RefError("only tentative or confirmed bookings can be cancelled")
    out = _days_out(db, bk)
    if out < 1:
        raise RefError("cancellations close the day before the event")
    fee = ZERO if bk["status"] == "tentative" else _q(_q(bk["total"]) * _fee_rate(out))
    paid = _q(bk["deposit_paid"])
    if fee > paid:
        _new_invoice(db, bk, "cancellation", fee - paid)
    now = db["meta"]["now"]
    bk.update(status="cancelled", cancelled_at=now, cancel_reason=reason, cancellation_fee=float(fee),
              deposit_refund=float(max(paid - fee, ZERO)), staff_assigned=0)
    for a in db["assignments"].values():
        if a["booking_id"] == bk["id"] and a["status"] == "scheduled":
            a["status"] = "released"
            a["released_at"] = now
    db["clients"][bk["client_id"]]["active_bookings"] -= 1
    return bk


def issue_final_invoice(db, args):
    bk = _find(db, "bookings", args, "booking_id")
    if bk["status"] != "confirmed":
        raise RefError("only a confirmed booking can be invoiced")
    if _days_out(db, bk) > 0:
        raise RefError("the final invoice is issued on or after the event date")
    amount = max(_q(bk["total"]) - _q(bk["deposit_paid"]), ZERO)
    inv = _new_invoice(db, bk, "final", amount)
    now = db["meta"]["now"]
    bk.update(status="invoiced", invoiced_at=now, final_invoice_id=inv["id"])
    db["clients"][bk["client_id"]]["active_bookings"] -= 1
    if amount == ZERO:
        inv.update(status="paid", paid_at=now)
        bk.update(status="settled", settled_at=now)
    return inv


def record_payment(db, args):
    inv = _find(db, "invoices", args, "invoice_id")
    amount = _amount(args, "amount")
    if inv["status"] != "open":
        raise RefError("invoice is already paid")
    balance = _q(inv["amount"]) - _q(inv["amount_paid"])
    if amount > balance:
        raise RefError("payment exceeds the open balance of %s" % balance)
    now = db["meta"]["now"]
    inv["amount_paid"] = float(_q(inv["amount_paid"]) + amount)
    client = db["clients"][inv["client_id"]]
    client["balance_due"] = float(_q(client["balance_due"]) - amount)
    if amount == balance:
        inv.update(status="paid", paid_at=now)
        if inv["kind"] == "final":
            db["bookings"][inv["booking_id"]].update(status="settled", settled_at=now)
    return inv


TOOLS = {f.__name__: f for f in (
    list_packages, list_bookings, get_booking, list_available_staff, create_booking, update_booking,
    add_booking_addon, record_deposit, assign_staff, cancel_booking, issue_final_invoice, record_payment)}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool %s" % name)
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return TOOLS[name](db, args)
