"""Differential probes for the movers job desk API: ~60% valid calls, ~40% that the rules refuse.

Candidates are drawn from the data; the reference is used as an oracle only to keep a candidate
whose outcome matches its intent (valid or rule-breaking) when the data leave a choice.
"""
import copy
import datetime

import ref_impl as R

TOOLS = ["search_customers", "list_jobs", "get_job", "get_availability", "update_customer",
         "create_quote", "book_job", "reschedule_job", "start_job", "complete_job", "cancel_job",
         "file_claim", "decide_claim"]
STREETS = ["Quillon Street", "Marram Way", "Tannery Lane", "Sorrel Court", "Wicklow Road", "Basalt Row"]
TOWNS = ["Riverton", "Eastgate", "Millbrook", "Ashford", "Kingsbridge", "Port Alden"]


class _Gen:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = datetime.date.fromisoformat(db["meta"]["today"])
        self.C, self.J, self.K = db["customers"], db["jobs"], db["claims"]
        self.jobs_by = {}
        for jid, j in sorted(self.J.items()):
            self.jobs_by.setdefault(j["status"], []).append(jid)
        self.active_c = sorted(c for c, x in self.C.items() if x["account_status"] == "active")
        self.susp_c = sorted(c for c, x in self.C.items() if x["account_status"] == "suspended")
        self.busy = {}  # date -> [(crew, truck)] of jobs holding a crew and a truck that day
        for j in self.J.values():
            if j["status"] in R.BUSY:
                self.busy.setdefault(j["move_date"], []).append((j["crew_id"], j["truck_id"]))

    # ---- helpers
    def pick(self, seq):
        seq = sorted(seq)
        return self.rng.choice(seq) if seq else None

    def day(self, n):
        return (self.today + datetime.timedelta(days=n)).isoformat()

    def accepted(self, name, args):
        try:
            R.invoke(copy.deepcopy(self.db), name, copy.deepcopy(args))
            return True
        except R.RefError:
            return False

    def want(self, name, ok, makers, tries=40):
        """draw from makers until the reference's outcome matches ok"""
        args = None
        for _ in range(tries):
            args = self.rng.choice(makers)()
            if args is not None and self.accepted(name, args) == ok:
                return args
        return args if args is not None else {"job_id": "JOB-9999"}

    def address(self):
        return f"{self.rng.randint(3, 899)} {self.rng.choice(STREETS)}, {self.rng.choice(TOWNS)}"

    def missing(self, prefix):
        return f"{prefix}-{self.rng.randint(9000, 9999)}"

    # ---- reads
    def search_customers(self, ok):
        if ok:
            a = {}
            if self.rng.random() < 0.6:
                c = self.C[self.pick(self.C)]
                src = self.rng.choice([c["full_name"], c["email"]])
                i = self.rng.randint(0, max(0, len(src) - 4))
                q = src[i:i + self.rng.randint(3, 6)]
                a["q"] = q.upper() if self.rng.random() < 0.4 else q
            if self.rng.random() < 0.4:
                a["account_status"] = self.rng.choice(["active", "suspended"])
            return a
        return self.rng.choice([{"account_status": "closed"}, {"q": "   "}, {"q": ""},
                                {"name": "Okafor"}, {"account_status": "Active"}])

    def list_jobs(self, ok):
        if ok:
            a = {}
            r = self.rng.random
            if r() < 0.4:
                a["status"] = self.pick(R.JOB_STATUSES)
            if r() < 0.35:
                a["customer_id"] = self.pick(self.C)
            if r() < 0.25:
                a["crew_id"] = self.pick(self.db["crews"])
            if r() < 0.4:
                lo = self.rng.randint(-40, 30)
                a["date_from"] = self.day(lo)
                if r() < 0.6:
                    a["date_to"] = self.day(lo + self.rng.randint(0, 30))
            return a
        lo = self.rng.randint(-20, 20)
        return self.rng.choice([
            {"customer_id": self.missing("CUS")}, {"status": "pending"}, {"crew_id": "CR-42"},
            {"date_from": self.day(lo + 5), "date_to": self.day(lo)},
            {"date_from": self.day(lo).replace("-", "/")}, {"date_to": "2025-02-30"}])

    def get_job(self, ok):
        if ok:
            return {"job_id": self.pick(self.J)}
        return self.rng.choice([{"job_id": self.missing("JOB")}, {"job_id": self.pick(self.J).lower()},
                                {}, {"job_id": self.pick(self.J), "verbose": True}])

    def get_availability(self, ok):
        if ok:
            a = {"date": self.day(self.rng.randint(0, 45))}
            if self.rng.random() < 0.3:
                a["min_crew_size"] = self.rng.randint(2, 5)
            if self.rng.random() < 0.3:
                a["min_truck_capacity_m3"] = self.rng.choice([10, 25, 40, 60, 90])
            return a
        return self.rng.choice([{"date": self.day(-self.rng.randint(1, 20))},
                                {"date": self.day(self.rng.randint(181, 300))},
                                {"date": "10/20/2025"}, {"date": self.day(3), "min_crew_size": 0},
                                {"date": self.day(5), "min_truck_capacity_m3": "35"}])

    # ---- writes
    def update_customer(self, ok):
        cid = self.pick(self.C)
        c = self.C[cid]
        phoned = sorted(k for k, x in self.C.items() if x["phone"])
        phoneless = sorted(k for k, x in self.C.items() if not x["phone"])
        if ok:
            a = {"customer_id": cid}
            opts = ["email", "phone", "preferred_contact", "marketing_opt_in"]
            for f in self.rng.sample(opts, self.rng.randint(1, 3)):
                if f == "email":
                    a["email"] = f"{c['full_name'].split()[0]}.{self.rng.randint(10, 999)}@NewHome.example.org"
                elif f == "phone":
                    a["phone"] = "+44" + "".join(str(self.rng.randint(0, 9)) for _ in range(10))
                elif f == "preferred_contact":
                    a["preferred_contact"] = self.rng.choice(["email", "phone", "sms"])
                    if not c["phone"] and "phone" not in a:
                        a["preferred_contact"] = "email"
                else:
                    a["marketing_opt_in"] = not c["marketing_opt_in"]
            return a
        other = self.C[self.pick(k for k in self.C if k != cid)]
        return self.rng.choice([
            {"customer_id": cid},
            {"customer_id": cid, "email": other["email"].upper()},
            {"customer_id": cid, "email": "no-at-sign.example.com"},
            {"customer_id": self.pick(phoned), "phone": "555-0134"},
            {"customer_id": self.pick(phoneless), "preferred_contact": "sms"},
            {"customer_id": cid, "marketing_opt_in": "yes"},
            {"customer_id": self.missing("CUS"), "marketing_opt_in": True},
            {"customer_id": cid, "preferred_contact": "fax"}])

    def _quote(self, cid=None, date=None):
        a = {"customer_id": cid or self.pick(self.active_c),
             "move_date": date or self.day(self.rng.randint(2, 120)),
             "origin_address": self.address(), "destination_address": self.address(),
             "volume_m3": self.rng.randint(4, 85), "distance_km": self.rng.choice(
                 [3, 12, 19, 25, 26, 40, 75, 180, 420]),
             "origin_floor": self.rng.choice([0, 1, 2, 3, 5]),
             "destination_floor": self.rng.choice([0, 0, 2, 4, 7])}
        for f in ("origin_elevator", "destination_elevator", "packing_service"):
            if self.rng.random() < 0.5:
                a[f] = self.rng.random() < 0.5
        plan = self.rng.choice([None, "basic", "standard", "full_value"])
        if plan:
            a["insurance_plan"] = plan
        if plan in ("standard", "full_value"):
            a["declared_value"] = self.rng.choice([1000, 4500, 12000.5, 38250.75, 90000])
        return a

    def create_quote(self, ok):
        if ok:
            return self.want("create_quote", True, [self._quote])
        busy = [j for j in self.J.values() if j["status"] in ("quoted", "booked")
                and j["customer_id"] in self.active_c and j["move_date"] >= self.day(2)]
        dup = self.rng.choice(sorted(busy, key=lambda j: j["job_id"]))
        makers = [
            lambda: self._quote(cid=self.pick(self.susp_c)),
            lambda: self._quote(date=self.day(self.rng.randint(-5, 1))),
            lambda: self._quote(date=self.day(self.rng.randint(181, 260))),
            lambda: {**self._quote(), "volume_m3": self.rng.choice([0, 91, 120])},
            lambda: {**self._quote(), "distance_km": 640},
            lambda: {**self._quote(), "insurance_plan": "standard", "declared_value": None},
            lambda: {**self._quote(), "insurance_plan": "basic", "declared_value": 5000},
            lambda: {**self._quote(), "insurance_plan": "full_value", "declared_value": 500},
            lambda: {**self._quote(), "insurance_plan": "full_value", "declared_value": 2500.125},
            lambda: {**self._quote(), "insurance_plan": "platinum"},
            lambda: dict(self._quote(), destination_address="12 Sorrel Court, Ashford",
                         origin_address="12 sorrel court, ashford"),
            lambda: self._quote(cid=dup["customer_id"], date=dup["move_date"]),
            lambda: {**self._quote(), "origin_floor": -1},
            lambda: {**self._quote(), "move_date": "2025-13-01"},
        ]
        return self.want("create_quote", False, makers)

    def _book(self, jid=None, method=None, crew=None, truck=None):
        jid = jid or self.pick(self.jobs_by["quoted"])
        j = self.J[jid]
        av = R.invoke(copy.deepcopy(self.db), "get_availability", {"date": j["move_date"]}) \
            if j["move_date"] >= self.day(0) else {"crews": [], "trucks": []}
        crews = [c["crew_id"] for c in av["crews"] if c["size"] >= j["required_movers"]] or ["CR-01"]
        trucks = [t["truck_id"] for t in av["trucks"] if t["capacity_m3"] >= j["volume_m3"]] or ["TRK-11"]
        return {"job_id": jid, "crew_id": crew or self.rng.choice(crews),
                "truck_id": truck or self.rng.choice(trucks),
                "payment_method": method or self.rng.choice(["card", "card", "bank_transfer"])}

    def _clash(self, crew_side=False, jid=None, date=None):
        """a crew or truck big enough for the job but already taken on the date"""
        if jid is None:
            cands = [j for j in self.jobs_by["quoted"] if self.J[j]["move_date"] in self.busy
                     and self.J[j]["quote_expires_on"] >= self.day(0)]
            jid = self.pick(cands)
        if jid is None:
            return None
        j = self.J[jid]
        date = date or j["move_date"]
        crews, trucks = self.db["crews"], self.db["trucks"]
        if crew_side:
            full = [c for c, _ in self.busy.get(date, []) if crews[c]["size"] >= j["required_movers"]
                    and R._crew_load(self.db, c, date) >= crews[c]["max_jobs_per_day"]]
            return {"crew_id": self.pick(full), "job_id": jid} if full else None
        taken = [t for _, t in self.busy.get(date, []) if trucks[t]["capacity_m3"] >= j["volume_m3"]]
        return {"truck_id": self.pick(taken), "job_id": jid} if taken else None

    def book_job(self, ok):
        if ok:
            return self.want("book_job", True, [self._book])
        makers = [
            lambda: self._book(method="cash"),
            lambda: self._book(jid=self.pick(j for j in self.jobs_by["quoted"]
                                             if self.J[j]["move_date"] == self.day(1)), method="bank_transfer"),
            lambda: self._book(jid=self.pick(j for j in self.jobs_by["quoted"]
                                             if self.J[j]["quote_expires_on"] < self.day(0))),
            lambda: self._book(jid=self.pick(self.jobs_by["booked"] + self.jobs_by["cancelled"])),
            lambda: self._book(crew="CR-07"),
            lambda: self._book(truck="TRK-15"),
            lambda: self._book(crew=self.rng.choice(["CR-01", "CR-02", "CR-10"])),
            lambda: self._book(truck=self.rng.choice(["TRK-11", "TRK-12"])),
            lambda: self._book(crew="CR-77"),
            lambda: (lambda c: c and self._book(jid=c["job_id"], truck=c["truck_id"]))(self._clash()),
            lambda: (lambda c: c and self._book(jid=c["job_id"], crew=c["crew_id"]))(self._clash(True)),
            lambda: self._book(jid=self.pick(self.jobs_by["quoted"]), truck="TRK-99"),
            lambda: self._book(method="cheque"),
        ]
        return self.want("book_job", False, makers)

    def _resched(self, jid=None, offset=None, crew=None, truck=None):
        jid = jid or self.pick(self.jobs_by["booked"])
        a = {"job_id": jid, "new_move_date": self.day(offset if offset is not None else self.rng.randint(2, 90))}
        if crew:
            a["crew_id"] = crew
        if truck:
            a["truck_id"] = truck
        return a

    def _resched_clash(self, crew_side):
        d = self.pick(x for x in self.busy if x >= self.day(2))
        c = self._clash(crew_side, jid=self.pick(self.jobs_by["booked"]), date=d)
        if c is None:
            return None
        offset = (datetime.date.fromisoformat(d) - self.today).days
        return self._resched(jid=c["job_id"], offset=offset, crew=c.get("crew_id"), truck=c.get("truck_id"))

    def reschedule_job(self, ok):
        if ok:
            def swap():
                a = self._resched()
                j = self.J[a["job_id"]]
                av = R.invoke(copy.deepcopy(self.db), "get_availability", {"date": a["new_move_date"]})
                cr = [c["crew_id"] for c in av["crews"] if c["size"] >= j["required_movers"]]
                tr = [t["truck_id"] for t in av["trucks"] if t["capacity_m3"] >= j["volume_m3"]]
                if cr and self.rng.random() < 0.6:
                    a["crew_id"] = self.rng.choice(cr)
                if tr and self.rng.random() < 0.6:
                    a["truck_id"] = self.rng.choice(tr)
                return a
            return self.want("reschedule_job", True, [self._resched, swap])
        limit = [j for j in self.jobs_by["booked"] if self.J[j]["reschedule_count"] >= 2]
        today = [j for j in self.jobs_by["booked"] if self.J[j]["move_date"] == self.day(0)]
        makers = [
            lambda: self._resched(jid=self.pick(limit)) if limit else None,
            lambda: self._resched(jid=self.pick(today)),
            lambda: self._resched(offset=self.rng.choice([-3, 0, 1, 200])),
            lambda: (lambda a: {**a, "new_move_date": self.J[a["job_id"]]["move_date"]})(self._resched()),
            lambda: self._resched(jid=self.pick(self.jobs_by["quoted"] + self.jobs_by["completed"])),
            lambda: self._resched(crew="CR-07"),
            lambda: self._resched(truck="TRK-15"),
            lambda: self._resched(crew=self.rng.choice(["CR-01", "CR-02"]),
                                  jid=self.pick(j for j in self.jobs_by["booked"] if self.J[j]["required_movers"] > 2)),
            lambda: self._resched(jid=self.pick(j for j in self.jobs_by["booked"] if self.J[j]["crew_id"] == "CR-07")),
            lambda: {"job_id": self.pick(self.jobs_by["booked"]), "new_move_date": "next friday"},
            lambda: self._resched_clash(False),
            lambda: self._resched_clash(True),
        ]
        return self.want("reschedule_job", False, makers)

    def start_job(self, ok):
        today = [j for j in self.jobs_by["booked"] if self.J[j]["move_date"] == self.day(0)]
        if ok:
            return self.want("start_job", True, [lambda: {"job_id": self.pick(today)}])
        return self.want("start_job", False, [
            lambda: {"job_id": self.pick(today)},
            lambda: {"job_id": self.pick(self.jobs_by["booked"])},
            lambda: {"job_id": self.pick(self.jobs_by["quoted"] + self.jobs_by["in_progress"]
                                         + self.jobs_by["completed"])},
            lambda: {"job_id": self.missing("JOB")}])

    def complete_job(self, ok):
        jid = self.pick(self.jobs_by["in_progress"])
        j = self.J[jid]
        cap = self.db["trucks"][j["truck_id"]]["capacity_m3"]
        if ok:
            return {"job_id": jid, "actual_volume_m3": self.rng.randint(max(1, j["volume_m3"] - 4), cap)}
        return self.rng.choice([
            {"job_id": jid, "actual_volume_m3": cap + self.rng.randint(1, 20)},
            {"job_id": jid, "actual_volume_m3": 0},
            {"job_id": jid, "actual_volume_m3": float(j["volume_m3"]) + 0.5},
            {"job_id": self.pick(self.jobs_by["booked"] + self.jobs_by["completed"]), "actual_volume_m3": 10},
            {"job_id": jid}])

    def cancel_job(self, ok):
        reason = self.pick(R.CANCEL_REASONS)
        if ok:
            return {"job_id": self.pick(self.jobs_by["quoted"] + self.jobs_by["booked"]), "reason": reason}
        others = self.jobs_by["in_progress"] + self.jobs_by["completed"] + self.jobs_by["cancelled"]
        if self.rng.random() < 0.25:
            return {"job_id": self.pick(self.jobs_by["booked"]), "reason": "weather"}
        return {"job_id": self.pick(others), "reason": reason}

    def _claim(self, jid=None, dtype=None, amount=None):
        jid = jid or self.pick(self.jobs_by["completed"])
        return {"job_id": jid, "item_description": self.rng.choice(
                    ["Marble side table", "Flat-screen TV 55in", "Box of vinyl records", "Oak wardrobe door"]),
                "damage_type": dtype or self.rng.choice(sorted(R.DAMAGE_TYPES)),
                "claimed_amount": amount if amount is not None else self.rng.choice(
                    [85, 240.5, 612.25, 1480, 3999.99, 12500])}

    def file_claim(self, ok):
        if ok:
            return self.want("file_claim", True, [self._claim])
        old = [j for j in self.jobs_by["completed"] if self.J[j]["completed_on"] < self.day(-30)]
        pending = sorted({c["job_id"] for c in self.K.values() if c["status"] == "submitted"})
        basic = [j for j in self.jobs_by["completed"] if self.J[j]["insurance_plan"] == "basic"
                 and self.J[j]["completed_on"] >= self.day(-30)]
        makers = [
            lambda: self._claim(jid=self.pick(old)),
            lambda: self._claim(jid=self.pick(pending)),
            lambda: self._claim(jid=self.pick(j for j in self.jobs_by["completed"]
                                              if self.J[j]["claims_paid_total"] >= self.J[j]["coverage_cap"])),
            lambda: self._claim(jid=self.pick(basic), dtype="lost"),
            lambda: self._claim(jid=self.pick(self.jobs_by["booked"] + self.jobs_by["in_progress"])),
            lambda: self._claim(amount=self.rng.choice([0, -20, 60000, 10.005])),
            lambda: self._claim(dtype="stolen"),
            lambda: {**self._claim(), "item_description": ""},
        ]
        return self.want("file_claim", False, makers)

    def decide_claim(self, ok):
        sub = sorted(c for c, x in self.K.items() if x["status"] == "submitted")
        done = sorted(c for c, x in self.K.items() if x["status"] != "submitted")
        if ok:
            if self.rng.random() < 0.5:
                return {"claim_id": self.pick(sub), "decision": "approve"}
            return {"claim_id": self.pick(sub), "decision": "deny", "denial_reason": self.pick(R.DENIAL_REASONS)}
        return self.rng.choice([
            {"claim_id": self.pick(done), "decision": "approve"},
            {"claim_id": self.pick(done), "decision": "deny", "denial_reason": "pre_existing"},
            {"claim_id": self.pick(sub), "decision": "deny"},
            {"claim_id": self.pick(sub), "decision": "approve", "denial_reason": "not_covered"},
            {"claim_id": self.pick(sub), "decision": "maybe"},
            {"claim_id": self.pick(sub), "decision": "deny", "denial_reason": "too_expensive"},
            {"claim_id": self.missing("CLM"), "decision": "approve"}])


def probes(db, rng, n):
    g = _Gen(db, rng)
    out, order = [], []
    for _ in range(n):
        if not order:
            order = list(TOOLS)
            rng.shuffle(order)
        tool = order.pop()
        ok = rng.random() < 0.58
        out.append((tool, getattr(g, tool)(ok)))
    return out
