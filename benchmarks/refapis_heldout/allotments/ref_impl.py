"""Reference implementation of the Harrowfield allotments office API."""
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_gardener", "join_waiting_list", "start_tenancy", "record_inspection",
               "serve_notice", "surrender_tenancy", "enforce_eviction", "record_payment",
               "lend_key", "return_key"}

CENT = Decimal("0.01")
WATER_CHARGE = Decimal("22.00")
DISCOUNTS = {"none": Decimal("0"), "senior": Decimal("0.50"), "low_income": Decimal("0.50"),
             "student": Decimal("0.25")}
LATE_FEE_PER_DAY, LATE_FEE_CAP = Decimal("1.50"), Decimal("15.00")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

# argument kinds: ("id", regex) | ("str",) | ("date",) | ("enum", values) | ("int",) | ("num",) | ("bool",)
SITE = ("id", r"^S\d{2}$")
PLOT = ("id", r"^P\d{3}$")
GARD = ("id", r"^G\d{4}$")
TEN = ("id", r"^T\d{4}$")
LOAN = ("id", r"^K\d{4}$")
PLOT_ST = ("enum", ("vacant", "let", "clearance", "withdrawn"))
TEN_ST = ("enum", ("active", "on_notice", "surrendered", "evicted"))
SPECS = {
    "list_plots": {"site_id": (SITE, False), "status": (PLOT_ST, False), "min_size_m2": (("int",), False),
                   "water_tap": (("bool",), False)},
    "search_gardeners": {"query": (("str",), True), "status": (("enum", ("active", "barred")), False)},
    "list_waiting_list": {"site_id": (SITE, True)},
    "list_tenancies": {"site_id": (SITE, False), "gardener_id": (GARD, False), "status": (TEN_ST, False)},
    "register_gardener": {"name": (("str",), True), "email": (("str",), True), "date_of_birth": (("date",), True),
                          "household_id": (("id", r"^H\d{3}$"), True), "phone": (("str",), False),
                          "concession": (("enum", tuple(DISCOUNTS)), False)},
    "join_waiting_list": {"gardener_id": (GARD, True), "site_id": (SITE, True)},
    "start_tenancy": {"plot_id": (PLOT, True), "gardener_id": (GARD, True), "start_date": (("date",), True)},
    "record_inspection": {"plot_id": (PLOT, True), "outcome": (("enum", ("good", "fair", "poor")), True),
                          "inspector": (("str",), True), "notes": (("str",), False)},
    "serve_notice": {"tenancy_id": (TEN, True), "reason": (("enum", ("cultivation", "arrears")), True)},
    "surrender_tenancy": {"tenancy_id": (TEN, True)},
    "enforce_eviction": {"tenancy_id": (TEN, True)},
    "record_payment": {"tenancy_id": (TEN, True), "amount": (("num",), True),
                       "method": (("enum", ("card", "cash", "bank_transfer", "cheque")), True)},
    "lend_key": {"gardener_id": (GARD, True), "site_id": (SITE, True)},
    "return_key": {"loan_id": (LOAN, True)},
}


def _check_value(name, kind, v):
    k = kind[0]
    if k == "int":
        ok = isinstance(v, int) and not isinstance(v, bool)
    elif k == "num":
        ok = isinstance(v, (int, float)) and not isinstance(v, bool)
    elif k == "bool":
        ok = isinstance(v, bool)
    else:
        ok = isinstance(v, str)
    if not ok:
        raise RefError("%s has the wrong type" % name)
    if k == "id" and not re.match(kind[1], v):
        raise RefError("%s is not a valid id" % name)
    if k == "enum" and v not in kind[1]:
        raise RefError("%s must be one of %s" % (name, ", ".join(kind[1])))
    if k == "date":
        if not re.match(r"^\d{4}-\d{2}-\d{2}$", v):
            raise RefError("%s must be YYYY-MM-DD" % name)
        try:
            date.fromisoformat(v)
        except ValueError:
            raise RefError("%s is not a calendar date" % name)


def _check_args(name, args):
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    spec = SPECS[name]
    for key in args:
        if key not in spec:
            raise RefError("unknown argument %s" % key)
    for key, (kind, required) in spec.items():
        if key not in args or args[key] is None:
            if required:
                raise RefError("missing argument %s" % key)
            continue
        _check_value(key, kind, args[key])
    return {k: v for k, v in args.items() if v is not None}


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _get(db, coll, rid, what):
    rec = db[coll].get(rid)
    if rec is None:
        raise RefError("%s %s not found" % (what, rid))
    return rec


def _next_id(db, coll, prefix):
    nums = [int(k[len(prefix):]) for k in db[coll] if k.startswith(prefix) and k[len(prefix):].isdigit()]
    width = max([len(k) - len(prefix) for k in db[coll]] or [4])
    return "%s%0*d" % (prefix, width, max(nums or [0]) + 1)


def _money(x):
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)


def _age(dob, today):
    return today.year - dob.year - ((today.month, today.day) < (dob.month, dob.day))


def _add_years(d, n):
    try:
        return d.replace(year=d.year + n)
    except ValueError:
        return d.replace(year=d.year + n, day=28)


def _household_has_plot(db, household_id):
    members = {g["id"] for g in db["gardeners"].values() if g["household_id"] == household_id}
    return any(t["gardener_id"] in members and t["status"] in ("active", "on_notice")
               for t in db["tenancies"].values())


def _queue(db, site_id):
    entries = [w for w in db["waiting_list"].values() if w["site_id"] == site_id and w["status"] == "waiting"]
    return sorted(entries, key=lambda w: (w["joined_on"], w["id"]))


def _key_out(db, gardener_id):
    return any(k["gardener_id"] == gardener_id and k["status"] == "out" for k in db["key_loans"].values())


def _sorted(recs):
    return [dict(r) for r in sorted(recs, key=lambda r: r["id"])]


def list_plots(db, a):
    if "site_id" in a:
        _get(db, "sites", a["site_id"], "site")
    if a.get("min_size_m2", 0) < 0:
        raise RefError("min_size_m2 must not be negative")
    out = [p for p in db["plots"].values()
           if a.get("site_id", p["site_id"]) == p["site_id"] and a.get("status", p["status"]) == p["status"]
           and p["size_m2"] >= a.get("min_size_m2", 0) and a.get("water_tap", p["water_tap"]) == p["water_tap"]]
    return _sorted(out)


def search_gardeners(db, a):
    q = a["query"].strip().lower()
    if len(q) < 2:
        raise RefError("query must have at least 2 characters")
    out = [g for g in db["gardeners"].values() if (q in g["name"].lower() or q in g["email"].lower())
           and a.get("status", g["status"]) == g["status"]]
    return _sorted(out)


def list_waiting_list(db, a):
    _get(db, "sites", a["site_id"], "site")
    return [dict(w) for w in _queue(db, a["site_id"])]


def list_tenancies(db, a):
    if "site_id" in a:
        _get(db, "sites", a["site_id"], "site")
    if "gardener_id" in a:
        _get(db, "gardeners", a["gardener_id"], "gardener")
    out = [t for t in db["tenancies"].values()
           if all(a.get(f, t[f]) == t[f] for f in ("site_id", "gardener_id", "status"))]
    return _sorted(out)


def register_gardener(db, a):
    today = _today(db)
    if not a["name"].strip():
        raise RefError("name must not be blank")
    email = a["email"].strip().lower()
    if not EMAIL_RE.match(email):
        raise RefError("email is not valid")
    if any(g["email"].lower() == email for g in db["gardeners"].values()):
        raise RefError("email already registered")
    dob = date.fromisoformat(a["date_of_birth"])
    age = _age(dob, today)
    if age < 18:
        raise RefError("applicants must be 18 or over")
    concession = a.get("concession", "none")
    if concession == "senior" and age < 66:
        raise RefError("senior concession needs age 66 or over")
    gid = _next_id(db, "gardeners", "G")
    rec = {"id": gid, "name": a["name"], "email": email, "phone": a.get("phone"),
           "date_of_birth": a["date_of_birth"], "household_id": a["household_id"], "concession": concession,
           "status": "active", "barred_until": None, "registered_on": today.isoformat(),
           "current_tenancy_id": None}
    db["gardeners"][gid] = rec
    return dict(rec)


def join_waiting_list(db, a):
    g = _get(db, "gardeners", a["gardener_id"], "gardener")
    site = _get(db, "sites", a["site_id"], "site")
    if not site["accepting_applications"]:
        raise RefError("site is closed to new applications")
    if g["status"] == "barred":
        raise RefError("gardener is barred")
    if _household_has_plot(db, g["household_id"]):
        raise RefError("household already holds a plot")
    mine = [w for w in db["waiting_list"].values() if w["gardener_id"] == g["id"] and w["status"] == "waiting"]
    if any(w["site_id"] == site["id"] for w in mine):
        raise RefError("already waiting for this site")
    if len(mine) >= 2:
        raise RefError("at most two waiting lists at a time")
    wid = _next_id(db, "waiting_list", "W")
    rec = {"id": wid, "gardener_id": g["id"], "site_id": site["id"], "joined_on": _today(db).isoformat(),
           "status": "waiting", "closed_on": None}
    db["waiting_list"][wid] = rec
    site["waiting_count"] += 1
    return dict(rec)


def start_tenancy(db, a):
    today = _today(db)
    plot = _get(db, "plots", a["plot_id"], "plot")
    g = _get(db, "gardeners", a["gardener_id"], "gardener")
    start = date.fromisoformat(a["start_date"])
    if plot["status"] != "vacant":
        raise RefError("plot is not vacant")
    if not today <= start <= today + timedelta(days=30):
        raise RefError("start_date must be within the next 30 days")
    if g["status"] == "barred":
        raise RefError("gardener is barred")
    if _household_has_plot(db, g["household_id"]):
        raise RefError("household already holds a plot")
    queue = _queue(db, plot["site_id"])
    if not queue or queue[0]["gardener_id"] != g["id"]:
        raise RefError("gardener is not first on the site's waiting list")
    site = db["sites"][plot["site_id"]]
    base = Decimal(plot["size_m2"]) * _money(site["rate_per_m2"]) * (1 - DISCOUNTS[g["concession"]])
    annual = _money(base + (WATER_CHARGE if plot["water_tap"] else 0))
    first = _money(annual * (13 - start.month) / 12)
    tid = _next_id(db, "tenancies", "T")
    rec = {"id": tid, "plot_id": plot["id"], "gardener_id": g["id"], "site_id": site["id"],
           "start_date": start.isoformat(), "status": "active", "annual_rent": float(annual),
           "balance_due": float(first), "rent_due_on": (start + timedelta(days=30)).isoformat(), "warnings": 0,
           "notice_served_on": None, "notice_reason": None, "eviction_date": None, "ended_on": None,
           "refund_due": None}
    db["tenancies"][tid] = rec
    for w in db["waiting_list"].values():
        if w["gardener_id"] == g["id"] and w["status"] == "waiting":
            w["status"] = "housed" if w["id"] == queue[0]["id"] else "withdrawn"
            w["closed_on"] = today.isoformat()
            db["sites"][w["site_id"]]["waiting_count"] -= 1
    plot["status"], plot["current_tenancy_id"] = "let", tid
    site["vacant_plots"] -= 1
    g["current_tenancy_id"] = tid
    return dict(rec)


def record_inspection(db, a):
    today = _today(db)
    plot = _get(db, "plots", a["plot_id"], "plot")
    if plot["status"] != "let":
        raise RefError("only let plots are inspected")
    if not a["inspector"].strip():
        raise RefError("inspector must not be blank")
    last = plot["last_inspected_on"]
    if last and (today - date.fromisoformat(last)).days < 14:
        raise RefError("plot was inspected less than 14 days ago")
    t = db["tenancies"][plot["current_tenancy_id"]]
    iid = _next_id(db, "inspections", "I")
    rec = {"id": iid, "plot_id": plot["id"], "tenancy_id": t["id"], "inspected_on": today.isoformat(),
           "inspector": a["inspector"], "outcome": a["outcome"], "notes": a.get("notes", "")}
    db["inspections"][iid] = rec
    plot["last_inspected_on"] = today.isoformat()
    if a["outcome"] == "poor":
        t["warnings"] += 1
    elif a["outcome"] == "good":
        t["warnings"] = 0
    return dict(rec)


def serve_notice(db, a):
    today = _today(db)
    t = _get(db, "tenancies", a["tenancy_id"], "tenancy")
    if t["status"] != "active":
        raise RefError("notice can only be served on an active tenancy")
    if a["reason"] == "cultivation" and t["warnings"] < 2:
        raise RefError("cultivation notice needs two warnings")
    if a["reason"] == "arrears" and not (
            t["balance_due"] > 0 and (today - date.fromisoformat(t["rent_due_on"])).days > 28):
        raise RefError("rent is not more than 28 days overdue")
    t.update(status="on_notice", notice_served_on=today.isoformat(), notice_reason=a["reason"],
             eviction_date=(today + timedelta(days=28)).isoformat())
    return dict(t)


def surrender_tenancy(db, a):
    today = _today(db)
    t = _get(db, "tenancies", a["tenancy_id"], "tenancy")
    if t["status"] != "active":
        raise RefError("only an active tenancy can be surrendered")
    if date.fromisoformat(t["start_date"]) > today:
        raise RefError("tenancy has not started yet")
    if _key_out(db, t["gardener_id"]):
        raise RefError("shed key must be returned first")
    refund = _money(_money(t["annual_rent"]) * (12 - today.month) / 12) if t["balance_due"] == 0 else CENT * 0
    t.update(status="surrendered", ended_on=today.isoformat(), refund_due=float(refund))
    plot = db["plots"][t["plot_id"]]
    plot["status"], plot["current_tenancy_id"] = "vacant", None
    db["sites"][t["site_id"]]["vacant_plots"] += 1
    db["gardeners"][t["gardener_id"]]["current_tenancy_id"] = None
    return dict(t)


def enforce_eviction(db, a):
    today = _today(db)
    t = _get(db, "tenancies", a["tenancy_id"], "tenancy")
    if t["status"] != "on_notice":
        raise RefError("tenancy is not on notice")
    if date.fromisoformat(t["eviction_date"]) > today:
        raise RefError("notice period has not expired")
    if _key_out(db, t["gardener_id"]):
        raise RefError("shed key must be returned first")
    t.update(status="evicted", ended_on=today.isoformat(), refund_due=0.0)
    plot = db["plots"][t["plot_id"]]
    plot["status"], plot["current_tenancy_id"] = "clearance", None
    g = db["gardeners"][t["gardener_id"]]
    g.update(current_tenancy_id=None, status="barred", barred_until=_add_years(today, 3).isoformat())
    return dict(t)


def record_payment(db, a):
    t = _get(db, "tenancies", a["tenancy_id"], "tenancy")
    if t["status"] not in ("active", "on_notice"):
        raise RefError("tenancy has ended")
    amount = Decimal(str(a["amount"]))
    if amount <= 0 or amount != amount.quantize(CENT):
        raise RefError("amount must be positive with at most two decimals")
    balance = _money(t["balance_due"])
    if amount > balance:
        raise RefError("amount exceeds the balance due")
    rid = _next_id(db, "payments", "R")
    rec = {"id": rid, "tenancy_id": t["id"], "amount": float(amount), "method": a["method"],
           "paid_on": _today(db).isoformat()}
    db["payments"][rid] = rec
    t["balance_due"] = float(balance - amount)
    if t["status"] == "on_notice" and t["notice_reason"] == "arrears" and balance == amount:
        t.update(status="active", notice_served_on=None, notice_reason=None, eviction_date=None)
    return dict(rec)


def lend_key(db, a):
    today = _today(db)
    g = _get(db, "gardeners", a["gardener_id"], "gardener")
    site = _get(db, "sites", a["site_id"], "site")
    t = db["tenancies"].get(g["current_tenancy_id"]) if g["current_tenancy_id"] else None
    if t is None or t["status"] != "active" or t["site_id"] != site["id"]:
        raise RefError("gardener has no active tenancy on this site")
    if _key_out(db, g["id"]):
        raise RefError("gardener already holds a key")
    if site["keys_out"] >= site["keys_total"]:
        raise RefError("no key available at this site")
    if t["balance_due"] > 0 and date.fromisoformat(t["rent_due_on"]) < today:
        raise RefError("rent is overdue")
    kid = _next_id(db, "key_loans", "K")
    rec = {"id": kid, "gardener_id": g["id"], "site_id": site["id"], "lent_on": today.isoformat(),
           "due_on": (today + timedelta(days=7)).isoformat(), "status": "out", "returned_on": None,
           "late_fee": None}
    db["key_loans"][kid] = rec
    site["keys_out"] += 1
    return dict(rec)


def return_key(db, a):
    today = _today(db)
    k = _get(db, "key_loans", a["loan_id"], "key loan")
    if k["status"] != "out":
        raise RefError("key already returned")
    late = max(0, (today - date.fromisoformat(k["due_on"])).days)
    fee = min(LATE_FEE_PER_DAY * late, LATE_FEE_CAP)
    k.update(status="returned", returned_on=today.isoformat(), late_fee=float(fee))
    db["sites"][k["site_id"]]["keys_out"] -= 1
    g = db["gardeners"].get(k["gardener_id"])
    if fee > 0 and g and g["current_tenancy_id"]:
        t = db["tenancies"][g["current_tenancy_id"]]
        t["balance_due"] = float(_money(t["balance_due"]) + fee)
    return dict(k)


def invoke(db, name, args):
    if not isinstance(name, str) or name not in SPECS:
        raise RefError("unknown tool %r" % (name,))
    return globals()[name](db, _check_args(name, args))
