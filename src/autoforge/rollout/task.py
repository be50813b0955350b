"""What a rollout needs from a task, as a Protocol, plus a plain concrete task model.

A task synthesized by ``autoforge.tasks`` and a task imported from tau-bench / tau2-bench both
fit :class:`RolloutTask`: an id, the environment it runs in, the user's scenario and the facts the
simulated user may reveal, the initial state (``None``: the environment's own), the hash of the
gold final state S* and the outputs the agent must say. Anything richer (tau2 reward bases, gold
actions, environment assertions) travels in the optional :class:`EvaluationCriteria`, read with
:func:`task_criteria`, so the protocol stays small.
"""

from __future__ import annotations

import json
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
    writes: bool | None = Field(
        default=None, description="the call changes the state (None: not known)"
    )


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
    output_alternatives: dict[str, list[str]] = Field(
        default_factory=dict, description="other accepted renderings of a required output"
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


def _fact_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)


def scenario_text(scenario: Any) -> str:
    """The user's scenario as one text, from a string or an ``autoforge.tasks`` UserScenario."""
    if isinstance(scenario, str):
        return scenario
    parts = [
        f"Your goal: {getattr(scenario, 'intent', '')}",
        f"What you ask for: {getattr(scenario, 'question', '')}",
    ]
    if getattr(scenario, "persona", None):
        parts.append(f"Your persona: {scenario.persona}")
    if getattr(scenario, "known_info", ""):
        parts.append(f"What you know: {scenario.known_info}")
    if getattr(scenario, "unknown_info", None):
        parts.append(f"What you do not know: {scenario.unknown_info}")
    return "\n".join(parts)


def _known_facts(task: Any) -> dict[str, str]:
    """The task's user facts, plus who the user is (``user_identity``: email, name) where the
    facts do not already say it; the identity is known to the user but not in the request."""
    facts = {k: _fact_text(v) for k, v in dict(task.user_facts).items()}
    for key, value in dict(getattr(task, "user_identity", None) or {}).items():
        facts.setdefault(key, _fact_text(value))
    return facts


def from_task_model(task: Any) -> TaskSpec:
    """A :class:`TaskSpec` from an ``autoforge.tasks.model.Task`` (duck-typed, no import).

    Its ``final_state_hash`` is S*; its gold calls (with whether each writes) become the
    criteria's actions; its required outputs keep their alternatives; its difficulty is the
    preset level its metrics meet.
    """
    outputs = list(getattr(task, "required_outputs", []))
    texts = [o if isinstance(o, str) else str(o.text) for o in outputs]
    alternatives = {
        str(o.text): [str(a) for a in o.alternatives]
        for o in outputs
        if not isinstance(o, str) and getattr(o, "alternatives", None)
    }
    difficulty: Any = getattr(task, "difficulty", None)
    level = difficulty.level() if hasattr(difficulty, "level") else difficulty
    return TaskSpec(
        id=str(task.id),
        env_id=str(task.env_id),
        scenario=scenario_text(task.scenario),
        user_known_facts=_known_facts(task),
        initial_state=dict(task.initial_state) if task.initial_state is not None else None,
        gold_state_hash=str(task.final_state_hash),
        required_outputs=texts,
        domain=str(task.env_id),
        difficulty=str(level) if level is not None else None,
        criteria=EvaluationCriteria(
            output_alternatives=alternatives,
            actions=[
                GoldAction(name=str(c.name), arguments=dict(c.arguments), writes=c.writes)
                for c in getattr(task, "gold_calls", [])
            ],
        ),
    )


def as_rollout_task(task: Any) -> RolloutTask:
    """``task`` itself when it already fits :class:`RolloutTask`, else adapted from the
    ``autoforge.tasks`` model."""
    if isinstance(getattr(task, "scenario", None), str) and hasattr(task, "user_known_facts"):
        return task
    return from_task_model(task)
