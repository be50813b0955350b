"""Independent verification of tasks: replay the gold calls from S0, compare with S*.

Task generation already replays each task's blueprint before keeping it; this check is the
end-of-pipeline audit on the *written* artifact: it reads each task back from ``tasks.jsonl``,
starts an episode of the environment from the task's ``initial_state``, checks that state's hash
against ``initial_state_hash``, executes the recorded ``gold_calls`` with their concrete
arguments and compares the final hash with ``final_state_hash``. A task that passes is exactly
solvable by the calls it ships with.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, Field

from autoforge.env import EnvironmentLike
from autoforge.tasks import Task

VERIFY_SCHEMA_VERSION = 1


class TaskVerdict(BaseModel):
    """The outcome of replaying one task."""

    task_id: str
    ok: bool
    reason: str = ""
    calls: int = 0
    failed_calls: list[str] = Field(
        default_factory=list, description="gold calls that returned an error (name: message)"
    )


class VerifyReport(BaseModel):
    """What ``verify.json`` holds."""

    schema_version: int = VERIFY_SCHEMA_VERSION
    total: int = 0
    verified: int = 0
    verdicts: list[TaskVerdict] = Field(default_factory=list)

    @property
    def failed(self) -> list[TaskVerdict]:
        """The verdicts of the tasks that did not verify."""
        return [v for v in self.verdicts if not v.ok]


def verify_task(env: EnvironmentLike, task: Task) -> TaskVerdict:
    """Replay ``task``'s gold calls in ``env`` from its S0 and compare the hashes."""
    episode = env.episode(state=task.initial_state)  # the runtime copies it
    start = episode.state_hash()
    if start != task.initial_state_hash:
        return TaskVerdict(
            task_id=task.id,
            ok=False,
            reason=f"S0 hash {start[:12]} != recorded {str(task.initial_state_hash)[:12]}",
        )
    failed = []
    for call in task.gold_calls:
        obs = episode.call(call.name, dict(call.arguments))
        if not obs.ok:
            failed.append(f"{call.name}: {obs.content[:200]}")
    final = episode.state_hash()
    close = getattr(episode, "close", None)
    if callable(close):
        close()
    if final != task.final_state_hash:
        reason = f"final hash {final[:12]} != S* {str(task.final_state_hash)[:12]}"
        return TaskVerdict(
            task_id=task.id, ok=False, reason=reason, calls=len(task.gold_calls),
            failed_calls=failed,
        )  # fmt: skip
    return TaskVerdict(task_id=task.id, ok=True, calls=len(task.gold_calls), failed_calls=failed)


def verify_tasks(env: EnvironmentLike, tasks: Iterable[Task]) -> VerifyReport:
    """Verify every task; the report lists a verdict per task."""
    verdicts = [verify_task(env, task) for task in tasks]
    return VerifyReport(
        total=len(verdicts), verified=sum(v.ok for v in verdicts), verdicts=verdicts
    )
