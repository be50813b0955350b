"""The ERPO simulation benchmark: its building blocks and a tiny end-to-end run."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

SIM_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "erpo_sim.py"
if str(SIM_PATH.parent) not in sys.path:  # its shared benchmark method (bench_method)
    sys.path.insert(0, str(SIM_PATH.parent))


@pytest.fixture(scope="module")
def sim():
    spec = importlib.util.spec_from_file_location("erpo_sim", SIM_PATH)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["erpo_sim"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("erpo_sim", None)


def test_simulated_rewards_follow_the_environment_models(sim):
    world = sim.make_world(0, tasks_per_env=3, n_actions=4)
    rng = np.random.default_rng(0)
    clean = sim.simulate(world, world.theta0, np.arange(12), 400, sim.Noise(0.0, 1.0, 0.0), rng)
    assert np.array_equal(clean.reward, clean.clean) and not clean.flag.any()
    mean, _ = sim.reward_moments(world)
    got = np.bincount(clean.task, clean.reward) / 400
    expected = (sim.softmax(world.theta0) * mean).sum(axis=1)
    np.testing.assert_allclose(got, expected, atol=0.2 * np.maximum(1, expected).max())
    binary = np.arange(6)  # the two binary environments: a flip always changes the reward
    noisy = sim.simulate(world, world.theta0, binary, 400, sim.Noise(0.3, 0.5, 0.0), rng)
    corrupted = noisy.reward != noisy.clean
    assert 0.2 < corrupted.mean() < 0.4
    assert noisy.flag[~corrupted].sum() == 0 and 0.3 < noisy.flag[corrupted].mean() < 0.7


def test_env_scale_equals_task_scale_with_one_task_per_env(sim):
    world = sim.make_world(1, tasks_per_env=1, n_actions=5)
    rng = np.random.default_rng(1)
    batch = sim.simulate(world, world.theta0, np.arange(4), 8, sim.Noise(0.0, 1.0, 0.0), rng)
    np.testing.assert_allclose(
        sim.true_scale(world, world.theta0, batch, "env"),
        sim.true_scale(world, world.theta0, batch, "task"),
    )


@pytest.mark.parametrize("seed", range(5))
def test_meu_with_a_perfect_judge_masks_the_corrupted_rollout(sim, seed):
    world = sim.make_world(seed, tasks_per_env=4, n_actions=4)
    cfg = sim.TrainCfg(1, 8, 8, 1.0, 1, 0.2, 0.28, 1, sim.Noise(0.1, 1.0, 0.0))
    meu, no_meu = sim.VARIANTS["erpo"], sim.VARIANTS["erpo_no_meu"]
    rng = np.random.default_rng(seed)
    self_meu, spill_meu = sim.corruption_effect(world, world.theta0, meu, cfg, rng)
    rng = np.random.default_rng(seed)  # the same batch and the same corrupted rollout
    self_raw, spill_raw = sim.corruption_effect(world, world.theta0, no_meu, cfg, rng)
    # Masked: it gets 0; the others only feel one rollout fewer in their statistics.
    assert self_meu == 0.0 and self_raw > 0.0
    assert spill_meu <= spill_raw


def test_tiny_run_prints_a_table_and_a_json_last_line(sim, capsys, tmp_path):
    args = ["--seeds", "2", "--steps", "4", "--repeats", "2", "--tasks-per-env", "4"]
    args += ["--batch-tasks", "4", "--group-size", "4", "--out", str(tmp_path), "--no-plot"]
    out = sim.main(args)
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[3].startswith("variant") and any(ln.startswith("erpo ") for ln in lines)
    assert json.loads(lines[-1]) == out
    assert set(out["final_success_median"]) == set(sim.VARIANTS)
    assert all(0.0 < v < 1.0 for v in out["final_success_median"].values())
    assert out["seeds"] == 2 and out["oracle_nmse_init"]["erpo"] > 0
    assert not list(tmp_path.iterdir())  # --no-plot writes nothing


def test_generation_cost_of_dynamic_sampling(sim):
    world = sim.make_world(3, tasks_per_env=4, n_actions=4)
    cfg = sim.TrainCfg(6, 4, 4, 1.0, 1, 0.2, 0.28, 3, sim.Noise(0.1, 0.9, 0.0))
    _, per_step = sim.train(world, sim.VARIANTS["erpo_no_ds"], cfg, seed=0)
    assert per_step == 16.0  # one round of 4 tasks x 4 rollouts
    _, per_step = sim.train(world, sim.VARIANTS["erpo"], cfg, seed=0)
    assert 16.0 <= per_step <= 48.0  # refill rounds, at most max_rounds = 3


def test_unknown_variant_is_rejected(sim):
    with pytest.raises(SystemExit, match="unknown variants"):
        sim.main(["--variants", "erpo,ppo", "--seeds", "1", "--steps", "1"])


def test_std_pool_row_pools_the_dropped_groups(sim):
    world = sim.make_world(2, tasks_per_env=4, n_actions=4)
    cfg = sim.TrainCfg(1, 8, 4, 1.0, 1, 0.2, 0.28, 3, sim.Noise(0.0, 1.0, 0.0))
    theta = sim.skilled_theta(world)  # many all-solved groups: dynamic sampling drops some
    kept_batch, _, none = sim.collect(
        world, theta, sim.VARIANTS["erpo"], cfg, np.random.default_rng(0)
    )
    gen_batch, _, pooled = sim.collect(
        world, theta, sim.VARIANTS["erpo_pool_gen"], cfg, np.random.default_rng(0)
    )
    assert none is None and pooled is not None
    np.testing.assert_array_equal(kept_batch.reward, gen_batch.reward)  # same rollouts
    adv_kept, _ = sim.advantages(sim.VARIANTS["erpo"], kept_batch)
    assert pooled.shape == adv_kept.shape
    assert not np.allclose(pooled, adv_kept)  # the dropped flat groups changed the env std
    np.testing.assert_array_equal(np.sign(pooled), np.sign(adv_kept))  # only the scale moved


def test_thinking_rows_train_both_switches_with_the_same_code(sim):
    world = sim.make_world(0, tasks_per_env=2, n_actions=3)
    cfg = sim.TrainCfg(40, 4, 8, 8.0, 2, 0.2, 0.28, 1, sim.Noise(0.0, 1.0, 0.0))
    target = sim._two_turn_targets(world, 0)
    theta, phi = world.theta0, np.zeros((world.n_tasks, 3, 3))
    # at a uniform turn-2 policy the switch changes nothing: the curves start equal
    start = sim.two_turn_success(world, theta, phi, target, keep=True)
    assert start == pytest.approx(sim.two_turn_success(world, theta, phi, target, keep=False))
    keep = sim.train_thinking(world, cfg, 0, keep=True)
    drop = sim.train_thinking(world, cfg, 0, keep=False)
    assert keep[0] == drop[0] == pytest.approx(start)
    assert keep[-1] > keep[0] and drop[-1] > drop[0]  # both learn
    assert not np.allclose(keep, drop)  # the switch changes what turn 2 can condition on
    rows = sim.thinking_rows([world], cfg, tail=4)
    assert set(rows) == {"erpo_keep_thinking", "erpo_drop_thinking", "paired"}
