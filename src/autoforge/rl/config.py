"""``ERPOConfig``: the knobs of ERPO training, including the ablation switches.

The three algorithmic switches map onto the pure functions of this package:

* ``env_level_std`` -- divide by the environment's pooled std (ERPO) or the task's own (GRPO):
  ``compute_advantages(..., method=config.method)``.
* ``mask_user_errors`` -- MEU: rollouts the judge flags as user errors leave the means, stds and
  loss: ``compute_advantages(..., mask_user_errors=...)`` and the loss's ``rollout_mask``.
* ``dynamic_sampling`` -- drop zero-variance task groups and refill:
  ``DynamicSampler(enabled=...)``.
* ``std_pool`` -- which rollouts the environment std is pooled over when dynamic sampling is on:
  the groups kept for the update (``"kept"``, the default) or every group generated for the step,
  the dropped flat ones included (``"generated"``). The paper does not say; flat groups add no
  within-task spread but do add between-task spread, so ``"generated"`` gives a larger scale
  (smaller advantages) whenever tasks of one environment differ in difficulty.

``keep_thinking`` is a rollout switch, not an RL one, so it lives in the episode settings
(``autoforge.rollout.EpisodeConfig.agent.keep_thinking``): whether the agent's reasoning from
earlier turns stays in its context on later turns (True: the exact sampled tokens) or is stripped
(False: the history is re-rendered without it, the chat-template default of many reasoning
models).

:class:`TokenBudget` is the one place the token budgets of training episodes come from (TRL
episodes, the verl agent loop and launch files, the CLI); its defaults are sized for thinking
models, whose single turns often run past a thousand tokens.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from autoforge.rl.advantages import Method
from autoforge.rl.loss import LossAgg

ERPO_CONFIG_SCHEMA_VERSION = 1

StdPool = Literal["kept", "generated"]
STD_POOLS: tuple[StdPool, ...] = ("kept", "generated")


class TokenBudget(BaseModel):
    """Token budgets of one training episode, shared by both backends and the CLI.

    ``turn``: tokens one agent turn may sample (reasoning included); ``episode``: tokens scored
    per episode after the prompt (agent turns plus tool results and user turns); ``prompt``:
    the first prompt (system policy, tools, first user turn), for verl's ``max_prompt_length``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    turn: int = Field(4096, ge=1, description="tokens per agent turn, reasoning included")
    episode: int = Field(16384, ge=8, description="completion tokens per episode")
    prompt: int = Field(6144, ge=64, description="first-prompt tokens (verl)")


DEFAULT_BUDGET = TokenBudget.model_validate({})


class ERPOConfig(BaseModel):
    """ERPO hyper-parameters and ablation switches (all defaults = full ERPO)."""

    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    env_level_std: bool = Field(True, description="ERPO scale per environment; False = GRPO")
    mask_user_errors: bool = Field(True, description="MEU: drop user-error rollouts")
    dynamic_sampling: bool = Field(True, description="DAPO: drop zero-variance groups, refill")
    group_size: int = Field(8, ge=2, description="rollouts per task")
    tasks_per_batch: int = Field(32, ge=1, description="task groups per training step")
    max_sampling_rounds: int = Field(3, ge=1, description="generation rounds per step (DAPO)")
    eps: float = Field(1e-6, ge=0.0, description="added to the std in the advantage")
    clip_eps_low: float = Field(0.2, ge=0.0, lt=1.0)
    clip_eps_high: float | None = Field(
        None, ge=0.0, description="clip-higher (DAPO uses 0.28); None = clip_eps_low"
    )
    kl_beta: float = Field(0.0, ge=0.0, description="weight of the k3 KL to the reference")
    std_pool: StdPool = Field(
        "kept", description="env std over the kept groups or every generated group"
    )
    loss_agg: LossAgg = "token"

    @property
    def method(self) -> Method:
        """``"erpo"`` or ``"grpo"``, for :func:`autoforge.rl.compute_advantages`."""
        return "erpo" if self.env_level_std else "grpo"
