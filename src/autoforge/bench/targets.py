"""What an evaluation runs on: the environment and its tasks (:class:`~autoforge.tasks.model.Task`).

A ``tasks.jsonl`` (:class:`~autoforge.tasks.model.Task` lines, read with
:func:`~autoforge.tasks.model.read_tasks`) beside an environment or run directory, found as
``autoforge serve`` finds it (:meth:`autoforge.env.EnvDir.resolve`). A benchmark domain's
own tasks (``--bench DIR``) are bound to the environment by the benchmark's adapter
(:mod:`autoforge.adapters.tau.targets`), over its ``db.json`` (:func:`load_env`).

Each task's gold calls travel in ``gold_calls``, so the viewer can rebuild S* and the
oracle agent can replay them.

An environment's hand-off tools (a successful call ends the episode as a transfer) are named
only by what knows them: the benchmark adapter that bound the tasks, or the convention profile
the environment was synthesized with (``synthesis_report.json``'s ``conventions``, read through
:func:`autoforge.profiles.named_profile_values`). Generic environments have none.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from autoforge.env import EnvDir, Environment
from autoforge.errors import UserError
from autoforge.profiles import named_profile_values
from autoforge.tasks import Task, read_tasks


@dataclass
class EvalTarget:
    """The loaded environment, the tasks to run, and what was left out and why."""

    env: Environment
    env_dir: Path
    tasks: list[Task]
    tasks_source: str
    bench_dir: Path | None = None
    skipped: dict[str, str] = field(default_factory=dict)
    transfer_tools: list[str] = field(default_factory=list)


def load_env(env_dir: Path, bench_dir: Path | None = None) -> Environment:
    """The environment; with ``bench_dir``, over that benchmark's ``db.json`` as its state."""
    env = EnvDir(env_dir).load()
    if bench_dir is None:
        return env
    from autoforge.synth import data_to_state

    db_path = bench_dir / "db.json"
    if not db_path.is_file():
        raise UserError(f"{db_path}: not found (is {bench_dir} a benchmark domain directory?)")
    state, _ = data_to_state(json.loads(db_path.read_text(encoding="utf-8")))
    return env.with_initial_state(state)


def load_target(path: str | Path, tasks_file: str | Path | None = None) -> EvalTarget:
    """The environment and tasks of ``autoforge eval PATH [--tasks F]`` (a benchmark domain's
    tasks, ``--bench D``, are bound by its adapter: :func:`autoforge.adapters.tau.bench_target`)."""
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
    return EvalTarget(
        env, target.root, tasks, str(target.tasks_file),
        transfer_tools=declared_transfer_tools(target.root),
    )  # fmt: skip


def declared_transfer_tools(env_dir: Path) -> list[str]:
    """The hand-off tools of the convention profile ``env_dir`` was synthesized with (its
    ``synthesis_report.json``'s ``conventions``, e.g. ``--conventions tau``); none for the
    generic profile or an environment without a report."""
    report = EnvDir(env_dir).report_path
    if not report.is_file():
        return []
    name = json.loads(report.read_text(encoding="utf-8")).get("conventions") or "generic"
    return [str(t) for t in named_profile_values(str(name), "TRANSFER_TOOLS")]
