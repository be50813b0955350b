"""``autoforge eval``: trials of every task through the rollout runner, pass^k, eval.json/html.

The unit that runs episodes is :class:`EvalWorker`, a picklable factory (settings only) that
builds, where it runs, the environment, the LLM client and the episode function: the local
executor calls it once in this process, the Ray executor once per actor. Episodes are
appended to ``OUT/trajectories.jsonl`` as they finish (the runner's checkpoint), so an
interrupted evaluation resumes where it stopped; ``OUT/eval_config.json`` records what was
run, and resuming with a different agent, user, judge or episode settings is refused rather
than silently mixing two evaluations.

pass^k (see :mod:`.passk`) excludes infrastructure errors and unscored episodes, and with
``exclude_user_errors`` the episodes the MEU judge blamed on the simulated user.
"""

from __future__ import annotations

import json
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, Field

from autoforge.bench.passk import EvalReport, evaluate, pass_hat_k
from autoforge.env import Environment
from autoforge.errors import UserError
from autoforge.llm import DEFAULT_REMOTE_CONCURRENCY, LLMConfig, resolve_endpoint
from autoforge.rollout import (
    EpisodeConfig,
    EpisodeFn,
    RolloutDeps,
    RoutedClient,
    Runner,
    Trajectory,
    agent_factory,
    bind_environment,
    judge_hooks,
    kind_field,
    kind_needs_llm,
    rollout_episode,
    user_factory,
)
from autoforge.tasks import Task

CHECKPOINT = "trajectories.jsonl"
CONFIG_FILE = "eval_config.json"
EVAL_JSON = "eval.json"
EVAL_HTML = "eval.html"


class EvalSettings(BaseModel):
    """Everything that shapes the episodes (serialisable: travels to Ray actors); ``agent``,
    ``user`` and ``judge`` name kinds of the role registry (``autoforge.rollout.roles``)."""

    env_dir: str
    bench_dir: str | None = None
    episode: EpisodeConfig = Field(default_factory=EpisodeConfig)
    agent: Annotated[str, kind_field("agent")] = "llm"
    user: Annotated[str, kind_field("user")] = "llm"
    judge: Annotated[str, kind_field("judge")] = "llm"
    llm: LLMConfig | None = None
    labels: dict[str, str] = Field(default_factory=dict, description="role -> who plays it")

    def fingerprint(self) -> dict[str, Any]:
        """What must not change between a run and its resumption."""
        return {
            "env_dir": self.env_dir,
            "bench_dir": self.bench_dir,
            "episode": self.episode.model_dump(mode="json"),
            "players": {"agent": self.agent, "user": self.user, "judge": self.judge},
            "labels": self.labels,
        }


def make_client(config: LLMConfig | None) -> Any:
    """The LLM client of a worker (a seam: tests replace it with a scripted client)."""
    from autoforge.llm import get_client

    return get_client(config)


class EvalWorker:
    """Picklable episode-function factory: ``worker()`` -> ``fn(task, trial, seed)``.

    ``env``: the environment the driver already loaded for these settings, used by a local run
    instead of loading it a second time; it is not pickled, so each Ray actor loads its own.
    """

    def __init__(self, settings: EvalSettings, env: Environment | None = None) -> None:
        self.settings = settings
        self.env = env
        self.client: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "env": None}

    def __call__(self) -> EpisodeFn:
        from autoforge.bench.targets import load_env

        s = self.settings
        env = self.env
        if env is None:
            env = load_env(Path(s.env_dir), Path(s.bench_dir) if s.bench_dir else None)
        self.client = make_client(s.llm) if any(kind_needs_llm(*p) for p in _players(s)) else None
        agents = agent_factory(s.agent, self.client, s.episode)
        users = user_factory(s.user, self.client, s.episode)
        judges = judge_hooks(s.judge, self.client, s.episode)

        async def fn(task: Task, trial: int, seed: int) -> Trajectory:
            agent = agents(task)
            deps = RolloutDeps(
                client=RoutedClient({"agent": agent}, default=self.client or agent),
                env_factory=lambda t: bind_environment(env, t),
                user_factory=users,
                nl_judge=judges.nl,
                meu_judge=judges.meu,
            )
            traj = await rollout_episode(task, trial, seed, s.episode, deps)
            traj.meta.update(s.labels)
            return traj

        return fn

    async def aclose(self) -> None:
        """Close the client's connections (local runs)."""
        if self.client is not None and hasattr(self.client, "aclose"):
            await self.client.aclose()


def _players(settings: EvalSettings) -> list[tuple[Any, str]]:
    """``(role, kind)`` of the agent, the user and the judge."""
    return [("agent", settings.agent), ("user", settings.user), ("judge", settings.judge)]


def default_concurrency(settings: EvalSettings) -> int:
    """Episodes in flight by default: the parallel capacity of the tightest endpoint in use
    (the embedded server's slots; a configured endpoint's ``max_concurrency``, 8 unless set).
    More episodes than slots only queue at the server and delay every episode's first line."""
    roles = [role for role, kind in _players(settings) if kind_needs_llm(role, kind)]
    if not roles or settings.llm is None:
        return DEFAULT_REMOTE_CONCURRENCY
    return min(resolve_endpoint(settings.llm, role).max_concurrency for role in roles)


# --------------------------------------------------------------------------- results


class TaskOutcome(BaseModel):
    """One task's trials at a glance."""

    task_id: str
    domain: str | None = None
    difficulty: str | None = None
    trials: int = 0
    valid: int = 0
    successes: int = 0
    infra_errors: int = 0
    user_errors: int = 0
    pass_hat_k: dict[int, float] = Field(default_factory=dict)


class RunInfo(BaseModel):
    """What was evaluated, with what, and how long it took."""

    env: str
    env_dir: str
    tasks_source: str
    agent: str
    user: str
    judge: str
    trials: int
    seed: int
    executor: str
    max_steps: int
    keep_thinking: bool
    started_at: float
    wall_s: float = 0.0
    episodes_run: int = Field(default=0, description="episodes run by this invocation")


class EvalOutput(EvalReport):
    """``eval.json``: the pass^k report plus the run, per-task outcomes and episode stats."""

    run: RunInfo
    success_rate: float | None = None
    skipped_tasks: dict[str, str] = Field(default_factory=dict)
    end_reasons: dict[str, int] = Field(default_factory=dict)
    mean_steps: float | None = None
    mean_tool_calls: float | None = None
    mean_episode_s: float | None = None
    episodes_per_hour: float | None = Field(
        default=None, description="valid episodes per hour of this invocation's wall time"
    )
    tokens: dict[str, dict[str, int]] = Field(default_factory=dict)
    per_task: list[TaskOutcome] = Field(default_factory=list)


def task_outcomes(trajs: Sequence[Trajectory], exclude_user_errors: bool) -> list[TaskOutcome]:
    """Per-task counts and pass^k, in first-seen task order."""
    groups: dict[str, list[Trajectory]] = defaultdict(list)
    for t in trajs:
        groups[t.task_id].append(t)
    out = []
    for task_id, group in groups.items():
        valid = [t for t in group if not t.is_infra_error and t.reward is not None]
        counted = [t for t in valid if not (exclude_user_errors and t.user_error)]
        c = sum(t.reward == 1.0 for t in counted)
        out.append(
            TaskOutcome(
                task_id=task_id,
                domain=group[0].domain,
                difficulty=group[0].difficulty,
                trials=len(group),
                valid=len(counted),
                successes=c,
                infra_errors=sum(t.is_infra_error for t in group),
                user_errors=sum(bool(t.user_error) for t in valid),
                pass_hat_k=pass_hat_k([(len(counted), c)]) if counted else {},
            )
        )
    return out


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _tokens(trajs: Sequence[Trajectory]) -> dict[str, dict[str, int]]:
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for t in trajs:
        for role, usage in t.tokens.items():
            out[role].update(
                calls=usage.calls,
                prompt_tokens=usage.prompt_tokens,
                completion_tokens=usage.completion_tokens,
            )
    return {role: dict(c) for role, c in out.items()}


def summarize(
    trajs: Sequence[Trajectory],
    run: RunInfo,
    *,
    exclude_user_errors: bool = False,
    skipped: dict[str, str] | None = None,
) -> EvalOutput:
    """The full ``eval.json`` content of a set of trajectories."""
    report = evaluate(trajs, exclude_user_errors=exclude_user_errors)
    valid = [t for t in trajs if not t.is_infra_error]
    scored = [t for t in valid if t.reward is not None]
    rate = _mean([float(t.reward == 1.0) for t in scored])
    per_hour = None
    if run.wall_s > 0 and run.episodes_run:
        per_hour = run.episodes_run * 3600.0 / run.wall_s
    return EvalOutput(
        **report.model_dump(),
        run=run,
        success_rate=rate,
        skipped_tasks=dict(skipped or {}),
        end_reasons=dict(Counter(t.end_reason.value for t in trajs)),
        mean_steps=_mean([t.n_steps for t in valid]),
        mean_tool_calls=_mean([len(t.tool_calls) for t in valid]),
        mean_episode_s=_mean([t.duration_s for t in valid]),
        episodes_per_hour=per_hour,
        tokens=_tokens(trajs),
        per_task=task_outcomes(trajs, exclude_user_errors),
    )


# --------------------------------------------------------------------------- the run


def check_resumable(out_dir: Path, settings: EvalSettings, restart: bool) -> None:
    """Refuse to resume a checkpoint made with other settings (or wipe it with ``restart``)."""
    config_path, checkpoint = out_dir / CONFIG_FILE, out_dir / CHECKPOINT
    if restart:
        checkpoint.unlink(missing_ok=True)
    elif config_path.is_file() and checkpoint.is_file():
        old = json.loads(config_path.read_text(encoding="utf-8"))
        new = json.loads(json.dumps(settings.fingerprint()))
        changed = sorted(k for k in new if old.get(k) != new[k])
        if changed:
            raise UserError(
                f"{out_dir} holds an evaluation with other settings ({', '.join(changed)} "
                "differ): use another --out, or --restart to discard it"
            )
    out_dir.mkdir(parents=True, exist_ok=True)
    config_path.write_text(json.dumps(settings.fingerprint(), indent=2), encoding="utf-8")


async def run_trials(
    settings: EvalSettings,
    tasks: Sequence[Task],
    out_dir: Path,
    *,
    trials: int,
    seed: int = 0,
    executor: str = "local",
    concurrency: int = 8,
    progress: bool = True,
    make_executor: Callable[..., Any] | None = None,
    env: Environment | None = None,
) -> tuple[list[Trajectory], int]:
    """Run (or resume) every trial; ``(all trajectories of these tasks, episodes run now)``.
    ``env``: the environment of ``settings`` when the caller has it loaded already."""
    from autoforge.rollout import make_executor as default_make

    worker = EvalWorker(settings, env)
    factory = make_executor or default_make
    pool = factory(executor, worker=worker, concurrency=concurrency)
    fn = worker() if executor == "local" else _unused
    runner = Runner(fn, checkpoint=out_dir / CHECKPOINT, executor=pool, progress=progress)
    try:
        trajs = await runner.run(list(tasks), trials=trials, base_seed=seed)
    finally:
        await worker.aclose()
    return trajs, runner.stats.total


async def _unused(task: Task, trial: int, seed: int) -> Trajectory:
    raise RuntimeError("episodes run on the executor's workers, not on the driver")


def write_outputs(
    out_dir: Path, output: EvalOutput, html_text: str | None = None
) -> tuple[Path, Path | None]:
    """Write ``eval.json`` (and ``eval.html`` when given)."""
    json_path = out_dir / EVAL_JSON
    json_path.write_text(output.model_dump_json(indent=2), encoding="utf-8")
    html_path = None
    if html_text is not None:
        html_path = out_dir / EVAL_HTML
        html_path.write_text(html_text, encoding="utf-8")
    return json_path, html_path


def run_info(settings: EvalSettings, env_name: str, tasks_source: str, **fields: Any) -> RunInfo:
    """The :class:`RunInfo` of these settings (``fields``: trials, seed, executor, ...)."""
    return RunInfo(
        env=env_name,
        env_dir=settings.env_dir,
        tasks_source=tasks_source,
        agent=settings.labels.get("agent", settings.agent),
        user=settings.labels.get("user", settings.user),
        judge=settings.labels.get("judge", settings.judge),
        max_steps=settings.episode.limits.max_steps,
        keep_thinking=settings.episode.agent.keep_thinking,
        started_at=fields.pop("started_at", time.time()),
        **fields,
    )
