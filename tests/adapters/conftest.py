"""Fixtures of the adapter tests: a forged run directory (the bundled bookstore environment plus
tasks generated without any model) and a loopback uvicorn server."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

N_TASKS = 8


@pytest.fixture(scope="session")
def forged_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What forge writes: ``RUN/env/`` (bookstore) + ``RUN/tasks.jsonl`` (8 tasks of any
    difficulty, seed 0; one asks for an output, most change the state)."""
    from autoforge.env import Environment
    from autoforge.examples import example_path
    from autoforge.tasks import TaskSet, generate_tasks

    run = tmp_path_factory.mktemp("run")
    env_dir = run / "env"
    shutil.copytree(example_path("bookstore"), env_dir)
    tasks, _ = generate_tasks(Environment.load(env_dir), N_TASKS, "any", seed=0)
    assert len(tasks) == N_TASKS
    TaskSet(run / "tasks.jsonl").append(tasks)
    return run


@pytest.fixture(scope="session")
def run_tasks(forged_run: Path) -> list[Any]:
    """The run's tasks as ``autoforge.tasks.Task`` (gold calls, S* hash, required outputs)."""
    from autoforge.tasks import TaskSet

    return list(TaskSet(forged_run / "tasks.jsonl").load())


class LiveServer:
    """A uvicorn server in a thread on 127.0.0.1 and a free port, stopped on exit."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture
def live_server() -> Iterator[Callable[[Any], LiveServer]]:
    """``live_server(app)`` serves ``app`` on a free loopback port until the test ends."""
    started: list[LiveServer] = []

    def start(app: Any) -> LiveServer:
        server = LiveServer(app).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
