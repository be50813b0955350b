"""``--executor ray``: an evaluation across Ray actors gives exactly the local executor's
trajectories (same seeds), streams them into the same checkpoint, and resumes from it.

The agent is a deterministic seeded script (no model needed): it looks up a book the seed
picks and, for some seeds, cancels a pending order the seed picks, then answers; so rewards and
final states differ between episodes and any mix-up between jobs would show.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="needs the [ray] extra: pip install -e '.[ray]'")

from autoforge.examples import example_path  # noqa: E402
from autoforge.rollout import (  # noqa: E402
    EpisodeConfig,
    LocalExecutor,
    RolloutDeps,
    Runner,
    ScriptedUser,
    Trajectory,
    bind_environment,
    episode_fn,
)
from autoforge.rollout.ray_executor import RayExecutor, make_executor  # noqa: E402
from autoforge.tasks import Task  # noqa: E402

BOOKS = ["B-201", "B-204", "B-206", "B-209", "B-999"]
PENDING = ["ORD-8", "ORD-9", "ORD-10"]
TIMING = {"started_at", "duration_s", "latency_s"}


class SeededAgent:
    """A chat client whose every answer is a function of the seed and the context."""

    async def chat(self, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
        rng = random.Random(kwargs.get("seed"))
        book, order, cancel = rng.choice(BOOKS), rng.choice(PENDING), rng.random() < 0.6
        done = sum(1 for m in messages if m.get("role") == "tool")
        if done == 0:
            message = _call("get_book", {"book_id": book})
        elif done == 1 and cancel:
            message = _call("cancel_order", {"order_id": order, "reason": "other"})
        else:
            last = next(m for m in reversed(messages) if m.get("role") == "tool")
            message = {"role": "assistant", "content": f"Here you go: {last['content'][:80]}"}
        usage = SimpleNamespace(prompt_tokens=len(messages), completion_tokens=1)
        return SimpleNamespace(message=message, usage=usage, cached=False, latency_s=0.0)


def _call(name: str, args: dict[str, Any]) -> dict[str, Any]:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(args)},
    }
    return {"role": "assistant", "content": None, "tool_calls": [call]}


def scripted_worker() -> Any:
    """The worker factory: runs inside each actor (loads its own environment replica)."""
    from autoforge.env import Environment

    env = Environment.load(example_path("bookstore"))
    deps = RolloutDeps(
        client=SeededAgent(),
        env_factory=lambda task: bind_environment(env, task),
        user_factory=lambda task, seed: ScriptedUser(
            [task.scenario.as_text(), "Thanks! ###STOP###"]
        ),
    )
    return episode_fn(EpisodeConfig(), deps)


def _tasks() -> list[Task]:
    from autoforge.env import Environment

    env = Environment.load(example_path("bookstore"))
    tasks = []
    for order in PENDING:
        episode = env.episode()
        episode.call("cancel_order", {"order_id": order, "reason": "other"})
        tasks.append(
            Task(
                id=f"cancel-{order}",
                env_id="bookstore",
                scenario=f"Please cancel {order}.",
                final_state_hash=episode.state_hash(),
            )
        )
    tasks.append(
        Task(
            id="browse",
            env_id="bookstore",
            scenario="Just browsing.",
            final_state_hash=env.episode().state_hash(),
        )
    )
    return tasks


def _comparable(traj: Trajectory) -> dict[str, Any]:
    """A trajectory without its wall-clock timings."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in TIMING}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return dict(strip(traj.model_dump(mode="json")))


@pytest.fixture(scope="module")
def ray_cluster() -> Any:
    # the worker factory lives in this test module, which Ray workers cannot import by name
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    if ray.is_initialized():  # an earlier test's executor may have started a local cluster
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_matches_local_and_resumes(ray_cluster: Any, tmp_path: Path) -> None:
    tasks = _tasks()
    trials, seed = 3, 11

    local_path = tmp_path / "local.jsonl"
    local = Runner(
        scripted_worker(), checkpoint=local_path, executor=LocalExecutor(4), progress=False
    )
    expected = asyncio.run(local.run(tasks, trials=trials, base_seed=seed))
    rewards = [t.reward for t in expected]
    assert 0.0 in rewards and 1.0 in rewards  # the episodes really differ
    assert all(not t.is_infra_error for t in expected)

    ray_path = tmp_path / "ray.jsonl"
    # a run interrupted after 5 episodes: its checkpoint holds their lines
    ray_path.write_text("".join(local_path.read_text().splitlines(keepends=True)[:5]))
    executor = RayExecutor(scripted_worker, actors=2, concurrency_per_actor=3)
    runner = Runner(scripted_worker(), checkpoint=ray_path, executor=executor, progress=False)
    got = asyncio.run(runner.run(tasks, trials=trials, base_seed=seed))

    assert runner.stats.total == len(tasks) * trials - 5  # resumed: only the rest ran
    pids = set(executor.pool.worker_pids)
    assert len(pids) == 2 and os.getpid() not in pids  # two actors, neither is this process
    assert [_comparable(t) for t in got] == [_comparable(t) for t in expected]
    lines = ray_path.read_text().splitlines()
    assert len(lines) == len(tasks) * trials  # streamed into the same checkpoint, once each
    assert {(json.loads(x)["task_id"], json.loads(x)["trial"]) for x in lines} == {
        (t.id, k) for t in tasks for k in range(trials)
    }


def _broken_worker() -> Any:
    async def fn(task: Any, trial: int, seed: int) -> Trajectory:
        raise RuntimeError("worker lost its environment")

    return fn


def test_a_failing_worker_gives_infra_errors_not_a_crash(ray_cluster: Any) -> None:
    tasks = _tasks()[:2]
    executor = RayExecutor(_broken_worker, actors=1)
    runner = Runner(scripted_worker(), executor=executor, progress=False)
    got = asyncio.run(runner.run(tasks, trials=1))
    assert [t.is_infra_error for t in got] == [True, True]
    assert "worker lost its environment" in (got[0].infra_error or "")


def test_make_executor_choices() -> None:
    from autoforge.errors import UserError

    assert isinstance(make_executor("local", concurrency=8), LocalExecutor)
    ray_exec = make_executor("ray", worker=scripted_worker, concurrency=8, actors=2)
    assert isinstance(ray_exec, RayExecutor) and ray_exec.pool.concurrency_per_actor == 4
    with pytest.raises(UserError, match="worker"):
        make_executor("ray")
    with pytest.raises(UserError, match="unknown executor"):
        make_executor("dask")
