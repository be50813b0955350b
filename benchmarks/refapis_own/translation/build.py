"""Generates db.json for the Tessera Language Services job desk (stdlib only, fixed seed)."""
import json
import os
import random
from datetime import date, datetime, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 4417
TODAY = date(2025, 5, 14)
NOW = "2025-05-14T10:00:00Z"
CENT = Decimal("0.01")
MIN_FEE = Decimal("40.00")

SUBJECTS = ["general", "technical", "marketing", "legal", "medical"]
SPECIALIST = ("legal", "medical")

RATES = [
    ("en", "de", "0.12"), ("en", "fr", "0.12"), ("en", "es", "0.11"), ("en", "it", "0.12"),
    ("en", "nl", "0.13"), ("en", "pt", "0.11"), ("en", "pl", "0.10"), ("en", "sv", "0.14"),
    ("en", "ja", "0.18"), ("en", "zh", "0.17"), ("en", "ar", "0.16"),
    ("de", "en", "0.13"), ("fr", "en", "0.13"), ("es", "en", "0.12"), ("it", "en", "0.13"),
    ("ja", "en", "0.20"), ("zh", "en", "0.19"),
    ("de", "fr", "0.14"), ("fr", "de", "0.14"), ("es", "pt", "0.10"), ("fr", "es", "0.12"),
    ("de", "nl", "0.13"),
]

COMPANIES = [
    "Harbourline Logistics", "Brightwater Pharma", "Keller & Moss LLP", "Orchard Street Media",
    "Norvik Engineering", "Calloway Medical Devices", "Bluefin Travel", "Stonebridge Insurance",
    "Pinecrest Software", "Marlow Fashion House", "Quayside Publishing", "Redfern Biotech",
    "Atlas Wind Energy", "Fenwick Legal Partners", "Lumen Games", "Greystone Bank",
    "Silverleaf Cosmetics", "Tidewater Shipping", "Vantage Robotics", "Oakhurst University Press",
    "Cobalt Automotive", "Meridian Hotels", "Juniper Health Group", "Northgate Retail",
    "Halcyon Film Studio", "Ironwood Construction", "Blue Heron Foods", "Castell Wines",
    "Everline Telecom", "Primrose Toys", "Westmark Consulting", "Solstice Solar",
    "Ashby & Finch Solicitors", "Kestrel Aerospace", "Riverside Museum Trust", "Nimbus Cloud Systems",
    "Copperfield Chemicals", "Amberly Clinics", "Lighthouse NGO", "Zephyr Sportswear",
]
FIRST = ["Anna", "Ben", "Clara", "David", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas",
         "Kaori", "Luca", "Maya", "Nils", "Olga", "Pedro", "Rosa", "Sami", "Tomas", "Ula",
         "Victor", "Wen", "Yara", "Zoe", "Marta", "Omar", "Lena", "Karim", "Sofia", "Piotr"]
LAST = ["Albers", "Bianchi", "Cortez", "Dubois", "Eriksen", "Fischer", "Garcia", "Hayashi",
        "Ivanova", "Jansen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Oliveira", "Petrov",
        "Quinn", "Rossi", "Schmidt", "Tanaka", "Urban", "Varga", "Weber", "Xu", "Young", "Zielinski",
        "Haddad", "Mansour", "Li", "Costa"]
TITLES = {
    "general": ["Newsletter issue", "Company announcement", "Website FAQ", "Internal memo",
                "Customer letters"],
    "technical": ["User manual", "Installation guide", "API documentation", "Safety data sheet",
                  "Maintenance handbook"],
    "marketing": ["Product brochure", "Campaign copy", "Landing page", "Press release",
                  "Catalogue texts"],
    "legal": ["Supply agreement", "NDA bundle", "Terms of service", "Court filing",
              "Shareholder agreement"],
    "medical": ["Clinical study report", "Patient information leaflet", "Device IFU",
                "Informed consent forms", "Discharge summaries"],
}
CANCEL_REASONS = ["Client postponed the project", "Source text withdrawn", "Budget not approved",
                  "Client found in-house resource", "Duplicate request", "Scope changed"]
RELEASE_REASONS = ["Translator fell ill", "Translator overbooked", "Terminology mismatch",
                   "Client asked for another linguist", "Translator on unexpected leave"]


def r2(x):
    return Decimal(x).quantize(CENT, ROUND_HALF_UP)


def quote(rate, words, subject, rush, discount_pct):
    base = r2(Decimal(words) * Decimal(rate))
    spec = r2(base * Decimal("0.20")) if subject in SPECIALIST else Decimal("0.00")
    rsh = r2(base * Decimal("0.50")) if rush else Decimal("0.00")
    sub = base + spec + rsh
    disc = r2(sub * Decimal(discount_pct) / Decimal(100))
    total = sub - disc
    return max(total, MIN_FEE)


def ts(d, rng, lo=8, hi=18):
    if d >= TODAY:
        d = TODAY
        h = rng.randint(8, 9)
    else:
        h = rng.randint(lo, hi)
    return "%sT%02d:%02d:00Z" % (d.isoformat(), h, rng.choice([0, 5, 10, 15, 20, 30, 40, 45, 50]))


def main():
    rng = random.Random(SEED)
    db = {"meta": {
        "today": TODAY.isoformat(), "now": NOW, "agency": "Tessera Language Services",
        "currency": "EUR", "minimum_fee": 40.0, "rush_surcharge_rate": 0.5,
        "specialist_surcharge_rate": 0.2, "specialist_subjects": list(SPECIALIST),
        "late_delivery_factor": 0.9, "cancellation_fee_rate": 0.25, "quote_valid_days": 14,
        "backlog_days": 5, "min_rush_rating": 4.0, "card_payment_limit": 5000.0,
    }}
    rate_cards = {}
    for s, t, rate in RATES:
        pid = "%s-%s" % (s, t)
        rate_cards[pid] = {"id": pid, "source_lang": s, "target_lang": t, "per_word_rate": float(rate)}
    db["rate_cards"] = rate_cards

    # ---------------------------------------------------------------- clients
    clients = {}
    for i, name in enumerate(COMPANIES, 1):
        cid = "CL%03d" % i
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        dom = "".join(ch for ch in name.lower().split()[0] if ch.isalpha()) + ".example"
        clients[cid] = {
            "id": cid, "name": name, "contact_name": "%s %s" % (fn, ln),
            "email": "%s.%s@%s" % (fn.lower(), ln.lower(), dom),
            "credit_limit": float(rng.choice([2500, 4000, 6000, 8000, 12000, 20000])),
            "outstanding_balance": 0.0,
            "discount_pct": rng.choice([0, 0, 0, 5, 5, 10]),
            "payment_terms_days": rng.choice([15, 30, 30, 30, 45]),
            "status": "active",
        }
    for cid in ("CL007", "CL019", "CL031", "CL038"):
        clients[cid]["status"] = "on_hold"
    for cid in ("CL004", "CL012", "CL027"):
        clients[cid]["credit_limit"] = 2000.0
    db["clients"] = clients

    # ---------------------------------------------------------------- translators
    translators = {}
    pair_ids = list(rate_cards)
    by_source = {}
    for p in pair_ids:
        by_source.setdefault(p.split("-")[0], []).append(p)
    for i in range(1, 31):
        tid = "TR%02d" % i
        fn, ln = FIRST[(i * 7) % len(FIRST)], LAST[(i * 11) % len(LAST)]
        base_pair = pair_ids[(i - 1) % len(pair_ids)]
        pairs = {base_pair}
        src, tgt = base_pair.split("-")
        rev = "%s-%s" % (tgt, src)
        if rev in rate_cards and rng.random() < 0.7:
            pairs.add(rev)
        for _ in range(rng.randint(0, 2)):
            pairs.add(rng.choice(pair_ids[:11] if rng.random() < 0.7 else pair_ids))
        specs = sorted(rng.sample(SUBJECTS[1:], rng.choice([0, 1, 2, 2, 3])))
        rated = rng.randint(4, 60)
        translators[tid] = {
            "id": tid, "name": "%s %s" % (fn, ln),
            "email": "%s.%s@tessera-linguists.example" % (fn.lower(), ln.lower()),
            "language_pairs": sorted(pairs), "specialties": specs,
            "daily_capacity_words": rng.choice([1500, 2000, 2000, 2500, 2500, 3000, 3500, 4000]),
            "current_load_words": 0, "active_jobs": 0,
            "completed_jobs": rated + rng.randint(0, 15),
            "rating": round(rng.uniform(3.3, 4.95), 2), "rated_jobs": rated,
            "status": "active",
        }
    for tid in ("TR06", "TR17", "TR25"):
        translators[tid]["status"] = "on_leave"
    db["translators"] = translators

    # ---------------------------------------------------------------- jobs and everything else
    jobs, assignments, events, invoices, payments = {}, {}, {}, {}, {}
    counters = {"A": 0, "H": 0, "INV": 0, "PAY": 0}

    def nid(key, width):
        counters[key] += 1
        sep = "-" if key == "INV" else ""
        return "%s%s%0*d" % (key, sep, width, counters[key])

    def event(jid, frm, to, at, note=None):
        eid = nid("H", 5)
        events[eid] = {"id": eid, "job_id": jid, "from_status": frm, "to_status": to, "at": at, "note": note}

    def qualifies(t, job):
        pair = "%s-%s" % (job["source_lang"], job["target_lang"])
        if t["status"] != "active" or pair not in t["language_pairs"]:
            return False
        if job["subject"] in SPECIALIST and job["subject"] not in t["specialties"]:
            return False
        if job["rush"] and t["rating"] < 4.0:
            return False
        return True

    def add_assignment(jid, tid, words, at, status, end_at=None, reason=None):
        aid = nid("A", 4)
        assignments[aid] = {"id": aid, "job_id": jid, "translator_id": tid, "words": words,
                            "status": status, "assigned_at": at,
                            "completed_at": end_at if status == "completed" else None,
                            "released_at": end_at if status == "released" else None,
                            "release_reason": reason}
        if status == "active":
            translators[tid]["current_load_words"] += words
            translators[tid]["active_jobs"] += 1
        return aid

    def add_invoice(job, kind, amount, issued):
        iid = nid("INV", 4)
        cl = clients[job["client_id"]]
        invoices[iid] = {"id": iid, "job_id": job["id"], "client_id": job["client_id"], "kind": kind,
                         "amount": float(amount), "amount_paid": 0.0, "balance_due": float(amount),
                         "status": "open", "issued_on": issued.isoformat(),
                         "due_on": (issued + timedelta(days=cl["payment_terms_days"])).isoformat(),
                         "paid_on": None}
        return iid

    def pay(iid, amount, when):
        inv = invoices[iid]
        pid = nid("PAY", 4)
        payments[pid] = {"id": pid, "invoice_id": iid, "client_id": inv["client_id"],
                         "amount": float(amount), "method": rng.choice(["bank_transfer", "bank_transfer", "card", "cheque"]),
                         "reference": rng.choice([None, "REM-%05d" % rng.randint(10000, 99999)]),
                         "received_at": ts(when, rng)}
        paid = r2(Decimal(str(inv["amount_paid"])) + amount)
        inv["amount_paid"] = float(paid)
        inv["balance_due"] = float(r2(Decimal(str(inv["amount"])) - paid))
        if inv["balance_due"] == 0:
            inv["status"] = "paid"
            inv["paid_on"] = when.isoformat()
        else:
            inv["status"] = "partially_paid"

    plan = (["closed"] * 28 + ["invoiced"] * 17 + ["delivered"] * 12 + ["assigned"] * 22 +
            ["accepted"] * 15 + ["quoted"] * 22 + ["cancelled"] * 14)
    rng.shuffle(plan)
    # chronological creation: older states first so ids roughly follow time
    age = {"closed": (60, 130), "invoiced": (25, 75), "cancelled": (5, 90), "delivered": (6, 30),
           "assigned": (2, 22), "accepted": (0, 16), "quoted": (0, 26)}
    drafts = []
    for st in plan:
        lo, hi = age[st]
        drafts.append((rng.randint(lo, hi), st))
    drafts.sort(key=lambda x: -x[0])
    weights = [6 if p.startswith("en-") else 2 for p in pair_ids]
    active_clients = [c for c in clients if clients[c]["status"] == "active"]

    for n, (days_ago, st) in enumerate(drafts, 1):
        jid = "J%04d" % n
        created = TODAY - timedelta(days=days_ago)
        cid = rng.choice(active_clients if st in ("accepted", "assigned") or rng.random() < 0.85
                         else list(clients))
        cancel_from = None
        if st == "cancelled":
            cancel_from = rng.choice(["quoted", "quoted", "accepted", "assigned", "assigned"])
        needs_t = (st in ("assigned", "delivered", "invoiced", "closed") or cancel_from == "assigned"
                   or (st == "accepted" and rng.random() < 0.8))
        for _try in range(40):
            pair = rng.choices(pair_ids, weights)[0]
            subject = rng.choices(SUBJECTS, [4, 3, 3, 2, 1.5])[0]
            rush = rng.random() < 0.2
            probe = {"source_lang": pair.split("-")[0], "target_lang": pair.split("-")[1],
                     "subject": subject, "rush": rush}
            ok = [t for t in translators if qualifies(translators[t], probe)]
            if ok or (not needs_t and _try > 2):
                break
        words = rng.choice([rng.randint(90, 350), rng.randint(400, 3000), rng.randint(400, 3000),
                            rng.randint(2000, 9000), rng.randint(6000, 16000)])
        words = words if words < 400 else words // 10 * 10
        if rush:
            words = min(words, 4000)
            dl = created + timedelta(days=rng.randint(1, 4))
        else:
            dl = created + timedelta(days=rng.randint(5, 35))
        if st in ("accepted", "assigned") and dl < TODAY and rng.random() < 0.7:
            dl = TODAY + timedelta(days=rng.randint(1, 20))
        if st == "accepted" and not rush and rng.random() < 0.4:
            k = rng.randint(0, 2)
            if created + timedelta(days=5) <= TODAY + timedelta(days=k):
                dl = TODAY + timedelta(days=k)
                words = max(words, rng.randint(6000, 12000) // 10 * 10)
        if st == "assigned" and not rush and days_ago >= 8 and rng.random() < 0.35:
            dl = TODAY - timedelta(days=rng.randint(1, days_ago - 6))
        if st == "invoiced" and not rush and rng.random() < 0.25:
            words = rng.randint(50000, 70000) // 10 * 10
        if st == "quoted" and not rush and rng.random() < 0.25:
            words = rng.randint(15000, 30000) // 10 * 10
        rate = rate_cards[pair]["per_word_rate"]
        amount = quote(str(rate), words, subject, rush, clients[cid]["discount_pct"])
        title = "%s (%s)" % (rng.choice(TITLES[subject]), pair.upper().replace("-", ">"))
        created_at = ts(created, rng)
        job = {"id": jid, "client_id": cid, "title": title, "source_lang": pair.split("-")[0],
               "target_lang": pair.split("-")[1], "subject": subject, "word_count": words,
               "rush": rush, "deadline": dl.isoformat(), "status": "quoted",
               "quote_amount": float(amount), "translator_id": None, "invoice_id": None,
               "created_at": created_at, "accepted_at": None, "assigned_at": None,
               "delivered_at": None, "invoiced_at": None, "closed_at": None,
               "cancelled_at": None, "cancel_reason": None, "cancellation_fee": None,
               "delivered_late": None, "quality_score": None}
        jobs[jid] = job
        event(jid, None, "quoted", created_at)
        if st == "quoted":
            continue
        if st == "cancelled":
            if cancel_from == "quoted":
                cd = min(TODAY, created + timedelta(days=rng.randint(1, 10)))
                job.update(status="cancelled", cancelled_at=ts(cd, rng),
                           cancel_reason=rng.choice(CANCEL_REASONS), cancellation_fee=0.0)
                event(jid, "quoted", "cancelled", job["cancelled_at"], job["cancel_reason"])
                continue
        acc = min(TODAY, created + timedelta(days=rng.randint(0, 2)))
        job["status"] = "accepted"
        job["accepted_at"] = ts(acc, rng)
        if job["accepted_at"] < created_at:
            job["accepted_at"] = created_at
        event(jid, "quoted", "accepted", job["accepted_at"])
        if st == "accepted" and rng.random() < 0.3:
            cands = [t for t in sorted(translators) if qualifies(translators[t], job)]
            if cands:
                asg_at = max(ts(min(TODAY, acc + timedelta(days=1)), rng), job["accepted_at"])
                tid = rng.choice(cands)
                add_assignment(jid, tid, words, asg_at, "released", asg_at, rng.choice(RELEASE_REASONS))
                event(jid, "accepted", "assigned", asg_at)
                event(jid, "assigned", "accepted", asg_at, assignments["A%04d" % counters["A"]]["release_reason"])
        if st == "accepted" or cancel_from == "accepted":
            if cancel_from:
                cd = min(TODAY, acc + timedelta(days=rng.randint(1, 5)))
                job.update(status="cancelled", cancelled_at=max(ts(cd, rng), job["accepted_at"]),
                           cancel_reason=rng.choice(CANCEL_REASONS), cancellation_fee=0.0)
                event(jid, "accepted", "cancelled", job["cancelled_at"], job["cancel_reason"])
            continue
        cands = [t for t in sorted(translators) if qualifies(translators[t], job)]
        if st == "assigned":
            cands = [t for t in cands if translators[t]["current_load_words"] + words
                     <= 5 * translators[t]["daily_capacity_words"]]
        if not cands:
            continue  # stays accepted
        asg_day = min(TODAY, acc + timedelta(days=rng.randint(0, 1)))
        asg_at = max(ts(asg_day, rng), job["accepted_at"])
        if len(cands) > 1 and rng.random() < 0.15:
            first = rng.choice(cands)
            cands.remove(first)
            rel_at = asg_at
            add_assignment(jid, first, words, asg_at, "released", rel_at, rng.choice(RELEASE_REASONS))
            event(jid, "accepted", "assigned", asg_at)
            event(jid, "assigned", "accepted", rel_at, assignments["A%04d" % counters["A"]]["release_reason"])
        tid = rng.choice(cands)
        job.update(status="assigned", translator_id=tid, assigned_at=asg_at)
        event(jid, "accepted", "assigned", asg_at)
        if st == "assigned":
            add_assignment(jid, tid, words, asg_at, "active")
            continue
        if cancel_from == "assigned":
            cd = min(TODAY, asg_day + timedelta(days=rng.randint(1, 4)))
            c_at = max(ts(cd, rng), asg_at)
            add_assignment(jid, tid, words, asg_at, "released", c_at, "job cancelled")
            fee = r2(Decimal(str(job["quote_amount"])) * Decimal("0.25"))
            job.update(status="cancelled", cancelled_at=c_at, cancel_reason=rng.choice(CANCEL_REASONS),
                       cancellation_fee=float(fee), translator_id=None, assigned_at=None)
            event(jid, "assigned", "cancelled", c_at, job["cancel_reason"])
            iid = add_invoice(job, "cancellation", fee, cd)
            job["invoice_id"] = iid
            if cd < TODAY - timedelta(days=10) and rng.random() < 0.6:
                pay(iid, fee, min(TODAY, cd + timedelta(days=rng.randint(3, 12))))
            continue
        # delivered or beyond
        dl_date = date.fromisoformat(job["deadline"])
        dday = dl_date + timedelta(days=rng.choice([-3, -2, -1, -1, 0, 0, 0, 1, 2]))
        dday = max(dday, asg_day)
        if st == "delivered":
            dday = min(dday, TODAY)
        else:
            dday = min(dday, TODAY - timedelta(days=4))
        dday = max(dday, asg_day)
        del_at = max(ts(dday, rng), asg_at)
        late = dday > dl_date
        score = rng.choice([None, 3, 4, 4, 5, 5])
        add_assignment(jid, tid, words, asg_at, "completed", del_at)
        job.update(status="delivered", delivered_at=del_at, delivered_late=late, quality_score=score)
        event(jid, "assigned", "delivered", del_at)
        if st == "delivered":
            continue
        if st == "invoiced":
            inv_day = max(dday, TODAY - timedelta(days=rng.choice([1, 3, 6, 9, 12, 16, 20, 26, 35, 40, 50, 55])))
        else:
            inv_day = dday + timedelta(days=rng.randint(0, 3))
        inv_at = max(ts(inv_day, rng), del_at)
        amt = Decimal(str(job["quote_amount"]))
        if late:
            amt = r2(amt * Decimal("0.90"))
        iid = add_invoice(job, "job", amt, inv_day)
        job.update(status="invoiced", invoiced_at=inv_at, invoice_id=iid)
        event(jid, "delivered", "invoiced", inv_at)
        if st == "invoiced":
            if rng.random() < 0.3 and inv_day < TODAY - timedelta(days=2):
                part = r2(amt * Decimal(rng.choice(["0.25", "0.4", "0.5"])))
                pay(iid, part, min(TODAY, inv_day + timedelta(days=rng.randint(1, 10))))
            continue
        pay_day = min(TODAY - timedelta(days=1), inv_day + timedelta(days=rng.randint(5, 40)))
        if rng.random() < 0.3:
            part = r2(amt * Decimal("0.5"))
            mid = inv_day + timedelta(days=rng.randint(1, max(1, (pay_day - inv_day).days)))
            mid = min(mid, pay_day)
            pay(iid, part, mid)
            pay(iid, amt - part, pay_day)
        else:
            pay(iid, amt, pay_day)
        closed_at = payments["PAY%04d" % counters["PAY"]]["received_at"]
        closed_at = max(closed_at, inv_at)
        payments["PAY%04d" % counters["PAY"]]["received_at"] = closed_at
        job.update(status="closed", closed_at=closed_at)
        event(jid, "invoiced", "closed", closed_at)

    for inv in invoices.values():
        cl = clients[inv["client_id"]]
        cl["outstanding_balance"] = float(r2(Decimal(str(cl["outstanding_balance"])) + Decimal(str(inv["balance_due"]))))

    db["jobs"] = jobs
    db["assignments"] = assignments
    db["job_events"] = events
    db["invoices"] = invoices
    db["payments"] = payments
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(out, "w") as f:
        json.dump(db, f, indent=1)
    print("wrote", out, {k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
