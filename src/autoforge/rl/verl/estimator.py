"""The ERPO advantage estimator for verl, through verl's own registry.

verl calls a registered estimator as ``fn(token_level_rewards, response_mask, config=...,
index=uid, ...)`` and forwards no other per-sample field, so ERPO's two extra inputs travel in
what it does forward:

* **environment id**: inside the ``uid``, as ``<env_id>~<task_id>~<nonce>`` (escaped; written by
  the ``autoforge_erpo`` trainer mode, :mod:`autoforge.rl.verl.trainer`). Rollouts of one prompt
  share the uid, so the uid is still the group key; a uid without the separator counts as its
  own environment ``""`` (plain verl uids: every prompt in one pooled environment, logged).
* **MEU / infrastructure exclusion**: the agent loop zeroes the whole response mask of a rollout
  the judge blamed on the user or that failed for infrastructure reasons. Such a rollout is
  excluded here (out of means and stds, advantage 0) and, having no mask, out of the loss.

The numbers come from :func:`autoforge.rl.compute_advantages`: ``erpo`` divides by the
environment's std, ``erpo_task_std`` (the ablation) by the task's own, with the same exclusions
(verl's ``AlgoConfig`` takes no extra keys, so the switch is the estimator name). Advantages
are broadcast over the response tokens and masked, like verl's GRPO; returns equal them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from autoforge.rl.advantages import Method, compute_advantages

ESTIMATOR_NAME = "erpo"
ABLATION_NAME = "erpo_task_std"
UID_SEP = "~"
_ESCAPES = (("%", "%25"), ("_", "%5F"), ("~", "%7E"))


def _escape(text: str) -> str:
    for raw, code in _ESCAPES:
        text = text.replace(raw, code)
    return text


def _unescape(text: str) -> str:
    for raw, code in reversed(_ESCAPES):
        text = text.replace(code, raw)
    return text


def env_uid(env_id: str, task_id: str, nonce: str) -> str:
    """A verl prompt uid ``<env>~<task>~<nonce>`` that carries its environment and task.

    verl splits its trajectory keys ``<uid>_<session>_<index>`` on ``_``, so the ids are
    escaped (``%`` ``_`` ``~`` as ``%25`` ``%5F`` ``%7E``) and the nonce may hold neither.
    """
    if "_" in nonce or UID_SEP in nonce:
        raise ValueError(f"uid nonce must contain neither '_' nor {UID_SEP!r}: {nonce!r}")
    return f"{_escape(env_id)}{UID_SEP}{_escape(task_id)}{UID_SEP}{nonce}"


def split_uid(uid: Any) -> tuple[str, str]:
    """``(env_id, group key)`` of a uid; ``("", uid)`` for a uid written by plain verl."""
    text = str(uid)
    if UID_SEP not in text:
        return "", text
    return _unescape(text.split(UID_SEP, 1)[0]), text


def erpo_numpy(
    scores: Sequence[float], mask_sizes: Sequence[int], uids: Sequence[Any], method: Method = "erpo"
) -> np.ndarray:
    """Per-rollout advantages from sequence scores, response-mask sizes and uids."""
    envs, groups = zip(*(split_uid(u) for u in uids), strict=True) if len(uids) else ((), ())
    excluded = np.asarray(mask_sizes) == 0
    return compute_advantages(
        np.asarray(scores, dtype=np.float64), list(groups), list(envs), excluded, method=method
    )


def erpo_outcome_advantage(
    token_level_rewards: Any,
    response_mask: Any,
    index: Any = None,
    config: Any = None,
    method: Method = "erpo",
    **kwargs: Any,
) -> tuple[Any, Any]:
    """verl estimator signature: ``(advantages, returns)``, both ``(bs, response_length)``."""
    import torch

    if index is None:
        raise ValueError("the erpo estimator needs the uid index (verl passes it as `index`)")
    scores = token_level_rewards.sum(dim=-1).detach().cpu().float().numpy()
    sizes = response_mask.sum(dim=-1).detach().cpu().numpy()
    adv = erpo_numpy(scores, sizes, list(index), method)
    per_seq = torch.as_tensor(adv, dtype=token_level_rewards.dtype, device=response_mask.device)
    advantages = per_seq.unsqueeze(-1) * response_mask
    return advantages, advantages


def erpo_task_std_advantage(
    token_level_rewards: Any, response_mask: Any, index: Any = None, config: Any = None, **kw: Any
) -> tuple[Any, Any]:
    """The GRPO ablation with ERPO's exclusions: per-task std instead of per-environment."""
    return erpo_outcome_advantage(
        token_level_rewards, response_mask, index, config, method="grpo", **kw
    )


ESTIMATORS = {ESTIMATOR_NAME: erpo_outcome_advantage, ABLATION_NAME: erpo_task_std_advantage}


def register() -> None:
    """Register ``erpo`` and ``erpo_task_std`` in verl's estimator registry (idempotent)."""
    from verl.trainer.ppo.core_algos import ADV_ESTIMATOR_REGISTRY, register_adv_est

    for name, fn in ESTIMATORS.items():
        if ADV_ESTIMATOR_REGISTRY.get(name) is not fn:
            register_adv_est(name)(fn)
