#!/usr/bin/env python3
"""Writes db.json for the Lingua Hall language school API (deterministic, stdlib only)."""
import json
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_DOWN, ROUND_HALF_UP

SEED = 20250310
TODAY = date(2025, 3, 10)
LEVELS = ["A1", "A2", "B1", "B2", "C1", "C2"]
LANGS = ["Spanish", "French", "German", "Italian", "Japanese"]
STYLES = ["Intensive", "Evening Group", "Conversation", "Weekend", "Grammar Workshop", "Business"]
TEACHERS = {
    "Spanish": ["Lucia Ortega", "Mateo Ruiz"], "French": ["Camille Morel", "Julien Faure"],
    "German": ["Anke Vogel", "Tobias Brandt"], "Italian": ["Giulia Conti", "Marco Ferri"],
    "Japanese": ["Yuki Tanaka", "Haruto Mori"],
}
FIRST = ["Ana", "Ben", "Chloe", "David", "Elena", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kira",
         "Liam", "Maya", "Nils", "Olga", "Pablo", "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera",
         "Wen", "Ximena", "Yusuf", "Zoe", "Aiko", "Bruno", "Clara", "Dario"]
LAST = ["Almeida", "Berg", "Castro", "Dubois", "Eriksen", "Fischer", "Garcia", "Hansen", "Ivanova",
        "Jensen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi",
        "Schmidt", "Tanaka", "Ueda", "Varga", "Weber", "Yilmaz", "Zanetti"]


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), ROUND_HALF_UP))


def iso(d):
    return d.isoformat()


def schedule(amount_due, plan, start):
    if plan == "full":
        return [(1, start, amount_due)]
    third = float((Decimal(str(amount_due)) / 3).quantize(Decimal("0.01"), ROUND_DOWN))
    return [(1, start, third), (2, start + timedelta(days=30), third),
            (3, start + timedelta(days=60), money(amount_due - 2 * third))]


def main():
    rng = random.Random(SEED)
    # ---------------- students ----------------
    students, emails = {}, set()
    unplaced = set(rng.sample(range(1, 65), 6))
    suspended = set(rng.sample([i for i in range(1, 65) if i not in unplaced], 4))
    bands = {"A1": (0, 24), "A2": (25, 44), "B1": (45, 59), "B2": (60, 74), "C1": (75, 89), "C2": (90, 100)}
    for i in range(1, 65):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        email = f"{first}.{last}@mail.example".lower()
        if email in emails:
            email = f"{first}.{last}{i}@mail.example".lower()
        emails.add(email)
        rec = {"student_id": f"ST{i:04d}", "full_name": f"{first} {last}", "email": email,
               "phone": None if rng.random() < 0.25 else "+49" + "".join(rng.choice("0123456789") for _ in range(10)),
               "status": "suspended" if i in suspended else "active",
               "level": None, "placement_score": None, "last_placement_date": None,
               "credit_balance": 0.0, "registered_on": None}
        if i in unplaced:
            rec["registered_on"] = iso(TODAY - timedelta(days=rng.randint(1, 40)))
        else:
            lvl = rng.choices(LEVELS, weights=[10, 12, 14, 12, 8, 3])[0]
            lo, hi = bands[lvl]
            pdate = TODAY - timedelta(days=rng.choice([3, 10, 18, 25, 29, 30, 45, 70, 120, 160, 200, 260, 300, 330]))
            reg = TODAY - timedelta(days=rng.randint(150, 700))
            rec.update(level=lvl, placement_score=rng.randint(lo, hi), last_placement_date=iso(max(pdate, reg)),
                       registered_on=iso(reg))
        if rng.random() < 0.15:
            rec["credit_balance"] = rng.choice([10.0, 25.0, 40.0, 75.5, 120.0])
        students[rec["student_id"]] = rec
    # ---------------- courses & sessions ----------------
    specs = ([("completed", date(2024, 11, 25)), ("completed", date(2024, 12, 9)), ("completed", date(2025, 1, 6)),
              ("completed", date(2025, 1, 13))]
             + [("in_progress", TODAY - timedelta(days=k)) for k in (0, 4, 8, 15, 22, 28, 34)]
             + [("open", TODAY + timedelta(days=k)) for k in (1, 5, 9, 13, 15, 20, 27, 41, 63)]
             + [("cancelled", TODAY + timedelta(days=k)) for k in (8, 30)])
    with_cancelled_slot = {1, 8, 14}
    unmarked_latest = {7, 9}
    courses, sessions, course_sessions = {}, {}, {}
    sidx = 0
    for ci, (status, start) in enumerate(specs):
        cid = f"CRS{101 + ci}"
        lang = LANGS[ci % 5]
        lvl = "C2" if ci == 15 else rng.choice(LEVELS[:5])
        nslots = 7 if ci in with_cancelled_slot else 6
        fee = float(rng.randrange(180, 491, 10))
        course = {"course_id": cid, "title": f"{lang} {lvl} {rng.choice(STYLES)}", "language": lang, "level": lvl,
                  "teacher": rng.choice(TEACHERS[lang]), "start_date": iso(start),
                  "end_date": iso(start + timedelta(days=7 * (nslots - 1))),
                  "session_count": 0, "capacity": rng.randint(4, 8), "seats_taken": 0, "waitlist_count": 0,
                  "fee": fee, "status": status}
        slist = []
        for k in range(nslots):
            sidx += 1
            d = start + timedelta(days=7 * k)
            if status == "cancelled" or (ci in with_cancelled_slot and k == 2):
                st = "cancelled"
            else:
                st = "held" if d < TODAY else "scheduled"
            rec = {"session_id": f"SES{sidx:04d}", "course_id": cid, "number": k + 1, "date": iso(d), "status": st}
            sessions[rec["session_id"]] = rec
            slist.append(rec)
        if ci in unmarked_latest:
            past = [s for s in slist if s["status"] == "held"]
            if past:
                past[-1]["status"] = "scheduled"
        course["session_count"] = sum(1 for s in slist if s["status"] != "cancelled")
        courses[cid] = course
        course_sessions[cid] = slist
    # ---------------- enrolments ----------------
    enrols = []          # dicts without ids yet
    running_langs = {sid: set() for sid in students}
    taken = {sid: set() for sid in students}
    cert_dates = {sid: [] for sid in students}

    def candidates(course, hist):
        ci = LEVELS.index(course["level"])
        out = []
        for sid, s in students.items():
            if s["level"] is None or course["course_id"] in taken[sid]:
                continue
            diff = ci - LEVELS.index(s["level"])
            if hist and diff not in (-1, 0, 1):
                continue
            if not hist and (diff not in (0, 1) or course["language"] in running_langs[sid] or s["status"] != "active"):
                continue
            out.append(sid)
        rng.shuffle(out)
        return out

    def new_enrol(sid, course, status, enrolled_on):
        taken[sid].add(course["course_id"])
        disc = any(cd < enrolled_on for cd in cert_dates[sid])
        due = money(course["fee"] * 0.9) if disc else course["fee"]
        plan = "instalments" if course["fee"] >= 300 and rng.random() < 0.5 else "full"
        e = {"student_id": sid, "course_id": course["course_id"], "status": status, "payment_plan": plan,
             "amount_due": due, "amount_paid": 0.0, "enrolled_on": enrolled_on, "waitlist_position": None,
             "attended_sessions": 0, "transferred_from": None, "transferred_to": None, "withdrawn_on": None,
             "refund_amount": None, "certificate_id": None, "_inst": [], "_pays": [], "_miss": 0}
        if course["status"] in ("open", "in_progress") and status in ("active", "waitlisted"):
            running_langs[sid].add(course["language"])
        enrols.append(e)
        return e

    def pay_schedule(e, mode):
        """mode: 'all' (fully paid), 'last_open' (last instalment unpaid), 'random'."""
        inst = schedule(e["amount_due"], e["payment_plan"], e["enrolled_on"])
        blocked = False
        for n, due, amt in inst:
            paid = 0.0
            if mode == "all":
                paid = amt
            elif mode == "last_open":
                paid = amt if n < len(inst) else (money(amt / 2) if rng.random() < 0.5 else 0.0)
            elif not blocked:
                r = rng.random()
                if due <= TODAY:
                    paid = amt if r < 0.85 else (money(rng.choice([0.25, 0.5]) * amt) if r < 0.93 else 0.0)
                else:
                    paid = amt if r < 0.3 else 0.0
            if paid < amt:
                blocked = True
            st = "paid" if paid == amt else ("partial" if paid > 0 else "pending")
            e["_inst"].append({"number": n, "due_date": due, "amount": amt, "amount_paid": paid, "status": st})
            if paid > 0:
                e["_pays"].append({"kind": "payment", "amount": paid, "date": min(due, TODAY - timedelta(days=1)),
                                   "method": rng.choice(["card", "card", "bank_transfer", "cash"])})
        e["amount_paid"] = money(sum(i["amount_paid"] for i in e["_inst"]))

    order = sorted(courses.values(), key=lambda c: (c["status"] != "completed", c["start_date"]))
    full_courses = {"CRS106", "CRS108", "CRS112", "CRS114", "CRS117", "CRS119"}
    for c in order:
        if c["status"] == "cancelled":
            continue
        start = date.fromisoformat(c["start_date"])
        hist = c["status"] == "completed"
        cands = candidates(c, hist)
        if c["course_id"] in full_courses:
            n_active = c["capacity"]
        elif hist:
            n_active = rng.randint(c["capacity"] - 2, c["capacity"])
        else:
            n_active = rng.randint(1, c["capacity"] - 1)
        for sid in cands[:n_active]:
            eon = start - timedelta(days=rng.randint(5, 40))
            if c["status"] == "open":
                eon = TODAY - timedelta(days=rng.randint(1, 45))
            eon = max(eon, date.fromisoformat(students[sid]["registered_on"]))
            if hist:
                done = rng.random() < 0.4
                e = new_enrol(sid, c, "completed" if done else "active", eon)
                eligible = done or rng.random() < 0.6
                pay_schedule(e, "all" if eligible or rng.random() < 0.5 else "last_open")
                e["_miss"] = rng.choice([0, 1, 1]) if eligible else rng.choice([2, 2, 3])
                if done:
                    cert_dates[sid].append(date.fromisoformat(c["end_date"]) + timedelta(days=rng.randint(1, 5)))
            else:
                e = new_enrol(sid, c, "active", eon)
                pay_schedule(e, "random")
                e["_miss"] = rng.choice([0, 0, 1, 2])
        rest = cands[n_active:]
        if c["course_id"] in full_courses:
            nwait = {"CRS106": 2, "CRS108": 3, "CRS112": 1, "CRS114": 3, "CRS117": 2, "CRS119": 0}[c["course_id"]]
            for pos, sid in enumerate(rest[:nwait], start=1):
                e = new_enrol(sid, c, "waitlisted", TODAY - timedelta(days=rng.randint(1, 12)))
                e["waitlist_position"] = pos
            rest = rest[nwait:]
        # one historical withdrawal in some courses
        if rest and rng.random() < 0.45:
            sid = rest[0]
            eon = min(start, TODAY) - timedelta(days=rng.randint(10, 30))
            e = new_enrol(sid, c, "withdrawn", eon)
            running_langs[sid].discard(c["language"])
            if e["payment_plan"] == "instalments":
                pay_schedule(e, "last_open")
                e["_inst"][-1].update(status="cancelled")
                e["amount_paid"] = money(sum(i["amount_paid"] for i in e["_inst"]))
            else:
                pay_schedule(e, "all")
            wd = eon + timedelta(days=rng.randint(3, 9))
            wd = min(wd, TODAY - timedelta(days=1))
            e["withdrawn_on"] = wd
            if wd < start:
                refund = max(0.0, money(e["amount_paid"] - 15))
            else:
                el = sum(1 for s in course_sessions[c["course_id"]] if s["status"] != "cancelled" and date.fromisoformat(s["date"]) <= wd)
                refund = 0.0 if el * 2 >= c["session_count"] else max(0.0, money(e["amount_paid"] - money(e["amount_due"] * el / c["session_count"])))
            e["refund_amount"] = refund
            if refund > 0:
                meth = rng.choice(["account_credit", "bank_transfer"])
                e["_pays"].append({"kind": "refund", "amount": refund, "date": wd, "method": meth})
                if meth == "account_credit":
                    students[sid]["credit_balance"] = money(students[sid]["credit_balance"] + refund)
    # ---------------- historical transfers ----------------
    transfers = 0
    for e in list(enrols):
        if transfers >= 3 or e["status"] != "active":
            continue
        c = courses[e["course_id"]]
        if c["status"] != "open":
            continue
        sid = e["student_id"]
        srcs = [s for s in courses.values() if s["language"] == c["language"] and s["course_id"] != c["course_id"]
                and s["status"] in ("open", "in_progress") and s["course_id"] not in taken[sid]]
        if not srcs:
            continue
        src = srcs[0]
        eon = e["enrolled_on"] - timedelta(days=rng.randint(5, 20))
        old = new_enrol(sid, src, "transferred", eon)
        old["payment_plan"] = "full"
        pay_schedule(old, "all")
        fee = 20.0 if e["enrolled_on"] <= date.fromisoformat(src["start_date"]) - timedelta(days=14) else 45.0
        e["amount_due"] = money(e["amount_due"] + fee)
        old["_link"] = e
        e["_inst"], e["_pays"] = [], []
        carried = min(old["amount_paid"], e["amount_due"])
        left = carried
        for n, due, amt in schedule(e["amount_due"], e["payment_plan"], e["enrolled_on"]):
            p = money(min(left, amt))
            left = money(left - p)
            e["_inst"].append({"number": n, "due_date": due, "amount": amt, "amount_paid": p,
                               "status": "paid" if p == amt else ("partial" if p > 0 else "pending")})
        e["amount_paid"] = carried
        if old["amount_paid"] > e["amount_due"]:
            students[sid]["credit_balance"] = money(students[sid]["credit_balance"] + old["amount_paid"] - e["amount_due"])
        transfers += 1
    # ---------------- ids ----------------
    enrols.sort(key=lambda e: (e["enrolled_on"], e["course_id"], e["student_id"]))
    enrolments, instalments, payments = {}, {}, {}
    for i, e in enumerate(enrols, start=1):
        e["enrolment_id"] = f"ENR{i:04d}"
    for e in enrols:
        if "_link" in e:
            e["transferred_to"] = e["_link"]["enrolment_id"]
            e["_link"]["transferred_from"] = e["enrolment_id"]
    all_inst = sorted(((i["due_date"], e["enrolment_id"], i["number"], e, i) for e in enrols for i in e["_inst"]),
                      key=lambda t: t[:3])
    for k, (_, _, _, e, i) in enumerate(all_inst, start=1):
        iid = f"INS{k:05d}"
        instalments[iid] = {"instalment_id": iid, "enrolment_id": e["enrolment_id"], "number": i["number"],
                            "due_date": iso(i["due_date"]), "amount": i["amount"], "amount_paid": i["amount_paid"],
                            "status": i["status"]}
    all_pay = sorted(((p["date"], e["enrolment_id"], p["kind"], e, p) for e in enrols for p in e["_pays"]),
                     key=lambda t: t[:3])
    for k, (_, _, _, e, p) in enumerate(all_pay, start=1):
        pid = f"PAY{k:05d}"
        payments[pid] = {"payment_id": pid, "enrolment_id": e["enrolment_id"], "student_id": e["student_id"],
                         "kind": p["kind"], "amount": p["amount"], "method": p["method"], "date": iso(p["date"])}
    # ---------------- attendance & certificates ----------------
    att_rows = []
    for e in enrols:
        c = courses[e["course_id"]]
        if e["status"] not in ("active", "completed", "withdrawn"):
            continue
        held = [s for s in course_sessions[c["course_id"]] if s["status"] == "held"
                and date.fromisoformat(s["date"]) >= e["enrolled_on"]
                and (e["withdrawn_on"] is None or date.fromisoformat(s["date"]) < e["withdrawn_on"])]
        missed = set(rng.sample(range(len(held)), min(e["_miss"], len(held))))
        for k, s in enumerate(held):
            st = "absent" if k in missed else ("late" if rng.random() < 0.15 else "present")
            att_rows.append((s["date"], s["session_id"], e, st))
            if st != "absent":
                e["attended_sessions"] += 1
    att_rows.sort(key=lambda t: (t[0], t[1], t[2]["enrolment_id"]))
    attendance = {}
    for k, (d, sess, e, st) in enumerate(att_rows, start=1):
        aid = f"ATT{k:05d}"
        marked = min(date.fromisoformat(d) + timedelta(days=rng.choice([0, 0, 1])), TODAY)
        attendance[aid] = {"attendance_id": aid, "session_id": sess, "enrolment_id": e["enrolment_id"],
                           "student_id": e["student_id"], "status": st, "marked_on": iso(marked)}
    certs = []
    for e in enrols:
        if e["status"] == "completed":
            c = courses[e["course_id"]]
            issued = date.fromisoformat(c["end_date"]) + timedelta(days=rng.randint(1, 5))
            certs.append((issued, e, c))
    certs.sort(key=lambda t: (t[0], t[1]["enrolment_id"]))
    certificates = {}
    for k, (issued, e, c) in enumerate(certs, start=1):
        cid = f"CRT{k:04d}"
        rate = float(Decimal(str(100 * e["attended_sessions"] / c["session_count"])).quantize(Decimal("0.1"), ROUND_HALF_UP))
        certificates[cid] = {"certificate_id": cid, "enrolment_id": e["enrolment_id"], "student_id": e["student_id"],
                             "course_id": c["course_id"], "language": c["language"], "level": c["level"],
                             "attendance_rate": rate, "distinction": rate >= 95.0, "issued_on": iso(issued)}
        e["certificate_id"] = cid
    for e in enrols:
        c = courses[e["course_id"]]
        if e["status"] in ("active", "completed"):
            c["seats_taken"] += 1
        elif e["status"] == "waitlisted":
            c["waitlist_count"] += 1
        rec = {k: v for k, v in e.items() if not k.startswith("_")}
        for k in ("enrolled_on", "withdrawn_on"):
            if isinstance(rec[k], date):
                rec[k] = iso(rec[k])
        eid = rec.pop("enrolment_id")
        enrolments[eid] = {"enrolment_id": eid, **rec}
    db = {"meta": {"today": iso(TODAY), "currency": "EUR", "school": "Lingua Hall"},
          "students": students, "courses": courses, "sessions": sessions, "enrolments": enrolments,
          "instalments": instalments, "payments": payments, "attendance": attendance,
          "certificates": certificates}
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    parts = []
    for name, coll in db.items():
        if name == "meta":
            parts.append(f' "meta": {json.dumps(coll)}')
        else:
            rows = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in coll.items())
            parts.append(f' {json.dumps(name)}: {{\n{rows}\n }}')
    with open(out, "w") as f:
        f.write("{\n" + ",\n".join(parts) + "\n}\n")


if __name__ == "__main__":
    main()
