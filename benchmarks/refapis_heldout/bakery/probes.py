"""Differential probes for the bakery preorder desk: ~60% valid calls, ~40% calls policy refuses."""
import datetime as dt

OPEN = ("pending_deposit", "confirmed", "ready")


def _d(s):
    return dt.date.fromisoformat(s)


def _ctx(db):
    t = _d(db["meta"]["today"])
    orders = sorted(db["orders"].values(), key=lambda o: o["order_id"])
    return t, orders


def _days(t, o):
    return (_d(o["pickup_date"]) - t).days


def _pick(rng, seq, default=None):
    seq = list(seq)
    return rng.choice(seq) if seq else default


def _items_for(db, rng, cust, max_lead, want_cake=None):
    ok = [p for p in sorted(db["products"].values(), key=lambda p: p["product_id"])
          if p["active"] and p["lead_time_days"] <= max_lead and not set(p["allergens"]) & set(cust["allergies"])]
    if want_cake is not None:
        cakes = [p for p in ok if p["category"] == "celebration_cake"]
        others = [p for p in ok if p["category"] != "celebration_cake"]
        if want_cake and cakes:
            chosen = [rng.choice(cakes)] + rng.sample(others, min(len(others), rng.randint(0, 1)))
        else:
            chosen = rng.sample(others, min(len(others), rng.randint(1, 2)))
    else:
        chosen = rng.sample(ok, min(len(ok), rng.randint(1, 3)))
    return [{"product_id": p["product_id"], "quantity": rng.randint(1, min(2, p["max_quantity"]))} for p in chosen]


def _slots(db, items):
    return sum(db["products"][i["product_id"]]["oven_slots"] * i["quantity"] for i in items)


def _open_count(orders, cid):
    return sum(1 for o in orders if o["customer_id"] == cid and o["status"] in OPEN)


def _valid_create(db, rng, t, orders):
    custs = [c for c in sorted(db["customers"].values(), key=lambda c: c["customer_id"])
             if c["status"] == "active" and _open_count(orders, c["customer_id"]) < 3]
    for _ in range(60):
        c = rng.choice(custs)
        off = rng.randint(2, 30)
        d = t + dt.timedelta(days=off)
        od = db["oven_days"].get(d.isoformat())
        if od is None or od["closed"]:
            continue
        if any(o["customer_id"] == c["customer_id"] and o["status"] in OPEN and o["pickup_date"] == d.isoformat()
               for o in orders):
            continue
        cake = rng.random() < 0.5
        items = _items_for(db, rng, c, off, want_cake=cake)
        if not items or od["booked_slots"] + _slots(db, items) > od["capacity"]:
            continue
        args = {"customer_id": c["customer_id"], "pickup_date": d.isoformat(), "items": items}
        if cake and any(db["products"][i["product_id"]]["category"] == "celebration_cake" for i in items):
            args["inscription"] = rng.choice(["Happy Birthday Mila!", "Congrats, Dr. Okafor", "50 & fabulous"])
        return args
    return None


def valid(db, rng, tool):
    t, orders = _ctx(db)
    custs = sorted(db["customers"])
    if tool == "list_products":
        a = {}
        if rng.random() < 0.5:
            a["category"] = rng.choice(["celebration_cake", "bread", "pastry"])
        if rng.random() < 0.5:
            a["allergen_free"] = rng.choice(["gluten", "dairy", "eggs", "nuts", "soy", "sesame"])
        if rng.random() < 0.4:
            a["search"] = rng.choice(["CAKE", "loaf", "Croissant", "almond", "box"])
        return a
    if tool == "get_customer":
        return {"customer_id": rng.choice(custs)}
    if tool == "list_oven_days":
        lo = t + dt.timedelta(days=rng.randint(-5, 10))
        a = {"from_date": lo.isoformat(), "to_date": (lo + dt.timedelta(days=rng.randint(0, 14))).isoformat()}
        if rng.random() < 0.5:
            a["min_free_slots"] = rng.choice([1, 5, 10, 20])
        return a
    if tool == "list_orders":
        a = {}
        if rng.random() < 0.5:
            a["customer_id"] = rng.choice(custs)
        if rng.random() < 0.5:
            a["status"] = rng.choice(["pending_deposit", "confirmed", "ready", "picked_up", "cancelled", "no_show"])
        if rng.random() < 0.4:
            a["pickup_from"] = t.isoformat()
            a["pickup_to"] = (t + dt.timedelta(days=rng.randint(0, 10))).isoformat()
        return a
    if tool == "get_order":
        return {"order_id": rng.choice(orders)["order_id"]}
    if tool == "create_order":
        return _valid_create(db, rng, t, orders)
    if tool == "pay_deposit":
        o = _pick(rng, [o for o in orders if o["status"] == "pending_deposit" and _days(t, o) >= 0])
        if not o:
            return None
        c = db["customers"][o["customer_id"]]
        m = "store_credit" if c["store_credit"] >= o["deposit_required"] - o["deposit_paid"] and rng.random() < 0.5 else "card"
        return {"order_id": o["order_id"], "method": m}
    if tool == "amend_order":
        cands = [o for o in orders if o["status"] in ("pending_deposit", "confirmed") and _days(t, o) >= 2
                 and o["amendment_count"] < 3]
        o = _pick(rng, cands)
        if not o:
            return None
        c = db["customers"][o["customer_id"]]
        kind = rng.choice(["inscription", "items", "date"])
        cake = any(db["products"][i["product_id"]]["category"] == "celebration_cake" for i in o["items"])
        if kind == "inscription" and cake:
            return {"order_id": o["order_id"], "inscription": rng.choice(["Happy Retirement", "", "Welcome Baby Leo"])}
        if kind == "items":
            od = db["oven_days"][o["pickup_date"]]
            for _ in range(20):
                items = _items_for(db, rng, c, _days(t, o))
                if items and od["booked_slots"] - o["oven_slots"] + _slots(db, items) <= od["capacity"]:
                    return {"order_id": o["order_id"], "items": items}
        lead = max(db["products"][i["product_id"]]["lead_time_days"] for i in o["items"])
        for _ in range(30):
            d = t + dt.timedelta(days=rng.randint(max(lead, 2), 30))
            od = db["oven_days"].get(d.isoformat())
            if od is None or od["closed"] or d.isoformat() == o["pickup_date"] or \
                    od["booked_slots"] + o["oven_slots"] > od["capacity"]:
                continue
            if any(x["customer_id"] == o["customer_id"] and x["status"] in OPEN and x["pickup_date"] == d.isoformat()
                   for x in orders):
                continue
            return {"order_id": o["order_id"], "pickup_date": d.isoformat()}
        return None
    if tool == "cancel_order":
        o = _pick(rng, [o for o in orders if o["status"] in ("pending_deposit", "confirmed") and _days(t, o) >= 0])
        return o and {"order_id": o["order_id"], "reason": rng.choice(["customer_request", "schedule_change",
                                                                       "allergy_concern", "other"])}
    if tool == "mark_ready":
        o = _pick(rng, [o for o in orders if o["status"] == "confirmed" and _days(t, o) in (0, 1)])
        return o and {"order_id": o["order_id"]}
    if tool == "record_pickup":
        o = _pick(rng, [o for o in orders if o["status"] == "ready" and _days(t, o) in (0, -1)])
        if not o:
            return None
        c = db["customers"][o["customer_id"]]
        ms = ["card", "cash"] + (["store_credit"] if c["store_credit"] >= o["balance_due"] else [])
        return {"order_id": o["order_id"], "payment_method": rng.choice(ms)}
    if tool == "record_no_show":
        o = _pick(rng, [o for o in orders if o["status"] in ("confirmed", "ready") and _days(t, o) <= -2])
        return o and {"order_id": o["order_id"]}
    if tool == "issue_store_credit":
        c = db["customers"][rng.choice(custs)]
        room = min(100.0, 300.0 - c["store_credit"])
        if room < 1:
            return None
        amt = round(rng.uniform(1, room), rng.choice([0, 1, 2]))
        return {"customer_id": c["customer_id"], "amount": min(amt, room),
                "reason": rng.choice(["goodwill", "quality_issue", "price_adjustment"])}
    return None


def invalid(db, rng, tool):
    t, orders = _ctx(db)
    by = lambda pred: _pick(rng, [o for o in orders if pred(o)])
    oid = lambda pred: (by(pred) or {"order_id": "O9999"})["order_id"]
    if tool == "list_products":
        return rng.choice([{"category": "wedding"}, {"allergen_free": "peanuts"}, {"colour": "red"},
                           {"search": 42}])
    if tool == "get_customer":
        return {"customer_id": rng.choice(["C999", "C000", "X001", "c001"])}
    if tool == "list_oven_days":
        return rng.choice([{"from_date": "2025-06-20", "to_date": "2025-06-12"}, {"from_date": "12/06/2025"},
                           {"min_free_slots": -3}, {"to_date": "2025-13-01"}])
    if tool == "list_orders":
        return rng.choice([{"status": "shipped"}, {"customer_id": "C404"}, {"pickup_from": "tomorrow"},
                           {"pickup_from": "2025-06-20", "pickup_to": "2025-06-01"}])
    if tool == "get_order":
        return {"order_id": rng.choice(["O9999", "O0000", "0001", "o0001"])}
    if tool == "create_order":
        base = _valid_create(db, rng, t, orders)
        if base is None:
            return {"customer_id": "C999", "pickup_date": "2025-06-20", "items": [{"product_id": "P009", "quantity": 1}]}
        kind = rng.randint(0, 13)
        if kind == 0:
            base["customer_id"] = _pick(rng, [c for c in sorted(db["customers"]) if db["customers"][c]["status"] == "suspended"], "C999")
        elif kind == 1:
            c = _pick(rng, [c for c in db["customers"].values() if c["allergies"] and c["status"] == "active"])
            bad = [p for p in sorted(db["products"]) if set(db["products"][p]["allergens"]) & set(c["allergies"])
                   and db["products"][p]["active"]]
            base["customer_id"] = c["customer_id"]
            base["items"] = [{"product_id": rng.choice(bad), "quantity": 1}]
            base.pop("inscription", None)
        elif kind == 2:
            base["pickup_date"] = (t + dt.timedelta(days=1)).isoformat()
            base["items"] = [{"product_id": "P004", "quantity": 1}]
        elif kind == 3:
            base["pickup_date"] = _pick(rng, [k for k, v in sorted(db["oven_days"].items()) if v["closed"] and k > t.isoformat()])
        elif kind == 4:
            base["pickup_date"] = (t - dt.timedelta(days=rng.randint(0, 5))).isoformat()
        elif kind == 5:
            base["pickup_date"] = (t + dt.timedelta(days=rng.randint(31, 60))).isoformat()
        elif kind == 6:
            base["items"] = base["items"] + [dict(base["items"][0])]
        elif kind == 7:
            p = db["products"][base["items"][0]["product_id"]]
            base["items"][0]["quantity"] = p["max_quantity"] + rng.randint(1, 3)
        elif kind == 8:
            base["items"] = [{"product_id": rng.choice(["P008", "P024", "P099"]), "quantity": 1}]
            base.pop("inscription", None)
        elif kind == 9:
            base["items"] = [i for i in base["items"] if db["products"][i["product_id"]]["category"] != "celebration_cake"] \
                or [{"product_id": "P012", "quantity": 2}]
            base["inscription"] = "Happy Birthday"
        elif kind == 10:
            base["inscription"] = "Happy 40th Birthday to the best brother ever!!"
            base["items"] = [{"product_id": "P001", "quantity": 1}]
        elif kind == 11:
            full = [k for k, v in sorted(db["oven_days"].items()) if k >= (t + dt.timedelta(days=5)).isoformat()
                    and not v["closed"] and v["capacity"] - v["booked_slots"] < 8]
            base["pickup_date"] = _pick(rng, full, "2025-06-18")
            base["items"] = [{"product_id": "P004", "quantity": 1}]
            base.pop("inscription", None)
        elif kind == 12:
            same = by(lambda o: o["status"] in ("pending_deposit", "confirmed") and _days(t, o) >= 6)
            if same:
                base["customer_id"] = same["customer_id"]
                base["pickup_date"] = same["pickup_date"]
                base["items"] = [{"product_id": "P012", "quantity": 1}]
                base.pop("inscription", None)
        else:
            busy = [c for c in sorted(db["customers"]) if _open_count(orders, c) >= 3]
            base["customer_id"] = _pick(rng, busy, "C999")
            base["items"] = [{"product_id": "P012", "quantity": 1}]
            base.pop("inscription", None)
        return base
    if tool == "pay_deposit":
        return rng.choice([
            {"order_id": oid(lambda o: o["status"] in ("confirmed", "picked_up", "cancelled")), "method": "card"},
            {"order_id": oid(lambda o: o["status"] == "pending_deposit"), "method": "cash"},
            {"order_id": "O9999", "method": "card"},
            {"order_id": oid(lambda o: o["status"] == "pending_deposit" and
                             db["customers"][o["customer_id"]]["store_credit"] < o["deposit_required"]),
             "method": "store_credit"}])
    if tool == "amend_order":
        return rng.choice([
            {"order_id": oid(lambda o: o["status"] in ("confirmed", "pending_deposit") and _days(t, o) < 2),
             "inscription": "Late change"},
            {"order_id": oid(lambda o: o["status"] in ("ready", "cancelled", "picked_up")),
             "items": [{"product_id": "P012", "quantity": 2}]},
            {"order_id": oid(lambda o: o["status"] in ("confirmed", "pending_deposit") and _days(t, o) >= 2)},
            {"order_id": oid(lambda o: o["status"] in ("confirmed", "pending_deposit") and _days(t, o) >= 2),
             "pickup_date": "2025-06-23"},
            {"order_id": oid(lambda o: o["status"] in ("confirmed", "pending_deposit") and _days(t, o) >= 2 and
                             not any(db["products"][i["product_id"]]["category"] == "celebration_cake" for i in o["items"])),
             "inscription": "Cheers"},
            {"order_id": oid(lambda o: o["status"] in ("confirmed", "pending_deposit") and _days(t, o) >= 2),
             "pickup_date": (t + dt.timedelta(days=1)).isoformat()},
            {"order_id": oid(lambda o: o["status"] in ("confirmed", "pending_deposit") and _days(t, o) >= 2),
             "items": []}])
    if tool == "cancel_order":
        return rng.choice([
            {"order_id": oid(lambda o: o["status"] in ("ready", "picked_up", "cancelled", "no_show")),
             "reason": "customer_request"},
            {"order_id": oid(lambda o: o["status"] == "confirmed" and _days(t, o) < 0), "reason": "other"},
            {"order_id": oid(lambda o: o["status"] == "confirmed"), "reason": "changed my mind"},
            {"order_id": "O9999", "reason": "other"}])
    if tool == "mark_ready":
        return {"order_id": rng.choice([
            oid(lambda o: o["status"] == "pending_deposit"),
            oid(lambda o: o["status"] == "confirmed" and _days(t, o) >= 2),
            oid(lambda o: o["status"] in ("picked_up", "ready", "cancelled"))])}
    if tool == "record_pickup":
        return rng.choice([
            {"order_id": oid(lambda o: o["status"] in ("confirmed", "pending_deposit")), "payment_method": "card"},
            {"order_id": oid(lambda o: o["status"] == "ready"), "payment_method": "voucher"},
            {"order_id": oid(lambda o: o["status"] == "ready" and _days(t, o) <= -2), "payment_method": "cash"},
            {"order_id": oid(lambda o: o["status"] == "picked_up"), "payment_method": "cash"}])
    if tool == "record_no_show":
        return {"order_id": rng.choice([
            oid(lambda o: o["status"] in ("confirmed", "ready") and _days(t, o) >= -1),
            oid(lambda o: o["status"] in ("picked_up", "cancelled", "no_show")),
            oid(lambda o: o["status"] == "pending_deposit")])}
    if tool == "issue_store_credit":
        rich = _pick(rng, [c for c in sorted(db["customers"]) if db["customers"][c]["store_credit"] > 200], "C999")
        return rng.choice([
            {"customer_id": rng.choice(sorted(db["customers"])), "amount": rng.choice([0, -5.0, 150.0, 100.01]),
             "reason": "goodwill"},
            {"customer_id": rng.choice(sorted(db["customers"])), "amount": 10.555, "reason": "goodwill"},
            {"customer_id": rich, "amount": 99.0, "reason": "quality_issue"},
            {"customer_id": rng.choice(sorted(db["customers"])), "amount": 10.0, "reason": "birthday"},
            {"customer_id": "C999", "amount": 10.0, "reason": "goodwill"},
            {"customer_id": rng.choice(sorted(db["customers"])), "amount": "10.00", "reason": "goodwill"}])
    return None


TOOLS = ["list_products", "get_customer", "list_oven_days", "list_orders", "get_order", "create_order",
         "pay_deposit", "amend_order", "cancel_order", "mark_ready", "record_pickup", "record_no_show",
         "issue_store_credit"]
WEIGHTS = [1, 1, 1, 1, 1, 3, 2, 3, 2, 1, 1, 1, 2]


def probes(db, rng, n):
    out = []
    while len(out) < n:
        tool = rng.choices(TOOLS, WEIGHTS)[0]
        call = valid(db, rng, tool) if rng.random() < 0.55 else invalid(db, rng, tool)
        if call is not None:
            out.append((tool, call))
    return out
