"""Generate db.json for the Copperleaf Food Share volunteer scheduling API.

Standard library only; the fixed seed makes the output identical on every run.
"""
import json
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 8123
TODAY = date(2025, 5, 21)
CERTS = ["food_safety", "first_aid", "forklift", "driver", "youth_safeguarding"]
HELD = ("confirmed", "checked_in", "completed", "no_show")
LIVE = ("confirmed", "waitlisted", "checked_in")

FIRST = ["Amara", "Bennett", "Cordelia", "Dario", "Esme", "Felix", "Gwen", "Hassan", "Isla", "Jasper",
         "Kalani", "Leon", "Mireille", "Nate", "Odalys", "Priya", "Quentin", "Rhea", "Silas", "Tamsin",
         "Ulrich", "Valentina", "Wendell", "Xiomara", "Yannick", "Zuri", "Abel", "Bianca", "Caspian",
         "Delphine", "Emeka", "Fiona", "Gideon", "Halima", "Ignatius", "Juno", "Kofi", "Lorna", "Matteo",
         "Noor", "Orson", "Paloma", "Rafferty", "Saoirse", "Tobias", "Una", "Viggo", "Willa", "Yara", "Zeke"]
LAST = ["Achebe", "Brennan", "Castellano", "Dunmore", "Ekwueme", "Fairweather", "Galloway", "Hollis",
        "Iwasaki", "Jankowski", "Kerrigan", "Lindgren", "Mbeki", "Nakashima", "Oyelaran", "Pemberton",
        "Quigley", "Rasmussen", "Sandoval", "Thorne", "Underhill", "Valdivia", "Whitlock", "Xu", "Yardley",
        "Zamora", "Abernathy", "Beaumont", "Calloway", "Desrosiers", "Eastwood", "Fontaine", "Grieve",
        "Halvorsen", "Ibarra", "Jessup", "Kowalczyk", "Lachance", "McCready", "Nwosu", "Okonjo", "Pruitt",
        "Redfern", "Strand", "Tavares", "Umeh", "Vasquez", "Winslow", "Yeboah", "Zielinski"]
DOMAINS = ["mailbox.test", "example.org", "example.net", "inbox.test"]
SUSPENDED = {6, 19, 33, 44}
INACTIVE = {12, 27, 38, 48}
MINORS = {4, 17, 29, 41}
TWO_STRIKES = {2, 15, 22, 36}

EVENTS = [
    ("Eastside Saturday Pantry", "Eastside Community Hall", "Millbrook"),
    ("Warehouse Sort Days", "Copperleaf Central Warehouse", "Millbrook"),
    ("Senior Meal Delivery", "Copperleaf Central Warehouse", "Millbrook"),
    ("Harlow Point Mobile Market", "Harlow Point Library Lot", "Harlow Point"),
    ("Community Kitchen Lunches", "St. Brigid's Kitchen", "Ashford Falls"),
    ("Summer Youth Snack Program", "Ashford Falls Rec Center", "Ashford Falls"),
    ("Dunmore Produce Rescue", "Dunmore Farmers Market", "Dunmore"),
    ("Backpack Weekend Meals", "Millbrook Elementary", "Millbrook"),
    ("Holiday Box Packing", "Copperleaf Central Warehouse", "Millbrook"),
    ("Riverside Fresh Food Fair", "Riverside Park Pavilion", "Dunmore"),
    ("Northgate Pantry Evenings", "Northgate Church Basement", "Harlow Point"),
    ("Student Pantry Pop-up", "Ashford College Union", "Ashford Falls"),
    ("Spring Food Drive Intake", "Millbrook Civic Center", "Millbrook"),
    ("Soup Night", "St. Brigid's Kitchen", "Ashford Falls"),
    ("Diaper & Formula Bank", "Eastside Community Hall", "Millbrook"),
    ("Rural Route Deliveries", "Dunmore Grange Hall", "Dunmore"),
    ("Bulk Rice Repack", "Copperleaf Central Warehouse", "Millbrook"),
    ("Harvest Gleaning Crew", "Pellham Orchards", "Dunmore"),
    ("Winter Coat & Can Drive", "Harlow Point Fire Station", "Harlow Point"),
    ("Kids Cooking Club", "Ashford Falls Rec Center", "Ashford Falls"),
]
ARCHIVED_EV = {8, 12, 18}        # windows entirely in the past
FUTURE_EV = {17}                 # window opens after today
SHORT_EV = {13}                  # window closes within a week
YOUTH_EV = {5, 7, 19}
STARTS = ["07:00", "08:00", "08:30", "09:00", "10:00", "11:30", "12:00", "13:00", "14:00", "16:00", "17:30"]


def hm(t):
    return int(t[:2]) * 60 + int(t[3:])


def fmt(m):
    return "%02d:%02d" % (m // 60, m % 60)


def hours(minutes):
    return float((Decimal(minutes) / Decimal(60)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def level_for(h):
    return "newcomer" if h < 25 else ("regular" if h < 100 else "mainstay")


def age_on(dob, d):
    return d.year - dob.year - ((d.month, d.day) < (dob.month, dob.day))


def main():
    rng = random.Random(SEED)
    db = {"meta": {"today": TODAY.isoformat(), "organization": "Copperleaf Food Share",
                   "timezone": "America/Chicago"},
          "volunteers": {}, "events": {}, "shifts": {}, "signups": {}}

    # ------------------------------------------------------------ volunteers
    firsts, lasts = FIRST[:], LAST[:]
    rng.shuffle(lasts)
    for i in range(50):
        vid = "VOL-%d" % (1001 + i)
        fn, ln = firsts[i], lasts[i]
        if i in MINORS:
            age = rng.randint(14, 17)
        else:
            age = rng.randint(19, 74)
        dob = date(TODAY.year - age - 1, rng.randint(1, 12), rng.randint(1, 28))
        if age_on(dob, TODAY) != age:
            dob = date(dob.year + (age - age_on(dob, TODAY)), dob.month, dob.day)
        status = "suspended" if i in SUSPENDED else ("inactive" if i in INACTIVE else "active")
        strikes = 3 if status == "suspended" else (2 if i in TWO_STRIKES else rng.choice([0, 0, 0, 0, 1, 1]))
        band = rng.random()
        if i in MINORS:
            h = round(rng.uniform(0, 30), 2)
        elif band < 0.35:
            h = round(rng.uniform(0, 24.9), 2)
        elif band < 0.75:
            h = round(rng.uniform(25, 99.5), 2)
        else:
            h = round(rng.uniform(100, 260), 2)
        if i in (9, 24):
            h = round(rng.uniform(23.0, 24.9), 2)    # just short of the next level
        certs = []
        pool = CERTS[:] if age >= 18 else ["food_safety", "first_aid"]
        for code in rng.sample(pool, min(len(pool), rng.choice([0, 1, 1, 2, 2, 3]))):
            r = rng.random()
            if r < 0.2:
                exp = TODAY - timedelta(days=rng.randint(1, 200))
            elif r < 0.35:
                exp = TODAY + timedelta(days=rng.randint(3, 30))
            else:
                exp = TODAY + timedelta(days=rng.randint(60, 900))
            certs.append({"code": code, "expires_on": exp.isoformat()})
        if i in (1, 10, 20, 31, 45) and not any(c["code"] == "driver" for c in certs):
            certs.append({"code": "driver", "expires_on": (TODAY + timedelta(days=rng.randint(200, 700))).isoformat()})
        db["volunteers"][vid] = {
            "id": vid, "first_name": fn, "last_name": ln,
            "email": "%s.%s@%s" % (fn.lower(), ln.lower(), rng.choice(DOMAINS)),
            "phone": None if rng.random() < 0.2 else "555-%03d-%04d" % (rng.randint(200, 999), rng.randint(0, 9999)),
            "date_of_birth": dob.isoformat(), "status": status, "level": level_for(h),
            "certifications": certs, "hours_logged": h,
            "shifts_completed": int(h // 3.2) + (1 if h > 0 else 0),
            "no_show_strikes": strikes,
            "joined_on": (TODAY - timedelta(days=rng.randint(20, 2200))).isoformat(),
            "suspended_on": (TODAY - timedelta(days=rng.randint(2, 60))).isoformat() if status == "suspended" else None,
        }

    # ------------------------------------------------------------ events
    for i, (name, site, city) in enumerate(EVENTS):
        eid = "EV-%d" % (201 + i)
        if i in ARCHIVED_EV:
            end = TODAY - timedelta(days=rng.randint(3, 12))
            start = end - timedelta(days=rng.randint(20, 60))
            status = "archived"
        elif i in FUTURE_EV:
            start = TODAY + timedelta(days=rng.randint(10, 20))
            end = start + timedelta(days=rng.randint(30, 60))
            status = "active"
        elif i in SHORT_EV:
            start = TODAY - timedelta(days=rng.randint(30, 50))
            end = TODAY + timedelta(days=rng.randint(4, 7))
            status = "active"
        else:
            start = TODAY - timedelta(days=rng.randint(20, 60))
            end = TODAY + timedelta(days=rng.randint(50, 110))
            status = "active"
        db["events"][eid] = {"id": eid, "name": name, "site_name": site, "city": city,
                             "start_date": start.isoformat(), "end_date": end.isoformat(),
                             "status": status,
                             "coordinator_email": "%s@copperleaf.test" % name.split()[0].lower()}

    # ------------------------------------------------------------ shifts
    evs = sorted(db["events"])
    active_ev = [e for e in evs if db["events"][e]["status"] == "active"]
    now_ev = [e for e in active_ev if db["events"][e]["start_date"] <= TODAY.isoformat()]
    plan = []
    for k in range(60):
        if k < 6:
            cat = "today"
        elif k < 20:
            cat = "past"
        else:
            cat = "future"
        plan.append(cat)
    rng.shuffle(plan)
    cancel_idx = set(rng.sample([k for k in range(60) if plan[k] == "future"], 4)
                     + rng.sample([k for k in range(60) if plan[k] == "past"], 1))
    for k, cat in enumerate(plan):
        sid = "SH-%d" % (3001 + k)
        if cat == "today":
            eid = rng.choice(now_ev)
            d = TODAY
        elif cat == "past":
            eid = rng.choice(now_ev + sorted(set(evs) - set(active_ev)))
            ev = db["events"][eid]
            lo = max(date.fromisoformat(ev["start_date"]), TODAY - timedelta(days=25))
            hi = min(date.fromisoformat(ev["end_date"]), TODAY - timedelta(days=1))
            d = lo + timedelta(days=rng.randint(0, max(0, (hi - lo).days)))
        else:
            eid = rng.choice(active_ev)
            ev = db["events"][eid]
            lo = max(date.fromisoformat(ev["start_date"]), TODAY + timedelta(days=1))
            hi = min(date.fromisoformat(ev["end_date"]), TODAY + timedelta(days=85))
            d = lo + timedelta(days=rng.randint(0, max(0, (hi - lo).days)))
        ei = evs.index(eid)
        role = rng.choice(["intake", "sorting", "sorting", "distribution", "distribution", "kitchen",
                           "kitchen", "driving", "team_lead"])
        cert, min_age = None, rng.choice([14, 16, 16, 18])
        if role == "kitchen":
            cert = "food_safety" if rng.random() < 0.8 else None
            min_age = 16
        elif role == "driving":
            cert, min_age = "driver", 21
        elif role == "team_lead":
            cert, min_age = (rng.choice(["first_aid", None])), 18
        elif role == "sorting" and rng.random() < 0.25:
            cert, min_age = "forklift", 18
        if ei in YOUTH_EV and role in ("intake", "distribution", "team_lead"):
            cert, min_age = "youth_safeguarding", 18
        start = hm(rng.choice(STARTS))
        end = start + 30 * rng.randint(4, 10)
        shift = {"id": sid, "event_id": eid, "date": d.isoformat(), "start_time": fmt(start),
                 "end_time": fmt(end), "role": role, "capacity": rng.randint(2, 10),
                 "required_certification": cert, "min_age": min_age, "filled_count": 0,
                 "waitlist_count": 0, "status": "scheduled", "cancel_reason": None, "cancelled_on": None}
        if k in cancel_idx:
            shift["status"] = "cancelled"
            shift["cancel_reason"] = rng.choice(["weather", "low_turnout", "site_unavailable", "staffing"])
            shift["cancelled_on"] = (min(d, TODAY) - timedelta(days=rng.randint(1, 5))).isoformat()
        db["shifts"][sid] = shift

    # ------------------------------------------------------------ sign-ups
    vols = db["volunteers"]
    booked = {v: [] for v in vols}          # volunteer -> [(date, start, end)] of non-cancelled sign-ups
    counter = [5001]

    def eligible(v, sh):
        vol = vols[v]
        d = date.fromisoformat(sh["date"])
        if age_on(date.fromisoformat(vol["date_of_birth"]), d) < sh["min_age"]:
            return False
        if sh["required_certification"] and not any(
                c["code"] == sh["required_certification"] and c["expires_on"] >= sh["date"]
                for c in vol["certifications"]):
            return False
        if sh["role"] == "team_lead" and vol["level"] == "newcomer":
            return False
        s, e = hm(sh["start_time"]), hm(sh["end_time"])
        return not any(bd == sh["date"] and bs < e and s < be for bd, bs, be in booked[v])

    def add(sh, v, status, **extra):
        suid = "SU-%d" % counter[0]
        counter[0] += 1
        d = date.fromisoformat(sh["date"])
        signed = min(d, TODAY) - timedelta(days=rng.randint(2, 20))
        rec = {"id": suid, "shift_id": sh["id"], "volunteer_id": v, "status": status,
               "signed_up_on": signed.isoformat(), "check_in_time": None, "check_out_time": None,
               "hours_credited": None, "cancel_reason": None, "cancelled_on": None}
        rec.update(extra)
        db["signups"][suid] = rec
        if status != "cancelled":
            booked[v].append((sh["date"], hm(sh["start_time"]), hm(sh["end_time"])))
        if status in HELD:
            sh["filled_count"] += 1
        elif status == "waitlisted":
            sh["waitlist_count"] += 1
        return rec

    sids = sorted(db["shifts"], key=lambda s: (db["shifts"][s]["date"], db["shifts"][s]["start_time"], s))
    upcoming = [s for s in sids if db["shifts"][s]["date"] >= TODAY.isoformat()
                and db["shifts"][s]["status"] == "scheduled"]
    open_pool = [s for s in upcoming if db["shifts"][s]["required_certification"] is None
                 and db["shifts"][s]["role"] != "team_lead" and db["shifts"][s]["min_age"] <= 16]
    full = set(rng.sample(open_pool, 7))
    big_wait = sorted(full)[0]
    yesterday_shift = None
    two_strike_ids = {"VOL-%d" % (1001 + i) for i in TWO_STRIKES}
    seen_conf = set()
    for sid in sids:
        sh = db["shifts"][sid]
        d = date.fromisoformat(sh["date"])
        cat = "past" if d < TODAY else ("today" if d == TODAY else "future")
        pool = [v for v in sorted(vols) if eligible(v, sh)]
        rng.shuffle(pool)
        if sh["status"] == "scheduled" and sid not in full and cat != "future":
            # two-strike volunteers get a past or same-day confirmed spot (one more strike suspends them)
            pool.sort(key=lambda v: 0 if v in two_strike_ids and v not in seen_conf else 1)
        if cat == "future" or cat == "today":
            pool = [v for v in pool if vols[v]["status"] == "active"] + \
                   [v for v in pool if vols[v]["status"] == "suspended"][:1]
        if sh["status"] == "cancelled":
            for v in pool[:rng.randint(1, 3)]:
                add(sh, v, "cancelled", cancel_reason="shift_cancelled", cancelled_on=sh["cancelled_on"])
            continue
        if sid in full:
            sh["capacity"] = rng.randint(2, 3)
            n_held, n_wait = sh["capacity"], (5 if sid == big_wait else rng.randint(1, 3))
        else:
            lo = 1 if cat == "past" else 0
            n_held, n_wait = rng.randint(lo, min(4, sh["capacity"] - 1)), 0
        taken = 0
        for v in pool:
            if taken >= n_held + n_wait:
                break
            vol = vols[v]
            if vol["status"] == "suspended" and cat != "past":
                add(sh, v, "cancelled", cancel_reason="volunteer_suspended", cancelled_on=vol["suspended_on"])
                continue
            if rng.random() < 0.12:
                if cat == "past" and rng.random() < 0.5:
                    add(sh, v, "cancelled", cancel_reason="late_withdrawal", cancelled_on=sh["date"])
                else:
                    add(sh, v, "cancelled", cancel_reason="volunteer_withdrew",
                        cancelled_on=(min(d, TODAY) - timedelta(days=1)).isoformat())
                continue
            if taken >= n_held:
                add(sh, v, "waitlisted")
            elif cat == "future":
                add(sh, v, "confirmed")
            elif v in two_strike_ids and cat != "future" and v not in seen_conf:
                seen_conf.add(v)
                add(sh, v, "confirmed")
            elif cat == "today":
                if v not in two_strike_ids and (taken == 0 or rng.random() < 0.4):
                    cin = hm(sh["start_time"]) + rng.choice([-20, -10, -5, 0, 5, 15])
                    add(sh, v, "checked_in", check_in_time=fmt(cin))
                else:
                    add(sh, v, "confirmed")
            else:
                r = rng.random()
                if d == TODAY - timedelta(days=1) and yesterday_shift is None:
                    yesterday_shift = sid
                    add(sh, v, "checked_in", check_in_time=fmt(hm(sh["start_time"]) - 5))
                elif r < 0.15:
                    add(sh, v, "no_show")
                elif r < 0.3:
                    add(sh, v, "confirmed")
                else:
                    s, e = hm(sh["start_time"]), hm(sh["end_time"])
                    cin = s + rng.choice([-25, -15, -5, 0, 10, 20])
                    cout = e + rng.choice([-45, -20, 0, 0, 10, 35])
                    credited = min(cout - max(cin, s), e - s)
                    add(sh, v, "completed", check_in_time=fmt(cin), check_out_time=fmt(cout),
                        hours_credited=hours(credited))
            taken += 1
    # a few people checked in today sit just below the next level, so check-out can promote them
    bumped = 0
    for r in sorted(db["signups"].values(), key=lambda r: r["id"]):
        vol = vols[r["volunteer_id"]]
        if r["status"] == "checked_in" and db["shifts"][r["shift_id"]]["date"] == TODAY.isoformat() \
                and vol["level"] != "mainstay" and bumped < 3:
            vol["hours_logged"] = round(rng.uniform(23.5, 24.9) if vol["level"] == "newcomer"
                                        else rng.uniform(98.5, 99.9), 2)
            vol["shifts_completed"] = int(vol["hours_logged"] // 3.2) + 1
            bumped += 1
    # re-number sign-ups in order of signed_up_on so that ids follow sign-up order
    recs = sorted(db["signups"].values(), key=lambda r: (r["signed_up_on"], r["id"]))
    by_shift = {}
    for r in recs:
        by_shift.setdefault(r["shift_id"], []).append(r)
    # waitlisted sign-ups must be later than every spot holder of their shift
    for lst in by_shift.values():
        last_held = max([r["signed_up_on"] for r in lst if r["status"] != "waitlisted"] or ["0000"])
        for r in lst:
            if r["status"] == "waitlisted" and r["signed_up_on"] <= last_held:
                r["signed_up_on"] = min(date.fromisoformat(last_held) + timedelta(days=1), TODAY).isoformat()
    recs = sorted(db["signups"].values(), key=lambda r: (r["signed_up_on"], r["status"] == "waitlisted", r["id"]))
    db["signups"] = {}
    for n, r in enumerate(recs):
        r["id"] = "SU-%d" % (5001 + n)
        db["signups"][r["id"]] = r

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")
    print({k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
