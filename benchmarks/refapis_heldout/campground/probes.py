"""Probe generator for the campground reservation API: ~60% valid calls, ~40% that must be refused."""
import datetime as dt

TOOLS = ["list_campsites", "close_campsite", "get_camper", "register_camper", "get_reservation",
         "list_reservations", "create_reservation", "change_reservation_dates",
         "cancel_reservation", "check_in", "check_out", "mark_no_show", "list_permits",
         "issue_permit"]
FIRST = ["Harriet", "Jonas", "Lucia", "Mateo", "Sunniva", "Tobias", "Wren", "Yara"]
LAST = ["Ashdown", "Brightwater", "Cole", "Delacroix", "Fenwick", "Greer", "Morales", "Tanaka"]
REASONS = ["change_of_plans", "weather", "illness", "other"]
CLOSE_REASONS = ["Bear activity", "Flooded pad", "Water line repair", "Hazard tree"]


def _iso(d):
    return d.isoformat()


def probes(db, rng, n, with_expect=False):
    today = dt.date.fromisoformat(db["meta"]["today"])
    D = lambda s: dt.date.fromisoformat(s)
    sites, campers, res, permits = db["campsites"], db["campers"], db["reservations"], db["permits"]
    sids, cids, rids = sorted(sites), sorted(campers), sorted(res)
    C = rng.choice
    active = lambda r: r["status"] in ("reserved", "checked_in")
    by = {}
    for rid in rids:
        by.setdefault(res[rid]["status"], []).append(rid)
    held = {}
    for p in permits.values():
        if p["status"] == "issued":
            held.setdefault(p["reservation_id"], set()).add(p["permit_type"])
    n_reserved = {c: sum(1 for r in res.values() if r["camper_id"] == c and r["status"] == "reserved")
                  for c in cids}

    def clash(site_id, camper_id, a, d, skip=None):
        for rid, r in res.items():
            if rid != skip and active(r) and a < D(r["departure_date"]) and D(r["arrival_date"]) < d:
                if r["site_id"] == site_id or r["camper_id"] == camper_id:
                    return True
        return False

    def free_dates(site_id, camper_id, skip=None, tries=40):
        for _ in range(tries):
            a = today + dt.timedelta(days=rng.randint(0, 90))
            d = a + dt.timedelta(days=rng.randint(1, 6))
            if not clash(site_id, camper_id, a, d, skip):
                return a, d
        return None

    def party_for(s, ok=True):
        if ok:
            lo = 8 if s["site_type"] == "group" else 1
            return rng.randint(lo, s["max_occupancy"])
        if s["site_type"] == "group" and rng.random() < 0.5:
            return rng.randint(1, 7)
        return s["max_occupancy"] + rng.randint(1, 3)

    def permit_ok(rid, pt):
        r = res[rid]
        s = sites[r["site_id"]]
        if not active(r) or pt in held.get(rid, ()):
            return False
        if pt == "campfire":
            return s["site_type"] != "cabin" and s["loop"] not in db["meta"]["fire_ban_loops"]
        if pt == "generator":
            return s["site_type"] == "rv"
        return r["vehicles"] >= s["max_vehicles"]

    open_sites = [s for s in sids if sites[s]["status"] == "open"]
    free_campers = [c for c in cids if campers[c]["status"] == "active" and n_reserved[c] < 3]
    future = [r for r in by.get("reserved", []) if D(res[r]["arrival_date"]) > today]
    changeable = [r for r in future if res[r]["date_changes"] < 2]
    arrived = [r for r in by.get("reserved", []) if D(res[r]["arrival_date"]) <= today]
    late = [r for r in by.get("reserved", []) if D(res[r]["arrival_date"]) < today]
    can_in = [r for r in arrived if today < D(res[r]["departure_date"])
              and not sites[res[r]["site_id"]]["current_reservation_id"]]
    blocked_in = [r for r in arrived if today < D(res[r]["departure_date"])
                  and sites[res[r]["site_id"]]["current_reservation_id"]]
    cancellable = [r for r in by.get("reserved", []) if D(res[r]["arrival_date"]) >= today]
    closable = [s for s in open_sites if not sites[s]["current_reservation_id"]]
    permit_pairs = [(r, pt) for r in rids for pt in ("campfire", "generator", "extra_vehicle")
                    if permit_ok(r, pt)]

    def valid(tool):
        if tool == "list_campsites":
            a = {}
            if rng.random() < 0.4:
                a["site_type"] = C(["tent", "rv", "group", "cabin"])
            if rng.random() < 0.3:
                a["loop"] = C(["A", "b", "C", "D"])
            if rng.random() < 0.2:
                a["accessible"] = C([True, False])
            if rng.random() < 0.2:
                a["electric_hookup"] = C([True, False])
            if rng.random() < 0.2:
                a["status"] = C(["open", "closed"])
            if rng.random() < 0.3:
                a["party_size"] = rng.randint(1, 12)
            if rng.random() < 0.5:
                x = today + dt.timedelta(days=rng.randint(-3, 40))
                a.update(arrival_date=_iso(x), departure_date=_iso(x + dt.timedelta(days=rng.randint(1, 5))))
            return a
        if tool == "close_campsite":
            return {"site_id": C(closable), "reason": C(CLOSE_REASONS)}
        if tool == "get_camper":
            return {"camper_id": C(cids)}
        if tool == "register_camper":
            fn, ln = C(FIRST), C(LAST)
            a = {"full_name": f"{fn} {ln}", "email": f"{fn}.{ln}{rng.randint(1, 999)}@Trailmail.example"}
            if rng.random() < 0.5:
                a["phone"] = f"+1-307-555-{rng.randint(1000, 9999)}"
            if rng.random() < 0.6:
                a["pass_type"] = C(["none", "senior", "access"])
            return a
        if tool == "get_reservation":
            return {"reservation_id": C(rids)}
        if tool == "list_reservations":
            a = {}
            if rng.random() < 0.3:
                a["camper_id"] = C(cids)
            if rng.random() < 0.2:
                a["site_id"] = C(sids)
            if rng.random() < 0.4:
                a["status"] = C(["reserved", "checked_in", "checked_out", "cancelled", "no_show"])
            if rng.random() < 0.3:
                a["arrival_from"] = _iso(today + dt.timedelta(days=rng.randint(-20, 10)))
            if rng.random() < 0.3:
                a["arrival_to"] = _iso(today + dt.timedelta(days=rng.randint(0, 30)))
            if rng.random() < 0.3:
                nm = campers[C(cids)]["full_name"].split()[-1]
                a["camper_name"] = C([nm.lower(), nm.upper(), nm[:4]])
            return a
        if tool == "create_reservation":
            for _ in range(60):
                c, s = C(free_campers), sites[C(open_sites)]
                fd = free_dates(s["site_id"], c, tries=5)
                if fd:
                    a = {"camper_id": c, "site_id": s["site_id"], "arrival_date": _iso(fd[0]),
                         "departure_date": _iso(fd[1]), "party_size": party_for(s)}
                    if rng.random() < 0.6:
                        a["vehicles"] = rng.randint(0, s["max_vehicles"])
                    return a
            return None
        if tool == "change_reservation_dates":
            for _ in range(20):
                r = res[C(changeable)]
                fd = free_dates(r["site_id"], r["camper_id"], skip=r["reservation_id"], tries=10)
                if fd:
                    return {"reservation_id": r["reservation_id"], "arrival_date": _iso(fd[0]),
                            "departure_date": _iso(fd[1])}
            return None
        if tool == "cancel_reservation":
            return {"reservation_id": C(cancellable), "reason": C(REASONS)}
        if tool == "check_in":
            return {"reservation_id": C(can_in)}
        if tool == "check_out":
            return {"reservation_id": C(by["checked_in"])}
        if tool == "mark_no_show":
            return {"reservation_id": C(late)}
        if tool == "list_permits":
            a = {}
            if rng.random() < 0.5:
                a["reservation_id"] = C([p["reservation_id"] for p in permits.values()] + rids[:5])
            if rng.random() < 0.4:
                a["permit_type"] = C(["campfire", "generator", "extra_vehicle"])
            if rng.random() < 0.3:
                a["status"] = C(["issued", "void"])
            return a
        if tool == "issue_permit":
            rid, pt = C(permit_pairs)
            a = {"reservation_id": rid, "permit_type": pt}
            if pt == "extra_vehicle":
                a["vehicle_plate"] = C(["7kfr221", "WY-4821", "CO5512", "TX99"])
            return a

    def invalid(tool):
        k = rng.randrange(6)
        if tool == "list_campsites":
            x = _iso(today + dt.timedelta(days=5))
            return C([{"site_type": "yurt"}, {"arrival_date": x}, {"departure_date": x},
                      {"arrival_date": x, "departure_date": x}, {"party_size": 0},
                      {"accessible": "yes"}, {"status": "maintenance"},
                      {"arrival_date": "07/20/2025", "departure_date": "07/22/2025"},
                      {"site_id": "A01"}])
        if tool == "close_campsite":
            occupied = [s for s in sids if sites[s]["current_reservation_id"]]
            closed = [s for s in sids if sites[s]["status"] == "closed"]
            return C([{"site_id": C(occupied), "reason": "Bear activity"},
                      {"site_id": C(closed), "reason": "Still closed"},
                      {"site_id": "E01", "reason": "Flooding"}, {"site_id": C(closable)},
                      {"site_id": C(closable), "reason": "   "}])
        if tool == "get_camper":
            return C([{"camper_id": "CMP0999"}, {"camper_id": C(cids).lower()}, {},
                      {"camper_id": 17}])
        if tool == "register_camper":
            c = campers[C(cids)]
            return C([{"full_name": "Dana Whitfield", "email": c["email"].upper()},
                      {"full_name": "Dana Whitfield", "email": c["email"]},
                      {"full_name": "Dana Whitfield", "email": "dana.whitfield.example.com"},
                      {"full_name": "Dana Whitfield", "email": "dana@whitfield"},
                      {"email": "dana@whitfield.example"},
                      {"full_name": "", "email": "dana@whitfield.example"},
                      {"full_name": "Dana Whitfield", "email": "dana@whitfield.example",
                       "pass_type": "military"}])
        if tool == "get_reservation":
            return C([{"reservation_id": "RES9999"}, {"reservation_id": "res0001"}, {}])
        if tool == "list_reservations":
            return C([{"camper_id": "CMP0999"}, {"site_id": "Z99"}, {"status": "pending"},
                      {"arrival_from": "2025-13-01"}, {"arrival_to": "next week"},
                      {"camper_name": "  "}])
        if tool == "create_reservation":
            c, s = C(free_campers), sites[C(open_sites)]
            a = {"camper_id": c, "site_id": s["site_id"],
                 "arrival_date": _iso(today + dt.timedelta(days=30)),
                 "departure_date": _iso(today + dt.timedelta(days=32)),
                 "party_size": party_for(s)}
            busy = [r for r in rids if active(res[r]) and D(res[r]["departure_date"]) > today]
            full = [x for x in cids if n_reserved[x] >= 3 and campers[x]["status"] == "active"]
            m = rng.randrange(13)
            if m == 0:
                a["camper_id"] = C([x for x in cids if campers[x]["status"] == "suspended"])
            elif m == 1:
                a["site_id"] = C([x for x in sids if sites[x]["status"] == "closed"])
            elif m == 2:
                a.update(arrival_date=_iso(today - dt.timedelta(days=rng.randint(1, 10))),
                         departure_date=_iso(today + dt.timedelta(days=1)))
            elif m == 3:
                x = today + dt.timedelta(days=rng.randint(181, 240))
                a.update(arrival_date=_iso(x), departure_date=_iso(x + dt.timedelta(days=2)))
            elif m == 4:
                a["departure_date"] = _iso(today + dt.timedelta(days=30 + rng.randint(15, 20)))
            elif m == 5:
                a["departure_date"] = C([a["arrival_date"], _iso(today + dt.timedelta(days=29))])
            elif m == 6:
                a["party_size"] = party_for(s, ok=False)
            elif m == 7:
                a["vehicles"] = s["max_vehicles"] + rng.randint(1, 2)
            elif m == 8 and full:
                a["camper_id"] = C(full)
            elif m == 9:
                r = res[C(busy)]
                s = sites[r["site_id"]]
                x = max(D(r["arrival_date"]), today)
                a.update(site_id=r["site_id"], arrival_date=_iso(x), party_size=party_for(s),
                         departure_date=_iso(x + dt.timedelta(days=1)))
                if s["status"] != "open" or clash(s["site_id"], a["camper_id"], x, x + dt.timedelta(days=1)) is False:
                    a["site_id"] = "Z99"
            elif m == 10:
                r = res[C(busy)]
                x = max(D(r["arrival_date"]), today)
                a.update(camper_id=r["camper_id"], arrival_date=_iso(x),
                         departure_date=_iso(x + dt.timedelta(days=1)))
            elif m == 11:
                a["arrival_date"] = "2025-02-30"
            else:
                a["party_size"] = str(a["party_size"])
            return a
        if tool == "change_reservation_dates":
            x = today + dt.timedelta(days=rng.randint(20, 50))
            good = {"arrival_date": _iso(x), "departure_date": _iso(x + dt.timedelta(days=2))}
            twice = [r for r in future if res[r]["date_changes"] >= 2]
            other = [r for r in rids if res[r]["status"] != "reserved"]
            m = rng.randrange(6)
            if m == 0:
                return dict(good, reservation_id=C(other))
            if m == 1 and arrived:
                return dict(good, reservation_id=C(arrived))
            if m == 2 and twice:
                return dict(good, reservation_id=C(twice))
            r = C(changeable)
            if m == 3:
                return {"reservation_id": r, "arrival_date": _iso(today - dt.timedelta(days=1)),
                        "departure_date": _iso(today + dt.timedelta(days=2))}
            if m == 4:
                return {"reservation_id": r, "arrival_date": _iso(x),
                        "departure_date": _iso(x + dt.timedelta(days=15))}
            return {"reservation_id": r, "arrival_date": _iso(x), "departure_date": _iso(x)}
        if tool == "cancel_reservation":
            done = [r for r in rids if res[r]["status"] != "reserved"]
            return C([{"reservation_id": C(done), "reason": C(REASONS)},
                      {"reservation_id": C(late), "reason": "weather"},
                      {"reservation_id": C(cancellable), "reason": "site_closed"},
                      {"reservation_id": C(cancellable)},
                      {"reservation_id": "RES0000", "reason": "other"}])
        if tool == "check_in":
            gone = [r for r in arrived if D(res[r]["departure_date"]) <= today]
            pool = [future, by["checked_in"], by["cancelled"], by["checked_out"], blocked_in or future,
                    gone or future]
            return {"reservation_id": C(C(pool))}
        if tool == "check_out":
            return C([{"reservation_id": C(by["reserved"])}, {"reservation_id": C(by["checked_out"])},
                      {"reservation_id": C(by["no_show"])}, {"reservation_id": "RES1234"}])
        if tool == "mark_no_show":
            on_day = [r for r in by["reserved"] if D(res[r]["arrival_date"]) >= today]
            return {"reservation_id": C(C([on_day, by["checked_in"], by["no_show"], by["checked_out"]]))}
        if tool == "list_permits":
            return C([{"permit_type": "fishing"}, {"reservation_id": "RES9999"}, {"status": "expired"}])
        if tool == "issue_permit":
            act = [r for r in rids if active(res[r])]
            m = rng.randrange(9)
            if m == 0:
                return {"reservation_id": C(by["cancelled"] + by["checked_out"] + by["no_show"]),
                        "permit_type": "campfire"}
            if m == 1:
                pairs = [(r, t) for r in act for t in held.get(r, ())]
                r, t = C(pairs)
                a = {"reservation_id": r, "permit_type": t}
                if t == "extra_vehicle":
                    a["vehicle_plate"] = "QX-777"
                return a
            if m == 2:
                pool = [r for r in act if sites[res[r]["site_id"]]["loop"] in db["meta"]["fire_ban_loops"]
                        or sites[res[r]["site_id"]]["site_type"] == "cabin"]
                return {"reservation_id": C(pool), "permit_type": "campfire"}
            if m == 3:
                pool = [r for r in act if sites[res[r]["site_id"]]["site_type"] != "rv"]
                return {"reservation_id": C(pool), "permit_type": "generator"}
            if m == 4:
                pool = [r for r in act if res[r]["vehicles"] < sites[res[r]["site_id"]]["max_vehicles"]]
                return {"reservation_id": C(pool), "permit_type": "extra_vehicle", "vehicle_plate": "ABC123"}
            ev = [r for r, t in permit_pairs if t == "extra_vehicle"]
            if m == 5:
                return {"reservation_id": C(ev), "permit_type": "extra_vehicle"}
            if m == 6:
                return {"reservation_id": C(ev), "permit_type": "extra_vehicle",
                        "vehicle_plate": C(["A", "TOO-LONG-99", "AB 123", "ÄB123"])}
            if m == 7:
                r, t = C([(r, t) for r, t in permit_pairs if t != "extra_vehicle"])
                return {"reservation_id": r, "permit_type": t, "vehicle_plate": "KL-1200"}
            return {"reservation_id": C(rids), "permit_type": "firewood"}

    out = []
    while len(out) < n:
        tool = TOOLS[len(out) % len(TOOLS)] if rng.random() < 0.5 else C(TOOLS)
        ok = rng.random() < 0.57
        args = valid(tool) if ok else invalid(tool)
        if args is None:
            continue
        out.append((tool, args, ok) if with_expect else (tool, args))
    return out
