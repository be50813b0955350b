"""Reference implementation of the Copperfield Motor Works workshop API (stdlib only)."""
import re
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_vehicle", "book_job", "start_job", "add_part", "log_labour", "complete_job",
               "cancel_job", "restock_part"}
KINDS = ["service", "repair", "inspection"]
JOB_STATUSES = ["booked", "in_progress", "completed", "cancelled"]
LIVE = ("booked", "in_progress")
PLATE_RE = re.compile(r"^[A-Z]{2}\d{2} [A-Z]{3}$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
BOOK_AHEAD_DAYS = 30
LOYALTY_LABOUR_FACTOR = Decimal("0.9")
SPECS = {
    "get_customer": (("customer_id",), ()),
    "list_vehicles": ((), ("customer_id", "plate")),
    "list_parts": ((), ("q", "in_stock")),
    "list_jobs": ((), ("vehicle_id", "status", "scheduled_on")),
    "get_job": (("job_id",), ()),
    "register_vehicle": (("customer_id", "plate", "make", "model", "year", "mileage"), ()),
    "book_job": (("vehicle_id", "kind", "scheduled_on"), ()),
    "start_job": (("job_id", "mileage"), ()),
    "add_part": (("job_id", "part_id", "qty"), ()),
    "log_labour": (("job_id", "hours"), ()),
    "complete_job": (("job_id",), ()),
    "cancel_job": (("job_id", "reason"), ()),
    "restock_part": (("part_id", "qty"), ()),
}


def _check_args(name, args):
    if name not in SPECS:
        raise RefError("unknown tool %r" % name)
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    req, opt = SPECS[name]
    for k in args:
        if k not in req and k not in opt:
            raise RefError("unknown argument %r" % k)
    for k in req:
        if k not in args:
            raise RefError("missing argument %r" % k)
    return args


def _str(v, what):
    if not isinstance(v, str):
        raise RefError("%s must be a string" % what)
    return v


def _int(v, what, lo, hi):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RefError("%s must be a whole number from %d to %d" % (what, lo, hi))
    return v


def _date(v, what):
    if not DATE_RE.match(_str(v, what)):
        raise RefError("%s must be YYYY-MM-DD" % what)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % what)


def _get(db, coll, rid, what):
    rec = db[coll].get(_str(rid, what))
    if rec is None:
        raise RefError("%s %s not found" % (what, rid))
    return rec


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _next_id(db, coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in db[coll] if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return "%s%0*d" % (prefix, width, (max(nums) if nums else 0) + 1)


def _job_in(db, jid, status):
    job = _get(db, "jobs", jid, "job")
    if job["status"] != status:
        raise RefError("job %s is %s, not %s" % (jid, job["status"], status))
    return job


def _money(x):
    return float(Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


# ---------------------------------------------------------------- reads
def get_customer(db, a):
    return _get(db, "customers", a["customer_id"], "customer")


def list_vehicles(db, a):
    out = list(db["vehicles"].values())
    if "customer_id" in a:
        _get(db, "customers", a["customer_id"], "customer")
        out = [v for v in out if v["customer_id"] == a["customer_id"]]
    if "plate" in a:
        plate = _str(a["plate"], "plate").replace(" ", "").upper()
        out = [v for v in out if v["plate"].replace(" ", "") == plate]
    return sorted(out, key=lambda v: v["id"])


def list_parts(db, a):
    out = list(db["parts"].values())
    if "q" in a:
        q = _str(a["q"], "q").lower()
        out = [p for p in out if q in p["name"].lower()]
    if "in_stock" in a:
        if not isinstance(a["in_stock"], bool):
            raise RefError("in_stock must be a boolean")
        out = [p for p in out if (p["stock"] > 0) == a["in_stock"]]
    return sorted(out, key=lambda p: p["id"])


def list_jobs(db, a):
    out = list(db["jobs"].values())
    if "vehicle_id" in a:
        _get(db, "vehicles", a["vehicle_id"], "vehicle")
        out = [j for j in out if j["vehicle_id"] == a["vehicle_id"]]
    if "status" in a:
        if a["status"] not in JOB_STATUSES:
            raise RefError("status must be one of %s" % JOB_STATUSES)
        out = [j for j in out if j["status"] == a["status"]]
    if "scheduled_on" in a:
        day = _date(a["scheduled_on"], "scheduled_on").isoformat()
        out = [j for j in out if j["scheduled_on"] == day]
    return sorted(out, key=lambda j: j["id"])


def get_job(db, a):
    return _get(db, "jobs", a["job_id"], "job")


# ---------------------------------------------------------------- writes
def register_vehicle(db, a):
    customer = _get(db, "customers", a["customer_id"], "customer")
    plate = _str(a["plate"], "plate")
    if not PLATE_RE.match(plate):
        raise RefError("plate must look like AB12 CDE")
    if any(v["plate"] == plate for v in db["vehicles"].values()):
        raise RefError("plate already registered")
    make, model = _str(a["make"], "make"), _str(a["model"], "model")
    if not make.strip() or not model.strip():
        raise RefError("make and model must be non-blank")
    year = _int(a["year"], "year", 1980, _today(db).year + 1)
    mileage = _int(a["mileage"], "mileage", 0, 999999)
    vid = _next_id(db, "vehicles", "V", 4)
    vehicle = {"id": vid, "customer_id": customer["id"], "plate": plate, "make": make, "model": model,
               "year": year, "mileage": mileage}
    db["vehicles"][vid] = vehicle
    return vehicle


def book_job(db, a):
    vehicle = _get(db, "vehicles", a["vehicle_id"], "vehicle")
    if a["kind"] not in KINDS:
        raise RefError("kind must be one of %s" % KINDS)
    day = _date(a["scheduled_on"], "scheduled_on")
    today = _today(db)
    if not today < day <= today + timedelta(days=BOOK_AHEAD_DAYS):
        raise RefError("jobs are booked from tomorrow up to 30 days ahead")
    if day.weekday() == 6:
        raise RefError("the workshop is closed on Sundays")
    live = [j for j in db["jobs"].values() if j["status"] in LIVE]
    if any(j["vehicle_id"] == vehicle["id"] for j in live):
        raise RefError("vehicle already has an open job")
    if sum(1 for j in live if j["scheduled_on"] == day.isoformat()) >= db["meta"]["bays"]:
        raise RefError("no free bay that day")
    jid = _next_id(db, "jobs", "J", 4)
    job = {"id": jid, "vehicle_id": vehicle["id"], "kind": a["kind"], "status": "booked",
           "scheduled_on": day.isoformat(), "labour_hours": 0.0, "parts": [], "total": None, "completed_on": None}
    db["jobs"][jid] = job
    return job


def start_job(db, a):
    job = _job_in(db, a["job_id"], "booked")
    if date.fromisoformat(job["scheduled_on"]) != _today(db):
        raise RefError("a job is started on its scheduled day")
    vehicle = db["vehicles"][job["vehicle_id"]]
    mileage = _int(a["mileage"], "mileage", 0, 999999)
    if mileage < vehicle["mileage"]:
        raise RefError("mileage cannot go down")
    vehicle["mileage"] = mileage
    job["status"] = "in_progress"
    return job


def add_part(db, a):
    job = _job_in(db, a["job_id"], "in_progress")
    part = _get(db, "parts", a["part_id"], "part")
    qty = _int(a["qty"], "qty", 1, 10)
    if part["stock"] < qty:
        raise RefError("only %d in stock" % part["stock"])
    part["stock"] -= qty
    line = next((p for p in job["parts"] if p["part_id"] == part["id"]), None)
    if line is None:
        job["parts"].append({"part_id": part["id"], "qty": qty})
    else:
        line["qty"] += qty
    return job


def log_labour(db, a):
    job = _job_in(db, a["job_id"], "in_progress")
    hours = a["hours"]
    if isinstance(hours, bool) or not isinstance(hours, (int, float)):
        raise RefError("hours must be a number")
    if not 0 < hours <= 8 or (hours * 4) != int(hours * 4):
        raise RefError("hours must be a multiple of 0.25 from 0.25 to 8")
    job["labour_hours"] = float(job["labour_hours"] + hours)
    return job


def complete_job(db, a):
    job = _job_in(db, a["job_id"], "in_progress")
    if job["labour_hours"] <= 0:
        raise RefError("no labour logged")
    customer = db["customers"][db["vehicles"][job["vehicle_id"]]["customer_id"]]
    labour = Decimal(str(job["labour_hours"])) * Decimal(str(db["meta"]["labour_rate"]))
    if customer["loyalty_member"]:
        labour *= LOYALTY_LABOUR_FACTOR
    parts = sum(Decimal(str(db["parts"][p["part_id"]]["unit_price"])) * p["qty"] for p in job["parts"])
    job["total"] = _money((labour + parts) * (1 + Decimal(str(db["meta"]["tax_rate"]))))
    job["status"] = "completed"
    job["completed_on"] = _today(db).isoformat()
    return job


def cancel_job(db, a):
    job = _job_in(db, a["job_id"], "booked")
    reason = _str(a["reason"], "reason")
    if not reason.strip() or len(reason) > 120:
        raise RefError("reason must be non-blank and at most 120 characters")
    job["status"] = "cancelled"
    job["cancel_reason"] = reason
    return job


def restock_part(db, a):
    part = _get(db, "parts", a["part_id"], "part")
    part["stock"] += _int(a["qty"], "qty", 1, 500)
    return part


TOOLS = {n: globals()[n] for n in SPECS}


def invoke(db, name, args):
    args = _check_args(name, args)
    return TOOLS[name](db, args)
