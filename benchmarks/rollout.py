"""Rollout overhead per turn and scaling to 512 concurrent episodes, with LLM time ~0.

Measurements (medians over repetitions):

1. ``inproc``: the rollout machinery alone (agent, user, episode loop, tool calls, trajectory,
   reward, runner) over an in-process client that answers instantly: milliseconds per LLM call
   ("turn") at 1, 64 and 512 concurrent episodes. This is the runner overhead per turn.
2. ``llm_inproc``: the same through ``autoforge.llm.LLMClient`` with an instant in-process
   transport (no HTTP): what the LLM layer adds per call (request key, parsing, accounting).
3. ``http``: the real path: ``LLMClient`` -> openai SDK -> HTTP -> an instant OpenAI-compatible
   server on loopback (raw asyncio, its own process, canned completions), against a baseline in
   the same run: the thinnest hand-written loop making the same calls with the openai SDK
   directly. Reported: turns/s of both and what autoforge adds per turn.
4. ``scaling``: in-process client with a fixed 200 ms latency per call: turns/s at 1, 64 and 512
   against the ideal ``concurrency / latency`` (efficiency 1.0 = perfectly linear).

Memory per episode: tracemalloc peak of 512 concurrent in-process episodes / 512 (separate,
untimed pass). Goal: < 1 ms overhead per turn and linear scaling to 512.

Run: ``python benchmarks/rollout.py`` (a few minutes on 2 shared cores; ``--quick`` for less).
Real episodes per hour with an embedded model: run ``autoforge eval`` with ``--agent embedded
--user embedded`` (AUTOFORGE_THREADS=1 on a shared box), then ``python benchmarks/rollout.py
--eval-dir OUT`` summarizes its trajectories (also an interrupted run's).
``--faithful-user TASKS.jsonl``: the embedded model as the simulated user against a scripted
oracle agent (:class:`autoforge.rollout.players.AskedOracle`) that asks for each fact a gold call
needs which the user has not given (naming the fact, never its value), performs the task's gold
calls only once the user has asked for them (a write after its request was said, reads once
anything was asked) and answers the questions after the calls: the share of episodes in which
the user conveyed every goal of its checklist
(:mod:`autoforge.rollout.goals`); ``--checklist off`` for the user without the checklist
(``--user-prompt`` picks another prompt version; the default is the product's). Episodes go to
``--out`` as JSONL as they finish, each with its trajectory (model-played material for
``benchmarks/judge_validation.py --played``).

Prints tables and, last, one JSON line with the headline figures.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import hashlib
import json
import multiprocessing as mp
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bench_method import MIN_REPEATS, Load, finish

from autoforge.llm import LLMClient, build_config
from autoforge.llm.types import ChatResponse, TokenUsage
from autoforge.rollout.agent import AgentConfig
from autoforge.rollout.episode import EpisodeConfig
from autoforge.rollout.runner import EnvBinding, RolloutDeps, Runner, episode_fn
from autoforge.rollout.user import USER_PROMPT_VERSION
from autoforge.tasks.model import RequiredOutput, Task, UserScenario

USER_TURNS = 5  # per episode: 5 x (user, agent tool call, agent reply) + the user's stop = 16
HTTP_USER_TURNS = 2  # shorter episodes over HTTP (7 calls) to keep the run short
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Look up an order.",
            "parameters": {
                "type": "object",
                "properties": {"order_id": {"type": "string"}},
                "required": ["order_id"],
            },
        },
    }
]


# --------------------------------------------------------------------------- canned answers


def canned(body: dict[str, Any], turns: int = USER_TURNS) -> dict[str, Any]:
    """The assistant message an instant model returns for a request (stateless): the user
    asks ``turns`` times, the agent looks the order up and answers, then the user stops."""
    messages = body.get("messages", [])
    if body.get("tools"):
        if messages and messages[-1].get("role") == "tool":
            return {"role": "assistant", "content": "Order o1 is open; its total is 1250."}
        n = len(messages)
        call = {"name": "get_order", "arguments": json.dumps({"order_id": "o1"})}
        return {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": f"call_{n}", "type": "function", "function": call}],
        }
    heard = sum(1 for m in messages if m.get("role") == "user")
    if heard > turns:
        return {"role": "assistant", "content": "Thanks, that is all. ###STOP###"}
    return {"role": "assistant", "content": "Please check my order o1."}


def completion(body: dict[str, Any], turns: int = USER_TURNS) -> dict[str, Any]:
    return {
        "id": "c",
        "object": "chat.completion",
        "created": 0,
        "model": "canned",
        "choices": [{"index": 0, "message": canned(body, turns), "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


# --------------------------------------------------------------------------- the server


async def _serve_conn(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, turns: int
) -> None:
    try:
        while True:
            line = await reader.readline()
            if not line:
                break
            length = 0
            while True:
                header = await reader.readline()
                if header in (b"\r\n", b"\n", b""):
                    break
                name, _, value = header.decode("latin-1").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            body = await reader.readexactly(length) if length else b"{}"
            payload = json.dumps(completion(json.loads(body or b"{}"), turns)).encode()
            head = (
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % len(payload)
            )
            writer.write(head + payload)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


def _server_main(port_queue: Any, turns: int) -> None:
    async def main() -> None:
        server = await asyncio.start_server(
            lambda r, w: _serve_conn(r, w, turns), "127.0.0.1", 0, backlog=2048
        )
        port_queue.put(server.sockets[0].getsockname()[1])
        async with server:
            await server.serve_forever()

    asyncio.run(main())


@dataclass
class Server:
    """An instant OpenAI-compatible server in its own process (loopback only)."""

    turns: int = HTTP_USER_TURNS
    proc: Any = None
    port: int = 0

    def __enter__(self) -> Server:
        ctx = mp.get_context("spawn")
        queue = ctx.Queue()
        self.proc = ctx.Process(target=_server_main, args=(queue, self.turns), daemon=True)
        self.proc.start()
        self.port = int(queue.get(timeout=30))
        return self

    def __exit__(self, *exc: object) -> None:
        self.proc.terminate()
        self.proc.join(5)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


# --------------------------------------------------------------------------- rollout side


class InstantClient:
    """An in-process client with the ``LLMClient.chat`` signature: answers at once, or after
    a fixed ``latency`` (an awaited sleep, like a remote model)."""

    def __init__(self, latency: float = 0.0) -> None:
        self.latency = latency

    async def chat(self, messages: list[dict[str, Any]], **kw: Any) -> ChatResponse:
        if self.latency:
            await asyncio.sleep(self.latency)
        body = {"messages": messages, "tools": kw.get("tools")}
        usage = TokenUsage(prompt_tokens=10, completion_tokens=5)
        return ChatResponse(message=canned(body), usage=usage, role=kw.get("role", ""))


class InstantTransport:
    """An ``autoforge.llm`` transport answering in-process (no HTTP): isolates the LLM layer."""

    def cache_label(self, endpoint: Any) -> str:
        return "instant"

    async def complete(self, endpoint: Any, body: dict[str, Any], purpose: str) -> dict[str, Any]:
        return completion(body)

    async def aclose(self) -> None:
        return None


@dataclass
class Obs:
    """An observation (``autoforge.env.ObservationLike``)."""

    ok: bool
    content: str
    error_kind: str | None = None
    result: Any = None


class OrdersEpisode:
    """A minimal environment episode (``autoforge.env.EpisodeLike``): one order, a read tool,
    a canonical hash."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {"orders": {"o1": {"status": "open", "total": 1250}}}

    def call(self, name: str, arguments: Mapping[str, Any], /) -> Obs:
        order = self.state["orders"].get(arguments.get("order_id", ""))
        if name != "get_order" or order is None:
            return Obs(False, "Error: not found", "tool_error")
        return Obs(True, json.dumps(order), result=order)

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(self.state)

    def state_hash(self) -> str:
        return hashlib.sha256(json.dumps(self.state, sort_keys=True).encode()).hexdigest()


def make_tasks(n: int) -> list[Task]:
    gold = OrdersEpisode().state_hash()
    return [
        Task(
            id=f"t{i}",
            env_id="orders",
            scenario=UserScenario(text="Ask about order o1."),
            user_facts={"order_id": "o1"},
            final_state_hash=gold,
            required_outputs=[RequiredOutput(text="1250")],
        )
        for i in range(n)
    ]


async def run_rollouts(client: Any, episodes: int, concurrency: int) -> tuple[float, int, float]:
    """``(seconds, llm calls, success rate)`` of ``episodes`` episodes."""
    config = EpisodeConfig(agent=AgentConfig(tool_mode="native"))
    deps = RolloutDeps(
        client=client, env_factory=lambda t: EnvBinding(OrdersEpisode(), "Be brief.", TOOLS)
    )
    runner = Runner(episode_fn(config, deps), concurrency=concurrency, progress=False)
    started = time.perf_counter()
    trajs = await runner.run(make_tasks(episodes), trials=1)
    seconds = time.perf_counter() - started
    calls = sum(t.tokens["agent"].calls + t.tokens["user"].calls for t in trajs)
    bad = [t for t in trajs if t.is_infra_error]
    if bad:
        raise RuntimeError(f"{len(bad)} episodes failed: {bad[0].infra_error}")
    return seconds, calls, sum(t.success for t in trajs) / len(trajs)


def llm_client(url: str, concurrency: int, transport: Any = None) -> LLMClient:
    """An ``LLMClient`` for every role at ``url`` (native tools, no cache)."""
    endpoint = {
        "base_url": url,
        "model": "canned",
        "api_key": "local",
        "tool_mode": "native",
        "max_concurrency": max(concurrency, 1),
    }
    config = build_config(environ={}, overrides={"default": endpoint, "cache": False})
    return LLMClient(config, cache=False, transport=transport)


async def baseline_episode(sdk: Any) -> int:
    """The thinnest loop making an episode's calls with the openai SDK directly."""
    agent: list[dict[str, Any]] = [{"role": "system", "content": "Be brief."}]
    user: list[dict[str, Any]] = [{"role": "system", "content": "You are a customer."}]
    said, calls = "Hi!", 0
    while True:
        user.append({"role": "user", "content": said})
        r = await sdk.chat.completions.create(model="canned", messages=user)
        calls += 1
        text = r.choices[0].message.content or ""
        if "###STOP###" in text:
            return calls
        user.append({"role": "assistant", "content": text})
        agent.append({"role": "user", "content": text})
        for _ in range(4):
            r = await sdk.chat.completions.create(model="canned", messages=agent, tools=TOOLS)
            calls += 1
            msg = r.choices[0].message
            if not msg.tool_calls:
                said = msg.content or ""
                agent.append({"role": "assistant", "content": said})
                break
            agent.append(msg.to_dict())
            for tc in msg.tool_calls:
                agent.append(
                    {"role": "tool", "tool_call_id": tc.id, "content": '{"status": "open"}'}
                )


async def run_baseline(url: str, episodes: int, concurrency: int) -> tuple[float, int]:
    from openai import AsyncOpenAI

    sdk = AsyncOpenAI(base_url=url, api_key="local", max_retries=0)
    sem = asyncio.Semaphore(concurrency)

    async def one() -> int:
        async with sem:
            return await baseline_episode(sdk)

    started = time.perf_counter()
    calls = sum(await asyncio.gather(*(one() for _ in range(episodes))))
    seconds = time.perf_counter() - started
    await sdk.close()
    return seconds, calls


# --------------------------------------------------------------------------- measurements


def median(values: list[float]) -> float:
    return statistics.median(values)


async def measure_inproc(
    make_client: Any, levels: list[int], reps: int, per_level: dict[int, int]
) -> dict[int, Any]:
    out = {}
    for c in levels:
        per_turn, cpu_per_turn, rate = [], [], []
        for _ in range(reps):
            cpu = time.process_time()
            seconds, calls, success = await run_rollouts(make_client(c), per_level[c], c)
            assert success == 1.0, "canned episodes must succeed"
            per_turn.append(seconds / calls)
            cpu_per_turn.append((time.process_time() - cpu) / calls)
            rate.append(calls / seconds)
        out[c] = {
            "ms_per_turn": median(per_turn) * 1e3,
            "cpu_ms_per_turn": median(cpu_per_turn) * 1e3,
            "turns_per_s": median(rate),
        }
    return out


async def _http_pair(url: str, episodes: int, c: int, ours_first: bool) -> tuple[float, ...]:
    """One baseline run and one autoforge run, in the given order (load drifts between)."""
    results: dict[str, tuple[float, int]] = {}
    for which in ("ours", "base") if ours_first else ("base", "ours"):
        if which == "base":
            results[which] = await run_baseline(url, episodes, c)
        else:
            client = llm_client(url, c)
            seconds, calls, _ = await run_rollouts(client, episodes, c)
            await client.transport.aclose()
            results[which] = (seconds, calls)
    (o_sec, o_calls), (b_sec, b_calls) = results["ours"], results["base"]
    return o_calls / o_sec, b_calls / b_sec, o_sec / o_calls - b_sec / b_calls


async def measure_http(
    url: str, levels: list[int], reps: int, per_level: dict[int, int]
) -> dict[int, Any]:
    """Baseline and autoforge alternate which runs first, to cancel load drift."""
    out = {}
    for c in levels:
        runs = [await _http_pair(url, per_level[c], c, i % 2 == 1) for i in range(max(2, reps))]
        out[c] = {
            "turns_per_s": median([r[0] for r in runs]),
            "baseline_turns_per_s": median([r[1] for r in runs]),
            "added_ms_per_turn": median([r[2] for r in runs]) * 1e3,
        }
    return out


async def measure_scaling(levels: list[int], latency: float) -> dict[int, Any]:
    out = {}
    for c in levels:
        seconds, calls, _ = await run_rollouts(InstantClient(latency), max(2, c), c)
        ideal = c / latency
        out[c] = {"turns_per_s": calls / seconds, "efficiency": (calls / seconds) / ideal}
    return out


async def measure_memory(n: int) -> float:
    tracemalloc.start()
    await run_rollouts(InstantClient(), n, n)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / n


# --------------------------------------------------------------------------- main


def table(title: str, rows: dict[int, dict[str, float]]) -> None:
    cols = list(next(iter(rows.values())))
    print(f"\n{title}")
    print("  concurrency " + " ".join(f"{c:>22}" for c in cols))
    for level, row in rows.items():
        print(f"  {level:>11} " + " ".join(f"{row[c]:>22.3f}" for c in cols))


async def amain(quick: bool) -> dict[str, Any]:
    levels = [1, 64, 512]
    reps = 1 if quick else MIN_REPEATS
    per_level = {1: 20, 64: 256, 512: 1024}
    inproc = await measure_inproc(lambda c: InstantClient(), levels, reps, per_level)
    table("in-process instant client: rollout machinery per LLM call", inproc)
    layer = await measure_inproc(
        lambda c: llm_client("http://instant", c, InstantTransport()), levels, reps, per_level
    )
    table("through autoforge.llm.LLMClient with an in-process instant transport", layer)
    latency = 0.2
    scaling = await measure_scaling(levels, latency)
    table(f"in-process client with {latency * 1e3:.0f} ms latency: vs ideal c/latency", scaling)
    mem = await measure_memory(512)
    print(f"\nmemory per episode (tracemalloc peak, 512 concurrent): {mem / 1024:.1f} KiB")
    http_levels = {1: 10, 64: 64, 512: 512} if quick else {1: 20, 64: 128, 512: 512}
    reps = 2 if quick else MIN_REPEATS
    with Server() as server:
        http = await measure_http(server.url, levels, reps, http_levels)
    table("HTTP instant server: autoforge.llm + openai SDK vs raw-SDK loop", http)

    def col(rows: dict[int, Any], name: str, nd: int = 4) -> dict[str, float]:
        return {str(c): round(v[name], nd) for c, v in rows.items()}

    return {
        "overhead_ms_per_turn": col(inproc, "ms_per_turn"),
        "overhead_cpu_ms_per_turn": col(inproc, "cpu_ms_per_turn"),
        "llm_layer_ms_per_turn": col(layer, "ms_per_turn"),
        "scaling_efficiency_200ms": col(scaling, "efficiency", 3),
        "memory_kib_per_episode": round(mem / 1024, 1),
        "http_turns_per_s": col(http, "turns_per_s", 1),
        "http_baseline_turns_per_s": col(http, "baseline_turns_per_s", 1),
        "http_added_ms_per_turn": col(http, "added_ms_per_turn"),
        "goal_overhead_below_1ms": all(v["ms_per_turn"] < 1.0 for v in inproc.values()),
    }


def goal_share(eval_dir: str, trajs: list[Any]) -> float | None:
    """Share of episodes whose user said every goal of its checklist (tasks read from the
    run's ``eval.json`` tasks source; ``None`` when it cannot be read)."""
    from pathlib import Path

    from autoforge.rollout.goals import conveyed, task_goals
    from autoforge.tasks import read_tasks

    meta = Path(eval_dir, "eval.json")
    if not meta.is_file():
        return None
    source = Path(json.loads(meta.read_text())["run"]["tasks_source"])
    if not source.is_file():
        return None
    tasks = {t.id: t for t in read_tasks(source)}
    said = []
    for traj in trajs:
        goals = task_goals(tasks[traj.task_id]) if traj.task_id in tasks else None
        if goals is None:
            continue
        user = [str(m.get("content") or "") for m in traj.messages if m.get("role") == "user"]
        said.append(len(conveyed(goals, user)) == len(goals))
    return round(sum(said) / len(said), 3) if said else None


def real_episodes(eval_dir: str) -> dict[str, Any]:
    """Real-model figures from an ``autoforge eval`` output dir (finished or interrupted):
    episodes, wall time (first start to last end), episodes per hour, rewards, end reasons,
    tokens per episode and how often the simulated user's guards fired."""
    from pathlib import Path

    from autoforge.rollout.trajectory import Trajectory

    lines = Path(eval_dir, "trajectories.jsonl").read_text().splitlines()
    trajs = [Trajectory.model_validate_json(line) for line in lines if line.strip()]
    if not trajs:
        raise SystemExit(f"no trajectories in {eval_dir}")
    wall = max(t.started_at + t.duration_s for t in trajs) - min(t.started_at for t in trajs)
    n = len(trajs)
    tokens = {
        role: round(
            sum(
                t.tokens[role].prompt_tokens + t.tokens[role].completion_tokens
                for t in trajs
                if role in t.tokens
            )
            / n
        )
        for role in ("agent", "user")
    }
    out = {
        "eval_dir": eval_dir,
        "episodes": n,
        "wall_s": round(wall, 1),
        "episodes_per_hour": round(n * 3600.0 / wall, 2) if wall > 0 else None,
        "mean_episode_s": round(sum(t.duration_s for t in trajs) / n, 1),
        "rewards": dict(Counter(str(t.reward) for t in trajs)),
        "reward_rate": round(sum(t.reward == 1.0 for t in trajs) / n, 3),
        "end_reasons": dict(Counter(t.end_reason.value for t in trajs)),
        "tokens_per_episode": tokens,
        "tool_calls_per_episode": round(sum(len(t.tool_calls) for t in trajs) / n, 2),
        "user_turns_per_episode": round(sum(t.n_user_turns for t in trajs) / n, 2),
        "user_guard_notes": sum(len(t.user_notes) for t in trajs),
        "agent_guard_notes": dict(
            Counter(n.split(": ", 2)[1] for t in trajs for n in t.agent_notes if ": " in n)
        ),
        "user_prompt_versions": sorted({str(t.user_prompt_version) for t in trajs}),
        "all_goals_conveyed_share": goal_share(eval_dir, trajs),
    }
    print(f"real episodes from {eval_dir}")
    for t in trajs:
        print(
            f"  {t.task_id:<24} {t.end_reason.value:<12} reward={t.reward} steps={t.n_steps:>2} "
            f"tools={len(t.tool_calls)} {t.duration_s:>6.0f}s  {t.reward_reason[:60]}"
        )
    for key, value in out.items():
        print(f"  {key}: {value}")
    return out


# --------------------------------------------------------------------------- faithful user


def _faithful_row(task: Any, traj: Any, prompt: str, started: float, cpu: float) -> dict[str, Any]:
    """One faithful-user episode's row: the goals left unsaid by the user's messages (code
    matching, :func:`autoforge.rollout.goals.conveyed`), end reason, reward, time and load."""
    import os

    from autoforge.rollout.goals import conveyed, task_goals

    goals = task_goals(task)
    user = [str(m.get("content") or "") for m in traj.messages if m.get("role") == "user"]
    said = conveyed(goals, user)
    return {
        "task_id": task.id,
        "prompt": prompt,
        "goals": len(goals),
        "unsaid": [g.key for g in goals if g.key not in said],
        "all_conveyed": len(said) == len(goals),
        "end_reason": traj.end_reason.value,
        "reward": traj.reward,
        "user_turns": traj.n_user_turns,
        "seconds": round(time.perf_counter() - started, 1),
        "cpu_s": round(time.process_time() - cpu, 1),
        "load1": round(os.getloadavg()[0], 2),
        "user_notes": traj.user_notes,
        "user_messages": user,
        "trajectory": traj.model_dump(mode="json"),
    }


def _faithful_summary(
    rows: list[dict[str, Any]], prompt: str, checklist: bool, wall: float
) -> dict[str, Any]:
    """The faithful-user figures over the episodes' rows."""
    import os

    n = len(rows)
    secs = sorted(r["seconds"] for r in rows)
    return {
        "faithful_user_prompt": prompt,
        "checklist": checklist,
        "episodes": n,
        "all_goals_conveyed_share": round(sum(r["all_conveyed"] for r in rows) / n, 3),
        "requests_questions_conveyed_share": round(
            sum(not any(not k.startswith("fact:") for k in r["unsaid"]) for r in rows) / n, 3
        ),
        "nudges": sum("nudged" in note for r in rows for note in r["user_notes"]),
        "episodes_per_hour": round(n * 3600.0 / max(wall, 1e-9), 2),
        "end_reasons": dict(Counter(r["end_reason"] for r in rows)),
        "median_episode_s": secs[n // 2],
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }


async def faithful_user(
    tasks_file: str, prompt: str, out: str, concurrency: int, checklist: bool | None = None
) -> dict[str, Any]:
    """Episodes of the embedded user against :class:`AskedOracle`; goal-conveyed share."""
    from pathlib import Path

    from autoforge.bench.targets import load_target
    from autoforge.llm import get_client
    from autoforge.rollout.players import AskedOracle, RoutedClient
    from autoforge.rollout.runner import bind_environment, rollout_episode
    from autoforge.rollout.user import UserConfig

    loaded = load_target("bookstore", tasks_file)
    client = get_client()
    config = EpisodeConfig(user=UserConfig(prompt_version=prompt, checklist=checklist))
    config.limits.max_steps = 40
    done = {}
    path = Path(out)
    if path.is_file():
        done = {r["task_id"]: r for r in map(json.loads, path.read_text().splitlines())}
    sem = asyncio.Semaphore(concurrency)

    async def one(task: Any) -> dict[str, Any]:
        if task.id in done:
            return dict(done[task.id])
        async with sem:
            deps = RolloutDeps(
                client=RoutedClient({"agent": AskedOracle(task)}, default=client),
                env_factory=lambda t: bind_environment(loaded.env, t),
            )
            started, cpu = time.perf_counter(), time.process_time()
            traj = await rollout_episode(task, 0, 0, config, deps)
        row = _faithful_row(task, traj, prompt, started, cpu)
        with path.open("a") as fh:
            fh.write(json.dumps(row) + "\n")
        print(
            f"  {task.id} conveyed={row['all_conveyed']} unsaid={row['unsaid']} "
            f"{row['end_reason']} reward={row['reward']} {row['seconds']}s",
            flush=True,
        )
        return row

    clock = time.perf_counter()
    try:
        rows = await asyncio.gather(*(one(t) for t in loaded.tasks))
    finally:
        await client.aclose()
    wall = time.perf_counter() - clock
    return _faithful_summary(rows, prompt, config.user.checklist_on(), wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--faithful-user", metavar="TASKS", help="bookstore tasks.jsonl")
    parser.add_argument(
        "--user-prompt",
        default=USER_PROMPT_VERSION,
        help="user prompt version (default: the product's default)",
    )
    parser.add_argument("--out", default="faithful_user.jsonl", help="episode rows (resumed)")
    parser.add_argument("--concurrency", type=int, default=2, help="episodes in flight")
    parser.add_argument(
        "--checklist",
        choices=["on", "off"],
        help="hold the user to its checklist (default: the prompt version's default)",
    )
    parser.add_argument("--quick", action="store_true", help="one repetition, fewer episodes")
    parser.add_argument(
        "--eval-dir",
        help="only summarize the real-model episodes of an 'autoforge eval' output dir",
    )
    args = parser.parse_args()
    load = Load()
    print("\n".join(load.lines()))
    if args.faithful_user:
        result = asyncio.run(
            faithful_user(
                args.faithful_user,
                args.user_prompt,
                args.out,
                args.concurrency,
                None if args.checklist is None else args.checklist == "on",
            )
        )
        finish(result, load)
        return
    if args.eval_dir:
        finish(real_episodes(args.eval_dir), load)
        return
    cpu = time.process_time()
    headline = asyncio.run(amain(args.quick))
    headline["cpu_s"] = round(time.process_time() - cpu, 1)  # this process (not the server's)
    sys.stdout.flush()
    finish(headline, load)


if __name__ == "__main__":
    main()
