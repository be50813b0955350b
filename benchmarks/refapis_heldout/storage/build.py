"""Builds db.json for the Keepwell Self Storage API (stdlib only, fixed seed)."""
import calendar
import datetime as dt
import json
import os
import random
from decimal import Decimal, ROUND_HALF_UP

TODAY = dt.date(2025, 6, 18)
rng = random.Random(41017)
CENT = Decimal("0.01")

SITES = {"NB": 1.00, "RV": 0.92, "HL": 1.08}
SIZES = ["locker", "5x5", "5x10", "10x10", "10x15", "10x20"]
BASE = {"locker": 29, "5x5": 52, "5x10": 84, "10x10": 132, "10x15": 171, "10x20": 219}
PROTECTION = {"none": Decimal("0.00"), "basic": Decimal("9.00"), "premium": Decimal("16.00")}
ADMIN_FEE = Decimal("20.00")
FIRST = ["Maya", "Owen", "Priya", "Lucas", "Hannah", "Diego", "Grace", "Samuel", "Aisha", "Noah",
         "Elena", "Marcus", "Chloe", "Victor", "Leah", "Tobias", "Nora", "Felix", "Ruth", "Isaac",
         "Yara", "Caleb", "Ingrid", "Mateo", "Sofia", "Kwame", "Lena", "Arjun", "Beatriz", "Colin"]
LAST = ["Okafor", "Lindqvist", "Brennan", "Castillo", "Whitaker", "Nakamura", "Oyelaran", "Duarte",
        "Fairbanks", "Kowalski", "Haddad", "Moreau", "Sandoval", "Petrov", "Gallagher", "Achebe",
        "Thornton", "Ferreira", "Lambert", "Osei", "Vasquez", "Holloway", "Brandt", "Kerrigan"]
DOMAINS = ["mailbox.example", "postline.example", "inbox.example", "webmail.example"]


def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def f(x):
    return float(q2(Decimal(x)))


def iso(d):
    return d.isoformat() if d else None


def month_bounds(y, m):
    return dt.date(y, m, 1), dt.date(y, m, calendar.monthrange(y, m)[1])


def rnd_date(a, b):
    return a + dt.timedelta(days=rng.randint(0, (b - a).days))


# ------------------------------------------------------------------ units
units = {}
for site, factor in SITES.items():
    n = 0
    for floor in (1, 2):
        for k in range(1, 15):
            size = rng.choices(SIZES, [2, 3, 4, 3, 2, 1])[0]
            climate = floor == 2 or rng.random() < 0.25
            drive_up = floor == 1 and not climate and size in ("10x10", "10x15", "10x20")
            rate = Decimal(BASE[size]) * Decimal(str(factor)) * (Decimal("1.18") if climate else 1)
            rate = (rate * 2).quantize(Decimal("1"), rounding=ROUND_HALF_UP) / 2
            uid = f"{site}-{floor}{k:02d}"
            units[uid] = {"unit_id": uid, "site": site, "size_code": size, "floor": floor,
                          "climate_controlled": climate, "drive_up": drive_up,
                          "monthly_rate": f(rate), "status": "available",
                          "current_agreement_id": None}
            n += 1

# ------------------------------------------------------------------ tenants
tenants = {}
used_names = set()
for i in range(60):
    while True:
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        if (fn, ln) not in used_names:
            used_names.add((fn, ln))
            break
    tid = f"T{1001 + i}"
    tenants[tid] = {"tenant_id": tid, "full_name": f"{fn} {ln}",
                    "email": f"{fn.lower()}.{ln.lower()}@{rng.choice(DOMAINS)}",
                    "phone": f"+1555{rng.randint(1000000, 9999999)}",
                    "status": "blocked" if i in (7, 23, 41) else "active",
                    "balance": 0.0,
                    "created_on": iso(rnd_date(dt.date(2023, 5, 1), dt.date(2025, 5, 31)))}
tids = sorted(tenants)
good_tids = [t for t in tids if tenants[t]["status"] == "active"]

# ------------------------------------------------------------------ agreements
uids = sorted(units)
rng.shuffle(uids)
plan_open = ["active"] * 33 + ["notice_given"] * 9 + ["reserved"] * 9
maint = uids[len(plan_open):len(plan_open) + 6]
free = uids[len(plan_open) + 6:]
for u in maint:
    units[u]["status"] = "maintenance"

# tenant assignment: two tenants hold three open agreements, a few hold two
open_tenants = [good_tids[2]] * 3 + [good_tids[5]] * 3 + [good_tids[9]] * 2 + [good_tids[14]] * 2
rest = [t for t in good_tids if t not in open_tenants]
rng.shuffle(rest)
open_tenants += rest[:len(plan_open) - len(open_tenants)]
rng.shuffle(open_tenants)

agreements = {}
seq = [2001]


def new_agreement(tenant, unit, status, created, start):
    aid = f"AG{seq[0]}"
    seq[0] += 1
    u = units[unit]
    plan = "none" if u["size_code"] == "locker" else rng.choice(["none", "basic", "basic", "premium"])
    rate = Decimal(str(u["monthly_rate"]))
    agreements[aid] = {"agreement_id": aid, "tenant_id": tenant, "unit_id": unit, "status": status,
                       "protection_plan": plan, "monthly_rate": u["monthly_rate"],
                       "protection_fee": f(PROTECTION[plan]), "deposit": f(q2(rate / 2)),
                       "created_on": iso(created), "start_date": iso(start), "move_in_date": None,
                       "notice_given_on": None, "move_out_date": None, "ended_on": None,
                       "cleaning_charge": None, "deposit_refunded": None,
                       "cancelled_on": None, "cancel_reason": None}
    return agreements[aid]


# history first so ids grow with creation dates roughly
hist_units = free + maint
for i in range(14):  # ended
    mi = rnd_date(dt.date(2024, 3, 1), dt.date(2024, 11, 30))
    start = mi - dt.timedelta(days=rng.randint(0, 2))
    a = new_agreement(rng.choice(tids), hist_units[i % len(hist_units)], "ended",
                      start - dt.timedelta(days=rng.randint(1, 15)), start)
    mo = rnd_date(max(mi + dt.timedelta(days=45), dt.date(2025, 1, 5)), dt.date(2025, 4, 30))
    clean = rng.random() < 0.7
    dep = Decimal(str(a["deposit"]))
    charge = Decimal("0") if clean else min(Decimal("35.00"), dep)
    a.update(move_in_date=iso(mi), notice_given_on=iso(mo - dt.timedelta(days=rng.randint(10, 30))),
             move_out_date=iso(mo), ended_on=iso(mo), cleaning_charge=f(charge),
             deposit_refunded=f(dep - charge))
for i in range(7):  # cancelled
    cr = rnd_date(dt.date(2025, 2, 1), dt.date(2025, 5, 31))
    a = new_agreement(rng.choice(tids), hist_units[(i + 5) % len(hist_units)], "cancelled", cr,
                      cr + dt.timedelta(days=rng.randint(3, 20)))
    a.update(cancelled_on=iso(cr + dt.timedelta(days=rng.randint(1, 5))),
             cancel_reason=rng.choice(["changed_plans", "found_elsewhere", "unit_too_small",
                                       "price", "other"]))

open_items = list(zip(plan_open, open_tenants, uids[:len(plan_open)]))
open_items.sort(key=lambda x: {"notice_given": 0, "active": 1, "reserved": 2}[x[0]])
for status, tenant, unit in open_items:
    if status == "reserved":
        cr = rnd_date(TODAY - dt.timedelta(days=12), TODAY)
        if rng.random() < 0.5:
            start = rnd_date(max(cr, TODAY - dt.timedelta(days=6)), TODAY)
        else:
            start = rnd_date(TODAY + dt.timedelta(days=1), TODAY + dt.timedelta(days=25))
        a = new_agreement(tenant, unit, status, cr, start)
        units[unit]["status"] = "reserved"
    else:
        if status == "notice_given":
            mi = rnd_date(dt.date(2024, 8, 1), dt.date(2025, 4, 10))
        else:
            mi = rnd_date(dt.date(2024, 9, 1), dt.date(2025, 6, 16))
        start = mi - dt.timedelta(days=rng.randint(0, 3))
        a = new_agreement(tenant, unit, status, start - dt.timedelta(days=rng.randint(0, 20)), start)
        a["move_in_date"] = iso(mi)
        if status == "notice_given":
            if rng.random() < 0.55:
                mo = rnd_date(dt.date(2025, 6, 4), TODAY)
            else:
                mo = rnd_date(TODAY + dt.timedelta(days=1), dt.date(2025, 7, 25))
            a["notice_given_on"] = iso(mo - dt.timedelta(days=rng.randint(10, 35)))
            a["move_out_date"] = iso(mo)
        units[unit]["status"] = "occupied"
    units[unit]["current_agreement_id"] = a["agreement_id"]

# ------------------------------------------------------------------ invoices, payments
invoices, payments = {}, {}
inv_seq, pay_seq = [10001], [50001]


def add_payment(inv, amount, day, method):
    pid = f"PM{pay_seq[0]}"
    pay_seq[0] += 1
    payments[pid] = {"payment_id": pid, "invoice_id": inv["invoice_id"], "tenant_id": inv["tenant_id"],
                     "amount": f(amount), "method": method, "paid_on": iso(day)}


def make_invoice(a, y, m):
    first, last = month_bounds(y, m)
    mi = dt.date.fromisoformat(a["move_in_date"])
    frm = max(first, mi)
    to = last
    if a["move_out_date"]:
        to = min(last, dt.date.fromisoformat(a["move_out_date"]))
    if to < frm:
        return None
    days = (to - frm).days + 1
    rate = Decimal(str(a["monthly_rate"]))
    dim = calendar.monthrange(y, m)[1]
    rent = rate if days == dim else q2(rate * days / dim)
    move_in = first <= mi <= last
    if move_in:
        issued = due = mi
    else:
        issued = first - dt.timedelta(days=6)
        due = first
    admin = ADMIN_FEE if move_in else Decimal("0")
    deposit = Decimal(str(a["deposit"])) if move_in else Decimal("0")
    prot = PROTECTION[a["protection_plan"]]
    total = rent + prot + admin + deposit
    iid = f"INV{inv_seq[0]}"
    inv_seq[0] += 1
    inv = {"invoice_id": iid, "agreement_id": a["agreement_id"], "tenant_id": a["tenant_id"],
           "kind": "move_in" if move_in else "monthly", "period": f"{y:04d}-{m:02d}",
           "billed_from": iso(frm), "billed_to": iso(to), "rent_amount": f(rent),
           "protection_amount": f(prot), "admin_fee": f(admin), "deposit_amount": f(deposit),
           "late_fee": 0.0, "total": f(total), "amount_paid": 0.0, "status": "open",
           "issued_on": iso(issued), "due_on": iso(due), "late_fee_applied_on": None, "paid_on": None}
    invoices[iid] = inv
    return inv


def settle(inv, mode):
    total = Decimal(str(inv["total"]))
    due = dt.date.fromisoformat(inv["due_on"])
    method = rng.choice(["card", "card", "bank_transfer", "cash"])
    if mode in ("overdue", "overdue_paid", "overdue_partial"):
        fee_day = due + dt.timedelta(days=rng.randint(6, 9))
        if fee_day > TODAY:
            mode = "paid"
        else:
            fee = max(Decimal("15.00"), q2(total * Decimal("0.10")))
            total += fee
            inv.update(late_fee=f(fee), total=f(total), status="overdue", late_fee_applied_on=iso(fee_day))
    if mode in ("paid", "overdue_paid"):
        day = min(TODAY, due + dt.timedelta(days=rng.randint(0, 4 if mode == "paid" else 14)))
        if method == "cash" and total > 500:
            method = "card"
        add_payment(inv, total, day, method)
        inv.update(amount_paid=f(total), status="paid", paid_on=iso(day))
    elif mode in ("partial", "overdue_partial"):
        part = q2(total * Decimal(rng.choice(["0.25", "0.4", "0.5"])))
        day = min(TODAY, due + dt.timedelta(days=rng.randint(0, 3)))
        add_payment(inv, part, day, "card")
        inv["amount_paid"] = f(part)


problem_agreements = set()
for aid in sorted(agreements):
    a = agreements[aid]
    if a["status"] not in ("active", "notice_given"):
        continue
    skip_june = a["status"] == "active" and rng.random() < 0.15 and a["move_in_date"] < "2025-06-01"
    force_paid = (a["status"] == "notice_given" and a["move_out_date"] <= TODAY.isoformat()
                  and rng.random() < 0.75)
    for (y, m) in ((2025, 5), (2025, 6)):
        if (y, m) == (2025, 6) and skip_june:
            continue
        inv = make_invoice(a, y, m)
        if inv is None:
            continue
        r = rng.random()
        if (y, m) == (2025, 5):
            mode = "paid" if r < 0.86 else ("overdue_paid" if r < 0.93 else "overdue")
        elif inv["kind"] == "move_in" and inv["due_on"] >= "2025-06-13":
            mode = "paid" if r < 0.5 else ("open" if r < 0.8 else "partial")
        else:
            mode = ("paid" if r < 0.55 else "open" if r < 0.73 else "partial" if r < 0.83
                    else "overdue" if r < 0.95 else "overdue_partial")
        settle(inv, "paid" if force_paid else mode)
        if inv["status"] == "overdue":
            problem_agreements.add(aid)

for inv in invoices.values():
    if inv["status"] in ("open", "overdue"):
        t = tenants[inv["tenant_id"]]
        t["balance"] = f(Decimal(str(t["balance"])) + Decimal(str(inv["total"])) - Decimal(str(inv["amount_paid"])))

# ------------------------------------------------------------------ access codes
codes = {}
code_seq = [1]
used = set()


def new_code(a, status, issued, revoked=None):
    while True:
        c = f"{rng.randint(0, 999999):06d}"
        if c not in used and len(set(c)) > 1 and c not in ("123456", "654321"):
            used.add(c)
            break
    cid = f"AC{code_seq[0]:04d}"
    code_seq[0] += 1
    codes[cid] = {"code_id": cid, "agreement_id": a["agreement_id"], "tenant_id": a["tenant_id"],
                  "unit_id": a["unit_id"], "code": c, "status": status, "issued_on": iso(issued),
                  "revoked_on": iso(revoked)}


for aid in sorted(agreements):
    a = agreements[aid]
    if a["status"] == "ended":
        new_code(a, "revoked", dt.date.fromisoformat(a["move_in_date"]), dt.date.fromisoformat(a["ended_on"]))
    elif a["status"] in ("active", "notice_given"):
        mi = dt.date.fromisoformat(a["move_in_date"])
        if rng.random() < 0.2 and (TODAY - mi).days > 40:
            rv = rnd_date(mi + dt.timedelta(days=10), TODAY - dt.timedelta(days=20))
            new_code(a, "revoked", mi, rv)
            mi = rv
        if aid in problem_agreements:
            new_code(a, "suspended", mi)
        elif rng.random() < 0.85:
            new_code(a, "active", mi)

db = {"meta": {"today": TODAY.isoformat(), "currency": "USD", "company": "Keepwell Self Storage",
               "sites": {"NB": "Northbridge", "RV": "Riverside", "HL": "Hillcrest"}},
      "units": dict(sorted(units.items())), "tenants": tenants, "agreements": agreements,
      "invoices": invoices, "payments": payments, "access_codes": codes}

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as fh:
    json.dump(db, fh, indent=1)
print({k: len(v) for k, v in db.items() if k != "meta"})
