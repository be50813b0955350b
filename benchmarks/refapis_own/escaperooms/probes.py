"""Differential probes for the escape-room booking desk: about 60% calls the rules allow, drawn
from the data, and 40% that the docs or the handbook say must be refused."""
from datetime import datetime, timedelta

DIFFS = ["beginner", "intermediate", "advanced", "expert"]
S_STATUSES = ["open", "booked", "played", "missed"]
B_STATUSES = ["confirmed", "checked_in", "completed", "cancelled", "no_show"]
NAMES = ["Iris Vermeulen", "Joost Sanders", "Mila Kuiper", "Ravi Nair", "Eva Lindqvist"]
TEAMS = ["Lockjaw", "The Decoders", "Mind the Gap", "Exit Strategy", "Four Keys"]


def _start(s):
    return datetime.fromisoformat(s["date"] + "T" + s["start_time"])


def _bstart(b):
    return datetime.fromisoformat(b["session_date"] + "T" + b["start_time"])


def probes(db, rng, n):
    now = datetime.fromisoformat(db["meta"]["now"])
    rooms, sess, bks = db["rooms"], db["sessions"], db["bookings"]
    custs, vouchers = db["customers"], db["vouchers"]
    cids = sorted(custs)
    ok_c = [c for c in cids if custs[c]["no_show_count"] < 3]
    blocked = [c for c in cids if custs[c]["no_show_count"] >= 3]
    sids = sorted(sess)
    bookable = [s for s in sids if sess[s]["status"] == "open" and rooms[sess[s]["room_id"]]["status"] == "open"
                and _start(sess[s]) - now >= timedelta(hours=2)]
    taken = [s for s in sids if sess[s]["status"] != "open"]
    past_open = [s for s in sids if sess[s]["status"] == "open" and _start(sess[s]) < now]
    maint = [s for s in sids if rooms[sess[s]["room_id"]]["status"] != "open"]
    bids = sorted(bks)
    by = {st: [b for b in bids if bks[b]["status"] == st] for st in B_STATUSES}
    conf = by["confirmed"]
    future = [b for b in conf if _bstart(bks[b]) > now]
    started = [b for b in conf if _bstart(bks[b]) <= now]
    far = [b for b in conf if _bstart(bks[b]) - now >= timedelta(hours=24)]
    near = [b for b in conf if _bstart(bks[b]) - now < timedelta(hours=24)]
    in_window = [b for b in conf if _bstart(bks[b]) - timedelta(minutes=30) <= now
                 <= _bstart(bks[b]) + timedelta(minutes=15)]
    early = [b for b in conf if now < _bstart(bks[b]) - timedelta(minutes=30)]
    overdue = [b for b in conf if now > _bstart(bks[b]) + timedelta(minutes=15)]
    owing = [b for b in in_window if bks[b]["balance_due"] > 0]
    not_conf = [b for b in bids if bks[b]["status"] != "confirmed"]
    closed = by["completed"] + by["cancelled"] + by["no_show"]
    usable_v = [v for v in sorted(vouchers) if vouchers[v]["status"] == "active"]
    dead_v = [v for v in sorted(vouchers) if vouchers[v]["status"] != "active"]
    emails = [custs[c]["email"] for c in cids]
    shrink = []  # (booking, players) whose new total would fall below what is already paid
    for b in far:
        r, bk = rooms[bks[b]["room_id"]], bks[b]
        for p in range(r["min_players"], r["max_players"] + 1):
            sub = round(p * bk["price_per_player"], 2)
            tot = sub - (round(sub * 0.10 + 1e-9, 2) if p >= 6 else 0)
            if tot < bk["voucher_amount"] + bk["deposit_amount"] - 0.005:
                shrink.append((b, p))

    def pick(xs, fallback):
        return rng.choice(xs) if xs else fallback

    def free_for(cid, sid):
        s = sess[sid]
        return not any(b["customer_id"] == cid and ((b["status"] == "confirmed" and b["session_date"] == s["date"])
                       or (b["room_id"] == s["room_id"] and b["status"] == "completed" and b["escaped"]))
                       for b in bks.values())

    def size(room, valid=True):
        if valid:
            return rng.randint(room["min_players"], room["max_players"])
        return rng.choice([room["min_players"] - 1, room["max_players"] + 1, room["max_players"] + 3])

    def gen(tool, valid):
        if tool == "list_rooms":
            if valid:
                a = {}
                if rng.random() < 0.4:
                    r = rooms[rng.choice(sorted(rooms))]
                    word = rng.choice(r["name"].split() + r["theme"].split())
                    a["query"] = rng.choice([word, word.upper(), word.lower()])
                if rng.random() < 0.4:
                    a["difficulty"] = rng.choice(DIFFS)
                if rng.random() < 0.4:
                    a["players"] = rng.randint(1, 9)
                if rng.random() < 0.3:
                    a["status"] = rng.choice(["open", "maintenance"])
                return a
            return rng.choice([{"difficulty": rng.choice(["hard", "Easy", "5"])}, {"players": 0},
                               {"status": "closed"}, {"players": "four"}])
        if tool == "list_sessions":
            if valid:
                a = {}
                k = rng.randrange(5)
                if k == 0:
                    a["date"] = sess[rng.choice(sids)]["date"]
                elif k == 1:
                    a["room_id"] = rng.choice(sorted(rooms))
                    a["status"] = rng.choice(S_STATUSES)
                elif k == 2:
                    a["bookable_only"] = True
                    if rng.random() < 0.5:
                        a["players"] = rng.randint(2, 8)
                elif k == 3:
                    a["players"] = rng.randint(1, 9)
                    a["date"] = sess[rng.choice(sids)]["date"]
                return a
            return rng.choice([{"date": rng.choice(["11/10/2025", "2025-10-32", "Saturday"])},
                               {"status": rng.choice(["full", "Open", "cancelled"])}, {"players": 0},
                               {"bookable_only": "yes"}])
        if tool == "list_bookings":
            if valid:
                a = {}
                k = rng.randrange(4)
                if k == 0:
                    a["customer_id"] = rng.choice(cids)
                elif k == 1:
                    a["status"] = rng.choice(B_STATUSES)
                elif k == 2:
                    a["date"] = bks[rng.choice(bids)]["session_date"]
                else:
                    a["room_id"] = rng.choice(sorted(rooms))
                    a["status"] = rng.choice(B_STATUSES)
                return a
            return rng.choice([{"status": rng.choice(["pending", "Confirmed", "done"])},
                               {"date": rng.choice(["2025-13-01", "tomorrow", "20251011"])}])
        if tool == "get_leaderboard":
            if valid:
                a = {"room_id": rng.choice(sorted(rooms))}
                if rng.random() < 0.5:
                    a["period"] = rng.choice(["all_time", "last_30_days"])
                if rng.random() < 0.5:
                    a["limit"] = rng.randint(1, 25)
                return a
            return rng.choice([{"room_id": rng.choice(["RM99", "RM1", "rm01"])},
                               {"room_id": "RM01", "period": rng.choice(["weekly", "month"])},
                               {"room_id": "RM02", "limit": rng.choice([0, 26, 100])}])
        if tool == "get_voucher":
            if valid:
                c = rng.choice(sorted(vouchers))
                return {"code": rng.choice([c, c.lower(), " %s " % c])}
            return {"code": rng.choice(["GV9999", "GV12", "XMAS2025", ""])}
        if tool == "register_customer":
            if valid:
                nm = rng.choice(NAMES)
                a = {"name": nm, "email": "%s.%d@Example.org" % (nm.split()[0], rng.randint(100, 999))}
                if rng.random() < 0.6:
                    a["phone"] = "+31 6 %04d %04d" % (rng.randint(0, 9999), rng.randint(0, 9999))
                return a
            k = rng.randrange(4)
            if k == 0:
                e = rng.choice(emails)
                return {"name": rng.choice(NAMES), "email": rng.choice([e.upper(), " %s" % e])}
            if k == 1:
                return {"name": rng.choice(NAMES), "email": rng.choice(["no-at-sign.example.com", "a@b", "two@@x.nl"])}
            if k == 2:
                return {"name": "   ", "email": "blank.name@example.org"}
            return {"name": rng.choice(NAMES), "email": "phone.case@example.org",
                    "phone": rng.choice(["12-34", "call me", "+31 6 12ab 5678"])}
        if tool == "issue_voucher":
            if valid:
                a = {"purchaser_name": rng.choice(NAMES), "value": rng.choice([20, 25, 50, 75.0, 100, 250, 500])}
                if rng.random() < 0.5:
                    a["recipient_name"] = rng.choice(NAMES)
                return a
            return rng.choice([{"purchaser_name": rng.choice(NAMES), "value": rng.choice([15, 0, 505, 1000, -50])},
                               {"purchaser_name": rng.choice(NAMES), "value": rng.choice([22.5, 33, 49.99])},
                               {"purchaser_name": " ", "value": 50},
                               {"purchaser_name": rng.choice(NAMES), "value": "50"}])
        if tool == "create_booking":
            if valid:
                for _ in range(30):
                    sid, cid = rng.choice(bookable), rng.choice(ok_c)
                    if free_for(cid, sid):
                        break
                a = {"customer_id": cid, "session_id": sid, "players": size(rooms[sess[sid]["room_id"]])}
                if rng.random() < 0.4:
                    a["team_name"] = rng.choice(TEAMS)
                if rng.random() < 0.3:
                    a["notes"] = rng.choice(["Birthday surprise", "Two first-timers", ""])
                if rng.random() < 0.35:
                    good = [v for v in usable_v if vouchers[v]["expires_on"] >= sess[sid]["date"]]
                    if good:
                        v = rng.choice(good)
                        a["voucher_code"] = rng.choice([v, v.lower()])
                return a
            sid, cid = rng.choice(bookable), rng.choice(ok_c)
            base = {"customer_id": cid, "session_id": sid, "players": size(rooms[sess[sid]["room_id"]])}
            k = rng.randrange(10)
            if k == 0:
                return dict(base, customer_id=pick(blocked, "CU999"))
            if k == 1:
                s2 = rng.choice(taken + past_open + maint)
                return dict(base, session_id=s2, players=rooms[sess[s2]["room_id"]]["min_players"])
            if k == 2:
                return dict(base, players=size(rooms[sess[sid]["room_id"]], False))
            if k == 3:
                return dict(base, voucher_code=rng.choice(dead_v + ["GV9999", "FREEGAME"]))
            if k == 4:
                soon = [v for v in usable_v if vouchers[v]["expires_on"] < max(sess[x]["date"] for x in bookable)]
                v = pick(soon, "GV9999")
                late = [x for x in bookable if sess[x]["date"] > vouchers.get(v, {"expires_on": ""})["expires_on"]]
                s2 = pick(late, sid)
                return dict(base, session_id=s2, voucher_code=v,
                            players=rooms[sess[s2]["room_id"]]["min_players"])
            if k == 5:  # second confirmed game on the same day
                b = bks[rng.choice(future)]
                same = [s for s in bookable if sess[s]["date"] == b["session_date"]]
                if same:
                    s2 = rng.choice(same)
                    return {"customer_id": b["customer_id"], "session_id": s2,
                            "players": rooms[sess[s2]["room_id"]]["min_players"]}
                return dict(base, customer_id="CU000")
            if k == 6:  # replaying a room already escaped
                b = bks[rng.choice([x for x in by["completed"] if bks[x]["escaped"]])]
                same = [s for s in bookable if sess[s]["room_id"] == b["room_id"]]
                s2 = pick(same, sid)
                return {"customer_id": b["customer_id"], "session_id": s2,
                        "players": rooms[sess[s2]["room_id"]]["min_players"]}
            if k == 7:
                return dict(base, team_name=rng.choice(["   ", "The Extraordinary League of Puzzlers"]))
            if k == 8:
                return dict(base, session_id=rng.choice(["S9999", "S12"]))
            return dict(base, players=str(base["players"]))
        if tool == "update_booking":
            if valid:
                k = rng.randrange(3)
                if k == 0 and far:
                    b = bks[rng.choice(far)]
                    room = rooms[b["room_id"]]
                    return {"booking_id": b["id"], "players": rng.randint(room["min_players"], room["max_players"])}
                bid = rng.choice(conf + by["checked_in"])
                if k == 1:
                    return {"booking_id": bid, "team_name": rng.choice(TEAMS)}
                return {"booking_id": bid, "notes": rng.choice(["Bring the birthday cake in at the end", ""]),
                        "team_name": " %s " % rng.choice(TEAMS)}
            k = rng.randrange(7)
            if k == 6 and shrink:
                b, p = rng.choice(shrink)
                return {"booking_id": b, "players": p}
            if k == 0:
                b = bks[pick(near, conf[0])]
                return {"booking_id": b["id"], "players": rooms[b["room_id"]]["min_players"]}
            if k == 1:
                b = bks[rng.choice(by["checked_in"])]
                return {"booking_id": b["id"], "players": rooms[b["room_id"]]["min_players"]}
            if k == 2:
                return {"booking_id": rng.choice(closed), "team_name": rng.choice(TEAMS)}
            if k == 3:
                return {"booking_id": rng.choice(conf)}
            if k == 4:
                b = bks[pick(far, conf[0])]
                return {"booking_id": b["id"], "players": size(rooms[b["room_id"]], False)}
            return {"booking_id": rng.choice(conf), "team_name": rng.choice(["", "x" * 31])}
        if tool == "cancel_booking":
            if valid:
                return {"booking_id": rng.choice(future),
                        "reason": rng.choice(["Group member ill", "Found a cheaper day", "Flight moved"])}
            k = rng.randrange(4)
            if k == 0:
                return {"booking_id": rng.choice(not_conf), "reason": "Change of plans"}
            if k == 1:
                return {"booking_id": pick(started, "B9999"), "reason": "Stuck in traffic"}
            if k == 2:
                return {"booking_id": rng.choice(future), "reason": rng.choice(["", "  "])}
            return {"booking_id": rng.choice(["B9999", "B01"]), "reason": "Change of plans"}
        if tool == "check_in_booking":
            if valid:
                b = bks[rng.choice(in_window)]
                a = {"booking_id": b["id"]}
                if b["balance_due"] > 0 or rng.random() < 0.5:
                    a["payment_method"] = rng.choice(["card", "cash"])
                return a
            k = rng.randrange(5)
            if k == 0:
                return {"booking_id": rng.choice(early), "payment_method": "card"}
            if k == 1:
                return {"booking_id": pick(overdue, "B9999"), "payment_method": "cash"}
            if k == 2:
                return {"booking_id": rng.choice(not_conf), "payment_method": "card"}
            if k == 3:
                return {"booking_id": pick(owing, "B9999")}
            return {"booking_id": rng.choice(in_window), "payment_method": rng.choice(["voucher", "Card", "iou"])}
        if tool == "mark_no_show":
            if valid:
                return {"booking_id": pick(overdue, "B9999")}
            k = rng.randrange(3)
            if k == 0:
                return {"booking_id": rng.choice(in_window + early)}
            if k == 1:
                return {"booking_id": rng.choice(not_conf)}
            return {"booking_id": "B9999"}
        if tool == "record_outcome":
            ci = by["checked_in"]
            if valid:
                b = bks[rng.choice(ci)]
                hl = rooms[b["room_id"]]["hint_limit"]
                if rng.random() < 0.65:
                    return {"booking_id": b["id"], "escaped": True, "hints_used": rng.randint(0, hl),
                            "escape_seconds": rng.randint(900, b["game_minutes"] * 60)}
                return {"booking_id": b["id"], "escaped": False, "hints_used": rng.randint(0, hl)}
            b = bks[rng.choice(ci)]
            hl = rooms[b["room_id"]]["hint_limit"]
            k = rng.randrange(6)
            if k == 0:
                return {"booking_id": b["id"], "escaped": True, "hints_used": hl + rng.randint(1, 3),
                        "escape_seconds": 2400}
            if k == 1:
                return {"booking_id": b["id"], "escaped": True, "hints_used": 0,
                        "escape_seconds": b["game_minutes"] * 60 + rng.randint(1, 600)}
            if k == 2:
                return {"booking_id": b["id"], "escaped": False, "hints_used": 1, "escape_seconds": 3000}
            if k == 3:
                return {"booking_id": b["id"], "escaped": True, "hints_used": 1}
            if k == 4:
                return {"booking_id": rng.choice(conf + by["completed"]), "escaped": True, "hints_used": 0,
                        "escape_seconds": 1800}
            return {"booking_id": b["id"], "escaped": "yes", "hints_used": 0}
        raise ValueError(tool)

    tools = ["list_rooms", "list_sessions", "list_bookings", "get_leaderboard", "get_voucher",
             "register_customer", "issue_voucher", "create_booking", "update_booking",
             "cancel_booking", "check_in_booking", "mark_no_show", "record_outcome"]
    weight = {"create_booking": 2.0, "update_booking": 1.4, "cancel_booking": 1.2}
    weights = [weight.get(t, 1.0) for t in tools]
    out = []
    for i in range(n):
        tool = tools[i] if i < len(tools) else rng.choices(tools, weights)[0]
        out.append((tool, gen(tool, rng.random() < 0.56)))
    return out
