"""Builds db.json for the Brightsmile dental clinic API (stdlib only, fixed seed)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

rng = random.Random(20250611)
TODAY = dt.date(2025, 6, 11)
CENT = Decimal("0.01")


def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def iso(d):
    return d.isoformat()


def day(n):
    return TODAY + dt.timedelta(days=n)


def money(lo, hi):
    return round(rng.randint(int(lo * 100), int(hi * 100)) / 100, 2)


INS = ("none", "basic", "plus", "premium")
COVERAGE = {"preventive": (0, 80, 100, 100), "restorative": (0, 50, 70, 85),
            "endodontic": (0, 30, 60, 80), "surgical": (0, 50, 70, 80),
            "prosthetic": (0, 0, 40, 60), "orthodontic": (0, 0, 25, 50), "cosmetic": (0, 0, 0, 0)}
ANNUAL_MAX = {"none": 0, "basic": 750, "plus": 1500, "premium": 3000}
TEETH = [q * 10 + n for q in (1, 2, 3, 4) for n in range(1, 9)]
TIMES = ["08:30", "09:30", "10:30", "11:30", "13:30", "14:30", "15:30", "16:30"]

PROCS = [
    ("PR101", "Comprehensive examination", "preventive", "65.00", 30, False, "general", True),
    ("PR102", "Scale and polish", "preventive", "85.00", 30, False, "general", True),
    ("PR103", "Bitewing X-rays", "preventive", "40.00", 30, False, "general", True),
    ("PR104", "Fissure sealant", "preventive", "38.50", 30, True, "general", True),
    ("PR105", "Fluoride varnish", "preventive", "29.90", 30, False, "general", True),
    ("PR111", "Composite filling, one surface", "restorative", "120.00", 30, True, "general", True),
    ("PR112", "Composite filling, two surfaces", "restorative", "165.00", 60, True, "general", True),
    ("PR113", "Amalgam filling", "restorative", "95.00", 30, True, "general", False),
    ("PR121", "Root canal treatment, front tooth", "endodontic", "540.00", 60, True, "endodontics", True),
    ("PR122", "Root canal treatment, molar", "endodontic", "890.00", 90, True, "endodontics", True),
    ("PR123", "Pulpotomy", "endodontic", "210.00", 60, True, "general", True),
    ("PR131", "Simple extraction", "surgical", "140.00", 30, True, "general", True),
    ("PR132", "Wisdom tooth removal", "surgical", "395.00", 60, True, "oral_surgery", True),
    ("PR133", "Implant placement", "surgical", "1450.00", 90, True, "oral_surgery", True),
    ("PR141", "Porcelain crown", "prosthetic", "980.00", 60, True, "prosthodontics", True),
    ("PR142", "Three-unit bridge", "prosthetic", "2350.00", 90, True, "prosthodontics", True),
    ("PR143", "Partial denture", "prosthetic", "1100.00", 60, False, "prosthodontics", True),
    ("PR151", "Clear aligner course", "orthodontic", "3200.00", 60, False, "orthodontics", True),
    ("PR152", "Fixed braces", "orthodontic", "2800.00", 90, False, "orthodontics", True),
    ("PR153", "Retainer", "orthodontic", "260.00", 30, False, "orthodontics", True),
    ("PR161", "Teeth whitening", "cosmetic", "420.00", 60, False, "general", True),
    ("PR162", "Porcelain veneer", "cosmetic", "750.00", 60, True, "prosthodontics", True),
]
procedures = {c: {"procedure_code": c, "name": n, "category": cat, "price": float(p),
                  "duration_minutes": dur, "requires_tooth": rt, "specialty": sp, "active": act}
              for c, n, cat, p, dur, rt, sp, act in PROCS}

DENTISTS = [("D01", "Dr. Ingrid Halvorsen", "general", "active", "C1"),
            ("D02", "Dr. Tomasz Wren", "general", "active", "C2"),
            ("D03", "Dr. Amara Okafor", "general", "active", "C3"),
            ("D04", "Dr. Lucia Ferreira", "endodontics", "active", "C4"),
            ("D05", "Dr. Kenji Mori", "orthodontics", "active", "C5"),
            ("D06", "Dr. Rafael Duarte", "oral_surgery", "active", "C6"),
            ("D07", "Dr. Helena Brandt", "prosthodontics", "active", "C4"),
            ("D08", "Dr. Oscar Lindqvist", "general", "on_leave", "C2")]
dentists = {d: {"dentist_id": d, "full_name": n, "specialty": s, "status": st, "chair": c}
            for d, n, s, st, c in DENTISTS}

FIRST = ["Maya", "Jonas", "Priya", "Elias", "Sofia", "Noah", "Hanna", "Mateo", "Leila", "Oskar",
         "Yara", "Felix", "Nora", "Samir", "Clara", "Idris", "Greta", "Milan", "Zoe", "Anton"]
LAST = ["Lindgren", "Moreau", "Castillo", "Novak", "Brennan", "Aziz", "Kowalski", "Dubois",
        "Pereira", "Van Dijk", "O'Connell", "Schmidt", "Nakamura", "Rossi", "Haddad"]

patients = {}
used_names = set()
for i in range(1, 61):
    while True:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in used_names:
            used_names.add(name)
            break
    age = rng.choice([rng.randint(7, 18)] + [rng.randint(19, 82)] * 4)
    dob = TODAY - dt.timedelta(days=age * 365 + rng.randint(0, 360))
    ins = rng.choices(INS, [14, 20, 16, 10])[0]
    cap = ANNUAL_MAX[ins]
    used = 0.0 if cap == 0 else rng.choice([0.0, money(0, cap * 0.5), money(cap * 0.5, cap),
                                            money(cap * 0.9, cap)])
    bal = rng.choice([0.0] * 5 + [money(15, 280), money(15, 280), money(310, 650)])
    pid = f"P{i:04d}"
    patients[pid] = {
        "patient_id": pid, "full_name": name, "date_of_birth": iso(dob),
        "email": name.lower().replace(" ", ".").replace("'", "") + "@mail.example",
        "phone": f"+31 6 {rng.randint(10000000, 99999999)}",
        "status": "inactive" if rng.random() < 0.1 else "active",
        "insurance_plan": ins, "insurance_used": used, "balance_due": bal,
        "no_show_count": rng.choices([0, 1, 2, 3], [30, 6, 3, 2])[0],
        "registered_on": iso(day(-rng.randint(30, 2000)))}

# ---------------------------------------------------------------- open slots
slots = {}
slot_seq = [0]


def new_slot(dentist_id, date, status, min_dur=30):
    taken = {s["start_time"] for s in slots.values() if s["dentist_id"] == dentist_id and s["date"] == iso(date)}
    times = [t for t in TIMES if t not in taken]
    slot_seq[0] += 1
    sid = f"SL{slot_seq[0]:04d}"
    dur = rng.choice([d for d in (30, 60, 90) if d >= min_dur] + [max(min_dur, 30)])
    slots[sid] = {"slot_id": sid, "dentist_id": dentist_id, "chair": dentists[dentist_id]["chair"],
                  "date": iso(date), "start_time": rng.choice(times), "duration_minutes": dur,
                  "status": status}
    return slots[sid]


for n in range(-6, 72):
    d = day(n)
    if d.weekday() >= 5:
        continue
    for did in dentists:
        if rng.random() < 0.21:
            st = "available"
            if dentists[did]["status"] == "on_leave" or rng.random() < 0.05:
                st = "blocked"
            new_slot(did, d, st)

# ---------------------------------------------------------------- plans
plans, appointments, payments = {}, {}, {}


def add_item(plan, code, tooth):
    p = patients[plan["patient_id"]]
    pr = procedures[code]
    pct = COVERAGE[pr["category"]][INS.index(p["insurance_plan"])]
    age = (TODAY - dt.date.fromisoformat(p["date_of_birth"])).days // 365
    if pr["category"] == "orthodontic" and age >= 19:
        pct = 0
    price = Decimal(str(pr["price"]))
    raw = q2(price * pct / 100)
    rem = Decimal(ANNUAL_MAX[p["insurance_plan"]]) - Decimal(str(p["insurance_used"])) - sum(
        (Decimal(str(i["insurance_amount"])) for i in plan["items"]), Decimal(0))
    insd = max(Decimal(0), min(raw, rem))
    plan["items"].append({"item_no": len(plan["items"]) + 1, "procedure_code": code, "tooth": tooth,
                          "price": float(price), "coverage_percent": pct,
                          "insurance_amount": float(insd), "patient_amount": float(price - insd),
                          "status": "pending", "completed_on": None})
    tot = sum(Decimal(str(i["price"])) for i in plan["items"])
    ins = sum(Decimal(str(i["insurance_amount"])) for i in plan["items"])
    pat = tot - ins
    plan.update(total_price=float(tot), insurance_total=float(ins), patient_total=float(pat),
                deposit_required=float(q2(pat * Decimal("0.20"))) if pat >= 200 else 0.0)


def pay(pid, plan_id, kind, amount, method, date):
    k = f"PM{len(payments) + 1:04d}"
    payments[k] = {"payment_id": k, "patient_id": pid, "plan_id": plan_id, "kind": kind,
                   "amount": amount, "method": method, "paid_on": iso(date)}


def booked_that_day(pid, date):
    return any(a["patient_id"] == pid and a["status"] == "booked" and a["date"] == iso(date)
               for a in appointments.values())


def appt(pid, slot, status, plan=None, item=None, booked_on=None, **kw):
    k = f"AP{len(appointments) + 3001:05d}"
    appointments[k] = {
        "appointment_id": k, "patient_id": pid, "dentist_id": slot["dentist_id"],
        "slot_id": slot["slot_id"], "date": slot["date"], "start_time": slot["start_time"],
        "chair": slot["chair"], "kind": "treatment" if plan else "consultation",
        "plan_id": plan["plan_id"] if plan else None, "item_no": item["item_no"] if item else None,
        "status": status, "booked_on": booked_on, "charge": 0.0, "cancel_reason": None,
        "cancelled_on": None, "completed_on": None}
    appointments[k].update(kw)
    return appointments[k]


def free_future_slot(did, pid, min_dur, lo=1, hi=60):
    cands = [s for s in slots.values() if s["dentist_id"] == did and s["status"] == "available"
             and lo <= (dt.date.fromisoformat(s["date"]) - TODAY).days <= hi
             and s["duration_minutes"] >= min_dur
             and not booked_that_day(pid, dt.date.fromisoformat(s["date"]))]
    return rng.choice(cands) if cands else None


STATUS_PLAN = (["draft"] * 10 + ["accepted"] * 11 + ["in_progress"] * 8 + ["completed"] * 8
               + ["cancelled"] * 7)
TITLES = {"general": ["Check-up and cleaning", "Fillings", "Routine care", "Restorative work"],
          "endodontics": ["Root canal therapy", "Endodontic treatment"],
          "orthodontics": ["Orthodontic correction", "Bite alignment"],
          "oral_surgery": ["Extraction and implant", "Oral surgery"],
          "prosthodontics": ["Crown and bridge work", "Prosthetic restoration"]}
open_pairs = set()
active_pat = [p for p in patients if patients[p]["status"] == "active"]
for n, status in enumerate(STATUS_PLAN, start=1):
    is_open = status in ("draft", "accepted", "in_progress")
    while True:
        pid = rng.choice(active_pat if is_open or rng.random() < 0.8 else list(patients))
        did = rng.choice([d for d in dentists if dentists[d]["status"] == "active" or not is_open])
        if not is_open or (pid, did) not in open_pairs:
            break
    if is_open:
        open_pairs.add((pid, did))
    spec = dentists[did]["specialty"]
    plan_id = f"TP{n:04d}"
    ages = {"draft": (1, 60), "accepted": (10, 80), "in_progress": (40, 150),
            "completed": (100, 320), "cancelled": (20, 200)}[status]
    created = day(-rng.randint(*ages))
    if status == "draft" and n % 4 == 0:
        created = day(-rng.randint(95, 150))
    plan = {"plan_id": plan_id, "patient_id": pid, "dentist_id": did,
            "title": rng.choice(TITLES[spec]), "status": status, "items": [], "total_price": 0.0,
            "insurance_total": 0.0, "patient_total": 0.0, "deposit_required": 0.0,
            "deposit_paid": 0.0, "deposit_applied": 0.0, "created_on": iso(created),
            "accepted_on": None, "completed_on": None, "cancelled_on": None, "cancel_reason": None}
    plans[plan_id] = plan
    own = [c for c, p in procedures.items() if p["active"] and p["specialty"] == spec]
    gen = [c for c, p in procedures.items() if p["active"] and p["specialty"] == "general"]
    k = 0 if (status == "draft" and n % 5 == 1) else rng.randint(1, 4 if status != "completed" else 3)
    if status == "in_progress":
        k = max(k, 2)
    while len(plan["items"]) < k:
        code = rng.choice(own if spec != "general" and rng.random() < 0.7 else gen)
        tooth = rng.choice(TEETH) if procedures[code]["requires_tooth"] else None
        if not any(i["procedure_code"] == code and i["tooth"] == tooth for i in plan["items"]):
            add_item(plan, code, tooth)
    if status == "draft":
        continue
    accepted = created + dt.timedelta(days=rng.randint(0, 9))
    plan["accepted_on"] = iso(accepted)
    req = plan["deposit_required"]
    method = rng.choice(["card", "card", "cash", "bank_transfer"])
    if status == "cancelled":
        plan["cancelled_on"] = iso(accepted + dt.timedelta(days=rng.randint(1, 15)))
        plan["cancel_reason"] = rng.choice(["patient_declined", "cost", "second_opinion", "other"])
        if rng.random() < 0.4:
            plan["accepted_on"] = None
        elif req > 0:
            pay(pid, plan_id, "deposit", req, method, accepted)
            pay(pid, plan_id, "deposit_refund", req, "bank_transfer", dt.date.fromisoformat(plan["cancelled_on"]))
        continue
    if status == "accepted":
        mode = rng.choice(["full", "full", "part", "none"]) if req > 0 else "full"
        paid = req if mode == "full" else (round(req / 2, 2) if mode == "part" else 0.0)
    else:
        paid = req
    if paid > 0:
        pay(pid, plan_id, "deposit", paid, method, accepted)
    plan["deposit_paid"] = paid
    if status in ("in_progress", "completed"):
        ndone = len(plan["items"]) if status == "completed" else rng.randint(1, len(plan["items"]) - 1)
        span = (TODAY - accepted).days
        dates = sorted(accepted + dt.timedelta(days=rng.randint(1, max(1, span - 2))) for _ in range(ndone))
        applied = Decimal(0)
        for item, d in zip(plan["items"][:ndone], dates):
            while d.weekday() >= 5:
                d -= dt.timedelta(days=1)
            credit = min(Decimal(str(paid)) - applied, Decimal(str(item["patient_amount"])))
            applied += credit
            item["status"], item["completed_on"] = "done", iso(d)
            dur = procedures[item["procedure_code"]]["duration_minutes"]
            s = new_slot(did, d, "booked", dur)
            appt(pid, s, "completed", plan, item, iso(d - dt.timedelta(days=rng.randint(3, 20))),
                 completed_on=iso(d), charge=float(Decimal(str(item["patient_amount"])) - credit))
        plan["deposit_applied"] = float(applied)
        if status == "completed":
            plan["completed_on"] = item["completed_on"]
    if status in ("accepted", "in_progress") and plan["deposit_paid"] >= req:
        for item in plan["items"]:
            if item["status"] == "pending" and rng.random() < 0.55:
                s = free_future_slot(did, pid, procedures[item["procedure_code"]]["duration_minutes"])
                if s:
                    s["status"] = "booked"
                    item["status"] = "scheduled"
                    appt(pid, s, "booked", plan, item, iso(day(-rng.randint(0, 10))))

# ---------------------------------------------------------------- consultations and history
for _ in range(16):  # future consultations
    pid = rng.choice(active_pat)
    s = free_future_slot(rng.choice(["D01", "D02", "D03"]), pid, 30)
    if s:
        s["status"] = "booked"
        appt(pid, s, "booked", booked_on=iso(day(-rng.randint(0, 14))))
for _ in range(14):  # past or today appointments still open (to complete or mark no-show)
    pid = rng.choice(active_pat)
    s = free_future_slot(rng.choice(["D01", "D02", "D03", "D04"]), pid, 30, -6, 0)
    if s:
        s["status"] = "booked"
        appt(pid, s, "booked", booked_on=iso(day(-rng.randint(8, 30))))
for _ in range(10):  # completed consultations in the past
    pid = rng.choice(list(patients))
    d = day(-rng.randint(7, 200))
    while d.weekday() >= 5:
        d -= dt.timedelta(days=1)
    s = new_slot(rng.choice(["D01", "D02", "D03"]), d, "booked")
    pct = COVERAGE["preventive"][INS.index(patients[pid]["insurance_plan"])]
    appt(pid, s, "completed", booked_on=iso(d - dt.timedelta(days=7)), completed_on=iso(d),
         charge=float(q2(Decimal("45.00") * (100 - pct) / 100)))
for _ in range(5):  # no-shows in the past
    pid = rng.choice(active_pat)
    d = day(-rng.randint(3, 90))
    while d.weekday() >= 5:
        d -= dt.timedelta(days=1)
    s = new_slot(rng.choice(["D01", "D02", "D03"]), d, "booked")
    appt(pid, s, "no_show", booked_on=iso(d - dt.timedelta(days=12)), charge=60.0)
for _ in range(7):  # cancelled appointments (the slot was released again)
    pid = rng.choice(active_pat)
    s = free_future_slot(rng.choice(["D01", "D02", "D03", "D06"]), pid, 30, -6, 40)
    if not s:
        continue
    c_on = min(TODAY, dt.date.fromisoformat(s["date"])) - dt.timedelta(days=rng.randint(0, 5))
    late = (dt.date.fromisoformat(s["date"]) - c_on).days < 2
    reason = rng.choice(["patient_request", "illness", "clinic_request", "other"])
    appt(pid, s, "cancelled", booked_on=iso(c_on - dt.timedelta(days=10)), cancelled_on=iso(c_on),
         cancel_reason=reason, charge=40.0 if late and reason != "clinic_request" else 0.0)
for _ in range(14):
    pid = rng.choice(list(patients))
    pay(pid, None, "balance_payment", money(20, 300), rng.choice(["card", "cash", "bank_transfer"]),
        day(-rng.randint(1, 120)))

db = {"meta": {"today": iso(TODAY), "currency": "EUR", "clinic": "Brightsmile Dental Clinic",
               "timezone": "Europe/Amsterdam"},
      "patients": patients, "dentists": dentists, "procedures": procedures,
      "slots": dict(sorted(slots.items(), key=lambda kv: kv[0])),
      "treatment_plans": plans, "appointments": appointments,
      "payments": dict(sorted(payments.items()))}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as f:
    json.dump(db, f, indent=1)
print({k: len(v) for k, v in db.items()})
