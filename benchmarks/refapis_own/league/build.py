#!/usr/bin/env python3
"""Generate db.json for the five-a-side league registration office (deterministic, stdlib only)."""
import json
import random
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP
from pathlib import Path

SEED = 20251014
TODAY = date(2025, 10, 14)
META = {
    "today": TODAY.isoformat(),
    "league": "Five Valleys Amateur Five-a-Side League",
    "season": "2025-26",
    "season_start": "2025-09-06",
    "season_end": "2026-04-30",
    "registration_deadline": "2025-09-30",
    "transfer_window_opens": "2025-08-01",
    "transfer_window_closes": "2025-10-31",
    "currency": "GBP",
}
DEADLINE = date.fromisoformat(META["registration_deadline"])

CITIES = ["Ashford", "Brackley", "Corbridge", "Dunmore", "Elmstead"]
SUFFIXES = ["Rovers", "Athletic", "United", "Wanderers", "Town", "Albion", "Harriers",
            "Rangers", "Dynamos", "Corinthians", "Villa", "Swifts"]
VENUE_KINDS = [("Memorial Park", "grass"), ("Leisure Centre", "indoor"), ("Community Dome", "3g"),
               ("Riverside Pitches", "3g"), ("Academy Sports Hall", "indoor"), ("Recreation Ground", "grass"),
               ("College Astro", "3g")]
FIRST = ["Aaron", "Beth", "Callum", "Dina", "Ethan", "Farah", "Gavin", "Hollie", "Isaac", "Jade", "Kieran",
         "Leah", "Marcus", "Nadia", "Owen", "Priya", "Quinn", "Rhys", "Sana", "Tobias", "Uma", "Victor",
         "Wes", "Yasmin", "Zac", "Amir", "Bryony", "Connor", "Demi", "Ellis", "Freya", "Harvey", "Imogen",
         "Jonah", "Kelsey", "Luca", "Megan", "Niall", "Olivia", "Patrick"]
LAST = ["Ashworth", "Brennan", "Coleman", "Dalton", "Egan", "Fairclough", "Gallagher", "Hendry", "Ingram",
        "Jarvis", "Kowalski", "Lister", "Mahmood", "Nolan", "Okafor", "Pritchard", "Quayle", "Rahman",
        "Sutcliffe", "Thornton", "Upton", "Vickers", "Whitlock", "Yardley", "Zielinski", "Barker", "Crane",
        "Doherty", "Ellwood", "Fenwick", "Griffiths", "Holroyd", "Iqbal", "Jennings", "Kershaw", "Lowther"]
KICKOFFS_DAY = ["10:00", "11:30", "13:00", "14:30", "16:00"]
KICKOFFS_EVENING = ["18:00", "18:30", "19:30", "20:15"]
CANCEL_REASONS = ["Away side unable to raise a team", "Venue double-booked by the council",
                  "Home club withdrew from the fixture", "Waterlogged pitch, no date available"]
POSTPONE_REASONS = ["weather", "pitch_unavailable", "club_request", "other"]
SUSP_REASONS = ["two_yellow_cards", "straight_red", "violent_conduct", "dissent", "accumulated_cautions"]


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def age_on(birth, day):
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def category_for(birth):
    a = age_on(birth, TODAY)
    if a < 18:
        return "junior"
    if a >= 35:
        return "veteran"
    return "senior"


def reg_fee(category, tier, reg_day):
    base = Decimal({"junior": "30.00", "senior": "60.00", "veteran": "45.00"}[category])
    if tier == "community":
        base = base * Decimal("0.80")
    if reg_day > DEADLINE:
        base = base * Decimal("1.125")
    total = base + Decimal("7.50")
    return float(total.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def build():
    rng = random.Random(SEED)
    db = {"meta": META, "clubs": {}, "venues": {}, "players": {}, "fixtures": {}, "suspensions": {}}

    # ---- venues: four per city
    vn = 0
    for city in CITIES:
        for name, surface in rng.sample(VENUE_KINDS, 4):
            vn += 1
            vid = "V%02d" % vn
            db["venues"][vid] = {
                "venue_id": vid,
                "name": "%s %s" % (city, name),
                "city": city,
                "surface": surface,
                "floodlit": surface == "indoor" or rng.random() < 0.55,
                "status": "open",
                "hire_fee": rng.choice([35.0, 40.0, 42.5, 48.0, 55.0, 60.0]),
            }
    for vid in ("V07", "V16"):
        db["venues"][vid]["status"] = "closed"

    # ---- clubs: four per city, ids shuffled across cities
    specs = []
    for city in CITIES:
        for suffix in rng.sample(SUFFIXES, 4):
            specs.append((city, suffix))
    rng.shuffle(specs)
    for i, (city, suffix) in enumerate(specs, 1):
        cid = "CL%02d" % i
        slug = (city + suffix).lower()
        db["clubs"][cid] = {
            "club_id": cid,
            "name": "%s %s" % (city, suffix),
            "city": city,
            "tier": "community" if rng.random() < 0.35 else "standard",
            "status": "active",
            "contact_email": "secretary@%s.example.org" % slug,
            "squad_limit": rng.choice([8, 10, 10, 12]),
            "squad_size": 0,
            "balance": 0.0,
            "played": 0, "won": 0, "drawn": 0, "lost": 0,
            "goals_for": 0, "goals_against": 0, "points": 0,
        }
    club_ids = sorted(db["clubs"])
    suspended_clubs = ["CL06", "CL17"]
    for cid in suspended_clubs:
        db["clubs"][cid]["status"] = "suspended"

    # ---- fixtures
    fixtures = db["fixtures"]
    busy_venue = set()   # (venue_id, date)
    busy_club = set()    # (club_id, date)
    fx_n = [0]

    def add_fixture(day, home, away, evening_ok=True):
        dstr = day.isoformat()
        if (home, dstr) in busy_club or (away, dstr) in busy_club:
            return None
        city = db["clubs"][home]["city"]
        venues = [v for v in sorted(db["venues"]) if db["venues"][v]["city"] == city
                  and db["venues"][v]["status"] == "open" and (v, dstr) not in busy_venue]
        if not venues:
            return None
        vid = rng.choice(venues)
        v = db["venues"][vid]
        if v["floodlit"] and evening_ok and rng.random() < 0.35:
            ko = rng.choice(KICKOFFS_EVENING)
        else:
            ko = rng.choice(KICKOFFS_DAY)
        fx_n[0] += 1
        fid = "F%04d" % fx_n[0]
        fixtures[fid] = {
            "fixture_id": fid, "home_club_id": home, "away_club_id": away, "venue_id": vid,
            "date": dstr, "kickoff": ko, "status": "scheduled", "home_score": None, "away_score": None,
            "hire_fee": v["hire_fee"], "postponements": 0, "original_date": None, "postpone_reason": None,
            "cancel_reason": None, "cancelled_on": None, "hire_refund": None,
        }
        busy_venue.add((vid, dstr))
        busy_club.add((home, dstr))
        busy_club.add((away, dstr))
        return fid

    sat = date(2025, 9, 6)
    while sat <= date(2025, 12, 13):
        pool = [c for c in club_ids if sat < TODAY or c not in suspended_clubs]
        rng.shuffle(pool)
        pairs = [(pool[i], pool[i + 1]) for i in range(0, len(pool) - 1, 2)]
        for home, away in pairs[:rng.randint(8, 10)]:
            day = sat if rng.random() < 0.55 else sat + timedelta(days=1)
            add_fixture(day, home, away)
        sat += timedelta(days=7)
    # midweek evening games: today and next Wednesday
    for day, count in ((TODAY, 4), (date(2025, 10, 22), 3), (date(2025, 10, 8), 3), (date(2025, 9, 24), 2)):
        pool = [c for c in club_ids if c not in suspended_clubs]
        rng.shuffle(pool)
        k = 0
        for i in range(0, len(pool) - 1, 2):
            if k >= count:
                break
            if add_fixture(day, pool[i], pool[i + 1]):
                k += 1

    # statuses
    for fid in sorted(fixtures):
        f = fixtures[fid]
        d = date.fromisoformat(f["date"])
        r = rng.random()
        if d < date(2025, 10, 4):
            if r < 0.06:
                f["status"] = "cancelled"
            else:
                f["status"] = "played"
        elif d < date(2025, 10, 11):
            f["status"] = "played" if r < 0.6 else "scheduled"
        elif d < TODAY:
            f["status"] = "played" if r < 0.2 else ("scheduled" if r < 0.8 else "postponed")
        elif d == TODAY:
            f["status"] = "scheduled"
        else:
            if r < 0.05:
                f["status"] = "cancelled"
            elif r < 0.17:
                f["status"] = "postponed"
        if f["status"] == "played":
            f["home_score"] = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7])
            f["away_score"] = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5, 6])
            if rng.random() < 0.08:
                f["postponements"] = 1
                f["original_date"] = (d - timedelta(days=7)).isoformat()
                f["postpone_reason"] = rng.choice(POSTPONE_REASONS)
        elif f["status"] == "postponed" and d < TODAY:
            f["postponements"] = 1
            f["original_date"] = (d - timedelta(days=7)).isoformat()
            f["postpone_reason"] = rng.choice(POSTPONE_REASONS)
        elif f["status"] == "postponed":
            n = 2 if rng.random() < 0.35 else 1
            f["postponements"] = n
            f["original_date"] = (d - timedelta(days=7 * rng.randint(1, 3))).isoformat()
            f["postpone_reason"] = rng.choice(POSTPONE_REASONS)
        elif f["status"] == "cancelled":
            cancelled = d - timedelta(days=rng.randint(1, 12))
            f["cancel_reason"] = rng.choice(CANCEL_REASONS)
            f["cancelled_on"] = cancelled.isoformat()
            f["hire_refund"] = f["hire_fee"] if d >= cancelled + timedelta(days=7) else 0.0

    # standings from played fixtures
    for fid in sorted(fixtures):
        f = fixtures[fid]
        if f["status"] != "played":
            continue
        h, a = db["clubs"][f["home_club_id"]], db["clubs"][f["away_club_id"]]
        hs, as_ = f["home_score"], f["away_score"]
        for c, gf, ga in ((h, hs, as_), (a, as_, hs)):
            c["played"] += 1
            c["goals_for"] += gf
            c["goals_against"] += ga
            if gf > ga:
                c["won"] += 1
                c["points"] += 3
            elif gf == ga:
                c["drawn"] += 1
                c["points"] += 1
            else:
                c["lost"] += 1

    # ---- players
    players = db["players"]
    pn = [0]
    used_emails = set()
    full_clubs = {"CL03", "CL09", "CL14", "CL19"}

    def new_player(cid, status):
        pn[0] += 1
        pid = "P%04d" % pn[0]
        first, last = rng.choice(FIRST), rng.choice(LAST)
        while True:
            email = "%s.%s%d@mailbox.example.com" % (first.lower(), last.lower(), rng.randint(1, 99))
            if email not in used_emails:
                used_emails.add(email)
                break
        r = rng.random()
        if r < 0.12:
            birth = date(2008, 1, 1) + timedelta(days=rng.randint(0, 640))      # junior (16-17)
        elif r < 0.32:
            birth = date(1972, 1, 1) + timedelta(days=rng.randint(0, 365 * 17))  # veteran
        else:
            birth = date(1992, 1, 1) + timedelta(days=rng.randint(0, 365 * 14))  # senior
        cat = category_for(birth)
        if status == "pending":
            reg = TODAY - timedelta(days=rng.randint(1, 26))
        else:
            reg = date(2025, 7, 1) + timedelta(days=rng.randint(0, 95))
        tier = db["clubs"][cid]["tier"]
        p = {
            "player_id": pid, "club_id": cid, "first_name": first, "last_name": last, "email": email,
            "birth_date": birth.isoformat(), "category": cat, "status": status,
            "registration_fee": reg_fee(cat, tier, reg), "fee_paid": status != "pending" and status != "withdrawn",
            "registered_on": reg.isoformat(), "paid_on": None, "joined_club_on": reg.isoformat(),
            "transfers_this_season": 0, "withdrawn_on": None, "released_on": None,
        }
        if p["fee_paid"]:
            p["paid_on"] = min(reg + timedelta(days=rng.randint(0, 9)), TODAY - timedelta(days=1)).isoformat()
        if status == "withdrawn":
            p["withdrawn_on"] = min(reg + timedelta(days=rng.randint(1, 10)), TODAY).isoformat()
        if status == "released":
            p["released_on"] = (date.fromisoformat(p["paid_on"]) + timedelta(days=rng.randint(5, 40))).isoformat()
            if p["released_on"] >= TODAY.isoformat():
                p["released_on"] = (TODAY - timedelta(days=2)).isoformat()
        players[pid] = p
        return p

    for cid in club_ids:
        c = db["clubs"][cid]
        if cid in full_clubs:
            n_active = c["squad_limit"]
        else:
            n_active = rng.randint(3, c["squad_limit"] - 2)
        for _ in range(n_active):
            st = "pending" if rng.random() < 0.14 else "registered"
            new_player(cid, st)
        if rng.random() < 0.45:
            new_player(cid, rng.choice(["withdrawn", "released"]))
    # some registered players moved club earlier this season
    regs = [p for p in players.values() if p["status"] == "registered"]
    for p in rng.sample(regs, 9):
        moved = date(2025, 9, 1) + timedelta(days=rng.randint(0, 40))
        if moved <= date.fromisoformat(p["registered_on"]):
            moved = date.fromisoformat(p["registered_on"]) + timedelta(days=3)
        p["joined_club_on"] = min(moved, TODAY - timedelta(days=1)).isoformat()
        p["transfers_this_season"] = 1

    # ---- suspensions
    susp = db["suspensions"]
    sn = [0]
    played = [f for f in (fixtures[k] for k in sorted(fixtures)) if f["status"] == "played"]
    recent = [f for f in played if f["date"] >= "2025-09-30"]
    older = [f for f in played if f["date"] < "2025-09-30"]
    suspended_players = set()

    def club_games_since(cid, day_str, upto=None):
        out = []
        for f in sorted(played, key=lambda f: (f["date"], f["fixture_id"])):
            if cid in (f["home_club_id"], f["away_club_id"]) and f["date"] >= day_str:
                out.append(f)
        return out

    def add_susp(f, want_status, force_reason=None):
        cid = rng.choice([f["home_club_id"], f["away_club_id"]])
        cands = [p for p in players.values() if p["club_id"] == cid and p["status"] == "registered"
                 and p["joined_club_on"] <= f["date"] and p["player_id"] not in suspended_players]
        if not cands:
            return None
        p = rng.choice(cands)
        reason = force_reason or rng.choice(SUSP_REASONS)
        matches = rng.randint(3, 5) if reason == "violent_conduct" else rng.randint(1, 3)
        if force_reason:
            matches = 6
        d = date.fromisoformat(f["date"])
        issued = min(d + timedelta(days=rng.randint(1, 3)), TODAY)
        fine = money(Decimal("15.00") * matches + (Decimal("25.00") if reason == "violent_conduct" else 0))
        sn[0] += 1
        sid = "S%03d" % sn[0]
        s = {"suspension_id": sid, "player_id": p["player_id"], "club_id": cid, "fixture_id": f["fixture_id"],
             "reason": reason, "matches": matches, "matches_remaining": matches, "fine": fine,
             "status": "active", "issued_on": issued.isoformat(), "served_on": None, "revoked_on": None}
        if want_status == "revoked":
            s["status"] = "revoked"
            s["revoked_on"] = min(issued + timedelta(days=rng.randint(1, 6)), TODAY).isoformat()
        else:
            games = club_games_since(cid, s["issued_on"])
            if len(games) >= matches:
                s["matches_remaining"] = 0
                s["status"] = "served"
                s["served_on"] = max(games[matches - 1]["date"], s["issued_on"])
            else:
                s["matches_remaining"] = matches - len(games)
                if want_status == "active":
                    p["status"] = "suspended"
                    suspended_players.add(p["player_id"])
                else:
                    return None  # could not be served yet; drop
            if want_status == "served" and s["status"] != "served":
                return None
            if want_status == "active" and s["status"] != "active":
                p["status"] = "registered"
                suspended_players.discard(p["player_id"])
        susp[sid] = s
        return s

    plan = []
    for f in rng.sample(older, 14):
        plan.append((f["date"], f, "served"))
    for f in rng.sample(older, 3):
        plan.append((f["date"], f, "revoked"))
    for f in rng.sample(recent, min(len(recent), 11)):
        plan.append((f["date"], f, "active"))
    long_bans = [f for f in older if f["date"] >= "2025-09-13"]
    for f in rng.sample(long_bans, 4):
        plan.append((f["date"], f, "long"))
    for f in rng.sample(recent, 3):
        plan.append((f["date"], f, "revoked"))
    plan.sort(key=lambda t: (t[0], t[1]["fixture_id"], t[2]))
    for _, f, st in plan:
        if st == "long":
            add_susp(f, "active", "violent_conduct")
        else:
            add_susp(f, st)
    # renumber suspensions so ids follow issue order
    ordered = sorted(susp.values(), key=lambda s: (s["issued_on"], s["fixture_id"], s["player_id"]))
    db["suspensions"] = {}
    for i, s in enumerate(ordered, 1):
        s["suspension_id"] = "S%03d" % i
        db["suspensions"][s["suspension_id"]] = s

    # ---- club counters and balances
    for p in players.values():
        if p["status"] in ("pending", "registered", "suspended"):
            db["clubs"][p["club_id"]]["squad_size"] += 1
    for cid in club_ids:
        c = db["clubs"][cid]
        owed = Decimal(str(rng.choice([0, 0, 25, 60, 95, 140, 180, 230, 310])))
        for p in players.values():
            if p["club_id"] == cid and p["status"] == "pending":
                owed += Decimal(str(p["registration_fee"]))
        c["balance"] = money(owed)
    for cid, extra in (("CL04", "512.40"), ("CL11", "688.00"), ("CL17", "745.25")):
        db["clubs"][cid]["balance"] = money(Decimal(str(db["clubs"][cid]["balance"])) + Decimal(extra))
    db["clubs"]["CL08"]["balance"] = -20.0
    return db


def main():
    db = build()
    out = Path(__file__).resolve().parent / "db.json"
    out.write_text(json.dumps(db, indent=2, sort_keys=False) + "\n")
    print("wrote", out, {k: len(v) for k, v in db.items() if k != "meta"})


if __name__ == "__main__":
    main()
