"""Writes db.json for the nursery trade-order desk API deterministically (stdlib only).

The catalogue, lots, customers and delivery-run calendar are generated directly; the order
history of the last six weeks is then replayed day by day through ref_impl so that every
order, run, lot, credit note and payment is consistent with the documented rules.
"""
import datetime as dt
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ref_impl as R  # noqa: E402

TODAY = dt.date(2025, 10, 14)
START = TODAY - dt.timedelta(days=35)
rng = random.Random(41014)


def d(x):
    return x.isoformat()


# ---------------------------------------------------------------- catalogue
PLANTS = [
    ("Acer campestre", "Field Maple", "hedging", "bare_root"),
    ("Crataegus monogyna", "Common Hawthorn", "hedging", "bare_root"),
    ("Fagus sylvatica", "Green Beech", "hedging", "bare_root"),
    ("Carpinus betulus", "Hornbeam", "hedging", "bare_root"),
    ("Corylus avellana", "Hazel", "hedging", "bare_root"),
    ("Rosa rugosa", "Ramanas Rose", "hedging", "bare_root"),
    ("Ilex aquifolium", "Common Holly", "hedging", "2L"),
    ("Taxus baccata", "English Yew", "hedging", "rootball"),
    ("Prunus lusitanica", "Portugal Laurel", "hedging", "rootball"),
    ("Ligustrum ovalifolium", "Oval-leaf Privet", "hedging", "3L"),
    ("Betula pendula", "Silver Birch", "tree", "10L"),
    ("Sorbus aucuparia", "Rowan", "tree", "10L"),
    ("Malus 'Red Sentinel'", "Crab Apple Red Sentinel", "tree", "20L"),
    ("Amelanchier lamarckii", "Snowy Mespilus", "tree", "20L"),
    ("Prunus avium", "Wild Cherry", "tree", "bare_root"),
    ("Quercus robur", "English Oak", "tree", "rootball"),
    ("Cornus alba 'Sibirica'", "Red-barked Dogwood", "shrub", "3L"),
    ("Viburnum tinus", "Laurustinus", "shrub", "5L"),
    ("Pittosporum tenuifolium", "Kohuhu", "shrub", "3L"),
    ("Hydrangea paniculata 'Limelight'", "Panicle Hydrangea Limelight", "shrub", "5L"),
    ("Lavandula angustifolia 'Hidcote'", "English Lavender Hidcote", "shrub", "1L"),
    ("Choisya ternata", "Mexican Orange Blossom", "shrub", "5L"),
    ("Euonymus fortunei 'Emerald Gaiety'", "Wintercreeper Emerald Gaiety", "shrub", "2L"),
    ("Sarcococca confusa", "Sweet Box", "shrub", "2L"),
    ("Skimmia japonica 'Rubella'", "Skimmia Rubella", "shrub", "3L"),
    ("Buddleja davidii 'Black Knight'", "Butterfly Bush Black Knight", "shrub", "3L"),
    ("Hebe 'Great Orme'", "Shrubby Veronica Great Orme", "shrub", "2L"),
    ("Photinia x fraseri 'Red Robin'", "Red Robin", "shrub", "10L"),
    ("Geranium 'Rozanne'", "Cranesbill Rozanne", "perennial", "P9"),
    ("Nepeta x faassenii", "Catmint", "perennial", "P9"),
    ("Salvia nemorosa 'Caradonna'", "Woodland Sage Caradonna", "perennial", "1L"),
    ("Alchemilla mollis", "Lady's Mantle", "perennial", "P9"),
    ("Echinacea purpurea", "Purple Coneflower", "perennial", "2L"),
    ("Rudbeckia fulgida 'Goldsturm'", "Black-eyed Susan Goldsturm", "perennial", "1L"),
    ("Heuchera 'Palace Purple'", "Coral Bells Palace Purple", "perennial", "P9"),
    ("Persicaria amplexicaulis", "Red Bistort", "perennial", "2L"),
    ("Hemerocallis 'Stella de Oro'", "Daylily Stella de Oro", "perennial", "1L"),
    ("Astrantia major", "Masterwort", "perennial", "P9"),
    ("Anemone x hybrida 'Honorine Jobert'", "Japanese Anemone Honorine Jobert", "perennial", "2L"),
    ("Verbena bonariensis", "Purpletop Vervain", "perennial", "P9"),
    ("Stipa tenuissima", "Mexican Feather Grass", "grass", "P9"),
    ("Calamagrostis x acutiflora 'Karl Foerster'", "Feather Reed Grass", "grass", "2L"),
    ("Miscanthus sinensis 'Morning Light'", "Eulalia Morning Light", "grass", "3L"),
    ("Pennisetum alopecuroides 'Hameln'", "Fountain Grass Hameln", "grass", "1L"),
    ("Festuca glauca", "Blue Fescue", "grass", "P9"),
    ("Carex testacea", "Orange New Zealand Sedge", "grass", "1L"),
    ("Hakonechloa macra", "Japanese Forest Grass", "grass", "2L"),
    ("Clematis montana 'Rubens'", "Pink Clematis Rubens", "climber", "3L"),
    ("Hedera helix", "Common Ivy", "climber", "P9"),
    ("Trachelospermum jasminoides", "Star Jasmine", "climber", "5L"),
    ("Lonicera periclymenum", "Common Honeysuckle", "climber", "2L"),
    ("Hydrangea anomala subsp. petiolaris", "Climbing Hydrangea", "climber", "5L"),
    ("Parthenocissus tricuspidata", "Boston Ivy", "climber", "3L"),
    ("Dryopteris filix-mas", "Male Fern", "fern", "2L"),
    ("Polystichum setiferum", "Soft Shield Fern", "fern", "1L"),
    ("Asplenium scolopendrium", "Hart's-tongue Fern", "fern", "P9"),
    ("Matteuccia struthiopteris", "Shuttlecock Fern", "fern", "2L"),
    ("Cotoneaster lacteus", "Late Cotoneaster", "shrub", "20L"),
    ("Griselinia littoralis", "New Zealand Broadleaf", "hedging", "3L"),
    ("Escallonia 'Apple Blossom'", "Escallonia Apple Blossom", "hedging", "2L"),
]
POT = {  # pot_size: (pack_size, load_units, price range, break quantities, lot size range)
    "P9": (12, 1, (1.15, 2.60), (48, 240), (300, 1400)),
    "1L": (6, 2, (2.40, 4.60), (36, 180), (150, 700)),
    "2L": (1, 3, (3.90, 7.20), (20, 100), (80, 420)),
    "3L": (1, 4, (5.40, 9.80), (20, 100), (60, 360)),
    "5L": (1, 6, (8.90, 16.50), (10, 50), (40, 200)),
    "10L": (1, 12, (18.00, 36.00), (10, 40), (20, 110)),
    "20L": (1, 25, (36.00, 72.00), (5, 20), (8, 45)),
    "bare_root": (25, 1, (0.65, 2.40), (100, 500), (800, 4000)),
    "rootball": (1, 20, (28.00, 62.00), (5, 20), (15, 70)),
}
ALL_YEAR = list(range(1, 13))


def months(cat, pot):
    if pot == "bare_root":
        return [1, 2, 3, 11, 12]
    if pot == "rootball":
        return [1, 2, 3, 4, 10, 11, 12]
    if cat in ("perennial", "fern"):
        return list(range(3, 11))
    if cat == "grass":
        return list(range(3, 12))
    return ALL_YEAR


def money(lo, hi):
    return round(rng.randint(int(lo * 100), int(hi * 100)) / 100, 2)


plants = {}
for i, (bot, com, cat, pot) in enumerate(PLANTS):
    pid = f"PL{301 + i}"
    pack, load, (lo, hi), (b1, b2), _ = POT[pot]
    lp = money(lo, hi)
    plants[pid] = {"plant_id": pid, "botanical_name": bot, "common_name": com, "category": cat,
                   "pot_size": pot, "pack_size": pack, "load_units": load, "list_price": lp,
                   "price_breaks": [{"min_qty": b1, "unit_price": round(lp * 0.92, 2)},
                                    {"min_qty": b2, "unit_price": round(lp * 0.85, 2)}],
                   "available_months": months(cat, pot),
                   "status": "withdrawn" if i in (9, 26, 45) else "listed"}

BAYS = ["Tunnel 1", "Tunnel 2", "Tunnel 3", "Tunnel 4", "Standing Ground A", "Standing Ground B",
        "Field Bed 7", "Field Bed 12", "Cold Frame Row", "Shade House"]
lots = {}
n = 0
for pid, p in plants.items():
    for k in range(rng.choice([1, 2, 2, 3])):
        n += 1
        lid = f"LT{5000 + n}"
        pack = p["pack_size"]
        lo, hi = POT[p["pot_size"]][4]
        qty = rng.randint(lo // pack, hi // pack) * pack
        if p["pot_size"] == "bare_root" and k == 0:
            ready = TODAY + dt.timedelta(days=rng.choice([18, 22, 25, 32]))
        elif rng.random() < 0.18:
            ready = TODAY + dt.timedelta(days=rng.randint(10, 95))
        else:
            ready = START - dt.timedelta(days=rng.randint(5, 200))
        lots[lid] = {"lot_id": lid, "plant_id": pid, "bay": rng.choice(BAYS),
                     "grade": "B" if rng.random() < 0.22 else "A", "ready_date": d(ready),
                     "quantity_on_hand": qty, "quantity_reserved": 0,
                     "quarantine": rng.random() < 0.07}

# ---------------------------------------------------------------- customers
CUSTOMERS = [
    ("Fernhill Landscapes", "landscaper"), ("Oakbridge Garden Centre", "garden_centre"),
    ("Westmarch District Council", "local_authority"), ("Kellowby Estate", "estate"),
    ("Greenacre Grounds Ltd", "landscaper"), ("Petal & Stem", "florist"),
    ("Marlow Vale Garden Centre", "garden_centre"), ("Thistledown Design", "landscaper"),
    ("Brackenford Town Council", "local_authority"), ("Harrowgate Hall", "estate"),
    ("Quarry Lane Nurseries Retail", "garden_centre"), ("Ashcombe Landscaping", "landscaper"),
    ("Willowmere Parks Trust", "local_authority"), ("Bluebell & Birch", "florist"),
    ("Stonecross Gardens", "landscaper"), ("Elmstead Garden Centre", "garden_centre"),
    ("Redmoor Estate", "estate"), ("Cobble Yard Planting", "landscaper"),
    ("Northfleet Borough Council", "local_authority"), ("Lark Rise Garden Centre", "garden_centre"),
    ("Meadowsweet Flowers", "florist"), ("Highgrove Terrace Landscapes", "landscaper"),
    ("Pennyroyal Garden Design", "landscaper"), ("Castle Brae Estate", "estate"),
    ("Riverside Garden Supplies", "garden_centre"), ("Tanglewood Landscapes", "landscaper"),
    ("Eastwick Parish Council", "local_authority"), ("Sweet Briar Florist", "florist"),
    ("Foxglove Garden Centre", "garden_centre"), ("Orchard End Landscapes", "landscaper"),
    ("Hollins Park Estate", "estate"), ("Greystone Grounds Maintenance", "landscaper"),
    ("Daisy Chain Garden Centre", "garden_centre"), ("Wrenfield Landscapes", "landscaper"),
    ("Coldharbour County Council", "local_authority"), ("Maple & Moss", "florist"),
]
ZONES = ["central", "north", "east", "west"]
customers = {}
for i, (name, ctype) in enumerate(CUSTOMERS):
    cid = f"CU{1001 + i}"
    limit = rng.choice({"landscaper": [3000, 5000, 7500, 10000], "garden_centre": [10000, 15000, 20000],
                        "local_authority": [20000, 25000, 40000], "estate": [7500, 10000, 15000],
                        "florist": [1500, 2500, 3000]}[ctype])
    status = "closed" if i in (13, 31) else "on_hold" if i in (4, 17, 25, 33) else "open"
    used = round(limit * rng.uniform(0.82, 0.97), 2) if status == "on_hold" else \
        round(limit * rng.uniform(0.05, 0.7), 2)
    slug = "".join(c for c in name.lower() if c.isalnum())[:18]
    customers[cid] = {"customer_id": cid, "business_name": name, "customer_type": ctype,
                      "delivery_zone": ZONES[(i * 7 + i // 4) % 4], "account_status": status,
                      "credit_limit": float(limit), "credit_used": used,
                      "trade_discount_pct": rng.choice([0.0, 0.0, 2.5, 5.0, 7.5]),
                      "po_required": ctype in ("local_authority", "estate"),
                      "contact_email": f"orders@{slug}.example", "orders_placed": rng.randint(3, 60),
                      "last_payment_on": None,
                      "created_on": d(START - dt.timedelta(days=rng.randint(60, 2200)))}

# ---------------------------------------------------------------- delivery runs
RUN_DAYS = {"central": {0, 1, 2, 3, 4, 5}, "north": {1, 3, 5}, "east": {0, 2, 4}, "west": {1, 4}}
FLEET = [("HM21 KLR", 6000, 14), ("HM19 BXT", 3500, 10), ("HM23 VNA", 1200, 6), ("HM22 VNB", 1200, 6)]
DRIVERS = ["Gareth Pryce", "Dawn Ellery", "Tomasz Wrobel", "Kerry Ashdown", "Imran Qadir"]
runs = {}
day = START
while day <= TODAY + dt.timedelta(days=21):
    fleet = list(FLEET)
    rng.shuffle(fleet)
    for zone in ZONES:
        if day.weekday() in RUN_DAYS[zone]:
            reg, cap, stops = fleet.pop()
            rid = f"DR{len(runs) + 1:04d}"
            runs[rid] = {"run_id": rid, "run_date": d(day), "zone": zone, "vehicle_reg": reg,
                         "capacity_units": cap, "max_stops": stops, "load_units": 0,
                         "stop_count": 0, "status": "planned", "driver_name": None,
                         "dispatched_on": None, "completed_on": None}
    day += dt.timedelta(days=1)

db = {"meta": {"today": d(START), "currency": "GBP", "nursery": "Hollowmere Nurseries",
               "timezone": "Europe/London"},
      "customers": customers, "plants": plants, "lots": lots, "runs": runs,
      "orders": {"SO24000": {"order_id": "SO24000", "customer_id": "", "status": "cancelled",
                             "po_reference": None, "run_id": None}},
      "credit_notes": {"CN0000": {}}, "payments": {"PY00000": {}}}


# ---------------------------------------------------------------- replay six weeks of trade
def call(name, args):
    try:
        return R.invoke(db, name, args)
    except R.RefError:
        return None


po_seq = [3000]
NOTES = ["Call 30 min before arrival", "Site gate code 4471", "Deliver to rear goods-in",
         "Tail-lift needed", "Unload by the polytunnels", "Ask for the head gardener"]
RECEIVERS = ["J. Marsh", "S. Oduya", "P. Lindgren", "R. Kaur", "M. Dobbs", "L. Fairweather"]


def new_order(today, date=None):
    pool = sorted(c for c in customers if customers[c]["account_status"] == "open" or rng.random() < 0.15)
    if date is not None:  # a busy delivery day: only customers of the zones served that day
        pool = [c for c in pool if date.weekday() in RUN_DAYS[customers[c]["delivery_zone"]]]
    cust = customers[rng.choice(pool)]
    zone = cust["delivery_zone"]
    pre = date is None and rng.random() < 0.2
    dates = [today + dt.timedelta(days=k) for k in (range(24, 80) if pre else rng.choice([range(2, 8), range(2, 15)]))]
    dates = [x for x in dates if x.weekday() in RUN_DAYS[zone]]
    date = date or rng.choice(dates)
    pool = [lid for lid, lot in sorted(lots.items())
            if not lot["quarantine"] and plants[lot["plant_id"]]["status"] == "listed"
            and date.month in plants[lot["plant_id"]]["available_months"]
            and dt.date.fromisoformat(lot["ready_date"]) <= date and R._free(lot) > 0]
    if not pool:
        return
    picks = rng.sample(pool, min(len(pool), rng.choice([1, 2, 2, 3, 3, 4])))
    later = [lid for lid in pool if dt.date.fromisoformat(lots[lid]["ready_date"]) > today]
    if pre and later and not set(picks) & set(later):
        picks[0] = rng.choice(later)
    lines = []
    for lid in dict.fromkeys(picks):
        lot, p = lots[lid], plants[lots[lid]["plant_id"]]
        cap = min(R._free(lot), 700 // p["load_units"]) // p["pack_size"]
        if cap < 1:
            continue
        lines.append({"lot_id": lid, "quantity": p["pack_size"] * rng.randint(max(1, cap // 8), max(1, cap // 3))})
    args = {"customer_id": cust["customer_id"], "delivery_date": d(date), "lines": lines}
    if cust["po_required"] or rng.random() < 0.35:
        po_seq[0] += rng.randint(1, 9)
        args["po_reference"] = f"PO-{po_seq[0]}"
    if rng.random() < 0.3:
        args["delivery_notes"] = rng.choice(NOTES)
    call("create_order", args)


day = START
while day <= TODAY:
    db["meta"]["today"] = d(day)
    last = day == TODAY
    for _ in range(rng.choice([2, 3, 3, 4, 4])):
        new_order(day)
    if TODAY - dt.timedelta(days=5) <= day <= TODAY - dt.timedelta(days=3):
        for _ in range(3):
            new_order(day, TODAY - dt.timedelta(days=rng.choice([0, 0, 1])))
    orders = db["orders"]
    for oid in sorted(orders):
        o = orders[oid]
        if oid == "SO24000":
            continue
        ddate = dt.date.fromisoformat(o["delivery_date"])
        if o["status"] == "draft" and not (last and o["created_on"] == d(day)):
            if ddate < day:
                cust = customers[o["customer_id"]]
                short = cust["credit_used"] + o["order_total"] > cust["credit_limit"]
                call("cancel_order", {"order_id": oid, "reason": "credit_issue" if short else "customer_request"})
            elif rng.random() < (0.15 if day >= TODAY - dt.timedelta(days=2) else 0.6):
                call("confirm_order", {"order_id": oid})
            elif rng.random() < 0.08:
                call("update_order", {"order_id": oid, "delivery_notes": rng.choice(NOTES)})
        elif o["status"] == "confirmed" and ((ddate - day).days <= 4 or (
                day < TODAY - dt.timedelta(days=2) and rng.random() < 0.5)):
            rid = next((r for r, run in sorted(runs.items()) if run["run_date"] == o["delivery_date"]
                        and run["zone"] == customers[o["customer_id"]]["delivery_zone"]), None)
            if (rid is None or call("assign_order_to_run", {"order_id": oid, "run_id": rid}) is None) \
                    and (ddate - day).days <= 4:
                call("cancel_order", {"order_id": oid, "reason": "stock_issue"})
        elif o["status"] == "confirmed" and rng.random() < 0.05:
            call("update_order", {"order_id": oid, "delivery_notes": rng.choice(NOTES)})
        elif o["status"] in ("confirmed", "scheduled") and rng.random() < 0.012:
            call("cancel_order", {"order_id": oid, "reason": rng.choice(["customer_request", "duplicate"])})
    for rid, run in sorted(runs.items()):
        if run["run_date"] == d(day) and run["stop_count"] and (not last or run["zone"] == "west"):
            call("dispatch_run", {"run_id": rid, "driver_name": rng.choice(DRIVERS)})
    for oid in sorted(orders):
        o = orders[oid]
        if o["status"] == "dispatched":
            late = dt.date.fromisoformat(o["dispatched_on"]) < day
            if not last and rng.random() < (1.0 if late else 0.9 if day < TODAY - dt.timedelta(days=1) else 0.3):
                call("record_delivery", {"order_id": oid, "received_by": rng.choice(RECEIVERS)})
        if o["status"] == "delivered" and o["delivered_on"] >= d(day - dt.timedelta(days=3)) \
                and rng.random() < 0.09:
            ln = rng.choice(o["lines"])
            call("issue_doa_credit", {"order_id": oid, "line_no": ln["line_no"],
                                      "quantity": max(1, ln["quantity"] // rng.choice([10, 20, 40])),
                                      "reason": rng.choice(R.DOA_REASONS)})
    for cid in rng.sample(sorted(customers), rng.choice([0, 1, 1, 2])):
        used = customers[cid]["credit_used"]
        if used >= 50 and (customers[cid]["account_status"] == "open" or rng.random() < 0.2):
            amt = round(used * rng.choice([0.2, 0.3, 0.5, 1.0]), 2)
            call("record_payment", {"customer_id": cid, "amount": amt,
                                    "method": rng.choice(R.PAY_METHODS),
                                    "reference": rng.choice([None, f"BACS {rng.randint(100000, 999999)}"])})
    day += dt.timedelta(days=1)

# two landscape schemes written today that no longer fit on their zone's (van) run
big = 0
for rid, run in sorted(runs.items()):
    if big == 2 or run["status"] != "planned" or not run["load_units"] or run["capacity_units"] > 1200 \
            or run["run_date"] < d(TODAY + dt.timedelta(days=2)):
        continue
    room = run["capacity_units"] - run["load_units"]
    date = dt.date.fromisoformat(run["run_date"])
    done = False
    for cid in sorted(customers):
        c = customers[cid]
        if done or c["delivery_zone"] != run["zone"] or c["account_status"] != "open" or c["po_required"]:
            continue
        for lid, lot in sorted(lots.items()):
            p = plants[lot["plant_id"]]
            qty = -(-(room + 1) // p["load_units"])
            qty = -(-qty // p["pack_size"]) * p["pack_size"]
            if p["load_units"] < 6 or qty > R._free(lot) or lot["quarantine"] or p["status"] != "listed" \
                    or date.month not in p["available_months"] or lot["ready_date"] > run["run_date"]:
                continue
            o = call("create_order", {"customer_id": cid, "delivery_date": run["run_date"],
                                      "lines": [{"lot_id": lid, "quantity": qty}],
                                      "delivery_notes": "Landscape scheme - first phase"})
            if o and call("confirm_order", {"order_id": o["order_id"]}):
                done = True
                big += 1
                break
            if o:
                call("cancel_order", {"order_id": o["order_id"], "reason": "credit_issue"})

# placeholders used only to seed the id sequences
for coll, key in (("orders", "SO24000"), ("credit_notes", "CN0000"), ("payments", "PY00000")):
    del db[coll][key]

# past runs that never got a stop were stood down: drop them and renumber the calendar
kept = [r for r in sorted(runs) if not (runs[r]["run_date"] < d(TODAY) and runs[r]["stop_count"] == 0
                                      and runs[r]["status"] == "planned")]
remap = {old: f"DR{i + 1:04d}" for i, old in enumerate(kept)}
db["runs"] = {remap[r]: dict(runs[r], run_id=remap[r]) for r in kept}
for o in db["orders"].values():
    if o["run_id"]:
        o["run_id"] = remap[o["run_id"]]
db["meta"]["today"] = d(TODAY)

with open(os.path.join(HERE, "db.json"), "w", encoding="utf-8") as f:
    json.dump(db, f, indent=1, ensure_ascii=False)
    f.write("\n")
