"""Token-level episodes in autoforge environments, for training.

One training rollout = :func:`autoforge.rollout.run_episode` (the rollout stage's episode loop,
reward from the verifier, end reasons) with the agent's LLM replaced by a
:class:`~autoforge.rl.policy.TokenAgentClient`, then the MEU judge. The result carries the
exact token trace (agent tokens mask 1; tool results, user turns and template glue mask 0) and
the trajectory with its reward and ``user_error`` verdict.

Trainer-neutral: the TRL and verl backends both play their episodes through
:func:`token_episode`. Users and MEU judges are kinds of the role registry
(:mod:`autoforge.rollout.roles`: ``user scripted|llm``, ``judge llm|rule|faults|none``, the old
spellings ``judge``/``off`` accepted), built by :func:`episode_roles`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel, Field

from autoforge.errors import UserError
from autoforge.llm import LLMConfig
from autoforge.rl.config import DEFAULT_BUDGET, TokenBudget
from autoforge.rl.policy import BatchedGenerator, TokenAgentClient
from autoforge.rl.tokens import ChatCodec, TokenTrace
from autoforge.rollout import (
    Agent,
    EnvBinding,
    EpisodeConfig,
    FaultyUser,
    MEUHook,
    Trajectory,
    UserFactory,
    judge_hooks,
    kind_needs_llm,
    run_episode,
    user_factory,
)
from autoforge.tasks import Task


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


def episode_roles(
    user: str, judge: str, llm: LLMConfig | None, config: EpisodeConfig
) -> tuple[UserFactory, MEUHook | None]:
    """The simulated user and the MEU hook of a training run, by registry kind (the ``user``
    and ``judge`` roles of :mod:`autoforge.rollout.roles`); one LLM client when either needs
    it (built from ``llm``)."""
    client = None
    if kind_needs_llm("user", user) or kind_needs_llm("judge", judge):
        if llm is None:
            raise UserError(
                f"user {user!r} / MEU judge {judge!r} need an LLM: pass llm=LLMConfig(...) "
                "(CLI: the --llm-* options), or use --user scripted --meu faults|off"
            )
        from autoforge.llm import get_client

        client = get_client(llm)
    return user_factory(user, client, config), judge_hooks(judge, client, config).meu


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
