"""The task record and the append-only ``tasks.jsonl`` task set.

A :class:`Task` is everything a rollout needs to run and score one episode: the initial state S0
(full state for now), the hash of the gold final state S*, the gold calls, the values the agent
must tell the user, the simulated user's scenario and the facts that user knows. It also keeps
the blueprint it was generated from and its difficulty, so tasks can be filtered and audited.

Scoring contract (for ``autoforge.rollout``): an agent succeeds when, starting from
``initial_state``, its episode ends in a state whose ``state_hash`` equals ``final_state_hash``
and every ``required_outputs[i].text`` appears in what it told the user.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from autoforge.errors import UserError
from autoforge.tasks.blueprint import Blueprint
from autoforge.tasks.difficulty import DifficultyMetrics

TASK_SCHEMA_VERSION = 1


class GoldCall(BaseModel):
    """One call of the gold trajectory, with the arguments it was executed with."""

    node: str = Field(description="blueprint node id")
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    writes: bool = Field(default=False, description="the call changed the state")


class RequiredOutput(BaseModel):
    """A value the agent must tell the user (e.g. the result of a read-only reasoning step).

    ``text`` is the canonical rendering to look for in the agent's messages; ``alternatives``
    are other acceptable renderings (``19.9`` for ``19.90``).
    """

    node: str
    description: str
    value: Any = None
    text: str
    alternatives: list[str] = Field(default_factory=list)

    def found_in(self, message: str) -> bool:
        """Whether ``message`` states this value (any rendering, case-insensitive)."""
        haystack = message.lower()
        return any(t.lower() in haystack for t in [self.text, *self.alternatives] if t)


class UserScenario(BaseModel):
    """What the simulated user wants and says; carries only user-known facts.

    ``intent``: the goal in one sentence (for the user simulator); ``question``: the request as
    the user would phrase it; ``known_info``: the facts in plain words; ``unknown_info``: what
    the user does not know (the agent must look it up).
    """

    intent: str
    question: str
    persona: str | None = None
    known_info: str = ""
    unknown_info: str | None = None
    writer: str = Field(default="template", description="which writer produced the text")


class Task(BaseModel):
    """One verifiable task of one environment."""

    schema_version: int = TASK_SCHEMA_VERSION
    id: str
    env_id: str
    blueprint: Blueprint
    initial_state: dict[str, Any]
    initial_state_hash: str
    final_state_hash: str
    gold_calls: list[GoldCall] = Field(default_factory=list)
    required_outputs: list[RequiredOutput] = Field(default_factory=list)
    scenario: UserScenario
    user_facts: dict[str, Any] = Field(default_factory=dict)
    user_identity: dict[str, Any] = Field(
        default_factory=dict,
        description="who the user is (email, name of the user record in play): known to the "
        "simulated user, not part of the request (tasks.identity)",
    )
    difficulty: DifficultyMetrics = Field(default_factory=DifficultyMetrics)
    seed: int = 0
    meta: dict[str, Any] = Field(default_factory=dict)

    @property
    def changes_state(self) -> bool:
        """Whether the gold trajectory changes the state (S* != S0)."""
        return self.final_state_hash != self.initial_state_hash

    def missing_outputs(self, told: str) -> list[RequiredOutput]:
        """The required outputs that ``told`` (everything the agent said) does not state."""
        return [out for out in self.required_outputs if not out.found_in(told)]

    def is_solved(self, final_state_hash: str, told: str) -> bool:
        """The verifiable success check: S* reached and every required value told the user."""
        return final_state_hash == self.final_state_hash and not self.missing_outputs(told)


class TaskSetError(UserError):
    """A ``tasks.jsonl`` line could not be read as a task."""


class TaskSet:
    """An append-only JSONL file of tasks, one per line; resumable after an interruption.

    A last line without its newline (a write cut short) is ignored when reading and dropped
    before the next append, so a crashed generation run can continue where it stopped.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def __iter__(self) -> Iterator[Task]:
        if not self.path.exists():
            return
        text = self.path.read_text(encoding="utf-8")
        lines = text.split("\n")
        if not text.endswith("\n"):
            lines = lines[:-1]  # unterminated last line: an interrupted write
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield Task.model_validate_json(line)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                raise TaskSetError(f"{self.path}:{number}: {where}: {first['msg']}") from None

    def load(self) -> list[Task]:
        """All complete tasks in the file (empty if the file does not exist)."""
        return list(self)

    def ids(self) -> set[str]:
        """Ids of the tasks already in the file."""
        return {task.id for task in self}

    def append(self, tasks: Iterable[Task]) -> int:
        """Append the tasks whose id is not in the file yet; returns how many were written."""
        seen = self.ids()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._drop_partial_line()
        written = 0
        with self.path.open("a", encoding="utf-8") as fh:
            for task in tasks:
                if task.id in seen:
                    continue
                fh.write(task_line(task))
                seen.add(task.id)
                written += 1
            fh.flush()
            os.fsync(fh.fileno())
        return written

    def _drop_partial_line(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
            with self.path.open("r+b") as fh:
                fh.truncate(cut)


def task_line(task: Task) -> str:
    """One task as a JSONL line (compact JSON, newline-terminated)."""
    return json.dumps(task.model_dump(mode="json"), separators=(",", ":"), sort_keys=False) + "\n"
