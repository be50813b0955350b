"""Differential probes for the league registration office API (stdlib only)."""
from datetime import date, timedelta

READS = ["list_clubs", "list_players", "list_fixtures", "list_suspensions"]
WRITES = ["register_player", "pay_registration_fee", "withdraw_registration", "transfer_player",
          "schedule_fixture", "postpone_fixture", "cancel_fixture", "record_result",
          "issue_suspension", "revoke_suspension"]
DAY_KO = ["09:00", "10:00", "11:30", "13:00", "14:30", "16:00", "17:45"]
EVE_KO = ["18:00", "18:30", "19:30", "20:15", "21:00"]
FIRST = ["Alfie", "Bea", "Cormac", "Delia", "Eoin", "Fern", "Grant", "Hana", "Ivo", "Jess", "Kofi", "Lola"]
LAST = ["Abbott", "Birch", "Cassidy", "Drummond", "Eastwood", "Foley", "Gough", "Hale", "Irwin", "Judd"]


class _Gen:
    def __init__(self, db, rng):
        self.db, self.rng = db, rng
        self.today = date.fromisoformat(db["meta"]["today"])
        self.season_end = date.fromisoformat(db["meta"]["season_end"])
        self.clubs, self.venues = db["clubs"], db["venues"]
        self.players, self.fixtures, self.susp = db["players"], db["fixtures"], db["suspensions"]
        self.size = {k: c["squad_size"] for k, c in self.clubs.items()}
        self.bal = {k: float(c["balance"]) for k, c in self.clubs.items()}
        self.busy_v, self.busy_c = set(), set()
        for f in self.fixtures.values():
            if f["status"] != "cancelled":
                self.busy_v.add((f["venue_id"], f["date"]))
                self.busy_c.add((f["home_club_id"], f["date"]))
                self.busy_c.add((f["away_club_id"], f["date"]))
        self.used_players, self.used_pending, self.used_fix, self.used_susp = set(), set(), set(), set()
        self.fresh_susp = []
        self.next_susp = max(int(k[1:]) for k in self.susp) + 1
        self.email_n = 0
        self.next_player = max(int(k[1:]) for k in self.players) + 1
        self.new_pending = []

    # ------------------------------------------------------------ helpers
    def pick(self, seq):
        seq = list(seq)
        return self.rng.choice(seq) if seq else None

    def d(self, days):
        return (self.today + timedelta(days=days)).isoformat()

    def active_clubs(self, room=False, solvent=False):
        out = []
        for k in sorted(self.clubs):
            c = self.clubs[k]
            if c["status"] != "active":
                continue
            if room and self.size[k] >= c["squad_limit"]:
                continue
            if solvent and self.bal[k] > 440:
                continue
            out.append(k)
        return out

    def email(self, first, last):
        self.email_n += 1
        return "%s.%s.%d@probe-mail.example.net" % (first.lower(), last.lower(), self.email_n)

    def birth(self, age, extra_days=None):
        extra = self.rng.randint(1, 300) if extra_days is None else extra_days
        try:
            b = self.today.replace(year=self.today.year - age)
        except ValueError:
            b = self.today.replace(year=self.today.year - age, day=28)
        return (b - timedelta(days=extra)).isoformat()

    def free(self, vid, home, away, ds):
        return (vid, ds) not in self.busy_v and (home, ds) not in self.busy_c and (away, ds) not in self.busy_c

    def book(self, vid, home, away, ds):
        self.busy_v.add((vid, ds))
        self.busy_c.add((home, ds))
        self.busy_c.add((away, ds))

    def fx(self, pred):
        return [f for k, f in sorted(self.fixtures.items()) if pred(f)]

    def predict(self, cid, birth):
        """Predicted record of a registration that the office should accept."""
        b = date.fromisoformat(birth)
        age = self.today.year - b.year - ((self.today.month, self.today.day) < (b.month, b.day))
        cat = "junior" if age < 18 else ("veteran" if age >= 35 else "senior")
        base = {"junior": 30.0, "senior": 60.0, "veteran": 45.0}[cat]
        if self.clubs[cid]["tier"] == "community":
            base *= 0.8
        if self.db["meta"]["today"] > self.db["meta"]["registration_deadline"]:
            base *= 1.125
        fee = int((base + 7.5) * 100 + 0.5 + 1e-9) / 100.0
        pid = "P%04d" % self.next_player
        self.next_player += 1
        return {"player_id": pid, "club_id": cid, "registration_fee": fee, "status": "pending",
                "registered_on": self.today.isoformat()}

    def pending_pool(self, fresh_only=False):
        out = [p for k, p in sorted(self.players.items()) if p["status"] == "pending"]
        out += self.new_pending
        if fresh_only:
            out = [p for p in out if p["registered_on"] >= self.d(-14)]
        return [p for p in out if p["player_id"] not in self.used_pending]

    # ------------------------------------------------------------ reads
    def list_clubs(self, ok):
        r = self.rng
        if not ok:
            return {"status": r.choice(["inactive", "closed", "expelled"])}
        a = {}
        if r.random() < 0.4:
            a["status"] = r.choice(["active", "suspended"])
        if r.random() < 0.4:
            city = self.pick(sorted({c["city"] for c in self.clubs.values()}))
            a["city"] = r.choice([city, city.upper(), city.lower()])
        if r.random() < 0.4:
            name = self.pick(c["name"] for c in self.clubs.values()).split()[-1]
            a["name"] = r.choice([name, name.lower()])
        return a

    def list_players(self, ok):
        r = self.rng
        if not ok:
            return r.choice([{"club_id": "CL%02d" % r.randint(30, 99)}, {"status": "active"},
                             {"category": "youth"}, {"status": "banned", "club_id": "CL01"}])
        a = {}
        if r.random() < 0.5:
            a["club_id"] = self.pick(self.clubs)
        if r.random() < 0.35:
            a["status"] = r.choice(["pending", "registered", "suspended", "withdrawn", "released"])
        if r.random() < 0.3:
            a["category"] = r.choice(["junior", "senior", "veteran"])
        if r.random() < 0.3:
            p = self.pick(self.players.values())
            a["name"] = r.choice([p["last_name"].lower(), p["first_name"].upper(),
                                  (p["first_name"] + " " + p["last_name"][:3]).lower()])
        return a

    def list_fixtures(self, ok):
        r = self.rng
        if not ok:
            return r.choice([{"date_from": "2025-11-31"}, {"date_from": self.d(10), "date_to": self.d(2)},
                             {"venue_id": "V%02d" % r.randint(40, 99)}, {"status": "abandoned"},
                             {"club_id": "CL77"}, {"date_to": "14/10/2025"}])
        a = {}
        if r.random() < 0.45:
            a["club_id"] = self.pick(self.clubs)
        if r.random() < 0.25:
            a["venue_id"] = self.pick(self.venues)
        if r.random() < 0.35:
            a["status"] = r.choice(["scheduled", "postponed", "played", "cancelled"])
        if r.random() < 0.4:
            lo = r.randint(-40, 30)
            a["date_from"] = self.d(lo)
            if r.random() < 0.6:
                a["date_to"] = self.d(lo + r.randint(0, 30))
        return a

    def list_suspensions(self, ok):
        r = self.rng
        if not ok:
            return r.choice([{"player_id": "P9%03d" % r.randint(0, 999)}, {"status": "pending"},
                             {"club_id": "CL00"}, {"status": "expired"}])
        a = {}
        if r.random() < 0.3:
            a["player_id"] = self.pick(s["player_id"] for s in self.susp.values())
        if r.random() < 0.35:
            a["club_id"] = self.pick(self.clubs)
        if r.random() < 0.45:
            a["status"] = r.choice(["active", "served", "revoked"])
        return a

    # ------------------------------------------------------------ players
    def register_player(self, ok):
        r = self.rng
        first, last = r.choice(FIRST), r.choice(LAST)
        a = {"first_name": first, "last_name": last, "email": self.email(first, last)}
        good = self.active_clubs(room=True, solvent=True)
        if ok and good:
            cid = r.choice(good)
            a["club_id"] = cid
            a["birth_date"] = self.birth(16, 0) if r.random() < 0.1 else self.birth(r.choice([16, 17, 22, 29, 34, 35, 41, 50]))
            self.size[cid] += 1
            self.bal[cid] += 75.0
            self.new_pending.append(self.predict(cid, a["birth_date"]))
            return a
        a["club_id"] = r.choice(good) if good else "CL01"
        a["birth_date"] = self.birth(r.randint(19, 45))
        kind = r.randrange(9)
        if kind == 0:
            a["club_id"] = self.pick(k for k, c in self.clubs.items() if c["status"] != "active")
        elif kind == 1:
            full = [k for k in self.active_clubs() if self.size[k] >= self.clubs[k]["squad_limit"]]
            a["club_id"] = self.pick(full) or "CL99"
        elif kind == 2:
            debt = [k for k in self.active_clubs(room=True) if self.clubs[k]["balance"] > 500]
            a["club_id"] = self.pick(debt) or "CL98"
        elif kind == 3:
            p = self.pick(p for p in self.players.values() if p["status"] in ("pending", "registered", "suspended"))
            a["email"] = r.choice([p["email"].upper(), p["email"].capitalize(), p["email"]])
        elif kind == 4:
            a["birth_date"] = self.birth(15, r.randint(1, 200)) if r.random() < 0.7 else self.birth(16, -1)
        elif kind == 5:
            a["email"] = r.choice(["%s.%s.example.net" % (first, last), "%s@localhost" % first, "a b@x.org"])
        elif kind == 6:
            a["birth_date"] = r.choice(["1999-02-30", "12/05/1998", "2030-01-01", "1998-13-04"])
        elif kind == 7:
            a["club_id"] = "CL%02d" % r.randint(21, 60)
        else:
            del a[r.choice(["last_name", "email", "birth_date"])]
        return a

    def pay_registration_fee(self, ok):
        r = self.rng
        pend = self.pending_pool()
        if ok and pend:
            p = r.choice(pend)
            self.used_pending.add(p["player_id"])
            fee = p["registration_fee"]
            amt = int(fee) if fee == int(fee) and r.random() < 0.5 else fee
            self.bal[p["club_id"]] -= fee
            return {"player_id": p["player_id"], "amount": amt}
        kind = r.randrange(5)
        if kind == 0 and pend:
            p = r.choice(pend)
            return {"player_id": p["player_id"], "amount": round(p["registration_fee"] + r.choice([-5, -0.01, 0.01, 10]), 2)}
        if kind == 1:
            p = self.pick(p for p in self.players.values() if p["status"] in ("registered", "withdrawn", "suspended"))
            return {"player_id": p["player_id"], "amount": p["registration_fee"]}
        if kind == 2 and pend:
            p = r.choice(pend)
            return {"player_id": p["player_id"], "amount": r.choice([-p["registration_fee"], 0, "%.2f" % p["registration_fee"]])}
        return {"player_id": "P%04d" % r.randint(5000, 9999), "amount": 60.0}

    def withdraw_registration(self, ok):
        r = self.rng
        limit = self.d(-14)
        fresh = self.pending_pool(fresh_only=True)
        if ok and fresh:
            p = r.choice(fresh)
            self.used_pending.add(p["player_id"])
            self.size[p["club_id"]] -= 1
            return {"player_id": p["player_id"]}
        kind = r.randrange(3)
        if kind == 0:
            stale = [p for p in self.players.values() if p["status"] == "pending" and p["registered_on"] < limit]
            if stale:
                return {"player_id": r.choice(stale)["player_id"]}
        if kind == 1:
            return {"player_id": self.pick(p["player_id"] for p in self.players.values()
                                           if p["status"] in ("registered", "withdrawn", "released"))}
        return {"player_id": r.choice(["P0000", "P9990", "p0001", "X0001"])}

    def movable(self):
        cut = self.d(-28)
        return [p for k, p in sorted(self.players.items()) if p["status"] == "registered"
                and p["transfers_this_season"] == 0 and p["joined_club_on"] <= cut and k not in self.used_players]

    def transfer_player(self, ok):
        r = self.rng
        mov = self.movable()
        if ok and mov:
            p = r.choice(mov)
            dests = [k for k in self.active_clubs(room=True, solvent=True) if k != p["club_id"]]
            if dests:
                dest = r.choice(dests)
                self.used_players.add(p["player_id"])
                self.size[dest] += 1
                self.size[p["club_id"]] -= 1
                self.bal[dest] += 15.0
                return {"player_id": p["player_id"], "to_club_id": dest}
        p = r.choice(mov) if mov else self.pick(self.players.values())
        dest = self.pick(k for k in self.active_clubs(room=True, solvent=True) if k != p["club_id"]) or "CL01"
        kind = r.randrange(8)
        if kind == 0:
            q = self.pick(q for q in self.players.values() if q["status"] == "registered" and q["transfers_this_season"] > 0)
            return {"player_id": q["player_id"], "to_club_id": dest}
        if kind == 1:
            q = self.pick(q for q in self.players.values() if q["status"] == "registered"
                          and q["joined_club_on"] > self.d(-28) and q["transfers_this_season"] == 0)
            if q:
                return {"player_id": q["player_id"], "to_club_id": self.pick(k for k in self.active_clubs(True, True) if k != q["club_id"])}
        if kind == 2:
            q = self.pick(q for q in self.players.values() if q["status"] in ("pending", "suspended", "released", "withdrawn"))
            return {"player_id": q["player_id"], "to_club_id": self.pick(k for k in self.active_clubs(True, True) if k != q["club_id"])}
        if kind == 3:
            full = [k for k in self.active_clubs() if self.size[k] >= self.clubs[k]["squad_limit"] and k != p["club_id"]]
            if full:
                return {"player_id": p["player_id"], "to_club_id": r.choice(full)}
        if kind == 4:
            return {"player_id": p["player_id"], "to_club_id": self.pick(k for k, c in self.clubs.items() if c["status"] != "active")}
        if kind == 5:
            debt = [k for k in self.active_clubs(room=True) if self.clubs[k]["balance"] > 500 and k != p["club_id"]]
            if debt:
                return {"player_id": p["player_id"], "to_club_id": r.choice(debt)}
        if kind == 6:
            return {"player_id": p["player_id"], "to_club_id": p["club_id"]}
        return {"player_id": p["player_id"], "to_club_id": "CL%02d" % r.randint(50, 99)}

    # ------------------------------------------------------------ fixtures
    def valid_slot(self, lo=3, hi=70):
        r = self.rng
        clubs = self.active_clubs()
        for _ in range(60):
            home = r.choice(clubs)
            city = self.clubs[home]["city"]
            vid = self.pick(k for k, v in self.venues.items() if v["city"] == city and v["status"] == "open")
            away = r.choice([c for c in clubs if c != home])
            ds = self.d(lo if r.random() < 0.1 else r.randint(lo, hi))
            if date.fromisoformat(ds) > self.season_end:
                continue
            if self.free(vid, home, away, ds):
                ko = r.choice(DAY_KO + (EVE_KO if self.venues[vid]["floodlit"] else []))
                return {"home_club_id": home, "away_club_id": away, "venue_id": vid, "date": ds, "kickoff": ko}
        return None

    def schedule_fixture(self, ok):
        r = self.rng
        a = self.valid_slot()
        if ok:
            if r.random() < 0.05:
                a = self.valid_slot(lo=(self.season_end - self.today).days, hi=(self.season_end - self.today).days) or a
            self.book(a["venue_id"], a["home_club_id"], a["away_club_id"], a["date"])
            self.bal[a["home_club_id"]] += self.venues[a["venue_id"]]["hire_fee"]
            return a
        kind = r.randrange(11)
        city = self.clubs[a["home_club_id"]]["city"]
        if kind == 0:
            a["date"] = self.d(r.choice([-3, 0, 1, 2]))
        elif kind == 1:
            a["date"] = (self.season_end + timedelta(days=r.randint(1, 30))).isoformat()
        elif kind == 2:
            a["venue_id"] = self.pick(k for k, v in self.venues.items() if v["city"] != city and v["status"] == "open")
        elif kind == 3:
            closed = [k for k, v in self.venues.items() if v["status"] == "closed"]
            vid = r.choice(closed)
            home = self.pick(k for k in self.active_clubs() if self.clubs[k]["city"] == self.venues[vid]["city"])
            if home and home != a["away_club_id"]:
                a["venue_id"], a["home_club_id"] = vid, home
        elif kind == 4:
            f = self.pick(self.fx(lambda f: f["status"] in ("scheduled", "postponed") and f["date"] >= self.d(3)
                                  and self.clubs[f["home_club_id"]]["status"] == "active"))
            other = self.pick(k for k in self.active_clubs() if self.clubs[k]["city"] == self.venues[f["venue_id"]]["city"]
                              and (k, f["date"]) not in self.busy_c)
            if other:
                away = self.pick(k for k in self.active_clubs() if k != other and (k, f["date"]) not in self.busy_c)
                a = dict(a, home_club_id=other, away_club_id=away, venue_id=f["venue_id"], date=f["date"], kickoff="14:30")
        elif kind == 5:
            f = self.pick(self.fx(lambda f: f["status"] in ("scheduled", "postponed") and f["date"] >= self.d(3)))
            a["date"] = f["date"]
            a["away_club_id"] = f[r.choice(["home_club_id", "away_club_id"])]
        elif kind == 6:
            dark = [k for k, v in self.venues.items() if not v["floodlit"] and v["status"] == "open"]
            vid = r.choice(dark)
            home = self.pick(k for k in self.active_clubs() if self.clubs[k]["city"] == self.venues[vid]["city"]
                             and k != a["away_club_id"])
            if home:
                a.update(home_club_id=home, venue_id=vid, kickoff=r.choice(["18:00", "19:30", "20:45"]))
        elif kind == 7:
            a["kickoff"] = r.choice(["08:30", "21:15", "22:00", "7pm", "25:00", "9:00"])
        elif kind == 8:
            a["away_club_id"] = self.pick(k for k, c in self.clubs.items() if c["status"] != "active")
        elif kind == 9:
            a["away_club_id"] = a["home_club_id"]
        else:
            a["venue_id"] = "V%02d" % r.randint(60, 99)
        return a

    def postpone_fixture(self, ok):
        r = self.rng
        live = self.fx(lambda f: f["status"] in ("scheduled", "postponed") and f["date"] >= self.d(0)
                       and f["postponements"] < 2 and f["fixture_id"] not in self.used_fix)
        if ok and live:
            for _ in range(30):
                f = r.choice(live)
                cur = date.fromisoformat(f["date"])
                nd = max(cur + timedelta(days=r.randint(1, 28)), self.today + timedelta(days=3))
                if nd > self.season_end or not self.free(f["venue_id"], f["home_club_id"], f["away_club_id"], nd.isoformat()):
                    continue
                reasons = ["weather", "pitch_unavailable", "other"] + (["club_request"] if cur >= self.today + timedelta(days=7) else [])
                self.used_fix.add(f["fixture_id"])
                self.book(f["venue_id"], f["home_club_id"], f["away_club_id"], nd.isoformat())
                return {"fixture_id": f["fixture_id"], "new_date": nd.isoformat(), "reason": r.choice(reasons)}
        kind = r.randrange(8)
        f = self.pick(live) or self.pick(self.fixtures.values())
        a = {"fixture_id": f["fixture_id"], "new_date": self.d(r.randint(40, 80)), "reason": "weather"}
        if kind == 0:
            a["fixture_id"] = self.pick(self.fx(lambda f: f["status"] in ("played", "cancelled")))["fixture_id"]
        elif kind == 1:
            a["fixture_id"] = self.pick(self.fx(lambda f: f["status"] != "cancelled" and f["date"] < self.d(0)))["fixture_id"]
        elif kind == 2:
            a["fixture_id"] = self.pick(self.fx(lambda f: f["status"] == "postponed" and f["postponements"] >= 2))["fixture_id"]
        elif kind == 3:
            a["new_date"] = r.choice([f["date"], (date.fromisoformat(f["date"]) - timedelta(days=1)).isoformat()])
        elif kind == 4:
            g = self.pick(self.fx(lambda f: f["status"] in ("scheduled", "postponed") and self.d(0) <= f["date"] < self.d(7)
                                  and f["postponements"] < 2))
            a.update(fixture_id=g["fixture_id"], reason="club_request")
        elif kind == 5:
            g = self.pick(self.fx(lambda f: f["status"] in ("scheduled", "postponed") and f["date"] == self.d(0)))
            a.update(fixture_id=g["fixture_id"], new_date=self.d(r.choice([1, 2])))
        elif kind == 6:
            a["reason"] = r.choice(["rain", "Weather", "referee_absent"])
        else:
            clash = [g for g in self.fixtures.values() if g["status"] != "cancelled" and g["date"] > f["date"]
                     and g["fixture_id"] != f["fixture_id"] and g["date"] >= self.d(3) and
                     (g["venue_id"] == f["venue_id"] or {g["home_club_id"], g["away_club_id"]} & {f["home_club_id"], f["away_club_id"]})]
            if clash:
                a["new_date"] = r.choice(clash)["date"]
            else:
                a["new_date"] = (self.season_end + timedelta(days=3)).isoformat()
        return a

    def cancel_fixture(self, ok):
        r = self.rng
        live = self.fx(lambda f: f["status"] in ("scheduled", "postponed") and f["date"] >= self.d(0)
                       and f["fixture_id"] not in self.used_fix)
        reasons = ["Home side cannot field five players", "Venue flooded", "Away club withdrew", "Council closed the pitch"]
        if ok and live:
            f = r.choice(live)
            self.used_fix.add(f["fixture_id"])
            return {"fixture_id": f["fixture_id"], "reason": r.choice(reasons)}
        kind = r.randrange(4)
        if kind == 0:
            f = self.pick(self.fx(lambda f: f["status"] in ("played", "cancelled")))
        elif kind == 1:
            f = self.pick(self.fx(lambda f: f["status"] in ("scheduled", "postponed") and f["date"] < self.d(0)))
        elif kind == 2:
            return {"fixture_id": self.pick(live)["fixture_id"], "reason": r.choice(["", "   "])}
        else:
            return {"fixture_id": "F%04d" % r.randint(3000, 9999), "reason": "Venue flooded"}
        return {"fixture_id": f["fixture_id"], "reason": r.choice(reasons)}

    def record_result(self, ok):
        r = self.rng
        due = self.fx(lambda f: f["status"] in ("scheduled", "postponed") and f["date"] <= self.d(0)
                      and f["fixture_id"] not in self.used_fix)
        sc = lambda: r.choice([0, 0, 1, 1, 2, 3, 4, 5, 7, 9, 30])
        if ok and due:
            f = r.choice(due)
            self.used_fix.add(f["fixture_id"])
            return {"fixture_id": f["fixture_id"], "home_score": sc(), "away_score": sc()}
        kind = r.randrange(5)
        f = self.pick(due) or self.pick(self.fixtures.values())
        if kind == 0:
            f = self.pick(self.fx(lambda f: f["status"] in ("scheduled", "postponed") and f["date"] > self.d(0)))
        elif kind == 1:
            f = self.pick(self.fx(lambda f: f["status"] in ("played", "cancelled")))
        elif kind == 2:
            return {"fixture_id": f["fixture_id"], "home_score": r.choice([-1, 31, 45]), "away_score": 2}
        elif kind == 3:
            return {"fixture_id": f["fixture_id"], "home_score": 1, "away_score": r.choice(["2", 2.5, None])}
        else:
            return {"fixture_id": "F%04d" % r.randint(4000, 9999), "home_score": 1, "away_score": 0}
        return {"fixture_id": f["fixture_id"], "home_score": sc(), "away_score": sc()}

    # ------------------------------------------------------------ discipline
    def susp_pairs(self, recent=True):
        lo = self.d(-14)
        done = {(s["player_id"], s["fixture_id"]) for s in self.susp.values()}
        out = []
        for f in self.fx(lambda f: f["status"] == "played" and (f["date"] >= lo) == recent):
            for p in self.players.values():
                if (p["status"] == "registered" and p["club_id"] in (f["home_club_id"], f["away_club_id"])
                        and p["joined_club_on"] <= f["date"] and (p["player_id"], f["fixture_id"]) not in done
                        and p["player_id"] not in self.used_players):
                    out.append((p, f))
        return out

    def issue_suspension(self, ok):
        r = self.rng
        reason = r.choice(["two_yellow_cards", "straight_red", "violent_conduct", "dissent", "accumulated_cautions"])
        matches = r.randint(3, 6) if reason == "violent_conduct" else r.randint(1, 6)
        pairs = self.susp_pairs()
        if ok and pairs:
            p, f = r.choice(pairs)
            self.used_players.add(p["player_id"])
            sid = "S%03d" % self.next_susp
            self.next_susp += 1
            self.fresh_susp.append(sid)
            self.bal[p["club_id"]] += 15.0 * matches
            return {"player_id": p["player_id"], "fixture_id": f["fixture_id"], "reason": reason, "matches": matches}
        p, f = r.choice(pairs) if pairs else (self.pick(self.players.values()), self.pick(self.fixtures.values()))
        a = {"player_id": p["player_id"], "fixture_id": f["fixture_id"], "reason": reason, "matches": matches}
        kind = r.randrange(9)
        if kind == 0:
            old = self.susp_pairs(recent=False)
            if old:
                q, g = r.choice(old)
                a.update(player_id=q["player_id"], fixture_id=g["fixture_id"])
        elif kind == 1:
            g = self.pick(self.fx(lambda g: g["status"] in ("scheduled", "postponed", "cancelled") and p["club_id"] in (g["home_club_id"], g["away_club_id"])))
            if g:
                a["fixture_id"] = g["fixture_id"]
        elif kind == 2:
            q = self.pick(q for q in self.players.values() if q["status"] in ("pending", "suspended")
                          and q["club_id"] in (f["home_club_id"], f["away_club_id"]))
            if q:
                a["player_id"] = q["player_id"]
        elif kind == 3:
            q = self.pick(q for q in self.players.values() if q["status"] == "registered"
                          and q["club_id"] not in (f["home_club_id"], f["away_club_id"]))
            a["player_id"] = q["player_id"]
        elif kind == 4:
            a.update(reason="violent_conduct", matches=r.choice([1, 2]))
        elif kind == 5:
            a["matches"] = r.choice([0, 7, 10, -1])
        elif kind == 6:
            dup = [s for s in self.susp.values() if s["status"] == "revoked" and self.players[s["player_id"]]["status"] == "registered"]
            s = self.pick(dup) or self.pick(self.susp.values())
            a.update(player_id=s["player_id"], fixture_id=s["fixture_id"])
        elif kind == 7:
            a["reason"] = r.choice(["red_card", "fighting", "Dissent"])
        else:
            a["fixture_id"] = "F%04d" % r.randint(5000, 9999)
        return a

    def revoke_suspension(self, ok):
        r = self.rng
        lo = self.d(-7)
        live = [k for k, s in sorted(self.susp.items()) if s["status"] == "active" and s["issued_on"] >= lo
                and s["matches_remaining"] == s["matches"] and k not in self.used_susp]
        live += [k for k in self.fresh_susp if k not in self.used_susp]
        if ok and live:
            sid = r.choice(live)
            self.used_susp.add(sid)
            return {"suspension_id": sid}
        kind = r.randrange(5)
        if kind == 0:
            s = self.pick(s for s in self.susp.values() if s["status"] in ("served", "revoked"))
        elif kind == 1:
            s = self.pick(s for s in self.susp.values() if s["status"] == "active" and s["issued_on"] < lo)
        elif kind == 2:
            s = self.pick(s for s in self.susp.values() if s["status"] == "active" and s["matches_remaining"] < s["matches"]
                          and s["issued_on"] >= lo)
        else:
            s = None
        if s is None:
            return {"suspension_id": r.choice(["S999", "S0001", "S%03d" % r.randint(200, 900)])}
        return {"suspension_id": s["suspension_id"]}


def probes(db, rng, n):
    g = _Gen(db, rng)
    tools = READS + WRITES
    weights = [4, 4, 4, 4] + [8] * len(WRITES)
    out = []
    for i in range(n):
        if i < len(tools) * 2:
            name, ok = tools[i % len(tools)], i < len(tools)
        else:
            name = rng.choices(tools, weights)[0]
            ok = rng.random() < 0.63
        out.append((name, getattr(g, name)(ok)))
    return out
