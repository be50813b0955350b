"""Writes db.json for the Wrenfield Community Pharmacy API deterministically (stdlib only)."""
import datetime as dt
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ref_impl import price_fill, SCHEDULE_RULES  # noqa: E402

TODAY = dt.date(2025, 6, 17)
rng = random.Random(61725)


def iso(d):
    return d.isoformat()


def ago(n):
    return TODAY - dt.timedelta(days=n)


PLANS = [
    ("IP01", "Cedarline Health Basic", "active", 5.00, 20.00, 40, 2500.00),
    ("IP02", "Cedarline Health Plus", "active", 0.00, 10.00, 25, 1500.00),
    ("IP03", "Harborview PPO", "active", 7.50, 25.00, 30, 3000.00),
    ("IP04", "State Medical Assistance", "active", 1.00, 3.00, 5, 100.00),
    ("IP05", "Meridian Choice (legacy)", "closed", 4.00, 15.00, 20, 2000.00),
    ("IP06", "Unity Employer Rx", "active", 10.00, 30.00, 35, 2000.00),
]

# name, strength, form, drug_class, tier, schedule, unit_price, pack_size, status
MEDS = [
    ("Lisinopril", "10 mg", "tablet", "ace_inhibitor", 1, "none", 0.08, 100, "active"),
    ("Lisinopril", "20 mg", "tablet", "ace_inhibitor", 1, "none", 0.10, 100, "active"),
    ("Atorvastatin", "20 mg", "tablet", "statin", 1, "none", 0.12, 90, "active"),
    ("Rosuvastatin", "10 mg", "tablet", "statin", 2, "none", 0.45, 90, "active"),
    ("Amoxicillin", "500 mg", "capsule", "penicillin", 1, "none", 0.22, 100, "active"),
    ("Amoxicillin-Clavulanate", "875 mg", "tablet", "penicillin", 2, "none", 1.35, 20, "active"),
    ("Azithromycin", "250 mg", "tablet", "macrolide", 1, "none", 0.95, 30, "active"),
    ("Sulfamethoxazole-Trimethoprim DS", "800-160 mg", "tablet", "sulfonamide", 1, "none", 0.30, 100, "active"),
    ("Ibuprofen", "800 mg", "tablet", "nsaid", 1, "none", 0.09, 100, "active"),
    ("Naproxen", "500 mg", "tablet", "nsaid", 1, "none", 0.14, 100, "active"),
    ("Celecoxib", "200 mg", "capsule", "nsaid", 3, "none", 2.80, 30, "active"),
    ("Sertraline", "50 mg", "tablet", "ssri", 1, "none", 0.18, 90, "active"),
    ("Escitalopram", "10 mg", "tablet", "ssri", 1, "none", 0.20, 90, "active"),
    ("Fluoxetine", "20 mg", "capsule", "ssri", 1, "none", 0.15, 100, "active"),
    ("Oxycodone", "5 mg", "tablet", "opioid", 2, "II", 0.60, 100, "active"),
    ("Hydrocodone-Acetaminophen", "5-325 mg", "tablet", "opioid", 2, "II", 0.55, 100, "active"),
    ("Tramadol", "50 mg", "tablet", "opioid", 1, "IV", 0.25, 100, "active"),
    ("Alprazolam", "0.5 mg", "tablet", "benzodiazepine", 1, "IV", 0.21, 100, "active"),
    ("Lorazepam", "1 mg", "tablet", "benzodiazepine", 1, "IV", 0.28, 100, "active"),
    ("Metformin", "500 mg", "tablet", "biguanide", 1, "none", 0.05, 100, "active"),
    ("Metformin ER", "750 mg", "tablet", "biguanide", 2, "none", 0.40, 100, "active"),
    ("Levothyroxine", "50 mcg", "tablet", "thyroid", 1, "none", 0.16, 90, "active"),
    ("Levothyroxine", "100 mcg", "tablet", "thyroid", 1, "none", 0.17, 90, "active"),
    ("Metoprolol Succinate ER", "25 mg", "tablet", "beta_blocker", 1, "none", 0.19, 90, "active"),
    ("Carvedilol", "12.5 mg", "tablet", "beta_blocker", 1, "none", 0.13, 100, "active"),
    ("Gabapentin", "300 mg", "capsule", "anticonvulsant", 1, "none", 0.11, 100, "active"),
    ("Lamotrigine", "100 mg", "tablet", "anticonvulsant", 2, "none", 0.35, 100, "active"),
    ("Omeprazole", "20 mg", "capsule", "ppi", 1, "none", 0.14, 90, "active"),
    ("Pantoprazole", "40 mg", "tablet", "ppi", 1, "none", 0.16, 90, "active"),
    ("Methylphenidate ER", "36 mg", "tablet", "stimulant", 3, "II", 8.40, 30, "active"),
    ("Amphetamine-Dextroamphetamine", "20 mg", "tablet", "stimulant", 2, "II", 2.10, 100, "active"),
    ("Prednisone", "10 mg", "tablet", "corticosteroid", 1, "none", 0.09, 100, "active"),
    ("Cetirizine", "10 mg", "tablet", "antihistamine", 1, "none", 0.04, 100, "active"),
    ("Cephalexin", "500 mg", "capsule", "cephalosporin", 1, "none", 0.26, 100, "active"),
    ("Apixaban", "5 mg", "tablet", "anticoagulant", 3, "none", 7.95, 60, "active"),
    ("Sitagliptin", "100 mg", "tablet", "dpp4_inhibitor", 3, "none", 17.20, 30, "active"),
    ("Montelukast", "10 mg", "tablet", "leukotriene", 1, "none", 0.21, 90, "active"),
    ("Zolpidem", "10 mg", "tablet", "sedative_hypnotic", 1, "IV", 0.32, 100, "active"),
    ("Valsartan", "160 mg", "tablet", "arb", 2, "none", 0.55, 90, "active"),
    ("Fluticasone Nasal Spray", "50 mcg/spray", "spray", "corticosteroid", 2, "none", 12.50, 6, "active"),
    ("Ranitidine", "150 mg", "tablet", "h2_blocker", 1, "none", 0.12, 100, "discontinued"),
    ("Carisoprodol", "350 mg", "tablet", "muscle_relaxant", 2, "IV", 0.48, 100, "discontinued"),
]

FIRST = ["Alma", "Bennett", "Carmen", "Dorian", "Elise", "Farid", "Gwen", "Hector", "Imogen", "Jasper",
         "Keiko", "Lionel", "Marisol", "Nolan", "Odette", "Pavel", "Quinn", "Rhea", "Silas", "Tamsin",
         "Ulrich", "Vivian", "Wesley", "Ximena", "Yusuf", "Zelda", "Abel", "Bianca", "Cyrus", "Delphine"]
LAST = ["Ashworth", "Brennan", "Castillo", "Delacroix", "Eastman", "Fairbanks", "Grady", "Holloway",
        "Iverson", "Jennings", "Kowalczyk", "Lindgren", "McAllister", "Nakamura", "Okafor", "Pruitt",
        "Quintero", "Rasmussen", "Sandoval", "Thornbury", "Underhill", "Valdez", "Whitlock", "Yamada"]
DOCS = [("Helena", "Marsh", "MD", "family_medicine"), ("Oren", "Baptiste", "MD", "internal_medicine"),
        ("Priya", "Raman", "DO", "family_medicine"), ("Tobias", "Wren", "MD", "psychiatry"),
        ("Lucia", "Ferrante", "NP", "family_medicine"), ("Graham", "Osei", "MD", "cardiology"),
        ("Naomi", "Sterling", "PA", "urgent_care"), ("Viktor", "Hale", "MD", "pain_medicine"),
        ("Ada", "Lindqvist", "MD", "endocrinology"), ("Samuel", "Achebe", "DO", "internal_medicine"),
        ("Ines", "Carvalho", "NP", "pediatrics"), ("Reid", "Donnelly", "DDS", "dentistry"),
        ("Mei", "Tanaka", "MD", "neurology"), ("Caleb", "Forsythe", "PA", "urgent_care"),
        ("Rosa", "Villanueva", "MD", "psychiatry"), ("Arjun", "Mehta", "MD", "family_medicine"),
        ("Clara", "Boateng", "NP", "womens_health"), ("Dmitri", "Volkov", "MD", "pulmonology"),
        ("Yvonne", "Pelletier", "DO", "family_medicine"), ("Hugo", "Bramwell", "MD", "orthopedics"),
        ("Fatima", "Haddad", "MD", "internal_medicine"), ("Jonah", "Kessler", "NP", "family_medicine"),
        ("Leah", "Okonkwo", "MD", "rheumatology"), ("Marcus", "Eldridge", "MD", "pain_medicine"),
        ("Tessa", "Quill", "PA", "dermatology")]
SIGS = ["Take 1 tablet by mouth once daily", "Take 1 tablet by mouth twice daily",
        "Take 1 by mouth three times daily", "Take 1 tablet by mouth at bedtime as needed",
        "Take 1 tablet by mouth every 6 hours as needed for pain", "Use 2 sprays in each nostril daily",
        "Take 2 tablets by mouth on day 1, then 1 tablet daily", "Take 1 tablet by mouth every morning"]
ALLERGY_POOL = ["penicillin", "sulfonamide", "nsaid", "macrolide", "cephalosporin", "opioid"]
INITIALS = ["JKP", "MR", "ALT", "DW", "SNB"]

db = {"meta": {"today": iso(TODAY), "currency": "USD", "pharmacy": "Wrenfield Community Pharmacy",
               "dispensing_fee": 3.25},
      "insurance_plans": {}, "prescribers": {}, "patients": {}, "medications": {},
      "prescriptions": {}, "fills": {}}

for pid, name, st, t1, t2, pct, oop in PLANS:
    db["insurance_plans"][pid] = {"plan_id": pid, "name": name, "status": st, "tier1_copay": t1,
                                  "tier2_copay": t2, "tier3_coinsurance_pct": pct, "oop_max": oop}

for i, (fn, ln, cred, spec) in enumerate(DOCS):
    did = f"PRS-{101 + i}"
    status = {5: "suspended", 13: "retired", 19: "suspended"}.get(i, "active")
    dea = cred in ("MD", "DO") and i not in (16, 20) or spec in ("psychiatry", "pain_medicine")
    db["prescribers"][did] = {"prescriber_id": did, "first_name": fn, "last_name": ln, "credential": cred,
                              "specialty": spec, "npi": f"1{rng.randint(100000000, 999999999)}",
                              "dea_registered": dea, "status": status}

plan_pool = ["IP01"] * 10 + ["IP02"] * 9 + ["IP03"] * 9 + ["IP04"] * 8 + ["IP05"] * 4 + ["IP06"] * 8 + [None] * 12
used_names = set()
for i in range(60):
    pid = f"PAT-{1001 + i}"
    while True:
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        if (fn, ln) not in used_names:
            used_names.add((fn, ln))
            break
    plan = plan_pool[i] if i < len(plan_pool) else rng.choice(["IP01", "IP03", None])
    dob = dt.date(rng.randint(1938, 2012), rng.randint(1, 12), rng.randint(1, 28))
    allergies = sorted(rng.sample(ALLERGY_POOL, rng.choice([0, 0, 0, 1, 1, 2])))
    if plan is None:
        spent = 0.0
    else:
        cap = db["insurance_plans"][plan]["oop_max"]
        spent = round(rng.choice([rng.uniform(0, cap * 0.3), rng.uniform(0, cap * 0.9), cap,
                                  rng.uniform(0, 60)]), 2)
    member = None if plan is None else f"{rng.choice(['CDL', 'HBV', 'SMA', 'MER', 'UNY'])}{rng.randint(0, 999999):06d}"
    db["patients"][pid] = {"patient_id": pid, "first_name": fn, "last_name": ln, "date_of_birth": iso(dob),
                           "phone": f"555-{rng.randint(200, 989):03d}-{rng.randint(0, 9999):04d}",
                           "allergies": allergies, "plan_id": plan, "member_id": member,
                           "oop_spent_ytd": spent, "status": "inactive" if i % 13 == 7 else "active"}

for i, (nm, strength, form, cls, tier, sched, price, pack, st) in enumerate(MEDS):
    mid = f"MED-{i + 1:03d}"
    reorder = rng.choice([30, 50, 100, 150, 200]) if pack > 10 else 6
    stock = rng.choices([0, rng.randint(1, reorder), rng.randint(reorder, 900)], [1, 3, 6])[0]
    if pack <= 10:
        stock = rng.randint(0, 12)
    db["medications"][mid] = {"medication_id": mid, "name": nm, "strength": strength, "form": form,
                              "drug_class": cls, "tier": tier, "schedule": sched, "unit_price": price,
                              "pack_size": pack, "stock_on_hand": stock if st == "active" else rng.randint(0, 40),
                              "reorder_level": reorder, "status": st,
                              "last_received_on": iso(ago(rng.randint(2, 120)))}

patients = sorted(db["patients"])
active_pats = [p for p in patients if db["patients"][p]["status"] == "active"]
meds = sorted(db["medications"])
active_meds = [m for m in meds if db["medications"][m]["status"] == "active"]
docs = sorted(db["prescribers"])
live = set()
rx_seq = [50001]


pending_fills = []


def add_fill(rx, number, when, status):
    m = db["medications"][rx["medication_id"]]
    p = db["patients"][rx["patient_id"]]
    qty = rx["quantity"]
    days = rx["days_supply"]
    f = {"fill_id": None, "prescription_id": rx["prescription_id"], "patient_id": p["patient_id"],
         "medication_id": m["medication_id"], "fill_number": number, "quantity": qty, "days_supply": days,
         "filled_on": iso(when), "status": status}
    f.update(price_fill(db, p, m, qty, days))
    picked = status == "picked_up"
    f.update(picked_up_on=iso(min(TODAY, when + dt.timedelta(days=rng.randint(0, 4)))) if picked else None,
             payment_method=(("none" if f["patient_pays"] == 0 else rng.choice(["cash", "card", "card", "hsa_card"]))
                             if picked else None),
             id_checked=(m["schedule"] != "none" or rng.random() < 0.3) if picked else None,
             returned_on=iso(min(TODAY, when + dt.timedelta(days=rng.randint(3, 15)))) if status == "returned" else None,
             return_reason=rng.choice(["not_picked_up", "patient_declined", "dispensing_error"])
             if status == "returned" else None)
    pending_fills.append(f)


def new_rx(status):
    for _ in range(200):
        pat = rng.choice(active_pats if status in ("pending_review", "active") or rng.random() < 0.8 else patients)
        med = rng.choice(active_meds if status in ("pending_review", "active") else meds)
        if status in ("active", "completed") and rng.random() < 0.25:
            med = rng.choice([x for x in active_meds if db["medications"][x]["schedule"] != "none"])
        m = db["medications"][med]
        if status in ("pending_review", "active") and (pat, med) in live:
            continue
        if status == "active" and m["drug_class"] in db["patients"][pat]["allergies"]:
            continue
        break
    sched = m["schedule"]
    cands = [d for d in docs if db["prescribers"][d]["dea_registered"] or sched == "none"]
    doc = rng.choice(cands)
    if status == "active" and sched != "none" and rng.random() < 0.3:  # prescriber suspended/retired since
        doc = rng.choice([d for d in cands if db["prescribers"][d]["status"] != "active"])
    max_ref, valid, _, max_days = SCHEDULE_RULES[sched]
    days = rng.choice([d for d in (7, 10, 14, 30, 30, 60, 90) if d <= max_days])
    per_day = rng.choice([1, 1, 2, 3]) if m["form"] != "spray" else 0
    qty = min(360, days * per_day) if per_day else 1
    refills = 0 if max_ref == 0 else rng.choice([r for r in (0, 1, 2, 3, 5, 11) if r <= max_ref])
    rid = f"RX-{rx_seq[0]}"
    rx_seq[0] += 1
    if status in ("pending_review", "active"):
        live.add((pat, med))
    rx = {"prescription_id": rid, "patient_id": pat, "prescriber_id": doc, "medication_id": med,
          "sig": {0: SIGS[5], 1: rng.choice([SIGS[0], SIGS[3], SIGS[4], SIGS[7]]), 2: SIGS[1], 3: SIGS[2]}[per_day], "quantity": qty,
          "days_supply": days, "refills_authorized": refills, "refills_remaining": refills, "fill_count": 0,
          "written_on": None, "expires_on": None, "status": status, "verified_by": None, "verified_on": None,
          "reject_reason": None, "cancel_reason": None, "cancelled_on": None}
    db["prescriptions"][rid] = rx
    return rx, valid


def history(rx, count, first=None, last=None, last_status="picked_up"):
    """count kept fills, one supply (plus 0-3 days) apart, starting at first or ending at last."""
    steps = [rx["days_supply"] + rng.randint(0, 3) for _ in range(count - 1)]
    if first is None:
        first = last - dt.timedelta(days=sum(steps))
    d = first
    for n in range(count):
        if n and rng.random() < 0.12:
            add_fill(rx, n, d - dt.timedelta(days=rng.randint(4, 9)), "returned")
        add_fill(rx, n, d, last_status if n == count - 1 else "picked_up")
        if n < count - 1:
            d = d + dt.timedelta(days=steps[n])
    rx["fill_count"] = count
    rx["refills_remaining"] = rx["refills_authorized"] - max(0, count - 1)
    return first


def span(rx, count):
    return (rx["days_supply"] + 3) * max(0, count - 1)


statuses = (["pending_review"] * 14 + ["active"] * 46 + ["completed"] * 18 + ["rejected"] * 7
            + ["cancelled"] * 10 + ["expired"] * 9)
for status in statuses:
    rx, valid = new_rx(status)
    if status == "pending_review":
        w = ago(rng.randint(0, 6))
    elif status == "rejected":
        w = ago(rng.randint(1, 60))
        rx.update(reject_reason=rng.choice(["illegible", "invalid_prescriber", "allergy_conflict",
                                            "drug_interaction", "other"]), refills_remaining=0)
    elif status == "active":
        maxc = rx["refills_authorized"]  # at least one refill stays once filled
        count = rng.choice([0, 0] + list(range(1, maxc + 1))[:4] * 2) if maxc else 0
        if count == 0:
            w = ago(rng.randint(0, 40) if rng.random() > 0.1 else valid + rng.randint(1, 25))
        else:
            on_shelf = rng.random() < 0.45
            if on_shelf:  # waiting for pickup; some have sat there past the 14-day window
                gap = rng.choice([rng.randint(0, 14), rng.randint(0, 14), rng.randint(15, 24)])
            else:
                gap = rng.choice([rng.randint(0, 10), rng.randint(5, rx["days_supply"] + 10), rng.randint(15, 30)])
            first = history(rx, count, last=ago(gap), last_status="ready" if on_shelf else "picked_up")
            w = first - dt.timedelta(days=rng.randint(0, 5))
    elif status == "completed":
        count = min(rx["refills_authorized"] + 1, 4)
        rx["refills_authorized"] = count - 1
        gap = rng.randint(0, 120)
        first = history(rx, count, last=ago(gap), last_status="ready" if gap <= 20 and rng.random() < 0.4 else "picked_up")
        w = first - dt.timedelta(days=rng.randint(0, 5))
        rx["refills_remaining"] = 0
    elif status == "cancelled":
        count = rng.choice([0, 1, 1, 2]) if rx["refills_authorized"] else 0
        w = ago(rng.randint(20, 200) + span(rx, count))
        if count:
            history(rx, count, first=w + dt.timedelta(days=1))
        rx.update(cancel_reason=rng.choice(["prescriber_request", "patient_request", "duplicate_therapy",
                                            "entered_in_error"]), refills_remaining=0)
        last = max([dt.date.fromisoformat(f["filled_on"]) for f in pending_fills
                    if f["prescription_id"] == rx["prescription_id"]] + [w])
        rx["cancelled_on"] = iso(min(TODAY, last + dt.timedelta(days=rng.randint(1, 20))))
    else:  # expired: validity ran out before today
        count = rng.choice([1, 1, 2]) if rx["refills_authorized"] else 1
        w = ago(max(valid, span(rx, count)) + rng.randint(5, 120))
        history(rx, count, first=w + dt.timedelta(days=1))
    rx["written_on"] = iso(w)
    rx["expires_on"] = iso(w + dt.timedelta(days=valid))
    if status != "pending_review":
        rx.update(verified_by=rng.choice(INITIALS), verified_on=iso(min(TODAY, w + dt.timedelta(days=rng.randint(0, 1)))))

for n, f in enumerate(sorted(pending_fills, key=lambda f: (f["filled_on"], f["prescription_id"], f["fill_number"]))):
    f["fill_id"] = f"F-{700001 + n}"
    db["fills"][f["fill_id"]] = f

with open(os.path.join(HERE, "db.json"), "w") as fh:
    json.dump(db, fh, indent=1)
print({k: len(v) for k, v in db.items() if k != "meta"})
