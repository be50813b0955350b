"""Probe generator for the museum group-tour booking API: ~60% valid calls, ~40% refusals."""
import datetime as dt

PROGRAMS = ["highlights", "dinosaurs", "ancient_egypt", "modern_art", "maritime"]
LANGS = ["en", "fr", "de", "es", "nl"]
REASONS = ["customer_request", "illness", "weather", "scheduling_conflict", "other"]
TOUR_NOTES = ["Gallery closed for maintenance", "Guide unavailable", "Low demand", "Fire drill"]


def _ceil(a, b):
    return -(-a // b)


def probes(db, rng, n):
    today = dt.date.fromisoformat(db["meta"]["today"])
    T, G, CU, B = db["tours"], db["guides"], db["customers"], db["bookings"]
    C = rng.choice

    def days(tid):
        return (dt.date.fromisoformat(T[tid]["date"]) - today).days

    def free(tid):
        return T[tid]["capacity"] - T[tid]["booked_places"]

    tours = sorted(T)
    sched = [t for t in tours if T[t]["status"] == "scheduled"]
    cancelled_tours = [t for t in tours if T[t]["status"] == "cancelled"]
    future = [t for t in sched if days(t) >= 0]
    bookable = [t for t in sched if days(t) >= 2]
    too_close = [t for t in sched if days(t) in (0, 1)]
    past = [t for t in sched if days(t) < 0]
    cancellable_tours = [t for t in sched if days(t) >= 1]
    custs = sorted(CU)
    active = [c for c in custs if CU[c]["status"] == "active"]
    susp = [c for c in custs if CU[c]["status"] != "active"]
    open_pairs = {(b["tour_id"], b["customer_id"]) for b in B.values() if b["status"] in ("pending", "confirmed")}
    bks = sorted(B)

    def bl(pred):
        return [k for k in bks if pred(B[k])]

    def bdays(b):
        return days(b["tour_id"])

    pay_ok = bl(lambda b: b["status"] == "pending" and b["deposit_due"] > 0 and b["amount_paid"] == 0 and bdays(b) >= 0)
    pay_done = bl(lambda b: b["status"] == "pending" and b["amount_paid"] > 0)
    pay_zero = bl(lambda b: b["status"] == "pending" and b["deposit_due"] == 0)
    conf_ok = bl(lambda b: b["status"] == "pending" and b["amount_paid"] >= b["deposit_due"] and bdays(b) >= 0
                 and T[b["tour_id"]]["guide_id"])
    conf_noguide = bl(lambda b: b["status"] == "pending" and b["amount_paid"] >= b["deposit_due"] and bdays(b) >= 0
                      and not T[b["tour_id"]]["guide_id"])
    conf_unpaid = bl(lambda b: b["status"] == "pending" and b["amount_paid"] < b["deposit_due"])
    opened = bl(lambda b: b["status"] in ("pending", "confirmed"))
    change_ok = [k for k in opened if bdays(B[k]) >= 2]
    change_late = [k for k in opened if bdays(B[k]) < 2]
    closed = bl(lambda b: b["status"] in ("cancelled", "attended", "no_show"))
    cancel_ok = [k for k in opened if bdays(B[k]) >= 0]
    cancel_past = [k for k in opened if bdays(B[k]) < 0]
    att_ok = bl(lambda b: b["status"] == "confirmed" and -14 <= bdays(b) <= 0)
    att_future = bl(lambda b: b["status"] == "confirmed" and bdays(b) > 0)
    att_stale = bl(lambda b: b["status"] == "confirmed" and bdays(b) < -14)
    pending = bl(lambda b: b["status"] == "pending")

    def eligible(tid):
        t = T[tid]
        out = []
        for g in sorted(G):
            gg = G[g]
            if gg["status"] != "active" or t["language"] not in gg["languages"] or g == t["guide_id"]:
                continue
            if t["capacity"] > 30 and not gg["senior"]:
                continue
            if any(o["guide_id"] == g and o["date"] == t["date"] and o["status"] == "scheduled" and o["tour_id"] != tid
                   for o in T.values()):
                continue
            out.append(g)
        return out

    def group(ctype, room):
        """participants/chaperones that fit `room` places and the chaperone rules, or None."""
        for _ in range(20):
            p = rng.randint(5, max(5, min(30, room)))
            ch = _ceil(p, 15) + rng.randint(0, 2) if ctype == "school" else rng.randint(0, 3)
            if p + ch <= room and ch <= 10:
                return p, ch
        return None

    def valid(tool):
        if tool == "list_tours":
            a = {}
            if rng.random() < 0.5:
                lo = today + dt.timedelta(days=rng.randint(-40, 50))
                a["date_from"] = lo.isoformat()
                if rng.random() < 0.6:
                    a["date_to"] = (lo + dt.timedelta(days=rng.randint(0, 30))).isoformat()
            elif rng.random() < 0.3:
                a["date_to"] = (today + dt.timedelta(days=rng.randint(-10, 30))).isoformat()
            if rng.random() < 0.3:
                a["program"] = C(PROGRAMS)
            if rng.random() < 0.3:
                a["language"] = C(LANGS)
            if rng.random() < 0.25:
                a["status"] = C(["scheduled", "cancelled"])
            if rng.random() < 0.3:
                a["min_free_places"] = rng.randint(1, 25)
            if rng.random() < 0.25:
                w = C(T[C(tours)]["title"].split())
                a["q"] = C([w.lower(), w.upper(), w[:4]])
            return a
        if tool == "get_tour":
            return {"tour_id": C(tours)}
        if tool == "assign_guide":
            for _ in range(10):
                tid = C(future)
                el = eligible(tid)
                if el:
                    return {"tour_id": tid, "guide_id": C(el)}
            return None
        if tool == "cancel_tour":
            return {"tour_id": C(cancellable_tours), "reason": C(TOUR_NOTES)}
        if tool == "get_customer":
            return {"customer_id": C(custs)}
        if tool == "list_payments":
            a = {"customer_id": C(custs)}
            if rng.random() < 0.4:
                a["kind"] = C(["deposit", "refund"])
            return a
        if tool == "list_bookings":
            a = {}
            if rng.random() < 0.5:
                a["customer_id"] = C(custs)
            if rng.random() < 0.4:
                a["tour_id"] = C(tours)
            if rng.random() < 0.5:
                a["status"] = C(["pending", "confirmed", "cancelled", "attended", "no_show"])
            return a
        if tool == "get_booking":
            return {"booking_id": C(bks)}
        if tool == "create_booking":
            for _ in range(20):
                tid, cid = C(bookable), C(active)
                if (tid, cid) in open_pairs:
                    continue
                g = group(CU[cid]["type"], free(tid))
                if g:
                    a = {"tour_id": tid, "customer_id": cid, "participants": g[0]}
                    if g[1] or rng.random() < 0.5:
                        a["chaperones"] = g[1]
                    return a
            return None
        if tool == "pay_deposit":
            b = B[C(pay_ok)]
            return {"booking_id": b["booking_id"], "amount": b["deposit_due"]}
        if tool == "confirm_booking":
            return {"booking_id": C(conf_ok)}
        if tool == "update_headcount":
            for _ in range(10):
                b = B[C(change_ok)]
                ctype = CU[b["customer_id"]]["type"]
                g = group(ctype, free(b["tour_id"]) + b["places"])
                if not g:
                    continue
                if rng.random() < 0.3 and ctype != "school":
                    p = max(5, b["participants"] + rng.choice([-3, -1, 1, 2]))
                    if p + b["chaperones"] <= free(b["tour_id"]) + b["places"]:
                        return {"booking_id": b["booking_id"], "participants": p}
                return {"booking_id": b["booking_id"], "participants": g[0], "chaperones": g[1]}
            return None
        if tool == "cancel_booking":
            return {"booking_id": C(cancel_ok), "reason": C(REASONS)}
        if tool == "record_attendance":
            b = B[C(att_ok)]
            return {"booking_id": b["booking_id"],
                    "attended_count": C([0, b["places"], rng.randint(1, b["places"])])}

    def invalid(tool):
        if tool == "list_tours":
            return C([{"date_from": "14/05/2025"}, {"date_from": "2025-06-30", "date_to": "2025-06-01"},
                      {"program": "sculpture"}, {"language": "it"}, {"min_free_places": 0},
                      {"status": "open"}, {"date_to": "2025-02-30"}, {"q": "  "}])
        if tool == "get_tour":
            return {"tour_id": C(["T9999", "t1001", "T100", 1001])}
        if tool == "assign_guide":
            k = rng.randrange(7)
            if k == 0:
                return {"tour_id": C(cancelled_tours), "guide_id": C(sorted(G))}
            if k == 1:
                return {"tour_id": C(past), "guide_id": C(sorted(G))}
            if k == 2:
                return {"tour_id": C(future), "guide_id": C([g for g in G if G[g]["status"] != "active"])}
            if k == 3:
                tid = C(future)
                bad = [g for g in G if T[tid]["language"] not in G[g]["languages"]
                       or (T[tid]["capacity"] > 30 and not G[g]["senior"])]
                if bad:
                    return {"tour_id": tid, "guide_id": C(bad)}
            if k == 4:
                pairs = [(t, o["guide_id"]) for t in future for o in T.values()
                         if o["tour_id"] != t and o["date"] == T[t]["date"] and o["guide_id"] and o["status"] == "scheduled"]
                if pairs:
                    t, g = C(pairs)
                    return {"tour_id": t, "guide_id": g}
            if k == 5:
                withg = [t for t in future if T[t]["guide_id"]]
                t = C(withg)
                return {"tour_id": t, "guide_id": T[t]["guide_id"]}
            return C([{"tour_id": C(future), "guide_id": "G99"}, {"tour_id": "T0001", "guide_id": "G01"},
                      {"tour_id": C(future)}])
        if tool == "cancel_tour":
            k = rng.randrange(4)
            if k == 0:
                return {"tour_id": C(cancelled_tours), "reason": "Low demand"}
            if k == 1:
                return {"tour_id": C(past + [t for t in sched if days(t) == 0]), "reason": "Low demand"}
            if k == 2:
                return {"tour_id": C(cancellable_tours), "reason": C(["", "   ", None])}
            return {"tour_id": "T5000", "reason": "Low demand"}
        if tool == "get_customer":
            return {"customer_id": C(["C9999", "c0001", "C001", ""])}
        if tool == "list_payments":
            return C([{"customer_id": "C0999"}, {"customer_id": C(custs), "kind": "balance"}, {}])
        if tool == "list_bookings":
            return C([{"customer_id": "C7777"}, {"tour_id": "T0042"}, {"status": C(["open", "Pending", "done"])}])
        if tool == "get_booking":
            return {"booking_id": C(["B99999", "B3000", "b30001"])}
        if tool == "create_booking":
            k = rng.randrange(9)
            tid, cid = C(bookable), C(active)
            a = {"tour_id": tid, "customer_id": cid, "participants": 8, "chaperones": 2}
            if k == 0:
                a["customer_id"] = C(susp)
            elif k == 1:
                a["tour_id"] = C(cancelled_tours)
            elif k == 2:
                a["tour_id"] = C(too_close + past)
            elif k == 3:
                t, c = C(sorted(open_pairs))
                a.update(tour_id=t, customer_id=c)
                if CU[c]["status"] != "active":
                    a["customer_id"] = c
            elif k == 4:
                a.update(participants=free(tid) + rng.randint(0, 5), chaperones=2)
            elif k == 5:
                a["participants"] = C([0, 3, 4, -2])
            elif k == 6:
                a["chaperones"] = C([11, 15, -1])
            elif k == 7:
                schools = [c for c in active if CU[c]["type"] == "school"]
                a.update(customer_id=C(schools), participants=rng.randint(16, 25), chaperones=1)
            else:
                a["participants"] = C([12.5, "12", None])
            return a
        if tool == "pay_deposit":
            k = rng.randrange(5)
            if k == 0:
                b = B[C(pay_ok)]
                return {"booking_id": b["booking_id"],
                        "amount": C([round(b["deposit_due"] + 0.01, 2), round(b["deposit_due"] / 2, 2),
                                     b["total_amount"], b["deposit_due"] + 0.001, 0])}
            if k == 1 and pay_done:
                b = B[C(pay_done)]
                return {"booking_id": b["booking_id"], "amount": b["deposit_due"]}
            if k == 2 and pay_zero:
                return {"booking_id": C(pay_zero), "amount": 10}
            if k == 3:
                b = B[C(closed + [x for x in opened if B[x]["status"] == "confirmed"])]
                return {"booking_id": b["booking_id"], "amount": b["deposit_due"] or 10}
            return C([{"booking_id": "B12345", "amount": 50}, {"booking_id": C(pay_ok)}])
        if tool == "confirm_booking":
            return {"booking_id": C(C([conf_noguide, conf_unpaid, closed,
                                       [x for x in opened if B[x]["status"] == "confirmed"],
                                       [x for x in pending if bdays(B[x]) < 0] or closed]))}
        if tool == "update_headcount":
            k = rng.randrange(5)
            if k == 0:
                return {"booking_id": C(closed), "participants": 10}
            if k == 1:
                return {"booking_id": C(change_late), "participants": 6}
            b = B[C(change_ok)]
            if k == 2:
                return {"booking_id": b["booking_id"],
                        "participants": free(b["tour_id"]) + b["places"] + rng.randint(1, 6)}
            if k == 3:
                return {"booking_id": b["booking_id"], "participants": C([2, 4, 0]), "chaperones": 1}
            schools = [x for x in change_ok if CU[B[x]["customer_id"]]["type"] == "school"]
            return {"booking_id": C(schools), "participants": 20, "chaperones": C([0, 1])}
        if tool == "cancel_booking":
            k = rng.randrange(4)
            if k == 0:
                return {"booking_id": C(closed), "reason": C(REASONS)}
            if k == 1:
                return {"booking_id": C(cancel_past), "reason": "illness"}
            if k == 2:
                return {"booking_id": C(cancel_ok), "reason": C(["tour_cancelled", "bored", ""])}
            return {"booking_id": "B40000", "reason": "other"}
        if tool == "record_attendance":
            k = rng.randrange(5)
            if k == 0:
                return {"booking_id": C(att_future), "attended_count": 5}
            if k == 1:
                return {"booking_id": C(att_stale), "attended_count": 5}
            if k == 2:
                return {"booking_id": C(pending + closed), "attended_count": 3}
            b = B[C(att_ok)]
            if k == 3:
                return {"booking_id": b["booking_id"], "attended_count": C([b["places"] + 1, -1, 40])}
            return {"booking_id": b["booking_id"], "attended_count": C([None, 7.5, "7"])}

    tools = ["list_tours", "get_tour", "assign_guide", "cancel_tour", "get_customer", "list_payments",
             "list_bookings", "get_booking", "create_booking", "pay_deposit", "confirm_booking",
             "update_headcount", "cancel_booking", "record_attendance"]
    weights = [1.5, 1, 2, 2, 1, 1, 1.5, 1, 3, 2, 2, 2.5, 2, 2]
    out = []
    while len(out) < n:
        tool = rng.choices(tools, weights)[0]
        try:
            args = valid(tool) if rng.random() < 0.6 else invalid(tool)
        except IndexError:  # a candidate pool is empty (only on a heavily changed start state)
            args = None
        if args is not None:
            out.append((tool, args))
    return out
