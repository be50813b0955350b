"""Generate db.json for the calibration laboratory API (deterministic, stdlib only)."""
import json
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 61624
TODAY = date(2025, 6, 16)

CATEGORIES = ["pressure_gauge", "multimeter", "thermometer", "torque_wrench", "balance_scale", "caliper"]
BASE_FEE = {"pressure_gauge": "85.00", "multimeter": "120.00", "thermometer": "65.00",
            "torque_wrench": "95.00", "balance_scale": "140.00", "caliper": "55.00"}
SURCHARGE_RATE = {"standard": "0", "expedited": "0.30", "rush": "0.75"}
TURNAROUND = {"standard": 10, "expedited": 5, "rush": 2}
MAKERS = {
    "pressure_gauge": [("Ashcroft", "1279"), ("WIKA", "232.54"), ("Druck", "DPI 104")],
    "multimeter": [("Fluke", "87V"), ("Keysight", "U1282A"), ("Keithley", "2110")],
    "thermometer": [("Omega", "HH802U"), ("ThermoWorks", "Reference Thermapen"), ("Hart", "1524")],
    "torque_wrench": [("Norbar", "TTi 60"), ("CDI", "2503MFRMH"), ("Snap-on", "TECH3FR250")],
    "balance_scale": [("Mettler Toledo", "XPR205"), ("Sartorius", "Cubis II"), ("Ohaus", "Explorer EX224")],
    "caliper": [("Mitutoyo", "500-196-30"), ("Starrett", "798A-6/150"), ("Brown & Sharpe", "TwinCal IP67")],
}
INTERVALS = {"pressure_gauge": [180, 365], "multimeter": [365], "thermometer": [180, 365],
             "torque_wrench": [90, 180], "balance_scale": [90, 180, 365], "caliper": [180, 365]}
COMPANY_A = ["Northgate", "Bluewater", "Ridgeline", "Harbor Point", "Summit", "Keystone", "Pioneer",
             "Silverline", "Cedar Creek", "Ironwood", "Lakeside", "Granite Peak", "Redwood", "Meridian",
             "Orchard Hill"]
COMPANY_B = ["Fabrication", "Aerospace", "Pharma", "Energy", "Foods", "Labs", "Automotive",
             "Utilities", "Marine", "Plastics"]
TECH_NAMES = ["Priya Raman", "Marcus Oyelaran", "Helen Fitzgerald", "Tomas Lindqvist", "Aiko Tanaka",
              "Rafael Dominguez", "Grace Mbeki", "Owen Pritchard", "Sofia Castellano", "Dmitri Volkov",
              "Nadia Haddad", "Ben Whitaker", "Lucia Ferreira", "Kwame Asante"]
CONTACTS = ["quality", "metrology", "maintenance", "qa", "calibration", "engineering"]
REVOKE_REASONS = ["reference standard found out of tolerance", "wrong serial number on certificate",
                  "customer reported transcription error"]
CANCEL_REASONS = ["customer_request", "instrument_damaged", "duplicate_request", "other"]


def money(x):
    return Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def fees(category, level, tier, late=False):
    base = money(BASE_FEE[category])
    surcharge = Decimal("0.00") if late else money(base * Decimal(SURCHARGE_RATE[level]))
    discount = money((base + surcharge) * Decimal("0.10")) if tier == "partner" else Decimal("0.00")
    total = base + surcharge - discount
    return float(base), float(surcharge), float(discount), float(total)


def d(x):
    return x.isoformat()


def main():
    rng = random.Random(SEED)

    # technicians
    techs = {}
    while True:
        specs = [sorted(rng.sample(CATEGORIES, rng.randint(2, 4)), key=CATEGORIES.index) for _ in TECH_NAMES]
        cover = {c: sum(1 for i, s in enumerate(specs) if c in s and i not in (4, 10)) for c in CATEGORIES}
        if min(cover.values()) >= 3:
            break
    for i, name in enumerate(TECH_NAMES):
        tid = "TECH-%02d" % (i + 1)
        techs[tid] = {"id": tid, "name": name, "specialties": specs[i],
                      "max_active_jobs": rng.choice([3, 4, 4, 5, 6]), "active_jobs": 0,
                      "status": "on_leave" if i in (4, 10) else "active"}

    # customers
    names = [a + " " + b for a in COMPANY_A for b in COMPANY_B]
    rng.shuffle(names)
    customers = {}
    partner_idx = set(rng.sample(range(30), 8))
    over_idx = set(rng.sample(range(30), 5))
    for i in range(30):
        cid = "CUS-%03d" % (i + 1)
        tier = "partner" if i in partner_idx else "standard"
        limit = rng.choice([5000, 7500, 10000]) if tier == "partner" else rng.choice([1000, 1500, 2000, 2500])
        if i in over_idx:
            bal = limit * rng.uniform(1.03, 1.3)
        elif rng.random() < 0.2:
            bal = 0
        else:
            bal = limit * rng.uniform(0.05, 0.8)
        slug = names[i].lower().replace(" ", "-")
        customers[cid] = {"id": cid, "name": names[i] + (" Inc." if rng.random() < 0.5 else " LLC"),
                          "email": "%s@%s.example" % (rng.choice(CONTACTS), slug), "tier": tier,
                          "credit_limit": float(limit), "balance_due": float(money(bal)), "open_jobs": 0}
    cids = list(customers)

    # instruments
    instruments = {}
    serials = set()
    for i in range(110):
        iid = "INS-%04d" % (i + 1)
        cat = CATEGORIES[i % 6] if i < 12 else rng.choice(CATEGORIES)
        maker, model = rng.choice(MAKERS[cat])
        while True:
            sn = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2)) + "%06d" % rng.randint(0, 999999)
            if sn not in serials:
                serials.add(sn)
                break
        instruments[iid] = {"id": iid, "customer_id": rng.choice(cids), "category": cat, "manufacturer": maker,
                            "model": model, "serial_number": sn,
                            "calibration_interval_days": rng.choice(INTERVALS[cat]),
                            "last_calibrated": None, "status": "in_service", "retired_date": None}
    iids = list(instruments)
    retired = set(rng.sample(iids[12:], 6))
    for iid in sorted(retired):
        instruments[iid]["status"] = "retired"
        instruments[iid]["retired_date"] = d(TODAY - timedelta(days=rng.randint(20, 250)))

    def pick_tech(cat, any_status=True, need_capacity=False):
        pool = [t for t in techs.values() if cat in t["specialties"]
                and (any_status or t["status"] == "active")
                and (not need_capacity or t["active_jobs"] < t["max_active_jobs"])]
        return rng.choice(pool) if pool else None

    def level_for(cat):
        lv = rng.choices(["standard", "expedited", "rush"], [70, 20, 10])[0]
        if cat == "balance_scale" and lv == "rush":
            lv = "expedited"
        return lv

    jobs = []
    # history: completed and cancelled jobs
    recent = set(rng.sample([i for i in iids if i not in retired], 30))
    for iid in iids:
        ins = instruments[iid]
        cat = ins["category"]
        tier = customers[ins["customer_id"]]["tier"]
        n = rng.choice([0, 1, 1, 2]) if iid not in recent else rng.choice([1, 2])
        if iid in retired:
            end = date.fromisoformat(ins["retired_date"]) - timedelta(days=10)
        else:
            end = TODAY - timedelta(days=1)
        latest_completion = end - timedelta(days=rng.randint(0, 27) if iid in recent else rng.randint(31, 330))
        for k in range(n):
            lv = level_for(cat)
            ta = TURNAROUND[lv]
            completed = latest_completion - timedelta(days=k * ins["calibration_interval_days"])
            span = rng.randint(1, ta + 3)
            received = completed - timedelta(days=span)
            due = received + timedelta(days=ta)
            late = completed > due
            started = received + timedelta(days=rng.randint(0, span - 1))
            result = rng.choices(["pass", "adjusted", "fail"], [72, 18, 10])[0]
            b, s, dc, t = fees(cat, lv, tier, late)
            jobs.append({"customer_id": ins["customer_id"], "instrument_id": iid,
                         "technician_id": pick_tech(cat)["id"], "service_level": lv, "status": "completed",
                         "received_date": d(received), "due_date": d(due), "started_date": d(started),
                         "completed_date": d(completed), "result": result, "base_fee": b, "surcharge": s,
                         "discount": dc, "total": t, "certificate_id": None, "cancel_reason": None,
                         "cancellation_fee": None, "notes": None})
            if result in ("pass", "adjusted") and (ins["last_calibrated"] is None
                                                   or d(completed) > ins["last_calibrated"]):
                ins["last_calibrated"] = d(completed)
    for _ in range(10):
        iid = rng.choice([i for i in iids if i not in retired])
        ins = instruments[iid]
        cat = ins["category"]
        lv = level_for(cat)
        received = TODAY - timedelta(days=rng.randint(15, 300))
        assigned = rng.random() < 0.5
        b, s, dc, t = fees(cat, lv, customers[ins["customer_id"]]["tier"])
        jobs.append({"customer_id": ins["customer_id"], "instrument_id": iid,
                     "technician_id": pick_tech(cat)["id"] if assigned else None, "service_level": lv,
                     "status": "cancelled", "received_date": d(received),
                     "due_date": d(received + timedelta(days=TURNAROUND[lv])), "started_date": None,
                     "completed_date": None, "result": None, "base_fee": b, "surcharge": s, "discount": dc,
                     "total": t, "certificate_id": None, "cancel_reason": rng.choice(CANCEL_REASONS),
                     "cancellation_fee": 20.0 if assigned else 0.0, "notes": None})

    # open jobs
    limit = {"standard": 3, "partner": 8}
    candidates = [i for i in iids if i not in retired]
    rng.shuffle(candidates)
    plan = ["received"] * 16 + ["assigned"] * 16 + ["in_progress"] * 18
    rush_left = 4
    on_leave_assigned = 2
    for status in plan:
        while True:
            iid = candidates.pop()
            ins = instruments[iid]
            cust = customers[ins["customer_id"]]
            if cust["open_jobs"] < limit[cust["tier"]]:
                break
        cat = ins["category"]
        if rush_left and cat != "balance_scale" and rng.random() < 0.3:
            lv = "rush"
            rush_left -= 1
        else:
            lv = rng.choices(["standard", "expedited"], [75, 25])[0]
        last = ins["last_calibrated"]
        lo = 0
        received = TODAY - timedelta(days=rng.randint(lo, 12 if lv == "standard" else 6))
        if last and received <= date.fromisoformat(last):
            received = TODAY - timedelta(days=rng.randint(0, 2))
        tech_id = None
        started = None
        if status == "assigned" and on_leave_assigned:
            tech = next((t for t in techs.values() if t["status"] == "on_leave" and cat in t["specialties"]
                         and t["active_jobs"] < t["max_active_jobs"]), None)
            if tech:
                on_leave_assigned -= 1
            else:
                tech = pick_tech(cat, any_status=False, need_capacity=True)
        elif status != "received":
            tech = pick_tech(cat, any_status=False, need_capacity=True)
        else:
            tech = None
        if status != "received":
            if tech is None:
                status = "received"
            else:
                tech["active_jobs"] += 1
                tech_id = tech["id"]
        if status == "in_progress":
            started = received + timedelta(days=rng.randint(0, (TODAY - received).days))
        b, s, dc, t = fees(cat, lv, cust["tier"])
        ins["status"] = "in_lab"
        cust["open_jobs"] += 1
        jobs.append({"customer_id": ins["customer_id"], "instrument_id": iid, "technician_id": tech_id,
                     "service_level": lv, "status": status, "received_date": d(received),
                     "due_date": d(received + timedelta(days=TURNAROUND[lv])),
                     "started_date": d(started) if started else None, "completed_date": None, "result": None,
                     "base_fee": b, "surcharge": s, "discount": dc, "total": t, "certificate_id": None,
                     "cancel_reason": None, "cancellation_fee": None,
                     "notes": rng.choice([None, None, "customer asked for as-found data",
                                          "ship back with original case", "call contact before adjusting"])})

    jobs.sort(key=lambda j: (j["received_date"], j["instrument_id"]))
    jobs_by_id = {}
    for n, j in enumerate(jobs, 1):
        j["id"] = "JOB-%04d" % n
        jobs_by_id[j["id"]] = {"id": j["id"], **{k: v for k, v in j.items() if k != "id"}}

    # certificates
    certs = []
    for j in jobs_by_id.values():
        if j["status"] != "completed" or j["result"] == "fail":
            continue
        completed = date.fromisoformat(j["completed_date"])
        age = (TODAY - completed).days
        if age <= 30 and rng.random() < 0.55:
            continue
        if age > 30 and rng.random() < 0.06:
            continue
        issued = min(completed + timedelta(days=rng.randint(0, 3)), TODAY)
        ins = instruments[j["instrument_id"]]
        certs.append({"job_id": j["id"], "instrument_id": j["instrument_id"], "customer_id": j["customer_id"],
                      "technician_id": j["technician_id"], "issued_date": d(issued),
                      "valid_until": d(completed + timedelta(days=ins["calibration_interval_days"])),
                      "status": "valid", "revoked_date": None, "revoke_reason": None})
    certs.sort(key=lambda c: (c["issued_date"], c["job_id"]))
    certificates = {}
    for n, c in enumerate(certs, 1):
        cid = "CRT-%05d" % n
        certificates[cid] = {"id": cid, **c}
        jobs_by_id[c["job_id"]]["certificate_id"] = cid
    cert_ids = list(certificates)
    for cid in cert_ids:
        c = certificates[cid]
        ins = instruments[c["instrument_id"]]
        if ins["status"] == "retired":
            c["status"] = "revoked"
            c["revoked_date"] = ins["retired_date"]
            c["revoke_reason"] = "instrument retired"
    for cid in rng.sample([c for c in cert_ids if certificates[c]["status"] == "valid"], 5):
        c = certificates[cid]
        c["status"] = "revoked"
        issued = date.fromisoformat(c["issued_date"])
        c["revoked_date"] = d(min(issued + timedelta(days=rng.randint(2, 40)), TODAY))
        c["revoke_reason"] = rng.choice(REVOKE_REASONS)
    for c in certificates.values():
        if c["status"] == "revoked":
            jobs_by_id[c["job_id"]]["certificate_id"] = None

    db = {"meta": {"today": d(TODAY), "currency": "USD", "lab": "Tri-County Metrology Services"},
          "customers": customers, "technicians": techs, "instruments": instruments,
          "jobs": jobs_by_id, "certificates": certificates}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
