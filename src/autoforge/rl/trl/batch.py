"""One generation step of the TRL backend, trainer-free: dynamic sampling and ERPO advantages.

:func:`sample_step` runs generation rounds through :class:`autoforge.rl.DynamicSampler` (the
first round for the batch's own tasks, later rounds for fresh tasks replacing the uninformative
groups) and returns a :class:`StepBatch` of exactly as many groups as asked: the kept ones, then,
when the rounds ran out, dropped groups as *fillers* (fully excluded: TRL needs fixed shapes,
DAPO would have a short batch). :func:`step_advantages` computes the advantages of a step with
:func:`autoforge.rl.compute_advantages` and the statistics the trainer logs.

A rollout is *excluded* (out of every mean and std, advantage 0, no token in the loss) when it
had an infrastructure error (reward None), when the MEU judge flagged its user and
``mask_user_errors`` is on, or when it belongs to a filler group.

With ``ERPOConfig.std_pool == "generated"`` the environment std also counts the valid rollouts of
every group generated for the step and not kept (:attr:`StepBatch.dropped`, fillers included);
they still get no advantage.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from autoforge.rl.advantages import compute_advantages
from autoforge.rl.config import ERPOConfig
from autoforge.rl.sampling import DynamicSampler, RolloutGroup


class Rollout(Protocol):
    """What a step needs of one rollout (``TokenRollout`` fits)."""

    @property
    def task_id(self) -> str: ...

    @property
    def env_id(self) -> str: ...

    @property
    def reward(self) -> float | None: ...

    @property
    def user_error(self) -> bool: ...


GroupRunner = Callable[[list[str], int], list[list[Any]]]


@dataclass
class StepBatch:
    """One generation step's rollouts, flat, group after group."""

    rollouts: list[Any]
    excluded: list[bool]
    filler: list[bool]
    rounds: int
    groups_dropped: int
    dropped: list[RolloutGroup] = field(default_factory=list)

    def pool_extra(self) -> tuple[list[Any], list[bool]]:
        """Rollouts of the groups not kept, and their exclusion flags (MEU / infrastructure)."""
        rollouts = [r for g in self.dropped for r in g.payload]
        return rollouts, [f for g in self.dropped for f in g.flags]


def make_group(rollouts: Sequence[Rollout], mask_user_errors: bool) -> RolloutGroup:
    """A sampler group whose ``user_error`` flags mark the excluded rollouts."""
    flags = [r.reward is None or (mask_user_errors and r.user_error) for r in rollouts]
    rewards = [0.0 if r.reward is None else float(r.reward) for r in rollouts]
    first = rollouts[0]
    return RolloutGroup(first.task_id, first.env_id, rewards, flags, payload=list(rollouts))


def sample_step(
    task_ids: list[str],
    run_groups: GroupRunner,
    pool: Sequence[str],
    erpo: ERPOConfig,
    rng: random.Random,
) -> StepBatch:
    """Generate ``len(task_ids)`` informative groups if the rounds allow; fill with the rest.

    ``run_groups(ids, round_index)`` returns one list of rollouts per id, in order. Refill
    rounds draw from the ``pool`` tasks not tried yet in this step.
    """
    sampler = DynamicSampler(
        target_tasks=len(task_ids),
        max_rounds=erpo.max_sampling_rounds,
        enabled=erpo.dynamic_sampling,
        mask_user_errors=True,  # the flags already say what is excluded
    )
    seen: list[RolloutGroup] = []
    tried: set[str] = set()
    ids = task_ids
    while ids and not sampler.done:
        groups = [
            make_group(g, erpo.mask_user_errors) for g in run_groups(ids, sampler.stats.rounds)
        ]
        seen.extend(groups)
        sampler.add(groups)
        tried.update(ids)
        ids = _fresh(len(task_ids) - len(sampler.batch()), sampler, sorted(set(pool) - tried), rng)
    kept = sampler.batch()
    kept_ids = {id(g) for g in kept}
    fillers = [g for g in seen if id(g) not in kept_ids][: len(task_ids) - len(kept)]
    batch = StepBatch([], [], [], sampler.stats.rounds, 0)
    for group, is_filler in [(g, False) for g in kept] + [(g, True) for g in fillers]:
        batch.rollouts.extend(group.payload)
        batch.excluded.extend(f or is_filler for f in group.flags)
        batch.filler.extend([is_filler] * len(group.rewards))
    batch.groups_dropped = sampler.stats.dropped_uninformative + sampler.stats.dropped_duplicate
    batch.dropped = [g for g in seen if id(g) not in kept_ids]
    return batch


def _fresh(
    needed: int, sampler: DynamicSampler, pool: Sequence[str], rng: random.Random
) -> list[str]:
    """Up to ``needed`` pool tasks not in the batch yet, drawn at random."""
    if needed <= 0 or sampler.done:
        return []
    present = {g.task_id for g in sampler.batch()}
    free = sorted(set(pool) - present)
    return rng.sample(free, min(needed, len(free)))


def step_advantages(
    rollouts: Sequence[Rollout],
    excluded: Sequence[bool],
    filler: Sequence[bool],
    erpo: ERPOConfig,
    agent_tokens: Sequence[int] = (),
    pool_extra: tuple[Sequence[Rollout], Sequence[bool]] = ((), ()),
) -> tuple[np.ndarray, dict[str, Any]]:
    """Advantages of a whole step (ERPO or GRPO per ``erpo``) and its statistics.

    ``pool_extra``: rollouts of the groups generated but not kept, with their exclusion flags;
    used only with ``erpo.std_pool == "generated"`` (they enter the environment std).
    """
    r = np.asarray([np.nan if x.reward is None else x.reward for x in rollouts], dtype=np.float64)
    ex = np.asarray(excluded, dtype=bool)
    fill = np.asarray(filler, dtype=bool)
    flags = np.asarray([x.user_error for x in rollouts], dtype=bool)
    adv = _advantages(rollouts, ex, erpo, pool_extra)
    valid, scored = ~ex, ~np.isnan(r)
    record: dict[str, Any] = {
        "n_rollouts": len(r),
        "n_valid": int(valid.sum()),
        "n_meu_masked": int((flags & scored & ~fill).sum()) if erpo.mask_user_errors else 0,
        "n_user_error_flags": int(flags.sum()),
        "n_infra_errors": int((~scored).sum()),
        "n_filler_masked": int(fill.sum()),
        "n_excluded": int(ex.sum()),
        "reward_mean": _mean(r[scored]),
        "reward_std": _std(r[scored]),
        "success_rate": _mean((r[scored] == 1.0).astype(float)),
        "adv_mean": _mean(adv[valid]),
        "adv_std": _std(adv[valid]),
        "adv_abs_mean": _mean(np.abs(adv[valid])),
        "adv_min": float(adv.min()) if len(adv) else 0.0,
        "adv_max": float(adv.max()) if len(adv) else 0.0,
        "agent_tokens_mean": _mean(np.asarray(agent_tokens, dtype=float)),
        "method": erpo.method,
        "std_pool": erpo.std_pool,
        "n_pool_extra": len(pool_extra[0]) if erpo.std_pool == "generated" else 0,
    }
    return adv, record


def _advantages(
    rollouts: Sequence[Rollout],
    excluded: np.ndarray,
    erpo: ERPOConfig,
    pool_extra: tuple[Sequence[Rollout], Sequence[bool]],
) -> np.ndarray:
    """``compute_advantages`` of ``rollouts``; with the generated pool, extra std-only rows."""
    extra, extra_ex = pool_extra if erpo.std_pool == "generated" else ((), ())
    both = [*rollouts, *extra]
    rewards = np.asarray([np.nan if x.reward is None else x.reward for x in both], dtype=float)
    keys = [("kept", x.task_id) for x in rollouts] + [("extra", x.task_id) for x in extra]
    flags = np.concatenate([excluded, np.asarray(extra_ex, dtype=bool)])
    adv = compute_advantages(
        rewards, keys, [x.env_id for x in both], flags, method=erpo.method, eps=erpo.eps
    )
    return np.asarray(adv[: len(rollouts)])


def _mean(x: np.ndarray) -> float:
    return float(x.mean()) if x.size else 0.0


def _std(x: np.ndarray) -> float:
    return float(x.std(ddof=1)) if x.size > 1 else 0.0
