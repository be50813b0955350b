"""Builds db.json for the Kerbside Driving School API (stdlib only, fixed seed)."""
import datetime as dt
import json
import os
from decimal import Decimal, ROUND_HALF_UP

import random

R = random.Random(20250514)
TODAY = dt.date(2025, 5, 14)
FIRST = ["Amelia", "Jonas", "Priya", "Oscar", "Lena", "Mateo", "Chloe", "Tariq", "Freya", "Idris",
         "Sofia", "Kian", "Maya", "Ruben", "Hana", "Elliot", "Zara", "Felix", "Nora", "Dev",
         "Iris", "Luca", "Aisha", "Callum", "Yara", "Theo", "Mila", "Samir", "Ella", "Finn"]
LAST = ["Hughes", "Okafor", "Lindqvist", "Brennan", "Moreau", "Patel", "Novak", "Whitaker",
        "Castillo", "Fraser", "Nakamura", "Doyle", "Haddad", "Kowalski", "Ramos", "Sutton",
        "Achterberg", "Quinn", "Mbeki", "Jensen", "Farrell", "Rossi", "Stewart", "Varga"]
INSTRUCTORS = [("Grace Porter", ["manual", "automatic"], 8, "active"),
               ("Declan Murphy", ["manual"], 6, "active"),
               ("Anika Sharma", ["automatic"], 6, "active"),
               ("Marcus Bell", ["manual", "automatic"], 6, "active"),
               ("Ingrid Solberg", ["manual"], 8, "active"),
               ("Tomasz Zielinski", ["manual", "automatic"], 6, "on_leave"),
               ("Ruth Abernethy", ["automatic"], 8, "active"),
               ("Kwame Asante", ["manual"], 6, "active"),
               ("Helen Marsh", ["manual", "automatic"], 6, "on_leave"),
               ("Pablo Ortega", ["manual", "automatic"], 8, "active")]
CARS = [("KD21 XMA", "Ford Fiesta", "manual", "available", 48210, 60000),
        ("KD21 XMB", "Ford Fiesta", "manual", "available", 59755, 60000),
        ("KD22 LPR", "Vauxhall Corsa", "manual", "available", 31400, 45000),
        ("KD22 LPS", "Vauxhall Corsa", "manual", "maintenance", 45020, 45000),
        ("KD23 TZE", "Toyota Yaris Hybrid", "automatic", "available", 22380, 30000),
        ("KD23 TZF", "Toyota Yaris Hybrid", "automatic", "available", 29870, 30000),
        ("KD20 VWG", "VW Polo", "manual", "available", 88930, 90000),
        ("KD24 EVA", "Renault Zoe", "automatic", "available", 9120, 15000),
        ("KD19 GHP", "Skoda Fabia", "manual", "maintenance", 104500, 105000)]
PACKAGES = {"single": (1, Decimal("57.50")), "pack_5": (5, Decimal("279.00")),
            "pack_10": (10, Decimal("545.00")), "pack_20": (20, Decimal("1049.00"))}


def iso(d):
    return d.isoformat()


def age(dob, on):
    return on.year - dob.year - ((on.month, on.day) < (dob.month, dob.day))


def q2(x):
    return float(x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def main():
    db = {"meta": {"today": iso(TODAY), "currency": "EUR", "school": "Kerbside Driving School",
                   "timezone": "Europe/Dublin"},
          "instructors": {}, "cars": {}, "students": {}, "packages": {}, "payments": {},
          "lessons": {}, "tests": {}}
    for i, (name, trs, hrs, status) in enumerate(INSTRUCTORS, 1):
        iid = f"INS{i:02d}"
        db["instructors"][iid] = {"instructor_id": iid, "full_name": name, "status": status,
                                  "transmissions": trs, "max_hours_per_day": hrs, "lessons_given": R.randint(150, 900)}
    for i, (plate, model, tr, status, odo, svc) in enumerate(CARS, 1):
        cid = f"CAR{i:02d}"
        db["cars"][cid] = {"car_id": cid, "plate": plate, "model": model, "transmission": tr,
                           "status": status, "odometer_km": odo, "next_service_km": svc}

    students = db["students"]
    used = set()
    for i in range(80):
        sid = f"S{1001 + i}"
        while True:
            fn, ln = R.choice(FIRST), R.choice(LAST)
            if (fn, ln) not in used:
                used.add((fn, ln))
                break
        young = R.random() < 0.6
        dob = TODAY - dt.timedelta(days=R.randint(17 * 365 + 5, 21 * 365 + 200) if young
                                   else R.randint(22 * 365, 50 * 365))
        if dob.month == 2 and dob.day == 29:
            dob = dob - dt.timedelta(days=1)
        reg = TODAY - dt.timedelta(days=R.randint(20, 400))
        status = R.choices(["active", "suspended", "graduated"], [80, 8, 12])[0]
        theory = status == "graduated" or R.random() < 0.55
        done = R.randint(10, 40) if status == "graduated" else R.choice([0, 2, 4, 6, 8, 9, 10, 11, 13, 16, 20, 24])
        if status == "active" and R.random() < 0.25:
            due = R.choice([30.0, 40.0, 45.0, 60.0, 80.0, 120.0, 135.0, 160.0, 22.5])
        else:
            due = 0.0
        if status == "suspended":
            due = R.choice([80.0, 120.0, 150.0])
        students[sid] = {"student_id": sid, "full_name": f"{fn} {ln}",
                         "email": f"{fn.lower()}.{ln.lower()}{R.randint(1, 99)}@mailbox.example",
                         "phone": f"+353 8{R.randint(3, 9)} {R.randint(100, 999)} {R.randint(1000, 9999)}"
                         if R.random() < 0.85 else None,
                         "date_of_birth": iso(dob), "transmission": "manual" if R.random() < 0.6 else "automatic",
                         "status": status, "lesson_credits": 0 if status == "graduated" else R.choice([0, 0, 1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 20, 30, 36, 38]),
                         "lessons_completed": done, "minutes_driven": done * 60 + R.choice([0, 0, 60, 120]),
                         "no_show_count": 3 if status == "suspended" else R.choice([0, 0, 0, 0, 1, 2]),
                         "amount_due": due, "theory_passed": theory,
                         "theory_passed_on": iso(reg + dt.timedelta(days=R.randint(5, 19))) if theory else None,
                         "registered_on": iso(reg)}
    sids = sorted(students)

    # packages: purchase history
    pk = 5001
    for sid in sids:
        st = students[sid]
        reg = dt.date.fromisoformat(st["registered_on"])
        for _ in range(R.choice([0, 1, 1, 1, 2, 2, 3])):
            if pk > 5110:
                break
            ptype = R.choice(["single", "pack_5", "pack_5", "pack_10", "pack_10", "pack_20"])
            cr, price = PACKAGES[ptype]
            on = reg + dt.timedelta(days=R.randint(0, (TODAY - reg).days))
            disc = price * Decimal("0.15") if age(dt.date.fromisoformat(st["date_of_birth"]), on) < 21 else Decimal(0)
            disc = Decimal(str(q2(disc)))
            pid = f"P{pk}"
            pk += 1
            db["packages"][pid] = {"package_id": pid, "student_id": sid, "package_type": ptype, "credits": cr,
                                   "list_price": float(price), "discount_amount": float(disc),
                                   "price_paid": float(price - disc), "purchased_on": iso(on)}

    # payments
    for n in range(1, 61):
        sid = R.choice(sids)
        reg = dt.date.fromisoformat(students[sid]["registered_on"])
        pid = f"PM{n:04d}"
        db["payments"][pid] = {"payment_id": pid, "student_id": sid,
                               "amount": R.choice([30.0, 40.0, 45.0, 60.0, 120.0, 135.0, 27.5]),
                               "method": R.choice(["card", "card", "cash", "bank_transfer"]),
                               "paid_on": "", "amount_due_after": 0.0}
        db["payments"][pid]["paid_on"] = iso(reg + dt.timedelta(days=R.randint(1, max(1, (TODAY - reg).days))))
    pays = sorted(db["payments"].values(), key=lambda p: (p["paid_on"], p["payment_id"]))
    for i, p in enumerate(pays, 1):  # ids in date order
        p["payment_id"] = f"PM{i:04d}"
    db["payments"] = {p["payment_id"]: p for p in pays}

    # lessons
    lessons = []
    inst_ok = [i for i in db["instructors"]]
    tries = 0
    while len(lessons) < 150 and tries < 20000:
        tries += 1
        r = R.random()
        off = R.randint(-4, 0) if r < 0.2 else 1 if r < 0.27 else R.randint(-45, 30)
        day = TODAY + dt.timedelta(days=off)
        if day.weekday() == 6 :
            continue
        sid = R.choice(sids)
        st = students[sid]
        if off > 0 and st["status"] != "active":
            continue
        dur = 120 if R.random() < 0.2 else 60
        start = R.randrange(14, 40 - dur // 30 + 1) * 30
        cars = [c for c, r in db["cars"].items() if r["transmission"] == st["transmission"]
                and (off <= 0 or r["status"] == "available")]
        insts = [i for i in inst_ok if st["transmission"] in db["instructors"][i]["transmissions"]
                 and (off <= 0 or db["instructors"][i]["status"] == "active")]
        car, ins = R.choice(cars), R.choice(insts)
        same = [l for l in lessons if l["date"] == iso(day) and l["status"] != "cancelled"]
        if any(l["student_id"] == sid for l in same):
            continue
        clash = False
        for l in same:
            ls, le = int(l["start_time"][:2]) * 60 + int(l["start_time"][3:]), int(l["end_time"][:2]) * 60 + int(l["end_time"][3:])
            if ls < start + dur and start < le and (l["instructor_id"] == ins or l["car_id"] == car):
                clash = True
        if clash or sum(l["duration_minutes"] for l in same if l["instructor_id"] == ins) + dur > db["instructors"][ins]["max_hours_per_day"] * 60:
            continue
        booked_on = day - dt.timedelta(days=R.randint(2, 25))
        if booked_on > TODAY:
            booked_on = TODAY - dt.timedelta(days=R.randint(0, 3))
        cr = dur // 60
        rec = {"lesson_id": "", "student_id": sid, "instructor_id": ins, "car_id": car, "date": iso(day),
               "start_time": f"{start // 60:02d}:{start % 60:02d}",
               "end_time": f"{(start + dur) // 60:02d}:{(start + dur) % 60:02d}",
               "duration_minutes": dur, "credits_used": cr, "status": "booked", "booked_on": iso(booked_on),
               "completed_on": None, "km_driven": None, "cancelled_on": None, "cancelled_by": None,
               "credits_refunded": 0, "fee_charged": 0.0}
        if off < -4:
            status = R.choices(["completed", "no_show", "cancelled"], [80, 7, 13])[0]
        elif off <= 0:
            status = R.choices(["booked", "completed", "no_show", "cancelled"], [70, 22, 3, 5])[0]
        else:
            status = R.choices(["booked", "cancelled"], [86, 14])[0]
        if status == "completed":
            rec.update(status="completed", completed_on=iso(min(TODAY, day + dt.timedelta(days=R.randint(0, 1)))),
                       km_driven=R.randint(18, 45) * cr)
        elif status == "no_show":
            rec.update(status="no_show", fee_charged=40.0)
        elif status == "cancelled":
            c_on = max(booked_on, day - dt.timedelta(days=R.choice([0, 1, 2, 3, 5, 8])))
            c_on = min(c_on, TODAY)
            notice = (day - c_on).days
            by = "school" if R.random() < 0.25 else "student"
            refund, fee = cr, 0.0
            if by == "student" and notice == 1:
                fee = 30.0 * cr
            elif by == "student" and notice == 0:
                refund = 0
            rec.update(status="cancelled", cancelled_on=iso(c_on), cancelled_by=by,
                       credits_refunded=refund, fee_charged=fee)
        lessons.append(rec)
    lessons.sort(key=lambda l: (l["booked_on"], l["date"], l["start_time"]))
    for i, l in enumerate(lessons, 1):
        l["lesson_id"] = f"L{20000 + i}"
        db["lessons"][l["lesson_id"]] = l

    # tests
    tests = []

    def add_test(sid, tt, day, status, fee):
        booked = day - dt.timedelta(days=R.randint(15, 40))
        rec = {"test_id": "", "student_id": sid, "test_type": tt, "date": iso(day), "status": status,
               "fee": fee, "booked_on": iso(min(booked, TODAY)), "result_recorded_on": None,
               "cancelled_on": None, "refund_amount": None}
        if status in ("passed", "failed"):
            rec["result_recorded_on"] = iso(min(TODAY, day + dt.timedelta(days=R.randint(0, 2))))
        if status == "cancelled":
            c_on = min(TODAY, day - dt.timedelta(days=R.choice([2, 6, 10])))
            rec["cancelled_on"] = iso(c_on)
            rec["refund_amount"] = fee if (day - c_on).days >= 5 else q2(Decimal(str(fee)) * Decimal("0.5"))
        tests.append(rec)

    def weekday(d):
        while d.weekday() >= 5:
            d -= dt.timedelta(days=1)
        return d

    for sid in sids:
        st = students[sid]
        if st["theory_passed"] and R.random() < 0.3:
            d = weekday(dt.date.fromisoformat(st["theory_passed_on"]))
            st["theory_passed_on"] = iso(d)
            add_test(sid, "theory", d, "passed", 45.0)
        if st["status"] == "graduated" and R.random() < 0.5:
            add_test(sid, "practical", weekday(TODAY - dt.timedelta(days=R.randint(3, 60))), "passed", 120.0)
    active = [s for s in sids if students[s]["status"] == "active"]
    R.shuffle(active)
    busy = set()
    for sid in active[:10]:  # recent failures
        st = students[sid]
        if st["theory_passed"] and st["lessons_completed"] >= 10:
            add_test(sid, "practical", weekday(TODAY - dt.timedelta(days=R.randint(1, 30))), "failed", 120.0)
        elif not st["theory_passed"]:
            add_test(sid, "theory", weekday(TODAY - dt.timedelta(days=R.randint(1, 30))), "failed", 45.0)
    for sid in active[10:24]:  # upcoming or awaiting result
        st = students[sid]
        tt = "practical" if st["theory_passed"] and st["lessons_completed"] >= 10 else "theory"
        if st["theory_passed"] and tt == "theory":
            continue
        off = R.choice([-2, -1, 0, 1, 2, 2, 6, 9, 15, 20, 30, 45])
        add_test(sid, tt, weekday(TODAY + dt.timedelta(days=off)), "scheduled", 120.0 if tt == "practical" else 45.0)
        busy.add(sid)
    for sid in active[24:30]:
        tt = "practical" if students[sid]["theory_passed"] else "theory"
        add_test(sid, tt, weekday(TODAY + dt.timedelta(days=R.randint(3, 20))), "cancelled",
                 120.0 if tt == "practical" else 45.0)
    tests.sort(key=lambda t: (t["booked_on"], t["date"]))
    for i, t in enumerate(tests, 1):
        t["test_id"] = f"T{3000 + i}"
        db["tests"][t["test_id"]] = t

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as f:
        json.dump(db, f, indent=1)
    print({k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
