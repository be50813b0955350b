"""The same environment as an MCP server (official ``mcp`` SDK, low-level ``Server``).

Any MCP client can list the synthesized environment's tools and call them. Each MCP session
gets its own episode from :class:`~autoforge.serve.service.EnvService` (so the same bounds and
idle eviction apply):

- stdio: the process serves one client, so one episode for the whole connection;
- streamable HTTP: one episode per ``Mcp-Session-Id``. The 2026 protocol era is stateless (no
  session to hang an episode on), so this server does not answer ``server/discover``: clients
  then fall back to the initialize handshake, which opens a session.

Tool results are the observation the agent would see locally: the text content, with
``isError`` set when the call failed (business error, unknown tool, bad arguments).

Over HTTP the same guards as the HTTP API apply (request guard, bearer tokens as owners): an
episode belongs to the token that opened it, so another token presenting the same
``Mcp-Session-Id`` gets an episode of its own. Tool calls run off the event loop
(:class:`~autoforge.serve.runner.CallRunner`).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from starlette.types import ASGIApp, Receive, Scope, Send

from autoforge.serve.auth import BearerAuth, owner_of
from autoforge.serve.errors import ServeError
from autoforge.serve.guard import HttpLimits, RequestGuard
from autoforge.serve.runner import CallRunner
from autoforge.serve.service import EnvService
from autoforge.serve.sessions import LOCAL_OWNER

#: an MCP session: (owner, session id)
Key = tuple[str, str]
STDIO_KEY: Key = (LOCAL_OWNER, "stdio")


class McpEpisodes:
    """Maps MCP sessions to episodes of ``service`` (opened on a session's first tool call)."""

    def __init__(self, service: EnvService, *, task_id: str | None = None) -> None:
        self.service = service
        self.task_id = task_id
        self._episodes: dict[Key, str] = {}

    def episode_for(self, key: Key) -> str:
        """The episode id of session ``key``, opening one on first use."""
        episode = self._episodes.get(key)
        if episode is None:
            if len(self._episodes) >= self.service.limits.max_sessions:
                self._prune()
            episode = self.service.open_episode(self.task_id, owner=key[0])["episode_id"]
            self._episodes[key] = episode
        return episode

    def _prune(self) -> None:
        """Forget sessions whose episode was evicted (HTTP sessions that ended without DELETE)."""
        self.service.store.evict_idle()
        alive = {s.id for s in self.service.store}
        self._episodes = {k: e for k, e in self._episodes.items() if e in alive}

    def forget(self, key: Key) -> None:
        """Close the episode of session ``key`` (if any)."""
        episode = self._episodes.pop(key, None)
        if episode is not None:
            with contextlib.suppress(ServeError):  # already evicted
                self.service.close(episode, owner=key[0])

    def call(self, key: Key, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        """Run a tool call in the session's episode; every failure is an ``isError`` result."""
        try:
            obs = self.service.call(self.episode_for(key), name, arguments, owner=key[0])
        except ServeError as exc:
            if exc.code == "unknown_episode":
                self._episodes.pop(key, None)
                exc.message += " (this MCP session's episode expired: reconnect for a new one)"
            return _result(exc.message, error=True)
        return _result(obs["content"], error=not obs["ok"])


def _result(text: str, *, error: bool) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)


def _session_key(ctx: Any) -> Key | None:
    """The MCP session of a request: its owner and ``Mcp-Session-Id`` over HTTP, the process
    on stdio."""
    request = getattr(ctx, "request", None)
    if request is None:
        return STDIO_KEY
    headers = getattr(request, "headers", None)
    sid = headers.get("mcp-session-id") if headers is not None else None
    scope = getattr(request, "scope", None)
    return None if sid is None else (owner_of(scope or {}), sid)


def mcp_tools(service: EnvService) -> list[types.Tool]:
    """The environment's tools as MCP tools (read-only ones annotated as such)."""
    tools = []
    for spec in service.env.spec.tools:
        annotations = None
        if spec.access is not None:
            annotations = types.ToolAnnotations(read_only_hint=spec.access == "read")
        tools.append(
            types.Tool(
                name=spec.name,
                description=spec.description,
                input_schema=spec.parameters,
                annotations=annotations,
            )
        )
    return tools


def build_mcp_server(
    service: EnvService, *, task_id: str | None = None, stateful_only: bool = False
) -> tuple[Server[Any], McpEpisodes]:
    """A low-level MCP server over ``service``; ``stateful_only`` refuses the stateless era."""
    episodes = McpEpisodes(service, task_id=task_id)
    runner = CallRunner(service.call_wait_s)
    tools = mcp_tools(service)

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        key = _session_key(ctx)
        if key is None:
            return _result(
                "this server keeps one episode per MCP session: connect with the initialize "
                "handshake (stateful streamable HTTP), not stateless requests",
                error=True,
            )
        arguments = dict(params.arguments or {})
        try:
            return await runner.run(
                f"{key[0]}/{key[1]}", lambda: episodes.call(key, params.name, arguments)
            )
        except ServeError as exc:  # the call outlived the wait, or the session is still busy
            return _result(exc.message, error=True)

    @contextlib.asynccontextmanager
    async def lifespan(_: Server[Any]) -> AsyncIterator[dict[str, Any]]:
        try:
            yield {}
        finally:  # a stream connection (stdio, in-memory) ended: free its episode
            episodes.forget(STDIO_KEY)

    server: Server[Any] = Server(
        f"autoforge-{service.env_id}",
        version="1",
        instructions=service.policy or None,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
    if stateful_only:

        async def no_discover(ctx: Any, params: Any) -> types.DiscoverResult:
            raise MCPError(code=types.METHOD_NOT_FOUND, message="Method not found")

        server.add_request_handler("server/discover", types.RequestParams, no_discover)
    return server, episodes


def mcp_http_app(
    service: EnvService,
    *,
    host: str = "127.0.0.1",
    token: str | list[str] | None = None,
    task_id: str | None = None,
    path: str = "/mcp",
    http: HttpLimits | None = None,
) -> ASGIApp:
    """The streamable-HTTP MCP app (bearer auth when ``token``), bounded and guarded like the
    HTTP API (``host`` is the bind address: loopback answers loopback ``Host`` names only)."""
    server, episodes = build_mcp_server(service, task_id=task_id, stateful_only=True)
    app: ASGIApp = server.streamable_http_app(
        streamable_http_path=path,
        session_idle_timeout=service.limits.idle_timeout_s,
        max_sessions=service.limits.max_sessions,
        host=host,
    )
    app = _ForgetOnDelete(app, episodes)
    if token:
        app = BearerAuth(app, token=token)
    return RequestGuard(app, limits=http, bind=host)


class _ForgetOnDelete:
    """Close a session's episode when the client ends the MCP session (HTTP ``DELETE``)."""

    def __init__(self, app: ASGIApp, episodes: McpEpisodes) -> None:
        self.app = app
        self.episodes = episodes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "DELETE":
            sid = next((v for k, v in scope["headers"] if k == b"mcp-session-id"), None)
            if sid is not None:
                self.episodes.forget((owner_of(scope), sid.decode("latin-1")))
        await self.app(scope, receive, send)


async def run_stdio(service: EnvService, *, task_id: str | None = None) -> None:
    """Serve one MCP client over stdin/stdout until it disconnects."""
    server, _ = build_mcp_server(service, task_id=task_id)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve_stdio(service: EnvService, *, task_id: str | None = None) -> None:
    """Blocking :func:`run_stdio`."""
    anyio.run(lambda: run_stdio(service, task_id=task_id))
