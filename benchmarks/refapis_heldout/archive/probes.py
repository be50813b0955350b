"""Differential probes for the reading-room service.

probes(db, rng, n) returns a list of (tool_name, args). Roughly 60% are calls the documentation says
should succeed and 40% calls it says must be refused. The generator keeps a private scratch copy of
the state, advanced with the reference implementation, so that later probes build on earlier ones
(an item delivered by one probe can be returned by a later one).
"""
import copy
import importlib.util
import os
from datetime import date, timedelta

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("_archive_ref_impl", os.path.join(_here, "ref_impl.py"))
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)

FIRST = ["Hester", "Ambrose", "Tegan", "Lucan", "Morwenna", "Piers", "Sabine", "Elwyn", "Ottilie", "Rufus"]
LAST = ["Pargeter", "Quennell", "Harbottle", "Swindlehurst", "Attwater", "Blenkinsop", "Cardew", "Dimmock"]
WORDS = ["letters", "MAP", "diary", "Rivington", "photographs", "minute book", "haddon", "PHO/", "survey",
         "oral history", "accounts", "Guild", "saltmarsh", "zzz-none"]


class _State:
    def __init__(self, db):
        self.db = copy.deepcopy(db)
        self.today = date.fromisoformat(db["meta"]["today"])
        self.serial = 0

    def t(self, k=0):
        return (self.today + timedelta(days=k)).isoformat()

    def vals(self, coll, **match):
        return [r for r in self.db[coll].values() if all(r.get(k) == v for k, v in match.items())]

    def upcoming(self, rid):
        return [b for b in self.db["bookings"].values()
                if b["reader_id"] == rid and b["status"] == "booked" and b["date"] >= self.t()]

    def open_day(self, d, session):
        return not (d.weekday() == 6 or (d.weekday() == 5 and session == "afternoon"))

    def full(self, ds, session):
        return sum(1 for b in self.db["bookings"].values()
                   if b["date"] == ds and b["session"] == session and b["status"] == "booked") >= ref.DESKS

    def item_free(self, it):
        return it["location"] == "in_storage" and not any(
            q["item_id"] == it["id"] and q["status"] in ref.OPEN_REQUEST for q in self.db["requests"].values())

    def may_view(self, r, it):
        return it["access"] == "open" or (it["access"] == "restricted" and r["reader_type"] == "academic")


def _pick(rng, seq):
    seq = list(seq)
    return rng.choice(seq) if seq else None


# ---------------------------------------------------------------- builders: return args or None
def p_get_reader(s, rng, ok):
    if ok:
        return {"reader_id": rng.choice(list(s.db["readers"]))}
    return rng.choice([{"reader_id": "RD9999"}, {"reader_id": "rd0004"}, {"reader_id": "RD00012"}, {}])


def p_search_items(s, rng, ok):
    if ok:
        return rng.choice([{}, {"q": rng.choice(WORDS)}, {"format": rng.choice(ref.FORMATS)},
                           {"q": rng.choice(WORDS).upper(), "access": "open"},
                           {"location": rng.choice(ref.LOCATIONS)},
                           {"storage": "offsite", "format": rng.choice(ref.FORMATS)}])
    return rng.choice([{"format": "vinyl"}, {"access": "secret"}, {"location": "basement"},
                       {"storage": "annex"}, {"format": "Map"}])


def p_list_bookings(s, rng, ok):
    if ok:
        return rng.choice([{"reader_id": rng.choice(list(s.db["readers"]))},
                           {"date": s.t(rng.randint(-5, 10))},
                           {"date": s.t(rng.randint(0, 7)), "session": rng.choice(ref.SESSIONS)},
                           {"status": rng.choice(ref.BOOKING_STATUS)}])
    return rng.choice([{"reader_id": "RD0999"}, {"date": "2025-02-30"}, {"date": "14/03/2025"},
                       {"status": "pending"}, {"session": "evening"}])


def p_list_requests(s, rng, ok):
    if ok:
        return rng.choice([{"reader_id": rng.choice(list(s.db["readers"]))},
                           {"item_id": rng.choice(list(s.db["items"]))},
                           {"status": rng.choice(ref.REQUEST_STATUS)},
                           {"reader_id": rng.choice(list(s.db["readers"])), "status": "requested"}])
    return rng.choice([{"reader_id": "RD0999"}, {"item_id": "IT9999"}, {"status": "lost"},
                       {"status": "Delivered"}])


def p_register_reader(s, rng, ok):
    s.serial += 1
    first, last = rng.choice(FIRST), rng.choice(LAST)
    if ok:
        email = f"{first}.{last}{s.serial}@example.org"
        if rng.random() < 0.3:
            email = email.replace(first, first.upper())
        return {"name": f"{first} {last}", "email": email, "reader_type": rng.choice(ref.READER_TYPES)}
    existing = rng.choice(list(s.db["readers"].values()))
    return rng.choice([
        {"name": existing["name"], "email": existing["email"].upper(), "reader_type": "public"},
        {"name": existing["name"], "email": existing["email"], "reader_type": existing["reader_type"]},
        {"name": f"{first} {last}", "email": f"{first}.{last}.example.org", "reader_type": "student"},
        {"name": f"{first} {last}", "email": f"{first}@{last}", "reader_type": "academic"},
        {"name": f"{first} {last}", "email": f"{first}{s.serial}@example.org", "reader_type": "visitor"},
        {"email": f"{first}{s.serial}@example.org", "reader_type": "public"}])


def p_renew_reader_card(s, rng, ok):
    lim = s.t(ref.RENEW_WINDOW)
    if ok:
        r = _pick(rng, (r for r in s.db["readers"].values() if r["status"] == "active"
                        and r["balance_due"] == 0 and r["card_expires"] <= lim))
        return {"reader_id": r["id"]} if r else None
    cands = [r for r in s.db["readers"].values() if r["status"] != "active" or r["balance_due"] > 0
             or r["card_expires"] > lim]
    return rng.choice([{"reader_id": rng.choice(cands)["id"]}] * 4 + [{"reader_id": "RD0000"}])


def p_book_seat(s, rng, ok):
    active = [r for r in s.db["readers"].values() if r["status"] == "active"]
    if ok:
        for _ in range(40):
            r = rng.choice(active)
            k = rng.randint(0, ref.BOOKING_HORIZON)
            d, session = s.today + timedelta(days=k), rng.choice(ref.SESSIONS)
            ds = d.isoformat()
            if (s.open_day(d, session) and r["card_expires"] >= ds and len(s.upcoming(r["id"])) < ref.MAX_UPCOMING
                    and not s.full(ds, session)
                    and not any(b["date"] == ds and b["session"] == session for b in s.upcoming(r["id"]))):
                return {"reader_id": r["id"], "date": ds, "session": session}
        return None
    r = rng.choice(active)
    kind = rng.randint(0, 10)
    if kind == 0:
        return {"reader_id": r["id"], "date": s.t(-rng.randint(1, 10)), "session": "morning"}
    if kind == 1:
        return {"reader_id": r["id"], "date": s.t(rng.randint(22, 40)), "session": "morning"}
    if kind == 2:
        d = s.today + timedelta(days=(6 - s.today.weekday()) % 7 + 7 * rng.randint(0, 2))
        return {"reader_id": r["id"], "date": d.isoformat(), "session": rng.choice(ref.SESSIONS)}
    if kind == 3:
        d = s.today + timedelta(days=(5 - s.today.weekday()) % 7 + 7 * rng.randint(0, 2))
        return {"reader_id": r["id"], "date": d.isoformat(), "session": "afternoon"}
    if kind == 4:
        full = sorted({(b["date"], b["session"]) for b in s.db["bookings"].values()
                       if b["date"] >= s.t() and s.full(b["date"], b["session"])})
        if full:
            ds, session = rng.choice(full)
            fit = [x for x in active if x["card_expires"] >= ds and len(s.upcoming(x["id"])) < ref.MAX_UPCOMING
                   and not any(b["date"] == ds and b["session"] == session for b in s.upcoming(x["id"]))]
            return {"reader_id": (rng.choice(fit) if fit else r)["id"], "date": ds, "session": session}
    if kind == 5:
        b = _pick(rng, (b for b in s.db["bookings"].values() if b["status"] == "booked" and b["date"] >= s.t()))
        if b:
            return {"reader_id": b["reader_id"], "date": b["date"], "session": b["session"]}
    if kind == 6:
        heavy = [x for x in active if len(s.upcoming(x["id"])) >= ref.MAX_UPCOMING]
        if heavy:
            return {"reader_id": rng.choice(heavy)["id"], "date": s.t(rng.choice([1, 7, 8, 15])), "session": "morning"}
    if kind == 7:
        sus = [x for x in s.db["readers"].values() if x["status"] != "active"]
        return {"reader_id": rng.choice(sus)["id"], "date": s.t(1), "session": "afternoon"}
    if kind == 8:
        lapsed = [x for x in active if x["card_expires"] < s.t(20)]
        if lapsed:
            x = rng.choice(lapsed)
            d = max(date.fromisoformat(x["card_expires"]), s.today - timedelta(days=1)) + timedelta(days=1)
            while d.weekday() >= 5:
                d += timedelta(days=1)
            return {"reader_id": x["id"], "date": d.isoformat(), "session": "morning"}
    if kind == 9:
        return {"reader_id": r["id"], "date": s.t(3), "session": rng.choice(["evening", "Morning", "all_day"])}
    return rng.choice([{"reader_id": r["id"], "date": "2025-03-32", "session": "morning"},
                       {"reader_id": "RD0404", "date": s.t(1), "session": "morning"},
                       {"reader_id": r["id"], "session": "morning"}])


def _delivered_on(s, b):
    return any(q["booking_id"] == b["id"] and q["status"] == "delivered" for q in s.db["requests"].values())


def p_cancel_booking(s, rng, ok):
    if ok:
        b = _pick(rng, (b for b in s.db["bookings"].values() if b["status"] == "booked"
                        and b["date"] >= s.t() and not _delivered_on(s, b)))
        return {"booking_id": b["id"]} if b else None
    cands = [b for b in s.db["bookings"].values() if b["status"] != "booked" or _delivered_on(s, b)]
    b = _pick(rng, cands)
    return {"booking_id": b["id"] if b and rng.random() < 0.85 else "BK9999"}


def p_place_request(s, rng, ok):
    db = s.db
    booked = [b for b in db["bookings"].values() if b["status"] == "booked" and b["date"] >= s.t()]
    if ok:
        for _ in range(40):
            b = rng.choice(booked)
            r = db["readers"][b["reader_id"]]
            if (r["status"] != "active" or r["card_expires"] < b["date"]
                    or r["open_requests"] >= ref.REQUEST_LIMIT[r["reader_type"]]):
                continue
            lead = (date.fromisoformat(b["date"]) - s.today).days
            it = _pick(rng, (i for i in db["items"].values() if s.may_view(r, i) and s.item_free(i)
                             and (i["storage"] == "onsite" or lead >= ref.OFFSITE_LEAD)))
            if it:
                return {"reader_id": r["id"], "item_id": it["id"], "booking_id": b["id"]}
        return None
    b = rng.choice(booked)
    r = db["readers"][b["reader_id"]]
    items = list(db["items"].values())
    kind = rng.randint(0, 8)
    if kind == 0:
        other = rng.choice([x for x in booked if x["reader_id"] != r["id"]])
        it = _pick(rng, (i for i in items if i["access"] == "open" and s.item_free(i)))
        return {"reader_id": r["id"], "item_id": it["id"], "booking_id": other["id"]}
    if kind == 1:
        return {"reader_id": r["id"], "item_id": rng.choice([i for i in items if i["access"] == "closed"])["id"],
                "booking_id": b["id"]}
    if kind == 2:
        nb = _pick(rng, (x for x in booked if db["readers"][x["reader_id"]]["reader_type"] != "academic"))
        it = _pick(rng, (i for i in items if i["access"] == "restricted" and s.item_free(i)))
        if nb and it:
            return {"reader_id": nb["reader_id"], "item_id": it["id"], "booking_id": nb["id"]}
    if kind == 3:
        it = _pick(rng, (i for i in items if i["location"] == "conservation"))
        return {"reader_id": r["id"], "item_id": it["id"], "booking_id": b["id"]}
    if kind == 4:
        it = _pick(rng, (i for i in items if not s.item_free(i) and i["access"] == "open"))
        if it:
            return {"reader_id": r["id"], "item_id": it["id"], "booking_id": b["id"]}
    if kind == 5:
        soon = _pick(rng, (x for x in booked if x["date"] < s.t(ref.OFFSITE_LEAD)))
        it = _pick(rng, (i for i in items if i["storage"] == "offsite" and i["access"] == "open" and s.item_free(i)))
        if soon and it:
            return {"reader_id": soon["reader_id"], "item_id": it["id"], "booking_id": soon["id"]}
    if kind == 6:
        full = _pick(rng, (x for x in booked if db["readers"][x["reader_id"]]["open_requests"]
                           >= ref.REQUEST_LIMIT[db["readers"][x["reader_id"]]["reader_type"]]))
        it = _pick(rng, (i for i in items if i["access"] == "open" and i["storage"] == "onsite" and s.item_free(i)))
        if full and it:
            return {"reader_id": full["reader_id"], "item_id": it["id"], "booking_id": full["id"]}
    if kind == 7:
        old = _pick(rng, (x for x in db["bookings"].values() if x["status"] != "booked" or x["date"] < s.t()))
        it = _pick(rng, (i for i in items if i["access"] == "open" and s.item_free(i)))
        return {"reader_id": old["reader_id"], "item_id": it["id"], "booking_id": old["id"]}
    return rng.choice([{"reader_id": r["id"], "item_id": "IT0999", "booking_id": b["id"]},
                       {"reader_id": r["id"], "item_id": "IT0001", "booking_id": "BK0000"},
                       {"reader_id": r["id"], "item_id": "IT0002"}])


def p_deliver_request(s, rng, ok):
    db, today = s.db, s.t()
    if ok:
        held = [q for q in db["requests"].values() if q["status"] == "on_hold" and q["hold_until"] >= today
                and any(b["reader_id"] == q["reader_id"] and b["status"] == "booked" and b["date"] == today
                        for b in db["bookings"].values())]
        due = [q for q in db["requests"].values() if q["status"] == "requested" and q["needed_on"] == today]
        q = _pick(rng, held + due)
        return {"request_id": q["id"]} if q else None
    cands = [q for q in db["requests"].values()
             if (q["status"] == "requested" and q["needed_on"] != today)
             or q["status"] in ("delivered", "returned", "cancelled")
             or (q["status"] == "on_hold" and (q["hold_until"] < today or not any(
                 b["reader_id"] == q["reader_id"] and b["status"] == "booked" and b["date"] == today
                 for b in db["bookings"].values())))]
    prefer = [q for q in cands if q["status"] in ("on_hold", "delivered")]
    q = rng.choice(prefer) if prefer and rng.random() < 0.4 else rng.choice(cands)
    return {"request_id": q["id"] if rng.random() < 0.9 else "RQ9999"}


def p_return_request(s, rng, ok):
    db = s.db
    if ok:
        dl = [q for q in db["requests"].values() if q["status"] == "delivered"]
        oh = [q for q in db["requests"].values() if q["status"] == "on_hold"]
        q = _pick(rng, dl + oh)
        if q is None:
            return None
        if q["status"] == "delivered" and q["hold_count"] < ref.HOLD_MAX_COUNT and rng.random() < 0.5:
            return {"request_id": q["id"], "hold": True, "hold_until": s.t(rng.randint(1, ref.HOLD_MAX_DAYS))}
        return rng.choice([{"request_id": q["id"]}, {"request_id": q["id"], "hold": False}])
    dl = [q for q in db["requests"].values() if q["status"] == "delivered"]
    kind = rng.randint(0, 4)
    if kind <= 1 or not dl:
        q = _pick(rng, (q for q in db["requests"].values() if q["status"] in ("requested", "returned", "cancelled")))
        return {"request_id": q["id"]}
    q = rng.choice(dl)
    if kind == 2:
        return {"request_id": q["id"], "hold": True, "hold_until": s.t(rng.choice([0, -1, 11, 14]))}
    if kind == 3:
        oh = _pick(rng, (x for x in db["requests"].values() if x["status"] == "on_hold"))
        twice = _pick(rng, (x for x in dl if x["hold_count"] >= ref.HOLD_MAX_COUNT))
        target = twice or oh
        if target:
            return {"request_id": target["id"], "hold": True, "hold_until": s.t(3)}
    return rng.choice([{"request_id": q["id"], "hold": True}, {"request_id": q["id"], "hold": "yes"}])


def p_cancel_request(s, rng, ok):
    if ok:
        q = _pick(rng, s.vals("requests", status="requested"))
        return {"request_id": q["id"]} if q else None
    q = _pick(rng, (q for q in s.db["requests"].values() if q["status"] != "requested"))
    return {"request_id": q["id"] if rng.random() < 0.9 else "RQ0000"}


def p_place_copy_order(s, rng, ok):
    db, today = s.db, s.t()
    readers = [r for r in db["readers"].values() if r["status"] == "active" and r["card_expires"] >= today]
    if ok:
        for _ in range(40):
            r = rng.choice(readers)
            it = rng.choice(list(db["items"].values()))
            if not (it["copy_allowed"] and s.may_view(r, it) and it["location"] != "conservation"):
                continue
            method = "photograph" if it["fragile"] else rng.choice(ref.METHODS)
            delivery = rng.choice(["collect", "post"] if method == "photocopy" else ref.DELIVERY)
            pages = rng.randint(1, min(it["page_count"], 30))
            fee = ref.copy_fee(r["reader_type"], method, pages, delivery)
            if ref._money(r["balance_due"]) + fee <= ref.BALANCE_CAP:
                return {"reader_id": r["id"], "item_id": it["id"], "method": method, "pages": pages,
                        "delivery": delivery}
        return None
    r = rng.choice(readers)
    items = list(db["items"].values())
    plain = [i for i in items if i["copy_allowed"] and i["access"] == "open" and not i["fragile"]
             and i["location"] != "conservation" and i["page_count"] >= 5]
    it = rng.choice(plain)
    base = {"reader_id": r["id"], "item_id": it["id"], "method": "scan", "pages": 3, "delivery": "collect"}
    kind = rng.randint(0, 9)
    if kind == 0:
        base["item_id"] = rng.choice([i for i in items if not i["copy_allowed"]])["id"]
    elif kind == 1:
        frag = [i for i in items if i["fragile"] and i["copy_allowed"] and i["access"] == "open"]
        base.update(item_id=rng.choice(frag)["id"], method=rng.choice(["scan", "photocopy"]), pages=1)
    elif kind == 2:
        base.update(method="photocopy", delivery="email")
    elif kind == 3:
        base["pages"] = it["page_count"] + rng.randint(1, 20)
    elif kind == 4:
        base["pages"] = rng.choice([0, -2])
    elif kind == 5:
        rich = [x for x in readers if x["balance_due"] > 45]
        big = [i for i in plain if i["page_count"] >= 20]
        if rich:
            base.update(reader_id=rng.choice(rich)["id"], item_id=rng.choice(big)["id"], method="photograph", pages=20)
    elif kind == 6:
        nonac = [x for x in readers if x["reader_type"] != "academic"]
        restr = [i for i in items if i["access"] == "restricted" and i["copy_allowed"] and not i["fragile"]]
        base.update(reader_id=rng.choice(nonac)["id"], item_id=rng.choice(restr)["id"], pages=1)
    elif kind == 7:
        bad = [x for x in db["readers"].values() if x["status"] != "active" or x["card_expires"] < today]
        base["reader_id"] = rng.choice(bad)["id"]
    elif kind == 8:
        base["method"] = rng.choice(["microfilm", "fax"])
    else:
        base["pages"] = "3"
    return base


def p_cancel_copy_order(s, rng, ok):
    if ok:
        o = _pick(rng, s.vals("copy_orders", status="pending"))
        return {"order_id": o["id"]} if o else None
    o = _pick(rng, (o for o in s.db["copy_orders"].values() if o["status"] != "pending"))
    return {"order_id": o["id"] if rng.random() < 0.9 else "CO9999"}


BUILDERS = [
    ("get_reader", p_get_reader, 1.0), ("search_items", p_search_items, 1.0),
    ("list_bookings", p_list_bookings, 1.0), ("list_requests", p_list_requests, 1.0),
    ("register_reader", p_register_reader, 1.0), ("renew_reader_card", p_renew_reader_card, 0.8),
    ("book_seat", p_book_seat, 1.6), ("cancel_booking", p_cancel_booking, 1.0),
    ("place_request", p_place_request, 1.6), ("deliver_request", p_deliver_request, 1.3),
    ("return_request", p_return_request, 1.3), ("cancel_request", p_cancel_request, 1.0),
    ("place_copy_order", p_place_copy_order, 1.5), ("cancel_copy_order", p_cancel_copy_order, 1.0),
]


def probes(db, rng, n):
    s = _State(db)
    out = []
    names = [b[0] for b in BUILDERS]
    weights = [b[2] for b in BUILDERS]
    fns = {b[0]: b[1] for b in BUILDERS}
    order = list(names)          # make sure every tool appears early
    rng.shuffle(order)
    while len(out) < n:
        name = order.pop() if order else rng.choices(names, weights)[0]
        ok = rng.random() < 0.58
        args = fns[name](s, rng, ok)
        if args is None:
            args = fns[name](s, rng, False)
        out.append((name, copy.deepcopy(args)))
        try:
            ref.invoke(s.db, name, copy.deepcopy(args))
        except ref.RefError:
            pass
    return out
