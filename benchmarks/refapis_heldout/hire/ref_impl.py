"""Reference implementation: construction-equipment hire depot API (stdlib only)."""
import datetime as _dt
import math
import re
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass

WRITE_TOOLS = {
    "create_contract", "check_out_contract", "return_contract", "cancel_contract",
    "extend_contract", "place_maintenance_hold", "release_maintenance_hold",
    "record_payment", "transfer_equipment",
}

CATEGORIES = ["excavator", "telehandler", "boom_lift", "scissor_lift", "compactor",
              "generator", "dumper", "mixer"]
LICENCE_CATEGORIES = {"excavator", "telehandler", "boom_lift"}
EQUIPMENT_STATUSES = ["available", "on_hire", "maintenance", "retired"]
CONTRACT_STATUSES = ["reserved", "on_hire", "returned", "cancelled"]
INVOICE_STATUSES = ["open", "paid"]
DAMAGE_LEVELS = ["none", "minor", "major"]
PAYMENT_METHODS = ["card", "bank_transfer", "cheque"]
MAX_OPEN_CONTRACTS = 4
MAX_HIRE_DAYS = 28
BOOKING_HORIZON_DAYS = 60
MAX_EXTENSIONS = 2
INVOICE_TERMS_DAYS = 30
DAMAGE_HOLD_DAYS = 7
CENT = Decimal("0.01")
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

# ---------------------------------------------------------------- helpers
def D(x):
    return Decimal(str(x))

def money(x):
    return float(D(x).quantize(CENT, rounding=ROUND_HALF_UP))

def parse_date(s, field):
    if not isinstance(s, str) or not _DATE_RE.match(s):
        raise RefError(f"{field} must be a date YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(s)
    except ValueError:
        raise RefError(f"{field} is not a valid calendar date")

def today(db):
    return _dt.date.fromisoformat(db["meta"]["today"])

def add_days(d, n):
    return (d + _dt.timedelta(days=n)).isoformat()

def hire_days(start, end):
    return (end - start).days + 1

def hire_charge(rate, days):
    weeks, rest = divmod(days, 7)
    return money(D(rate) * (weeks * 5 + rest))

def waiver_fee(charge, waiver):
    return money(D(charge) * Decimal("0.09")) if waiver else 0.0

def late_fee(rate, late_days):
    return money(D(rate) * Decimal("1.5") * late_days)

def damage_charge(level, replacement_value, waiver):
    if level == "minor":
        return 0.0 if waiver else 150.0
    if level == "major":
        amt = D(replacement_value) * Decimal("0.20")
        if waiver:
            amt = min(amt, Decimal("500"))
        return money(amt)
    return 0.0

def next_id(coll, prefix, width):
    n = 0
    for k in coll:
        if k.startswith(prefix) and k[len(prefix):].isdigit():
            n = max(n, int(k[len(prefix):]))
    return f"{prefix}{n + 1:0{width}d}"

SPECS = {
    "list_equipment": {"depot_id": ("str", False), "category": ("str", False), "status": ("str", False),
                       "search": ("str", False), "max_daily_rate": ("num", False)},
    "get_equipment": {"equipment_id": ("str", True)},
    "get_customer": {"customer_id": ("str", True)},
    "list_contracts": {"customer_id": ("str", False), "equipment_id": ("str", False), "status": ("str", False)},
    "list_invoices": {"customer_id": ("str", True), "status": ("str", False), "overdue_only": ("bool", False)},
    "create_contract": {"customer_id": ("str", True), "equipment_id": ("str", True), "start_date": ("str", True),
                        "end_date": ("str", True), "damage_waiver": ("bool", False), "po_number": ("str", False)},
    "check_out_contract": {"contract_id": ("str", True)},
    "return_contract": {"contract_id": ("str", True), "damage_level": ("str", False)},
    "cancel_contract": {"contract_id": ("str", True), "reason": ("str", True)},
    "extend_contract": {"contract_id": ("str", True), "new_end_date": ("str", True)},
    "place_maintenance_hold": {"equipment_id": ("str", True), "reason": ("str", True), "days": ("int", True)},
    "release_maintenance_hold": {"hold_id": ("str", True), "notes": ("str", False)},
    "record_payment": {"invoice_id": ("str", True), "amount": ("num", True), "method": ("str", True)},
    "transfer_equipment": {"equipment_id": ("str", True), "to_depot_id": ("str", True)},
}

def check_args(name, args):
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    spec = SPECS[name]
    for k in args:
        if k not in spec:
            raise RefError(f"unknown argument {k}")
    for k, (typ, req) in spec.items():
        if k not in args or args[k] is None:
            if req:
                raise RefError(f"missing {k}")
            continue
        v = args[k]
        ok = {"str": isinstance(v, str),
              "bool": isinstance(v, bool),
              "int": isinstance(v, int) and not isinstance(v, bool),
              "num": isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)}[typ]
        if not ok:
            raise RefError(f"{k} has the wrong type")

def get(db, coll, key, what):
    if not isinstance(key, str) or key not in db[coll]:
        raise RefError(f"{what} not found")
    return db[coll][key]

def enum(value, allowed, field):
    if value is not None and value not in allowed:
        raise RefError(f"{field} must be one of {allowed}")

def overlapping(db, equipment_id, start, end, exclude=None):
    for c in db["contracts"].values():
        if c["equipment_id"] != equipment_id or c["status"] not in ("reserved", "on_hire"):
            continue
        if c["contract_id"] == exclude:
            continue
        cs, ce = _dt.date.fromisoformat(c["start_date"]), _dt.date.fromisoformat(c["end_date"])
        if cs <= end and start <= ce:
            return True
    return False

def has_overdue(db, customer_id, t):
    return any(i["customer_id"] == customer_id and i["status"] == "open" and
               _dt.date.fromisoformat(i["due_on"]) < t for i in db["invoices"].values())

def credit_ok(cust, extra):
    return D(cust["balance"]) + D(cust["committed"]) + D(extra) <= D(cust["credit_limit"])

def issue_invoice(db, cust, contract_id, kind, amount, t):
    iid = next_id(db["invoices"], "INV-", 5)
    inv = {"invoice_id": iid, "customer_id": cust["customer_id"], "contract_id": contract_id, "kind": kind,
           "amount": money(amount), "amount_paid": 0.0, "issued_on": t.isoformat(),
           "due_on": add_days(t, INVOICE_TERMS_DAYS), "status": "open", "paid_on": None}
    db["invoices"][iid] = inv
    cust["balance"] = money(D(cust["balance"]) + D(amount))
    return inv

def new_hold(db, eq, reason, days, origin, t):
    hid = next_id(db["maintenance_holds"], "MH-", 4)
    hold = {"hold_id": hid, "equipment_id": eq["equipment_id"], "reason": reason, "origin": origin,
            "opened_on": t.isoformat(), "expected_release": add_days(t, days), "status": "open",
            "closed_on": None, "release_notes": None}
    db["maintenance_holds"][hid] = hold
    eq["status"] = "maintenance"
    return hold

def pricing(contract, days):
    charge = hire_charge(contract["daily_rate"], days)
    fee = waiver_fee(charge, contract["damage_waiver"])
    return charge, fee, money(D(charge) + D(fee))

# ---------------------------------------------------------------- reads
def list_equipment(db, a):
    enum(a.get("category"), CATEGORIES, "category")
    enum(a.get("status"), EQUIPMENT_STATUSES, "status")
    if a.get("depot_id") is not None:
        get(db, "depots", a["depot_id"], "depot")
    q = (a.get("search") or "").strip().lower()
    out = []
    for e in sorted(db["equipment"].values(), key=lambda r: r["equipment_id"]):
        if a.get("depot_id") is not None and e["depot_id"] != a["depot_id"]:
            continue
        if a.get("category") is not None and e["category"] != a["category"]:
            continue
        if a.get("status") is not None and e["status"] != a["status"]:
            continue
        if q and q not in e["name"].lower():
            continue
        if a.get("max_daily_rate") is not None and D(e["daily_rate"]) > D(a["max_daily_rate"]):
            continue
        out.append(dict(e))
    return out

def get_equipment(db, a):
    return dict(get(db, "equipment", a["equipment_id"], "equipment"))

def get_customer(db, a):
    return dict(get(db, "customers", a["customer_id"], "customer"))

def list_contracts(db, a):
    enum(a.get("status"), CONTRACT_STATUSES, "status")
    if a.get("customer_id") is not None:
        get(db, "customers", a["customer_id"], "customer")
    if a.get("equipment_id") is not None:
        get(db, "equipment", a["equipment_id"], "equipment")
    out = []
    for c in sorted(db["contracts"].values(), key=lambda r: r["contract_id"]):
        if all(a.get(f) is None or c[f] == a[f] for f in ("customer_id", "equipment_id", "status")):
            out.append(dict(c))
    return out

def list_invoices(db, a):
    get(db, "customers", a["customer_id"], "customer")
    enum(a.get("status"), INVOICE_STATUSES, "status")
    t = today(db)
    out = []
    for i in sorted(db["invoices"].values(), key=lambda r: r["invoice_id"]):
        if i["customer_id"] != a["customer_id"]:
            continue
        if a.get("status") is not None and i["status"] != a["status"]:
            continue
        if a.get("overdue_only") and not (i["status"] == "open" and _dt.date.fromisoformat(i["due_on"]) < t):
            continue
        out.append(dict(i))
    return out

# ---------------------------------------------------------------- writes
def create_contract(db, a):
    t = today(db)
    cust = get(db, "customers", a["customer_id"], "customer")
    eq = get(db, "equipment", a["equipment_id"], "equipment")
    start, end = parse_date(a["start_date"], "start_date"), parse_date(a["end_date"], "end_date")
    waiver = bool(a.get("damage_waiver", False))
    if cust["status"] != "active":
        raise RefError("customer account is suspended")
    if has_overdue(db, cust["customer_id"], t):
        raise RefError("customer has an overdue invoice")
    if cust["open_contracts"] >= MAX_OPEN_CONTRACTS:
        raise RefError("customer already has the maximum number of open contracts")
    if eq["status"] not in ("available", "on_hire"):
        raise RefError("equipment is not hireable")
    if eq["operator_licence_required"] and not cust["licensed_operator"]:
        raise RefError("customer holds no operator licence for this equipment")
    if start < t or (start - t).days > BOOKING_HORIZON_DAYS:
        raise RefError("start_date outside the booking window")
    if end < start:
        raise RefError("end_date before start_date")
    days = hire_days(start, end)
    if days > MAX_HIRE_DAYS:
        raise RefError("hire period too long")
    if overlapping(db, eq["equipment_id"], start, end):
        raise RefError("equipment already booked for those dates")
    po = a.get("po_number")
    if po is not None:
        po = po.strip()
        if not po or len(po) > 30:
            raise RefError("po_number must be 1-30 characters")
        for c in db["contracts"].values():
            if c["customer_id"] == cust["customer_id"] and c["po_number"] and c["po_number"].lower() == po.lower():
                raise RefError("po_number already used by this customer")
    rec = {"contract_id": next_id(db["contracts"], "HC-", 5), "customer_id": cust["customer_id"],
           "equipment_id": eq["equipment_id"], "depot_id": eq["depot_id"], "start_date": start.isoformat(),
           "end_date": end.isoformat(), "hire_days": days, "daily_rate": eq["daily_rate"],
           "damage_waiver": waiver, "po_number": po}
    charge, fee, est = pricing(rec, days)
    if not credit_ok(cust, est):
        raise RefError("credit limit exceeded")
    rec.update({"hire_charge": charge, "waiver_fee": fee, "estimated_total": est, "status": "reserved",
                "created_on": t.isoformat(), "checked_out_on": None, "returned_on": None, "cancelled_on": None,
                "cancel_reason": None, "cancellation_fee": None, "extension_count": 0, "late_days": None,
                "late_fee": None, "damage_level": None, "damage_charge": None, "final_charge": None})
    db["contracts"][rec["contract_id"]] = rec
    cust["committed"] = money(D(cust["committed"]) + D(est))
    cust["open_contracts"] += 1
    return dict(rec)

def check_out_contract(db, a):
    t = today(db)
    c = get(db, "contracts", a["contract_id"], "contract")
    if c["status"] != "reserved":
        raise RefError("only reserved contracts can be checked out")
    start = _dt.date.fromisoformat(c["start_date"])
    if not (-1 <= (t - start).days <= 2):
        raise RefError("outside the collection window")
    eq = db["equipment"][c["equipment_id"]]
    if eq["status"] != "available":
        raise RefError("equipment is not available for collection")
    if db["customers"][c["customer_id"]]["status"] != "active":
        raise RefError("customer account is suspended")
    c["status"], c["checked_out_on"] = "on_hire", t.isoformat()
    eq["status"] = "on_hire"
    eq["hire_count"] += 1
    return dict(c)

def return_contract(db, a):
    t = today(db)
    c = get(db, "contracts", a["contract_id"], "contract")
    level = a.get("damage_level") or "none"
    enum(level, DAMAGE_LEVELS, "damage_level")
    if c["status"] != "on_hire":
        raise RefError("only contracts on hire can be returned")
    eq, cust = db["equipment"][c["equipment_id"]], db["customers"][c["customer_id"]]
    late = max(0, (t - _dt.date.fromisoformat(c["end_date"])).days)
    lf = late_fee(c["daily_rate"], late)
    dc = damage_charge(level, eq["replacement_value"], c["damage_waiver"])
    final = money(D(c["hire_charge"]) + D(c["waiver_fee"]) + D(lf) + D(dc))
    c.update({"status": "returned", "returned_on": t.isoformat(), "late_days": late, "late_fee": lf,
              "damage_level": level, "damage_charge": dc, "final_charge": final})
    cust["committed"] = money(D(cust["committed"]) - D(c["estimated_total"]))
    cust["open_contracts"] -= 1
    inv = issue_invoice(db, cust, c["contract_id"], "hire", final, t)
    hold = None
    if level == "major":
        hold = dict(new_hold(db, eq, f"Damage inspection after return of {c['contract_id']}",
                             DAMAGE_HOLD_DAYS, "damage_return", t))
    else:
        eq["status"] = "available"
    return {"contract": dict(c), "invoice": dict(inv), "maintenance_hold": hold}

def cancel_contract(db, a):
    t = today(db)
    c = get(db, "contracts", a["contract_id"], "contract")
    reason = a["reason"].strip()
    if not reason:
        raise RefError("a cancellation reason is required")
    if c["status"] != "reserved":
        raise RefError("only reserved contracts can be cancelled")
    cust = db["customers"][c["customer_id"]]
    fee = c["daily_rate"] if (_dt.date.fromisoformat(c["start_date"]) - t).days <= 1 else 0.0
    c.update({"status": "cancelled", "cancelled_on": t.isoformat(), "cancel_reason": reason,
              "cancellation_fee": money(fee)})
    cust["committed"] = money(D(cust["committed"]) - D(c["estimated_total"]))
    cust["open_contracts"] -= 1
    if fee > 0:
        issue_invoice(db, cust, c["contract_id"], "cancellation", fee, t)
    return dict(c)

def extend_contract(db, a):
    t = today(db)
    c = get(db, "contracts", a["contract_id"], "contract")
    new_end = parse_date(a["new_end_date"], "new_end_date")
    if c["status"] not in ("reserved", "on_hire"):
        raise RefError("only reserved or on-hire contracts can be extended")
    cust = db["customers"][c["customer_id"]]
    if cust["status"] != "active":
        raise RefError("customer account is suspended")
    if c["extension_count"] >= MAX_EXTENSIONS:
        raise RefError("contract already extended the maximum number of times")
    start = _dt.date.fromisoformat(c["start_date"])
    if new_end <= _dt.date.fromisoformat(c["end_date"]) or new_end < t:
        raise RefError("new_end_date must be after the current end date and not in the past")
    days = hire_days(start, new_end)
    if days > MAX_HIRE_DAYS:
        raise RefError("hire period too long")
    if overlapping(db, c["equipment_id"], start, new_end, exclude=c["contract_id"]):
        raise RefError("equipment already booked for the extra days")
    charge, fee, est = pricing(c, days)
    diff = D(est) - D(c["estimated_total"])
    if not credit_ok(cust, diff):
        raise RefError("credit limit exceeded")
    c.update({"end_date": new_end.isoformat(), "hire_days": days, "hire_charge": charge, "waiver_fee": fee,
              "estimated_total": est, "extension_count": c["extension_count"] + 1})
    cust["committed"] = money(D(cust["committed"]) + diff)
    return dict(c)

def place_maintenance_hold(db, a):
    t = today(db)
    eq = get(db, "equipment", a["equipment_id"], "equipment")
    reason, days = a["reason"].strip(), a["days"]
    if not reason:
        raise RefError("a reason is required")
    if not 1 <= days <= 30:
        raise RefError("days must be between 1 and 30")
    if eq["status"] != "available":
        raise RefError("only available equipment can be put on hold")
    release = _dt.date.fromisoformat(add_days(t, days))
    for c in db["contracts"].values():
        if (c["equipment_id"] == eq["equipment_id"] and c["status"] == "reserved"
                and _dt.date.fromisoformat(c["start_date"]) <= release):
            raise RefError("a reservation starts before the hold would end")
    return dict(new_hold(db, eq, reason, days, "manual", t))

def release_maintenance_hold(db, a):
    t = today(db)
    h = get(db, "maintenance_holds", a["hold_id"], "maintenance hold")
    if h["status"] != "open":
        raise RefError("hold is already closed")
    notes = (a.get("notes") or "").strip() or None
    h.update({"status": "closed", "closed_on": t.isoformat(), "release_notes": notes})
    eq = db["equipment"][h["equipment_id"]]
    eq["status"], eq["last_service_date"] = "available", t.isoformat()
    return dict(h)

def record_payment(db, a):
    t = today(db)
    inv = get(db, "invoices", a["invoice_id"], "invoice")
    enum(a["method"], PAYMENT_METHODS, "method")
    amt, remaining = D(a["amount"]), D(inv["amount"]) - D(inv["amount_paid"])
    if inv["status"] != "open":
        raise RefError("invoice is already paid")
    if amt <= 0 or amt > remaining:
        raise RefError("amount must be positive and no more than the amount outstanding")
    if amt != amt.quantize(CENT):
        raise RefError("amount has more than two decimals")
    cust = db["customers"][inv["customer_id"]]
    pid = next_id(db["payments"], "PAY-", 5)
    pay = {"payment_id": pid, "invoice_id": inv["invoice_id"], "customer_id": cust["customer_id"],
           "amount": money(amt), "method": a["method"], "received_on": t.isoformat()}
    db["payments"][pid] = pay
    inv["amount_paid"] = money(D(inv["amount_paid"]) + amt)
    if amt == remaining:
        inv["status"], inv["paid_on"] = "paid", t.isoformat()
    cust["balance"] = money(D(cust["balance"]) - amt)
    if cust["status"] == "suspended" and D(cust["balance"]) == 0:
        cust["status"] = "active"
    return dict(pay)

def transfer_equipment(db, a):
    t = today(db)
    eq = get(db, "equipment", a["equipment_id"], "equipment")
    dep = get(db, "depots", a["to_depot_id"], "depot")
    if eq["status"] != "available":
        raise RefError("only available equipment can be transferred")
    if not dep["active"]:
        raise RefError("destination depot is closed")
    if dep["depot_id"] == eq["depot_id"]:
        raise RefError("equipment is already at that depot")
    if any(c["equipment_id"] == eq["equipment_id"] and c["status"] == "reserved" for c in db["contracts"].values()):
        raise RefError("equipment has reservations at its current depot")
    db["depots"][eq["depot_id"]]["equipment_count"] -= 1
    dep["equipment_count"] += 1
    eq["depot_id"], eq["last_moved_on"] = dep["depot_id"], t.isoformat()
    return dict(eq)

TOOLS = {n: globals()[n] for n in SPECS}

def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError(f"unknown tool {name}")
    args = {} if args is None else args
    check_args(name, args)
    return TOOLS[name](db, args)
