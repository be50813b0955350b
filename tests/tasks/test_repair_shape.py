"""A record an S0 repair moves into a status takes the shape the data's records in that status
have, and a record read through a reply that wraps it still counts as the fact it came from
(so the rules on that fact choose it). Invented domain."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

from autoforge.tasks.blueprints.blueprint import CallNode, FactRef, OutputRef
from autoforge.tasks.gold.failures import GoldFailure
from autoforge.tasks.gold.instantiate import _repair_start
from autoforge.tasks.gold.plausible import source_fact
from autoforge.tasks.states.repair import shape_to_value


def _data() -> dict[str, Any]:
    crates = {}
    for i, state in enumerate(["drafted", "sealed", "sent", "void"] * 3):
        key = f"CR{i:02d}"
        crates[key] = {"crate_id": key, "state": state, "depot_id": f"DP{(i // 4) % 2}",
                       "seal_code": f"S-{i}" if state in ("sealed", "sent") else None,
                       "sealed_by": ["Ana", "Ben"][i % 2] if state in ("sealed", "sent") else None,
                       "void_note": "damaged" if state == "void" else None}  # fmt: skip
    return {"crates": crates}


def test_a_repaired_record_takes_the_shape_of_its_new_status() -> None:
    data = _data()
    state = {"crates": dict(data["crates"])}
    key = next(k for k, r in data["crates"].items() if r["state"] == "void")
    state["crates"][key] = {**data["crates"][key], "state": "sealed"}
    assert shape_to_value(state, data, ("crates", key, "state"))
    shaped = state["crates"][key]
    assert shaped["void_note"] is None  # no sealed crate of the data has one
    codes = {r["seal_code"] for r in data["crates"].values()} - {None}
    # a code no two crates share: a new one shaped like them, not a copy
    assert shaped["seal_code"] not in codes and re.fullmatch(r"S-\d+", shaped["seal_code"])
    assert shaped["sealed_by"] in {"Ana", "Ben"}  # a value records share: one of theirs
    assert shaped["depot_id"] == data["crates"][key]["depot_id"]  # not status-bound: kept
    assert data["crates"][key]["state"] == "void"  # the data itself is untouched
    assert not shape_to_value(state, data, ("crates", key, "state"))  # already in shape
    few = {"crates": {"A": {"state": "x", "n": None}, "B": {"state": "x", "n": 1}}}
    assert not shape_to_value(few, few, ("crates", "A", "state"))  # one donor: no pattern


def test_a_repair_a_failed_run_asks_for_shapes_the_record_it_moves() -> None:
    """Instantiation's repair step: the guard's fix sets the status, the record is shaped."""
    data = _data()
    drafted = next(k for k, r in data["crates"].items() if r["state"] == "drafted")
    failure = GoldFailure("gold_error", f"{drafted} is drafted; only sealed crates ship")
    failure.fix = ("crates", drafted, "state", "sealed")
    env = SimpleNamespace(initial_state=data, spec=None)
    outcome, state = _repair_start(failure, {"crates": dict(data["crates"])}, env, {})
    moved = state["crates"][drafted]
    assert outcome == "changed" and moved["state"] == "sealed" and moved["seal_code"]
    assert data["crates"][drafted]["state"] == "drafted"


def test_a_wrapped_reply_echoes_the_key_it_was_asked_for() -> None:
    get = CallNode(id="c0", tool="get_crate", args={"crate_id": FactRef(name="crate_id")})
    nodes = {"c0": get}
    assert source_fact(OutputRef(node="c0", path=["crate", "crate_id"]), nodes) == "crate_id"
    assert source_fact(OutputRef(node="c0", path=["crate_id"]), nodes) == "crate_id"
    assert source_fact(OutputRef(node="c0", path=["crate", "depot_id"]), nodes) is None
    assert source_fact(OutputRef(node="c0", path=["items", 0, "crate_id"]), nodes) is None
