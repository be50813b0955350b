"""Reference implementation: Port Calder bulky-item & recycling collection API (stdlib only)."""
import copy
import datetime as dt
import math
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"create_pickup_request", "schedule_request", "complete_pickup", "report_missed_pickup",
               "cancel_request", "reschedule_request", "file_complaint", "resolve_complaint",
               "record_payment"}

REQ_STATUSES = ["requested", "scheduled", "rescheduled", "collected", "missed", "cancelled"]
OPEN = {"requested", "scheduled", "rescheduled"}
HH_STATUSES = ["active", "closed"]
MISS_REASONS = ["not_set_out", "access_blocked", "truck_full", "vehicle_breakdown", "crew_error",
                "severe_weather"]
RESIDENT_FAULT = {"not_set_out", "access_blocked"}
CANCEL_REASONS = ["resident_request", "items_gone", "duplicate", "moved_out", "other"]
COMPLAINT_CATS = ["missed_pickup", "items_left_behind", "property_damage", "crew_conduct"]
COMPLAINT_STATUSES = ["open", "resolved"]
OUTCOMES = ["credit", "no_credit", "rejected"]
LATER_FIELDS = ["scheduled_on", "collected_on", "weight_kg", "surcharge", "missed_on", "miss_reason",
                "cancelled_on", "cancel_reason", "refund", "previous_date", "rescheduled_on",
                "reschedule_reason"]
CENT = Decimal("0.01")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

SIGNATURES = {
    "search_households": (set(), {"q", "zone_id", "status", "has_balance"}),
    "get_household": ({"household_id"}, set()),
    "list_collection_days": (set(), {"zone_id", "date_from", "date_to", "available_only"}),
    "list_requests": (set(), {"household_id", "zone_id", "status", "crew_id", "date_from", "date_to"}),
    "list_complaints": (set(), {"household_id", "request_id", "status", "category"}),
    "create_pickup_request": ({"household_id", "collection_date", "items"}, {"notes"}),
    "schedule_request": ({"request_id", "crew_id"}, set()),
    "complete_pickup": ({"request_id", "weight_kg"}, set()),
    "report_missed_pickup": ({"request_id", "reason"}, set()),
    "cancel_request": ({"request_id", "reason"}, set()),
    "reschedule_request": ({"request_id", "new_date", "reason"}, set()),
    "file_complaint": ({"request_id", "category", "description"}, set()),
    "resolve_complaint": ({"complaint_id", "outcome"}, {"note"}),
    "record_payment": ({"household_id", "amount"}, set()),
}


# ------------------------------------------------------------------ argument helpers
def _s(args, k, maxlen=None, allowed=None):
    v = args.get(k)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip() or (allowed is not None and v not in allowed):
        raise RefError(f"{k} must be a non-empty string" + (f" in {allowed}" if allowed else ""))
    if maxlen is not None and len(v) > maxlen:
        raise RefError(f"{k} is too long")
    return v


def _enum(args, k, allowed):
    return _s(args, k, allowed=allowed)


def _bool(args, k):
    v = args.get(k)
    if v is not None and not isinstance(v, bool):
        raise RefError(f"{k} must be a boolean")
    return v


def _date(args, k):
    v = args.get(k)
    if v is None:
        return None
    if not isinstance(v, str) or not DATE_RE.match(v):
        raise RefError(f"{k} must be YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{k} is not a calendar date")


def _num(v, k):
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise RefError(f"{k} must be a number")
    return Decimal(str(v))


def _get(coll, key, what):
    if key not in coll:
        raise RefError(f"unknown {what}: {key}")
    return coll[key]


def _filter_ids(db, a, pairs):
    """Optional id filters must name existing records."""
    out = []
    for key, coll in pairs:
        v = _s(a, key)
        if v is not None:
            _get(db[coll], v, key)
        out.append(v)
    return out


def _today(db):
    return dt.date.fromisoformat(db["meta"]["today"])


def _money(x):
    return float(Decimal(str(x)).quantize(CENT, ROUND_HALF_UP))


def _next_id(coll, prefix):
    nums = [k[len(prefix):] for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    width = max(len(n) for n in nums)
    return f"{prefix}{max(int(n) for n in nums) + 1:0{width}d}"


def _log(db, household_id, request_id, action):
    eid = _next_id(db["activity_log"], "EV-")
    db["activity_log"][eid] = {"event_id": eid, "date": db["meta"]["today"], "household_id": household_id,
                               "request_id": request_id, "action": action}


def _charge(db, household_id, request_id, typ, amount):
    h = db["households"][household_id]
    cid = _next_id(db["charges"], "CHG-")
    db["charges"][cid] = {"charge_id": cid, "household_id": household_id, "request_id": request_id,
                          "type": typ, "amount": _money(amount), "date": db["meta"]["today"]}
    h["balance"] = _money(Decimal(str(h["balance"])) + Decimal(str(amount)))


def _day_record(db, zone_id, date):
    for d in db["collection_days"].values():
        if d["zone_id"] == zone_id and d["date"] == date:
            return d
    return None


def _bookable_day(db, zone_id, date, slots):
    """Checks the booking window and the zone's calendar; returns the collection day record."""
    today = _today(db)
    m = db["meta"]
    if (date - today).days < m["min_notice_days"]:
        raise RefError("collection date is too soon")
    if (date - today).days > m["max_horizon_days"]:
        raise RefError("collection date is too far ahead")
    if db["zones"][zone_id]["status"] != "active":
        raise RefError("zone is suspended")
    day = _day_record(db, zone_id, date.isoformat())
    if day is None:
        raise RefError("not a collection day of the zone")
    if day["status"] != "open":
        raise RefError("collection day is closed")
    if day["booked"] + slots > day["capacity"]:
        raise RefError("collection day is full")
    return day


def _rebooking_fee(db, h):
    fee = Decimal(str(db["meta"]["rebooking_fee"]))
    if h["concession"]:
        fee = fee * Decimal(db["meta"]["concession_discount_pct"]) / 100
    return fee.quantize(CENT, ROUND_HALF_UP)


def _open_request(db, household_id, exclude=None):
    return any(r["household_id"] == household_id and r["status"] in OPEN and r["request_id"] != exclude
               for r in db["pickup_requests"].values())


# ------------------------------------------------------------------ reads
def search_households(db, a):
    q = _s(a, "q")
    if q is not None and len(q.strip()) < 2:
        raise RefError("q needs at least 2 characters")
    zone, = _filter_ids(db, a, [("zone_id", "zones")])
    status = _enum(a, "status", HH_STATUSES)
    has_bal = _bool(a, "has_balance")
    out = []
    for hid in sorted(db["households"]):
        h = db["households"][hid]
        if q is not None:
            needle = q.strip().lower()
            if needle not in h["account_holder"].lower() and needle not in h["street_address"].lower():
                continue
        if zone is not None and h["zone_id"] != zone:
            continue
        if status is not None and h["status"] != status:
            continue
        if has_bal is not None and (h["balance"] > 0) != has_bal:
            continue
        out.append(copy.deepcopy(h))
    return out


def get_household(db, a):
    return copy.deepcopy(_get(db["households"], _s(a, "household_id"), "household"))


def _date_range(a):
    lo, hi = _date(a, "date_from"), _date(a, "date_to")
    if lo and hi and lo > hi:
        raise RefError("date_from is after date_to")
    return (lo.isoformat() if lo else None), (hi.isoformat() if hi else None)


def list_collection_days(db, a):
    zone, = _filter_ids(db, a, [("zone_id", "zones")])
    lo, hi = _date_range(a)
    avail = _bool(a, "available_only")
    out = []
    for d in db["collection_days"].values():
        if zone is not None and d["zone_id"] != zone:
            continue
        if (lo and d["date"] < lo) or (hi and d["date"] > hi):
            continue
        if avail and (d["status"] != "open" or d["booked"] >= d["capacity"]):
            continue
        out.append(copy.deepcopy(d))
    return sorted(out, key=lambda d: (d["date"], d["zone_id"]))


def list_requests(db, a):
    hid, zone, crew = _filter_ids(db, a, [("household_id", "households"), ("zone_id", "zones"),
                                          ("crew_id", "crews")])
    status = _enum(a, "status", REQ_STATUSES)
    lo, hi = _date_range(a)
    out = []
    for rid in sorted(db["pickup_requests"]):
        r = db["pickup_requests"][rid]
        if (hid and r["household_id"] != hid) or (zone and r["zone_id"] != zone) \
                or (crew and r["crew_id"] != crew) or (status and r["status"] != status) \
                or (lo and r["collection_date"] < lo) or (hi and r["collection_date"] > hi):
            continue
        out.append(copy.deepcopy(r))
    return out


def list_complaints(db, a):
    hid, rid = _filter_ids(db, a, [("household_id", "households"), ("request_id", "pickup_requests")])
    status = _enum(a, "status", COMPLAINT_STATUSES)
    cat = _enum(a, "category", COMPLAINT_CATS)
    return [copy.deepcopy(c) for _, c in sorted(db["complaints"].items())
            if (not hid or c["household_id"] == hid) and (not rid or c["request_id"] == rid)
            and (not status or c["status"] == status) and (not cat or c["category"] == cat)]


# ------------------------------------------------------------------ writes
def create_pickup_request(db, a):
    h = _get(db["households"], _s(a, "household_id"), "household")
    date = _date(a, "collection_date")
    notes = _s(a, "notes", 200)
    items = a["items"]
    if not isinstance(items, list) or not 1 <= len(items) <= 5:
        raise RefError("items must be a list of 1 to 5 lines")
    lines, seen, total = [], set(), 0
    for it in items:
        if not isinstance(it, dict) or set(it) != {"category", "count"}:
            raise RefError("each item line needs exactly category and count")
        code, cnt = it["category"], it["count"]
        if not isinstance(code, str) or code not in db["item_categories"]:
            raise RefError("unknown item category")
        cat = db["item_categories"][code]
        if not cat["active"]:
            raise RefError("category is no longer collected")
        if code in seen:
            raise RefError("duplicate category")
        if isinstance(cnt, bool) or not isinstance(cnt, int) or not 1 <= cnt <= cat["max_per_request"]:
            raise RefError("bad count")
        seen.add(code)
        total += cnt
        lines.append({"category": code, "count": cnt})
    if total > 10:
        raise RefError("at most 10 items per request")
    if h["status"] != "active":
        raise RefError("household account is closed")
    if h["balance"] > db["meta"]["max_outstanding_balance"]:
        raise RefError("outstanding balance too high")
    if _open_request(db, h["household_id"]):
        raise RefError("household already has an open request")
    slots = 1 if total <= 4 else 2
    day = _bookable_day(db, h["zone_id"], date, slots)
    # ---- apply
    free = h["free_pickups_used"] < h["free_pickups_allowed"]
    fee = Decimal("0") if free else Decimal(str(db["meta"]["booking_fee"]))
    for ln in lines:
        cat = db["item_categories"][ln["category"]]
        if not (free and cat["free_eligible"]):
            fee += Decimal(str(cat["unit_fee"])) * ln["count"]
    if h["concession"]:
        fee = fee * Decimal(db["meta"]["concession_discount_pct"]) / 100
    fee = fee.quantize(CENT, ROUND_HALF_UP)
    rid = _next_id(db["pickup_requests"], "PR-")
    r = {"request_id": rid, "household_id": h["household_id"], "zone_id": h["zone_id"],
         "collection_date": date.isoformat(), "items": lines, "item_count": total, "slots": slots,
         "free_pickup": free, "fee": float(fee), "status": "requested", "crew_id": None, "notes": notes,
         "created_on": db["meta"]["today"], **dict.fromkeys(LATER_FIELDS), "reschedule_count": 0}
    db["pickup_requests"][rid] = r
    day["booked"] += slots
    if free:
        h["free_pickups_used"] += 1
    if fee > 0:
        _charge(db, h["household_id"], rid, "pickup_fee", fee)
    _log(db, h["household_id"], rid, "created")
    return copy.deepcopy(r)


def _request(db, a):
    return _get(db["pickup_requests"], _s(a, "request_id"), "request")


def schedule_request(db, a):
    r = _request(db, a)
    crew = _get(db["crews"], _s(a, "crew_id"), "crew")
    if r["status"] not in ("requested", "rescheduled"):
        raise RefError("only requested or rescheduled requests can be scheduled")
    if r["collection_date"] < db["meta"]["today"]:
        raise RefError("collection date has passed")
    if crew["status"] != "active":
        raise RefError("crew is off duty")
    if r["zone_id"] not in crew["zone_ids"]:
        raise RefError("crew does not serve this zone")
    stops = sum(1 for x in db["pickup_requests"].values() if x["crew_id"] == crew["crew_id"]
                and x["collection_date"] == r["collection_date"]
                and x["status"] in ("scheduled", "collected", "missed"))
    if stops >= crew["max_stops_per_day"]:
        raise RefError("crew is fully booked that day")
    r.update(status="scheduled", crew_id=crew["crew_id"], scheduled_on=db["meta"]["today"])
    _log(db, r["household_id"], r["request_id"], "scheduled")
    return copy.deepcopy(r)


def _due(db, r):
    if r["status"] != "scheduled":
        raise RefError("only scheduled requests can be closed out")
    if r["collection_date"] > db["meta"]["today"]:
        raise RefError("collection date has not arrived")


def complete_pickup(db, a):
    r = _request(db, a)
    w = _num(a["weight_kg"], "weight_kg")
    if w <= 0 or w > 1500 or w != w.quantize(Decimal("0.1")):
        raise RefError("weight_kg must be above 0, at most 1500, one decimal")
    _due(db, r)
    h = db["households"][r["household_id"]]
    m = db["meta"]
    excess = w - Decimal(m["weight_allowance_kg_per_item"]) * r["item_count"]
    s = Decimal("0")
    if excess > 0:
        s = excess * Decimal(str(m["overweight_rate_per_kg"]))
        if h["concession"]:
            s = s * Decimal(m["concession_discount_pct"]) / 100
    s = s.quantize(CENT, ROUND_HALF_UP)
    r.update(status="collected", collected_on=m["today"], weight_kg=a["weight_kg"], surcharge=float(s))
    if s > 0:
        _charge(db, h["household_id"], r["request_id"], "overweight_surcharge", s)
    _log(db, h["household_id"], r["request_id"], "collected")
    return copy.deepcopy(r)


def report_missed_pickup(db, a):
    r = _request(db, a)
    reason = _enum(a, "reason", MISS_REASONS)
    _due(db, r)
    r.update(status="missed", missed_on=db["meta"]["today"], miss_reason=reason)
    _log(db, r["household_id"], r["request_id"], "missed")
    return copy.deepcopy(r)


def cancel_request(db, a):
    r = _request(db, a)
    reason = _enum(a, "reason", CANCEL_REASONS)
    if r["status"] not in OPEN:
        raise RefError("request is not open")
    today = _today(db)
    cdate = dt.date.fromisoformat(r["collection_date"])
    if cdate < today:
        raise RefError("collection date has passed")
    h = db["households"][r["household_id"]]
    day = _day_record(db, r["zone_id"], r["collection_date"])
    day["booked"] -= r["slots"]
    refund = 0.0
    if (cdate - today).days >= db["meta"]["refund_cutoff_days"]:
        refund = r["fee"]
        if r["fee"] > 0:
            _charge(db, h["household_id"], r["request_id"], "refund", -Decimal(str(r["fee"])))
        if r["free_pickup"]:
            h["free_pickups_used"] -= 1
    r.update(status="cancelled", cancelled_on=today.isoformat(), cancel_reason=reason, refund=refund,
             crew_id=None)
    _log(db, h["household_id"], r["request_id"], "cancelled")
    return copy.deepcopy(r)


def reschedule_request(db, a):
    r = _request(db, a)
    new = _date(a, "new_date")
    reason = _s(a, "reason", 200)
    today = _today(db)
    old = dt.date.fromisoformat(r["collection_date"])
    was_open = r["status"] in OPEN
    if not was_open and r["status"] != "missed":
        raise RefError("request cannot be rescheduled in its status")
    if was_open and old < today:
        raise RefError("collection date has passed")
    if r["reschedule_count"] >= db["meta"]["max_reschedules"]:
        raise RefError("reschedule limit reached")
    if new == old:
        raise RefError("new_date equals the current date")
    if not was_open and _open_request(db, r["household_id"], exclude=r["request_id"]):
        raise RefError("household already has an open request")
    day = _bookable_day(db, r["zone_id"], new, r["slots"])
    h = db["households"][r["household_id"]]
    late = was_open and (old - today).days < db["meta"]["refund_cutoff_days"]
    resident_miss = not was_open and r["miss_reason"] in RESIDENT_FAULT
    if was_open:
        _day_record(db, r["zone_id"], r["collection_date"])["booked"] -= r["slots"]
    day["booked"] += r["slots"]
    r.update(status="rescheduled", previous_date=r["collection_date"], collection_date=new.isoformat(),
             crew_id=None, scheduled_on=None, reschedule_count=r["reschedule_count"] + 1,
             rescheduled_on=today.isoformat(), reschedule_reason=reason)
    if late or resident_miss:
        _charge(db, h["household_id"], r["request_id"], "rebooking_fee", _rebooking_fee(db, h))
    _log(db, h["household_id"], r["request_id"], "rescheduled")
    return copy.deepcopy(r)


def file_complaint(db, a):
    r = _request(db, a)
    cat = _enum(a, "category", COMPLAINT_CATS)
    text = _s(a, "description", 500)
    allowed = {"missed_pickup": {"missed"}, "items_left_behind": {"collected"},
               "property_damage": {"collected"}, "crew_conduct": {"collected", "missed"}}[cat]
    if r["status"] not in allowed:
        raise RefError("complaint category does not fit the request status")
    since = r["missed_on"] if r["status"] == "missed" else r["collected_on"]
    if (_today(db) - dt.date.fromisoformat(since)).days > db["meta"]["complaint_window_days"]:
        raise RefError("complaint window has closed")
    if any(c["request_id"] == r["request_id"] and c["status"] == "open" for c in db["complaints"].values()):
        raise RefError("request already has an open complaint")
    cid = _next_id(db["complaints"], "CMP-")
    c = {"complaint_id": cid, "household_id": r["household_id"], "request_id": r["request_id"],
         "category": cat, "description": text, "status": "open", "filed_on": db["meta"]["today"],
         "resolved_on": None, "outcome": None, "credit_amount": None, "resolution_note": None}
    db["complaints"][cid] = c
    _log(db, r["household_id"], r["request_id"], "complaint_filed")
    return copy.deepcopy(c)


def resolve_complaint(db, a):
    c = _get(db["complaints"], _s(a, "complaint_id"), "complaint")
    outcome = _enum(a, "outcome", OUTCOMES)
    note = _s(a, "note", 500)
    if c["status"] != "open":
        raise RefError("complaint is already resolved")
    if outcome == "rejected" and note is None:
        raise RefError("a note is required to reject")
    r = db["pickup_requests"][c["request_id"]]
    if outcome == "credit" and c["category"] == "missed_pickup" and r["miss_reason"] in RESIDENT_FAULT:
        raise RefError("no credit for a pickup missed through the resident's fault")
    credit = None
    if outcome == "credit":
        credit = max(Decimal(str(r["fee"])), Decimal(str(db["meta"]["goodwill_credit_minimum"])))
        _charge(db, c["household_id"], r["request_id"], "complaint_credit", -credit)
        credit = _money(credit)
    c.update(status="resolved", resolved_on=db["meta"]["today"], outcome=outcome, credit_amount=credit,
             resolution_note=note)
    _log(db, c["household_id"], c["request_id"], "complaint_resolved")
    return copy.deepcopy(c)


def record_payment(db, a):
    h = _get(db["households"], _s(a, "household_id"), "household")
    amt = _num(a["amount"], "amount")
    if amt <= 0 or amt > Decimal(str(h["balance"])):
        raise RefError("amount must be positive and at most the balance")
    if amt != amt.quantize(CENT):
        raise RefError("amount has more than 2 decimals")
    _charge(db, h["household_id"], None, "payment", -amt)
    _log(db, h["household_id"], None, "payment")
    return copy.deepcopy(h)


# ------------------------------------------------------------------ dispatch
def invoke(db, name, args):
    if name not in SIGNATURES:
        raise RefError(f"unknown tool: {name}")
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    args = {k: v for k, v in args.items() if v is not None}
    req, opt = SIGNATURES[name]
    if set(args) - req - opt:
        raise RefError(f"unknown arguments: {sorted(set(args) - req - opt)}")
    if req - set(args):
        raise RefError(f"missing arguments: {sorted(req - set(args))}")
    return globals()[name](db, args)
