"""Reference implementation of the Hollowmere Nurseries trade-order desk API (stdlib only)."""
import datetime as _dt
import re
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"create_order", "update_order", "confirm_order", "cancel_order",
               "assign_order_to_run", "dispatch_run", "record_delivery", "issue_doa_credit",
               "record_payment"}

CATEGORIES = ("tree", "shrub", "hedging", "perennial", "grass", "climber", "fern")
POT_SIZES = ("P9", "1L", "2L", "3L", "5L", "10L", "20L", "bare_root", "rootball")
PLANT_STATUSES = ("listed", "withdrawn")
ORDER_STATUSES = ("draft", "confirmed", "scheduled", "dispatched", "delivered", "cancelled")
CANCEL_REASONS = ("customer_request", "stock_issue", "credit_issue", "duplicate", "other")
DOA_REASONS = ("crushed_in_transit", "frost_damage", "root_damage", "wrong_variety", "pest_found")
PAY_METHODS = ("bank_transfer", "card", "cheque")
DELIVERY_CHARGE = {"central": Decimal("30.00"), "north": Decimal("45.00"),
                   "east": Decimal("45.00"), "west": Decimal("60.00")}
FREE_DELIVERY_FROM = Decimal("750.00")
MIN_GOODS = Decimal("150.00")
MIN_LEAD, MAX_LEAD, LATE_CANCEL_DAYS, DOA_DAYS, MAX_LINES = 2, 120, 3, 3, 10
GRADE_B_FACTOR, HOLD_RELEASE = Decimal("0.80"), Decimal("0.80")
PRE_ORDER_FEE, LATE_FEE, CENT = Decimal("0.15"), Decimal("0.10"), Decimal("0.01")


def q2(x):
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def dec(x):
    return Decimal(str(x))


def num(v):
    return float(q2(v))


# ---------------------------------------------------------------- argument helpers
def _req(args, key):
    if key not in args or args[key] is None:
        raise RefError(f"missing argument {key}")
    return args[key]


def _str(args, key, required=True):
    v = _req(args, key) if required else args.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError(f"{key} must be a non-empty string")
    return v


def _int(args, key, required=True):
    v = _req(args, key) if required else args.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise RefError(f"{key} must be an integer")
    return v


def _money(args, key):
    v = _req(args, key)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise RefError(f"{key} must be a number")
    d = dec(v)
    if d.as_tuple().exponent < -2:
        raise RefError(f"{key} must have at most two decimals")
    return d


def _enum(args, key, values, required=True):
    v = _req(args, key) if required else args.get(key)
    if v is None:
        return None
    if v not in values:
        raise RefError(f"{key} must be one of {values}")
    return v


def _date(args, key, required=True):
    v = _req(args, key) if required else args.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
        raise RefError(f"{key} must be a date YYYY-MM-DD")
    try:
        return _day(v)
    except ValueError:
        raise RefError(f"{key} is not a valid date") from None


def _today(db):
    return _day(db["meta"]["today"])


def _day(text):
    return _dt.date.fromisoformat(text)


def _get(db, coll, key, rid):
    if not isinstance(rid, str) or rid not in db[coll]:
        raise RefError(f"{key} {rid!r} not found")
    return db[coll][rid]


def _filter_id(db, a, coll, key):
    if a.get(key) is not None:
        _get(db, coll, key, a[key])
    return a.get(key)


def _next_id(coll):
    best = None
    for k in coll:
        m = re.fullmatch(r"([A-Za-z-]*)(\d+)", k)
        if m and (best is None or int(m.group(2)) > int(best[1])):
            best = (m.group(1), m.group(2))
    prefix, digits = best
    return f"{prefix}{int(digits) + 1:0{len(digits)}d}"


def _free(lot):
    return lot["quantity_on_hand"] - lot["quantity_reserved"]


def _reduce_credit(cust, amount):
    cust["credit_used"] = num(max(Decimal(0), dec(cust["credit_used"]) - amount))


# ---------------------------------------------------------------- pricing and date rules
def unit_price(plant, lot, qty):
    price = dec(plant["list_price"])
    for brk in plant["price_breaks"]:
        if qty >= brk["min_qty"]:
            price = dec(brk["unit_price"])
    if lot["grade"] == "B":
        price = q2(price * GRADE_B_FACTOR)
    return price


def check_delivery_date(db, date, lots):
    lead = (date - _today(db)).days
    if lead < MIN_LEAD or lead > MAX_LEAD:
        raise RefError("delivery date must be 2 to 120 days ahead")
    if date.weekday() == 6:
        raise RefError("no deliveries on Sundays")
    for lot in lots:
        if date.month not in db["plants"][lot["plant_id"]]["available_months"]:
            raise RefError("plant not available for delivery in that month")
        if date < _day(lot["ready_date"]):
            raise RefError("lot is not ready by the delivery date")


def _check_po(db, cust, po, own_id):
    if po is None:
        return
    for o in db["orders"].values():
        if (o["customer_id"] == cust["customer_id"] and o["order_id"] != own_id
                and o["status"] != "cancelled" and o["po_reference"] is not None
                and o["po_reference"].lower() == po.lower()):
            raise RefError("PO reference already used on another open order of this customer")


# ---------------------------------------------------------------- tools: reads
def get_customer(db, a):
    return _get(db, "customers", "customer_id", _req(a, "customer_id"))


def list_plants(db, a):
    cat = _enum(a, "category", CATEGORIES, False)
    pot = _enum(a, "pot_size", POT_SIZES, False)
    st = _enum(a, "status", PLANT_STATUSES, False)
    month = _int(a, "month", False)
    if month is not None and not 1 <= month <= 12:
        raise RefError("month must be 1 to 12")
    text = _str(a, "search", False)
    out = []
    for p in (db["plants"][k] for k in sorted(db["plants"])):
        if not ((cat and p["category"] != cat) or (pot and p["pot_size"] != pot)
                or (st and p["status"] != st) or (month and month not in p["available_months"])
                or (text and all(text.lower() not in p[f].lower() for f in ("common_name", "botanical_name")))):
            out.append(p)
    return out


def list_lots(db, a):
    pid = _filter_id(db, a, "plants", "plant_id")
    saleable = a.get("saleable_only")
    if saleable is not None and not isinstance(saleable, bool):
        raise RefError("saleable_only must be a boolean")
    ready_by = _date(a, "ready_by", False)
    out = []
    for lot in (db["lots"][k] for k in sorted(db["lots"])):
        if (pid is None or lot["plant_id"] == pid) and not (saleable and (lot["quarantine"] or _free(lot) <= 0)) \
                and not (ready_by and _day(lot["ready_date"]) > ready_by):
            out.append(lot)
    return out


def list_orders(db, a):
    cid, rid = _filter_id(db, a, "customers", "customer_id"), _filter_id(db, a, "runs", "run_id")
    st = _enum(a, "status", ORDER_STATUSES, False)
    date = _date(a, "delivery_date", False)
    out = []
    for o in (db["orders"][k] for k in sorted(db["orders"])):
        if (cid is not None and o["customer_id"] != cid) or (rid is not None and o["run_id"] != rid) \
                or (st and o["status"] != st) or (date and o["delivery_date"] != date.isoformat()):
            continue
        out.append(o)
    return out


# ---------------------------------------------------------------- tools: order life cycle
def create_order(db, a):
    cust = _get(db, "customers", "customer_id", _req(a, "customer_id"))
    date = _date(a, "delivery_date")
    lines = _req(a, "lines")
    po, notes = _str(a, "po_reference", False), _str(a, "delivery_notes", False)
    if not isinstance(lines, list) or not 1 <= len(lines) <= MAX_LINES:
        raise RefError("an order has 1 to 10 lines")
    if cust["account_status"] != "open":
        raise RefError("the customer's account is not open")
    out, lots, goods, load = [], [], Decimal(0), 0
    for no, ln in enumerate(lines, 1):
        if not isinstance(ln, dict) or set(ln) - {"lot_id", "quantity"}:
            raise RefError("each line is an object with lot_id and quantity")
        lot = _get(db, "lots", "lot_id", _req(ln, "lot_id"))
        qty = _int(ln, "quantity")
        if lot in lots:
            raise RefError("a lot may appear only once in an order")
        plant = db["plants"][lot["plant_id"]]
        if plant["status"] != "listed" or lot["quarantine"]:
            raise RefError("plant withdrawn or lot in quarantine")
        if qty < 1 or qty % plant["pack_size"]:
            raise RefError("quantity must be a positive multiple of the pack size")
        if qty > _free(lot):
            raise RefError("not enough free stock in the lot")
        price = unit_price(plant, lot, qty)
        goods += price * qty
        load += qty * plant["load_units"]
        lots.append(lot)
        out.append({"line_no": no, "lot_id": lot["lot_id"], "plant_id": plant["plant_id"],
                    "quantity": qty, "unit_price": num(price), "line_total": num(price * qty),
                    "credited_qty": 0})
    check_delivery_date(db, date, lots)
    if goods < MIN_GOODS:
        raise RefError("goods total below the trade minimum of 150.00")
    if po is None and cust["po_required"]:
        raise RefError("this customer requires a PO reference")
    _check_po(db, cust, po, None)
    pct = dec(cust["trade_discount_pct"])
    discount = q2(goods * pct / 100)
    charge = Decimal(0) if goods - discount >= FREE_DELIVERY_FROM else DELIVERY_CHARGE[cust["delivery_zone"]]
    today = _today(db)
    pre = any(_day(lot["ready_date"]) > today for lot in lots)
    oid = _next_id(db["orders"])
    db["orders"][oid] = {
        "order_id": oid, "customer_id": cust["customer_id"], "status": "draft",
        "order_type": "pre_order" if pre else "stock", "delivery_date": date.isoformat(),
        "po_reference": po, "delivery_notes": notes, "lines": out,
        "trade_discount_pct": cust["trade_discount_pct"], "goods_total": num(goods),
        "discount_amount": num(discount), "delivery_charge": num(charge),
        "order_total": num(goods - discount + charge), "load_units": load,
        "credited_total": 0.0, "run_id": None, "received_by": None,
        "created_on": today.isoformat(), "last_amended_on": None, "confirmed_on": None,
        "scheduled_on": None, "dispatched_on": None, "delivered_on": None,
        "cancelled_on": None, "cancel_reason": None, "cancellation_fee": None}
    cust["orders_placed"] += 1
    return db["orders"][oid]


def update_order(db, a):
    o = _get(db, "orders", "order_id", _req(a, "order_id"))
    date = _date(a, "delivery_date", False)
    po, notes = _str(a, "po_reference", False), _str(a, "delivery_notes", False)
    if date is None and po is None and notes is None:
        raise RefError("nothing to change")
    if o["status"] not in ("draft", "confirmed"):
        raise RefError("only draft or confirmed orders can be amended")
    if date is not None:
        check_delivery_date(db, date, [db["lots"][ln["lot_id"]] for ln in o["lines"]])
        o["delivery_date"] = date.isoformat()
    _check_po(db, db["customers"][o["customer_id"]], po, o["order_id"])
    if po is not None:
        o["po_reference"] = po
    if notes is not None:
        o["delivery_notes"] = notes
    o["last_amended_on"] = db["meta"]["today"]
    return o


def confirm_order(db, a):
    o = _get(db, "orders", "order_id", _req(a, "order_id"))
    if o["status"] != "draft":
        raise RefError("only draft orders can be confirmed")
    cust = db["customers"][o["customer_id"]]
    if cust["account_status"] != "open":
        raise RefError("the customer's account is not open")
    if (_day(o["delivery_date"]) - _today(db)).days < MIN_LEAD:
        raise RefError("delivery date is less than 2 days away")
    for ln in o["lines"]:
        lot = db["lots"][ln["lot_id"]]
        if lot["quarantine"] or ln["quantity"] > _free(lot):
            raise RefError(f"lot {lot['lot_id']} cannot cover line {ln['line_no']}")
    if dec(cust["credit_used"]) + dec(o["order_total"]) > dec(cust["credit_limit"]):
        raise RefError("order would exceed the customer's credit limit")
    for ln in o["lines"]:
        db["lots"][ln["lot_id"]]["quantity_reserved"] += ln["quantity"]
    cust["credit_used"] = num(dec(cust["credit_used"]) + dec(o["order_total"]))
    o.update(status="confirmed", confirmed_on=db["meta"]["today"])
    return o


def cancel_order(db, a):
    o = _get(db, "orders", "order_id", _req(a, "order_id"))
    reason = _enum(a, "reason", CANCEL_REASONS)
    if o["status"] not in ("draft", "confirmed", "scheduled"):
        raise RefError("only draft, confirmed or scheduled orders can be cancelled")
    fee = Decimal(0)
    if o["status"] != "draft":
        for ln in o["lines"]:
            db["lots"][ln["lot_id"]]["quantity_reserved"] -= ln["quantity"]
        net = dec(o["goods_total"]) - dec(o["discount_amount"])
        days = (_day(o["delivery_date"]) - _today(db)).days
        if o["order_type"] == "pre_order":
            fee = q2(net * PRE_ORDER_FEE)
        elif days <= LATE_CANCEL_DAYS:
            fee = q2(net * LATE_FEE)
        cust = db["customers"][o["customer_id"]]
        _reduce_credit(cust, dec(o["order_total"]))
        cust["credit_used"] = num(dec(cust["credit_used"]) + fee)
        if o["status"] == "scheduled":
            run = db["runs"][o["run_id"]]
            run["load_units"] -= o["load_units"]
            run["stop_count"] -= 1
    o.update(status="cancelled", cancelled_on=db["meta"]["today"], cancel_reason=reason,
             cancellation_fee=num(fee), run_id=None)
    return o


def assign_order_to_run(db, a):
    o = _get(db, "orders", "order_id", _req(a, "order_id"))
    run = _get(db, "runs", "run_id", _req(a, "run_id"))
    if o["status"] != "confirmed":
        raise RefError("only confirmed orders can be put on a run")
    if run["status"] != "planned":
        raise RefError("the run has already left")
    if run["run_date"] != o["delivery_date"]:
        raise RefError("the run does not go out on the order's delivery date")
    if run["zone"] != db["customers"][o["customer_id"]]["delivery_zone"]:
        raise RefError("the run does not serve the customer's delivery zone")
    if run["load_units"] + o["load_units"] > run["capacity_units"]:
        raise RefError("not enough room on the vehicle")
    if run["stop_count"] >= run["max_stops"]:
        raise RefError("the run has no free stop")
    run["load_units"] += o["load_units"]
    run["stop_count"] += 1
    o.update(status="scheduled", scheduled_on=db["meta"]["today"], run_id=run["run_id"])
    return o


def dispatch_run(db, a):
    run = _get(db, "runs", "run_id", _req(a, "run_id"))
    driver = _str(a, "driver_name")
    if run["status"] != "planned":
        raise RefError("only planned runs can be dispatched")
    if run["run_date"] != db["meta"]["today"]:
        raise RefError("a run can only be dispatched on its run date")
    if run["stop_count"] < 1:
        raise RefError("the run has no stops")
    today = db["meta"]["today"]
    for oid in sorted(db["orders"]):
        o = db["orders"][oid]
        if o["run_id"] == run["run_id"] and o["status"] == "scheduled":
            for ln in o["lines"]:
                lot = db["lots"][ln["lot_id"]]
                lot["quantity_on_hand"] -= ln["quantity"]
                lot["quantity_reserved"] -= ln["quantity"]
            o.update(status="dispatched", dispatched_on=today)
    run.update(status="dispatched", dispatched_on=today, driver_name=driver)
    return run


def record_delivery(db, a):
    o = _get(db, "orders", "order_id", _req(a, "order_id"))
    who = _str(a, "received_by")
    if o["status"] != "dispatched":
        raise RefError("only dispatched orders can be delivered")
    today = db["meta"]["today"]
    o.update(status="delivered", delivered_on=today, received_by=who)
    run = db["runs"][o["run_id"]]
    if not any(x["run_id"] == run["run_id"] and x["status"] == "dispatched"
               for x in db["orders"].values()):
        run.update(status="completed", completed_on=today)
    return o


def issue_doa_credit(db, a):
    o = _get(db, "orders", "order_id", _req(a, "order_id"))
    line_no = _int(a, "line_no")
    qty = _int(a, "quantity")
    reason = _enum(a, "reason", DOA_REASONS)
    if o["status"] != "delivered":
        raise RefError("credits only for delivered orders")
    if (_today(db) - _day(o["delivered_on"])).days > DOA_DAYS:
        raise RefError("damage must be reported within 3 days of delivery")
    line = next((ln for ln in o["lines"] if ln["line_no"] == line_no), None)
    if line is None:
        raise RefError("no such line on the order")
    if db["lots"][line["lot_id"]]["grade"] == "B":
        raise RefError("grade B lots are sold as seen")
    if qty < 1 or qty > line["quantity"] - line["credited_qty"]:
        raise RefError("quantity must be 1 to the uncredited quantity of the line")
    amount = q2(dec(line["unit_price"]) * qty * (100 - dec(o["trade_discount_pct"])) / 100)
    cust = db["customers"][o["customer_id"]]
    line["credited_qty"] += qty
    o["credited_total"] = num(dec(o["credited_total"]) + amount)
    _reduce_credit(cust, amount)
    cid = _next_id(db["credit_notes"])
    db["credit_notes"][cid] = {"credit_note_id": cid, "order_id": o["order_id"],
                               "customer_id": cust["customer_id"], "line_no": line_no,
                               "lot_id": line["lot_id"], "plant_id": line["plant_id"],
                               "quantity": qty, "reason": reason, "amount": num(amount),
                               "issued_on": db["meta"]["today"]}
    return db["credit_notes"][cid]


def record_payment(db, a):
    cust = _get(db, "customers", "customer_id", _req(a, "customer_id"))
    amount = _money(a, "amount")
    method = _enum(a, "method", PAY_METHODS)
    ref = _str(a, "reference", False)
    if amount <= 0 or amount > dec(cust["credit_used"]):
        raise RefError("amount must be above 0 and at most the outstanding credit used")
    _reduce_credit(cust, amount)
    cust["last_payment_on"] = db["meta"]["today"]
    if cust["account_status"] == "on_hold" and \
            dec(cust["credit_used"]) <= q2(dec(cust["credit_limit"]) * HOLD_RELEASE):
        cust["account_status"] = "open"
    pid = _next_id(db["payments"])
    db["payments"][pid] = {"payment_id": pid, "customer_id": cust["customer_id"],
                           "amount": num(amount), "method": method, "reference": ref,
                           "received_on": db["meta"]["today"],
                           "credit_used_after": cust["credit_used"]}
    return db["payments"][pid]


PARAMS = {
    "get_customer": {"customer_id"},
    "list_plants": {"category", "pot_size", "status", "month", "search"},
    "list_lots": {"plant_id", "saleable_only", "ready_by"},
    "list_orders": {"customer_id", "status", "delivery_date", "run_id"},
    "create_order": {"customer_id", "delivery_date", "lines", "po_reference", "delivery_notes"},
    "update_order": {"order_id", "delivery_date", "po_reference", "delivery_notes"},
    "confirm_order": {"order_id"},
    "cancel_order": {"order_id", "reason"},
    "assign_order_to_run": {"order_id", "run_id"},
    "dispatch_run": {"run_id", "driver_name"},
    "record_delivery": {"order_id", "received_by"},
    "issue_doa_credit": {"order_id", "line_no", "quantity", "reason"},
    "record_payment": {"customer_id", "amount", "method", "reference"},
}


def invoke(db, name, args):
    if name not in PARAMS:
        raise RefError(f"unknown tool {name}")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    extra = set(args) - PARAMS[name]
    if extra:
        raise RefError(f"unknown arguments {sorted(extra)}")
    return globals()[name](db, args)
