"""Builds db.json for the Brightpath Tutoring API (stdlib only, fixed seed)."""
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

SEED = 20250514
TODAY = dt.date(2025, 5, 14)
SUBJECTS = ["math", "english", "physics", "chemistry", "biology", "french", "spanish",
            "history", "computer_science"]
FIRST = ["Amara", "Ben", "Clara", "Dev", "Elif", "Farah", "Gus", "Hana", "Ivo", "Jade", "Kofi",
         "Lena", "Milo", "Nora", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Tess", "Uma", "Viktor",
         "Wren", "Xiao", "Yusuf", "Zoe", "Aiden", "Bea", "Caleb", "Dina", "Ezra", "Freya",
         "Gael", "Iris", "Jonah", "Kira", "Leo", "Maya", "Nico", "Olive"]
LAST = ["Okafor", "Lindqvist", "Moreau", "Haddad", "Novak", "Brennan", "Castillo", "Takahashi",
        "Fischer", "Osei", "Kowalski", "Ferreira", "Nguyen", "Abbott", "Varga", "Mendes",
        "Sato", "Quinlan", "Adeyemi", "Holm", "Rossi", "Petrov", "Duarte", "Iqbal", "Larsen",
        "Becker", "Yilmaz", "Oduya", "Marsh", "Delgado", "Chopra", "Walsh", "Eriksen",
        "Bianchi", "Kaplan", "Mbeki", "Sorensen", "Tanaka", "Whitfield", "Zhou", "Ortega",
        "Hughes", "Keller", "Lambert", "Nakamura", "Pereira", "Reyes", "Schmidt", "Vance",
        "Wojcik", "Ahmed", "Berg", "Conti", "Dubois", "Evans", "Gallo", "Horvat", "Jansen",
        "Kerr", "Lopez"]
NOTES = ["Worked through past exam paper.", "Good progress on fractions.",
         "Needs more practice with essay structure.", "Covered titration calculations.",
         "Reviewed vocabulary list 4.", "Started recursion exercises.",
         "Homework: chapter 6 questions.", "Confident with quadratic equations now."]
ARCHIVE_DAYS = 6
PAID_HOURS = [5, 6, 8, 10, 10, 12, 15, 20, 20, 25, 30, 40]


def q2(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def iso(d):
    return d.isoformat()


def discount_for(hours):
    return 10 if hours >= 20 else 5 if hours >= 10 else 0


def not_sunday(d):
    return d.weekday() != 6


def main():
    rng = random.Random(SEED)
    db = {"meta": {"today": iso(TODAY), "currency": "GBP", "agency": "Brightpath Tutoring",
                   "timezone": "Europe/London"},
          "tutors": {}, "families": {}, "students": {}, "packages": {}, "sessions": {}}

    # ------------------------------------------------------------------ tutors
    names = rng.sample([(f, l) for f in FIRST for l in LAST], 200)
    on_leave = set(rng.sample(range(30), 4))
    for i in range(30):
        tid = f"T{101 + i}"
        f, l = names[i]
        subs = sorted(rng.sample(SUBJECTS, rng.choice([1, 2, 2, 3, 3])),
                      key=SUBJECTS.index)
        if i % 4 == 0 and "math" not in subs:
            subs = ["math"] + subs
        rate = rng.choice([30, 32.5, 35, 38, 40, 42.5, 45, 48, 50, 55, 60, 65, 72.5, 80])
        if rng.random() < 0.15:
            rate += 0.75
        db["tutors"][tid] = {
            "tutor_id": tid, "full_name": f"{f} {l}",
            "email": f"{f.lower()}.{l.lower()}@brightpath.example",
            "subjects": subs, "max_grade": rng.choice([6, 9, 13, 13, 13]),
            "hourly_rate": q2(rate), "status": "on_leave" if i in on_leave else "active",
            "joined_on": iso(TODAY - dt.timedelta(days=rng.randint(200, 1800))),
            "sessions_completed": rng.randint(10, 240), "hours_taught": 0.0}
        db["tutors"][tid]["hours_taught"] = float(db["tutors"][tid]["sessions_completed"]) * 1.25

    # ------------------------------------------------------------------ families, students
    fam_ids = [f"F{2001 + i}" for i in range(60)]
    suspended = set(rng.sample(range(60), 6))
    big = {6, 32}  # two families already at the five-student limit
    sn = 0
    used_last = rng.sample(LAST, 60)
    for i, fid in enumerate(fam_ids):
        last = used_last[i]
        contact = f"{rng.choice(FIRST)} {last}"
        db["families"][fid] = {
            "family_id": fid, "family_name": last, "contact_name": contact,
            "email": f"{contact.split()[0].lower()}.{last.lower()}@mail.example",
            "status": "suspended" if i in suspended else "active",
            "joined_on": iso(TODAY - dt.timedelta(days=rng.randint(60, 1100))),
            "total_paid": 0.0, "total_refunded": 0.0}
        kids = 5 if i in big else rng.choice([1, 1, 1, 2, 2, 2, 3])
        firsts = rng.sample(FIRST, kids)
        for k in range(kids):
            sn += 1
            sid = f"ST{sn:05d}"
            db["students"][sid] = {
                "student_id": sid, "family_id": fid, "full_name": f"{firsts[k]} {last}",
                "grade_level": rng.randint(1, 13),
                "enrolled_on": db["families"][fid]["joined_on"]}

    # ------------------------------------------------------------------ packages + sessions
    tutor_busy = {}    # (tutor, date) -> list of (start, end)
    student_busy = set()  # (student, date)
    pk = 3000
    sess = []

    def free(tid, stid, d, start, dur):
        if (stid, d) in student_busy:
            return False
        for s, e in tutor_busy.get((tid, d), []):
            if start < e and s < start + dur:
                return False
        return True

    def occupy(tid, stid, d, start, dur):
        student_busy.add((stid, d))
        tutor_busy.setdefault((tid, d), []).append((start, start + dur))

    def pick_slot(tid, stid, lo, hi):
        for _ in range(60):
            d = lo + dt.timedelta(days=rng.randint(0, max(0, (hi - lo).days)))
            if not not_sunday(d):
                continue
            dur = rng.choice([1, 1, 1.5, 2])
            start = rng.randint(15, 21 - 2) if rng.random() < 0.7 else rng.randint(8, 19)
            if free(tid, stid, d, start, dur):
                occupy(tid, stid, d, start, dur)
                return d, start, dur
        return None

    tutors = list(db["tutors"].values())
    for fid in fam_ids:
        kids = [s for s in db["students"].values() if s["family_id"] == fid]
        npk = rng.choice([1, 1, 2, 2, 2, 3])
        if fid in ("F2004", "F2015", "F2029", "F2046"):
            npk = 3
        chosen_tutors = set()
        for n in range(npk):
            kid = rng.choice(kids)
            cands = [t for t in tutors if t["max_grade"] >= kid["grade_level"]
                     and t["tutor_id"] not in chosen_tutors]
            t = rng.choice(cands)
            chosen_tutors.add(t["tutor_id"])
            subj = rng.choice(t["subjects"])
            pk += 1
            pid = f"PK{pk}"
            force_active = npk == 3 and fid in ("F2004", "F2015", "F2029", "F2046")
            age = rng.randint(3, 150) if force_active else rng.randint(0, 240)
            bought = TODAY - dt.timedelta(days=age)
            expires = bought + dt.timedelta(days=180)
            hours = rng.choice(PAID_HOURS)
            price = t["hourly_rate"] - (rng.choice([0, 2.5, 5]) if age > 90 else 0)
            disc = discount_for(hours)
            amount = q2(Decimal(str(hours)) * Decimal(str(price)) * (100 - disc) / 100)
            rec = {"package_id": pid, "family_id": fid, "tutor_id": t["tutor_id"],
                   "hours_purchased": hours, "price_per_hour": q2(price),
                   "discount_percent": disc, "amount_paid": amount,
                   "hours_used": 0.0, "hours_reserved": 0.0, "status": "active",
                   "purchased_on": iso(bought), "expires_on": iso(expires),
                   "refunded_on": None, "refund_amount": None}
            db["packages"][pid] = rec
            db["families"][fid]["total_paid"] = q2(db["families"][fid]["total_paid"] + amount)
            expired = expires < TODAY
            fate = "expired" if expired else "active"
            if not expired and not force_active:
                r = rng.random()
                fate = "refunded" if r < 0.12 else "exhausted" if r < 0.24 else "active"
            hist_end = min(expires, TODAY - dt.timedelta(days=1))
            if fate == "refunded":
                hist_end = min(hist_end, bought + dt.timedelta(days=rng.randint(5, 40)))
            used = Decimal(0)
            cap = Decimal(hours)
            target = cap if fate == "exhausted" else cap * Decimal(rng.choice(["0", "0.3", "0.5", "0.7"]))
            lo_hist = bought + dt.timedelta(days=2)
            # historical sessions
            tries = 0
            while used < target and tries < 30 and lo_hist <= hist_end:
                tries += 1
                kid2 = rng.choice([k for k in kids if k["grade_level"] <= t["max_grade"]] or [kid])
                slot = pick_slot(t["tutor_id"], kid2["student_id"], lo_hist, hist_end)
                if not slot:
                    continue
                d, start, dur = slot
                dur = Decimal(str(dur))
                if fate == "exhausted" and used + dur > cap:
                    dur = cap - used
                    if dur not in (Decimal(1), Decimal("1.5"), Decimal(2)):
                        dur = Decimal(1)
                        if used + dur > cap:
                            break
                r = rng.random()
                st = ("completed" if r < 0.72 else "no_show" if r < 0.8 else "cancelled"
                      if r < 0.9 else "late_cancelled" if r < 0.94 else "tutor_absent")
                if fate == "exhausted":
                    st = "completed" if r < 0.9 else "no_show"
                charged = {"completed": dur, "no_show": dur, "cancelled": Decimal(0),
                           "late_cancelled": dur / 2, "tutor_absent": Decimal(0)}[st]
                if used + charged > cap:
                    continue
                used += charged
                sess.append(dict(package=rec, kid=kid2, tutor=t, subject=subj, date=d,
                                 start=start, dur=dur, status=st, charged=charged))
            if fate == "exhausted" and used < cap:
                fate = "active"
            rec["hours_used"] = float(used)
            if fate == "refunded":
                unused = cap - used
                if unused <= 0:
                    fate = "exhausted"
                else:
                    rdate = hist_end + dt.timedelta(days=rng.randint(1, 10))
                    rdate = min(rdate, TODAY - dt.timedelta(days=1))
                    if (rdate - bought).days <= 14 and used == 0:
                        ramount = rec["amount_paid"]
                    else:
                        ramount = q2(Decimal(str(amount)) * unused / cap * Decimal("0.9"))
                    rec["refunded_on"], rec["refund_amount"] = iso(rdate), ramount
                    fam = db["families"][fid]
                    fam["total_refunded"] = q2(fam["total_refunded"] + ramount)
            rec["status"] = fate if fate != "active" or used < cap else "exhausted"
            # scheduled sessions (awaiting attendance in the past, or upcoming)
            if rec["status"] == "active" and t["status"] == "active":
                reserved = Decimal(0)
                for _ in range(rng.choice([0, 1, 1, 2, 3])):
                    kid2 = rng.choice([k for k in kids if k["grade_level"] <= t["max_grade"]] or [kid])
                    if rng.random() < 0.35:
                        lo, hi = max(bought, TODAY - dt.timedelta(days=20)), TODAY
                    else:
                        lo, hi = TODAY, min(expires, TODAY + dt.timedelta(days=45))
                    if lo > hi:
                        continue
                    slot = pick_slot(t["tutor_id"], kid2["student_id"], lo, hi)
                    if not slot:
                        continue
                    d, start, dur = slot
                    dur = Decimal(str(dur))
                    if used + reserved + dur > cap:
                        break
                    reserved += dur
                    sess.append(dict(package=rec, kid=kid2, tutor=t, subject=subj, date=d,
                                     start=start, dur=dur, status="scheduled",
                                     charged=Decimal(0)))
                rec["hours_reserved"] = float(reserved)

    # ------------------------------------------------------------------ session records
    # only recent history is kept online; older sessions are archived (their hours stay counted)
    sess = [s for s in sess if s["status"] == "scheduled" or s["date"] >= TODAY - dt.timedelta(days=ARCHIVE_DAYS)]
    sess.sort(key=lambda s: (s["date"], s["start"], s["package"]["package_id"]))
    for n, s in enumerate(sess, 1):
        sid = f"SES-{n:06d}"
        d = s["date"]
        bought = dt.date.fromisoformat(s["package"]["purchased_on"])
        booked = d - dt.timedelta(days=rng.randint(2, 21))
        booked = max(booked, bought)
        booked = min(booked, TODAY)
        st = s["status"]
        rec = {"session_id": sid, "package_id": s["package"]["package_id"],
               "family_id": s["package"]["family_id"], "student_id": s["kid"]["student_id"],
               "tutor_id": s["tutor"]["tutor_id"], "subject": s["subject"],
               "session_date": iso(d), "start_hour": s["start"],
               "duration_hours": float(s["dur"]), "status": st,
               "hours_charged": float(s["charged"]),
               "reschedule_count": rng.choice([0, 0, 0, 0, 1, 2]) if st == "scheduled"
               else rng.choice([0, 0, 0, 1]),
               "booked_on": iso(booked), "cancelled_on": None, "cancelled_by": None,
               "attendance_recorded_on": None, "tutor_notes": None}
        if st == "cancelled":
            rec["cancelled_on"] = iso(max(booked, d - dt.timedelta(days=rng.randint(2, 6))))
            rec["cancelled_by"] = rng.choice(["family", "family", "tutor", "agency"])
        elif st == "late_cancelled":
            rec["cancelled_on"] = iso(max(booked, d - dt.timedelta(days=rng.randint(0, 1))))
            rec["cancelled_by"] = "family"
        elif st in ("completed", "no_show", "tutor_absent"):
            rec["attendance_recorded_on"] = iso(min(TODAY, d + dt.timedelta(days=rng.randint(0, 2))))
            if st == "completed" and rng.random() < 0.4:
                rec["tutor_notes"] = rng.choice(NOTES)
            if st == "completed":
                tu = db["tutors"][rec["tutor_id"]]
                tu["sessions_completed"] += 1
                tu["hours_taught"] = float(Decimal(str(tu["hours_taught"])) + s["dur"])
        db["sessions"][sid] = rec

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(path, "w") as fh:
        json.dump(db, fh, indent=1)
    print({k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
