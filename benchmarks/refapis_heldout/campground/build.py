"""Builds db.json for the Larkspur Canyon campground reservation API (stdlib only, fixed seed)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

SEED = 20250709
TODAY = dt.date(2025, 7, 9)
CENT = Decimal("0.01")
RES_FEE = Decimal("8.00")
PERMIT_FEES = {"campfire": Decimal("5.00"), "generator": Decimal("4.00"),
               "extra_vehicle": Decimal("10.00")}
FIRE_BAN_LOOPS = ["C"]
CLOSED = {"A12": ("Hazard tree removal after windstorm", TODAY - dt.timedelta(days=6)),
          "D06": ("Roof repair", TODAY - dt.timedelta(days=11))}
FIRST = ["Avery", "Blake", "Carmen", "Dmitri", "Elena", "Farah", "Gavin", "Hana", "Isaac", "Jolene",
         "Kenji", "Leona", "Marcus", "Nadia", "Owen", "Priya", "Quinn", "Rosa", "Samir", "Tessa",
         "Ulrich", "Vera", "Wade", "Ximena", "Yusuf", "Zoe", "Luis", "Mei", "Noah", "Ingrid"]
LAST = ["Alvarez", "Brennan", "Castillo", "Dunmore", "Eriksen", "Fontaine", "Garza", "Holloway",
        "Iverson", "Jablonski", "Kowalski", "Lindqvist", "Morrow", "Nakamura", "Okafor",
        "Pellegrini", "Quintero", "Redfield", "Sandoval", "Thornbury", "Underhill", "Vasquez",
        "Whitlock", "Yamada", "Zeller", "McAllister", "Oduya", "Harlan", "Silversmith", "Beck"]
REASONS = ["change_of_plans", "weather", "illness", "other"]


def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def f2(x):
    return float(q2(x))


def nightly(site, camper, arr, dep):
    base = Decimal(0)
    d = arr
    while d < dep:
        base += Decimal(str(site["nightly_rate"])) + (Decimal("5.00") if d.weekday() in (4, 5) else 0)
        d += dt.timedelta(days=1)
    disc = Decimal(0)
    if camper["pass_type"] != "none" and site["site_type"] in ("tent", "rv"):
        disc = q2(base * Decimal("0.5"))
    return base - disc, disc


def sites():
    out = {}

    def add(sid, loop, stype, occ, veh, rate, elec, acc):
        out[sid] = {"site_id": sid, "loop": loop, "site_type": stype, "max_occupancy": occ,
                    "max_vehicles": veh, "nightly_rate": rate, "electric_hookup": elec,
                    "accessible": acc, "status": "open", "closed_reason": None,
                    "current_reservation_id": None}
    for i in range(1, 13):
        add(f"A{i:02d}", "A", "tent", 6, 1, 24.0, False, i in (1, 2, 7))
    for i in range(1, 13):
        elec = i <= 6
        add(f"B{i:02d}", "B", "rv", 8, 2, 44.0 if elec else 36.5, elec, i in (1, 8))
    for i in range(1, 9):
        add(f"C{i:02d}", "C", "tent", 6, 2, 27.5, False, i == 3)
    add("C09", "C", "group", 30, 6, 90.0, False, True)
    add("C10", "C", "group", 20, 4, 75.0, False, False)
    for i in range(1, 7):
        big = i >= 5
        add(f"D{i:02d}", "D", "cabin", 6 if big else 4, 1, 85.0 if big else 72.0, True, i == 1)
    return out


def main():
    rng = random.Random(SEED)
    S = sites()
    campers = {}
    used_emails = set()
    for i in range(1, 61):
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        email = f"{fn}.{ln}@example.com".lower()
        n = 2
        while email in used_emails:
            email = f"{fn}.{ln}{n}@example.com".lower()
            n += 1
        used_emails.add(email)
        r = rng.random()
        cid = f"CMP{i:04d}"
        campers[cid] = {"camper_id": cid, "full_name": f"{fn} {ln}", "email": email,
                        "phone": f"+1-406-555-{rng.randint(1000, 9999)}" if rng.random() < 0.85 else None,
                        "pass_type": "senior" if r < 0.17 else "access" if r < 0.24 else "none",
                        "status": "active", "no_show_count": 0, "stays_completed": 0,
                        "created_on": (TODAY - dt.timedelta(days=rng.randint(60, 1400))).isoformat()}
    cids = sorted(campers)
    for cid in rng.sample(cids, 3):
        campers[cid]["status"] = "suspended"

    # stays per site, in date order
    stays = []
    for sid in sorted(S):
        group = S[sid]["site_type"] == "group"

        def length():
            return rng.choice([1, 2, 3]) if group else rng.choice([1, 2, 2, 3, 3, 3, 4, 5, 7])
        arr = TODAY + dt.timedelta(days=rng.choice([-4, -3, -2, -1, -1, 0, 0, 0, 1, 2, 3, 6]))
        site_stays = []
        d = arr
        while d <= TODAY + dt.timedelta(days=28):
            dep = d + dt.timedelta(days=length())
            site_stays.append((sid, d, dep))
            d = dep + dt.timedelta(days=rng.randint(6, 34))
        dep = arr - dt.timedelta(days=rng.randint(0, 12))
        while dep > TODAY - dt.timedelta(days=34):
            a0 = dep - dt.timedelta(days=length())
            site_stays.append((sid, a0, dep))
            dep = a0 - dt.timedelta(days=rng.randint(6, 34))
        stays.extend(sorted(site_stays, key=lambda x: x[1]))
    assert len(stays) <= 150, len(stays)

    res = []
    booked = {c: [] for c in cids}       # camper -> [(arr, dep, status)]
    overstays = 0
    for sid, arr, dep in stays:
        site = S[sid]
        closed = CLOSED.get(sid)
        if closed and arr < closed[1] < dep:
            continue
        if closed and arr >= closed[1]:
            status = "cancelled_closed"
        elif dep <= TODAY:
            if overstays < 2 and TODAY - dt.timedelta(days=2) <= dep < TODAY and site["current_reservation_id"] is None:
                status = "checked_in"        # party still on site after departure day
                overstays += 1
            elif dep == TODAY and site["current_reservation_id"] is None and rng.random() < 0.6:
                status = "checked_in"
            elif dep >= TODAY - dt.timedelta(days=4) and rng.random() < 0.4:
                status = "reserved"          # not yet processed as a no-show
            else:
                status = rng.choices(["checked_out", "no_show", "cancelled"], [75, 10, 15])[0]
        elif arr <= TODAY:
            if site["current_reservation_id"] is not None:
                status = "reserved"
            elif arr == TODAY:
                status = rng.choice(["reserved", "reserved", "checked_in"])
            else:
                status = rng.choices(["checked_in", "reserved", "cancelled"], [60, 35, 5])[0]
        else:
            status = rng.choices(["reserved", "cancelled"], [85, 15])[0]
        if status == "reserved" and dep <= TODAY and site["current_reservation_id"] is not None:
            status = "checked_out"
        if status == "cancelled" and arr <= TODAY:
            status = "checked_out" if dep <= TODAY else "checked_in"
        active = status in ("reserved", "checked_in")

        def ok(c):
            if active and campers[c]["status"] != "active":
                return False
            if status == "reserved" and sum(1 for b in booked[c] if b[2] == "reserved") >= 3:
                return False
            return not any(b[0] < dep and arr < b[1] for b in booked[c] if b[2] != "cancelled")
        pool = [c for c in cids if ok(c)]
        # a few regulars book often
        cid = rng.choice(pool[:8] if rng.random() < 0.3 and pool[:8] else pool)
        if status == "cancelled_closed":
            booked[cid].append((arr, dep, "cancelled"))
        else:
            booked[cid].append((arr, dep, status))
        camper = campers[cid]
        if site["site_type"] == "group":
            party = rng.randint(8, site["max_occupancy"])
        else:
            party = rng.randint(1, min(site["max_occupancy"], 6))
        vehicles = rng.randint(1, site["max_vehicles"])
        fees, disc = nightly(site, camper, arr, dep)
        lead = rng.randint(3, 110)
        booked_on = min(arr - dt.timedelta(days=lead), TODAY - dt.timedelta(days=rng.randint(0, 50)))
        if closed:
            booked_on = min(booked_on, closed[1] - dt.timedelta(days=1))
        r = {"reservation_id": None, "camper_id": cid, "site_id": sid,
             "arrival_date": arr.isoformat(), "departure_date": dep.isoformat(),
             "nights": (dep - arr).days, "party_size": party, "vehicles": vehicles,
             "status": status, "nightly_fees": f2(fees), "discount_amount": f2(disc),
             "reservation_fee": f2(RES_FEE), "permit_fees": 0.0, "late_fee": 0.0,
             "amount_paid": 0.0, "refund_amount": 0.0,
             "date_changes": rng.choices([0, 1, 2], [65, 20, 15])[0] if status != "cancelled_closed" else 0,
             "booked_on": booked_on.isoformat(), "checked_in_on": None, "checked_out_on": None,
             "cancelled_on": None, "cancel_reason": None}
        res.append(r)
        if status == "checked_in":
            site["current_reservation_id"] = r  # replaced by the id below
    # ids in booking order
    res.sort(key=lambda r: (r["booked_on"], r["arrival_date"], r["site_id"]))
    reservations = {}
    for i, r in enumerate(res, 1):
        r["reservation_id"] = f"RES{i:04d}"
        reservations[r["reservation_id"]] = r
    for s in S.values():
        if s["current_reservation_id"] is not None:
            s["current_reservation_id"] = s["current_reservation_id"]["reservation_id"]

    # permits
    permits = []
    for r in res:
        site = S[r["site_id"]]
        st = r["status"]
        if rng.random() > 0.35:
            continue
        types = []
        if site["site_type"] != "cabin" and site["loop"] not in FIRE_BAN_LOOPS:
            types.append("campfire")
        if site["site_type"] == "rv":
            types.append("generator")
        if r["vehicles"] == site["max_vehicles"]:
            types.append("extra_vehicle")
        if not types:
            continue
        for pt in rng.sample(types, rng.randint(1, len(types))):
            fee = PERMIT_FEES[pt] * (r["nights"] if pt != "campfire" else 1)
            plate = None
            if pt == "extra_vehicle":
                plate = f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(100, 9999)}"
                r["vehicles"] += 1
            issued = dt.date.fromisoformat(r["booked_on"]) + dt.timedelta(days=rng.randint(0, 3))
            issued = min(issued, TODAY, dt.date.fromisoformat(r["arrival_date"]))
            permits.append({"permit_id": None, "reservation_id": r["reservation_id"],
                            "permit_type": pt, "vehicle_plate": plate, "fee": f2(fee),
                            "status": "void" if st in ("cancelled", "no_show", "cancelled_closed") else "issued",
                            "issued_on": issued.isoformat(), "valid_from": r["arrival_date"],
                            "valid_to": r["departure_date"]})
            r["permit_fees"] = f2(Decimal(str(r["permit_fees"])) + fee)
    permits.sort(key=lambda p: (p["issued_on"], p["reservation_id"], p["permit_type"]))
    pdict = {}
    for i, p in enumerate(permits, 1):
        p["permit_id"] = f"PMT{i:04d}"
        pdict[p["permit_id"]] = p

    # money and life-cycle dates
    for r in res:
        arr, dep = dt.date.fromisoformat(r["arrival_date"]), dt.date.fromisoformat(r["departure_date"])
        fees = Decimal(str(r["nightly_fees"]))
        paid = fees + RES_FEE + Decimal(str(r["permit_fees"]))
        r["amount_paid"] = f2(paid)
        st = r["status"]
        if st in ("checked_in", "checked_out"):
            r["checked_in_on"] = (arr + dt.timedelta(days=1 if rng.random() < 0.15 and r["nights"] > 1 and arr < TODAY else 0)).isoformat()
        if st == "checked_out":
            out = dep
            if rng.random() < 0.12 and r["nights"] > 1:
                out = dep - dt.timedelta(days=rng.randint(1, r["nights"] - 1))
                out = max(out, dt.date.fromisoformat(r["checked_in_on"]))
                unused = (dep - out).days
                r["refund_amount"] = f2(fees * unused / r["nights"])
            r["checked_out_on"] = out.isoformat()
        if st == "cancelled":
            lo = dt.date.fromisoformat(r["booked_on"])
            hi = min(arr, TODAY)
            when = lo + dt.timedelta(days=rng.randint(0, max(0, (hi - lo).days)))
            days = (arr - when).days
            pct = Decimal("1") if days >= 14 else Decimal("0.8") if days >= 2 else Decimal("0.5")
            r.update(cancelled_on=when.isoformat(), cancel_reason=rng.choice(REASONS),
                     refund_amount=f2(q2(fees * pct) + Decimal(str(r["permit_fees"]))))
        if st == "cancelled_closed":
            r.update(status="cancelled", cancelled_on=CLOSED[r["site_id"]][1].isoformat(),
                     cancel_reason="site_closed", refund_amount=r["amount_paid"])
        if st != "reserved":
            r["date_changes"] = 0 if st == "cancelled_closed" else r["date_changes"]

    # camper counters
    for r in res:
        c = campers[r["camper_id"]]
        if r["status"] == "checked_out":
            c["stays_completed"] += 1
        if r["status"] == "no_show":
            c["no_show_count"] += 1
    for c in campers.values():
        c["stays_completed"] += rng.choice([0, 0, 1, 2, 3, 5])
        if c["status"] == "suspended":
            c["no_show_count"] = max(3, c["no_show_count"])
        else:
            c["no_show_count"] = min(2, c["no_show_count"] + rng.choices([0, 1], [85, 15])[0])
    late = [r for r in res if r["status"] == "reserved" and r["arrival_date"] < TODAY.isoformat()]
    for r in late[::3]:
        campers[r["camper_id"]]["no_show_count"] = 2
    for s, (reason, _) in CLOSED.items():
        S[s]["status"], S[s]["closed_reason"] = "closed", reason

    db = {"meta": {"today": TODAY.isoformat(), "park": "Larkspur Canyon National Park",
                   "office": "Larkspur Canyon Campground Reservations", "currency": "USD",
                   "fire_ban_loops": FIRE_BAN_LOOPS},
          "campsites": S, "campers": campers, "reservations": reservations, "permits": pdict}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as f:
        json.dump(db, f, indent=1)
    print({k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
