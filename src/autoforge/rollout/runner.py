"""Running thousands of episodes: bounded concurrency, JSONL checkpoints, resumption, progress.

The unit of work is a plain async function of ``(task, trial, seed)`` with its configs bound
(:func:`rollout_episode` with an :class:`EpisodeConfig` and :class:`RolloutDeps`), so an executor
can run it anywhere: :class:`LocalExecutor` runs it on this event loop with a concurrency
bound; a Ray executor only has to implement :class:`Executor`.

Every finished trajectory is appended to a JSONL checkpoint (one line, keyed by
``(task_id, trial)``). Restarting the same run reads the file and skips finished keys; by
default episodes that ended in an infrastructure error are run again (the newer line wins).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from autoforge.env import EnvironmentLike, EpisodeLike
from autoforge.rollout.agent import Agent, ChatClient
from autoforge.rollout.episode import EpisodeConfig, new_trajectory, run_episode
from autoforge.rollout.goals import task_goals
from autoforge.rollout.reward import AssertionEvaluator, NLJudge
from autoforge.rollout.roles import MEUHook, UserFactory
from autoforge.rollout.trajectory import EndReason, Trajectory
from autoforge.rollout.user import FaultyUser, LLMUser, SimulatedUser
from autoforge.tasks import Task

EpisodeFn = Callable[[Task, int, int], Awaitable[Trajectory]]
Key = tuple[str, int]


def episode_seed(base_seed: int, task_id: str, trial: int) -> int:
    """A seed stable across processes and runs for ``(base_seed, task_id, trial)``."""
    digest = hashlib.sha256(f"{base_seed}:{task_id}:{trial}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


# --------------------------------------------------------------------------- checkpoints


class Checkpoint:
    """A JSONL file of trajectories, appended one line per finished episode."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.skipped_lines = 0

    def load(self) -> dict[Key, Trajectory]:
        """Finished trajectories by key; the last line of a key wins; torn lines are skipped."""
        done: dict[Key, Trajectory] = {}
        self.skipped_lines = 0
        if not self.path.is_file():
            return done
        with self.path.open(encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                try:
                    traj = Trajectory.model_validate_json(line)
                except (ValidationError, ValueError):
                    self.skipped_lines += 1
                    continue
                done[traj.key] = traj
        return done

    def append(self, traj: Trajectory) -> None:
        """Write one trajectory as one line and flush it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(traj.model_dump_json() + "\n")
            fh.flush()


# --------------------------------------------------------------------------- executors


@dataclass(frozen=True)
class Job:
    """One episode to run."""

    task: Task
    trial: int
    seed: int


class Executor(Protocol):
    """Runs jobs and reports each trajectory as soon as it is done."""

    async def run(
        self, fn: EpisodeFn, jobs: Sequence[Job], on_done: Callable[[Trajectory], None]
    ) -> None: ...


class LocalExecutor:
    """Runs episodes as asyncio tasks on this event loop, at most ``concurrency`` at once."""

    def __init__(self, concurrency: int = 64) -> None:
        if concurrency < 1:
            raise ValueError("concurrency must be >= 1")
        self.concurrency = concurrency

    async def run(
        self, fn: EpisodeFn, jobs: Sequence[Job], on_done: Callable[[Trajectory], None]
    ) -> None:
        queue: asyncio.Queue[Job] = asyncio.Queue()
        for job in jobs:
            queue.put_nowait(job)

        async def worker() -> None:
            while True:
                try:
                    job = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                on_done(await fn(job.task, job.trial, job.seed))

        workers = min(self.concurrency, len(jobs))
        await asyncio.gather(*(worker() for _ in range(workers)))


# --------------------------------------------------------------------------- progress


@dataclass
class RunStats:
    """Live counts of a run."""

    total: int = 0
    done: int = 0
    successes: int = 0
    scored: int = 0
    infra_errors: int = 0

    def add(self, traj: Trajectory) -> None:
        self.done += 1
        if traj.is_infra_error:
            self.infra_errors += 1
        elif traj.reward is not None:
            self.scored += 1
            self.successes += int(traj.reward == 1.0)

    @property
    def success_rate(self) -> float | None:
        return self.successes / self.scored if self.scored else None

    def line(self) -> str:
        rate = self.success_rate
        shown = "-" if rate is None else f"{rate:.3f}"
        return f"success {shown} (n={self.scored}) infra {self.infra_errors}"


def episode_line(traj: Trajectory, done: int, total: int) -> str:
    """One finished episode as a plain progress line (printed whether or not the output is a
    terminal, so a long run shows progress in a log file too)."""
    reward = "-" if traj.reward is None else f"{traj.reward:g}"
    return (
        f"[{done}/{total}] {traj.task_id} trial {traj.trial}: reward {reward}, "
        f"{traj.end_reason.value}, {traj.duration_s:.0f}s"
    )


def _never_raises(fn: EpisodeFn) -> EpisodeFn:
    """``fn``, turning an exception (a bad environment, a bug) into an infra-error trajectory."""

    async def safe(task: Task, trial: int, seed: int) -> Trajectory:
        try:
            return await fn(task, trial, seed)
        except Exception as exc:
            traj = new_trajectory(task, trial, seed)
            traj.end_reason = EndReason.INTERNAL_ERROR
            traj.infra_error = f"internal {type(exc).__name__}: {exc}"
            return traj

    return safe


class Runner:
    """Runs ``trials`` episodes of every task, resuming from a checkpoint."""

    def __init__(
        self,
        episode_fn: EpisodeFn,
        *,
        checkpoint: str | Path | None = None,
        executor: Executor | None = None,
        concurrency: int = 64,
        retry_infra: bool = True,
        progress: bool = True,
        console: Console | None = None,
    ) -> None:
        self.episode_fn = episode_fn
        self.checkpoint = Checkpoint(checkpoint) if checkpoint is not None else None
        self.executor = executor or LocalExecutor(concurrency)
        self.retry_infra = retry_infra
        self.progress = progress
        self.console = console or Console(stderr=True)
        self.stats = RunStats()

    def plan(
        self, tasks: Iterable[Task], trials: int, base_seed: int, done: dict[Key, Trajectory]
    ) -> list[Job]:
        """The jobs still to run, in task-then-trial order."""
        jobs = []
        for task in tasks:
            for trial in range(trials):
                old = done.get((task.id, trial))
                if old is not None and not (self.retry_infra and old.is_infra_error):
                    continue
                jobs.append(Job(task, trial, episode_seed(base_seed, task.id, trial)))
        return jobs

    async def run(
        self, tasks: Sequence[Task], *, trials: int = 1, base_seed: int = 0
    ) -> list[Trajectory]:
        """Every ``(task, trial)`` trajectory, from the checkpoint or freshly run."""
        done = self.checkpoint.load() if self.checkpoint else {}
        jobs = self.plan(tasks, trials, base_seed, done)
        self.stats = RunStats(total=len(jobs))
        with self._progress() as bar:
            bar_id = bar.add_task("rollout", total=len(jobs), stats=self.stats.line())

            def on_done(traj: Trajectory) -> None:
                done[traj.key] = traj
                if self.checkpoint is not None:
                    self.checkpoint.append(traj)
                self.stats.add(traj)
                bar.update(bar_id, advance=1, stats=self.stats.line())
                if self.progress:
                    line = episode_line(traj, self.stats.done, self.stats.total)
                    bar.console.print(line, highlight=False, markup=False)

            await self.executor.run(_never_raises(self.episode_fn), jobs, on_done)
        keys = [(t.id, trial) for t in tasks for trial in range(trials)]
        return [done[k] for k in keys if k in done]

    def _progress(self) -> Progress:
        return Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[stats]}"),
            console=self.console,
            disable=not self.progress,
            transient=False,
        )


# --------------------------------------------------------------------------- the unit


class RoleLimitedClient:
    """Wraps a client so at most ``limits[role]`` calls of a role are in flight at once."""

    def __init__(self, client: Any, limits: dict[str, int]) -> None:
        self.client = client
        self.limits = dict(limits)
        self._sems: dict[str, asyncio.Semaphore] = {}

    def _sem(self, role: str) -> asyncio.Semaphore | None:
        if role not in self.limits:
            return None
        if role not in self._sems:
            self._sems[role] = asyncio.Semaphore(self.limits[role])
        return self._sems[role]

    async def chat(self, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
        sem = self._sem(str(kwargs.get("role", "agent")))
        if sem is None:
            return await self.client.chat(messages, **kwargs)
        async with sem:
            return await self.client.chat(messages, **kwargs)

    async def structured(self, messages: list[dict[str, Any]], output: Any, **kwargs: Any) -> Any:
        sem = self._sem(str(kwargs.get("role", "synthesizer")))
        if sem is None:
            return await self.client.structured(messages, output, **kwargs)
        async with sem:
            return await self.client.structured(messages, output, **kwargs)


@dataclass
class EnvBinding:
    """An environment episode for one task, with the agent's policy text and tools."""

    episode: EpisodeLike
    policy: str
    tools: list[dict[str, Any]]
    assertions: AssertionEvaluator | None = None


def bind_environment(env: EnvironmentLike, task: Task) -> EnvBinding:
    """An :class:`EnvBinding` from an ``autoforge.env.Environment`` (per the env contract)."""
    state = dict(task.initial_state) if task.initial_state is not None else None
    return EnvBinding(
        episode=env.episode(state=state),
        policy=task.with_session(env.spec.policy),
        tools=[tool.openai_tool() for tool in env.spec.tools],
    )


@dataclass
class RolloutDeps:
    """Live resources of a worker: the LLM client, environments, optional hooks."""

    client: ChatClient
    env_factory: Callable[[Task], EnvBinding]
    user_factory: UserFactory | None = None
    nl_judge: NLJudge | None = None
    meu_judge: MEUHook | None = None


async def rollout_episode(
    task: Task, trial: int, seed: int, config: EpisodeConfig, deps: RolloutDeps
) -> Trajectory:
    """The per-episode unit: build agent, user and environment, play, score, judge."""
    binding = deps.env_factory(task)
    agent = Agent(
        deps.client, policy=binding.policy, tools=binding.tools, config=config.agent, seed=seed
    )
    user: SimulatedUser
    if deps.user_factory is not None:
        user = deps.user_factory(task, seed)
    else:
        user = LLMUser(deps.client, task, config.user, seed=seed)
    if config.fault_p > 0:
        user = FaultyUser(
            user, task.known_facts(), p=config.fault_p, seed=seed, goals=task_goals(task)
        )
    traj = await run_episode(
        task,
        agent,
        user,
        binding.episode,
        limits=config.limits,
        trial=trial,
        seed=seed,
        assertions=binding.assertions,
        nl_judge=deps.nl_judge,
    )
    if deps.meu_judge is not None and not traj.is_infra_error:
        await deps.meu_judge(task, traj)
    return traj


def episode_fn(config: EpisodeConfig, deps: RolloutDeps) -> EpisodeFn:
    """:func:`rollout_episode` with its configs bound: a function of (task, trial, seed)."""

    async def fn(task: Task, trial: int, seed: int) -> Trajectory:
        return await rollout_episode(task, trial, seed, config, deps)

    return fn


def read_trajectories(path: str | Path) -> list[Trajectory]:
    """All trajectories of a checkpoint file (last line per key)."""
    return list(Checkpoint(path).load().values())
