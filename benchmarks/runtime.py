"""Cost of one episode on tau-bench retail (2 MB state): the runtime vs a naive baseline.

One episode = reset + 10 tool calls (reads and writes, tau-bench style) + final state hash.

* runtime: ``ep.reset()``, ``ep.call(...)`` (validation, sandbox time limit, copy-on-write
  state, JSON observation), ``ep.state_hash()``;
* naive baseline (same run, same tool code as plain functions): ``copy.deepcopy`` of the whole
  database on reset, direct calls + ``json.dumps`` of results, ``sha256`` of the full
  canonical JSON at the end.

Both execution modes run in the same process and the same run: the default *contained* mode
(tool code in the sandboxed worker process, state mirrored in the host) and the *inline* mode
of a ``trusted=True`` environment. Also measured: one read call as the caller sees it, wall and
CPU (host + worker, from ``/proc``), the same read in a ``call_many`` batch (one round trip),
the read as a plain function, a full-scan tool (the copy-on-write worst case) and the one-time
setup per environment. Medians are quoted; the load average is printed.

    python benchmarks/runtime.py            # prints a table, then one JSON line
    python benchmarks/runtime.py --episodes 50 --reads 5000
"""

from __future__ import annotations

import argparse
import copy
import gc
import hashlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from autoforge.env import Environment, EnvironmentSpec, python_param_name
from autoforge.env.errors import ToolError
from autoforge.tooldocs.spec import ToolSpec

HERE = Path(__file__).resolve().parent
TOOLS = [
    "get_user_details",
    "get_order_details",
    "get_product_details",
    "find_user_id_by_name_zip",
    "cancel_pending_order",
    "modify_pending_order_address",
    "modify_user_address",
]
Call = tuple[str, dict[str, Any]]


def bench_root() -> Path:
    """``$AUTOFORGE_BENCH_ROOT`` or ``../shared/benchmarks`` beside the checkout."""
    env = os.environ.get("AUTOFORGE_BENCH_ROOT")
    return Path(env) if env else HERE.parent.parent / "shared" / "benchmarks"


def build_spec(retail: Path) -> EnvironmentSpec:
    """The spec of the benchmark env: the documented schemas of :data:`TOOLS`."""
    docs = {
        t.get("function", t)["name"]: t.get("function", t) for t in _load(retail / "tools.json")
    }
    meta = {m["name"]: m for m in _load(retail / "tools_meta.json")}
    tools = [
        ToolSpec(
            name=name,
            description=docs[name]["description"],
            parameters=docs[name]["parameters"],
            access="write" if meta[name]["mutates_state"] else "read",
        )
        for name in TOOLS
    ]
    return EnvironmentSpec(name="tau-retail-bench", tools=tools)


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def scenario(db: dict[str, Any]) -> list[Call]:
    """Ten calls of a support conversation: look-ups, a cancellation, two address changes."""
    pending: dict[str, list[str]] = {}
    for oid, order in db["orders"].items():
        if order["status"] == "pending":
            pending.setdefault(order["user_id"], []).append(oid)
    user_id = next(u for u, orders in pending.items() if len(orders) >= 2)
    first, second = pending[user_id][:2]
    product = db["orders"][first]["items"][0]["product_id"]
    other = next(p for p in db["products"] if p != product)
    address = {
        "address1": "1 Main St",
        "address2": "Apt 2",
        "city": "Austin",
        "state": "TX",
        "country": "USA",
        "zip": "78701",
    }
    return [
        ("get_user_details", {"user_id": user_id}),
        ("get_order_details", {"order_id": first}),
        ("get_order_details", {"order_id": second}),
        ("get_product_details", {"product_id": product}),
        ("get_product_details", {"product_id": other}),
        ("cancel_pending_order", {"order_id": first, "reason": "no longer needed"}),
        ("get_order_details", {"order_id": first}),
        ("modify_pending_order_address", {"order_id": second, **address}),
        ("modify_user_address", {"user_id": user_id, **address}),
        ("get_user_details", {"user_id": user_id}),
    ]


def plain_tools(source: str) -> dict[str, Callable[..., Any]]:
    """The same tool code as plain functions (no sandbox), for the baseline."""
    namespace: dict[str, Any] = {"ToolError": ToolError}
    exec(compile(source, "retail_tools.py", "exec"), namespace)
    return {name: namespace[name] for name in TOOLS}


def plain_call(fns: dict[str, Callable[..., Any]], state: Any, tool: str, args: Any) -> str:
    """One baseline call: the function plus JSON of its result."""
    kwargs = {python_param_name(k): v for k, v in args.items()}
    try:
        result = fns[tool](state, **kwargs)
    except ToolError as exc:
        return f"Error: {exc}"
    return result if isinstance(result, str) else json.dumps(result)


def naive_episode(db: Any, fns: Any, calls: list[Call]) -> tuple[str, list[str], Any]:
    """Deepcopy reset, plain calls, full canonical hash."""
    state = copy.deepcopy(db)
    contents = [plain_call(fns, state, tool, args) for tool, args in calls]
    text = json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest(), contents, state


def runtime_episode(ep: Any, calls: list[Call]) -> tuple[str, list[str]]:
    """Reset, calls through the runtime, canonical hash."""
    ep.reset()
    contents = [ep.call(tool, args).content for tool, args in calls]
    return ep.state_hash(), contents


def timed(fn: Callable[[], Any], repeats: int) -> list[float]:
    """Wall times in seconds of ``repeats`` runs of ``fn``."""
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def median_us(samples: list[float]) -> float:
    """The median in microseconds."""
    return statistics.median(samples) * 1e6


def _worker_cpu_s(ep: Any) -> float:
    """CPU seconds used so far by the sandbox worker serving ``ep`` (0 inline)."""
    runtime = getattr(ep, "_runtime", None)
    worker = getattr(runtime, "worker", None)
    if worker is None:
        return 0.0
    try:
        fields = Path(f"/proc/{worker.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def call_cost(
    ep: Any, tool: str, args: dict[str, Any], n: int, rounds: int = 5
) -> dict[str, float]:
    """Median wall and CPU (host + worker) microseconds per call over ``rounds`` rounds."""
    ep.call(tool, args)  # starts the worker / opens the episode there
    walls, cpus = [], []
    for _ in range(rounds):
        cpu0, worker0, wall0 = time.process_time(), _worker_cpu_s(ep), time.perf_counter()
        for _ in range(n):
            ep.call(tool, args)
        wall = time.perf_counter() - wall0
        cpu = time.process_time() - cpu0 + _worker_cpu_s(ep) - worker0
        walls.append(wall / n)
        cpus.append(cpu / n)
    return {"wall_us": median_us(walls), "cpu_us": median_us(cpus)}


def batch_cost(
    ep: Any, tool: str, args: dict[str, Any], n: int, rounds: int = 5
) -> dict[str, float]:
    """The same, for ``n`` calls sent in one ``call_many`` round trip."""
    calls = [(tool, args)] * n
    walls, cpus = [], []
    for _ in range(rounds):
        cpu0, worker0, wall0 = time.process_time(), _worker_cpu_s(ep), time.perf_counter()
        ep.call_many(calls)
        walls.append((time.perf_counter() - wall0) / n)
        cpus.append((time.process_time() - cpu0 + _worker_cpu_s(ep) - worker0) / n)
    return {"wall_us": median_us(walls), "cpu_us": median_us(cpus)}


def measure(args: argparse.Namespace) -> dict[str, float]:
    """Run every measurement; the headline figures."""
    retail = bench_root() / "tau-bench" / "retail"
    db = _load(retail / "db.json")
    source = (HERE / "retail_env" / "tools.py").read_text(encoding="utf-8")
    calls = scenario(db)
    fns = plain_tools(source)
    spec = build_spec(retail)

    start = time.perf_counter()
    inline_env = Environment.from_parts(spec, source, db, trusted=True)
    inline = inline_env.episode()
    inline.state_hash()  # per-record digests of the base, once per environment
    setup_s = time.perf_counter() - start
    start = time.perf_counter()
    env = Environment.from_parts(spec, source, db)  # the default: contained
    ep = env.episode()
    ep.state_hash()
    ep.call("get_order_details", calls[1][1])
    setup_contained_s = time.perf_counter() - start

    _, naive_contents, naive_state = naive_episode(db, fns, calls)
    for episode in (inline, ep):
        _, contents = runtime_episode(episode, calls)
        assert contents == naive_contents, "runtime and plain functions disagree"
        assert episode.snapshot() == naive_state, "runtime state differs from the baseline's"
        assert episode.diff(), "the scenario changes nothing"

    gc.collect()
    naive = timed(lambda: naive_episode(db, fns, calls), max(5, args.episodes // 4))
    ours = timed(lambda: runtime_episode(inline, calls), args.episodes)
    ours_contained = timed(lambda: runtime_episode(ep, calls), args.episodes)

    read_args = calls[1][1]
    inline.reset()
    ep.reset()
    read_inline = call_cost(inline, "get_order_details", read_args, args.reads // 5)
    read_contained = call_cost(ep, "get_order_details", read_args, args.reads // 5)
    read_batched = batch_cost(ep, "get_order_details", read_args, args.reads // 5)
    state = copy.deepcopy(db)
    read_plain = timed(lambda: plain_call(fns, state, "get_order_details", read_args), args.reads)
    user = db["users"][calls[0][1]["user_id"]]
    scan_args = {
        "first_name": user["name"]["first_name"],
        "last_name": user["name"]["last_name"],
        "zip": user["address"]["zip"],
    }
    scan = timed(lambda: inline.call("find_user_id_by_name_zip", scan_args), 50)
    scan_plain = timed(lambda: plain_call(fns, state, "find_user_id_by_name_zip", scan_args), 50)
    naive_ms = statistics.median(naive) * 1e3
    return {
        "read_call_us": round(read_inline["wall_us"], 1),
        "read_call_cpu_us": round(read_inline["cpu_us"], 1),
        "contained_read_call_us": round(read_contained["wall_us"], 1),
        "contained_read_call_cpu_us": round(read_contained["cpu_us"], 1),
        "contained_batched_read_call_us": round(read_batched["wall_us"], 1),
        "contained_batched_read_call_cpu_us": round(read_batched["cpu_us"], 1),
        "contained_vs_inline_wall": round(read_contained["wall_us"] / read_inline["wall_us"], 2),
        "contained_vs_inline_cpu": round(read_contained["cpu_us"] / read_inline["cpu_us"], 2),
        "batched_vs_inline_wall": round(read_batched["wall_us"] / read_inline["wall_us"], 2),
        "speedup": round(naive_ms / (statistics.median(ours) * 1e3), 1),
        "speedup_contained": round(naive_ms / (statistics.median(ours_contained) * 1e3), 1),
        "episode_ms": round(statistics.median(ours) * 1e3, 3),
        "contained_episode_ms": round(statistics.median(ours_contained) * 1e3, 3),
        "naive_episode_ms": round(naive_ms, 2),
        "read_call_plain_us": round(median_us(read_plain), 1),
        "scan_call_us": round(median_us(scan), 1),
        "scan_call_plain_us": round(median_us(scan_plain), 1),
        "setup_ms": round(setup_s * 1e3, 1),
        "setup_contained_ms": round(setup_contained_s * 1e3, 1),
        "boundary": env.boundary.level,
        "episodes": args.episodes,
        "load_avg_1m": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count() or 0,
        "state_bytes": (retail / "db.json").stat().st_size,
    }


def report(figures: dict[str, Any]) -> None:
    """The table (stdout), then the JSON line."""
    table = Table(title="runtime: one episode on tau-bench retail (medians)")
    table.add_column("measure")
    table.add_column("contained (default)", justify="right")
    table.add_column("inline (trusted)", justify="right")
    table.add_column("baseline", justify="right")
    table.add_row(
        "episode (reset + 10 calls + hash)",
        f"{figures['contained_episode_ms']:.3f} ms ({figures['speedup_contained']:.0f}x)",
        f"{figures['episode_ms']:.3f} ms ({figures['speedup']:.0f}x)",
        f"{figures['naive_episode_ms']:.2f} ms (deepcopy + full hash)",
    )
    table.add_row(
        "read call, wall / CPU (host + worker)",
        f"{figures['contained_read_call_us']:.1f} / {figures['contained_read_call_cpu_us']:.1f} us",
        f"{figures['read_call_us']:.1f} / {figures['read_call_cpu_us']:.1f} us",
        f"{figures['read_call_plain_us']:.1f} us (plain function)",
    )
    table.add_row(
        "read call in a call_many batch, wall / CPU",
        f"{figures['contained_batched_read_call_us']:.1f} / "
        f"{figures['contained_batched_read_call_cpu_us']:.1f} us",
        "",
        "",
    )
    table.add_row(
        "scan call (find_user_id_by_name_zip)",
        "",
        f"{figures['scan_call_us']:.1f} us",
        f"{figures['scan_call_plain_us']:.1f} us",
    )
    table.add_row(
        "setup per environment",
        f"{figures['setup_contained_ms']:.1f} ms",
        f"{figures['setup_ms']:.1f} ms",
        "",
    )
    Console().print(table)
    print(f"boundary: {figures['boundary']}; load average (1 min): {figures['load_avg_1m']}")
    print(json.dumps(figures))


def main(argv: list[str] | None = None) -> None:
    """Parse options, measure, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=60, help="runtime episodes to time")
    parser.add_argument("--reads", type=int, default=3000, help="read calls to time")
    args = parser.parse_args(argv)
    retail = bench_root() / "tau-bench" / "retail"
    if not (retail / "db.json").is_file():
        sys.exit(f"benchmark data not found at {retail} (set AUTOFORGE_BENCH_ROOT)")
    report(measure(args))


if __name__ == "__main__":
    main()
