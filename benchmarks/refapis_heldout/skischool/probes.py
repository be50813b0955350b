"""Probe generator for the ski school API: about 60% valid calls, 40% calls to be refused."""
import copy
from datetime import date, timedelta

LEVELS = ["beginner", "intermediate", "advanced"]
TYPES = ["skis", "snowboard", "boots", "helmet", "poles"]
NEED = {"beginner": 1, "intermediate": 2, "advanced": 3}


def _d(s):
    return date.fromisoformat(s)


def _age(b, on):
    return on.year - b.year - ((on.month, on.day) < (b.month, b.day))


class _Gen:
    def __init__(self, db, rng):
        self.s = copy.deepcopy(db)
        self.rng = rng
        self.today = _d(db["meta"]["today"])
        self.t = db["meta"]["today"]
        self.n_guest = len(db["guests"])
        self.n_book = len(db["bookings"])
        self.n_rent = len(db["rentals"])
        self.cancelled_lessons = 0

    # helpers --------------------------------------------------------
    def pick(self, xs):
        return self.rng.choice(xs) if xs else None

    def vals(self, coll, **kw):
        return [r for r in self.s[coll].values() if all(r.get(k) == v for k, v in kw.items())]

    def active_bookings(self):
        return [b for b in self.s["bookings"].values() if b["status"] in ("reserved", "paid")]

    def booking_ok(self, g, les, seats):
        d = _d(les["date"])
        if g["account_status"] != "active" or les["status"] != "scheduled":
            return False
        if not self.today + timedelta(1) <= d <= self.today + timedelta(60):
            return False
        for b in self.active_bookings():
            o = self.s["lessons"][b["lesson_id"]]
            if b["guest_id"] == g["id"] and o["date"] == les["date"] and o["slot"] == les["slot"]:
                return False
            if les["lesson_type"] == "private" and b["lesson_id"] == les["id"]:
                return False
        if les["lesson_type"] == "group" and LEVELS.index(g["skill_level"]) < LEVELS.index(les["level"]):
            return False
        return les["seats_booked"] + seats <= les["capacity"]

    def qualified(self, ins, les):
        need = NEED[les["level"]]
        if les["lesson_type"] == "private":
            need = max(need, 2)
        if ins["status"] != "active" or les["discipline"] not in ins["disciplines"]:
            return False
        if ins["cert_level"] < need or les["instructor_id"] == ins["id"]:
            return False
        return not any(o["instructor_id"] == ins["id"] and o["status"] == "scheduled" and o["id"] != les["id"]
                       and o["date"] == les["date"] and o["slot"] == les["slot"]
                       for o in self.s["lessons"].values())

    def upcoming(self):
        return [l for l in self.s["lessons"].values() if l["status"] == "scheduled" and l["date"] >= self.t]

    # reads ----------------------------------------------------------
    def search_guests(self, ok):
        g = self.pick(list(self.s["guests"].values()))
        if ok:
            src = g["full_name"] if self.rng.random() < 0.6 else g["email"]
            i = self.rng.randint(0, max(0, len(src) - 4))
            q = src[i:i + self.rng.randint(2, 5)]
            q = q.upper() if self.rng.random() < 0.3 else q
            a = {"query": q}
            if self.rng.random() < 0.3:
                a["account_status"] = self.pick(["active", "on_hold"])
            return a
        return self.pick([{"query": "a"}, {"query": "   "}, {"query": " x "},
                          {"query": "an", "account_status": "blocked"}])

    def list_lessons(self, ok):
        if ok:
            a = {}
            if self.rng.random() < 0.5:
                a["date_from"] = (self.today + timedelta(self.rng.randint(-5, 10))).isoformat()
            if self.rng.random() < 0.4:
                a["date_to"] = (self.today + timedelta(self.rng.randint(11, 40))).isoformat()
            for k, opts in [("discipline", ["ski", "snowboard"]), ("level", LEVELS),
                            ("lesson_type", ["group", "private"]),
                            ("status", ["scheduled", "completed", "cancelled"])]:
                if self.rng.random() < 0.3:
                    a[k] = self.pick(opts)
            if self.rng.random() < 0.2:
                a["instructor_id"] = self.pick(sorted(self.s["instructors"]))
            if self.rng.random() < 0.3:
                a["has_open_seats"] = self.rng.random() < 0.7
            return a
        return self.pick([{"date_from": "2025-03-01", "date_to": "2025-02-20"},
                          {"date_from": "2025-02-31"}, {"date_to": "10/02/2025"},
                          {"discipline": "telemark"}, {"instructor_id": "I999"},
                          {"status": "open"}])

    def list_instructors(self, ok):
        if ok:
            a = {}
            if self.rng.random() < 0.5:
                a["discipline"] = self.pick(["ski", "snowboard"])
            if self.rng.random() < 0.4:
                a["status"] = self.pick(["active", "on_leave"])
            if self.rng.random() < 0.4:
                a["min_cert_level"] = self.rng.randint(1, 3)
            return a
        return self.pick([{"min_cert_level": 4}, {"min_cert_level": 0},
                          {"discipline": "sledge"}, {"status": "retired"}])

    def list_bookings(self, ok):
        if ok:
            r = self.rng.random()
            a = {}
            if r < 0.45:
                a["guest_id"] = self.pick(sorted(self.s["guests"]))
            elif r < 0.85:
                a["lesson_id"] = self.pick(sorted(self.s["lessons"]))
            if self.rng.random() < 0.4:
                a["status"] = self.pick(["reserved", "paid", "attended", "no_show", "cancelled"])
            return a
        return self.pick([{"guest_id": "G9999"}, {"lesson_id": "L0999"}, {"status": "pending"},
                          {"guest_id": "g0001"}])

    # guests ---------------------------------------------------------
    def register_guest(self, ok):
        first = self.pick(["Kai", "Lotte", "Sami", "Pia", "Jan", "Vera", "Ugo", "Zoe"])
        last = self.pick(["Ortner", "Tauber", "Zangerl", "Kofler", "Rainer"])
        tag = self.rng.randint(100, 999)
        email = "%s.%s%d@%s" % (first.lower(), last.lower(), tag, self.pick(["web.de", "gmx.at"]))
        birth = date(self.rng.randint(1965, 2018), self.rng.randint(1, 12), self.rng.randint(1, 28))
        a = {"full_name": "%s %s" % (first, last), "email": email, "birth_date": birth.isoformat()}
        if self.rng.random() < 0.6:
            a["skill_level"] = self.pick(LEVELS)
        emails = {g["email"] for g in self.s["guests"].values()}
        if ok and email not in emails:
            if self.rng.random() < 0.3:
                a["email"] = email.upper()
            self.n_guest += 1
            gid = "G%04d" % self.n_guest
            self.s["guests"][gid] = {"id": gid, "full_name": a["full_name"], "email": email,
                                     "birth_date": a["birth_date"], "skill_level": a.get("skill_level", "beginner"),
                                     "account_status": "active", "credit_balance": 0.0,
                                     "lessons_attended": 0, "created_on": self.t}
            return a
        r = self.rng.randint(0, 4)
        if r == 0:
            a["email"] = self.pick(sorted(emails)).title()
        elif r == 1:
            a["birth_date"] = (self.today - timedelta(days=self.rng.randint(200, 1400))).isoformat()
        elif r == 2:
            a["birth_date"] = (self.today + timedelta(days=30)).isoformat()
        elif r == 3:
            a["email"] = self.pick(["kai.ortner-at-web.de", "pia@localhost", "@gmx.at"])
        else:
            a["full_name"] = "   "
        return a

    # bookings -------------------------------------------------------
    def create_booking(self, ok):
        guests = list(self.s["guests"].values())
        lessons = list(self.s["lessons"].values())
        if ok:
            for _ in range(60):
                g, les = self.pick(guests), self.pick(self.upcoming())
                seats = 1 if self.rng.random() < 0.6 else self.rng.randint(2, 3)
                if les and self.booking_ok(g, les, seats):
                    self.n_book += 1
                    bid = "B%04d" % self.n_book
                    amount = les["price_per_seat"] * seats
                    self.s["bookings"][bid] = {"id": bid, "guest_id": g["id"], "lesson_id": les["id"],
                                               "seats": seats, "status": "reserved", "amount": amount}
                    les["seats_booked"] += seats
                    a = {"guest_id": g["id"], "lesson_id": les["id"]}
                    if seats > 1 or self.rng.random() < 0.5:
                        a["seats"] = seats
                    return a
        up = self.upcoming()
        active_g = [g for g in guests if g["account_status"] == "active"]
        for _ in range(60):
            try:
                return self._bad_booking(guests, lessons, up, active_g)
            except (TypeError, IndexError):
                continue
        return {"guest_id": "G9999", "lesson_id": "L0001"}

    def _bad_booking(self, guests, lessons, up, active_g):
        while True:
            r = self.rng.randint(0, 9)
            g, les = self.pick(active_g), self.pick(up)
            a = {"guest_id": g["id"], "lesson_id": les["id"] if les else "L0001"}
            if r == 0:
                a["lesson_id"] = "L0999"
            elif r == 1:
                a["seats"] = self.pick([0, 5, 8])
            elif r == 2:
                a["guest_id"] = self.pick([x for x in guests if x["account_status"] == "on_hold"])["id"]
            elif r == 3:
                a["lesson_id"] = self.pick([l for l in lessons if l["status"] != "scheduled"])["id"]
            elif r == 4:
                a["lesson_id"] = self.pick([l for l in up if l["date"] == self.t
                                            or _d(l["date"]) > self.today + timedelta(60)])["id"]
            elif r == 5:
                hard = [l for l in up if l["lesson_type"] == "group" and l["level"] != "beginner"
                        and self.today < _d(l["date"]) <= self.today + timedelta(60)]
                les = self.pick(hard)
                low = [x for x in active_g if LEVELS.index(x["skill_level"]) < LEVELS.index(les["level"])]
                a = {"guest_id": self.pick(low)["id"], "lesson_id": les["id"]}
            elif r == 6:
                b = self.pick(self.active_bookings())
                a = {"guest_id": b["guest_id"], "lesson_id": b["lesson_id"]}
            elif r == 7:
                full = [l for l in up if l["capacity"] - l["seats_booked"] < 3]
                if not full:
                    continue
                les = self.pick(full)
                a = {"guest_id": g["id"], "lesson_id": les["id"], "seats": les["capacity"] - les["seats_booked"] + 1}
                if a["seats"] > 4:
                    continue
            elif r == 8:
                b = self.pick([b for b in self.active_bookings()
                               if self.s["lessons"][b["lesson_id"]]["date"] > self.t])
                o = self.s["lessons"][b["lesson_id"]]
                same = [l for l in up if l["date"] == o["date"] and l["slot"] == o["slot"] and l["id"] != o["id"]]
                if not same:
                    continue
                a = {"guest_id": b["guest_id"], "lesson_id": self.pick(same)["id"]}
            else:
                taken = {b["lesson_id"] for b in self.active_bookings()}
                priv = [l for l in up if l["lesson_type"] == "private" and l["id"] in taken]
                if not priv:
                    continue
                a["lesson_id"] = self.pick(priv)["id"]
            return a

    def pay_booking(self, ok):
        res = [b for b in self.vals("bookings", status="reserved")
               if self.s["lessons"][b["lesson_id"]]["date"] >= self.t]
        if ok and res:
            b = self.pick(res)
            g = self.s["guests"][b["guest_id"]]
            method = "card"
            if g["credit_balance"] >= b["amount"] and self.rng.random() < 0.6:
                method = "credit"
                g["credit_balance"] = round(g["credit_balance"] - b["amount"], 2)
            b["status"] = "paid"
            return {"booking_id": b["id"], "payment_method": method}
        r = self.rng.randint(0, 3)
        if r == 0:
            poor = [b for b in res if self.s["guests"][b["guest_id"]]["credit_balance"] < b["amount"]]
            if poor:
                return {"booking_id": self.pick(poor)["id"], "payment_method": "credit"}
        if r == 1 and res:
            return {"booking_id": self.pick(res)["id"], "payment_method": "cash"}
        if r == 2:
            return {"booking_id": "B9999", "payment_method": "card"}
        other = [b for b in self.s["bookings"].values() if b["status"] != "reserved"]
        return {"booking_id": self.pick(other)["id"], "payment_method": self.pick(["card", "credit"])}

    def cancel_booking(self, ok):
        act = [b for b in self.active_bookings() if self.s["lessons"][b["lesson_id"]]["date"] >= self.t]
        if ok and act:
            b = self.pick(act)
            b["status"] = "cancelled"
            self.s["lessons"][b["lesson_id"]]["seats_booked"] -= b["seats"]
            return {"booking_id": b["id"]}
        if self.rng.random() < 0.15:
            return {"booking_id": "B0000"}
        done = [b for b in self.s["bookings"].values() if b["status"] not in ("reserved", "paid")]
        return {"booking_id": self.pick(done)["id"]}

    def check_in_booking(self, ok):
        today_l = {l["id"] for l in self.s["lessons"].values() if l["date"] == self.t and l["instructor_id"]}
        paid = [b for b in self.vals("bookings", status="paid") if b["lesson_id"] in today_l]
        if ok and paid:
            b = self.pick(paid)
            b["status"] = "attended"
            return {"booking_id": b["id"]}
        r = self.rng.randint(0, 2)
        if r == 0:
            fut = [b for b in self.vals("bookings", status="paid") if b["lesson_id"] not in today_l]
            if fut:
                return {"booking_id": self.pick(fut)["id"]}
        if r == 1:
            res = self.vals("bookings", status="reserved")
            if res:
                return {"booking_id": self.pick(res)["id"]}
        other = [b for b in self.s["bookings"].values() if b["status"] in ("attended", "cancelled", "no_show")]
        return {"booking_id": self.pick(other)["id"]}

    # lessons --------------------------------------------------------
    def assign_instructor(self, ok):
        ins_all = list(self.s["instructors"].values())
        if ok:
            for _ in range(60):
                les, ins = self.pick(self.upcoming()), self.pick(ins_all)
                if les and self.qualified(ins, les):
                    les["instructor_id"] = ins["id"]
                    return {"lesson_id": les["id"], "instructor_id": ins["id"]}
        for _ in range(60):
            r = self.rng.randint(0, 5)
            if r == 4:
                les = self.pick([l for l in self.upcoming() if l["instructor_id"]])
                if les is None:
                    continue
                twin = [l for l in self.upcoming() if l["date"] == les["date"] and l["slot"] == les["slot"]
                        and l["id"] != les["id"] and l["discipline"] == les["discipline"]]
                if not twin:
                    continue
                return {"lesson_id": self.pick(twin)["id"], "instructor_id": les["instructor_id"]}
            if r == 5:
                hard = [l for l in self.upcoming() if l["level"] == "advanced" or l["lesson_type"] == "private"]
                les = self.pick(hard)
                low = [i for i in ins_all if i["cert_level"] == 1 and les and les["discipline"] in i["disciplines"]]
                if not low:
                    continue
                return {"lesson_id": les["id"], "instructor_id": self.pick(low)["id"]}
            if r == 0:
                les = self.pick([l for l in self.s["lessons"].values() if l["status"] != "scheduled"])
                ins = self.pick(ins_all)
            elif r == 1:
                les = self.pick([l for l in self.upcoming() if l["instructor_id"]])
                if les is None:
                    continue
                ins = self.s["instructors"][les["instructor_id"]]
            elif r == 2:
                return {"lesson_id": self.pick(sorted(self.s["lessons"])), "instructor_id": "I000"}
            else:
                les, ins = self.pick(self.upcoming()), self.pick(ins_all)
                if les is None or self.qualified(ins, les):
                    continue
            return {"lesson_id": les["id"], "instructor_id": ins["id"]}
        return {"lesson_id": "L0999", "instructor_id": "I001"}

    def cancel_lesson(self, ok):
        reason = self.pick(["Storm forecast, lifts closed", "Instructor injured",
                            "Slope closed for race training"])
        up = [l for l in self.upcoming() if l["date"] > self.t]
        if ok and up and self.cancelled_lessons < 6:
            self.cancelled_lessons += 1
            les = self.pick(up)
            les["status"] = "cancelled"
            les["seats_booked"] = 0
            for b in self.active_bookings():
                if b["lesson_id"] == les["id"]:
                    b["status"] = "cancelled"
            return {"lesson_id": les["id"], "reason": reason}
        r = self.rng.randint(0, 2)
        if r == 0 and up:
            return {"lesson_id": self.pick(up)["id"], "reason": self.pick(["", "   "])}
        if r == 1:
            return {"lesson_id": "L0000", "reason": reason}
        gone = [l for l in self.s["lessons"].values() if l["status"] != "scheduled"]
        return {"lesson_id": self.pick(gone)["id"], "reason": reason}

    # rentals --------------------------------------------------------
    def open_types(self, gid):
        return {r["equipment_type"] for r in self.s["rentals"].values()
                if r["guest_id"] == gid and r["status"] in ("reserved", "out")}

    def create_rental(self, ok):
        guests = list(self.s["guests"].values())
        start = self.today + timedelta(self.rng.choice([0, 0, 1, 2, 5, 9, 14, 21, 30]))
        days = self.rng.choice([1, 2, 3, 4, 5, 6, 7, 10, 14])
        if ok:
            for _ in range(40):
                g = self.pick(guests)
                free = [t for t in TYPES if t not in self.open_types(g["id"])]
                if g["account_status"] == "active" and free:
                    et = self.pick(free)
                    self.n_rent += 1
                    rid = "R%04d" % self.n_rent
                    self.s["rentals"][rid] = {"id": rid, "guest_id": g["id"], "equipment_type": et,
                                              "start_date": start.isoformat(),
                                              "end_date": (start + timedelta(days - 1)).isoformat(),
                                              "status": "reserved"}
                    return {"guest_id": g["id"], "equipment_type": et,
                            "start_date": start.isoformat(), "days": days}
        g = self.pick(guests)
        a = {"guest_id": g["id"], "equipment_type": self.pick(TYPES),
             "start_date": start.isoformat(), "days": days}
        r = self.rng.randint(0, 5)
        if r == 0:
            a["days"] = self.pick([0, 15, 21])
        elif r == 1:
            a["start_date"] = (self.today - timedelta(self.rng.randint(1, 5))).isoformat()
        elif r == 2:
            a["start_date"] = (self.today + timedelta(self.rng.randint(31, 45))).isoformat()
        elif r == 3:
            held = [x for x in guests if x["account_status"] == "on_hold"]
            a["guest_id"] = self.pick(held)["id"]
        elif r == 4:
            op = [x for x in self.s["rentals"].values() if x["status"] in ("reserved", "out")]
            x = self.pick(op)
            a["guest_id"], a["equipment_type"] = x["guest_id"], x["equipment_type"]
        else:
            a["equipment_type"] = self.pick(["goggles", "sled"])
        return a

    def pickup_rental(self, ok):
        ready = [r for r in self.vals("rentals", status="reserved")
                 if r["start_date"] <= self.t <= r["end_date"]]
        if ok and ready:
            r = self.pick(ready)
            r["status"] = "out"
            return {"rental_id": r["id"]}
        r = self.rng.randint(0, 2)
        if r == 0:
            fut = [x for x in self.vals("rentals", status="reserved") if x["start_date"] > self.t]
            if fut:
                return {"rental_id": self.pick(fut)["id"]}
        if r == 1:
            return {"rental_id": "R9999"}
        other = [x for x in self.s["rentals"].values() if x["status"] != "reserved"]
        return {"rental_id": self.pick(other)["id"]}

    def return_rental(self, ok):
        out = self.vals("rentals", status="out")
        if ok and out:
            r = self.pick(out)
            r["status"] = "returned"
            return {"rental_id": r["id"]}
        if self.rng.random() < 0.15:
            return {"rental_id": "X0001"}
        other = [x for x in self.s["rentals"].values() if x["status"] != "out"]
        return {"rental_id": self.pick(other)["id"]}


WEIGHTS = {"search_guests": 5, "list_lessons": 6, "list_instructors": 4, "list_bookings": 5,
           "register_guest": 7, "create_booking": 12, "pay_booking": 9, "cancel_booking": 8,
           "check_in_booking": 6, "assign_instructor": 8, "cancel_lesson": 5,
           "create_rental": 9, "pickup_rental": 5, "return_rental": 6}


def probes(db, rng, n):
    gen = _Gen(db, rng)
    names = sorted(WEIGHTS)
    weights = [WEIGHTS[k] for k in names]
    total = max(n, len(names))
    flags = [i < round(total * 0.62) for i in range(total)]
    rng.shuffle(flags)
    out = []
    for i in range(total):
        k = names[i] if i < len(names) else rng.choices(names, weights)[0]
        out.append((k, getattr(gen, k)(flags[i])))
    return out[:n]
