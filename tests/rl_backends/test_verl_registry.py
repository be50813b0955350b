"""The verl plugins inside verl (0.9.x): registries, ``DataProto`` advantages, the trainer's
uid hook, and the emitted overrides composed and validated by verl's own Hydra config.

Skipped unless verl is importable; CI runs this file in a second environment with verl 0.9.1
(``.ci/run``); locally ``pip install 'autoforge[verl]'``, or the same steps as ``.ci/run``."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

if os.environ.get("AUTOFORGE_REQUIRE_VERL"):  # CI's verl environment: missing verl is a failure
    import verl
verl = pytest.importorskip(
    "verl", reason="needs the [verl] extra: pip install -e '.[verl]' (see docs/verl.md)"
)
torch = pytest.importorskip("torch", reason="needs the [train] extra: pip install -e '.[train]'")

from autoforge.rl import compute_advantages  # noqa: E402
from autoforge.rl.verl.estimator import env_uid  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    from autoforge.rl.verl.register import setup

    setup()
    setup()  # idempotent


def test_estimators_are_in_verls_registry() -> None:
    from verl.trainer.ppo.core_algos import get_adv_estimator_fn

    from autoforge.rl.verl.estimator import erpo_outcome_advantage, erpo_task_std_advantage

    assert get_adv_estimator_fn("erpo") is erpo_outcome_advantage
    assert get_adv_estimator_fn("erpo_task_std") is erpo_task_std_advantage


def test_compute_advantage_on_a_dataproto() -> None:
    from verl import DataProto
    from verl.trainer.config import AlgoConfig
    from verl.trainer.ppo.ray_trainer import compute_advantage

    uids = [env_uid("shop", "t1", "a")] * 3 + [env_uid("shop", "t2", "b")] * 2
    uids += [env_uid("bank", "t3", "c")] * 3
    scores = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    lengths = [3, 5, 0, 2, 4, 6, 1, 0]  # rollouts 2 and 7 excluded (MEU / infra)
    width = 6
    mask = torch.zeros(len(scores), width, dtype=torch.long)
    rewards = torch.zeros(len(scores), width)
    for i, (n, s) in enumerate(zip(lengths, scores, strict=True)):
        mask[i, :n] = 1
        rewards[i, max(n - 1, 0)] = s
    data = DataProto.from_dict(
        tensors={"token_level_rewards": rewards, "response_mask": mask},
        non_tensors={"uid": np.array(uids, dtype=object)},
    )
    out = compute_advantage(data, adv_estimator="erpo", config=AlgoConfig(adv_estimator="erpo"))
    adv = out.batch["advantages"]
    excluded = np.asarray(lengths) == 0
    expected = compute_advantages(scores, uids, [u.split("~")[0] for u in uids], excluded)
    for i, n in enumerate(lengths):
        assert torch.allclose(adv[i, :n], torch.full((n,), float(expected[i])), atol=1e-6)
        assert torch.all(adv[i, n:] == 0)
    assert torch.equal(out.batch["returns"], adv)


def test_trainer_mode_and_agent_loop_are_registered() -> None:
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry
    from verl.trainer.ppo.v1 import get_trainer_cls

    from autoforge.rl.verl.agent_loop import AutoforgeAgentLoop
    from autoforge.rl.verl.trainer import AutoforgeERPOTrainer, env_uids

    assert get_trainer_cls("autoforge_erpo") is AutoforgeERPOTrainer
    assert _agent_loop_registry["autoforge_agent"]["_target_"].endswith(
        AutoforgeAgentLoop.__qualname__
    )
    batch = {
        "raw_prompt": [[], []],
        "extra_info": np.array([{"env_id": "shop", "task_id": "t1"}, {"task_id": "t2"}]),
    }
    uids = env_uids(batch)
    assert uids[0].startswith("shop~t1~") and uids[1].startswith("~t2~")
    assert all(
        "_" not in u
        for u in env_uids({"raw_prompt": [[]], "env_id": ["tau_air"], "task_id": ["t_1"]})
    )
    assert len(set(env_uids({"raw_prompt": [[]], "env_id": ["e"], "task_id": ["t"]}))) == 1


def test_emitted_overrides_pass_verls_config_validation(tmp_path: Path) -> None:
    from hydra import compose, initialize_config_dir
    from verl.trainer.ppo.utils import need_critic, need_reference_policy
    from verl.utils.config import validate_config

    from autoforge.examples import example_path
    from autoforge.rl.verl.launch import VerlLaunchSpec, emit_config

    spec = VerlLaunchSpec(
        model="Qwen/Qwen3-8B", train_files=[str(tmp_path / "t.parquet")],
        tasks=[str(tmp_path / "tasks.jsonl")], env_dirs=[str(example_path())], nnodes=2,
    )  # fmt: skip
    emit_config(spec, tmp_path)
    lines = (tmp_path / "overrides.txt").read_text().splitlines()
    overrides = [line for line in lines if line and not line.startswith("#")]
    import verl.trainer.config as config_pkg

    with initialize_config_dir(config_dir=os.path.dirname(config_pkg.__file__), version_base=None):
        cfg = compose(config_name="ppo_trainer", overrides=overrides)
    assert cfg.algorithm.adv_estimator == "erpo" and cfg.actor_rollout_ref.rollout.n == 8
    assert cfg.data.train_batch_size == 32 and cfg.algorithm.filter_groups.enable
    hook = cfg.ray_kwargs.ray_init.runtime_env.worker_process_setup_hook
    assert hook == "autoforge.rl.verl.register.setup"
    validate_config(
        config=cfg, use_reference_policy=need_reference_policy(cfg), use_critic=need_critic(cfg)
    )


def test_agent_loop_runs_an_episode_with_verls_types(tmp_path: Path) -> None:
    """``AutoforgeAgentLoop`` built the way verl builds it, against a fake inference server."""
    import asyncio
    import json

    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import (
        AgentLoopOutput,
        DictConfigWrap,
        _agent_loop_registry,
    )
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from autoforge.env import Environment
    from autoforge.examples import example_path
    from autoforge.llm.embedded import ModelNotInstalled
    from autoforge.rl.trl.model import embedded_tokenizer
    from autoforge.tasks import TaskSet, generate_tasks

    try:
        tok = embedded_tokenizer()
    except ModelNotInstalled as exc:
        pytest.skip(f"embedded tokenizer unavailable: {exc}")
    env = Environment.load(example_path())
    tasks, _ = generate_tasks(env, 2, "easy", seed=0)
    TaskSet(tmp_path / "tasks.jsonl").append(tasks)
    task = tasks[0]
    calls = "\n".join(
        "<tool_call>\n" + json.dumps({"name": c.name, "arguments": c.arguments}) + "\n</tool_call>"
        for c in task.gold_calls
    )
    texts = [calls, "Sure: " + " ".join(o.text for o in task.required_outputs)]

    class Out:
        def __init__(self, ids: list[int]) -> None:
            self.token_ids, self.log_probs = ids, [-0.1] * len(ids)

    class Server:
        async def generate(self, request_id: str, *, prompt_ids: list[int], sampling_params: dict):
            text = texts.pop(0) if texts else "Bye."
            return Out(tok(text, add_special_tokens=False)["input_ids"] + [tok.eos_token_id])

    config = OmegaConf.create(
        {"actor_rollout_ref": {"rollout": {"response_length": 2048, "prompt_length": 4096}}}
    )
    entry = dict(_agent_loop_registry["autoforge_agent"])
    from hydra.utils import instantiate

    loop = instantiate(
        {**entry, "name": "autoforge_agent", "tasks": [str(tmp_path / "tasks.jsonl")],
         "env_dirs": [str(example_path())], "user": "scripted", "meu": "faults"},
        trainer_config=DictConfigWrap(config=config), server_manager=Server(), tokenizer=tok,
        processor=None, dataset_cls=RLHFDataset, data_config=DictConfigWrap(OmegaConf.create({})),
    )  # fmt: skip
    out = asyncio.run(loop.run({"temperature": 1.0}, task_id=task.id, index=3))
    assert isinstance(out, AgentLoopOutput)
    assert out.reward_score == 1.0 and sum(out.response_mask) > 0
    assert out.extra_fields["task_id"] == task.id
    tensors = out.as_dict()
    assert tensors["rm_scores"][-1].item() == 1.0
    assert tensors["responses"].shape == tensors["response_mask"].shape
