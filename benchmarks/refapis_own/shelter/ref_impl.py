"""Reference implementation of the shelter adoption desk API."""
import copy
import datetime as dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"place_medical_hold", "clear_for_adoption", "submit_application", "advance_application",
               "close_application", "schedule_visit", "cancel_visit", "record_visit_outcome",
               "finalize_adoption", "return_adoption"}
SPECIES = ["dog", "cat", "rabbit", "guinea_pig"]
ANIMAL_STATUS = ["intake", "available", "medical_hold", "reserved", "adopted"]
APP_STATUS = ["submitted", "screening", "home_check", "approved", "rejected", "withdrawn", "completed"]
OPEN = ("submitted", "screening", "home_check", "approved")
VISIT_STATUS = ["scheduled", "completed", "no_show", "cancelled"]
GROUP_PCT = {"none": 0, "senior": 25, "veteran": 30, "volunteer": 15}
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# ------------------------------------------------------------------ helpers
def _check(args, spec):
    """spec: name -> (kind, required). kind: 'str', 'bool', 'int', 'date' or a list (enum)."""
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    unknown = set(args) - set(spec)
    if unknown:
        raise RefError(f"unknown arguments {sorted(unknown)}")
    out = {}
    for name, (kind, required) in spec.items():
        if name not in args or args[name] is None:
            if required:
                raise RefError(f"{name} is required")
            continue
        v = args[name]
        if kind == "bool":
            if not isinstance(v, bool):
                raise RefError(f"{name} must be a boolean")
        elif kind == "int":
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise RefError(f"{name} must be a non-negative integer")
        elif kind == "date":
            if not isinstance(v, str) or not DATE_RE.match(v):
                raise RefError(f"{name} must be YYYY-MM-DD")
            try:
                v = _d(v)
            except ValueError:
                raise RefError(f"{name} is not a real date")
        elif isinstance(kind, list):
            if v not in kind:
                raise RefError(f"{name} must be one of {kind}")
        else:
            if not isinstance(v, str) or not v.strip():
                raise RefError(f"{name} must be a non-empty string")
        out[name] = v
    return out


def _d(text):
    return dt.date.fromisoformat(text)


def _today(db):
    return _d(db["meta"]["today"])


def _get(db, coll, rid, label):
    if rid not in db[coll]:
        raise RefError(f"{label} {rid} not found")
    return db[coll][rid]


def _next_id(coll, prefix):
    nums = [k[len(prefix):] for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    width = max((len(n) for n in nums), default=4)
    top = max((int(n) for n in nums), default=0)
    return f"{prefix}{top + 1:0{width}d}"


def _money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _age(birth, on):  # whole years completed on `on`
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


def _base_fee(species, age):
    if species == "dog":
        return 325 if age < 1 else (250 if age <= 7 else 95)
    if species == "cat":
        return 150 if age < 1 else (110 if age <= 7 else 45)
    return 60 if species == "rabbit" else 30


def _cancel_visits(db, reason, animal_id=None, application_id=None):
    for v in db["visits"].values():
        if v["status"] == "scheduled" and animal_id in (None, v["animal_id"]) \
                and application_id in (None, v["application_id"]):
            v["status"], v["cancel_reason"] = "cancelled", reason


def _sorted(records):
    return [copy.deepcopy(r) for _, r in sorted(records, key=lambda kv: kv[0])]


# ------------------------------------------------------------------ reads
def list_animals(db, a):
    a = _check(a, {"species": (SPECIES, False), "status": (ANIMAL_STATUS, False), "name": ("str", False),
                   "good_with_kids": ("bool", False), "max_age_years": ("int", False)})
    today = _today(db)
    res = [(k, r) for k, r in db["animals"].items()
           if all(r[f] == a[f] for f in ("species", "status", "good_with_kids") if f in a)
           and ("name" not in a or a["name"].strip().lower() in r["name"].lower())
           and ("max_age_years" not in a or _age(_d(r["birth_date"]), today) <= a["max_age_years"])]
    return _sorted(res)


def find_adopters(db, a):
    a = _check(a, {"name": ("str", False), "email": ("str", False)})
    if not a:
        raise RefError("give a name or an email")
    res = [(k, r) for k, r in db["adopters"].items()
           if ("name" not in a or a["name"].strip().lower() in r["name"].lower())
           and ("email" not in a or a["email"].strip().lower() == r["email"].lower())]
    return _sorted(res)


def list_applications(db, a):
    a = _check(a, {"adopter_id": ("str", False), "animal_id": ("str", False), "status": (APP_STATUS, False)})
    if "adopter_id" in a:
        _get(db, "adopters", a["adopter_id"], "adopter")
    if "animal_id" in a:
        _get(db, "animals", a["animal_id"], "animal")
    res = [(k, r) for k, r in db["applications"].items()
           if all(r[f] == a[f] for f in ("adopter_id", "animal_id", "status") if f in a)]
    return _sorted(res)


def list_visits(db, a):
    a = _check(a, {"date": ("date", False), "status": (VISIT_STATUS, False), "animal_id": ("str", False),
                   "application_id": ("str", False)})
    if "animal_id" in a:
        _get(db, "animals", a["animal_id"], "animal")
    if "application_id" in a:
        _get(db, "applications", a["application_id"], "application")
    if "date" in a:
        a["date"] = a["date"].isoformat()
    res = [(k, r) for k, r in db["visits"].items()
           if all(r[f] == a[f] for f in ("date", "status", "animal_id", "application_id") if f in a)]
    return _sorted(res)


# ------------------------------------------------------------------ animals
def place_medical_hold(db, a):
    a = _check(a, {"animal_id": ("str", True), "reason": ("str", True), "hold_until": ("date", True)})
    animal = _get(db, "animals", a["animal_id"], "animal")
    today = _today(db)
    if animal["status"] not in ("intake", "available", "medical_hold"):
        raise RefError(f"a {animal['status']} animal cannot be put on medical hold")
    days = (a["hold_until"] - today).days
    if days < 1 or days > 30:
        raise RefError("hold_until must be 1 to 30 days after today")
    animal.update(status="medical_hold", hold_reason=a["reason"], hold_until=a["hold_until"].isoformat())
    _cancel_visits(db, "medical_hold", animal_id=animal["id"])
    return copy.deepcopy(animal)


def clear_for_adoption(db, a):
    a = _check(a, {"animal_id": ("str", True)})
    animal = _get(db, "animals", a["animal_id"], "animal")
    if animal["status"] not in ("intake", "medical_hold"):
        raise RefError("only intake or medical-hold animals can be cleared")
    if (_today(db) - _d(animal["intake_date"])).days < 5:
        raise RefError("the five-day stray hold has not passed")
    animal.update(status="available", hold_reason=None, hold_until=None)
    return copy.deepcopy(animal)


# ------------------------------------------------------------------ applications
def submit_application(db, a):
    a = _check(a, {"adopter_id": ("str", True), "animal_id": ("str", True)})
    person = _get(db, "adopters", a["adopter_id"], "adopter")
    animal = _get(db, "animals", a["animal_id"], "animal")
    if person["do_not_adopt"]:
        raise RefError("adopter is on the do-not-adopt list")
    if animal["status"] not in ("available", "medical_hold"):
        raise RefError(f"applications are not taken for {animal['status']} animals")
    mine = [r for r in db["applications"].values() if r["adopter_id"] == person["id"] and r["status"] in OPEN]
    if len(mine) >= 2:
        raise RefError("adopter already has two open applications")
    if any(r["animal_id"] == animal["id"] for r in mine):
        raise RefError("adopter already has an open application for this animal")
    if animal["species"] == "dog" and person["housing"] == "rent" and not person["landlord_approved"]:
        raise RefError("renters need landlord approval for a dog")
    if person["has_children"] and not animal["good_with_kids"]:
        raise RefError("animal is not suited to a home with children")
    today = _today(db).isoformat()
    rid = _next_id(db["applications"], "AP")
    rec = {"id": rid, "adopter_id": person["id"], "animal_id": animal["id"], "status": "submitted",
           "submitted_on": today, "updated_on": today, "approved_on": None, "closed_reason": None}
    db["applications"][rid] = rec
    person["open_applications"] += 1
    return copy.deepcopy(rec)


def advance_application(db, a):
    a = _check(a, {"application_id": ("str", True)})
    app = _get(db, "applications", a["application_id"], "application")
    person = db["adopters"][app["adopter_id"]]
    animal = db["animals"][app["animal_id"]]
    if app["status"] not in ("submitted", "screening", "home_check"):
        raise RefError(f"a {app['status']} application cannot be advanced")
    if person["do_not_adopt"]:
        raise RefError("adopter is on the do-not-adopt list")
    if app["status"] == "submitted":
        target = "screening"
    elif app["status"] == "screening":
        known = person["adoptions_count"] >= 1 and person["returns_count"] == 0
        target = "approved" if known else "home_check"
    else:
        target = "approved"
    today = _today(db).isoformat()
    if target == "approved":
        met = any(v["application_id"] == app["id"] and v["status"] == "completed"
                  for v in db["visits"].values())
        if not met:
            raise RefError("approval needs a completed meet-and-greet for this application")
        if animal["status"] != "available":
            raise RefError(f"animal is {animal['status']} and cannot be reserved")
        app["approved_on"] = today
        animal["status"] = "reserved"
    app.update(status=target, updated_on=today)
    return copy.deepcopy(app)


def close_application(db, a):
    a = _check(a, {"application_id": ("str", True), "outcome": (["rejected", "withdrawn"], True),
                   "reason": ("str", True)})
    app = _get(db, "applications", a["application_id"], "application")
    if app["status"] not in OPEN:
        raise RefError("application is already closed")
    was = app["status"]
    app.update(status=a["outcome"], closed_reason=a["reason"], updated_on=_today(db).isoformat())
    db["adopters"][app["adopter_id"]]["open_applications"] -= 1
    animal = db["animals"][app["animal_id"]]
    if was == "approved" and animal["status"] == "reserved":
        animal["status"] = "available"
    _cancel_visits(db, "application_closed", application_id=app["id"])
    return copy.deepcopy(app)


# ------------------------------------------------------------------ visits
def schedule_visit(db, a):
    a = _check(a, {"application_id": ("str", True), "date": ("date", True),
                   "slot": (list(db["meta"]["visit_slots"]), True)})
    app = _get(db, "applications", a["application_id"], "application")
    person = db["adopters"][app["adopter_id"]]
    animal = db["animals"][app["animal_id"]]
    today = _today(db)
    if app["status"] not in ("screening", "home_check"):
        raise RefError("visits are booked only for applications in screening or home check")
    if person["no_show_count"] >= 2:
        raise RefError("adopter has missed two visits and cannot book more")
    if animal["status"] != "available":
        raise RefError(f"animal is {animal['status']}")
    days = (a["date"] - today).days
    if days < 1 or days > 14:
        raise RefError("visits are booked 1 to 14 days ahead")
    if a["date"].weekday() == 0:
        raise RefError("the shelter is closed on Mondays")
    day = a["date"].isoformat()
    booked = [v for v in db["visits"].values() if v["status"] == "scheduled"]
    if any(v["application_id"] == app["id"] for v in booked):
        raise RefError("application already has a scheduled visit")
    same = [v for v in booked if v["date"] == day and v["slot"] == a["slot"]]
    if any(v["animal_id"] == animal["id"] for v in same):
        raise RefError("animal is already booked in that slot")
    if len(same) >= db["meta"]["rooms_per_slot"]:
        raise RefError("slot is full")
    rid = _next_id(db["visits"], "V")
    rec = {"id": rid, "application_id": app["id"], "animal_id": animal["id"], "adopter_id": person["id"],
           "date": day, "slot": a["slot"], "status": "scheduled", "cancel_reason": None}
    db["visits"][rid] = rec
    return copy.deepcopy(rec)


def cancel_visit(db, a):
    a = _check(a, {"visit_id": ("str", True), "reason": ("str", True)})
    v = _get(db, "visits", a["visit_id"], "visit")
    if v["status"] != "scheduled":
        raise RefError("only scheduled visits can be cancelled")
    if v["date"] < _today(db).isoformat():
        raise RefError("past visits need an outcome, not a cancellation")
    v.update(status="cancelled", cancel_reason=a["reason"])
    return copy.deepcopy(v)


def record_visit_outcome(db, a):
    a = _check(a, {"visit_id": ("str", True), "outcome": (["completed", "no_show"], True)})
    v = _get(db, "visits", a["visit_id"], "visit")
    if v["status"] != "scheduled":
        raise RefError("outcome already recorded or visit cancelled")
    if v["date"] > _today(db).isoformat():
        raise RefError("the visit has not happened yet")
    v["status"] = a["outcome"]
    if a["outcome"] == "completed":
        db["animals"][v["animal_id"]]["meet_count"] += 1
    else:
        db["adopters"][v["adopter_id"]]["no_show_count"] += 1
    return copy.deepcopy(v)


# ------------------------------------------------------------------ adoptions
def finalize_adoption(db, a):
    a = _check(a, {"application_id": ("str", True), "use_store_credit": ("bool", False)})
    app = _get(db, "applications", a["application_id"], "application")
    person = db["adopters"][app["adopter_id"]]
    animal = db["animals"][app["animal_id"]]
    today = _today(db)
    if app["status"] != "approved":
        raise RefError("only approved applications can be finalized")
    if (today - _d(app["approved_on"])).days > 21:
        raise RefError("approval has lapsed")
    if person["do_not_adopt"]:
        raise RefError("adopter is on the do-not-adopt list")
    since = (today - dt.timedelta(days=30)).isoformat()
    recent = [d for d in db["adoptions"].values() if d["adopter_id"] == person["id"] and d["adoption_date"] >= since]
    if len(recent) >= 2:
        raise RefError("adopter already has two adoptions in the past 30 days")
    if animal["status"] != "reserved":
        raise RefError("animal is not reserved")
    base = _base_fee(animal["species"], _age(_d(animal["birth_date"]), today))
    pcts = [GROUP_PCT[person["discount_group"]]]
    if animal["special_needs"]:
        pcts.append(50)
    if (today - _d(animal["intake_date"])).days > 180:
        pcts.append(20)
    t = today.isoformat()
    for p in db["meta"]["promotions"]:
        if p["species"] == animal["species"] and p["starts_on"] <= t <= p["ends_on"]:
            pcts.append(p["percent"])
    pct = max(pcts)
    fee = _money(Decimal(base) * (100 - pct) / 100)
    credit = 0.0
    if a.get("use_store_credit", True):
        credit = min(person["store_credit"], fee)
    rid = _next_id(db["adoptions"], "D")
    rec = {"id": rid, "application_id": app["id"], "animal_id": animal["id"], "adopter_id": person["id"],
           "adoption_date": t, "base_fee": float(base), "discount_percent": pct, "fee": fee,
           "credit_applied": _money(credit), "amount_paid": _money(Decimal(str(fee)) - Decimal(str(credit))),
           "status": "completed", "return_date": None, "return_reason": None, "refund_credit": None}
    db["adoptions"][rid] = rec
    app.update(status="completed", updated_on=t)
    person["open_applications"] -= 1
    person["adoptions_count"] += 1
    person["store_credit"] = _money(Decimal(str(person["store_credit"])) - Decimal(str(credit)))
    animal["status"] = "adopted"
    for other in db["applications"].values():
        if other["animal_id"] == animal["id"] and other["status"] in OPEN:
            other.update(status="rejected", closed_reason="animal_adopted", updated_on=t)
            db["adopters"][other["adopter_id"]]["open_applications"] -= 1
    _cancel_visits(db, "animal_adopted", animal_id=animal["id"])
    return copy.deepcopy(rec)


def return_adoption(db, a):
    a = _check(a, {"adoption_id": ("str", True), "reason": ("str", True)})
    rec = _get(db, "adoptions", a["adoption_id"], "adoption")
    if rec["status"] != "completed":
        raise RefError("adoption was already returned")
    today = _today(db)
    days = (today - _d(rec["adoption_date"])).days
    refund = rec["fee"] if days <= 14 else (_money(Decimal(str(rec["fee"])) / 2) if days <= 30 else 0.0)
    rec.update(status="returned", return_date=today.isoformat(), return_reason=a["reason"],
               refund_credit=_money(refund))
    person = db["adopters"][rec["adopter_id"]]
    person["returns_count"] += 1
    person["store_credit"] = _money(Decimal(str(person["store_credit"])) + Decimal(str(refund)))
    animal = db["animals"][rec["animal_id"]]
    animal.update(status="intake", intake_date=today.isoformat(), hold_reason=None, hold_until=None)
    animal["times_returned"] += 1
    return copy.deepcopy(rec)


TOOLS = {f.__name__: f for f in (
    list_animals, find_adopters, list_applications, list_visits, place_medical_hold, clear_for_adoption,
    submit_application, advance_application, close_application, schedule_visit, cancel_visit,
    record_visit_outcome, finalize_adoption, return_adoption)}


def invoke(db, name, args):
    fn = TOOLS.get(name)
    if fn is None:
        raise RefError(f"unknown tool {name}")
    return fn(db, args if args is not None else {})
