"""Differential probes for the Lingua Hall language school API (stdlib only)."""
from datetime import date, timedelta

LEVELS = ["A1", "A2", "B1", "B2", "C1", "C2"]


class _Ctx:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        self.t = db["meta"]["today"]
        self.used = set()
        self.seq = 0
        S, C, E = db["students"], db["courses"], db["enrolments"]
        self.overdue = {E[i["enrolment_id"]]["student_id"] for i in db["instalments"].values()
                        if i["status"] in ("pending", "partial") and i["due_date"] < self.t}
        self.running = {(e["student_id"], C[e["course_id"]]["language"]) for e in E.values()
                        if e["status"] in ("active", "waitlisted") and C[e["course_id"]]["status"] in ("open", "in_progress")}
        self.holds = {(e["student_id"], e["course_id"]) for e in E.values()
                      if e["status"] in ("active", "waitlisted", "completed")}
        self.elapsed = {c: 0 for c in C}
        for s in db["sessions"].values():
            if s["status"] != "cancelled" and s["date"] <= self.t:
                self.elapsed[s["course_id"]] += 1
        self.marked = {(a["session_id"], a["enrolment_id"]) for a in db["attendance"].values()}

    def pick(self, items, key=None):
        items = list(items)
        if not items:
            return None
        fresh = [x for x in items if (key(x) if key else x) not in self.used]
        x = self.rng.choice(fresh or items)
        self.used.add(key(x) if key else x)
        return x

    def accepts(self, c):
        return c["status"] == "open" or (c["status"] == "in_progress" and
                                         self.today <= date.fromisoformat(c["start_date"]) + timedelta(days=7))

    @staticmethod
    def level_ok(s, c):
        return s["level"] is not None and LEVELS.index(c["level"]) - LEVELS.index(s["level"]) in (0, 1)

    def enrol_reason(self, s, c, plan):
        if s["status"] != "active":
            return "suspended"
        if s["level"] is None:
            return "unplaced"
        if not self.level_ok(s, c):
            return "level"
        if not self.accepts(c):
            return "closed"
        if (s["student_id"], c["course_id"]) in self.holds:
            return "duplicate"
        if (s["student_id"], c["language"]) in self.running:
            return "language"
        if s["student_id"] in self.overdue:
            return "overdue"
        if plan == "instalments" and c["fee"] < 300:
            return "plan"
        if c["seats_taken"] >= c["capacity"] and c["waitlist_count"] >= 3:
            return "full"
        return None

    def transfer_reason(self, e, c):
        db = self.db
        s, src = db["students"][e["student_id"]], db["courses"][e["course_id"]]
        if e["status"] != "active":
            return "status"
        if s["status"] != "active":
            return "suspended"
        if src["status"] not in ("open", "in_progress") or self.elapsed[src["course_id"]] * 2 >= src["session_count"]:
            return "late"
        if c["course_id"] == src["course_id"] or c["language"] != src["language"]:
            return "language"
        if not self.accepts(c) or c["seats_taken"] >= c["capacity"]:
            return "target"
        if not self.level_ok(s, c):
            return "level"
        if (s["student_id"], c["course_id"]) in self.holds:
            return "duplicate"
        return None


def _enrol(x, valid):
    db, rng = x.db, x.rng
    if not valid and rng.random() < 0.15:
        return ("create_enrolment", rng.choice([{"student_id": "ST9999", "course_id": "CRS114"},
                                                {"student_id": "ST0001", "course_id": "CRS999"},
                                                {"student_id": "ST0002", "course_id": "CRS120", "payment_plan": "monthly"}]))
    groups = {}
    for s in db["students"].values():
        for c in db["courses"].values():
            plan = "instalments" if c["fee"] >= 300 and (int(s["student_id"][2:]) + int(c["course_id"][3:])) % 2 else "full"
            if not valid and c["fee"] < 300 and (int(s["student_id"][2:]) % 3 == 0):
                plan = "instalments"
            r = x.enrol_reason(s, c, plan)
            groups.setdefault(r, []).append((s["student_id"], c["course_id"], plan))
    if valid:
        pool = groups.get(None, [])
        sid, cid, plan = x.pick(pool, key=lambda p: ("enrol", p[0], db["courses"][p[1]]["language"]))
    else:
        reason = rng.choice(sorted(k for k in groups if k))
        sid, cid, plan = rng.choice(groups[reason])
    args = {"student_id": sid, "course_id": cid}
    if plan == "instalments" or rng.random() < 0.3:
        args["payment_plan"] = plan
    return ("create_enrolment", args)


def _pay(x, valid):
    db, rng = x.db, x.rng
    E, S = db["enrolments"], db["students"]
    owing = [e for e in E.values() if e["status"] == "active" and round(e["amount_due"] - e["amount_paid"], 2) > 0]
    if valid:
        e = x.pick(owing, key=lambda e: e["enrolment_id"])
        bal = round(e["amount_due"] - e["amount_paid"], 2)
        amt = rng.choice([bal, round(bal / 2, 2), min(50.0, bal), min(33.33, bal)])
        meth = rng.choice(["card", "cash", "bank_transfer"])
        if S[e["student_id"]]["credit_balance"] >= amt and rng.random() < 0.5:
            meth = "account_credit"
        return ("record_payment", {"enrolment_id": e["enrolment_id"], "amount": amt, "method": meth})
    kind = rng.randrange(7)
    e = rng.choice(owing)
    bal = round(e["amount_due"] - e["amount_paid"], 2)
    if kind == 0:
        return ("record_payment", {"enrolment_id": e["enrolment_id"], "amount": round(bal + 10, 2), "method": "card"})
    if kind == 1:
        return ("record_payment", {"enrolment_id": e["enrolment_id"], "amount": 12.345, "method": "cash"})
    if kind == 2:
        return ("record_payment", {"enrolment_id": e["enrolment_id"], "amount": rng.choice([0, -20.0]), "method": "card"})
    if kind == 3:
        other = [o for o in E.values() if o["status"] in ("waitlisted", "withdrawn", "completed", "transferred")]
        return ("record_payment", {"enrolment_id": rng.choice(other)["enrolment_id"], "amount": 10.0, "method": "card"})
    if kind == 4:
        poor = [o for o in owing if S[o["student_id"]]["credit_balance"] < 5]
        return ("record_payment", {"enrolment_id": rng.choice(poor)["enrolment_id"], "amount": 5.0, "method": "account_credit"})
    if kind == 5:
        return ("record_payment", {"enrolment_id": e["enrolment_id"], "amount": 10.0, "method": "paypal"})
    return ("record_payment", {"enrolment_id": "ENR9999", "amount": 10.0, "method": "card"})


def _transfer(x, valid):
    db, rng = x.db, x.rng
    groups = {}
    for e in db["enrolments"].values():
        if e["status"] not in ("active", "completed", "withdrawn", "waitlisted"):
            continue
        for c in db["courses"].values():
            r = x.transfer_reason(e, c)
            groups.setdefault(r, []).append((e["enrolment_id"], c["course_id"]))
    if valid and groups.get(None):
        eid, cid = x.pick(groups[None], key=lambda p: p[0])
    else:
        if rng.random() < 0.1:
            return ("transfer_enrolment", {"enrolment_id": "ENR9999", "target_course_id": "CRS120"})
        reason = rng.choice(sorted(k for k in groups if k))
        eid, cid = rng.choice(groups[reason])
    return ("transfer_enrolment", {"enrolment_id": eid, "target_course_id": cid})


def _withdraw(x, valid):
    db, rng = x.db, x.rng
    E, C = db["enrolments"], db["courses"]
    if valid:
        ok = [e for e in E.values() if e["status"] == "waitlisted" or
              (e["status"] == "active" and C[e["course_id"]]["status"] in ("open", "in_progress"))]
        e = x.pick(ok, key=lambda e: e["enrolment_id"])
        args = {"enrolment_id": e["enrolment_id"]}
        if rng.random() < 0.5:
            args["refund_method"] = rng.choice(["account_credit", "bank_transfer"])
        return ("withdraw_enrolment", args)
    bad = [e for e in E.values() if e["status"] in ("completed", "withdrawn", "transferred") or
           (e["status"] == "active" and C[e["course_id"]]["status"] == "completed")]
    r = rng.random()
    if r < 0.15:
        return ("withdraw_enrolment", {"enrolment_id": "ENR9999"})
    if r < 0.3:
        act = [e for e in E.values() if e["status"] == "active"]
        return ("withdraw_enrolment", {"enrolment_id": rng.choice(act)["enrolment_id"], "refund_method": "cash"})
    return ("withdraw_enrolment", {"enrolment_id": rng.choice(bad)["enrolment_id"]})


def _attend(x, valid):
    db, rng = x.db, x.rng
    lo = (x.today - timedelta(days=14)).isoformat()
    st = rng.choice(["present", "present", "late", "absent"])
    act = [e for e in db["enrolments"].values() if e["status"] == "active"]
    if valid:
        pairs = [(s["session_id"], e["enrolment_id"]) for s in db["sessions"].values()
                 if s["status"] != "cancelled" and lo <= s["date"] <= x.t
                 for e in act if e["course_id"] == s["course_id"] and e["enrolled_on"] <= s["date"]
                 and (s["session_id"], e["enrolment_id"]) not in x.marked]
        sid, eid = x.pick(pairs)
        return ("mark_attendance", {"session_id": sid, "enrolment_id": eid, "status": st})
    kind = rng.randrange(6)
    sess = list(db["sessions"].values())
    if kind == 0:  # future session
        cand = [(s, e) for s in sess if s["date"] > x.t and s["status"] == "scheduled" for e in act if e["course_id"] == s["course_id"]]
    elif kind == 1:  # too old
        cand = [(s, e) for s in sess if s["date"] < lo and s["status"] != "cancelled" for e in act if e["course_id"] == s["course_id"]]
    elif kind == 2:  # cancelled session
        cand = [(s, e) for s in sess if s["status"] == "cancelled" for e in act if e["course_id"] == s["course_id"]]
    elif kind == 3:  # duplicate
        cand = [(db["sessions"][a["session_id"]], db["enrolments"][a["enrolment_id"]]) for a in db["attendance"].values()
                if db["sessions"][a["session_id"]]["date"] >= lo and db["enrolments"][a["enrolment_id"]]["status"] == "active"]
    elif kind == 4:  # enrolment of another course
        cand = [(s, e) for s in sess if lo <= s["date"] <= x.t and s["status"] != "cancelled" for e in act
                if e["course_id"] != s["course_id"]]
    else:
        return ("mark_attendance", {"session_id": "SES9999", "enrolment_id": act[0]["enrolment_id"], "status": "present"})
    if not cand:
        return ("mark_attendance", {"session_id": "SES0001", "enrolment_id": act[0]["enrolment_id"], "status": "excused"})
    s, e = rng.choice(cand)
    return ("mark_attendance", {"session_id": s["session_id"], "enrolment_id": e["enrolment_id"], "status": st})


def _cert(x, valid):
    db, rng = x.db, x.rng
    C = db["courses"]

    def ok(e):
        c = C[e["course_id"]]
        return (e["status"] == "active" and c["status"] in ("in_progress", "completed")
                and round(e["amount_paid"], 2) == round(e["amount_due"], 2) and c["session_count"] > 0
                and e["attended_sessions"] * 5 >= c["session_count"] * 4)
    good = [e for e in db["enrolments"].values() if ok(e)]
    if valid and good:
        e = x.pick(good, key=lambda e: e["enrolment_id"])
        return ("issue_certificate", {"enrolment_id": e["enrolment_id"]})
    bad = [e for e in db["enrolments"].values() if not ok(e)]
    prefer = [e for e in bad if e["status"] == "active" and C[e["course_id"]]["status"] in ("completed", "in_progress")]
    if rng.random() < 0.1:
        return ("issue_certificate", {"enrolment_id": "ENR0000"})
    e = rng.choice(prefer if prefer and rng.random() < 0.6 else bad)
    return ("issue_certificate", {"enrolment_id": e["enrolment_id"]})


def _placement(x, valid):
    db, rng = x.db, x.rng
    S = list(db["students"].values())
    limit = (x.today - timedelta(days=30)).isoformat()
    if valid:
        ok = [s for s in S if s["status"] == "active" and (s["last_placement_date"] is None or s["last_placement_date"] <= limit)]
        s = x.pick(ok, key=lambda s: ("place", s["student_id"]))
        return ("record_placement", {"student_id": s["student_id"], "score": rng.randint(0, 100)})
    kind = rng.randrange(4)
    if kind == 0:
        recent = [s for s in S if s["last_placement_date"] and s["last_placement_date"] > limit]
        return ("record_placement", {"student_id": rng.choice(recent)["student_id"], "score": rng.randint(0, 100)})
    if kind == 1:
        return ("record_placement", {"student_id": rng.choice([s for s in S if s["status"] == "suspended"])["student_id"], "score": 50})
    if kind == 2:
        return ("record_placement", {"student_id": rng.choice(S)["student_id"], "score": rng.choice([101, -1, 250])})
    return ("record_placement", {"student_id": "ST0999", "score": 40})


def _register(x, valid):
    db, rng = x.db, x.rng
    x.seq += 1
    first = rng.choice(["Noa", "Iris", "Tomas", "Leila", "Oskar", "Mina"])
    last = rng.choice(["Reyes", "Lund", "Silva", "Kaur", "Brenner"])
    if valid:
        args = {"full_name": f"{first} {last}", "email": f"{first}.{last}{x.seq}@Example.org"}
        if rng.random() < 0.5:
            args["phone"] = "+44" + "".join(str(rng.randrange(10)) for _ in range(9))
        return ("register_student", args)
    kind = rng.randrange(4)
    if kind == 0:
        dup = rng.choice(list(db["students"].values()))["email"].upper()
        return ("register_student", {"full_name": f"{first} {last}", "email": dup})
    if kind == 1:
        return ("register_student", {"full_name": f"{first} {last}", "email": rng.choice(["no-at-sign.example.org", "a@b", "x y@mail.com"])})
    if kind == 2:
        return ("register_student", {"full_name": f"{first} {last}", "email": f"p{x.seq}@mail.example", "phone": "0176-12345"})
    return ("register_student", {"full_name": "   ", "email": f"blank{x.seq}@mail.example"})


def _reads(x, tool, valid):
    db, rng = x.db, x.rng
    sid = rng.choice(list(db["students"]))
    cid = rng.choice(list(db["courses"]))
    eid = rng.choice(list(db["enrolments"]))
    if tool == "list_courses":
        if not valid:
            return (tool, rng.choice([{"level": "D1"}, {"status": "running"}, {"start_from": "2025-13-01"}, {"has_free_seat": "yes"}]))
        opts = {"language": rng.choice(["spanish", "French", "GERMAN", "Italian", "Japanese"]), "level": rng.choice(LEVELS),
                "status": rng.choice(["open", "in_progress", "completed"]), "has_free_seat": rng.choice([True, False]),
                "start_from": x.t, "start_to": (x.today + timedelta(days=40)).isoformat(),
                "q": rng.choice(["conversation", "INTENSIVE", "b1", "workshop"])}
        keys = rng.sample(sorted(opts), rng.randint(0, 3))
        return (tool, {k: opts[k] for k in keys})
    if tool == "get_student":
        return (tool, {"student_id": sid if valid else rng.choice(["ST0000", "ST0100", "ST9999"])})
    if tool == "list_enrolments":
        if not valid:
            return (tool, rng.choice([{"student_id": "ST0999"}, {"status": "cancelled"}, {"course_id": "CRS001"}]))
        opts = {"student_id": sid, "course_id": cid, "status": rng.choice(["active", "waitlisted", "completed", "withdrawn"])}
        return (tool, {k: opts[k] for k in rng.sample(sorted(opts), rng.randint(1, 2))})
    if tool == "list_sessions":
        if not valid:
            return (tool, rng.choice([{"course_id": "CRS999"}, {}, {"course_id": cid, "date_from": "10/03/2025"}]))
        args = {"course_id": cid}
        if rng.random() < 0.5:
            args["status"] = rng.choice(["scheduled", "held", "cancelled"])
        if rng.random() < 0.4:
            args["date_from"] = x.t
        return (tool, args)
    if tool == "list_instalments":
        if not valid:
            return (tool, rng.choice([{}, {"status": "paid"}, {"enrolment_id": "ENR9999"}, {"student_id": sid, "status": "overdue"}]))
        args = rng.choice([{"enrolment_id": eid}, {"student_id": sid}])
        if rng.random() < 0.4:
            args["status"] = rng.choice(["pending", "paid", "partial"])
        return (tool, args)
    if not valid:
        return (tool, rng.choice([{"kind": "fee"}, {"student_id": "ST0999"}, {"enrolment_id": "X1"}]))
    opts = {"student_id": sid, "enrolment_id": eid, "kind": rng.choice(["payment", "refund"])}
    return (tool, {k: opts[k] for k in rng.sample(sorted(opts), rng.randint(0, 2))})


WRITERS = {"create_enrolment": _enrol, "record_payment": _pay, "transfer_enrolment": _transfer,
           "withdraw_enrolment": _withdraw, "mark_attendance": _attend, "issue_certificate": _cert,
           "record_placement": _placement, "register_student": _register}
READERS = ["list_courses", "get_student", "list_enrolments", "list_sessions", "list_instalments", "list_payments"]


def probes(db, rng, n=200):
    x = _Ctx(db, rng)
    # writes get twice the weight of reads
    cycle = [t for t in WRITERS for _ in range(2)] + READERS
    out, invalid, had_valid = [], 0, set()
    for k in range(n):
        if k % len(cycle) == 0:
            rng.shuffle(cycle)
        tool = cycle[k % len(cycle)]
        # keep 40% of the probes invalid, but give every write tool a valid probe early
        valid = invalid >= round(0.4 * (k + 1)) or (tool in WRITERS and tool not in had_valid)
        if valid:
            had_valid.add(tool)
        else:
            invalid += 1
        out.append(WRITERS[tool](x, valid) if tool in WRITERS else _reads(x, tool, valid))
    return out
