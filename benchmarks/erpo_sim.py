"""ERPO vs GRPO (and ablations) in a controlled CPU simulation where the effect is measurable.

A population of simulated tasks in several environments: each task is a one-step bandit with K
actions and per-action success probabilities; the environment turns success into a reward with its
own scale and noise (binary, 0..10 partial credit, a noisy judge score). The policy of each task is
a softmax over its K logits, trained with the package's own ``compute_advantages``,
``DynamicSampler`` and ``ppo_clip_grad`` (a rollout is one agent token: its action). User errors
are injected: with probability ``p_user_error`` a rollout's reward is flipped (the simulated user
broke the episode) and the MEU judge flags it with probability ``judge_recall`` (and flags clean
rollouts with probability ``judge_fpr``). MEU variants mask flagged rollouts; no-MEU ones use them.

Measured over many seeds, at two fixed policy snapshots ("init": the seed's initial logits,
"skilled": the best action's logit raised by 2.5) and along training:

* ``adv_nmse``: advantage estimation error, ``E[(A_hat - A*)^2] / E[A*^2]`` over the rollouts that
  enter the loss, where ``A*`` is the method's own noiseless advantage (expected reward of the
  action minus the task's expected reward, over the method's true scale: task std for GRPO,
  environment std for ERPO, batch std for the batch-pooled variant); corruption counts as error.
* ``grad_cos``: cosine between the batch policy gradient and the true gradient of mean success.
* ``corrupt_abs_adv`` / ``corrupt_spill``: one clean batch, one rollout's reward flipped: the
  |advantage| the corrupted rollout receives, and the mean |change| of every other advantage.
* learning curves of the true mean success (expected, not sampled), final success and AUC.

Prints a table and, last, one JSON line with the headline figures (medians over seeds). Writes
a PNG with ``--out`` (default ``benchmarks/out/``) when matplotlib (the ``[plots]`` extra) is
installed. Run: ``python benchmarks/erpo_sim.py`` (about 30-60 s on one core).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from bench_method import Load, finish

from autoforge.rl import (
    DynamicSampler,
    Method,
    RolloutGroup,
    compute_advantages,
    group_advantages,
    ppo_clip_grad,
)

# --- the simulated world -------------------------------------------------------------------


@dataclass(frozen=True)
class EnvKind:
    """How an environment turns success into reward, and how hard its tasks are."""

    name: str
    reward: str  # "binary" | "partial10" | "noisy"
    best: tuple[float, float]  # range of the best action's success probability
    others: tuple[float, float]  # range of the other actions' success probability
    noise: float = 0.0  # std of the judge noise ("noisy")


ENV_KINDS = (
    EnvKind("binary-mixed", "binary", (0.3, 0.95), (0.0, 0.3)),
    EnvKind("binary-hard", "binary", (0.15, 0.5), (0.0, 0.08)),
    EnvKind("partial-0..10", "partial10", (0.6, 0.95), (0.1, 0.5)),
    EnvKind("noisy-judge", "noisy", (0.5, 0.9), (0.1, 0.4), noise=0.4),
)


@dataclass(frozen=True)
class World:
    """Tasks (one bandit each), their environment, success probabilities and initial logits."""

    env_of_task: np.ndarray  # (N,) int
    q: np.ndarray  # (N, K) success probability per action
    theta0: np.ndarray  # (N, K) initial logits
    kinds: tuple[EnvKind, ...]
    partial: np.ndarray  # (N,) bool: reward is a 0..10 count of passed checks
    noise_sd: np.ndarray  # (N,) std of the judge noise added to the reward
    phi: np.ndarray  # (N, K, D) features of each action for the shared logits (D may be 0)

    @property
    def n_tasks(self) -> int:
        return int(self.q.shape[0])


def make_world(
    seed: int, tasks_per_env: int, n_actions: int, shared_dim: int = 0, signal: float = 1.0
) -> World:
    """Draw a task population: per env, tasks with one good action and K-1 weaker ones.

    With ``shared_dim > 0`` each action also gets a feature vector, noisy but correlated with
    its success probability along one hidden direction (strength ``signal``), for the shared
    part of the policy.
    """
    rng = np.random.default_rng([seed, 0])
    envs, qs = [], []
    for e, kind in enumerate(ENV_KINDS):
        for _ in range(tasks_per_env):
            q = rng.uniform(*kind.others, n_actions)
            q[rng.integers(n_actions)] = rng.uniform(*kind.best)
            envs.append(e)
            qs.append(q)
    q_arr = np.array(qs)
    theta0 = rng.normal(0.0, 0.5, q_arr.shape)
    env = np.array(envs)
    partial = np.array([ENV_KINDS[e].reward == "partial10" for e in env])
    noise_sd = np.array([ENV_KINDS[e].noise for e in env])
    return World(
        env, q_arr, theta0, ENV_KINDS, partial, noise_sd, _features(seed, q_arr, shared_dim, signal)
    )


def _features(seed: int, q: np.ndarray, dim: int, signal: float) -> np.ndarray:
    """Action features: standardised success along a hidden unit direction, plus N(0, 1)."""
    rng = np.random.default_rng([seed, 3])
    u = rng.normal(size=dim)
    u /= max(float(np.linalg.norm(u)), 1e-12)
    z = (q - q.mean(axis=1, keepdims=True)) / (q.std(axis=1, keepdims=True) + 1e-9)
    return np.asarray(signal * z[..., None] * u + rng.normal(size=(*q.shape, dim)))


def reward_moments(world: World) -> tuple[np.ndarray, np.ndarray]:
    """Per task and action: mean and variance of the clean reward."""
    q, partial = world.q, world.partial[:, None]
    mean = np.where(partial, 10 * q, q)
    var = np.where(partial, 10 * q * (1 - q), q * (1 - q) + world.noise_sd[:, None] ** 2)
    return mean, var


def softmax(theta: np.ndarray) -> np.ndarray:
    z = np.exp(theta - theta.max(axis=-1, keepdims=True))
    return np.asarray(z / z.sum(axis=-1, keepdims=True))


def true_success(world: World, theta: np.ndarray) -> float:
    """Mean over all tasks of the expected success probability under the current policy."""
    return float((softmax(theta) * world.q).sum(axis=1).mean())


# --- rollouts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Noise:
    """User errors and the MEU judge."""

    p_user_error: float
    judge_recall: float
    judge_fpr: float


@dataclass
class Batch:
    """Flat per-rollout arrays of one training batch."""

    task: np.ndarray
    env: np.ndarray
    action: np.ndarray
    reward: np.ndarray  # observed (possibly corrupted)
    clean: np.ndarray  # what the reward would have been without a user error
    flag: np.ndarray  # the judge's user_error flag

    @classmethod
    def concat(cls, parts: list[Batch]) -> Batch:
        names = ("task", "env", "action", "reward", "clean", "flag")
        return cls(*(np.concatenate([getattr(p, n) for p in parts]) for n in names))


def flip(world: World, task: np.ndarray, reward: np.ndarray) -> np.ndarray:
    """The corrupted reward of a user-error rollout: success and failure swapped."""
    return np.where(world.partial[task], 10.0, 1.0) - reward


def simulate(
    world: World, theta: np.ndarray, tasks: np.ndarray, group: int, noise: Noise, rng: Any
) -> Batch:
    """``group`` rollouts of each task in ``tasks``: action, reward, user error, judge flag."""
    task = np.repeat(tasks, group)
    env = world.env_of_task[task]
    pi = softmax(theta[task])
    action = (rng.random((len(task), 1)) > np.cumsum(pi, axis=1)).sum(axis=1)
    action = np.minimum(action, pi.shape[1] - 1)
    q = world.q[task, action]
    success = rng.random(len(task)) < q
    clean = np.where(world.partial[task], rng.binomial(10, q), success.astype(float))
    clean = clean + world.noise_sd[task] * rng.standard_normal(len(task))
    user_error = rng.random(len(task)) < noise.p_user_error
    reward = np.where(user_error, flip(world, task, clean), clean)
    caught = rng.random(len(task)) < np.where(user_error, noise.judge_recall, noise.judge_fpr)
    return Batch(task, env, action, reward, clean, caught)


def to_groups(batch: Batch, group: int) -> list[RolloutGroup]:
    """One ``RolloutGroup`` per task (the batch holds ``group`` consecutive rollouts per task)."""
    out = []
    for start in range(0, len(batch.task), group):
        sl = slice(start, start + group)
        part = Batch(*(getattr(batch, n)[sl] for n in Batch.__dataclass_fields__))
        out.append(
            RolloutGroup(
                str(batch.task[start]), str(batch.env[start]), part.reward.tolist(),
                part.flag.tolist(), payload=part,
            )
        )  # fmt: skip
    return out


# --- variants, advantages and the PPO update -------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One algorithm configuration (the ablation switches of ``ERPOConfig``)."""

    name: str
    scale: str  # "env" (ERPO) | "task" (GRPO) | "batch" (one pool for the whole batch)
    meu: bool = True
    dynamic_sampling: bool = True
    std_pool: str = "kept"  # ERPOConfig.std_pool: "kept" | "generated" (training only)


VARIANTS = {
    v.name: v
    for v in (
        Variant("erpo", "env"),
        Variant("grpo", "task"),
        Variant("erpo_no_meu", "env", meu=False),
        Variant("grpo_no_meu", "task", meu=False),
        Variant("erpo_no_ds", "env", dynamic_sampling=False),
        Variant("batch_std", "batch"),
        Variant("erpo_pool_gen", "env", std_pool="generated"),
    )
}


def advantages(variant: Variant, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
    """The package's ``compute_advantages`` for this variant; also the mask of counted rollouts."""
    method: Method = "grpo" if variant.scale == "task" else "erpo"
    envs = np.zeros_like(batch.env) if variant.scale == "batch" else batch.env
    adv = compute_advantages(
        batch.reward, batch.task, envs, batch.flag, method=method, mask_user_errors=variant.meu
    )
    valid = ~batch.flag if variant.meu else np.ones(len(adv), dtype=bool)
    return adv, valid


@dataclass(frozen=True)
class TrainCfg:
    """Training and batch sizes."""

    steps: int
    batch_tasks: int
    group: int
    lr: float
    epochs: int
    eps_low: float
    eps_high: float
    max_rounds: int
    noise: Noise


def collect(
    world: World, theta: np.ndarray, variant: Variant, cfg: TrainCfg, rng: Any
) -> tuple[Batch, int, np.ndarray | None]:
    """One step's batch through ``DynamicSampler``, how many rollouts were generated, and (for
    ``std_pool="generated"``) the batch's advantages from ``group_advantages`` with the dropped
    groups in the environment std (else None: :func:`advantages` computes them)."""
    sampler = DynamicSampler(
        target_tasks=cfg.batch_tasks,
        max_rounds=cfg.max_rounds,
        enabled=variant.dynamic_sampling,
        mask_user_errors=variant.meu,
    )
    while not sampler.done:
        tasks = rng.choice(world.n_tasks, cfg.batch_tasks, replace=False)
        sampler.add(to_groups(simulate(world, theta, tasks, cfg.group, cfg.noise, rng), cfg.group))
    groups = sampler.batch()
    generated = sampler.stats.rollouts_generated
    if not groups:  # nothing informative in any round: an empty step
        empty = Batch(*(np.zeros(0, dtype=d) for d in (int, int, int, float, float, bool)))
        return empty, generated, None
    pooled = None
    if variant.std_pool == "generated" and variant.scale == "env":
        pooled = group_advantages(
            groups, sampler.dropped(), std_pool="generated", mask_user_errors=variant.meu
        )
    return Batch.concat([g.payload for g in groups]), generated, pooled


def policy_grad_theta(theta: np.ndarray, batch: Batch, g_logp: np.ndarray) -> np.ndarray:
    """Chain rule through the softmax: d logpi(a) / d theta = onehot(a) - pi."""
    pi = softmax(theta[batch.task])
    contrib = -g_logp[:, None] * pi
    contrib[np.arange(len(batch.task)), batch.action] += g_logp
    grad = np.zeros_like(theta)
    np.add.at(grad, batch.task, contrib)
    return grad


def shared_grad(world: World, logits: np.ndarray, batch: Batch, g_logp: np.ndarray) -> np.ndarray:
    """Chain rule to the shared weights: d logpi(a) / d w = phi(a) - E_pi[phi]."""
    phi = world.phi[batch.task]  # (n, K, D)
    pi = softmax(logits[batch.task])
    centred = phi[np.arange(len(batch.task)), batch.action] - np.einsum("nk,nkd->nd", pi, phi)
    return np.asarray(g_logp @ centred)


def logits_of(world: World, theta: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Per-task logits plus the shared part ``phi @ w``."""
    return theta + world.phi @ w if w.size else theta


def ppo_update(
    world: World,
    params: tuple[np.ndarray, np.ndarray],
    batch: Batch,
    adv: np.ndarray,
    valid: np.ndarray,
    cfg: TrainCfg,
) -> None:
    """``cfg.epochs`` full-batch SGD steps on the PPO-clip loss (the package's analytic grad)."""
    theta, w = params
    rows = np.arange(len(batch.task))
    old = np.log(softmax(logits_of(world, theta, w)[batch.task])[rows, batch.action])[:, None]
    ones = np.ones((len(rows), 1))
    for _ in range(cfg.epochs):
        logits = logits_of(world, theta, w)
        logp = np.log(softmax(logits[batch.task])[rows, batch.action])[:, None]
        g = ppo_clip_grad(
            logp, old, adv, ones, rollout_mask=valid, eps_low=cfg.eps_low, eps_high=cfg.eps_high
        )[:, 0]
        if w.size:
            w -= cfg.lr * shared_grad(world, logits, batch, g)
        theta -= cfg.lr * policy_grad_theta(logits, batch, g)


def train(world: World, variant: Variant, cfg: TrainCfg, seed: int) -> tuple[np.ndarray, float]:
    """Learning curve of the true success (steps + 1 points) and mean rollouts generated/step."""
    rng = np.random.default_rng([seed, 1])  # same stream for every variant of a seed
    theta, w = world.theta0.copy(), np.zeros(world.phi.shape[-1])
    curve = [true_success(world, theta)]
    generated = 0
    for _ in range(cfg.steps):
        batch, n_generated, pooled = collect(world, logits_of(world, theta, w), variant, cfg, rng)
        generated += n_generated
        if len(batch.task):
            adv, valid = advantages(variant, batch)
            adv = adv if pooled is None else pooled
            ppo_update(world, (theta, w), batch, adv, valid, cfg)
        curve.append(true_success(world, logits_of(world, theta, w)))
    return np.array(curve), generated / cfg.steps


# --- estimation quality at a fixed policy ---------------------------------------------------


def true_scale(world: World, theta: np.ndarray, batch: Batch, scale: str) -> np.ndarray:
    """Per rollout, the population std the method's estimate aims at (task, env or batch)."""
    mean, var = reward_moments(world)
    pi = softmax(theta)
    mu = (pi * mean).sum(axis=1)
    second = (pi * (var + mean**2)).sum(axis=1)
    if scale == "task":
        return np.asarray(np.sqrt(np.maximum(second - mu**2, 0.0))[batch.task])
    tasks = np.unique(batch.task)
    pool = world.env_of_task if scale == "env" else np.zeros(world.n_tasks, dtype=int)
    sigma_pool = {}
    for p in np.unique(pool[tasks]):
        members = tasks[pool[tasks] == p]
        sigma_pool[p] = np.sqrt(second[members].mean() - mu[members].mean() ** 2)
    return np.array([sigma_pool[p] for p in pool[batch.task]])


def _over(num: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    return np.asarray(np.divide(num, sigma, out=np.zeros_like(num), where=sigma > 0))


def ideal_advantages(
    world: World, theta: np.ndarray, batch: Batch, sigma: np.ndarray
) -> np.ndarray:
    """The noiseless advantage ``(m(a) - mu_i) / sigma*`` (expected rewards, true scale)."""
    mean, _ = reward_moments(world)
    mu = (softmax(theta) * mean).sum(axis=1)
    return _over(mean[batch.task, batch.action] - mu[batch.task], sigma)


def oracle_advantages(batch: Batch, sigma: np.ndarray) -> np.ndarray:
    """What an oracle makes of the same rollouts: clean rewards, centred per task, true scale."""
    codes = np.unique(batch.task, return_inverse=True)[1]
    task_mean = np.bincount(codes, batch.clean) / np.bincount(codes)
    return _over(batch.clean - task_mean[codes], sigma)


def grad_cosine(world: World, theta: np.ndarray, batch: Batch, adv: np.ndarray) -> float:
    """Cosine between the batch policy gradient and the true gradient of mean success."""
    tasks = np.unique(batch.task)
    est = -policy_grad_theta(theta, batch, -adv)[tasks]
    pi = softmax(theta[tasks])
    true = pi * (world.q[tasks] - (pi * world.q[tasks]).sum(axis=1, keepdims=True))
    denom = np.linalg.norm(est) * np.linalg.norm(true)
    return float((est * true).sum() / denom) if denom > 0 else 0.0


def corruption_effect(
    world: World, theta: np.ndarray, variant: Variant, cfg: TrainCfg, rng: Any
) -> tuple[float, float]:
    """Flip one rollout of a clean batch (flagged with the judge's recall): |A| it gets, spill."""
    tasks = rng.choice(world.n_tasks, cfg.batch_tasks, replace=False)
    clean = simulate(world, theta, tasks, cfg.group, Noise(0.0, 0.0, 0.0), rng)
    before, _ = advantages(variant, clean)
    k = int(rng.integers(len(clean.task)))
    reward, flag = clean.reward.copy(), clean.flag.copy()
    reward[k] = flip(world, clean.task[k : k + 1], reward[k : k + 1])[0]
    flag[k] = rng.random() < cfg.noise.judge_recall
    after, _ = advantages(variant, Batch(clean.task, clean.env, clean.action, reward, reward, flag))
    others = np.arange(len(after)) != k
    return abs(float(after[k])), float(np.abs(after - before)[others].mean())


def snapshot(
    world: World, theta: np.ndarray, variant: Variant, cfg: TrainCfg, rng: Any, repeats: int
) -> dict[str, float]:
    """Estimation metrics of ``variant`` at a fixed policy, averaged over ``repeats`` batches."""
    sums = np.zeros(4)  # squared error and size, vs the noiseless and the oracle advantage
    cos, max_abs, self_abs, spill = [], [], [], []
    for _ in range(repeats):
        tasks = rng.choice(world.n_tasks, cfg.batch_tasks, replace=False)
        batch = simulate(world, theta, tasks, cfg.group, cfg.noise, rng)
        adv, valid = advantages(variant, batch)
        sigma = true_scale(world, theta, batch, variant.scale)
        for k, target in enumerate(
            (ideal_advantages(world, theta, batch, sigma), oracle_advantages(batch, sigma))
        ):
            sums[2 * k] += float(((adv - target)[valid] ** 2).sum())
            sums[2 * k + 1] += float((target[valid] ** 2).sum())
        cos.append(grad_cosine(world, theta, batch, adv))
        max_abs.append(float(np.abs(adv).max()))
        a, s = corruption_effect(world, theta, variant, cfg, rng)
        self_abs.append(a)
        spill.append(s)
    return {
        "adv_nmse": sums[0] / sums[1] if sums[1] > 0 else float("nan"),
        "oracle_nmse": sums[2] / sums[3] if sums[3] > 0 else float("nan"),
        "grad_cos": float(np.mean(cos)),
        "max_abs_adv": float(np.median(max_abs)),
        "corrupt_abs_adv": float(np.mean(self_abs)),
        "corrupt_spill": float(np.mean(spill)),
    }


# --- the thinking switch: a two-turn variant ------------------------------------------------


def _two_turn_targets(world: World, seed: int) -> np.ndarray:
    """Per task and turn-1 action: the turn-2 action that completes it (a fixed permutation)."""
    rng = np.random.default_rng([seed, 4])
    k = world.q.shape[1]
    return np.stack([rng.permutation(k) for _ in range(world.n_tasks)])


def two_turn_success(world: World, theta: np.ndarray, phi: np.ndarray, target: np.ndarray,
                     keep: bool) -> float:  # fmt: skip
    """Expected success: turn 1 succeeds and turn 2 picks the follow-up of turn 1's plan."""
    pi1 = softmax(theta)
    pi2 = softmax(phi)  # (N, K contexts, K actions)
    n, k = world.q.shape
    ctx = np.arange(k) if keep else np.zeros(k, dtype=int)
    hit = pi2[np.arange(n)[:, None], ctx[None, :], target]  # (N, K): P(a2 = target | a1)
    return float((pi1 * world.q * hit).sum(axis=1).mean())


def train_thinking(world: World, cfg: TrainCfg, seed: int, keep: bool) -> np.ndarray:
    """ERPO on two-turn episodes; the learning curve of the expected success.

    Turn 1 is the bandit above; its reasoning fixes a plan, and turn 2 succeeds only with the
    plan's follow-up (a per-task permutation of turn 1's action). With ``keep`` the turn-2
    policy conditions on turn 1's action (it sees the earlier reasoning); dropped, it has one
    context for all plans and must learn the follow-up of whatever turn 1 converges to. Both
    turns share the episode's advantage (``compute_advantages``) and ``ppo_clip_grad``, two
    tokens per rollout. No user errors and no dynamic sampling: only the switch differs.
    """
    rng = np.random.default_rng([seed, 5])
    target = _two_turn_targets(world, seed)
    n, k = world.q.shape
    theta, phi = world.theta0.copy(), np.zeros((n, k, k))
    curve = [two_turn_success(world, theta, phi, target, keep)]
    for _ in range(cfg.steps):
        tasks = np.repeat(rng.choice(n, cfg.batch_tasks, replace=False), cfg.group)
        a1 = (rng.random((len(tasks), 1)) > np.cumsum(softmax(theta[tasks]), axis=1)).sum(axis=1)
        a1 = np.minimum(a1, k - 1)
        ctx = a1 if keep else np.zeros_like(a1)
        a2 = (rng.random((len(tasks), 1)) > np.cumsum(softmax(phi[tasks, ctx]), axis=1)).sum(axis=1)
        a2 = np.minimum(a2, k - 1)
        ok1 = rng.random(len(tasks)) < world.q[tasks, a1]
        reward = (ok1 & (a2 == target[tasks, a1])).astype(float)
        adv = compute_advantages(reward, tasks, world.env_of_task[tasks])
        rows = np.arange(len(tasks))
        old = np.stack([np.log(softmax(theta[tasks])[rows, a1]),
                        np.log(softmax(phi[tasks, ctx])[rows, a2])], axis=1)  # fmt: skip
        for _ in range(cfg.epochs):
            p1, p2 = softmax(theta[tasks]), softmax(phi[tasks, ctx])
            logp = np.stack([np.log(p1[rows, a1]), np.log(p2[rows, a2])], axis=1)
            g = ppo_clip_grad(logp, old, adv, np.ones_like(logp), eps_low=cfg.eps_low,
                              eps_high=cfg.eps_high)  # fmt: skip
            for probs, act, g_col, update in ((p1, a1, g[:, 0], "theta"), (p2, a2, g[:, 1], "phi")):
                contrib = -g_col[:, None] * probs
                contrib[rows, act] += g_col
                if update == "theta":
                    np.add.at(theta, tasks, -cfg.lr * contrib)
                else:
                    np.add.at(phi, (tasks, ctx), -cfg.lr * contrib)
        curve.append(two_turn_success(world, theta, phi, target, keep))
    return np.array(curve)


def thinking_rows(worlds: list[World], cfg: TrainCfg, tail: int) -> dict[str, dict[str, float]]:
    """Final success and AUC (medians over seeds) with earlier reasoning kept and dropped."""
    curves = {
        name: [train_thinking(w, cfg, seed, keep) for seed, w in enumerate(worlds)]
        for name, keep in (("erpo_keep_thinking", True), ("erpo_drop_thinking", False))
    }
    rows = {}
    for name, runs in curves.items():
        final = np.array([c[-tail:].mean() for c in runs])
        rows[name] = {"final_success": float(np.median(final)),
                      "auc": float(np.median([c.mean() for c in runs])),
                      "start_success": float(np.median([c[0] for c in runs]))}  # fmt: skip
    keep = np.array([c[-tail:].mean() for c in curves["erpo_keep_thinking"]])
    drop = np.array([c[-tail:].mean() for c in curves["erpo_drop_thinking"]])
    rows["paired"] = {"median_diff": float(np.median(keep - drop)),
                      "win_rate": float(np.mean(keep > drop))}  # fmt: skip
    return rows


# --- the experiment -------------------------------------------------------------------------


@dataclass
class SeedResult:
    """Everything measured for one (variant, seed)."""

    curve: np.ndarray
    generated_per_step: float
    snapshots: dict[str, dict[str, float]] = field(default_factory=dict)


def skilled_theta(world: World) -> np.ndarray:
    """A fixed "partly trained" snapshot: the best action's logit raised by 2.5."""
    theta = world.theta0.copy()
    theta[np.arange(world.n_tasks), world.q.argmax(axis=1)] += 2.5
    return theta


def run_seed(world: World, variant: Variant, cfg: TrainCfg, seed: int, repeats: int) -> SeedResult:
    """Train one variant on one seed's world, then measure it at the two fixed snapshots."""
    curve, generated = train(world, variant, cfg, seed)
    result = SeedResult(curve, generated)
    for name, theta in (("init", world.theta0), ("skilled", skilled_theta(world))):
        rng = np.random.default_rng([seed, 2])  # common random numbers across variants
        result.snapshots[name] = snapshot(world, theta, variant, cfg, rng, repeats)
    return result


def summarise(results: dict[str, list[SeedResult]], tail: int) -> dict[str, dict[str, float]]:
    """Medians (and quartiles of final success) over seeds, per variant."""
    out = {}
    for name, runs in results.items():
        final = np.array([r.curve[-tail:].mean() for r in runs])
        row = {
            "final_success": float(np.median(final)),
            "final_q1": float(np.quantile(final, 0.25)),
            "final_q3": float(np.quantile(final, 0.75)),
            "auc": float(np.median([r.curve.mean() for r in runs])),
            "start_success": float(np.median([r.curve[0] for r in runs])),
            "rollouts_per_step": float(np.median([r.generated_per_step for r in runs])),
        }
        for snap in ("init", "skilled"):
            for key in runs[0].snapshots[snap]:
                row[f"{snap}.{key}"] = float(np.median([r.snapshots[snap][key] for r in runs]))
        out[name] = row
    return out


def paired(results: dict[str, list[SeedResult]], a: str, b: str, tail: int) -> dict[str, float]:
    """Per-seed difference of final success ``a - b``: median and the share of seeds a wins."""
    if a not in results or b not in results:
        return {}
    da = np.array([r.curve[-tail:].mean() for r in results[a]])
    db = np.array([r.curve[-tail:].mean() for r in results[b]])
    return {"median_diff": float(np.median(da - db)), "win_rate": float(np.mean(da > db))}


COLUMNS = (
    ("final_success", "final succ"),
    ("auc", "AUC"),
    ("rollouts_per_step", "gen/step"),
    ("init.oracle_nmse", "orcl init"),
    ("skilled.oracle_nmse", "orcl sk"),
    ("init.adv_nmse", "NMSE init"),
    ("skilled.adv_nmse", "NMSE sk"),
    ("skilled.grad_cos", "cos sk"),
    ("skilled.max_abs_adv", "max|A| sk"),
    ("skilled.corrupt_abs_adv", "|A| corr sk"),
    ("skilled.corrupt_spill", "spill sk"),
)


def print_table(summary: dict[str, dict[str, float]], file: Any = None) -> None:
    """A fixed-width table: one row per variant, medians over seeds."""
    file = file or sys.stdout
    head = f"{'variant':<12}" + "".join(f"{label:>12}" for _, label in COLUMNS)
    print(head, file=file)
    print("-" * len(head), file=file)
    for name, row in summary.items():
        cells = "".join(f"{row[key]:>12.4f}" for key, _ in COLUMNS)
        print(f"{name:<12}{cells}", file=file)
    print(file=file)
    for name, row in summary.items():
        print(
            f"{name:<12} final success IQR [{row['final_q1']:.3f}, {row['final_q3']:.3f}]  "
            f"init {row['start_success']:.3f}",
            file=file,
        )


def plot(results: dict[str, list[SeedResult]], summary: dict, path: Path) -> bool:
    """Learning curves and the estimation metrics as one PNG; False without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, axes = plt.subplots(2, 2, figsize=(13, 9))
    ax = axes[0, 0]
    for name, runs in results.items():
        curves = np.array([r.curve for r in runs])
        med = np.median(curves, axis=0)
        ax.plot(med, label=name)
        ax.fill_between(np.arange(len(med)), *np.quantile(curves, [0.25, 0.75], axis=0), alpha=0.15)
    ax.set(title="true mean success (median, IQR over seeds)", xlabel="step", ylabel="success")
    ax.legend(fontsize=8)
    names = list(summary)
    x = np.arange(len(names))
    bars = (
        (axes[0, 1], ("init.oracle_nmse", "skilled.oracle_nmse"), "advantage NMSE vs oracle"),
        (axes[1, 0], ("init.grad_cos", "skilled.grad_cos"), "cos(batch grad, true success grad)"),
        (axes[1, 1], ("skilled.corrupt_abs_adv", "skilled.corrupt_spill"), "one flipped rollout"),
    )
    for ax, keys, title in bars:
        for k, key in enumerate(keys):
            ax.bar(x + 0.4 * k - 0.2, [summary[n][key] for n in names], 0.4, label=key)
        ax.set_xticks(x, names, rotation=20, fontsize=8)
        ax.set_title(title)
        ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def headline(summary: dict, results: dict, tail: int, seconds: float) -> dict[str, Any]:
    """The JSON object printed last."""

    def pick(key: str) -> dict[str, float]:
        return {n: round(row[key], 4) for n, row in summary.items()}

    def ratio(key: str) -> float | None:
        if "erpo" in summary and "grpo" in summary and summary["erpo"][key] > 0:
            return round(summary["grpo"][key] / summary["erpo"][key], 3)
        return None

    return {
        "bench": "erpo_sim",
        "seeds": len(next(iter(results.values()))),
        "final_success_median": pick("final_success"),
        "auc_median": pick("auc"),
        "oracle_nmse_init": pick("init.oracle_nmse"),
        "oracle_nmse_skilled": pick("skilled.oracle_nmse"),
        "oracle_nmse_ratio_grpo_over_erpo": {
            "init": ratio("init.oracle_nmse"),
            "skilled": ratio("skilled.oracle_nmse"),
        },
        "adv_nmse_init": pick("init.adv_nmse"),
        "adv_nmse_skilled": pick("skilled.adv_nmse"),
        "adv_nmse_ratio_grpo_over_erpo": {
            "init": ratio("init.adv_nmse"),
            "skilled": ratio("skilled.adv_nmse"),
        },
        "grad_cos_skilled": pick("skilled.grad_cos"),
        "corrupt_abs_adv_skilled": pick("skilled.corrupt_abs_adv"),
        "corrupt_spill_skilled": pick("skilled.corrupt_spill"),
        "erpo_vs_grpo_final": paired(results, "erpo", "grpo", tail),
        "erpo_vs_erpo_no_meu_final": paired(results, "erpo", "erpo_no_meu", tail),
        "erpo_vs_erpo_pool_gen_final": paired(results, "erpo", "erpo_pool_gen", tail),
        "seconds": round(seconds, 1),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--steps", type=int, default=120)
    p.add_argument("--tasks-per-env", type=int, default=12)
    p.add_argument("--actions", type=int, default=6)
    p.add_argument("--shared-dim", type=int, default=0, help="shared feature logits (0: none)")
    p.add_argument("--shared-signal", type=float, default=1.0, help="feature/success link")
    p.add_argument("--batch-tasks", type=int, default=16)
    p.add_argument("--group-size", type=int, default=8)
    p.add_argument("--lr", type=float, default=8.0)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--max-rounds", type=int, default=3)
    p.add_argument("--p-user-error", type=float, default=0.1)
    p.add_argument("--judge-recall", type=float, default=0.9)
    p.add_argument("--judge-fpr", type=float, default=0.02)
    p.add_argument("--repeats", type=int, default=10, help="batches per snapshot metric")
    p.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated subset")
    p.add_argument("--out", type=Path, default=Path(__file__).parent / "out")
    p.add_argument("--no-plot", action="store_true")
    p.add_argument("--no-thinking", action="store_true", help="skip the two-turn thinking rows")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    unknown = set(args.variants.split(",")) - set(VARIANTS)
    if unknown:
        raise SystemExit(f"unknown variants: {sorted(unknown)}; choose from {list(VARIANTS)}")
    cfg = TrainCfg(
        args.steps, args.batch_tasks, args.group_size, args.lr, args.epochs, 0.2, 0.28,
        args.max_rounds, Noise(args.p_user_error, args.judge_recall, args.judge_fpr),
    )  # fmt: skip
    load = Load()  # start and end printed at the end, before the JSON line
    start, cpu = time.perf_counter(), time.process_time()
    results: dict[str, list[SeedResult]] = {v: [] for v in args.variants.split(",")}
    worlds = []
    for seed in range(args.seeds):
        world = make_world(
            seed, args.tasks_per_env, args.actions, args.shared_dim, args.shared_signal
        )
        worlds.append(world)
        for name in results:
            results[name].append(run_seed(world, VARIANTS[name], cfg, seed, args.repeats))
    tail = max(1, args.steps // 10)
    summary = summarise(results, tail)
    thinking = {} if args.no_thinking else thinking_rows(worlds, cfg, tail)
    seconds, cpu_s = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"ERPO simulation: {args.seeds} seeds x {args.steps} steps, {len(ENV_KINDS)} envs x "
        f"{args.tasks_per_env} tasks, {args.batch_tasks} tasks x {args.group_size} rollouts/step, "
        f"p_user_error={args.p_user_error}, judge recall={args.judge_recall} fpr={args.judge_fpr}"
    )
    print("medians over seeds; 'sk' = at the skilled snapshot\n")
    print_table(summary)
    if not args.no_plot:
        png = args.out / "erpo_sim.png"
        print(f"\nplot: {png}" if plot(results, summary, png) else "\n(no matplotlib: no plot)")
    if thinking:
        print("\ntwo-turn episodes (turn 2 must follow turn 1's plan), ERPO, medians over seeds:")
        for name, row in thinking.items():
            if name != "paired":
                print(f"{name:<20} final succ {row['final_success']:.4f}  AUC {row['auc']:.4f}  "
                      f"init {row['start_success']:.4f}")  # fmt: skip
    out = headline(summary, results, tail, seconds)
    out["thinking"] = thinking
    out["cpu_seconds"] = round(cpu_s, 1)
    finish(out, load)
    out["load"] = load.as_json()
    return out


if __name__ == "__main__":
    main()
