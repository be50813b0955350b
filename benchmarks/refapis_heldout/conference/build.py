"""Builds db.json for the conference registration office (stdlib only, fixed seed)."""
import json
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP

rng = random.Random(20250605)

TODAY = date(2025, 6, 5)
START = date(2025, 6, 16)
END = date(2025, 6, 18)
CHECKIN_OPENS = date(2025, 6, 2)
SUB_FEE = Decimal("30.00")
ADMIN_FEE = Decimal("25.00")
ACTIVE = ("pending_payment", "confirmed", "checked_in")


def money(x):
    return Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def f(x):
    return float(money(x))


def ds(d):
    return d.isoformat() if d else None


def rdate(a, b):
    if b < a:
        return a
    return a + timedelta(days=rng.randint(0, (b - a).days))


# ---------------------------------------------------------------- organisations
ORG_NAMES = [
    ("Halvorsen Analytics", "NO", "consulting"), ("Brightwater Health", "GB", "healthcare"),
    ("Quantis Insurance", "DE", "finance"), ("Larchmont University", "US", "education"),
    ("Pellucid Labs", "NL", "technology"), ("Marrow & Finch LLP", "GB", "legal"),
    ("Tessellate Retail", "FR", "retail"), ("Northgate Logistics", "DK", "logistics"),
    ("Corvid Security", "US", "technology"), ("Ostara Energy", "ES", "energy"),
    ("Kestrel Bank", "IE", "finance"), ("Vireo Pharmaceuticals", "CH", "healthcare"),
    ("Ambergrid Telecom", "SE", "telecom"), ("Saltmarsh Media", "GB", "media"),
    ("Juniper Civic Data", "CA", "public_sector"), ("Orrery Systems", "US", "technology"),
    ("Palisade Mutual", "US", "finance"), ("Lumen Grove Foundation", "NL", "nonprofit"),
    ("Cobalt Freight", "DE", "logistics"), ("Ridgeline Municipal Services", "CA", "public_sector"),
]
organisations = {}
for i, (name, country, sector) in enumerate(ORG_NAMES, 1):
    oid = "ORG-%03d" % i
    pct, size = rng.choice([(0, 0), (10, 3), (10, 4), (15, 5), (12, 3), (0, 0), (20, 6)])
    dom = name.lower().replace("&", "").replace("  ", " ").split()[0] + ".example"
    organisations[oid] = {
        "organisation_id": oid, "name": name, "country": country, "sector": sector,
        "group_discount_pct": pct, "group_min_size": size,
        "billing_email": "accounts@" + dom,
    }

# ---------------------------------------------------------------- attendees
FIRST = ["Amara", "Bjorn", "Chiara", "Dmitri", "Elif", "Farah", "Gustavo", "Hana", "Ines", "Jonas",
         "Keiko", "Lars", "Maelle", "Nikhil", "Olu", "Priya", "Quentin", "Rosa", "Sven", "Tamsin",
         "Umar", "Valeria", "Wen", "Ximena", "Yusuf", "Zofia", "Aiden", "Beatriz", "Callum", "Daria"]
LAST = ["Okafor", "Lindqvist", "Romano", "Petrov", "Yilmaz", "Haddad", "Ferreira", "Sato", "Moreau",
        "Becker", "Tanaka", "Nilsson", "Dubois", "Rao", "Adeyemi", "Sharma", "Lefevre", "Garcia",
        "Eriksen", "Whitlock", "Siddiqui", "Castillo", "Zhang", "Navarro", "Demir", "Kowalska",
        "Murphy", "Almeida", "Fraser", "Volkova"]
TITLES = ["Data Engineer", "Analytics Manager", "Head of BI", "Data Scientist", "CTO",
          "Research Fellow", "Platform Lead", "ML Engineer", "Product Analyst", "PhD Student"]
DIETS = ["none"] * 6 + ["vegetarian", "vegan", "gluten_free", "halal", "kosher"]
attendees = {}
used_names = set()
org_ids = list(organisations)
for i in range(1, 121):
    aid = "ATT-%04d" % i
    while True:
        fn, ln = rng.choice(FIRST), rng.choice(LAST)
        if (fn, ln) not in used_names:
            used_names.add((fn, ln))
            break
    org = rng.choice(org_ids) if rng.random() < 0.78 else None
    dom = organisations[org]["billing_email"].split("@")[1] if org else rng.choice(
        ["mailbox.example", "post.example", "inbox.example"])
    attendees[aid] = {
        "attendee_id": aid, "first_name": fn, "last_name": ln,
        "email": "%s.%s@%s" % (fn.lower(), ln.lower(), dom),
        "organisation_id": org, "job_title": rng.choice(TITLES + [None]),
        "dietary": rng.choice(DIETS),
        "created_on": ds(rdate(date(2025, 1, 15), date(2025, 6, 1))),
    }

# ---------------------------------------------------------------- ticket types
TT = [
    ("TT-01", "Full Conference - Standard", "full_conference", 640, 795, "2025-05-15", "standard", True, True, "DELEGATE", 6),
    ("TT-02", "Full Conference - Flex", "full_conference", 760, 920, "2025-06-08", "flexible", True, True, "DELEGATE", 8),
    ("TT-03", "Single Day Pass", "day_pass", 290, 345, "2025-06-08", "standard", False, True, "DAY PASS", 5),
    ("TT-04", "Student Pass", "student", 180, 220, "2025-05-31", "non_refundable", True, True, "STUDENT", 4),
    ("TT-05", "Virtual Attendance", "virtual", 120, 150, "2025-06-08", "non_refundable", False, True, "VIRTUAL", 60),
    ("TT-06", "Workshop-Only Pass", "workshop_only", 260, 310, "2025-05-15", "standard", True, True, "WORKSHOP", 0),
    ("TT-07", "Exhibitor Staff", "exhibitor", 150, 150, "2025-04-30", "non_refundable", False, False, "EXHIBITOR", 10),
    ("TT-08", "Academic & Public Sector", "full_conference", 480, 560, "2025-06-08", "standard", True, True, "DELEGATE", 3),
]
ticket_types = {}
slack = {}
for (tid, name, cat, eb, reg, dl, rp, ws, so, label, sl) in TT:
    ticket_types[tid] = {
        "ticket_type_id": tid, "name": name, "category": cat,
        "early_bird_price": float(eb), "regular_price": float(reg), "early_bird_deadline": dl,
        "refund_policy": rp, "includes_workshops": ws, "sales_open": so, "badge_label": label,
        "capacity": 0, "sold": 0,
    }
    slack[tid] = sl
TT_WEIGHTS = {"TT-01": 22, "TT-02": 12, "TT-03": 10, "TT-04": 8, "TT-05": 10, "TT-06": 7, "TT-07": 4, "TT-08": 9}
GROUP_CATS = ("full_conference", "day_pass", "workshop_only")

# ---------------------------------------------------------------- discount codes
CODES = [
    ("EARLYDATA10", "Newsletter early subscribers", "percent", 10, 60, "2025-06-30", True, []),
    ("SPEAKER100", "Complimentary pass for accepted speakers", "percent", 100, 0, "2025-06-16", True, ["TT-01", "TT-02"]),
    ("ALUMNI15", "Returning delegates from previous editions", "percent", 15, 0, "2025-06-15", True, []),
    ("FLAT75", "Partner mailing - 75 off full conference", "fixed", 75, 0, "2025-06-20", True, ["TT-01", "TT-02", "TT-08"]),
    ("STUDENT20", "University societies", "percent", 20, 0, "2025-06-16", True, ["TT-04"]),
    ("SPRING50", "Spring promotion", "fixed", 50, 0, "2025-04-30", True, []),
    ("PARTNER25", "Community partner allocation", "percent", 25, -1, "2025-06-16", True, []),
    ("LEGACY20", "Withdrawn 2024 code", "percent", 20, 0, "2025-12-31", False, []),
    ("VIRTUAL30", "Remote-first teams", "percent", 30, 0, "2025-06-18", True, ["TT-05"]),
    ("MEETUP5", "Local meetup groups", "percent", 5, 0, "2025-06-16", True, []),
]
discount_codes = {}
for (code, desc, kind, val, extra, until, active, tts) in CODES:
    discount_codes[code] = {
        "code": code, "description": desc, "kind": kind, "value": float(val),
        "max_uses": extra, "times_used": 0, "valid_until": until, "active": active,
        "ticket_type_ids": tts,
    }


def price_for(tt, on):
    if on <= date.fromisoformat(tt["early_bird_deadline"]):
        return "early_bird", money(tt["early_bird_price"])
    return "regular", money(tt["regular_price"])


def code_discount(dc, price):
    if dc["kind"] == "percent":
        return money(price * Decimal(str(dc["value"])) / 100)
    return min(money(dc["value"]), price)


def refund_for(tt, paid, on):
    days = (START - on).days
    if tt["refund_policy"] == "flexible":
        return paid
    if tt["refund_policy"] == "non_refundable":
        return Decimal("0.00")
    if days >= 21:
        return max(paid - ADMIN_FEE, Decimal("0.00"))
    if days >= 7:
        return money(paid / 2)
    return Decimal("0.00")


# ---------------------------------------------------------------- registrations
regs = []      # temporary records, keyed by position; ids assigned later
pays = []
free_att = list(attendees)
rng.shuffle(free_att)
org_active = {o: 0 for o in organisations}
created_dates = sorted(rdate(date(2025, 2, 3), date(2025, 6, 4)) for _ in range(92))
REASONS = ["Travel budget withdrawn", "Schedule conflict", "Visa not granted in time",
           "Duplicate booking", "Illness", "Changed roles"]

for cdate in created_dates:
    att = None
    for a in free_att:
        if attendees[a]["created_on"] <= ds(cdate):
            att = a
            break
    if att is None:
        continue
    free_att.remove(att)
    choices = [t for t in TT_WEIGHTS if t != "TT-07" or cdate <= date(2025, 4, 30)]
    tid = rng.choices(choices, [TT_WEIGHTS[t] for t in choices])[0]
    tt = ticket_types[tid]
    period, price = price_for(tt, cdate)
    org = attendees[att]["organisation_id"]
    group = Decimal("0.00")
    if org and tt["category"] in GROUP_CATS and organisations[org]["group_discount_pct"] > 0:
        if org_active[org] + 1 >= organisations[org]["group_min_size"]:
            group = money(price * organisations[org]["group_discount_pct"] / 100)
    code, cdisc = None, Decimal("0.00")
    if rng.random() < 0.32:
        ok = [c for c, dc in discount_codes.items() if dc["active"] and ds(cdate) <= dc["valid_until"]
              and (not dc["ticket_type_ids"] or tid in dc["ticket_type_ids"])
              and (c != "SPEAKER100" or rng.random() < 0.3)]
        if ok:
            code = rng.choice(ok)
            cdisc = code_discount(discount_codes[code], price)
    if code and cdisc > group:
        src, disc = "code", cdisc
        discount_codes[code]["times_used"] += 1
    elif group > 0:
        src, disc, code = "group", group, None
    else:
        src, disc, code = "none", Decimal("0.00"), None
    due = price - disc
    r = {"attendee_id": att, "ticket_type_id": tid, "organisation_id": org, "status": None,
         "price_period": period, "list_price": f(price), "discount_source": src, "discount_code": code,
         "discount_amount": f(disc), "amount_due": f(due), "amount_paid": 0.0,
         "created_on": ds(cdate), "confirmed_on": None, "cancelled_on": None, "cancel_reason": None,
         "refund_amount": None, "transferred_from": None, "transferred_to": None,
         "transferred_on": None, "checked_in_on": None}
    regs.append(r)
    org_active[org] = org_active.get(org, 0) + 1 if org else 0
    # fate
    roll = rng.random()
    if due == 0:
        r["status"] = "confirmed"
        r["confirmed_on"] = r["created_on"]
    elif roll < 0.3 and cdate >= date(2025, 4, 20):
        r["status"] = "pending_payment"
        if rng.random() < 0.4:
            part = money(due * Decimal("0.5"))
            pd = rdate(cdate, TODAY - timedelta(days=1))
            pays.append({"reg": r, "kind": "payment", "amount": part,
                         "method": rng.choice(["card", "bank_transfer"]), "date": pd})
            r["amount_paid"] = f(part)
    else:
        method = rng.choice(["card", "card", "bank_transfer"] + (["invoice"] if org else []))
        pd = rdate(cdate, min(cdate + timedelta(days=14), TODAY - timedelta(days=1)))
        if rng.random() < 0.25:
            part = money(due * Decimal("0.4"))
            pd2 = rdate(pd, min(pd + timedelta(days=10), TODAY - timedelta(days=1)))
            pays.append({"reg": r, "kind": "payment", "amount": part, "method": method, "date": pd})
            pays.append({"reg": r, "kind": "payment", "amount": due - part, "method": method, "date": pd2})
            pd = pd2
        else:
            pays.append({"reg": r, "kind": "payment", "amount": due, "method": method, "date": pd})
        r["amount_paid"] = f(due)
        r["status"] = "confirmed"
        r["confirmed_on"] = ds(pd)
    if r["status"] == "pending_payment" and r["amount_paid"] == 0 and rng.random() < 0.25:
        r.update(status="cancelled", cancelled_on=ds(rdate(cdate, TODAY - timedelta(days=1))),
                 cancel_reason="Payment not received", refund_amount=0.0)
        if org:
            org_active[org] -= 1
    if r["status"] == "confirmed" and roll > 0.86 and date.fromisoformat(r["confirmed_on"]) < TODAY - timedelta(days=2):
        # cancelled later
        cd = rdate(date.fromisoformat(r["confirmed_on"]) + timedelta(days=1), TODAY - timedelta(days=1))
        paid = money(r["amount_paid"])
        refund = refund_for(tt, paid, cd)
        r.update(status="cancelled", cancelled_on=ds(cd), cancel_reason=rng.choice(REASONS),
                 refund_amount=f(refund))
        if refund > 0:
            last = [p for p in pays if p["reg"] is r][-1] if paid > 0 else None
            m = last["method"] if last else "bank_transfer"
            pays.append({"reg": r, "kind": "refund", "amount": refund,
                         "method": "bank_transfer" if m == "invoice" else m, "date": cd})
        if org:
            org_active[org] -= 1

# checked in / transfers among confirmed
for r in regs:
    if r["status"] != "confirmed":
        continue
    roll = rng.random()
    if roll < 0.14 and r["confirmed_on"] < "2025-06-02":
        r["status"] = "checked_in"
        r["checked_in_on"] = ds(rdate(CHECKIN_OPENS, TODAY - timedelta(days=1)))
    elif roll > 0.88 and r["organisation_id"] and ticket_types[r["ticket_type_id"]]["category"] != "student":
        cands = [a for a in free_att if attendees[a]["organisation_id"] == r["organisation_id"]]
        if not cands:
            continue
        new_att = cands[0]
        free_att.remove(new_att)
        td = rdate(max(date.fromisoformat(r["confirmed_on"]), date.fromisoformat(attendees[new_att]["created_on"])) + timedelta(days=1),
                   TODAY - timedelta(days=1))
        tt = ticket_types[r["ticket_type_id"]]
        fee = Decimal("0.00") if tt["refund_policy"] == "flexible" else SUB_FEE
        n = dict(r)
        n.update(attendee_id=new_att, status="confirmed", created_on=ds(td), transferred_from=r,
                 transferred_to=None, transferred_on=None, checked_in_on=None,
                 amount_due=f(money(r["amount_due"]) + fee))
        if fee > 0 and rng.random() < 0.5:
            n["status"] = "pending_payment"
            n["confirmed_on"] = None
        else:
            n["confirmed_on"] = ds(td)
            if fee > 0:
                pays.append({"reg": n, "kind": "payment", "amount": fee, "method": "card", "date": td})
                n["amount_paid"] = f(money(r["amount_paid"]) + fee)
        r.update(status="transferred", transferred_to=n, transferred_on=ds(td))
        regs.append(n)

# assign ids in creation order
order = sorted(range(len(regs)), key=lambda i: (regs[i]["created_on"], i))
rid = {}
for k, i in enumerate(order, 1):
    rid[id(regs[i])] = "REG-%05d" % k
registrations = {}
for i in order:
    r = dict(regs[i])
    r["registration_id"] = rid[id(regs[i])]
    for fld in ("transferred_from", "transferred_to"):
        if r[fld] is not None:
            r[fld] = rid[id(r[fld])]
    registrations[r["registration_id"]] = r
registrations = {k: {"registration_id": k, **{kk: vv for kk, vv in v.items() if kk != "registration_id"}}
                 for k, v in sorted(registrations.items())}

pays.sort(key=lambda p: (p["date"], rid[id(p["reg"])], p["kind"] == "refund"))
payments = {}
for k, p in enumerate(pays, 1):
    pid = "PAY-%05d" % k
    payments[pid] = {"payment_id": pid, "registration_id": rid[id(p["reg"])], "kind": p["kind"],
                     "amount": f(p["amount"]), "method": p["method"], "date": ds(p["date"])}

# ticket counters
for r in registrations.values():
    if r["status"] in ACTIVE:
        ticket_types[r["ticket_type_id"]]["sold"] += 1
for tid, tt in ticket_types.items():
    tt["capacity"] = tt["sold"] + slack[tid]
for code, dc in discount_codes.items():
    if dc["max_uses"] == -1:
        if dc["times_used"] == 0:
            dc["times_used"] = 0
        dc["max_uses"] = dc["times_used"]
    else:
        dc["max_uses"] = max(dc["max_uses"], dc["times_used"] + rng.choice([3, 5, 10, 20]))
# PARTNER25 must be exhausted; if never used give it a tiny pool of historical uses
if discount_codes["PARTNER25"]["max_uses"] == 0:
    discount_codes["PARTNER25"]["max_uses"] = 0

# ---------------------------------------------------------------- sessions
TITLES_WS = [
    ("Hands-on dbt for analysts", "engineering"), ("Causal inference in practice", "science"),
    ("Streaming with Kafka and Flink", "engineering"), ("Data contracts workshop", "governance"),
    ("LLM evaluation clinic", "science"), ("Privacy engineering bootcamp", "governance"),
    ("Dashboard design critique", "analytics"), ("Forecasting with hierarchical models", "science"),
    ("Lakehouse table formats", "engineering"), ("Data mesh org design", "governance"),
    ("SQL performance tuning lab", "engineering"), ("Experimentation platforms", "analytics"),
    ("Geospatial analytics", "analytics"), ("Feature stores deep dive", "engineering"),
    ("Responsible AI audit", "governance"), ("Metrics layers and semantics", "analytics"),
    ("Graph analytics for fraud", "science"), ("Observability for pipelines", "engineering"),
]
sessions = {}
k = 0
for day in range(3):
    for slot in ("morning", "afternoon"):
        for _ in range(3):
            title, track = TITLES_WS[k]
            k += 1
            sid = "WS-%03d" % (100 + k)
            sessions[sid] = {
                "session_id": sid, "title": title, "track": track,
                "date": ds(START + timedelta(days=day)), "slot": slot,
                "room": rng.choice(["Room A1", "Room A2", "Room B4", "Loft 1", "Loft 2", "Studio"]),
                "capacity": rng.choice([6, 8, 8, 10, 12, 16, 20]), "enrolled_count": 0,
                "waitlist_limit": rng.choice([3, 4, 5, 6]), "status": "open",
            }
sessions["WS-105"]["status"] = "cancelled"
sessions["WS-114"]["status"] = "cancelled"

ens = []
elig = [r for r in registrations.values() if r["status"] in ("confirmed", "checked_in")
        and ticket_types[r["ticket_type_id"]]["includes_workshops"]]
open_ws = [s for s in sessions if sessions[s]["status"] == "open"]
popular = ["WS-101", "WS-107", "WS-110", "WS-116"]
for r in elig:
    want = rng.randint(1, 3)
    picks = []
    tries = 0
    while len(picks) < want and tries < 20:
        tries += 1
        s = rng.choice(popular) if rng.random() < 0.4 else rng.choice(open_ws)
        if any((sessions[p]["date"], sessions[p]["slot"]) == (sessions[s]["date"], sessions[s]["slot"]) for p in picks):
            continue
        picks.append(s)
    for s in picks:
        ed = rdate(date.fromisoformat(r["confirmed_on"]), TODAY - timedelta(days=1))
        ens.append({"session_id": s, "registration_id": r["registration_id"], "date": ed})
# a few historical cancelled enrollments on cancelled / transferred registrations and cancelled sessions
hist = [r for r in registrations.values() if r["status"] in ("cancelled", "transferred")
        and ticket_types[r["ticket_type_id"]]["includes_workshops"] and r["confirmed_on"]]
for r in hist[:6]:
    s = rng.choice(open_ws)
    ens.append({"session_id": s, "registration_id": r["registration_id"],
                "date": date.fromisoformat(r["confirmed_on"]), "cancel": r["cancelled_on"] or r["transferred_on"]})
for s in ("WS-105", "WS-114"):
    for r in rng.sample(elig, 2):
        if any(e["registration_id"] == r["registration_id"] and sessions[e["session_id"]]["date"] == sessions[s]["date"]
               and sessions[e["session_id"]]["slot"] == sessions[s]["slot"] for e in ens):
            continue
        ens.append({"session_id": s, "registration_id": r["registration_id"],
                    "date": date.fromisoformat(r["confirmed_on"]), "cancel": "2025-05-28"})
ens.sort(key=lambda e: (e["date"], e["registration_id"], e["session_id"]))
enrollments = {}
waitcount = {s: 0 for s in sessions}
for k, e in enumerate(ens, 1):
    eid = "EN-%05d" % k
    s = sessions[e["session_id"]]
    rec = {"enrollment_id": eid, "session_id": e["session_id"], "registration_id": e["registration_id"],
           "status": None, "created_on": ds(e["date"]), "cancelled_on": None, "promoted_on": None}
    if e.get("cancel"):
        rec["status"] = "cancelled"
        rec["cancelled_on"] = max(e["cancel"], ds(e["date"]))
    elif s["enrolled_count"] < s["capacity"]:
        rec["status"] = "enrolled"
        s["enrolled_count"] += 1
    elif waitcount[e["session_id"]] < s["waitlist_limit"]:
        rec["status"] = "waitlisted"
        waitcount[e["session_id"]] += 1
    else:
        continue
    enrollments[eid] = rec
# renumber densely
enrollments = {("EN-%05d" % k): dict(v, enrollment_id="EN-%05d" % k)
               for k, v in enumerate(enrollments.values(), 1)}

# ---------------------------------------------------------------- badges
bad = []
for r in registrations.values():
    a = attendees[r["attendee_id"]]
    org = organisations[r["organisation_id"]]["name"] if r["organisation_id"] else "Independent"
    base = {"registration_id": r["registration_id"], "printed_name": a["first_name"] + " " + a["last_name"],
            "organisation_name": org, "badge_label": ticket_types[r["ticket_type_id"]]["badge_label"]}
    if r["status"] == "checked_in":
        pd = rdate(date(2025, 5, 26), date.fromisoformat(r["checked_in_on"]))
        if rng.random() < 0.45:
            bad.append(dict(base, status="void", printed_on=ds(pd - timedelta(days=3)), reprint_reason=None, voided_on=ds(pd)))
            bad.append(dict(base, status="issued", printed_on=ds(pd), reprint_reason="Misspelled name", voided_on=None))
        else:
            bad.append(dict(base, status="issued", printed_on=ds(pd), reprint_reason=None, voided_on=None))
    elif r["status"] == "confirmed" and r["confirmed_on"] < "2025-05-30" and rng.random() < 0.35:
        pd = rdate(max(date.fromisoformat(r["confirmed_on"]), date(2025, 5, 26)), TODAY - timedelta(days=1))
        bad.append(dict(base, status="issued", printed_on=ds(pd), reprint_reason=None, voided_on=None))
    elif r["status"] == "transferred" and r["transferred_on"] > "2025-05-27":
        pd = date(2025, 5, 26)
        bad.append(dict(base, status="void", printed_on=ds(pd), reprint_reason=None, voided_on=r["transferred_on"]))
bad.sort(key=lambda b: (b["printed_on"], b["registration_id"], b["status"] == "issued"))
badges = {}
for k, b in enumerate(bad, 1):
    bid = "BDG-%04d" % k
    badges[bid] = {"badge_id": bid, **b}

db = {
    "meta": {
        "today": ds(TODAY), "conference_name": "Meridian Data Summit 2025", "currency": "EUR",
        "conference_start": ds(START), "conference_end": ds(END), "checkin_opens": ds(CHECKIN_OPENS),
        "substitution_fee": float(SUB_FEE), "cancellation_admin_fee": float(ADMIN_FEE),
        "max_badges_per_registration": 3,
    },
    "organisations": organisations,
    "attendees": attendees,
    "ticket_types": ticket_types,
    "discount_codes": discount_codes,
    "sessions": sessions,
    "registrations": registrations,
    "enrollments": enrollments,
    "payments": payments,
    "badges": badges,
}
with open(__file__.rsplit("/", 1)[0] + "/db.json" if "/" in __file__ else "db.json", "w") as fh:
    json.dump(db, fh, indent=1)
print({k: len(v) for k, v in db.items()})
