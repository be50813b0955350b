"""Differential probes for the veterinary clinic reference API."""
import copy
from datetime import date, timedelta

import ref_impl


def _accepts(db, name, args):
    try:
        ref_impl.invoke(copy.deepcopy(db), name, args)
        return True
    except ref_impl.RefError:
        return False


def _slots(d):
    return ref_impl._slots(d)


def probes(db, rng, n):
    today = date.fromisoformat(db["meta"]["today"])
    owners = sorted(db["owners"])
    pets = sorted(db["pets"])
    vets = sorted(db["vets"])
    prods = sorted(db["products"])
    appts = db["appointments"]
    invs = sorted(db["invoices"])
    by_status = {}
    for a in sorted(appts):
        by_status.setdefault(appts[a]["status"], []).append(a)
    sched_today = [a for a in by_status.get("scheduled", []) if appts[a]["date"] == today.isoformat()]
    sched_past = [a for a in by_status.get("scheduled", []) if appts[a]["date"] < today.isoformat()]
    sched_future = [a for a in by_status.get("scheduled", []) if appts[a]["date"] > today.isoformat()]
    checked = by_status.get("checked_in", [])
    final = by_status.get("completed", []) + by_status.get("cancelled", []) + by_status.get("no_show", [])
    open_inv = [i for i in invs if db["invoices"][i]["status"] != "paid"]
    paid_inv = [i for i in invs if db["invoices"][i]["status"] == "paid"]
    ch = rng.choice

    def future_day(lo=0, hi=60):
        while True:
            d = today + timedelta(days=rng.randint(lo, hi))
            if d.weekday() != 6:
                return d

    bookable = [p for p in pets if db["pets"][p]["status"] == "active"
                and db["owners"][db["pets"][p]["owner_id"]]["status"] == "active"
                and db["owners"][db["pets"][p]["owner_id"]]["balance"] <= 200]

    def book_args():
        p = db["pets"][ch(bookable)]
        vs = [v for v in vets if p["species"] in db["vets"][v]["species_treated"]
              and db["vets"][v]["active"]] or vets
        v = db["vets"][ch(vs)]
        types = ["wellness_exam", "vaccination", "sick_visit"] + (["dental", "surgery"] if v["performs_surgery"] else [])
        d = future_day()
        args = {"pet_id": p["id"], "vet_id": v["id"], "date": d.isoformat(), "time": ch(_slots(d)),
                "type": ch(types)}
        if rng.random() < 0.5:
            args["reason"] = ch(["Annual check-up", "Skin rash", "Booster", "Limping"])
        return args

    def valid(gen, name, tries=30):
        for _ in range(tries):
            args = gen()
            if _accepts(db, name, args):
                return args
        return args

    # ---------------------------------------------------------------- generators
    def g_get_owner(ok):
        return {"owner_id": ch(owners)} if ok else {"owner_id": ch(["O9999", "O0000", "0001", "P0001"])}

    def g_list_pets(ok):
        if ok:
            a = {}
            for k, v in [("owner_id", ch(owners)), ("species", ch(["dog", "cat", "rabbit", "bird"])),
                         ("status", ch(["active", "deceased"])),
                         ("name", ch(["bel", "MAX", "o", "Lu", "pepper"]))]:
                if rng.random() < 0.35:
                    a[k] = v
            return a
        return ch([{"owner_id": "O0999"}, {"species": "hamster"}, {"status": "lost"}, {"species": "Dog"}])

    def g_list_appointments(ok):
        if ok:
            a = {}
            if rng.random() < 0.4:
                a["pet_id"] = ch(pets)
            if rng.random() < 0.3:
                a["vet_id"] = ch(vets)
            if rng.random() < 0.4:
                a["status"] = ch(["scheduled", "checked_in", "completed", "cancelled", "no_show"])
            if rng.random() < 0.5:
                a["date_from"] = (today - timedelta(days=rng.randint(0, 30))).isoformat()
                a["date_to"] = (today + timedelta(days=rng.randint(0, 30))).isoformat()
            return a
        return ch([{"pet_id": "P9999"}, {"vet_id": "V999"}, {"status": "pending"},
                   {"date_from": "2025-03-20", "date_to": "2025-03-01"}, {"date_from": "14/03/2025"}])

    def g_list_invoices(ok):
        if ok:
            a = {}
            if rng.random() < 0.6:
                a["owner_id"] = ch(owners)
            if rng.random() < 0.5:
                a["status"] = ch(["unpaid", "partially_paid", "paid"])
            return a
        return ch([{"owner_id": "O7777"}, {"status": "overdue"}, {"status": "void"}])

    def g_register_pet(ok):
        def base():
            sp = ch(["dog", "cat", "rabbit", "bird", "reptile"])
            a = {"owner_id": ch(owners), "name": ch(["Nova", "Pixel", "Waffles", "Clover", "Bean", "Gizmo"]),
                 "species": sp, "sex": ch(["male", "female"]),
                 "date_of_birth": (today - timedelta(days=rng.randint(0, 3000))).isoformat(),
                 "weight_kg": round(rng.uniform(0.1, 40), 2)}
            if rng.random() < 0.5:
                a["breed"] = ch(["Mixed", "Poodle", "Persian", "Lionhead"])
            if rng.random() < 0.4:
                a["microchip_id"] = "9851%011d" % rng.randint(0, 10 ** 11 - 1)
            return a
        if ok:
            return valid(base, "register_pet")
        a = base()
        kind = rng.randint(0, 7)
        if kind == 0:
            a["owner_id"] = ch([o for o in owners if db["owners"][o]["status"] == "suspended"])
        elif kind == 1:
            a["date_of_birth"] = (today + timedelta(days=rng.randint(1, 60))).isoformat()
        elif kind == 2:
            a["weight_kg"] = ch([0, -2.5, 180.0])
        elif kind == 3:
            chips = [p["microchip_id"] for p in db["pets"].values() if p["microchip_id"]]
            a["microchip_id"] = ch(chips) if rng.random() < 0.6 else ch(["12345", "98500000000000A", "9850000000000001"])
        elif kind == 4:
            full = [o for o in owners if db["owners"][o]["pet_count"] >= 5]
            a["owner_id"] = ch(full) if full else "O0000"
        elif kind == 5:
            p = db["pets"][ch([p for p in pets if db["pets"][p]["status"] == "active"])]
            a["owner_id"], a["name"] = p["owner_id"], ch([p["name"].upper(), p["name"].lower(), p["name"]])
        elif kind == 6:
            a["species"] = ch(["hamster", "fish"])
        else:
            a["date_of_birth"] = ch(["2020-02-30", "03/01/2021"])
        return a

    def g_book(ok):
        if ok:
            return valid(book_args, "book_appointment", 60)
        a = book_args()
        kind = rng.randint(0, 10)
        if kind == 0:
            a["pet_id"] = ch([p for p in pets if db["pets"][p]["status"] != "active"])
        elif kind == 1:
            poor = [p for p in pets if db["owners"][db["pets"][p]["owner_id"]]["balance"] > 200
                    or db["owners"][db["pets"][p]["owner_id"]]["status"] != "active"]
            a["pet_id"] = ch(poor)
        elif kind == 2:
            a["vet_id"] = ch([v for v in vets if not db["vets"][v]["active"]])
        elif kind == 3:
            p = db["pets"][a["pet_id"]]
            wrong = [v for v in vets if p["species"] not in db["vets"][v]["species_treated"]]
            a["vet_id"] = ch(wrong)
        elif kind == 4:
            a["vet_id"] = ch([v for v in vets if not db["vets"][v]["performs_surgery"]])
            a["type"] = ch(["dental", "surgery"])
        elif kind == 5:
            d = today - timedelta(days=rng.randint(1, 20))
            a["date"] = d.isoformat()
        elif kind == 6:
            a["date"] = future_day(61, 90).isoformat()
        elif kind == 7:
            d = today + timedelta(days=(6 - today.weekday()) % 7 + 7 * rng.randint(0, 6))
            a["date"], a["time"] = d.isoformat(), "10:00"
        elif kind == 8:
            if rng.random() < 0.5:
                a["time"] = ch(["07:30", "18:00", "10:15", "9:00", "13:00pm"])
            else:
                d = today + timedelta(days=(5 - today.weekday()) % 7 + 7 * rng.randint(0, 6))
                a["date"], a["time"] = d.isoformat(), ch(["13:00", "15:30", "17:00"])
        elif kind == 9:
            x = appts[ch(by_status["scheduled"] + checked)]
            if x["date"] < today.isoformat():
                x = appts[ch(sched_future)]
            p = db["pets"][a["pet_id"]]
            a["vet_id"], a["date"], a["time"] = x["vet_id"], x["date"], x["time"]
            if p["species"] not in db["vets"][x["vet_id"]]["species_treated"]:
                a["pet_id"] = x["pet_id"]
        else:
            x = appts[ch(sched_future)]
            d = date.fromisoformat(x["date"])
            a["pet_id"], a["date"], a["time"] = x["pet_id"], x["date"], ch([t for t in _slots(d) if t != x["time"]])
            p = db["pets"][x["pet_id"]]
            a["vet_id"] = ch([v for v in vets if p["species"] in db["vets"][v]["species_treated"] and db["vets"][v]["active"]])
            a["type"] = "sick_visit"
        return a

    def g_reschedule(ok):
        def gen():
            aid = ch(sched_future + sched_today)
            d = future_day()
            return {"appointment_id": aid, "new_date": d.isoformat(), "new_time": ch(_slots(d))}
        if ok:
            return valid(gen, "reschedule_appointment")
        a = gen()
        kind = rng.randint(0, 5)
        if kind == 0:
            a["appointment_id"] = ch([x for x in sched_future if appts[x]["reschedule_count"] >= 2])
        elif kind == 1:
            a["appointment_id"] = ch(final + checked)
        elif kind == 2:
            a["new_date"] = (today - timedelta(days=rng.randint(1, 10))).isoformat()
        elif kind == 3:
            a["new_date"] = future_day(61, 120).isoformat()
        elif kind == 4:
            a["new_time"] = ch(["12:45", "19:00", "noon"])
        else:
            x = appts[ch(sched_future)]
            a["new_date"], a["new_time"] = x["date"], x["time"]
            a["appointment_id"] = ch([y for y in sched_future if appts[y]["vet_id"] == x["vet_id"] and y != x["id"]] or ["A9999"])
        return a

    def g_cancel(ok):
        reasons = ["owner_request", "clinic_request", "pet_deceased", "other"]
        if ok:
            pool = sched_today + sched_future
            near = [x for x in pool if appts[x]["date"] <= (today + timedelta(days=1)).isoformat()]
            aid = ch(near) if near and rng.random() < 0.4 else ch(pool)
            return {"appointment_id": aid, "reason": ch(reasons)}
        return ch([{"appointment_id": ch(final + checked), "reason": ch(reasons)},
                   {"appointment_id": ch(sched_past), "reason": "owner_request"},
                   {"appointment_id": ch(sched_future), "reason": ch(["changed_mind", "Owner_Request"])},
                   {"appointment_id": "A0000", "reason": "other"},
                   {"appointment_id": ch(sched_future)}])

    def g_check_in(ok):
        if ok:
            a = {"appointment_id": ch(sched_today)}
            if rng.random() < 0.5:
                a["weight_kg"] = round(rng.uniform(0.5, 40), 2)
            return a
        return ch([{"appointment_id": ch(sched_future)}, {"appointment_id": ch(sched_past)},
                   {"appointment_id": ch(checked + final)},
                   {"appointment_id": ch(sched_today), "weight_kg": ch([0, -1.2, 200])},
                   {"appointment_id": "A9999"}])

    def g_no_show(ok):
        if ok:
            return {"appointment_id": ch(sched_past + sched_today)}
        return ch([{"appointment_id": ch(sched_future)}, {"appointment_id": ch(checked + final)},
                   {"appointment_id": "A1234"}])

    def g_treatment(ok):
        def gen():
            aid = ch(checked)
            sp = db["pets"][appts[aid]["pet_id"]]["species"]
            ps = [p for p in prods if sp in db["products"][p]["species"] and db["products"][p]["active"]]
            pid = ch(ps)
            q = 1 if db["products"][pid]["category"] != "medication" else rng.randint(1, 10)
            return {"appointment_id": aid, "product_id": pid, "quantity": q}
        if ok:
            return valid(gen, "add_treatment")
        a = gen()
        kind = rng.randint(0, 7)
        sp = db["pets"][appts[a["appointment_id"]]["pet_id"]]["species"]
        if kind == 0:
            a["appointment_id"] = ch(sched_today + final)
        elif kind == 1:
            a["product_id"] = ch([p for p in prods if not db["products"][p]["active"]])
        elif kind == 2:
            a["product_id"] = ch([p for p in prods if sp not in db["products"][p]["species"]])
        elif kind == 3:
            a["quantity"] = ch([0, 21, 2.5, -3])
        elif kind == 4:
            low = [(x, p) for x in checked for p in prods if db["products"][p]["active"]
                   and db["products"][p]["stock_on_hand"] is not None and db["products"][p]["stock_on_hand"] < 5
                   and db["pets"][appts[x]["pet_id"]]["species"] in db["products"][p]["species"]]
            a["appointment_id"], a["product_id"] = ch(low)
            stock = db["products"][a["product_id"]]["stock_on_hand"]
            a["quantity"] = 1 if db["products"][a["product_id"]]["category"] == "vaccine" else stock + rng.randint(1, 3)
        elif kind == 5:
            vac = [p for p in prods if db["products"][p]["category"] == "vaccine" and sp in db["products"][p]["species"]]
            if vac:
                a["product_id"], a["quantity"] = ch(vac), 2
            else:
                a["product_id"] = "PRD-999"
        elif kind == 6:
            done = [(x, l["product_id"]) for x in checked for l in appts[x]["treatments"]
                    if db["products"][l["product_id"]]["category"] == "vaccine"]
            if done:
                a["appointment_id"], a["product_id"] = ch(done)
                a["quantity"] = 1
            else:
                a["product_id"] = "PRD-000"
        else:
            a["product_id"] = "PRD-404"
        return a

    def g_complete(ok):
        if ok:
            return valid(lambda: {"appointment_id": ch(checked)}, "complete_appointment")
        vacc = [x for x in checked if appts[x]["type"] == "vaccination"
                and not any(db["products"][l["product_id"]]["category"] == "vaccine" for l in appts[x]["treatments"])]
        opts = [{"appointment_id": ch(sched_today + sched_future)}, {"appointment_id": ch(final)},
                {"appointment_id": "A0999"}]
        if vacc:
            opts.append({"appointment_id": ch(vacc)})
        return ch(opts)

    def g_payment(ok):
        if ok:
            i = db["invoices"][ch(open_inv)]
            out = ref_impl.money(i["total"] - i["amount_paid"])
            amt = out if rng.random() < 0.5 else ref_impl.money(max(0.01, out * rng.uniform(0.1, 0.9)))
            return {"invoice_id": i["id"], "amount": amt, "method": ch(["cash", "card", "insurance"])}
        i = db["invoices"][ch(open_inv)]
        out = ref_impl.money(i["total"] - i["amount_paid"])
        return ch([{"invoice_id": ch(paid_inv), "amount": 10.0, "method": "card"},
                   {"invoice_id": i["id"], "amount": ref_impl.money(out + rng.choice([0.01, 5, 100])), "method": "cash"},
                   {"invoice_id": i["id"], "amount": ch([0, -20.0]), "method": "card"},
                   {"invoice_id": i["id"], "amount": 10.005, "method": "card"},
                   {"invoice_id": i["id"], "amount": 5.0, "method": "cheque"},
                   {"invoice_id": "INV-99999", "amount": 5.0, "method": "cash"}])

    gens = [("get_owner", g_get_owner, 1), ("list_pets", g_list_pets, 1),
            ("list_appointments", g_list_appointments, 1), ("list_invoices", g_list_invoices, 1),
            ("register_pet", g_register_pet, 2), ("book_appointment", g_book, 3),
            ("reschedule_appointment", g_reschedule, 2), ("cancel_appointment", g_cancel, 2),
            ("check_in_appointment", g_check_in, 2), ("mark_no_show", g_no_show, 1.5),
            ("add_treatment", g_treatment, 2.5), ("complete_appointment", g_complete, 2),
            ("record_payment", g_payment, 2)]
    total_w = sum(w for _, _, w in gens)
    out = []
    for k in range(n):
        r = rng.random() * total_w
        for name, g, w in gens:
            r -= w
            if r <= 0:
                break
        out.append((name, g(rng.random() < 0.6)))
    if n >= len(gens):  # make sure every tool appears at least once, valid and invalid
        for j, (name, g, _) in enumerate(gens):
            out[j] = (name, g(j % 2 == 0))
    rng.shuffle(out)
    return out
