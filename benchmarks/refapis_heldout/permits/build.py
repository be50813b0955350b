"""Writes db.json for the Larkspur permit office: static parties, then ~8 months of office work
replayed day by day through ref_impl so every counter, total and date obeys the documented rules."""
import datetime as dt
import json
import random
from pathlib import Path

import ref_impl as R

HERE = Path(__file__).resolve().parent
SEED = 20250403
TODAY = dt.date(2025, 3, 14)
START = dt.date(2024, 7, 1)
HOLIDAYS = ["2024-07-04", "2024-09-02", "2024-11-11", "2024-11-28", "2024-12-25", "2025-01-01",
            "2025-01-20", "2025-02-17", "2025-03-31", "2025-05-26"]

FIRST = ["Amara", "Bennett", "Celia", "Dario", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonah",
         "Keiko", "Lucas", "Maren", "Nikhil", "Odette", "Pavel", "Quinn", "Rosa", "Soren", "Tamsin"]
LAST = ["Abernathy", "Boateng", "Castillo", "Dunmore", "Eriksen", "Fairweather", "Gallo", "Huang",
        "Iwu", "Jaramillo", "Kowalski", "Lindgren", "Mbeki", "Novak", "Oyelaran", "Pereira", "Quist",
        "Rahman", "Sato", "Thibault"]
FIRMS = ["Brightline Electric", "Cedar & Stone Builders", "Dryfork Plumbing", "Eastgate Mechanical",
         "Foothill Roofing Co.", "Granite Peak Construction", "Harbor HVAC", "Ironwood Demolition",
         "Juniper General Contracting", "Keystone Trades"]
STREETS = ["Alder St", "Birch Ave", "Canal Rd", "Dover Ln", "Elm Ct", "Foundry Way", "Garnet St",
           "Harbor Blvd", "Iris Pl", "Juniper Dr", "Kestrel Rd", "Lantern Sq"]
DESCR = {
    "building": ["Single-storey rear addition", "Detached garage with storage loft", "Interior remodel, remove bearing wall",
                 "Second-floor dormer addition", "Tenant improvement, open office fit-out", "New covered deck"],
    "electrical": ["Panel upgrade to 200A service", "EV charger circuit in garage", "Rewire kitchen circuits",
                   "Rooftop solar interconnection"],
    "plumbing": ["Water heater replacement", "Sewer lateral replacement", "Bathroom re-pipe", "Gas line to outdoor kitchen"],
    "mechanical": ["Heat pump installation", "Replace rooftop HVAC unit", "New ductwork for addition", "Commercial kitchen hood"],
    "roofing": ["Tear-off and re-roof, asphalt shingles", "Flat roof membrane replacement", "Re-roof with standing-seam metal"],
    "demolition": ["Demolish detached shed", "Demolish fire-damaged garage", "Interior strip-out of warehouse bay"],
}
VALUE = {"building": (8000, 380000), "electrical": (900, 24000), "plumbing": (600, 18000),
         "mechanical": (2500, 42000), "roofing": (4500, 36000), "demolition": (3000, 65000)}


def build(seed=SEED):
    rng = random.Random(seed)
    db = {"meta": {"today": START.isoformat(), "office": "Larkspur City Permit Center",
                   "holidays": HOLIDAYS},
          "applicants": {}, "properties": {}, "inspectors": {}, "permits": {}, "fees": {},
          "payments": {}, "inspections": {}}
    # ---- applicants: 16 homeowners, 8 contractors
    for i in range(16):
        aid = f"APL-{i + 1:03d}"
        name = f"{FIRST[i]} {LAST[(i * 7) % 20]}"
        db["applicants"][aid] = {
            "id": aid, "name": name, "kind": "individual",
            "email": name.lower().replace(" ", ".") + "@mailbox.example",
            "phone": f"555-{200 + i:03d}-{rng.randint(1000, 9999)}", "license_number": None,
            "license_expires": None, "status": "active", "open_permit_count": 0, "permit_count": 0}
    lic_exp = ["2026-06-30", "2025-12-31", "2025-01-31", "2026-03-31", "2025-03-31",
               "2025-09-30", "2025-02-28", "2026-01-31"]
    for j, firm in enumerate(FIRMS[:8]):
        aid = f"APL-{17 + j:03d}"
        db["applicants"][aid] = {
            "id": aid, "name": firm, "kind": "contractor",
            "email": "permits@" + firm.lower().replace(" & ", "-").replace(" ", "").replace(".", "") + ".example",
            "phone": f"555-{300 + j:03d}-{rng.randint(1000, 9999)}", "license_number": f"CSLB-{704100 + 37 * j}",
            "license_expires": lic_exp[j], "status": "active", "open_permit_count": 0, "permit_count": 0}
    # ---- properties: 30, owned mostly by homeowners, a few by contractors (developer lots)
    zon = ["residential"] * 6 + ["mixed_use"] * 2 + ["commercial"] * 2 + ["industrial"]
    for k in range(30):
        pid = f"PRP-{k + 1:03d}"
        owner = f"APL-{(k % 16) + 1:03d}" if k < 26 else f"APL-{17 + (k % 8):03d}"
        z = rng.choice(zon)
        street = STREETS[k % 12]
        db["properties"][pid] = {
            "id": pid, "address": f"{100 + 14 * k + rng.randint(0, 9)} {street}",
            "parcel_number": f"{40 + k // 6:03d}-{rng.randint(100, 999)}-{rng.randint(1, 40):02d}",
            "owner_id": owner, "zoning": z, "historic_district": street in ("Canal Rd", "Garnet St", "Lantern Sq"),
            "lot_area_sqft": rng.randrange(3200, 22000, 50), "permit_count": 0}
    # ---- inspectors
    specs = [["building", "demolition"], ["building", "roofing"], ["electrical"], ["plumbing", "mechanical"],
             ["electrical", "mechanical"], ["building", "roofing", "demolition"], ["plumbing"], ["building"]]
    inames = ["Ruth Okonkwo", "Marcus Feld", "Ana Teixeira", "Glen Whitaker", "Priya Sundar", "Tomas Reyes",
              "Helen Marsh", "Victor Lam"]
    for n in range(8):
        iid = f"INSP-{n + 1:02d}"
        db["inspectors"][iid] = {"id": iid, "name": inames[n], "specialties": specs[n],
                                 "max_per_day": [3, 4, 4, 3, 3, 4, 2, 3][n], "active": n != 7,
                                 "scheduled_count": 0}

    stalled = set()   # permits whose applicant simply stops following up
    slow = set()      # permits whose fees tend to be paid late
    idle = set()      # issued permits on which work never starts

    def call(name, args):
        try:
            return R.invoke(db, name, args)
        except R.RefError:
            return None

    day = START
    while day <= TODAY:
        db["meta"]["today"] = day.isoformat()
        if day == dt.date(2025, 1, 15):
            db["applicants"]["APL-013"]["status"] = "suspended"
        if day == dt.date(2025, 2, 10):
            db["applicants"]["APL-024"]["status"] = "suspended"
        # nightly: lapse issued permits past their expiry
        for p in db["permits"].values():
            if p["status"] == "issued" and dt.date.fromisoformat(p["expires_on"]) < day:
                p["status"] = "expired"
                R._cancel_scheduled(db, p, "permit expired")
                R._close_permit(db, p)
        if day.weekday() >= 5 or day.isoformat() in HOLIDAYS:
            day += dt.timedelta(days=1)
            continue
        last = day == TODAY
        # record results of inspections due today (some left pending)
        for ins in sorted(db["inspections"].values(), key=lambda r: r["id"]):
            if ins["status"] == "scheduled" and ins["scheduled_date"] <= day.isoformat():
                if rng.random() < (0.1 if day >= dt.date(2025, 3, 10) else 0.8):
                    fail = rng.random() < 0.22
                    call("record_inspection_result", {
                        "inspection_id": ins["id"], "result": "failed" if fail else "passed",
                        **({"notes": rng.choice(["Missing hold-downs at north wall", "GFCI protection absent in bath",
                                                  "Vent termination too close to window", "Nailing pattern below spec",
                                                  "Debris not cleared from site"])} if fail else
                           ({"notes": "Approved as built"} if rng.random() < 0.4 else {}))})
        # new applications
        for _ in range(2):
            if rng.random() < (0.16 if day < dt.date(2025, 2, 1) else 0.25):
                app = rng.choice(list(db["applicants"].values()))
                if app["kind"] == "individual":
                    props = [p for p in db["properties"].values() if p["owner_id"] == app["id"]]
                    ptype = rng.choice(["building", "building", "roofing", "demolition"])
                else:
                    props = list(db["properties"].values())
                    ptype = rng.choice(PT_BY_FIRM[app["id"]])
                prop = rng.choice(props)
                lo, hi = VALUE[ptype]
                val = rng.randint(lo, hi) + (rng.choice([0, 0, 0, 0.5, 0.25, 0.99]))
                p = call("submit_permit_application", {
                    "property_id": prop["id"], "applicant_id": app["id"], "permit_type": ptype,
                    "valuation": round(val, 2), "description": rng.choice(DESCR[ptype])})
                if p is not None:
                    if rng.random() < 0.12:
                        stalled.add(p["id"])
                    if rng.random() < 0.2:
                        slow.add(p["id"])
        # pay fees
        for f in sorted(db["fees"].values(), key=lambda r: r["id"]):
            if f["status"] != "unpaid" or f["permit_id"] in stalled:
                continue
            overdue = f["due_on"] < day.isoformat()
            pr = 0.015 if f["permit_id"] in slow and not overdue else (0.06 if f["permit_id"] in slow else 0.12)
            if rng.random() < pr:
                amt = f["amount"]
                m = rng.choice(["card", "card", "check", "ach", "ach", "cash"])
                if m == "cash" and amt > 1000:
                    m = "check"
                call("pay_fee", {"fee_id": f["id"], "amount": amt, "method": m})
        # reviews, issuance, withdrawals, extensions, scheduling
        for p in sorted(db["permits"].values(), key=lambda r: r["id"]):
            if p["id"] in stalled:
                continue
            if p["status"] == "submitted" and p["balance_due"] == 0 and rng.random() < 0.07:
                if rng.random() < 0.14:
                    call("review_permit", {"permit_id": p["id"], "decision": "reject", "reason": rng.choice(
                        ["Setback encroachment on side yard", "Plans lack structural calculations",
                         "Use not permitted in zone", "Incomplete site plan"])})
                else:
                    call("review_permit", {"permit_id": p["id"], "decision": "approve"})
                    if rng.random() < (0.5 if day < dt.date(2024, 9, 10) else 0.08):
                        stalled.add(p["id"])
            elif p["status"] == "approved" and rng.random() < 0.09:
                if call("issue_permit", {"permit_id": p["id"]}) and day < dt.date(2025, 1, 1) and rng.random() < 0.35:
                    idle.add(p["id"])
            elif p["status"] in R.OPEN and rng.random() < 0.0025:
                call("withdraw_permit", {"permit_id": p["id"], **({"reason": rng.choice(
                    ["Owner postponed project", "Scope folded into another permit", "Property sold"])}
                    if rng.random() < 0.7 else {})})
            elif p["status"] == "issued":
                left = (dt.date.fromisoformat(p["expires_on"]) - day).days
                if left <= 30 and p["extension_count"] == 0 and rng.random() < 0.03:
                    call("extend_permit", {"permit_id": p["id"]})
                elif p["id"] not in idle and p["balance_due"] == 0 and rng.random() < (
                        0.45 if day >= dt.date(2025, 3, 3) else 0.09):
                    mine = [i for i in db["inspections"].values() if i["permit_id"] == p["id"]]
                    if any(i["status"] == "scheduled" for i in mine):
                        continue
                    passed = {i["inspection_type"] for i in mine if i["status"] == "passed"}
                    stage = next(s for s in R.STAGES[p["permit_type"]] if s not in passed)
                    for _ in range(6):
                        d = (day + dt.timedelta(days=rng.randint(1, 12 if day < dt.date(2025, 3, 3) else 20))).isoformat()
                        cands = [q for q in db["inspectors"].values() if p["permit_type"] in q["specialties"]]
                        q = rng.choice(cands)
                        if call("schedule_inspection", {"permit_id": p["id"], "inspection_type": stage,
                                                        "scheduled_date": d, "inspector_id": q["id"]}):
                            break
        # occasional cancellations
        for ins in sorted(db["inspections"].values(), key=lambda r: r["id"]):
            if ins["status"] == "scheduled" and ins["scheduled_date"] > day.isoformat() and rng.random() < 0.02:
                call("cancel_inspection", {"inspection_id": ins["id"], "reason": rng.choice(
                    ["Contractor not ready", "Access to site unavailable", "Rescheduling at owner request"])})
        if last:  # a large commercial job filed at closing time today
            call("submit_permit_application", {
                "property_id": "PRP-030", "applicant_id": "APL-022", "permit_type": "building",
                "valuation": 1480000.0, "description": "Two-storey retail shell building with mezzanine"})
        day += dt.timedelta(days=1)
    db["meta"]["today"] = TODAY.isoformat()
    return db


PT_BY_FIRM = {
    "APL-017": ["electrical"], "APL-018": ["building", "building", "demolition"], "APL-019": ["plumbing"],
    "APL-020": ["mechanical", "electrical"], "APL-021": ["roofing"], "APL-022": ["building", "roofing"],
    "APL-023": ["mechanical", "plumbing"], "APL-024": ["demolition", "building"],
}

if __name__ == "__main__":
    data = build()
    (HERE / "db.json").write_text(json.dumps(data, indent=1) + "\n")
    print({k: len(v) for k, v in data.items() if k != "meta"})
