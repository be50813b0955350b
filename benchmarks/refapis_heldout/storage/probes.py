"""Probe generator for the Keepwell Self Storage API: ~60% valid calls, ~40% calls to be refused."""
import calendar
import datetime as dt

NAMES = ["Wren Callaway", "Dario Fontaine", "Mei Tanaka", "Oskar Beil", "Amara Nwosu", "Jules Marchetti"]
REASONS = ["changed_plans", "found_elsewhere", "unit_too_small", "price", "other"]


def probes(db, rng, n):
    today = dt.date.fromisoformat(db["meta"]["today"])
    D = lambda k: (today + dt.timedelta(days=k)).isoformat()
    C = rng.choice
    units, tenants, ags, invs = db["units"], db["tenants"], db["agreements"], db["invoices"]
    codes = db["access_codes"]
    uids, tids, aids, iids = sorted(units), sorted(tenants), sorted(ags), sorted(invs)
    by_unit, by_ag, by_inv = {}, {}, {}
    for u in uids:
        by_unit.setdefault(units[u]["status"], []).append(u)
    for a in aids:
        by_ag.setdefault(ags[a]["status"], []).append(a)
    for i in iids:
        by_inv.setdefault(invs[i]["status"], []).append(i)
    overdue_t = {invs[i]["tenant_id"] for i in by_inv.get("overdue", [])}
    overdue_a = {invs[i]["agreement_id"] for i in by_inv.get("overdue", [])}
    unpaid_a = {i["agreement_id"] for i in invs.values() if i["status"] != "paid"}
    n_open = {t: sum(1 for a in ags.values() if a["tenant_id"] == t
                     and a["status"] in ("reserved", "active", "notice_given")) for t in tids}
    good_t = [t for t in tids if tenants[t]["status"] == "active" and t not in overdue_t and n_open[t] < 3]
    bad_t = [t for t in tids if tenants[t]["status"] == "blocked" or t in overdue_t or n_open[t] >= 3]
    avail = by_unit["available"]
    avail_big = [u for u in avail if units[u]["size_code"] != "locker"]
    lockers = [u for u in avail if units[u]["size_code"] == "locker"]
    taken = [u for u in uids if units[u]["status"] != "available"]

    def ok_t(a):
        return tenants[ags[a]["tenant_id"]]["status"] == "active" and ags[a]["tenant_id"] not in overdue_t

    res = by_ag["reserved"]
    res_ok = [a for a in res if ags[a]["start_date"] <= today.isoformat() and ok_t(a)]
    res_early = [a for a in res if ags[a]["start_date"] > today.isoformat()]
    active, notice = by_ag["active"], by_ag["notice_given"]
    live = active + notice
    closed = by_ag["ended"] + by_ag["cancelled"]
    out_ok = [a for a in notice if ags[a]["move_out_date"] <= today.isoformat() and a not in unpaid_a]
    out_bad = [a for a in notice if ags[a]["move_out_date"] > today.isoformat() or a in unpaid_a]
    this_p, nxt = today.strftime("%Y-%m"), (today.replace(day=28) + dt.timedelta(days=5)).strftime("%Y-%m")
    billed = {(i["agreement_id"], i["period"]) for i in invs.values()}

    def billable(a, p):
        y, m = int(p[:4]), int(p[5:])
        last = dt.date(y, m, calendar.monthrange(y, m)[1])
        mo = ags[a]["move_out_date"]
        return (a, p) not in billed and (mo is None or mo >= f"{p}-01") and ags[a]["move_in_date"] <= last.isoformat()

    inv_ok = [(a, p) for a in live for p in (this_p, nxt) if billable(a, p)]
    inv_dup = sorted(billed & {(a, p) for a in live for p in (this_p, nxt)})
    inv_empty = [(a, nxt) for a in notice if ags[a]["move_out_date"] < f"{nxt}-01" and (a, nxt) not in billed]
    unpaid = by_inv.get("open", []) + by_inv.get("overdue", [])
    late_ok = [i for i in by_inv.get("open", []) if (today - dt.date.fromisoformat(invs[i]["due_on"])).days > 5]
    late_grace = [i for i in by_inv.get("open", []) if i not in late_ok]
    in_use = sorted(c["code"] for c in codes.values() if c["status"] != "revoked")
    revoked_codes = sorted(c["code"] for c in codes.values() if c["status"] == "revoked")
    code_ok = [a for a in live if a not in overdue_a]
    tenant_emails = [tenants[t]["email"] for t in tids]

    def outstanding(i):
        return round(invs[i]["total"] - invs[i]["amount_paid"], 2)

    def fresh_code():
        while True:
            c = f"{rng.randint(0, 999999):06d}"
            if c not in in_use and len(set(c)) > 1 and c not in ("123456", "654321"):
                return c

    def notice_window(a):
        lo = max(10, (dt.date.fromisoformat(ags[a]["move_in_date"]) + dt.timedelta(days=30) - today).days)
        return lo, 90

    def valid(tool):
        if tool == "list_units":
            a = {}
            for k, vals in (("site", ["NB", "RV", "HL"]), ("size_code", ["locker", "5x5", "5x10", "10x10", "10x15", "10x20"]),
                            ("status", ["available", "reserved", "occupied", "maintenance"]),
                            ("climate_controlled", [True, False]), ("max_rate", [60, 99.5, 150, 250])):
                if rng.random() < 0.35:
                    a[k] = C(vals)
            return a
        if tool == "list_tenants":
            t = tenants[C(tids)]
            return C([{"query": t["full_name"].split()[1].upper()}, {"query": t["email"][:5]},
                      {"status": C(["active", "blocked"])}, {}, {"query": "zzq"}])
        if tool == "list_agreements":
            return C([{"tenant_id": C(tids)}, {"unit_id": C(uids)}, {"status": C(sorted(by_ag))},
                      {"tenant_id": C(tids), "status": "active"}, {}])
        if tool == "list_invoices":
            return C([{"tenant_id": C(tids)}, {"agreement_id": C(live)}, {"status": C(sorted(by_inv))},
                      {"period": C(["2025-05", "2025-06", "2025-07"])}, {"status": "overdue", "period": "2025-06"}])
        if tool == "create_tenant":
            nm = C(NAMES)
            return {"full_name": nm, "email": C([f"{nm.split()[0]}.{rng.randint(10, 99)}@Mailbox.example",
                                                 f"{nm.split()[1].lower()}{rng.randint(1, 9)}@new.example"]),
                    "phone": C(["+1555" + str(rng.randint(1000000, 9999999)), "0612345678", "+4477001234567"])}
        if tool == "reserve_unit":
            t, k = C(good_t), rng.random()
            if k < 0.3 and lockers:
                return {"tenant_id": t, "unit_id": C(lockers), "start_date": D(rng.randint(0, 30))}
            a = {"tenant_id": t, "unit_id": C(avail_big), "start_date": D(C([0, 1, 7, 14, 30]))}
            if rng.random() < 0.7:
                a["protection_plan"] = C(["none", "basic", "premium"])
            return a
        if tool == "cancel_reservation":
            return {"agreement_id": C(res), "reason": C(REASONS)}
        if tool == "move_in":
            return {"agreement_id": C(res_ok)} if res_ok else None
        if tool == "give_notice":
            a = C(active)
            lo, hi = notice_window(a)
            return {"agreement_id": a, "move_out_date": D(C([lo, hi, rng.randint(lo, hi)]))}
        if tool == "move_out":
            return {"agreement_id": C(out_ok), "unit_left_clean": C([True, False])} if out_ok else None
        if tool == "issue_invoice":
            a, p = C(inv_ok)
            return {"agreement_id": a, "period": p}
        if tool == "apply_late_fee":
            return {"invoice_id": C(late_ok)} if late_ok else None
        if tool == "record_payment":
            i = C(unpaid)
            o = outstanding(i)
            amt = C([o, o, round(o / 2, 2), 10])
            amt = min(amt, o)
            return {"invoice_id": i, "amount": amt, "method": "cash" if amt <= 500 and rng.random() < 0.3
                    else C(["card", "bank_transfer"])}
        if tool == "issue_access_code":
            reuse = [c for c in revoked_codes if c not in in_use]
            return {"agreement_id": C(code_ok), "code": C(reuse) if reuse and rng.random() < 0.3 else fresh_code()}

    def invalid(tool):
        k = rng.randrange(6)
        if tool == "list_units":
            return C([{"site": "DT"}, {"size_code": "10X10"}, {"status": "rented"},
                      {"climate_controlled": "yes"}, {"max_rate": "cheap"}, {"floor": 1}])
        if tool == "list_tenants":
            return C([{"status": "inactive"}, {"query": "   "}, {"query": ""}, {"name": "Okafor"}])
        if tool == "list_agreements":
            return C([{"tenant_id": "T9999"}, {"unit_id": "NB-999"}, {"status": "open"}, {"tenant_id": 1001}])
        if tool == "list_invoices":
            return C([{"tenant_id": "T0001"}, {"agreement_id": "AG9999"}, {"status": "unpaid"},
                      {"period": C(["2025-6", "2025-13", "June 2025", "2025/06"])}])
        if tool == "create_tenant":
            base = {"full_name": C(NAMES), "email": "new.person@mail.example", "phone": "+15551234567"}
            if k == 0:
                base["email"] = C(tenant_emails).upper()
            elif k == 1:
                base["email"] = C(["no-at-sign.example", "a@b", "two@@x.example", "sp ace@x.example"])
            elif k == 2:
                base["phone"] = C(["555-123-4567", "12345", "+1 555 123 4567", "+1234567890123456"])
            elif k == 3:
                base["full_name"] = C(["", "  "])
            elif k == 4:
                del base["phone"]
            else:
                base["email"] = C(tenant_emails)
            return base
        if tool == "reserve_unit":
            base = {"tenant_id": C(good_t), "unit_id": C(avail_big), "start_date": D(3)}
            if k == 0:
                base["tenant_id"] = C(bad_t)
            elif k == 1:
                base["unit_id"] = C(taken)
            elif k == 2:
                base["start_date"] = C([D(-1), D(-20), D(31), D(60), "2025-02-30", "18/06/2025"])
            elif k == 3 and lockers:
                base.update(unit_id=C(lockers), protection_plan=C(["basic", "premium"]))
            elif k == 4:
                base["protection_plan"] = C(["gold", "Basic"])
            else:
                base[C(["tenant_id", "unit_id"])] = C(["T0000", "XX-101"])
            return base
        if tool == "cancel_reservation":
            return C([{"agreement_id": C(live + closed), "reason": C(REASONS)},
                      {"agreement_id": C(res), "reason": "weather"}, {"agreement_id": C(res)},
                      {"agreement_id": "AG0001", "reason": "other"}])
        if tool == "move_in":
            pool = res_early + [a for a in res if not ok_t(a)]
            return C([{"agreement_id": C(pool)} if pool else {"agreement_id": C(live)},
                      {"agreement_id": C(live + closed)}, {"agreement_id": "AG1"}])
        if tool == "give_notice":
            a = C(active)
            lo, hi = notice_window(a)
            return C([{"agreement_id": a, "move_out_date": D(C([lo - 1, 9, 0, -3, hi + 1, 120]))},
                      {"agreement_id": C(notice + res + closed), "move_out_date": D(30)},
                      {"agreement_id": a, "move_out_date": "2025-07-32"}, {"agreement_id": a}])
        if tool == "move_out":
            return C([{"agreement_id": C(out_bad), "unit_left_clean": True},
                      {"agreement_id": C(active + res + closed), "unit_left_clean": C([True, False])},
                      {"agreement_id": C(out_ok or notice), "unit_left_clean": "yes"},
                      {"agreement_id": C(out_ok or notice)}])
        if tool == "issue_invoice":
            a = C(live)
            opts = [{"agreement_id": a, "period": C(["2025-05", "2025-08", "2024-06", "2026-06"])},
                    {"agreement_id": C(res + closed), "period": this_p},
                    {"agreement_id": a, "period": C(["2025-7", "July"])}]
            if inv_dup:
                d = C(inv_dup)
                opts.append({"agreement_id": d[0], "period": d[1]})
            if inv_empty:
                d = C(inv_empty)
                opts.append({"agreement_id": d[0], "period": d[1]})
            return C(opts)
        if tool == "apply_late_fee":
            pool = by_inv.get("overdue", []) + by_inv.get("paid", [])
            return C([{"invoice_id": C(pool)}, {"invoice_id": C(late_grace)} if late_grace
                      else {"invoice_id": C(pool)}, {"invoice_id": "INV0001"}])
        if tool == "record_payment":
            i = C(unpaid)
            o = outstanding(i)
            return C([{"invoice_id": i, "amount": round(o + C([0.01, 25]), 2), "method": "card"},
                      {"invoice_id": i, "amount": C([0, -5, 10.005]), "method": "card"},
                      {"invoice_id": C(by_inv["paid"]), "amount": 10, "method": "card"},
                      {"invoice_id": i, "amount": min(o, 10), "method": C(["cheque", "crypto"])},
                      {"invoice_id": C([x for x in unpaid if outstanding(x) > 500] or unpaid),
                       "amount": 500.01, "method": "cash"},
                      {"invoice_id": i, "amount": "10", "method": "card"}])
        if tool == "issue_access_code":
            good = C(code_ok)
            return C([{"agreement_id": good, "code": C(in_use)},
                      {"agreement_id": good, "code": C(["12345", "1234567", "12a456", "777777", "123456", "654321"])},
                      {"agreement_id": C(sorted(overdue_a & set(live)) or res), "code": fresh_code()},
                      {"agreement_id": C(res + closed), "code": fresh_code()},
                      {"agreement_id": good, "code": int(fresh_code()[:5] + "1")}])

    tools = ["list_units", "list_tenants", "list_agreements", "list_invoices", "create_tenant", "reserve_unit",
             "cancel_reservation", "move_in", "give_notice", "move_out", "issue_invoice", "apply_late_fee",
             "record_payment", "issue_access_code"]
    weights = [1, 1, 1, 1, 2, 3, 2, 2, 2, 2, 2, 2, 3, 2]
    out = []
    while len(out) < n:
        tool = rng.choices(tools, weights)[0]
        args = valid(tool) if rng.random() < 0.6 else invalid(tool)
        if args is not None:
            out.append((tool, args))
    return out
