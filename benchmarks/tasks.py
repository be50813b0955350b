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

Method (``bench_method``): medians over at least 5 runs (seeds) per contender, CPU time beside
wall time, the load average at start and end (with a warning above the core count). CPU time
is counted three ways: this process (``host``), the sandbox worker process that runs the tool
code (``worker``, from ``/proc``), and their sum, the honest cost of a verified task since the
tool calls run in the worker. Speed-ups are computed from the sum.

LLM tokens per accepted task, end to end: ``--runs RUN_DIR...`` reads forge run directories
(``run.json``: tokens per stage; ``tasks.jsonl``: the tasks kept; ``generation.json``: attempts
and rejections) and reports tokens per stage and per accepted task, with the accept rate and the
difficulty distribution (tool calls, reasoning nodes, DAG depth). A run that copied its
environment (``--env OTHER_RUN/env``) is charged the tokens OTHER_RUN spent synthesizing it.
``--only-runs`` skips the throughput measurement.

Last line: one JSON object with ``tasks_per_s`` (median wall-clock rate at ``--difficulty``),
``tasks_per_s_cpu`` (host CPU), ``tasks_per_s_cpu_with_worker`` (host + worker CPU),
``accept_rate``, the per-difficulty figures, ``load`` and (with ``--runs``) ``runs``.
Run: ``python benchmarks/tasks.py`` (a few minutes); ``--n 50 --repeats 1`` for a quick look;
``--compare HEAD~5 --presets medium,hard`` for before/after;
``--only-runs --runs /tmp/kf/runs2/*`` for tokens per task of forge runs.
"""

from __future__ import annotations

import argparse
import hashlib
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

from bench_method import MIN_REPEATS, Load, finish, process_cpu_s
from rich.console import Console
from rich.table import Table

from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.tasks import Task, generate_tasks
from autoforge.tasks.runtime import bind_state


def runtime_floor(env: Any, tasks: list[Task]) -> tuple[float, float]:
    """(wall s, host + worker CPU s) to execute every task's gold calls 3 times from S0, call
    by call, and hash the result."""
    wall, cpu, sandbox = time.perf_counter(), time.process_time(), worker_cpu(env)
    for task in tasks:
        bound = bind_state(env, task.initial_state or {})
        for _ in range(3):
            episode = bound.episode()
            for call in task.gold_calls:
                episode.call(call.name, call.arguments)
            assert episode.state_hash() == task.final_state_hash
    sandbox = max(0.0, worker_cpu(env) - sandbox)
    return time.perf_counter() - wall, time.process_time() - cpu + sandbox


def worker_cpu(env: Any) -> float:
    """CPU seconds used so far by ``env``'s sandbox worker process (0 when it runs inline):
    the host's ``process_time`` misses it."""
    worker: Any = getattr(getattr(env, "_runtime", None), "worker", None)
    return process_cpu_s(worker.pid) if worker is not None else 0.0


def measure(env: Any, difficulty: str, n: int, seed: int) -> dict[str, Any]:
    """One generation run: times, rates, accept rate, rejections, stage times, runtime floor."""
    wall, cpu, sandbox = time.perf_counter(), time.process_time(), worker_cpu(env)
    tasks, stats = generate_tasks(env, n, difficulty, seed=seed)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    sandbox = max(0.0, worker_cpu(env) - sandbox)  # 0 if the worker was replaced meanwhile
    floor_wall, floor_cpu = runtime_floor(env, tasks)
    return {
        "accepted": len(tasks),
        "attempts": stats.attempts,
        "wall_s": wall,
        "host_cpu_s": cpu,
        "worker_cpu_s": sandbox,
        "tasks_per_s": len(tasks) / wall,
        "tasks_per_s_cpu": len(tasks) / cpu,
        "tasks_per_s_cpu_with_worker": len(tasks) / (cpu + sandbox),
        "load_average": os.getloadavg()[0],
        "accept_rate": stats.accept_rate,
        "rejected": stats.rejected,
        "stage_seconds": stats.stage_seconds,
        "floor_tasks_per_s": len(tasks) / floor_wall if floor_wall else 0.0,
        "floor_tasks_per_s_cpu": len(tasks) / floor_cpu if floor_cpu else 0.0,
        "mean_tool_calls": statistics.mean(t.difficulty.tool_calls for t in tasks) if tasks else 0,
        "fingerprint": hashlib.sha256("".join(t.id for t in tasks).encode()).hexdigest()[:16],
    }


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the repeats; rejection reasons summed."""
    keys = ("tasks_per_s", "tasks_per_s_cpu", "tasks_per_s_cpu_with_worker", "accept_rate",
            "floor_tasks_per_s", "floor_tasks_per_s_cpu", "mean_tool_calls",
            "load_average", "wall_s", "host_cpu_s", "worker_cpu_s")  # fmt: skip
    out: dict[str, Any] = {k: round(statistics.median(r[k] for r in runs), 3) for k in keys}
    rejected: Counter[str] = Counter()
    for run in runs:
        rejected.update(run["rejected"])
    out["rejected"] = dict(rejected.most_common())
    out["runs"] = len(runs)
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
            out[preset] = {"before": summarise(before), "after": summarise(after),
                           "paired": paired(before, after)}  # fmt: skip
    return out


def paired(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> dict[str, Any]:
    """Per seed, before / after CPU seconds (host + worker) and their median: the same seed
    makes both versions do the same work when they give the same tasks, so the per-seed ratio
    cancels the spread between seeds; ``same_tasks`` says whether they did."""
    ratios = [(b["host_cpu_s"] + b["worker_cpu_s"]) / (a["host_cpu_s"] + a["worker_cpu_s"])
              for b, a in zip(before, after, strict=True)]  # fmt: skip
    host = [b["host_cpu_s"] / a["host_cpu_s"] for b, a in zip(before, after, strict=True)]
    same = all(b["fingerprint"] == a["fingerprint"] for b, a in zip(before, after, strict=True))
    return {"speedup_cpu_with_worker": [round(r, 3) for r in ratios],
            "median_speedup_cpu_with_worker": round(statistics.median(ratios), 3),
            "median_speedup_host_cpu": round(statistics.median(host), 3),
            "same_tasks": same}  # fmt: skip


def _tokens(stage: dict[str, Any]) -> int:
    tok = stage.get("tokens") or {}
    return int(tok.get("prompt_tokens", 0)) + int(tok.get("completion_tokens", 0))


def _env_source_tokens(manifest: dict[str, Any]) -> tuple[int, str | None]:
    """Tokens the environment cost: its own stage, or the run it was copied from."""
    env_stage = manifest.get("stages", {}).get("environment", {})
    env_dir = (manifest.get("options") or {}).get("env_dir")
    source = Path(env_dir).parent / "run.json" if env_dir else None
    if source is not None and source.is_file():
        other = json.loads(source.read_text())
        return _tokens(other.get("stages", {}).get("environment", {})), str(source.parent)
    return _tokens(env_stage), None


def run_dir_figures(run_dir: Path) -> dict[str, Any]:
    """Tokens per stage and per accepted task, accept rate and difficulty of one forge run."""
    manifest = json.loads((run_dir / "run.json").read_text())
    stages = {name: _tokens(st) for name, st in manifest.get("stages", {}).items()}
    env_tokens, env_from = _env_source_tokens(manifest)
    if env_from is not None:
        stages["environment"] = env_tokens
    lines = (
        (run_dir / "tasks.jsonl").read_text().splitlines()
        if (run_dir / "tasks.jsonl").is_file()
        else []
    )
    tasks = [json.loads(line) for line in lines if line.strip()]
    gen_path = run_dir / "generation.json"
    gen = json.loads(gen_path.read_text()) if gen_path.is_file() else {}
    total = sum(stages.values())
    hist = lambda key: dict(sorted(Counter(t["difficulty"][key] for t in tasks).items()))  # noqa: E731
    return {
        "run": str(run_dir), "env_tokens_from": env_from, "tasks": len(tasks),
        "difficulty": (manifest.get("options") or {}).get("difficulty"),
        "attempts": gen.get("attempts"), "accept_rate": gen.get("accept_rate"),
        "rejected": gen.get("rejected", {}), "tokens_per_stage": stages, "tokens": total,
        "tokens_per_task": round(total / len(tasks)) if tasks else None,
        "tool_calls": hist("tool_calls"), "reasoning_nodes": hist("reasoning_nodes"),
        "depth": hist("depth"),
    }  # fmt: skip


def _runs_table(figures: list[dict[str, Any]]) -> Table:
    table = Table(title="Forge runs: LLM tokens per accepted task (end to end), accept rate, "
                  "difficulty")  # fmt: skip
    for col in ("run", "tasks", "accept rate", "tokens env / tasks stage", "tokens/task",
                "tool calls", "reasoning", "depth", "top rejections"):  # fmt: skip
        table.add_column(col)
    for f in figures:
        env = f["tokens_per_stage"].get("environment", 0)
        rest = f["tokens"] - env
        top = ", ".join(f"{k} {v}" for k, v in list(f["rejected"].items())[:3])
        rate = f"{f['accept_rate']:.1%}" if f["accept_rate"] is not None else "-"
        name = "/".join(Path(f["run"]).parts[-2:])
        table.add_row(f"{name} ({f['difficulty']})", str(f["tasks"]), rate,
                      f"{env} / {rest}", str(f["tokens_per_task"]), _hist(f["tool_calls"]),
                      _hist(f["reasoning_nodes"]), _hist(f["depth"]), top)  # fmt: skip
    return table


def _hist(h: dict[Any, int]) -> str:
    return " ".join(f"{k}:{v}" for k, v in h.items())


def _compare_table(ref: str, res: dict[str, Any], n: int, repeats: int) -> Table:
    table = Table(title=f"Before ({ref}) / after (working tree): {n} tasks x {repeats} seeds, "
                  "medians, runs alternating; CPU s per run: host, worker, sum")  # fmt: skip
    for col in ("difficulty", "code", "wall s", "host CPU s", "worker CPU s", "sum CPU s",
                "tasks/s (wall)", "tasks/s (host CPU)", "tasks/s (host + worker CPU)",
                "accept rate", "calls/task", "speed-up (sum CPU)"):  # fmt: skip
        table.add_column(col)
    for preset, both in res.items():
        base = both["before"]["tasks_per_s_cpu_with_worker"] or 1.0
        for code in ("before", "after"):
            r = both[code]
            table.add_row(preset, ref if code == "before" else "working tree",
                          f"{r['wall_s']:.2f}", f"{r['host_cpu_s']:.2f}",
                          f"{r['worker_cpu_s']:.2f}",
                          f"{r['host_cpu_s'] + r['worker_cpu_s']:.2f}",
                          f"{r['tasks_per_s']:.1f}", f"{r['tasks_per_s_cpu']:.1f}",
                          f"{r['tasks_per_s_cpu_with_worker']:.1f}",
                          f"{r['accept_rate']:.2f}", f"{r['mean_tool_calls']:.1f}",
                          f"{r['tasks_per_s_cpu_with_worker'] / base:.2f}x")  # fmt: skip
    return table


def _rates(r: dict[str, Any]) -> dict[str, Any]:
    keys = ("tasks_per_s", "tasks_per_s_cpu", "tasks_per_s_cpu_with_worker", "wall_s",
            "host_cpu_s", "worker_cpu_s", "accept_rate")  # fmt: skip
    return {k: r[k] for k in keys}


def _compare_main(args: argparse.Namespace) -> dict[str, Any]:
    presets = args.presets.split(",")
    repeats = max(args.repeats, MIN_REPEATS)
    res = compare(args.compare, presets, args.n, repeats)
    Console(width=190).print(_compare_table(args.compare, res, args.n, repeats))
    for preset, both in res.items():
        p = both["paired"]
        print(
            f"{preset}: per-seed speed-up (host + worker CPU) {p['speedup_cpu_with_worker']}, "
            f"median {p['median_speedup_cpu_with_worker']}x (host CPU alone "
            f"{p['median_speedup_host_cpu']}x); same tasks per seed: {p['same_tasks']}"
        )
    head = res.get(args.difficulty) or next(iter(res.values()))
    after, before = head["after"], head["before"]
    return {
        "env": "bookstore", "difficulty": args.difficulty, **_rates(after),
        "goal_tasks_per_s_cpu_with_worker": 60,
        "compare": {"ref": args.compare, "before": _rates(before),
                    "speedup_cpu_with_worker": round(after["tasks_per_s_cpu_with_worker"]
                                                     / (before["tasks_per_s_cpu_with_worker"]
                                                        or 1.0), 3),
                    "speedup_cpu": round(after["tasks_per_s_cpu"]
                                         / (before["tasks_per_s_cpu"] or 1.0), 3),
                    "per_difficulty": res},
    }  # fmt: skip


def _throughput_main(args: argparse.Namespace) -> dict[str, Any]:
    env: Any = Environment.load(example_path("bookstore"))
    generate_tasks(env, 3, "easy", seed=10_000)  # warm caches and imports
    results: dict[str, dict[str, Any]] = {}
    for preset in args.presets.split(","):
        runs = [measure(env, preset, args.n, seed) for seed in range(args.repeats)]
        results[preset] = summarise(runs)
    table = Table(
        title=f"Task synthesis on bookstore ({args.n} tasks x {args.repeats} seeds, medians)"
    )
    for col in ("difficulty", "tasks/s (wall)", "tasks/s (CPU)", "tasks/s (CPU + worker)",
                "accept rate", "calls/task", "runtime floor tasks/s (CPU)", "top rejections",
                "load"):  # fmt: skip
        table.add_column(col)
    for preset, res in results.items():
        top = ", ".join(f"{k} {v}" for k, v in list(res["rejected"].items())[:3])
        table.add_row(preset, f"{res['tasks_per_s']:.1f}", f"{res['tasks_per_s_cpu']:.1f}",
                      f"{res['tasks_per_s_cpu_with_worker']:.1f}",
                      f"{res['accept_rate']:.2f}", f"{res['mean_tool_calls']:.1f}",
                      f"{res['floor_tasks_per_s_cpu']:.0f}", top,
                      f"{res['load_average']:.1f}")  # fmt: skip
    Console(width=170).print(table)
    print("CPU = this process; CPU + worker = also the sandbox worker's CPU", file=sys.stderr)
    head = results.get(args.difficulty) or next(iter(results.values()))
    return {
        "env": "bookstore", "difficulty": args.difficulty, **_rates(head),
        "goal_tasks_per_s_cpu_with_worker": 60, "per_difficulty": results,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=100, help="tasks per run")
    parser.add_argument("--repeats", type=int, default=MIN_REPEATS,
                        help="runs (seeds) per difficulty (--compare: at least 5)")  # fmt: skip
    parser.add_argument("--difficulty", default="medium", help="the headline difficulty")
    parser.add_argument("--presets", default="easy,medium,hard")
    parser.add_argument("--compare", metavar="REF", help="also measure git REF's code")
    parser.add_argument(
        "--runs",
        nargs="+",
        type=Path,
        default=[],
        metavar="RUN_DIR",
        help="forge run directories: LLM tokens per accepted task",
    )
    parser.add_argument("--only-runs", action="store_true", help="skip the throughput runs")
    hidden = argparse.SUPPRESS
    parser.add_argument("--worker", nargs=3, metavar=("PRESET", "N", "SEED"), help=hidden)
    args = parser.parse_args()
    if args.worker:
        _one_run(args.worker[0], int(args.worker[1]), int(args.worker[2]))
        return
    load = Load()
    out: dict[str, Any] = {}
    if not args.only_runs:
        out = _compare_main(args) if args.compare else _throughput_main(args)
    if args.runs:
        figures = [run_dir_figures(d) for d in args.runs if (d / "run.json").is_file()]
        Console(width=170).print(_runs_table(figures))
        out["runs"] = figures
    finish(out, load)


if __name__ == "__main__":
    main()
