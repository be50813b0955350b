"""Reference implementation of the Harbor Street Library lending desk API (stdlib only)."""
import re
from datetime import date, timedelta


class RefError(Exception):
    pass


WRITE_TOOLS = {"checkout_copy", "return_copy", "renew_loan", "report_lost", "place_hold",
               "cancel_hold", "pay_fines"}
PERIOD = {"book": 21, "dvd": 7, "audiobook": 14}
DAILY_FINE = {"book": 0.25, "dvd": 1.0, "audiobook": 0.25}
LOAN_LIMIT = {"standard": 3, "premium": 6}
MAX_RENEWALS = 2
MAX_HOLDS = 3
FINE_BLOCK = 10.0
SUSPEND_AT = 25.0
FORMATS = ["book", "dvd", "audiobook"]
COPY_STATUSES = ["available", "on_loan", "on_hold", "lost"]
LOAN_STATUSES = ["active", "returned", "lost"]
HOLD_STATUSES = ["waiting", "ready", "fulfilled", "cancelled"]
SPECS = {
    "get_patron": (("patron_id",), ()),
    "list_copies": ((), ("format", "status", "q")),
    "get_loan": (("loan_id",), ()),
    "list_loans": ((), ("patron_id", "status", "overdue")),
    "list_holds": ((), ("patron_id", "copy_id", "status")),
    "checkout_copy": (("patron_id", "copy_id"), ()),
    "return_copy": (("loan_id",), ()),
    "renew_loan": (("loan_id",), ()),
    "report_lost": (("loan_id",), ()),
    "place_hold": (("patron_id", "copy_id"), ()),
    "cancel_hold": (("hold_id", "reason"), ()),
    "pay_fines": (("patron_id", "amount"), ()),
}


def _check_args(name, args):
    if name not in SPECS:
        raise RefError("unknown tool %r" % name)
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    req, opt = SPECS[name]
    for k in args:
        if k not in req and k not in opt:
            raise RefError("unknown argument %r" % k)
    for k in req:
        if k not in args:
            raise RefError("missing argument %r" % k)
    return args


def _str(v, what):
    if not isinstance(v, str):
        raise RefError("%s must be a string" % what)
    return v


def _get(db, coll, rid, what):
    rec = db[coll].get(_str(rid, what))
    if rec is None:
        raise RefError("%s %s not found" % (what, rid))
    return rec


def _enum(v, allowed, what):
    if v not in allowed:
        raise RefError("%s must be one of %s" % (what, allowed))
    return v


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _next_id(db, coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in db[coll] if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return "%s%0*d" % (prefix, width, (max(nums) if nums else 0) + 1)


def _active_patron(db, pid):
    p = _get(db, "patrons", pid, "patron")
    if p["status"] != "active":
        raise RefError("patron %s is suspended" % pid)
    return p


def _active_loan(db, lid):
    loan = _get(db, "loans", lid, "loan")
    if loan["status"] != "active":
        raise RefError("loan %s is not active" % lid)
    return loan


def _open_holds(db, copy_id, status):
    hs = [h for h in db["holds"].values() if h["copy_id"] == copy_id and h["status"] == status]
    return sorted(hs, key=lambda h: (h["placed_on"], h["id"]))


def _add_fine(patron, amount):
    patron["fines_due"] = round(patron["fines_due"] + amount, 2)
    if patron["fines_due"] >= SUSPEND_AT:
        patron["status"] = "suspended"


def _release_copy(db, copy):
    """Gives the copy to the earliest waiting hold, else makes it available."""
    waiting = _open_holds(db, copy["id"], "waiting")
    if waiting:
        waiting[0]["status"] = "ready"
        copy["status"] = "on_hold"
    else:
        copy["status"] = "available"


# ---------------------------------------------------------------- reads
def get_patron(db, a):
    return _get(db, "patrons", a["patron_id"], "patron")


def list_copies(db, a):
    out = list(db["copies"].values())
    if "format" in a:
        out = [c for c in out if c["format"] == _enum(a["format"], FORMATS, "format")]
    if "status" in a:
        out = [c for c in out if c["status"] == _enum(a["status"], COPY_STATUSES, "status")]
    if "q" in a:
        q = _str(a["q"], "q").lower()
        out = [c for c in out if q in c["title"].lower() or q in c["author"].lower()]
    return sorted(out, key=lambda c: c["id"])


def get_loan(db, a):
    return _get(db, "loans", a["loan_id"], "loan")


def list_loans(db, a):
    out = list(db["loans"].values())
    if "patron_id" in a:
        _get(db, "patrons", a["patron_id"], "patron")
        out = [x for x in out if x["patron_id"] == a["patron_id"]]
    if "status" in a:
        out = [x for x in out if x["status"] == _enum(a["status"], LOAN_STATUSES, "status")]
    if "overdue" in a:
        if not isinstance(a["overdue"], bool):
            raise RefError("overdue must be a boolean")
        today = _today(db)
        out = [x for x in out
               if (x["status"] == "active" and date.fromisoformat(x["due_on"]) < today) == a["overdue"]]
    return sorted(out, key=lambda x: x["id"])


def list_holds(db, a):
    out = list(db["holds"].values())
    if "patron_id" in a:
        _get(db, "patrons", a["patron_id"], "patron")
        out = [h for h in out if h["patron_id"] == a["patron_id"]]
    if "copy_id" in a:
        _get(db, "copies", a["copy_id"], "copy")
        out = [h for h in out if h["copy_id"] == a["copy_id"]]
    if "status" in a:
        out = [h for h in out if h["status"] == _enum(a["status"], HOLD_STATUSES, "status")]
    return sorted(out, key=lambda h: h["id"])


# ---------------------------------------------------------------- writes
def checkout_copy(db, a):
    patron = _active_patron(db, a["patron_id"])
    copy = _get(db, "copies", a["copy_id"], "copy")
    if patron["fines_due"] >= FINE_BLOCK:
        raise RefError("patron owes %.2f in fines" % patron["fines_due"])
    if patron["loans_out"] >= LOAN_LIMIT[patron["tier"]]:
        raise RefError("loan limit reached")
    ready = None
    if copy["status"] == "on_hold":
        ready = next((h for h in _open_holds(db, copy["id"], "ready") if h["patron_id"] == patron["id"]), None)
        if ready is None:
            raise RefError("copy is on the hold shelf for another patron")
    elif copy["status"] != "available":
        raise RefError("copy is %s" % copy["status"])
    today = _today(db)
    lid = _next_id(db, "loans", "L", 4)
    loan = {"id": lid, "copy_id": copy["id"], "patron_id": patron["id"], "borrowed_on": today.isoformat(),
            "due_on": (today + timedelta(days=PERIOD[copy["format"]])).isoformat(), "returned_on": None,
            "renewals": 0, "status": "active", "fine": 0.0}
    db["loans"][lid] = loan
    if ready is not None:
        ready["status"] = "fulfilled"
    copy["status"] = "on_loan"
    patron["loans_out"] += 1
    return loan


def return_copy(db, a):
    loan = _active_loan(db, a["loan_id"])
    copy, patron = db["copies"][loan["copy_id"]], db["patrons"][loan["patron_id"]]
    today = _today(db)
    late = max(0, (today - date.fromisoformat(loan["due_on"])).days)
    fine = round(min(late * DAILY_FINE[copy["format"]], copy["replacement_cost"]), 2)
    loan.update(status="returned", returned_on=today.isoformat(), fine=fine)
    patron["loans_out"] -= 1
    if fine > 0:
        _add_fine(patron, fine)
    _release_copy(db, copy)
    return loan


def renew_loan(db, a):
    loan = _active_loan(db, a["loan_id"])
    _active_patron(db, loan["patron_id"])
    due = date.fromisoformat(loan["due_on"])
    if due < _today(db):
        raise RefError("overdue loans cannot be renewed")
    if loan["renewals"] >= MAX_RENEWALS:
        raise RefError("renewal limit reached")
    if _open_holds(db, loan["copy_id"], "waiting"):
        raise RefError("another patron is waiting for this copy")
    copy = db["copies"][loan["copy_id"]]
    loan["due_on"] = (due + timedelta(days=PERIOD[copy["format"]])).isoformat()
    loan["renewals"] += 1
    return loan


def report_lost(db, a):
    loan = _active_loan(db, a["loan_id"])
    copy, patron = db["copies"][loan["copy_id"]], db["patrons"][loan["patron_id"]]
    loan.update(status="lost", fine=copy["replacement_cost"])
    copy["status"] = "lost"
    patron["loans_out"] -= 1
    _add_fine(patron, copy["replacement_cost"])
    for h in _open_holds(db, copy["id"], "waiting"):
        h.update(status="cancelled", cancelled_on=_today(db).isoformat(), cancel_reason="copy lost")
    return loan


def place_hold(db, a):
    patron = _active_patron(db, a["patron_id"])
    copy = _get(db, "copies", a["copy_id"], "copy")
    if copy["status"] not in ("on_loan", "on_hold"):
        raise RefError("holds are placed only on copies that are on loan or on the hold shelf")
    if any(x["copy_id"] == copy["id"] and x["patron_id"] == patron["id"] and x["status"] == "active"
           for x in db["loans"].values()):
        raise RefError("patron already has this copy")
    mine = [h for h in db["holds"].values() if h["patron_id"] == patron["id"] and h["status"] in ("waiting", "ready")]
    if any(h["copy_id"] == copy["id"] for h in mine):
        raise RefError("patron already holds this copy")
    if len(mine) >= MAX_HOLDS:
        raise RefError("hold limit reached")
    hid = _next_id(db, "holds", "H", 3)
    hold = {"id": hid, "copy_id": copy["id"], "patron_id": patron["id"], "placed_on": _today(db).isoformat(),
            "status": "waiting"}
    db["holds"][hid] = hold
    return hold


def cancel_hold(db, a):
    hold = _get(db, "holds", a["hold_id"], "hold")
    reason = _str(a["reason"], "reason")
    if not reason.strip() or len(reason) > 200:
        raise RefError("reason must be non-blank and at most 200 characters")
    if hold["status"] not in ("waiting", "ready"):
        raise RefError("hold is %s" % hold["status"])
    was_ready = hold["status"] == "ready"
    hold.update(status="cancelled", cancelled_on=_today(db).isoformat(), cancel_reason=reason)
    if was_ready:
        _release_copy(db, db["copies"][hold["copy_id"]])
    return hold


def pay_fines(db, a):
    patron = _get(db, "patrons", a["patron_id"], "patron")
    amount = a["amount"]
    if isinstance(amount, bool) or not isinstance(amount, (int, float)):
        raise RefError("amount must be a number")
    if amount <= 0 or round(amount, 2) != amount:
        raise RefError("amount must be positive with at most two decimals")
    if amount > patron["fines_due"] + 1e-9:
        raise RefError("amount exceeds the fines due")
    patron["fines_due"] = round(patron["fines_due"] - amount, 2)
    if patron["fines_due"] == 0 and patron["status"] == "suspended":
        patron["status"] = "active"
    return patron


TOOLS = {n: globals()[n] for n in SPECS}


def invoke(db, name, args):
    args = _check_args(name, args)
    return TOOLS[name](db, args)
