"""Writes db.json for the Alder Creek Vineyards member API (stdlib only, fixed seed)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

rng = random.Random(20250710)
TODAY = dt.date(2025, 7, 10)
CENT = Decimal("0.01")

TAX = {"CA": "0.0725", "OR": "0", "WA": "0.065", "NV": "0.0685", "AZ": "0.056", "CO": "0.029",
       "NY": "0.04", "TX": "0.0625", "IL": "0.0625", "FL": "0.06", "MA": "0.0625", "VA": "0.053"}
PICKUP_TAX = "0.0725"
TIER_RATE = {"classic": Decimal("0.10"), "reserve": Decimal("0.15"), "collector": Decimal("0.20")}


def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def iso(d):
    return d.isoformat()


def money(x):
    return float(q2(Decimal(x)))


FIRST = ["Ava", "Ben", "Carla", "Dmitri", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonah", "Keiko",
         "Luis", "Maya", "Nico", "Olga", "Priya", "Quinn", "Rosa", "Sam", "Tariq", "Uma", "Victor",
         "Wen", "Ximena", "Yusuf", "Zoe"]
LAST = ["Alvarez", "Brennan", "Castellano", "Dubois", "Eriksen", "Fontaine", "Goldberg", "Haddad",
        "Ivanova", "Jensen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Pereira",
        "Russo", "Sato", "Thornton", "Valdez", "Whitaker", "Yamada"]

# ------------------------------------------------------------------ members
members = {}
statuses = ["active"] * 47 + ["paused"] * 7 + ["cancelled"] * 6
rng.shuffle(statuses)
for i in range(60):
    mid = f"M{1001 + i}"
    first, last = rng.choice(FIRST), rng.choice(LAST)
    tier = rng.choices(["classic", "reserve", "collector"], [5, 4, 2])[0]
    bottles = {"classic": rng.randint(0, 30), "reserve": rng.randint(12, 60),
               "collector": rng.randint(36, 140)}[tier]
    joined = TODAY - dt.timedelta(days=rng.randint(120, 2200))
    r = rng.random()
    tier_changed = None if r < 0.45 else iso(TODAY - dt.timedelta(days=rng.randint(5, 89) if r < 0.7
                                                                    else rng.randint(90, 400)))
    st = statuses[i]
    members[mid] = {
        "member_id": mid, "name": f"{first} {last}",
        "email": f"{first.lower()}.{last.lower()}{i % 7}@mail.example",
        "tier": tier, "status": st,
        "credit_balance": 0.0 if st == "cancelled" or rng.random() < 0.3 else money(rng.randint(500, 18000) / 100),
        "bottles_purchased": bottles, "home_state": rng.choice(list(TAX)),
        "joined_on": iso(joined), "tier_changed_on": tier_changed,
        "status_changed_on": None if st == "active" else iso(TODAY - dt.timedelta(days=rng.randint(3, 200))),
    }
# a few classic members close to the 12-bottle mark, one reserve member just below 36
for mid, b in (("M1003", 11), ("M1004", 12), ("M1008", 35)):
    members[mid]["bottles_purchased"] = b

# ------------------------------------------------------------------ wines
VARIETALS = [("Cabernet Sauvignon", "red"), ("Pinot Noir", "red"), ("Zinfandel", "red"),
             ("Syrah", "red"), ("Merlot", "red"), ("Petite Sirah", "red"), ("Chardonnay", "white"),
             ("Sauvignon Blanc", "white"), ("Viognier", "white"), ("Riesling", "white"),
             ("Grenache Rose", "rose"), ("Blanc de Blancs", "sparkling"), ("Brut Rose", "sparkling"),
             ("Late Harvest Semillon", "dessert")]
SITES = ["Alder Creek", "Hawk Ridge", "Old Barn Block", "Cooper Bench", "Quarry Hill", "River Terrace",
         "Estate", "Foggy Knoll"]
wines = {}
for i in range(42):
    wid = f"W{101 + i}"
    var, color = VARIETALS[i % len(VARIETALS)]
    site = SITES[(i * 5) % len(SITES)]
    vintage = rng.choice([2017, 2018, 2019, 2020, 2021, 2022, 2023])
    library = vintage <= 2018 and color == "red"
    price = rng.choice([22, 26, 28, 32, 36, 38, 42, 45, 48, 55, 62, 68, 75]) + rng.choice([0, 0.5, 0.99])
    if library:
        price += 40
    min_tier = "collector" if library else rng.choices(["classic", "reserve"], [4, 1])[0]
    st = rng.choices(["available", "sold_out", "retired"], [32, 5, 4])[0]
    stock = 0 if st == "sold_out" else rng.choice([3, 5, 8, 14, 24, 36, 60, 96, 144, 210])
    if st == "retired":
        stock = rng.choice([0, 0, 6])
    wines[wid] = {
        "wine_id": wid, "name": f"{vintage} {site} {var}", "varietal": var, "vintage": vintage,
        "color": color, "price": money(price), "stock": stock,
        "max_per_order": 2 if library else rng.choice([6, 12, 12, 24]),
        "min_tier": min_tier, "status": st,
        "last_restocked_on": iso(TODAY - dt.timedelta(days=rng.randint(2, 300))),
    }

# ------------------------------------------------------------------ orders
RANK = {"classic": 0, "reserve": 1, "collector": 2}


def price_order(member, lines, fulfillment, state):
    sub = Decimal(0)
    out = []
    for wid, qty in lines:
        up = Decimal(str(wines[wid]["price"]))
        lt = q2(up * qty)
        sub += lt
        out.append({"wine_id": wid, "quantity": qty, "unit_price": float(up), "line_total": float(lt)})
    bottles = sum(q for _, q in lines)
    rate = TIER_RATE[member["tier"]] + (Decimal("0.05") if bottles >= 12 else 0)
    disc = q2(sub * rate)
    ship = Decimal(0) if fulfillment == "pickup" or bottles >= 12 else (
        Decimal("15.00") if bottles <= 5 else Decimal("25.00"))
    taxr = Decimal(PICKUP_TAX if fulfillment == "pickup" else TAX[state])
    tax = q2((sub - disc) * taxr)
    total = sub - disc + ship + tax
    return out, bottles, sub, rate, disc, ship, tax, total


orders = {}
mids = sorted(members)
open_ok = [m for m in mids if members[m]["status"] != "cancelled"]
wids = sorted(wines)
for i in range(130):
    oid = f"O{24001 + i}"
    age = rng.choice([0, 0, 1, 1, 2, 3, 4, 5, 6, 8, 10, 14, 20, 30, 45, 60, 90, 120, 150])
    created = TODAY - dt.timedelta(days=age)
    fulfillment = "pickup" if rng.random() < 0.3 else "ship"
    if age <= 4:
        kind = rng.choices(["placed", "progress", "cancelled"], [5, 3, 1])[0]
    else:
        kind = rng.choices(["done", "cancelled", "progress"], [8, 1, 1])[0]
    mid = rng.choice(open_ok if kind in ("placed", "progress") else mids)
    m = members[mid]
    state = None
    if fulfillment == "ship":
        state = m["home_state"] if rng.random() < 0.7 else rng.choice(list(TAX))
        if kind == "placed" and rng.random() < 0.3:
            state = rng.choice(["AZ", "NV", "TX", "FL"])
    nlines = rng.choice([1, 1, 2, 2, 3, 4])
    picks = rng.sample([w for w in wids if RANK[wines[w]["min_tier"]] <= RANK[m["tier"]]], nlines)
    lines = [(w, rng.randint(1, min(6, wines[w]["max_per_order"]))) for w in picks]
    if rng.random() < 0.12:
        lines = [(picks[0], min(12, wines[picks[0]]["max_per_order"]))] + lines[1:]
    out, bottles, sub, rate, disc, ship, tax, total = price_order(m, lines, fulfillment, state)
    credit = Decimal(0)
    if rng.random() < 0.25:
        credit = min(total, Decimal(rng.randint(5, 60)))
    o = {"order_id": oid, "member_id": mid, "status": "placed", "fulfillment": fulfillment,
         "ship_state": state, "lines": out, "bottle_count": bottles, "subtotal": float(q2(sub)),
         "discount_percent": float(rate * 100), "discount": float(disc), "shipping_fee": float(ship),
         "tax": float(tax), "total": float(q2(total)), "credit_applied": float(q2(credit)),
         "amount_due": float(q2(total - credit)), "created_on": iso(created), "shipped_on": None,
         "ready_on": None, "completed_on": None, "cancelled_on": None, "cancel_reason": None,
         "refund_amount": None}
    if kind == "cancelled":
        o.update(status="cancelled", cancelled_on=iso(created + dt.timedelta(days=min(age, rng.randint(0, 2)))),
                 cancel_reason=rng.choice(["member_request", "member_request", "payment_declined",
                                           "shipping_restriction", "other"]),
                 refund_amount=o["amount_due"])
    elif kind in ("progress", "done"):
        step = dt.timedelta(days=min(age, rng.randint(0, 2)))
        if fulfillment == "ship":
            o.update(status="shipped", shipped_on=iso(created + step))
            if kind == "done":
                o.update(status="delivered", completed_on=iso(created + step + dt.timedelta(days=rng.randint(2, 4))))
        else:
            o.update(status="ready_for_pickup", ready_on=iso(created + step))
            if kind == "done":
                o.update(status="picked_up", completed_on=iso(created + step + dt.timedelta(days=rng.randint(1, 4))))
    orders[oid] = o

# ------------------------------------------------------------------ tastings and reservations
TITLES = [("Barrel Room Pinot Flight", "classic", 35), ("Cave Library Vertical", "collector", 95),
          ("Sparkling on the Terrace", "classic", 30), ("Reserve Cabernet Seminar", "reserve", 60),
          ("Vineyard Walk and Taste", "classic", 40), ("Winemaker's Blending Lab", "reserve", 75),
          ("Sunset Rose Social", "classic", 25), ("Cheese and Chardonnay Pairing", "classic", 45)]
HOSTS = ["Marisol Vega", "Declan Shaw", "Anika Berg", "Tomas Ruiz"]
offsets = [-70, -63, -55, -48, -41, -34, -28, -21, -14, -9, -5, -2, 0, 1, 2, 3, 5, 6, 8, 9,
           13, 17, 21, 27, 34, 41, 48, 59, 60, 66, 75, 82]
tastings = {}
for i, off in enumerate(offsets):
    tid = f"T{301 + i}"
    title, mt, fee = TITLES[i % len(TITLES)]
    st = "completed" if off < 0 else "scheduled"
    if i in (6, 22):
        st = "cancelled"
    tastings[tid] = {"tasting_id": tid, "title": title, "tasting_date": iso(TODAY + dt.timedelta(days=off)),
                     "start_time": rng.choice(["11:00", "13:30", "16:00", "18:00"]), "host": rng.choice(HOSTS),
                     "capacity": rng.choice([10, 12, 16, 20, 24]), "seats_booked": 0,
                     "fee_per_guest": float(fee), "min_tier": mt, "status": st}

reservations = {}
n = 0
full = {"T315", "T321", "T324"}
for tid in sorted(tastings):
    t = tastings[tid]
    off = (dt.date.fromisoformat(t["tasting_date"]) - TODAY).days
    if off > 61:
        continue
    eligible = [m for m in mids if RANK[members[m]["tier"]] >= RANK[t["min_tier"]]
                and (members[m]["status"] == "active" or off < 0)]
    rng.shuffle(eligible)
    target = t["capacity"] if tid in full else rng.randint(2, t["capacity"] - 4)
    placed = 0
    for mid in eligible:
        if placed >= target:
            break
        size = min(rng.randint(1, 4), target - placed)
        n += 1
        rid = f"R{n:04d}"
        comp = 0 if members[mid]["tier"] == "classic" else 1
        fee = float(q2(Decimal(str(t["fee_per_guest"])) * (size - comp)))
        booked = TODAY + dt.timedelta(days=off - rng.randint(3, 40))
        r = {"reservation_id": rid, "tasting_id": tid, "member_id": mid, "party_size": size, "fee": fee,
             "status": "confirmed", "booked_on": iso(min(booked, TODAY)), "cancelled_on": None,
             "refund_amount": None}
        if t["status"] == "cancelled":
            r.update(status="cancelled", cancelled_on=iso(min(TODAY, TODAY + dt.timedelta(days=off - 3))),
                     refund_amount=fee)
        elif rng.random() < 0.1 and tid not in full:
            r.update(status="cancelled", cancelled_on=iso(min(TODAY, dt.date.fromisoformat(r["booked_on"])
                                                              + dt.timedelta(days=1))), refund_amount=fee)
        else:
            if off < 0:
                r["status"] = "attended"
            t["seats_booked"] += size
            placed += size
        if t["status"] == "cancelled":
            placed += size
        reservations[rid] = r

db = {"meta": {"today": iso(TODAY), "currency": "USD", "winery": "Alder Creek Vineyards",
               "winery_state": "CA"},
      "members": members, "wines": wines, "orders": orders, "tastings": tastings,
      "reservations": reservations}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as f:
    json.dump(db, f, indent=1)
print({k: len(v) for k, v in db.items()})
