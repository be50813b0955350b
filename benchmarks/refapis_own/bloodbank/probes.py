"""Differential probes for the regional blood service API.

probes(db, rng, n) returns about 57% calls that the rules accept on the start state and about 43% that
they must refuse, spread round-robin over all 14 tools.
"""
import datetime as dt

TOOLS = ["search_donors", "list_appointments", "list_units", "list_requests", "register_donor",
         "book_appointment", "cancel_appointment", "record_donation", "record_test_result", "discard_unit",
         "create_request", "reserve_units", "dispatch_request", "cancel_request"]
GROUPS = ["O-", "O+", "A-", "A+", "B-", "B+", "AB-", "AB+"]
COMPONENTS = ["whole_blood", "plasma", "platelets"]
DAYNAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
FIRST = ["Noor", "Ilse", "Marek", "Talia", "Cormac", "Sunniva", "Anselm", "Leontine", "Haruto", "Wren"]
LAST = ["Achterberg", "Blackwood", "Castellanos", "Dufresne", "Eriksen", "Fairbairn", "Gallagher"]


def _age(b, on):
    return on.year - b.year - ((on.month, on.day) < (b.month, b.day))


class Probe:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = dt.date.fromisoformat(db["meta"]["today"])
        self.C, self.D, self.A = db["centres"], db["donors"], db["appointments"]
        self.U, self.H, self.Q = db["units"], db["hospitals"], db["requests"]
        self.n_reg = 0

    # ---------------------------------------------------------------- helpers
    def one(self, seq):
        seq = seq if isinstance(seq, list) else sorted(seq)
        return self.rng.choice(seq) if seq else None

    def day(self, k):
        return (self.today + dt.timedelta(days=k)).isoformat()

    def appts(self, *statuses, today=None):
        return [k for k, a in self.A.items() if a["status"] in statuses
                and (today is None or (a["date"] == self.today.isoformat()) == today)]

    def units(self, *statuses):
        return [k for k, u in self.U.items() if u["status"] in statuses]

    def reqs(self, *statuses):
        return [k for k, r in self.Q.items() if r["status"] in statuses]

    def fit(self, did, cid, day, dtype):
        """True when book_appointment would accept the booking on the start state."""
        d, c = self.D[did], self.C[cid]
        iso = day.isoformat()
        if not 1 <= (day - self.today).days <= 42 or c["status"] != "open":
            return False
        if DAYNAMES[day.weekday()] in c["closed_weekdays"] or (dtype != "whole_blood" and not c["apheresis"]):
            return False
        if d["status"] != "active" or d["late_cancellations"] >= 3:
            return False
        if any(a["donor_id"] == did and a["status"] == "booked" for a in self.A.values()):
            return False
        if d["deferred_until"] and iso <= d["deferred_until"]:
            return False
        age = _age(dt.date.fromisoformat(d["birth_date"]), day)
        if age < 18 or age > (65 if d["total_donations"] == 0 else 70):
            return False
        if d["weight_kg"] < (60 if dtype == "platelets" else 50):
            return False
        if d["last_donation_date"]:
            lt = d["last_donation_type"]
            gap = 14 if lt == "plasma" else 7 if lt == "platelets" else (84 if d["sex"] == "F" else 56)
            if (day - dt.date.fromisoformat(d["last_donation_date"])).days < gap:
                return False
        used = sum(1 for a in self.A.values() if a["centre_id"] == cid and a["date"] == iso
                   and a["status"] != "cancelled")
        return used < c["daily_capacity"]

    def candidates(self, rid):
        r = self.Q[rid]
        groups = [r["blood_group"]]
        if r["priority"] == "emergency" and r["component"] == "whole_blood":
            groups.append("O-")
        return [u for u in self.U.values() if u["status"] == "available" and u["component"] == r["component"]
                and u["blood_group"] in groups and u["expires_on"] >= r["needed_by"]]

    def active_pairs(self):
        return {(r["hospital_id"], r["component"], r["blood_group"]) for r in self.Q.values()
                if r["status"] in ("open", "partially_reserved", "reserved")}

    # ---------------------------------------------------------------- reads
    def search_donors(self, ok):
        if not ok:
            return self.one([{"q": ""}, {"blood_group": "AB"}, {"status": "deferred"},
                             {"home_centre_id": "CTR-09"}, {"home_centre_id": "ctr-01"}, {"name": "Lena"}])
        a = {}
        r = self.rng.random()
        d = self.D[self.one(self.D)]
        if r < 0.35:
            s = self.rng.choice([d["first_name"], d["last_name"], d["email"].split("@")[0]])
            i = self.rng.randint(0, max(0, len(s) - 3))
            frag = s[i:i + self.rng.randint(3, 6)]
            a["q"] = self.rng.choice([frag.upper(), frag.lower(), frag.title()])
        elif r < 0.45:
            a["q"] = f"{d['first_name']} {d['last_name']}".lower()
        if self.rng.random() < 0.4:
            a["blood_group"] = self.rng.choice(GROUPS)
        if self.rng.random() < 0.25:
            a["status"] = self.rng.choice(["active", "permanently_deferred"])
        if self.rng.random() < 0.25:
            a["home_centre_id"] = self.one(self.C)
        return a

    def list_appointments(self, ok):
        if not ok:
            return self.one([{"donor_id": "DNR-9999"}, {"date": "2025-02-30"}, {"status": "done"},
                             {"centre_id": "CTR-77"}, {"date": "12/03/2025"}])
        a = {}
        r = self.rng.random()
        if r < 0.3:
            a["donor_id"] = self.A[self.one(self.A)]["donor_id"]
        elif r < 0.6:
            a["centre_id"] = self.one(self.C)
        if self.rng.random() < 0.45:
            a["date"] = self.A[self.one(self.A)]["date"]
        if self.rng.random() < 0.35:
            a["status"] = self.rng.choice(["booked", "attended", "deferred", "cancelled", "no_show"])
        return a

    def list_units(self, ok):
        if not ok:
            return self.one([{"status": "expired"}, {"component": "red_cells"}, {"expiring_by": "soon"},
                             {"centre_id": "CTR-00"}, {"blood_group": "0+"}])
        a = {}
        for key, vals, p in [("status", ["quarantined", "available", "reserved", "dispatched", "discarded"], 0.5),
                             ("component", COMPONENTS, 0.35), ("blood_group", GROUPS, 0.3),
                             ("centre_id", sorted(self.C), 0.2)]:
            if self.rng.random() < p:
                a[key] = self.rng.choice(vals)
        if self.rng.random() < 0.3:
            a["expiring_by"] = self.day(self.rng.randint(-10, 30))
        return a

    def list_requests(self, ok):
        if not ok:
            return self.one([{"hospital_id": "HSP-99"}, {"status": "pending"}, {"priority": "high"},
                             {"hospital_id": "hsp-01"}])
        a = {}
        if self.rng.random() < 0.5:
            a["hospital_id"] = self.one(self.H)
        if self.rng.random() < 0.4:
            a["status"] = self.rng.choice(["open", "partially_reserved", "reserved", "dispatched", "cancelled"])
        if self.rng.random() < 0.3:
            a["priority"] = self.rng.choice(["routine", "urgent", "emergency"])
        return a

    # ---------------------------------------------------------------- donors and appointments
    def register_donor(self, ok):
        self.n_reg += 1
        first, last = self.rng.choice(FIRST), self.rng.choice(LAST)
        age_days = self.rng.randint(18 * 366, 64 * 365)
        birth = (self.today - dt.timedelta(days=age_days)).isoformat()
        a = {"first_name": first, "last_name": last,
             "email": f"{first}.{last}.{self.n_reg}@newdonor.example".replace(" ", ""),
             "birth_date": birth, "sex": self.rng.choice("FM"), "blood_group": self.rng.choice(GROUPS),
             "weight_kg": self.rng.randint(50, 120),
             "home_centre_id": self.one(c for c in self.C if self.C[c]["status"] == "open")}
        if self.rng.random() < 0.5:
            a["phone"] = f"+44 7700 8{self.rng.randint(10000, 99999)}"
        if self.rng.random() < 0.3:
            a["email"] = a["email"].upper()
        if ok:
            return a
        old = self.D[self.one(self.D)]
        t = self.today
        kind = self.rng.randint(0, 10)
        if kind == 0:
            a["birth_date"] = dt.date(t.year - 18, t.month, t.day + 1).isoformat()   # 18 tomorrow
        elif kind == 1:
            a["birth_date"] = dt.date(t.year - 66, t.month, t.day).isoformat()       # 66 today
        elif kind == 2:
            a["weight_kg"] = self.rng.choice([42, 49])
        elif kind == 3:
            a["email"] = old["email"].upper()
        elif kind == 4:
            a.update(first_name=old["first_name"].upper(), last_name=old["last_name"].lower(),
                     birth_date=old["birth_date"])
        elif kind == 5:
            a["home_centre_id"] = "CTR-05"
        elif kind == 6:
            a["email"] = self.rng.choice(["no-at-sign.example.com", "two words@x.org", "name@host"])
        elif kind == 7:
            a["blood_group"] = self.rng.choice(["A", "0-", "ab+"])
        elif kind == 8:
            a["weight_kg"] = str(a["weight_kg"])
        elif kind == 9:
            a.pop(self.rng.choice(["sex", "birth_date", "home_centre_id"]))
        else:
            a["birth_date"] = "1990-02-30"
        return a

    def book_appointment(self, ok):
        for _ in range(300):
            did, cid = self.one(self.D), self.one(self.C)
            dtype = self.rng.choice(COMPONENTS if self.C[cid]["apheresis"] and self.rng.random() < 0.4
                                    else ["whole_blood"])
            day = self.today + dt.timedelta(days=self.rng.randint(1, 42))
            if self.fit(did, cid, day, dtype):
                break
        base = {"donor_id": did, "centre_id": cid, "date": day.isoformat(), "donation_type": dtype}
        if ok:
            return base
        pick = lambda pred: self.one(k for k, d in self.D.items() if pred(d))
        kind = self.rng.randint(0, 13)
        if kind == 0:
            return {**base, "date": self.day(self.rng.choice([0, -3, 43, 60]))}
        if kind == 1:
            c = self.C[cid]
            d = day
            while DAYNAMES[d.weekday()] not in c["closed_weekdays"]:
                d += dt.timedelta(days=1)
            return {**base, "date": d.isoformat()} if 1 <= (d - self.today).days <= 42 else \
                {**base, "centre_id": "CTR-05"}
        if kind == 2:
            return {**base, "centre_id": "CTR-05"}
        if kind == 3:
            return {**base, "centre_id": self.one(k for k, c in self.C.items() if not c["apheresis"]),
                    "donation_type": self.rng.choice(["plasma", "platelets"])}
        if kind == 4:
            return {**base, "donor_id": pick(lambda d: d["status"] == "permanently_deferred")}
        if kind == 5:
            return {**base, "donor_id": self.A[self.one(self.appts("booked"))]["donor_id"]}
        if kind == 6:
            return {**base, "donor_id": pick(lambda d: d["late_cancellations"] >= 3)}
        if kind == 7:
            d = self.D[pick(lambda d: (d["deferred_until"] or "") > self.day(1))]
            return {**base, "donor_id": d["donor_id"], "date": d["deferred_until"]}
        if kind == 8:
            return {**base, "donor_id": pick(lambda d: d["weight_kg"] < 50)}
        if kind == 9:
            return {**base, "donor_id": pick(lambda d: 50 <= d["weight_kg"] < 60),
                    "centre_id": self.one(k for k, c in self.C.items() if c["apheresis"] and c["status"] == "open"),
                    "donation_type": "platelets"}
        if kind == 10:
            return self.one([{**base, "donor_id": "DNR-0003", "date": "2025-03-19"},
                             {**base, "donor_id": "DNR-0008", "date": "2025-04-07"},
                             {**base, "donor_id": "DNR-0017", "date": "2025-04-01"}])
        if kind == 11:
            return self.one([{**base, "centre_id": "CTR-02", "date": self.day(1), "donation_type": "whole_blood"},
                             {**base, "centre_id": "CTR-04", "date": self.day(2), "donation_type": "whole_blood"},
                             {**base, "centre_id": "CTR-03", "date": self.day(6), "donation_type": "whole_blood"}])
        if kind == 12:
            recent = pick(lambda d: d["last_donation_date"] and d["last_donation_date"] >= self.day(-20)
                          and d["last_donation_type"] == "whole_blood" and d["status"] == "active")
            return {**base, "donor_id": recent, "date": self.day(self.rng.randint(1, 20))}
        return self.one([{**base, "donor_id": "DNR-4040"}, {**base, "date": "2025-3-20"},
                         {**base, "donation_type": "red_cells"}])

    def cancel_appointment(self, ok):
        reason = self.rng.choice(["donor_request", "illness", "travel", "centre_request"])
        if ok:
            return {"appointment_id": self.one(self.appts("booked")), "reason": reason}
        kind = self.rng.randint(0, 3)
        if kind == 0:
            return {"appointment_id": self.one(self.appts("booked")), "reason": "donor_deferred"}
        if kind == 1:
            return {"appointment_id": self.one(self.appts("booked")), "reason": "changed_mind"}
        if kind == 2:
            return {"appointment_id": "APT-9999", "reason": reason}
        return {"appointment_id": self.one(self.appts("attended", "cancelled", "no_show", "deferred")),
                "reason": reason}

    def record_donation(self, ok):
        aid = self.one(self.appts("booked", today=True))
        a, d = self.A[aid], self.D[self.A[aid]["donor_id"]]
        hb_min = 12.5 if d["sex"] == "F" else 13.0
        rng_vol = {"whole_blood": (405, 495), "plasma": (500, 880), "platelets": (180, 400)}[a["donation_type"]]
        good = {"appointment_id": aid, "hemoglobin_g_dl": round(self.rng.uniform(hb_min, 17.0), 1),
                "volume_ml": self.rng.randint(*rng_vol)}
        if ok:
            r = self.rng.random()
            if r < 0.15:
                good["hemoglobin_g_dl"] = hb_min
            elif r < 0.35:
                good.update(hemoglobin_g_dl=round(hb_min - self.rng.choice([0.1, 0.5, 1.2, 2.0]), 1),
                            volume_ml=self.rng.choice([good["volume_ml"], 1]))
            return good
        kind = self.rng.randint(0, 6)
        if kind == 0:
            return {**good, "appointment_id": self.one(self.appts("booked", today=False))}
        if kind == 1:
            return {**good, "appointment_id": self.one(self.appts("attended", "cancelled", "deferred"))}
        if kind == 2:
            return {**good, "volume_ml": self.rng.choice([rng_vol[0] - 5, rng_vol[1] + 10])}
        if kind == 3:
            return {**good, "hemoglobin_g_dl": self.rng.choice([30, 4.9, "13.8", True])}
        if kind == 4:
            return {**good, "volume_ml": self.rng.choice([450.5, 0, 1200])}
        if kind == 5:
            return {"appointment_id": aid, "hemoglobin_g_dl": 14.1}
        return {**good, "appointment_id": "APT-0000"}

    # ---------------------------------------------------------------- units
    def record_test_result(self, ok):
        fresh = [k for k in self.units("quarantined") if self.U[k]["expires_on"] >= self.today.isoformat()]
        if ok:
            return {"unit_id": self.one(fresh), "result": "negative" if self.rng.random() < 0.7 else "reactive"}
        kind = self.rng.randint(0, 3)
        if kind == 0:
            stale = [k for k in self.units("quarantined") if k not in fresh]
            return {"unit_id": self.one(stale or ["UNIT-9999"]), "result": "negative"}
        if kind == 1:
            return {"unit_id": self.one(fresh), "result": self.rng.choice(["positive", "Negative", "clear"])}
        if kind == 2:
            return {"unit_id": self.one(self.units("available", "reserved", "dispatched", "discarded")),
                    "result": self.rng.choice(["negative", "reactive"])}
        return {"unit_id": "UNIT-0000", "result": "negative"}

    def discard_unit(self, ok):
        t = self.today.isoformat()
        live = self.units("quarantined", "available", "reserved")
        expired = [k for k in live if self.U[k]["expires_on"] < t]
        if ok:
            if expired and self.rng.random() < 0.25:
                return {"unit_id": self.one(expired), "reason": "expired"}
            return {"unit_id": self.one(live), "reason": self.rng.choice(["damaged", "temperature_breach"])}
        kind = self.rng.randint(0, 3)
        if kind == 0:
            return {"unit_id": self.one(k for k in live if k not in expired), "reason": "expired"}
        if kind == 1:
            return {"unit_id": self.one(self.units("dispatched", "discarded")), "reason": "damaged"}
        if kind == 2:
            return {"unit_id": self.one(live), "reason": self.rng.choice(["reactive_test", "donor_lookback", "lost"])}
        return {"unit_id": "UNIT-7777", "reason": "damaged"}

    # ---------------------------------------------------------------- requests
    def create_request(self, ok):
        busy = self.active_pairs()
        good_h = sorted(h for h, x in self.H.items() if x["status"] == "active")
        for _ in range(100):
            hid, comp, grp = self.rng.choice(good_h), self.rng.choice(COMPONENTS), self.rng.choice(GROUPS)
            if (hid, comp, grp) not in busy:
                break
        over = self.H[hid]["balance_due"] > self.H[hid]["credit_limit"]
        prio = self.rng.choice(["urgent", "emergency"] if over else ["routine", "routine", "urgent", "emergency"])
        off = {"routine": self.rng.randint(1, 14), "urgent": self.rng.randint(0, 3), "emergency": 0}[prio]
        a = {"hospital_id": hid, "component": comp, "blood_group": grp, "units_requested": self.rng.randint(1, 8),
             "priority": prio, "needed_by": self.day(off)}
        if ok:
            return a
        kind = self.rng.randint(0, 8)
        if kind == 0:
            return {**a, "hospital_id": "HSP-06"}
        if kind == 1:
            h = self.one(h for h, x in self.H.items() if x["balance_due"] > x["credit_limit"] and x["status"] == "active")
            return {**a, "hospital_id": h, "priority": "routine", "needed_by": self.day(5)}
        if kind == 2:
            return {**a, "priority": "emergency", "needed_by": self.day(1)}
        if kind == 3:
            return {**a, "priority": "routine", "needed_by": self.day(self.rng.choice([0, 15, -1]))}
        if kind == 4:
            return {**a, "priority": "urgent", "needed_by": self.day(self.rng.choice([4, -1]))}
        if kind == 5:
            h, c, g = self.one(busy)
            return {**a, "hospital_id": h, "component": c, "blood_group": g, "priority": "urgent",
                    "needed_by": self.day(1)}
        if kind == 6:
            return {**a, "units_requested": self.rng.choice([0, 9, "2"])}
        if kind == 7:
            return {**a, "component": "red_cells"}
        return {**a, "hospital_id": "HSP-404"}

    def reserve_units(self, ok):
        t = self.today.isoformat()
        live = [k for k in self.reqs("open", "partially_reserved") if self.Q[k]["needed_by"] >= t]
        good = [k for k in live if self.candidates(k)]
        if ok:
            return {"request_id": self.one(good)}
        kind = self.rng.randint(0, 3)
        if kind == 0:
            return {"request_id": self.one([k for k in live if k not in good] or ["REQ-9999"])}
        if kind == 1:
            lapsed = [k for k in self.reqs("open", "partially_reserved") if self.Q[k]["needed_by"] < t]
            return {"request_id": self.one(lapsed or ["REQ-9999"])}
        if kind == 2:
            return {"request_id": self.one(self.reqs("reserved", "dispatched", "cancelled"))}
        return {"request_id": "req-0001"}

    def dispatch_request(self, ok):
        ready = [k for k, r in self.Q.items() if r["status"] == "reserved" or
                 (r["status"] == "partially_reserved" and r["priority"] == "emergency")]
        if ok:
            return {"request_id": self.one(ready)}
        kind = self.rng.randint(0, 2)
        if kind == 0:
            return {"request_id": self.one(k for k in self.reqs("partially_reserved", "open") if k not in ready)}
        if kind == 1:
            return {"request_id": self.one(self.reqs("dispatched", "cancelled"))}
        return {"request_id": "REQ-0999"}

    def cancel_request(self, ok):
        reason = self.rng.choice(["no_longer_needed", "duplicate", "patient_transferred"])
        live = self.reqs("open", "partially_reserved", "reserved")
        if ok:
            return {"request_id": self.one(live), "reason": reason}
        kind = self.rng.randint(0, 2)
        if kind == 0:
            return {"request_id": self.one(self.reqs("dispatched", "cancelled")), "reason": reason}
        if kind == 1:
            return {"request_id": self.one(live), "reason": self.rng.choice(["expired", "other", ""])}
        return {"request_id": self.one(live)}


def probes(db, rng, n):
    p = Probe(db, rng)
    out, bag = [], []
    for _ in range(n):
        if not bag:
            bag = list(TOOLS)
            rng.shuffle(bag)
        tool = bag.pop()
        out.append((tool, getattr(p, tool)(rng.random() < 0.57)))
    return out
