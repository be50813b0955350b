"""Generate db.json for the ski school API (deterministic, stdlib only)."""
import json
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

TODAY = date(2025, 2, 10)
SEED = 7311

LEVELS = ["beginner", "intermediate", "advanced"]
RATES = {"skis": "28.00", "snowboard": "30.00", "boots": "12.00", "helmet": "6.00", "poles": "5.00"}
FIRST = ["Anna", "Lukas", "Marie", "Jonas", "Sofia", "Felix", "Emma", "Noah", "Lea", "Paul",
         "Clara", "Elias", "Mila", "Ben", "Nora", "Oskar", "Ida", "Theo", "Greta", "Jakob",
         "Hanna", "Leon", "Frieda", "Emil", "Lina", "Anton", "Ella", "Moritz", "Rosa", "Vincent"]
LAST = ["Berger", "Huber", "Gruber", "Wagner", "Pichler", "Moser", "Steiner", "Hofer", "Leitner",
        "Fischer", "Bauer", "Eder", "Wallner", "Schwarz", "Brunner", "Lang", "Winkler", "Maier",
        "Koller", "Egger", "Reiter", "Haas", "Auer", "Fuchs"]
DOMAINS = ["mailbox.at", "alpmail.com", "example.org", "snowpost.eu"]
REASONS = ["High winds closed the upper lifts", "Instructor illness, no replacement",
           "Not enough snow on the practice slope", "Avalanche warning level 4"]


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def age_on(birth, d):
    return d.year - birth.year - ((d.month, d.day) < (birth.month, birth.day))


def build():
    rng = random.Random(SEED)
    db = {"meta": {"today": TODAY.isoformat(), "school": "Gipfelwind Ski & Snowboard School",
                   "currency": "EUR", "season_start": "2024-12-14", "season_end": "2025-04-13"},
          "guests": {}, "instructors": {}, "lessons": {}, "bookings": {}, "rentals": {}}

    # guests
    used = set()
    for i in range(1, 61):
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in used:
                used.add((fn, ln))
                break
        if rng.random() < 0.3:
            birth = date(rng.randint(2010, 2019), rng.randint(1, 12), rng.randint(1, 28))
        else:
            birth = date(rng.randint(1958, 2004), rng.randint(1, 12), rng.randint(1, 28))
        gid = "G%04d" % i
        db["guests"][gid] = {
            "id": gid, "full_name": "%s %s" % (fn, ln),
            "email": "%s.%s@%s" % (fn.lower(), ln.lower(), rng.choice(DOMAINS)),
            "birth_date": birth.isoformat(),
            "skill_level": rng.choice(LEVELS),
            "account_status": "on_hold" if rng.random() < 0.1 else "active",
            "credit_balance": money(rng.choice([0, 0, 0, 0, 25, 40, 57.5, 90, 120.25, 200])),
            "lessons_attended": rng.randint(0, 6),
            "created_on": (TODAY - timedelta(days=rng.randint(20, 800))).isoformat(),
        }
    guests = db["guests"]

    # instructors
    for i in range(1, 21):
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        r = rng.random()
        disc = ["ski"] if r < 0.5 else (["snowboard"] if r < 0.75 else ["ski", "snowboard"])
        iid = "I%03d" % i
        db["instructors"][iid] = {
            "id": iid, "full_name": "%s %s" % (fn, ln), "disciplines": disc,
            "cert_level": rng.choice([1, 1, 2, 2, 2, 3, 3]),
            "status": "on_leave" if i in (4, 11, 17) else "active",
            "lessons_assigned": 0,
        }
    instructors = db["instructors"]

    def qualified(ins, les):
        need = {"beginner": 1, "intermediate": 2, "advanced": 3}[les["level"]]
        if les["lesson_type"] == "private":
            need = max(need, 2)
        return (les["discipline"] in ins["disciplines"] and ins["cert_level"] >= need
                and ins["status"] == "active")

    # lessons
    offsets = [0] * 8 + [1] * 3 + [2] * 3 + list(range(-12, 0)) * 2 + \
        [rng.randint(3, 75) for _ in range(57)]
    for i, off in enumerate(sorted(offsets), start=1):
        lid = "L%04d" % i
        ltype = "private" if rng.random() < 0.25 else "group"
        level = rng.choice(LEVELS)
        d = TODAY + timedelta(days=off)
        if ltype == "group":
            cap = rng.choice([6, 8, 8, 10])
            price = {"beginner": 55.0, "intermediate": 62.0, "advanced": 69.0}[level]
        else:
            cap = rng.randint(1, 3)
            price = {"beginner": 95.0, "intermediate": 110.0, "advanced": 125.0}[level]
        if off < 0:
            status = "cancelled" if rng.random() < 0.1 else "completed"
        else:
            status = "cancelled" if (off > 2 and rng.random() < 0.07) else "scheduled"
        les = {"id": lid, "discipline": "ski" if rng.random() < 0.68 else "snowboard",
               "level": level, "lesson_type": ltype, "date": d.isoformat(),
               "slot": rng.choice(["morning", "afternoon"]), "capacity": cap,
               "seats_booked": 0, "price_per_seat": price, "instructor_id": None,
               "status": status, "cancel_reason": rng.choice(REASONS) if status == "cancelled" else None}
        want = off < 1 or rng.random() < 0.65
        if want:
            cands = [x for x in instructors.values() if qualified(x, les)]
            rng.shuffle(cands)
            for ins in cands:
                clash = any(o["instructor_id"] == ins["id"] and o["date"] == les["date"]
                            and o["slot"] == les["slot"] and o["status"] != "cancelled"
                            for o in db["lessons"].values())
                if not clash:
                    les["instructor_id"] = ins["id"]
                    break
        db["lessons"][lid] = les
    for les in db["lessons"].values():
        if les["status"] == "scheduled" and les["instructor_id"]:
            instructors[les["instructor_id"]]["lessons_assigned"] += 1

    # bookings
    rank = {x: i for i, x in enumerate(LEVELS)}
    bn = 0
    active_slots = set()  # (guest, date, slot) for non-cancelled bookings
    for les in db["lessons"].values():
        d = date.fromisoformat(les["date"])
        nb = 1 if les["lesson_type"] == "private" else rng.randint(0, 4)
        if d == TODAY and les["lesson_type"] == "group":
            nb = rng.randint(3, 6)
        if les["lesson_type"] == "private" and rng.random() < 0.3:
            nb = 0
        gl = list(guests.values())
        rng.shuffle(gl)
        made = 0
        for g in gl:
            if made >= nb:
                break
            if les["lesson_type"] == "group" and rank[g["skill_level"]] < rank[les["level"]]:
                continue
            key = (g["id"], les["date"], les["slot"])
            if key in active_slots:
                continue
            free = les["capacity"] - les["seats_booked"]
            if free < 1:
                break
            seats = 1 if rng.random() < 0.6 else rng.randint(1, min(3, free))
            lead = rng.randint(1, 30)
            booked = min(d - timedelta(days=lead), TODAY - timedelta(days=rng.randint(0, 3)))
            early = (d - booked).days >= 14
            amount = money(Decimal(str(les["price_per_seat"])) * seats * (Decimal("0.9") if early else 1))
            bn += 1
            bid = "B%04d" % bn
            b = {"id": bid, "guest_id": g["id"], "lesson_id": les["id"], "seats": seats,
                 "status": "reserved", "booked_on": booked.isoformat(), "early_bird": early,
                 "amount": amount, "payment_method": None, "paid_on": None,
                 "cancelled_on": None, "cancelled_by": None, "refund_amount": None}
            pay_day = booked + timedelta(days=rng.randint(0, max(0, min((d - booked).days - 1, (TODAY - booked).days))))
            r = rng.random()
            if les["status"] == "cancelled":
                status = "cancelled"
            elif les["status"] == "completed":
                status = "attended" if r < 0.8 else ("no_show" if r < 0.9 else "guest_cancel")
            else:
                status = "reserved" if r < 0.35 else ("paid" if r < 0.9 else "guest_cancel")
                if d == TODAY and status == "reserved" and rng.random() < 0.6:
                    status = "paid"
            paid = status in ("attended", "no_show", "paid") or (status != "reserved" and rng.random() < 0.6)
            if paid:
                b["payment_method"] = "credit" if rng.random() < 0.2 else "card"
                b["paid_on"] = pay_day.isoformat()
            if status == "cancelled":
                b["status"] = "cancelled"
                b["cancelled_by"] = "school"
                cd = min(d - timedelta(days=rng.randint(0, 2)), TODAY)
                b["cancelled_on"] = max(cd, pay_day).isoformat()
                b["refund_amount"] = amount if paid else 0.0
            elif status == "guest_cancel":
                b["status"] = "cancelled"
                b["cancelled_by"] = "guest"
                cd = pay_day + timedelta(days=rng.randint(0, max(0, min((d - pay_day).days, (TODAY - pay_day).days))))
                b["cancelled_on"] = cd.isoformat()
                left = (d - cd).days
                pct = Decimal("1") if left >= 3 else (Decimal("0.5") if left >= 1 else Decimal("0"))
                b["refund_amount"] = money(Decimal(str(amount)) * pct) if paid else 0.0
            else:
                b["status"] = status
                les["seats_booked"] += seats
                active_slots.add(key)
            db["bookings"][bid] = b
            made += 1
        if les["status"] == "cancelled":
            les["seats_booked"] = 0

    # rentals
    open_types = set()
    rn = 0
    gids = sorted(guests)
    while rn < 70:
        g = guests[rng.choice(gids)]
        et = rng.choice(list(RATES))
        start = TODAY + timedelta(days=rng.randint(-6, 0) if rng.random() < 0.4 else rng.randint(-20, 25))
        days = rng.choice([1, 2, 3, 3, 4, 5, 6, 7, 7, 10])
        end = start + timedelta(days=days - 1)
        if end < TODAY:
            r = rng.random()
            status = "returned" if r < 0.7 else ("out" if r < 0.88 else "cancelled")
        elif start <= TODAY:
            status = "out" if rng.random() < 0.5 else "reserved"
        else:
            status = "reserved" if rng.random() < 0.85 else "cancelled"
        if status in ("out", "reserved"):
            if (g["id"], et) in open_types:
                continue
            open_types.add((g["id"], et))
        birth = date.fromisoformat(g["birth_date"])
        rate = Decimal(RATES[et])
        if et == "helmet" and age_on(birth, start) < 12:
            rate = Decimal("0")
        total = money(rate * days * (Decimal("0.85") if days >= 6 else 1))
        rn += 1
        rid = "R%04d" % rn
        rec = {"id": rid, "guest_id": g["id"], "equipment_type": et,
               "start_date": start.isoformat(), "end_date": end.isoformat(), "days": days,
               "daily_rate": float(rate), "total": total, "status": status,
               "picked_up_on": None, "returned_on": None, "late_fee": None}
        if status in ("out", "returned"):
            rec["picked_up_on"] = start.isoformat()
        if status == "returned":
            late = 0 if rng.random() < 0.8 else rng.randint(1, 2)
            ret = end + timedelta(days=late)
            if ret > TODAY:
                ret, late = end, 0
            rec["returned_on"] = ret.isoformat()
            rec["late_fee"] = money(rate * late * Decimal("1.5"))
        db["rentals"][rid] = rec
    return db


if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(out, "w") as f:
        json.dump(build(), f, indent=2)
        f.write("\n")
