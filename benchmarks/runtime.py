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
setup per environment. Method (``bench_method``): the contenders run interleaved in this
process, medians over ``--repeats`` (>= 5) runs, CPU time beside wall time (the contained
figures add the worker's CPU from ``/proc``, so those are timed in blocks of calls), speed-ups
from CPU time, the load average printed at start and end.

    python benchmarks/runtime.py            # prints a table, then one JSON line
    python benchmarks/runtime.py --repeats 9 --block 40 --reads 1000
    python benchmarks/runtime.py --compare /work/main   # this checkout against another one

``--compare CHECKOUT`` measures this checkout's autoforge against another one's (its ``src``)
in the same run: each in a long-lived process of its own (this script with ``--serve``), the
same blocks of calls alternating between the two, so both see the same load; the tool code
and the scenario are this checkout's for both.
"""

from __future__ import annotations

import argparse
import copy
import functools
import gc
import hashlib
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_method import Load, Series, finish, interleaved, process_cpu_s, timed
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


#: per baseline tool, the parameter names its function declares
_DECLARED: dict[str, frozenset[str]] = {}


def plain_tools(source: str) -> dict[str, Callable[..., Any]]:
    """The same tool code as plain functions (no sandbox), for the baseline."""
    namespace: dict[str, Any] = {"ToolError": ToolError}
    exec(compile(source, "retail_tools.py", "exec"), namespace)
    fns = {name: namespace[name] for name in TOOLS}
    _DECLARED.update({n: frozenset(inspect.signature(f).parameters) for n, f in fns.items()})
    return fns


try:  # --compare runs this script on older checkouts too, which have no legacy names
    from autoforge.env.calls.signatures import legacy_param_name
except ImportError:
    legacy_param_name = python_param_name


@functools.cache
def _arg_name(tool: str, name: str) -> str:
    """The Python name of documented parameter ``name`` as ``tool``'s function declares it: a
    stored tools.py may use the names of earlier code, as the runtime's binding allows."""
    current = python_param_name(name)
    return current if current in _DECLARED[tool] else legacy_param_name(name)


def plain_call(fns: dict[str, Callable[..., Any]], state: Any, tool: str, args: Any) -> str:
    """One baseline call: the function plus JSON of its result."""
    kwargs = {_arg_name(tool, k): v for k, v in args.items()}
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


def median_us(samples: list[float]) -> float:
    """The median in microseconds."""
    return statistics.median(samples) * 1e6


def _worker_cpu(ep: Any) -> Callable[[], float]:
    """CPU seconds used so far by the sandbox worker serving ``ep``."""

    def cpu() -> float:
        runtime = getattr(ep, "_runtime", None)
        worker = getattr(runtime, "worker", None)
        return 0.0 if worker is None else process_cpu_s(worker.pid)

    return cpu


def _per(series: Series, n: int, scale: float) -> dict[str, float]:
    """Median wall and CPU of one item of a block of ``n``, times ``scale`` (1e3: ms)."""
    return {"wall": series.wall_s / n * scale, "cpu": series.cpu_s / n * scale}


@dataclass
class Setup:
    """What every measurement runs on: the data, the scenario, the plain functions, and one
    episode of each execution mode, with the one-time setup cost of each."""

    retail: Path
    db: Any
    calls: list[Call]
    fns: Any
    env: Environment
    inline: Any
    ep: Any  # a ContainedEpisode (call_many)
    setup_s: float
    setup_contained_s: float


def build_setup() -> Setup:
    """Load tau-bench retail and build the inline and the contained episode, timing each."""
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
    ep: Any = env.episode()
    ep.state_hash()
    ep.call("get_order_details", calls[1][1])
    setup_contained_s = time.perf_counter() - start
    return Setup(retail, db, calls, fns, env, inline, ep, setup_s, setup_contained_s)


def check_agreement(s: Setup) -> None:
    """Both execution modes return what the plain functions return and end in their state."""
    _, naive_contents, naive_state = naive_episode(s.db, s.fns, s.calls)
    for episode in (s.inline, s.ep):
        _, contents = runtime_episode(episode, s.calls)
        assert contents == naive_contents, "runtime and plain functions disagree"
        assert episode.snapshot() == naive_state, "runtime state differs from the baseline's"
        assert episode.diff(), "the scenario changes nothing"


def measure_episodes(s: Setup, repeats: int, k: int) -> dict[str, dict[str, float]]:
    """Per episode (ms), wall and CPU: the naive baseline, inline and contained (in blocks of
    ``k`` episodes, so the worker's CPU can be read)."""
    episodes = interleaved(
        {
            "naive": lambda: naive_episode(s.db, s.fns, s.calls),
            "inline": lambda: [runtime_episode(s.inline, s.calls) for _ in range(k)],
            "contained": lambda: [runtime_episode(s.ep, s.calls) for _ in range(k)],
        },
        repeats,
        extra_cpu={"contained": _worker_cpu(s.ep)},
    )
    return {
        "naive": _per(episodes["naive"], 1, 1e3),
        "inline": _per(episodes["inline"], k, 1e3),
        "contained": _per(episodes["contained"], k, 1e3),
    }


def measure_reads(s: Setup, state: Any, repeats: int, n: int) -> dict[str, dict[str, float]]:
    """Per read call (us), wall and CPU: plain function, inline, contained, and batched."""
    read_args = s.calls[1][1]
    batch = [("get_order_details", read_args)] * n
    worker = _worker_cpu(s.ep)
    reads = interleaved(
        {
            "plain": lambda: [
                plain_call(s.fns, state, "get_order_details", read_args) for _ in range(n)
            ],
            "inline": lambda: [s.inline.call("get_order_details", read_args) for _ in range(n)],
            "contained": lambda: [s.ep.call("get_order_details", read_args) for _ in range(n)],
            "batched": lambda: s.ep.call_many(batch),
        },
        repeats,
        extra_cpu={"contained": worker, "batched": worker},
    )
    return {name: _per(series, n, 1e6) for name, series in reads.items()}


def measure_scans(s: Setup, state: Any, repeats: int) -> dict[str, Series]:
    """One full-scan call (the copy-on-write worst case): plain function and inline."""
    user = s.db["users"][s.calls[0][1]["user_id"]]
    scan_args = {
        "first_name": user["name"]["first_name"],
        "last_name": user["name"]["last_name"],
        "zip": user["address"]["zip"],
    }
    return interleaved(
        {
            "plain": lambda: plain_call(s.fns, state, "find_user_id_by_name_zip", scan_args),
            "inline": lambda: s.inline.call("find_user_id_by_name_zip", scan_args),
        },
        repeats,
    )


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Run every measurement (contenders interleaved, medians); the headline figures."""
    s = build_setup()
    check_agreement(s)
    gc.collect()
    episodes = measure_episodes(s, args.repeats, args.block)
    s.inline.reset()
    s.ep.reset()
    state = copy.deepcopy(s.db)
    read = measure_reads(s, state, args.repeats, args.reads)
    scans = measure_scans(s, state, args.repeats)
    return {
        **read_figures(read),
        **episode_figures(episodes),
        "scan_call_us": round(scans["inline"].wall_s * 1e6, 1),
        "scan_call_plain_us": round(scans["plain"].wall_s * 1e6, 1),
        "setup_ms": round(s.setup_s * 1e3, 1),
        "setup_contained_ms": round(s.setup_contained_s * 1e3, 1),
        "boundary": s.env.boundary.level,
        "repeats": args.repeats,
        "cpus": os.cpu_count() or 0,
        "state_bytes": (s.retail / "db.json").stat().st_size,
    }


def read_figures(read: dict[str, dict[str, float]]) -> dict[str, float]:
    """The read-call figures of the JSON line (us, and ratios to inline)."""
    return {
        "read_call_us": round(read["inline"]["wall"], 1),
        "read_call_cpu_us": round(read["inline"]["cpu"], 1),
        "contained_read_call_us": round(read["contained"]["wall"], 1),
        "contained_read_call_cpu_us": round(read["contained"]["cpu"], 1),
        "contained_batched_read_call_us": round(read["batched"]["wall"], 1),
        "contained_batched_read_call_cpu_us": round(read["batched"]["cpu"], 1),
        "contained_vs_inline_wall": round(read["contained"]["wall"] / read["inline"]["wall"], 2),
        "contained_vs_inline_cpu": round(read["contained"]["cpu"] / read["inline"]["cpu"], 2),
        "batched_vs_inline_wall": round(read["batched"]["wall"] / read["inline"]["wall"], 2),
        "read_call_plain_us": round(read["plain"]["wall"], 1),
        "read_call_plain_cpu_us": round(read["plain"]["cpu"], 1),
    }


def episode_figures(episodes: dict[str, dict[str, float]]) -> dict[str, float]:
    """The episode figures of the JSON line (ms, and speed-ups over the naive baseline)."""
    naive_ep, inline_ep, contained_ep = (
        episodes["naive"], episodes["inline"], episodes["contained"]
    )  # fmt: skip
    return {
        "speedup": round(naive_ep["cpu"] / inline_ep["cpu"], 1),
        "speedup_contained": round(naive_ep["cpu"] / contained_ep["cpu"], 1),
        "speedup_wall": round(naive_ep["wall"] / inline_ep["wall"], 1),
        "speedup_contained_wall": round(naive_ep["wall"] / contained_ep["wall"], 1),
        "episode_ms": round(inline_ep["wall"], 3),
        "episode_cpu_ms": round(inline_ep["cpu"], 3),
        "contained_episode_ms": round(contained_ep["wall"], 3),
        "contained_episode_cpu_ms": round(contained_ep["cpu"], 3),
        "naive_episode_ms": round(naive_ep["wall"], 2),
        "naive_episode_cpu_ms": round(naive_ep["cpu"], 2),
    }


def report(figures: dict[str, Any], load: Load) -> None:
    """The table (stdout), the load, then the JSON line."""
    table = Table(title="runtime: one episode on tau-bench retail (medians)")
    table.add_column("measure")
    table.add_column("contained (default)", justify="right")
    table.add_column("inline (trusted)", justify="right")
    table.add_column("baseline", justify="right")
    table.add_row(
        "episode (reset + 10 calls + hash), wall / CPU",
        f"{figures['contained_episode_ms']:.3f} / {figures['contained_episode_cpu_ms']:.3f} ms",
        f"{figures['episode_ms']:.3f} / {figures['episode_cpu_ms']:.3f} ms",
        f"{figures['naive_episode_ms']:.2f} / {figures['naive_episode_cpu_ms']:.2f} ms "
        "(deepcopy + full hash)",
    )
    table.add_row(
        "episode speed-up vs baseline, by CPU (wall)",
        f"{figures['speedup_contained']:.0f}x ({figures['speedup_contained_wall']:.0f}x)",
        f"{figures['speedup']:.0f}x ({figures['speedup_wall']:.0f}x)",
        "1x",
    )
    table.add_row(
        "read call, wall / CPU (host + worker)",
        f"{figures['contained_read_call_us']:.1f} / {figures['contained_read_call_cpu_us']:.1f} us",
        f"{figures['read_call_us']:.1f} / {figures['read_call_cpu_us']:.1f} us",
        f"{figures['read_call_plain_us']:.1f} / {figures['read_call_plain_cpu_us']:.1f} us "
        "(plain function)",
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
    print(f"boundary: {figures['boundary']}; medians of {figures['repeats']} interleaved runs")
    finish(figures, load)


BLOCKS = ("naive", "episode", "contained_episode", "read", "contained_read", "batched_read")


def serve_blocks(args: argparse.Namespace) -> None:
    """``--serve``: run the block named on each stdin line; print its wall and CPU seconds."""
    retail = bench_root() / "tau-bench" / "retail"
    db = _load(retail / "db.json")
    source = (HERE / "retail_env" / "tools.py").read_text(encoding="utf-8")
    calls, fns, spec = scenario(db), plain_tools(source), build_spec(retail)
    inline = Environment.from_parts(spec, source, db, trusted=True).episode()
    ep: Any = Environment.from_parts(spec, source, db).episode()  # contained: call_many
    read = calls[1]
    k, n = args.block, args.reads
    blocks: dict[str, tuple[Callable[[], Any], int]] = {
        "naive": (lambda: naive_episode(db, fns, calls), 1),
        "episode": (lambda: [runtime_episode(inline, calls) for _ in range(k)], k),
        "contained_episode": (lambda: [runtime_episode(ep, calls) for _ in range(k)], k),
        "read": (lambda: [inline.call(*read) for _ in range(n)], n),
        "contained_read": (lambda: [ep.call(*read) for _ in range(n)], n),
        "batched_read": (lambda: ep.call_many([read] * n), n),
    }
    for episode in (inline, ep):
        runtime_episode(episode, calls)
    worker = _worker_cpu(ep)
    print("ready", flush=True)
    for line in sys.stdin:
        fn, count = blocks[line.strip()]
        extra = worker if line.startswith(("contained", "batched")) else None
        sample = timed(fn, extra)
        print(json.dumps([sample.wall_s / count, sample.cpu_s / count]), flush=True)


def compare(args: argparse.Namespace) -> dict[str, Any]:
    """This checkout and ``args.compare``, block by block in alternation; medians."""
    checkouts = {"this": HERE.parent, "other": Path(args.compare).resolve()}
    procs = {}
    for name, root in checkouts.items():
        cmd = [sys.executable, str(Path(__file__).resolve()), "--serve"]
        cmd += ["--block", str(args.block), "--reads", str(args.reads)]
        env = dict(os.environ, PYTHONPATH=str(root / "src"))
        procs[name] = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {
        name: {b: [] for b in BLOCKS} for name in checkouts
    }
    try:
        for proc in procs.values():
            if proc.stdout is None or proc.stdout.readline().strip() != "ready":
                sys.exit("a --serve process did not start (see its error above)")
        for _ in range(args.repeats):
            for block in BLOCKS:
                for name, proc in procs.items():
                    assert proc.stdin is not None and proc.stdout is not None
                    proc.stdin.write(block + "\n")
                    proc.stdin.flush()
                    samples[name][block].append(tuple(json.loads(proc.stdout.readline())))
    finally:
        for proc in procs.values():
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait()
    out: dict[str, Any] = {"checkouts": {k: str(v) for k, v in checkouts.items()}}
    for name in checkouts:
        med = {
            b: {
                "wall": statistics.median(w for w, _ in xs),
                "cpu": statistics.median(c for _, c in xs),
            }
            for b, xs in samples[name].items()
        }
        out[name] = {
            "read_call_cpu_us": round(med["read"]["cpu"] * 1e6, 1),
            "read_call_us": round(med["read"]["wall"] * 1e6, 1),
            "contained_read_call_cpu_us": round(med["contained_read"]["cpu"] * 1e6, 1),
            "contained_batched_read_call_cpu_us": round(med["batched_read"]["cpu"] * 1e6, 1),
            "episode_cpu_ms": round(med["episode"]["cpu"] * 1e3, 3),
            "contained_episode_cpu_ms": round(med["contained_episode"]["cpu"] * 1e3, 3),
            "naive_episode_cpu_ms": round(med["naive"]["cpu"] * 1e3, 2),
            "speedup": round(med["naive"]["cpu"] / med["episode"]["cpu"], 1),
            "speedup_contained": round(med["naive"]["cpu"] / med["contained_episode"]["cpu"], 1),
        }
    return out


def report_compare(figures: dict[str, Any], load: Load) -> None:
    """The comparison table (CPU time, medians), then the JSON line."""
    table = Table(title="runtime: this checkout vs another, interleaved (CPU medians)")
    table.add_column("measure")
    table.add_column(f"this ({figures['checkouts']['this']})", justify="right")
    table.add_column(f"other ({figures['checkouts']['other']})", justify="right")
    for key in figures["this"]:
        table.add_row(key, str(figures["this"][key]), str(figures["other"][key]))
    Console().print(table)
    finish(figures, load)


def main(argv: list[str] | None = None) -> None:
    """Parse options, measure, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="interleaved runs (>= 5)")
    parser.add_argument("--block", type=int, default=20, help="runtime episodes per run")
    parser.add_argument("--reads", type=int, default=500, help="read calls per run")
    parser.add_argument("--compare", metavar="CHECKOUT", help="another checkout to measure")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    retail = bench_root() / "tau-bench" / "retail"
    if not (retail / "db.json").is_file():
        sys.exit(f"benchmark data not found at {retail} (set AUTOFORGE_BENCH_ROOT)")
    if args.serve:
        serve_blocks(args)
        return
    if args.repeats < 5:
        sys.exit("the method asks for medians over at least 5 repetitions (--repeats)")
    load = Load()
    print("\n".join(load.lines()))
    if args.compare:
        report_compare(compare(args), load)
    else:
        report(measure(args), load)


if __name__ == "__main__":
    main()
