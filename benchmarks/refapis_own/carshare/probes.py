"""Probe generator for the Wrenfield Wheels car-sharing API.

About 60% of the calls are drawn so that they should succeed on the start state (and, as far as the
generator can tell, still succeed after the calls drawn before them); the rest break one stated rule.
"""
import datetime as dt

FMT = "%Y-%m-%dT%H:%M"
WINDOW = {"basic": 14, "plus": 30}
LIMIT = {"basic": 2, "plus": 4}
NOTES = ["Scratch along the driver's door", "Wing mirror cracked", "Child seat strap frayed",
         "Dent in the tailgate", "Warning light for tyre pressure", "Coffee stain on the rear seat"]


def _ts(t):
    return t.strftime(FMT)


def _pt(s):
    return dt.datetime.strptime(s, FMT)


def probes(db, rng, n):
    today = dt.date.fromisoformat(db["meta"]["today"])
    T = db["meta"]["today"]
    M, V, R, INV, DR = (db[k] for k in ("members", "vehicles", "reservations", "invoices", "damage_reports"))
    mids, vids, rids, iids = sorted(M), sorted(V), sorted(R), sorted(INV)
    C = rng.choice
    used = set()
    busy_v, busy_m, held = {}, {}, {}
    for r in R.values():
        if r["status"] in ("booked", "active"):
            iv = (_pt(r["start"]), _pt(r["end"]), r["reservation_id"])
            busy_v.setdefault(r["vehicle_id"], []).append(iv)
            busy_m.setdefault(r["member_id"], []).append(iv)
        if r["status"] == "booked":
            held[r["member_id"]] = held.get(r["member_id"], 0) + 1
    by = {}
    for rid in rids:
        by.setdefault(R[rid]["status"], []).append(rid)
    booked = by.get("booked", [])
    upcoming = [r for r in booked if R[r]["start"][:10] >= T]
    stale = [r for r in booked if R[r]["start"][:10] < T]
    todays = [r for r in booked if R[r]["start"][:10] == T]
    later = [r for r in booked if R[r]["start"][:10] > T]
    active_r = by.get("active", [])
    closed_r = by.get("completed", []) + by.get("cancelled", []) + by.get("no_show", [])
    drivers = {R[r]["member_id"] for r in active_r}
    cutoff = today.replace(year=today.year - 3).isoformat()
    open_major = {d["vehicle_id"] for d in DR.values() if d["severity"] == "major" and d["status"] == "open"}
    major0, drivers0 = sorted(open_major), set(drivers)

    def clear(vid, mid, s, e, skip=None):
        return all(not (s < b and a < e) or x == skip for a, b, x in busy_v.get(vid, []) + busy_m.get(mid, []))

    def good_member(mid):
        m = M[mid]
        return m["status"] == "active" and m["balance"] <= 100 and held.get(mid, 0) < LIMIT[m["plan"]]

    def take(pool, key=None):
        free = [x for x in pool if x not in used and (key is None or key(x))]
        if not free:
            return None
        x = C(free)
        used.add(x)
        return x

    def slot(mid, vid, lo=0, hi=None):
        m = M[mid]
        hi = WINDOW[m["plan"]] if hi is None else hi
        for _ in range(40):
            s = dt.datetime.combine(today + dt.timedelta(days=rng.randint(lo, hi)),
                                    dt.time(rng.randint(6, 21), C([0, 30])))
            e = s + dt.timedelta(hours=C([1, 1.5, 2, 3, 4, 6, 8, 24, 48, 72]))
            if e.date().isoformat() <= m["licence_expiry"] and clear(vid, mid, s, e):
                return s, e
        return None

    def book_args():
        for _ in range(60):
            mid = C([m for m in mids if good_member(m)])
            okv = [v for v in vids if V[v]["status"] in ("available", "in_use")
                   and (V[v]["category"] != "van" or M[mid]["driving_since"] <= cutoff)]
            vid = C(okv)
            sl = slot(mid, vid)
            if sl:
                return mid, vid, sl[0], sl[1]
        return None

    def valid(tool):
        if tool == "search_members":
            m = M[C(mids)]
            part = C(m["name"].split() + [m["email"].split("@")[0]])
            q = part[rng.randint(0, 1):rng.randint(3, max(3, len(part)))]
            a = C([{"query": q.upper()}, {"query": q.lower()}, {"query": q}, {}, {"status": "suspended"},
                   {"plan": C(["basic", "plus"]), "query": C(["a", "E", "son"])}])
            return a
        if tool == "get_member":
            return {"member_id": C(mids)}
        if tool == "list_vehicles":
            return C([{}, {"station_id": C(sorted(db["stations"]))}, {"category": C(["van", "electric"])},
                      {"status": "available", "min_seats": C([1, 5, 7])}, {"status": "maintenance"}])
        if tool == "list_reservations":
            return C([{"member_id": C(mids)}, {"vehicle_id": C(vids), "status": "completed"},
                      {"status": C(["booked", "active", "no_show"])}, {"start_date": T},
                      {"start_date": (today + dt.timedelta(days=rng.randint(-5, 9))).isoformat(), "status": "booked"}])
        if tool == "list_invoices":
            return C([{"member_id": C(mids)}, {"status": "open"}, {"kind": C(["trip", "no_show_fee"])},
                      {"member_id": C(mids), "status": "paid"}, {}])
        if tool == "create_reservation":
            got = book_args()
            if not got:
                return None
            mid, vid, s, e = got
            iv = (s, e, "new")
            busy_v.setdefault(vid, []).append(iv)
            busy_m.setdefault(mid, []).append(iv)
            held[mid] = held.get(mid, 0) + 1
            return {"member_id": mid, "vehicle_id": vid, "start": _ts(s), "end": _ts(e)}
        if tool == "extend_reservation":
            for _ in range(30):
                rid = take(upcoming + active_r, lambda x: R[x]["extension_count"] < 2
                           and M[R[x]["member_id"]]["status"] == "active")
                if rid is None:
                    return None
                r = R[rid]
                s, e = _pt(r["start"]), _pt(r["end"])
                ne = e + dt.timedelta(minutes=30 * rng.randint(1, 6))
                if (ne - s).total_seconds() <= 72 * 3600 and ne.date().isoformat() <= M[r["member_id"]]["licence_expiry"] \
                        and clear(r["vehicle_id"], r["member_id"], e, ne, skip=rid):
                    for lst in (busy_v[r["vehicle_id"]], busy_m[r["member_id"]]):
                        lst.append((e, ne, rid))
                    return {"reservation_id": rid, "new_end": _ts(ne)}
            return None
        if tool == "cancel_reservation":
            rid = take(upcoming)
            if rid is None:
                return None
            a = {"reservation_id": rid}
            if rng.random() < 0.6:
                a["reason"] = C(["member_request", "plans_changed", "other"])
            return a
        if tool == "start_trip":
            rid = take(todays, lambda x: M[R[x]["member_id"]]["status"] == "active"
                       and M[R[x]["member_id"]]["licence_expiry"] >= T and R[x]["member_id"] not in drivers
                       and V[R[x]["vehicle_id"]]["status"] == "available")
            if rid is None:
                return None
            drivers.add(R[rid]["member_id"])
            return {"reservation_id": rid}
        if tool == "end_trip":
            rid = take(active_r)
            if rid is None:
                return None
            r = R[rid]
            s = _pt(r["start"])
            latest = dt.datetime.combine(today, dt.time(23, 59))
            span = int((latest - s).total_seconds() // 60)
            back = s + dt.timedelta(minutes=rng.randint(20, span))
            return {"reservation_id": rid, "returned_at": _ts(back),
                    "odometer_km": r["start_odometer_km"] + C([0, rng.randint(3, 60), rng.randint(60, 400)])}
        if tool == "mark_no_show":
            rid = take(stale)
            return None if rid is None else {"reservation_id": rid}
        if tool == "report_damage":
            vid = C([v for v in vids if V[v]["status"] != "retired"])
            mid = C(mids)
            a = {"vehicle_id": vid, "member_id": mid, "severity": "minor", "description": C(NOTES)}
            mine = [r for r in rids if R[r]["vehicle_id"] == vid]
            if mine and rng.random() < 0.4:
                rid = C(mine)
                a.update(member_id=R[rid]["member_id"], reservation_id=rid)
            if rng.random() < 0.2:
                v2 = take(vids, lambda v: V[v]["status"] in ("available", "maintenance") and v not in open_major)
                if v2:
                    open_major.add(v2)
                    a = {"vehicle_id": v2, "member_id": mid, "severity": "major",
                         "description": "Windscreen shattered by a falling branch"}
            return a
        if tool == "return_vehicle_to_service":
            vid = take(vids, lambda v: V[v]["status"] == "maintenance")
            return None if vid is None else {"vehicle_id": vid}
        if tool == "pay_invoice":
            iid = take(iids, lambda i: INV[i]["status"] == "open")
            return None if iid is None else {"invoice_id": iid, "payment_method": C(["card", "sepa_debit"])}

    def invalid(tool):
        if tool == "search_members":
            return C([{"status": "banned"}, {"plan": "gold"}, {"query": ""}, {"query": "ann", "nickname": "x"}])
        if tool == "get_member":
            return C([{"member_id": "M9999"}, {"member_id": "m0001"}, {}])
        if tool == "list_vehicles":
            return C([{"station_id": "ST99"}, {"category": "suv"}, {"min_seats": 0}, {"min_seats": "5"},
                      {"status": "parked"}])
        if tool == "list_reservations":
            return C([{"member_id": "M0999"}, {"status": "pending"}, {"start_date": "20-05-2025"},
                      {"vehicle_id": "V404"}, {"start_date": "2025-02-30"}])
        if tool == "list_invoices":
            return C([{"status": "overdue"}, {"kind": "fine"}, {"member_id": "M0000"}])
        if tool == "create_reservation":
            got = book_args()
            if not got:
                return None
            mid, vid, s, e = got
            a = {"member_id": mid, "vehicle_id": vid, "start": _ts(s), "end": _ts(e)}
            k = rng.randrange(16)
            if k == 0:
                a["member_id"] = "M0999"
            elif k == 1:
                a["vehicle_id"] = C(["V000", "V999", "v001"])
            elif k == 2:
                a["start"] = _ts(s + dt.timedelta(minutes=C([15, 45, 10])))
            elif k == 3:
                a["end"] = C([(e.strftime("%Y-%m-%d %H:%M")), e.strftime("%d/%m/%Y %H:%M"), "soon"])
            elif k == 4:
                a["end"] = _ts(s + dt.timedelta(minutes=C([0, 30, -60, 72 * 60 + 30, 96 * 60])))
            elif k == 5:
                s2 = dt.datetime.combine(today - dt.timedelta(days=rng.randint(1, 5)), dt.time(10, 0))
                a.update(start=_ts(s2), end=_ts(s2 + dt.timedelta(hours=2)))
            elif k == 6:
                s2 = dt.datetime.combine(today + dt.timedelta(days=WINDOW[M[mid]["plan"]] + rng.randint(1, 6)),
                                         dt.time(9, 0))
                a.update(start=_ts(s2), end=_ts(s2 + dt.timedelta(hours=3)))
            elif k == 7:
                a["member_id"] = C([m for m in mids if M[m]["status"] != "active"])
            elif k == 8:
                short = [m for m in mids if M[m]["licence_expiry"] < (today + dt.timedelta(days=14)).isoformat()]
                a["member_id"] = mid = C(short)
                s2 = dt.datetime.combine(dt.date.fromisoformat(M[mid]["licence_expiry"]) + dt.timedelta(days=1),
                                         dt.time(9, 0)) if M[mid]["licence_expiry"] >= T else s
                s2 = max(s2, dt.datetime.combine(today, dt.time(9, 0)))
                a.update(start=_ts(s2 - dt.timedelta(hours=2)), end=_ts(s2 + dt.timedelta(hours=2)))
            elif k == 9:
                a["member_id"] = C([m for m in mids if M[m]["balance"] > 100])
            elif k == 10:
                full = [m for m in mids if held.get(m, 0) >= LIMIT[M[m]["plan"]]]
                if not full:
                    return None
                a["member_id"] = C(full)
            elif k == 11:
                a["vehicle_id"] = C([v for v in vids if V[v]["status"] in ("maintenance", "retired")])
            elif k == 12:
                a["vehicle_id"] = C([v for v in vids if V[v]["category"] == "van" and V[v]["status"] == "available"])
                a["member_id"] = C([m for m in mids if M[m]["driving_since"] > cutoff and good_member(m)])
            elif k == 13:
                r = R[C(later)]
                s2 = _pt(r["start"]) + dt.timedelta(minutes=30)
                a.update(vehicle_id=r["vehicle_id"], start=_ts(s2), end=_ts(s2 + dt.timedelta(hours=2)))
            elif k == 14:
                r = R[C([x for x in later if good_member(R[x]["member_id"])])]
                s2 = _pt(r["start"]) - dt.timedelta(minutes=30)
                a.update(member_id=r["member_id"], start=_ts(s2), end=_ts(s2 + dt.timedelta(hours=1)))
            else:
                del a[C(["start", "end", "vehicle_id"])]
            return a
        if tool == "extend_reservation":
            k = rng.randrange(7)
            if k == 0:
                return {"reservation_id": C(closed_r), "new_end": _ts(_pt(T + "T12:00") + dt.timedelta(days=2))}
            if k == 1:
                return {"reservation_id": "R9999", "new_end": "2025-05-30T10:00"}
            r = R[C([x for x in upcoming + active_r if R[x]["extension_count"] < 2]
                    if k < 5 else [x for x in upcoming if R[x]["extension_count"] == 2] or upcoming)]
            e = _pt(r["end"])
            if k == 2:
                return {"reservation_id": r["reservation_id"], "new_end": _ts(e - dt.timedelta(minutes=C([0, 30])))}
            if k == 3:
                return {"reservation_id": r["reservation_id"], "new_end": _ts(e + dt.timedelta(minutes=C([20, 50])))}
            if k == 4:
                return {"reservation_id": r["reservation_id"],
                        "new_end": _ts(_pt(r["start"]) + dt.timedelta(hours=C([72.5, 80, 100])))}
            if k == 5:
                return {"reservation_id": r["reservation_id"], "new_end": _ts(e + dt.timedelta(hours=1))}
            nxt = [x for x in rids if R[x]["status"] == "booked" and R[x]["vehicle_id"] == r["vehicle_id"]
                   and R[x]["start"] >= r["end"] and x != r["reservation_id"]]
            if not nxt:
                return {"reservation_id": C(by["booked"]), "new_end": "2025-13-01T10:00"}
            first = min(nxt, key=lambda x: R[x]["start"])
            return {"reservation_id": r["reservation_id"],
                    "new_end": _ts(_pt(R[first]["start"]) + dt.timedelta(minutes=30))}
        if tool == "cancel_reservation":
            return C([{"reservation_id": C(stale)}, {"reservation_id": C(closed_r + active_r)},
                      {"reservation_id": "R0000"}, {"reservation_id": C(upcoming), "reason": "vehicle_unavailable"},
                      {"reservation_id": C(upcoming), "reason": C(["changed_mind", "MEMBER_REQUEST"])}])
        if tool == "start_trip":
            bad_today = [x for x in todays if M[R[x]["member_id"]]["status"] != "active"
                         or M[R[x]["member_id"]]["licence_expiry"] < T or R[x]["member_id"] in drivers0
                         or V[R[x]["vehicle_id"]]["status"] != "available"]
            return {"reservation_id": C(bad_today + later[:12] + stale + closed_r[:10] + active_r + ["R4040"])}
        if tool == "end_trip":
            r = R[C(active_r)]
            s = _pt(r["start"])
            a = {"reservation_id": r["reservation_id"], "returned_at": _ts(s + dt.timedelta(hours=1)),
                 "odometer_km": r["start_odometer_km"] + 25}
            k = rng.randrange(7)
            if k == 0:
                a["reservation_id"] = C(upcoming + closed_r)
            elif k == 1:
                a["returned_at"] = _ts(s - dt.timedelta(minutes=C([0, 30, 90])))
            elif k == 2:
                a["returned_at"] = _ts(dt.datetime.combine(today + dt.timedelta(days=1), dt.time(0, 30)))
            elif k == 3:
                a["odometer_km"] = r["start_odometer_km"] - C([1, 250])
            elif k == 4:
                a["odometer_km"] = r["start_odometer_km"] + C([1501, 4000])
            elif k == 5:
                a["odometer_km"] = C([str(a["odometer_km"]), a["odometer_km"] + 0.5])
            else:
                a["returned_at"] = C([T, T + " 14:00", T + "T14:00:00"])
            return a
        if tool == "mark_no_show":
            return {"reservation_id": C(todays + later[:15] + closed_r[:10] + active_r + ["R1234"])}
        if tool == "report_damage":
            vid = C([v for v in vids if V[v]["status"] == "available"])
            a = {"vehicle_id": vid, "member_id": C(mids), "severity": "minor", "description": C(NOTES)}
            k = rng.randrange(8)
            if k == 0:
                a["vehicle_id"] = C([v for v in vids if V[v]["status"] == "retired"])
            elif k == 1:
                a.update(vehicle_id=C([v for v in vids if V[v]["status"] == "in_use"]), severity="major")
            elif k == 2:
                a.update(vehicle_id=C(major0), severity="major")
            elif k == 3:
                other = [r for r in rids if R[r]["vehicle_id"] != vid]
                a["reservation_id"] = C(other)
            elif k == 4:
                a["severity"] = C(["critical", "Minor", "cosmetic"])
            elif k == 5:
                a["description"] = C(["", "   ", "x" * 501])
            elif k == 6:
                a[C(["vehicle_id", "member_id"])] = C(["V000", "M0000"])
            else:
                r = R[C([x for x in rids if R[x]["vehicle_id"] == vid] or rids)]
                a.update(vehicle_id=r["vehicle_id"], reservation_id=r["reservation_id"],
                         member_id=C([m for m in mids if m != r["member_id"]]))
            return a
        if tool == "return_vehicle_to_service":
            return {"vehicle_id": C([v for v in vids if V[v]["status"] != "maintenance"] + ["V100"])}
        if tool == "pay_invoice":
            open_i = [i for i in iids if INV[i]["status"] == "open"]
            return C([{"invoice_id": C([i for i in iids if INV[i]["status"] == "paid"]), "payment_method": "card"},
                      {"invoice_id": "I9999", "payment_method": "card"},
                      {"invoice_id": C(open_i), "payment_method": C(["cash", "bitcoin", "Card"])},
                      {"invoice_id": C(open_i)}])

    tools = ["search_members", "get_member", "list_vehicles", "list_reservations", "list_invoices",
             "create_reservation", "extend_reservation", "cancel_reservation", "start_trip", "end_trip",
             "mark_no_show", "report_damage", "return_vehicle_to_service", "pay_invoice"]
    weights = [1, 1, 1, 1, 1, 4, 3, 3, 2, 2, 2, 3, 1, 2]
    out = []
    while len(out) < n:
        tool = rng.choices(tools, weights)[0]
        args = valid(tool) if rng.random() < 0.66 else invalid(tool)
        if args is not None:  # a valid call whose candidates are used up is redrawn
            out.append((tool, args))
    return out
