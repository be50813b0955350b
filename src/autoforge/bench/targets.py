"""What an evaluation runs on: the environment and its tasks (:class:`~autoforge.tasks.model.Task`).

Two sources:

- a ``tasks.jsonl`` (:class:`~autoforge.tasks.model.Task` lines, read with
  :func:`~autoforge.tasks.model.read_tasks`) beside an environment or run directory, found
  as ``autoforge serve`` finds it (:meth:`autoforge.env.EnvDir.resolve`);
- a tau-bench / tau2-bench domain directory (``--bench``), run in an environment synthesized
  for that domain: the benchmark's ``db.json`` becomes the initial state, and S* is the state
  the task's gold actions reach *in this environment* (the synthesized state cannot reproduce
  the benchmark's own hash, but it can replay the gold). Tasks this cannot cover are skipped
  with a reason: gold actions by the user, a task-specific initial state, tools the
  environment lacks. The user-side database of tau2 is not modelled, so its hash is not
  checked; environment assertions cannot be evaluated here (their reward stays unscored).

Either way each task's gold calls travel in ``gold_calls``, so the viewer can rebuild S* and the
oracle agent can replay them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autoforge.env import EnvDir, Environment
from autoforge.errors import UserError
from autoforge.tasks.model import Task, read_tasks


@dataclass
class EvalTarget:
    """The loaded environment, the tasks to run, and what was left out and why."""

    env: Environment
    env_dir: Path
    tasks: list[Task]
    tasks_source: str
    bench_dir: Path | None = None
    skipped: dict[str, str] = field(default_factory=dict)


def load_env(env_dir: Path, bench_dir: Path | None = None) -> Environment:
    """The environment; with ``bench_dir``, over that benchmark's ``db.json`` as its state."""
    env = EnvDir(env_dir).load()
    if bench_dir is None:
        return env
    from autoforge.synth.infer import data_to_state

    db_path = bench_dir / "db.json"
    if not db_path.is_file():
        raise UserError(f"{db_path}: not found (is {bench_dir} a tau-bench/tau2-bench domain?)")
    state, _ = data_to_state(json.loads(db_path.read_text(encoding="utf-8")))
    return env.with_initial_state(state)


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
    from autoforge.bench.tau import load_domain

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


def load_target(
    path: str | Path, tasks_file: str | Path | None = None, bench_dir: str | Path | None = None
) -> EvalTarget:
    """The environment and tasks of ``autoforge eval PATH [--tasks F] [--bench D]``."""
    if bench_dir is not None:
        bench = Path(bench_dir)
        target = EnvDir.resolve(path)
        env = load_env(target.root, bench)
        tasks, skipped = bench_tasks(env, bench)
        return EvalTarget(env, target.root, tasks, str(bench), bench, skipped)
    target = EnvDir.resolve(path, tasks_file)
    if target.tasks_file is None:
        raise UserError(
            f"no {EnvDir.TASKS} found in {path} or {target.root}: pass --tasks FILE "
            "(or --bench DIR for a tau-bench / tau2-bench domain)"
        )
    env = load_env(target.root)
    tasks = read_tasks(target.tasks_file)
    wrong = sorted({t.env_id for t in tasks} - {env.spec.name})
    if wrong:
        raise UserError(
            f"{target.tasks_file} has tasks of environment(s) {', '.join(wrong)}, but "
            f"{target.root} is {env.spec.name!r}"
        )
    return EvalTarget(env, target.root, tasks, str(target.tasks_file))
