"""What a rollout needs from a task, as a Protocol, plus a plain concrete task model.

A task synthesized by ``autoforge.tasks`` and a task imported from tau-bench / tau2-bench both
fit :class:`RolloutTask`: an id, the environment it runs in, the user's scenario and the facts the
simulated user may reveal, the initial state (``None``: the environment's own), the hash of the
gold final state S* and the outputs the agent must say. Anything richer (tau2 reward bases, gold
actions, environment assertions) travels in the optional :class:`EvaluationCriteria`, read with
:func:`task_criteria`, so the protocol stays small.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

RewardBasis = Literal["DB", "COMMUNICATE", "ACTION", "ENV_ASSERTION", "NL_ASSERTION"]

#: What an autoforge task is scored on: the final state hash and the required outputs.
DEFAULT_REWARD_BASIS: tuple[RewardBasis, ...] = ("DB", "COMMUNICATE")


@runtime_checkable
class RolloutTask(Protocol):
    """The task-side interface of a rollout (read-only attributes)."""

    @property
    def id(self) -> str: ...

    @property
    def env_id(self) -> str: ...

    @property
    def scenario(self) -> str:
        """The user's goal and situation, in the user's words (what the simulated user plays)."""
        ...

    @property
    def user_known_facts(self) -> Mapping[str, str]:
        """Facts the user may reveal when asked (name -> value)."""
        ...

    @property
    def initial_state(self) -> Mapping[str, Any] | None:
        """The state the episode starts from; ``None`` means the environment's initial state."""
        ...

    @property
    def gold_state_hash(self) -> str | None:
        """Hash of S*, the state after the gold solution; ``None`` when the task has none."""
        ...

    @property
    def required_outputs(self) -> Sequence[str]:
        """Strings the agent must say (tau-bench ``outputs`` / tau2 ``communicate_info``)."""
        ...


class GoldAction(BaseModel):
    """A tool call the gold solution makes (tau2 ``evaluation_criteria.actions``)."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    requestor: Literal["assistant", "user"] = "assistant"
    action_id: str | None = None
    compare_args: list[str] | None = None


class EnvAssertion(BaseModel):
    """A predicate on the final environment (tau2 ``env_assertions``)."""

    env_type: Literal["assistant", "user"] = "assistant"
    func_name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    assert_value: bool = True
    message: str | None = None


class EvaluationCriteria(BaseModel):
    """How a task is scored beyond the defaults; mirrors tau2's ``evaluation_criteria``."""

    reward_basis: list[RewardBasis] = Field(default_factory=lambda: list(DEFAULT_REWARD_BASIS))
    actions: list[GoldAction] = Field(default_factory=list)
    env_assertions: list[EnvAssertion] = Field(default_factory=list)
    nl_assertions: list[str] = Field(default_factory=list)
    gold_user_state_hash: str | None = Field(
        default=None, description="hash of the user-side state after the gold (tau2 user DB)"
    )


class TaskSpec(BaseModel):
    """A concrete :class:`RolloutTask` (tests, adapters, hand-written tasks)."""

    model_config = ConfigDict(frozen=True)

    schema_version: int = 1
    id: str
    env_id: str
    scenario: str
    user_known_facts: dict[str, str] = Field(default_factory=dict)
    initial_state: dict[str, Any] | None = None
    gold_state_hash: str | None = None
    required_outputs: list[str] = Field(default_factory=list)
    domain: str | None = None
    difficulty: str | None = None
    criteria: EvaluationCriteria | None = None


def task_criteria(task: RolloutTask) -> EvaluationCriteria:
    """The task's evaluation criteria, or the defaults (DB + COMMUNICATE)."""
    criteria = getattr(task, "criteria", None)
    return criteria if isinstance(criteria, EvaluationCriteria) else EvaluationCriteria()


def task_domain(task: RolloutTask) -> str:
    """The task's domain for reports: its ``domain`` attribute, else its ``env_id``."""
    domain = getattr(task, "domain", None)
    return str(domain) if domain else task.env_id


def task_difficulty(task: RolloutTask) -> str | None:
    """The task's difficulty label when it has one."""
    difficulty = getattr(task, "difficulty", None)
    return str(difficulty) if difficulty is not None else None
