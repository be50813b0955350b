"""Load test of ``autoforge serve`` on loopback: latency and throughput of tool calls.

Starts the HTTP server in a subprocess (uvicorn, the bundled bookstore environment), then runs
a bounded closed-loop load: ``--clients`` concurrent clients (each its own keep-alive connection
and its own episode) each make ``--calls`` calls of a read tool (``get_book``), then as many of
a write tool (``update_shipping_address``, which changes the state every time). The client is a
raw asyncio HTTP/1.1 client (:mod:`lab.rawhttp`), so the figures are the server's.

Baselines measured in the same run:

* ``direct``: the same calls straight on a runtime episode in this process (no HTTP): the floor;
* ``sequential``: one client, one call at a time (per-request cost without queueing);
* ``fast path, two writes``: uvicorn's stock protocol (head and body in two writes), to show
  what :mod:`autoforge.serve.server`'s coalescing buys;
* ``plain FastAPI route``: the tool-call fast path turned off too (every request through
  FastAPI's router), to show what the fast path buys;
* ``no guards, calls on the loop``: the server before the hardening of issue 14 (no request
  guard, tool calls run on the event loop), and ``no guards`` (calls still in worker threads),
  to show what the guard and the thread hop cost per request;
* ``json_vs_orjson``: encoding a typical observation with the stdlib vs orjson.

Prints a table and, last, one JSON line (medians over ``--repeats`` runs of the load). Loopback
only. Run: ``python benchmarks/serve.py`` (about 20-40 s).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
from bench_method import MIN_REPEATS, Load, finish
from lab.rawhttp import RawConnection
from rich.console import Console
from rich.table import Table

from autoforge.env import Environment
from autoforge.examples import example_path

HOST = "127.0.0.1"
READ = ("get_book", {"book_id": "B-204"})
_LAUNCH = """
import sys
from autoforge.serve.app import create_app
from autoforge.serve.loader import load_service
from autoforge.serve.server import run
from autoforge.serve.service import Limits
port, (fast, coalesce, guard, offload) = int(sys.argv[1]), [a == "1" for a in sys.argv[2:6]]
service = load_service("bookstore", limits=Limits(max_sessions=4096))
app = create_app(service, fast_path=fast, guard=guard, offload=offload)
run(app, "127.0.0.1", port, **({} if coalesce else {"http": "httptools"}))
"""
#: name -> (tool-call fast path, coalesced head+body writes, request guard, calls in threads)
VARIANTS = {
    "served (fast path, one write)": (True, True, True, True),
    "fast path, two writes": (True, False, True, True),
    "plain FastAPI route, two writes": (False, False, True, True),
    "no guards": (True, True, False, True),
    "no guards, calls on the loop (before)": (True, True, False, False),
}


def write_call(i: int) -> tuple[str, dict[str, Any]]:
    """The write tool with an address that differs per call (every call changes the state)."""
    address = {"street": f"{i} Quay St", "city": "Cork", "postal_code": "T12", "country": "IE"}
    return "update_shipping_address", {"order_id": "ORD-10", "address": address}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


class Server:
    """The server subprocess in one of the :data:`VARIANTS`."""

    def __init__(self, *options: bool) -> None:
        self.port = free_port()
        flags = [str(int(option)) for option in options]
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _LAUNCH, str(self.port), *flags], stdout=subprocess.DEVNULL
        )

    async def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                conn = await RawConnection.open(HOST, self.port)
                status, _ = await conn.request("GET", "/health")
                await conn.close()
                if status == 200:
                    return
            except OSError:
                await asyncio.sleep(0.1)
        raise RuntimeError("server did not start")

    def cpu_s(self) -> float:
        """CPU seconds (user + system) the server process used so far (Linux /proc)."""
        stat = Path(f"/proc/{self.proc.pid}/stat").read_text()
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def client(port: int, calls: int, warmup: int) -> tuple[list[float], list[float]]:
    """One client: open an episode, warm up, then time ``calls`` reads and ``calls`` writes."""
    conn = await RawConnection.open(HOST, port)
    status, start = await conn.json("POST", "/episodes", {})
    assert status == 201, start
    base = f"/episodes/{start['episode_id']}/tools/"
    read_body = orjson.dumps(READ[1])
    for _ in range(warmup):
        await conn.request("POST", base + READ[0], read_body)
    reads, writes = [], []
    for _ in range(calls):
        t = time.perf_counter()
        status, body = await conn.request("POST", base + READ[0], read_body)
        reads.append(time.perf_counter() - t)
        assert status == 200, body
    for i in range(calls):
        name, args = write_call(i)
        payload = orjson.dumps(args)
        t = time.perf_counter()
        status, body = await conn.request("POST", base + name, payload)
        writes.append(time.perf_counter() - t)
        assert status == 200 and orjson.loads(body)["ok"], body
    await conn.close()
    return reads, writes


async def load(port: int, clients: int, calls: int, warmup: int) -> dict[str, float]:
    """All clients at once; latency percentiles (ms) and calls per second."""
    started = time.perf_counter()
    results = await asyncio.gather(*(client(port, calls, warmup) for _ in range(clients)))
    elapsed = time.perf_counter() - started
    reads = [x for r, _ in results for x in r]
    writes = [x for _, w in results for x in w]
    total = clients * (2 * calls + warmup + 1)
    return {
        "read_p50_ms": percentile(reads, 0.5) * 1e3,
        "read_p99_ms": percentile(reads, 0.99) * 1e3,
        "write_p50_ms": percentile(writes, 0.5) * 1e3,
        "write_p99_ms": percentile(writes, 0.99) * 1e3,
        "calls_per_s": total / elapsed,
    }


def direct(calls: int) -> dict[str, float]:
    """The floor: the same calls on an in-process runtime episode (microseconds)."""
    env = Environment.load(example_path("bookstore"))
    episode = env.episode()

    def timed(fn: Callable[[int], Any]) -> list[float]:
        out = []
        for i in range(calls):
            t = time.perf_counter()
            fn(i)
            out.append(time.perf_counter() - t)
        return out

    reads = timed(lambda i: episode.call(*READ))
    writes = timed(lambda i: episode.call(*write_call(i)))
    return {
        "read_p50_us": percentile(reads, 0.5) * 1e6,
        "write_p50_us": percentile(writes, 0.5) * 1e6,
    }


#: in-process variants: name -> (request guard, calls in worker threads)
ASGI_VARIANTS = {
    "hardened (guard + thread)": (True, True),
    "no guard (thread only)": (False, True),
    "before (no guard, on the loop)": (False, False),
}


def asgi_overhead(n: int, repeats: int) -> dict[str, dict[str, float]]:
    """Wall and CPU microseconds per read call through the whole ASGI app, in process (no
    sockets, so no network noise): what the guard and the thread hop add to a request."""
    from autoforge.serve.app import create_app
    from autoforge.serve.loader import load_service

    service = load_service("bookstore")
    apps = {
        name: create_app(service, guard=guard, offload=offload)
        for name, (guard, offload) in ASGI_VARIANTS.items()
    }
    episode = service.open_episode()["episode_id"]
    body = orjson.dumps(READ[1])
    scope = {
        "type": "http", "method": "POST", "path": f"/episodes/{episode}/tools/{READ[0]}",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())],
        "scheme": "http", "query_string": b"", "http_version": "1.1", "root_path": "",
        "server": (HOST, 8000), "client": (HOST, 50000),
    }  # fmt: skip

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        assert message.get("status", 200) == 200, message

    async def timed(app: Any) -> tuple[float, float]:
        for _ in range(200):  # warm-up (and builds the middleware stack)
            await app(dict(scope), receive, send)
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(n):
            await app(dict(scope), receive, send)
        return (time.perf_counter() - wall) / n * 1e6, (time.process_time() - cpu) / n * 1e6

    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in apps}
    for repeat in range(repeats):  # interleaved, so background load hits all variants alike
        names = list(apps)
        for name in names[repeat % len(names) :] + names[: repeat % len(names)]:
            samples[name].append(asyncio.run(timed(apps[name])))
    return {
        name: {
            "wall_us": statistics.median(w for w, _ in runs),
            "cpu_us": statistics.median(c for _, c in runs),
        }
        for name, runs in samples.items()
    }


def encoders(n: int = 20000) -> dict[str, float]:
    """Microseconds to encode one typical observation with json vs orjson."""
    env = Environment.load(example_path("bookstore"))
    obs = env.episode().call(*READ)
    payload = {"ok": obs.ok, "content": obs.content, "error_kind": obs.error_kind}
    out = {}
    for name, dump in (
        ("json", lambda: json.dumps(payload).encode()),
        ("orjson", lambda: orjson.dumps(payload)),
    ):
        t = time.perf_counter()
        for _ in range(n):
            dump()
        out[f"{name}_us"] = (time.perf_counter() - t) / n * 1e6
    return out


async def measure_all(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    """Every variant's server up at once; the load runs interleaved (variant order rotated each
    repeat) so background load on the machine hits all variants alike; medians per variant."""
    servers = {name: Server(*flags) for name, flags in VARIANTS.items()}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in servers}
    try:
        for server in servers.values():
            await server.wait_ready()
        names = list(servers)
        for repeat in range(args.repeats):
            order = names[repeat % len(names) :] + names[: repeat % len(names)]
            for name in order:
                port = servers[name].port
                cpu = servers[name].cpu_s()
                run = await load(port, args.clients, args.calls, 20)
                calls = args.clients * (2 * args.calls + 21)
                run["server_cpu_us_per_call"] = (servers[name].cpu_s() - cpu) / calls * 1e6
                seq = await load(port, 1, args.calls * 3, 20)
                run["seq_read_p50_ms"] = seq["read_p50_ms"]
                runs[name].append(run)
    finally:
        for server in servers.values():
            server.stop()
    return {
        name: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for name, rs in runs.items()
    }


def _print_tables(
    console: Console,
    args: argparse.Namespace,
    results: dict[str, dict[str, float]],
    floor: dict[str, float],
    enc: dict[str, float],
    inproc: dict[str, dict[str, float]],
) -> None:
    """The latency table over HTTP (the direct call as the floor), then the in-process one."""
    table = Table(title=f"autoforge serve, {args.clients} clients x {args.calls} calls per tool "
                  f"(median of {args.repeats} runs; {os.cpu_count()} CPUs)")  # fmt: skip
    table.add_column("path")
    cols = ("read p50", "read p99", "write p50", "write p99", "calls/s", "1-client p50", "CPU/call")
    for col in cols:
        table.add_column(col, justify="right")
    for name, m in results.items():
        table.add_row(
            name,
            *(
                f"{m[k]:.2f} ms"
                for k in ("read_p50_ms", "read_p99_ms", "write_p50_ms", "write_p99_ms")
            ),
            f"{m['calls_per_s']:.0f}",
            f"{m['seq_read_p50_ms']:.2f} ms",
            f"{m['server_cpu_us_per_call']:.0f} us",
        )
    read_floor = f"{floor['read_p50_us'] / 1e3:.3f} ms"
    write_floor = f"{floor['write_p50_us'] / 1e3:.3f} ms"
    table.add_row("direct (no HTTP)", read_floor, "", write_floor, "", "", "", "")
    console.print(table)
    console.print(
        f"encode one observation: json {enc['json_us']:.2f} us, orjson {enc['orjson_us']:.2f} us"
    )
    inner = Table(title="one read call through the ASGI app in process (no sockets), median")
    for col in ("variant", "wall/call", "CPU/call"):
        inner.add_column(col, justify="right" if col != "variant" else "left")
    for name, m in inproc.items():
        inner.add_row(name, f"{m['wall_us']:.0f} us", f"{m['cpu_us']:.0f} us")
    console.print(inner)


def _headline(
    args: argparse.Namespace,
    results: dict[str, dict[str, float]],
    floor: dict[str, float],
    enc: dict[str, float],
    inproc: dict[str, dict[str, float]],
) -> dict[str, Any]:
    """The last line's figures: the served path, beside the variants it is compared with."""
    fast, two, plain, unguarded, before = (results[name] for name in VARIANTS)
    return {
        "clients": args.clients,
        "read_p50_ms": round(fast["read_p50_ms"], 3),
        "read_p99_ms": round(fast["read_p99_ms"], 3),
        "write_p50_ms": round(fast["write_p50_ms"], 3),
        "write_p99_ms": round(fast["write_p99_ms"], 3),
        "calls_per_s": round(fast["calls_per_s"]),
        "seq_read_p50_ms": round(fast["seq_read_p50_ms"], 3),
        "server_cpu_us_per_call": round(fast["server_cpu_us_per_call"], 1),
        "two_writes_read_p99_ms": round(two["read_p99_ms"], 3),
        "two_writes_calls_per_s": round(two["calls_per_s"]),
        "plain_read_p99_ms": round(plain["read_p99_ms"], 3),
        "plain_calls_per_s": round(plain["calls_per_s"]),
        "unguarded_seq_read_p50_ms": round(unguarded["seq_read_p50_ms"], 3),
        "before_seq_read_p50_ms": round(before["seq_read_p50_ms"], 3),
        "before_read_p99_ms": round(before["read_p99_ms"], 3),
        "before_calls_per_s": round(before["calls_per_s"]),
        "unguarded_server_cpu_us_per_call": round(unguarded["server_cpu_us_per_call"], 1),
        "before_server_cpu_us_per_call": round(before["server_cpu_us_per_call"], 1),
        **{
            f"asgi_{key}_{metric}": round(inproc[name][metric], 1)
            for key, name in zip(("hardened", "no_guard", "before"), ASGI_VARIANTS, strict=True)
            for metric in ("wall_us", "cpu_us")
        },
        "direct_read_us": round(floor["read_p50_us"], 1),
        "direct_write_us": round(floor["write_p50_us"], 1),
        "json_encode_us": round(enc["json_us"], 2),
        "orjson_encode_us": round(enc["orjson_us"], 2),
        "goal_p99_ms": 5.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--calls", type=int, default=100, help="per client, per tool")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if args.repeats < MIN_REPEATS:
        parser.error(f"--repeats: the benchmark method asks for at least {MIN_REPEATS}")
    load = Load()
    floor = direct(2000)
    enc = encoders()
    inproc = asgi_overhead(2000, args.repeats)
    results = asyncio.run(measure_all(args))
    _print_tables(Console(), args, results, floor, enc, inproc)
    finish(_headline(args, results, floor, enc, inproc), load)


if __name__ == "__main__":
    main()
