"""Differential probes for the Ledgerleaf invoicing API.

About 60% of the calls are drawn from the data to be accepted and about 40% break a documented
rule (unknown ids, wrong status, limits, windows, duplicates, bad formats)."""
from datetime import date, timedelta
from decimal import Decimal

UNPAID = ("issued", "partially_paid")
NEW_NAMES = ["Autumn Lookbook", "Website Care Plan", "Investor Update Deck", "Onboarding Illustrations",
             "Retail Window Graphics", "Loyalty Card Design", "Conference Badge Set", "App Store Screens"]
TAGS = ["Phase 2", "2026", "Pilot", "Extension", "Round B", "Refresh"]
LINES = {"hours": ["Design work", "Layout revisions", "Workshop facilitation", "Asset export"],
         "fixed": ["Logo package", "Template build", "Banner set"],
         "expense": ["Courier", "Font licence", "Printing proofs"]}


def _d(x):
    return Decimal(str(x))


def _cents(x):
    return float(_d(x).quantize(Decimal("0.01")))


def probes(db, rng, n):
    today = date.fromisoformat(db["meta"]["today"])
    iso = lambda d: d.isoformat()
    clients, projects, invoices = db["clients"], db["projects"], db["invoices"]
    cnotes, payments = db["credit_notes"], db["payments"]
    cids = sorted(clients)
    active_c = [c for c in cids if clients[c]["status"] == "active"]
    inactive_c = [c for c in cids if clients[c]["status"] != "active"]
    act_count = {c: sum(1 for p in projects.values() if p["client_id"] == c and p["status"] == "active") for c in cids}
    roomy_c = [c for c in active_c if act_count[c] < db["meta"]["max_active_projects_per_client"]]
    full_c = [c for c in active_c if c not in roomy_c]
    pids = sorted(projects)
    iids = sorted(invoices)
    has_draft = {invoices[i]["project_id"] for i in iids if invoices[i]["status"] == "draft"}
    startable = [p for p in pids if projects[p]["status"] == "active"
                 and clients[projects[p]["client_id"]]["status"] == "active" and p not in has_draft]
    unstartable = [p for p in pids if p not in startable]
    drafts = [i for i in iids if invoices[i]["status"] == "draft"]
    not_drafts = [i for i in iids if i not in drafts]
    cutoff = today - timedelta(days=db["meta"]["overdue_block_days"])
    arrears = {inv["client_id"] for inv in invoices.values()
               if inv["status"] in UNPAID and date.fromisoformat(inv["due_date"]) < cutoff}

    def issuable(i):
        inv = invoices[i]
        c, p = clients[inv["client_id"]], projects[inv["project_id"]]
        return (inv["line_items"] and inv["total"] > 0 and c["status"] == "active" and p["status"] == "active"
                and c["client_id"] not in arrears
                and _d(c["outstanding_balance"]) + _d(inv["total"]) <= _d(c["credit_limit"])
                and (p["budget"] is None or _d(p["invoiced_amount"]) + _d(inv["subtotal"]) <= _d(p["budget"])))
    # drafts are split: some get issued, some voided, the rest receive line edits
    to_issue = [i for i in drafts if issuable(i)]
    blocked = [i for i in drafts if i not in to_issue]
    to_void_d = blocked[::3]
    to_edit = [i for i in blocked if i not in to_void_d] + to_issue[::4]
    to_issue = [i for i in to_issue if i not in to_edit]
    edit_projects = sorted({invoices[i]["project_id"] for i in to_edit})
    settled = [i for i in iids if invoices[i]["status"] in ("paid", "void", "draft")]
    with_cn = {c["invoice_id"] for c in cnotes.values()}
    void_ok = [i for i in iids if invoices[i]["status"] == "issued" and invoices[i]["amount_paid"] == 0
               and invoices[i]["amount_credited"] == 0 and i not in with_cn
               and date.fromisoformat(invoices[i]["issue_date"]) >= today - timedelta(days=db["meta"]["void_window_days"])]
    unpaid = [i for i in iids if invoices[i]["status"] in UNPAID and i not in void_ok]
    void_bad = [i for i in iids if invoices[i]["status"] in ("issued", "partially_paid", "paid", "void") and i not in void_ok]
    cn_window = today - timedelta(days=db["meta"]["credit_note_window_days"])
    billed = [i for i in iids if invoices[i]["status"] in ("issued", "partially_paid", "paid")]
    cn_old = [i for i in billed if date.fromisoformat(invoices[i]["issue_date"]) < cn_window]
    cn_ok = [i for i in billed if i not in cn_old and i not in void_ok]
    credited = {i: sum(_d(c["amount"]) for c in cnotes.values() if c["invoice_id"] == i) for i in iids}
    open_cn = [c for c in sorted(cnotes) if cnotes[c]["status"] == "open"]
    used_cn = [c for c in sorted(cnotes) if cnotes[c]["status"] != "open"]
    refs = sorted(p["reference"] for p in payments.values() if p["reference"])

    def pick(xs, fallback):
        return rng.choice(xs) if xs else fallback

    queues = {}

    def take(name, xs, fallback):
        # valid calls walk through a shuffled pool so each target is used once before repeats
        if not xs:
            return fallback
        if name not in queues:
            queues[name] = [list(xs), 0]
            rng.shuffle(queues[name][0])
        q = queues[name]
        q[1] += 1
        return q[0][(q[1] - 1) % len(q[0])]

    def cn_targets(c):
        note = cnotes[c]
        return [i for i in unpaid if invoices[i]["client_id"] == note["client_id"]
                and _d(invoices[i]["amount_due"]) >= _d(note["amount"])]
    cn_apply = [c for c in open_cn if cn_targets(c)]

    def gen(tool, ok):
        if tool == "search_clients":
            if ok:
                a = {}
                if rng.random() < 0.75:
                    c = clients[rng.choice(cids)]
                    src = rng.choice([c["name"], c["contact_name"], c["email"]])
                    k = rng.randrange(max(1, len(src) - 4))
                    frag = src[k:k + rng.randint(3, 7)].strip() or src[:4]
                    a["query"] = rng.choice([frag, frag.upper(), frag.lower(), " %s " % frag])
                if rng.random() < 0.35:
                    a["status"] = rng.choice(["active", "on_hold", "archived"])
                return a
            return rng.choice([{"query": rng.choice(["a", " ", "Z", "  x "])},
                               {"status": rng.choice(["paused", "Active", "closed"])}, {"query": 42}])
        if tool == "get_client":
            if ok:
                return {"client_id": rng.choice(cids)}
            return {"client_id": rng.choice(["CLT-099", "CLT-41", "clt-001", "C001", ""])}
        if tool == "list_projects":
            if ok:
                a = {}
                if rng.random() < 0.6:
                    a["client_id"] = rng.choice(cids)
                if rng.random() < 0.5:
                    a["status"] = rng.choice(["active", "on_hold", "completed"])
                return a
            return rng.choice([{"client_id": "CLT-123"}, {"status": rng.choice(["archived", "open", "done"])},
                               {"client_id": rng.choice(cids), "status": "cancelled"}])
        if tool == "list_invoices":
            if ok:
                a = {}
                k = rng.randrange(5)
                if k == 0:
                    a["client_id"] = rng.choice(cids)
                elif k == 1:
                    a["project_id"] = rng.choice(pids)
                elif k == 2:
                    a["status"] = rng.choice(["draft", "issued", "partially_paid", "paid", "void"])
                elif k == 3:
                    a["overdue_only"] = True
                    if rng.random() < 0.5:
                        a["client_id"] = rng.choice(cids)
                else:
                    lo = today - timedelta(days=rng.randint(20, 200))
                    a["issued_from"] = iso(lo)
                    if rng.random() < 0.6:
                        a["issued_to"] = iso(lo + timedelta(days=rng.randint(0, 60)))
                return a
            return rng.choice([{"status": rng.choice(["overdue", "Paid", "open"])},
                               {"issued_from": iso(today), "issued_to": iso(today - timedelta(days=30))},
                               {"issued_from": rng.choice(["2026/01/01", "01-02-2026", "2026-02-30"])},
                               {"project_id": "PRJ-9999"}, {"client_id": "CLT-000"}, {"overdue_only": "yes"}])
        if tool == "get_invoice":
            if ok:
                return {"invoice_id": rng.choice(iids)}
            return {"invoice_id": rng.choice(["INV-2026-9999", "inv-2026-0001", "INV-26-0001", "INV-2024-0001"])}
        if tool == "create_project":
            if ok:
                a = {"client_id": pick(roomy_c, "CLT-001"),
                     "name": "%s %s" % (rng.choice(NEW_NAMES), rng.choice(TAGS))}
                if rng.random() < 0.4:
                    a["hourly_rate"] = rng.choice([45, 72.5, 95, 120, 150.75])
                if rng.random() < 0.4:
                    a["budget"] = rng.choice([2500, 4000, 7500.5, 12000])
                return a
            k = rng.randrange(7)
            if k == 0:
                return {"client_id": rng.choice(inactive_c), "name": "New Brochure %s" % rng.choice(TAGS)}
            if k == 1:
                p = projects[rng.choice([p for p in pids if projects[p]["client_id"] in active_c])]
                return {"client_id": p["client_id"], "name": rng.choice([p["name"].upper(), p["name"].lower(), p["name"]])}
            if k == 2:
                return {"client_id": pick(full_c, "CLT-003"), "name": "Extra Sprint %s" % rng.choice(TAGS)}
            if k == 3:
                return {"client_id": rng.choice(active_c), "name": "Rate Test %d" % rng.randint(1, 99),
                        "hourly_rate": rng.choice([5, 9.99, 650, 72.555, 0])}
            if k == 4:
                return {"client_id": rng.choice(active_c), "name": "Budget Test %d" % rng.randint(1, 99),
                        "budget": rng.choice([50, -100, 99.99, 1234.567])}
            if k == 5:
                return {"client_id": rng.choice(active_c), "name": rng.choice(["AB", "  ", "x"])}
            return {"client_id": "CLT-404", "name": "Ghost Project"}
        if tool == "create_invoice":
            if ok:
                a = {"project_id": take("start", startable, "PRJ-0001")}
                if rng.random() < 0.3:
                    a["notes"] = rng.choice(["PO 5521", "Thanks for your business", "March work"])
                return a
            k = rng.randrange(3)
            if k == 0:
                return {"project_id": rng.choice(edit_projects)}
            if k == 1:
                return {"project_id": pick([p for p in unstartable if p not in has_draft], "PRJ-0001")}
            return {"project_id": rng.choice(["PRJ-9999", "PRJ-01", "prj-0001"])}
        if tool == "add_line_item":
            if ok:
                kind = rng.choice(["hours", "hours", "fixed", "expense"])
                a = {"invoice_id": pick(to_edit, "INV-2026-0001"), "kind": kind,
                     "description": rng.choice(LINES[kind]),
                     "quantity": rng.choice([1, 2, 2.5, 3.75, 0.5, 6, 10.25])}
                if kind != "hours" or rng.random() < 0.4:
                    a["unit_price"] = rng.choice([12.99, 45, 87.5, 150, 249.95, 333.33])
                return a
            k = rng.randrange(7)
            base = {"invoice_id": pick(to_edit, "INV-2026-0001"), "kind": "hours",
                    "description": "Design work", "quantity": 2}
            if k == 0:
                base["invoice_id"] = rng.choice(not_drafts)
            elif k == 1:
                base.update(kind=rng.choice(["fixed", "expense"]))
            elif k == 2:
                base["quantity"] = rng.choice([0, -1, 1000.5, 1.255, "2"])
            elif k == 3:
                base["unit_price"] = rng.choice([0, -20, 100000.01, 19.999])
            elif k == 4:
                base["kind"] = rng.choice(["discount", "Hours", "mileage"])
            elif k == 5:
                base["description"] = rng.choice(["", "   ", "x" * 201])
            else:
                base["invoice_id"] = "INV-2026-9999"
            return base
        if tool == "remove_line_item":
            withl = [i for i in to_edit if invoices[i]["line_items"]]
            if ok:
                i = pick(withl, "INV-2026-0001")
                nos = [l["line_no"] for l in invoices[i]["line_items"]] or [1]
                return {"invoice_id": i, "line_no": rng.choice(nos)}
            k = rng.randrange(4)
            if k == 0:
                return {"invoice_id": pick(withl, "INV-2026-0001"), "line_no": rng.choice([0, 26, 99])}
            if k == 1:
                i = rng.choice([x for x in not_drafts if invoices[x]["line_items"]])
                return {"invoice_id": i, "line_no": 1}
            if k == 2:
                return {"invoice_id": pick(withl, "INV-2026-0001"), "line_no": "1"}
            return {"invoice_id": "INV-2025-9999", "line_no": 1}
        if tool == "issue_invoice":
            if ok:
                return {"invoice_id": take("issue", to_issue, "INV-2026-0001")}
            k = rng.randrange(3)
            if k < 2:
                return {"invoice_id": pick(blocked, "INV-2026-0001")}
            return {"invoice_id": rng.choice([rng.choice(not_drafts), "INV-2026-0999"])}
        if tool == "record_payment":
            if ok:
                i = rng.choice(unpaid)
                due = _d(invoices[i]["amount_due"])
                amt = due if rng.random() < 0.15 else max(_d("1.00"), (due * _d(rng.choice(["0.1", "0.2", "0.25"]))).quantize(_d("0.01")))
                method = rng.choice(["bank_transfer", "bank_transfer", "card", "paypal"] + (["cash"] if amt <= 1000 else []))
                a = {"invoice_id": i, "amount": float(amt), "method": method}
                if rng.random() < 0.4:
                    lo = date.fromisoformat(invoices[i]["issue_date"])
                    a["received_date"] = iso(lo + timedelta(days=rng.randint(0, (today - lo).days)))
                if rng.random() < 0.4:
                    a["reference"] = "TRF-%07d" % rng.randint(0, 9999999)
                return a
            i = rng.choice(unpaid)
            inv = invoices[i]
            base = {"invoice_id": i, "amount": 10.0, "method": "bank_transfer"}
            k = rng.randrange(8)
            if k == 0:
                base["amount"] = _cents(_d(inv["amount_due"]) + _d(rng.choice(["0.01", "25", "500"])))
            elif k == 1:
                base["invoice_id"] = rng.choice(settled)
            elif k == 2:
                base.update(method="cash", amount=rng.choice([1000.01, 1500, 2500]))
            elif k == 3:
                base["received_date"] = iso(today + timedelta(days=rng.randint(1, 10)))
            elif k == 4:
                base["received_date"] = iso(date.fromisoformat(inv["issue_date"]) - timedelta(days=rng.randint(1, 15)))
            elif k == 5:
                base["reference"] = rng.choice([rng.choice(refs), rng.choice(refs).lower()])
            elif k == 6:
                base["amount"] = rng.choice([0, -5, 10.555, "10.00"])
            else:
                base["method"] = rng.choice(["cheque", "Card", "crypto"])
            return base
        if tool == "void_invoice":
            reason = rng.choice(["Issued to the wrong client", "Duplicate invoice", "Wrong rate used"])
            if ok:
                return {"invoice_id": take("void", void_ok + to_void_d, "INV-2026-0001"), "reason": reason}
            k = rng.randrange(3)
            if k < 2:
                return {"invoice_id": rng.choice(void_bad), "reason": reason}
            return {"invoice_id": pick(void_ok, "INV-2026-0001"), "reason": rng.choice(["", "  "])}
        if tool == "create_credit_note":
            reason = rng.choice(["Goodwill discount", "Hours billed twice", "Pricing error"])
            if ok:
                i = rng.choice(cn_ok)
                room = _d(invoices[i]["total"]) - credited[i]
                amt = max(_d("0.01"), (room * _d(rng.choice(["0.05", "0.1", "0.2"]))).quantize(_d("0.01")))
                return {"invoice_id": i, "amount": float(amt), "reason": reason}
            k = rng.randrange(5)
            if k == 0:
                return {"invoice_id": rng.choice(cn_old), "amount": 20.0, "reason": reason}
            if k == 1:
                i = rng.choice(cn_ok)
                return {"invoice_id": i, "amount": _cents(_d(invoices[i]["total"]) - credited[i] + _d("0.01")), "reason": reason}
            if k == 2:
                return {"invoice_id": rng.choice([i for i in iids if invoices[i]["status"] == "void"] + to_edit),
                        "amount": 20.0, "reason": reason}
            if k == 3:
                return {"invoice_id": rng.choice(cn_ok), "amount": rng.choice([0, -10, 5.005]), "reason": reason}
            return {"invoice_id": rng.choice(cn_ok), "amount": 15.0, "reason": ""}
        if tool == "apply_credit_note":
            if ok:
                c = take("apply", cn_apply, "CN-0001")
                ts = cn_targets(c) if c in cnotes else []
                own = cnotes[c]["invoice_id"] if c in cnotes else None
                if own in ts and rng.random() < 0.5:
                    return {"credit_note_id": c}
                return {"credit_note_id": c, "invoice_id": pick(ts, own)}
            k = rng.randrange(5)
            if k == 0:
                return {"credit_note_id": rng.choice(used_cn)}
            if k == 1:
                c = rng.choice(open_cn)
                other = [i for i in unpaid if invoices[i]["client_id"] != cnotes[c]["client_id"]]
                return {"credit_note_id": c, "invoice_id": rng.choice(other)}
            if k == 2:
                c = rng.choice(open_cn)
                mine = [i for i in iids if invoices[i]["client_id"] == cnotes[c]["client_id"]
                        and invoices[i]["status"] in ("paid", "draft", "void")]
                return {"credit_note_id": c, "invoice_id": pick(mine, "INV-2026-9999")}
            if k == 3:
                c = rng.choice(open_cn)
                small = [i for i in unpaid if invoices[i]["client_id"] == cnotes[c]["client_id"]
                         and _d(invoices[i]["amount_due"]) < _d(cnotes[c]["amount"])]
                if small:
                    return {"credit_note_id": c, "invoice_id": rng.choice(small)}
                return {"credit_note_id": c, "invoice_id": "INV-2026-9999"}
            return {"credit_note_id": rng.choice(["CN-9999", "CN-1", "cn-0001"])}
        raise ValueError(tool)

    tools = ["search_clients", "get_client", "list_projects", "list_invoices", "get_invoice",
             "create_project", "create_invoice", "add_line_item", "remove_line_item", "issue_invoice",
             "record_payment", "void_invoice", "create_credit_note", "apply_credit_note"]
    # targets that get used up (drafts to issue, voidable invoices, open credit notes) are drawn less often
    weight = {"issue_invoice": 0.7, "void_invoice": 0.6, "apply_credit_note": 0.6, "remove_line_item": 0.7,
              "create_invoice": 0.8, "record_payment": 1.3, "add_line_item": 1.2}
    share = {"issue_invoice": 0.55, "void_invoice": 0.55, "apply_credit_note": 0.55}
    out = []
    for k in range(n):
        tool = tools[k] if k < len(tools) else rng.choices(tools, [weight.get(t, 1.0) for t in tools])[0]
        out.append((tool, gen(tool, rng.random() < share.get(tool, 0.62))))
    return out
