"""Differential probes for the laundry order desk: ~60% valid calls, ~40% that the docs say to refuse."""
from datetime import date, timedelta
from decimal import Decimal

import ref_impl as R

OPEN = ("received", "cleaning", "ready")
RACKS = ["%s%02d" % (c, k) for c in "ABCDEF" for k in range(1, 41)]


class _Ctx:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        self.ts = db["meta"]["today"]
        cs = db["customers"]
        self.customers = sorted(cs)
        self.open_n = {c: 0 for c in cs}
        for o in db["orders"].values():
            if o["status"] in OPEN:
                self.open_n[o["customer_id"]] += 1
        self.active_c = [c for c in self.customers if cs[c]["status"] == "active"]
        self.can_order = [c for c in self.active_c if self.open_n[c] < R.MAX_OPEN_ORDERS]
        self.full_c = [c for c in self.active_c if self.open_n[c] >= R.MAX_OPEN_ORDERS]
        self.suspended = [c for c in self.customers if cs[c]["status"] == "suspended"]
        self.orders = sorted(db["orders"])
        self.by_status = {s: [o for o in self.orders if db["orders"][o]["status"] == s] for s in R.ORDER_STATUSES}
        self.services = sorted(db["services"])
        self.active_s = [s for s in self.services if db["services"][s]["active"]]
        self.fast_s = [s for s in self.active_s if db["services"][s]["express_allowed"]]
        self.slow_s = [s for s in self.active_s if not db["services"][s]["express_allowed"]]
        self.retired_s = [s for s in self.services if not db["services"][s]["active"]]
        self.slots = sorted(db["slots"])
        self.used_racks = {o["rack"] for o in db["orders"].values() if o["status"] == "ready"}
        self.claimed = {c["order_id"] for c in db["claims"].values()}

    def c(self, seq, fallback=None):
        seq = list(seq)
        return self.rng.choice(seq) if seq else fallback

    def o(self, oid):
        return self.db["orders"][oid]

    def cust(self, cid):
        return self.db["customers"][cid]

    def slot(self, sid):
        return self.db["slots"][sid]

    def items(self, pool, n=None):
        n = n or self.rng.randint(1, 3)
        out = []
        for sid in self.rng.sample(pool, min(n, len(pool))):
            if self.db["services"][sid]["unit"] == "kg":
                q = self.c([1.5, 2.0, 3.0, 4.6, 7.2, 9.9, 12, 25])
            else:
                q = self.rng.randint(1, 6)
            out.append({"service_id": sid, "quantity": q})
        return out

    def price(self, cid, items, express):
        lines = [R.price_line(self.db["services"][i["service_id"]], i["quantity"]) for i in items]
        sub = R.subtotal({"items": lines})
        disc = R.q2(sub * R.GOLD_RATE) if self.cust(cid)["tier"] == "gold" else 0
        return sub - disc + R.express_fee(sub, express)

    def days_since(self, day):
        return (self.today - date.fromisoformat(day)).days

    def good_slots(self, oid):
        o = self.o(oid)
        zone = self.cust(o["customer_id"])["zone"]
        lo = self.ts if o["status"] == "ready" else max(self.ts, o["ready_by"])
        return [s for s in self.slots if self.slot(s)["zone"] == zone and self.slot(s)["date"] >= lo
                and self.slot(s)["booked"] < self.slot(s)["capacity"] and s != o["delivery_slot_id"]]

    def due(self, oid):
        o = self.o(oid)
        fee = R.storage_fee(date.fromisoformat(o["ready_on"]), self.today)
        return (Decimal(str(o["subtotal"])) - Decimal(str(o["discount"])) + Decimal(str(o["express_fee"]))
                + Decimal(str(o["delivery_fee"])) + fee - Decimal(str(o["amount_paid"])))

    def collectable(self):
        return [k for k in self.by_status["ready"] if self.o(k)["return_method"] == "counter"
                or self.slot(self.o(k)["delivery_slot_id"])["date"] <= self.ts]


def g_list_customers(x, ok):
    if ok:
        a = {}
        for k, gen in (("q", lambda: x.c(["ar", "KERR", "900115", "mailbox.example", "zz", "van"])),
                       ("tier", lambda: x.c(R.TIERS)), ("zone", lambda: x.c(R.ZONES)),
                       ("status", lambda: x.c(R.CUSTOMER_STATUSES))):
            if x.rng.random() < 0.35:
                a[k] = gen()
        return a
    return x.c([{"tier": "platinum"}, {"zone": "east"}, {"status": "blocked"}, {"tier": "Gold"}, {"q": 5}])


def g_list_orders(x, ok):
    if ok:
        a = {}
        for k, gen in (("customer_id", lambda: x.c(x.customers)), ("status", lambda: x.c(R.ORDER_STATUSES)),
                       ("express", lambda: x.rng.random() < 0.5), ("return_method", lambda: x.c(R.RETURN_METHODS)),
                       ("overdue", lambda: x.rng.random() < 0.6)):
            if x.rng.random() < 0.3:
                a[k] = gen()
        return a
    return x.c([{"customer_id": "CU999"}, {"status": "washing"}, {"express": "yes"}, {"overdue": 1},
                {"return_method": "courier"}])


def g_get_order(x, ok):
    return {"order_id": x.c(x.orders)} if ok else {"order_id": x.c(["ORD9999", "ord1001", "1001", "ORD0001"])}


def g_list_slots(x, ok):
    if ok:
        a = {}
        if x.rng.random() < 0.4:
            a["zone"] = x.c(R.ZONES)
        if x.rng.random() < 0.4:
            a["date"] = (x.today + timedelta(days=x.rng.randint(-3, 6))).isoformat()
        if x.rng.random() < 0.3:
            a["window"] = x.c(R.WINDOWS)
        if x.rng.random() < 0.4:
            a["available"] = x.rng.random() < 0.7
        return a
    return x.c([{"date": "2025-06-31"}, {"date": "18/06/2025"}, {"window": "night"}, {"zone": "west"},
                {"available": "true"}])


def g_list_claims(x, ok):
    if ok:
        a = {}
        if x.rng.random() < 0.3:
            a["customer_id"] = x.c(x.customers)
        if x.rng.random() < 0.2:
            a["order_id"] = x.c(x.orders)
        if x.rng.random() < 0.4:
            a["status"] = x.c(R.CLAIM_STATUSES)
        if x.rng.random() < 0.3:
            a["claim_type"] = x.c(R.CLAIM_TYPES)
        return a
    return x.c([{"customer_id": "CU404"}, {"order_id": "ORD0001"}, {"status": "pending"},
                {"claim_type": "stolen"}])


def g_top_up_wallet(x, ok):
    amounts = [10, 25.5, 40, 75.25, 99.99, 100, 150, 240.4, 500]
    if ok:
        for _ in range(50):
            cid, amt = x.c(x.active_c), x.c(amounts)
            bonus = R.q2(Decimal(str(amt)) * R.BONUS_RATE) if amt >= 100 else 0
            if Decimal(str(x.cust(cid)["wallet_balance"])) + Decimal(str(amt)) + bonus <= R.WALLET_CAP:
                return {"customer_id": cid, "amount": amt}
    bad = x.rng.randint(0, 5)
    if bad == 0:
        return {"customer_id": x.c(x.suspended), "amount": 50}
    if bad == 1:
        return {"customer_id": x.c(x.active_c), "amount": x.c([5, 9.99, 500.01, 750, -20, 0])}
    if bad == 2:
        return {"customer_id": x.c(x.active_c), "amount": x.c([12.345, 20.001])}
    if bad == 3:
        rich = [c for c in x.active_c if x.cust(c)["wallet_balance"] > 850]
        return {"customer_id": x.c(rich, "CU404"), "amount": x.c([70, 100, 150])}
    if bad == 4:
        return {"customer_id": x.c(x.active_c), "amount": "50.00"}
    return {"customer_id": "CU404", "amount": 20}


def g_create_order(x, ok):
    cid = x.c(x.can_order)
    if ok:
        express = x.rng.random() < 0.3
        a = {"customer_id": cid, "items": x.items(x.fast_s if express else x.active_s)}
        if express or x.rng.random() < 0.2:
            a["express"] = express
        if x.rng.random() < 0.3:
            a["starch_level"] = x.c(R.STARCH)
        if x.rng.random() < 0.3:
            a["notes"] = x.c(["Stain on collar", "Hang, do not fold", "Call on arrival"])
        total = x.price(cid, a["items"], express)
        if x.rng.random() < 0.35:
            a["prepay"] = Decimal(str(x.cust(cid)["wallet_balance"])) >= total
        return a
    a = {"customer_id": cid, "items": x.items(x.active_s)}
    bad = x.rng.randint(0, 11)
    if bad == 0:
        a["customer_id"] = x.c(x.suspended)
    elif bad == 1:
        a["customer_id"] = x.c(x.full_c)
    elif bad == 2:
        a["items"] = [{"service_id": x.c(x.retired_s), "quantity": 2}]
    elif bad == 3:
        sid = a["items"][0]["service_id"]
        a["items"].append({"service_id": sid, "quantity": 1})
    elif bad == 4:
        kg = [s for s in x.active_s if x.db["services"][s]["unit"] == "kg"]
        a["items"] = [{"service_id": x.c(kg), "quantity": x.c([0, 25.5, 30, 2.25, -1])}]
    elif bad == 5:
        pc = [s for s in x.active_s if x.db["services"][s]["unit"] == "piece"]
        a["items"] = [{"service_id": x.c(pc), "quantity": x.c([0, 2.5, 61, "3"])}]
    elif bad == 6:
        a["express"] = True
        a["items"] = x.items(x.fast_s, 1) + [{"service_id": x.c(x.slow_s), "quantity": 1}]
    elif bad == 7:
        broke = [c for c in x.can_order if x.cust(c)["wallet_balance"] < 5]
        a["customer_id"] = x.c(broke, "CU404")
        a["prepay"] = True
    elif bad == 8:
        a["items"] = x.c([[], [{"service_id": "SV99", "quantity": 1}], [{"service_id": "SV05"}]])
    elif bad == 9:
        a["starch_level"] = x.c(["extra", "crisp"])
    elif bad == 10:
        a["notes"] = x.c(["", "   ", "x" * 301])
    else:
        a["items"] = [{"service_id": s, "quantity": 1} for s in x.rng.sample(
            [s for s in x.active_s if x.db["services"][s]["unit"] == "piece"], 9)]
    return a


def _express_ok(x, o, exp):
    if o["status"] != "received" or o["payment_status"] == "prepaid":
        return False
    if exp and not o["express"]:
        if not all(x.db["services"][i["service_id"]]["express_allowed"] for i in o["items"]):
            return False
        if R._express_count(x.db, o["received_on"], o["id"]) >= R.EXPRESS_DAILY_CAP:
            return False
    rb = R.ready_by(x.db["services"], o["items"], exp, date.fromisoformat(o["received_on"])).isoformat()
    return not (o["delivery_slot_id"] and x.slot(o["delivery_slot_id"])["date"] < rb)


def g_update_order(x, ok):
    editable = x.by_status["received"] + x.by_status["cleaning"]
    if ok:
        oid = x.c(editable)
        o = x.o(oid)
        a = {"order_id": oid}
        if x.rng.random() < 0.5:
            a["notes"] = x.c(["Customer will collect after 6pm", None, "Extra care with lace trim"])
        if x.rng.random() < 0.5 or len(a) == 1:
            a["starch_level"] = x.c(R.STARCH)
        exp = x.rng.random() < 0.5
        if x.rng.random() < 0.6 and _express_ok(x, o, exp):
            a["express"] = exp
        return a
    bad = x.rng.randint(0, 7)
    if bad == 0:
        return {"order_id": x.c(x.by_status["ready"] + x.by_status["collected"] + x.by_status["cancelled"]),
                "notes": "Please re-press"}
    if bad == 1:
        return {"order_id": x.c(editable)}
    if bad == 2:
        return {"order_id": x.c(x.by_status["cleaning"]), "express": x.c([True, False])}
    if bad == 3:
        pre = [k for k in editable if x.o(k)["payment_status"] == "prepaid"]
        return {"order_id": x.c(pre, "ORD9999"), "express": x.c([True, False])}
    if bad == 4:
        cand = [k for k in x.by_status["received"] if not x.o(k)["express"] and not _express_ok(x, x.o(k), True)]
        return {"order_id": x.c(cand, "ORD9999"), "express": True}
    if bad == 5:
        return {"order_id": x.c(editable), "notes": x.c(["", "  ", "n" * 301])}
    if bad == 6:
        return {"order_id": x.c(editable), "starch_level": x.c(["crisp", "HEAVY"])}
    return {"order_id": "ORD9999", "starch_level": "light"}


def g_advance_order(x, ok):
    free = [r for r in RACKS if r not in x.used_racks]
    if ok:
        if x.rng.random() < 0.5:
            return {"order_id": x.c(x.by_status["received"]), "status": "cleaning"}
        return {"order_id": x.c(x.by_status["cleaning"]), "status": "ready", "rack": x.c(free)}
    bad = x.rng.randint(0, 7)
    if bad == 0:
        return {"order_id": x.c(x.by_status["received"]), "status": "ready", "rack": x.c(free)}
    if bad == 1:
        return {"order_id": x.c(x.by_status["ready"] + x.by_status["collected"]), "status": "cleaning"}
    if bad == 2:
        return {"order_id": x.c(x.by_status["cleaning"]), "status": "ready"}
    if bad == 3:
        return {"order_id": x.c(x.by_status["cleaning"]), "status": "ready", "rack": x.c(sorted(x.used_racks))}
    if bad == 4:
        return {"order_id": x.c(x.by_status["cleaning"]), "status": "ready", "rack": x.c(["G12", "A41", "A00", "c07", "B7"])}
    if bad == 5:
        return {"order_id": x.c(x.by_status["received"]), "status": "cleaning", "rack": x.c(free)}
    if bad == 6:
        return {"order_id": x.c(x.by_status["ready"]), "status": x.c(["collected", "received", "ready"]), "rack": x.c(free)}
    return {"order_id": x.c(x.by_status["cancelled"]), "status": "cleaning"}


def g_book_delivery(x, ok):
    zoned = [k for s in OPEN for k in x.by_status[s] if x.cust(x.o(k)["customer_id"])["zone"]]
    if ok:
        for _ in range(50):
            oid = x.c(zoned)
            good = x.good_slots(oid)
            if good:
                return {"order_id": oid, "slot_id": x.c(good)}
    oid = x.c(zoned)
    o = x.o(oid)
    zone = x.cust(o["customer_id"])["zone"]
    bad = x.rng.randint(0, 7)
    if bad == 0:
        return {"order_id": oid, "slot_id": x.c([s for s in x.slots if x.slot(s)["zone"] != zone
                                                 and x.slot(s)["date"] >= x.ts])}
    if bad == 1:
        return {"order_id": oid, "slot_id": x.c([s for s in x.slots if x.slot(s)["zone"] == zone
                                                 and x.slot(s)["date"] < x.ts])}
    if bad == 2:
        full = [(k, s) for k in zoned for s in x.slots if x.slot(s)["zone"] == x.cust(x.o(k)["customer_id"])["zone"]
                and x.slot(s)["booked"] >= x.slot(s)["capacity"] and x.slot(s)["date"] >= x.ts]
        k, s = x.c(full, ("ORD9999", "SL001"))
        return {"order_id": k, "slot_id": s}
    if bad == 3:
        nz = [k for s in OPEN for k in x.by_status[s] if not x.cust(x.o(k)["customer_id"])["zone"]]
        return {"order_id": x.c(nz, "ORD9999"), "slot_id": x.c([s for s in x.slots if x.slot(s)["date"] >= x.ts])}
    if bad == 4:
        return {"order_id": x.c(x.by_status["collected"] + x.by_status["cancelled"]),
                "slot_id": x.c([s for s in x.slots if x.slot(s)["date"] >= x.ts])}
    if bad == 5:
        early = [(k, s) for k in zoned if x.o(k)["status"] != "ready" and x.o(k)["ready_by"] > x.ts
                 for s in x.slots if x.slot(s)["zone"] == x.cust(x.o(k)["customer_id"])["zone"]
                 and x.ts <= x.slot(s)["date"] < x.o(k)["ready_by"]]
        k, s = x.c(early, ("ORD9999", "SL001"))
        return {"order_id": k, "slot_id": s}
    if bad == 6:
        booked = [k for k in zoned if x.o(k)["delivery_slot_id"]]
        k = x.c(booked)
        return {"order_id": k, "slot_id": x.o(k)["delivery_slot_id"]}
    return {"order_id": oid, "slot_id": x.c(["SL999", "SL00", "slot-1"])}


def g_collect_order(x, ok):
    coll = x.collectable()
    if ok:
        oid = x.c(coll)
        cust = x.cust(x.o(oid)["customer_id"])
        due = x.due(oid)
        a = {"order_id": oid}
        pts = 0
        if x.rng.random() < 0.4:
            most = min(cust["loyalty_points"] // 100, int(due // R.POINT_BLOCK_VALUE))
            pts = 100 * x.rng.randint(0, max(0, most))
            a["redeem_points"] = pts
        rest = due - R.POINT_BLOCK_VALUE * (pts // 100)
        if rest > 0 or x.rng.random() < 0.3:
            wallet_ok = Decimal(str(cust["wallet_balance"])) >= rest
            a["payment_method"] = x.c(R.PAY_METHODS if wallet_ok else ["card", "cash"])
        return a
    bad = x.rng.randint(0, 7)
    if bad == 0:
        return {"order_id": x.c(x.by_status["received"] + x.by_status["cleaning"] + x.by_status["collected"]),
                "payment_method": "card"}
    if bad == 1:
        later = [k for k in x.by_status["ready"] if k not in coll]
        return {"order_id": x.c(later, "ORD9999"), "payment_method": "cash"}
    oid = x.c(coll)
    cust = x.cust(x.o(oid)["customer_id"])
    if bad == 2:
        return {"order_id": oid, "payment_method": "card", "redeem_points": x.c([50, 150, -100, 101])}
    if bad == 3:
        return {"order_id": oid, "payment_method": "card", "redeem_points": (cust["loyalty_points"] // 100 + 1) * 100}
    if bad == 4:
        owing = [k for k in coll if x.due(k) > 0]
        return {"order_id": x.c(owing, "ORD9999")}
    if bad == 5:
        poor = [k for k in coll if Decimal(str(x.cust(x.o(k)["customer_id"])["wallet_balance"])) < x.due(k)]
        return {"order_id": x.c(poor, "ORD9999"), "payment_method": "wallet"}
    if bad == 6:
        return {"order_id": oid, "payment_method": x.c(["cheque", "voucher", "CARD"])}
    rich = [k for k in coll if x.cust(x.o(k)["customer_id"])["loyalty_points"] >= 100 * (int(x.due(k) // 5) + 1)]
    k = x.c(rich, "ORD9999")
    pts = 100 * (int(x.due(k) // 5) + 1) if k != "ORD9999" else 100
    return {"order_id": k, "payment_method": "cash", "redeem_points": pts}


def g_cancel_order(x, ok):
    if ok:
        if x.rng.random() < 0.6:
            return {"order_id": x.c(x.by_status["received"]), "reason": x.c(R.CANCEL_REASONS)}
        return {"order_id": x.c(x.by_status["cleaning"]), "reason": "cannot_process"}
    bad = x.rng.randint(0, 3)
    if bad == 0:
        return {"order_id": x.c(x.by_status["cleaning"]), "reason": x.c(["customer_request", "duplicate_ticket"])}
    if bad == 1:
        return {"order_id": x.c(x.by_status["ready"] + x.by_status["collected"] + x.by_status["cancelled"]),
                "reason": x.c(R.CANCEL_REASONS)}
    if bad == 2:
        return {"order_id": x.c(x.by_status["received"]), "reason": x.c(["changed_mind", "other", ""])}
    return {"order_id": "ORD9999", "reason": "customer_request"}


def g_file_claim(x, ok):
    fresh = [k for k in x.by_status["collected"] if k not in x.claimed]
    lost_ok = [k for k in fresh if x.days_since(x.o(k)["collected_on"]) <= 30]
    dmg_ok = [k for k in fresh if x.days_since(x.o(k)["collected_on"]) <= 7]
    a = {"declared_value": x.c([12.5, 35, 60, 89.99, 150, 420, 1200]),
         "description": x.c(["Blue cashmere scarf missing", "Seam split on left shoulder", "Yellow mark after cleaning"])}
    if ok:
        kind = "damaged" if dmg_ok and x.rng.random() < 0.4 else "lost"
        oid = x.c(dmg_ok if kind == "damaged" else lost_ok)
        a.update(order_id=oid, claim_type=kind, service_id=x.c(i["service_id"] for i in x.o(oid)["items"]))
        return a
    oid = x.c(lost_ok)
    a.update(order_id=oid, claim_type="lost", service_id=x.c(i["service_id"] for i in x.o(oid)["items"]))
    bad = x.rng.randint(0, 7)
    if bad == 0:
        k = x.c(sorted(x.claimed))
        a.update(order_id=k, service_id=x.o(k)["items"][0]["service_id"])
    elif bad == 1:
        old = [k for k in fresh if x.days_since(x.o(k)["collected_on"]) > 30]
        k = x.c(old, "ORD9999")
        a.update(order_id=k, service_id=x.o(k)["items"][0]["service_id"] if k != "ORD9999" else "SV01")
    elif bad == 2:
        mid = [k for k in fresh if 7 < x.days_since(x.o(k)["collected_on"]) <= 30]
        k = x.c(mid, "ORD9999")
        a.update(order_id=k, claim_type="damaged", service_id=x.o(k)["items"][0]["service_id"] if k != "ORD9999" else "SV01")
    elif bad == 3:
        on = {i["service_id"] for i in x.o(oid)["items"]}
        a["service_id"] = x.c([s for s in x.services if s not in on])
    elif bad == 4:
        k = x.c(x.by_status["ready"] + x.by_status["received"] + x.by_status["cancelled"])
        a.update(order_id=k, service_id=x.o(k)["items"][0]["service_id"])
    elif bad == 5:
        a["declared_value"] = x.c([0, -10, 5000.01, 12.345, "80"])
    elif bad == 6:
        a["description"] = x.c(["", "   ", "d" * 501])
    else:
        a["claim_type"] = x.c(["stolen", "torn", "LOST"])
    return a


GENS = [("list_customers", g_list_customers, 1), ("list_orders", g_list_orders, 1),
        ("get_order", g_get_order, 1), ("list_slots", g_list_slots, 1), ("list_claims", g_list_claims, 1),
        ("top_up_wallet", g_top_up_wallet, 2), ("create_order", g_create_order, 3),
        ("update_order", g_update_order, 3), ("advance_order", g_advance_order, 2),
        ("book_delivery", g_book_delivery, 3), ("collect_order", g_collect_order, 3),
        ("cancel_order", g_cancel_order, 2), ("file_claim", g_file_claim, 3)]


def probes(db, rng, n):
    x = _Ctx(db, rng)
    names = [g[0] for g in GENS]
    weights = [g[2] for g in GENS]
    fns = {g[0]: g[1] for g in GENS}
    out = []
    for i in range(n):
        name = names[i] if i < len(names) else rng.choices(names, weights)[0]
        ok = (i < len(names)) or rng.random() < 0.57
        out.append((name, fns[name](x, ok)))
    return out
