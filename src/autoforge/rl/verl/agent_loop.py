"""``autoforge_agent``: a verl agent loop that plays autoforge episodes.

verl instantiates the class once per rollout with its own arguments plus the keys of our entry
in the agent-loop YAML (``tasks``, ``env_dirs``, ``user``, ``meu``, ...: see
:class:`~autoforge.rl.verl.episode.AgentLoopSettings`); the episode itself is
:func:`~autoforge.rl.verl.episode.verl_episode`. Importing this module registers the loop.
"""

from __future__ import annotations

from typing import Any

from verl.experimental.agent_loop.agent_loop import (
    AgentLoopBase,
    AgentLoopMetrics,
    AgentLoopOutput,
    register,
)

from autoforge.rl.verl.episode import context_for, settings_from, verl_episode

AGENT_NAME = "autoforge_agent"


@register(AGENT_NAME)
class AutoforgeAgentLoop(AgentLoopBase):
    """One autoforge episode per ``run``; token-in/token-out against verl's servers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        settings = settings_from(kwargs)
        verl_kwargs = {k: v for k, v in kwargs.items() if k not in type(settings).model_fields}
        verl_kwargs.pop("name", None)
        super().__init__(*args, **verl_kwargs)
        self.settings = settings
        self.response_length = int(self.rollout_config.response_length)

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        ctx = context_for(self.settings)
        seed = int(kwargs.get("index", 0) or 0)
        out = await verl_episode(
            ctx, self.server_manager, self.tokenizer, sampling_params, self.response_length,
            kwargs, seed=seed,
        )  # fmt: skip
        return AgentLoopOutput(
            prompt_ids=out.prompt_ids,
            response_ids=out.response_ids,
            response_mask=out.response_mask,
            response_logprobs=out.response_logprobs,
            reward_score=out.reward_score,
            num_turns=out.num_turns,
            metrics=AgentLoopMetrics(),
            extra_fields=out.extra_fields,
        )
