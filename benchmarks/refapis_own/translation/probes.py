"""Differential probes for the Tessera job desk: roughly 60% calls the docs allow, 40% that the
docs or the handbook say must be turned down."""
from datetime import date, timedelta

SUBJECTS = ["general", "technical", "marketing", "legal", "medical"]
SPECIALIST = ("legal", "medical")
JOB_STATUSES = ["quoted", "accepted", "assigned", "delivered", "invoiced", "closed", "cancelled"]
QUERIES = ["harbour", "PHARMA", "llp", "ana", "Solicitors", "example", " media ", "kowalski",
           "ENERGY", "zz-none", "ro", "Juniper", "hotels", "li", "TECH"]
TITLES = ["Quarterly report", "Product labels", "Employee handbook", "Tender documents",
          "Website relaunch", "Clinical protocol", "Patent claims"]
REASONS = ["Client postponed", "Translator unavailable", "Source files changed", "Budget cut",
           "Wrong language pair ordered"]


def _d(s):
    return date.fromisoformat(s)


def probes(db, rng, n):
    today = _d(db["meta"]["today"])
    iso = lambda k: (today + timedelta(days=k)).isoformat()
    clients, trs, jobs, invs = db["clients"], db["translators"], db["jobs"], db["invoices"]
    cards = db["rate_cards"]
    pairs = sorted(cards)
    active_c = sorted(c for c in clients if clients[c]["status"] == "active")
    hold_c = sorted(c for c in clients if clients[c]["status"] == "on_hold")
    overdue = {i["client_id"] for i in invs.values()
               if i["status"] != "paid" and i["due_on"] < today.isoformat()}
    by_status = {s: sorted(j for j in jobs if jobs[j]["status"] == s) for s in JOB_STATUSES}

    def committed(cid):
        return sum(j["quote_amount"] for j in jobs.values() if j["client_id"] == cid
                   and j["status"] in ("accepted", "assigned", "delivered"))

    def acceptable(j):
        c = clients[j["client_id"]]
        return (c["status"] == "active" and c["id"] not in overdue
                and _d(j["created_at"][:10]) + timedelta(days=14) >= today
                and j["deadline"] >= today.isoformat()
                and c["outstanding_balance"] + committed(c["id"]) + j["quote_amount"] <= c["credit_limit"] + 1e-9)

    quoted_ok = [j for j in by_status["quoted"] if acceptable(jobs[j])]
    quoted_bad = [j for j in by_status["quoted"] if j not in quoted_ok]
    not_quoted = [j for j in sorted(jobs) if jobs[j]["status"] != "quoted"]

    def can_staff(j, t):
        job, tr = jobs[j], trs[t]
        if tr["status"] != "active":
            return False
        if "%s-%s" % (job["source_lang"], job["target_lang"]) not in tr["language_pairs"]:
            return False
        if job["subject"] in SPECIALIST and job["subject"] not in tr["specialties"]:
            return False
        if job["rush"] and tr["rating"] < 4.0:
            return False
        if job["deadline"] < today.isoformat():
            return False
        if any(a["job_id"] == j and a["translator_id"] == t for a in db["assignments"].values()):
            return False
        if tr["current_load_words"] + job["word_count"] > 5 * tr["daily_capacity_words"]:
            return False
        return job["word_count"] <= tr["daily_capacity_words"] * ((_d(job["deadline"]) - today).days + 1)

    staff_ok, staff_bad = [], []
    for j in by_status["accepted"]:
        for t in sorted(trs):
            pair = "%s-%s" % (jobs[j]["source_lang"], jobs[j]["target_lang"])
            if can_staff(j, t):
                staff_ok.append((j, t))
            elif pair in trs[t]["language_pairs"]:
                staff_bad.append((j, t))   # covers the pair but fails another rule
    released_pairs = [(a["job_id"], a["translator_id"]) for a in db["assignments"].values()
                      if a["status"] == "released" and jobs[a["job_id"]]["status"] == "accepted"]
    payable = sorted(i for i in invs if invs[i]["status"] != "paid")
    paid = sorted(i for i in invs if invs[i]["status"] == "paid")

    def pick(seq, default):
        return rng.choice(seq) if seq else default

    def quote_args(valid):
        a = {"client_id": rng.choice(sorted(clients)), "source_lang": None, "target_lang": None,
             "word_count": rng.choice([rng.randint(50, 300), rng.randint(300, 5000), rng.randint(5000, 40000)]),
             "subject": rng.choice(SUBJECTS)}
        p = rng.choice(pairs)
        a["source_lang"], a["target_lang"] = p.split("-")
        if rng.random() < 0.6:
            a["rush"] = rng.random() < 0.4
        if valid:
            return a
        k = rng.randrange(5)
        if k == 0:
            a["client_id"] = "CL999"
        elif k == 1:
            a["source_lang"], a["target_lang"] = rng.choice([("de", "ja"), ("en", "en"), ("pt", "es"), ("en", "ko")])
        elif k == 2:
            a["word_count"] = rng.choice([0, -5, 100001, 250000])
        elif k == 3:
            a["subject"] = rng.choice(["finance", "Legal", "poetry"])
        else:
            a["word_count"] = str(a["word_count"])
        return a

    def gen(tool, valid):
        if tool == "list_jobs":
            a = {}
            if valid:
                for key, val in (("status", lambda: rng.choice(JOB_STATUSES)),
                                 ("client_id", lambda: rng.choice(sorted(clients))),
                                 ("translator_id", lambda: rng.choice(sorted(trs))),
                                 ("rush", lambda: rng.random() < 0.5),
                                 ("due_within_days", lambda: rng.choice([0, 3, 7, 14, 30]))):
                    if rng.random() < 0.35:
                        a[key] = val()
                return a
            k = rng.randrange(3)
            if k == 0:
                return {"status": rng.choice(["open", "Quoted", "done"])}
            if k == 1:
                return {"due_within_days": rng.choice([-1, 366, 1000])}
            return {"rush": "yes"}
        if tool == "get_job":
            return {"job_id": rng.choice(sorted(jobs))} if valid else {"job_id": rng.choice(["J9999", "J0000", "j0001"])}
        if tool == "search_clients":
            if valid:
                a = {"query": rng.choice(QUERIES)}
                if rng.random() < 0.3:
                    a["status"] = rng.choice(["active", "on_hold"])
                return a
            k = rng.randrange(3)
            if k == 0:
                return {"query": rng.choice(["a", " b ", "", "   "])}
            if k == 1:
                return {"query": "harbour", "status": "closed"}
            return {}
        if tool == "find_translators":
            if valid:
                s, t = rng.choice(pairs).split("-")
                a = {"source_lang": s, "target_lang": t}
                if rng.random() < 0.4:
                    a["subject"] = rng.choice(SUBJECTS)
                if rng.random() < 0.3:
                    a["min_rating"] = rng.choice([3.5, 4, 4.5])
                if rng.random() < 0.3:
                    a["min_free_words"] = rng.choice([0, 2000, 8000])
                return a
            k = rng.randrange(3)
            if k == 0:
                return {"source_lang": "ja", "target_lang": "de"}
            if k == 1:
                return {"source_lang": "en", "target_lang": "de", "min_rating": rng.choice([-1, 5.5])}
            return {"source_lang": "en", "target_lang": "fr", "min_free_words": -100}
        if tool == "get_quote":
            return quote_args(valid)
        if tool == "list_invoices":
            if valid:
                a = {}
                if rng.random() < 0.4:
                    a["client_id"] = rng.choice(sorted(clients))
                if rng.random() < 0.4:
                    a["status"] = rng.choice(["open", "partially_paid", "paid"])
                if rng.random() < 0.4:
                    a["overdue_only"] = rng.random() < 0.7
                return a
            return rng.choice([{"status": "overdue"}, {"status": "void"}, {"overdue_only": "true"}])
        if tool == "create_job":
            q = quote_args(True)
            a = {"client_id": rng.choice(active_c), "title": rng.choice(TITLES),
                 "source_lang": q["source_lang"], "target_lang": q["target_lang"],
                 "word_count": min(q["word_count"], 20000), "subject": q["subject"]}
            rush = rng.random() < 0.3
            if rush or rng.random() < 0.5:
                a["rush"] = rush
            a["deadline"] = iso(rng.randint(1, 4) if rush else rng.randint(5, 90))
            if valid:
                return a
            k = rng.randrange(8)
            if k == 0:
                a["client_id"] = rng.choice(hold_c)
            elif k == 1:
                a["client_id"] = "CL404"
            elif k == 2:
                a["rush"] = False
                a["deadline"] = iso(rng.randint(1, 4))
            elif k == 3:
                a["deadline"] = iso(rng.choice([0, -3, 91, 120]))
            elif k == 4:
                a["deadline"] = rng.choice(["2025/06/20", "20-06-2025", "2025-02-30"])
            elif k == 5:
                a["title"] = rng.choice(["", "   "])
            elif k == 6:
                a["source_lang"], a["target_lang"] = "nl", "de"
            else:
                a["word_count"] = rng.choice([0, 100001])
            return a
        if tool == "accept_quote":
            if valid:
                return {"job_id": pick(quoted_ok, "J0001")}
            k = rng.randrange(4)
            if k == 0 or not quoted_bad:
                return {"job_id": rng.choice(not_quoted)}
            if k == 1:
                return {"job_id": "J7777"}
            return {"job_id": rng.choice(quoted_bad)}
        if tool == "assign_translator":
            if valid and staff_ok:
                j, t = rng.choice(staff_ok)
                return {"job_id": j, "translator_id": t}
            k = rng.randrange(6)
            if k in (0, 5) and staff_bad:
                j, t = rng.choice(staff_bad)
                return {"job_id": j, "translator_id": t}
            if k == 1 and released_pairs:
                j, t = rng.choice(released_pairs)
                return {"job_id": j, "translator_id": t}
            if k == 2:
                return {"job_id": rng.choice(by_status["assigned"] + by_status["quoted"]),
                        "translator_id": rng.choice(sorted(trs))}
            if k == 3:
                return {"job_id": pick(by_status["accepted"], "J0001"), "translator_id": "TR99"}
            j = pick(by_status["accepted"], "J0001")
            pair = "%s-%s" % (jobs[j]["source_lang"], jobs[j]["target_lang"])
            other = [t for t in sorted(trs) if pair not in trs[t]["language_pairs"]]
            return {"job_id": j, "translator_id": rng.choice(other)}
        if tool == "release_assignment":
            if valid:
                return {"job_id": pick(by_status["assigned"], "J0001"), "reason": rng.choice(REASONS)}
            k = rng.randrange(3)
            if k == 0:
                return {"job_id": rng.choice(by_status["accepted"] + by_status["delivered"]),
                        "reason": rng.choice(REASONS)}
            if k == 1:
                return {"job_id": pick(by_status["assigned"], "J0001"), "reason": "  "}
            return {"job_id": pick(by_status["assigned"], "J0001")}
        if tool == "deliver_job":
            if valid:
                a = {"job_id": pick(by_status["assigned"], "J0001")}
                if rng.random() < 0.6:
                    a["quality_score"] = rng.randint(1, 5)
                return a
            k = rng.randrange(3)
            if k == 0:
                return {"job_id": rng.choice(by_status["accepted"] + by_status["delivered"] + by_status["closed"])}
            if k == 1:
                return {"job_id": pick(by_status["assigned"], "J0001"), "quality_score": rng.choice([0, 6, 10])}
            return {"job_id": "J5000"}
        if tool == "issue_invoice":
            if valid:
                return {"job_id": pick(by_status["delivered"], "J0001")}
            k = rng.randrange(2)
            if k == 0:
                return {"job_id": rng.choice(by_status["invoiced"] + by_status["closed"] + by_status["assigned"]
                                             + by_status["cancelled"])}
            return {"job_id": "J9000"}
        if tool == "record_payment":
            if valid:
                i = pick(payable, "INV-0001")
                due = invs[i]["balance_due"]
                amt = due if rng.random() < 0.5 else round(max(0.01, due * rng.choice([0.1, 0.3, 0.5])), 2)
                m = rng.choice(["bank_transfer", "bank_transfer", "cheque"] + (["card"] if amt <= 5000 else []))
                a = {"invoice_id": i, "amount": amt, "method": m}
                if rng.random() < 0.5:
                    a["reference"] = "REM-%05d" % rng.randint(10000, 99999)
                return a
            k = rng.randrange(6)
            i = pick(payable, "INV-0001")
            due = invs[i]["balance_due"]
            if k == 0:
                return {"invoice_id": rng.choice(paid), "amount": 10.0, "method": "bank_transfer"}
            if k == 1:
                return {"invoice_id": i, "amount": round(due + rng.choice([0.01, 5, 100]), 2), "method": "cheque"}
            if k == 2:
                return {"invoice_id": i, "amount": rng.choice([0, -20.0, 12.345]), "method": "bank_transfer"}
            if k == 3:
                return {"invoice_id": i, "amount": 10.0, "method": rng.choice(["paypal", "cash", "Card"])}
            if k == 4:
                big = [x for x in payable if invs[x]["balance_due"] > 5000]
                if big:
                    return {"invoice_id": big[0], "amount": invs[big[0]]["balance_due"], "method": "card"}
            return {"invoice_id": "INV-9999", "amount": 10.0, "method": "card"}
        if tool == "cancel_job":
            if valid:
                pool = by_status["quoted"] + by_status["accepted"] + by_status["assigned"] * 2
                return {"job_id": rng.choice(pool), "reason": rng.choice(REASONS)}
            k = rng.randrange(3)
            if k == 0:
                return {"job_id": rng.choice(by_status["delivered"] + by_status["invoiced"]
                                             + by_status["closed"] + by_status["cancelled"]),
                        "reason": rng.choice(REASONS)}
            if k == 1:
                return {"job_id": rng.choice(by_status["quoted"] + by_status["assigned"]), "reason": ""}
            return {"job_id": "J0999", "reason": "Client postponed"}
        raise ValueError(tool)

    tools = ["list_jobs", "get_job", "search_clients", "find_translators", "get_quote",
             "list_invoices", "create_job", "accept_quote", "assign_translator",
             "release_assignment", "deliver_job", "issue_invoice", "record_payment", "cancel_job"]
    weight = {"create_job": 1.4, "accept_quote": 1.2, "assign_translator": 1.4, "record_payment": 1.3,
              "cancel_job": 1.2, "list_jobs": 0.8, "get_job": 0.7, "list_invoices": 0.8}
    weights = [weight.get(t, 1.0) for t in tools]
    out = []
    for i in range(n):
        tool = tools[i] if i < len(tools) else rng.choices(tools, weights)[0]
        out.append((tool, gen(tool, rng.random() < 0.6)))
    return out
