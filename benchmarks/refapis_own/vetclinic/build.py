"""Builds db.json for the Maple Grove Veterinary Clinic reference API (stdlib only, fixed seed)."""
import json
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 20250314
TODAY = date(2025, 3, 14)
rng = random.Random(SEED)


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def mul(a, b):  # exact decimal product, rounded half-up to the cent
    return money(Decimal(str(a)) * Decimal(str(b)))


def slots_for(d):
    last = 12 * 60 + 30 if d.weekday() == 5 else 17 * 60 + 30
    return ["%02d:%02d" % (m // 60, m % 60) for m in range(8 * 60, last + 1, 30)]


FIRST = ["Olivia", "Liam", "Emma", "Noah", "Ava", "Elijah", "Sophia", "Lucas", "Mia", "Mateo",
         "Amelia", "Levi", "Harper", "Ezra", "Evelyn", "Owen", "Abigail", "Leo", "Ella", "Jack",
         "Grace", "Hudson", "Nora", "Miles", "Lily", "Isaac", "Zoe", "Caleb", "Hannah", "Ruth",
         "Samir", "Priya", "Kenji", "Fatima", "Diego", "Ingrid", "Tomasz", "Aisha", "Marco", "Yuki"]
LAST = ["Alvarez", "Bennett", "Chen", "Dubois", "Eriksen", "Fischer", "Garcia", "Hughes", "Ivanova",
        "Jensen", "Kowalski", "Lindqvist", "Morales", "Nakamura", "Okafor", "Patel", "Quinn",
        "Rossi", "Schmidt", "Tanaka", "Underwood", "Vargas", "Whitfield", "Xu", "Young", "Zimmer"]
VET_FIRST = ["Helen", "Marcus", "Ines", "Robert", "Claire", "Daniel", "Naomi", "Victor", "Paula",
             "Gregory", "Leila", "Simon", "Beatrice", "Anton", "Rosa", "Julian", "Martina", "Oscar",
             "Frances", "Tobias"]
PET_NAMES = ["Bella", "Max", "Luna", "Charlie", "Milo", "Daisy", "Rocky", "Coco", "Oliver", "Lola",
             "Teddy", "Nala", "Simba", "Pepper", "Biscuit", "Ziggy", "Hazel", "Mochi", "Rusty",
             "Willow", "Ginger", "Oreo", "Shadow", "Poppy", "Buster", "Kiwi", "Pickles", "Juniper",
             "Sunny", "Tofu", "Maple", "Bruno", "Cleo", "Finn", "Olive", "Sage", "Bandit", "Pumpkin"]
BREEDS = {
    "dog": ["Labrador Retriever", "German Shepherd", "Beagle", "Dachshund", "Border Collie",
            "French Bulldog", "Golden Retriever", "Mixed"],
    "cat": ["Domestic Shorthair", "Maine Coon", "Siamese", "Ragdoll", "Bengal", "Mixed"],
    "rabbit": ["Holland Lop", "Netherland Dwarf", "Rex", "Mixed"],
    "bird": ["Budgerigar", "Cockatiel", "African Grey", "Lovebird"],
    "reptile": ["Leopard Gecko", "Bearded Dragon", "Corn Snake", "Ball Python"],
}
WEIGHT = {"dog": (4.0, 45.0), "cat": (2.5, 8.0), "rabbit": (1.0, 4.5), "bird": (0.03, 0.6),
          "reptile": (0.05, 2.5)}
SPECIES_W = ["dog"] * 9 + ["cat"] * 7 + ["rabbit"] * 2 + ["bird", "reptile"]

CONSULT = {"wellness_exam": 55.00, "vaccination": 35.00, "sick_visit": 70.00, "dental": 120.00,
           "surgery": 250.00}

# ---------------- products ----------------
PRODUCTS_RAW = [
    ("Rabies vaccine (1 year)", "vaccine", 28.50, ["dog", "cat"], 40),
    ("DHPP combination vaccine", "vaccine", 32.00, ["dog"], 25),
    ("Leptospirosis vaccine", "vaccine", 24.75, ["dog"], 3),
    ("FVRCP combination vaccine", "vaccine", 29.90, ["cat"], 18),
    ("Feline leukemia vaccine", "vaccine", 31.25, ["cat"], 0),
    ("RHDV2 rabbit vaccine", "vaccine", 38.00, ["rabbit"], 6),
    ("Carprofen 75 mg tablet", "medication", 1.85, ["dog"], 220),
    ("Meloxicam oral suspension 10 ml", "medication", 14.40, ["dog", "cat"], 12),
    ("Amoxicillin-clavulanate 250 mg tablet", "medication", 2.35, ["dog", "cat"], 150),
    ("Enrofloxacin 50 mg tablet", "medication", 1.95, ["dog", "cat", "rabbit", "bird", "reptile"], 4),
    ("Gabapentin 100 mg capsule", "medication", 0.95, ["dog", "cat"], 300),
    ("Maropitant injection", "medication", 18.60, ["dog", "cat"], 9),
    ("Ivermectin spot-on", "medication", 11.20, ["rabbit", "bird", "reptile"], 2),
    ("Calcium supplement powder", "medication", 9.80, ["bird", "reptile"], 15),
    ("Flea and tick chewable (3 pack)", "medication", 42.00, ["dog"], 20),
    ("Feline flea spot-on (3 pack)", "medication", 36.50, ["cat"], 11),
    ("Elizabethan collar", "supply", 12.00, ["dog", "cat", "rabbit"], 14),
    ("Surgical recovery suit", "supply", 24.00, ["dog", "cat"], 1),
    ("Prescription renal diet 2 kg", "supply", 27.45, ["cat", "dog"], 8),
    ("Microchip implant", "procedure", 45.00, ["dog", "cat", "rabbit", "bird", "reptile"], None),
    ("Nail trim", "procedure", 15.00, ["dog", "cat", "rabbit", "bird", "reptile"], None),
    ("Digital radiograph (per view)", "procedure", 85.00, ["dog", "cat", "rabbit", "bird", "reptile"], None),
    ("Complete blood panel", "procedure", 96.50, ["dog", "cat", "rabbit"], None),
    ("Urinalysis", "procedure", 42.80, ["dog", "cat"], None),
    ("Dental scaling and polishing", "procedure", 185.00, ["dog", "cat"], None),
    ("Tooth extraction", "procedure", 64.00, ["dog", "cat", "rabbit"], None),
    ("General anaesthesia (per 30 min)", "procedure", 110.00, ["dog", "cat", "rabbit"], None),
    ("Spay / neuter surgery", "procedure", 320.00, ["dog", "cat", "rabbit"], None),
    ("Wound cleaning and dressing", "procedure", 38.00, ["dog", "cat", "rabbit", "bird", "reptile"], None),
    ("Beak and wing trim", "procedure", 22.00, ["bird"], None),
    ("Heartworm test kit (discontinued)", "procedure", 35.00, ["dog"], None),
    ("Ear mite drops 15 ml (discontinued)", "medication", 13.30, ["cat", "dog", "rabbit"], 30),
]
products = {}
for i, (name, cat, price, species, stock) in enumerate(PRODUCTS_RAW, 1):
    pid = "PRD-%03d" % i
    products[pid] = {"id": pid, "name": name, "category": cat, "unit_price": price,
                     "species": species, "stock_on_hand": stock,
                     "active": "discontinued" not in name}

# ---------------- vets ----------------
vets = {}
for i in range(1, 21):
    vid = "V%03d" % i
    if i <= 12:
        species = ["dog", "cat"]
    elif i <= 16:
        species = ["dog", "cat", "rabbit"]
    else:
        species = ["rabbit", "bird", "reptile"]
    vets[vid] = {"id": vid, "name": "Dr. %s %s" % (VET_FIRST[i - 1], rng.choice(LAST)),
                 "species_treated": species, "performs_surgery": i % 3 == 1,
                 "active": i not in (7, 18)}

# ---------------- owners ----------------
owners = {}
used_emails = set()
for i in range(1, 46):
    oid = "O%04d" % i
    fn, ln = rng.choice(FIRST), rng.choice(LAST)
    email = "%s.%s@example.com" % (fn.lower(), ln.lower())
    k = 2
    while email in used_emails:
        email = "%s.%s%d@example.com" % (fn.lower(), ln.lower(), k)
        k += 1
    used_emails.add(email)
    owners[oid] = {"id": oid, "first_name": fn, "last_name": ln, "email": email,
                   "phone": "+1-555-%03d-%04d" % (rng.randint(100, 999), rng.randint(0, 9999)),
                   "status": "active", "wellness_plan": rng.random() < 0.3, "balance": 0.0,
                   "no_show_count": 0, "pet_count": 0,
                   "created_on": (TODAY - timedelta(days=rng.randint(120, 2500))).isoformat()}

# ---------------- pets ----------------
pets = {}
owner_ids = sorted(owners)
for i in range(1, 81):
    pid = "P%04d" % i
    oid = owner_ids[(i - 1) % 45] if i <= 45 else rng.choice(owner_ids)
    taken = {p["name"] for p in pets.values() if p["owner_id"] == oid}
    species = rng.choice(SPECIES_W)
    name = rng.choice([n for n in PET_NAMES if n not in taken])
    lo, hi = WEIGHT[species]
    status = "active"
    if i % 17 == 0:
        status = "deceased"
    elif i % 23 == 0:
        status = "transferred"
    dob = TODAY - timedelta(days=rng.randint(90, 15 * 365 if species in ("dog", "cat") else 8 * 365))
    chip = "985%012d" % rng.randint(0, 10 ** 12 - 1) if rng.random() < 0.6 else None
    pets[pid] = {"id": pid, "owner_id": oid, "name": name, "species": species,
                 "breed": rng.choice(BREEDS[species]), "sex": rng.choice(["male", "female"]),
                 "date_of_birth": dob.isoformat(), "weight_kg": round(rng.uniform(lo, hi), 2),
                 "microchip_id": chip, "status": status, "last_visit_date": None,
                 "registered_on": max(dob, TODAY - timedelta(days=rng.randint(60, 2000))).isoformat()}

# ---------------- appointments ----------------
TYPES = ["wellness_exam"] * 4 + ["vaccination"] * 3 + ["sick_visit"] * 4 + ["dental", "surgery"]
REASONS = {"wellness_exam": ["Annual check-up", "Senior wellness exam", "New pet exam"],
           "vaccination": ["Booster due", "Annual vaccines", "Puppy/kitten series"],
           "sick_visit": ["Vomiting", "Limping on hind leg", "Itchy skin", "Not eating", "Ear infection",
                          "Coughing"],
           "dental": ["Dental cleaning", "Broken tooth"],
           "surgery": ["Spay", "Neuter", "Lump removal"]}
appts = []
vet_busy, pet_busy = set(), set()


def try_make(offset, pet):
    d = TODAY + timedelta(days=offset)
    if d.weekday() == 6:
        return None
    atype = rng.choice(TYPES)
    if pet["species"] in ("bird", "reptile") and atype in ("dental", "vaccination"):
        atype = "sick_visit"
    cands = [v for v in vets.values() if pet["species"] in v["species_treated"]
             and (v["performs_surgery"] or atype not in ("dental", "surgery"))
             and (v["active"] or offset < -30)]
    if not cands:
        return None
    vet = rng.choice(cands)
    t = rng.choice(slots_for(d))
    if (vet["id"], d, t) in vet_busy or (pet["id"], d) in pet_busy:
        return None
    vet_busy.add((vet["id"], d, t))
    pet_busy.add((pet["id"], d))
    return {"pet_id": pet["id"], "owner_id": pet["owner_id"], "vet_id": vet["id"], "date": d,
            "time": t, "type": atype, "reason": rng.choice(REASONS[atype])}


active_pets = [p for p in pets.values() if p["status"] == "active"]
gone_pets = [p for p in pets.values() if p["status"] != "active"]
while len(appts) < 12:  # today's clinic list
    a = try_make(0, rng.choice(active_pets))
    if a:
        appts.append(a)
while len(appts) < 80:
    a = try_make(rng.randint(-90, -1), rng.choice(active_pets + gone_pets))
    if a:
        appts.append(a)
while len(appts) < 130:
    a = try_make(rng.randint(1, 45), rng.choice(active_pets))
    if a:
        appts.append(a)

appts.sort(key=lambda a: (a["date"], a["time"], a["pet_id"]))


def make_lines(pet, atype, k):
    ok = [p for p in products.values() if p["active"] and pet["species"] in p["species"]]
    lines = []
    if atype == "vaccination":
        vac = [p for p in ok if p["category"] == "vaccine"]
        if vac:
            v = rng.choice(vac)
            lines.append((v, 1))
    others = [p for p in ok if p["category"] != "vaccine"]
    for _ in range(k):
        p = rng.choice(others)
        if any(p is l[0] for l in lines):
            continue
        qty = rng.randint(1, 14) if p["category"] == "medication" else 1
        lines.append((p, qty))
    return [{"line_no": n, "product_id": p["id"], "description": p["name"], "quantity": q,
             "unit_price": p["unit_price"], "line_total": mul(p["unit_price"], q)}
            for n, (p, q) in enumerate(lines, 1)]


appointments, invoices = {}, {}
inv_no = 0
today_status = ["scheduled"] * 6 + ["checked_in"] * 5 + ["completed"]
rng.shuffle(today_status)
ti = 0
for n, a in enumerate(appts, 1):
    aid = "A%04d" % n
    d = a["date"]
    pet = pets[a["pet_id"]]
    owner = owners[a["owner_id"]]
    if d < TODAY:
        r = rng.random()
        status = "completed" if r < 0.70 else "cancelled" if r < 0.82 else "no_show" if r < 0.92 else "scheduled"
        if pet["status"] != "active" and status == "scheduled":
            status = "completed"
    elif d == TODAY:
        status = today_status[ti]
        ti += 1
    else:
        status = "cancelled" if rng.random() < 0.15 else "scheduled"
    created = max(TODAY - timedelta(days=120), d - timedelta(days=rng.randint(1, 40)))
    if created > TODAY:
        created = TODAY - timedelta(days=rng.randint(0, 5))
    rec = {"id": aid, "pet_id": a["pet_id"], "owner_id": a["owner_id"], "vet_id": a["vet_id"],
           "date": d.isoformat(), "time": a["time"], "type": a["type"], "reason": a["reason"],
           "status": status, "treatments": [], "reschedule_count": rng.choice([0, 0, 0, 1, 2]) if status == "scheduled" else 0,
           "cancel_reason": None, "penalty_fee": 0.0, "invoice_id": None,
           "created_on": created.isoformat()}
    if status == "cancelled":
        rec["cancel_reason"] = rng.choice(["owner_request", "owner_request", "clinic_request", "other"])
        if rec["cancel_reason"] == "owner_request" and rng.random() < 0.3:
            rec["penalty_fee"] = 25.0
    elif status == "no_show":
        rec["penalty_fee"] = 40.0
        owner["no_show_count"] += 1
        if d >= TODAY - timedelta(days=30):
            owner["balance"] = money(owner["balance"] + 40.0)
    elif status == "checked_in":
        rec["treatments"] = make_lines(pet, a["type"], rng.randint(0, 2))
    elif status == "completed":
        rec["treatments"] = make_lines(pet, a["type"], rng.randint(0, 3))
        inv_no += 1
        iid = "INV-%05d" % inv_no
        fee = CONSULT[a["type"]]
        items = money(sum(l["line_total"] for l in rec["treatments"]))
        sub = money(fee + items)
        disc = mul(sub, "0.10") if owner["wellness_plan"] else 0.0
        total = money(sub - disc)
        age = (TODAY - d).days
        r = rng.random()
        if age > 45:
            paid, st = (total, "paid") if r < 0.85 else (money(total / 2), "partially_paid")
        elif age > 10:
            paid, st = (total, "paid") if r < 0.5 else (money(total * 0.4), "partially_paid") if r < 0.7 else (0.0, "unpaid")
        else:
            paid, st = (total, "paid") if r < 0.25 else (0.0, "unpaid")
        invoices[iid] = {"id": iid, "owner_id": a["owner_id"], "pet_id": a["pet_id"], "appointment_id": aid,
                         "issued_on": d.isoformat(), "due_date": (d + timedelta(days=30)).isoformat(),
                         "consultation_fee": fee, "items_total": items, "discount": disc, "total": total,
                         "amount_paid": paid, "status": st,
                         "paid_on": min(TODAY, d + timedelta(days=rng.randint(0, 20))).isoformat() if st == "paid" else None}
        owner["balance"] = money(owner["balance"] + total - paid)
        rec["invoice_id"] = iid
        if pet["last_visit_date"] is None or pet["last_visit_date"] < d.isoformat():
            pet["last_visit_date"] = d.isoformat()
    appointments[aid] = rec

# one of today's vaccination patients is checked in but has not had the vaccine recorded yet
for a in appointments.values():
    if a["status"] == "checked_in" and a["type"] == "vaccination":
        a["treatments"] = [dict(l, line_no=n) for n, l in enumerate(
            [l for l in a["treatments"] if products[l["product_id"]]["category"] != "vaccine"], 1)]
        break

for o in owners.values():
    o["pet_count"] = sum(1 for p in pets.values() if p["owner_id"] == o["id"] and p["status"] == "active")
    if o["no_show_count"] >= 3:
        o["status"] = "suspended"
owners["O0009"]["status"] = "suspended"
owners["O0031"]["status"] = "suspended"

db = {"meta": {"today": TODAY.isoformat(), "clinic": "Maple Grove Veterinary Clinic",
               "currency": "USD"},
      "owners": owners, "pets": pets, "vets": vets, "products": products,
      "appointments": appointments, "invoices": invoices}
with open("db.json", "w") as f:
    json.dump(db, f, indent=1)
print({k: len(v) for k, v in db.items() if k != "meta"})
