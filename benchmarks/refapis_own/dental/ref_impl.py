"""Reference implementation of the Brightsmile dental clinic API (stdlib only)."""
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass

WRITE_TOOLS = {"create_treatment_plan", "add_plan_item", "accept_treatment_plan", "pay_deposit",
               "cancel_treatment_plan", "book_appointment", "cancel_appointment",
               "complete_appointment", "mark_no_show", "record_payment"}

INSURANCE_PLANS = ("none", "basic", "plus", "premium")
COVERAGE = {  # category -> percent per insurance plan (none, basic, plus, premium)
    "preventive": (0, 80, 100, 100),
    "restorative": (0, 50, 70, 85),
    "endodontic": (0, 30, 60, 80),
    "surgical": (0, 50, 70, 80),
    "prosthetic": (0, 0, 40, 60),
    "orthodontic": (0, 0, 25, 50),
    "cosmetic": (0, 0, 0, 0),
}
ANNUAL_MAX = {"none": Decimal("0"), "basic": Decimal("750"), "plus": Decimal("1500"),
              "premium": Decimal("3000")}
PATIENT_STATUSES = ("active", "inactive")
APPT_STATUSES = ("booked", "completed", "cancelled", "no_show")
PLAN_CANCEL_REASONS = ("patient_declined", "cost", "second_opinion", "other")
APPT_CANCEL_REASONS = ("patient_request", "illness", "clinic_request", "other")
METHODS = ("card", "cash", "bank_transfer")
TEETH = {q * 10 + n for q in (1, 2, 3, 4) for n in range(1, 9)}
MAX_ITEMS = 10
DEPOSIT_RATE = Decimal("0.20")
DEPOSIT_THRESHOLD = Decimal("200.00")
CONSULTATION_FEE = Decimal("45.00")
LATE_CANCEL_FEE = Decimal("40.00")
NO_SHOW_FEE = Decimal("60.00")
BOOKING_BALANCE_LIMIT = Decimal("300.00")
MAX_NO_SHOWS = 3
BOOKING_HORIZON_DAYS = 60
DRAFT_VALID_DAYS = 90
ORTHO_AGE_LIMIT = 19
CENT = Decimal("0.01")
DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")

def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)

def dec(x):  # exact decimal from a JSON number
    return Decimal(str(x))

def num(v):  # two-decimal JSON number
    return float(q2(v))

# ---------------------------------------------------------------- argument helpers
def _req(a, key):
    if key not in a or a[key] is None:
        raise RefError(f"missing argument {key}")
    return a[key]

def _str(a, key, required=True):
    v = _req(a, key) if required else a.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{key} must be a non-empty string")
    return v

def _int(a, key, required=True):
    v = _req(a, key) if required else a.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise RefError(f"{key} must be an integer")
    return v

def _money(a, key):
    v = _req(a, key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RefError(f"{key} must be a number")
    d = dec(v)
    if d.as_tuple().exponent < -2:
        raise RefError(f"{key} must have at most two decimals")
    if d <= 0:
        raise RefError(f"{key} must be above 0.00")
    return d

def _enum(a, key, values, required=True):
    v = _req(a, key) if required else a.get(key)
    if v is None:
        return None
    if v not in values:
        raise RefError(f"{key} must be one of {values}")
    return v

def _date(a, key):
    v = a.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not DATE_RE.fullmatch(v):
        raise RefError(f"{key} must be a YYYY-MM-DD date")
    try:
        _dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{key} is not a valid date")
    return v

def _today(db):
    return _dt.date.fromisoformat(db["meta"]["today"])

def _days_until(db, date):
    return (_dt.date.fromisoformat(date) - _today(db)).days

def _age(db, dob):
    t, b = _today(db), _dt.date.fromisoformat(dob)
    return t.year - b.year - ((t.month, t.day) < (b.month, b.day))

def _get(db, coll, key, rid):
    if not isinstance(rid, str) or rid not in db[coll]:
        raise RefError(f"{key} {rid!r} not found")
    return db[coll][rid]

def _next_id(coll):
    best = None
    for k in coll:
        m = re.fullmatch(r"([A-Za-z]*)(\d+)", k)
        if m and (best is None or int(m.group(2)) > int(best[1])):
            best = (m.group(1), m.group(2))
    prefix, digits = best
    return f"{prefix}{int(digits) + 1:0{len(digits)}d}"

def _pay(db, patient_id, plan_id, kind, amount, method):
    pid = _next_id(db["payments"])
    db["payments"][pid] = {"payment_id": pid, "patient_id": patient_id, "plan_id": plan_id,
                           "kind": kind, "amount": num(amount), "method": method,
                           "paid_on": db["meta"]["today"]}
    return db["payments"][pid]

def _bookable_patient(p):
    if p["status"] != "active":
        raise RefError("patient is inactive")

# ---------------------------------------------------------------- reads
def find_patients(db, a):
    name = _str(a, "name", False)
    plan = _enum(a, "insurance_plan", INSURANCE_PLANS, False)
    status = _enum(a, "status", PATIENT_STATUSES, False)
    out = []
    for k, p in sorted(db["patients"].items()):
        if name is not None and name.lower() not in p["full_name"].lower():
            continue
        if plan is not None and p["insurance_plan"] != plan:
            continue
        if status is not None and p["status"] != status:
            continue
        out.append(p)
    return out

def get_treatment_plan(db, a):
    return _get(db, "treatment_plans", "plan_id", _req(a, "plan_id"))

def list_available_slots(db, a):
    d_from, d_to = _date(a, "date_from"), _date(a, "date_to")
    dentist = a.get("dentist_id")
    if dentist is not None:
        _get(db, "dentists", "dentist_id", dentist)
    min_dur = _int(a, "min_duration", False)
    if min_dur is not None and min_dur < 1:
        raise RefError("min_duration must be at least 1")
    if d_from and d_to and d_from > d_to:
        raise RefError("date_from is after date_to")
    out = [s for s in db["slots"].values() if s["status"] == "available"
           and (d_from is None or s["date"] >= d_from) and (d_to is None or s["date"] <= d_to)
           and (dentist is None or s["dentist_id"] == dentist)
           and (min_dur is None or s["duration_minutes"] >= min_dur)]
    return sorted(out, key=lambda s: (s["date"], s["start_time"], s["slot_id"]))

def list_appointments(db, a):
    pat, den = a.get("patient_id"), a.get("dentist_id")
    if pat is not None:
        _get(db, "patients", "patient_id", pat)
    if den is not None:
        _get(db, "dentists", "dentist_id", den)
    status = _enum(a, "status", APPT_STATUSES, False)
    d_from, d_to = _date(a, "date_from"), _date(a, "date_to")
    if d_from and d_to and d_from > d_to:
        raise RefError("date_from is after date_to")
    return [x for k, x in sorted(db["appointments"].items())
            if (pat is None or x["patient_id"] == pat) and (den is None or x["dentist_id"] == den)
            and (status is None or x["status"] == status)
            and (d_from is None or x["date"] >= d_from) and (d_to is None or x["date"] <= d_to)]

# ---------------------------------------------------------------- treatment plans
def create_treatment_plan(db, a):
    p = _get(db, "patients", "patient_id", _req(a, "patient_id"))
    d = _get(db, "dentists", "dentist_id", _req(a, "dentist_id"))
    title = _str(a, "title")
    _bookable_patient(p)
    if d["status"] != "active":
        raise RefError("dentist is on leave")
    for t in db["treatment_plans"].values():
        if (t["patient_id"] == p["patient_id"] and t["dentist_id"] == d["dentist_id"]
                and t["status"] in ("draft", "accepted", "in_progress")):
            raise RefError("patient already has an open plan with this dentist")
    pid = _next_id(db["treatment_plans"])
    db["treatment_plans"][pid] = {
        "plan_id": pid, "patient_id": p["patient_id"], "dentist_id": d["dentist_id"],
        "title": title, "status": "draft", "items": [], "total_price": 0.0,
        "insurance_total": 0.0, "patient_total": 0.0, "deposit_required": 0.0,
        "deposit_paid": 0.0, "deposit_applied": 0.0, "created_on": db["meta"]["today"],
        "accepted_on": None, "completed_on": None, "cancelled_on": None, "cancel_reason": None}
    return db["treatment_plans"][pid]

def add_plan_item(db, a):
    plan = _get(db, "treatment_plans", "plan_id", _req(a, "plan_id"))
    proc = _get(db, "procedures", "procedure_code", _req(a, "procedure_code"))
    tooth = _int(a, "tooth", False)
    if plan["status"] != "draft":
        raise RefError("items can only be added to draft plans")
    if not proc["active"]:
        raise RefError("procedure is no longer offered")
    dentist = db["dentists"][plan["dentist_id"]]
    if proc["specialty"] != "general" and proc["specialty"] != dentist["specialty"]:
        raise RefError("the plan's dentist does not have the required specialty")
    if proc["requires_tooth"]:
        if tooth is None:
            raise RefError("tooth is required for this procedure")
        if tooth not in TEETH:
            raise RefError("tooth must be an FDI permanent tooth number")
    elif tooth is not None:
        raise RefError("this procedure does not take a tooth")
    if len(plan["items"]) >= MAX_ITEMS:
        raise RefError("a plan holds at most 10 items")
    for it in plan["items"]:
        if it["procedure_code"] == proc["procedure_code"] and it["tooth"] == tooth:
            raise RefError("procedure already planned for this tooth")
    patient = db["patients"][plan["patient_id"]]
    ins = patient["insurance_plan"]
    pct = COVERAGE[proc["category"]][INSURANCE_PLANS.index(ins)]
    if proc["category"] == "orthodontic" and _age(db, patient["date_of_birth"]) >= ORTHO_AGE_LIMIT:
        pct = 0
    price = dec(proc["price"])
    raw = q2(price * pct / 100)
    remaining = ANNUAL_MAX[ins] - dec(patient["insurance_used"]) - sum(
        (dec(it["insurance_amount"]) for it in plan["items"]), Decimal("0"))
    insured = max(Decimal("0"), min(raw, remaining))
    plan["items"].append({
        "item_no": len(plan["items"]) + 1, "procedure_code": proc["procedure_code"],
        "tooth": tooth, "price": num(price), "coverage_percent": pct,
        "insurance_amount": num(insured), "patient_amount": num(price - insured),
        "status": "pending", "completed_on": None})
    _totals(plan)
    return plan

def _totals(plan):
    tot = sum((dec(i["price"]) for i in plan["items"]), Decimal("0"))
    ins = sum((dec(i["insurance_amount"]) for i in plan["items"]), Decimal("0"))
    pat = sum((dec(i["patient_amount"]) for i in plan["items"]), Decimal("0"))
    plan["total_price"], plan["insurance_total"], plan["patient_total"] = num(tot), num(ins), num(pat)
    plan["deposit_required"] = num(q2(pat * DEPOSIT_RATE)) if pat >= DEPOSIT_THRESHOLD else 0.0

def accept_treatment_plan(db, a):
    plan = _get(db, "treatment_plans", "plan_id", _req(a, "plan_id"))
    if plan["status"] != "draft":
        raise RefError("only draft plans can be accepted")
    if not plan["items"]:
        raise RefError("a plan without items cannot be accepted")
    if -_days_until(db, plan["created_on"]) > DRAFT_VALID_DAYS:
        raise RefError("the draft has expired")
    _bookable_patient(db["patients"][plan["patient_id"]])
    plan["status"] = "accepted"
    plan["accepted_on"] = db["meta"]["today"]
    return plan

def pay_deposit(db, a):
    plan = _get(db, "treatment_plans", "plan_id", _req(a, "plan_id"))
    amount = _money(a, "amount")
    method = _enum(a, "method", METHODS)
    if plan["status"] != "accepted":
        raise RefError("deposits are taken on accepted plans only")
    outstanding = dec(plan["deposit_required"]) - dec(plan["deposit_paid"])
    if amount > outstanding:
        raise RefError("amount exceeds the outstanding deposit")
    plan["deposit_paid"] = num(dec(plan["deposit_paid"]) + amount)
    return _pay(db, plan["patient_id"], plan["plan_id"], "deposit", amount, method)

def cancel_treatment_plan(db, a):
    plan = _get(db, "treatment_plans", "plan_id", _req(a, "plan_id"))
    reason = _enum(a, "reason", PLAN_CANCEL_REASONS)
    if plan["status"] not in ("draft", "accepted"):
        raise RefError("only draft or accepted plans can be cancelled")
    today = db["meta"]["today"]
    for ap in db["appointments"].values():
        if ap["plan_id"] == plan["plan_id"] and ap["status"] == "booked":
            ap.update(status="cancelled", cancel_reason="plan_cancelled", cancelled_on=today,
                      charge=0.0)
            db["slots"][ap["slot_id"]]["status"] = "available"
    for it in plan["items"]:
        if it["status"] == "scheduled":
            it["status"] = "pending"
    if dec(plan["deposit_paid"]) > 0:
        _pay(db, plan["patient_id"], plan["plan_id"], "deposit_refund", dec(plan["deposit_paid"]),
             "bank_transfer")
        plan["deposit_paid"] = 0.0
    plan.update(status="cancelled", cancelled_on=today, cancel_reason=reason)
    return plan

# ---------------------------------------------------------------- appointments
def book_appointment(db, a):
    p = _get(db, "patients", "patient_id", _req(a, "patient_id"))
    slot = _get(db, "slots", "slot_id", _req(a, "slot_id"))
    plan_id = a.get("plan_id")
    item_no = _int(a, "item_no", False)
    if (plan_id is None) != (item_no is None):
        raise RefError("plan_id and item_no go together")
    _bookable_patient(p)
    if p["no_show_count"] >= MAX_NO_SHOWS:
        raise RefError("patient has too many no-shows to book")
    if dec(p["balance_due"]) > BOOKING_BALANCE_LIMIT:
        raise RefError("outstanding balance too high")
    if slot["status"] != "available":
        raise RefError("slot is not available")
    days = _days_until(db, slot["date"])
    if days < 1 or days > BOOKING_HORIZON_DAYS:
        raise RefError("slot date outside the booking window")
    for ap in db["appointments"].values():
        if ap["patient_id"] == p["patient_id"] and ap["status"] == "booked" and ap["date"] == slot["date"]:
            raise RefError("patient already has an appointment that day")
    item = None
    if plan_id is not None:
        plan = _get(db, "treatment_plans", "plan_id", plan_id)
        if plan["patient_id"] != p["patient_id"]:
            raise RefError("plan belongs to another patient")
        if plan["status"] not in ("accepted", "in_progress"):
            raise RefError("plan is not accepted")
        if dec(plan["deposit_paid"]) < dec(plan["deposit_required"]):
            raise RefError("deposit not fully paid")
        if item_no < 1 or item_no > len(plan["items"]):
            raise RefError("item not found")
        item = plan["items"][item_no - 1]
        if item["status"] != "pending":
            raise RefError("item is not pending")
        if slot["dentist_id"] != plan["dentist_id"]:
            raise RefError("slot belongs to another dentist")
        if slot["duration_minutes"] < db["procedures"][item["procedure_code"]]["duration_minutes"]:
            raise RefError("slot too short for the procedure")
    aid = _next_id(db["appointments"])
    db["appointments"][aid] = {
        "appointment_id": aid, "patient_id": p["patient_id"], "dentist_id": slot["dentist_id"],
        "slot_id": slot["slot_id"], "date": slot["date"], "start_time": slot["start_time"],
        "chair": slot["chair"], "kind": "treatment" if item else "consultation",
        "plan_id": plan_id, "item_no": item_no, "status": "booked",
        "booked_on": db["meta"]["today"], "charge": 0.0, "cancel_reason": None,
        "cancelled_on": None, "completed_on": None}
    slot["status"] = "booked"
    if item:
        item["status"] = "scheduled"
    return db["appointments"][aid]

def _booked(db, a):
    ap = _get(db, "appointments", "appointment_id", _req(a, "appointment_id"))
    if ap["status"] != "booked":
        raise RefError("appointment is not booked")
    return ap

def _release_item(db, ap):
    if ap["plan_id"] is not None:
        db["treatment_plans"][ap["plan_id"]]["items"][ap["item_no"] - 1]["status"] = "pending"

def cancel_appointment(db, a):
    ap = _booked(db, a)
    reason = _enum(a, "reason", APPT_CANCEL_REASONS)
    days = _days_until(db, ap["date"])
    if days < 0:
        raise RefError("past appointments cannot be cancelled")
    fee = LATE_CANCEL_FEE if days < 2 and reason != "clinic_request" else Decimal("0")
    p = db["patients"][ap["patient_id"]]
    p["balance_due"] = num(dec(p["balance_due"]) + fee)
    db["slots"][ap["slot_id"]]["status"] = "available"
    _release_item(db, ap)
    ap.update(status="cancelled", cancel_reason=reason, cancelled_on=db["meta"]["today"],
              charge=num(fee))
    return ap

def complete_appointment(db, a):
    ap = _booked(db, a)
    if _days_until(db, ap["date"]) > 0:
        raise RefError("future appointments cannot be completed")
    today = db["meta"]["today"]
    p = db["patients"][ap["patient_id"]]
    if ap["plan_id"] is None:
        pct = COVERAGE["preventive"][INSURANCE_PLANS.index(p["insurance_plan"])]
        charge = q2(CONSULTATION_FEE * (100 - pct) / 100)
        insured = CONSULTATION_FEE - charge
    else:
        plan = db["treatment_plans"][ap["plan_id"]]
        item = plan["items"][ap["item_no"] - 1]
        credit = min(dec(plan["deposit_paid"]) - dec(plan["deposit_applied"]), dec(item["patient_amount"]))
        charge = dec(item["patient_amount"]) - credit
        insured = dec(item["insurance_amount"])
        plan["deposit_applied"] = num(dec(plan["deposit_applied"]) + credit)
        item["status"], item["completed_on"] = "done", today
        if all(i["status"] == "done" for i in plan["items"]):
            plan["status"], plan["completed_on"] = "completed", today
        else:
            plan["status"] = "in_progress"
    p["balance_due"] = num(dec(p["balance_due"]) + charge)
    p["insurance_used"] = num(dec(p["insurance_used"]) + insured)
    ap.update(status="completed", completed_on=today, charge=num(charge))
    return ap

def mark_no_show(db, a):
    ap = _booked(db, a)
    if _days_until(db, ap["date"]) >= 0:
        raise RefError("only appointments before today can be marked as no-show")
    p = db["patients"][ap["patient_id"]]
    p["balance_due"] = num(dec(p["balance_due"]) + NO_SHOW_FEE)
    p["no_show_count"] += 1
    _release_item(db, ap)
    ap.update(status="no_show", charge=num(NO_SHOW_FEE))
    return ap

def record_payment(db, a):
    p = _get(db, "patients", "patient_id", _req(a, "patient_id"))
    amount = _money(a, "amount")
    method = _enum(a, "method", METHODS)
    if amount > dec(p["balance_due"]):
        raise RefError("amount exceeds the balance due")
    p["balance_due"] = num(dec(p["balance_due"]) - amount)
    return _pay(db, p["patient_id"], None, "balance_payment", amount, method)

PARAMS = {
    "find_patients": {"name", "insurance_plan", "status"},
    "get_treatment_plan": {"plan_id"},
    "list_available_slots": {"date_from", "date_to", "dentist_id", "min_duration"},
    "list_appointments": {"patient_id", "dentist_id", "status", "date_from", "date_to"},
    "create_treatment_plan": {"patient_id", "dentist_id", "title"},
    "add_plan_item": {"plan_id", "procedure_code", "tooth"},
    "accept_treatment_plan": {"plan_id"},
    "pay_deposit": {"plan_id", "amount", "method"},
    "cancel_treatment_plan": {"plan_id", "reason"},
    "book_appointment": {"patient_id", "slot_id", "plan_id", "item_no"},
    "cancel_appointment": {"appointment_id", "reason"},
    "complete_appointment": {"appointment_id"},
    "mark_no_show": {"appointment_id"},
    "record_payment": {"patient_id", "amount", "method"},
}

def invoke(db, name, args):
    if name not in PARAMS:
        raise RefError(f"unknown tool {name}")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    extra = set(args) - PARAMS[name]
    if extra:
        raise RefError(f"unknown arguments {sorted(extra)}")
    return globals()[name](db, args)
