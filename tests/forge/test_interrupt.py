"""Ctrl-C stops ``autoforge forge`` at once, keeps what is done and says how to resume.

Each test starts the real command in its own process group, sends SIGINT to the whole group
(what a terminal's ^C does) in the middle of a stage, and times the exit.
"""

from __future__ import annotations

import http.server
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"

#: The goal is one second; the margin is for a busy shared test machine.
EXIT_WITHIN_S = 2.0


def _start(args: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.Popen(
        [sys.executable, "-m", "autoforge.cli.main", "forge", *args],
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip


def _wait_for(proc: subprocess.Popen[str], ready: Callable[[], bool], limit: float = 90) -> None:
    deadline = time.monotonic() + limit
    while not ready():
        if proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout else ""
            pytest.fail(f"forge ended (rc {proc.returncode}) before the interrupt:\n{out}")
        assert time.monotonic() < deadline, "forge did not reach the stage in time"
        time.sleep(0.05)


def _interrupt(proc: subprocess.Popen[str]) -> tuple[float, str]:
    """SIGINT to the process group; (seconds until the process ended, its output)."""
    os.killpg(proc.pid, signal.SIGINT)
    start = time.monotonic()
    try:
        out, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    return time.monotonic() - start, out


def _stages(run: Path) -> dict[str, str]:
    try:
        data = json.loads((run / "run.json").read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {}
    return {name: rec["status"] for name, rec in data["stages"].items()}


def _lines(path: Path) -> list[str]:
    if not path.is_file():
        return []
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_ctrl_c_during_task_generation_stops_at_once_and_resumes(tmp_path: Path) -> None:
    run = tmp_path / "run"
    args = ["--example", "bookstore", "--llm-model", "none", "--out", str(run)]
    proc = _start([*args, "--tasks", "100000"], tmp_path)
    _wait_for(proc, lambda: len(_lines(run / "tasks.jsonl")) >= 5)
    seconds, out = _interrupt(proc)

    assert proc.returncode == 130, out
    assert seconds < EXIT_WITHIN_S, f"exit took {seconds:.2f}s"
    assert "interrupted during stage tasks" in out and "resume with: autoforge forge" in out
    stages = _stages(run)
    assert stages["graph"] == "done" and stages["tasks"] == "interrupted", stages
    kept = _lines(run / "tasks.jsonl")
    assert len(kept) >= 5

    again = subprocess.run(
        [sys.executable, "-m", "autoforge.cli.main", "forge", *args, "--tasks", "3"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(SRC)}, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    assert "interrupted" not in again.stdout
    assert _lines(run / "tasks.jsonl")[: len(kept)] == kept  # nothing kept was redone
    assert set(_stages(run).values()) == {"done"}


class _SilentModel(http.server.BaseHTTPRequestHandler):
    """An LLM endpoint that accepts a request and never answers."""

    def do_GET(self) -> None:
        time.sleep(120)

    def do_POST(self) -> None:
        time.sleep(120)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def silent_model() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _SilentModel)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_ctrl_c_while_waiting_for_the_model_stops_at_once(
    tmp_path: Path, silent_model: str
) -> None:
    run = tmp_path / "run"
    args = ["--example", "bookstore", "--out", str(run), "--tasks", "5", "--no-cache",
            "--llm-base-url", silent_model, "--llm-model", "silent"]  # fmt: skip
    proc = _start(args, tmp_path)
    _wait_for(proc, lambda: _stages(run).get("environment") == "running")
    time.sleep(1.0)  # the synthesis is now waiting on the model
    seconds, out = _interrupt(proc)

    assert proc.returncode == 130, out
    assert seconds < EXIT_WITHIN_S, f"exit took {seconds:.2f}s"
    assert "interrupted during stage environment" in out, out  # the whole log when it fails
    assert _stages(run) == {"ingest": "done", "environment": "interrupted"}, out


def test_a_ctrl_c_after_the_last_stage_interrupted_nothing() -> None:
    from autoforge.cli.forge import _run_complete
    from autoforge.forge import STAGES, RunManifest
    from autoforge.forge.manifest import StageRecord

    manifest = RunManifest()
    for name in STAGES:
        manifest.stages[name] = StageRecord(name=name, status="done")
    assert _run_complete(manifest)
    manifest.stages["report"].status = "interrupted"
    assert not _run_complete(manifest)


def test_sigterm_stops_with_status_143(tmp_path: Path) -> None:
    run = tmp_path / "run"
    args = ["--example", "bookstore", "--llm-model", "none", "--out", str(run)]
    proc = _start([*args, "--tasks", "100000"], tmp_path)
    _wait_for(proc, lambda: len(_lines(run / "tasks.jsonl")) >= 2)
    proc.send_signal(signal.SIGTERM)  # to the process only, as a service manager does
    start = time.monotonic()
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 143, out
    assert time.monotonic() - start < EXIT_WITHIN_S
    assert _stages(run)["tasks"] == "interrupted"


class _SignalsWhileCollected:
    """An object whose finaliser receives the Ctrl-C (as when the collector runs it then)."""

    def __del__(self) -> None:
        signal.raise_signal(signal.SIGINT)
        for _ in range(1000):  # the handler runs at one of these steps, still in __del__
            pass


def test_a_ctrl_c_that_lands_in_a_finaliser_still_stops_the_command() -> None:
    from autoforge.cli.interrupt import stop_on_signals

    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), stop_on_signals():
        _SignalsWhileCollected()  # finalised at once; an exception raised there is ignored
        while time.monotonic() - start < 5:
            time.sleep(0.01)
    assert time.monotonic() - start < EXIT_WITHIN_S


def test_no_interrupt_is_left_over_after_the_block() -> None:
    from autoforge.cli.interrupt import stop_on_signals

    with pytest.raises(KeyboardInterrupt), stop_on_signals():
        _SignalsWhileCollected()
        time.sleep(1)
    time.sleep(0.2)  # nothing pending raises here, under pytest's own handler


def test_an_interrupt_wrapped_in_a_task_group_is_raised_as_itself() -> None:
    """The full suite once caught a Ctrl-C that landed while an HTTP client's task group was
    waiting on the model: it surfaced as a BaseExceptionGroup, printed a traceback and did not
    exit 130. run_async raises it as the KeyboardInterrupt it is."""
    from autoforge.cli.interrupt import run_async

    async def interrupted() -> None:
        raise BaseExceptionGroup("task group", [KeyboardInterrupt()])

    async def failing() -> None:
        raise BaseExceptionGroup("task group", [ValueError("x")])

    with pytest.raises(KeyboardInterrupt):
        run_async(interrupted())
    with pytest.raises(BaseExceptionGroup):
        run_async(failing())
