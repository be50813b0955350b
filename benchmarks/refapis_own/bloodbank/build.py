"""Generate db.json for the regional blood service reference API.

Deterministic (fixed seed), standard library only. Run: python3 build.py
"""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

TODAY = dt.date(2025, 3, 12)
R = random.Random(81273)
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
SHELF = {"whole_blood": 35, "plasma": 365, "platelets": 5}
FEE = {"whole_blood": Decimal("185.00"), "plasma": Decimal("92.50"), "platelets": Decimal("410.00")}
SURCHARGE = {"routine": Decimal("0"), "urgent": Decimal("0.10"), "emergency": Decimal("0.25")}
GROUPS = ["O+", "A+", "B+", "O-", "A-", "AB+", "B-", "AB-"]
GROUP_W = [35, 30, 9, 8, 7, 4, 4, 3]


def d(offset):
    return TODAY + dt.timedelta(days=offset)


def iso(x):
    return x.isoformat() if x else None


def age_on(birth, when):
    return when.year - birth.year - ((when.month, when.day) < (birth.month, birth.day))


def interval(last_type, sex):
    if last_type == "whole_blood":
        return 84 if sex == "F" else 56
    return 14 if last_type == "plasma" else 7


# ------------------------------------------------------------------ centres
centres = {}
for cid, name, city, cap, aph, closed, status in [
    ("CTR-01", "Northgate Donor Centre", "Halden", 8, True, ["Sunday"], "open"),
    ("CTR-02", "Riverside Donor Centre", "Halden", 6, False, ["Saturday", "Sunday"], "open"),
    ("CTR-03", "Old Market Hall", "Bramford", 5, False, ["Monday", "Sunday"], "open"),
    ("CTR-04", "St Brennan's Clinic", "Kelmarsh", 4, True, ["Saturday", "Sunday"], "open"),
    ("CTR-05", "Eastfield Community Rooms", "Eastfield", 6, False, [], "closed"),
    ("CTR-06", "Harbour Point Centre", "Port Ellery", 6, True, ["Wednesday", "Sunday"], "open"),
]:
    centres[cid] = {"centre_id": cid, "name": name, "city": city, "status": status,
                    "daily_capacity": cap, "closed_weekdays": closed, "apheresis": aph}
OPEN = [c for c in centres if centres[c]["status"] == "open"]
APH = [c for c in OPEN if centres[c]["apheresis"]]


def centre_day(cid, day, back=True):
    """Move day (backwards or forwards) until the centre is open on that weekday."""
    step = -1 if back else 1
    while WEEKDAYS[day.weekday()] in centres[cid]["closed_weekdays"]:
        day += dt.timedelta(days=step)
    return day


# ------------------------------------------------------------------ donors
F_NAMES = ["Amara", "Beth", "Clara", "Dana", "Elin", "Fiona", "Greta", "Hana", "Ines", "Julia", "Katya",
           "Lena", "Maeve", "Nadia", "Orla", "Priya", "Rosa", "Sofia", "Tess", "Yara", "Zoe", "Ada"]
M_NAMES = ["Aaron", "Bram", "Callum", "Dev", "Emil", "Felix", "Goran", "Hugo", "Idris", "Jonah", "Kofi",
           "Liam", "Matteo", "Niall", "Oskar", "Pavel", "Rory", "Samir", "Theo", "Victor", "Will", "Yusuf"]
LAST = ["Ashworth", "Baptiste", "Carver", "Doyle", "Ellison", "Ferreira", "Grant", "Holloway", "Iqbal",
        "Jansen", "Kowalski", "Lindqvist", "MacLeod", "Novak", "O'Brien", "Petrov", "Quinn", "Reyes",
        "Sandoval", "Thorne", "Umeh", "Vance", "Whitlock", "Yamada", "Zielinski", "Okafor", "Brennan"]
DOMAINS = ["mailbox.net", "postmail.org", "inbox.example", "webmail.com"]

donors = {}
emails = set()
N_DONORS = 100
for i in range(1, N_DONORS + 1):
    did = f"DNR-{i:04d}"
    sex = R.choice("FM")
    first = R.choice(F_NAMES if sex == "F" else M_NAMES)
    last = R.choice(LAST)
    base = f"{first}.{last}".lower().replace("'", "")
    email = f"{base}@{R.choice(DOMAINS)}"
    n = 2
    while email in emails:
        email = f"{base}{n}@{email.split('@')[1]}"
        n += 1
    emails.add(email)
    age = R.choice([19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58, 61, 63])
    birth = dt.date(TODAY.year - age, R.randint(1, 12), R.randint(1, 28))
    weight = R.randint(58, 112) if R.random() < 0.85 else R.randint(50, 59)
    donors[did] = {
        "donor_id": did, "first_name": first, "last_name": last, "email": email,
        "phone": f"+44 7700 9{R.randint(10000, 99999)}" if R.random() < 0.85 else None,
        "sex": sex, "birth_date": iso(birth),
        "blood_group": R.choices(GROUPS, GROUP_W)[0], "weight_kg": weight,
        "home_centre_id": R.choice(OPEN if R.random() < 0.9 else ["CTR-05"]),
        "status": "active", "deferred_until": None, "total_donations": R.randint(1, 40),
        "last_donation_date": None, "last_donation_type": None,
        "late_cancellations": R.choices([0, 1, 2, 3], [70, 15, 8, 7])[0],
        "registered_on": iso(d(-R.randint(200, 4000))),
    }

# Edge cases that the eligibility rules care about.
EDGE = {
    "DNR-0003": {"birth_date": "2007-03-20", "total_donations": 0},   # turns 18 on 2025-03-20
    "DNR-0008": {"birth_date": "1959-04-02", "total_donations": 0},   # first-timer turning 66 soon
    "DNR-0013": {"birth_date": "1955-03-25", "total_donations": 31},  # repeat donor turning 70
    "DNR-0017": {"birth_date": "1954-03-30", "total_donations": 44},  # repeat donor turning 71
    "DNR-0021": {"weight_kg": 48},
    "DNR-0026": {"weight_kg": 49},
    "DNR-0030": {"birth_date": "1960-06-11", "total_donations": 0},
    "DNR-0034": {"status": "permanently_deferred"},
    "DNR-0041": {"deferred_until": "2025-04-30"},
    "DNR-0047": {"deferred_until": "2025-03-28"},
    "DNR-0052": {"status": "permanently_deferred"},
    "DNR-0060": {"blood_group": "AB-"},
    "DNR-0061": {"blood_group": "O-"},
    "DNR-0062": {"blood_group": "O-"},
    "DNR-0063": {"blood_group": "O-"},
}
for did, patch in EDGE.items():
    donors[did].update(patch)
for did in ("DNR-0021", "DNR-0026"):
    donors[did]["late_cancellations"] = 0

# ------------------------------------------------------------------ past appointments / donations
appts = []   # dicts without ids, sorted and numbered later
HB_MIN = {"F": 12.5, "M": 13.0}


def add_appt(did, cid, day, dtype, status, **kw):
    a = {"donor_id": did, "centre_id": cid, "date": day, "donation_type": dtype, "status": status,
         "booked_on": kw.get("booked_on", day - dt.timedelta(days=R.randint(3, 30))),
         "cancelled_on": kw.get("cancelled_on"), "cancel_reason": kw.get("cancel_reason"),
         "hemoglobin_g_dl": kw.get("hb"), "unit_id": None}
    appts.append(a)
    return a


ids = sorted(donors)
skip_hist = {"DNR-0003", "DNR-0008", "DNR-0030"}
for did in ids:
    dn = donors[did]
    if did in skip_hist or dn["total_donations"] == 0:
        dn["total_donations"] = 0
        continue
    r = R.random()
    if r < 0.12 and dn["weight_kg"] >= 50:
        kind = "plasma"
    elif r < 0.26 and dn["weight_kg"] >= 60:
        kind = "platelets"
    else:
        kind = "whole_blood"
    if did in ("DNR-0061", "DNR-0077"):
        kind = "plasma"   # regular plasma donors with a fresh donation still in quarantine
    dates = []
    if (R.random() < 0.25 or dn["weight_kg"] < 50) and did not in ("DNR-0013", "DNR-0017"):
        # no donation in the recent window: only the counters remember it
        last = d(-R.randint(130, 900))
        dn["last_donation_date"], dn["last_donation_type"] = iso(last), "whole_blood"
        continue
    if kind == "whole_blood":
        cid = R.choice(OPEN)
        k = R.choice([R.randint(0, 3), R.randint(0, 40), R.randint(0, 40), R.randint(0, 110)])
        dates = [centre_day(cid, d(-k))]
        cids = [cid]
    else:
        cid = R.choice(APH)
        k = R.randint(0, 12) if kind == "plasma" else R.randint(0, 9)
        reps = R.choice([1, 1, 2])
        if did in ("DNR-0061", "DNR-0077"):
            k, reps = 1, 3
        dates, cids = [], []
        for _ in range(reps):
            day = centre_day(cid, d(-k))
            dates.append(day)
            cids.append(cid)
            k = (TODAY - day).days + R.randint(15 if kind == "plasma" else 8, 35)
    for day, cid in zip(dates, cids):
        hb = round(R.uniform(HB_MIN[dn["sex"]] + 0.1, 16.8), 1)
        add_appt(did, cid, day, kind, "attended", hb=hb)
    last = max(dates)
    dn["last_donation_date"], dn["last_donation_type"] = iso(last), kind
    dn["total_donations"] = max(dn["total_donations"], len(dates))

# On-site deferrals (low haemoglobin) and no-shows in the past.
quiet = [x for x in ids if donors[x]["status"] == "active" and x not in EDGE
         and (donors[x]["last_donation_date"] or "2000-01-01") < iso(d(-120))]
for did in R.sample(quiet, 6):
    dn = donors[did]
    cid = R.choice(OPEN)
    day = centre_day(cid, d(-R.randint(3, 45)))
    add_appt(did, cid, day, "whole_blood", "deferred", hb=round(HB_MIN[dn["sex"]] - R.uniform(0.3, 1.5), 1))
    until = day + dt.timedelta(days=28)
    cur = dn["deferred_until"]
    dn["deferred_until"] = max(cur, iso(until)) if cur else iso(until)
for did in R.sample(ids, 5):
    cid = R.choice(OPEN)
    add_appt(did, cid, centre_day(cid, d(-R.randint(2, 70))), "whole_blood", "no_show")
CANCEL_REASONS = ["donor_request", "illness", "travel"]
for did in R.sample(ids, 7):
    cid = R.choice(OPEN)
    day = centre_day(cid, d(-R.randint(2, 70)))
    add_appt(did, cid, day, "whole_blood", "cancelled", cancelled_on=day - dt.timedelta(days=R.randint(1, 3)),
             cancel_reason=R.choice(CANCEL_REASONS))


# ------------------------------------------------------------------ bookings (today and ahead)
def eligible(did, day, dtype, cid):
    dn, c = donors[did], centres[cid]
    if dn["status"] != "active" or dn["late_cancellations"] >= 3:
        return False
    if dn["deferred_until"] and iso(day) <= dn["deferred_until"]:
        return False
    age = age_on(dt.date.fromisoformat(dn["birth_date"]), day)
    if age < 18 or age > (65 if dn["total_donations"] == 0 else 70):
        return False
    if dn["weight_kg"] < (60 if dtype == "platelets" else 50):
        return False
    if dn["last_donation_date"]:
        gap = (day - dt.date.fromisoformat(dn["last_donation_date"])).days
        if gap < interval(dn["last_donation_type"], dn["sex"]):
            return False
    if c["status"] != "open" or WEEKDAYS[day.weekday()] in c["closed_weekdays"]:
        return False
    if dtype != "whole_blood" and not c["apheresis"]:
        return False
    return True


booked = set()
load = {}
for a in appts:
    if a["status"] != "cancelled":
        load[(a["centre_id"], a["date"])] = load.get((a["centre_id"], a["date"]), 0) + 1


def book(day, cid, dtype, want):
    made = 0
    pool = [x for x in ids if x not in booked]
    R.shuffle(pool)
    for did in pool:
        if made >= want or load.get((cid, day), 0) >= centres[cid]["daily_capacity"]:
            break
        if any(a["donor_id"] == did and a["date"] == day for a in appts):
            continue
        if eligible(did, day, dtype, cid):
            add_appt(did, cid, day, dtype, "booked", booked_on=d(-R.randint(0, 20)) if day > TODAY
                     else d(-R.randint(1, 20)))
            booked.add(did)
            load[(cid, day)] = load.get((cid, day), 0) + 1
            made += 1


# today's clinics (Wednesday: Harbour Point is shut)
for cid, n in [("CTR-01", 4), ("CTR-02", 3), ("CTR-03", 2), ("CTR-04", 2)]:
    book(TODAY, cid, "whole_blood", n)
book(TODAY, "CTR-01", "plasma", 1)
# apheresis donors who gave in the last two days come back in a few weeks
for did in ids:
    dn = donors[did]
    if dn["last_donation_type"] in ("plasma", "platelets") and dn["last_donation_date"] >= iso(d(-1)) \
            and did not in booked:
        cid = R.choice(APH)
        for k in range(16, 40):
            day = d(k)
            if eligible(did, day, dn["last_donation_type"], cid):
                add_appt(did, cid, day, dn["last_donation_type"], "booked", booked_on=d(-R.randint(0, 1)))
                booked.add(did)
                load[(cid, day)] = load.get((cid, day), 0) + 1
                break
# full days
book(d(1), "CTR-02", "whole_blood", 6)
book(d(2), "CTR-04", "whole_blood", 4)
book(d(6), "CTR-03", "whole_blood", 5)
# scattered future bookings
for _ in range(8):
    cid = R.choice(OPEN)
    dtype = "whole_blood" if not centres[cid]["apheresis"] or R.random() < 0.6 else R.choice(["plasma", "platelets"])
    book(centre_day(cid, d(R.randint(1, 40)), back=False), cid, dtype, 1)
# cancelled future bookings (the closed Eastfield rooms cancelled theirs)
for did in R.sample(ids, 4):
    add_appt(did, "CTR-05", d(R.randint(2, 20)), "whole_blood", "cancelled", booked_on=d(-40),
             cancelled_on=d(-R.randint(5, 20)), cancel_reason="centre_request")
for did in R.sample(ids, 3):
    cid = R.choice(OPEN)
    add_appt(did, cid, centre_day(cid, d(R.randint(1, 30)), back=False), "whole_blood", "cancelled",
             booked_on=d(-12), cancelled_on=d(-R.randint(0, 5)), cancel_reason=R.choice(CANCEL_REASONS))

appts.sort(key=lambda a: (a["date"], a["booked_on"], a["donor_id"]))
appointments = {}
for i, a in enumerate(appts, 1):
    aid = f"APT-{i:04d}"
    a["appointment_id"] = aid
    appointments[aid] = a

# ------------------------------------------------------------------ units
units = {}
attended = [a for a in appts if a["status"] == "attended"]
VOL = {"whole_blood": (420, 480), "plasma": (600, 850), "platelets": (200, 350)}
reactive_donors = set()
for i, a in enumerate(attended, 1):
    uid = f"UNIT-{i:04d}"
    dn = donors[a["donor_id"]]
    col = a["date"]
    exp = col + dt.timedelta(days=SHELF[a["donation_type"]])
    u = {"unit_id": uid, "donor_id": a["donor_id"], "appointment_id": a["appointment_id"],
         "centre_id": a["centre_id"], "component": a["donation_type"], "blood_group": dn["blood_group"],
         "volume_ml": R.randint(*VOL[a["donation_type"]]), "collected_on": col, "expires_on": exp,
         "status": "quarantined", "test_result": "pending", "released_on": None, "request_id": None,
         "dispatched_on": None, "discarded_on": None, "discard_reason": None}
    a["unit_id"] = uid
    age = (TODAY - col).days
    if age <= 1 or (age <= 3 and R.random() < 0.6):
        pass  # still in quarantine
    elif (R.random() < 0.04 or i in (7, 29)) and a["donor_id"] not in booked:
        u.update(status="discarded", test_result="reactive", discarded_on=col + dt.timedelta(days=2),
                 discard_reason="reactive_test")
        reactive_donors.add(a["donor_id"])
    else:
        u.update(status="available", test_result="negative", released_on=col + dt.timedelta(days=R.randint(1, 2)))
    units[uid] = u

# a quarantined platelet unit that has outlived its shelf life, waiting for a decision
late = [u for u in units.values() if u["component"] == "platelets" and (TODAY - u["collected_on"]).days >= 6]
if late:
    late[-1].update(status="quarantined", test_result="pending", released_on=None)
for did in reactive_donors:
    donors[did]["status"] = "permanently_deferred"

# expired stock: most whole blood / platelets past expiry left the shelf (dispatched or discarded)
expired_left = 0
for u in sorted(units.values(), key=lambda x: x["unit_id"]):
    if u["status"] != "available":
        continue
    if u["expires_on"] < TODAY:
        if R.random() < 0.6:
            u["status"] = "to_dispatch"
        elif expired_left < 3:
            expired_left += 1   # missed by the shelf check; still available although expired
        else:
            u.update(status="discarded", discarded_on=u["expires_on"] + dt.timedelta(days=1),
                     discard_reason="expired")
    else:
        r = R.random()
        if r < 0.2:
            u["status"] = "to_dispatch"
        elif r < 0.38:
            u["status"] = "to_reserve"
if not any(u["discard_reason"] == "damaged" for u in units.values()):
    for u in sorted(units.values(), key=lambda x: x["unit_id"]):
        if u["status"] == "available" and u["component"] == "plasma":
            u.update(status="discarded", discarded_on=TODAY - dt.timedelta(days=2), discard_reason="damaged")
            break

# ------------------------------------------------------------------ hospitals and requests
hospitals = {}
for hid, name, city, status, disc, limit, bal, recv in [
    ("HSP-01", "Halden Royal Infirmary", "Halden", "active", 10, 60000, 18430.75, 412),
    ("HSP-02", "Bramford General Hospital", "Bramford", "active", 5, 30000, 9120.00, 188),
    ("HSP-03", "Kelmarsh Community Hospital", "Kelmarsh", "active", 0, 8000, 8640.50, 57),
    ("HSP-04", "Port Ellery Maternity Unit", "Port Ellery", "active", 0, 12000, 2310.25, 64),
    ("HSP-05", "St Ives Children's Hospital", "Halden", "active", 5, 20000, 4411.40, 96),
    ("HSP-06", "Eastfield Private Clinic", "Eastfield", "suspended", 0, 5000, 7250.00, 21),
    ("HSP-07", "Northern Cardiac Centre", "Halden", "active", 10, 40000, 26998.10, 233),
    ("HSP-08", "Bramford Orthopaedic Hospital", "Bramford", "active", 0, 10000, 10480.00, 40),
]:
    hospitals[hid] = {"hospital_id": hid, "name": name, "city": city, "status": status,
                      "contract_discount_pct": disc, "credit_limit": float(limit), "balance_due": bal,
                      "units_received": recv}
ACTIVE_H = [h for h in hospitals if hospitals[h]["status"] == "active"]


def fee(n, comp, prio, hid):
    disc = Decimal(hospitals[hid]["contract_discount_pct"])
    v = n * FEE[comp] * (1 + SURCHARGE[prio]) * (100 - disc) / 100
    return float(v.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


reqs = []


def chunks(status):
    groups = {}
    for u in sorted(units.values(), key=lambda x: (x["collected_on"], x["unit_id"])):
        if u["status"] == status:
            groups.setdefault((u["component"], u["blood_group"]), []).append(u)
    out = []
    for key in sorted(groups):
        lst = groups[key]
        while lst:
            k = R.randint(1, 3)
            out.append((key, lst[:k]))
            lst = lst[k:]
    return out


for (comp, grp), us in chunks("to_dispatch"):
    hid = R.choice(ACTIVE_H + ["HSP-06"])
    prio = R.choices(["routine", "urgent", "emergency"], [6, 3, 1])[0]
    ready = max(u["released_on"] for u in us)
    last_ok = min(u["expires_on"] for u in us)
    disp = min(ready + dt.timedelta(days=R.randint(0, 3)), last_ok, TODAY - dt.timedelta(days=1))
    disp = max(disp, ready)
    created = disp - dt.timedelta(days=0 if prio == "emergency" else R.randint(1, 3))
    needed = disp if prio != "routine" else disp + dt.timedelta(days=R.randint(0, 2))
    for u in us:
        u.update(status="dispatched", dispatched_on=disp)
    reqs.append({"hospital_id": hid, "component": comp, "blood_group": grp, "units_requested": len(us),
                 "priority": prio, "needed_by": needed, "status": "dispatched", "units": us,
                 "units_dispatched": len(us), "created_on": created, "dispatched_on": disp,
                 "cancelled_on": None, "cancel_reason": None, "total_fee": fee(len(us), comp, prio, hid)})

active_keys = set()
for (comp, grp), us in chunks("to_reserve"):
    hs = [h for h in ACTIVE_H if (h, comp, grp) not in active_keys]
    if not hs:
        for u in us:
            u["status"] = "available"
        continue
    hid = R.choice(hs)
    active_keys.add((hid, comp, grp))
    last_ok = min(u["expires_on"] for u in us)
    prio = R.choices(["routine", "urgent"], [3, 2])[0]
    horizon = 14 if prio == "routine" else 3
    needed = min(last_ok, d(R.randint(1, horizon)))
    created = TODAY - dt.timedelta(days=R.randint(0, 2))
    extra = R.choice([0, 0, 1, 2])
    for u in us:
        u["status"] = "reserved"
    reqs.append({"hospital_id": hid, "component": comp, "blood_group": grp,
                 "units_requested": len(us) + extra, "priority": prio, "needed_by": needed,
                 "status": "reserved" if extra == 0 else "partially_reserved", "units": us,
                 "units_dispatched": 0, "created_on": created, "dispatched_on": None, "cancelled_on": None,
                 "cancel_reason": None, "total_fee": None})

OPEN_REQS = [("HSP-01", "whole_blood", "O+", 3, "routine", 5), ("HSP-02", "whole_blood", "A+", 2, "urgent", 2),
             ("HSP-04", "whole_blood", "AB-", 2, "emergency", 0), ("HSP-05", "plasma", "A+", 2, "routine", 9),
             ("HSP-07", "whole_blood", "B+", 4, "routine", 7), ("HSP-03", "platelets", "AB-", 1, "urgent", 1),
             ("HSP-08", "whole_blood", "O-", 2, "urgent", 1), ("HSP-05", "whole_blood", "A-", 1, "routine", -2),
             ("HSP-01", "plasma", "O+", 2, "routine", 12), ("HSP-02", "whole_blood", "B-", 2, "emergency", 0),
             ("HSP-07", "platelets", "O+", 1, "urgent", 0), ("HSP-04", "whole_blood", "O+", 2, "routine", -1)]
for hid, comp, grp, n, prio, off in OPEN_REQS:
    if (hid, comp, grp) in active_keys:
        continue
    active_keys.add((hid, comp, grp))
    reqs.append({"hospital_id": hid, "component": comp, "blood_group": grp, "units_requested": n,
                 "priority": prio, "needed_by": d(off), "status": "open", "units": [], "units_dispatched": 0,
                 "created_on": d(min(off, 0) - R.randint(0, 2)) if prio != "emergency" else TODAY,
                 "dispatched_on": None, "cancelled_on": None, "cancel_reason": None, "total_fee": None})
for hid, comp, grp, reason in [("HSP-02", "platelets", "A+", "no_longer_needed"),
                               ("HSP-06", "whole_blood", "O+", "duplicate"),
                               ("HSP-01", "whole_blood", "A-", "patient_transferred"),
                               ("HSP-05", "plasma", "B+", "no_longer_needed")]:
    created = d(-R.randint(3, 20))
    reqs.append({"hospital_id": hid, "component": comp, "blood_group": grp, "units_requested": R.randint(1, 3),
                 "priority": "routine", "needed_by": created + dt.timedelta(days=5), "status": "cancelled",
                 "units": [], "units_dispatched": 0, "created_on": created, "dispatched_on": None,
                 "cancelled_on": created + dt.timedelta(days=1), "cancel_reason": reason, "total_fee": None})

reqs.sort(key=lambda r: (r["created_on"], r["hospital_id"], r["component"], r["blood_group"]))
requests = {}
for i, r in enumerate(reqs, 1):
    rid = f"REQ-{i:04d}"
    us = r.pop("units")
    for u in us:
        u["request_id"] = rid
    rec = {"request_id": rid, **r, "unit_ids": [u["unit_id"] for u in us],
           "units_reserved": len(us) if r["status"] in ("reserved", "partially_reserved") else 0}
    requests[rid] = rec


# ------------------------------------------------------------------ serialise
def clean(o):
    if isinstance(o, dict):
        return {k: clean(v) for k, v in o.items()}
    if isinstance(o, list):
        return [clean(v) for v in o]
    if isinstance(o, dt.date):
        return o.isoformat()
    return o


APPT_KEYS = ["appointment_id", "donor_id", "centre_id", "date", "donation_type", "status", "booked_on",
             "cancelled_on", "cancel_reason", "hemoglobin_g_dl", "unit_id"]
REQ_KEYS = ["request_id", "hospital_id", "component", "blood_group", "units_requested", "priority",
            "needed_by", "status", "unit_ids", "units_reserved", "units_dispatched", "created_on",
            "dispatched_on", "cancelled_on", "cancel_reason", "total_fee"]
db = {
    "meta": {"today": iso(TODAY), "currency": "EUR",
             "note": "today is the current date for every rule; new ids continue each collection's sequence"},
    "centres": centres,
    "donors": donors,
    "appointments": {k: {f: v[f] for f in APPT_KEYS} for k, v in appointments.items()},
    "units": units,
    "hospitals": hospitals,
    "requests": {k: {f: v[f] for f in REQ_KEYS} for k, v in requests.items()},
}
db = clean(db)
assert all(u["status"] in ("quarantined", "available", "reserved", "dispatched", "discarded")
           for u in db["units"].values())
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as fh:
    json.dump(db, fh, indent=1, ensure_ascii=False)
    fh.write("\n")
