"""Reference implementation of Larkmoor SampleTrack (laboratory sample tracking). Stdlib only."""
import copy
import datetime as dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_sample", "store_sample", "check_out_sample", "create_test_order",
               "enter_result", "sign_off_result", "cancel_test_order", "dispose_sample"}

SPECIMEN_TYPES = ["serum", "plasma", "whole_blood", "urine", "csf", "tissue", "saliva", "dna"]
ALLOWED_TEMPS = {"serum": {-20, -80}, "plasma": {-80}, "whole_blood": {4}, "urine": {-20, -80},
                 "csf": {-80}, "tissue": {-80, -196}, "saliva": {-20}, "dna": {4, -20}}
SAMPLE_STATUSES = ["received", "stored", "checked_out", "depleted", "quarantined", "disposed"]
ORDER_STATUSES = ["ordered", "in_progress", "resulted", "signed_off", "cancelled"]
RACK_STATUSES = ["in_service", "maintenance", "decommissioned"]
TEMPS = [4, -20, -80, -196]
DEPARTMENTS = ["chemistry", "haematology", "immunology", "molecular", "histology"]
PRIORITIES = ["routine", "stat"]
CANCEL_REASONS = ["requested_by_sponsor", "sample_unsuitable", "duplicate_request", "lab_error"]
DISPOSAL_METHODS = ["autoclave", "incineration", "chemical_inactivation", "returned_to_sponsor"]
DISPOSAL_REASONS = ["retention_expired", "consent_withdrawn", "depleted", "quality_failure", "study_closed"]
SUBJECT_RE = re.compile(r"^[A-Z]{3}-[0-9]{3}$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CENT = Decimal("0.01")

# tool -> {arg: (kind, required)}
SIGS = {
    "get_study": {"study_id": ("str", True)},
    "list_samples": {"study_id": ("str", False), "status": (SAMPLE_STATUSES, False),
                     "specimen_type": (SPECIMEN_TYPES, False), "rack_id": ("str", False),
                     "subject_code": ("str", False)},
    "search_tests": {"q": ("str", False), "specimen_type": (SPECIMEN_TYPES, False),
                     "department": (DEPARTMENTS, False), "include_withdrawn": ("bool", False)},
    "list_racks": {"storage_temp_c": (TEMPS, False), "status": (RACK_STATUSES, False),
                   "min_free": ("int", False), "specimen_type": (SPECIMEN_TYPES, False)},
    "list_test_orders": {"sample_id": ("str", False), "study_id": ("str", False),
                         "status": (ORDER_STATUSES, False), "test_code": ("str", False)},
    "get_custody_log": {"sample_id": ("str", True)},
    "register_sample": {"study_id": ("str", True), "subject_code": ("str", True),
                        "specimen_type": (SPECIMEN_TYPES, True), "collected_on": ("date", True),
                        "volume_ml": ("num", True), "received_by": ("str", True)},
    "store_sample": {"sample_id": ("str", True), "rack_id": ("str", True), "position": ("int", False),
                     "performed_by": ("str", True)},
    "check_out_sample": {"sample_id": ("str", True), "checked_out_to": ("str", True),
                         "return_due": ("date", True)},
    "create_test_order": {"sample_id": ("str", True), "test_code": ("str", True),
                          "priority": (PRIORITIES, False)},
    "enter_result": {"order_id": ("str", True), "value": ("num", True), "entered_by": ("str", True)},
    "sign_off_result": {"order_id": ("str", True), "signed_by": ("str", True), "callback_to": ("str", False)},
    "cancel_test_order": {"order_id": ("str", True), "reason": (CANCEL_REASONS, True)},
    "dispose_sample": {"sample_id": ("str", True), "method": (DISPOSAL_METHODS, True),
                       "reason": (DISPOSAL_REASONS, True), "authorised_by": ("str", True)},
}


# ------------------------------------------------------------------ helpers
def _check(name, args):
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    sig = SIGS[name]
    args = {k: v for k, v in args.items() if v is not None}
    for k in args:
        if k not in sig:
            raise RefError(f"unknown argument {k}")
    for k, (kind, req) in sig.items():
        if k not in args:
            if req:
                raise RefError(f"missing argument {k}")
            continue
        v = args[k]
        if isinstance(kind, list):
            if isinstance(v, bool) or v not in kind or type(v) is not type(kind[0]):
                raise RefError(f"{k} must be one of {kind}")
        elif kind == "bool":
            if not isinstance(v, bool):
                raise RefError(f"{k} must be a boolean")
        elif kind == "int":
            if isinstance(v, bool) or not isinstance(v, int):
                raise RefError(f"{k} must be an integer")
        elif kind == "num":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise RefError(f"{k} must be a number")
        else:
            if not isinstance(v, str) or not v.strip():
                raise RefError(f"{k} must be a non-empty string")
            if kind == "date":
                args[k] = _date(v, k)
    return args


def _date(v, k):
    if not DATE_RE.match(v):
        raise RefError(f"{k} must be YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{k} is not a calendar date")


def _today(db):
    return dt.date.fromisoformat(db["meta"]["today"])


def _dec(x):
    return Decimal(str(x))


def _r2(x):
    return float(x.quantize(CENT, rounding=ROUND_HALF_UP))


def _get(db, coll, key, what):
    rec = db[coll].get(key)
    if rec is None:
        raise RefError(f"{what} {key} not found")
    return rec


def _next_id(db, coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in db[coll] if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return f"{prefix}{(max(nums) if nums else 0) + 1:0{width}d}"


def _same_person(a, b):
    return (a or "").strip().casefold() == (b or "").strip().casefold()


def _log(db, sample_id, action, who, rack_id, position):
    eid = _next_id(db, "custody_events", "CE-", 5)
    db["custody_events"][eid] = {"event_id": eid, "sample_id": sample_id, "action": action,
                                 "performed_by": who, "event_date": db["meta"]["today"],
                                 "rack_id": rack_id, "position": position}


def _leave_rack(db, s):
    """Take a stored sample out of its rack; returns (rack_id, position) it had."""
    where = (s["rack_id"], s["position"])
    if s["status"] == "stored" and s["rack_id"] in db["racks"]:
        db["racks"][s["rack_id"]]["occupied"] -= 1
    s["rack_id"], s["position"] = None, None
    return where


def _sorted(coll, pred):
    return [copy.deepcopy(coll[k]) for k in sorted(coll) if pred(coll[k])]


# ------------------------------------------------------------------ reads
def get_study(db, a):
    return copy.deepcopy(_get(db, "studies", a["study_id"], "study"))


def list_samples(db, a):
    if "study_id" in a:
        _get(db, "studies", a["study_id"], "study")
    if "rack_id" in a:
        _get(db, "racks", a["rack_id"], "rack")

    def ok(s):
        return (all(s[f] == a[f] for f in ("study_id", "status", "specimen_type", "rack_id") if f in a)
                and ("subject_code" not in a or s["subject_code"].casefold() == a["subject_code"].casefold()))
    return _sorted(db["samples"], ok)


def search_tests(db, a):
    q = a.get("q")
    if q is not None and len(q) < 2:
        raise RefError("q needs at least 2 characters")
    q = q.casefold() if q else None

    def ok(t):
        return ((q is None or q in t["test_code"].casefold() or q in t["name"].casefold())
                and ("specimen_type" not in a or a["specimen_type"] in t["specimen_types"])
                and ("department" not in a or t["department"] == a["department"])
                and (a.get("include_withdrawn", False) or t["status"] == "active"))
    return _sorted(db["tests"], ok)


def list_racks(db, a):
    if a.get("min_free", 0) < 0:
        raise RefError("min_free must be >= 0")

    def ok(r):
        return (("storage_temp_c" not in a or r["storage_temp_c"] == a["storage_temp_c"])
                and ("status" not in a or r["status"] == a["status"])
                and r["capacity"] - r["occupied"] >= a.get("min_free", 0)
                and ("specimen_type" not in a or r["storage_temp_c"] in ALLOWED_TEMPS[a["specimen_type"]]))
    return _sorted(db["racks"], ok)


def list_test_orders(db, a):
    for f, coll in (("sample_id", "samples"), ("study_id", "studies"), ("test_code", "tests")):
        if f in a:
            _get(db, coll, a[f], f)
    return _sorted(db["test_orders"], lambda o: all(o[f] == a[f] for f in
                                                    ("sample_id", "study_id", "status", "test_code") if f in a))


def get_custody_log(db, a):
    _get(db, "samples", a["sample_id"], "sample")
    return _sorted(db["custody_events"], lambda e: e["sample_id"] == a["sample_id"])


# ------------------------------------------------------------------ writes
def register_sample(db, a):
    st = _get(db, "studies", a["study_id"], "study")
    today = _today(db)
    if st["status"] != "open":
        raise RefError("study is not open for registration")
    if st["samples_registered"] >= st["sample_quota"]:
        raise RefError("study sample quota reached")
    subj = a["subject_code"]
    if not SUBJECT_RE.match(subj) or subj[:3] != st["subject_prefix"]:
        raise RefError("subject_code must be the study prefix, a hyphen and 3 digits")
    coll = a["collected_on"]
    if coll > today or (today - coll).days > 7:
        raise RefError("collected_on must be within the last 7 days")
    if _dec(a["volume_ml"]) < CENT or _dec(a["volume_ml"]) > Decimal("50"):
        raise RefError("volume_ml must be 0.01 - 50")
    vol = _dec(a["volume_ml"]).quantize(CENT, rounding=ROUND_HALF_UP)
    for s in db["samples"].values():
        if (s["study_id"], s["subject_code"], s["specimen_type"], s["collected_on"]) == \
                (st["study_id"], subj, a["specimen_type"], coll.isoformat()):
            raise RefError(f"duplicate of {s['sample_id']}")
    sid = _next_id(db, "samples", "SMP-", 5)
    s = db["samples"][sid] = {
        "sample_id": sid, "study_id": st["study_id"], "subject_code": subj,
        "specimen_type": a["specimen_type"], "collected_on": coll.isoformat(), "received_on": today.isoformat(),
        "initial_volume_ml": float(vol), "volume_ml": float(vol), "status": "received", "rack_id": None,
        "position": None, "checked_out_to": None, "return_due": None, "quarantine_reason": None,
        "disposed_on": None, "disposal_method": None, "disposal_reason": None, "disposal_authorised_by": None}
    st["samples_registered"] += 1
    _log(db, sid, "received", a["received_by"], None, None)
    return copy.deepcopy(s)


def store_sample(db, a):
    s = _get(db, "samples", a["sample_id"], "sample")
    r = _get(db, "racks", a["rack_id"], "rack")
    if s["status"] not in ("received", "checked_out"):
        raise RefError(f"a {s['status']} sample cannot be stored")
    if r["status"] != "in_service":
        raise RefError("rack is not in service")
    if r["storage_temp_c"] not in ALLOWED_TEMPS[s["specimen_type"]]:
        raise RefError("wrong storage temperature for this specimen type")
    if r["occupied"] >= r["capacity"]:
        raise RefError("rack is full")
    taken = {x["position"] for x in db["samples"].values() if x["status"] == "stored" and x["rack_id"] == r["rack_id"]}
    if "position" in a:
        pos = a["position"]
        if pos < 1 or pos > r["capacity"]:
            raise RefError("position outside the rack")
        if pos in taken:
            raise RefError("position already occupied")
    else:
        pos = min(p for p in range(1, r["capacity"] + 1) if p not in taken)
    s.update(status="stored", rack_id=r["rack_id"], position=pos, checked_out_to=None, return_due=None)
    r["occupied"] += 1
    _log(db, s["sample_id"], "stored", a["performed_by"], r["rack_id"], pos)
    return copy.deepcopy(s)


def check_out_sample(db, a):
    s = _get(db, "samples", a["sample_id"], "sample")
    today = _today(db)
    if s["status"] != "stored":
        raise RefError("only stored samples can be checked out")
    due = a["return_due"]
    if due <= today or (due - today).days > 14:
        raise RefError("return_due must be 1-14 days after today")
    held = sum(1 for x in db["samples"].values()
               if x["status"] == "checked_out" and _same_person(x["checked_out_to"], a["checked_out_to"]))
    if held >= 5:
        raise RefError("this person already holds 5 samples")
    rid, pos = _leave_rack(db, s)
    s.update(status="checked_out", checked_out_to=a["checked_out_to"], return_due=due.isoformat())
    _log(db, s["sample_id"], "checked_out", a["checked_out_to"], rid, pos)
    return copy.deepcopy(s)


def create_test_order(db, a):
    s = _get(db, "samples", a["sample_id"], "sample")
    t = _get(db, "tests", a["test_code"], "test")
    st = db["studies"][s["study_id"]]
    prio = a.get("priority", "routine")
    if s["status"] not in ("received", "stored", "checked_out"):
        raise RefError(f"cannot order tests on a {s['status']} sample")
    if st["status"] != "open":
        raise RefError("the sample's study is not open")
    if t["status"] != "active":
        raise RefError("test is withdrawn")
    if s["specimen_type"] not in t["specimen_types"]:
        raise RefError("test not validated for this specimen type")
    if prio == "stat" and t["department"] in ("molecular", "histology"):
        raise RefError("batch-run tests cannot be ordered stat")
    for o in db["test_orders"].values():
        if o["sample_id"] == s["sample_id"] and o["test_code"] == t["test_code"] and o["status"] != "cancelled":
            raise RefError(f"already ordered as {o['order_id']}")
    frozen = s["status"] == "stored" and db["racks"][s["rack_id"]]["storage_temp_c"] <= -20
    window = t["frozen_stability_days"] if frozen else t["stability_days"]
    if (_today(db) - dt.date.fromisoformat(s["collected_on"])).days > window:
        raise RefError("sample is outside the test's stability window")
    left = _dec(s["volume_ml"]) - _dec(t["volume_ml"])
    if left < 0:
        raise RefError("not enough sample volume")
    mult = Decimal("1.5") if prio == "stat" else Decimal("1")
    fee = (_dec(t["fee"]) * mult * (Decimal(100) - _dec(st["discount_pct"])) / Decimal(100)).quantize(
        CENT, rounding=ROUND_HALF_UP)
    s["volume_ml"] = _r2(left)
    if left == 0:
        _leave_rack(db, s)
        s.update(status="depleted", checked_out_to=None, return_due=None)
    st["billed_total"] = _r2(_dec(st["billed_total"]) + fee)
    oid = _next_id(db, "test_orders", "TO-", 5)
    o = db["test_orders"][oid] = {
        "order_id": oid, "sample_id": s["sample_id"], "study_id": st["study_id"], "test_code": t["test_code"],
        "priority": prio, "status": "ordered", "ordered_on": db["meta"]["today"], "volume_ml": t["volume_ml"],
        "fee": float(fee), "result_value": None, "result_flag": None, "resulted_by": None, "resulted_on": None,
        "signed_off_by": None, "signed_off_on": None, "callback_to": None, "cancel_reason": None,
        "cancelled_on": None}
    return copy.deepcopy(o)


def enter_result(db, a):
    o = _get(db, "test_orders", a["order_id"], "order")
    if o["status"] not in ("ordered", "in_progress"):
        raise RefError(f"cannot enter a result on a {o['status']} order")
    v = a["value"]
    if v < 0:
        raise RefError("value must be >= 0")
    t = db["tests"][o["test_code"]]
    dv, lo, hi = _dec(v), _dec(t["ref_low"]), _dec(t["ref_high"])
    if dv < lo * Decimal("0.5") or dv > hi * 2:
        flag = "critical"
    elif dv < lo:
        flag = "low"
    elif dv > hi:
        flag = "high"
    else:
        flag = "normal"
    o.update(status="resulted", result_value=v, result_flag=flag, resulted_by=a["entered_by"],
             resulted_on=db["meta"]["today"])
    return copy.deepcopy(o)


def sign_off_result(db, a):
    o = _get(db, "test_orders", a["order_id"], "order")
    if o["status"] != "resulted":
        raise RefError("only resulted orders can be signed off")
    if _same_person(o["resulted_by"], a["signed_by"]):
        raise RefError("the person who entered the result cannot sign it off")
    if o["result_flag"] == "critical" and "callback_to" not in a:
        raise RefError("critical results need callback_to")
    o.update(status="signed_off", signed_off_by=a["signed_by"], signed_off_on=db["meta"]["today"],
             callback_to=a.get("callback_to"))
    return copy.deepcopy(o)


def cancel_test_order(db, a):
    o = _get(db, "test_orders", a["order_id"], "order")
    if o["status"] not in ("ordered", "in_progress"):
        raise RefError(f"a {o['status']} order cannot be cancelled")
    st = db["studies"][o["study_id"]]
    if o["status"] == "ordered":
        s = db["samples"][o["sample_id"]]
        if s["status"] != "disposed":
            s["volume_ml"] = _r2(_dec(s["volume_ml"]) + _dec(o["volume_ml"]))
            if s["status"] == "depleted":
                s["status"] = "received"
    if o["status"] == "ordered" or a["reason"] == "lab_error":
        st["billed_total"] = _r2(_dec(st["billed_total"]) - _dec(o["fee"]))
        o["fee"] = 0.0
    o.update(status="cancelled", cancel_reason=a["reason"], cancelled_on=db["meta"]["today"])
    return copy.deepcopy(o)


def dispose_sample(db, a):
    s = _get(db, "samples", a["sample_id"], "sample")
    st = db["studies"][s["study_id"]]
    if s["status"] not in ("received", "stored", "depleted", "quarantined"):
        raise RefError(f"a {s['status']} sample cannot be disposed")
    for o in db["test_orders"].values():
        if o["sample_id"] == s["sample_id"] and o["status"] in ("ordered", "in_progress", "resulted"):
            raise RefError(f"order {o['order_id']} is still open")
    reason = a["reason"]
    allowed = {"retention_expired": _today(db) > dt.date.fromisoformat(st["retention_until"]),
               "consent_withdrawn": True, "depleted": s["status"] == "depleted",
               "quality_failure": s["status"] == "quarantined", "study_closed": st["status"] == "closed"}
    if not allowed[reason]:
        raise RefError(f"reason {reason} does not apply to this sample")
    rid, pos = _leave_rack(db, s)
    s.update(status="disposed", volume_ml=0.0, disposed_on=db["meta"]["today"], disposal_method=a["method"],
             disposal_reason=reason, disposal_authorised_by=a["authorised_by"])
    _log(db, s["sample_id"], "disposed", a["authorised_by"], rid, pos)
    return copy.deepcopy(s)


TOOLS = {n: globals()[n] for n in SIGS}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError(f"unknown tool {name!r}")
    return TOOLS[name](db, _check(name, args))
