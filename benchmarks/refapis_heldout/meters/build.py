"""Builds db.json for the water utility customer service API (stdlib only, fixed seed)."""
import json
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

rng = random.Random(4417)
TODAY = date(2025, 6, 16)

TIERS = {
    "residential": [(10, "3.25"), (15, "4.10"), (None, "5.60")],
    "commercial": [(100, "3.05"), (None, "3.90")],
}
SERVICE = {"residential": "18.50", "commercial": "42.00"}


def money(x):
    return Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def usage_charge(units, rate_class):
    left, total = units, Decimal("0")
    for size, price in TIERS[rate_class]:
        part = left if size is None else min(left, size)
        total += Decimal(part) * Decimal(price)
        left -= part
        if left <= 0:
            break
    return money(total)


FIRST = ["Maria", "James", "Aiyana", "Chen", "Fatima", "Oliver", "Priya", "Tomas", "Grace", "Kwame",
         "Elena", "Hiroshi", "Nadia", "Samuel", "Ingrid", "Diego", "Leila", "Patrick", "Mei", "Ruth",
         "Arjun", "Sofia", "Victor", "Hannah", "Omar", "Beatriz", "Lucas", "Yara", "Daniel", "Zoe"]
LAST = ["Okafor", "Lindqvist", "Moreno", "Haddad", "Nakamura", "Whitfield", "Baptiste", "Kowalski",
        "Ramirez", "O'Connell", "Abernathy", "Singh", "Delgado", "Fischer", "Mbeki", "Castellanos",
        "Thornbury", "Yamamoto", "Petrov", "Gallagher", "Adeyemi", "Quintero", "Hughes", "Larsen"]
BUSINESSES = ["Riverside Laundromat", "Blue Heron Cafe", "Maplewood Dental Clinic", "Harbor Car Wash",
              "Greenleaf Nursery", "Summit Fitness Club", "Old Mill Brewery", "Lakeview Motel",
              "Cornerstone Bakery"]
STREETS = ["Willow Creek Rd", "Alder St", "Pinecrest Ave", "Harbor View Dr", "Mill Pond Ln", "Cedar Ridge Ct",
           "Lakeshore Blvd", "Quarry Rd", "Birchwood Way", "Fountain St", "Riverbend Pkwy", "Spring Hollow Rd"]

db = {
    "meta": {
        "today": TODAY.isoformat(),
        "currency": "USD",
        "consumption_unit": "CCF (hundred cubic feet)",
        "rate_tiers": {
            "residential": [{"up_to_units": 10, "price": 3.25}, {"up_to_units": 25, "price": 4.10},
                            {"up_to_units": None, "price": 5.60}],
            "commercial": [{"up_to_units": 100, "price": 3.05}, {"up_to_units": None, "price": 3.90}],
        },
        "service_charge": {"residential": 18.50, "commercial": 42.00},
        "fees": {"nonpayment_disconnection": 30.00, "reconnection_nonpayment": 75.00,
                 "reconnection_customer_request": 25.00, "damaged_meter": 120.00},
    },
    "accounts": {}, "meters": {}, "readings": {}, "bills": {}, "payments": {}, "payment_plans": {},
}
counters = {"RD": 0, "BL": 0, "PY": 0, "PP": 0, "MTR": 2000}


def nid(prefix, width):
    counters[prefix] += 1
    return prefix + str(counters[prefix]).zfill(width)


def new_meter(size, status, account_id, install_date, value, last_date, retired=None, reason=None):
    mid = nid("MTR", 4)
    db["meters"][mid] = {
        "id": mid, "serial_number": "WM-%s-%05d" % (size.replace("/", ""), rng.randint(10000, 99999)),
        "size": size, "status": status, "account_id": account_id,
        "install_date": install_date, "retired_date": retired, "retire_reason": reason,
        "last_reading_value": value, "last_reading_date": last_date,
    }
    return mid


# account profiles
profiles = (["good"] * 19 + ["leaky"] * 9 + ["delinquent"] * 5 + ["planned"] * 4 + ["disc_np"] * 4
            + ["disc_plan"] * 2 + ["disc_cr"] * 3 + ["closed"] * 3)
rng.shuffle(profiles)
commercial_idx = set(rng.sample(range(len(profiles)), 9))
used_names = set()
recent_leak_marked = 0

for i, prof in enumerate(profiles):
    aid = "AC%d" % (1001 + i)
    rate = "commercial" if i in commercial_idx else "residential"
    if rate == "commercial":
        name = BUSINESSES[len([1 for a in db["accounts"].values() if a["rate_class"] == "commercial"])]
        typical = rng.randint(40, 140)
        size = rng.choice(["1", "2"])
    else:
        while True:
            name = rng.choice(FIRST) + " " + rng.choice(LAST)
            if name not in used_names:
                break
        typical = rng.randint(6, 22)
        size = rng.choice(["5/8", "5/8", "3/4"])
    used_names.add(name)
    addr = "%d %s" % (rng.randint(12, 4980), rng.choice(STREETS))
    email = name.lower().replace(" ", ".").replace("'", "") + "@" + rng.choice(["mail.com", "inbox.net", "example.org"])
    opened = date(rng.randint(2009, 2023), rng.randint(1, 12), rng.randint(1, 28))
    acct = {
        "id": aid, "customer_name": name, "email": email, "service_address": addr, "rate_class": rate,
        "status": "active", "meter_id": None, "balance": 0.0, "typical_consumption": typical,
        "opened_date": opened.isoformat(), "disconnection_count": 0, "disconnect_reason": None,
        "disconnected_date": None, "reconnected_date": None, "last_leak_adjustment_date": None,
        "leak_adjustment_count": 0, "closed_date": None,
    }
    db["accounts"][aid] = acct
    fees = Decimal("0")
    # a few accounts had an older meter replaced
    inst = opened + timedelta(days=rng.randint(0, 30))
    if rng.random() < 0.15:
        repl = inst + timedelta(days=rng.randint(400, 1500))
        if repl < date(2025, 1, 1):
            new_meter(size, "retired", aid, inst.isoformat(), rng.randint(800, 4000), repl.isoformat(),
                      repl.isoformat(), rng.choice(["failed", "upgrade"]))
            inst = repl
    value = rng.randint(300, 9000)
    months = [3, 4, 5]
    day = rng.randint(1, 12)
    if prof in ("good", "leaky", "delinquent", "planned") and rng.random() < 0.65:
        months.append(6)
    if prof == "closed":
        months = [2]
    bills_open_from = {"good": 5, "leaky": 5, "delinquent": 3, "planned": 3, "disc_np": 3,
                       "disc_plan": 3, "disc_cr": 9, "closed": 9}[prof]
    acct_bills = []
    for m in months:
        rdate = date(2025, m, day)
        cons = max(0, int(rng.gauss(typical, typical * 0.18)))
        if prof == "leaky" and m == 5:
            cons = int(typical * rng.uniform(2.3, 4.0))
        cons = min(cons, 380)
        value += cons
        rtype = "estimated" if rng.random() < 0.08 and m != 6 else "actual"
        rid = nid("RD", 5)
        db["readings"][rid] = {"id": rid, "meter_id": None, "account_id": aid, "reading_date": rdate.isoformat(),
                               "value": value, "consumption": cons, "type": rtype, "billed": False, "bill_id": None}
        billed = m < 6 or rng.random() < 0.45
        if not billed:
            continue
        issue = rdate + timedelta(days=2)
        bid = nid("BL", 4)
        usage = usage_charge(cons, rate)
        total = usage + Decimal(SERVICE[rate])
        is_open = m >= bills_open_from
        if prof in ("good", "disc_cr") and m == 5 and rng.random() < 0.5:
            is_open = False
        bill = {"id": bid, "account_id": aid, "reading_ids": [rid], "consumption": cons,
                "usage_charge": float(usage), "service_charge": float(Decimal(SERVICE[rate])), "total": float(total),
                "adjustment_amount": 0.0, "amount_paid": 0.0, "status": "open" if is_open else "paid",
                "issue_date": issue.isoformat(), "due_date": (issue + timedelta(days=21)).isoformat(),
                "service_through": rdate.isoformat()}
        db["bills"][bid] = bill
        db["readings"][rid]["billed"] = True
        db["readings"][rid]["bill_id"] = bid
        acct_bills.append(bill)
        if not is_open:
            pdate = min(issue + timedelta(days=rng.randint(3, 18)), TODAY - timedelta(days=1))
            pid = nid("PY", 4)
            db["payments"][pid] = {"id": pid, "account_id": aid, "amount": float(total),
                                   "method": rng.choice(["card", "bank_transfer", "check", "cash"]),
                                   "payment_date": pdate.isoformat(), "allocations": [{"bill_id": bid, "amount": float(total)}],
                                   "plan_id": None}
            bill["amount_paid"] = float(total)
    # one voided bill now and then (issued in error, reissued later)
    if prof == "good" and rng.random() < 0.2:
        b = acct_bills[0]
        vid = nid("BL", 4)
        db["bills"][vid] = dict(b, id=vid, reading_ids=[], status="void", amount_paid=0.0,
                                issue_date=(date.fromisoformat(b["issue_date"]) - timedelta(days=1)).isoformat(),
                                void_reason="issued against an estimated reading in error")
    # partial payment on an open bill for some delinquent accounts
    open_bills = [b for b in acct_bills if b["status"] == "open"]
    if prof == "delinquent" and rng.random() < 0.6:
        b = open_bills[0]
        part = money(Decimal(str(b["total"])) * Decimal("0.4"))
        pid = nid("PY", 4)
        db["payments"][pid] = {"id": pid, "account_id": aid, "amount": float(part), "method": "cash",
                               "payment_date": (date.fromisoformat(b["issue_date"]) + timedelta(days=9)).isoformat(),
                               "allocations": [{"bill_id": b["id"], "amount": float(part)}], "plan_id": None}
        b["amount_paid"] = float(part)
    if prof in ("planned", "disc_plan"):
        created = date(2025, 5, 25) if prof == "planned" else date(2025, 6, rng.randint(3, 13))
        owed = sum(Decimal(str(b["total"])) for b in open_bills if b["issue_date"] <= created.isoformat())
        if prof == "disc_plan":
            owed += Decimal("30.00")
        n = rng.choice([4, 6, 8])
        inst_amt = money(owed / n)
        plid = nid("PP", 4)
        db["payment_plans"][plid] = {"id": plid, "account_id": aid, "total_amount": float(owed), "installments": n,
                                     "installment_amount": float(inst_amt), "paid_amount": float(inst_amt),
                                     "status": "active", "created_date": created.isoformat(),
                                     "first_due_date": (created + timedelta(days=30)).isoformat(),
                                     "completed_date": None, "cancelled_date": None, "cancel_reason": None}
        left, allocs = inst_amt, []
        for b in open_bills:
            if left <= 0:
                break
            out = Decimal(str(b["total"])) - Decimal(str(b["amount_paid"]))
            take = min(out, left)
            b["amount_paid"] = float(Decimal(str(b["amount_paid"])) + take)
            allocs.append({"bill_id": b["id"], "amount": float(take)})
            left -= take
            if take == out:
                b["status"] = "paid"
        pid = nid("PY", 4)
        db["payments"][pid] = {"id": pid, "account_id": aid, "amount": float(inst_amt), "method": "bank_transfer",
                               "payment_date": max(created, date(2025, 6, 5)).isoformat(), "allocations": allocs, "plan_id": plid}
    # meter
    last_r = max((r for r in db["readings"].values() if r["account_id"] == aid), key=lambda r: r["reading_date"])
    if prof == "closed":
        closed = date(2025, 3, rng.randint(1, 20))
        mid = new_meter(size, "retired", aid, inst.isoformat(), value, last_r["reading_date"], closed.isoformat(),
                        "account_closed")
        acct["status"], acct["closed_date"] = "closed", closed.isoformat()
    else:
        mid = new_meter(size, "installed", aid, inst.isoformat(), value, last_r["reading_date"])
        acct["meter_id"] = mid
    for r in db["readings"].values():
        if r["account_id"] == aid:
            r["meter_id"] = mid
    if prof == "disc_plan":
        dd = date(2025, 5, rng.randint(16, 24))
        acct.update(status="disconnected", disconnect_reason="nonpayment", disconnected_date=dd.isoformat(),
                    disconnection_count=rng.randint(1, 2))
        fees += Decimal("30.00")
    if prof == "disc_np":
        dd = date(2025, 5, rng.randint(20, 31)) if rng.random() < 0.5 else date(2025, 6, rng.randint(2, 12))
        acct.update(status="disconnected", disconnect_reason="nonpayment", disconnected_date=dd.isoformat(),
                    disconnection_count=rng.randint(1, 3))
        fees += Decimal("30.00")
    if prof == "disc_cr":
        dd = date(2025, 5, rng.randint(20, 31))
        acct.update(status="disconnected", disconnect_reason="customer_request", disconnected_date=dd.isoformat(),
                    disconnection_count=1)
    if prof in ("good", "delinquent") and rng.random() < 0.15:
        acct["disconnection_count"] = 1
        acct["reconnected_date"] = date(2024, rng.randint(1, 12), rng.randint(1, 28)).isoformat()
    if prof == "leaky":
        if recent_leak_marked < 2:
            acct["last_leak_adjustment_date"] = date(2024, rng.randint(8, 12), rng.randint(1, 28)).isoformat()
            acct["leak_adjustment_count"] = 1
            recent_leak_marked += 1
        elif rng.random() < 0.5:
            acct["last_leak_adjustment_date"] = date(2023, rng.randint(1, 12), rng.randint(1, 28)).isoformat()
            acct["leak_adjustment_count"] = 1
    outstanding = sum(Decimal(str(b["total"])) - Decimal(str(b["amount_paid"])) - Decimal(str(b["adjustment_amount"]))
                      for b in acct_bills if b["status"] == "open")
    acct["balance"] = float(money(outstanding + fees))

# older plans: completed and cancelled ones
for aid in sorted(db["accounts"])[1::3]:
    plid = nid("PP", 4)
    created = date(2024, rng.randint(2, 10), rng.randint(1, 28))
    n = rng.choice([3, 4, 6])
    total = money(Decimal(rng.randint(9000, 60000)) / 100)
    cancelled = rng.random() < 0.5 and not any(p["account_id"] == aid for p in db["payment_plans"].values())
    plan = {"id": plid, "account_id": aid, "total_amount": float(total), "installments": n,
            "installment_amount": float(money(total / n)), "paid_amount": float(total), "status": "completed",
            "created_date": created.isoformat(), "first_due_date": (created + timedelta(days=30)).isoformat(),
            "completed_date": (created + timedelta(days=30 * n)).isoformat(), "cancelled_date": None,
            "cancel_reason": None}
    if cancelled:
        cdate = TODAY - timedelta(days=rng.choice([20, 45, 70, 130, 200]))
        if db["accounts"][aid]["status"] == "closed":
            cdate = date(2025, 1, 10)
        plan.update(status="cancelled", paid_amount=float(money(total / n)), completed_date=None,
                    created_date=(cdate - timedelta(days=40)).isoformat(),
                    first_due_date=(cdate - timedelta(days=10)).isoformat(),
                    cancelled_date=cdate.isoformat(), cancel_reason=rng.choice(
                        ["customer requested cancellation", "replaced by lump-sum payment", "missed installments"]))
    db["payment_plans"][plid] = plan

# spare meters in the warehouse
for size in ["5/8"] * 5 + ["3/4"] * 4 + ["1"] * 3 + ["2"] * 2:
    new_meter(size, "in_stock", None, None, 0, None)

with open("db.json", "w") as f:
    json.dump(db, f, indent=1, sort_keys=False)
print({k: len(v) for k, v in db.items() if k != "meta"})
