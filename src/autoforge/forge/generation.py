"""The tasks stage: generate verified tasks into ``tasks.jsonl`` until the requested count.

Resumption: the tasks already in the file are passed to :func:`generate_tasks` as ``existing``
and generation restarts with the *same* seed. Every attempt is seeded from that one seed, so the
resumed session walks through exactly the attempts of an uninterrupted run; the attempts that
produced the existing tasks are now rejected as duplicates (cheaply, before any scenario is
written) and new tasks are appended after them. The final ``tasks.jsonl`` is therefore the same
whether or not the run was interrupted, and so are the statistics once those replayed
duplicates are counted back as acceptances (see :func:`merge_stats`).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any

from autoforge.env import Environment
from autoforge.forge.context import ForgeContext, ForgeError, Outcome
from autoforge.forge.manifest import StageRecord, write_atomic
from autoforge.tasks import (
    GenerationStats,
    Task,
    TaskSet,
    ToolGraph,
    generate_tasks_async,
    task_line,
)


class _Appender:
    """Appends tasks to ``tasks.jsonl`` one line at a time, synced to disk after each."""

    def __init__(self, ctx: ForgeContext) -> None:
        self.ctx = ctx
        self.path = ctx.layout.tasks
        TaskSet(self.path).append([])  # drops a line cut short by an interrupted write
        self.added = 0

    def __call__(self, task: Task) -> None:
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(task_line(task))
            fh.flush()
            os.fsync(fh.fileno())
        self.added += 1
        levels = task.difficulty
        self.ctx.reporter.advance(
            "tasks", f"{task.id}: {levels.tool_calls} calls, {levels.reasoning_nodes} reasoning"
        )


def merge_stats(stats: GenerationStats, replayed: int) -> dict[str, Any]:
    """Session statistics with the ``replayed`` existing tasks counted as accepted again.

    A resumed session rejects the attempts that produced the tasks already on file as
    duplicates; adding them back gives the figures of one uninterrupted run.
    """
    rejected = dict(stats.rejected)
    dup = min(rejected.get("duplicate", 0), replayed)
    if dup:
        rejected["duplicate"] -= dup
        if not rejected["duplicate"]:
            del rejected["duplicate"]
    accepted = stats.accepted + dup
    return {
        "requested": stats.requested + replayed,
        "attempts": stats.attempts,
        "accepted": accepted,
        "accept_rate": round(accepted / stats.attempts, 4) if stats.attempts else 0.0,
        "rejected": dict(sorted(rejected.items(), key=lambda kv: -kv[1])),
        "instantiation_runs": stats.instantiation_runs,
        "seconds": round(stats.seconds, 3),
        "stage_seconds": {k: round(v, 3) for k, v in stats.stage_seconds.items()},
        "difficulty": stats.difficulty,
        "replayed": dup,
        **({"note": stats.note} if stats.note else {}),
        # what generation left out or cut, so a run with fewer or smaller tasks says why
        **({"partial_writes": stats.partial_writes} if stats.partial_writes else {}),
        **({"state_cuts": stats.state_cuts} if stats.state_cuts else {}),
        **({"errors": stats.errors} if stats.errors else {}),
        **({"failures": stats.failures} if stats.failures else {}),
        "knowledge": stats.knowledge,  # per attribute: held by the user or internal, and why
    }


def _levels(tasks: list[Task]) -> dict[str, int]:
    counts = Counter(t.difficulty.level() for t in tasks)
    return {name: counts.get(name, 0) for name in ("easy", "medium", "hard", "any")}


def _budget(max_attempts: int | None, tasks: int) -> int:
    """The attempts of the whole run: ``--max-attempts``, else generate_tasks's default for
    all ``--tasks`` (``50 * n + 100``). A resumed session replays the attempts that made the
    tasks on file, so its budget must be the whole run's, not one for the tasks still missing,
    or an interrupted run would stop earlier than one never interrupted."""
    return max_attempts if max_attempts is not None else 50 * tasks + 100


async def _generate(
    ctx: ForgeContext, env: Environment, existing: list[Task], remaining: int
) -> tuple[dict[str, Any], bool]:
    """Run the generator for ``remaining`` new tasks; (merged stats, attempts exhausted).

    With LLM hooks (``--llm-tasks``) scenarios are written concurrently while generation
    runs in a worker thread (:func:`~autoforge.tasks.llm.hooks.generate_tasks_async`).
    """
    o = ctx.options
    graph = ToolGraph.load(ctx.layout.graph)
    appender = _Appender(ctx)
    new, stats = await generate_tasks_async(
        env, remaining, o.difficulty, seed=o.seed, hooks=ctx.hooks(), graph=graph,
        existing=existing, state_source=o.state_source, on_task=appender,
        max_attempts=_budget(o.max_attempts, o.tasks),
    )  # fmt: skip
    merged = merge_stats(stats, len(existing))
    if stats.llm:
        merged["llm_hooks"] = stats.llm  # requests, model-decided items, fallbacks by reason
    return merged, len(new) < remaining


async def generate_into(ctx: ForgeContext, rec: StageRecord) -> Outcome:
    """Fill ``tasks.jsonl`` up to ``--tasks`` and record the generation statistics."""
    o = ctx.options
    env = ctx.layout.env_dir.load()
    if o.state_source in ("initial", "data") and not any(env.initial_state.values()):
        raise ForgeError(
            f"--state {o.state_source} needs an environment with data (initial_state.json)"
        )
    existing = TaskSet(ctx.layout.tasks).load()
    remaining = max(0, o.tasks - len(existing))
    ctx.reporter.start("tasks", o.tasks, completed=min(len(existing), o.tasks))
    exhausted = bool(rec.detail.get("exhausted")) and rec.detail.get("target") == o.tasks
    exhausted = exhausted and rec.detail.get("max_attempts") == o.max_attempts
    if remaining:
        stats, exhausted = await _generate(ctx, env, existing, remaining)
        stats["target"] = o.tasks
        write_atomic(ctx.layout.generation, _dump(stats))
    elif len(existing) > o.tasks:
        ctx.reporter.note(f"tasks.jsonl already holds {len(existing)} tasks (> --tasks {o.tasks})")
    tasks = TaskSet(ctx.layout.tasks).load()
    stats = _read_stats(ctx)
    detail = {
        "target": o.tasks,
        "max_attempts": o.max_attempts,
        "produced": len(tasks),
        "exhausted": exhausted,
        "difficulty": o.difficulty,
        "levels": _levels(tasks),
        "attempts": stats.get("attempts", 0),
        "accept_rate": stats.get("accept_rate", 0.0),
        "rejected": stats.get("rejected", {}),
    }
    if stats.get("note"):
        detail["note"] = stats["note"]
    rate = f"{100 * detail['accept_rate']:.0f}%"
    summary = f"{len(tasks)}/{o.tasks} tasks, accept rate {rate}"
    if exhausted:
        summary += f" (stopped after {detail['attempts']} attempts)"
    if stats.get("note"):
        summary += f"; {stats['note']}"
    return Outcome(
        detail=detail,
        artifacts=[ctx.layout.rel(ctx.layout.tasks), "generation.json"],
        summary=summary,
    )


def _dump(stats: dict[str, Any]) -> str:
    return json.dumps(stats, indent=2) + "\n"


def _read_stats(ctx: ForgeContext) -> dict[str, Any]:
    path = ctx.layout.generation
    if not path.is_file():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data
