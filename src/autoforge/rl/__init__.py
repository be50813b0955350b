"""ERPO: environment-level advantage normalisation, MEU masking, dynamic sampling, PPO-clip loss.

Pure NumPy functions, independent of any trainer; the TRL and verl backends call them. Also
trainer-neutral, imported lazily: the token-level training episode (:mod:`.episode`,
:mod:`.tokens`, :mod:`.policy`) both backends play. See
``docs/erpo.md`` for the formulas, invariants and ablation switches.
"""

from autoforge.rl.advantages import (
    AdvantageBreakdown,
    Method,
    advantage_breakdown,
    compute_advantages,
)
from autoforge.rl.config import DEFAULT_BUDGET, ERPOConfig, TokenBudget
from autoforge.rl.loss import PPOLossOutput, ppo_clip_grad, ppo_clip_loss
from autoforge.rl.sampling import (
    DynamicSampler,
    RolloutGroup,
    SamplingStats,
    flatten_groups,
    group_advantages,
    informative_mask,
    keep_groups,
    sample_batch,
)

__all__ = [
    "DEFAULT_BUDGET",
    "AdvantageBreakdown",
    "BatchedGenerator",
    "ChatCodec",
    "DynamicSampler",
    "ERPOConfig",
    "EpisodeDeps",
    "Method",
    "PPOLossOutput",
    "RolloutGroup",
    "SFTRunConfig",
    "SamplingConfig",
    "SamplingStats",
    "TokenAgentClient",
    "TokenBudget",
    "TokenEpisodeConfig",
    "TokenRollout",
    "TokenTrace",
    "TrainOutcome",
    "TrainRequest",
    "advantage_breakdown",
    "compute_advantages",
    "episode_roles",
    "flatten_groups",
    "group_advantages",
    "informative_mask",
    "keep_groups",
    "ppo_clip_grad",
    "ppo_clip_loss",
    "sample_batch",
    "token_episode",
    "train_sft",
]

# --- the lazy part of the face: each name is also in __all__ and in the TYPE_CHECKING
# imports; tests/architecture/test_faces.py pins __all__ ---
import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

if _TYPE_CHECKING:
    from autoforge.rl.episode import EpisodeDeps as EpisodeDeps
    from autoforge.rl.episode import TokenEpisodeConfig as TokenEpisodeConfig
    from autoforge.rl.episode import TokenRollout as TokenRollout
    from autoforge.rl.episode import episode_roles as episode_roles
    from autoforge.rl.episode import token_episode as token_episode
    from autoforge.rl.policy import BatchedGenerator as BatchedGenerator
    from autoforge.rl.policy import SamplingConfig as SamplingConfig
    from autoforge.rl.policy import TokenAgentClient as TokenAgentClient
    from autoforge.rl.request import TrainOutcome as TrainOutcome
    from autoforge.rl.request import TrainRequest as TrainRequest
    from autoforge.rl.sft import SFTRunConfig as SFTRunConfig
    from autoforge.rl.sft import train_sft as train_sft
    from autoforge.rl.tokens import ChatCodec as ChatCodec
    from autoforge.rl.tokens import TokenTrace as TokenTrace

_LAZY: dict[str, str] = {
    "EpisodeDeps": "autoforge.rl.episode",
    "TokenEpisodeConfig": "autoforge.rl.episode",
    "TokenRollout": "autoforge.rl.episode",
    "episode_roles": "autoforge.rl.episode",
    "token_episode": "autoforge.rl.episode",
    "ChatCodec": "autoforge.rl.tokens",
    "TokenTrace": "autoforge.rl.tokens",
    "BatchedGenerator": "autoforge.rl.policy",
    "SamplingConfig": "autoforge.rl.policy",
    "TokenAgentClient": "autoforge.rl.policy",
    "SFTRunConfig": "autoforge.rl.sft",
    "TrainOutcome": "autoforge.rl.request",
    "TrainRequest": "autoforge.rl.request",
    "train_sft": "autoforge.rl.sft",
}


def __getattr__(name: str) -> _Any:
    """A re-exported name, imported from its module on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(_importlib.import_module(module), name)


# --- end of the lazy part of the face ---
