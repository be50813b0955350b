"""Writes db.json for the Claybank Community Pottery Studio API (deterministic, stdlib only)."""
import datetime
import json
import os
import random

SEED = 4417
TODAY = datetime.date(2025, 6, 18)

FIRST = ["Ada", "Bruno", "Carmen", "Dmitri", "Elif", "Farah", "Gideon", "Hana", "Ivo", "Jun",
         "Keira", "Lars", "Mireille", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Soren",
         "Tamsin", "Umar", "Vera", "Wes", "Ximena", "Yusuf", "Zofia", "Amara", "Beno", "Celia",
         "Dario", "Esme", "Felix", "Greta", "Hugo", "Ines", "Jonah"]
LAST = ["Abernathy", "Baptiste", "Castellano", "Dunmore", "Eriksen", "Fairweather", "Goncalves",
        "Hollis", "Ishikawa", "Jablonski", "Kowalczyk", "Lindqvist", "Moreau", "Nakamura",
        "Okafor", "Pereira", "Quaile", "Rasmussen", "Szabo", "Thorne", "Umeh", "Valcourt",
        "Whitlock", "Yilmaz", "Zeller", "Brannigan", "Caldwell", "Delacroix"]

CLAYS = [
    ("Speckled Buff Stoneware", "stoneware", "6", 31.50),
    ("Smooth White Stoneware", "stoneware", "6", 29.75),
    ("Red Rock Stoneware", "stoneware", "6", 30.25),
    ("Dark Chocolate Stoneware", "stoneware", "10", 34.00),
    ("Toasty Brown Stoneware", "stoneware", "10", 33.25),
    ("Grolleg Porcelain", "porcelain", "10", 46.50),
    ("Mid-Fire Porcelain", "porcelain", "6", 42.75),
    ("Translucent Porcelain", "porcelain", "10", 49.00),
    ("Terra Sigillata Red", "earthenware", "6", 27.50),
    ("Low-Fire White Earthenware", "earthenware", "6", 24.25),
    ("Raku Sculpture Body", "stoneware", "10", 36.75),
    ("Coarse Grog Sculpture", "stoneware", "10", 35.50),
    ("B-Mix Wheel Throwing", "stoneware", "6", 32.00),
    ("Iron Speckle Reduction", "stoneware", "10", 37.25),
    ("Paper Clay Blend", "porcelain", "6", 44.00),
    ("Recycled Studio Reclaim", "stoneware", "6", 12.00),
]

KILNS = {"north_electric": 10, "south_electric": 8, "gas_reduction": 12}
WHEEL_RATE = {"basic": 1400, "standard": 1100, "premium": 900}
WHEEL_ALLOWANCE = {"basic": 4, "standard": 12, "premium": 30}
SHELF_RATE = {"04": 600, "6": 800, "10": 1100}
KILN_DISCOUNT = {"basic": 0, "standard": 10, "premium": 20}
MAX_SHELVES = {"basic": 2, "standard": 3, "premium": 4}


def d(x):
    return x.isoformat()


def money(c):
    return round(c / 100.0, 2)


def build():
    rng = random.Random(SEED)
    db = {"meta": {"today": d(TODAY), "studio": "Claybank Community Pottery Studio",
                   "currency": "USD", "wheel_count": 8, "open_hour": 9, "close_hour": 21,
                   "closed_weekday": "Monday"}}

    members = {}
    names = set()
    for i in range(1, 61):
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in names:
                names.add((fn, ln))
                break
        tier = rng.choices(["basic", "standard", "premium"], [40, 35, 25])[0]
        status = rng.choices(["active", "suspended", "cancelled"], [76, 12, 12])[0]
        r = rng.random()
        if r < 0.2:
            exp = TODAY - datetime.timedelta(days=rng.randint(1, 60))
        elif r < 0.45:
            exp = TODAY + datetime.timedelta(days=rng.randint(0, 30))
        else:
            exp = TODAY + datetime.timedelta(days=rng.randint(31, 300))
        credit = rng.randint(0, 2000) if rng.random() < 0.15 else rng.randint(3000, 60000)
        members["M%03d" % i] = {
            "id": "M%03d" % i, "name": "%s %s" % (fn, ln),
            "email": "%s.%s@mailbox.example" % (fn.lower(), ln.lower()),
            "tier": tier, "status": status,
            "joined_on": d(TODAY - datetime.timedelta(days=rng.randint(90, 1500))),
            "expires_on": d(exp), "studio_credit": money(credit),
            "no_show_count": rng.choices([0, 1, 2, 3, 4], [68, 15, 8, 6, 3])[0],
        }
    db["members"] = members

    clays = {}
    for i, (name, body, cone, price) in enumerate(CLAYS, 1):
        stock = 0 if rng.random() < 0.15 else rng.randint(2, 45)
        clays["C%02d" % i] = {"id": "C%02d" % i, "name": name, "body_type": body,
                              "rated_cone": cone, "bag_kg": 11.3, "price_per_bag": price,
                              "stock_bags": stock,
                              "status": "discontinued" if i in (11, 15) else "stocked"}
    db["clays"] = clays

    # kiln firings
    firings = {}
    loads = {}
    kiln_names = list(KILNS)
    fid = 0
    day = TODAY - datetime.timedelta(days=28)
    while day <= TODAY + datetime.timedelta(days=32):
        for kiln in kiln_names:
            forced = (day - TODAY).days in (-2, 0, 1) and kiln != "gas_reduction"
            if not forced and rng.random() > 0.17:
                continue
            fid += 1
            if kiln == "gas_reduction":
                ftype, cone = "glaze", "10"
            else:
                ftype = rng.choice(["bisque", "glaze"])
                cone = "04" if ftype == "bisque" else "6"
            delta = (day - TODAY).days
            if delta < -2:
                status = "cancelled" if rng.random() < 0.1 else "completed"
            elif delta in (-2, -1):
                status = "firing"
            elif delta == 0:
                status = "loading" if kiln == "north_electric" else "firing"
            elif delta == 1:
                status = rng.choice(["open", "loading"])
            else:
                status = "cancelled" if rng.random() < 0.06 else "open"
            firings["F%03d" % fid] = {"id": "F%03d" % fid, "kiln": kiln, "firing_type": ftype,
                                      "cone": cone, "scheduled_on": d(day),
                                      "shelf_capacity": KILNS[kiln], "shelves_reserved": 0,
                                      "status": status}
        day += datetime.timedelta(days=1)
    db["firings"] = firings

    lid = 0
    mids = [m for m in members if members[m]["status"] == "active"]
    for f in firings.values():
        sched = datetime.date.fromisoformat(f["scheduled_on"])
        fill = rng.choice([0.3, 0.5, 0.7, 0.9, 1.0, 1.0])
        target = int(f["shelf_capacity"] * fill)
        chosen = rng.sample(mids, 4)
        used = 0
        for mid in chosen:
            m = members[mid]
            sh = rng.randint(1, MAX_SHELVES[m["tier"]])
            if used + sh > target:
                continue
            okclays = [c for c in clays if f["cone"] != "10" or clays[c]["rated_cone"] == "10"]
            cid = rng.choice(okclays)
            fee = sh * SHELF_RATE[f["cone"]] * (100 - KILN_DISCOUNT[m["tier"]]) // 100
            lid += 1
            rec = {"id": "L%04d" % lid, "firing_id": f["id"], "member_id": mid, "clay_id": cid,
                   "shelves": sh, "pieces": rng.randint(1, sh * 10), "fee": money(fee),
                   "status": "reserved",
                   "created_on": d(sched - datetime.timedelta(days=rng.randint(3, 20))),
                   "fired_on": None, "collected_on": None, "cancelled_on": None,
                   "storage_fee": 0.0}
            if f["status"] == "cancelled":
                rec["status"] = "cancelled"
                rec["cancelled_on"] = d(sched - datetime.timedelta(days=rng.randint(1, 3)))
            elif f["status"] == "completed":
                fired = sched + datetime.timedelta(days=1)
                rec["fired_on"] = d(fired)
                age = (TODAY - fired).days
                if rng.random() < (0.5 if age > 21 else 0.55):
                    rec["status"] = "fired"
                else:
                    rec["status"] = "collected"
                    got = fired + datetime.timedelta(days=rng.randint(1, min(30, max(1, age))))
                    if got > TODAY:
                        got = TODAY
                    rec["collected_on"] = d(got)
                    if (got - fired).days > 21:
                        rec["storage_fee"] = 5.0
            elif f["status"] == "open" and rng.random() < 0.12:
                rec["status"] = "cancelled"
                rec["cancelled_on"] = d(min(TODAY, sched - datetime.timedelta(days=3)))
            if rec["status"] != "cancelled" and f["status"] in ("open", "loading", "firing"):
                used += sh
            elif f["status"] == "completed":
                used += sh
            loads[rec["id"]] = rec
        if f["status"] in ("open", "loading", "firing"):
            f["shelves_reserved"] = sum(l["shelves"] for l in loads.values()
                                        if l["firing_id"] == f["id"] and l["status"] == "reserved")
        elif f["status"] == "completed":
            f["shelves_reserved"] = sum(l["shelves"] for l in loads.values()
                                        if l["firing_id"] == f["id"])
    db["kiln_loads"] = loads

    # wheel bookings
    bookings = []
    taken_member = set()
    taken_wheel = {}
    days = [TODAY + datetime.timedelta(days=k) for k in range(-24, 15)]
    days = [x for x in days if x.weekday() != 0]
    tries = 0
    while len(bookings) < 130 and tries < 5000:
        tries += 1
        day = rng.choice(days)
        mid = rng.choice(mids if rng.random() < 0.9 else list(members))
        if (mid, day) in taken_member:
            continue
        hours = rng.choices([1, 2, 3], [35, 45, 20])[0]
        start = rng.randint(9, 21 - hours)
        wheel = rng.randint(1, 8)
        slots = taken_wheel.setdefault((wheel, day), set())
        span = set(range(start, start + hours))
        if slots & span:
            continue
        delta = (day - TODAY).days
        if delta < 0:
            status = rng.choices(["completed", "no_show", "cancelled"], [80, 8, 12])[0]
            if delta >= -3 and rng.random() < 0.6:
                status = "booked"
        elif delta == 0:
            status = "booked"
        else:
            status = rng.choices(["booked", "cancelled"], [86, 14])[0]
        if status != "cancelled":
            slots |= span
            taken_member.add((mid, day))
        created = day - datetime.timedelta(days=rng.randint(0, 6))
        bookings.append({"member_id": mid, "wheel_no": wheel, "date": d(day),
                         "start_hour": start, "hours": hours, "status": status,
                         "created_on": d(min(created, TODAY)),
                         "cancelled_on": d(min(day, TODAY)) if status == "cancelled" else None})
    bookings.sort(key=lambda b: (b["created_on"], b["date"], b["start_hour"], b["wheel_no"]))
    out = {}
    for i, b in enumerate(bookings, 1):
        m = members[b["member_id"]]
        month = b["date"][:7]
        used_h = sum(o["hours"] for o in out.values() if o["member_id"] == b["member_id"]
                     and o["date"][:7] == month and o["status"] != "cancelled")
        left = max(0, WHEEL_ALLOWANCE[m["tier"]] - used_h)
        over = max(0, b["hours"] - left)
        rec = {"id": "B%04d" % i, "member_id": b["member_id"], "wheel_no": b["wheel_no"],
               "date": b["date"], "start_hour": b["start_hour"], "hours": b["hours"],
               "fee": money(over * WHEEL_RATE[m["tier"]]), "status": b["status"],
               "created_on": b["created_on"], "cancelled_on": b["cancelled_on"]}
        out[rec["id"]] = rec
    db["wheel_bookings"] = out
    return db


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "db.json"), "w") as fh:
        json.dump(build(), fh, indent=2, sort_keys=False)
        fh.write("\n")
