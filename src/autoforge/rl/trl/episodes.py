"""Token-level episodes in autoforge environments, for training.

One training rollout = :func:`autoforge.rollout.run_episode` (the rollout stage's episode loop,
reward from the verifier, end reasons) with the agent's LLM replaced by a
:class:`~autoforge.rl.trl.policy.TokenAgentClient`, then the MEU judge. The result carries the
exact token trace (agent tokens mask 1; tool results, user turns and template glue mask 0) and
the trajectory with its reward and ``user_error`` verdict.

Users: :func:`scripted_user` (deterministic: the task's question, then its facts, then stop;
for CI and smoke runs) or the rollout stage's LLM user through ``autoforge.llm``. MEU judges:
the LLM judge, the fault oracle (flags exactly the episodes where a ``FaultyUser`` injected a
fault; ground truth for tests), or none.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from autoforge.rl.config import DEFAULT_BUDGET, TokenBudget
from autoforge.rl.trl.policy import BatchedGenerator, TokenAgentClient
from autoforge.rl.trl.tokens import ChatCodec, TokenTrace
from autoforge.rollout import (
    STOP_TOKEN,
    Agent,
    EnvBinding,
    EpisodeConfig,
    FaultyUser,
    ScriptedUser,
    SimulatedUser,
    Trajectory,
    run_episode,
)
from autoforge.tasks import Task

UserKind = Literal["scripted", "llm"]
MEUKind = Literal["judge", "faults", "off"]
MEUHook = Callable[[Task, Trajectory], Awaitable[Any]]
UserFactory = Callable[[Task, int], SimulatedUser]


class TokenEpisodeConfig(BaseModel):
    """A training episode: the rollout's :class:`EpisodeConfig`, unchanged, plus token budgets.

    The agent always plays with native tool calls (the policy samples the chat template's tool
    format) and ``budget.turn`` tokens per turn; every other agent, user and limit setting is
    ``episode``'s, so training plays the episodes ``autoforge eval`` plays.
    """

    episode: EpisodeConfig = Field(default_factory=EpisodeConfig)
    budget: TokenBudget = DEFAULT_BUDGET

    @property
    def max_completion_tokens(self) -> int:
        """Agent + context tokens scored per episode (``budget.episode``)."""
        return self.budget.episode

    @property
    def max_turn_tokens(self) -> int:
        """Tokens one agent turn may sample (``budget.turn``)."""
        return self.budget.turn

    @property
    def keep_thinking(self) -> bool:
        """The agent's interleaved-thinking switch (``episode.agent.keep_thinking``)."""
        return self.episode.agent.keep_thinking


@dataclass
class TokenRollout:
    """One finished training episode: its tokens and its scored trajectory."""

    task_id: str
    env_id: str
    trace: TokenTrace
    trajectory: Trajectory

    @property
    def reward(self) -> float | None:
        """The verifier's reward; None for infrastructure errors (excluded)."""
        return None if self.trajectory.is_infra_error else self.trajectory.reward

    @property
    def user_error(self) -> bool:
        """The MEU judge flagged the simulated user (unset counts as no)."""
        return bool(self.trajectory.user_error)


def scripted_turns(task: Task) -> list[str]:
    """The scripted user's turns: the question, then every known fact, then the stop token."""
    facts = task.user_facts
    turns = [task.scenario.opening()]
    if facts:
        parts = [f"{k}: {v if isinstance(v, str) else json.dumps(v)}" for k, v in facts.items()]
        turns.append("Here is what I know. " + "; ".join(parts) + ".")
    turns.append(STOP_TOKEN)
    return turns


def scripted_user(task: Task, seed: int) -> SimulatedUser:
    """A :class:`ScriptedUser` playing :func:`scripted_turns` (deterministic, no LLM)."""
    return ScriptedUser(scripted_turns(task))


def llm_user_factory(client: Any) -> UserFactory:
    """The rollout stage's LLM user over ``client`` (role ``user``)."""
    from autoforge.rollout import LLMUser

    def make(task: Task, seed: int) -> SimulatedUser:
        return LLMUser(client, task, seed=seed)

    return make


async def fault_oracle(task: Task, traj: Trajectory) -> None:
    """MEU ground truth: the user erred iff a ``FaultyUser`` injected a fault."""
    traj.user_error = bool(traj.faults)
    traj.user_error_reason = "; ".join(f.detail for f in traj.faults) or "no fault injected"


def meu_hook(kind: MEUKind, client: Any | None = None) -> MEUHook | None:
    """The MEU judge for ``kind`` (``judge`` needs an ``autoforge.llm`` client)."""
    if kind == "off":
        return None
    if kind == "faults":
        return fault_oracle
    if client is None:
        raise ValueError("the MEU judge needs an LLM client")
    from autoforge.rollout import meu_judge

    hook: MEUHook = meu_judge(client)
    return hook


@dataclass
class EpisodeDeps:
    """What every training episode shares."""

    generator: BatchedGenerator
    codec: ChatCodec
    bind: Callable[[Task], EnvBinding]
    user_factory: UserFactory
    meu: MEUHook | None = None


async def token_episode(
    task: Task,
    seed: int,
    deps: EpisodeDeps,
    config: TokenEpisodeConfig,
    trial: int = 0,
) -> TokenRollout:
    """Play one episode of ``task`` with the policy as agent; never raises for agent errors."""
    binding = deps.bind(task)
    client = TokenAgentClient(
        deps.generator, deps.codec, config.max_completion_tokens, config.max_turn_tokens,
        keep_thinking=config.keep_thinking,
    )  # fmt: skip
    agent_cfg = config.episode.agent.model_copy(
        update={"tool_mode": "native", "max_tokens": config.max_turn_tokens}
    )
    agent = Agent(client, policy=binding.policy, tools=binding.tools, config=agent_cfg, seed=seed)
    user = deps.user_factory(task, seed)
    fault_p = config.episode.fault_p
    if fault_p > 0:
        user = FaultyUser(user, task.known_facts(), p=fault_p, seed=seed)
    traj = await run_episode(
        task, agent, user, binding.episode, limits=config.episode.limits, trial=trial, seed=seed,
        assertions=binding.assertions,
    )  # fmt: skip
    if deps.meu is not None and not traj.is_infra_error:
        await deps.meu(task, traj)
    trace = client.trace or TokenTrace(
        prompt_ids=deps.codec.prompt_ids(agent.messages, agent.tools)
    )
    if not trace.completion_ids:  # the episode ended before the agent spoke
        trace.add_context([deps.codec.eos_id])
    traj.meta.update(
        {"agent_tokens": trace.agent_tokens, "truncated": trace.truncated,
         "dropped_agent_tokens": trace.dropped_agent_tokens}
    )  # fmt: skip
    return TokenRollout(task.id, task.env_id, trace, traj)
