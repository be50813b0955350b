"""Judge validation: precision and recall of the MEU judge's user-error flags, per fault kind.

Ground truth comes from faults whose place is known:

1. ``scripted``: the oracle agent (gold calls) and the scripted user under a ``FaultyUser``
   (with probability ``p`` per user turn, at most one fault per episode: a changed fact, an
   invented one, an early stop, or a checklist goal dropped from every message), on bookstore
   tasks from ``autoforge.tasks.generate_tasks``;
2. ``scripted-injected``: the same episodes played clean, then one fault written into a copy
   of each (``lab.transcript_faults``: the kinds above plus
   ``contradict_words``, a word-valued fact said with another task's value), each kind once
   per episode where it has a place, beside the clean episode itself;
3. ``played-injected`` (``--played FILE --played-tasks TASKS``, repeatable): model-played
   episodes (an eval's ``trajectories.jsonl`` or ``benchmarks/rollout.py --faithful-user``
   rows) used as clean bases when no code rule fires on them and they were not read as faulty
   by hand (``--exclude TASK_ID``), with faults written in the same way.

Judges:

- ``code``: the code rules of ``autoforge.rollout.meu``, each mapped to the fault kind it
  detects (``RULE_FAULTS``), per kind on every set;
- ``llm``: the LLM part of ``autoforge.rollout.judge`` alone (``judge_user(code=False)``:
  contradictions in paraphrase, checked against quotes), on a stratified sample of each
  injected set (``--llm-judged``, ``--llm-played``: half contradiction faults, a quarter clean,
  the rest other faults), scored on the one question it is asked (a contradiction: a
  ``change_fact`` or ``contradict_words`` fault), with its flag rate per kind; the code rules
  on the same sample beside it;
- baselines in the same run: never-flag, always-flag, and ``rule_v1`` (the earlier rule
  extractor, ``lab.rulejudge``) on the scripted episodes.

Run: ``python benchmarks/judge_validation.py`` (``--llm none`` for the code rules only;
``--llm default,small`` for the 1.5B and the 0.5B). Prints tables and, last, one JSON line
with the headline figures; each LLM-judged episode is also printed to stderr as it finishes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_method import Load, finish
from lab.judgeval import (
    KINDS,
    JudgedEpisode,
    fault_kinds,
    judge_failures,
    score,
    verdict_kinds,
)
from lab.rulejudge import rule_judge
from lab.transcript_faults import (
    TRANSCRIPT_FAULTS,
    fact_alternatives,
    inject,
)

from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.rollout.episode import EpisodeConfig, EpisodeLimits
from autoforge.rollout.judge import JudgeVerdict, code_verdict, judge_user
from autoforge.rollout.meu import RULE_FAULTS
from autoforge.rollout.players import OracleClient, scripted_user
from autoforge.rollout.runner import (
    RolloutDeps,
    bind_environment,
    episode_seed,
    rollout_episode,
)
from autoforge.rollout.trajectory import Trajectory
from autoforge.tasks import Task, generate_tasks, read_tasks

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


# --------------------------------------------------------------------------- injected faults

#: The fault kinds the LLM part is asked about: a fact said with another value.
CONTRADICTIONS = ("change_fact", "contradict_words")
INJECTED_KINDS: tuple[str, ...] = (*TRANSCRIPT_FAULTS, "any")


def is_clean(task: Task, traj: Trajectory) -> bool:
    """An episode with no recorded fault on which no code rule fires (a base to inject into)."""
    return not traj.faults and not code_verdict(task, traj.model_copy(deep=True), apply=False).rules


def injected_set(
    pairs: list[Pair], alternatives: dict[str, list[str]], seed: int, clean_copies: int = 1
) -> list[Pair]:
    """Each clean episode once as it is (``clean_copies`` times) and once per fault kind that
    has a place in it: the ground truth of every episode is the fault written in."""
    rng = random.Random(seed)
    out: list[Pair] = []
    for task, traj in pairs:
        if not is_clean(task, traj):
            continue
        out += [(task, traj)] * clean_copies
        for kind in TRANSCRIPT_FAULTS:
            faulted = inject(kind, task, traj, rng, alternatives)
            if faulted is not None:
                out.append((task, faulted))
    return out


def stratified(pairs: list[Pair], n: int, seed: int) -> list[Pair]:
    """``n`` episodes, half with a contradiction fault, a quarter clean, the rest other faults."""
    rng = random.Random(seed)
    groups: dict[str, list[Pair]] = {"contradiction": [], "clean": [], "other": []}
    for pair in pairs:
        kinds = fault_kinds(pair[1])
        key = (
            "clean"
            if not kinds
            else "contradiction"
            if set(kinds) & set(CONTRADICTIONS)
            else "other"
        )
        groups[key].append(pair)
    want = {"contradiction": n // 2, "clean": n // 4}
    want["other"] = n - sum(want.values())
    out: list[Pair] = []
    for key, group in groups.items():
        out += rng.sample(group, min(want[key], len(group)))
    return out


def contradiction_view(records: list[JudgedEpisode]) -> list[JudgedEpisode]:
    """Records re-labelled for the LLM part's one question: ``contradiction`` is true when a
    contradiction fault was written in, flagged when the judge flagged any contradiction."""
    out = []
    for rec in records:
        truth = ["contradiction"] if set(rec.faults) & set(CONTRADICTIONS) else []
        flags = (
            None
            if rec.flags is None
            else (["contradiction"] if set(rec.flags) & set(CONTRADICTIONS) else [])
        )
        out.append(rec.model_copy(update={"faults": truth, "flags": flags}))
    return out


def contradiction_table(title: str, records: list[JudgedEpisode]) -> dict[str, Any]:
    """P/R of flagging a contradiction, beside recall per written-in kind and the flag rate on
    episodes without a contradiction (clean, other faults)."""
    s = score(contradiction_view(records), ("contradiction",))["contradiction"]
    answered = [r for r in records if r.flags is not None]
    by_kind: dict[str, Any] = {}
    for kind in (*CONTRADICTIONS, "other", "clean"):
        group = [
            r
            for r in answered
            if (kind in r.faults)
            or (kind == "clean" and not r.faults)
            or (kind == "other" and r.faults and not set(r.faults) & set(CONTRADICTIONS))
        ]
        hit = sum(bool(set(r.flags or []) & set(CONTRADICTIONS)) for r in group)
        by_kind[kind] = {"n": len(group), "flagged": hit}
    print(
        f"\n{title}: {len(records)} episodes, judge failures {judge_failures(records)}\n"
        f"  contradiction: tp {s.tp} fp {s.fp} fn {s.fn} tn {s.tn}  "
        f"precision {_rate(s.precision)} recall {_rate(s.recall)}\n  flagged by kind: "
        + ", ".join(f"{k} {v['flagged']}/{v['n']}" for k, v in by_kind.items())
    )
    return {
        "episodes": len(records),
        "judge_failures": judge_failures(records),
        "contradiction": s.row(),
        "flagged_by_kind": by_kind,
    }


def always_flags(records: list[JudgedEpisode], kinds: tuple[str, ...]) -> list[JudgedEpisode]:
    """The flag-everything baseline: every kind flagged on every episode."""
    every = [k for k in kinds if k != "any"]
    return [r.model_copy(update={"judge": "always", "flags": every}) for r in records]


def kinds_table(title: str, records: list[JudgedEpisode], kinds: tuple[str, ...]) -> dict[str, Any]:
    """Print one judge x source table over ``kinds``; return its figures."""
    scores = score(records, kinds)
    failed = judge_failures(records)
    print(f"\n{title}: {len(records)} episodes, judge failures {failed}")
    cols = ("truth", "flag", "tp", "fp", "fn", "prec", "rec")
    print(f"{'kind':<17} " + " ".join(f"{c:>5}" for c in cols))
    for kind in kinds:
        s = scores[kind]
        print(
            f"{kind:<17} {s.tp + s.fn:>5} {s.tp + s.fp:>5} {s.tp:>5} {s.fp:>5} {s.fn:>5} "
            f"{_rate(s.precision):>5} {_rate(s.recall):>5}"
        )
    return {"episodes": len(records), "judge_failures": failed, **{
        k: scores[k].row() for k in kinds
    }}  # fmt: skip


def read_played(path: Path, tasks_file: Path) -> list[Pair]:
    """Model-played episodes: an eval's ``trajectories.jsonl`` (one trajectory per line) or
    ``benchmarks/rollout.py --faithful-user`` rows (``trajectory`` per row), with their tasks."""
    tasks = {t.id: t for t in read_tasks(tasks_file)}
    out: list[Pair] = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        traj = Trajectory.model_validate(row.get("trajectory", row))
        if traj.task_id in tasks and not traj.is_infra_error:
            out.append((tasks[traj.task_id], traj))
    return out


def never_flags(records: list[JudgedEpisode]) -> list[JudgedEpisode]:
    """The do-nothing baseline: the same episodes, nothing flagged."""
    return [r.model_copy(update={"judge": "never", "flags": []}) for r in records]


def _rate(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.2f}"


def table(title: str, records: list[JudgedEpisode]) -> dict[str, Any]:
    """Print one judge x source table over every fault kind; return its figures."""
    return kinds_table(title, records, KINDS)


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
    alternatives = fact_alternatives(tasks)
    clean = await scripted_episodes(env, tasks, 0.0, 1)
    sets = {"scripted-injected": injected_set(clean, alternatives, args.seed)}
    meta: dict[str, Any] = {"p": args.p, "scripted_episodes": len(scripted)}
    if args.played:
        played = [
            pair
            for path, tasks_file in zip(args.played, args.played_tasks, strict=True)
            for pair in read_played(Path(path), Path(tasks_file))
        ]
        read_faulty = set(args.exclude)
        meta["played_read_as_faulty"] = sorted(read_faulty & {t.id for t, _ in played})
        played = [(t, tr) for t, tr in played if t.id not in read_faulty]
        flagged = [p for p in played if not is_clean(*p)]
        meta.update(played_episodes=len(played), played_flagged_by_code=len(flagged))
        for task, traj in flagged:
            verdict = code_verdict(task, traj.model_copy(deep=True), apply=False)
            print(f"  played {task.id}: code rules {verdict.reason[:160]}", file=sys.stderr)
        more = fact_alternatives([t for t, _ in played])
        merged = {
            k: sorted({*alternatives.get(k, []), *more.get(k, [])}) for k in {*alternatives, *more}
        }
        sets["played-injected"] = injected_set(played, merged, args.seed)
    for name, pairs in sets.items():
        meta[f"{name}_episodes"] = len(pairs)
        records = judge_by_code(pairs, name)
        figures[f"never/{name}"] = kinds_table(
            f"never-flag x {name}", never_flags(records), INJECTED_KINDS
        )
        figures[f"always/{name}"] = kinds_table(
            f"always-flag x {name}", always_flags(records, INJECTED_KINDS), INJECTED_KINDS
        )
        figures[f"code/{name}"] = kinds_table(f"code rules x {name}", records, INJECTED_KINDS)
    if args.llm != "none":
        for model in args.llm.split(","):
            figures.update(await llm_part(args, model, sets, meta))
    meta["wall_s"] = round(time.perf_counter() - started, 1)
    meta["cpu_s"] = round(time.process_time() - cpu, 1)  # this process (the model's server too)
    return {"meta": meta, "figures": figures}


async def llm_part(
    args: argparse.Namespace, model: str, sets: dict[str, list[Pair]], meta: dict[str, Any]
) -> dict[str, Any]:
    """The LLM part alone (``judge_user(code=False)``) on a stratified sample of each injected
    set, scored on the one question it is asked (a contradiction), beside the code rules and the
    never/always baselines on the same sample."""
    from autoforge.llm import LLMClient

    client = LLMClient(llm_config(model))
    judge = CappedJudge(client, args.judge_max_tokens)
    figures: dict[str, Any] = {}
    sizes = {"scripted-injected": args.llm_judged, "played-injected": args.llm_played}
    try:
        for name, pairs in sorted(sets.items(), key=lambda kv: kv[0] != "played-injected"):
            subset = stratified(pairs, sizes.get(name, 0), args.seed)
            if not subset:
                continue
            t0 = time.perf_counter()
            records = await judge_by_llm(judge, subset, name)
            meta[f"llm_{model}_{name}_s_per_episode"] = round(
                (time.perf_counter() - t0) / len(subset), 1
            )
            code = judge_by_code(subset, name)
            figures[f"llm-{model}/{name}"] = contradiction_table(
                f"LLM part ({model}) x {name} sample", records
            )
            if f"code/{name}-sample" not in figures:
                figures[f"code/{name}-sample"] = contradiction_table(
                    f"code rules x the same {name} sample", code
                )
                figures[f"never/{name}-sample"] = contradiction_table(
                    "never-flag x the same sample", never_flags(code)
                )
                figures[f"always/{name}-sample"] = contradiction_table(
                    "always-flag x the same sample", always_flags(code, INJECTED_KINDS)
                )
    finally:
        await client.aclose()
    meta.setdefault("models", []).append(model)
    return figures


def headline_injected(figures: dict[str, Any]) -> dict[str, Any]:
    """The injected-set figures, rounded: per kind P/R of the code rules and the baselines,
    and the contradiction P/R of the LLM part and its comparators."""
    out: dict[str, Any] = {}
    for name, fig in figures.items():
        if "contradiction" in fig:
            row = fig["contradiction"]
            out[name] = {
                "n": fig["episodes"],
                "failures": fig["judge_failures"],
                "precision": _round(row["precision"]),
                "recall": _round(row["recall"]),
                "flagged_by_kind": fig["flagged_by_kind"],
            }
        elif "contradict_words" in fig:
            out[name] = {"n": fig["episodes"]} | {
                f"{rate}_{kind}": _round(fig[kind][rate])
                for kind in INJECTED_KINDS
                for rate in ("precision", "recall")
            }
    return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tasks", type=int, default=40, help="tasks for scripted episodes")
    parser.add_argument("--repeats", type=int, default=3, help="scripted episodes per task")
    parser.add_argument("--p", type=float, default=0.35, help="fault probability per user turn")
    parser.add_argument(
        "--llm",
        default="default",
        help="embedded judge model(s), comma-separated: "
        "default (1.5B), small (0.5B); none: code rules only",
    )
    parser.add_argument(
        "--llm-judged", type=int, default=14, help="scripted injected episodes the LLM judges"
    )
    parser.add_argument(
        "--llm-played", type=int, default=12, help="model-played injected episodes the LLM judges"
    )
    parser.add_argument(
        "--played",
        action="append",
        default=[],
        help="model-played episodes (repeatable): an eval's trajectories.jsonl or "
        "benchmarks/rollout.py --faithful-user rows",
    )
    parser.add_argument(
        "--played-tasks", action="append", default=[], help="the tasks.jsonl of each --played"
    )
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        help="task id of a model-played episode read as faulty by hand (repeatable): not used "
        "as a clean base",
    )
    parser.add_argument("--judge-max-tokens", type=int, default=384, help="cap per judge answer")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", default="/tmp/autoforge-judge-validation")
    args = parser.parse_args()
    if len(args.played) != len(args.played_tasks):
        parser.error("each --played needs its --played-tasks (the tasks file it was played on)")
    load = Load()
    print("\n".join(load.lines()), file=sys.stderr)
    result = asyncio.run(run(args))
    figures = result["figures"]
    plain = {k: v for k, v in figures.items() if "any" in v and "contradict_words" not in v}
    finish({"meta": result["meta"], **headline(plain), **headline_injected(figures)}, load)


if __name__ == "__main__":
    main()
