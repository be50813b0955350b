"""``autoforge train --backend verl --emit-config DIR``: a runnable verl setup for a cluster.

Writes, for a model and a cluster size:

* ``agent_loop.yaml`` -- the ``autoforge_agent`` entry (tasks, environments, the episode
  settings, the LLM config of the user simulator and judge, API keys left out) for
  ``actor_rollout_ref.rollout.agent.agent_loop_config_path``;
* ``overrides.txt`` -- the Hydra overrides of verl's ``ppo_trainer`` config, one per line:
  exactly the spec's :class:`~autoforge.rl.ERPOConfig` (tasks x rollouts per step, ERPO
  advantages, dynamic sampling through ``filter_groups`` with ``max_num_gen_batches`` =
  ``max_sampling_rounds``, which the ``autoforge_erpo`` mode's replay buffer honours, token-level
  PPO-clip with the spec's clip range, the k3 KL to the initial policy when ``kl_beta > 0``), the
  v1 trainer in the ``autoforge_erpo`` mode, and Ray's worker setup hook that registers the
  plugins. The paper's values (clip-high 0.28) are the CLI's defaults, not this module's;
* ``launch.sh`` -- runs ``python -m autoforge.rl.verl.main`` with the overrides (API keys come
  from the cluster's environment: ``OPENAI_API_KEY``);
* ``launch_spec.json`` -- the :class:`VerlLaunchSpec` it was made from.

Pure file generation: nothing here imports verl.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_serializer

from autoforge.errors import UserError
from autoforge.llm import LLMConfig
from autoforge.rl.config import DEFAULT_BUDGET, ERPOConfig
from autoforge.rl.request import TrainOutcome, TrainRequest
from autoforge.rl.verl.estimator import ABLATION_NAME, ESTIMATOR_NAME
from autoforge.rollout import EpisodeConfig

AGENT_LOOP_TARGET = "autoforge.rl.verl.agent_loop.AutoforgeAgentLoop"
SETUP_HOOK = "autoforge.rl.verl.register.setup"


class VerlLaunchSpec(BaseModel):
    """A verl run: model, cluster, data, endpoints and the ERPO knobs."""

    schema_version: Literal[1] = 1
    model: str = Field(description="HF model id or path, as the cluster sees it")
    train_files: list[str] = Field(description="parquet files from the tasks export")
    val_files: list[str] = Field(default_factory=list)
    tasks: list[str] = Field(description="tasks.jsonl files (the agent loop reads them)")
    env_dirs: list[str] = Field(description="environment directories")
    nnodes: int = Field(default=1, ge=1)
    gpus_per_node: int = Field(default=8, ge=1)
    tensor_parallel: int = Field(default=1, ge=1, description="rollout tensor parallelism")
    erpo: ERPOConfig = Field(default_factory=lambda: ERPOConfig.model_validate({}))
    learning_rate: float = Field(default=1e-6, gt=0)
    max_prompt_length: int = Field(default=DEFAULT_BUDGET.prompt, ge=64)
    max_response_length: int = Field(default=DEFAULT_BUDGET.episode, ge=64)
    max_turn_tokens: int = Field(default=DEFAULT_BUDGET.turn, ge=1)
    episode: EpisodeConfig = Field(default_factory=EpisodeConfig)
    total_training_steps: int = Field(default=200, ge=1)
    save_freq: int = Field(default=20, ge=-1)
    temperature: float = Field(default=1.0, ge=0)
    llm: LLMConfig = Field(
        default_factory=LLMConfig,
        description="user simulator and MEU judge endpoints (the --llm-* options)",
    )
    project: str = "autoforge"
    experiment: str = "erpo"
    rollout_engine: Literal["vllm", "sglang"] = "vllm"

    @field_serializer("llm")
    def _llm_without_keys(self, llm: LLMConfig) -> dict[str, Any]:
        """The LLM config as written to files: API keys stay in the cluster's environment."""
        return public_llm_config(llm)


def public_llm_config(llm: LLMConfig) -> dict[str, Any]:
    """``llm`` as JSON values without any role's ``api_key``."""
    data = llm.model_dump(mode="json")
    for section in data.values():
        if isinstance(section, dict):
            section.pop("api_key", None)
    return data


def agent_loop_entries(spec: VerlLaunchSpec) -> list[dict[str, object]]:
    """The agent-loop YAML content (one entry)."""
    return [
        {
            "name": "autoforge_agent",
            "_target_": AGENT_LOOP_TARGET,
            "tasks": [str(Path(p).resolve()) for p in spec.tasks],
            "env_dirs": [str(Path(p).resolve()) for p in spec.env_dirs],
            "user": "llm",
            "meu": "judge" if spec.erpo.mask_user_errors else "off",
            "mask_user_errors": spec.erpo.mask_user_errors,
            "max_turn_tokens": spec.max_turn_tokens,
            "episode": spec.episode.model_dump(mode="json"),
            "llm": public_llm_config(spec.llm),
        }
    ]


def _list(paths: list[str]) -> str:
    return "[" + ",".join(json.dumps(str(Path(p).resolve())) for p in paths) + "]"


def verl_overrides(spec: VerlLaunchSpec, agent_loop_path: Path) -> list[str]:
    """Hydra overrides of verl's ``ppo_trainer`` config for this spec."""
    e = spec.erpo
    if e.std_pool != "kept":
        raise ValueError(
            "verl backend: std_pool='generated' is not supported (verl's estimator only sees "
            "the sampled batch); use std_pool='kept' or the TRL backend"
        )
    rollouts = e.tasks_per_batch * e.group_size
    high = e.clip_eps_high if e.clip_eps_high is not None else e.clip_eps_low
    val = spec.val_files or spec.train_files
    tokens = spec.max_prompt_length + spec.max_response_length
    return [
        f"data.train_files={_list(spec.train_files)}",
        f"data.val_files={_list(val)}",
        f"data.train_batch_size={e.tasks_per_batch}",
        f"data.max_prompt_length={spec.max_prompt_length}",
        f"data.max_response_length={spec.max_response_length}",
        "data.return_raw_chat=True",
        f"actor_rollout_ref.model.path={spec.model}",
        f"actor_rollout_ref.actor.optim.lr={spec.learning_rate}",
        f"actor_rollout_ref.actor.ppo_mini_batch_size={e.tasks_per_batch}",
        "actor_rollout_ref.actor.use_dynamic_bsz=True",
        f"actor_rollout_ref.actor.ppo_max_token_len_per_gpu={tokens}",
        "actor_rollout_ref.rollout.log_prob_use_dynamic_bsz=True",
        f"actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu={tokens}",
        f"actor_rollout_ref.actor.clip_ratio_low={e.clip_eps_low}",
        f"actor_rollout_ref.actor.clip_ratio_high={high}",
        "actor_rollout_ref.actor.loss_agg_mode="
        + ("token-mean" if e.loss_agg == "token" else "seq-mean-token-mean"),
        f"actor_rollout_ref.actor.use_kl_loss={e.kl_beta > 0}",
        f"actor_rollout_ref.actor.kl_loss_coef={e.kl_beta}",
        "actor_rollout_ref.actor.kl_loss_type=low_var_kl",  # k3, as in the TRL backend
        f"actor_rollout_ref.rollout.name={spec.rollout_engine}",
        f"actor_rollout_ref.rollout.n={e.group_size}",
        f"actor_rollout_ref.rollout.temperature={spec.temperature}",
        f"actor_rollout_ref.rollout.tensor_model_parallel_size={spec.tensor_parallel}",
        "actor_rollout_ref.rollout.calculate_log_probs=True",
        f"actor_rollout_ref.rollout.agent.agent_loop_config_path={agent_loop_path.resolve()}",
        "actor_rollout_ref.rollout.agent.default_agent_loop=autoforge_agent",
        f"algorithm.adv_estimator={ESTIMATOR_NAME if e.env_level_std else ABLATION_NAME}",
        "algorithm.use_kl_in_reward=False",
        f"algorithm.filter_groups.enable={e.dynamic_sampling}",
        "algorithm.filter_groups.metric=reward",
        f"algorithm.filter_groups.max_num_gen_batches={e.max_sampling_rounds}",
        "trainer.use_v1=True",
        "trainer.v1.trainer_mode=autoforge_erpo",
        f"trainer.nnodes={spec.nnodes}",
        f"trainer.n_gpus_per_node={spec.gpus_per_node}",
        f"trainer.total_training_steps={spec.total_training_steps}",
        f"trainer.save_freq={spec.save_freq}",
        "trainer.val_before_train=False",
        f"trainer.project_name={spec.project}",
        f"trainer.experiment_name={spec.experiment}",
        f"+ray_kwargs.ray_init.runtime_env.worker_process_setup_hook={SETUP_HOOK}",
        f"# {rollouts} rollouts per step = {e.tasks_per_batch} tasks x {e.group_size}",
    ]


def launch_script(spec: VerlLaunchSpec, overrides: list[str]) -> str:
    """``launch.sh``: endpoints, then the training command (run on the Ray head node)."""
    args = " \\\n  ".join(shlex.quote(o) for o in overrides if not o.startswith("#"))
    return "\n".join(
        [
            "#!/usr/bin/env bash",
            f"# ERPO with verl: {spec.model} on {spec.nnodes} x {spec.gpus_per_node} GPUs.",
            "# Multi-node: `ray start --head` here and `ray start --address=...` on the others",
            "# first; every node needs autoforge[verl] and the environment/task files.",
            "set -euo pipefail",
            'cd "$(dirname "$0")"',
            "# user simulator and judge endpoints: the llm section of agent_loop.yaml (from",
            "# --llm-*); API keys are not written there: export OPENAI_API_KEY=... if needed",
            "export RAY_DEDUP_LOGS=0",
            f'python -m autoforge.rl.verl.main \\\n  {args} \\\n  "$@"',
            "",
        ]
    )


def emit_config(spec: VerlLaunchSpec, out_dir: str | Path) -> list[Path]:
    """Write the four files into ``out_dir``; return their paths."""
    import yaml

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    loop_path = out / "agent_loop.yaml"
    loop_path.write_text(yaml.safe_dump(agent_loop_entries(spec), sort_keys=False))
    overrides = verl_overrides(spec, loop_path)
    (out / "overrides.txt").write_text("\n".join(overrides) + "\n")
    script = out / "launch.sh"
    script.write_text(launch_script(spec, overrides))
    script.chmod(0o755)
    (out / "launch_spec.json").write_text(spec.model_dump_json(indent=2) + "\n")
    return [loop_path, out / "overrides.txt", script, out / "launch_spec.json"]


#: The paper's (DAPO's) clip-higher, verl's default when the request leaves it unset.
PAPER_CLIP_HIGH = 0.28


def emit_request(request: TrainRequest) -> TrainOutcome:
    """The ``verl`` trainer kind: write the cluster config and launch script into
    ``request.emit_config`` (``request.user``/``meu`` are not read: the agent loop's settings
    come from the spec, as ``verl_overrides`` writes them)."""
    if request.emit_config is None:
        raise UserError(
            "--backend verl runs on a cluster: add --emit-config DIR, then run DIR/launch.sh there"
        )
    if not request.train_files or not request.tasks or not request.env_dirs:
        raise UserError("--emit-config needs --train-files, --tasks and --env")
    erpo = request.erpo
    if erpo.clip_eps_high is None:
        erpo = erpo.model_copy(update={"clip_eps_high": PAPER_CLIP_HIGH})
    spec = VerlLaunchSpec(
        model=request.model, train_files=request.train_files, tasks=request.tasks,
        env_dirs=request.env_dirs, nnodes=request.nnodes, gpus_per_node=request.gpus_per_node,
        erpo=erpo, llm=request.llm or LLMConfig(), episode=request.episode,
        total_training_steps=request.steps, learning_rate=request.learning_rate,
        max_turn_tokens=request.turn_tokens or DEFAULT_BUDGET.turn,
        max_response_length=request.episode_tokens or DEFAULT_BUDGET.episode,
    )  # fmt: skip
    paths = emit_config(spec, request.emit_config)
    return TrainOutcome(messages=[f"wrote {path}" for path in paths])
