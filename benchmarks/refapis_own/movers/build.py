"""Build db.json for the movers job desk reference API (deterministic, stdlib only).

Prices, insurance terms and deposits are computed with the formulas of ref_impl.py (the ones
policy.md states), so the start state is consistent with the rules.
"""
import datetime
import json
import os
import random
import sys
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ref_impl as R  # noqa: E402

SEED = 80611
TODAY = datetime.date(2025, 10, 8)
rng = random.Random(SEED)


def day(offset):
    return TODAY + datetime.timedelta(days=offset)


def iso(d):
    return d.isoformat()


def m(x):
    return R.money(x)


FIRST = ["Amara", "Bjorn", "Celeste", "Dmitri", "Elena", "Farid", "Greta", "Hiroshi", "Ines", "Jonah",
         "Kalani", "Lucia", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosalind", "Soren", "Tamsin",
         "Umar", "Valeria", "Wendell", "Ximena", "Yusuf", "Zofia", "Anselm", "Brigid", "Cormac", "Delphine",
         "Ezra", "Fenna", "Gideon", "Halima", "Ivo", "Juniper", "Kasimir", "Leonie", "Marisol", "Niall",
         "Odette", "Pascal"]
LAST = ["Okafor", "Lindqvist", "Marchetti", "Volkov", "Ferreira", "Haddad", "Brandt", "Tanaka", "Navarro",
        "Whitlock", "Kahale", "Moreno", "Castillo", "Rahimi", "Berg", "Raman", "Dubois", "Ashworth",
        "Nygaard", "Pryce", "Siddiqui", "Ortega", "Hale", "Quispe", "Demir", "Kowalska", "Richter",
        "Gallagher", "Byrne", "Laurent", "Stein", "Visser", "Abrams", "Osei", "Kranjc", "Bloom", "Wozniak",
        "Fischer", "Salgado", "Keane", "Marchand", "Roux"]
DOMAINS = ["mailbox.org", "fastpost.net", "example.com", "homewire.io", "northmail.com"]
STREETS = ["Alder Street", "Birch Lane", "Cedar Court", "Dockside Road", "Elm Terrace", "Foundry Way",
           "Garnet Avenue", "Harbor View", "Ironwood Drive", "Juniper Row", "Kestrel Close", "Linden Walk",
           "Millrace Road", "Nettle Square", "Orchard Hill", "Pier Street", "Quarry Lane", "Rowan Place"]
NEAR = ["Riverton", "Eastgate", "Millbrook", "Ashford", "Kingsbridge", "Westfield"]
FAR = [("Port Alden", 140), ("Granite Falls", 260), ("Lake Serein", 410), ("Bramblecourt", 575)]

# ---------------------------------------------------------------- customers
customers = {}
for i in range(42):
    cid = f"CUS-{i + 1:04d}"
    first, last = FIRST[i], LAST[i]
    has_phone = rng.random() > 0.12
    phone = "+1" + "".join(str(rng.randint(0, 9)) for _ in range(10)) if has_phone else None
    contact = rng.choice(["email", "phone", "sms"]) if has_phone else "email"
    customers[cid] = {
        "customer_id": cid, "full_name": f"{first} {last}",
        "email": f"{first.lower()}.{last.lower()}@{rng.choice(DOMAINS)}",
        "phone": phone, "preferred_contact": contact, "marketing_opt_in": rng.random() < 0.4,
        "account_status": "active",
        "completed_moves": rng.choice([0, 0, 0, 0, 1, 1, 2, 3, 4]),  # history before this system
        "lifetime_spend": 0.0, "created_on": iso(day(-rng.randint(60, 900))), "updated_on": None}
for cid in ("CUS-0009", "CUS-0023", "CUS-0037"):
    customers[cid]["account_status"] = "suspended"
for c in customers.values():  # earlier moves' spend
    c["lifetime_spend"] = m(sum(rng.randint(90000, 380000) / 100 for _ in range(c["completed_moves"])))
cust_ids = sorted(customers)
active_cust = [c for c in cust_ids if customers[c]["account_status"] == "active"]

# ---------------------------------------------------------------- crews and trucks
LEADS = ["Rafael Acosta", "Mei Lindholm", "Tobias Achterberg", "Sunniva Holt", "Kwame Mensah",
         "Ilse Vandermeer", "Dario Conti", "Petra Novak", "Lars Eklund", "Yaw Boateng"]
SIZES = [2, 2, 3, 3, 4, 4, 5, 3, 4, 2]
crews = {}
for i, (lead, size) in enumerate(zip(LEADS, SIZES)):
    cr = f"CR-{i + 1:02d}"
    crews[cr] = {"crew_id": cr, "lead_name": lead, "size": size, "max_jobs_per_day": 2 if size <= 3 else 1,
                 "status": "active", "jobs_completed": rng.randint(40, 260)}
crews["CR-07"]["status"] = "on_leave"
CAPS = [18, 18, 25, 25, 35, 35, 50, 50, 70, 90]
trucks = {}
for i, cap in enumerate(CAPS):
    t = f"TRK-{i + 11}"
    trucks[t] = {"truck_id": t, "plate": f"MV-{rng.randint(1000, 9999)}-{chr(65 + i)}",
                 "capacity_m3": cap, "status": "active", "odometer_km": rng.randint(38000, 240000)}
trucks["TRK-15"]["status"] = "maintenance"

busy_crew, busy_truck, cust_dates = {}, {}, set()


def assign(date, volume, allow_inactive=False, crew_pick=None):
    """pick a crew and truck free on date; None if impossible"""
    need = R.required_movers(volume)
    cr_opts = [c for c in sorted(crews) if (allow_inactive or crews[c]["status"] == "active")
               and crews[c]["size"] >= need and busy_crew.get((c, date), 0) < crews[c]["max_jobs_per_day"]]
    if crew_pick:
        cr_opts = [c for c in cr_opts if c == crew_pick]
    tr_opts = [t for t in sorted(trucks) if (allow_inactive or trucks[t]["status"] == "active")
               and trucks[t]["capacity_m3"] >= volume and (t, date) not in busy_truck]
    if not cr_opts or not tr_opts:
        return None
    cr = rng.choice(cr_opts)
    tr = min(tr_opts, key=lambda t: (trucks[t]["capacity_m3"], rng.random()))
    busy_crew[(cr, date)] = busy_crew.get((cr, date), 0) + 1
    busy_truck[(tr, date)] = True
    return cr, tr


def base_job(cid, created, move):
    c = customers[cid]
    volume = rng.choice([6, 9, 12, 14, 18, 22, 26, 30, 34, 38, 44, 52, 60, 68, 80])
    if rng.random() < 0.8:
        city_o, city_d = rng.sample(NEAR, 2)
        distance = rng.randint(4, 48)
    else:
        city_o = rng.choice(NEAR)
        city_d, distance = rng.choice(FAR)
        distance += rng.randint(-8, 8)
    origin = f"{rng.randint(2, 480)} {rng.choice(STREETS)}, {city_o}"
    dest = f"{rng.randint(2, 480)} {rng.choice(STREETS)}, {city_d}"
    ofl, dfl = rng.choice([0, 0, 1, 2, 3, 4, 6, 9]), rng.choice([0, 0, 1, 2, 3, 5, 8])
    oel, del_ = ofl >= 4 or (ofl > 0 and rng.random() < 0.3), dfl >= 4 or (dfl > 0 and rng.random() < 0.3)
    packing = rng.random() < 0.35
    plan = rng.choice(["basic", "basic", "basic", "standard", "standard", "full_value"])
    declared = float(rng.randint(6, 120) * 500) if plan != "basic" else None
    quote = R.price_quote(volume, distance, [(ofl, oel), (dfl, del_)], move, c["completed_moves"], packing)
    premium, cap, deductible = R.insurance_terms(plan, volume, declared)
    total = m(Decimal(str(quote)) + Decimal(str(premium)))
    return {
        "job_id": None, "customer_id": cid, "status": "quoted", "created_on": iso(created),
        "quote_expires_on": iso(created + datetime.timedelta(days=14)), "move_date": iso(move),
        "origin_address": origin, "destination_address": dest, "origin_floor": ofl, "origin_elevator": oel,
        "destination_floor": dfl, "destination_elevator": del_, "volume_m3": volume,
        "distance_km": distance, "packing_service": packing, "required_movers": R.required_movers(volume),
        "insurance_plan": plan, "declared_value": declared, "quote_amount": quote,
        "insurance_premium": premium, "coverage_cap": cap, "deductible": deductible, "total_amount": total,
        "crew_id": None, "truck_id": None, "deposit_amount": 0.0, "deposit_method": None, "booked_on": None,
        "reschedule_count": 0, "last_rescheduled_on": None, "fees_amount": 0.0, "started_on": None,
        "completed_on": None, "actual_volume_m3": None, "overage_amount": 0.0, "final_amount": None,
        "balance_due": total, "cancelled_on": None, "cancel_reason": None, "cancellation_fee": None,
        "refund_amount": None, "claims_filed": 0, "claims_paid_total": 0.0}


def book(j, move, booked, allow_inactive=False, crew_pick=None):
    got = assign(j["move_date"], j["volume_m3"], allow_inactive, crew_pick)
    if got is None:
        return False
    dep = R.deposit_for(j["total_amount"])
    lead = (move - booked).days
    method = rng.choice(["card", "card", "bank_transfer"]) if lead >= 5 else "card"
    j.update(status="booked", crew_id=got[0], truck_id=got[1], deposit_amount=dep, deposit_method=method,
             booked_on=iso(booked))
    if rng.random() < 0.3 and (move - booked).days > 3:
        n = rng.choice([1, 1, 2])
        fee = rng.choice([0.0, 75.0]) if n == 1 else rng.choice([0.0, 75.0, 150.0])
        j.update(reschedule_count=n, fees_amount=fee,
                 last_rescheduled_on=iso(booked + datetime.timedelta(days=rng.randint(1, (move - booked).days - 1))))
    j["balance_due"] = m(Decimal(str(j["total_amount"])) + Decimal(str(j["fees_amount"]))
                         - Decimal(str(dep)))
    return True


def pick_customer(move, active=True):
    for _ in range(50):
        cid = rng.choice(active_cust)
        if not active or (cid, iso(move)) not in cust_dates:
            if active:
                cust_dates.add((cid, iso(move)))
            return cid
    raise RuntimeError("no customer")


jobs = []
# completed jobs (past, a couple today)
for k in range(34):
    move = day(-rng.randint(1, 70)) if k >= 2 else TODAY
    created = move - datetime.timedelta(days=rng.randint(8, 40))
    j = base_job(pick_customer(move, active=False), created, move)
    booked = created + datetime.timedelta(days=rng.randint(0, 6))
    if not book(j, move, booked, allow_inactive=k >= 2):
        continue
    truck_cap = trucks[j["truck_id"]]["capacity_m3"]
    actual = max(1, min(truck_cap, j["volume_m3"] + rng.choice([-3, -1, 0, 0, 0, 2, 4, 7])))
    overage = m(R.OVERAGE_PER_M3 * max(0, actual - j["volume_m3"]))
    final = m(Decimal(str(j["total_amount"])) + Decimal(str(j["fees_amount"])) + Decimal(str(overage)))
    j.update(status="completed", started_on=iso(move), completed_on=iso(move), actual_volume_m3=actual,
             overage_amount=overage, final_amount=final,
             balance_due=m(Decimal(str(final)) - Decimal(str(j["deposit_amount"]))))
    c = customers[j["customer_id"]]
    c["completed_moves"] += 1
    c["lifetime_spend"] = m(Decimal(str(c["lifetime_spend"])) + Decimal(str(final)))
    jobs.append(j)

# in progress today
for _ in range(3):
    for _try in range(6):
        j = base_job(pick_customer(TODAY), day(-rng.randint(10, 30)), TODAY)
        if book(j, TODAY, day(-rng.randint(3, 9))):
            j.update(status="in_progress", started_on=iso(TODAY))
            jobs.append(j)
            break

# booked: some today, some on a busy weekend, the rest spread over the next two months
booked_dates = [TODAY] * 5 + [day(3)] * 6 + [day(4)] * 4 + [day(1), day(2), day(5), day(6), day(9)]
booked_dates += [day(rng.randint(7, 60)) for _ in range(14)]
for n, move in enumerate(booked_dates):
    created = move - datetime.timedelta(days=rng.randint(8, 45))
    if created > TODAY:
        created = TODAY - datetime.timedelta(days=rng.randint(0, 3))
    booked = min(TODAY, created + datetime.timedelta(days=rng.randint(0, 10)))
    if booked >= move:
        booked = move - datetime.timedelta(days=1)
        created = min(created, booked)
    pick = "CR-07" if n in (1, 22) else None  # the crew went on leave after these were booked
    for _try in range(6):
        j = base_job(pick_customer(move), created, move)
        if book(j, move, booked, allow_inactive=pick is not None, crew_pick=pick):
            jobs.append(j)
            break

# quoted: fresh and expired quotes
for k in range(24):
    created = day(-rng.randint(0, 26))
    lo = max(2, (TODAY - created).days + 1)
    move = created + datetime.timedelta(days=rng.randint(lo, lo + 70))
    if k < 2:  # booking still allowed, but too late for a bank transfer
        created, move = day(-rng.randint(3, 10)), day(1)
    elif k < 9:  # popular dates that already have bookings
        created, move = day(-rng.randint(0, 9)), rng.choice([day(3), day(4), day(6), day(9)])
    j = base_job(pick_customer(move), created, move)
    jobs.append(j)

# cancelled
REASONS = sorted(R.CANCEL_REASONS)
for k in range(13):
    move = day(rng.randint(-20, 50))
    created = move - datetime.timedelta(days=rng.randint(10, 40))
    cancelled = created + datetime.timedelta(days=rng.randint(1, 9))
    if cancelled > TODAY:
        cancelled = TODAY - datetime.timedelta(days=1)
    if cancelled >= move:
        cancelled = move - datetime.timedelta(days=1)
    created = min(created, cancelled)
    j = base_job(pick_customer(move, active=False), created, move)
    fee, refund = 0.0, 0.0
    if k % 2 == 0:
        booked = created + datetime.timedelta(days=(cancelled - created).days // 2)
        dep = R.deposit_for(j["total_amount"])
        j.update(deposit_amount=dep, deposit_method="card", booked_on=iso(booked),
                 crew_id=rng.choice(sorted(crews)), truck_id=rng.choice(
                     [t for t in sorted(trucks) if trucks[t]["capacity_m3"] >= j["volume_m3"]]))
        notice = (move - cancelled).days
        fee = 0.0 if notice >= 14 else m(Decimal(str(dep)) / 2) if notice >= 3 else dep
        refund = m(Decimal(str(dep)) - Decimal(str(fee)))
    j.update(status="cancelled", cancelled_on=iso(cancelled), cancel_reason=rng.choice(REASONS),
             cancellation_fee=fee, refund_amount=refund, balance_due=0.0)
    jobs.append(j)

jobs.sort(key=lambda j: (j["created_on"], j["move_date"], j["customer_id"]))
job_map = {}
for i, j in enumerate(jobs):
    j["job_id"] = f"JOB-{i + 1:04d}"
    job_map[j["job_id"]] = j

# ---------------------------------------------------------------- claims
ITEMS = {"broken": ["Glass display cabinet door", "Ceramic table lamp", "Framed wall mirror", "Oak bookshelf leg"],
         "scratched": ["Walnut dining table top", "Piano lid", "Leather sofa arm", "Hardwood dresser"],
         "dented": ["Stainless fridge door", "Washing machine panel", "Metal filing cabinet"],
         "water_damage": ["Box of photo albums", "Upholstered armchair", "Rolled wool rug"],
         "lost": ["Box of kitchen utensils", "Bedframe hardware bag", "TV wall mount kit"]}
completed = sorted((j for j in jobs if j["status"] == "completed"), key=lambda j: j["completed_on"])
claim_list = []
for j in completed:
    age = (TODAY - datetime.date.fromisoformat(j["completed_on"])).days
    if rng.random() > 0.45:
        continue
    n = 2 if rng.random() < 0.25 else 1
    for k in range(n):
        types = sorted(ITEMS) if j["insurance_plan"] != "basic" else [t for t in sorted(ITEMS) if t != "lost"]
        dtype = rng.choice(types)
        filed = datetime.date.fromisoformat(j["completed_on"]) + datetime.timedelta(
            days=min(age, rng.randint(1, 20) + 5 * k))
        if filed > TODAY:
            filed = TODAY
        amount = m(rng.randint(4000, 260000) / 100)
        last = k == n - 1
        if last and age <= 30 and rng.random() < 0.45:
            status = "submitted"
        else:
            status = rng.choice(["approved", "approved", "denied"])
        claim_list.append({"claim_id": None, "job_id": j["job_id"], "customer_id": j["customer_id"],
                           "item_description": rng.choice(ITEMS[dtype]), "damage_type": dtype,
                           "claimed_amount": amount, "status": status, "filed_on": iso(filed),
                           "decided_on": None, "payout_amount": None, "denial_reason": None})
claim_list.sort(key=lambda c: (c["filed_on"], c["job_id"]))
claims = {}
for i, c in enumerate(claim_list):
    c["claim_id"] = f"CLM-{i + 1:04d}"
    j = job_map[c["job_id"]]
    j["claims_filed"] += 1
    if c["status"] != "submitted":
        decided = min(TODAY, datetime.date.fromisoformat(c["filed_on"]) + datetime.timedelta(days=rng.randint(2, 9)))
        c["decided_on"] = iso(decided)
    if c["status"] == "denied":
        c["payout_amount"] = 0.0
        c["denial_reason"] = rng.choice(sorted(R.DENIAL_REASONS))
    elif c["status"] == "approved":
        remaining = Decimal(str(j["coverage_cap"])) - Decimal(str(j["claims_paid_total"]))
        net = max(Decimal("0"), Decimal(str(c["claimed_amount"])) - Decimal(str(j["deductible"])))
        c["payout_amount"] = m(max(Decimal("0"), min(net, remaining)))
        j["claims_paid_total"] = m(Decimal(str(j["claims_paid_total"])) + Decimal(str(c["payout_amount"])))
    claims[c["claim_id"]] = c

db = {
    "meta": {
        "today": iso(TODAY),
        "currency": "USD",
        "note": "today is the current date for every rule; new jobs and claims continue their 4-digit id sequences",
    },
    "customers": customers,
    "crews": crews,
    "trucks": trucks,
    "jobs": job_map,
    "claims": claims,
}

if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(out, "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")
    print({k: len(v) for k, v in db.items() if k != "meta"})
