"""Probe generator for the winery member API: ~60% valid calls, ~40% calls the docs say must be refused."""
import datetime as dt

SHIP = ["CA", "OR", "WA", "NV", "AZ", "CO", "NY", "TX", "IL", "FL", "MA", "VA"]
HEAT = {"AZ", "NV", "TX", "FL"}
RANK = {"classic": 0, "reserve": 1, "collector": 2}
NEED = {"classic": 0, "reserve": 12, "collector": 36}
REASONS = ["member_request", "payment_declined", "shipping_restriction", "other"]


def probes(db, rng, n):
    today = dt.date.fromisoformat(db["meta"]["today"])
    M, W, O, T, R = (db[k] for k in ("members", "wines", "orders", "tastings", "reservations"))
    mids, wids, oids, tids, rids = (sorted(x) for x in (M, W, O, T, R))
    C = rng.choice

    def by(coll, key, val):
        return [k for k in sorted(coll) if coll[k][key] == val]

    def days(d):
        return (dt.date.fromisoformat(d) - today).days

    active, paused, gone = by(M, "status", "active"), by(M, "status", "paused"), by(M, "status", "cancelled")
    open_m = {o["member_id"] for o in O.values() if o["status"] in ("placed", "shipped", "ready_for_pickup")}
    open_m |= {r["member_id"] for r in R.values() if r["status"] == "confirmed"}
    can_cancel = [m for m in active + paused if m not in open_m]
    busy = [m for m in active + paused if m in open_m]
    tier_free = [m for m in active if M[m]["tier_changed_on"] is None or days(M[m]["tier_changed_on"]) <= -90]
    tier_recent = [m for m in active if m not in tier_free]
    avail = by(W, "status", "available")
    not_avail = [w for w in wids if W[w]["status"] != "available"]
    placed, shipped = by(O, "status", "placed"), by(O, "status", "shipped")
    fulfil_ok = [o for o in placed if O[o]["fulfillment"] == "pickup" or O[o]["ship_state"] not in HEAT]
    heat = [o for o in placed if o not in fulfil_ok]
    done_ok = [o for o in shipped if days(O[o]["shipped_on"]) < 0] + by(O, "status", "ready_for_pickup")
    shipped_today = [o for o in shipped if days(O[o]["shipped_on"]) == 0]
    finished = [o for o in oids if O[o]["status"] in ("delivered", "picked_up", "cancelled")]
    confirmed = by(R, "status", "confirmed")
    res_ok = [r for r in confirmed if days(T[R[r]["tasting_id"]]["tasting_date"]) >= 1]
    res_late = [r for r in confirmed if r not in res_ok]
    bookable = [t for t in tids if T[t]["status"] == "scheduled" and 1 <= days(T[t]["tasting_date"]) <= 60]
    held = {(r["member_id"], r["tasting_id"]) for r in R.values() if r["status"] == "confirmed"}

    def lines_for(m, k, big=False):
        ok = [w for w in avail if RANK[W[w]["min_tier"]] <= RANK[M[m]["tier"]] and W[w]["stock"] > 0]
        picks = rng.sample(ok, min(k, len(ok)))
        items = []
        for w in picks:
            hi = min(W[w]["max_per_order"], W[w]["stock"], 12 if big else 4)
            items.append({"wine_id": w, "quantity": rng.randint(max(1, hi // 2) if big else 1, hi)})
        while sum(i["quantity"] for i in items) > 24:
            items.pop()
        return items

    def valid(tool):
        if tool == "get_member":
            return {"member_id": C(mids)}
        if tool == "set_membership_status":
            return C([{"member_id": C(active), "action": "pause"}, {"member_id": C(paused), "action": "resume"},
                      {"member_id": C(can_cancel), "action": "cancel"}])
        if tool == "change_tier":
            m = C(tier_free)
            opts = [t for t in RANK if t != M[m]["tier"] and
                    (RANK[t] < RANK[M[m]["tier"]] or M[m]["bottles_purchased"] >= NEED[t])]
            return {"member_id": m, "tier": C(opts)} if opts else None
        if tool == "list_wines":
            a = {}
            for k, v in (("color", C(["red", "white", "rose", "sparkling", "dessert"])),
                         ("search", C(["pinot", "CABERNET", "Ridge", "rose", "blanc", "2021"])),
                         ("max_price", C([30, 45.5, 60, 100])), ("available_only", C([True, False]))):
                if rng.random() < 0.4:
                    a[k] = v
            return a
        if tool == "restock_wine":
            return {"wine_id": C([w for w in wids if W[w]["status"] != "retired"]),
                    "quantity": C([1, 6, 12, 48, 500])}
        if tool == "get_order":
            return {"order_id": C(oids)}
        if tool == "list_orders":
            a = {}
            if rng.random() < 0.6:
                a["member_id"] = C(mids)
            if rng.random() < 0.5:
                a["status"] = C(["placed", "shipped", "delivered", "ready_for_pickup", "picked_up", "cancelled"])
            if rng.random() < 0.3:
                a["fulfillment"] = C(["ship", "pickup"])
            return a
        if tool == "create_order":
            m = C(active)
            items = lines_for(m, C([1, 1, 2, 3]), big=rng.random() < 0.3)
            if not items:
                return None
            a = {"member_id": m, "items": items}
            if rng.random() < 0.3:
                a["fulfillment"] = "pickup"
            else:
                if rng.random() < 0.4:
                    a["fulfillment"] = "ship"
                a["ship_state"] = C([M[m]["home_state"]] + SHIP)
            if rng.random() < 0.5:
                a["use_credit"] = C([True, True, False])
            return a
        if tool == "fulfill_order":
            return {"order_id": C(fulfil_ok)}
        if tool == "complete_order":
            return {"order_id": C(done_ok)}
        if tool == "cancel_order":
            return {"order_id": C(placed), "reason": C(REASONS)}
        if tool == "list_tastings":
            a = {}
            if rng.random() < 0.6:
                a["from_date"] = (today + dt.timedelta(days=rng.randint(-30, 30))).isoformat()
            if rng.random() < 0.5:
                a["to_date"] = (today + dt.timedelta(days=rng.randint(31, 90))).isoformat()
            if rng.random() < 0.4:
                a["available_only"] = C([True, False])
            return a
        if tool == "book_tasting":
            for _ in range(30):
                t, m = C(bookable), C(active)
                left = T[t]["capacity"] - T[t]["seats_booked"]
                if left >= 1 and RANK[M[m]["tier"]] >= RANK[T[t]["min_tier"]] and (m, t) not in held:
                    return {"tasting_id": t, "member_id": m, "party_size": rng.randint(1, min(6, left))}
            return None
        if tool == "cancel_reservation":
            return {"reservation_id": C(res_ok)}

    def invalid(tool):
        if tool == "get_member":
            return C([{"member_id": "M9999"}, {"member_id": "m1001"}, {}])
        if tool == "set_membership_status":
            return C([{"member_id": C(paused + gone), "action": "pause"},
                      {"member_id": C(active + gone), "action": "resume"},
                      {"member_id": C(busy), "action": "cancel"}, {"member_id": C(gone), "action": "cancel"},
                      {"member_id": C(active), "action": "suspend"}, {"member_id": "M0000", "action": "pause"}])
        if tool == "change_tier":
            k = rng.randrange(5)
            if k == 0:
                m = C(tier_free)
                return {"member_id": m, "tier": M[m]["tier"]}
            if k == 1:
                m = C(tier_recent)
                return {"member_id": m, "tier": C([t for t in RANK if t != M[m]["tier"]])}
            if k == 2:
                low = [(m, t) for m in tier_free for t in RANK
                       if RANK[t] > RANK[M[m]["tier"]] and M[m]["bottles_purchased"] < NEED[t]]
                m, t = C(low)
                return {"member_id": m, "tier": t}
            if k == 3:
                m = C(paused + gone)
                return {"member_id": m, "tier": C([t for t in RANK if t != M[m]["tier"]])}
            return {"member_id": C(active), "tier": C(["gold", "Reserve", None])}
        if tool == "list_wines":
            return C([{"color": "orange"}, {"max_price": -5}, {"available_only": "yes"},
                      {"vintage": 2020}, {"search": "   "}])
        if tool == "restock_wine":
            return C([{"wine_id": C([w for w in wids if W[w]["status"] == "retired"]), "quantity": 12},
                      {"wine_id": C(wids), "quantity": C([0, 501, 2.5, -3, "12"])},
                      {"wine_id": "W999", "quantity": 6}, {"wine_id": C(wids)}])
        if tool == "get_order":
            return C([{"order_id": "O99999"}, {"order_id": "24001"}, {}])
        if tool == "list_orders":
            return C([{"member_id": "M0001"}, {"status": "open"}, {"fulfillment": "courier"}])
        if tool == "create_order":
            k = rng.randrange(11)
            m = C(active)
            items = lines_for(m, 2) or [{"wine_id": C(avail), "quantity": 1}]
            a = {"member_id": m, "items": items, "ship_state": C(SHIP)}
            if k == 0:
                a["member_id"] = C(paused + gone)
            elif k == 1:
                a["items"] = [{"wine_id": C(not_avail), "quantity": 1}]
            elif k == 2:
                cm = C([x for x in active if M[x]["tier"] != "collector"])
                hi = [w for w in avail if RANK[W[w]["min_tier"]] > RANK[M[cm]["tier"]]]
                a.update(member_id=cm, items=[{"wine_id": C(hi), "quantity": 1}])
            elif k == 3:
                w = C(avail)
                a["items"] = [{"wine_id": w, "quantity": W[w]["max_per_order"] + 1}]
            elif k == 4:
                low = [w for w in avail if W[w]["stock"] < W[w]["max_per_order"]
                       and W[w]["min_tier"] == "classic"]
                if not low:
                    return None
                w = C(low)
                a["items"] = [{"wine_id": w, "quantity": W[w]["stock"] + 1}]
            elif k == 5:
                a["items"] = [dict(items[0]), dict(items[0])]
            elif k == 6:
                big = [w for w in avail if W[w]["min_tier"] == "classic" and W[w]["max_per_order"] >= 12
                       and W[w]["stock"] >= 12]
                if len(big) < 3:
                    return None
                a["items"] = [{"wine_id": w, "quantity": 12} for w in rng.sample(big, 3)]
            elif k == 7:
                a["ship_state"] = C(["UT", "ut", "KY", "Oregon"])
            elif k == 8:
                del a["ship_state"]
            elif k == 9:
                a["fulfillment"] = "pickup"
            else:
                a["items"] = C([[], [{"wine_id": items[0]["wine_id"], "quantity": 0}],
                                [{"wine_id": items[0]["wine_id"]}], "W101"])
            return a
        if tool == "fulfill_order":
            return {"order_id": C(heat + [o for o in oids if O[o]["status"] != "placed"])}
        if tool == "complete_order":
            return {"order_id": C(shipped_today + placed + finished)}
        if tool == "cancel_order":
            return C([{"order_id": C([o for o in oids if O[o]["status"] != "placed"]), "reason": "other"},
                      {"order_id": C(placed), "reason": "changed_mind"}, {"order_id": C(placed)}])
        if tool == "list_tastings":
            return C([{"from_date": "2025-09-01", "to_date": "2025-08-01"}, {"from_date": "2025-13-01"},
                      {"to_date": "07/10/2025"}, {"available_only": 1}])
        if tool == "book_tasting":
            k = rng.randrange(7)
            t, m = C(bookable), C(active)
            a = {"tasting_id": t, "member_id": m, "party_size": 1}
            if k == 0:
                a["member_id"] = C(paused + gone)
            elif k == 1:
                a["tasting_id"] = C([x for x in tids if x not in bookable])
            elif k == 2:
                hi = [x for x in bookable if T[x]["min_tier"] != "classic"]
                x = C(hi)
                a.update(tasting_id=x, member_id=C([y for y in active if RANK[M[y]["tier"]] < RANK[T[x]["min_tier"]]]))
            elif k == 3:
                m2, t2 = C(sorted(held))
                a.update(member_id=m2, tasting_id=t2)
            elif k == 4:
                full = [x for x in bookable if T[x]["capacity"] - T[x]["seats_booked"] < 6]
                x = C(full)
                a.update(tasting_id=x, party_size=min(6, T[x]["capacity"] - T[x]["seats_booked"] + 1),
                         member_id=C([y for y in active if RANK[M[y]["tier"]] >= RANK[T[x]["min_tier"]]]))
            elif k == 5:
                a["party_size"] = C([0, 7, 2.5])
            else:
                a["tasting_id"] = "T999"
            return a
        if tool == "cancel_reservation":
            return {"reservation_id": C(res_late + [r for r in rids if R[r]["status"] != "confirmed"] + ["R9999"])}

    tools = ["get_member", "set_membership_status", "change_tier", "list_wines", "restock_wine", "get_order",
             "list_orders", "create_order", "fulfill_order", "complete_order", "cancel_order", "list_tastings",
             "book_tasting", "cancel_reservation"]
    weights = [1, 2, 2, 1, 1, 1, 1, 4, 2, 2, 2, 1, 3, 2]
    out = []
    while len(out) < n:
        tool = rng.choices(tools, weights)[0]
        args = valid(tool) if rng.random() < 0.6 else invalid(tool)
        if args is not None:
            out.append((tool, args))
    return out
