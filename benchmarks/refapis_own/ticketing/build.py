#!/usr/bin/env python3
"""Writes db.json for the Ticketing reference API (stdlib only, fixed seed)."""
import datetime as dt
import json
import random
from decimal import Decimal, ROUND_HALF_UP
from pathlib import Path

TODAY = dt.date(2025, 6, 14)
rng = random.Random(20250614)


def d(s):
    return dt.date.fromisoformat(s)


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def dec(x):
    return Decimal(str(x))


VENUES = [
    ("V01", "The Lantern Room", "Bristol", "14 Quay Street", 60),
    ("V02", "Harbour Studio Theatre", "Bristol", "2 Canon's Wharf", 90),
    ("V03", "Old Mill Chapel", "Bath", "Millstream Lane", 70),
    ("V04", "Cellar Jazz Club", "Bath", "9a Walcot Arches", 45),
    ("V05", "Riverside Bandstand", "Gloucester", "Westgate Meadows", 120),
]

# id, venue, title, category, date, kind, capacity, premium_capacity, std, prem, fill
EVENTS = [
    ("E001", "V04", "Blue Note Evenings: Ada Marsh Trio", "concert", "2025-04-05", "past", 45, 8, 22.00, 34.00, 11),
    ("E002", "V02", "The Glass Menagerie", "theatre", "2025-04-12", "past", 90, 18, 26.50, 39.00, 12),
    ("E003", "V01", "Open Mic Comedy Night", "comedy", "2025-04-19", "past", 60, 0, 12.00, 18.00, 9),
    ("E004", "V05", "Brass on the River", "concert", "2025-04-27", "past", 120, 20, 15.00, 25.00, 10),
    ("E005", "V03", "Candlelight Strings: Vivaldi", "concert", "2025-05-03", "past", 70, 14, 28.00, 42.50, 12),
    ("E006", "V02", "Puppet Tales for Little Ones", "family", "2025-05-10", "past", 80, 0, 9.50, 14.50, 10),
    ("E007", "V04", "Late Set: Jonah Reyes Quartet", "concert", "2025-05-24", "past", 40, 6, 24.00, 36.00, 9),
    ("E008", "V01", "Stand-Up Showcase", "comedy", "2025-06-01", "past", 60, 10, 14.50, 21.00, 10),
    ("E009", "V03", "A Midsummer Night's Dream", "theatre", "2025-06-10", "past", 70, 12, 27.50, 40.00, 12),
    ("E010", "V04", "Saxophone Sundown", "concert", "2025-06-14", "soldout", 24, 6, 25.00, 37.50, 24),
    ("E011", "V02", "Twelfth Night (matinee)", "theatre", "2025-06-14", "onsale", 90, 16, 24.50, 36.00, 11),
    ("E012", "V01", "Improv Jam", "comedy", "2025-06-15", "onsale", 60, 10, 11.00, 17.50, 8),
    ("E013", "V03", "Choral Evensong Concert", "concert", "2025-06-17", "onsale", 70, 12, 19.50, 29.00, 10),
    ("E014", "V04", "Cellar Blues Night", "concert", "2025-06-20", "soldout", 20, 4, 21.00, 32.50, 20),
    ("E015", "V05", "Family Fun Day: Circus Skills", "family", "2025-06-25", "onsale", 120, 0, 8.50, 12.00, 11),
    ("E016", "V02", "Death of a Salesman", "theatre", "2025-06-28", "onsale", 90, 18, 26.50, 41.00, 12),
    ("E017", "V01", "Comedy Headliners: Priya Shah", "comedy", "2025-07-05", "soldout", 24, 6, 22.50, 33.00, 24),
    ("E018", "V05", "Summer Brass Festival", "concert", "2025-07-12", "onsale", 120, 24, 16.00, 26.50, 12),
    ("E019", "V04", "Jazz Standards with Lila Grant", "concert", "2025-07-19", "onsale", 45, 8, 23.50, 35.00, 10),
    ("E020", "V03", "Chamber Music at the Mill", "concert", "2025-07-26", "soldout", 20, 4, 29.00, 44.00, 20),
    ("E021", "V02", "The Importance of Being Earnest", "theatre", "2025-08-09", "onsale", 90, 16, 25.50, 38.50, 10),
    ("E022", "V01", "Late Laughs", "comedy", "2025-08-16", "onsale", 60, 10, 13.50, 20.00, 8),
    ("E023", "V05", "Riverside Proms", "concert", "2025-08-30", "onsale", 120, 24, 18.50, 30.00, 10),
    ("E024", "V03", "Folk Sessions: Hollow Pines", "concert", "2025-07-02", "cancelled", 70, 12, 18.00, 27.00, 9),
    ("E025", "V02", "Magic for Kids", "family", "2025-07-20", "cancelled", 80, 0, 10.50, 15.00, 8),
    ("E026", "V04", "Autumn Jazz Preview", "concert", "2025-09-06", "draft", 45, 8, 24.00, 36.00, 0),
    ("E027", "V02", "Hamlet", "theatre", "2025-09-13", "draft", 90, 18, 28.00, 42.00, 0),
    ("E028", "V05", "Harvest Brass Band", "concert", "2025-09-20", "draft", 120, 20, 17.00, 27.50, 0),
]
CANCELLED_ON = {"E024": "2025-06-05", "E025": "2025-06-11"}
CANCEL_REASON = {"E024": "Band withdrew from the tour", "E025": "Performer illness"}

FIRST = ["Amelia", "Oliver", "Isla", "Harry", "Freya", "George", "Ava", "Noah", "Mia", "Leo", "Grace",
         "Arthur", "Evie", "Oscar", "Poppy", "Theo", "Ruby", "Jack", "Lily", "Alfie", "Daisy", "Finn",
         "Sophie", "Ethan", "Chloe"]
LAST = ["Hughes", "Patel", "Morgan", "Okafor", "Fletcher", "Nguyen", "Bishop", "Kowalski", "Reid",
        "Ahmed", "Carter", "Lindqvist", "Doyle", "Barnes", "Osei", "Whitfield", "Moreno", "Hale"]
DOMAINS = ["mailbox.co.uk", "example.org", "postmail.com", "inbox.net"]

PROMOS = [
    ("SPRING10", "10% off spring season", "percent", 10.0, "2025-03-01", "2025-05-31", 1, 40, None, True),
    ("EARLYBIRD", "12.5% early-bird saving", "percent", 12.5, "2025-04-01", "2025-06-30", 1, None, None, True),
    ("SUMMER15", "15% off summer shows", "percent", 15.0, "2025-06-01", "2025-08-31", 1, 30, None, True),
    ("JAZZ5", "5.00 off Lila Grant", "fixed", 5.0, "2025-05-15", "2025-07-19", 1, 20, "E019", True),
    ("GROUP20", "20% off for groups of four or more", "percent", 20.0, "2025-01-01", "2025-12-31", 4, 25, None, True),
    ("FRIENDS8", "8.00 off when bringing a friend", "fixed", 8.0, "2025-05-01", "2025-09-30", 2, 15, None, True),
    ("STAFF50", "Staff half-price (withdrawn)", "percent", 50.0, "2025-01-01", "2025-12-31", 1, 10, None, False),
    ("LASTCALL", "3.00 off late-summer bookings", "fixed", 3.0, "2025-07-01", "2025-09-30", 1, 50, None, True),
]
FEE = {"basic": Decimal("2.50"), "silver": Decimal("1.25"), "gold": Decimal("0.00")}


def main():
    db = {"meta": {"today": TODAY.isoformat(), "currency": "GBP", "promoter": "Severn Nights Live"},
          "venues": {}, "events": {}, "customers": {}, "orders": {}, "promo_codes": {}, "waitlist": {}}
    for vid, name, city, addr, cap in VENUES:
        db["venues"][vid] = {"id": vid, "name": name, "city": city, "address": addr, "capacity": cap}

    # customers
    used_names = set()
    customers = db["customers"]
    for i in range(1, 51):
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in used_names:
                used_names.add((fn, ln)); break
        cid = f"C{i:04d}"
        r = rng.random()
        tier = "basic" if r < 0.6 else ("silver" if r < 0.85 else "gold")
        joined = dt.date(2023, 1, 10) + dt.timedelta(days=rng.randint(0, 800))
        customers[cid] = {"id": cid, "name": f"{fn} {ln}", "email": f"{fn.lower()}.{ln.lower()}@{rng.choice(DOMAINS)}",
                          "phone": f"07{rng.randint(100, 999)} {rng.randint(100000, 999999)}" if rng.random() < 0.8 else None,
                          "loyalty_tier": tier, "joined_on": joined.isoformat(), "orders_count": 0, "total_spent": 0.0}

    promos = db["promo_codes"]
    for code, desc, kind, val, vf, vu, mn, mx, ev, act in PROMOS:
        promos[code] = {"code": code, "description": desc, "kind": kind, "value": val, "valid_from": vf,
                        "valid_until": vu, "min_tickets": mn, "max_uses": mx, "times_used": 0, "event_id": ev,
                        "active": act}

    events = db["events"]
    raw_orders = []
    for eid, vid, title, cat, date, kind, cap, pcap, sp, pp, fill in EVENTS:
        edate = d(date)
        status = {"past": "completed", "soldout": "sold_out", "onsale": "on_sale", "cancelled": "cancelled", "draft": "draft"}[kind]
        if kind == "draft":
            created = TODAY - dt.timedelta(days=rng.randint(3, 20)); published = None
        else:
            published = min(edate - dt.timedelta(days=70), TODAY - dt.timedelta(days=30))
            created = published - dt.timedelta(days=rng.randint(3, 12))
        events[eid] = {"id": eid, "venue_id": vid, "title": title, "category": cat, "event_date": date,
                       "status": status, "capacity": cap, "premium_capacity": pcap, "seats_sold": 0,
                       "premium_sold": 0, "standard_price": sp, "premium_price": pp, "waitlist_count": 0,
                       "created_on": created.isoformat(), "published_on": published.isoformat() if published else None,
                       "cancelled_on": CANCELLED_ON.get(eid), "cancel_reason": CANCEL_REASON.get(eid)}
        if not fill:
            continue
        last_sale = min(edate - dt.timedelta(days=1), TODAY - dt.timedelta(days=1))
        if eid in CANCELLED_ON:
            last_sale = d(CANCELLED_ON[eid]) - dt.timedelta(days=1)
        held, psold, sold = {}, 0, 0
        while sold < fill:
            qty = min(rng.choice([1, 2, 2, 2, 3, 3, 4, 4, 5, 6]), fill - sold)
            cands = [c for c in customers if held.get(c, 0) + qty <= 6]
            cid = rng.choice(cands)
            tier = "premium" if (pcap and psold + qty <= pcap and rng.random() < 0.3) else "standard"
            span = (last_sale - published).days
            created_on = published + dt.timedelta(days=rng.randint(1, span))
            held[cid] = held.get(cid, 0) + qty; sold += qty
            if tier == "premium":
                psold += qty
            raw_orders.append(dict(customer_id=cid, event_id=eid, tier=tier, quantity=qty, created_on=created_on, live=True))
        # a few extra orders that were later cancelled by the customer
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            latest_cancel = min(edate - dt.timedelta(days=2), TODAY, last_sale)
            span = (latest_cancel - published).days
            if span < 3:
                continue
            created_on = published + dt.timedelta(days=rng.randint(1, span - 1))
            cancelled_on = created_on + dt.timedelta(days=rng.randint(1, (latest_cancel - created_on).days))
            raw_orders.append(dict(customer_id=rng.choice(list(customers)), event_id=eid, tier="standard",
                                   quantity=rng.choice([1, 2, 3]), created_on=created_on, live=False,
                                   cancelled_on=cancelled_on))

    raw_orders.sort(key=lambda o: (o["created_on"], o["event_id"], o["customer_id"]))
    orders = db["orders"]
    promo_users = {c: set() for c in promos}
    reasons = ["Can no longer attend", "Booked the wrong date", "Travel plans changed", "Duplicate booking",
               "Illness in the family"]
    for n, ro in enumerate(raw_orders, start=10001):
        oid = f"ORD-{n}"
        ev = events[ro["event_id"]]
        cust = customers[ro["customer_id"]]
        unit = dec(ev["premium_price"] if ro["tier"] == "premium" else ev["standard_price"])
        qty = ro["quantity"]
        subtotal = unit * qty
        code = None
        if rng.random() < 0.3:
            ok = []
            for p in promos.values():
                if (p["active"] and p["valid_from"] <= ro["created_on"].isoformat() <= p["valid_until"]
                        and (p["event_id"] is None or p["event_id"] == ev["id"]) and qty >= p["min_tickets"]
                        and ro["customer_id"] not in promo_users[p["code"]]
                        and (p["max_uses"] is None or p["times_used"] < p["max_uses"])):
                    ok.append(p["code"])
            if ok:
                code = rng.choice(ok)
        discount = Decimal("0")
        if code:
            p = promos[code]
            if p["kind"] == "percent":
                discount = (subtotal * dec(p["value"]) / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
            else:
                discount = min(dec(p["value"]), subtotal)
            p["times_used"] += 1
            promo_users[code].add(ro["customer_id"])
        fee = FEE[cust["loyalty_tier"]] * qty
        total = subtotal - discount + fee
        o = {"id": oid, "customer_id": ro["customer_id"], "event_id": ev["id"], "tier": ro["tier"], "quantity": qty,
             "unit_price": float(unit), "subtotal": money(subtotal), "discount": money(discount), "promo_code": code,
             "booking_fee": money(fee), "total": money(total), "status": "confirmed",
             "created_on": ro["created_on"].isoformat(), "upgraded_on": None, "checked_in_on": None,
             "cancelled_on": None, "cancel_reason": None, "refund_amount": 0.0, "refunded_on": None}
        edate = d(ev["event_date"])
        if not ro["live"]:
            days = (edate - ro["cancelled_on"]).days
            ticket_amount = subtotal - discount
            refund = ticket_amount if days >= 14 else (ticket_amount / 2).quantize(Decimal("0.01"), ROUND_HALF_UP)
            o.update(status="cancelled", cancelled_on=ro["cancelled_on"].isoformat(),
                     cancel_reason=rng.choice(reasons), refund_amount=money(refund))
        elif ev["status"] == "cancelled":
            o.update(status="refunded", refund_amount=money(total), refunded_on=ev["cancelled_on"])
        elif ev["status"] == "completed":
            if rng.random() < 0.85:
                o.update(status="attended", checked_in_on=ev["event_date"])
        elif ev["id"] == "E010" and rng.random() < 0.5:
            o.update(status="attended", checked_in_on=ev["event_date"])
        orders[oid] = o
    promos["EARLYBIRD"]["max_uses"] = promos["EARLYBIRD"]["times_used"]

    # some standard orders on upcoming events were upgraded to premium
    upgraded = 0
    for o in orders.values():
        ev = events[o["event_id"]]
        if upgraded >= 4 or o["status"] != "confirmed" or o["tier"] != "standard":
            continue
        if ev["status"] not in ("on_sale", "sold_out") or d(ev["event_date"]) <= TODAY + dt.timedelta(days=5):
            continue
        psold = sum(x["quantity"] for x in orders.values() if x["event_id"] == ev["id"] and x["tier"] == "premium"
                    and x["status"] in ("confirmed", "attended"))
        if psold + o["quantity"] > ev["premium_capacity"] or rng.random() < 0.5:
            continue
        unit = dec(ev["premium_price"])
        subtotal = unit * o["quantity"]
        o.update(tier="premium", unit_price=float(unit), subtotal=money(subtotal),
                 total=money(subtotal - dec(o["discount"]) + dec(o["booking_fee"])),
                 upgraded_on=(d(o["created_on"]) + dt.timedelta(days=rng.randint(0, (TODAY - d(o["created_on"])).days))).isoformat())
        upgraded += 1

    # counters
    for ev in events.values():
        live = [o for o in orders.values() if o["event_id"] == ev["id"] and o["status"] in ("confirmed", "attended")]
        ev["seats_sold"] = sum(o["quantity"] for o in live)
        ev["premium_sold"] = sum(o["quantity"] for o in live if o["tier"] == "premium")
        assert ev["seats_sold"] <= ev["capacity"] and ev["premium_sold"] <= ev["premium_capacity"]
        if ev["status"] == "sold_out":
            assert ev["seats_sold"] == ev["capacity"], ev["id"]
        if ev["status"] == "on_sale":
            assert ev["seats_sold"] < ev["capacity"]

    # waitlist
    wl = db["waitlist"]
    entries = []

    def waiting_for(eid, k):
        taken = {e["customer_id"] for e in entries if e["event_id"] == eid}
        pool = [c for c in customers if c not in taken]
        for cid in rng.sample(pool, k):
            ev = events[eid]
            joined = d(ev["published_on"]) + dt.timedelta(days=rng.randint(20, (TODAY - d(ev["published_on"])).days - 1))
            entries.append({"event_id": eid, "customer_id": cid, "quantity": rng.choice([1, 2, 2, 3, 4]),
                            "status": "waiting", "joined_on": joined.isoformat(), "resolved_on": None, "order_id": None})

    waiting_for("E010", 1); waiting_for("E014", 3); waiting_for("E017", 4); waiting_for("E020", 3)
    for eid in ("E024", "E025"):
        waiting_for(eid, 2)
        for e in entries:
            if e["event_id"] == eid:
                e["status"] = "closed"; e["resolved_on"] = events[eid]["cancelled_on"]
                if e["joined_on"] > e["resolved_on"]:
                    e["joined_on"] = (d(e["resolved_on"]) - dt.timedelta(days=4)).isoformat()
    for eid in ("E013", "E018", "E016"):
        cands = [o for o in orders.values() if o["event_id"] == eid and o["status"] == "confirmed"
                 and d(o["created_on"]) > d(events[eid]["published_on"]) + dt.timedelta(days=3)]
        o = cands[-1]
        joined = d(o["created_on"]) - dt.timedelta(days=rng.randint(1, 3))
        entries.append({"event_id": eid, "customer_id": o["customer_id"], "quantity": o["quantity"], "status": "converted",
                        "joined_on": joined.isoformat(), "resolved_on": o["created_on"], "order_id": o["id"]})
    entries.sort(key=lambda e: (e["joined_on"], e["event_id"]))
    for i, e in enumerate(entries, start=1):
        wid = f"W{i:04d}"
        wl[wid] = {"id": wid, **e}
    for ev in events.values():
        ev["waitlist_count"] = sum(1 for e in wl.values() if e["event_id"] == ev["id"] and e["status"] == "waiting")

    for c in customers.values():
        mine = [o for o in orders.values() if o["customer_id"] == c["id"]]
        c["orders_count"] = len(mine)
        c["total_spent"] = money(sum(dec(o["total"]) - dec(o["refund_amount"]) for o in mine))

    Path(__file__).with_name("db.json").write_text(json.dumps(db, indent=1) + "\n")
    print({k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
