#!/usr/bin/env python3
"""Builds db.json for the Spokes & Sprockets bike rental and repair shop (deterministic, stdlib only)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

SEED = 20250612
TODAY = dt.date(2025, 6, 12)
rng = random.Random(SEED)


def money(x):
    return float(Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def iso(d):
    return d.isoformat() if d else None


FIRST = ["Ava", "Ben", "Carla", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas", "Kira", "Leo",
         "Maya", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sam", "Tara", "Umar", "Vera", "Wes", "Xenia",
         "Yusuf", "Zoe", "Aaron", "Bianca", "Caleb", "Daria"]
LAST = ["Albers", "Brandt", "Costa", "Dahl", "Ekström", "Fischer", "García", "Hoang", "Ibsen", "Jansen",
        "Kowalski", "Lindqvist", "Moreau", "Novak", "Okafor", "Petrov", "Quintero", "Rossi", "Schulz",
        "Tanaka", "Uribe", "Varga", "Weber", "Yilmaz", "Zeller"]

# ---------------- customers ----------------
customers = {}
for i in range(1, 61):
    cid = f"C{i:03d}"
    first, last = rng.choice(FIRST), rng.choice(LAST)
    r = rng.random()
    if r < 0.5:
        membership, expires = "none", None
    else:
        membership = "basic" if r < 0.8 else "premium"
        expires = TODAY + dt.timedelta(days=rng.choice([rng.randint(-90, -1), rng.randint(1, 25), rng.randint(30, 330)]))
    if rng.random() < 0.06:
        wallet = -money(Decimal(rng.randint(500, 4000)) / 100)
    elif rng.random() < 0.2:
        wallet = money(Decimal(rng.randint(0, 2500)) / 100)
    else:
        wallet = money(Decimal(rng.randint(3000, 60000)) / 100)
    customers[cid] = {
        "id": cid,
        "name": f"{first} {last}",
        "email": f"{first.lower()}.{last.lower().replace('ö', 'o').replace('í', 'i')}{i}@example.com",
        "phone": f"+1-555-01{i:02d}",
        "status": "suspended" if rng.random() < 0.08 else "active",
        "membership": membership,
        "membership_expires": iso(expires),
        "wallet_balance": wallet,
        "joined_on": iso(TODAY - dt.timedelta(days=rng.randint(120, 1400))),
    }
CIDS = sorted(customers)
ACTIVE = [c for c in CIDS if customers[c]["status"] == "active"]


def member_on(cid, day):
    c = customers[cid]
    return c["membership"] != "none" and c["membership_expires"] is not None and c["membership_expires"] >= day.isoformat()


def discount(cid, day):
    if not member_on(cid, day):
        return 0
    return 20 if customers[cid]["membership"] == "premium" else 10


# ---------------- parts ----------------
PARTS = [("Inner tube 700x28c", "tires", "6.50"), ("Inner tube 29x2.3", "tires", "8.00"),
         ("Road tire 700x28c", "tires", "34.00"), ("Trail tire 29x2.4", "tires", "52.00"),
         ("City tire 700x40c puncture-proof", "tires", "29.00"), ("Tubeless sealant 120ml", "tires", "9.50"),
         ("Disc brake pads (resin)", "brakes", "18.00"), ("Disc brake pads (sintered)", "brakes", "22.00"),
         ("Rim brake pads", "brakes", "11.00"), ("Brake rotor 180mm", "brakes", "31.00"),
         ("Hydraulic brake bleed kit", "brakes", "24.00"), ("Chain 11-speed", "drivetrain", "38.00"),
         ("Chain 8-speed", "drivetrain", "19.00"), ("Cassette 11-32", "drivetrain", "64.00"),
         ("Chainring 38T", "drivetrain", "45.00"), ("Rear derailleur hanger", "drivetrain", "16.00"),
         ("Bottom bracket BSA", "drivetrain", "27.00"), ("Shift cable stainless", "cables", "5.00"),
         ("Brake cable stainless", "cables", "5.50"), ("Cable housing 3m", "cables", "12.00"),
         ("Front light USB 400lm", "lights", "39.00"), ("Rear light USB", "lights", "21.00"),
         ("Dynamo headlight", "lights", "58.00"), ("Bell brass", "accessories", "14.00"),
         ("Bottle cage alloy", "accessories", "9.00"), ("Kickstand adjustable", "accessories", "17.50"),
         ("Mudguard set 700c", "accessories", "26.00"), ("Ergonomic grips", "accessories", "19.00"),
         ("Saddle comfort gel", "accessories", "34.50"), ("Handlebar tape", "accessories", "15.00")]
parts = {}
for i, (name, cat, price) in enumerate(PARTS, 1):
    pid = f"P{i:03d}"
    parts[pid] = {"id": pid, "name": name, "category": cat, "unit_price": money(price),
                  "stock": rng.choice([0, 1, 2, 3] + list(range(4, 26))), "discontinued": False}
for pid in ("P011", "P017", "P023"):
    parts[pid]["discontinued"] = True

# ---------------- bikes ----------------
MODELS = [("Urban Glide 3", "city", "18.00"), ("Metro 7", "city", "20.00"), ("Trailhawk 29", "mountain", "35.00"),
          ("Ridgeback Pro", "mountain", "38.00"), ("Velo Sprint", "road", "32.00"), ("Aero Carbon", "road", "42.00"),
          ("Crossway 500", "hybrid", "22.00"), ("Voltra E1", "ebike", "48.00"), ("Voltra E2 Cargo", "ebike", "55.00"),
          ("Sprout 20", "kids", "12.00"), ("Sprout 24", "kids", "14.00")]
bike_status = (["retired"] * 2 + ["in_repair"] * 4 + ["rented"] * 9 + ["reserved"] * 9 + ["available"] * 16)
rng.shuffle(bike_status)
bikes = {}
for i in range(1, 41):
    bid = f"B{i:03d}"
    model, typ, rate = MODELS[(i - 1) % len(MODELS)] if i <= len(MODELS) else rng.choice(MODELS)
    size = rng.choice(["XS", "S"]) if typ == "kids" else rng.choice(["S", "M", "M", "L", "L", "XL"])
    bikes[bid] = {"id": bid, "model": model, "type": typ, "size": size, "daily_rate": money(rate),
                  "status": bike_status[i - 1], "rental_count": 0,
                  "acquired_on": iso(TODAY - dt.timedelta(days=rng.randint(200, 1500)))}

# ---------------- rentals ----------------
rentals = []
open_count = {c: 0 for c in CIDS}


def pick_customer(bid, day, pool, cap=None):
    cands = [c for c in pool if (bikes[bid]["type"] != "ebike" or member_on(c, day))
             and (cap is None or open_count[c] < cap)]
    return rng.choice(cands) if cands else None


def base_rental(cid, bid, start, days):
    rate = Decimal(str(bikes[bid]["daily_rate"]))
    pct = discount(cid, start)
    total = money(rate * days * (100 - pct) / 100)
    return {"customer_id": cid, "bike_id": bid, "status": None, "booked_on": None, "start_date": iso(start),
            "days": days, "due_date": iso(start + dt.timedelta(days=days)), "daily_rate": bikes[bid]["daily_rate"],
            "discount_pct": pct, "total": total, "picked_up_date": None, "returned_date": None,
            "return_condition": None, "late_fee": 0.0, "damage_fee": 0.0, "cancelled_on": None,
            "cancel_reason": None, "refund_amount": None}


# customers that will hold two open rentals (exercise the limit)
doubles = rng.sample([c for c in ACTIVE if member_on(c, TODAY + dt.timedelta(days=20))], 3)
for bid in sorted(bikes):
    b = bikes[bid]
    horizon = TODAY - dt.timedelta(days=2)
    if b["status"] in ("rented", "reserved"):
        if b["status"] == "rented":
            start = TODAY - dt.timedelta(days=rng.randint(1, 6))
            days = rng.randint(1, 8)
        else:
            start = TODAY + dt.timedelta(days=rng.choice([-1, 0, 0, 0, 2, 5, 9, 14, 20]))
            days = rng.randint(1, 6)
        pool = [c for c in doubles if open_count[c] < 2] or ACTIVE
        cid = pick_customer(bid, start, pool, cap=2) or pick_customer(bid, start, ACTIVE, cap=1)
        open_count[cid] += 1
        r = base_rental(cid, bid, start, days)
        r["booked_on"] = iso(min(TODAY, start) - dt.timedelta(days=rng.randint(0, 10)))
        if b["status"] == "rented":
            r["status"], r["picked_up_date"] = "active", iso(start)
        else:
            r["status"] = "reserved"
        rentals.append(r)
        horizon = min(TODAY, start) - dt.timedelta(days=3)
    if b["status"] == "retired":
        horizon = TODAY - dt.timedelta(days=40)
    t = TODAY - dt.timedelta(days=rng.randint(45, 80))
    last_returned = None
    while True:
        start = t + dt.timedelta(days=rng.randint(4, 22))
        days = rng.randint(1, 6)
        if start + dt.timedelta(days=days + 3) >= horizon:
            break
        cid = pick_customer(bid, start, CIDS)
        if cid is None:
            t = start
            continue
        r = base_rental(cid, bid, start, days)
        if rng.random() < 0.15:
            booked = start - dt.timedelta(days=rng.randint(2, 14))
            cancelled = booked + dt.timedelta(days=rng.randint(0, (start - booked).days))
            r.update(status="cancelled", booked_on=iso(booked), cancelled_on=iso(cancelled),
                     cancel_reason=rng.choice(["customer_request", "customer_request", "weather", "bike_issue", "other"]))
            full = (start - cancelled).days >= 2
            r["refund_amount"] = r["total"] if full else money(Decimal(str(r["total"])) / 2)
            t = start
        else:
            late = 0 if rng.random() < 0.8 else rng.randint(1, 3)
            ret = start + dt.timedelta(days=days + late)
            damaged = rng.random() < 0.08
            r.update(status="returned", booked_on=iso(start - dt.timedelta(days=rng.randint(0, 10))),
                     picked_up_date=iso(start), returned_date=iso(ret),
                     return_condition="damaged" if damaged else "good",
                     late_fee=money(Decimal(str(b["daily_rate"])) * late), damage_fee=40.0 if damaged else 0.0)
            b["rental_count"] += 1
            last_returned = r
            t = ret
        rentals.append(r)
    if b["status"] == "in_repair" and last_returned is not None:
        last_returned["return_condition"], last_returned["damage_fee"] = "damaged", 40.0

rentals.sort(key=lambda r: (r["booked_on"], r["start_date"], r["bike_id"]))
rental_db = {}
for i, r in enumerate(rentals, 1):
    rid = f"R{i:04d}"
    rental_db[rid] = {"id": rid, **r}

# ---------------- repair tickets ----------------
LABOR = {"flat_fix": "12.00", "brake_service": "29.00", "basic_tune": "35.00", "drivetrain_service": "49.00",
         "full_service": "89.00"}
DESCS = ["Blue Trek hybrid", "Red road bike, Shimano 105", "Black commuter with basket", "Green kids bike 20in",
         "Silver Gazelle Dutch bike", "Orange hardtail MTB", "White folding bike", "Grey e-bike, rear hub motor",
         "Yellow cargo bike", "Vintage steel Peugeot", "Carbon gravel bike", "Teal beach cruiser"]
tickets = []
busy = set()
plan = ["completed"] * 26 + ["cancelled"] * 4 + ["open"] * 8 + ["in_progress"] * 8
rng.shuffle(plan)
usable_parts = [p for p in parts if not parts[p]["discontinued"]]
for status in plan:
    if status in ("open", "in_progress"):
        cid = rng.choice([c for c in ACTIVE if c not in busy])
        busy.add(cid)
        opened = TODAY - dt.timedelta(days=rng.randint(0, 4) if status == "open" else rng.randint(1, 6))
    else:
        cid = rng.choice(CIDS)
        opened = TODAY - dt.timedelta(days=rng.randint(6, 150))
    service = rng.choice(list(LABOR))
    labor = Decimal(LABOR[service])
    if customers[cid]["membership"] == "premium" and member_on(cid, opened):
        labor = labor * Decimal("0.85")
    labor = money(labor)
    lines = []
    if status == "in_progress" or (status == "completed" and rng.random() < 0.7):
        for pid in rng.sample(usable_parts, rng.randint(1, 3)):
            lines.append({"part_id": pid, "quantity": rng.choice([1, 1, 1, 2]), "unit_price": parts[pid]["unit_price"]})
    parts_total = money(sum(Decimal(str(l["unit_price"])) * l["quantity"] for l in lines) or Decimal("0"))
    tickets.append({"customer_id": cid, "bike_description": rng.choice(DESCS), "service": service,
                    "status": status, "opened_date": iso(opened),
                    "completed_date": iso(opened + dt.timedelta(days=rng.randint(0, 4))) if status == "completed" else None,
                    "labor_price": labor, "parts": lines, "parts_total": parts_total,
                    "total": money(Decimal(str(labor)) + Decimal(str(parts_total)))})
tickets.sort(key=lambda t: (t["opened_date"], t["customer_id"]))
ticket_db = {}
for i, t in enumerate(tickets, 1):
    tid = f"T{i:04d}"
    ticket_db[tid] = {"id": tid, **t}

db = {"meta": {"today": TODAY.isoformat(), "shop": "Spokes & Sprockets", "currency": "USD"},
      "customers": customers, "bikes": bikes, "rentals": rental_db, "repair_tickets": ticket_db, "parts": parts}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w", encoding="utf-8") as f:
    json.dump(db, f, indent=1, ensure_ascii=False)
print({k: len(v) for k, v in db.items() if k != "meta"})
