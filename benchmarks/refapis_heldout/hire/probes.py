"""Probe generator for the equipment-hire reference: ~60% calls the rules allow, ~40% they forbid."""
import datetime as dt

LICENSED = {"excavator", "telehandler", "boom_lift"}


def _d(s):
    return dt.date.fromisoformat(s)


def _iso(d):
    return d.isoformat()


class _Ctx:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.t = _d(db["meta"]["today"])
        self.eq = sorted(db["equipment"].values(), key=lambda r: r["equipment_id"])
        self.cu = sorted(db["customers"].values(), key=lambda r: r["customer_id"])
        self.co = sorted(db["contracts"].values(), key=lambda r: r["contract_id"])
        self.inv = sorted(db["invoices"].values(), key=lambda r: r["invoice_id"])
        self.holds = sorted(db["maintenance_holds"].values(), key=lambda r: r["hold_id"])
        self.depots = sorted(db["depots"])

    def pick(self, seq, default=None):
        seq = list(seq)
        return self.rng.choice(seq) if seq else default

    def overdue(self, cid):
        return any(i["customer_id"] == cid and i["status"] == "open" and _d(i["due_on"]) < self.t for i in self.inv)

    def busy(self, eid, s, e, skip=None):
        return any(c["equipment_id"] == eid and c["status"] in ("reserved", "on_hire") and c["contract_id"] != skip
                   and _d(c["start_date"]) <= e and s <= _d(c["end_date"]) for c in self.co)

    def good_customers(self):
        return [c for c in self.cu if c["status"] == "active" and not self.overdue(c["customer_id"])
                and c["open_contracts"] < 4]

    def headroom(self, c):
        return c["credit_limit"] - c["balance"] - c["committed"]


def _price(rate, days, waiver):
    w, r = divmod(days, 7)
    charge = round(rate * (w * 5 + r), 2)
    return charge * (1.09 if waiver else 1.0)


# ------------------------------------------------------------------ per-tool generators
def list_equipment(x, ok):
    r = x.rng
    if ok:
        a = {}
        if r.random() < 0.5:
            a["depot_id"] = x.pick(x.depots)
        if r.random() < 0.4:
            a["category"] = x.pick(sorted({e["category"] for e in x.eq}))
        if r.random() < 0.4:
            a["status"] = r.choice(["available", "on_hire", "maintenance", "retired"])
        if r.random() < 0.4:
            word = x.pick(x.eq)["name"].split()[-1]
            a["search"] = r.choice([word.lower(), word.upper(), word[:4]])
        if r.random() < 0.3:
            a["max_daily_rate"] = r.choice([50, 100, 150.5, 250])
        return a
    return r.choice([{"depot_id": "D09"}, {"category": "crane"}, {"status": "lost"}, {"colour": "yellow"},
                     {"max_daily_rate": "cheap"}])


def get_equipment(x, ok):
    if ok:
        return {"equipment_id": x.pick(x.eq)["equipment_id"]}
    return x.rng.choice([{"equipment_id": "EQ-0999"}, {"equipment_id": "eq-0001"}, {}])


def get_customer(x, ok):
    if ok:
        return {"customer_id": x.pick(x.cu)["customer_id"]}
    return x.rng.choice([{"customer_id": "C-0001"}, {"customer_id": "C-9999"}, {"customer_id": 1005}])


def list_contracts(x, ok):
    r = x.rng
    if ok:
        a = {}
        if r.random() < 0.5:
            a["customer_id"] = x.pick(x.cu)["customer_id"]
        if r.random() < 0.3:
            a["equipment_id"] = x.pick(x.eq)["equipment_id"]
        if r.random() < 0.5:
            a["status"] = r.choice(["reserved", "on_hire", "returned", "cancelled"])
        return a
    return r.choice([{"customer_id": "C-4242"}, {"status": "active"}, {"equipment_id": "EQ-0000"}])


def list_invoices(x, ok):
    r = x.rng
    if ok:
        a = {"customer_id": x.pick(x.cu)["customer_id"]}
        if r.random() < 0.4:
            a["status"] = r.choice(["open", "paid"])
        if r.random() < 0.4:
            a["overdue_only"] = r.random() < 0.7
        return a
    return r.choice([{"customer_id": "C-7777"}, {"customer_id": x.pick(x.cu)["customer_id"], "status": "overdue"},
                     {"status": "open"}])


def _valid_booking(x):
    r = x.rng
    for _ in range(60):
        c = x.pick(x.good_customers())
        if c is None:
            return None
        e = x.pick([e for e in x.eq if e["status"] in ("available", "on_hire")
                    and (c["licensed_operator"] or not e["operator_licence_required"])])
        s = x.t + dt.timedelta(days=r.choice([0, 1, 2, 5, 9, 14, 30, 45, 60]))
        days = r.choice([1, 2, 3, 5, 7, 8, 14, 21])
        end = s + dt.timedelta(days=days - 1)
        waiver = r.random() < 0.4
        if x.busy(e["equipment_id"], s, end) or _price(e["daily_rate"], days, waiver) > x.headroom(c) - 1:
            continue
        a = {"customer_id": c["customer_id"], "equipment_id": e["equipment_id"], "start_date": _iso(s),
             "end_date": _iso(end)}
        if waiver or r.random() < 0.3:
            a["damage_waiver"] = waiver
        if r.random() < 0.4:
            a["po_number"] = f"  PO-{r.randint(100000, 999999)} "
        return a
    return None


def create_contract(x, ok):
    r = x.rng
    base = _valid_booking(x)
    if ok or base is None:
        return base or {"customer_id": "C-0000", "equipment_id": "EQ-0001", "start_date": _iso(x.t),
                        "end_date": _iso(x.t)}
    b = dict(base)
    kind = r.randrange(13)
    if kind == 0:
        sus = x.pick([c for c in x.cu if c["status"] == "suspended"])
        b["customer_id"] = sus["customer_id"] if sus else "C-0000"
    elif kind == 1:
        od = x.pick([c for c in x.cu if c["status"] == "active" and x.overdue(c["customer_id"])])
        b["customer_id"] = od["customer_id"] if od else "C-0000"
    elif kind == 2:
        un = x.pick([c for c in x.cu if not c["licensed_operator"]])
        lic = x.pick([e for e in x.eq if e["operator_licence_required"] and e["status"] == "available"])
        if un and lic:
            b["customer_id"], b["equipment_id"] = un["customer_id"], lic["equipment_id"]
    elif kind == 3:
        b["equipment_id"] = x.pick([e["equipment_id"] for e in x.eq if e["status"] in ("retired", "maintenance")])
    elif kind == 4:
        b["start_date"] = _iso(x.t - dt.timedelta(days=r.randint(1, 10)))
    elif kind == 5:
        s = x.t + dt.timedelta(days=r.randint(61, 90))
        b["start_date"], b["end_date"] = _iso(s), _iso(s + dt.timedelta(days=2))
    elif kind == 6:
        b["end_date"] = _iso(_d(b["start_date"]) - dt.timedelta(days=1))
    elif kind == 7:
        b["end_date"] = _iso(_d(b["start_date"]) + dt.timedelta(days=r.choice([28, 35])))
    elif kind == 8:
        c = x.pick([c for c in x.co if c["status"] in ("reserved", "on_hire")])
        b["equipment_id"], b["start_date"], b["end_date"] = c["equipment_id"], c["end_date"], c["end_date"]
        if _d(c["end_date"]) < x.t:
            return create_contract(x, False)
        cu = x.db["customers"][b["customer_id"]]
        if x.db["equipment"][c["equipment_id"]]["operator_licence_required"] and not cu["licensed_operator"]:
            pass  # refused anyway
    elif kind == 9:
        used = [c for c in x.co if c["po_number"] and c["customer_id"] in {g["customer_id"] for g in x.good_customers()}]
        c = x.pick(used)
        if c:
            b["customer_id"], b["po_number"] = c["customer_id"], c["po_number"].lower()
            e = x.pick([e for e in x.eq if e["status"] == "available" and not e["operator_licence_required"]])
            b["equipment_id"] = e["equipment_id"]
            s = x.t + dt.timedelta(days=55)
            b["start_date"], b["end_date"] = _iso(s), _iso(s)
        else:
            b["po_number"] = "   "
    elif kind == 10:
        poor = min(x.good_customers(), key=x.headroom)
        e = max((e for e in x.eq if e["status"] == "available" and (poor["licensed_operator"] or not e["operator_licence_required"])),
                key=lambda e: e["daily_rate"])
        s = x.t + dt.timedelta(days=58)
        b.update({"customer_id": poor["customer_id"], "equipment_id": e["equipment_id"], "start_date": _iso(s),
                  "end_date": _iso(s + dt.timedelta(days=27)), "damage_waiver": True})
        b.pop("po_number", None)
        if _price(e["daily_rate"], 28, True) <= x.headroom(poor):
            b["end_date"] = _iso(s - dt.timedelta(days=3))
    elif kind == 11:
        b["start_date"] = r.choice(["16/06/2025", "2025-02-30", "tomorrow"])
    else:
        b[r.choice(["customer_id", "equipment_id"])] = r.choice(["C-0000", "EQ-9999"])
    return b


def _contracts(x, statuses):
    return [c for c in x.co if c["status"] in statuses]


def check_out_contract(x, ok):
    if ok:
        good = [c for c in _contracts(x, {"reserved"}) if -1 <= (x.t - _d(c["start_date"])).days <= 2
                and x.db["equipment"][c["equipment_id"]]["status"] == "available"
                and x.db["customers"][c["customer_id"]]["status"] == "active"]
        if good:
            return {"contract_id": x.pick(good)["contract_id"]}
    bad = [c for c in x.co if c["status"] != "reserved"] + [
        c for c in _contracts(x, {"reserved"}) if not -1 <= (x.t - _d(c["start_date"])).days <= 2
        or x.db["equipment"][c["equipment_id"]]["status"] != "available"]
    return x.rng.choice([{"contract_id": x.pick(bad)["contract_id"]}] * 3 + [{"contract_id": "HC-99999"}])


def return_contract(x, ok):
    r = x.rng
    if ok:
        c = x.pick(_contracts(x, {"on_hire"}))
        a = {"contract_id": c["contract_id"]}
        if r.random() < 0.8:
            a["damage_level"] = r.choice(["none", "none", "minor", "major"])
        return a
    k = r.randrange(3)
    if k == 0:
        return {"contract_id": x.pick(_contracts(x, {"reserved", "returned", "cancelled"}))["contract_id"]}
    if k == 1:
        return {"contract_id": x.pick(_contracts(x, {"on_hire"}))["contract_id"], "damage_level": "severe"}
    return {"contract_id": "HC-00000", "damage_level": "none"}


REASONS = ["Site closed by client", "Job finished early", "Wrong machine booked", "Weather delay"]


def cancel_contract(x, ok):
    r = x.rng
    if ok:
        return {"contract_id": x.pick(_contracts(x, {"reserved"}))["contract_id"], "reason": r.choice(REASONS)}
    k = r.randrange(3)
    if k == 0:
        return {"contract_id": x.pick(_contracts(x, {"on_hire", "returned", "cancelled"}))["contract_id"],
                "reason": r.choice(REASONS)}
    if k == 1:
        return {"contract_id": x.pick(_contracts(x, {"reserved"}))["contract_id"], "reason": r.choice(["", "   "])}
    return {"contract_id": x.pick(_contracts(x, {"reserved"}))["contract_id"]}


def _extendable(x):
    out = []
    for c in _contracts(x, {"reserved", "on_hire"}):
        cu = x.db["customers"][c["customer_id"]]
        if cu["status"] == "active" and c["extension_count"] < 2:
            out.append(c)
    return out


def extend_contract(x, ok):
    r = x.rng
    if ok:
        for _ in range(30):
            c = x.pick(_extendable(x))
            s, e = _d(c["start_date"]), _d(c["end_date"])
            ne = max(e, x.t - dt.timedelta(days=1)) + dt.timedelta(days=r.choice([1, 2, 3, 5, 7]))
            if (ne - s).days + 1 > 28 or x.busy(c["equipment_id"], s, ne, skip=c["contract_id"]):
                continue
            return {"contract_id": c["contract_id"], "new_end_date": _iso(ne)}
    c = x.pick(_extendable(x))
    k = r.randrange(5)
    if k == 0:
        return {"contract_id": c["contract_id"], "new_end_date": c["end_date"]}
    if k == 1:
        return {"contract_id": c["contract_id"], "new_end_date": _iso(_d(c["start_date"]) + dt.timedelta(days=28))}
    if k == 2:
        return {"contract_id": x.pick(_contracts(x, {"returned", "cancelled"}))["contract_id"],
                "new_end_date": _iso(x.t + dt.timedelta(days=3))}
    if k == 3:
        old = x.pick([c for c in _contracts(x, {"on_hire"}) if _d(c["end_date"]) < x.t - dt.timedelta(days=1)])
        if old:
            return {"contract_id": old["contract_id"], "new_end_date": _iso(x.t - dt.timedelta(days=1))}
    return {"contract_id": c["contract_id"], "new_end_date": "2025-13-01"}


def place_maintenance_hold(x, ok):
    r = x.rng
    reason = r.choice(["Annual LOLER thorough examination", "Track tension adjustment", "Engine service due"])
    if ok:
        for _ in range(30):
            e = x.pick([e for e in x.eq if e["status"] == "available"])
            days = r.randint(1, 30)
            rel = x.t + dt.timedelta(days=days)
            if any(c["equipment_id"] == e["equipment_id"] and c["status"] == "reserved" and _d(c["start_date"]) <= rel
                   for c in x.co):
                continue
            return {"equipment_id": e["equipment_id"], "reason": reason, "days": days}
    k = r.randrange(5)
    e = x.pick([e for e in x.eq if e["status"] == "available"])
    if k == 0:
        return {"equipment_id": x.pick([e for e in x.eq if e["status"] != "available"])["equipment_id"],
                "reason": reason, "days": 3}
    if k == 1:
        return {"equipment_id": e["equipment_id"], "reason": reason, "days": r.choice([0, 31, -2])}
    if k == 2:
        return {"equipment_id": e["equipment_id"], "reason": "  ", "days": 4}
    if k == 3:
        res = x.pick([c for c in _contracts(x, {"reserved"}) if x.db["equipment"][c["equipment_id"]]["status"] == "available"
                      and _d(c["start_date"]) >= x.t])
        if res:
            return {"equipment_id": res["equipment_id"], "reason": reason,
                    "days": min(30, (_d(res["start_date"]) - x.t).days + r.randint(0, 3))}
    return {"equipment_id": e["equipment_id"], "reason": reason, "days": "5"}


def release_maintenance_hold(x, ok):
    r = x.rng
    if ok:
        a = {"hold_id": x.pick([h for h in x.holds if h["status"] == "open"])["hold_id"]}
        if r.random() < 0.6:
            a["notes"] = r.choice(["Hydraulic hose replaced", "  Passed inspection  ", ""])
        return a
    if r.random() < 0.7:
        return {"hold_id": x.pick([h for h in x.holds if h["status"] == "closed"])["hold_id"]}
    return {"hold_id": "MH-9999"}


def record_payment(x, ok):
    r = x.rng
    method = r.choice(["card", "bank_transfer", "cheque"])
    opened = [i for i in x.inv if i["status"] == "open"]
    if ok:
        i = x.pick(opened)
        rem = round(i["amount"] - i["amount_paid"], 2)
        amt = rem if r.random() < 0.5 else round(max(0.01, min(rem, r.choice([10, 50.5, 100, rem / 3]))), 2)
        return {"invoice_id": i["invoice_id"], "amount": amt, "method": method}
    i = x.pick(opened)
    k = r.randrange(6)
    if k == 0:
        return {"invoice_id": x.pick([i for i in x.inv if i["status"] == "paid"])["invoice_id"], "amount": 10.0,
                "method": method}
    if k == 1:
        return {"invoice_id": i["invoice_id"], "amount": round(i["amount"] - i["amount_paid"] + 0.01, 2), "method": method}
    if k == 2:
        return {"invoice_id": i["invoice_id"], "amount": r.choice([0, -25.0]), "method": method}
    if k == 3:
        return {"invoice_id": i["invoice_id"], "amount": 10.125, "method": method}
    if k == 4:
        return {"invoice_id": i["invoice_id"], "amount": 10.0, "method": "cash"}
    return {"invoice_id": "INV-99999", "amount": 10.0, "method": method}


def transfer_equipment(x, ok):
    r = x.rng
    reserved = {c["equipment_id"] for c in _contracts(x, {"reserved"})}
    open_depots = [d for d in x.depots if x.db["depots"][d]["active"]]
    movable = [e for e in x.eq if e["status"] == "available" and e["equipment_id"] not in reserved]
    e = x.pick(movable)
    if ok:
        return {"equipment_id": e["equipment_id"], "to_depot_id": x.pick([d for d in open_depots if d != e["depot_id"]])}
    k = r.randrange(5)
    if k == 0:
        return {"equipment_id": e["equipment_id"], "to_depot_id": x.pick([d for d in x.depots if not x.db["depots"][d]["active"]], "D99")}
    if k == 1:
        return {"equipment_id": e["equipment_id"], "to_depot_id": e["depot_id"]}
    if k == 2:
        b = x.pick([e for e in x.eq if e["status"] != "available"])
        return {"equipment_id": b["equipment_id"], "to_depot_id": x.pick([d for d in open_depots if d != b["depot_id"]])}
    if k == 3:
        b = x.pick([e for e in x.eq if e["equipment_id"] in reserved and e["status"] == "available"] or movable)
        return {"equipment_id": b["equipment_id"], "to_depot_id": x.pick([d for d in open_depots if d != b["depot_id"]])}
    return {"equipment_id": e["equipment_id"], "to_depot_id": "D99"}


GENERATORS = [  # (tool, weight)
    (list_equipment, 2), (get_equipment, 1), (get_customer, 1), (list_contracts, 2), (list_invoices, 2),
    (create_contract, 6), (check_out_contract, 3), (return_contract, 4), (cancel_contract, 3),
    (extend_contract, 4), (place_maintenance_hold, 3), (release_maintenance_hold, 2), (record_payment, 4),
    (transfer_equipment, 3),
]


def probes(db, rng, n):
    x = _Ctx(db, rng)
    pool = [g for g, w in GENERATORS for _ in range(w)]
    out = []
    while len(out) < n:
        g = rng.choice(pool)
        ok = rng.random() < 0.58
        args = g(x, ok)
        if args is None:
            continue
        out.append((g.__name__, args))
    return out
