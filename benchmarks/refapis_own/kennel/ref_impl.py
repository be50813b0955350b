"""Reference implementation of the Barkwood Lodge boarding & daycare API (stdlib only)."""
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass


WRITE_TOOLS = {"create_stay", "check_in_stay", "check_out_stay", "cancel_stay", "mark_stay_no_show",
               "add_stay_service", "book_daycare_visit", "cancel_daycare_visit", "record_payment",
               "update_vaccinations"}

_S = str.split
PARAMS = {  # tool -> (required, optional)
    "get_owner": (_S("owner_id"), []),
    "search_pets": ([], _S("query owner_id species")),
    "find_available_runs": (_S("pet_id check_in_date check_out_date"), []),
    "list_stays": ([], _S("owner_id pet_id run_id status from_date to_date")),
    "create_stay": (_S("pet_id run_id check_in_date check_out_date"), []),
    "check_in_stay": (_S("stay_id"), []), "check_out_stay": (_S("stay_id"), []),
    "cancel_stay": (_S("stay_id reason"), []), "mark_stay_no_show": (_S("stay_id"), []),
    "add_stay_service": (_S("stay_id service_id"), _S("quantity")),
    "book_daycare_visit": (_S("pet_id visit_date session"), []),
    "cancel_daycare_visit": (_S("visit_id"), []),
    "record_payment": (_S("owner_id amount method"), []),
    "update_vaccinations": (_S("pet_id"), _S("rabies_expires_on core_vaccine_expires_on bordetella_expires_on")),
}

SIZES = ("small", "medium", "large", "giant")
DOG_RATE = {"small": Decimal("38.00"), "medium": Decimal("45.00"), "large": Decimal("52.00"),
            "giant": Decimal("60.00")}
CAT_RATE = Decimal("32.00")
SIZE_FACTOR = {"small": Decimal("1.00"), "medium": Decimal("1.25"), "large": Decimal("1.50"),
               "giant": Decimal("1.75")}
DAYCARE_PRICE = {"full_day": Decimal("32.00"), "half_day": Decimal("20.00")}
STAY_STATUSES = ("booked", "checked_in", "checked_out", "cancelled", "no_show")
CANCEL_REASONS = ("owner_request", "pet_unwell", "travel_changed", "other")
METHODS = ("card", "cash", "bank_transfer")
BALANCE_LIMIT = Decimal("400.00")
CENT = Decimal("0.01")

# ---------------------------------------------------------------- helpers
def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)

def D(x):
    return Decimal(str(x))

def money(x):
    return float(q2(x))

def _today(db):
    return _dt.date.fromisoformat(db["meta"]["today"])

def _present(args, key):
    return key in args and args[key] is not None

def _req(args, key):
    if not _present(args, key):
        raise RefError(f"{key} is required")
    return args[key]

def _arg(args, key, required):
    return _req(args, key) if required else args.get(key)

def _text(args, key, required=True):
    v = _arg(args, key, required)
    if v is not None and (not isinstance(v, str) or not v.strip()):
        raise RefError(f"{key} must be non-blank text")
    return v

def _date(args, key, required=True):
    v = _arg(args, key, required)
    if v is None:
        return None
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError(f"{key} must be YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{key} is not a calendar date")

def _enum(args, key, values, required=True):
    v = _arg(args, key, required)
    if v is not None and (not isinstance(v, str) or v not in values):
        raise RefError(f"{key} must be one of {values}")
    return v

def _get(db, coll, key, required=True, args=None):
    rid = _arg(args, key, required)
    if rid is not None and (not isinstance(rid, str) or rid not in db[coll]):
        raise RefError(f"{key} {rid!r} not found")
    return None if rid is None else db[coll][rid]

def _next_id(coll):
    best = None
    for k in coll:
        m = re.fullmatch(r"([A-Za-z]+)(\d+)", k)
        if m and (best is None or int(m.group(2)) > int(best[1])):
            best = (m.group(1), m.group(2))
    return f"{best[0]}{int(best[1]) + 1:0{len(best[1])}d}"

def _log(db, action, owner_id, record_id):
    lid = _next_id(db["activity_log"])
    db["activity_log"][lid] = {"log_id": lid, "logged_on": db["meta"]["today"], "action": action,
                               "owner_id": owner_id, "record_id": record_id}

def _charge(owner, amount):
    owner["balance"] = money(D(owner["balance"]) + amount)

def _check_standing(owner):
    if D(owner["balance"]) > BALANCE_LIMIT:
        raise RefError("owner balance above 400.00; payment needed before new bookings")
    if owner["no_show_count"] >= 3:
        raise RefError("owner has three or more no-shows")

def _vacc_ok(pet, through):
    keys = ["rabies_expires_on", "core_vaccine_expires_on"]
    if pet["species"] == "dog":
        keys.append("bordetella_expires_on")
    for k in keys:
        if not pet.get(k) or _dt.date.fromisoformat(pet[k]) < through:
            return False
    return True

def _span(db, stay):
    """Nights a booked or checked-in stay holds: [start, end)."""
    start = _dt.date.fromisoformat(stay["check_in_date"])
    end = _dt.date.fromisoformat(stay["check_out_date"])
    if stay["status"] == "checked_in":
        end = max(end, _today(db) + _dt.timedelta(days=1))
    return start, end

def _active(db):
    return [s for s in db["stays"].values() if s["status"] in ("booked", "checked_in")]

def _stay_dates(db, args):
    cin, cout = _date(args, "check_in_date"), _date(args, "check_out_date")
    today = _today(db)
    if cin < today:
        raise RefError("check-in date is in the past")
    if (cin - today).days > 180:
        raise RefError("bookings open at most 180 days ahead")
    if cout <= cin:
        raise RefError("check-out must be after check-in")
    if (cout - cin).days > 28:
        raise RefError("stays are limited to 28 nights")
    return cin, cout

def _run_fits(run, pet):
    return (run["status"] == "open" and run["species"] == pet["species"]
            and SIZES.index(pet["size"]) <= SIZES.index(run["max_size"]))

def _run_has_room(db, run, pet, cin, cout):
    occupants = []
    for s in _active(db):
        if s["run_id"] == run["run_id"]:
            a, b = _span(db, s)
            if a < cout and cin < b:
                occupants.append((a, b, s["owner_id"]))
    d = cin
    while d < cout:
        here = [o for a, b, o in occupants if a <= d < b]
        if len(here) >= run["capacity"] or any(o != pet["owner_id"] for o in here):
            return False
        d += _dt.timedelta(days=1)
    return True

# ---------------------------------------------------------------- reads
def get_owner(db, args):
    return _get(db, "owners", "owner_id", args=args)

def search_pets(db, args):
    q = _text(args, "query", required=False)
    owner = _get(db, "owners", "owner_id", required=False, args=args)
    species = _enum(args, "species", ("dog", "cat"), required=False)
    ql = q.lower() if q else None
    return [p for _, p in sorted(db["pets"].items())
            if (not owner or p["owner_id"] == owner["owner_id"]) and (not species or p["species"] == species)
            and (not ql or ql in p["name"].lower() or ql in p["breed"].lower())]

def find_available_runs(db, args):
    pet = _get(db, "pets", "pet_id", args=args)
    cin, cout = _stay_dates(db, args)
    return [db["runs"][r] for r in sorted(db["runs"])
            if _run_fits(db["runs"][r], pet) and _run_has_room(db, db["runs"][r], pet, cin, cout)]

def list_stays(db, args):
    owner = _get(db, "owners", "owner_id", required=False, args=args)
    pet = _get(db, "pets", "pet_id", required=False, args=args)
    run = _get(db, "runs", "run_id", required=False, args=args)
    status = _enum(args, "status", STAY_STATUSES, required=False)
    lo, hi = _date(args, "from_date", False), _date(args, "to_date", False)
    if lo and hi and hi < lo:
        raise RefError("to_date before from_date")
    out = []
    for sid in sorted(db["stays"]):
        s = db["stays"][sid]
        cin = _dt.date.fromisoformat(s["check_in_date"])
        if ((owner and s["owner_id"] != owner["owner_id"]) or (pet and s["pet_id"] != pet["pet_id"])
                or (run and s["run_id"] != run["run_id"]) or (status and s["status"] != status)
                or (lo and cin < lo) or (hi and cin > hi)):
            continue
        out.append(s)
    return out

# ---------------------------------------------------------------- boarding writes
def create_stay(db, args):
    pet = _get(db, "pets", "pet_id", args=args)
    run = _get(db, "runs", "run_id", args=args)
    cin, cout = _stay_dates(db, args)
    owner = db["owners"][pet["owner_id"]]
    if run["status"] != "open":
        raise RefError("run is closed for maintenance")
    if not _run_fits(run, pet):
        raise RefError("run does not suit this pet")
    _check_standing(owner)
    if not _vacc_ok(pet, cout):
        raise RefError("vaccinations do not cover the stay")
    for s in _active(db):
        if s["pet_id"] == pet["pet_id"]:
            a, b = _span(db, s)
            if a < cout and cin < b:
                raise RefError("pet already has a stay over these dates")
    if not _run_has_room(db, run, pet, cin, cout):
        raise RefError("run is full on at least one night")
    nights = (cout - cin).days
    rate = (CAT_RATE if pet["species"] == "cat" else DOG_RATE[pet["size"]]) + D(run["nightly_surcharge"])
    lodging = rate * nights
    pct = (10 if nights >= 7 else 0) + (5 if owner["completed_stays"] >= 5 else 0)
    discount = q2(lodging * pct / 100)
    sid = _next_id(db["stays"])
    stay = {"stay_id": sid, "pet_id": pet["pet_id"], "owner_id": owner["owner_id"],
            "run_id": run["run_id"], "check_in_date": cin.isoformat(),
            "check_out_date": cout.isoformat(), "nights": nights, "nightly_rate": money(rate),
            "lodging_amount": money(lodging), "discount_amount": money(discount),
            "services_amount": 0.0, "late_fee": 0.0, "total_amount": money(lodging - discount),
            "status": "booked", "booked_on": db["meta"]["today"], "checked_in_on": None,
            "checked_out_on": None, "cancelled_on": None, "cancel_reason": None,
            "cancellation_fee": None, "no_show_on": None, "no_show_fee": None}
    db["stays"][sid] = stay
    _log(db, "stay_booked", owner["owner_id"], sid)
    return stay

def _stay(db, args, *statuses):
    s = _get(db, "stays", "stay_id", args=args)
    if s["status"] not in statuses:
        raise RefError(f"stay is {s['status']}")
    return s

def check_in_stay(db, args):
    s = _stay(db, args, "booked")
    if s["check_in_date"] != db["meta"]["today"]:
        raise RefError("check-in only on the booked check-in date")
    if not _vacc_ok(db["pets"][s["pet_id"]], _dt.date.fromisoformat(s["check_out_date"])):
        raise RefError("vaccinations do not cover the stay")
    s["status"] = "checked_in"
    s["checked_in_on"] = db["meta"]["today"]
    _log(db, "stay_checked_in", s["owner_id"], s["stay_id"])
    return s

def check_out_stay(db, args):
    s = _stay(db, args, "checked_in")
    late = max(0, (_today(db) - _dt.date.fromisoformat(s["check_out_date"])).days)
    s["late_fee"] = money(D(s["nightly_rate"]) * late)
    total = D(s["lodging_amount"]) - D(s["discount_amount"]) + D(s["services_amount"]) + D(s["late_fee"])
    s["total_amount"] = money(total)
    s["status"] = "checked_out"
    s["checked_out_on"] = db["meta"]["today"]
    owner = db["owners"][s["owner_id"]]
    _charge(owner, total)
    owner["completed_stays"] += 1
    if owner["completed_stays"] % 5 == 0:
        owner["daycare_credits"] += 1
    _log(db, "stay_checked_out", s["owner_id"], s["stay_id"])
    return s

def cancel_stay(db, args):
    s = _stay(db, args, "booked")
    reason = _enum(args, "reason", CANCEL_REASONS)
    days = (_dt.date.fromisoformat(s["check_in_date"]) - _today(db)).days
    if days < 0:
        raise RefError("check-in date has passed; record a no-show instead")
    fee = D(s["nightly_rate"]) if days <= 1 else Decimal("0")
    s.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason,
             cancellation_fee=money(fee))
    _charge(db["owners"][s["owner_id"]], fee)
    _log(db, "stay_cancelled", s["owner_id"], s["stay_id"])
    return s

def mark_stay_no_show(db, args):
    s = _stay(db, args, "booked")
    if s["check_in_date"] >= db["meta"]["today"]:
        raise RefError("a no-show can be recorded only after the check-in date")
    fee = D(s["nightly_rate"]) * min(s["nights"], 2)
    s.update(status="no_show", no_show_on=db["meta"]["today"], no_show_fee=money(fee))
    owner = db["owners"][s["owner_id"]]
    _charge(owner, fee)
    owner["no_show_count"] += 1
    _log(db, "stay_no_show", s["owner_id"], s["stay_id"])
    return s

def add_stay_service(db, args):
    s = _stay(db, args, "booked", "checked_in")
    sv = _get(db, "services", "service_id", args=args)
    qty = args.get("quantity", 1)
    if qty is None:
        qty = 1
    if isinstance(qty, bool) or not isinstance(qty, int) or qty < 1:
        raise RefError("quantity must be a positive integer")
    pet = db["pets"][s["pet_id"]]
    if not sv["active"]:
        raise RefError("service is no longer offered")
    if sv["species"] not in ("any", pet["species"]):
        raise RefError("service not offered for this species")
    earlier = [o for o in db["service_orders"].values()
               if o["stay_id"] == s["stay_id"] and o["service_id"] == sv["service_id"]]
    if sv["unit"] == "per_stay":
        if qty != 1:
            raise RefError("per-stay services are ordered once with quantity 1")
        if earlier:
            raise RefError("service already on this stay")
    elif sum(o["quantity"] for o in earlier) + qty > s["nights"]:
        raise RefError("more nights of this service than the stay has")
    unit = D(sv["price"])
    if sv["size_priced"]:
        unit = q2(unit * SIZE_FACTOR[pet["size"]])
    amount = unit * qty
    oid = _next_id(db["service_orders"])
    order = {"order_id": oid, "stay_id": s["stay_id"], "service_id": sv["service_id"],
             "quantity": qty, "unit_price": money(unit), "amount": money(amount),
             "ordered_on": db["meta"]["today"]}
    db["service_orders"][oid] = order
    s["services_amount"] = money(D(s["services_amount"]) + amount)
    s["total_amount"] = money(D(s["total_amount"]) + amount)
    _log(db, "service_added", s["owner_id"], oid)
    return order

# ---------------------------------------------------------------- daycare
def book_daycare_visit(db, args):
    pet = _get(db, "pets", "pet_id", args=args)
    d = _date(args, "visit_date")
    session = _enum(args, "session", tuple(DAYCARE_PRICE))
    today = _today(db)
    if not (0 <= (d - today).days <= 30):
        raise RefError("daycare can be booked from today up to 30 days ahead")
    if pet["species"] != "dog" or not pet["daycare_approved"]:
        raise RefError("pet is not approved for daycare")
    day = db["daycare_days"].get(d.isoformat())
    if day is None:
        raise RefError("daycare is closed that day")
    if day["booked_count"] >= day["capacity"]:
        raise RefError("daycare is full that day")
    owner = db["owners"][pet["owner_id"]]
    _check_standing(owner)
    if not _vacc_ok(pet, d):
        raise RefError("vaccinations expired for the visit date")
    for v in db["daycare_visits"].values():
        if v["pet_id"] == pet["pet_id"] and v["visit_date"] == d.isoformat() and v["status"] != "cancelled":
            raise RefError("pet already has a visit that day")
    price = DAYCARE_PRICE[session]
    if owner["daycare_credits"] >= 1:
        owner["daycare_credits"] -= 1
        paid = "credit"
    else:
        _charge(owner, price)
        paid = "balance"
    day["booked_count"] += 1
    vid = _next_id(db["daycare_visits"])
    visit = {"visit_id": vid, "pet_id": pet["pet_id"], "owner_id": owner["owner_id"],
             "visit_date": d.isoformat(), "session": session, "price": money(price),
             "paid_with": paid, "status": "booked", "booked_on": db["meta"]["today"],
             "cancelled_on": None, "refunded": None}
    db["daycare_visits"][vid] = visit
    _log(db, "daycare_booked", owner["owner_id"], vid)
    return visit

def cancel_daycare_visit(db, args):
    v = _get(db, "daycare_visits", "visit_id", args=args)
    if v["status"] != "booked":
        raise RefError(f"visit is {v['status']}")
    today = db["meta"]["today"]
    if v["visit_date"] < today:
        raise RefError("visit date has passed")
    owner = db["owners"][v["owner_id"]]
    refund = v["visit_date"] > today
    if refund:
        if v["paid_with"] == "credit":
            owner["daycare_credits"] += 1
        else:
            _charge(owner, -D(v["price"]))
    v.update(status="cancelled", cancelled_on=today, refunded=refund)
    day = db["daycare_days"].get(v["visit_date"])
    if day:
        day["booked_count"] = max(0, day["booked_count"] - 1)
    _log(db, "daycare_cancelled", v["owner_id"], v["visit_id"])
    return v

# ---------------------------------------------------------------- money & records
def record_payment(db, args):
    owner = _get(db, "owners", "owner_id", args=args)
    amt = _req(args, "amount")
    if isinstance(amt, bool) or not isinstance(amt, (int, float)):
        raise RefError("amount must be a number")
    amt = D(amt)
    if amt.as_tuple().exponent < -2 or amt <= 0:
        raise RefError("amount must be positive with at most two decimals")
    method = _enum(args, "method", METHODS)
    if amt > D(owner["balance"]):
        raise RefError("payment exceeds the outstanding balance")
    _charge(owner, -amt)
    pid = _next_id(db["payments"])
    pay = {"payment_id": pid, "owner_id": owner["owner_id"], "amount": money(amt), "method": method,
           "received_on": db["meta"]["today"]}
    db["payments"][pid] = pay
    _log(db, "payment_recorded", owner["owner_id"], pid)
    return pay

def update_vaccinations(db, args):
    pet = _get(db, "pets", "pet_id", args=args)
    keys = ("rabies_expires_on", "core_vaccine_expires_on", "bordetella_expires_on")
    given = {k: _date(args, k, required=False) for k in keys if _present(args, k)}
    if not given:
        raise RefError("give at least one expiry date")
    if "bordetella_expires_on" in given and pet["species"] != "dog":
        raise RefError("bordetella is recorded for dogs only")
    today = _today(db)
    for k, d in given.items():
        if not (1 <= (d - today).days <= 1095):
            raise RefError(f"{k} must be after today and within three years")
    for k, d in given.items():
        pet[k] = d.isoformat()
    _log(db, "vaccinations_updated", pet["owner_id"], pet["pet_id"])
    return pet

def invoke(db, name, args):
    if name not in PARAMS:
        raise RefError(f"unknown tool {name}")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    required, optional = PARAMS[name]
    extra = set(args) - set(required) - set(optional)
    if extra:
        raise RefError(f"unknown arguments {sorted(extra)}")
    for k in required:
        _req(args, k)
    return globals()[name](db, args)
