"""Builds db.json for the Barkwood Lodge boarding & daycare API. Stdlib only, fixed seed."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

rng = random.Random(20250612)
TODAY = dt.date(2025, 6, 12)
CENT = Decimal("0.01")
SIZES = ["small", "medium", "large", "giant"]
BASE = {"small": Decimal("38.00"), "medium": Decimal("45.00"), "large": Decimal("52.00"),
        "giant": Decimal("60.00")}
CAT_BASE = Decimal("32.00")
FACTOR = {"small": Decimal("1.00"), "medium": Decimal("1.25"), "large": Decimal("1.50"),
          "giant": Decimal("1.75")}
DAYCARE_PRICE = {"full_day": Decimal("32.00"), "half_day": Decimal("20.00")}


def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def f2(x):
    return float(q2(Decimal(x)))


def iso(d):
    return d.isoformat()


def day(n):
    return TODAY + dt.timedelta(days=n)


FIRST = ["Maya", "Jonas", "Priya", "Elliot", "Rosa", "Tobias", "Hannah", "Kofi", "Ingrid", "Luca",
         "Amara", "Felix", "Noor", "Declan", "Sofia", "Marcus", "Yuki", "Beatrix", "Omar", "Clara",
         "Rafael", "Leona", "Sven", "Aisha", "Gideon", "Mirela", "Theo", "Wren", "Dario", "Esme",
         "Callum", "Fatima", "Henrik", "Lotte", "Nikhil", "Odette", "Pavel", "Quinn", "Selma", "Vera"]
LAST = ["Okafor", "Lindqvist", "Ramires", "Whitfield", "Brandt", "Nakamura", "Castellano", "Moreau",
        "Hughes", "Varga", "Achebe", "Delacroix", "Fitzgerald", "Holloway", "Ivanova", "Jansen",
        "Kowalczyk", "Larsen", "Mbeki", "Novak"]
DOG_NAMES = ["Biscuit", "Juniper", "Rocket", "Mabel", "Pepper", "Otis", "Hazel", "Bruno", "Luna",
             "Ziggy", "Winnie", "Captain", "Nala", "Pickles", "Moose", "Olive", "Bandit", "Daisy",
             "Ranger", "Poppy", "Hank", "Clover", "Tank", "Maple", "Scout", "Ruby", "Gus", "Willow",
             "Diesel", "Frankie", "Kona", "Bear", "Toffee", "Atlas", "Millie", "Duke", "Sable",
             "Waffles", "Rusty", "Piper", "Chester", "Honey", "Bodhi", "Lulu", "Rex", "Marlow",
             "Sunny", "Thor", "Pretzel", "Fern", "Koda", "Nugget", "Echo", "Blue"]
CAT_NAMES = ["Miso", "Saffron", "Figaro", "Cleo", "Mochi", "Tiger", "Nutmeg", "Salem", "Pumpkin",
             "Whiskers", "Ginger", "Oreo", "Shadow", "Velvet", "Tofu", "Jasper", "Pixel", "Smokey",
             "Cinder", "Bean"]
BREEDS = {"small": ["Beagle", "Dachshund", "Jack Russell Terrier", "Shih Tzu", "Pug", "Cavalier King Charles"],
          "medium": ["Border Collie", "Cocker Spaniel", "Australian Shepherd", "Whippet", "Staffordshire Terrier"],
          "large": ["Labrador Retriever", "Golden Retriever", "German Shepherd", "Boxer", "Standard Poodle"],
          "giant": ["Great Dane", "Bernese Mountain Dog", "Newfoundland", "Irish Wolfhound"],
          "cat": ["Domestic Shorthair", "Maine Coon", "Siamese", "British Shorthair", "Ragdoll", "Bengal"]}

# ------------------------------------------------------------------ owners
owners = {}
used = set()
for i in range(40):
    while True:
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        if (fn, ln) not in used:
            used.add((fn, ln))
            break
    oid = f"OW{1001 + i}"
    r = rng.random()
    if r < 0.45:
        bal = Decimal(0)
    elif r < 0.8:
        bal = Decimal(rng.randint(1500, 26000)) / 100
    elif r < 0.9:
        bal = -Decimal(rng.randint(500, 8000)) / 100
    else:
        bal = Decimal(rng.randint(40500, 78000)) / 100
    owners[oid] = {
        "owner_id": oid, "full_name": f"{fn} {ln}",
        "email": f"{fn.lower()}.{ln.lower()}@mailbox.example",
        "phone": f"+1-555-{rng.randint(200, 989):03d}-{rng.randint(1000, 9999)}",
        "member_since": iso(day(-rng.randint(60, 1500))),
        "balance": f2(bal),
        "completed_stays": rng.choice([0, 0, 1, 2, 3, 4, 4, 5, 6, 7, 9, 12, 14]),
        "no_show_count": rng.choice([0] * 9 + [1, 1, 2]),
        "daycare_credits": rng.choice([0, 0, 0, 0, 1, 2, 3, 5, 8]),
    }
for oid in ("OW1007", "OW1029"):
    owners[oid]["no_show_count"] = 3
owners["OW1015"]["balance"] = 512.40

# ------------------------------------------------------------------ pets
pets = {}
pid = 2001
dog_names = DOG_NAMES[:]
cat_names = CAT_NAMES[:]
rng.shuffle(dog_names)
rng.shuffle(cat_names)


def vacc_date():
    r = rng.random()
    if r < 0.08:
        return day(-rng.randint(3, 150))
    if r < 0.18:
        return day(rng.randint(2, 21))
    return day(rng.randint(45, 720))


for oid in owners:
    for _ in range(rng.choice([1, 1, 2, 2, 2, 3])):
        species = "cat" if rng.random() < 0.25 and cat_names else "dog"
        if species == "dog" and not dog_names:
            species = "cat"
        if species == "dog":
            name = dog_names.pop()
            size = rng.choices(SIZES, [3, 4, 4, 1])[0]
            breed = rng.choice(BREEDS[size])
        else:
            name = cat_names.pop()
            size = "small"
            breed = rng.choice(BREEDS["cat"])
        p = f"PT{pid}"
        pid += 1
        pets[p] = {
            "pet_id": p, "owner_id": oid, "name": name, "species": species, "breed": breed,
            "size": size, "birth_date": iso(day(-rng.randint(200, 4800))),
            "daycare_approved": species == "dog" and rng.random() < 0.72,
            "rabies_expires_on": iso(vacc_date()),
            "core_vaccine_expires_on": iso(vacc_date()),
            "bordetella_expires_on": iso(vacc_date()) if species == "dog" else None,
        }

# ------------------------------------------------------------------ runs
runs = {}
spec = ([("standard_run", "Meadow", "dog", "medium", 1, "0.00")] * 8 +
        [("large_run", "Ridge", "dog", "giant", 1, "5.00")] * 6 +
        [("family_suite", "Hearth Suite", "dog", "large", 2, "22.00")] * 4 +
        [("cat_condo", "Loft", "cat", "small", 1, "0.00")] * 5 +
        [("cat_suite", "Sunroom", "cat", "small", 2, "12.00")])
counters = {}
for i, (rtype, label, sp, mx, cap, sur) in enumerate(spec):
    rid = f"RUN{i + 1:02d}"
    counters[label] = counters.get(label, 0) + 1
    runs[rid] = {"run_id": rid, "name": f"{label} {counters[label]}", "run_type": rtype,
                 "species": sp, "max_size": mx, "capacity": cap, "nightly_surcharge": float(sur),
                 "status": "open"}
runs["RUN08"]["status"] = "maintenance"
runs["RUN21"]["status"] = "maintenance"

# ------------------------------------------------------------------ services
services = {}
for i, (name, sp, price, unit, sized, active) in enumerate([
        ("Bath & brush", "dog", "30.00", "per_stay", True, True),
        ("Full groom", "dog", "55.00", "per_stay", True, True),
        ("Nail trim", "any", "12.00", "per_stay", False, True),
        ("Extra leash walk", "dog", "9.50", "per_night", False, True),
        ("Group playtime", "dog", "14.00", "per_night", False, True),
        ("Lap & cuddle time", "cat", "8.00", "per_night", False, True),
        ("Medication administration", "any", "4.75", "per_night", False, True),
        ("Photo update by text", "any", "3.25", "per_night", False, True),
        ("Cat brushing & coat care", "cat", "28.00", "per_stay", False, True),
        ("Hydro pool swim", "dog", "18.00", "per_night", True, False),
        ("Take-home treat bag", "any", "6.50", "per_stay", False, True),
        ("Teeth brushing", "any", "7.00", "per_stay", False, False)]):
    sid = f"SV{i + 1:02d}"
    services[sid] = {"service_id": sid, "name": name, "species": sp, "price": float(price),
                     "unit": unit, "size_priced": sized, "active": active}

# ------------------------------------------------------------------ stays
occupancy = {r: {} for r in runs}   # run -> {date: [owner,...]}
pet_busy = {p: set() for p in pets}


def nights_of(a, b):
    return [a + dt.timedelta(days=k) for k in range((b - a).days)]


def fits(run, pet):
    return (run["species"] == pet["species"] and
            SIZES.index(pet["size"]) <= SIZES.index(run["max_size"]))


def free(rid, pet, ds):
    run = runs[rid]
    for d in ds:
        occ = occupancy[rid].get(d, [])
        if len(occ) >= run["capacity"] or any(o != pet["owner_id"] for o in occ):
            return False
        if d in pet_busy[pet["pet_id"]]:
            return False
    return True


def rate_for(pet, run):
    base = CAT_BASE if pet["species"] == "cat" else BASE[pet["size"]]
    return base + Decimal(str(run["nightly_surcharge"]))


raw = []
plan = ([("checked_out", -130, -4)] * 52 + [("cancelled_past", -100, -1)] * 8 +
        [("no_show", -90, -4)] * 5 + [("checked_in", -7, 0)] * 12 + [("overstay", -8, -3)] * 3 +
        [("booked_today", 0, 0)] * 7 + [("unprocessed", -3, -1)] * 4 +
        [("booked", 1, 100)] * 34 + [("cancelled_future", 2, 60)] * 5)
pet_ids = sorted(pets)
for kind, lo, hi in plan:
    for _attempt in range(60):
        pet = pets[rng.choice(pet_ids)]
        start = day(rng.randint(lo, hi))
        if kind == "checked_in":
            n = rng.randint(max(1, (TODAY - start).days + 1), max(2, (TODAY - start).days + 8))
        elif kind == "overstay":
            n = rng.randint(1, (TODAY - start).days - 1)
        elif kind == "unprocessed":
            n = rng.randint(2, 6)
        else:
            n = rng.choice([1, 2, 2, 3, 3, 4, 5, 6, 7, 7, 9, 10, 14])
        end = start + dt.timedelta(days=n)
        ds = nights_of(start, end)
        if kind == "overstay":
            ds = nights_of(start, TODAY + dt.timedelta(days=1))
        cand = [r for r in sorted(runs) if fits(runs[r], pet) and free(r, pet, ds)
                and (runs[r]["status"] == "open" or kind in ("checked_out", "cancelled_past", "no_show"))]
        if not cand:
            continue
        rid = rng.choice(cand)
        if kind not in ("cancelled_past", "cancelled_future", "no_show"):
            for d in ds:
                occupancy[rid].setdefault(d, []).append(pet["owner_id"])
                pet_busy[pet["pet_id"]].add(d)
        raw.append((kind, pet, rid, start, end))
        break

raw.sort(key=lambda t: (t[3], t[1]["pet_id"]))
stays = {}
for idx, (kind, pet, rid, start, end) in enumerate(raw):
    sid = f"ST{idx + 1:04d}"
    n = (end - start).days
    rate = rate_for(pet, runs[rid])
    lodging = rate * n
    pct = (10 if n >= 7 else 0) + (5 if rng.random() < 0.3 else 0)
    disc = q2(lodging * pct / 100)
    lead = rng.randint(2, 70)
    booked_on = min(start - dt.timedelta(days=lead), TODAY)
    if kind in ("booked", "cancelled_future"):
        booked_on = TODAY - dt.timedelta(days=rng.randint(1, 40))
    status = {"checked_out": "checked_out", "cancelled_past": "cancelled", "no_show": "no_show",
              "checked_in": "checked_in", "overstay": "checked_in", "booked_today": "booked",
              "unprocessed": "booked", "booked": "booked", "cancelled_future": "cancelled"}[kind]
    s = {"stay_id": sid, "pet_id": pet["pet_id"], "owner_id": pet["owner_id"], "run_id": rid,
         "check_in_date": iso(start), "check_out_date": iso(end), "nights": n,
         "nightly_rate": f2(rate), "lodging_amount": f2(lodging), "discount_amount": f2(disc),
         "services_amount": 0.0, "late_fee": 0.0, "total_amount": 0.0, "status": status,
         "booked_on": iso(booked_on), "checked_in_on": None, "checked_out_on": None,
         "cancelled_on": None, "cancel_reason": None, "cancellation_fee": None,
         "no_show_on": None, "no_show_fee": None}
    if status in ("checked_in", "checked_out"):
        s["checked_in_on"] = iso(start)
    if status == "checked_out":
        late = 1 if rng.random() < 0.1 else 0
        s["checked_out_on"] = iso(end + dt.timedelta(days=late))
        s["late_fee"] = f2(rate * late)
    if status == "cancelled":
        lo_c = booked_on
        hi_c = min(start, TODAY)
        c_on = lo_c + dt.timedelta(days=rng.randint(0, max(0, (hi_c - lo_c).days)))
        s["cancelled_on"] = iso(c_on)
        s["cancel_reason"] = rng.choice(["owner_request", "pet_unwell", "travel_changed", "other"])
        s["cancellation_fee"] = f2(rate) if (start - c_on).days <= 1 else 0.0
    if status == "no_show":
        s["no_show_on"] = iso(start + dt.timedelta(days=1))
        s["no_show_fee"] = f2(rate * min(n, 2))
    stays[sid] = s

# most pets arriving today had their shots renewed after booking; two did not
arriving = [s for s in stays.values() if s["status"] == "booked" and s["check_in_date"] == iso(TODAY)]
for s in arriving[:-2]:
    pet = pets[s["pet_id"]]
    for k in ("rabies_expires_on", "core_vaccine_expires_on", "bordetella_expires_on"):
        if pet[k] is not None and pet[k] < s["check_out_date"]:
            pet[k] = iso(day(rng.randint(120, 700)))

# ------------------------------------------------------------------ service orders
orders = {}
oc = 1
for sid, s in stays.items():
    if s["status"] not in ("checked_out", "checked_in", "booked") or rng.random() < 0.55:
        continue
    pet = pets[s["pet_id"]]
    opts = [v for v in services.values() if v["active"] and v["species"] in ("any", pet["species"])]
    rng.shuffle(opts)
    for sv in opts[:rng.randint(1, 3)]:
        qty = 1 if sv["unit"] == "per_stay" else rng.randint(1, s["nights"])
        unit = Decimal(str(sv["price"]))
        if sv["size_priced"]:
            unit = q2(unit * FACTOR[pet["size"]])
        amt = unit * qty
        oid = f"SO{oc:04d}"
        oc += 1
        orders[oid] = {"order_id": oid, "stay_id": sid, "service_id": sv["service_id"],
                       "quantity": qty, "unit_price": f2(unit), "amount": f2(amt),
                       "ordered_on": s["booked_on"]}
        s["services_amount"] = f2(Decimal(str(s["services_amount"])) + amt)
for s in stays.values():
    s["total_amount"] = f2(Decimal(str(s["lodging_amount"])) - Decimal(str(s["discount_amount"])) +
                           Decimal(str(s["services_amount"])) + Decimal(str(s["late_fee"])))

# ------------------------------------------------------------------ daycare days & visits
daycare_days = {}
for k in range(-14, 31):
    d = day(k)
    if d.weekday() == 6:  # closed on Sundays
        continue
    cap = 5 if d.weekday() == 5 else 8
    daycare_days[iso(d)] = {"date": iso(d), "capacity": cap, "booked_count": 0}

visits = {}
dc_pets = sorted(p for p, v in pets.items() if v["daycare_approved"])
rawv = []
for dstr, dd in daycare_days.items():
    d = dt.date.fromisoformat(dstr)
    if (d - TODAY).days in (5, 13, 20):
        target = dd["capacity"]
    elif d >= TODAY:
        target = rng.randint(0, 3)
    else:
        target = rng.randint(1, 3)
    chosen = rng.sample(dc_pets, min(target, len(dc_pets)))
    for p in chosen:
        rawv.append((dstr, p, "live"))
    if rng.random() < 0.3:
        extra = [p for p in dc_pets if p not in chosen]
        rawv.append((dstr, rng.choice(extra), "cancelled"))
rawv.sort()
for i, (dstr, p, mode) in enumerate(rawv):
    vid = f"DC{i + 1:04d}"
    d = dt.date.fromisoformat(dstr)
    session = rng.choice(["full_day", "full_day", "half_day"])
    owner = owners[pets[p]["owner_id"]]
    paid = "credit" if rng.random() < 0.2 else "balance"
    booked_on = d - dt.timedelta(days=rng.randint(0, 20))
    if booked_on > TODAY:
        booked_on = TODAY - dt.timedelta(days=rng.randint(0, 5))
    v = {"visit_id": vid, "pet_id": p, "owner_id": owner["owner_id"], "visit_date": dstr,
         "session": session, "price": f2(DAYCARE_PRICE[session]), "paid_with": paid,
         "status": "booked", "booked_on": iso(booked_on), "cancelled_on": None, "refunded": None}
    if mode == "cancelled":
        c = booked_on + dt.timedelta(days=rng.randint(0, max(0, (min(d, TODAY) - booked_on).days)))
        v.update(status="cancelled", cancelled_on=iso(c), refunded=c < d)
    else:
        if d < TODAY:
            v["status"] = "no_show" if rng.random() < 0.08 else "attended"
        daycare_days[dstr]["booked_count"] += 1
    visits[vid] = v

# ------------------------------------------------------------------ payments
payments = {}
for i in range(45):
    o = rng.choice(sorted(owners))
    pm = f"PM{i + 1:04d}"
    payments[pm] = {"payment_id": pm, "owner_id": o, "amount": f2(Decimal(rng.randint(2000, 40000)) / 100),
                    "method": rng.choice(["card", "card", "cash", "bank_transfer"]),
                    "received_on": iso(day(-rng.randint(1, 120)))}
payments = dict(sorted(payments.items(), key=lambda kv: kv[1]["received_on"]))
payments = {f"PM{i + 1:04d}": dict(v, payment_id=f"PM{i + 1:04d}") for i, v in enumerate(payments.values())}

# ------------------------------------------------------------------ activity log (last 10 days)
events = []
since = day(-10)
for s in stays.values():
    for fld, act in (("booked_on", "stay_booked"), ("checked_in_on", "stay_checked_in"),
                     ("checked_out_on", "stay_checked_out"), ("cancelled_on", "stay_cancelled"),
                     ("no_show_on", "stay_no_show")):
        if s[fld] and dt.date.fromisoformat(s[fld]) >= since and s[fld] <= iso(TODAY):
            events.append((s[fld], act, s["owner_id"], s["stay_id"]))
for o in orders.values():
    if o["ordered_on"] >= iso(since):
        events.append((o["ordered_on"], "service_added", stays[o["stay_id"]]["owner_id"], o["order_id"]))
for v in visits.values():
    if v["booked_on"] >= iso(since):
        events.append((v["booked_on"], "daycare_booked", v["owner_id"], v["visit_id"]))
    if v["cancelled_on"] and v["cancelled_on"] >= iso(since):
        events.append((v["cancelled_on"], "daycare_cancelled", v["owner_id"], v["visit_id"]))
for p in payments.values():
    if p["received_on"] >= iso(since):
        events.append((p["received_on"], "payment_recorded", p["owner_id"], p["payment_id"]))
order = {"stay_booked": 0, "daycare_booked": 1, "service_added": 2, "stay_checked_in": 3,
         "stay_checked_out": 4, "stay_cancelled": 5, "daycare_cancelled": 6, "stay_no_show": 7,
         "payment_recorded": 8}
events.sort(key=lambda e: (e[0], order[e[1]], e[3]))
log = {}
for i, (d, act, o, rid) in enumerate(events):
    lid = f"LG{i + 1:05d}"
    log[lid] = {"log_id": lid, "logged_on": d, "action": act, "owner_id": o, "record_id": rid}

db = {"meta": {"today": iso(TODAY), "currency": "USD", "business": "Barkwood Lodge",
               "timezone": "America/Denver"},
      "owners": owners, "pets": pets, "runs": runs, "services": services, "stays": stays,
      "service_orders": orders, "daycare_days": daycare_days, "daycare_visits": visits,
      "payments": payments, "activity_log": log}

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as fh:
    json.dump(db, fh, indent=1)
    fh.write("\n")
print({k: len(v) for k, v in db.items()})
