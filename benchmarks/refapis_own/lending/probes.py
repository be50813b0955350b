"""Differential probes for the lending-desk reference API: ~60% valid calls, ~40% the docs say to refuse."""
from datetime import date

LIMIT = {"standard": 3, "premium": 6}


class _Ctx:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        pat, cop, loans, holds = db["patrons"], db["copies"], db["loans"], db["holds"]
        self.patrons = sorted(pat)
        self.ok_p = [p for p in self.patrons if pat[p]["status"] == "active" and pat[p]["fines_due"] < 10
                     and pat[p]["loans_out"] < LIMIT[pat[p]["tier"]]]
        self.susp_p = [p for p in self.patrons if pat[p]["status"] == "suspended"]
        self.fined_p = [p for p in self.patrons if pat[p]["status"] == "active" and pat[p]["fines_due"] >= 10]
        self.full_p = [p for p in self.patrons if pat[p]["loans_out"] >= LIMIT[pat[p]["tier"]]
                       and pat[p]["status"] == "active"] or ["P404"]
        self.owing = [p for p in self.patrons if pat[p]["fines_due"] > 0]
        self.copies = sorted(cop)
        self.avail = [c for c in self.copies if cop[c]["status"] == "available"]
        self.loaned = [c for c in self.copies if cop[c]["status"] == "on_loan"]
        self.lost_c = [c for c in self.copies if cop[c]["status"] == "lost"]
        self.loans = sorted(loans)
        self.active_l = [x for x in self.loans if loans[x]["status"] == "active"]
        self.closed_l = [x for x in self.loans if loans[x]["status"] != "active"]
        waiting = {h["copy_id"] for h in holds.values() if h["status"] == "waiting"}
        self.renewable = [x for x in self.active_l if loans[x]["renewals"] < 2 and loans[x]["copy_id"] not in waiting
                          and date.fromisoformat(loans[x]["due_on"]) >= self.today
                          and pat[loans[x]["patron_id"]]["status"] == "active"]
        self.overdue = [x for x in self.active_l if date.fromisoformat(loans[x]["due_on"]) < self.today]
        self.maxed = [x for x in self.active_l if loans[x]["renewals"] >= 2] or ["L9999"]
        self.held_l = [x for x in self.active_l if loans[x]["copy_id"] in waiting] or ["L9999"]
        self.holds = sorted(holds)
        self.open_h = [h for h in self.holds if holds[h]["status"] in ("waiting", "ready")]
        self.closed_h = [h for h in self.holds if holds[h]["status"] not in ("waiting", "ready")]
        self.ready = [(holds[h]["patron_id"], holds[h]["copy_id"]) for h in self.holds if holds[h]["status"] == "ready"]
        self.n_open = {p: sum(1 for h in holds.values() if h["patron_id"] == p and h["status"] in ("waiting", "ready"))
                       for p in self.patrons}

    def c(self, seq):
        return self.rng.choice(seq)


def g_get_patron(x, ok):
    return {"patron_id": x.c(x.patrons)} if ok else {"patron_id": x.c(["P404", "p001", "C0001"])}


def g_list_copies(x, ok):
    if not ok:
        return x.c([{"format": "vinyl"}, {"status": "missing"}, {"shelf": "A"}])
    a = {}
    if x.rng.random() < 0.5:
        a["format"] = x.c(["book", "dvd", "audiobook"])
    if x.rng.random() < 0.5:
        a["status"] = x.c(["available", "on_loan", "lost", "on_hold"])
    if x.rng.random() < 0.4:
        a["q"] = x.c(["river", "ATLAS", "Glass", "VOSS", "zzz"])
    return a


def g_get_loan(x, ok):
    return {"loan_id": x.c(x.loans)} if ok else {"loan_id": x.c(["L9999", "L1", "H001"])}


def g_list_loans(x, ok):
    if not ok:
        return x.c([{"patron_id": "P404"}, {"status": "overdue"}, {"overdue": "yes"}])
    a = {}
    if x.rng.random() < 0.6:
        a["patron_id"] = x.c(x.patrons)
    if x.rng.random() < 0.4:
        a["status"] = x.c(["active", "returned", "lost"])
    if x.rng.random() < 0.3:
        a["overdue"] = x.c([True, False])
    return a


def g_list_holds(x, ok):
    if not ok:
        return x.c([{"copy_id": "C9999"}, {"patron_id": "P404"}, {"status": "pending"}])
    a = {}
    if x.rng.random() < 0.4:
        a["patron_id"] = x.c(x.patrons)
    if x.rng.random() < 0.4:
        a["copy_id"] = x.c(x.loaned)
    if x.rng.random() < 0.4:
        a["status"] = x.c(["waiting", "ready", "fulfilled", "cancelled"])
    return a


def g_checkout_copy(x, ok):
    if ok:
        if x.ready and x.rng.random() < 0.25:
            p, c = x.c(x.ready)
            return {"patron_id": p, "copy_id": c}
        return {"patron_id": x.c(x.ok_p), "copy_id": x.c(x.avail)}
    bad = x.rng.randint(0, 6)
    if bad == 0:
        return {"patron_id": x.c(x.susp_p), "copy_id": x.c(x.avail)}
    if bad == 1:
        return {"patron_id": x.c(x.fined_p), "copy_id": x.c(x.avail)}
    if bad == 2:
        return {"patron_id": x.c(x.full_p), "copy_id": x.c(x.avail)}
    if bad == 3:
        return {"patron_id": x.c(x.ok_p), "copy_id": x.c(x.loaned + x.lost_c)}
    if bad == 4:
        others = [p for p in x.ok_p if p not in {r[0] for r in x.ready}]
        return {"patron_id": x.c(others), "copy_id": x.c([r[1] for r in x.ready])}
    if bad == 5:
        return {"patron_id": x.c(x.ok_p), "copy_id": "C9999"}
    return {"patron_id": "P404", "copy_id": x.c(x.avail)}


def g_return_copy(x, ok):
    if ok:
        return {"loan_id": x.c(x.overdue if x.rng.random() < 0.5 else x.active_l)}
    return {"loan_id": x.c(x.closed_l + ["L9999"])}


def g_renew_loan(x, ok):
    if ok:
        return {"loan_id": x.c(x.renewable)}
    return {"loan_id": x.c([x.c(x.overdue), x.c(x.maxed), x.c(x.held_l), x.c(x.closed_l)])}


def g_report_lost(x, ok):
    return {"loan_id": x.c(x.active_l)} if ok else {"loan_id": x.c(x.closed_l + ["L9999"])}


def _holdable(x):
    loans = x.db["loans"]
    for _ in range(50):
        p, c = x.c(x.ok_p), x.c(x.loaned)
        has = any(l["patron_id"] == p and l["copy_id"] == c and l["status"] == "active" for l in loans.values())
        dup = any(h["patron_id"] == p and h["copy_id"] == c and h["status"] in ("waiting", "ready")
                  for h in x.db["holds"].values())
        if not has and not dup and x.n_open[p] < 3:
            return {"patron_id": p, "copy_id": c}
    return {"patron_id": "P404", "copy_id": c}


def g_place_hold(x, ok):
    if ok:
        return _holdable(x)
    bad = x.rng.randint(0, 4)
    if bad == 0:
        return {"patron_id": x.c(x.ok_p), "copy_id": x.c(x.avail + x.lost_c)}
    if bad == 1:
        loan = x.db["loans"][x.c(x.active_l)]
        return {"patron_id": loan["patron_id"], "copy_id": loan["copy_id"]}
    if bad == 2:
        h = x.db["holds"][x.c([h for h in x.open_h if x.db["holds"][h]["status"] == "waiting"])]
        return {"patron_id": h["patron_id"], "copy_id": h["copy_id"]}
    if bad == 3:
        return {"patron_id": x.c(x.susp_p), "copy_id": x.c(x.loaned)}
    return {"patron_id": x.c(x.ok_p), "copy_id": "C9999"}


def g_cancel_hold(x, ok):
    reason = x.c(["changed my mind", "found it elsewhere", "travelling"])
    if ok:
        return {"hold_id": x.c(x.open_h), "reason": reason}
    bad = x.rng.randint(0, 2)
    if bad == 0:
        return {"hold_id": x.c(x.closed_h), "reason": reason}
    if bad == 1:
        return {"hold_id": x.c(x.open_h), "reason": x.c(["", "   ", "x" * 201])}
    return {"hold_id": "H999", "reason": reason}


def g_pay_fines(x, ok):
    if ok:
        p = x.c(x.owing)
        due = x.db["patrons"][p]["fines_due"]
        return {"patron_id": p, "amount": x.c([due, round(due / 2, 2), 1.25])}
    bad = x.rng.randint(0, 3)
    p = x.c(x.owing)
    if bad == 0:
        return {"patron_id": p, "amount": round(x.db["patrons"][p]["fines_due"] + 5, 2)}
    if bad == 1:
        return {"patron_id": p, "amount": x.c([0, -3.5, 1.255])}
    if bad == 2:
        return {"patron_id": p, "amount": "5.00"}
    return {"patron_id": "P404", "amount": 2.0}


GENS = [("get_patron", g_get_patron, 1), ("list_copies", g_list_copies, 1), ("get_loan", g_get_loan, 1),
        ("list_loans", g_list_loans, 1), ("list_holds", g_list_holds, 1), ("checkout_copy", g_checkout_copy, 3),
        ("return_copy", g_return_copy, 3), ("renew_loan", g_renew_loan, 3), ("report_lost", g_report_lost, 2),
        ("place_hold", g_place_hold, 3), ("cancel_hold", g_cancel_hold, 2), ("pay_fines", g_pay_fines, 2)]


def probes(db, rng, n):
    x = _Ctx(db, rng)
    names = [g[0] for g in GENS]
    weights = [g[2] for g in GENS]
    fns = {g[0]: g[1] for g in GENS}
    out = []
    for i in range(n):
        name = names[i] if i < len(names) else rng.choices(names, weights)[0]
        ok = (i < len(names)) or rng.random() < 0.55
        out.append((name, fns[name](x, ok)))
    return out
