"""Differential probes for the Sunfold community solar API: ~60% valid calls, ~40% calls the docs say to refuse.

Each generator aims at a valid call (ok=True) or at one specific broken rule (ok=False); the candidate is
checked against the reference on a scratch copy so that the intended side is kept when possible.
"""
import copy
from datetime import date, timedelta

import ref_impl

LIVE = ("pending", "active", "suspended")


class _Ctx:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        self.G = db["gardens"]
        self.C = db["subscribers"]
        self.S = db["subscriptions"]
        self.W = db["waitlist"]
        self.gardens = sorted(self.G)
        self.subs = sorted(self.C)
        self.active_c = [c for c in self.subs if self.C[c]["account_status"] == "active"]
        self.other_c = [c for c in self.subs if self.C[c]["account_status"] != "active"]
        self.closed_c = [c for c in self.subs if self.C[c]["account_status"] == "closed"]
        self.sids = sorted(self.S)
        self.waits = sorted(self.W)
        self.starts = [date(2025, m, 1).isoformat() for m in range(7, 11)]

    def c(self, seq):
        return self.rng.choice(list(seq)) if seq else None

    def by_status(self, st):
        return [s for s in self.sids if self.S[s]["status"] == st]

    def live_at(self, cid, gid):
        return any(s["subscriber_id"] == cid and s["garden_id"] == gid and s["status"] in LIVE
                   for s in self.S.values())

    def queue(self, gid):
        return sorted(w for w in self.waits if self.W[w]["garden_id"] == gid and self.W[w]["status"] == "waiting")

    def same_util(self, cid, open_only=True):
        return [g for g in self.gardens if self.G[g]["utility"] == self.C[cid]["utility"]
                and (not open_only or self.G[g]["status"] != "retired")]

    def accepted(self, name, args):
        try:
            ref_impl.invoke(copy.deepcopy(self.db), name, copy.deepcopy(args))
            return True
        except ref_impl.RefError:
            return False


def g_list_gardens(x, ok):
    if ok:
        a = {}
        if x.rng.random() < 0.4:
            a["utility"] = x.c(ref_impl.UTILITIES)
        if x.rng.random() < 0.4:
            a["status"] = x.c(ref_impl.GARDEN_STATUSES)
        if x.rng.random() < 0.4:
            a["min_available_kw"] = x.c([0, 1, 2.5, 5, 10])
        if x.rng.random() < 0.3:
            a["q"] = x.c(["solar", "ALDER", "canopy", "Rooftop", "ridge", "zz"])
        return a
    return x.c([{"utility": "northwind"}, {"status": "active"}, {"min_available_kw": -1},
                {"min_available_kw": "5"}, {"status": "Operational"}, {"q": 12}])


def g_get_subscriber(x, ok):
    return {"subscriber_id": x.c(x.subs)} if ok else {"subscriber_id": x.c(["C9999", "c1001", "1001", "C101"])}


def g_list_subscriptions(x, ok):
    if ok:
        a = {}
        if x.rng.random() < 0.4:
            a["subscriber_id"] = x.c(x.subs)
        if x.rng.random() < 0.4:
            a["garden_id"] = x.c(x.gardens)
        if x.rng.random() < 0.5:
            a["status"] = x.c(ref_impl.SUB_STATUSES)
        return a
    return x.c([{"status": "cancelled"}, {"subscriber_id": "C0000"}, {"garden_id": "G99"},
                {"status": "Active"}, {"garden_id": "Cedar Hollow"}])


def g_list_waitlist(x, ok):
    if ok:
        a = {}
        if x.rng.random() < 0.5:
            a["garden_id"] = x.c(x.gardens)
        if x.rng.random() < 0.3:
            a["subscriber_id"] = x.c(x.subs)
        if x.rng.random() < 0.5:
            a["status"] = x.c(ref_impl.WAIT_STATUSES)
        return a
    return x.c([{"status": "pending"}, {"garden_id": "G21"}, {"subscriber_id": "C2000"}, {"status": "WAITING"}])


def _coverage(x, cid):
    return sum(s["share_kw"] * x.G[s["garden_id"]]["annual_yield_kwh_per_kw"]
               for s in x.S.values() if s["subscriber_id"] == cid and s["status"] in LIVE)


def g_update_subscriber(x, ok):
    editable = [c for c in x.subs if x.C[c]["account_status"] != "closed"]
    cid = x.c(editable)
    if ok:
        a = {"subscriber_id": cid}
        for k in x.rng.sample(["email", "phone", "mailing_address", "annual_usage_kwh", "paperless_statements"],
                              x.rng.randint(1, 3)):
            if k == "email":
                a[k] = x.c(["new.inbox@postwave.com", "accounts@hearth.org", "j.doe+solar@mailbox.net"])
            elif k == "phone":
                a[k] = "%03d-%03d-%04d" % (x.c([612, 763]), x.rng.randint(200, 999), x.rng.randint(0, 9999))
            elif k == "mailing_address":
                a[k] = x.c(["PO Box 418, Corwin", "77 Harbor Ln, Heron Bay", "2 Summit Ave Apt 3, Alder Falls"])
            elif k == "annual_usage_kwh":
                floor = int(_coverage(x, cid) / 1.2) + 1
                a[k] = max(floor, 1000, x.C[cid]["annual_usage_kwh"] + 100 * x.rng.randint(-20, 40))
            else:
                a[k] = not x.C[cid]["paperless_statements"]
        return a
    bad = x.rng.randint(0, 7)
    if bad == 0:
        return {"subscriber_id": x.c(x.closed_c), "phone": "612-555-0142"}
    if bad == 1:
        return {"subscriber_id": cid}
    if bad == 2:
        return {"subscriber_id": cid, "email": x.c(["jane.doe(at)mail.com", "no-at-sign.com", "a@b"])}
    if bad == 3:
        return {"subscriber_id": cid, "phone": x.c(["6125550142", "(612) 555-0142", "612.555.0142"])}
    if bad == 4:
        heavy = [c for c in editable if _coverage(x, c) > 4000]
        c2 = x.c(heavy)
        return {"subscriber_id": c2, "annual_usage_kwh": max(1000, int(_coverage(x, c2) / 1.2) - 200)}
    if bad == 5:
        return {"subscriber_id": cid, "annual_usage_kwh": x.c(["12000", 999, 9500.5, 2000000])}
    if bad == 6:
        return x.c([{"subscriber_id": cid, "paperless_statements": "yes"},
                    {"subscriber_id": cid, "mailing_address": "   "}])
    return {"subscriber_id": "C2001", "paperless_statements": True}


def _valid_create(x):
    for _ in range(60):
        cid = x.c(x.active_c)
        gid = x.c(x.same_util(cid))
        g = x.G[gid]
        if x.live_at(cid, gid):
            continue
        q = x.queue(gid)
        a = {"subscriber_id": cid, "garden_id": gid, "share_kw": 0.5 * x.rng.randint(2, 8),
             "start_date": x.c(x.starts)}
        if q:
            head = x.W[q[0]]
            a["subscriber_id"], a["waitlist_entry_id"] = head["subscriber_id"], q[0]
            a["share_kw"] = head["requested_kw"] - x.c([0.0, 0.0, 0.5]) if head["requested_kw"] > 1 else 1.0
        if g["status"] == "under_construction":
            a["start_date"] = x.c([s for s in x.starts if s >= g["commissioning_date"]] or x.starts)
        if x.accepted("create_subscription", a):
            return a
    return a


def g_create_subscription(x, ok):
    if ok:
        return _valid_create(x)
    a = dict(_valid_create(x))
    a.pop("waitlist_entry_id", None)
    bad = x.rng.randint(0, 10)
    if bad == 0:
        a["subscriber_id"] = x.c(x.other_c)
    elif bad == 1:
        cid = a["subscriber_id"]
        a["garden_id"] = x.c([g for g in x.gardens if x.G[g]["utility"] != x.C[cid]["utility"]])
    elif bad == 2:
        a["start_date"] = x.c(["2025-07-15", "2025-06-01", "2025-11-01", "2026-02-01", "07/01/2025", "2025-09-31"])
    elif bad == 3:
        a["share_kw"] = x.c([0.5, 0.75, 2.25, "3", 0])
    elif bad == 4:
        a["share_kw"] = float(x.G[a["garden_id"]]["capacity_kw"]) * 0.4 + 0.5
    elif bad == 5:
        busy = [(s["subscriber_id"], s["garden_id"]) for s in x.S.values() if s["status"] in LIVE
                and x.C[s["subscriber_id"]]["account_status"] == "active"]
        a["subscriber_id"], a["garden_id"] = x.c(busy)
        a["start_date"] = "2025-10-01"
    elif bad == 6:
        queued = [g for g in x.gardens if x.queue(g)]
        gid = x.c(queued)
        a["garden_id"] = gid
        a["subscriber_id"] = x.c([c for c in x.active_c if x.C[c]["utility"] == x.G[gid]["utility"]])
    elif bad == 7:
        queued = [g for g in x.gardens if len(x.queue(g)) >= 2]
        gid = x.c(queued)
        second = x.W[x.queue(gid)[1]]
        a.update(garden_id=gid, subscriber_id=second["subscriber_id"], waitlist_entry_id=second["id"],
                 share_kw=1.0, start_date="2025-09-01")
    elif bad == 8:
        a["garden_id"] = x.c([g for g in x.gardens if x.G[g]["status"] == "retired"])
    elif bad == 9:
        small = [c for c in x.active_c if x.C[c]["customer_type"] == "residential"]
        cid = x.c(small)
        a.update(subscriber_id=cid, garden_id=x.c(x.same_util(cid)), share_kw=11.5)
    else:
        a["garden_id"] = "G404"
    return a


def g_activate_subscription(x, ok):
    pend = x.by_status("pending")
    ready = [s for s in pend if x.S[s]["start_date"] <= x.db["meta"]["today"]
             and x.G[x.S[s]["garden_id"]]["status"] == "operational"
             and x.C[x.S[s]["subscriber_id"]]["account_status"] == "active"]
    if ok and ready:
        return {"subscription_id": x.c(ready)}
    bad = x.rng.randint(0, 3)
    if bad == 0:
        return {"subscription_id": x.c([s for s in pend if s not in ready])}
    if bad == 1:
        return {"subscription_id": x.c(x.by_status("active") + x.by_status("suspended"))}
    if bad == 2:
        return {"subscription_id": x.c(x.by_status("terminated"))}
    return {"subscription_id": x.c(["SA9999", "SA01", "S0001"])}


def g_suspend_subscription(x, ok):
    act = x.by_status("active")
    if ok:
        for _ in range(30):
            sid = x.c(act)
            a = {"subscription_id": sid, "reason": x.c(ref_impl.SUSPEND_REASONS)}
            if x.accepted("suspend_subscription", a):
                return a
        return a
    bad = x.rng.randint(0, 3)
    if bad == 0:
        poor = [s for s in act if x.C[x.S[s]["subscriber_id"]]["balance_due"] < 50]
        return {"subscription_id": x.c(poor), "reason": "nonpayment"}
    if bad == 1:
        return {"subscription_id": x.c(x.by_status("pending") + x.by_status("suspended") + x.by_status("terminated")),
                "reason": "subscriber_request"}
    if bad == 2:
        return {"subscription_id": x.c(act), "reason": x.c(["vacation", "Nonpayment", "", "meter"])}
    return {"subscription_id": "SA9999", "reason": "meter_issue"}


def g_resume_subscription(x, ok):
    sus = x.by_status("suspended")
    good = [s for s in sus if x.accepted("resume_subscription", {"subscription_id": s})]
    if ok and good:
        return {"subscription_id": x.c(good)}
    bad = [s for s in sus if s not in good]
    pick = x.rng.random()
    if bad and pick < 0.6:
        return {"subscription_id": x.c(bad)}
    if pick < 0.85:
        return {"subscription_id": x.c(x.by_status("active") + x.by_status("pending") + x.by_status("terminated"))}
    return {"subscription_id": "SA0000"}


def g_terminate_subscription(x, ok):
    live = [s for s in x.sids if x.S[s]["status"] in LIVE]
    if ok:
        sid = x.c(live)
        s = x.S[sid]
        reasons = ["subscriber_request", "subscriber_request", "relocation"]
        owed = [k for k in live if x.S[k]["suspension_reason"] == "nonpayment"]
        if x.rng.random() < 0.25 and owed:
            return {"subscription_id": x.c(owed), "reason": "nonpayment"}
        return {"subscription_id": sid, "reason": x.c(reasons)}
    bad = x.rng.randint(0, 3)
    if bad == 0:
        return {"subscription_id": x.c(x.by_status("terminated")), "reason": "subscriber_request"}
    if bad == 1:
        return {"subscription_id": x.c(live), "reason": x.c(["transferred", "garden_retired", "moving", "RELOCATION"])}
    if bad == 2:
        return {"subscription_id": x.c(x.by_status("active") + x.by_status("pending")), "reason": "nonpayment"}
    return {"subscription_id": "SA7777", "reason": "relocation"}


def _valid_transfer(x):
    act = x.by_status("active")
    for _ in range(80):
        sid = x.c(act)
        s = x.S[sid]
        g = x.G[s["garden_id"]]
        to = x.c([c for c in x.active_c if x.C[c]["utility"] == g["utility"] and c != s["subscriber_id"]])
        have = s["share_kw"]
        opts = [k * 0.5 for k in range(1, int(have * 2) + 1) if have - k * 0.5 >= 1.0 or k * 0.5 == have]
        a = {"subscription_id": sid, "to_subscriber_id": to, "share_kw": x.c(opts[:4] + [have])}
        if x.accepted("transfer_share", a):
            return a
    return a


def g_transfer_share(x, ok):
    if ok:
        return _valid_transfer(x)
    a = dict(_valid_transfer(x))
    s = x.S[a["subscription_id"]]
    g = x.G[s["garden_id"]]
    bad = x.rng.randint(0, 8)
    held = [k for k in x.sids if x.S[k]["status"] in ("pending", "suspended")
            and x.G[x.S[k]["garden_id"]]["status"] == "operational"
            and x.C[x.S[k]["subscriber_id"]]["account_status"] == "active"]
    if bad == 8 and held:
        h = x.S[x.c(held)]
        donors = [k for k in x.by_status("active") if x.S[k]["garden_id"] == h["garden_id"]]
        if donors:
            return {"subscription_id": x.c(donors), "to_subscriber_id": h["subscriber_id"], "share_kw": 0.5}
    if bad == 0:
        a["share_kw"] = s["share_kw"] - 0.5 if s["share_kw"] >= 1.5 else s["share_kw"] + 1
    elif bad == 1:
        a["share_kw"] = x.c([s["share_kw"] + 0.5, 0.3, 0, -1.0, "1"])
    elif bad == 2:
        a["to_subscriber_id"] = x.c([c for c in x.subs if x.C[c]["utility"] != g["utility"]])
    elif bad == 3:
        a["to_subscriber_id"] = x.c([c for c in x.other_c if x.C[c]["utility"] == g["utility"]])
    elif bad == 4:
        a["to_subscriber_id"] = s["subscriber_id"]
    elif bad == 5:
        a["subscription_id"] = x.c(x.by_status("pending") + x.by_status("suspended") + x.by_status("terminated"))
    elif bad == 6:
        cut = (x.today - timedelta(days=60)).isoformat()
        recent = sorted({t["from_subscription_id"] for t in x.db["transfers"].values()
                         if t["transferred_on"] >= cut and x.S[t["from_subscription_id"]]["status"] == "active"})
        a["subscription_id"] = x.c(recent)
        src = x.S[a["subscription_id"]]
        a["to_subscriber_id"] = x.c([c for c in x.active_c if x.C[c]["utility"] == x.G[src["garden_id"]]["utility"]
                                     and c != src["subscriber_id"]])
        a["share_kw"] = 0.5
    else:
        a["to_subscriber_id"] = "C0999"
    return a


def g_join_waitlist(x, ok):
    if ok:
        for _ in range(80):
            cid = x.c(x.active_c)
            gid = x.c(x.same_util(cid))
            a = {"subscriber_id": cid, "garden_id": gid, "requested_kw": 0.5 * x.rng.randint(2, 10)}
            if x.accepted("join_waitlist", a):
                return a
        return a
    cid = x.c(x.active_c)
    bad = x.rng.randint(0, 7)
    full = [c for c in x.active_c if sum(1 for w in x.W.values() if w["subscriber_id"] == c
                                          and w["status"] == "waiting") >= 3]
    if bad == 7 and full:
        c3 = x.c(full)
        return {"subscriber_id": c3, "garden_id": x.c([g for g in x.same_util(c3) if x.queue(g)]), "requested_kw": 2.0}
    roomy = [g for g in x.same_util(cid) if not x.queue(g)
             and x.G[g]["capacity_kw"] - x.G[g]["allocated_kw"] >= 3]
    if bad == 0 and roomy:
        return {"subscriber_id": cid, "garden_id": x.c(roomy), "requested_kw": 2.0}
    if bad == 1:
        return {"subscriber_id": cid, "garden_id": x.c([g for g in x.gardens if x.G[g]["utility"] != x.C[cid]["utility"]]),
                "requested_kw": 3.0}
    if bad == 2:
        w = x.W[x.c([w for w in x.waits if x.W[w]["status"] == "waiting"])]
        return {"subscriber_id": w["subscriber_id"], "garden_id": w["garden_id"], "requested_kw": 2.0}
    if bad == 3:
        s = x.S[x.c([s for s in x.sids if x.S[s]["status"] in LIVE])]
        return {"subscriber_id": s["subscriber_id"], "garden_id": s["garden_id"], "requested_kw": 2.0}
    if bad == 4:
        return {"subscriber_id": cid, "garden_id": x.c(x.same_util(cid)), "requested_kw": x.c([0.5, 1.25, 30.0, "2"])}
    if bad == 5:
        return {"subscriber_id": x.c(x.other_c), "garden_id": x.c(x.gardens), "requested_kw": 2.0}
    return {"subscriber_id": cid, "garden_id": x.c([g for g in x.gardens if x.G[g]["status"] == "retired"]),
            "requested_kw": 2.0}


def _next_period(g):
    y, m = map(int, g["last_posted_period"].split("-"))
    return ref_impl.add_months(date(y, m, 1), 1).isoformat()[:7]


def g_post_production(x, ok):
    oper = [g for g in x.gardens if x.G[g]["status"] == "operational"]
    lag = [g for g in oper if _next_period(x.G[g]) < x.db["meta"]["today"][:7]]
    if ok:
        gid = x.c(lag)
        g = x.G[gid]
        return {"garden_id": gid, "period": _next_period(g),
                "garden_kwh": round(g["capacity_kw"] * x.rng.uniform(95, 150), 1)}
    gid = x.c(oper)
    g = x.G[gid]
    a = {"garden_id": gid, "period": _next_period(g), "garden_kwh": round(g["capacity_kw"] * 120.0, 1)}
    bad = x.rng.randint(0, 5)
    if bad == 0:
        a["garden_id"] = x.c([k for k in oper if k not in lag])
        a["period"] = x.c(["2025-06", "2025-05"])
    elif bad == 1:
        a["garden_id"] = x.c(lag)
        a["period"] = x.G[a["garden_id"]]["last_posted_period"]
    elif bad == 2:
        a["garden_id"] = x.c(lag)
        a["period"] = ref_impl.add_months(date.fromisoformat(_next_period(x.G[a["garden_id"]]) + "-01"), 1).isoformat()[:7]
    elif bad == 3:
        a["garden_id"] = x.c(lag)
        a["period"] = _next_period(x.G[a["garden_id"]])
        a["garden_kwh"] = x.c([0, -250.0, x.G[a["garden_id"]]["capacity_kw"] * 744 + 1, "3600"])
    elif bad == 4:
        a["garden_id"] = x.c([k for k in x.gardens if x.G[k]["status"] != "operational"])
        a["period"] = "2025-05"
    else:
        a["garden_id"] = x.c(lag)
        a["period"] = x.c(["2025-5", "May 2025", "2025-13", "2025/05"])
    return a


GENS = [("list_gardens", g_list_gardens, 1), ("get_subscriber", g_get_subscriber, 1),
        ("list_subscriptions", g_list_subscriptions, 1), ("list_waitlist", g_list_waitlist, 1),
        ("update_subscriber", g_update_subscriber, 2), ("create_subscription", g_create_subscription, 3),
        ("activate_subscription", g_activate_subscription, 2), ("suspend_subscription", g_suspend_subscription, 2),
        ("resume_subscription", g_resume_subscription, 2), ("terminate_subscription", g_terminate_subscription, 2),
        ("transfer_share", g_transfer_share, 3), ("join_waitlist", g_join_waitlist, 2),
        ("post_production", g_post_production, 2)]


def probes(db, rng, n):
    x = _Ctx(db, rng)
    names = [g[0] for g in GENS]
    weights = [g[2] for g in GENS]
    fns = {g[0]: g[1] for g in GENS}
    out = []
    for i in range(n):
        name = names[i] if i < len(names) else rng.choices(names, weights)[0]
        ok = (i < len(names)) or rng.random() < 0.57
        out.append((name, fns[name](x, ok)))
    return out
