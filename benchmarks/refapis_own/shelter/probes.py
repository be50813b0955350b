"""Differential probes for the shelter adoption desk API.

Each valid probe is chosen so that it is accepted both when the probes run in order on one copy of
the start state and when each runs alone on the start state; each invalid probe is refused in both.
"""
import copy
import datetime as dt

OPEN = ("submitted", "screening", "home_check", "approved")
VISIT_REASONS = ["adopter request", "vet needs the room", "family emergency", "rescheduling to a weekend"]
HOLD_REASONS = ["sutures check", "limping on left foreleg", "ear infection", "post-dental recovery"]
CLOSE_REASONS = ["references did not check out", "adopter found another pet", "moving away",
                 "landlord declined", "not a fit for the household"]


def _next_id(coll, prefix):
    nums = [int(k[len(prefix):]) for k in coll if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return f"{prefix}{max(nums, default=0) + 1:04d}"


class _Gen:
    def __init__(self, db, rng):
        self.s0 = copy.deepcopy(db)  # start state (each probe run alone)
        self.s = copy.deepcopy(db)   # state after the earlier probes (probes run in order)
        self.rng = rng
        self.today = dt.date.fromisoformat(db["meta"]["today"])
        self.t = self.today.isoformat()
        self.hits = []  # whether each emitted probe was drawn as a valid call

    # -------------------------------------------------------------- helpers
    def pick(self, items):
        items = sorted(items) if isinstance(items, set) else list(items)
        return self.rng.choice(items) if items else None

    def both(self, fn):
        """Keys that fn reports for the start state and for the current state alike."""
        return set(fn(self.s0)) & set(fn(self.s))

    def day(self, offset):
        return (self.today + dt.timedelta(days=offset)).isoformat()

    def ok(self, args):
        self.valid_hit = True
        return args

    def mangle(self, text):
        return "".join(c.upper() if self.rng.random() < 0.5 else c.lower() for c in text)

    @staticmethod
    def eligible(p, a):
        if a["species"] == "dog" and p["housing"] == "rent" and not p["landlord_approved"]:
            return False
        return not (p["has_children"] and not a["good_with_kids"])

    @staticmethod
    def open_apps(st, pid):
        return [r for r in st["applications"].values() if r["adopter_id"] == pid and r["status"] in OPEN]

    @staticmethod
    def scheduled(st):
        return [v for v in st["visits"].values() if v["status"] == "scheduled"]

    def cancel_visits(self, key, value):
        for v in self.scheduled(self.s):
            if v[key] == value:
                v["status"] = "cancelled"

    # -------------------------------------------------------------- predicates (per state)
    def animals_in(self, st, statuses):
        return [k for k, a in st["animals"].items() if a["status"] in statuses]

    def clearable(self, st):
        return [k for k, a in st["animals"].items() if a["status"] in ("intake", "medical_hold")
                and (self.today - dt.date.fromisoformat(a["intake_date"])).days >= 5]

    def can_submit(self, st, pid, aid):
        p, a = st["adopters"][pid], st["animals"][aid]
        mine = self.open_apps(st, pid)
        return (not p["do_not_adopt"] and a["status"] in ("available", "medical_hold") and len(mine) < 2
                and all(r["animal_id"] != aid for r in mine) and self.eligible(p, a))

    def advance_target(self, st, r):
        p = st["adopters"][r["adopter_id"]]
        if r["status"] not in ("submitted", "screening", "home_check") or p["do_not_adopt"]:
            return None
        if r["status"] == "submitted":
            return "screening"
        if r["status"] == "screening" and not (p["adoptions_count"] >= 1 and p["returns_count"] == 0):
            return "home_check"
        met = any(v["application_id"] == r["id"] and v["status"] == "completed" for v in st["visits"].values())
        return "approved" if met and st["animals"][r["animal_id"]]["status"] == "available" else None

    def advanceable(self, st):
        return [k for k, r in st["applications"].items() if self.advance_target(st, r)]

    def apps_in(self, st, statuses):
        return [k for k, r in st["applications"].items() if r["status"] in statuses]

    def bookable(self, st):
        busy = {v["application_id"] for v in self.scheduled(st)}
        return [k for k, r in st["applications"].items()
                if r["status"] in ("screening", "home_check") and k not in busy
                and st["adopters"][r["adopter_id"]]["no_show_count"] < 2
                and st["animals"][r["animal_id"]]["status"] == "available"]

    def slot_free(self, st, animal_id, date, slot):
        same = [v for v in self.scheduled(st) if v["date"] == date and v["slot"] == slot]
        return len(same) < st["meta"]["rooms_per_slot"] and all(v["animal_id"] != animal_id for v in same)

    def visits_where(self, st, status, test):
        return [k for k, v in st["visits"].items() if v["status"] in status and test(v["date"])]

    def finalizable(self, st):
        out = []
        since = (self.today - dt.timedelta(days=30)).isoformat()
        for k, r in st["applications"].items():
            p = st["adopters"][r["adopter_id"]]
            if r["status"] != "approved" or p["do_not_adopt"]:
                continue
            if (self.today - dt.date.fromisoformat(r["approved_on"])).days > 21:
                continue
            recent = [d for d in st["adoptions"].values()
                      if d["adopter_id"] == p["id"] and d["adoption_date"] >= since]
            if len(recent) < 2 and st["animals"][r["animal_id"]]["status"] == "reserved":
                out.append(k)
        return out

    def adoptions_in(self, st, status):
        return [k for k, d in st["adoptions"].items() if d["status"] == status]

    # -------------------------------------------------------------- reads
    def list_animals(self, valid):
        if valid:
            args = {}
            for key in self.rng.sample(["species", "status", "name", "good_with_kids", "max_age_years"],
                                       self.rng.randint(0, 2)):
                if key == "species":
                    args[key] = self.pick(["dog", "cat", "rabbit", "guinea_pig"])
                elif key == "status":
                    args[key] = self.pick(["intake", "available", "medical_hold", "reserved", "adopted"])
                elif key == "name":
                    n = self.pick(self.s0["animals"].values())["name"]
                    args[key] = self.mangle(n[: self.rng.randint(2, len(n))])
                elif key == "good_with_kids":
                    args[key] = self.rng.random() < 0.5
                else:
                    args[key] = self.rng.randint(0, 9)
            return self.ok(args)
        return self.pick([{"species": "hamster"}, {"status": "sold"}, {"max_age_years": -2},
                          {"good_with_kids": "yes"}, {"max_age_years": "three"}])

    def find_adopters(self, valid):
        p = self.pick(self.s0["adopters"].values())
        if valid:
            if self.rng.random() < 0.5:
                return self.ok({"email": self.mangle(p["email"])})
            return self.ok({"name": self.mangle(self.pick(p["name"].split()))})
        return self.pick([{}, {"name": ""}, {"email": "   "}, {"name": 42}])

    def list_applications(self, valid):
        if valid:
            key = self.pick(["adopter_id", "animal_id", "status", "status"])
            if key == "status":
                return self.ok({"status": self.pick(["submitted", "screening", "home_check", "approved",
                                                     "rejected", "withdrawn", "completed"])})
            return self.ok({key: self.pick(self.s0["adopters" if key == "adopter_id" else "animals"])})
        return self.pick([{"adopter_id": "P0999"}, {"animal_id": "A9999"}, {"status": "pending"},
                          {"status": "closed"}])

    def list_visits(self, valid):
        if valid:
            key = self.pick(["date", "status", "animal_id", "application_id"])
            if key == "status":
                return self.ok({"status": self.pick(["scheduled", "completed", "no_show", "cancelled"])})
            v = self.pick(self.s0["visits"].values())
            return self.ok({key: v[key]})
        return self.pick([{"date": "2025/06/17"}, {"date": "2025-02-30"}, {"animal_id": "A0999"},
                          {"application_id": "AP9999"}, {"status": "missed"}])

    # -------------------------------------------------------------- animals
    def place_medical_hold(self, valid):
        ok = self.both(lambda st: self.animals_in(st, ("intake", "available", "medical_hold")))
        if valid and ok:
            aid = self.pick(ok)
            until = self.day(self.rng.randint(1, 30))
            self.s["animals"][aid].update(status="medical_hold", hold_until=until)
            self.cancel_visits("animal_id", aid)
            return self.ok({"animal_id": aid, "reason": self.pick(HOLD_REASONS), "hold_until": until})
        aid = self.pick(ok)
        bad = self.pick(self.both(lambda st: self.animals_in(st, ("reserved", "adopted"))))
        pool = [{"animal_id": "A0999", "reason": "limping", "hold_until": self.day(5)}]
        if bad:
            pool += [{"animal_id": bad, "reason": "limping", "hold_until": self.day(7)}] * 2
        if aid:
            pool += [{"animal_id": aid, "reason": "limping", "hold_until": self.day(0)},
                     {"animal_id": aid, "reason": "limping", "hold_until": self.day(self.rng.randint(31, 60))},
                     {"animal_id": aid, "reason": "limping", "hold_until": self.day(-3)},
                     {"animal_id": aid, "hold_until": self.day(5)},
                     {"animal_id": aid, "reason": "limping", "hold_until": "next week"}]
        return self.pick(pool)

    def clear_for_adoption(self, valid):
        ok = self.both(self.clearable)
        if valid and ok:
            aid = self.pick(ok)
            self.s["animals"][aid]["status"] = "available"
            return self.ok({"animal_id": aid})
        never = set(self.s0["animals"]) - set(self.clearable(self.s0)) - set(self.clearable(self.s))
        young = [k for k in never if self.s0["animals"][k]["status"] == "intake"]
        pool = [{"animal_id": k} for k in sorted(young)] * 2 + [{"animal_id": "A0000"}]
        if never:
            pool.append({"animal_id": self.pick(never)})
        return self.pick(pool)

    # -------------------------------------------------------------- applications
    def submit_faults(self, st, pid, aid):
        p, a = st["adopters"][pid], st["animals"][aid]
        mine = self.open_apps(st, pid)
        faults = set()
        if p["do_not_adopt"]:
            faults.add("flagged")
        if a["status"] not in ("available", "medical_hold"):
            faults.add("animal")
        if len(mine) >= 2:
            faults.add("full")
        if any(r["animal_id"] == aid for r in mine):
            faults.add("duplicate")
        if a["species"] == "dog" and p["housing"] == "rent" and not p["landlord_approved"]:
            faults.add("landlord")
        if p["has_children"] and not a["good_with_kids"]:
            faults.add("kids")
        return faults

    def find_pair(self, want, tries=300):
        """An (adopter, animal) pair whose faults are exactly `want` in both states."""
        people, animals = sorted(self.s0["adopters"]), sorted(self.s0["animals"])
        for _ in range(tries):
            pid, aid = self.pick(people), self.pick(animals)
            if want == "duplicate":
                r = self.pick(self.s0["applications"].values())
                pid, aid = r["adopter_id"], r["animal_id"]
            if self.submit_faults(self.s, pid, aid) == want and self.submit_faults(self.s0, pid, aid) == want:
                return pid, aid
        return None

    def submit_application(self, valid):
        if valid:
            pair = self.find_pair(set(), 80)
            if pair:
                rid = _next_id(self.s["applications"], "AP")
                self.s["applications"][rid] = {"id": rid, "adopter_id": pair[0], "animal_id": pair[1],
                                               "status": "submitted", "approved_on": None}
                return self.ok({"adopter_id": pair[0], "animal_id": pair[1]})
            return {}
        for _ in range(10):
            fault = self.pick(["flagged", "animal", "full", "duplicate", "landlord", "kids", "unknown"])
            if fault == "unknown":
                return {"adopter_id": "P0777", "animal_id": self.pick(sorted(self.s0["animals"]))}
            pair = self.find_pair({fault})
            if pair:
                return {"adopter_id": pair[0], "animal_id": pair[1]}
        return {"adopter_id": self.pick(sorted(self.s0["adopters"])), "animal_id": "A0000"}

    def advance_faults(self, st, rid):
        r = st["applications"][rid]
        if r["status"] not in ("submitted", "screening", "home_check"):
            return {"stage"}
        faults = set()
        if st["adopters"][r["adopter_id"]]["do_not_adopt"]:
            faults.add("flagged")
        if self.advance_target(dict(st, adopters={**st["adopters"], r["adopter_id"]: dict(
                st["adopters"][r["adopter_id"]], do_not_adopt=False)}), r) is None:
            met = any(v["application_id"] == rid and v["status"] == "completed" for v in st["visits"].values())
            faults.add("animal" if met else "no_visit")
        return faults

    def advance_application(self, valid):
        ok = self.both(self.advanceable)
        if valid and ok:
            rid = self.pick(ok)
            r = self.s["applications"][rid]
            target = self.advance_target(self.s, r)
            r["status"] = target
            if target == "approved":
                r["approved_on"] = self.t
                self.s["animals"][r["animal_id"]]["status"] = "reserved"
            return self.ok({"application_id": rid})
        for _ in range(10):
            fault = self.pick(["stage", "flagged", "no_visit", "no_visit", "animal", "unknown"])
            if fault == "unknown":
                return {"application_id": "AP0000"}
            found = self.both(lambda st: [k for k in st["applications"] if k in self.s0["applications"]
                                          and self.advance_faults(st, k) == {fault}])
            if found:
                return {"application_id": self.pick(found)}
        return {"application_id": "AP0000"}

    def close_application(self, valid):
        ok = self.both(lambda st: self.apps_in(st, OPEN))
        if valid and ok:
            rid = self.pick(ok)
            r = self.s["applications"][rid]
            if r["status"] == "approved":
                self.s["animals"][r["animal_id"]]["status"] = "available"
            r["status"] = self.pick(["rejected", "withdrawn"])
            self.cancel_visits("application_id", rid)
            return self.ok({"application_id": rid, "outcome": r["status"], "reason": self.pick(CLOSE_REASONS)})
        closed = self.pick(self.both(lambda st: self.apps_in(st, ("rejected", "withdrawn", "completed"))))
        live = self.pick(ok) or closed
        return self.pick([
            {"application_id": closed, "outcome": "withdrawn", "reason": "changed mind"},
            {"application_id": closed, "outcome": "rejected", "reason": "late paperwork"},
            {"application_id": live, "outcome": "cancelled", "reason": "changed mind"},
            {"application_id": live, "outcome": "rejected"},
            {"application_id": "AP0000", "outcome": "withdrawn", "reason": "changed mind"},
        ])

    # -------------------------------------------------------------- visits
    def schedule_faults(self, st, rid, date, slot):
        r = st["applications"][rid]
        faults = set()
        if r["status"] not in ("screening", "home_check"):
            faults.add("stage")
        if st["adopters"][r["adopter_id"]]["no_show_count"] >= 2:
            faults.add("no_show")
        if st["animals"][r["animal_id"]]["status"] != "available":
            faults.add("animal")
        day = dt.date.fromisoformat(date)
        if not 1 <= (day - self.today).days <= 14:
            faults.add("window")
        if day.weekday() == 0:
            faults.add("monday")
        booked = self.scheduled(st)
        if any(v["application_id"] == rid for v in booked):
            faults.add("has_visit")
        same = [v for v in booked if v["date"] == date and v["slot"] == slot]
        if any(v["animal_id"] == r["animal_id"] for v in same):
            faults.add("animal_booked")
        elif len(same) >= st["meta"]["rooms_per_slot"]:
            faults.add("full")
        return faults

    def schedule_visit(self, valid):
        slots = self.s0["meta"]["visit_slots"]
        apps = sorted(self.s0["applications"])
        days = [self.day(k) for k in range(-2, 20)]
        if valid:
            for _ in range(200):
                rid, d, sl = self.pick(apps), self.pick(days), self.pick(slots)
                if not self.schedule_faults(self.s, rid, d, sl) and not self.schedule_faults(self.s0, rid, d, sl):
                    r = self.s["applications"][rid]
                    vid = _next_id(self.s["visits"], "V")
                    self.s["visits"][vid] = {"id": vid, "application_id": rid, "animal_id": r["animal_id"],
                                             "adopter_id": r["adopter_id"], "date": d, "slot": sl,
                                             "status": "scheduled"}
                    return self.ok({"application_id": rid, "date": d, "slot": sl})
            return {}
        booked = self.scheduled(self.s0)
        for _ in range(10):
            fault = self.pick(["stage", "no_show", "animal", "window", "monday", "has_visit", "animal_booked",
                               "full", "slot", "unknown"])
            if fault == "slot":
                return {"application_id": self.pick(apps), "date": self.day(3), "slot": "09:00"}
            if fault == "unknown":
                return {"application_id": "AP0000", "date": self.day(3), "slot": self.pick(slots)}
            staged = [k for k, r in self.s0["applications"].items() if r["status"] in ("screening", "home_check")]
            window = [self.day(k) for k in range(1, 15)]
            for _ in range(300):
                rid = self.pick(apps if fault == "stage" else staged)
                d = self.pick(days if fault == "window" else window)
                sl = self.pick(slots)
                if fault in ("animal_booked", "full", "has_visit") and booked:
                    v = self.pick(booked)
                    if fault == "has_visit":
                        rid = v["application_id"]
                    else:
                        d, sl = v["date"], v["slot"]
                        if fault == "animal_booked":
                            rid = self.pick(k for k, r in self.s0["applications"].items()
                                            if r["animal_id"] == v["animal_id"])
                if self.schedule_faults(self.s, rid, d, sl) == {fault} == self.schedule_faults(self.s0, rid, d, sl):
                    return {"application_id": rid, "date": d, "slot": sl}
        return {"application_id": "AP0000", "date": self.day(3), "slot": self.pick(slots)}

    def cancel_visit(self, valid):
        ok = self.both(lambda st: self.visits_where(st, ("scheduled",), lambda d: d >= self.t))
        if valid and ok:
            vid = self.pick(ok)
            self.s["visits"][vid]["status"] = "cancelled"
            return self.ok({"visit_id": vid, "reason": self.pick(VISIT_REASONS)})
        past = self.both(lambda st: self.visits_where(st, ("scheduled",), lambda d: d < self.t))
        done = self.both(lambda st: self.visits_where(st, ("completed", "cancelled", "no_show"), bool))
        pool = [{"visit_id": self.pick(done), "reason": "adopter request"},
                {"visit_id": "V0000", "reason": "adopter request"}]
        if past:
            pool.append({"visit_id": self.pick(past), "reason": "adopter request"})
        if ok:
            pool.append({"visit_id": self.pick(ok)})
        return self.pick(pool)

    def record_visit_outcome(self, valid):
        ok = self.both(lambda st: self.visits_where(st, ("scheduled",), lambda d: d <= self.t))
        if valid and ok:
            vid = self.pick(ok)
            v = self.s["visits"][vid]
            v["status"] = self.pick(["completed", "completed", "no_show"])
            if v["status"] == "no_show":
                self.s["adopters"][v["adopter_id"]]["no_show_count"] += 1
            return self.ok({"visit_id": vid, "outcome": v["status"]})
        future = self.both(lambda st: self.visits_where(st, ("scheduled",), lambda d: d > self.t))
        done = self.both(lambda st: self.visits_where(st, ("completed", "cancelled", "no_show"), bool))
        pool = [{"visit_id": self.pick(done), "outcome": "completed"},
                {"visit_id": "V0000", "outcome": "completed"}]
        if future:
            pool += [{"visit_id": self.pick(future), "outcome": "completed"}] * 2
            pool.append({"visit_id": self.pick(future), "outcome": "late"})
        return self.pick(pool)

    # -------------------------------------------------------------- adoptions
    def finalize_adoption(self, valid):
        ok = self.both(self.finalizable)
        if valid and ok:
            rid = self.pick(ok)
            r = self.s["applications"][rid]
            r["status"] = "completed"
            self.s["adopters"][r["adopter_id"]]["adoptions_count"] += 1
            aid = r["animal_id"]
            self.s["animals"][aid]["status"] = "adopted"
            for o in self.s["applications"].values():
                if o["animal_id"] == aid and o["status"] in OPEN:
                    o["status"] = "rejected"
            self.cancel_visits("animal_id", aid)
            did = _next_id(self.s["adoptions"], "D")
            self.s["adoptions"][did] = {"id": did, "adopter_id": r["adopter_id"], "animal_id": aid,
                                        "adoption_date": self.t, "status": "completed"}
            args = {"application_id": rid}
            if self.rng.random() < 0.3:
                args["use_store_credit"] = self.rng.random() < 0.5
            return self.ok(args)
        never = set(self.s0["applications"]) - set(self.finalizable(self.s0)) - set(self.finalizable(self.s))
        approved = [k for k in never if self.s0["applications"][k]["status"] == "approved"]
        pool = [{"application_id": k} for k in sorted(approved)] * 2 + [{"application_id": "AP0000"}]
        if never:
            pool.append({"application_id": self.pick(never)})
        if ok:
            pool.append({"application_id": self.pick(ok), "use_store_credit": "yes"})
        return self.pick(pool)

    def return_adoption(self, valid):
        ok = self.both(lambda st: self.adoptions_in(st, "completed"))
        if valid and ok:
            did = self.pick(ok)
            d = self.s["adoptions"][did]
            d["status"] = "returned"
            self.s["adopters"][d["adopter_id"]]["returns_count"] += 1
            self.s["animals"][d["animal_id"]].update(status="intake", intake_date=self.t)
            return self.ok({"adoption_id": did, "reason": self.pick(["allergies", "too much energy",
                                                                     "resident dog objected", "moving"])})
        returned = self.pick(self.both(lambda st: self.adoptions_in(st, "returned")))
        pool = [{"adoption_id": returned, "reason": "allergies"}] * 2 + [{"adoption_id": "D0000", "reason": "x"}]
        if ok:
            did = self.pick(ok)
            pool += [{"adoption_id": did, "reason": ""}, {"adoption_id": did}]
        return self.pick(pool)


WEIGHTS = {
    "list_animals": 6, "find_adopters": 5, "list_applications": 5, "list_visits": 5,
    "place_medical_hold": 7, "clear_for_adoption": 6, "submit_application": 10,
    "advance_application": 12, "close_application": 7, "schedule_visit": 6, "cancel_visit": 4,
    "record_visit_outcome": 4, "finalize_adoption": 5, "return_adoption": 5,
}


def probes(db, rng, n):
    g = _Gen(db, rng)
    names = list(WEIGHTS)
    out = []
    plan = []  # six valid calls in every block of ten, in random order
    while len(plan) < n:
        block = [True] * 6 + [False] * 4
        rng.shuffle(block)
        plan += block
    for i in range(n):
        name = names[i] if i < len(names) else rng.choices(names, [WEIGHTS[k] for k in names])[0]
        valid = plan[i]
        for _ in range(20):
            g.valid_hit = False
            args = getattr(g, name)(valid)
            if g.valid_hit or not valid:
                break
            # nothing valid is left for this tool: try another one
            name = rng.choices(names, [WEIGHTS[k] for k in names])[0]
        g.hits.append(g.valid_hit)
        out.append((name, args))
    return out
