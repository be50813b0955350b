"""Differential probes for the museum group-visit booking desk: ~60% valid, ~40% refusals."""
import math
from datetime import date, timedelta

ACTIVE = ("pending_deposit", "confirmed")


def probes(db, rng, n):
    t = date.fromisoformat(db["meta"]["today"])
    T = t.isoformat()
    bks = sorted(db["bookings"].values(), key=lambda b: b["booking_id"])
    slots = sorted(db["slots"].values(), key=lambda s: s["slot_id"])
    orgs = sorted(db["organizations"].values(), key=lambda o: o["org_id"])
    guides = db["guides"]
    sets = sorted(db["audio_guide_sets"].values(), key=lambda s: s["set_id"])
    gal = db["galleries"]

    def days(s):
        return (date.fromisoformat(s) - t).days

    def in_window(s):
        return 2 <= days(s["date"]) <= 120

    active = [b for b in bks if b["status"] in ACTIVE]
    future_active = [b for b in active if days(b["visit_date"]) >= 0]
    inactive = [b for b in bks if b["status"] not in ACTIVE]
    pick = rng.choice

    def org_dates(oid):
        return {b["visit_date"] for b in bks if b["org_id"] == oid and b["status"] in ACTIVE}

    def lang_ok(slot, lang):
        return not slot["guide_id"] or lang in guides[slot["guide_id"]]["languages"]

    # ---------------- valid generators
    def v_list_slots():
        a = pick([{}, {"gallery_id": pick(sorted(gal))}, {"date_from": T, "date_to": (t + timedelta(days=14)).isoformat()},
                  {"has_guide": pick([True, False]), "status": "open"}, {"min_available": pick([10, 25, 40])}])
        return "list_slots", a

    def v_search():
        o = pick(orgs)
        word = pick(o["name"].split())
        return "search_organizations", pick([{"query": word.upper()}, {"query": word.lower(), "type": o["type"]},
                                             {"type": pick(["school", "community", "corporate"])}])

    def v_list_bookings():
        return "list_bookings", pick([{"org_id": pick(orgs)["org_id"]}, {"status": pick(["confirmed", "pending_deposit", "cancelled"])},
                                      {"date_from": T}, {"slot_id": pick(bks)["slot_id"]}])

    def v_get():
        return "get_booking", {"booking_id": pick(bks)["booking_id"]}

    def v_create():
        for _ in range(200):
            o = pick([o for o in orgs if o["status"] == "active"])
            s = pick([s for s in slots if s["status"] == "open" and in_window(s)])
            if s["date"] in org_dates(o["org_id"]):
                continue
            g = gal[s["gallery_id"]]
            room = min(s["capacity"] - s["booked_count"], g["max_group_size"])
            if room < 10:
                continue
            gs = rng.randint(8, room - 2)
            ch = 1 if o["type"] == "school" else rng.choice([0, 1])
            while gs + ch > room:
                gs -= 1
            langs = guides[s["guide_id"]]["languages"] if s["guide_id"] else ["en", "fr", "es", "de"]
            return "create_booking", {"org_id": o["org_id"], "slot_id": s["slot_id"], "group_size": gs,
                                      "chaperones": ch, "language": pick(langs)}
        return None

    def v_payment():
        c = [b for b in active if b["balance_due"] > 0]
        if not c:
            return None
        b = pick(c)
        school = db["organizations"][b["org_id"]]["type"] == "school"
        m = pick(["card", "bank_transfer"] + (["purchase_order"] if school else []))
        if b["status"] == "pending_deposit":
            amt = pick([b["deposit_amount"], b["balance_due"]])
        else:
            amt = pick([b["balance_due"], round(min(b["balance_due"], 20.0), 2)])
        return "record_payment", {"booking_id": b["booking_id"], "amount": amt, "method": m}

    def v_audio():
        for _ in range(100):
            b = pick(future_active)
            have = {l["set_id"] for l in b["audio_guides"]}
            room = b["group_size"] + b["chaperones"] - sum(l["quantity"] for l in b["audio_guides"])
            s = pick(sets)
            if s["set_id"] in have or room < 1 or s["stock_available"] < 1:
                continue
            return "add_audio_guides", {"booking_id": b["booking_id"], "set_id": s["set_id"],
                                        "quantity": rng.randint(1, min(room, s["stock_available"], 10))}
        return None

    def v_assign():
        for _ in range(300):
            s = pick([s for s in slots if s["status"] == "open" and days(s["date"]) >= 0])
            g = guides[pick(sorted(guides))]
            if g["status"] != "active" or s["gallery_id"] not in g["galleries"] or s["guide_id"] == g["guide_id"]:
                continue
            same = [o for o in slots if o["guide_id"] == g["guide_id"] and o["date"] == s["date"] and o["slot_id"] != s["slot_id"]]
            if len(same) >= g["max_tours_per_day"] or any(o["start_time"] == s["start_time"] for o in same):
                continue
            if any(b["slot_id"] == s["slot_id"] and b["language"] not in g["languages"] for b in active):
                continue
            return "assign_guide", {"slot_id": s["slot_id"], "guide_id": g["guide_id"]}
        return None

    def v_reschedule():
        for _ in range(300):
            b = pick(active)
            if b["reschedule_count"] >= 2 or days(b["visit_date"]) < 3:
                continue
            p = b["group_size"] + b["chaperones"]
            c = [s for s in slots if s["gallery_id"] == b["gallery_id"] and s["slot_id"] != b["slot_id"]
                 and s["status"] == "open" and in_window(s) and s["capacity"] - s["booked_count"] >= p
                 and lang_ok(s, b["language"]) and s["date"] not in (org_dates(b["org_id"]) - {b["visit_date"]})]
            if c:
                return "reschedule_booking", {"booking_id": b["booking_id"], "new_slot_id": pick(c)["slot_id"]}
        return None

    def v_cancel():
        return "cancel_booking", {"booking_id": pick(future_active)["booking_id"],
                                  "reason": pick(["customer_request", "illness", "weather", "other"])}

    def v_no_show():
        c = [b for b in bks if b["status"] == "confirmed" and days(b["visit_date"]) < 0]
        return ("mark_no_show", {"booking_id": pick(c)["booking_id"]}) if c else None

    def v_complete():
        c = [b for b in bks if b["status"] == "confirmed" and days(b["visit_date"]) <= 0
             and b["balance_due"] == 0 and db["slots"][b["slot_id"]]["guide_id"]]
        return ("complete_visit", {"booking_id": pick(c)["booking_id"]}) if c else None

    # ---------------- invalid generators
    def i_read():
        return pick([("get_booking", {"booking_id": "BK9999"}), ("list_bookings", {"status": "archived"}),
                     ("list_slots", {"date_from": "12/05/2025"}), ("list_slots", {"status": "full"}),
                     ("search_organizations", {"type": "university"}), ("list_bookings", {"org_id": "ORG999"}),
                     ("get_booking", {}), ("list_slots", {"gallery_id": "GAL99"})])

    def i_create():
        o = pick([o for o in orgs if o["status"] == "active" and o["type"] == "school"])
        ok = [s for s in slots if s["status"] == "open" and in_window(s) and not s["guide_id"]
              and s["date"] not in org_dates(o["org_id"])]
        s = pick(ok)
        base = {"org_id": o["org_id"], "slot_id": s["slot_id"], "group_size": 10, "chaperones": 1, "language": "en"}
        susp = [x for x in orgs if x["status"] == "suspended"]
        past = [x for x in slots if days(x["date"]) < 2]
        closed = [x for x in slots if x["status"] != "open"]
        far = [x for x in slots if days(x["date"]) > 120]
        busy = [b for b in active if days(b["visit_date"]) >= 2
                and db["slots"][b["slot_id"]]["capacity"] - db["slots"][b["slot_id"]]["booked_count"] >= 12]
        variants = [dict(base, org_id="ORG999"), dict(base, slot_id="SL9999"), dict(base, group_size=5),
                    dict(base, chaperones=0), dict(base, chaperones=4), dict(base, language="it"),
                    dict(base, group_size=gal[s["gallery_id"]]["max_group_size"]),
                    dict(base, slot_id=pick(past)["slot_id"]), dict(base, group_size="ten")]
        if susp:
            variants.append(dict(base, org_id=pick(susp)["org_id"]))
        if closed:
            variants.append(dict(base, slot_id=pick(closed)["slot_id"]))
        if far:
            variants.append(dict(base, slot_id=pick(far)["slot_id"]))
        if busy:
            b = pick(busy)
            variants.append(dict(base, org_id=b["org_id"], slot_id=b["slot_id"], chaperones=1,
                                 language=b["language"]))
        full = [x for x in slots if x["status"] == "open" and in_window(x) and x["capacity"] - x["booked_count"] < 9]
        if full:
            variants.append(dict(base, slot_id=pick(full)["slot_id"]))
        gslots = [x for x in slots if x["status"] == "open" and in_window(x) and x["guide_id"]
                  and set(["fr", "es", "de"]) - set(guides[x["guide_id"]]["languages"])
                  and x["date"] not in org_dates(o["org_id"])]
        if gslots:
            x = pick(gslots)
            variants.append(dict(base, slot_id=x["slot_id"], language=sorted(set(["fr", "es", "de"]) - set(guides[x["guide_id"]]["languages"]))[0]))
        return "create_booking", pick(variants)

    def i_payment():
        b = pick([b for b in active if b["balance_due"] > 0])
        non_school = [x for x in active if db["organizations"][x["org_id"]]["type"] != "school" and x["balance_due"] > 0]
        pend = [x for x in active if x["status"] == "pending_deposit" and x["deposit_amount"] > 1]
        v = [("record_payment", {"booking_id": pick(inactive)["booking_id"], "amount": 10.0, "method": "card"}),
             ("record_payment", {"booking_id": b["booking_id"], "amount": round(b["balance_due"] + 5, 2), "method": "card"}),
             ("record_payment", {"booking_id": b["booking_id"], "amount": -10.0, "method": "card"}),
             ("record_payment", {"booking_id": b["booking_id"], "amount": 1.234, "method": "card"}),
             ("record_payment", {"booking_id": b["booking_id"], "amount": 10.0, "method": "cash"}),
             ("record_payment", {"booking_id": "BK9999", "amount": 10.0, "method": "card"})]
        if non_school:
            v.append(("record_payment", {"booking_id": pick(non_school)["booking_id"], "amount": 1.0, "method": "purchase_order"}))
        if pend:
            x = pick(pend)
            v.append(("record_payment", {"booking_id": x["booking_id"], "amount": round(x["deposit_amount"] / 2, 2), "method": "card"}))
        return pick(v)

    def i_audio():
        b = pick(future_active)
        v = [("add_audio_guides", {"booking_id": b["booking_id"], "set_id": "AG99", "quantity": 1}),
             ("add_audio_guides", {"booking_id": b["booking_id"], "set_id": "AG01", "quantity": 0}),
             ("add_audio_guides", {"booking_id": pick(inactive)["booking_id"], "set_id": "AG01", "quantity": 1}),
             ("add_audio_guides", {"booking_id": b["booking_id"], "set_id": "AG01",
                                   "quantity": b["group_size"] + b["chaperones"] + 1})]
        dup = [x for x in future_active if x["audio_guides"]]
        if dup:
            x = pick(dup)
            v.append(("add_audio_guides", {"booking_id": x["booking_id"], "set_id": x["audio_guides"][0]["set_id"], "quantity": 1}))
        low = [s for s in sets if s["stock_available"] < 8]
        big = [x for x in future_active if x["group_size"] >= 15 and not any(l["set_id"] in [s["set_id"] for s in low] for l in x["audio_guides"])]
        if low and big:
            s = pick(low)
            v.append(("add_audio_guides", {"booking_id": pick(big)["booking_id"], "set_id": s["set_id"], "quantity": s["stock_available"] + 1}))
        pastc = [x for x in active if days(x["visit_date"]) < 0]
        if pastc:
            v.append(("add_audio_guides", {"booking_id": pick(pastc)["booking_id"], "set_id": "AG01", "quantity": 1}))
        return pick(v)

    def i_assign():
        s = pick([s for s in slots if s["status"] == "open" and days(s["date"]) >= 0])
        gid = sorted(guides)
        v = [("assign_guide", {"slot_id": "SL9999", "guide_id": gid[0]}),
             ("assign_guide", {"slot_id": s["slot_id"], "guide_id": "GD99"}),
             ("assign_guide", {"slot_id": pick([x for x in slots if days(x["date"]) < 0])["slot_id"], "guide_id": pick(gid)})]
        inact = [g for g in gid if guides[g]["status"] != "active"]
        if inact:
            v.append(("assign_guide", {"slot_id": s["slot_id"], "guide_id": inact[0]}))
        unq = [g for g in gid if s["gallery_id"] not in guides[g]["galleries"] and guides[g]["status"] == "active"]
        if unq:
            v.append(("assign_guide", {"slot_id": s["slot_id"], "guide_id": pick(unq)}))
        have = [x for x in slots if x["guide_id"] and days(x["date"]) >= 0 and x["status"] == "open"]
        if have:
            x = pick(have)
            v.append(("assign_guide", {"slot_id": x["slot_id"], "guide_id": x["guide_id"]}))
            clash = [y for y in slots if y["date"] == x["date"] and y["start_time"] == x["start_time"]
                     and y["slot_id"] != x["slot_id"] and y["status"] == "open"]
            if clash:
                v.append(("assign_guide", {"slot_id": clash[0]["slot_id"], "guide_id": x["guide_id"]}))
        closed = [x for x in slots if x["status"] != "open"]
        if closed:
            v.append(("assign_guide", {"slot_id": pick(closed)["slot_id"], "guide_id": pick(gid)}))
        return pick(v)

    def i_reschedule():
        b = pick(active)
        other = [s for s in slots if s["gallery_id"] != b["gallery_id"] and s["status"] == "open" and in_window(s)]
        v = [("reschedule_booking", {"booking_id": b["booking_id"], "new_slot_id": b["slot_id"]}),
             ("reschedule_booking", {"booking_id": b["booking_id"], "new_slot_id": "SL9999"}),
             ("reschedule_booking", {"booking_id": pick(inactive)["booking_id"], "new_slot_id": pick(slots)["slot_id"]}),
             ("reschedule_booking", {"booking_id": b["booking_id"], "new_slot_id": pick(other)["slot_id"]})]
        maxed = [x for x in active if x["reschedule_count"] >= 2]
        if maxed:
            x = pick(maxed)
            same = [s for s in slots if s["gallery_id"] == x["gallery_id"] and s["slot_id"] != x["slot_id"] and in_window(s)]
            if same:
                v.append(("reschedule_booking", {"booking_id": x["booking_id"], "new_slot_id": pick(same)["slot_id"]}))
        soon = [x for x in active if days(x["visit_date"]) < 3 and x["reschedule_count"] < 2]
        if soon:
            x = pick(soon)
            same = [s for s in slots if s["gallery_id"] == x["gallery_id"] and s["slot_id"] != x["slot_id"] and in_window(s)]
            if same:
                v.append(("reschedule_booking", {"booking_id": x["booking_id"], "new_slot_id": pick(same)["slot_id"]}))
        return pick(v)

    def i_cancel():
        v = [("cancel_booking", {"booking_id": pick(inactive)["booking_id"], "reason": "illness"}),
             ("cancel_booking", {"booking_id": pick(future_active)["booking_id"], "reason": "changed mind"}),
             ("cancel_booking", {"booking_id": "BK0000", "reason": "other"})]
        pastc = [x for x in active if days(x["visit_date"]) < 0]
        if pastc:
            v.append(("cancel_booking", {"booking_id": pick(pastc)["booking_id"], "reason": "other"}))
        return pick(v)

    def i_no_show():
        fut = [b for b in active if days(b["visit_date"]) >= 0]
        return pick([("mark_no_show", {"booking_id": pick(fut)["booking_id"]}),
                     ("mark_no_show", {"booking_id": pick(inactive)["booking_id"]}),
                     ("mark_no_show", {"booking_id": "BK9999"})])

    def i_complete():
        v = [("complete_visit", {"booking_id": pick([b for b in active if days(b["visit_date"]) > 0])["booking_id"]}),
             ("complete_visit", {"booking_id": pick(inactive)["booking_id"]})]
        unpaid = [b for b in bks if b["status"] == "confirmed" and days(b["visit_date"]) <= 0 and b["balance_due"] > 0]
        if unpaid:
            v.append(("complete_visit", {"booking_id": pick(unpaid)["booking_id"]}))
        noguide = [b for b in bks if b["status"] == "confirmed" and days(b["visit_date"]) <= 0
                   and not db["slots"][b["slot_id"]]["guide_id"]]
        if noguide:
            v.append(("complete_visit", {"booking_id": pick(noguide)["booking_id"]}))
        return pick(v)

    valid = [v_list_slots, v_search, v_list_bookings, v_get, v_create, v_create, v_payment, v_payment,
             v_audio, v_assign, v_reschedule, v_cancel, v_no_show, v_complete]
    invalid = [i_read, i_create, i_create, i_payment, i_payment, i_audio, i_assign, i_reschedule,
               i_cancel, i_no_show, i_complete]
    # start with one valid call per write tool, on distinct bookings and slots, so that every
    # write tool has an accepted call even when probes are replayed in sequence
    out, used = [], set()
    for gen in (v_complete, v_no_show, v_payment, v_audio, v_reschedule, v_create, v_assign, v_cancel):
        for _ in range(30):
            p = gen()
            keys = {v for k, v in p[1].items() if k in ("booking_id", "slot_id", "new_slot_id")} if p else set()
            if p and not keys & used:
                if p[0] == "reschedule_booking":
                    keys.add(db["bookings"][p[1]["booking_id"]]["slot_id"])
                used |= keys
                out.append(p)
                break
    n_bad = round(0.42 * n)
    plan = [False] * n_bad + [True] * max(0, n - n_bad - len(out))
    rng.shuffle(plan)
    for ok in plan:
        p = None
        while p is None:
            p = pick(valid)() if ok else pick(invalid)()
        out.append(p)
    return out[:n]
