"""Reference implementation of the coworking-space API (stdlib only)."""
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass

WRITE_TOOLS = {"create_booking", "cancel_booking", "check_in_booking", "mark_no_show",
               "top_up_credits", "issue_guest_pass", "revoke_guest_pass", "change_plan",
               "reinstate_member"}

SPACE_KINDS = {"desk", "phone_booth", "meeting_room"}
SPACE_STATUSES = {"open", "maintenance"}
MEMBER_STATUSES = {"active", "suspended", "cancelled"}
BOOKING_STATUSES = {"confirmed", "checked_in", "completed", "cancelled", "no_show"}
TOPUP_METHODS = {"card", "bank_transfer", "invoice"}
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
REINSTATEMENT_FEE = Decimal("25.00")
DAILY_TOPUP_LIMIT = Decimal("600.00")
GUEST_PASS_WINDOW_DAYS = 14
NO_SHOW_LIMIT = 3

# ---------------------------------------------------------------- helpers
def D(x):
    return Decimal(str(x))

def q2(x):
    return float(D(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))

def today(db):
    return date.fromisoformat(db["meta"]["today"])

def now_hour(db):
    return db["meta"]["now_hour"]

def check_args(args, required, optional=()):
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    for k in args:
        if k not in required and k not in optional:
            raise RefError("unknown argument: %s" % k)
    for k in required:
        if k not in args or args[k] is None:
            raise RefError("missing argument: %s" % k)

def s_arg(args, k, required=True):
    v = args.get(k)
    if v is None and not required:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError("%s must be a non-empty string" % k)
    return v

def i_arg(args, k, required=True):
    v = args.get(k)
    if v is None and not required:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        raise RefError("%s must be an integer" % k)
    return v

def d_arg(args, k, required=True):
    v = args.get(k)
    if v is None and not required:
        return None
    if not isinstance(v, str) or not DATE_RE.match(v):
        raise RefError("%s must be a date YYYY-MM-DD" % k)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % k)

def enum_arg(args, k, allowed):
    v = args.get(k)
    if v is not None and (not isinstance(v, str) or v not in allowed):
        raise RefError("bad %s" % k)
    return v

def get(db, coll, key, what):
    if not isinstance(key, str) or key not in db[coll]:
        raise RefError("%s not found" % what)
    return db[coll][key]

def next_id(db, coll, prefix, width):
    n = 0
    for k in db[coll]:
        if k.startswith(prefix) and k[len(prefix):].isdigit():
            n = max(n, int(k[len(prefix):]))
    return "%s%0*d" % (prefix, width, n + 1)

def live(b):
    return b["status"] != "cancelled"

def month_hours(db, member_id, ym):
    return sum(b["hours"] for b in db["bookings"].values()
               if b["member_id"] == member_id and live(b) and b["date"][:7] == ym)

def hours_until_start(db, b):
    return (date.fromisoformat(b["date"]) - today(db)).days * 24 + b["start_hour"] - now_hour(db)

def sorted_list(d):
    return [d[k] for k in sorted(d)]

# ---------------------------------------------------------------- reads
def list_spaces(db, a):
    check_args(a, (), ("kind", "floor", "min_capacity", "status"))
    kind = enum_arg(a, "kind", SPACE_KINDS)
    status = enum_arg(a, "status", SPACE_STATUSES)
    floor = i_arg(a, "floor", False)
    mincap = i_arg(a, "min_capacity", False)
    if mincap is not None and mincap < 1:
        raise RefError("min_capacity must be >= 1")
    out = []
    for s in sorted_list(db["spaces"]):
        if kind and s["kind"] != kind or status and s["status"] != status:
            continue
        if floor is not None and s["floor"] != floor:
            continue
        if mincap is not None and s["capacity"] < mincap:
            continue
        out.append(s)
    return out

def get_space_availability(db, a):
    check_args(a, ("space_id", "date"))
    s = get(db, "spaces", a["space_id"], "space")
    d = d_arg(a, "date").isoformat()
    free = []
    if s["status"] == "open":
        taken = set()
        for b in db["bookings"].values():
            if b["space_id"] == s["id"] and b["date"] == d and live(b):
                taken.update(range(b["start_hour"], b["start_hour"] + b["hours"]))
        free = [h for h in range(s["open_hour"], s["close_hour"]) if h not in taken]
    return {"space_id": s["id"], "date": d, "open_hour": s["open_hour"],
            "close_hour": s["close_hour"], "free_hours": free}

def search_members(db, a):
    check_args(a, (), ("query", "plan_id", "status"))
    query = a.get("query")
    if query is not None and not isinstance(query, str):
        raise RefError("query must be a string")
    plan_id = s_arg(a, "plan_id", False)
    if plan_id is not None:
        get(db, "plans", plan_id, "plan")
    status = enum_arg(a, "status", MEMBER_STATUSES)
    out = []
    for m in sorted_list(db["members"]):
        if query and query.lower() not in m["name"].lower() and query.lower() not in m["email"].lower():
            continue
        if plan_id and m["plan_id"] != plan_id or status and m["status"] != status:
            continue
        out.append(m)
    return out

def get_member(db, a):
    check_args(a, ("member_id",))
    return get(db, "members", a["member_id"], "member")

def list_bookings(db, a):
    check_args(a, (), ("member_id", "space_id", "status", "date_from", "date_to"))
    mid = s_arg(a, "member_id", False)
    if mid is not None:
        get(db, "members", mid, "member")
    sid = s_arg(a, "space_id", False)
    if sid is not None:
        get(db, "spaces", sid, "space")
    status = enum_arg(a, "status", BOOKING_STATUSES)
    df = d_arg(a, "date_from", False)
    dt = d_arg(a, "date_to", False)
    if df and dt and df > dt:
        raise RefError("date_from after date_to")
    out = []
    for b in sorted_list(db["bookings"]):
        if mid and b["member_id"] != mid or sid and b["space_id"] != sid:
            continue
        if status and b["status"] != status:
            continue
        if df and b["date"] < df.isoformat() or dt and b["date"] > dt.isoformat():
            continue
        out.append(b)
    return out

# ---------------------------------------------------------------- writes
def create_booking(db, a):
    check_args(a, ("member_id", "space_id", "date", "start_hour", "hours"), ("attendees",))
    m = get(db, "members", a["member_id"], "member")
    s = get(db, "spaces", a["space_id"], "space")
    d = d_arg(a, "date")
    st = i_arg(a, "start_hour")
    h = i_arg(a, "hours")
    att = i_arg(a, "attendees", False)
    att = 1 if att is None else att
    if m["status"] != "active":
        raise RefError("member is not active")
    plan = db["plans"][m["plan_id"]]
    if s["status"] != "open":
        raise RefError("space is under maintenance")
    if s["kind"] not in plan["allowed_kinds"]:
        raise RefError("plan does not allow this kind of space")
    t = today(db)
    if d < t or d > t + timedelta(days=plan["advance_days"]):
        raise RefError("date outside the booking window")
    if not 1 <= h <= 8:
        raise RefError("hours must be 1-8")
    if st < s["open_hour"] or st + h > s["close_hour"]:
        raise RefError("outside opening hours")
    if d == t and st <= now_hour(db):
        raise RefError("start hour already passed")
    if att < 1 or att > s["capacity"]:
        raise RefError("attendees exceed capacity")
    if s["kind"] == "meeting_room" and att < 2:
        raise RefError("meeting rooms need at least 2 attendees")
    ds = d.isoformat()
    for b in db["bookings"].values():
        if b["date"] != ds or not live(b):
            continue
        if b["space_id"] != s["id"] and b["member_id"] != m["id"]:
            continue
        if b["start_hour"] < st + h and st < b["start_hour"] + b["hours"]:
            raise RefError("time slot overlaps an existing booking")
    if month_hours(db, m["id"], ds[:7]) + h > plan["monthly_hour_cap"]:
        raise RefError("monthly hour cap exceeded")
    cost = D(s["hourly_rate"]) * h * (100 - plan["discount_pct"]) / 100
    cost = D(q2(cost))
    if cost > D(m["credit_balance"]):
        raise RefError("insufficient credits")
    m["credit_balance"] = q2(D(m["credit_balance"]) - cost)
    bid = next_id(db, "bookings", "BK", 6)
    b = {"id": bid, "member_id": m["id"], "space_id": s["id"], "date": ds, "start_hour": st,
         "hours": h, "attendees": att, "status": "confirmed", "cost": float(cost),
         "refund_amount": None, "cancel_reason": None, "cancelled_on": None,
         "checked_in_hour": None, "created_on": t.isoformat()}
    db["bookings"][bid] = b
    return b

def _cancel(db, b, reason, pct):
    m = db["members"][b["member_id"]]
    refund = q2(D(b["cost"]) * pct / 100)
    b.update(status="cancelled", refund_amount=refund, cancel_reason=reason,
             cancelled_on=today(db).isoformat())
    m["credit_balance"] = q2(D(m["credit_balance"]) + D(refund))

def cancel_booking(db, a):
    check_args(a, ("booking_id", "reason"))
    b = get(db, "bookings", a["booking_id"], "booking")
    reason = s_arg(a, "reason")
    if len(reason) > 200:
        raise RefError("reason too long")
    if b["status"] != "confirmed":
        raise RefError("only confirmed bookings can be cancelled")
    hb = hours_until_start(db, b)
    if hb <= 0:
        raise RefError("booking has already started")
    pct = 100 if hb >= 48 else 50 if hb >= 24 else 0
    _cancel(db, b, reason, pct)
    return b

def check_in_booking(db, a):
    check_args(a, ("booking_id",))
    b = get(db, "bookings", a["booking_id"], "booking")
    if b["status"] != "confirmed":
        raise RefError("only confirmed bookings can be checked in")
    n = now_hour(db)
    if b["date"] != today(db).isoformat() or not (b["start_hour"] - 1 <= n < b["start_hour"] + b["hours"]):
        raise RefError("outside the check-in window")
    b["status"] = "checked_in"
    b["checked_in_hour"] = n
    return b

def mark_no_show(db, a):
    check_args(a, ("booking_id",))
    b = get(db, "bookings", a["booking_id"], "booking")
    if b["status"] != "confirmed":
        raise RefError("only confirmed bookings can be marked no-show")
    t = today(db).isoformat()
    if not (b["date"] < t or (b["date"] == t and b["start_hour"] + b["hours"] <= now_hour(db))):
        raise RefError("booking has not ended yet")
    b["status"] = "no_show"
    m = db["members"][b["member_id"]]
    m["no_show_count"] += 1
    if m["no_show_count"] >= NO_SHOW_LIMIT and m["status"] == "active":
        m["status"] = "suspended"
        for o in sorted_list(db["bookings"]):
            if o["member_id"] == m["id"] and o["status"] == "confirmed" and hours_until_start(db, o) > 0:
                _cancel(db, o, "member_suspended", 100)
        for g in sorted_list(db["guest_passes"]):
            if g["member_id"] == m["id"] and g["status"] == "issued" and g["date"] >= t:
                _revoke(db, g)
    return b

def top_up_credits(db, a):
    check_args(a, ("member_id", "amount", "method"))
    m = get(db, "members", a["member_id"], "member")
    amt = a["amount"]
    if isinstance(amt, bool) or not isinstance(amt, (int, float)):
        raise RefError("amount must be a number")
    amt = D(amt)
    if amt != amt.quantize(Decimal("0.01")):
        raise RefError("amount has more than two decimals")
    if amt < 10 or amt > 500:
        raise RefError("amount must be between 10.00 and 500.00")
    method = enum_arg(a, "method", TOPUP_METHODS)
    if m["status"] == "cancelled":
        raise RefError("member is cancelled")
    plan = db["plans"][m["plan_id"]]
    if method == "invoice" and not plan["invoice_billing"]:
        raise RefError("plan does not allow invoice billing")
    t = today(db).isoformat()
    sofar = sum(D(x["amount"]) for x in db["top_ups"].values()
                if x["member_id"] == m["id"] and x["created_on"] == t)
    if sofar + amt > DAILY_TOPUP_LIMIT:
        raise RefError("daily top-up limit exceeded")
    pct = 10 if amt >= 200 else 5 if amt >= 100 else 0
    bonus = q2(amt * pct / 100)
    added = q2(amt + D(bonus))
    tid = next_id(db, "top_ups", "TU", 4)
    rec = {"id": tid, "member_id": m["id"], "amount": q2(amt), "bonus": bonus,
           "credits_added": added, "method": method, "created_on": t}
    db["top_ups"][tid] = rec
    m["credit_balance"] = q2(D(m["credit_balance"]) + D(added))
    return rec

def issue_guest_pass(db, a):
    check_args(a, ("member_id", "guest_name", "date"))
    m = get(db, "members", a["member_id"], "member")
    name = s_arg(a, "guest_name")
    d = d_arg(a, "date")
    if m["status"] != "active":
        raise RefError("member is not active")
    plan = db["plans"][m["plan_id"]]
    t = today(db)
    if d < t or d > t + timedelta(days=GUEST_PASS_WINDOW_DAYS):
        raise RefError("date outside the guest pass window")
    ds = d.isoformat()
    n_month = 0
    for g in db["guest_passes"].values():
        if g["status"] == "revoked":
            continue
        if g["date"] == ds and (g["member_id"] == m["id"] or
                                g["guest_name"].strip().lower() == name.strip().lower()):
            raise RefError("duplicate guest pass for this date")
        if g["member_id"] == m["id"] and g["date"][:7] == ds[:7]:
            n_month += 1
    if n_month >= plan["guest_passes_per_month"]:
        raise RefError("monthly guest pass allowance used up")
    fee = D(plan["guest_pass_fee"])
    if fee > D(m["credit_balance"]):
        raise RefError("insufficient credits")
    m["credit_balance"] = q2(D(m["credit_balance"]) - fee)
    gid = next_id(db, "guest_passes", "GP", 4)
    g = {"id": gid, "member_id": m["id"], "guest_name": name, "date": ds, "fee": q2(fee),
         "status": "issued", "issued_on": t.isoformat(), "revoked_on": None}
    db["guest_passes"][gid] = g
    return g

def _revoke(db, g):
    m = db["members"][g["member_id"]]
    g["status"] = "revoked"
    g["revoked_on"] = today(db).isoformat()
    m["credit_balance"] = q2(D(m["credit_balance"]) + D(g["fee"]))

def revoke_guest_pass(db, a):
    check_args(a, ("guest_pass_id",))
    g = get(db, "guest_passes", a["guest_pass_id"], "guest pass")
    if g["status"] != "issued":
        raise RefError("only issued passes can be revoked")
    if g["date"] < today(db).isoformat():
        raise RefError("pass date has passed")
    _revoke(db, g)
    return g

def change_plan(db, a):
    check_args(a, ("member_id", "plan_id"))
    m = get(db, "members", a["member_id"], "member")
    p = get(db, "plans", a["plan_id"], "plan")
    if m["status"] != "active":
        raise RefError("member is not active")
    if not p["available"]:
        raise RefError("plan is not available")
    if p["id"] == m["plan_id"]:
        raise RefError("already on this plan")
    t = today(db)
    if m["plan_changed_on"] and m["plan_changed_on"][:7] == t.isoformat()[:7]:
        raise RefError("plan already changed this month")
    if month_hours(db, m["id"], t.isoformat()[:7]) > p["monthly_hour_cap"]:
        raise RefError("hours booked this month exceed the new plan's cap")
    for b in db["bookings"].values():
        if (b["member_id"] == m["id"] and b["status"] == "confirmed" and b["date"] >= t.isoformat()
                and db["spaces"][b["space_id"]]["kind"] not in p["allowed_kinds"]):
            raise RefError("upcoming booking on a space kind the new plan does not allow")
    old = db["plans"][m["plan_id"]]
    charge = Decimal("0")
    if p["monthly_fee"] > old["monthly_fee"]:
        nxt = date(t.year + (t.month == 12), t.month % 12 + 1, 1)
        dim = (nxt - date(t.year, t.month, 1)).days
        remaining = dim - t.day + 1
        charge = D(q2((D(p["monthly_fee"]) - D(old["monthly_fee"])) * remaining / dim))
    if charge > D(m["credit_balance"]):
        raise RefError("insufficient credits for the upgrade")
    m["credit_balance"] = q2(D(m["credit_balance"]) - charge)
    m["plan_id"] = p["id"]
    m["plan_changed_on"] = t.isoformat()
    return m

def reinstate_member(db, a):
    check_args(a, ("member_id",))
    m = get(db, "members", a["member_id"], "member")
    if m["status"] != "suspended":
        raise RefError("only suspended members can be reinstated")
    if D(m["credit_balance"]) < REINSTATEMENT_FEE:
        raise RefError("insufficient credits for the reinstatement fee")
    m["credit_balance"] = q2(D(m["credit_balance"]) - REINSTATEMENT_FEE)
    m["status"] = "active"
    m["no_show_count"] = 0
    return m

TOOLS = {f.__name__: f for f in (
    list_spaces, get_space_availability, search_members, get_member, list_bookings,
    create_booking, cancel_booking, check_in_booking, mark_no_show, top_up_credits,
    issue_guest_pass, revoke_guest_pass, change_plan, reinstate_member)}

def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool: %s" % name)
    if args is None:
        args = {}
    return TOOLS[name](db, args)
