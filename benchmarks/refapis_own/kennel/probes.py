"""Probe generator for the Barkwood Lodge API: about 60% valid calls, 40% that must be refused."""
import datetime as dt

SIZES = ["small", "medium", "large", "giant"]
REASONS = ["owner_request", "pet_unwell", "travel_changed", "other"]


def probes(db, rng, n):
    today = dt.date.fromisoformat(db["meta"]["today"])
    C = rng.choice

    def d(k):
        return (today + dt.timedelta(days=k)).isoformat()

    owners, pets, runs, stays = db["owners"], db["pets"], db["runs"], db["stays"]
    services, visits, days = db["services"], db["daycare_visits"], db["daycare_days"]
    by = {}
    for s in stays.values():
        by.setdefault(s["status"], []).append(s)
    booked = by.get("booked", [])
    booked_today = [s for s in booked if s["check_in_date"] == d(0)]
    booked_future = [s for s in booked if s["check_in_date"] >= d(0)]
    booked_past = [s for s in booked if s["check_in_date"] < d(0)]
    checked_in = by.get("checked_in", [])
    closed = [s for s in stays.values() if s["status"] in ("checked_out", "cancelled", "no_show")]
    good_owner = {o for o, v in owners.items() if v["balance"] <= 400 and v["no_show_count"] < 3}
    bad_owner = [o for o in owners if o not in good_owner]

    def vacc_until(p):
        keys = ["rabies_expires_on", "core_vaccine_expires_on"] + (
            ["bordetella_expires_on"] if p["species"] == "dog" else [])
        return min(p[k] for k in keys)

    ok_pets = [p for p in pets.values() if p["owner_id"] in good_owner and vacc_until(p) > d(10)]
    stale_pets = [p for p in pets.values() if vacc_until(p) < d(0)]
    dc_pets = [p for p in ok_pets if p["species"] == "dog" and p["daycare_approved"]]
    open_days = [k for k, v in days.items() if k >= d(0) and v["booked_count"] < v["capacity"]]
    full_days = [k for k, v in days.items() if k >= d(0) and v["booked_count"] >= v["capacity"]]
    live_visits = [v for v in visits.values() if v["status"] == "booked"]
    dead_visits = [v for v in visits.values() if v["status"] != "booked"]
    debtors = [o for o in owners.values() if o["balance"] > 0]
    non_debtors = [o for o in owners.values() if o["balance"] <= 0]

    def fitting_runs(p):
        return [r for r in sorted(runs) if runs[r]["status"] == "open" and runs[r]["species"] == p["species"]
                and SIZES.index(p["size"]) <= SIZES.index(runs[r]["max_size"])]

    def holds(s):
        end = s["check_out_date"]
        if s["status"] == "checked_in":
            end = max(end, d(1))
        return s["check_in_date"], end

    def room(p, rid, cin, cout):
        cap = runs[rid]["capacity"]
        live = [holds(s) + (s["owner_id"],) for s in booked + checked_in if s["run_id"] == rid]
        mine = [holds(s) for s in booked + checked_in if s["pet_id"] == p["pet_id"]]
        if any(a < cout and cin < b for a, b in mine):
            return False
        k = cin
        while k < cout:
            here = [o for a, b, o in live if a <= k < b]
            if len(here) >= cap or any(o != p["owner_id"] for o in here):
                return False
            k = (dt.date.fromisoformat(k) + dt.timedelta(days=1)).isoformat()
        return True

    def stay_dates(p):
        lim = (dt.date.fromisoformat(vacc_until(p)) - today).days
        start = rng.randint(0, max(0, min(150, lim - 2)))
        nights = rng.randint(1, max(1, min(12, lim - start)))
        return d(start), d(start + nights)

    def services_for(s):
        sp = pets[s["pet_id"]]["species"]
        return [v for v in services.values() if v["active"] and v["species"] in ("any", sp)]

    def valid(tool):
        if tool == "get_owner":
            return {"owner_id": C(sorted(owners))}
        if tool == "search_pets":
            a = {}
            p = C(list(pets.values()))
            if rng.random() < 0.6:
                src = C([p["name"], p["breed"]])
                i = rng.randrange(len(src))
                frag = src[i:i + rng.randint(2, 5)]
                a["query"] = C([frag.lower(), frag.upper(), frag])
            if rng.random() < 0.4:
                a["owner_id"] = p["owner_id"]
            if rng.random() < 0.3:
                a["species"] = C(["dog", "cat"])
            return a
        if tool == "find_available_runs":
            p = C(list(pets.values()))
            cin = rng.randint(0, 120)
            return {"pet_id": p["pet_id"], "check_in_date": d(cin),
                    "check_out_date": d(cin + rng.randint(1, 14))}
        if tool == "list_stays":
            a = {}
            s = C(list(stays.values()))
            for k in ("owner_id", "pet_id", "run_id", "status"):
                if rng.random() < 0.3:
                    a[k] = s[k]
            if rng.random() < 0.4:
                a["from_date"] = d(rng.randint(-60, 10))
            if rng.random() < 0.3:
                a["to_date"] = d(rng.randint(11, 90))
            return a
        if tool == "create_stay":
            for _ in range(20):
                p = C(ok_pets)
                cin, cout = stay_dates(p)
                free = [r for r in fitting_runs(p) if room(p, r, cin, cout)]
                if free:
                    break
            return {"pet_id": p["pet_id"], "run_id": C(free or fitting_runs(p)), "check_in_date": cin,
                    "check_out_date": cout}
        if tool == "check_in_stay":
            return {"stay_id": C(booked_today)["stay_id"]}
        if tool == "check_out_stay":
            return {"stay_id": C(checked_in)["stay_id"]}
        if tool == "cancel_stay":
            return {"stay_id": C(booked_future)["stay_id"], "reason": C(REASONS)}
        if tool == "mark_stay_no_show":
            return {"stay_id": C(booked_past)["stay_id"]}
        if tool == "add_stay_service":
            s = C(booked + checked_in)
            sv = C(services_for(s))
            a = {"stay_id": s["stay_id"], "service_id": sv["service_id"]}
            if sv["unit"] == "per_night":
                a["quantity"] = rng.randint(1, s["nights"])
            elif rng.random() < 0.3:
                a["quantity"] = 1
            return a
        if tool == "book_daycare_visit":
            p = C(dc_pets)
            return {"pet_id": p["pet_id"], "visit_date": C(open_days), "session": C(["full_day", "half_day"])}
        if tool == "cancel_daycare_visit":
            return {"visit_id": C(live_visits)["visit_id"]}
        if tool == "record_payment":
            o = C(debtors)
            amt = C([o["balance"], round(rng.uniform(0.01, o["balance"]), 2), 10 if o["balance"] >= 10 else 1])
            return {"owner_id": o["owner_id"], "amount": min(amt, o["balance"]),
                    "method": C(["card", "cash", "bank_transfer"])}
        if tool == "update_vaccinations":
            p = C(list(pets.values()))
            a = {"pet_id": p["pet_id"]}
            keys = ["rabies_expires_on", "core_vaccine_expires_on"]
            if p["species"] == "dog":
                keys.append("bordetella_expires_on")
            for k in rng.sample(keys, rng.randint(1, len(keys))):
                a[k] = d(rng.randint(1, 1095))
            return a

    def invalid(tool):
        k = rng.randrange(6)
        if tool == "get_owner":
            return C([{"owner_id": "OW0999"}, {"owner_id": "ow1001"}, {}, {"owner_id": 1001}])
        if tool == "search_pets":
            return C([{"query": "   "}, {"owner_id": "OW9999"}, {"species": "rabbit"}, {"query": ""},
                      {"name": "Luna"}])
        if tool == "find_available_runs":
            p = C(list(pets.values()))["pet_id"]
            return C([{"pet_id": p, "check_in_date": d(-2), "check_out_date": d(3)},
                      {"pet_id": p, "check_in_date": d(5), "check_out_date": d(5)},
                      {"pet_id": p, "check_in_date": d(181), "check_out_date": d(185)},
                      {"pet_id": p, "check_in_date": d(3), "check_out_date": d(40)},
                      {"pet_id": "PT9999", "check_in_date": d(3), "check_out_date": d(5)},
                      {"pet_id": p, "check_in_date": "2025-13-01", "check_out_date": d(5)}])
        if tool == "list_stays":
            return C([{"status": "active"}, {"owner_id": "OW0001"}, {"from_date": d(10), "to_date": d(1)},
                      {"run_id": "RUN99"}, {"from_date": "12/06/2025"}, {"pet_id": "PT0001"}])
        if tool == "create_stay":
            p = C(ok_pets)
            cin, cout = stay_dates(p)
            a = {"pet_id": p["pet_id"], "run_id": C(fitting_runs(p)), "check_in_date": cin, "check_out_date": cout}
            if k == 0:
                wrong = [r for r in runs if r not in fitting_runs(p)]
                a["run_id"] = C(wrong)
            elif k == 1 and bad_owner:
                q = C([x for x in pets.values() if x["owner_id"] in bad_owner])
                a["pet_id"] = q["pet_id"]
                a["run_id"] = C(fitting_runs(q))
            elif k == 2 and stale_pets:
                q = C(stale_pets)
                a["pet_id"] = q["pet_id"]
                a["run_id"] = C(fitting_runs(q))
                a["check_in_date"], a["check_out_date"] = d(3), d(6)
            elif k == 3:
                s = C(checked_in + booked)
                a = {"pet_id": s["pet_id"], "run_id": s["run_id"],
                     "check_in_date": max(s["check_in_date"], d(0)),
                     "check_out_date": max(s["check_out_date"], d(1))}
                if a["check_out_date"] <= a["check_in_date"]:
                    a["check_out_date"] = d(1 + (dt.date.fromisoformat(a["check_in_date"]) - today).days)
            elif k == 4:
                a.update(C([{"check_in_date": d(-1)}, {"check_out_date": cin},
                            {"check_in_date": d(10), "check_out_date": d(40)}, {"run_id": "RUN08"},
                            {"notes": "likes squeaky toys"}]))
            else:
                a.update(C([{"pet_id": "PT1999"}, {"run_id": None}, {"check_in_date": "next week"}]))
            return a
        if tool in ("check_in_stay", "check_out_stay", "mark_stay_no_show"):
            pool = {"check_in_stay": closed + checked_in + [s for s in booked if s not in booked_today],
                    "check_out_stay": closed + booked,
                    "mark_stay_no_show": closed + checked_in + booked_today + booked_future}[tool]
            return C([{"stay_id": C(pool)["stay_id"]}] * 4 + [{"stay_id": "ST9999"}, {}])
        if tool == "cancel_stay":
            return C([{"stay_id": C(closed + checked_in)["stay_id"], "reason": "owner_request"},
                      {"stay_id": C(booked_past)["stay_id"], "reason": C(REASONS)},
                      {"stay_id": C(booked_future)["stay_id"], "reason": "changed_mind"},
                      {"stay_id": C(booked_future)["stay_id"]}, {"stay_id": "ST0000", "reason": "other"}])
        if tool == "add_stay_service":
            s = C(booked + checked_in)
            sp = pets[s["pet_id"]]["species"]
            if k == 0:
                return {"stay_id": C(closed)["stay_id"], "service_id": C(services_for(s))["service_id"]}
            if k == 1:
                return {"stay_id": s["stay_id"], "service_id": C([v for v in services if not services[v]["active"]])}
            if k == 2:
                return {"stay_id": s["stay_id"], "service_id": C([v for v in services
                                                                 if services[v]["species"] not in ("any", sp)])}
            if k == 3:
                sv = C([v for v in services_for(s) if v["unit"] == "per_night"])
                return {"stay_id": s["stay_id"], "service_id": sv["service_id"],
                        "quantity": C([0, -1, s["nights"] + 1, 2.5])}
            if k == 4:
                sv = C([v for v in services_for(s) if v["unit"] == "per_stay"])
                return {"stay_id": s["stay_id"], "service_id": sv["service_id"], "quantity": 2}
            dup = [o for o in db["service_orders"].values() if stays[o["stay_id"]]["status"] in ("booked", "checked_in")
                   and services[o["service_id"]]["unit"] == "per_stay"]
            if dup:
                o = C(dup)
                return {"stay_id": o["stay_id"], "service_id": o["service_id"]}
            return {"stay_id": s["stay_id"], "service_id": "SV99"}
        if tool == "book_daycare_visit":
            p = C(dc_pets)
            a = {"pet_id": p["pet_id"], "visit_date": C(open_days), "session": "full_day"}
            if k == 0:
                a["visit_date"] = C(full_days)
            elif k == 1:
                a["visit_date"] = C([d(-1), d(31), d(45), C([x for x in (d(i) for i in range(1, 8))
                                                             if x not in days])])
            elif k == 2:
                a["pet_id"] = C([x for x in pets.values() if x["species"] == "cat" or not x["daycare_approved"]])["pet_id"]
            elif k == 3:
                v = C(live_visits)
                a = {"pet_id": v["pet_id"], "visit_date": v["visit_date"], "session": "half_day"}
            elif k == 4:
                q = C([x for x in pets.values() if x["species"] == "dog" and x["daycare_approved"]
                       and (x["owner_id"] in bad_owner or vacc_until(x) < d(0))])
                a["pet_id"] = q["pet_id"]
            else:
                a["session"] = C(["overnight", "morning", None])
            return a
        if tool == "cancel_daycare_visit":
            return C([{"visit_id": C(dead_visits)["visit_id"]}] * 3 + [{"visit_id": "DC9999"}, {}])
        if tool == "record_payment":
            o = C(debtors)
            return C([{"owner_id": o["owner_id"], "amount": round(o["balance"] + C([0.01, 50]), 2), "method": "card"},
                      {"owner_id": C(non_debtors)["owner_id"], "amount": 5, "method": "cash"},
                      {"owner_id": o["owner_id"], "amount": C([0, -20, 10.005]), "method": "card"},
                      {"owner_id": o["owner_id"], "amount": 5, "method": "cheque"},
                      {"owner_id": "OW0000", "amount": 5, "method": "card"},
                      {"owner_id": o["owner_id"], "amount": "10.00", "method": "card"}])
        if tool == "update_vaccinations":
            p = C(list(pets.values()))
            cat = C([x for x in pets.values() if x["species"] == "cat"])
            return C([{"pet_id": p["pet_id"]},
                      {"pet_id": p["pet_id"], "rabies_expires_on": d(0)},
                      {"pet_id": p["pet_id"], "core_vaccine_expires_on": d(-30)},
                      {"pet_id": p["pet_id"], "rabies_expires_on": d(1096)},
                      {"pet_id": cat["pet_id"], "bordetella_expires_on": d(200)},
                      {"pet_id": p["pet_id"], "rabies_expires_on": "2026-02-30"},
                      {"pet_id": "PT0000", "rabies_expires_on": d(100)}])

    tools = ["get_owner", "search_pets", "find_available_runs", "list_stays", "create_stay",
             "check_in_stay", "check_out_stay", "cancel_stay", "mark_stay_no_show", "add_stay_service",
             "book_daycare_visit", "cancel_daycare_visit", "record_payment", "update_vaccinations"]
    weights = [1, 1, 1, 1, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2]
    out = []
    while len(out) < n:
        tool = rng.choices(tools, weights)[0]
        args = valid(tool) if rng.random() < 0.6 else invalid(tool)
        out.append((tool, args))
    return out
