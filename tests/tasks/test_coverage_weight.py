"""The walk weight's coverage factor follows the write tools the accepted tasks used."""

from __future__ import annotations

from typing import Any, cast

from autoforge.tasks.graph.walks import Feasibility
from autoforge.tasks.model import GoldCall
from autoforge.tasks.pipeline import _Run


def _run() -> _Run:
    none = cast(Any, None)
    run = _Run(none, none, none, none, None, none, none, none, Feasibility(), none)
    run.writes = frozenset({"plant_seed", "harvest_crop", "water_bed"})
    return run


def _calls(*names: str) -> list[GoldCall]:
    return [GoldCall(name=n, arguments={}) for n in names]


def test_least_used_writes_weigh_most_and_follow_each_new_task() -> None:
    run = _run()
    base = run.feasibility.weight("list_beds", "plant_seed")
    assert run.weight("list_beds", "plant_seed") == base  # nothing accepted yet
    run.cover("sig-1", _calls("list_beds", "plant_seed"))
    assert run.weight("list_beds", "plant_seed") == base / 2  # used once, others never
    assert run.weight("list_beds", "harvest_crop") == base
    assert run.weight("list_beds", "list_beds") == base  # a read: no coverage factor
    run.cover("sig-2", _calls("harvest_crop"))
    run.cover("sig-3", _calls("water_bed"))
    assert run.weight("list_beds", "plant_seed") == base  # every write used once: even
    run.cover("sig-3", _calls("water_bed", "water_bed"))  # the same task again: not counted
    assert run.weight("list_beds", "water_bed") == base
    run.cover("sig-4", _calls("water_bed"))
    assert run.weight("list_beds", "water_bed") == base / 2
    assert run.weight("list_beds", "harvest_crop") == base
