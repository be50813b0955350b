"""Writes db.json for the Wrenfield Wheels car-sharing club (stdlib only, fixed seed)."""
import datetime as dt
import json
import os
import random
from collections import defaultdict
from decimal import Decimal, ROUND_HALF_UP

SEED = 7319
TODAY = dt.date(2025, 5, 20)
CENT = Decimal("0.01")
# category -> (hourly rate, daily cap, per-km rate)
TARIFF = {"compact": ("4.50", "39.00", "0.22"), "electric": ("5.00", "45.00", "0.15"),
          "family": ("6.00", "52.00", "0.26"), "van": ("8.50", "70.00", "0.32")}
MODELS = {"compact": [("Toyota", "Yaris", 5), ("Volkswagen", "Polo", 5), ("Renault", "Clio", 5),
                      ("Peugeot", "208", 5)],
          "electric": [("Renault", "Zoe", 5), ("Nissan", "Leaf", 5), ("Volkswagen", "ID.3", 5),
                       ("Kia", "e-Niro", 5)],
          "family": [("Skoda", "Octavia Combi", 5), ("Toyota", "Corolla Touring", 5), ("Opel", "Zafira", 7)],
          "van": [("Ford", "Transit Custom", 3), ("Renault", "Trafic", 3), ("Volkswagen", "Transporter", 3)]}
STATIONS = [("Abbey Road Car Park", "Old Town"), ("Bellfield Square", "Bellfield"),
            ("Canal Wharf", "Docklands"), ("Dovecote Lane", "Old Town"), ("Elm Terrace", "Northgate"),
            ("Fountain Street", "Old Town"), ("Granary Yard", "Docklands"), ("Hawthorn Close", "Bellfield"),
            ("Ivy Bridge", "Riverside"), ("Juniper Court", "Northgate"), ("Kestrel Park", "Riverside"),
            ("Library Place", "Old Town"), ("Market Hall", "Docklands"), ("Netherby Road", "Northgate"),
            ("Orchard Green", "Bellfield"), ("Pump House", "Riverside"), ("Quarry Hill", "Northgate"),
            ("Rope Walk", "Docklands"), ("Station Approach", "Riverside"), ("Tannery Mews", "Old Town")]
FIRST = ["Amira", "Ben", "Clara", "Dev", "Elena", "Finn", "Grace", "Hugo", "Ines", "Jonah", "Kaya",
         "Liam", "Maya", "Noor", "Oscar", "Priya", "Quinn", "Rosa", "Sami", "Tess", "Umar", "Vera",
         "Wes", "Yara", "Zoe", "Aidan", "Beatriz", "Callum"]
LAST = ["Ashworth", "Brennan", "Castillo", "Dunmore", "Eriksen", "Fairley", "Gallagher", "Hussain",
        "Iqbal", "Jansen", "Kowalski", "Lindqvist", "McAllister", "Novak", "Okafor", "Pereira",
        "Quigley", "Rahman", "Sorensen", "Thornton", "Ueda", "Varga", "Whitlock", "Young"]
DOMAINS = ["mailbox.test", "postnet.test", "wrenmail.test"]
DAMAGE_TEXT = {"minor": ["Scratch on rear bumper", "Small dent in passenger door", "Chipped wing mirror",
                         "Scuffed alloy wheel", "Torn seat cover in the back", "Crack in fog light cover"],
               "major": ["Windscreen cracked across driver's view", "Brake warning light stays on",
                         "Front bumper hanging loose after kerb strike", "Tyre blow-out, spare fitted",
                         "Engine misfires on start-up", "Side mirror torn off, glass missing"]}


def money(x):
    return Decimal(x).quantize(CENT, rounding=ROUND_HALF_UP)


def time_charge(cat, start, end):
    rate, cap, _ = (Decimal(v) for v in TARIFF[cat])
    hours = Decimal((end - start).total_seconds()) / Decimal(3600)
    days = int(hours // 24)
    rest = hours - 24 * days
    return money(days * cap + min(rest * rate, cap))


def stamp(t):
    return t.strftime("%Y-%m-%dT%H:%M")


def at(day, hour, minute=0):
    return dt.datetime.combine(day, dt.time(hour, minute))


def main():
    rng = random.Random(SEED)
    stations = {}
    for i, (name, district) in enumerate(STATIONS, 1):
        sid = f"ST{i:02d}"
        stations[sid] = {"station_id": sid, "name": name, "district": district,
                         "address": f"{rng.randint(1, 140)} {name}, Wrenfield",
                         "bays": rng.randint(2, 6)}
    sids = sorted(stations)

    vehicles = {}
    cats = ["compact"] * 16 + ["electric"] * 11 + ["family"] * 11 + ["van"] * 7
    rng.shuffle(cats)
    plates = set()
    for i, cat in enumerate(cats, 1):
        vid = f"V{i:03d}"
        make, model, seats = rng.choice(MODELS[cat])
        while True:
            plate = "".join(rng.choice("ABCDEFGHJKLMNPRSTWXY") for _ in range(2)) + \
                f"{rng.randint(10, 75)} " + "".join(rng.choice("ABCDEFGHJKLMNPRSTWXYZ") for _ in range(3))
            if plate not in plates:
                plates.add(plate)
                break
        odo = rng.randint(6000, 138000)
        vehicles[vid] = {"vehicle_id": vid, "plate": plate, "make": make, "model": model,
                         "category": cat, "seats": seats, "station_id": rng.choice(sids),
                         "status": "available", "odometer_km": odo,
                         "next_service_km": (odo // 15000 + 1) * 15000}
    vids = sorted(vehicles)
    for vid in ["V007", "V019", "V031", "V040"]:
        vehicles[vid]["status"] = "maintenance"
    for vid in ["V012", "V044"]:
        vehicles[vid]["status"] = "retired"
    for vid in ["V003", "V010", "V016", "V024", "V036", "V042"]:  # close to their service mileage
        v = vehicles[vid]
        v["odometer_km"] = v["next_service_km"] - rng.randint(25, 240)
    usable = [v for v in vids if vehicles[v]["status"] == "available"]

    members = {}
    names = set()
    for i in range(1, 49):
        mid = f"M{i:04d}"
        while True:
            first, last = rng.choice(FIRST), rng.choice(LAST)
            if (first, last) not in names:
                names.add((first, last))
                break
        members[mid] = {
            "member_id": mid, "name": f"{first} {last}",
            "email": f"{first}.{last}@{rng.choice(DOMAINS)}".lower(),
            "phone": f"+44 7700 9{rng.randint(10000, 99999)}",
            "plan": "plus" if rng.random() < 0.4 else "basic", "status": "active",
            "licence_expiry": dt.date(rng.randint(2026, 2034), rng.randint(1, 12), rng.randint(1, 28)).isoformat(),
            "driving_since": dt.date(rng.randint(1984, 2019), rng.randint(1, 12), rng.randint(1, 28)).isoformat(),
            "home_station_id": rng.choice(sids),
            "joined_on": (TODAY - dt.timedelta(days=rng.randint(20, 2200))).isoformat(),
            "balance": 0.0, "trips_count": rng.randint(0, 25), "no_show_count": 0}
    mids = sorted(members)
    for mid in ["M0005", "M0017", "M0029", "M0041"]:
        members[mid]["status"] = "suspended"
    for mid in ["M0011", "M0036"]:
        members[mid]["status"] = "closed"
    for mid, days in [("M0008", 3), ("M0022", 9), ("M0045", 6)]:  # licence runs out soon
        members[mid]["licence_expiry"] = (TODAY + dt.timedelta(days=days)).isoformat()
    for mid, days in [("M0014", 12), ("M0033", 40)]:  # licence already expired
        members[mid]["licence_expiry"] = (TODAY - dt.timedelta(days=days)).isoformat()
    for mid in ["M0003", "M0013", "M0020", "M0027", "M0038", "M0046", "M0048", "M0009"]:  # new drivers
        members[mid]["driving_since"] = (TODAY - dt.timedelta(days=rng.randint(120, 1000))).isoformat()
    members["M0002"]["plan"] = members["M0024"]["plan"] = "basic"
    members["M0006"]["plan"] = members["M0030"]["plan"] = "plus"
    active_m = [m for m in mids if members[m]["status"] == "active"
                and members[m]["licence_expiry"] > (TODAY + dt.timedelta(days=40)).isoformat()]

    busy_v, busy_m = defaultdict(list), defaultdict(list)
    res = []

    def free(vid, mid, s, e):
        return all(not (s < b and a < e) for a, b in busy_v[vid] + busy_m[mid])

    def add(mid, vid, s, e, status, **kw):
        busy_v[vid].append((s, e))
        busy_m[mid].append((s, e))
        r = {"member_id": mid, "vehicle_id": vid, "station_id": vehicles[vid]["station_id"],
             "start": s, "end": e, "status": status, "created_on": None,
             "extension_count": 0, "start_odometer_km": None, "end_odometer_km": None,
             "returned_at": None, "distance_km": None, "time_charge": None, "distance_charge": None,
             "late_fee": None, "total_charge": None, "cancellation_fee": None, "cancel_reason": None,
             "cancelled_on": None, "invoice_id": None}
        r.update(kw)
        res.append(r)
        return r

    def may_book(mid, vid):
        m = members[mid]
        held = sum(1 for r in res if r["member_id"] == mid and r["status"] == "booked")
        if held >= (4 if m["plan"] == "plus" else 2):
            return False
        return vehicles[vid]["category"] != "van" or m["driving_since"] <= "2022-05-20"

    def place(pool_m, pool_v, day_lo, day_hi, hours, status, tries=200, **kw):
        for _ in range(tries):
            mid, vid = rng.choice(pool_m), rng.choice(pool_v)
            if status == "booked" and not may_book(mid, vid):
                continue
            day = TODAY + dt.timedelta(days=rng.randint(day_lo, day_hi))
            s = at(day, rng.randint(7, 19), rng.choice([0, 30]))
            e = s + dt.timedelta(hours=rng.choice(hours))
            if free(vid, mid, s, e):
                return add(mid, vid, s, e, status, **kw)
        return None

    # trips under way: the vehicle is in use
    act_members = rng.sample(active_m, 6)
    act_vehicles = rng.sample([v for v in usable if v not in ("V003", "V010")], 6)
    for k, (mid, vid) in enumerate(zip(act_members, act_vehicles)):
        if k == 0:
            s, e = at(TODAY - dt.timedelta(days=1), 15, 0), at(TODAY, 9, 0)
        elif k == 1:
            s, e = at(TODAY - dt.timedelta(days=1), 9, 30), at(TODAY + dt.timedelta(days=1), 9, 30)
        else:
            s = at(TODAY, rng.randint(6, 10), rng.choice([0, 30]))
            e = s + dt.timedelta(hours=4 if k == 2 else rng.choice([2, 3, 4, 6, 8, 26]))
        add(mid, vid, s, e, "active", start_odometer_km=vehicles[vid]["odometer_km"])
        vehicles[vid]["status"] = "in_use"
    add("M0005", act_vehicles[0], at(TODAY, 12, 0), at(TODAY, 15, 0), "booked")  # suspended member
    add(rng.choice([m for m in active_m if m not in act_members]), act_vehicles[0],
        at(TODAY, 15, 30), at(TODAY, 19, 0), "booked")  # car not back yet
    add(act_members[2], "V003", at(TODAY, 17, 0), at(TODAY, 20, 0), "booked")  # member still driving
    add("M0008", "V010", at(TODAY, 11, 0), at(TODAY, 14, 0), "booked")
    add("M0014", rng.choice(usable), at(TODAY, 13, 0), at(TODAY, 16, 30), "booked")  # licence expired
    free_now = [v for v in usable if vehicles[v]["status"] == "available"]
    idle_m = [m for m in active_m if m not in act_members]
    for _ in range(7):  # bookings that start today
        place(idle_m, free_now, 0, 0, [2, 3, 4, 5, 6], "booked")
    for _ in range(4):  # and tomorrow
        place(idle_m, usable, 1, 1, [2, 3, 4, 5, 24], "booked")
    # stale bookings nobody picked up
    members["M0030"]["no_show_count"] = 2
    add("M0030", rng.choice(free_now), at(TODAY - dt.timedelta(days=1), 10, 0),
        at(TODAY - dt.timedelta(days=1), 13, 0), "booked")
    for _ in range(5):
        place(active_m + ["M0017"], usable, -2, -1, [2, 3, 4], "booked")
    # upcoming bookings, within each plan's window and booking limit
    for _ in range(60):
        mid = rng.choice(active_m + ["M0041"])
        window = 30 if members[mid]["plan"] == "plus" else 14
        place([mid], usable, 1, window, [1, 2, 3, 4, 6, 8, 24, 48], "booked", tries=20)
    # history
    for _ in range(52):
        place(mids, usable + ["V012", "V044"], -60, -1, [1.5, 2, 3, 4, 5, 6, 10, 24], "completed")
    for _ in range(6):
        place(mids, ["V007", "V019", "V031", "V040"], -60, -10, [2, 3, 4, 6], "completed")
    for mid in ["M0015", "M0026", "M0039"]:  # big recent unpaid trips
        place([mid], [v for v in usable if vehicles[v]["category"] == "family"], -6, -3, [48], "completed",
              unpaid=True)
    for _ in range(10):
        place(mids, usable, -45, 10, [2, 3, 4, 8, 24], "cancelled")
    for _ in range(7):
        place([m for m in mids if m not in ("M0030", "M0017", "M0041")], usable, -50, -3, [2, 3, 4, 6], "no_show")
    for mid in ["M0041", "M0041", "M0041", "M0017", "M0017", "M0017", "M0030", "M0030"]:
        place([mid], usable, -59, -4, [2, 3, 4], "no_show")
    members["M0030"]["no_show_count"] = 0
    damaged = {}
    for vid in ["V007", "V019", "V031", "V040"]:  # off the road since a major report
        damaged[vid] = TODAY - dt.timedelta(days=rng.randint(1, 8))
        for _ in range(2):
            r = place(mids, [vid], 1, 12, [3, 4, 24], "cancelled", cancel_reason="vehicle_unavailable")
            if r:
                r["cancelled_on"] = damaged[vid]

    # fill in the details
    invoices = []
    for r in res:
        s, e, st = r["start"], r["end"], r["status"]
        cat = vehicles[r["vehicle_id"]]["category"]
        lead = rng.randint(0, 12) if st != "active" else rng.randint(0, 5)
        created = s.date() - dt.timedelta(days=lead)
        r["created_on"] = min(created, TODAY)
        if st == "completed":
            late = rng.random() < 0.2
            ret = e + dt.timedelta(minutes=rng.choice([10, 40, 75])) if late else \
                e - dt.timedelta(minutes=rng.choice([0, 0, 15, 30]))
            if ret.date() >= TODAY:
                ret = e
            r["returned_at"] = ret
            dist = rng.randint(4, 90) if (e - s).total_seconds() < 36000 else rng.randint(120, 420)
            r["distance_km"] = dist
            tc = time_charge(cat, s, e)
            free_km = 50 if members[r["member_id"]]["plan"] == "plus" else 0
            dc = money(Decimal(max(0, dist - free_km)) * Decimal(TARIFF[cat][2]))
            over = (ret - e).total_seconds() / 60
            blocks = int(-(-over // 30)) if over > 0 else 0
            lf = money(Decimal("12.50") * blocks)
            r.update(time_charge=float(tc), distance_charge=float(dc), late_fee=float(lf),
                     total_charge=float(tc + dc + lf))
            unpaid = r.pop("unpaid", False)
            invoices.append((r, "trip", tc + dc + lf, ret.date(), unpaid))
            members[r["member_id"]]["trips_count"] += 1
        elif st == "cancelled":
            if r["cancel_reason"] is None:
                r["cancel_reason"] = rng.choice(["member_request", "member_request", "plans_changed", "other"])
                ahead = rng.choice([0, 1, 1, 2, 3, 5, 9])
                r["cancelled_on"] = min(s.date() - dt.timedelta(days=ahead), TODAY)
                r["created_on"] = min(r["created_on"], r["cancelled_on"])
            ahead = (s.date() - r["cancelled_on"]).days
            pct = {0: Decimal("0.50"), 1: Decimal("0.25")}.get(ahead, Decimal(0))
            if r["cancel_reason"] == "vehicle_unavailable":
                pct = Decimal(0)
            fee = money(time_charge(cat, s, e) * pct)
            r["cancellation_fee"] = float(fee)
            if fee > 0:
                invoices.append((r, "cancellation_fee", fee, r["cancelled_on"], False))
        elif st == "no_show":
            fee = time_charge(cat, s, e) + Decimal("15.00")
            invoices.append((r, "no_show_fee", fee, s.date() + dt.timedelta(days=1), False))
            members[r["member_id"]]["no_show_count"] += 1
    for r in res:
        if r["cancelled_on"] is not None and r["created_on"] > r["cancelled_on"]:
            r["created_on"] = r["cancelled_on"] - dt.timedelta(days=rng.randint(0, 3))
    for mid, m in members.items():
        assert m["status"] != "active" or m["no_show_count"] < 3, mid

    for r in res:  # some bookings were stretched once or twice
        if r["status"] in ("booked", "active", "completed") and r["cancel_reason"] is None:
            x = rng.random()
            r["extension_count"] = 2 if x < 0.06 else 1 if x < 0.2 else 0
    res.sort(key=lambda r: (r["created_on"], r["start"]))
    reservations = {}
    for i, r in enumerate(res, 1):
        rid = f"R{i:04d}"
        r["reservation_id"] = rid
        for k in ("start", "end", "returned_at"):
            if r[k] is not None:
                r[k] = stamp(r[k])
        for k in ("created_on", "cancelled_on"):
            if r[k] is not None:
                r[k] = r[k].isoformat()
        reservations[rid] = {"reservation_id": rid, **{k: v for k, v in r.items() if k != "reservation_id"}}

    # odometer history, newest trip first, walking back from today's reading
    for vid in vids:
        done = sorted((r for r in reservations.values() if r["vehicle_id"] == vid and r["status"] == "completed"),
                      key=lambda r: r["start"], reverse=True)
        cursor = vehicles[vid]["odometer_km"]
        for r in done:
            cursor -= rng.randint(0, 40)
            r["end_odometer_km"] = cursor
            r["start_odometer_km"] = cursor - r["distance_km"]
            cursor = r["start_odometer_km"]

    invoices.sort(key=lambda x: (x[3], x[0]["reservation_id"]))
    inv_out = {}
    for i, (r, kind, amount, issued, unpaid) in enumerate(invoices, 1):
        iid = f"I{i:04d}"
        age = (TODAY - issued).days
        paid = not unpaid and (age > 12 or rng.random() < 0.45)
        if r["member_id"] in ("M0017", "M0041") and kind == "no_show_fee":
            paid = False
        paid_on = min(issued + dt.timedelta(days=rng.randint(0, 6)), TODAY) if paid else None
        inv_out[iid] = {"invoice_id": iid, "member_id": r["member_id"], "reservation_id": r["reservation_id"],
                        "kind": kind, "amount": float(amount), "status": "paid" if paid else "open",
                        "issued_on": issued.isoformat(), "paid_on": paid_on.isoformat() if paid else None,
                        "payment_method": rng.choice(["card", "card", "sepa_debit"]) if paid else None}
        reservations[r["reservation_id"]]["invoice_id"] = iid
        if not paid:
            m = members[r["member_id"]]
            m["balance"] = float(money(Decimal(str(m["balance"])) + amount))

    reports = []
    for vid, day in damaged.items():
        reports.append((day, vid, "major", "open", None))
    for vid in rng.sample([v for v in usable if vehicles[v]["status"] == "available"], 4):
        reports.append((TODAY - dt.timedelta(days=rng.randint(1, 20)), vid, "minor", "open", None))
    for _ in range(12):
        day = TODAY - dt.timedelta(days=rng.randint(25, 200))
        reports.append((day, rng.choice(vids), rng.choice(["minor", "minor", "major"]), "resolved",
                        day + dt.timedelta(days=rng.randint(1, 9))))
    reports.sort(key=lambda x: (x[0], x[1]))
    damage = {}
    for i, (day, vid, sev, status, fixed) in enumerate(reports, 1):
        did = f"D{i:03d}"
        linked = [r for r in reservations.values() if r["vehicle_id"] == vid and r["status"] == "completed"
                  and r["returned_at"][:10] <= day.isoformat()]
        link = max(linked, key=lambda r: r["returned_at"]) if linked and rng.random() < 0.7 else None
        damage[did] = {"report_id": did, "vehicle_id": vid,
                       "member_id": link["member_id"] if link else rng.choice(mids),
                       "reservation_id": link["reservation_id"] if link else None,
                       "severity": sev, "description": rng.choice(DAMAGE_TEXT[sev]), "status": status,
                       "reported_on": day.isoformat(), "resolved_on": fixed.isoformat() if fixed else None}

    db = {"meta": {"today": TODAY.isoformat(), "currency": "GBP", "club": "Wrenfield Wheels Car Club",
                   "timezone": "Europe/London"},
          "stations": stations, "vehicles": vehicles, "members": members,
          "reservations": reservations, "invoices": inv_out, "damage_reports": damage}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as f:
        json.dump(db, f, indent=1)
    return db


if __name__ == "__main__":
    out = main()
    print({k: len(v) for k, v in out.items() if k != "meta"})
