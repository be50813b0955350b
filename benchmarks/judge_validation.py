"""Judge validation: precision and recall of the MEU judge's user-error flags, per fault kind.

Episodes on the bundled bookstore example (tasks from ``autoforge.tasks.generate_tasks``) are
played with a ``FaultyUser``: with probability ``p`` per user turn (at most one fault per
episode) it changes a known fact, invents one, or stops early, or (decided at the first turn)
drops a goal of the user's checklist from every message, and records what it did, so the
ground truth of every episode is known. Two sets of episodes:

1. ``scripted``: the oracle agent (gold calls) and the scripted user (request, facts, thanks)
   under the fault wrapper; fast and deterministic, many episodes;
2. ``llm``: the embedded model (``--model small`` = 0.5B by default) as agent and user under the
   fault wrapper; bounded (``--llm-episodes``, short ``--max-steps``), slow on CPU.

Judges, each reported per fault kind (precision/recall):

- ``code``: the code rules of ``autoforge.rollout.meu`` (goal never said, stop mid-question,
  contradicted fact value, invented identifier); each rule maps to the fault kind it detects
  (``RULE_FAULTS``);
- ``llm``: the LLM part of ``autoforge.rollout.judge`` alone (paraphrase contradictions checked
  against quotes; the embedded model, answer capped at ``--judge-max-tokens``), on a subset of
  the scripted episodes (``--llm-judged``) and on the model-played ones;
- baselines in the same run: a judge that never flags, and ``rule_v1`` (the earlier rule
  extractor, ``autoforge.bench.rulejudge``).

Run: ``python benchmarks/judge_validation.py`` (``--llm none`` for the scripted part only).
Prints tables and, last, one JSON line with the headline figures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_method import Load, finish

from autoforge.bench.judgeval import (
    KINDS,
    JudgedEpisode,
    fault_kinds,
    judge_failures,
    score,
    verdict_kinds,
)
from autoforge.bench.players import OracleClient, scripted_user
from autoforge.bench.rulejudge import rule_judge
from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.rollout.agent import AgentConfig
from autoforge.rollout.episode import EpisodeConfig, EpisodeLimits
from autoforge.rollout.judge import JudgeVerdict, code_verdict, judge_user
from autoforge.rollout.meu import RULE_FAULTS
from autoforge.rollout.runner import (
    RolloutDeps,
    Runner,
    bind_environment,
    episode_fn,
    episode_seed,
    rollout_episode,
)
from autoforge.rollout.trajectory import Trajectory
from autoforge.rollout.user import UserConfig
from autoforge.tasks import Task, generate_tasks

Pair = tuple[Task, Trajectory]


def make_tasks(env: Any, n: int, difficulty: str, seed: int) -> list[Task]:
    tasks, _ = generate_tasks(env, n=n, difficulty=difficulty, seed=seed)
    return tasks


async def scripted_episodes(env: Any, tasks: list[Task], p: float, repeats: int) -> list[Pair]:
    """Oracle agent x scripted user under the fault wrapper."""
    config = EpisodeConfig(fault_p=p, limits=EpisodeLimits(max_steps=30))
    out: list[Pair] = []
    for task in tasks:
        for trial in range(repeats):
            deps = RolloutDeps(
                client=OracleClient(task),
                env_factory=lambda t: bind_environment(env, t),
                user_factory=scripted_user,
            )
            seed = episode_seed(0, task.id, trial)
            out.append((task, await rollout_episode(task, trial, seed, config, deps)))
    return out


def llm_config(model: str) -> Any:
    from autoforge.llm.config import build_config

    return build_config(environ={}, overrides={"embedded": {"model": model, "ctx_size": 8192}})


async def llm_episodes(
    env: Any, tasks: list[Task], client: Any, p: float, max_steps: int, work: Path
) -> list[Pair]:
    """Embedded agent x embedded user under the fault wrapper (checkpointed in ``work``)."""
    config = EpisodeConfig(
        fault_p=p,
        agent=AgentConfig(max_tokens=256),
        user=UserConfig(max_tokens=160),
        limits=EpisodeLimits(max_steps=max_steps),
    )
    deps = RolloutDeps(client=client, env_factory=lambda t: bind_environment(env, t))
    runner = Runner(episode_fn(config, deps), checkpoint=work / "llm_episodes.jsonl", concurrency=2)
    trajs = await runner.run(tasks, trials=1)
    by_id = {t.id: t for t in tasks}
    return [(by_id[t.task_id], t) for t in trajs if not t.is_infra_error]


def rule_kinds(verdict: JudgeVerdict) -> list[str]:
    """The fault kinds the rules that fired detect."""
    return sorted({RULE_FAULTS[r] for r in verdict.rules if r in RULE_FAULTS})


def _judge_by(
    pairs: list[Pair],
    source: str,
    judge: str,
    verdict_of: Callable[..., JudgeVerdict],
    kinds: Callable[[JudgeVerdict], list[str]],
) -> list[JudgedEpisode]:
    """Each episode judged by a deterministic verdict function (nothing applied to it)."""
    out = []
    for task, traj in pairs:
        verdict = verdict_of(task, traj.model_copy(deep=True), apply=False)
        out.append(
            JudgedEpisode(
                task_id=task.id, source=source, judge=judge, faults=fault_kinds(traj),
                flags=kinds(verdict), reason=verdict.reason,
            )
        )  # fmt: skip
    return out


def judge_by_rule(pairs: list[Pair], source: str) -> list[JudgedEpisode]:
    """The earlier rule extractor (baseline)."""
    return _judge_by(pairs, source, "rule_v1", rule_judge, verdict_kinds)


def judge_by_code(pairs: list[Pair], source: str) -> list[JudgedEpisode]:
    """The code rules of the MEU judge."""
    return _judge_by(pairs, source, "code", code_verdict, rule_kinds)


async def judge_by_llm(client: Any, pairs: list[Pair], source: str) -> list[JudgedEpisode]:
    out = []
    for task, traj in pairs:
        started = time.perf_counter()
        try:
            copy = traj.model_copy(deep=True)
            verdict = await judge_user(client, task, copy, apply=False, code=False)
            flags, reason, ignored = rule_kinds(verdict), verdict.reason, verdict.ignored_claims
        except Exception as exc:  # LLMFailure: counted as a judge failure, not a verdict
            flags, reason, ignored = None, f"{type(exc).__name__}: {exc}"[:200], 0
        rec = JudgedEpisode(
            task_id=task.id,
            source=source,
            judge="llm",
            faults=fault_kinds(traj),
            flags=flags,
            reason=reason,
            ignored_claims=ignored,
        )
        print(
            f"  judged {task.id}: faults={rec.faults} flags={rec.flags} "
            f"ignored claims={ignored} "
            f"({time.perf_counter() - started:.1f}s)",
            file=sys.stderr,
            flush=True,
        )
        out.append(rec)
    return out


class CappedJudge:
    """The client, with the judge's structured answers capped at ``max_tokens`` tokens (a small
    model can ramble to the 2048-token default, which costs minutes per call on a CPU)."""

    def __init__(self, client: Any, max_tokens: int) -> None:
        self.client = client
        self.max_tokens = max_tokens

    async def structured(self, messages: list[dict[str, Any]], output: Any, **kwargs: Any) -> Any:
        return await self.client.structured(
            messages, output, **{**kwargs, "max_tokens": self.max_tokens}
        )


def never_flags(records: list[JudgedEpisode]) -> list[JudgedEpisode]:
    """The do-nothing baseline: the same episodes, nothing flagged."""
    return [r.model_copy(update={"judge": "never", "flags": []}) for r in records]


def _rate(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.2f}"


def table(title: str, records: list[JudgedEpisode]) -> dict[str, Any]:
    """Print one judge x source table; return its figures."""
    scores = score(records)
    failed = judge_failures(records)
    print(f"\n{title}: {len(records)} episodes, judge failures {failed}")
    cols = ("truth", "flag", "tp", "fp", "fn", "prec", "rec")
    print(f"{'kind':<12} " + " ".join(f"{c:>5}" for c in cols))
    for kind in KINDS:
        s = scores[kind]
        print(
            f"{kind:<12} {s.tp + s.fn:>5} {s.tp + s.fp:>5} {s.tp:>5} {s.fp:>5} {s.fn:>5} "
            f"{_rate(s.precision):>5} {_rate(s.recall):>5}"
        )
    return {
        "episodes": len(records),
        "judge_failures": failed,
        **{k: scores[k].row() for k in KINDS},
    }


def headline(figures: dict[str, Any]) -> dict[str, Any]:
    """precision/recall of ``any`` per judge x source, rounded."""
    out: dict[str, Any] = {}
    for name, fig in figures.items():
        row = fig["any"]
        out[name] = {
            "n": fig["episodes"],
            "precision": None if row["precision"] is None else round(row["precision"], 3),
            "recall": None if row["recall"] is None else round(row["recall"], 3),
            "failures": fig["judge_failures"],
        }
        for kind in KINDS[:-1]:
            r = fig[kind]
            for rate in ("precision", "recall"):
                out[name][f"{rate}_{kind}"] = None if r[rate] is None else round(r[rate], 3)
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    env = Environment.load(example_path("bookstore"))
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    started, cpu = time.perf_counter(), time.process_time()
    tasks = make_tasks(env, args.tasks, "any", args.seed)
    scripted = await scripted_episodes(env, tasks, args.p, args.repeats)
    print(
        f"scripted: {len(scripted)} episodes on {len(tasks)} tasks in "
        f"{time.perf_counter() - started:.1f}s",
        file=sys.stderr,
    )
    code_s = judge_by_code(scripted, "scripted")
    figures = {
        "never/scripted": table("never-flag baseline x scripted episodes", never_flags(code_s)),
        "rule_v1/scripted": table(
            "earlier rule judge x scripted episodes", judge_by_rule(scripted, "scripted")
        ),
        "code/scripted": table("code rules x scripted episodes", code_s),
    }
    meta: dict[str, Any] = {"p": args.p, "scripted_episodes": len(scripted)}
    if args.llm != "none":
        figures.update(await llm_part(args, env, scripted, work, meta))
    meta["wall_s"] = round(time.perf_counter() - started, 1)
    meta["cpu_s"] = round(time.process_time() - cpu, 1)  # this process (the model's server too)
    return {"meta": meta, "figures": figures}


async def llm_part(
    args: argparse.Namespace, env: Any, scripted: list[Pair], work: Path, meta: dict[str, Any]
) -> dict[str, Any]:
    from autoforge.llm import LLMClient

    client = LLMClient(llm_config(args.llm))
    judge = CappedJudge(client, args.judge_max_tokens)
    figures: dict[str, Any] = {}
    try:
        subset = random.Random(args.seed).sample(scripted, min(args.llm_judged, len(scripted)))
        t0 = time.perf_counter()
        llm_s = await judge_by_llm(judge, subset, "scripted")
        meta["llm_judge_s_per_episode"] = round((time.perf_counter() - t0) / max(1, len(subset)), 1)
        figures["llm/scripted"] = table(f"LLM judge ({args.llm}) x scripted episodes", llm_s)
        figures["code/scripted-subset"] = table(
            "code rules x the same scripted subset", judge_by_code(subset, "scripted")
        )
        if args.llm_episodes:
            llm_tasks = make_tasks(env, args.llm_episodes, "easy", args.seed + 1)
            t0 = time.perf_counter()
            pairs = await llm_episodes(env, llm_tasks, client, args.p, args.max_steps, work)
            wall = time.perf_counter() - t0
            meta.update(llm_episodes=len(pairs), llm_episode_wall_s=round(wall, 1))
            figures["code/llm"] = table("code rules x LLM episodes", judge_by_code(pairs, "llm"))
            figures["llm/llm"] = table(
                f"LLM judge ({args.llm}) x LLM episodes", await judge_by_llm(judge, pairs, "llm")
            )
    finally:
        await client.aclose()
    meta["model"] = args.llm
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=40, help="tasks for scripted episodes")
    parser.add_argument("--repeats", type=int, default=3, help="scripted episodes per task")
    parser.add_argument("--p", type=float, default=0.35, help="fault probability per user turn")
    parser.add_argument("--llm", default="small", help="embedded model: small|default|none")
    parser.add_argument(
        "--llm-judged", type=int, default=16, help="scripted episodes the LLM judges"
    )
    parser.add_argument("--llm-episodes", type=int, default=12, help="LLM-played episodes")
    parser.add_argument("--max-steps", type=int, default=10, help="LLM calls per LLM episode")
    parser.add_argument("--judge-max-tokens", type=int, default=768, help="cap per judge answer")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", default="/tmp/autoforge-judge-validation")
    args = parser.parse_args()
    load = Load()
    print("\n".join(load.lines()), file=sys.stderr)
    result = asyncio.run(run(args))
    finish({"meta": result["meta"], **headline(result["figures"])}, load)


if __name__ == "__main__":
    main()
