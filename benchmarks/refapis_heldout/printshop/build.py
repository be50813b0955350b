"""Writes db.json for the Tidewater Print Co. API. Stdlib only, fixed seed, deterministic."""
import json
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

rng = random.Random(731)
TODAY = date(2025, 3, 12)
CENT = Decimal("0.01")

META = {
    "today": TODAY.isoformat(),
    "shop_name": "Tidewater Print Co.",
    "currency": "USD",
    "tax_rate": 0.07,
    "rush_surcharge_rate": 0.30,
    "tier_discounts": {"standard": 0.0, "silver": 0.05, "gold": 0.10},
    "quote_valid_days": 30,
    "rush_quote_valid_days": 5,
    "rush_turnaround_days": 3,
    "max_open_quotes_per_customer": 5,
    "max_proof_rounds": 3,
    "free_proof_rounds": 2,
    "reproof_fee": 35.0,
    "cancellation_fee_rates": {"proofing": 0.0, "on_hold": 0.0, "approved": 0.10, "printing": 0.40},
    "courier_fee": 18.0,
    "freight_rate_per_unit": 0.015,
    "freight_minimum_fee": 45.0,
    "freight_minimum_quantity": 2000,
}


def money(x):
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)


def d(offset):
    return (TODAY + timedelta(days=offset)).isoformat()


def push_sunday(day):
    return day + timedelta(days=1) if day.weekday() == 6 else day


# ---------------------------------------------------------------- paper stocks and presses
STOCK_ROWS = [
    # id, name, finish, gsm, sheet size, price per sheet, on hand, active
    ("STK01", "Gloss Art 130", "gloss", 130, "SRA3", 0.06, 40000, True),
    ("STK02", "Matte Art 150", "matte", 150, "SRA3", 0.08, 25000, True),
    ("STK03", "Bond Uncoated 120", "uncoated", 120, "SRA3", 0.05, 18000, True),
    ("STK04", "Silk Board 350", "silk", 350, "SRA3", 0.22, 3000, True),
    ("STK05", "Cotton Uncoated 400", "uncoated", 400, "SRA3", 0.38, 900, True),
    ("STK06", "Gloss Art 170", "gloss", 170, "SRA3", 0.10, 12000, True),
    ("STK07", "Offset Gloss 115", "gloss", 115, "B1", 0.11, 150000, True),
    ("STK08", "Offset Matte 135", "matte", 135, "B1", 0.13, 60000, True),
    ("STK09", "Offset Uncoated 100", "uncoated", 100, "B1", 0.09, 8000, True),
    ("STK10", "Photo Satin 200", "satin", 200, "roll-cut", 0.95, 400, True),
    ("STK11", "Blueback Poster 115", "matte", 115, "roll-cut", 0.40, 150, True),
    ("STK12", "PVC Banner Vinyl 440", "vinyl", 440, "roll-cut", 3.20, 120, True),
    ("STK13", "Recycled Offset 90", "uncoated", 90, "B1", 0.07, 22000, False),
]
paper_stocks = {}
for sid, name, finish, gsm, size, price, onhand, active in STOCK_ROWS:
    paper_stocks[sid] = {"id": sid, "name": name, "finish": finish, "weight_gsm": gsm, "sheet_size": size,
                         "price_per_sheet": price, "sheets_on_hand": onhand, "active": active}

presses = {
    "PR01": {"id": "PR01", "name": "HP Indigo 12000", "press_type": "digital", "daily_capacity_sheets": 9000, "status": "active"},
    "PR02": {"id": "PR02", "name": "Konica AccurioPress C14000", "press_type": "digital", "daily_capacity_sheets": 7000, "status": "active"},
    "PR03": {"id": "PR03", "name": "Heidelberg Speedmaster XL 106", "press_type": "offset", "daily_capacity_sheets": 40000, "status": "active"},
    "PR04": {"id": "PR04", "name": "Komori Lithrone G40", "press_type": "offset", "daily_capacity_sheets": 30000, "status": "maintenance"},
    "PR05": {"id": "PR05", "name": "HP Latex 800W", "press_type": "wide_format", "daily_capacity_sheets": 300, "status": "active"},
}

# ---------------------------------------------------------------- products
DIGI = ["STK01", "STK02", "STK03", "STK06"]
PRODUCT_ROWS = [
    # id, name, category, press, size, ups, spu, step, min, max, bands, stocks, turnaround, rush, active
    ("P101", "Flyer A5 (digital)", "flyer", "digital", "148x210mm", 4, 1, 50, 100, 10000,
     [(100, 0.32), (250, 0.21), (500, 0.14), (1000, 0.09), (2500, 0.07)], DIGI, 5, True, True),
    ("P102", "Flyer A4 (digital)", "flyer", "digital", "210x297mm", 2, 1, 50, 100, 10000,
     [(100, 0.45), (250, 0.31), (500, 0.22), (1000, 0.16), (2500, 0.12)], DIGI, 5, True, True),
    ("P103", "Flyer A5 (offset)", "flyer", "offset", "148x210mm", 16, 1, 1000, 5000, 100000,
     [(5000, 0.035), (10000, 0.026), (25000, 0.019)], ["STK07", "STK08", "STK09", "STK13"], 8, False, True),
    ("P104", "Business Cards", "business_card", "digital", "85x55mm", 24, 1, 250, 250, 5000,
     [(250, 0.12), (500, 0.08), (1000, 0.05), (2500, 0.04)], ["STK04", "STK05"], 4, True, True),
    ("P105", "Poster A2", "poster", "wide_format", "420x594mm", 1, 1, 1, 1, 200,
     [(1, 18.0), (10, 12.5), (25, 9.75), (50, 8.4)], ["STK10", "STK11"], 3, True, True),
    ("P106", "Poster A3", "poster", "digital", "297x420mm", 1, 1, 10, 10, 2000,
     [(10, 1.8), (50, 1.2), (100, 0.85), (500, 0.6)], ["STK01", "STK02", "STK06"], 4, True, True),
    ("P107", "Booklet A5 16pp", "booklet", "digital", "148x210mm", 1, 2, 25, 50, 3000,
     [(50, 2.4), (100, 1.85), (250, 1.4), (500, 1.1), (1000, 0.95)], ["STK01", "STK02", "STK03"], 7, True, True),
    ("P108", "Booklet A4 24pp", "booklet", "digital", "210x297mm", 1, 6, 25, 50, 2000,
     [(50, 4.9), (100, 3.8), (250, 3.1), (500, 2.6)], ["STK01", "STK02", "STK06"], 8, True, True),
    ("P109", "Catalogue A4 48pp (offset)", "booklet", "offset", "210x297mm", 1, 6, 500, 1000, 20000,
     [(1000, 2.1), (2500, 1.55), (5000, 1.2), (10000, 0.98)], ["STK07", "STK08"], 12, False, True),
    ("P110", "Tri-fold Brochure A4", "brochure", "digital", "210x297mm", 2, 1, 50, 100, 5000,
     [(100, 0.8), (250, 0.55), (500, 0.4), (1000, 0.31)], ["STK01", "STK02", "STK06"], 5, True, True),
    ("P111", "Tri-fold Brochure A4 (offset)", "brochure", "offset", "210x297mm", 4, 1, 1000, 5000, 50000,
     [(5000, 0.09), (10000, 0.065), (25000, 0.05)], ["STK07", "STK08", "STK09"], 9, False, True),
    ("P112", "Vinyl Banner 2m", "banner", "wide_format", "2000x1000mm", 1, 1, 1, 1, 50,
     [(1, 65.0), (5, 52.0), (10, 44.0)], ["STK12"], 4, True, True),
    ("P113", "Roll-up Banner", "banner", "wide_format", "850x2000mm", 1, 1, 1, 1, 30,
     [(1, 89.0), (5, 79.0)], ["STK10", "STK12"], 5, True, True),
    ("P114", "Postcard A6", "postcard", "digital", "105x148mm", 8, 1, 100, 100, 10000,
     [(100, 0.28), (500, 0.12), (1000, 0.08), (5000, 0.05)], ["STK04", "STK06"], 4, True, True),
    ("P115", "Letterhead A4 (offset)", "stationery", "offset", "210x297mm", 8, 1, 500, 1000, 20000,
     [(1000, 0.06), (5000, 0.04)], ["STK09", "STK13"], 7, False, False),
    ("P116", "Door Hanger", "flyer", "digital", "100x280mm", 3, 1, 50, 100, 5000,
     [(100, 0.55), (500, 0.35), (1000, 0.24)], ["STK04", "STK06"], 5, False, True),
]
products = {}
for (pid, name, cat, ptype, size, ups, spu, step, mn, mx, bands, stocks, tat, rush, active) in PRODUCT_ROWS:
    products[pid] = {"id": pid, "name": name, "category": cat, "press_type": ptype, "finished_size": size,
                     "units_per_sheet": ups, "sheets_per_unit": spu, "quantity_step": step,
                     "min_quantity": mn, "max_quantity": mx,
                     "price_bands": [{"min_qty": q, "unit_price": p} for q, p in bands],
                     "allowed_stock_ids": list(stocks), "turnaround_days": tat,
                     "rush_available": rush, "active": active}

# ---------------------------------------------------------------- customers
NAMES = [
    "Harborview Dental Group", "Northside Brewing Co.", "Cedar & Pine Realty", "Bluewater Yacht Club",
    "Riverside Elementary PTA", "Kettle Moraine Bakery", "Summit Physical Therapy", "Ironclad Fitness",
    "Lakeshore Food Bank", "Golden Hour Photography", "Maple Street Books", "Pinecrest Veterinary Clinic",
    "Orbit Coffee Roasters", "St. Brendan's Parish", "Copperline Electrical", "Millbrook Public Library",
    "Seaside Surf Shop", "Granite Peak Outfitters", "Brightpath Tutoring", "County Parks Department",
    "Lantern Theatre Company", "Redwood Landscaping", "Quayside Seafood Market", "Nimbus Software Ltd",
    "Harbor Youth Soccer League", "Willow Lane Florist", "Atlas Freight Partners", "Blue Heron Winery",
    "Foxglove Boutique", "Meridian Law Offices", "Tidal Wave Car Wash", "Silverbirch Dental Lab",
    "Cornerstone Builders", "Painted Sky Gallery", "Evergreen Senior Living", "Rustic Table Catering",
    "Velocity Cycle Works", "Beacon Insurance Agency", "Sunflower Yoga Studio", "Keystone Auto Repair",
]
FIRST = ["Ana", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jonah", "Kira", "Luis",
         "Maya", "Nils", "Olga", "Priya", "Quinn", "Rosa", "Sam", "Tariq", "Uma", "Victor", "Wen", "Yara"]
LAST = ["Alvarez", "Brooks", "Chen", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad", "Ito", "Jensen",
        "Kowalski", "Lind", "Moreau", "Nakamura", "Okafor", "Patel", "Quist", "Reyes", "Silva", "Turner"]
EXEMPT = {"Riverside Elementary PTA", "Lakeshore Food Bank", "St. Brendan's Parish", "Millbrook Public Library",
          "County Parks Department", "Harbor Youth Soccer League"}
PO_REQ = {"Nimbus Software Ltd", "Atlas Freight Partners", "Meridian Law Offices", "Beacon Insurance Agency",
          "County Parks Department", "Evergreen Senior Living", "Cornerstone Builders", "Summit Physical Therapy"}
ON_HOLD = {"C1003", "C1017", "C1029"}
CLOSED = {"C1012", "C1036"}
PREPAID = {"C1006", "C1008", "C1011", "C1019", "C1023", "C1026", "C1031", "C1034", "C1037", "C1039"}
GOLD = {"C1002", "C1007", "C1013", "C1020", "C1024", "C1027", "C1033", "C1038"}
SILVER = {"C1001", "C1004", "C1009", "C1010", "C1016", "C1017", "C1021", "C1025", "C1028", "C1030", "C1035", "C1040"}
NEAR_LIMIT = {"C1010", "C1022", "C1032"}

customers = {}
for i, name in enumerate(NAMES):
    cid = "C%d" % (1001 + i)
    first, last = rng.choice(FIRST), rng.choice(LAST)
    slug = "".join(ch for ch in name.lower().split(" ")[0] if ch.isalnum())
    tier = "gold" if cid in GOLD else ("silver" if cid in SILVER else "standard")
    if cid in PREPAID:
        terms, limit = "prepaid", 0
        bal = -money(rng.choice([0, 0, 120, 450, 900, 1500, 2600, 4000]) + rng.randint(0, 99) / 100)
    else:
        terms = "net30"
        limit = rng.choice([2000, 5000, 5000, 10000, 10000, 25000])
        if cid in ON_HOLD:
            bal = money(limit * rng.uniform(1.02, 1.25))
        elif cid in NEAR_LIMIT:
            bal = money(limit * 0.985)
        else:
            bal = money(limit * rng.uniform(0.0, 0.7))
    customers[cid] = {
        "id": cid, "company_name": name, "contact_name": "%s %s" % (first, last),
        "email": "%s.%s@%s.example.com" % (first.lower(), last.lower(), slug),
        "tier": tier, "payment_terms": terms, "credit_limit": float(limit), "balance": float(bal),
        "status": "on_hold" if cid in ON_HOLD else ("closed" if cid in CLOSED else "active"),
        "tax_exempt": name in EXEMPT, "po_required": name in PO_REQ, "order_count": 0,
    }


# ---------------------------------------------------------------- pricing
def price(cust, prod, stock, qty, rush):
    band = [b for b in prod["price_bands"] if b["min_qty"] <= qty][-1]
    unit = Decimal(str(band["unit_price"]))
    sheets = -(-qty * prod["sheets_per_unit"] // prod["units_per_sheet"])
    print_charge = money(unit * qty)
    paper_charge = money(Decimal(str(stock["price_per_sheet"])) * sheets)
    subtotal = print_charge + paper_charge
    discount = money(subtotal * Decimal(str(META["tier_discounts"][cust["tier"]])))
    rush_fee = money((subtotal - discount) * Decimal("0.30")) if rush else Decimal("0.00")
    taxable = subtotal - discount + rush_fee
    tax = Decimal("0.00") if cust["tax_exempt"] else money(taxable * Decimal("0.07"))
    return {"unit_price": float(unit), "sheets_required": sheets, "print_charge": float(print_charge),
            "paper_charge": float(paper_charge), "subtotal": float(subtotal), "discount": float(discount),
            "rush_fee": float(rush_fee), "tax": float(tax), "total": float(taxable + tax)}


def pick_qty(prod):
    base = rng.choice([b["min_qty"] for b in prod["price_bands"]])
    q = base * rng.choice([1, 1, 1, 2, 3])
    q = max(prod["min_quantity"], min(prod["max_quantity"], q))
    return q - q % prod["quantity_step"]


quote_specs = []   # dicts with created date, later assigned ids in date order


def add_quote(cid, pid, sid, qty, rush, created, status):
    c, p, s = customers[cid], products[pid], paper_stocks[sid]
    valid = created + timedelta(days=META["rush_quote_valid_days"] if rush else META["quote_valid_days"])
    q = {"customer_id": cid, "product_id": pid, "stock_id": sid, "quantity": qty, "rush": rush}
    q.update(price(c, p, s, qty, rush))
    q.update({"created_date": created.isoformat(), "valid_until": valid.isoformat(), "status": status,
              "order_id": None})
    quote_specs.append(q)
    return q


ACTIVE_C = sorted(c for c in customers if customers[c]["status"] == "active")
ORDERING_C = [c for c in ACTIVE_C if c not in NEAR_LIMIT]
LIVE_P = sorted(p for p in products if products[p]["active"])


def random_combo(press_types=None):
    while True:
        pid = rng.choice(LIVE_P)
        p = products[pid]
        if press_types and p["press_type"] not in press_types:
            continue
        sid = rng.choice([s for s in p["allowed_stock_ids"] if paper_stocks[s]["active"]])
        return pid, sid, pick_qty(p)


# ---------------------------------------------------------------- orders
order_specs = []


def add_order(cid, pid, sid, qty, rush, accept_days_ago, status, **extra):
    accepted = TODAY - timedelta(days=accept_days_ago)
    created = accepted - timedelta(days=rng.randint(0, 2 if rush else 6))
    q = add_quote(cid, pid, sid, qty, rush, created, "accepted")
    p = products[pid]
    due = push_sunday(accepted + timedelta(days=META["rush_turnaround_days"] if rush else p["turnaround_days"]))
    o = {"quote": q, "customer_id": cid, "product_id": pid, "stock_id": sid, "quantity": qty, "rush": rush,
         "sheets_required": q["sheets_required"], "base_total": q["total"], "status": status,
         "created_date": accepted.isoformat(), "due_date": due.isoformat()}
    o.update(extra)
    order_specs.append(o)
    return o


# printing orders: (customer, product, stock, qty, rush, press, run offset)
PRINTING = [
    ("C1002", "P108", "STK02", 1350, False, "PR01", 2),
    ("C1005", "P101", "STK01", 2000, False, "PR01", 2),
    ("C1013", "P109", "STK07", 5500, False, "PR03", 1),
    ("C1020", "P103", "STK08", 20000, False, "PR03", 1),
    ("C1009", "P105", "STK10", 180, False, "PR05", 2),
    ("C1027", "P112", "STK12", 40, False, "PR05", 2),
    ("C1016", "P104", "STK04", 1000, False, "PR02", 0),
    ("C1025", "P110", "STK06", 500, False, "PR02", -1),
    ("C1033", "P107", "STK03", 1500, False, "PR02", 5),
    ("C1021", "P114", "STK06", 2000, True, "PR01", -1),
]
for cid, pid, sid, qty, rush, press, run in PRINTING:
    tat = META["rush_turnaround_days"] if rush else products[pid]["turnaround_days"]
    ago = max(1, tat - run - rng.randint(0, 1))
    add_order(cid, pid, sid, qty, rush, ago, "printing", press=press, run=run)

# approved orders waiting for a press slot: (customer, product, stock, qty, rush, accepted days ago)
APPROVED = [
    ("C1005", "P101", "STK01", 5000, False, 2),
    ("C1024", "P107", "STK02", 1000, False, 3),
    ("C1007", "P103", "STK07", 50000, False, 3),
    ("C1001", "P109", "STK08", 2000, False, 4),
    ("C1030", "P111", "STK09", 40000, False, 2),
    ("C1014", "P105", "STK11", 100, False, 1),
    ("C1018", "P106", "STK06", 500, False, 2),
    ("C1003", "P104", "STK05", 5000, False, 2),
    ("C1038", "P113", "STK12", 10, False, 9),
    ("C1040", "P102", "STK01", 3000, True, 1),
    ("C1017", "P110", "STK02", 1000, False, 3),
    ("C1028", "P114", "STK04", 3000, False, 1),
]
for cid, pid, sid, qty, rush, ago in APPROVED:
    add_order(cid, pid, sid, qty, rush, ago, "approved")

# orders in proofing: (customer, rounds, last proof state)
PROOFING = [("C1004", 0, None), ("C1015", 0, None), ("C1034", 0, None), ("C1009", 1, "pending"),
            ("C1026", 1, "pending"), ("C1002", 1, "rejected"), ("C1021", 1, "rejected"),
            ("C1035", 2, "rejected"), ("C1031", 2, "rejected"), ("C1011", 2, "pending"),
            ("C1025", 3, "pending"), ("C1018", 2, "pending")]
for cid, rounds, last in PROOFING:
    pid, sid, qty = random_combo()
    rush = products[pid]["rush_available"] and rng.random() < 0.2
    add_order(cid, pid, sid, qty, rush, rng.randint(0, 2) if rush else rng.randint(0, 5), "proofing",
              rounds=rounds, last=last)
for cid in ["C1019", "C1040"]:
    pid, sid, qty = random_combo()
    add_order(cid, pid, sid, qty, False, rng.randint(6, 12), "on_hold", rounds=3, last="rejected")

# shipped orders
for k in range(16):
    cid = rng.choice(sorted(customers))
    pid, sid, qty = random_combo()
    p = products[pid]
    ago = rng.randint(18, 75)
    add_order(cid, pid, sid, qty, False, ago, "shipped")

# cancelled orders: (stage at cancellation)
for stage in ["proofing", "proofing", "approved", "on_hold", "printing", "approved", "proofing"]:
    cid = rng.choice(ORDERING_C)
    pid, sid, qty = random_combo()
    add_order(cid, pid, sid, qty, False, rng.randint(5, 40), "cancelled", stage=stage)

# open and expired quotes
for cid in ["C1007", "C1022"]:           # two customers at the open-quote limit
    for k in range(5):
        pid, sid, qty = random_combo()
        add_quote(cid, pid, sid, qty, False, TODAY - timedelta(days=rng.randint(0, 25)), "open")
for k in range(22):
    cid = rng.choice([c for c in sorted(customers) if customers[c]["status"] != "closed" and c not in ("C1007", "C1022")])
    pid, sid, qty = random_combo()
    rush = products[pid]["rush_available"] and rng.random() < 0.25
    ago = rng.randint(0, 8) if rush else rng.randint(0, 36)
    add_quote(cid, pid, sid, qty, rush, TODAY - timedelta(days=ago), "open")
for k in range(9):
    cid = rng.choice(sorted(customers))
    pid, sid, qty = random_combo()
    add_quote(cid, pid, sid, qty, False, TODAY - timedelta(days=rng.randint(33, 90)), "expired")

# ---------------------------------------------------------------- assign ids and build records
quote_specs.sort(key=lambda q: q["created_date"])
quotes = {}
for i, q in enumerate(quote_specs):
    q["id"] = "Q%04d" % (301 + i)
for q in quote_specs:
    rec = {"id": q["id"]}
    rec.update({k: v for k, v in q.items() if k != "id"})
    quotes[q["id"]] = rec

order_specs.sort(key=lambda o: o["created_date"])
orders, proofs, jobs, shipments = {}, {}, {}, {}
proof_rows, job_rows, ship_rows = [], [], []
for i, o in enumerate(order_specs):
    oid = "ORD-%04d" % (2001 + i)
    q = quotes[o["quote"]["id"]]
    q["order_id"] = oid
    cust = customers[o["customer_id"]]
    cust["order_count"] += 1
    created = date.fromisoformat(o["created_date"])
    status = o["status"]
    stage = o.get("stage", status)
    # proof history
    if stage in ("proofing", "on_hold"):
        rounds, last = o.get("rounds", rng.randint(0, 2)), o.get("last", "rejected")
        if status == "cancelled":
            rounds = rng.randint(0, 2) if stage == "proofing" else 3
    else:
        rounds, last = rng.choice([1, 1, 1, 2, 2, 3]), "approved"
    day = created
    for r in range(1, rounds + 1):
        day = min(day + timedelta(days=rng.randint(0, 1)), TODAY)
        st = last if r == rounds else "rejected"
        decided = None if st == "pending" else min(day + timedelta(days=rng.randint(0, 1)), TODAY)
        proof_rows.append({"order_id": oid, "round": r, "status": st, "submitted_date": day.isoformat(),
                           "decided_date": decided.isoformat() if decided else None,
                           "file_name": "%s_r%d.pdf" % (oid.lower().replace("-", ""), r),
                           "notes": None if r == 1 else "Revised per customer comments",
                           "reviewer_comments": rng.choice(["Logo too small", "Typo in phone number",
                                                            "Colours look dull", "Wrong address on back",
                                                            "Move the QR code"]) if st == "rejected" else None})
        if decided:
            day = decided
    reproof = max(0, rounds - META["free_proof_rounds"]) * META["reproof_fee"]
    total = float(money(o["base_total"]) + money(reproof))
    rec = {"id": oid, "quote_id": q["id"], "customer_id": o["customer_id"], "product_id": o["product_id"],
           "stock_id": o["stock_id"], "quantity": o["quantity"], "rush": o["rush"],
           "sheets_required": o["sheets_required"],
           "po_number": ("PO-%05d" % rng.randint(10000, 99999)) if cust["po_required"] else None,
           "total": total, "reproof_charges": float(money(reproof)), "proof_rounds": rounds,
           "status": status, "created_date": o["created_date"], "due_date": o["due_date"],
           "job_id": None, "shipped_date": None, "shipment_id": None,
           "cancel_reason": None, "cancellation_fee": None, "cancelled_date": None}
    p = products[o["product_id"]]
    if status in ("printing", "shipped") or stage == "printing":
        if status == "printing":
            press, run = o["press"], TODAY + timedelta(days=o["run"])
        else:
            press = rng.choice(sorted(k for k in presses if presses[k]["press_type"] == p["press_type"]))
            run = push_sunday(max(day + timedelta(days=1), date.fromisoformat(o["due_date"]) - timedelta(days=1)))
            if status == "cancelled":
                run = push_sunday(TODAY + timedelta(days=rng.randint(4, 9)))
        job_rows.append({"order_id": oid, "press_id": press, "run_date": run.isoformat(),
                         "sheets": o["sheets_required"],
                         "status": {"printing": "scheduled", "shipped": "completed"}.get(status, "cancelled")})
        if status == "shipped":
            ship = min(run + timedelta(days=rng.randint(0, 2)), TODAY)
            method = rng.choice(["pickup", "courier", "courier", "freight"])
            if method == "freight" and o["quantity"] < META["freight_minimum_quantity"]:
                method = "courier"
            if method == "pickup":
                fee = Decimal("0.00")
            elif method == "courier":
                fee = Decimal("0.00") if cust["tier"] == "gold" else money(META["courier_fee"])
            else:
                fee = max(money(Decimal("0.015") * o["quantity"]), money(META["freight_minimum_fee"]))
            ship_rows.append({"order_id": oid, "customer_id": o["customer_id"], "method": method,
                              "address": None if method == "pickup" else
                              "%d %s, Port Alden" % (rng.randint(10, 980), rng.choice(
                                  ["Harbor Rd", "Quay St", "Mill Ave", "Beacon Way", "Elm St", "Dock Ln"])),
                              "fee": float(fee), "ship_date": ship.isoformat()})
            rec["shipped_date"] = ship.isoformat()
    if status == "cancelled":
        rate = Decimal(str(META["cancellation_fee_rates"][stage]))
        rec["cancellation_fee"] = float(money(Decimal(str(total)) * rate))
        rec["cancel_reason"] = rng.choice(["Event postponed", "Customer changed supplier", "Artwork not ready",
                                           "Budget cut", "Duplicate order"])
        rec["cancelled_date"] = (TODAY - timedelta(days=rng.randint(1, 4))).isoformat()
    orders[oid] = rec

proof_rows.sort(key=lambda r: (r["submitted_date"], r["order_id"], r["round"]))
for i, r in enumerate(proof_rows):
    pid = "PF%04d" % (501 + i)
    proofs[pid] = dict({"id": pid}, **r)
job_rows.sort(key=lambda r: (r["run_date"], r["order_id"]))
for i, r in enumerate(job_rows):
    jid = "JB%04d" % (801 + i)
    jobs[jid] = dict({"id": jid}, **r)
    orders[r["order_id"]]["job_id"] = jid
ship_rows.sort(key=lambda r: (r["ship_date"], r["order_id"]))
for i, r in enumerate(ship_rows):
    sid = "SH%04d" % (101 + i)
    shipments[sid] = dict({"id": sid}, **r)
    orders[r["order_id"]]["shipment_id"] = sid

# paper already taken by scheduled or completed jobs is reflected in sheets_on_hand as given.
payments = {}
pay_rows = []
for k in range(30):
    cid = rng.choice(sorted(customers))
    method = rng.choice(["ach", "ach", "check", "card", "wire"])
    pay_rows.append({"customer_id": cid, "amount": float(money(rng.randint(50, 4000) + rng.randint(0, 99) / 100)),
                     "method": method,
                     "reference": ("%06d" % rng.randint(1000, 999999)) if method == "check" else None,
                     "date": d(-rng.randint(1, 60))})
pay_rows.sort(key=lambda r: r["date"])
for i, r in enumerate(pay_rows):
    pid = "PM%04d" % (1 + i)
    payments[pid] = dict({"id": pid}, **r)

db = {"meta": META, "customers": customers, "products": products, "paper_stocks": paper_stocks,
      "presses": presses, "quotes": quotes, "orders": orders, "proofs": proofs, "jobs": jobs,
      "shipments": shipments, "payments": payments}

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as f:
    json.dump(db, f, indent=1)
    f.write("\n")
