"""Group-relative advantages: GRPO (per-task scale) and ERPO (per-environment scale).

For task ``i`` with valid rollouts ``j = 1..M_i`` in environment ``e(i)``, within one batch:

* GRPO: ``A_ij = (R_ij - mean_j R_ij) / (std_j R_ij + eps)``
* ERPO: ``A_ij = (R_ij - mean_j R_ij) / (std{R_i'j' : e(i') = e(i)} + eps)``

The numerator is always centred per task; ERPO only pools the *scale* over every valid rollout of
every task of the same environment in the batch. "std" is the Bessel-corrected sample std (what
``torch.std`` computes in TRL and verl GRPO); a group with a single valid rollout has std 0.

MEU masking: rollouts flagged ``user_error`` (the simulated user, not the agent, broke the episode)
are left out of every mean and std and get advantage 0; the loss leaves them out too.

Everything is vectorised with ``np.unique`` + ``np.bincount``: 10^5 rollouts take milliseconds.
Why it is written this way, and which invariants hold, is in ``docs/erpo.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

Method = Literal["erpo", "grpo"]
METHODS: tuple[Method, ...] = ("erpo", "grpo")

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]


@dataclass(frozen=True)
class GroupStats:
    """Per-group statistics of the valid values: count, mean and Bessel-corrected std."""

    count: FloatArray
    mean: FloatArray
    std: FloatArray


@dataclass(frozen=True)
class AdvantageBreakdown:
    """Advantages with the pieces they were made of (for logging and tests).

    ``baseline`` and ``scale`` are per rollout: the task mean subtracted and the std divided by
    (before ``eps``); both are 0 for masked rollouts.
    """

    advantages: FloatArray
    valid: BoolArray
    baseline: FloatArray
    scale: FloatArray


def encode_ids(ids: Sequence[Any] | ArrayLike, n: int, name: str) -> IntArray:
    """Dense integer codes ``0..G-1`` for a flat sequence of ids (str, int, tuples, any hashable).

    A 1-D NumPy array goes through ``np.unique``; any other sequence through a dict, in order of
    first appearance (so ``1`` and ``"1"`` stay distinct ids). ``ValueError`` unless length ``n``.
    """
    if isinstance(ids, np.ndarray):
        if ids.ndim != 1 or ids.shape[0] != n:
            raise ValueError(f"{name} must be flat with length {n}, got shape {ids.shape}")
        try:
            return np.asarray(np.unique(ids, return_inverse=True)[1], dtype=np.intp).reshape(-1)
        except TypeError:  # an object array of incomparable ids
            ids = ids.tolist()
    items = list(ids)  # type: ignore[arg-type]
    if len(items) != n:
        raise ValueError(f"{name} must be flat with length {n}, got {len(items)} ids")
    mapping: dict[Any, int] = {}
    try:
        return np.fromiter((mapping.setdefault(x, len(mapping)) for x in items), np.intp, n)
    except TypeError as exc:
        raise ValueError(f"{name} must be hashable: {exc}") from exc


def group_stats(values: FloatArray, codes: IntArray, valid: BoolArray, n_groups: int) -> GroupStats:
    """Count, mean and sample std (ddof=1) of ``values[valid]`` per group code.

    Values are shifted by one valid member of their group before summing (the "shifted data"
    algorithm): a constant group then gives exactly 0 deviations and std 0, with no rounding
    residue, and large offsets lose no precision. Masked values never enter, even NaN ones.
    """
    w = valid.astype(np.float64)
    ref = np.zeros(n_groups)
    ref[codes[valid]] = values[valid]
    shifted = np.where(valid, values - ref[codes], 0.0)
    count = np.asarray(np.bincount(codes, weights=w, minlength=n_groups), dtype=np.float64)
    total = np.bincount(codes, weights=shifted, minlength=n_groups)
    mean_shift = np.divide(total, count, out=np.zeros(n_groups), where=count > 0)
    dev = np.where(valid, shifted - mean_shift[codes], 0.0)
    ss = np.bincount(codes, weights=dev * dev, minlength=n_groups)
    var = np.divide(ss, count - 1.0, out=np.zeros(n_groups), where=count > 1)
    return GroupStats(count=count, mean=mean_shift + ref, std=np.sqrt(var))


def _valid_mask(
    rewards: FloatArray, user_error: ArrayLike | None, mask_user_errors: bool
) -> BoolArray:
    """Which rollouts count: all of them, or those not flagged as user errors."""
    n = rewards.shape[0]
    if user_error is None or not mask_user_errors:
        valid = np.ones(n, dtype=bool)
    else:
        flags = np.asarray(user_error, dtype=bool)
        if flags.shape != (n,):
            raise ValueError(f"user_error must have length {n}, got shape {flags.shape}")
        valid = ~flags
    if not np.all(np.isfinite(rewards[valid])):
        raise ValueError("rewards of valid (unmasked) rollouts must be finite")
    return valid


def _check_task_env(task_codes: IntArray, env_codes: IntArray, n_tasks: int) -> None:
    """Raise ``ValueError`` when one task id appears under two environment ids."""
    env_of_task = np.full(n_tasks, -1, dtype=np.intp)
    env_of_task[task_codes] = env_codes
    if not np.array_equal(env_of_task[task_codes], env_codes):
        raise ValueError("a task id appears with more than one env id")


def advantage_breakdown(
    rewards: ArrayLike,
    task_ids: Sequence[Any] | ArrayLike,
    env_ids: Sequence[Any] | ArrayLike | None,
    user_error: ArrayLike | None = None,
    method: Method = "erpo",
    eps: float = 1e-6,
    *,
    mask_user_errors: bool = True,
) -> AdvantageBreakdown:
    """Like :func:`compute_advantages`, but also returns the valid mask, baselines and scales."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if eps < 0:
        raise ValueError(f"eps must be >= 0, got {eps}")
    r = np.asarray(rewards, dtype=np.float64)
    if r.ndim != 1:
        raise ValueError(f"rewards must be a flat sequence, got shape {r.shape}")
    n = r.shape[0]
    valid = _valid_mask(r, user_error, mask_user_errors)
    task_codes = encode_ids(task_ids, n, "task_ids")
    n_tasks = int(task_codes.max()) + 1 if n else 0
    tasks = group_stats(r, task_codes, valid, n_tasks)
    if method == "grpo":
        scale = tasks.std[task_codes]
    else:
        if env_ids is None:
            raise ValueError("method='erpo' needs env_ids")
        env_codes = encode_ids(env_ids, n, "env_ids")
        _check_task_env(task_codes, env_codes, n_tasks)
        n_envs = int(env_codes.max()) + 1 if n else 0
        scale = group_stats(r, env_codes, valid, n_envs).std[env_codes]
    baseline = tasks.mean[task_codes]
    centred = np.where(valid, r - baseline, 0.0)
    adv = centred / (scale + eps) if eps > 0 else _safe_divide(centred, scale)
    return AdvantageBreakdown(
        advantages=np.where(valid, adv, 0.0),
        valid=valid,
        baseline=np.where(valid, baseline, 0.0),
        scale=np.where(valid, scale, 0.0),
    )


def _safe_divide(num: FloatArray, den: FloatArray) -> FloatArray:
    """``num / den`` with 0 where ``den`` is 0 (used when ``eps == 0``)."""
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0)


def compute_advantages(
    rewards: ArrayLike,
    task_ids: Sequence[Any] | ArrayLike,
    env_ids: Sequence[Any] | ArrayLike | None,
    user_error: ArrayLike | None = None,
    method: Method = "erpo",
    eps: float = 1e-6,
    *,
    mask_user_errors: bool = True,
) -> FloatArray:
    """Per-rollout advantages for one training batch, from flat per-rollout sequences.

    ``rewards[k]``, ``task_ids[k]``, ``env_ids[k]`` and ``user_error[k]`` describe rollout ``k``.
    ``method="erpo"`` divides by the std of the environment's valid rewards in the batch,
    ``method="grpo"`` by the task's own (``env_ids`` may then be None). With
    ``mask_user_errors`` (the default) rollouts flagged ``user_error`` are ignored and get 0;
    with it off the flags are ignored (the "no MEU" ablation). Masked rewards may be anything,
    NaN included. Raises ``ValueError`` on mismatched lengths, non-finite valid rewards, or a
    task id that appears under two environments.

    >>> compute_advantages([1, 0, 1, 1], ["a", "a", "b", "b"], ["e", "e", "e", "e"]).round(3)
    array([ 1., -1.,  0.,  0.])
    """
    return advantage_breakdown(
        rewards, task_ids, env_ids, user_error, method, eps, mask_user_errors=mask_user_errors
    ).advantages
