"""Differential probes for the workshop reference API: ~60% valid calls, ~40% the docs say to refuse."""
from datetime import date, timedelta

LIVE = ("booked", "in_progress")


class _Ctx:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        jobs, veh = db["jobs"], db["vehicles"]
        self.customers = sorted(db["customers"])
        self.vehicles = sorted(veh)
        busy = {j["vehicle_id"] for j in jobs.values() if j["status"] in LIVE}
        self.free_v = [v for v in self.vehicles if v not in busy]
        self.busy_v = sorted(busy)
        self.parts = sorted(db["parts"])
        self.stocked = [p for p in self.parts if db["parts"][p]["stock"] > 0]
        self.jobs = sorted(jobs)
        self.booked = [j for j in self.jobs if jobs[j]["status"] == "booked"]
        self.booked_today = [j for j in self.booked if jobs[j]["scheduled_on"] == self.today.isoformat()]
        self.booked_later = [j for j in self.booked if jobs[j]["scheduled_on"] > self.today.isoformat()]
        self.running = [j for j in self.jobs if jobs[j]["status"] == "in_progress"]
        self.worked = [j for j in self.running if jobs[j]["labour_hours"] > 0]
        self.idle = [j for j in self.running if jobs[j]["labour_hours"] == 0] or ["J9999"]
        self.closed = [j for j in self.jobs if jobs[j]["status"] not in LIVE]
        self.load = {}
        for j in jobs.values():
            if j["status"] in LIVE:
                self.load[j["scheduled_on"]] = self.load.get(j["scheduled_on"], 0) + 1
        self.open_days = [d for d in (self.today + timedelta(days=i) for i in range(1, 31))
                          if d.weekday() != 6 and self.load.get(d.isoformat(), 0) < db["meta"]["bays"]]
        self.full_days = [d for d in self.load if self.load[d] >= db["meta"]["bays"] and d > self.today.isoformat()]

    def c(self, seq):
        return self.rng.choice(seq)

    def plate(self):
        letters = "ABCDEFGHKLMNPRSTVWY"
        return "%s%s%02d %s" % (self.c(letters), self.c(letters), self.rng.randint(10, 74),
                                "".join(self.c(letters) for _ in range(3)))


def g_get_customer(x, ok):
    return {"customer_id": x.c(x.customers)} if ok else {"customer_id": x.c(["C999", "c001", "V0001"])}


def g_list_vehicles(x, ok):
    if not ok:
        return x.c([{"customer_id": "C999"}, {"owner": "C001"}])
    a = {}
    if x.rng.random() < 0.6:
        a["customer_id"] = x.c(x.customers)
    if x.rng.random() < 0.3:
        p = x.db["vehicles"][x.c(x.vehicles)]["plate"]
        a["plate"] = x.c([p, p.lower(), p.replace(" ", "")])
    return a


def g_list_parts(x, ok):
    if not ok:
        return x.c([{"in_stock": "yes"}, {"q": 5}, {"brand": "x"}])
    a = {}
    if x.rng.random() < 0.5:
        a["q"] = x.c(["brake", "FILTER", "oil", "belt", "zzz"])
    if x.rng.random() < 0.4:
        a["in_stock"] = x.c([True, False])
    return a


def g_list_jobs(x, ok):
    if not ok:
        return x.c([{"vehicle_id": "V9999"}, {"status": "done"}, {"scheduled_on": "03/11/2025"}])
    a = {}
    if x.rng.random() < 0.5:
        a["vehicle_id"] = x.c(x.vehicles)
    if x.rng.random() < 0.4:
        a["status"] = x.c(["booked", "in_progress", "completed", "cancelled"])
    if x.rng.random() < 0.3:
        a["scheduled_on"] = (x.today + timedelta(days=x.rng.randint(-5, 10))).isoformat()
    return a


def g_get_job(x, ok):
    return {"job_id": x.c(x.jobs)} if ok else {"job_id": x.c(["J9999", "J1"])}


def g_register_vehicle(x, ok):
    a = {"customer_id": x.c(x.customers), "plate": x.plate(), "make": "Kestrel", "model": "Aero",
         "year": x.rng.randint(2000, 2025), "mileage": x.rng.randint(0, 150000)}
    if ok:
        return a
    bad = x.rng.randint(0, 4)
    if bad == 0:
        a["plate"] = x.db["vehicles"][x.c(x.vehicles)]["plate"]
    elif bad == 1:
        a["plate"] = x.c(["ab12 cde", "AB123 CDE", "A12 BCD", "AB12CDE"])
    elif bad == 2:
        a["year"] = x.c([1975, 2030, "2015"])
    elif bad == 3:
        a["mileage"] = x.c([-5, 12.5])
    else:
        a["customer_id"] = "C999"
    return a


def g_book_job(x, ok):
    kind = x.c(["service", "repair", "inspection"])
    if ok:
        return {"vehicle_id": x.c(x.free_v), "kind": kind, "scheduled_on": x.c(x.open_days).isoformat()}
    bad = x.rng.randint(0, 5)
    day = x.c(x.open_days).isoformat()
    if bad == 0:
        return {"vehicle_id": x.c(x.busy_v), "kind": kind, "scheduled_on": day}
    if bad == 1:
        return {"vehicle_id": x.c(x.free_v), "kind": kind, "scheduled_on": x.c(x.full_days)}
    if bad == 2:
        off = x.c([0, -3, 31, 45])
        return {"vehicle_id": x.c(x.free_v), "kind": kind, "scheduled_on": (x.today + timedelta(days=off)).isoformat()}
    if bad == 3:
        sunday = x.today + timedelta(days=(6 - x.today.weekday()) % 7 or 7)
        return {"vehicle_id": x.c(x.free_v), "kind": kind, "scheduled_on": sunday.isoformat()}
    if bad == 4:
        return {"vehicle_id": x.c(x.free_v), "kind": x.c(["tuning", "Service"]), "scheduled_on": day}
    return {"vehicle_id": "V9999", "kind": kind, "scheduled_on": day}


def g_start_job(x, ok):
    if ok:
        j = x.c(x.booked_today)
        return {"job_id": j, "mileage": x.db["vehicles"][x.db["jobs"][j]["vehicle_id"]]["mileage"] + x.rng.randint(0, 900)}
    bad = x.rng.randint(0, 2)
    if bad == 0:
        j = x.c(x.booked_today)
        return {"job_id": j, "mileage": x.db["vehicles"][x.db["jobs"][j]["vehicle_id"]]["mileage"] - 100}
    j = x.c(x.booked_later if bad == 1 else x.running + x.closed)
    return {"job_id": j, "mileage": 999000}


def g_add_part(x, ok):
    if ok:
        p = x.c(x.stocked)
        return {"job_id": x.c(x.running), "part_id": p, "qty": x.rng.randint(1, min(3, x.db["parts"][p]["stock"]))}
    bad = x.rng.randint(0, 3)
    if bad == 0:
        p = x.c(x.parts)
        return {"job_id": x.c(x.running), "part_id": p, "qty": x.db["parts"][p]["stock"] + 1}
    if bad == 1:
        return {"job_id": x.c(x.booked + x.closed), "part_id": x.c(x.stocked), "qty": 1}
    if bad == 2:
        return {"job_id": x.c(x.running), "part_id": x.c(x.stocked), "qty": x.c([0, 11, 1.5])}
    return {"job_id": x.c(x.running), "part_id": "P999", "qty": 1}


def g_log_labour(x, ok):
    if ok:
        return {"job_id": x.c(x.running), "hours": x.c([0.25, 0.5, 1, 1.75, 3])}
    bad = x.rng.randint(0, 1)
    if bad == 0:
        return {"job_id": x.c(x.running), "hours": x.c([0, -1, 0.3, 8.25, "2"])}
    return {"job_id": x.c(x.booked + x.closed), "hours": 1}


def g_complete_job(x, ok):
    if ok:
        return {"job_id": x.c(x.worked)}
    return {"job_id": x.c([x.c(x.idle), x.c(x.booked), x.c(x.closed)])}


def g_cancel_job(x, ok):
    reason = x.c(["customer request", "car sold", "part unavailable"])
    if ok:
        return {"job_id": x.c(x.booked), "reason": reason}
    bad = x.rng.randint(0, 2)
    if bad == 0:
        return {"job_id": x.c(x.running + x.closed), "reason": reason}
    if bad == 1:
        return {"job_id": x.c(x.booked), "reason": x.c(["", " ", "r" * 121])}
    return {"job_id": "J9999", "reason": reason}


def g_restock_part(x, ok):
    if ok:
        return {"part_id": x.c(x.parts), "qty": x.rng.randint(1, 60)}
    return x.c([{"part_id": x.c(x.parts), "qty": x.c([0, 501, 2.5])}, {"part_id": "P999", "qty": 5}])


GENS = [("get_customer", g_get_customer, 1), ("list_vehicles", g_list_vehicles, 1), ("list_parts", g_list_parts, 1),
        ("list_jobs", g_list_jobs, 1), ("get_job", g_get_job, 1), ("register_vehicle", g_register_vehicle, 2),
        ("book_job", g_book_job, 3), ("start_job", g_start_job, 2), ("add_part", g_add_part, 3),
        ("log_labour", g_log_labour, 2), ("complete_job", g_complete_job, 3), ("cancel_job", g_cancel_job, 2),
        ("restock_part", g_restock_part, 1)]


def probes(db, rng, n):
    x = _Ctx(db, rng)
    names = [g[0] for g in GENS]
    weights = [g[2] for g in GENS]
    fns = {g[0]: g[1] for g in GENS}
    out = []
    for i in range(n):
        name = names[i] if i < len(names) else rng.choices(names, weights)[0]
        ok = (i < len(names)) or rng.random() < 0.58
        out.append((name, fns[name](x, ok)))
    return out
