"""Differential probes for the pottery studio API: ~60% valid calls, ~40% calls policy refuses."""
import copy
import datetime

RATE = {"basic": 1400, "standard": 1100, "premium": 900}
ALLOW = {"basic": 4, "standard": 12, "premium": 30}
WINDOW = {"basic": 7, "standard": 14, "premium": 21}
SHELF = {"04": 600, "6": 800, "10": 1100}
KDISC = {"basic": 0, "standard": 10, "premium": 20}
CDISC = {"basic": 0, "standard": 5, "premium": 10}
MAXSH = {"basic": 2, "standard": 3, "premium": 4}
MONTHLY = {"basic": 4500, "standard": 7500, "premium": 12000}


def _c(x):
    return int(round(x * 100))


def _pct(c, p):
    return (c * p * 2 + 100) // 200


def probes(db, rng, n):
    s = copy.deepcopy(db)  # shadow state, updated with the effects of the valid calls
    today = datetime.date.fromisoformat(s["meta"]["today"])
    D = lambda k: (today + datetime.timedelta(days=k)).isoformat()
    M, C, B, F, L = (s["members"], s["clays"], s["wheel_bookings"], s["firings"], s["kiln_loads"])
    dt = datetime.date.fromisoformat

    def pick(xs):
        xs = list(xs)
        return rng.choice(xs) if xs else None

    def ok_member(m, on=None):
        return m["status"] == "active" and (on is None or m["expires_on"] >= on)

    def next_id(coll, p, w):
        return "%s%0*d" % (p, w, max(int(k[len(p):]) for k in coll) + 1)

    def live(b):
        return b["status"] != "cancelled"

    # ------------------------------------------------------------------ reads
    def v_get_member():
        return {"member_id": pick(M)}

    def i_get_member():
        return rng.choice([{"member_id": "M%03d" % rng.randint(61, 999)}, {},
                           {"member_id": pick(M).lower()}])

    def v_list_clays():
        a = {}
        if rng.random() < 0.5:
            a["query"] = rng.choice(["stoneware", "PORCELAIN", "speck", "Red", "clay", "b-mix"])
        if rng.random() < 0.3:
            a["body_type"] = rng.choice(["stoneware", "porcelain", "earthenware"])
        if rng.random() < 0.4:
            a["in_stock"] = rng.random() < 0.7
        return a

    def i_list_clays():
        return rng.choice([{"body_type": "terracotta"}, {"in_stock": "yes"}, {"query": 42}])

    def v_list_wheel_bookings():
        a = {}
        r = rng.random()
        if r < 0.4:
            a["member_id"] = pick(M)
        elif r < 0.7:
            a["date"] = D(rng.randint(-5, 10))
        if rng.random() < 0.4:
            a["status"] = rng.choice(["booked", "completed", "no_show", "cancelled"])
        if rng.random() < 0.2:
            a["wheel_no"] = rng.randint(1, 8)
        return a

    def i_list_wheel_bookings():
        return rng.choice([{"status": "pending"}, {"date": "2025-6-18"}, {"wheel_no": "3"},
                           {"date": "2025-02-30"}])

    def v_list_firings():
        a = {}
        if rng.random() < 0.4:
            a["firing_type"] = rng.choice(["bisque", "glaze"])
        if rng.random() < 0.3:
            a["kiln"] = rng.choice(["north_electric", "south_electric", "gas_reduction"])
        if rng.random() < 0.4:
            a["status"] = rng.choice(["open", "loading", "firing", "completed", "cancelled"])
        if rng.random() < 0.4:
            a["from_date"] = D(rng.randint(-10, 5))
            if rng.random() < 0.6:
                a["to_date"] = D(rng.randint(6, 30))
        if rng.random() < 0.3:
            a["min_free_shelves"] = rng.randint(1, 5)
        return a

    def i_list_firings():
        return rng.choice([{"status": "scheduled"}, {"from_date": "next week"},
                           {"kiln": "wood_kiln"}, {"min_free_shelves": "2"}])

    def v_list_kiln_loads():
        a = {}
        r = rng.random()
        if r < 0.4:
            a["member_id"] = pick(M)
        elif r < 0.7:
            a["firing_id"] = pick(F)
        if rng.random() < 0.4:
            a["status"] = rng.choice(["reserved", "fired", "collected", "cancelled"])
        return a

    def i_list_kiln_loads():
        return rng.choice([{"status": "glazed"}, {"firing_id": 12}, {"shelf": 1}])

    # ------------------------------------------------------------------ members / clay
    def renew_fee(tier, months):
        return MONTHLY[tier] * (11 if months == 12 else months)

    def v_renew_membership():
        opts = []
        for m in M.values():
            if m["status"] != "active" or m["expires_on"] > D(30):
                continue
            for tier in MONTHLY:
                for mo in (1, 3, 6, 12):
                    if renew_fee(tier, mo) <= _c(m["studio_credit"]):
                        opts.append((m, tier, mo))
        o = pick(opts)
        if not o:
            return None
        m, tier, mo = o
        m["studio_credit"] = (_c(m["studio_credit"]) - renew_fee(tier, mo)) / 100
        base = max(dt(m["expires_on"]), today)
        y, mo2 = divmod(base.month - 1 + mo, 12)
        for day in (base.day, 30, 29, 28):
            try:
                m["expires_on"] = datetime.date(base.year + y, mo2 + 1, min(day, base.day)).isoformat()
                break
            except ValueError:
                pass
        m["tier"] = tier
        return {"member_id": m["id"], "tier": tier, "months": mo}

    def i_renew_membership():
        k = rng.randint(0, 5)
        if k == 0:
            m = pick(x for x in M.values() if x["status"] != "active")
        elif k == 1:
            m = pick(x for x in M.values() if x["status"] == "active" and x["expires_on"] > D(45))
        elif k == 2:
            m = pick(x for x in M.values() if x["status"] == "active" and x["expires_on"] <= D(30)
                     and _c(x["studio_credit"]) < 132000)
            return m and {"member_id": m["id"], "tier": "premium", "months": 12}
        elif k == 3:
            return {"member_id": pick(M), "tier": "standard", "months": rng.choice([2, 24, 0])}
        elif k == 4:
            return {"member_id": pick(M), "tier": rng.choice(["gold", "Premium"]), "months": 3}
        else:
            return {"member_id": "M404", "tier": "basic", "months": 1}
        return m and {"member_id": m["id"], "tier": pick(MONTHLY), "months": rng.choice([1, 3])}

    def clay_total(m, c, bags):
        sub = _c(c["price_per_bag"]) * bags
        return sub - _pct(sub, CDISC[m["tier"]])

    def v_purchase_clay():
        for _ in range(30):
            m = pick(x for x in M.values() if x["status"] == "active")
            c = pick(x for x in C.values() if x["status"] == "stocked" and x["stock_bags"] > 0)
            if not c:
                return None
            bags = rng.randint(1, min(10, c["stock_bags"], 4))
            t = clay_total(m, c, bags)
            if t <= _c(m["studio_credit"]):
                m["studio_credit"] = (_c(m["studio_credit"]) - t) / 100
                c["stock_bags"] -= bags
                return {"member_id": m["id"], "clay_id": c["id"], "bags": bags}
        return None

    def i_purchase_clay():
        k = rng.randint(0, 6)
        act = pick(x for x in M.values() if x["status"] == "active")["id"]
        stocked = [x for x in C.values() if x["status"] == "stocked"]
        if k == 0:
            return {"member_id": act, "clay_id": pick(x["id"] for x in C.values()
                                                      if x["status"] == "discontinued"), "bags": 1}
        if k == 1:
            return {"member_id": act, "clay_id": pick(x["id"] for x in stocked),
                    "bags": rng.choice([0, 11, 25])}
        if k == 2:
            c = pick(x for x in stocked if x["stock_bags"] < 10)
            return c and {"member_id": act, "clay_id": c["id"], "bags": c["stock_bags"] + 1}
        if k == 3:
            m = pick(x for x in M.values() if x["status"] != "active")
            return {"member_id": m["id"], "clay_id": pick(x["id"] for x in stocked), "bags": 1}
        if k == 4:
            m = pick(x for x in M.values() if x["status"] == "active" and x["studio_credit"] < 150)
            c = max(stocked, key=lambda x: x["price_per_bag"] if x["stock_bags"] >= 6 else 0)
            return m and {"member_id": m["id"], "clay_id": c["id"], "bags": 6}
        if k == 5:
            return {"member_id": act, "clay_id": "C99", "bags": 2}
        return {"member_id": act, "clay_id": pick(x["id"] for x in stocked), "bags": "2"}

    # ------------------------------------------------------------------ wheels
    def wheel_fee(m, date, hours):
        used = sum(b["hours"] for b in B.values() if live(b) and b["member_id"] == m["id"]
                   and b["date"][:7] == date[:7])
        return max(0, hours - max(0, ALLOW[m["tier"]] - used)) * RATE[m["tier"]]

    def wheel_free(w, date, st, h):
        return not any(live(b) and b["wheel_no"] == w and b["date"] == date
                       and b["start_hour"] < st + h and st < b["start_hour"] + b["hours"]
                       for b in B.values())

    def has_day(mid, date):
        return any(live(b) and b["member_id"] == mid and b["date"] == date for b in B.values())

    def add_booking(m, w, date, st, h, fee):
        bid = next_id(B, "B", 4)
        B[bid] = {"id": bid, "member_id": m["id"], "wheel_no": w, "date": date, "start_hour": st,
                  "hours": h, "fee": fee / 100, "status": "booked", "created_on": D(0),
                  "cancelled_on": None}
        m["studio_credit"] = (_c(m["studio_credit"]) - fee) / 100

    def v_book_wheel():
        for _ in range(40):
            m = pick(x for x in M.values() if x["status"] == "active" and x["no_show_count"] < 3)
            date = D(rng.randint(0, WINDOW[m["tier"]]))
            if dt(date).weekday() == 0 or m["expires_on"] < date or has_day(m["id"], date):
                continue
            h = rng.choice([1, 2, 2, 3])
            st = rng.randint(9, 21 - h)
            w = rng.randint(1, 8)
            fee = wheel_fee(m, date, h)
            if not wheel_free(w, date, st, h) or fee > _c(m["studio_credit"]):
                continue
            add_booking(m, w, date, st, h, fee)
            return {"member_id": m["id"], "wheel_no": w, "date": date, "start_hour": st,
                    "hours": h}
        return None

    def i_book_wheel():
        good = [x for x in M.values() if x["status"] == "active" and x["no_show_count"] < 3
                and x["expires_on"] >= D(7)]
        m = pick(good)
        a = {"member_id": m["id"], "wheel_no": rng.randint(1, 8), "date": D(rng.randint(1, 6)),
             "start_hour": rng.randint(9, 18), "hours": rng.randint(1, 3)}
        k = rng.randint(0, 10)
        if k == 0:
            a["date"] = pick(D(i) for i in range(1, 8) if dt(D(i)).weekday() == 0)
        elif k == 1:
            a["date"] = D(-rng.randint(1, 10))
        elif k == 2:
            a["date"] = D(WINDOW[m["tier"]] + rng.randint(1, 3))
            if dt(a["date"]).weekday() == 0:
                a["date"] = D(WINDOW[m["tier"]] + 4)
        elif k == 3:
            x = pick(x for x in M.values() if x["status"] == "active" and x["no_show_count"] >= 3)
            a["member_id"] = x["id"]
        elif k == 4:
            b = pick(b for b in B.values() if b["status"] == "booked" and b["date"] >= D(0))
            a["member_id"], a["date"] = b["member_id"], b["date"]
            a["start_hour"] = 9 if b["start_hour"] > 12 else 18
            a["wheel_no"] = 1 + b["wheel_no"] % 8
        elif k == 5:
            b = pick(b for b in B.values() if b["status"] == "booked" and b["date"] > D(0)
                     and b["date"] <= D(7) and b["member_id"] != m["id"])
            a.update(wheel_no=b["wheel_no"], date=b["date"], start_hour=b["start_hour"], hours=1)
        elif k == 6:
            a.update(start_hour=rng.choice([19, 20]), hours=3)
        elif k == 7:
            a["wheel_no"] = rng.choice([0, 9, 12])
        elif k == 8:
            a["hours"] = rng.choice([0, 4, 5])
        elif k == 9:
            x = pick(x for x in M.values() if x["status"] != "active" or x["expires_on"] < D(0))
            a["member_id"] = x["id"]
        else:
            a["date"] = rng.choice(["06/20/2025", "2025-06-31", "tomorrow"])
        return a

    def v_cancel_wheel_booking():
        b = pick(b for b in B.values() if b["status"] == "booked" and b["date"] >= D(0))
        if not b:
            return None
        b["status"] = "cancelled"
        return {"booking_id": b["id"]}

    def i_cancel_wheel_booking():
        k = rng.randint(0, 2)
        if k == 0:
            b = pick(b for b in B.values() if b["status"] != "booked")
        elif k == 1:
            b = pick(b for b in B.values() if b["status"] == "booked" and b["date"] < D(0))
        else:
            return {"booking_id": "B9999"}
        return b and {"booking_id": b["id"]}

    def v_close_wheel_booking():
        b = pick(b for b in B.values() if b["status"] == "booked" and b["date"] <= D(0))
        if not b:
            return None
        out = rng.choice(["completed", "completed", "no_show"])
        b["status"] = out
        if out == "no_show" and b["member_id"] in M:
            M[b["member_id"]]["no_show_count"] += 1
        return {"booking_id": b["id"], "outcome": out}

    def i_close_wheel_booking():
        k = rng.randint(0, 2)
        if k == 0:
            b = pick(b for b in B.values() if b["status"] == "booked" and b["date"] > D(0))
        elif k == 1:
            b = pick(b for b in B.values() if b["status"] != "booked")
        else:
            b = pick(B.values())
            return {"booking_id": b["id"], "outcome": rng.choice(["late", "cancelled", "booked"])}
        return b and {"booking_id": b["id"], "outcome": rng.choice(["completed", "no_show"])}

    # ------------------------------------------------------------------ kiln
    def v_update_firing_status():
        opts = []
        for f in F.values():
            if f["status"] == "open" and f["scheduled_on"] <= D(1):
                opts += [(f, "loading")] * 3
            if f["status"] == "loading" and f["scheduled_on"] <= D(0):
                opts += [(f, "firing")] * 3
            if f["status"] == "firing":
                opts += [(f, "completed")] * 3
            if f["status"] in ("open", "loading") and f["scheduled_on"] > D(8):
                opts.append((f, "cancelled"))
        o = pick(opts)
        if not o:
            return None
        f, st = o
        f["status"] = st
        for l in L.values():
            if l["firing_id"] == f["id"] and l["status"] == "reserved":
                l["status"] = "fired" if st == "completed" else l["status"]
                if st == "cancelled":
                    l["status"] = "cancelled"
        return {"firing_id": f["id"], "status": st}

    def i_update_firing_status():
        k = rng.randint(0, 5)
        if k == 0:
            f = pick(f for f in F.values() if f["status"] in ("completed", "cancelled"))
            st = rng.choice(["loading", "firing", "completed", "cancelled"])
        elif k == 1:
            f = pick(f for f in F.values() if f["status"] == "open" and f["scheduled_on"] > D(1))
            st = "loading"
        elif k == 2:
            f = pick(f for f in F.values() if f["status"] == "open")
            st = rng.choice(["firing", "completed"])
        elif k == 3:
            f = pick(f for f in F.values() if f["status"] == "firing")
            st = rng.choice(["cancelled", "loading", "firing"])
        elif k == 4:
            f = pick(f for f in F.values() if f["status"] == "loading" and f["scheduled_on"] > D(0))
            f = f or pick(f for f in F.values() if f["status"] == "open")
            st = "firing"
        else:
            return {"firing_id": rng.choice(["F999", "F0001"]), "status": "loading"}
        return f and {"firing_id": f["id"], "status": st}

    def compat(f, c):
        return f["cone"] != "10" or c["rated_cone"] == "10"

    def holds(mid, fid):
        return any(l["firing_id"] == fid and l["member_id"] == mid and l["status"] != "cancelled"
                   for l in L.values())

    def v_reserve_kiln_space():
        for _ in range(40):
            f = pick(f for f in F.values() if f["status"] == "open" and f["scheduled_on"] >= D(2))
            m = pick(x for x in M.values() if ok_member(x, f["scheduled_on"]))
            c = pick(C.values())
            free = f["shelf_capacity"] - f["shelves_reserved"]
            if not compat(f, c) or free < 1 or holds(m["id"], f["id"]):
                continue
            sh = rng.randint(1, min(free, MAXSH[m["tier"]]))
            base = sh * SHELF[f["cone"]]
            fee = base - _pct(base, KDISC[m["tier"]])
            if fee > _c(m["studio_credit"]):
                continue
            m["studio_credit"] = (_c(m["studio_credit"]) - fee) / 100
            f["shelves_reserved"] += sh
            lid = next_id(L, "L", 4)
            L[lid] = {"id": lid, "firing_id": f["id"], "member_id": m["id"], "clay_id": c["id"],
                      "shelves": sh, "status": "reserved"}
            return {"member_id": m["id"], "firing_id": f["id"], "clay_id": c["id"],
                    "shelves": sh, "pieces": rng.randint(1, 10 * sh)}
        return None

    def i_reserve_kiln_space():
        opens = [f for f in F.values() if f["status"] == "open" and f["scheduled_on"] >= D(2)
                 and f["shelf_capacity"] - f["shelves_reserved"] >= 1]
        f = pick(opens)
        m = pick(x for x in M.values() if ok_member(x, D(60)) and not holds(x["id"], f["id"]))
        c = pick(x for x in C.values() if compat(f, x))
        a = {"member_id": m["id"], "firing_id": f["id"], "clay_id": c["id"], "shelves": 1,
             "pieces": 5}
        k = rng.randint(0, 9)
        if k == 0:
            g = pick(g for g in F.values() if g["status"] != "open")
            a["firing_id"] = g["id"]
        elif k == 1:
            g = pick(g for g in F.values() if g["status"] == "open" and g["scheduled_on"] < D(2))
            if not g:
                return None
            a["firing_id"] = g["id"]
        elif k == 2:
            g = pick(g for g in opens if g["cone"] == "10")
            a["firing_id"] = g["id"]
            a["clay_id"] = pick(x["id"] for x in C.values() if x["rated_cone"] != "10")
        elif k == 3:
            a["shelves"] = MAXSH[m["tier"]] + 1
            a["pieces"] = 3
        elif k == 4:
            a["shelves"] = 1
            a["pieces"] = rng.choice([11, 15, 0])
        elif k == 5:
            l = pick(l for l in L.values() if l["status"] == "reserved"
                     and F[l["firing_id"]]["status"] == "open")
            a["member_id"], a["firing_id"] = l["member_id"], l["firing_id"]
            a["clay_id"] = pick(x["id"] for x in C.values() if compat(F[l["firing_id"]], x))
        elif k == 6:
            g = pick(g for g in F.values() if g["status"] == "open"
                     and g["shelf_capacity"] - g["shelves_reserved"] < 2)
            if not g:
                return None
            a["firing_id"] = g["id"]
            a["shelves"] = 2
            a["clay_id"] = pick(x["id"] for x in C.values() if x["rated_cone"] == "10")
            a["member_id"] = pick(x["id"] for x in M.values() if x["tier"] != "basic"
                                  and ok_member(x, D(60)) and not holds(x["id"], g["id"]))
        elif k == 7:
            x = pick(x for x in M.values() if x["status"] != "active" or x["expires_on"] < D(1))
            a["member_id"] = x["id"]
        elif k == 8:
            a["clay_id"] = "C77"
        else:
            a["shelves"] = "2"
        return a

    def v_cancel_kiln_reservation():
        l = pick(l for l in L.values() if l["status"] == "reserved"
                 and F[l["firing_id"]]["status"] == "open")
        if not l:
            return None
        l["status"] = "cancelled"
        F[l["firing_id"]]["shelves_reserved"] -= l["shelves"]
        return {"load_id": l["id"]}

    def i_cancel_kiln_reservation():
        k = rng.randint(0, 2)
        if k == 0:
            l = pick(l for l in L.values() if l["status"] != "reserved")
        elif k == 1:
            l = pick(l for l in L.values() if l["status"] == "reserved"
                     and F[l["firing_id"]]["status"] != "open")
        else:
            return {"load_id": "L%04d" % rng.randint(5000, 9999)}
        return l and {"load_id": l["id"]}

    def v_collect_pieces():
        l = pick(l for l in L.values() if l["status"] == "fired")
        if not l:
            return None
        l["status"] = "collected"
        return {"load_id": l["id"]}

    def i_collect_pieces():
        k = rng.randint(0, 2)
        if k == 2:
            return {"load_id": "L0000"}
        l = pick(l for l in L.values() if l["status"] in (("reserved",), ("collected", "cancelled"))[k])
        return l and {"load_id": l["id"]}

    tools = {
        "get_member": 0.6, "list_clays": 0.6, "list_wheel_bookings": 0.6, "list_firings": 0.6,
        "list_kiln_loads": 0.6, "renew_membership": 1.0, "purchase_clay": 1.0,
        "book_wheel": 1.5, "cancel_wheel_booking": 0.9, "close_wheel_booking": 0.8,
        "update_firing_status": 0.8, "reserve_kiln_space": 1.5,
        "cancel_kiln_reservation": 0.9, "collect_pieces": 0.9,
    }
    names = list(tools)
    weights = [tools[t] for t in names]
    env = locals()
    out = []
    order = list(names)
    rng.shuffle(order)
    while len(out) < n:
        # first pass guarantees every tool shows up at least once
        name = order.pop() if order else rng.choices(names, weights)[0]
        valid = rng.random() < (0.72 if name.startswith(("get_", "list_")) else 0.58)
        args = _try(env[("v_" if valid else "i_") + name])
        if args is None and valid:
            args = _try(env["i_" + name])
        if args is None:
            continue
        out.append((name, args))
    return out


def _try(fn):
    try:
        return fn()
    except (TypeError, KeyError, IndexError, ValueError):
        return None  # the data offered no candidate for this variant
