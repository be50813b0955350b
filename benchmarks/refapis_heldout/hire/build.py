"""Writes db.json deterministically by replaying ~three months of depot activity through ref_impl."""
import datetime as dt
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref_impl as R  # noqa: E402

SEED = 20250616
TODAY = dt.date(2025, 6, 16)
START = TODAY - dt.timedelta(days=84)

DEPOTS = [("D01", "Riverside Yard", "Leeds"), ("D02", "Canal Street Depot", "Manchester"),
          ("D03", "Eastfield Plant Centre", "Sheffield"), ("D04", "Harbour Road Depot", "Hull"),
          ("D05", "Northgate Yard", "Bradford")]
CATALOG = [  # category, name, daily rate, replacement value
    ("excavator", "1.5t Mini Excavator", 145.00, 28500), ("excavator", "8t Tracked Excavator", 295.00, 86000),
    ("excavator", "3t Zero-Tail Excavator", 185.00, 39750),
    ("telehandler", "7m Telehandler", 210.00, 64200), ("telehandler", "14m Telehandler", 265.50, 98400),
    ("boom_lift", "16m Articulated Boom Lift", 238.00, 71300), ("boom_lift", "12m Trailer Boom", 132.75, 33900),
    ("scissor_lift", "8m Electric Scissor Lift", 96.40, 17850), ("scissor_lift", "10m Rough Terrain Scissor", 128.90, 26400),
    ("compactor", "Vibrating Plate Compactor", 34.25, 1450), ("compactor", "1.5t Ride-On Roller", 118.60, 21300),
    ("generator", "6kVA Petrol Generator", 41.80, 1890), ("generator", "20kVA Diesel Generator", 88.35, 9650),
    ("dumper", "3t Site Dumper", 99.95, 19200), ("dumper", "1t High-Tip Dumper", 72.10, 11800),
    ("mixer", "Electric Cement Mixer", 24.60, 640), ("mixer", "Diesel Site Mixer", 39.99, 2150),
]
COMPANIES = ["Ashworth Groundworks", "Brindle & Sons Builders", "Calder Valley Roofing", "Denholme Civils",
             "Eastgate Scaffolding", "Fernside Landscapes", "Garforth Drainage", "Holme Moss Construction",
             "Ilkley Stoneworks", "Jarrow Demolition", "Kirkstall Developments", "Lister Electrical",
             "Meanwood Joinery", "Northern Piling Co", "Otley Brick & Block", "Pudsey Plant Users",
             "Quarry Hill Interiors", "Rawdon Paving", "Saltaire Restoration", "Thornbury Homes",
             "Undercliffe Utilities", "Victoria Dock Works", "Wetherby Fencing", "Yeadon Steel Frames"]


def base_db(rng):
    db = {"meta": {"today": START.isoformat(), "currency": "GBP", "depot_network": "West & South Yorkshire"},
          "depots": {}, "equipment": {}, "customers": {}, "contracts": {}, "invoices": {},
          "payments": {}, "maintenance_holds": {}}
    for did, name, city in DEPOTS:
        db["depots"][did] = {"depot_id": did, "name": name, "city": city, "active": did != "D05",
                             "phone": f"0{rng.randint(113, 148)} {rng.randint(200, 999)} {rng.randint(1000, 9999)}",
                             "equipment_count": 0}
    for n in range(1, 41):
        cat, name, rate, rv = CATALOG[(n * 7) % len(CATALOG)]
        did = rng.choice(["D01", "D01", "D02", "D02", "D03", "D04"])
        eid = f"EQ-{n:04d}"
        db["equipment"][eid] = {
            "equipment_id": eid, "name": name, "category": cat, "depot_id": did, "serial_number": f"SN{rng.randint(100000, 999999)}",
            "daily_rate": rate, "replacement_value": float(rv), "operator_licence_required": cat in R.LICENCE_CATEGORIES,
            "status": "retired" if n in (9, 23, 37) else "available", "hire_count": rng.randint(3, 60),
            "last_service_date": (START - dt.timedelta(days=rng.randint(5, 150))).isoformat(),
            "last_moved_on": rng.choice([None, None, (START - dt.timedelta(days=rng.randint(10, 300))).isoformat()])}
        db["depots"][did]["equipment_count"] += 1
    for n, comp in enumerate(COMPANIES):
        cid = f"C-{1001 + n}"
        slug = comp.lower().replace(" & ", "").replace(" ", "")[:14]
        db["customers"][cid] = {
            "customer_id": cid, "company_name": comp, "contact_email": f"accounts@{slug}.co.uk",
            "status": "active", "licensed_operator": rng.random() < 0.6,
            "credit_limit": float(rng.choice([2500, 5000, 5000, 7500, 10000, 15000, 25000])),
            "balance": 0.0, "committed": 0.0, "open_contracts": 0,
            "account_opened_on": (START - dt.timedelta(days=rng.randint(60, 2000))).isoformat()}
    return db


def call(db, name, args):
    try:
        return R.invoke(db, name, args)
    except R.RefError:
        return None


def simulate():
    rng = random.Random(SEED)
    db = base_db(rng)
    slow = set(rng.sample(sorted(db["customers"]), 5))
    pay_day = {}
    d = START
    while d < TODAY:
        db["meta"]["today"] = d.isoformat()
        late_phase = (TODAY - d).days <= 6
        cons = {k: v for k, v in db["contracts"].items()}
        for c in sorted(cons.values(), key=lambda r: r["contract_id"]):
            sd, ed = dt.date.fromisoformat(c["start_date"]), dt.date.fromisoformat(c["end_date"])
            if c["status"] == "reserved":
                if sd == d and rng.random() < 0.85:
                    call(db, "check_out_contract", {"contract_id": c["contract_id"]})
                elif (d - sd).days >= 3 or ((d - sd).days == 2 and rng.random() < 0.5):
                    call(db, "cancel_contract", {"contract_id": c["contract_id"], "reason": "Customer did not collect"})
                elif sd > d and rng.random() < 0.02:
                    call(db, "cancel_contract", {"contract_id": c["contract_id"],
                                                 "reason": rng.choice(["Job postponed", "Client changed supplier",
                                                                       "Site access delayed", "Ordered in error"])})
            elif c["status"] == "on_hire":
                p = 0.8 if ed == d else (0.45 if ed < d else 0.01)
                if late_phase and ed < d:
                    p = 0.15
                if ed == d and rng.random() < 0.08:
                    call(db, "extend_contract", {"contract_id": c["contract_id"],
                                                 "new_end_date": (ed + dt.timedelta(days=rng.randint(2, 7))).isoformat()})
                elif rng.random() < p:
                    lvl = rng.choices(["none", "minor", "major"], [86, 10, 4])[0]
                    call(db, "return_contract", {"contract_id": c["contract_id"], "damage_level": lvl})
        for _ in range(rng.choice([1, 2, 2, 3] if (TODAY - d).days <= 12 else [0, 1, 1, 2, 2])):
            cid = rng.choice(sorted(db["customers"]))
            eid = rng.choice(sorted(db["equipment"]))
            sd = d + dt.timedelta(days=rng.choice([0, 1, 1, 2, 3, 5, 7, 10, 14, 21]))
            ln = rng.choice([1, 2, 3, 5, 5, 7, 7, 10, 14, 14, 21])
            args = {"customer_id": cid, "equipment_id": eid, "start_date": sd.isoformat(),
                    "end_date": (sd + dt.timedelta(days=ln - 1)).isoformat(), "damage_waiver": rng.random() < 0.4}
            if rng.random() < 0.5:
                args["po_number"] = f"PO-{rng.randint(10000, 99999)}"
            call(db, "create_contract", args)
        for h in sorted(db["maintenance_holds"].values(), key=lambda r: r["hold_id"]):
            if (h["status"] == "open" and dt.date.fromisoformat(h["expected_release"]) <= d and not late_phase
                    and rng.random() < 0.6):
                call(db, "release_maintenance_hold", {"hold_id": h["hold_id"],
                                                      "notes": rng.choice([None, "Serviced and tested", "Parts replaced"])})
        if rng.random() < (0.1 if not late_phase else 0.4):
            eid = rng.choice(sorted(db["equipment"]))
            call(db, "place_maintenance_hold", {"equipment_id": eid, "days": rng.randint(2, 10),
                                                "reason": rng.choice(["Scheduled 250-hour service", "LOLER inspection due",
                                                                      "Hydraulic leak reported", "Tyre replacement"])})
        if rng.random() < 0.05:
            call(db, "transfer_equipment", {"equipment_id": rng.choice(sorted(db["equipment"])),
                                            "to_depot_id": rng.choice(["D01", "D02", "D03", "D04"])})
        for inv in sorted(db["invoices"].values(), key=lambda r: r["invoice_id"]):
            if inv["status"] != "open":
                continue
            if inv["invoice_id"] not in pay_day:
                lag = rng.randint(35, 70) if inv["customer_id"] in slow else rng.randint(4, 29)
                pay_day[inv["invoice_id"]] = dt.date.fromisoformat(inv["issued_on"]) + dt.timedelta(days=lag)
            if pay_day[inv["invoice_id"]] == d:
                rem = R.money(R.D(inv["amount"]) - R.D(inv["amount_paid"]))
                amt = rem if rem < 300 or rng.random() < 0.7 else R.money(R.D(rem) * R.D("0.5"))
                call(db, "record_payment", {"invoice_id": inv["invoice_id"], "amount": amt,
                                            "method": rng.choice(R.PAYMENT_METHODS)})
                if amt != rem:
                    pay_day[inv["invoice_id"]] = d + dt.timedelta(days=rng.randint(10, 40))
        for inv in db["invoices"].values():  # credit control (outside the API) suspends long-overdue accounts
            if inv["status"] == "open" and (d - dt.date.fromisoformat(inv["due_on"])).days >= 14:
                db["customers"][inv["customer_id"]]["status"] = "suspended"
        d += dt.timedelta(days=1)
    db["meta"]["today"] = TODAY.isoformat()
    return db


if __name__ == "__main__":
    out = simulate()
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=False)
    print({k: len(v) for k, v in out.items() if k != "meta"})
