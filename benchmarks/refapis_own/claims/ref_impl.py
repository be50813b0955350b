"""Reference implementation of the home-insurance claims desk API (stdlib only)."""
import copy
import datetime as dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


PERILS = ("fire", "water", "theft", "windstorm", "vandalism")
CLAIM_STATUSES = ("filed", "assessed", "approved", "denied", "paid", "closed", "reopened")
OPEN = ("filed", "assessed", "approved", "reopened")
DOC_TYPES = ("photo", "repair_estimate", "invoice", "police_report", "other")
DENIAL_REASONS = ("not_covered", "below_deductible", "policy_exclusion", "fraud_suspected",
                  "insufficient_documentation")
PAYOUT_METHODS = ("check", "direct_deposit")
PREMIUM_REASONS = ("rate_filing", "coverage_change", "claims_history", "discount_applied", "correction")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
STATE_RE = re.compile(r"^[A-Z]{2}$")
FILE_RE = re.compile(r"\.(pdf|jpg|jpeg|png)$", re.IGNORECASE)
CENT = Decimal("0.01")
MAX_AMOUNT = Decimal("1000000")
MAX_DOCS = 10
REPORT_WINDOW_DAYS = 60
REOPEN_WINDOW_DAYS = 90
MAX_REOPENS = 2
MAX_PREMIUM_SWING = Decimal("0.25")

# tool -> (required args, optional args)
TOOLS = {
    "get_policy": ({"policy_id"}, set()),
    "search_holders": ({"q"}, {"state"}),
    "list_adjusters": (set(), {"peril", "state", "available"}),
    "list_claims": (set(), {"status", "policy_id", "adjuster_id", "peril", "filed_from", "filed_to"}),
    "get_claim": ({"claim_id"}, set()),
    "file_claim": ({"policy_id", "peril", "incident_date", "description"}, set()),
    "assign_adjuster": ({"claim_id", "adjuster_id"}, set()),
    "attach_document": ({"claim_id", "doc_type", "filename", "size_kb"}, set()),
    "assess_claim": ({"claim_id", "assessed_amount"}, set()),
    "decide_claim": ({"claim_id", "decision"}, {"denial_reason", "supervisor_override"}),
    "issue_payout": ({"claim_id", "method"}, set()),
    "close_claim": ({"claim_id"}, set()),
    "reopen_claim": ({"claim_id", "reason"}, set()),
    "change_premium": ({"policy_id", "new_premium", "reason", "effective_date"}, set()),
}
WRITE_TOOLS = {"file_claim", "assign_adjuster", "attach_document", "assess_claim", "decide_claim",
               "issue_payout", "close_claim", "reopen_claim", "change_premium"}


# ---------------------------------------------------------------- helpers
def _today(db):
    return dt.date.fromisoformat(db["meta"]["today"])


def _date(v, name):
    if not isinstance(v, str) or not DATE_RE.match(v):
        raise RefError(f"{name} must be a date YYYY-MM-DD")
    try:
        return dt.date.fromisoformat(v)
    except ValueError:
        raise RefError(f"{name} is not a valid date")


def _state(st):
    if st is not None and (not isinstance(st, str) or not STATE_RE.match(st)):
        raise RefError("state must be two upper-case letters")


def _text(v, name, maxlen):
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{name} must be a non-empty string")
    if len(v) > maxlen:
        raise RefError(f"{name} is longer than {maxlen} characters")
    return v


def _enum(v, name, values):
    if not isinstance(v, str) or v not in values:
        raise RefError(f"{name} must be one of {', '.join(values)}")
    return v


def _money(v, name):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RefError(f"{name} must be a number")
    d = Decimal(str(v))
    if not d.is_finite() or d <= 0 or d > MAX_AMOUNT:
        raise RefError(f"{name} must be greater than 0 and at most 1,000,000.00")
    if d != d.quantize(CENT):
        raise RefError(f"{name} must have at most two decimals")
    return d


def _dec(x):
    return Decimal(str(x))


def _out(d):
    return float(Decimal(d).quantize(CENT, ROUND_HALF_UP))


def _get(db, coll, key, name):
    if not isinstance(key, str) or key not in db[coll]:
        raise RefError(f"unknown {name}")
    return db[coll][key]


def _next_id(db, coll, prefix):
    nums = [k[len(prefix):] for k in db[coll] if k.startswith(prefix) and k[len(prefix):].isdigit()]
    width = max((len(s) for s in nums), default=4)
    top = max((int(s) for s in nums), default=0)
    return f"{prefix}{top + 1:0{width}d}"


def _effective_deductible(pol, peril):
    d = _dec(pol["deductible"])
    if peril == "windstorm":
        d = max(d, (_dec(pol["coverage"]["windstorm"]) * Decimal("0.02")).quantize(CENT, ROUND_HALF_UP))
    return d


def _remaining(pol, peril):
    return _dec(pol["coverage"][peril]) - _dec(pol["paid_to_date"].get(peril, 0))


def _open_conflict(db, policy_id, peril, exclude=None):
    return any(c["policy_id"] == policy_id and c["peril"] == peril and c["status"] in OPEN
               and c["claim_id"] != exclude for c in db["claims"].values())


def _release_adjuster(db, claim):
    if claim.get("adjuster_id") and claim["adjuster_id"] in db["adjusters"]:
        a = db["adjusters"][claim["adjuster_id"]]
        a["open_claims"] = max(0, a["open_claims"] - 1)


def _claim(db, args):
    return _get(db, "claims", args["claim_id"], "claim_id")


# ---------------------------------------------------------------- reads
def get_policy(db, a):
    return copy.deepcopy(_get(db, "policies", a["policy_id"], "policy_id"))


def search_holders(db, a):
    q = a["q"]
    if not isinstance(q, str) or len(q.strip()) < 2:
        raise RefError("q must contain at least 2 characters")
    q = q.strip().lower()
    st = a.get("state")
    _state(st)
    out = [h for h in db["holders"].values()
           if (q in h["full_name"].lower() or q in h["email"].lower()) and (st is None or h["state"] == st)]
    return copy.deepcopy(sorted(out, key=lambda h: h["holder_id"]))


def list_adjusters(db, a):
    peril, st, avail = a.get("peril"), a.get("state"), a.get("available")
    if peril is not None:
        _enum(peril, "peril", PERILS)
    _state(st)
    if avail is not None and not isinstance(avail, bool):
        raise RefError("available must be a boolean")
    out = []
    for adj in db["adjusters"].values():
        if peril is not None and peril not in adj["specialties"]:
            continue
        if st is not None and st not in adj["licensed_states"]:
            continue
        if avail and not (adj["active"] and adj["open_claims"] < adj["max_open_claims"]):
            continue
        out.append(adj)
    return copy.deepcopy(sorted(out, key=lambda x: x["adjuster_id"]))


def list_claims(db, a):
    if a.get("status") is not None:
        _enum(a["status"], "status", CLAIM_STATUSES)
    if a.get("peril") is not None:
        _enum(a["peril"], "peril", PERILS)
    if a.get("policy_id") is not None:
        _get(db, "policies", a["policy_id"], "policy_id")
    if a.get("adjuster_id") is not None:
        _get(db, "adjusters", a["adjuster_id"], "adjuster_id")
    lo = _date(a["filed_from"], "filed_from") if a.get("filed_from") is not None else None
    hi = _date(a["filed_to"], "filed_to") if a.get("filed_to") is not None else None
    if lo and hi and lo > hi:
        raise RefError("filed_from is after filed_to")
    out = []
    for c in db["claims"].values():
        if any(a.get(k) is not None and c[k] != a[k] for k in ("status", "peril", "policy_id", "adjuster_id")):
            continue
        f = dt.date.fromisoformat(c["filed_on"])
        if (lo and f < lo) or (hi and f > hi):
            continue
        out.append(c)
    return copy.deepcopy(sorted(out, key=lambda c: c["claim_id"]))


def get_claim(db, a):
    c = _claim(db, a)
    docs = sorted((d for d in db["documents"].values() if d["claim_id"] == c["claim_id"]),
                  key=lambda d: d["document_id"])
    pays = sorted((p for p in db["payouts"].values() if p["claim_id"] == c["claim_id"]),
                  key=lambda p: p["payout_id"])
    return copy.deepcopy({"claim": c, "documents": docs, "payouts": pays})


# ---------------------------------------------------------------- writes
def file_claim(db, a):
    pol = _get(db, "policies", a["policy_id"], "policy_id")
    peril = _enum(a["peril"], "peril", PERILS)
    inc = _date(a["incident_date"], "incident_date")
    desc = _text(a["description"], "description", 500)
    today = _today(db)
    if pol["status"] != "active":
        raise RefError("policy is not active")
    if peril not in pol["coverage"]:
        raise RefError("peril is not covered by the policy")
    if inc > today:
        raise RefError("incident_date is in the future")
    if (today - inc).days > REPORT_WINDOW_DAYS:
        raise RefError("incident is outside the 60-day reporting window")
    if not (dt.date.fromisoformat(pol["effective_date"]) <= inc <= dt.date.fromisoformat(pol["expiry_date"])):
        raise RefError("incident_date is outside the policy period")
    if _remaining(pol, peril) <= 0:
        raise RefError("coverage for this peril is exhausted")
    if _open_conflict(db, pol["policy_id"], peril):
        raise RefError("an open claim already exists for this policy and peril")
    cid = _next_id(db, "claims", "CLM-")
    c = {"claim_id": cid, "policy_id": pol["policy_id"], "holder_id": pol["holder_id"], "peril": peril,
         "status": "filed", "incident_date": inc.isoformat(), "filed_on": today.isoformat(), "description": desc,
         "adjuster_id": None, "assigned_on": None, "document_count": 0, "assessed_amount": None,
         "assessed_on": None, "approved_amount": None, "decided_on": None, "denial_reason": None,
         "paid_total": 0.0, "paid_on": None, "close_reason": None, "closed_on": None, "reopen_count": 0,
         "reopen_reason": None, "reopened_on": None}
    db["claims"][cid] = c
    db["holders"][pol["holder_id"]]["claims_filed"] += 1
    return copy.deepcopy(c)


def assign_adjuster(db, a):
    c = _claim(db, a)
    adj = _get(db, "adjusters", a["adjuster_id"], "adjuster_id")
    if c["status"] not in ("filed", "reopened"):
        raise RefError("only filed or reopened claims can be assigned")
    if c["adjuster_id"] == adj["adjuster_id"]:
        raise RefError("adjuster is already assigned to this claim")
    if not adj["active"]:
        raise RefError("adjuster is inactive")
    if c["peril"] not in adj["specialties"]:
        raise RefError("adjuster does not handle this peril")
    if db["holders"][c["holder_id"]]["state"] not in adj["licensed_states"]:
        raise RefError("adjuster is not licensed in the holder's state")
    if adj["open_claims"] >= adj["max_open_claims"]:
        raise RefError("adjuster is at the open-claim limit")
    _release_adjuster(db, c)
    adj["open_claims"] += 1
    c["adjuster_id"], c["assigned_on"] = adj["adjuster_id"], _today(db).isoformat()
    return copy.deepcopy(c)


def attach_document(db, a):
    c = _claim(db, a)
    kind = _enum(a["doc_type"], "doc_type", DOC_TYPES)
    fn = _text(a["filename"], "filename", 120)
    size = a["size_kb"]
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 25000:
        raise RefError("size_kb must be an integer between 1 and 25000")
    if not FILE_RE.search(fn):
        raise RefError("filename must end in .pdf, .jpg, .jpeg or .png")
    if c["status"] == "closed":
        raise RefError("documents cannot be attached to a closed claim")
    docs = [d for d in db["documents"].values() if d["claim_id"] == c["claim_id"]]
    if len(docs) >= MAX_DOCS:
        raise RefError("claim already has the maximum number of documents")
    if any(d["filename"].lower() == fn.lower() for d in docs):
        raise RefError("a document with this filename is already attached")
    did = _next_id(db, "documents", "DOC-")
    d = {"document_id": did, "claim_id": c["claim_id"], "doc_type": kind, "filename": fn, "size_kb": size,
         "uploaded_on": _today(db).isoformat()}
    db["documents"][did] = d
    c["document_count"] += 1
    return copy.deepcopy(d)


def assess_claim(db, a):
    c = _claim(db, a)
    amt = _money(a["assessed_amount"], "assessed_amount")
    if c["status"] not in ("filed", "reopened"):
        raise RefError("only filed or reopened claims can be assessed")
    if not c["adjuster_id"]:
        raise RefError("claim has no adjuster")
    kinds = {d["doc_type"] for d in db["documents"].values() if d["claim_id"] == c["claim_id"]}
    if not kinds & {"photo", "repair_estimate"}:
        raise RefError("a photo or repair estimate is required")
    if c["peril"] in ("theft", "vandalism") and "police_report" not in kinds:
        raise RefError("a police report is required for theft and vandalism claims")
    if c["status"] == "reopened" and c["assessed_amount"] is not None and amt <= _dec(c["assessed_amount"]):
        raise RefError("a reassessment must exceed the previous assessed amount")
    c.update({"assessed_amount": _out(amt), "assessed_on": _today(db).isoformat(), "status": "assessed"})
    return copy.deepcopy(c)


def decide_claim(db, a):
    c = _claim(db, a)
    decision = _enum(a["decision"], "decision", ("approve", "deny"))
    reason = a.get("denial_reason")
    override = a.get("supervisor_override")
    if override is not None and not isinstance(override, bool):
        raise RefError("supervisor_override must be a boolean")
    if decision == "deny":
        _enum(reason, "denial_reason", DENIAL_REASONS)
    elif reason is not None:
        raise RefError("denial_reason is only allowed with decision=deny")
    if c["status"] != "assessed":
        raise RefError("only assessed claims can be decided")
    today = _today(db).isoformat()
    if decision == "deny":
        c.update({"status": "denied", "denial_reason": reason, "decided_on": today})
        _release_adjuster(db, c)
        return copy.deepcopy(c)
    pol = db["policies"][c["policy_id"]]
    gross = _dec(c["assessed_amount"]) - _effective_deductible(pol, c["peril"]) - _dec(c["paid_total"])
    payable = min(gross, _remaining(pol, c["peril"])).quantize(CENT, ROUND_HALF_UP)
    if payable <= 0:
        raise RefError("nothing is payable; the claim must be denied")
    adj = db["adjusters"][c["adjuster_id"]]
    if payable > _dec(adj["authority_limit"]) and not override:
        raise RefError("payable amount exceeds the adjuster's authority limit")
    c.update({"status": "approved", "approved_amount": _out(payable), "decided_on": today, "denial_reason": None})
    return copy.deepcopy(c)


def issue_payout(db, a):
    c = _claim(db, a)
    method = _enum(a["method"], "method", PAYOUT_METHODS)
    if c["status"] != "approved":
        raise RefError("only approved claims can be paid")
    holder = db["holders"][c["holder_id"]]
    if method == "direct_deposit" and not holder.get("bank_account_last4"):
        raise RefError("holder has no bank account on file")
    pol = db["policies"][c["policy_id"]]
    amt = _dec(c["approved_amount"])
    today = _today(db).isoformat()
    pid = _next_id(db, "payouts", "PAY-")
    p = {"payout_id": pid, "claim_id": c["claim_id"], "policy_id": pol["policy_id"], "holder_id": c["holder_id"],
         "peril": c["peril"], "amount": _out(amt), "method": method, "issued_on": today, "status": "issued"}
    db["payouts"][pid] = p
    pol["paid_to_date"][c["peril"]] = _out(_dec(pol["paid_to_date"].get(c["peril"], 0)) + amt)
    c.update({"status": "paid", "paid_total": _out(_dec(c["paid_total"]) + amt), "paid_on": today})
    _release_adjuster(db, c)
    return copy.deepcopy(p)


def close_claim(db, a):
    c = _claim(db, a)
    reasons = {"paid": "settled", "denied": "denied", "filed": "withdrawn"}
    if c["status"] not in reasons:
        raise RefError("only paid, denied or filed claims can be closed")
    if c["status"] == "filed":
        _release_adjuster(db, c)
    c.update({"close_reason": reasons[c["status"]], "status": "closed", "closed_on": _today(db).isoformat()})
    return copy.deepcopy(c)


def reopen_claim(db, a):
    c = _claim(db, a)
    reason = _text(a["reason"], "reason", 300)
    today = _today(db)
    if c["status"] != "closed":
        raise RefError("only closed claims can be reopened")
    if c["close_reason"] == "withdrawn":
        raise RefError("withdrawn claims cannot be reopened")
    if (today - dt.date.fromisoformat(c["closed_on"])).days > REOPEN_WINDOW_DAYS:
        raise RefError("claim was closed more than 90 days ago")
    if c["reopen_count"] >= MAX_REOPENS:
        raise RefError("claim has already been reopened twice")
    if db["policies"][c["policy_id"]]["status"] != "active":
        raise RefError("policy is not active")
    if _open_conflict(db, c["policy_id"], c["peril"], exclude=c["claim_id"]):
        raise RefError("another open claim exists for this policy and peril")
    c.update({"status": "reopened", "reopen_count": c["reopen_count"] + 1, "reopen_reason": reason,
              "reopened_on": today.isoformat(), "closed_on": None, "close_reason": None, "adjuster_id": None,
              "assigned_on": None, "approved_amount": None, "decided_on": None, "denial_reason": None})
    return copy.deepcopy(c)


def change_premium(db, a):
    pol = _get(db, "policies", a["policy_id"], "policy_id")
    new = _money(a["new_premium"], "new_premium")
    reason = _enum(a["reason"], "reason", PREMIUM_REASONS)
    eff = _date(a["effective_date"], "effective_date")
    today = _today(db)
    if pol["status"] != "active":
        raise RefError("policy is not active")
    if eff < today or eff > dt.date.fromisoformat(pol["expiry_date"]):
        raise RefError("effective_date must be between today and the policy expiry date")
    if any(p["policy_id"] == pol["policy_id"] and p["status"] == "scheduled"
           for p in db["premium_changes"].values()):
        raise RefError("policy already has a scheduled premium change")
    old = _dec(pol["annual_premium"])
    if new == old:
        raise RefError("new_premium equals the current premium")
    if reason == "claims_history" and new < old:
        raise RefError("claims_history can only increase the premium")
    if reason == "discount_applied" and new > old:
        raise RefError("discount_applied can only decrease the premium")
    if reason != "correction" and abs(new - old) > old * MAX_PREMIUM_SWING:
        raise RefError("premium change exceeds 25% of the current premium")
    status = "applied" if eff == today else "scheduled"
    cid = _next_id(db, "premium_changes", "PCH-")
    rec = {"change_id": cid, "policy_id": pol["policy_id"], "old_premium": _out(old), "new_premium": _out(new),
           "change_pct": _out((new - old) / old * 100), "reason": reason, "effective_date": eff.isoformat(),
           "status": status, "created_on": today.isoformat()}
    db["premium_changes"][cid] = rec
    if status == "applied":
        pol["annual_premium"] = _out(new)
    return copy.deepcopy(rec)


# ---------------------------------------------------------------- entry point
def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError(f"unknown tool {name}")
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    required, optional = TOOLS[name]
    unknown = set(args) - required - optional
    if unknown:
        raise RefError(f"unknown argument(s): {', '.join(sorted(unknown))}")
    missing = [k for k in required if args.get(k) is None]
    if missing:
        raise RefError(f"missing argument(s): {', '.join(sorted(missing))}")
    return globals()[name](db, args)
