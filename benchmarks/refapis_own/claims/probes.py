"""Differential probes for the home-insurance claims desk: ~60% valid calls, ~40% that must be refused."""
import datetime as dt
from decimal import Decimal, ROUND_HALF_UP

PERILS = ("fire", "water", "theft", "windstorm", "vandalism")
OPEN = ("filed", "assessed", "approved", "reopened")
CENT = Decimal("0.01")


def _d(s):
    return dt.date.fromisoformat(s)


class _Ctx:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = _d(db["meta"]["today"])
        self.claims = sorted(db["claims"].values(), key=lambda c: c["claim_id"])
        self.pols = sorted(db["policies"].values(), key=lambda p: p["policy_id"])
        self.adjs = sorted(db["adjusters"].values(), key=lambda a: a["adjuster_id"])
        self.holders = sorted(db["holders"].values(), key=lambda h: h["holder_id"])

    def pick(self, seq):
        seq = list(seq)
        return self.rng.choice(seq) if seq else None

    def by_status(self, *st):
        return [c for c in self.claims if c["status"] in st]

    def docs(self, cid):
        return [d for d in self.db["documents"].values() if d["claim_id"] == cid]

    def conflict(self, pid, peril, exclude=None):
        return any(c["policy_id"] == pid and c["peril"] == peril and c["status"] in OPEN and c["claim_id"] != exclude
                   for c in self.claims)

    def remaining(self, pol, peril):
        return Decimal(str(pol["coverage"][peril])) - Decimal(str(pol["paid_to_date"].get(peril, 0)))

    def state_of(self, c):
        return self.db["holders"][c["holder_id"]]["state"]

    def can_assign(self, c, a):
        return (a["active"] and c["peril"] in a["specialties"] and self.state_of(c) in a["licensed_states"]
                and a["open_claims"] < a["max_open_claims"] and c["adjuster_id"] != a["adjuster_id"])

    def assessable(self, c):
        kinds = {d["doc_type"] for d in self.docs(c["claim_id"])}
        return (c["status"] in ("filed", "reopened") and c["adjuster_id"]
                and kinds & {"photo", "repair_estimate"}
                and (c["peril"] not in ("theft", "vandalism") or "police_report" in kinds))

    def payable(self, c):
        pol = self.db["policies"][c["policy_id"]]
        ded = Decimal(str(pol["deductible"]))
        if c["peril"] == "windstorm":
            ded = max(ded, (Decimal(str(pol["coverage"]["windstorm"])) * Decimal("0.02")).quantize(CENT))
        gross = Decimal(str(c["assessed_amount"])) - ded - Decimal(str(c["paid_total"]))
        return min(gross, self.remaining(pol, c["peril"]))

    def file_window(self, pol):
        lo = max(_d(pol["effective_date"]), self.today - dt.timedelta(days=60))
        hi = min(_d(pol["expiry_date"]), self.today)
        return (lo, hi) if lo <= hi else None

    def rand_day(self, lo, hi):
        return (lo + dt.timedelta(days=self.rng.randint(0, (hi - lo).days))).isoformat()

    def reopenable(self, c):
        return (c["status"] == "closed" and c["close_reason"] != "withdrawn"
                and (self.today - _d(c["closed_on"])).days <= 90 and c["reopen_count"] < 2
                and self.db["policies"][c["policy_id"]]["status"] == "active"
                and not self.conflict(c["policy_id"], c["peril"], c["claim_id"]))

    def scheduled(self, pid):
        return any(p["policy_id"] == pid and p["status"] == "scheduled" for p in self.db["premium_changes"].values())

    def money(self, lo, hi):
        return self.rng.randint(int(lo * 100), int(hi * 100)) / 100


# ------------------------------------------------------------------ valid calls
def v_get_policy(x):
    return {"policy_id": x.pick(x.pols)["policy_id"]}


def v_search_holders(x):
    h = x.pick(x.holders)
    q = x.pick([h["full_name"].split()[-1].lower(), h["full_name"].split()[0].upper(), h["email"].split("@")[0][:5],
                "mailbox"])
    args = {"q": q}
    if x.rng.random() < 0.3:
        args["state"] = h["state"]
    return args


def v_list_adjusters(x):
    args = {}
    if x.rng.random() < 0.6:
        args["peril"] = x.pick(PERILS)
    if x.rng.random() < 0.5:
        args["state"] = x.pick(["TX", "FL", "LA", "GA", "NC"])
    if x.rng.random() < 0.5:
        args["available"] = x.rng.random() < 0.7
    return args


def v_list_claims(x):
    args = {}
    r = x.rng.random()
    if r < 0.3:
        args["status"] = x.pick(("filed", "assessed", "approved", "denied", "paid", "closed", "reopened"))
    elif r < 0.5:
        args["policy_id"] = x.pick(x.claims)["policy_id"]
    elif r < 0.65:
        args["adjuster_id"] = x.pick(x.adjs)["adjuster_id"]
    if x.rng.random() < 0.3:
        args["peril"] = x.pick(PERILS)
    if x.rng.random() < 0.4:
        lo = x.today - dt.timedelta(days=x.rng.randint(10, 120))
        args["filed_from"] = lo.isoformat()
        if x.rng.random() < 0.6:
            args["filed_to"] = (lo + dt.timedelta(days=x.rng.randint(0, 60))).isoformat()
    return args


def v_get_claim(x):
    return {"claim_id": x.pick(x.claims)["claim_id"]}


def v_file_claim(x):
    opts = [(p, k) for p in x.pols if p["status"] == "active" and x.file_window(p) for k in p["coverage"]
            if x.remaining(p, k) > 0 and not x.conflict(p["policy_id"], k)]
    p, k = x.pick(opts)
    return {"policy_id": p["policy_id"], "peril": k, "incident_date": x.rand_day(*x.file_window(p)),
            "description": x.pick(["Ceiling stain spreading from attic", "Storm damage to roof and gutters",
                                   "Back door forced open, laptop stolen", "Small fire in kitchen"])}


def v_assign_adjuster(x):
    opts = [(c, a) for c in x.by_status("filed", "reopened") for a in x.adjs if x.can_assign(c, a)]
    c, a = x.pick(opts)
    return {"claim_id": c["claim_id"], "adjuster_id": a["adjuster_id"]}


def v_attach_document(x):
    c = x.pick([c for c in x.claims if c["status"] != "closed" and len(x.docs(c["claim_id"])) < 10])
    kind = x.pick(("photo", "repair_estimate", "invoice", "police_report", "other"))
    ext = x.pick(("pdf", "jpg", "PNG", "jpeg"))
    return {"claim_id": c["claim_id"], "doc_type": kind, "filename": f"{kind}_upload_{x.rng.randint(100, 999)}.{ext}",
            "size_kb": x.rng.randint(1, 25000)}


def v_assess_claim(x):
    c = x.pick([c for c in x.claims if x.assessable(c)])
    if c is None:
        return None
    lo = float(c["assessed_amount"] or 0) + 0.01
    return {"claim_id": c["claim_id"], "assessed_amount": x.money(max(lo, 200), max(lo, 200) + 40000)}


def v_decide_claim(x):
    c = x.pick(x.by_status("assessed"))
    pay = x.payable(c)
    adj = x.db["adjusters"][c["adjuster_id"]]
    if pay > 0 and x.rng.random() < 0.6:
        args = {"claim_id": c["claim_id"], "decision": "approve"}
        if pay > Decimal(str(adj["authority_limit"])) or x.rng.random() < 0.3:
            args["supervisor_override"] = True
        return args
    return {"claim_id": c["claim_id"], "decision": "deny",
            "denial_reason": "below_deductible" if pay <= 0 else x.pick(("policy_exclusion", "fraud_suspected"))}


def v_issue_payout(x):
    c = x.pick(x.by_status("approved"))
    bank = x.db["holders"][c["holder_id"]]["bank_account_last4"]
    return {"claim_id": c["claim_id"], "method": "direct_deposit" if bank and x.rng.random() < 0.6 else "check"}


def v_close_claim(x):
    return {"claim_id": x.pick(x.by_status("paid", "denied", "filed"))["claim_id"]}


def v_reopen_claim(x):
    c = x.pick([c for c in x.claims if x.reopenable(c)])
    if c is None:
        return None
    return {"claim_id": c["claim_id"], "reason": "Contractor found additional damage behind drywall"}


def v_change_premium(x):
    p = x.pick([p for p in x.pols if p["status"] == "active" and not x.scheduled(p["policy_id"])])
    old = Decimal(str(p["annual_premium"]))
    reason = x.pick(("rate_filing", "coverage_change", "claims_history", "discount_applied", "correction"))
    pct = {"claims_history": x.rng.uniform(0.01, 0.24), "discount_applied": -x.rng.uniform(0.01, 0.24),
           "correction": x.rng.uniform(-0.5, 0.6)}.get(reason, x.rng.uniform(-0.24, 0.24))
    new = (old * Decimal(str(1 + pct))).quantize(CENT, ROUND_HALF_UP)
    if new == old:
        new += CENT
    exp = _d(p["expiry_date"])
    eff = x.today if x.rng.random() < 0.5 else x.today + dt.timedelta(days=x.rng.randint(1, (exp - x.today).days))
    return {"policy_id": p["policy_id"], "new_premium": float(new), "reason": reason,
            "effective_date": eff.isoformat()}


# ------------------------------------------------------------------ calls that must be refused
def i_get_policy(x):
    return {"policy_id": x.pick(["POL-99999", "pol-10001", "10001", ""])}


def i_search_holders(x):
    return x.pick([{"q": "a"}, {"q": "   "}, {"q": "son", "state": "tx"}, {"q": "ava", "state": "Texas"}, {},
                   {"q": "lee", "city": "Tampa"}])


def i_list_adjusters(x):
    return x.pick([{"peril": "flood"}, {"state": "Florida"}, {"available": "yes"}, {"peril": "Fire"}])


def i_list_claims(x):
    return x.pick([{"status": "open"}, {"filed_from": "2025-06-01", "filed_to": "2025-05-01"},
                   {"filed_from": "2025-13-01"}, {"policy_id": "POL-99999"}, {"adjuster_id": "ADJ-99"},
                   {"peril": "earthquake"}, {"filed_to": "06/01/2025"}])


def i_get_claim(x):
    return {"claim_id": x.pick(["CLM-99999", "CLM-1", "clm-00001"])}


def i_file_claim(x):
    kind = x.rng.randint(0, 9)
    active = [p for p in x.pols if p["status"] == "active" and x.file_window(p)]
    base = "Water spots on ceiling"
    if kind == 0:
        p = x.pick([p for p in x.pols if p["status"] != "active"])
        return {"policy_id": p["policy_id"], "peril": "fire", "incident_date": x.today.isoformat(), "description": base}
    if kind == 1:
        opts = [(p, k) for p in active for k in PERILS if k not in p["coverage"]]
        p, k = x.pick(opts)
        return {"policy_id": p["policy_id"], "peril": k, "incident_date": x.today.isoformat(), "description": base}
    p = x.pick(active)
    args = {"policy_id": p["policy_id"], "peril": "fire", "incident_date": x.today.isoformat(), "description": base}
    if kind == 2:
        args["incident_date"] = (x.today + dt.timedelta(days=x.rng.randint(1, 10))).isoformat()
    elif kind == 3:
        args["incident_date"] = (x.today - dt.timedelta(days=x.rng.randint(61, 90))).isoformat()
    elif kind == 4:
        c = x.pick([c for c in x.by_status(*OPEN) if x.db["policies"][c["policy_id"]]["status"] == "active"])
        args.update(policy_id=c["policy_id"], peril=c["peril"])
    elif kind == 5:
        opts = [(q, k) for q in active for k in q["coverage"] if x.remaining(q, k) <= 0 and not x.conflict(
            q["policy_id"], k)]
        if opts:
            q, k = x.pick(opts)
            args.update(policy_id=q["policy_id"], peril=k)
        else:
            args["peril"] = "flood"
    elif kind == 6:
        args["description"] = "  "
    elif kind == 7:
        args["incident_date"] = x.today.strftime("%m/%d/%Y")
    elif kind == 8:
        late = [q for q in active if (x.today - _d(q["effective_date"])).days < 60]
        if late:
            q = x.pick(late)
            args.update(policy_id=q["policy_id"],
                        incident_date=(_d(q["effective_date"]) - dt.timedelta(days=1)).isoformat())
        else:
            args["policy_id"] = "POL-00000"
    else:
        args["peril"] = "flood"
    return args


def i_assign_adjuster(x):
    kind = x.rng.randint(0, 6)
    cands = x.by_status("filed", "reopened")
    if kind == 0:
        c = x.pick(x.by_status("assessed", "approved", "closed", "paid", "denied"))
        return {"claim_id": c["claim_id"], "adjuster_id": x.pick(x.adjs)["adjuster_id"]}
    if kind == 6:
        return {"claim_id": x.pick(cands)["claim_id"], "adjuster_id": "ADJ-77"}
    test = {1: lambda c, a: not a["active"],
            2: lambda c, a: c["peril"] not in a["specialties"],
            3: lambda c, a: x.state_of(c) not in a["licensed_states"],
            4: lambda c, a: a["open_claims"] >= a["max_open_claims"],
            5: lambda c, a: c["adjuster_id"] == a["adjuster_id"]}[kind]
    c, a = x.pick([(c, a) for c in cands for a in x.adjs if test(c, a)])
    return {"claim_id": c["claim_id"], "adjuster_id": a["adjuster_id"]}


def i_attach_document(x):
    kind = x.rng.randint(0, 6)
    ok = [c for c in x.claims if c["status"] != "closed" and 0 < len(x.docs(c["claim_id"])) < 10]
    c = x.pick(ok)
    args = {"claim_id": c["claim_id"], "doc_type": "photo", "filename": "extra_view.jpg", "size_kb": 500}
    if kind == 0:
        args["claim_id"] = x.pick(x.by_status("closed"))["claim_id"]
    elif kind == 1:
        args["claim_id"] = x.pick([c for c in x.claims if len(x.docs(c["claim_id"])) >= 10])["claim_id"]
    elif kind == 2:
        args["filename"] = "statement.docx"
    elif kind == 3:
        args["filename"] = x.docs(c["claim_id"])[0]["filename"].upper()
    elif kind == 4:
        args["size_kb"] = x.pick([0, 25001, "300", 12.5])
    elif kind == 5:
        args["doc_type"] = "video"
    else:
        args["claim_id"] = "CLM-99999"
    return args


def i_assess_claim(x):
    kind = x.rng.randint(0, 6)
    if kind == 0:
        c = x.pick([c for c in x.by_status("filed", "reopened") if not c["adjuster_id"]])
    elif kind == 1:
        c = x.pick([c for c in x.by_status("filed", "reopened") if c["adjuster_id"] and not x.assessable(c)])
    elif kind == 2:
        c = x.pick(x.by_status("assessed", "approved", "denied", "paid", "closed"))
    elif kind == 3:
        c = x.pick([c for c in x.by_status("reopened") if x.assessable(c)])
        if c is not None:
            return {"claim_id": c["claim_id"], "assessed_amount": c["assessed_amount"]}
        c = x.pick([c for c in x.claims if not x.assessable(c)])
    else:
        c = x.pick([c for c in x.claims if x.assessable(c)]) or x.pick(x.claims)
        bad = {4: 0, 5: 1234.567, 6: x.pick([1000000.01, -50, "900"])}[kind]
        return {"claim_id": c["claim_id"], "assessed_amount": bad}
    return {"claim_id": (c or {"claim_id": "CLM-00000"})["claim_id"], "assessed_amount": 4200.0}


def i_decide_claim(x):
    kind = x.rng.randint(0, 5)
    assessed = x.by_status("assessed")
    if kind == 0:
        c = x.pick([c for c in assessed if x.payable(c) <= 0])
        if c:
            return {"claim_id": c["claim_id"], "decision": "approve", "supervisor_override": True}
    if kind == 1:
        c = x.pick([c for c in assessed if x.payable(c) > Decimal(
            str(x.db["adjusters"][c["adjuster_id"]]["authority_limit"]))])
        if c:
            return {"claim_id": c["claim_id"], "decision": "approve"}
    c = x.pick(assessed)
    if kind == 2:
        return {"claim_id": c["claim_id"], "decision": "deny"}
    if kind == 3:
        return {"claim_id": c["claim_id"], "decision": "approve", "denial_reason": "not_covered"}
    if kind == 4:
        return {"claim_id": c["claim_id"], "decision": x.pick(["maybe", "deny"]),
                "denial_reason": "too_expensive"}
    c = x.pick(x.by_status("filed", "approved", "paid", "closed", "denied"))
    return {"claim_id": c["claim_id"], "decision": "deny", "denial_reason": "not_covered"}


def i_issue_payout(x):
    kind = x.rng.randint(0, 2)
    if kind == 0:
        c = x.pick([c for c in x.by_status("approved") if not x.db["holders"][c["holder_id"]]["bank_account_last4"]])
        if c:
            return {"claim_id": c["claim_id"], "method": "direct_deposit"}
    if kind == 1:
        return {"claim_id": x.pick(x.by_status("approved"))["claim_id"], "method": "cash"}
    c = x.pick(x.by_status("filed", "assessed", "paid", "denied", "closed", "reopened"))
    return {"claim_id": c["claim_id"], "method": "check"}


def i_close_claim(x):
    c = x.pick(x.by_status("assessed", "approved", "reopened", "closed"))
    return {"claim_id": c["claim_id"]}


def i_reopen_claim(x):
    kind = x.rng.randint(0, 3)
    closed = x.by_status("closed")
    tests = [lambda c: c["close_reason"] == "withdrawn",
             lambda c: (x.today - _d(c["closed_on"])).days > 90,
             lambda c: c["reopen_count"] >= 2 or x.db["policies"][c["policy_id"]]["status"] != "active"]
    if kind < 3:
        c = x.pick([c for c in closed if tests[kind](c)])
        if c:
            return {"claim_id": c["claim_id"], "reason": "Customer disputes settlement"}
    c = x.pick(x.by_status("filed", "assessed", "approved", "paid", "denied", "reopened"))
    if kind == 3 and x.rng.random() < 0.3:
        c = x.pick([c for c in closed if x.reopenable(c)]) or c
        return {"claim_id": c["claim_id"], "reason": " "}
    return {"claim_id": c["claim_id"], "reason": "Customer disputes settlement"}


def i_change_premium(x):
    kind = x.rng.randint(0, 8)
    ok = [p for p in x.pols if p["status"] == "active" and not x.scheduled(p["policy_id"])]
    p = x.pick(ok)
    old = Decimal(str(p["annual_premium"]))
    args = {"policy_id": p["policy_id"], "new_premium": float((old * Decimal("1.05")).quantize(CENT)),
            "reason": "rate_filing", "effective_date": x.today.isoformat()}
    if kind == 0:
        args["policy_id"] = x.pick([q for q in x.pols if q["status"] != "active"])["policy_id"]
    elif kind == 1:
        args["policy_id"] = x.pick([q for q in x.pols if x.scheduled(q["policy_id"])])["policy_id"]
    elif kind == 2:
        args["new_premium"] = float((old * Decimal("1.30")).quantize(CENT))
    elif kind == 3:
        args.update(reason="claims_history", new_premium=float((old * Decimal("0.95")).quantize(CENT)))
    elif kind == 4:
        args.update(reason="discount_applied")
    elif kind == 5:
        args["effective_date"] = (x.today - dt.timedelta(days=1)).isoformat()
    elif kind == 6:
        args["effective_date"] = (_d(p["expiry_date"]) + dt.timedelta(days=1)).isoformat()
    elif kind == 7:
        args["new_premium"] = float(old)
    else:
        args["new_premium"] = x.pick([1500.555, 0, -20.0])
    return args


TOOLS = ["get_policy", "search_holders", "list_adjusters", "list_claims", "get_claim", "file_claim",
         "assign_adjuster", "attach_document", "assess_claim", "decide_claim", "issue_payout", "close_claim",
         "reopen_claim", "change_premium"]


def probes(db, rng, n):
    x = _Ctx(db, rng)
    out = []
    for i in range(n):
        name = TOOLS[i % len(TOOLS)] if i < len(TOOLS) * 2 else rng.choice(TOOLS)
        valid = rng.random() < 0.6
        gen = globals()[("v_" if valid else "i_") + name]
        args = gen(x)
        if args is None:
            args = globals()["i_" + name](x)
        out.append((name, args))
    return out
