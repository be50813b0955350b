"""Probe generator for the tutoring API: about 60% valid calls, 40% calls the docs say to refuse."""
import datetime as dt

SUBJECTS = ["math", "english", "physics", "chemistry", "biology", "french", "spanish",
            "history", "computer_science"]
NEW_NAMES = ["Ada", "Bruno", "Cleo", "Dario", "Esme", "Finn", "Greta", "Hugo", "Ines", "Jules"]


class _World:
    def __init__(self, db):
        self.db = db
        self.today = dt.date.fromisoformat(db["meta"]["today"])
        self.fams = sorted(db["families"])
        self.active_fams = [f for f in self.fams if db["families"][f]["status"] == "active"]
        self.susp_fams = [f for f in self.fams if db["families"][f]["status"] != "active"]
        self.kids = {}
        for sid in sorted(db["students"]):
            self.kids.setdefault(db["students"][sid]["family_id"], []).append(sid)
        self.tutors = sorted(db["tutors"])
        self.act_tutors = [t for t in self.tutors if db["tutors"][t]["status"] == "active"]
        self.leave_tutors = [t for t in self.tutors if t not in self.act_tutors]
        self.pk = {}
        for pid in sorted(db["packages"]):
            self.pk.setdefault(db["packages"][pid]["status"], []).append(pid)
        self.ses = {}
        for sid in sorted(db["sessions"]):
            self.ses.setdefault(db["sessions"][sid]["status"], []).append(sid)
        self.sched = self.ses.get("scheduled", [])

    def days(self, sid):
        return (dt.date.fromisoformat(self.db["sessions"][sid]["session_date"]) - self.today).days

    def active_pkgs(self, fid):
        return [p for p in self.pk.get("active", []) if self.db["packages"][p]["family_id"] == fid]

    def clash(self, tutor_id, student_id, day, start, dur, skip=None):
        for s in self.db["sessions"].values():
            if s["status"] != "scheduled" or s["session_id"] == skip or s["session_date"] != day:
                continue
            if s["student_id"] == student_id:
                return True
            if s["tutor_id"] == tutor_id and start < s["start_hour"] + s["duration_hours"] \
                    and s["start_hour"] < start + dur:
                return True
        return False

    def free_day(self, rng, pkg, lo=1):
        hi = min(60, (dt.date.fromisoformat(pkg["expires_on"]) - self.today).days)
        if hi < lo:
            return None
        for _ in range(20):
            d = self.today + dt.timedelta(days=rng.randint(lo, hi))
            if d.weekday() != 6:
                return d.isoformat()
        return None


def _bookable(w, pid):
    db = w.db
    p = db["packages"][pid]
    t = db["tutors"][p["tutor_id"]]
    avail = p["hours_purchased"] - p["hours_used"] - p["hours_reserved"]
    kids = [k for k in w.kids.get(p["family_id"], [])
            if db["students"][k]["grade_level"] <= t["max_grade"]]
    ok = (db["families"][p["family_id"]]["status"] == "active" and t["status"] == "active"
          and avail >= 1 and kids)
    return ok, kids, avail


def _valid_booking(w, rng):
    db = w.db
    cands = [p for p in w.pk.get("active", []) if _bookable(w, p)[0]]
    for _ in range(40):
        pid = rng.choice(cands)
        p = db["packages"][pid]
        _, kids, avail = _bookable(w, pid)
        day = w.free_day(rng, p)
        if not day:
            continue
        dur = rng.choice([d for d in (1, 1.5, 2) if d <= avail])
        start = rng.randint(8, 19)
        if start + dur > 21:
            continue
        kid = rng.choice(kids)
        if w.clash(p["tutor_id"], kid, day, start, dur):
            continue
        return {"package_id": pid, "student_id": kid,
                "subject": rng.choice(db["tutors"][p["tutor_id"]]["subjects"]),
                "session_date": day, "start_hour": start, "duration_hours": dur}
    return None


def _bad_booking(w, rng):
    db = w.db
    a = _valid_booking(w, rng)
    p = db["packages"][a["package_id"]]
    t = db["tutors"][p["tutor_id"]]
    k = rng.randrange(14)
    if k == 0:
        a["package_id"] = rng.choice(w.pk.get("expired", []) + w.pk.get("refunded", [])
                                     + w.pk.get("exhausted", []))
    elif k == 1:
        a["student_id"] = rng.choice([s for s in db["students"]
                                      if db["students"][s]["family_id"] != p["family_id"]])
    elif k == 2:
        other = [s for s in SUBJECTS if s not in t["subjects"]]
        a["subject"] = rng.choice(other)
    elif k == 3:
        a["session_date"] = (w.today - dt.timedelta(days=rng.randint(0, 10))).isoformat()
    elif k == 4:
        d = w.today + dt.timedelta(days=1)
        while d.weekday() != 6:
            d += dt.timedelta(days=1)
        a["session_date"] = d.isoformat()
    elif k == 5:
        a["session_date"] = (w.today + dt.timedelta(days=rng.randint(61, 90))).isoformat()
    elif k == 6:
        a["start_hour"] = rng.choice([7, 21, 6, "16"])
    elif k == 7:
        a.update(start_hour=20, duration_hours=rng.choice([1.5, 2]))
    elif k == 8:
        a["duration_hours"] = rng.choice([0.5, 2.5, 3, 0])
    elif k == 9:
        a["session_date"] = rng.choice(["2025/06/10", "10-06-2025", "2025-02-30"])
    elif k == 10:  # clash with an existing upcoming session of the same student or tutor
        s = db["sessions"][rng.choice([x for x in w.sched if w.days(x) >= 1])]
        a = {"package_id": s["package_id"], "student_id": s["student_id"],
             "subject": s["subject"], "session_date": s["session_date"],
             "start_hour": s["start_hour"], "duration_hours": 1}
    elif k == 11:
        pk = [x for x in w.pk.get("active", []) if
              db["tutors"][db["packages"][x]["tutor_id"]]["status"] != "active"
              or db["families"][db["packages"][x]["family_id"]]["status"] != "active"]
        pid = rng.choice(pk)
        a.update(package_id=pid, student_id=w.kids[db["packages"][pid]["family_id"]][0])
    elif k == 12:
        a.pop(rng.choice(["subject", "session_date", "start_hour", "duration_hours"]))
    else:
        a["package_id"] = "PK9999"
    return a


def probes(db, rng, n):
    w = _World(db)
    today = w.today
    out = []
    future_sched = [s for s in w.sched if w.days(s) >= 0]
    movable = [s for s in w.sched if w.days(s) >= 2 and db["sessions"][s]["reschedule_count"] < 2]
    due = [s for s in w.sched if -14 <= w.days(s) <= 0]
    settled = [s for s in db["sessions"] if db["sessions"][s]["status"] != "scheduled"]
    refundable = [p for p in w.pk.get("active", []) if db["packages"][p]["hours_reserved"] == 0]
    reserved = [p for p in w.pk.get("active", []) if db["packages"][p]["hours_reserved"] > 0]
    busy_tutors = sorted({db["sessions"][s]["tutor_id"] for s in w.sched})
    free_tutors = [t for t in w.act_tutors if t not in busy_tutors]
    open_fams = [f for f in w.active_fams if len(w.kids.get(f, [])) < 5]
    full_fams = [f for f in w.fams if len(w.kids.get(f, [])) >= 5]

    def g_get_family(ok):
        if ok:
            return {"family_id": rng.choice(w.fams)}
        return rng.choice([{"family_id": "F9999"}, {}, {"family_id": "f2001"}])

    def g_list_students(ok):
        if ok:
            return {"family_id": rng.choice(w.fams)}
        return rng.choice([{"family_id": "F1999"}, {}])

    def g_list_tutors(ok):
        if ok:
            a = {}
            if rng.random() < 0.5:
                a["subject"] = rng.choice(SUBJECTS)
            if rng.random() < 0.3:
                a["max_rate"] = rng.choice([35, 45.5, 60, 100])
            if rng.random() < 0.3:
                a["grade"] = rng.randint(1, 13)
            if rng.random() < 0.3:
                a["status"] = rng.choice(["active", "on_leave"])
            if rng.random() < 0.3:
                nm = db["tutors"][rng.choice(w.tutors)]["full_name"]
                a["name"] = rng.choice([nm.split()[0].lower(), nm.split()[1].upper(), nm[1:4]])
            return a
        return rng.choice([{"subject": "geography"}, {"grade": 14}, {"status": "retired"},
                           {"grade": 0}, {"max_rate": "cheap"}, {"name": "  "}])

    def g_list_packages(ok):
        if ok:
            a = {}
            if rng.random() < 0.7:
                a["family_id"] = rng.choice(w.fams)
            if rng.random() < 0.3:
                a["tutor_id"] = rng.choice(w.tutors)
            if rng.random() < 0.4:
                a["status"] = rng.choice(list(w.pk))
            return a
        return rng.choice([{"family_id": "F3000"}, {"status": "paused"}, {"tutor_id": "T999"}])

    def g_get_package(ok):
        return {"package_id": rng.choice(sorted(db["packages"]))} if ok else \
            rng.choice([{"package_id": "PK0001"}, {}])

    def g_list_sessions(ok):
        if ok:
            a = {}
            key = rng.choice(["family_id", "student_id", "tutor_id", "package_id", None])
            if key:
                coll = {"family_id": "families", "student_id": "students",
                        "tutor_id": "tutors", "package_id": "packages"}[key]
                a[key] = rng.choice(sorted(db[coll]))
            if rng.random() < 0.4:
                a["status"] = rng.choice(list(w.ses))
            if rng.random() < 0.4:
                a["date_from"] = (today - dt.timedelta(days=rng.randint(0, 10))).isoformat()
            if rng.random() < 0.4:
                a["date_to"] = (today + dt.timedelta(days=rng.randint(0, 30))).isoformat()
            return a
        return rng.choice([{"status": "booked"}, {"date_from": "2025-06-01", "date_to": "2025-05-01"},
                           {"student_id": "ST99999"}, {"date_to": "next week"},
                           {"tutor_id": "T101", "room": "A"}])

    def g_add_student(ok):
        if ok:
            return {"family_id": rng.choice(open_fams),
                    "full_name": f"{rng.choice(NEW_NAMES)} {rng.choice(['Lee', 'Park', 'Mora'])}",
                    "grade_level": rng.randint(1, 13)}
        k = rng.randrange(6)
        if k == 0:
            return {"family_id": rng.choice(w.susp_fams), "full_name": "Ada Lee", "grade_level": 4}
        if k == 1:
            return {"family_id": rng.choice(full_fams), "full_name": "Ada Lee", "grade_level": 4}
        if k == 2:
            fam = rng.choice([f for f in open_fams if w.kids.get(f)])
            nm = db["students"][w.kids[fam][0]]["full_name"]
            return {"family_id": fam, "full_name": rng.choice([nm, nm.upper(), nm.lower()]),
                    "grade_level": 5}
        if k == 3:
            return {"family_id": rng.choice(open_fams), "full_name": "Ada Lee",
                    "grade_level": rng.choice([0, 14, 7.5, "8"])}
        if k == 4:
            return {"family_id": rng.choice(open_fams), "full_name": rng.choice(["", "   "]),
                    "grade_level": 3}
        return {"family_id": "F0000", "full_name": "Ada Lee", "grade_level": 3}

    def g_update_tutor(ok):
        if ok:
            t = rng.choice(w.tutors)
            cur = db["tutors"][t]["hourly_rate"]
            k = rng.randrange(3)
            if k == 0:
                new = round(min(120, max(25, cur * rng.choice([0.8, 0.95, 1.1, 1.2]))), 2)
                if new > cur * 1.2:
                    new = round(cur * 1.19, 2)
                return {"tutor_id": t, "hourly_rate": new}
            if k == 1:
                return {"tutor_id": rng.choice(free_tutors + w.leave_tutors),
                        "status": rng.choice(["on_leave", "active"])}
            return {"tutor_id": t, "hourly_rate": round(cur + 1.5, 2), "status": "active"}
        k = rng.randrange(6)
        t = rng.choice(w.tutors)
        cur = db["tutors"][t]["hourly_rate"]
        if k == 0:
            return {"tutor_id": t, "hourly_rate": round(cur * 1.2 + rng.choice([0.01, 5, 20]), 2)}
        if k == 1:
            return {"tutor_id": t, "hourly_rate": rng.choice([24.99, 10, 120.01, 150])}
        if k == 2:
            return {"tutor_id": t, "hourly_rate": round(cur, 2) - 0.005}
        if k == 3:
            return {"tutor_id": rng.choice(busy_tutors), "status": "on_leave"}
        if k == 4:
            return rng.choice([{"tutor_id": t}, {"tutor_id": t, "status": "retired"}])
        return {"tutor_id": "T999", "status": "active"}

    def g_purchase_package(ok):
        if ok:
            for _ in range(50):
                f = rng.choice(w.active_fams)
                ap = w.active_pkgs(f)
                have = {db["packages"][p]["tutor_id"] for p in ap}
                ts = [t for t in w.act_tutors if t not in have]
                if len(ap) < 3 and ts:
                    return {"family_id": f, "tutor_id": rng.choice(ts),
                            "hours": rng.choice([5, 8, 9, 10, 12, 19, 20, 25, 40])}
        k = rng.randrange(6)
        if k == 0:
            return {"family_id": rng.choice(w.susp_fams), "tutor_id": rng.choice(w.act_tutors),
                    "hours": 10}
        if k == 1:
            return {"family_id": rng.choice(w.active_fams), "tutor_id": rng.choice(w.leave_tutors),
                    "hours": 10}
        if k == 2:
            p = db["packages"][rng.choice(w.pk["active"])]
            return {"family_id": p["family_id"], "tutor_id": p["tutor_id"], "hours": 12}
        if k == 3:
            f = rng.choice([x for x in w.active_fams if len(w.active_pkgs(x)) >= 3])
            return {"family_id": f, "tutor_id": rng.choice(w.act_tutors), "hours": 10}
        if k == 4:
            return {"family_id": rng.choice(w.active_fams), "tutor_id": rng.choice(w.act_tutors),
                    "hours": rng.choice([0, 4, 41, 12.5, "10"])}
        return {"family_id": rng.choice(w.active_fams), "tutor_id": "T000", "hours": 10}

    def g_book_session(ok):
        return _valid_booking(w, rng) if ok else _bad_booking(w, rng)

    def g_reschedule_session(ok):
        if ok:
            for _ in range(40):
                sid = rng.choice(movable)
                s = db["sessions"][sid]
                p = db["packages"][s["package_id"]]
                day = w.free_day(rng, p)
                start = rng.randint(8, 19) if rng.random() < 0.5 else s["start_hour"]
                if not day or start + s["duration_hours"] > 21 or \
                        (day == s["session_date"] and start == s["start_hour"]):
                    continue
                if w.clash(s["tutor_id"], s["student_id"], day, start, s["duration_hours"], sid):
                    continue
                a = {"session_id": sid, "new_date": day}
                if start != s["start_hour"] or rng.random() < 0.3:
                    a["new_start_hour"] = start
                return a
        k = rng.randrange(7)
        if k == 0:
            sid = rng.choice([s for s in w.sched if db["sessions"][s]["reschedule_count"] >= 2
                              and w.days(s) >= 2])
        elif k == 1:
            sid = rng.choice([s for s in w.sched if w.days(s) < 2])
        elif k == 2:
            sid = rng.choice(settled)
        else:
            sid = rng.choice(movable)
        s = db["sessions"][sid]
        day = (today + dt.timedelta(days=rng.randint(3, 20))).isoformat()
        if k == 3:
            day = (today + dt.timedelta(days=rng.choice([0, -3, 61, 75]))).isoformat()
        elif k == 4:
            d = today + dt.timedelta(days=2)
            while d.weekday() != 6:
                d += dt.timedelta(days=1)
            day = d.isoformat()
        elif k == 5:
            return {"session_id": sid, "new_date": s["session_date"],
                    "new_start_hour": s["start_hour"]}
        elif k == 6:
            return {"session_id": sid, "new_date": day, "new_start_hour": rng.choice([7, 21, 22])}
        return {"session_id": sid, "new_date": day}

    def g_cancel_session(ok):
        if ok:
            return {"session_id": rng.choice(future_sched),
                    "cancelled_by": rng.choice(["family", "family", "tutor", "agency"])}
        k = rng.randrange(4)
        if k == 0:
            return {"session_id": rng.choice([s for s in w.sched if w.days(s) < 0]),
                    "cancelled_by": "family"}
        if k == 1:
            return {"session_id": rng.choice(settled), "cancelled_by": "agency"}
        if k == 2:
            return {"session_id": rng.choice(future_sched),
                    "cancelled_by": rng.choice(["student", "parent", None])}
        return {"session_id": "SES-999999", "cancelled_by": "family"}

    def g_record_attendance(ok):
        if ok:
            a = {"session_id": rng.choice(due),
                 "outcome": rng.choice(["attended", "attended", "no_show", "tutor_absent"])}
            if rng.random() < 0.3:
                a["tutor_notes"] = "Covered the homework questions."
            return a
        k = rng.randrange(4)
        if k == 0:
            return {"session_id": rng.choice([s for s in w.sched if w.days(s) > 0]),
                    "outcome": "attended"}
        if k == 1:
            return {"session_id": rng.choice([s for s in w.sched if w.days(s) < -14]),
                    "outcome": "attended"}
        if k == 2:
            return {"session_id": rng.choice(settled), "outcome": "no_show"}
        return {"session_id": rng.choice(due), "outcome": rng.choice(["late", "present", ""])}

    def g_refund_package(ok):
        if ok:
            return {"package_id": rng.choice(refundable)}
        k = rng.randrange(3)
        if k == 0:
            return {"package_id": rng.choice(reserved)}
        if k == 1:
            return {"package_id": rng.choice(w.pk.get("expired", []) + w.pk.get("refunded", [])
                                             + w.pk.get("exhausted", []))}
        return {"package_id": "PK0000"}

    gens = [("get_family", g_get_family, 2), ("list_students", g_list_students, 2),
            ("list_tutors", g_list_tutors, 3), ("list_packages", g_list_packages, 3),
            ("get_package", g_get_package, 2), ("list_sessions", g_list_sessions, 3),
            ("add_student", g_add_student, 5), ("update_tutor", g_update_tutor, 6),
            ("purchase_package", g_purchase_package, 7), ("book_session", g_book_session, 10),
            ("reschedule_session", g_reschedule_session, 8),
            ("cancel_session", g_cancel_session, 7),
            ("record_attendance", g_record_attendance, 7),
            ("refund_package", g_refund_package, 6)]
    weights = [g[2] for g in gens]
    for i in range(n):
        name, gen, _ = rng.choices(gens, weights)[0]
        is_read = name in ("get_family", "list_students", "list_tutors", "list_packages",
                           "get_package", "list_sessions")
        ok = rng.random() < (0.7 if is_read else 0.52)
        out.append((name, gen(ok)))
    return out
