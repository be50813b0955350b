"""Reference implementation of the movers job desk API (stdlib only, deterministic)."""
import copy
import datetime
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"update_customer", "create_quote", "book_job", "reschedule_job", "start_job",
               "complete_job", "cancel_job", "file_claim", "decide_claim"}

D = Decimal
CENT = D("0.01")
BASE_FEE, PER_M3, INCLUDED_KM, PER_KM = D("150.00"), D("32.00"), 25, D("2.20")
STAIRS_PER_FLOOR_M3, PACKING_PER_M3 = D("1.50"), D("14.00")
WEEKEND_FACTOR, LOYALTY_FACTOR, LOYALTY_MOVES = D("1.15"), D("0.95"), 3
QUOTE_VALID_DAYS, MIN_LEAD_DAYS, MAX_AHEAD_DAYS = 14, 2, 180
DEPOSIT_RATE, DEPOSIT_MIN, BANK_TRANSFER_LEAD_DAYS = D("0.25"), D("150.00"), 5
MAX_RESCHEDULES, LATE_RESCHEDULE_DAYS, LATE_RESCHEDULE_FEE = 2, 7, D("75.00")
OVERAGE_PER_M3, CLAIM_WINDOW_DAYS, MAX_CLAIM = D("45.00"), 30, D("50000.00")
# plan -> (premium rate of declared value, cap rate of declared value, deductible)
PLANS = {"standard": (D("0.015"), D("0.5"), D("150.00")), "full_value": (D("0.025"), D("1"), D("0.00"))}
BASIC_CAP_PER_M3, MIN_PREMIUM = D("15.00"), D("30.00")

JOB_STATUSES = {"quoted", "booked", "in_progress", "completed", "cancelled"}
BUSY = {"booked", "in_progress", "completed"}
ACTIVE_JOB = {"quoted", "booked", "in_progress"}
ACCOUNT_STATUSES = {"active", "suspended"}
CONTACT = {"email", "phone", "sms"}
INSURANCE = {"basic", "standard", "full_value"}
PAYMENT = {"card", "bank_transfer", "cash"}
CANCEL_REASONS = {"customer_request", "price", "date_unavailable", "duplicate", "company_decision"}
DAMAGE_TYPES = {"broken", "scratched", "dented", "water_damage", "lost"}
DENIAL_REASONS = {"pre_existing", "not_covered", "insufficient_evidence", "owner_packed"}
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
PHONE_RE = re.compile(r"^\+[0-9]{10,15}$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

SIGNATURES = {
    "search_customers": (set(), {"q", "account_status"}),
    "list_jobs": (set(), {"customer_id", "status", "crew_id", "date_from", "date_to"}),
    "get_job": ({"job_id"}, set()),
    "get_availability": ({"date"}, {"min_crew_size", "min_truck_capacity_m3"}),
    "update_customer": ({"customer_id"}, {"email", "phone", "preferred_contact", "marketing_opt_in"}),
    "create_quote": ({"customer_id", "move_date", "origin_address", "destination_address", "volume_m3",
                      "distance_km", "origin_floor", "destination_floor"},
                     {"origin_elevator", "destination_elevator", "packing_service", "insurance_plan",
                      "declared_value"}),
    "book_job": ({"job_id", "crew_id", "truck_id", "payment_method"}, set()),
    "reschedule_job": ({"job_id", "new_move_date"}, {"crew_id", "truck_id"}),
    "start_job": ({"job_id"}, set()),
    "complete_job": ({"job_id", "actual_volume_m3"}, set()),
    "cancel_job": ({"job_id", "reason"}, set()),
    "file_claim": ({"job_id", "item_description", "damage_type", "claimed_amount"}, set()),
    "decide_claim": ({"claim_id", "decision"}, {"denial_reason"}),
}


# ------------------------------------------------------------------ helpers
def _refuse(cond, msg):
    if cond:
        raise RefError(msg)


def _d(x):
    return D(str(x))


def money(x):
    return float(_d(x).quantize(CENT, rounding=ROUND_HALF_UP))


def _str(a, key, maxlen=200):
    v = a.get(key)
    _refuse(not isinstance(v, str) or not v.strip() or len(v) > maxlen, f"{key}: 1-{maxlen} characters")
    return v


def _int(a, key, lo, hi):
    v = a.get(key)
    _refuse(isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi, f"{key}: integer {lo}..{hi}")
    return v


def _bool(a, key, default=False):
    v = a.get(key, default)
    _refuse(not isinstance(v, bool), f"{key} must be a boolean")
    return v


def _enum(a, key, allowed):
    v = a.get(key)
    _refuse(not isinstance(v, str) or v not in allowed, f"{key} must be one of {sorted(allowed)}")
    return v


def _amount(a, key, lo, hi):
    v = a.get(key)
    _refuse(isinstance(v, bool) or not isinstance(v, (int, float)), f"{key} must be a number")
    d = _d(v)
    _refuse(d != d.quantize(CENT) or not _d(lo) <= d <= _d(hi), f"{key}: {lo}..{hi}, 2 decimals")
    return d


def _date(a, key):
    v = a.get(key)
    try:
        if not isinstance(v, str) or not DATE_RE.match(v):
            raise ValueError
        return datetime.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{key} must be a date YYYY-MM-DD") from None


def _today(db):
    return datetime.date.fromisoformat(db["meta"]["today"])


def _days(a_iso, b):
    """days from date b to ISO date a_iso"""
    return (datetime.date.fromisoformat(a_iso) - b).days


def _get(db, coll, key, label):
    _refuse(not isinstance(key, str) or key not in db[coll], f"{label} {key!r} not found")
    return db[coll][key]


def _next_id(db, coll, prefix):
    nums = [int(k.split("-")[1]) for k in db[coll] if k.startswith(prefix + "-")]
    return f"{prefix}-{(max(nums) if nums else 0) + 1:04d}"


def _in_window(db, d, key):
    delta = (d - _today(db)).days
    _refuse(not MIN_LEAD_DAYS <= delta <= MAX_AHEAD_DAYS, f"{key} outside the window")


def _crew_load(db, crew_id, iso, skip=None):
    return sum(1 for j in db["jobs"].values() if j["crew_id"] == crew_id and j["move_date"] == iso
               and j["status"] in BUSY and j["job_id"] != skip)


def _truck_taken(db, truck_id, iso, skip=None):
    return any(j["truck_id"] == truck_id and j["move_date"] == iso and j["status"] in BUSY
               and j["job_id"] != skip for j in db["jobs"].values())


def _customer_has_job_on(db, customer_id, iso, skip=None):
    return any(j["customer_id"] == customer_id and j["move_date"] == iso and j["status"] in ACTIVE_JOB
               and j["job_id"] != skip for j in db["jobs"].values())


def required_movers(volume):
    return 2 if volume <= 15 else 3 if volume <= 40 else 4


def price_quote(volume, distance, floors, move_date, completed_moves, packing):
    """floors: [(floor, has_elevator), ...] for origin and destination"""
    sub = BASE_FEE + PER_M3 * volume + PER_KM * max(0, distance - INCLUDED_KM)
    for floor, elevator in floors:
        if not elevator:
            sub += STAIRS_PER_FLOOR_M3 * floor * volume
    if packing:
        sub += PACKING_PER_M3 * volume
    if move_date.weekday() >= 5:
        sub *= WEEKEND_FACTOR
    if completed_moves >= LOYALTY_MOVES:
        sub *= LOYALTY_FACTOR
    return money(sub)


def insurance_terms(plan, volume, declared):
    """-> (premium, coverage_cap, deductible)"""
    if plan == "basic":
        return 0.0, money(BASIC_CAP_PER_M3 * volume), 0.0
    rate, cap_rate, deductible = PLANS[plan]
    premium = max(_d(money(_d(declared) * rate)), MIN_PREMIUM)
    return money(premium), money(_d(declared) * cap_rate), money(deductible)


def deposit_for(total):
    t = _d(total)
    return money(min(max(_d(money(t * DEPOSIT_RATE)), DEPOSIT_MIN), t))


def _check_crew_truck(db, job, crew, truck, iso):
    _refuse(crew["status"] != "active" or truck["status"] != "active", "crew and truck must be active")
    _refuse(crew["size"] < job["required_movers"], "crew too small for this volume")
    _refuse(truck["capacity_m3"] < job["volume_m3"], "truck too small for this volume")
    load = _crew_load(db, crew["crew_id"], iso, job["job_id"])
    _refuse(load >= crew["max_jobs_per_day"], "crew fully booked")
    _refuse(_truck_taken(db, truck["truck_id"], iso, job["job_id"]), "truck taken")


def _sorted(records, key):
    return [copy.deepcopy(r) for r in sorted(records, key=lambda r: r[key])]


# ------------------------------------------------------------------ reads
def search_customers(db, a):
    out = list(db["customers"].values())
    if "account_status" in a:
        st = _enum(a, "account_status", ACCOUNT_STATUSES)
        out = [c for c in out if c["account_status"] == st]
    if "q" in a:
        q = _str(a, "q").strip().lower()
        out = [c for c in out if q in c["full_name"].lower() or q in c["email"].lower()]
    return _sorted(out, "customer_id")


def list_jobs(db, a):
    out = list(db["jobs"].values())
    if "customer_id" in a:
        _get(db, "customers", a["customer_id"], "customer")
        out = [j for j in out if j["customer_id"] == a["customer_id"]]
    if "crew_id" in a:
        _get(db, "crews", a["crew_id"], "crew")
        out = [j for j in out if j["crew_id"] == a["crew_id"]]
    if "status" in a:
        st = _enum(a, "status", JOB_STATUSES)
        out = [j for j in out if j["status"] == st]
    lo = _date(a, "date_from") if "date_from" in a else None
    hi = _date(a, "date_to") if "date_to" in a else None
    _refuse(lo and hi and lo > hi, "date_from is after date_to")
    if lo:
        out = [j for j in out if j["move_date"] >= lo.isoformat()]
    if hi:
        out = [j for j in out if j["move_date"] <= hi.isoformat()]
    return _sorted(out, "job_id")


def get_job(db, a):
    j = _get(db, "jobs", a["job_id"], "job")
    claims = [c for c in db["claims"].values() if c["job_id"] == j["job_id"]]
    return {"job": copy.deepcopy(j), "claims": _sorted(claims, "claim_id")}


def get_availability(db, a):
    d = _date(a, "date")
    delta = (d - _today(db)).days
    _refuse(not 0 <= delta <= MAX_AHEAD_DAYS, "date must be today or up to 180 days ahead")
    iso = d.isoformat()
    size = _int(a, "min_crew_size", 1, 10) if "min_crew_size" in a else 1
    cap = _int(a, "min_truck_capacity_m3", 1, 200) if "min_truck_capacity_m3" in a else 1
    crews = [c for c in db["crews"].values() if c["status"] == "active" and c["size"] >= size
             and _crew_load(db, c["crew_id"], iso) < c["max_jobs_per_day"]]
    trucks = [t for t in db["trucks"].values() if t["status"] == "active" and t["capacity_m3"] >= cap
              and not _truck_taken(db, t["truck_id"], iso)]
    return {"date": iso, "crews": _sorted(crews, "crew_id"), "trucks": _sorted(trucks, "truck_id")}


# ------------------------------------------------------------------ writes
def update_customer(db, a):
    c = _get(db, "customers", a["customer_id"], "customer")
    fields = {"email", "phone", "preferred_contact", "marketing_opt_in"} & set(a)
    _refuse(not fields, "nothing to update")
    new = {}
    if "email" in a:
        email = _str(a, "email", 120).strip().lower()
        _refuse(not EMAIL_RE.fullmatch(email), "malformed email")
        if any(o["email"].lower() == email and o["customer_id"] != c["customer_id"]
               for o in db["customers"].values()):
            raise RefError("email already used by another customer")
        new["email"] = email
    if "phone" in a:
        phone = a["phone"]
        _refuse(not isinstance(phone, str) or not PHONE_RE.fullmatch(phone), "bad phone")
        new["phone"] = phone
    if "preferred_contact" in a:
        new["preferred_contact"] = _enum(a, "preferred_contact", CONTACT)
    if "marketing_opt_in" in a:
        new["marketing_opt_in"] = _bool(a, "marketing_opt_in")
    contact = new.get("preferred_contact", c["preferred_contact"])
    _refuse(contact in ("phone", "sms") and not new.get("phone", c["phone"]), "no phone on file")
    c.update(new)
    c["updated_on"] = db["meta"]["today"]
    return copy.deepcopy(c)


def create_quote(db, a):
    c = _get(db, "customers", a["customer_id"], "customer")
    d = _date(a, "move_date")
    origin, dest = _str(a, "origin_address"), _str(a, "destination_address")
    volume = _int(a, "volume_m3", 1, 90)
    distance = _int(a, "distance_km", 1, 600)
    ofl, dfl = _int(a, "origin_floor", 0, 40), _int(a, "destination_floor", 0, 40)
    oel, del_ = _bool(a, "origin_elevator"), _bool(a, "destination_elevator")
    packing = _bool(a, "packing_service")
    plan = _enum(a, "insurance_plan", INSURANCE) if "insurance_plan" in a else "basic"
    declared = None
    if plan == "basic":
        _refuse("declared_value" in a, "declared_value is only for standard or full_value cover")
    else:
        _refuse("declared_value" not in a, "declared_value is required for this plan")
        declared = float(_amount(a, "declared_value", 1000, 250000))
    _refuse(origin.strip().lower() == dest.strip().lower(), "origin and destination must differ")
    _in_window(db, d, "move_date")
    _refuse(c["account_status"] != "active", "suspended")
    iso = d.isoformat()
    _refuse(_customer_has_job_on(db, c["customer_id"], iso), "one open job per date")
    quote = price_quote(volume, distance, [(ofl, oel), (dfl, del_)], d, c["completed_moves"], packing)
    premium, cap, deductible = insurance_terms(plan, volume, declared)
    total = money(_d(quote) + _d(premium))
    today = _today(db)
    jid = _next_id(db, "jobs", "JOB")
    job = db["jobs"][jid] = {
        "job_id": jid, "customer_id": c["customer_id"], "status": "quoted",
        "created_on": today.isoformat(),
        "quote_expires_on": (today + datetime.timedelta(days=QUOTE_VALID_DAYS)).isoformat(),
        "move_date": iso, "origin_address": origin, "destination_address": dest,
        "origin_floor": ofl, "origin_elevator": oel, "destination_floor": dfl,
        "destination_elevator": del_, "volume_m3": volume, "distance_km": distance,
        "packing_service": packing, "required_movers": required_movers(volume),
        "insurance_plan": plan, "declared_value": declared, "quote_amount": quote,
        "insurance_premium": premium, "coverage_cap": cap, "deductible": deductible,
        "total_amount": total, "crew_id": None, "truck_id": None, "deposit_amount": 0.0,
        "deposit_method": None, "booked_on": None, "reschedule_count": 0,
        "last_rescheduled_on": None, "fees_amount": 0.0, "started_on": None, "completed_on": None,
        "actual_volume_m3": None, "overage_amount": 0.0, "final_amount": None,
        "balance_due": total, "cancelled_on": None, "cancel_reason": None,
        "cancellation_fee": None, "refund_amount": None, "claims_filed": 0,
        "claims_paid_total": 0.0}
    return copy.deepcopy(job)


def book_job(db, a):
    j = _get(db, "jobs", a["job_id"], "job")
    crew = _get(db, "crews", a["crew_id"], "crew")
    truck = _get(db, "trucks", a["truck_id"], "truck")
    method = _enum(a, "payment_method", PAYMENT)
    today = _today(db)
    _refuse(j["status"] != "quoted", f"job is {j['status']}")
    _refuse(j["quote_expires_on"] < today.isoformat(), "quote has expired")
    _refuse(db["customers"][j["customer_id"]]["account_status"] != "active", "suspended")
    lead = _days(j["move_date"], today)
    _refuse(lead < 1, "move date is not in the future")
    _refuse(method == "cash", "deposits cannot be paid in cash")
    _refuse(method == "bank_transfer" and lead < BANK_TRANSFER_LEAD_DAYS, "transfer too late")
    _check_crew_truck(db, j, crew, truck, j["move_date"])
    dep = deposit_for(j["total_amount"])
    j.update(status="booked", booked_on=today.isoformat(), crew_id=crew["crew_id"],
             truck_id=truck["truck_id"], deposit_amount=dep, deposit_method=method,
             balance_due=money(_d(j["total_amount"]) + _d(j["fees_amount"]) - _d(dep)))
    return copy.deepcopy(j)


def reschedule_job(db, a):
    j = _get(db, "jobs", a["job_id"], "job")
    d = _date(a, "new_move_date")
    crew = _get(db, "crews", a["crew_id"], "crew") if "crew_id" in a else None
    truck = _get(db, "trucks", a["truck_id"], "truck") if "truck_id" in a else None
    today = _today(db)
    _refuse(j["status"] != "booked", f"job is {j['status']}")
    notice = _days(j["move_date"], today)
    _refuse(notice < 1, "too late to reschedule")
    _refuse(j["reschedule_count"] >= MAX_RESCHEDULES, "reschedule limit reached")
    iso = d.isoformat()
    _refuse(iso == j["move_date"], "new date equals the current one")
    _in_window(db, d, "new_move_date")
    _refuse(_customer_has_job_on(db, j["customer_id"], iso, j["job_id"]), "one open job per date")
    crew = crew or db["crews"][j["crew_id"]]
    truck = truck or db["trucks"][j["truck_id"]]
    _check_crew_truck(db, j, crew, truck, iso)
    fee = LATE_RESCHEDULE_FEE if notice < LATE_RESCHEDULE_DAYS else D("0")
    j.update(move_date=iso, crew_id=crew["crew_id"], truck_id=truck["truck_id"],
             reschedule_count=j["reschedule_count"] + 1, last_rescheduled_on=today.isoformat(),
             fees_amount=money(_d(j["fees_amount"]) + fee),
             balance_due=money(_d(j["balance_due"]) + fee))
    return copy.deepcopy(j)


def start_job(db, a):
    j = _get(db, "jobs", a["job_id"], "job")
    _refuse(j["status"] != "booked", f"job is {j['status']}")
    _refuse(j["move_date"] != db["meta"]["today"], "a job can only start on its move date")
    crew, truck = db["crews"][j["crew_id"]], db["trucks"][j["truck_id"]]
    _refuse(crew["status"] != "active" or truck["status"] != "active", "crew/truck inactive")
    j.update(status="in_progress", started_on=db["meta"]["today"])
    return copy.deepcopy(j)


def complete_job(db, a):
    j = _get(db, "jobs", a["job_id"], "job")
    actual = _int(a, "actual_volume_m3", 1, 200)
    _refuse(j["status"] != "in_progress", f"job is {j['status']}")
    truck = db["trucks"][j["truck_id"]]
    _refuse(actual > truck["capacity_m3"], "more than the truck can carry: book a second job")
    overage = money(OVERAGE_PER_M3 * max(0, actual - j["volume_m3"]))
    final = money(_d(j["total_amount"]) + _d(j["fees_amount"]) + _d(overage))
    j.update(status="completed", completed_on=db["meta"]["today"], actual_volume_m3=actual,
             overage_amount=overage, final_amount=final,
             balance_due=money(_d(final) - _d(j["deposit_amount"])))
    c = db["customers"][j["customer_id"]]
    c["completed_moves"] += 1
    c["lifetime_spend"] = money(_d(c["lifetime_spend"]) + _d(final))
    db["crews"][j["crew_id"]]["jobs_completed"] += 1
    truck["odometer_km"] += 2 * j["distance_km"]
    return copy.deepcopy(j)


def cancel_job(db, a):
    j = _get(db, "jobs", a["job_id"], "job")
    reason = _enum(a, "reason", CANCEL_REASONS)
    _refuse(j["status"] not in ("quoted", "booked"), f"job is {j['status']}")
    fee = D("0")
    if j["status"] == "booked":
        notice = _days(j["move_date"], _today(db))
        dep = _d(j["deposit_amount"])
        fee = D("0") if notice >= 14 else _d(money(dep / 2)) if notice >= 3 else dep
        refund = money(dep - fee)
    else:
        refund = 0.0
    j.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason,
             cancellation_fee=money(fee), refund_amount=refund, balance_due=0.0)
    return copy.deepcopy(j)


def file_claim(db, a):
    j = _get(db, "jobs", a["job_id"], "job")
    desc = _str(a, "item_description")
    dtype = _enum(a, "damage_type", DAMAGE_TYPES)
    amount = _amount(a, "claimed_amount", "0.01", MAX_CLAIM)
    _refuse(j["status"] != "completed", "claims are only for completed jobs")
    _refuse(-_days(j["completed_on"], _today(db)) > CLAIM_WINDOW_DAYS, "claim window has closed")
    _refuse(dtype == "lost" and j["insurance_plan"] == "basic", "basic cover does not include lost items")
    _refuse(any(c["job_id"] == j["job_id"] and c["status"] == "submitted"
                for c in db["claims"].values()), "claim pending")
    _refuse(j["claims_paid_total"] >= j["coverage_cap"], "coverage is exhausted")
    cid = _next_id(db, "claims", "CLM")
    claim = db["claims"][cid] = {
        "claim_id": cid, "job_id": j["job_id"], "customer_id": j["customer_id"],
        "item_description": desc, "damage_type": dtype, "claimed_amount": float(amount),
        "status": "submitted", "filed_on": db["meta"]["today"], "decided_on": None,
        "payout_amount": None, "denial_reason": None}
    j["claims_filed"] += 1
    return copy.deepcopy(claim)


def decide_claim(db, a):
    c = _get(db, "claims", a["claim_id"], "claim")
    decision = _enum(a, "decision", {"approve", "deny"})
    if decision == "deny":
        _refuse("denial_reason" not in a, "a denial needs a denial_reason")
        reason = _enum(a, "denial_reason", DENIAL_REASONS)
    elif "denial_reason" in a:
        raise RefError("denial_reason is only for denials")
    _refuse(c["status"] != "submitted", f"claim is already {c['status']}")
    j = db["jobs"][c["job_id"]]
    if decision == "deny":
        c.update(status="denied", decided_on=db["meta"]["today"], payout_amount=0.0, denial_reason=reason)
        return copy.deepcopy(c)
    remaining = _d(j["coverage_cap"]) - _d(j["claims_paid_total"])
    net = max(D("0"), _d(c["claimed_amount"]) - _d(j["deductible"]))
    payout = money(max(D("0"), min(net, remaining)))
    c.update(status="approved", decided_on=db["meta"]["today"], payout_amount=payout)
    j["claims_paid_total"] = money(_d(j["claims_paid_total"]) + _d(payout))
    return copy.deepcopy(c)


TOOLS = {n: globals()[n] for n in SIGNATURES}


def invoke(db, name, args):
    _refuse(name not in TOOLS, f"unknown tool {name!r}")
    _refuse(not isinstance(args, dict), "arguments must be an object")
    req, opt = SIGNATURES[name]
    args = {k: v for k, v in args.items() if v is not None}
    unknown = set(args) - req - opt
    _refuse(unknown, f"unknown arguments: {sorted(unknown)}")
    _refuse(req - set(args), f"missing arguments: {sorted(req - set(args))}")
    return TOOLS[name](db, args)
