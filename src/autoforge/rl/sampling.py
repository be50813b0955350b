"""Dynamic sampling (DAPO): drop zero-variance task groups and refill the batch.

A task whose valid rollouts all got the same reward (all solved, all failed) has advantage 0 for
every rollout, so it adds no gradient but still dilutes the token-level normalisation. Dynamic
sampling drops such groups and asks the generator for more, until the batch holds the target
number of informative tasks or a cap on generation rounds is hit. Everything here is independent
of any trainer: :func:`informative_mask` works on flat arrays, :func:`keep_groups` on groups, and
:class:`DynamicSampler` accumulates groups round by round. :func:`group_advantages` computes the
advantages of the kept groups with the environment std pooled over the kept groups only or over
every generated group (``ERPOConfig.std_pool``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from autoforge.rl.advantages import (
    BoolArray,
    FloatArray,
    Method,
    compute_advantages,
    encode_ids,
    group_stats,
)


@dataclass(frozen=True)
class RolloutGroup:
    """The rollouts of one task in one generation round.

    ``rewards[j]`` and ``user_error[j]`` (empty = no flags) describe rollout ``j``; ``payload``
    is whatever the trainer needs later (token ids, trajectories); this module never reads it.
    """

    task_id: str
    env_id: str
    rewards: Sequence[float]
    user_error: Sequence[bool] = ()
    payload: Any = None

    def __post_init__(self) -> None:
        if self.user_error and len(self.user_error) != len(self.rewards):
            raise ValueError(
                f"task {self.task_id}: {len(self.user_error)} user_error flags for "
                f"{len(self.rewards)} rewards"
            )

    @property
    def flags(self) -> list[bool]:
        """``user_error`` with the empty default expanded to all False."""
        return list(self.user_error) if self.user_error else [False] * len(self.rewards)


def informative_mask(
    rewards: ArrayLike,
    task_ids: Sequence[Any] | ArrayLike,
    user_error: ArrayLike | None = None,
    *,
    mask_user_errors: bool = True,
    min_valid: int = 2,
    tol: float = 0.0,
) -> BoolArray:
    """Per rollout: does its task have ``>= min_valid`` valid rollouts and reward std ``> tol``?

    The flat-array form of the dynamic-sampling filter. Valid = not flagged ``user_error`` when
    ``mask_user_errors`` (MEU rollouts neither make a task informative nor uninformative).
    """
    r = np.asarray(rewards, dtype=np.float64)
    n = r.shape[0]
    codes = encode_ids(task_ids, n, "task_ids")
    if user_error is None or not mask_user_errors:
        valid = np.ones(n, dtype=bool)
    else:
        valid = ~np.asarray(user_error, dtype=bool)
    r = np.where(valid, r, 0.0)
    stats = group_stats(r, codes, valid, int(codes.max()) + 1 if n else 0)
    keep = (stats.count >= min_valid) & (stats.std > tol)
    return np.asarray(keep[codes], dtype=bool)


def keep_groups(
    groups: Sequence[RolloutGroup],
    *,
    mask_user_errors: bool = True,
    min_valid: int = 2,
    tol: float = 0.0,
) -> list[bool]:
    """For each group, whether dynamic sampling keeps it (see :func:`informative_mask`)."""
    if not groups:
        return []
    sizes = [len(g.rewards) for g in groups]
    codes = np.repeat(np.arange(len(groups)), sizes)
    rewards = np.asarray([r for g in groups for r in g.rewards], dtype=np.float64)
    flags = np.asarray([f for g in groups for f in g.flags], dtype=bool)
    mask = informative_mask(
        rewards, codes, flags, mask_user_errors=mask_user_errors, min_valid=min_valid, tol=tol
    )
    keep = np.zeros(len(groups), dtype=bool)
    keep[codes] = mask
    return [bool(k) for k in keep]


@dataclass
class SamplingStats:
    """What a :class:`DynamicSampler` saw: rounds run, groups and rollouts generated and kept."""

    rounds: int = 0
    groups_seen: int = 0
    groups_kept: int = 0
    dropped_uninformative: int = 0
    dropped_duplicate: int = 0
    rollouts_generated: int = 0


@dataclass
class DynamicSampler:
    """Accumulates informative task groups over generation rounds until ``target_tasks``.

    Call :meth:`add` with each round's groups until :attr:`done`, then take :meth:`batch`.
    ``done`` also turns true after ``max_rounds`` rounds; the batch may then be short
    (:attr:`full` is False), as in DAPO. ``enabled=False`` is the ablation: every group is kept
    and one round is enough. A task id already in the batch is skipped (one group per task).
    """

    target_tasks: int
    max_rounds: int = 3
    enabled: bool = True
    mask_user_errors: bool = True
    min_valid: int = 2
    tol: float = 0.0
    stats: SamplingStats = field(default_factory=SamplingStats, init=False)
    _kept: list[RolloutGroup] = field(default_factory=list, init=False, repr=False)
    _dropped: list[RolloutGroup] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.target_tasks < 1 or self.max_rounds < 1:
            raise ValueError("target_tasks and max_rounds must be >= 1")

    @property
    def full(self) -> bool:
        """The batch holds ``target_tasks`` groups."""
        return len(self._kept) >= self.target_tasks

    @property
    def done(self) -> bool:
        """Stop generating: full, or out of rounds, or (disabled) one round done."""
        return self.full or self.stats.rounds >= (self.max_rounds if self.enabled else 1)

    def add(self, groups: Iterable[RolloutGroup]) -> int:
        """Take one round's groups; returns how many were kept."""
        groups = list(groups)
        self.stats.rounds += 1
        self.stats.groups_seen += len(groups)
        self.stats.rollouts_generated += sum(len(g.rewards) for g in groups)
        keep = self._filter(groups)
        present = {g.task_id for g in self._kept}
        n_kept = 0
        for g, ok in zip(groups, keep, strict=True):
            if not ok:
                self.stats.dropped_uninformative += 1
                self._dropped.append(g)
            elif g.task_id in present:
                self.stats.dropped_duplicate += 1
                self._dropped.append(g)
            else:
                self._kept.append(g)
                present.add(g.task_id)
                n_kept += 1
        self.stats.groups_kept += n_kept
        return n_kept

    def _filter(self, groups: Sequence[RolloutGroup]) -> list[bool]:
        if not self.enabled:
            return [True] * len(groups)
        return keep_groups(
            groups, mask_user_errors=self.mask_user_errors, min_valid=self.min_valid, tol=self.tol
        )

    def batch(self) -> list[RolloutGroup]:
        """The first ``target_tasks`` kept groups (fewer if the rounds ran out)."""
        return self._kept[: self.target_tasks]

    def dropped(self) -> list[RolloutGroup]:
        """Every generated group not in :meth:`batch`: dropped ones and surplus kept ones."""
        return self._dropped + self._kept[self.target_tasks :]

    def reset(self) -> None:
        """Empty the batch and the statistics, for the next training step."""
        self._kept = []
        self._dropped = []
        self.stats = SamplingStats()


def sample_batch(
    generate: Callable[[int], Iterable[RolloutGroup]], sampler: DynamicSampler
) -> list[RolloutGroup]:
    """Call ``generate(round_index)`` until ``sampler.done``; return ``sampler.batch()``."""
    while not sampler.done:
        sampler.add(generate(sampler.stats.rounds))
    return sampler.batch()


def flatten_groups(
    groups: Sequence[RolloutGroup],
) -> tuple[FloatArray, list[str], list[str], BoolArray]:
    """Flat ``(rewards, task_ids, env_ids, user_error)`` for :func:`compute_advantages`."""
    rewards = np.asarray([r for g in groups for r in g.rewards], dtype=np.float64)
    tasks = [g.task_id for g in groups for _ in g.rewards]
    envs = [g.env_id for g in groups for _ in g.rewards]
    flags = np.asarray([f for g in groups for f in g.flags], dtype=bool)
    return rewards, tasks, envs, flags


def group_advantages(
    kept: Sequence[RolloutGroup],
    dropped: Sequence[RolloutGroup] = (),
    *,
    method: Method = "erpo",
    eps: float = 1e-6,
    std_pool: str = "kept",
    mask_user_errors: bool = True,
) -> FloatArray:
    """Advantages of the rollouts of ``kept`` (flat, group after group).

    ``std_pool="kept"``: the environment std is pooled over the kept groups only (what the
    update sees). ``"generated"``: the valid rollouts of ``dropped`` groups (flat groups dynamic
    sampling removed, surplus) enter the environment std too; they get no advantage and never
    enter a kept task's mean (each dropped group is its own task here, even when it repeats a
    kept task's id). ``method="grpo"`` ignores the pool (the scale is per task).
    """
    if std_pool not in ("kept", "generated"):
        raise ValueError(f"std_pool must be 'kept' or 'generated', got {std_pool!r}")
    extra = list(dropped) if std_pool == "generated" and method == "erpo" else []
    rewards, _, envs, flags = flatten_groups([*kept, *extra])
    keys: list[tuple[int, str]] = [(0, g.task_id) for g in kept for _ in g.rewards]
    keys += [(1, str(i)) for i, g in enumerate(extra) for _ in g.rewards]
    adv = compute_advantages(
        rewards, keys, envs, flags, method=method, eps=eps, mask_user_errors=mask_user_errors
    )
    n_kept = sum(len(g.rewards) for g in kept)
    return np.asarray(adv[:n_kept])
