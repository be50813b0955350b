"""PPO-clip loss: clipping regions, masks, normalisation, KL, and the analytic gradient."""

from __future__ import annotations

import numpy as np
import pytest

from autoforge.rl import ppo_clip_grad, ppo_clip_loss


def _one_token(ratio: float, adv: float, **kw):
    logp = np.array([[np.log(ratio)]])
    old = np.zeros((1, 1))
    a = np.array([adv])
    mask = np.ones((1, 1))
    return ppo_clip_loss(logp, old, a, mask, **kw), ppo_clip_grad(logp, old, a, mask, **kw)


@pytest.mark.parametrize(
    ("ratio", "adv", "clipped", "loss"),
    [
        (1.0, 2.0, False, -2.0),  # on-policy: loss = -A
        (1.1, 2.0, False, -2.2),  # inside the trust region
        (1.5, 2.0, True, -2.4),  # A > 0, ratio above 1 + eps: capped at 1.2 * A, no gradient
        (0.5, 2.0, False, -1.0),  # A > 0, ratio below 1 - eps: min keeps the unclipped term
        (0.5, -2.0, True, 1.6),  # A < 0, ratio below 1 - eps: capped at 0.8 * A
        (1.5, -2.0, False, 3.0),  # A < 0, ratio above 1 + eps: pessimistic unclipped term
    ],
)
def test_clipping_regions(ratio, adv, clipped, loss):
    out, grad = _one_token(ratio, adv)
    assert float(out.loss) == pytest.approx(loss)
    assert float(out.clip_fraction) == (1.0 if clipped else 0.0)
    expected_grad = 0.0 if clipped else -adv * ratio
    assert grad[0, 0] == pytest.approx(expected_grad)


def test_clip_higher_widens_only_the_upper_bound():
    out, grad = _one_token(1.25, 1.0)
    assert float(out.clip_fraction) == 1.0 and grad[0, 0] == 0.0
    out, grad = _one_token(1.25, 1.0, eps_high=0.28)
    assert float(out.clip_fraction) == 0.0 and grad[0, 0] == pytest.approx(-1.25)
    out, _ = _one_token(0.75, -1.0, eps_high=0.28)  # lower bound still 1 - 0.2
    assert float(out.clip_fraction) == 1.0 and float(out.loss) == pytest.approx(0.8)


def test_token_level_normalisation_over_unmasked_tokens():
    # Rollout 0 has 3 agent tokens, rollout 1 has 1 (the rest is tool output / padding).
    logp = np.zeros((2, 4))
    adv = np.array([1.0, -3.0])
    mask = np.array([[1, 1, 1, 0], [0, 1, 0, 0]], dtype=float)
    out = ppo_clip_loss(logp, logp, adv, mask)
    # ratio 1 everywhere: per-token loss -A; token-level: (3 * -1 + 1 * 3) / 4 = 0.
    assert float(out.loss) == pytest.approx(0.0)
    assert float(out.n_tokens) == 4 and float(out.n_rollouts) == 2
    # Sequence-level: mean over rollouts of per-rollout means: (-1 + 3) / 2 = 1.
    seq = ppo_clip_loss(logp, logp, adv, mask, agg="sequence")
    assert float(seq.loss) == pytest.approx(1.0)


def test_masked_tokens_and_rollouts_change_nothing():
    rng = np.random.default_rng(0)
    logp, old = rng.normal(-1, 0.3, (2, 3, 5))
    adv = np.array([0.7, -1.2, 2.0])
    mask = (rng.random((3, 5)) < 0.7).astype(float)
    mask[:, 0] = 1
    base = ppo_clip_loss(logp, old, adv, mask)
    # Garbage (finite) values on masked tokens: identical loss.
    noisy = np.where(mask > 0, logp, rng.normal(0, 50, logp.shape))
    assert float(ppo_clip_loss(noisy, old, adv, mask).loss) == pytest.approx(float(base.loss))
    # An extra rollout masked out (MEU) with a huge advantage: identical loss and normaliser.
    out = ppo_clip_loss(
        np.vstack([logp, np.zeros((1, 5))]),
        np.vstack([old, np.ones((1, 5))]),
        np.append(adv, 1e6),
        np.vstack([mask, np.ones((1, 5))]),
        rollout_mask=np.array([1, 1, 1, 0.0]),
    )
    assert float(out.loss) == pytest.approx(float(base.loss))
    assert float(out.n_tokens) == mask.sum() and float(out.n_rollouts) == 3


def test_loss_is_normalised_by_the_unmasked_count_not_the_batch_size():
    logp = np.zeros((4, 2))
    adv = np.array([1.0, 1.0, 1.0, 1.0])
    mask = np.ones((4, 2))
    full = ppo_clip_loss(logp, logp, adv, mask)
    half = ppo_clip_loss(logp, logp, adv, mask, rollout_mask=np.array([1, 1, 0, 0.0]))
    assert float(full.loss) == pytest.approx(-1.0) and float(half.loss) == pytest.approx(-1.0)
    empty = ppo_clip_loss(logp, logp, adv, np.zeros((4, 2)))
    assert float(empty.loss) == 0.0 and float(empty.n_tokens) == 0.0


def test_kl_is_zero_when_policies_are_equal_and_positive_otherwise():
    rng = np.random.default_rng(1)
    logp = rng.normal(-2, 0.5, (3, 4))
    adv = rng.normal(size=3)
    mask = np.ones((3, 4))
    plain = ppo_clip_loss(logp, logp, adv, mask)
    same = ppo_clip_loss(logp, logp, adv, mask, beta=0.5, ref_logp=logp)
    assert float(same.kl) == 0.0 and float(same.loss) == pytest.approx(float(plain.loss))
    other = ppo_clip_loss(logp, logp, adv, mask, beta=0.5, ref_logp=logp + 0.3)
    k3 = np.exp(0.3) - 0.3 - 1
    assert float(other.kl) == pytest.approx(k3)
    assert float(other.loss) == pytest.approx(float(plain.loss) + 0.5 * k3)
    with pytest.raises(ValueError, match="ref_logp"):
        ppo_clip_loss(logp, logp, adv, mask, beta=0.1)


@pytest.mark.parametrize("agg", ["token", "sequence"])
@pytest.mark.parametrize("beta", [0.0, 0.3])
def test_analytic_gradient_matches_finite_differences(agg, beta):
    rng = np.random.default_rng(2)
    old = rng.normal(-1.5, 0.5, (4, 6))
    logp = old + rng.normal(0, 0.25, (4, 6))  # some tokens outside the trust region
    ref = old + rng.normal(0, 0.2, (4, 6))
    adv = rng.normal(size=4)
    mask = (rng.random((4, 6)) < 0.6).astype(float)
    kw = {"eps_low": 0.2, "eps_high": 0.28, "beta": beta, "ref_logp": ref, "agg": agg,
          "rollout_mask": np.array([1, 1, 0, 1.0])}  # fmt: skip
    grad = ppo_clip_grad(logp, old, adv, mask, **kw)
    h = 1e-6
    num = np.zeros_like(logp)
    for idx in np.ndindex(*logp.shape):
        up, down = logp.copy(), logp.copy()
        up[idx] += h
        down[idx] -= h
        f_up = float(ppo_clip_loss(up, old, adv, mask, **kw).loss)
        f_down = float(ppo_clip_loss(down, old, adv, mask, **kw).loss)
        num[idx] = (f_up - f_down) / (2 * h)
    np.testing.assert_allclose(grad, num, atol=1e-6)
    assert np.all(grad[2] == 0.0) and np.all(grad[mask == 0] == 0.0)


def test_bad_arguments_raise():
    z = np.zeros((1, 1))
    with pytest.raises(ValueError, match="eps_low"):
        ppo_clip_loss(z, z, np.zeros(1), z + 1, eps_low=1.5)
    with pytest.raises(ValueError, match="agg"):
        ppo_clip_loss(z, z, np.zeros(1), z + 1, agg="mean")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="agg"):
        ppo_clip_grad(z, z, np.zeros(1), z + 1, agg="mean")  # type: ignore[arg-type]


@pytest.mark.parametrize("agg", ["token", "sequence"])
def test_torch_port_runs_the_same_lines_under_autograd(agg):
    torch = pytest.importorskip(
        "torch", reason="needs the [train] extra: pip install -e '.[train]'"
    )
    rng = np.random.default_rng(3)
    old = rng.normal(-1.5, 0.5, (3, 5))
    logp = old + rng.normal(0, 0.3, (3, 5))
    ref = old + 0.1
    adv = rng.normal(size=3)
    mask = (rng.random((3, 5)) < 0.7).astype(float)
    kw = {"eps_high": 0.28, "beta": 0.2, "agg": agg}
    t_logp = torch.tensor(logp, requires_grad=True)
    out = ppo_clip_loss(
        t_logp, torch.tensor(old), torch.tensor(adv), torch.tensor(mask),
        ref_logp=torch.tensor(ref), xp=torch, **kw,
    )  # fmt: skip
    out.loss.backward()
    np_out = ppo_clip_loss(logp, old, adv, mask, ref_logp=ref, **kw)
    assert out.loss.item() == pytest.approx(float(np_out.loss))
    grad = ppo_clip_grad(logp, old, adv, mask, ref_logp=ref, **kw)
    np.testing.assert_allclose(t_logp.grad.numpy(), grad, atol=1e-10)
