"""Builds db.json for the Kestrel Haven Marina berth & services API (stdlib only, fixed seed)."""
import json
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP, ROUND_CEILING

SEED = 20250909
TODAY = date(2025, 9, 9)
CENT = Decimal("0.01")

META = {
    "today": TODAY.isoformat(),
    "marina": "Kestrel Haven Marina",
    "operator": "Kestrel Haven Harbour Company Ltd.",
    "currency": "EUR",
    "peak_season": {"from": "06-01", "to": "09-15"},
    "rate_per_metre_night": {"peak": 4.35, "off_peak": 2.85},
    "multihull_factor": 1.5,
    "shore_power_per_night": 5.50,
    "member_discount_pct": {"none": 0, "silver": 10, "gold": 15},
    "long_stay_discount_pct": 10,
    "long_stay_min_nights": 7,
    "deposit_pct": 25,
    "deposit_late_cancellation_trigger": 2,
    "free_cancellation_notice_days": 7,
    "max_nights": 28,
    "booking_horizon_days": 120,
    "keel_clearance_m": 0.3,
    "account_hold_threshold": 300.00,
    "max_reserved_bookings_per_customer": 3,
    "overstay_multiplier": 2,
    "same_day_service_cancel_fee_pct": 20,
    "service_horizon_days": 30,
    "cash_payment_limit": 500.00,
}


def q(x):
    return Decimal(x).quantize(CENT, rounding=ROUND_HALF_UP)


def charged_length(boat):
    return int(Decimal(str(boat["length_m"])).to_integral_value(rounding=ROUND_CEILING))


def is_peak(d):
    md = d.strftime("%m-%d")
    return META["peak_season"]["from"] <= md <= META["peak_season"]["to"]


def night_rate(d):
    r = META["rate_per_metre_night"]["peak" if is_peak(d) else "off_peak"]
    return Decimal(str(r))


def berth_fee(boat, start, end, mult=1):
    factor = Decimal(str(META["multihull_factor"])) if boat["hull_type"] == "multihull" else Decimal(1)
    L = charged_length(boat)
    tot = Decimal(0)
    d = start
    while d < end:
        tot += night_rate(d) * L * factor * mult
        d += timedelta(days=1)
    return q(tot)


def price(boat, cust, arrival, departure, power):
    nights = (departure - arrival).days
    fee = berth_fee(boat, arrival, departure)
    pct = META["member_discount_pct"][cust["tier"]]
    if nights >= META["long_stay_min_nights"]:
        pct = max(pct, META["long_stay_discount_pct"])
    disc = q(fee * pct / 100)
    pfee = q(Decimal(str(META["shore_power_per_night"])) * nights) if power else Decimal("0.00")
    total = fee - disc + pfee
    if cust["tier"] == "none" or cust["late_cancellations"] >= META["deposit_late_cancellation_trigger"]:
        dep = q(total * META["deposit_pct"] / 100)
    else:
        dep = Decimal("0.00")
    return dict(nights=nights, charged_length_m=charged_length(boat), berth_fee=float(fee),
                discount_pct=pct, discount=float(disc), power_fee=float(pfee), total=float(total),
                deposit_paid=float(dep))


FIRST = ["Aoife", "Brendan", "Ciara", "Declan", "Eimear", "Fionn", "Grainne", "Hugh", "Isolde", "Jonas",
         "Katrin", "Liam", "Maeve", "Niall", "Orla", "Padraig", "Quinn", "Roisin", "Sean", "Tadhg",
         "Una", "Valerie", "Wim", "Xavier", "Yvonne", "Zoe", "Anders", "Bettina", "Colm", "Dagny"]
LAST = ["Byrne", "Keane", "Moloney", "Walsh", "Brennan", "Lindqvist", "Dubois", "O'Connell", "Fitzgerald",
        "Hansen", "Murphy", "Costa", "Delaney", "Ferreira", "Gallagher", "Jansen", "Kavanagh", "Larsen"]
BOAT_A = ["Sea", "Salt", "Blue", "Silver", "Wild", "Morning", "Storm", "Quiet", "Amber", "North",
          "Harbour", "Drift", "Celtic", "Swift", "Golden", "Misty", "Kelp", "Tidal", "Aurora", "Lone"]
BOAT_B = ["Sparrow", "Wind", "Heron", "Spirit", "Rover", "Star", "Petrel", "Dancer", "Tern", "Wanderer",
          "Lady", "Runner", "Gannet", "Breeze", "Otter", "Hare", "Kestrel", "Pearl", "Mist", "Curlew"]
FLAGS = ["IRL", "GBR", "FRA", "NLD", "DEU", "NOR", "ESP"]

PONTOONS = [("A", 2.2, "open"), ("B", 2.6, "open"), ("C", 3.0, "open"), ("D", 3.4, "open"),
            ("E", 4.2, "open"), ("F", 1.8, "open"), ("G", 3.0, "closed"), ("H", 2.8, "open")]
# pontoon -> list of (max_length, max_beam) per berth
LAYOUT = {
    "A": [(10, 3.6)] * 5 + [(12, 4.2)] * 4,
    "B": [(12, 4.2)] * 4 + [(14, 4.8)] * 4,
    "C": [(14, 4.8)] * 4 + [(16, 5.4)] * 4,
    "D": [(16, 5.4)] * 3 + [(20, 6.5)] * 3,
    "E": [(20, 6.5)] * 2 + [(25, 8.0)] * 3,
    "F": [(8, 3.0)] * 8,
    "G": [(12, 4.2)] * 4,
    "H": [(12, 7.0)] * 3 + [(15, 8.5)] * 3,
}

SERVICES = [
    ("DIESEL", "Diesel (fuel dock)", "fuel", "litre", 1.79, False, 1850, None, None),
    ("PETROL", "Unleaded petrol (fuel dock)", "fuel", "litre", 1.92, False, 420, None, None),
    ("PUMPOUT", "Holding tank pump-out", "job", "job", 18.00, True, None, 6, None),
    ("WATERFILL", "Fresh water tank fill", "job", "job", 6.50, True, None, 10, None),
    ("WASH", "Hull and deck wash", "job", "metre", 7.25, True, None, 3, None),
    ("LIFT", "Travel-hoist lift-out and relaunch", "job", "metre", 22.40, True, None, 2, 18.0),
    ("ANTIFOUL", "Antifouling (on the hard)", "job", "metre", 31.90, False, None, 1, 18.0),
    ("ENGINE", "Engine annual service", "job", "job", 285.00, True, None, 2, None),
    ("RIGCHECK", "Rigging inspection", "job", "job", 120.00, True, None, 2, None),
    ("ICE", "Block ice delivery", "job", "job", 4.80, False, None, 20, None),
]


def main():
    rng = random.Random(SEED)
    db = {"meta": META, "pontoons": {}, "berths": {}, "customers": {}, "boats": {},
          "bookings": {}, "services": {}, "service_orders": {}, "payments": {}}

    for pid, depth, st in PONTOONS:
        db["pontoons"][pid] = {"id": pid, "name": "Pontoon " + pid, "depth_m": depth, "status": st}
    for pid, rows in LAYOUT.items():
        for i, (ml, mb) in enumerate(rows, 1):
            bid = "%s%02d" % (pid, i)
            db["berths"][bid] = {
                "id": bid, "pontoon_id": pid, "max_length_m": float(ml), "max_beam_m": mb,
                "shore_power": pid != "F" or i <= 3,
                "status": "out_of_service" if bid in ("A03", "C06", "F08", "H02") else "active"}

    names = set()
    for i in range(1, 41):
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in names:
                names.add((fn, ln))
                break
        tier = rng.choices(["none", "silver", "gold"], [5, 3, 2])[0]
        since = None if tier == "none" else (TODAY - timedelta(days=rng.randint(200, 3000))).isoformat()
        bal = 0.0 if rng.random() < 0.35 else round(rng.uniform(10, 260), 2)
        if i in (4, 13, 27, 35):
            bal = round(rng.uniform(320, 900), 2)
        lc = rng.choices([0, 1, 2, 3], [10, 4, 2, 1])[0]
        email = "%s.%s@%s" % (fn.lower(), ln.lower().replace("'", ""), rng.choice(["mail.ie", "sailnet.eu", "posteo.de", "example.com"]))
        db["customers"]["CU%03d" % i] = {
            "id": "CU%03d" % i, "name": fn + " " + ln, "email": email,
            "phone": "+353 8%d %03d %04d" % (rng.randint(3, 9), rng.randint(0, 999), rng.randint(0, 9999)),
            "tier": tier, "member_since": since, "balance_due": bal, "late_cancellations": lc}
    cust_ids = sorted(db["customers"])

    used = set()
    for i in range(1, 71):
        owner = cust_ids[(i - 1) % 40] if i <= 40 else rng.choice(cust_ids)
        while True:
            nm = rng.choice(BOAT_A) + " " + rng.choice(BOAT_B)
            if nm not in used:
                used.add(nm)
                break
        kind = rng.choices(["sail", "motor", "cat", "small"], [10, 6, 3, 3])[0]
        if kind == "small":
            L = round(rng.uniform(5.8, 7.9), 1); hull = "monohull"; beam = round(L * rng.uniform(0.33, 0.38), 2)
            draft = round(rng.uniform(0.4, 1.2), 2); fuel = rng.choice(["petrol", "electric"])
            prop = "motor" if fuel == "petrol" else rng.choice(["sail", "motor"])
        elif kind == "cat":
            L = round(rng.uniform(10.5, 14.8), 1); hull = "multihull"; beam = round(L * rng.uniform(0.47, 0.55), 2)
            draft = round(rng.uniform(1.0, 1.4), 2); fuel = "diesel"; prop = "sail"
        elif kind == "motor":
            L = round(rng.uniform(8.0, 23.5), 1); hull = "monohull"; beam = round(L * rng.uniform(0.30, 0.34), 2)
            draft = round(rng.uniform(0.8, 1.9), 2); fuel = rng.choice(["diesel", "diesel", "petrol"]); prop = "motor"
        else:
            L = round(rng.uniform(8.5, 19.5), 1); hull = "monohull"; beam = round(L * rng.uniform(0.30, 0.34), 2)
            draft = round(min(3.6, 1.2 + L * rng.uniform(0.08, 0.13)), 2); fuel = "diesel"; prop = "sail"
        cap = 0 if fuel == "electric" else int(max(20, round(L * L * rng.uniform(0.6, 1.1), -1)))
        ins = TODAY + timedelta(days=rng.randint(-30, 400))
        if i % 11 == 0:
            ins = TODAY + timedelta(days=rng.randint(3, 20))
        bid = "BT%03d" % i
        db["boats"][bid] = {
            "id": bid, "name": nm, "registration": "%s-%04d" % (rng.choice(FLAGS), rng.randint(100, 9999)),
            "customer_id": owner, "hull_type": hull, "propulsion": prop, "fuel_type": fuel,
            "length_m": L, "beam_m": beam, "draft_m": draft, "fuel_capacity_l": cap,
            "insurance_expiry": ins.isoformat()}

    def fits(boat, berth):
        p = db["pontoons"][berth["pontoon_id"]]
        return (boat["length_m"] <= berth["max_length_m"] and boat["beam_m"] <= berth["max_beam_m"]
                and boat["draft_m"] + META["keel_clearance_m"] <= p["depth_m"] + 1e-9)

    boats = db["boats"]
    busy = {b: [] for b in boats}     # non-cancelled intervals per boat
    reserved_count = {c: 0 for c in cust_ids}
    bk = []
    def make(berth_id, boat_id, a, dep, st):
        berth = db["berths"][berth_id]
        boat = boats[boat_id]
        cust = db["customers"][boat["customer_id"]]
        power = berth["shore_power"] and rng.random() < 0.6
        pr = price(boat, cust, a, dep, power)
        created = min(a, TODAY) - timedelta(days=rng.randint(1, 40))
        rec = {"id": None, "boat_id": boat_id, "customer_id": cust["id"], "berth_id": berth_id,
               "arrival": a.isoformat(), "departure": dep.isoformat(), "shore_power": power}
        rec.update(pr)
        rec.update({"status": st, "created_on": created.isoformat(), "checked_in_on": None,
                    "checked_out_on": None, "overstay_fee": None, "final_amount": None,
                    "cancelled_on": None, "cancel_reason": None, "refund_amount": None})
        if st in ("checked_in", "checked_out"):
            rec["checked_in_on"] = a.isoformat()
        if st == "checked_out":
            out = min(dep, TODAY) if rng.random() < 0.85 else max(a + timedelta(days=1), dep - timedelta(days=1))
            rec["checked_out_on"] = out.isoformat()
            rec["overstay_fee"] = 0.0
            rec["final_amount"] = rec["total"]
        if st == "cancelled":
            lo = created
            hi = min(a, TODAY)
            cd = lo + timedelta(days=rng.randint(0, max(0, (hi - lo).days)))
            rec["cancelled_on"] = cd.isoformat()
            rec["cancel_reason"] = rng.choice(["Weather window closed", "Crew unavailable", "Engine trouble",
                                               "Changed cruising plans", "Staying at another marina"])
            notice = (a - cd).days
            rec["refund_amount"] = rec["deposit_paid"] if notice >= META["free_cancellation_notice_days"] else 0.0
        else:
            busy[boat_id].append((a, dep))
        if st == "reserved":
            reserved_count[cust["id"]] += 1
        bk.append(rec)
        return rec

    def free_boat(cands, a, dep):
        cap = META["max_reserved_bookings_per_customer"]
        for k in range(20):
            c = rng.choice(cands)
            if k < 15 and a > TODAY and reserved_count[boats[c]["customer_id"]] >= cap:
                continue
            if all(dep <= s or a >= e for s, e in busy[c]):
                return c
        return None

    berth_ids = sorted(db["berths"])
    booked_berths = [b for b in berth_ids if rng.random() < (0.45 if b.startswith("G") else 0.7)]
    quiet = [b for b in berth_ids if b not in booked_berths and db["berths"][b]["status"] == "active"
             and not b.startswith("G")]
    # overstays: boats still checked in after their departure date, on berths nobody else wants
    for k, berth_id in enumerate(quiet[:3]):
        cands = [b for b in sorted(boats) if fits(boats[b], db["berths"][berth_id])]
        c = free_boat(cands, TODAY - timedelta(days=8), TODAY + timedelta(days=1))
        if c:
            dep = TODAY - timedelta(days=1 + k % 2)
            make(berth_id, c, dep - timedelta(days=rng.choice([3, 5, 6])), dep, "checked_in")
    # boats due in today that have not yet arrived
    for berth_id in quiet[3:7]:
        cands = [b for b in sorted(boats) if fits(boats[b], db["berths"][berth_id])
                 and reserved_count[boats[b]["customer_id"]] < 2]
        c = free_boat(cands, TODAY, TODAY + timedelta(days=6)) if cands else None
        if c:
            make(berth_id, c, TODAY, TODAY + timedelta(days=rng.choice([1, 2, 4, 7])), "reserved")
    for berth_id in booked_berths:
        berth = db["berths"][berth_id]
        cands = [b for b in sorted(boats) if fits(boats[b], berth)]
        if not cands:
            continue
        inactive = berth["status"] != "active" or db["pontoons"][berth["pontoon_id"]]["status"] != "open"
        d = TODAY - timedelta(days=rng.randint(8, 16))
        while len(bk) < 148:
            d += timedelta(days=rng.choice([0, 2, 4, 7, 10, 14, 18]))
            n = rng.choice([1, 2, 2, 3, 3, 4, 5, 7, 7, 10, 14])
            a, dep = d, d + timedelta(days=n)
            if a > TODAY + timedelta(days=30):
                break
            if TODAY - timedelta(days=3) <= a < TODAY and rng.random() < 0.3:
                a, dep = TODAY, TODAY + timedelta(days=n)
            c = free_boat(cands, a, dep)
            if c is None:
                d = dep
                continue
            cust = db["customers"][boats[c]["customer_id"]]
            if dep < TODAY or (dep == TODAY and rng.random() < 0.5):
                st = rng.choices(["checked_out", "cancelled", "no_show"], [12, 2, 1])[0]
            elif a <= TODAY:
                st = "reserved" if (a == TODAY and rng.random() < 0.8) else "checked_in"
            else:
                st = rng.choices(["reserved", "cancelled"], [7, 1])[0]
            if inactive and st in ("reserved", "checked_in"):
                st = "cancelled"
            if st == "reserved" and reserved_count[cust["id"]] >= META["max_reserved_bookings_per_customer"]:
                st = "cancelled"
            make(berth_id, c, a, dep, st)
            d = dep
    # a few boats that never turned up
    for r in [x for x in bk if x["status"] == "checked_out" and x["departure"] < TODAY.isoformat()][::6]:
        r.update({"status": "no_show", "checked_in_on": None, "checked_out_on": None,
                  "overstay_fee": None, "final_amount": None})
    bk.sort(key=lambda r: (r["created_on"], r["arrival"], r["berth_id"]))
    for i, r in enumerate(bk, 1001):
        r["id"] = "BK%d" % i
        db["bookings"][r["id"]] = r

    for code, name, cat, unit, price_, md, stock, capd, maxl in SERVICES:
        db["services"][code] = {"code": code, "name": name, "category": cat, "unit": unit,
                                "unit_price": price_, "member_discount": md, "stock_l": stock,
                                "daily_capacity": capd, "max_boat_length_m": maxl}

    # service orders inside the stays
    orders = []
    pool = [r for r in bk if r["status"] in ("checked_out", "checked_in", "reserved")]
    load = {}

    def add_order(r, code, day, st=None):
        boat = boats[r["boat_id"]]
        cust = db["customers"][r["customer_id"]]
        svc = db["services"][code]
        if svc["category"] == "fuel":
            if boat["fuel_type"] != code.lower():
                return False
            qty = rng.randint(max(1, boat["fuel_capacity_l"] // 5), boat["fuel_capacity_l"])
        elif svc["unit"] == "metre":
            if svc["max_boat_length_m"] and boat["length_m"] > svc["max_boat_length_m"]:
                return False
            qty = charged_length(boat)
        else:
            qty = 1
        if svc["daily_capacity"] is not None and load.get((code, day), 0) >= svc["daily_capacity"]:
            return False
        if any(o["boat_id"] == boat["id"] and o["service_code"] == code and o["scheduled_for"] == day.isoformat()
               and o["status"] != "cancelled" for o in orders):
            return False
        gross = q(Decimal(str(svc["unit_price"])) * qty)
        pct = META["member_discount_pct"][cust["tier"]] if svc["member_discount"] else 0
        disc = q(gross * pct / 100)
        if st is None and day < TODAY:
            st = rng.choices(["completed", "cancelled"], [5, 1])[0]
        elif st is None:
            st = rng.choices(["scheduled", "cancelled"], [6, 1])[0]
        created = min(TODAY, day - timedelta(days=rng.randint(0, 5)))
        o = {"id": None, "boat_id": boat["id"], "customer_id": cust["id"], "service_code": code,
             "scheduled_for": day.isoformat(), "quantity": qty, "unit_price": svc["unit_price"],
             "gross": float(gross), "discount_pct": pct, "discount": float(disc), "amount": float(gross - disc),
             "status": st, "created_on": created.isoformat(), "completed_on": None,
             "cancelled_on": None, "cancel_fee": None}
        if st == "completed":
            o["completed_on"] = day.isoformat()
        if st == "cancelled":
            cd = created + timedelta(days=rng.randint(0, max(0, (min(day, TODAY) - created).days)))
            o["cancelled_on"] = cd.isoformat()
            fee = q(Decimal(str(o["amount"])) * META["same_day_service_cancel_fee_pct"] / 100) if cd == day else Decimal("0.00")
            o["cancel_fee"] = float(fee)
        if st != "cancelled":
            load[(code, day)] = load.get((code, day), 0) + 1
        orders.append(o)
        return True

    for _ in range(400):
        if len(orders) >= 84:
            break
        r = rng.choice(pool)
        a, dep = date.fromisoformat(r["arrival"]), date.fromisoformat(r["departure"])
        day = a + timedelta(days=rng.randrange((dep - a).days))
        if rng.random() < 0.25 and r["status"] in ("checked_in", "reserved") and a <= TODAY < dep:
            day = TODAY
        code = rng.choices([s[0] for s in SERVICES], [12, 5, 5, 4, 4, 5, 1, 2, 2, 3])[0]
        add_order(r, code, day)
    # book the hoist out completely on a few upcoming days, so that the daily capacity shows in the data
    for off in (2, 6, 11, 15):
        day = TODAY + timedelta(days=off)
        for r in pool:
            if r["status"] == "reserved" and r["arrival"] <= day.isoformat() < r["departure"]:
                if load.get(("LIFT", day), 0) >= 2:
                    break
                add_order(r, "LIFT", day, "scheduled")
    orders.sort(key=lambda o: (o["created_on"], o["scheduled_for"], o["boat_id"], o["service_code"]))
    for i, o in enumerate(orders, 5001):
        o["id"] = i
        db["service_orders"][str(i)] = o
    pays = []
    for _ in range(48):
        c = rng.choice(cust_ids)
        d = TODAY - timedelta(days=rng.randint(0, 90))
        m = rng.choices(["card", "bank_transfer", "cash"], [6, 3, 2])[0]
        amt = round(rng.uniform(20, 480 if m == "cash" else 1600), 2)
        pays.append({"id": None, "customer_id": c, "amount": amt, "method": m, "paid_on": d.isoformat(),
                     "reference": None if m == "cash" else "TX%06d" % rng.randint(0, 999999)})
    pays.sort(key=lambda p: (p["paid_on"], p["customer_id"]))
    for i, p in enumerate(pays, 1):
        p["id"] = "PY%04d" % i
        db["payments"][p["id"]] = p

    with open("db.json", "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
