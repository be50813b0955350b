"""Probe calls for the Wrenfield pharmacy API: about 60% that the rules accept, 40% they refuse."""
import datetime as dt
import math

SCHED = {"none": (11, 365, 75, 90), "IV": (5, 180, 90, 90), "II": (0, 90, 90, 30)}
SIGS = ["Take 1 tablet by mouth daily", "Take 1 capsule by mouth twice daily with food",
        "Take 1 tablet at bedtime as needed for sleep"]


def probes(db, rng, n):
    C = rng.choice
    today = dt.date.fromisoformat(db["meta"]["today"])
    P, D, M = db["patients"], db["prescribers"], db["medications"]
    RX, F, PL = db["prescriptions"], db["fills"], db["insurance_plans"]

    def age(d):
        return (today - dt.date.fromisoformat(d)).days

    def day(k):
        return (today - dt.timedelta(days=k)).isoformat()

    pats = sorted(P)
    act_p = [p for p in pats if P[p]["status"] == "active"]
    inact_p = [p for p in pats if P[p]["status"] != "active"]
    docs = sorted(D)
    act_d = [d for d in docs if D[d]["status"] == "active"]
    dea_d = [d for d in act_d if D[d]["dea_registered"]]
    nodea_d = [d for d in act_d if not D[d]["dea_registered"]]
    off_d = [d for d in docs if D[d]["status"] != "active"]
    meds = sorted(M)
    act_m = [m for m in meds if M[m]["status"] == "active"]
    disc_m = [m for m in meds if M[m]["status"] != "active"]
    ctrl_m = [m for m in act_m if M[m]["schedule"] != "none"]
    sched2 = [m for m in act_m if M[m]["schedule"] == "II"]
    open_plans = sorted(p for p in PL if PL[p]["status"] == "active")
    closed_plans = sorted(p for p in PL if PL[p]["status"] != "active")
    rxs = sorted(RX)
    by = {}
    for r in rxs:
        by.setdefault(RX[r]["status"], []).append(r)
    fills = sorted(F)
    ready = [f for f in fills if F[f]["status"] == "ready"]
    done_f = [f for f in fills if F[f]["status"] != "ready"]
    live = {(r["patient_id"], r["medication_id"]) for r in RX.values() if r["status"] in ("pending_review", "active")}
    has_ready = {F[f]["prescription_id"] for f in ready}

    def ctrl(mid):
        return M[mid]["schedule"] != "none"

    def fill_block(rid):
        r = RX[rid]
        m, p, d = M[r["medication_id"]], P[r["patient_id"]], D[r["prescriber_id"]]
        if r["status"] != "active" or r["expires_on"] < today.isoformat():
            return "status"
        if p["status"] != "active" or m["status"] != "active" or (ctrl(m["medication_id"]) and d["status"] != "active"):
            return "party"
        if rid in has_ready:
            return "open"
        if r["fill_count"] >= 1 and r["refills_remaining"] < 1:
            return "refills"
        kept = [F[f] for f in fills if F[f]["prescription_id"] == rid and F[f]["status"] != "returned"]
        if kept:
            last = max(kept, key=lambda f: (f["filled_on"], f["fill_id"]))
            if age(last["filled_on"]) < math.ceil(last["days_supply"] * SCHED[m["schedule"]][2] / 100):
                return "early"
        if m["stock_on_hand"] < 1:
            return "stock"
        return None

    blocks = {}
    for r in rxs:
        blocks.setdefault(fill_block(r), []).append(r)
    fillable = blocks.get(None, [])

    def approvable(rid):
        r = RX[rid]
        d, m = D[r["prescriber_id"]], M[r["medication_id"]]
        return (m["drug_class"] not in P[r["patient_id"]]["allergies"] and d["status"] == "active"
                and (d["dea_registered"] or m["schedule"] == "none"))

    pending = by.get("pending_review", [])
    appr = [r for r in pending if approvable(r)]
    unappr = [r for r in pending if not approvable(r)]
    cancellable = [r for r in pending + by.get("active", []) if r not in has_ready]
    fresh_ready = [f for f in ready if age(F[f]["filled_on"]) <= 14]
    stale_ready = [f for f in ready if age(F[f]["filled_on"]) > 14]
    ctrl_ready = [f for f in fresh_ready if ctrl(F[f]["medication_id"])]
    owing_ready = [f for f in fresh_ready if F[f]["patient_pays"] > 0]

    def member():
        return C(["CDL", "HBV", "UNY", "SMA"]) + f"{rng.randint(0, 999999):06d}"

    def new_rx_args(mid=None):
        for _ in range(50):
            pid, mid2 = C(act_p), mid or C(act_m)
            if (pid, mid2) not in live:
                break
        sch = M[mid2]["schedule"]
        maxr, _, _, maxd = SCHED[sch]
        a = {"patient_id": pid, "prescriber_id": C(dea_d if sch != "none" else act_d), "medication_id": mid2,
             "quantity": C([1, 14, 30, 60, 90, 360]), "days_supply": C([d for d in (5, 14, 30, 60, 90) if d <= maxd]),
             "refills_authorized": C(sorted({0, maxr, rng.randint(0, maxr)})), "sig": C(SIGS)}
        if rng.random() < 0.4:
            a["written_on"] = day(C([0, 1, 12, 30]))
        return a

    def valid(tool):
        if tool == "get_patient":
            return {"patient_id": C(pats)}
        if tool == "search_patients":
            p = P[C(pats)]
            q = C([p["last_name"].lower(), p["first_name"].upper(), p["last_name"][:3],
                   f"{p['first_name']} {p['last_name'][:2]}".lower()])
            a = {"query": q}
            if rng.random() < 0.3:
                a["date_of_birth"] = p["date_of_birth"]
            return a
        if tool == "update_patient_insurance":
            pid = C(act_p)
            k = rng.randrange(3)
            if k == 0:
                return {"patient_id": pid, "plan_id": None}
            if k == 1 and P[pid]["plan_id"] in open_plans:
                return {"patient_id": pid, "plan_id": P[pid]["plan_id"], "member_id": member()}
            return {"patient_id": pid, "plan_id": C(open_plans), "member_id": member()}
        if tool == "list_medications":
            a = {}
            for key, val in (("query", lambda: C(["lisino", "PRAZOLE", "metformin", "in", "Amox"])),
                             ("drug_class", lambda: M[C(meds)]["drug_class"]), ("tier", lambda: C([1, 2, 3])),
                             ("status", lambda: C(["active", "discontinued"])), ("low_stock", lambda: C([True, False]))):
                if rng.random() < 0.3:
                    a[key] = val()
            return a
        if tool == "receive_stock":
            return {"medication_id": C(act_m), "packs": C([1, 2, 5, 12, 50])}
        if tool == "list_prescriptions":
            a = {}
            if rng.random() < 0.5:
                a["patient_id"] = C(pats)
            if rng.random() < 0.4:
                a["status"] = C(sorted(by))
            if rng.random() < 0.2:
                a["prescriber_id"] = C(docs)
            if rng.random() < 0.2:
                a["medication_id"] = C(meds)
            return a
        if tool == "get_prescription":
            return {"prescription_id": C(rxs)}
        if tool == "create_prescription":
            return new_rx_args(C(ctrl_m) if rng.random() < 0.25 else None)
        if tool == "verify_prescription":
            if appr and rng.random() < 0.6:
                return {"prescription_id": C(appr), "decision": "approve", "pharmacist_initials": C(["JKP", "MR"])}
            return {"prescription_id": C(pending), "decision": "reject", "pharmacist_initials": "ALT",
                    "reject_reason": C(["illegible", "allergy_conflict", "drug_interaction", "other"])}
        if tool == "cancel_prescription":
            return {"prescription_id": C(cancellable),
                    "reason": C(["prescriber_request", "patient_request", "duplicate_therapy", "entered_in_error"])}
        if tool == "fill_prescription":
            rid = C(fillable)
            r, m = RX[rid], M[RX[rid]["medication_id"]]
            a = {"prescription_id": rid}
            top = min(r["quantity"], m["stock_on_hand"])
            if top < r["quantity"] or rng.random() < 0.3:
                a["quantity"] = C([top, rng.randint(1, top)])
            return a
        if tool == "list_fills":
            a = {}
            if rng.random() < 0.4:
                a["patient_id"] = F[C(fills)]["patient_id"]
            if rng.random() < 0.2:
                a["prescription_id"] = F[C(fills)]["prescription_id"]
            if rng.random() < 0.3:
                a["status"] = C(["ready", "picked_up", "returned"])
            if rng.random() < 0.4:
                a["filled_from"] = day(rng.randint(30, 200))
            if rng.random() < 0.4:
                a["filled_to"] = day(rng.randint(0, 29))
            return a
        if tool == "pick_up_fill":
            fid = C(fresh_ready)
            f = F[fid]
            a = {"fill_id": fid, "payment_method": C(["cash", "card", "hsa_card"]) if f["patient_pays"] > 0
                 else C(["none", "card"])}
            if ctrl(f["medication_id"]) or rng.random() < 0.4:
                a["id_checked"] = True
            return a
        if tool == "return_fill_to_stock":
            return {"fill_id": C(ready), "reason": C(["not_picked_up", "patient_declined", "dispensing_error"])}

    def invalid(tool):
        if tool == "get_patient":
            return {"patient_id": C(["PAT-9999", "pat-1001", "1001", "PAT-0001"])}
        if tool == "search_patients":
            return C([{"query": "a"}, {"query": P[C(pats)]["last_name"][:4], "date_of_birth": "03/14/1980"},
                      {}, {"query": "   "}, {"query": "Bren", "status": "active"}])
        if tool == "update_patient_insurance":
            pid = C(act_p)
            return C([{"patient_id": C(inact_p), "plan_id": C(open_plans), "member_id": member()},
                      {"patient_id": pid, "plan_id": C(closed_plans), "member_id": member()},
                      {"patient_id": pid, "plan_id": "IP09", "member_id": member()},
                      {"patient_id": pid, "plan_id": C(open_plans), "member_id": C(["cdl123456", "CDL12345", "CD1234567"])},
                      {"patient_id": pid, "plan_id": C(open_plans)},
                      {"patient_id": pid, "plan_id": None, "member_id": member()},
                      {"patient_id": pid, "member_id": member()},
                      {"patient_id": "PAT-0999", "plan_id": None}])
        if tool == "list_medications":
            return C([{"drug_class": "antibiotic"}, {"tier": C([0, 4])}, {"status": "recalled"},
                      {"low_stock": "yes"}, {"tier": "2"}, {"query": ""}])
        if tool == "receive_stock":
            return C([{"medication_id": C(disc_m), "packs": 3}, {"medication_id": C(act_m), "packs": C([0, 51, -2])},
                      {"medication_id": C(act_m), "packs": 2.5}, {"medication_id": "MED-999", "packs": 1}])
        if tool == "list_prescriptions":
            return C([{"patient_id": "PAT-9000"}, {"status": C(["open", "filled", "ACTIVE"])},
                      {"prescriber_id": "PRS-999"}, {"medication_id": "MED-000"}])
        if tool == "get_prescription":
            return {"prescription_id": C(["RX-99999", "RX-5001", "rx-50001"])}
        if tool == "create_prescription":
            a = new_rx_args()
            k = rng.randrange(12)
            if k == 0:
                a["patient_id"] = C(inact_p)
            elif k == 1:
                a["prescriber_id"] = C(off_d)
            elif k == 2:
                a["medication_id"] = C(disc_m)
            elif k == 3:
                a.update(medication_id=C(ctrl_m), prescriber_id=C(nodea_d), refills_authorized=0, days_supply=30)
            elif k == 4:
                a.update(medication_id=C(sched2), prescriber_id=C(dea_d), refills_authorized=C([1, 2]), days_supply=30)
            elif k == 5:
                a.update(medication_id=C(sched2), prescriber_id=C(dea_d), refills_authorized=0, days_supply=C([60, 90]))
            elif k == 6:
                a["refills_authorized"] = C([12, -1]) if not ctrl(a["medication_id"]) else 6
            elif k == 7:
                a["quantity"] = C([0, 361, 500])
            elif k == 8:
                a["written_on"] = C([day(-1), day(31), day(60), "2025-02-30"])
            elif k == 9:
                pid, mid = C(sorted(live))
                a.update(patient_id=pid, medication_id=mid)
                a.update(prescriber_id=C(dea_d), refills_authorized=0, days_supply=30)
            elif k == 10:
                a["sig"] = C(["", "Take as directed. " * 12])
            else:
                a.pop(C(["sig", "quantity", "patient_id"]))
            return a
        if tool == "verify_prescription":
            k = rng.randrange(5)
            if k == 0 or (k == 1 and not unappr):
                return {"prescription_id": C([r for r in rxs if r not in pending]), "decision": "approve",
                        "pharmacist_initials": "MR"}
            if k == 1:
                return {"prescription_id": C(unappr), "decision": "approve", "pharmacist_initials": "DW"}
            a = {"prescription_id": C(pending), "decision": "approve", "pharmacist_initials": "JKP"}
            if k == 2:
                a["pharmacist_initials"] = C(["jk", "J", "ABCD", "J.K."])
            elif k == 3:
                a.update(decision="reject")
            else:
                a.update(C([{"reject_reason": "illegible"}, {"decision": "hold"}, {"reject_reason": "expired"}]))
            return a
        if tool == "cancel_prescription":
            locked = by.get("completed", []) + by.get("rejected", []) + by.get("cancelled", []) + by.get("expired", [])
            busy = [r for r in has_ready if RX[r]["status"] == "active"]
            return C([{"prescription_id": C(locked), "reason": "patient_request"},
                      {"prescription_id": C(busy or locked), "reason": "prescriber_request"},
                      {"prescription_id": C(cancellable), "reason": C(["changed_mind", "other"])}])
        if tool == "fill_prescription":
            kinds = [k for k in ("status", "open", "early", "party", "stock") if blocks.get(k)]
            k = C(kinds + ["qty"])
            if k == "qty":
                rid = C(fillable)
                return {"prescription_id": rid, "quantity": C([RX[rid]["quantity"] + 1, 0,
                                                               max(M[RX[rid]["medication_id"]]["stock_on_hand"] + 1,
                                                                   RX[rid]["quantity"] + 5)])}
            return {"prescription_id": C(blocks[k])}
        if tool == "list_fills":
            return C([{"filled_from": day(3), "filled_to": day(10)}, {"filled_from": "2025-13-01"},
                      {"patient_id": "PAT-4040"}, {"prescription_id": "RX-00001"}, {"status": "dispensed"}])
        if tool == "pick_up_fill":
            k = rng.randrange(4)
            if k == 0 and stale_ready:
                return {"fill_id": C(stale_ready), "payment_method": "card", "id_checked": True}
            if k == 1 and ctrl_ready:
                return {"fill_id": C(ctrl_ready), "payment_method": "cash", "id_checked": C([False, None])}
            if k == 2 and owing_ready:
                return {"fill_id": C(owing_ready), "payment_method": C(["none", "check", "voucher"]), "id_checked": True}
            return {"fill_id": C(done_f), "payment_method": "card", "id_checked": True}
        if tool == "return_fill_to_stock":
            return C([{"fill_id": C(done_f), "reason": "patient_declined"},
                      {"fill_id": C(ready), "reason": C(["expired", "", "other"])},
                      {"fill_id": "F-000001", "reason": "not_picked_up"}])

    tools = ["get_patient", "search_patients", "update_patient_insurance", "list_medications", "receive_stock",
             "list_prescriptions", "get_prescription", "create_prescription", "verify_prescription",
             "cancel_prescription", "fill_prescription", "list_fills", "pick_up_fill", "return_fill_to_stock"]
    weights = [1, 2, 2, 1, 2, 1, 1, 3, 2, 2, 3, 1, 2, 2]
    out = []
    while len(out) < n:
        tool = rng.choices(tools, weights)[0]
        args = valid(tool) if rng.random() < 0.58 else invalid(tool)
        if args is not None:
            out.append((tool, args))
    return out
