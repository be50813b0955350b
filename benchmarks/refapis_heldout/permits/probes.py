"""Probe generator for the permit-office API: about 60% calls the rules allow, 40% calls they refuse."""
import datetime as dt

STAGES = {"building": ["footing", "framing", "final"], "electrical": ["rough_in", "final"],
          "plumbing": ["rough_in", "final"], "mechanical": ["rough_in", "final"],
          "roofing": ["final"], "demolition": ["final"]}
TRADE = {"electrical", "plumbing", "mechanical"}
OPEN = {"submitted", "approved", "issued"}
CAP = {"individual": 2, "contractor": 6}
DESCS = ["Replace rotted deck joists", "Kitchen remodel with new island", "Add 100A sub-panel",
         "Repipe upstairs bath", "Swap furnace for heat pump", "Re-roof garage", "Demolish carport",
         "Convert garage to accessory dwelling unit"]


INTENT = []  # author self-check: whether each generated probe was meant to be accepted


def probes(db, rng, n):
    INTENT.clear()
    today = dt.date.fromisoformat(db["meta"]["today"])
    iso = lambda d: d.isoformat()
    holidays = set(db["meta"].get("holidays", []))
    A, PR, P, F, I, Q = (db[k] for k in ("applicants", "properties", "permits", "fees", "inspections", "inspectors"))
    srt = lambda d: [d[k] for k in sorted(d)]
    apps, props, permits, fees, insps, inspectors = srt(A), srt(PR), srt(P), srt(F), srt(I), srt(Q)
    by = lambda st: [p for p in permits if p["status"] in st]
    pick = rng.choice

    def lic_ok(a):
        return a["kind"] != "contractor" or a["license_expires"] >= iso(today)

    def open_types(prop_id):
        return {p["permit_type"] for p in permits if p["property_id"] == prop_id and p["status"] in OPEN}

    def valuation():
        return pick([round(rng.uniform(500, 90000), 2), float(rng.randint(1, 400)) * 1000,
                     rng.randint(2000, 250000) + 0.01, 999.99, 1000.0, 12000.01, round(rng.uniform(100000, 2500000), 2)])

    # --------------------------------------------------------------- submit
    ok_submit = []
    for a in apps:
        if a["status"] != "active" or not lic_ok(a) or a["open_permit_count"] >= CAP[a["kind"]]:
            continue
        for pr in props:
            if a["kind"] == "individual" and pr["owner_id"] != a["id"]:
                continue
            for t in STAGES:
                if a["kind"] == "individual" and t in TRADE:
                    continue
                if t == "demolition" and pr["historic_district"]:
                    continue
                if t in open_types(pr["id"]):
                    continue
                ok_submit.append((a["id"], pr["id"], t))

    def submit_ok():
        a, pr, t = pick(ok_submit)
        return {"property_id": pr, "applicant_id": a, "permit_type": t, "valuation": valuation(),
                "description": pick(DESCS)}

    def submit_bad():
        base = submit_ok()
        kind = rng.randrange(12)
        indiv = [a for a in apps if a["kind"] == "individual" and a["status"] == "active"]
        if kind == 0:  # homeowner, someone else's property
            a = pick(indiv)
            base.update(applicant_id=a["id"], property_id=pick([p for p in props if p["owner_id"] != a["id"]])["id"],
                        permit_type="roofing")
        elif kind == 1:  # homeowner asking for trade work
            a = pick([x for x in indiv if x["open_permit_count"] < 2])
            base.update(applicant_id=a["id"], property_id=pick([p for p in props if p["owner_id"] == a["id"]])["id"],
                        permit_type=pick(sorted(TRADE)))
        elif kind == 2:  # lapsed contractor license
            lapsed = [a for a in apps if a["kind"] == "contractor" and not lic_ok(a)]
            base.update(applicant_id=pick(lapsed)["id"], property_id=pick(props)["id"], permit_type="plumbing")
        elif kind == 3:  # suspended applicant
            a = pick([x for x in apps if x["status"] == "suspended"])
            own = [p for p in props if p["owner_id"] == a["id"]] or props
            base.update(applicant_id=a["id"], property_id=pick(own)["id"], permit_type="building")
        elif kind == 4:  # demolition in the historic district
            c = pick([a for a in apps if a["kind"] == "contractor" and a["status"] == "active" and lic_ok(a)])
            base.update(applicant_id=c["id"], property_id=pick([p for p in props if p["historic_district"]])["id"],
                        permit_type="demolition")
        elif kind == 5:  # applicant at the open-permit cap
            full = [a for a in apps if a["open_permit_count"] >= CAP[a["kind"]] and a["kind"] == "individual"]
            a = pick(full)
            base.update(applicant_id=a["id"], property_id=pick([p for p in props if p["owner_id"] == a["id"]])["id"],
                        permit_type="roofing")
        elif kind == 6:  # same type already open on the property
            p = pick([p for p in by(OPEN) if A[p["applicant_id"]]["kind"] == "contractor"])
            c = pick([a for a in apps if a["kind"] == "contractor" and a["status"] == "active" and lic_ok(a)])
            base.update(applicant_id=c["id"], property_id=p["property_id"], permit_type=p["permit_type"])
        elif kind == 7:
            base["valuation"] = pick([0, -2500.0, 5000000.01, 1234.567, "45000"])
        elif kind == 8:
            base["description"] = pick(["", "   ", "x" * 501])
        elif kind == 9:
            base[pick(["property_id", "applicant_id"])] = pick(["PRP-999", "APL-404", "prp-001"])
        elif kind == 10:
            base["permit_type"] = pick(["fence", "pool", "Building"])
        else:
            base.pop(pick(["description", "valuation", "permit_type"]))
        return base

    # --------------------------------------------------------------- review / issue / extend / withdraw
    sub = by({"submitted"})
    sub_paid = [p for p in sub if p["balance_due"] == 0]
    sub_owing = [p for p in sub if p["balance_due"] > 0]
    not_sub = [p for p in permits if p["status"] != "submitted"]

    def review_ok():
        if sub_paid and rng.random() < 0.55:
            return {"permit_id": pick(sub_paid)["id"], "decision": "approve"}
        return {"permit_id": pick(sub)["id"], "decision": "reject",
                "reason": pick(["Missing structural calculations", "Exceeds lot coverage", "Incomplete site plan"])}

    def review_bad():
        k = rng.randrange(5)
        if k == 0 and sub_owing:
            return {"permit_id": pick(sub_owing)["id"], "decision": "approve"}
        if k == 1:
            return {"permit_id": pick(sub)["id"], "decision": "reject", **pick([{}, {"reason": "  "}])}
        if k == 2:
            return {"permit_id": pick(not_sub)["id"], "decision": pick(["approve", "reject"]), "reason": "Second look"}
        if k == 3:
            return {"permit_id": pick(sub)["id"], "decision": pick(["approved", "hold", "APPROVE"])}
        return {"permit_id": "BP-9999", "decision": "approve"}

    def issuable(p):
        a = A[p["applicant_id"]]
        return (p["status"] == "approved" and (today - dt.date.fromisoformat(p["approved_at"])).days <= 180
                and a["status"] == "active" and lic_ok(a))

    appr = by({"approved"})
    ok_issue = [p for p in appr if issuable(p)]
    bad_issue = [p for p in appr if not issuable(p)] + [p for p in permits if p["status"] != "approved"]

    def issue_ok():
        return {"permit_id": pick(ok_issue)["id"]}

    stale = [p for p in appr if not issuable(p)]

    def issue_bad():
        r = rng.random()
        if r < 0.55 and stale:  # approval lapsed, applicant suspended or license lapsed
            return {"permit_id": pick(stale)["id"]}
        if r < 0.9:
            return {"permit_id": pick(bad_issue)["id"]}
        return {"permit_id": pick(["BP-0000", "BP-99", "bp-0001"])}

    def extendable(p):
        if p["status"] != "issued" or p["extension_count"] >= 1:
            return False
        left = (dt.date.fromisoformat(p["expires_on"]) - today).days
        return 0 <= left <= 30

    ok_ext = [p for p in permits if extendable(p)]
    bad_ext = [p for p in permits if not extendable(p)]
    bad_ext_issued = [p for p in bad_ext if p["status"] == "issued"]

    def extend_ok():
        return {"permit_id": pick(ok_ext)["id"]}

    def extend_bad():
        r = rng.random()
        if r < 0.5 and bad_ext_issued:
            return {"permit_id": pick(bad_ext_issued)["id"]}
        if r < 0.9:
            return {"permit_id": pick(bad_ext)["id"]}
        return {"permit_id": "BP-7777"}

    passed_on = {i["permit_id"] for i in insps if i["status"] == "passed"}
    ok_wd = [p for p in by(OPEN) if p["id"] not in passed_on]
    bad_wd = [p for p in by(OPEN) if p["id"] in passed_on] + [p for p in permits if p["status"] not in OPEN]

    def withdraw_ok():
        args = {"permit_id": pick(ok_wd)["id"]}
        if rng.random() < 0.7:
            args["reason"] = pick(["Project cancelled by owner", "Switching contractors", "Budget cut"])
        return args

    def withdraw_bad():
        if rng.random() < 0.9:
            return {"permit_id": pick(bad_wd)["id"], "reason": "No longer needed"}
        return {"permit_id": "BP-0500"}

    # --------------------------------------------------------------- fees
    unpaid = [f for f in fees if f["status"] == "unpaid"]
    settled = [f for f in fees if f["status"] != "unpaid"]

    def pay_ok():
        f = pick(unpaid)
        methods = ["card", "check", "ach"] + (["cash"] if f["amount"] <= 1000 else [])
        return {"fee_id": f["id"], "amount": f["amount"], "method": pick(methods)}

    def pay_bad():
        f = pick(unpaid)
        k = rng.randrange(6)
        if k == 0:
            return {"fee_id": f["id"], "amount": round(f["amount"] + pick([0.01, 10.0, -1.0]), 2), "method": "card"}
        if k == 1:
            big = [g for g in unpaid if g["amount"] > 1000] or [f]
            g = pick(big)
            return {"fee_id": g["id"], "amount": g["amount"] if g["amount"] > 1000 else 0.0, "method": "cash"}
        if k == 2:
            g = pick(settled)
            return {"fee_id": g["id"], "amount": g["amount"], "method": "check"}
        if k == 3:
            return {"fee_id": f["id"], "amount": f["amount"], "method": pick(["crypto", "paypal", "Card"])}
        if k == 4:
            return {"fee_id": f["id"], "amount": f["amount"] + 0.001, "method": "ach"}
        return {"fee_id": "FE-9999", "amount": 10.0, "method": "ach"}

    # --------------------------------------------------------------- inspections
    def workday(d):
        return d.weekday() < 5 and iso(d) not in holidays

    def booked(insp_id, day):
        return sum(1 for i in insps if i["inspector_id"] == insp_id and i["status"] == "scheduled"
                   and i["scheduled_date"] == day)

    def next_stage(p):
        mine = [i for i in insps if i["permit_id"] == p["id"]]
        if any(i["status"] == "scheduled" for i in mine):
            return None
        done = {i["inspection_type"] for i in mine if i["status"] == "passed"}
        rest = [s for s in STAGES[p["permit_type"]] if s not in done]
        return rest[0] if rest else None

    ok_sched = []
    for p in by({"issued"}):
        st = next_stage(p)
        if st is None or p["balance_due"] > 0:
            continue
        for off in range(1, 31):
            d = today + dt.timedelta(days=off)
            if not workday(d) or iso(d) > p["expires_on"]:
                continue
            for q in inspectors:
                if q["active"] and p["permit_type"] in q["specialties"] and booked(q["id"], iso(d)) < q["max_per_day"]:
                    ok_sched.append({"permit_id": p["id"], "inspection_type": st, "scheduled_date": iso(d),
                                     "inspector_id": q["id"]})

    issued = by({"issued"})
    owing = [p for p in issued if p["balance_due"] > 0]
    busy = [p for p in issued if any(i["permit_id"] == p["id"] and i["status"] == "scheduled" for i in insps)]

    def sched_ok():
        return dict(pick(ok_sched))

    def sched_bad():
        a = dict(pick(ok_sched))
        p = P[a["permit_id"]]
        k = rng.randrange(12)
        if k == 0:
            a["scheduled_date"] = pick([iso(today), iso(today - dt.timedelta(days=3)), iso(today + dt.timedelta(days=31)),
                                        iso(today + dt.timedelta(days=45))])
        elif k == 1:  # weekend or city holiday
            wk = [today + dt.timedelta(days=o) for o in range(1, 31)]
            cands = [d for d in wk if not workday(d)]
            a["scheduled_date"] = iso(pick(cands))
        elif k == 2 and owing:
            q = pick([q for q in inspectors if q["active"]])
            a = {"permit_id": pick(owing)["id"], "inspection_type": "final", "scheduled_date": a["scheduled_date"],
                 "inspector_id": q["id"]}
        elif k == 3 and busy:
            b = pick(busy)
            a.update(permit_id=b["id"], inspection_type=pick(STAGES[b["permit_type"]]))
        elif k == 4:  # stage that the permit type does not have
            wrong = [s for s in ("footing", "framing", "rough_in", "final") if s not in STAGES[p["permit_type"]]]
            a["inspection_type"] = pick(wrong) if wrong else "sewer"
        elif k == 5:  # a later stage out of order, or a stage already passed
            seq = STAGES[p["permit_type"]]
            later = seq[seq.index(a["inspection_type"]) + 1:]
            earlier = seq[:seq.index(a["inspection_type"])]
            a["inspection_type"] = pick(later or earlier or ["footing"])
        elif k == 6:
            a["inspector_id"] = pick([q["id"] for q in inspectors if not q["active"]] + ["INSP-99"])
        elif k == 7:
            a["inspector_id"] = pick([q["id"] for q in inspectors if p["permit_type"] not in q["specialties"]])
        elif k == 8:  # beyond the permit's expiry
            soon = [x for x in issued if (dt.date.fromisoformat(x["expires_on"]) - today).days < 28]
            if soon:
                x = pick(soon)
                d = dt.date.fromisoformat(x["expires_on"]) + dt.timedelta(days=1)
                while not workday(d):
                    d += dt.timedelta(days=1)
                st = next_stage(x) or "final"
                q = pick([q for q in inspectors if q["active"] and x["permit_type"] in q["specialties"]])
                a = {"permit_id": x["id"], "inspection_type": st, "scheduled_date": iso(d), "inspector_id": q["id"]}
            else:
                a["scheduled_date"] = "2025-02-30"
        elif k == 9:  # permit not issued
            x = pick([x for x in permits if x["status"] != "issued"])
            a["permit_id"] = x["id"]
        elif k == 10:
            a["scheduled_date"] = pick(["2025/03/20", "20-03-2025", "next tuesday"])
        else:
            a.pop(pick(["inspector_id", "inspection_type", "scheduled_date"]))
        return a

    sch = [i for i in insps if i["status"] == "scheduled"]
    due = [i for i in sch if i["scheduled_date"] <= iso(today)]
    ahead = [i for i in sch if i["scheduled_date"] > iso(today)]
    closed = [i for i in insps if i["status"] != "scheduled"]
    notes = ["Anchor bolts missing at east wall", "Insufficient clearance at panel", "Test failed at 40 psi",
             "Flashing incomplete at chimney"]

    def record_ok():
        i = pick(due)
        if rng.random() < 0.45:
            return {"inspection_id": i["id"], "result": "failed", "notes": pick(notes)}
        return {"inspection_id": i["id"], "result": "passed", **({"notes": "All items satisfactory"} if rng.random() < 0.5 else {})}

    def record_bad():
        k = rng.randrange(5)
        if k == 0 and ahead:
            return {"inspection_id": pick(ahead)["id"], "result": "passed"}
        if k == 1:
            return {"inspection_id": pick(due)["id"], "result": "failed", **pick([{}, {"notes": " "}])}
        if k == 2:
            return {"inspection_id": pick(closed)["id"], "result": pick(["passed", "failed"]), "notes": pick(notes)}
        if k == 3:
            return {"inspection_id": pick(due)["id"], "result": pick(["pass", "ok", "conditional"])}
        return {"inspection_id": "INS-9999", "result": "passed"}

    def cancel_ok():
        return {"inspection_id": pick(ahead)["id"], "reason": pick(["Contractor not ready", "Owner travelling",
                                                                      "Materials delayed"])}

    def cancel_bad():
        k = rng.randrange(4)
        if k == 0:
            return {"inspection_id": pick(due)["id"], "reason": "Too late to attend"}
        if k == 1:
            return {"inspection_id": pick(closed)["id"], "reason": "Duplicate booking"}
        if k == 2:
            return {"inspection_id": pick(ahead)["id"], **pick([{}, {"reason": ""}, {"reason": "   "}])}
        return {"inspection_id": "INS-0000", "reason": "Unknown"}

    # --------------------------------------------------------------- reads
    def get_app_ok():
        return {"applicant_id": pick(apps)["id"]}

    def get_app_bad():
        return pick([{"applicant_id": "APL-404"}, {"applicant_id": "apl-001"}, {}, {"applicant_id": 7}])

    def search_ok():
        a = {}
        r = rng.random()
        pr = pick(props)
        if r < 0.4:
            word = pick(pr["address"].split())
            a["query"] = pick([word.lower(), word.upper(), " " + word + " "])
        elif r < 0.55:
            a["query"] = pr["parcel_number"][:pick([3, 7])]
        if rng.random() < 0.4:
            a["zoning"] = pick(["residential", "mixed_use", "commercial", "industrial"])
        if rng.random() < 0.3:
            a["owner_id"] = pr["owner_id"]
        return a

    def search_bad():
        return pick([{"query": ""}, {"query": "   "}, {"zoning": "agricultural"}, {"owner_id": "APL-999"},
                     {"zoning": "Residential"}, {"query": 42}])

    def listp_ok():
        a = {}
        if rng.random() < 0.35:
            a["property_id"] = pick(props)["id"]
        if rng.random() < 0.35:
            a["applicant_id"] = pick(apps)["id"]
        if rng.random() < 0.45:
            a["status"] = pick(["submitted", "approved", "rejected", "issued", "completed", "withdrawn", "expired"])
        if rng.random() < 0.3:
            a["permit_type"] = pick(list(STAGES))
        return a

    def listp_bad():
        return pick([{"status": "pending"}, {"status": "open"}, {"permit_type": "fence"}, {"property_id": "PRP-999"},
                     {"applicant_id": "APL-000"}, {"status": "Issued"}])

    def getp_ok():
        return {"permit_id": pick(permits)["id"]}

    def getp_bad():
        return pick([{"permit_id": "BP-9999"}, {"permit_id": "BP-45"}, {"permit_id": "bp-0001"}, {}])

    def listi_ok():
        a = {}
        if rng.random() < 0.35:
            a["permit_id"] = pick(permits)["id"]
        if rng.random() < 0.35:
            a["inspector_id"] = pick(inspectors)["id"]
        if rng.random() < 0.3:
            a["date"] = pick([i["scheduled_date"] for i in insps] + [iso(today)])
        if rng.random() < 0.35:
            a["status"] = pick(["scheduled", "passed", "failed", "cancelled"])
        return a

    def listi_bad():
        return pick([{"date": "2025-13-01"}, {"date": "03/14/2025"}, {"status": "done"}, {"inspector_id": "INSP-99"},
                     {"permit_id": "BP-0000"}, {"date": "2025-02-29"}])

    table = [
        ("get_applicant", get_app_ok, get_app_bad, 1.0),
        ("search_properties", search_ok, search_bad, 1.0),
        ("list_permits", listp_ok, listp_bad, 1.0),
        ("get_permit", getp_ok, getp_bad, 1.0),
        ("list_inspections", listi_ok, listi_bad, 1.0),
        ("submit_permit_application", submit_ok, submit_bad, 2.2),
        ("review_permit", review_ok, review_bad, 1.6),
        ("issue_permit", issue_ok, issue_bad, 1.4),
        ("extend_permit", extend_ok, extend_bad, 1.0),
        ("withdraw_permit", withdraw_ok, withdraw_bad, 1.3),
        ("pay_fee", pay_ok, pay_bad, 1.8),
        ("schedule_inspection", sched_ok, sched_bad, 2.2),
        ("record_inspection_result", record_ok, record_bad, 1.4),
        ("cancel_inspection", cancel_ok, cancel_bad, 1.2),
    ]
    total = sum(w for *_, w in table)
    out = []
    for _ in range(n):
        r, acc = rng.random() * total, 0.0
        for name, good, bad, w in table:
            acc += w
            if r <= acc:
                break
        valid = rng.random() < 0.6
        out.append((name, good() if valid else bad()))
        INTENT.append(valid)
    return out
