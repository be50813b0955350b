"""Reference implementation of the calibration laboratory API."""
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"record_payment", "register_instrument", "retire_instrument", "create_job",
               "assign_technician", "start_job", "complete_job", "cancel_job", "issue_certificate",
               "revoke_certificate"}

CATEGORIES = ["pressure_gauge", "multimeter", "thermometer", "torque_wrench", "balance_scale", "caliper"]
TIERS = ["standard", "partner"]
INSTRUMENT_STATUSES = ["in_service", "in_lab", "retired"]
LEVELS = ["standard", "expedited", "rush"]
JOB_STATUSES = ["received", "assigned", "in_progress", "completed", "cancelled"]
OPEN = ("received", "assigned", "in_progress")
RESULTS = ["pass", "adjusted", "fail"]
CANCEL_REASONS = ["customer_request", "instrument_damaged", "duplicate_request", "other"]
BASE_FEE = {"pressure_gauge": "85.00", "multimeter": "120.00", "thermometer": "65.00",
            "torque_wrench": "95.00", "balance_scale": "140.00", "caliper": "55.00"}
SURCHARGE_RATE = {"standard": "0", "expedited": "0.30", "rush": "0.75"}
TURNAROUND = {"standard": 10, "expedited": 5, "rush": 2}
OPEN_JOB_LIMIT = {"standard": 3, "partner": 8}
RUSH_CAPACITY = 6
CERT_WINDOW_DAYS = 30
HANDLING_FEE = Decimal("20.00")

PARAMS = {
    "search_customers": ({"query", "tier"}, set()),
    "record_payment": ({"customer_id", "amount"}, {"customer_id", "amount"}),
    "list_instruments": ({"customer_id", "category", "status", "due_within_days"}, set()),
    "register_instrument": ({"customer_id", "category", "manufacturer", "model", "serial_number",
                             "calibration_interval_days"},
                            {"customer_id", "category", "manufacturer", "model", "serial_number",
                             "calibration_interval_days"}),
    "retire_instrument": ({"instrument_id"}, {"instrument_id"}),
    "list_jobs": ({"status", "customer_id", "technician_id", "service_level", "overdue"}, set()),
    "create_job": ({"instrument_id", "service_level", "notes"}, {"instrument_id"}),
    "get_job": ({"job_id"}, {"job_id"}),
    "assign_technician": ({"job_id", "technician_id"}, {"job_id", "technician_id"}),
    "start_job": ({"job_id"}, {"job_id"}),
    "complete_job": ({"job_id", "result"}, {"job_id", "result"}),
    "cancel_job": ({"job_id", "reason"}, {"job_id", "reason"}),
    "issue_certificate": ({"job_id"}, {"job_id"}),
    "revoke_certificate": ({"certificate_id", "reason"}, {"certificate_id", "reason"}),
}


# ---------------------------------------------------------------- helpers
def _money(x):
    return Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _str(args, key, required=True):
    v = args.get(key)
    if v is None:
        if required:
            raise RefError("missing %s" % key)
        return None
    if not isinstance(v, str):
        raise RefError("%s must be a string" % key)
    return v


def _enum(args, key, values, required=True):
    v = _str(args, key, required)
    if v is not None and v not in values:
        raise RefError("invalid %s" % key)
    return v


def _get(db, coll, rid, label):
    if not isinstance(rid, str) or rid not in db[coll]:
        raise RefError("%s not found" % label)
    return db[coll][rid]


def _next_id(coll):
    best = None
    for rid in coll:
        prefix, num = rid.rsplit("-", 1)
        if best is None or int(num) > int(best[1]):
            best = (prefix, num)
    prefix, num = best
    return "%s-%0*d" % (prefix, len(num), int(num) + 1)


def _price(category, level, tier, waive_surcharge=False):
    base = _money(BASE_FEE[category])
    surcharge = Decimal("0.00") if waive_surcharge else _money(base * Decimal(SURCHARGE_RATE[level]))
    discount = _money((base + surcharge) * Decimal("0.10")) if tier == "partner" else Decimal("0.00")
    return {"base_fee": float(base), "surcharge": float(surcharge), "discount": float(discount),
            "total": float(base + surcharge - discount)}


def _add_balance(cust, amount):
    cust["balance_due"] = float(_money(cust["balance_due"]) + _money(amount))


def _revoke(db, cert, reason, today):
    cert["status"] = "revoked"
    cert["revoked_date"] = today.isoformat()
    cert["revoke_reason"] = reason
    job = db["jobs"].get(cert["job_id"])
    if job is not None and job.get("certificate_id") == cert["id"]:
        job["certificate_id"] = None


def _sorted(records):
    return [dict(r) for r in sorted(records, key=lambda r: r["id"])]


# ---------------------------------------------------------------- reads
def search_customers(db, args):
    query = _str(args, "query", False)
    tier = _enum(args, "tier", TIERS, False)
    if query is not None:
        query = query.strip().lower()
        if len(query) < 2:
            raise RefError("query too short")
    out = []
    for c in db["customers"].values():
        if tier and c["tier"] != tier:
            continue
        if query and query not in c["name"].lower() and query not in c["email"].lower():
            continue
        out.append(c)
    return _sorted(out)


def list_instruments(db, args):
    cid = _str(args, "customer_id", False)
    if cid is not None:
        _get(db, "customers", cid, "customer")
    cat = _enum(args, "category", CATEGORIES, False)
    status = _enum(args, "status", INSTRUMENT_STATUSES, False)
    days = args.get("due_within_days")
    if days is not None:
        if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= 365:
            raise RefError("due_within_days must be an integer from 0 to 365")
        horizon = _today(db) + timedelta(days=days)
    out = []
    for i in db["instruments"].values():
        if cid and i["customer_id"] != cid or cat and i["category"] != cat or status and i["status"] != status:
            continue
        if days is not None:
            if i["status"] == "retired":
                continue
            if i["last_calibrated"] is not None:
                nxt = date.fromisoformat(i["last_calibrated"]) + timedelta(days=i["calibration_interval_days"])
                if nxt > horizon:
                    continue
        out.append(i)
    return _sorted(out)


def list_jobs(db, args):
    status = _enum(args, "status", JOB_STATUSES, False)
    level = _enum(args, "service_level", LEVELS, False)
    cid = _str(args, "customer_id", False)
    tid = _str(args, "technician_id", False)
    if cid is not None:
        _get(db, "customers", cid, "customer")
    if tid is not None:
        _get(db, "technicians", tid, "technician")
    overdue = args.get("overdue")
    if overdue is not None and not isinstance(overdue, bool):
        raise RefError("overdue must be a boolean")
    today = _today(db).isoformat()
    out = []
    for j in db["jobs"].values():
        if status and j["status"] != status or level and j["service_level"] != level:
            continue
        if cid and j["customer_id"] != cid or tid and j["technician_id"] != tid:
            continue
        if overdue is not None:
            is_late = j["status"] in OPEN and j["due_date"] < today
            if is_late != overdue:
                continue
        out.append(j)
    return _sorted(out)


def get_job(db, args):
    return dict(_get(db, "jobs", _str(args, "job_id"), "job"))


# ---------------------------------------------------------------- customers / instruments
def record_payment(db, args):
    cust = _get(db, "customers", _str(args, "customer_id"), "customer")
    amount = args.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, (int, float)):
        raise RefError("amount must be a number")
    dec = Decimal(str(amount))
    if dec <= 0:
        raise RefError("amount must be positive")
    if dec != dec.quantize(Decimal("0.01")):
        raise RefError("amount has more than two decimals")
    if dec > _money(cust["balance_due"]):
        raise RefError("payment exceeds balance due")
    _add_balance(cust, -dec)
    return dict(cust)


def register_instrument(db, args):
    cid = _str(args, "customer_id")
    cat = _enum(args, "category", CATEGORIES)
    maker = _str(args, "manufacturer").strip()
    model = _str(args, "model").strip()
    serial = _str(args, "serial_number").strip()
    interval = args.get("calibration_interval_days")
    _get(db, "customers", cid, "customer")
    if not maker or not model or not serial:
        raise RefError("manufacturer, model and serial_number may not be blank")
    if isinstance(interval, bool) or interval not in (90, 180, 365):
        raise RefError("calibration_interval_days must be 90, 180 or 365")
    for i in db["instruments"].values():
        if (i["status"] != "retired" and i["serial_number"].strip().lower() == serial.lower()
                and i["manufacturer"].strip().lower() == maker.lower()):
            raise RefError("serial number already registered for this manufacturer")
    iid = _next_id(db["instruments"])
    rec = {"id": iid, "customer_id": cid, "category": cat, "manufacturer": maker, "model": model,
           "serial_number": serial, "calibration_interval_days": interval, "last_calibrated": None,
           "status": "in_service", "retired_date": None}
    db["instruments"][iid] = rec
    return dict(rec)


def retire_instrument(db, args):
    ins = _get(db, "instruments", _str(args, "instrument_id"), "instrument")
    if ins["status"] == "retired":
        raise RefError("instrument already retired")
    if ins["status"] == "in_lab":
        raise RefError("instrument has an open job")
    today = _today(db)
    ins["status"] = "retired"
    ins["retired_date"] = today.isoformat()
    for cert in db["certificates"].values():
        if cert["instrument_id"] == ins["id"] and cert["status"] == "valid":
            _revoke(db, cert, "instrument retired", today)
    return dict(ins)


# ---------------------------------------------------------------- jobs
def create_job(db, args):
    ins = _get(db, "instruments", _str(args, "instrument_id"), "instrument")
    level = _enum(args, "service_level", LEVELS, False) or "standard"
    notes = _str(args, "notes", False)
    if ins["status"] != "in_service":
        raise RefError("instrument is not in service")
    cust = db["customers"][ins["customer_id"]]
    if _money(cust["balance_due"]) > _money(cust["credit_limit"]):
        raise RefError("customer is over the credit limit")
    if cust["open_jobs"] >= OPEN_JOB_LIMIT[cust["tier"]]:
        raise RefError("customer has reached the open job limit")
    if level == "rush":
        if ins["category"] == "balance_scale":
            raise RefError("balance scales cannot be rushed")
        if sum(1 for j in db["jobs"].values() if j["service_level"] == "rush" and j["status"] in OPEN) >= RUSH_CAPACITY:
            raise RefError("rush capacity reached")
    today = _today(db)
    jid = _next_id(db["jobs"])
    rec = {"id": jid, "customer_id": cust["id"], "instrument_id": ins["id"], "technician_id": None,
           "service_level": level, "status": "received", "received_date": today.isoformat(),
           "due_date": (today + timedelta(days=TURNAROUND[level])).isoformat(), "started_date": None,
           "completed_date": None, "result": None}
    rec.update(_price(ins["category"], level, cust["tier"]))
    rec.update({"certificate_id": None, "cancel_reason": None, "cancellation_fee": None, "notes": notes})
    db["jobs"][jid] = rec
    ins["status"] = "in_lab"
    cust["open_jobs"] += 1
    return dict(rec)


def assign_technician(db, args):
    job = _get(db, "jobs", _str(args, "job_id"), "job")
    tech = _get(db, "technicians", _str(args, "technician_id"), "technician")
    if job["status"] not in ("received", "assigned"):
        raise RefError("job can no longer be assigned")
    if job["technician_id"] == tech["id"]:
        raise RefError("job is already assigned to this technician")
    if tech["status"] != "active":
        raise RefError("technician is on leave")
    if db["instruments"][job["instrument_id"]]["category"] not in tech["specialties"]:
        raise RefError("technician is not qualified for this category")
    if tech["active_jobs"] >= tech["max_active_jobs"]:
        raise RefError("technician is at capacity")
    if job["technician_id"] is not None:
        prev = db["technicians"][job["technician_id"]]
        prev["active_jobs"] -= 1
    tech["active_jobs"] += 1
    job["technician_id"] = tech["id"]
    job["status"] = "assigned"
    return dict(job)


def start_job(db, args):
    job = _get(db, "jobs", _str(args, "job_id"), "job")
    if job["status"] != "assigned":
        raise RefError("only assigned jobs can be started")
    if db["technicians"][job["technician_id"]]["status"] != "active":
        raise RefError("technician is on leave")
    job["status"] = "in_progress"
    job["started_date"] = _today(db).isoformat()
    return dict(job)


def complete_job(db, args):
    job = _get(db, "jobs", _str(args, "job_id"), "job")
    result = _enum(args, "result", RESULTS)
    if job["status"] != "in_progress":
        raise RefError("only jobs in progress can be completed")
    today = _today(db)
    ins = db["instruments"][job["instrument_id"]]
    cust = db["customers"][job["customer_id"]]
    if today.isoformat() > job["due_date"] and job["service_level"] != "standard":
        job.update(_price(ins["category"], job["service_level"], cust["tier"], waive_surcharge=True))
    job["status"] = "completed"
    job["completed_date"] = today.isoformat()
    job["result"] = result
    ins["status"] = "in_service"
    if result in ("pass", "adjusted"):
        ins["last_calibrated"] = today.isoformat()
    db["technicians"][job["technician_id"]]["active_jobs"] -= 1
    cust["open_jobs"] -= 1
    _add_balance(cust, job["total"])
    return dict(job)


def cancel_job(db, args):
    job = _get(db, "jobs", _str(args, "job_id"), "job")
    reason = _enum(args, "reason", CANCEL_REASONS)
    if job["status"] not in ("received", "assigned"):
        raise RefError("job can no longer be cancelled")
    cust = db["customers"][job["customer_id"]]
    fee = Decimal("0.00")
    if job["status"] == "assigned":
        fee = HANDLING_FEE
        db["technicians"][job["technician_id"]]["active_jobs"] -= 1
        _add_balance(cust, fee)
    job["status"] = "cancelled"
    job["cancel_reason"] = reason
    job["cancellation_fee"] = float(fee)
    db["instruments"][job["instrument_id"]]["status"] = "in_service"
    cust["open_jobs"] -= 1
    return dict(job)


# ---------------------------------------------------------------- certificates
def issue_certificate(db, args):
    job = _get(db, "jobs", _str(args, "job_id"), "job")
    if job["status"] != "completed":
        raise RefError("job is not completed")
    if job["result"] not in ("pass", "adjusted"):
        raise RefError("failed instruments are not certified")
    if job["certificate_id"] is not None:
        raise RefError("job already has a certificate")
    today = _today(db)
    completed = date.fromisoformat(job["completed_date"])
    if (today - completed).days > CERT_WINDOW_DAYS:
        raise RefError("certificate window has passed")
    ins = db["instruments"][job["instrument_id"]]
    if ins["status"] == "retired":
        raise RefError("instrument is retired")
    cid = _next_id(db["certificates"])
    rec = {"id": cid, "job_id": job["id"], "instrument_id": job["instrument_id"],
           "customer_id": job["customer_id"], "technician_id": job["technician_id"],
           "issued_date": today.isoformat(),
           "valid_until": (completed + timedelta(days=ins["calibration_interval_days"])).isoformat(),
           "status": "valid", "revoked_date": None, "revoke_reason": None}
    db["certificates"][cid] = rec
    job["certificate_id"] = cid
    return dict(rec)


def revoke_certificate(db, args):
    cert = _get(db, "certificates", _str(args, "certificate_id"), "certificate")
    reason = _str(args, "reason").strip()
    if not reason:
        raise RefError("reason may not be blank")
    if cert["status"] != "valid":
        raise RefError("certificate already revoked")
    today = _today(db)
    if cert["valid_until"] < today.isoformat():
        raise RefError("certificate has lapsed")
    _revoke(db, cert, reason, today)
    return dict(cert)


TOOLS = {name: globals()[name] for name in PARAMS}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool %s" % name)
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    allowed, required = PARAMS[name]
    unknown = set(args) - allowed
    if unknown:
        raise RefError("unknown arguments: %s" % ", ".join(sorted(unknown)))
    for key in required:
        if args.get(key) is None:
            raise RefError("missing %s" % key)
    return TOOLS[name](db, args)
