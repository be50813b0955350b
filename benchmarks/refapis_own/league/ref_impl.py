"""Reference implementation of the league registration office API."""
import json
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {
    "register_player", "pay_registration_fee", "withdraw_registration", "transfer_player",
    "schedule_fixture", "postpone_fixture", "cancel_fixture", "record_result",
    "issue_suspension", "revoke_suspension",
}

PARAMS = {  # tool -> (required, optional)
    "list_clubs": ((), ("status", "city", "name")),
    "list_players": ((), ("club_id", "status", "category", "name")),
    "list_fixtures": ((), ("club_id", "venue_id", "status", "date_from", "date_to")),
    "list_suspensions": ((), ("player_id", "club_id", "status")),
    "register_player": (("club_id", "first_name", "last_name", "birth_date", "email"), ()),
    "pay_registration_fee": (("player_id", "amount"), ()),
    "withdraw_registration": (("player_id",), ()),
    "transfer_player": (("player_id", "to_club_id"), ()),
    "schedule_fixture": (("home_club_id", "away_club_id", "venue_id", "date", "kickoff"), ()),
    "postpone_fixture": (("fixture_id", "new_date", "reason"), ()),
    "cancel_fixture": (("fixture_id", "reason"), ()),
    "record_result": (("fixture_id", "home_score", "away_score"), ()),
    "issue_suspension": (("player_id", "fixture_id", "reason", "matches"), ()),
    "revoke_suspension": (("suspension_id",), ()),
}

CLUB_STATUS = {"active", "suspended"}
PLAYER_STATUS = {"pending", "registered", "suspended", "withdrawn", "released"}
CATEGORIES = {"junior", "senior", "veteran"}
FIXTURE_STATUS = {"scheduled", "postponed", "played", "cancelled"}
SUSP_STATUS = {"active", "served", "revoked"}
POSTPONE_REASONS = {"weather", "pitch_unavailable", "club_request", "other"}
SUSP_REASONS = {"two_yellow_cards", "straight_red", "violent_conduct", "dissent", "accumulated_cautions"}
SQUAD_STATUSES = ("pending", "registered", "suspended")
BASE_FEE = {"junior": Decimal("30.00"), "senior": Decimal("60.00"), "veteran": Decimal("45.00")}
CENT = Decimal("0.01")
BALANCE_CAP = Decimal("500.00")
TRANSFER_FEE = Decimal("15.00")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
TIME_RE = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

# ---------------------------------------------------------------- helpers
def _deny(condition, message):
    if condition:
        raise RefError(message)

def _dec(x):
    return Decimal(str(x))

def _money(x):
    return float(_dec(x).quantize(CENT, rounding=ROUND_HALF_UP))

def _today(db):
    return date.fromisoformat(db["meta"]["today"])

def _days(db, n):
    """ISO date n days after today (negative n: before)."""
    return (_today(db) + timedelta(days=n)).isoformat()

def _date(value, field):
    _deny(not isinstance(value, str) or not DATE_RE.match(value), "%s must be a date YYYY-MM-DD" % field)
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise RefError("%s is not a valid date" % field)

def _text(args, field):
    v = args[field]
    _deny(not isinstance(v, str) or not v.strip(), "%s must be a non-empty string" % field)
    return v.strip()

def _int(v, field, lo, hi):
    ok = isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi
    _deny(not ok, "%s must be an integer from %d to %d" % (field, lo, hi))
    return v

def _enum(v, field, allowed):
    _deny(v not in allowed, "%s must be one of %s" % (field, sorted(allowed)))
    return v

def _get(db, coll, key, label):
    _deny(not isinstance(key, str) or key not in db[coll], "%s not found" % label)
    return db[coll][key]

def _next_id(records, prefix):
    best, width = 0, 1
    for k in records:
        if k.startswith(prefix) and k[len(prefix):].isdigit():
            width = max(width, len(k) - len(prefix))
            best = max(best, int(k[len(prefix):]))
    return prefix + str(best + 1).zfill(width)

def _add_balance(club, delta):
    club["balance"] = _money(_dec(club["balance"]) + _dec(delta))

def _age(birth, day):
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))

def _check_slot(db, day, venue_id, clubs, exclude=None):
    ds = day.isoformat()
    for f in db["fixtures"].values():
        if f["fixture_id"] == exclude or f["status"] == "cancelled" or f["date"] != ds:
            continue
        _deny(f["venue_id"] == venue_id, "venue already booked on that date")
        _deny({f["home_club_id"], f["away_club_id"]} & set(clubs), "a club already has a fixture on that date")

def _check_new_date(db, day):
    today = _today(db)
    _deny(day < today + timedelta(days=3), "fixtures need at least three days' notice")
    _deny(day > date.fromisoformat(db["meta"]["season_end"]), "date is after the end of the season")

# ---------------------------------------------------------------- reads
def _check_filters(db, a, refs=(), enums=()):
    for field, coll, label in refs:
        if a.get(field) is not None:
            _get(db, coll, a[field], label)
    for field, allowed in enums:
        if a.get(field) is not None:
            _enum(a[field], field, allowed)

def _contains(needle, hay):
    return needle is None or str(needle).strip().lower() in hay.lower()

def _eq(a, field, value):
    return a.get(field) is None or a[field] == value

def list_clubs(db, a):
    _check_filters(db, a, enums=(("status", CLUB_STATUS),))
    city = a.get("city")
    return [c for k, c in sorted(db["clubs"].items())
            if _eq(a, "status", c["status"]) and _contains(a.get("name"), c["name"])
            and (city is None or c["city"].lower() == str(city).strip().lower())]

def list_players(db, a):
    _check_filters(db, a, (("club_id", "clubs", "club"),),
                   (("status", PLAYER_STATUS), ("category", CATEGORIES)))
    return [p for k, p in sorted(db["players"].items())
            if _eq(a, "club_id", p["club_id"]) and _eq(a, "status", p["status"])
            and _eq(a, "category", p["category"])
            and _contains(a.get("name"), p["first_name"] + " " + p["last_name"])]

def list_fixtures(db, a):
    _check_filters(db, a, (("club_id", "clubs", "club"), ("venue_id", "venues", "venue")),
                   (("status", FIXTURE_STATUS),))
    lo = _date(a["date_from"], "date_from").isoformat() if a.get("date_from") is not None else None
    hi = _date(a["date_to"], "date_to").isoformat() if a.get("date_to") is not None else None
    _deny(lo and hi and lo > hi, "date_from is after date_to")
    out = [f for f in db["fixtures"].values()
           if (a.get("club_id") is None or a["club_id"] in (f["home_club_id"], f["away_club_id"]))
           and _eq(a, "venue_id", f["venue_id"]) and _eq(a, "status", f["status"])
           and (lo is None or f["date"] >= lo) and (hi is None or f["date"] <= hi)]
    return sorted(out, key=lambda f: (f["date"], f["kickoff"], f["fixture_id"]))

def list_suspensions(db, a):
    _check_filters(db, a, (("player_id", "players", "player"), ("club_id", "clubs", "club")),
                   (("status", SUSP_STATUS),))
    return [s for k, s in sorted(db["suspensions"].items())
            if _eq(a, "player_id", s["player_id"]) and _eq(a, "club_id", s["club_id"])
            and _eq(a, "status", s["status"])]

# ---------------------------------------------------------------- players
def register_player(db, a):
    today = _today(db)
    first, last = _text(a, "first_name"), _text(a, "last_name")
    email = _text(a, "email")
    _deny(not EMAIL_RE.match(email), "email is not a valid address")
    birth = _date(a["birth_date"], "birth_date")
    _deny(birth >= today, "birth_date must be in the past")
    club = _get(db, "clubs", a["club_id"], "club")
    _deny(club["status"] != "active", "club is suspended")
    age = _age(birth, today)
    _deny(age < 16, "players must be at least 16")
    _deny(_dec(club["balance"]) > BALANCE_CAP, "club owes more than 500.00")
    _deny(club["squad_size"] >= club["squad_limit"], "squad is full")
    taken = {p["email"].lower() for p in db["players"].values() if p["status"] in SQUAD_STATUSES}
    _deny(email.lower() in taken, "email already used by a current registration")
    category = "junior" if age < 18 else ("veteran" if age >= 35 else "senior")
    base = BASE_FEE[category]
    if club["tier"] == "community":
        base = base * Decimal("0.80")
    if today > date.fromisoformat(db["meta"]["registration_deadline"]):
        base = base * Decimal("1.125")
    fee = _money(base + Decimal("7.50"))
    pid = _next_id(db["players"], "P")
    p = {
        "player_id": pid, "club_id": club["club_id"], "first_name": first, "last_name": last,
        "email": email, "birth_date": birth.isoformat(), "category": category, "status": "pending",
        "registration_fee": fee, "fee_paid": False, "registered_on": today.isoformat(), "paid_on": None,
        "joined_club_on": today.isoformat(), "transfers_this_season": 0, "withdrawn_on": None,
        "released_on": None,
    }
    db["players"][pid] = p
    club["squad_size"] += 1
    _add_balance(club, fee)
    return p

def pay_registration_fee(db, a):
    p = _get(db, "players", a["player_id"], "player")
    amt = a["amount"]
    _deny(isinstance(amt, bool) or not isinstance(amt, (int, float)) or amt <= 0, "amount must be positive")
    _deny(p["status"] != "pending", "only pending registrations take a payment")
    _deny(_dec(amt) != _dec(p["registration_fee"]), "amount must equal the registration fee")
    today = _today(db)
    p["status"] = "registered"
    p["fee_paid"] = True
    p["paid_on"] = today.isoformat()
    _add_balance(db["clubs"][p["club_id"]], -_dec(p["registration_fee"]))
    return p

def withdraw_registration(db, a):
    p = _get(db, "players", a["player_id"], "player")
    today = _today(db)
    _deny(p["status"] != "pending", "only pending registrations can be withdrawn")
    _deny(p["registered_on"] < _days(db, -14), "registration is more than 14 days old")
    club = db["clubs"][p["club_id"]]
    p["status"] = "withdrawn"
    p["withdrawn_on"] = today.isoformat()
    club["squad_size"] -= 1
    _add_balance(club, -_dec(p["registration_fee"]))
    return p

def transfer_player(db, a):
    p = _get(db, "players", a["player_id"], "player")
    dest = _get(db, "clubs", a["to_club_id"], "club")
    today = _today(db)
    m = db["meta"]
    _deny(p["status"] != "registered", "only registered players can transfer")
    _deny(dest["club_id"] == p["club_id"], "player already belongs to that club")
    _deny(dest["status"] != "active", "destination club is suspended")
    in_window = m["transfer_window_opens"] <= m["today"] <= m["transfer_window_closes"]
    _deny(not in_window, "transfer window is closed")
    _deny(p["transfers_this_season"] >= 1, "one transfer per season")
    _deny(p["joined_club_on"] > _days(db, -28), "player joined the current club less than 28 days ago")
    _deny(dest["squad_size"] >= dest["squad_limit"], "destination squad is full")
    _deny(_dec(dest["balance"]) > BALANCE_CAP, "destination club owes more than 500.00")
    src = db["clubs"][p["club_id"]]
    src["squad_size"] -= 1
    dest["squad_size"] += 1
    _add_balance(dest, TRANSFER_FEE)
    p["club_id"] = dest["club_id"]
    p["joined_club_on"] = today.isoformat()
    p["transfers_this_season"] += 1
    return p

# ---------------------------------------------------------------- fixtures
def schedule_fixture(db, a):
    home = _get(db, "clubs", a["home_club_id"], "home club")
    away = _get(db, "clubs", a["away_club_id"], "away club")
    venue = _get(db, "venues", a["venue_id"], "venue")
    day = _date(a["date"], "date")
    ko = a["kickoff"]
    _deny(not isinstance(ko, str) or not TIME_RE.match(ko), "kickoff must be HH:MM")
    _deny(home["club_id"] == away["club_id"], "a club cannot play itself")
    _deny(home["status"] != "active" or away["status"] != "active", "both clubs must be active")
    _deny(venue["status"] != "open", "venue is closed")
    _deny(venue["city"] != home["city"], "venue must be in the home club's city")
    _deny(not "09:00" <= ko <= "21:00", "kickoff must be between 09:00 and 21:00")
    _deny(ko >= "18:00" and not venue["floodlit"], "evening kickoffs need a floodlit venue")
    _check_new_date(db, day)
    _check_slot(db, day, venue["venue_id"], (home["club_id"], away["club_id"]))
    fid = _next_id(db["fixtures"], "F")
    f = {
        "fixture_id": fid, "home_club_id": home["club_id"], "away_club_id": away["club_id"],
        "venue_id": venue["venue_id"], "date": day.isoformat(), "kickoff": ko, "status": "scheduled",
        "home_score": None, "away_score": None, "hire_fee": _money(venue["hire_fee"]), "postponements": 0,
        "original_date": None, "postpone_reason": None, "cancel_reason": None, "cancelled_on": None,
        "hire_refund": None,
    }
    db["fixtures"][fid] = f
    _add_balance(home, venue["hire_fee"])
    return f

def postpone_fixture(db, a):
    f = _get(db, "fixtures", a["fixture_id"], "fixture")
    new_day = _date(a["new_date"], "new_date")
    reason = _enum(a["reason"], "reason", POSTPONE_REASONS)
    today = _today(db)
    cur = date.fromisoformat(f["date"])
    _deny(f["status"] not in ("scheduled", "postponed"), "fixture cannot be postponed now")
    _deny(cur < today, "fixture date has passed")
    _deny(f["postponements"] >= 2, "fixture has already been postponed twice")
    _deny(reason == "club_request" and cur < today + timedelta(days=7), "club requests need a week's notice")
    _deny(new_day <= cur, "new date must be later than the current date")
    _check_new_date(db, new_day)
    _check_slot(db, new_day, f["venue_id"], (f["home_club_id"], f["away_club_id"]), f["fixture_id"])
    if f["original_date"] is None:
        f["original_date"] = f["date"]
    f["date"] = new_day.isoformat()
    f["status"] = "postponed"
    f["postponements"] += 1
    f["postpone_reason"] = reason
    return f

def cancel_fixture(db, a):
    f = _get(db, "fixtures", a["fixture_id"], "fixture")
    reason = _text(a, "reason")
    today = _today(db)
    cur = date.fromisoformat(f["date"])
    _deny(f["status"] not in ("scheduled", "postponed"), "fixture cannot be cancelled now")
    _deny(cur < today, "fixture date has passed; record the result instead")
    refund = _dec(f["hire_fee"]) if cur >= today + timedelta(days=7) else Decimal("0")
    f["status"] = "cancelled"
    f["cancel_reason"] = reason
    f["cancelled_on"] = today.isoformat()
    f["hire_refund"] = _money(refund)
    if refund:
        _add_balance(db["clubs"][f["home_club_id"]], -refund)
    return f

def record_result(db, a):
    f = _get(db, "fixtures", a["fixture_id"], "fixture")
    hs = _int(a["home_score"], "home_score", 0, 30)
    aws = _int(a["away_score"], "away_score", 0, 30)
    today = _today(db)
    _deny(f["status"] not in ("scheduled", "postponed"), "fixture is not awaiting a result")
    _deny(f["date"] > today.isoformat(), "fixture has not been played yet")
    f["status"] = "played"
    f["home_score"], f["away_score"] = hs, aws
    for cid, gf, ga in ((f["home_club_id"], hs, aws), (f["away_club_id"], aws, hs)):
        c = db["clubs"][cid]
        c["played"] += 1
        c["goals_for"] += gf
        c["goals_against"] += ga
        outcome = "won" if gf > ga else ("drawn" if gf == ga else "lost")
        c[outcome] += 1
        c["points"] += {"won": 3, "drawn": 1, "lost": 0}[outcome]
    for k in sorted(db["suspensions"]):
        s = db["suspensions"][k]
        if s["status"] != "active" or s["club_id"] not in (f["home_club_id"], f["away_club_id"]) \
                or s["issued_on"] > f["date"]:
            continue
        s["matches_remaining"] -= 1
        if s["matches_remaining"] <= 0:
            s["matches_remaining"] = 0
            s["status"] = "served"
            s["served_on"] = today.isoformat()
            p = db["players"].get(s["player_id"])
            if p and p["status"] == "suspended":
                p["status"] = "registered"
    return f

# ---------------------------------------------------------------- discipline
def issue_suspension(db, a):
    p = _get(db, "players", a["player_id"], "player")
    f = _get(db, "fixtures", a["fixture_id"], "fixture")
    reason = _enum(a["reason"], "reason", SUSP_REASONS)
    matches = _int(a["matches"], "matches", 1, 6)
    today = _today(db)
    _deny(reason == "violent_conduct" and matches < 3, "violent conduct carries at least three matches")
    _deny(p["status"] != "registered", "only registered players can be suspended")
    _deny(f["status"] != "played", "fixture has not been played")
    _deny(f["date"] < _days(db, -14), "disciplinary reports must be filed within 14 days")
    _deny(p["club_id"] not in (f["home_club_id"], f["away_club_id"]), "player's club was not in that fixture")
    _deny(p["joined_club_on"] > f["date"], "player had not joined the club by the fixture date")
    done = {(s["player_id"], s["fixture_id"]) for s in db["suspensions"].values()}
    _deny((p["player_id"], f["fixture_id"]) in done, "player already dealt with for that fixture")
    fine = Decimal("15.00") * matches + (Decimal("25.00") if reason == "violent_conduct" else Decimal("0"))
    sid = _next_id(db["suspensions"], "S")
    s = {
        "suspension_id": sid, "player_id": p["player_id"], "club_id": p["club_id"],
        "fixture_id": f["fixture_id"], "reason": reason, "matches": matches, "matches_remaining": matches,
        "fine": _money(fine), "status": "active", "issued_on": today.isoformat(), "served_on": None,
        "revoked_on": None,
    }
    db["suspensions"][sid] = s
    p["status"] = "suspended"
    _add_balance(db["clubs"][p["club_id"]], fine)
    return s

def revoke_suspension(db, a):
    s = _get(db, "suspensions", a["suspension_id"], "suspension")
    today = _today(db)
    _deny(s["status"] != "active", "only active suspensions can be revoked")
    _deny(s["issued_on"] < _days(db, -7), "appeal window of seven days has passed")
    _deny(s["matches_remaining"] != s["matches"], "suspension is already partly served")
    s["status"] = "revoked"
    s["revoked_on"] = today.isoformat()
    _add_balance(db["clubs"][s["club_id"]], -_dec(s["fine"]))
    p = db["players"].get(s["player_id"])
    if p and p["status"] == "suspended":
        p["status"] = "registered"
    return s

# ---------------------------------------------------------------- dispatch
def invoke(db, name, args):
    _deny(name not in PARAMS, "unknown tool %r" % (name,))
    if args is None:
        args = {}
    _deny(not isinstance(args, dict), "arguments must be an object")
    required, optional = PARAMS[name]
    extra = set(args) - set(required) - set(optional)
    _deny(extra, "unexpected arguments: %s" % sorted(extra))
    for r in required:
        _deny(args.get(r) is None, "missing argument %s" % r)
    result = globals()[name](db, args)
    return json.loads(json.dumps(result))  # detached copy of the stored record(s)
