"""Differential probes for the Kestrel Haven Marina API.

About 60% of the calls are drawn to be accepted (checked against the reference before they are
kept) and about 40% break a documented rule; every tool gets both kinds where it has any."""
import copy
from datetime import date, timedelta

import ref_impl

TOOLS = ["list_berths", "find_available_berths", "search_boats", "get_booking", "list_bookings",
         "get_customer_account", "create_booking", "cancel_booking", "check_in_booking",
         "check_out_booking", "extend_booking", "place_service_order", "cancel_service_order",
         "record_payment"]
WEIGHTS = [5, 7, 5, 4, 6, 4, 14, 8, 6, 6, 9, 13, 6, 7]


def _accepts(db, name, args):
    try:
        ref_impl.invoke(copy.deepcopy(db), name, copy.deepcopy(args))
        return True
    except ref_impl.RefError:
        return False


def probes(db, rng, n):
    m = db["meta"]
    today = date.fromisoformat(m["today"])
    iso = lambda k: (today + timedelta(days=k)).isoformat()
    bks, boats, custs = db["bookings"], db["boats"], db["customers"]
    bk_ids, boat_ids, cust_ids = sorted(bks), sorted(boats), sorted(custs)
    by_status = {s: [b for b in bk_ids if bks[b]["status"] == s] for s in ref_impl.BOOKING_STATUSES}
    active = by_status["reserved"] + by_status["checked_in"]
    orders = db["service_orders"]
    scheduled = sorted(int(k) for k in orders if orders[k]["status"] == "scheduled")
    closed_orders = sorted(int(k) for k in orders if orders[k]["status"] != "scheduled")
    hold = [c for c in cust_ids if custs[c]["balance_due"] > m["account_hold_threshold"]]
    owing = [c for c in cust_ids if 0 < custs[c]["balance_due"]]
    n_reserved = {c: sum(1 for b in by_status["reserved"] if bks[b]["customer_id"] == c) for c in cust_ids}
    full_cust = [c for c in cust_ids if n_reserved[c] >= m["max_reserved_bookings_per_customer"]]
    boats_of = lambda cs: [b for b in boat_ids if boats[b]["customer_id"] in cs]
    services = sorted(db["services"])
    jobs = [s for s in services if db["services"][s]["category"] != "fuel"]
    berths = sorted(db["berths"])
    load = {}
    for o in orders.values():
        if o["status"] != "cancelled":
            load[(o["service_code"], o["scheduled_for"])] = load.get((o["service_code"], o["scheduled_for"]), 0) + 1
    full_days = [k for k, v in load.items() if db["services"][k[0]]["daily_capacity"] and v >= db["services"][k[0]]["daily_capacity"]]

    def stay(lo=0, hi=100, nights=None):
        a = rng.randint(lo, hi)
        return iso(a), iso(a + (nights or rng.choice([1, 2, 3, 4, 5, 7, 9, 12])))

    def gen(tool, valid):
        if tool == "list_berths":
            if valid:
                a = {}
                if rng.random() < 0.5: a["pontoon_id"] = rng.choice(sorted(db["pontoons"]))
                if rng.random() < 0.4: a["min_length_m"] = rng.choice([8, 10, 12.5, 15, 20])
                if rng.random() < 0.3: a["shore_power"] = rng.random() < 0.5
                if rng.random() < 0.3: a["status"] = rng.choice(["active", "out_of_service"])
                return a
            return rng.choice([{"pontoon_id": rng.choice(["Z", "a", "P1"])}, {"min_length_m": rng.choice([0, -4])},
                               {"status": rng.choice(["closed", "Active", "free"])}, {"min_length_m": "12"},
                               {"pontoon": "A"}])
        if tool == "find_available_berths":
            if valid:
                a, d = stay()
                args = {"boat_id": rng.choice(boat_ids), "arrival": a, "departure": d}
                if rng.random() < 0.3: args["pontoon_id"] = rng.choice(sorted(db["pontoons"]))
                if rng.random() < 0.3: args["shore_power"] = True
                return args
            k, b = rng.randrange(6), rng.choice(boat_ids)
            if k == 0: return {"boat_id": b, "arrival": iso(-rng.randint(1, 9)), "departure": iso(2)}
            if k == 1: return {"boat_id": b, "arrival": iso(121 + rng.randint(0, 20)), "departure": iso(150)}
            if k == 2: a = iso(rng.randint(1, 30)); return {"boat_id": b, "arrival": a, "departure": a}
            if k == 3: return {"boat_id": b, "arrival": iso(5), "departure": iso(5 + rng.choice([29, 35]))}
            if k == 4: return {"boat_id": rng.choice(["BT999", "bt001", "B01"]), "arrival": iso(3), "departure": iso(5)}
            return {"boat_id": b, "arrival": rng.choice(["2025/09/20", "20-09-2025", "2025-09-31"]), "departure": iso(30)}
        if tool == "search_boats":
            if valid:
                bt = boats[rng.choice(boat_ids)]
                src = bt["name"] if rng.random() < 0.7 else bt["registration"]
                i = rng.randrange(max(1, len(src) - 3))
                qy = src[i:i + rng.randint(2, 5)]
                args = {"query": rng.choice([qy, qy.upper(), qy.lower(), " %s " % qy])}
                if len(qy.strip()) < 2: args["query"] = src
                if rng.random() < 0.25: args["customer_id"] = bt["customer_id"]
                if rng.random() < 0.25: args["hull_type"] = rng.choice(ref_impl.HULL_TYPES)
                return args
            return rng.choice([{"query": "a"}, {"query": "  "}, {}, {"query": "sea", "customer_id": "CU999"},
                               {"query": "star", "hull_type": "catamaran"}, {"query": 42}])
        if tool == "get_booking":
            return {"booking_id": rng.choice(bk_ids)} if valid else {"booking_id": rng.choice(["BK9999", "bk1001", "BK01", "1001"])}
        if tool == "get_customer_account":
            return {"customer_id": rng.choice(cust_ids)} if valid else {"customer_id": rng.choice(["CU999", "cu001", "CU1", ""])}
        if tool == "list_bookings":
            if valid:
                a = {}
                k = rng.randrange(5)
                if k == 0: a["status"] = rng.choice(ref_impl.BOOKING_STATUSES)
                if k == 1: a["berth_id"] = rng.choice(berths)
                if k == 2: a["customer_id"] = rng.choice(cust_ids)
                if k == 3: a["boat_id"] = rng.choice(boat_ids)
                if k == 4 or rng.random() < 0.3:
                    lo = rng.randint(-20, 30)
                    a["from_date"], a["to_date"] = iso(lo), iso(lo + rng.randint(0, 10))
                return a
            return rng.choice([{"from_date": iso(10), "to_date": iso(3)}, {"status": rng.choice(["open", "Reserved", "done"])},
                               {"boat_id": "BT999"}, {"berth_id": "Z01"}, {"from_date": "09/09/2025"}, {"to_date": "2025-02-30"}])
        if tool == "create_booking":
            if valid:
                a, d = stay(0, 90)
                args = {"boat_id": rng.choice(boat_ids), "arrival": a, "departure": d}
                if rng.random() < 0.4: args["shore_power"] = True
                if rng.random() < 0.3:
                    args["berth_id"] = rng.choice(berths)
                return args
            k = rng.randrange(10)
            a, d = stay(1, 60)
            if k == 0 and hold: return {"boat_id": rng.choice(boats_of(hold)), "arrival": a, "departure": d}
            if k == 1 and full_cust: return {"boat_id": rng.choice(boats_of(full_cust)), "arrival": a, "departure": d}
            if k == 2:
                bt = rng.choice(boat_ids)
                exp = date.fromisoformat(boats[bt]["insurance_expiry"])
                s = max(today, exp - timedelta(days=2))
                return {"boat_id": bt, "arrival": s.isoformat(), "departure": (s + timedelta(days=5)).isoformat()}
            if k == 3 and active:
                r = bks[rng.choice(active)]
                return {"boat_id": r["boat_id"], "arrival": max(r["arrival"], m["today"]), "departure": r["departure"]}
            if k == 4 and active:
                r = bks[rng.choice([b for b in active if bks[b]["departure"] > m["today"]])]
                return {"boat_id": rng.choice(boat_ids), "berth_id": r["berth_id"],
                        "arrival": max(r["arrival"], m["today"]), "departure": r["departure"]}
            if k == 5:
                bid = rng.choice([b for b in berths if db["berths"][b]["status"] != "active" or b.startswith("G") or not db["berths"][b]["shore_power"]])
                args = {"boat_id": rng.choice(boat_ids), "berth_id": bid, "arrival": a, "departure": d}
                if db["berths"][bid]["shore_power"] is False: args["shore_power"] = True
                return args
            if k == 6:
                return {"boat_id": rng.choice([b for b in boat_ids if boats[b]["length_m"] > 10]), "berth_id": rng.choice(berths[:5] + [b for b in berths if b[0] == "F"]),
                        "arrival": a, "departure": d}
            if k == 7: return {"boat_id": rng.choice(boat_ids), "arrival": iso(-2), "departure": iso(3)}
            if k == 8: return {"boat_id": rng.choice(boat_ids), "arrival": iso(4), "departure": iso(4 + 30)}
            return {"boat_id": rng.choice(boat_ids + ["BT999"]), "arrival": a, "departure": d, "berth_id": rng.choice(["A99", "ZZ1"])}
        if tool == "cancel_booking":
            reason = rng.choice(["Weather window closed", "Crew ill", "Going to Cork instead", "Engine failure"])
            if valid:
                return {"booking_id": rng.choice(by_status["reserved"]), "reason": reason}
            k = rng.randrange(4)
            if k == 0: return {"booking_id": rng.choice([b for b in bk_ids if bks[b]["status"] != "reserved"]), "reason": reason}
            if k == 1: return {"booking_id": rng.choice(by_status["reserved"]), "reason": rng.choice(["", "   "])}
            if k == 2: return {"booking_id": rng.choice(by_status["reserved"])}
            return {"booking_id": "BK9999", "reason": reason}
        if tool == "check_in_booking":
            due = [b for b in by_status["reserved"] if bks[b]["arrival"] == m["today"]]
            if valid:
                return {"booking_id": rng.choice(due)}
            k = rng.randrange(3)
            if k == 0: return {"booking_id": rng.choice([b for b in by_status["reserved"] if b not in due])}
            if k == 1: return {"booking_id": rng.choice([b for b in bk_ids if bks[b]["status"] != "reserved"])}
            return {"booking_id": rng.choice(["BK0001", "BK9999"])}
        if tool == "check_out_booking":
            if valid:
                return {"booking_id": rng.choice(by_status["checked_in"])}
            return {"booking_id": rng.choice([b for b in bk_ids if bks[b]["status"] != "checked_in"] + ["BK9999"])}
        if tool == "extend_booking":
            if valid:
                b = rng.choice(active)
                dep = max(date.fromisoformat(bks[b]["departure"]), today)
                return {"booking_id": b, "new_departure": (dep + timedelta(days=rng.choice([1, 1, 2, 3, 5]))).isoformat()}
            k = rng.randrange(5)
            b = rng.choice(active)
            if k == 0: return {"booking_id": b, "new_departure": bks[b]["departure"]}
            if k == 1: return {"booking_id": rng.choice(by_status["cancelled"] + by_status["checked_out"]), "new_departure": iso(20)}
            if k == 2: return {"booking_id": b, "new_departure": (date.fromisoformat(bks[b]["arrival"]) + timedelta(days=29)).isoformat()}
            if k == 3:
                nxt = [x for x in active if x != b and bks[x]["berth_id"] == bks[b]["berth_id"] and bks[x]["arrival"] >= bks[b]["departure"]]
                if nxt: return {"booking_id": b, "new_departure": bks[nxt[0]]["departure"]}
            return {"booking_id": b, "new_departure": rng.choice(["next week", "2025-9-30", iso(-1)])}
        if tool == "place_service_order":
            if valid:
                b = bks[rng.choice(active)]
                a = max(date.fromisoformat(b["arrival"]), today)
                span = (date.fromisoformat(b["departure"]) - a).days
                day = (a + timedelta(days=rng.randrange(max(span, 1)))).isoformat()
                code = rng.choice(services + ["FUEL", "FUEL", "FUEL"])
                if code == "FUEL" or db["services"][code]["category"] == "fuel":
                    code = {"diesel": "DIESEL", "petrol": "PETROL"}.get(boats[b["boat_id"]]["fuel_type"], "ICE")
                args = {"boat_id": b["boat_id"], "service_code": code, "date": day}
                if db["services"][code]["category"] == "fuel":
                    args["quantity"] = rng.randint(1, max(1, boats[b["boat_id"]]["fuel_capacity_l"]))
                return args
            k = rng.randrange(10)
            b = bks[rng.choice(active)]
            if k == 9:
                long_ = [x for x in active if boats[bks[x]["boat_id"]]["length_m"] > 18]
                if long_:
                    b = bks[rng.choice(long_)]
                    return {"boat_id": b["boat_id"], "service_code": rng.choice(["LIFT", "ANTIFOUL"]),
                            "date": max(b["arrival"], m["today"])}
            bt = boats[b["boat_id"]]
            day = max(b["arrival"], m["today"])
            if k == 0: return {"boat_id": b["boat_id"], "service_code": rng.choice(jobs), "date": iso(-1)}
            if k == 1: return {"boat_id": b["boat_id"], "service_code": "PUMPOUT", "date": iso(31 + rng.randint(0, 9))}
            if k == 2: return {"boat_id": b["boat_id"], "service_code": rng.choice(["DIESEL", "PETROL"]), "date": day}
            if k == 3: return {"boat_id": b["boat_id"], "service_code": rng.choice(jobs), "date": day, "quantity": 1}
            if k == 4: return {"boat_id": b["boat_id"], "service_code": rng.choice(["DIESEL", "PETROL"]), "date": day,
                               "quantity": bt["fuel_capacity_l"] + rng.randint(1, 80)}
            if k == 5 and full_days:
                code, d = rng.choice(full_days)
                cands = [x for x in active if bks[x]["arrival"] <= d < bks[x]["departure"]]
                if cands: return {"boat_id": bks[rng.choice(cands)]["boat_id"], "service_code": code, "date": d}
            if k == 6:
                idle = [x for x in boat_ids if not any(bks[y]["boat_id"] == x for y in active)]
                return {"boat_id": rng.choice(idle), "service_code": rng.choice(jobs), "date": iso(rng.randint(0, 20))}
            if k == 7:
                o = orders[str(rng.choice(scheduled))]
                args = {"boat_id": o["boat_id"], "service_code": o["service_code"], "date": o["scheduled_for"]}
                if o["service_code"] in ("DIESEL", "PETROL"): args["quantity"] = 10
                return args
            return {"boat_id": b["boat_id"], "service_code": rng.choice(["GAS", "diesel", "CRANE"]), "date": day}
        if tool == "cancel_service_order":
            if valid:
                return {"order_id": rng.choice(scheduled)}
            return rng.choice([{"order_id": rng.choice(closed_orders)}, {"order_id": 9999},
                               {"order_id": str(rng.choice(scheduled))}, {}])
        if tool == "record_payment":
            if valid:
                c = rng.choice(owing)
                bal = int(round(custs[c]["balance_due"] * 100))
                method = rng.choice(["card", "card", "bank_transfer", "cash"])
                amt = rng.randint(1, min(bal, 50000 if method == "cash" else bal)) / 100
                if rng.random() < 0.2: amt = bal / 100 if method != "cash" or bal <= 50000 else amt
                args = {"customer_id": c, "amount": amt, "method": method}
                if method == "bank_transfer" or (method == "card" and rng.random() < 0.5):
                    args["reference"] = "TX%06d" % rng.randint(0, 999999)
                return args
            c = rng.choice(owing)
            bal = custs[c]["balance_due"]
            return rng.choice([
                {"customer_id": c, "amount": round(bal + rng.choice([0.01, 5, 100]), 2), "method": "card"},
                {"customer_id": c, "amount": 10.005, "method": "card"},
                {"customer_id": rng.choice(hold), "amount": 500.01, "method": "cash"},
                {"customer_id": c, "amount": 5.0, "method": "cash", "reference": "TILL-3"},
                {"customer_id": c, "amount": 5.0, "method": "bank_transfer"},
                {"customer_id": c, "amount": 5.0, "method": "cheque"},
                {"customer_id": c, "amount": rng.choice([0, -20]), "method": "card"},
                {"customer_id": "CU999", "amount": 5.0, "method": "card"}])
        raise ValueError(tool)

    out = []
    for _ in range(n):
        tool = rng.choices(TOOLS, WEIGHTS)[0]
        valid = rng.random() < 0.6
        args = gen(tool, valid)
        for _ in range(40):
            if _accepts(db, tool, args) == valid:
                break
            args = gen(tool, valid)
        out.append((tool, args))
    return out
