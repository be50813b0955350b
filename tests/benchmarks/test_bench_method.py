"""The shared benchmark method: interleaving, medians over >= 5 runs, CPU beside wall, load."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import bench_method


def test_contenders_alternate_and_report_medians() -> None:
    order: list[str] = []
    series = bench_method.interleaved(
        {"base": lambda: order.append("base"), "ours": lambda: order.append("ours")}, repeats=5
    )
    assert order == ["base", "ours"] * 5
    summary = series["ours"].summary()
    assert summary["n"] == 5 and summary["median_cpu_s"] >= 0
    assert summary["min_wall_s"] <= summary["median_wall_s"] <= summary["max_wall_s"]


def test_fewer_than_five_repetitions_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 5"):
        bench_method.interleaved({"a": lambda: None}, repeats=3)


def test_cpu_ratio_uses_medians() -> None:
    base = bench_method.Series("b", [bench_method.Sample(1.0, c) for c in (4.0, 4.0, 9.0)])
    ours = bench_method.Series("o", [bench_method.Sample(1.0, c) for c in (1.0, 2.0, 2.0)])
    assert bench_method.ratio(base, ours) == 2.0


def test_a_busy_machine_is_flagged() -> None:
    load = bench_method.Load(start=9.0, end=1.0, cores=2)
    assert load.busy and any("WARNING" in line for line in load.lines())
    calm = bench_method.Load(start=0.5, end=0.4, cores=2)
    assert not calm.busy and len(calm.lines()) == 1
