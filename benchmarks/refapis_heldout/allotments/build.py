"""Writes db.json for the Harrowfield allotments office API (stdlib only, fixed seed)."""
import json
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 20250616
TODAY = date(2025, 6, 16)
WATER_CHARGE = Decimal("22.00")
DISCOUNT = {"none": Decimal("0"), "senior": Decimal("0.50"), "low_income": Decimal("0.50"),
            "student": Decimal("0.25")}

FIRST = ["Margaret", "Tariq", "Joan", "Desmond", "Priya", "Owen", "Beatrice", "Kwame", "Siobhan",
         "Rahul", "Agnieszka", "Colin", "Yusuf", "Heather", "Dorothy", "Aled", "Mei", "Fergus",
         "Hannah", "Ravi", "Edith", "Tomasz", "Gwen", "Samuel", "Nadia", "Lionel", "Ruth", "Bashir",
         "Imogen", "Patrick", "Farah", "Gordon", "Leah", "Ian", "Zainab", "Malcolm", "Ellen", "Jun",
         "Rosalind", "Kieran", "Amara", "Bernard", "Sunita", "Declan", "Olive", "Victor"]
LAST = ["Whitlock", "Hussain", "Pemberton", "Achebe", "Nair", "Llewellyn", "Crane", "Mensah",
        "O'Rourke", "Sharma", "Kowalski", "Baxter", "Demir", "Fairbairn", "Huxley", "Pryce",
        "Chen", "MacLeod", "Rowntree", "Patel", "Gallagher", "Nowak", "Evans", "Okonjo",
        "Haddad", "Ashdown", "Bellamy", "Rahman", "Thistlewood", "Quinn", "Siddiqui", "Munro"]
SITES = [("S01", "Elm Lane", "Elm Lane, Harrowfield HF2 4QL", "0.42", 6, True),
         ("S02", "Rookery Fields", "Rookery Road, Harrowfield HF3 1DA", "0.38", 5, True),
         ("S03", "Canal Side", "Towpath Walk, Harrowfield HF1 8NE", "0.45", 4, True),
         ("S04", "Hatherley Road", "Hatherley Road, Harrowfield HF5 2JT", "0.40", 5, True),
         ("S05", "Mill Pond", "Mill Pond Lane, Upper Harrowfield HF7 3PB", "0.35", 4, False),
         ("S06", "St Agnes Glebe", "Church Walk, Harrowfield HF2 9RS", "0.48", 3, True)]
INSPECTORS = ["R. Oakley", "J. Birch", "S. Hollins", "M. Tanaka"]
NOTES = {"good": ["Well cultivated, paths clear.", "Excellent crops, no issues.", "Tidy and fully in use."],
         "fair": ["Mostly cultivated; weeds on the back third.", "Shed needs repair.", "Some rubbish by the gate."],
         "poor": ["Less than half cultivated.", "Overgrown with brambles.", "Bonfire waste and glass left on plot.",
                  "No sign of cultivation this season."]}


def money(d):
    return float(Decimal(d).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def rent(size, rate, water, conc):
    base = Decimal(size) * Decimal(str(rate)) * (1 - DISCOUNT[conc])
    return (base + (WATER_CHARGE if water else 0)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def d(x):
    return x.isoformat()


def renumber(db, coll, prefix, date_key, refs):
    order = sorted(db[coll], key=lambda k: (db[coll][k][date_key], k))
    new_id = {old: "%s%04d" % (prefix, i + 1) for i, old in enumerate(order)}
    db[coll] = {new_id[k]: dict(db[coll][k], id=new_id[k]) for k in order}
    for other, field in refs:
        for rec in db[other].values():
            if rec.get(field) is not None:
                rec[field] = new_id[rec[field]]


def main():
    rng = random.Random(SEED)
    db = {"meta": {"today": d(TODAY), "council": "Harrowfield Borough Council",
                   "service": "Allotments and Community Growing"},
          "sites": {}, "plots": {}, "gardeners": {}, "waiting_list": {}, "tenancies": {},
          "inspections": {}, "payments": {}, "key_loans": {}}
    for sid, name, addr, rate, keys, accepting in SITES:
        db["sites"][sid] = {"id": sid, "name": name, "address": addr, "rate_per_m2": float(rate),
                            "accepting_applications": accepting, "keys_total": keys, "keys_out": 0,
                            "vacant_plots": 0, "waiting_count": 0}
    # plots
    pn = 0
    per_site = {"S01": 24, "S02": 22, "S03": 18, "S04": 20, "S05": 16, "S06": 14}
    for sid, cnt in per_site.items():
        for k in range(cnt):
            pn += 1
            pid = "P%03d" % pn
            row = "ABCD"[k // 8]
            size = rng.choice([60, 75, 100, 125, 125, 150, 200, 250, 250])
            db["plots"][pid] = {"id": pid, "site_id": sid, "label": "%s%02d" % (row, k % 8 + 1),
                                "size_m2": size, "water_tap": rng.random() < 0.55, "status": "let",
                                "current_tenancy_id": None, "last_inspected_on": None}
    plots = sorted(db["plots"])
    for pid in plots:
        r = rng.random()
        p = db["plots"][pid]
        if r < 0.13:
            p["status"] = "vacant"
        elif r < 0.19:
            p["status"] = "clearance"
        elif r < 0.23:
            p["status"] = "withdrawn"
    # every site but S06 keeps at least two vacant plots; S06 is full
    for sid in per_site:
        sp = [p for p in plots if db["plots"][p]["site_id"] == sid]
        if sid == "S06":
            for p in sp:
                if db["plots"][p]["status"] == "vacant":
                    db["plots"][p]["status"] = "let"
            continue
        vac = [p for p in sp if db["plots"][p]["status"] == "vacant"]
        for p in sp:
            if len(vac) >= 2:
                break
            if db["plots"][p]["status"] == "let":
                db["plots"][p]["status"] = "vacant"
                vac.append(p)
    # gardeners
    names = set()
    gid_n = 0
    hh_n = 100

    def new_gardener(conc=None, hh=None, reg=None):
        nonlocal gid_n, hh_n
        while True:
            nm = "%s %s" % (rng.choice(FIRST), rng.choice(LAST))
            if nm not in names:
                names.add(nm)
                break
        gid_n += 1
        gid = "G%04d" % gid_n
        if conc is None:
            conc = rng.choices(["none", "senior", "low_income", "student"], [55, 22, 15, 8])[0]
        if conc == "senior":
            dob = date(rng.randint(1938, 1958), rng.randint(1, 12), rng.randint(1, 28))
        elif conc == "student":
            dob = date(rng.randint(1999, 2006), rng.randint(1, 12), rng.randint(1, 28))
        else:
            dob = date(rng.randint(1960, 2003), rng.randint(1, 12), rng.randint(1, 28))
        if hh is None:
            hh_n += rng.randint(1, 4)
            hh = "H%03d" % hh_n
        email = "%s.%s@%s" % (nm.split()[0].lower(), nm.split()[1].lower().replace("'", ""),
                              rng.choice(["mailbox.co.uk", "harrowfield.net", "postmail.com", "greenpost.org"]))
        db["gardeners"][gid] = {
            "id": gid, "name": nm, "email": email,
            "phone": "07%03d %06d" % (rng.randint(100, 999), rng.randint(0, 999999)),
            "date_of_birth": d(dob), "household_id": hh, "concession": conc, "status": "active",
            "barred_until": None,
            "registered_on": d(reg or (TODAY - timedelta(days=rng.randint(200, 4000)))),
            "current_tenancy_id": None}
        return gid

    tn = 0

    def add_tenancy(pid, gid, start, status):
        nonlocal tn
        tn += 1
        tid = "T%04d" % tn
        p = db["plots"][pid]
        g = db["gardeners"][gid]
        ar = rent(p["size_m2"], db["sites"][p["site_id"]]["rate_per_m2"], p["water_tap"], g["concession"])
        if start.year == TODAY.year:
            due = start + timedelta(days=30)
            charge = (ar * (13 - start.month) / 12).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        else:
            due = date(TODAY.year, 1, 31)
            charge = ar
        db["tenancies"][tid] = {"id": tid, "plot_id": pid, "gardener_id": gid, "site_id": p["site_id"],
                                "start_date": d(start), "status": status, "annual_rent": float(ar),
                                "balance_due": float(charge), "rent_due_on": d(due), "warnings": 0,
                                "notice_served_on": None, "notice_reason": None, "eviction_date": None,
                                "ended_on": None, "refund_due": None}
        return tid

    live = []
    for pid in plots:
        p = db["plots"][pid]
        if p["status"] != "let":
            continue
        gid = new_gardener()
        g = db["gardeners"][gid]
        if rng.random() < 0.12:
            start = TODAY - timedelta(days=rng.randint(20, 160))
        else:
            start = date(rng.randint(2009, 2024), rng.randint(1, 12), 1)
        g["registered_on"] = d(min(date.fromisoformat(g["registered_on"]), start - timedelta(days=rng.randint(30, 900))))
        tid = add_tenancy(pid, gid, start, "active")
        p["current_tenancy_id"] = tid
        g["current_tenancy_id"] = tid
        live.append(tid)
        if rng.random() < 0.08:  # partner in the same household, no tenancy
            new_gardener(hh=g["household_id"])
    # ended tenancies: every clearance plot (eviction), some vacant plots and some re-let plots
    vac_plots = [p for p in plots if db["plots"][p]["status"] == "vacant"]
    ended = [p for p in plots if db["plots"][p]["status"] == "clearance"] + rng.sample(vac_plots, 7)
    ended += rng.sample([p for p in plots if db["plots"][p]["status"] == "let"], 5)
    ex_tenants = []
    for pid in ended:
        p = db["plots"][pid]
        evicted = p["status"] == "clearance" or rng.random() < 0.25
        gid = new_gardener()
        if p["status"] == "clearance":
            end = TODAY - timedelta(days=rng.randint(3, 60))
        elif p["status"] == "let":
            cur = date.fromisoformat(db["tenancies"][p["current_tenancy_id"]]["start_date"])
            end = cur - timedelta(days=rng.randint(10, 200))
        else:
            end = TODAY - timedelta(days=rng.randint(100, 1300))
        start = date(end.year - rng.randint(1, 8), rng.randint(1, 12), 1)
        tid = add_tenancy(pid, gid, start, "evicted" if evicted else "surrendered")
        t = db["tenancies"][tid]
        t["ended_on"] = d(end)
        t["rent_due_on"] = d(date(end.year, 1, 31))
        if evicted:
            t["notice_served_on"] = d(end - timedelta(days=rng.randint(28, 50)))
            t["notice_reason"] = rng.choice(["cultivation", "arrears"])
            t["eviction_date"] = d(date.fromisoformat(t["notice_served_on"]) + timedelta(days=28))
            t["warnings"] = rng.randint(2, 4) if t["notice_reason"] == "cultivation" else rng.randint(0, 1)
            t["balance_due"] = t["annual_rent"] if t["notice_reason"] == "arrears" else 0.0
            t["refund_due"] = 0.0
            g = db["gardeners"][gid]
            bar = date(end.year + 3, end.month, 28 if (end.month, end.day) == (2, 29) else end.day)
            g["barred_until"] = d(bar)
            if bar > TODAY:
                g["status"] = "barred"
        else:
            t["balance_due"] = 0.0
            t["refund_due"] = money(Decimal(str(t["annual_rent"])) * (12 - end.month) / 12)
            ex_tenants.append((gid, end))
    # rent position of live tenancies
    for tid in live:
        t = db["tenancies"][tid]
        r = rng.random()
        owed = Decimal(str(t["balance_due"]))
        start = date.fromisoformat(t["start_date"])
        recent = start.year == TODAY.year
        if r < 0.70:
            paid = owed
        elif r < 0.82 and not recent:
            paid = Decimal("0")
        elif r < 0.90:
            paid = (owed * Decimal(rng.choice(["0.25", "0.5", "0.6"]))).quantize(Decimal("0.01"))
        else:
            paid = Decimal("0")
        t["balance_due"] = float(owed - paid)
        if paid > 0:
            pay_day = date.fromisoformat(t["rent_due_on"]) - timedelta(days=rng.randint(0, 25))
            pay_day = max(pay_day, start, date(TODAY.year, 1, 2))
            pay_day = min(pay_day, TODAY)
            rid = "R%04d" % (len(db["payments"]) + 1)
            db["payments"][rid] = {"id": rid, "tenancy_id": tid, "amount": float(paid),
                                   "method": rng.choice(["card", "card", "bank_transfer", "cash", "cheque"]),
                                   "paid_on": d(pay_day)}
    # warnings and notices
    for tid in live:
        t = db["tenancies"][tid]
        if date.fromisoformat(t["start_date"]) > TODAY - timedelta(days=60):
            continue
        r = rng.random()
        if r < 0.14:
            t["warnings"] = 1
        elif r < 0.24:
            t["warnings"] = rng.randint(2, 3)
    arrears = [t for t in live if db["tenancies"][t]["balance_due"] > 0
               and date.fromisoformat(db["tenancies"][t]["rent_due_on"]) < TODAY - timedelta(days=28)]
    cult = [t for t in live if db["tenancies"][t]["warnings"] >= 2]
    for tid in rng.sample(arrears, 4) + rng.sample([c for c in cult], 4):
        t = db["tenancies"][tid]
        if t["status"] == "on_notice":
            continue
        t["status"] = "on_notice"
        t["notice_reason"] = "arrears" if tid in arrears and (tid not in cult or rng.random() < 0.5) else "cultivation"
        served = TODAY - timedelta(days=rng.choice([5, 12, 20, 29, 33, 40]))
        t["notice_served_on"] = d(served)
        t["eviction_date"] = d(served + timedelta(days=28))
    # waiting list: fresh gardeners (and some housed / withdrawn history)
    wn = 0

    def add_wait(gid, sid, joined, status, closed=None):
        nonlocal wn
        wn += 1
        wid = "W%04d" % wn
        db["waiting_list"][wid] = {"id": wid, "gardener_id": gid, "site_id": sid, "joined_on": d(joined),
                                   "status": status, "closed_on": d(closed) if closed else None}
        return wid

    for tid in sorted(db["tenancies"]):
        t = db["tenancies"][tid]
        start = date.fromisoformat(t["start_date"])
        if rng.random() < 0.45:
            add_wait(t["gardener_id"], t["site_id"], start - timedelta(days=rng.randint(60, 700)), "housed",
                     start - timedelta(days=rng.randint(0, 25)))
    waiters = []
    rejoin = rng.sample(ex_tenants, 5)
    for k in range(36):
        if k < len(rejoin):
            gid, end = rejoin[k]
            joined = end + timedelta(days=rng.randint(30, max(31, (TODAY - end).days - 5)))
        else:
            joined = TODAY - timedelta(days=rng.randint(5, 1400))
            gid = new_gardener(reg=joined - timedelta(days=rng.randint(0, 10)))
        waiters.append(gid)
        sites = rng.sample(["S01", "S02", "S03", "S04", "S05", "S06"], rng.choice([1, 1, 2]))
        for i, sid in enumerate(sites):
            add_wait(gid, sid, joined + timedelta(days=i * rng.randint(0, 40)), "waiting")
    for gid in rng.sample(waiters, 6):
        add_wait(gid, rng.choice(["S01", "S02", "S03", "S04"]), TODAY - timedelta(days=rng.randint(400, 900)),
                 "withdrawn", TODAY - timedelta(days=rng.randint(30, 300)))
    for _ in range(4):  # registered, never on a list
        new_gardener(reg=TODAY - timedelta(days=rng.randint(1, 300)))
    # inspections
    insp = []
    for tid in live:
        t = db["tenancies"][tid]
        start = date.fromisoformat(t["start_date"])
        for _ in range(rng.choice([0, 1, 1, 2])):
            day = TODAY - timedelta(days=rng.randint(1, 330))
            if day < start:
                continue
            if t["warnings"] >= 1 and rng.random() < 0.6:
                out = "poor"
            else:
                out = rng.choices(["good", "fair", "poor"], [60, 30, 10])[0]
                if out == "poor" and t["warnings"] == 0:
                    out = "fair"
            insp.append((day, t["plot_id"], tid, out))
    insp.sort()
    for i, (day, pid, tid, out) in enumerate(insp):
        iid = "I%04d" % (i + 1)
        db["inspections"][iid] = {"id": iid, "plot_id": pid, "tenancy_id": tid, "inspected_on": d(day),
                                  "inspector": rng.choice(INSPECTORS), "outcome": out,
                                  "notes": rng.choice(NOTES[out])}
        p = db["plots"][pid]
        if p["last_inspected_on"] is None or p["last_inspected_on"] < d(day):
            p["last_inspected_on"] = d(day)
    # key loans
    kn = 0
    holders = [t for t in live]
    for tid in rng.sample(holders, 34):
        t = db["tenancies"][tid]
        kn += 1
        kid = "K%04d" % kn
        lent = TODAY - timedelta(days=rng.randint(15, 300))
        due = lent + timedelta(days=7)
        late = rng.random() < 0.3
        ret = due + timedelta(days=rng.randint(1, 14)) if late else lent + timedelta(days=rng.randint(0, 7))
        fee = min(Decimal("1.50") * (ret - due).days, Decimal("15.00")) if ret > due else Decimal("0")
        db["key_loans"][kid] = {"id": kid, "gardener_id": t["gardener_id"], "site_id": t["site_id"],
                                "lent_on": d(lent), "due_on": d(due), "status": "returned",
                                "returned_on": d(ret), "late_fee": float(fee)}
    out_cands = [t for t in live if db["tenancies"][t]["status"] == "on_notice"][:3]
    out_cands += rng.sample([t for t in live if db["tenancies"][t]["status"] == "active"], 8)
    for tid in out_cands:
        t = db["tenancies"][tid]
        s = db["sites"][t["site_id"]]
        if s["keys_out"] >= s["keys_total"] - (0 if t["site_id"] == "S06" else 1):
            continue
        kn += 1
        kid = "K%04d" % kn
        lent = TODAY - timedelta(days=rng.choice([1, 2, 4, 6, 9, 12, 20]))
        db["key_loans"][kid] = {"id": kid, "gardener_id": t["gardener_id"], "site_id": t["site_id"],
                                "lent_on": d(lent), "due_on": d(lent + timedelta(days=7)), "status": "out",
                                "returned_on": None, "late_fee": None}
        s["keys_out"] += 1
    # S06 keys all out
    s6 = db["sites"]["S06"]
    for tid in [t for t in live if db["tenancies"][t]["site_id"] == "S06"]:
        if s6["keys_out"] >= s6["keys_total"]:
            break
        gid = db["tenancies"][tid]["gardener_id"]
        if any(k["gardener_id"] == gid and k["status"] == "out" for k in db["key_loans"].values()):
            continue
        kn += 1
        kid = "K%04d" % kn
        lent = TODAY - timedelta(days=rng.randint(1, 5))
        db["key_loans"][kid] = {"id": kid, "gardener_id": gid, "site_id": "S06", "lent_on": d(lent),
                                "due_on": d(lent + timedelta(days=7)), "status": "out",
                                "returned_on": None, "late_fee": None}
        s6["keys_out"] += 1
    # counters
    for s in db["sites"].values():
        s["vacant_plots"] = sum(1 for p in db["plots"].values() if p["site_id"] == s["id"] and p["status"] == "vacant")
        s["waiting_count"] = sum(1 for w in db["waiting_list"].values()
                                 if w["site_id"] == s["id"] and w["status"] == "waiting")
    # ids follow the order in which records were created
    renumber(db, "tenancies", "T", "start_date", [("plots", "current_tenancy_id"),
             ("gardeners", "current_tenancy_id"), ("payments", "tenancy_id"), ("inspections", "tenancy_id")])
    renumber(db, "waiting_list", "W", "joined_on", [])
    renumber(db, "payments", "R", "paid_on", [])
    renumber(db, "key_loans", "K", "lent_on", [])
    for coll in ("gardeners", "plots"):
        db[coll] = {k: db[coll][k] for k in sorted(db[coll])}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
