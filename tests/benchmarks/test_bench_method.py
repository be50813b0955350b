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
    assert not calm.busy and not any("WARNING" in line for line in calm.lines())


def test_helper_process_cpu_is_added_to_its_contender() -> None:
    helper = iter([1.0, 1.5, 2.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0, 4.0])
    series = bench_method.interleaved(
        {"contained": lambda: None, "inline": lambda: None},
        repeats=5,
        extra_cpu={"contained": lambda: next(helper)},
    )
    cpus = [s.cpu_s for s in series["contained"].samples]
    assert cpus[0] >= 0.5 and cpus[1] >= 2.0  # 1.0 -> 1.5, then 2.0 -> 4.0
    assert all(s.cpu_s < 0.5 for s in series["inline"].samples)


def test_process_cpu_reads_this_process_and_tolerates_a_missing_one(tmp_path: Path) -> None:
    import os
    import time

    end = time.process_time() + 0.05
    while time.process_time() < end:
        pass
    assert bench_method.process_cpu_s(os.getpid()) > 0.0
    assert bench_method.process_cpu_s(2**22 + 12345) == 0.0


def test_finish_prints_the_json_object_last(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    bench_method.finish({"speedup": 2.0}, bench_method.Load(start=9.0, cores=2))
    lines = capsys.readouterr().out.strip().splitlines()
    last = json.loads(lines[-1])
    assert last["speedup"] == 2.0 and last["load"]["busy"] is True
    assert any(line.startswith("WARNING") for line in lines[:-1])


def test_the_load_record_carries_the_machine_speed_at_start_and_end() -> None:
    load = bench_method.Load().finish()
    start, end = load.as_json()["reference_cpu_s"]
    assert start > 0 and end is not None and end > 0
    assert any(line.startswith("machine speed: reference workload") for line in load.lines())
