"""The tasks a server can start episodes from: synthesized tasks and imported benchmark tasks.

A ``tasks.jsonl`` line is either an :class:`autoforge.tasks.model.Task` (synthesized: it has a
``blueprint``) or an :class:`autoforge.rollout.task.TaskSpec` (hand-written or imported from a
benchmark). Both become a :class:`ServedTask`, which satisfies the rollout's ``RolloutTask``
protocol, so the reward is computed by the rollout's own reward code.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from autoforge.errors import UserError
from autoforge.rollout.task import TaskSpec, from_task_model
from autoforge.serve.errors import UnknownTask
from autoforge.tasks.model import Task


@dataclass(frozen=True)
class ServedTask:
    """One task as the server needs it: the rollout's task (scored by the rollout's reward
    code) and the user's opening question."""

    spec: TaskSpec
    question: str

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def env_id(self) -> str:
        return self.spec.env_id

    @property
    def initial_state(self) -> dict[str, Any] | None:
        return self.spec.initial_state


def from_task(task: Task) -> ServedTask:
    """A synthesized task: S0, the S* hash, the required outputs with their alternatives."""
    return ServedTask(spec=from_task_model(task), question=task.scenario.question)


def from_spec(spec: TaskSpec) -> ServedTask:
    """An imported or hand-written task (its scenario doubles as the opening question)."""
    return ServedTask(spec=spec, question=spec.scenario)


def parse_task(obj: Mapping[str, Any]) -> ServedTask:
    """One JSON object as a task (``Task`` when it has a blueprint, else ``TaskSpec``)."""
    if "blueprint" in obj:
        return from_task(Task.model_validate(obj))
    return from_spec(TaskSpec.model_validate(obj))


def load_tasks(path: str | Path) -> list[ServedTask]:
    """Every task of a JSONL file; ``UserError`` naming the line for a malformed one.

    A last line without its newline (an interrupted write) is ignored, as ``TaskSet`` does.
    """
    path = Path(path)
    if not path.is_file():
        raise UserError(f"tasks file not found: {path}")
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if not text.endswith("\n"):
        lines = lines[:-1]
    tasks = []
    for number, line in enumerate(lines, start=1):
        if line.strip():
            tasks.append(_parse_line(path, number, line))
    return tasks


def _parse_line(path: Path, number: int, line: str) -> ServedTask:
    try:
        return parse_task(json.loads(line))
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}:{number}: not JSON: {exc.msg}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UserError(f"{path}:{number}: {where}: {first['msg']}") from None


class TaskIndex:
    """Tasks by id, with a seeded pick for ``reset(seed=...)`` without a task id."""

    def __init__(self, tasks: Iterable[ServedTask] = ()) -> None:
        self._tasks: dict[str, ServedTask] = {}
        for task in tasks:
            if task.id in self._tasks:
                raise UserError(f"duplicate task id {task.id!r} in the task set")
            self._tasks[task.id] = task
        self._order = sorted(self._tasks)

    def __len__(self) -> int:
        return len(self._tasks)

    def ids(self) -> list[str]:
        """Task ids, sorted."""
        return list(self._order)

    def get(self, task_id: str) -> ServedTask:
        """The task ``task_id``; ``UnknownTask`` (404) if it is not served."""
        task = self._tasks.get(task_id)
        if task is None:
            hint = f"{len(self)} tasks served" if self._tasks else "no --tasks file was given"
            raise UnknownTask(f"unknown task {task_id!r} ({hint}); list them with GET /tasks")
        return task

    def pick(self, seed: int) -> ServedTask | None:
        """The task a seed selects (same seed, same task, any process); None if no tasks."""
        if not self._order:
            return None
        return self._tasks[random.Random(seed).choice(self._order)]
