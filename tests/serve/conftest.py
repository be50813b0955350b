"""Fixtures of the serving tests: the bookstore environment, tasks made by replaying its
sequences with the real runtime, services, and a real uvicorn server on a free loopback port."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from autoforge.examples import example_path
from autoforge.serve.service import EnvService, Limits
from autoforge.serve.tasks import ServedTask, from_task
from autoforge.tasks.blueprint import Blueprint
from autoforge.tasks.model import RequiredOutput, Task, UserScenario

Call = tuple[str, dict[str, Any]]


@pytest.fixture(scope="session")
def bookstore_env() -> Any:
    from autoforge.env import Environment

    return Environment.load(example_path("bookstore"))


@pytest.fixture(scope="session")
def sequences() -> list[list[Call]]:
    raw = json.loads((example_path("bookstore") / "sequences.json").read_text())
    return [[(c["tool"], c["arguments"]) for c in seq] for seq in raw]


def replay_hash(env: Any, calls: list[Call], state: dict[str, Any] | None = None) -> str:
    """The state hash after running ``calls`` in a fresh local episode (the expected value)."""
    episode = env.episode(state)
    for name, arguments in calls:
        episode.call(name, arguments)
    return str(episode.state_hash())


@pytest.fixture(scope="session")
def replay() -> Callable[..., str]:
    return replay_hash


def _task(env: Any, task_id: str, calls: list[Call], output: str, question: str) -> Task:
    state = env.episode().snapshot()
    return Task(
        id=task_id,
        env_id=env.spec.name,
        blueprint=Blueprint(),
        initial_state=state,
        initial_state_hash=replay_hash(env, []),
        final_state_hash=replay_hash(env, calls),
        required_outputs=[RequiredOutput(node="n1", description="said", text=output)],
        scenario=UserScenario(intent=question, question=question),
    )


@pytest.fixture(scope="session")
def bookstore_tasks(bookstore_env: Any, sequences: list[list[Call]]) -> list[Task]:
    """Three tasks: place an order (seq 1), cancel one (seq 2), a read-only lookup (seq 0)."""
    return [
        _task(bookstore_env, "order", sequences[1], "ORD-11", "Order two fantasy books."),
        _task(bookstore_env, "cancel", sequences[2], "ORD-9", "Cancel my order ORD-9."),
        _task(bookstore_env, "lookup", sequences[0], "Orbitfall", "What is book B-204?"),
    ]


@pytest.fixture(scope="session")
def served_tasks(bookstore_tasks: list[Task]) -> list[ServedTask]:
    return [from_task(t) for t in bookstore_tasks]


@pytest.fixture
def make_service(bookstore_env: Any, served_tasks: list[ServedTask]) -> Callable[..., EnvService]:
    def make(max_sessions: int = 256, idle_timeout_s: float = 600.0) -> EnvService:
        return EnvService(bookstore_env, served_tasks, limits=Limits(max_sessions, idle_timeout_s))

    return make


@pytest.fixture
def tasks_file(tmp_path: Path, bookstore_tasks: list[Task]) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(t.model_dump_json() + "\n" for t in bookstore_tasks))
    return path


class LiveServer:
    """A uvicorn server in a thread on 127.0.0.1 and a free port, stopped on exit."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        from autoforge.serve.server import uvicorn_config

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn_config(app, "127.0.0.1", self.port, timeout_keep_alive=30)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture
def live_server() -> Iterator[Callable[[Any], LiveServer]]:
    """``live_server(app)`` starts ``app`` on a free loopback port; all are stopped at the end."""
    started: list[LiveServer] = []

    def start(app: Any) -> LiveServer:
        server = LiveServer(app).__enter__()
        started.append(server)
        return server

    yield start
    for server in started:
        server.__exit__()
