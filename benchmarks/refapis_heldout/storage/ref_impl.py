"""Reference implementation of the Keepwell Self Storage API (stdlib only)."""
import calendar
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"create_tenant", "reserve_unit", "cancel_reservation", "move_in", "give_notice",
               "move_out", "issue_invoice", "apply_late_fee", "record_payment", "issue_access_code"}

SITES = ("NB", "RV", "HL")
SIZES = ("locker", "5x5", "5x10", "10x10", "10x15", "10x20")
UNIT_STATUSES = ("available", "reserved", "occupied", "maintenance")
TENANT_STATUSES = ("active", "blocked")
AGREEMENT_STATUSES = ("reserved", "active", "notice_given", "ended", "cancelled")
INVOICE_STATUSES = ("open", "overdue", "paid")
CANCEL_REASONS = ("changed_plans", "found_elsewhere", "unit_too_small", "price", "other")
METHODS = ("card", "bank_transfer", "cash")
PROTECTION = {"none": Decimal("0.00"), "basic": Decimal("9.00"), "premium": Decimal("16.00")}
ADMIN_FEE = Decimal("20.00")
CLEANING_CHARGE = Decimal("35.00")
LATE_FEE_MIN = Decimal("15.00")
CASH_LIMIT = Decimal("500.00")
OPEN_AGREEMENTS = ("reserved", "active", "notice_given")
MAX_OPEN_AGREEMENTS = 3
CENT = Decimal("0.01")
EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
PHONE_RE = re.compile(r"\+?[0-9]{10,15}")
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
PERIOD_RE = re.compile(r"(\d{4})-(0[1-9]|1[0-2])")

PARAMS = {
    "list_units": {"site", "size_code", "status", "climate_controlled", "max_rate"},
    "list_tenants": {"query", "status"},
    "list_agreements": {"tenant_id", "unit_id", "status"},
    "list_invoices": {"tenant_id", "agreement_id", "status", "period"},
    "create_tenant": {"full_name", "email", "phone"},
    "reserve_unit": {"tenant_id", "unit_id", "start_date", "protection_plan"},
    "cancel_reservation": {"agreement_id", "reason"},
    "move_in": {"agreement_id"},
    "give_notice": {"agreement_id", "move_out_date"},
    "move_out": {"agreement_id", "unit_left_clean"},
    "issue_invoice": {"agreement_id", "period"},
    "apply_late_fee": {"invoice_id"},
    "record_payment": {"invoice_id", "amount", "method"},
    "issue_access_code": {"agreement_id", "code"},
}


def q2(x):  # round half-up to cents
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


dec = lambda x: Decimal(str(x))  # noqa: E731
num = lambda x: float(q2(x))  # noqa: E731


# ---------------------------------------------------------------- argument helpers
def _arg(args, key, required):
    """The argument value; None when optional and absent. A null required argument is missing."""
    v = args.get(key)
    if v is None and required:
        raise RefError(f"missing argument {key}")
    return v


def _check(args, key, required, ok, what):
    v = _arg(args, key, required)
    if v is not None and not ok(v):
        raise RefError(f"{key} must be {what}")
    return v


def _str(args, key, required=True):
    return _check(args, key, required, lambda v: isinstance(v, str) and v.strip(), "a non-empty string")


def _enum(args, key, values, required=True, default=None):
    v = _check(args, key, required, lambda v: isinstance(v, str) and v in values, f"one of {values}")
    return default if v is None else v


def _bool(args, key, required=True):
    return _check(args, key, required, lambda v: isinstance(v, bool), "a boolean")


def _number(args, key, required=True):
    v = _check(args, key, required, lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
               "a number")
    return None if v is None else dec(v)


def _period(args, key, required=True):
    return _check(args, key, required, lambda v: isinstance(v, str) and PERIOD_RE.fullmatch(v), "YYYY-MM")


def _date(args, key):
    v = _check(args, key, True, lambda v: isinstance(v, str) and DATE_RE.fullmatch(v), "YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{key} is not a valid date")


def _rec(db, coll, args, key, required=True):
    v = _arg(args, key, required)
    if v is None:
        return None
    if not isinstance(v, str) or v not in db[coll]:
        raise RefError(f"{key} {v!r} not found")
    return db[coll][v]


_today = lambda db: _dt.date.fromisoformat(db["meta"]["today"])  # noqa: E731


def _next_id(coll):
    best = None
    for k in coll:
        m = re.fullmatch(r"([A-Za-z-]*)(\d+)", k)
        if m and (best is None or int(m.group(2)) > int(best[1])):
            best = (m.group(1), m.group(2))
    prefix, digits = best
    return f"{prefix}{int(digits) + 1:0{len(digits)}d}"


def _month(y, m):
    return _dt.date(y, m, 1), _dt.date(y, m, calendar.monthrange(y, m)[1])


def _add_balance(db, tenant_id, amount):
    t = db["tenants"][tenant_id]
    t["balance"] = num(dec(t["balance"]) + amount)


def _overdue(db, agreement_id=None, tenant_id=None):
    return any(i["status"] == "overdue" and (i["agreement_id"] == agreement_id or i["tenant_id"] == tenant_id)
               for i in db["invoices"].values())


def _good_standing(db, tenant):
    if tenant["status"] != "active":
        raise RefError("tenant is blocked")
    if _overdue(db, tenant_id=tenant["tenant_id"]):
        raise RefError("tenant has an overdue invoice")


def _set_codes(db, agreement_id, statuses, **changes):
    for c in db["access_codes"].values():
        if c["agreement_id"] == agreement_id and c["status"] in statuses:
            c.update(changes)


def _rent(rate, frm, to):
    dim = calendar.monthrange(frm.year, frm.month)[1]
    days = (to - frm).days + 1
    return q2(rate * days / dim)


def _new_invoice(db, ag, kind, period, frm, to, due, admin, deposit):
    rate = dec(ag["monthly_rate"])
    rent = _rent(rate, frm, to)
    prot = dec(ag["protection_fee"])
    total = rent + prot + admin + deposit
    iid = _next_id(db["invoices"])
    inv = {"invoice_id": iid, "agreement_id": ag["agreement_id"], "tenant_id": ag["tenant_id"],
           "kind": kind, "period": period, "billed_from": frm.isoformat(), "billed_to": to.isoformat(),
           "rent_amount": num(rent), "protection_amount": num(prot), "admin_fee": num(admin),
           "deposit_amount": num(deposit), "late_fee": 0.0, "total": num(total), "amount_paid": 0.0,
           "status": "open", "issued_on": db["meta"]["today"], "due_on": due.isoformat(),
           "late_fee_applied_on": None, "paid_on": None}
    db["invoices"][iid] = inv
    _add_balance(db, ag["tenant_id"], total)
    return inv


# ---------------------------------------------------------------- reads
def _select(db, coll, conds, extra=lambda r: True):
    """Records of coll in id order whose fields equal every given (non-None) condition."""
    return [r for _, r in sorted(db[coll].items())
            if all(r[k] == v for k, v in conds.items() if v is not None) and extra(r)]


def list_units(db, args):
    max_rate = _number(args, "max_rate", False)
    return _select(db, "units", {"site": _enum(args, "site", SITES, False),
                                 "size_code": _enum(args, "size_code", SIZES, False),
                                 "status": _enum(args, "status", UNIT_STATUSES, False),
                                 "climate_controlled": _bool(args, "climate_controlled", False)},
                   lambda u: max_rate is None or dec(u["monthly_rate"]) <= max_rate)


def list_tenants(db, args):
    q = _str(args, "query", False)
    q = None if q is None else q.lower()
    return _select(db, "tenants", {"status": _enum(args, "status", TENANT_STATUSES, False)},
                   lambda t: q is None or q in t["full_name"].lower() or q in t["email"].lower())


_id = lambda rec, key: None if rec is None else rec[key]  # noqa: E731


def list_agreements(db, args):
    return _select(db, "agreements", {
        "tenant_id": _id(_rec(db, "tenants", args, "tenant_id", False), "tenant_id"),
        "unit_id": _id(_rec(db, "units", args, "unit_id", False), "unit_id"),
        "status": _enum(args, "status", AGREEMENT_STATUSES, False)})


def list_invoices(db, args):
    return _select(db, "invoices", {
        "tenant_id": _id(_rec(db, "tenants", args, "tenant_id", False), "tenant_id"),
        "agreement_id": _id(_rec(db, "agreements", args, "agreement_id", False), "agreement_id"),
        "status": _enum(args, "status", INVOICE_STATUSES, False),
        "period": _period(args, "period", False)})


# ---------------------------------------------------------------- tenants and agreements
def create_tenant(db, args):
    name = _str(args, "full_name")
    email = _str(args, "email")
    phone = _str(args, "phone")
    if not EMAIL_RE.fullmatch(email):
        raise RefError("invalid email")
    if not PHONE_RE.fullmatch(phone):
        raise RefError("invalid phone")
    email = email.lower()
    if any(t["email"].lower() == email for t in db["tenants"].values()):
        raise RefError("email already registered")
    tid = _next_id(db["tenants"])
    db["tenants"][tid] = {"tenant_id": tid, "full_name": name, "email": email, "phone": phone,
                          "status": "active", "balance": 0.0, "created_on": db["meta"]["today"]}
    return db["tenants"][tid]


def reserve_unit(db, args):
    tenant = _rec(db, "tenants", args, "tenant_id")
    unit = _rec(db, "units", args, "unit_id")
    start = _date(args, "start_date")
    plan = _enum(args, "protection_plan", tuple(PROTECTION), False, "none")
    today = _today(db)
    _good_standing(db, tenant)
    n_open = sum(1 for a in db["agreements"].values()
                 if a["tenant_id"] == tenant["tenant_id"] and a["status"] in OPEN_AGREEMENTS)
    if n_open >= MAX_OPEN_AGREEMENTS:
        raise RefError("tenant already holds three open agreements")
    if unit["status"] != "available":
        raise RefError("unit is not available")
    if start < today or (start - today).days > 30:
        raise RefError("start_date must be within the next 30 days")
    if unit["size_code"] == "locker" and plan != "none":
        raise RefError("lockers take no protection plan")
    rate = dec(unit["monthly_rate"])
    aid = _next_id(db["agreements"])
    ag = {"agreement_id": aid, "tenant_id": tenant["tenant_id"], "unit_id": unit["unit_id"],
          "status": "reserved", "protection_plan": plan, "monthly_rate": num(rate),
          "protection_fee": num(PROTECTION[plan]), "deposit": num(rate / 2),
          "created_on": today.isoformat(), "start_date": start.isoformat(), "move_in_date": None,
          "notice_given_on": None, "move_out_date": None, "ended_on": None, "cleaning_charge": None,
          "deposit_refunded": None, "cancelled_on": None, "cancel_reason": None}
    db["agreements"][aid] = ag
    unit.update(status="reserved", current_agreement_id=aid)
    return ag


def _agreement(db, args, statuses):
    ag = _rec(db, "agreements", args, "agreement_id")
    if ag["status"] not in statuses:
        raise RefError(f"agreement is {ag['status']}")
    return ag


def cancel_reservation(db, args):
    ag = _rec(db, "agreements", args, "agreement_id")
    reason = _enum(args, "reason", CANCEL_REASONS)
    if ag["status"] != "reserved":
        raise RefError("only reservations can be cancelled")
    ag.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason)
    db["units"][ag["unit_id"]].update(status="available", current_agreement_id=None)
    return ag


def move_in(db, args):
    ag = _agreement(db, args, ("reserved",))
    today = _today(db)
    _good_standing(db, db["tenants"][ag["tenant_id"]])
    if today < _dt.date.fromisoformat(ag["start_date"]):
        raise RefError("move-in before the start date")
    ag.update(status="active", move_in_date=today.isoformat())
    db["units"][ag["unit_id"]]["status"] = "occupied"
    _, last = _month(today.year, today.month)
    inv = _new_invoice(db, ag, "move_in", today.strftime("%Y-%m"), today, last, today,
                       ADMIN_FEE, dec(ag["deposit"]))
    return {"agreement": ag, "invoice": inv}


def give_notice(db, args):
    ag = _agreement(db, args, ("active",))
    d = _date(args, "move_out_date")
    today = _today(db)
    if not 10 <= (d - today).days <= 90:
        raise RefError("move_out_date must be 10 to 90 days ahead")
    if (d - _dt.date.fromisoformat(ag["move_in_date"])).days < 30:
        raise RefError("minimum stay is 30 days")
    for inv in db["invoices"].values():
        if inv["agreement_id"] == ag["agreement_id"] and inv["billed_from"] > d.isoformat():
            raise RefError("a later month is already invoiced")
    ag.update(status="notice_given", notice_given_on=today.isoformat(), move_out_date=d.isoformat())
    return ag


def move_out(db, args):
    ag = _agreement(db, args, ("notice_given",))
    clean = _bool(args, "unit_left_clean")
    today = _today(db)
    if today < _dt.date.fromisoformat(ag["move_out_date"]):
        raise RefError("move-out before the notified date")
    if any(i["agreement_id"] == ag["agreement_id"] and i["status"] in ("open", "overdue")
           for i in db["invoices"].values()):
        raise RefError("agreement has unpaid invoices")
    dep = dec(ag["deposit"])
    charge = Decimal("0") if clean else min(CLEANING_CHARGE, dep)
    ag.update(status="ended", ended_on=today.isoformat(), cleaning_charge=num(charge),
              deposit_refunded=num(dep - charge))
    db["units"][ag["unit_id"]].update(status="available", current_agreement_id=None)
    _set_codes(db, ag["agreement_id"], ("active", "suspended"), status="revoked", revoked_on=today.isoformat())
    return ag


# ---------------------------------------------------------------- billing
def issue_invoice(db, args):
    ag = _agreement(db, args, ("active", "notice_given"))
    period = _period(args, "period")
    today = _today(db)
    y, m = int(period[:4]), int(period[5:])
    nxt = (today.year + (today.month == 12), today.month % 12 + 1)
    if (y, m) not in ((today.year, today.month), nxt):
        raise RefError("period must be the current or the next month")
    if any(i["agreement_id"] == ag["agreement_id"] and i["period"] == period for i in db["invoices"].values()):
        raise RefError("period already invoiced")
    first, last = _month(y, m)
    frm = max(first, _dt.date.fromisoformat(ag["move_in_date"]))
    to = min(last, _dt.date.fromisoformat(ag["move_out_date"] or last.isoformat()))
    if to < frm:
        raise RefError("nothing to bill in this period")
    return _new_invoice(db, ag, "monthly", period, frm, to, max(first, today), Decimal("0"), Decimal("0"))


def apply_late_fee(db, args):
    inv = _rec(db, "invoices", args, "invoice_id")
    today = _today(db)
    if inv["status"] != "open":
        raise RefError(f"invoice is {inv['status']}")
    if (today - _dt.date.fromisoformat(inv["due_on"])).days <= 5:
        raise RefError("still within the grace period")
    outstanding = dec(inv["total"]) - dec(inv["amount_paid"])
    fee = max(LATE_FEE_MIN, q2(outstanding * Decimal("0.10")))
    inv.update(late_fee=num(fee), total=num(dec(inv["total"]) + fee), status="overdue",
               late_fee_applied_on=today.isoformat())
    _add_balance(db, inv["tenant_id"], fee)
    _set_codes(db, inv["agreement_id"], ("active",), status="suspended")
    return inv


def record_payment(db, args):
    inv = _rec(db, "invoices", args, "invoice_id")
    amount = _number(args, "amount")
    method = _enum(args, "method", METHODS)
    if amount <= 0 or amount.as_tuple().exponent < -2:
        raise RefError("amount must be positive with at most two decimals")
    if inv["status"] not in ("open", "overdue"):
        raise RefError("invoice is already paid")
    outstanding = dec(inv["total"]) - dec(inv["amount_paid"])
    if amount > outstanding:
        raise RefError("amount exceeds the outstanding amount")
    if method == "cash" and amount > CASH_LIMIT:
        raise RefError("cash payments are limited to 500.00")
    today = db["meta"]["today"]
    pid = _next_id(db["payments"])
    pay = {"payment_id": pid, "invoice_id": inv["invoice_id"], "tenant_id": inv["tenant_id"],
           "amount": num(amount), "method": method, "paid_on": today}
    db["payments"][pid] = pay
    inv["amount_paid"] = num(dec(inv["amount_paid"]) + amount)
    _add_balance(db, inv["tenant_id"], -amount)
    if amount == outstanding:
        inv.update(status="paid", paid_on=today)
        if not _overdue(db, agreement_id=inv["agreement_id"]):
            _set_codes(db, inv["agreement_id"], ("suspended",), status="active")
    return {"payment": pay, "invoice": inv}


def issue_access_code(db, args):
    ag = _agreement(db, args, ("active", "notice_given"))
    code = _str(args, "code")
    if not re.fullmatch(r"[0-9]{6}", code) or len(set(code)) == 1 or code in ("123456", "654321"):
        raise RefError("code must be six digits, not trivial")
    if _overdue(db, agreement_id=ag["agreement_id"]):
        raise RefError("access is suspended for an overdue invoice")
    if any(c["code"] == code and c["status"] in ("active", "suspended") for c in db["access_codes"].values()):
        raise RefError("code already in use")
    today = db["meta"]["today"]
    _set_codes(db, ag["agreement_id"], ("active",), status="revoked", revoked_on=today)
    cid = _next_id(db["access_codes"])
    db["access_codes"][cid] = {"code_id": cid, "agreement_id": ag["agreement_id"],
                               "tenant_id": ag["tenant_id"], "unit_id": ag["unit_id"], "code": code,
                               "status": "active", "issued_on": today, "revoked_on": None}
    return db["access_codes"][cid]


def invoke(db, name, args):
    if name not in PARAMS:
        raise RefError(f"unknown tool {name}")
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    extra = set(args) - PARAMS[name]
    if extra:
        raise RefError(f"unknown arguments {sorted(extra)}")
    return globals()[name](db, args)
