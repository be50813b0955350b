"""Probe generator for the allotments API: about 60% calls the rules accept, 40% they refuse."""
from datetime import date, timedelta

NEW_FIRST = ["Aoife", "Bartholomew", "Cerys", "Dev", "Esme", "Florin", "Greta", "Hamza", "Isla", "Jonah",
             "Kemi", "Lorcan", "Maud", "Nikhil", "Orla", "Piotr"]
NEW_LAST = ["Ainsworth", "Blackwood", "Carver", "Dunmore", "Eastoe", "Firth", "Goldring", "Hale",
            "Ingleby", "Jessop", "Kettering", "Lamb"]


class World:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        g, t, p, w, k, s = (db[c] for c in ("gardeners", "tenancies", "plots", "waiting_list", "key_loans", "sites"))
        self.sites = sorted(s)
        self.open_sites = [x for x in self.sites if s[x]["accepting_applications"]]
        self.closed_sites = [x for x in self.sites if not s[x]["accepting_applications"]]
        live_hh = {g[t_["gardener_id"]]["household_id"] for t_ in t.values() if t_["status"] in ("active", "on_notice")}
        self.key_holders = {x["gardener_id"] for x in k.values() if x["status"] == "out"}
        self.waits = {}
        for x in w.values():
            if x["status"] == "waiting":
                self.waits.setdefault(x["gardener_id"], []).append(x["site_id"])
        self.barred = sorted(x for x in g if g[x]["status"] == "barred")
        self.housed_hh = sorted(x for x in g if g[x]["household_id"] in live_hh)
        self.free = sorted(x for x in g if g[x]["status"] == "active" and g[x]["household_id"] not in live_hh)
        self.joinable = [x for x in self.free if len(self.waits.get(x, [])) < 2]
        self.two_lists = [x for x in self.free if len(self.waits.get(x, [])) >= 2]
        self.heads, self.behind = {}, {}
        for site in self.sites:
            q = sorted((x for x in w.values() if x["site_id"] == site and x["status"] == "waiting"),
                       key=lambda x: (x["joined_on"], x["id"]))
            if q:
                self.heads[site] = q[0]["gardener_id"]
                self.behind[site] = [x["gardener_id"] for x in q[1:]]
        self.vacant = {site: sorted(x for x in p if p[x]["site_id"] == site and p[x]["status"] == "vacant")
                       for site in self.sites}
        self.unlettable = sorted(x for x in p if p[x]["status"] != "vacant")
        self.let = sorted(x for x in p if p[x]["status"] == "let")
        cutoff = (self.today - timedelta(days=14)).isoformat()
        self.inspectable = [x for x in self.let if (p[x]["last_inspected_on"] or "") <= cutoff]
        self.fresh_insp = [x for x in self.let if (p[x]["last_inspected_on"] or "") > cutoff]
        self.ten = sorted(t)
        self.active = [x for x in self.ten if t[x]["status"] == "active"]
        self.notice = [x for x in self.ten if t[x]["status"] == "on_notice"]
        self.ended = [x for x in self.ten if t[x]["status"] in ("surrendered", "evicted")]
        self.live = self.active + self.notice

    def pick(self, seq, fallback=None):
        seq = list(seq)
        return self.rng.choice(seq) if seq else fallback

    def day(self, lo, hi):
        return (self.today + timedelta(days=self.rng.randint(lo, hi))).isoformat()

    def t(self, tid):
        return self.db["tenancies"][tid]

    def overdue(self, tid, grace):
        t = self.t(tid)
        return t["balance_due"] > 0 and (self.today - date.fromisoformat(t["rent_due_on"])).days > grace


def p_list_plots(w, ok):
    if ok:
        a = {}
        for key, val in (("site_id", w.pick(w.sites)), ("status", w.pick(["vacant", "let", "clearance", "withdrawn"])),
                         ("min_size_m2", w.pick([75, 100, 150, 200, 250])), ("water_tap", w.pick([True, False]))):
            if w.rng.random() < 0.45:
                a[key] = val
        return a
    return w.pick([{"site_id": "S09"}, {"status": "occupied"}, {"min_size_m2": "100"}, {"water_tap": "yes"},
                   {"site_id": "s01"}, {"min_size_m2": -10}, {"plot_size": 100}])


def p_search_gardeners(w, ok):
    if ok:
        g = w.db["gardeners"][w.pick(sorted(w.db["gardeners"]))]
        part = w.pick([g["name"].split()[-1], g["name"].split()[0], g["email"].split("@")[1]])
        q = w.pick([part, part.upper(), part.lower(), " %s " % part])
        a = {"query": q}
        if w.rng.random() < 0.3:
            a["status"] = w.pick(["active", "barred"])
        return a
    return w.pick([{"query": "a"}, {"query": "   "}, {}, {"query": "smith", "status": "evicted"}, {"query": 42}])


def p_list_waiting_list(w, ok):
    return {"site_id": w.pick(w.sites)} if ok else w.pick([{"site_id": "S07"}, {}, {"site_id": "Elm Lane"}])


def p_list_tenancies(w, ok):
    if ok:
        a = {}
        if w.rng.random() < 0.4:
            a["site_id"] = w.pick(w.sites)
        if w.rng.random() < 0.3:
            a["gardener_id"] = w.t(w.pick(w.ten))["gardener_id"]
        if w.rng.random() < 0.5:
            a["status"] = w.pick(["active", "on_notice", "surrendered", "evicted"])
        return a
    return w.pick([{"gardener_id": "G9999"}, {"status": "ended"}, {"site_id": "S00"}, {"gardener_id": "G12"}])


def p_register_gardener(w, ok):
    rng = w.rng
    first, last = w.pick(NEW_FIRST), w.pick(NEW_LAST)
    age = rng.randint(19, 80)
    dob = date(w.today.year - age, rng.randint(1, 12), rng.randint(1, 28))
    if (dob.month, dob.day) > (w.today.month, w.today.day):
        age -= 1
    conc = w.pick(["none", "low_income", "student"] + (["senior"] if age >= 66 else []))
    hh = w.pick(["H%03d" % rng.randint(700, 999), w.db["gardeners"][w.pick(w.free)]["household_id"]])
    a = {"name": "%s %s" % (first, last), "email": "%s.%s%d@%s" % (first.lower(), last.lower(), rng.randint(1, 99),
                                                                    w.pick(["mailbox.co.uk", "postmail.com"])),
         "date_of_birth": dob.isoformat(), "household_id": hh}
    if rng.random() < 0.7:
        a["concession"] = conc
    if rng.random() < 0.6:
        a["phone"] = "07%03d %06d" % (rng.randint(100, 999), rng.randint(0, 999999))
    if ok:
        return a
    bad = rng.randint(0, 8)
    if bad == 0:
        a["email"] = w.db["gardeners"][w.pick(sorted(w.db["gardeners"]))]["email"].upper()
    elif bad == 1:
        a["date_of_birth"] = date(w.today.year - 17, 12, 1).isoformat()
    elif bad == 2:
        a["date_of_birth"], a["concession"] = date(w.today.year - 50, 3, 3).isoformat(), "senior"
    elif bad == 3:
        a["email"] = w.pick(["no-at-sign.example.com", "two@@x.org", "user@localhost", ""])
    elif bad == 4:
        a["household_id"] = w.pick(["HH12", "H12", "h123", "H1234"])
    elif bad == 5:
        a["name"] = w.pick(["", "   "])
    elif bad == 6:
        a["concession"] = w.pick(["veteran", "Senior", "unwaged"])
    elif bad == 7:
        a["date_of_birth"] = w.pick(["1980-02-30", "12/05/1970", "1975-13-01"])
    else:
        del a["household_id"]
    return a


def p_join_waiting_list(w, ok):
    if ok:
        gid = w.pick(w.joinable)
        site = w.pick([s for s in w.open_sites if s not in w.waits.get(gid, [])])
        return {"gardener_id": gid, "site_id": site}
    bad = w.rng.randint(0, 6)
    if bad == 0:
        return {"gardener_id": w.pick(w.joinable), "site_id": w.pick(w.closed_sites)}
    if bad == 1:
        return {"gardener_id": w.pick(w.barred), "site_id": w.pick(w.open_sites)}
    if bad == 2:
        return {"gardener_id": w.pick(w.housed_hh), "site_id": w.pick(w.open_sites)}
    if bad == 3:
        gid = w.pick([g for g in w.free if w.waits.get(g)])
        return {"gardener_id": gid, "site_id": w.waits[gid][0]}
    if bad == 4:
        gid = w.pick(w.two_lists)
        return {"gardener_id": gid, "site_id": w.pick([s for s in w.open_sites if s not in w.waits[gid]])}
    if bad == 5:
        return {"gardener_id": "G0999", "site_id": w.pick(w.open_sites)}
    return {"gardener_id": w.pick(w.joinable), "site_id": "S10"}


def p_start_tenancy(w, ok):
    sites = [s for s in w.sites if w.vacant[s] and s in w.heads]
    site = w.pick(sites)
    a = {"plot_id": w.pick(w.vacant[site]), "gardener_id": w.heads[site], "start_date": w.day(0, 30)}
    if ok:
        return a
    bad = w.rng.randint(0, 6)
    if bad == 0:
        a["gardener_id"] = w.pick(w.behind[site], w.pick(w.barred))
    elif bad == 1:
        a["plot_id"] = w.pick(w.unlettable)
    elif bad == 2:
        a["start_date"] = w.pick([w.day(-30, -1), w.day(31, 90)])
    elif bad == 3:
        a["gardener_id"] = w.pick([w.heads[s] for s in w.heads if w.heads[s] != w.heads[site]
                                   and site not in w.waits.get(w.heads[s], [])])
    elif bad == 4:
        a["gardener_id"] = w.pick(w.housed_hh)
    elif bad == 5:
        a["start_date"] = w.pick(["2025/07/01", "next week", "2025-06-31"])
    else:
        a["plot_id"] = "P999"
    return a


def p_record_inspection(w, ok):
    a = {"plot_id": w.pick(w.inspectable), "outcome": w.pick(["good", "fair", "poor", "poor"]),
         "inspector": w.pick(["R. Oakley", "J. Birch", "S. Hollins", "M. Tanaka", "T. Greaves"])}
    if w.rng.random() < 0.5:
        a["notes"] = w.pick(["Paths overgrown.", "Good crop of beans.", "Compost bins unsafe.", "Tidy."])
    if ok:
        return a
    bad = w.rng.randint(0, 4)
    if bad == 0:
        a["plot_id"] = w.pick([p for p in w.db["plots"] if p not in w.let])
    elif bad == 1:
        a["plot_id"] = w.pick(w.fresh_insp, "P000")
    elif bad == 2:
        a["outcome"] = w.pick(["excellent", "Poor", "bad"])
    elif bad == 3:
        a["inspector"] = "  "
    else:
        del a["outcome"]
    return a


def p_serve_notice(w, ok):
    cult = [t for t in w.active if w.t(t)["warnings"] >= 2]
    arr = [t for t in w.active if w.overdue(t, 28)]
    if ok:
        return w.pick([{"tenancy_id": w.pick(cult), "reason": "cultivation"},
                       {"tenancy_id": w.pick(arr), "reason": "arrears"}])
    bad = w.rng.randint(0, 5)
    if bad == 0:
        return {"tenancy_id": w.pick([t for t in w.active if w.t(t)["warnings"] < 2]), "reason": "cultivation"}
    if bad == 1:
        return {"tenancy_id": w.pick([t for t in w.active if not w.overdue(t, 28)]), "reason": "arrears"}
    if bad == 2:
        return {"tenancy_id": w.pick(w.notice), "reason": w.pick(["arrears", "cultivation"])}
    if bad == 3:
        return {"tenancy_id": w.pick(w.ended), "reason": "cultivation"}
    if bad == 4:
        return {"tenancy_id": w.pick(cult), "reason": w.pick(["nuisance", "other"])}
    return {"tenancy_id": "T9999", "reason": "arrears"}


def p_surrender_tenancy(w, ok):
    good = [t for t in w.active if w.t(t)["start_date"] <= w.today.isoformat()
            and w.t(t)["gardener_id"] not in w.key_holders]
    if ok:
        return {"tenancy_id": w.pick(good)}
    keyed = [t for t in w.active if w.t(t)["gardener_id"] in w.key_holders]
    return {"tenancy_id": w.pick([w.pick(w.notice), w.pick(w.ended), w.pick(keyed), "T0000", "T12"])}


def p_enforce_eviction(w, ok):
    due = [t for t in w.notice if w.t(t)["eviction_date"] <= w.today.isoformat()]
    if ok:
        return {"tenancy_id": w.pick([t for t in due if w.t(t)["gardener_id"] not in w.key_holders])}
    cands = [w.pick(w.active), w.pick(w.ended), "T9999",
             w.pick([t for t in w.notice if t not in due], w.pick(w.active)),
             w.pick([t for t in due if w.t(t)["gardener_id"] in w.key_holders], w.pick(w.ended))]
    return {"tenancy_id": w.pick(cands)}


def p_record_payment(w, ok):
    owing = [t for t in w.live if w.t(t)["balance_due"] > 0]
    tid = w.pick(owing)
    bal = w.t(tid)["balance_due"]
    method = w.pick(["card", "cash", "bank_transfer", "cheque"])
    if ok:
        amt = w.pick([bal, bal, round(bal / 2, 2), round(min(bal, 10.0), 2)])
        return {"tenancy_id": tid, "amount": amt if amt > 0 else bal, "method": method}
    bad = w.rng.randint(0, 6)
    if bad == 0:
        return {"tenancy_id": tid, "amount": round(bal + w.pick([0.01, 5, 50]), 2), "method": method}
    if bad == 1:
        return {"tenancy_id": tid, "amount": w.pick([0, -5.0, 0.0]), "method": method}
    if bad == 2:
        return {"tenancy_id": tid, "amount": w.pick([1.005, 2.499, 0.001]), "method": method}
    if bad == 3:
        return {"tenancy_id": w.pick(w.ended), "amount": 5.0, "method": method}
    if bad == 4:
        return {"tenancy_id": w.pick([t for t in w.live if w.t(t)["balance_due"] == 0]), "amount": 1.0,
                "method": method}
    if bad == 5:
        return {"tenancy_id": tid, "amount": bal, "method": w.pick(["paypal", "Card", "voucher"])}
    return {"tenancy_id": tid, "amount": str(bal), "method": method}


def p_lend_key(w, ok):
    db = w.db
    cands = [t for t in w.active if w.t(t)["gardener_id"] not in w.key_holders and not w.overdue(t, 0)
             and db["sites"][w.t(t)["site_id"]]["keys_out"] < db["sites"][w.t(t)["site_id"]]["keys_total"]]
    if ok:
        t = w.t(w.pick(cands))
        return {"gardener_id": t["gardener_id"], "site_id": t["site_id"]}
    bad = w.rng.randint(0, 6)
    if bad == 0:
        t = w.t(w.pick(cands))
        return {"gardener_id": t["gardener_id"], "site_id": w.pick([s for s in w.sites if s != t["site_id"]])}
    if bad == 1:
        t = w.t(w.pick([t for t in w.active if db["sites"][w.t(t)["site_id"]]["keys_out"]
                        >= db["sites"][w.t(t)["site_id"]]["keys_total"]]))
        return {"gardener_id": t["gardener_id"], "site_id": t["site_id"]}
    if bad == 2:
        t = w.t(w.pick([t for t in w.active if w.t(t)["gardener_id"] in w.key_holders]))
        return {"gardener_id": t["gardener_id"], "site_id": t["site_id"]}
    if bad == 3:
        t = w.t(w.pick([t for t in w.active if w.overdue(t, 0)]))
        return {"gardener_id": t["gardener_id"], "site_id": t["site_id"]}
    if bad == 4:
        return {"gardener_id": w.pick(w.free), "site_id": w.pick(w.sites)}
    if bad == 5:
        t = w.t(w.pick(w.notice))
        return {"gardener_id": t["gardener_id"], "site_id": t["site_id"]}
    return {"gardener_id": "G0000", "site_id": "S01"}


def p_return_key(w, ok):
    loans = w.db["key_loans"]
    if ok:
        return {"loan_id": w.pick(sorted(k for k in loans if loans[k]["status"] == "out"))}
    return {"loan_id": w.pick([w.pick(sorted(k for k in loans if loans[k]["status"] == "returned")), "K9999", "KEY1"])}


TABLE = [("list_plots", p_list_plots, 1), ("search_gardeners", p_search_gardeners, 1),
         ("list_waiting_list", p_list_waiting_list, 1), ("list_tenancies", p_list_tenancies, 1),
         ("register_gardener", p_register_gardener, 2), ("join_waiting_list", p_join_waiting_list, 2),
         ("start_tenancy", p_start_tenancy, 3), ("record_inspection", p_record_inspection, 2),
         ("serve_notice", p_serve_notice, 2), ("surrender_tenancy", p_surrender_tenancy, 2),
         ("enforce_eviction", p_enforce_eviction, 2), ("record_payment", p_record_payment, 2),
         ("lend_key", p_lend_key, 2), ("return_key", p_return_key, 2)]


def probes(db, rng, n):
    w = World(db, rng)
    names = [row[0] for row in TABLE]
    weights = [row[2] for row in TABLE]
    gen = {row[0]: row[1] for row in TABLE}
    out = []
    for i in range(n):
        if i < 2 * len(names):
            name, ok = names[i % len(names)], i < len(names)
        else:
            name, ok = rng.choices(names, weights)[0], rng.random() < 0.6
        out.append((name, gen[name](w, ok)))
    return out
