"""Fixtures of the adapter tests: a forged run directory (the bundled bookstore environment plus
tasks generated without any model), and a scripted OpenAI-compatible model. The loopback
server fixture ``live_server`` is in ``tests/conftest.py``."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

N_TASKS = 8


@pytest.fixture(scope="session")
def forged_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What forge writes: ``RUN/env/`` (bookstore) + ``RUN/tasks.jsonl`` (8 tasks of any
    difficulty, from the first seed whose set has a task that asks for an output and one that
    changes the state: the adapters' tests need both kinds, and which seed gives them moves
    whenever task generation changes)."""
    from autoforge.env import Environment
    from autoforge.examples import example_path
    from autoforge.tasks import TaskSet, generate_tasks

    run = tmp_path_factory.mktemp("run")
    env_dir = run / "env"
    shutil.copytree(example_path("bookstore"), env_dir)
    env = Environment.load(env_dir)
    for seed in range(10):
        tasks, _ = generate_tasks(env, N_TASKS, "any", seed=seed)
        if any(t.required_outputs for t in tasks) and any(
            t.initial_state_hash != t.final_state_hash for t in tasks
        ):
            break
    else:
        raise AssertionError("no seed of 0-9 gives both an output task and a state-changing one")
    assert len(tasks) == N_TASKS
    TaskSet(run / "tasks.jsonl").append(tasks)
    return run


@pytest.fixture(scope="session")
def run_tasks(forged_run: Path) -> list[Any]:
    """The run's tasks as ``autoforge.tasks.Task`` (gold calls, S* hash, required outputs)."""
    from autoforge.tasks import TaskSet

    return list(TaskSet(forged_run / "tasks.jsonl").load())


def chat_completion(message: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI chat-completion response body carrying ``message``."""
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {
        "id": "scripted",
        "object": "chat.completion",
        "created": 0,
        "model": "scripted",
        "choices": [{"index": 0, "finish_reason": finish, "message": message}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


def solution_messages(task: Any) -> list[dict[str, Any]]:
    """A scripted agent solving ``task``: every gold call, then the required outputs, then a
    closing line (the scripted user gives its facts, then stops)."""
    import json

    calls = [
        {
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
        }
        for i, c in enumerate(task.gold_calls)
    ]
    said = "; ".join(o.text for o in task.required_outputs) or "your request is done"
    return [
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "assistant", "content": f"Here you go: {said}."},
        {"role": "assistant", "content": "Is there anything else?"},
    ]


@pytest.fixture
def scripted_openai() -> Callable[[list[dict[str, Any]]], Any]:
    """``scripted_openai(messages)``: a real ``AsyncOpenAI`` whose HTTP transport answers each
    chat request with the next scripted assistant message (requests kept in ``.requests``)."""
    import httpx
    from openai import AsyncOpenAI

    def make(messages: list[dict[str, Any]]) -> Any:
        import json

        script = list(messages)
        requests: list[dict[str, Any]] = []

        def answer(request: httpx.Request) -> httpx.Response:
            requests.append(json.loads(request.content))
            message = script.pop(0) if script else {"role": "assistant", "content": "Bye."}
            return httpx.Response(200, json=chat_completion(message))

        client = AsyncOpenAI(
            base_url="http://scripted.invalid/v1",
            api_key="none",
            http_client=httpx.AsyncClient(transport=httpx.MockTransport(answer)),
        )
        client.requests = requests  # type: ignore[attr-defined]
        return client

    return make


@pytest.fixture
def solution() -> Callable[[Any], list[dict[str, Any]]]:
    """:func:`solution_messages` as a fixture (test modules cannot import the conftest)."""
    return solution_messages
