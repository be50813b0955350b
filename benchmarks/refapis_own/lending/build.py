"""Writes db.json for the lending-desk reference API (deterministic, stdlib only)."""
import json
import os
import random
from datetime import date, timedelta

SEED = 4417
TODAY = date(2025, 6, 10)
PERIOD = {"book": 21, "dvd": 7, "audiobook": 14}
LIMIT = {"standard": 3, "premium": 6}

FIRST = ["Amara", "Basil", "Corinne", "Desmond", "Esther", "Florian", "Gwen", "Hamid", "Iris", "Joaquin",
         "Kirsi", "Leopold", "Mirela", "Nestor", "Odile", "Pascal", "Rhea", "Soren", "Thea", "Ulrich",
         "Valka", "Wendell", "Yara", "Zeno", "Agnes", "Boris", "Cosima", "Dorian", "Elske", "Fintan",
         "Gisela", "Hector", "Ilse", "Jasper", "Katya", "Lorcan"]
LAST = ["Achterberg", "Bramwell", "Castellano", "Dunmore", "Eriksen", "Fairweather", "Galloway",
        "Hollis", "Ingram", "Jankowski", "Kerrigan", "Lindgren", "Marchetti", "Nakagawa", "Oyelaran",
        "Pemberton", "Quist", "Radcliffe"]
WORDS = ["River", "Winter", "Glass", "Harbor", "Silent", "Copper", "Garden", "Northern", "Paper",
         "Lantern", "Orchard", "Salt", "Echo", "Amber", "Hollow", "Meridian", "Violet", "Stone"]
NOUNS = ["Atlas", "Letters", "Kingdom", "Machine", "Tides", "Lighthouse", "Season", "Archive",
         "Voyage", "Clockmaker", "Island", "Choir"]
AUTHORS = ["Ottilie Voss", "Idris Calloway", "Petra Lund", "Teodor Halim", "Noor Vasquez",
           "Saul Whitaker", "Liesel Amundsen", "Rafe Okonjo", "Clio Barrington", "Anselm Rook"]


def main():
    rng = random.Random(SEED)
    patrons = {}
    for i in range(1, 37):
        pid = "P%03d" % i
        first, last = FIRST[i - 1], LAST[(i * 7) % len(LAST)]
        patrons[pid] = {"id": pid, "name": "%s %s" % (first, last),
                        "email": "%s.%s@mail.example" % (first.lower(), last.lower()),
                        "tier": "premium" if i % 4 == 0 else "standard",
                        "status": "suspended" if i in (6, 19, 31) else "active",
                        "fines_due": 0.0, "loans_out": 0, "joined_on": (TODAY - timedelta(days=40 * i)).isoformat()}
    copies = {}
    for i in range(1, 91):
        cid = "C%04d" % i
        fmt = "dvd" if i % 6 == 0 else ("audiobook" if i % 7 == 0 else "book")
        copies[cid] = {"id": cid, "title": "The %s %s" % (WORDS[i % len(WORDS)], NOUNS[(i * 5) % len(NOUNS)]),
                       "author": AUTHORS[(i * 3) % len(AUTHORS)], "format": fmt, "status": "available",
                       "replacement_cost": round(rng.choice([12.5, 18.0, 22.75, 29.99, 34.5]) + (5 if fmt == "dvd" else 0), 2)}
    for i in (17, 44, 71):
        copies["C%04d" % i]["status"] = "lost"
    loans, holds = {}, {}
    cids = [c for c in sorted(copies) if copies[c]["status"] == "available"]
    rng.shuffle(cids)
    active_pids = [p for p in sorted(patrons) if patrons[p]["status"] == "active"]
    n = 0
    # returned loans (history)
    for k in range(40):
        n += 1
        cid, pid = rng.choice(cids), rng.choice(sorted(patrons))
        per = PERIOD[copies[cid]["format"]]
        start = TODAY - timedelta(days=rng.randint(30, 200))
        late = rng.choice([0, 0, 0, 2, 5])
        ret = start + timedelta(days=per + late - rng.randint(0, 3) if late == 0 else per + late)
        loans["L%04d" % n] = {"id": "L%04d" % n, "copy_id": cid, "patron_id": pid, "borrowed_on": start.isoformat(),
                              "due_on": (start + timedelta(days=per)).isoformat(), "returned_on": ret.isoformat(),
                              "renewals": rng.choice([0, 0, 1]), "status": "returned",
                              "fine": round(late * (1.0 if copies[cid]["format"] == "dvd" else 0.25), 2)}
    # active loans
    for k in range(38):
        cid = cids.pop()
        pid = rng.choice(active_pids + ["P006", "P019"])
        if patrons[pid]["loans_out"] >= LIMIT[patrons[pid]["tier"]]:
            continue
        n += 1
        per = PERIOD[copies[cid]["format"]]
        start = TODAY - timedelta(days=rng.randint(0, per + 6))
        loans["L%04d" % n] = {"id": "L%04d" % n, "copy_id": cid, "patron_id": pid, "borrowed_on": start.isoformat(),
                              "due_on": (start + timedelta(days=per)).isoformat(), "returned_on": None,
                              "renewals": rng.choice([0, 0, 1, 2]), "status": "active", "fine": 0.0}
        copies[cid]["status"] = "on_loan"
        patrons[pid]["loans_out"] += 1
    for pid in ("P006", "P019", "P031", "P004", "P011", "P023"):
        patrons[pid]["fines_due"] = rng.choice([3.75, 12.5, 14.0, 27.25, 6.5])
    patrons["P019"]["fines_due"] = 0.0
    on_loan = [c for c in sorted(copies) if copies[c]["status"] == "on_loan"]
    h = 0
    for k in range(30):
        cid = rng.choice(on_loan)
        pid = rng.choice(active_pids)
        holder = [l["patron_id"] for l in loans.values() if l["copy_id"] == cid and l["status"] == "active"]
        if pid in holder or any(x["copy_id"] == cid and x["patron_id"] == pid for x in holds.values()):
            continue
        h += 1
        placed = TODAY - timedelta(days=rng.randint(0, 20))
        st = rng.choice(["waiting", "waiting", "waiting", "fulfilled", "cancelled"])
        rec = {"id": "H%03d" % h, "copy_id": cid, "patron_id": pid, "placed_on": placed.isoformat(), "status": st}
        if st == "cancelled":
            rec["cancelled_on"] = (placed + timedelta(days=2)).isoformat()
            rec["cancel_reason"] = rng.choice(["no longer needed", "bought a copy", "moved away"])
        holds[rec["id"]] = rec
    # one copy waiting on the hold shelf for a patron
    shelf = [c for c in sorted(copies) if copies[c]["status"] == "available"][:2]
    for cid, pid in zip(shelf, ("P002", "P009")):
        h += 1
        copies[cid]["status"] = "on_hold"
        holds["H%03d" % h] = {"id": "H%03d" % h, "copy_id": cid, "patron_id": pid,
                              "placed_on": (TODAY - timedelta(days=6)).isoformat(), "status": "ready"}
    db = {"meta": {"today": TODAY.isoformat(), "library": "Harbor Street Library"},
          "patrons": patrons, "copies": copies, "loans": loans, "holds": holds}
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "db.json"), "w") as f:
        json.dump(db, f, indent=1, sort_keys=False)
        f.write("\n")


if __name__ == "__main__":
    main()
