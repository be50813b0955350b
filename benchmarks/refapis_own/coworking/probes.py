"""Differential probes for the coworking-space API: ~60% valid calls, ~40% that must be refused."""
from datetime import date, timedelta

GUEST_NAMES = ["Nora Quist", "Pablo Reyes", "Greta Holm", "Omar Said", "Lucia Ferri",
               "Theo Grant", "Mina Park", "Ravi Menon", "Sofia Lund", "Kai Becker"]
REASONS = ["schedule change", "client meeting moved", "travel", "team offsite", "illness"]


def _ctx(db):
    t = date.fromisoformat(db["meta"]["today"])
    return t, db["meta"]["now_hour"]


def _live_overlap(db, d, space_id, member_id, st, h):
    for b in db["bookings"].values():
        if b["status"] == "cancelled" or b["date"] != d:
            continue
        if b["space_id"] != space_id and b["member_id"] != member_id:
            continue
        if b["start_hour"] < st + h and st < b["start_hour"] + b["hours"]:
            return b
    return None


def _month_hours(db, mid, ym):
    return sum(b["hours"] for b in db["bookings"].values() if b["member_id"] == mid
               and b["status"] != "cancelled" and b["date"][:7] == ym)


def _hours_before(db, b):
    t, n = _ctx(db)
    return (date.fromisoformat(b["date"]) - t).days * 24 + b["start_hour"] - n


def _pick(rng, seq, default=None):
    seq = list(seq)
    return rng.choice(seq) if seq else default


def _members(db, status=None):
    return sorted(m for m, r in db["members"].items() if status is None or r["status"] == status)


def _bookings(db, pred):
    return sorted(k for k, b in db["bookings"].items() if pred(b))


# ------------------------------------------------------------------ reads
def v_list_spaces(db, rng):
    a = {}
    if rng.random() < 0.5:
        a["kind"] = rng.choice(["desk", "phone_booth", "meeting_room"])
    if rng.random() < 0.4:
        a["floor"] = rng.randint(1, 3)
    if rng.random() < 0.3:
        a["min_capacity"] = rng.choice([1, 4, 6, 10])
    if rng.random() < 0.3:
        a["status"] = rng.choice(["open", "maintenance"])
    return a


def i_list_spaces(db, rng):
    return rng.choice([{"kind": "lounge"}, {"status": "closed"}, {"min_capacity": 0},
                       {"floor": "two"}])


def v_availability(db, rng):
    t, _ = _ctx(db)
    return {"space_id": _pick(rng, sorted(db["spaces"])),
            "date": (t + timedelta(days=rng.randint(-4, 12))).isoformat()}


def i_availability(db, rng):
    return rng.choice([{"space_id": "SP99", "date": db["meta"]["today"]},
                       {"space_id": "SP03", "date": "2025-02-30"},
                       {"space_id": "SP05", "date": "12/03/2025"}])


def v_search_members(db, rng):
    a = {}
    m = db["members"][_pick(rng, _members(db))]
    r = rng.random()
    if r < 0.4:
        w = m["name"].split()[rng.randint(0, 1)]
        a["query"] = rng.choice([w.lower(), w.upper(), w[1:4]])
    elif r < 0.6:
        a["query"] = m["email"].split("@")[1]
    if rng.random() < 0.4:
        a["status"] = rng.choice(["active", "suspended", "cancelled"])
    if rng.random() < 0.3:
        a["plan_id"] = _pick(rng, sorted(db["plans"]))
    return a


def i_search_members(db, rng):
    return rng.choice([{"plan_id": "PLN-09"}, {"status": "frozen"}, {"query": "a", "plan_id": "gold"}])


def v_get_member(db, rng):
    return {"member_id": _pick(rng, _members(db))}


def i_get_member(db, rng):
    return {"member_id": rng.choice(["M9999", "m0001", "M001", ""])}


def v_list_bookings(db, rng):
    t, _ = _ctx(db)
    a = {}
    if rng.random() < 0.5:
        a["member_id"] = _pick(rng, _members(db))
    if rng.random() < 0.3:
        a["space_id"] = _pick(rng, sorted(db["spaces"]))
    if rng.random() < 0.4:
        a["status"] = rng.choice(["confirmed", "checked_in", "completed", "cancelled", "no_show"])
    if rng.random() < 0.5:
        lo = rng.randint(-15, 5)
        a["date_from"] = (t + timedelta(days=lo)).isoformat()
        if rng.random() < 0.7:
            a["date_to"] = (t + timedelta(days=lo + rng.randint(0, 10))).isoformat()
    return a


def i_list_bookings(db, rng):
    t, _ = _ctx(db)
    return rng.choice([{"member_id": "M0999"}, {"space_id": "SP77"}, {"status": "pending"},
                       {"date_from": (t + timedelta(days=3)).isoformat(), "date_to": t.isoformat()},
                       {"date_to": "2025-13-01"}])


# ------------------------------------------------------------------ bookings
def v_create_booking(db, rng):
    t, n = _ctx(db)
    for _ in range(200):
        mid = _pick(rng, _members(db, "active"))
        m = db["members"][mid]
        plan = db["plans"][m["plan_id"]]
        sid = _pick(rng, [k for k, s in sorted(db["spaces"].items())
                          if s["status"] == "open" and s["kind"] in plan["allowed_kinds"]])
        s = db["spaces"][sid]
        d = t + timedelta(days=rng.randint(0, plan["advance_days"]))
        h = rng.choice([1, 1, 2, 3])
        lo = max(s["open_hour"], n + 1) if d == t else s["open_hour"]
        if lo + h > s["close_hour"]:
            continue
        st = rng.randint(lo, s["close_hour"] - h)
        ds = d.isoformat()
        if _live_overlap(db, ds, sid, mid, st, h):
            continue
        if _month_hours(db, mid, ds[:7]) + h > plan["monthly_hour_cap"]:
            continue
        cost = round(s["hourly_rate"] * h * (100 - plan["discount_pct"]) / 100 + 1e-9, 2)
        if cost > m["credit_balance"]:
            continue
        a = {"member_id": mid, "space_id": sid, "date": ds, "start_hour": st, "hours": h}
        if s["kind"] == "meeting_room":
            a["attendees"] = rng.randint(2, s["capacity"])
        elif rng.random() < 0.3:
            a["attendees"] = 1
        return a
    return i_create_booking(db, rng)


def i_create_booking(db, rng):
    t, n = _ctx(db)
    tomorrow = (t + timedelta(days=1)).isoformat()
    active = _members(db, "active")
    base = {"member_id": _pick(rng, active), "space_id": "SP01", "date": tomorrow,
            "start_hour": 10, "hours": 1}
    kind = rng.randint(0, 13)
    a = dict(base)
    if kind == 0:
        a["member_id"] = "M0888"
    elif kind == 1:
        a["member_id"] = _pick(rng, [m for m in _members(db) if db["members"][m]["status"] != "active"])
    elif kind == 2:
        a["space_id"] = _pick(rng, [k for k, s in sorted(db["spaces"].items()) if s["status"] == "maintenance"])
    elif kind == 3:  # plan does not allow meeting rooms
        a["member_id"] = _pick(rng, [m for m in active if "meeting_room" not in
                                     db["plans"][db["members"][m]["plan_id"]]["allowed_kinds"]])
        a["space_id"] = _pick(rng, [k for k, s in sorted(db["spaces"].items())
                                    if s["kind"] == "meeting_room" and s["status"] == "open"])
        a["attendees"] = 3
    elif kind == 4:
        a["date"] = (t - timedelta(days=rng.randint(1, 5))).isoformat()
    elif kind == 5:
        plan = db["plans"][db["members"][a["member_id"]]["plan_id"]]
        a["date"] = (t + timedelta(days=plan["advance_days"] + rng.randint(1, 5))).isoformat()
    elif kind == 6:
        s = db["spaces"][a["space_id"]]
        a["start_hour"], a["hours"] = s["close_hour"] - 1, 2
    elif kind == 7:
        a["date"], a["start_hour"] = t.isoformat(), n - rng.randint(0, 2)
    elif kind == 8:
        a["hours"] = rng.choice([0, 9, 12])
    elif kind == 9:  # meeting room with one attendee or too many
        rid = _pick(rng, [k for k, s in sorted(db["spaces"].items())
                          if s["kind"] == "meeting_room" and s["status"] == "open"])
        a["member_id"] = _pick(rng, [m for m in active if db["members"][m]["plan_id"] == "PLN-03"])
        a["space_id"] = rid
        a["attendees"] = rng.choice([1, db["spaces"][rid]["capacity"] + 1])
    elif kind == 10:  # clash with an existing upcoming booking on the same space
        bid = _pick(rng, _bookings(db, lambda b: b["status"] == "confirmed" and _hours_before(db, b) > 0))
        b = db["bookings"][bid]
        a["space_id"], a["date"], a["start_hour"], a["hours"] = b["space_id"], b["date"], b["start_hour"], 1
    elif kind == 11:  # member's own overlapping booking on another space
        bid = _pick(rng, _bookings(db, lambda b: b["status"] == "confirmed" and _hours_before(db, b) > 0
                                   and db["members"][b["member_id"]]["status"] == "active"))
        b = db["bookings"][bid]
        other = [k for k, s in sorted(db["spaces"].items()) if k != b["space_id"] and s["kind"] == "desk"
                 and s["status"] == "open"]
        a.update(member_id=b["member_id"], space_id=_pick(rng, other), date=b["date"],
                 start_hour=b["start_hour"], hours=1)
    elif kind == 12:  # not enough credits for a long meeting-room booking
        poor = [m for m in active if db["members"][m]["credit_balance"] < 40
                and "meeting_room" in db["plans"][db["members"][m]["plan_id"]]["allowed_kinds"]]
        a.update(member_id=_pick(rng, poor), space_id="SP24", start_hour=9, hours=6, attendees=8)
    else:
        a["date"] = rng.choice(["2025/03/14", "tomorrow", "2025-03-32"])
    return a


def v_cancel_booking(db, rng):
    bid = _pick(rng, _bookings(db, lambda b: b["status"] == "confirmed" and _hours_before(db, b) > 0))
    return {"booking_id": bid, "reason": rng.choice(REASONS)}


def i_cancel_booking(db, rng):
    r = rng.randint(0, 3)
    if r == 0:
        bid = _pick(rng, _bookings(db, lambda b: b["status"] in ("completed", "cancelled", "checked_in", "no_show")))
    elif r == 1:
        bid = _pick(rng, _bookings(db, lambda b: b["status"] == "confirmed" and _hours_before(db, b) <= 0))
    elif r == 2:
        bid = "BK999999"
    else:
        bid = _pick(rng, _bookings(db, lambda b: b["status"] == "confirmed" and _hours_before(db, b) > 0))
        return {"booking_id": bid, "reason": ""}
    return {"booking_id": bid, "reason": rng.choice(REASONS)}


def _in_window(db, b):
    t, n = _ctx(db)
    return b["date"] == t.isoformat() and b["start_hour"] - 1 <= n < b["start_hour"] + b["hours"]


def _ended(db, b):
    t, n = _ctx(db)
    return b["date"] < t.isoformat() or (b["date"] == t.isoformat() and b["start_hour"] + b["hours"] <= n)


def v_check_in(db, rng):
    return {"booking_id": _pick(rng, _bookings(db, lambda b: b["status"] == "confirmed" and _in_window(db, b)))}


def i_check_in(db, rng):
    r = rng.randint(0, 3)
    if r == 0:
        return {"booking_id": _pick(rng, _bookings(db, lambda b: b["status"] == "confirmed" and not _in_window(db, b)))}
    if r == 1:
        return {"booking_id": _pick(rng, _bookings(db, lambda b: b["status"] in ("checked_in", "cancelled", "completed")))}
    if r == 2:
        return {"booking_id": "BK000000"}
    return {}


def v_no_show(db, rng):
    return {"booking_id": _pick(rng, _bookings(db, lambda b: b["status"] == "confirmed" and _ended(db, b)))}


def i_no_show(db, rng):
    r = rng.randint(0, 2)
    if r == 0:
        return {"booking_id": _pick(rng, _bookings(db, lambda b: b["status"] == "confirmed" and not _ended(db, b)))}
    if r == 1:
        return {"booking_id": _pick(rng, _bookings(db, lambda b: b["status"] in ("completed", "no_show", "cancelled", "checked_in")))}
    return {"booking_id": "BK12"}


# ------------------------------------------------------------------ money / members
def _today_topups(db, mid):
    return sum(x["amount"] for x in db["top_ups"].values()
               if x["member_id"] == mid and x["created_on"] == db["meta"]["today"])


def v_top_up(db, rng):
    mid = _pick(rng, [m for m in _members(db) if db["members"][m]["status"] != "cancelled"
                      and _today_topups(db, m) <= 500])
    room = 600 - _today_topups(db, mid)
    amt = rng.choice([10, 25, 49.99, 50, 99.99, 100, 150.5, 199.99, 200, 250, 320.75, 500])
    while amt > room:
        amt = rng.choice([10, 25, 40, 75.25])
    plan = db["plans"][db["members"][mid]["plan_id"]]
    methods = ["card", "bank_transfer"] + (["invoice"] if plan["invoice_billing"] else [])
    return {"member_id": mid, "amount": amt, "method": rng.choice(methods)}


def i_top_up(db, rng):
    mid = _pick(rng, _members(db, "active"))
    r = rng.randint(0, 6)
    if r == 0:
        return {"member_id": mid, "amount": rng.choice([0, 5, 9.99, -20]), "method": "card"}
    if r == 1:
        return {"member_id": mid, "amount": rng.choice([500.01, 750, 1000]), "method": "card"}
    if r == 2:
        return {"member_id": mid, "amount": 12.345, "method": "card"}
    if r == 3:
        mid = _pick(rng, [m for m in _members(db, "active") if not db["plans"][db["members"][m]["plan_id"]]["invoice_billing"]])
        return {"member_id": mid, "amount": 100, "method": "invoice"}
    if r == 4:
        return {"member_id": _pick(rng, _members(db, "cancelled")), "amount": 50, "method": "card"}
    if r == 5:  # daily limit
        mid = _pick(rng, [m for m in _members(db) if db["members"][m]["status"] != "cancelled"
                          and _today_topups(db, m) > 100], mid)
        return {"member_id": mid, "amount": 500, "method": "card"}
    return {"member_id": mid, "amount": 50, "method": rng.choice(["cash", "paypal"])}


def _gp_ok(db, mid, ds, name):
    m = db["members"][mid]
    plan = db["plans"][m["plan_id"]]
    cnt = 0
    for g in db["guest_passes"].values():
        if g["status"] == "revoked":
            continue
        if g["date"] == ds and (g["member_id"] == mid or g["guest_name"].lower() == name.lower()):
            return False
        if g["member_id"] == mid and g["date"][:7] == ds[:7]:
            cnt += 1
    return cnt < plan["guest_passes_per_month"] and plan["guest_pass_fee"] <= m["credit_balance"]


def v_guest_pass(db, rng):
    t, _ = _ctx(db)
    for _ in range(100):
        mid = _pick(rng, _members(db, "active"))
        ds = (t + timedelta(days=rng.randint(0, 14))).isoformat()
        name = rng.choice(GUEST_NAMES)
        if _gp_ok(db, mid, ds, name):
            return {"member_id": mid, "guest_name": name, "date": ds}
    return i_guest_pass(db, rng)


def i_guest_pass(db, rng):
    t, _ = _ctx(db)
    active = _members(db, "active")
    mid = _pick(rng, active)
    r = rng.randint(0, 6)
    if r == 0:  # plan with no guest passes
        mid = _pick(rng, [m for m in active if db["plans"][db["members"][m]["plan_id"]]["guest_passes_per_month"] == 0])
        return {"member_id": mid, "guest_name": "Nora Quist", "date": (t + timedelta(days=2)).isoformat()}
    if r == 1:
        return {"member_id": _pick(rng, _members(db, "suspended")), "guest_name": "Omar Said",
                "date": (t + timedelta(days=1)).isoformat()}
    if r == 2:
        return {"member_id": mid, "guest_name": "Mina Park",
                "date": (t + timedelta(days=rng.choice([-3, -1, 15, 20]))).isoformat()}
    if r in (3, 4):  # same guest name (other case) on a date it is already used, or same member/date
        g = db["guest_passes"][_pick(rng, sorted(k for k, g in db["guest_passes"].items()
                                                  if g["status"] == "issued" and g["date"] >= t.isoformat()))]
        if r == 3:
            return {"member_id": mid, "guest_name": g["guest_name"].upper(), "date": g["date"]}
        return {"member_id": g["member_id"], "guest_name": "Theo Grant", "date": g["date"]}
    if r == 5:  # monthly allowance already used (Flex plan allows 1)
        t2 = t + timedelta(days=3)
        cands = [m for m in active if db["members"][m]["plan_id"] == "PLN-01"
                 and any(g["member_id"] == m and g["status"] != "revoked" and g["date"][:7] == t2.isoformat()[:7]
                         for g in db["guest_passes"].values())]
        return {"member_id": _pick(rng, cands, mid), "guest_name": "Sofia Lund", "date": t2.isoformat()}
    return {"member_id": mid, "guest_name": "   ", "date": (t + timedelta(days=1)).isoformat()}


def v_revoke(db, rng):
    t = db["meta"]["today"]
    return {"guest_pass_id": _pick(rng, sorted(k for k, g in db["guest_passes"].items()
                                              if g["status"] == "issued" and g["date"] >= t))}


def i_revoke(db, rng):
    r = rng.randint(0, 2)
    if r < 2:
        return {"guest_pass_id": _pick(rng, sorted(k for k, g in db["guest_passes"].items()
                                                  if g["status"] in ("used", "revoked")))}
    return {"guest_pass_id": "GP9999"}


def _plan_ok(db, mid, pid):
    m, p = db["members"][mid], db["plans"][pid]
    t = db["meta"]["today"]
    if m["status"] != "active" or not p["available"] or pid == m["plan_id"]:
        return False
    if m["plan_changed_on"] and m["plan_changed_on"][:7] == t[:7]:
        return False
    if _month_hours(db, mid, t[:7]) > p["monthly_hour_cap"]:
        return False
    for b in db["bookings"].values():
        if (b["member_id"] == mid and b["status"] == "confirmed" and b["date"] >= t
                and db["spaces"][b["space_id"]]["kind"] not in p["allowed_kinds"]):
            return False
    old = db["plans"][m["plan_id"]]
    charge = max(0, (p["monthly_fee"] - old["monthly_fee"]) * 20 / 31)
    return charge <= m["credit_balance"] - 0.01


def v_change_plan(db, rng):
    for _ in range(100):
        mid = _pick(rng, _members(db, "active"))
        pid = _pick(rng, sorted(db["plans"]))
        if _plan_ok(db, mid, pid):
            return {"member_id": mid, "plan_id": pid}
    return i_change_plan(db, rng)


def i_change_plan(db, rng):
    active = _members(db, "active")
    mid = _pick(rng, active)
    r = rng.randint(0, 5)
    if r == 0:
        return {"member_id": mid, "plan_id": "PLN-04"}
    if r == 1:
        return {"member_id": mid, "plan_id": db["members"][mid]["plan_id"]}
    if r == 2:
        return {"member_id": mid, "plan_id": "PLN-99"}
    if r == 3:
        return {"member_id": _pick(rng, _members(db, "suspended")), "plan_id": "PLN-02"}
    if r == 4:  # already changed this month
        t = db["meta"]["today"]
        cands = [m for m in active if (db["members"][m]["plan_changed_on"] or "")[:7] == t[:7]]
        m = _pick(rng, cands, mid)
        pid = "PLN-01" if db["members"][m]["plan_id"] != "PLN-01" else "PLN-05"
        return {"member_id": m, "plan_id": pid}
    # downgrade to Night Owl (desks only, 16 h cap) from a member who cannot take it
    cands = [m for m in active if db["members"][m]["plan_id"] != "PLN-05" and not _plan_ok(db, m, "PLN-05")]
    return {"member_id": _pick(rng, cands, mid), "plan_id": "PLN-05"}


def v_reinstate(db, rng):
    cands = [m for m in _members(db, "suspended") if db["members"][m]["credit_balance"] >= 25]
    return {"member_id": _pick(rng, cands, "M0009")}


def i_reinstate(db, rng):
    r = rng.randint(0, 2)
    if r == 0:
        return {"member_id": _pick(rng, _members(db, "active"))}
    if r == 1:
        return {"member_id": _pick(rng, _members(db, "cancelled"))}
    return {"member_id": "M7777"}


GENERATORS = [
    ("list_spaces", v_list_spaces, i_list_spaces),
    ("get_space_availability", v_availability, i_availability),
    ("search_members", v_search_members, i_search_members),
    ("get_member", v_get_member, i_get_member),
    ("list_bookings", v_list_bookings, i_list_bookings),
    ("create_booking", v_create_booking, i_create_booking),
    ("create_booking", v_create_booking, i_create_booking),
    ("cancel_booking", v_cancel_booking, i_cancel_booking),
    ("check_in_booking", v_check_in, i_check_in),
    ("mark_no_show", v_no_show, i_no_show),
    ("top_up_credits", v_top_up, i_top_up),
    ("issue_guest_pass", v_guest_pass, i_guest_pass),
    ("revoke_guest_pass", v_revoke, i_revoke),
    ("change_plan", v_change_plan, i_change_plan),
    ("change_plan", v_change_plan, i_change_plan),
    ("reinstate_member", v_reinstate, i_reinstate),
]


def probes(db, rng, n):
    out = []
    for i in range(n):
        name, valid, invalid = GENERATORS[i % len(GENERATORS)] if i < len(GENERATORS) else rng.choice(GENERATORS)
        gen = valid if rng.random() < 0.6 else invalid
        out.append((name, gen(db, rng)))
    return out
