"""ERPO: environment-level advantage normalisation, MEU masking, dynamic sampling, PPO-clip loss.

Pure NumPy functions, independent of any trainer; the TRL and verl backends call them. See
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
    "DynamicSampler",
    "ERPOConfig",
    "Method",
    "PPOLossOutput",
    "RolloutGroup",
    "SamplingStats",
    "TokenBudget",
    "advantage_breakdown",
    "compute_advantages",
    "flatten_groups",
    "group_advantages",
    "informative_mask",
    "keep_groups",
    "ppo_clip_grad",
    "ppo_clip_loss",
    "sample_batch",
]
