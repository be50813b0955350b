"""Writes db.json for the Copper Ladle catering booking desk (stdlib only, fixed seed).

Run `python build.py`; the output lands beside this file and is identical on every run.
"""
import json
import math
import os
import random
from datetime import date, datetime, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 20251008
TODAY = date(2025, 10, 8)
NOW = "2025-10-08T09:30"
CENT = Decimal("0.01")
SERVICE_RATE = Decimal("0.18")
TAX_RATE = Decimal("0.07")
NONPROFIT_RATE = Decimal("0.10")
DEPOSIT_RATE = Decimal("0.30")
CAPACITY = 500
SETUP_HOURS = 2
BLACKOUT = ["2025-11-27", "2025-12-24", "2025-12-25", "2026-01-01"]

PACKAGES = [
    # name, style, price per guest, min, max, guests per staff, lead days, active
    ("Harvest Table Buffet", "buffet", "38.50", 30, 300, 25, 10, True),
    ("Riverside Smokehouse Buffet", "buffet", "32.00", 25, 250, 25, 7, True),
    ("Mezze & Flatbread Buffet", "buffet", "41.75", 30, 220, 25, 10, True),
    ("Sunrise Breakfast Buffet", "buffet", "21.50", 20, 200, 30, 5, True),
    ("Classic Three-Course Plated", "plated", "72.00", 40, 250, 12, 21, True),
    ("Chef's Tasting Menu", "plated", "118.00", 20, 120, 8, 30, True),
    ("Autumn Orchard Plated Dinner", "plated", "84.50", 30, 200, 12, 21, False),
    ("Garden Party Plated Lunch", "plated", "56.00", 20, 150, 14, 14, True),
    ("Tuscan Long Table", "family_style", "64.00", 20, 160, 15, 14, True),
    ("Low Country Supper", "family_style", "52.50", 20, 180, 15, 14, True),
    ("Lantern Dim Sum Feast", "family_style", "58.00", 16, 120, 15, 14, False),
    ("Passed Canape Reception", "cocktail", "46.00", 40, 400, 20, 14, True),
    ("Oyster & Sparkling Reception", "cocktail", "79.00", 30, 200, 18, 21, True),
    ("After-Work Small Bites", "cocktail", "29.50", 25, 300, 25, 7, True),
    ("Executive Boxed Lunch", "boxed_lunch", "18.75", 10, 400, 50, 3, True),
    ("Corner Deli Boxed Lunch", "boxed_lunch", "14.25", 10, 500, 60, 3, True),
    ("Grain Bowl Boxed Lunch", "boxed_lunch", "19.50", 10, 300, 50, 4, True),
    ("Grand Wedding Buffet", "buffet", "89.00", 80, 400, 20, 45, True),
    ("Winter Holiday Plated Feast", "plated", "96.00", 40, 300, 12, 30, True),
    ("Street Taco Cart Buffet", "buffet", "27.00", 30, 350, 30, 5, False),
]
DESCRIPTIONS = {
    "buffet": "Self-serve stations with chafing dishes, replenished by servers.",
    "plated": "Seated service, each course plated in the field kitchen.",
    "family_style": "Shared platters passed at long tables.",
    "cocktail": "Standing reception with passed and stationed bites.",
    "boxed_lunch": "Individually labelled boxes delivered and set out on tables.",
}

ADDONS = [
    # name, category, pricing, price, active
    ("Vegan entree substitution", "dietary", "per_guest", "6.50", True),
    ("Gluten-free plating", "dietary", "per_guest", "4.75", True),
    ("Halal-certified proteins", "dietary", "per_guest", "7.25", True),
    ("Kosher-style preparation", "dietary", "per_guest", "9.00", True),
    ("Nut-free kitchen protocol", "dietary", "flat", "150.00", True),
    ("Allergen cards at every station", "dietary", "flat", "60.00", True),
    ("Low-sodium plates", "dietary", "per_guest", "3.50", False),
    ("Soft drink and water station", "beverage", "per_guest", "4.00", True),
    ("Coffee and tea service", "beverage", "per_guest", "3.25", True),
    ("Beer and wine bar", "beverage", "per_guest", "18.00", True),
    ("Signature cocktail hour", "beverage", "per_guest", "14.50", True),
    ("Linen upgrade", "rental", "flat", "275.00", True),
    ("China and glassware", "rental", "per_guest", "5.50", True),
    ("Tent and patio heaters", "rental", "flat", "850.00", False),
    ("Cake cutting and plating", "service", "flat", "95.00", True),
    ("Late-night snack station", "service", "per_guest", "8.00", True),
]

STAFF = [
    # role, count, hourly range
    ("server", 13, (26, 30)), ("bartender", 6, (30, 35)), ("chef", 6, (38, 46)), ("captain", 5, (42, 49)),
]
FIRST = ["Ana", "Bruno", "Carla", "Dmitri", "Elif", "Farah", "Gideon", "Hana", "Ivo", "Jules", "Kofi",
         "Lena", "Mateo", "Nadia", "Oren", "Priya", "Quinn", "Rosa", "Soren", "Talia", "Umar", "Vera",
         "Wes", "Ximena", "Yusuf", "Zora", "Amos", "Bea", "Cyrus", "Delphine", "Emeka", "Freya"]
LAST = ["Abara", "Brandt", "Castillo", "Dunmore", "Eriksen", "Fiore", "Gallo", "Haddad", "Ishikawa",
        "Jovanovic", "Kaur", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrova", "Quill", "Reyes",
        "Sato", "Tremblay", "Ueda", "Varga", "Whitlock", "Yilmaz", "Zeller", "Achebe", "Bianchi"]
CORPORATE = ["Halvorsen Biotech", "Marlow & Pike LLP", "Northgate Credit Union", "Tessellate Software",
             "Bluefin Logistics", "Ardent Architecture", "Crescent Realty Group", "Quarry Lane Motors",
             "Pinecrest Dental Partners", "Orbital Print Works", "Sable Ridge Winery", "Kestrel Insurance",
             "Ironwood Engineering"]
NONPROFIT = ["Eastside Food Pantry", "River Valley Arts Council", "Friends of Mill Park",
             "Harbor Literacy Project", "St. Brendan's Youth League", "Open Door Shelter",
             "Cedar Hollow Historical Society"]
VENUES = ["Mill Park Pavilion", "Larkspur Community Hall", "Harbor View Rooftop", "The Old Foundry",
          "Client office, 400 Main St", "Client residence", "Cedar Hollow Barn", "Riverside Boathouse",
          "Union Station Atrium", "St. Brendan's Parish Hall", "Greenway Conference Center",
          "Lakeshore Gardens"]
EVENTS = {
    "individual": ["Wedding reception", "50th birthday dinner", "Graduation party", "Rehearsal dinner",
                   "Anniversary supper", "Baby shower brunch", "Retirement party", "Family reunion"],
    "corporate": ["Quarterly all-hands lunch", "Client appreciation evening", "Board meeting lunch",
                  "Product launch reception", "Holiday party", "Training day catering",
                  "Investor breakfast"],
    "nonprofit": ["Annual benefit gala", "Volunteer thank-you lunch", "Donor breakfast",
                  "Community open house", "Fundraising auction reception"],
}
CANCEL_REASONS = ["Venue fell through", "Event postponed indefinitely", "Budget cut",
                  "Client chose another caterer", "Guest of honour unwell", "Date clash with another event",
                  "Merged into a larger event"]


def q(x):
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)


def stamp(d, rng, lo=8, hi=17):
    return datetime(d.year, d.month, d.day, rng.randint(lo, hi), rng.choice([0, 10, 20, 30, 40, 50])).strftime(
        "%Y-%m-%dT%H:%M")


def price(db, bk):
    pkg = db["packages"][bk["package_id"]]
    food = q(pkg["price_per_guest"]) * bk["guest_count"]
    extras = sum((q(a["line_total"]) for a in bk["addons"]), Decimal("0"))
    base = food + extras
    disc = q(base * NONPROFIT_RATE) if db["clients"][bk["client_id"]]["client_type"] == "nonprofit" else Decimal("0")
    net = base - disc
    svc = q(net * SERVICE_RATE)
    tax = q((net + svc) * TAX_RATE)
    total = net + svc + tax
    bk.update(staff_required=math.ceil(bk["guest_count"] / pkg["guests_per_staff"]),
              food_subtotal=float(food), addons_subtotal=float(extras), discount=float(disc),
              service_charge=float(svc), tax=float(tax), total=float(total),
              deposit_required=float(q(total * DEPOSIT_RATE)))


def terms(client):
    return 30 if client["client_type"] == "corporate" else 14


def main():
    rng = random.Random(SEED)
    db = {"meta": {
        "today": TODAY.isoformat(), "now": NOW, "company": "Copper Ladle Catering Co.", "currency": "USD",
        "daily_guest_capacity": CAPACITY, "blackout_dates": BLACKOUT, "booking_horizon_days": 365,
        "hold_days": 7, "service_charge_rate": 0.18, "tax_rate": 0.07, "nonprofit_discount_rate": 0.10,
        "deposit_rate": 0.30, "setup_hours": SETUP_HOURS, "addon_cutoff_days": 5,
        "payment_terms_days": {"corporate": 30, "individual": 14, "nonprofit": 14},
    }}

    clients = {}
    types = ["individual"] * 25 + ["corporate"] * 13 + ["nonprofit"] * 7
    rng.shuffle(types)
    corp, nonp = list(CORPORATE), list(NONPROFIT)
    for i, ct in enumerate(types, 1):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        org = corp.pop() if ct == "corporate" else (nonp.pop() if ct == "nonprofit" else None)
        cid = "CL%03d" % i
        clients[cid] = {
            "id": cid, "name": "%s %s" % (first, last), "organization": org, "client_type": ct,
            "email": "%s.%s%d@%s" % (first.lower(), last.lower(), i,
                                     "mail.example" if org is None else
                                     org.lower().replace(" ", "").replace("&", "").replace(".", "").replace("'", "")
                                     + ".example"),
            "phone": "555-%03d-%04d" % (rng.randint(200, 989), rng.randint(0, 9999)),
            "client_since": (TODAY - timedelta(days=rng.randint(60, 2200))).isoformat(),
            "active_bookings": 0, "balance_due": 0.0}
    db["clients"] = clients

    packages = {}
    for i, (name, style, p, lo, hi, gps, lead, active) in enumerate(PACKAGES, 1):
        pid = "PK%02d" % i
        packages[pid] = {"id": pid, "name": name, "service_style": style, "price_per_guest": float(p),
                         "min_guests": lo, "max_guests": hi, "guests_per_staff": gps, "lead_days": lead,
                         "active": active, "description": DESCRIPTIONS[style]}
    db["packages"] = packages

    addons = {}
    for i, (name, cat, pricing, p, active) in enumerate(ADDONS, 1):
        aid = "AD%02d" % i
        addons[aid] = {"id": aid, "name": name, "category": cat, "pricing": pricing, "price": float(p),
                       "active": active}
    db["addons"] = addons

    staff = {}
    n = 0
    for role, count, (lo, hi) in STAFF:
        for _ in range(count):
            n += 1
            sid = "ST%02d" % n
            staff[sid] = {"id": sid, "name": "%s %s" % (rng.choice(FIRST), rng.choice(LAST)), "role": role,
                          "hourly_rate": float(q(rng.randint(lo * 4, hi * 4) / 4)), "status": "active"}
    for sid in ("ST07", "ST21", "ST29"):
        staff[sid]["status"] = "on_leave"
    db["staff"] = staff

    # ------------------------------------------------------------ bookings
    def pick_day(lo, hi):
        while True:
            d = TODAY + timedelta(days=rng.randint(lo, hi))
            if d.isoformat() not in BLACKOUT:
                return d

    specs = []  # (status, event date, extra)
    for _ in range(18):
        specs.append(("settled", pick_day(-80, -14), {}))
    for _ in range(12):
        specs.append(("invoiced", pick_day(-40, -4), {}))
    for k in (0, 0, 1, 2, 4, 6):
        specs.append(("confirmed", TODAY - timedelta(days=k), {}))
    for k in (1, 2, 3, 3, 5, 6, 8, 9, 11, 12, 13):
        specs.append(("confirmed", TODAY + timedelta(days=k), {}))
    for _ in range(19):
        specs.append(("confirmed", pick_day(14, 210), {}))
    for k in range(20):
        specs.append(("tentative", None, {"lapsed": k < 7}))
    for _ in range(8):
        specs.append(("cancelled", pick_day(-70, -3), {}))
    for _ in range(10):
        specs.append(("cancelled", pick_day(2, 150), {}))
    busy = TODAY + timedelta(days=24)
    busy_specs = [("confirmed", busy, {"pkg": "PK16", "guests": 210}),
                  ("confirmed", busy, {"pkg": "PK12", "guests": 150}),
                  ("tentative", busy, {"pkg": "PK01", "guests": 112, "lapsed": False})]
    specs.extend(busy_specs)

    cids = sorted(clients)
    active_pk = [p for p in sorted(packages) if packages[p]["active"]]
    taken = set()  # (client, date) of non-cancelled bookings
    load = {}  # date -> guests of non-cancelled bookings
    raw = []
    for status, day, extra in specs:
        for _attempt in range(200):
            pid = extra.get("pkg") or rng.choice(active_pk if status in ("tentative", "confirmed", "cancelled")
                                                 or rng.random() < 0.8 else sorted(packages))
            pkg = packages[pid]
            lead = pkg["lead_days"]
            if status == "tentative":
                k = rng.randint(8, 20) if extra["lapsed"] else rng.randint(0, 6)
                created = TODAY - timedelta(days=k)
                if day is None:
                    ev = max(created + timedelta(days=lead), TODAY + timedelta(days=3))
                    ev = ev + timedelta(days=rng.randint(0, 120))
                else:
                    ev = day
            else:
                ev = day
                created = ev - timedelta(days=lead + rng.randint(1, 100))
                if created >= TODAY:
                    created = TODAY - timedelta(days=rng.randint(1, 5))
            if (ev - created).days < lead or ev.isoformat() in BLACKOUT:
                continue
            cid = rng.choice(cids)
            ct = clients[cid]["client_type"]
            if status != "cancelled" and (cid, ev) in taken:
                continue
            hi = min(pkg["max_guests"], 140 if pkg["service_style"] != "boxed_lunch" else 240)
            guests = extra.get("guests") or rng.randint(pkg["min_guests"], max(pkg["min_guests"], hi))
            if status != "cancelled" and load.get(ev, 0) + guests > (CAPACITY if day != busy else 480):
                continue
            break
        else:
            raise SystemExit("could not place booking %s %s" % (status, day))
        if status != "cancelled":
            taken.add((cid, ev))
            load[ev] = load.get(ev, 0) + guests
        raw.append((created, stamp(created, rng), status, ev, cid, ct, pid, guests, extra))

    raw.sort(key=lambda r: (r[1], r[3].isoformat()))
    bookings, invoices, assignments = {}, {}, {}
    for i, (created, created_at, status, ev, cid, ct, pid, guests, extra) in enumerate(raw, 1):
        bid = "BK%04d" % i
        pkg = packages[pid]
        style = pkg["service_style"]
        if style == "boxed_lunch":
            start = rng.choice(["07:30", "08:00", "11:00", "11:30", "11:45", "12:00", "12:30"])
        elif style == "cocktail":
            start = rng.choice(["16:00", "16:30", "17:00", "17:30", "18:00", "19:00", "20:00"])
        elif pid == "PK04":
            start = rng.choice(["07:00", "07:30", "08:00", "08:15", "09:00"])
        else:
            start = rng.choice(["11:00", "11:30", "12:00", "17:00", "17:30", "18:00", "18:30", "19:00"])
        future_open = status in ("tentative", "confirmed") and ev > TODAY
        pool = [a for a in sorted(addons) if addons[a]["active"] or not future_open]
        lines = []
        for aid in sorted(rng.sample(pool, rng.choice([0, 1, 1, 2, 2, 3]))):
            ad = addons[aid]
            if ad["pricing"] == "flat":
                qty = 1
            elif ad["category"] == "dietary":
                qty = rng.randint(1, max(2, guests // 6))
            else:
                qty = guests
            lines.append({"addon_id": aid, "quantity": qty, "unit_price": ad["price"],
                          "line_total": float(q(ad["price"]) * qty)})
        bk = {"id": bid, "client_id": cid, "package_id": pid,
              "event_name": rng.choice(EVENTS[ct]), "event_date": ev.isoformat(), "start_time": start,
              "duration_hours": rng.choice([2, 3, 3, 4, 4, 5, 6]) if style != "boxed_lunch" else 2,
              "venue": rng.choice(VENUES), "guest_count": guests, "addons": lines,
              "notes": rng.choice(["", "", "", "Load-in through the side door", "Client will supply the cake",
                                   "Two high chairs needed", "Parking permit at front desk",
                                   "Call the venue manager on arrival"]),
              "status": status, "created_at": created_at,
              "hold_expires": min(created + timedelta(days=7), ev - timedelta(days=1)).isoformat(),
              "confirmed_at": None, "deposit_paid": 0.0, "deposit_method": None,
              "staff_required": 0, "staff_assigned": 0, "food_subtotal": 0.0, "addons_subtotal": 0.0,
              "discount": 0.0, "service_charge": 0.0, "tax": 0.0, "total": 0.0, "deposit_required": 0.0,
              "invoiced_at": None, "final_invoice_id": None, "settled_at": None, "cancelled_at": None,
              "cancel_reason": None, "cancellation_fee": None, "deposit_refund": None}
        bookings[bid] = bk
        price(db, bk)
        was_confirmed = status in ("confirmed", "invoiced", "settled") or (
            status == "cancelled" and rng.random() < 0.7)
        if was_confirmed:
            gap = max(0, min(6, (min(ev, TODAY) - created).days - 1))
            cday = created + timedelta(days=rng.randint(0, gap))
            bk["confirmed_at"] = stamp(cday, rng)
            if bk["confirmed_at"] <= created_at:
                bk["confirmed_at"] = created_at
            bk["hold_expires"] = None
            req = q(bk["deposit_required"])
            total = q(bk["total"])
            r = rng.random()
            dep = req if r < 0.7 else min(total, (req / 100).to_integral_value(rounding="ROUND_CEILING") * 100)
            bk["deposit_paid"] = float(dep)
            bk["deposit_method"] = rng.choice(["card", "card", "bank_transfer", "check"])
        if status == "cancelled":
            latest = min(TODAY, ev - timedelta(days=1))
            first = datetime.fromisoformat(bk["confirmed_at"] or created_at).date()
            cday = first + timedelta(days=rng.randint(0, max(0, (latest - first).days)))
            bk["cancelled_at"] = stamp(cday, rng)
            if bk["cancelled_at"] < (bk["confirmed_at"] or created_at):
                bk["cancelled_at"] = bk["confirmed_at"] or created_at
            bk["cancel_reason"] = rng.choice(CANCEL_REASONS)
            if was_confirmed:
                out = (ev - cday).days
                pct = Decimal("0") if out >= 60 else Decimal("0.25") if out >= 30 else (
                    Decimal("0.50") if out >= 10 else Decimal("1"))
                fee = q(q(bk["total"]) * pct)
                paid = q(bk["deposit_paid"])
                bk["cancellation_fee"] = float(fee)
                bk["deposit_refund"] = float(max(paid - fee, Decimal("0")))
                if fee > paid:
                    iid = "INV-%04d" % (len(invoices) + 1)
                    due = cday + timedelta(days=terms(clients[cid]))
                    paid_day = cday + timedelta(days=rng.randint(2, 20))
                    settled = paid_day < TODAY and rng.random() < 0.6
                    invoices[iid] = {"id": iid, "booking_id": bid, "client_id": cid, "kind": "cancellation",
                                     "amount": float(fee - paid), "amount_paid": float(fee - paid) if settled else 0.0,
                                     "status": "paid" if settled else "open", "issued_on": cday.isoformat(),
                                     "due_date": due.isoformat(),
                                     "paid_at": stamp(paid_day, rng) if settled else None}
            else:
                bk["cancellation_fee"] = 0.0
                bk["deposit_refund"] = 0.0
        if status in ("invoiced", "settled"):
            iday = ev + timedelta(days=rng.randint(1, 3))
            if iday >= TODAY:
                iday = TODAY - timedelta(days=1)
            amount = q(bk["total"]) - q(bk["deposit_paid"])
            iid = "INV-%04d" % (len(invoices) + 1)
            inv = {"id": iid, "booking_id": bid, "client_id": cid, "kind": "final", "amount": float(amount),
                   "amount_paid": 0.0, "status": "open", "issued_on": iday.isoformat(),
                   "due_date": (iday + timedelta(days=terms(clients[cid]))).isoformat(), "paid_at": None}
            bk["invoiced_at"] = stamp(iday, rng)
            bk["final_invoice_id"] = iid
            if status == "settled":
                pday = min(TODAY - timedelta(days=1), iday + timedelta(days=rng.randint(2, 25)))
                inv.update(amount_paid=float(amount), status="paid", paid_at=stamp(pday, rng, 9, 18))
                if inv["paid_at"] < bk["invoiced_at"]:
                    inv["paid_at"] = bk["invoiced_at"]
                bk["settled_at"] = inv["paid_at"]
            elif rng.random() < 0.35:
                inv["amount_paid"] = float(q(amount * Decimal(rng.choice(["0.25", "0.40", "0.50"]))))
            invoices[iid] = inv

    # ------------------------------------------------------------ staff assignments
    busy_staff = {}  # date -> set of staff with a scheduled assignment

    def staff_for(bk, want, status, when):
        has_bev = any(addons[a["addon_id"]]["category"] == "beverage" for a in bk["addons"])
        used = busy_staff.setdefault(bk["event_date"], set())
        captain = False
        picked = 0
        for sid in rng.sample(sorted(staff), len(staff)):
            if picked >= want:
                break
            s = staff[sid]
            if s["status"] != "active" or sid in used:
                continue
            if s["role"] == "bartender" and not has_bev:
                continue
            if s["role"] == "captain":
                if captain:
                    continue
                captain = True
            aid = "AS%04d" % (len(assignments) + 1)
            hours = bk["duration_hours"] + SETUP_HOURS
            assignments[aid] = {"id": aid, "booking_id": bk["id"], "staff_id": sid, "role": s["role"],
                                "event_date": bk["event_date"], "hours": hours,
                                "labor_cost": float(q(s["hourly_rate"]) * hours), "status": status,
                                "assigned_at": when, "released_at": None}
            if status == "scheduled":
                used.add(sid)
                bk["staff_assigned"] += 1
            else:
                assignments[aid]["released_at"] = bk["cancelled_at"]
            picked += 1

    for bid in sorted(bookings):
        bk = bookings[bid]
        ev = date.fromisoformat(bk["event_date"])
        st = bk["status"]
        if st in ("invoiced", "settled") or (st == "confirmed" and ev <= TODAY):
            staff_for(bk, bk["staff_required"], "scheduled", bk["confirmed_at"])
        elif st == "confirmed":
            need = bk["staff_required"]
            want = need if rng.random() < 0.2 else rng.randint(0, max(0, need - 1))
            staff_for(bk, min(want, 4), "scheduled", bk["confirmed_at"])
        elif st == "cancelled" and bk["confirmed_at"] and ev > TODAY and rng.random() < 0.6:
            staff_for(bk, min(2, bk["staff_required"]), "released", bk["confirmed_at"])

    db["bookings"] = bookings
    db["assignments"] = assignments
    # invoice numbers follow the order in which they were issued
    order = sorted(invoices.values(), key=lambda v: (v["issued_on"], v["booking_id"]))
    renum = {}
    for i, inv in enumerate(order, 1):
        renum[inv["id"]] = inv["id"] = "INV-%04d" % i
    for bk in bookings.values():
        if bk["final_invoice_id"]:
            bk["final_invoice_id"] = renum[bk["final_invoice_id"]]
    db["invoices"] = {inv["id"]: inv for inv in order}

    for bk in bookings.values():
        if bk["status"] in ("tentative", "confirmed"):
            clients[bk["client_id"]]["active_bookings"] += 1
    for inv in invoices.values():
        if inv["status"] == "open":
            c = clients[inv["client_id"]]
            c["balance_due"] = float(q(c["balance_due"]) + q(inv["amount"]) - q(inv["amount_paid"]))

    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(out, "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")
    print("wrote", out, {k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
