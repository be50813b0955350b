"""Writes db.json for the museum group-tour booking API deterministically (stdlib only)."""
import datetime as dt
import json
import os
import random
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ref_impl import (DISCOUNT, free_chaperones, min_chaperones, total_amount,  # noqa: E402
                      deposit_for, q2, num)

TODAY = dt.date(2025, 5, 14)
rng = random.Random(5142025)


def d(x):
    return x.isoformat()


# ---------------------------------------------------------------- guides
GUIDE_NAMES = ["Agnes Whitlock", "Bruno Fontaine", "Carla Ruiz", "Dieter Hahn", "Elise Vermeer",
               "Farid Haddad", "Grace Okafor", "Henrik Dahl", "Isabel Moreno", "Jules Laurent",
               "Katrin Vogel", "Liam O'Connor", "Marta Jansen", "Nico Brandt", "Odile Marchand",
               "Pablo Serrano", "Quinn Harper", "Rosa van Dijk"]
EXTRA_LANGS = [["fr"], ["es"], ["de"], ["nl"], ["fr", "de"], ["es", "fr"], ["nl", "de"], [], [], []]
guides = {}
for i, name in enumerate(GUIDE_NAMES):
    gid = f"G{i + 1:02d}"
    langs = ["en"] + EXTRA_LANGS[rng.randrange(len(EXTRA_LANGS))]
    if i in (3, 10):
        langs = ["de", "nl"]
    if i == 6:
        langs = ["fr", "es"]
    guides[gid] = {"guide_id": gid, "name": name, "languages": sorted(set(langs)),
                   "senior": i % 3 == 0 or i in (4, 13),
                   "status": "on_leave" if i in (7, 15) else "active",
                   "hired_on": d(dt.date(2016, 3, 1) + dt.timedelta(days=rng.randint(0, 3000)))}

# ---------------------------------------------------------------- customers
SCHOOLS = ["Riverside Primary School", "St. Brigid's School", "Oakfield Academy", "Hillcrest Middle School",
           "Northgate Primary", "Lindenhof Grundschule", "Ecole Jean Moulin", "Harbour View School",
           "Maple Lane Elementary", "Colegio San Marcos", "De Regenboog Basisschool", "Westbrook High",
           "Queen's Park School", "Elmwood Junior School", "Kingsway College", "Meadowbank Primary",
           "Lycee Victor Hugo", "Greenfield Secondary"]
YOUTH = ["3rd Harbour Scouts", "Junior Naturalists Club", "Riverside Girl Guides", "City Youth Orchestra",
         "Young Explorers Society", "Brightsparks Holiday Camp", "Pfadfinder Stamm Adler", "Teen Science Circle"]
ADULT = ["Silver Walkers Club", "University of the Third Age", "Friends of History Society",
         "Lakeside Book Circle", "Retired Teachers Association", "Art Lovers Guild", "Heritage Rail Club"]
CORP = ["Northwind Logistics", "Blue Harbor Bank", "Tessellate Software", "Granite & Co Law",
        "Solano Pharma", "Meridian Insurance", "Fjord Engineering"]
CITIES = ["Harbourton", "Millbridge", "Ashford", "Kelby", "Stonemouth", "Whitcombe", "Larkfield"]
customers = {}
pool = [(n, "school") for n in SCHOOLS] + [(n, "youth_group") for n in YOUTH] + \
       [(n, "adult_group") for n in ADULT] + [(n, "corporate") for n in CORP]
rng.shuffle(pool)
for i, (name, ctype) in enumerate(pool):
    cid = f"C{i + 1:04d}"
    slug = "".join(ch for ch in name.lower() if ch.isalnum())[:18]
    customers[cid] = {"customer_id": cid, "name": name, "type": ctype,
                      "contact_email": f"visits@{slug}.example", "city": rng.choice(CITIES),
                      "status": "suspended" if i in (5, 19, 33) else "active",
                      "no_show_count": 0,
                      "registered_on": d(dt.date(2022, 9, 1) + dt.timedelta(days=rng.randint(0, 850)))}
cust_ids = list(customers)
# no-shows from before the current booking records
for cid in cust_ids[1::9]:
    customers[cid]["no_show_count"] = 2 if customers[cid]["type"] == "school" else 1
for cid in cust_ids[4::13]:
    customers[cid]["no_show_count"] += 1

# ---------------------------------------------------------------- tours
PROGRAM_INFO = {
    "highlights": (["Museum Highlights", "Treasures of the Collection"], "9.00"),
    "dinosaurs": (["Dinosaur Hall Discovery", "Fossil Hunters"], "11.50"),
    "ancient_egypt": (["Mummies and Pharaohs", "Life on the Nile"], "12.50"),
    "modern_art": (["Modern Art Walk", "Colour and Form"], "10.00"),
    "maritime": (["Ships and Sailors", "Lighthouse Stories"], "8.50"),
}
LANG_SUFFIX = {"en": "", "fr": " (visite en français)", "de": " (Führung auf Deutsch)",
               "es": " (visita en español)", "nl": " (rondleiding in het Nederlands)"}
tour_specs = []
day = TODAY - dt.timedelta(days=42)
while day <= TODAY + dt.timedelta(days=75):
    if day.weekday() in (1, 2, 3, 4, 5):
        k = rng.choices([0, 1, 2], [0.35, 0.45, 0.2])[0]
        if day == TODAY or day == TODAY + dt.timedelta(days=1):
            k = 2
        for slot in sorted(rng.sample(["09:30", "11:00", "13:30", "15:00"], k)):
            tour_specs.append((day, slot))
    day += dt.timedelta(days=1)
tour_specs = tour_specs[:88]
tours = {}
busy = set()
for i, (day, slot) in enumerate(tour_specs):
    tid = f"T{1001 + i}"
    prog = rng.choice(list(PROGRAM_INFO))
    lang = rng.choices(["en", "fr", "de", "es", "nl"], [0.6, 0.12, 0.12, 0.08, 0.08])[0]
    titles, price = PROGRAM_INFO[prog]
    cap = rng.choice([20, 25, 25, 30, 30, 35, 40])
    days = (day - TODAY).days
    status = "cancelled" if (rng.random() < 0.08 and days > -30) else "scheduled"
    guide = None
    if status == "scheduled" and (days < 0 or rng.random() < (0.8 if days < 40 else 0.45)):
        elig = [g for g in guides.values() if lang in g["languages"] and (cap <= 30 or g["senior"])
                and (g["guide_id"], day) not in busy and (days < 0 or g["status"] == "active")]
        if elig:
            guide = rng.choice(elig)["guide_id"]
            busy.add((guide, day))
    tours[tid] = {"tour_id": tid, "title": rng.choice(titles) + LANG_SUFFIX[lang], "program": prog,
                  "date": d(day), "start_time": slot, "duration_minutes": rng.choice([60, 75, 90]),
                  "language": lang, "capacity": cap, "booked_places": 0,
                  "price_per_person": float(price), "guide_id": guide, "status": status,
                  "cancelled_on": None, "cancel_reason": None}
    if status == "cancelled":
        tours[tid]["cancelled_on"] = d(min(TODAY, day) - dt.timedelta(days=rng.randint(1, 12)))
        tours[tid]["cancel_reason"] = rng.choice(["Gallery closed for maintenance", "Guide illness",
                                                  "Low demand", "Exhibition rotation"])

# ---------------------------------------------------------------- bookings
raw = []
for tid, t in tours.items():
    day = dt.date.fromisoformat(t["date"])
    days = (day - TODAY).days
    nb = rng.choices([0, 1, 2, 3, 4, 5], [0.03, 0.1, 0.25, 0.3, 0.22, 0.1])[0]
    free_places = t["capacity"]
    for cid in rng.sample(cust_ids, nb):
        c = customers[cid]
        ctype = c["type"]
        p = rng.randint(5, 28) if ctype in ("school", "youth_group") else rng.randint(5, 18)
        ch = max(min_chaperones(ctype, p), rng.randint(0, 3)) if ctype != "corporate" else rng.randint(0, 1)
        if ctype == "school":
            ch = min(10, min_chaperones(ctype, p) + rng.randint(0, 2))
        if p + ch > free_places:
            continue
        created = min(day - dt.timedelta(days=rng.randint(2, 60)), TODAY - dt.timedelta(days=rng.randint(0, 4)))
        if t["status"] == "cancelled":
            created = min(created, dt.date.fromisoformat(t["cancelled_on"]) - dt.timedelta(days=rng.randint(1, 10)))
            st = "cancelled_tour"
        elif days < 0:
            recent = days >= -14
            st = rng.choices(["attended", "no_show", "cancelled", "confirmed", "pending"],
                             [0.4 if recent else 0.64, 0.08, 0.12, 0.38 if recent else 0.1, 0.03])[0]
        elif days == 0:
            st = rng.choices(["confirmed", "pending"], [0.8, 0.2])[0]
        else:
            st = rng.choices(["pending", "confirmed", "cancelled"], [0.5, 0.32, 0.18])[0]
        if st in ("confirmed", "attended", "no_show") and t["guide_id"] is None:
            st = "pending"
        if st == "no_show" and c["status"] != "active":
            st = "attended"
        free = free_chaperones(ctype, p)
        total = total_amount(t["price_per_person"], DISCOUNT[ctype], p, ch, free)
        dep = deposit_for(c, total)
        rec = {"tour_id": tid, "customer_id": cid, "participants": p, "chaperones": ch,
               "places": p + ch, "free_chaperones": free, "unit_price": t["price_per_person"],
               "discount_rate": float(DISCOUNT[ctype]), "total_amount": num(total),
               "deposit_due": num(dep), "amount_paid": 0.0, "status": st,
               "created_on": created, "deposit_paid_on": None, "confirmed_on": None,
               "cancelled_on": None, "cancel_reason": None, "refund_amount": None,
               "attended_count": None, "balance_due": None}
        paid_day = None
        if dep > 0 and (st in ("confirmed", "attended", "no_show") or
                        (st in ("pending", "cancelled", "cancelled_tour") and rng.random() < 0.5)):
            paid_day = min(created + dt.timedelta(days=rng.randint(0, 3)), TODAY, day)
            rec["amount_paid"] = num(dep)
            rec["deposit_paid_on"] = paid_day
        if st in ("confirmed", "attended", "no_show"):
            rec["confirmed_on"] = min((paid_day or created) + dt.timedelta(days=rng.randint(0, 3)), TODAY, day)
        if st == "attended":
            rec["attended_count"] = rng.randint(max(1, p + ch - 4), p + ch)
            rec["balance_due"] = num(total - Decimal(str(rec["amount_paid"])))
        if st == "no_show":
            rec["attended_count"] = 0
            rec["balance_due"] = 0.0
            c["no_show_count"] += 1
        if st == "cancelled":
            last = min(TODAY, day) - (paid_day or created)
            cday = (paid_day or created) + dt.timedelta(days=rng.randint(0, max(0, last.days)))
            before = (day - cday).days
            paid = Decimal(str(rec["amount_paid"]))
            refund = paid if before >= 14 else q2(paid * Decimal("0.5")) if before >= 7 else Decimal(0)
            rec.update(cancelled_on=cday, refund_amount=num(refund),
                       cancel_reason=rng.choice(["customer_request", "illness", "weather",
                                                 "scheduling_conflict", "other"]))
        if st == "cancelled_tour":
            rec.update(status="cancelled", cancelled_on=dt.date.fromisoformat(t["cancelled_on"]),
                       cancel_reason="tour_cancelled", refund_amount=rec["amount_paid"])
        if rec["status"] != "cancelled":
            free_places -= p + ch
            t["booked_places"] += p + ch
        raw.append(rec)

# fill two upcoming tours almost to the brim so that capacity refusals are visible
for tid in [k for k, t in tours.items() if t["status"] == "scheduled" and 5 < (dt.date.fromisoformat(t["date"]) - TODAY).days < 40][:3]:
    t = tours[tid]
    room = t["capacity"] - t["booked_places"] - 2
    users = {r["customer_id"] for r in raw if r["tour_id"] == tid}
    cid = next(c for c in cust_ids if customers[c]["type"] == "adult_group" and c not in users
               and customers[c]["status"] == "active")
    if room >= 5:
        total = total_amount(t["price_per_person"], 0, room, 0, 0)
        raw.append({"tour_id": tid, "customer_id": cid, "participants": room, "chaperones": 0,
                    "places": room, "free_chaperones": 0, "unit_price": t["price_per_person"],
                    "discount_rate": 0.0, "total_amount": num(total),
                    "deposit_due": num(deposit_for(customers[cid], total)), "amount_paid": 0.0,
                    "status": "pending", "created_on": TODAY - dt.timedelta(days=3),
                    "deposit_paid_on": None, "confirmed_on": None, "cancelled_on": None,
                    "cancel_reason": None, "refund_amount": None, "attended_count": None,
                    "balance_due": None})
        t["booked_places"] += room

raw.sort(key=lambda r: (r["created_on"], r["tour_id"], r["customer_id"]))
bookings, pays = {}, []
for i, r in enumerate(raw):
    bid = f"B{30001 + i}"
    r = dict(booking_id=bid, **r)
    for k in ("created_on", "deposit_paid_on", "confirmed_on", "cancelled_on"):
        if isinstance(r[k], dt.date):
            r[k] = d(r[k])
    bookings[bid] = r
    if r["deposit_paid_on"]:
        pays.append((r["deposit_paid_on"], 0, bid, r["customer_id"], "deposit", r["amount_paid"]))
    if r["refund_amount"]:
        pays.append((r["cancelled_on"], 1, bid, r["customer_id"], "refund", r["refund_amount"]))
pays.sort()
payments = {}
for i, (day, _, bid, cid, kind, amount) in enumerate(pays):
    pid = f"P{i + 1:05d}"
    payments[pid] = {"payment_id": pid, "booking_id": bid, "customer_id": cid, "kind": kind,
                     "amount": amount, "paid_on": day}

db = {"meta": {"today": d(TODAY), "currency": "EUR", "museum": "Kestrel Hill Museum",
               "office": "Group Visits Office"},
      "tours": tours, "guides": guides, "customers": customers, "bookings": bookings,
      "payments": payments}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as f:
    json.dump(db, f, indent=1, ensure_ascii=False)
print({k: len(v) for k, v in db.items() if k != "meta"})
