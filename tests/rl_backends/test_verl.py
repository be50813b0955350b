"""The verl backend without verl: uid encoding, the estimator's numbers, the agent loop's episode
logic against a fake inference server, and the emitted launch files.

(``test_verl_registry.py`` runs the same pieces through verl's own registry when verl is
installed.)"""

from __future__ import annotations

import asyncio
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from autoforge.rl import compute_advantages
from autoforge.rl.verl.estimator import UID_SEP, env_uid, erpo_numpy, split_uid
from autoforge.rl.verl.launch import VerlLaunchSpec, emit_config


def test_uid_carries_env_and_groups_by_prompt() -> None:
    uid = env_uid("bookstore", "t-1", "abc")
    assert split_uid(uid) == ("bookstore", uid)
    assert split_uid("plain-uuid") == ("", "plain-uuid")
    # verl splits trajectory keys "<uid>_<session>_<index>" on "_": a uid must hold none
    odd = env_uid("tau2_air~line%", "task_1", "f00d")
    assert "_" not in odd and odd.count(UID_SEP) == 2
    assert split_uid(odd)[0] == "tau2_air~line%"
    assert f"{odd}_0_1".rsplit("_", 2)[0] == odd
    with pytest.raises(ValueError):
        env_uid("e", "t", "bad_nonce")


def test_estimator_numbers_match_the_core_and_exclude_empty_masks() -> None:
    uids = [env_uid("shop", "t1", "p1")] * 3 + [env_uid("shop", "t2", "p2")] * 2
    uids += [env_uid("bank", "t3", "p3")] * 2
    scores = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0]
    sizes = [5, 7, 0, 3, 4, 6, 2]  # the third rollout was excluded by the agent loop
    adv = erpo_numpy(scores, sizes, uids)
    excluded = np.asarray(sizes) == 0
    core = compute_advantages(scores, uids, [split_uid(u)[0] for u in uids], excluded)
    np.testing.assert_array_equal(adv, core)
    assert adv[2] == 0.0
    # GRPO ablation: the task's own std
    grpo = erpo_numpy(scores, sizes, uids, method="grpo")
    np.testing.assert_array_equal(
        grpo, compute_advantages(scores, uids, None, excluded, method="grpo")
    )


def test_estimator_tensor_shapes_and_masking() -> None:
    torch = pytest.importorskip(
        "torch", reason="needs the [train] extra: pip install -e '.[train]'"
    )
    from autoforge.rl.verl.estimator import erpo_outcome_advantage

    mask = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]])
    rewards = torch.zeros(4, 4)
    rewards[0, 1], rewards[3, 0] = 1.0, 1.0
    index = np.array([env_uid("e", "t", "a")] * 2 + [env_uid("e", "u", "b")] * 2, dtype=object)
    adv, ret = erpo_outcome_advantage(rewards, mask, index=index)
    assert adv.shape == (4, 4) and torch.equal(adv, ret)
    assert torch.all(adv[mask == 0] == 0)
    per_seq = erpo_numpy([1.0, 0.0, 0.0, 1.0], [2, 3, 0, 1], list(index))
    assert adv[0, 0].item() == pytest.approx(per_seq[0]) and adv[1, 2].item() == pytest.approx(
        per_seq[1]
    )


# --------------------------------------------------------------------------- agent loop logic


@dataclass
class FakeOutput:
    token_ids: list[int]
    log_probs: list[float] | None


class FakeServer:
    """verl's ``LLMServerClient.generate`` stand-in: scripted replies, records requests."""

    def __init__(self, tokenizer: Any, texts: list[str]) -> None:
        self.tok = tokenizer
        self.texts = list(texts)
        self.requests: list[dict[str, Any]] = []
        self.emitted: list[int] = []

    async def generate(self, request_id: str, *, prompt_ids: list[int], sampling_params: dict):
        self.requests.append({"id": request_id, "n": len(prompt_ids), **sampling_params})
        text = self.texts.pop(0) if self.texts else "Goodbye."
        ids = self.tok(text, add_special_tokens=False)["input_ids"] + [self.tok.eos_token_id]
        ids = ids[: sampling_params["max_tokens"]]
        self.emitted.extend(ids)
        return FakeOutput(ids, [-0.25] * len(ids))


def _context(bookstore: Any, tasks: list[Any], meu: Any) -> Any:
    from autoforge.rl.verl.episode import AgentLoopSettings, EpisodeContext
    from autoforge.rollout import scripted_user

    settings = AgentLoopSettings(tasks=[], env_dirs=[], user="scripted", meu="faults")
    pool = {t.id: t for t in tasks}
    return EpisodeContext(settings, {"bookstore": bookstore}, pool, scripted_user, meu)


def test_agent_loop_episode_masks_only_agent_tokens(
    tokenizer: Any, bookstore: Any, bookstore_tasks: list[Any], solve: Any
) -> None:
    from autoforge.rl.verl.episode import verl_episode
    from autoforge.rollout import fault_oracle

    task = bookstore_tasks[0]
    ctx = _context(bookstore, [task], fault_oracle)
    server = FakeServer(tokenizer, solve(task))
    row = {"extra_info": {"task_id": task.id}, "raw_prompt": []}
    out = asyncio.run(verl_episode(ctx, server, tokenizer, {"temperature": 1.0}, 4096, row))
    assert out.reward_score == 1.0
    assert out.extra_fields["excluded"] is False and out.extra_fields["env_id"] == "bookstore"
    agent = [t for t, m in zip(out.response_ids, out.response_mask, strict=True) if m]
    assert agent == server.emitted
    assert len(out.response_ids) == len(out.response_mask) == len(out.response_logprobs)
    assert {r["id"] for r in server.requests} == {server.requests[0]["id"]}  # sticky session
    assert all(r["temperature"] == 1.0 and r["max_tokens"] >= 1 for r in server.requests)
    assert out.num_turns >= 3


def test_agent_loop_excludes_user_errors_with_an_empty_mask(
    tokenizer: Any, bookstore: Any, bookstore_tasks: list[Any], solve: Any
) -> None:
    from autoforge.rl.verl.episode import verl_episode

    async def blame_user(task: Any, traj: Any) -> None:
        traj.user_error = True

    task = bookstore_tasks[0]
    ctx = _context(bookstore, [task], blame_user)
    server = FakeServer(tokenizer, solve(task))
    out = asyncio.run(verl_episode(ctx, server, tokenizer, {}, 4096, {"task_id": task.id}))
    assert out.extra_fields["user_error"] is True and out.extra_fields["excluded"] is True
    assert out.response_ids and not any(out.response_mask)


def test_response_length_caps_the_episode(
    tokenizer: Any, bookstore: Any, bookstore_tasks: list[Any]
) -> None:
    from autoforge.rl.verl.episode import verl_episode
    from autoforge.rollout import fault_oracle

    task = bookstore_tasks[0]
    ctx = _context(bookstore, [task], fault_oracle)
    server = FakeServer(tokenizer, ["word " * 300] * 4)
    out = asyncio.run(verl_episode(ctx, server, tokenizer, {}, 64, {"task_id": task.id}))
    assert len(out.response_ids) <= 64 and sum(out.response_mask) <= 64
    assert all(r["max_tokens"] <= 64 for r in server.requests)


# --------------------------------------------------------------------------- launch files


def test_emit_config_writes_exactly_the_spec(tmp_path: Path) -> None:
    from autoforge.examples import example_path
    from autoforge.llm import LLMConfig
    from autoforge.rl.verl.episode import settings_from

    llm = LLMConfig.model_validate(
        {"user": {"base_url": "http://user-sim:8000/v1", "model": "q32b", "api_key": "sk-x"}}
    )
    spec = VerlLaunchSpec(
        model="Qwen/Qwen3-8B", train_files=[str(tmp_path / "train.parquet")],
        tasks=[str(tmp_path / "tasks.jsonl")], env_dirs=[str(example_path())],
        nnodes=4, gpus_per_node=8, llm=llm,
    )  # fmt: skip
    paths = emit_config(spec, tmp_path / "verl")
    assert [p.name for p in paths] == [
        "agent_loop.yaml", "overrides.txt", "launch.sh", "launch_spec.json",
    ]  # fmt: skip
    overrides = (tmp_path / "verl" / "overrides.txt").read_text().splitlines()
    for expected in [
        "data.train_batch_size=32",
        "actor_rollout_ref.rollout.n=8",
        "algorithm.adv_estimator=erpo",
        "algorithm.filter_groups.enable=True",
        "trainer.v1.trainer_mode=autoforge_erpo",
        "trainer.nnodes=4",
        "trainer.n_gpus_per_node=8",
        "actor_rollout_ref.actor.clip_ratio_low=0.2",
        "actor_rollout_ref.actor.clip_ratio_high=0.2",  # the user set none: no clip-higher
        "algorithm.filter_groups.max_num_gen_batches=3",  # ERPOConfig.max_sampling_rounds
        "actor_rollout_ref.actor.use_kl_loss=False",
        "actor_rollout_ref.actor.loss_agg_mode=token-mean",
        "+ray_kwargs.ray_init.runtime_env.worker_process_setup_hook="
        "autoforge.rl.verl.register.setup",
    ]:
        assert expected in overrides
    entries = yaml.safe_load((tmp_path / "verl" / "agent_loop.yaml").read_text())
    assert entries[0]["name"] == "autoforge_agent"
    assert entries[0]["_target_"] == "autoforge.rl.verl.agent_loop.AutoforgeAgentLoop"
    settings = settings_from(entries[0])  # the agent loop accepts what was emitted
    assert settings.user == "llm" and settings.meu == "judge"
    # the user simulator's endpoint travels in the entry (role-based LLM config), keys do not
    assert settings.llm.user.base_url == "http://user-sim:8000/v1"
    assert settings.llm.user.model == "q32b" and settings.llm.user.api_key is None
    assert settings.episode == spec.episode
    emitted = "".join(p.read_text() for p in paths)
    assert "sk-x" not in emitted
    script = tmp_path / "verl" / "launch.sh"
    text = script.read_text()
    assert "python -m autoforge.rl.verl.main" in text and script.stat().st_mode & 0o111
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
    ablation = spec.model_copy(
        update={"erpo": spec.erpo.model_copy(update={"env_level_std": False})}
    )
    emit_config(ablation, tmp_path / "abl")
    assert (
        "algorithm.adv_estimator=erpo_task_std" in (tmp_path / "abl" / "overrides.txt").read_text()
    )
    erpo = spec.erpo.model_copy(update={"clip_eps_high": 0.3, "kl_beta": 0.01})
    emit_config(spec.model_copy(update={"erpo": erpo}), tmp_path / "kl")
    text = (tmp_path / "kl" / "overrides.txt").read_text().splitlines()
    assert "actor_rollout_ref.actor.clip_ratio_high=0.3" in text
    assert "actor_rollout_ref.actor.use_kl_loss=True" in text
    assert "actor_rollout_ref.actor.kl_loss_coef=0.01" in text
    assert "actor_rollout_ref.actor.kl_loss_type=low_var_kl" in text  # k3
    generated = spec.erpo.model_copy(update={"std_pool": "generated"})
    with pytest.raises(ValueError, match="std_pool"):
        emit_config(spec.model_copy(update={"erpo": generated}), tmp_path / "pool")


def test_budgets_come_from_one_place_sized_for_thinking() -> None:
    from autoforge.rl import DEFAULT_BUDGET
    from autoforge.rl.episode import TokenEpisodeConfig
    from autoforge.rl.policy import SamplingConfig
    from autoforge.rl.verl.episode import AgentLoopSettings

    assert DEFAULT_BUDGET.turn >= 4096 and DEFAULT_BUDGET.episode >= 4 * DEFAULT_BUDGET.turn
    episode = TokenEpisodeConfig()
    assert episode.max_turn_tokens == DEFAULT_BUDGET.turn == SamplingConfig().max_turn_tokens
    assert episode.max_completion_tokens == DEFAULT_BUDGET.episode
    assert AgentLoopSettings(tasks=[], env_dirs=[]).max_turn_tokens == DEFAULT_BUDGET.turn
    spec = VerlLaunchSpec(model="m", train_files=[], tasks=[], env_dirs=[])
    assert spec.max_turn_tokens == DEFAULT_BUDGET.turn
    assert (spec.max_prompt_length, spec.max_response_length) == (
        DEFAULT_BUDGET.prompt, DEFAULT_BUDGET.episode,
    )  # fmt: skip
