"""``autoforge serve`` (refusals, one-line errors, a real server process) and target resolution."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from autoforge.env import EnvDir
from autoforge.errors import UserError
from autoforge.examples import example_path
from autoforge.serve.auth import check_bind, is_loopback
from autoforge.serve.loader import load_service
from autoforge.tasks import read_tasks


def _cli(*args: str) -> Any:
    from autoforge.cli.main import app

    return CliRunner().invoke(app, list(args))


def test_help_has_an_example() -> None:
    result = _cli("serve", "--help")
    assert result.exit_code == 0
    assert "autoforge serve" in result.output and "--mcp" in result.output


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.7", "::", "example.org"])
def test_refuses_non_loopback_without_token(host: str) -> None:
    assert not is_loopback(host)
    with pytest.raises(UserError, match="--token"):
        check_bind(host, None)
    check_bind(host, "secret")  # with a token it may bind anywhere


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.53", "::1", "[::1]", "localhost"])
def test_loopback_needs_no_token(host: str) -> None:
    assert is_loopback(host)
    check_bind(host, None)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["serve", "bookstore", "--host", "0.0.0.0"], "without a token"),
        (["serve", "{tmp}/missing"], "does not exist"),
        (["serve", "{tmp}"], "no environment.json"),
        (["serve", "bookstore", "--mcp", "--transport", "ws"], "--transport"),
        (["serve", "bookstore", "--mcp", "--task", "nope"], "unknown task"),
    ],
)
def test_cli_user_errors_are_one_line(
    argv: list[str], needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from autoforge.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main([a.format(tmp=tmp_path) for a in argv])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_resolve_env_dir_run_dir_and_example(tmp_path: Path, tasks_file: Path) -> None:
    env_dir = tmp_path / "run" / "env"
    shutil.copytree(example_path("bookstore"), env_dir)
    (tmp_path / "run" / "tasks.jsonl").write_text(tasks_file.read_text())
    run = EnvDir.resolve(tmp_path / "run")
    assert run.root == env_dir and run.tasks_file == tmp_path / "run" / "tasks.jsonl"
    assert EnvDir.resolve(env_dir).tasks_file is None
    assert EnvDir.resolve("bookstore").root == example_path("bookstore")
    shutil.copytree(example_path("bookstore"), tmp_path / "run" / "other")
    with pytest.raises(UserError, match="several environments"):
        EnvDir.resolve(tmp_path / "run")


def test_load_service_with_tasks(tasks_file: Path) -> None:
    service = load_service("bookstore", tasks_file)
    assert service.env_id == "bookstore" and service.tasks.ids() == ["cancel", "lookup", "order"]


def test_tasks_of_another_environment_are_refused(tmp_path: Path, tasks_file: Path) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text(tasks_file.read_text().replace('"env_id":"bookstore"', '"env_id":"shop"'))
    with pytest.raises(UserError, match="shop"):
        load_service("bookstore", other)


def test_bad_task_lines_name_the_line(tmp_path: Path, tasks_file: Path) -> None:
    lines = tasks_file.read_text().splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n{not json\n")
    with pytest.raises(UserError, match=r"bad.jsonl:2: not JSON"):
        read_tasks(bad)
    bad.write_text(lines[0] + "\n" + '{"id": "x"}\n')
    with pytest.raises(UserError, match=r"bad.jsonl:2: env_id"):
        read_tasks(bad)
    partial = tmp_path / "partial.jsonl"
    partial.write_text(lines[0] + "\n" + lines[1][:40])  # an interrupted write
    assert [t.id for t in read_tasks(partial)] == ["order"]


def test_tau_style_task_specs_are_served(tmp_path: Path) -> None:
    spec = tmp_path / "specs.jsonl"
    spec.write_text(
        '{"id": "t1", "env_id": "bookstore", "scenario": "Find B-204.", '
        '"gold_state_hash": null, "required_outputs": ["Orbitfall"]}\n'
    )
    (task,) = read_tasks(spec)
    outputs = [o.text for o in task.required_outputs]
    assert (task.scenario.opening(), outputs, task.initial_state) == (
        "Find B-204.", ["Orbitfall"], None,
    )  # fmt: skip


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_cli_serves_http_until_stopped(tasks_file: Path) -> None:
    port = _free_port()
    cmd = [sys.executable, "-m", "autoforge.cli.main", "serve", "bookstore"]
    proc = subprocess.Popen(
        [*cmd, "--port", str(port), "--tasks", str(tasks_file), "--token", "tok"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx.get(f"{url}/health").json()
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
                time.sleep(0.1)
        assert health["tasks"] == 3
        headers = {"Authorization": "Bearer tok"}
        start = httpx.post(f"{url}/episodes", json={"task_id": "lookup"}, headers=headers)
        assert start.status_code == 201 and start.json()["question"] == "What is book B-204?"
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_missing_serve_extra_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from autoforge.cli.serve import _require_extra

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "mcp" else real(name, *a)
    )
    _require_extra(mcp=False)  # the HTTP server does not need mcp
    with pytest.raises(UserError, match=r"needs mcp: pip install 'autoforge\[serve\]'"):
        _require_extra(mcp=True)
