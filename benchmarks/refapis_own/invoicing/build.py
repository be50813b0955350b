"""Writes db.json for the Ledgerleaf invoicing API (stdlib only, fixed seed)."""
import json
import os
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

SEED = 4127
TODAY = date(2026, 3, 19)
CENT = Decimal("0.01")
META = {
    "today": TODAY.isoformat(), "currency": "EUR", "business": "Orla Brennan Design",
    "product": "Ledgerleaf", "standard_vat_rate": 0.23, "card_fee_rate": 0.029,
    "paypal_fee_rate": 0.034, "paypal_fee_fixed": 0.35, "cash_payment_limit": 1000.0,
    "max_active_projects_per_client": 4, "max_lines_per_invoice": 25, "void_window_days": 30,
    "credit_note_window_days": 180, "overdue_block_days": 60,
}

COMPANIES = [
    "Bright Harbour Media", "Copperleaf Bakery", "Northwind Cycles", "Saltmarsh Studios",
    "Kestrel Analytics", "Tidewater Legal", "Pinecone Games", "Oakridge Dental",
    "Bluefin Logistics", "Marigold Florists", "Quarry Lane Brewing", "Fernhill Architects",
    "Lumen Health", "Silverbirch Consulting", "Harbourlight Hotels", "Greywolf Outdoor",
    "Juniper Yoga Collective", "Redbrick Properties", "Wavecrest Surf School", "Amberline Fashion",
    "Stonebridge Accountants", "Polaris Robotics", "Hazelwood Nursery", "Cobalt Fintech",
    "Meadowsweet Tea Co", "Ironside Fitness", "Larkspur Publishing", "Driftwood Interiors",
    "Seabright Charity Trust", "Thornfield Estates", "Velvet Ink Tattoo", "Orchard Street Cafe",
    "Granite Peak Software", "Willowbank Vets", "Nimbus Drones", "Foxglove Skincare",
    "Brackenridge Farms", "Lighthouse Language School", "Mosaic Events", "Ravenscourt Gallery",
]
FIRST = ["Aoife", "Ciaran", "Sinead", "Liam", "Niamh", "Declan", "Hanna", "Lukas", "Sophie",
         "Pieter", "Camille", "Julien", "Emma", "Noah", "Grace", "Oscar", "Maeve", "Ronan",
         "Ines", "Tomas", "Clara", "Felix", "Isla", "Eoin", "Freya", "Matteo", "Roisin", "Jonas"]
LAST = ["Byrne", "Murphy", "Kelly", "Walsh", "Schmidt", "de Vries", "Moreau", "Dubois", "Carter",
        "Hughes", "Doyle", "Keane", "Fischer", "Janssen", "Laurent", "Nolan", "Quinn", "Brady"]
COUNTRIES = ["IE"] * 7 + ["DE", "NL", "FR", "GB", "US"]
PROJECT_NAMES = [
    "Website Redesign", "Brand Identity Refresh", "Spring Campaign Assets", "Packaging Design",
    "Annual Report Layout", "Newsletter Templates", "Social Media Kit", "Trade Show Booth",
    "Menu and Signage", "Product Catalogue", "Landing Page Sprint", "Illustration Series",
    "Pitch Deck", "Logo Animation", "Design System", "Brochure Reprint", "Podcast Artwork",
    "E-commerce Storefront", "Recruitment Microsite", "Christmas Campaign",
]
HOUR_DESCS = ["Design work", "Client workshop", "Revisions round", "Concept development",
              "Artwork preparation", "Front-end build", "Photo retouching", "Project management"]
FIXED_DESCS = [("Logo package", 850), ("Print-ready PDF export", 150), ("Hosting setup", 240),
               ("Icon set (24 icons)", 480), ("Brand guidelines document", 995), ("Stock licence bundle", 350),
               ("Template build", 600), ("Style tile", 300)]
EXPENSE_DESCS = [("Stock photography", 49.0), ("Font licence", 79.95), ("Courier", 18.4),
                 ("Proof printing", 64.5), ("Travel to client site", 36.8), ("Plugin licence", 119.0)]
VOID_REASONS = ["Issued to the wrong client", "Duplicate of another invoice", "Wrong hourly rate",
                "Project cancelled before delivery"]
CN_REASONS = ["Goodwill discount", "Hours billed twice", "Late delivery discount",
              "Expense not agreed", "Pricing error"]


def q(x):
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)


def due_from(issue, terms):
    d = issue + timedelta(days=terms)
    while d.weekday() >= 5:
        d += timedelta(days=1)
    return d


def rand_day(rng, lo, hi):
    return lo + timedelta(days=rng.randint(0, max(0, (hi - lo).days)))


def make_lines(rng, rate, n):
    lines = []
    for no in range(1, n + 1):
        kind = rng.choices(["hours", "fixed", "expense"], [6, 3, 2])[0]
        if kind == "hours":
            qty, price, desc = rng.choice([1.5, 2, 3, 3.25, 4, 5.5, 6, 7.75, 8, 10, 12.5, 15]), rate, rng.choice(HOUR_DESCS)
        elif kind == "fixed":
            desc, price = rng.choice(FIXED_DESCS)
            qty = rng.choice([1, 1, 1, 2])
        else:
            desc, price = rng.choice(EXPENSE_DESCS)
            qty = rng.choice([1, 1, 2, 3])
        lines.append({"line_no": no, "kind": kind, "description": desc, "quantity": float(qty),
                      "unit_price": float(q(price)), "line_total": float(q(q(qty) * q(price))),
                      "taxable": kind != "expense"})
    return lines


def price(inv):
    sub = sum(q(l["line_total"]) for l in inv["line_items"]) if inv["line_items"] else q(0)
    taxable = sum((q(l["line_total"]) for l in inv["line_items"] if l["taxable"]), q(0))
    tax = q(taxable * q(inv["tax_rate"]))
    inv.update(subtotal=float(sub), tax_amount=float(tax), total=float(sub + tax))


def build():
    rng = random.Random(SEED)
    clients, projects, invoices, payments, notes = {}, {}, [], [], []
    on_hold, archived, busy, late = {5, 13, 22, 31}, {18, 36}, {2, 9, 27}, {7, 15, 24}
    for i, name in enumerate(COMPANIES):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        country = rng.choice(COUNTRIES)
        slug = "".join(name.lower().split()[:2])
        cid = "CLT-%03d" % (i + 1)
        clients[cid] = {
            "client_id": cid, "name": name, "contact_name": "%s %s" % (first, last),
            "email": "%s@%s.%s" % (first.lower(), slug, "ie" if country == "IE" else rng.choice(["com", "eu"])),
            "country": country, "tax_rate": 0.23 if country == "IE" else 0.0,
            "payment_terms_days": rng.choice([7, 14, 14, 21, 30, 30, 30, 45, 60]),
            "credit_limit": 0.0, "outstanding_balance": 0.0,
            "default_hourly_rate": float(rng.choice([55, 60, 65, 70, 75, 80, 85, 90, 95, 110, 120])),
            "status": "on_hold" if i in on_hold else "archived" if i in archived else "active",
            "created_date": rand_day(rng, date(2024, 6, 1), date(2025, 3, 1)).isoformat(),
        }
        # projects
        count = 4 if i in busy else (rng.choice([1, 2]) if i in archived else rng.choice([1, 2, 2, 3]))
        for name_ in rng.sample(PROJECT_NAMES, count):
            if i in archived:
                status = "completed"
            elif i in busy:
                status = "active"
            else:
                status = rng.choices(["active", "on_hold", "completed"], [7, 1, 2])[0]
            created = rand_day(rng, date.fromisoformat(clients[cid]["created_date"]), date(2026, 1, 31))
            rate = clients[cid]["default_hourly_rate"] + rng.choice([0, 0, 0, 5, 10, -5])
            projects[len(projects)] = {
                "client_id": cid, "name": name_, "hourly_rate": float(rate), "budget": None,
                "invoiced_amount": 0.0, "status": status, "created_date": created.isoformat()}
    # number projects by creation date
    order = sorted(projects.values(), key=lambda p: (p["created_date"], p["client_id"], p["name"]))
    proj = {}
    for n, p in enumerate(order, 1):
        p = dict({"project_id": "PRJ-%04d" % n}, **p)
        proj[p["project_id"]] = p
    projects = proj

    # historical invoices
    for pid, p in projects.items():
        c = clients[p["client_id"]]
        ci = int(c["client_id"][4:]) - 1
        k = {"completed": rng.randint(2, 4), "on_hold": rng.randint(1, 2), "active": rng.randint(0, 3)}[p["status"]]
        start = max(date.fromisoformat(p["created_date"]) + timedelta(days=7), date(2025, 2, 1))
        end = date(2026, 1, 10) if p["status"] == "completed" else TODAY - timedelta(days=1)
        if start > end:
            continue
        for issue in sorted(rand_day(rng, start, end) for _ in range(k)):
            inv = {"client_id": c["client_id"], "project_id": pid, "status": "issued",
                   "created_date": (issue - timedelta(days=rng.choice([0, 0, 1, 2, 5]))).isoformat(),
                   "issue_date": issue.isoformat(),
                   "due_date": due_from(issue, c["payment_terms_days"]).isoformat(),
                   "tax_rate": c["tax_rate"], "line_items": make_lines(rng, p["hourly_rate"], rng.randint(1, 4)),
                   "amount_paid": 0.0, "amount_credited": 0.0, "amount_due": 0.0,
                   "paid_date": None, "voided_date": None, "void_reason": None,
                   "notes": rng.choice([None, None, None, "PO %d" % rng.randint(4000, 4999), "Thank you!"])}
            price(inv)
            invoices.append(inv)
            past_due = (TODAY - date.fromisoformat(inv["due_date"])).days
            r = rng.random()
            if ci in late and past_due > 60 and r < 0.7:
                fate = rng.choice(["issued", "partially_paid"])
            elif c["status"] == "on_hold" and past_due > 20 and r < 0.6:
                fate = rng.choice(["issued", "partially_paid"])
            elif past_due > 60:
                fate = "void" if r < 0.06 else "paid"
            elif past_due > 0:
                fate = "paid" if r < 0.5 else "issued" if r < 0.8 else "partially_paid"
            else:
                fate = "paid" if r < 0.25 else "issued" if r < 0.75 else "partially_paid"
            if fate == "void":
                inv.update(status="void", voided_date=rand_day(rng, issue + timedelta(days=1), issue + timedelta(days=20)).isoformat(),
                           void_reason=rng.choice(VOID_REASONS))
                continue
            total = q(inv["total"])
            last_day = min(TODAY, date.fromisoformat(inv["due_date"]) + timedelta(days=15))
            if issue < TODAY - timedelta(days=10) and rng.random() < 0.2:
                cn_day = rand_day(rng, issue + timedelta(days=2), min(TODAY, issue + timedelta(days=20)))
                amt = q(total * q(rng.choice([0.05, 0.1, 0.15, 0.25])))
                cn = {"client_id": c["client_id"], "invoice": inv, "amount": float(amt),
                      "reason": rng.choice(CN_REASONS), "status": "open", "created_date": cn_day.isoformat(),
                      "applied_invoice": None, "applied_date": None}
                notes.append(cn)
                if fate == "partially_paid" or rng.random() < 0.5:
                    cn.update(status="applied", applied_invoice=inv, applied_date=cn_day.isoformat())
                    inv["amount_credited"] = float(amt)
                    if fate == "issued":
                        fate = "partially_paid"  # a credit counts as part settlement
            need = total - q(inv["amount_credited"])
            if fate == "partially_paid":
                parts = [q(need * q(rng.choice([0.3, 0.4, 0.5, 0.6])))]
            elif fate == "paid":
                parts = [need] if rng.random() < 0.75 else [q(need / 2), need - q(need / 2)]
            else:
                parts = []
            lo_day = issue + timedelta(days=1)
            days = sorted(rand_day(rng, min(lo_day, last_day), last_day) for _ in parts)
            for amt, day in zip(parts, days):
                method = rng.choices(["bank_transfer", "card", "paypal", "cash"], [11, 5, 3, 1])[0]
                if method == "cash" and amt > 1000:
                    method = "bank_transfer"
                fee = {"card": q(amt * Decimal("0.029")), "paypal": q(amt * Decimal("0.034") + Decimal("0.35"))}.get(method, q(0))
                payments.append({"invoice": inv, "client_id": c["client_id"], "amount": float(amt),
                                 "method": method, "received_date": day.isoformat(),
                                 "reference": "BT-%06d" % rng.randint(100000, 999999) if method == "bank_transfer" else None,
                                 "fee": float(fee), "net_amount": float(amt - fee), "recorded_date": day.isoformat()})
            inv["amount_paid"] = float(sum(parts, q(0)))
            if parts and fate == "paid":
                inv["paid_date"] = days[-1].isoformat()
            inv["status"] = fate

    # open drafts: at most one per project
    draft_projects = [pid for pid, p in projects.items() if p["status"] == "active"]
    draft_projects += [pid for pid, p in projects.items() if p["status"] == "on_hold"][:3]
    for pid in rng.sample(draft_projects, 26):
        p = projects[pid]
        c = clients[p["client_id"]]
        inv = {"client_id": c["client_id"], "project_id": pid, "status": "draft",
               "created_date": rand_day(rng, TODAY - timedelta(days=20), TODAY).isoformat(),
               "issue_date": None, "due_date": None, "tax_rate": c["tax_rate"],
               "line_items": make_lines(rng, p["hourly_rate"], rng.choice([0, 1, 2, 2, 3, 3, 4])),
               "amount_paid": 0.0, "amount_credited": 0.0, "amount_due": 0.0, "paid_date": None,
               "voided_date": None, "void_reason": None, "notes": None}
        price(inv)
        invoices.append(inv)

    # ids in creation order, sequence restarting each year
    invoices.sort(key=lambda v: (v["created_date"], v["project_id"]))
    seq = {}
    for inv in invoices:
        y = inv["created_date"][:4]
        seq[y] = seq.get(y, 0) + 1
        inv["invoice_id"] = "INV-%s-%04d" % (y, seq[y])
    for inv in invoices:
        inv["amount_due"] = 0.0 if inv["status"] == "void" else float(
            q(inv["total"]) - q(inv["amount_paid"]) - q(inv["amount_credited"]))

    # balances and counters
    for c in clients.values():
        owed = sum((q(i["amount_due"]) for i in invoices
                    if i["client_id"] == c["client_id"] and i["status"] in ("issued", "partially_paid")), q(0))
        c["outstanding_balance"] = float(owed)
        draft = sum((q(i["total"]) for i in invoices if i["client_id"] == c["client_id"] and i["status"] == "draft"), q(0))
        if c["status"] == "active" and draft > 0 and rng.random() < 0.3:
            limit = (owed + draft * q("0.5")) // 500 * 500  # a tight limit: the draft will not fit
            c["credit_limit"] = float(max(limit, (owed // 500 + 1) * 500))
        else:
            c["credit_limit"] = float(((owed + draft) // 1000 + 1) * 1000 + rng.choice([2000, 4000, 7000, 12000]))
    for p in projects.values():
        billed = sum((q(i["subtotal"]) for i in invoices if i["project_id"] == p["project_id"]
                      and i["status"] in ("issued", "partially_paid", "paid")), q(0))
        p["invoiced_amount"] = float(billed)
        draft = sum((q(i["subtotal"]) for i in invoices if i["project_id"] == p["project_id"] and i["status"] == "draft"), q(0))
        r = rng.random()
        if draft > 0 and r < 0.25:
            p["budget"] = float(max((billed + draft * q("0.6")) // 50 * 50, (billed // 50 + 1) * 50))
        elif r < 0.55:
            p["budget"] = float(((billed + draft) // 500 + 1) * 500 + rng.choice([1500, 3000, 6000]))

    payments.sort(key=lambda x: (x["received_date"], x["invoice"]["invoice_id"]))
    pays = {}
    for n, x in enumerate(payments, 1):
        pid = "PAY-%05d" % n
        rec = {"payment_id": pid, "invoice_id": x.pop("invoice")["invoice_id"]}
        rec.update(x)
        pays[pid] = rec
    notes.sort(key=lambda x: (x["created_date"], x["invoice"]["invoice_id"]))
    cns = {}
    for n, x in enumerate(notes, 1):
        cid = "CN-%04d" % n
        tgt = x.pop("applied_invoice")
        cns[cid] = {"credit_note_id": cid, "client_id": x["client_id"], "invoice_id": x.pop("invoice")["invoice_id"],
                    "amount": x["amount"], "reason": x["reason"], "status": x["status"],
                    "created_date": x["created_date"], "applied_invoice_id": tgt["invoice_id"] if tgt else None,
                    "applied_date": x["applied_date"]}
    key_order = ["invoice_id", "client_id", "project_id", "status", "created_date", "issue_date", "due_date",
                 "tax_rate", "line_items", "subtotal", "tax_amount", "total", "amount_paid", "amount_credited",
                 "amount_due", "paid_date", "voided_date", "void_reason", "notes"]
    invs = {i["invoice_id"]: {k: i[k] for k in key_order} for i in sorted(invoices, key=lambda v: v["invoice_id"])}
    return {"meta": META, "clients": clients, "projects": projects, "invoices": invs,
            "payments": pays, "credit_notes": cns}


if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json")
    with open(out, "w") as fh:
        json.dump(build(), fh, indent=1)
        fh.write("\n")
