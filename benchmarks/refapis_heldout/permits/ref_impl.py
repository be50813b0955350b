"""Reference implementation of the Larkspur City building-permit office API."""
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {
    "submit_permit_application", "review_permit", "issue_permit", "extend_permit",
    "withdraw_permit", "pay_fee", "schedule_inspection", "record_inspection_result",
    "cancel_inspection",
}
READ_TOOLS = {"get_applicant", "search_properties", "list_permits", "get_permit", "list_inspections"}

PERMIT_TYPES = ["building", "electrical", "plumbing", "mechanical", "roofing", "demolition"]
TRADE_TYPES = {"electrical", "plumbing", "mechanical"}
BASE_FEE = {"building": 12000, "electrical": 8000, "plumbing": 8000, "mechanical": 8000,
            "roofing": 6000, "demolition": 15000}
STAGES = {"building": ["footing", "framing", "final"], "electrical": ["rough_in", "final"],
          "plumbing": ["rough_in", "final"], "mechanical": ["rough_in", "final"],
          "roofing": ["final"], "demolition": ["final"]}
PERMIT_STATUSES = ["submitted", "approved", "rejected", "issued", "completed", "withdrawn", "expired"]
OPEN = {"submitted", "approved", "issued"}
INSPECTION_STATUSES = ["scheduled", "passed", "failed", "cancelled"]
ZONINGS = ["residential", "mixed_use", "commercial", "industrial"]
METHODS = ["card", "check", "ach", "cash"]
MAX_OPEN = {"individual": 2, "contractor": 6}
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# ---------------------------------------------------------------- helpers
def _date(s, what="date"):
    if not isinstance(s, str) or not DATE_RE.match(s):
        raise RefError(f"{what} must be YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(s)
    except ValueError:
        raise RefError(f"{what} is not a valid date")


def _today(db):
    return _dt.date.fromisoformat(db["meta"]["today"])


def _plus(d, days):
    return (d + _dt.timedelta(days=days)).isoformat()


def _cents(x, what):
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise RefError(f"{what} must be a number")
    d = Decimal(str(x))
    if d != d.quantize(Decimal("0.01")):
        raise RefError(f"{what} has more than two decimals")
    return int(d * 100)


def _money(c):
    return round(c / 100, 2)


def _pct(c, rate):
    """c cents times rate (a string), rounded half up to the cent."""
    return int((Decimal(c) * Decimal(rate)).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def _next_id(coll, prefix):
    best, width = 0, 4
    for k in coll:
        if k.startswith(prefix) and k[len(prefix):].isdigit():
            width = len(k) - len(prefix)
            best = max(best, int(k[len(prefix):]))
    return f"{prefix}{best + 1:0{width}d}"


def _args(args, required, optional=()):
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    extra = set(args) - set(required) - set(optional)
    missing = [k for k in required if args.get(k) is None]
    if extra or missing:
        raise RefError(f"unknown arguments {sorted(extra)} / missing {missing}")
    return args


def _str(args, key, required=True, enum=None):
    v = args.get(key)
    if v is None and required:
        raise RefError(f"missing {key}")
    if v is not None and (not isinstance(v, str) or (enum is not None and v not in enum)):
        raise RefError(f"{key} must be a string" + (f" among {enum}" if enum else ""))
    return v


def _get(db, coll, key, what):
    rec = db[coll].get(key) if isinstance(key, str) else None
    if rec is None:
        raise RefError(f"{what} not found")
    return rec


def permit_fee_cents(db, prop, permit_type, valuation_c):
    units = -(-valuation_c // 100000)  # each $1,000 or part thereof
    fee = BASE_FEE[permit_type] + 625 * units
    if prop["zoning"] in ("commercial", "industrial"):
        fee = _pct(fee, "1.5")
    return fee


def _recompute(db, permit):
    total = paid = 0
    for f in db["fees"].values():
        if f["permit_id"] != permit["id"]:
            continue
        c = round(f["amount"] * 100)
        if f["status"] != "waived":
            total += c
        if f["status"] == "paid":
            paid += c
    permit["fee_total"], permit["amount_paid"], permit["balance_due"] = _money(total), _money(paid), _money(total - paid)


def _new_fee(db, permit, kind, amount_c, due_on, source=None):
    fid = _next_id(db["fees"], "FE-")
    rec = {"id": fid, "permit_id": permit["id"], "kind": kind, "amount": _money(amount_c),
           "status": "unpaid", "assessed_on": db["meta"]["today"], "due_on": due_on,
           "paid_on": None, "payment_id": None, "source_fee_id": source}
    db["fees"][fid] = rec
    _recompute(db, permit)
    return rec


def _close_permit(db, permit):
    """Permit leaves the open set: the applicant's open counter drops."""
    app = db["applicants"][permit["applicant_id"]]
    app["open_permit_count"] = max(0, app["open_permit_count"] - 1)


def _cancel_scheduled(db, permit, reason):
    for ins in db["inspections"].values():
        if ins["permit_id"] == permit["id"] and ins["status"] == "scheduled":
            ins["status"], ins["cancelled_at"], ins["cancel_reason"] = "cancelled", db["meta"]["today"], reason
            insp = db["inspectors"][ins["inspector_id"]]
            insp["scheduled_count"] = max(0, insp["scheduled_count"] - 1)


def _waive_unpaid(db, permit):
    for f in db["fees"].values():
        if f["permit_id"] == permit["id"] and f["status"] == "unpaid":
            f["status"] = "waived"
    _recompute(db, permit)


def _license_ok(app, today):
    return app["kind"] != "contractor" or (app["license_expires"] is not None
                                            and _dt.date.fromisoformat(app["license_expires"]) >= today)


# ---------------------------------------------------------------- reads
def _filtered(db, coll, a, fields):
    """fields: {arg: (record attribute, enum or referenced collection or None)}; AND of given filters."""
    _args(a, [], list(fields))
    want = {}
    for arg, (attr, check) in fields.items():
        v = _str(a, arg, False, check if isinstance(check, list) else None)
        if v is None:
            continue
        if isinstance(check, str):
            _get(db, check, v, arg) if check != "date" else _date(v)
        want[attr] = v
    return [db[coll][k] for k in sorted(db[coll]) if all(db[coll][k][f] == v for f, v in want.items())]


def get_applicant(db, a):
    _args(a, ["applicant_id"])
    return _get(db, "applicants", a["applicant_id"], "applicant")


def search_properties(db, a):
    if not isinstance(a, dict):
        raise RefError("arguments must be an object")
    q = a.get("query")
    if q is not None and (not isinstance(q, str) or not q.strip()):
        raise RefError("query must be a non-blank string")
    rest = {k: v for k, v in a.items() if k != "query"}
    out = _filtered(db, "properties", rest, {"zoning": ("zoning", ZONINGS), "owner_id": ("owner_id", "applicants")})
    if q is None:
        return out
    ql = q.strip().lower()
    return [p for p in out if ql in p["address"].lower() or ql in p["parcel_number"].lower()]


def list_permits(db, a):
    return _filtered(db, "permits", a, {"property_id": ("property_id", "properties"),
                                        "applicant_id": ("applicant_id", "applicants"),
                                        "status": ("status", PERMIT_STATUSES),
                                        "permit_type": ("permit_type", PERMIT_TYPES)})


def get_permit(db, a):
    _args(a, ["permit_id"])
    p = _get(db, "permits", a["permit_id"], "permit")
    mine = lambda coll: [db[coll][k] for k in sorted(db[coll]) if db[coll][k]["permit_id"] == p["id"]]
    return {"permit": p, "fees": mine("fees"), "inspections": mine("inspections")}


def list_inspections(db, a):
    return _filtered(db, "inspections", a, {"permit_id": ("permit_id", "permits"),
                                            "inspector_id": ("inspector_id", "inspectors"),
                                            "date": ("scheduled_date", "date"),
                                            "status": ("status", INSPECTION_STATUSES)})


# ---------------------------------------------------------------- writes
def submit_permit_application(db, a):
    _args(a, ["property_id", "applicant_id", "permit_type", "valuation", "description"])
    ptype = _str(a, "permit_type", True, PERMIT_TYPES)
    desc = _str(a, "description")
    if not desc.strip() or len(desc) > 500:
        raise RefError("description must be 1-500 characters")
    val = _cents(a["valuation"], "valuation")
    if val <= 0 or val > 500000000:
        raise RefError("valuation must be above 0 and at most 5,000,000.00")
    prop = _get(db, "properties", _str(a, "property_id"), "property")
    app = _get(db, "applicants", _str(a, "applicant_id"), "applicant")
    today = _today(db)
    if app["status"] != "active":
        raise RefError("applicant is suspended")
    if app["kind"] == "individual":
        if prop["owner_id"] != app["id"]:
            raise RefError("individuals may only apply for property they own")
        if ptype in TRADE_TYPES:
            raise RefError("trade permits require a licensed contractor")
    elif not _license_ok(app, today):
        raise RefError("contractor license expired")
    if ptype == "demolition" and prop["historic_district"]:
        raise RefError("no demolition in the historic district")
    if app["open_permit_count"] >= MAX_OPEN[app["kind"]]:
        raise RefError("applicant has too many open permits")
    for p in db["permits"].values():
        if p["property_id"] == prop["id"] and p["permit_type"] == ptype and p["status"] in OPEN:
            raise RefError("an open permit of this type already exists for the property")
    fee = permit_fee_cents(db, prop, ptype, val)
    pid = _next_id(db["permits"], "BP-")
    permit = {"id": pid, "property_id": prop["id"], "applicant_id": app["id"], "permit_type": ptype,
              "description": desc, "valuation": _money(val), "permit_fee": _money(fee),
              "status": "submitted", "submitted_at": today.isoformat(), "approved_at": None,
              "rejected_at": None, "rejection_reason": None, "issued_at": None, "expires_on": None,
              "extension_count": 0, "completed_at": None, "withdrawn_at": None, "withdraw_reason": None,
              "fee_total": 0.0, "amount_paid": 0.0, "balance_due": 0.0, "inspection_count": 0}
    db["permits"][pid] = permit
    _new_fee(db, permit, "plan_review", _pct(fee, "0.25"), _plus(today, 30))
    app["open_permit_count"] += 1
    app["permit_count"] += 1
    prop["permit_count"] += 1
    return permit


def review_permit(db, a):
    _args(a, ["permit_id", "decision"], ["reason"])
    dec = _str(a, "decision", True, ["approve", "reject"])
    reason = _str(a, "reason", False)
    p = _get(db, "permits", _str(a, "permit_id"), "permit")
    if p["status"] != "submitted":
        raise RefError("only submitted permits can be reviewed")
    today = db["meta"]["today"]
    if dec == "approve":
        if p["balance_due"] > 0:
            raise RefError("fees must be paid before approval")
        p["status"], p["approved_at"] = "approved", today
    else:
        if reason is None or not reason.strip():
            raise RefError("a reason is required to reject")
        p["status"], p["rejected_at"], p["rejection_reason"] = "rejected", today, reason
        _waive_unpaid(db, p)
        _close_permit(db, p)
    return p


def issue_permit(db, a):
    _args(a, ["permit_id"])
    p = _get(db, "permits", _str(a, "permit_id"), "permit")
    if p["status"] != "approved":
        raise RefError("only approved permits can be issued")
    today = _today(db)
    if (today - _dt.date.fromisoformat(p["approved_at"])).days > 180:
        raise RefError("approval is older than 180 days")
    app = db["applicants"][p["applicant_id"]]
    if app["status"] != "active":
        raise RefError("applicant is suspended")
    if not _license_ok(app, today):
        raise RefError("contractor license expired")
    plan = sum(round(f["amount"] * 100) for f in db["fees"].values()
               if f["permit_id"] == p["id"] and f["kind"] == "plan_review")
    p["status"], p["issued_at"], p["expires_on"] = "issued", today.isoformat(), _plus(today, 180)
    _new_fee(db, p, "permit", round(p["permit_fee"] * 100) - plan, _plus(today, 30))
    return p


def extend_permit(db, a):
    _args(a, ["permit_id"])
    p = _get(db, "permits", _str(a, "permit_id"), "permit")
    if p["status"] != "issued":
        raise RefError("only issued permits can be extended")
    if p["extension_count"] >= 1:
        raise RefError("already extended once")
    today = _today(db)
    left = (_dt.date.fromisoformat(p["expires_on"]) - today).days
    if left < 0 or left > 30:
        raise RefError("extensions are only granted within 30 days of expiry")
    p["expires_on"] = _plus(_dt.date.fromisoformat(p["expires_on"]), 90)
    p["extension_count"] += 1
    _new_fee(db, p, "extension", max(4000, _pct(round(p["permit_fee"] * 100), "0.15")), _plus(today, 30))
    return p


def withdraw_permit(db, a):
    _args(a, ["permit_id"], ["reason"])
    reason = _str(a, "reason", False)
    p = _get(db, "permits", _str(a, "permit_id"), "permit")
    if p["status"] not in OPEN:
        raise RefError("permit is not open")
    if any(i["permit_id"] == p["id"] and i["status"] == "passed" for i in db["inspections"].values()):
        raise RefError("work has passed an inspection; cannot withdraw")
    p["status"], p["withdrawn_at"], p["withdraw_reason"] = "withdrawn", db["meta"]["today"], reason
    _cancel_scheduled(db, p, "permit withdrawn")
    _waive_unpaid(db, p)
    _close_permit(db, p)
    return p


def pay_fee(db, a):
    _args(a, ["fee_id", "amount", "method"])
    method = _str(a, "method", True, METHODS)
    amt = _cents(a["amount"], "amount")
    fee = _get(db, "fees", _str(a, "fee_id"), "fee")
    if fee["status"] != "unpaid":
        raise RefError("fee is not unpaid")
    if amt != round(fee["amount"] * 100):
        raise RefError("amount must equal the fee amount")
    if method == "cash" and amt > 100000:
        raise RefError("cash is limited to 1,000.00")
    today = _today(db)
    surcharge = _pct(amt, "0.025") if method == "card" else 0
    pay_id = _next_id(db["payments"], "PAY-")
    pay = {"id": pay_id, "fee_id": fee["id"], "permit_id": fee["permit_id"], "amount": _money(amt),
           "surcharge": _money(surcharge), "total_charged": _money(amt + surcharge), "method": method,
           "received_on": today.isoformat()}
    db["payments"][pay_id] = pay
    fee["status"], fee["paid_on"], fee["payment_id"] = "paid", today.isoformat(), pay_id
    permit = db["permits"][fee["permit_id"]]
    _recompute(db, permit)
    if fee["kind"] != "late" and _dt.date.fromisoformat(fee["due_on"]) < today:
        _new_fee(db, permit, "late", max(1500, _pct(amt, "0.10")), _plus(today, 15), fee["id"])
    return pay


def schedule_inspection(db, a):
    _args(a, ["permit_id", "inspection_type", "scheduled_date", "inspector_id"])
    itype = _str(a, "inspection_type", True, ["footing", "framing", "rough_in", "final"])
    day = _date(_str(a, "scheduled_date"), "scheduled_date")
    p = _get(db, "permits", _str(a, "permit_id"), "permit")
    insp = _get(db, "inspectors", _str(a, "inspector_id"), "inspector")
    today = _today(db)
    if p["status"] != "issued":
        raise RefError("permit is not issued")
    delta = (day - today).days
    if delta < 1 or delta > 30:
        raise RefError("date must be 1 to 30 days ahead")
    if day.weekday() >= 5 or day.isoformat() in db["meta"].get("holidays", []):
        raise RefError("inspections run on working days only")
    if day > _dt.date.fromisoformat(p["expires_on"]):
        raise RefError("date is after the permit expires")
    if p["balance_due"] > 0:
        raise RefError("permit has an unpaid balance")
    stages = STAGES[p["permit_type"]]
    if itype not in stages:
        raise RefError("inspection type does not apply to this permit type")
    mine = [i for i in db["inspections"].values() if i["permit_id"] == p["id"]]
    if any(i["status"] == "scheduled" for i in mine):
        raise RefError("permit already has a scheduled inspection")
    passed = {i["inspection_type"] for i in mine if i["status"] == "passed"}
    if itype in passed:
        raise RefError("this stage has already passed")
    if any(s not in passed for s in stages[:stages.index(itype)]):
        raise RefError("earlier stages must pass first")
    if not insp["active"]:
        raise RefError("inspector is inactive")
    if p["permit_type"] not in insp["specialties"]:
        raise RefError("inspector is not qualified for this permit type")
    load = sum(1 for i in db["inspections"].values() if i["inspector_id"] == insp["id"]
               and i["status"] == "scheduled" and i["scheduled_date"] == day.isoformat())
    if load >= insp["max_per_day"]:
        raise RefError("inspector is fully booked that day")
    iid = _next_id(db["inspections"], "INS-")
    rec = {"id": iid, "permit_id": p["id"], "inspector_id": insp["id"], "inspection_type": itype,
           "scheduled_date": day.isoformat(), "status": "scheduled", "requested_on": today.isoformat(),
           "completed_at": None, "result_notes": None, "cancelled_at": None, "cancel_reason": None}
    db["inspections"][iid] = rec
    insp["scheduled_count"] += 1
    p["inspection_count"] += 1
    return rec


def record_inspection_result(db, a):
    _args(a, ["inspection_id", "result"], ["notes"])
    res = _str(a, "result", True, ["passed", "failed"])
    notes = _str(a, "notes", False)
    ins = _get(db, "inspections", _str(a, "inspection_id"), "inspection")
    if ins["status"] != "scheduled":
        raise RefError("inspection is not scheduled")
    today = _today(db)
    if _dt.date.fromisoformat(ins["scheduled_date"]) > today:
        raise RefError("inspection has not taken place yet")
    if res == "failed" and (notes is None or not notes.strip()):
        raise RefError("notes are required for a failed inspection")
    p = db["permits"][ins["permit_id"]]
    if p["status"] != "issued":
        raise RefError("permit is not issued")
    ins["status"], ins["completed_at"], ins["result_notes"] = res, today.isoformat(), notes
    insp = db["inspectors"][ins["inspector_id"]]
    insp["scheduled_count"] = max(0, insp["scheduled_count"] - 1)
    if res == "failed":
        _new_fee(db, p, "reinspection", 7500, _plus(today, 30))
    elif ins["inspection_type"] == "final":
        p["status"], p["completed_at"] = "completed", today.isoformat()
        _close_permit(db, p)
    return ins


def cancel_inspection(db, a):
    _args(a, ["inspection_id", "reason"])
    reason = _str(a, "reason")
    if not reason.strip():
        raise RefError("reason is required")
    ins = _get(db, "inspections", _str(a, "inspection_id"), "inspection")
    if ins["status"] != "scheduled":
        raise RefError("inspection is not scheduled")
    if _dt.date.fromisoformat(ins["scheduled_date"]) <= _today(db):
        raise RefError("cancellations must be made at least one day ahead")
    ins["status"], ins["cancelled_at"], ins["cancel_reason"] = "cancelled", db["meta"]["today"], reason
    insp = db["inspectors"][ins["inspector_id"]]
    insp["scheduled_count"] = max(0, insp["scheduled_count"] - 1)
    return ins


TOOLS = {f.__name__: f for f in [
    get_applicant, search_properties, list_permits, get_permit, list_inspections,
    submit_permit_application, review_permit, issue_permit, extend_permit, withdraw_permit,
    pay_fee, schedule_inspection, record_inspection_result, cancel_inspection]}


def invoke(db, name, args):
    fn = TOOLS.get(name)
    if fn is None:
        raise RefError(f"unknown tool {name}")
    return fn(db, args if args is not None else {})
