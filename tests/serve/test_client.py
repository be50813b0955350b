"""EnvClient, the gymnasium-style client, against a real uvicorn server on loopback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from autoforge.serve.app import create_app
from autoforge.serve.client import EnvClient, EnvClientError
from autoforge.serve.service import EnvService


def test_reset_step_final_reward(
    make_service: Callable[..., EnvService], live_server: Any, sequences: list[Any]
) -> None:
    server = live_server(create_app(make_service(), token="tok"))
    with EnvClient(server.url, token="tok", max_steps=50) as env:
        obs, info = env.reset(task_id="cancel")
        assert obs == {"role": "user", "content": "Cancel my order ORD-9."}
        assert info["task_id"] == "cancel" and len(env.tools) == 9 and env.policy
        for name, args in sequences[2]:
            obs, reward, terminated, truncated, step_info = env.step(
                {"name": name, "arguments": args}
            )
            assert (reward, terminated, truncated) == (0.0, False, False)
            assert obs["ok"] is True, obs
        assert step_info == {"step": len(sequences[2])}
        final = {"final": True, "messages": [{"role": "assistant", "content": "ORD-9 cancelled"}]}
        obs, reward, terminated, truncated, info = env.step(final)
        assert (reward, terminated, truncated) == (1.0, True, False)
        assert info["components"] == {"DB": 1.0, "COMMUNICATE": 1.0}
        with pytest.raises(RuntimeError, match="terminated"):
            env.step({"name": "get_book", "arguments": {"book_id": "B-204"}})


def test_agent_mistakes_are_observations_and_truncation(
    make_service: Callable[..., EnvService], live_server: Any
) -> None:
    server = live_server(create_app(make_service()))
    with EnvClient(server.url, max_steps=2) as env:
        env.reset()
        obs, _, _, truncated, _ = env.step({"name": "no_such_tool", "arguments": {}})
        assert obs["ok"] is False and obs["error_kind"] == "unknown_tool" and not truncated
        obs, _, _, truncated, _ = env.step({"name": "get_book", "arguments": {}})
        assert obs["error_kind"] == "invalid_arguments" and truncated


def test_final_without_task_raises_a_clear_error(
    make_service: Callable[..., EnvService], live_server: Any
) -> None:
    server = live_server(create_app(make_service()))
    with EnvClient(server.url) as env:
        env.reset()
        with pytest.raises(EnvClientError) as info:
            env.step({"final": True, "messages": ["bye"]})
        assert info.value.status == 409 and info.value.code == "no_task"


def test_reset_closes_the_previous_episode_and_state_hash(
    make_service: Callable[..., EnvService], live_server: Any, bookstore_env: Any, replay: Any
) -> None:
    service = make_service()
    server = live_server(create_app(service))
    with EnvClient(server.url) as env:
        env.reset()
        first = env.episode_id
        env.step({"name": "cancel_order", "arguments": {"order_id": "ORD-9", "reason": "other"}})
        assert env.state_hash() == replay(
            bookstore_env, [("cancel_order", {"order_id": "ORD-9", "reason": "other"})]
        )
        env.reset()
        assert env.episode_id != first and len(service.store) == 1
        assert env.state_hash() == replay(bookstore_env, [])
    assert len(service.store) == 0  # closing the client closes its episode


def test_infrastructure_errors_raise(
    make_service: Callable[..., EnvService], live_server: Any
) -> None:
    server = live_server(create_app(make_service(), token="tok"))
    with EnvClient(server.url, token="wrong") as env, pytest.raises(EnvClientError) as info:
        env.reset()
    assert info.value.status == 401
    with EnvClient(server.url, token="tok") as env:
        with pytest.raises(RuntimeError, match="reset"):
            env.step({"name": "get_book", "arguments": {}})
        with pytest.raises(EnvClientError) as info:
            env.reset(task_id="nope")
        assert info.value.code == "unknown_task"
        env.reset()
        with pytest.raises(ValueError, match="action"):
            env.step({"arguments": {}})
