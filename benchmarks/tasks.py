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

Last line: one JSON object with ``tasks_per_s`` (median wall-clock rate at ``--difficulty``),
``tasks_per_s_cpu``, ``accept_rate`` and the per-difficulty figures.
Run: ``python benchmarks/tasks.py`` (about a minute); ``--n 50 --repeats 1`` for a quick look.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from typing import Any

from rich.console import Console
from rich.table import Table

from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.tasks import Task, generate_tasks
from autoforge.tasks.runtime import bind_state


def runtime_floor(env: Environment, tasks: list[Task]) -> tuple[float, float]:
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


def measure(env: Environment, difficulty: str, n: int, seed: int) -> dict[str, Any]:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=100, help="tasks per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs (seeds) per difficulty")
    parser.add_argument("--difficulty", default="medium", help="the headline difficulty")
    parser.add_argument("--presets", default="easy,medium,hard")
    args = parser.parse_args()
    env = Environment.load(example_path("bookstore"))
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
