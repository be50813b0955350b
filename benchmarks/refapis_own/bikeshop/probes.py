"""Differential probes for the Spokes & Sprockets API: ~60% valid calls, ~40% calls the rules refuse."""
import datetime as dt
from decimal import Decimal

BIKE_TYPES = ["city", "road", "mountain", "hybrid", "ebike", "kids"]
SIZES = ["XS", "S", "M", "L", "XL"]
BIKE_STATUSES = ["available", "reserved", "rented", "in_repair", "retired"]
RENTAL_STATUSES = ["reserved", "active", "returned", "cancelled"]
TICKET_STATUSES = ["open", "in_progress", "completed", "cancelled"]
CATEGORIES = ["tires", "brakes", "drivetrain", "cables", "lights", "accessories"]
SERVICES = ["flat_fix", "brake_service", "basic_tune", "drivetrain_service", "full_service"]
REASONS = ["customer_request", "weather", "bike_issue", "other"]
DESCS = ["Black Cube touring bike", "Red fixie with riser bars", "Kids balance bike", "Brompton folding bike",
         "Old Raleigh 3-speed", "Specialized Rockhopper 27.5", "Cargo trike, front box"]
LABOR = {"flat_fix": "12.00", "brake_service": "29.00", "basic_tune": "35.00",
         "drivetrain_service": "49.00", "full_service": "89.00"}


def _member_on(c, day):
    return c["membership"] != "none" and c["membership_expires"] is not None and c["membership_expires"] >= day


def probes(db, rng, n):
    today = dt.date.fromisoformat(db["meta"]["today"])
    D = lambda k: (today + dt.timedelta(days=k)).isoformat()
    cust, bikes, rentals = db["customers"], db["bikes"], db["rentals"]
    tickets, parts = db["repair_tickets"], db["parts"]
    cids, bids, rids, tids, pids = sorted(cust), sorted(bikes), sorted(rentals), sorted(tickets), sorted(parts)
    active_c = [c for c in cids if cust[c]["status"] == "active"]
    suspended = [c for c in cids if cust[c]["status"] == "suspended"]
    open_n = {c: 0 for c in cids}
    for r in rentals.values():
        if r["status"] in ("reserved", "active"):
            open_n[r["customer_id"]] += 1
    busy = {t["customer_id"] for t in tickets.values() if t["status"] in ("open", "in_progress")}
    by_status = lambda coll, s: [k for k in sorted(coll) if coll[k]["status"] == s]
    avail = by_status(bikes, "available")
    unavail = [b for b in bids if bikes[b]["status"] != "available"]
    bal = lambda c: Decimal(str(cust[c]["wallet_balance"]))
    pick = rng.choice

    def price(c, b, start, days):
        m = _member_on(cust[c], start)
        pct = (20 if cust[c]["membership"] == "premium" else 10) if m else 0
        return Decimal(str(bikes[b]["daily_rate"])) * days * (100 - pct) / 100, m

    # ------------------------------------------------------------ valid generators
    def v_get_customer():
        return "get_customer", {"customer_id": pick(cids)}

    def v_list_bikes():
        a = {}
        if rng.random() < 0.6: a["type"] = pick(BIKE_TYPES)
        if rng.random() < 0.5: a["status"] = pick(BIKE_STATUSES)
        if rng.random() < 0.3: a["size"] = pick(SIZES)
        return "list_bikes", a

    def v_list_rentals():
        a = {}
        r = rng.random()
        if r < 0.4: a["customer_id"] = pick(cids)
        elif r < 0.6: a["bike_id"] = pick(bids)
        if rng.random() < 0.5: a["status"] = pick(RENTAL_STATUSES)
        return "list_rentals", a

    def v_list_tickets():
        a = {}
        if rng.random() < 0.5: a["customer_id"] = pick(cids)
        if rng.random() < 0.6: a["status"] = pick(TICKET_STATUSES)
        return "list_repair_tickets", a

    def v_search_parts():
        a = {}
        if rng.random() < 0.7:
            word = pick(pick([parts[p]["name"] for p in pids]).split())
            a["q"] = pick([word, word.lower(), word.upper(), " " + word.lower()])
        if rng.random() < 0.3: a["category"] = pick(CATEGORIES)
        if rng.random() < 0.3: a["in_stock_only"] = pick([True, False])
        return "search_parts", a

    def v_top_up():
        c = pick([c for c in cids if bal(c) <= Decimal("995")])
        room = min(Decimal("500"), Decimal("1000") - bal(c))
        amt = Decimal(rng.randint(500, int(room * 100))) / 100
        if rng.random() < 0.4: amt = amt.quantize(Decimal("1"))
        amt = max(Decimal("5"), min(amt, room))
        return "top_up_wallet", {"customer_id": c, "amount": float(amt) if amt % 1 else int(amt)}

    def v_create_rental():
        for _ in range(200):
            c, b = pick(active_c), pick(avail)
            start, days = D(rng.randint(0, 30)), rng.randint(1, 14)
            p, member = price(c, b, start, days)
            if open_n[c] < 2 and (bikes[b]["type"] != "ebike" or member) and p <= bal(c):
                return "create_rental", {"customer_id": c, "bike_id": b, "start_date": start, "days": days}
        return None

    def v_start_rental():
        cands = [r for r in by_status(rentals, "reserved") if rentals[r]["start_date"] <= today.isoformat()]
        return "start_rental", {"rental_id": pick(cands)}

    def v_return_rental():
        return "return_rental", {"rental_id": pick(by_status(rentals, "active")),
                                 "condition": pick(["good", "good", "damaged"])}

    def v_cancel_rental():
        return "cancel_rental", {"rental_id": pick(by_status(rentals, "reserved")), "reason": pick(REASONS)}

    def v_open_ticket():
        return "open_repair_ticket", {"customer_id": pick([c for c in active_c if c not in busy]),
                                      "bike_description": pick(DESCS), "service": pick(SERVICES)}

    def v_add_part():
        t = pick([t for t in tids if tickets[t]["status"] in ("open", "in_progress")])
        p = pick([p for p in pids if not parts[p]["discontinued"] and parts[p]["stock"] > 0])
        return "add_part_to_ticket", {"ticket_id": t, "part_id": p,
                                      "quantity": rng.randint(1, min(10, parts[p]["stock"]))}

    def v_complete():
        cands = [t for t in tids if tickets[t]["status"] in ("open", "in_progress")
                 and bal(tickets[t]["customer_id"]) >= Decimal(str(tickets[t]["total"]))]
        return "complete_repair", {"ticket_id": pick(cands)}

    # ------------------------------------------------------------ invalid generators
    def i_get_customer():
        return "get_customer", {"customer_id": pick(["C999", "C000", "X001", "c001", ""])}

    def i_list_bikes():
        return "list_bikes", pick([{"type": "tandem"}, {"status": "stolen"}, {"size": "XXL"},
                                   {"type": "ebike", "status": "on_loan"}])

    def i_list_rentals():
        return "list_rentals", pick([{"status": "overdue"}, {"customer_id": "C777"}, {"bike_id": "B404"},
                                     {"customer_id": pick(cids), "status": "late"}])

    def i_list_tickets():
        return "list_repair_tickets", pick([{"status": "waiting_parts"}, {"customer_id": "C888"},
                                            {"status": "done"}])

    def i_search_parts():
        return "search_parts", pick([{"category": "wheels"}, {"q": "chain", "category": "frames"},
                                     {"category": "saddles"}])

    def i_top_up():
        c = pick(cids)
        kind = rng.randint(0, 5)
        if kind == 0:
            return "top_up_wallet", {"customer_id": c, "amount": pick([0, -20, 4.99, 1])}
        if kind == 1:
            return "top_up_wallet", {"customer_id": c, "amount": pick([500.01, 750, 1200])}
        if kind == 2:
            return "top_up_wallet", {"customer_id": c, "amount": pick([12.345, 20.001, 7.5555])}
        if kind == 3:
            rich = [x for x in cids if bal(x) > Decimal("505")]
            x = pick(rich) if rich else c
            return "top_up_wallet", {"customer_id": x, "amount": float(min(Decimal("500"), Decimal("1000") - bal(x) + Decimal("5")))}
        if kind == 4:
            return "top_up_wallet", {"customer_id": pick(["C404", "C061"]), "amount": 50}
        return "top_up_wallet", {"customer_id": c}

    def i_create_rental():
        kind = rng.randint(0, 8)
        c, b = pick(active_c), pick(avail)
        base = {"customer_id": c, "bike_id": b, "start_date": D(rng.randint(0, 10)), "days": rng.randint(1, 3)}
        if kind == 0: base["bike_id"] = pick(unavail)
        elif kind == 1: base["customer_id"] = pick(suspended)
        elif kind == 2: base["start_date"] = D(-rng.randint(1, 20))
        elif kind == 3: base["start_date"] = D(rng.randint(31, 60))
        elif kind == 4: base["days"] = pick([0, 15, 21, -2])
        elif kind == 5:
            base["customer_id"] = pick([x for x in active_c if open_n[x] >= 2])
        elif kind == 6:
            poor = [x for x in active_c if bal(x) < Decimal("12")]
            base["customer_id"], base["days"] = pick(poor), rng.randint(3, 14)
        elif kind == 7:
            ebikes = [x for x in avail if bikes[x]["type"] == "ebike"]
            if not ebikes:
                base["bike_id"] = "B999"
            else:
                base["bike_id"] = pick(ebikes)
                base["customer_id"] = pick([x for x in active_c if not _member_on(cust[x], base["start_date"])])
        else:
            base["start_date"] = pick([today.strftime("%m/%d/%Y"), D(3).replace("-", ""), "2025-02-30"])
        return "create_rental", base

    def i_start_rental():
        kind = rng.randint(0, 2)
        if kind == 0:
            fut = [r for r in by_status(rentals, "reserved") if rentals[r]["start_date"] > today.isoformat()]
            return "start_rental", {"rental_id": pick(fut)}
        if kind == 1:
            return "start_rental", {"rental_id": pick([r for r in rids if rentals[r]["status"] != "reserved"])}
        return "start_rental", {"rental_id": "R9999"}

    def i_return_rental():
        kind = rng.randint(0, 2)
        if kind == 0:
            return "return_rental", {"rental_id": pick([r for r in rids if rentals[r]["status"] != "active"]),
                                     "condition": "good"}
        if kind == 1:
            return "return_rental", {"rental_id": pick(by_status(rentals, "active")),
                                     "condition": pick(["broken", "fine", "GOOD"])}
        return "return_rental", {"rental_id": pick(by_status(rentals, "active"))}

    def i_cancel_rental():
        kind = rng.randint(0, 2)
        if kind == 0:
            return "cancel_rental", {"rental_id": pick([r for r in rids if rentals[r]["status"] != "reserved"]),
                                     "reason": pick(REASONS)}
        if kind == 1:
            return "cancel_rental", {"rental_id": pick(by_status(rentals, "reserved")), "reason": "changed_mind"}
        return "cancel_rental", {"rental_id": "R0000", "reason": "weather"}

    def i_open_ticket():
        kind = rng.randint(0, 4)
        a = {"customer_id": pick([c for c in active_c if c not in busy]), "bike_description": pick(DESCS),
             "service": pick(SERVICES)}
        if kind == 0: a["customer_id"] = pick(sorted(busy))
        elif kind == 1: a["customer_id"] = pick(suspended)
        elif kind == 2: a["service"] = pick(["oil_change", "wheel_true", "FLAT_FIX"])
        elif kind == 3: a["bike_description"] = pick(["ok", "  x ", "B" * 81])
        else: a["customer_id"] = "C321"
        return "open_repair_ticket", a

    def i_add_part():
        kind = rng.randint(0, 5)
        workable = [t for t in tids if tickets[t]["status"] in ("open", "in_progress")]
        good = [p for p in pids if not parts[p]["discontinued"] and parts[p]["stock"] > 0]
        a = {"ticket_id": pick(workable), "part_id": pick(good), "quantity": 1}
        if kind == 0:
            a["ticket_id"] = pick([t for t in tids if tickets[t]["status"] in ("completed", "cancelled")])
        elif kind == 1:
            a["part_id"] = pick([p for p in pids if parts[p]["discontinued"]])
        elif kind == 2:
            p = pick([p for p in pids if not parts[p]["discontinued"] and parts[p]["stock"] < 10])
            a["part_id"], a["quantity"] = p, parts[p]["stock"] + 1
        elif kind == 3: a["quantity"] = pick([0, 11, -1])
        elif kind == 4: a["part_id"] = "P404"
        else: a["ticket_id"] = "T9999"
        return "add_part_to_ticket", a

    def i_complete():
        kind = rng.randint(0, 2)
        if kind == 0:
            return "complete_repair", {"ticket_id": pick([t for t in tids if tickets[t]["status"] in ("completed", "cancelled")])}
        if kind == 1:
            poor = [t for t in tids if tickets[t]["status"] in ("open", "in_progress")
                    and bal(tickets[t]["customer_id"]) < Decimal(str(tickets[t]["total"]))]
            if poor:
                return "complete_repair", {"ticket_id": pick(poor)}
        return "complete_repair", {"ticket_id": "T0000"}

    valid = [v_get_customer, v_list_bikes, v_list_rentals, v_list_tickets, v_search_parts, v_top_up,
             v_create_rental, v_start_rental, v_return_rental, v_cancel_rental, v_open_ticket, v_add_part,
             v_complete]
    invalid = [i_get_customer, i_list_bikes, i_list_rentals, i_list_tickets, i_search_parts, i_top_up,
               i_create_rental, i_start_rental, i_return_rental, i_cancel_rental, i_open_ticket, i_add_part,
               i_complete]
    out = []
    while len(out) < n:
        k = rng.randrange(len(valid))
        p = valid[k]() if rng.random() < 0.6 else invalid[k]()
        if p is None:
            p = invalid[k]()
        out.append(p)
    return out
