"""Writes db.json for the garage workshop reference API (deterministic, stdlib only)."""
import json
import os
import random
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

SEED = 7719
TODAY = date(2025, 11, 3)
LABOUR_RATE = 60.0
TAX = 0.2
FIRST = ["Aurelio", "Bettina", "Cyprian", "Delphine", "Eamon", "Fenna", "Gaspard", "Hanne", "Ivor",
         "Jovana", "Kester", "Linnea", "Marius", "Nadia", "Osric", "Perpetua", "Quirin", "Rosalind",
         "Stellan", "Tamsin", "Ulla", "Viggo", "Winifred", "Xanthe", "Yorick"]
LAST = ["Abernethy", "Blackwood", "Crane", "Dovey", "Esposito", "Fairclough", "Gunnarsson", "Hale",
        "Iveson", "Jessop", "Kowalczyk", "Lockhart"]
MAKES = [("Vantor", "Pulse"), ("Vantor", "Ridge"), ("Kestrel", "Aero"), ("Kestrel", "Nomad"),
         ("Solenne", "City"), ("Brunel", "Tourer"), ("Brunel", "Haul")]
PARTS = [("Oil filter", 8.5), ("Air filter", 14.0), ("Brake pads (front)", 42.75), ("Brake pads (rear)", 38.2),
         ("Brake disc", 55.0), ("Spark plug", 6.4), ("Wiper blade", 11.99), ("Battery 60Ah", 89.0),
         ("Coolant 1L", 7.25), ("Engine oil 5L", 32.5), ("Timing belt", 64.0), ("Water pump", 71.3),
         ("Headlight bulb", 5.6), ("Cabin filter", 12.8), ("Alternator belt", 19.9), ("Shock absorber", 68.4),
         ("Clutch kit", 189.0), ("Exhaust gasket", 4.15), ("Fuel filter", 17.6), ("Tyre valve", 2.35)]


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def total(hours, parts, loyal, prices):
    labour = Decimal(str(hours)) * Decimal(str(LABOUR_RATE)) * (Decimal("0.9") if loyal else Decimal(1))
    sub = labour + sum(Decimal(str(prices[p["part_id"]])) * p["qty"] for p in parts)
    return money(sub * Decimal(str(1 + TAX)))


def main():
    rng = random.Random(SEED)
    customers = {}
    for i in range(1, 26):
        cid = "C%03d" % i
        first, last = FIRST[i - 1], LAST[(i * 5) % len(LAST)]
        customers[cid] = {"id": cid, "name": "%s %s" % (first, last),
                          "email": "%s.%s@post.example" % (first.lower(), last.lower()),
                          "loyalty_member": i % 3 == 0}
    vehicles = {}
    for i in range(1, 41):
        vid = "V%04d" % i
        make, model = rng.choice(MAKES)
        plate = "%s%02d %s" % ("".join(rng.choice("ABCDEFGHKLMNPRSTVWY") for _ in range(2)), rng.randint(10, 74),
                               "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(3)))
        vehicles[vid] = {"id": vid, "customer_id": "C%03d" % (1 + (i * 7) % 25), "plate": plate, "make": make,
                         "model": model, "year": rng.randint(2008, 2024), "mileage": rng.randint(8, 190) * 1000}
    parts = {}
    for i, (name, price) in enumerate(PARTS, 1):
        pid = "P%03d" % i
        parts[pid] = {"id": pid, "name": name, "unit_price": price,
                      "stock": rng.choice([0, 1, 2, 4, 6, 10, 15, 25])}
    prices = {p: parts[p]["unit_price"] for p in parts}
    jobs = {}
    vids = sorted(vehicles)
    busy = set()
    n = 0
    for k in range(85):
        vid = rng.choice(vids)
        offset = rng.randint(-40, 20)
        day = TODAY + timedelta(days=offset)
        if day.weekday() == 6:  # closed on Sundays
            continue
        if -3 <= offset <= 0:
            status = rng.choice(["in_progress", "in_progress", "completed", "booked"])
        elif offset < 0:
            status = rng.choice(["completed", "completed", "completed", "cancelled"])
        else:
            status = rng.choice(["booked", "booked", "booked", "cancelled"])
        if status in ("booked", "in_progress"):
            if vid in busy or sum(1 for j in jobs.values() if j["scheduled_on"] == day.isoformat()
                                  and j["status"] in ("booked", "in_progress")) >= 3:
                continue
            busy.add(vid)
        n += 1
        jid = "J%04d" % n
        job = {"id": jid, "vehicle_id": vid, "kind": rng.choice(["service", "repair", "inspection"]),
               "status": status, "scheduled_on": day.isoformat(), "labour_hours": 0.0, "parts": [],
               "total": None, "completed_on": None}
        if status in ("completed", "in_progress"):
            job["labour_hours"] = rng.choice([0.5, 1.0, 1.25, 2.0, 3.5]) if status == "completed" else rng.choice([0.0, 0.75, 1.5])
            for pid in rng.sample(sorted(parts), rng.randint(0, 3)):
                job["parts"].append({"part_id": pid, "qty": rng.randint(1, 4)})
        if status == "completed":
            loyal = customers[vehicles[vid]["customer_id"]]["loyalty_member"]
            job["total"] = total(job["labour_hours"], job["parts"], loyal, prices)
            job["completed_on"] = (day + timedelta(days=rng.randint(0, 2))).isoformat()
        if status == "cancelled":
            job["cancel_reason"] = rng.choice(["customer unavailable", "sold the car", "fixed elsewhere"])
        jobs[jid] = job
    free = [v for v in vids if v not in busy]
    for k, vid in enumerate(free[:6]):
        day = TODAY - timedelta(days=(2, 3, 5, 2)[k] if k < 4 else 0)
        if sum(1 for j in jobs.values() if j["scheduled_on"] == day.isoformat()
               and j["status"] in ("booked", "in_progress")) >= 3:
            continue
        n += 1
        jid = "J%04d" % n
        jobs[jid] = {"id": jid, "vehicle_id": vid, "kind": rng.choice(["service", "repair", "inspection"]),
                     "status": "in_progress" if k < 4 else "booked", "scheduled_on": day.isoformat(),
                     "labour_hours": rng.choice([0.0, 0.5, 1.75]) if k < 4 else 0.0, "parts": [],
                     "total": None, "completed_on": None}
        if k < 4:
            jobs[jid]["parts"] = [{"part_id": rng.choice(sorted(parts)), "qty": 1}]
        busy.add(vid)
    db = {"meta": {"today": TODAY.isoformat(), "garage": "Copperfield Motor Works", "labour_rate": LABOUR_RATE,
                   "tax_rate": TAX, "bays": 3},
          "customers": customers, "vehicles": vehicles, "parts": parts, "jobs": jobs}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
