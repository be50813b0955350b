"""Differential probes for the print-shop API: about 57-60% calls the rules allow, about 40% that the
docs or the policy say must be refused. Every probe is meant to run on a fresh copy of db.json."""
from datetime import date, timedelta
from decimal import Decimal

TOOLS = ["search_customers", "list_products", "get_quote", "list_orders", "check_press_availability",
         "create_quote", "accept_quote", "expire_quotes", "submit_proof", "review_proof",
         "schedule_job", "ship_order", "cancel_order", "record_payment"]


def probes(db, rng, n):
    meta = db["meta"]
    today = date.fromisoformat(meta["today"])
    tday = meta["today"]
    C, P, S, Q, O = db["customers"], db["products"], db["paper_stocks"], db["quotes"], db["orders"]
    PF, J, PR = db["proofs"], db["jobs"], db["presses"]
    cids, pids, qids, oids = sorted(C), sorted(P), sorted(Q), sorted(O)

    def pick(xs, fallback):
        return rng.choice(xs) if xs else fallback

    def day(k):
        return (today + timedelta(days=k)).isoformat()

    def n_open(c):
        return sum(1 for q in Q.values() if q["customer_id"] == c and q["status"] == "open")

    def booked(press, d):
        return sum(j["sheets"] for j in J.values()
                   if j["press_id"] == press and j["run_date"] == d and j["status"] != "cancelled")

    quotable_c = [c for c in cids if C[c]["status"] != "closed" and n_open(c) < meta["max_open_quotes_per_customer"]]
    full_c = [c for c in cids if C[c]["status"] != "closed" and c not in quotable_c]
    closed_c = [c for c in cids if C[c]["status"] == "closed"]
    live_p = [p for p in pids if P[p]["active"]]
    dead_p = [p for p in pids if not P[p]["active"]]

    def qty_ok(p):
        pr = P[p]
        hi = min(pr["max_quantity"], pr["min_quantity"] * rng.choice([1, 2, 5, 10, 40]))
        q = rng.randint(pr["min_quantity"], max(pr["min_quantity"], hi))
        q -= q % pr["quantity_step"]
        return max(q, pr["min_quantity"])

    def stock_ok(p):
        return rng.choice([s for s in P[p]["allowed_stock_ids"] if S[s]["active"]])

    def acceptable(q):
        c = C[q["customer_id"]]
        return (q["status"] == "open" and q["valid_until"] >= tday and c["status"] == "active"
                and Decimal(str(c["balance"])) + Decimal(str(q["total"])) <= Decimal(str(c["credit_limit"])))

    ok_quotes = [q for q in qids if acceptable(Q[q])]
    open_q = [q for q in qids if Q[q]["status"] == "open"]
    stale_q = [q for q in open_q if Q[q]["valid_until"] < tday]
    closed_q = [q for q in qids if Q[q]["status"] != "open"]
    hold_q = [q for q in open_q if C[Q[q]["customer_id"]]["status"] != "active"]
    credit_q = [q for q in open_q if q not in ok_quotes and q not in stale_q and q not in hold_q]
    po_q = [q for q in ok_quotes if C[Q[q]["customer_id"]]["po_required"]]

    pending = {PF[p]["order_id"] for p in PF if PF[p]["status"] == "pending"}
    by_status = {s: [o for o in oids if O[o]["status"] == s] for s in
                 ("proofing", "on_hold", "approved", "printing", "shipped", "cancelled")}
    proof_ok = [o for o in by_status["proofing"] if o not in pending and O[o]["proof_rounds"] < meta["max_proof_rounds"]]
    proof_blocked = [o for o in by_status["proofing"] if o in pending]
    pend_pf = [p for p in sorted(PF) if PF[p]["status"] == "pending" and O[PF[p]["order_id"]]["status"] == "proofing"]
    done_pf = [p for p in sorted(PF) if PF[p]["status"] != "pending"]

    # schedulable (order, press, date) triples and near misses
    sched_ok, sched_bad = [], {}
    for o in by_status["approved"]:
        od = O[o]
        prod = P[od["product_id"]]
        for pr in sorted(PR):
            for k in range(-2, 12):
                d = day(k)
                why = [C[od["customer_id"]]["status"] != "active", PR[pr]["status"] != "active",
                       PR[pr]["press_type"] != prod["press_type"],
                       k < 0 or d > od["due_date"] or (today + timedelta(days=k)).weekday() == 6,
                       booked(pr, d) + od["sheets_required"] > PR[pr]["daily_capacity_sheets"],
                       S[od["stock_id"]]["sheets_on_hand"] < od["sheets_required"]]
                if not any(why):
                    sched_ok.append((o, pr, d))
                elif sum(why) == 1:
                    sched_bad.setdefault(why.index(True), []).append((o, pr, d))
    ran = [o for o in by_status["printing"] if J[O[o]["job_id"]]["run_date"] <= tday]
    not_run = [o for o in by_status["printing"] if o not in ran]
    cancellable = by_status["proofing"] + by_status["on_hold"] + by_status["approved"] + not_run
    owing = [c for c in cids if C[c]["payment_terms"] == "net30" and C[c]["balance"] > 0]
    prepaid = [c for c in cids if C[c]["payment_terms"] == "prepaid"]

    def gen(tool, valid):
        if tool == "search_customers":
            if valid:
                a = {}
                r = rng.random()
                c = C[rng.choice(cids)]
                if r < 0.4:
                    w = rng.choice([w for w in c["company_name"].split() if len(w) > 3] or [c["company_name"]])
                    a["query"] = rng.choice([w.lower(), w.upper(), w[:4]])
                elif r < 0.6:
                    a["query"] = c["contact_name"].split()[1].lower()
                elif r < 0.7:
                    a["query"] = rng.choice(["DENTAL", "studio", "co.", "Parish", "zzz-nobody"])
                if rng.random() < 0.4:
                    a["tier"] = rng.choice(["standard", "silver", "gold"])
                if rng.random() < 0.3:
                    a["status"] = rng.choice(["active", "on_hold", "closed"])
                return a
            return rng.choice([{"tier": "platinum"}, {"tier": "Gold"}, {"status": "suspended"},
                               {"query": "brew", "status": "inactive"}])
        if tool == "list_products":
            if valid:
                a = {}
                if rng.random() < 0.5:
                    a["category"] = rng.choice(["flyer", "poster", "booklet", "brochure", "banner", "business_card",
                                                "postcard", "stationery"])
                if rng.random() < 0.3:
                    a["press_type"] = rng.choice(["digital", "offset", "wide_format"])
                if rng.random() < 0.3:
                    a["stock_id"] = rng.choice(sorted(S))
                if rng.random() < 0.3:
                    a["include_inactive"] = rng.random() < 0.5
                return a
            return rng.choice([{"category": "sticker"}, {"press_type": "letterpress"}, {"stock_id": "STK99"},
                               {"category": "Flyers"}, {"include_inactive": "yes"}])
        if tool == "get_quote":
            if valid:
                return {"quote_id": rng.choice(qids)}
            return {"quote_id": rng.choice(["Q9999", "Q0001", qids[0].lower(), ""])}
        if tool == "list_orders":
            if valid:
                a = {}
                if rng.random() < 0.5:
                    a["customer_id"] = rng.choice(cids)
                if rng.random() < 0.5:
                    a["status"] = rng.choice(list(by_status))
                if rng.random() < 0.3:
                    a["due_by"] = day(rng.randint(-10, 15))
                return a
            return rng.choice([{"status": "pending"}, {"status": "Shipped"}, {"customer_id": "C9999"},
                               {"due_by": "2025-02-30"}, {"due_by": "03/20/2025"}])
        if tool == "check_press_availability":
            if valid:
                return {"press_id": rng.choice(sorted(PR)), "date": day(rng.randint(-3, 10))}
            return rng.choice([{"press_id": "PR09", "date": day(1)}, {"press_id": "PR01", "date": "next friday"},
                               {"press_id": "PR03", "date": "2025-13-01"}, {"date": day(2)}])
        if tool == "create_quote":
            if valid:
                p = rng.choice(live_p)
                a = {"customer_id": rng.choice(quotable_c), "product_id": p, "stock_id": stock_ok(p),
                     "quantity": qty_ok(p)}
                if rng.random() < 0.5:
                    a["rush"] = P[p]["rush_available"] and rng.random() < 0.6
                return a
            p = rng.choice(live_p)
            base = {"customer_id": rng.choice(quotable_c), "product_id": p, "stock_id": stock_ok(p),
                    "quantity": P[p]["min_quantity"]}
            k = rng.randrange(11)
            if k == 0:
                base["customer_id"] = rng.choice(closed_c)
            elif k == 1:
                base["customer_id"] = rng.choice(full_c)
            elif k == 2:
                dp = rng.choice(dead_p)
                base.update(product_id=dp, stock_id=P[dp]["allowed_stock_ids"][0], quantity=P[dp]["min_quantity"])
            elif k == 3:
                base["stock_id"] = rng.choice([s for s in sorted(S) if s not in P[p]["allowed_stock_ids"]])
            elif k == 4:
                base.update(product_id="P103", stock_id="STK13", quantity=5000)
            elif k == 5:
                base["quantity"] = P[p]["min_quantity"] - P[p]["quantity_step"]
            elif k == 6:
                base["quantity"] = P[p]["max_quantity"] + P[p]["quantity_step"]
            elif k == 7:
                sp = rng.choice([x for x in live_p if P[x]["quantity_step"] > 1])
                base.update(product_id=sp, stock_id=stock_ok(sp), quantity=P[sp]["min_quantity"] + P[sp]["quantity_step"] // 2 + 1)
            elif k == 8:
                np = rng.choice([x for x in live_p if not P[x]["rush_available"]])
                base.update(product_id=np, stock_id=stock_ok(np), quantity=P[np]["min_quantity"], rush=True)
            elif k == 9:
                base["quantity"] = rng.choice([str(P[p]["min_quantity"]), float(P[p]["min_quantity"]) + 0.5])
            else:
                base["customer_id"] = "C9999"
            return base
        if tool == "accept_quote":
            if valid:
                q = rng.choice(po_q if po_q and rng.random() < 0.3 else ok_quotes)
                a = {"quote_id": q}
                if C[Q[q]["customer_id"]]["po_required"] or rng.random() < 0.3:
                    a["po_number"] = "PO-%05d" % rng.randint(10000, 99999)
                return a
            k = rng.randrange(7)
            if k == 0:
                return {"quote_id": rng.choice(closed_q)}
            if k == 1:
                return {"quote_id": pick(stale_q, "Q9999"), "po_number": "PO-11111"}
            if k == 2:
                return {"quote_id": pick(hold_q, "Q9999"), "po_number": "PO-22222"}
            if k == 3:
                return {"quote_id": pick(credit_q, "Q9999"), "po_number": "PO-33333"}
            if k == 4 and po_q:
                return {"quote_id": rng.choice(po_q)}
            if k == 5:
                return {"quote_id": rng.choice(ok_quotes), "po_number": "PO-" + "9" * 25}
            return {"quote_id": "Q9999"}
        if tool == "expire_quotes":
            if valid:
                return {} if rng.random() < 0.5 else {"customer_id": rng.choice(
                    [Q[q]["customer_id"] for q in stale_q] + cids[:5])}
            return {"customer_id": rng.choice(["C9999", "c1001", "ACME"])}
        if tool == "submit_proof":
            if valid:
                a = {"order_id": rng.choice(proof_ok),
                     "file_name": rng.choice(["artwork_v2.pdf", "Final-Proof.PDF", "proof_round.pdf"])}
                if rng.random() < 0.4:
                    a["notes"] = "Fixed the items from the last review"
                return a
            k = rng.randrange(6)
            if k == 0:
                return {"order_id": rng.choice(proof_blocked), "file_name": "revised.pdf"}
            if k == 1:
                return {"order_id": rng.choice(by_status["on_hold"]), "file_name": "round4.pdf"}
            if k == 2:
                return {"order_id": rng.choice(by_status["approved"] + by_status["shipped"] + by_status["cancelled"]),
                        "file_name": "late.pdf"}
            if k == 3:
                return {"order_id": rng.choice(proof_ok), "file_name": rng.choice(["proof.png", "art.pdf.zip", ".pdf"])}
            if k == 4:
                return {"order_id": rng.choice(proof_ok)}
            return {"order_id": "ORD-9999", "file_name": "x.pdf"}
        if tool == "review_proof":
            if valid:
                if rng.random() < 0.5:
                    a = {"proof_id": rng.choice(pend_pf), "decision": "approve"}
                    if rng.random() < 0.3:
                        a["comments"] = "Looks great"
                    return a
                return {"proof_id": rng.choice(pend_pf), "decision": "reject",
                        "comments": rng.choice(["Wrong logo colour", "Bleed is missing", "Fix the date"])}
            k = rng.randrange(5)
            if k == 0:
                return {"proof_id": rng.choice(done_pf), "decision": "approve"}
            if k == 1:
                return {"proof_id": rng.choice(pend_pf), "decision": "reject"}
            if k == 2:
                return {"proof_id": rng.choice(pend_pf), "decision": rng.choice(["approved", "maybe", "APPROVE"])}
            if k == 3:
                return {"proof_id": rng.choice(pend_pf), "decision": "reject", "comments": "  "}
            return {"proof_id": "PF9999", "decision": "approve"}
        if tool == "schedule_job":
            if valid:
                o, pr, d = rng.choice(sched_ok)
                return {"order_id": o, "press_id": pr, "run_date": d}
            k = rng.randrange(5)
            if k <= 2:
                o, pr, d = rng.choice(sched_bad[rng.choice(sorted(sched_bad))])
                return {"order_id": o, "press_id": pr, "run_date": d}
            if k == 3:
                o = rng.choice(by_status["printing"] + by_status["proofing"] + by_status["shipped"])
                return {"order_id": o, "press_id": "PR01", "run_date": day(2)}
            o, pr, d = rng.choice(sched_ok)
            return {"order_id": o, "press_id": pr, "run_date": rng.choice(["14/03/2025", "2025-3-14", "soon"])}
        if tool == "ship_order":
            if valid:
                o = rng.choice(ran)
                m = rng.choice(["pickup", "courier", "freight"] if O[o]["quantity"] >= meta["freight_minimum_quantity"]
                               else ["pickup", "courier"])
                a = {"order_id": o, "method": m}
                if m != "pickup":
                    a["address"] = "%d Ferry Rd, Port Alden" % rng.randint(1, 400)
                return a
            k = rng.randrange(6)
            if k == 0:
                return {"order_id": rng.choice(not_run), "method": "pickup"}
            if k == 1:
                return {"order_id": rng.choice(by_status["approved"] + by_status["shipped"]), "method": "pickup"}
            if k == 2:
                return {"order_id": rng.choice(ran), "method": "courier"}
            if k == 3:
                small = [o for o in ran if O[o]["quantity"] < meta["freight_minimum_quantity"]]
                return {"order_id": pick(small, "ORD-9999"), "method": "freight", "address": "9 Pier St"}
            if k == 4:
                return {"order_id": rng.choice(ran), "method": rng.choice(["drone", "Courier", "mail"]),
                        "address": "9 Pier St"}
            return {"order_id": "ORD-9999", "method": "pickup"}
        if tool == "cancel_order":
            if valid:
                return {"order_id": rng.choice(cancellable),
                        "reason": rng.choice(["Event cancelled", "Customer request", "Budget freeze"])}
            k = rng.randrange(4)
            if k == 0:
                return {"order_id": rng.choice(by_status["shipped"] + by_status["cancelled"]), "reason": "Too late"}
            if k == 1:
                return {"order_id": rng.choice(ran), "reason": "Changed our mind"}
            if k == 2:
                return {"order_id": rng.choice(cancellable), "reason": rng.choice(["", "   "])}
            return {"order_id": "ORD-0001", "reason": "Unknown order"}
        if tool == "record_payment":
            if valid:
                if rng.random() < 0.65:
                    c = rng.choice(owing)
                    bal = Decimal(str(C[c]["balance"]))
                    amt = bal if rng.random() < 0.3 else (bal * Decimal(rng.randint(5, 95)) / 100).quantize(Decimal("0.01"))
                    amt = max(amt, Decimal("0.01"))
                else:
                    c = rng.choice(prepaid)
                    amt = Decimal(rng.randint(100, 5000)) + Decimal(rng.randint(0, 99)) / 100
                m = rng.choice(["ach", "check", "card", "wire"])
                a = {"customer_id": c, "amount": float(amt), "method": m}
                if m == "check" or rng.random() < 0.2:
                    a["reference"] = str(rng.randint(1000, 999999))
                return a
            c = rng.choice(owing)
            k = rng.randrange(7)
            if k == 0:
                return {"customer_id": c, "amount": 0, "method": "ach"}
            if k == 1:
                return {"customer_id": c, "amount": -50.0, "method": "wire"}
            if k == 2:
                return {"customer_id": c, "amount": 10.005, "method": "card"}
            if k == 3:
                return {"customer_id": c, "amount": float(Decimal(str(C[c]["balance"])) + 100), "method": "ach"}
            if k == 4:
                return {"customer_id": c, "amount": 25.0, "method": "check", **rng.choice([{}, {"reference": "CHK-12"}])}
            if k == 5:
                return {"customer_id": c, "amount": 25.0, "method": rng.choice(["bitcoin", "cash", "ACH"])}
            return {"customer_id": "C9999", "amount": 25.0, "method": "ach"}
        raise ValueError(tool)

    # reads are cheap to get right; writes get a little more weight
    weight = {t: (1.3 if t in ("create_quote", "accept_quote", "schedule_job", "cancel_order",
                               "record_payment", "submit_proof", "review_proof", "ship_order") else 0.8)
              for t in TOOLS}
    weight["expire_quotes"] = 0.6
    out = []
    for i in range(n):
        tool = TOOLS[i] if i < len(TOOLS) else rng.choices(TOOLS, [weight[t] for t in TOOLS])[0]
        out.append((tool, gen(tool, rng.random() < 0.57)))
    return out
