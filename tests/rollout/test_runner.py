"""Runner: checkpointing, resumption after interruption, concurrency bounds, the episode unit."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from rollout_fakes import TOOLS, FakeEpisode, call, make_task, routed  # type: ignore[import-not-found]

from autoforge.rollout.episode import EpisodeConfig
from autoforge.rollout.runner import (
    Checkpoint,
    EnvBinding,
    LocalExecutor,
    RoleLimitedClient,
    RolloutDeps,
    Runner,
    episode_fn,
    episode_seed,
)
from autoforge.rollout.trajectory import EndReason, Trajectory
from autoforge.rollout.user import ScriptedUser
from autoforge.tasks.model import Task

TASKS = [Task(id=f"t{i}", env_id="e", scenario="s") for i in range(4)]


def ok_traj(task: Any, trial: int, seed: int, reward: float = 1.0) -> Trajectory:
    return Trajectory(
        task_id=task.id, trial=trial, seed=seed, end_reason=EndReason.USER_STOP, reward=reward
    )


def test_seeds_are_stable_and_distinct() -> None:
    assert episode_seed(0, "t1", 0) == episode_seed(0, "t1", 0)
    assert len({episode_seed(0, "t1", k) for k in range(50)}) == 50
    assert episode_seed(1, "t1", 0) != episode_seed(0, "t1", 0)


async def test_resume_after_interruption(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    first: list[tuple[str, int, int]] = []

    async def hangs_after_five(task: Any, trial: int, seed: int) -> Trajectory:
        first.append((task.id, trial, seed))
        if len(first) > 5:
            await asyncio.Event().wait()  # in flight when the run is interrupted
        return ok_traj(task, trial, seed)

    runner = Runner(hangs_after_five, checkpoint=path, concurrency=3, progress=False)
    run = asyncio.create_task(runner.run(TASKS, trials=3))
    while len(Checkpoint(path).load()) < 5:
        await asyncio.sleep(0.001)
    run.cancel()
    await asyncio.gather(run, return_exceptions=True)
    finished = Checkpoint(path).load()
    assert len(finished) == 5

    second: list[tuple[str, int, int]] = []

    async def fine(task: Any, trial: int, seed: int) -> Trajectory:
        second.append((task.id, trial, seed))
        return ok_traj(task, trial, seed)

    result = await Runner(fine, checkpoint=path, progress=False).run(TASKS, trials=3)
    assert len(result) == 12 and len(second) == 7
    assert not {(t, k) for t, k, _ in second} & set(finished)
    assert [(t.task_id, t.trial) for t in result] == [(t.id, k) for t in TASKS for k in range(3)]
    seeds_first = {(t, k): s for t, k, s in first}
    for t, k, s in second:  # a resumed episode gets the seed it would have had
        assert seeds_first.get((t, k), s) == s
    assert len(path.read_text().splitlines()) == 12
    # a third run has nothing left to do
    third = Runner(fine, checkpoint=path, progress=False)
    assert len(await third.run(TASKS, trials=3)) == 12 and len(second) == 7


async def test_torn_line_and_infra_errors_are_rerun(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    ckpt = Checkpoint(path)
    ckpt.append(ok_traj(TASKS[0], 0, 1))
    bad = ok_traj(TASKS[1], 0, 1)
    bad.end_reason, bad.infra_error, bad.reward = EndReason.LLM_FAILURE, "down", None
    ckpt.append(bad)
    with path.open("a") as fh:
        fh.write('{"task_id": "t2", "tri')  # a line cut by a crash
    loaded = ckpt.load()
    assert set(loaded) == {("t0", 0), ("t1", 0)} and ckpt.skipped_lines == 1
    ran: list[str] = []

    async def fn(task: Any, trial: int, seed: int) -> Trajectory:
        ran.append(task.id)
        return ok_traj(task, trial, seed)

    out = await Runner(fn, checkpoint=path, progress=False).run(TASKS[:3], trials=1)
    assert sorted(ran) == ["t1", "t2"]
    assert all(not t.is_infra_error for t in out)
    keep = Runner(fn, checkpoint=tmp_path / "b.jsonl", retry_infra=False, progress=False)
    Checkpoint(tmp_path / "b.jsonl").append(bad)
    ran.clear()
    await keep.run(TASKS[:2], trials=1)
    assert ran == ["t0"]


async def test_exceptions_become_internal_errors_and_stats() -> None:
    async def fn(task: Any, trial: int, seed: int) -> Trajectory:
        if task.id == "t1":
            raise FileNotFoundError("no env")
        return ok_traj(task, trial, seed, reward=1.0 if task.id == "t0" else 0.0)

    runner = Runner(fn, progress=False)
    out = await runner.run(TASKS, trials=1)
    bad = out[1]
    assert bad.end_reason == EndReason.INTERNAL_ERROR and "no env" in (bad.infra_error or "")
    assert runner.stats.infra_errors == 1 and runner.stats.scored == 3
    assert runner.stats.success_rate == 1 / 3
    assert "success 0.333" in runner.stats.line()


async def test_local_executor_bounds_concurrency() -> None:
    live = peak = 0

    async def fn(task: Any, trial: int, seed: int) -> Trajectory:
        nonlocal live, peak
        live += 1
        peak = max(peak, live)
        await asyncio.sleep(0.002)
        live -= 1
        return ok_traj(task, trial, seed)

    await Runner(fn, executor=LocalExecutor(3), progress=False).run(TASKS, trials=5)
    assert peak == 3


async def test_role_limited_client() -> None:
    live: dict[str, int] = {"agent": 0, "user": 0}
    peak: dict[str, int] = {"agent": 0, "user": 0}

    class Slow:
        async def chat(self, messages: Any, **kw: Any) -> str:
            role = kw["role"]
            live[role] += 1
            peak[role] = max(peak[role], live[role])
            await asyncio.sleep(0.002)
            live[role] -= 1
            return role

    client = RoleLimitedClient(Slow(), {"agent": 2, "user": 4})
    calls = [client.chat([], role=r, purpose="p") for r in ["agent", "user"] * 10]
    await asyncio.gather(*calls)
    assert peak == {"agent": 2, "user": 4}


async def test_episode_unit_end_to_end_with_faults() -> None:
    task = make_task()
    client = routed(
        agent=[call("cancel_order", order_id="o1"), "Cancelled; total 1250."] * 2, user=[]
    )
    deps = RolloutDeps(
        client=client,
        env_factory=lambda t: EnvBinding(FakeEpisode(), "policy", TOOLS),
        user_factory=lambda t, seed: ScriptedUser(["Cancel o1 please", "thanks ###STOP###"]),
    )
    config = EpisodeConfig(fault_p=0.0)
    config.agent.tool_mode = "native"
    fn = episode_fn(config, deps)
    traj = await fn(task, 0, 42)
    assert traj.reward == 1.0 and traj.seed == 42 and traj.faults == []
    faulty = EpisodeConfig(fault_p=1.0)
    faulty.agent.tool_mode = "native"
    bad = await episode_fn(faulty, deps)(task, 1, 42)
    assert bad.faults and bad.faults[0].turn == 1


async def test_a_line_per_finished_episode_without_a_terminal() -> None:
    from io import StringIO

    from rich.console import Console

    out = StringIO()
    console = Console(file=out, force_terminal=False, width=200)

    async def fn(task: Any, trial: int, seed: int) -> Trajectory:
        traj = ok_traj(task, trial, seed, reward=0.0 if task.id == "t1" else 1.0)
        traj.duration_s = 12.4
        return traj

    await Runner(fn, concurrency=1, console=console).run(TASKS[:2], trials=1)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("[")]
    assert lines == [
        "[1/2] t0 trial 0: reward 1, user_stop, 12s",
        "[2/2] t1 trial 0: reward 0, user_stop, 12s",
    ]
