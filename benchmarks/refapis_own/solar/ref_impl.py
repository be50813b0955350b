"""Reference implementation of the Sunfold Community Solar subscriber desk API (stdlib only)."""
import re
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal


class RefError(Exception):
    pass


WRITE_TOOLS = {"update_subscriber", "create_subscription", "activate_subscription",
               "suspend_subscription", "resume_subscription", "terminate_subscription",
               "transfer_share", "join_waitlist", "post_production"}
READ_TOOLS = {"list_gardens", "get_subscriber", "list_subscriptions", "list_waitlist"}

UTILITIES = ["ridgeline_power", "lakeshore_electric", "tri_county_rec"]
GARDEN_STATUSES = ["under_construction", "operational", "retired"]
SUB_STATUSES = ["pending", "active", "suspended", "terminated"]
LIVE = {"pending", "active", "suspended"}
WAIT_STATUSES = ["waiting", "enrolled", "withdrawn"]
SUSPEND_REASONS = ["nonpayment", "subscriber_request", "meter_issue"]
TERMINATE_REASONS = ["subscriber_request", "relocation", "nonpayment"]
MIN_SHARE = Decimal("1.0")
NONPAYMENT_THRESHOLD = Decimal("50.00")
TRANSFER_FEE = Decimal("25.00")
TRANSFER_COOLDOWN_DAYS = 60
REQUEST_PAUSE_MIN_DAYS = 30
START_WINDOW_DAYS = 120
MAX_WAITING = 3
HOURS_PER_MONTH_CAP = 744

DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
PERIOD_RE = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
PHONE_RE = re.compile(r"^\d{3}-\d{3}-\d{4}$")

SPECS = {  # tool -> (required args, optional args)
    "list_gardens": ((), ("utility", "status", "min_available_kw", "q")),
    "get_subscriber": (("subscriber_id",), ()),
    "update_subscriber": (("subscriber_id",), ("email", "phone", "mailing_address",
                                                "annual_usage_kwh", "paperless_statements")),
    "list_subscriptions": ((), ("subscriber_id", "garden_id", "status")),
    "create_subscription": (("subscriber_id", "garden_id", "share_kw", "start_date"),
                            ("waitlist_entry_id",)),
    "activate_subscription": (("subscription_id",), ()),
    "suspend_subscription": (("subscription_id", "reason"), ()),
    "resume_subscription": (("subscription_id",), ()),
    "terminate_subscription": (("subscription_id", "reason"), ()),
    "transfer_share": (("subscription_id", "to_subscriber_id", "share_kw"), ()),
    "list_waitlist": ((), ("garden_id", "subscriber_id", "status")),
    "join_waitlist": (("subscriber_id", "garden_id", "requested_kw"), ()),
    "post_production": (("garden_id", "period", "garden_kwh"), ()),
}


# ---------------------------------------------------------------- helpers
def D(x):
    return Decimal(str(x))


def money(x):
    return float(D(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def tenth(x):
    return float(D(x).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def _str(v, what):
    if not isinstance(v, str):
        raise RefError("%s must be a string" % what)
    return v


def _num(v, what):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RefError("%s must be a number" % what)
    return D(v)


def _enum(v, allowed, what):
    if not isinstance(v, str) or v not in allowed:
        raise RefError("%s must be one of %s" % (what, allowed))
    return v


def _kw(v, what):
    k = _num(v, what)
    if k < MIN_SHARE or (k * 2) != (k * 2).to_integral_value():
        raise RefError("%s must be at least 1.0 and a multiple of 0.5 kW" % what)
    return k


def _date(v, what):
    _str(v, what)
    if not DATE_RE.match(v):
        raise RefError("%s must be YYYY-MM-DD" % what)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % what)


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _get(db, coll, rid, what):
    _str(rid, what)
    rec = db[coll].get(rid)
    if rec is None:
        raise RefError("%s %s not found" % (what, rid))
    return rec


def _next_id(db, coll):
    top = max(db[coll])
    prefix = top.rstrip("0123456789")
    width = len(top) - len(prefix)
    return "%s%0*d" % (prefix, width, int(top[len(prefix):]) + 1)


def add_months(d, n):
    m = d.month - 1 + n
    return date(d.year + m // 12, m % 12 + 1, 1)


def _available(g):
    return D(g["capacity_kw"]) - D(g["allocated_kw"])


def _expected_output(db, subscriber_id, extra_garden=None, extra_kw=Decimal(0)):
    total = Decimal(0)
    for s in db["subscriptions"].values():
        if s["subscriber_id"] == subscriber_id and s["status"] in LIVE:
            total += D(s["share_kw"]) * db["gardens"][s["garden_id"]]["annual_yield_kwh_per_kw"]
    if extra_garden is not None:
        total += extra_kw * extra_garden["annual_yield_kwh_per_kw"]
    return total


def _check_usage_cap(total, usage):
    if total * 10 > D(usage) * 12:
        raise RefError("expected output would exceed 120% of the subscriber's annual usage")


def _check_anchor(g, kw):
    if kw * 10 > D(g["capacity_kw"]) * 4:
        raise RefError("one subscriber may hold at most 40% of a garden's capacity")


def _active_account(db, sid, what="subscriber"):
    c = _get(db, "subscribers", sid, what)
    if c["account_status"] != "active":
        raise RefError("%s %s account is %s" % (what, sid, c["account_status"]))
    return c


def _live_sub(db, subscriber_id, garden_id):
    for s in sorted(db["subscriptions"].values(), key=lambda r: r["id"]):
        if s["subscriber_id"] == subscriber_id and s["garden_id"] == garden_id and s["status"] in LIVE:
            return s
    return None


def _waiting(db, garden_id):
    return sorted((w for w in db["waitlist"].values()
                   if w["garden_id"] == garden_id and w["status"] == "waiting"), key=lambda w: w["id"])


def _sub_in(db, sid, statuses):
    s = _get(db, "subscriptions", sid, "subscription")
    if s["status"] not in statuses:
        raise RefError("subscription %s is %s" % (sid, s["status"]))
    return s


# ---------------------------------------------------------------- reads
def _filter(db, coll, a, refs, enums):
    res = sorted(db[coll].values(), key=lambda r: r["id"])
    for k, target in refs.items():
        if k in a:
            _get(db, target, a[k], k)
            res = [r for r in res if r[k] == a[k]]
    for k, allowed in enums.items():
        if k in a:
            v = _enum(a[k], allowed, k)
            res = [r for r in res if r[k] == v]
    return res


def list_gardens(db, a):
    res = _filter(db, "gardens", a, {}, {"utility": UTILITIES, "status": GARDEN_STATUSES})
    if "min_available_kw" in a:
        m = _num(a["min_available_kw"], "min_available_kw")
        if m < 0:
            raise RefError("min_available_kw must not be negative")
        res = [g for g in res if _available(g) >= m]
    if "q" in a:
        q = _str(a["q"], "q").lower()
        res = [g for g in res if q in g["name"].lower() or q in g["county"].lower()]
    return res


def get_subscriber(db, a):
    return _get(db, "subscribers", a["subscriber_id"], "subscriber")


def list_subscriptions(db, a):
    return _filter(db, "subscriptions", a, {"subscriber_id": "subscribers", "garden_id": "gardens"},
                   {"status": SUB_STATUSES})


def list_waitlist(db, a):
    return _filter(db, "waitlist", a, {"garden_id": "gardens", "subscriber_id": "subscribers"},
                   {"status": WAIT_STATUSES})


# ---------------------------------------------------------------- writes
def update_subscriber(db, a):
    c = _get(db, "subscribers", a["subscriber_id"], "subscriber")
    if c["account_status"] == "closed":
        raise RefError("closed accounts cannot be edited")
    if len(a) < 2:
        raise RefError("nothing to update")
    if "email" in a and not EMAIL_RE.match(_str(a["email"], "email")):
        raise RefError("bad email")
    new = {k: a[k] for k in ("email", "phone") if k in a}
    if "phone" in a and not PHONE_RE.match(_str(a["phone"], "phone")):
        raise RefError("phone must look like 555-123-4567")
    if "mailing_address" in a:
        addr = _str(a["mailing_address"], "mailing_address")
        if not addr.strip() or len(addr) > 200:
            raise RefError("mailing_address must be non-blank and at most 200 characters")
        new["mailing_address"] = addr
    if "annual_usage_kwh" in a:
        u = a["annual_usage_kwh"]
        if isinstance(u, bool) or not isinstance(u, int) or not 1000 <= u <= 1000000:
            raise RefError("annual_usage_kwh must be an integer from 1000 to 1000000")
        _check_usage_cap(_expected_output(db, c["id"]), u)
        new["annual_usage_kwh"] = u
    if "paperless_statements" in a:
        if not isinstance(a["paperless_statements"], bool):
            raise RefError("paperless_statements must be a boolean")
        new["paperless_statements"] = a["paperless_statements"]
    c.update(new)
    c["updated_on"] = db["meta"]["today"]
    return c


def create_subscription(db, a):
    c = _active_account(db, a["subscriber_id"])
    g = _get(db, "gardens", a["garden_id"], "garden")
    if g["status"] == "retired":
        raise RefError("garden %s is retired" % g["id"])
    if c["utility"] != g["utility"]:
        raise RefError("subscriber and garden are served by different utilities")
    kw = _kw(a["share_kw"], "share_kw")
    start = _date(a["start_date"], "start_date")
    today = _today(db)
    if start.day != 1 or start < today or start > today + timedelta(days=START_WINDOW_DAYS):
        raise RefError("start_date must be the first of a month within the next 120 days")
    if g["status"] == "under_construction" and start < date.fromisoformat(g["commissioning_date"]):
        raise RefError("start_date is before the garden's commissioning date")
    if _live_sub(db, c["id"], g["id"]):
        raise RefError("subscriber already holds a share in garden %s" % g["id"])
    _check_anchor(g, kw)
    if kw > _available(g):
        raise RefError("garden %s does not have %s kW available" % (g["id"], kw))
    _check_usage_cap(_expected_output(db, c["id"], g, kw), c["annual_usage_kwh"])
    queue = _waiting(db, g["id"])
    entry = None
    if "waitlist_entry_id" in a:
        entry = _get(db, "waitlist", a["waitlist_entry_id"], "waitlist entry")
        if entry["status"] != "waiting" or not queue or queue[0]["id"] != entry["id"]:
            raise RefError("only the first waiting entry of the garden can be enrolled")
        if entry["subscriber_id"] != c["id"] or entry["garden_id"] != g["id"]:
            raise RefError("waitlist entry belongs to another subscriber or garden")
        if kw > D(entry["requested_kw"]):
            raise RefError("share_kw exceeds the waitlisted request")
    elif queue:
        raise RefError("garden %s has a waitlist; enroll its first entry instead" % g["id"])
    sid = _next_id(db, "subscriptions")
    s = {"id": sid, "subscriber_id": c["id"], "garden_id": g["id"], "share_kw": float(kw),
         "status": "pending", "start_date": start.isoformat(),
         "commitment_ends_on": add_months(start, g["commitment_months"]).isoformat(),
         "created_on": today.isoformat(), "activated_on": None, "suspended_on": None,
         "suspension_reason": None, "resumed_on": None, "terminated_on": None,
         "termination_reason": None, "early_termination_fee": None, "credited_kwh_to_date": 0.0}
    db["subscriptions"][sid] = s
    g["allocated_kw"] = float(D(g["allocated_kw"]) + kw)
    if entry is not None:
        entry.update(status="enrolled", enrolled_on=today.isoformat(), subscription_id=sid)
        g["waiting_count"] -= 1
    return s


def activate_subscription(db, a):
    s = _sub_in(db, a["subscription_id"], {"pending"})
    g = db["gardens"][s["garden_id"]]
    if g["status"] != "operational":
        raise RefError("garden %s is not operational" % g["id"])
    if s["start_date"] > db["meta"]["today"]:
        raise RefError("subscription starts on %s" % s["start_date"])
    _active_account(db, s["subscriber_id"])
    s["status"] = "active"
    s["activated_on"] = db["meta"]["today"]
    return s


def suspend_subscription(db, a):
    s = _sub_in(db, a["subscription_id"], {"active"})
    reason = _enum(a["reason"], SUSPEND_REASONS, "reason")
    c = db["subscribers"][s["subscriber_id"]]
    if reason == "nonpayment" and D(c["balance_due"]) < NONPAYMENT_THRESHOLD:
        raise RefError("nonpayment needs a balance of at least 50.00")
    s.update(status="suspended", suspended_on=db["meta"]["today"], suspension_reason=reason)
    return s


def resume_subscription(db, a):
    s = _sub_in(db, a["subscription_id"], {"suspended"})
    c = _active_account(db, s["subscriber_id"])
    if s["suspension_reason"] == "nonpayment" and D(c["balance_due"]) >= NONPAYMENT_THRESHOLD:
        raise RefError("balance must be paid down below 50.00 first")
    if s["suspension_reason"] == "subscriber_request":
        since = _today(db) - date.fromisoformat(s["suspended_on"])
        if since.days < REQUEST_PAUSE_MIN_DAYS:
            raise RefError("a requested pause lasts at least 30 days")
    s.update(status="active", suspended_on=None, suspension_reason=None,
             resumed_on=db["meta"]["today"])
    return s


def terminate_subscription(db, a):
    s = _sub_in(db, a["subscription_id"], LIVE)
    reason = _enum(a["reason"], TERMINATE_REASONS, "reason")
    if reason == "nonpayment" and not (s["status"] == "suspended"
                                       and s["suspension_reason"] == "nonpayment"):
        raise RefError("nonpayment terminations need a nonpayment suspension first")
    g = db["gardens"][s["garden_id"]]
    c = db["subscribers"][s["subscriber_id"]]
    today = db["meta"]["today"]
    fee = Decimal(0)
    if s["status"] != "pending" and reason != "relocation" and today < s["commitment_ends_on"]:
        fee = D(s["share_kw"]) * D(g["early_termination_fee_per_kw"])
    s.update(status="terminated", terminated_on=today, termination_reason=reason,
             early_termination_fee=money(fee))
    c["balance_due"] = money(D(c["balance_due"]) + D(money(fee)))
    g["allocated_kw"] = float(D(g["allocated_kw"]) - D(s["share_kw"]))
    return s


def transfer_share(db, a):
    src = _sub_in(db, a["subscription_id"], {"active"})
    g = db["gardens"][src["garden_id"]]
    if g["status"] != "operational":
        raise RefError("garden %s is not operational" % g["id"])
    to = _active_account(db, a["to_subscriber_id"], "recipient")
    if to["id"] == src["subscriber_id"]:
        raise RefError("cannot transfer to the same subscriber")
    if to["utility"] != g["utility"]:
        raise RefError("recipient is served by another utility")
    kw = _num(a["share_kw"], "share_kw")
    have = D(src["share_kw"])
    if kw <= 0 or (kw * 2) != (kw * 2).to_integral_value() or kw > have:
        raise RefError("share_kw must be a positive multiple of 0.5 up to the current share")
    if kw < have and have - kw < MIN_SHARE:
        raise RefError("a partial transfer must leave at least 1.0 kW")
    today = _today(db)
    cutoff = (today - timedelta(days=TRANSFER_COOLDOWN_DAYS)).isoformat()
    if any(t["from_subscription_id"] == src["id"] and t["transferred_on"] >= cutoff
           for t in db["transfers"].values()):
        raise RefError("this subscription already transferred within 60 days")
    dest = _live_sub(db, to["id"], g["id"])
    if dest is not None and dest["status"] != "active":
        raise RefError("recipient's subscription in this garden is %s" % dest["status"])
    held = D(dest["share_kw"]) if dest else Decimal(0)
    _check_anchor(g, held + kw)
    _check_usage_cap(_expected_output(db, to["id"], g, kw), to["annual_usage_kwh"])
    t_iso = today.isoformat()
    if dest is None:
        nid = _next_id(db, "subscriptions")
        dest = {"id": nid, "subscriber_id": to["id"], "garden_id": g["id"], "share_kw": 0.0,
                "status": "active", "start_date": src["start_date"],
                "commitment_ends_on": src["commitment_ends_on"], "created_on": t_iso,
                "activated_on": t_iso, "suspended_on": None, "suspension_reason": None,
                "resumed_on": None, "terminated_on": None, "termination_reason": None,
                "early_termination_fee": None, "credited_kwh_to_date": 0.0}
        db["subscriptions"][nid] = dest
    dest["share_kw"] = float(D(dest["share_kw"]) + kw)
    if kw == have:
        src.update(status="terminated", terminated_on=t_iso, termination_reason="transferred",
                   early_termination_fee=0.0)
    else:
        src["share_kw"] = float(have - kw)
    fee = Decimal(0) if to["income_qualified"] else TRANSFER_FEE
    c = db["subscribers"][src["subscriber_id"]]
    c["balance_due"] = money(D(c["balance_due"]) + fee)
    tid = _next_id(db, "transfers")
    rec = {"id": tid, "garden_id": g["id"], "from_subscription_id": src["id"],
           "to_subscription_id": dest["id"], "from_subscriber_id": src["subscriber_id"],
           "to_subscriber_id": to["id"], "share_kw": float(kw), "processing_fee": money(fee),
           "transferred_on": t_iso}
    db["transfers"][tid] = rec
    return rec


def join_waitlist(db, a):
    c = _active_account(db, a["subscriber_id"])
    g = _get(db, "gardens", a["garden_id"], "garden")
    if g["status"] == "retired":
        raise RefError("garden %s is retired" % g["id"])
    if c["utility"] != g["utility"]:
        raise RefError("subscriber and garden are served by different utilities")
    kw = _kw(a["requested_kw"], "requested_kw")
    _check_anchor(g, kw)
    if not _waiting(db, g["id"]) and _available(g) >= kw:
        raise RefError("garden %s has room; subscribe directly" % g["id"])
    if _live_sub(db, c["id"], g["id"]):
        raise RefError("subscriber already holds a share in garden %s" % g["id"])
    mine = [w for w in db["waitlist"].values() if w["subscriber_id"] == c["id"] and w["status"] == "waiting"]
    if any(w["garden_id"] == g["id"] for w in mine):
        raise RefError("subscriber is already waiting for garden %s" % g["id"])
    if len(mine) >= MAX_WAITING:
        raise RefError("a subscriber may wait for at most 3 gardens")
    wid = _next_id(db, "waitlist")
    w = {"id": wid, "garden_id": g["id"], "subscriber_id": c["id"], "requested_kw": float(kw),
         "status": "waiting", "joined_on": db["meta"]["today"], "enrolled_on": None,
         "subscription_id": None, "withdrawn_on": None}
    db["waitlist"][wid] = w
    g["waiting_count"] += 1
    return w


def post_production(db, a):
    g = _get(db, "gardens", a["garden_id"], "garden")
    if g["status"] != "operational":
        raise RefError("garden %s is not operational" % g["id"])
    period = _str(a["period"], "period")
    if not PERIOD_RE.match(period):
        raise RefError("period must be YYYY-MM")
    today = _today(db)
    if g["last_posted_period"]:
        y, m = map(int, g["last_posted_period"].split("-"))
        expected = add_months(date(y, m, 1), 1)
    else:
        expected = date.fromisoformat(g["commissioning_date"]).replace(day=1)
    first = date(int(period[:4]), int(period[5:]), 1)
    if first != expected:
        raise RefError("the next period to post for %s is %s" % (g["id"], expected.isoformat()[:7]))
    if first >= today.replace(day=1):
        raise RefError("period %s is not a completed month" % period)
    kwh = _num(a["garden_kwh"], "garden_kwh")
    if kwh <= 0 or kwh > D(g["capacity_kw"]) * HOURS_PER_MONTH_CAP:
        raise RefError("garden_kwh must be positive and at most capacity_kw x 744")
    statements = []
    for s in sorted(db["subscriptions"].values(), key=lambda r: r["id"]):
        if s["garden_id"] != g["id"] or s["status"] != "active" or s["start_date"] > first.isoformat():
            continue
        c = db["subscribers"][s["subscriber_id"]]
        credited = tenth(kwh * D(s["share_kw"]) / D(g["capacity_kw"]))
        credit = money(D(credited) * D(g["credit_rate_per_kwh"]))
        pct = g["income_qualified_discount_pct"] if c["income_qualified"] else g["standard_discount_pct"]
        charge = money(D(credit) * (100 - D(pct)) / 100)
        stid = _next_id(db, "statements")
        st = {"id": stid, "subscription_id": s["id"], "subscriber_id": c["id"],
              "garden_id": g["id"], "period": period, "credited_kwh": credited,
              "credit_rate_per_kwh": g["credit_rate_per_kwh"], "bill_credit": credit,
              "discount_pct": pct, "subscription_charge": charge,
              "savings": money(D(credit) - D(charge)), "issued_on": today.isoformat()}
        db["statements"][stid] = st
        statements.append(st)
        s["credited_kwh_to_date"] = tenth(D(s["credited_kwh_to_date"]) + D(credited))
        c["balance_due"] = money(D(c["balance_due"]) + D(charge))
    g["last_posted_period"] = period
    g["lifetime_production_kwh"] = tenth(D(g["lifetime_production_kwh"]) + kwh)
    return {"garden_id": g["id"], "period": period, "garden_kwh": float(kwh),
            "statements": statements}


def invoke(db, name, args):
    if not isinstance(name, str) or name not in SPECS:
        raise RefError("unknown tool %r" % (name,))
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    req, opt = SPECS[name]
    if set(args) - set(req) - set(opt) or set(req) - set(args):
        raise RefError("unknown or missing arguments for %s" % name)
    return globals()[name](db, dict(args))
