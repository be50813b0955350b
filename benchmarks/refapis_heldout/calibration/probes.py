"""Differential probes for the calibration laboratory API.

Valid calls are planned first against a light model of the data (job chains such as
assign -> start -> complete -> certify are ordered so that each step runs after the previous one),
then calls that the docs or the policy say must be refused. Every call gets a random sort key;
dependent calls get a key after the call they depend on.
"""
from datetime import date, timedelta

CATEGORIES = ["pressure_gauge", "multimeter", "thermometer", "torque_wrench", "balance_scale", "caliper"]
MAKERS = {"pressure_gauge": ["Ashcroft", "WIKA"], "multimeter": ["Fluke", "Keysight"],
          "thermometer": ["Omega", "Hart"], "torque_wrench": ["Norbar", "CDI"],
          "balance_scale": ["Sartorius", "Ohaus"], "caliper": ["Mitutoyo", "Starrett"]}
LIMIT = {"standard": 3, "partner": 8}
READS = ["search_customers", "list_instruments", "list_jobs", "get_job"]
WEIGHTS = {"search_customers": 4, "list_instruments": 5, "list_jobs": 5, "get_job": 4, "record_payment": 7,
           "register_instrument": 8, "retire_instrument": 7, "create_job": 10, "assign_technician": 9,
           "start_job": 8, "complete_job": 9, "cancel_job": 8, "issue_certificate": 8, "revoke_certificate": 7}


def _case(rng, s):
    return "".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in s)


def probes(db, rng, n):
    today = date.fromisoformat(db["meta"]["today"])
    T = today.isoformat()
    custs, techs, insts, jobs, certs = (db[k] for k in ("customers", "technicians", "instruments", "jobs", "certificates"))
    jstat = {j: r["status"] for j, r in jobs.items()}
    jtech = {j: r["technician_id"] for j, r in jobs.items()}
    jres = {j: r["result"] for j, r in jobs.items()}
    jdone = {j: r["completed_date"] for j, r in jobs.items()}
    jcert = {j: r["certificate_id"] for j, r in jobs.items()}
    jkey = {j: 0.0 for j in jobs}
    cstat = {c: r["status"] for c, r in certs.items()}
    ckey = {c: 0.0 for c in certs}
    load = {t: r["active_jobs"] for t, r in techs.items()}
    copen = {c: r["open_jobs"] for c, r in custs.items()}
    bal = {c: r["balance_due"] for c, r in custs.items()}
    touched_jobs, claimed_inst, retired_by_probe, reused = set(), set(), set(), set()
    rush_keys = []
    serials = set()
    out = []

    def emit(key, name, args):
        out.append((key, name, args))

    def after(k):
        return k + (1.0 - k) * rng.random() * 0.9 + 1e-6

    def cat_of(jid):
        return insts[jobs[jid]["instrument_id"]]["category"]

    def chain_ok(jid):
        return jobs[jid]["service_level"] != "rush"

    def fresh_serial():
        while True:
            s = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2)) + "%06d" % rng.randint(0, 999999)
            if s not in serials and all(i["serial_number"] != s for i in insts.values()):
                serials.add(s)
                return s

    def touch(jid, k, status):
        jstat[jid] = status
        jkey[jid] = k
        touched_jobs.add(jid)
        claimed_inst.add(jobs[jid]["instrument_id"])

    # ------------------------------------------------------------ valid calls
    def v_search_customers():
        c = rng.choice(list(custs.values()))
        form = rng.randrange(5)
        if form == 0:
            words = c["name"].split()
            return {"query": _case(rng, rng.choice(words)[:rng.randint(3, 6)])}
        if form == 1:
            return {"query": c["email"].split("@")[1][:rng.randint(4, 9)].upper()}
        if form == 2:
            return {"tier": rng.choice(["standard", "partner"])}
        if form == 3:
            return {"query": "  " + c["name"].split()[0].lower() + " ", "tier": c["tier"]}
        return {}

    def v_list_instruments():
        a = {}
        if rng.random() < 0.5:
            a["customer_id"] = rng.choice(list(custs))
        if rng.random() < 0.4:
            a["category"] = rng.choice(CATEGORIES)
        if rng.random() < 0.3:
            a["status"] = rng.choice(["in_service", "in_lab", "retired"])
        if rng.random() < 0.5 or not a:
            a["due_within_days"] = rng.choice([0, 7, 30, 60, 90, 180, 365])
        return a

    def v_list_jobs():
        a = {}
        if rng.random() < 0.4:
            a["status"] = rng.choice(["received", "assigned", "in_progress", "completed", "cancelled"])
        if rng.random() < 0.3:
            a["customer_id"] = rng.choice(list(custs))
        if rng.random() < 0.3:
            a["technician_id"] = rng.choice(list(techs))
        if rng.random() < 0.3:
            a["service_level"] = rng.choice(["standard", "expedited", "rush"])
        if rng.random() < 0.4 or not a:
            a["overdue"] = rng.random() < 0.7
        return a

    def v_get_job():
        return {"job_id": rng.choice(list(jobs))}

    def v_record_payment():
        pool = [c for c in custs if bal[c] >= 10 and custs[c]["balance_due"] <= custs[c]["credit_limit"]]
        if not pool:
            return None
        c = rng.choice(pool)
        amt = round(bal[c] * rng.uniform(0.05, 0.4), 2) if rng.random() < 0.8 else round(bal[c], 2)
        amt = min(max(amt, 0.01), round(bal[c], 2))
        bal[c] = round(bal[c] - amt, 2)
        return {"customer_id": c, "amount": amt}

    def v_register_instrument():
        cat = rng.choice(CATEGORIES)
        maker = rng.choice(MAKERS[cat])
        serial = fresh_serial()
        retired = [i for i in insts.values() if i["status"] == "retired"]
        retired = [r for r in retired if r["id"] not in reused]
        if retired and rng.random() < 0.15:  # a retired instrument's serial may be reused
            r = rng.choice(retired)
            cat, maker, serial = r["category"], r["manufacturer"], r["serial_number"]
            reused.add(r["id"])
        return {"customer_id": rng.choice(list(custs)), "category": cat, "manufacturer": maker,
                "model": "M-%d" % rng.randint(100, 999), "serial_number": serial,
                "calibration_interval_days": rng.choice([90, 180, 365])}

    def free_instruments(rush=False):
        res = []
        for iid, i in insts.items():
            if i["status"] != "in_service" or iid in claimed_inst:
                continue
            c = custs[i["customer_id"]]
            if rush and i["category"] == "balance_scale":
                continue
            res.append(iid)
        return res

    def v_retire_instrument():
        pool = free_instruments()
        if not pool:
            return None
        iid = rng.choice(pool)
        claimed_inst.add(iid)
        retired_by_probe.add(iid)
        return {"instrument_id": iid}

    def v_create_job():
        rush = len(rush_keys) < 2 and rng.random() < 0.25
        pool = [i for i in free_instruments(rush) if custs[insts[i]["customer_id"]]["balance_due"]
                <= custs[insts[i]["customer_id"]]["credit_limit"] - 150
                and copen[insts[i]["customer_id"]] < LIMIT[custs[insts[i]["customer_id"]]["tier"]]]
        if not pool:
            return None
        iid = rng.choice(pool)
        claimed_inst.add(iid)
        copen[insts[iid]["customer_id"]] += 1
        a = {"instrument_id": iid}
        if rush:
            a["service_level"] = "rush"
        elif rng.random() < 0.6:
            a["service_level"] = rng.choice(["standard", "expedited"])
        if rng.random() < 0.3:
            a["notes"] = rng.choice(["please include as-found readings", "urgent for audit", "return by courier"])
        return a

    def v_assign_technician():
        opts = []
        for j in jobs:
            if jstat[j] not in ("received", "assigned") or not chain_ok(j):
                continue
            for t, r in techs.items():
                if (r["status"] == "active" and cat_of(j) in r["specialties"] and load[t] < r["max_active_jobs"]
                        and t != jtech[j]):
                    opts.append((j, t))
        if not opts:
            return None
        j, t = rng.choice(opts)
        load[t] += 1
        jtech[j] = t
        return ("job", j, "assigned", {"job_id": j, "technician_id": t})

    def v_start_job():
        pool = [j for j in jobs if jstat[j] == "assigned" and chain_ok(j) and techs[jtech[j]]["status"] == "active"]
        if not pool:
            return None
        j = rng.choice(pool)
        return ("job", j, "in_progress", {"job_id": j})

    def v_complete_job():
        pool = [j for j in jobs if jstat[j] == "in_progress" and chain_ok(j)]
        if not pool:
            return None
        j = rng.choice(pool)
        jres[j] = rng.choices(["pass", "adjusted", "fail"], [70, 20, 10])[0]
        jdone[j] = T
        return ("job", j, "completed", {"job_id": j, "result": jres[j]})

    def v_cancel_job():
        pool = [j for j in jobs if jstat[j] in ("received", "assigned") and chain_ok(j)]
        if not pool:
            return None
        j = rng.choice(pool)
        return ("job", j, "cancelled", {"job_id": j, "reason": rng.choice(
            ["customer_request", "instrument_damaged", "duplicate_request", "other"])})

    def certifiable(j):
        return (jstat[j] == "completed" and jres[j] in ("pass", "adjusted") and jcert[j] is None
                and (today - date.fromisoformat(jdone[j])).days <= 30
                and insts[jobs[j]["instrument_id"]]["status"] != "retired"
                and jobs[j]["instrument_id"] not in retired_by_probe)

    def v_issue_certificate():
        pool = [j for j in jobs if certifiable(j)]
        if not pool:
            return None
        j = rng.choice(pool)
        jcert[j] = "new"
        return ("job", j, "completed", {"job_id": j})

    def v_revoke_certificate():
        pool = [c for c in certs if cstat[c] == "valid" and certs[c]["valid_until"] >= T
                and certs[c]["instrument_id"] not in retired_by_probe]
        if not pool:
            return None
        c = rng.choice(pool)
        cstat[c] = "revoked"
        k = after(ckey[c])
        ckey[c] = k
        j = certs[c]["job_id"]
        if jcert.get(j) == c:
            jcert[j] = None
            jkey[j] = max(jkey[j], k)
        claimed_inst.add(certs[c]["instrument_id"])
        return ("key", k, None, {"certificate_id": c, "reason": rng.choice(
            ["wrong serial number printed", "reference standard out of tolerance", "customer name misspelled"])})

    valid_fns = {name: fn for name, fn in locals().items() if name.startswith("v_")}
    n_valid = int(round(n * 0.62))
    names = list(WEIGHTS)
    tries = 0
    while len(out) < n_valid and tries < n * 20:
        tries += 1
        name = rng.choices(names, [WEIGHTS[x] for x in names])[0]
        res = valid_fns["v_" + name]()
        if res is None:
            continue
        if isinstance(res, tuple) and res[0] == "job":
            _, j, status, args = res
            k = after(jkey[j])
            touch(j, k, status)
            emit(k, name, args)
        elif isinstance(res, tuple) and res[0] == "key":
            emit(res[1], name, res[3])
        else:
            k = rng.random()
            if name == "create_job" and res.get("service_level") == "rush":
                rush_keys.append(k)
            emit(k, name, res)

    # ------------------------------------------------------------ calls that must be refused
    untouched = [j for j in jobs if j not in touched_jobs]

    def jobs_in(*statuses):
        return [j for j in untouched if jobs[j]["status"] in statuses] or ["JOB-0000"]

    def pick_inst(pred):
        pool = [i for i, r in insts.items() if pred(r) and i not in claimed_inst]
        return rng.choice(pool) if pool else "INS-0000"

    def settled(cid):  # no valid call planned above closes one of this customer's jobs
        return all(j not in touched_jobs for j, r in jobs.items() if r["customer_id"] == cid)

    def x_search_customers():
        return rng.choice([{"query": "a"}, {"query": " N "}, {"tier": "gold"}, {"query": ""}])

    def x_list_instruments():
        return rng.choice([{"customer_id": "CUS-999"}, {"due_within_days": -5}, {"due_within_days": 400},
                           {"category": "oscilloscope"}, {"status": "lost"}, {"due_within_days": "30"}])

    def x_list_jobs():
        return rng.choice([{"status": "open"}, {"technician_id": "TECH-99"}, {"customer_id": "CUS-000"},
                           {"service_level": "overnight"}, {"overdue": "yes"}])

    def x_get_job():
        return {"job_id": rng.choice(["JOB-9999", "JOB-0000", jobs_in("completed")[0].lower(), "12"])}

    def x_record_payment():
        c = rng.choice(list(custs))
        b = custs[c]["balance_due"]
        return rng.choice([{"customer_id": c, "amount": round(b + rng.uniform(50, 500), 2)},
                           {"customer_id": c, "amount": 0}, {"customer_id": c, "amount": -25.0},
                           {"customer_id": c, "amount": 10.005}, {"customer_id": "CUS-404", "amount": 10.0},
                           {"customer_id": c, "amount": "100.00"}])

    def x_register_instrument():
        live = [i for i in insts.values() if i["status"] != "retired" and i["id"] not in retired_by_probe]
        d = rng.choice(live)
        base = {"customer_id": rng.choice(list(custs)), "category": d["category"], "manufacturer": d["manufacturer"],
                "model": "M-%d" % rng.randint(100, 999), "serial_number": fresh_serial(),
                "calibration_interval_days": 180}
        kind = rng.randrange(6)
        if kind <= 1:
            base["serial_number"] = " " + _case(rng, d["serial_number"])
            base["manufacturer"] = _case(rng, d["manufacturer"]) + " "
        elif kind == 2:
            base["calibration_interval_days"] = rng.choice([30, 120, 730, 0])
        elif kind == 3:
            base["category"] = "oscilloscope"
        elif kind == 4:
            base["customer_id"] = "CUS-777"
        else:
            base["serial_number"] = "   "
        return base

    def x_retire_instrument():
        kind = rng.randrange(3)
        if kind == 0:
            return {"instrument_id": pick_inst(lambda r: r["status"] == "retired")}
        if kind == 1:
            return {"instrument_id": pick_inst(lambda r: r["status"] == "in_lab")}
        return {"instrument_id": "INS-9999"}

    def x_create_job():
        kind = rng.randrange(7)
        if kind == 0:
            iid = pick_inst(lambda r: r["status"] == "in_service" and r["category"] == "balance_scale")
            return {"instrument_id": iid, "service_level": "rush"}
        if kind == 1:
            iid = pick_inst(lambda r: r["status"] == "in_service"
                            and custs[r["customer_id"]]["balance_due"] > custs[r["customer_id"]]["credit_limit"])
            return {"instrument_id": iid}
        if kind == 2:
            iid = pick_inst(lambda r: r["status"] == "in_service" and settled(r["customer_id"])
                            and custs[r["customer_id"]]["open_jobs"] >= LIMIT[custs[r["customer_id"]]["tier"]])
            return {"instrument_id": iid, "service_level": "expedited"}
        if kind == 3:
            return {"instrument_id": pick_inst(lambda r: r["status"] == "in_lab")}
        if kind == 4:
            return {"instrument_id": pick_inst(lambda r: r["status"] == "retired")}
        if kind == 5 and len(rush_keys) >= 2:
            pool = [i for i in free_instruments(rush=True)
                    if custs[insts[i]["customer_id"]]["balance_due"] <= custs[insts[i]["customer_id"]]["credit_limit"]]
            if pool:
                iid = rng.choice(pool)
                claimed_inst.add(iid)
                return ("key", after(max(rush_keys)), {"instrument_id": iid, "service_level": "rush"})
        return rng.choice([{"instrument_id": "INS-0000"},
                           {"instrument_id": pick_inst(lambda r: r["status"] == "in_service"), "service_level": "overnight"}])

    def x_assign_technician():
        kind = rng.randrange(6)
        j = rng.choice(jobs_in("received", "assigned"))
        cat = cat_of(j)
        if kind == 0:
            return {"job_id": rng.choice(jobs_in("in_progress", "completed", "cancelled")),
                    "technician_id": rng.choice(list(techs))}
        if kind == 1:
            return {"job_id": j, "technician_id": rng.choice([t for t, r in techs.items() if r["status"] == "on_leave"])}
        if kind == 2:
            pool = [t for t, r in techs.items() if cat not in r["specialties"]]
            if pool:
                return {"job_id": j, "technician_id": rng.choice(pool)}
        if kind == 3:
            pool = [(a, t) for a in jobs_in("received", "assigned") for t, r in techs.items()
                    if r["active_jobs"] >= r["max_active_jobs"] and r["status"] == "active"
                    and cat_of(a) in r["specialties"] and jtech[a] != t
                    and not any(jobs[b]["technician_id"] == t for b in touched_jobs)]
            if pool:
                a, t = rng.choice(pool)
                return {"job_id": a, "technician_id": t}
        if kind == 4:
            pool = jobs_in("assigned")
            a = rng.choice(pool)
            return {"job_id": a, "technician_id": jobs[a]["technician_id"]}
        return rng.choice([{"job_id": "JOB-5555", "technician_id": "TECH-01"}, {"job_id": j, "technician_id": "TECH-40"}])

    def x_start_job():
        leave = [j for j in jobs_in("assigned") if techs[jobs[j]["technician_id"]]["status"] == "on_leave"]
        kind = rng.randrange(4)
        if kind == 0 and leave:
            return {"job_id": rng.choice(leave)}
        if kind == 1:
            return {"job_id": rng.choice(jobs_in("received"))}
        if kind == 2:
            return {"job_id": rng.choice(jobs_in("completed", "cancelled"))}
        return {"job_id": rng.choice(["JOB-9000", rng.choice(jobs_in("in_progress"))])}

    def x_complete_job():
        kind = rng.randrange(4)
        if kind == 0:
            return {"job_id": rng.choice(jobs_in("received", "assigned")), "result": "pass"}
        if kind == 1:
            return {"job_id": rng.choice(jobs_in("completed", "cancelled")), "result": rng.choice(["pass", "fail"])}
        if kind == 2:
            return {"job_id": rng.choice(jobs_in("in_progress")), "result": rng.choice(["ok", "PASS", "passed"])}
        return {"job_id": "JOB-8888", "result": "adjusted"}

    def x_cancel_job():
        kind = rng.randrange(4)
        if kind == 0:
            return {"job_id": rng.choice(jobs_in("in_progress")), "reason": "customer_request"}
        if kind == 1:
            return {"job_id": rng.choice(jobs_in("completed", "cancelled")), "reason": "other"}
        if kind == 2:
            return {"job_id": rng.choice(jobs_in("received", "assigned")), "reason": "changed my mind"}
        return {"job_id": "JOB-7777", "reason": "duplicate_request"}

    def x_issue_certificate():
        done = [j for j in jobs_in("completed")]
        kind = rng.randrange(5)
        if kind == 0:
            pool = [j for j in done if jobs[j]["result"] == "fail"]
        elif kind == 1:
            pool = [j for j in done if jobs[j]["certificate_id"] and j not in touched_jobs]
        elif kind == 2:
            pool = [j for j in done if jobs[j]["result"] != "fail" and not jobs[j]["certificate_id"]
                    and (today - date.fromisoformat(jobs[j]["completed_date"])).days > 30]
        elif kind == 3:
            pool = jobs_in("received", "assigned", "in_progress", "cancelled")
        else:
            pool = ["JOB-6666"]
        return {"job_id": rng.choice(pool or ["JOB-6666"])}

    def x_revoke_certificate():
        kind = rng.randrange(4)
        if kind == 0:
            pool = [c for c in certs if certs[c]["status"] == "revoked"]
        elif kind == 1:
            pool = [c for c in certs if certs[c]["status"] == "valid" and certs[c]["valid_until"] < T]
        elif kind == 2:
            pool = [c for c in certs if certs[c]["status"] == "valid" and certs[c]["valid_until"] >= T]
            return {"certificate_id": rng.choice(pool), "reason": "   "}
        else:
            pool = ["CRT-99999"]
        return {"certificate_id": rng.choice(pool or ["CRT-99999"]), "reason": "issued in error"}

    bad_fns = {name: fn for name, fn in locals().items() if name.startswith("x_")}
    while len(out) < n:
        name = rng.choices(names, [WEIGHTS[x] for x in names])[0]
        res = bad_fns["x_" + name]()
        if isinstance(res, tuple):
            emit(res[1], name, res[2])
        else:
            emit(rng.random(), name, res)

    out.sort(key=lambda t: t[0])
    return [(name, args) for _, name, args in out]
