"""The task artifact, the one model every stage uses, and the one reader of ``tasks.jsonl``.

A :class:`Task` is everything a rollout needs to run and score one episode: the initial state S0
(``None``: the environment's own), the hash of the gold final state S*, the gold calls, the
values the agent must tell the user, the simulated user's scenario and the facts that user
knows, and how it is scored (:class:`EvaluationCriteria`). Task synthesis fills it from a
blueprint (which it keeps, with the difficulty, so tasks can be filtered and audited); a
benchmark import (tau-bench / tau2-bench) fills it from the benchmark's task, without a
blueprint. The rollout, ``serve``, ``bench`` and the RL backends all take this one type.

Scoring contract (for ``autoforge.rollout``): by default an agent succeeds when, starting from
``initial_state``, its episode ends in a state whose ``state_hash`` equals ``final_state_hash``
and every ``required_outputs[i]`` (or one of its alternatives) appears in what it told the
user; ``criteria.reward_basis`` names other checks for imported tau2 tasks.

Schema versions: version 2 is this model. Older files still load (:meth:`Task._migrate`):
version 1 synthesized tasks have the same field names; version 1 hand-written or imported tasks
(the former rollout task record) used ``gold_state_hash`` (now ``final_state_hash``),
``user_known_facts`` (now ``user_facts``), ``criteria.actions`` (now ``gold_calls``),
``criteria.output_alternatives`` (now ``required_outputs[i].alternatives``), a plain-string
``scenario`` (now ``scenario.text``) and a difficulty label (now ``meta["difficulty_level"]``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from autoforge.errors import UserError
from autoforge.tasks.blueprints.blueprint import Blueprint
from autoforge.tasks.difficulty import DifficultyMetrics

TASK_SCHEMA_VERSION = 2

RewardBasis = Literal["DB", "COMMUNICATE", "ACTION", "ENV_ASSERTION", "NL_ASSERTION"]

#: What a task is scored on by default: the final state hash and the required outputs.
DEFAULT_REWARD_BASIS: tuple[RewardBasis, ...] = ("DB", "COMMUNICATE")


class GoldCall(BaseModel):
    """One call of the gold solution, with the arguments it was executed with.

    ``node`` is the blueprint node of a synthesized task (empty for imported tasks);
    ``requestor``, ``action_id`` and ``compare_args`` carry tau2's action fields (the ACTION
    reward basis compares ``compare_args``, all the call's arguments when None).
    """

    node: str = Field(default="", description="blueprint node id (empty: imported task)")
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    writes: bool | None = Field(
        default=None, description="the call changed the state (None: not known)"
    )
    requestor: Literal["assistant", "user"] = "assistant"
    action_id: str | None = None
    compare_args: list[str] | None = None


class RequiredOutput(BaseModel):
    """A value the agent must tell the user (e.g. the result of a read-only reasoning step).

    ``text`` is the canonical rendering to look for in the agent's messages; ``alternatives``
    are other acceptable renderings (``19.9`` for ``19.90``). A plain string is read as
    ``{"text": string}`` (imported tasks know only the text).
    """

    node: str = ""
    description: str = ""
    value: Any = None
    text: str
    alternatives: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        return {"text": data} if isinstance(data, str) else data

    def renderings(self) -> list[str]:
        """The text and its alternatives, non-empty ones only."""
        return [t for t in [self.text, *self.alternatives] if t]

    def found_in(self, message: str) -> bool:
        """Whether ``message`` states this value (any rendering, case-insensitive)."""
        haystack = message.lower()
        return any(t.lower() in haystack for t in self.renderings())


class UserScenario(BaseModel):
    """What the simulated user wants and says; carries only user-known facts.

    ``intent``: the goal in one sentence (for the user simulator); ``question``: the request as
    the user would phrase it; ``known_info``: the facts in plain words; ``unknown_info``: what
    the user does not know (the agent must look it up). ``text``: the scenario as one free text
    (a benchmark's user instructions); when set it is what the simulated user plays. A plain
    string is read as ``{"text": string}``.
    """

    intent: str = ""
    question: str = ""
    persona: str | None = None
    known_info: str = ""
    unknown_info: str | None = None
    writer: str = Field(default="template", description="which writer produced the text")
    text: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_text(cls, data: Any) -> Any:
        return {"text": data} if isinstance(data, str) else data

    def as_text(self) -> str:
        """The scenario as the simulated user reads it: ``text``, else the parts in one text."""
        if self.text is not None:
            return self.text
        parts = [f"Your goal: {self.intent}", f"What you ask for: {self.question}"]
        if self.persona:
            parts.append(f"Your persona: {self.persona}")
        if self.known_info:
            parts.append(f"What you know: {self.known_info}")
        if self.unknown_info:
            parts.append(f"What you do not know: {self.unknown_info}")
        return "\n".join(parts)

    def opening(self) -> str:
        """The user's opening request: ``question``, else the whole scenario text."""
        return self.question or self.as_text()


class EnvAssertion(BaseModel):
    """A predicate on the final environment (tau2 ``env_assertions``)."""

    env_type: Literal["assistant", "user"] = "assistant"
    func_name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    assert_value: bool = True
    message: str | None = None


class EvaluationCriteria(BaseModel):
    """How a task is scored beyond its S* hash and required outputs (tau2's reward bases)."""

    model_config = ConfigDict(extra="forbid")

    reward_basis: list[RewardBasis] = Field(default_factory=lambda: list(DEFAULT_REWARD_BASIS))
    env_assertions: list[EnvAssertion] = Field(default_factory=list)
    nl_assertions: list[str] = Field(default_factory=list)
    gold_user_state_hash: str | None = Field(
        default=None, description="hash of the user-side state after the gold (tau2 user DB)"
    )


class Task(BaseModel):
    """One verifiable task of one environment (synthesized or imported)."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = TASK_SCHEMA_VERSION
    id: str
    env_id: str
    domain: str | None = Field(default=None, description="for reports; None: the env_id")
    blueprint: Blueprint | None = Field(default=None, description="None for imported tasks")
    initial_state: dict[str, Any] | None = Field(
        default=None, description="S0; None: the environment's own initial state"
    )
    initial_state_hash: str | None = None
    final_state_hash: str | None = Field(default=None, description="S*; None: no gold state")
    gold_calls: list[GoldCall] = Field(default_factory=list)
    required_outputs: list[RequiredOutput] = Field(default_factory=list)
    scenario: UserScenario
    user_facts: dict[str, Any] = Field(default_factory=dict)
    user_identity: dict[str, Any] = Field(
        default_factory=dict,
        description="who the user is (email, name of the user record in play): known to the "
        "simulated user, not part of the request (tasks.identity)",
    )
    session: dict[str, Any] = Field(
        default_factory=dict,
        description="episode context the agent is given, as an app knows who is signed in: "
        "the session user's key where the docs show one (tasks.knowledge); never said by the "
        "simulated user (see with_session)",
    )
    criteria: EvaluationCriteria = Field(default_factory=EvaluationCriteria)
    difficulty: DifficultyMetrics = Field(
        default_factory=DifficultyMetrics,
        description="measured on the blueprint (nothing measured without one)",
    )
    seed: int = 0
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _migrate(cls, data: Any) -> Any:
        """Version 1 records (either former shape) as version 2; see the module docstring."""
        if not isinstance(data, dict) or data.get("schema_version", 1) >= TASK_SCHEMA_VERSION:
            return data
        return migrate_v1(data)

    @property
    def changes_state(self) -> bool:
        """Whether the gold trajectory changes the state (S* != S0)."""
        return self.final_state_hash != self.initial_state_hash

    def known_facts(self) -> dict[str, str]:
        """What the simulated user knows, as text: the user facts, plus who the user is
        (``user_identity``) where the facts do not already say it."""
        facts = {k: _fact_text(v) for k, v in self.user_facts.items()}
        for key, value in self.user_identity.items():
            facts.setdefault(key, _fact_text(value))
        return facts

    def with_session(self, policy: str) -> str:
        """The agent's system text for this task: ``policy``, then the session context (who
        is signed in) when the task has one. Every episode runner builds the agent's system
        message through this, so the session reaches the agent in rollouts, eval and
        training alike."""
        if not self.session:
            return policy
        lines = "\n".join(f"- {k}: {_fact_text(v)}" for k, v in self.session.items())
        block = f"# Session\nThe user in this conversation is signed in as:\n{lines}"
        return f"{policy.rstrip()}\n\n{block}" if policy.strip() else block

    def difficulty_level(self) -> str | None:
        """The preset level the difficulty metrics meet (synthesized tasks: they have a
        blueprint to measure); else a version 1 label; else None."""
        if self.blueprint is not None:
            return self.difficulty.level()
        label = self.meta.get("difficulty_level")
        return str(label) if label is not None else None

    def missing_outputs(self, told: str) -> list[RequiredOutput]:
        """The required outputs that ``told`` (everything the agent said) does not state."""
        return [out for out in self.required_outputs if not out.found_in(told)]

    def is_solved(self, final_state_hash: str, told: str) -> bool:
        """The verifiable success check: S* reached and every required value told the user."""
        return final_state_hash == self.final_state_hash and not self.missing_outputs(told)


def _fact_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)


#: Version 1 field names of the former rollout task record -> version 2 names.
V1_RENAMES = {"gold_state_hash": "final_state_hash", "user_known_facts": "user_facts"}


def migrate_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version 1 task record (synthesized, or the former rollout record) as version 2."""
    out = {V1_RENAMES.get(k, k): v for k, v in data.items()}
    out["schema_version"] = TASK_SCHEMA_VERSION
    criteria = out.get("criteria")
    if criteria is None and "criteria" in out:
        del out["criteria"]
    elif isinstance(criteria, dict):
        criteria = dict(criteria)
        actions = criteria.pop("actions", None)
        if actions and not out.get("gold_calls"):
            out["gold_calls"] = actions
        alternatives = criteria.pop("output_alternatives", None) or {}
        out["required_outputs"] = [
            _output_v1(o, alternatives) for o in out.get("required_outputs") or []
        ]
        out["criteria"] = criteria
    difficulty = out.pop("difficulty", None)
    if isinstance(difficulty, str):
        out["meta"] = {**(out.get("meta") or {}), "difficulty_level": difficulty}
    elif difficulty is not None:
        out["difficulty"] = difficulty
    return out


def _output_v1(output: Any, alternatives: dict[str, list[str]]) -> Any:
    if isinstance(output, str) and alternatives.get(output):
        return {"text": output, "alternatives": list(alternatives[output])}
    return output


class TaskSetError(UserError):
    """A ``tasks.jsonl`` file is missing or a line could not be read as a task."""


def read_tasks(path: str | Path) -> list[Task]:
    """Every task of a ``tasks.jsonl`` file, any schema version.

    A last line without its newline (a write cut short) is ignored, so a crashed generation
    run's file still reads. A missing file, a line that is not JSON or not a task raises
    :class:`TaskSetError` naming ``file:line`` and what is wrong there.
    """
    path = Path(path)
    if not path.is_file():
        raise TaskSetError(f"tasks file not found: {path}")
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    if not text.endswith("\n"):
        lines = lines[:-1]  # unterminated last line: an interrupted write
    return [
        _parse_line(path, number, line)
        for number, line in enumerate(lines, start=1)
        if line.strip()
    ]


def _parse_line(path: Path, number: int, line: str) -> Task:
    try:
        return Task.model_validate(json.loads(line))
    except json.JSONDecodeError as exc:
        raise TaskSetError(f"{path}:{number}: not JSON: {exc.msg}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise TaskSetError(f"{path}:{number}: {where}: {first['msg']}") from None


class TaskSet:
    """An append-only JSONL file of tasks, one per line; resumable after an interruption.

    Read with :func:`read_tasks` (a cut-off last line is ignored); the cut-off line is dropped
    before the next append, so a crashed generation run can continue where it stopped.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def __iter__(self) -> Iterator[Task]:
        if not self.path.exists():
            return iter(())
        return iter(read_tasks(self.path))

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
