"""Probe generator for the ticketing reference API: ~60% valid calls, ~40% calls the rules refuse."""
import datetime as dt

LIVE = ("confirmed", "attended")


def probes(db, rng, n):
    T = dt.date.fromisoformat(db["meta"]["today"])
    ev_all = list(db["events"].values())
    orders = list(db["orders"].values())
    custs = list(db["customers"])
    day = lambda e: dt.date.fromisoformat(e["event_date"])
    upcoming = [e for e in ev_all if e["status"] == "on_sale" and day(e) > T]
    soldout_future = [e for e in ev_all if e["status"] == "sold_out" and day(e) > T]
    today_events = [e for e in ev_all if day(e) == T and e["status"] in ("on_sale", "sold_out")]
    closed = [e for e in ev_all if e["status"] in ("completed", "cancelled", "draft")]
    drafts = [e for e in ev_all if e["status"] == "draft"]
    ev = db["events"]

    def held(cid, eid):
        return sum(o["quantity"] for o in orders if o["customer_id"] == cid and o["event_id"] == eid and o["status"] in LIVE)

    def used(cid, code):
        return any(o["customer_id"] == cid and o["promo_code"] == code for o in orders)

    def other_customer(cid):
        return rng.choice([c for c in custs if c != cid])

    def pick(seq, fallback=None):
        return rng.choice(seq) if seq else fallback

    def dstr(k):
        return (T + dt.timedelta(days=k)).isoformat()

    # ------------------------------------------------------------ reads
    def list_events(ok):
        if ok:
            a = {}
            for k in rng.sample(["city", "category", "status", "date_from", "date_to", "q"], rng.randint(0, 3)):
                if k == "city": a[k] = rng.choice(["bristol", "Bath", "GLOUCESTER", "Cardiff"])
                if k == "category": a[k] = rng.choice(["concert", "theatre", "comedy", "family"])
                if k == "status": a[k] = rng.choice(["on_sale", "sold_out", "completed", "draft"])
                if k == "date_from": a[k] = dstr(rng.randint(-60, 0))
                if k == "date_to": a[k] = dstr(rng.randint(1, 90))
                if k == "q": a[k] = rng.choice(["jazz", "NIGHT", "brass", "the "])
            return a
        return rng.choice([{"status": "open"}, {"category": "opera"}, {"date_from": "2025/07/01"},
                           {"date_from": dstr(30), "date_to": dstr(10)}, {"date_to": "2025-02-30"}])

    def get_event(ok):
        return {"event_id": rng.choice(ev_all)["id"] if ok else rng.choice(["E999", "e001", "EV01"])}

    def find_customers(ok):
        c = db["customers"][rng.choice(custs)]
        if ok:
            return rng.choice([{"email": c["email"].upper()}, {"name": c["name"].split()[1].lower()},
                               {"name": c["name"].split()[0]}, {"email": "nobody@nowhere.org"}])
        return rng.choice([{}, {"email": "", "name": ""}])

    def get_order(ok):
        return {"order_id": rng.choice(orders)["id"] if ok else rng.choice(["ORD-99999", "O10001", "10001"])}

    def list_customer_orders(ok):
        if ok:
            a = {"customer_id": rng.choice(custs)}
            if rng.random() < 0.5:
                a["status"] = rng.choice(["confirmed", "attended", "cancelled", "refunded"])
            return a
        return rng.choice([{"customer_id": "C9999"}, {"customer_id": rng.choice(custs), "status": "pending"}])

    # ------------------------------------------------------------ customers
    def register_customer(ok):
        if ok:
            k = rng.randint(100, 999)
            a = {"name": rng.choice(["Nina Castell", "Rhys Okoro", "Maya Lund", "Tom Ferris"]),
                 "email": f"guest{k}.{rng.choice(['a', 'b', 'c'])}@{rng.choice(['Example.com', 'mail.test'])}"}
            if rng.random() < 0.5:
                a["phone"] = f"07700 {k}{k}"
            return a
        c = db["customers"][rng.choice(custs)]
        return rng.choice([{"name": "Copy Cat", "email": c["email"].upper()},
                           {"name": "No At", "email": "no-at-sign.example.com"},
                           {"name": "   ", "email": "blank.name@example.com"},
                           {"name": "Half Mail", "email": "half@mail"}])

    # ------------------------------------------------------------ orders
    def place_order(ok):
        if ok:
            for _ in range(50):
                e = rng.choice(upcoming)
                cid = rng.choice(custs)
                room = min(6 - held(cid, e["id"]), e["capacity"] - e["seats_sold"])
                if room < 1:
                    continue
                qty = rng.randint(1, min(room, 5))
                tier = "standard"
                if e["premium_sold"] + qty <= e["premium_capacity"] and rng.random() < 0.35:
                    tier = "premium"
                a = {"customer_id": cid, "event_id": e["id"], "tier": tier, "quantity": qty}
                if rng.random() < 0.4:
                    codes = [p for p in db["promo_codes"].values() if p["active"]
                             and p["valid_from"] <= T.isoformat() <= p["valid_until"]
                             and (p["max_uses"] is None or p["times_used"] < p["max_uses"])
                             and p["event_id"] in (None, e["id"]) and qty >= p["min_tickets"] and not used(cid, p["code"])]
                    if codes:
                        code = rng.choice(codes)["code"]
                        a["promo_code"] = code.lower() if rng.random() < 0.3 else code
                return a
        e = rng.choice(upcoming)
        cid = rng.choice(custs)
        base = {"customer_id": cid, "event_id": e["id"], "tier": "standard", "quantity": 1}
        kind = rng.randint(0, 11)
        if kind == 0: base["customer_id"] = "C9999"
        if kind == 1: base["event_id"] = rng.choice(soldout_future)["id"]
        if kind == 2: base["event_id"] = rng.choice(closed)["id"]
        if kind == 3: base["event_id"] = rng.choice(today_events)["id"]
        if kind == 4: base["quantity"] = rng.choice([0, 7, -1])
        if kind == 5:
            nop = [x for x in upcoming if x["premium_capacity"] == 0] or upcoming
            base.update(event_id=rng.choice(nop)["id"], tier="premium")
        if kind == 6:
            o = rng.choice([o for o in orders if o["status"] == "confirmed" and ev[o["event_id"]] in upcoming])
            h = held(o["customer_id"], o["event_id"])
            base.update(customer_id=o["customer_id"], event_id=o["event_id"], quantity=min(6, 7 - h))
            if h + base["quantity"] <= 6: base["quantity"] = 0
        if kind == 7:
            base["promo_code"] = rng.choice(["SPRING10", "LASTCALL", "STAFF50", "EARLYBIRD", "FREESTUFF"])
        if kind == 8:
            others = [x for x in upcoming if x["id"] != "E019"]
            base.update(event_id=rng.choice(others)["id"], promo_code="JAZZ5")
        if kind == 9:
            base.update(quantity=rng.randint(1, 3), promo_code="group20")
        if kind == 10:
            users = [o for o in orders if o["promo_code"] in ("SUMMER15", "FRIENDS8", "GROUP20")]
            o = rng.choice(users)
            base.update(customer_id=o["customer_id"], promo_code=o["promo_code"], quantity=4)
            if held(o["customer_id"], e["id"]) > 2: base["quantity"] = 0
        if kind == 11: base["tier"] = rng.choice(["vip", "Premium"])
        return base

    def cancel_order(ok):
        reason = rng.choice(["Can't make it", "Double booked", "Moving away"])
        if ok:
            cand = [o for o in orders if o["status"] == "confirmed" and ev[o["event_id"]]["status"] in ("on_sale", "sold_out")
                    and (day(ev[o["event_id"]]) - T).days >= 2]
            o = rng.choice(cand)
            return {"order_id": o["id"], "customer_id": o["customer_id"], "reason": reason}
        kind = rng.randint(0, 4)
        if kind == 0:
            o = rng.choice([o for o in orders if o["status"] == "confirmed"])
            return {"order_id": o["id"], "customer_id": other_customer(o["customer_id"]), "reason": reason}
        if kind == 1:
            o = rng.choice([o for o in orders if o["status"] in LIVE and 0 <= (day(ev[o["event_id"]]) - T).days < 2])
        elif kind == 2:
            o = rng.choice([o for o in orders if o["status"] != "confirmed"])
        elif kind == 3:
            o = rng.choice([o for o in orders if ev[o["event_id"]]["status"] == "completed"])
        else:
            o = rng.choice(orders)
            return {"order_id": o["id"], "customer_id": o["customer_id"], "reason": rng.choice(["", "  "])}
        return {"order_id": o["id"], "customer_id": o["customer_id"], "reason": reason}

    def upgrade_order(ok):
        if ok:
            cand = [o for o in orders if o["status"] == "confirmed" and o["tier"] == "standard"
                    and ev[o["event_id"]]["status"] in ("on_sale", "sold_out") and day(ev[o["event_id"]]) > T
                    and ev[o["event_id"]]["premium_sold"] + o["quantity"] <= ev[o["event_id"]]["premium_capacity"]]
            o = rng.choice(cand)
            return {"order_id": o["id"], "customer_id": o["customer_id"]}
        kind = rng.randint(0, 4)
        if kind == 0:
            o = rng.choice([o for o in orders if o["tier"] == "premium"])
        elif kind == 1:
            o = rng.choice([o for o in orders if o["status"] == "confirmed" and o["tier"] == "standard"
                            and ev[o["event_id"]]["premium_sold"] + o["quantity"] > ev[o["event_id"]]["premium_capacity"]])
        elif kind == 2:
            o = rng.choice([o for o in orders if day(ev[o["event_id"]]) <= T and o["tier"] == "standard"])
        elif kind == 3:
            o = rng.choice([o for o in orders if o["status"] in ("cancelled", "refunded")])
        else:
            o = rng.choice([o for o in orders if o["status"] == "confirmed"])
            return {"order_id": o["id"], "customer_id": other_customer(o["customer_id"])}
        return {"order_id": o["id"], "customer_id": o["customer_id"]}

    def check_in_order(ok):
        if ok:
            o = rng.choice([o for o in orders if o["status"] == "confirmed" and ev[o["event_id"]] in today_events])
            return {"order_id": o["id"]}
        kind = rng.randint(0, 3)
        if kind == 0:
            o = rng.choice([o for o in orders if o["status"] == "attended"])
        elif kind == 1:
            o = rng.choice([o for o in orders if o["status"] == "confirmed" and day(ev[o["event_id"]]) != T])
        elif kind == 2:
            o = rng.choice([o for o in orders if o["status"] in ("cancelled", "refunded")])
        else:
            return {"order_id": "ORD-00000"}
        return {"order_id": o["id"]}

    # ------------------------------------------------------------ events
    def create_event(ok):
        venues = list(db["venues"].values())
        v = rng.choice(venues)
        booked = {(e["venue_id"], e["event_date"]) for e in ev_all if e["status"] != "cancelled"}
        while True:
            date = dstr(rng.randint(7, 120))
            if (v["id"], date) not in booked:
                break
        sp = rng.choice([12.0, 18.5, 22.75, 30.0])
        a = {"venue_id": v["id"], "title": rng.choice(["Winter Warmers", "Sea Shanty Night", "Macbeth", "Laugh Lab"]),
             "category": rng.choice(["concert", "theatre", "comedy", "family"]), "event_date": date,
             "standard_price": sp, "premium_price": sp + rng.choice([6.0, 10.5, 15.25])}
        if rng.random() < 0.6:
            a["capacity"] = rng.randint(10, v["capacity"])
        if rng.random() < 0.6:
            a["premium_capacity"] = rng.randint(0, a.get("capacity", v["capacity"]) // 2)
        if ok:
            if rng.random() < 0.15:
                a.update(venue_id="V03", event_date="2025-07-02")  # the cancelled show's date is free again
                a.pop("capacity", None); a.pop("premium_capacity", None)
            return a
        kind = rng.randint(0, 8)
        if kind == 0: a["venue_id"] = "V09"
        if kind == 1: a["event_date"] = dstr(rng.randint(-3, 6))
        if kind == 2:
            e = rng.choice([e for e in ev_all if e["status"] != "cancelled" and day(e) >= T + dt.timedelta(days=7)])
            a.update(venue_id=e["venue_id"], event_date=e["event_date"]); a.pop("capacity", None); a.pop("premium_capacity", None)
        if kind == 3: a["capacity"] = db["venues"][a["venue_id"]]["capacity"] + rng.randint(1, 30)
        if kind == 4:
            cap = a.get("capacity", db["venues"][a["venue_id"]]["capacity"])
            a["premium_capacity"] = cap // 2 + 1
        if kind == 5: a["premium_price"] = a["standard_price"] - rng.choice([0.0, 2.0])
        if kind == 6: a["category"] = rng.choice(["opera", "Concert"])
        if kind == 7: a["event_date"] = rng.choice(["2025-13-01", "12/08/2025"])
        if kind == 8: a["standard_price"] = rng.choice([19.999, 0, -5.0])
        return a

    def publish_event(ok):
        if ok:
            return {"event_id": rng.choice(drafts)["id"]}
        return {"event_id": rng.choice([e for e in ev_all if e["status"] != "draft"] + [{"id": "E000"}])["id"]}

    def cancel_event(ok):
        reason = rng.choice(["Headliner unwell", "Venue flooding", "Low sales"])
        if ok:
            cand = [e for e in ev_all if e["status"] in ("draft", "on_sale", "sold_out")
                    and not any(o["event_id"] == e["id"] and o["status"] == "attended" for o in orders)]
            return {"event_id": rng.choice(cand)["id"], "reason": reason}
        kind = rng.randint(0, 3)
        if kind == 0:
            e = rng.choice([e for e in ev_all if any(o["event_id"] == e["id"] and o["status"] == "attended" for o in orders)
                            and e["status"] != "completed"] or ev_all)
        elif kind == 1:
            e = rng.choice([e for e in ev_all if e["status"] in ("completed", "cancelled")])
        elif kind == 2:
            return {"event_id": rng.choice(upcoming)["id"], "reason": ""}
        else:
            return {"event_id": "E404", "reason": reason}
        return {"event_id": e["id"], "reason": reason}

    def join_waitlist(ok):
        if ok:
            e = rng.choice(soldout_future)
            waiting = {w["customer_id"] for w in db["waitlist"].values() if w["event_id"] == e["id"] and w["status"] == "waiting"}
            cid = rng.choice([c for c in custs if c not in waiting])
            return {"event_id": e["id"], "customer_id": cid, "quantity": rng.randint(1, 4)}
        kind = rng.randint(0, 4)
        base = {"event_id": rng.choice(soldout_future)["id"], "customer_id": rng.choice(custs), "quantity": 2}
        if kind == 0: base["event_id"] = rng.choice(upcoming + closed)["id"]
        if kind == 1: base["event_id"] = rng.choice([e for e in today_events if e["status"] == "sold_out"] or closed)["id"]
        if kind == 2:
            w = rng.choice([w for w in db["waitlist"].values() if w["status"] == "waiting"])
            base.update(event_id=w["event_id"], customer_id=w["customer_id"], quantity=1)
        if kind == 3: base["quantity"] = rng.choice([0, 5, 10])
        if kind == 4: base["customer_id"] = "C0000"
        return base

    gens = {"list_events": list_events, "get_event": get_event, "find_customers": find_customers,
            "get_order": get_order, "list_customer_orders": list_customer_orders,
            "register_customer": register_customer, "place_order": place_order, "cancel_order": cancel_order,
            "upgrade_order": upgrade_order, "check_in_order": check_in_order, "create_event": create_event,
            "publish_event": publish_event, "cancel_event": cancel_event, "join_waitlist": join_waitlist}
    weights = {"list_events": 2, "get_event": 1, "find_customers": 2, "get_order": 1, "list_customer_orders": 2,
               "register_customer": 3, "place_order": 7, "cancel_order": 4, "upgrade_order": 3,
               "check_in_order": 3, "create_event": 4, "publish_event": 2, "cancel_event": 3, "join_waitlist": 3}
    names = [k for k, w in weights.items() for _ in range(w)]
    out = []
    for i in range(n):
        name = names[i % len(names)] if i < len(names) else rng.choice(names)
        out.append((name, gens[name](rng.random() < 0.6)))
    return out
