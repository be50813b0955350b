"""Differential probes for the Port Calder bulky-item collection API.

About 57% of the calls are valid against the start state; the rest break a rule that openapi.yaml
or policy.md states (unknown ids, wrong status, date windows, capacity, limits, bad formats).
"""
import datetime as dt

TOOLS = ["search_households", "get_household", "list_collection_days", "list_requests", "list_complaints",
         "create_pickup_request", "schedule_request", "complete_pickup", "report_missed_pickup",
         "cancel_request", "reschedule_request", "file_complaint", "resolve_complaint", "record_payment"]
OPEN = ("requested", "scheduled", "rescheduled")
RESIDENT_FAULT = ("not_set_out", "access_blocked")
MISS_REASONS = ["not_set_out", "access_blocked", "truck_full", "vehicle_breakdown", "crew_error",
                "severe_weather"]
CANCEL_REASONS = ["resident_request", "items_gone", "duplicate", "moved_out", "other"]


class _G:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = dt.date.fromisoformat(db["meta"]["today"])
        self.H, self.R, self.D = db["households"], db["pickup_requests"], db["collection_days"]
        self.C, self.Z, self.K = db["complaints"], db["zones"], db["crews"]
        self.cats = db["item_categories"]
        self.open_hh = {r["household_id"] for r in self.R.values() if r["status"] in OPEN}

    # ---------------------------------------------------------------- helpers
    def pick(self, seq, fallback=None):
        seq = sorted(seq)
        return self.rng.choice(seq) if seq else fallback

    def iso(self, n):
        return (self.today + dt.timedelta(days=n)).isoformat()

    def days_to(self, date):
        return (dt.date.fromisoformat(date) - self.today).days

    def reqs(self, cond):
        return sorted(k for k, r in self.R.items() if cond(r))

    def bookable(self, zone, slots, exclude=None):
        return sorted(d["date"] for d in self.D.values()
                      if d["zone_id"] == zone and d["status"] == "open" and 2 <= self.days_to(d["date"]) <= 42
                      and d["capacity"] - d["booked"] >= slots and d["date"] != exclude
                      and self.Z[zone]["status"] == "active")

    def items(self, max_total=4):
        active = sorted(c for c, x in self.cats.items() if x["active"])
        out, total = [], 0
        for c in self.rng.sample(active, self.rng.randint(1, 3)):
            n = self.rng.randint(1, min(self.cats[c]["max_per_request"], 3))
            if total + n > max_total:
                break
            out.append({"category": c, "count": n})
            total += n
        return out or [{"category": "furniture", "count": 1}]

    def eligible_households(self):
        return sorted(h for h, x in self.H.items() if x["status"] == "active" and h not in self.open_hh
                      and x["balance"] <= self.db["meta"]["max_outstanding_balance"]
                      and self.Z[x["zone_id"]]["status"] == "active" and self.bookable(x["zone_id"], 2))

    def crew_stops(self, crew, date):
        return sum(1 for r in self.R.values() if r["crew_id"] == crew and r["collection_date"] == date
                   and r["status"] in ("scheduled", "collected", "missed"))

    def free_crews(self, r):
        return sorted(c for c, k in self.K.items() if k["status"] == "active" and r["zone_id"] in k["zone_ids"]
                      and self.crew_stops(c, r["collection_date"]) < k["max_stops_per_day"])

    def case(self, s):
        return "".join(ch.upper() if self.rng.random() < 0.5 else ch.lower() for ch in s)

    # ---------------------------------------------------------------- reads
    def search_households(self, ok):
        if ok:
            a = {}
            k = self.rng.randint(0, 3)
            if k == 0:
                h = self.H[self.pick(self.H)]
                src = self.rng.choice([h["account_holder"].split()[1], h["street_address"].split()[1]])
                a["q"] = self.case(src[: self.rng.randint(3, len(src))])
            elif k == 1:
                a["zone_id"] = self.pick(self.Z)
                a["has_balance"] = self.rng.choice([True, False])
            elif k == 2:
                a["status"] = self.rng.choice(["active", "closed"])
            else:
                a["q"] = self.rng.choice(["road", "LANE", " Street ", "ter"])
                a["zone_id"] = self.pick(self.Z)
            return a
        return self.rng.choice([{"q": "a"}, {"zone_id": "Z9"}, {"status": "Active"}, {"has_balance": "yes"},
                                {"zone_id": "z1"}, {"q": "  "}, {"name": "Hollis"}])

    def get_household(self, ok):
        if ok:
            return {"household_id": self.pick(self.H)}
        return self.rng.choice([{"household_id": "HH-9999"}, {"household_id": self.pick(self.H).lower()},
                                {}, {"household_id": 2001}])

    def list_collection_days(self, ok):
        if ok:
            a = {"zone_id": self.pick(self.Z)}
            lo = self.rng.randint(-10, 20)
            a["date_from"], a["date_to"] = self.iso(lo), self.iso(lo + self.rng.randint(0, 21))
            if self.rng.random() < 0.5:
                a["available_only"] = self.rng.choice([True, False])
            if self.rng.random() < 0.2:
                a.pop("zone_id")
            return a
        return self.rng.choice([{"zone_id": "Z7"}, {"date_from": self.iso(10), "date_to": self.iso(3)},
                                {"date_from": "2025/10/01"}, {"date_to": "2025-09-31"},
                                {"available_only": "true"}, {"zone": "Z1"}])

    def list_requests(self, ok):
        if ok:
            k = self.rng.randint(0, 4)
            if k == 0:
                return {"household_id": self.pick(self.H)}
            if k == 1:
                return {"status": self.rng.choice(["requested", "scheduled", "rescheduled", "collected",
                                                   "missed", "cancelled"]), "zone_id": self.pick(self.Z)}
            if k == 2:
                return {"crew_id": self.pick(self.K), "date_from": self.iso(-7), "date_to": self.iso(7)}
            if k == 3:
                return {"date_from": self.iso(self.rng.randint(-5, 10))}
            return {}
        return self.rng.choice([{"household_id": "HH-0001"}, {"status": "open"}, {"crew_id": "CREW-9"},
                                {"date_from": self.iso(5), "date_to": self.iso(-5)}, {"zone_id": "Harbourside"},
                                {"date_to": "17-09-2025"}])

    def list_complaints(self, ok):
        if ok:
            c = self.C[self.pick(self.C)]
            return self.rng.choice([{"household_id": c["household_id"]}, {"status": "open"},
                                    {"request_id": c["request_id"]}, {"category": c["category"], "status": c["status"]},
                                    {}])
        return self.rng.choice([{"status": "closed"}, {"request_id": "PR-9999"}, {"category": "damage"},
                                {"household_id": "HH-0000"}])

    # ---------------------------------------------------------------- writes
    def create_pickup_request(self, ok):
        elig = self.eligible_households()
        hid = self.pick(elig)
        h = self.H[hid]
        its = self.items(self.rng.choice([4, 4, 8]))
        slots = 1 if sum(i["count"] for i in its) <= 4 else 2
        dates = self.bookable(h["zone_id"], slots)
        if ok:
            a = {"household_id": hid, "collection_date": self.pick(dates), "items": its}
            if self.rng.random() < 0.3:
                a["notes"] = self.rng.choice(["Leave the gate open", "Heavy item, two people needed"])
            return a
        base = {"household_id": hid, "collection_date": self.pick(dates), "items": its}
        k = self.rng.randint(0, 15)
        wrong_wd = [self.iso(n) for n in range(2, 40)
                    if not any(d["zone_id"] == h["zone_id"] and d["date"] == self.iso(n) for d in self.D.values())]
        if k == 0:
            return {**base, "household_id": self.pick(self.open_hh)}
        if k == 1:
            return {**base, "household_id": self.pick(h2 for h2, x in self.H.items() if x["status"] == "closed")}
        if k == 2:
            z6 = [h2 for h2, x in self.H.items() if self.Z[x["zone_id"]]["status"] != "active"
                  and x["status"] == "active"]
            hh = self.pick(z6)
            return {**base, "household_id": hh, "collection_date": self.pick(
                d["date"] for d in self.D.values() if d["zone_id"] == self.H[hh]["zone_id"] and d["date"] > self.iso(2))}
        if k == 3:
            rich = [h2 for h2, x in self.H.items() if x["balance"] > 150 and x["status"] == "active"]
            return {**base, "household_id": self.pick(rich, hid)} if rich else {**base, "household_id": "HH-0042"}
        if k == 4:
            return {**base, "collection_date": self.iso(self.rng.choice([-3, 0, 1]))}
        if k == 5:
            return {**base, "collection_date": self.iso(self.rng.choice([43, 49, 60]))}
        if k == 6:
            return {**base, "collection_date": self.pick(wrong_wd)}
        if k == 7:
            full = [d for d in self.D.values() if d["status"] == "open" and 2 <= self.days_to(d["date"]) <= 42
                    and d["booked"] >= d["capacity"]]
            d = self.D[self.pick(x["day_id"] for x in full)]
            hh = self.pick(x for x in elig if self.H[x]["zone_id"] == d["zone_id"]) or hid
            return {**base, "household_id": hh, "collection_date": d["date"]}
        if k == 8:
            closed = [d for d in self.D.values() if d["status"] == "closed" and self.days_to(d["date"]) >= 2
                      and self.Z[d["zone_id"]]["status"] == "active"]
            d = self.D[self.pick(x["day_id"] for x in closed)]
            hh = self.pick(x for x in elig if self.H[x]["zone_id"] == d["zone_id"]) or hid
            return {**base, "household_id": hh, "collection_date": d["date"]}
        if k == 9:
            return {**base, "items": [{"category": "renovation_debris", "count": 1}]}
        if k == 10:
            return {**base, "items": [{"category": "sofa", "count": 1}]}
        if k == 11:
            return {**base, "items": [{"category": "fridge_freezer", "count": 3}]}
        if k == 12:
            return {**base, "items": [{"category": "carpet", "count": 1}, {"category": "carpet", "count": 2}]}
        if k == 13:
            return {**base, "items": [{"category": "furniture", "count": 6}, {"category": "yard_bundle", "count": 5}]}
        if k == 14:
            return {**base, "items": self.rng.choice([[], [{"category": "tires", "count": 0}],
                                                     [{"category": "tires"}], "furniture"])}
        return {**base, "collection_date": self.rng.choice(["2025-10-32", "next monday", "20251020"])}

    def schedule_request(self, ok):
        waiting = self.reqs(lambda r: r["status"] in ("requested", "rescheduled") and self.days_to(r["collection_date"]) >= 0)
        if ok:
            good = [x for x in waiting if self.free_crews(self.R[x])]
            rid = self.pick(good)
            return {"request_id": rid, "crew_id": self.pick(self.free_crews(self.R[rid]))}
        rid = self.pick(waiting)
        r = self.R[rid]
        k = self.rng.randint(0, 5)
        if k == 0:
            other = self.pick(self.reqs(lambda x: x["status"] in ("scheduled", "collected", "cancelled", "missed")))
            return {"request_id": other, "crew_id": self.pick(c for c, x in self.K.items() if x["status"] == "active")}
        if k == 1:
            return {"request_id": rid, "crew_id": self.pick(c for c, x in self.K.items() if r["zone_id"] not in x["zone_ids"])}
        if k == 2:
            return {"request_id": rid, "crew_id": self.pick(c for c, x in self.K.items() if x["status"] != "active")}
        if k == 3:
            full = [(x, c) for x in waiting for c, k2 in self.K.items() if k2["status"] == "active"
                    and self.R[x]["zone_id"] in k2["zone_ids"]
                    and self.crew_stops(c, self.R[x]["collection_date"]) >= k2["max_stops_per_day"]]
            if full:
                x, c = self.rng.choice(sorted(full))
                return {"request_id": x, "crew_id": c}
            return {"request_id": rid, "crew_id": "crew-1"}
        if k == 4:
            return {"request_id": "PR-0001", "crew_id": "CREW-1"}
        return {"request_id": rid}

    def _due(self):
        return self.reqs(lambda r: r["status"] == "scheduled" and self.days_to(r["collection_date"]) <= 0)

    def _bad_due(self, k):
        if k == 0:
            return self.pick(self.reqs(lambda r: r["status"] == "scheduled" and self.days_to(r["collection_date"]) > 0))
        if k == 1:
            return self.pick(self.reqs(lambda r: r["status"] in ("requested", "collected", "missed", "cancelled",
                                                                  "rescheduled")))
        return "PR-9000"

    def complete_pickup(self, ok):
        if ok:
            rid = self.pick(self._due())
            n = self.R[rid]["item_count"]
            w = round(self.rng.uniform(5, 55) * n, self.rng.choice([0, 1]))
            return {"request_id": rid, "weight_kg": w}
        k = self.rng.randint(0, 5)
        if k < 3:
            return {"request_id": self._bad_due(k), "weight_kg": 42.5}
        rid = self.pick(self._due())
        return {"request_id": rid, "weight_kg": [0, -12.0, 38.25, 1600, "40"][self.rng.randint(0, 4)]}

    def report_missed_pickup(self, ok):
        if ok:
            return {"request_id": self.pick(self._due()), "reason": self.rng.choice(MISS_REASONS)}
        k = self.rng.randint(0, 4)
        if k < 3:
            return {"request_id": self._bad_due(k), "reason": "truck_full"}
        return {"request_id": self.pick(self._due()), "reason": self.rng.choice(["rain", "Truck_full", ""])}

    def cancel_request(self, ok):
        live = self.reqs(lambda r: r["status"] in OPEN and self.days_to(r["collection_date"]) >= 0)
        if ok:
            return {"request_id": self.pick(live), "reason": self.rng.choice(CANCEL_REASONS)}
        k = self.rng.randint(0, 3)
        if k == 0:
            return {"request_id": self.pick(self.reqs(lambda r: r["status"] in ("collected", "missed", "cancelled"))),
                    "reason": "resident_request"}
        if k == 1:
            past = self.reqs(lambda r: r["status"] in OPEN and self.days_to(r["collection_date"]) < 0)
            return {"request_id": self.pick(past, "PR-0000"), "reason": "other"}
        if k == 2:
            return {"request_id": self.pick(live), "reason": self.rng.choice(["changed_mind", "OTHER"])}
        return {"request_id": self.pick(live)}

    def reschedule_request(self, ok):
        def movable(r):
            if r["reschedule_count"] >= 2:
                return False
            if r["status"] in OPEN:
                return self.days_to(r["collection_date"]) >= 0
            return r["status"] == "missed" and r["household_id"] not in self.open_hh \
                and self.Z[r["zone_id"]]["status"] == "active"
        cand = [x for x in self.reqs(movable) if self.bookable(self.R[x]["zone_id"], self.R[x]["slots"],
                                                                self.R[x]["collection_date"])]
        reason = self.rng.choice(["Resident travelling", "Missed, please rebook", "Need another week"])
        if ok:
            rid = self.pick(cand)
            r = self.R[rid]
            return {"request_id": rid, "new_date": self.pick(self.bookable(r["zone_id"], r["slots"],
                                                                          r["collection_date"])), "reason": reason}
        rid = self.pick(cand)
        r = self.R[rid]
        good = self.pick(self.bookable(r["zone_id"], r["slots"], r["collection_date"]))
        k = self.rng.randint(0, 7)
        if k == 0:
            x = self.pick(self.reqs(lambda q: q["reschedule_count"] >= 2 and q["status"] in OPEN), "PR-0000")
            return {"request_id": x, "new_date": self.pick(self.bookable(self.R[x]["zone_id"], 2), good) if x in self.R else good,
                    "reason": reason}
        if k == 1:
            x = self.pick(self.reqs(lambda q: q["status"] in ("collected", "cancelled")))
            return {"request_id": x, "new_date": self.pick(self.bookable(self.R[x]["zone_id"], 2), good),
                    "reason": reason}
        if k == 2:
            x = self.pick(self.reqs(lambda q: q["status"] == "missed" and q["household_id"] in self.open_hh), rid)
            return {"request_id": x, "new_date": self.pick(self.bookable(self.R[x]["zone_id"], 2), good),
                    "reason": reason}
        if k == 3:
            x = self.pick(self.reqs(lambda q: q["status"] in OPEN and self.days_to(q["collection_date"]) >= 2
                                    and q["reschedule_count"] < 2))
            return {"request_id": x, "new_date": self.R[x]["collection_date"], "reason": reason}
        if k == 4:
            return {"request_id": rid, "new_date": self.iso(self.rng.choice([0, 1, 45])), "reason": reason}
        if k == 5:
            full = sorted(d["date"] for d in self.D.values() if d["zone_id"] == r["zone_id"]
                          and d["status"] == "open" and d["booked"] + r["slots"] > d["capacity"]
                          and self.days_to(d["date"]) >= 2)
            return {"request_id": rid, "new_date": self.pick(full, self.iso(50)), "reason": reason}
        if k == 6:
            return {"request_id": rid, "new_date": good, "reason": "   "}
        return {"request_id": rid, "new_date": "2025-13-01", "reason": reason}

    def file_complaint(self, ok):
        has_open = {c["request_id"] for c in self.C.values() if c["status"] == "open"}

        def recent(r):
            since = r["missed_on"] if r["status"] == "missed" else r["collected_on"]
            return since is not None and -self.days_to(since) <= 14
        fresh = self.reqs(lambda r: r["status"] in ("missed", "collected") and recent(r)
                          and r["request_id"] not in has_open)
        text = self.rng.choice(["Nobody came although everything was out on time.",
                                "The crew left two chairs behind.", "Our fence was damaged by the truck."])
        if ok:
            rid = self.pick(fresh)
            cats = ["missed_pickup", "crew_conduct"] if self.R[rid]["status"] == "missed" else \
                ["items_left_behind", "property_damage", "crew_conduct"]
            return {"request_id": rid, "category": self.rng.choice(cats), "description": text}
        k = self.rng.randint(0, 5)
        if k == 0:
            old = self.reqs(lambda r: r["status"] in ("collected", "missed") and not recent(r))
            return {"request_id": self.pick(old), "category": "crew_conduct", "description": text}
        if k == 1:
            return {"request_id": self.pick(has_open), "category": "crew_conduct", "description": text}
        if k == 2:
            rid = self.pick(fresh)
            cat = "items_left_behind" if self.R[rid]["status"] == "missed" else "missed_pickup"
            return {"request_id": rid, "category": cat, "description": text}
        if k == 3:
            return {"request_id": self.pick(self.reqs(lambda r: r["status"] in OPEN)), "category": "crew_conduct",
                    "description": text}
        if k == 4:
            return {"request_id": self.pick(fresh), "category": "rudeness", "description": text}
        return {"request_id": self.pick(fresh), "category": "crew_conduct", "description": ""}

    def resolve_complaint(self, ok):
        opn = sorted(c for c, x in self.C.items() if x["status"] == "open")

        def blocked(cid):
            c = self.C[cid]
            return c["category"] == "missed_pickup" and self.R[c["request_id"]]["miss_reason"] in RESIDENT_FAULT
        if ok:
            cid = self.pick(opn)
            outs = ["no_credit", "rejected"] + ([] if blocked(cid) else ["credit", "credit"])
            out = self.rng.choice(outs)
            a = {"complaint_id": cid, "outcome": out}
            if out == "rejected" or self.rng.random() < 0.5:
                a["note"] = "Reviewed with the crew supervisor."
            return a
        k = self.rng.randint(0, 4)
        if k == 0:
            return {"complaint_id": self.pick(c for c, x in self.C.items() if x["status"] == "resolved"),
                    "outcome": "no_credit"}
        if k == 1:
            return {"complaint_id": self.pick(opn), "outcome": "rejected"}
        if k == 2:
            b = [c for c in opn if blocked(c)]
            return {"complaint_id": self.pick(b, "CMP-0001"), "outcome": "credit"}
        if k == 3:
            return {"complaint_id": self.pick(opn), "outcome": "refund"}
        return {"complaint_id": "CMP-0999", "outcome": "no_credit"}

    def record_payment(self, ok):
        owing = sorted(h for h, x in self.H.items() if x["balance"] > 0)
        hid = self.pick(owing)
        bal = self.H[hid]["balance"]
        if ok:
            amt = bal if self.rng.random() < 0.4 else round(self.rng.uniform(0.01, bal), 2)
            return {"household_id": hid, "amount": max(amt, 0.01)}
        k = self.rng.randint(0, 5)
        if k == 0:
            return {"household_id": hid, "amount": round(bal + self.rng.choice([0.01, 5, 100]), 2)}
        if k == 1:
            zero = [h for h, x in self.H.items() if x["balance"] <= 0]
            return {"household_id": self.pick(zero), "amount": 5.0}
        if k == 2:
            return {"household_id": hid, "amount": self.rng.choice([0, -10.0])}
        if k == 3:
            return {"household_id": hid, "amount": 1.005}
        if k == 4:
            return {"household_id": hid, "amount": "10.00"}
        return {"household_id": "HH-404", "amount": 10.0}


def probes(db, rng, n):
    g = _G(db, rng)
    out, bag = [], []
    for _ in range(n):
        if not bag:
            bag = list(TOOLS)
            rng.shuffle(bag)
        tool = bag.pop()
        out.append((tool, getattr(g, tool)(rng.random() < 0.57)))
    return out
