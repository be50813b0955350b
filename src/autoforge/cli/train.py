"""``autoforge train`` (ERPO with TRL on one machine, or verl launch files for a cluster) and
``autoforge sft`` (cold-start SFT on successful trajectories)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.console import Console
from rich.table import Table

from autoforge.cli.llm import (
    LlmApiKeyOpt,
    LlmBaseUrlOpt,
    LlmConfigOpt,
    LlmModelOpt,
    LlmSetOpt,
    NoCacheOpt,
    llm_config_from_options,
)
from autoforge.errors import UserError

_TRAIN_EXAMPLE = (
    "Examples:\n\n"
    "  autoforge train --backend trl --env envs/bookstore --tasks tasks.jsonl "
    "--model ./Qwen2.5-0.5B-Instruct --out runs/erpo --steps 200\n\n"
    "  autoforge train --backend trl --env envs/bookstore --synth-tasks 8 --model tiny "
    "--group-size 4 --tasks-per-batch 2 --user scripted --meu off --steps 2 --out /tmp/smoke\n\n"
    "  autoforge train --backend verl --emit-config cluster/ --model Qwen/Qwen3-8B "
    "--train-files tasks.parquet --tasks tasks.jsonl --env envs/bookstore --nnodes 4 "
    "--llm-base-url http://user-sim:8000/v1 --llm-model Qwen3-32B   (user simulator and judge)"
)
_SFT_EXAMPLE = (
    "Example:\n\n  autoforge sft runs/rollouts.jsonl --env envs/bookstore "
    "--model ./Qwen2.5-0.5B-Instruct --out runs/sft --epochs 2"
)

Paths = Annotated[list[Path], typer.Option("--env", help="Environment directory (repeatable).")]


def _kind(role: Literal["user", "judge", "trainer"]) -> Any:
    """An option callback: a registry kind of ``role`` (old spellings are aliases), kept as
    written (run configs record it unchanged), or typer's one-line "Invalid value" error
    listing the choices."""

    def check(value: str) -> str:
        from autoforge.rollout import canonical_kind

        try:
            canonical_kind(role, value)
            return value.strip()
        except UserError as exc:
            raise typer.BadParameter(str(exc)) from None

    return check


BackendOpt = Annotated[
    str,
    typer.Option(
        callback=_kind("trainer"),
        metavar="KIND",
        help="Trainer backend (role registry): trl (this machine) or verl (cluster).",
    ),
]
UserOpt = Annotated[
    str,
    typer.Option(
        callback=_kind("user"),
        metavar="KIND",
        help="Simulated user, a user kind of the role registry: llm or scripted.",
    ),
]
MeuOpt = Annotated[
    str,
    typer.Option(
        callback=_kind("judge"),
        metavar="KIND",
        help="MEU judge, a judge kind of the role registry: llm (alias judge), rule, faults, "
        "none (alias off).",
    ),
]
EpisodeTokensOpt = Annotated[
    int | None, typer.Option(help="Tokens per episode [default: TokenBudget.episode].")
]
TurnTokensOpt = Annotated[
    int | None, typer.Option(help="Tokens per agent turn [default: TokenBudget.turn].")
]
ClipHighOpt = Annotated[
    float | None,
    typer.Option(help="Upper clip epsilon [default: = lower; --emit-config: 0.28, the paper]."),
]
RefModelOpt = Annotated[
    str | None, typer.Option(help="trl: KL reference model [default: the initial policy].")
]
KeepThinkingOpt = Annotated[
    bool, typer.Option(help="Keep earlier turns' reasoning in the agent's context.")
]
MaxEpisodeStepsOpt = Annotated[
    int | None,
    typer.Option(min=2, help="LLM calls per episode (agent + user) [default: 30, as eval]."),
]
StdPoolOpt = Annotated[
    Literal["kept", "generated"],
    typer.Option(help="Env std over 'kept' groups or every 'generated' group."),
]


def register(app: typer.Typer) -> None:
    """Add ``train`` and ``sft`` to ``app``."""
    app.command(
        "train",
        help="Train an agent with ERPO: --backend trl runs here (TRL GRPOTrainer, multi-turn "
        "autoforge episodes); --backend verl writes a cluster config and launch script.\n\n"
        + _TRAIN_EXAMPLE,
    )(train)
    app.command(
        "sft",
        help="Cold-start SFT: fine-tune a policy on the agent turns of successful "
        "trajectories (JSONL from autoforge rollouts).\n\n" + _SFT_EXAMPLE,
    )(sft)


def _need_train_extra() -> None:
    try:
        import torch  # noqa: F401
        import trl  # noqa: F401
    except ImportError:
        raise UserError(
            "training needs the [train] extra: pip install 'autoforge[train]'"
        ) from None


def _erpo(
    group_size: int, tasks_per_batch: int, env_std: bool, meu: bool, dyn: bool, **more: Any
) -> Any:
    from autoforge.rl import ERPOConfig

    return ERPOConfig.model_validate(
        {"group_size": group_size, "tasks_per_batch": tasks_per_batch, "env_level_std": env_std,
         "mask_user_errors": meu, "dynamic_sampling": dyn, **more}
    )  # fmt: skip


def _episode(keep_thinking: bool, max_steps: int | None) -> Any:
    """The rollout's episode settings (defaults shared with eval and verl) with the flags."""
    from autoforge.rollout import EpisodeConfig

    episode = EpisodeConfig()
    episode.agent.keep_thinking = keep_thinking
    if max_steps is not None:
        episode.limits.max_steps = max_steps
    return episode


def train(
    backend: BackendOpt = "trl",
    env: Paths = [],  # noqa: B006
    tasks: Annotated[list[Path], typer.Option("--tasks", help="tasks.jsonl (repeatable).")] = [],  # noqa: B006
    synth_tasks: Annotated[int, typer.Option(help="Or generate N tasks per env.")] = 0,
    model: Annotated[str, typer.Option(help="tiny | embedded-small | local HF dir.")] = "tiny",
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")] = Path("erpo"),
    steps: Annotated[int, typer.Option(help="Training steps.")] = 10,
    lr: Annotated[float, typer.Option(help="Learning rate.")] = 1e-6,
    group_size: Annotated[int, typer.Option(help="Rollouts per task.")] = 8,
    tasks_per_batch: Annotated[int, typer.Option(help="Tasks per step.")] = 32,
    user: UserOpt = "llm",
    meu: MeuOpt = "judge",
    env_std: Annotated[bool, typer.Option(help="ERPO env-level std (off: GRPO).")] = True,
    dynamic_sampling: Annotated[bool, typer.Option(help="Drop/refill flat groups.")] = True,
    max_completion_tokens: EpisodeTokensOpt = None,
    max_turn_tokens: TurnTokensOpt = None,
    clip_high: ClipHighOpt = None,
    kl_beta: Annotated[float, typer.Option(help="k3 KL weight to the reference (0: none).")] = 0.0,
    ref_model: RefModelOpt = None,
    keep_thinking: KeepThinkingOpt = True,
    max_episode_steps: MaxEpisodeStepsOpt = None,
    std_pool: StdPoolOpt = "kept",
    seed: Annotated[int, typer.Option(help="Seed.")] = 0,
    emit_config: Annotated[Path | None, typer.Option(help="verl: write config here.")] = None,
    train_files: Annotated[list[str], typer.Option(help="verl: parquet files.")] = [],  # noqa: B006
    nnodes: Annotated[int, typer.Option(help="verl: nodes.")] = 1,
    gpus_per_node: Annotated[int, typer.Option(help="verl: GPUs per node.")] = 8,
    llm_config: LlmConfigOpt = None,
    llm_base_url: LlmBaseUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_api_key: LlmApiKeyOpt = None,
    no_cache: NoCacheOpt = False,
    llm_set: LlmSetOpt = None,
) -> None:
    """Hand the request to the ``--backend`` trainer kind of the role registry (``trl`` trains
    here, ``verl`` writes launch files); print its step table and messages."""
    from autoforge.rl import TrainOutcome, TrainRequest
    from autoforge.rollout import build_kind, canonical_kind

    masked = canonical_kind("judge", meu) != "none"
    erpo = _erpo(group_size, tasks_per_batch, env_std, masked, dynamic_sampling,
                 clip_eps_high=clip_high, kl_beta=kl_beta, std_pool=std_pool)  # fmt: skip
    llm = llm_config_from_options(llm_config, llm_base_url, llm_model, llm_api_key, no_cache,
                                  llm_set)  # fmt: skip
    request = TrainRequest(
        env_dirs=[str(p) for p in env], tasks=[str(p) for p in tasks], synth_tasks=synth_tasks,
        model=model, out=str(out), steps=steps, learning_rate=lr, seed=seed, user=user,
        meu=meu, erpo=erpo, ref_model=ref_model, llm=llm,
        episode=_episode(keep_thinking, max_episode_steps), turn_tokens=max_turn_tokens,
        episode_tokens=max_completion_tokens,
        emit_config=str(emit_config) if emit_config is not None else None,
        train_files=train_files, nnodes=nnodes, gpus_per_node=gpus_per_node,
    )  # fmt: skip
    outcome: TrainOutcome = build_kind("trainer", backend, request)
    if outcome.records:
        Console().print(step_table(outcome.records))
    for line in outcome.messages:
        Console().print(line, highlight=False)


def step_table(records: list[dict[str, Any]]) -> Table:
    """Per-step reward, advantage statistics and masked counts."""
    table = Table(title="ERPO steps")
    cols = ["step", "reward_mean", "success_rate", "adv_abs_mean", "adv_std", "n_valid",
            "n_meu_masked", "n_filler_masked", "n_infra_errors", "sampling_rounds"]  # fmt: skip
    for col in cols:
        table.add_column(col, justify="right")
    for rec in records:
        table.add_row(*[_fmt(rec.get(c)) for c in cols])
    return table


def _fmt(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def sft(
    trajectories: Annotated[list[Path], typer.Argument(help="Trajectory JSONL files.")],
    env: Paths = [],  # noqa: B006
    model: Annotated[str, typer.Option(help="tiny | embedded-small | local HF dir.")] = "tiny",
    out: Annotated[Path, typer.Option("--out", "-o", help="Output directory.")] = Path("sft"),
    epochs: Annotated[float, typer.Option(help="Epochs.")] = 1.0,
    steps: Annotated[int, typer.Option(help="Steps (overrides epochs when > 0).")] = -1,
    lr: Annotated[float, typer.Option(help="Learning rate.")] = 1e-5,
    select: Annotated[
        Literal["success", "all"], typer.Option(help="success (reward 1) or all valid.")
    ] = "success",
    max_length: Annotated[int, typer.Option(help="Max tokens per example.")] = 8192,
) -> None:
    """SFT on the agent tokens of the selected trajectories."""
    if not env:
        raise UserError("--env is needed (the tools in the prompt)")
    _need_train_extra()
    from autoforge.rl import SFTRunConfig, train_sft

    config = SFTRunConfig(
        trajectories=[str(p) for p in trajectories], env_dirs=[str(p) for p in env],
        model=model, output_dir=str(out), epochs=epochs, max_steps=steps, learning_rate=lr,
        select=select, max_length=max_length,
    )  # fmt: skip
    result = train_sft(config)
    losses = result["losses"]
    Console().print(
        f"{result['examples']} examples ({result['agent_tokens']} agent tokens) from "
        f"{result['trajectories']} trajectories; loss {losses[0]:.3f} -> {losses[-1]:.3f}; "
        f"policy in {out / 'policy'}"
    )
