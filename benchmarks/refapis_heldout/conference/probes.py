"""Probe generator for the conference registration office reference API."""

ACTIVE = ("pending_payment", "confirmed", "checked_in")


def _ctx(db):
    regs = list(db["registrations"].values())
    tts = db["ticket_types"]
    active_att = {r["attendee_id"] for r in regs if r["status"] in ACTIVE}
    badges = {}
    for b in db["badges"].values():
        badges.setdefault(b["registration_id"], []).append(b)
    enr = {}
    for e in db["enrollments"].values():
        if e["status"] in ("enrolled", "waitlisted"):
            enr.setdefault(e["registration_id"], []).append(e)
    return {
        "regs": regs, "active_att": active_att, "badges": badges, "enr": enr,
        "by": lambda *st: [r for r in regs if r["status"] in st],
        "free": [a for a in db["attendees"].values() if a["attendee_id"] not in active_att],
        "ws_tt": {t for t, v in tts.items() if v["includes_workshops"]},
    }


def _pick(rng, seq, default=None):
    seq = list(seq)
    return rng.choice(seq) if seq else default


def _valid(db, c, rng, tool):
    today = db["meta"]["today"]
    if tool == "get_registration":
        return {"registration_id": rng.choice(c["regs"])["registration_id"]}
    if tool == "list_registrations":
        a = {}
        if rng.random() < 0.5:
            a["status"] = rng.choice(["pending_payment", "confirmed", "cancelled", "transferred", "checked_in"])
        if rng.random() < 0.4:
            a["organisation_id"] = rng.choice(sorted(db["organisations"]))
        if rng.random() < 0.3:
            a["ticket_type_id"] = rng.choice(sorted(db["ticket_types"]))
        if rng.random() < 0.3:
            a["created_from"], a["created_to"] = "2025-04-01", rng.choice(["2025-05-15", "2025-06-05"])
        if rng.random() < 0.2:
            a["limit"] = rng.choice([5, 20, 100])
        return a
    if tool == "search_attendees":
        t = rng.choice(list(db["attendees"].values()))
        if rng.random() < 0.3:
            return {"organisation_id": rng.choice(sorted(db["organisations"]))}
        q = rng.choice([t["last_name"][:4].upper(), t["first_name"].lower(), t["email"].split("@")[1][:6],
                        (t["first_name"] + " " + t["last_name"][:2]).title()])
        return {"query": q}
    if tool == "list_ticket_types":
        return rng.choice([{}, {"on_sale_only": True}, {"category": "full_conference"},
                           {"category": rng.choice(["student", "virtual", "day_pass"]), "on_sale_only": False}])
    if tool == "list_sessions":
        return rng.choice([{}, {"available_only": True}, {"date": "2025-06-17"},
                           {"track": rng.choice(["Engineering", "science", "GOVERNANCE"])},
                           {"date": "2025-06-16", "available_only": True}])
    if tool == "create_attendee":
        k = rng.randint(100, 999)
        a = {"first_name": rng.choice(["Noor", "Tobias", "Leila", "Matteo"]), "last_name": "Probe%d" % k,
             "email": "Probe.%d@Attendees.example" % k}
        if rng.random() < 0.6:
            a["organisation_id"] = rng.choice(sorted(db["organisations"]))
        if rng.random() < 0.5:
            a["dietary"] = rng.choice(["vegan", "halal", "none"])
        if rng.random() < 0.3:
            a["job_title"] = "Data Lead"
        return a
    if tool == "create_registration":
        att = _pick(rng, c["free"])
        open_tt = [t for t, v in db["ticket_types"].items() if v["sales_open"] and v["sold"] < v["capacity"]]
        tid = rng.choice(open_tt)
        a = {"attendee_id": att["attendee_id"], "ticket_type_id": tid}
        codes = [k for k, d in db["discount_codes"].items() if d["active"] and d["valid_until"] >= today
                 and d["times_used"] < d["max_uses"] and (not d["ticket_type_ids"] or tid in d["ticket_type_ids"])]
        if codes and rng.random() < 0.5:
            code = rng.choice(codes)
            a["discount_code"] = code.lower() if rng.random() < 0.3 else code
        return a
    if tool == "record_payment":
        r = _pick(rng, c["by"]("pending_payment"))
        bal = round(r["amount_due"] - r["amount_paid"], 2)
        amt = bal if rng.random() < 0.6 else round(bal / 2, 2)
        return {"registration_id": r["registration_id"], "amount": amt,
                "method": rng.choice(["card", "bank_transfer"] + (["invoice"] if r["organisation_id"] else []))}
    if tool == "cancel_registration":
        r = _pick(rng, c["by"]("pending_payment", "confirmed"))
        return {"registration_id": r["registration_id"],
                "reason": rng.choice(["Travel freeze", "Attendee changed jobs", "Budget cut"])}
    if tool == "transfer_registration":
        opts = []
        for r in c["by"]("confirmed"):
            if r["transferred_from"] or not r["organisation_id"] or \
                    db["ticket_types"][r["ticket_type_id"]]["category"] == "student":
                continue
            subs = [a for a in c["free"] if a["organisation_id"] == r["organisation_id"]]
            if subs:
                opts.append((r, subs))
        r, subs = rng.choice(opts)
        return {"registration_id": r["registration_id"], "new_attendee_id": rng.choice(subs)["attendee_id"]}
    if tool == "enroll_in_session":
        for _ in range(40):
            r = _pick(rng, [x for x in c["by"]("confirmed", "checked_in") if x["ticket_type_id"] in c["ws_tt"]])
            s = rng.choice([x for x in db["sessions"].values() if x["status"] == "open"])
            mine = [db["sessions"][e["session_id"]] for e in c["enr"].get(r["registration_id"], [])]
            if all((o["date"], o["slot"]) != (s["date"], s["slot"]) for o in mine):
                return {"session_id": s["session_id"], "registration_id": r["registration_id"]}
        return {"session_id": s["session_id"], "registration_id": r["registration_id"]}
    if tool == "cancel_enrollment":
        e = _pick(rng, [e for e in db["enrollments"].values() if e["status"] in ("enrolled", "waitlisted")])
        return {"enrollment_id": e["enrollment_id"]}
    if tool == "print_badge":
        r = _pick(rng, [x for x in c["by"]("confirmed", "checked_in") if len(c["badges"].get(x["registration_id"], [])) < 3])
        if any(b["status"] == "issued" for b in c["badges"].get(r["registration_id"], [])):
            return {"registration_id": r["registration_id"], "reprint_reason": "Damaged lanyard sleeve"}
        return {"registration_id": r["registration_id"]}
    if tool == "check_in_registration":
        r = _pick(rng, [x for x in c["by"]("confirmed")
                        if any(b["status"] == "issued" for b in c["badges"].get(x["registration_id"], []))])
        return {"registration_id": r["registration_id"]}
    raise KeyError(tool)


def _invalid(db, c, rng, tool):
    reg = lambda *st: _pick(rng, c["by"](*st))["registration_id"]
    if tool == "get_registration":
        return rng.choice([{"registration_id": "REG-99999"}, {"registration_id": "ATT-0001"}, {}])
    if tool == "list_registrations":
        return rng.choice([{"status": "active"}, {"created_from": "2025/05/01"}, {"organisation_id": "ORG-999"},
                           {"created_from": "2025-06-01", "created_to": "2025-05-01"}, {"limit": 0},
                           {"limit": 500}, {"ticket_type_id": "TT-99"}])
    if tool == "search_attendees":
        return rng.choice([{"query": "a"}, {"query": " "}, {"organisation_id": "ORG-404"}])
    if tool == "list_ticket_types":
        return rng.choice([{"category": "vip"}, {"category": "Full Conference"}])
    if tool == "list_sessions":
        return rng.choice([{"date": "June 16"}, {"date": "2025-13-01"}])
    if tool == "create_attendee":
        t = rng.choice(list(db["attendees"].values()))
        return rng.choice([
            {"first_name": "Dup", "last_name": "Email", "email": t["email"].upper()},
            {"first_name": "Bad", "last_name": "Mail", "email": "no-at-sign.example"},
            {"first_name": "Lost", "last_name": "Org", "email": "lost.org@x.example", "organisation_id": "ORG-777"},
            {"first_name": "Diet", "last_name": "Odd", "email": "diet.odd@x.example", "dietary": "paleo"},
            {"first_name": "  ", "last_name": "Blank", "email": "blank@x.example"},
        ])
    if tool == "create_registration":
        free = _pick(rng, c["free"])["attendee_id"]
        busy = _pick(rng, c["active_att"])
        return rng.choice([
            {"attendee_id": busy, "ticket_type_id": "TT-01"},
            {"attendee_id": free, "ticket_type_id": "TT-07"},
            {"attendee_id": free, "ticket_type_id": "TT-06"},
            {"attendee_id": free, "ticket_type_id": "TT-01", "discount_code": "SPRING50"},
            {"attendee_id": free, "ticket_type_id": "TT-02", "discount_code": "PARTNER25"},
            {"attendee_id": free, "ticket_type_id": "TT-01", "discount_code": "LEGACY20"},
            {"attendee_id": free, "ticket_type_id": "TT-01", "discount_code": "STUDENT20"},
            {"attendee_id": free, "ticket_type_id": "TT-03", "discount_code": "NOPE2025"},
            {"attendee_id": "ATT-9999", "ticket_type_id": "TT-01"},
        ])
    if tool == "record_payment":
        p = _pick(rng, c["by"]("pending_payment"))
        bal = round(p["amount_due"] - p["amount_paid"], 2)
        indep = _pick(rng, [r for r in c["by"]("pending_payment") if not r["organisation_id"]], p)
        opts = [
            {"registration_id": reg("confirmed"), "amount": 10.0, "method": "card"},
            {"registration_id": p["registration_id"], "amount": round(bal + 5, 2), "method": "card"},
            {"registration_id": p["registration_id"], "amount": 0, "method": "card"},
            {"registration_id": p["registration_id"], "amount": -20.0, "method": "bank_transfer"},
            {"registration_id": p["registration_id"], "amount": 1.005, "method": "card"},
            {"registration_id": p["registration_id"], "amount": 10.0, "method": "cash"},
        ]
        if not indep["organisation_id"]:
            opts.append({"registration_id": indep["registration_id"], "amount": 1.0, "method": "invoice"})
        return rng.choice(opts)
    if tool == "cancel_registration":
        return rng.choice([
            {"registration_id": reg("cancelled"), "reason": "again"},
            {"registration_id": reg("transferred"), "reason": "moved"},
            {"registration_id": reg("checked_in"), "reason": "left early"},
            {"registration_id": reg("confirmed"), "reason": "   "},
            {"registration_id": "REG-00000", "reason": "ghost"},
        ])
    if tool == "transfer_registration":
        conf = [r for r in c["by"]("confirmed") if r["organisation_id"] and not r["transferred_from"]]
        r = rng.choice(conf)
        other = _pick(rng, [a for a in c["free"] if a["organisation_id"] != r["organisation_id"]])
        same_busy = _pick(rng, [a for a in c["active_att"] if a != r["attendee_id"]
                                and db["attendees"][a]["organisation_id"] == r["organisation_id"]], r["attendee_id"])
        free = _pick(rng, c["free"])["attendee_id"]
        opts = [
            {"registration_id": r["registration_id"], "new_attendee_id": other["attendee_id"]},
            {"registration_id": r["registration_id"], "new_attendee_id": same_busy},
            {"registration_id": reg("pending_payment"), "new_attendee_id": free},
            {"registration_id": reg("checked_in"), "new_attendee_id": free},
            {"registration_id": reg("cancelled"), "new_attendee_id": free},
        ]
        tf = [x for x in c["regs"] if x["transferred_from"] and x["status"] == "confirmed"]
        if tf:
            x = rng.choice(tf)
            sub = _pick(rng, [a for a in c["free"] if a["organisation_id"] == x["organisation_id"]], {"attendee_id": free})
            opts.append({"registration_id": x["registration_id"], "new_attendee_id": sub["attendee_id"]})
        ind = [x for x in c["by"]("confirmed") if not x["organisation_id"]]
        if ind:
            opts.append({"registration_id": rng.choice(ind)["registration_id"], "new_attendee_id": free})
        return rng.choice(opts)
    if tool == "enroll_in_session":
        ok = [x for x in c["by"]("confirmed") if x["ticket_type_id"] in c["ws_tt"]]
        r = rng.choice(ok)
        no_ws = _pick(rng, [x for x in c["by"]("confirmed") if x["ticket_type_id"] not in c["ws_tt"]], r)
        has = _pick(rng, [e for l in c["enr"].values() for e in l])
        clash = [s for s in db["sessions"].values() if s["status"] == "open" and s["session_id"] != has["session_id"]
                 and (s["date"], s["slot"]) == (db["sessions"][has["session_id"]]["date"], db["sessions"][has["session_id"]]["slot"])]
        opts = [
            {"session_id": "WS-105", "registration_id": r["registration_id"]},
            {"session_id": "WS-101", "registration_id": reg("pending_payment")},
            {"session_id": "WS-102", "registration_id": no_ws["registration_id"]},
            {"session_id": has["session_id"], "registration_id": has["registration_id"]},
            {"session_id": "WS-999", "registration_id": r["registration_id"]},
        ]
        if clash:
            opts.append({"session_id": clash[0]["session_id"], "registration_id": has["registration_id"]})
        return rng.choice(opts)
    if tool == "cancel_enrollment":
        gone = _pick(rng, [e for e in db["enrollments"].values() if e["status"] == "cancelled"])
        return rng.choice([{"enrollment_id": gone["enrollment_id"]}, {"enrollment_id": "EN-99999"}])
    if tool == "print_badge":
        issued = _pick(rng, [b for b in db["badges"].values() if b["status"] == "issued"])
        return rng.choice([
            {"registration_id": reg("pending_payment")},
            {"registration_id": reg("cancelled")},
            {"registration_id": issued["registration_id"]},
            {"registration_id": issued["registration_id"], "reprint_reason": ""},
        ])
    if tool == "check_in_registration":
        nob = _pick(rng, [x for x in c["by"]("confirmed") if not any(
            b["status"] == "issued" for b in c["badges"].get(x["registration_id"], []))])
        return rng.choice([{"registration_id": nob["registration_id"]}, {"registration_id": reg("pending_payment")},
                           {"registration_id": reg("checked_in")}, {"registration_id": reg("transferred")}])
    raise KeyError(tool)


TOOLS = ["get_registration", "list_registrations", "search_attendees", "list_ticket_types", "list_sessions",
         "create_attendee", "create_registration", "record_payment", "cancel_registration",
         "transfer_registration", "enroll_in_session", "cancel_enrollment", "print_badge", "check_in_registration"]


def probes(db, rng, n):
    c = _ctx(db)
    out = []
    for i in range(n):
        tool = TOOLS[i % len(TOOLS)] if i < 2 * len(TOOLS) else rng.choice(TOOLS)
        gen = _valid if rng.random() < 0.6 else _invalid
        out.append((tool, gen(db, c, rng, tool)))
    return out
