"""Reference implementation of the Tessera Language Services job desk API."""
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"create_job", "accept_quote", "assign_translator", "release_assignment",
               "deliver_job", "issue_invoice", "record_payment", "cancel_job"}

SUBJECTS = ("general", "technical", "marketing", "legal", "medical")
SPECIALIST = ("legal", "medical")
JOB_STATUSES = ("quoted", "accepted", "assigned", "delivered", "invoiced", "closed", "cancelled")
INVOICE_STATUSES = ("open", "partially_paid", "paid")
CLIENT_STATUSES = ("active", "on_hold")
METHODS = ("bank_transfer", "card", "cheque")
CENT, MIN_FEE, CARD_LIMIT = Decimal("0.01"), Decimal("40.00"), Decimal("5000.00")
SPECIALIST_RATE, RUSH_RATE = Decimal("0.20"), Decimal("0.50")
LATE_FACTOR, CANCEL_RATE = Decimal("0.90"), Decimal("0.25")
QUOTE_VALID_DAYS, BACKLOG_DAYS, MIN_RUSH_RATING, MAX_WORDS = 14, 5, 4.0, 100000

# ---------------------------------------------------------------- helpers
def _arg(args, key, kind, required=True, default=None):
    if key not in args or args[key] is None:
        if required:
            raise RefError("missing argument: " + key)
        return default
    v = args[key]
    ok = {int: (int,), float: (int, float), str: (str,), bool: (bool,)}[kind]
    if not isinstance(v, ok) or (isinstance(v, bool) and kind is not bool):
        raise RefError("%s has the wrong type" % key)
    return v

def _text(args, key, limit, required=True):
    v = _arg(args, key, str, required)
    if v is not None and (not v.strip() or len(v) > limit):
        raise RefError(key + " must be non-blank text of at most %d characters" % limit)
    return v

def _enum(args, key, values, required=True, default=None):
    v = _arg(args, key, str, required, default)
    if v is not None and v not in values:
        raise RefError("%s must be one of %s" % (key, ", ".join(values)))
    return v

def _date(s, key):
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        raise RefError(key + " must be YYYY-MM-DD")
    try:
        return date.fromisoformat(s)
    except ValueError:
        raise RefError(key + " is not a valid date")

def _money(x):
    return Decimal(str(x)).quantize(CENT, ROUND_HALF_UP)

def _today(db):
    return date.fromisoformat(db["meta"]["today"])

def _now(db):
    return db["meta"]["now"]

def _next_id(coll, prefix, width):
    nums = [int(k[len(prefix):]) for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return "%s%0*d" % (prefix, width, max(nums, default=0) + 1)

def _fetch(db, coll, key, what):
    if key not in db[coll]:
        raise RefError("unknown %s %s" % (what, key))
    return db[coll][key]

def _pair(db, args):
    src, tgt = _arg(args, "source_lang", str), _arg(args, "target_lang", str)
    pid = "%s-%s" % (src, tgt)
    if pid not in db["rate_cards"]:
        raise RefError("language pair %s is not on the rate card" % pid)
    return src, tgt, db["rate_cards"][pid]

def _price(db, client, card, words, subject, rush):
    base = _money(Decimal(words) * Decimal(str(card["per_word_rate"])))
    spec = _money(base * SPECIALIST_RATE) if subject in SPECIALIST else Decimal("0.00")
    rsh = _money(base * RUSH_RATE) if rush else Decimal("0.00")
    sub = base + spec + rsh
    disc = _money(sub * Decimal(client["discount_pct"]) / Decimal(100))
    total = sub - disc
    floor = total < MIN_FEE
    return {"client_id": client["id"], "source_lang": card["source_lang"],
            "target_lang": card["target_lang"], "word_count": words, "subject": subject,
            "rush": rush, "per_word_rate": card["per_word_rate"], "base_amount": float(base),
            "specialist_surcharge": float(spec), "rush_surcharge": float(rsh),
            "discount": float(disc), "minimum_fee_applied": floor,
            "total": float(MIN_FEE if floor else total)}

def _quote_args(db, args):
    client = _fetch(db, "clients", _arg(args, "client_id", str), "client")
    src, tgt, card = _pair(db, args)
    words = _arg(args, "word_count", int)
    if not 1 <= words <= MAX_WORDS:
        raise RefError("word_count must be between 1 and %d" % MAX_WORDS)
    subject = _enum(args, "subject", SUBJECTS)
    rush = _arg(args, "rush", bool, False, False)
    return client, card, words, subject, rush

def _event(db, job, frm, note=None):
    eid = _next_id(db["job_events"], "H", 5)
    db["job_events"][eid] = {"id": eid, "job_id": job["id"], "from_status": frm,
                             "to_status": job["status"], "at": _now(db), "note": note}

def _adjust_balance(db, client_id, delta):
    c = db["clients"][client_id]
    c["outstanding_balance"] = float(_money(Decimal(str(c["outstanding_balance"])) + delta))

def _new_invoice(db, job, kind, amount):
    client = db["clients"][job["client_id"]]
    iid = _next_id(db["invoices"], "INV-", 4)
    today = _today(db)
    inv = {"id": iid, "job_id": job["id"], "client_id": job["client_id"], "kind": kind,
           "amount": float(amount), "amount_paid": 0.0, "balance_due": float(amount),
           "status": "open", "issued_on": today.isoformat(),
           "due_on": (today + timedelta(days=client["payment_terms_days"])).isoformat(),
           "paid_on": None}
    db["invoices"][iid] = inv
    _adjust_balance(db, job["client_id"], amount)
    job["invoice_id"] = iid
    return inv

def _active_assignment(db, job_id):
    for a in db["assignments"].values():
        if a["job_id"] == job_id and a["status"] == "active":
            return a
    return None

def _unload(db, asg):
    t = db["translators"][asg["translator_id"]]
    t["current_load_words"] -= asg["words"]
    t["active_jobs"] -= 1

def _job_in(db, args, *statuses):
    job = _fetch(db, "jobs", _arg(args, "job_id", str), "job")
    if job["status"] not in statuses:
        raise RefError("job %s is %s" % (job["id"], job["status"]))
    return job

def _overdue(inv, today):
    return inv["status"] in ("open", "partially_paid") and inv["due_on"] < today.isoformat()

# ---------------------------------------------------------------- reads
def list_jobs(db, args):
    status = _enum(args, "status", JOB_STATUSES, False)
    client_id = _arg(args, "client_id", str, False)
    translator_id = _arg(args, "translator_id", str, False)
    rush = _arg(args, "rush", bool, False)
    within = _arg(args, "due_within_days", int, False)
    if within is not None and not 0 <= within <= 365:
        raise RefError("due_within_days must be between 0 and 365")
    today = _today(db)
    out = []
    for jid in sorted(db["jobs"]):
        j = db["jobs"][jid]
        if status and j["status"] != status:
            continue
        if client_id and j["client_id"] != client_id:
            continue
        if translator_id and j["translator_id"] != translator_id:
            continue
        if rush is not None and j["rush"] != rush:
            continue
        if within is not None and not (today.isoformat() <= j["deadline"]
                                       <= (today + timedelta(days=within)).isoformat()):
            continue
        out.append(j)
    return out

def get_job(db, args):
    job = _fetch(db, "jobs", _arg(args, "job_id", str), "job")
    return {"job": job,
            "events": [db["job_events"][k] for k in sorted(db["job_events"])
                       if db["job_events"][k]["job_id"] == job["id"]],
            "assignments": [db["assignments"][k] for k in sorted(db["assignments"])
                            if db["assignments"][k]["job_id"] == job["id"]]}

def search_clients(db, args):
    q = _arg(args, "query", str).strip().lower()
    if len(q) < 2:
        raise RefError("query needs at least 2 characters")
    status = _enum(args, "status", CLIENT_STATUSES, False)
    out = []
    for cid in sorted(db["clients"]):
        c = db["clients"][cid]
        if status and c["status"] != status:
            continue
        if any(q in c[f].lower() for f in ("name", "contact_name", "email")):
            out.append(c)
    return out

def find_translators(db, args):
    src, tgt, card = _pair(db, args)
    subject = _enum(args, "subject", SUBJECTS, False)
    min_rating = _arg(args, "min_rating", float, False)
    if min_rating is not None and not 0 <= min_rating <= 5:
        raise RefError("min_rating must be between 0 and 5")
    min_free = _arg(args, "min_free_words", int, False)
    if min_free is not None and min_free < 0:
        raise RefError("min_free_words must not be negative")
    out = []
    for t in db["translators"].values():
        if t["status"] != "active" or card["id"] not in t["language_pairs"]:
            continue
        if subject in SPECIALIST and subject not in t["specialties"]:
            continue
        if min_rating is not None and t["rating"] < min_rating:
            continue
        free = BACKLOG_DAYS * t["daily_capacity_words"] - t["current_load_words"]
        if min_free is not None and free < min_free:
            continue
        out.append(t)
    out.sort(key=lambda t: (-t["rating"], t["id"]))
    return out

def get_quote(db, args):
    return _price(db, *_quote_args(db, args))

def list_invoices(db, args):
    client_id = _arg(args, "client_id", str, False)
    status = _enum(args, "status", INVOICE_STATUSES, False)
    overdue = _arg(args, "overdue_only", bool, False, False)
    today = _today(db)
    out = []
    for iid in sorted(db["invoices"]):
        inv = db["invoices"][iid]
        if client_id and inv["client_id"] != client_id:
            continue
        if status and inv["status"] != status:
            continue
        if overdue and not _overdue(inv, today):
            continue
        out.append(inv)
    return out

# ---------------------------------------------------------------- writes
def create_job(db, args):
    client, card, words, subject, rush = _quote_args(db, args)
    title = _text(args, "title", 120)
    deadline = _date(_arg(args, "deadline", str), "deadline")
    if client["status"] != "active":
        raise RefError("client is on hold")
    today = _today(db)
    earliest = today + timedelta(days=1 if rush else 5)
    if deadline < earliest or deadline > today + timedelta(days=90):
        raise RefError("deadline outside the allowed window")
    q = _price(db, client, card, words, subject, rush)
    jid = _next_id(db["jobs"], "J", 4)
    job = {"id": jid, "client_id": client["id"], "title": title,
           "source_lang": card["source_lang"], "target_lang": card["target_lang"],
           "subject": subject, "word_count": words, "rush": rush,
           "deadline": deadline.isoformat(), "status": "quoted", "quote_amount": q["total"],
           "translator_id": None, "invoice_id": None, "created_at": _now(db),
           "accepted_at": None, "assigned_at": None, "delivered_at": None, "invoiced_at": None,
           "closed_at": None, "cancelled_at": None, "cancel_reason": None,
           "cancellation_fee": None, "delivered_late": None, "quality_score": None}
    db["jobs"][jid] = job
    _event(db, job, None)
    return job

def accept_quote(db, args):
    job = _job_in(db, args, "quoted")
    client = db["clients"][job["client_id"]]
    today = _today(db)
    if client["status"] != "active":
        raise RefError("client is on hold")
    if any(i["client_id"] == client["id"] and _overdue(i, today) for i in db["invoices"].values()):
        raise RefError("client has an overdue invoice")
    if date.fromisoformat(job["created_at"][:10]) + timedelta(days=QUOTE_VALID_DAYS) < today:
        raise RefError("quote has expired")
    if job["deadline"] < today.isoformat():
        raise RefError("deadline has passed")
    committed = sum(Decimal(str(j["quote_amount"])) for j in db["jobs"].values()
                    if j["client_id"] == client["id"]
                    and j["status"] in ("accepted", "assigned", "delivered"))
    exposure = Decimal(str(client["outstanding_balance"])) + committed + Decimal(str(job["quote_amount"]))
    if exposure > Decimal(str(client["credit_limit"])):
        raise RefError("credit limit exceeded")
    job["status"] = "accepted"
    job["accepted_at"] = _now(db)
    _event(db, job, "quoted")
    return job

def assign_translator(db, args):
    job = _job_in(db, args, "accepted")
    t = _fetch(db, "translators", _arg(args, "translator_id", str), "translator")
    today = _today(db)
    if t["status"] != "active":
        raise RefError("translator is on leave")
    if "%s-%s" % (job["source_lang"], job["target_lang"]) not in t["language_pairs"]:
        raise RefError("translator does not cover the language pair")
    if job["subject"] in SPECIALIST and job["subject"] not in t["specialties"]:
        raise RefError("translator lacks the specialty")
    if job["rush"] and t["rating"] < MIN_RUSH_RATING:
        raise RefError("rush jobs need a rating of at least 4.0")
    deadline = date.fromisoformat(job["deadline"])
    if deadline < today:
        raise RefError("deadline has passed")
    if any(a["job_id"] == job["id"] and a["translator_id"] == t["id"]
           for a in db["assignments"].values()):
        raise RefError("translator already had this job")
    if t["current_load_words"] + job["word_count"] > BACKLOG_DAYS * t["daily_capacity_words"]:
        raise RefError("translator backlog would be exceeded")
    if job["word_count"] > t["daily_capacity_words"] * ((deadline - today).days + 1):
        raise RefError("translator cannot finish before the deadline")
    aid = _next_id(db["assignments"], "A", 4)
    asg = {"id": aid, "job_id": job["id"], "translator_id": t["id"], "words": job["word_count"],
           "status": "active", "assigned_at": _now(db), "completed_at": None,
           "released_at": None, "release_reason": None}
    db["assignments"][aid] = asg
    t["current_load_words"] += job["word_count"]
    t["active_jobs"] += 1
    job["status"] = "assigned"
    job["translator_id"] = t["id"]
    job["assigned_at"] = _now(db)
    _event(db, job, "accepted")
    return asg

def release_assignment(db, args):
    job = _job_in(db, args, "assigned")
    reason = _text(args, "reason", 200)
    asg = _active_assignment(db, job["id"])
    asg.update(status="released", released_at=_now(db), release_reason=reason)
    _unload(db, asg)
    job.update(status="accepted", translator_id=None, assigned_at=None)
    _event(db, job, "assigned", reason)
    return job

def deliver_job(db, args):
    job = _job_in(db, args, "assigned")
    score = _arg(args, "quality_score", int, False)
    if score is not None and not 1 <= score <= 5:
        raise RefError("quality_score must be between 1 and 5")
    asg = _active_assignment(db, job["id"])
    asg.update(status="completed", completed_at=_now(db))
    _unload(db, asg)
    t = db["translators"][asg["translator_id"]]
    t["completed_jobs"] += 1
    if score is not None:
        n = t["rated_jobs"]
        t["rating"] = float(((Decimal(str(t["rating"])) * n + score) / (n + 1)).quantize(CENT, ROUND_HALF_UP))
        t["rated_jobs"] = n + 1
    job.update(status="delivered", delivered_at=_now(db), quality_score=score,
               delivered_late=_today(db).isoformat() > job["deadline"])
    _event(db, job, "assigned")
    return job

def issue_invoice(db, args):
    job = _job_in(db, args, "delivered")
    amount = Decimal(str(job["quote_amount"]))
    if job["delivered_late"]:
        amount = _money(amount * LATE_FACTOR)
    inv = _new_invoice(db, job, "job", amount)
    job.update(status="invoiced", invoiced_at=_now(db))
    _event(db, job, "delivered")
    return inv

def record_payment(db, args):
    inv = _fetch(db, "invoices", _arg(args, "invoice_id", str), "invoice")
    raw = _arg(args, "amount", float)
    method = _enum(args, "method", METHODS)
    ref = _arg(args, "reference", str, False)
    amount = Decimal(str(raw))
    if amount <= 0 or amount != amount.quantize(CENT):
        raise RefError("amount must be positive with at most two decimals")
    if inv["status"] == "paid":
        raise RefError("invoice is already paid")
    due = Decimal(str(inv["balance_due"]))
    if amount > due:
        raise RefError("amount exceeds the balance due")
    if method == "card" and amount > CARD_LIMIT:
        raise RefError("card payments are limited to 5000.00")
    pid = _next_id(db["payments"], "PAY", 4)
    pay = {"id": pid, "invoice_id": inv["id"], "client_id": inv["client_id"],
           "amount": float(amount), "method": method, "reference": ref, "received_at": _now(db)}
    db["payments"][pid] = pay
    inv["amount_paid"] = float(_money(Decimal(str(inv["amount_paid"])) + amount))
    inv["balance_due"] = float(_money(due - amount))
    _adjust_balance(db, inv["client_id"], -amount)
    if inv["balance_due"] == 0:
        inv["status"] = "paid"
        inv["paid_on"] = _today(db).isoformat()
        job = db["jobs"].get(inv["job_id"])
        if inv["kind"] == "job" and job and job["status"] == "invoiced":
            job.update(status="closed", closed_at=_now(db))
            _event(db, job, "invoiced")
    else:
        inv["status"] = "partially_paid"
    return pay

def cancel_job(db, args):
    job = _job_in(db, args, "quoted", "accepted", "assigned")
    reason = _text(args, "reason", 200)
    before = job["status"]
    fee = Decimal("0.00")
    if before == "assigned":
        asg = _active_assignment(db, job["id"])
        asg.update(status="released", released_at=_now(db), release_reason="job cancelled")
        _unload(db, asg)
        fee = _money(Decimal(str(job["quote_amount"])) * CANCEL_RATE)
        _new_invoice(db, job, "cancellation", fee)
        job.update(translator_id=None, assigned_at=None)
    job.update(status="cancelled", cancelled_at=_now(db), cancel_reason=reason,
               cancellation_fee=float(fee))
    _event(db, job, before, reason)
    return job

TOOLS = {f.__name__: f for f in (list_jobs, get_job, search_clients, find_translators, get_quote,
                                 list_invoices, create_job, accept_quote, assign_translator,
                                 release_assignment, deliver_job, issue_invoice, record_payment,
                                 cancel_job)}

def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool " + str(name))
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return TOOLS[name](db, args)
