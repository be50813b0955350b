"""Writes db.json for the gym class-booking reference API (deterministic, stdlib only)."""
import json
import os
import random
from datetime import date, timedelta

SEED = 9031
TODAY = date(2025, 9, 15)
ACTIVITIES = [("Spin", "all", 1), ("Yoga Flow", "all", 1), ("HIIT", "advanced", 2), ("Pilates", "all", 1),
              ("Boxing", "advanced", 2), ("Barre", "all", 1), ("Kettlebell", "advanced", 2), ("Stretch", "all", 1)]
COACHES = ["Imke Strand", "Tobias Reyes", "Ngozi Adebayo", "Luca Ferri", "Sunniva Holm", "Mateo Quiroga"]
FIRST = ["Alva", "Bastian", "Cleo", "Dario", "Edda", "Felix", "Gaia", "Hugo", "Ida", "Jules", "Kaja", "Lenny",
         "Mira", "Nils", "Oona", "Per", "Quentin", "Runa", "Silas", "Tove", "Uma", "Vidar", "Wilma", "Xaver",
         "Ylva", "Zora", "Anton", "Britt", "Cai", "Dagny", "Emil", "Frida", "Gus", "Hedda", "Ivo", "Jolene",
         "Kasper", "Liv", "Malte", "Nora"]
LAST = ["Aalto", "Brekke", "Castell", "Dahl", "Engel", "Falk", "Grimm", "Hagen", "Isaksen", "Jorgensen",
        "Krogh", "Lund", "Moe", "Nyberg", "Ostby", "Prytz"]
PLANS = ["basic", "basic", "plus", "unlimited"]


def main():
    rng = random.Random(SEED)
    members = {}
    for i in range(1, 41):
        mid = "M%03d" % i
        plan = PLANS[i % 4]
        members[mid] = {"id": mid, "name": "%s %s" % (FIRST[i - 1], LAST[(i * 3) % len(LAST)]),
                        "email": "%s%d@fitmail.example" % (FIRST[i - 1].lower(), i), "plan": plan,
                        "status": "active", "credits": 0 if plan == "unlimited" else rng.choice([0, 1, 2, 4, 6, 9, 12]),
                        "no_shows": rng.choice([0, 0, 0, 1, 2, 3]), "total_spent": rng.choice([0.0, 60.0, 110.0, 170.0, 200.0])}
    for mid in ("M007", "M018", "M033"):
        members[mid]["status"] = "frozen"
        members[mid]["frozen_until"] = (TODAY + timedelta(days=rng.randint(5, 40))).isoformat()
    classes = {}
    k = 0
    for offset in range(-5, 8):
        day = TODAY + timedelta(days=offset)
        for slot in rng.sample(["07:00", "09:30", "12:15", "17:30", "19:00"], 3):
            k += 1
            act, level, cost = rng.choice(ACTIVITIES)
            cid = "K%04d" % k
            classes[cid] = {"id": cid, "activity": act, "level": level, "instructor": rng.choice(COACHES),
                            "date": day.isoformat(), "start_time": slot, "capacity": rng.choice([3, 4, 5, 6]),
                            "booked_count": 0, "credit_cost": cost,
                            "status": "completed" if offset < -1 else "scheduled"}
    for cid in ("K0023", "K0030", "K0036"):
        classes[cid]["status"] = "cancelled"
        classes[cid]["cancel_reason"] = rng.choice(["instructor ill", "room maintenance", "low demand"])
    bookings = {}
    b = 0
    by_day = {}
    for cid in sorted(classes):
        c = classes[cid]
        if c["status"] == "cancelled":
            continue
        want = min(c["capacity"] + rng.choice([0, 0, 1, 3]), rng.randint(1, c["capacity"] + 3))
        for mid in rng.sample(sorted(members), 40):
            if want == 0:
                break
            m = members[mid]
            if (mid, c["date"]) in by_day or (c["level"] == "advanced" and m["plan"] == "basic"):
                continue
            if m["status"] == "frozen" and c["date"] >= TODAY.isoformat():
                continue
            want -= 1
            by_day[(mid, c["date"])] = cid
            b += 1
            full = c["booked_count"] >= c["capacity"]
            if c["status"] == "completed":
                if full:
                    continue
                st = rng.choice(["attended", "attended", "attended", "no_show"])
            else:
                st = "waitlisted" if full else ("attended" if c["date"] < TODAY.isoformat() and rng.random() < 0.3 else "booked")
            charged = 0 if m["plan"] == "unlimited" else c["credit_cost"]
            bookings["B%04d" % b] = {"id": "B%04d" % b, "member_id": mid, "class_id": cid, "status": st,
                                     "booked_on": (date.fromisoformat(c["date"]) - timedelta(days=rng.randint(1, 6))).isoformat(),
                                     "credits_charged": charged}
            if st != "waitlisted":
                c["booked_count"] += 1
    # a few cancelled bookings in the history
    waitlisted = {x["class_id"] for x in bookings.values() if x["status"] == "waitlisted"}
    for bid in rng.sample(sorted(bookings), 40):
        rec = bookings[bid]
        if rec["status"] == "booked" and classes[rec["class_id"]]["date"] > TODAY.isoformat() \
                and rec["class_id"] not in waitlisted:
            rec["status"] = "cancelled"
            rec["cancelled_on"] = (TODAY - timedelta(days=rng.randint(0, 3))).isoformat()
            members[rec["member_id"]]["credits"] += rec["credits_charged"]
            classes[rec["class_id"]]["booked_count"] -= 1
    db = {"meta": {"today": TODAY.isoformat(), "gym": "Northlight Fitness"},
          "members": members, "classes": classes, "bookings": bookings}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as f:
        json.dump(db, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
