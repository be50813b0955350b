"""Builds db.json for the museum group-visit booking desk (deterministic, stdlib only)."""
import json
import math
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 20250512
TODAY = date(2025, 5, 12)
rng = random.Random(SEED)


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), ROUND_HALF_UP))


GALLERIES = [
    ("GAL01", "Ancient Worlds", 14.00, 35, 60, "Ground"),
    ("GAL02", "Impressionist Wing", 16.50, 30, 45, "First"),
    ("GAL03", "Natural History Hall", 12.00, 40, 70, "Ground"),
    ("GAL04", "Modern and Contemporary", 15.75, 25, 40, "Second"),
    ("GAL05", "Science Discovery Lab", 18.00, 20, 30, "Lower"),
]
galleries = {g[0]: {"gallery_id": g[0], "name": g[1], "rate_per_visitor": g[2],
                    "max_group_size": g[3], "slot_capacity": g[4], "floor": g[5]}
             for g in GALLERIES}

GUIDE_NAMES = ["Amelia Hart", "Jonas Keller", "Priya Raman", "Luis Ortega", "Claire Dubois",
               "Tomasz Nowak", "Hannah Weiss", "Marcus Bell", "Sofia Moreno", "Ethan Cole"]
guides = {}
for i, name in enumerate(GUIDE_NAMES, 1):
    gid = "GD%02d" % i
    langs = ["en"] + sorted(rng.sample(["fr", "es", "de"], rng.choice([0, 1, 1, 2])))
    gals = sorted(rng.sample(list(galleries), rng.choice([2, 2, 3])))
    guides[gid] = {"guide_id": gid, "name": name, "languages": langs, "galleries": gals,
                   "max_tours_per_day": rng.choice([2, 2, 3]),
                   "status": "inactive" if i == 9 else "active"}

TIMES = ["10:00", "11:30", "13:30", "15:00"]
raw = set()
for off in range(-14, 76):
    d = TODAY + timedelta(days=off)
    for _ in range(rng.choice([1, 1, 2, 2])):
        raw.add((d.isoformat(), rng.choice(TIMES), rng.choice(list(galleries))))
slots = {}
for n, (d, t, g) in enumerate(sorted(raw), 1):
    sid = "SL%04d" % n
    status = "open"
    if d > TODAY.isoformat() and rng.random() < 0.07:
        status = rng.choice(["closed", "closed", "cancelled"])
    slots[sid] = {"slot_id": sid, "gallery_id": g, "date": d, "start_time": t,
                  "capacity": galleries[g]["slot_capacity"], "booked_count": 0,
                  "guide_id": None, "status": status}

for s in slots.values():
    if s["status"] != "open":
        continue
    if rng.random() > (0.9 if s["date"] <= TODAY.isoformat() else 0.55):
        continue
    cands = list(guides.values())
    rng.shuffle(cands)
    for gd in cands:
        if gd["status"] != "active" or s["gallery_id"] not in gd["galleries"]:
            continue
        same_day = [o for o in slots.values() if o["guide_id"] == gd["guide_id"] and o["date"] == s["date"]]
        if len(same_day) >= gd["max_tours_per_day"] or any(o["start_time"] == s["start_time"] for o in same_day):
            continue
        s["guide_id"] = gd["guide_id"]
        break

SCHOOLS = ["Maplewood Elementary", "Riverside Middle School", "Oak Hill Academy", "Lincoln High School",
           "St. Brigid's Primary", "Cedar Grove School", "Harbor View Elementary", "Northfield Prep",
           "Westbrook Junior High", "Sunnyvale Montessori", "Pine Ridge High", "Greenfield Primary",
           "Lakeside Charter School", "Hillcrest Elementary", "Brookside Middle School",
           "Eastgate Secondary", "Valley Homeschool Co-op", "Summit Science Magnet"]
COMMUNITY = ["Silver Years Seniors Club", "Downtown Library Friends", "Youth Explorers Scouts",
             "Riverside Art Circle", "New Neighbors Association", "Heritage Walking Club",
             "Parkside Family Network"]
CORPORATE = ["Brightline Consulting", "Northwind Logistics", "Apex Dental Group",
             "Quantum Ledger Inc", "Crescent Hotels"]
orgs = {}
names = [(n, "school") for n in SCHOOLS] + [(n, "community") for n in COMMUNITY] + [(n, "corporate") for n in CORPORATE]
rng.shuffle(names)
for i, (name, typ) in enumerate(names, 1):
    oid = "ORG%03d" % i
    slug = "".join(c for c in name.lower() if c.isalnum())[:14]
    orgs[oid] = {"org_id": oid, "name": name, "type": typ,
                 "educator_verified": typ == "school" and rng.random() < 0.65,
                 "status": "active", "no_show_count": rng.choice([0, 0, 0, 1]),
                 "completed_visits": rng.choice([0, 1, 2, 3, 5]),
                 "contact_email": "bookings@%s.org" % slug}

for oid in ("ORG007", "ORG023"):
    orgs[oid]["no_show_count"] = 2
SETS = [("AG01", "en", "Adult highlights (English)", 4.00, 90), ("AG02", "fr", "Adult highlights (French)", 4.50, 30),
        ("AG03", "es", "Adult highlights (Spanish)", 4.50, 30), ("AG04", "de", "Adult highlights (German)", 5.25, 12),
        ("AG05", "en", "Family and kids trail (English)", 3.75, 45)]
audio = {s[0]: {"set_id": s[0], "language": s[1], "title": s[2], "fee_per_unit": s[3],
                "stock_total": s[4], "stock_available": s[4]} for s in SETS}

HOLD = ("pending_deposit", "confirmed", "completed")
bookings = []
payments = []
slot_list = list(slots.values())
used_dates = set()  # (org, date)
REFUND = [(30, 1.0), (14, 0.75), (7, 0.5), (0, 0.0)]

attempts = 0
while len(bookings) < 72 and attempts < 5000:
    attempts += 1
    past = [x for x in slot_list if x["date"] <= TODAY.isoformat()]
    s = rng.choice(past) if rng.random() < 0.4 else rng.choice(slot_list)
    if s["status"] != "open":
        continue
    d = date.fromisoformat(s["date"])
    off = (d - TODAY).days
    if off < 0:
        st = rng.choices(["completed", "no_show", "cancelled", "confirmed"], [50, 10, 12, 28])[0]
        if st == "confirmed" and off < -7:
            st = "completed"
        if st == "completed" and not s["guide_id"]:
            st = rng.choice(["cancelled", "no_show", "confirmed"])
    elif off == 0:
        st = "confirmed"
    else:
        st = rng.choices(["pending_deposit", "confirmed", "cancelled"], [30, 50, 20])[0]
    org = orgs[rng.choice(list(orgs))]
    if (org["org_id"], s["date"]) in used_dates:
        continue
    gal = galleries[s["gallery_id"]]
    gs = rng.randint(8, gal["max_group_size"] - 2)
    maxch = math.ceil(gs / 5)
    ch = rng.randint(1, min(maxch, 4)) if org["type"] == "school" else rng.randint(0, min(maxch, 2))
    while gs + ch > gal["max_group_size"]:
        gs -= 1
    if st in HOLD and s["booked_count"] + gs + ch > s["capacity"]:
        continue
    if s["guide_id"]:
        glangs = guides[s["guide_id"]]["languages"]
        lang = "en" if rng.random() < 0.6 else rng.choice(glangs)
    else:
        lang = rng.choices(["en", "fr", "es", "de"], [70, 10, 12, 8])[0]
    used_dates.add((org["org_id"], s["date"]))
    if st in HOLD:
        s["booked_count"] += gs + ch
    created = d - timedelta(days=rng.randint(10, 60))
    if created >= TODAY:
        created = TODAY - timedelta(days=rng.randint(1, 5))
    base = money(gs * gal["rate_per_visitor"])
    if org["type"] == "school" and org["educator_verified"]:
        disc = money(base * 0.20)
    elif org["type"] != "school" and gs >= 25:
        disc = money(base * 0.10)
    else:
        disc = 0.0
    lines = []
    if rng.random() < 0.35:
        for sid in rng.sample(list(audio), rng.choice([1, 1, 2])):
            room = gs + ch - sum(l["quantity"] for l in lines)
            q = rng.randint(1, max(1, min(room, 12)))
            if st in ("pending_deposit", "confirmed"):
                if audio[sid]["stock_available"] < q:
                    continue
                audio[sid]["stock_available"] -= q
            lines.append({"set_id": sid, "quantity": q, "line_amount": money(q * audio[sid]["fee_per_unit"])})
    resched = 0
    if off > 0 and st in ("pending_deposit", "confirmed"):
        resched = rng.choice([0, 0, 0, 1, 2])
    fees = 20.0 if resched == 2 else 0.0
    addons = money(sum(l["line_amount"] for l in lines))
    total = money(base - disc + addons + fees)
    deposit = money(total * 0.25)
    methods = ["card", "bank_transfer"] + (["purchase_order"] if org["type"] == "school" else [])
    method = rng.choice(methods)
    paid = 0.0
    bk = {"org_id": org["org_id"], "slot_id": s["slot_id"], "gallery_id": s["gallery_id"],
          "visit_date": s["date"], "start_time": s["start_time"], "language": lang,
          "group_size": gs, "chaperones": ch, "status": st, "base_amount": base,
          "discount_amount": disc, "addons_amount": addons, "fees_amount": fees,
          "total_amount": total, "deposit_amount": deposit, "amount_paid": 0.0,
          "balance_due": total, "reschedule_count": resched, "audio_guides": lines,
          "created_date": created.isoformat(), "cancelled_date": None, "cancel_reason": None,
          "refund_amount": 0.0}
    pay_plan = []
    dep_day = min(created + timedelta(days=rng.randint(0, 4)), TODAY - timedelta(days=1))
    if st == "pending_deposit":
        pass
    elif st in ("confirmed", "no_show", "completed", "cancelled"):
        full = st == "completed" or (st in ("confirmed", "no_show") and rng.random() < 0.5) \
            or (st == "confirmed" and off <= 0 and s["guide_id"] and rng.random() < 0.7)
        if st == "cancelled" and rng.random() < 0.35:
            pay_plan = []
        elif full and rng.random() < 0.3:
            pay_plan = [("deposit", total, dep_day)]
        else:
            first = deposit if rng.random() < 0.7 else money(deposit + rng.choice([10, 25, 50]))
            first = min(first, total)
            pay_plan = [("deposit", first, dep_day)]
            if full and first < total:
                bal_day = min(dep_day + timedelta(days=rng.randint(3, 20)), TODAY - timedelta(days=1), d)
                pay_plan.append(("balance", money(total - first), max(bal_day, dep_day)))
    for kind, amt, day in pay_plan:
        payments.append({"booking_ref": len(bookings), "kind": kind, "amount": amt,
                         "method": method, "date": day.isoformat()})
        paid = money(paid + amt)
    bk["amount_paid"] = paid
    bk["balance_due"] = money(total - paid)
    if st == "cancelled":
        last_day = max([date.fromisoformat(p[2].isoformat()) for p in pay_plan] + [created])
        latest = min(d, TODAY - timedelta(days=1))
        cday = last_day + timedelta(days=rng.randint(1, 20))
        if cday > latest:
            cday = latest if latest >= last_day else last_day
        days_before = (d - cday).days
        pct = next(p for lim, p in REFUND if days_before >= lim)
        refund = money(paid * pct)
        bk["cancelled_date"] = cday.isoformat()
        bk["cancel_reason"] = rng.choice(["customer_request", "customer_request", "illness", "weather", "other"])
        bk["refund_amount"] = refund
        bk["balance_due"] = 0.0
        if refund > 0:
            payments.append({"booking_ref": len(bookings), "kind": "refund", "amount": refund,
                             "method": "original", "date": cday.isoformat()})
    if st == "no_show":
        org["no_show_count"] += 1
    if st == "completed":
        org["completed_visits"] += 1
    bookings.append(bk)

order = sorted(range(len(bookings)), key=lambda i: (bookings[i]["created_date"], i))
ids = {}
bk_out = {}
for n, i in enumerate(order, 1):
    bid = "BK%04d" % n
    ids[i] = bid
    bk_out[bid] = dict({"booking_id": bid}, **bookings[i])
payments.sort(key=lambda p: (p["date"], ids[p["booking_ref"]], p["kind"] != "deposit"))
pay_out = {}
for n, p in enumerate(payments, 1):
    pid = "PAY%04d" % n
    pay_out[pid] = {"payment_id": pid, "booking_id": ids[p["booking_ref"]], "kind": p["kind"],
                    "amount": p["amount"], "method": p["method"], "date": p["date"]}
for o in orgs.values():
    if o["no_show_count"] >= 2:
        o["status"] = "suspended"

db = {"meta": {"today": TODAY.isoformat(), "currency": "USD", "museum": "Halvorsen Museum of Art and Science"},
      "galleries": galleries, "guides": guides, "slots": slots, "organizations": orgs,
      "audio_guide_sets": audio, "bookings": bk_out, "payments": pay_out}
with open("db.json", "w") as f:
    json.dump(db, f, indent=1)
print({k: len(v) for k, v in db.items()})
