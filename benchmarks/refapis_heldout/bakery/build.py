"""Writes db.json for the Crumb & Hearth preorder desk (stdlib only, fixed seed)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

SEED = 8128
TODAY = dt.date(2025, 6, 10)

PRODUCTS = [
    # name, category, unit, price, lead_days, oven_slots, allergens, max_qty, active
    ("Classic Vanilla Celebration Cake", "celebration_cake", "each", 48.00, 3, 4, ["gluten", "dairy", "eggs"], 2, True),
    ("Dark Chocolate Ganache Cake", "celebration_cake", "each", 56.50, 3, 4, ["gluten", "dairy", "eggs", "soy"], 2, True),
    ("Hazelnut Praline Layer Cake", "celebration_cake", "each", 64.00, 4, 5, ["gluten", "dairy", "eggs", "nuts"], 2, True),
    ("Lemon Elderflower Tiered Cake", "celebration_cake", "each", 118.00, 5, 8, ["gluten", "dairy", "eggs"], 1, True),
    ("Carrot Walnut Cake", "celebration_cake", "each", 52.00, 3, 4, ["gluten", "dairy", "eggs", "nuts"], 2, True),
    ("Vegan Raspberry Cake", "celebration_cake", "each", 58.00, 4, 4, ["gluten", "soy"], 2, True),
    ("Gluten-Free Almond Torte", "celebration_cake", "each", 61.25, 4, 4, ["eggs", "nuts", "dairy"], 2, True),
    ("Red Velvet Number Cake", "celebration_cake", "each", 74.90, 5, 6, ["gluten", "dairy", "eggs"], 1, False),
    ("Country Sourdough Loaf", "bread", "each", 7.50, 2, 1, ["gluten"], 12, True),
    ("Seeded Rye Loaf", "bread", "each", 8.25, 2, 1, ["gluten", "sesame"], 12, True),
    ("Brioche Loaf", "bread", "each", 9.40, 1, 1, ["gluten", "dairy", "eggs"], 10, True),
    ("Baguette", "bread", "each", 3.80, 1, 1, ["gluten"], 20, True),
    ("Walnut Raisin Loaf", "bread", "each", 8.90, 2, 1, ["gluten", "nuts"], 10, True),
    ("Spelt Sandwich Loaf", "bread", "each", 6.95, 1, 1, ["gluten"], 12, True),
    ("Challah", "bread", "each", 9.75, 2, 1, ["gluten", "eggs"], 8, True),
    ("Focaccia Tray", "bread", "each", 14.50, 1, 2, ["gluten"], 6, True),
    ("Gluten-Free Buckwheat Loaf", "bread", "each", 10.20, 2, 1, ["eggs"], 8, True),
    ("Butter Croissants (box of 6)", "pastry", "box", 16.80, 2, 1, ["gluten", "dairy"], 10, True),
    ("Almond Croissants (box of 6)", "pastry", "box", 19.20, 2, 1, ["gluten", "dairy", "nuts"], 10, True),
    ("Cinnamon Buns (box of 6)", "pastry", "box", 15.60, 1, 1, ["gluten", "dairy", "eggs"], 10, True),
    ("Fruit Danish (box of 6)", "pastry", "box", 17.40, 2, 1, ["gluten", "dairy", "eggs"], 8, True),
    ("Sesame Pretzel Knots (box of 6)", "pastry", "box", 12.30, 1, 1, ["gluten", "sesame"], 8, True),
    ("Macaron Tower (30 pieces)", "pastry", "box", 42.00, 3, 2, ["eggs", "nuts"], 2, True),
    ("Pistachio Eclairs (box of 6)", "pastry", "box", 21.90, 2, 1, ["gluten", "dairy", "eggs", "nuts"], 6, False),
]

FIRST = ["Ada", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas",
         "Keiko", "Luca", "Maya", "Nils", "Olga", "Pavel", "Quinn", "Rosa", "Samir", "Tessa",
         "Umar", "Vera", "Wes", "Xenia", "Yusuf", "Zoe", "Amir", "Bea", "Cyril", "Dana",
         "Emil", "Fatima", "Gil", "Hana", "Ivo", "Jade", "Kofi", "Lena", "Marek", "Nora"]
LAST = ["Adler", "Brandt", "Costa", "Duval", "Eriksen", "Fischer", "Garcia", "Horvat", "Ilic",
        "Jensen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi",
        "Sato", "Thorne"]
ALLERGY_CHOICES = [[], [], [], [], [], ["nuts"], ["dairy"], ["gluten"], ["sesame"], ["nuts", "sesame"], ["eggs"], ["soy"]]
TIER_RATE = {"standard": "0.00", "silver": "0.05", "gold": "0.10"}


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def main():
    rng = random.Random(SEED)
    db = {"meta": {"today": TODAY.isoformat(), "bakery": "Crumb & Hearth", "currency": "EUR",
                   "timezone": "Europe/Berlin"},
          "products": {}, "customers": {}, "oven_days": {}, "orders": {}}

    for i, (name, cat, unit, price, lead, slots, allergens, mx, active) in enumerate(PRODUCTS, 1):
        pid = "P%03d" % i
        db["products"][pid] = {"product_id": pid, "name": name, "category": cat, "unit": unit,
                               "unit_price": price, "lead_time_days": lead, "oven_slots": slots,
                               "allergens": allergens, "max_quantity": mx, "active": active}

    for i in range(1, 41):
        cid = "C%03d" % i
        tier = rng.choice(["standard"] * 5 + ["silver"] * 3 + ["gold"] * 2)
        spend = {"standard": rng.uniform(0, 290), "silver": rng.uniform(300, 980),
                 "gold": rng.uniform(1000, 2600)}[tier]
        fn, ln = FIRST[i - 1], rng.choice(LAST)
        noshow = rng.choice([0] * 8 + [1] * 2)
        status = "active"
        if i in (7, 23, 34):
            noshow, status = 2, "suspended"
        db["customers"][cid] = {
            "customer_id": cid, "name": "%s %s" % (fn, ln),
            "email": "%s.%s@example.com" % (fn.lower(), ln.lower()),
            "phone": "+49 30 %04d %03d" % (rng.randint(1000, 9999), rng.randint(100, 999)),
            "loyalty_tier": tier, "lifetime_spend": money(spend),
            "store_credit": rng.choice([0.0] * 5 + [5.0, 12.5, 20.0, 35.75, 60.0, 150.0]),
            "allergies": list(rng.choice(ALLERGY_CHOICES)), "no_show_count": noshow,
            "status": status, "joined_on": (TODAY - dt.timedelta(days=rng.randint(30, 900))).isoformat()}
    # a couple of customers with a large credit balance for pickup/deposit with store credit
    db["customers"]["C004"]["store_credit"] = 240.0
    db["customers"]["C012"]["store_credit"] = 185.5

    for off in range(-10, 31):
        d = TODAY + dt.timedelta(days=off)
        wd = d.weekday()
        closed = wd == 0 or d == dt.date(2025, 6, 19)  # Mondays + a public holiday
        cap = 0 if closed else (48 if wd == 5 else 30 if wd == 6 else 36)
        db["oven_days"][d.isoformat()] = {"date": d.isoformat(), "weekday": d.strftime("%A"),
                                          "capacity": cap, "booked_slots": 0, "closed": closed,
                                          "note": "public holiday" if d == dt.date(2025, 6, 19)
                                          else ("closed on Mondays" if closed else None)}

    prods = db["products"]
    cust_ids = [c for c in db["customers"]]
    n = 0
    tries = 0
    open_by_cust_date = set()
    while n < 72 and tries < 5000:
        tries += 1
        cid = rng.choice(cust_ids)
        cust = db["customers"][cid]
        off = rng.choice(list(range(-10, -1)) + [-1] * 3 + [0] * 4 + [1] * 3 + list(range(2, 22)))
        pday = TODAY + dt.timedelta(days=off)
        oday = db["oven_days"][pday.isoformat()]
        if oday["closed"] or (cid, pday) in open_by_cust_date:
            continue
        if sum(1 for c, _ in open_by_cust_date if c == cid) >= 3 and off >= -1:
            continue
        if cust["status"] == "suspended" and off > 0:
            continue
        ok = [p for p in prods.values() if p["active"] and not set(p["allergens"]) & set(cust["allergies"])]
        nlines = rng.choice([1, 1, 2, 2, 3])
        chosen = rng.sample(ok, nlines)
        lines = []
        for p in sorted(chosen, key=lambda p: p["product_id"]):
            q = rng.randint(1, min(p["max_quantity"], 4 if p["category"] != "celebration_cake" else 1))
            lines.append({"product_id": p["product_id"], "quantity": q, "unit_price": p["unit_price"],
                          "line_total": money(Decimal(str(p["unit_price"])) * q)})
        slots = sum(prods[l["product_id"]]["oven_slots"] * l["quantity"] for l in lines)
        if oday["booked_slots"] + slots > oday["capacity"]:
            continue
        lead = max(prods[l["product_id"]]["lead_time_days"] for l in lines)
        placed = min(TODAY, pday - dt.timedelta(days=lead + rng.randint(0, 9)))
        has_cake = any(prods[l["product_id"]]["category"] == "celebration_cake" for l in lines)
        subtotal = money(sum(Decimal(str(l["line_total"])) for l in lines))
        rate = TIER_RATE[cust["loyalty_tier"]]
        disc = money(Decimal(str(subtotal)) * Decimal(rate))
        total = money(Decimal(str(subtotal)) - Decimal(str(disc)))
        dep = 0.0 if total < 20 else money(Decimal(str(total)) * Decimal("0.50" if has_cake else "0.20"))
        # status by pickup offset
        if off <= -2:
            status = rng.choice(["picked_up"] * 6 + ["no_show", "cancelled", "ready", "confirmed"])
        elif off == -1:
            status = rng.choice(["picked_up", "ready", "ready"])
        elif off == 0:
            status = rng.choice(["ready", "ready", "ready", "confirmed", "picked_up"])
        elif off == 1:
            status = rng.choice(["confirmed", "confirmed", "ready", "pending_deposit"])
        else:
            status = rng.choice(["pending_deposit", "pending_deposit", "confirmed", "confirmed", "confirmed", "cancelled"])
        if status == "pending_deposit" and dep == 0:
            status = "confirmed"
        n += 1
        oid = "O%04d" % n
        o = {"order_id": oid, "customer_id": cid, "status": status, "placed_on": placed.isoformat(),
             "pickup_date": pday.isoformat(), "items": lines,
             "inscription": rng.choice(["Happy Birthday %s!" % cust["name"].split()[0], "Congratulations!",
                                        "Happy Anniversary", None]) if has_cake else None,
             "oven_slots": slots, "subtotal": subtotal, "discount_rate": float(rate), "discount_amount": disc,
             "total": total, "deposit_required": dep, "deposit_paid": 0.0, "deposit_method": None,
             "balance_due": total, "amendment_count": rng.choice([0, 0, 0, 1, 2]) if status != "pending_deposit" else 0,
             "ready_on": None, "picked_up_on": None, "pickup_payment_method": None,
             "amount_paid_at_pickup": None, "cancelled_on": None, "cancel_reason": None,
             "cancellation_fee": None, "refund_amount": None, "no_show_on": None, "forfeited_amount": None}
        if status != "pending_deposit" and dep > 0:
            o["deposit_paid"] = dep
            o["deposit_method"] = rng.choice(["card", "card", "store_credit"])
            o["balance_due"] = money(Decimal(str(total)) - Decimal(str(dep)))
        if status in ("ready", "picked_up", "no_show"):
            o["ready_on"] = (pday - dt.timedelta(days=rng.choice([0, 1]))).isoformat()
        if status == "picked_up":
            o["picked_up_on"] = (pday + dt.timedelta(days=rng.choice([0, 0, 0, 1]) if off <= -2 else 0)).isoformat()
            o["pickup_payment_method"] = rng.choice(["card", "cash", "card", "store_credit"])
            o["amount_paid_at_pickup"] = o["balance_due"]
            o["balance_due"] = 0.0
        if status == "no_show":
            o["no_show_on"] = (pday + dt.timedelta(days=2)).isoformat()
            o["forfeited_amount"] = o["deposit_paid"]
            o["balance_due"] = 0.0
        if status == "cancelled":
            cday = min(TODAY, pday - dt.timedelta(days=rng.choice([1, 3, 5, 8, 10])))
            cday = max(cday, placed)
            days = (pday - cday).days
            pct = "0" if days >= 7 else ("0.25" if days >= 2 else "0.50")
            fee = min(money(Decimal(str(total)) * Decimal(pct)), o["deposit_paid"])
            o["cancelled_on"] = cday.isoformat()
            o["cancel_reason"] = rng.choice(["customer_request", "schedule_change", "allergy_concern", "other"])
            o["cancellation_fee"] = fee
            o["refund_amount"] = money(Decimal(str(o["deposit_paid"])) - Decimal(str(fee)))
            o["balance_due"] = 0.0
        else:
            oday["booked_slots"] += slots
            if status in ("pending_deposit", "confirmed", "ready"):
                open_by_cust_date.add((cid, pday))
        db["orders"][oid] = o

    # two reduced-capacity days (oven maintenance) that are almost fully booked
    for d, note in (("2025-06-13", "one oven under maintenance"), ("2025-06-18", "one oven under maintenance")):
        od = db["oven_days"][d]
        od["capacity"] = od["booked_slots"] + 3
        od["note"] = note

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as f:
        json.dump(db, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
