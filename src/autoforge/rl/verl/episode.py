"""The episode logic of the verl agent loop, without verl: testable with a fake server.

:func:`verl_episode` plays one autoforge episode (the TRL backend's
:func:`~autoforge.rl.episode.token_episode`: rollout-stage loop, simulated user, verifier
reward, MEU judge) with verl's inference server as the policy, token-in/token-out, and returns
the fields of verl's ``AgentLoopOutput``. The response mask covers the agent's tokens only; for an
excluded rollout (infrastructure error, or the user blamed by the MEU judge) it is all zeros, which
is how the ``erpo`` estimator and the loss learn to leave it out.

:class:`EpisodeContext` holds the environments and tasks of a run; one per worker process
(:func:`context_for` caches it), because verl builds a new agent-loop object per episode.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, Field

from autoforge.env import Environment
from autoforge.llm import LLMConfig
from autoforge.rl.config import DEFAULT_BUDGET, TokenBudget
from autoforge.rl.episode import EpisodeDeps, TokenEpisodeConfig, episode_roles, token_episode
from autoforge.rl.policy import eos_ids
from autoforge.rl.tokens import ChatCodec
from autoforge.rollout import EpisodeConfig, bind_environment, kind_field
from autoforge.tasks import Task

_CONTEXTS: dict[str, EpisodeContext] = {}


class AgentLoopSettings(BaseModel):
    """What the agent-loop YAML entry passes (besides verl's own arguments)."""

    tasks: list[str] = Field(description="tasks.jsonl files")
    env_dirs: list[str] = Field(description="environment directories")
    user: Annotated[str, kind_field("user")] = "llm"
    meu: Annotated[str, kind_field("judge")] = "judge"
    mask_user_errors: bool = True
    max_turn_tokens: int = Field(default=DEFAULT_BUDGET.turn, ge=1)
    episode: EpisodeConfig = Field(default_factory=EpisodeConfig)
    llm: LLMConfig = Field(
        default_factory=LLMConfig,
        description="endpoints of the user simulator and the judge (no base URL: embedded)",
    )


@dataclass
class EpisodeContext:
    """Environments, tasks and LLM hooks shared by the episodes of one worker."""

    settings: AgentLoopSettings
    envs: dict[str, Environment]
    pool: dict[str, Task]
    users: Any
    meu: Any
    codecs: dict[int, ChatCodec] = field(default_factory=dict)

    @classmethod
    def load(cls, settings: AgentLoopSettings) -> EpisodeContext:
        from autoforge.rl.trl import TRLRunConfig, load_environments, load_task_pool

        envs = load_environments(settings.env_dirs)
        probe = TRLRunConfig.model_validate(
            {"env_dirs": settings.env_dirs, "tasks": settings.tasks, "output_dir": "-",
             "erpo": {"tasks_per_batch": 1}}
        )  # fmt: skip
        pool = load_task_pool(probe, envs)
        users, meu = episode_roles(settings.user, settings.meu, settings.llm, settings.episode)
        return cls(settings, envs, pool, users, meu)

    def codec(self, tokenizer: Any) -> ChatCodec:
        """One codec per tokenizer object."""
        key = id(tokenizer)
        if key not in self.codecs:
            self.codecs[key] = ChatCodec(tokenizer)
        return self.codecs[key]


def context_for(settings: AgentLoopSettings) -> EpisodeContext:
    """The cached context of these settings in this process."""
    key = settings.model_dump_json()
    if key not in _CONTEXTS:
        _CONTEXTS[key] = EpisodeContext.load(settings)
    return _CONTEXTS[key]


class ServerGenerator:
    """The ``BatchedGenerator`` interface over verl's ``LLMServerClient.generate``."""

    def __init__(self, server: Any, sampling_params: dict[str, Any], eos_ids: set[int]) -> None:
        self.server = server
        self.sampling_params = dict(sampling_params)
        self.eos_ids = set(eos_ids)
        self.request_id = uuid.uuid4().hex  # sticky: one server per episode (prefix cache)
        self.calls = 0

    async def generate(self, ids: list[int], max_new_tokens: int) -> tuple[list[int], list[float]]:
        """New token ids (through the first EOS) and their log-probs (0.0 when not returned)."""
        params = {**self.sampling_params, "max_tokens": max(1, max_new_tokens)}
        out = await self.server.generate(
            request_id=self.request_id, prompt_ids=list(ids), sampling_params=params
        )
        self.calls += 1
        tokens = list(out.token_ids)[:max_new_tokens]
        logps = list(out.log_probs) if out.log_probs else [0.0] * len(tokens)
        for i, t in enumerate(tokens):
            if t in self.eos_ids:
                tokens = tokens[: i + 1]
                break
        return tokens, [float(x) for x in logps[: len(tokens)]]


@dataclass
class EpisodeOutput:
    """The fields of verl's ``AgentLoopOutput`` that an autoforge episode fills."""

    prompt_ids: list[int]
    response_ids: list[int]
    response_mask: list[int]
    response_logprobs: list[float]
    reward_score: float
    num_turns: int
    extra_fields: dict[str, Any]


def task_key(kwargs: dict[str, Any]) -> str:
    """The task id of a dataset row (top-level ``task_id``, else ``extra_info.task_id``)."""
    if kwargs.get("task_id"):
        return str(kwargs["task_id"])
    info = kwargs.get("extra_info") or {}
    if info.get("task_id"):
        return str(info["task_id"])
    raise KeyError("dataset row has no task_id (export tasks with autoforge's parquet export)")


async def verl_episode(
    ctx: EpisodeContext,
    server: Any,
    tokenizer: Any,
    sampling_params: dict[str, Any],
    response_length: int,
    row: dict[str, Any],
    seed: int = 0,
) -> EpisodeOutput:
    """Play the row's task once against ``server``; the verl output fields."""
    codec = ctx.codec(tokenizer)
    generator = ServerGenerator(server, sampling_params, eos_ids(tokenizer))
    deps = EpisodeDeps(
        generator,  # type: ignore[arg-type]
        codec,
        lambda task: bind_environment(ctx.envs[task.env_id], task),
        ctx.users,
        ctx.meu,
    )
    s = ctx.settings
    budget = TokenBudget(
        turn=s.max_turn_tokens, episode=response_length, prompt=DEFAULT_BUDGET.prompt
    )
    config = TokenEpisodeConfig(episode=s.episode, budget=budget)
    out = await token_episode(ctx.pool[task_key(row)], seed, deps, config)
    excluded = out.reward is None or (s.mask_user_errors and out.user_error)
    trace = out.trace
    n = min(len(trace.completion_ids), response_length)
    mask = [0] * n if excluded else trace.mask[:n]
    traj = out.trajectory
    return EpisodeOutput(
        prompt_ids=list(trace.prompt_ids),
        response_ids=trace.completion_ids[:n],
        response_mask=mask,
        response_logprobs=trace.logprobs[:n],
        reward_score=float(out.reward or 0.0),
        num_turns=generator.calls + traj.n_user_turns + len(traj.tool_calls),
        extra_fields={
            "env_id": out.env_id, "task_id": out.task_id, "user_error": out.user_error,
            "excluded": excluded, "end_reason": traj.end_reason.value,
            "reward_reason": traj.reward_reason,
        },
    )  # fmt: skip


def settings_from(kwargs: dict[str, Any], keys: Sequence[str] | None = None) -> AgentLoopSettings:
    """The settings among an agent-loop's constructor keyword arguments."""
    names = keys or list(AgentLoopSettings.model_fields)
    return AgentLoopSettings.model_validate({k: _plain(kwargs[k]) for k in names if k in kwargs})


def _plain(value: Any) -> Any:
    """Plain dicts and lists from the mappings and sequences a config loader may pass (the
    nested ``episode`` and ``llm`` sections arrive as such from the agent-loop YAML)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return [_plain(v) for v in value]
    return value
