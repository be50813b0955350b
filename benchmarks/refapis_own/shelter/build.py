"""Builds db.json for the shelter adoption desk API (deterministic, stdlib only)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

TODAY = dt.date(2025, 6, 12)
rng = random.Random(4417)

SLOTS = ["10:00", "11:30", "13:00", "14:30", "16:00"]
PROMOTIONS = [
    {"name": "Spring Kitten Days", "species": "cat", "percent": 35,
     "starts_on": "2025-04-01", "ends_on": "2025-04-30"},
    {"name": "Summer Dog Days", "species": "dog", "percent": 25,
     "starts_on": "2025-06-01", "ends_on": "2025-06-30"},
    {"name": "Bunny Week", "species": "rabbit", "percent": 50,
     "starts_on": "2025-06-20", "ends_on": "2025-06-27"},
]
GROUP_PCT = {"none": 0, "senior": 25, "veteran": 30, "volunteer": 15}


def ago(n):
    return TODAY - dt.timedelta(days=n)


def iso(x):
    return x.isoformat()


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def not_monday(day):
    while day.weekday() == 0:
        day = day - dt.timedelta(days=1)
    return day


def age_years(birth, on):
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


def base_fee(species, age):
    if species == "dog":
        return 325 if age < 1 else (250 if age <= 7 else 95)
    if species == "cat":
        return 150 if age < 1 else (110 if age <= 7 else 45)
    return 60 if species == "rabbit" else 30


def fee_on(animal, intake, adopter, on):
    base = base_fee(animal["species"], age_years(animal["_birth"], on))
    pcts = [GROUP_PCT[adopter["discount_group"]]]
    if animal["special_needs"]:
        pcts.append(50)
    if (on - intake).days > 180:
        pcts.append(20)
    for p in PROMOTIONS:
        if p["species"] == animal["species"] and p["starts_on"] <= iso(on) <= p["ends_on"]:
            pcts.append(p["percent"])
    pct = max(pcts)
    return float(base), pct, money(Decimal(base) * (100 - pct) / 100)


PET_NAMES = """Biscuit Maple Juniper Otis Pepper Ziggy Luna Hazel Rocco Mabel Tater Clover Bruno Sadie Waffles
Nova Gus Pickles Willow Banjo Dottie Remy Olive Scout Poppy Finn Marlow Daisy Moose Cleo Frankie Bean Ruby
Archie Nala Tucker Penny Jasper Mochi Chester Winnie Boone Fig Koda Lola Ozzie Peaches Rusty Sunny Theo
Bella Cosmo Ginger Hank Ivy Jax Kiki Loki Millie Noodle Oreo Pip Quincy Rosie Sprout Toffee Ursa Vinnie""".split()
BREEDS = {
    "dog": ["Labrador Mix", "Pit Bull Terrier", "Beagle", "German Shepherd Mix", "Chihuahua",
            "Border Collie Mix", "Boxer", "Dachshund Mix", "Siberian Husky", "Terrier Mix"],
    "cat": ["Domestic Shorthair", "Domestic Longhair", "Siamese Mix", "Maine Coon Mix", "Tuxedo",
            "Domestic Mediumhair"],
    "rabbit": ["Holland Lop", "Netherland Dwarf", "Rex", "Lionhead"],
    "guinea_pig": ["American", "Abyssinian", "Peruvian"],
}
HOLD_REASONS = ["post-surgery recovery", "upper respiratory infection", "spay/neuter recovery",
                "skin condition treatment", "dental extraction recovery", "kennel cough",
                "parasite treatment"]
FIRST = """Ana Ben Carla Derek Elena Farid Grace Hector Imani Jonah Keiko Liam Marisol Nate Opal Priya
Quentin Rosa Samir Tessa Umar Vera Wes Ximena Yusuf Zoe Alma Boris Celine Dmitri Esther Felix Gwen Hugo
Ines Jules Kara Leon Mina Noor""".split()
LAST = """Alvarez Brennan Castillo Dubois Eriksen Fontaine Garza Holloway Ibarra Jansen Kowalski Lindqvist
Moreau Nakamura Okafor Petrov Quinlan Romero Sato Thornton Underwood Vasquez Whitaker Yilmaz Zimmerman
Abbott Bishop Carver Delgado Ellis""".split()

# ---------------------------------------------------------------- animals
animals = []
names = PET_NAMES[:]
rng.shuffle(names)
species_pool = ["dog"] * 29 + ["cat"] * 25 + ["rabbit"] * 6 + ["guinea_pig"] * 4
rng.shuffle(species_pool)
roles = (["adopted"] * 18 + ["returned"] * 4 + ["intake"] * 6 + ["medical_hold"] * 8
         + ["reserved"] * 10 + ["available"] * 18)
rng.shuffle(roles)
intake_offsets = [0, 2, 3, 5, 7, 9]
adopt_offsets = [2, 5, 9, 12, 14, 15, 18, 22, 27, 30, 31, 40, 55, 70, 90, 110, 130, 150]
rng.shuffle(adopt_offsets)
for i in range(64):
    sp = species_pool[i]
    a = {"name": names[i], "species": sp, "breed": rng.choice(BREEDS[sp]),
         "sex": rng.choice(["male", "female"]), "status": None,
         "good_with_kids": rng.random() < 0.72, "special_needs": rng.random() < 0.13,
         "hold_reason": None, "hold_until": None, "_role": roles[i]}
    role = roles[i]
    if role == "intake":
        intake = ago(intake_offsets.pop())
    elif role == "adopted":
        a["_adopt_date"] = ago(adopt_offsets.pop())
        intake = a["_adopt_date"] - dt.timedelta(days=rng.randint(10, 200))
    elif role == "returned":
        a["_adopt_date"] = ago(rng.randint(60, 220))
        a["_return_date"] = min(a["_adopt_date"] + dt.timedelta(days=rng.randint(3, 30)), ago(8))
        a["_first_intake"] = a["_adopt_date"] - dt.timedelta(days=rng.randint(10, 90))
        intake = a["_return_date"]
    else:
        intake = ago(rng.choice([rng.randint(6, 120), rng.randint(6, 120), rng.randint(181, 420)]))
    a["intake_date"] = iso(intake)
    a["_intake"] = intake
    first_in = a.get("_first_intake", intake)
    max_days = {"dog": 13 * 365, "cat": 15 * 365, "rabbit": 7 * 365, "guinea_pig": 5 * 365}[sp]
    if rng.random() < 0.25:
        birth = first_in - dt.timedelta(days=rng.randint(45, 150))
    else:
        birth = first_in - dt.timedelta(days=rng.randint(200, max_days))
    a["birth_date"] = iso(birth)
    a["_birth"] = birth
    if role == "medical_hold":
        a["status"] = "medical_hold"
        a["hold_reason"] = rng.choice(HOLD_REASONS)
        a["hold_until"] = iso(TODAY + dt.timedelta(days=rng.randint(-4, 21)))
    else:
        a["status"] = {"adopted": "adopted", "returned": "available", "intake": "intake",
                       "reserved": "reserved", "available": "available"}[role]
    animals.append(a)

# ---------------------------------------------------------------- adopters
adopters = []
used = set()
for i in range(48):
    while True:
        f, l = rng.choice(FIRST), rng.choice(LAST)
        if (f, l) not in used:
            used.add((f, l))
            break
    housing = "own" if rng.random() < 0.55 else "rent"
    p = {"name": f"{f} {l}", "email": f"{f.lower()}.{l.lower()}@mailbox.example",
         "phone": f"555-{rng.randint(200, 989)}-{rng.randint(1000, 9999)}",
         "housing": housing,
         "landlord_approved": (rng.random() < 0.6) if housing == "rent" else None,
         "has_children": rng.random() < 0.35,
         "discount_group": rng.choices(["none", "senior", "veteran", "volunteer"], [60, 15, 12, 13])[0],
         "do_not_adopt": False, "store_credit": 0.0}
    adopters.append(p)
for i in (7, 22, 33):
    adopters[i]["do_not_adopt"] = True
for i in (3, 17, 29):
    adopters[i]["store_credit"] = rng.choice([15.0, 20.0, 35.0])


def eligible(p, a):
    if a["species"] == "dog" and p["housing"] == "rent" and not p["landlord_approved"]:
        return False
    if p["has_children"] and not a["good_with_kids"]:
        return False
    return True


good_adopters = [p for p in adopters if not p["do_not_adopt"]]
applications, visits, adoptions = [], [], []


def visit_date_between(lo, hi):
    span = max((hi - lo).days, 0)
    return not_monday(lo + dt.timedelta(days=rng.randint(0, span)))


def add_visit(app, day, status, reason=None, want=None):
    taken = {(v["_date"], v["slot"]) for v in visits if v["_animal"] is app["_animal"]}
    load = {}
    for v in visits:
        if v["status"] != "cancelled":
            load[(v["_date"], v["slot"])] = load.get((v["_date"], v["slot"]), 0) + 1
    slots = SLOTS[:]
    rng.shuffle(slots)
    if want:
        slots = [want]
    for s in slots:
        if (day, s) not in taken and load.get((day, s), 0) < 2:
            v = {"_app": app, "_animal": app["_animal"], "_adopter": app["_adopter"], "_date": day,
                 "slot": s, "status": status, "cancel_reason": reason}
            visits.append(v)
            return v
    return None


def new_app(p, a, status, submitted, updated, approved=None, closed=None):
    app = {"_adopter": p, "_animal": a, "status": status, "submitted_on": iso(submitted),
           "updated_on": iso(updated), "approved_on": iso(approved) if approved else None,
           "closed_reason": closed, "_sub": submitted}
    applications.append(app)
    return app


# adoptions (including those later returned)
adopted_animals = [a for a in animals if a["_role"] in ("adopted", "returned")]
double = good_adopters[4]
recent = [a for a in adopted_animals if a["_role"] == "adopted" and (TODAY - a["_adopt_date"]).days <= 28]
for a in adopted_animals:
    if a in recent[:2] and eligible(double, a):
        p = double
    else:
        p = rng.choice([q for q in good_adopters if eligible(q, a) and q is not double])
    ad_date = a["_adopt_date"]
    approved = ad_date - dt.timedelta(days=rng.randint(0, 4))
    submitted = approved - dt.timedelta(days=rng.randint(6, 20))
    app = new_app(p, a, "completed", submitted, ad_date, approved=approved)
    add_visit(app, visit_date_between(submitted + dt.timedelta(days=1), approved), "completed")
    intake_then = a.get("_first_intake", a["_intake"])
    base, pct, fee = fee_on(a, intake_then, p, ad_date)
    rec = {"_app": app, "_animal": a, "_adopter": p, "adoption_date": iso(ad_date), "base_fee": base,
           "discount_percent": pct, "fee": fee, "credit_applied": 0.0, "amount_paid": fee,
           "status": "completed", "return_date": None, "return_reason": None, "refund_credit": None}
    if a["_role"] == "returned":
        days = (a["_return_date"] - ad_date).days
        refund = fee if days <= 14 else (money(Decimal(str(fee)) / 2) if days <= 30 else 0.0)
        rec.update(status="returned", return_date=iso(a["_return_date"]),
                   return_reason=rng.choice(["allergies in household", "landlord objected",
                                             "not compatible with resident cat", "moving overseas",
                                             "too energetic for household"]),
                   refund_credit=refund)
        p["store_credit"] = money(Decimal(str(p["store_credit"])) + Decimal(str(refund)))
    adoptions.append(rec)
    # a competing application that was closed when the animal went home
    if rng.random() < 0.35:
        q = rng.choice([x for x in good_adopters if x is not p and eligible(x, a)])
        new_app(q, a, "rejected", submitted + dt.timedelta(days=rng.randint(0, 4)), ad_date,
                closed="animal_adopted")


def open_count(p):
    return sum(1 for x in applications if x["_adopter"] is p
               and x["status"] in ("submitted", "screening", "home_check", "approved"))


def has_open(p, a):
    return any(x["_adopter"] is p and x["_animal"] is a
               and x["status"] in ("submitted", "screening", "home_check", "approved") for x in applications)


def pick_adopter(a, pool=None, allow_flagged=False):
    pool = pool or (adopters if allow_flagged else good_adopters)
    cands = [p for p in pool if eligible(p, a) and open_count(p) < 2 and not has_open(p, a)]
    return rng.choice(cands) if cands else None


# reserved animals: one approved application each
reserved = [a for a in animals if a["_role"] == "reserved"]
approved_offsets = [1, 2, 3, 4, 6, 8, 10, 15, 23, 30]
doubles = [p for p in good_adopters
           if sum(1 for d in adoptions if d["_adopter"] is p
                  and (TODAY - dt.date.fromisoformat(d["adoption_date"])).days <= 30) >= 2]
pairs = [(a, p) for a in reserved for p in doubles if eligible(p, a) and open_count(p) < 2]
if pairs:
    reserved.remove(pairs[0][0])
    reserved.insert(0, pairs[0][0])
for idx, a in enumerate(reserved):
    p = pairs[0][1] if idx == 0 and pairs else pick_adopter(a)
    if idx == 1:
        p = pick_adopter(a, pool=[adopters[7], adopters[22], adopters[33]]) or p
    approved = ago(approved_offsets[idx])
    submitted = approved - dt.timedelta(days=rng.randint(7, 18))
    app = new_app(p, a, "approved", submitted, approved, approved=approved)
    add_visit(app, visit_date_between(submitted + dt.timedelta(days=1), approved), "completed")

# open applications at earlier stages
pool_animals = [a for a in animals if a["_role"] in ("available", "returned", "medical_hold", "reserved")]
avail_animals = [a for a in pool_animals if a["status"] == "available"]
stage_plan = ["submitted"] * 13 + ["screening"] * 18 + ["home_check"] * 18
rng.shuffle(stage_plan)
flag_budget = 2
for stage in stage_plan:
    for _ in range(50):
        a = rng.choice(pool_animals if rng.random() < 0.3 else avail_animals)
        allow = flag_budget > 0 and rng.random() < 0.2
        p = pick_adopter(a, allow_flagged=allow)
        if p:
            break
    if p["do_not_adopt"]:
        flag_budget -= 1
    submitted = ago(rng.randint(2, 30))
    updated = submitted + dt.timedelta(days=rng.randint(0, (TODAY - submitted).days))
    app = new_app(p, a, stage, submitted, updated)
    if stage in ("screening", "home_check") and rng.random() < (0.5 if stage == "home_check" else 0.35):
        add_visit(app, visit_date_between(submitted + dt.timedelta(days=1), ago(1)), "completed")

# closed applications
reasons = ["incomplete references", "housing not suitable", "adopter changed plans",
           "chose another animal", "no response to screening call"]
for _ in range(10):
    a = rng.choice(pool_animals)
    p = rng.choice([q for q in adopters if eligible(q, a)])
    submitted = ago(rng.randint(10, 90))
    status = rng.choice(["rejected", "withdrawn"])
    app = new_app(p, a, status, submitted, submitted + dt.timedelta(days=rng.randint(1, 9)),
                  closed=rng.choice(reasons))
    if rng.random() < 0.5:
        add_visit(app, visit_date_between(submitted + dt.timedelta(days=1), ago(3)),
                  rng.choice(["cancelled", "no_show"]), None)

for v in visits:
    if v["status"] == "cancelled":
        v["cancel_reason"] = "application_closed"

# no-show history for a few adopters with open applications
open_apps = [x for x in applications if x["status"] in ("screening", "home_check")]
rng.shuffle(open_apps)
for app in open_apps[:4]:
    for _ in range(2 if app is open_apps[0] or app is open_apps[1] else 1):
        add_visit(app, visit_date_between(app["_sub"] + dt.timedelta(days=1), ago(1)), "no_show")

# scheduled visits: a few awaiting an outcome, most upcoming
bookable = [x for x in open_apps if x["_animal"]["status"] == "available"]
rng.shuffle(bookable)
crowded = TODAY + dt.timedelta(days=5)  # a Tuesday
for n, app in enumerate(bookable[:14]):
    if n < 6:
        day = not_monday(ago(rng.randint(0, 3)))
        if day < app["_sub"]:
            day = TODAY
    elif n < 8:
        day = crowded
    else:
        day = TODAY + dt.timedelta(days=rng.randint(1, 14))
        if day.weekday() == 0:
            day += dt.timedelta(days=1)
    add_visit(app, day, "scheduled", want="11:30" if n in (6, 7) else None)
for app in open_apps[4:10]:
    add_visit(app, visit_date_between(app["_sub"] + dt.timedelta(days=1), ago(1)), "cancelled",
              rng.choice(["adopter request", "staff shortage", "weather closure"]))

# ---------------------------------------------------------------- ids and counters
def assign(records, prefix, width, key):
    records.sort(key=key)
    for i, r in enumerate(records, 1):
        r["id"] = f"{prefix}{i:0{width}d}"


assign(animals, "A", 4, lambda r: (r.get("_first_intake", r["_intake"]), r["name"]))
assign(adopters, "P", 4, lambda r: r["name"].split()[1] + r["name"])
assign(applications, "AP", 4, lambda r: (r["submitted_on"], r["_animal"]["id"], r["_adopter"]["id"]))
assign(visits, "V", 4, lambda r: (r["_date"], r["slot"], r["_app"]["id"]))
assign(adoptions, "D", 4, lambda r: (r["adoption_date"], r["_animal"]["id"]))

for a in animals:
    a["meet_count"] = sum(1 for v in visits if v["_animal"] is a and v["status"] == "completed")
    a["times_returned"] = sum(1 for d in adoptions if d["_animal"] is a and d["status"] == "returned")
for p in adopters:
    p["open_applications"] = open_count(p)
    p["adoptions_count"] = sum(1 for d in adoptions if d["_adopter"] is p)
    p["returns_count"] = sum(1 for d in adoptions if d["_adopter"] is p and d["status"] == "returned")
    p["no_show_count"] = sum(1 for v in visits if v["_adopter"] is p and v["status"] == "no_show")


def out(records, fields):
    res = {}
    for r in sorted(records, key=lambda r: r["id"]):
        row = {}
        for f in fields:
            if f == "adopter_id":
                row[f] = r["_adopter"]["id"]
            elif f == "animal_id":
                row[f] = r["_animal"]["id"]
            elif f == "application_id":
                row[f] = r["_app"]["id"]
            elif f == "date":
                row[f] = iso(r["_date"])
            else:
                row[f] = r[f]
        res[r["id"]] = row
    return res


db = {
    "meta": {"today": iso(TODAY), "visit_slots": SLOTS, "rooms_per_slot": 2, "promotions": PROMOTIONS},
    "animals": out(animals, ["id", "name", "species", "breed", "sex", "birth_date", "intake_date", "status",
                             "good_with_kids", "special_needs", "hold_reason", "hold_until",
                             "meet_count", "times_returned"]),
    "adopters": out(adopters, ["id", "name", "email", "phone", "housing", "landlord_approved", "has_children",
                               "discount_group", "do_not_adopt", "open_applications", "adoptions_count",
                               "returns_count", "no_show_count", "store_credit"]),
    "applications": out(applications, ["id", "adopter_id", "animal_id", "status", "submitted_on",
                                       "updated_on", "approved_on", "closed_reason"]),
    "visits": out(visits, ["id", "application_id", "animal_id", "adopter_id", "date", "slot", "status",
                           "cancel_reason"]),
    "adoptions": out(adoptions, ["id", "application_id", "animal_id", "adopter_id", "adoption_date",
                                 "base_fee", "discount_percent", "fee", "credit_applied", "amount_paid",
                                 "status", "return_date", "return_reason", "refund_credit"]),
}

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as fh:
    json.dump(db, fh, indent=2)
    fh.write("\n")
