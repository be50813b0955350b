"""The record of one episode: a versioned pydantic model, one JSON line per trajectory.

Everything later stages need lives here: the agent's OpenAI-format messages (what it saw and
said), every tool call with arguments, observation and timing, tokens per role, why the episode
ended, the final state hash, the reward and why, and the MEU judge's user-error verdict. An
LLM endpoint failure is an *infrastructure error* (``infra_error`` set, ``reward`` None): it is
excluded from scores, never counted as a silent zero.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from autoforge.llm import TokenUsage
from autoforge.rollout.thinking import visible_text

TRAJECTORY_SCHEMA_VERSION = 1


class EndReason(StrEnum):
    """Why an episode ended (``USER_INCOMPLETE``: the user stopped, after one nudge, with a
    goal of its checklist still unsaid; see :mod:`autoforge.rollout.goals`)."""

    USER_STOP = "user_stop"
    USER_INCOMPLETE = "user_incomplete"
    AGENT_STOP = "agent_stop"
    TRANSFER = "transfer"
    MAX_TURNS = "max_turns"
    TOOL_ERROR_BUDGET = "tool_error_budget"
    LLM_FAILURE = "llm_failure"
    INTERNAL_ERROR = "internal_error"

    @property
    def is_infra(self) -> bool:
        """Ends that say nothing about the agent (excluded from scores)."""
        return self in (EndReason.LLM_FAILURE, EndReason.INTERNAL_ERROR)

    @property
    def is_natural(self) -> bool:
        """Ends where the conversation finished (tau2 scores only these; others get 0)."""
        return self in (
            EndReason.USER_STOP,
            EndReason.USER_INCOMPLETE,
            EndReason.AGENT_STOP,
            EndReason.TRANSFER,
        )


class ToolCallRecord(BaseModel):
    """One tool call the agent made and what the environment answered."""

    step: int
    call_id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    requestor: str = "assistant"
    ok: bool = True
    observation: str = ""
    error_kind: str | None = None
    duration_s: float = 0.0


class FaultRecord(BaseModel):
    """A fault a ``FaultyUser`` injected: ground truth for validating the judge."""

    kind: str
    turn: int
    detail: str = ""


class RewardInfo(BaseModel):
    """The reward and why: per-basis components (None = could not be evaluated)."""

    reward: float | None
    reason: str
    components: dict[str, float | None] = Field(default_factory=dict)
    details: dict[str, Any] = Field(default_factory=dict)

    @property
    def evaluable(self) -> bool:
        """Whether the reward is known (an unevaluable component can leave it open)."""
        return self.reward is not None


class Trajectory(BaseModel):
    """One episode of agent x user x environment."""

    schema_version: int = TRAJECTORY_SCHEMA_VERSION
    task_id: str
    trial: int = 0
    seed: int | None = None
    env_id: str = ""
    domain: str | None = None
    difficulty: str | None = None
    messages: list[dict[str, Any]] = Field(
        default_factory=list, description="the agent's context, OpenAI format"
    )
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    tokens: dict[str, TokenUsage] = Field(default_factory=dict)
    n_steps: int = 0
    n_user_turns: int = 0
    n_tool_errors: int = 0
    end_reason: EndReason = EndReason.INTERNAL_ERROR
    final_state_hash: str | None = None
    final_user_state_hash: str | None = None
    reward: float | None = None
    reward_reason: str = ""
    reward_components: dict[str, float | None] = Field(default_factory=dict)
    user_error: bool | None = None
    user_error_reason: str = ""
    user_error_evidence: list[str] = Field(default_factory=list)
    faults: list[FaultRecord] = Field(default_factory=list)
    infra_error: str | None = None
    user_prompt_version: str | None = None
    user_notes: list[str] = Field(
        default_factory=list, description="guards that fired on the simulated user's output"
    )
    agent_notes: list[str] = Field(
        default_factory=list, description="guards that fired on the agent's replies (re-asked)"
    )
    started_at: float = 0.0
    duration_s: float = 0.0
    meta: dict[str, Any] = Field(default_factory=dict)

    @property
    def key(self) -> tuple[str, int]:
        """The checkpoint key: (task_id, trial)."""
        return (self.task_id, self.trial)

    @property
    def is_infra_error(self) -> bool:
        """True when the episode says nothing about the agent (excluded from scores)."""
        return self.infra_error is not None or self.end_reason.is_infra

    @property
    def success(self) -> bool:
        """Reward 1 on a valid episode."""
        return not self.is_infra_error and self.reward == 1.0

    def agent_texts(self) -> list[str]:
        """The visible text of every assistant message (what the user read)."""
        return [
            visible_text(m)
            for m in self.messages
            if m.get("role") == "assistant" and isinstance(m.get("content"), str)
        ]

    def agent_repeated(self) -> bool:
        """Whether the agent's last message repeats an earlier one word for word (whitespace
        and case aside): an agent going round in circles."""
        said = [" ".join(t.lower().split()) for t in self.agent_texts() if t.strip()]
        return len(said) > 1 and said[-1] in said[:-1]

    def apply_reward(self, info: RewardInfo) -> None:
        """Store a reward result on the trajectory."""
        self.reward = info.reward
        self.reward_reason = info.reason
        self.reward_components = dict(info.components)
