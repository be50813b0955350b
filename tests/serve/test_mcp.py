"""The environment as an MCP server: list and call tools in-memory, over streamable HTTP (real
uvicorn, sessions isolated, bearer token) and over stdio through ``autoforge serve --mcp``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client, StdioServerParameters

from autoforge.serve.mcp_server import build_mcp_server, mcp_http_app
from autoforge.serve.service import EnvService

CANCEL = {"order_id": "ORD-9", "reason": "other"}


def _text(result: Any) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_in_memory_list_and_call(
    make_service: Callable[..., EnvService], bookstore_env: Any, mode: str
) -> None:
    service = make_service()
    server, _ = build_mcp_server(service)

    async def main() -> None:
        async with Client(server, mode=mode) as client:
            listed = await client.list_tools()
            names = [t.name for t in listed.tools]
            assert names == [t.name for t in bookstore_env.spec.tools]
            get_book = next(t for t in listed.tools if t.name == "get_book")
            assert get_book.input_schema["required"] == ["book_id"]
            assert get_book.annotations is not None and get_book.annotations.read_only_hint
            ok = await client.call_tool("get_book", {"book_id": "B-204"})
            assert not ok.is_error and json.loads(_text(ok))["title"] == "Orbitfall"
            failed = await client.call_tool("get_book", {"book_id": "B-999"})
            assert failed.is_error and "B-999" in _text(failed)
            bad = await client.call_tool("get_book", {})
            assert bad.is_error and "book_id" in _text(bad)
            unknown = await client.call_tool("nope", {})
            assert unknown.is_error and "nope" in _text(unknown)
            # writes persist within the session's episode
            assert not (await client.call_tool("cancel_order", CANCEL)).is_error
            assert (await client.call_tool("cancel_order", CANCEL)).is_error

    anyio.run(main)
    assert len(service.store) == 0  # the episode is closed with the connection


def test_in_memory_session_starts_from_a_task(make_service: Callable[..., EnvService]) -> None:
    service = make_service()
    server, _ = build_mcp_server(service, task_id="cancel")

    async def main() -> None:
        async with Client(server, mode="legacy") as client:
            await client.call_tool("get_order", {"order_id": "ORD-9"})
            (session,) = list(service.store)
            assert session.task_id == "cancel"

    anyio.run(main)


def test_streamable_http_sessions_are_isolated_and_need_the_token(
    make_service: Callable[..., EnvService], live_server: Any, bookstore_env: Any, replay: Any
) -> None:
    service = make_service()
    server = live_server(mcp_http_app(service, token="tok"))
    url = f"{server.url}/mcp"

    def authed() -> httpx.AsyncClient:
        return httpx.AsyncClient(headers={"Authorization": "Bearer tok"}, timeout=30)

    async def main() -> None:
        from mcp.client.streamable_http import streamable_http_client

        async with (
            authed() as h1,
            authed() as h2,
            Client(streamable_http_client(url, http_client=h1)) as one,
            Client(streamable_http_client(url, http_client=h2)) as two,
        ):
            assert len((await one.list_tools()).tools) == 9
            assert not (await one.call_tool("cancel_order", CANCEL)).is_error
            assert not (await two.call_tool("cancel_order", CANCEL)).is_error  # own episode
            assert (await one.call_tool("cancel_order", CANCEL)).is_error
            assert len(service.store) == 2
            hashes = {s.episode.state_hash() for s in service.store}
            assert hashes == {replay(bookstore_env, [("cancel_order", CANCEL)])}

    anyio.run(main)
    response = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert response.status_code == 401 and response.json()["error"] == "unauthorized"


def test_stdio_through_the_cli(tmp_path: Any) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "autoforge.cli.main", "serve", "bookstore", "--mcp"],
    )

    async def main() -> None:
        async with Client(params) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert "place_order" in names
            order = {"customer_id": "C-1003", "items": [{"book_id": "B-201", "quantity": 1}]}
            placed = await client.call_tool("place_order", order)
            assert not placed.is_error and "ORD-11" in _text(placed)
            again = await client.call_tool("get_order", {"order_id": "ORD-11"})
            assert not again.is_error and "C-1003" in _text(again)

    anyio.run(main)


def test_sessions_whose_episode_expired_are_forgotten(
    make_service: Callable[..., EnvService],
) -> None:
    from autoforge.serve.mcp_server import McpEpisodes

    service = make_service(max_sessions=2)
    episodes = McpEpisodes(service)
    for key in ("a", "b"):
        episodes.episode_for(key)
    for session in service.store:
        session.last_used -= 3600  # both sessions idle for an hour
    episodes.episode_for("c")  # full: evicts the idle episodes and forgets their sessions
    assert set(episodes._episodes) == {"c"} and len(service.store) == 1
    expired = episodes.call("a", "get_book", {"book_id": "B-204"})
    assert not expired.is_error  # a returning session simply gets a fresh episode
