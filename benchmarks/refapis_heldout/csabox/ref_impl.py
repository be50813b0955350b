"""Reference implementation of the Greenfurrow Farm CSA box API."""
import datetime as dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {
    "create_subscription", "pause_subscription", "resume_subscription", "cancel_subscription",
    "change_pickup_site", "skip_box", "add_box_addon", "remove_box_addon", "record_pickup",
    "report_box_issue",
}

DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
PLAN_PRICE = {"small": "21.50", "standard": "29.00", "family": "41.75"}
SKIP_ALLOWANCE = {"small": 3, "standard": 4, "family": 5}
DISCOUNT = {"standard": "0", "worker_share": "0.15", "sliding_scale": "0.30"}
ISSUE_RATE = {"damaged": "0.50", "missing_items": "0.25", "wrong_box": "1.00"}
CANCEL_REASONS = {"moving", "cost", "too_much_produce", "schedule", "other"}
SUB_STATUSES = {"active", "paused", "cancelled"}
BOX_STATUSES = {"scheduled", "skipped", "held", "picked_up", "missed", "cancelled"}
CUTOFF_DAYS = 2          # box changes close 2 days before pickup
START_MIN, START_MAX = 3, 35
RECORD_LOOKBACK = 6      # pickups can be recorded for today and the 6 days before
ISSUE_WINDOW = 5         # issues within 5 days after the pickup date
MAX_LINES = 3
MAX_PAUSES = 2
EARLY_CANCEL_DAYS = 56
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _d(x):
    return Decimal(str(x))


def money(x):
    return float(_d(x).quantize(Decimal("0.01"), ROUND_HALF_UP))


def _today(db):
    return dt.date.fromisoformat(db["meta"]["today"])


def _parse_date(value, field):
    if not isinstance(value, str) or not DATE_RE.match(value):
        raise RefError("%s must be a date YYYY-MM-DD" % field)
    try:
        return dt.datetime.strptime(value, "%Y-%m-%d").date()
    except ValueError:
        raise RefError("%s is not a valid date" % field)


def _str(args, key, required=True):
    if key not in args or args[key] is None:
        if required:
            raise RefError("missing argument %s" % key)
        return None
    v = args[key]
    if not isinstance(v, str) or not v.strip():
        raise RefError("%s must be a non-empty string" % key)
    return v


def _bool(args, key):
    v = args.get(key)
    if v is None:
        return None
    if not isinstance(v, bool):
        raise RefError("%s must be a boolean" % key)
    return v


def _get(db, coll, rid, what):
    rec = db[coll].get(rid)
    if rec is None:
        raise RefError("%s %s not found" % (what, rid))
    return rec


def _next_id(coll, prefix):
    nums = [int(k[len(prefix):]) for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    width = max((len(k) - len(prefix) for k in coll), default=4)
    return "%s%0*d" % (prefix, width, max(nums, default=0) + 1)


def _release_addons(db, box):
    for line in box["addons"]:
        addon = db["addons"].get(line["addon_id"])
        if addon is not None:
            addon["stock"] += line["quantity"]
    box["addons"] = []
    box["addons_total"] = 0.0


def _retotal(box):
    at = sum((_d(l["line_total"]) for l in box["addons"]), Decimal("0"))
    box["addons_total"] = money(at)
    box["total"] = money(_d(box["box_price"]) + at)


def _changeable_box(db, args):
    box = _get(db, "boxes", _str(args, "box_id"), "box")
    if box["status"] != "scheduled":
        raise RefError("box is not scheduled")
    pickup = dt.date.fromisoformat(box["pickup_date"])
    if (pickup - _today(db)).days < CUTOFF_DAYS:
        raise RefError("changes for this box closed two days before pickup")
    sub = db["subscriptions"][box["subscription_id"]]
    if sub["status"] != "active":
        raise RefError("subscription is not active")
    return box, sub


# ---------------------------------------------------------------- reads
def get_member(db, args):
    return _get(db, "members", _str(args, "member_id"), "member")


def list_sites(db, args):
    day = _str(args, "pickup_day", required=False)
    if day is not None and day not in DAYS:
        raise RefError("pickup_day must be a weekday name")
    text = _str(args, "name_contains", required=False)
    has_space = _bool(args, "has_space")
    active = _bool(args, "active")
    out = []
    for s in db["sites"].values():
        if day is not None and s["pickup_day"] != day:
            continue
        if text is not None and text.lower() not in s["name"].lower():
            continue
        if has_space is not None and (s["enrolled_count"] < s["capacity"]) != has_space:
            continue
        if active is not None and s["active"] != active:
            continue
        out.append(s)
    return out


def list_subscriptions(db, args):
    member_id = _str(args, "member_id", required=False)
    site_id = _str(args, "site_id", required=False)
    status = _str(args, "status", required=False)
    plan = _str(args, "plan", required=False)
    if member_id is not None:
        _get(db, "members", member_id, "member")
    if site_id is not None:
        _get(db, "sites", site_id, "site")
    if status is not None and status not in SUB_STATUSES:
        raise RefError("unknown status")
    if plan is not None and plan not in PLAN_PRICE:
        raise RefError("unknown plan")
    return [s for s in db["subscriptions"].values()
            if (member_id is None or s["member_id"] == member_id)
            and (site_id is None or s["site_id"] == site_id)
            and (status is None or s["status"] == status)
            and (plan is None or s["plan"] == plan)]


def list_boxes(db, args):
    sub_id = _str(args, "subscription_id", required=False)
    member_id = _str(args, "member_id", required=False)
    status = _str(args, "status", required=False)
    if sub_id is not None:
        _get(db, "subscriptions", sub_id, "subscription")
    if member_id is not None:
        _get(db, "members", member_id, "member")
    if status is not None and status not in BOX_STATUSES:
        raise RefError("unknown box status")
    lo = _parse_date(args["from_date"], "from_date") if args.get("from_date") is not None else None
    hi = _parse_date(args["to_date"], "to_date") if args.get("to_date") is not None else None
    if lo and hi and lo > hi:
        raise RefError("from_date is after to_date")
    out = []
    for b in db["boxes"].values():
        d = dt.date.fromisoformat(b["pickup_date"])
        if sub_id is not None and b["subscription_id"] != sub_id:
            continue
        if member_id is not None and b["member_id"] != member_id:
            continue
        if status is not None and b["status"] != status:
            continue
        if (lo and d < lo) or (hi and d > hi):
            continue
        out.append(b)
    return out


# ---------------------------------------------------------------- subscriptions
def create_subscription(db, args):
    member = _get(db, "members", _str(args, "member_id"), "member")
    site = _get(db, "sites", _str(args, "site_id"), "site")
    plan = _str(args, "plan")
    if plan not in PLAN_PRICE:
        raise RefError("unknown plan")
    start = _parse_date(args.get("start_date"), "start_date")
    today = _today(db)
    if member["status"] != "active":
        raise RefError("member account is not active")
    for s in db["subscriptions"].values():
        if s["member_id"] == member["id"] and s["status"] in ("active", "paused"):
            raise RefError("member already has a subscription")
    if not site["active"]:
        raise RefError("site is not taking subscriptions")
    if plan == "family" and not site["has_cooler"]:
        raise RefError("family boxes need a site with a cooler")
    if site["enrolled_count"] >= site["capacity"]:
        raise RefError("site is full")
    if not (START_MIN <= (start - today).days <= START_MAX):
        raise RefError("start_date outside the allowed window")
    if DAYS[start.weekday()] != site["pickup_day"]:
        raise RefError("start_date is not the site's pickup day")
    price = money(_d(PLAN_PRICE[plan]) * (1 - _d(DISCOUNT[member["member_type"]])))
    sid = _next_id(db["subscriptions"], "S")
    sub = {"id": sid, "member_id": member["id"], "site_id": site["id"], "plan": plan,
           "status": "active", "start_date": start.isoformat(), "weekly_price": price,
           "skips_used": 0, "pause_count": 0, "boxes_collected": 0, "cancelled_on": None,
           "cancel_reason": None, "cancellation_fee": 0.0}
    db["subscriptions"][sid] = sub
    site["enrolled_count"] += 1
    boxes = []
    for week in range(4):
        bid = _next_id(db["boxes"], "B")
        box = {"id": bid, "subscription_id": sid, "member_id": member["id"],
               "pickup_date": (start + dt.timedelta(days=7 * week)).isoformat(),
               "status": "scheduled", "box_price": price, "addons": [], "addons_total": 0.0,
               "total": price, "credit_applied": None, "amount_charged": None,
               "issue_type": None, "issue_credit": None, "issue_note": None}
        db["boxes"][bid] = box
        boxes.append(box)
    return {"subscription": sub, "boxes": boxes}


def pause_subscription(db, args):
    sub = _get(db, "subscriptions", _str(args, "subscription_id"), "subscription")
    today = _today(db)
    if sub["status"] != "active":
        raise RefError("only active subscriptions can be paused")
    if dt.date.fromisoformat(sub["start_date"]) > today:
        raise RefError("subscription has not started yet")
    if sub["pause_count"] >= MAX_PAUSES:
        raise RefError("pause limit reached")
    sub["status"] = "paused"
    sub["pause_count"] += 1
    for b in db["boxes"].values():
        if (b["subscription_id"] == sub["id"] and b["status"] == "scheduled"
                and (dt.date.fromisoformat(b["pickup_date"]) - today).days >= CUTOFF_DAYS):
            _release_addons(db, b)
            b["status"] = "held"
            b["total"] = 0.0
    return sub


def resume_subscription(db, args):
    sub = _get(db, "subscriptions", _str(args, "subscription_id"), "subscription")
    today = _today(db)
    if sub["status"] != "paused":
        raise RefError("subscription is not paused")
    if db["members"][sub["member_id"]]["status"] != "active":
        raise RefError("member account is not in good standing")
    sub["status"] = "active"
    for b in db["boxes"].values():
        if (b["subscription_id"] == sub["id"] and b["status"] == "held"
                and (dt.date.fromisoformat(b["pickup_date"]) - today).days >= CUTOFF_DAYS):
            b["status"] = "scheduled"
            _retotal(b)
    return sub


def cancel_subscription(db, args):
    sub = _get(db, "subscriptions", _str(args, "subscription_id"), "subscription")
    reason = _str(args, "reason")
    if reason not in CANCEL_REASONS:
        raise RefError("unknown reason")
    if sub["status"] == "cancelled":
        raise RefError("already cancelled")
    today = _today(db)
    start = dt.date.fromisoformat(sub["start_date"])
    fee = 0.0
    if start <= today and (today - start).days < EARLY_CANCEL_DAYS:
        fee = money(_d(sub["weekly_price"]) * Decimal("0.5"))
    sub["status"] = "cancelled"
    sub["cancelled_on"] = today.isoformat()
    sub["cancel_reason"] = reason
    sub["cancellation_fee"] = fee
    db["sites"][sub["site_id"]]["enrolled_count"] -= 1
    for b in db["boxes"].values():
        if (b["subscription_id"] == sub["id"] and b["status"] in ("scheduled", "held")
                and b["pickup_date"] > today.isoformat()):
            _release_addons(db, b)
            b["status"] = "cancelled"
            b["total"] = 0.0
    return sub


def change_pickup_site(db, args):
    sub = _get(db, "subscriptions", _str(args, "subscription_id"), "subscription")
    site = _get(db, "sites", _str(args, "site_id"), "site")
    if sub["status"] not in ("active", "paused"):
        raise RefError("subscription is cancelled")
    if site["id"] == sub["site_id"]:
        raise RefError("already at this site")
    old = db["sites"][sub["site_id"]]
    if not site["active"]:
        raise RefError("site is not taking subscriptions")
    if site["pickup_day"] != old["pickup_day"]:
        raise RefError("new site must share the pickup day")
    if sub["plan"] == "family" and not site["has_cooler"]:
        raise RefError("family boxes need a site with a cooler")
    if site["enrolled_count"] >= site["capacity"]:
        raise RefError("site is full")
    old["enrolled_count"] -= 1
    site["enrolled_count"] += 1
    sub["site_id"] = site["id"]
    return sub


# ---------------------------------------------------------------- boxes
def skip_box(db, args):
    box, sub = _changeable_box(db, args)
    if sub["skips_used"] >= SKIP_ALLOWANCE[sub["plan"]]:
        raise RefError("no skips left this season")
    _release_addons(db, box)
    box["status"] = "skipped"
    box["total"] = 0.0
    sub["skips_used"] += 1
    return box


def add_box_addon(db, args):
    box, sub = _changeable_box(db, args)
    addon = _get(db, "addons", _str(args, "addon_id"), "add-on")
    qty = args.get("quantity")
    if isinstance(qty, bool) or not isinstance(qty, int) or not 1 <= qty <= 5:
        raise RefError("quantity must be an integer from 1 to 5")
    if db["members"][box["member_id"]]["status"] != "active":
        raise RefError("member account is not in good standing")
    if not addon["active"]:
        raise RefError("add-on is not offered")
    if any(l["addon_id"] == addon["id"] for l in box["addons"]):
        raise RefError("add-on already on this box")
    if len(box["addons"]) >= MAX_LINES:
        raise RefError("box already has three add-ons")
    if addon["stock"] < qty:
        raise RefError("not enough stock")
    addon["stock"] -= qty
    box["addons"].append({"addon_id": addon["id"], "quantity": qty,
                          "unit_price": addon["unit_price"],
                          "line_total": money(_d(addon["unit_price"]) * qty)})
    _retotal(box)
    return box


def remove_box_addon(db, args):
    box, _sub = _changeable_box(db, args)
    addon_id = _str(args, "addon_id")
    line = next((l for l in box["addons"] if l["addon_id"] == addon_id), None)
    if line is None:
        raise RefError("add-on is not on this box")
    box["addons"].remove(line)
    if addon_id in db["addons"]:
        db["addons"][addon_id]["stock"] += line["quantity"]
    _retotal(box)
    return box


def record_pickup(db, args):
    box = _get(db, "boxes", _str(args, "box_id"), "box")
    outcome = _str(args, "outcome", required=False) or "picked_up"
    if outcome not in ("picked_up", "missed"):
        raise RefError("outcome must be picked_up or missed")
    if box["status"] != "scheduled":
        raise RefError("box is not scheduled")
    age = (_today(db) - dt.date.fromisoformat(box["pickup_date"])).days
    if age < 0:
        raise RefError("pickup date is in the future")
    if age > RECORD_LOOKBACK:
        raise RefError("pickup is too old to record")
    member = db["members"][box["member_id"]]
    credit = min(_d(member["credit_balance"]), _d(box["total"]))
    member["credit_balance"] = money(_d(member["credit_balance"]) - credit)
    box["credit_applied"] = money(credit)
    box["amount_charged"] = money(_d(box["total"]) - credit)
    box["status"] = outcome
    if outcome == "picked_up":
        db["subscriptions"][box["subscription_id"]]["boxes_collected"] += 1
    return box


def report_box_issue(db, args):
    box = _get(db, "boxes", _str(args, "box_id"), "box")
    kind = _str(args, "issue_type")
    note = args.get("note")
    if note is not None and not isinstance(note, str):
        raise RefError("note must be a string")
    if kind not in ISSUE_RATE:
        raise RefError("unknown issue_type")
    if box["status"] != "picked_up":
        raise RefError("only collected boxes can have issues")
    if box["issue_type"] is not None:
        raise RefError("an issue was already reported for this box")
    if (_today(db) - dt.date.fromisoformat(box["pickup_date"])).days > ISSUE_WINDOW:
        raise RefError("reporting window has closed")
    credit = money(_d(box["box_price"]) * _d(ISSUE_RATE[kind]))
    box["issue_type"] = kind
    box["issue_credit"] = credit
    box["issue_note"] = note
    member = db["members"][box["member_id"]]
    member["credit_balance"] = money(_d(member["credit_balance"]) + _d(credit))
    return box


TOOLS = {f.__name__: f for f in [
    get_member, list_sites, list_subscriptions, list_boxes, create_subscription,
    pause_subscription, resume_subscription, cancel_subscription, change_pickup_site, skip_box,
    add_box_addon, remove_box_addon, record_pickup, report_box_issue]}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool %s" % name)
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return TOOLS[name](db, args)
