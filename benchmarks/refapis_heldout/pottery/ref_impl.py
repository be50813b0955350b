"""Reference implementation of the Claybank Community Pottery Studio API."""
import datetime


class RefError(Exception):
    pass


WRITE_TOOLS = {"renew_membership", "purchase_clay", "book_wheel", "cancel_wheel_booking",
               "close_wheel_booking", "update_firing_status", "reserve_kiln_space",
               "cancel_kiln_reservation", "collect_pieces"}

TIERS = ["basic", "standard", "premium"]
MONTHLY_FEE = {"basic": 4500, "standard": 7500, "premium": 12000}
WHEEL_RATE = {"basic": 1400, "standard": 1100, "premium": 900}
WHEEL_ALLOWANCE = {"basic": 4, "standard": 12, "premium": 30}
BOOKING_WINDOW = {"basic": 7, "standard": 14, "premium": 21}
SHELF_RATE = {"04": 600, "6": 800, "10": 1100}
KILN_DISCOUNT = {"basic": 0, "standard": 10, "premium": 20}
CLAY_DISCOUNT = {"basic": 0, "standard": 5, "premium": 10}
MAX_SHELVES = {"basic": 2, "standard": 3, "premium": 4}
NO_SHOW_FEE = 800
STORAGE_FEE = 500
BOOKING_STATUSES = ["booked", "completed", "no_show", "cancelled"]
FIRING_STATUSES = ["open", "loading", "firing", "completed", "cancelled"]
LOAD_STATUSES = ["reserved", "fired", "collected", "cancelled"]

# name -> (kind, required); kind: "str", "int", "bool", "date" or a list of allowed values
SPECS = {
    "get_member": {"member_id": ("str", True)},
    "renew_membership": {"member_id": ("str", True), "tier": (TIERS, True),
                         "months": ([1, 3, 6, 12], True)},
    "list_clays": {"query": ("str", False),
                   "body_type": (["stoneware", "porcelain", "earthenware"], False),
                   "in_stock": ("bool", False)},
    "purchase_clay": {"member_id": ("str", True), "clay_id": ("str", True), "bags": ("int", True)},
    "list_wheel_bookings": {"member_id": ("str", False), "date": ("date", False),
                            "status": (BOOKING_STATUSES, False), "wheel_no": ("int", False)},
    "book_wheel": {"member_id": ("str", True), "wheel_no": ("int", True), "date": ("date", True),
                   "start_hour": ("int", True), "hours": ("int", True)},
    "cancel_wheel_booking": {"booking_id": ("str", True)},
    "close_wheel_booking": {"booking_id": ("str", True),
                            "outcome": (["completed", "no_show"], True)},
    "list_firings": {"firing_type": (["bisque", "glaze"], False),
                     "kiln": (["north_electric", "south_electric", "gas_reduction"], False),
                     "status": (FIRING_STATUSES, False), "from_date": ("date", False),
                     "to_date": ("date", False), "min_free_shelves": ("int", False)},
    "update_firing_status": {"firing_id": ("str", True),
                             "status": (["loading", "firing", "completed", "cancelled"], True)},
    "list_kiln_loads": {"member_id": ("str", False), "firing_id": ("str", False),
                        "status": (LOAD_STATUSES, False)},
    "reserve_kiln_space": {"member_id": ("str", True), "firing_id": ("str", True),
                           "clay_id": ("str", True), "shelves": ("int", True),
                           "pieces": ("int", True)},
    "cancel_kiln_reservation": {"load_id": ("str", True)},
    "collect_pieces": {"load_id": ("str", True)},
}


def _date(s):
    try:
        if len(s) != 10:
            raise ValueError
        return datetime.date.fromisoformat(s)
    except (ValueError, TypeError):
        raise RefError("bad date: %r" % (s,))


def _check(name, args):
    if name not in SPECS:
        raise RefError("unknown tool %s" % name)
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    spec = SPECS[name]
    for k in args:
        if k not in spec:
            raise RefError("unknown argument %s" % k)
    out = {}
    for k, (kind, req) in spec.items():
        if k not in args or args[k] is None:
            if req:
                raise RefError("missing argument %s" % k)
            continue
        v = args[k]
        if kind == "str" and not isinstance(v, str):
            raise RefError("%s must be a string" % k)
        if kind == "int" and (not isinstance(v, int) or isinstance(v, bool)):
            raise RefError("%s must be an integer" % k)
        if kind == "bool" and not isinstance(v, bool):
            raise RefError("%s must be a boolean" % k)
        if kind == "date":
            if not isinstance(v, str):
                raise RefError("%s must be a date" % k)
            _date(v)
        if isinstance(kind, list):
            if isinstance(v, bool) or type(v) is not type(kind[0]) or v not in kind:
                raise RefError("%s must be one of %s" % (k, kind))
        out[k] = v
    return out


def _cents(x):
    return int(round(x * 100))


def _money(c):
    return round(c / 100.0, 2)


def _pct(cents, pct):
    """cents * pct / 100, rounded half up to a whole cent (non-negative amounts)."""
    return (cents * pct * 2 + 100) // 200


def _get(db, coll, key, what):
    rec = db[coll].get(key)
    if rec is None:
        raise RefError("%s %s not found" % (what, key))
    return rec


def _add_months(d, n):
    y, m = divmod(d.month - 1 + n, 12)
    y, m = d.year + y, m + 1
    for day in (d.day, 30, 29, 28):
        try:
            return datetime.date(y, m, min(d.day, day))
        except ValueError:
            continue


def _next_id(coll, prefix, width):
    n = max([int(k[len(prefix):]) for k in coll] + [0]) + 1
    return "%s%0*d" % (prefix, width, n)


def _charge(member, cents):
    member["studio_credit"] = _money(_cents(member["studio_credit"]) - cents)


def _credit(member, cents):
    member["studio_credit"] = _money(_cents(member["studio_credit"]) + cents)


def _require_active(m):
    if m["status"] != "active":
        raise RefError("member %s is %s" % (m["id"], m["status"]))


def invoke(db, name, args):
    a = _check(name, args)
    today = _date(db["meta"]["today"])
    return globals()["_op_" + name](db, a, today)


# ---------------------------------------------------------------- members / clay
def _op_get_member(db, a, today):
    return dict(_get(db, "members", a["member_id"], "member"))


def _op_renew_membership(db, a, today):
    m = _get(db, "members", a["member_id"], "member")
    _require_active(m)
    exp = _date(m["expires_on"])
    if exp > today + datetime.timedelta(days=30):
        raise RefError("renewal opens 30 days before expiry")
    billed = 11 if a["months"] == 12 else a["months"]
    fee = MONTHLY_FEE[a["tier"]] * billed
    if _cents(m["studio_credit"]) < fee:
        raise RefError("insufficient studio credit")
    base = exp if exp >= today else today
    _charge(m, fee)
    m["tier"] = a["tier"]
    m["expires_on"] = _add_months(base, a["months"]).isoformat()
    return dict(m)


def _op_list_clays(db, a, today):
    out = []
    for c in sorted(db["clays"].values(), key=lambda r: r["id"]):
        if "query" in a and a["query"].lower() not in c["name"].lower():
            continue
        if "body_type" in a and c["body_type"] != a["body_type"]:
            continue
        if a.get("in_stock") and not (c["stock_bags"] > 0 and c["status"] == "stocked"):
            continue
        out.append(dict(c))
    return out


def _op_purchase_clay(db, a, today):
    m = _get(db, "members", a["member_id"], "member")
    c = _get(db, "clays", a["clay_id"], "clay")
    _require_active(m)
    if c["status"] != "stocked":
        raise RefError("clay body is discontinued")
    if not 1 <= a["bags"] <= 10:
        raise RefError("between 1 and 10 bags per purchase")
    if a["bags"] > c["stock_bags"]:
        raise RefError("not enough bags in stock")
    subtotal = _cents(c["price_per_bag"]) * a["bags"]
    disc = CLAY_DISCOUNT[m["tier"]]
    total = subtotal - _pct(subtotal, disc)
    if _cents(m["studio_credit"]) < total:
        raise RefError("insufficient studio credit")
    _charge(m, total)
    c["stock_bags"] -= a["bags"]
    return {"member_id": m["id"], "clay_id": c["id"], "bags": a["bags"],
            "unit_price": c["price_per_bag"], "discount_percent": disc,
            "total": _money(total), "studio_credit_after": m["studio_credit"],
            "stock_bags_after": c["stock_bags"]}


# ---------------------------------------------------------------- wheel time
def _op_list_wheel_bookings(db, a, today):
    out = []
    for b in sorted(db["wheel_bookings"].values(), key=lambda r: r["id"]):
        if any(k in a and b[k] != a[k] for k in ("member_id", "date", "status", "wheel_no")):
            continue
        out.append(dict(b))
    return out


def _op_book_wheel(db, a, today):
    m = _get(db, "members", a["member_id"], "member")
    _require_active(m)
    day = _date(a["date"])
    meta = db["meta"]
    if not 1 <= a["wheel_no"] <= meta["wheel_count"]:
        raise RefError("no such wheel")
    if not 1 <= a["hours"] <= 3:
        raise RefError("sessions are 1 to 3 hours")
    if a["start_hour"] < meta["open_hour"] or a["start_hour"] + a["hours"] > meta["close_hour"]:
        raise RefError("outside opening hours")
    if day < today or day > today + datetime.timedelta(days=BOOKING_WINDOW[m["tier"]]):
        raise RefError("date outside the booking window")
    if day.weekday() == 0:
        raise RefError("studio closed on Mondays")
    if _date(m["expires_on"]) < day:
        raise RefError("membership not current on that date")
    if m["no_show_count"] >= 3:
        raise RefError("booking privileges suspended after repeated no-shows")
    live = [b for b in db["wheel_bookings"].values() if b["status"] != "cancelled"]
    if any(b["member_id"] == m["id"] and b["date"] == a["date"] for b in live):
        raise RefError("member already has a wheel session that day")
    s, e = a["start_hour"], a["start_hour"] + a["hours"]
    for b in live:
        if (b["wheel_no"] == a["wheel_no"] and b["date"] == a["date"]
                and b["start_hour"] < e and s < b["start_hour"] + b["hours"]):
            raise RefError("wheel already booked at that time")
    used = sum(b["hours"] for b in live
               if b["member_id"] == m["id"] and b["date"][:7] == a["date"][:7])
    over = max(0, a["hours"] - max(0, WHEEL_ALLOWANCE[m["tier"]] - used))
    fee = over * WHEEL_RATE[m["tier"]]
    if _cents(m["studio_credit"]) < fee:
        raise RefError("insufficient studio credit")
    _charge(m, fee)
    bid = _next_id(db["wheel_bookings"], "B", 4)
    rec = {"id": bid, "member_id": m["id"], "wheel_no": a["wheel_no"], "date": a["date"],
           "start_hour": s, "hours": a["hours"], "fee": _money(fee), "status": "booked",
           "created_on": today.isoformat(), "cancelled_on": None}
    db["wheel_bookings"][bid] = rec
    return dict(rec)


def _op_cancel_wheel_booking(db, a, today):
    b = _get(db, "wheel_bookings", a["booking_id"], "booking")
    if b["status"] != "booked":
        raise RefError("only booked sessions can be cancelled")
    day = _date(b["date"])
    if day < today:
        raise RefError("session date has passed")
    if day > today:
        m = db["members"].get(b["member_id"])
        if m is not None:
            _credit(m, _cents(b["fee"]))
    b["status"] = "cancelled"
    b["cancelled_on"] = today.isoformat()
    return dict(b)


def _op_close_wheel_booking(db, a, today):
    b = _get(db, "wheel_bookings", a["booking_id"], "booking")
    if b["status"] != "booked":
        raise RefError("only booked sessions can be closed")
    if _date(b["date"]) > today:
        raise RefError("session has not happened yet")
    b["status"] = a["outcome"]
    if a["outcome"] == "no_show":
        m = db["members"].get(b["member_id"])
        if m is not None:
            m["no_show_count"] += 1
            _charge(m, NO_SHOW_FEE)
    return dict(b)


# ---------------------------------------------------------------- kiln
def _op_list_firings(db, a, today):
    lo = _date(a["from_date"]) if "from_date" in a else None
    hi = _date(a["to_date"]) if "to_date" in a else None
    out = []
    for f in sorted(db["firings"].values(), key=lambda r: r["id"]):
        if any(k in a and f[k] != a[k] for k in ("firing_type", "kiln", "status")):
            continue
        day = _date(f["scheduled_on"])
        if (lo and day < lo) or (hi and day > hi):
            continue
        if "min_free_shelves" in a and f["shelf_capacity"] - f["shelves_reserved"] < a["min_free_shelves"]:
            continue
        out.append(dict(f))
    return out


def _op_update_firing_status(db, a, today):
    f = _get(db, "firings", a["firing_id"], "firing")
    new, cur = a["status"], f["status"]
    allowed = {"open": {"loading", "cancelled"}, "loading": {"firing", "cancelled"},
               "firing": {"completed"}}
    if new not in allowed.get(cur, set()):
        raise RefError("cannot move a firing from %s to %s" % (cur, new))
    day = _date(f["scheduled_on"])
    if new == "loading" and today < day - datetime.timedelta(days=1):
        raise RefError("loading starts at most one day before the firing")
    if new == "firing" and today < day:
        raise RefError("cannot fire before the scheduled date")
    loads = [l for l in sorted(db["kiln_loads"].values(), key=lambda r: r["id"])
             if l["firing_id"] == f["id"] and l["status"] == "reserved"]
    if new == "completed":
        for l in loads:
            l["status"] = "fired"
            l["fired_on"] = today.isoformat()
    if new == "cancelled":
        for l in loads:
            l["status"] = "cancelled"
            l["cancelled_on"] = today.isoformat()
            m = db["members"].get(l["member_id"])
            if m is not None:
                _credit(m, _cents(l["fee"]))
        f["shelves_reserved"] = 0
    f["status"] = new
    return dict(f)


def _op_list_kiln_loads(db, a, today):
    return [dict(l) for l in sorted(db["kiln_loads"].values(), key=lambda r: r["id"])
            if not any(k in a and l[k] != a[k] for k in ("member_id", "firing_id", "status"))]


def _op_reserve_kiln_space(db, a, today):
    m = _get(db, "members", a["member_id"], "member")
    f = _get(db, "firings", a["firing_id"], "firing")
    c = _get(db, "clays", a["clay_id"], "clay")
    _require_active(m)
    day = _date(f["scheduled_on"])
    if f["status"] != "open":
        raise RefError("firing is not open for reservations")
    if today > day - datetime.timedelta(days=2):
        raise RefError("reservations close two days before the firing")
    if _date(m["expires_on"]) < day:
        raise RefError("membership not current on the firing date")
    if f["cone"] == "10" and c["rated_cone"] != "10":
        raise RefError("clay body not rated for cone 10")
    if not 1 <= a["shelves"] <= MAX_SHELVES[m["tier"]]:
        raise RefError("shelf count outside the tier limit")
    if not 1 <= a["pieces"] <= 10 * a["shelves"]:
        raise RefError("at most 10 pieces per shelf")
    if any(l["firing_id"] == f["id"] and l["member_id"] == m["id"] and l["status"] != "cancelled"
           for l in db["kiln_loads"].values()):
        raise RefError("member already has space in this firing")
    if f["shelves_reserved"] + a["shelves"] > f["shelf_capacity"]:
        raise RefError("not enough free shelves")
    base = a["shelves"] * SHELF_RATE[f["cone"]]
    fee = base - _pct(base, KILN_DISCOUNT[m["tier"]])
    if _cents(m["studio_credit"]) < fee:
        raise RefError("insufficient studio credit")
    _charge(m, fee)
    f["shelves_reserved"] += a["shelves"]
    lid = _next_id(db["kiln_loads"], "L", 4)
    rec = {"id": lid, "firing_id": f["id"], "member_id": m["id"], "clay_id": c["id"],
           "shelves": a["shelves"], "pieces": a["pieces"], "fee": _money(fee),
           "status": "reserved", "created_on": today.isoformat(), "fired_on": None,
           "collected_on": None, "cancelled_on": None, "storage_fee": 0.0}
    db["kiln_loads"][lid] = rec
    return dict(rec)


def _op_cancel_kiln_reservation(db, a, today):
    l = _get(db, "kiln_loads", a["load_id"], "kiln load")
    if l["status"] != "reserved":
        raise RefError("only reserved space can be cancelled")
    f = _get(db, "firings", l["firing_id"], "firing")
    if f["status"] != "open":
        raise RefError("firing is already being loaded")
    days_left = (_date(f["scheduled_on"]) - today).days
    fee = _cents(l["fee"])
    refund = fee if days_left >= 3 else _pct(fee, 50)
    m = db["members"].get(l["member_id"])
    if m is not None:
        _credit(m, refund)
    f["shelves_reserved"] = max(0, f["shelves_reserved"] - l["shelves"])
    l["status"] = "cancelled"
    l["cancelled_on"] = today.isoformat()
    return dict(l)


def _op_collect_pieces(db, a, today):
    l = _get(db, "kiln_loads", a["load_id"], "kiln load")
    if l["status"] != "fired":
        raise RefError("pieces are not ready for collection")
    if (today - _date(l["fired_on"])).days > 21:
        l["storage_fee"] = _money(STORAGE_FEE)
        m = db["members"].get(l["member_id"])
        if m is not None:
            _charge(m, STORAGE_FEE)
    l["status"] = "collected"
    l["collected_on"] = today.isoformat()
    return dict(l)
