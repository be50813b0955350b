"""Writes db.json for the coworking-space API deterministically (stdlib only)."""
import json
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 20250312
TODAY = date(2025, 3, 12)
NOW_HOUR = 10


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


PLANS = {
    "PLN-01": {"id": "PLN-01", "name": "Flex", "monthly_fee": 49.00, "discount_pct": 0,
               "monthly_hour_cap": 20, "advance_days": 7, "allowed_kinds": ["desk", "phone_booth"],
               "guest_passes_per_month": 1, "guest_pass_fee": 15.00, "invoice_billing": False,
               "available": True},
    "PLN-02": {"id": "PLN-02", "name": "Resident", "monthly_fee": 149.00, "discount_pct": 10,
               "monthly_hour_cap": 60, "advance_days": 14,
               "allowed_kinds": ["desk", "phone_booth", "meeting_room"],
               "guest_passes_per_month": 3, "guest_pass_fee": 10.00, "invoice_billing": False,
               "available": True},
    "PLN-03": {"id": "PLN-03", "name": "Team", "monthly_fee": 299.00, "discount_pct": 20,
               "monthly_hour_cap": 120, "advance_days": 30,
               "allowed_kinds": ["desk", "phone_booth", "meeting_room"],
               "guest_passes_per_month": 6, "guest_pass_fee": 0.00, "invoice_billing": True,
               "available": True},
    "PLN-04": {"id": "PLN-04", "name": "Founders (legacy)", "monthly_fee": 99.00, "discount_pct": 15,
               "monthly_hour_cap": 40, "advance_days": 14,
               "allowed_kinds": ["desk", "phone_booth", "meeting_room"],
               "guest_passes_per_month": 2, "guest_pass_fee": 5.00, "invoice_billing": False,
               "available": False},
    "PLN-05": {"id": "PLN-05", "name": "Night Owl", "monthly_fee": 39.00, "discount_pct": 5,
               "monthly_hour_cap": 16, "advance_days": 7, "allowed_kinds": ["desk"],
               "guest_passes_per_month": 0, "guest_pass_fee": 0.00, "invoice_billing": False,
               "available": True},
}

FIRST = ["Ava", "Ben", "Chloe", "Dmitri", "Elena", "Farah", "Gustav", "Hana", "Ivan", "Jade",
         "Kofi", "Lena", "Mateo", "Nadia", "Oscar", "Priya", "Quinn", "Rosa", "Sami", "Tara",
         "Uma", "Viktor", "Wen", "Ximena", "Yusuf", "Zoe"]
LAST = ["Achterberg", "Bianchi", "Castillo", "Dubois", "Eriksen", "Fischer", "Garcia", "Haddad",
        "Ito", "Jansen", "Kowalski", "Larsen", "Moreau", "Novak", "Okafor", "Petrov", "Quintero",
        "Rossi", "Santos", "Tanaka", "Ueda", "Varga", "Weber", "Yilmaz", "Zhang"]
DOMAINS = ["mail.com", "studio.io", "example.org", "freelance.dev"]
GUESTS = ["Alex Moore", "Bea Lind", "Carlos Ruiz", "Dana Wolfe", "Eli Brandt", "Fay Chen",
          "Gil Navarro", "Hugo Blanc", "Iris Koch", "Jon Pratt", "Kim Sato", "Leo Marsh"]


def main():
    rng = random.Random(SEED)
    db = {"meta": {"today": TODAY.isoformat(), "now_hour": NOW_HOUR, "currency": "credits",
                   "timezone": "local"},
          "plans": PLANS, "members": {}, "spaces": {}, "bookings": {}, "top_ups": {},
          "guest_passes": {}}

    # spaces
    sid = 0
    specs = ([("desk", 1)] * 12) + ([("phone_booth", 1)] * 4) + \
        [("meeting_room", c) for c in (4, 4, 6, 6, 8, 8, 10, 12)]
    desk_n = booth_n = room_n = 0
    room_names = ["Atlas", "Borealis", "Cobalt", "Delta", "Ember", "Fjord", "Granite", "Horizon"]
    for kind, cap in specs:
        sid += 1
        floor = 1 + (sid - 1) % 3
        if kind == "desk":
            desk_n += 1
            name = "Desk %d%s" % (floor, "ABCDEFGH"[(desk_n - 1) // 3])
            rate = rng.choice([4.0, 4.5, 5.0, 6.0])
            oh, ch = 7, 22
        elif kind == "phone_booth":
            booth_n += 1
            name = "Booth %d" % booth_n
            rate = 3.0
            oh, ch = 7, 22
        else:
            room_n += 1
            name = "%s Room" % room_names[room_n - 1]
            rate = {4: 18.0, 6: 24.0, 8: 30.0, 10: 38.0, 12: 45.0}[cap]
            oh, ch = 8, 20
        db["spaces"]["SP%02d" % sid] = {
            "id": "SP%02d" % sid, "name": name, "kind": kind, "floor": floor, "capacity": cap,
            "hourly_rate": rate, "open_hour": oh, "close_hour": ch, "status": "open"}
    db["spaces"]["SP07"]["status"] = "maintenance"
    db["spaces"]["SP22"]["status"] = "maintenance"

    # members
    used = set()
    plan_ids = ["PLN-01"] * 10 + ["PLN-02"] * 12 + ["PLN-03"] * 8 + ["PLN-04"] * 6 + ["PLN-05"] * 6
    for i in range(1, 43):
        while True:
            fn, ln = rng.choice(FIRST), rng.choice(LAST)
            if (fn, ln) not in used:
                used.add((fn, ln))
                break
        mid = "M%04d" % i
        joined = TODAY - timedelta(days=rng.randint(20, 700))
        pcd = None
        if rng.random() < 0.25:
            pcd = (TODAY - timedelta(days=rng.randint(0, 90))).isoformat()
            if pcd < joined.isoformat():
                pcd = joined.isoformat()
        db["members"][mid] = {
            "id": mid, "name": "%s %s" % (fn, ln),
            "email": "%s.%s@%s" % (fn.lower(), ln.lower(), rng.choice(DOMAINS)),
            "plan_id": plan_ids[(i - 1) % len(plan_ids)] if i > 1 else "PLN-02",
            "status": "active", "credit_balance": money(rng.choice([0, 5, 12.5, 20, 35.75, 60, 88.4,
                                                                     120, 150.25, 240, 310.6, 500])),
            "no_show_count": 0, "joined_on": joined.isoformat(), "plan_changed_on": pcd}
    for mid in ("M0009", "M0023", "M0036"):
        db["members"][mid]["status"] = "suspended"
    for mid in ("M0017", "M0040"):
        db["members"][mid]["status"] = "cancelled"
        db["members"][mid]["credit_balance"] = 0.0

    # bookings
    spaces = db["spaces"]
    members = db["members"]
    bookings = db["bookings"]

    def overlaps(b, d, sp, mem, s, h):
        if b["status"] == "cancelled" or b["date"] != d:
            return False
        if b["space_id"] != sp and b["member_id"] != mem:
            return False
        return b["start_hour"] < s + h and s < b["start_hour"] + b["hours"]

    def month_hours(mem, d):
        return sum(b["hours"] for b in bookings.values() if b["member_id"] == mem
                   and b["status"] != "cancelled" and b["date"][:7] == d[:7])

    bid = 0
    attempts = 0
    member_ids = sorted(members)
    while len(bookings) < 130 and attempts < 5000:
        attempts += 1
        mem = rng.choice(member_ids)
        m = members[mem]
        plan = PLANS[m["plan_id"]]
        sp = rng.choice(sorted(spaces))
        s = spaces[sp]
        if s["kind"] not in plan["allowed_kinds"]:
            continue
        # bias towards today
        r = rng.random()
        if r < 0.2:
            off = 0
        elif r < 0.6:
            off = rng.randint(-20, -1)
        else:
            off = rng.randint(1, plan["advance_days"])
        d = (TODAY + timedelta(days=off)).isoformat()
        h = rng.choice([1, 1, 2, 2, 3, 4])
        if off == 0:
            st = rng.choice([8, 9, 9, 10, 10, 11, 12, 14, 15, 16])
        else:
            st = rng.randint(s["open_hour"], s["close_hour"] - 1)
        if st < s["open_hour"] or st + h > s["close_hour"]:
            continue
        if any(overlaps(b, d, sp, mem, st, h) for b in bookings.values()):
            continue
        if month_hours(mem, d) + h > plan["monthly_hour_cap"]:
            continue
        if m["status"] == "cancelled" and off >= 0:
            continue
        if s["status"] == "maintenance" and off >= 0:
            continue
        if s["kind"] == "meeting_room":
            att = rng.randint(2, s["capacity"])
        else:
            att = 1
        cost = money(Decimal(str(s["hourly_rate"])) * h * (100 - plan["discount_pct"]) / 100)
        created = TODAY + timedelta(days=min(off, 0) - rng.randint(1, 6))
        bid += 1
        b = {"id": "BK%06d" % bid, "member_id": mem, "space_id": sp, "date": d, "start_hour": st,
             "hours": h, "attendees": att, "status": "confirmed", "cost": cost,
             "refund_amount": None, "cancel_reason": None, "cancelled_on": None,
             "checked_in_hour": None, "created_on": created.isoformat()}
        end = st + h
        if off < 0 or (off == 0 and end <= NOW_HOUR):
            x = rng.random()
            if off >= -3 and m["status"] == "active" and rng.random() < 0.45:
                pass  # ended, not yet resolved by the front desk: stays confirmed
            elif x < 0.72:
                b["status"] = "completed"
                b["checked_in_hour"] = st
            elif x < 0.86:
                b["status"] = "no_show"
            else:
                b["status"] = "cancelled"
        elif off == 0 and st <= NOW_HOUR:
            if rng.random() < 0.5:
                b["status"] = "checked_in"
                b["checked_in_hour"] = max(st - 1, 7) if rng.random() < 0.3 else st
        else:
            if m["status"] != "active":
                continue_flag = True
            else:
                continue_flag = False
            if continue_flag:
                bid -= 1
                continue
            if rng.random() < 0.15:
                b["status"] = "cancelled"
        if b["status"] == "cancelled":
            lo = date.fromisoformat(b["created_on"])
            hi = min(TODAY, date.fromisoformat(d))
            cdate = lo + timedelta(days=rng.randint(0, max(0, (hi - lo).days)))
            days_before = (date.fromisoformat(d) - cdate).days
            b["cancelled_on"] = cdate.isoformat()
            pct = 100 if days_before >= 2 else (50 if days_before == 1 else 0)
            b["refund_amount"] = money(Decimal(str(cost)) * pct / 100)
            b["cancel_reason"] = rng.choice(["schedule change", "meeting moved online",
                                             "feeling unwell", "booked wrong room"])
        bookings[b["id"]] = b
        if b["status"] == "no_show":
            m["no_show_count"] += 1

    # unresolved past bookings and upcoming ones for the members close to suspension
    extra = [("M0004", -1, 14, 2, "confirmed"), ("M0011", -2, 9, 1, "confirmed"),
             ("M0011", 3, 13, 2, "confirmed"), ("M0011", 0, 16, 1, "confirmed")]
    for mem, off, st, h, status in extra:
        m = members[mem]
        plan = PLANS[m["plan_id"]]
        d = (TODAY + timedelta(days=off)).isoformat()
        for sp in sorted(spaces):
            s = spaces[sp]
            if s["kind"] != "desk" or s["status"] != "open":
                continue
            if any(overlaps(b, d, sp, mem, st, h) for b in bookings.values()):
                continue
            bid += 1
            cost = money(Decimal(str(s["hourly_rate"])) * h * (100 - plan["discount_pct"]) / 100)
            bookings["BK%06d" % bid] = {
                "id": "BK%06d" % bid, "member_id": mem, "space_id": sp, "date": d,
                "start_hour": st, "hours": h, "attendees": 1, "status": status, "cost": cost,
                "refund_amount": None, "cancel_reason": None, "cancelled_on": None,
                "checked_in_hour": None,
                "created_on": (TODAY + timedelta(days=min(off, 0) - 2)).isoformat()}
            break

    # make two active members sit one no-show away from suspension
    members["M0004"]["credit_balance"] = 64.5
    for mid in ("M0004", "M0011"):
        if members[mid]["no_show_count"] < 2:
            members[mid]["no_show_count"] = 2
    for m in members.values():
        if m["no_show_count"] >= 3 and m["status"] == "active":
            m["status"] = "suspended"

    # top-ups
    tid = 0
    for _ in range(45):
        mem = rng.choice(member_ids)
        m = members[mem]
        if m["status"] == "cancelled":
            continue
        plan = PLANS[m["plan_id"]]
        amt = money(rng.choice([20, 25, 50, 75, 100, 120, 150, 200, 250, 300, 40.5, 99.99]))
        bonus = money(Decimal(str(amt)) * (10 if amt >= 200 else 5 if amt >= 100 else 0) / 100)
        method = rng.choice(["card", "card", "bank_transfer"] + (["invoice"] * 2 if plan["invoice_billing"] else []))
        off = rng.choice([0, 0, -1, -2, -5, -9, -14, -21, -30, -45])
        tid += 1
        db["top_ups"]["TU%04d" % tid] = {
            "id": "TU%04d" % tid, "member_id": mem, "amount": amt, "bonus": bonus,
            "credits_added": money(Decimal(str(amt)) + Decimal(str(bonus))), "method": method,
            "created_on": (TODAY + timedelta(days=off)).isoformat()}

    # guest passes
    gid = 0
    gp = db["guest_passes"]
    for _ in range(300):
        if len(gp) >= 36:
            break
        mem = rng.choice(member_ids)
        m = members[mem]
        plan = PLANS[m["plan_id"]]
        if plan["guest_passes_per_month"] == 0:
            continue
        off = rng.randint(-25, 10)
        d = (TODAY + timedelta(days=off)).isoformat()
        if off >= 0 and m["status"] != "active":
            continue
        guest = rng.choice(GUESTS)
        clash = any(g["status"] != "revoked" and g["date"] == d and
                    (g["member_id"] == mem or g["guest_name"].lower() == guest.lower())
                    for g in gp.values())
        if clash:
            continue
        cnt = sum(1 for g in gp.values() if g["member_id"] == mem and g["status"] != "revoked"
                  and g["date"][:7] == d[:7])
        if cnt >= plan["guest_passes_per_month"]:
            continue
        gid += 1
        status = "issued"
        revoked = None
        if off < 0:
            status = "used" if rng.random() < 0.8 else "revoked"
        elif rng.random() < 0.15:
            status = "revoked"
        issued = TODAY + timedelta(days=min(off, 0) - rng.randint(0, 5))
        if status == "revoked":
            revoked = min(TODAY, date.fromisoformat(d) - timedelta(days=1)).isoformat()
            if revoked < issued.isoformat():
                revoked = issued.isoformat()
        gp["GP%04d" % gid] = {
            "id": "GP%04d" % gid, "member_id": mem, "guest_name": guest, "date": d,
            "fee": plan["guest_pass_fee"], "status": status, "issued_on": issued.isoformat(),
            "revoked_on": revoked}

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as f:
        json.dump(db, f, indent=1, sort_keys=False)
        f.write("\n")
    return db


if __name__ == "__main__":
    d = main()
    print({k: len(v) for k, v in d.items() if k != "meta"})
