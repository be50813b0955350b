"""Generate db.json for the reading-room service (deterministic, stdlib only)."""
import json
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

TODAY = date(2025, 3, 12)
DESKS = 10
rng = random.Random(770312)

FIRST = ["Alys", "Bernard", "Cerys", "Dominic", "Edith", "Farah", "Gideon", "Hana", "Ivor", "Jolene",
         "Kasim", "Lorna", "Magnus", "Nerys", "Oswin", "Priya", "Quentin", "Rosalind", "Silas", "Tamsin",
         "Ulrike", "Victor", "Wenna", "Xavier", "Yusuf", "Zelda", "Anouk", "Bryn", "Carys", "Declan"]
LAST = ["Ashdown", "Beddoe", "Crowther", "Dunmore", "Ellery", "Fennick", "Garside", "Holloway", "Iredale",
        "Jessop", "Kettering", "Lathom", "Mowbray", "Nettleship", "Orchard", "Pennock", "Quarrie",
        "Rudd", "Stainthorpe", "Thwaite", "Underhill", "Varley", "Whitlock", "Yeadon"]
DOMAINS = {"academic": ["hallam.ac.uk", "northgate.ac.uk", "tyneside-uni.org"],
           "student": ["students.hallam.ac.uk", "stu.northgate.ac.uk"],
           "public": ["mailbox.net", "postmail.com", "riverline.org"]}

PEOPLE = ["Sir Henry Calloway", "Margaret Pell", "the Revd. John Askew", "Eliza Thornbury", "Captain R. Moss",
          "Agnes Whitlock", "Thomas Garside", "Dr. Ruth Keller"]
PLACES = ["Rivington", "Ormskirk Fell", "Haddon Vale", "Marlow Street", "Kettlewell", "Saltmarsh",
          "Brackenridge", "the Lune Estuary"]
ORGS = ["Rivington Mechanics' Institute", "Haddon Vale Colliery Company", "Saltmarsh Board of Guardians",
        "Kettlewell Parish Vestry", "Marlow Street Chapel", "Brackenridge Women's Guild"]
TOPICS = ["harvest festivals", "mill workers", "the 1926 flood", "railway construction", "school outings",
          "street markets", "the old harbour"]
FONDS = {"manuscript": ["CAL", "PEL", "ASK", "THB"], "photograph": ["PHO", "GLS"], "map": ["MAP", "EST"],
         "printed": ["PRN", "LIB"], "audio": ["ORH"]}


def d(x):
    return x.isoformat()


def money(x):
    return Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def is_open(day, session):
    if day.weekday() == 6:
        return False
    if day.weekday() == 5 and session == "afternoon":
        return False
    return True


# ---------------------------------------------------------------- readers
readers = {}
emails = set()
SUSPENDED = {7, 19, 33, 48, 56}
REASONS = ["Repeated failure to return items to the issue desk", "Use of pen in the reading room",
           "Unpaid copying charges referred to accounts", "Handling of fragile material against advice",
           "Misuse of reader ticket"]
for i in range(1, 61):
    rid = f"RD{i:04d}"
    rtype = rng.choices(["academic", "student", "public"], [4, 3, 3])[0]
    while True:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        email = f"{first}.{last}@{rng.choice(DOMAINS[rtype])}".lower()
        if email not in emails:
            emails.add(email)
            break
    roll = rng.random()
    if roll < 0.12:
        exp = TODAY - timedelta(days=rng.randint(1, 80))
    elif roll < 0.30:
        exp = TODAY + timedelta(days=rng.randint(0, 30))
    else:
        exp = TODAY + timedelta(days=rng.randint(31, 175 if rtype == "student" else 360))
    reg = exp - timedelta(days=rng.choice([180, 365, 545, 730]) if rtype != "student" else 180)
    rec = {"id": rid, "name": f"{first} {last}", "email": email, "reader_type": rtype,
           "status": "suspended" if i in SUSPENDED else "active", "registered_on": d(reg),
           "card_expires": d(exp), "open_requests": 0, "balance_due": 0.0}
    if i in SUSPENDED:
        rec["suspension_reason"] = REASONS[len([s for s in SUSPENDED if s < i])]
    readers[rid] = rec

# ---------------------------------------------------------------- items
items = {}
counters = {}
for i in range(1, 121):
    iid = f"IT{i:04d}"
    fmt = rng.choices(["manuscript", "photograph", "map", "printed", "audio"], [40, 22, 14, 16, 8])[0]
    if fmt == "manuscript":
        kind = rng.choice(["letters", "diary", "minutes", "accounts"])
        if kind == "letters":
            title = f"Letters of {rng.choice(PEOPLE)}, {rng.randint(1780, 1930)}-{rng.randint(1, 9)}"
        elif kind == "diary":
            title = f"Diary of {rng.choice(PEOPLE)}, vol. {rng.randint(1, 6)}"
        elif kind == "minutes":
            y = rng.randint(1840, 1950)
            title = f"Minute book of the {rng.choice(ORGS)}, {y}-{y + rng.randint(3, 12)}"
        else:
            title = f"Estate accounts, {rng.choice(PLACES)}, {rng.randint(1700, 1900)}"
        pages = rng.randint(12, 420)
    elif fmt == "photograph":
        title = f"Photographs of {rng.choice(TOPICS)}, {rng.choice(PLACES)}"
        pages = rng.randint(1, 60)
    elif fmt == "map":
        title = f"{rng.choice(['Tithe map', 'Estate plan', 'Enclosure map', 'Survey plan'])} of {rng.choice(PLACES)}, {rng.randint(1750, 1900)}"
        pages = rng.randint(1, 4)
    elif fmt == "printed":
        title = f"{rng.choice(['Annual report', 'Rules and byelaws', 'Trade directory', 'Sale catalogue'])}: {rng.choice(ORGS + PLACES)}, {rng.randint(1820, 1960)}"
        pages = rng.randint(16, 640)
    else:
        title = f"Oral history interview: {rng.choice(TOPICS)}, recorded {rng.randint(1972, 2004)}"
        pages = 0
    code = rng.choice(FONDS[fmt])
    counters[code] = counters.get(code, 0) + 1
    ref = f"{code}/{rng.randint(1, 9)}/{counters[code]}"
    access = rng.choices(["open", "restricted", "closed"], [70, 20, 10])[0]
    fragile = fmt != "audio" and rng.random() < 0.22
    copy_ok = access != "closed" and fmt != "audio" and rng.random() > 0.1
    items[iid] = {"id": iid, "title": title, "reference_code": ref, "format": fmt, "access": access,
                  "storage": rng.choices(["onsite", "offsite"], [7, 3])[0], "location": "in_storage",
                  "fragile": fragile, "page_count": pages, "copy_allowed": copy_ok}
for iid in ["IT0011", "IT0042", "IT0067", "IT0090", "IT0113"]:
    items[iid]["location"] = "conservation"
    items[iid]["access"] = "open"

# ---------------------------------------------------------------- bookings
bookings = {}


def slot_taken(day, session):
    return sorted(b["desk"] for b in bookings.values()
                  if b["date"] == d(day) and b["session"] == session and b["status"] != "cancelled")


def upcoming(rid):
    return sum(1 for b in bookings.values()
               if b["reader_id"] == rid and b["status"] == "booked" and b["date"] >= d(TODAY))


def has_slot(rid, day, session):
    return any(b["reader_id"] == rid and b["date"] == d(day) and b["session"] == session
               and b["status"] != "cancelled" for b in bookings.values())


def add_booking(rid, day, session, status):
    taken = slot_taken(day, session)
    free = [n for n in range(1, DESKS + 1) if n not in taken]
    if not free:
        return None
    bid = f"BK{len(bookings) + 1:04d}"
    created = day - timedelta(days=rng.randint(0, 14))
    if created > TODAY:
        created = TODAY
    rec = {"id": bid, "reader_id": rid, "date": d(day), "session": session, "desk": free[0],
           "status": status, "created_on": d(created)}
    if status == "cancelled":
        c = created + timedelta(days=rng.randint(0, max(0, min((day - created).days, (TODAY - created).days))))
        rec["cancelled_on"] = d(c)
    bookings[bid] = rec
    return rec


def eligible(rid, day, session, future=True):
    r = readers[rid]
    if r["status"] != "active" or r["card_expires"] < d(day) or has_slot(rid, day, session):
        return False
    if future and upcoming(rid) >= 4:
        return False
    return True


rids = list(readers)
# past bookings
for back in range(28, 0, -1):
    day = TODAY - timedelta(days=back)
    for session in ("morning", "afternoon"):
        if not is_open(day, session) or rng.random() < 0.45:
            continue
        for _ in range(rng.randint(1, 3)):
            rid = rng.choice(rids)
            if readers[rid]["status"] != "active" or has_slot(rid, day, session):
                continue
            add_booking(rid, day, session, rng.choices(["attended", "no_show", "cancelled"], [75, 10, 15])[0])

# today and future bookings (chronological creation keeps ids readable)
FULL = {(TODAY + timedelta(days=2), "afternoon"), (TODAY + timedelta(days=6), "morning")}
HEAVY = ["RD0003", "RD0014", "RD0027"]
future_slots = []
for ahead in range(0, 22):
    day = TODAY + timedelta(days=ahead)
    for session in ("morning", "afternoon"):
        if is_open(day, session):
            future_slots.append((day, session))
for day, session in future_slots:
    if (day, session) in FULL:
        want = DESKS
    elif day == TODAY:
        want = 6 if session == "morning" else 5
    else:
        want = rng.choice([0, 1, 1, 2, 2, 3, 4])
    tries = 0
    while len(slot_taken(day, session)) < want and tries < 200:
        tries += 1
        rid = rng.choice(HEAVY) if rng.random() < 0.15 else rng.choice(rids)
        if not eligible(rid, day, session):
            continue
        status = "cancelled" if (day, session) not in FULL and day != TODAY and rng.random() < 0.15 else "booked"
        add_booking(rid, day, session, status)

# ---------------------------------------------------------------- requests
requests = {}
LIMIT = {"academic": 6, "student": 4, "public": 3}
open_items = set()


def can_see(rid, iid):
    it = items[iid]
    if it["access"] == "closed" or it["location"] == "conservation":
        return False
    if it["access"] == "restricted" and readers[rid]["reader_type"] != "academic":
        return False
    return True


def pick_item(rid, lead_days=99):
    pool = [i for i in items if can_see(rid, i) and i not in open_items
            and (items[i]["storage"] == "onsite" or lead_days >= 2)]
    return rng.choice(pool) if pool else None


def add_request(b, status, placed=None, iid=None, lead_days=None):
    rid = b["reader_id"]
    day = date.fromisoformat(b["date"])
    if placed is None:
        placed = day - timedelta(days=rng.randint(0, 6))
        if placed > TODAY:
            placed = TODAY
    if lead_days is None:
        lead_days = (day - placed).days
    if status in ("requested", "delivered", "on_hold"):
        if readers[rid]["open_requests"] >= LIMIT[readers[rid]["reader_type"]]:
            return None
        iid = iid or pick_item(rid, lead_days)
        if iid is None:
            return None
        open_items.add(iid)
        readers[rid]["open_requests"] += 1
        if status != "requested":
            items[iid]["location"] = "reading_room"
    else:
        iid = iid or pick_item(rid, lead_days)
        if iid is None:
            return None
    qid = f"RQ{len(requests) + 1:04d}"
    rec = {"id": qid, "reader_id": rid, "item_id": iid, "booking_id": b["id"], "status": status,
           "placed_on": d(placed), "needed_on": b["date"], "desk": b["desk"], "hold_count": 0,
           "delivered_on": None, "hold_until": None, "returned_on": None, "cancelled_on": None}
    requests[qid] = rec
    return rec


blist = sorted(bookings.values(), key=lambda b: (b["date"], b["session"] == "afternoon", b["id"]))
for b in blist:
    day = date.fromisoformat(b["date"])
    if b["date"] < d(TODAY):
        if b["status"] == "attended":
            for _ in range(rng.choice([0, 1, 1, 2])):
                r = add_request(b, "returned")
                if r:
                    r["delivered_on"] = b["date"]
                    r["returned_on"] = b["date"]
                    if rng.random() < 0.2:
                        r["hold_count"] = 1
        elif rng.random() < 0.6:
            r = add_request(b, "cancelled")
            if r:
                r["cancelled_on"] = b.get("cancelled_on", b["date"])
    elif b["status"] == "cancelled":
        if rng.random() < 0.5:
            r = add_request(b, "cancelled")
            if r:
                r["cancelled_on"] = b["cancelled_on"]
                if r["placed_on"] > r["cancelled_on"]:
                    r["placed_on"] = r["cancelled_on"]
    elif b["date"] == d(TODAY):
        for k in range(rng.randint(1, 2)):
            st = rng.choice(["delivered", "requested", "requested"])
            r = add_request(b, st)
            if r and st == "delivered":
                r["delivered_on"] = b["date"]
    else:
        for k in range(rng.choice([0, 0, 1, 1, 2])):
            add_request(b, "requested")

# holds: delivered on an earlier attended day, kept on the hold shelf
attended = [b for b in blist if b["status"] == "attended" and b["date"] >= d(TODAY - timedelta(days=9))]
rng.shuffle(attended)
n_hold = 0
for b in attended:
    if n_hold >= 10:
        break
    r = add_request(b, "on_hold")
    if not r:
        continue
    n_hold += 1
    r["delivered_on"] = b["date"]
    r["hold_count"] = rng.choice([1, 1, 2])
    if n_hold <= 2:
        r["hold_until"] = d(TODAY - timedelta(days=rng.randint(1, 3)))
    else:
        r["hold_until"] = d(max(TODAY, date.fromisoformat(b["date"]) + timedelta(days=rng.randint(7, 10))))
# renumber requests chronologically by placed_on so ids read in order
ordered = sorted(requests.values(), key=lambda r: (r["placed_on"], r["needed_on"], r["id"]))
requests = {}
for n, r in enumerate(ordered, 1):
    r["id"] = f"RQ{n:04d}"
    requests[r["id"]] = r

# ---------------------------------------------------------------- copy orders
UNIT = {"photocopy": Decimal("0.30"), "scan": Decimal("0.45"), "photograph": Decimal("1.20")}


def fee_for(rtype, method, pages, delivery):
    page = UNIT[method] * pages
    if rtype == "student":
        page = page * Decimal("0.85")
    total = money(page + (Decimal("4.50") if delivery == "post" else 0))
    return max(total, Decimal("2.00"))


copy_orders = {}
copyable = [i for i in items.values() if i["copy_allowed"] and i["location"] != "conservation"]
orders = []
tries = 0
while len(orders) < 80 and tries < 2000:
    tries += 1
    rid = rng.choice(rids)
    it = rng.choice(copyable)
    if not can_see(rid, it["id"]):
        continue
    method = "photograph" if it["fragile"] else rng.choice(["photocopy", "scan", "scan", "photograph"])
    delivery = rng.choice(["collect", "post"]) if method == "photocopy" else rng.choice(["collect", "post", "email", "email"])
    pages = rng.randint(1, min(it["page_count"], 40))
    fee = fee_for(readers[rid]["reader_type"], method, pages, delivery)
    ordered_on = TODAY - timedelta(days=rng.randint(0, 12) if rng.random() < 0.35 else rng.randint(0, 75))
    age = (TODAY - ordered_on).days
    if age > 30:
        status = rng.choices(["completed", "cancelled"], [85, 15])[0]
    elif age > 10:
        status = rng.choices(["completed", "ready", "cancelled"], [50, 35, 15])[0]
    else:
        status = rng.choices(["pending", "ready", "cancelled"], [65, 20, 15])[0]
    owed = Decimal(str(readers[rid]["balance_due"]))
    if readers[rid]["card_expires"] < d(ordered_on):
        continue
    if status in ("pending", "ready"):
        if readers[rid]["status"] != "active" and status == "pending":
            continue
        if owed + fee > Decimal("60.00"):
            continue
        readers[rid]["balance_due"] = float(owed + fee)
    rec = {"id": None, "reader_id": rid, "item_id": it["id"], "method": method, "pages": pages,
           "delivery": delivery, "fee": float(fee), "status": status, "ordered_on": d(ordered_on)}
    if status == "cancelled":
        rec["cancelled_on"] = d(ordered_on + timedelta(days=rng.randint(0, min(3, age))))
    orders.append(rec)
# a few readers close to the 60.00 ceiling (large photography orders awaiting collection)
big = [i for i in copyable if i["access"] == "open" and i["page_count"] >= 45]
near_cap = [r["id"] for r in readers.values() if r["status"] == "active" and r["card_expires"] > d(TODAY + timedelta(days=60))
            and r["balance_due"] < 30][1::9][:3]
for rid in near_cap:
    owed = Decimal(str(readers[rid]["balance_due"]))
    it = big[int(rid[2:]) % len(big)]
    pages = 1
    while pages < it["page_count"] and owed + fee_for(readers[rid]["reader_type"], "photograph", pages + 1, "collect") <= Decimal("58.90"):
        pages += 1
    fee = fee_for(readers[rid]["reader_type"], "photograph", pages, "collect")
    if owed + fee > Decimal("60.00") or fee < Decimal("20.00"):
        continue
    orders.append({"id": None, "reader_id": rid, "item_id": it["id"], "method": "photograph", "pages": pages,
                   "delivery": "collect", "fee": float(fee), "status": "ready",
                   "ordered_on": d(TODAY - timedelta(days=5))})
    readers[rid]["balance_due"] = float(owed + fee)
orders.sort(key=lambda o: (o["ordered_on"], o["reader_id"]))
for n, o in enumerate(orders, 1):
    o["id"] = f"CO{n:04d}"
    copy_orders[o["id"]] = o
for r in readers.values():
    r["balance_due"] = round(r["balance_due"], 2)

db = {"meta": {"today": d(TODAY), "service": "Marlow Street Archive reading room",
               "currency": "GBP", "desks_per_session": DESKS},
      "readers": readers, "items": items, "bookings": bookings, "requests": requests,
      "copy_orders": copy_orders}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
with open(out, "w") as f:
    json.dump(db, f, indent=2, sort_keys=False)
    f.write("\n")
print("readers", len(readers), "items", len(items), "bookings", len(bookings),
      "requests", len(requests), "copy_orders", len(copy_orders))
