"""What an evaluation runs on: the environment and its tasks, as rollout tasks.

A ``tasks.jsonl`` (synthesized :class:`~autoforge.tasks.model.Task` lines, or
:class:`~autoforge.rollout.task.TaskSpec` lines) beside an environment or run directory, found
as ``autoforge serve`` finds it (:func:`autoforge.serve.loader.resolve`). A benchmark domain's
own tasks (``--bench DIR``) are bound to the environment by the benchmark's adapter
(:mod:`autoforge.adapters.tau.targets`), over its ``db.json`` (:func:`load_env`).

Each task's gold calls travel in ``criteria.actions``, so the viewer can rebuild S* and the
oracle agent can replay them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from autoforge.errors import UserError
from autoforge.rollout.task import GoldAction, TaskSpec, from_task_model, task_criteria
from autoforge.tasks.model import Task


@dataclass
class EvalTarget:
    """The loaded environment, the tasks to run, and what was left out and why."""

    env: Any
    env_dir: Path
    tasks: list[TaskSpec]
    tasks_source: str
    bench_dir: Path | None = None
    skipped: dict[str, str] = field(default_factory=dict)


def task_spec_of(task: Task) -> TaskSpec:
    """A synthesized task as a :class:`TaskSpec` whose criteria carry its gold calls."""
    spec = from_task_model(task)
    crit = task_criteria(spec)
    actions = [
        GoldAction(name=c.name, arguments=dict(c.arguments), writes=c.writes)
        for c in task.gold_calls
    ]
    return spec.model_copy(update={"criteria": crit.model_copy(update={"actions": actions})})


def parse_task_line(obj: dict[str, Any]) -> TaskSpec:
    """One ``tasks.jsonl`` object: a synthesized ``Task`` (it has a blueprint) or a TaskSpec."""
    if "blueprint" in obj:
        return task_spec_of(Task.model_validate(obj))
    return TaskSpec.model_validate(obj)


def read_tasks(path: Path) -> list[TaskSpec]:
    """Every task of a JSONL file; ``UserError`` naming the bad line. A torn last line (no
    newline: an interrupted append) is ignored, as ``TaskSet`` does."""
    if not path.is_file():
        raise UserError(f"tasks file not found: {path}")
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if not text.endswith("\n"):
        lines = lines[:-1]
    tasks: list[TaskSpec] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            tasks.append(parse_task_line(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise UserError(f"{path}:{number}: not JSON: {exc.msg}") from None
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise UserError(f"{path}:{number}: {where}: {first['msg']}") from None
    return tasks


def load_env(env_dir: Path, bench_dir: Path | None = None) -> Any:
    """The environment; with ``bench_dir``, over that benchmark's ``db.json`` as its state."""
    from autoforge.env import Environment

    env = Environment.load(env_dir)
    if bench_dir is None:
        return env
    from autoforge.synth.infer import data_to_state

    db_path = bench_dir / "db.json"
    if not db_path.is_file():
        raise UserError(f"{db_path}: not found (is {bench_dir} a benchmark domain directory?)")
    state, _ = data_to_state(json.loads(db_path.read_text(encoding="utf-8")))
    return env.with_initial_state(state)


def load_target(path: str | Path, tasks_file: str | Path | None = None) -> EvalTarget:
    """The environment and tasks of ``autoforge eval PATH [--tasks F]`` (a benchmark domain's
    tasks, ``--bench D``, are bound by its adapter: :func:`autoforge.adapters.tau.bench_target`)."""
    from autoforge.serve.loader import resolve

    target = resolve(path, tasks_file)
    if target.tasks_file is None:
        raise UserError(
            f"no tasks.jsonl found in {path} or {target.env_dir}: pass --tasks FILE "
            "(or --bench DIR for a tau-bench / tau2-bench domain)"
        )
    env = load_env(target.env_dir)
    tasks = read_tasks(target.tasks_file)
    wrong = sorted({t.env_id for t in tasks} - {env.spec.name})
    if wrong:
        raise UserError(
            f"{target.tasks_file} has tasks of environment(s) {', '.join(wrong)}, but "
            f"{target.env_dir} is {env.spec.name!r}"
        )
    return EvalTarget(env, target.env_dir, tasks, str(target.tasks_file))
