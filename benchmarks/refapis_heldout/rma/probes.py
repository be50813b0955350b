"""Differential probes for the RMA desk API: ~60% valid calls, ~40% calls the docs say must be refused."""
from datetime import date, timedelta

OPEN = {"requested", "approved", "received", "inspected", "repaired", "replaced", "refunded"}
LIMIT = {"standard": 2, "pro": 4}


def probes(db, rng, n):
    today = date.fromisoformat(db["meta"]["today"])
    T = today.isoformat()
    cust, prods, rmas = db["customers"], db["products"], db["rmas"]
    labels, lines = db["shipping_labels"], db["product_lines"]

    def by_status(*st):
        return sorted(k for k, r in rmas.items() if r["status"] in st)

    def pick(seq, default=None):
        seq = list(seq)
        return rng.choice(seq) if seq else default

    def active_label(r):
        return bool(r["label_id"]) and labels[r["label_id"]]["status"] == "active"

    def open_count(cid):
        return sum(1 for r in rmas.values() if r["customer_id"] == cid and r["status"] in OPEN)

    def days_since(d):
        return (today - date.fromisoformat(d)).days

    open_serials = {r["serial"] for r in rmas.values() if r["status"] in OPEN}
    rma_ok = [s for s, p in sorted(prods.items()) if p["status"] == "active" and s not in open_serials
              and cust[p["customer_id"]]["status"] == "active" and lines[p["line_id"]]["end_of_service"] >= T
              and open_count(p["customer_id"]) < LIMIT[cust[p["customer_id"]]["tier"]]]
    active_cust = sorted(k for k, c in cust.items() if c["status"] == "active")
    suspended = sorted(k for k, c in cust.items() if c["status"] == "suspended")
    fresh_appr = [k for k in by_status("approved") if rmas[k]["approval_expires_on"] >= T]
    stale_appr = [k for k in by_status("approved") if rmas[k]["approval_expires_on"] < T]
    used_rmas = set()

    def take(pool):
        left = [x for x in pool if x not in used_rmas]
        if not left:
            return pick(pool)
        x = rng.choice(left)
        used_rmas.add(x)
        return x

    def new_serial(prefix):
        while True:
            s = "%s%06d" % (prefix, rng.randint(100000, 899999))
            if s not in prods and s not in db["stock_units"]:
                return s

    # ---- valid generators
    def v_check():
        s = pick(sorted(prods))
        return {"serial": s.lower() if rng.random() < 0.3 else s}

    def v_list_products():
        a = {}
        c = rng.random()
        if c < 0.4:
            a["customer_id"] = pick(sorted(cust))
        elif c < 0.6:
            a["line_id"] = pick(sorted(lines))
            a["status"] = pick(["active", "replaced", "refunded"])
        elif c < 0.8:
            a["serial_contains"] = pick(sorted(prods))[:4].lower()
        else:
            a["status"] = "replaced"
        return a

    def v_list_rmas():
        a = {}
        c = rng.random()
        if c < 0.3:
            a["customer_id"] = pick(sorted(cust))
        elif c < 0.55:
            a["status"] = pick(sorted(OPEN | {"rejected", "closed"}))
        elif c < 0.8:
            a["requested_from"] = (today - timedelta(days=rng.randint(20, 200))).isoformat()
            a["requested_to"] = (today - timedelta(days=rng.randint(0, 19))).isoformat()
        else:
            a["serial"] = pick(sorted(r["serial"] for r in rmas.values()))
        return a

    def v_get_rma():
        return {"rma_id": pick(sorted(rmas))}

    def v_register():
        ln = lines[pick(sorted(lines))]
        back = rng.randint(0, 330)
        pdate = max(today - timedelta(days=back), date.fromisoformat(ln["launch_date"]))
        price = round(ln["list_price"] * rng.choice([1, 0.9, 0.75]), 2)
        return {"customer_id": pick(active_cust), "serial": new_serial(ln["serial_prefix"]),
                "line_id": ln["line_id"], "purchase_date": pdate.isoformat(), "purchase_price": price}

    def v_create_rma():
        s = take(rma_ok)
        if s is None:
            return None
        p = prods[s]
        reason = "dead_on_arrival" if days_since(p["purchase_date"]) <= 30 and rng.random() < 0.6 else \
            pick(["defect", "cosmetic", "other"])
        a = {"customer_id": p["customer_id"], "serial": s, "reason": reason}
        if rng.random() < 0.5:
            a["description"] = pick(["Stopped heating after a week.", "Lid hinge snapped.", "Error E4 on boot."])
        return a

    def v_approve():
        k = take(by_status("requested"))
        return {"rma_id": k} if k else None

    def v_reject():
        k = take(by_status("requested", "approved"))
        return {"rma_id": k, "reason": pick(["Photos show impact damage.", "Duplicate request."])} if k else None

    def v_label():
        k = take([x for x in fresh_appr if not active_label(rmas[x])] or fresh_appr)
        return {"rma_id": k, "carrier": pick(["ups", "fedex", "dhl"]),
                **({"service": pick(["ground", "express"])} if rng.random() < 0.6 else {})} if k else None

    def v_void():
        k = pick(sorted(x for x, l in labels.items() if l["status"] == "active"))
        return {"label_id": k} if k else None

    def v_receive():
        k = take([x for x in fresh_appr if active_label(rmas[x])])
        return {"rma_id": k} if k else None

    def v_inspect():
        k = take(by_status("received"))
        a = {"rma_id": k, "outcome": pick(["defect_confirmed", "defect_confirmed", "no_fault_found", "customer_damage"])}
        if rng.random() < 0.5:
            a["notes"] = "Bench tested for 2 hours."
        return a if k else None

    def v_resolve():
        k = take([x for x in by_status("inspected") if rmas[x]["inspection_outcome"] != "no_fault_found"])
        if not k:
            return None
        r = rmas[k]
        covered = r["in_warranty"] and r["inspection_outcome"] == "defect_confirmed"
        opts = ["repair"]
        if covered:
            opts.append("refund" if days_since(prods[r["serial"]]["purchase_date"]) <= 180 else "repair")
            if any(u["line_id"] == r["line_id"] and u["status"] == "available" for u in db["stock_units"].values()):
                opts.append("replace")
        a = {"rma_id": k, "resolution": pick(opts)}
        if a["resolution"] == "refund":
            a["refund_method"] = pick(["original_payment", "store_credit"])
        return a

    def v_close():
        pool = by_status("repaired", "replaced", "refunded") + \
            [x for x in by_status("inspected") if rmas[x]["inspection_outcome"] == "no_fault_found"]
        k = take(pool)
        return {"rma_id": k} if k else None

    # ---- generators for calls that must be refused
    def x_check():
        return {"serial": pick(["ZZ000000", "AE", "XX123456"])}

    def x_list_products():
        return pick([{"customer_id": "C9999"}, {"status": "lost"}, {"line_id": "PL99"}])

    def x_list_rmas():
        return pick([{"requested_from": "2025-13-01"}, {"status": "pending"}, {"customer_id": "C0000"},
                     {"requested_from": T, "requested_to": (today - timedelta(days=10)).isoformat()}])

    def x_get_rma():
        return {"rma_id": pick(["RMA-99999", "RMA-1", "rma-02001x"])}

    def x_register():
        a = v_register()
        ln = lines[a["line_id"]]
        c = rng.randint(0, 6)
        if c == 0:
            a["serial"] = pick(sorted(prods))
        elif c == 1:
            other = pick([l["serial_prefix"] for l in lines.values() if l["line_id"] != a["line_id"]])
            a["serial"] = other + a["serial"][2:]
        elif c == 2:
            a["purchase_date"] = (today + timedelta(days=rng.randint(1, 20))).isoformat()
        elif c == 3:
            a["purchase_date"] = (today - timedelta(days=rng.randint(366, 500))).isoformat()
        elif c == 4:
            a["purchase_price"] = round(ln["list_price"] + 25, 2)
        elif c == 5 and suspended:
            a["customer_id"] = pick(suspended)
        else:
            a["serial"] = a["serial"][:7]
        return a

    def x_create_rma():
        c = rng.randint(0, 6)
        act = sorted(s for s, p in prods.items() if p["status"] == "active")
        if c == 0:
            s = pick(act)
            other = pick([k for k in active_cust if k != prods[s]["customer_id"]])
            return {"customer_id": other, "serial": s, "reason": "defect"}
        if c == 1:
            s = pick(sorted(open_serials))
            return {"customer_id": prods[s]["customer_id"], "serial": s, "reason": "defect"}
        if c == 2:
            s = pick([x for x in act if days_since(prods[x]["purchase_date"]) > 30])
            return {"customer_id": prods[s]["customer_id"], "serial": s, "reason": "dead_on_arrival"}
        if c == 3:
            s = pick([x for x in act if lines[prods[x]["line_id"]]["end_of_service"] < T], pick(act))
            return {"customer_id": prods[s]["customer_id"], "serial": s, "reason": "defect"}
        if c == 4:
            s = pick(sorted(x for x, p in prods.items() if p["status"] != "active"))
            return {"customer_id": prods[s]["customer_id"], "serial": s, "reason": "other"}
        if c == 5:
            full = [p for s, p in sorted(prods.items()) if p["status"] == "active" and s not in open_serials and
                    open_count(p["customer_id"]) >= LIMIT[cust[p["customer_id"]]["tier"]]]
            p = pick(full) or prods[pick(act)]
            return {"customer_id": p["customer_id"], "serial": p["serial"], "reason": "defect" if full else "broken"}
        s = pick(rma_ok)
        return {"customer_id": prods[s]["customer_id"], "serial": s, "reason": "broken"}

    def x_approve():
        return {"rma_id": pick(by_status("approved", "rejected", "closed", "received"))}

    def x_reject():
        if rng.random() < 0.3:
            return {"rma_id": pick(by_status("requested")), "reason": "  "}
        return {"rma_id": pick(by_status("received", "inspected", "closed", "rejected")), "reason": "Too late."}

    def x_label():
        c = rng.randint(0, 3)
        if c == 0:
            return {"rma_id": pick(by_status("requested", "received", "closed")), "carrier": "ups"}
        if c == 1 and stale_appr:
            return {"rma_id": pick(stale_appr), "carrier": "fedex"}
        if c == 2:
            k = pick([x for x in fresh_appr if active_label(rmas[x])])
            if k:
                return {"rma_id": k, "carrier": "dhl"}
        return {"rma_id": pick(fresh_appr or sorted(rmas)), "carrier": pick(["usps", "ups"]), "service": "overnight"}

    def x_void():
        return {"label_id": pick(sorted(x for x, l in labels.items() if l["status"] != "active") + ["LBL-99999"])}

    def x_receive():
        c = rng.randint(0, 2)
        if c == 0:
            k = pick([x for x in fresh_appr if not active_label(rmas[x])])
            if k:
                return {"rma_id": k}
        if c == 1 and stale_appr:
            return {"rma_id": pick(stale_appr)}
        return {"rma_id": pick(by_status("requested", "received", "rejected"))}

    def x_inspect():
        if rng.random() < 0.4:
            return {"rma_id": pick(by_status("received")), "outcome": "broken"}
        return {"rma_id": pick(by_status("approved", "inspected", "closed")), "outcome": "defect_confirmed"}

    def x_resolve():
        c = rng.randint(0, 3)
        insp = by_status("inspected")
        if c == 0:
            return {"rma_id": pick(by_status("received", "approved", "closed")), "resolution": "repair"}
        if c == 1:
            k = pick([x for x in insp if rmas[x]["inspection_outcome"] == "no_fault_found"])
            if k:
                return {"rma_id": k, "resolution": "repair"}
        if c == 2:
            k = pick([x for x in insp if not (rmas[x]["in_warranty"] and rmas[x]["inspection_outcome"] == "defect_confirmed")])
            if k:
                return {"rma_id": k, "resolution": pick(["replace", "refund"])}
        return {"rma_id": pick(insp or sorted(rmas)), "resolution": "upgrade"}

    def x_close():
        pool = by_status("requested", "approved", "received", "closed", "rejected") + \
            [x for x in by_status("inspected") if rmas[x]["inspection_outcome"] != "no_fault_found"]
        return {"rma_id": pick(pool)}

    table = [("check_warranty", v_check, x_check), ("list_products", v_list_products, x_list_products),
             ("list_rmas", v_list_rmas, x_list_rmas), ("get_rma", v_get_rma, x_get_rma),
             ("register_product", v_register, x_register), ("create_rma", v_create_rma, x_create_rma),
             ("approve_rma", v_approve, x_approve), ("reject_rma", v_reject, x_reject),
             ("create_shipping_label", v_label, x_label), ("void_label", v_void, x_void),
             ("receive_rma", v_receive, x_receive), ("record_inspection", v_inspect, x_inspect),
             ("resolve_rma", v_resolve, x_resolve), ("close_rma", v_close, x_close)]
    out = []
    i = 0
    while len(out) < n:
        name, good, bad = table[i % len(table)]
        i += 1
        args = good() if rng.random() < 0.6 else bad()
        if args is None or any(v is None for v in args.values()):
            args = bad()
        if args is None or any(v is None for v in args.values()):
            continue
        out.append((name, args))
    return out
