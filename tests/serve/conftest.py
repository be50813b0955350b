"""Fixtures of the serving tests: the bookstore environment, tasks made by replaying its
sequences with the real runtime, and services (the loopback server, ``live_server``, is in
``tests/conftest.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from autoforge.examples import example_path
from autoforge.serve.service import EnvService, Limits
from autoforge.tasks.blueprints.blueprint import Blueprint
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
def served_tasks(bookstore_tasks: list[Task]) -> list[Task]:
    return bookstore_tasks


@pytest.fixture
def make_service(bookstore_env: Any, served_tasks: list[Task]) -> Callable[..., EnvService]:
    def make(max_sessions: int = 256, idle_timeout_s: float = 600.0) -> EnvService:
        return EnvService(bookstore_env, served_tasks, limits=Limits(max_sessions, idle_timeout_s))

    return make


@pytest.fixture
def tasks_file(tmp_path: Path, bookstore_tasks: list[Task]) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(t.model_dump_json() + "\n" for t in bookstore_tasks))
    return path
