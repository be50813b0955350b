"""Probe calls for the Copperleaf volunteer scheduling API.

About 60% of the calls should be accepted and 40% refused according to openapi.yaml and policy.md.
Every probe is meant to be run against a fresh copy of the start data.
"""
from datetime import date, timedelta

CERTS = ["food_safety", "first_aid", "forklift", "driver", "youth_safeguarding"]
ROLES = ["intake", "sorting", "distribution", "kitchen", "driving", "team_lead"]


def _m(t):
    return int(t[:2]) * 60 + int(t[3:])


def _t(m):
    return "%02d:%02d" % (m // 60, m % 60)


def _age(dob, on):
    return on.year - dob.year - ((on.month, on.day) < (dob.month, dob.day))


class World:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        self.ti = self.today.isoformat()
        V, S, U, E = db["volunteers"], db["shifts"], db["signups"], db["events"]
        self.vols = sorted(V)
        self.active_v = [v for v in self.vols if V[v]["status"] == "active"]
        self.other_v = [v for v in self.vols if V[v]["status"] != "active"]
        self.inactive_v = [v for v in self.vols if V[v]["status"] == "inactive"]
        self.events = sorted(E)
        self.active_e = [e for e in self.events if E[e]["status"] == "active"]
        self.archived_e = [e for e in self.events if E[e]["status"] == "archived"]
        self.shifts = sorted(S)
        self.signups = sorted(U)
        self.by_status = {}
        for k in self.signups:
            self.by_status.setdefault(U[k]["status"], []).append(k)
        self.today_conf = [k for k in self.by_status.get("confirmed", []) if self.sh(k)["date"] == self.ti]
        self.future_conf = [k for k in self.by_status.get("confirmed", []) if self.sh(k)["date"] > self.ti]
        self.past_conf = [k for k in self.by_status.get("confirmed", []) if self.sh(k)["date"] < self.ti]
        self.waiting = self.by_status.get("waitlisted", [])
        self.closed_su = [k for k in self.signups if U[k]["status"] in ("cancelled", "completed", "no_show")]
        self.pairs = {}
        for s in self.shifts:
            for v in self.vols:
                self.pairs.setdefault(self.why_not(v, s), []).append((v, s))
        self.cancellable = [s for s in self.shifts if S[s]["status"] == "scheduled" and S[s]["date"] >= self.ti
                            and not any(U[k]["shift_id"] == s and U[k]["status"] == "checked_in" for k in U)]
        self.busy_today = sorted({U[k]["shift_id"] for k in self.by_status.get("checked_in", [])
                                  if self.db["shifts"][U[k]["shift_id"]]["date"] >= self.ti})

    def c(self, seq):
        return self.rng.choice(seq)

    def su(self, k):
        return self.db["signups"][k]

    def sh(self, k):
        return self.db["shifts"][self.db["signups"][k]["shift_id"]]

    def day(self, lo, hi):
        return (self.today + timedelta(days=self.rng.randint(lo, hi))).isoformat()

    def why_not(self, v, s):
        """None when volunteer v may sign up for shift s, else a short reason tag."""
        vol, sh = self.db["volunteers"][v], self.db["shifts"][s]
        d = date.fromisoformat(sh["date"])
        if vol["status"] != "active":
            return "status"
        if sh["status"] != "scheduled":
            return "cancelled"
        if not self.today <= d <= self.today + timedelta(days=90 if vol["level"] == "mainstay" else 45):
            return "window"
        if _age(date.fromisoformat(vol["date_of_birth"]), d) < sh["min_age"]:
            return "age"
        rc = sh["required_certification"]
        if rc and not any(c["code"] == rc and c["expires_on"] >= sh["date"] for c in vol["certifications"]):
            return "cert"
        if sh["role"] == "team_lead" and vol["level"] == "newcomer":
            return "level"
        for u in self.db["signups"].values():
            if u["volunteer_id"] != v:
                continue
            if u["shift_id"] == s and u["status"] != "cancelled":
                return "dup"
            o = self.db["shifts"][u["shift_id"]]
            if (u["status"] in ("confirmed", "waitlisted", "checked_in") and o["date"] == sh["date"]
                    and o["id"] != s and _m(o["start_time"]) < _m(sh["end_time"])
                    and _m(sh["start_time"]) < _m(o["end_time"])):
                return "overlap"
        if sh["filled_count"] >= sh["capacity"] and sh["waitlist_count"] >= 5:
            return "full"
        return None


# ------------------------------------------------------------------ generators
def g_list_volunteers(w, ok):
    if ok:
        a = {}
        r = w.rng.random()
        if r < 0.4:
            a["status"] = w.c(["active", "suspended", "inactive"])
        if w.rng.random() < 0.4:
            a["certification"] = w.c(CERTS)
        if w.rng.random() < 0.3:
            a["level"] = w.c(["newcomer", "regular", "mainstay"])
        if w.rng.random() < 0.4:
            v = w.db["volunteers"][w.c(w.vols)]
            a["q"] = w.c([v["last_name"][:4].upper(), v["first_name"].lower(), v["email"].split("@")[1], "an"])
        return a
    return w.c([{"status": "banned"}, {"level": "veteran"}, {"certification": "cpr"}, {"q": "a"},
                {"q": 7}, {"name": "Rhea"}])


def g_get_volunteer(w, ok):
    return {"volunteer_id": w.c(w.vols)} if ok else {"volunteer_id": w.c(["VOL-9999", "VOL-0001", "vol-1001"])}


def g_register_volunteer(w, ok):
    first = w.c(["Marisol", "Theo", "Anouk", "Bram", "Celeste", "Dev"])
    last = w.c(["Okafor", "Lindahl", "Perrault", "Sato", "Mendes"])
    a = {"first_name": first, "last_name": last,
         "email": "%s.%s%d@Example.org" % (first, last.lower(), w.rng.randint(1, 99)),
         "date_of_birth": date(w.today.year - w.rng.randint(15, 70), w.rng.randint(1, 12),
                               w.rng.randint(1, 28)).isoformat()}
    if w.rng.random() < 0.5:
        a["phone"] = "555-%03d-%04d" % (w.rng.randint(200, 999), w.rng.randint(0, 9999))
    if ok:
        if w.rng.random() < 0.25:   # turns 14 exactly today
            a["date_of_birth"] = date(w.today.year - 14, w.today.month, w.today.day).isoformat()
        return a
    bad = w.rng.randint(0, 6)
    if bad == 0:
        a["email"] = w.db["volunteers"][w.c(w.vols)]["email"].upper()
    elif bad == 1:
        a["email"] = w.c(["no-at-sign.example.org", "x@y", "two@@example.org"])
    elif bad == 2:   # one day short of 14
        a["date_of_birth"] = (date(w.today.year - 14, w.today.month, w.today.day) + timedelta(days=1)).isoformat()
    elif bad == 3:
        a["date_of_birth"] = w.day(1, 300)
    elif bad == 4:
        a["phone"] = w.c(["5552013344", "(555) 201-3344", "555-20-33444"])
    elif bad == 5:
        a["last_name"] = w.c(["   ", ""])
    else:
        del a["email"]
    return a


def g_add_certification(w, ok):
    V = w.db["volunteers"]
    if ok:
        v = w.c([x for x in w.vols if V[x]["status"] != "inactive"])
        held = {c["code"]: c["expires_on"] for c in V[v]["certifications"]}
        code = w.c(CERTS)
        lo = max(w.today, date.fromisoformat(held[code])) if code in held else w.today
        lo_days = (lo - w.today).days + 1
        return {"volunteer_id": v, "code": code, "expires_on": w.day(min(lo_days, 1095), 1095)}
    bad = w.rng.randint(0, 5)
    if bad == 0:
        return {"volunteer_id": w.c(w.inactive_v), "code": w.c(CERTS), "expires_on": w.day(30, 400)}
    v = w.c([x for x in w.vols if V[x]["status"] != "inactive"])
    if bad == 1:
        return {"volunteer_id": v, "code": w.c(CERTS), "expires_on": w.day(-200, 0)}
    if bad == 2:
        return {"volunteer_id": v, "code": w.c(CERTS), "expires_on": w.day(1096, 1500)}
    if bad == 3:
        cands = [(x, c) for x in w.vols if V[x]["status"] != "inactive" for c in V[x]["certifications"]
                 if c["expires_on"] > w.ti]
        x, c = w.c(cands)
        return {"volunteer_id": x, "code": c["code"], "expires_on": c["expires_on"]}
    if bad == 4:
        return {"volunteer_id": v, "code": w.c(["cpr", "Driver", "hazmat"]), "expires_on": w.day(30, 400)}
    return {"volunteer_id": "VOL-4040", "code": "first_aid", "expires_on": w.day(30, 400)}


def g_list_events(w, ok):
    if ok:
        a = {}
        if w.rng.random() < 0.4:
            a["status"] = w.c(["active", "archived"])
        if w.rng.random() < 0.4:
            a["city"] = w.c(["millbrook", "DUNMORE", "Harlow Point", "ashford falls", "Springfield"])
        if w.rng.random() < 0.3:
            a["q"] = w.c(["pantry", "WAREHOUSE", "kitchen", "soup", "Hall"])
        if w.rng.random() < 0.4:
            a["on_date"] = w.day(-40, 100)
        return a
    return w.c([{"status": "open"}, {"on_date": "21/05/2025"}, {"on_date": "2025-02-30"}, {"city": 3},
                {"site": "Eastside"}])


def g_list_shifts(w, ok):
    if ok:
        a = {}
        if w.rng.random() < 0.35:
            a["event_id"] = w.c(w.events)
        if w.rng.random() < 0.3:
            a["role"] = w.c(ROLES)
        if w.rng.random() < 0.25:
            a["status"] = w.c(["scheduled", "cancelled"])
        if w.rng.random() < 0.4:
            a["date_from"] = w.day(-20, 20)
            if w.rng.random() < 0.6:
                a["date_to"] = (date.fromisoformat(a["date_from"]) + timedelta(days=w.rng.randint(0, 40))).isoformat()
        if w.rng.random() < 0.2:
            a["required_certification"] = w.c(CERTS)
        if w.rng.random() < 0.35:
            a["open_only"] = w.c([True, True, False])
        return a
    bad = w.rng.randint(0, 4)
    if bad == 0:
        d = w.day(0, 30)
        return {"date_from": d, "date_to": (date.fromisoformat(d) - timedelta(days=w.rng.randint(1, 9))).isoformat()}
    return [None, {"event_id": "EV-999"}, {"role": "driver"}, {"open_only": "true"}, {"status": "full"}][bad]


def g_create_shift(w, ok):
    E = w.db["events"]
    ev = w.c([e for e in w.active_e if E[e]["end_date"] >= w.ti])
    lo = max(w.today, date.fromisoformat(E[ev]["start_date"]))
    hi = date.fromisoformat(E[ev]["end_date"])
    d = (lo + timedelta(days=w.rng.randint(0, (hi - lo).days))).isoformat()
    start = w.rng.randrange(6 * 60, 18 * 60, 15)
    end = start + w.rng.randrange(60, min(480, 22 * 60 - start) + 1, 15)
    role = w.c(ROLES)
    a = {"event_id": ev, "date": d, "start_time": _t(start), "end_time": _t(end), "role": role,
         "capacity": w.rng.randint(1, 30)}
    if role != "driving" and w.rng.random() < 0.5:
        a["required_certification"] = w.c(CERTS + [None])
    if role == "driving" and w.rng.random() < 0.5:
        a["required_certification"] = w.c(["driver", None])
    if w.rng.random() < 0.5:
        a["min_age"] = 21 if role == "driving" else w.rng.randint(14, 21)
    if ok:
        return a
    bad = w.rng.randint(0, 9)
    if bad == 0:
        ev = w.c(w.archived_e)
        a.update(event_id=ev, date=E[ev]["end_date"])
    elif bad == 1:
        a["date"] = w.day(-10, -1)
    elif bad == 2:
        ev = w.c(w.active_e)
        a.update(event_id=ev, date=(date.fromisoformat(max(E[ev]["end_date"], w.ti)) + timedelta(days=w.rng.randint(1, 20))).isoformat())
    elif bad == 3:
        a.update(start_time="09:10", end_time="12:10")
    elif bad == 4:
        a.update(start_time="13:00", end_time=w.c(["13:45", "12:00", "21:15"]))
    elif bad == 5:
        a.update(start_time=w.c(["05:30", "19:00"]), end_time=w.c(["09:00", "22:30"]))
    elif bad == 6:
        a.update(role="driving", required_certification=w.c(["first_aid", "forklift"]))
    elif bad == 7:
        a.update(role="driving", min_age=w.c([16, 18]))
    elif bad == 8:
        a.update(capacity=w.c([0, 31, "5"]))
    else:
        a["min_age"] = w.c([12, 25])
    return a


def g_cancel_shift(w, ok):
    reason = w.c(["weather", "low_turnout", "site_unavailable", "staffing"])
    if ok:
        return {"shift_id": w.c(w.cancellable), "reason": reason}
    S = w.db["shifts"]
    bad = w.rng.randint(0, 4)
    if bad == 0:
        return {"shift_id": w.c([s for s in w.shifts if S[s]["status"] == "cancelled"]), "reason": reason}
    if bad == 1:
        return {"shift_id": w.c([s for s in w.shifts if S[s]["date"] < w.ti]), "reason": reason}
    if bad == 2:
        return {"shift_id": w.c(w.busy_today), "reason": reason}
    if bad == 3:
        return {"shift_id": w.c(w.cancellable), "reason": w.c(["rain", "other", ""])}
    return {"shift_id": "SH-0000", "reason": reason}


def g_sign_up(w, ok):
    if ok:
        v, s = w.c(w.pairs[None])
        return {"shift_id": s, "volunteer_id": v}
    tags = [t for t in ("status", "cancelled", "window", "age", "cert", "level", "dup", "overlap", "full")
            if w.pairs.get(t)]
    if w.rng.random() < 0.1:
        return {"shift_id": w.c(w.shifts), "volunteer_id": "VOL-0042"}
    v, s = w.c(w.pairs[w.c(tags)])
    return {"shift_id": s, "volunteer_id": v}


def g_list_signups(w, ok):
    if ok:
        a = {}
        r = w.rng.random()
        if r < 0.5:
            a["volunteer_id"] = w.c(w.vols)
        if r > 0.35:
            a["shift_id"] = w.c(w.shifts)
        if w.rng.random() < 0.4:
            a["status"] = w.c(["confirmed", "waitlisted", "checked_in", "completed", "no_show", "cancelled"])
        return a
    return w.c([{}, {"status": "confirmed"}, {"volunteer_id": "VOL-2000"}, {"shift_id": "SH-9"},
                {"shift_id": w.c(w.shifts), "status": "pending"}])


def g_withdraw_signup(w, ok):
    if ok:
        return {"signup_id": w.c(w.today_conf * 2 + w.future_conf * 2 + w.waiting)}
    bad = w.rng.randint(0, 3)
    if bad == 0:
        return {"signup_id": w.c(w.closed_su)}
    if bad == 1:
        return {"signup_id": w.c(w.past_conf)}
    if bad == 2:
        return {"signup_id": w.c(w.by_status["checked_in"])}
    return {"signup_id": "SU-1"}


def g_check_in(w, ok):
    if ok:
        k = w.c(w.today_conf)
        s = w.sh(k)
        t = w.rng.randint(_m(s["start_time"]) - 30, _m(s["end_time"]) - 1)
        return {"signup_id": k, "time": _t(t)}
    bad = w.rng.randint(0, 4)
    if bad == 0:
        k = w.c(w.today_conf)
        s = w.sh(k)
        t = w.c([_m(s["start_time"]) - 31, _m(s["start_time"]) - 90, _m(s["end_time"]),
                 _m(s["end_time"]) + 20])
        return {"signup_id": k, "time": _t(t)}
    if bad == 1:
        k = w.c(w.future_conf + w.past_conf)
        return {"signup_id": k, "time": w.sh(k)["start_time"]}
    if bad == 2:
        k = w.c([x for x in w.waiting if w.sh(x)["date"] == w.ti] + w.by_status["checked_in"])
        return {"signup_id": k, "time": w.sh(k)["start_time"]}
    if bad == 3:
        return {"signup_id": w.c(w.today_conf), "time": w.c(["9:00", "25:00", "noon", "09:60"])}
    return {"signup_id": w.c(w.today_conf)}


def g_check_out(w, ok):
    inside = w.by_status["checked_in"]
    if ok:
        k = w.c(inside)
        s, u = w.sh(k), w.su(k)
        lo = max(_m(u["check_in_time"]), _m(s["start_time"])) + 1
        t = w.rng.randint(lo, min(_m(s["end_time"]) + 90, 23 * 60 + 59))
        return {"signup_id": k, "time": _t(t)}
    bad = w.rng.randint(0, 3)
    if bad == 0:
        k = w.c(inside)
        u, s = w.su(k), w.sh(k)
        return {"signup_id": k, "time": _t(max(_m(u["check_in_time"]), _m(s["start_time"])) - w.rng.randint(0, 40))}
    if bad == 1:
        k = w.c(w.today_conf + w.closed_su)
        return {"signup_id": k, "time": w.sh(k)["end_time"]}
    if bad == 2:
        return {"signup_id": w.c(inside), "time": w.c(["5pm", "17.00", "24:00"])}
    return {"signup_id": "SU-77777", "time": "12:00"}


def g_mark_no_show(w, ok):
    if ok:
        return {"signup_id": w.c(w.past_conf)}
    bad = w.rng.randint(0, 2)
    if bad == 0:
        return {"signup_id": w.c(w.today_conf + w.future_conf)}
    if bad == 1:
        return {"signup_id": w.c(w.closed_su + w.by_status["checked_in"] + w.waiting)}
    return {"signup_id": "SU-0"}


GENERATORS = [
    ("list_volunteers", g_list_volunteers, 2), ("get_volunteer", g_get_volunteer, 1),
    ("register_volunteer", g_register_volunteer, 3), ("add_certification", g_add_certification, 3),
    ("list_events", g_list_events, 1), ("list_shifts", g_list_shifts, 2),
    ("create_shift", g_create_shift, 4), ("cancel_shift", g_cancel_shift, 2),
    ("sign_up", g_sign_up, 5), ("list_signups", g_list_signups, 1),
    ("withdraw_signup", g_withdraw_signup, 3), ("check_in", g_check_in, 3),
    ("check_out", g_check_out, 3), ("mark_no_show", g_mark_no_show, 2),
]


def probes(db, rng, n):
    w = World(db, rng)
    names = [g[0] for g in GENERATORS]
    weights = [g[2] for g in GENERATORS]
    table = {g[0]: g[1] for g in GENERATORS}
    out = []
    for i in range(n):
        if i < 2 * len(names):   # every tool once valid, once invalid
            name, ok = names[i % len(names)], i < len(names)
        else:
            name, ok = rng.choices(names, weights)[0], rng.random() < 0.6
        out.append((name, table[name](w, ok)))
    return out
