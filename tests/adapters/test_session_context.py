"""A task's session user (who is signed in) reaches the agent through every ecosystem adapter:
the verifiers dataset's system message, OpenEnv's reset observation, and the tau2 export
(which has no per-task agent context, so the user holds it there)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from autoforge.env import Environment
from autoforge.examples import example_path
from autoforge.tasks import Task, TaskSet, generate_tasks

SESSION = {"customer_id": "C-7070"}


@pytest.fixture(scope="module")
def signed_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Task]]:
    run = tmp_path_factory.mktemp("signed")
    shutil.copytree(example_path("bookstore"), run / "env")
    tasks, _ = generate_tasks(Environment.load(run / "env"), 2, "easy", seed=0)
    tasks = [tasks[0].model_copy(update={"session": SESSION}), tasks[1]]
    TaskSet(run / "tasks.jsonl").append(tasks)
    return run, tasks


def test_verifiers_rows_carry_the_session(signed_run: tuple[Path, list[Task]]) -> None:
    pytest.importorskip(
        "verifiers", reason="needs the [adapters] extra: pip install -e '.[adapters]'"
    )
    from autoforge.adapters.verifiers import load_environment

    run, tasks = signed_run
    rows = {r["info"]["task_id"]: r for r in load_environment(run).get_dataset()}
    signed, plain = rows[tasks[0].id]["prompt"][0], rows[tasks[1].id]["prompt"][0]
    assert signed["role"] == "system" and "C-7070" in signed["content"]
    assert "# Session" in signed["content"] and "C-7070" not in plain["content"]


def test_openenv_reset_carries_the_session(signed_run: tuple[Path, list[Task]]) -> None:
    pytest.importorskip(
        "openenv", reason="needs the [adapters] extra: pip install -e '.[adapters]'"
    )
    from autoforge.adapters.forged import load_forged
    from autoforge.adapters.openenv import ForgedEnvironment

    run, tasks = signed_run
    env = ForgedEnvironment(load_forged(run))
    assert "C-7070" in env.reset(task_id=tasks[0].id).policy
    assert "C-7070" not in env.reset(task_id=tasks[1].id).policy
    env.close()


def test_tau2_export_gives_the_session_to_the_user(
    signed_run: tuple[Path, list[Task]], tmp_path: Path
) -> None:
    from autoforge.adapters.tau import export_tau2

    run, tasks = signed_run
    out = export_tau2(tasks, Environment.load(run / "env").spec, tmp_path / "tau2")
    exported = {t["id"]: t for t in json.loads((out / "tasks.json").read_text())}
    known = exported[tasks[0].id]["user_scenario"]["instructions"]["known_info"]
    assert "customer_id C-7070" in known and known.startswith(tasks[0].scenario.known_info)
    plain = exported[tasks[1].id]["user_scenario"]["instructions"]["known_info"]
    assert plain == tasks[1].scenario.known_info
