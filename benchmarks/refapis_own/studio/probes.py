"""Differential probes for the Brasswick Sound Yard API: roughly 60% calls that the start state
accepts, 40% calls that the docs say must be refused, spread over all fourteen tools."""
from datetime import date, timedelta

LIVE = ("tentative", "confirmed", "in_progress")
COUNTED = LIVE + ("completed",)
REASONS = ["Singer is ill", "Label pushed the release back", "Drummer stuck abroad", "Budget freeze",
           "Moving the session to another studio", "Mixes not approved yet", "Power cut at the venue"]


def _night(start, dur):
    return max(0, start + dur - max(start, 20))


class _Ctx:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        self.ts = self.today.isoformat()
        self.ss = db["sessions"]
        self.sessions = [dict(s) for s in self.ss.values()]  # start state plus probe claims
        overdue = {i["client_id"] for i in db["invoices"].values() if i["status"] == "open" and i["due_on"] < self.ts}
        self.overdue = sorted(overdue)
        self.suspended = sorted(c for c, v in db["clients"].items() if v["status"] != "active")
        self.good_clients = sorted(c for c, v in db["clients"].items() if v["status"] == "active" and c not in overdue)
        self.open_rooms = sorted(r for r, v in db["rooms"].items() if v["status"] == "open")
        self.maint_rooms = sorted(r for r, v in db["rooms"].items() if v["status"] != "open")
        self.active_eng = sorted(e for e, v in db["engineers"].items() if v["active"])
        self.inactive_eng = sorted(e for e, v in db["engineers"].items() if not v["active"])
        self.balance = {c: v["account_balance"] for c, v in db["clients"].items()}
        self.out = {q: v["quantity_out"] for q, v in db["equipment"].items()}
        self.on_session = {(r["session_id"], r["equipment_id"]) for r in db["rentals"].values() if r["status"] == "reserved"}
        self.used = set()

    def c(self, seq):
        return self.rng.choice(list(seq))

    def by(self, pred):
        return sorted(k for k, s in self.ss.items() if pred(s))

    def fresh(self, ids):
        """Prefer records no earlier valid probe has touched."""
        free = [i for i in ids if i not in self.used]
        pick = self.c(free or ids)
        self.used.add(pick)
        return pick

    def day(self, lo, hi):
        return self.today + timedelta(days=self.rng.randint(lo, hi))

    # ---- booking helpers
    def clash(self, key, val, d, start, dur):
        return any(s[key] == val and s["status"] in LIVE and s["date"] == d
                   and s["start_hour"] < start + dur and start < s["start_hour"] + s["duration_hours"]
                   for s in self.sessions)

    def week_hours(self, eid, d):
        wk = date.fromisoformat(d).isocalendar()[:2]
        return sum(s["duration_hours"] for s in self.sessions if s["engineer_id"] == eid
                   and s["status"] in COUNTED and date.fromisoformat(s["date"]).isocalendar()[:2] == wk)

    def eng_ok(self, eid, skill, d, start, dur):
        e = self.db["engineers"][eid]
        return (e["active"] and (skill is None or skill in e["skills"]) and not self.clash("engineer_id", eid, d, start, dur)
                and self.week_hours(eid, d) + dur <= e["weekly_hour_limit"])

    def free_booking(self, tries=400):
        for _ in range(tries):
            d = self.day(0, 90)
            if d.weekday() == 6:
                continue
            ds, cid, rid = d.isoformat(), self.c(self.good_clients), self.c(self.open_rooms)
            room = self.db["rooms"][rid]
            start = self.rng.randint(10, 23)
            dur = self.rng.randint(1, min(10, 24 - start, 6))
            if any(s["client_id"] == cid and s["date"] == ds and s["status"] in LIVE for s in self.sessions):
                continue
            if self.clash("room_id", rid, ds, start, dur):
                continue
            skill = room["required_skill"]
            eid = None
            if skill or self.rng.random() < 0.4:
                cands = [e for e in self.active_eng if self.eng_ok(e, skill, ds, start, dur)]
                if not cands:
                    continue
                eid = self.c(cands)
            return {"client_id": cid, "room_id": rid, "date": ds, "start_hour": start, "duration_hours": dur,
                    "engineer_id": eid, "party_size": self.rng.randint(1, room["capacity"])}
        return None

    def claim(self, a):
        self.sessions.append(dict(a, status="tentative", engineer_id=a.get("engineer_id")))


def g_list_rooms(x, ok):
    if ok:
        a = {}
        for k, v in (("kind", ["tracking", "mixing", "mastering", "vocal_booth", "rehearsal"]),
                     ("status", ["open", "maintenance"]), ("min_capacity", [1, 3, 5, 8, 12])):
            if x.rng.random() < 0.4:
                a[k] = x.c(v)
        return a
    return x.c([{"kind": "control_room"}, {"status": "closed"}, {"min_capacity": 0}, {"min_capacity": "4"},
                {"floor": 2}])


def g_list_engineers(x, ok):
    if ok:
        a = {}
        if x.rng.random() < 0.5:
            a["skill"] = x.c(["tracking", "mixing", "mastering", "vocal_production", "live_sound"])
        if x.rng.random() < 0.3:
            a["active"] = x.c([True, False])
        if x.rng.random() < 0.4:
            name = x.db["engineers"][x.c(x.db["engineers"])]["name"]
            a["q"] = x.c([name.split()[0].lower(), name.split()[-1].upper(), "an"])
        return a
    return x.c([{"skill": "drums"}, {"active": "yes"}, {"q": 7}, {"rate": 50}])


def g_list_equipment(x, ok):
    if ok:
        a = {}
        if x.rng.random() < 0.5:
            a["category"] = x.c(["microphone", "amplifier", "instrument", "outboard", "monitoring"])
        if x.rng.random() < 0.4:
            a["available_only"] = x.c([True, False])
        if x.rng.random() < 0.3:
            a["q"] = x.c(["NEUMANN", "ribbon", "amp", "1176", "pair"])
        return a
    return x.c([{"category": "cables"}, {"available_only": "true"}, {"q": None}, {"in_stock": True}])


def g_list_clients(x, ok):
    if ok:
        a = {}
        if x.rng.random() < 0.6:
            cl = x.db["clients"][x.c(x.db["clients"])]
            a["q"] = x.c([cl["name"].split()[0].upper(), cl["name"].lower()[-5:], "example", "records", "BAND"])
        if x.rng.random() < 0.3:
            a["status"] = x.c(["active", "suspended"])
        if x.rng.random() < 0.3:
            a["kind"] = x.c(["artist", "band", "label", "producer", "podcast"])
        return a
    return x.c([{"status": "banned"}, {"kind": "orchestra"}, {"q": ["a"]}, {"name": "Velvet"}])


def g_list_sessions(x, ok):
    if ok:
        a = {}
        r = x.rng.random()
        if r < 0.25:
            a["client_id"] = x.c(x.db["clients"])
        elif r < 0.45:
            a["room_id"] = x.c(x.db["rooms"])
        elif r < 0.6:
            a["engineer_id"] = x.c(x.db["engineers"])
        if x.rng.random() < 0.4:
            a["status"] = x.c(["tentative", "confirmed", "in_progress", "completed", "cancelled", "no_show"])
        if x.rng.random() < 0.4:
            lo = x.day(-30, 20)
            a["date_from"] = lo.isoformat()
            if x.rng.random() < 0.6:
                a["date_to"] = (lo + timedelta(days=x.rng.randint(0, 21))).isoformat()
        return a
    bad = x.rng.randint(0, 5)
    if bad == 0:
        return {"client_id": "CL999"}
    if bad == 1:
        return {"room_id": x.c(["RM99", "EN01"])}
    if bad == 2:
        return {"date_from": x.day(5, 10).isoformat(), "date_to": x.day(-10, 4).isoformat()}
    if bad == 3:
        return {"date_from": x.c(["2025-06-31", "11/06/2025", "2025-6-1"])}
    if bad == 4:
        return {"status": x.c(["pending", "done", "CONFIRMED"])}
    return {"engineer_id": "EN77"}


def g_list_invoices(x, ok):
    if ok:
        a = {}
        if x.rng.random() < 0.4:
            a["client_id"] = x.c(x.db["clients"])
        if x.rng.random() < 0.4:
            a["status"] = x.c(["open", "paid"])
        if x.rng.random() < 0.4:
            a["overdue"] = x.c([True, False])
        return a
    return x.c([{"client_id": "CL000"}, {"status": "overdue"}, {"overdue": 1}, {"client_id": "IV0001"}])


def g_book_session(x, ok):
    if ok:
        a = x.free_booking()
        if a is not None:
            x.claim(a)
            if a["engineer_id"] is None and x.rng.random() < 0.6:
                del a["engineer_id"]
            if a["party_size"] == 1 and x.rng.random() < 0.5:
                del a["party_size"]
            return a
    base = x.free_booking() or {"client_id": x.c(x.good_clients), "room_id": "RM14", "date": x.day(3, 30).isoformat(),
                                "start_hour": 12, "duration_hours": 2, "engineer_id": None, "party_size": 1}
    a = dict(base)
    room = x.db["rooms"][a["room_id"]]
    bad = x.rng.randint(0, 15)
    if bad == 0:
        d = x.day(1, 80)
        a["date"] = (d + timedelta(days=6 - d.weekday())).isoformat()  # a Sunday
    elif bad == 1:
        a["date"] = x.day(-20, -1).isoformat()
    elif bad == 2:
        a["date"] = x.day(91, 140).isoformat()
    elif bad == 3:
        a.update(x.c([{"start_hour": 20, "duration_hours": 6}, {"start_hour": 9}, {"start_hour": 24},
                      {"duration_hours": 0}, {"start_hour": 10, "duration_hours": 11}, {"start_hour": "14"}]))
    elif bad == 4:
        a["client_id"] = x.c(x.suspended)
    elif bad == 5:
        a["client_id"] = x.c(x.overdue)
    elif bad == 6:
        a["room_id"] = x.c(x.maint_rooms)
    elif bad == 7:
        a["party_size"] = room["capacity"] + x.rng.randint(1, 4)
    elif bad == 8:
        a["room_id"] = x.c([r for r in x.open_rooms if x.db["rooms"][r]["required_skill"]])
        a["engineer_id"] = None
    elif bad == 9:
        rid = x.c([r for r in x.open_rooms if x.db["rooms"][r]["required_skill"]])
        skill = x.db["rooms"][rid]["required_skill"]
        a["room_id"] = rid
        a["party_size"] = 1
        a["engineer_id"] = x.c([e for e in x.active_eng if skill not in x.db["engineers"][e]["skills"]])
    elif bad == 10:
        a["engineer_id"] = x.c(x.inactive_eng)
    elif bad in (11, 12):  # room or engineer already taken by a live session
        s = x.ss[x.c(x.by(lambda s: s["status"] in ("tentative", "confirmed") and s["date"] >= x.ts
                          and (bad == 11 or s["engineer_id"])))]
        a.update(date=s["date"], start_hour=s["start_hour"], duration_hours=s["duration_hours"])
        if bad == 11:
            a.update(room_id=s["room_id"], engineer_id=s["engineer_id"], party_size=1)
        else:
            skilled = [r for r in x.open_rooms if x.db["rooms"][r]["required_skill"] in x.db["engineers"][s["engineer_id"]]["skills"]]
            a.update(engineer_id=s["engineer_id"], room_id=x.c(skilled or ["RM14"]), party_size=1)
    elif bad == 13:  # client already has a live booking that day
        s = x.ss[x.c(x.by(lambda s: s["status"] in ("tentative", "confirmed") and s["date"] > x.ts))]
        a.update(client_id=s["client_id"], date=s["date"])
    elif bad == 14:
        a[x.c(["client_id", "room_id", "engineer_id"])] = x.c(["CL404", "RM00", "EN99"])
    else:
        a = x.c([{k: v for k, v in a.items() if k != "date"}, dict(a, date="2025-13-02"), dict(a, notes="vinyl cut"),
                 dict(a, date=x.day(1, 30).strftime("%d/%m/%Y"))])
    if a.get("engineer_id") is None and x.rng.random() < 0.5:
        a.pop("engineer_id", None)
    return a


def g_confirm_session(x, ok):
    if ok:
        cands = x.by(lambda s: s["status"] == "tentative" and s["date"] >= x.ts
                     and x.db["clients"][s["client_id"]]["status"] == "active"
                     and x.balance[s["client_id"]] >= round(s["quote"] * 0.2, 2) + 0.01)
        sid = x.fresh(cands)
        x.balance[x.ss[sid]["client_id"]] -= round(x.ss[sid]["quote"] * 0.2, 2)
        return {"session_id": sid}
    bad = x.rng.randint(0, 4)
    if bad == 0:
        return {"session_id": x.c(x.by(lambda s: s["status"] == "tentative" and s["date"] < x.ts))}
    if bad == 1:
        return {"session_id": x.c(x.by(lambda s: s["status"] in ("confirmed", "completed", "cancelled", "in_progress")))}
    if bad == 2:
        poor = x.by(lambda s: s["status"] == "tentative" and s["date"] >= x.ts
                    and x.db["clients"][s["client_id"]]["account_balance"] < round(s["quote"] * 0.2, 2))
        return {"session_id": x.c(poor or ["SS9999"])}
    if bad == 3:
        return {"session_id": x.c(["SS9999", "SS0000", "ss0001"])}
    return {}


def g_start_session(x, ok):
    if ok:
        return {"session_id": x.fresh(x.by(lambda s: s["status"] == "confirmed" and s["date"] == x.ts))}
    bad = x.rng.randint(0, 3)
    if bad == 0:
        return {"session_id": x.c(x.by(lambda s: s["status"] == "confirmed" and s["date"] != x.ts))}
    if bad == 1:
        return {"session_id": x.c(x.by(lambda s: s["status"] == "tentative" and s["date"] == x.ts))}
    if bad == 2:
        return {"session_id": x.c(x.by(lambda s: s["status"] in ("in_progress", "completed", "no_show")))}
    return {"session_id": "SS4040"}


def g_complete_session(x, ok):
    if ok:
        return {"session_id": x.fresh(x.by(lambda s: s["status"] == "in_progress"))}
    bad = x.rng.randint(0, 2)
    if bad == 0:
        return {"session_id": x.c(x.by(lambda s: s["status"] in ("confirmed", "tentative")))}
    if bad == 1:
        return {"session_id": x.c(x.by(lambda s: s["status"] in ("completed", "cancelled", "no_show")))}
    return {"session_id": x.c(["SS9998", 42])}


def g_cancel_session(x, ok):
    if ok:
        sid = x.fresh(x.by(lambda s: s["status"] in ("tentative", "confirmed") and s["date"] > x.ts))
        a = {"session_id": sid, "reason": x.c(REASONS)}
        if x.rng.random() < 0.5:
            a["cancelled_by"] = x.c(["client", "client", "studio"])
        return a
    live = x.by(lambda s: s["status"] in ("tentative", "confirmed") and s["date"] >= x.ts)
    bad = x.rng.randint(0, 5)
    if bad == 0:
        return {"session_id": x.c(x.by(lambda s: s["status"] in ("tentative", "confirmed") and s["date"] < x.ts)),
                "reason": x.c(REASONS)}
    if bad == 1:
        return {"session_id": x.c(x.by(lambda s: s["status"] in ("in_progress", "completed", "cancelled", "no_show"))),
                "reason": x.c(REASONS)}
    if bad == 2:
        return {"session_id": x.c(live), "reason": x.c(["", "   ", "x" * 201])}
    if bad == 3:
        return {"session_id": x.c(live), "reason": x.c(REASONS), "cancelled_by": x.c(["label", "engineer", "CLIENT"])}
    if bad == 4:
        return {"session_id": x.c(live)}
    return {"session_id": "SS0999", "reason": x.c(REASONS)}


def g_mark_no_show(x, ok):
    if ok:
        past = x.by(lambda s: s["status"] == "confirmed" and s["date"] < x.ts)
        today = x.by(lambda s: s["status"] == "confirmed" and s["date"] == x.ts)
        return {"session_id": x.fresh(past if x.rng.random() < 0.75 else today)}
    bad = x.rng.randint(0, 3)
    if bad == 0:
        return {"session_id": x.c(x.by(lambda s: s["status"] == "confirmed" and s["date"] > x.ts))}
    if bad == 1:
        return {"session_id": x.c(x.by(lambda s: s["status"] == "tentative"))}
    if bad == 2:
        return {"session_id": x.c(x.by(lambda s: s["status"] in ("in_progress", "completed", "cancelled", "no_show")))}
    return {"session_id": "SS7777"}


def g_add_rental(x, ok):
    live = x.by(lambda s: s["status"] in LIVE and s["date"] >= x.ts)
    eqs = x.db["equipment"]
    if ok:
        for _ in range(200):
            sid, qid = x.c(live), x.c(eqs)
            free = eqs[qid]["quantity_total"] - x.out[qid]
            if eqs[qid]["retired"] or free < 1 or (sid, qid) in x.on_session:
                continue
            qty = x.rng.randint(1, min(free, 3))
            x.out[qid] += qty
            x.on_session.add((sid, qid))
            a = {"session_id": sid, "equipment_id": qid, "quantity": qty}
            if qty == 1 and x.rng.random() < 0.4:
                del a["quantity"]
            return a
    bad = x.rng.randint(0, 6)
    sid = x.c(live)
    if bad == 0:
        return {"session_id": sid, "equipment_id": x.c([q for q in eqs if eqs[q]["retired"]]), "quantity": 1}
    if bad == 1:
        q = x.c([q for q in eqs if not eqs[q]["retired"]])
        return {"session_id": sid, "equipment_id": q, "quantity": eqs[q]["quantity_total"] + x.rng.randint(1, 3)}
    if bad == 2:
        pairs = sorted((s, q) for s, q in x.on_session if x.ss.get(s, {}).get("status") in LIVE)
        s, q = x.c(pairs)
        return {"session_id": s, "equipment_id": q, "quantity": 1}
    if bad == 3:
        return {"session_id": x.c(x.by(lambda s: s["status"] in ("completed", "cancelled", "no_show"))),
                "equipment_id": x.c([q for q in eqs if not eqs[q]["retired"]])}
    if bad == 4:
        return {"session_id": x.c(x.by(lambda s: s["status"] in ("tentative", "confirmed") and s["date"] < x.ts)),
                "equipment_id": "EQ03"}
    if bad == 5:
        return {"session_id": sid, "equipment_id": "EQ03", "quantity": x.c([0, -1, "2", 1.5])}
    return {"session_id": sid, "equipment_id": x.c(["EQ99", "EQ00", "RT0001"])}


def g_pay_invoice(x, ok):
    inv = x.db["invoices"]
    open_i = sorted(i for i, v in inv.items() if v["status"] == "open")
    if ok:
        iid = x.fresh(open_i)
        cid, amt = inv[iid]["client_id"], inv[iid]["amount"]
        if x.balance[cid] >= amt and x.rng.random() < 0.5:
            x.balance[cid] -= amt
            return {"invoice_id": iid, "payment_method": "account_balance"}
        return {"invoice_id": iid, "payment_method": x.c(["card", "bank_transfer"])}
    bad = x.rng.randint(0, 4)
    if bad == 0:
        return {"invoice_id": x.c(sorted(i for i, v in inv.items() if v["status"] == "paid")),
                "payment_method": x.c(["card", "bank_transfer"])}
    if bad == 1:
        poor = [i for i in open_i if x.db["clients"][inv[i]["client_id"]]["account_balance"] < inv[i]["amount"]]
        return {"invoice_id": x.c(poor or ["IV9999"]), "payment_method": "account_balance"}
    if bad == 2:
        return {"invoice_id": x.c(open_i), "payment_method": x.c(["cash", "crypto", "Card"])}
    if bad == 3:
        return {"invoice_id": x.c(open_i)}
    return {"invoice_id": "IV9999", "payment_method": "card"}


GENS = [("list_rooms", g_list_rooms, 1), ("list_engineers", g_list_engineers, 1),
        ("list_equipment", g_list_equipment, 1), ("list_clients", g_list_clients, 1),
        ("list_sessions", g_list_sessions, 2), ("list_invoices", g_list_invoices, 1),
        ("book_session", g_book_session, 5), ("confirm_session", g_confirm_session, 3),
        ("start_session", g_start_session, 2), ("complete_session", g_complete_session, 2),
        ("cancel_session", g_cancel_session, 3), ("mark_no_show", g_mark_no_show, 2),
        ("add_rental", g_add_rental, 3), ("pay_invoice", g_pay_invoice, 2)]


def probes(db, rng, n):
    x = _Ctx(db, rng)
    names = [g[0] for g in GENS]
    weights = [g[2] for g in GENS]
    fns = {g[0]: g[1] for g in GENS}
    out = []
    for i in range(n):
        name = names[i] if i < len(names) else rng.choices(names, weights)[0]
        ok = i < len(names) or rng.random() < 0.6
        out.append((name, fns[name](x, ok)))
    return out
