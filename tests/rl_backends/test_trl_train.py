"""End to end on CPU: ``ERPOTrainer`` trains a tiny random Qwen2 (2 layers, hidden 64, the
embedded GGUF's tokenizer) for two steps on synthesized bookstore tasks with a scripted user.

Two of the tasks are the synthesized ones as they are (a random policy never solves them: their
groups are uninformative and dynamic sampling replaces them); two are the same tasks with the
required output reduced to the letter ``x`` and no state change, which a random policy says in
roughly half of its episodes, so groups have reward variance, advantages are non-zero and the
loss moves the weights. A ``FaultyUser`` injects faults and the fault oracle flags them (MEU).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from autoforge.rl import ERPOConfig, TokenBudget, compute_advantages
from autoforge.rollout import EpisodeConfig, EpisodeLimits

KEPT_TOOLS = {"find_customer_by_email", "get_customer", "get_book", "get_order"}


def _letter_task(task: Any) -> Any:
    from autoforge.tasks import RequiredOutput

    return task.model_copy(
        update={
            "id": f"{task.id}-x",
            "required_outputs": [RequiredOutput(text="x")],
            "final_state_hash": task.initial_state_hash,
        }
    )


@pytest.fixture(scope="module")
def trained(tokenizer: Any, bookstore: Any, bookstore_tasks: list[Any], tmp_path_factory: Any):
    from datasets import Dataset

    from autoforge.rl.episode import EpisodeDeps, TokenEpisodeConfig
    from autoforge.rl.policy import SamplingConfig
    from autoforge.rl.trl.model import tiny_qwen2
    from autoforge.rl.trl.trainer import ERPOTrainer, grpo_args, task_rows
    from autoforge.rollout import bind_environment, fault_oracle, scripted_user

    out = tmp_path_factory.mktemp("erpo")
    pool = {t.id: t for t in bookstore_tasks[:2]}
    for t in bookstore_tasks[2:4]:
        spec = _letter_task(t)
        pool[spec.id] = spec

    def bind(rtask: Any) -> Any:  # a smaller tool list keeps the CPU prompt short
        binding = bind_environment(bookstore, rtask)
        binding.tools = [t for t in binding.tools if t["function"]["name"] in KEPT_TOOLS]
        return binding

    def deps(generator: Any, codec: Any) -> EpisodeDeps:
        return EpisodeDeps(generator, codec, bind, scripted_user, fault_oracle)

    erpo = ERPOConfig(group_size=4, tasks_per_batch=2, max_sampling_rounds=2)
    episode = TokenEpisodeConfig(
        budget=TokenBudget(episode=100, turn=16),
        episode=EpisodeConfig(limits=EpisodeLimits(max_steps=6), fault_p=0.15),
    )
    model = tiny_qwen2(tokenizer, seed=0)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    args = grpo_args(
        erpo, output_dir=str(out), max_steps=2, learning_rate=1e-2, seed=0,
        max_completion_tokens=episode.max_completion_tokens,
    )  # fmt: skip
    trainer = ERPOTrainer(
        model=model,
        tokenizer=tokenizer,
        args=args,
        train_dataset=Dataset.from_list(task_rows(list(pool.values()))),
        tasks=pool,
        deps_factory=deps,
        erpo=erpo,
        episode=episode,
        sampling=SamplingConfig(temperature=1.0, max_turn_tokens=16),
        step_log=out / "erpo_steps.jsonl",
    )
    trainer.train()
    return trainer, before, out


def test_step_log_has_finite_reward_advantage_and_mask_counts(trained: Any) -> None:
    trainer, _, out = trained
    lines = (Path(out) / "erpo_steps.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["step"] for r in records] == [0, 1]
    keys = {"reward_mean", "reward_std", "adv_mean", "adv_std", "adv_abs_mean", "adv_min",
            "adv_max", "n_meu_masked", "n_filler_masked", "n_infra_errors", "n_valid",
            "sampling_rounds"}  # fmt: skip
    for rec in records:
        assert keys <= rec.keys()
        assert all(math.isfinite(v) for v in rec.values() if isinstance(v, int | float))
        assert rec["n_rollouts"] == 8
        assert rec["n_valid"] + rec["n_excluded"] == rec["n_rollouts"]
        assert 1 <= rec["sampling_rounds"] <= 2
    # the letter tasks give reward variance: some step trained on non-zero advantages
    assert any(r["n_valid"] > 0 and r["adv_abs_mean"] > 0 for r in records)
    logged = [h for h in trainer.state.log_history if "erpo/adv_abs_mean" in h]
    assert len(logged) == 2
    assert all(math.isfinite(h["erpo/reward_mean"]) and "erpo/n_meu_masked" in h for h in logged)


def test_excluded_rollouts_have_no_loss_tokens_and_zero_advantage(trained: Any) -> None:
    trainer, _, _ = trained
    batch = trainer.last_batch
    rollouts = batch.rollouts
    for r, ex, fill in zip(rollouts, batch.excluded, batch.filler, strict=True):
        if r.trajectory.faults and not fill:
            assert r.user_error and ex  # MEU: the oracle flagged it, so it is excluded
    flags = np.asarray(batch.excluded)
    core = compute_advantages(
        [np.nan if r.reward is None else r.reward for r in rollouts],
        [r.task_id for r in rollouts],
        [r.env_id for r in rollouts],
        flags,
    )
    np.testing.assert_array_equal(trainer.last_advantages, core)
    assert np.all(trainer.last_advantages[flags] == 0)
    # what TRL scores: the agent tokens of the non-excluded rollouts, nothing else
    scored = sum(
        int((b["completion_mask"] * b["tool_mask"]).sum()) for b in trainer._buffered_inputs
    )
    agent = sum(
        r.trace.agent_tokens for r, ex in zip(rollouts, batch.excluded, strict=True) if not ex
    )
    assert scored == agent


def test_training_moved_the_weights(trained: Any) -> None:
    trainer, before, _ = trained
    after = dict(trainer.model.named_parameters())
    changed = [
        n for n, p in before.items() if not np.allclose(p.numpy(), after[n].detach().numpy())
    ]
    assert changed


def test_trl_loss_is_the_cores_ppo_clip_loss(trained: Any) -> None:
    """TRL's ``dapo`` loss on a stored batch equals ``autoforge.rl.ppo_clip_loss`` (xp=torch)."""
    import torch

    from autoforge.rl import ppo_clip_loss

    trainer, _, _ = trained
    batch = trainer._buffered_inputs[0]
    model = trainer.model
    trainer.model.train()
    ids = torch.cat([batch["prompt_ids"], batch["completion_ids"]], dim=1)
    attention = torch.cat([batch["prompt_mask"], batch["completion_mask"]], dim=1)
    with torch.no_grad():
        trl_loss = trainer._compute_loss(model, batch)
        logp, _, _ = trainer._get_per_token_logps_and_entropies(
            model, ids, attention, batch["completion_ids"].size(1)
        )
    mask = (batch["completion_mask"] * batch["tool_mask"]).float()
    ours = ppo_clip_loss(logp, logp, batch["advantages"], mask, eps_low=0.2, eps_high=0.2, xp=torch)
    assert float(mask.sum()) == float(batch["num_items_in_batch"])
    assert trl_loss.item() == pytest.approx(ours.loss.item(), rel=1e-5, abs=1e-7)


def test_k3_kl_to_a_reference_model_enters_the_loss(
    tokenizer: Any, bookstore: Any, bookstore_tasks: list[Any], tmp_path: Path
) -> None:
    """kl_beta > 0 with a reference that differs from the policy: TRL logs a positive KL; without
    a reference the trainer refuses (TRL would reload the policy from a path it does not have)."""
    from datasets import Dataset

    from autoforge.rl.episode import EpisodeDeps, TokenEpisodeConfig
    from autoforge.rl.policy import SamplingConfig
    from autoforge.rl.trl.model import tiny_qwen2
    from autoforge.rl.trl.trainer import ERPOTrainer, grpo_args, task_rows
    from autoforge.rollout import bind_environment, scripted_user

    task = bookstore_tasks[0]
    spec = _letter_task(task)
    pool = {spec.id: spec, task.id: task}
    erpo = ERPOConfig(group_size=2, tasks_per_batch=1, max_sampling_rounds=1, kl_beta=0.5)
    episode = TokenEpisodeConfig(
        budget=TokenBudget(episode=40, turn=8),
        episode=EpisodeConfig(limits=EpisodeLimits(max_steps=4)),
    )
    args = grpo_args(erpo, output_dir=str(tmp_path), max_steps=1, max_completion_tokens=40)

    def deps(generator: Any, codec: Any) -> EpisodeDeps:
        return EpisodeDeps(
            generator, codec, lambda t: bind_environment(bookstore, t), scripted_user
        )

    kwargs = dict(
        tokenizer=tokenizer, args=args, train_dataset=Dataset.from_list(task_rows([pool[spec.id]])),
        tasks=pool, deps_factory=deps, erpo=erpo, episode=episode,
        sampling=SamplingConfig(max_turn_tokens=8),
    )  # fmt: skip
    with pytest.raises(ValueError, match="reference model"):
        ERPOTrainer(model=tiny_qwen2(tokenizer, seed=0), **kwargs)
    ref = tiny_qwen2(tokenizer, seed=1)
    trainer = ERPOTrainer(model=tiny_qwen2(tokenizer, seed=0), ref_model=ref, **kwargs)
    assert trainer.beta == 0.5 and trainer.ref_model is not None
    trainer.train()
    kl = [h["kl"] for h in trainer.state.log_history if "kl" in h]
    assert kl and kl[0] > 0
    assert all(not p.requires_grad for p in trainer.ref_model.parameters())
