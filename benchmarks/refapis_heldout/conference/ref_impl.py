"""Reference implementation: Meridian Data Summit registration office."""
import re
from datetime import date
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass


WRITE_TOOLS = {"create_attendee", "create_registration", "record_payment", "cancel_registration",
               "transfer_registration", "enroll_in_session", "cancel_enrollment", "print_badge",
               "check_in_registration"}
ACTIVE = ("pending_payment", "confirmed", "checked_in")
REG_STATUSES = ("pending_payment", "confirmed", "cancelled", "transferred", "checked_in")
CATEGORIES = ("full_conference", "day_pass", "student", "virtual", "workshop_only", "exhibitor")
GROUP_CATS = ("full_conference", "day_pass", "workshop_only")
DIETS = ("none", "vegetarian", "vegan", "gluten_free", "halal", "kosher")
METHODS = ("card", "bank_transfer", "invoice")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")
CENT = Decimal("0.01")

def D(x):
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)

def F(x):
    return float(D(x))

def _today(db):
    return date.fromisoformat(db["meta"]["today"])

def _date(v, name):
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError("%s must be a date YYYY-MM-DD" % name)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % name)


SPEC = {  # tool -> (required {name: type}, optional {name: type})
    "get_registration": ({"registration_id": str}, {}),
    "list_registrations": ({}, {"status": str, "organisation_id": str, "ticket_type_id": str,
                                "attendee_id": str, "created_from": str, "created_to": str, "limit": int}),
    "search_attendees": ({}, {"query": str, "organisation_id": str}),
    "list_ticket_types": ({}, {"category": str, "on_sale_only": bool}),
    "list_sessions": ({}, {"date": str, "track": str, "available_only": bool}),
    "create_attendee": ({"first_name": str, "last_name": str, "email": str},
                        {"organisation_id": (str, type(None)), "job_title": (str, type(None)), "dietary": str}),
    "create_registration": ({"attendee_id": str, "ticket_type_id": str}, {"discount_code": (str, type(None))}),
    "record_payment": ({"registration_id": str, "amount": (int, float), "method": str}, {}),
    "cancel_registration": ({"registration_id": str, "reason": str}, {}),
    "transfer_registration": ({"registration_id": str, "new_attendee_id": str}, {}),
    "enroll_in_session": ({"session_id": str, "registration_id": str}, {}),
    "cancel_enrollment": ({"enrollment_id": str}, {}),
    "print_badge": ({"registration_id": str}, {"reprint_reason": (str, type(None))}),
    "check_in_registration": ({"registration_id": str}, {}),
}

def _check_args(name, args):
    if name not in SPEC:
        raise RefError("unknown tool %s" % name)
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    req, opt = SPEC[name]
    for k in args:
        if k not in req and k not in opt:
            raise RefError("unknown argument %s" % k)
    for k, t in req.items():
        if k not in args or args[k] is None:
            raise RefError("missing argument %s" % k)
    for k, v in args.items():
        t = req.get(k, opt.get(k))
        if isinstance(v, bool) and t in (int, (int, float)):
            raise RefError("%s has the wrong type" % k)
        if not isinstance(v, t):
            raise RefError("%s has the wrong type" % k)

def _get(db, coll, key, label):
    rec = db[coll].get(key) if isinstance(key, str) else None
    if rec is None:
        raise RefError("%s %s not found" % (label, key))
    return rec

def _next_id(coll, prefix):
    width, best = None, 0
    for k in coll:
        if k.startswith(prefix):
            num = k[len(prefix):]
            width = len(num)
            best = max(best, int(num))
    return "%s%0*d" % (prefix, width or 4, best + 1)

def _current_price(db, tt):
    if _today(db) <= date.fromisoformat(tt["early_bird_deadline"]):
        return "early_bird", D(tt["early_bird_price"])
    return "regular", D(tt["regular_price"])

def _active_reg(db, attendee_id):
    return [r for r in db["registrations"].values() if r["attendee_id"] == attendee_id and r["status"] in ACTIVE]

def _void_badges(db, reg_id):
    for b in db["badges"].values():
        if b["registration_id"] == reg_id and b["status"] == "issued":
            b["status"] = "void"
            b["voided_on"] = db["meta"]["today"]

def _drop_enrollment(db, en):
    """Cancel one enrollment; promote the first waitlisted entry when a seat frees up."""
    was = en["status"]
    en["status"] = "cancelled"
    en["cancelled_on"] = db["meta"]["today"]
    if was != "enrolled":
        return
    s = db["sessions"][en["session_id"]]
    s["enrolled_count"] -= 1
    waiting = sorted((e for e in db["enrollments"].values()
                      if e["session_id"] == s["session_id"] and e["status"] == "waitlisted"),
                     key=lambda e: e["enrollment_id"])
    if waiting and s["enrolled_count"] < s["capacity"]:
        waiting[0]["status"] = "enrolled"
        waiting[0]["promoted_on"] = db["meta"]["today"]
        s["enrolled_count"] += 1

# ------------------------------------------------------------------ reads
def get_registration(db, a):
    return _get(db, "registrations", a["registration_id"], "registration")

def list_registrations(db, a):
    if "status" in a and a["status"] not in REG_STATUSES:
        raise RefError("invalid status")
    for k, coll in (("organisation_id", "organisations"), ("ticket_type_id", "ticket_types"),
                    ("attendee_id", "attendees")):
        if k in a:
            _get(db, coll, a[k], k)
    lo = _date(a["created_from"], "created_from") if "created_from" in a else None
    hi = _date(a["created_to"], "created_to") if "created_to" in a else None
    if lo and hi and lo > hi:
        raise RefError("created_from is after created_to")
    limit = a.get("limit", 50)
    if not 1 <= limit <= 100:
        raise RefError("limit must be between 1 and 100")
    out = []
    for rid in sorted(db["registrations"]):
        r = db["registrations"][rid]
        if any(k in a and r[k] != a[k] for k in ("status", "organisation_id", "ticket_type_id", "attendee_id")):
            continue
        c = date.fromisoformat(r["created_on"])
        if (lo and c < lo) or (hi and c > hi):
            continue
        out.append(r)
    return out[:limit]

def search_attendees(db, a):
    q = a.get("query")
    if q is not None:
        q = q.strip().lower()
        if len(q) < 2:
            raise RefError("query must have at least 2 characters")
    if "organisation_id" in a:
        _get(db, "organisations", a["organisation_id"], "organisation")
    out = []
    for aid in sorted(db["attendees"]):
        t = db["attendees"][aid]
        if "organisation_id" in a and t["organisation_id"] != a["organisation_id"]:
            continue
        if q:
            hay = [t["first_name"].lower(), t["last_name"].lower(),
                   (t["first_name"] + " " + t["last_name"]).lower(), t["email"].lower()]
            if not any(q in h for h in hay):
                continue
        out.append(t)
    return out

def list_ticket_types(db, a):
    if "category" in a and a["category"] not in CATEGORIES:
        raise RefError("invalid category")
    out = []
    for tid in sorted(db["ticket_types"]):
        tt = db["ticket_types"][tid]
        if "category" in a and tt["category"] != a["category"]:
            continue
        remaining = tt["capacity"] - tt["sold"]
        if a.get("on_sale_only") and not (tt["sales_open"] and remaining > 0):
            continue
        period, price = _current_price(db, tt)
        out.append(dict(tt, price_period=period, current_price=float(price), remaining=remaining))
    return out

def list_sessions(db, a):
    if "date" in a:
        _date(a["date"], "date")
    out = []
    for sid in sorted(db["sessions"]):
        s = db["sessions"][sid]
        if "date" in a and s["date"] != a["date"]:
            continue
        if "track" in a and s["track"].lower() != a["track"].strip().lower():
            continue
        if a.get("available_only") and not (s["status"] == "open" and s["enrolled_count"] < s["capacity"]):
            continue
        out.append(s)
    return out

# ------------------------------------------------------------------ writes
def create_attendee(db, a):
    fn, ln = a["first_name"].strip(), a["last_name"].strip()
    if not fn or not ln or len(fn) > 60 or len(ln) > 60:
        raise RefError("names must be 1-60 characters")
    email = a["email"].strip().lower()
    if not EMAIL_RE.match(email):
        raise RefError("invalid email")
    if any(t["email"].lower() == email for t in db["attendees"].values()):
        raise RefError("email already registered")
    org = a.get("organisation_id")
    if org is not None:
        _get(db, "organisations", org, "organisation")
    dietary = a.get("dietary", "none")
    if dietary not in DIETS:
        raise RefError("invalid dietary value")
    jt = a.get("job_title")
    jt = jt.strip() or None if isinstance(jt, str) else None
    aid = _next_id(db["attendees"], "ATT-")
    rec = {"attendee_id": aid, "first_name": fn, "last_name": ln, "email": email, "organisation_id": org,
           "job_title": jt, "dietary": dietary, "created_on": db["meta"]["today"]}
    db["attendees"][aid] = rec
    return rec

def create_registration(db, a):
    att = _get(db, "attendees", a["attendee_id"], "attendee")
    tt = _get(db, "ticket_types", a["ticket_type_id"], "ticket type")
    if _active_reg(db, att["attendee_id"]):
        raise RefError("attendee already holds an active registration")
    if not tt["sales_open"]:
        raise RefError("ticket type is not on sale")
    if tt["sold"] >= tt["capacity"]:
        raise RefError("ticket type sold out")
    period, price = _current_price(db, tt)
    dc, code_disc = None, Decimal("0.00")
    raw = a.get("discount_code")
    if raw is not None:
        dc = db["discount_codes"].get(raw.strip().upper())
        if dc is None or not dc["active"]:
            raise RefError("unknown or inactive discount code")
        if db["meta"]["today"] > dc["valid_until"]:
            raise RefError("discount code expired")
        if dc["times_used"] >= dc["max_uses"]:
            raise RefError("discount code usage limit reached")
        if dc["ticket_type_ids"] and tt["ticket_type_id"] not in dc["ticket_type_ids"]:
            raise RefError("discount code not valid for this ticket type")
        if dc["kind"] == "percent":
            code_disc = D(price * Decimal(str(dc["value"])) / 100)
        else:
            code_disc = min(D(dc["value"]), price)
    group = Decimal("0.00")
    org_id = att["organisation_id"]
    if org_id and tt["category"] in GROUP_CATS:
        org = db["organisations"][org_id]
        n = sum(1 for r in db["registrations"].values() if r["organisation_id"] == org_id and r["status"] in ACTIVE)
        if org["group_discount_pct"] > 0 and n + 1 >= org["group_min_size"]:
            group = D(price * Decimal(str(org["group_discount_pct"])) / 100)
    if dc is not None and code_disc > group:
        source, disc, code = "code", code_disc, dc["code"]
        dc["times_used"] += 1
    elif group > 0:
        source, disc, code = "group", group, None
    else:
        source, disc, code = "none", Decimal("0.00"), None
    due = price - disc
    today = db["meta"]["today"]
    rid = _next_id(db["registrations"], "REG-")
    rec = {"registration_id": rid, "attendee_id": att["attendee_id"], "ticket_type_id": tt["ticket_type_id"],
           "organisation_id": org_id, "status": "confirmed" if due == 0 else "pending_payment",
           "price_period": period, "list_price": float(price), "discount_source": source,
           "discount_code": code, "discount_amount": float(disc), "amount_due": float(due), "amount_paid": 0.0,
           "created_on": today, "confirmed_on": today if due == 0 else None, "cancelled_on": None,
           "cancel_reason": None, "refund_amount": None, "transferred_from": None, "transferred_to": None,
           "transferred_on": None, "checked_in_on": None}
    tt["sold"] += 1
    db["registrations"][rid] = rec
    return rec

def record_payment(db, a):
    r = _get(db, "registrations", a["registration_id"], "registration")
    if r["status"] != "pending_payment":
        raise RefError("registration is not awaiting payment")
    if a["method"] not in METHODS:
        raise RefError("invalid method")
    if a["method"] == "invoice" and not r["organisation_id"]:
        raise RefError("invoice payment requires an organisation")
    if a["amount"] != a["amount"] or abs(a["amount"]) > 1e9:
        raise RefError("amount is not a valid number")
    amt = Decimal(str(a["amount"]))
    if amt <= 0 or amt != amt.quantize(CENT):
        raise RefError("amount must be positive with at most two decimals")
    balance = D(r["amount_due"]) - D(r["amount_paid"])
    if amt > balance:
        raise RefError("amount exceeds the outstanding balance")
    pid = _next_id(db["payments"], "PAY-")
    pay = {"payment_id": pid, "registration_id": r["registration_id"], "kind": "payment",
           "amount": F(amt), "method": a["method"], "date": db["meta"]["today"]}
    db["payments"][pid] = pay
    r["amount_paid"] = F(D(r["amount_paid"]) + amt)
    if D(r["amount_paid"]) == D(r["amount_due"]):
        r["status"] = "confirmed"
        r["confirmed_on"] = db["meta"]["today"]
    return pay

def cancel_registration(db, a):
    r = _get(db, "registrations", a["registration_id"], "registration")
    reason = a["reason"].strip()
    if not reason or len(reason) > 200:
        raise RefError("reason must be 1-200 characters")
    if r["status"] not in ("pending_payment", "confirmed"):
        raise RefError("registration cannot be cancelled in status %s" % r["status"])
    today = _today(db)
    start = date.fromisoformat(db["meta"]["conference_start"])
    if today >= start:
        raise RefError("cancellations close when the conference starts")
    tt = db["ticket_types"][r["ticket_type_id"]]
    paid, days = D(r["amount_paid"]), (start - today).days
    refund = Decimal("0.00")
    if tt["refund_policy"] == "flexible":
        refund = paid
    elif tt["refund_policy"] == "standard" and days >= 21:
        refund = max(paid - D(db["meta"]["cancellation_admin_fee"]), refund)
    elif tt["refund_policy"] == "standard" and days >= 7:
        refund = D(paid / 2)
    if refund > 0:
        own = sorted((p for p in db["payments"].values()
                      if p["registration_id"] == r["registration_id"] and p["kind"] == "payment"),
                     key=lambda p: p["payment_id"])
        method = own[-1]["method"] if own else "bank_transfer"
        pid = _next_id(db["payments"], "PAY-")
        db["payments"][pid] = {"payment_id": pid, "registration_id": r["registration_id"], "kind": "refund",
                               "amount": float(refund), "method": "bank_transfer" if method == "invoice" else method,
                               "date": db["meta"]["today"]}
    r.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason, refund_amount=float(refund))
    tt["sold"] -= 1
    for en in sorted(db["enrollments"].values(), key=lambda e: e["enrollment_id"]):
        if en["registration_id"] == r["registration_id"] and en["status"] in ("enrolled", "waitlisted"):
            _drop_enrollment(db, en)
    _void_badges(db, r["registration_id"])
    return r

def transfer_registration(db, a):
    r = _get(db, "registrations", a["registration_id"], "registration")
    new = _get(db, "attendees", a["new_attendee_id"], "attendee")
    if r["status"] != "confirmed":
        raise RefError("only confirmed registrations can be substituted")
    if r["transferred_from"] is not None:
        raise RefError("a substituted registration cannot be substituted again")
    tt = db["ticket_types"][r["ticket_type_id"]]
    if tt["category"] == "student":
        raise RefError("student passes are not transferable")
    if not r["organisation_id"] or new["organisation_id"] != r["organisation_id"]:
        raise RefError("substitute must belong to the same organisation")
    if new["attendee_id"] == r["attendee_id"] or _active_reg(db, new["attendee_id"]):
        raise RefError("substitute already holds an active registration")
    if _today(db) >= date.fromisoformat(db["meta"]["conference_start"]):
        raise RefError("substitutions close when the conference starts")
    fee = Decimal("0.00") if tt["refund_policy"] == "flexible" else D(db["meta"]["substitution_fee"])
    today = db["meta"]["today"]
    nid = _next_id(db["registrations"], "REG-")
    due = D(r["amount_due"]) + fee
    confirmed = D(r["amount_paid"]) >= due
    rec = dict(r, registration_id=nid, attendee_id=new["attendee_id"], amount_due=float(due),
               status="confirmed" if confirmed else "pending_payment", created_on=today,
               confirmed_on=today if confirmed else None, transferred_from=r["registration_id"],
               transferred_to=None, transferred_on=None, checked_in_on=None)
    db["registrations"][nid] = rec
    r.update(status="transferred", transferred_to=nid, transferred_on=today)
    for en in db["enrollments"].values():
        if en["registration_id"] == r["registration_id"] and en["status"] in ("enrolled", "waitlisted"):
            en["registration_id"] = nid
    _void_badges(db, r["registration_id"])
    return rec

def enroll_in_session(db, a):
    s = _get(db, "sessions", a["session_id"], "session")
    r = _get(db, "registrations", a["registration_id"], "registration")
    if r["status"] not in ("confirmed", "checked_in"):
        raise RefError("registration must be confirmed or checked in")
    if not db["ticket_types"][r["ticket_type_id"]]["includes_workshops"]:
        raise RefError("ticket type does not include workshops")
    if s["status"] != "open":
        raise RefError("session is not open")
    mine = [e for e in db["enrollments"].values()
            if e["registration_id"] == r["registration_id"] and e["status"] in ("enrolled", "waitlisted")]
    for e in mine:
        o = db["sessions"][e["session_id"]]
        if o["session_id"] == s["session_id"]:
            raise RefError("already enrolled or waitlisted for this session")
        if (o["date"], o["slot"]) == (s["date"], s["slot"]):
            raise RefError("clashes with another session in the same slot")
    if s["enrolled_count"] < s["capacity"]:
        status = "enrolled"
        s["enrolled_count"] += 1
    else:
        waiting = sum(1 for e in db["enrollments"].values()
                      if e["session_id"] == s["session_id"] and e["status"] == "waitlisted")
        if waiting >= s["waitlist_limit"]:
            raise RefError("session and waitlist are full")
        status = "waitlisted"
    eid = _next_id(db["enrollments"], "EN-")
    rec = {"enrollment_id": eid, "session_id": s["session_id"], "registration_id": r["registration_id"],
           "status": status, "created_on": db["meta"]["today"], "cancelled_on": None, "promoted_on": None}
    db["enrollments"][eid] = rec
    return rec

def cancel_enrollment(db, a):
    en = _get(db, "enrollments", a["enrollment_id"], "enrollment")
    if en["status"] not in ("enrolled", "waitlisted"):
        raise RefError("enrollment already cancelled")
    _drop_enrollment(db, en)
    return en

def print_badge(db, a):
    r = _get(db, "registrations", a["registration_id"], "registration")
    if r["status"] not in ("confirmed", "checked_in"):
        raise RefError("badges are printed only for confirmed or checked-in registrations")
    mine = [b for b in db["badges"].values() if b["registration_id"] == r["registration_id"]]
    reason = a.get("reprint_reason")
    reason = reason.strip() or None if isinstance(reason, str) else None
    current = [b for b in mine if b["status"] == "issued"]
    if current and not reason:
        raise RefError("a reprint needs a reprint_reason")
    if len(mine) >= db["meta"]["max_badges_per_registration"]:
        raise RefError("badge print limit reached")
    if not current:
        reason = None
    _void_badges(db, r["registration_id"])
    att = db["attendees"][r["attendee_id"]]
    org = db["organisations"][r["organisation_id"]]["name"] if r["organisation_id"] else "Independent"
    bid = _next_id(db["badges"], "BDG-")
    rec = {"badge_id": bid, "registration_id": r["registration_id"],
           "printed_name": att["first_name"] + " " + att["last_name"], "organisation_name": org,
           "badge_label": db["ticket_types"][r["ticket_type_id"]]["badge_label"], "status": "issued",
           "printed_on": db["meta"]["today"], "reprint_reason": reason, "voided_on": None}
    db["badges"][bid] = rec
    return rec

def check_in_registration(db, a):
    r = _get(db, "registrations", a["registration_id"], "registration")
    if r["status"] != "confirmed":
        raise RefError("only confirmed registrations can check in")
    today = db["meta"]["today"]
    if not db["meta"]["checkin_opens"] <= today <= db["meta"]["conference_end"]:
        raise RefError("check-in desk is closed")
    if not any(b["registration_id"] == r["registration_id"] and b["status"] == "issued"
               for b in db["badges"].values()):
        raise RefError("print the badge before checking in")
    r["status"] = "checked_in"
    r["checked_in_on"] = today
    return r

def invoke(db, name, args):
    _check_args(name, args)
    return globals()[name](db, dict(args))
