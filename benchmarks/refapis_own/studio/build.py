"""Generates db.json for the Brasswick Sound Yard studio API. Stdlib only, fixed seed."""
import json
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 20250611
TODAY = date(2025, 6, 11)
OPEN_HOUR, CLOSE_HOUR, NIGHT_FROM = 10, 24, 20
CENT = Decimal("0.01")

rng = random.Random(SEED)


def money(x):
    return Decimal(x).quantize(CENT, rounding=ROUND_HALF_UP)


def num(d):
    return float(money(d))


ROOMS = [  # name, kind, rate, capacity, status, features
    ("Studio A", "tracking", 150, 12, "open", ["SSL 4000 G+ console", "drum riser", "Steinway B piano", "iso booth x2"]),
    ("Studio B", "tracking", 120, 8, "open", ["Neve 8078 console", "iso booth", "Hammond C3"]),
    ("Studio C", "tracking", 95, 6, "open", ["API 1608 console", "iso booth"]),
    ("The Barn", "tracking", 175, 20, "maintenance", ["Neve 88RS console", "string section floor", "Yamaha C7 piano"]),
    ("Mix Suite 1", "mixing", 85, 4, "open", ["SSL AWS 948", "Barefoot MM27 monitors"]),
    ("Mix Suite 2", "mixing", 85, 4, "open", ["Avid S6", "ATC SCM45 monitors"]),
    ("Mix Suite 3", "mixing", 70, 3, "open", ["Avid S1", "Genelec 8351 monitors"]),
    ("Atmos Room", "mixing", 130, 5, "open", ["Dolby Atmos 9.1.4", "Avid S6"]),
    ("Mastering North", "mastering", 110, 3, "open", ["Manley Massive Passive", "PMC MB3 monitors"]),
    ("Mastering South", "mastering", 95, 3, "open", ["Maselec MEA-2", "B&W 800 monitors"]),
    ("Vocal Booth 1", "vocal_booth", 55, 2, "open", ["Neumann U 67", "Neve 1073 pre"]),
    ("Vocal Booth 2", "vocal_booth", 55, 2, "open", ["Telefunken ELA M 251", "Avalon 737"]),
    ("Vocal Booth 3", "vocal_booth", 45, 2, "maintenance", ["Shure SM7B", "UA 610"]),
    ("Rehearsal 1", "rehearsal", 35, 8, "open", ["PA 2kW", "drum kit", "backline"]),
    ("Rehearsal 2", "rehearsal", 35, 8, "open", ["PA 2kW", "drum kit"]),
    ("Rehearsal 3", "rehearsal", 30, 6, "open", ["PA 1kW", "drum kit"]),
    ("Rehearsal 4", "rehearsal", 30, 6, "open", ["PA 1kW"]),
    ("Rehearsal 5", "rehearsal", 25, 5, "open", ["PA 800W"]),
    ("Rehearsal 6", "rehearsal", 40, 10, "maintenance", ["PA 3kW", "stage lighting", "drum kit"]),
    ("Rehearsal 7", "rehearsal", 25, 4, "open", ["PA 800W", "keyboard stand"]),
]
SKILL_FOR = {"tracking": "tracking", "mixing": "mixing", "mastering": "mastering",
             "vocal_booth": "vocal_production", "rehearsal": None}
SKILLS = ["tracking", "mixing", "mastering", "vocal_production", "live_sound"]

ENGINEERS = ["Marisol Vega", "Tobias Reinholt", "Keisha Montgomery", "Declan Fairweather", "Yuki Aoyama",
             "Oren Shapiro", "Priya Raghunathan", "Lars Eklund", "Naomi Achebe", "Felipe Duarte",
             "Ruth Calloway", "Anton Vasiliev", "Bea Lindgren", "Samir Haddadi", "Clem Porter",
             "Imogen Strand", "Jasper Quill", "Wen Li", "Dario Benedetti", "Hattie Oduya"]

CLIENTS = [("Velvet Static", "band"), ("Juniper Hale", "artist"), ("Northbound Records", "label"),
           ("The Lantern Choir", "band"), ("Mika Sorensen", "artist"), ("Copperline Audio", "producer"),
           ("Ghost Orchard", "band"), ("Ada Brightwater", "artist"), ("Saltmarsh Podcast", "podcast"),
           ("Rue Delacroix", "artist"), ("Halfmoon Collective", "band"), ("Tiber & Finch", "producer"),
           ("Odessa Kline", "artist"), ("Pale Horizon", "band"), ("Greyfield Music Group", "label"),
           ("Kofi Mensah", "artist"), ("The Sundial Sessions", "podcast"), ("Lowland Echo", "band"),
           ("Isla Marchetti", "artist"), ("Brass Lanterns", "band"), ("Quietstorm Label", "label"),
           ("Dev Patel Beats", "producer"), ("Marrow & Moss", "band"), ("Sable Young", "artist"),
           ("Foxglove Radio", "podcast"), ("Teodor Nyberg", "artist"), ("Cinder Youth", "band"),
           ("Harbor Light Records", "label"), ("Lena Okonkwo", "artist"), ("The Paper Kites Club", "band"),
           ("Rivet Productions", "producer"), ("Amara Solis", "artist"), ("Wolf & Willow", "band"),
           ("Ninth Street Sound", "producer"), ("Celeste Araújo", "artist"), ("Deadpan Daisies", "band"),
           ("Moonwake Media", "podcast"), ("Finn Gallagher", "artist"), ("Static Bloom", "band"),
           ("Otis Redfern", "artist")]

EQUIPMENT = [  # name, category, rate per session, total, retired
    ("Neumann U 87 Ai", "microphone", 45, 4, False), ("AKG C414 XLII", "microphone", 30, 6, False),
    ("Shure SM7B", "microphone", 15, 6, False), ("Royer R-121 ribbon", "microphone", 35, 2, False),
    ("Coles 4038 ribbon", "microphone", 40, 2, False), ("Sennheiser MD 421", "microphone", 15, 8, False),
    ("Neumann M 49 (vintage)", "microphone", 120, 1, False), ("Telefunken U47 reissue", "microphone", 95, 1, True),
    ("Fender '65 Twin Reverb", "amplifier", 40, 2, False), ("Vox AC30", "amplifier", 40, 2, False),
    ("Ampeg SVT Classic + 8x10", "amplifier", 55, 1, False), ("Marshall JCM800 stack", "amplifier", 50, 1, False),
    ("Ludwig Classic Maple kit", "instrument", 75, 1, False), ("Fender Rhodes Mark I", "instrument", 60, 1, False),
    ("Moog Minimoog Model D", "instrument", 65, 1, False), ("Gibson J-45 acoustic", "instrument", 30, 2, False),
    ("Teenage Engineering OP-1", "instrument", 20, 2, True),
    ("Universal Audio 1176LN", "outboard", 35, 4, False), ("Teletronix LA-2A", "outboard", 40, 2, False),
    ("Pultec EQP-1A", "outboard", 45, 2, False), ("Eventide H3000", "outboard", 30, 1, False),
    ("Neve 1073 preamp pair", "outboard", 50, 3, False),
    ("Yamaha NS-10M pair", "monitoring", 17.5, 2, False), ("Beyerdynamic DT 770 headphones", "monitoring", 7.5, 12, False),
]

CANCEL_REASONS = ["Vocalist has laryngitis", "Band member travelling", "Label postponed the release",
                  "Budget review", "Clashing live show", "Rescheduling to next month", "Producer unavailable",
                  "Room equipment fault reported by studio", "Family emergency", "Songs not ready yet"]


def quote_of(room_rate, eng_rate, start, dur):
    hourly = Decimal(room_rate) + Decimal(eng_rate)
    night = max(0, start + dur - max(start, NIGHT_FROM))
    return money(hourly * dur + hourly * Decimal("0.25") * night)


def pct(amount, p):
    return money(amount * Decimal(p) / 100)


def build():
    db = {"meta": {"today": TODAY.isoformat(), "studio": "Brasswick Sound Yard", "currency": "USD",
                   "timezone": "America/Chicago"}}
    rooms = {}
    for i, (name, kind, rate, cap, status, feats) in enumerate(ROOMS, 1):
        rid = "RM%02d" % i
        rooms[rid] = {"id": rid, "name": name, "kind": kind, "hourly_rate": float(rate), "capacity": cap,
                      "required_skill": SKILL_FOR[kind], "features": feats, "status": status}
    engineers = {}
    for i, name in enumerate(ENGINEERS, 1):
        eid = "EN%02d" % i
        skills = sorted(rng.sample(SKILLS[:4], rng.choice([1, 2, 2, 3])), key=SKILLS.index)
        if rng.random() < 0.3:
            skills.append("live_sound")
        engineers[eid] = {"id": eid, "name": name, "email": name.lower().replace(" ", ".") + "@brasswick.studio",
                          "skills": skills, "hourly_rate": float(rng.choice(range(35, 95, 5))),
                          "weekly_hour_limit": rng.choice([16, 20, 24, 30, 36, 40]),
                          "hours_logged": rng.randint(120, 2400), "active": i not in (7, 16)}
    clients = {}
    for i, (name, kind) in enumerate(CLIENTS, 1):
        cid = "CL%03d" % i
        slug = "".join(c for c in name.lower().replace(" ", ".") if c.isalnum() or c == ".")
        clients[cid] = {"id": cid, "name": name, "kind": kind, "email": slug + "@mail.example",
                        "status": "suspended" if i in (9, 23, 36) else "active",
                        "prepaid_hours": rng.choice([0, 0, 0, 2, 4, 5, 8, 10, 12, 20, 25]),
                        "account_balance": num(Decimal(rng.choice([0, 40, 120, 250, 600, 900, 1500, 2400]))
                                               + Decimal(rng.randint(0, 99)) / 100),
                        "joined_on": (TODAY - timedelta(days=rng.randint(60, 1400))).isoformat()}
    equipment = {}
    for i, (name, cat, rate, total, retired) in enumerate(EQUIPMENT, 1):
        qid = "EQ%02d" % i
        equipment[qid] = {"id": qid, "name": name, "category": cat, "session_rate": float(rate),
                          "quantity_total": total, "quantity_out": 0, "retired": retired}

    # ---- place sessions without overlaps
    placed = []
    room_busy, eng_busy, client_day, eng_week = {}, {}, set(), {}
    active_clients = [c for c in clients if clients[c]["status"] == "active"]
    tries = 0
    while len(placed) < 140 and tries < 20000:
        tries += 1
        d = TODAY if len(placed) < 18 else TODAY + timedelta(days=rng.randint(-56, 40))
        if d.weekday() == 6:
            continue
        rid = rng.choice(list(rooms))
        room = rooms[rid]
        if room["status"] == "maintenance" and d >= TODAY - timedelta(days=10):
            continue
        start = rng.randint(OPEN_HOUR, 22)
        dur = rng.randint(1, min(8, CLOSE_HOUR - start))
        pool = active_clients if d >= TODAY else list(clients)
        cid = rng.choice(pool)
        if (cid, d) in client_day:
            continue
        hours = set(range(start, start + dur))
        if room_busy.get((rid, d), set()) & hours:
            continue
        eid = None
        skill = room["required_skill"]
        if skill or rng.random() < 0.3:
            cands = [e for e in engineers if (engineers[e]["active"] or d < TODAY - timedelta(days=20))
                     and (skill is None or skill in engineers[e]["skills"])]
            eid = rng.choice(cands)
            wk = (eid, d.isocalendar()[:2])
            if eng_busy.get((eid, d), set()) & hours or eng_week.get(wk, 0) + dur > engineers[eid]["weekly_hour_limit"]:
                continue
            eng_busy.setdefault((eid, d), set()).update(hours)
            eng_week[wk] = eng_week.get(wk, 0) + dur
        room_busy.setdefault((rid, d), set()).update(hours)
        client_day.add((cid, d))
        placed.append({"client_id": cid, "room_id": rid, "engineer_id": eid, "date": d,
                       "start_hour": start, "duration_hours": dur,
                       "party_size": rng.randint(1, room["capacity"])})
    for p in placed:
        lead = rng.randint(2, 40)
        p["created_on"] = min(p["date"] - timedelta(days=lead), TODAY - timedelta(days=rng.randint(0, 6)))
    placed.sort(key=lambda p: (p["created_on"], p["date"], p["start_hour"], p["room_id"]))

    sessions, rentals, invoices, events = {}, {}, {}, []
    inv_list = []
    for n, p in enumerate(placed, 1):
        sid = "SS%04d" % n
        d, created = p["date"], p["created_on"]
        room = rooms[p["room_id"]]
        eng_rate = engineers[p["engineer_id"]]["hourly_rate"] if p["engineer_id"] else 0
        quote = quote_of(room["hourly_rate"], eng_rate, p["start_hour"], p["duration_hours"])
        r = rng.random()
        if d < TODAY:
            status = ("completed" if r < 0.7 else "cancelled" if r < 0.83 else "no_show" if r < 0.9
                      else "confirmed" if r < 0.95 else "tentative")
        elif d == TODAY:
            status = ("in_progress" if p["start_hour"] <= 16 and r < 0.85 else
                      "tentative" if r > 0.88 else "confirmed")
        else:
            status = "tentative" if r < 0.4 else "confirmed" if r < 0.88 else "cancelled"
        s = {"id": sid, "client_id": p["client_id"], "room_id": p["room_id"], "engineer_id": p["engineer_id"],
             "date": d.isoformat(), "start_hour": p["start_hour"], "duration_hours": p["duration_hours"],
             "party_size": p["party_size"], "status": status, "quote": num(quote), "deposit": 0.0,
             "created_on": created.isoformat(), "confirmed_on": None, "started_on": None, "completed_on": None,
             "cancelled_on": None, "cancelled_by": None, "cancel_reason": None, "cancellation_fee": None,
             "no_show_on": None, "no_show_fee": None, "package_hours_used": 0, "total": None, "invoice_id": None}
        events.append((created, 0, "session_booked", sid, p["client_id"], num(quote)))
        was_confirmed = status in ("confirmed", "in_progress", "completed", "no_show") or \
            (status == "cancelled" and rng.random() < 0.6)
        deposit = Decimal(0)
        if was_confirmed:
            last = min(d, TODAY)
            conf = created + timedelta(days=rng.randint(0, max(0, min(5, (last - created).days))))
            deposit = pct(quote, 20)
            s["confirmed_on"], s["deposit"] = conf.isoformat(), num(deposit)
            events.append((conf, 1, "session_confirmed", sid, p["client_id"], num(deposit)))
        sessions[sid] = s
        # rentals
        lines = []
        if rng.random() < 0.35:
            for qid in rng.sample(list(equipment), rng.choice([1, 1, 2])):
                eq = equipment[qid]
                qty = rng.randint(1, min(2, eq["quantity_total"]))
                reserved = status in ("tentative", "confirmed", "in_progress") and d >= TODAY
                if eq["retired"] and d >= TODAY - timedelta(days=30):
                    continue
                if reserved and eq["quantity_out"] + qty > eq["quantity_total"]:
                    continue
                if reserved:
                    eq["quantity_out"] += qty
                lines.append((qid, qty, reserved))
        stale = status in ("tentative", "confirmed") and d < TODAY
        for qid, qty, reserved in lines:
            if stale:
                continue
            rtid = "RT%04d" % (len(rentals) + 1)
            amt = money(Decimal(str(equipment[qid]["session_rate"])) * qty)
            added = created + timedelta(days=rng.randint(0, max(0, (min(d, TODAY) - created).days)))
            rentals[rtid] = {"id": rtid, "session_id": sid, "equipment_id": qid, "quantity": qty,
                             "amount": num(amt), "added_on": added.isoformat(),
                             "status": "reserved" if reserved else ("returned" if status == "completed" else "released")}
            events.append((added, 2, "rental_added", sid, p["client_id"], num(amt)))
        rental_sum = sum((Decimal(str(rt["amount"])) for rt in rentals.values() if rt["session_id"] == sid), Decimal(0))

        def raise_invoice(kind, amount, issued):
            inv_list.append((sid, p["client_id"], kind, amount, issued))
            return len(inv_list)

        if status == "in_progress":
            s["started_on"] = TODAY.isoformat()
            events.append((TODAY, 3, "session_started", sid, p["client_id"], None))
        elif status == "completed":
            s["started_on"] = s["completed_on"] = d.isoformat()
            cl = clients[p["client_id"]]
            used = min(p["duration_hours"], rng.choice([0, 0, 0, 1, 2, 4])) if cl["prepaid_hours"] else 0
            hourly = Decimal(room["hourly_rate"]) + Decimal(eng_rate)
            night = max(0, p["start_hour"] + p["duration_hours"] - max(p["start_hour"], NIGHT_FROM))
            total = money(hourly * (p["duration_hours"] - used) + hourly * Decimal("0.25") * night + rental_sum)
            s["package_hours_used"], s["total"] = used, num(total)
            events.append((d, 3, "session_started", sid, p["client_id"], None))
            events.append((d, 4, "session_completed", sid, p["client_id"], num(total)))
            if total > deposit:
                s["invoice_id"] = raise_invoice("session", total - deposit, d)
        elif status == "cancelled":
            cdate = created + timedelta(days=rng.randint(0, max(0, (min(d, TODAY) - created).days)))
            if s["confirmed_on"] and cdate < date.fromisoformat(s["confirmed_on"]):
                cdate = date.fromisoformat(s["confirmed_on"])
            reason = rng.choice(CANCEL_REASONS)
            by = "studio" if reason.startswith("Room equipment") else "client"
            notice = (d - cdate).days
            fee = Decimal(0)
            if by == "client" and was_confirmed:
                fee = pct(quote, 0 if notice >= 7 else 25 if notice >= 2 else 50)
            s.update({"cancelled_on": cdate.isoformat(), "cancelled_by": by, "cancel_reason": reason,
                      "cancellation_fee": num(fee)})
            events.append((cdate, 5, "session_cancelled", sid, p["client_id"], num(fee)))
            if fee > deposit:
                s["invoice_id"] = raise_invoice("cancellation", fee - deposit, cdate)
        elif status == "no_show":
            nd = min(d + timedelta(days=rng.randint(0, 1)), TODAY)
            fee = pct(quote, 75)
            s.update({"no_show_on": nd.isoformat(), "no_show_fee": num(fee)})
            events.append((nd, 6, "session_no_show", sid, p["client_id"], num(fee)))
            if fee > deposit:
                s["invoice_id"] = raise_invoice("no_show", fee - deposit, nd)

    # ---- invoices (numbered in order of issue)
    order = sorted(range(len(inv_list)), key=lambda i: (inv_list[i][4], i))
    renum = {}
    late = [i for i in order if inv_list[i][4] + timedelta(days=14) < TODAY]
    overdue_pick, seen = set(), set()
    for i in rng.sample(late, len(late)):
        if inv_list[i][1] not in seen and len(overdue_pick) < 3:
            seen.add(inv_list[i][1])
            overdue_pick.add(i)
    for k, i in enumerate(order, 1):
        sid, cid, kind, amount, issued = inv_list[i]
        iid = "IV%04d" % k
        renum[i + 1] = iid
        due = issued + timedelta(days=14)
        inv = {"id": iid, "client_id": cid, "session_id": sid, "kind": kind, "amount": num(amount),
               "issued_on": issued.isoformat(), "due_on": due.isoformat(), "status": "open",
               "paid_on": None, "payment_method": None}
        if due < TODAY:
            if i not in overdue_pick:
                paid = issued + timedelta(days=rng.randint(0, 13))
                inv.update(status="paid", paid_on=paid.isoformat(),
                           payment_method=rng.choice(["card", "card", "bank_transfer", "account_balance"]))
                events.append((paid, 7, "invoice_paid", iid, cid, num(amount)))
        elif rng.random() < 0.35:
            paid = min(issued + timedelta(days=rng.randint(0, 5)), TODAY)
            inv.update(status="paid", paid_on=paid.isoformat(),
                       payment_method=rng.choice(["card", "bank_transfer", "account_balance"]))
            events.append((paid, 7, "invoice_paid", iid, cid, num(amount)))
        invoices[iid] = inv
    for s in sessions.values():
        if s["invoice_id"] is not None:
            s["invoice_id"] = renum[s["invoice_id"]]

    # ---- activity log: the last twelve days only
    activity = {}
    recent = sorted((e for e in events if e[0] >= TODAY - timedelta(days=12)), key=lambda e: (e[0], e[1], e[3]))
    for k, (on, _, action, ref, cid, amount) in enumerate(recent, 1):
        aid = "AC%05d" % k
        activity[aid] = {"id": aid, "on": on.isoformat(), "action": action, "ref_id": ref,
                         "client_id": cid, "amount": amount}

    db.update({"rooms": rooms, "engineers": engineers, "clients": clients, "equipment": equipment,
               "sessions": sessions, "rentals": rentals, "invoices": invoices, "activity": activity})
    return db


if __name__ == "__main__":
    data = build()
    with open("db.json", "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print({k: len(v) for k, v in data.items() if k != "meta"})
