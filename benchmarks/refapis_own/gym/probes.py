"""Differential probes for the class-booking reference API: ~60% valid calls, ~40% the docs say to refuse."""
from datetime import date, timedelta

LIVE = ("booked", "waitlisted")


class _Ctx:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        t = self.today.isoformat()
        mem, cls, bk = db["members"], db["classes"], db["bookings"]
        self.members = sorted(mem)
        self.active_m = [m for m in self.members if mem[m]["status"] == "active"]
        self.frozen_m = [m for m in self.members if mem[m]["status"] == "frozen"]
        self.noshow_m = [m for m in self.active_m if mem[m]["no_shows"] >= 3]
        self.payers = [m for m in self.members if mem[m]["plan"] != "unlimited"]
        self.unlimited = [m for m in self.members if mem[m]["plan"] == "unlimited"]
        self.classes = sorted(cls)
        self.future = [c for c in self.classes if cls[c]["status"] == "scheduled" and cls[c]["date"] > t]
        self.today_c = [c for c in self.classes if cls[c]["status"] == "scheduled" and cls[c]["date"] == t]
        self.past_open = [c for c in self.classes if cls[c]["status"] == "scheduled" and cls[c]["date"] <= t]
        self.closed_c = [c for c in self.classes if cls[c]["status"] != "scheduled"]
        self.days = {}
        for b in bk.values():
            if b["status"] in ("booked", "waitlisted", "attended"):
                self.days.setdefault(b["member_id"], set()).add(cls[b["class_id"]]["date"])
        self.wait = {c: sum(1 for b in bk.values() if b["class_id"] == c and b["status"] == "waitlisted")
                     for c in self.classes}
        self.bookings = sorted(bk)
        self.live_future = [b for b in self.bookings if bk[b]["status"] in LIVE and cls[bk[b]["class_id"]]["date"] > t]
        self.live_past = [b for b in self.bookings if bk[b]["status"] in LIVE and cls[bk[b]["class_id"]]["date"] <= t]
        self.booked_today = [b for b in self.bookings if bk[b]["status"] == "booked" and bk[b]["class_id"] in self.today_c]
        self.booked_future = [b for b in self.bookings if bk[b]["status"] == "booked" and bk[b]["class_id"] in self.future]
        self.dead = [b for b in self.bookings if bk[b]["status"] not in LIVE]
        self.attended_c = {bk[b]["class_id"] for b in self.bookings if bk[b]["status"] == "attended"}

    def c(self, seq):
        return self.rng.choice(seq)

    def can_book(self, m, c):
        mm, cc = self.db["members"][m], self.db["classes"][c]
        cost = 0 if mm["plan"] == "unlimited" else cc["credit_cost"]
        return (mm["status"] == "active" and mm["no_shows"] < 3 and c in self.future
                and not (cc["level"] == "advanced" and mm["plan"] == "basic")
                and cc["date"] not in self.days.get(m, set()) and mm["credits"] >= cost
                and (cc["booked_count"] < cc["capacity"] or self.wait[c] < 3))


def g_get_member(x, ok):
    return {"member_id": x.c(x.members)} if ok else {"member_id": x.c(["M404", "m001", "K0001"])}


def g_list_classes(x, ok):
    if not ok:
        return x.c([{"date": "15/09/2025"}, {"status": "open"}, {"has_space": "yes"}, {"date": "2025-09-31"}])
    a = {}
    if x.rng.random() < 0.5:
        a["date"] = (x.today + timedelta(days=x.rng.randint(-3, 6))).isoformat()
    if x.rng.random() < 0.4:
        a["activity"] = x.c(["spin", "YOGA", "hiit", "box", "flow", "zumba"])
    if x.rng.random() < 0.3:
        a["status"] = x.c(["scheduled", "completed", "cancelled"])
    if x.rng.random() < 0.3:
        a["has_space"] = x.c([True, False])
    return a


def g_get_class(x, ok):
    return {"class_id": x.c(x.classes)} if ok else {"class_id": x.c(["K9999", "B0001"])}


def g_list_bookings(x, ok):
    if not ok:
        return x.c([{"member_id": "M404"}, {"class_id": "K9999"}, {"status": "pending"}])
    a = {}
    if x.rng.random() < 0.5:
        a["member_id"] = x.c(x.members)
    if x.rng.random() < 0.4:
        a["class_id"] = x.c(x.classes)
    if x.rng.random() < 0.4:
        a["status"] = x.c(["booked", "waitlisted", "attended", "no_show", "cancelled"])
    return a


def g_book_class(x, ok):
    if ok:
        pairs = [(m, c) for m in x.active_m for c in x.future if x.can_book(m, c)]
        m, c = x.c(pairs)
        return {"member_id": m, "class_id": c}
    bad = x.rng.randint(0, 6)
    if bad == 0:
        return {"member_id": x.c(x.frozen_m), "class_id": x.c(x.future)}
    if bad == 1:
        return {"member_id": x.c(x.noshow_m), "class_id": x.c(x.future)}
    if bad == 2:
        return {"member_id": x.c(x.active_m), "class_id": x.c(x.today_c + x.closed_c + x.past_open)}
    if bad == 3:
        basic = [m for m in x.active_m if x.db["members"][m]["plan"] == "basic"]
        return {"member_id": x.c(basic), "class_id": x.c([c for c in x.future if x.db["classes"][c]["level"] == "advanced"])}
    if bad == 4:
        b = x.db["bookings"][x.c(x.live_future)]
        return {"member_id": b["member_id"], "class_id": b["class_id"]}
    if bad == 5:
        broke = [m for m in x.active_m if x.db["members"][m]["plan"] != "unlimited" and x.db["members"][m]["credits"] == 0]
        return {"member_id": x.c(broke), "class_id": x.c(x.future)}
    return {"member_id": x.c(x.active_m), "class_id": "K9999"}


def g_cancel_booking(x, ok):
    if ok:
        return {"booking_id": x.c(x.live_future)}
    return {"booking_id": x.c([x.c(x.dead), x.c(x.live_past or x.dead), "B9999"])}


def g_check_in(x, ok):
    if ok:
        return {"booking_id": x.c(x.booked_today)}
    return {"booking_id": x.c([x.c(x.booked_future), x.c(x.dead), "B9999"])}


def g_complete_class(x, ok):
    if ok:
        return {"class_id": x.c(x.past_open)}
    return {"class_id": x.c([x.c(x.future), x.c(x.closed_c), "K9999"])}


def g_cancel_class(x, ok):
    reason = x.c(["instructor ill", "heating failure", "public holiday"])
    if ok:
        return {"class_id": x.c([c for c in x.future + x.today_c if c not in x.attended_c]), "reason": reason}
    bad = x.rng.randint(0, 3)
    if bad == 0:
        return {"class_id": x.c(x.closed_c), "reason": reason}
    if bad == 1:
        return {"class_id": x.c([c for c in x.past_open if x.db["classes"][c]["date"] < x.today.isoformat()]), "reason": reason}
    if bad == 2:
        return {"class_id": x.c(x.future), "reason": x.c(["", "  ", "r" * 201])}
    return {"class_id": "K9999", "reason": reason}


def g_buy_credits(x, ok):
    if ok:
        return {"member_id": x.c(x.payers), "pack": x.c([5, 10, 20])}
    bad = x.rng.randint(0, 2)
    if bad == 0:
        return {"member_id": x.c(x.unlimited), "pack": 10}
    if bad == 1:
        return {"member_id": x.c(x.payers), "pack": x.c([0, 3, 15, "10", 7.5])}
    return {"member_id": "M404", "pack": 5}


def _free_until(x, m):
    t = x.today.isoformat()
    dates = sorted(d for d in x.days.get(m, set()) if d >= t and any(
        b["member_id"] == m and b["status"] in LIVE and x.db["classes"][b["class_id"]]["date"] == d
        for b in x.db["bookings"].values()))
    return dates


def g_freeze_membership(x, ok):
    if ok:
        free = [m for m in x.active_m if not _free_until(x, m)]
        return {"member_id": x.c(free), "until": (x.today + timedelta(days=x.rng.randint(1, 60))).isoformat()}
    bad = x.rng.randint(0, 4)
    m = x.c(x.active_m)
    if bad == 0:
        return {"member_id": x.c(x.frozen_m), "until": (x.today + timedelta(days=10)).isoformat()}
    if bad == 1:
        return {"member_id": m, "until": (x.today + timedelta(days=x.c([0, -4, 61, 90]))).isoformat()}
    if bad == 2:
        return {"member_id": m, "until": x.c(["2025-10-32", "next week", "10/01/2025"])}
    if bad == 3:
        busy = [k for k in x.active_m if _free_until(x, k)]
        k = x.c(busy)
        return {"member_id": k, "until": _free_until(x, k)[-1]}
    return {"member_id": "M404", "until": (x.today + timedelta(days=5)).isoformat()}


GENS = [("get_member", g_get_member, 1), ("list_classes", g_list_classes, 1), ("get_class", g_get_class, 1),
        ("list_bookings", g_list_bookings, 1), ("book_class", g_book_class, 4), ("cancel_booking", g_cancel_booking, 3),
        ("check_in", g_check_in, 2), ("complete_class", g_complete_class, 2), ("cancel_class", g_cancel_class, 2),
        ("buy_credits", g_buy_credits, 2), ("freeze_membership", g_freeze_membership, 2)]


def probes(db, rng, n):
    x = _Ctx(db, rng)
    names = [g[0] for g in GENS]
    weights = [g[2] for g in GENS]
    fns = {g[0]: g[1] for g in GENS}
    out = []
    for i in range(n):
        name = names[i] if i < len(names) else rng.choices(names, weights)[0]
        ok = (i < len(names)) or rng.random() < 0.58
        out.append((name, fns[name](x, ok)))
    return out
