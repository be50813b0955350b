"""Probe generator for the ferry booking desk: about 60% valid calls, 40% calls to refuse."""
from datetime import date, timedelta

SPACES = {"car": 1, "van": 2, "motorcycle": 1}
FIRST = ["Anna", "Beth", "Calum", "Dora", "Euan", "Fiona", "Gavin", "Hazel", "Iain", "Jess"]
LAST = ["Rousay", "Flotta", "Hoy", "Sanday", "Eday", "Stronsay"]


def _ctx(db):
    today = date.fromisoformat(db["meta"]["today"])
    window = db["meta"].get("booking_window_days", 90)
    sail = db["sailings"]
    routes = db["routes"]

    def sdate(s):
        return date.fromisoformat(s["departure_date"])

    bookable = [s for s in sail.values() if s["status"] == "scheduled"
                and routes[s["route_id"]]["status"] == "active"
                and today <= sdate(s) <= today + timedelta(days=window)]
    live = {}
    for b in db["bookings"].values():
        if b["status"] in ("confirmed", "checked_in"):
            live.setdefault(b["sailing_id"], []).append(b)
    return today, window, sdate, bookable, live


def _plate(rng):
    return "%s%s %d%s" % (rng.choice("ABCDEFGH"), rng.choice("KLMNPRST"), rng.randint(10, 99),
                          "".join(rng.choice("WXYZ") for _ in range(3)))


def _party(rng, k=None):
    k = k or rng.choice([1, 1, 2, 2, 3, 4])
    cats = [rng.choice(["adult", "senior"])] + [rng.choice(["adult", "child", "senior", "student"])
                                                 for _ in range(k - 1)]
    return [{"name": "%s %s" % (rng.choice(FIRST), rng.choice(LAST)), "category": c} for c in cats]


def probes(db, rng, n):
    today, window, sdate, bookable, live = _ctx(db)
    custs = sorted(db["customers"].values(), key=lambda c: c["customer_id"])
    active_c = [c for c in custs if c["status"] == "active"]
    susp_c = [c for c in custs if c["status"] == "suspended"] or custs
    sails = sorted(db["sailings"].values(), key=lambda s: s["sailing_id"])
    books = sorted(db["bookings"].values(), key=lambda b: b["booking_id"])
    confirmed = [b for b in books if b["status"] == "confirmed"]
    not_conf = [b for b in books if b["status"] != "confirmed"] or books
    checkable = [b for b in confirmed if sdate(db["sailings"][b["sailing_id"]]) - timedelta(days=1)
                 <= today <= sdate(db["sailings"][b["sailing_id"]])]
    early = [b for b in confirmed if sdate(db["sailings"][b["sailing_id"]]) > today + timedelta(days=1)]
    no_veh = [b for b in confirmed if not b["vehicle"]]
    roomy = [b for b in no_veh if db["sailings"][b["sailing_id"]]["vehicle_spaces_booked"]
             < db["sailings"][b["sailing_id"]]["vehicle_spaces"]] or no_veh
    past = [s for s in sails if s["status"] != "scheduled"]
    far = [s for s in sails if s["status"] == "scheduled" and sdate(s) > today + timedelta(days=window)]
    susp_route = [s for s in sails if s["status"] == "scheduled"
                  and db["routes"][s["route_id"]]["status"] != "active"]
    full = [s for s in bookable if s["vehicle_spaces_booked"] >= s["vehicle_spaces"]]
    future_sched = [s for s in sails if s["status"] == "scheduled" and sdate(s) >= today]
    ports = sorted({r["origin"] for r in db["routes"].values()})

    def free(s, pax, sp):
        return (s["passengers_booked"] + pax <= s["passenger_capacity"]
                and s["vehicle_spaces_booked"] + sp <= s["vehicle_spaces"])

    def ok_customer(s):
        held = {b["customer_id"] for b in live.get(s["sailing_id"], [])}
        pool = [c for c in active_c if c["customer_id"] not in held]
        return rng.choice(pool)

    def transfer_targets(b):
        old = db["sailings"][b["sailing_id"]]
        sp = SPACES[b["vehicle"]["type"]] if b["vehicle"] else 0
        return [s for s in bookable if s["route_id"] == old["route_id"]
                and s["sailing_id"] != old["sailing_id"] and free(s, len(b["passengers"]), sp)
                and all(o["customer_id"] != b["customer_id"] for o in live.get(s["sailing_id"], []))]

    movable = [b for b in confirmed if b["change_count"] < 2
               and sdate(db["sailings"][b["sailing_id"]]) > today and transfer_targets(b)]

    # ------------------------------------------------------------ valid generators
    def v_list_routes():
        a = {}
        if rng.random() < 0.6:
            p = rng.choice(ports)
            a["port"] = rng.choice([p, p.lower(), p.upper()[:4]])
        if rng.random() < 0.4:
            a["status"] = rng.choice(["active", "suspended"])
        return ("list_routes", a)

    def v_search_sailings():
        a = {}
        r = rng.random()
        if r < 0.3:
            a["route_id"] = rng.choice(sorted(db["routes"]))
        elif r < 0.6:
            rt = db["routes"][rng.choice(sorted(db["routes"]))]
            a["origin"] = rt["origin"].upper() if rng.random() < 0.5 else rt["origin"]
            if rng.random() < 0.5:
                a["destination"] = rt["destination"].lower()
        if rng.random() < 0.5:
            d0 = today + timedelta(days=rng.randint(-5, 40))
            a["date_from"] = d0.isoformat()
            a["date_to"] = (d0 + timedelta(days=rng.randint(0, 30))).isoformat()
        if rng.random() < 0.3:
            a["status"] = rng.choice(["scheduled", "departed", "cancelled"])
        return ("search_sailings", a)

    def v_get_sailing():
        return ("get_sailing", {"sailing_id": rng.choice(sails)["sailing_id"]})

    def v_search_customers():
        c = rng.choice(custs)
        q = rng.choice([c["name"].split()[1].upper(), c["name"].split()[0].lower(),
                        c["email"].split("@")[1], " " + c["name"][:3] + " "])
        return ("search_customers", {"query": q})

    def v_list_customer_bookings():
        a = {"customer_id": rng.choice(custs)["customer_id"]}
        if rng.random() < 0.4:
            a["status"] = rng.choice(["confirmed", "checked_in", "cancelled", "completed"])
        return ("list_customer_bookings", a)

    def v_get_booking():
        return ("get_booking", {"booking_id": rng.choice(books)["booking_id"]})

    def v_register():
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        a = {"name": "%s %s" % (fn, ln),
             "email": "%s.%s%d@Harbour-Mail.example" % (fn, ln, rng.randint(100, 99999))}
        if rng.random() < 0.5:
            a["phone"] = "+44 7%03d %06d" % (rng.randint(100, 999), rng.randint(0, 999999))
        return ("register_customer", a)

    def v_create():
        s = rng.choice(bookable)
        party = _party(rng)
        a = {"customer_id": None, "sailing_id": s["sailing_id"], "passengers": party}
        sp = 0
        if rng.random() < 0.45:
            vt = rng.choice(["car", "car", "van", "motorcycle"])
            if free(s, len(party), SPACES[vt]):
                a["vehicle"] = {"type": vt, "registration": _plate(rng).lower()}
                sp = SPACES[vt]
        if not free(s, len(party), sp):
            s = rng.choice([x for x in bookable if free(x, len(party), sp)])
            a["sailing_id"] = s["sailing_id"]
        c = ok_customer(s)
        a["customer_id"] = c["customer_id"]
        if c["loyalty_points"] >= 100 and rng.random() < 0.4:
            a["redeem_points"] = 100 * rng.randint(1, min(5, c["loyalty_points"] // 100))
        return ("create_booking", a)

    def v_add_vehicle():
        b = rng.choice(roomy)
        s = db["sailings"][b["sailing_id"]]
        vt = "van" if s["vehicle_spaces"] - s["vehicle_spaces_booked"] >= 2 and rng.random() < 0.3 \
            else rng.choice(["car", "motorcycle"])
        return ("add_vehicle", {"booking_id": b["booking_id"], "vehicle_type": vt,
                                "registration": _plate(rng)})

    def v_check_in():
        return ("check_in_booking", {"booking_id": rng.choice(checkable or confirmed)["booking_id"]})

    def v_cancel():
        return ("cancel_booking", {"booking_id": rng.choice(confirmed)["booking_id"],
                                   "reason": rng.choice(["change_of_plans", "illness", "weather",
                                                         "other"])})

    def v_change():
        b = rng.choice(movable)
        return ("change_booking_sailing", {"booking_id": b["booking_id"],
                                           "new_sailing_id": rng.choice(transfer_targets(b))["sailing_id"]})

    def v_cancel_sailing():
        return ("cancel_sailing", {"sailing_id": rng.choice(future_sched)["sailing_id"],
                                   "reason": rng.choice(["weather", "technical", "operational"])})

    # ------------------------------------------------------------ invalid generators
    def i_list_routes():
        return ("list_routes", {"status": rng.choice(["closed", "ACTIVE", "open"])})

    def i_search_sailings():
        k = rng.randint(0, 3)
        if k == 0:
            return ("search_sailings", {"route_id": "RT%02d" % rng.randint(50, 99)})
        if k == 1:
            return ("search_sailings", {"date_from": "2025-07-20", "date_to": "2025-07-01"})
        if k == 2:
            return ("search_sailings", {"date_from": rng.choice(["20/06/2025", "2025-6-1", "2025-02-30"])})
        return ("search_sailings", {"status": "boarding"})

    def i_get_sailing():
        return ("get_sailing", {"sailing_id": "SL%04d" % rng.randint(500, 999)})

    def i_search_customers():
        return ("search_customers", {"query": rng.choice(["a", " ", "", " x "])})

    def i_list_customer_bookings():
        if rng.random() < 0.5:
            return ("list_customer_bookings", {"customer_id": "C%04d" % rng.randint(200, 999)})
        return ("list_customer_bookings", {"customer_id": rng.choice(custs)["customer_id"],
                                           "status": "pending"})

    def i_get_booking():
        return ("get_booking", {"booking_id": "BK%05d" % rng.randint(900, 9999)})

    def i_register():
        k = rng.randint(0, 2)
        if k == 0:
            c = rng.choice(custs)
            return ("register_customer", {"name": "Dup Person", "email": c["email"].upper()})
        if k == 1:
            return ("register_customer", {"name": "No Email",
                                          "email": rng.choice(["no-at-sign.example", "a@b", "x y@z.example"])})
        return ("register_customer", {"name": "   ", "email": "blank%d@post.example" % rng.randint(1, 999)})

    def i_create():
        k = rng.randint(0, 10)
        s = rng.choice(bookable)
        a = {"customer_id": ok_customer(s)["customer_id"], "sailing_id": s["sailing_id"],
             "passengers": _party(rng, 2)}
        if k == 0:
            a["customer_id"] = rng.choice(susp_c)["customer_id"]
        elif k == 1:
            a["sailing_id"] = rng.choice(past)["sailing_id"]
        elif k == 2 and far:
            a["sailing_id"] = rng.choice(far)["sailing_id"]
        elif k == 3 and susp_route:
            a["sailing_id"] = rng.choice(susp_route)["sailing_id"]
        elif k == 4:
            a["passengers"] = [{"name": "Kid %d" % i, "category": rng.choice(["child", "student"])}
                               for i in range(2)]
        elif k == 5:
            a["passengers"] = _party(rng, 1) * 10
        elif k == 6 and full:
            s = rng.choice(full)
            a.update(sailing_id=s["sailing_id"], customer_id=ok_customer(s)["customer_id"],
                     vehicle={"type": "car", "registration": _plate(rng)})
        elif k == 7:
            withb = [s for s in bookable if live.get(s["sailing_id"])]
            s = rng.choice(withb)
            a.update(sailing_id=s["sailing_id"],
                     customer_id=rng.choice(live[s["sailing_id"]])["customer_id"])
        elif k == 8:
            c = db["customers"][a["customer_id"]]
            a["redeem_points"] = rng.choice([c["loyalty_points"] + 100 - c["loyalty_points"] % 100, 150])
        elif k == 9:
            a["vehicle"] = {"type": rng.choice(["car", "truck"]),
                            "registration": rng.choice(["X", "AB-123", "TOOLONG123"])}
        else:
            a["customer_id"] = "C%04d" % rng.randint(500, 999)
        return ("create_booking", a)

    def i_add_vehicle():
        k = rng.randint(0, 3)
        if k == 0:
            b = rng.choice([b for b in confirmed if b["vehicle"]])
        elif k == 1:
            b = rng.choice(not_conf)
        else:
            b = rng.choice(no_veh)
        a = {"booking_id": b["booking_id"], "vehicle_type": "car", "registration": _plate(rng)}
        if k == 2:
            a["registration"] = rng.choice(["!", "ABCDEFGHJ", ""])
        if k == 3:
            a["vehicle_type"] = "lorry"
        return ("add_vehicle", a)

    def i_check_in():
        b = rng.choice(early if rng.random() < 0.6 else not_conf)
        return ("check_in_booking", {"booking_id": b["booking_id"]})

    def i_cancel():
        if rng.random() < 0.6:
            return ("cancel_booking", {"booking_id": rng.choice(not_conf)["booking_id"],
                                       "reason": "other"})
        return ("cancel_booking", {"booking_id": rng.choice(confirmed)["booking_id"],
                                   "reason": rng.choice(["operator_cancelled", "bored"])})

    def i_change():
        b = rng.choice(confirmed)
        old = db["sailings"][b["sailing_id"]]
        k = rng.randint(0, 4)
        if k == 0:
            tgt = rng.choice([s for s in sails if s["route_id"] != old["route_id"]])
        elif k == 1:
            tgt = old
        elif k == 2:
            b = rng.choice(not_conf)
            tgt = rng.choice(bookable)
        elif k == 3:
            same = [s for s in sails if s["route_id"] == old["route_id"] and s not in bookable]
            tgt = rng.choice(same or past)
        else:
            twice = [x for x in confirmed if x["change_count"] >= 2] or \
                    [x for x in confirmed if sdate(db["sailings"][x["sailing_id"]]) <= today]
            b = rng.choice(twice or confirmed)
            tgt = db["sailings"][b["sailing_id"]]
        return ("change_booking_sailing", {"booking_id": b["booking_id"],
                                           "new_sailing_id": tgt["sailing_id"]})

    def i_cancel_sailing():
        if rng.random() < 0.7:
            return ("cancel_sailing", {"sailing_id": rng.choice(past)["sailing_id"], "reason": "weather"})
        return ("cancel_sailing", {"sailing_id": rng.choice(future_sched)["sailing_id"],
                                   "reason": "strike"})

    table = [  # (valid, invalid, weight)
        (v_list_routes, i_list_routes, 1), (v_search_sailings, i_search_sailings, 2),
        (v_get_sailing, i_get_sailing, 1), (v_search_customers, i_search_customers, 1),
        (v_list_customer_bookings, i_list_customer_bookings, 1), (v_get_booking, i_get_booking, 1),
        (v_register, i_register, 2), (v_create, i_create, 5), (v_add_vehicle, i_add_vehicle, 2),
        (v_check_in, i_check_in, 2), (v_cancel, i_cancel, 2), (v_change, i_change, 3),
        (v_cancel_sailing, i_cancel_sailing, 1)]
    bag = [t for t in table for _ in range(t[2])]
    out = []
    for _ in range(n):
        valid, invalid, _w = rng.choice(bag)
        out.append(valid() if rng.random() < 0.6 else invalid())
    return out
