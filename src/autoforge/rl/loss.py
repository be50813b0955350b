"""The ERPO/GRPO policy loss: PPO-clip on agent tokens, token-level aggregation, optional KL.

Per token ``t`` of rollout ``b`` (``r = exp(logp - old_logp)``, ``A`` the rollout's advantage)::

    loss_bt = -min(r * A, clip(r, 1 - eps_low, 1 + eps_high) * A) + beta * k3_bt
    k3_bt   = exp(ref_logp - logp) - (ref_logp - logp) - 1            (Schulman's k3, >= 0)

Only tokens with ``w_bt = token_mask_bt * rollout_mask_b = 1`` count: the token mask marks what
the agent generated (not tool outputs, user turns or the prompt), the rollout mask drops MEU
rollouts. ``agg="token"`` (DAPO, the default) divides the sum by the number of counted tokens;
``agg="sequence"`` (original GRPO) averages per rollout, then over rollouts with a counted token.

:func:`ppo_clip_loss` is array-library agnostic: it only uses ``xp.exp``, ``xp.clip`` (bounds
passed positionally), ``xp.minimum``, ``*``, ``.sum()`` and ``.sum(-1)``, so ``xp=torch`` runs
the same lines under autograd (the TRL backend passes torch tensors). :func:`ppo_clip_grad` is the
analytic gradient w.r.t. ``logp`` in NumPy, for the CPU simulation and to test the formulas.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any, Literal

import numpy as np

from autoforge.rl.advantages import FloatArray

LossAgg = Literal["token", "sequence"]


@dataclass(frozen=True)
class PPOLossOutput:
    """The scalar loss and diagnostics, as 0-d arrays of the input's library.

    ``clip_fraction``: share of counted tokens where the clipped branch is active (no gradient);
    ``kl``: mean k3 over counted tokens (0 without a reference); ``n_tokens``: counted tokens;
    ``n_rollouts``: rollouts with at least one counted token.
    """

    loss: Any
    clip_fraction: Any
    kl: Any
    n_tokens: Any
    n_rollouts: Any


@dataclass(frozen=True)
class _Terms:
    """Intermediate per-token quantities shared by the loss and its gradient."""

    weight: Any  # (B, T) float: 1 where a token counts
    ratio: Any
    adv: Any  # (B, T) or (B, 1), broadcastable
    surr1: Any
    surr2: Any
    k3: Any  # (B, T) or scalar 0


def _terms(
    logp: Any,
    old_logp: Any,
    advantages: Any,
    token_mask: Any,
    rollout_mask: Any | None,
    eps_low: float,
    eps_high: float | None,
    ref_logp: Any | None,
    xp: Any,
) -> _Terms:
    """Ratios, surrogates, weights and k3 for every token (no reduction)."""
    if not 0.0 <= eps_low < 1.0 or (eps_high is not None and eps_high < 0.0):
        raise ValueError(f"need 0 <= eps_low < 1 and eps_high >= 0, got {eps_low}, {eps_high}")
    weight = token_mask * 1.0
    if rollout_mask is not None:
        weight = weight * (rollout_mask[:, None] * 1.0)
    adv = advantages[:, None] if advantages.ndim == 1 else advantages
    ratio = xp.exp(logp - old_logp)
    high = eps_low if eps_high is None else eps_high
    surr1 = ratio * adv
    surr2 = xp.clip(ratio, 1.0 - eps_low, 1.0 + high) * adv
    k3: Any = 0.0
    if ref_logp is not None:
        delta = ref_logp - logp
        k3 = xp.exp(delta) - delta - 1.0
    return _Terms(weight=weight, ratio=ratio, adv=adv, surr1=surr1, surr2=surr2, k3=k3)


def _aggregate(per_token: Any, weight: Any, agg: LossAgg, xp: Any) -> Any:
    """Token-level: sum / counted tokens. Sequence-level: mean of per-rollout token means."""
    if agg == "token":
        return (per_token * weight).sum() / xp.clip(weight.sum(), 1.0, None)
    if agg == "sequence":
        per_seq = weight.sum(-1)
        seq_mean = (per_token * weight).sum(-1) / xp.clip(per_seq, 1.0, None)
        has = (per_seq > 0) * 1.0
        return (seq_mean * has).sum() / xp.clip(has.sum(), 1.0, None)
    raise ValueError(f"agg must be 'token' or 'sequence', got {agg!r}")


def ppo_clip_loss(
    logp: Any,
    old_logp: Any,
    advantages: Any,
    token_mask: Any,
    *,
    rollout_mask: Any | None = None,
    eps_low: float = 0.2,
    eps_high: float | None = None,
    beta: float = 0.0,
    ref_logp: Any | None = None,
    agg: LossAgg = "token",
    xp: ModuleType | Any = np,
) -> PPOLossOutput:
    """PPO-clip loss over the counted tokens of a batch, to be minimised.

    Shapes: ``logp``, ``old_logp``, ``ref_logp``, ``token_mask``: ``(B, T)`` (padding has mask
    0); ``advantages``: ``(B,)`` (one per rollout, broadcast over its tokens) or ``(B, T)``;
    ``rollout_mask``: ``(B,)``, 0 for MEU-masked rollouts. ``eps_high=None`` means symmetric
    clipping; DAPO's clip-higher uses ``eps_high=0.28``. The KL term needs ``ref_logp`` when
    ``beta > 0``. Masked tokens contribute nothing (their values must still be finite: pad with 0).
    """
    if beta != 0.0 and ref_logp is None:
        raise ValueError("beta > 0 needs ref_logp")
    t = _terms(
        logp, old_logp, advantages, token_mask, rollout_mask, eps_low, eps_high, ref_logp, xp
    )
    per_token = -xp.minimum(t.surr1, t.surr2) + beta * t.k3
    n_tokens = t.weight.sum()
    denom = xp.clip(n_tokens, 1.0, None)
    clipped = (t.surr2 < t.surr1) * 1.0
    return PPOLossOutput(
        loss=_aggregate(per_token, t.weight, agg, xp),
        clip_fraction=(clipped * t.weight).sum() / denom,
        kl=(t.k3 * t.weight).sum() / denom,
        n_tokens=n_tokens,
        n_rollouts=((t.weight.sum(-1) > 0) * 1.0).sum(),
    )


def ppo_clip_grad(
    logp: FloatArray,
    old_logp: FloatArray,
    advantages: FloatArray,
    token_mask: FloatArray,
    *,
    rollout_mask: FloatArray | None = None,
    eps_low: float = 0.2,
    eps_high: float | None = None,
    beta: float = 0.0,
    ref_logp: FloatArray | None = None,
    agg: LossAgg = "token",
) -> FloatArray:
    """Analytic ``d loss / d logp`` of :func:`ppo_clip_loss` (NumPy), shape ``(B, T)``.

    Per token: ``-A * r`` where the unclipped surrogate is the active one of the ``min`` (the
    clipped one is flat in ``logp``), plus ``beta * (1 - exp(ref_logp - logp))`` from k3; then
    the same weights and normalisation as the loss.
    """
    if beta != 0.0 and ref_logp is None:
        raise ValueError("beta > 0 needs ref_logp")
    logp = np.asarray(logp, dtype=np.float64)
    t = _terms(
        logp,
        np.asarray(old_logp, dtype=np.float64),
        np.asarray(advantages, dtype=np.float64),
        np.asarray(token_mask),
        None if rollout_mask is None else np.asarray(rollout_mask),
        eps_low,
        eps_high,
        ref_logp,
        np,
    )
    active = t.surr1 <= t.surr2
    g = np.where(active, -t.adv * t.ratio, 0.0)
    if ref_logp is not None:
        g = g + beta * (1.0 - np.exp(np.asarray(ref_logp) - logp))
    g = g * t.weight
    if agg == "token":
        return np.asarray(g / max(float(t.weight.sum()), 1.0))
    if agg == "sequence":
        per_seq = t.weight.sum(-1)
        n_seq = max(float((per_seq > 0).sum()), 1.0)
        return np.asarray(g / np.maximum(per_seq, 1.0)[:, None] / n_seq)
    raise ValueError(f"agg must be 'token' or 'sequence', got {agg!r}")
