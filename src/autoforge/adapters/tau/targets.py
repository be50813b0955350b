"""A tau-bench / tau2-bench domain's tasks as evaluation targets (``autoforge eval --bench DIR``).

The tasks run in an environment synthesized for that domain: the benchmark's ``db.json``
becomes the initial state, and S* is the state the task's gold actions reach *in this
environment* (the synthesized state cannot reproduce the benchmark's own hash, but it can
replay the gold). Tasks this cannot cover are skipped with a reason: gold actions by the user,
a task-specific initial state, tools the environment lacks. The user-side database of tau2 is
not modelled, so its hash is not checked; environment assertions cannot be evaluated here
(their reward stays unscored).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from autoforge.adapters.tau.domain import load_domain
from autoforge.adapters.tau.profile import TRANSFER_TOOLS
from autoforge.bench import EvalTarget, load_env
from autoforge.env import EnvDir, Environment
from autoforge.tasks import Task


def _skip_reason(env: Environment, raw: dict[str, Any], task: Task) -> str | None:
    actions = task.gold_calls
    if raw.get("initial_state"):
        return "task has its own initial state"
    if any(a.requestor == "user" for a in actions):
        return "gold actions by the user (user-side tools are not modelled)"
    missing = sorted({a.name for a in actions} - set(env.tools))
    if missing:
        return "environment lacks tools: " + ", ".join(missing)
    return None


def bind_bench_task(env: Environment, task: Task) -> Task:
    """``task`` with S* = the state its gold actions reach in ``env`` (user DB not checked)."""
    ep = env.episode()
    for action in task.gold_calls:
        ep.call(action.name, action.arguments)
    crit = task.criteria.model_copy(update={"gold_user_state_hash": None})
    return task.model_copy(update={"final_state_hash": ep.state_hash(), "criteria": crit})


def bench_tasks(env: Environment, bench_dir: Path) -> tuple[list[Task], dict[str, str]]:
    """The domain's tasks bound to ``env``, and the skipped ones with their reasons."""
    domain = load_domain(bench_dir, with_replay=False)
    tasks: list[Task] = []
    skipped: dict[str, str] = {}
    for task in domain.tasks:
        reason = _skip_reason(env, domain.raw_tasks[task.id], task)
        if reason is not None:
            skipped[task.id] = reason
            continue
        tasks.append(bind_bench_task(env, task))
    return tasks, skipped


def bench_target(path: str | Path, bench_dir: str | Path) -> EvalTarget:
    """The environment at ``path`` over the domain's ``db.json``, and the domain's tasks bound
    to it (``autoforge eval PATH --bench DIR``); tau's hand-off tool ends an episode."""
    bench = Path(bench_dir)
    target = EnvDir.resolve(path)
    env = load_env(target.root, bench)
    tasks, skipped = bench_tasks(env, bench)
    return EvalTarget(env, target.root, tasks, str(bench), bench, skipped, list(TRANSFER_TOOLS))
