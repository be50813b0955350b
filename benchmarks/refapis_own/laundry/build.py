"""Writes db.json for the laundry reference API (deterministic, stdlib only).

Prices, ready dates, fees and claim amounts come from the same helpers the reference uses."""
import json
import math
import os
import random
import sys
from datetime import date, timedelta
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ref_impl as R  # noqa: E402

SEED = 20250618
TODAY = date(2025, 6, 18)
FIRST = ["Amara", "Benedikt", "Carmen", "Declan", "Esme", "Fintan", "Gwen", "Hamza", "Ilse", "Jomo",
         "Katya", "Leon", "Marisol", "Nadim", "Orla", "Piotr", "Rhiannon", "Soren", "Tamsin", "Ugo",
         "Valentina", "Wilf", "Yara", "Zeb", "Anouk", "Bram", "Cosima", "Dev", "Elif", "Florin",
         "Greer", "Hal", "Isadora", "Jude", "Kofi", "Lucia", "Mads", "Noor", "Ottilie", "Rafferty"]
LAST = ["Achterberg", "Blackwood", "Cardenas", "Dunmore", "Eriksen", "Fairweather", "Gallo", "Hale",
        "Ingram", "Jovanovic", "Kerr", "Loughlin", "Mbeki", "Nakamura", "Oyelaran", "Pereira", "Quayle",
        "Rask", "Sadler", "Thorne", "Ueda", "Varga", "Whitlock", "Yilmaz", "Zoller", "Abernethy",
        "Brennan", "Castellanos", "Devlin", "Ekwueme", "Fenwick", "Grieve", "Holloway", "Ibarra",
        "Janssen", "Kowalczyk", "Lindgren", "Moretti", "Ncube", "Ormsby"]
GOLD = {"CU002", "CU005", "CU011", "CU014", "CU019", "CU023", "CU027", "CU031", "CU036", "CU040"}
SUSPENDED = {"CU009", "CU022", "CU035"}
NO_ZONE = {"CU003", "CU012", "CU020", "CU026", "CU030", "CU038", "CU009"}
BUSY = ["CU004", "CU017"]          # customers sitting at the open-order limit
NEAR_CAP = {"CU013": 940.00, "CU028": 975.50}
# (name, category, unit, unit_price, turnaround_days, express_allowed, active)
SERVICES = [
    ("Everyday wash & fold", "wash_fold", "kg", 2.80, 2, True, True),
    ("Delicates wash & fold", "wash_fold", "kg", 4.20, 3, True, True),
    ("Bedding and duvet wash", "wash_fold", "kg", 3.60, 3, False, True),
    ("Sports kit wash", "wash_fold", "kg", 3.10, 2, True, True),
    ("Shirt launder & press", "pressing", "piece", 3.20, 2, True, True),
    ("Trousers dry clean", "dry_clean", "piece", 7.50, 3, True, True),
    ("Two-piece suit dry clean", "dry_clean", "piece", 16.90, 3, True, True),
    ("Dress dry clean", "dry_clean", "piece", 14.50, 3, True, True),
    ("Winter coat dry clean", "dry_clean", "piece", 19.00, 4, False, True),
    ("Silk blouse dry clean", "dry_clean", "piece", 9.80, 3, True, True),
    ("Tie dry clean", "dry_clean", "piece", 5.50, 3, True, True),
    ("Knitwear hand finish", "dry_clean", "piece", 8.40, 4, False, True),
    ("Press only: shirt", "pressing", "piece", 2.10, 1, True, True),
    ("Press only: trousers", "pressing", "piece", 3.40, 1, True, True),
    ("Trouser hem", "alterations", "piece", 9.00, 5, False, True),
    ("Zip replacement", "alterations", "piece", 14.00, 5, False, True),
    ("Leather or suede jacket", "specialty", "piece", 45.00, 10, False, True),
    ("Wedding gown clean & box", "specialty", "piece", 129.00, 14, False, True),
    ("Curtain panel clean", "specialty", "piece", 12.50, 7, False, False),
    ("Eco wet-clean", "wash_fold", "kg", 5.10, 3, True, False),
]
NOTES = ["Wine stain on left cuff", "Customer asks for hangers, no folding", "Missing button on jacket",
         "Hypoallergenic detergent please", "Fragile beading on hem", "Call before delivery",
         "Leave with concierge", "Two shirts have collar stays"]
RESOLVED_NOTES = {"approved": ["Replacement value agreed with customer", "Shop liability accepted after review",
                               "Paid per price-list cap"],
                  "rejected": ["Item found in the lost-and-found bin and returned",
                               "Damage was noted on the drop-off tag", "Item not listed on the ticket",
                               "Wear consistent with age of garment"]}
CLAIM_TEXT = {"lost": ["One sock-pair and a pillowcase missing", "Tie not returned with the order",
                       "Second trouser leg cuff piece missing", "A shirt is missing from the bundle"],
              "damaged": ["Colour ran onto the collar", "Shrunk by about two sizes", "Button torn off",
                          "Shine marks from pressing", "Small hole near the seam"]}


def d(x):
    return x.isoformat()


def no_sunday(x):
    return x + timedelta(days=1) if x.weekday() == 6 else x


def main():
    rng = random.Random(SEED)
    services = {}
    for i, (name, cat, unit, price, days, exp, act) in enumerate(SERVICES):
        sid = "SV%02d" % (i + 1)
        services[sid] = {"id": sid, "name": name, "category": cat, "unit": unit, "unit_price": price,
                         "turnaround_days": days, "express_allowed": exp, "active": act}
    customers = {}
    for i in range(40):
        cid = "CU%03d" % (i + 1)
        wallet = 0.0 if rng.random() < 0.25 else rng.randint(500, 26000) / 100
        customers[cid] = {
            "id": cid, "name": "%s %s" % (FIRST[i], LAST[i]), "phone": "+44 7700 900%03d" % (101 + i * 7),
            "email": "%s.%s@mailbox.example" % (FIRST[i].lower(), LAST[i].lower()),
            "tier": "gold" if cid in GOLD else "regular",
            "zone": None if cid in NO_ZONE else rng.choice(R.ZONES),
            "status": "suspended" if cid in SUSPENDED else "active",
            "wallet_balance": NEAR_CAP.get(cid, wallet), "loyalty_points": rng.randint(0, 12) * 50 + rng.randint(0, 49),
            "order_count": 0, "total_spent": 0.0, "joined_on": d(TODAY - timedelta(days=rng.randint(60, 1500)))}
    for b in BUSY:
        customers[b]["zone"] = customers[b]["zone"] or "central"
    # delivery slots: two windows per zone per working day, today-14 .. today+10
    slots = {}
    day = TODAY - timedelta(days=14)
    while day <= TODAY + timedelta(days=10):
        if day.weekday() != 6:
            for z in R.ZONES:
                for w in R.WINDOWS:
                    sid = "SL%03d" % (len(slots) + 1)
                    slots[sid] = {"id": sid, "date": d(day), "zone": z, "window": w,
                                  "capacity": rng.randint(2, 4), "booked": 0}
        day += timedelta(days=1)
    # received dates, oldest first
    dates = [TODAY] * 8 + [TODAY - timedelta(days=1)] * 10
    for off in range(2, 21):
        x = TODAY - timedelta(days=off)
        if x.weekday() != 6:
            dates += [x] * (3 if off <= 6 else 2)
    older = [TODAY - timedelta(days=off) for off in range(21, 71) if (TODAY - timedelta(days=off)).weekday() != 6]
    dates += rng.choices(older, k=120 - len(dates))
    dates.sort()
    active_svc = [s for s in services.values() if s["active"]]
    fast_svc = [s for s in active_svc if s["express_allowed"]]
    weights = {"SV17": 0.3, "SV18": 0.1, "SV15": 0.6, "SV16": 0.5}
    open_count = {c: 0 for c in customers}
    busy_left = [b for b in BUSY for _ in range(4)]
    express_left = {d(TODAY): 5, d(TODAY - timedelta(days=1)): 8}
    orders = {}
    used_racks = set()
    for n, rec in enumerate(dates):
        oid = "ORD%d" % (1001 + n)
        age = (TODAY - rec).days
        if age == 0:
            status = "received"
        elif age == 1:
            status = rng.choice(["received", "received", "cleaning"])
        elif age <= 6:
            status = rng.choices(["received", "cleaning", "ready", "collected", "cancelled"], [1, 3, 4, 3, 1])[0]
        elif age <= 20:
            status = rng.choices(["cleaning", "ready", "collected", "cancelled"], [1, 3, 8, 1])[0]
        else:
            status = rng.choices(["ready", "collected", "cancelled"], [1, 12, 1])[0]
        is_open = status in R.OPEN
        if is_open and busy_left:
            cid = busy_left.pop()
        else:
            pool = [c for c in customers if c not in BUSY and (not is_open or open_count[c] < 3)
                    and (customers[c]["status"] == "active" or age > 3)]
            cid = rng.choice(pool)
        open_count[cid] += is_open
        cust = customers[cid]
        if d(rec) in express_left:
            express = express_left[d(rec)] > 0 and status != "cancelled"
            if express:
                express_left[d(rec)] -= 1
        else:
            express = rng.random() < 0.12 and age > 1
        pool = fast_svc if express else (active_svc if age < 30 else list(services.values()))
        chosen = []
        for _ in range(rng.choice([1, 1, 2, 2, 3, 4])):
            s = rng.choices(pool, [weights.get(x["id"], 1.0) for x in pool])[0]
            if s not in chosen:
                chosen.append(s)
        items = []
        for s in chosen:
            qty = round(rng.uniform(1.5, 12.0), 1) if s["unit"] == "kg" else rng.randint(1, 8 if s["id"] in ("SV05", "SV13") else 3)
            items.append(R.price_line(s, Decimal(str(qty)) if s["unit"] == "kg" else qty))
        sub = R.subtotal({"items": items})
        rb = R.ready_by(services, items, express, rec)
        o = {"id": oid, "customer_id": cid, "status": status, "items": items, "express": express,
             "starch_level": rng.choices(R.STARCH, [6, 2, 1, 1])[0],
             "notes": rng.choice(NOTES) if rng.random() < 0.25 else None, "subtotal": R.m(sub),
             "discount": R.m(sub * R.GOLD_RATE) if cust["tier"] == "gold" else 0.0,
             "express_fee": R.m(R.express_fee(sub, express)), "delivery_fee": 0.0, "storage_fee": 0.0,
             "total": 0.0, "amount_paid": 0.0, "payment_status": "unpaid", "payment_method": None,
             "points_redeemed": 0, "points_earned": 0, "return_method": "counter", "delivery_slot_id": None,
             "rack": None, "received_on": d(rec), "ready_by": d(rb), "cleaning_started_on": None,
             "ready_on": None, "collected_on": None, "cancelled_on": None, "cancel_reason": None,
             "refund_amount": None}
        R.refresh_total(o)
        if rng.random() < 0.18 and not (status == "received" and age <= 1 and cid in BUSY):
            o.update(amount_paid=o["total"], payment_status="prepaid", payment_method="wallet")
        # lifecycle dates
        started = min(TODAY, no_sunday(rec + timedelta(days=0 if express else rng.randint(0, 1))))
        if status in ("cleaning", "ready", "collected"):
            o["cleaning_started_on"] = d(started)
        if status in ("ready", "collected"):
            ready = min(TODAY, max(started, no_sunday(rb - timedelta(days=0 if express else rng.randint(0, 1)))))
            o["ready_on"] = d(ready)
        if status == "ready":
            rack = rng.choice([r for r in ("%s%02d" % (c, k) for c in "ABCDEF" for k in range(1, 41)) if r not in used_racks])
            used_racks.add(rack)
            o["rack"] = rack
        if status == "cancelled":
            in_cleaning = age > 2 and rng.random() < 0.4
            if in_cleaning:
                o["cleaning_started_on"] = d(started)
            o["cancelled_on"] = d(min(TODAY, no_sunday(started + timedelta(days=rng.randint(0, 1)))))
            o["cancel_reason"] = "cannot_process" if in_cleaning else rng.choice(R.CANCEL_REASONS)
            o["refund_amount"] = o["amount_paid"]
            if o["payment_status"] == "prepaid":
                o["payment_status"] = "refunded"
            if cust["zone"] and rng.random() < 0.3:
                o["return_method"] = "delivery"
                o["delivery_fee"] = R.m(R.delivery_fee(cust, sub))
                R.refresh_total(o)
        # delivery
        if cust["zone"] and status != "cancelled" and rng.random() < 0.4:
            if status == "collected":
                coll = no_sunday(date.fromisoformat(o["ready_on"]) + timedelta(days=rng.randint(0, 3)))
                lo = hi = min(coll, TODAY)
            elif status == "ready":
                lo = TODAY
                hi = TODAY + timedelta(days=rng.choice([0, 0, 1, 2, 3]))
            else:
                lo = max(TODAY, rb)
                hi = lo + timedelta(days=rng.randint(0, 2))
            cand = [s for s in slots.values() if s["zone"] == cust["zone"] and d(lo) <= s["date"] <= d(hi)
                    and s["booked"] < s["capacity"]]
            if cand:
                s = rng.choice(cand)
                s["booked"] += 1
                o.update(return_method="delivery", delivery_slot_id=s["id"],
                         delivery_fee=R.m(R.delivery_fee(cust, sub)))
                R.refresh_total(o)
        if status == "collected":
            ready = date.fromisoformat(o["ready_on"])
            if o["delivery_slot_id"]:
                coll = date.fromisoformat(slots[o["delivery_slot_id"]]["date"])
            else:
                coll = min(TODAY, no_sunday(ready + timedelta(days=rng.choice([0, 1, 2, 3, 5, 8, 16, 24]))))
            fee = R.storage_fee(ready, coll)
            o["storage_fee"] = R.m(fee)
            R.refresh_total(o)
            due = Decimal(str(o["total"])) - Decimal(str(o["amount_paid"]))
            pts = 100 * rng.choice([0, 0, 0, 1, 2]) if due >= 10 else 0
            charge = due - R.POINT_BLOCK_VALUE * (pts // 100)
            paid = Decimal(str(o["amount_paid"])) + charge
            o.update(points_redeemed=pts, amount_paid=R.m(paid), payment_status="paid",
                     points_earned=int(paid // 1), collected_on=d(coll))
            if charge > 0:
                o["payment_method"] = rng.choice(R.PAY_METHODS)
            cust["total_spent"] = R.m(Decimal(str(cust["total_spent"])) + paid)
        cust["order_count"] += 1
        orders[oid] = o
    # a handful of upcoming slots are already full
    upcoming = [s for s in slots.values() if s["date"] > d(TODAY) and s["booked"] > 0]
    for s in rng.sample(upcoming, min(6, len(upcoming))):
        s["capacity"] = s["booked"]
    # claims on collected orders
    collected = [o for o in orders.values() if o["status"] == "collected"]
    rng.shuffle(collected)
    raw = []
    for o in collected[:24]:
        coll = date.fromisoformat(o["collected_on"])
        kind = rng.choice(R.CLAIM_TYPES) if rng.random() < 0.6 else "lost"
        filed = min(TODAY, no_sunday(coll + timedelta(days=rng.randint(0, R.CLAIM_WINDOW[kind] - 1))))
        line = rng.choice(o["items"])
        declared = Decimal(rng.randint(1500, 32000)) / 100
        elig = R.claim_eligible(kind, declared, line["line_total"])
        raw.append((d(filed), o, line, kind, declared, elig))
    raw.sort(key=lambda r: (r[0], r[1]["id"]))
    claims = {}
    for n, (filed, o, line, kind, declared, elig) in enumerate(raw):
        cl_id = "CLM%03d" % (n + 1)
        cl = {"id": cl_id, "order_id": o["id"], "customer_id": o["customer_id"], "service_id": line["service_id"],
              "claim_type": kind, "declared_value": R.m(declared), "eligible_amount": R.m(elig),
              "description": rng.choice(CLAIM_TEXT[kind]), "status": "open", "payout": None,
              "filed_on": filed, "resolved_on": None, "resolution_note": None}
        if elig <= R.AUTO_APPROVE_UP_TO:
            cl.update(status="approved", payout=R.m(elig), resolved_on=filed)
        elif filed < d(TODAY - timedelta(days=6)):
            verdict = rng.choice(["approved", "rejected"])
            resolved = min(TODAY, no_sunday(date.fromisoformat(filed) + timedelta(days=rng.randint(2, 8))))
            cl.update(status=verdict, resolved_on=d(resolved), resolution_note=rng.choice(RESOLVED_NOTES[verdict]))
            if verdict == "approved":
                cl["payout"] = R.m(elig * Decimal(rng.choice(["1", "1", "0.8"])))
        claims[cl_id] = cl
    db = {"meta": {"today": d(TODAY), "shop": "Linenfold Laundry & Dry Cleaning", "currency": "GBP"},
          "customers": customers, "services": services, "slots": slots, "orders": orders, "claims": claims}
    with open(os.path.join(HERE, "db.json"), "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")
    print("wrote db.json", {k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
