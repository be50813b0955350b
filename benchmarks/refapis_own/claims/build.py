"""Writes db.json for the home-insurance claims desk (deterministic, stdlib only)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

SEED = 416
TODAY = dt.date(2025, 6, 16)
PERILS = ["fire", "water", "theft", "windstorm", "vandalism"]
STATES = ["TX", "FL", "LA", "GA", "NC"]
FIRST = ["Ava", "Liam", "Maya", "Noah", "Zoe", "Ethan", "Priya", "Omar", "Grace", "Lucas", "Hana", "Mateo",
         "Chloe", "Darius", "Ingrid", "Felix", "Rosa", "Tobias", "Nadia", "Caleb", "Yusuf", "Elena", "Marcus",
         "Leah", "Samir", "Bianca", "Hugo", "Keira", "Rafael", "Tessa"]
LAST = ["Alvarez", "Brennan", "Choi", "Dubois", "Ekwueme", "Fischer", "Garrity", "Holloway", "Ibarra", "Jensen",
        "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Pereira", "Quinlan", "Rasmussen", "Sato",
        "Thornton", "Underwood", "Varga", "Whitfield", "Yilmaz", "Zamora"]
STREETS = ["Oak Ridge Dr", "Magnolia Ln", "Bayou Rd", "Cypress Ct", "Pine Hollow Way", "Harbor View Ave",
           "Live Oak St", "Palmetto Blvd", "Cedar Bend", "Willow Creek Rd"]
CITIES = {"TX": ["Houston", "Galveston", "Corpus Christi"], "FL": ["Tampa", "Pensacola", "Naples"],
          "LA": ["Lafayette", "Lake Charles", "Metairie"], "GA": ["Savannah", "Macon", "Brunswick"],
          "NC": ["Wilmington", "Raleigh", "Outer Banks"]}
LIMITS = {"fire": (150, 600, 10000), "water": (10, 50, 1000), "theft": (5, 25, 1000),
          "windstorm": (100, 400, 10000), "vandalism": (5, 15, 1000)}
LOSS = {"fire": (2000, 120000), "water": (800, 25000), "theft": (500, 15000), "windstorm": (3000, 80000),
        "vandalism": (300, 8000)}
DESC = {"fire": ["Kitchen grease fire damaged cabinets", "Electrical fire in garage", "Dryer vent fire in laundry room"],
        "water": ["Burst pipe under upstairs bathroom", "Water heater failure flooded utility room",
                  "Dishwasher supply line leak"],
        "theft": ["Break-in, electronics and jewelry stolen", "Tools stolen from detached shed",
                  "Bicycles taken from locked garage"],
        "windstorm": ["Roof shingles torn off during storm", "Fallen tree on rear porch after high winds",
                      "Siding and fence damaged by wind"],
        "vandalism": ["Graffiti on exterior walls", "Windows broken by vandals", "Mailbox and fence vandalized"]}
OPEN = ("filed", "assessed", "approved", "reopened")

rng = random.Random(SEED)


def d2(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def iso(d):
    return d.isoformat()


def days(n):
    return dt.timedelta(days=n)


def add_year(d):
    try:
        return d.replace(year=d.year + 1)
    except ValueError:
        return d.replace(year=d.year + 1, day=28)


def cents(lo, hi):
    return rng.randint(lo * 100, hi * 100) / 100


db = {"meta": {"today": iso(TODAY), "currency": "USD", "seed": SEED},
      "holders": {}, "policies": {}, "adjusters": {}, "claims": {}, "documents": {}, "payouts": {},
      "premium_changes": {}}

# ---- holders
for i in range(40):
    hid = f"PH-{i + 1:04d}"
    fn, ln = FIRST[i % len(FIRST)], LAST[(i * 7) % len(LAST)]
    st = STATES[i % len(STATES)] if i < 35 else rng.choice(STATES)
    db["holders"][hid] = {
        "holder_id": hid, "full_name": f"{fn} {ln}", "email": f"{fn.lower()}.{ln.lower()}{i + 1}@mailbox.example",
        "phone": f"555-{rng.randint(200, 989):03d}-{rng.randint(0, 9999):04d}", "state": st,
        "bank_account_last4": (f"{rng.randint(0, 9999):04d}" if rng.random() < 0.7 else None),
        "member_since": iso(dt.date(2015, 1, 1) + days(rng.randint(0, 3400))), "claims_filed": 0}
hids = sorted(db["holders"])

# ---- policies
for i in range(50):
    pid = f"POL-{10001 + i}"
    hid = hids[i] if i < 40 else rng.choice(hids)
    st = db["holders"][hid]["state"]
    if i < 40:
        status, eff = "active", TODAY - days(rng.randint(20, 340))
    elif i < 46:
        status, eff = "lapsed", TODAY - days(rng.randint(390, 690))
    else:
        status, eff = "cancelled", TODAY - days(rng.randint(120, 330))
    exp = add_year(eff)
    cov = {}
    for p in PERILS:
        if p in ("fire", "windstorm") or rng.random() < {"water": 0.85, "theft": 0.8, "vandalism": 0.6}[p]:
            lo, hi, step = LIMITS[p]
            cov[p] = float(rng.randint(lo * 1000 // step, hi * 1000 // step) * step)
    db["policies"][pid] = {
        "policy_id": pid, "holder_id": hid, "status": status,
        "property_address": f"{rng.randint(100, 9899)} {rng.choice(STREETS)}, {rng.choice(CITIES[st])}, {st}",
        "effective_date": iso(eff), "expiry_date": iso(exp),
        "cancelled_on": iso(eff + days(rng.randint(40, 100))) if status == "cancelled" else None,
        "deductible": float(rng.choice([500, 1000, 1000, 1500, 2500])),
        "annual_premium": cents(950, 4200), "coverage": cov, "paid_to_date": {p: 0.0 for p in cov}}

# ---- adjusters
ANAMES = ["Dana Whitaker", "Jorge Salcedo", "Mei Lin Tran", "Patrick O'Hare", "Sofia Bergstrom", "Kwame Mensah",
          "Renee Castillo", "Victor Anand", "Louise Park", "Gideon Frye", "Amara Diallo", "Brett Kessler"]
for i, nm in enumerate(ANAMES):
    aid = f"ADJ-{i + 1:02d}"
    lic = sorted(set([STATES[i % 5], STATES[(i + 2) % 5]] + ([rng.choice(STATES)] if rng.random() < 0.5 else [])))
    spec = sorted(set([PERILS[i % 5], PERILS[(i + 1) % 5]] + rng.sample(PERILS, rng.randint(0, 2))),
                  key=PERILS.index)
    db["adjusters"][aid] = {
        "adjuster_id": aid, "name": nm, "active": i < 10, "licensed_states": lic, "specialties": spec,
        "max_open_claims": [3, 4, 5, 6][i % 4] if i not in (2, 7) else 2,
        "authority_limit": [10000.0, 25000.0, 50000.0][i % 3], "open_claims": 0}

pols = db["policies"]
claims = db["claims"]


def eff_deductible(pol, peril):
    d = Decimal(str(pol["deductible"]))
    if peril == "windstorm":
        d = max(d, (Decimal(str(pol["coverage"]["windstorm"])) * Decimal("0.02")).quantize(Decimal("0.01")))
    return d


def payable(pol, c):
    gross = Decimal(str(c["assessed_amount"])) - eff_deductible(pol, c["peril"]) - Decimal(str(c["paid_total"]))
    rem = Decimal(str(pol["coverage"][c["peril"]])) - Decimal(str(pol["paid_to_date"][c["peril"]]))
    return d2(min(gross, rem))


def pick_adjuster(c, need_capacity, strict_active=True):
    st = db["holders"][c["holder_id"]]["state"]
    cands = [a for a in db["adjusters"].values()
             if st in a["licensed_states"] and c["peril"] in a["specialties"]
             and (a["active"] or not strict_active)
             and (not need_capacity or a["open_claims"] < a["max_open_claims"])]
    return rng.choice(cands) if cands else None


def open_conflict(pid, peril):
    return any(x["policy_id"] == pid and x["peril"] == peril and x["status"] in OPEN for x in claims.values())


doc_seq = [0]
pay_seq = [0]


def add_doc(c, kind, on):
    doc_seq[0] += 1
    did = f"DOC-{doc_seq[0]:06d}"
    ext = {"photo": rng.choice(["jpg", "png", "jpeg"]), "repair_estimate": "pdf", "invoice": "pdf",
           "police_report": "pdf", "other": rng.choice(["pdf", "jpg"])}[kind]
    db["documents"][did] = {"document_id": did, "claim_id": c["claim_id"], "doc_type": kind,
                            "filename": f"{kind}_{doc_seq[0]}.{ext}", "size_kb": rng.randint(80, 9000),
                            "uploaded_on": iso(on)}
    c["document_count"] += 1


def add_required_docs(c, start, end):
    span = max(0, (end - start).days)
    add_doc(c, rng.choice(["photo", "repair_estimate"]), start + days(rng.randint(0, span)))
    if c["peril"] in ("theft", "vandalism"):
        add_doc(c, "police_report", start + days(rng.randint(0, span)))
    for _ in range(rng.randint(0, 2)):
        add_doc(c, rng.choice(["photo", "invoice", "other", "repair_estimate"]), start + days(rng.randint(0, span)))


def pay(c, pol, on):
    amt = c["approved_amount"]
    pay_seq[0] += 1
    hid = c["holder_id"]
    method = "direct_deposit" if db["holders"][hid]["bank_account_last4"] and rng.random() < 0.7 else "check"
    pyid = f"PAY-{pay_seq[0]:05d}"
    db["payouts"][pyid] = {"payout_id": pyid, "claim_id": c["claim_id"], "policy_id": pol["policy_id"],
                           "holder_id": hid, "peril": c["peril"], "amount": amt, "method": method,
                           "issued_on": iso(on), "status": "issued"}
    pol["paid_to_date"][c["peril"]] = d2(Decimal(str(pol["paid_to_date"][c["peril"]])) + Decimal(str(amt)))
    c["paid_total"] = d2(Decimal(str(c["paid_total"])) + Decimal(str(amt)))
    c["paid_on"] = iso(on)


# plan: (final status, variant)
PLAN = (["closed_settled"] * 10 + ["closed_denied"] * 4 + ["closed_withdrawn"] * 3 + ["paid"] * 6 +
        ["denied"] * 6 + ["approved"] * 6 + ["assessed"] * 9 + ["filed_adj"] * 10 + ["filed"] * 10 +
        ["reopened"] * 4 + ["closed_exhaust"] * 2)
rng.shuffle(PLAN)
REASONS = ["not_covered", "below_deductible", "policy_exclusion", "fraud_suspected", "insufficient_documentation"]

n = 0
for plan in PLAN:
    historic = plan.startswith("closed")
    for _try in range(200):
        pid = rng.choice(sorted(pols))
        pol = pols[pid]
        if pol["status"] == "cancelled" and not historic:
            continue
        if pol["status"] == "lapsed" and not historic:
            continue
        peril = "theft" if plan == "closed_exhaust" else rng.choice(sorted(pol["coverage"], key=PERILS.index))
        if peril not in pol["coverage"]:
            continue
        if plan not in ("closed_settled", "closed_denied", "closed_withdrawn", "closed_exhaust") \
                and open_conflict(pid, peril):
            continue
        eff, exp = dt.date.fromisoformat(pol["effective_date"]), dt.date.fromisoformat(pol["expiry_date"])
        age = {"filed": (1, 18), "filed_adj": (3, 25), "assessed": (10, 40), "approved": (15, 50),
               "denied": (20, 70), "paid": (20, 80), "reopened": (60, 150)}.get(plan, (40, 300))
        filed = TODAY - days(rng.randint(*age))
        incident = filed - days(rng.randint(0, 12))
        if pol["status"] == "cancelled":
            exp = dt.date.fromisoformat(pol["cancelled_on"])
        if not (eff <= incident <= exp):
            continue
        if plan == "closed_exhaust" and pol["paid_to_date"].get("theft", 0) > 0:
            continue
        break
    else:
        continue
    n += 1
    cid = f"CLM-{n:05d}"
    c = {"claim_id": cid, "policy_id": pid, "holder_id": pol["holder_id"], "peril": peril, "status": "filed",
         "incident_date": iso(incident), "filed_on": iso(filed), "description": rng.choice(DESC[peril]),
         "adjuster_id": None, "assigned_on": None, "document_count": 0, "assessed_amount": None,
         "assessed_on": None, "approved_amount": None, "decided_on": None, "denial_reason": None,
         "paid_total": 0.0, "paid_on": None, "close_reason": None, "closed_on": None, "reopen_count": 0,
         "reopen_reason": None, "reopened_on": None}
    claims[cid] = c
    db["holders"][pol["holder_id"]]["claims_filed"] += 1
    if plan == "filed":
        for _ in range(rng.choice([0, 0, 1, 2])):
            add_doc(c, rng.choice(["photo", "invoice", "other"]), filed + days(rng.randint(0, (TODAY - filed).days)))
        continue
    elapsed = (TODAY - filed).days
    live = plan in ("filed_adj", "assessed", "approved")
    a = pick_adjuster(c, need_capacity=live, strict_active=live or rng.random() < 0.8)
    if a is None:
        if live:
            continue  # stays filed, unassigned
        a = pick_adjuster(c, need_capacity=False, strict_active=False) or rng.choice(
            [x for x in db["adjusters"].values() if peril in x["specialties"]])
    assigned = filed + days(rng.randint(0, min(3, elapsed)))
    c["adjuster_id"], c["assigned_on"] = a["adjuster_id"], iso(assigned)
    if plan == "filed_adj":
        a["open_claims"] += 1
        if rng.random() < 0.5:
            add_required_docs(c, filed, TODAY)
        elif rng.random() < 0.5:
            add_doc(c, "invoice", filed)
        continue
    if plan == "closed_withdrawn":
        c["status"], c["close_reason"] = "closed", "withdrawn"
        c["closed_on"] = iso(assigned + days(rng.randint(1, 20)))
        continue
    add_required_docs(c, filed, assigned + days(3))
    assessed_on = assigned + days(rng.randint(2, max(2, min(12, (TODAY - assigned).days - 4))))
    lo, hi = LOSS[peril]
    ded = float(eff_deductible(pol, peril))
    if plan == "closed_exhaust":
        amt = d2(pol["coverage"]["theft"] + ded + rng.randint(100, 3000))
    elif plan in ("closed_denied", "denied") and rng.random() < 0.4:
        amt = d2(max(50, ded - rng.randint(20, 400)) + rng.randint(0, 99) / 100)
    elif plan == "assessed" and rng.random() < 0.25:
        amt = d2(max(50, ded - rng.randint(20, 300)) + rng.randint(0, 99) / 100)
    else:
        amt = d2(ded + cents(lo, hi))
    c["assessed_amount"], c["assessed_on"], c["status"] = amt, iso(assessed_on), "assessed"
    if plan == "assessed":
        a["open_claims"] += 1
        continue
    decided = assessed_on + days(rng.randint(1, 5))
    c["decided_on"] = iso(decided)
    if plan in ("closed_denied", "denied") or payable(pol, c) <= 0:
        c["status"] = "denied"
        c["denial_reason"] = "below_deductible" if payable(pol, c) <= 0 else rng.choice(
            [r for r in REASONS if r != "below_deductible"])
        if plan == "closed_denied":
            c["status"], c["close_reason"], c["closed_on"] = "closed", "denied", iso(decided + days(rng.randint(1, 10)))
        continue
    c["approved_amount"], c["status"] = payable(pol, c), "approved"
    if plan == "approved":
        a["open_claims"] += 1
        continue
    paid_on = decided + days(rng.randint(1, 6))
    pay(c, pol, paid_on)
    c["status"] = "paid"
    if plan == "paid":
        continue
    c["status"], c["close_reason"], c["closed_on"] = "closed", "settled", iso(paid_on + days(rng.randint(1, 12)))
    if plan == "reopened":
        ro = dt.date.fromisoformat(c["closed_on"]) + days(rng.randint(5, 40))
        ro = min(ro, TODAY - days(2))
        c.update({"status": "reopened", "reopen_count": 1, "close_reason": None, "closed_on": None,
                  "reopen_reason": "Hidden damage found during repairs", "reopened_on": iso(ro),
                  "adjuster_id": None, "assigned_on": None, "approved_amount": None, "decided_on": None})
        if rng.random() < 0.5:
            b = pick_adjuster(c, need_capacity=True)
            if b:
                c["adjuster_id"], c["assigned_on"] = b["adjuster_id"], iso(ro + days(1))
                b["open_claims"] += 1
    elif plan == "closed_settled" and rng.random() < 0.3:
        c["reopen_count"] = rng.choice([1, 2])
        c["reopen_reason"] = "Additional contents inventory submitted"
        c["reopened_on"] = iso(dt.date.fromisoformat(c["closed_on"]) - days(1))

# a claim loaded up with the maximum number of documents
full = next(c for c in claims.values() if c["status"] == "filed" and c["document_count"] == 0)
for k in range(10):
    add_doc(full, ["photo", "photo", "invoice", "other", "repair_estimate"][k % 5], dt.date.fromisoformat(full["filed_on"]))

# ---- premium changes
pc = 0
hist = rng.sample(sorted(p for p in pols if pols[p]["status"] == "active"), 16)
for pid in hist:
    pol = pols[pid]
    eff = dt.date.fromisoformat(pol["effective_date"])
    k = rng.randint(1, 2)
    prem = pol["annual_premium"]
    chain = []
    for j in range(k):
        reason = rng.choice(["rate_filing", "coverage_change", "claims_history", "discount_applied"])
        pct = {"claims_history": rng.uniform(0.03, 0.2), "discount_applied": -rng.uniform(0.03, 0.15)}.get(
            reason, rng.uniform(-0.1, 0.2))
        chain.append((reason, pct))
    # walk backwards from the current premium
    news = []
    cur = Decimal(str(prem))
    for reason, pct in reversed(chain):
        old = (cur / Decimal(str(1 + pct))).quantize(Decimal("0.01"), ROUND_HALF_UP)
        if reason == "claims_history" and old >= cur:
            old = cur - Decimal("10.00")
        if reason == "discount_applied" and old <= cur:
            old = cur + Decimal("10.00")
        news.append((reason, old, cur))
        cur = old
    news.reverse()
    span = max(1, (TODAY - eff).days - 2)
    dates = sorted(rng.sample(range(1, span + 1), len(news))) if span >= len(news) else [1] * len(news)
    for (reason, old, new), off in zip(news, dates):
        pc += 1
        chid = f"PCH-{pc:04d}"
        on = eff + days(off)
        db["premium_changes"][chid] = {
            "change_id": chid, "policy_id": pid, "old_premium": float(old), "new_premium": float(new),
            "change_pct": d2((new - old) / old * 100), "reason": reason, "effective_date": iso(on),
            "status": "applied", "created_on": iso(on - days(rng.randint(0, 10)) if off > 10 else on)}
sched = rng.sample(sorted(p for p in pols if pols[p]["status"] == "active" and p not in hist), 4)
for pid in sched:
    pol = pols[pid]
    old = Decimal(str(pol["annual_premium"]))
    new = (old * Decimal("1.08")).quantize(Decimal("0.01"), ROUND_HALF_UP)
    exp = dt.date.fromisoformat(pol["expiry_date"])
    on = TODAY + days(rng.randint(3, max(3, min(60, (exp - TODAY).days))))
    pc += 1
    chid = f"PCH-{pc:04d}"
    db["premium_changes"][chid] = {
        "change_id": chid, "policy_id": pid, "old_premium": float(old), "new_premium": float(new),
        "change_pct": d2((new - old) / old * 100), "reason": "rate_filing", "effective_date": iso(on),
        "status": "scheduled", "created_on": iso(TODAY - days(rng.randint(1, 20)))}

# sort collections by id for readability
for coll in ("documents", "payouts", "premium_changes"):
    db[coll] = dict(sorted(db[coll].items()))

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
with open(out, "w") as f:
    json.dump(db, f, indent=1)
print({k: len(v) for k, v in db.items() if k != "meta"})
