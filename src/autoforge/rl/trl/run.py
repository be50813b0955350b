"""``autoforge train --backend trl``: everything from files to a trained policy, on one machine.

:class:`TRLRunConfig` says which environments and tasks, which policy, which user simulator and
MEU judge, and the ERPO knobs; :func:`train_trl` builds the pieces (environments, task pool,
dataset, :class:`~autoforge.rl.trl.trainer.ERPOTrainer`), trains, saves the policy and returns
the per-step records (also written to ``<output>/erpo_steps.jsonl``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from autoforge.env import Environment
from autoforge.errors import UserError
from autoforge.llm import LLMConfig
from autoforge.rl.config import DEFAULT_BUDGET, ERPOConfig, TokenBudget
from autoforge.rl.episode import EpisodeDeps, TokenEpisodeConfig, episode_roles
from autoforge.rl.policy import BatchedGenerator, SamplingConfig
from autoforge.rl.request import TrainOutcome, TrainRequest
from autoforge.rl.tokens import ChatCodec
from autoforge.rollout import EnvBinding, bind_environment, kind_field
from autoforge.tasks import Task, read_tasks

RUN_CONFIG_SCHEMA_VERSION = 1


class TRLRunConfig(BaseModel):
    """One TRL training run (written next to the outputs as ``run_config.json``)."""

    schema_version: Literal[1] = 1
    env_dirs: list[str] = Field(description="environment directories (env id = spec name)")
    tasks: list[str] = Field(default_factory=list, description="tasks.jsonl files")
    synth_tasks: int = Field(
        default=0, ge=0, description="or: generate this many tasks per environment"
    )
    synth_difficulty: str = "easy"
    model: str = Field(
        default="tiny", description="'tiny', 'embedded-small' or a local HF directory"
    )
    output_dir: str
    max_steps: int = Field(default=10, ge=1)
    learning_rate: float = 1e-6
    micro_steps: int = Field(default=1, ge=1)
    seed: int = 0
    user: Annotated[str, kind_field("user")] = "scripted"
    meu: Annotated[str, kind_field("judge")] = "judge"
    erpo: ERPOConfig = Field(default_factory=lambda: ERPOConfig.model_validate({}))
    episode: TokenEpisodeConfig = Field(
        default_factory=lambda: TokenEpisodeConfig.model_validate({})
    )
    temperature: float = Field(default=1.0, ge=0.0)
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    save_model: bool = True
    ref_model: str | None = Field(
        default=None,
        description="KL reference when erpo.kl_beta > 0: 'tiny', 'embedded-small' or a local HF "
        "directory; None = a frozen copy of the initial policy",
    )


def load_environments(dirs: Sequence[str]) -> dict[str, Environment]:
    """``{env id: Environment}`` for each directory."""
    envs: dict[str, Environment] = {}
    for d in dirs:
        env = Environment.load(d)
        envs[env.spec.name] = env
    if not envs:
        raise UserError("no environment given: pass --env ENV_DIR")
    return envs


def load_task_pool(config: TRLRunConfig, envs: dict[str, Environment]) -> dict[str, Task]:
    """``{task id: Task}`` from tasks files and/or freshly generated tasks."""
    from autoforge.tasks import generate_tasks

    tasks: list[Task] = []
    for path in config.tasks:
        tasks.extend(read_tasks(path))
    for env in envs.values():
        if config.synth_tasks:
            made, _ = generate_tasks(env, config.synth_tasks, config.synth_difficulty, config.seed)
            tasks.extend(made)
    pool: dict[str, Task] = {}
    for task in tasks:
        if task.env_id not in envs:
            raise UserError(f"task {task.id} needs environment {task.env_id!r}: pass --env")
        pool[task.id] = task
    if len(pool) < config.erpo.tasks_per_batch:
        raise UserError(
            f"{len(pool)} tasks for batches of {config.erpo.tasks_per_batch}: "
            "give more tasks or lower --tasks-per-batch"
        )
    return pool


def _deps_factory(config: TRLRunConfig, envs: dict[str, Environment], llm: LLMConfig | None) -> Any:
    users, meu = episode_roles(config.user, config.meu, llm, config.episode.episode)

    def make(generator: BatchedGenerator, codec: ChatCodec) -> EpisodeDeps:
        def bind(task: Task) -> EnvBinding:
            return bind_environment(envs[task.env_id], task)

        return EpisodeDeps(generator, codec, bind, users, meu)

    return make


def build_trainer(
    config: TRLRunConfig,
    *,
    llm: LLMConfig | None = None,
    model: Any = None,
    tokenizer: Any = None,
) -> Any:
    """An :class:`ERPOTrainer` ready to ``train()``; ``llm`` configures the simulated user and
    the MEU judge when they are models; ``model``/``tokenizer`` override loading."""
    from datasets import Dataset

    from autoforge.rl.trl.model import load_policy
    from autoforge.rl.trl.trainer import ERPOTrainer, grpo_args, task_rows

    envs = load_environments(config.env_dirs)
    pool = load_task_pool(config, envs)
    if model is None or tokenizer is None:
        model, tokenizer = load_policy(config.model, seed=config.seed)
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "run_config.json").write_text(config.model_dump_json(indent=2) + "\n")
    args = grpo_args(
        config.erpo,
        output_dir=str(out),
        max_steps=config.max_steps,
        learning_rate=config.learning_rate,
        micro_steps=config.micro_steps,
        seed=config.seed,
        max_completion_tokens=config.episode.max_completion_tokens,
    )
    sampling = SamplingConfig(
        temperature=config.temperature,
        top_p=config.top_p,
        max_turn_tokens=config.episode.max_turn_tokens,
    )
    step_log = out / "erpo_steps.jsonl"
    step_log.unlink(missing_ok=True)
    ref = reference_model(config, model) if config.erpo.kl_beta > 0 else None
    return ERPOTrainer(
        model=model,
        tokenizer=tokenizer,
        args=args,
        train_dataset=Dataset.from_list(task_rows(list(pool.values()))),
        tasks=pool,
        deps_factory=_deps_factory(config, envs, llm),
        erpo=config.erpo,
        episode=config.episode,
        sampling=sampling,
        step_log=step_log,
        ref_model=ref,
    )


def reference_model(config: TRLRunConfig, policy: Any) -> Any:
    """The KL reference: ``config.ref_model`` loaded, or a frozen copy of the initial policy."""
    import copy

    from autoforge.rl.trl.model import load_policy

    if config.ref_model is None:
        return copy.deepcopy(policy)
    ref, _ = load_policy(config.ref_model, seed=config.seed)
    return ref


def train_trl(
    config: TRLRunConfig,
    *,
    llm: LLMConfig | None = None,
    model: Any = None,
    tokenizer: Any = None,
) -> list[dict]:
    """Train; save the policy under ``<output>/policy``; return the per-step ERPO records."""
    trainer = build_trainer(config, llm=llm, model=model, tokenizer=tokenizer)
    trainer.train()
    if config.save_model:
        trainer.save_model(str(Path(config.output_dir) / "policy"))
        trainer.processing_class.save_pretrained(str(Path(config.output_dir) / "policy"))
    history = Path(config.output_dir) / "log_history.json"
    history.write_text(json.dumps(trainer.state.log_history, indent=1) + "\n")
    return list(trainer.step_records)


def train_request(request: TrainRequest) -> TrainOutcome:
    """The ``trl`` trainer kind: ERPO with TRL on this machine (needs the ``train`` extra)."""
    try:
        import torch  # noqa: F401
        import trl  # noqa: F401
    except ImportError:
        raise UserError(
            "training needs the [train] extra: pip install 'autoforge[train]'"
        ) from None
    budget = TokenBudget(
        turn=request.turn_tokens or DEFAULT_BUDGET.turn,
        episode=request.episode_tokens or DEFAULT_BUDGET.episode,
        prompt=DEFAULT_BUDGET.prompt,
    )
    config = TRLRunConfig(
        env_dirs=request.env_dirs, tasks=request.tasks, synth_tasks=request.synth_tasks,
        model=request.model, output_dir=request.out, max_steps=request.steps,
        learning_rate=request.learning_rate, seed=request.seed, user=request.user,
        meu=request.meu, erpo=request.erpo, ref_model=request.ref_model,
        episode=TokenEpisodeConfig(episode=request.episode, budget=budget),
    )  # fmt: skip
    records = train_trl(config, llm=request.llm)
    return TrainOutcome(records=records, messages=[f"policy and logs in {request.out}"])
