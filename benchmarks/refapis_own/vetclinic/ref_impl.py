"""Reference implementation of the Maple Grove Veterinary Clinic API (stdlib only)."""
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_pet", "book_appointment", "reschedule_appointment", "cancel_appointment",
               "check_in_appointment", "mark_no_show", "add_treatment", "complete_appointment",
               "record_payment"}

SPECIES = ["dog", "cat", "rabbit", "bird", "reptile"]
PET_STATUS = ["active", "deceased", "transferred"]
APPT_TYPES = ["wellness_exam", "vaccination", "sick_visit", "dental", "surgery"]
APPT_STATUS = ["scheduled", "checked_in", "completed", "cancelled", "no_show"]
CANCEL_REASONS = ["owner_request", "clinic_request", "pet_deceased", "other"]
INVOICE_STATUS = ["unpaid", "partially_paid", "paid"]
PAY_METHODS = ["cash", "card", "insurance"]
CONSULT = {"wellness_exam": 55.00, "vaccination": 35.00, "sick_visit": 70.00, "dental": 120.00,
           "surgery": 250.00}
MAX_ACTIVE_PETS = 5
BALANCE_LIMIT = 200.00
BOOK_WINDOW_DAYS = 60
MAX_RESCHEDULES = 2
LATE_CANCEL_FEE = 25.00
NO_SHOW_FEE = 40.00
NO_SHOW_SUSPEND = 3
MAX_LINES = 10
PAYMENT_TERMS_DAYS = 30


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def mul(a, b):  # exact decimal product, rounded half-up to the cent
    return money(Decimal(str(a)) * Decimal(str(b)))


# ---------------------------------------------------------------- argument helpers
def _check_args(args, required, optional=()):
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    for k in args:
        if k not in required and k not in optional:
            raise RefError("unknown argument: %s" % k)
    for k in required:
        if args.get(k) is None:
            raise RefError("missing argument: %s" % k)


def _str(args, k, required=True):
    v = args.get(k)
    if v is None and not required:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError("%s must be a non-empty string" % k)
    return v


def _enum(args, k, values, required=True):
    v = args.get(k)
    if v is None and not required:
        return None
    if v not in values:
        raise RefError("%s must be one of %s" % (k, values))
    return v


def _date(args, k, required=True):
    v = args.get(k)
    if v is None and not required:
        return None
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError("%s must be a date YYYY-MM-DD" % k)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % k)


def _number(args, k, required=True):
    v = args.get(k)
    if v is None and not required:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RefError("%s must be a number" % k)
    return v


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _get(db, coll, key):
    rec = db[coll].get(key) if isinstance(key, str) else None
    if rec is None:
        raise RefError("%s not found: %s" % (coll, key))
    return rec


def _next_id(coll, prefix):
    nums = [int(k[len(prefix):]) for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    width = max((len(k) - len(prefix) for k in coll if k.startswith(prefix)), default=4)
    return "%s%0*d" % (prefix, width, max(nums, default=0) + 1)


def _slots(d):
    last = 12 * 60 + 30 if d.weekday() == 5 else 17 * 60 + 30
    return ["%02d:%02d" % (m // 60, m % 60) for m in range(8 * 60, last + 1, 30)]


def _check_slot(db, d, t, vet_id, pet_id, exclude_id=None):
    today = _today(db)
    if d < today:
        raise RefError("date is in the past")
    if d > today + timedelta(days=BOOK_WINDOW_DAYS):
        raise RefError("date is more than 60 days ahead")
    if d.weekday() == 6:
        raise RefError("clinic is closed on Sundays")
    if not isinstance(t, str) or t not in _slots(d):
        raise RefError("time is not a bookable slot for that day")
    for a in db["appointments"].values():
        if a["id"] == exclude_id or a["status"] not in ("scheduled", "checked_in"):
            continue
        if a["date"] != d.isoformat():
            continue
        if a["vet_id"] == vet_id and a["time"] == t:
            raise RefError("vet already booked at that time")
        if a["pet_id"] == pet_id:
            raise RefError("pet already has an appointment that day")


# ---------------------------------------------------------------- reads
def get_owner(db, args):
    _check_args(args, ["owner_id"])
    return _get(db, "owners", args["owner_id"])


def list_pets(db, args):
    _check_args(args, [], ["owner_id", "species", "status", "name"])
    oid = _str(args, "owner_id", False)
    if oid is not None:
        _get(db, "owners", oid)
    species = _enum(args, "species", SPECIES, False)
    status = _enum(args, "status", PET_STATUS, False)
    name = _str(args, "name", False)
    out = []
    for p in sorted(db["pets"].values(), key=lambda p: p["id"]):
        if oid and p["owner_id"] != oid or species and p["species"] != species:
            continue
        if status and p["status"] != status or name and name.lower() not in p["name"].lower():
            continue
        out.append(p)
    return out


def list_appointments(db, args):
    _check_args(args, [], ["pet_id", "vet_id", "status", "date_from", "date_to"])
    pid = _str(args, "pet_id", False)
    vid = _str(args, "vet_id", False)
    if pid is not None:
        _get(db, "pets", pid)
    if vid is not None:
        _get(db, "vets", vid)
    status = _enum(args, "status", APPT_STATUS, False)
    dfrom = _date(args, "date_from", False)
    dto = _date(args, "date_to", False)
    if dfrom and dto and dfrom > dto:
        raise RefError("date_from is after date_to")
    out = []
    for a in db["appointments"].values():
        if pid and a["pet_id"] != pid or vid and a["vet_id"] != vid or status and a["status"] != status:
            continue
        if dfrom and a["date"] < dfrom.isoformat() or dto and a["date"] > dto.isoformat():
            continue
        out.append(a)
    return sorted(out, key=lambda a: (a["date"], a["time"], a["id"]))


def list_invoices(db, args):
    _check_args(args, [], ["owner_id", "status"])
    oid = _str(args, "owner_id", False)
    if oid is not None:
        _get(db, "owners", oid)
    status = _enum(args, "status", INVOICE_STATUS, False)
    return [i for i in sorted(db["invoices"].values(), key=lambda i: i["id"])
            if (not oid or i["owner_id"] == oid) and (not status or i["status"] == status)]


# ---------------------------------------------------------------- writes
def register_pet(db, args):
    _check_args(args, ["owner_id", "name", "species", "sex", "date_of_birth", "weight_kg"],
                ["breed", "microchip_id"])
    owner = _get(db, "owners", args["owner_id"])
    name = _str(args, "name")
    species = _enum(args, "species", SPECIES)
    sex = _enum(args, "sex", ["male", "female"])
    dob = _date(args, "date_of_birth")
    weight = _number(args, "weight_kg")
    breed = _str(args, "breed", False)
    chip = args.get("microchip_id")
    if owner["status"] != "active":
        raise RefError("owner account is suspended")
    if dob > _today(db):
        raise RefError("date_of_birth is in the future")
    if not 0 < weight <= 150:
        raise RefError("weight_kg must be greater than 0 and at most 150")
    if chip is not None:
        if not isinstance(chip, str) or not re.fullmatch(r"\d{15}", chip):
            raise RefError("microchip_id must be exactly 15 digits")
        if any(p["microchip_id"] == chip for p in db["pets"].values()):
            raise RefError("microchip already registered")
    mine = [p for p in db["pets"].values() if p["owner_id"] == owner["id"] and p["status"] == "active"]
    if len(mine) >= MAX_ACTIVE_PETS:
        raise RefError("owner already has the maximum number of active pets")
    if any(p["name"].lower() == name.lower() for p in mine):
        raise RefError("owner already has an active pet with that name")
    pid = _next_id(db["pets"], "P")
    pet = {"id": pid, "owner_id": owner["id"], "name": name, "species": species,
           "breed": breed if breed else "Mixed", "sex": sex, "date_of_birth": dob.isoformat(),
           "weight_kg": money(weight), "microchip_id": chip, "status": "active",
           "last_visit_date": None, "registered_on": _today(db).isoformat()}
    db["pets"][pid] = pet
    owner["pet_count"] += 1
    return pet


def book_appointment(db, args):
    _check_args(args, ["pet_id", "vet_id", "date", "time", "type"], ["reason"])
    pet = _get(db, "pets", args["pet_id"])
    vet = _get(db, "vets", args["vet_id"])
    d = _date(args, "date")
    atype = _enum(args, "type", APPT_TYPES)
    reason = _str(args, "reason", False)
    owner = db["owners"][pet["owner_id"]]
    if pet["status"] != "active":
        raise RefError("pet is not active")
    if owner["status"] != "active":
        raise RefError("owner account is suspended")
    if owner["balance"] > BALANCE_LIMIT:
        raise RefError("owner balance above 200.00")
    if not vet["active"]:
        raise RefError("vet is not taking appointments")
    if pet["species"] not in vet["species_treated"]:
        raise RefError("vet does not treat this species")
    if atype in ("dental", "surgery") and not vet["performs_surgery"]:
        raise RefError("vet does not perform dental or surgical procedures")
    _check_slot(db, d, args["time"], vet["id"], pet["id"])
    aid = _next_id(db["appointments"], "A")
    appt = {"id": aid, "pet_id": pet["id"], "owner_id": owner["id"], "vet_id": vet["id"],
            "date": d.isoformat(), "time": args["time"], "type": atype, "reason": reason,
            "status": "scheduled", "treatments": [], "reschedule_count": 0, "cancel_reason": None,
            "penalty_fee": 0.0, "invoice_id": None, "created_on": _today(db).isoformat()}
    db["appointments"][aid] = appt
    return appt


def _appt(db, args, status, extra_req=(), extra_opt=()):
    _check_args(args, ["appointment_id"] + list(extra_req), extra_opt)
    a = _get(db, "appointments", args["appointment_id"])
    if a["status"] not in status:
        raise RefError("appointment is %s" % a["status"])
    return a


def reschedule_appointment(db, args):
    a = _appt(db, args, ["scheduled"], ["new_date", "new_time"])
    d = _date(args, "new_date")
    if a["reschedule_count"] >= MAX_RESCHEDULES:
        raise RefError("appointment already rescheduled twice")
    _check_slot(db, d, args["new_time"], a["vet_id"], a["pet_id"], exclude_id=a["id"])
    a["date"], a["time"] = d.isoformat(), args["new_time"]
    a["reschedule_count"] += 1
    return a


def cancel_appointment(db, args):
    a = _appt(db, args, ["scheduled"], ["reason"])
    reason = _enum(args, "reason", CANCEL_REASONS)
    today = _today(db)
    d = date.fromisoformat(a["date"])
    if d < today:
        raise RefError("past appointments cannot be cancelled")
    a["status"] = "cancelled"
    a["cancel_reason"] = reason
    if reason == "owner_request" and (d - today).days <= 1:
        a["penalty_fee"] = LATE_CANCEL_FEE
        owner = db["owners"][a["owner_id"]]
        owner["balance"] = money(owner["balance"] + LATE_CANCEL_FEE)
    return a


def check_in_appointment(db, args):
    a = _appt(db, args, ["scheduled"], (), ["weight_kg"])
    weight = _number(args, "weight_kg", False)
    if a["date"] != db["meta"]["today"]:
        raise RefError("only today's appointments can be checked in")
    if weight is not None and not 0 < weight <= 150:
        raise RefError("weight_kg must be greater than 0 and at most 150")
    a["status"] = "checked_in"
    if weight is not None:
        db["pets"][a["pet_id"]]["weight_kg"] = money(weight)
    return a


def mark_no_show(db, args):
    a = _appt(db, args, ["scheduled"])
    if a["date"] > db["meta"]["today"]:
        raise RefError("appointment date has not arrived yet")
    a["status"] = "no_show"
    a["penalty_fee"] = NO_SHOW_FEE
    owner = db["owners"][a["owner_id"]]
    owner["balance"] = money(owner["balance"] + NO_SHOW_FEE)
    owner["no_show_count"] += 1
    if owner["no_show_count"] >= NO_SHOW_SUSPEND:
        owner["status"] = "suspended"
    return a


def add_treatment(db, args):
    a = _appt(db, args, ["checked_in"], ["product_id", "quantity"])
    prod = _get(db, "products", args["product_id"])
    qty = args["quantity"]
    if isinstance(qty, bool) or not isinstance(qty, int) or not 1 <= qty <= 20:
        raise RefError("quantity must be a whole number from 1 to 20")
    pet = db["pets"][a["pet_id"]]
    if not prod["active"]:
        raise RefError("product is discontinued")
    if pet["species"] not in prod["species"]:
        raise RefError("product is not approved for this species")
    if len(a["treatments"]) >= MAX_LINES:
        raise RefError("appointment already has 10 treatment lines")
    if prod["category"] == "vaccine":
        if qty != 1:
            raise RefError("vaccines are given one dose at a time")
        if any(l["product_id"] == prod["id"] for l in a["treatments"]):
            raise RefError("vaccine already given during this appointment")
    if prod["stock_on_hand"] is not None:
        if prod["stock_on_hand"] < qty:
            raise RefError("insufficient stock")
        prod["stock_on_hand"] -= qty
    a["treatments"].append({"line_no": len(a["treatments"]) + 1, "product_id": prod["id"],
                            "description": prod["name"], "quantity": qty,
                            "unit_price": prod["unit_price"],
                            "line_total": mul(prod["unit_price"], qty)})
    return a


def complete_appointment(db, args):
    a = _appt(db, args, ["checked_in"])
    if a["type"] == "vaccination" and not any(
            db["products"].get(l["product_id"], {}).get("category") == "vaccine" for l in a["treatments"]):
        raise RefError("a vaccination visit needs at least one vaccine line")
    owner = db["owners"][a["owner_id"]]
    today = _today(db)
    fee = CONSULT[a["type"]]
    items = money(sum(l["line_total"] for l in a["treatments"]))
    sub = money(fee + items)
    disc = mul(sub, "0.10") if owner["wellness_plan"] else 0.0
    total = money(sub - disc)
    iid = _next_id(db["invoices"], "INV-")
    inv = {"id": iid, "owner_id": owner["id"], "pet_id": a["pet_id"], "appointment_id": a["id"],
           "issued_on": today.isoformat(),
           "due_date": (today + timedelta(days=PAYMENT_TERMS_DAYS)).isoformat(),
           "consultation_fee": fee, "items_total": items, "discount": disc, "total": total,
           "amount_paid": 0.0, "status": "unpaid", "paid_on": None}
    db["invoices"][iid] = inv
    a["status"] = "completed"
    a["invoice_id"] = iid
    owner["balance"] = money(owner["balance"] + total)
    db["pets"][a["pet_id"]]["last_visit_date"] = today.isoformat()
    return inv


def record_payment(db, args):
    _check_args(args, ["invoice_id", "amount", "method"])
    inv = _get(db, "invoices", args["invoice_id"])
    amount = _number(args, "amount")
    _enum(args, "method", PAY_METHODS)
    if Decimal(str(amount)).as_tuple().exponent < -2:
        raise RefError("amount has more than two decimals")
    if amount <= 0:
        raise RefError("amount must be positive")
    if inv["status"] == "paid":
        raise RefError("invoice is already paid")
    outstanding = money(inv["total"] - inv["amount_paid"])
    if amount > outstanding:
        raise RefError("amount exceeds the outstanding amount")
    inv["amount_paid"] = money(inv["amount_paid"] + amount)
    if inv["amount_paid"] >= inv["total"]:
        inv["status"] = "paid"
        inv["paid_on"] = db["meta"]["today"]
    else:
        inv["status"] = "partially_paid"
    owner = db["owners"][inv["owner_id"]]
    owner["balance"] = money(owner["balance"] - amount)
    return inv


TOOLS = {n: globals()[n] for n in WRITE_TOOLS | {"get_owner", "list_pets", "list_appointments", "list_invoices"}}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool: %s" % name)
    return TOOLS[name](db, args if args is not None else {})
