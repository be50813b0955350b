"""Reference implementation of the Ledgerleaf freelancer invoicing API: clients, projects,
invoices with embedded line items, payments, credit notes. "Today" is db["meta"]["today"]; money
is computed with Decimal (half-up to the cent) and stored as floats with two decimals."""
import copy
import math
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    """Raised for every refusal (bad arguments, unknown ids, broken business rules)."""

WRITE_TOOLS = {"create_project", "create_invoice", "add_line_item", "remove_line_item", "issue_invoice",
               "record_payment", "void_invoice", "create_credit_note", "apply_credit_note"}

CLIENT_STATUSES = ("active", "on_hold", "archived")
PROJECT_STATUSES = ("active", "on_hold", "completed")
INVOICE_STATUSES = ("draft", "issued", "partially_paid", "paid", "void")
LINE_KINDS = ("hours", "fixed", "expense")
METHODS = ("bank_transfer", "card", "paypal", "cash")
UNPAID = ("issued", "partially_paid")
BILLED = ("issued", "partially_paid", "paid")
CENT = Decimal("0.01")
ZERO = Decimal("0.00")

# ------------------------------------------------------------------ small helpers
def _dec(x):
    return Decimal(str(x))

def _round(x):
    return _dec(x).quantize(CENT, rounding=ROUND_HALF_UP)

def _out(d):
    return float(_round(d))

def _today(db):
    return date.fromisoformat(db["meta"]["today"])

def _cfg(db, key):
    return db["meta"][key]

def _arg(args, key, required=True):
    val = args.get(key)
    if val is None and required:
        raise RefError("missing argument: " + key)
    return val

def _text(args, key, required=True, lo=1, hi=200):
    val = _arg(args, key, required)
    if val is None:
        return None
    if not isinstance(val, str):
        raise RefError(key + " must be a string")
    val = val.strip()
    if not lo <= len(val) <= hi:
        raise RefError("%s must be %d-%d characters" % (key, lo, hi))
    return val

def _choice(args, key, allowed, required=True):
    val = _arg(args, key, required)
    if val is None:
        return None
    if not isinstance(val, str) or val not in allowed:
        raise RefError("%s must be one of %s" % (key, ", ".join(allowed)))
    return val

def _amount(args, key, required=True, lo=None, hi=None):
    """A positive number with at most two decimals (returned as Decimal)."""
    val = _arg(args, key, required)
    if val is None:
        return None
    if isinstance(val, bool) or not isinstance(val, (int, float)) or not math.isfinite(val):
        raise RefError(key + " must be a finite number")
    d = _dec(val)
    if d <= 0:
        raise RefError(key + " must be greater than zero")
    if d != d.quantize(CENT):
        raise RefError(key + " has more than two decimals")
    if lo is not None and d < _dec(lo):
        raise RefError("%s must be at least %s" % (key, lo))
    if hi is not None and d > _dec(hi):
        raise RefError("%s must be at most %s" % (key, hi))
    return d.quantize(CENT)

def _day(args, key, required=True):
    val = _arg(args, key, required)
    if val is None:
        return None
    if not isinstance(val, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", val):
        raise RefError(key + " must be YYYY-MM-DD")
    try:
        return date.fromisoformat(val)
    except ValueError:
        raise RefError(key + " is not a calendar date")

def _record(db, coll, args, key, required=True):
    rid = _arg(args, key, required)
    if rid is None:
        return None
    if not isinstance(rid, str):
        raise RefError(key + " must be a string")
    if rid not in db[coll]:
        raise RefError("%s %s not found" % (key, rid))
    return db[coll][rid]

def _next_seq(keys, prefix, width):
    nums = [int(k[len(prefix):]) for k in keys if k.startswith(prefix) and k[len(prefix):].isdigit()]
    return "%s%0*d" % (prefix, width, max(nums, default=0) + 1)

def _due_date(issue, terms):
    due = issue + timedelta(days=terms)
    while due.weekday() >= 5:  # Saturday/Sunday roll forward to Monday
        due += timedelta(days=1)
    return due

def _reprice(inv):
    """Recompute an invoice's figures from its lines and settlements."""
    subtotal = sum((_dec(l["line_total"]) for l in inv["line_items"]), ZERO)
    taxable = sum((_dec(l["line_total"]) for l in inv["line_items"] if l["taxable"]), ZERO)
    tax = _round(taxable * _dec(inv["tax_rate"]))
    total = subtotal + tax
    inv.update(subtotal=_out(subtotal), tax_amount=_out(tax), total=_out(total))
    due = total - _dec(inv["amount_paid"]) - _dec(inv["amount_credited"])
    inv["amount_due"] = 0.0 if inv["status"] == "void" else _out(due)

def _sync_client(db, cid):
    owed = sum((_dec(i["amount_due"]) for i in db["invoices"].values()
                if i["client_id"] == cid and i["status"] in UNPAID), ZERO)
    db["clients"][cid]["outstanding_balance"] = _out(owed)

def _sync_project(db, pid):
    billed = sum((_dec(i["subtotal"]) for i in db["invoices"].values()
                  if i["project_id"] == pid and i["status"] in BILLED), ZERO)
    db["projects"][pid]["invoiced_amount"] = _out(billed)

def _settle(inv, on_day):
    """Status after money (payment or credit) was added to amount_paid/amount_credited."""
    _reprice(inv)
    if _dec(inv["amount_due"]) == 0:
        inv["status"], inv["paid_date"] = "paid", on_day
    else:
        inv["status"] = "partially_paid"

# ------------------------------------------------------------------ read tools
def search_clients(db, args):
    query = _text(args, "query", required=False, lo=2, hi=100)
    status = _choice(args, "status", CLIENT_STATUSES, required=False)
    hits = []
    for cid in sorted(db["clients"]):
        c = db["clients"][cid]
        if status and c["status"] != status:
            continue
        if query:
            hay = " ".join((c["name"], c["contact_name"], c["email"])).casefold()
            if query.casefold() not in hay:
                continue
        hits.append(c)
    return hits

def get_client(db, args):
    return _record(db, "clients", args, "client_id")

def list_projects(db, args):
    client = _record(db, "clients", args, "client_id", required=False)
    status = _choice(args, "status", PROJECT_STATUSES, required=False)
    return [db["projects"][p] for p in sorted(db["projects"])
            if (not client or db["projects"][p]["client_id"] == client["client_id"])
            and (not status or db["projects"][p]["status"] == status)]

def list_invoices(db, args):
    client = _record(db, "clients", args, "client_id", required=False)
    project = _record(db, "projects", args, "project_id", required=False)
    status = _choice(args, "status", INVOICE_STATUSES, required=False)
    overdue = _arg(args, "overdue_only", required=False)
    if overdue is not None and not isinstance(overdue, bool):
        raise RefError("overdue_only must be a boolean")
    start = _day(args, "issued_from", required=False)
    end = _day(args, "issued_to", required=False)
    if start and end and start > end:
        raise RefError("issued_from is after issued_to")
    today = _today(db)
    out = []
    for iid in sorted(db["invoices"]):
        inv = db["invoices"][iid]
        if client and inv["client_id"] != client["client_id"]:
            continue
        if project and inv["project_id"] != project["project_id"]:
            continue
        if status and inv["status"] != status:
            continue
        if overdue and not (inv["status"] in UNPAID and date.fromisoformat(inv["due_date"]) < today):
            continue
        if (start or end) and (not inv["issue_date"] or (start and inv["issue_date"] < start.isoformat())
                               or (end and inv["issue_date"] > end.isoformat())):
            continue
        out.append(inv)
    return out

def get_invoice(db, args):
    return _record(db, "invoices", args, "invoice_id")

# ------------------------------------------------------------------ projects and drafts
def create_project(db, args):
    client = _record(db, "clients", args, "client_id")
    name = _text(args, "name", lo=3, hi=80)
    rate = _amount(args, "hourly_rate", required=False, lo="10.00", hi="500.00")
    budget = _amount(args, "budget", required=False, lo="100.00", hi="500000.00")
    if client["status"] != "active":
        raise RefError("client is not active")
    mine = [p for p in db["projects"].values() if p["client_id"] == client["client_id"]]
    if any(p["name"].casefold() == name.casefold() for p in mine):
        raise RefError("client already has a project with that name")
    if sum(1 for p in mine if p["status"] == "active") >= _cfg(db, "max_active_projects_per_client"):
        raise RefError("client has too many active projects")
    if rate is None:
        rate = _dec(client["default_hourly_rate"])
    pid = _next_seq(db["projects"], "PRJ-", 4)
    proj = {"project_id": pid, "client_id": client["client_id"], "name": name,
            "hourly_rate": _out(rate), "budget": _out(budget) if budget is not None else None,
            "invoiced_amount": 0.0, "status": "active", "created_date": db["meta"]["today"]}
    db["projects"][pid] = proj
    return proj

def create_invoice(db, args):
    proj = _record(db, "projects", args, "project_id")
    notes = _text(args, "notes", required=False, lo=0, hi=500)
    client = db["clients"][proj["client_id"]]
    if proj["status"] != "active":
        raise RefError("project is not active")
    if client["status"] != "active":
        raise RefError("client is not active")
    if any(i["project_id"] == proj["project_id"] and i["status"] == "draft" for i in db["invoices"].values()):
        raise RefError("project already has a draft invoice")
    prefix = "INV-%d-" % _today(db).year
    iid = _next_seq(db["invoices"], prefix, 4)
    inv = {"invoice_id": iid, "client_id": client["client_id"], "project_id": proj["project_id"],
           "status": "draft", "created_date": db["meta"]["today"], "issue_date": None, "due_date": None,
           "tax_rate": client["tax_rate"], "line_items": [], "subtotal": 0.0, "tax_amount": 0.0,
           "total": 0.0, "amount_paid": 0.0, "amount_credited": 0.0, "amount_due": 0.0,
           "paid_date": None, "voided_date": None, "void_reason": None, "notes": notes or None}
    db["invoices"][iid] = inv
    return inv

def _draft(db, args):
    inv = _record(db, "invoices", args, "invoice_id")
    if inv["status"] != "draft":
        raise RefError("only draft invoices can be edited")
    return inv

def add_line_item(db, args):
    inv = _draft(db, args)
    kind = _choice(args, "kind", LINE_KINDS)
    desc = _text(args, "description", lo=1, hi=200)
    qty = _amount(args, "quantity", hi="1000")
    price = _amount(args, "unit_price", required=False, hi="100000")
    if price is None:
        if kind != "hours":
            raise RefError("unit_price is required for fixed and expense lines")
        price = _dec(db["projects"][inv["project_id"]]["hourly_rate"])
    if len(inv["line_items"]) >= _cfg(db, "max_lines_per_invoice"):
        raise RefError("invoice already has the maximum number of lines")
    no = max((l["line_no"] for l in inv["line_items"]), default=0) + 1
    inv["line_items"].append({"line_no": no, "kind": kind, "description": desc,
                              "quantity": float(qty), "unit_price": _out(price),
                              "line_total": _out(qty * price), "taxable": kind != "expense"})
    _reprice(inv)
    return inv

def remove_line_item(db, args):
    inv = _draft(db, args)
    no = _arg(args, "line_no")
    if isinstance(no, bool) or not isinstance(no, int):
        raise RefError("line_no must be an integer")
    keep = [l for l in inv["line_items"] if l["line_no"] != no]
    if len(keep) == len(inv["line_items"]):
        raise RefError("no such line on this invoice")
    inv["line_items"] = keep
    _reprice(inv)
    return inv

# ------------------------------------------------------------------ issuing and voiding
def issue_invoice(db, args):
    inv = _draft(db, args)
    client = db["clients"][inv["client_id"]]
    proj = db["projects"][inv["project_id"]]
    today = _today(db)
    if not inv["line_items"] or _dec(inv["total"]) <= 0:
        raise RefError("invoice has nothing to bill")
    if client["status"] != "active":
        raise RefError("client is not active")
    if proj["status"] != "active":
        raise RefError("project is not active")
    cutoff = today - timedelta(days=_cfg(db, "overdue_block_days"))
    for other in db["invoices"].values():
        if other["client_id"] == client["client_id"] and other["status"] in UNPAID \
                and date.fromisoformat(other["due_date"]) < cutoff:
            raise RefError("client has an invoice seriously overdue")
    if _dec(client["outstanding_balance"]) + _dec(inv["total"]) > _dec(client["credit_limit"]):
        raise RefError("credit limit would be exceeded")
    if proj["budget"] is not None and \
            _dec(proj["invoiced_amount"]) + _dec(inv["subtotal"]) > _dec(proj["budget"]):
        raise RefError("project budget would be exceeded")
    inv["status"], inv["issue_date"] = "issued", today.isoformat()
    inv["due_date"] = _due_date(today, client["payment_terms_days"]).isoformat()
    _reprice(inv)
    _sync_client(db, client["client_id"])
    _sync_project(db, proj["project_id"])
    return inv

def void_invoice(db, args):
    inv = _record(db, "invoices", args, "invoice_id")
    reason = _text(args, "reason", lo=1, hi=200)
    today = _today(db)
    if inv["status"] not in ("draft", "issued"):
        raise RefError("only draft or issued invoices can be voided")
    if inv["status"] == "issued":
        if _dec(inv["amount_paid"]) > 0 or _dec(inv["amount_credited"]) > 0:
            raise RefError("invoice has settlements")
        if date.fromisoformat(inv["issue_date"]) < today - timedelta(days=_cfg(db, "void_window_days")):
            raise RefError("void window has passed; raise a credit note instead")
        if any(cn["invoice_id"] == inv["invoice_id"] for cn in db["credit_notes"].values()):
            raise RefError("invoice has a credit note")
    inv["status"], inv["voided_date"], inv["void_reason"] = "void", today.isoformat(), reason
    _reprice(inv)
    _sync_client(db, inv["client_id"])
    _sync_project(db, inv["project_id"])
    return inv

# ------------------------------------------------------------------ money in
def record_payment(db, args):
    inv = _record(db, "invoices", args, "invoice_id")
    amount = _amount(args, "amount")
    method = _choice(args, "method", METHODS)
    received = _day(args, "received_date", required=False)
    ref = _text(args, "reference", required=False, lo=1, hi=40)
    today = _today(db)
    if inv["status"] not in UNPAID:
        raise RefError("invoice is not awaiting payment")
    if amount > _dec(inv["amount_due"]):
        raise RefError("payment exceeds the amount due")
    if method == "cash" and amount > _dec(_cfg(db, "cash_payment_limit")):
        raise RefError("cash payment above the limit")
    if received is None:
        received = today
    if received > today:
        raise RefError("received_date is in the future")
    if received < date.fromisoformat(inv["issue_date"]):
        raise RefError("received_date is before the issue date")
    if ref and any((p["reference"] or "").casefold() == ref.casefold() for p in db["payments"].values()):
        raise RefError("duplicate payment reference")
    fee = ZERO  # bank transfers and cash are free
    if method == "card":
        fee = _round(amount * _dec(_cfg(db, "card_fee_rate")))
    elif method == "paypal":
        fee = _round(amount * _dec(_cfg(db, "paypal_fee_rate")) + _dec(_cfg(db, "paypal_fee_fixed")))
    pid = _next_seq(db["payments"], "PAY-", 5)
    pay = {"payment_id": pid, "invoice_id": inv["invoice_id"], "client_id": inv["client_id"],
           "amount": _out(amount), "method": method, "received_date": received.isoformat(),
           "reference": ref, "fee": _out(fee), "net_amount": _out(amount - fee),
           "recorded_date": today.isoformat()}
    db["payments"][pid] = pay
    inv["amount_paid"] = _out(_dec(inv["amount_paid"]) + amount)
    _settle(inv, received.isoformat())
    _sync_client(db, inv["client_id"])
    return pay

def create_credit_note(db, args):
    inv = _record(db, "invoices", args, "invoice_id")
    amount = _amount(args, "amount")
    reason = _text(args, "reason", lo=1, hi=200)
    today = _today(db)
    if inv["status"] not in BILLED:
        raise RefError("credit notes need an issued invoice")
    if date.fromisoformat(inv["issue_date"]) < today - timedelta(days=_cfg(db, "credit_note_window_days")):
        raise RefError("invoice is too old for a credit note")
    already = sum((_dec(c["amount"]) for c in db["credit_notes"].values()
                   if c["invoice_id"] == inv["invoice_id"]), ZERO)
    if already + amount > _dec(inv["total"]):
        raise RefError("credits would exceed the invoice total")
    cid = _next_seq(db["credit_notes"], "CN-", 4)
    note = {"credit_note_id": cid, "client_id": inv["client_id"], "invoice_id": inv["invoice_id"],
            "amount": _out(amount), "reason": reason, "status": "open",
            "created_date": today.isoformat(), "applied_invoice_id": None, "applied_date": None}
    db["credit_notes"][cid] = note
    return note

def apply_credit_note(db, args):
    note = _record(db, "credit_notes", args, "credit_note_id")
    target = _record(db, "invoices", args, "invoice_id", required=False)
    if target is None:
        target = db["invoices"][note["invoice_id"]]
    if note["status"] != "open":
        raise RefError("credit note is not open")
    if target["client_id"] != note["client_id"]:
        raise RefError("credit note belongs to another client")
    if target["status"] not in UNPAID:
        raise RefError("target invoice is not awaiting payment")
    amount = _dec(note["amount"])
    if amount > _dec(target["amount_due"]):
        raise RefError("credit exceeds the amount due")
    today = db["meta"]["today"]
    target["amount_credited"] = _out(_dec(target["amount_credited"]) + amount)
    _settle(target, today)
    note.update(status="applied", applied_invoice_id=target["invoice_id"], applied_date=today)
    _sync_client(db, target["client_id"])
    return note

TOOLS = {fn.__name__: fn for fn in (
    search_clients, get_client, list_projects, list_invoices, get_invoice,
    create_project, create_invoice, add_line_item, remove_line_item, issue_invoice,
    record_payment, void_invoice, create_credit_note, apply_credit_note)}

def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool: %s" % name)
    args = {} if args is None else args
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return copy.deepcopy(TOOLS[name](db, args))
