"""S0 drawn from the data: subsets of the real records, references intact, children along."""

from __future__ import annotations

import random
from typing import Any

from autoforge.env.artifact.spec import Attribute, CollectionSchema, EnvironmentSpec, StateSchema
from autoforge.tasks.states.datastart import DataSampler


def _coll(name: str, key: str, *attrs: str) -> CollectionSchema:
    return CollectionSchema(name=name, primary_key=key, attributes=[
        Attribute(name=key, type="id"), *(Attribute(name=a) for a in attrs)])  # fmt: skip


def _data(groups: int = 60) -> dict[str, Any]:
    """Groups (with a note counter) of entries, entries with notes by authors; entries list
    the kinds they use (a small catalogue named only inside lists)."""
    authors = {f"A{i:02d}": {"author_id": f"A{i:02d}", "name": f"n{i}"} for i in range(10)}
    kinds = {f"K{i}": {"kind_id": f"K{i}", "label": f"k{i}"} for i in range(4)}
    groups_: dict[str, Any] = {}
    entries: dict[str, Any] = {}
    notes: dict[str, Any] = {}
    rng = random.Random(3)
    for g in range(groups):
        gid = f"G{g:03d}"
        groups_[gid] = {"group_id": gid, "owner_id": f"A{g % 10:02d}", "entry_count": 0}
        for e in range(rng.randint(1, 3)):
            eid = f"E{g:03d}{e}"
            groups_[gid]["entry_count"] += 1
            entries[eid] = {"entry_id": eid, "group_id": gid, "author_id": f"A{e:02d}",
                            "kinds": [f"K{(g + e) % 4}"], "note_count": 0}  # fmt: skip
            for n in range(rng.randint(0, 2)):
                nid = f"N{g:03d}{e}{n}"
                entries[eid]["note_count"] += 1
                notes[nid] = {"note_id": nid, "entry_id": eid, "author_id": f"A{n:02d}"}
    return {"authors": authors, "kinds": kinds, "groups": groups_, "entries": entries,
            "notes": notes}  # fmt: skip


def _spec() -> EnvironmentSpec:
    schema = StateSchema(collections=[
        _coll("authors", "author_id", "name"), _coll("kinds", "kind_id", "label"),
        _coll("groups", "group_id", "owner_id", "entry_count"),
        _coll("entries", "entry_id", "group_id", "author_id", "kinds", "note_count"),
        _coll("notes", "note_id", "entry_id", "author_id"),
    ])  # fmt: skip
    return EnvironmentSpec(name="groups", tools=[], state_schema=schema)


def _named(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _named(v)]
    if isinstance(value, list):
        return [s for v in value for s in _named(v)]
    return []


def test_a_subset_keeps_references_counts_and_records_as_they_are() -> None:
    data = _data()
    sampler = DataSampler(_spec(), data)
    assert sampler.kept == {"kinds"}  # named inside lists: kept whole
    keys = {k: c for c, records in data.items() for k in records}
    for seed in range(5):
        state = sampler.sample(random.Random(seed))
        total = sum(len(r) for r in state.values())
        assert sampler.target() <= total < sampler.total  # a subset, about the target size
        assert state["kinds"] == data["kinds"]
        for coll, records in state.items():
            for key, record in records.items():
                assert record == data[coll][key]  # nothing invented or changed
                for text in _named(record):  # every record it names is there
                    if text in keys and text != key:
                        assert text in state[keys[text]], (coll, key, text)
        for eid, entry in state["entries"].items():  # counters still add up
            assert entry["note_count"] == sum(n["entry_id"] == eid
                                              for n in state["notes"].values())  # fmt: skip


def test_seeds_bring_their_whole_family_and_subsets_differ() -> None:
    data = _data()
    sampler = DataSampler(_spec(), data)
    drawn = [sampler.sample(random.Random(seed)) for seed in range(4)]
    assert len({tuple(sorted(s["groups"])) for s in drawn}) == 4  # other records each time
    assert sampler.sample(random.Random(1)) == drawn[1]  # the same rng, the same subset
    for state in drawn:  # a group drawn as a seed comes with all its entries
        full = [g for g, r in state["groups"].items()
                if r["entry_count"] == sum(e["group_id"] == g
                                           for e in state["entries"].values())]  # fmt: skip
        assert len(full) >= len(state["groups"]) // 2


def test_small_data_is_taken_whole() -> None:
    data = _data(groups=4)
    state = DataSampler(_spec(), data).sample(random.Random(0))
    assert state == data


def test_a_record_naming_another_by_a_pair_of_references_brings_it() -> None:
    """A booking of a boat at a marina names the berth record of that boat at that marina (the
    pair tells berths apart) though no single value of the booking is the berth's key."""
    boats = {f"B{i}": {"boat_id": f"B{i}"} for i in range(40)}
    marinas = {f"M{i}": {"marina_id": f"M{i}"} for i in range(40)}
    berths = {f"X{i}": {"berth_id": f"X{i}", "boat_id": f"B{i}", "marina_id": f"M{i}"}
              for i in range(40)}  # fmt: skip
    bookings = {
        f"K{i}": {"booking_id": f"K{i}", "boat_id": f"B{i % 40}", "marina_id": f"M{i % 40}"}
        for i in range(80)
    }  # fmt: skip  (two bookings per berth)
    data = {"boats": boats, "marinas": marinas, "berths": berths, "bookings": bookings}
    spec = EnvironmentSpec(name="m", state_schema=StateSchema(collections=[
        _coll("boats", "boat_id"), _coll("marinas", "marina_id"),
        _coll("berths", "berth_id", "boat_id", "marina_id"),
        _coll("bookings", "booking_id", "boat_id", "marina_id"),
    ]))  # fmt: skip
    sampler = DataSampler(spec, data)
    assert ("berths", "X3") in sampler.points[("bookings", "K3")]
    assert ("berths", "X3") in sampler.points[("bookings", "K43")]
    # the bookings' pairs repeat, so they tell no booking apart: a berth names no booking
    assert ("bookings", "K3") not in sampler.points[("berths", "X3")]
    for seed in range(5):
        state = sampler.sample(random.Random(seed))
        for booking in state["bookings"].values():
            pair = (booking["boat_id"], booking["marina_id"])
            assert pair in {(b["boat_id"], b["marina_id"]) for b in state["berths"].values()}
