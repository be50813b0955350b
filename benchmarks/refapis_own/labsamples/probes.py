"""Differential probes for Larkmoor SampleTrack: about 58-60% calls that should succeed, the rest that the
docs say must be refused. Each probe is meant to run on a fresh copy of the start state."""
import datetime as dt

TOOLS = ["get_study", "list_samples", "search_tests", "list_racks", "list_test_orders", "get_custody_log",
         "register_sample", "store_sample", "check_out_sample", "create_test_order", "enter_result",
         "sign_off_result", "cancel_test_order", "dispose_sample"]
TYPES = ["serum", "plasma", "whole_blood", "urine", "csf", "tissue", "saliva", "dna"]
TEMPS_OK = {"serum": {-20, -80}, "plasma": {-80}, "whole_blood": {4}, "urine": {-20, -80},
            "csf": {-80}, "tissue": {-80, -196}, "saliva": {-20}, "dna": {4, -20}}
STAFF = ["A. Mbeki", "B. Sorensen", "C. Halloran", "E. Novak", "H. Lindahl", "J. Whitcombe", "K. Doyle"]


class _G:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = dt.date.fromisoformat(db["meta"]["today"])
        self.St, self.T, self.R = db["studies"], db["tests"], db["racks"]
        self.S, self.O = db["samples"], db["test_orders"]

    # -------------------------------------------------------------- helpers
    def pick(self, seq, default=None):
        seq = sorted(seq)
        return self.rng.choice(seq) if seq else default

    def day(self, offset):
        return (self.today + dt.timedelta(days=offset)).isoformat()

    def samples(self, *statuses):
        return [k for k, s in self.S.items() if s["status"] in statuses]

    def orders(self, *statuses):
        return [k for k, o in self.O.items() if o["status"] in statuses]

    def casey(self, name):
        r = self.rng.random()
        return name.upper() if r < 0.3 else name.lower() if r < 0.6 else " " + name + " "

    def free_positions(self, rid):
        taken = {s["position"] for s in self.S.values() if s["status"] == "stored" and s["rack_id"] == rid}
        return [p for p in range(1, self.R[rid]["capacity"] + 1) if p not in taken]

    def good_racks(self, sid):
        t = self.S[sid]["specimen_type"]
        return [r for r, x in self.R.items() if x["status"] == "in_service" and x["storage_temp_c"] in TEMPS_OK[t]
                and x["occupied"] < x["capacity"]]

    def window_ok(self, s, t):
        frozen = s["status"] == "stored" and self.R[s["rack_id"]]["storage_temp_c"] <= -20
        days = (self.today - dt.date.fromisoformat(s["collected_on"])).days
        return days <= (t["frozen_stability_days"] if frozen else t["stability_days"])

    def live(self, sid, code):
        return any(o["sample_id"] == sid and o["test_code"] == code and o["status"] != "cancelled"
                   for o in self.O.values())

    def orderable(self, sid, code):
        s, t = self.S[sid], self.T[code]
        return (s["status"] in ("received", "stored", "checked_out") and self.St[s["study_id"]]["status"] == "open"
                and t["status"] == "active" and s["specimen_type"] in t["specimen_types"]
                and not self.live(sid, code) and self.window_ok(s, t) and s["volume_ml"] >= t["volume_ml"])

    def open_orders(self, sid):
        return any(o["sample_id"] == sid and o["status"] in ("ordered", "in_progress", "resulted")
                   for o in self.O.values())

    def reasons_ok(self, sid):
        s = self.S[sid]
        st = self.St[s["study_id"]]
        out = ["consent_withdrawn"]
        if self.today > dt.date.fromisoformat(st["retention_until"]):
            out.append("retention_expired")
        if s["status"] == "depleted":
            out.append("depleted")
        if s["status"] == "quarantined":
            out.append("quality_failure")
        if st["status"] == "closed":
            out.append("study_closed")
        return out

    # -------------------------------------------------------------- reads
    def get_study(self, ok):
        if ok:
            return {"study_id": self.pick(self.St)}
        return self.rng.choice([{"study_id": "STU-0999"}, {"study_id": self.pick(self.St).lower()},
                          {"study_id": self.pick(self.St), "include": "samples"}, {}])

    def list_samples(self, ok):
        if ok:
            a = {}
            if self.rng.random() < 0.4:
                a["study_id"] = self.pick(self.St)
            if self.rng.random() < 0.4:
                a["status"] = self.pick(["received", "stored", "checked_out", "depleted", "quarantined", "disposed"])
            if self.rng.random() < 0.3:
                a["specimen_type"] = self.pick(TYPES)
            if self.rng.random() < 0.2:
                a["rack_id"] = self.pick(self.R)
            if self.rng.random() < 0.3:
                a["subject_code"] = self.S[self.pick(self.S)]["subject_code"].lower()
            return a
        return self.rng.choice([{"status": "archived"}, {"study_id": "STU-0500"}, {"rack_id": "RK-99"},
                          {"specimen_type": "blood"}, {"limit": 10}, {"status": "Stored"}])

    def search_tests(self, ok):
        if ok:
            a = {}
            if self.rng.random() < 0.6:
                t = self.T[self.pick(self.T)]
                src = t["name"] if self.rng.random() < 0.6 else t["test_code"]
                if len(src) >= 2:
                    i = self.rng.randint(0, len(src) - 2)
                    q = src[i:i + self.rng.randint(2, 6)]
                    a["q"] = q.upper() if self.rng.random() < 0.5 else q.lower()
            if self.rng.random() < 0.3:
                a["specimen_type"] = self.pick(TYPES)
            if self.rng.random() < 0.2:
                a["department"] = self.pick(["chemistry", "haematology", "immunology", "molecular", "histology"])
            if self.rng.random() < 0.3:
                a["include_withdrawn"] = self.rng.random() < 0.5
            return a
        return self.rng.choice([{"q": "k"}, {"department": "genetics"}, {"include_withdrawn": "yes"},
                          {"specimen_type": "Serum"}, {"q": 42}])

    def list_racks(self, ok):
        if ok:
            a = {}
            if self.rng.random() < 0.4:
                a["storage_temp_c"] = self.pick([4, -20, -80, -196])
            if self.rng.random() < 0.3:
                a["status"] = self.pick(["in_service", "maintenance", "decommissioned"])
            if self.rng.random() < 0.4:
                a["min_free"] = self.rng.choice([0, 1, 3, 5, 8, 12])
            if self.rng.random() < 0.3:
                a["specimen_type"] = self.pick(TYPES)
            return a
        return self.rng.choice([{"storage_temp_c": -70}, {"storage_temp_c": "-80"}, {"min_free": -1},
                          {"status": "full"}, {"min_free": 2.5}])

    def list_test_orders(self, ok):
        if ok:
            a = {}
            if self.rng.random() < 0.4:
                a["sample_id"] = self.O[self.pick(self.O)]["sample_id"]
            if self.rng.random() < 0.3:
                a["study_id"] = self.pick(self.St)
            if self.rng.random() < 0.4:
                a["status"] = self.pick(["ordered", "in_progress", "resulted", "signed_off", "cancelled"])
            if self.rng.random() < 0.3:
                a["test_code"] = self.pick(self.T)
            return a
        return self.rng.choice([{"sample_id": "SMP-09999"}, {"test_code": "XYZ"}, {"status": "done"},
                          {"study_id": "stu-0101"}, {"priority": "stat"}])

    def get_custody_log(self, ok):
        if ok:
            return {"sample_id": self.pick(self.S)}
        return self.rng.choice([{"sample_id": "SMP-00000"}, {"sample_id": self.pick(self.S).lower()}, {}])

    # -------------------------------------------------------------- writes
    def register_sample(self, ok):
        opened = [k for k, s in self.St.items() if s["status"] == "open" and s["samples_registered"] < s["sample_quota"]]
        sid = self.pick(opened)
        st = self.St[sid]
        vol = round(self.rng.uniform(0.4, 12.0), self.rng.choice([2, 2, 3]))
        a = {"study_id": sid, "subject_code": f"{st['subject_prefix']}-{self.rng.randint(100, 999):03d}",
             "specimen_type": self.pick(TYPES), "collected_on": self.day(-self.rng.randint(0, 7)),
             "volume_ml": vol, "received_by": self.pick(STAFF)}
        if ok:
            return a
        kind = self.rng.randint(0, 10)
        if kind == 0:
            a["study_id"] = self.pick([k for k, s in self.St.items() if s["status"] != "open"])
            a["subject_code"] = f"{self.St[a['study_id']]['subject_prefix']}-123"
        elif kind == 1:
            full = [k for k, s in self.St.items() if s["status"] == "open" and s["samples_registered"] >= s["sample_quota"]]
            a["study_id"] = self.pick(full)
            a["subject_code"] = f"{self.St[a['study_id']]['subject_prefix']}-123"
        elif kind == 2:
            other = self.pick([s["subject_prefix"] for s in self.St.values() if s["subject_prefix"] != st["subject_prefix"]])
            a["subject_code"] = f"{other}-{self.rng.randint(100, 999)}"
        elif kind == 3:
            a["subject_code"] = a["subject_code"].lower()
        elif kind == 4:
            a["collected_on"] = self.day(-self.rng.randint(8, 40))
        elif kind == 5:
            a["collected_on"] = self.day(self.rng.randint(1, 5))
        elif kind == 6:
            a["volume_ml"] = self.rng.choice([0, -1.5, 50.01, 75, 0.004])
        elif kind == 7:
            recent = [s for s in self.S.values() if self.St[s["study_id"]]["status"] == "open"
                      and self.St[s["study_id"]]["samples_registered"] < self.St[s["study_id"]]["sample_quota"]
                      and (self.today - dt.date.fromisoformat(s["collected_on"])).days <= 7]
            if recent:
                s = self.rng.choice(sorted(recent, key=lambda x: x["sample_id"]))
                a.update(study_id=s["study_id"], subject_code=s["subject_code"], specimen_type=s["specimen_type"],
                         collected_on=s["collected_on"])
            else:
                a["specimen_type"] = "blood"
        elif kind == 8:
            a["collected_on"] = "2025-02-30"
        elif kind == 9:
            del a["received_by"]
        else:
            a["volume_ml"] = str(vol)
        return a

    def store_sample(self, ok):
        cands = [(s, r) for s in self.samples("received", "checked_out") for r in self.good_racks(s)]
        s, r = self.rng.choice(sorted(cands))
        a = {"sample_id": s, "rack_id": r, "performed_by": self.pick(STAFF)}
        if ok:
            if self.rng.random() < 0.5:
                a["position"] = self.rng.choice(self.free_positions(r))
            return a
        kind = self.rng.randint(0, 7)
        if kind == 0:
            a["sample_id"] = self.pick(self.samples("stored", "disposed", "depleted", "quarantined"))
            t = self.S[a["sample_id"]]["specimen_type"]
            a["rack_id"] = self.pick([k for k, x in self.R.items() if x["storage_temp_c"] in TEMPS_OK[t]])
        elif kind == 1:
            t = self.S[s]["specimen_type"]
            a["rack_id"] = self.pick([k for k, x in self.R.items() if x["storage_temp_c"] not in TEMPS_OK[t]])
        elif kind == 2:
            a["rack_id"] = self.pick([k for k, x in self.R.items() if x["status"] != "in_service"])
        elif kind == 3:
            full = [k for k, x in self.R.items() if x["occupied"] >= x["capacity"] and x["status"] == "in_service"]
            a["rack_id"] = self.pick(full)
            a["sample_id"] = self.pick([k for k in self.samples("received", "checked_out")
                                        if self.R[a["rack_id"]]["storage_temp_c"] in TEMPS_OK[self.S[k]["specimen_type"]]], s)
        elif kind == 4:
            taken = [x["position"] for x in self.S.values() if x["status"] == "stored" and x["rack_id"] == r]
            a["position"] = self.rng.choice(taken) if taken else self.R[r]["capacity"] + 1
        elif kind == 5:
            a["position"] = self.rng.choice([0, self.R[r]["capacity"] + 1, -2])
        elif kind == 6:
            a["rack_id"] = "RK-77"
        else:
            a["position"] = "1"
        return a

    def check_out_sample(self, ok):
        a = {"sample_id": self.pick(self.samples("stored")), "checked_out_to": self.pick(STAFF),
             "return_due": self.day(self.rng.randint(1, 14))}
        if ok:
            return a
        kind = self.rng.randint(0, 5)
        if kind == 0:
            a["sample_id"] = self.pick(self.samples("received", "checked_out", "disposed", "depleted", "quarantined"))
        elif kind == 1:
            a["return_due"] = self.day(self.rng.choice([0, -3, 15, 30]))
        elif kind == 2:
            counts = {}
            for x in self.S.values():
                if x["status"] == "checked_out":
                    counts[x["checked_out_to"]] = counts.get(x["checked_out_to"], 0) + 1
            who = max(sorted(counts), key=lambda k: counts[k])
            a["checked_out_to"] = self.casey(who)
        elif kind == 3:
            a["return_due"] = "next week"
        elif kind == 4:
            a["checked_out_to"] = "   "
        else:
            a["sample_id"] = "SMP-99999"
        return a

    def create_test_order(self, ok):
        pairs = sorted((s, t) for s in self.S for t in self.T if self.orderable(s, t))
        s, t = self.rng.choice(pairs)
        a = {"sample_id": s, "test_code": t}
        batch = self.T[t]["department"] in ("molecular", "histology")
        if ok:
            if self.rng.random() < 0.6:
                a["priority"] = "routine" if batch or self.rng.random() < 0.5 else "stat"
            return a
        kind = self.rng.randint(0, 9)
        if kind == 0:
            a["test_code"] = self.pick([k for k, x in self.T.items() if x["status"] == "withdrawn"])
            a["sample_id"] = self.pick([k for k, x in self.S.items() if x["specimen_type"] in self.T[a["test_code"]]["specimen_types"]])
        elif kind == 1:
            a["test_code"] = self.pick([k for k, x in self.T.items() if self.S[s]["specimen_type"] not in x["specimen_types"]])
        elif kind == 2:
            bp = [p for p in pairs if self.T[p[1]]["department"] in ("molecular", "histology")]
            if bp:
                a["sample_id"], a["test_code"] = self.rng.choice(bp)
            a["priority"] = "stat" if bp else "urgent"
        elif kind == 3:
            o = self.O[self.pick(self.orders("ordered", "in_progress", "resulted", "signed_off"))]
            a = {"sample_id": o["sample_id"], "test_code": o["test_code"]}
        elif kind == 4:
            stale = sorted((x, k) for x in self.samples("received", "stored", "checked_out") for k in self.T
                           if self.T[k]["status"] == "active" and self.S[x]["specimen_type"] in self.T[k]["specimen_types"]
                           and not self.window_ok(self.S[x], self.T[k]))
            a["sample_id"], a["test_code"] = self.rng.choice(stale)
        elif kind == 5:
            low = sorted((x, k) for x in self.samples("received", "stored", "checked_out") for k in self.T
                         if self.T[k]["status"] == "active" and self.S[x]["specimen_type"] in self.T[k]["specimen_types"]
                         and self.S[x]["volume_ml"] < self.T[k]["volume_ml"])
            if low:
                a["sample_id"], a["test_code"] = self.rng.choice(low)
            else:
                a["test_code"] = "NOPE"
        elif kind == 6:
            x = self.pick(self.samples("depleted", "quarantined", "disposed"))
            a = {"sample_id": x, "test_code": self.pick([k for k, v in self.T.items()
                                                          if self.S[x]["specimen_type"] in v["specimen_types"]])}
        elif kind == 7:
            closed = [x for x in self.samples("received", "stored", "checked_out")
                      if self.St[self.S[x]["study_id"]]["status"] != "open"]
            x = self.pick(closed)
            a = {"sample_id": x, "test_code": self.pick([k for k, v in self.T.items()
                                                          if self.S[x]["specimen_type"] in v["specimen_types"]])}
        elif kind == 8:
            a["priority"] = "STAT"
        else:
            a["test_code"] = t.lower()
        return a

    def enter_result(self, ok):
        oid = self.pick(self.orders("ordered", "in_progress"))
        t = self.T[self.O[oid]["test_code"]]
        r = self.rng.random()
        lo, hi = t["ref_low"], t["ref_high"]
        v = (lo + (hi - lo) * self.rng.random() if r < 0.5 else hi * self.rng.uniform(1.01, 3) if r < 0.8
             else lo * self.rng.uniform(0.2, 0.99))
        v = round(v, 2) if self.rng.random() < 0.8 else int(round(v))
        a = {"order_id": oid, "value": v, "entered_by": self.pick(STAFF)}
        if ok:
            return a
        kind = self.rng.randint(0, 4)
        if kind == 0:
            a["order_id"] = self.pick(self.orders("resulted", "signed_off", "cancelled"))
        elif kind == 1:
            a["value"] = -0.5
        elif kind == 2:
            a["value"] = str(v)
        elif kind == 3:
            del a["entered_by"]
        else:
            a["order_id"] = "TO-99999"
        return a

    def sign_off_result(self, ok):
        oid = self.pick(self.orders("resulted"))
        o = self.O[oid]
        a = {"order_id": oid, "signed_by": self.pick([p for p in STAFF if p.lower() != (o["resulted_by"] or "").lower()])}
        if o["result_flag"] == "critical" or self.rng.random() < 0.3:
            a["callback_to"] = self.St[o["study_id"]]["principal_investigator"]
        if ok:
            return a
        kind = self.rng.randint(0, 3)
        if kind == 0:
            a["signed_by"] = self.casey(o["resulted_by"])
        elif kind == 1:
            crit = [k for k in self.orders("resulted") if self.O[k]["result_flag"] == "critical"]
            a = {"order_id": self.pick(crit), "signed_by": "K. Doyle"}
        elif kind == 2:
            a["order_id"] = self.pick(self.orders("ordered", "in_progress", "signed_off", "cancelled"))
        else:
            a["callback_to"] = ""
        return a

    def cancel_test_order(self, ok):
        a = {"order_id": self.pick(self.orders("ordered", "in_progress")),
             "reason": self.pick(["requested_by_sponsor", "sample_unsuitable", "duplicate_request", "lab_error"])}
        if ok:
            return a
        kind = self.rng.randint(0, 2)
        if kind == 0:
            a["order_id"] = self.pick(self.orders("resulted", "signed_off", "cancelled"))
        elif kind == 1:
            a["reason"] = self.pick(["other", "Lab_Error", "patient_request"])
        else:
            del a["reason"]
        return a

    def dispose_sample(self, ok):
        elig = [s for s in self.samples("received", "stored", "depleted", "quarantined") if not self.open_orders(s)]
        s = self.pick(elig)
        a = {"sample_id": s, "method": self.pick(["autoclave", "incineration", "chemical_inactivation",
                                                  "returned_to_sponsor"]),
             "reason": self.rng.choice(self.reasons_ok(s)), "authorised_by": self.pick(STAFF)}
        if ok:
            return a
        kind = self.rng.randint(0, 5)
        if kind == 0:
            a["sample_id"] = self.pick(self.samples("checked_out", "disposed"))
            a["reason"] = "consent_withdrawn"
        elif kind == 1:
            busy = [x for x in self.samples("received", "stored", "depleted", "quarantined") if self.open_orders(x)]
            a["sample_id"] = self.pick(busy)
            a["reason"] = "consent_withdrawn"
        elif kind == 2:
            bad = [(x, r) for x in elig for r in ["retention_expired", "depleted", "quality_failure", "study_closed"]
                   if r not in self.reasons_ok(x)]
            a["sample_id"], a["reason"] = self.rng.choice(sorted(bad))
        elif kind == 3:
            a["method"] = "landfill"
        elif kind == 4:
            del a["authorised_by"]
        else:
            a["reason"] = "expired"
        return a


def probes(db, rng, n):
    g = _G(db, rng)
    out, bag = [], []
    for _ in range(n):
        if not bag:
            bag = list(TOOLS)
            rng.shuffle(bag)
        tool = bag.pop()
        ok = rng.random() < 0.58
        out.append((tool, getattr(g, tool)(ok)))
    return out
