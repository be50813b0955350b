"""Builds db.json for the Port Calder bulky-waste collection API (stdlib only, fixed seed)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

SEED = 4417
TODAY = dt.date(2025, 9, 17)
rng = random.Random(SEED)

BOOKING_FEE = Decimal("15.00")
REBOOKING_FEE = Decimal("20.00")
CENT = Decimal("0.01")
RESIDENT_FAULT = {"not_set_out", "access_blocked"}


def iso(day):
    return day.isoformat()


def money(x):
    return float(Decimal(str(x)).quantize(CENT, ROUND_HALF_UP))


META = {
    "today": iso(TODAY),
    "city": "Port Calder",
    "service": "Port Calder Public Works - Bulky Item & Recycling Collection",
    "currency": "CAD",
    "booking_fee": 15.00,
    "rebooking_fee": 20.00,
    "min_notice_days": 2,
    "max_horizon_days": 42,
    "refund_cutoff_days": 2,
    "max_outstanding_balance": 150.00,
    "concession_discount_pct": 50,
    "weight_allowance_kg_per_item": 40,
    "overweight_rate_per_kg": 0.35,
    "complaint_window_days": 14,
    "max_reschedules": 2,
    "goodwill_credit_minimum": 10.00,
}

CATEGORIES = [
    ("furniture", "Furniture (sofas, tables, chairs, wardrobes)", "8.00", True, 6, True),
    ("mattress", "Mattresses and box springs", "12.50", True, 3, True),
    ("white_goods", "Washers, dryers, stoves, dishwashers", "18.00", True, 2, True),
    ("fridge_freezer", "Fridges, freezers, A/C units (refrigerant recovery)", "35.00", False, 2, True),
    ("e_waste", "TVs, monitors, computers and small electronics", "0.00", True, 5, True),
    ("tires", "Passenger car tires, rims removed", "6.75", False, 4, True),
    ("yard_bundle", "Tied bundles of branches and yard waste", "3.50", True, 8, True),
    ("scrap_metal", "Scrap metal (bikes, grills, pipes)", "5.00", True, 5, True),
    ("carpet", "Carpet and underlay rolls", "4.25", True, 4, True),
    ("renovation_debris", "Renovation debris (drywall, tiles) - no longer collected", "22.00", False, 2, False),
]

ZONES = [
    ("Z1", "Harbourside", ["monday", "thursday"], "active",
     ["Gannet Road", "Wharf Street", "Lighthouse Lane"]),
    ("Z2", "Old Mill", ["tuesday", "friday"], "active",
     ["Millrace Avenue", "Tanner Row", "Bobbin Court"]),
    ("Z3", "Kestrel Heights", ["wednesday", "saturday"], "active",
     ["Kestrel Drive", "Falcon Crescent", "Upland Way"]),
    ("Z4", "Riverside Flats", ["monday", "thursday"], "active",
     ["Ferry Road", "Willow Bend", "Osprey Terrace"]),
    ("Z5", "Glenmoor", ["tuesday", "friday"], "active",
     ["Heather Close", "Glenmoor Parkway", "Bracken Street"]),
    ("Z6", "Quarry Hill", ["wednesday"], "suspended",
     ["Quarry Road", "Flintstone Walk"]),
]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
Z6_SUSPENDED_FROM = dt.date(2025, 9, 8)

CREWS = [
    ("CREW-1", "Alder crew (Truck 14)", ["Z1", "Z4"], 4, "active"),
    ("CREW-2", "Birch crew (Truck 9)", ["Z2", "Z5"], 4, "active"),
    ("CREW-3", "Cedar crew (Truck 21)", ["Z3", "Z6"], 3, "active"),
    ("CREW-4", "Dogwood crew (Truck 5)", ["Z1", "Z2", "Z3"], 3, "active"),
    ("CREW-5", "Elm crew (Truck 17)", ["Z4", "Z5"], 3, "off_duty"),
    ("CREW-6", "Fir crew (small van, Truck 3)", ["Z1", "Z2", "Z3", "Z4", "Z5"], 1, "active"),
]

FIRST = ["Amara", "Bruno", "Celeste", "Dmitri", "Esther", "Farid", "Gwen", "Hiro", "Ingrid", "Jonah",
         "Keira", "Luis", "Maeve", "Nikhil", "Odette", "Pavel", "Quinn", "Rosa", "Soren", "Tamsin",
         "Ulrich", "Vera", "Wendell", "Xiomara", "Yusuf", "Zofia", "Anton", "Beatrix", "Callum", "Delia"]
LAST = ["Abernathy", "Bergstrom", "Castellano", "Dunmore", "Eklund", "Fairweather", "Galloway",
        "Hollis", "Iwasaki", "Jablonski", "Kettering", "Lindqvist", "McAllister", "Nakamura",
        "Okonkwo", "Pemberton", "Quintero", "Ravensdale", "Sutherland", "Thibodeau", "Underhill",
        "Vasquez", "Whitcombe", "Yardley"]


def build():
    db = {"meta": META}
    db["item_categories"] = {
        c: {"code": c, "name": n, "unit_fee": float(f), "free_eligible": fe, "max_per_request": mx,
            "active": act}
        for c, n, f, fe, mx, act in CATEGORIES}
    cats = db["item_categories"]
    db["zones"] = {
        z: {"zone_id": z, "name": n, "collection_weekdays": wd, "status": st,
            "suspended_reason": "Quarry Road bridge works" if st == "suspended" else None}
        for z, n, wd, st, _ in ZONES}
    streets = {z: s for z, _, _, _, s in ZONES}
    db["crews"] = {c: {"crew_id": c, "name": n, "zone_ids": zs, "max_stops_per_day": mx, "status": st}
                   for c, n, zs, mx, st in CREWS}

    # ---------------------------------------------------------------- collection days
    start = TODAY - dt.timedelta(days=30)
    end = TODAY + dt.timedelta(days=42)
    holiday = dt.date(2025, 10, 13)
    days = []
    day = start
    while day <= end:
        wd = WEEKDAYS[day.weekday()]
        for z, _, wds, _, _ in ZONES:
            if wd in wds:
                status, why = "open", None
                if day == holiday:
                    status, why = "closed", "Harvest Day public holiday"
                elif z == "Z6" and day >= Z6_SUSPENDED_FROM:
                    status, why = "closed", "Zone suspended: Quarry Road bridge works"
                elif z == "Z2" and day == dt.date(2025, 9, 26):
                    status, why = "closed", "Truck 9 annual safety inspection"
                days.append({"zone_id": z, "date": iso(day), "capacity": rng.choice([5, 6, 6, 7, 8]),
                             "booked": 0, "status": status, "closure_reason": why})
        day += dt.timedelta(days=1)
    db["collection_days"] = {}
    for i, rec in enumerate(days, 1):
        did = f"CD-{i:04d}"
        db["collection_days"][did] = {"day_id": did, **rec}
    dmap = {(r["zone_id"], r["date"]): r for r in db["collection_days"].values()}

    def zone_days(z, lo, hi, need):
        out = []
        for r in db["collection_days"].values():
            if r["zone_id"] == z and r["status"] == "open" and lo <= r["date"] <= hi \
                    and r["capacity"] - r["booked"] >= need:
                out.append(r["date"])
        return sorted(out)

    # ---------------------------------------------------------------- households
    hh = {}
    used_names = set()
    zone_cycle = ["Z1", "Z2", "Z3", "Z4", "Z5"] * 13 + ["Z6"] * 6
    rng.shuffle(zone_cycle)
    for i, z in enumerate(zone_cycle):
        hid = f"HH-{2001 + i}"
        while True:
            name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
            if name not in used_names:
                used_names.add(name)
                break
        conc = rng.random() < 0.22
        num = rng.randint(12, 2400)
        first, last = name.split()
        hh[hid] = {
            "household_id": hid, "account_holder": name,
            "street_address": f"{num} {rng.choice(streets[z])}",
            "postcode": f"PC{z[1]} {rng.randint(1, 9)}{rng.choice('ABDEFGHJLNPRSTW')}{rng.choice('ABDEFGHJLNPRSTW')}",
            "zone_id": z, "phone": f"555-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}",
            "email": f"{first.lower()}.{last.lower()}@{rng.choice(['calder.net', 'mailbox.ca', 'portmail.com'])}",
            "concession": conc, "status": "active",
            "free_pickups_allowed": 3 if conc else 2, "free_pickups_used": 0, "balance": 0.0,
            "registered_on": iso(dt.date(rng.randint(2009, 2024), rng.randint(1, 12), rng.randint(1, 28))),
        }
    for hid in rng.sample(sorted(hh), 5):
        hh[hid]["status"] = "closed"
    for h in hh.values():
        h["free_pickups_used"] = rng.randint(0, h["free_pickups_allowed"])
    db["households"] = hh

    # ---------------------------------------------------------------- requests
    active_cats = [c for c, *_ , act in CATEGORIES if act]

    def items():
        lines, total = [], 0
        for c in rng.sample(active_cats, rng.choice([1, 1, 2, 2, 3])):
            cnt = rng.randint(1, min(cats[c]["max_per_request"], 4))
            if total + cnt > 10:
                break
            lines.append({"category": c, "count": cnt})
            total += cnt
        return lines, total

    def fee_of(h, lines, free):
        total = Decimal("0") if free else BOOKING_FEE
        for ln in lines:
            cat = cats[ln["category"]]
            if free and cat["free_eligible"]:
                continue
            total += Decimal(str(cat["unit_fee"])) * ln["count"]
        if h["concession"]:
            total = total / 2
        return total.quantize(CENT, ROUND_HALF_UP)

    reqs = []   # internal drafts
    charges = []  # (date, order, household, request draft or None, type, amount)
    events = []   # (date, order, household, request draft or None, action)
    crew_load = {}

    def crew_for(z, date):
        options = [c for c, _, zs, mx, st in CREWS if z in zs and crew_load.get((c, date), 0) < mx
                   and (st == "active" or date < iso(TODAY))]
        if not options:
            return None
        c = rng.choice(options)
        if "CREW-6" in options and date >= iso(TODAY) and rng.random() < 0.6:
            c = "CREW-6"
        crew_load[(c, date)] = crew_load.get((c, date), 0) + 1
        return c

    def new_req(h, date, created):
        lines, total = items()
        return {"household_id": h["household_id"], "zone_id": h["zone_id"], "collection_date": date,
                "items": lines, "item_count": total, "slots": 1 if total <= 4 else 2,
                "free_pickup": False, "fee": 0.0, "status": "requested", "crew_id": None,
                "notes": rng.choice([None, None, None, "Items by the side gate", "Call on arrival",
                                     "Sofa is on the porch", "Beware of dog", "Corner lot, use lane"]),
                "created_on": created, "scheduled_on": None, "collected_on": None, "weight_kg": None,
                "surcharge": None, "missed_on": None, "miss_reason": None, "cancelled_on": None,
                "cancel_reason": None, "refund": None, "reschedule_count": 0, "previous_date": None,
                "rescheduled_on": None, "reschedule_reason": None}

    def book(r, date):
        dmap[(r["zone_id"], date)]["booked"] += r["slots"]

    def unbook(r, date):
        dmap[(r["zone_id"], date)]["booked"] -= r["slots"]

    def d(x):
        return dt.date.fromisoformat(x)

    def shift(x, n):
        return iso(d(x) + dt.timedelta(days=n))

    lo_past, yday = iso(start), iso(TODAY - dt.timedelta(days=1))
    lo_future, hi_future = iso(TODAY + dt.timedelta(days=2)), iso(TODAY + dt.timedelta(days=42))
    recent_lo = iso(TODAY - dt.timedelta(days=2))

    for hid in sorted(hh):
        h = hh[hid]
        z = h["zone_id"]
        # past, finished requests
        for _ in range(rng.choice([0, 1, 1, 1, 2, 2])):
            opts = zone_days(z, lo_past, iso(TODAY - dt.timedelta(days=3)), 2)
            if not opts:
                break
            date = rng.choice(opts)
            r = new_req(h, date, shift(date, -rng.randint(3, 20)))
            outcome = rng.choices(["collected", "missed", "cancelled", "resched"], [60, 16, 14, 10])[0]
            if outcome == "resched" and (h["status"] != "active" or z == "Z6"):
                outcome = "collected"
            r["_plan"] = outcome
            book(r, date)
            reqs.append(r)
        if h["status"] != "active" or z == "Z6":
            continue
        if any(r["_plan"] == "resched" and r["household_id"] == hid for r in reqs):
            continue  # that missed request became this household's open request
        roll = rng.random()
        if roll < 0.14:
            opts = zone_days(z, recent_lo, iso(TODAY), 2)
            if opts:
                date = rng.choice(opts)
                r = new_req(h, date, shift(date, -rng.randint(3, 15)))
                r["_plan"] = "due"
                book(r, date)
                reqs.append(r)
        elif roll < 0.62:
            opts = zone_days(z, lo_future, hi_future, 2)
            if opts:
                date = rng.choice(opts)
                created = iso(TODAY - dt.timedelta(days=rng.randint(0, 12)))
                if (d(date) - d(created)).days > 42:
                    created = shift(date, -42)
                r = new_req(h, date, created)
                r["_plan"] = rng.choices(["requested", "scheduled", "moved", "cancel_future"],
                                         [52, 24, 12, 12])[0]
                book(r, date)
                reqs.append(r)

    # create order -> ids, free pickups, fees
    reqs.sort(key=lambda r: (r["created_on"], r["household_id"]))
    for i, r in enumerate(reqs, 301):
        r["request_id"] = f"PR-{i:04d}"
    for r in reqs:
        h = hh[r["household_id"]]
        free = h["free_pickups_used"] < h["free_pickups_allowed"]
        if free:
            h["free_pickups_used"] += 1
        r["free_pickup"] = free
        r["fee"] = float(fee_of(h, r["items"], free))
        if r["fee"] > 0:
            charges.append((r["created_on"], 0, h, r, "pickup_fee", r["fee"]))
        events.append((r["created_on"], 0, h, r, "created"))

    def schedule(r, when):
        c = crew_for(r["zone_id"], r["collection_date"])
        if c is None:
            return False
        r["crew_id"], r["scheduled_on"], r["status"] = c, when, "scheduled"
        events.append((when, 1, hh[r["household_id"]], r, "scheduled"))
        return True

    for r in reqs:
        h = hh[r["household_id"]]
        plan = r.pop("_plan")
        date = r["collection_date"]
        if plan in ("collected", "missed", "resched", "due", "scheduled"):
            sched_on = shift(date, -rng.randint(1, 2))
            if sched_on < r["created_on"]:
                sched_on = r["created_on"]
            if sched_on > iso(TODAY):
                sched_on = iso(TODAY)
            if not schedule(r, sched_on):
                if plan in ("due", "scheduled"):
                    continue  # stays requested
                plan = "cancelled"
        if plan == "collected":
            w = round(rng.uniform(8, 46) * r["item_count"], 1)
            excess = Decimal(str(w)) - 40 * r["item_count"]
            s = Decimal("0")
            if excess > 0:
                s = excess * Decimal("0.35")
                if h["concession"]:
                    s = s / 2
            s = s.quantize(CENT, ROUND_HALF_UP)
            r.update(status="collected", collected_on=date, weight_kg=w, surcharge=float(s))
            events.append((date, 2, h, r, "collected"))
            if s > 0:
                charges.append((date, 2, h, r, "overweight_surcharge", float(s)))
        elif plan in ("missed", "resched"):
            reason = rng.choice(["not_set_out", "access_blocked", "truck_full", "vehicle_breakdown",
                                 "crew_error", "severe_weather"])
            r.update(status="missed", missed_on=date, miss_reason=reason)
            events.append((date, 2, h, r, "missed"))
            if plan == "resched":
                opts = zone_days(r["zone_id"], lo_future, hi_future, r["slots"])
                when = shift(date, rng.randint(0, 2))
                if when > iso(TODAY):
                    when = iso(TODAY)
                nd = rng.choice(opts)
                book(r, nd)  # the missed day keeps its slot
                r.update(status="rescheduled", crew_id=None, scheduled_on=None, previous_date=date,
                         collection_date=nd, reschedule_count=1, rescheduled_on=when,
                         reschedule_reason=rng.choice(["Missed pickup, rebooked by resident",
                                                       "Rebooked after missed collection"]))
                events.append((when, 3, h, r, "rescheduled"))
                if reason in RESIDENT_FAULT:
                    fee = REBOOKING_FEE / 2 if h["concession"] else REBOOKING_FEE
                    charges.append((when, 3, h, r, "rebooking_fee", float(fee)))
        elif plan == "cancelled" or plan == "cancel_future":
            if plan == "cancelled":
                when = shift(date, -rng.randint(0, 4))
            else:
                when = iso(TODAY - dt.timedelta(days=rng.randint(0, 3)))
            if when < r["created_on"]:
                when = r["created_on"]
            unbook(r, date)
            early = (d(date) - d(when)).days >= 2
            r.update(status="cancelled", cancelled_on=when,
                     cancel_reason=rng.choice(["resident_request", "resident_request", "items_gone",
                                               "duplicate", "moved_out", "other"]),
                     refund=r["fee"] if early else 0.0, crew_id=None)
            if early:
                if r["fee"] > 0:
                    charges.append((when, 4, h, r, "refund", -r["fee"]))
                if r["free_pickup"]:
                    h["free_pickups_used"] -= 1
            events.append((when, 4, h, r, "cancelled"))
        elif plan == "moved":
            # moved once (or twice) from an earlier future date, waiting for a crew again
            opts = [x for x in zone_days(r["zone_id"], lo_future, hi_future, r["slots"]) if x != date]
            if opts:
                nd = rng.choice(opts)
                unbook(r, date)
                book(r, nd)
                cnt = rng.choice([1, 1, 2])
                r.update(status="rescheduled", previous_date=date, collection_date=nd,
                         reschedule_count=cnt, rescheduled_on=iso(TODAY - dt.timedelta(days=rng.randint(0, 2))),
                         reschedule_reason=rng.choice(["Resident away that week", "Driveway resurfacing",
                                                       "Needs more time to clear garage"]))
                if r["rescheduled_on"] < r["created_on"]:
                    r["rescheduled_on"] = r["created_on"]
                events.append((r["rescheduled_on"], 3, h, r, "rescheduled"))
                if rng.random() < 0.5:
                    schedule(r, iso(TODAY))
        # 'requested' stays as is

    # make a few future days exactly full, so capacity matters
    fut = [r for r in db["collection_days"].values()
           if r["status"] == "open" and r["date"] >= lo_future and r["booked"] >= 2]
    for r in rng.sample(sorted(fut, key=lambda x: x["day_id"]), min(6, len(fut))):
        r["capacity"] = r["booked"]
    for r in db["collection_days"].values():
        r["capacity"] = max(r["capacity"], r["booked"])

    # ---------------------------------------------------------------- complaints
    complaints = []
    win_lo = iso(TODAY - dt.timedelta(days=20))
    cands = [r for r in reqs if r["status"] in ("collected", "missed")
             and (r["collected_on"] or r["missed_on"]) >= win_lo]
    picked = rng.sample(cands, min(16, len(cands)))
    for r in sorted(picked, key=lambda x: (x["collected_on"] or x["missed_on"], x["request_id"])):
        h = hh[r["household_id"]]
        base = r["collected_on"] or r["missed_on"]
        if r["status"] == "missed":
            cat = rng.choice(["missed_pickup", "missed_pickup", "crew_conduct"])
        else:
            cat = rng.choice(["items_left_behind", "property_damage", "crew_conduct"])
        filed = shift(base, rng.randint(0, 4))
        if filed > iso(TODAY):
            filed = iso(TODAY)
        text = {"missed_pickup": "Items were out by 7am and nobody came.",
                "items_left_behind": "Crew left part of the pile at the curb.",
                "property_damage": "Truck clipped our mailbox post during the pickup.",
                "crew_conduct": "Crew was rude when asked about the remaining items."}[cat]
        c = {"household_id": h["household_id"], "request_id": r["request_id"], "category": cat,
             "description": text, "status": "open", "filed_on": filed, "resolved_on": None,
             "outcome": None, "credit_amount": None, "resolution_note": None, "_h": h, "_r": r}
        if filed <= iso(TODAY - dt.timedelta(days=3)) and rng.random() < 0.6:
            res = shift(filed, rng.randint(1, 3))
            if cat == "missed_pickup" and r["miss_reason"] in RESIDENT_FAULT:
                outcome = rng.choice(["no_credit", "rejected"])
            else:
                outcome = rng.choice(["credit", "no_credit", "rejected"])
            c.update(status="resolved", resolved_on=res, outcome=outcome,
                     resolution_note={"credit": "Upheld, account credited.",
                                      "no_credit": "Upheld, crew supervisor notified.",
                                      "rejected": "Photos show items were not at the curb."}[outcome])
            if outcome == "credit":
                amt = max(Decimal(str(r["fee"])), Decimal("10.00"))
                c["credit_amount"] = float(amt)
                charges.append((res, 6, h, r, "complaint_credit", -float(amt)))
        complaints.append(c)
    # make sure one open missed_pickup complaint concerns a resident-caused miss
    if not any(c["status"] == "open" and c["category"] == "missed_pickup"
               and c["_r"]["miss_reason"] in RESIDENT_FAULT for c in complaints):
        taken = {c["request_id"] for c in complaints}
        extra = [r for r in reqs if r["status"] == "missed" and r["miss_reason"] in RESIDENT_FAULT
                 and r["request_id"] not in taken and r["missed_on"] >= iso(TODAY - dt.timedelta(days=10))]
        if extra:
            r = extra[0]
            complaints.append({"household_id": r["household_id"], "request_id": r["request_id"],
                               "category": "missed_pickup", "description": "We were home all day, nobody came.",
                               "status": "open", "filed_on": shift(r["missed_on"], 1), "resolved_on": None,
                               "outcome": None, "credit_amount": None, "resolution_note": None,
                               "_h": hh[r["household_id"]], "_r": r})
    complaints.sort(key=lambda c: (c["filed_on"], c["request_id"]))
    db["complaints"] = {}
    for i, c in enumerate(complaints, 101):
        cid = f"CMP-{i:04d}"
        h, r = c.pop("_h"), c.pop("_r")
        db["complaints"][cid] = {"complaint_id": cid, **c}
        events.append((c["filed_on"], 5, h, r, "complaint_filed"))
        if c["resolved_on"]:
            events.append((c["resolved_on"], 6, h, r, "complaint_resolved"))

    # ---------------------------------------------------------------- arrears and payments
    for hid in rng.sample(sorted(hh), 7):
        amt = money(rng.uniform(60, 240))
        charges.append(("2025-08-01", -1, hh[hid], None, "adjustment", amt))
    bal = {}
    for c in charges:
        bal[c[2]["household_id"]] = bal.get(c[2]["household_id"], Decimal("0")) + Decimal(str(c[5]))
    for hid in sorted(bal):
        if bal[hid] > 0 and rng.random() < 0.45:
            pay = bal[hid] if rng.random() < 0.6 else (bal[hid] / 2).quantize(CENT, ROUND_HALF_UP)
            when = iso(TODAY - dt.timedelta(days=rng.randint(0, 9)))
            charges.append((when, 7, hh[hid], None, "payment", -float(pay)))
            events.append((when, 7, hh[hid], None, "payment"))

    charges.sort(key=lambda c: (c[0], c[1], c[2]["household_id"]))
    db["charges"] = {}
    for i, (date, _, h, r, typ, amt) in enumerate(charges, 1):
        cid = f"CHG-{i:05d}"
        db["charges"][cid] = {"charge_id": cid, "household_id": h["household_id"],
                              "request_id": r["request_id"] if r else None, "type": typ,
                              "amount": money(amt), "date": date}
        h["balance"] = money(Decimal(str(h["balance"])) + Decimal(str(amt)))

    db["pickup_requests"] = {r["request_id"]: {"request_id": r["request_id"], **{k: v for k, v in r.items()
                                                                               if k != "request_id"}}
                             for r in sorted(reqs, key=lambda x: x["request_id"])}

    # the activity log keeps the last ten days
    keep = iso(TODAY - dt.timedelta(days=10))
    events = [e for e in events if e[0] >= keep]
    events.sort(key=lambda e: (e[0], e[1], e[2]["household_id"]))
    db["activity_log"] = {}
    for i, (date, _, h, r, action) in enumerate(events, 1):
        eid = f"EV-{i:04d}"
        db["activity_log"][eid] = {"event_id": eid, "date": date, "household_id": h["household_id"],
                                   "request_id": r["request_id"] if r else None, "action": action}
    return db


if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(out, "w") as f:
        json.dump(build(), f, indent=1)
    print("wrote", out)
