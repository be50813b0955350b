"""Differential probes for the water utility API: about 55-60% valid calls, the rest calls the docs refuse."""
from datetime import date, timedelta
from decimal import Decimal

TIERS = {"residential": [(10, Decimal("3.25")), (15, Decimal("4.10")), (None, Decimal("5.60"))],
         "commercial": [(100, Decimal("3.05")), (None, Decimal("3.90"))]}


def _usage(units, rc):
    left, tot = units, Decimal(0)
    for size, price in TIERS[rc]:
        part = left if size is None else min(left, size)
        tot += part * price
        left -= part
    return tot


def probes(db, rng, n):
    today = date.fromisoformat(db["meta"]["today"])
    T = today.isoformat()
    acc = sorted(db["accounts"].values(), key=lambda a: a["id"])
    meters = sorted(db["meters"].values(), key=lambda m: m["id"])
    bills = sorted(db["bills"].values(), key=lambda b: b["id"])
    plans = sorted(db["payment_plans"].values(), key=lambda p: p["id"])
    active = [a for a in acc if a["status"] == "active"]
    disc = [a for a in acc if a["status"] == "disconnected"]
    closed = [a for a in acc if a["status"] == "closed"]
    installed = [m for m in meters if m["status"] == "installed"]
    live_meters = [m for m in installed if db["accounts"][m["account_id"]]["status"] == "active"]
    stock = [m for m in meters if m["status"] == "in_stock"]
    not_stock = [m for m in meters if m["status"] != "in_stock"]
    month = T[:7]

    def open_b(a):
        return [b for b in bills if b["account_id"] == a["id"] and b["status"] == "open"]

    def has_plan(a):
        return any(p["account_id"] == a["id"] and p["status"] == "active" for p in plans)

    def recent_cancel(a):
        return any(p["account_id"] == a["id"] and p["status"] == "cancelled"
                   and (today - date.fromisoformat(p["cancelled_date"])).days <= 90 for p in plans)

    def billed_month(a):
        return any(b["account_id"] == a["id"] and b["status"] != "void" and b["issue_date"][:7] == month for b in bills)

    def unbilled(a):
        return any(r["account_id"] == a["id"] and not r["billed"] for r in db["readings"].values())

    def last_est(m):
        mine = [r for r in db["readings"].values() if r["meter_id"] == m["id"]]
        return bool(mine) and max(mine, key=lambda r: (r["reading_date"], r["id"]))["type"] == "estimated"

    def ghost(prefix):
        return prefix + str(rng.randint(9000, 9999))

    def day_after(m, k):
        return (date.fromisoformat(m["last_reading_date"]) + timedelta(days=k)).isoformat()

    def pick(xs):
        return rng.choice(xs) if xs else None

    def take(xs):
        # valid calls consume their target so that later valid calls in a sequence stay valid
        return xs.pop(rng.randrange(len(xs))) if xs else None

    owing = [a for a in acc if a["balance"] > 0]
    billable = [a for a in acc if a["status"] != "closed" and unbilled(a) and not billed_month(a)]
    planable = [a for a in acc if a["status"] != "closed" and a["balance"] >= 50 and not has_plan(a)
                and not recent_cancel(a)]
    np_disc_ok = [a for a in active if not has_plan(a) and any(
        (today - date.fromisoformat(b["due_date"])).days > 30 for b in open_b(a))]
    np_disc_bad = [a for a in active if a not in np_disc_ok]
    reconn_ok = [a for a in disc if a["disconnect_reason"] == "customer_request" or has_plan(a)
                 or not any(b["due_date"] < T for b in open_b(a))]
    reconn_bad = [a for a in disc if a not in reconn_ok]
    swap_acc = [a for a in acc if a["status"] != "closed" and db["meters"][a["meter_id"]]["last_reading_date"] < T]
    leak_ok, leak_bad = [], []
    for b in bills:
        a = db["accounts"][b["account_id"]]
        last = a["last_leak_adjustment_date"]
        fine = (b["status"] == "open" and b["consumption"] >= 2 * a["typical_consumption"]
                and not (last and (today - date.fromisoformat(last)).days < 365))
        (leak_ok if fine else leak_bad).append(b)
    sizes = ["5/8", "3/4", "1", "2"]
    read_pool = [m for m in live_meters if m["last_reading_date"] < T]
    leak_accounts = {b["account_id"] for b in leak_ok}
    pay_pool = [a for a in owing if a["id"] not in leak_accounts]
    needs_plan = {a["id"] for a in reconn_ok if a["disconnect_reason"] == "nonpayment"}
    active_plans = [p for p in plans if p["status"] == "active" and p["account_id"] not in needs_plan]
    planable = [a for a in planable if a not in np_disc_ok]
    cr_pool = [a for a in active if a not in np_disc_ok]
    spare = list(stock)

    def forget_meter(mid):
        for m in [m for m in read_pool if m["id"] == mid]:
            read_pool.remove(m)

    def valid(tool):
        if tool == "get_account":
            return {"account_id": pick(acc)["id"]}
        if tool == "search_accounts":
            a = pick(acc)
            word = rng.choice([a["customer_name"], a["service_address"]]).split()[-1]
            q = rng.choice([word.lower(), word.upper(), word[:4]])
            args = {"query": q}
            if rng.random() < 0.4:
                args["status"] = rng.choice(["active", "disconnected", "closed"])
            if rng.random() < 0.3:
                args = {"rate_class": rng.choice(["residential", "commercial"])}
            return args
        if tool == "list_bills":
            args = {"account_id": pick(acc)["id"]}
            if rng.random() < 0.5:
                args["status"] = rng.choice(["open", "paid", "void"])
            return args
        if tool == "list_meter_readings":
            args = {"meter_id": pick(meters)["id"]}
            if rng.random() < 0.6:
                args["from_date"] = "2025-%02d-%02d" % (rng.randint(2, 4), rng.randint(1, 28))
            if rng.random() < 0.5:
                args["to_date"] = "2025-%02d-%02d" % (rng.randint(5, 6), rng.randint(1, 15))
            return args
        if tool == "submit_reading":
            m = take(read_pool)
            if m is None:
                return None
            room = (today - date.fromisoformat(m["last_reading_date"])).days
            args = {"meter_id": m["id"], "reading_date": day_after(m, rng.randint(1, room)),
                    "value": m["last_reading_value"] + rng.randint(0, 60)}
            if not last_est(m) and rng.random() < 0.3:
                args["type"] = "estimated"
            elif rng.random() < 0.3:
                args["type"] = "actual"
            return args
        if tool == "generate_bill":
            return {"account_id": take(billable)["id"]} if billable else None
        if tool == "record_payment":
            a = take(pay_pool)
            if a is None:
                return None
            bal = Decimal(str(a["balance"]))
            method = rng.choice(["card", "bank_transfer", "check", "cash"])
            cap = min(bal, Decimal("1000.00")) if method == "card" else bal
            amt = cap if rng.random() < 0.3 else (cap * Decimal(rng.randint(10, 90)) / 100).quantize(Decimal("0.01"))
            return {"account_id": a["id"], "amount": float(max(amt, Decimal("0.01"))), "method": method}
        if tool == "create_payment_plan":
            return {"account_id": take(planable)["id"], "installments": rng.randint(3, 12)} if planable else None
        if tool == "cancel_payment_plan":
            p = take(active_plans)
            return {"plan_id": p["id"], "reason": rng.choice(["customer asked", "moving away", "paid in full elsewhere"])} if p else None
        if tool == "disconnect_service":
            if np_disc_ok and rng.random() < 0.5:
                a = take(np_disc_ok)
                forget_meter(a["meter_id"])
                return {"account_id": a["id"], "reason": "nonpayment"}
            if not cr_pool:
                return None
            a = take(cr_pool)
            forget_meter(a["meter_id"])
            return {"account_id": a["id"], "reason": "customer_request"}
        if tool == "reconnect_service":
            return {"account_id": take(reconn_ok)["id"]} if reconn_ok else None
        if tool == "replace_meter":
            combos = []
            for a in swap_acc:
                old = db["meters"][a["meter_id"]]
                for reason in ("failed", "damaged", "upgrade"):
                    up = reason == "upgrade"
                    cands = [m for m in spare if (sizes.index(m["size"]) > sizes.index(old["size"]) if up
                                                  else m["size"] == old["size"])]
                    if cands:
                        combos.append((a, old, reason, cands))
            if not combos:
                return None
            a, old, reason, cands = pick(combos)
            swap_acc.remove(a)
            new = pick(cands)
            spare.remove(new)
            forget_meter(old["id"])
            return {"account_id": a["id"], "new_meter_id": new["id"],
                    "final_reading": old["last_reading_value"] + rng.randint(0, 40), "reason": reason}
        if tool == "apply_leak_adjustment":
            b = take(leak_ok)
            if b:
                for o in [o for o in leak_ok if o["account_id"] == b["account_id"]]:
                    leak_ok.remove(o)
            return {"bill_id": b["id"], "repair_date": (today - timedelta(days=rng.randint(0, 60))).isoformat()} if b else None

    def invalid(tool):
        r = rng.random()
        if tool == "get_account":
            return {"account_id": rng.choice([ghost("AC"), ghost("AC"), ""])}
        if tool == "search_accounts":
            return rng.choice([{"status": "suspended"}, {"rate_class": "industrial"}, {"query": "a", "status": "pending"}])
        if tool == "list_bills":
            return rng.choice([{"account_id": ghost("AC")}, {"account_id": pick(acc)["id"], "status": "overdue"}])
        if tool == "list_meter_readings":
            m = pick(meters)["id"]
            return rng.choice([{"meter_id": ghost("MTR")}, {"meter_id": m, "from_date": "2025-05-10", "to_date": "2025-04-01"},
                               {"meter_id": m, "from_date": "05/01/2025"}])
        if tool == "submit_reading":
            m = pick(live_meters)
            base = {"meter_id": m["id"], "reading_date": T, "value": m["last_reading_value"] + 5}
            if r < 0.12:
                return dict(base, meter_id=ghost("MTR"))
            if r < 0.24:
                return dict(base, reading_date=(today + timedelta(days=rng.randint(1, 10))).isoformat())
            if r < 0.36:
                return dict(base, reading_date=m["last_reading_date"])
            if r < 0.48:
                return dict(base, value=m["last_reading_value"] - rng.randint(1, 30))
            if r < 0.58:
                return dict(base, value=m["last_reading_value"] + rng.randint(401, 900))
            if r < 0.68:
                inact = [x for x in meters if x["status"] != "installed"] + \
                        [x for x in installed if db["accounts"][x["account_id"]]["status"] != "active"]
                x = pick(inact)
                return {"meter_id": x["id"], "reading_date": T, "value": x["last_reading_value"] + 3}
            if r < 0.78:
                est = [x for x in live_meters if last_est(x) and x["last_reading_date"] < T]
                if est:
                    x = pick(est)
                    return {"meter_id": x["id"], "reading_date": T, "value": x["last_reading_value"] + 4, "type": "estimated"}
            if r < 0.88:
                return dict(base, type="final")
            return dict(base, value=float(m["last_reading_value"]) + 0.5)
        if tool == "generate_bill":
            if r < 0.2:
                return {"account_id": ghost("AC")}
            if r < 0.35:
                return {"account_id": pick(closed)["id"]}
            bad = [a for a in acc if a["status"] != "closed" and (billed_month(a) or not unbilled(a))]
            return {"account_id": pick(bad)["id"]}
        if tool == "record_payment":
            a = pick(owing)
            if r < 0.15:
                return {"account_id": ghost("AC"), "amount": 10.0, "method": "cash"}
            if r < 0.35:
                return {"account_id": a["id"], "amount": round(a["balance"] + rng.randint(1, 200) + 0.25, 2), "method": "check"}
            if r < 0.5:
                big = [x for x in owing if x["balance"] > 1000]
                if big:
                    return {"account_id": pick(big)["id"], "amount": 1000.01 + rng.randint(0, 100), "method": "card"}
            if r < 0.6:
                return {"account_id": a["id"], "amount": rng.choice([0, -20.0]), "method": "cash"}
            if r < 0.7:
                return {"account_id": a["id"], "amount": 12.345, "method": "bank_transfer"}
            if r < 0.8:
                return {"account_id": a["id"], "amount": 10.0, "method": "paypal"}
            zero = [x for x in acc if x["balance"] <= 0]
            return {"account_id": pick(zero)["id"], "amount": 5.0, "method": "cash"}
        if tool == "create_payment_plan":
            a = pick(acc)
            if r < 0.2:
                return {"account_id": a["id"], "installments": rng.choice([1, 2, 13, 24])}
            if r < 0.35:
                return {"account_id": ghost("AC"), "installments": 6}
            if r < 0.5:
                return {"account_id": pick(closed)["id"], "installments": 6}
            if r < 0.65:
                x = [a for a in acc if has_plan(a)]
                return {"account_id": pick(x)["id"], "installments": 4}
            if r < 0.8:
                x = [a for a in acc if recent_cancel(a)]
                if x:
                    return {"account_id": pick(x)["id"], "installments": 5}
            x = [a for a in acc if a["status"] != "closed" and a["balance"] < 50]
            return {"account_id": pick(x)["id"], "installments": 3}
        if tool == "cancel_payment_plan":
            if r < 0.3:
                return {"plan_id": ghost("PP"), "reason": "x"}
            if r < 0.8:
                return {"plan_id": pick([p for p in plans if p["status"] != "active"])["id"], "reason": "duplicate"}
            return {"plan_id": pick(plans)["id"], "reason": ""}
        if tool == "disconnect_service":
            if r < 0.15:
                return {"account_id": ghost("AC"), "reason": "customer_request"}
            if r < 0.35:
                return {"account_id": pick(disc + closed)["id"], "reason": "customer_request"}
            if r < 0.5:
                return {"account_id": pick(active)["id"], "reason": "vacation"}
            return {"account_id": pick(np_disc_bad)["id"], "reason": "nonpayment"}
        if tool == "reconnect_service":
            if r < 0.2:
                return {"account_id": ghost("AC")}
            if r < 0.55:
                return {"account_id": pick(active + closed)["id"]}
            if reconn_bad:
                return {"account_id": pick(reconn_bad)["id"]}
            return {"account_id": pick(active)["id"]}
        if tool == "replace_meter":
            a = pick(swap_acc)
            old = db["meters"][a["meter_id"]]
            same = [m for m in stock if m["size"] == old["size"]]
            other = [m for m in stock if m["size"] != old["size"]]
            smaller = [m for m in stock if sizes.index(m["size"]) <= sizes.index(old["size"])]
            base = {"account_id": a["id"], "new_meter_id": pick(same or stock)["id"],
                    "final_reading": old["last_reading_value"] + 3, "reason": "failed"}
            if r < 0.12:
                return dict(base, new_meter_id=pick(not_stock)["id"])
            if r < 0.24 and other:
                return dict(base, new_meter_id=pick(other)["id"])
            if r < 0.36 and smaller:
                return dict(base, new_meter_id=pick(smaller)["id"], reason="upgrade")
            if r < 0.48:
                return dict(base, final_reading=old["last_reading_value"] - rng.randint(1, 20))
            if r < 0.58:
                return dict(base, account_id=pick(closed)["id"])
            if r < 0.68:
                return dict(base, new_meter_id=ghost("MTR"))
            if r < 0.78:
                return dict(base, reason="stolen")
            if r < 0.88:
                return dict(base, final_reading=old["last_reading_value"] + 450)
            return dict(base, account_id=ghost("AC"))
        if tool == "apply_leak_adjustment":
            good = pick(leak_ok) or pick([b for b in bills if b["status"] == "open"])
            if r < 0.15:
                return {"bill_id": ghost("BL"), "repair_date": T}
            if r < 0.35:
                return {"bill_id": good["id"], "repair_date": (today + timedelta(days=rng.randint(1, 20))).isoformat()}
            if r < 0.5:
                return {"bill_id": good["id"], "repair_date": (today - timedelta(days=rng.randint(61, 200))).isoformat()}
            if r < 0.6:
                return {"bill_id": good["id"], "repair_date": "2025-13-01"}
            return {"bill_id": pick(leak_bad)["id"], "repair_date": (today - timedelta(days=rng.randint(0, 50))).isoformat()}

    tools = ["reconnect_service", "disconnect_service", "apply_leak_adjustment", "cancel_payment_plan",
             "create_payment_plan", "generate_bill", "record_payment", "replace_meter", "submit_reading",
             "get_account", "search_accounts", "list_bills", "list_meter_readings"]
    weights = [1.5, 1.5, 1.5, 1, 1.5, 1.5, 2, 2, 2, 1, 1, 1, 1]
    # every tool gets one valid and one invalid call; the rest is drawn with about 42% invalid calls
    n_invalid = max(len(tools), round(n * 0.42)) if n >= 2 * len(tools) else n // 2
    slots = [(t, True) for t in tools] + [(t, False) for t in tools]
    flags = [False] * (n_invalid - len(tools)) + [True] * (n - n_invalid - len(tools))
    slots += [(None, f) for f in flags]
    slots = slots[:n]
    head, rest = slots[:len(tools)], slots[len(tools):]
    rng.shuffle(rest)
    slots = head + rest  # the guaranteed valid call of every tool comes first, from the untouched start state
    out = []
    for fixed, want_valid in slots:
        args = None
        for attempt in range(60):
            tool = fixed if fixed and attempt == 0 else rng.choices(tools, weights)[0]
            args = valid(tool) if want_valid else invalid(tool)
            if args is not None:
                break
        if args is None:
            args = invalid(tool)
        out.append((tool, args))
    return out
