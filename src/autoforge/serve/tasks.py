"""The tasks a server can start episodes from, by id.

Tasks are :class:`autoforge.tasks.model.Task` records (synthesized or imported from a benchmark),
read with :func:`autoforge.tasks.model.read_tasks`; the reward is computed by the rollout's own
reward code from the same record.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from autoforge.errors import UserError
from autoforge.serve.errors import UnknownTask
from autoforge.tasks import Task


class TaskIndex:
    """Tasks by id, with a seeded pick for ``reset(seed=...)`` without a task id."""

    def __init__(self, tasks: Iterable[Task] = ()) -> None:
        self._tasks: dict[str, Task] = {}
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

    def get(self, task_id: str) -> Task:
        """The task ``task_id``; ``UnknownTask`` (404) if it is not served."""
        task = self._tasks.get(task_id)
        if task is None:
            hint = f"{len(self)} tasks served" if self._tasks else "no --tasks file was given"
            raise UnknownTask(f"unknown task {task_id!r} ({hint}); list them with GET /tasks")
        return task

    def pick(self, seed: int) -> Task | None:
        """The task a seed selects (same seed, same task, any process); None if no tasks."""
        if not self._order:
            return None
        return self._tasks[random.Random(seed).choice(self._order)]
