"""Probe generator for the driving-school API: ~60% valid calls, ~40% calls that must be refused."""
import datetime as dt

PKG = {"single": 1, "pack_5": 5, "pack_10": 10, "pack_20": 20}
NAMES = ["Orla Kavanagh", "Benedikt Vogel", "Sunita Rao", "Conor Daly", "Mei Tanaka", "Lars Holm"]


def _mins(t):
    return int(t[:2]) * 60 + int(t[3:])


def _age(dob, on):
    return on.year - dob.year - ((on.month, on.day) < (dob.month, dob.day))


def probes(db, rng, n):
    today = dt.date.fromisoformat(db["meta"]["today"])
    D = lambda k: (today + dt.timedelta(days=k)).isoformat()
    C = rng.choice
    S, L, T = db["students"], db["lessons"], db["tests"]
    I, K = db["instructors"], db["cars"]
    sids = sorted(S)
    active = [s for s in sids if S[s]["status"] == "active"]
    inactive = [s for s in sids if S[s]["status"] != "active"]
    owing = [s for s in sids if S[s]["amount_due"] > 0]
    not_owing = [s for s in sids if S[s]["amount_due"] <= 0]
    lids = sorted(L)
    booked_future = [l for l in lids if L[l]["status"] == "booked" and L[l]["date"] > D(0)]
    booked_today = [l for l in lids if L[l]["status"] == "booked" and L[l]["date"] == D(0)]
    booked_past = [l for l in lids if L[l]["status"] == "booked" and L[l]["date"] < D(0)]
    closed = [l for l in lids if L[l]["status"] != "booked"]
    tids = sorted(T)
    sched = {t["student_id"] for t in T.values() if t["status"] == "scheduled"}
    t_future = [t for t in tids if T[t]["status"] == "scheduled" and T[t]["date"] > D(0)]
    t_due = [t for t in tids if T[t]["status"] == "scheduled" and T[t]["date"] <= D(0)]
    t_settled = [t for t in tids if T[t]["status"] != "scheduled"]

    def lesson_ok(student_id, instructor_id, car_id, date, start_time, duration_minutes):
        sid, iid, cid, day, start, dur = student_id, instructor_id, car_id, date, start_time, duration_minutes
        st, ins, car = S[sid], I[iid], K[cid]
        s0, e0 = _mins(start), _mins(start) + dur
        d = dt.date.fromisoformat(day)
        if not (st["status"] == "active" and st["amount_due"] <= 100 and st["lesson_credits"] >= dur // 60
                and ins["status"] == "active" and car["status"] == "available"
                and car["transmission"] == st["transmission"] and car["transmission"] in ins["transmissions"]
                and d.weekday() != 6 and e0 <= 1200):
            return False
        same = [l for l in L.values() if l["date"] == day and l["status"] == "booked"]
        if any(l["student_id"] == sid for l in same):
            return False
        for l in same:
            if _mins(l["start_time"]) < e0 and s0 < _mins(l["end_time"]) and (
                    l["instructor_id"] == iid or l["car_id"] == cid):
                return False
        return sum(l["duration_minutes"] for l in same if l["instructor_id"] == iid) + dur <= ins["max_hours_per_day"] * 60

    def lesson_args(valid=True):
        for _ in range(60):
            a = {"student_id": C(active), "instructor_id": C(sorted(I)), "car_id": C(sorted(K)),
                 "date": D(C([1, 2, 3, 5, 8, 13, 21, 34, 60])),
                 "start_time": f"{rng.randint(7, 18):02d}:{C(['00', '30'])}", "duration_minutes": C([60, 60, 120])}
            if lesson_ok(**a) == valid:
                return a
        return None

    def test_ok(student_id, test_type, date):
        sid, tt, day = student_id, test_type, date
        st = S[sid]
        d = dt.date.fromisoformat(day)
        ahead = (d - today).days
        if st["status"] != "active" or st["amount_due"] > 0 or sid in sched or d.weekday() >= 5:
            return False
        if ahead < (7 if tt == "theory" else 14) or ahead > 90:
            return False
        if tt == "theory":
            return not st["theory_passed"]
        fails = [t["date"] for t in T.values() if t["student_id"] == sid and t["test_type"] == "practical"
                 and t["status"] == "failed"]
        return st["theory_passed"] and st["lessons_completed"] >= 10 and (
            not fails or (d - dt.date.fromisoformat(max(fails))).days >= 21)

    def valid(tool):
        if tool == "get_student":
            return {"student_id": C(sids)}
        if tool == "search_students":
            a = {}
            if rng.random() < 0.6:
                part = C(S[C(sids)]["full_name"].split())
                a["name"] = C([part, part.lower(), part.upper(), part[:3]])
            if rng.random() < 0.4:
                a["status"] = C(["active", "suspended", "graduated"])
            if rng.random() < 0.3:
                a["transmission"] = C(["manual", "automatic"])
            return a
        if tool == "register_student":
            nm = C(NAMES)
            a = {"full_name": nm, "email": f"{nm.split()[0].lower()}{rng.randint(100, 999)}@inbox.example",
                 "date_of_birth": (today - dt.timedelta(days=rng.randint(17 * 366, 45 * 365))).isoformat(),
                 "transmission": C(["manual", "automatic"])}
            if rng.random() < 0.5:
                a["phone"] = "+353 87 555 0199"
            if rng.random() < 0.15:  # exactly 17 today
                a["date_of_birth"] = today.replace(year=today.year - 17).isoformat()
            return a
        if tool == "purchase_package":
            pt = C(list(PKG))
            ok = [s for s in active if S[s]["lesson_credits"] + PKG[pt] <= 40]
            return {"student_id": C(ok), "package_type": pt}
        if tool == "record_payment":
            sid = C(owing)
            due = S[sid]["amount_due"]
            return {"student_id": sid, "amount": C([due, due, round(rng.randint(1, int(due * 100)) / 100, 2)]),
                    "method": C(["card", "cash", "bank_transfer"])}
        if tool == "list_lessons":
            a = {}
            if rng.random() < 0.5:
                a["student_id"] = C(sids)
            if rng.random() < 0.3:
                a["instructor_id"] = C(sorted(I))
            if rng.random() < 0.4:
                a["status"] = C(["booked", "completed", "no_show", "cancelled"])
            if rng.random() < 0.4:
                a["date_from"] = D(rng.randint(-30, 5))
            if rng.random() < 0.4:
                a["date_to"] = D(rng.randint(6, 30))
            return a
        if tool == "book_lesson":
            return lesson_args(True)
        if tool == "cancel_lesson":
            return {"lesson_id": C(booked_future + booked_today), "cancelled_by": C(["student", "student", "school"])}
        if tool == "complete_lesson":
            return {"lesson_id": C(booked_past + booked_today), "km_driven": C([1, 400, rng.randint(8, 90)])}
        if tool == "mark_no_show":
            return {"lesson_id": C(booked_past + booked_today)}
        if tool == "list_tests":
            a = {}
            if rng.random() < 0.5:
                a["student_id"] = C(sids)
            if rng.random() < 0.4:
                a["status"] = C(["scheduled", "passed", "failed", "cancelled"])
            if rng.random() < 0.3:
                a["test_type"] = C(["theory", "practical"])
            return a
        if tool == "book_test":
            for _ in range(80):
                a = {"student_id": C(active), "test_type": C(["theory", "practical"]), "date": D(rng.randint(7, 90))}
                if test_ok(**a):
                    return a
            return None
        if tool == "cancel_test":
            return {"test_id": C(t_future)}
        if tool == "record_test_result":
            return {"test_id": C(t_due), "result": C(["passed", "failed"])}

    def invalid(tool):
        if tool == "get_student":
            return {"student_id": C(["S9999", "s1001", "S100", "", "INS01"])}
        if tool == "search_students":
            return C([{"status": C(["expelled", "Active"])}, {"transmission": "semi"}, {"name": C(["", "  "])}])
        if tool == "register_student":
            a = valid("register_student")
            k = rng.randrange(6)
            if k == 0:
                a["email"] = C([S[s]["email"] for s in sids]).upper()
            elif k == 1:
                a["date_of_birth"] = (today - dt.timedelta(days=rng.randint(3000, 17 * 365 - 1))).isoformat()
            elif k == 2:
                a["email"] = C(["orla.kavanagh", "orla@", "@inbox.example", "orla at inbox.example"])
            elif k == 3:
                a["date_of_birth"] = C(["2001-02-30", "14/05/2001", "2001-5-4"])
            elif k == 4:
                a[C(["full_name", "transmission"])] = C(["", None])
            else:
                a["transmission"] = C(["semi_automatic", "Manual"])
            return a
        if tool == "purchase_package":
            k = rng.randrange(4)
            if k == 0:
                return {"student_id": C(inactive), "package_type": C(list(PKG))}
            if k == 1:
                pt = C(list(PKG))
                over = [s for s in active if S[s]["lesson_credits"] + PKG[pt] > 40]
                if over:
                    return {"student_id": C(over), "package_type": pt}
            if k == 2:
                return {"student_id": C(active), "package_type": C(["pack_15", "double", "PACK_5"])}
            return {"student_id": "S0999", "package_type": "single"}
        if tool == "record_payment":
            k = rng.randrange(4)
            if k == 0:
                return {"student_id": C(not_owing), "amount": 20, "method": "card"}
            sid = C(owing)
            due = S[sid]["amount_due"]
            if k == 1:
                return {"student_id": sid, "amount": C([round(due + 0.01, 2), due + 50, 0, -10, 10.005]),
                        "method": "cash"}
            if k == 2:
                return {"student_id": sid, "amount": due, "method": C(["cheque", "voucher"])}
            return {"student_id": sid, "amount": str(due), "method": "card"}
        if tool == "list_lessons":
            return C([{"student_id": "S4242"}, {"instructor_id": "INS99"}, {"status": C(["done", "missed"])},
                      {"date_from": D(10), "date_to": D(2)}, {"date_from": "yesterday"}])
        if tool == "book_lesson":
            a = lesson_args(True)
            if a is None:
                return lesson_args(False)
            k = rng.randrange(9)
            if k == 0:
                sun = [d for d in range(1, 60) if (today + dt.timedelta(days=d)).weekday() == 6]
                a["date"] = D(C(sun))
            elif k == 1:
                a["date"] = D(C([0, -1, -7, 61, 90]))
            elif k == 2:
                a["start_time"] = C(["06:30", "07:15", "9:00", "19:30", "20:00"])
                a["duration_minutes"] = 60
            elif k == 3:
                a["duration_minutes"] = C([30, 45, 90, 180])
            elif k == 4:
                a["car_id"] = C([c for c in K if K[c]["status"] != "available"
                                 or K[c]["transmission"] != S[a["student_id"]]["transmission"]])
            elif k == 5:
                a["instructor_id"] = C([i for i in I if I[i]["status"] != "active"
                                        or S[a["student_id"]]["transmission"] not in I[i]["transmissions"]])
            elif k == 6:
                a["student_id"] = C(inactive + [s for s in active if S[s]["amount_due"] > 100
                                                or S[s]["lesson_credits"] == 0])
            elif k == 7:  # clash with an existing booking
                l = L[C(booked_future)]
                a.update(date=l["date"], start_time=l["start_time"],
                         student_id=C([l["student_id"], a["student_id"]]),
                         instructor_id=C([l["instructor_id"], a["instructor_id"]]))
                if a["instructor_id"] != l["instructor_id"] and a["student_id"] != l["student_id"]:
                    a["instructor_id"] = l["instructor_id"]
            else:
                return lesson_args(False)
            return a
        if tool == "cancel_lesson":
            k = rng.randrange(3)
            if k == 0:
                return {"lesson_id": C(closed), "cancelled_by": C(["student", "school"])}
            if k == 1:
                return {"lesson_id": C(booked_past), "cancelled_by": "school"}
            return {"lesson_id": C(booked_future), "cancelled_by": C(["instructor", "", None])}
        if tool == "complete_lesson":
            k = rng.randrange(3)
            if k == 0:
                return {"lesson_id": C(booked_future), "km_driven": 30}
            if k == 1:
                return {"lesson_id": C(closed), "km_driven": 30}
            return {"lesson_id": C(booked_past), "km_driven": C([0, -5, 401, 25.5, "30"])}
        if tool == "mark_no_show":
            return {"lesson_id": C(C([booked_future, closed, ["L99999", "L2001"]]))}
        if tool == "list_tests":
            return C([{"student_id": "S7777"}, {"status": "booked"}, {"test_type": C(["driving", "Theory"])}])
        if tool == "book_test":
            for _ in range(80):
                a = {"student_id": C(sids), "test_type": C(["theory", "practical"]),
                     "date": D(C([rng.randint(-3, 13), rng.randint(7, 90), rng.randint(91, 120)]))}
                if not test_ok(**a):
                    return a
            return {"student_id": C(sids), "test_type": "oral", "date": D(30)}
        if tool == "cancel_test":
            return {"test_id": C(C([t_settled, t_due, ["T9999"]]))}
        if tool == "record_test_result":
            k = rng.randrange(3)
            if k == 0:
                return {"test_id": C(t_future), "result": "passed"}
            if k == 1:
                return {"test_id": C(t_settled), "result": C(["passed", "failed"])}
            return {"test_id": C(t_due), "result": C(["pass", "absent"])}

    tools = ["get_student", "search_students", "register_student", "purchase_package", "record_payment",
             "list_lessons", "book_lesson", "cancel_lesson", "complete_lesson", "mark_no_show",
             "list_tests", "book_test", "cancel_test", "record_test_result"]
    weights = [1, 1, 2, 2, 2, 1, 3, 2, 2, 2, 1, 3, 2, 2]
    out = []
    while len(out) < n:
        tool = rng.choices(tools, weights)[0]
        args = valid(tool) if rng.random() < 0.58 else invalid(tool)
        if args is not None:
            out.append((tool, args))
    return out
