"""``autoforge eval``: run trials of an environment's tasks with an agent and a simulated user,
score pass^k, and write ``eval.json`` and the ``eval.html`` trajectory viewer."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

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

if TYPE_CHECKING:
    from autoforge.bench import EvalOutput, EvalSettings, EvalTarget, RoleSpec
    from autoforge.llm import LLMConfig
    from autoforge.tasks import Task

_HELP = (
    "Evaluate an agent on an environment's tasks: TRIALS episodes per task (agent x simulated "
    "user x environment, checkpointed and resumable), pass^k for k = 1..TRIALS overall, per "
    "domain and per difficulty (infrastructure errors excluded), written to OUT/eval.json, "
    "with OUT/eval.html to browse every episode (conversation, tool calls, state diff against "
    "S*, reward reason, judge verdict).\n\n"
    "--agent, --user and --judge take 'embedded' (1.5B), 'small' (0.5B) or BASE_URL/MODEL "
    "(e.g. http://localhost:8000/v1/Qwen/Qwen3-8B); without them the LLM config's roles are "
    "used. No-model players (kinds of the role registry): --agent oracle (replays the gold "
    "calls), --user scripted, --judge rule (the MEU code rules alone), --judge none. The MEU "
    "code rules (a goal never said, a contradicted fact value, an invented id) always run "
    "unless --no-judge; the LLM part of the judge runs when --judge names a model, or by "
    "default when the judge role has a configured endpoint (not for the embedded model).\n\n"
    "Episodes in flight default to the endpoint's parallel capacity (the embedded server's "
    "slots; 8 for a configured endpoint); a line is printed per finished episode.\n\n"
    "Examples:\n\n"
    "  autoforge eval runs/shop --agent http://localhost:8000/v1/Qwen/Qwen3-8B --user small "
    "--trials 4\n\n"
    "  autoforge eval bookstore --tasks tasks.jsonl --agent small --user small --limit 5 "
    "--trials 2 --out eval-small\n\n"
    "  autoforge eval runs/retail/env --bench tau-bench/retail "
    "--agent oracle --user scripted --no-judge --trials 1\n\n"
    "Rerun the same command to resume an interrupted evaluation."
)


AgentOpt = Annotated[
    str | None, typer.Option(metavar="SPEC", help="embedded | small | BASE_URL/MODEL | oracle")
]
UserOpt = Annotated[
    str | None, typer.Option(metavar="SPEC", help="embedded | small | BASE_URL/MODEL | scripted")
]
JudgeOpt = Annotated[
    str | None,
    typer.Option(metavar="SPEC", help="MEU judge: embedded | small | BASE_URL/MODEL | rule | none"),
]
NoJudgeOpt = Annotated[
    bool, typer.Option("--no-judge", help="Do not judge user errors (nor NL assertions).")
]
TrialsOpt = Annotated[int, typer.Option("--trials", "-k", min=1, help="Episodes per task.")]
TasksOpt = Annotated[Path | None, typer.Option(help="tasks.jsonl (default: the run dir's).")]
BenchOpt = Annotated[
    Path | None,
    typer.Option(help="A tau-bench / tau2-bench domain dir whose tasks to run instead."),
]
LimitOpt = Annotated[int | None, typer.Option(min=1, help="Only the first N tasks.")]
ExecutorOpt = Annotated[Literal["local", "ray"], typer.Option(help="local or ray.")]
ConcurrencyOpt = Annotated[
    int | None,
    typer.Option(
        min=1, help="Episodes in flight at once (default: the endpoint's parallel capacity)."
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", "-o", help="Output dir (default: TARGET/eval, or ./eval-NAME for an example)."
    ),
]
KeepThinkingOpt = Annotated[
    bool,
    typer.Option(
        "--keep-thinking/--drop-thinking",
        help="Keep the agent's reasoning in its own context across turns.",
    ),
]
MaxStepsOpt = Annotated[
    int | None,
    typer.Option(min=2, help="LLM calls per episode (agent + user) [default: 30, as train]."),
]
SeedOpt = Annotated[int, typer.Option(help="Base seed of the episodes.")]
ExcludeUserErrorsOpt = Annotated[
    bool,
    typer.Option("--exclude-user-errors", help="Leave episodes the judge blames out of pass^k."),
]
RestartOpt = Annotated[
    bool, typer.Option("--restart", help="Discard OUT's earlier episodes instead of resuming.")
]


def register(app: typer.Typer) -> None:
    """Add the ``eval`` command to ``app``."""
    app.command("eval", help=_HELP)(eval_command)


def eval_command(
    target: Annotated[str, typer.Argument(help="Environment dir, run dir, or bundled example.")],
    agent: AgentOpt = None,
    user: UserOpt = None,
    judge: JudgeOpt = None,
    no_judge: NoJudgeOpt = False,
    trials: TrialsOpt = 4,
    tasks: TasksOpt = None,
    bench: BenchOpt = None,
    limit: LimitOpt = None,
    executor: ExecutorOpt = "local",
    concurrency: ConcurrencyOpt = None,
    out: OutOpt = None,
    keep_thinking: KeepThinkingOpt = True,
    max_steps: MaxStepsOpt = None,
    seed: SeedOpt = 0,
    exclude_user_errors: ExcludeUserErrorsOpt = False,
    restart: RestartOpt = False,
    llm_config: LlmConfigOpt = None,
    llm_base_url: LlmBaseUrlOpt = None,
    llm_model: LlmModelOpt = None,
    llm_api_key: LlmApiKeyOpt = None,
    no_cache: NoCacheOpt = False,
    llm_set: LlmSetOpt = None,
) -> None:
    """Run the evaluation and write its outputs."""
    from autoforge.bench import apply_role_specs, run_evaluation

    specs = _role_specs(agent, user, judge)
    base = llm_config_from_options(
        llm_config, llm_base_url, llm_model, llm_api_key, no_cache, llm_set
    )
    config = apply_role_specs(base, specs)
    loaded, selected = _load(target, tasks, bench, limit)
    out_dir = out or default_out(target)
    settings = _settings(loaded, specs, config, no_judge, keep_thinking, max_steps)
    if keep_thinking and settings.agent == "llm":
        check_thinking(settings)
    output = run_evaluation(
        settings, loaded, selected, out_dir, trials=trials, seed=seed, executor=executor,
        concurrency=concurrency, exclude_user_errors=exclude_user_errors, restart=restart,
    )  # fmt: skip
    print_summary(Console(), output, out_dir)


def _role_specs(agent: str | None, user: str | None, judge: str | None) -> list[RoleSpec]:
    """The ``--agent``, ``--user`` and ``--judge`` specs, in that order."""
    from autoforge.bench import parse_role_spec

    return [
        parse_role_spec("agent", agent),
        parse_role_spec("user", user),
        parse_role_spec("judge", judge),
    ]


def _load(
    target: str, tasks: Path | None, bench: Path | None, limit: int | None
) -> tuple[EvalTarget, list[Task]]:
    """The evaluation target (a benchmark domain's tasks with ``--bench``) and the tasks to run
    (the first ``limit``); a clear error when there are none."""
    from autoforge.adapters.tau import bench_target
    from autoforge.bench import load_target

    loaded = bench_target(target, bench) if bench is not None else load_target(target, tasks)
    selected = loaded.tasks[:limit] if limit else loaded.tasks
    if not selected:
        raise UserError(f"no tasks to run from {loaded.tasks_source}")
    return loaded, selected


def check_thinking(settings: EvalSettings) -> None:
    """``--keep-thinking``: probe once whether the agent endpoint's chat template keeps earlier
    reasoning; when it keeps only inline ``<think>`` blocks, send it that way; else warn."""
    from autoforge.bench import make_client
    from autoforge.llm import probe_reasoning

    err = Console(stderr=True)
    try:
        probe = asyncio.run(probe_reasoning(make_client(settings.llm), "agent"))
    except Exception as exc:  # a failed probe must not end the evaluation
        err.print(f"[yellow]could not check whether the agent keeps its reasoning: {exc}")
        return
    if probe.field_kept:
        return
    if probe.inline_kept:
        settings.episode.agent.inline_thinking = True
        err.print(f"{probe.endpoint}: the agent's earlier reasoning is passed back inside its "
                  "messages (its chat template would drop it otherwise)")  # fmt: skip
        return
    err.print(f"[yellow]warning: {probe.endpoint}: the chat template drops earlier turns' "
              "reasoning in every form; --keep-thinking cannot take effect there (serve the "
              "model with a template that keeps it, see docs/erpo.md)")  # fmt: skip


def default_out(target: str) -> Path:
    """``TARGET/eval`` for a directory, ``./eval-NAME`` for a bundled example."""
    path = Path(target)
    return path / "eval" if path.is_dir() else Path(f"eval-{path.name}")


def _label(spec: RoleSpec, config: LLMConfig) -> str:
    from autoforge.llm import resolve_endpoint

    if spec.kind == "scripted":
        return spec.label
    ep = resolve_endpoint(config, spec.role)
    return ep.label if ep.embedded else f"{ep.label} {ep.model or '(first listed)'}"


def _settings(
    loaded: EvalTarget,
    specs: list[RoleSpec],
    config: LLMConfig,
    no_judge: bool,
    keep_thinking: bool,
    max_steps: int | None,
) -> EvalSettings:
    from autoforge.bench import EvalSettings
    from autoforge.rollout import EpisodeConfig

    agent, user, judge = specs
    episode = EpisodeConfig()
    episode.agent.keep_thinking = keep_thinking
    episode.agent.transfer_tools = list(loaded.transfer_tools)
    if max_steps is not None:
        episode.limits.max_steps = max_steps
    judge_kind = _judge_kind(judge, config, no_judge)
    labels = {
        "agent": _label(agent, config),
        "user": _label(user, config),
        "judge": {"none": "none", "rule": "code rules"}.get(judge_kind, _label(judge, config)),
    }
    return EvalSettings(
        env_dir=str(loaded.env_dir),
        bench_dir=str(loaded.bench_dir) if loaded.bench_dir else None,
        episode=episode,
        agent=agent.name,
        user=user.name,
        judge=judge_kind,
        llm=config,
        labels=labels,
    )


def _judge_kind(judge: RoleSpec, config: LLMConfig, no_judge: bool) -> str:
    """The judge's registry kind: ``none`` with --no-judge; the named kind for a no-model spec
    (``rule``: the code rules); ``rule`` by default for an embedded judge (the embedded models
    are too weak and too slow to judge, see the judge figures in README.md); else ``llm`` (code
    rules plus the model's verified claims)."""
    from autoforge.llm import resolve_endpoint

    if no_judge:
        return "none"
    if judge.kind == "scripted":
        return judge.name
    if judge.kind == "config" and resolve_endpoint(config, "judge").embedded:
        return "rule"
    return "llm"


def print_summary(console: Console, output: EvalOutput, out_dir: Path) -> None:
    """pass^k per k and the episode counts, then where the files are."""
    table = Table(title=f"eval: {output.run.env}  (agent {output.run.agent})")
    table.add_column("k", justify="right")
    table.add_column("pass^k", justify="right")
    table.add_column("tasks", justify="right")
    for k, value in sorted(output.pass_hat_k.items()):
        table.add_row(str(k), f"{value:.3f}", str(output.n_tasks_per_k.get(k, 0)))
    console.print(table)
    console.print(
        f"{output.n_trials} episodes: {output.n_valid_trials} valid, "
        f"{output.n_infra_errors} infrastructure errors (excluded), "
        f"{output.n_user_errors} user errors, {output.n_unscored} unscored"
        + (f"; {len(output.skipped_tasks)} tasks skipped" if output.skipped_tasks else ""),
        highlight=False,
    )
    console.print(f"wrote {out_dir / 'eval.json'} and {out_dir / 'eval.html'}", highlight=False)
