"""Probe generator for the dental clinic API: ~60% valid calls, ~40% calls that must be refused."""
import datetime as dt

TEETH = [q * 10 + n for q in (1, 2, 3, 4) for n in range(1, 9)]
TITLES = ["Restorative care", "Crown work", "Aligner treatment", "Gum health", "Implant"]


def probes(db, rng, n):
    today = dt.date.fromisoformat(db["meta"]["today"])
    pats, dens, procs = db["patients"], db["dentists"], db["procedures"]
    plans, appts, slots = db["treatment_plans"], db["appointments"], db["slots"]
    C = rng.choice

    def days(date):
        return (dt.date.fromisoformat(date) - today).days

    def iso(k):
        return (today + dt.timedelta(days=k)).isoformat()

    def m(lo, hi):
        return round(rng.randint(int(lo * 100), int(hi * 100)) / 100, 2)

    def pick(xs):
        return C(xs) if xs else None

    active_p = [p for p in sorted(pats) if pats[p]["status"] == "active"]
    eligible = [p for p in active_p if pats[p]["no_show_count"] < 3 and pats[p]["balance_due"] <= 300]
    blocked_p = [p for p in sorted(pats) if p not in eligible]
    active_d = [d for d in sorted(dens) if dens[d]["status"] == "active"]
    open_pairs = {(t["patient_id"], t["dentist_id"]) for t in plans.values()
                  if t["status"] in ("draft", "accepted", "in_progress")}
    by = {}
    for k in sorted(plans):
        by.setdefault(plans[k]["status"], []).append(k)
    drafts = by.get("draft", [])
    booked_days = {(a["patient_id"], a["date"]) for a in appts.values() if a["status"] == "booked"}
    free = [s for s in sorted(slots) if slots[s]["status"] == "available" and 1 <= days(slots[s]["date"]) <= 60]
    ab = {}
    for k in sorted(appts):
        a = appts[k]
        if a["status"] != "booked":
            ab.setdefault("closed", []).append(k)
        elif days(a["date"]) < 0:
            ab.setdefault("past", []).append(k)
        elif days(a["date"]) == 0:
            ab.setdefault("today", []).append(k)
        else:
            ab.setdefault("future", []).append(k)

    def allowed(plan_id):
        spec = dens[plans[plan_id]["dentist_id"]]["specialty"]
        return [c for c in sorted(procs) if procs[c]["active"] and procs[c]["specialty"] in ("general", spec)]

    def new_item(plan_id):
        for _ in range(20):
            code = C(allowed(plan_id))
            tooth = C(TEETH) if procs[code]["requires_tooth"] else None
            if not any(i["procedure_code"] == code and i["tooth"] == tooth for i in plans[plan_id]["items"]):
                a = {"plan_id": plan_id, "procedure_code": code}
                if tooth is not None:
                    a["tooth"] = tooth
                return a
        return None

    def outstanding(k):
        return round(plans[k]["deposit_required"] - plans[k]["deposit_paid"], 2)

    def treatment_options():
        out = []
        for k in by.get("accepted", []) + by.get("in_progress", []):
            t = plans[k]
            if t["deposit_paid"] < t["deposit_required"] or t["patient_id"] not in eligible:
                continue
            for it in t["items"]:
                if it["status"] != "pending":
                    continue
                dur = procs[it["procedure_code"]]["duration_minutes"]
                for s in free:
                    sl = slots[s]
                    if (sl["dentist_id"] == t["dentist_id"] and sl["duration_minutes"] >= dur
                            and (t["patient_id"], sl["date"]) not in booked_days):
                        out.append({"patient_id": t["patient_id"], "slot_id": s, "plan_id": k,
                                    "item_no": it["item_no"]})
        return out

    treat_ok = treatment_options()

    def valid(tool):
        if tool == "find_patients":
            a = {}
            if rng.random() < 0.6:
                nm = pats[C(sorted(pats))]["full_name"]
                part = C(nm.split())
                a["name"] = C([part, part.lower(), part.upper(), part[:3]])
            if rng.random() < 0.4:
                a["insurance_plan"] = C(["none", "basic", "plus", "premium"])
            if rng.random() < 0.3:
                a["status"] = C(["active", "inactive"])
            return a
        if tool == "get_treatment_plan":
            return {"plan_id": C(sorted(plans))}
        if tool == "list_available_slots":
            a = {}
            if rng.random() < 0.6:
                lo = rng.randint(-5, 40)
                a.update(date_from=iso(lo), date_to=iso(lo + rng.randint(0, 20)))
            if rng.random() < 0.5:
                a["dentist_id"] = C(sorted(dens))
            if rng.random() < 0.3:
                a["min_duration"] = C([30, 45, 60, 90])
            return a
        if tool == "list_appointments":
            a = {}
            r = rng.random()
            if r < 0.4:
                a["patient_id"] = C(sorted(pats))
            elif r < 0.7:
                a["dentist_id"] = C(sorted(dens))
            if rng.random() < 0.4:
                a["status"] = C(["booked", "completed", "cancelled", "no_show"])
            if rng.random() < 0.3:
                a.update(date_from=iso(rng.randint(-30, 0)), date_to=iso(rng.randint(1, 30)))
            return a
        if tool == "create_treatment_plan":
            pairs = [(p, d) for p in active_p for d in active_d if (p, d) not in open_pairs]
            p, d = C(pairs)
            return {"patient_id": p, "dentist_id": d, "title": C(TITLES)}
        if tool == "add_plan_item":
            k = pick([t for t in drafts if len(plans[t]["items"]) < 10])
            return new_item(k) if k else None
        if tool == "accept_treatment_plan":
            ok = [t for t in drafts if plans[t]["items"] and days(plans[t]["created_on"]) >= -90
                  and pats[plans[t]["patient_id"]]["status"] == "active"]
            return {"plan_id": C(ok)} if ok else None
        if tool == "pay_deposit":
            k = pick([t for t in by.get("accepted", []) if outstanding(t) > 0])
            if not k:
                return None
            o = outstanding(k)
            return {"plan_id": k, "amount": C([o, o, m(0.01, o)]), "method": C(["card", "cash", "bank_transfer"])}
        if tool == "cancel_treatment_plan":
            k = C(drafts + by.get("accepted", []) * 2)
            return {"plan_id": k, "reason": C(["patient_declined", "cost", "second_opinion", "other"])}
        if tool == "book_appointment":
            if treat_ok and rng.random() < 0.5:
                return dict(C(treat_ok))
            for _ in range(30):
                p, s = C(eligible), C(free)
                if (p, slots[s]["date"]) not in booked_days:
                    return {"patient_id": p, "slot_id": s}
            return None
        if tool == "cancel_appointment":
            k = pick(ab.get("future", []) + ab.get("today", []))
            return {"appointment_id": k, "reason": C(["patient_request", "illness", "clinic_request", "other"])} if k else None
        if tool == "complete_appointment":
            k = pick(ab.get("past", []) + ab.get("today", []))
            return {"appointment_id": k} if k else None
        if tool == "mark_no_show":
            k = pick(ab.get("past", []))
            return {"appointment_id": k} if k else None
        if tool == "record_payment":
            p = C([p for p in sorted(pats) if pats[p]["balance_due"] > 0])
            bal = pats[p]["balance_due"]
            return {"patient_id": p, "amount": C([bal, m(0.01, bal)]), "method": C(["card", "cash", "bank_transfer"])}

    def invalid(tool):
        if tool == "find_patients":
            return C([{"insurance_plan": "gold"}, {"status": "deleted"}, {"name": "   "},
                      {"name": 42}, {"email": "a@b.example"}])
        if tool == "get_treatment_plan":
            return C([{"plan_id": "TP9999"}, {}, {"plan_id": "tp0001"}])
        if tool == "list_available_slots":
            return C([{"date_from": "2025-13-01"}, {"date_to": "11/06/2025"},
                      {"date_from": iso(10), "date_to": iso(3)}, {"dentist_id": "D99"},
                      {"min_duration": 0}, {"min_duration": "60"}])
        if tool == "list_appointments":
            return C([{"patient_id": "P9999"}, {"status": "pending"}, {"dentist_id": "D00"},
                      {"date_from": iso(5), "date_to": iso(-5)}, {"date_from": "June 1"}])
        if tool == "create_treatment_plan":
            k = rng.randrange(5)
            if k == 0 and open_pairs:
                p, d = C(sorted(open_pairs))
                return {"patient_id": p, "dentist_id": d, "title": C(TITLES)}
            if k == 1:
                return {"patient_id": C(active_p), "dentist_id": C([d for d in dens if dens[d]["status"] != "active"] or ["D99"]), "title": C(TITLES)}
            if k == 2:
                return {"patient_id": C([p for p in pats if pats[p]["status"] != "active"] or ["P9999"]),
                        "dentist_id": C(active_d), "title": C(TITLES)}
            if k == 3:
                return {"patient_id": C(active_p), "dentist_id": C(active_d), "title": C(["", "  ", None])}
            return {"patient_id": "P9999", "dentist_id": C(active_d), "title": "Check-up"}
        if tool == "add_plan_item":
            k = rng.randrange(7)
            if k == 0:
                return new_item(C([t for t in plans if plans[t]["status"] != "draft"]))
            d = C(drafts)
            spec = dens[plans[d]["dentist_id"]]["specialty"]
            if k == 1:
                return {"plan_id": d, "procedure_code": "PR113", "tooth": C(TEETH)}
            if k == 2:
                bad = [c for c in sorted(procs) if procs[c]["specialty"] not in ("general", spec)]
                c = C(bad)
                return {"plan_id": d, "procedure_code": c, **({"tooth": 36} if procs[c]["requires_tooth"] else {})}
            if k == 3:
                return {"plan_id": d, "procedure_code": C(["PR111", "PR131", "PR104"]),
                        **C([{}, {"tooth": C([19, 50, 0, 55, 9])}, {"tooth": "11"}])}
            if k == 4:
                return {"plan_id": d, "procedure_code": C(["PR101", "PR102", "PR161"]), "tooth": C(TEETH)}
            if k == 5:
                withi = [t for t in drafts if plans[t]["items"]]
                if withi:
                    it = C(plans[C(withi)]["items"])
                    t = [t for t in withi if it in plans[t]["items"]][0]
                    a = {"plan_id": t, "procedure_code": it["procedure_code"]}
                    if it["tooth"] is not None:
                        a["tooth"] = it["tooth"]
                    return a
            return {"plan_id": d, "procedure_code": C(["PR999", "pr111"]), "tooth": 11}
        if tool == "accept_treatment_plan":
            bad = [t for t in drafts if not plans[t]["items"] or days(plans[t]["created_on"]) < -90]
            return {"plan_id": C(bad + [t for t in plans if plans[t]["status"] != "draft"] + ["TP0000"])}
        if tool == "pay_deposit":
            k = rng.randrange(4)
            acc = by.get("accepted", [])
            if k == 0:
                t = C(acc)
                return {"plan_id": t, "amount": round(outstanding(t) + C([0.01, 5, 100]), 2), "method": "card"}
            if k == 1:
                t = C([x for x in plans if plans[x]["status"] != "accepted"])
                return {"plan_id": t, "amount": 10, "method": "card"}
            if k == 2:
                return {"plan_id": C(acc), "amount": C([0, -5, 10.555, "20"]), "method": "cash"}
            return {"plan_id": C(acc), "amount": 1, "method": C(["crypto", "cheque", None])}
        if tool == "cancel_treatment_plan":
            bad = by.get("in_progress", []) + by.get("completed", []) + by.get("cancelled", [])
            return C([{"plan_id": C(bad), "reason": "cost"},
                      {"plan_id": C(drafts), "reason": C(["changed_mind", "plan_cancelled", None])},
                      {"plan_id": "TP9999", "reason": "other"}])
        if tool == "book_appointment":
            k = rng.randrange(8)
            if k == 0:
                taken = [s for s in sorted(slots) if slots[s]["status"] != "available"]
                return {"patient_id": C(eligible), "slot_id": C(taken)}
            if k == 1:
                far = [s for s in sorted(slots) if slots[s]["status"] == "available" and not 1 <= days(slots[s]["date"]) <= 60]
                return {"patient_id": C(eligible), "slot_id": C(far or ["SL9999"])}
            if k == 2:
                return {"patient_id": C(blocked_p), "slot_id": C(free)}
            if k == 3:
                bd = sorted(booked_days)
                p, d = C(bd)
                same = [s for s in free if slots[s]["date"] == d]
                if same:
                    return {"patient_id": p, "slot_id": C(same)}
                return {"patient_id": C(eligible), "slot_id": C(free), "item_no": 1}
            if k == 4:
                unpaid = [t for t in by.get("accepted", []) if outstanding(t) > 0]
                t = C(unpaid)
                return {"patient_id": plans[t]["patient_id"], "slot_id": C(free), "plan_id": t, "item_no": 1}
            if k == 5 and treat_ok:
                a = dict(C(treat_ok))
                a.update(C([{"item_no": 99}, {"patient_id": C([p for p in eligible if p != a["patient_id"]])},
                            {"slot_id": C([s for s in free if slots[s]["dentist_id"] != plans[a["plan_id"]]["dentist_id"]])},
                            {"plan_id": C(by.get("completed", []) + by.get("draft", []))}]))
                return a
            if k == 6:
                t = C(by.get("in_progress", []))
                done = [i["item_no"] for i in plans[t]["items"] if i["status"] != "pending"]
                return {"patient_id": plans[t]["patient_id"], "slot_id": C(free), "plan_id": t, "item_no": C(done)}
            return {"patient_id": C(["P9999", None]), "slot_id": C(free)}
        if tool == "cancel_appointment":
            k = rng.randrange(3)
            if k == 0:
                return {"appointment_id": C(ab.get("past", []) + ab["closed"]), "reason": "illness"}
            if k == 1:
                return {"appointment_id": C(ab.get("future", [])), "reason": C(["plan_cancelled", "bored", None])}
            return {"appointment_id": "AP99999", "reason": "other"}
        if tool == "complete_appointment":
            return {"appointment_id": C(ab.get("future", []) + ab["closed"] + ["AP00000"])}
        if tool == "mark_no_show":
            return {"appointment_id": C(ab.get("today", []) + ab.get("future", []) + ab["closed"])}
        if tool == "record_payment":
            k = rng.randrange(4)
            if k == 0:
                p = C(sorted(pats))
                return {"patient_id": p, "amount": round(pats[p]["balance_due"] + C([0.01, 25, 500]), 2), "method": "card"}
            if k == 1:
                return {"patient_id": C(sorted(pats)), "amount": C([0, -20, 12.345]), "method": "cash"}
            if k == 2:
                return {"patient_id": C(sorted(pats)), "amount": 5, "method": "voucher"}
            return {"patient_id": "P0000", "amount": 10, "method": "card"}

    tools = ["find_patients", "get_treatment_plan", "list_available_slots", "list_appointments",
             "create_treatment_plan", "add_plan_item", "accept_treatment_plan", "pay_deposit",
             "cancel_treatment_plan", "book_appointment", "cancel_appointment",
             "complete_appointment", "mark_no_show", "record_payment"]
    weights = [1, 1, 1, 1, 2, 3, 2, 2, 2, 3, 2, 2, 2, 2]
    out = []
    while len(out) < n:
        tool = rng.choices(tools, weights)[0]
        args = valid(tool) if rng.random() < 0.6 else invalid(tool)
        if args is not None:  # a valid call whose candidates are used up is redrawn
            out.append((tool, args))
    return out
