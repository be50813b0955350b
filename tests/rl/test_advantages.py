"""ERPO/GRPO advantages: hand-computed batches, invariants, and a property test against loops."""

from __future__ import annotations

import math
import statistics
import time
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autoforge.rl import advantage_breakdown, compute_advantages


def reference_advantages(rewards, tasks, envs, flags, method, eps, mask=True):
    """Slow, obviously-correct version with explicit loops and ``statistics.stdev``."""
    n = len(rewards)
    valid = [not (mask and flags[k]) for k in range(n)]
    by_task: dict = defaultdict(list)
    by_env: dict = defaultdict(list)
    for k in range(n):
        if valid[k]:
            by_task[tasks[k]].append(rewards[k])
            by_env[envs[k]].append(rewards[k])

    def std(xs):
        return statistics.stdev(xs) if len(xs) > 1 else 0.0

    out = []
    for k in range(n):
        if not valid[k]:
            out.append(0.0)
            continue
        mean = statistics.fmean(by_task[tasks[k]])
        scale = std(by_task[tasks[k]]) if method == "grpo" else std(by_env[envs[k]])
        out.append((rewards[k] - mean) / (scale + eps))
    return np.array(out)


# --- hand-computed examples ------------------------------------------------------------------

# Env A: task a1 = [1, 0, 0, 1], task a2 = [1, 1, 1, 0]   (binary rewards)
# Env B: task b1 = [0, 10, 5] plus one user-error rollout with reward 100 (masked)
# Env C: task c1 = [3] (a single rollout)
REWARDS = [1, 0, 0, 1, 1, 1, 1, 0, 0, 10, 5, 100, 3]
TASKS = ["a1"] * 4 + ["a2"] * 4 + ["b1"] * 4 + ["c1"]
ENVS = ["A"] * 8 + ["B"] * 4 + ["C"]
FLAGS = [False] * 11 + [True, False]


def test_hand_computed_erpo_several_envs():
    # Env A pools 8 rewards: five 1s, three 0s. mean 0.625,
    # sum of squares 5 * 0.375^2 + 3 * 0.625^2 = 1.875, var = 1.875 / 7, std = 0.5175491695.
    s_a = math.sqrt(1.875 / 7)
    assert s_a == pytest.approx(0.5175491695)
    # a1 mean 0.5 -> +-0.5 / s_a = +-0.966092; a2 mean 0.75 -> 0.25 / s_a, -0.75 / s_a.
    # b1 (masked 100 ignored): mean 5, var (25 + 25 + 0) / 2 = 25, std 5 -> -1, 1, 0.
    # c1: one rollout -> numerator 0, std 0 -> 0 (not NaN).
    expected = [
        0.5 / s_a, -0.5 / s_a, -0.5 / s_a, 0.5 / s_a,
        0.25 / s_a, 0.25 / s_a, 0.25 / s_a, -0.75 / s_a,
        -1.0, 1.0, 0.0, 0.0,
        0.0,
    ]  # fmt: skip
    adv = compute_advantages(REWARDS, TASKS, ENVS, FLAGS, method="erpo", eps=0.0)
    np.testing.assert_allclose(adv, expected, rtol=1e-12, atol=1e-15)
    assert adv[0] == pytest.approx(0.966092, abs=1e-6)
    assert adv[7] == pytest.approx(-1.449138, abs=1e-6)


def test_hand_computed_grpo_several_envs():
    # a1 = [1,0,0,1]: mean 0.5, var (4 * 0.25) / 3, std 0.5773503 -> +-0.8660254.
    # a2 = [1,1,1,0]: mean 0.75, var (3 * 0.0625 + 0.5625) / 3 = 0.25, std 0.5 -> 0.5, -1.5.
    # b1: a single task in its env, so identical to ERPO: -1, 1, 0; c1: 0.
    r3 = math.sqrt(3) / 2
    expected = [r3, -r3, -r3, r3, 0.5, 0.5, 0.5, -1.5, -1.0, 1.0, 0.0, 0.0, 0.0]
    adv = compute_advantages(REWARDS, TASKS, ENVS, FLAGS, method="grpo", eps=0.0)
    np.testing.assert_allclose(adv, expected, rtol=1e-12, atol=1e-15)


def test_default_eps_is_added_to_the_std():
    adv = compute_advantages([0, 10, 5], ["t"] * 3, ["e"] * 3)
    np.testing.assert_allclose(adv, [-5 / (5 + 1e-6), 5 / (5 + 1e-6), 0.0], rtol=1e-14)


def test_no_meu_uses_the_flagged_reward():
    # b1 without masking: [0, 10, 5, 100] -> mean 28.75, and the 100 dominates the scale.
    adv = compute_advantages(REWARDS, TASKS, ENVS, FLAGS, eps=0.0, mask_user_errors=False)
    b1 = np.array([0, 10, 5, 100.0])
    np.testing.assert_allclose(adv[8:12], (b1 - b1.mean()) / b1.std(ddof=1))
    plain = compute_advantages(REWARDS, TASKS, ENVS, None, eps=0.0)
    np.testing.assert_array_equal(adv, plain)


def test_breakdown_reports_baseline_scale_and_valid():
    bd = advantage_breakdown(REWARDS, TASKS, ENVS, FLAGS, method="erpo", eps=0.0)
    assert bd.valid.tolist() == [not f for f in FLAGS]
    assert bd.baseline[0] == 0.5 and bd.baseline[4] == 0.75 and bd.baseline[11] == 0.0
    assert bd.scale[9] == 5.0 and bd.scale[12] == 0.0
    assert bd.scale[0] == pytest.approx(math.sqrt(1.875 / 7))


# --- invariants ------------------------------------------------------------------------------


def test_erpo_equals_grpo_when_each_env_has_one_task():
    rng = np.random.default_rng(0)
    tasks = rng.integers(0, 30, 500)
    rewards = rng.normal(size=500) * (1 + tasks)
    flags = rng.random(500) < 0.2
    envs = [f"env-{t}" for t in tasks]
    erpo = compute_advantages(rewards, tasks, envs, flags, method="erpo")
    grpo = compute_advantages(rewards, tasks, None, flags, method="grpo")
    np.testing.assert_allclose(erpo, grpo, rtol=1e-12, atol=1e-12)


def test_erpo_with_one_env_normalises_by_the_batch_std():
    rewards = np.array([1, 0, 0.5, 2, 2, 0, 1.0])
    tasks = [0, 0, 0, 1, 1, 2, 2]
    adv = compute_advantages(rewards, tasks, ["e"] * 7, eps=0.0)
    means = np.array([0.5, 0.5, 0.5, 2, 2, 0.5, 0.5])
    np.testing.assert_allclose(adv, (rewards - means) / rewards.std(ddof=1))


def test_constant_rewards_in_one_env_give_zeros_not_nan():
    for value in (0.0, 1.0, 0.1, -3.7, 1e9):
        adv = compute_advantages([value] * 6, [0, 0, 0, 1, 1, 2], ["e"] * 6, eps=0.0)
        assert np.all(adv == 0.0) and not np.any(np.isnan(adv))
        adv = compute_advantages([value] * 6, [0, 0, 0, 1, 1, 2], ["e"] * 6, method="grpo")
        assert np.all(adv == 0.0)


def test_constant_task_in_a_varied_env_gets_exact_zeros():
    adv = compute_advantages([0.1, 0.1, 0.1, 0.0, 1.0], [0, 0, 0, 1, 1], ["e"] * 5)
    assert adv[:3].tolist() == [0.0, 0.0, 0.0]
    assert adv[3] < 0 < adv[4]


def test_all_masked_and_empty_batches():
    adv = compute_advantages([1.0, float("nan")], ["t", "t"], ["e", "e"], [True, True])
    assert adv.tolist() == [0.0, 0.0]
    assert compute_advantages([], [], []).shape == (0,)


def test_shifting_one_task_is_invariant_for_grpo_only():
    rng = np.random.default_rng(1)
    tasks = np.repeat(np.arange(4), 8)
    rewards = rng.random(32)
    envs = ["e"] * 32
    shifted = rewards + np.where(tasks == 2, 5.0, 0.0)
    np.testing.assert_allclose(
        compute_advantages(shifted, tasks, envs, method="grpo"),
        compute_advantages(rewards, tasks, envs, method="grpo"),
        atol=1e-12,
    )
    # Under ERPO the pooled std includes between-task spread: shifting one task changes it.
    erpo_before = compute_advantages(rewards, tasks, envs, method="erpo")
    erpo_after = compute_advantages(shifted, tasks, envs, method="erpo")
    assert np.max(np.abs(erpo_before - erpo_after)) > 0.1
    # ...but the numerators (task-centred rewards) are unchanged, so signs are preserved.
    np.testing.assert_array_equal(np.sign(erpo_before), np.sign(erpo_after))


def test_erpo_invariant_to_affine_change_of_one_environment():
    rng = np.random.default_rng(2)
    tasks = np.repeat(np.arange(6), 5)
    envs = np.where(tasks < 3, "x", "y")
    rewards = rng.random(30)
    base = compute_advantages(rewards, tasks, envs, eps=0.0)
    changed = np.where(envs == "x", 7.0 * rewards - 3.0, rewards)
    np.testing.assert_allclose(compute_advantages(changed, tasks, envs, eps=0.0), base, atol=1e-12)


def test_advantages_sum_to_zero_per_task_and_permute_with_rollouts():
    rng = np.random.default_rng(3)
    tasks = rng.integers(0, 10, 200)
    envs = tasks % 3
    rewards = rng.random(200)
    adv = compute_advantages(rewards, tasks, envs)
    assert np.allclose(np.bincount(tasks, weights=adv), 0.0, atol=1e-10)
    perm = rng.permutation(200)
    np.testing.assert_allclose(
        compute_advantages(rewards[perm], tasks[perm], envs[perm]), adv[perm], atol=1e-12
    )


@settings(max_examples=60, deadline=None)
@given(
    base=st.lists(st.tuples(st.integers(0, 5), st.floats(-10, 10)), min_size=1, max_size=25),
    extra=st.lists(
        st.tuples(st.integers(0, 8), st.one_of(st.floats(allow_nan=True), st.just(float("nan")))),
        min_size=1,
        max_size=10,
    ),
    positions=st.randoms(use_true_random=False),
    method=st.sampled_from(["erpo", "grpo"]),
)
def test_masked_rollouts_change_nothing(base, extra, positions, method):
    """Inserting user-error rollouts with any reward (NaN, inf) anywhere leaves the rest alone."""
    rows = [(t, r, False) for t, r in base]
    for t, r in extra:
        rows.insert(positions.randint(0, len(rows)), (t, r, True))
    tasks, rewards, flags = zip(*rows, strict=True)
    envs = [t % 3 for t in tasks]
    adv = compute_advantages(rewards, tasks, envs, flags, method=method)
    keep = ~np.array(flags)
    b_tasks = [t for t, _ in base]
    expected = compute_advantages([r for _, r in base], b_tasks, [t % 3 for t in b_tasks],
                                  method=method)  # fmt: skip
    np.testing.assert_allclose(adv[keep], expected, rtol=1e-12, atol=1e-12)
    assert np.all(adv[~keep] == 0.0)


@settings(max_examples=150, deadline=None)
@given(
    data=st.lists(
        st.tuples(
            st.integers(0, 6),
            st.one_of(st.sampled_from([0.0, 1.0]), st.floats(-100, 100, allow_subnormal=False)),
            st.booleans(),
        ),
        min_size=0,
        max_size=40,
    ),
    n_envs=st.integers(1, 4),
    method=st.sampled_from(["erpo", "grpo"]),
    mask=st.booleans(),
)
def test_matches_slow_reference(data, n_envs, method, mask):
    tasks = [f"t{t}" for t, _, _ in data]
    envs = [f"e{t % n_envs}" for t, _, _ in data]
    rewards = [r for _, r, _ in data]
    flags = [f for _, _, f in data]
    got = compute_advantages(rewards, tasks, envs, flags, method=method, mask_user_errors=mask)
    ref = reference_advantages(rewards, tasks, envs, flags, method, 1e-6, mask)
    np.testing.assert_allclose(got, ref, rtol=1e-7, atol=1e-7)


# --- input validation and speed --------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"rewards": [1.0, 0.0], "task_ids": ["t"]}, "task_ids"),
        ({"env_ids": ["e"]}, "env_ids"),
        ({"user_error": [True]}, "user_error"),
        ({"rewards": [float("nan"), 0.0]}, "finite"),
        ({"env_ids": ["e", "f"]}, "more than one env"),
        ({"method": "ppo"}, "method"),
        ({"env_ids": None}, "env_ids"),
        ({"eps": -1.0}, "eps"),
        ({"rewards": [[1.0], [0.0]]}, "flat"),
        ({"task_ids": [["t"], ["t"]]}, "hashable"),
        ({"task_ids": np.array([["t"], ["t"]])}, "flat"),
    ],
)
def test_bad_inputs_raise_value_error(kwargs, match):
    args = {"rewards": [1.0, 0.0], "task_ids": ["t", "t"], "env_ids": ["e", "e"]} | kwargs
    with pytest.raises(ValueError, match=match):
        compute_advantages(**args)


def test_mixed_type_ids_fall_back_to_first_appearance_codes():
    tasks = [("a", 1), ("a", 1), ("b", 2), ("b", 2)]
    adv = compute_advantages([1, 0, 1, 1], tasks, [("e",)] * 4, eps=0.0)
    np.testing.assert_allclose(adv, [1, -1, 0, 0])


def test_hundred_thousand_rollouts_are_fast():
    rng = np.random.default_rng(4)
    n = 100_000
    tasks = rng.integers(0, 12_500, n)
    envs = tasks % 40
    rewards = rng.random(n)
    flags = rng.random(n) < 0.05
    start = time.perf_counter()
    adv = compute_advantages(rewards, tasks, envs, flags)
    elapsed = time.perf_counter() - start
    assert adv.shape == (n,) and np.all(np.isfinite(adv))
    assert elapsed < 1.0, f"{elapsed:.3f}s for 1e5 rollouts"


def test_docstring_example_runs():
    import doctest

    import autoforge.rl.advantages as module

    result = doctest.testmod(module)
    assert result.attempted >= 1 and result.failed == 0
