"""The TRL backend's step logic without a model: dynamic sampling refills, fillers, exclusion
(MEU, infra errors) and the ERPO advantages of a step against hand-computed values."""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import pytest

from autoforge.rl import ERPOConfig, compute_advantages
from autoforge.rl.trl.batch import sample_step, step_advantages


@dataclass(frozen=True)
class R:
    task_id: str
    env_id: str
    reward: float | None
    user_error: bool = False


def runner(outcomes: dict[str, list[tuple[float | None, bool]]], env: str = "e"):
    """A ``run_groups`` that plays fixed outcomes and records each round's ids."""
    calls: list[list[str]] = []

    def run(ids: list[str], round_index: int) -> list[list[R]]:
        assert round_index == len(calls)
        calls.append(list(ids))
        return [[R(t, env, r, u) for r, u in outcomes[t]] for t in ids]

    return run, calls


MIXED = [(1.0, False), (0.0, False)]
FLAT = [(0.0, False), (0.0, False)]


def test_uninformative_groups_are_replaced_from_the_pool() -> None:
    outcomes = {"a": MIXED, "b": FLAT, "c": MIXED, "d": FLAT}
    run, calls = runner(outcomes)
    erpo = ERPOConfig(max_sampling_rounds=3)
    batch = sample_step(["a", "b"], run, ["a", "b", "c", "d"], erpo, random.Random(0))
    assert calls[0] == ["a", "b"]
    kept = [r.task_id for r in batch.rollouts]
    assert kept[:2] == ["a", "a"] and len(kept) == 4
    assert set(kept) == {"a", "c"}  # b was dropped and c found by a refill round
    assert batch.filler == [False] * 4 and batch.excluded == [False] * 4
    tried = [t for ids in calls for t in ids]
    assert len(tried) == len(set(tried))  # no task is generated twice in a step


def test_rounds_run_out_fillers_are_excluded() -> None:
    outcomes = {"a": MIXED, "b": FLAT, "d": FLAT}
    run, calls = runner(outcomes)
    erpo = ERPOConfig(max_sampling_rounds=2)
    batch = sample_step(["a", "b"], run, ["a", "b", "d"], erpo, random.Random(1))
    assert len(calls) == 2 and batch.rounds == 2
    assert len(batch.rollouts) == 4
    assert batch.filler == [False, False, True, True]
    assert batch.excluded == [False, False, True, True]
    assert batch.groups_dropped == 2


def test_disabled_dynamic_sampling_keeps_everything_in_one_round() -> None:
    outcomes = {"a": MIXED, "b": FLAT}
    run, calls = runner(outcomes)
    erpo = ERPOConfig(dynamic_sampling=False)
    batch = sample_step(["a", "b"], run, ["a", "b", "c"], erpo, random.Random(0))
    assert len(calls) == 1 and batch.filler == [False] * 4 and batch.excluded == [False] * 4


def test_meu_and_infra_rollouts_are_excluded_unless_meu_is_off() -> None:
    outcomes = {"a": [(1.0, False), (0.0, True), (0.0, False), (None, False)]}
    run, _ = runner(outcomes)
    on = sample_step(["a"], run, ["a"], ERPOConfig(), random.Random(0))
    assert on.excluded == [False, True, False, True]
    run, _ = runner(outcomes)
    off = sample_step(["a"], run, ["a"], ERPOConfig(mask_user_errors=False), random.Random(0))
    assert off.excluded == [False, False, False, True]  # an infra error is always excluded


def test_step_advantages_pool_the_scale_per_environment() -> None:
    rollouts = [
        R("t1", "shop", 1.0), R("t1", "shop", 0.0), R("t1", "shop", 1.0, user_error=True),
        R("t2", "shop", 1.0), R("t2", "shop", 1.0),
        R("t3", "bank", 1.0), R("t3", "bank", 0.0), R("t3", "bank", None),
    ]  # fmt: skip
    excluded = [False, False, True, False, False, False, False, True]
    adv, rec = step_advantages(rollouts, excluded, [False] * 8, ERPOConfig(), [3] * 8)
    # shop: valid rewards 1,0,1,1 -> std 0.5; t1 mean 0.5 -> +-1; t2 centred 0
    # bank: valid 1,0 -> std 0.7071; t3 mean 0.5 -> +-0.7071
    expected = [1.0, -1.0, 0.0, 0.0, 0.0, 0.5 / np.sqrt(0.5), -0.5 / np.sqrt(0.5), 0.0]
    np.testing.assert_allclose(adv, expected, atol=1e-5)
    assert rec["n_valid"] == 6 and rec["n_excluded"] == 2
    assert rec["n_meu_masked"] == 1 and rec["n_infra_errors"] == 1
    assert rec["reward_mean"] == pytest.approx(5 / 7)  # scored: 1,0,1,1,1,1,0
    assert rec["adv_max"] == pytest.approx(1.0, abs=1e-5) and rec["agent_tokens_mean"] == 3.0
    grpo, _ = step_advantages(rollouts, excluded, [False] * 8, ERPOConfig(env_level_std=False))
    # GRPO scales t1 by its own std (0.7071) instead of the shop's 0.5
    assert grpo[0] == pytest.approx(0.5 / np.sqrt(0.5), abs=1e-5)


def test_step_advantages_match_the_core_on_random_batches() -> None:
    rng = np.random.default_rng(0)
    for _ in range(20):
        n = int(rng.integers(4, 40))
        tasks = [f"t{int(i)}" for i in rng.integers(0, 6, n)]
        rollouts = [
            R(t, f"e{int(t[1:]) % 2}", float(rng.integers(0, 2)), bool(rng.random() < 0.2))
            for t in tasks
        ]
        excluded = [r.user_error for r in rollouts]
        adv, rec = step_advantages(rollouts, excluded, [False] * n, ERPOConfig())
        core = compute_advantages(
            [r.reward for r in rollouts],
            tasks,
            [r.env_id for r in rollouts],
            excluded,
        )
        np.testing.assert_array_equal(adv, core)
        assert all(np.isfinite(v) for v in rec.values() if isinstance(v, float))


def test_std_pool_generated_counts_dropped_groups_in_the_step_std() -> None:
    outcomes = {"a": MIXED, "b": FLAT, "c": [(1.0, False), (1.0, False)], "d": MIXED}
    run, _ = runner(outcomes)
    kept_pool = ERPOConfig(max_sampling_rounds=2, std_pool="kept")
    batch = sample_step(["a", "b"], run, ["a", "b", "c", "d"], kept_pool, random.Random(0))
    assert {g.task_id for g in batch.dropped} >= {"b"}
    args = (batch.rollouts, batch.excluded, batch.filler)
    adv_kept, rec_kept = step_advantages(*args, kept_pool, (), batch.pool_extra())
    gen_pool = kept_pool.model_copy(update={"std_pool": "generated"})
    adv_gen, rec_gen = step_advantages(*args, gen_pool, (), batch.pool_extra())
    valid = ~np.asarray(batch.excluded)
    kept_r = np.asarray([r.reward for r in batch.rollouts])[valid]
    extra, extra_ex = batch.pool_extra()
    extra_r = [r.reward for r, x in zip(extra, extra_ex, strict=True) if not x]
    s_kept = np.std(kept_r, ddof=1)
    s_gen = np.std(np.concatenate([kept_r, extra_r]), ddof=1)
    assert s_gen != pytest.approx(s_kept)
    centred = np.asarray(adv_kept) * (s_kept + 1e-6)
    np.testing.assert_allclose(adv_gen, centred / (s_gen + 1e-6), atol=1e-9)
    assert rec_kept["n_pool_extra"] == 0 and rec_gen["n_pool_extra"] == len(extra) > 0
