"""Running episodes (or any work items) on a Ray cluster: ``--executor ray``.

:class:`RayExecutor` implements the runner's :class:`~autoforge.rollout.runner.Executor`: the
:class:`~autoforge.rollout.runner.Runner` keeps planning, checkpointing and resuming exactly as
with the local executor, and this class only decides *where* each episode runs. Episodes go to
a pool of Ray actors; each actor builds its episode function once from a picklable *worker
factory* (so it loads the environment once and keeps it: an environment replica per actor) and
runs up to ``concurrency_per_actor`` episodes at once on its own event loop. Trajectories stream
back to the driver as each finishes and are appended to the same JSONL checkpoint, so a Ray run
is resumable and, for the same seeds, gives the same trajectories as a local run.

:class:`RayPool` is the generic part (``item -> result`` on actors, results streamed back as
they finish); task synthesis can use it for its independent items. Ray is an optional extra
(``pip install 'autoforge[ray]'``); nothing here imports it until an executor is used.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

from autoforge.errors import UserError, install_hint
from autoforge.rollout.episode import EpisodeConfig, new_trajectory
from autoforge.rollout.runner import (
    EpisodeFn,
    Job,
    LocalExecutor,
    RolloutDeps,
    bind_environment,
    episode_fn,
)
from autoforge.rollout.trajectory import EndReason, Trajectory

I = TypeVar("I")  # noqa: E741 - an item
R = TypeVar("R")

#: Builds, inside a worker process, the async function that handles one item.
ItemFactory = Callable[[], Callable[[Any], Awaitable[Any]]]
#: Builds, inside a worker process, the episode function (loads the environment, the client).
WorkerFactory = Callable[[], EpisodeFn]


def import_ray() -> Any:
    """The ``ray`` module, or a ``UserError`` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise UserError(
            "the ray executor needs Ray: " + install_hint("ray") + " (or use --executor local)"
        ) from None
    return ray


class _ItemActor:
    """The actor body: builds the item function once, then serves items concurrently."""

    def __init__(self, factory: ItemFactory) -> None:
        self.fn = factory()

    async def handle(self, item: Any) -> Any:
        return await self.fn(item)

    def pid(self) -> int:
        return os.getpid()


class RayPool(Generic[I, R]):
    """``actors`` Ray actors, each running ``factory()``'s function on up to
    ``concurrency_per_actor`` items at once; results are reported as soon as each is done."""

    def __init__(
        self,
        factory: ItemFactory,
        *,
        actors: int = 2,
        concurrency_per_actor: int = 16,
        actor_options: dict[str, Any] | None = None,
        init: dict[str, Any] | None = None,
    ) -> None:
        if actors < 1 or concurrency_per_actor < 1:
            raise ValueError("actors and concurrency_per_actor must be >= 1")
        self.factory = factory
        self.actors = actors
        self.concurrency_per_actor = concurrency_per_actor
        self.actor_options = {"num_cpus": 0, **(actor_options or {})}
        self.init = init
        self.worker_pids: list[int] = []

    def _start(self) -> list[Any]:
        ray = import_ray()
        if not ray.is_initialized():
            ray.init(**(self.init or {"log_to_driver": False}))
        remote = ray.remote(_ItemActor).options(
            max_concurrency=self.concurrency_per_actor, **self.actor_options
        )
        handles = [remote.remote(self.factory) for _ in range(self.actors)]
        self.worker_pids = ray.get([h.pid.remote() for h in handles])
        return handles

    async def run(
        self,
        items: Sequence[I],
        on_done: Callable[[I, R | BaseException], None],
    ) -> None:
        """Run every item; ``on_done(item, result_or_exception)`` as each one finishes."""
        if not items:
            return
        ray = import_ray()
        handles = self._start()
        load = [0] * len(handles)
        pending = list(reversed(items))
        running: dict[asyncio.Future[Any], tuple[I, int]] = {}
        try:
            while pending or running:
                while pending and len(running) < len(handles) * self.concurrency_per_actor:
                    item = pending.pop()
                    slot = min(range(len(handles)), key=load.__getitem__)
                    ref = handles[slot].handle.remote(item)
                    running[asyncio.wrap_future(ref.future())] = (item, slot)
                    load[slot] += 1
                done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    item, slot = running.pop(future)
                    load[slot] -= 1
                    error = future.exception()
                    on_done(item, error if error is not None else future.result())
        finally:
            for handle in handles:
                ray.kill(handle)


class _EpisodeItems:
    """Adapts an episode function to the pool's ``item -> result`` shape (picklable)."""

    def __init__(self, worker: WorkerFactory) -> None:
        self.worker = worker

    def __call__(self) -> Callable[[Any], Awaitable[Any]]:
        fn = self.worker()

        async def handle(job: Job) -> Trajectory:
            return await fn(job.task, job.trial, job.seed)

        return handle


def infra_trajectory(job: Job, error: BaseException) -> Trajectory:
    """The trajectory of an episode whose worker failed (infrastructure error: retried on
    resume, never scored)."""
    traj = new_trajectory(job.task, job.trial, job.seed)
    traj.end_reason = EndReason.INTERNAL_ERROR
    traj.infra_error = f"ray worker {type(error).__name__}: {error}"
    return traj


class RayExecutor:
    """Runs the runner's episodes on Ray actors built from ``worker`` (see module docs).

    The ``fn`` the runner passes is the driver's own episode function; the actors use the one
    ``worker()`` builds instead, because live resources (LLM clients, environments) are built
    where they are used rather than pickled. Both must be the same computation.
    """

    def __init__(
        self,
        worker: WorkerFactory,
        *,
        actors: int = 2,
        concurrency_per_actor: int = 16,
        actor_options: dict[str, Any] | None = None,
        init: dict[str, Any] | None = None,
    ) -> None:
        self.pool: RayPool[Job, Trajectory] = RayPool(
            _EpisodeItems(worker),
            actors=actors,
            concurrency_per_actor=concurrency_per_actor,
            actor_options=actor_options,
            init=init,
        )

    async def run(
        self, fn: EpisodeFn, jobs: Sequence[Job], on_done: Callable[[Trajectory], None]
    ) -> None:
        def report(job: Job, result: Trajectory | BaseException) -> None:
            if isinstance(result, BaseException):
                result = infra_trajectory(job, result)
            on_done(result)

        await self.pool.run(jobs, report)


class RolloutWorker:
    """A picklable worker factory for real runs: in each actor, load the environment once and
    build the LLM client from ``llm_config`` (default: the usual config file / environment)."""

    def __init__(
        self, env_dir: str, config: EpisodeConfig | None = None, llm_config: Any = None
    ) -> None:
        self.env_dir = env_dir
        self.config = config or EpisodeConfig()
        self.llm_config = llm_config

    def __call__(self) -> EpisodeFn:
        from autoforge.env import Environment
        from autoforge.llm import get_client

        env = Environment.load(self.env_dir)
        deps = RolloutDeps(
            client=get_client(self.llm_config),
            env_factory=lambda task: bind_environment(env, task),
        )
        return episode_fn(self.config, deps)


def make_executor(
    name: str,
    *,
    worker: WorkerFactory | None = None,
    concurrency: int = 64,
    actors: int | None = None,
    address: str | None = None,
) -> LocalExecutor | RayExecutor:
    """The executor called ``name`` (``local`` or ``ray``) for the CLI's ``--executor``.

    ``ray`` needs ``worker``; ``address`` joins an existing cluster (``auto`` or ``host:port``),
    else a local one is started. ``concurrency`` is split over the actors.
    """
    if name == "local":
        return LocalExecutor(concurrency)
    if name != "ray":
        raise UserError(f"unknown executor {name!r}: use local or ray")
    if worker is None:
        raise UserError("the ray executor needs a worker factory (what each actor runs)")
    import_ray()
    n = actors or max(1, min(os.cpu_count() or 1, concurrency))
    init = {"address": address, "log_to_driver": False} if address else None
    return RayExecutor(worker, actors=n, concurrency_per_actor=max(1, concurrency // n), init=init)
