"""Writes db.json for the Sunfold community solar reference API (deterministic, stdlib only)."""
import json
import os
import random
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

SEED = 4417
TODAY = date(2025, 6, 11)
UTILS = ["ridgeline_power", "lakeshore_electric", "tri_county_rec"]
UTIL_PREFIX = {"ridgeline_power": "RP", "lakeshore_electric": "LE", "tri_county_rec": "TC"}
UTIL_RATE = {"ridgeline_power": 0.1241, "lakeshore_electric": 0.1352, "tri_county_rec": 0.1186}

# (name, county, utility index, status, capacity_kw, last_posted_period)
GARDENS = [
    ("Cedar Hollow Solar Garden", "Alder", 0, "operational", 36, "2025-05"),
    ("Millrace Community Array", "Alder", 0, "operational", 24, "2025-05"),
    ("Heron Flats Solar", "Bexley", 1, "operational", 30, "2025-04"),
    ("Old Quarry Shared Solar", "Bexley", 1, "operational", 30, "2025-05"),
    ("Sugarbush Parking Canopy", "Corwin", 2, "under_construction", 24, None),
    ("Fairgrounds Solar Garden", "Corwin", 2, "operational", 30, "2025-05"),
    ("Willow Bend Array", "Alder", 0, "operational", 20, "2025-05"),
    ("Brickworks Rooftop Solar", "Bexley", 1, "retired", 20, "2024-10"),
    ("North Pasture Solar", "Corwin", 2, "operational", 48, "2025-04"),
    ("Lantern Hill Solar Garden", "Dunmore", 0, "operational", 40, "2025-05"),
    ("Riverside Depot Array", "Dunmore", 1, "operational", 24, "2025-03"),
    ("Granary Road Solar", "Corwin", 2, "under_construction", 36, None),
    ("Beacon School Rooftop", "Bexley", 1, "operational", 20, "2025-05"),
    ("Foxglove Meadow Solar", "Alder", 0, "operational", 30, "2025-04"),
    ("Tannery Lot Canopy", "Dunmore", 1, "operational", 30, "2025-05"),
    ("Stonewall Farm Solar", "Corwin", 2, "operational", 24, "2025-05"),
    ("Kestrel Ridge Array", "Dunmore", 0, "under_construction", 48, None),
    ("Orchard Lane Solar Garden", "Bexley", 1, "operational", 36, "2025-04"),
    ("Depot Street Rooftop", "Corwin", 2, "retired", 20, "2025-01"),
    ("Ironwood Commons Solar", "Alder", 0, "operational", 30, "2025-05"),
]
UC_COMMISSION = {5: date(2025, 8, 1), 12: date(2025, 9, 1), 17: date(2025, 12, 1)}
RETIRED_ON = {8: date(2024, 11, 30), 19: date(2025, 2, 28)}
FILL_FIRST = [2, 7, 13, 16, 10]  # small gardens filled to the brim (waitlists form there)

FIRST = ["Amara", "Beckett", "Calla", "Dorian", "Esme", "Fletcher", "Giulia", "Hollis", "Ingrid",
         "Jasper", "Keziah", "Leander", "Marisol", "Nolan", "Odessa", "Percy", "Rhiannon", "Sterling",
         "Thea", "Ulric", "Valentina", "Wendell", "Yara", "Zeke", "Anneliese", "Bram", "Cosima",
         "Desmond", "Elodie", "Franklin", "Greer", "Hamish", "Isolde", "Jude", "Kaia", "Lorcan"]
LAST = ["Abernathy", "Bramwell", "Castellano", "Delacroix", "Eastwood", "Fairbanks", "Galloway",
        "Hargrove", "Ingersoll", "Jernigan", "Kowalczyk", "Lindgren", "Marchetti", "Nakamura",
        "Okonkwo", "Pemberton", "Quintero", "Rasmussen", "Szabo", "Thackeray", "Umberger",
        "Vasquez", "Whitlock", "Yamaguchi"]
BUSINESSES = ["Maple Street Bakery", "Two Rivers Brewing", "Hillcrest Veterinary Clinic",
              "Alder Valley Food Co-op", "Pioneer Hardware", "Greenleaf Dental", "Corwin Print Shop",
              "Bexley Climbing Gym", "Lakeview Laundromat", "Dunmore Auto Body", "Sparrow Cafe",
              "Juniper Yoga Studio", "Old Mill Woodworks", "Brightside Daycare"]
NONPROFITS = ["St. Brigid Parish", "Alder County Food Shelf", "Bexley Public Library Friends",
              "Corwin Community Center", "Dunmore Habitat Chapter", "Riverside Senior Center",
              "Lantern Hill Arts Council", "Heron Flats Grange"]
STREETS = ["Birch", "Quarry", "Mill", "Orchard", "Spring", "Harbor", "Summit", "Prospect", "Elm",
           "Canal", "Meadow", "Church", "Ridge", "Foundry", "Lake"]
TOWNS = {"ridgeline_power": ["Alder Falls", "Lantern Hill", "Kestrel"],
         "lakeshore_electric": ["Bexley", "Heron Bay", "Dunmore"],
         "tri_county_rec": ["Corwin", "Sugarbush", "North Fork"]}


def d(x):
    return x.isoformat()


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def tenth(x):
    return float(Decimal(str(x)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def add_months(x, n):
    m = x.month - 1 + n
    return date(x.year + m // 12, m % 12 + 1, 1)


def months_between(a, b):
    return (b.year - a.year) * 12 + b.month - a.month


def first_of(x):
    return x.replace(day=1)


def main():
    rng = random.Random(SEED)
    gardens = {}
    for i, (name, county, ui, status, cap, last) in enumerate(GARDENS):
        n = i + 1
        gid = "G%02d" % n
        util = UTILS[ui]
        if status == "under_construction":
            comm = UC_COMMISSION[n]
        elif status == "retired":
            comm = date(rng.randint(2009, 2012), rng.randint(1, 12), 1)
        else:
            comm = date(rng.randint(2018, 2024), rng.randint(1, 12), 1)
            if comm > date(2024, 9, 1):
                comm = date(2024, 9, 1)
        lifetime = 0.0
        if last:
            y, m = map(int, last.split("-"))
            months = months_between(comm, date(y, m, 1)) + 1
            lifetime = tenth(months * cap * rng.uniform(108, 126))
        gardens[gid] = {
            "id": gid, "name": name, "county": county + " County", "utility": util,
            "status": status, "capacity_kw": cap, "allocated_kw": 0.0,
            "annual_yield_kwh_per_kw": 5 * rng.randint(236, 284),
            "credit_rate_per_kwh": round(UTIL_RATE[util] + rng.choice([-0.0042, -0.0017, 0, 0.0023, 0.0051]), 4),
            "standard_discount_pct": rng.choice([10, 10, 12, 15]),
            "income_qualified_discount_pct": rng.choice([20, 25, 25, 30]),
            "commitment_months": rng.choice([12, 24, 24, 36]),
            "early_termination_fee_per_kw": rng.choice([30.0, 40.0, 45.0, 60.0, 75.0]),
            "commissioning_date": d(comm), "retired_on": d(RETIRED_ON[n]) if n in RETIRED_ON else None,
            "last_posted_period": last, "lifetime_production_kwh": lifetime, "waiting_count": 0}

    # ---------------------------------------------------------------- subscribers
    subscribers = {}
    kinds = ["residential"] * 78 + ["small_business"] * 14 + ["nonprofit"] * 8
    rng.shuffle(kinds)
    biz, npo = list(BUSINESSES), list(NONPROFITS)
    for i in range(100):
        cid = "C%04d" % (1001 + i)
        util = UTILS[i % 3]
        kind = kinds[i]
        if kind == "residential":
            fn, ln = FIRST[(i * 7) % len(FIRST)], LAST[(i * 5 + i // 24) % len(LAST)]
            name = "%s %s" % (fn, ln)
            email = "%s.%s@%s" % (fn.lower(), ln.lower(), rng.choice(["mailbox.net", "postwave.com", "hearth.org"]))
            usage = 100 * rng.randint(52, 150)
        else:
            name = (biz if kind == "small_business" else npo).pop(0) if (biz if kind == "small_business" else npo) else "Tenant %d" % i
            email = "billing@%s.com" % "".join(ch for ch in name.lower() if ch.isalnum())[:18]
            usage = 500 * rng.randint(40, 180)
        town = rng.choice(TOWNS[util])
        enrolled = TODAY - timedelta(days=rng.randint(40, 2200))
        subscribers[cid] = {
            "id": cid, "name": name, "customer_type": kind, "email": email,
            "phone": "%03d-%03d-%04d" % (rng.choice([612, 651, 763, 952]), rng.randint(200, 989), rng.randint(0, 9999)),
            "mailing_address": "%d %s %s, %s" % (rng.randint(10, 9890), rng.choice(STREETS),
                                                 rng.choice(["St", "Ave", "Rd", "Ln"]), town),
            "utility": util, "utility_account_number": "%s-%08d" % (UTIL_PREFIX[util], rng.randint(10 ** 7, 10 ** 8 - 1)),
            "income_qualified": kind == "residential" and rng.random() < 0.27,
            "annual_usage_kwh": usage, "account_status": "active", "balance_due": 0.0,
            "paperless_statements": rng.random() < 0.6, "enrolled_on": d(enrolled),
            "updated_on": d(enrolled + timedelta(days=rng.randint(0, (TODAY - enrolled).days)))}
    ids = sorted(subscribers)
    for cid in rng.sample(ids, 12):
        subscribers[cid]["account_status"] = "on_hold" if len([c for c in subscribers.values() if c["account_status"] == "on_hold"]) < 7 else "closed"

    # ---------------------------------------------------------------- live allocations
    raw = []  # subscription dicts without ids

    def expected(cid):
        return sum(Decimal(str(s["share_kw"])) * gardens[s["garden_id"]]["annual_yield_kwh_per_kw"]
                   for s in raw if s["subscriber_id"] == cid and s["status"] != "terminated")

    def room(cid, g):
        c = subscribers[cid]
        head = (Decimal(c["annual_usage_kwh"]) * Decimal("1.2") - expected(cid)) / g["annual_yield_kwh_per_kw"]
        top = min(head, Decimal(g["capacity_kw"]) * Decimal("0.4"),
                  Decimal(g["capacity_kw"]) - Decimal(str(g["allocated_kw"])))
        return float(int(top * 2) / Decimal(2))

    def holds(cid, gid):
        return any(s["subscriber_id"] == cid and s["garden_id"] == gid and s["status"] != "terminated" for s in raw)

    # G17 opens enrollment later: nobody can pick a start date on/after its commissioning yet
    open_g = [g for g in gardens if gardens[g]["status"] != "retired" and g != "G17"]
    order = [c for c in ids if subscribers[c]["account_status"] != "closed"]
    rng.shuffle(order)
    # fill some small gardens first so that they are (nearly) full
    for gi in FILL_FIRST:
        g = gardens["G%02d" % gi]
        for cid in order:
            if subscribers[cid]["utility"] != g["utility"] or holds(cid, g["id"]):
                continue
            r = room(cid, g)
            if r >= 1.0:
                share = min(r, rng.choice([2.0, 3.0, 3.5, 4.0, 5.0, 6.0]))
                raw.append({"subscriber_id": cid, "garden_id": g["id"], "share_kw": share, "status": "live"})
                g["allocated_kw"] = float(Decimal(str(g["allocated_kw"])) + Decimal(str(share)))
            if g["capacity_kw"] - g["allocated_kw"] < 1.0:
                break
    for cid in order:
        c = subscribers[cid]
        want = rng.choice([1, 1, 2]) if c["customer_type"] == "residential" else rng.choice([1, 2, 2, 3])
        have = len([s for s in raw if s["subscriber_id"] == cid])
        cands = [g for g in open_g if gardens[g]["utility"] == c["utility"] and not holds(cid, g)]
        rng.shuffle(cands)
        for gid in cands[:max(0, want - have)]:
            g = gardens[gid]
            r = room(cid, g)
            if r < 1.0:
                continue
            lo = 1.0 if c["customer_type"] == "residential" else 4.0
            share = min(r, lo + 0.5 * rng.randint(0, 10))
            if r > 3.0 and rng.random() < 0.35:
                share = min(share, r - 1.5)  # leave headroom for later probes
            if share < 1.0:
                continue
            raw.append({"subscriber_id": cid, "garden_id": gid, "share_kw": share, "status": "live"})
            g["allocated_kw"] = float(Decimal(str(g["allocated_kw"])) + Decimal(str(share)))

    # statuses, dates
    for s in raw:
        g = gardens[s["garden_id"]]
        c = subscribers[s["subscriber_id"]]
        comm = date.fromisoformat(g["commissioning_date"])
        if g["status"] == "under_construction":
            s["status"] = "pending"
            start = add_months(comm, rng.choice([0, 0, 1]))
            created = min(TODAY - timedelta(days=3), start - timedelta(days=rng.randint(20, 118)))
        else:
            roll = rng.random()
            if c["account_status"] == "on_hold":
                s["status"] = "suspended" if roll < 0.5 else "active"
            else:
                s["status"] = "pending" if roll < 0.1 else "suspended" if roll < 0.2 else "active"
            if s["status"] == "pending":
                start = rng.choice([date(2025, 6, 1)] * 3 + [date(2025, 7, 1), date(2025, 8, 1)])
                created = TODAY - timedelta(days=rng.randint(3, 45))
            else:
                lo = max(comm, first_of(date.fromisoformat(c["enrolled_on"])))
                span = months_between(lo, date(2025, 5, 1))
                start = add_months(first_of(lo), rng.randint(0, max(0, span)))
                created = start - timedelta(days=rng.randint(10, 60))
        s.update(start_date=d(start), created_on=d(created),
                 commitment_ends_on=d(add_months(start, g["commitment_months"])),
                 activated_on=None, suspended_on=None, suspension_reason=None, resumed_on=None,
                 terminated_on=None, termination_reason=None, early_termination_fee=None,
                 credited_kwh_to_date=0.0)
        if s["status"] in ("active", "suspended"):
            act = start + timedelta(days=rng.randint(0, 9))
            s["activated_on"] = d(act)
            months = max(0, months_between(start, date(2025, 5, 1)))
            s["credited_kwh_to_date"] = tenth(months * s["share_kw"] * g["annual_yield_kwh_per_kw"] / 12 * rng.uniform(0.9, 1.08))
            if s["status"] == "active" and rng.random() < 0.12 and months > 3:
                s["resumed_on"] = d(TODAY - timedelta(days=rng.randint(20, 200)))
        if s["status"] == "suspended":
            reason = "nonpayment" if c["account_status"] == "on_hold" else rng.choice(
                ["nonpayment", "subscriber_request", "subscriber_request", "meter_issue"])
            s["suspension_reason"] = reason
            s["suspended_on"] = d(TODAY - timedelta(days=rng.randint(4, 110)))
            if reason == "nonpayment":
                c["balance_due"] = money(rng.choice([rng.uniform(60, 420), rng.uniform(0, 45)]))

    # historical terminations (capacity already released)
    term_raw = []
    closed = [c for c in ids if subscribers[c]["account_status"] == "closed"]
    pool = [(c, g) for c in ids for g in gardens if subscribers[c]["utility"] == gardens[g]["utility"]
            and gardens[g]["status"] != "under_construction" and not holds(c, g)]
    picks = [(c, rng.choice([g for g in gardens if gardens[g]["utility"] == subscribers[c]["utility"]
                             and gardens[g]["status"] == "operational"])) for c in closed]
    for gi in RETIRED_ON:
        gid = "G%02d" % gi
        picks += [(c, gid) for c, g in rng.sample([p for p in pool if p[1] == gid], 4)]
    picks += rng.sample([p for p in pool if gardens[p[1]]["status"] == "operational"], 14)
    for cid, gid in picks:
        g = gardens[gid]
        comm = date.fromisoformat(g["commissioning_date"])
        c = subscribers[cid]
        if g["status"] == "retired":
            end = date.fromisoformat(g["retired_on"])
            start = add_months(first_of(comm), rng.randint(6, 60))
            reason, term_on = "garden_retired", end
        else:
            start = add_months(first_of(comm), rng.randint(0, max(0, months_between(comm, date(2025, 1, 1)))))
            reason = rng.choice(["subscriber_request", "subscriber_request", "relocation", "nonpayment"])
            term_on = min(TODAY - timedelta(days=1), start + timedelta(days=rng.randint(60, 900)))
        commit_end = add_months(start, g["commitment_months"])
        share = 0.5 * rng.randint(2, 10)
        fee = 0.0
        if reason in ("subscriber_request", "nonpayment") and term_on < commit_end:
            fee = money(share * g["early_termination_fee_per_kw"])
        sus_on = d(term_on - timedelta(days=rng.randint(20, 90))) if reason == "nonpayment" else None
        term_raw.append({"subscriber_id": cid, "garden_id": gid, "share_kw": share, "status": "terminated",
                         "start_date": d(start), "created_on": d(start - timedelta(days=rng.randint(10, 50))),
                         "commitment_ends_on": d(commit_end), "activated_on": d(start + timedelta(days=rng.randint(0, 6))),
                         "suspended_on": sus_on, "suspension_reason": "nonpayment" if sus_on else None,
                         "resumed_on": None, "terminated_on": d(term_on), "termination_reason": reason,
                         "early_termination_fee": fee, "credited_kwh_to_date": tenth(
                             months_between(start, term_on) * share * g["annual_yield_kwh_per_kw"] / 12)})

    # full transfers in the past: the source is terminated as transferred
    live_active = [s for s in raw if s["status"] == "active"]
    transfers_raw = []
    for s in rng.sample(live_active, 6):
        g = gardens[s["garden_id"]]
        givers = [c for c in ids if subscribers[c]["utility"] == g["utility"] and c != s["subscriber_id"]
                  and not holds(c, g["id"])]
        giver = rng.choice(givers)
        kw = 1.0 if s["share_kw"] < 2.0 else min(s["share_kw"] - 1.0, 0.5 * rng.randint(2, 6))
        when = max(date.fromisoformat(s["activated_on"]), TODAY - timedelta(days=rng.randint(5, 400)))
        src = {"subscriber_id": giver, "garden_id": g["id"], "share_kw": kw, "status": "terminated",
               "start_date": s["start_date"], "created_on": d(date.fromisoformat(s["start_date"]) - timedelta(days=20)),
               "commitment_ends_on": s["commitment_ends_on"], "activated_on": s["activated_on"],
               "suspended_on": None, "suspension_reason": None, "resumed_on": None,
               "terminated_on": d(when), "termination_reason": "transferred", "early_termination_fee": 0.0,
               "credited_kwh_to_date": tenth(s["credited_kwh_to_date"] * 0.4)}
        term_raw.append(src)
        transfers_raw.append((src, s, kw, when))
    # partial transfers between live active subscriptions of the same garden
    by_garden = {}
    for s in live_active:
        by_garden.setdefault(s["garden_id"], []).append(s)
    gl = sorted(g for g in by_garden if len(by_garden[g]) >= 2)
    for k in range(14):
        a, b = rng.sample(by_garden[gl[k % len(gl)]], 2)
        if a["share_kw"] < 2.5:
            continue
        when = max(date.fromisoformat(a["activated_on"]), date.fromisoformat(b["activated_on"]),
                   TODAY - timedelta(days=rng.choice([3, 12, 25, 41, 55, 75, 130, 210, 300])))
        transfers_raw.append((a, b, 0.5 * rng.randint(1, 2), when))

    allsubs = sorted(raw + term_raw, key=lambda s: (s["created_on"], s["garden_id"], s["subscriber_id"]))
    subscriptions = {}
    for n, s in enumerate(allsubs):
        s["id"] = "SA%04d" % (n + 1)
    for s in allsubs:
        rec = {"id": s["id"]}
        for k in ("subscriber_id", "garden_id", "share_kw", "status", "start_date", "commitment_ends_on",
                  "created_on", "activated_on", "suspended_on", "suspension_reason", "resumed_on",
                  "terminated_on", "termination_reason", "early_termination_fee", "credited_kwh_to_date"):
            rec[k] = s[k]
        subscriptions[s["id"]] = rec

    transfers = {}
    for n, (src, dst, kw, when) in enumerate(sorted(transfers_raw, key=lambda t: (t[3], t[0]["id"]))):
        tid = "TR%03d" % (n + 1)
        transfers[tid] = {"id": tid, "garden_id": src["garden_id"], "from_subscription_id": src["id"],
                          "to_subscription_id": dst["id"], "from_subscriber_id": src["subscriber_id"],
                          "to_subscriber_id": dst["subscriber_id"], "share_kw": kw,
                          "processing_fee": 0.0 if subscribers[dst["subscriber_id"]]["income_qualified"] else 25.0,
                          "transferred_on": d(when)}

    # ---------------------------------------------------------------- waitlist
    wl_raw = []
    waiting_per = {c: 0 for c in ids}
    for gid, g in gardens.items():
        if g["status"] == "retired":
            continue
        avail = g["capacity_kw"] - g["allocated_kw"]
        gnum = int(gid[1:])
        if avail >= 3.0 and gnum not in (3, 14):
            continue
        cands = [c for c in ids if subscribers[c]["utility"] == g["utility"] and not holds(c, gid)
                 and subscribers[c]["account_status"] == "active" and waiting_per[c] < 3]
        rng.shuffle(cands)
        for j, cid in enumerate(cands[:rng.randint(2, 4)]):
            req = rng.choice([2.0, 3.0, 4.0, 5.0])
            if gnum in (3, 14) and j == 0:
                req = 2.0  # capacity freed up recently: the head of the queue fits
                if avail < req or room(cid, g) < req:
                    continue
            wl_raw.append({"garden_id": gid, "subscriber_id": cid, "requested_kw": req, "status": "waiting",
                           "joined_on": d(TODAY - timedelta(days=rng.randint(3, 240) if gnum not in (3, 14) else 100 + 20 * j)),
                           "enrolled_on": None, "subscription_id": None, "withdrawn_on": None})
            waiting_per[cid] += 1
    for s in rng.sample([s for s in raw if s["status"] in ("active", "pending")], 10):
        wl_raw.append({"garden_id": s["garden_id"], "subscriber_id": s["subscriber_id"],
                       "requested_kw": s["share_kw"] + rng.choice([0.0, 0.0, 1.0]), "status": "enrolled",
                       "joined_on": d(date.fromisoformat(s["created_on"]) - timedelta(days=rng.randint(20, 200))),
                       "enrolled_on": s["created_on"], "subscription_id": s["id"], "withdrawn_on": None})
    for cid in rng.sample(ids, 6):
        gid = rng.choice([g for g in gardens if gardens[g]["utility"] == subscribers[cid]["utility"]])
        joined = TODAY - timedelta(days=rng.randint(60, 500))
        wl_raw.append({"garden_id": gid, "subscriber_id": cid, "requested_kw": rng.choice([2.0, 3.0, 4.0]),
                       "status": "withdrawn", "joined_on": d(joined), "enrolled_on": None, "subscription_id": None,
                       "withdrawn_on": d(joined + timedelta(days=rng.randint(10, 50)))})
    wl_raw.sort(key=lambda w: (w["joined_on"], w["garden_id"], w["subscriber_id"]))
    waitlist = {}
    for n, w in enumerate(wl_raw):
        wid = "W%04d" % (n + 1)
        waitlist[wid] = dict({"id": wid}, **w)
        if w["status"] == "waiting":
            gardens[w["garden_id"]]["waiting_count"] += 1

    # ---------------------------------------------------------------- statements (last posted period)
    st_raw = []
    for gid, g in gardens.items():
        if g["status"] != "operational":
            continue
        period = g["last_posted_period"]
        pfirst = date(int(period[:4]), int(period[5:]), 1)
        gkwh = tenth(g["capacity_kw"] * rng.uniform(112, 138))
        issued = add_months(pfirst, 1) + timedelta(days=rng.randint(2, 8))
        for s in sorted((s for s in allsubs if s["garden_id"] == gid), key=lambda s: s["id"]):
            if s["activated_on"] is None or s["start_date"] > d(pfirst) or (
                    s["terminated_on"] and s["terminated_on"] < d(add_months(pfirst, 1))):
                continue
            c = subscribers[s["subscriber_id"]]
            cred = tenth(Decimal(str(gkwh)) * Decimal(str(s["share_kw"])) / g["capacity_kw"])
            credit = money(Decimal(str(cred)) * Decimal(str(g["credit_rate_per_kwh"])))
            pct = g["income_qualified_discount_pct"] if c["income_qualified"] else g["standard_discount_pct"]
            charge = money(Decimal(str(credit)) * (100 - pct) / 100)
            st_raw.append({"subscription_id": s["id"], "subscriber_id": c["id"], "garden_id": gid,
                           "period": period, "credited_kwh": cred, "credit_rate_per_kwh": g["credit_rate_per_kwh"],
                           "bill_credit": credit, "discount_pct": pct, "subscription_charge": charge,
                           "savings": money(Decimal(str(credit)) - Decimal(str(charge))), "issued_on": d(issued)})
    st_raw.sort(key=lambda r: (r["issued_on"], r["garden_id"], r["subscription_id"]))
    statements = {}
    for n, r in enumerate(st_raw):
        sid = "ST%05d" % (n + 1)
        statements[sid] = dict({"id": sid}, **r)

    # balances: unpaid recent charges for some, larger arrears for accounts on hold
    for cid, c in subscribers.items():
        if c["account_status"] == "on_hold":
            c["balance_due"] = money(c["balance_due"] + rng.uniform(80, 520))
        elif c["balance_due"] == 0.0 and rng.random() < 0.35:
            c["balance_due"] = money(rng.uniform(4, 140))

    db = {"meta": {"today": d(TODAY), "program": "Sunfold Community Solar", "currency": "USD"},
          "gardens": gardens, "subscribers": subscribers, "subscriptions": subscriptions,
          "waitlist": waitlist, "transfers": transfers, "statements": statements}
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(out, "w") as f:
        json.dump(db, f, indent=1)
    print("wrote", out, {k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
