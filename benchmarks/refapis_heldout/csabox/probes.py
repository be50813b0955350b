"""Differential probes for the Greenfurrow Farm CSA box API."""
import copy
import datetime as dt
import importlib.util
import os

DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
SKIPS = {"small": 3, "standard": 4, "family": 5}
REASONS = ["moving", "cost", "too_much_produce", "schedule", "other"]
ISSUES = ["damaged", "missing_items", "wrong_box"]


def _ctx(db):
    today = dt.date.fromisoformat(db["meta"]["today"])
    c = {"today": today}
    subs, boxes = db["subscriptions"], db["boxes"]
    live = {s["member_id"] for s in subs.values() if s["status"] in ("active", "paused")}
    c["free_members"] = [m for m in db["members"].values()
                         if m["status"] == "active" and m["id"] not in live]
    c["blocked_members"] = [m for m in db["members"].values()
                            if m["status"] != "active" or m["id"] in live]
    c["open_sites"] = [s for s in db["sites"].values()
                       if s["active"] and s["enrolled_count"] < s["capacity"]]
    c["full_sites"] = [s for s in db["sites"].values()
                       if s["active"] and s["enrolled_count"] >= s["capacity"]]
    c["closed_sites"] = [s for s in db["sites"].values() if not s["active"]]
    c["plain_sites"] = [s for s in c["open_sites"] if not s["has_cooler"]]

    def days_out(b):
        return (dt.date.fromisoformat(b["pickup_date"]) - today).days

    c["days_out"] = days_out
    sched = [b for b in boxes.values() if b["status"] == "scheduled"]
    c["changeable"] = [b for b in sched if days_out(b) >= 2
                       and subs[b["subscription_id"]]["status"] == "active"]
    c["in_cutoff"] = [b for b in sched if 0 <= days_out(b) < 2]
    c["recordable"] = [b for b in sched if -6 <= days_out(b) <= 0]
    c["stale"] = [b for b in sched if days_out(b) < -6]
    c["future_sched"] = [b for b in sched if days_out(b) > 0]
    c["not_sched"] = [b for b in boxes.values() if b["status"] != "scheduled"]
    c["reportable"] = [b for b in boxes.values() if b["status"] == "picked_up"
                       and b["issue_type"] is None and -days_out(b) <= 5]
    c["late_report"] = [b for b in boxes.values() if b["status"] == "picked_up"
                        and b["issue_type"] is None and -days_out(b) > 5]
    c["has_issue"] = [b for b in boxes.values() if b["issue_type"] is not None]
    c["missed"] = [b for b in boxes.values() if b["status"] in ("missed", "skipped", "held")]
    c["active_addons"] = [a for a in db["addons"].values() if a["active"] and a["stock"] >= 2]
    c["bad_addons"] = [a for a in db["addons"].values() if not a["active"] or a["stock"] == 0]
    return c


def _pick(rng, seq):
    return rng.choice(seq) if seq else None


def _start_for(rng, today, site, lo=3, hi=35):
    first = today + dt.timedelta(days=lo)
    first += dt.timedelta(days=(DAYS.index(site["pickup_day"]) - first.weekday()) % 7)
    options = []
    d = first
    while (d - today).days <= hi:
        options.append(d)
        d += dt.timedelta(days=7)
    return rng.choice(options).isoformat()


def p_get_member(db, c, rng, ok):
    if ok:
        return {"member_id": rng.choice(list(db["members"]))}
    return {"member_id": rng.choice(["M999", "M0001", "X001", ""])}


def p_list_sites(db, c, rng, ok):
    if ok:
        a = {}
        if rng.random() < 0.5:
            a["pickup_day"] = rng.choice(["tuesday", "thursday", "saturday", "wednesday", "monday"])
        if rng.random() < 0.4:
            a["name_contains"] = rng.choice(["hall", "STREET", "Farm", "oak", "studio"])
        if rng.random() < 0.4:
            a["has_space"] = rng.random() < 0.5
        if rng.random() < 0.3:
            a["active"] = True
        return a
    return rng.choice([{"pickup_day": "Saturday"}, {"pickup_day": "sat"}, {"has_space": "yes"}])


def p_list_subscriptions(db, c, rng, ok):
    if ok:
        a = {}
        r = rng.random()
        if r < 0.4:
            a["member_id"] = rng.choice(list(db["members"]))
        elif r < 0.7:
            a["site_id"] = rng.choice(list(db["sites"]))
        if rng.random() < 0.5:
            a["status"] = rng.choice(["active", "paused", "cancelled"])
        if rng.random() < 0.3:
            a["plan"] = rng.choice(["small", "standard", "family"])
        return a
    return rng.choice([{"member_id": "M404"}, {"site_id": "P99"}, {"status": "ended"},
                       {"plan": "large"}])


def p_list_boxes(db, c, rng, ok):
    t = c["today"]
    if ok:
        a = {}
        r = rng.random()
        if r < 0.4:
            a["subscription_id"] = rng.choice(list(db["subscriptions"]))
        elif r < 0.6:
            a["member_id"] = rng.choice(list(db["members"]))
        if rng.random() < 0.4:
            a["status"] = rng.choice(["scheduled", "skipped", "held", "picked_up", "missed"])
        if rng.random() < 0.5:
            a["from_date"] = (t - dt.timedelta(days=rng.randint(0, 7))).isoformat()
            a["to_date"] = (t + dt.timedelta(days=rng.randint(0, 14))).isoformat()
        return a
    return rng.choice([{"subscription_id": "S9999"}, {"status": "delivered"},
                       {"from_date": "06/11/2025"}, {"from_date": "2025-02-30"},
                       {"from_date": (t + dt.timedelta(days=5)).isoformat(),
                        "to_date": t.isoformat()}])


def p_create_subscription(db, c, rng, ok):
    t = c["today"]
    if ok and c["free_members"] and c["open_sites"]:
        m = rng.choice(c["free_members"])
        site = rng.choice(c["open_sites"])
        plans = ["small", "standard"] + (["family"] if site["has_cooler"] else [])
        return {"member_id": m["id"], "plan": rng.choice(plans), "site_id": site["id"],
                "start_date": _start_for(rng, t, site)}
    if ok:
        return None
    m = _pick(rng, c["free_members"]) or rng.choice(list(db["members"].values()))
    site = _pick(rng, c["open_sites"]) or rng.choice(list(db["sites"].values()))
    a = {"member_id": m["id"], "plan": "small", "site_id": site["id"],
         "start_date": _start_for(rng, t, site)}
    kind = rng.randrange(9)
    if kind == 0:
        a["member_id"] = rng.choice(c["blocked_members"])["id"]
    elif kind == 1 and c["full_sites"]:
        s = rng.choice(c["full_sites"])
        a.update(site_id=s["id"], start_date=_start_for(rng, t, s))
    elif kind == 2 and c["closed_sites"]:
        s = rng.choice(c["closed_sites"])
        a.update(site_id=s["id"], start_date=_start_for(rng, t, s))
    elif kind == 3 and c["plain_sites"]:
        s = rng.choice(c["plain_sites"])
        a.update(site_id=s["id"], plan="family", start_date=_start_for(rng, t, s))
    elif kind == 4:
        d = dt.date.fromisoformat(a["start_date"]) + dt.timedelta(days=rng.choice([1, 2, 3]))
        a["start_date"] = d.isoformat()
    elif kind == 5:
        a["start_date"] = _start_for(rng, t, site, lo=36, hi=49)
    elif kind == 6:
        a["start_date"] = _start_for(rng, t, site, lo=-6, hi=2)
    elif kind == 7:
        a["plan"] = rng.choice(["medium", "Family", "jumbo"])
    else:
        a["member_id"] = "M777"
    return a


def _sub_ids(db, pred):
    return [s["id"] for s in db["subscriptions"].values() if pred(s)]


def p_pause_subscription(db, c, rng, ok):
    t = c["today"].isoformat()
    good = _sub_ids(db, lambda s: s["status"] == "active" and s["start_date"] <= t
                    and s["pause_count"] < 2)
    if ok and good:
        return {"subscription_id": rng.choice(good)}
    if ok:
        return None
    bad = _sub_ids(db, lambda s: s["status"] != "active" or s["start_date"] > t
                   or s["pause_count"] >= 2)
    return {"subscription_id": rng.choice(bad + ["S0000"])}


def p_resume_subscription(db, c, rng, ok):
    good = _sub_ids(db, lambda s: s["status"] == "paused"
                    and db["members"][s["member_id"]]["status"] == "active")
    if ok and good:
        return {"subscription_id": rng.choice(good)}
    if ok:
        return None
    bad = _sub_ids(db, lambda s: s["status"] != "paused"
                   or db["members"][s["member_id"]]["status"] != "active")
    held_back = _sub_ids(db, lambda s: s["status"] == "paused"
                         and db["members"][s["member_id"]]["status"] != "active")
    if held_back and rng.random() < 0.4:
        return {"subscription_id": rng.choice(held_back)}
    return {"subscription_id": rng.choice(bad + ["S0404"])}


def p_cancel_subscription(db, c, rng, ok):
    good = _sub_ids(db, lambda s: s["status"] != "cancelled")
    if ok and good:
        return {"subscription_id": rng.choice(good), "reason": rng.choice(REASONS)}
    if ok:
        return None
    if rng.random() < 0.6:
        return {"subscription_id": rng.choice(_sub_ids(db, lambda s: s["status"] == "cancelled")),
                "reason": rng.choice(REASONS)}
    return {"subscription_id": rng.choice(good), "reason": rng.choice(["price", "Moving", ""])}


def p_change_pickup_site(db, c, rng, ok):
    pairs, bad = [], []
    for s in db["subscriptions"].values():
        cur = db["sites"][s["site_id"]]
        for site in db["sites"].values():
            fits = (s["status"] != "cancelled" and site["id"] != cur["id"] and site["active"]
                    and site["pickup_day"] == cur["pickup_day"]
                    and site["enrolled_count"] < site["capacity"]
                    and (s["plan"] != "family" or site["has_cooler"]))
            (pairs if fits else bad).append((s["id"], site["id"]))
    if ok and pairs:
        sid, site = rng.choice(pairs)
    elif ok:
        return None
    else:
        sid, site = rng.choice(bad)
    return {"subscription_id": sid, "site_id": site}


def p_skip_box(db, c, rng, ok):
    subs = db["subscriptions"]
    good = [b for b in c["changeable"]
            if subs[b["subscription_id"]]["skips_used"] < SKIPS[subs[b["subscription_id"]]["plan"]]]
    if ok and good:
        return {"box_id": rng.choice(good)["id"]}
    if ok:
        return None
    spent = [b for b in c["changeable"] if b not in good]
    pool = [spent, c["in_cutoff"], c["not_sched"], [{"id": "B9999"}]]
    pool = [p for p in pool if p]
    return {"box_id": rng.choice(rng.choice(pool))["id"]}


def p_add_box_addon(db, c, rng, ok):
    ready = [b for b in c["changeable"] if len(b["addons"]) < 3
             and db["members"][b["member_id"]]["status"] == "active"]
    if ok and ready and c["active_addons"]:
        b = rng.choice(ready)
        on = {l["addon_id"] for l in b["addons"]}
        choices = [a for a in c["active_addons"] if a["id"] not in on]
        if choices:
            return {"box_id": b["id"], "addon_id": rng.choice(choices)["id"],
                    "quantity": rng.choice([1, 1, 2])}
    if ok:
        return None
    b = rng.choice(c["changeable"])
    a = {"box_id": b["id"], "addon_id": rng.choice(c["active_addons"])["id"], "quantity": 1}
    kind = rng.randrange(7)
    if kind == 0:
        a["addon_id"] = rng.choice(c["bad_addons"])["id"]
    elif kind == 1:
        a["quantity"] = rng.choice([0, 6, -1, "2"])
    elif kind == 2 and any(x["addons"] for x in c["changeable"]):
        b = rng.choice([x for x in c["changeable"] if x["addons"]])
        a.update(box_id=b["id"], addon_id=b["addons"][0]["addon_id"])
    elif kind == 3:
        a["box_id"] = rng.choice(c["in_cutoff"] or c["not_sched"])["id"]
    elif kind == 4:
        sus = [x for x in c["changeable"] if db["members"][x["member_id"]]["status"] != "active"]
        a["box_id"] = rng.choice(sus or c["not_sched"])["id"]
    elif kind == 5:
        a["addon_id"] = "A99"
    else:
        a["box_id"] = rng.choice(c["not_sched"])["id"]
    return a


def p_remove_box_addon(db, c, rng, ok):
    withs = [b for b in c["changeable"] if b["addons"]]
    if ok and withs:
        b = rng.choice(withs)
        return {"box_id": b["id"], "addon_id": rng.choice(b["addons"])["addon_id"]}
    if ok:
        return None
    kind = rng.randrange(3)
    if kind == 0:
        b = rng.choice(c["changeable"])
        on = {l["addon_id"] for l in b["addons"]}
        return {"box_id": b["id"],
                "addon_id": rng.choice([a for a in db["addons"] if a not in on])}
    locked = [b for b in c["in_cutoff"] if b["addons"]]
    if not locked or rng.random() < 0.4:
        locked = [b for b in db["boxes"].values() if b["addons"] and b not in c["changeable"]]
    if kind == 1 and locked:
        b = rng.choice(locked)
        return {"box_id": b["id"], "addon_id": b["addons"][0]["addon_id"]}
    return {"box_id": "B0000", "addon_id": "A01"}


def p_record_pickup(db, c, rng, ok):
    if ok and c["recordable"]:
        a = {"box_id": rng.choice(c["recordable"])["id"]}
        r = rng.random()
        if r < 0.35:
            a["outcome"] = "missed"
        elif r < 0.7:
            a["outcome"] = "picked_up"
        return a
    if ok:
        return None
    kind = rng.randrange(4)
    if kind == 0 and c["stale"]:
        return {"box_id": rng.choice(c["stale"])["id"]}
    if kind == 1:
        return {"box_id": rng.choice(c["future_sched"])["id"]}
    if kind == 2:
        return {"box_id": rng.choice(c["not_sched"])["id"], "outcome": "picked_up"}
    return {"box_id": rng.choice(c["recordable"] or c["future_sched"])["id"],
            "outcome": rng.choice(["collected", "no_show"])}


def p_report_box_issue(db, c, rng, ok):
    if ok and c["reportable"]:
        a = {"box_id": rng.choice(c["reportable"])["id"], "issue_type": rng.choice(ISSUES)}
        if rng.random() < 0.5:
            a["note"] = rng.choice(["lettuce slimy", "missing the kale", "box for someone else"])
        return a
    if ok:
        return None
    kind = rng.randrange(5)
    pool = {0: c["late_report"], 1: c["has_issue"], 2: c["missed"], 3: c["future_sched"]}.get(kind)
    if pool:
        return {"box_id": rng.choice(pool)["id"], "issue_type": rng.choice(ISSUES)}
    b = _pick(rng, c["reportable"]) or rng.choice(list(db["boxes"].values()))
    return {"box_id": b["id"], "issue_type": rng.choice(["bruised", "late", "DAMAGED"])}


GENERATORS = [
    (p_get_member, 3), (p_list_sites, 3), (p_list_subscriptions, 3), (p_list_boxes, 3),
    (p_create_subscription, 9), (p_pause_subscription, 6), (p_resume_subscription, 4),
    (p_cancel_subscription, 5), (p_change_pickup_site, 7), (p_skip_box, 9),
    (p_add_box_addon, 10), (p_remove_box_addon, 6), (p_record_pickup, 8),
    (p_report_box_issue, 7),
]


def _load_reference():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ref_impl.py")
    spec = importlib.util.spec_from_file_location("_csabox_ref_for_probes", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def probes(db, rng, n):
    """Draw n calls. A private copy of db is advanced with the reference as calls are drawn,
    so that the valid calls are valid at the point in the sequence where they are made."""
    ref = _load_reference()
    state = copy.deepcopy(db)
    gens = [g for g, _ in GENERATORS]
    weights = [w for _, w in GENERATORS]
    out = []
    for i in range(n):
        gen = gens[i % len(gens)] if i < len(gens) else rng.choices(gens, weights)[0]
        ok = rng.random() < 0.60
        c = _ctx(state)
        args = gen(state, c, rng, ok)
        tries = 0
        while args is None and tries < 20:
            gen = rng.choices(gens, weights)[0]
            args = gen(state, c, rng, ok)
            tries += 1
        if args is None:
            gen = p_get_member
            args = gen(state, c, rng, True)
        name = gen.__name__[2:]
        out.append((name, copy.deepcopy(args)))
        try:
            ref.invoke(state, name, copy.deepcopy(args))
        except ref.RefError:
            pass
    return out
