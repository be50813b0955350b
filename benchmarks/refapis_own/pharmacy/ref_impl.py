"""Reference implementation: Wrenfield Community Pharmacy prescription & refill service (stdlib only)."""
import datetime as _dt
import math
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    """The service refuses the call (unknown id, bad argument or a pharmacy rule)."""


WRITE_TOOLS = {"update_patient_insurance", "receive_stock", "create_prescription",
               "verify_prescription", "cancel_prescription", "fill_prescription",
               "pick_up_fill", "return_fill_to_stock"}

# "name:kind" per argument, "!" marks a required one; kinds: str, int, bool, date, nstr (string or null)
_SIGS = {
    "get_patient": "patient_id:str!",
    "search_patients": "query:str! date_of_birth:date",
    "update_patient_insurance": "patient_id:str! plan_id:nstr! member_id:nstr",
    "list_medications": "query:str drug_class:str tier:int status:str low_stock:bool",
    "receive_stock": "medication_id:str! packs:int!",
    "list_prescriptions": "patient_id:str prescriber_id:str medication_id:str status:str",
    "get_prescription": "prescription_id:str!",
    "create_prescription": "patient_id:str! prescriber_id:str! medication_id:str! quantity:int! days_supply:int! "
                           "refills_authorized:int! sig:str! written_on:date",
    "verify_prescription": "prescription_id:str! decision:str! pharmacist_initials:str! reject_reason:str",
    "cancel_prescription": "prescription_id:str! reason:str!",
    "fill_prescription": "prescription_id:str! quantity:int",
    "list_fills": "patient_id:str prescription_id:str status:str filled_from:date filled_to:date",
    "pick_up_fill": "fill_id:str! payment_method:str! id_checked:bool",
    "return_fill_to_stock": "fill_id:str! reason:str!",
}
SIGNATURES = {tool: {p.split(":")[0]: (p.split(":")[1].rstrip("!"), p.endswith("!")) for p in spec.split()}
              for tool, spec in _SIGS.items()}

DRUG_CLASSES = ("ace_inhibitor", "arb", "statin", "penicillin", "cephalosporin", "macrolide", "sulfonamide",
                "nsaid", "ssri", "opioid", "benzodiazepine", "sedative_hypnotic", "stimulant", "biguanide",
                "dpp4_inhibitor", "thyroid", "beta_blocker", "anticonvulsant", "ppi", "h2_blocker",
                "corticosteroid", "antihistamine", "anticoagulant", "leukotriene", "muscle_relaxant")
MED_STATUSES = ("active", "discontinued")
RX_STATUSES = ("pending_review", "active", "completed", "rejected", "cancelled", "expired")
FILL_STATUSES = ("ready", "picked_up", "returned")
CANCEL_REASONS = ("prescriber_request", "patient_request", "duplicate_therapy", "entered_in_error")
REJECT_REASONS = ("illegible", "invalid_prescriber", "allergy_conflict", "drug_interaction", "other")
RETURN_REASONS = ("not_picked_up", "patient_declined", "dispensing_error")
PAYMENTS = ("cash", "card", "hsa_card", "none")
# per controlled schedule: most refills, validity in days from written_on, early-refill percent, max days_supply
SCHEDULE_RULES = {"none": (11, 365, 75, 90), "IV": (5, 180, 90, 90), "II": (0, 90, 90, 30)}
DISPENSING_FEE = Decimal("3.25")
PICKUP_WINDOW_DAYS = 14
CENT = Decimal("0.01")


def q2(x):
    return Decimal(x).quantize(CENT, rounding=ROUND_HALF_UP)


def money(x):
    return float(q2(x))


def D(x):
    return Decimal(str(x))


def today(db):
    return _dt.date.fromisoformat(db["meta"]["today"])


def _parse_date(v, name):
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError(f"{name} must be a date YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{name} is not a real date")


_KIND_OK = {"str": lambda v: isinstance(v, str) and bool(v.strip()),
            "nstr": lambda v: isinstance(v, str) and bool(v.strip()),
            "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "bool": lambda v: isinstance(v, bool),
            "date": lambda v: _parse_date(v, "date") is not None}


def _check_args(name, args):
    sig = SIGNATURES[name]
    unknown = set(args) - set(sig)
    if unknown:
        raise RefError(f"unknown arguments: {sorted(unknown)}")
    clean = {}
    for key, (kind, required) in sig.items():
        v = clean[key] = args.get(key)
        if v is None:
            if required and (kind != "nstr" or key not in args):
                raise RefError(f"{key} is required")
        elif not _KIND_OK[kind](v):
            raise RefError(f"{key} has the wrong type or format")
    return clean


def _one_of(value, allowed, name):
    if value is not None and value not in allowed:
        raise RefError(f"{name} must be one of {allowed}")
    return value


def _find(db, coll, rid, label):
    if rid not in db[coll]:
        raise RefError(f"{label} {rid} not found")
    return db[coll][rid]


def next_id(coll):
    prefix, width, top = None, 0, -1
    for key in coll:
        m = re.fullmatch(r"(.*?)(\d+)", key)
        if m and int(m.group(2)) > top:
            prefix, width, top = m.group(1), len(m.group(2)), int(m.group(2))
    return f"{prefix}{top + 1:0{width}d}"


# ------------------------------------------------------------------ pricing
def price_fill(db, patient, med, quantity, days_supply):
    """Cost split of one fill; the plan is the patient's plan if it exists and is active."""
    drug_cost = q2(D(med["unit_price"]) * quantity)
    total = drug_cost + DISPENSING_FEE
    plan = db["insurance_plans"].get(patient.get("plan_id") or "")
    if plan is None or plan["status"] != "active":
        plan_id, share = None, total
    else:
        plan_id = plan["plan_id"]
        if med["tier"] == 3:
            share = q2(total * D(plan["tier3_coinsurance_pct"]) / 100)
        else:
            share = D(plan[f"tier{med['tier']}_copay"])
            if days_supply >= 60:
                share = share * 2
        room = max(Decimal("0"), D(plan["oop_max"]) - D(patient["oop_spent_ytd"]))
        share = min(share, total, room)
    return {"plan_id": plan_id, "drug_cost": money(drug_cost), "dispensing_fee": money(DISPENSING_FEE),
            "total_price": money(total), "patient_pays": money(share), "plan_pays": money(total - share)}


def _last_kept_fill(db, rx_id):
    kept = [f for f in db["fills"].values() if f["prescription_id"] == rx_id and f["status"] != "returned"]
    return max(kept, key=lambda f: (f["filled_on"], f["fill_id"])) if kept else None


def _open_fill(db, rx_id):
    return any(f["prescription_id"] == rx_id and f["status"] == "ready" for f in db["fills"].values())


# ------------------------------------------------------------------ patients
def get_patient(db, a):
    return _find(db, "patients", a["patient_id"], "patient")


def search_patients(db, a):
    q = a["query"]
    if len(q) < 2:
        raise RefError("query needs at least 2 characters")
    pats = [db["patients"][k] for k in sorted(db["patients"])]
    return [p for p in pats if q.lower() in f"{p['first_name']} {p['last_name']}".lower()
            and a["date_of_birth"] in (None, p["date_of_birth"])]


def update_patient_insurance(db, a):
    p = _find(db, "patients", a["patient_id"], "patient")
    if p["status"] != "active":
        raise RefError("coverage can only be changed for active patients")
    plan_id, member = a["plan_id"], a["member_id"]
    if plan_id is None:
        if member is not None:
            raise RefError("member_id must be omitted when removing coverage")
        p.update(plan_id=None, member_id=None, oop_spent_ytd=0.0)
        return p
    plan = _find(db, "insurance_plans", plan_id, "plan")
    if plan["status"] != "active":
        raise RefError("plan is closed to enrolment")
    if member is None or not re.fullmatch(r"[A-Z]{3}[0-9]{6}", member):
        raise RefError("member_id must be 3 capital letters and 6 digits")
    if p["plan_id"] != plan_id:
        p["oop_spent_ytd"] = 0.0
    p.update(plan_id=plan_id, member_id=member)
    return p


# ------------------------------------------------------------------ medications
def list_medications(db, a):
    _one_of(a["drug_class"], DRUG_CLASSES, "drug_class")
    _one_of(a["status"], MED_STATUSES, "status")
    _one_of(a["tier"], (1, 2, 3), "tier")
    meds = [db["medications"][k] for k in sorted(db["medications"])]
    return [m for m in meds
            if (a["query"] is None or a["query"].lower() in m["name"].lower())
            and all(a[k] is None or m[k] == a[k] for k in ("drug_class", "tier", "status"))
            and (a["low_stock"] is None or (m["stock_on_hand"] <= m["reorder_level"]) == a["low_stock"])]


def receive_stock(db, a):
    m = _find(db, "medications", a["medication_id"], "medication")
    if m["status"] != "active":
        raise RefError("discontinued medications cannot be restocked")
    if not 1 <= a["packs"] <= 50:
        raise RefError("packs must be 1 to 50")
    m["stock_on_hand"] += a["packs"] * m["pack_size"]
    m["last_received_on"] = db["meta"]["today"]
    return m


# ------------------------------------------------------------------ prescriptions
def list_prescriptions(db, a):
    _one_of(a["status"], RX_STATUSES, "status")
    for key, coll in (("patient_id", "patients"), ("prescriber_id", "prescribers"),
                      ("medication_id", "medications")):
        if a[key] is not None:
            _find(db, coll, a[key], key)
    keys = ("patient_id", "prescriber_id", "medication_id", "status")
    return [db["prescriptions"][k] for k in sorted(db["prescriptions"])
            if all(a[f] is None or db["prescriptions"][k][f] == a[f] for f in keys)]


def get_prescription(db, a):
    return _find(db, "prescriptions", a["prescription_id"], "prescription")


def create_prescription(db, a):
    p = _find(db, "patients", a["patient_id"], "patient")
    doc = _find(db, "prescribers", a["prescriber_id"], "prescriber")
    m = _find(db, "medications", a["medication_id"], "medication")
    if p["status"] != "active":
        raise RefError("patient is inactive")
    if doc["status"] != "active":
        raise RefError("prescriber is not active")
    if m["status"] != "active":
        raise RefError("medication is discontinued")
    max_refills, valid_days, _, max_days = SCHEDULE_RULES[m["schedule"]]
    if m["schedule"] != "none" and not doc["dea_registered"]:
        raise RefError("controlled substances need a DEA-registered prescriber")
    if not 1 <= a["quantity"] <= 360:
        raise RefError("quantity must be 1 to 360")
    if not 1 <= a["days_supply"] <= max_days:
        raise RefError(f"days_supply must be 1 to {max_days}")
    if not 0 <= a["refills_authorized"] <= max_refills:
        raise RefError(f"refills_authorized must be 0 to {max_refills}")
    if len(a["sig"]) > 200:
        raise RefError("sig is limited to 200 characters")
    t = today(db)
    written = _parse_date(a["written_on"], "written_on") if a["written_on"] else t
    if written > t or (t - written).days > 30:
        raise RefError("written_on must be between 30 days ago and today")
    for r in db["prescriptions"].values():
        if (r["patient_id"] == p["patient_id"] and r["medication_id"] == m["medication_id"]
                and r["status"] in ("pending_review", "active")):
            raise RefError(f"patient already has live prescription {r['prescription_id']} for this medication")
    rid = next_id(db["prescriptions"])
    rec = {"prescription_id": rid, "patient_id": p["patient_id"], "prescriber_id": doc["prescriber_id"],
           "medication_id": m["medication_id"], "sig": a["sig"], "quantity": a["quantity"],
           "days_supply": a["days_supply"], "refills_authorized": a["refills_authorized"],
           "refills_remaining": a["refills_authorized"], "fill_count": 0, "written_on": written.isoformat(),
           "expires_on": (written + _dt.timedelta(days=valid_days)).isoformat(), "status": "pending_review",
           "verified_by": None, "verified_on": None, "reject_reason": None, "cancel_reason": None,
           "cancelled_on": None}
    db["prescriptions"][rid] = rec
    return rec


def verify_prescription(db, a):
    r = _find(db, "prescriptions", a["prescription_id"], "prescription")
    _one_of(a["decision"], ("approve", "reject"), "decision")
    _one_of(a["reject_reason"], REJECT_REASONS, "reject_reason")
    if not re.fullmatch(r"[A-Z]{2,3}", a["pharmacist_initials"]):
        raise RefError("pharmacist_initials must be 2 or 3 capital letters")
    if r["status"] != "pending_review":
        raise RefError("only prescriptions pending review can be verified")
    if a["decision"] == "approve":
        if a["reject_reason"] is not None:
            raise RefError("reject_reason is only for rejections")
        p, doc = db["patients"][r["patient_id"]], db["prescribers"][r["prescriber_id"]]
        m = db["medications"][r["medication_id"]]
        if m["drug_class"] in p["allergies"]:
            raise RefError("patient is allergic to this drug class")
        if doc["status"] != "active":
            raise RefError("prescriber is not active")
        if m["schedule"] != "none" and not doc["dea_registered"]:
            raise RefError("prescriber is not DEA-registered")
        r["status"] = "active"
    else:
        if a["reject_reason"] is None:
            raise RefError("reject_reason is required when rejecting")
        r.update(status="rejected", reject_reason=a["reject_reason"], refills_remaining=0)
    r.update(verified_by=a["pharmacist_initials"], verified_on=db["meta"]["today"])
    return r


def cancel_prescription(db, a):
    r = _find(db, "prescriptions", a["prescription_id"], "prescription")
    _one_of(a["reason"], CANCEL_REASONS, "reason")
    if r["status"] not in ("pending_review", "active"):
        raise RefError(f"a {r['status']} prescription cannot be cancelled")
    if _open_fill(db, r["prescription_id"]):
        raise RefError("return the waiting fill to stock first")
    r.update(status="cancelled", cancel_reason=a["reason"], cancelled_on=db["meta"]["today"],
             refills_remaining=0)
    return r


# ------------------------------------------------------------------ fills
def fill_prescription(db, a):
    r = _find(db, "prescriptions", a["prescription_id"], "prescription")
    if r["status"] != "active":
        raise RefError(f"a {r['status']} prescription cannot be filled")
    t = today(db)
    if _dt.date.fromisoformat(r["expires_on"]) < t:
        raise RefError("prescription has expired")
    p, m = db["patients"][r["patient_id"]], db["medications"][r["medication_id"]]
    doc = db["prescribers"][r["prescriber_id"]]
    if p["status"] != "active":
        raise RefError("patient is inactive")
    if m["status"] != "active":
        raise RefError("medication is discontinued")
    if m["schedule"] != "none" and doc["status"] != "active":
        raise RefError("controlled prescriptions need a prescriber who is still active")
    if _open_fill(db, r["prescription_id"]):
        raise RefError("a fill of this prescription is already waiting for pickup")
    if r["fill_count"] >= 1 and r["refills_remaining"] < 1:
        raise RefError("no refills remaining")
    last = _last_kept_fill(db, r["prescription_id"])
    if last is not None:
        pct = SCHEDULE_RULES[m["schedule"]][2]
        wait = math.ceil(last["days_supply"] * pct / 100)
        if (t - _dt.date.fromisoformat(last["filled_on"])).days < wait:
            raise RefError(f"too early to refill: {wait} days must pass after the last fill")
    qty = r["quantity"] if a["quantity"] is None else a["quantity"]
    if not 1 <= qty <= r["quantity"]:
        raise RefError("quantity must be 1 to the prescribed quantity")
    if m["stock_on_hand"] < qty:
        raise RefError("not enough stock on hand")
    days = max(1, r["days_supply"] * qty // r["quantity"])
    fid = next_id(db["fills"])
    fill = {"fill_id": fid, "prescription_id": r["prescription_id"], "patient_id": p["patient_id"],
            "medication_id": m["medication_id"], "fill_number": r["fill_count"], "quantity": qty,
            "days_supply": days, "filled_on": t.isoformat(), "status": "ready"}
    fill.update(price_fill(db, p, m, qty, days))
    fill.update(picked_up_on=None, payment_method=None, id_checked=None, returned_on=None, return_reason=None)
    db["fills"][fid] = fill
    m["stock_on_hand"] -= qty
    if r["fill_count"] >= 1:
        r["refills_remaining"] -= 1
    r["fill_count"] += 1
    if r["refills_remaining"] == 0:
        r["status"] = "completed"
    return fill


def list_fills(db, a):
    _one_of(a["status"], FILL_STATUSES, "status")
    if a["patient_id"] is not None:
        _find(db, "patients", a["patient_id"], "patient")
    if a["prescription_id"] is not None:
        _find(db, "prescriptions", a["prescription_id"], "prescription")
    lo, hi = a["filled_from"], a["filled_to"]
    if lo is not None and hi is not None and lo > hi:
        raise RefError("filled_from is after filled_to")
    fills = [db["fills"][k] for k in sorted(db["fills"])]
    return [f for f in fills
            if all(a[k] is None or f[k] == a[k] for k in ("patient_id", "prescription_id", "status"))
            and (lo is None or f["filled_on"] >= lo) and (hi is None or f["filled_on"] <= hi)]


def pick_up_fill(db, a):
    f = _find(db, "fills", a["fill_id"], "fill")
    _one_of(a["payment_method"], PAYMENTS, "payment_method")
    if f["status"] != "ready":
        raise RefError("only ready fills can be picked up")
    t = today(db)
    if (t - _dt.date.fromisoformat(f["filled_on"])).days > PICKUP_WINDOW_DAYS:
        raise RefError("fill has been on the shelf too long; return it to stock")
    m = db["medications"][f["medication_id"]]
    checked = bool(a["id_checked"])
    if m["schedule"] != "none" and not checked:
        raise RefError("photo ID must be checked for controlled substances")
    if a["payment_method"] == "none" and f["patient_pays"] > 0:
        raise RefError("payment is due for this fill")
    f.update(status="picked_up", picked_up_on=t.isoformat(), payment_method=a["payment_method"],
             id_checked=checked)
    if f["plan_id"] is not None:
        p = db["patients"][f["patient_id"]]
        p["oop_spent_ytd"] = money(D(p["oop_spent_ytd"]) + D(f["patient_pays"]))
    return f


def return_fill_to_stock(db, a):
    f = _find(db, "fills", a["fill_id"], "fill")
    _one_of(a["reason"], RETURN_REASONS, "reason")
    if f["status"] != "ready":
        raise RefError("only fills waiting for pickup can be returned to stock")
    f.update(status="returned", returned_on=db["meta"]["today"], return_reason=a["reason"])
    db["medications"][f["medication_id"]]["stock_on_hand"] += f["quantity"]
    r = db["prescriptions"][f["prescription_id"]]
    r["fill_count"] -= 1
    if f["fill_number"] >= 1:
        r["refills_remaining"] += 1
    if r["status"] == "completed":
        r["status"] = "active"
    return f


# ------------------------------------------------------------------ dispatch
def invoke(db, name, args):
    if name not in SIGNATURES:
        raise RefError(f"unknown tool {name}")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return globals()[name](db, _check_args(name, args))
