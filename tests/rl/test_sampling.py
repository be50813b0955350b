"""Dynamic sampling: the zero-variance filter, the round-by-round sampler, and ERPOConfig."""

from __future__ import annotations

import numpy as np
import pydantic
import pytest

from autoforge.rl import (
    DynamicSampler,
    ERPOConfig,
    RolloutGroup,
    compute_advantages,
    flatten_groups,
    group_advantages,
    informative_mask,
    keep_groups,
    sample_batch,
)


def test_informative_mask_drops_all_solved_all_failed_and_singletons():
    rewards = [1, 1, 1, 0, 0, 0, 1, 0, 0.5, 0.5, 0.5, 0.7]
    tasks = ["solved"] * 3 + ["failed"] * 3 + ["mixed"] * 2 + ["flat"] * 3 + ["single"]
    keep = informative_mask(rewards, tasks)
    assert keep.tolist() == [False] * 6 + [True] * 2 + [False] * 4


def test_meu_flags_decide_what_counts_as_zero_variance():
    # [1, 1, 0*] where 0* is a user error: with MEU the task is all-solved (dropped).
    rewards, tasks, flags = [1, 1, 0], ["t"] * 3, [False, False, True]
    assert not informative_mask(rewards, tasks, flags).any()
    assert informative_mask(rewards, tasks, flags, mask_user_errors=False).all()
    assert not informative_mask([1, 0], ["t", "t"], [False, True]).any()  # one valid left


def test_tolerance_treats_tiny_spread_as_zero_variance():
    assert informative_mask([0.5, 0.5 + 1e-9], ["t", "t"]).all()
    assert not informative_mask([0.5, 0.5 + 1e-9], ["t", "t"], tol=1e-6).any()


def test_keep_groups_agrees_with_the_flat_mask():
    groups = [
        RolloutGroup("a", "e", [1, 0, 1]),
        RolloutGroup("b", "e", [0, 0, 0]),
        RolloutGroup("c", "f", [1, 1, 0], [False, False, True]),
        RolloutGroup("d", "f", [0.2, 0.9], [False, False]),
        RolloutGroup("e", "f", []),
    ]
    assert keep_groups(groups) == [True, False, False, True, False]
    rewards, tasks, _, flags = flatten_groups(groups)
    flat = informative_mask(rewards, tasks, flags)
    assert flat.tolist() == [True] * 3 + [False] * 6 + [True] * 2
    assert keep_groups(groups, mask_user_errors=False)[2] is True
    assert keep_groups([]) == []


def test_rollout_group_checks_flag_length():
    with pytest.raises(ValueError, match="user_error"):
        RolloutGroup("t", "e", [1.0, 0.0], [True])


class _Generator:
    """Yields rounds of groups: in each round, task k is informative iff k % 3 == 0."""

    def __init__(self, per_round: int) -> None:
        self.per_round = per_round
        self.calls = 0

    def __call__(self, round_index: int) -> list[RolloutGroup]:
        assert round_index == self.calls
        self.calls += 1
        out = []
        for k in range(self.per_round):
            tid = f"r{round_index}-t{k}"
            rewards = [1.0, 0.0, 1.0, 1.0] if k % 3 == 0 else [1.0, 1.0, 1.0, 1.0]
            out.append(RolloutGroup(tid, f"env{k % 2}", rewards))
        return out


def test_sampler_refills_until_the_target_and_truncates():
    gen = _Generator(per_round=9)  # 3 informative per round
    sampler = DynamicSampler(target_tasks=7, max_rounds=5)
    batch = sample_batch(gen, sampler)
    assert gen.calls == 3 and sampler.full
    assert len(batch) == 7 and all(g.rewards[1] == 0.0 for g in batch)
    assert [g.task_id for g in batch[:3]] == ["r0-t0", "r0-t3", "r0-t6"]
    s = sampler.stats
    assert (s.rounds, s.groups_seen, s.groups_kept, s.dropped_uninformative) == (3, 27, 9, 18)
    assert s.rollouts_generated == 27 * 4


def test_sampler_stops_at_max_rounds_with_a_short_batch():
    gen = _Generator(per_round=3)  # one informative group per round
    sampler = DynamicSampler(target_tasks=5, max_rounds=2)
    batch = sample_batch(gen, sampler)
    assert gen.calls == 2 and len(batch) == 2 and not sampler.full and sampler.done


def test_disabled_sampler_keeps_everything_after_one_round():
    gen = _Generator(per_round=6)
    sampler = DynamicSampler(target_tasks=4, max_rounds=5, enabled=False)
    batch = sample_batch(gen, sampler)
    assert gen.calls == 1 and len(batch) == 4 and sampler.stats.dropped_uninformative == 0


def test_sampler_skips_duplicate_tasks_and_resets():
    sampler = DynamicSampler(target_tasks=3)
    group = RolloutGroup("t", "e", [0.0, 1.0])
    assert sampler.add([group, group]) == 1
    assert sampler.stats.dropped_duplicate == 1 and not sampler.done
    sampler.reset()
    assert sampler.batch() == [] and sampler.stats.rounds == 0
    with pytest.raises(ValueError):
        DynamicSampler(target_tasks=0)


def test_sampled_batch_feeds_compute_advantages():
    gen = _Generator(per_round=6)
    batch = sample_batch(gen, DynamicSampler(target_tasks=4))
    rewards, tasks, envs, flags = flatten_groups(batch)
    adv = compute_advantages(rewards, tasks, envs, flags)
    assert adv.shape == (16,) and np.all(adv.reshape(4, 4).any(axis=1))
    np.testing.assert_allclose(adv.reshape(4, 4).sum(axis=1), 0.0, atol=1e-12)


def test_erpo_config_defaults_switches_and_round_trip():
    cfg = ERPOConfig()
    assert cfg.method == "erpo" and cfg.mask_user_errors and cfg.dynamic_sampling
    assert cfg.kl_beta == 0.0 and cfg.loss_agg == "token" and cfg.schema_version == 1
    grpo = ERPOConfig(env_level_std=False, clip_eps_high=0.28)
    assert grpo.method == "grpo"
    assert ERPOConfig.model_validate_json(grpo.model_dump_json()) == grpo
    for bad in ({"group_size": 1}, {"clip_eps_low": 1.0}, {"typo": 1}, {"schema_version": 2}):
        with pytest.raises(pydantic.ValidationError):
            ERPOConfig(**bad)


def _pool_case() -> tuple[list[RolloutGroup], list[RolloutGroup]]:
    """Two informative tasks kept, two flat tasks dropped (one all-solved, one all-failed)."""
    kept = [RolloutGroup("a", "e", [1, 0, 1, 0]), RolloutGroup("b", "e", [1, 1, 1, 0])]
    dropped = [RolloutGroup("c", "e", [1, 1, 1, 1]), RolloutGroup("d", "e", [0, 0, 0, 0])]
    return kept, dropped


def test_std_pool_kept_uses_only_the_groups_in_the_update():
    kept, dropped = _pool_case()
    adv = group_advantages(kept, dropped, std_pool="kept")
    r, t, e, f = flatten_groups(kept)
    np.testing.assert_allclose(adv, compute_advantages(r, t, e, f))
    scale = np.std([1, 0, 1, 0, 1, 1, 1, 0], ddof=1)
    np.testing.assert_allclose(adv[:4], (np.array([1, 0, 1, 0]) - 0.5) / (scale + 1e-6))


def test_std_pool_generated_adds_the_dropped_groups_to_the_env_std():
    kept, dropped = _pool_case()
    adv = group_advantages(kept, dropped, std_pool="generated")
    assert adv.shape == (8,)  # advantages for the kept rollouts only
    everything = [1, 0, 1, 0, 1, 1, 1, 0] + [1] * 4 + [0] * 4
    scale = np.std(everything, ddof=1)
    np.testing.assert_allclose(adv[:4], (np.array([1, 0, 1, 0]) - 0.5) / (scale + 1e-6))
    np.testing.assert_allclose(adv[4:], (np.array([1, 1, 1, 0]) - 0.75) / (scale + 1e-6))
    assert not np.allclose(adv, group_advantages(kept, dropped, std_pool="kept"))


def test_std_pool_generated_keeps_a_repeated_task_out_of_the_kept_mean():
    kept = [RolloutGroup("a", "e", [1, 0])]
    dropped = [RolloutGroup("a", "e", [1, 1]), RolloutGroup("x", "e", [0, 0], [True, False])]
    adv = group_advantages(kept, dropped, std_pool="generated")
    scale = np.std([1, 0, 1, 1, 0], ddof=1)  # the flagged 0 of x is masked (MEU)
    np.testing.assert_allclose(adv, np.array([0.5, -0.5]) / (scale + 1e-6))
    with pytest.raises(ValueError, match="std_pool"):
        group_advantages(kept, dropped, std_pool="before")


def test_sampler_remembers_what_it_dropped_and_config_has_the_switch():
    kept, dropped = _pool_case()
    sampler = DynamicSampler(target_tasks=2)
    sampler.add([kept[0], dropped[0], kept[1], dropped[1]])
    assert [g.task_id for g in sampler.batch()] == ["a", "b"]
    assert [g.task_id for g in sampler.dropped()] == ["c", "d"]
    assert ERPOConfig().std_pool == "kept"
    assert ERPOConfig(std_pool="generated").std_pool == "generated"
    with pytest.raises(pydantic.ValidationError):
        ERPOConfig(std_pool="before")
