"""Probe generator for the nursery trade-desk API: ~60% valid calls, ~40% calls the handbook refuses.

Candidates are drawn from the data; each is checked against the reference on a copy of the state
so that a "valid" probe really is accepted and a "rule-breaking" one really is refused.
"""
import copy
import datetime as dt

import ref_impl as R

NOTES = ["Deliver to the compound behind the depot", "Call the site manager on arrival",
         "Forklift on site", "Narrow lane - small vehicle only"]
NAMES = ["A. Whitcombe", "Brenda Cole", "K. Osei", "Martin Hale"]
DRIVERS = ["Gareth Pryce", "Kerry Ashdown", "Sam Tull"]


def probes(db, rng, n):
    today = dt.date.fromisoformat(db["meta"]["today"])
    C = rng.choice
    cust, plants, lots, runs, orders = (db[k] for k in ("customers", "plants", "lots", "runs", "orders"))
    cids = sorted(cust)
    open_c = [c for c in cids if cust[c]["account_status"] == "open"]
    shut_c = [c for c in cids if cust[c]["account_status"] != "open"]
    oids = sorted(orders)
    by = {}
    for o in oids:
        by.setdefault(orders[o]["status"], []).append(o)
    rids = sorted(runs)
    lids = sorted(lots)

    def day(k):
        return (today + dt.timedelta(days=k)).isoformat()

    def ok_date(k):
        return (today + dt.timedelta(days=k)).weekday() != 6

    def free(lid):
        return lots[lid]["quantity_on_hand"] - lots[lid]["quantity_reserved"]

    def saleable(date):
        dd = dt.date.fromisoformat(date)
        return [lid for lid in lids if not lots[lid]["quarantine"] and free(lid) > 0
                and plants[lots[lid]["plant_id"]]["status"] == "listed"
                and dd.month in plants[lots[lid]["plant_id"]]["available_months"]
                and lots[lid]["ready_date"] <= date]

    def qty_for(lid, target=None):
        p = plants[lots[lid]["plant_id"]]
        packs = free(lid) // p["pack_size"]
        want = max(1, int((target or rng.uniform(160, 900)) / p["list_price"] / p["pack_size"]))
        return p["pack_size"] * max(1, min(packs, want))

    def new_po():
        return f"PO-{rng.randint(7000, 9999)}"

    def order_args(cid, date, k=None):
        pool = saleable(date)
        if not pool:
            return None
        lines = [{"lot_id": lid, "quantity": qty_for(lid)} for lid in rng.sample(pool, min(len(pool), k or C([1, 1, 2, 3])))]
        a = {"customer_id": cid, "delivery_date": date, "lines": lines}
        if cust[cid]["po_required"] or rng.random() < 0.3:
            a["po_reference"] = new_po()
        if rng.random() < 0.3:
            a["delivery_notes"] = C(NOTES)
        return a

    def run_for(o, want_match=True):
        z = cust[orders[o]["customer_id"]]["delivery_zone"]
        m = [r for r in rids if runs[r]["run_date"] == orders[o]["delivery_date"] and runs[r]["zone"] == z]
        return m if want_match else [r for r in rids if r not in m]

    def recent(o):
        return (today - dt.date.fromisoformat(orders[o]["delivered_on"])).days <= 3

    def valid(tool):
        if tool == "get_customer":
            return {"customer_id": C(cids)}
        if tool == "list_plants":
            a = {}
            for k, v in (("category", C(R.CATEGORIES)), ("pot_size", C(R.POT_SIZES)),
                         ("status", C(R.PLANT_STATUSES)), ("month", rng.randint(1, 12)),
                         ("search", C(["fern", "GRASS", "hydrangea", "acer", "Rose", "ivy"]))):
                if rng.random() < 0.3:
                    a[k] = v
            return a
        if tool == "list_lots":
            a = {}
            if rng.random() < 0.5:
                a["plant_id"] = C(sorted(plants))
            if rng.random() < 0.5:
                a["saleable_only"] = C([True, False])
            if rng.random() < 0.4:
                a["ready_by"] = day(rng.randint(-30, 60))
            return a
        if tool == "list_orders":
            a = {}
            if rng.random() < 0.5:
                a["customer_id"] = C(cids)
            if rng.random() < 0.4:
                a["status"] = C(R.ORDER_STATUSES)
            if rng.random() < 0.2:
                a["run_id"] = C(rids)
            if rng.random() < 0.25:
                a["delivery_date"] = orders[C(oids)]["delivery_date"]
            return a
        if tool == "create_order":
            k = C([k for k in range(2, 75) if ok_date(k)])
            return order_args(C(open_c), day(k))
        if tool == "update_order":
            o = C(by["draft"] + by["confirmed"])
            a = {"order_id": o}
            for key in rng.sample(["delivery_date", "po_reference", "delivery_notes"], rng.randint(1, 3)):
                if key == "delivery_date":
                    base = dt.date.fromisoformat(orders[o]["delivery_date"])
                    a[key] = (base + dt.timedelta(days=C([-2, -1, 1, 2, 3, 7]))).isoformat()
                else:
                    a[key] = new_po() if key == "po_reference" else C(NOTES)
            return a
        if tool == "confirm_order":
            return {"order_id": C(by["draft"])}
        if tool == "cancel_order":
            return {"order_id": C(by["draft"] + by["confirmed"] + by["scheduled"]), "reason": C(R.CANCEL_REASONS)}
        if tool == "assign_order_to_run":
            cands = [o for o in by["confirmed"] if run_for(o)]
            o = C(cands)
            return {"order_id": o, "run_id": C(run_for(o))}
        if tool == "dispatch_run":
            return {"run_id": C([r for r in rids if runs[r]["run_date"] == today.isoformat()]), "driver_name": C(DRIVERS)}
        if tool == "record_delivery":
            return {"order_id": C(by["dispatched"]), "received_by": C(NAMES)}
        if tool == "issue_doa_credit":
            o = C([o for o in by["delivered"] if recent(o)])
            ln = C(orders[o]["lines"])
            left = ln["quantity"] - ln["credited_qty"]
            return {"order_id": o, "line_no": ln["line_no"], "quantity": rng.randint(1, max(1, min(left, 12))),
                    "reason": C(R.DOA_REASONS)}
        if tool == "record_payment":
            c = C([c for c in cids if cust[c]["credit_used"] > 0])
            used = cust[c]["credit_used"]
            a = {"customer_id": c, "amount": C([used, round(used * rng.uniform(0.05, 0.9), 2), 0.01]),
                 "method": C(R.PAY_METHODS)}
            if rng.random() < 0.5:
                a["reference"] = f"BACS {rng.randint(100000, 999999)}"
            return a

    def invalid(tool):
        if tool == "get_customer":
            return {"customer_id": C(["CU9999", "cu1001", "CU101", ""])}
        if tool == "list_plants":
            return C([{"category": "bulb"}, {"pot_size": "15L"}, {"month": C([0, 13, "10"])},
                      {"search": "   "}, {"status": "active"}, {"colour": "red"}])
        if tool == "list_lots":
            return C([{"plant_id": "PL999"}, {"saleable_only": "yes"}, {"ready_by": C(["2025-13-01", "next week"])}])
        if tool == "list_orders":
            return C([{"status": "shipped"}, {"customer_id": "CU0001"}, {"run_id": "DR9999"},
                      {"delivery_date": "14/10/2025"}])
        if tool == "create_order":
            k = rng.randrange(14)
            date = day(C([x for x in range(3, 40) if ok_date(x)]))
            a = order_args(C(open_c), date, 1) or {"customer_id": C(open_c), "delivery_date": date, "lines": []}
            ln = a["lines"][0] if a["lines"] else {"lot_id": C(lids), "quantity": 12}
            if k == 0:
                a["customer_id"] = C(shut_c)
            elif k == 1:
                a["delivery_date"] = day(C([0, 1, 121, 150, -3]))
            elif k == 2:
                a["delivery_date"] = day(C([x for x in range(2, 60) if not ok_date(x)]))
            elif k == 3:  # perennials and ferns are not lifted in winter
                lid = C([x for x in lids if 12 not in plants[lots[x]["plant_id"]]["available_months"]])
                a["delivery_date"], a["lines"] = "2025-12-09", [{"lot_id": lid, "quantity": qty_for(lid)}]
            elif k == 4:
                lid = C([x for x in lids if lots[x]["ready_date"] > day(3)])
                ready = dt.date.fromisoformat(lots[lid]["ready_date"])
                a["delivery_date"] = (ready - dt.timedelta(days=C([1, 2, 5]))).isoformat()
                a["lines"] = [{"lot_id": lid, "quantity": qty_for(lid)}]
            elif k == 5:
                lid = C([x for x in lids if lots[x]["quarantine"] or plants[lots[x]["plant_id"]]["status"] != "listed"])
                a["lines"] = [{"lot_id": lid, "quantity": plants[lots[lid]["plant_id"]]["pack_size"] * 20}]
            elif k == 6:
                lid = C([x for x in lids if plants[lots[x]["plant_id"]]["pack_size"] > 1])
                a["lines"] = [{"lot_id": lid, "quantity": plants[lots[lid]["plant_id"]]["pack_size"] * 30 + C([1, 5])}]
            elif k == 7:
                ln["quantity"] = free(ln["lot_id"]) + plants[lots[ln["lot_id"]]["plant_id"]]["pack_size"] * C([1, 10])
            elif k == 8:
                ln["quantity"] = plants[lots[ln["lot_id"]]["plant_id"]]["pack_size"]
            elif k == 9:
                po_c = [c for c in open_c if cust[c]["po_required"]]
                a["customer_id"] = C(po_c)
                a.pop("po_reference", None)
            elif k == 10:
                used = [o for o in oids if orders[o]["po_reference"] and orders[o]["status"] != "cancelled"
                        and cust[orders[o]["customer_id"]]["account_status"] == "open"]
                o = C(used)
                a["customer_id"], a["po_reference"] = orders[o]["customer_id"], C([str.lower, str.upper, str])(orders[o]["po_reference"])
            elif k == 11:
                a["lines"] = C([[ln, dict(ln)], [], [ln] * 11, "LT5001"])
            elif k == 12:
                a["lines"] = [dict(ln, quantity=C([0, -12, 12.0, "24", None]))] if rng.random() < 0.7 else [dict(ln, grade="A")]
            else:
                a["lines"] = [{"lot_id": C(["LT9999", "lt5001"]), "quantity": 12}]
            return a
        if tool == "update_order":
            k = rng.randrange(5)
            if k == 0:
                return {"order_id": C(by["scheduled"] + by["delivered"] + by["cancelled"] + by["dispatched"]),
                        "delivery_notes": C(NOTES)}
            o = C(by["draft"] + by["confirmed"])
            if k == 1:
                return C([{"order_id": o}, {"order_id": o, "delivery_notes": "  "}, {"order_id": o, "lines": []}])
            if k == 2:
                return {"order_id": o, "delivery_date": C([day(1), day(0), day(130), day(-2),
                                                           day(C([x for x in range(2, 40) if not ok_date(x)]))])}
            if k == 3:
                mine = [x for x in oids if orders[x]["customer_id"] == orders[o]["customer_id"] and x != o
                        and orders[x]["po_reference"] and orders[x]["status"] != "cancelled"]
                if mine:
                    return {"order_id": o, "po_reference": orders[C(mine)]["po_reference"].upper()}
            return {"order_id": o, "delivery_date": C(["2026-07-01", "2025-12-10", "2026-01-13", "2025-11-31"])}
        if tool == "confirm_order":
            return {"order_id": C(by["draft"] * 2 + by["confirmed"] + by["delivered"] + by["cancelled"] + ["SO99999"])}
        if tool == "cancel_order":
            if rng.random() < 0.25:
                return {"order_id": C(by["draft"] + by["confirmed"]), "reason": C(["changed_mind", "", None])}
            return {"order_id": C(by["dispatched"] + by["delivered"] + by["cancelled"]), "reason": "other"}
        if tool == "assign_order_to_run":
            k = rng.randrange(5)
            if k == 0:
                return {"order_id": C(by["draft"] + by["scheduled"] + by["delivered"]), "run_id": C(rids)}
            if k == 4:  # the order's run has no room left for it
                full = [(o, r) for o in by["confirmed"] for r in run_for(o)
                        if runs[r]["load_units"] + orders[o]["load_units"] > runs[r]["capacity_units"]]
                o, r = C(full)
                return {"order_id": o, "run_id": r}
            o = C(by["confirmed"])
            if k == 1:
                return {"order_id": o, "run_id": C([r for r in run_for(o, False) if runs[r]["status"] == "planned"])}
            if k == 2:
                return {"order_id": o, "run_id": C(["DR9999", "DR34"])}
            sched = C(by["scheduled"])
            return {"order_id": sched, "run_id": orders[sched]["run_id"]}
        if tool == "dispatch_run":
            k = rng.randrange(4)
            if k == 0:
                return {"run_id": C([r for r in rids if runs[r]["run_date"] > today.isoformat()]), "driver_name": C(DRIVERS)}
            if k == 1:
                return {"run_id": C([r for r in rids if runs[r]["status"] != "planned"]), "driver_name": C(DRIVERS)}
            if k == 2:
                return {"run_id": C([r for r in rids if runs[r]["run_date"] == today.isoformat()]),
                        "driver_name": C(["", "   ", None])}
            return {"run_id": C([r for r in rids if runs[r]["run_date"] == today.isoformat()])}
        if tool == "record_delivery":
            if rng.random() < 0.3:
                return {"order_id": C(by["dispatched"]), "received_by": C(["", None])}
            return {"order_id": C(by["scheduled"] + by["delivered"] + by["confirmed"]), "received_by": C(NAMES)}
        if tool == "issue_doa_credit":
            k = rng.randrange(5)
            old = [o for o in by["delivered"] if not recent(o)]
            o = C(old if k == 0 else by["scheduled"] + by["dispatched"] if k == 1 else
                  [o for o in by["delivered"] if recent(o)])
            ln = C(orders[o]["lines"])
            a = {"order_id": o, "line_no": ln["line_no"], "quantity": 1, "reason": C(R.DOA_REASONS)}
            if k == 2:
                grade_b = [(o, x) for o in by["delivered"] if recent(o) for x in orders[o]["lines"]
                           if lots[x["lot_id"]]["grade"] == "B"]
                if grade_b and rng.random() < 0.5:
                    o, x = C(grade_b)
                    a.update(order_id=o, line_no=x["line_no"])
                else:
                    a["line_no"] = len(orders[o]["lines"]) + C([1, 4])
            elif k == 3:
                a["quantity"] = C([0, -1, ln["quantity"] - ln["credited_qty"] + C([1, 50])])
            elif k == 4:
                a["reason"] = C(["wilted", "late_delivery"])
            return a
        if tool == "record_payment":
            c = C(cids)
            used = cust[c]["credit_used"]
            return C([{"customer_id": c, "amount": round(used + C([0.01, 500]), 2), "method": "card"},
                      {"customer_id": c, "amount": C([0, -50, 10.005]), "method": "bank_transfer"},
                      {"customer_id": c, "amount": 10, "method": C(["cash", "paypal"])},
                      {"customer_id": "CU0999", "amount": 10, "method": "cheque"},
                      {"customer_id": c, "amount": 10, "method": "card", "reference": "  "}])

    tools = sorted(R.PARAMS)
    weights = {t: (2 if t in R.WRITE_TOOLS else 1) for t in tools}
    weights["create_order"] = 3
    out = []
    while len(out) < n:
        tool = rng.choices(tools, [weights[t] for t in tools])[0]
        want_ok = rng.random() < 0.58
        for _ in range(30):
            try:
                args = valid(tool) if want_ok else invalid(tool)
            except IndexError:  # an empty candidate pool: draw again
                continue
            if args is None:
                continue
            try:
                R.invoke(copy.deepcopy(db), tool, copy.deepcopy(args))
                accepted = True
            except R.RefError:
                accepted = False
            if accepted == want_ok:
                out.append((tool, args))
                break
    return out
