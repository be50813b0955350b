"""``autoforge export verifiers``: the package is pip-installed (from its directory, and as a
wheel with the run directory deleted) into a target directory, and a fresh interpreter that
sees only that install, the project's sources and the shared site-packages loads it with
``vf.load_environment(NAME)`` / ``autoforge serve NAME`` and plays one scripted episode."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("verifiers", reason="needs the [adapters] extra: pip install -e '.[adapters]'")

from autoforge.adapters.package import (
    ENTRY_POINT_GROUP,
    build_isolation_flags,
    export_package,
    package_names,
)
from autoforge.errors import UserError

SRC = Path(__file__).resolve().parents[2] / "src"
NAME = "autoforge-env-bookstore"

# Run in a fresh interpreter: one verifiers episode (scripted model, scripted user) and one
# served episode (gold calls through the EnvService `autoforge serve NAME` would load).
EPISODE_SCRIPT = """
import asyncio, importlib, json, sys
import httpx
from openai import AsyncOpenAI
import verifiers as vf
from autoforge.serve.loader import load_service
from autoforge.tasks import TaskSet

name = sys.argv[1]
module = importlib.import_module(name.replace("-", "_"))
tasks = list(TaskSet(module.data_dir() / "tasks.jsonl").load())
task = next(t for t in tasks if t.initial_state_hash != t.final_state_hash)
calls = [{"id": f"c{i}", "type": "function",
          "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
         for i, c in enumerate(task.gold_calls)]
script = [{"role": "assistant", "content": None, "tool_calls": calls},
          {"role": "assistant", "content": "Done."}, {"role": "assistant", "content": "Bye."}]

def answer(request):
    msg = script.pop(0) if script else {"role": "assistant", "content": "Bye."}
    finish = "tool_calls" if msg.get("tool_calls") else "stop"
    return httpx.Response(200, json={"id": "s", "object": "chat.completion", "created": 0,
        "model": "s", "choices": [{"index": 0, "finish_reason": finish, "message": msg}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

client = AsyncOpenAI(base_url="http://scripted.invalid/v1", api_key="none",
                     http_client=httpx.AsyncClient(transport=httpx.MockTransport(answer)))
env = vf.load_environment(name)
row = next(dict(r) for r in env.get_dataset() if r["info"]["task_id"] == task.id)
out = asyncio.run(env.run_rollout(row, client, "scripted", {}))

service = load_service(name)
episode = service.open_episode(task.id)["episode_id"]
for c in task.gold_calls:
    service.call(episode, c.name, c.arguments)
served = service.reward(episode)
print(json.dumps({"vf_reward": out["reward"], "served_reward": served["reward"],
                  "module": module.__file__, "n_tasks": len(tasks)}))
"""


def _pip_install(what: Path, target: Path) -> None:
    command = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target)]
    done = subprocess.run(
        [*command, *build_isolation_flags(), str(what)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def _run_episode(site: Path, workdir: Path) -> dict[str, Any]:
    script = workdir / "episode.py"
    script.write_text(EPISODE_SCRIPT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(SRC)])}
    done = subprocess.run(
        [sys.executable, str(script), NAME], capture_output=True, text=True, cwd=workdir, env=env
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # pip install + a fresh interpreter importing verifiers: ~40 s on a busy box
def test_export_cli_writes_a_package_that_pip_installs_and_plays(
    forged_run: Path, tmp_path: Path, run_tasks: list[Any]
) -> None:
    from typer.testing import CliRunner

    from autoforge.cli.main import app

    pkg = tmp_path / "pkg"
    result = CliRunner().invoke(app, ["export", "verifiers", str(forged_run), "--out", str(pkg)])
    assert result.exit_code == 0, result.output
    module = pkg / "autoforge_env_bookstore"
    assert (module / "data" / "env" / "environment.json").is_file()
    assert (module / "data" / "tasks.jsonl").read_text() == (forged_run / "tasks.jsonl").read_text()
    assert f'[project.entry-points."{ENTRY_POINT_GROUP}"]' in (pkg / "pyproject.toml").read_text()

    site = tmp_path / "site"
    _pip_install(pkg, site)
    got = _run_episode(site, tmp_path)
    assert got["module"].startswith(str(site))  # the installed copy, not the source tree
    assert (got["vf_reward"], got["served_reward"], got["n_tasks"]) == (1.0, 1.0, len(run_tasks))


@pytest.mark.slow  # pip wheel + pip install + a fresh interpreter: ~60 s on a busy box
def test_wheel_works_without_the_run_directory(forged_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(forged_run, run)
    exported = export_package(run, tmp_path / "pkg", wheel=True)
    assert exported.wheel is not None and exported.wheel.name.startswith("autoforge_env_bookstore")
    left = sorted(p.name for p in exported.root.iterdir())
    assert "build" not in left and not [n for n in left if n.endswith(".egg-info")], left
    wheel = shutil.copy2(exported.wheel, tmp_path / exported.wheel.name)
    shutil.rmtree(run)
    shutil.rmtree(exported.root)

    site = tmp_path / "site"
    _pip_install(Path(wheel), site)
    assert list(site.glob("autoforge_env_bookstore-*.dist-info/entry_points.txt"))
    got = _run_episode(site, tmp_path)
    assert got["module"].startswith(str(site))
    assert (got["vf_reward"], got["served_reward"]) == (1.0, 1.0)


def test_export_refuses_bad_targets(forged_run: Path, tmp_path: Path) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    with pytest.raises(UserError, match="not empty"):
        export_package(forged_run, tmp_path / "full")
    with pytest.raises(UserError, match="no tasks"):
        export_package(forged_run / "env", tmp_path / "new")
    with pytest.raises(UserError, match="start with a letter"):
        package_names("shop", "9lives")
    assert package_names("Shop_2") == ("autoforge-env-shop-2", "autoforge_env_shop_2")
