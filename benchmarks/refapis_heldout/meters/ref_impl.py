"""Reference implementation of the water utility customer service API (stdlib only)."""
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass

WRITE_TOOLS = {"submit_reading", "generate_bill", "record_payment", "create_payment_plan",
               "cancel_payment_plan", "disconnect_service", "reconnect_service", "replace_meter",
               "apply_leak_adjustment"}

TIERS = {
    "residential": [(10, Decimal("3.25")), (15, Decimal("4.10")), (None, Decimal("5.60"))],
    "commercial": [(100, Decimal("3.05")), (None, Decimal("3.90"))],
}
SERVICE_CHARGE = {"residential": Decimal("18.50"), "commercial": Decimal("42.00")}
DISCONNECT_FEE = Decimal("30.00")
RECONNECT_FEE = {"nonpayment": Decimal("75.00"), "customer_request": Decimal("25.00")}
DAMAGED_METER_FEE = Decimal("120.00")
CARD_LIMIT = Decimal("1000.00")
MAX_UNITS_PER_READING = 400
SIZE_ORDER = ["5/8", "3/4", "1", "2"]
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

# ---------------------------------------------------------------- helpers
def D(x):
    return Decimal(str(x))

def money(x):
    return D(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)

def f2(x):  # money as a two-decimal JSON number
    return float(money(x))

def usage_charge(units, rate_class):
    left, total = units, Decimal("0")
    for size, price in TIERS[rate_class]:
        part = left if size is None else min(left, size)
        total += part * price
        left -= part
        if left <= 0:
            break
    return money(total)

def today(db):
    return date.fromisoformat(db["meta"]["today"])

def next_id(coll):
    best = None
    for key in coll:
        m = re.match(r"^(\D+)(\d+)$", key)
        if m and (best is None or int(m.group(2)) > int(best[1])):
            best = (m.group(1), m.group(2))
    prefix, digits = best
    return prefix + str(int(digits) + 1).zfill(len(digits))

def check_args(args, required, optional=()):
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    for k in required:
        if args.get(k) is None:
            raise RefError("missing argument: %s" % k)
    for k in args:
        if k not in required and k not in optional:
            raise RefError("unknown argument: %s" % k)

def parse_date(v, key):
    if not isinstance(v, str) or not DATE_RE.match(v):
        raise RefError("%s must be a YYYY-MM-DD date" % key)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % key)

def parse_int(v, key):
    if isinstance(v, bool) or not isinstance(v, int):
        raise RefError("%s must be an integer" % key)
    return v

def parse_amount(v, key):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RefError("%s must be a number" % key)
    d = D(v)
    if not d.is_finite() or d > Decimal("10000000"):
        raise RefError("%s is out of range" % key)
    if d <= 0:
        raise RefError("%s must be greater than zero" % key)
    if d != d.quantize(Decimal("0.01")):
        raise RefError("%s may have at most two decimals" % key)
    return money(d)

def get(db, coll, key, label):
    if not isinstance(key, str) or key not in db[coll]:
        raise RefError("%s not found" % label)
    return db[coll][key]

def outstanding(bill):
    return D(bill["total"]) - D(bill["amount_paid"]) - D(bill["adjustment_amount"])

def open_bills(db, account_id):
    bills = [b for b in db["bills"].values() if b["account_id"] == account_id and b["status"] == "open"]
    return sorted(bills, key=lambda b: (b["due_date"], b["id"]))

def active_plan(db, account_id):
    for p in db["payment_plans"].values():
        if p["account_id"] == account_id and p["status"] == "active":
            return p
    return None

def add_balance(acct, delta):
    acct["balance"] = f2(D(acct["balance"]) + delta)

# ---------------------------------------------------------------- reads
def get_account(db, args):
    check_args(args, ["account_id"])
    return get(db, "accounts", args["account_id"], "account")

def search_accounts(db, args):
    check_args(args, [], ["query", "status", "rate_class"])
    q, status, rc = args.get("query"), args.get("status"), args.get("rate_class")
    if q is not None and not isinstance(q, str):
        raise RefError("query must be a string")
    if status is not None and status not in ("active", "disconnected", "closed"):
        raise RefError("unknown status")
    if rc is not None and rc not in ("residential", "commercial"):
        raise RefError("unknown rate_class")
    out = []
    for a in sorted(db["accounts"].values(), key=lambda a: a["id"]):
        if status is not None and a["status"] != status:
            continue
        if rc is not None and a["rate_class"] != rc:
            continue
        if q and q.lower() not in a["customer_name"].lower() and q.lower() not in a["service_address"].lower():
            continue
        out.append(a)
    return out

def list_bills(db, args):
    check_args(args, ["account_id"], ["status"])
    acct = get(db, "accounts", args["account_id"], "account")
    status = args.get("status")
    if status is not None and status not in ("open", "paid", "void"):
        raise RefError("unknown status")
    bills = [b for b in db["bills"].values() if b["account_id"] == acct["id"]
             and (status is None or b["status"] == status)]
    return sorted(bills, key=lambda b: (b["issue_date"], b["id"]))

def list_meter_readings(db, args):
    check_args(args, ["meter_id"], ["from_date", "to_date"])
    meter = get(db, "meters", args["meter_id"], "meter")
    lo = parse_date(args["from_date"], "from_date") if args.get("from_date") is not None else None
    hi = parse_date(args["to_date"], "to_date") if args.get("to_date") is not None else None
    if lo and hi and lo > hi:
        raise RefError("from_date is after to_date")
    out = []
    for r in db["readings"].values():
        if r["meter_id"] != meter["id"]:
            continue
        d = date.fromisoformat(r["reading_date"])
        if (lo and d < lo) or (hi and d > hi):
            continue
        out.append(r)
    return sorted(out, key=lambda r: (r["reading_date"], r["id"]))

# ---------------------------------------------------------------- writes
def new_reading(db, meter, when, value, rtype):
    rid = next_id(db["readings"])
    rec = {"id": rid, "meter_id": meter["id"], "account_id": meter["account_id"], "reading_date": when.isoformat(),
           "value": value, "consumption": value - meter["last_reading_value"], "type": rtype,
           "billed": False, "bill_id": None}
    db["readings"][rid] = rec
    meter["last_reading_value"] = value
    meter["last_reading_date"] = when.isoformat()
    return rec

def check_reading(meter, when, value, now):
    if when > now:
        raise RefError("reading date is in the future")
    if meter["last_reading_date"] and when <= date.fromisoformat(meter["last_reading_date"]):
        raise RefError("reading must be dated after the meter's latest reading")
    if value < meter["last_reading_value"]:
        raise RefError("reading is lower than the previous register value")
    if value - meter["last_reading_value"] > MAX_UNITS_PER_READING:
        raise RefError("implausible consumption")

def submit_reading(db, args):
    check_args(args, ["meter_id", "reading_date", "value"], ["type"])
    meter = get(db, "meters", args["meter_id"], "meter")
    when = parse_date(args["reading_date"], "reading_date")
    value = parse_int(args["value"], "value")
    rtype = "actual" if args.get("type") is None else args["type"]
    if rtype not in ("actual", "estimated"):
        raise RefError("type must be actual or estimated")
    if meter["status"] != "installed":
        raise RefError("meter is not installed")
    acct = db["accounts"][meter["account_id"]]
    if acct["status"] != "active":
        raise RefError("account is not active")
    check_reading(meter, when, value, today(db))
    if rtype == "estimated":
        mine = [r for r in db["readings"].values() if r["meter_id"] == meter["id"]]
        if mine and max(mine, key=lambda r: (r["reading_date"], r["id"]))["type"] == "estimated":
            raise RefError("two estimated readings in a row")
    return new_reading(db, meter, when, value, rtype)

def generate_bill(db, args):
    check_args(args, ["account_id"])
    acct = get(db, "accounts", args["account_id"], "account")
    if acct["status"] == "closed":
        raise RefError("account is closed")
    now = today(db)
    month = now.isoformat()[:7]
    for b in db["bills"].values():
        if b["account_id"] == acct["id"] and b["status"] != "void" and b["issue_date"][:7] == month:
            raise RefError("account already billed this month")
    reads = sorted((r for r in db["readings"].values() if r["account_id"] == acct["id"] and not r["billed"]),
                   key=lambda r: (r["reading_date"], r["id"]))
    if not reads:
        raise RefError("no unbilled readings")
    units = sum(r["consumption"] for r in reads)
    usage = usage_charge(units, acct["rate_class"])
    service = SERVICE_CHARGE[acct["rate_class"]]
    bid = next_id(db["bills"])
    bill = {"id": bid, "account_id": acct["id"], "reading_ids": [r["id"] for r in reads], "consumption": units,
            "usage_charge": f2(usage), "service_charge": f2(service), "total": f2(usage + service),
            "adjustment_amount": 0.0, "amount_paid": 0.0, "status": "open", "issue_date": now.isoformat(),
            "due_date": (now + timedelta(days=21)).isoformat(), "service_through": reads[-1]["reading_date"]}
    db["bills"][bid] = bill
    for r in reads:
        r["billed"], r["bill_id"] = True, bid
    add_balance(acct, usage + service)
    return bill

def record_payment(db, args):
    check_args(args, ["account_id", "amount", "method"])
    acct = get(db, "accounts", args["account_id"], "account")
    amount = parse_amount(args["amount"], "amount")
    method = args["method"]
    if method not in ("card", "bank_transfer", "check", "cash"):
        raise RefError("unknown payment method")
    if method == "card" and amount > CARD_LIMIT:
        raise RefError("card payments are limited to 1000.00")
    if amount > D(acct["balance"]):
        raise RefError("payment exceeds the balance")
    left, allocs = amount, []
    for b in open_bills(db, acct["id"]):
        if left <= 0:
            break
        take = min(left, outstanding(b))
        if take <= 0:
            continue
        b["amount_paid"] = f2(D(b["amount_paid"]) + take)
        allocs.append({"bill_id": b["id"], "amount": f2(take)})
        left -= take
        if outstanding(b) <= 0:
            b["status"] = "paid"
    add_balance(acct, -amount)
    plan = active_plan(db, acct["id"])
    if plan:
        plan["paid_amount"] = f2(D(plan["paid_amount"]) + amount)
        if D(plan["paid_amount"]) >= D(plan["total_amount"]):
            plan["status"], plan["completed_date"] = "completed", today(db).isoformat()
    pid = next_id(db["payments"])
    pay = {"id": pid, "account_id": acct["id"], "amount": f2(amount), "method": method,
           "payment_date": today(db).isoformat(), "allocations": allocs, "plan_id": plan["id"] if plan else None}
    db["payments"][pid] = pay
    return pay

def create_payment_plan(db, args):
    check_args(args, ["account_id", "installments"])
    acct = get(db, "accounts", args["account_id"], "account")
    n = parse_int(args["installments"], "installments")
    if not 3 <= n <= 12:
        raise RefError("installments must be between 3 and 12")
    if acct["status"] == "closed":
        raise RefError("account is closed")
    if active_plan(db, acct["id"]):
        raise RefError("account already has an active plan")
    now = today(db)
    for p in db["payment_plans"].values():
        if p["account_id"] == acct["id"] and p["status"] == "cancelled" and p["cancelled_date"] \
                and (now - date.fromisoformat(p["cancelled_date"])).days <= 90:
            raise RefError("a plan was cancelled in the last 90 days")
    total = D(acct["balance"])
    if total < Decimal("50.00"):
        raise RefError("balance too small for a plan")
    pid = next_id(db["payment_plans"])
    plan = {"id": pid, "account_id": acct["id"], "total_amount": f2(total), "installments": n,
            "installment_amount": f2(total / n), "paid_amount": 0.0, "status": "active",
            "created_date": now.isoformat(), "first_due_date": (now + timedelta(days=30)).isoformat(),
            "completed_date": None, "cancelled_date": None, "cancel_reason": None}
    db["payment_plans"][pid] = plan
    return plan

def cancel_payment_plan(db, args):
    check_args(args, ["plan_id", "reason"])
    plan = get(db, "payment_plans", args["plan_id"], "payment plan")
    reason = args["reason"]
    if not isinstance(reason, str) or not reason.strip():
        raise RefError("reason must be a non-empty string")
    if plan["status"] != "active":
        raise RefError("only active plans can be cancelled")
    plan.update(status="cancelled", cancelled_date=today(db).isoformat(), cancel_reason=reason)
    return plan

def disconnect_service(db, args):
    check_args(args, ["account_id", "reason"])
    acct = get(db, "accounts", args["account_id"], "account")
    reason = args["reason"]
    if reason not in ("nonpayment", "customer_request"):
        raise RefError("unknown reason")
    if acct["status"] != "active":
        raise RefError("account is not active")
    now = today(db)
    if reason == "nonpayment":
        if not any((now - date.fromisoformat(b["due_date"])).days > 30 for b in open_bills(db, acct["id"])):
            raise RefError("no bill is more than 30 days past due")
        if active_plan(db, acct["id"]):
            raise RefError("account is on an active payment plan")
        add_balance(acct, DISCONNECT_FEE)
    acct.update(status="disconnected", disconnect_reason=reason, disconnected_date=now.isoformat(),
                disconnection_count=acct["disconnection_count"] + 1)
    return acct

def reconnect_service(db, args):
    check_args(args, ["account_id"])
    acct = get(db, "accounts", args["account_id"], "account")
    if acct["status"] != "disconnected":
        raise RefError("account is not disconnected")
    now = today(db)
    reason = acct["disconnect_reason"]
    if reason == "nonpayment" and not active_plan(db, acct["id"]):
        if any(date.fromisoformat(b["due_date"]) < now for b in open_bills(db, acct["id"])):
            raise RefError("past-due bills must be paid or covered by a payment plan")
    add_balance(acct, RECONNECT_FEE.get(reason, RECONNECT_FEE["customer_request"]))
    acct.update(status="active", disconnect_reason=None, disconnected_date=None, reconnected_date=now.isoformat())
    return acct

def replace_meter(db, args):
    check_args(args, ["account_id", "new_meter_id", "final_reading", "reason"])
    acct = get(db, "accounts", args["account_id"], "account")
    new = get(db, "meters", args["new_meter_id"], "meter")
    final = parse_int(args["final_reading"], "final_reading")
    reason = args["reason"]
    if reason not in ("failed", "damaged", "upgrade"):
        raise RefError("unknown reason")
    if acct["status"] == "closed" or not acct["meter_id"]:
        raise RefError("account has no installed meter")
    if new["status"] != "in_stock":
        raise RefError("replacement meter is not in stock")
    old = db["meters"][acct["meter_id"]]
    old_rank, new_rank = SIZE_ORDER.index(old["size"]), SIZE_ORDER.index(new["size"])
    if reason == "upgrade" and new_rank <= old_rank:
        raise RefError("an upgrade needs a larger meter")
    if reason != "upgrade" and new_rank != old_rank:
        raise RefError("replacement meter must be the same size")
    now = today(db)
    check_reading(old, now, final, now)
    reading = new_reading(db, old, now, final, "final")
    old.update(status="retired", retired_date=now.isoformat(), retire_reason=reason)
    new.update(status="installed", account_id=acct["id"], install_date=now.isoformat(),
               last_reading_value=0, last_reading_date=now.isoformat())
    acct["meter_id"] = new["id"]
    if reason == "damaged":
        add_balance(acct, DAMAGED_METER_FEE)
    return {"account": acct, "retired_meter": old, "new_meter": new, "final_reading": reading}

def apply_leak_adjustment(db, args):
    check_args(args, ["bill_id", "repair_date"])
    bill = get(db, "bills", args["bill_id"], "bill")
    repair = parse_date(args["repair_date"], "repair_date")
    if bill["status"] != "open":
        raise RefError("only open bills can be adjusted")
    acct = db["accounts"][bill["account_id"]]
    now = today(db)
    if repair > now:
        raise RefError("repair date is in the future")
    if (now - repair).days > 60:
        raise RefError("repair was more than 60 days ago")
    last = acct["last_leak_adjustment_date"]
    if last and (now - date.fromisoformat(last)).days < 365:
        raise RefError("one leak adjustment per 365 days")
    typical = acct["typical_consumption"]
    if bill["consumption"] < 2 * typical:
        raise RefError("consumption is not at least twice the typical usage")
    excess = usage_charge(bill["consumption"], acct["rate_class"]) - usage_charge(typical, acct["rate_class"])
    credit = min(money(excess / 2), outstanding(bill))
    bill["adjustment_amount"] = f2(D(bill["adjustment_amount"]) + credit)
    if outstanding(bill) <= 0:
        bill["status"] = "paid"
    add_balance(acct, -credit)
    acct["last_leak_adjustment_date"] = now.isoformat()
    acct["leak_adjustment_count"] += 1
    return bill

TOOLS = {f.__name__: f for f in [get_account, search_accounts, list_bills, list_meter_readings, submit_reading,
                                  generate_bill, record_payment, create_payment_plan, cancel_payment_plan,
                                  disconnect_service, reconnect_service, replace_meter, apply_leak_adjustment]}

def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool: %s" % name)
    return TOOLS[name](db, args if args is not None else {})
