"""Builds db.json for the Larkmoor SampleTrack reference API. Stdlib only, fixed seed."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

rng = random.Random(20250409)
TODAY = dt.date(2025, 4, 9)


def d(days_ago):
    return (TODAY - dt.timedelta(days=days_ago)).isoformat()


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


STAFF = ["A. Mbeki", "B. Sorensen", "C. Halloran", "D. Achterberg", "E. Novak", "F. Tan",
         "G. Ruiz", "H. Lindahl", "I. Oyelaran", "J. Whitcombe"]

# ------------------------------------------------------------------ studies
STUDY_ROWS = [
    ("Cardiometabolic Risk in Shift Workers", "Northfield University", "Dr. P. Ashworth", "CMR"),
    ("Early Sepsis Biomarkers", "Calder Health Trust", "Dr. R. Iqbal", "ESB"),
    ("Paediatric Vitamin D Cohort", "Brightwater Foundation", "Dr. S. Moreau", "PVD"),
    ("Thyroid Function in Pregnancy", "Calder Health Trust", "Dr. L. Fenwick", "TFP"),
    ("Renal Decline Observational", "Osterley Pharma", "Dr. K. Adeyemi", "RDO"),
    ("Neuroinflammation Pilot", "Harrowgate Neuro Ltd", "Dr. M. Castell", "NIP"),
    ("Healthy Ageing Longitudinal", "Northfield University", "Dr. T. Brannigan", "HAL"),
    ("Iron Status in Athletes", "Brightwater Foundation", "Dr. O. Kaur", "ISA"),
    ("Liver Safety Extension", "Osterley Pharma", "Dr. N. Petrov", "LSE"),
    ("Salivary Stress Markers", "Westmere College", "Dr. J. Okafor", "SSM"),
    ("Diabetic Kidney Screening", "Calder Health Trust", "Dr. V. Lindqvist", "DKS"),
    ("Tumour Proliferation Archive", "Harrowgate Neuro Ltd", "Dr. E. Sato", "TPA"),
    ("Mitochondrial Ageing Substudy", "Northfield University", "Dr. F. Delacroix", "MAS"),
    ("Post-Viral Fatigue Follow-up", "Westmere College", "Dr. H. Abara", "PVF"),
    ("Electrolyte Balance in ICU", "Calder Health Trust", "Dr. G. Whitlock", "EBI"),
    ("Telomere Length Registry", "Osterley Pharma", "Dr. A. Novak", "TLR"),
    ("CSF Protein Reference Ranges", "Harrowgate Neuro Ltd", "Dr. C. Mbatha", "CPR"),
    ("Glycaemic Control Trial", "Osterley Pharma", "Dr. D. Forsyth", "GCT"),
    ("Inflammation After Surgery", "Brightwater Foundation", "Dr. I. Ramos", "IAS"),
    ("Legacy Urine Biobank", "Westmere College", "Dr. W. Hale", "LUB"),
]
STUDY_STATUS = ["open"] * 14 + ["suspended"] * 3 + ["closed"] * 3
rng.shuffle(STUDY_STATUS)
studies = {}
for i, (title, sponsor, pi, prefix) in enumerate(STUDY_ROWS):
    sid = f"STU-{101 + i:04d}"
    status = STUDY_STATUS[i]
    if status == "closed":
        retention = d(rng.randint(-400, 200))
    else:
        retention = d(-rng.randint(30, 1500)) if rng.random() < 0.75 else d(rng.randint(1, 90))
    studies[sid] = {
        "study_id": sid, "title": title, "sponsor": sponsor, "principal_investigator": pi,
        "subject_prefix": prefix, "status": status, "sample_quota": 0, "samples_registered": 0,
        "discount_pct": rng.choice([0, 0, 5, 10, 10, 15, 20]), "billed_total": 0.0,
        "retention_until": retention}

# ------------------------------------------------------------------ tests
# code, name, department, specimen types, volume, stability, frozen stability, fee, units, low, high, status
TEST_ROWS = [
    ("GLU", "Glucose", "chemistry", ["serum", "plasma"], 0.20, 1, 30, 6.50, "mmol/L", 3.9, 5.6),
    ("HBA1C", "Haemoglobin A1c", "chemistry", ["whole_blood"], 0.50, 7, 7, 14.00, "mmol/mol", 20, 42),
    ("CRP", "C-reactive protein", "immunology", ["serum", "plasma"], 0.25, 3, 180, 11.25, "mg/L", 0, 5),
    ("ALT", "Alanine aminotransferase", "chemistry", ["serum", "plasma"], 0.20, 3, 60, 7.80, "U/L", 7, 56),
    ("AST", "Aspartate aminotransferase", "chemistry", ["serum", "plasma"], 0.20, 3, 60, 7.80, "U/L", 10, 40),
    ("CREA", "Creatinine", "chemistry", ["serum", "plasma", "urine"], 0.20, 7, 180, 6.90, "umol/L", 45, 110),
    ("UREA", "Urea", "chemistry", ["serum", "plasma"], 0.20, 7, 180, 5.40, "mmol/L", 2.5, 7.8),
    ("NA", "Sodium", "chemistry", ["serum", "plasma", "urine"], 0.15, 7, 365, 4.95, "mmol/L", 135, 145),
    ("K", "Potassium", "chemistry", ["serum", "plasma"], 0.15, 1, 365, 4.95, "mmol/L", 3.5, 5.1),
    ("TSH", "Thyroid stimulating hormone", "immunology", ["serum"], 0.30, 5, 90, 18.40, "mIU/L", 0.4, 4.0),
    ("FT4", "Free thyroxine", "immunology", ["serum"], 0.30, 5, 90, 17.60, "pmol/L", 12, 22),
    ("FERR", "Ferritin", "immunology", ["serum", "plasma"], 0.30, 7, 365, 15.75, "ug/L", 30, 400),
    ("VITD", "25-hydroxy vitamin D", "immunology", ["serum", "plasma"], 0.50, 7, 365, 32.00, "nmol/L", 50, 125),
    ("CBC", "Complete blood count", "haematology", ["whole_blood"], 1.00, 2, 2, 9.80, "x10^9/L WBC", 4.0, 11.0),
    ("ESR", "Erythrocyte sedimentation rate", "haematology", ["whole_blood"], 1.50, 1, 1, 6.00, "mm/h", 0, 20),
    ("UACR", "Urine albumin/creatinine ratio", "chemistry", ["urine"], 1.00, 7, 180, 12.50, "mg/mmol", 0, 3),
    ("UPROT", "Urine total protein", "chemistry", ["urine"], 1.00, 7, 90, 8.20, "g/L", 0, 0.15),
    ("CSFPRO", "CSF total protein", "chemistry", ["csf"], 0.50, 1, 180, 22.00, "g/L", 0.15, 0.45),
    ("IL6", "Interleukin-6", "immunology", ["serum", "plasma", "csf"], 0.25, 1, 365, 48.00, "pg/mL", 0, 7),
    ("SCORT", "Salivary cortisol", "immunology", ["saliva"], 0.40, 7, 365, 21.00, "nmol/L", 3, 25),
    ("MTCN", "Mitochondrial DNA copy number", "molecular", ["dna", "whole_blood"], 0.05, 365, 3650, 85.00, "copies/cell", 100, 1000),
    ("TELO", "Relative telomere length", "molecular", ["dna"], 0.05, 365, 3650, 92.50, "T/S ratio", 0.6, 1.6),
    ("KI67", "Ki-67 proliferation index", "histology", ["tissue"], 0.10, 3, 730, 64.00, "%", 0, 20),
]
WITHDRAWN = {"ESR", "UPROT"}
tests = {}
for code, name, dept, types, vol, stab, fstab, fee, units, lo, hi in TEST_ROWS:
    tests[code] = {"test_code": code, "name": name, "department": dept, "specimen_types": types,
                   "volume_ml": vol, "stability_days": stab, "frozen_stability_days": fstab,
                   "fee": fee, "units": units, "ref_low": lo, "ref_high": hi,
                   "status": "withdrawn" if code in WITHDRAWN else "active"}

# ------------------------------------------------------------------ racks
TEMPS = [4] * 4 + [-20] * 7 + [-80] * 10 + [-196] * 3
rng.shuffle(TEMPS)
FREEZER = {4: "Fridge", -20: "Freezer -20", -80: "ULT -80", -196: "LN2 Dewar"}
racks = {}
for i, t in enumerate(TEMPS):
    rid = f"RK-{i + 1:02d}"
    racks[rid] = {"rack_id": rid, "freezer": f"{FREEZER[t]} {chr(65 + i % 4)}", "storage_temp_c": t,
                  "capacity": rng.choice([4, 6, 9, 9, 12, 16]), "occupied": 0, "status": "in_service"}
for rid in ["RK-05", "RK-13", "RK-20"]:
    racks[rid]["status"] = "maintenance"
racks["RK-22"]["status"] = "decommissioned"

ALLOWED_TEMPS = {"serum": [-20, -80], "plasma": [-80], "whole_blood": [4], "urine": [-20, -80],
                 "csf": [-80], "tissue": [-80, -196], "saliva": [-20], "dna": [4, -20]}
STUDY_TYPES = {"CMR": ["serum", "plasma", "whole_blood"], "ESB": ["plasma", "serum"],
               "PVD": ["serum", "plasma"], "TFP": ["serum"], "RDO": ["serum", "urine"],
               "NIP": ["csf", "plasma"], "HAL": ["serum", "dna", "whole_blood"], "ISA": ["serum", "whole_blood"],
               "LSE": ["serum", "plasma"], "SSM": ["saliva"], "DKS": ["urine", "serum"], "TPA": ["tissue"],
               "MAS": ["dna", "whole_blood"], "PVF": ["serum", "plasma", "saliva"], "EBI": ["plasma", "serum"],
               "TLR": ["dna"], "CPR": ["csf"], "GCT": ["whole_blood", "plasma"], "IAS": ["serum", "plasma"],
               "LUB": ["urine"]}

# ------------------------------------------------------------------ samples
N_SAMPLES = 70
plan = (["stored"] * 40 + ["received"] * 8 + ["checked_out"] * 8 + ["depleted"] * 4
        + ["quarantined"] * 4 + ["disposed"] * 6)
rng.shuffle(plan)
samples, events, orders = {}, [], []
holders = ["D. Achterberg"] * 5 + ["F. Tan", "G. Ruiz", "C. Halloran"]
QREASONS = ["haemolysed", "label mismatch", "temperature excursion", "insufficient fill"]
DISPOSALS = [("autoclave", "retention_expired"), ("incineration", "consent_withdrawn"),
             ("autoclave", "quality_failure"), ("chemical_inactivation", "depleted"),
             ("returned_to_sponsor", "study_closed"), ("incineration", "consent_withdrawn")]
study_ids = list(studies)
used_keys = set()
positions = {rid: set() for rid in racks}


def free_pos(rid):
    r = racks[rid]
    return [p for p in range(1, r["capacity"] + 1) if p not in positions[rid]]


def vol(lo, hi):
    return money(rng.randint(int(lo * 20), int(hi * 20)) / 20)


for n in range(1, N_SAMPLES + 1):
    sid = f"SMP-{n:05d}"
    status = plan[n - 1]
    while True:
        st = rng.choice(study_ids)
        S = studies[st]
        if status == "received" and S["status"] != "open":
            continue
        stype = rng.choice(STUDY_TYPES[S["subject_prefix"]])
        if status == "received":
            coll = rng.randint(0, 9)
        elif status == "checked_out":
            coll = rng.randint(3, 120)
        else:
            coll = rng.randint(2, 330)
        subj = f"{S['subject_prefix']}-{rng.randint(1, 60):03d}"
        key = (st, subj, stype, d(coll))
        if key not in used_keys:
            used_keys.add(key)
            break
    received_ago = max(0, coll - rng.randint(0, 2))
    rec = {"sample_id": sid, "study_id": st, "subject_code": subj, "specimen_type": stype,
           "collected_on": d(coll), "received_on": d(received_ago),
           "initial_volume_ml": vol(1.0, 8.0), "volume_ml": 0.0, "status": status,
           "rack_id": None, "position": None, "checked_out_to": None, "return_due": None,
           "quarantine_reason": None, "disposed_on": None, "disposal_method": None,
           "disposal_reason": None, "disposal_authorised_by": None}
    if stype == "tissue":
        rec["initial_volume_ml"] = vol(0.3, 1.0)
    if stype == "dna":
        rec["initial_volume_ml"] = vol(0.2, 0.6)
    S["samples_registered"] += 1
    samples[sid] = rec
    events.append([rec["received_on"], sid, "received", rng.choice(STAFF), None, None])
    if status in ("stored", "checked_out") or (status == "disposed" and rng.random() < 0.5):
        cands = [r for r, x in racks.items() if x["storage_temp_c"] in ALLOWED_TEMPS[stype]
                 and x["status"] != "decommissioned" and free_pos(r)]
        if not cands:
            rec["status"] = status = "received"
        else:
            rid = rng.choice(cands)
            pos = rng.choice(free_pos(rid))
            stored_ago = max(0, received_ago - rng.randint(0, 1))
            events.append([d(stored_ago), sid, "stored", rng.choice(STAFF), rid, pos])
            if status == "stored":
                positions[rid].add(pos)
                rec["rack_id"], rec["position"] = rid, pos
            elif status == "checked_out":
                who = holders.pop()
                out_ago = rng.randint(0, min(stored_ago, 12))
                events.append([d(out_ago), sid, "checked_out", who, rid, pos])
                rec["checked_out_to"] = who
                rec["return_due"] = d(out_ago - rng.randint(1, 14))
            else:
                positions[rid].add(pos)  # disposed later below, position released then
                rec["_was"] = (rid, pos, stored_ago)
    if status == "quarantined":
        rec["quarantine_reason"] = rng.choice(QREASONS)

# ------------------------------------------------------------------ test orders
ocount = 0


def fee_for(test, study, prio):
    m = Decimal("1.5") if prio == "stat" else Decimal("1")
    return money(Decimal(str(test["fee"])) * m * (Decimal(100) - Decimal(str(study["discount_pct"]))) / Decimal(100))


for sid, s in samples.items():
    compat = [c for c, t in tests.items() if s["specimen_type"] in t["specimen_types"]]
    rng.shuffle(compat)
    k = rng.choice([0, 1, 1, 2, 2, 3]) if s["status"] != "depleted" else rng.randint(1, 2)
    consumed = Decimal("0")
    coll_ago = (TODAY - dt.date.fromisoformat(s["collected_on"])).days
    rec_ago = (TODAY - dt.date.fromisoformat(s["received_on"])).days
    for code in compat[:k]:
        t, S = tests[code], studies[s["study_id"]]
        if s["status"] == "depleted":
            ostatus = "signed_off"
        elif s["status"] == "disposed":
            ostatus = rng.choice(["signed_off", "signed_off", "cancelled"])
        elif s["status"] == "received":
            ostatus = rng.choice(["ordered", "ordered", "in_progress", "resulted"])
        else:
            ostatus = rng.choice(["ordered", "in_progress", "resulted", "signed_off", "signed_off", "cancelled"])
        prio = "stat" if (t["department"] not in ("molecular", "histology") and rng.random() < 0.2) else "routine"
        ocount += 1
        oid = f"TO-{ocount:05d}"
        ordered_ago = rng.randint(0, rec_ago) if rec_ago else 0
        o = {"order_id": oid, "sample_id": sid, "study_id": s["study_id"], "test_code": code,
             "priority": prio, "status": ostatus, "ordered_on": d(ordered_ago),
             "volume_ml": t["volume_ml"], "fee": fee_for(t, S, prio), "result_value": None,
             "result_flag": None, "resulted_by": None, "resulted_on": None, "signed_off_by": None,
             "signed_off_on": None, "callback_to": None, "cancel_reason": None, "cancelled_on": None}
        consumed += Decimal(str(t["volume_ml"]))
        if ostatus in ("resulted", "signed_off"):
            lo, hi = t["ref_low"], t["ref_high"]
            r = rng.random()
            if r < 0.6:
                v = lo + (hi - lo) * rng.random()
            elif r < 0.8:
                v = hi * (1 + rng.random() * 0.8)
            elif r < 0.9 and lo > 0:
                v = lo * (0.55 + rng.random() * 0.4)
            else:
                v = hi * (2.1 + rng.random())
            v = round(v, 2)
            if v < lo * 0.5 or v > hi * 2:
                flag = "critical"
            elif v < lo:
                flag = "low"
            elif v > hi:
                flag = "high"
            else:
                flag = "normal"
            res_ago = rng.randint(0, ordered_ago)
            o.update(result_value=v, result_flag=flag, resulted_by=rng.choice(STAFF), resulted_on=d(res_ago))
            if ostatus == "signed_off":
                o["signed_off_by"] = rng.choice([x for x in STAFF if x != o["resulted_by"]])
                o["signed_off_on"] = d(rng.randint(0, res_ago))
                if flag == "critical":
                    o["callback_to"] = S["principal_investigator"]
        if ostatus == "cancelled":
            reason = rng.choice(["requested_by_sponsor", "sample_unsuitable", "duplicate_request", "lab_error"])
            o.update(cancel_reason=reason, cancelled_on=d(rng.randint(0, ordered_ago)))
            if rng.random() < 0.6 or reason == "lab_error":
                o["fee"] = 0.0   # cancelled before the analyser started, or lab error
                if rng.random() < 0.7:
                    consumed -= Decimal(str(t["volume_ml"]))  # aliquot went back to the sample
        S["billed_total"] = money(Decimal(str(S["billed_total"])) + Decimal(str(o["fee"])))
        orders.append(o)
    init = Decimal(str(s["initial_volume_ml"]))
    if s["status"] == "depleted":
        s["initial_volume_ml"] = float(consumed) if consumed > 0 else s["initial_volume_ml"]
        s["volume_ml"] = 0.0
    elif s["status"] == "disposed":
        if init < consumed:
            s["initial_volume_ml"] = float(consumed + Decimal("0.5"))
        s["volume_ml"] = 0.0
    else:
        if init <= consumed:
            init = consumed + Decimal(str(vol(0.5, 3.0)))
            s["initial_volume_ml"] = money(init)
        s["volume_ml"] = money(init - consumed)

# disposals
disp = list(DISPOSALS)
for sid, s in samples.items():
    if s["status"] != "disposed":
        continue
    method, reason = disp.pop()
    was = s.pop("_was", None)
    base = (TODAY - dt.date.fromisoformat(s["received_on"])).days
    ago = rng.randint(0, max(0, base - 1))
    if was:
        positions[was[0]].discard(was[1])
        ago = rng.randint(0, max(0, was[2] - 1))
    who = rng.choice(STAFF)
    s.update(disposed_on=d(ago), disposal_method=method, disposal_reason=reason, disposal_authorised_by=who)
    events.append([d(ago), sid, "disposed", who, was[0] if was else None, was[1] if was else None])
for s in samples.values():
    s.pop("_was", None)

for rid, r in racks.items():
    r["occupied"] = len(positions[rid])
# the two busiest in-service racks are filled to the brim (capacity refusals)
busy = sorted((r for r in racks.values() if r["status"] == "in_service"), key=lambda r: (-r["occupied"], r["rack_id"]))
for r in busy[:2]:
    r["capacity"] = r["occupied"]

# a few live samples run low on volume (insufficient-volume refusals, exact depletion)
low = [s for s in samples.values() if s["status"] in ("stored", "received")]
for s, left in zip(rng.sample(low, 5), [0.10, 0.10, 0.15, 0.20, 0.30]):
    s["initial_volume_ml"] = money(Decimal(str(s["initial_volume_ml"])) - Decimal(str(s["volume_ml"])) + Decimal(str(left)))
    s["volume_ml"] = left

# quotas: three open studies are full
for i, (st, S) in enumerate(studies.items()):
    S["sample_quota"] = S["samples_registered"] + rng.choice([3, 5, 8, 10, 20])
full = [st for st, S in studies.items() if S["status"] == "open"][:3]
for st in full:
    studies[st]["sample_quota"] = studies[st]["samples_registered"]

events.sort(key=lambda e: (e[0], e[1]))
custody = {}
for i, (day, sid, action, who, rid, pos) in enumerate(events, 1):
    eid = f"CE-{i:05d}"
    custody[eid] = {"event_id": eid, "sample_id": sid, "action": action, "performed_by": who,
                    "event_date": day, "rack_id": rid, "position": pos}

db = {
    "meta": {"today": TODAY.isoformat(), "organisation": "Larkmoor Clinical Research Laboratory",
             "system": "SampleTrack", "stat_multiplier": 1.5, "registration_window_days": 7,
             "max_checkout_days": 14, "max_checkouts_per_person": 5,
             "note": "today is the current date for every rule; new ids continue each collection's sequence"},
    "studies": studies,
    "tests": tests,
    "racks": racks,
    "samples": samples,
    "test_orders": {o["order_id"]: o for o in orders},
    "custody_events": custody,
}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as f:
    json.dump(db, f, indent=1)
print({k: len(v) for k, v in db.items() if k != "meta"})
