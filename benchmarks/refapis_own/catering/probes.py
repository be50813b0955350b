"""Differential probes for the catering booking desk: about 60% calls the policy accepts, drawn from
the data, and 40% that it says must be refused, spread over every tool."""
from datetime import date, timedelta

STYLES = ["buffet", "plated", "family_style", "cocktail", "boxed_lunch"]
STATUSES = ["tentative", "confirmed", "invoiced", "settled", "cancelled"]
ROLES = ["server", "bartender", "chef", "captain"]
METHODS = ["card", "bank_transfer", "check"]
EVENT_NAMES = ["Spring open house", "Team offsite lunch", "Sixtieth birthday", "Gallery opening",
               "Alumni mixer", "Engagement party", "Book launch", "Harvest supper"]
VENUES = ["Mill Park Pavilion", "The Old Foundry", "Client office, 12 Dock Rd", "Lakeshore Gardens"]
REASONS = ["Client postponed", "Venue double-booked", "Budget withdrawn", "Host is unwell"]


def _quarter(rng, lo=7, hi=19):
    return "%02d:%02d" % (rng.randint(lo, hi), rng.choice([0, 15, 30, 45]))


def probes(db, rng, n):
    meta = db["meta"]
    today = date.fromisoformat(meta["today"])
    iso = meta["today"]
    cap = meta["daily_guest_capacity"]
    B, P, A, S, I = db["bookings"], db["packages"], db["addons"], db["staff"], db["invoices"]
    bids = sorted(B)
    out_of = {b: (date.fromisoformat(B[b]["event_date"]) - today).days for b in bids}
    overdue = {i["client_id"] for i in I.values() if i["status"] == "open" and i["due_date"] < iso}
    ok_clients = [c for c in sorted(db["clients"]) if c not in overdue]
    blocked = sorted(overdue)
    active_pk = [p for p in sorted(P) if P[p]["active"]]
    inactive_pk = [p for p in sorted(P) if not P[p]["active"]]
    load = {}
    taken = set()
    for b in B.values():
        if b["status"] != "cancelled":
            load[b["event_date"]] = load.get(b["event_date"], 0) + b["guest_count"]
            taken.add((b["client_id"], b["event_date"]))
    busy_day = max(load, key=lambda d: (load[d], d))
    by = {s: [b for b in bids if B[b]["status"] == s] for s in STATUSES}
    open_future = [b for b in by["tentative"] + by["confirmed"] if out_of[b] >= 1]
    free_guests = [b for b in open_future if out_of[b] >= 14]
    limited = [b for b in open_future if 4 <= out_of[b] <= 13]
    locked = [b for b in open_future if out_of[b] <= 3]
    addon_ok = [b for b in open_future if out_of[b] >= 5]
    addon_late = [b for b in open_future if out_of[b] < 5]
    held = [b for b in by["tentative"] if B[b]["hold_expires"] >= iso]
    lapsed = [b for b in by["tentative"] if B[b]["hold_expires"] < iso]
    done_conf = [b for b in by["confirmed"] if out_of[b] <= 0]
    future_conf = [b for b in by["confirmed"] if out_of[b] >= 1]
    closed = by["invoiced"] + by["settled"] + by["cancelled"]
    sched = [a for a in db["assignments"].values() if a["status"] == "scheduled"]
    busy_staff = {(a["staff_id"], a["event_date"]) for a in sched}
    captained = {a["booking_id"] for a in sched if a["role"] == "captain"}
    active_staff = [s for s in sorted(S) if S[s]["status"] == "active"]
    on_leave = [s for s in sorted(S) if S[s]["status"] != "active"]

    def has_bev(b):
        return any(A[x["addon_id"]]["category"] == "beverage" for x in B[b]["addons"])

    staffable = [b for b in by["confirmed"] if out_of[b] >= 0 and B[b]["staff_assigned"] < B[b]["staff_required"]]
    full = [b for b in by["confirmed"] if out_of[b] >= 0 and B[b]["staff_assigned"] >= B[b]["staff_required"]]
    pairs, bad_pairs = [], []
    for b in staffable:
        for s in active_staff:
            role, day = S[s]["role"], B[b]["event_date"]
            clash = (s, day) in busy_staff
            role_bad = (role == "bartender" and not has_bev(b)) or (role == "captain" and b in captained)
            (bad_pairs if clash or role_bad else pairs).append((b, s))
    open_inv = [i for i in sorted(I) if I[i]["status"] == "open"]
    paid_inv = [i for i in sorted(I) if I[i]["status"] == "paid"]

    def pick(xs, fallback):
        return rng.choice(xs) if xs else fallback

    def balance(i):
        return round(I[i]["amount"] - I[i]["amount_paid"], 2)

    def good_day(pkg, client):
        for _ in range(50):
            d = today + timedelta(days=rng.randint(P[pkg]["lead_days"], P[pkg]["lead_days"] + 150))
            ds = d.isoformat()
            if ds not in meta["blackout_dates"] and (client, ds) not in taken and load.get(ds, 0) < cap - 250:
                return ds
        return (today + timedelta(days=200)).isoformat()

    def new_booking(valid):
        c, p = rng.choice(ok_clients), rng.choice(active_pk)
        hi = min(P[p]["max_guests"], 200)
        a = {"client_id": c, "package_id": p, "event_name": rng.choice(EVENT_NAMES), "venue": rng.choice(VENUES),
             "event_date": good_day(p, c), "start_time": _quarter(rng),
             "duration_hours": rng.randint(2, 8), "guest_count": rng.randint(P[p]["min_guests"], hi)}
        if rng.random() < 0.4:
            a["notes"] = rng.choice(["Gate code 4411", "Outdoor setup if dry", ""])
        if valid:
            return a
        kind = rng.randrange(13)
        if kind == 0 and blocked:
            a["client_id"] = rng.choice(blocked)
        elif kind == 1:
            a["package_id"] = rng.choice(inactive_pk)
        elif kind == 2:
            a["guest_count"] = rng.choice([P[p]["min_guests"] - 1, P[p]["max_guests"] + rng.randint(1, 40)])
        elif kind == 3:
            a["event_date"] = (today + timedelta(days=rng.randint(0, P[p]["lead_days"] - 1))).isoformat()
        elif kind == 4:
            a["event_date"] = (today + timedelta(days=rng.randint(366, 420))).isoformat()
        elif kind == 5:
            a["event_date"] = rng.choice(meta["blackout_dates"])
            a["package_id"] = "PK15"
        elif kind == 6:
            a["event_date"] = rng.choice(["2025/12/05", "12-05-2025", "2025-11-31", "next Friday"])
        elif kind == 7:
            a["start_time"] = rng.choice(["06:45", "20:15", "22:00", "18:10", "7:30", "noon"])
        elif kind == 8:
            a["duration_hours"] = rng.choice([0, 1, 9, 12])
        elif kind == 9:
            future = [(b["client_id"], b["event_date"]) for b in B.values() if b["status"] in ("tentative", "confirmed")
                      and b["client_id"] in ok_clients and (date.fromisoformat(b["event_date"]) - today).days >= 3]
            c, d = rng.choice(future)
            a.update(client_id=c, event_date=d, package_id="PK16", guest_count=20)
        elif kind == 10:
            a.update(event_date=busy_day, package_id="PK16", guest_count=cap - load[busy_day] + rng.randint(1, 60))
        elif kind == 11:
            a[rng.choice(["client_id", "package_id"])] = rng.choice(["CL999", "PK99", "cl001", ""])
        else:
            a[rng.choice(["venue", "event_name"])] = rng.choice(["", "   "])
        return a

    def change(valid):
        if valid:
            k = rng.randrange(3)
            if k == 0 and free_guests:
                b = rng.choice(free_guests)
                p = P[B[b]["package_id"]]
                floor = max([p["min_guests"]] + [x["quantity"] for x in B[b]["addons"]
                                                  if A[x["addon_id"]]["pricing"] == "per_guest"])
                room = cap - load[B[b]["event_date"]] + B[b]["guest_count"]
                return {"booking_id": b, "guest_count": rng.randint(floor, max(floor, min(p["max_guests"], room)))}
            if k == 1 and limited:
                b = rng.choice(limited)
                g = B[b]["guest_count"]
                floor = max([P[B[b]["package_id"]]["min_guests"]] + [
                    x["quantity"] for x in B[b]["addons"] if A[x["addon_id"]]["pricing"] == "per_guest"])
                step = rng.randint(1, max(1, g // 10)) * (1 if g - 1 < floor else rng.choice([1, -1]))
                return {"booking_id": b, "guest_count": max(floor, g + step) if g // 10 else g}
            a = {"booking_id": rng.choice(open_future)}
            for key, val in (("venue", rng.choice(VENUES)), ("start_time", _quarter(rng)),
                             ("duration_hours", rng.randint(2, 8)), ("notes", "Updated by phone"),
                             ("event_name", rng.choice(EVENT_NAMES))):
                if rng.random() < 0.45:
                    a[key] = val
            if len(a) == 1:
                a["notes"] = "Menu tasting booked"
            return a
        kind = rng.randrange(9)
        if kind == 0 and locked:
            b = rng.choice(locked)
            return {"booking_id": b, "guest_count": B[b]["guest_count"] + rng.choice([-2, -1, 0, 1, 3])}
        if kind == 1 and limited:
            b = rng.choice(limited)
            g = B[b]["guest_count"]
            return {"booking_id": b, "guest_count": g + (g // 10 + rng.randint(1, 10)) * rng.choice([1, -1])}
        if kind == 2:
            return {"booking_id": rng.choice(closed + done_conf), "venue": "Riverside Boathouse"}
        if kind == 3:
            return {"booking_id": rng.choice(open_future)}
        if kind == 4:
            return {"booking_id": rng.choice(open_future),
                    rng.choice(["event_date", "package_id", "client_id"]): rng.choice(["2026-03-14", "PK01", "CL001"])}
        if kind == 5 and free_guests:
            b = rng.choice(free_guests)
            return {"booking_id": b, "guest_count": P[B[b]["package_id"]]["max_guests"] + rng.randint(1, 50)}
        if kind == 6:
            return {"booking_id": rng.choice(open_future), "start_time": rng.choice(["21:00", "06:30", "14:20"])}
        if kind == 7:
            return {"booking_id": rng.choice(open_future), "duration_hours": rng.choice([1, 10])}
        return {"booking_id": rng.choice(["BK9999", "BK01", "bk0001"]), "notes": "x"}

    def addon(valid):
        if valid:
            b = rng.choice(addon_ok)
            have = {x["addon_id"] for x in B[b]["addons"]}
            aid = rng.choice([x for x in sorted(A) if A[x]["active"] and x not in have])
            a = {"booking_id": b, "addon_id": aid}
            if A[aid]["pricing"] == "per_guest":
                a["quantity"] = rng.choice([B[b]["guest_count"], rng.randint(1, B[b]["guest_count"])])
            elif rng.random() < 0.5:
                a["quantity"] = 1
            return a
        kind = rng.randrange(7)
        with_lines = [b for b in addon_ok if B[b]["addons"]]
        if kind == 0 and with_lines:
            b = rng.choice(with_lines)
            x = rng.choice(B[b]["addons"])
            return {"booking_id": b, "addon_id": x["addon_id"], "quantity": x["quantity"]}
        if kind == 1:
            return {"booking_id": rng.choice(addon_ok), "addon_id": rng.choice(["AD07", "AD14"]), "quantity": 1}
        if kind == 2 and addon_late:
            return {"booking_id": rng.choice(addon_late), "addon_id": "AD09", "quantity": 5}
        if kind == 3:
            b = rng.choice(addon_ok)
            return {"booking_id": b, "addon_id": rng.choice(["AD01", "AD02", "AD03", "AD16"]),
                    "quantity": rng.choice([0, -3, B[b]["guest_count"] + rng.randint(1, 20)])}
        if kind == 4:
            return {"booking_id": rng.choice(addon_ok), "addon_id": rng.choice(["AD05", "AD12", "AD15"]),
                    "quantity": rng.choice([2, 4, 40])}
        if kind == 5:
            return {"booking_id": rng.choice(closed), "addon_id": "AD08", "quantity": 10}
        return {"booking_id": rng.choice(addon_ok), "addon_id": rng.choice(["AD99", "AD1", "vegan"]), "quantity": 1}

    def deposit(valid):
        if valid:
            b = rng.choice(held)
            req, tot = B[b]["deposit_required"], B[b]["total"]
            amt = rng.choice([req, req, round(min(tot, req + rng.randint(1, 500)), 2), tot])
            return {"booking_id": b, "amount": amt, "method": rng.choice(METHODS)}
        kind = rng.randrange(7)
        b = rng.choice(held)
        if kind == 0 and lapsed:
            b2 = rng.choice(lapsed)
            return {"booking_id": b2, "amount": B[b2]["deposit_required"], "method": "card"}
        if kind == 1:
            b2 = rng.choice(by["confirmed"])
            return {"booking_id": b2, "amount": B[b2]["deposit_required"], "method": "card"}
        if kind == 2:
            return {"booking_id": b, "amount": round(B[b]["deposit_required"] - rng.choice([0.01, 50, 200]), 2),
                    "method": "bank_transfer"}
        if kind == 3:
            return {"booking_id": b, "amount": round(B[b]["total"] + rng.choice([0.01, 100]), 2), "method": "check"}
        if kind == 4:
            return {"booking_id": b, "amount": B[b]["deposit_required"], "method": rng.choice(["cash", "Card", "wire"])}
        if kind == 5:
            return {"booking_id": b, "amount": round(B[b]["deposit_required"] + 0.005, 3), "method": "card"}
        return {"booking_id": rng.choice(by["cancelled"] + by["settled"]), "amount": 500.0, "method": "card"}

    def staffing(valid):
        if valid:
            b, s = rng.choice(pairs)
            return {"booking_id": b, "staff_id": s}
        kind = rng.randrange(7)
        if kind == 0:
            return {"booking_id": rng.choice(staffable), "staff_id": rng.choice(on_leave)}
        if kind in (1, 2) and bad_pairs:
            b, s = rng.choice(bad_pairs)
            return {"booking_id": b, "staff_id": s}
        if kind == 3 and full:
            return {"booking_id": rng.choice(full), "staff_id": rng.choice(active_staff)}
        if kind == 4:
            return {"booking_id": rng.choice(by["tentative"]), "staff_id": rng.choice(active_staff)}
        if kind == 5:
            past = [b for b in by["confirmed"] + by["invoiced"] if out_of[b] < 0]
            return {"booking_id": rng.choice(past), "staff_id": rng.choice(active_staff)}
        return {"booking_id": rng.choice(staffable), "staff_id": rng.choice(["ST99", "ST1", "S001"])}

    def cancel(valid):
        if valid:
            return {"booking_id": rng.choice(open_future), "reason": rng.choice(REASONS)}
        kind = rng.randrange(4)
        if kind == 0:
            return {"booking_id": rng.choice(closed), "reason": rng.choice(REASONS)}
        if kind == 1:
            return {"booking_id": rng.choice(open_future), "reason": rng.choice(["", "  "])}
        if kind == 2:
            return {"booking_id": rng.choice(done_conf), "reason": "No longer needed"}
        return {"booking_id": "BK9999", "reason": "Duplicate"}

    def invoice(valid):
        if valid:
            return {"booking_id": rng.choice(done_conf)}
        kind = rng.randrange(4)
        if kind == 0:
            return {"booking_id": rng.choice(future_conf)}
        if kind == 1:
            return {"booking_id": rng.choice(by["tentative"])}
        if kind == 2:
            return {"booking_id": rng.choice(closed)}
        return {"booking_id": rng.choice(["BK0000", "INV-0001"])}

    def payment(valid):
        if valid:
            i = rng.choice(open_inv)
            bal = balance(i)
            return {"invoice_id": i, "amount": rng.choice([bal, bal, round(bal / 2, 2), 100.0 if bal > 100 else bal])}
        kind = rng.randrange(5)
        if kind == 0 and paid_inv:
            return {"invoice_id": rng.choice(paid_inv), "amount": 50.0}
        i = rng.choice(open_inv)
        if kind == 1:
            return {"invoice_id": i, "amount": round(balance(i) + rng.choice([0.01, 25, 1000]), 2)}
        if kind == 2:
            return {"invoice_id": i, "amount": rng.choice([0, -20.0, 0.0])}
        if kind == 3:
            return {"invoice_id": i, "amount": rng.choice([10.555, 99.999])}
        return {"invoice_id": rng.choice(["INV-9999", "IN0001", "INV-1"]), "amount": 10.0}

    def reads(tool, valid):
        if tool == "list_packages":
            if valid:
                a = {}
                if rng.random() < 0.5:
                    a["service_style"] = rng.choice(STYLES)
                if rng.random() < 0.5:
                    a["guest_count"] = rng.choice([12, 25, 60, 150, 320, 450])
                if rng.random() < 0.4:
                    a["active_only"] = rng.choice([True, False])
                return a
            return rng.choice([{"service_style": rng.choice(["Buffet", "seated", "bbq"])},
                               {"guest_count": rng.choice([0, -5])}])
        if tool == "list_bookings":
            if valid:
                a = {}
                if rng.random() < 0.4:
                    a["client_id"] = rng.choice(sorted(db["clients"]) + ["CL999"])
                if rng.random() < 0.5:
                    a["status"] = rng.choice(STATUSES)
                if rng.random() < 0.5:
                    lo = today + timedelta(days=rng.randint(-60, 60))
                    a["event_date_from"] = lo.isoformat()
                    if rng.random() < 0.6:
                        a["event_date_to"] = (lo + timedelta(days=rng.randint(0, 45))).isoformat()
                return a
            return rng.choice([{"status": rng.choice(["pending", "Confirmed", "paid"])},
                               {"event_date_from": "2025-13-01"}, {"event_date_to": "Oct 30"},
                               {"event_date_from": "2025-12-01", "event_date_to": "2025-11-01"}])
        if tool == "get_booking":
            if valid:
                return {"booking_id": rng.choice(bids)}
            return {"booking_id": rng.choice(["BK9999", "BK1", "bk0003", "CL001"])}
        if valid:
            a = {"event_date": (today + timedelta(days=rng.randint(-5, 90))).isoformat()}
            if rng.random() < 0.5:
                a["role"] = rng.choice(ROLES)
            return a
        return rng.choice([{"event_date": rng.choice(["2025-02-30", "11/01/2025"])},
                           {"event_date": busy_day, "role": rng.choice(["waiter", "Chef", "dishwasher"])},
                           {"role": "server"}])

    gens = {"create_booking": new_booking, "update_booking": change, "add_booking_addon": addon,
            "record_deposit": deposit, "assign_staff": staffing, "cancel_booking": cancel,
            "issue_final_invoice": invoice, "record_payment": payment}
    tools = ["list_packages", "list_bookings", "get_booking", "list_available_staff", "create_booking",
             "update_booking", "add_booking_addon", "record_deposit", "assign_staff", "cancel_booking",
             "issue_final_invoice", "record_payment"]
    weights = [0.7, 0.7, 0.5, 0.7, 1.4, 1.4, 1.2, 1.0, 1.2, 1.0, 0.8, 1.0]
    out = []
    for i in range(n):
        tool = tools[i] if i < len(tools) else rng.choices(tools, weights)[0]
        valid = rng.random() < 0.55
        args = gens[tool](valid) if tool in gens else reads(tool, valid)
        out.append((tool, args))
    return out
