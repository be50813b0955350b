"""pass^k: the probability that *all* k independent trials of a task succeed (tau-bench).

For a task with n valid trials of which c succeeded, the unbiased estimate is
C(c, k) / C(n, k); pass^k is its mean over tasks, for k = 1..n.

What is excluded, and why:

- infrastructure errors (LLM endpoint failures, internal errors) say nothing about the agent:
  those trials are dropped, never counted as failures;
- unscored trials (reward ``None``, e.g. an NL assertion nobody judged) likewise;
- optionally (``exclude_user_errors``) trials the MEU judge blamed on the simulated user.

A task is then left with fewer valid trials than others. pass^k for a given k averages only the
tasks with at least k valid trials (C(n, k) is undefined below that); ``n_tasks_per_k`` says how
many tasks each value rests on, so a thin k is visible rather than silently biased.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from math import comb

from pydantic import BaseModel, Field

from autoforge.rollout import Trajectory

EVAL_SCHEMA_VERSION = 1


def pass_hat_k_task(n: int, c: int, k: int) -> float:
    """C(c, k) / C(n, k) for one task with ``c`` successes out of ``n`` trials."""
    if not 0 <= c <= n:
        raise ValueError(f"need 0 <= c <= n, got c={c}, n={n}")
    if not 1 <= k <= n:
        raise ValueError(f"need 1 <= k <= n, got k={k}, n={n}")
    return comb(c, k) / comb(n, k)


def pass_hat_k(counts: Iterable[tuple[int, int]], max_k: int | None = None) -> dict[int, float]:
    """pass^k for k = 1..max_k over ``(n, c)`` per task; each k over tasks with n >= k."""
    counts = [(n, c) for n, c in counts if n > 0]
    if not counts:
        return {}
    top = max(n for n, _ in counts) if max_k is None else max_k
    out: dict[int, float] = {}
    for k in range(1, top + 1):
        eligible = [(n, c) for n, c in counts if n >= k]
        if eligible:
            out[k] = sum(pass_hat_k_task(n, c, k) for n, c in eligible) / len(eligible)
    return out


class PassK(BaseModel):
    """pass^k of one group of tasks."""

    pass_hat_k: dict[int, float] = Field(default_factory=dict)
    n_tasks: int = 0
    n_tasks_per_k: dict[int, int] = Field(default_factory=dict)
    n_trials: int = 0


class EvalReport(BaseModel):
    """What ``eval.json`` holds."""

    schema_version: int = EVAL_SCHEMA_VERSION
    pass_hat_k: dict[int, float] = Field(default_factory=dict)
    n_tasks: int = 0
    n_tasks_per_k: dict[int, int] = Field(default_factory=dict)
    n_trials: int = 0
    n_valid_trials: int = 0
    n_infra_errors: int = 0
    n_user_errors: int = 0
    n_unscored: int = 0
    excluded_user_errors: bool = False
    by_domain: dict[str, PassK] = Field(default_factory=dict)
    by_difficulty: dict[str, PassK] = Field(default_factory=dict)


def _counts(trajs: Iterable[Trajectory]) -> dict[str, tuple[int, int]]:
    per_task: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for t in trajs:
        entry = per_task[t.task_id]
        entry[0] += 1
        entry[1] += int(t.reward == 1.0)
    return {k: (v[0], v[1]) for k, v in per_task.items()}


def _group(valid: list[Trajectory], n_trials: int) -> PassK:
    counts = _counts(valid)
    values = pass_hat_k(counts.values())
    per_k = {k: sum(1 for n, _ in counts.values() if n >= k) for k in values}
    return PassK(pass_hat_k=values, n_tasks=len(counts), n_tasks_per_k=per_k, n_trials=n_trials)


def _split(
    trajs: list[Trajectory], key: Callable[[Trajectory], str | None]
) -> dict[str, list[Trajectory]]:
    groups: dict[str, list[Trajectory]] = defaultdict(list)
    for t in trajs:
        label = key(t)
        if label is not None:
            groups[label].append(t)
    return dict(groups)


def evaluate(trajs: Iterable[Trajectory], *, exclude_user_errors: bool = False) -> EvalReport:
    """The eval report of a set of trajectories (several trials per task)."""
    all_trajs = list(trajs)
    infra = [t for t in all_trajs if t.is_infra_error]
    scored = [t for t in all_trajs if not t.is_infra_error]
    unscored = [t for t in scored if t.reward is None]
    scored = [t for t in scored if t.reward is not None]
    user_errors = [t for t in scored if t.user_error]
    valid = [t for t in scored if not (exclude_user_errors and t.user_error)]
    overall = _group(valid, len(all_trajs))
    return EvalReport(
        pass_hat_k=overall.pass_hat_k,
        n_tasks=overall.n_tasks,
        n_tasks_per_k=overall.n_tasks_per_k,
        n_trials=len(all_trajs),
        n_valid_trials=len(valid),
        n_infra_errors=len(infra),
        n_user_errors=len(user_errors),
        n_unscored=len(unscored),
        excluded_user_errors=exclude_user_errors,
        by_domain={
            d: _group(g, len(g)) for d, g in _split(valid, lambda t: t.domain or t.env_id).items()
        },
        by_difficulty={
            d: _group(g, len(g)) for d, g in _split(valid, lambda t: t.difficulty).items()
        },
    )
