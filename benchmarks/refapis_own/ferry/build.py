"""Builds db.json for the ferry booking desk. Stdlib only, fixed seed."""
import json
import math
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

rng = random.Random(20250610)
TODAY = date(2025, 6, 10)

PORTS = ["Harbourton", "Kelmouth", "Brisa Island", "Stormness", "Port Alder",
         "Gullhaven", "Westray Pier", "Marrowby", "Colt Sound", "Inchkeld"]
VESSELS = [  # name, passenger capacity, vehicle deck spaces
    ("MV Aurora Bay", 320, 40), ("MV Northern Tern", 180, 18),
    ("MV Skerry Light", 90, 8), ("MV Puffin", 14, 2), ("MV Harbour Star", 240, 26)]
DISCOUNT = {"adult": 0, "child": 50, "senior": 30, "student": 20}
SPACES = {"car": 1, "van": 2, "motorcycle": 1}
FIRST = ["Ailsa", "Bram", "Catriona", "Duncan", "Eilidh", "Fergus", "Greer", "Hamish", "Isla",
         "Jonas", "Kirsty", "Lachlan", "Morag", "Niall", "Orla", "Padraig", "Rhona", "Sorley",
         "Tamsin", "Uisdean", "Vaila", "Wilma", "Xander", "Yvonne", "Zara", "Magnus", "Freya"]
LAST = ["MacLeod", "Sinclair", "Rendall", "Flett", "Harcus", "Tulloch", "Drever", "Linklater",
        "Baikie", "Isbister", "Spence", "Moar", "Scott", "Omand", "Groat", "Petrie", "Halcro"]


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def mult(peak):
    return Decimal("1.25") if peak else Decimal("1")


def pax_fare(route, peak, cat):
    return money(Decimal(str(route["adult_fare"])) * mult(peak) * Decimal(100 - DISCOUNT[cat]) / 100)


def veh_fare(route, peak, vtype):
    return money(Decimal(str(route["vehicle_surcharges"][vtype])) * mult(peak))


def reg_plate():
    letters = "ABCDEFGHJKLMNOPRSTVWXY"
    return ("".join(rng.choice(letters) for _ in range(2)) + str(rng.randint(10, 99))
            + "".join(rng.choice(letters) for _ in range(3)))


def main():
    db = {"meta": {"today": TODAY.isoformat(), "currency": "EUR", "booking_window_days": 90},
          "routes": {}, "sailings": {}, "customers": {}, "bookings": {}}

    # routes: 10 port pairs, both directions
    pairs = []
    while len(pairs) < 10:
        a, b = rng.sample(PORTS, 2)
        if (a, b) not in pairs and (b, a) not in pairs:
            pairs.append((a, b))
    n = 0
    for a, b in pairs:
        dur = rng.choice([35, 50, 75, 90, 120, 150])
        fare = round(rng.uniform(9, 38), 2)
        sur = {"car": round(rng.uniform(25, 60), 2), "motorcycle": 0.0, "van": 0.0}
        sur["motorcycle"] = round(sur["car"] * 0.45, 2)
        sur["van"] = round(sur["car"] * 1.7, 2)
        for o, d in ((a, b), (b, a)):
            n += 1
            rid = "RT%02d" % n
            db["routes"][rid] = {"route_id": rid, "origin": o, "destination": d,
                                 "duration_minutes": dur, "adult_fare": fare,
                                 "vehicle_surcharges": dict(sur), "status": "active"}
    for rid in ("RT07", "RT16"):
        db["routes"][rid]["status"] = "suspended"

    # sailings
    rids = sorted(db["routes"])
    for i in range(1, 121):
        sid = "SL%04d" % i
        if i <= 10:
            off = rng.choice([0, 1])
        else:
            off = rng.randint(-15, 100)
        d = TODAY + timedelta(days=off)
        vname, pcap, vcap = rng.choice(VESSELS)
        status = "departed" if off < 0 else "scheduled"
        reason = None
        if rng.random() < 0.06 and off >= -15:
            status, reason = "cancelled", rng.choice(["weather", "technical", "operational"])
        db["sailings"][sid] = {
            "sailing_id": sid, "route_id": rng.choice(rids), "departure_date": d.isoformat(),
            "departure_time": "%02d:%02d" % (rng.randint(6, 20), rng.choice([0, 15, 30, 45])),
            "vessel": vname, "peak": d.weekday() >= 4, "passenger_capacity": pcap,
            "passengers_booked": 0, "vehicle_spaces": vcap, "vehicle_spaces_booked": 0,
            "status": status, "cancel_reason": reason}

    # customers
    used = set()
    for i in range(1, 51):
        cid = "C%04d" % i
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in used:
                used.add((fn, ln))
                break
        dom = rng.choice(["mailbox.example", "islandnet.example", "post.example"])
        db["customers"][cid] = {
            "customer_id": cid, "name": "%s %s" % (fn, ln),
            "email": "%s.%s@%s" % (fn.lower(), ln.lower(), dom),
            "phone": "+44 7%03d %06d" % (rng.randint(100, 999), rng.randint(0, 999999)),
            "loyalty_points": rng.choice([0, 0, 50, 120, 340, 600, 980, 1500, 2250, 4100]),
            "status": "active",
            "joined_date": (TODAY - timedelta(days=rng.randint(30, 1500))).isoformat()}
    for cid in ("C0009", "C0027", "C0044"):
        db["customers"][cid]["status"] = "suspended"

    # bookings
    sids = sorted(db["sailings"])
    cids = sorted(db["customers"])
    active_pairs = set()
    regs = set()
    bn = 0
    tries = 0
    while bn < 130 and tries < 5000:
        tries += 1
        s = db["sailings"][rng.choice(sids)]
        route = db["routes"][s["route_id"]]
        cid = rng.choice(cids)
        if (cid, s["sailing_id"]) in active_pairs:
            continue
        sdate = date.fromisoformat(s["departure_date"])
        npax = rng.choice([1, 1, 2, 2, 2, 3, 4, 5])
        cats = ["adult"] + [rng.choice(["adult", "child", "child", "senior", "student"])
                            for _ in range(npax - 1)]
        if rng.random() < 0.15:
            cats[0] = "senior"
        vehicle = None
        if rng.random() < 0.45:
            vtype = rng.choice(["car", "car", "car", "van", "motorcycle"])
            plate = reg_plate()
            if plate in regs:
                continue
            vehicle = {"type": vtype, "registration": plate,
                       "surcharge": veh_fare(route, s["peak"], vtype)}
        spaces = SPACES[vehicle["type"]] if vehicle else 0
        if s["status"] != "cancelled":
            if s["passengers_booked"] + npax > s["passenger_capacity"]:
                continue
            if s["vehicle_spaces_booked"] + spaces > s["vehicle_spaces"]:
                continue
        cust = db["customers"][cid]
        names = [cust["name"]] + ["%s %s" % (rng.choice(FIRST), cust["name"].split()[1])
                                   for _ in range(npax - 1)]
        passengers = [{"name": nm, "category": c, "fare": pax_fare(route, s["peak"], c)}
                      for nm, c in zip(names, cats)]
        fare_total = money(sum(Decimal(str(p["fare"])) for p in passengers)
                           + (Decimal(str(vehicle["surcharge"])) if vehicle else 0))
        created = min(TODAY, sdate) - timedelta(days=rng.randint(1, 40))
        points = 0
        if rng.random() < 0.15 and fare_total >= 5:
            points = rng.choice([100, 200, 300, 500])
        changes = 1 if rng.random() < 0.12 else 0
        if changes and rng.random() < 0.3:
            changes = 2
        paid = money(Decimal(str(fare_total)) - Decimal(points) / 100 + 10 * changes)
        bn += 1
        bid = "BK%05d" % bn
        b = {"booking_id": bid, "customer_id": cid, "sailing_id": s["sailing_id"],
             "status": "confirmed", "passengers": passengers, "vehicle": vehicle,
             "fare_total": fare_total, "points_redeemed": points, "amount_paid": paid,
             "change_count": changes, "points_earned": 0, "created_date": created.isoformat(),
             "checked_in_date": None, "cancelled_date": None, "cancel_reason": None,
             "refund_amount": None}
        if s["status"] == "cancelled":
            b.update(status="cancelled", cancel_reason="operator_cancelled", refund_amount=paid,
                     cancelled_date=min(TODAY, sdate).isoformat())
        elif s["status"] == "departed":
            b.update(status="completed", checked_in_date=sdate.isoformat(),
                     points_earned=math.floor(paid))
        elif sdate <= TODAY + timedelta(days=1) and rng.random() < 0.5:
            b.update(status="checked_in", checked_in_date=TODAY.isoformat(),
                     points_earned=math.floor(paid))
        elif rng.random() < 0.12:
            cdate = created + timedelta(days=rng.randint(0, (TODAY - created).days))
            days = (sdate - cdate).days
            pct = 100 if days >= 30 else 75 if days >= 14 else 50 if days >= 3 else 0
            b.update(status="cancelled", cancelled_date=cdate.isoformat(),
                     cancel_reason=rng.choice(["change_of_plans", "illness", "weather", "other"]),
                     refund_amount=money(Decimal(str(paid)) * pct / 100))
        if b["status"] in ("confirmed", "checked_in", "completed"):
            s["passengers_booked"] += npax
            s["vehicle_spaces_booked"] += spaces
        if b["status"] in ("confirmed", "checked_in"):
            active_pairs.add((cid, s["sailing_id"]))
        if vehicle:
            regs.add(vehicle["registration"])
        db["bookings"][bid] = b

    # nearly fill the small MV Puffin sailings with group bookings so capacity limits bite
    for s in db["sailings"].values():
        if s["vessel"] != "MV Puffin" or s["status"] != "scheduled":
            continue
        extra_p = max(1, s["passenger_capacity"] - 1 - s["passengers_booked"])
        extra_v = s["vehicle_spaces"] - s["vehicle_spaces_booked"]
        if s["passengers_booked"] + extra_p > s["passenger_capacity"]:
            continue
        route = db["routes"][s["route_id"]]
        cid = next(c for c in cids if (c, s["sailing_id"]) not in active_pairs
                   and db["customers"][c]["status"] == "active")
        active_pairs.add((cid, s["sailing_id"]))
        name = db["customers"][cid]["name"]
        passengers = [{"name": name if k == 0 else "Group member %d" % k, "category": "adult",
                       "fare": pax_fare(route, s["peak"], "adult")} for k in range(extra_p)]
        vehicle = None
        if extra_v > 0:
            vt = "van" if extra_v >= 2 else "car"
            vehicle = {"type": vt, "registration": reg_plate(),
                       "surcharge": veh_fare(route, s["peak"], vt)}
        ft = money(sum(Decimal(str(p["fare"])) for p in passengers)
                   + (Decimal(str(vehicle["surcharge"])) if vehicle else 0))
        sdate = date.fromisoformat(s["departure_date"])
        bn += 1
        bid = "BK%05d" % bn
        db["bookings"][bid] = {
            "booking_id": bid, "customer_id": cid, "sailing_id": s["sailing_id"],
            "status": "confirmed", "passengers": passengers, "vehicle": vehicle,
            "fare_total": ft, "points_redeemed": 0, "amount_paid": ft, "change_count": 0,
            "points_earned": 0,
            "created_date": (min(TODAY, sdate) - timedelta(days=3)).isoformat(),
            "checked_in_date": None, "cancelled_date": None, "cancel_reason": None,
            "refund_amount": None}
        s["passengers_booked"] += extra_p
        s["vehicle_spaces_booked"] += extra_v

    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(out, "w") as f:
        json.dump(db, f, indent=1, sort_keys=False)


if __name__ == "__main__":
    main()
