"""Writes db.json for the Cipher Street escape-room booking desk (stdlib only, fixed seed).

Rooms, sessions and customers are laid out directly; vouchers and bookings are produced by
replaying their history (issues, bookings, cancellations, check-ins, no-shows, outcomes) through
ref_impl.invoke with meta.now set to each event's time, so the data obeys the documented rules.
"""
import json
import os
import random
import sys
from datetime import date, datetime, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ref_impl  # noqa: E402

SEED = 41017
TODAY = date(2025, 10, 11)  # a Saturday
NOW = "2025-10-11T16:20"

ROOMS = [
    ("RM01", "The Clockmaker's Attic", "Victorian workshop full of gears and cuckoo clocks",
     "beginner", 2, 5, 60, 5, 24.00, 29.00, "open", 0),
    ("RM02", "Vault 13", "Bank heist with a laser corridor and a time-lock safe",
     "intermediate", 3, 6, 60, 4, 26.00, 31.50, "open", 15),
    ("RM03", "The Lighthouse Keeper", "Storm-bound coast, Morse signals and a missing keeper",
     "advanced", 2, 6, 75, 3, 28.00, 34.00, "open", 30),
    ("RM04", "Ward B", "Abandoned sanatorium horror game with a live actor",
     "expert", 4, 8, 75, 2, 27.50, 33.00, "open", 45),
    ("RM05", "Tomb of Nefer-Ka", "Egyptian burial chamber with hieroglyph and weight puzzles",
     "intermediate", 2, 6, 60, 4, 25.00, 30.00, "maintenance", 10),
]
BASE_SLOTS = {3: ["18:00", "20:15"], 4: ["17:30", "20:00"],
              5: ["11:00", "13:30", "16:00", "18:30"], 6: ["12:00", "14:30", "17:00"]}
OLD_SATURDAYS = [date(2025, 9, 6), date(2025, 9, 13), date(2025, 9, 20), date(2025, 9, 27)]
WINDOW = (date(2025, 10, 4), date(2025, 10, 19))
RM05_FROM = date(2025, 10, 16)
PEAK_DATES = ["2025-10-16"]

FIRST = ["Anouk", "Bram", "Chloe", "Daan", "Elif", "Femke", "Gijs", "Hana", "Ilse", "Jasper",
         "Karim", "Lotte", "Milan", "Noor", "Olaf", "Priya", "Quinten", "Roos", "Sven", "Tess",
         "Umar", "Vera", "Wout", "Yara", "Zeno", "Maud", "Ruben", "Sanne", "Timo", "Lina"]
LAST = ["Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "Bos", "Vos", "Peters",
        "Hendriks", "Dekker", "Brouwer", "Kaya", "Jansen", "Willems", "Koster", "Prins", "Huisman"]
TEAMS = ["The Lock Pickers", "Clueless", "Escape Goats", "Red Herrings", "Team Tuesday",
         "Puzzle Panic", "The Usual Suspects", "Key Masters", "Riddle Me This", "Sherlocked",
         "Brain Freeze", "Code Breakers", "Lost & Found", "The Night Owls", "Hint Hoarders"]
NOTES = ["", "", "", "Birthday group", "Company outing", "One player uses a wheelchair",
         "First time playing", "Hen party", "Please no photos", "Celebrating an anniversary"]
CANCEL_REASONS = ["Group member ill", "Change of plans", "Double booked", "Travel disruption",
                  "Booked the wrong date", "Weather"]


def stamp(dt):
    return dt.strftime("%Y-%m-%dT%H:%M")


def hm_add(hm, minutes):
    t = datetime(2000, 1, 1, int(hm[:2]), int(hm[3:])) + timedelta(minutes=minutes)
    return t.strftime("%H:%M")


def main():
    rng = random.Random(SEED)
    now_dt = datetime.fromisoformat(NOW)
    db = {"meta": {
        "today": TODAY.isoformat(), "now": NOW, "venue": "Cipher Street Escape Rooms",
        "currency": "EUR", "opening_days": ["Thursday", "Friday", "Saturday", "Sunday"],
        "peak_weekdays": ["Friday", "Saturday", "Sunday"], "peak_dates": PEAK_DATES,
        "group_discount_min_players": 6, "group_discount_rate": 0.10,
        "deposit_rate_standard": 0.25, "deposit_rate_after_no_show": 0.50,
        "no_show_block_threshold": 3, "booking_cutoff_hours": 2, "free_cancellation_hours": 72,
        "players_change_cutoff_hours": 24, "check_in_opens_minutes": 30,
        "late_arrival_grace_minutes": 15, "hint_penalty_seconds": 120,
        "voucher_validity_months": 12,
    }}
    db["rooms"] = {r[0]: {"id": r[0], "name": r[1], "theme": r[2], "difficulty": r[3],
                          "min_players": r[4], "max_players": r[5], "duration_minutes": r[6],
                          "hint_limit": r[7], "offpeak_price": r[8], "peak_price": r[9],
                          "status": r[10], "record_seconds": None, "record_booking_id": None}
                   for r in ROOMS}
    offsets = {r[0]: r[11] for r in ROOMS}

    # ---- sessions
    raw = []
    for d in OLD_SATURDAYS:
        for rid in ("RM01", "RM02", "RM03", "RM04"):
            raw.append((d.isoformat(), hm_add("18:30", offsets[rid]), rid))
    d = WINDOW[0]
    while d <= WINDOW[1]:
        for rid in sorted(offsets):
            if rid == "RM05" and d < RM05_FROM:
                continue
            for base in BASE_SLOTS.get(d.weekday(), []):
                raw.append((d.isoformat(), hm_add(base, offsets[rid]), rid))
        d += timedelta(days=1)
    raw.sort()
    sessions = {}
    for i, (ds, t, rid) in enumerate(raw, 1):
        sid = "S%04d" % i
        sessions[sid] = {"id": sid, "room_id": rid, "date": ds, "start_time": t,
                         "status": "open", "booking_id": None}
    db["sessions"] = sessions

    # ---- customers (history before the records kept here is in the counters)
    customers = {}
    used = set()
    for i in range(1, 49):
        cid = "CU%03d" % i
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in used:
                used.add((fn, ln))
                break
        games = rng.choice([0, 0, 1, 1, 2, 3, 4, 6])
        created = date(2023, 3, 1) + timedelta(days=rng.randint(0, 880))
        customers[cid] = {
            "id": cid, "name": "%s %s" % (fn, ln),
            "email": "%s.%s@%s" % (fn.lower(), ln.lower().replace(" ", ""),
                                   rng.choice(["mailbox.nl", "example.com", "postmail.eu"])),
            "phone": None if rng.random() < 0.15 else "+31 6 %04d %04d" % (
                rng.randint(0, 9999), rng.randint(0, 9999)),
            "no_show_count": rng.choice([0] * 9 + [1]), "games_played": games,
            "escapes": rng.randint(0, games), "created_on": created.isoformat()}
    customers["CU007"]["no_show_count"] = 3
    customers["CU031"]["no_show_count"] = 4
    customers["CU022"]["no_show_count"] = 2
    db["customers"] = customers
    db["vouchers"] = {}
    db["bookings"] = {}

    # ---- history to replay
    events = []  # (time, seq, kind, payload)
    seq = [0]

    def ev(t, kind, payload):
        seq[0] += 1
        events.append((t, seq[0], kind, payload))

    issue_dates = [date(2024, 9, 7), date(2024, 9, 21), date(2024, 10, 2), date(2024, 10, 5),
                   date(2024, 10, 14), date(2024, 10, 17)]
    for _ in range(20):
        issue_dates.append(date(2024, 11, 1) + timedelta(days=rng.randint(0, 340)))
    for d in sorted(issue_dates):
        t = datetime(d.year, d.month, d.day, rng.randint(10, 20), rng.choice([0, 15, 30, 45]))
        ev(t, "issue", {"purchaser_name": "%s %s" % (rng.choice(FIRST), rng.choice(LAST)),
                        "value": rng.choice([25, 30, 40, 50, 50, 60, 75, 100, 120, 150]),
                        "recipient_name": rng.choice([None, None, "%s %s" % (
                            rng.choice(FIRST), rng.choice(LAST))])})

    today_plan = {  # (room, start) -> scenario kinds for today's sessions
        ("RM01", "11:00"): ["completed"], ("RM01", "13:30"): ["completed"],
        ("RM01", "16:00"): ["checked_in"], ("RM01", "18:30"): ["cancelled"],
        ("RM02", "11:15"): ["completed"], ("RM02", "13:45"): ["checked_in"],
        ("RM02", "16:15"): ["confirmed"], ("RM02", "18:45"): ["confirmed"],
        ("RM03", "11:30"): ["confirmed"], ("RM03", "14:00"): ["cancelled", "confirmed"],
        ("RM03", "16:30"): ["confirmed"], ("RM03", "19:00"): ["confirmed"],
        ("RM04", "11:45"): ["no_show"], ("RM04", "14:15"): ["completed"],
        ("RM04", "16:45"): ["confirmed"], ("RM04", "19:15"): [],
    }
    for sid in sorted(sessions):
        s = sessions[sid]
        room = db["rooms"][s["room_id"]]
        start = datetime.fromisoformat(s["date"] + "T" + s["start_time"])
        if s["date"] == TODAY.isoformat():
            kinds = list(today_plan[(s["room_id"], s["start_time"])])
        elif start < now_dt:
            kinds = [] if rng.random() < 0.1 else ["no_show" if rng.random() < 0.06 else "completed"]
            if rng.random() < 0.12:
                kinds.insert(0, "cancelled")
        else:
            kinds = ["confirmed"] if rng.random() < 0.5 else []
            if rng.random() < 0.15:
                kinds.insert(0, "cancelled")
        if room["status"] != "open":
            kinds = []
        after = None
        for k, kind in enumerate(kinds):
            created = start - timedelta(days=rng.randint(1, 18), hours=rng.randint(0, 9),
                                        minutes=rng.choice([0, 10, 25, 40]))
            created = min(created, now_dt - timedelta(minutes=rng.randint(30, 600)))
            if after is not None:
                created = after + timedelta(minutes=rng.randint(10, 900))
                if created > start - timedelta(hours=2) or created > now_dt:
                    created = after + timedelta(minutes=10)
                if created > start - timedelta(hours=2) or created > now_dt:
                    break
            sc = {"session_id": sid, "booking_id": None}
            ev(created, "create", sc)
            if kind == "cancelled":
                end = min(start, now_dt) - timedelta(minutes=5)
                if k + 1 < len(kinds):
                    end = min(start - timedelta(hours=3), now_dt - timedelta(minutes=40))
                span = max(1, int((end - created).total_seconds() // 60) - 1)
                t = created + timedelta(minutes=rng.randint(1, span))
                ev(t, "cancel", sc)
                after = t
            elif kind in ("completed", "checked_in"):
                offs = [-25, -15, -10, -5, 0, 0, 3, 7, 12]
                if kind == "checked_in":
                    offs = [-8] if s["start_time"] == "16:00" else [-5]
                ci = start + timedelta(minutes=rng.choice(offs))
                ev(ci, "checkin", sc)
                if kind == "completed":
                    ev(start + timedelta(minutes=room["duration_minutes"] + rng.randint(2, 9)),
                       "outcome", sc)
            elif kind == "no_show":
                ev(min(start + timedelta(minutes=rng.randint(20, 90)), now_dt), "noshow", sc)

    events.sort(key=lambda e: (e[0], e[1]))
    cids = sorted(customers)
    for t, _, kind, p in events:
        db["meta"]["now"] = stamp(t)
        db["meta"]["today"] = t.date().isoformat()
        if kind == "issue":
            ref_impl.invoke(db, "issue_voucher", dict(p))
            continue
        if kind == "create":
            sess = sessions[p["session_id"]]
            room = db["rooms"][sess["room_id"]]
            for attempt in range(40):
                lo, hi = room["min_players"], room["max_players"]
                args = {"customer_id": rng.choice(cids), "session_id": sess["id"],
                        "players": rng.choice([lo, hi] + [x for x in range(lo, hi + 1)
                                                          if lo < x < hi] * 3)}
                if rng.random() < 0.55:
                    args["team_name"] = rng.choice(TEAMS)
                note = rng.choice(NOTES)
                if note:
                    args["notes"] = note
                if rng.random() < 0.15 and db["vouchers"]:
                    args["voucher_code"] = rng.choice(sorted(db["vouchers"]))
                try:
                    p["booking_id"] = ref_impl.invoke(db, "create_booking", args)["id"]
                    break
                except ref_impl.RefError:
                    continue
            continue
        if p["booking_id"] is None:
            continue
        bid = p["booking_id"]
        if kind == "cancel":
            ref_impl.invoke(db, "cancel_booking", {"booking_id": bid,
                                                   "reason": rng.choice(CANCEL_REASONS)})
        elif kind == "checkin":
            ref_impl.invoke(db, "check_in_booking", {
                "booking_id": bid, "payment_method": rng.choice(["card", "card", "cash"])})
        elif kind == "noshow":
            ref_impl.invoke(db, "mark_no_show", {"booking_id": bid})
        elif kind == "outcome":
            b = db["bookings"][bid]
            room = db["rooms"][b["room_id"]]
            chance = {"beginner": 0.8, "intermediate": 0.65, "advanced": 0.5, "expert": 0.38}
            escaped = rng.random() < chance[room["difficulty"]]
            args = {"booking_id": bid, "escaped": escaped,
                    "hints_used": rng.randint(0, room["hint_limit"])}
            if escaped:
                g = b["game_minutes"] * 60
                args["escape_seconds"] = rng.randint(int(g * 0.55), g - 20)
            ref_impl.invoke(db, "record_outcome", args)

    db["meta"]["now"] = NOW
    db["meta"]["today"] = TODAY.isoformat()
    for v in db["vouchers"].values():  # the nightly job marks lapsed vouchers
        if v["status"] == "active" and v["expires_on"] < TODAY.isoformat():
            v["status"] = "expired"
    out = os.path.join(HERE, "db.json")
    with open(out, "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")
    print("wrote", out, {k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
