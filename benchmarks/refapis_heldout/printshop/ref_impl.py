"""Reference implementation of the Tidewater Print Co. order-desk API."""
import copy
import re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

class RefError(Exception):
    pass

WRITE_TOOLS = {"create_quote", "accept_quote", "expire_quotes", "submit_proof", "review_proof",
               "schedule_job", "ship_order", "cancel_order", "record_payment"}

TIERS = ("standard", "silver", "gold")
CUSTOMER_STATUSES = ("active", "on_hold", "closed")
CATEGORIES = ("flyer", "postcard", "business_card", "poster", "booklet", "brochure", "banner", "stationery")
PRESS_TYPES = ("digital", "offset", "wide_format")
ORDER_STATUSES = ("proofing", "on_hold", "approved", "printing", "shipped", "cancelled")
SHIP_METHODS = ("pickup", "courier", "freight")
PAY_METHODS = ("ach", "check", "card", "wire")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CENT = Decimal("0.01")

def _cents(x):
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)

def _f(x):  # money as a JSON number with two decimals
    return float(_cents(x))

def _today(db):
    return date.fromisoformat(db["meta"]["today"])

def _req_str(args, key):
    v = args.get(key)
    if not isinstance(v, str) or not v.strip():
        raise RefError("%s is required" % key)
    return v

def _opt_str(args, key):
    v = args.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        raise RefError("%s must be a string" % key)
    return v

def _enum(args, key, allowed, required=False):
    v = args.get(key)
    if v is None and not required:
        return None
    if v not in allowed:
        raise RefError("%s must be one of %s" % (key, ", ".join(allowed)))
    return v

def _date(value, key):
    if not isinstance(value, str) or not DATE_RE.match(value):
        raise RefError("%s must be YYYY-MM-DD" % key)
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise RefError("%s is not a real date" % key)

def _get(db, coll, key, value):
    if not isinstance(value, str) or value not in db[coll]:
        raise RefError("%s not found" % key)
    return db[coll][value]

def _next_id(coll):
    best = None
    for k in coll:
        m = re.match(r"^(.*?)(\d+)$", k)
        if m and (best is None or int(m.group(2)) > best[1]):
            best = (m.group(1), int(m.group(2)), len(m.group(2)))
    prefix, num, width = best
    return "%s%0*d" % (prefix, width, num + 1)

def _push_sunday(d):
    return d + timedelta(days=1) if d.weekday() == 6 else d

def _booked(db, press_id, day):
    return sum(j["sheets"] for j in db["jobs"].values()
               if j["press_id"] == press_id and j["run_date"] == day and j["status"] != "cancelled")

def _sorted(records):
    return [copy.deepcopy(r) for r in sorted(records, key=lambda r: r["id"])]

def search_customers(db, a):
    q, tier, status = _opt_str(a, "query"), _enum(a, "tier", TIERS), _enum(a, "status", CUSTOMER_STATUSES)
    out = []
    for c in db["customers"].values():
        if tier and c["tier"] != tier or status and c["status"] != status:
            continue
        if q and not any(q.lower() in c[f].lower() for f in ("company_name", "contact_name", "email")):
            continue
        out.append(c)
    return _sorted(out)

def list_products(db, a):
    cat, ptype = _enum(a, "category", CATEGORIES), _enum(a, "press_type", PRESS_TYPES)
    stock = a.get("stock_id")
    if stock is not None:
        _get(db, "paper_stocks", "stock_id", stock)
    inc = a.get("include_inactive", False)
    if not isinstance(inc, bool):
        raise RefError("include_inactive must be a boolean")
    out = [p for p in db["products"].values()
           if (inc or p["active"]) and (not cat or p["category"] == cat)
           and (not ptype or p["press_type"] == ptype)
           and (stock is None or stock in p["allowed_stock_ids"])]
    return _sorted(out)

def get_quote(db, a):
    return copy.deepcopy(_get(db, "quotes", "quote_id", a.get("quote_id")))

def list_orders(db, a):
    cid = a.get("customer_id")
    if cid is not None:
        _get(db, "customers", "customer_id", cid)
    status = _enum(a, "status", ORDER_STATUSES)
    due_by = a.get("due_by")
    if due_by is not None:
        due_by = _date(due_by, "due_by").isoformat()
    out = [o for o in db["orders"].values()
           if (cid is None or o["customer_id"] == cid) and (not status or o["status"] == status)
           and (due_by is None or o["due_date"] <= due_by)]
    return _sorted(out)

def check_press_availability(db, a):
    press = _get(db, "presses", "press_id", a.get("press_id"))
    day = _date(a.get("date"), "date")
    cap = 0 if press["status"] != "active" or day.weekday() == 6 else press["daily_capacity_sheets"]
    booked = _booked(db, press["id"], day.isoformat())
    return {"press_id": press["id"], "date": day.isoformat(), "capacity_sheets": cap,
            "booked_sheets": booked, "remaining_sheets": max(0, cap - booked)}

def create_quote(db, a):
    meta = db["meta"]
    cust = _get(db, "customers", "customer_id", a.get("customer_id"))
    prod = _get(db, "products", "product_id", a.get("product_id"))
    stock = _get(db, "paper_stocks", "stock_id", a.get("stock_id"))
    qty = a.get("quantity")
    if not isinstance(qty, int) or isinstance(qty, bool):
        raise RefError("quantity must be an integer")
    rush = a.get("rush", False)
    if not isinstance(rush, bool):
        raise RefError("rush must be a boolean")
    if cust["status"] == "closed":
        raise RefError("account is closed")
    if not prod["active"]:
        raise RefError("product is discontinued")
    if not stock["active"] or stock["id"] not in prod["allowed_stock_ids"]:
        raise RefError("paper stock not offered for this product")
    if qty < prod["min_quantity"] or qty > prod["max_quantity"] or qty % prod["quantity_step"]:
        raise RefError("quantity outside the product's range or step")
    if rush and not prod["rush_available"]:
        raise RefError("rush service not offered for this product")
    n_open = sum(1 for q in db["quotes"].values() if q["customer_id"] == cust["id"] and q["status"] == "open")
    if n_open >= meta["max_open_quotes_per_customer"]:
        raise RefError("too many open quotes")
    band = max((b for b in prod["price_bands"] if b["min_qty"] <= qty), key=lambda b: b["min_qty"])
    unit = Decimal(str(band["unit_price"]))
    sheets = -(-qty * prod["sheets_per_unit"] // prod["units_per_sheet"])
    print_charge = _cents(unit * qty)
    paper_charge = _cents(Decimal(str(stock["price_per_sheet"])) * sheets)
    subtotal = print_charge + paper_charge
    discount = _cents(subtotal * Decimal(str(meta["tier_discounts"][cust["tier"]])))
    rush_fee = _cents((subtotal - discount) * Decimal(str(meta["rush_surcharge_rate"]))) if rush else _cents(0)
    taxable = subtotal - discount + rush_fee
    tax = _cents(0) if cust["tax_exempt"] else _cents(taxable * Decimal(str(meta["tax_rate"])))
    today = _today(db)
    days = meta["rush_quote_valid_days"] if rush else meta["quote_valid_days"]
    qid = _next_id(db["quotes"])
    rec = {"id": qid, "customer_id": cust["id"], "product_id": prod["id"], "stock_id": stock["id"],
           "quantity": qty, "rush": rush, "unit_price": float(unit), "sheets_required": sheets,
           "print_charge": float(print_charge), "paper_charge": float(paper_charge),
           "subtotal": float(subtotal), "discount": float(discount), "rush_fee": float(rush_fee),
           "tax": float(tax), "total": float(taxable + tax), "created_date": today.isoformat(),
           "valid_until": (today + timedelta(days=days)).isoformat(), "status": "open", "order_id": None}
    db["quotes"][qid] = rec
    return copy.deepcopy(rec)

def accept_quote(db, a):
    quote = _get(db, "quotes", "quote_id", a.get("quote_id"))
    po = _opt_str(a, "po_number")
    if po is not None and (not po.strip() or len(po) > 20):
        raise RefError("po_number must be 1-20 characters")
    today = _today(db)
    if quote["status"] != "open":
        raise RefError("quote is not open")
    if quote["valid_until"] < today.isoformat():
        raise RefError("quote has expired")
    cust = db["customers"][quote["customer_id"]]
    if cust["status"] != "active":
        raise RefError("account is not active")
    if cust["po_required"] and po is None:
        raise RefError("this account requires a purchase order number")
    if _cents(cust["balance"]) + _cents(quote["total"]) > _cents(cust["credit_limit"]):
        raise RefError("credit limit exceeded")
    prod = db["products"][quote["product_id"]]
    days = db["meta"]["rush_turnaround_days"] if quote["rush"] else prod["turnaround_days"]
    oid = _next_id(db["orders"])
    order = {"id": oid, "quote_id": quote["id"], "customer_id": cust["id"], "product_id": prod["id"],
             "stock_id": quote["stock_id"], "quantity": quote["quantity"], "rush": quote["rush"],
             "sheets_required": quote["sheets_required"], "po_number": po, "total": quote["total"],
             "reproof_charges": 0.0, "proof_rounds": 0, "status": "proofing",
             "created_date": today.isoformat(),
             "due_date": _push_sunday(today + timedelta(days=days)).isoformat(),
             "job_id": None, "shipped_date": None, "shipment_id": None, "cancel_reason": None,
             "cancellation_fee": None, "cancelled_date": None}
    db["orders"][oid] = order
    quote["status"] = "accepted"
    quote["order_id"] = oid
    cust["balance"] = _f(_cents(cust["balance"]) + _cents(quote["total"]))
    cust["order_count"] += 1
    return copy.deepcopy(order)

def expire_quotes(db, a):
    cid = a.get("customer_id")
    if cid is not None:
        _get(db, "customers", "customer_id", cid)
    today = db["meta"]["today"]
    done = []
    for q in sorted(db["quotes"].values(), key=lambda q: q["id"]):
        if q["status"] == "open" and q["valid_until"] < today and (cid is None or q["customer_id"] == cid):
            q["status"] = "expired"
            done.append(q["id"])
    return {"expired_count": len(done), "quote_ids": done}

def submit_proof(db, a):
    meta = db["meta"]
    order = _get(db, "orders", "order_id", a.get("order_id"))
    fname = _req_str(a, "file_name")
    notes = _opt_str(a, "notes")
    if not fname.lower().endswith(".pdf") or len(fname) < 5:
        raise RefError("proofs must be PDF files")
    if order["status"] != "proofing":
        raise RefError("order is not in proofing")
    if any(p["order_id"] == order["id"] and p["status"] == "pending" for p in db["proofs"].values()):
        raise RefError("a proof is already awaiting review")
    if order["proof_rounds"] >= meta["max_proof_rounds"]:
        raise RefError("no proof rounds left")
    rnd = order["proof_rounds"] + 1
    pid = _next_id(db["proofs"])
    rec = {"id": pid, "order_id": order["id"], "round": rnd, "status": "pending",
           "submitted_date": meta["today"], "decided_date": None, "file_name": fname,
           "notes": notes, "reviewer_comments": None}
    db["proofs"][pid] = rec
    order["proof_rounds"] = rnd
    if rnd > meta["free_proof_rounds"]:
        fee = _cents(meta["reproof_fee"])
        order["reproof_charges"] = _f(_cents(order["reproof_charges"]) + fee)
        order["total"] = _f(_cents(order["total"]) + fee)
        cust = db["customers"][order["customer_id"]]
        cust["balance"] = _f(_cents(cust["balance"]) + fee)
    return copy.deepcopy(rec)

def review_proof(db, a):
    proof = _get(db, "proofs", "proof_id", a.get("proof_id"))
    decision = _enum(a, "decision", ("approve", "reject"), required=True)
    comments = _opt_str(a, "comments")
    if decision == "reject" and (comments is None or not comments.strip()):
        raise RefError("comments are required when rejecting")
    if proof["status"] != "pending":
        raise RefError("proof already decided")
    order = db["orders"][proof["order_id"]]
    if order["status"] != "proofing":
        raise RefError("order is not in proofing")
    proof["decided_date"] = db["meta"]["today"]
    if comments is not None:
        proof["reviewer_comments"] = comments
    if decision == "approve":
        proof["status"] = "approved"
        order["status"] = "approved"
    else:
        proof["status"] = "rejected"
        if proof["round"] >= db["meta"]["max_proof_rounds"]:
            order["status"] = "on_hold"
    return copy.deepcopy(proof)

def schedule_job(db, a):
    order = _get(db, "orders", "order_id", a.get("order_id"))
    press = _get(db, "presses", "press_id", a.get("press_id"))
    run = _date(a.get("run_date"), "run_date")
    if order["status"] != "approved":
        raise RefError("only approved orders can be scheduled")
    if db["customers"][order["customer_id"]]["status"] != "active":
        raise RefError("account is not active")
    prod = db["products"][order["product_id"]]
    if press["status"] != "active":
        raise RefError("press is not available")
    if press["press_type"] != prod["press_type"]:
        raise RefError("wrong press type for this product")
    if run < _today(db) or run.isoformat() > order["due_date"] or run.weekday() == 6:
        raise RefError("run date not allowed")
    if _booked(db, press["id"], run.isoformat()) + order["sheets_required"] > press["daily_capacity_sheets"]:
        raise RefError("press is fully booked that day")
    stock = db["paper_stocks"][order["stock_id"]]
    if stock["sheets_on_hand"] < order["sheets_required"]:
        raise RefError("not enough paper in stock")
    jid = _next_id(db["jobs"])
    job = {"id": jid, "order_id": order["id"], "press_id": press["id"], "run_date": run.isoformat(),
           "sheets": order["sheets_required"], "status": "scheduled"}
    db["jobs"][jid] = job
    stock["sheets_on_hand"] -= order["sheets_required"]
    order["status"] = "printing"
    order["job_id"] = jid
    return copy.deepcopy(job)

def ship_order(db, a):
    meta = db["meta"]
    order = _get(db, "orders", "order_id", a.get("order_id"))
    method = _enum(a, "method", SHIP_METHODS, required=True)
    address = _opt_str(a, "address")
    if method != "pickup" and (address is None or not address.strip()):
        raise RefError("address required for delivery")
    if order["status"] != "printing":
        raise RefError("order is not printing")
    job = db["jobs"][order["job_id"]]
    if job["run_date"] > meta["today"]:
        raise RefError("the job has not run yet")
    cust = db["customers"][order["customer_id"]]
    if method == "pickup":
        fee = _cents(0)
    elif method == "courier":
        fee = _cents(0) if cust["tier"] == "gold" else _cents(meta["courier_fee"])
    else:
        if order["quantity"] < meta["freight_minimum_quantity"]:
            raise RefError("freight needs a larger quantity")
        fee = max(_cents(Decimal(str(meta["freight_rate_per_unit"])) * order["quantity"]),
                  _cents(meta["freight_minimum_fee"]))
    sid = _next_id(db["shipments"])
    rec = {"id": sid, "order_id": order["id"], "customer_id": cust["id"], "method": method,
           "address": None if method == "pickup" else address, "fee": float(fee), "ship_date": meta["today"]}
    db["shipments"][sid] = rec
    job["status"] = "completed"
    order["status"] = "shipped"
    order["shipped_date"] = meta["today"]
    order["shipment_id"] = sid
    cust["balance"] = _f(_cents(cust["balance"]) + fee)
    return copy.deepcopy(rec)

def cancel_order(db, a):
    meta = db["meta"]
    order = _get(db, "orders", "order_id", a.get("order_id"))
    reason = _req_str(a, "reason")
    st = order["status"]
    if st not in meta["cancellation_fee_rates"]:
        raise RefError("order can no longer be cancelled")
    job = db["jobs"][order["job_id"]] if st == "printing" else None
    if job is not None and job["run_date"] <= meta["today"]:
        raise RefError("the press run has already started")
    total = _cents(order["total"])
    fee = _cents(total * Decimal(str(meta["cancellation_fee_rates"][st])))
    if job is not None:
        job["status"] = "cancelled"
        db["paper_stocks"][order["stock_id"]]["sheets_on_hand"] += job["sheets"]
    order["status"] = "cancelled"
    order["cancel_reason"] = reason
    order["cancellation_fee"] = float(fee)
    order["cancelled_date"] = meta["today"]
    cust = db["customers"][order["customer_id"]]
    cust["balance"] = _f(_cents(cust["balance"]) - (total - fee))
    return copy.deepcopy(order)

def record_payment(db, a):
    cust = _get(db, "customers", "customer_id", a.get("customer_id"))
    amount = a.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, (int, float)):
        raise RefError("amount must be a number")
    amt = Decimal(str(amount))
    if amt <= 0 or amt != amt.quantize(CENT):
        raise RefError("amount must be positive with at most two decimals")
    method = _enum(a, "method", PAY_METHODS, required=True)
    ref = _opt_str(a, "reference")
    if method == "check" and (ref is None or not ref.isdigit()):
        raise RefError("check payments need the check number")
    bal = _cents(cust["balance"])
    if cust["payment_terms"] == "net30" and amt > bal:
        raise RefError("payment exceeds the balance owed")
    pid = _next_id(db["payments"])
    rec = {"id": pid, "customer_id": cust["id"], "amount": _f(amt), "method": method,
           "reference": ref, "date": db["meta"]["today"]}
    db["payments"][pid] = rec
    cust["balance"] = _f(bal - amt)
    if cust["status"] == "on_hold" and _cents(cust["balance"]) <= _cents(cust["credit_limit"]):
        cust["status"] = "active"
    return copy.deepcopy(rec)

TOOLS = {f.__name__: f for f in (search_customers, list_products, get_quote, list_orders,
                                 check_press_availability, create_quote, accept_quote, expire_quotes,
                                 submit_proof, review_proof, schedule_job, ship_order, cancel_order,
                                 record_payment)}

def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool: %s" % name)
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return TOOLS[name](db, args)
