"""The benchmark method every script under ``benchmarks/`` uses.

* the baseline and autoforge run interleaved in the same process (``interleaved``), so both see
  the same machine load;
* medians over at least 5 repetitions, with CPU time (``time.process_time``) beside wall time;
* the load average printed at start and end, with a warning when it exceeds the core count
  (then wall-clock figures are upper bounds, and ratios should be read from CPU time);
* the machine's speed at start and end: the CPU time of a fixed pure-Python reference workload
  (``reference_cpu_s``). On a shared virtual machine the same code's CPU time can move by a
  factor of two between days while the load average stays low; a figure in absolute units
  (tasks per CPU second) is only comparable across runs beside this reference.

Scripts import it as ``from bench_method import ...`` (``python benchmarks/x.py`` puts this
folder on ``sys.path``).
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

MIN_REPEATS = 5


@dataclass
class Sample:
    """One timed run: wall and CPU seconds, and whatever the run returned."""

    wall_s: float
    cpu_s: float
    value: Any = None


@dataclass
class Series:
    """The samples of one contender, with their medians."""

    name: str
    samples: list[Sample] = field(default_factory=list)

    @property
    def wall_s(self) -> float:
        return statistics.median(s.wall_s for s in self.samples)

    @property
    def cpu_s(self) -> float:
        return statistics.median(s.cpu_s for s in self.samples)

    def summary(self) -> dict[str, Any]:
        walls = [s.wall_s for s in self.samples]
        return {
            "n": len(self.samples),
            "median_wall_s": round(self.wall_s, 6),
            "median_cpu_s": round(self.cpu_s, 6),
            "min_wall_s": round(min(walls), 6),
            "max_wall_s": round(max(walls), 6),
        }


def timed(fn: Callable[[], Any], extra_cpu: Callable[[], float] | None = None) -> Sample:
    """Run ``fn`` once; its wall and CPU time and its result.

    CPU time is this process's, plus what ``extra_cpu()`` (CPU seconds used so far by helper
    processes, e.g. a sandbox worker: :func:`process_cpu_s`) grew by during the run.
    """
    extra0 = extra_cpu() if extra_cpu is not None else 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    value = fn()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if extra_cpu is not None:
        cpu += extra_cpu() - extra0
    return Sample(wall, cpu, value)


def interleaved(
    contenders: Mapping[str, Callable[[], Any]],
    repeats: int = MIN_REPEATS,
    extra_cpu: Mapping[str, Callable[[], float]] | None = None,
) -> dict[str, Series]:
    """Each contender ``repeats`` times, alternating A, B, A, B ... so load hits all alike.

    ``extra_cpu[name]``: the CPU seconds of the helper processes that contender uses.
    """
    if repeats < MIN_REPEATS:
        raise ValueError(f"the method asks for medians over at least {MIN_REPEATS} repetitions")
    out = {name: Series(name) for name in contenders}
    extra = extra_cpu or {}
    for _ in range(repeats):
        for name, fn in contenders.items():
            out[name].samples.append(timed(fn, extra.get(name)))
    return out


def process_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` (0 when unreadable).

    Linux ``/proc`` counts in clock ticks (10 ms): time blocks of calls, not single calls.
    """
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def reference_cpu_s(rounds: int = 5) -> float:
    """CPU seconds of a fixed pure-Python workload (dicts, JSON, hashing, string work: what
    the pipeline's hot loops do), the median of ``rounds``: smaller is a faster machine."""
    times = []
    for _ in range(rounds):
        cpu = time.process_time()
        acc = 0
        for i in range(8000):
            record = {
                "id": f"R-{i}",
                "n": i,
                "tags": [str(i % 7), "x" * (i % 13)],
                "ok": i % 2 == 0,
            }
            text = json.dumps(record, sort_keys=True)
            acc += len(json.loads(text)["tags"][1]) + len(hashlib.sha256(text.encode()).digest())
            acc += sum(1 for k in record if k.startswith(("i", "n")))
        times.append(time.process_time() - cpu)
        assert acc > 0
    return statistics.median(times)


def finish(figures: Mapping[str, Any], load: Load) -> None:
    """Print the load lines, then the last line: one JSON object (``figures`` + ``load``)."""
    load.finish()
    for line in load.lines():
        print(line)
    print(json.dumps({**figures, "load": load.as_json()}))


@dataclass
class Load:
    """The machine load around a benchmark run."""

    start: float = field(default_factory=lambda: os.getloadavg()[0])
    end: float | None = None
    cores: int = field(default_factory=lambda: len(os.sched_getaffinity(0)))
    reference_start_s: float = field(default_factory=reference_cpu_s)
    reference_end_s: float | None = None

    def finish(self) -> Load:
        self.end = os.getloadavg()[0]
        self.reference_end_s = reference_cpu_s()
        return self

    @property
    def busy(self) -> bool:
        return max(self.start, self.end or 0.0) > self.cores

    def lines(self) -> list[str]:
        """Human-readable load lines (with the warning when the machine was busy)."""
        out = [
            f"load average: start {self.start:.2f}, end {self.end or 0:.2f}; {self.cores} cores",
            f"machine speed: reference workload {self.reference_start_s * 1000:.0f} ms CPU at "
            f"start, {(self.reference_end_s or 0) * 1000:.0f} ms at end (smaller is faster)",
        ]
        if self.busy:
            out.append(
                "WARNING: load average above the core count: wall-clock figures are upper "
                "bounds; compare CPU times"
            )
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "cores": self.cores,
            "busy": self.busy,
            "reference_cpu_s": [self.reference_start_s, self.reference_end_s],
        }


def ratio(baseline: Series, ours: Series, by: str = "cpu") -> float:
    """How many times faster ``ours`` is than ``baseline`` (medians; CPU time by default)."""
    num = baseline.cpu_s if by == "cpu" else baseline.wall_s
    den = ours.cpu_s if by == "cpu" else ours.wall_s
    return num / den if den else float("inf")
