"""Generate db.json for the Greenfurrow Farm CSA box API (deterministic, stdlib only)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

SEED = 4117
TODAY = dt.date(2025, 6, 11)
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
PLAN_PRICE = {"small": "21.50", "standard": "29.00", "family": "41.75"}
SKIP_ALLOWANCE = {"small": 3, "standard": 4, "family": 5}
DISCOUNT = {"standard": "0", "worker_share": "0.15", "sliding_scale": "0.30"}
ISSUE_RATE = {"damaged": "0.50", "missing_items": "0.25", "wrong_box": "1.00"}
REASONS = ["moving", "cost", "too_much_produce", "schedule", "other"]

SITES = [
    ("Hollow Road Farm Stand", "saturday", "09:00-12:00", True, True),
    ("Riverside Library", "tuesday", "15:00-18:30", False, True),
    ("Elm Street Co-op", "tuesday", "16:00-19:00", True, True),
    ("Northgate Church Hall", "thursday", "16:30-19:00", False, True),
    ("Market Square Pavilion", "wednesday", "14:00-18:00", True, True),
    ("Oak Park Community Center", "saturday", "10:00-13:00", False, True),
    ("Westview Brewery Taproom", "tuesday", "17:00-20:00", False, True),
    ("Maple Street School Gym", "wednesday", "15:30-18:00", False, True),
    ("Harbor Yoga Studio", "thursday", "12:00-15:00", True, True),
    ("Southend Fire Hall", "saturday", "08:30-11:00", True, False),
]

ADDONS = [
    ("Dozen pasture-raised eggs", "eggs", "6.50", True),
    ("Sourdough country loaf", "bakery", "7.25", True),
    ("Wildflower honey, 12 oz", "pantry", "11.00", True),
    ("Fresh chevre, 8 oz", "dairy", "8.75", True),
    ("Cut flower bouquet", "flowers", "12.50", True),
    ("Strawberries, 1 quart", "fruit", "6.00", True),
    ("Garlic scape bundle", "produce", "3.25", True),
    ("Pea shoots, 1/4 lb", "produce", "4.50", True),
    ("Maple syrup, 1 pint", "pantry", "14.00", True),
    ("Culinary herb bundle", "produce", "3.75", True),
    ("Blueberries, 1 pint", "fruit", "5.50", False),
    ("Raw cider vinegar", "pantry", "9.25", False),
]

FIRST = ["Ada", "Bruno", "Celia", "Dmitri", "Esme", "Farid", "Gwen", "Hiro", "Ines", "Jonah",
         "Kaia", "Luis", "Mara", "Nils", "Odette", "Pavel", "Quinn", "Rosa", "Soren", "Tamsin",
         "Umar", "Vera", "Wes", "Ximena", "Yusuf", "Zoe"]
LAST = ["Abbott", "Brennan", "Castillo", "Dunmore", "Ellery", "Fairweather", "Gallo", "Hollis",
        "Iverson", "Jankowski", "Kimura", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Pruitt",
        "Quintero", "Rasmussen", "Sato", "Thorne", "Underhill", "Valdez", "Whitcombe", "Yilmaz"]


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def weekly_price(plan, member_type):
    return money(Decimal(PLAN_PRICE[plan]) * (1 - Decimal(DISCOUNT[member_type])))


def align(d, day):
    """First date on or after d that falls on the given weekday name."""
    return d + dt.timedelta(days=(DAYS.index(day) - d.weekday()) % 7)


def build():
    rng = random.Random(SEED)
    db = {"meta": {"today": TODAY.isoformat(), "farm": "Greenfurrow Farm", "season": "2025 summer",
                   "currency": "USD"},
          "members": {}, "sites": {}, "addons": {}, "subscriptions": {}, "boxes": {}}

    # addons
    for i, (name, cat, price, active) in enumerate(ADDONS, 1):
        stock = rng.choice([0, 2, 3, 8, 12, 15, 20, 25, 30, 40]) if active else 0
        db["addons"]["A%02d" % i] = {"id": "A%02d" % i, "name": name, "category": cat,
                                     "unit_price": float(price), "stock": stock, "active": active}
    db["addons"]["A05"]["stock"] = 0
    db["addons"]["A03"]["stock"] = 3
    db["addons"]["A02"]["stock"] = 30
    db["addons"]["A01"]["stock"] = 40
    db["addons"]["A07"]["stock"] = 25
    active_addons = [a for a in db["addons"].values() if a["active"]]

    # members
    mids = []
    for i in range(1, 61):
        mid = "M%03d" % i
        first, last = rng.choice(FIRST), rng.choice(LAST)
        mtype = rng.choices(["standard", "worker_share", "sliding_scale"], [6, 2, 2])[0]
        credit = 0.0 if rng.random() < 0.5 else money(rng.randint(200, 4500) / 100)
        joined = TODAY - dt.timedelta(days=rng.randint(20, 1400))
        db["members"][mid] = {"id": mid, "name": "%s %s" % (first, last),
                              "email": "%s.%s%d@example.net" % (first.lower(), last.lower(), i),
                              "member_type": mtype, "status": "active", "credit_balance": credit,
                              "joined_on": joined.isoformat()}
        mids.append(mid)

    order = mids[:]
    rng.shuffle(order)
    live_members = order[:36]
    others = order[36:]
    for mid in (live_members[1], live_members[5], live_members[11]):
        db["members"][mid]["status"] = "suspended"
    for mid in others[:3]:
        db["members"][mid]["status"] = "closed"
    for mid in others[3:5]:
        db["members"][mid]["status"] = "suspended"

    site_ids = ["P%02d" % i for i in range(1, 11)]
    for sid, (name, day, window, cooler, active) in zip(site_ids, SITES):
        db["sites"][sid] = {"id": sid, "name": name, "pickup_day": day, "pickup_window": window,
                            "has_cooler": cooler, "capacity": 0, "enrolled_count": 0,
                            "active": active}
    open_sites = [s for s in site_ids if db["sites"][s]["active"]]
    cooler_sites = [s for s in open_sites if db["sites"][s]["has_cooler"]]

    subs = []
    for k, mid in enumerate(live_members):
        plan = rng.choices(["small", "standard", "family"], [3, 5, 3])[0]
        site = rng.choice(cooler_sites if plan == "family" else open_sites)
        day = db["sites"][site]["pickup_day"]
        if k < 3:
            start = align(TODAY + dt.timedelta(days=rng.randint(1, 10)), day)
        elif k < 10:
            start = align(TODAY - dt.timedelta(days=rng.randint(20, 54)), day)
        else:
            start = align(TODAY - dt.timedelta(days=rng.randint(60, 330)), day)
        status = "paused" if 10 <= k < 15 else "active"
        subs.append({"member_id": mid, "site_id": site, "plan": plan, "status": status,
                     "start_date": start})
    cancelled_members = others[5:15] + live_members[20:23]
    for mid in cancelled_members:
        plan = rng.choice(["small", "standard", "family"])
        site = rng.choice(site_ids)
        day = db["sites"][site]["pickup_day"]
        start = align(TODAY - dt.timedelta(days=rng.randint(90, 420)), day)
        if rng.random() < 0.4:
            cancelled = start + dt.timedelta(days=rng.randint(10, 50))
        else:
            cancelled = start + dt.timedelta(days=rng.randint(60, 85))
        cancelled = min(cancelled, TODAY - dt.timedelta(days=2))
        subs.append({"member_id": mid, "site_id": site, "plan": plan, "status": "cancelled",
                     "start_date": start, "cancelled_on": cancelled})
    subs.sort(key=lambda s: (s["start_date"], s["member_id"]))

    for i, s in enumerate(subs, 1):
        sid = "S%04d" % i
        mtype = db["members"][s["member_id"]]["member_type"]
        price = weekly_price(s["plan"], mtype)
        weeks = max(0, ((TODAY - s["start_date"]).days) // 7)
        rec = {"id": sid, "member_id": s["member_id"], "site_id": s["site_id"], "plan": s["plan"],
               "status": s["status"], "start_date": s["start_date"].isoformat(),
               "weekly_price": price, "skips_used": 0,
               "pause_count": 0, "boxes_collected": 0,
               "cancelled_on": None, "cancel_reason": None, "cancellation_fee": 0.0}
        if s["status"] == "cancelled":
            c = s["cancelled_on"]
            rec["cancelled_on"] = c.isoformat()
            rec["cancel_reason"] = rng.choice(REASONS)
            early = (c - s["start_date"]).days < 56
            rec["cancellation_fee"] = money(Decimal(str(price)) * Decimal("0.5")) if early else 0.0
            rec["boxes_collected"] = max(0, int((c - s["start_date"]).days // 7 * 0.8))
            rec["skips_used"] = rng.randint(0, 2)
            rec["pause_count"] = rng.randint(0, 1)
        else:
            rec["boxes_collected"] = max(0, int(weeks * rng.uniform(0.7, 0.95)))
            rec["pause_count"] = rng.randint(1, 2) if s["status"] == "paused" else rng.choice([0, 0, 0, 1, 2])
            if s["start_date"] > TODAY:
                rec["pause_count"] = 0
            db["sites"][s["site_id"]]["enrolled_count"] += 1
        db["subscriptions"][sid] = rec

    # site capacities
    for sid in site_ids:
        site = db["sites"][sid]
        if sid in ("P03", "P06"):
            site["capacity"] = site["enrolled_count"]
        else:
            site["capacity"] = site["enrolled_count"] + rng.randint(2, 6)
        if not site["active"]:
            site["capacity"] = 12

    # boxes
    lo, hi = TODAY - dt.timedelta(days=7), TODAY + dt.timedelta(days=14)
    raw = []
    for sid, sub in db["subscriptions"].items():
        if sub["status"] == "cancelled":
            continue
        day = db["sites"][sub["site_id"]]["pickup_day"]
        d = max(align(lo, day), dt.date.fromisoformat(sub["start_date"]))
        while d <= hi:
            raw.append((d, sid))
            d += dt.timedelta(days=7)
    raw.sort()
    for i, (d, sid) in enumerate(raw, 1):
        sub = db["subscriptions"][sid]
        member = db["members"][sub["member_id"]]
        bid = "B%04d" % i
        if sub["status"] == "paused":
            status = "picked_up" if d < TODAY else "held"
        elif d < TODAY:
            if (TODAY - d).days > 6:
                status = rng.choices(["picked_up", "missed", "scheduled"], [7, 2, 1])[0]
            else:
                status = rng.choices(["picked_up", "missed", "scheduled"], [6, 1, 3])[0]
        elif (d - TODAY).days < 2:
            status = "scheduled"
        else:
            status = rng.choices(["scheduled", "skipped"], [4, 1])[0]
        box = {"id": bid, "subscription_id": sid, "member_id": sub["member_id"],
               "pickup_date": d.isoformat(), "status": status, "box_price": sub["weekly_price"],
               "addons": [], "addons_total": 0.0, "total": 0.0, "credit_applied": None,
               "amount_charged": None, "issue_type": None, "issue_credit": None,
               "issue_note": None}
        if status in ("scheduled", "picked_up", "missed"):
            if rng.random() < 0.35:
                for a in rng.sample(active_addons, rng.randint(1, 2)):
                    q = rng.randint(1, 2)
                    box["addons"].append({"addon_id": a["id"], "quantity": q,
                                          "unit_price": a["unit_price"],
                                          "line_total": money(Decimal(str(a["unit_price"])) * q)})
            at = sum(Decimal(str(l["line_total"])) for l in box["addons"])
            box["addons_total"] = money(at)
            box["total"] = money(Decimal(str(box["box_price"])) + at)
        if status in ("picked_up", "missed"):
            credit = 0.0
            if rng.random() < 0.15:
                credit = money(min(Decimal(str(box["total"])), Decimal(rng.randint(300, 2000)) / 100))
            box["credit_applied"] = credit
            box["amount_charged"] = money(Decimal(str(box["total"])) - Decimal(str(credit)))
        if status == "picked_up" and rng.random() < 0.12:
            kind = rng.choice(sorted(ISSUE_RATE))
            box["issue_type"] = kind
            box["issue_credit"] = money(Decimal(str(box["box_price"])) * Decimal(ISSUE_RATE[kind]))
            box["issue_note"] = {"damaged": "greens wilted, tomatoes split",
                                 "missing_items": "no carrots in the box",
                                 "wrong_box": "received a small box instead"}[kind]
        if status == "skipped":
            sub["skips_used"] += 1
        db["boxes"][bid] = box

    # skip counters: add earlier-season skips, push a few to their allowance
    for k, (sid, sub) in enumerate(db["subscriptions"].items()):
        if sub["status"] == "cancelled":
            continue
        allowance = SKIP_ALLOWANCE[sub["plan"]]
        if sub["start_date"] > TODAY.isoformat():
            continue
        if k % 5 == 0:
            sub["skips_used"] = allowance
        else:
            sub["skips_used"] = min(allowance, sub["skips_used"] + rng.randint(0, 2))
    return db


def main():
    db = build()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as f:
        json.dump(db, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
