"""Builds db.json for the RMA desk reference API (stdlib only, fixed seed)."""
import json, random, calendar
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 9041
TODAY = date(2025, 3, 14)
rng = random.Random(SEED)

def cents(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))

def add_months(d, m):
    y, mo = divmod(d.month - 1 + m, 12)
    y += d.year
    mo += 1
    return date(y, mo, min(d.day, calendar.monthrange(y, mo)[1]))

def ds(d):
    return d.isoformat() if d else None

LINES = [
    ("PL01", "Aurora Espresso Machine", "AE", 24, 89.00, 649.00, "2019-03-01", "2030-12-31"),
    ("PL02", "Breeze Air Purifier", "BP", 12, 59.00, 249.00, "2020-06-01", "2029-06-30"),
    ("PL03", "Cinder Pellet Grill", "CG", 36, 129.00, 899.00, "2018-04-01", "2031-12-31"),
    ("PL04", "Drift Robot Vacuum", "DV", 12, 79.00, 399.00, "2021-09-15", "2030-06-30"),
    ("PL05", "Ember Space Heater", "EH", 12, 39.00, 129.00, "2017-10-01", "2024-12-31"),
    ("PL06", "Fjord Stand Mixer", "FM", 24, 69.00, 479.00, "2019-11-01", "2032-12-31"),
    ("PL07", "Glint Smart Kettle", "GK", 12, 29.00, 99.00, "2022-02-01", "2029-12-31"),
    ("PL08", "Halo Sous-Vide Cooker", "HS", 24, 49.00, 219.00, "2018-08-01", "2025-01-31"),
]
LABEL_COST = {("ups", "ground"): 11.50, ("ups", "express"): 24.00,
              ("fedex", "ground"): 12.75, ("fedex", "express"): 26.50,
              ("dhl", "ground"): 14.20, ("dhl", "express"): 29.90}
OPEN = {"requested", "approved", "received", "inspected", "repaired", "replaced", "refunded"}
LIMIT = {"standard": 2, "pro": 4}

FIRST = ["Ava", "Ben", "Chloe", "Dev", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Liam",
         "Maya", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wes", "Xin",
         "Yara", "Zane", "Amir", "Bea", "Cato", "Dana"]
LAST = ["Holm", "Ortiz", "Baker", "Nakamura", "Rossi", "Haddad", "Lund", "Moreau", "Silva", "Keller",
        "Novak", "Brennan", "Ito", "Farrell", "Petrov", "Osei", "Lindqvist", "Marsh", "Duarte", "Kowalski"]
COUNTRIES = ["US", "CA", "GB", "DE", "FR", "NL", "SE"]

db = {"meta": {"today": TODAY.isoformat(), "currency": "USD", "company": "Northwind Home Appliances"},
      "customers": {}, "product_lines": {}, "products": {}, "stock_units": {},
      "rmas": {}, "shipping_labels": {}, "refunds": {}}

lines = {}
for lid, name, pre, wm, fee, price, launch, eos in LINES:
    lines[lid] = {"line_id": lid, "name": name, "serial_prefix": pre, "warranty_months": wm,
                  "repair_fee": fee, "list_price": price, "launch_date": launch, "end_of_service": eos}
db["product_lines"] = lines

customers = {}
used_names = set()
for i in range(1, 43):
    while True:
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        if (fn, ln) not in used_names:
            used_names.add((fn, ln)); break
    cid = "C%04d" % i
    customers[cid] = {"customer_id": cid, "name": "%s %s" % (fn, ln),
                      "email": "%s.%s@example.com" % (fn.lower(), ln.lower()),
                      "country": rng.choice(COUNTRIES),
                      "tier": "pro" if rng.random() < 0.3 else "standard",
                      "status": "suspended" if i % 11 == 0 else "active",
                      "balance_due": 0.0, "store_credit_balance": 0.0}
db["customers"] = customers

used_serials = set()
def new_serial(pre, stock=False):
    while True:
        s = pre + ("9%05d" % rng.randint(0, 99999) if stock else "%06d" % rng.randint(100000, 899999))
        if s not in used_serials:
            used_serials.add(s); return s

def warranty_end(purchase, registered, months):
    bonus = 3 if (registered - purchase).days <= 30 else 0
    return add_months(purchase, months + bonus)

products = {}
cids = sorted(customers)
for i in range(125):
    cid = cids[i % len(cids)] if i < len(cids) else rng.choice(cids)
    ln = lines[rng.choice(sorted(lines))]
    launch = date.fromisoformat(ln["launch_date"])
    lo = max(launch, TODAY - timedelta(days=1400))
    if rng.random() < 0.3:
        lo = max(lo, TODAY - timedelta(days=150))
    purchase = lo + timedelta(days=rng.randint(0, (TODAY - lo).days - 1))
    gap = rng.choice([0, 1, 3, 7, 14, 25, 40, 60, 120])
    registered = min(purchase + timedelta(days=gap), TODAY)
    price = cents(ln["list_price"] * rng.choice([1, 1, 1, 0.9, 0.85, 0.8]))
    s = new_serial(ln["serial_prefix"])
    products[s] = {"serial": s, "customer_id": cid, "line_id": ln["line_id"], "purchase_date": ds(purchase),
                   "purchase_price": price, "registered_on": ds(registered),
                   "warranty_end": ds(warranty_end(purchase, registered, ln["warranty_months"])),
                   "status": "active", "replaces_serial": None}

stock = {}
for lid in sorted(lines):
    for _ in range(rng.randint(2, 4) if lid not in ("PL05",) else 1):
        s = new_serial(lines[lid]["serial_prefix"], stock=True)
        stock[s] = {"serial": s, "line_id": lid, "status": "available", "allocated_rma_id": None}
# one line with no spare units on hand at all
for s in [k for k, v in stock.items() if v["line_id"] == "PL07"]:
    del stock[s]

PLAN = (["requested"] * 11 + ["approved"] * 11 + ["rejected"] * 8 + ["received"] * 7 + ["inspected"] * 8 +
        ["repaired"] * 6 + ["replaced"] * 4 + ["refunded"] * 4 + ["closed"] * 18)
rng.shuffle(PLAN)
rma_list, label_list, refund_list = [], [], []
has_rma = set()
refund_dates = {}

def refund_base(prod, on):
    k = (on - date.fromisoformat(prod["purchase_date"])).days // 30
    factor = max(Decimal("0.40"), Decimal("1") - Decimal("0.015") * k)
    return (Decimal(str(prod["purchase_price"])) * factor).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)

def open_count(cid):
    return sum(1 for r in rma_list if r["customer_id"] == cid and r["status"] in OPEN)

def try_make(target):
    sub = target
    if target == "closed":
        sub = rng.choice(["repair", "repair", "replace", "refund", "nff"])
    elif target in ("repaired", "replaced", "refunded"):
        sub = {"repaired": "repair", "replaced": "replace", "refunded": "refund"}[target]
    order = ["requested", "approved", "received", "inspected", "resolved", "closed"]
    reach = {"requested": 0, "approved": 1, "rejected": rng.choice([0, 1]), "received": 2, "inspected": 3,
             "repaired": 4, "replaced": 4, "refunded": 4, "closed": 5}[target]
    if target == "closed" and sub == "nff":
        reach = 5
    steps = [0, rng.randint(0, 3), rng.randint(3, 14), rng.randint(1, 5), rng.randint(1, 7), rng.randint(1, 10)]
    span = sum(steps[1:reach + 1]) + (1 if target == "rejected" else 0)
    if target in ("requested",):
        slack = rng.randint(0, 6)
    elif target == "approved":
        slack = rng.randint(0, 45)
    elif target in ("received", "inspected", "repaired", "replaced", "refunded"):
        slack = rng.randint(0, 12)
    else:
        slack = rng.randint(0, 300)
    requested = TODAY - timedelta(days=span + slack)
    cands = [p for p in products.values() if p["status"] == "active" and p["serial"] not in has_rma
             and p["replaces_serial"] is None
             and date.fromisoformat(p["registered_on"]) <= requested
             and requested <= date.fromisoformat(lines[p["line_id"]]["end_of_service"])]
    if target not in ("rejected", "closed"):
        cands = [p for p in cands if customers[p["customer_id"]]["status"] == "active"]
    if sub in ("replace", "refund") or (target in ("received", "inspected") and rng.random() < 0.5):
        cands = [p for p in cands if requested <= date.fromisoformat(p["warranty_end"])]
    if sub == "refund":
        cands = [p for p in cands if (requested - date.fromisoformat(p["purchase_date"])).days <= 150]
    if not cands:
        return False
    p = rng.choice(cands)
    cid = p["customer_id"]
    cust = customers[cid]
    if target in OPEN and open_count(cid) >= LIMIT[cust["tier"]]:
        return False
    d = {}
    cur = requested
    for i, name in enumerate(order[:reach + 1]):
        cur = cur + timedelta(days=steps[i]) if i else cur
        d[name] = cur
    in_w = requested <= date.fromisoformat(p["warranty_end"])
    purchase = date.fromisoformat(p["purchase_date"])
    doa_ok = (requested - purchase).days <= 30
    reason = "dead_on_arrival" if doa_ok and rng.random() < 0.6 else rng.choice(["defect", "defect", "cosmetic", "other"])
    if reason == "dead_on_arrival" and reach >= 1:
        d["approved"] = requested
        # shift later dates so the chain still ends on or before today (they only move earlier)
    if reason == "dead_on_arrival" and reach == 0:
        reason = "defect"
    r = {"rma_id": None, "customer_id": cid, "serial": p["serial"], "line_id": p["line_id"], "reason": reason,
         "description": rng.choice(["Unit stops mid-cycle.", "Will not power on.", "Makes a grinding noise.",
                                    "Display flickers and resets.", "Leaks from the base.",
                                    "Scratched housing on arrival.", ""]),
         "status": target, "in_warranty": in_w, "requested_on": ds(requested), "approved_on": None,
         "approval_expires_on": None, "rejected_on": None, "rejection_reason": None, "label_id": None,
         "received_on": None, "inspection_outcome": None, "inspection_notes": None, "inspected_on": None,
         "resolution": None, "resolved_on": None, "repair_fee": None, "refund_id": None,
         "replacement_serial": None, "closed_on": None}
    if reach >= 1:
        r["approved_on"] = ds(d["approved"])
        r["approval_expires_on"] = ds(d["approved"] + timedelta(days=30))
    if target == "rejected":
        r["rejected_on"] = ds((d["approved"] if reach == 1 else requested) + timedelta(days=1))
        r["rejection_reason"] = rng.choice(["Damage caused by misuse per photos supplied.",
                                            "Serial number does not match the registered unit.",
                                            "Customer withdrew the request.", "Approval window lapsed."])
        if reach == 1 and rng.random() < 0.5:
            label_list.append({"rma": r, "created": d["approved"], "status": "voided",
                               "voided": date.fromisoformat(r["rejected_on"])})
    if reach >= 2 and target != "rejected":
        r["received_on"] = ds(d["received"])
        label_list.append({"rma": r, "created": d["approved"] + timedelta(days=rng.randint(0, 1)), "status": "used"})
    elif target == "approved" and rng.random() < 0.55:
        label_list.append({"rma": r, "created": min(d["approved"] + timedelta(days=rng.randint(0, 2)), TODAY),
                           "status": "active"})
    if reach >= 3:
        r["inspected_on"] = ds(d["inspected"])
        if sub == "nff":
            outcome = "no_fault_found"
        elif sub in ("replace", "refund"):
            outcome = "defect_confirmed"
        elif target == "inspected":
            outcome = rng.choice(["defect_confirmed", "defect_confirmed", "no_fault_found", "customer_damage"])
        else:
            outcome = rng.choice(["defect_confirmed", "defect_confirmed", "customer_damage"])
        r["inspection_outcome"] = outcome
        r["inspection_notes"] = {"defect_confirmed": "Fault reproduced on the bench.",
                                 "no_fault_found": "Ran full test cycle, no fault reproduced.",
                                 "customer_damage": "Impact damage to housing; not a manufacturing defect."}[outcome]
    if reach >= 4 and sub != "nff":
        res_on = d["resolved"]
        r["resolution"] = sub
        r["resolved_on"] = ds(res_on)
        if sub == "repair":
            if in_w and r["inspection_outcome"] == "defect_confirmed":
                fee = 0.0
            else:
                fee = cents(Decimal(str(lines[p["line_id"]]["repair_fee"])) *
                            (Decimal("0.80") if cust["tier"] == "pro" else Decimal("1")))
            r["repair_fee"] = fee
            cust["balance_due"] = cents(Decimal(str(cust["balance_due"])) + Decimal(str(fee)))
        elif sub == "replace":
            avail = sorted(s for s, u in stock.items() if u["line_id"] == p["line_id"] and u["status"] == "available")
            if not avail or not in_w:
                return "undo"
            su = stock[avail[0]]
            su["status"] = "allocated"; su["_rma"] = r
            r["replacement_serial"] = su["serial"]
            wend = max(date.fromisoformat(p["warranty_end"]), res_on + timedelta(days=90))
            products[su["serial"]] = {"serial": su["serial"], "customer_id": cid, "line_id": p["line_id"],
                                      "purchase_date": ds(res_on), "purchase_price": p["purchase_price"],
                                      "registered_on": ds(res_on), "warranty_end": ds(wend), "status": "active",
                                      "replaces_serial": p["serial"]}
            p["status"] = "replaced"
        else:
            if (res_on - purchase).days > 180 or not in_w:
                return "undo"
            recent = [x for x in refund_dates.get(cid, []) if x > TODAY - timedelta(days=365)]
            if len(recent) >= 2:
                return "undo"
            method = rng.choice(["original_payment", "store_credit"])
            base = refund_base(p, res_on)
            amt = base if method == "original_payment" else (base * Decimal("1.10")).quantize(
                Decimal("0.01"), rounding=ROUND_HALF_UP)
            refund_list.append({"rma": r, "amount": float(amt), "method": method, "issued": res_on})
            refund_dates.setdefault(cid, []).append(res_on)
            if method == "store_credit":
                cust["store_credit_balance"] = cents(Decimal(str(cust["store_credit_balance"])) + amt)
            p["status"] = "refunded"
    if target == "closed":
        r["closed_on"] = ds(d["closed"])
    for k in ("approved_on", "received_on", "inspected_on", "resolved_on", "closed_on", "rejected_on"):
        assert r[k] is None or r[k] <= TODAY.isoformat(), (k, r)
    rma_list.append(r)
    has_rma.add(p["serial"])
    return True

for target in PLAN:
    for _ in range(60):
        res = try_make(target)
        if res is True:
            break
        if res == "undo":
            raise SystemExit("undo path hit; adjust candidate filters")

rma_list.sort(key=lambda r: (r["requested_on"], r["serial"]))
for i, r in enumerate(rma_list, 1):
    r["rma_id"] = "RMA-%05d" % (i + 2000)
    db["rmas"][r["rma_id"]] = r
for su in stock.values():
    if "_rma" in su:
        su["allocated_rma_id"] = su.pop("_rma")["rma_id"]

label_list.sort(key=lambda l: (l["created"], l["rma"]["rma_id"]))
for i, l in enumerate(label_list, 1):
    lid = "LBL-%05d" % (i + 300)
    r = l["rma"]
    carrier = rng.choice(["ups", "fedex", "dhl"])
    service = "express" if rng.random() < 0.25 else "ground"
    cost = LABEL_COST[(carrier, service)]
    billed = "company" if r["in_warranty"] else "customer"
    db["shipping_labels"][lid] = {"label_id": lid, "rma_id": r["rma_id"], "carrier": carrier, "service": service,
                                  "cost": cost, "billed_to": billed,
                                  "tracking_number": "%s-%s" % (carrier.upper(), lid[4:]),
                                  "status": l["status"], "created_on": ds(l["created"]),
                                  "voided_on": ds(l.get("voided"))}
    if l["status"] != "voided":
        r["label_id"] = lid
        if billed == "customer":
            c = customers[r["customer_id"]]
            c["balance_due"] = cents(Decimal(str(c["balance_due"])) + Decimal(str(cost)))

refund_list.sort(key=lambda f: (f["issued"], f["rma"]["rma_id"]))
for i, f in enumerate(refund_list, 1):
    fid = "RF-%04d" % (i + 40)
    r = f["rma"]
    r["refund_id"] = fid
    db["refunds"][fid] = {"refund_id": fid, "rma_id": r["rma_id"], "customer_id": r["customer_id"],
                          "serial": r["serial"], "amount": f["amount"], "method": f["method"],
                          "issued_on": ds(f["issued"])}

db["products"] = dict(sorted(products.items()))
db["stock_units"] = dict(sorted(stock.items()))
with open("db.json", "w") as fh:
    json.dump(db, fh, indent=1)
print({k: len(v) for k, v in db.items() if k != "meta"})
