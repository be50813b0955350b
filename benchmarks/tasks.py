"""Task synthesis throughput: verified tasks per second of the deterministic pipeline.

Runs ``autoforge.tasks.generate_tasks`` on the bundled bookstore environment (real runtime, no
LLM) for each difficulty preset, several times with different seeds, and reports the median
rate of *verified* tasks (accepted by every gate: gold run without error, a do-nothing agent
fails, two replays agree, not a duplicate, difficulty met), in wall-clock and CPU time (the
machine may be shared; CPU time shows the cost of the code itself), plus the accept rate and the
rejection reasons.

Baseline in the same run: the *runtime floor*, i.e. only executing the accepted tasks' gold
calls three times (gold run + two replays) from their S0, as any verified pipeline must, with
nothing else (no walks, blueprints, fact choice, failed attempts or scenario writing). The ratio
says how much of the time the synthesis itself adds.

Before/after in one go: ``--compare REF`` (a git ref, e.g. ``HEAD~3``) also measures the code
of REF (its ``src/`` extracted with ``git archive``), each run in its own subprocess,
alternating REF and the working tree run by run so that both see the same machine load; the
table then has a row per code version and the JSON a ``compare`` entry with REF's figures and
the speed-ups.

Last line: one JSON object with ``tasks_per_s`` (median wall-clock rate at ``--difficulty``),
``tasks_per_s_cpu``, ``accept_rate`` and the per-difficulty figures.
Run: ``python benchmarks/tasks.py`` (about a minute); ``--n 50 --repeats 1`` for a quick look;
``--compare HEAD~5 --presets medium --repeats 5`` for before/after.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.tasks import Task, generate_tasks
from autoforge.tasks.runtime import bind_state


def runtime_floor(env: Any, tasks: list[Task]) -> tuple[float, float]:
    """(wall s, CPU s) to execute every task's gold calls 3 times from S0 and hash the result."""
    wall, cpu = time.perf_counter(), time.process_time()
    for task in tasks:
        bound = bind_state(env, task.initial_state)
        for _ in range(3):
            episode = bound.episode()
            for call in task.gold_calls:
                episode.call(call.name, call.arguments)
            assert episode.state_hash() == task.final_state_hash
    return time.perf_counter() - wall, time.process_time() - cpu


def measure(env: Any, difficulty: str, n: int, seed: int) -> dict[str, Any]:
    """One generation run: rates, accept rate, rejections, stage times, runtime floor."""
    wall, cpu = time.perf_counter(), time.process_time()
    tasks, stats = generate_tasks(env, n, difficulty, seed=seed)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    floor_wall, floor_cpu = runtime_floor(env, tasks)
    return {
        "accepted": len(tasks),
        "attempts": stats.attempts,
        "tasks_per_s": len(tasks) / wall,
        "tasks_per_s_cpu": len(tasks) / cpu,
        "accept_rate": stats.accept_rate,
        "rejected": stats.rejected,
        "stage_seconds": stats.stage_seconds,
        "floor_tasks_per_s": len(tasks) / floor_wall if floor_wall else 0.0,
        "floor_tasks_per_s_cpu": len(tasks) / floor_cpu if floor_cpu else 0.0,
        "mean_tool_calls": statistics.mean(t.difficulty.tool_calls for t in tasks) if tasks else 0,
    }


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the repeats; rejection reasons summed."""
    keys = ("tasks_per_s", "tasks_per_s_cpu", "accept_rate", "floor_tasks_per_s",
            "floor_tasks_per_s_cpu", "mean_tool_calls")  # fmt: skip
    out: dict[str, Any] = {k: round(statistics.median(r[k] for r in runs), 3) for k in keys}
    rejected: Counter[str] = Counter()
    for run in runs:
        rejected.update(run["rejected"])
    out["rejected"] = dict(rejected.most_common())
    out["accepted"] = sum(r["accepted"] for r in runs)
    out["attempts"] = sum(r["attempts"] for r in runs)
    stages: Counter[str] = Counter()
    for run in runs:
        stages.update(run["stage_seconds"])
    out["stage_share"] = {k: round(v / sum(stages.values()), 3) for k, v in stages.items()}
    return out


def _one_run(preset: str, n: int, seed: int) -> None:
    """``--worker``: one measured run in a fresh process; prints its figures as JSON."""
    env: Any = Environment.load(example_path("bookstore"))
    generate_tasks(env, 3, "easy", seed=10_000)  # warm caches and imports
    print(json.dumps(measure(env, preset, n, seed)))


def _extract(ref: str, root: Path) -> Path:
    """The ``src/`` tree of git ``ref`` extracted under ``root``; returns that ``src``."""
    repo = Path(__file__).resolve().parents[1]
    archive = subprocess.run(
        ["git", "-C", str(repo), "archive", ref, "src"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    return root / "src"


def _in_subprocess(src: Path | None, preset: str, n: int, seed: int) -> dict[str, Any]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), env.get("PYTHONPATH", "")])
    cmd = [sys.executable, __file__, "--worker", preset, str(n), str(seed)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def compare(ref: str, presets: list[str], n: int, repeats: int) -> dict[str, Any]:
    """Runs of REF's code and of the working tree, alternating; medians per preset."""
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        src = _extract(ref, Path(tmp))
        for preset in presets:
            before, after = [], []
            for seed in range(repeats):
                before.append(_in_subprocess(src, preset, n, seed))
                after.append(_in_subprocess(None, preset, n, seed))
            out[preset] = {"before": summarise(before), "after": summarise(after)}
    return out


def _compare_table(ref: str, res: dict[str, Any], n: int, repeats: int) -> Table:
    table = Table(title=f"Before ({ref}) / after (working tree): {n} tasks x {repeats} seeds, "
                  "medians, runs alternating")  # fmt: skip
    for col in ("difficulty", "code", "tasks/s (wall)", "tasks/s (CPU)", "accept rate",
                "calls/task", "speed-up (CPU)"):  # fmt: skip
        table.add_column(col)
    for preset, both in res.items():
        base = both["before"]["tasks_per_s_cpu"] or 1.0
        for code in ("before", "after"):
            r = both[code]
            table.add_row(preset, ref if code == "before" else "working tree",
                          f"{r['tasks_per_s']:.1f}", f"{r['tasks_per_s_cpu']:.1f}",
                          f"{r['accept_rate']:.2f}", f"{r['mean_tool_calls']:.1f}",
                          f"{r['tasks_per_s_cpu'] / base:.2f}x")  # fmt: skip
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=100, help="tasks per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs (seeds) per difficulty")
    parser.add_argument("--difficulty", default="medium", help="the headline difficulty")
    parser.add_argument("--presets", default="easy,medium,hard")
    parser.add_argument("--compare", metavar="REF", help="also measure git REF's code")
    hidden = argparse.SUPPRESS
    parser.add_argument("--worker", nargs=3, metavar=("PRESET", "N", "SEED"), help=hidden)
    args = parser.parse_args()
    if args.worker:
        _one_run(args.worker[0], int(args.worker[1]), int(args.worker[2]))
        return
    if args.compare:
        presets = args.presets.split(",")
        res = compare(args.compare, presets, args.n, args.repeats)
        Console(width=150).print(_compare_table(args.compare, res, args.n, args.repeats))
        head = res.get(args.difficulty) or next(iter(res.values()))
        after, before = head["after"], head["before"]
        print(json.dumps({
            "env": "bookstore", "difficulty": args.difficulty,
            "tasks_per_s": after["tasks_per_s"], "tasks_per_s_cpu": after["tasks_per_s_cpu"],
            "accept_rate": after["accept_rate"], "goal_tasks_per_s": 100,
            "compare": {"ref": args.compare,
                        "before_tasks_per_s": before["tasks_per_s"],
                        "before_tasks_per_s_cpu": before["tasks_per_s_cpu"],
                        "speedup_cpu": round(after["tasks_per_s_cpu"]
                                             / (before["tasks_per_s_cpu"] or 1.0), 3),
                        "per_difficulty": res},
        }))  # fmt: skip
        return
    env: Any = Environment.load(example_path("bookstore"))
    generate_tasks(env, 3, "easy", seed=10_000)  # warm caches and imports
    results: dict[str, dict[str, Any]] = {}
    for preset in args.presets.split(","):
        runs = [measure(env, preset, args.n, seed) for seed in range(args.repeats)]
        results[preset] = summarise(runs)
    table = Table(
        title=f"Task synthesis on bookstore ({args.n} tasks x {args.repeats} seeds, medians)"
    )
    for col in ("difficulty", "tasks/s (wall)", "tasks/s (CPU)", "accept rate", "calls/task",
                "runtime floor tasks/s (CPU)", "top rejections"):  # fmt: skip
        table.add_column(col)
    for preset, res in results.items():
        top = ", ".join(f"{k} {v}" for k, v in list(res["rejected"].items())[:3])
        table.add_row(preset, f"{res['tasks_per_s']:.1f}", f"{res['tasks_per_s_cpu']:.1f}",
                      f"{res['accept_rate']:.2f}", f"{res['mean_tool_calls']:.1f}",
                      f"{res['floor_tasks_per_s_cpu']:.0f}", top)  # fmt: skip
    Console(width=150).print(table)
    head = results.get(args.difficulty) or next(iter(results.values()))
    print(json.dumps({
        "env": "bookstore",
        "difficulty": args.difficulty,
        "tasks_per_s": head["tasks_per_s"],
        "tasks_per_s_cpu": head["tasks_per_s_cpu"],
        "accept_rate": head["accept_rate"],
        "goal_tasks_per_s": 100,
        "per_difficulty": results,
    }))  # fmt: skip


if __name__ == "__main__":
    main()
