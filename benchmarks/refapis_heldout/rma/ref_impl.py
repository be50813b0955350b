"""Reference implementation of the Northwind warranty returns (RMA) desk API."""
import calendar, re
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


class RefError(Exception):
    pass


WRITE_TOOLS = {"register_product", "create_rma", "approve_rma", "reject_rma", "create_shipping_label",
               "void_label", "receive_rma", "record_inspection", "resolve_rma", "close_rma"}
READ_TOOLS = {"check_warranty", "list_products", "list_rmas", "get_rma"}

OPEN = {"requested", "approved", "received", "inspected", "repaired", "replaced", "refunded"}
RMA_STATUSES = OPEN | {"rejected", "closed"}
OPEN_LIMIT = {"standard": 2, "pro": 4}
REASONS = {"defect", "dead_on_arrival", "cosmetic", "other"}
OUTCOMES = {"defect_confirmed", "no_fault_found", "customer_damage"}
LABEL_COST = {("ups", "ground"): "11.50", ("ups", "express"): "24.00",
              ("fedex", "ground"): "12.75", ("fedex", "express"): "26.50",
              ("dhl", "ground"): "14.20", ("dhl", "express"): "29.90"}
SERIAL_RE = re.compile(r"^[A-Z]{2}[0-9]{6}$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _q(x):
    return Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _today(db):
    return date.fromisoformat(db["meta"]["today"])


def _date(v, name):
    if not isinstance(v, str) or not DATE_RE.match(v):
        raise RefError("%s must be a YYYY-MM-DD date" % name)
    try:
        return date.fromisoformat(v)
    except ValueError:
        raise RefError("%s is not a valid date" % name)


def _add_months(d, m):
    y, mo = divmod(d.month - 1 + m, 12)
    y += d.year
    mo += 1
    return date(y, mo, min(d.day, calendar.monthrange(y, mo)[1]))


def _str(args, key, required=True):
    v = args.get(key)
    if v is None:
        if required:
            raise RefError("%s is required" % key)
        return None
    if not isinstance(v, str) or not v.strip():
        raise RefError("%s must be a non-empty string" % key)
    return v.strip()


def _serial(args, key="serial", required=True):
    v = _str(args, key, required)
    return v.upper() if v is not None else None


def _next_id(coll, prefix, width):
    n = max([int(k[len(prefix):]) for k in coll if k.startswith(prefix)] or [0]) + 1
    return "%s%0*d" % (prefix, width, n)


def _get(db, coll, key, what):
    if key not in db[coll]:
        raise RefError("%s %s not found" % (what, key))
    return db[coll][key]


def _rma(db, args):
    return _get(db, "rmas", _str(args, "rma_id"), "RMA")


def _customer(db, args, must_be_active=False):
    c = _get(db, "customers", _str(args, "customer_id"), "customer")
    if must_be_active and c["status"] != "active":
        raise RefError("customer account is suspended")
    return c


# ---------------------------------------------------------------- reads
def check_warranty(db, args):
    p = _get(db, "products", _serial(args), "product")
    today = _today(db)
    wend = date.fromisoformat(p["warranty_end"])
    line = db["product_lines"][p["line_id"]]
    return {"serial": p["serial"], "customer_id": p["customer_id"], "line_id": p["line_id"],
            "purchase_date": p["purchase_date"], "warranty_end": p["warranty_end"],
            "in_warranty": today <= wend, "days_remaining": max(0, (wend - today).days),
            "doa_eligible": (today - date.fromisoformat(p["purchase_date"])).days <= 30,
            "serviceable": today.isoformat() <= line["end_of_service"]}


def list_products(db, args):
    cid = _str(args, "customer_id", False)
    lid = _str(args, "line_id", False)
    status = _str(args, "status", False)
    frag = _str(args, "serial_contains", False)
    if cid is not None and cid not in db["customers"]:
        raise RefError("customer not found")
    if lid is not None and lid not in db["product_lines"]:
        raise RefError("product line not found")
    if status is not None and status not in {"active", "replaced", "refunded"}:
        raise RefError("bad status filter")
    out = []
    for s in sorted(db["products"]):
        p = db["products"][s]
        if cid and p["customer_id"] != cid or lid and p["line_id"] != lid or status and p["status"] != status:
            continue
        if frag and frag.lower() not in s.lower():
            continue
        out.append(p)
    return out


def list_rmas(db, args):
    cid = _str(args, "customer_id", False)
    status = _str(args, "status", False)
    serial = _serial(args, "serial", False)
    dfrom = _date(args["requested_from"], "requested_from") if args.get("requested_from") is not None else None
    dto = _date(args["requested_to"], "requested_to") if args.get("requested_to") is not None else None
    if cid is not None and cid not in db["customers"]:
        raise RefError("customer not found")
    if status is not None and status not in RMA_STATUSES:
        raise RefError("bad status filter")
    if dfrom and dto and dfrom > dto:
        raise RefError("requested_from is after requested_to")
    out = []
    for k in sorted(db["rmas"]):
        r = db["rmas"][k]
        if cid and r["customer_id"] != cid or status and r["status"] != status or serial and r["serial"] != serial:
            continue
        if dfrom and r["requested_on"] < dfrom.isoformat() or dto and r["requested_on"] > dto.isoformat():
            continue
        out.append(r)
    return out


def get_rma(db, args):
    return _rma(db, args)


# ---------------------------------------------------------------- writes
def register_product(db, args):
    c = _customer(db, args, must_be_active=True)
    line = _get(db, "product_lines", _str(args, "line_id"), "product line")
    serial = _serial(args)
    if not SERIAL_RE.match(serial) or not serial.startswith(line["serial_prefix"]):
        raise RefError("serial does not match the product line's format")
    if serial in db["products"] or serial in db["stock_units"]:
        raise RefError("serial already registered or held in company stock")
    purchase = _date(args.get("purchase_date"), "purchase_date")
    today = _today(db)
    if purchase > today or (today - purchase).days > 365:
        raise RefError("purchase date must be within the last 365 days and not in the future")
    if purchase.isoformat() < line["launch_date"]:
        raise RefError("purchase date precedes the product line's launch")
    price = args.get("purchase_price")
    if isinstance(price, bool) or not isinstance(price, (int, float)):
        raise RefError("purchase_price must be a number")
    if price <= 0 or _q(price) != Decimal(str(price)) or price > line["list_price"]:
        raise RefError("purchase_price must be positive, in cents, and not above list price")
    bonus = 3 if (today - purchase).days <= 30 else 0
    rec = {"serial": serial, "customer_id": c["customer_id"], "line_id": line["line_id"],
           "purchase_date": purchase.isoformat(), "purchase_price": float(_q(price)),
           "registered_on": today.isoformat(),
           "warranty_end": _add_months(purchase, line["warranty_months"] + bonus).isoformat(),
           "status": "active", "replaces_serial": None}
    db["products"][serial] = rec
    return rec


def create_rma(db, args):
    c = _customer(db, args, must_be_active=True)
    p = _get(db, "products", _serial(args), "product")
    reason = _str(args, "reason")
    desc = args.get("description", "")
    if desc is None:
        desc = ""
    if not isinstance(desc, str) or len(desc) > 500:
        raise RefError("description must be a string of at most 500 characters")
    if reason not in REASONS:
        raise RefError("unknown reason")
    if p["customer_id"] != c["customer_id"]:
        raise RefError("product is registered to another customer")
    if p["status"] != "active":
        raise RefError("product is no longer active")
    today = _today(db)
    line = db["product_lines"][p["line_id"]]
    if today.isoformat() > line["end_of_service"]:
        raise RefError("product line is past end of service")
    if any(r["serial"] == p["serial"] and r["status"] in OPEN for r in db["rmas"].values()):
        raise RefError("product already has an open RMA")
    n_open = sum(1 for r in db["rmas"].values() if r["customer_id"] == c["customer_id"] and r["status"] in OPEN)
    if n_open >= OPEN_LIMIT[c["tier"]]:
        raise RefError("customer has reached the open RMA limit")
    if reason == "dead_on_arrival" and (today - date.fromisoformat(p["purchase_date"])).days > 30:
        raise RefError("dead-on-arrival claims must be made within 30 days of purchase")
    rid = _next_id(db["rmas"], "RMA-", 5)
    doa = reason == "dead_on_arrival"
    rec = {"rma_id": rid, "customer_id": c["customer_id"], "serial": p["serial"], "line_id": p["line_id"],
           "reason": reason, "description": desc, "status": "approved" if doa else "requested",
           "in_warranty": today.isoformat() <= p["warranty_end"], "requested_on": today.isoformat(),
           "approved_on": today.isoformat() if doa else None,
           "approval_expires_on": (today + timedelta(days=30)).isoformat() if doa else None,
           "rejected_on": None, "rejection_reason": None, "label_id": None, "received_on": None,
           "inspection_outcome": None, "inspection_notes": None, "inspected_on": None, "resolution": None,
           "resolved_on": None, "repair_fee": None, "refund_id": None, "replacement_serial": None,
           "closed_on": None}
    db["rmas"][rid] = rec
    return rec


def approve_rma(db, args):
    r = _rma(db, args)
    if r["status"] != "requested":
        raise RefError("only requested RMAs can be approved")
    today = _today(db)
    r["status"] = "approved"
    r["approved_on"] = today.isoformat()
    r["approval_expires_on"] = (today + timedelta(days=30)).isoformat()
    return r


def _void(db, lab):
    today = _today(db)
    lab["status"] = "voided"
    lab["voided_on"] = today.isoformat()
    if lab["billed_to"] == "customer":
        c = db["customers"][db["rmas"][lab["rma_id"]]["customer_id"]]
        c["balance_due"] = float(_q(c["balance_due"]) - _q(lab["cost"]))
    db["rmas"][lab["rma_id"]]["label_id"] = None


def reject_rma(db, args):
    r = _rma(db, args)
    reason = _str(args, "reason")
    if r["status"] not in ("requested", "approved"):
        raise RefError("RMA can no longer be rejected")
    if r["label_id"] and db["shipping_labels"][r["label_id"]]["status"] == "active":
        _void(db, db["shipping_labels"][r["label_id"]])
    r["status"] = "rejected"
    r["rejected_on"] = _today(db).isoformat()
    r["rejection_reason"] = reason
    return r


def create_shipping_label(db, args):
    r = _rma(db, args)
    carrier = _str(args, "carrier")
    service = args.get("service", "ground")
    if (carrier, service) not in LABEL_COST:
        raise RefError("unknown carrier or service")
    if r["status"] != "approved":
        raise RefError("labels are only issued for approved RMAs")
    if r["label_id"] and db["shipping_labels"][r["label_id"]]["status"] == "active":
        raise RefError("RMA already has an active label")
    today = _today(db)
    if today.isoformat() > r["approval_expires_on"]:
        raise RefError("approval has expired")
    lid = _next_id(db["shipping_labels"], "LBL-", 5)
    cost = _q(LABEL_COST[(carrier, service)])
    billed = "company" if r["in_warranty"] else "customer"
    lab = {"label_id": lid, "rma_id": r["rma_id"], "carrier": carrier, "service": service, "cost": float(cost),
           "billed_to": billed, "tracking_number": "%s-%s" % (carrier.upper(), lid[4:]), "status": "active",
           "created_on": today.isoformat(), "voided_on": None}
    db["shipping_labels"][lid] = lab
    r["label_id"] = lid
    if billed == "customer":
        c = db["customers"][r["customer_id"]]
        c["balance_due"] = float(_q(c["balance_due"]) + cost)
    return lab


def void_label(db, args):
    lab = _get(db, "shipping_labels", _str(args, "label_id"), "label")
    if lab["status"] != "active":
        raise RefError("only active labels can be voided")
    _void(db, lab)
    return lab


def receive_rma(db, args):
    r = _rma(db, args)
    if r["status"] != "approved":
        raise RefError("only approved RMAs can be received")
    lab = db["shipping_labels"].get(r["label_id"]) if r["label_id"] else None
    if not lab or lab["status"] != "active":
        raise RefError("RMA has no active shipping label")
    today = _today(db)
    if today.isoformat() > r["approval_expires_on"]:
        raise RefError("approval has expired")
    lab["status"] = "used"
    r["status"] = "received"
    r["received_on"] = today.isoformat()
    return r


def record_inspection(db, args):
    r = _rma(db, args)
    outcome = _str(args, "outcome")
    notes = args.get("notes")
    if outcome not in OUTCOMES:
        raise RefError("unknown outcome")
    if notes is not None and (not isinstance(notes, str) or len(notes) > 1000):
        raise RefError("notes must be a string of at most 1000 characters")
    if r["status"] != "received":
        raise RefError("only received RMAs can be inspected")
    r["status"] = "inspected"
    r["inspection_outcome"] = outcome
    r["inspection_notes"] = notes
    r["inspected_on"] = _today(db).isoformat()
    return r


def resolve_rma(db, args):
    r = _rma(db, args)
    res = _str(args, "resolution")
    method = args.get("refund_method", "original_payment")
    if res not in ("repair", "replace", "refund"):
        raise RefError("unknown resolution")
    if method not in ("original_payment", "store_credit"):
        raise RefError("unknown refund method")
    if r["status"] != "inspected":
        raise RefError("only inspected RMAs can be resolved")
    outcome = r["inspection_outcome"]
    if outcome == "no_fault_found":
        raise RefError("no fault found: close the RMA instead")
    covered = r["in_warranty"] and outcome == "defect_confirmed"
    if res != "repair" and not covered:
        raise RefError("replacement and refund require an in-warranty confirmed defect")
    today = _today(db)
    c = db["customers"][r["customer_id"]]
    p = db["products"][r["serial"]]
    if res == "repair":
        fee = Decimal("0.00") if covered else _q(Decimal(str(db["product_lines"][r["line_id"]]["repair_fee"])) *
                                                 (Decimal("0.80") if c["tier"] == "pro" else Decimal("1")))
        r["repair_fee"] = float(fee)
        c["balance_due"] = float(_q(c["balance_due"]) + fee)
        r["status"] = "repaired"
    elif res == "replace":
        avail = sorted(s for s, u in db["stock_units"].items()
                       if u["line_id"] == r["line_id"] and u["status"] == "available")
        if not avail:
            raise RefError("no replacement unit in stock")
        u = db["stock_units"][avail[0]]
        u["status"] = "allocated"
        u["allocated_rma_id"] = r["rma_id"]
        wend = max(date.fromisoformat(p["warranty_end"]), today + timedelta(days=90))
        db["products"][u["serial"]] = {
            "serial": u["serial"], "customer_id": c["customer_id"], "line_id": r["line_id"],
            "purchase_date": today.isoformat(), "purchase_price": p["purchase_price"],
            "registered_on": today.isoformat(), "warranty_end": wend.isoformat(), "status": "active",
            "replaces_serial": p["serial"]}
        p["status"] = "replaced"
        r["replacement_serial"] = u["serial"]
        r["status"] = "replaced"
    else:
        purchase = date.fromisoformat(p["purchase_date"])
        if (today - purchase).days > 180:
            raise RefError("refunds are limited to units purchased within 180 days")
        cutoff = (today - timedelta(days=365)).isoformat()
        recent = [f for f in db["refunds"].values() if f["customer_id"] == c["customer_id"] and f["issued_on"] > cutoff]
        if len(recent) >= 2:
            raise RefError("customer has reached the refund limit")
        factor = max(Decimal("0.40"), Decimal("1") - Decimal("0.015") * ((today - purchase).days // 30))
        amount = _q(Decimal(str(p["purchase_price"])) * factor)
        if method == "store_credit":
            amount = _q(amount * Decimal("1.10"))
            c["store_credit_balance"] = float(_q(c["store_credit_balance"]) + amount)
        fid = _next_id(db["refunds"], "RF-", 4)
        db["refunds"][fid] = {"refund_id": fid, "rma_id": r["rma_id"], "customer_id": c["customer_id"],
                              "serial": p["serial"], "amount": float(amount), "method": method,
                              "issued_on": today.isoformat()}
        p["status"] = "refunded"
        r["refund_id"] = fid
        r["status"] = "refunded"
    r["resolution"] = res
    r["resolved_on"] = today.isoformat()
    return r


def close_rma(db, args):
    r = _rma(db, args)
    ok = r["status"] in ("repaired", "replaced", "refunded") or (
        r["status"] == "inspected" and r["inspection_outcome"] == "no_fault_found")
    if not ok:
        raise RefError("RMA cannot be closed in its current state")
    r["status"] = "closed"
    r["closed_on"] = _today(db).isoformat()
    return r


TOOLS = {f.__name__: f for f in [check_warranty, list_products, list_rmas, get_rma, register_product, create_rma,
                                  approve_rma, reject_rma, create_shipping_label, void_label, receive_rma,
                                  record_inspection, resolve_rma, close_rma]}


def invoke(db, name, args):
    if name not in TOOLS:
        raise RefError("unknown tool %s" % name)
    if not isinstance(args, dict):
        raise RefError("arguments must be an object")
    return TOOLS[name](db, args)
