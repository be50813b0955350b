"""The HTTP API: an environment's episodes over FastAPI, with an OpenAPI spec.

Endpoints (all JSON; every error, 500s included, is ``{"error": code, "message": text}``):

- ``POST /episodes`` ``{"task_id"?, "seed"?}`` -> episode id, tools (OpenAI format), policy,
  and the user's question when started from a task (404 unknown task, 429 no free slot);
- ``POST /episodes/{id}/tools/{name}`` with the arguments as the JSON body -> the observation
  ``{"ok", "content", "error_kind"}`` (404 unknown episode or tool, 422 bad arguments; a business
  error of the tool is a normal 200 observation with ``ok: false``);
- ``GET /episodes/{id}/reward?message=...`` or ``POST /episodes/{id}/reward``
  ``{"messages": [...]}`` -> the reward and why (rollout reward code: state hash vs S*, the
  required outputs looked up in the agent's messages);
- ``GET /episodes/{id}`` (state hash, calls so far), ``DELETE /episodes/{id}``, ``GET /tasks``,
  ``GET /health``, ``GET /openapi.json``.

The hot path (tool calls) reads the raw body and writes orjson bytes itself: no pydantic model
in between, since the runtime validates the arguments against the tool's schema anyway. With
``fast_path`` (the default) a small ASGI layer answers ``POST /episodes/{id}/tools/{name}``
before FastAPI's router and dependency machinery, same behaviour and errors as the documented
route (which stays in the OpenAPI spec and serves when the fast path is off); see
``benchmarks/serve.py`` for what it buys.

Hardening (``docs/sandbox.md``, "Server"): the :class:`~autoforge.serve.guard.RequestGuard`
in front (Host/Origin, body size/time/depth, JSON 500s), bearer tokens as episode owners with
per-token quotas, and every call into the environment run by a
:class:`~autoforge.serve.runner.CallRunner` off the event loop, so ``/health`` answers while a
tool call hangs.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from autoforge.serve.auth import BearerAuth, owner_of
from autoforge.serve.errors import InvalidArguments, ServeError
from autoforge.serve.guard import (
    HttpLimits,
    RequestGuard,
    has_parsed_json,
    internal_error_body,
    parsed_json,
    send_json,
)
from autoforge.serve.runner import CallRunner
from autoforge.serve.service import SEED_MAX, SEED_MIN, EnvService

T = TypeVar("T")


class OpenEpisode(BaseModel):
    """Body of ``POST /episodes`` (all optional)."""

    model_config = ConfigDict(extra="forbid")

    task_id: str | None = Field(default=None, description="start from this task's S0")
    seed: StrictInt | None = Field(
        default=None,
        ge=SEED_MIN,
        le=SEED_MAX,
        description="picks a task when task_id is not given (a signed 64-bit integer)",
    )


class EpisodeStart(BaseModel):
    """What a new episode looks like to the agent."""

    episode_id: str
    env_id: str
    task_id: str | None
    seed: int | None
    question: str | None = Field(description="the user's request (episodes started from a task)")
    policy: str
    tools: list[dict[str, Any]] = Field(description="agent-visible tools, OpenAI format")


class Observation(BaseModel):
    """What a tool call returned, as the agent sees it."""

    ok: bool
    content: str
    error_kind: str | None = Field(
        description="None, unknown_tool, invalid_arguments, tool_error, timeout, sandbox, crash"
    )


class RewardRequest(BaseModel):
    """Body of ``POST /episodes/{id}/reward``: what the agent told the user."""

    model_config = ConfigDict(extra="forbid")

    messages: list[Any] = Field(
        default_factory=list,
        description="OpenAI-format messages (assistant ones are read) or plain strings",
    )


class RewardOut(BaseModel):
    """The reward of an episode, with its reasons."""

    episode_id: str
    task_id: str
    reward: float | None
    reason: str
    components: dict[str, float | None]
    details: dict[str, Any]
    state_hash: str | None
    gold_state_hash: str | None


class EpisodeInfo(BaseModel):
    """An open episode's bookkeeping."""

    episode_id: str
    env_id: str
    task_id: str | None
    seed: int | None
    n_calls: int
    state_hash: str


class ErrorBody(BaseModel):
    """Every error response."""

    error: str
    message: str


_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": why}
    for code, why in [
        (401, "missing or wrong bearer token"),
        (404, "unknown episode (or another token's), task or tool"),
        (409, "the episode is still running an earlier call"),
        (413, "request body over the size cap"),
        (422, "invalid request or tool arguments"),
        (429, "no free episode slot, or the token's quota is used up"),
        (504, "the tool call did not finish in time"),
    ]
}
_TOOL_BODY = {
    "requestBody": {
        "required": False,
        "description": "the tool's arguments as a JSON object (empty body: no arguments)",
        "content": {"application/json": {"schema": {"type": "object"}}},
    }
}


def _json(obj: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(obj), status_code=status, media_type="application/json")


def create_app(
    service: EnvService,
    *,
    token: str | Sequence[str] | None = None,
    fast_path: bool = True,
    http: HttpLimits | None = None,
    bind: str = "127.0.0.1",
    guard: bool = True,
    offload: bool = True,
) -> FastAPI:
    """The FastAPI app serving ``service``; with ``token`` (one or several, each an episode
    owner), every route but /health needs one. ``bind`` is the address served on (loopback:
    only loopback ``Host`` names are answered); ``http`` bounds each request. ``guard=False``
    (no request guard) and ``offload=False`` (calls on the event loop) exist for
    ``benchmarks/serve.py`` to measure what the hardening costs; never serve with them."""
    runner = CallRunner(service.call_wait_s, inline=not offload)
    app = FastAPI(
        title=f"autoforge environment: {service.env_id}",
        version="1",
        description=(
            "Episodes of a synthesized tool environment: open one, call tools, get the reward."
        ),
        lifespan=_lifespan(service, runner),
    )
    _add_error_handlers(app)
    _add_routes(app, service, runner)
    if fast_path:
        app.add_middleware(ToolCallFastPath, service=service, runner=runner)
    if token:  # added after the fast path: an outer layer, so it guards the fast path too
        app.add_middleware(BearerAuth, token=token, public=("/health",))
        _document_bearer(app)
    if guard:
        app.add_middleware(RequestGuard, limits=http, bind=bind)
    return app


class ToolCallFastPath:
    """Serves ``POST /episodes/{id}/tools/{name}`` directly; everything else goes on."""

    def __init__(self, app: ASGIApp, *, service: EnvService, runner: CallRunner) -> None:
        self.app = app
        self.service = service
        self.runner = runner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            parts = scope["path"].split("/")  # ["", "episodes", id, "tools", name]
            if (
                len(parts) == 5
                and parts[1] == "episodes"
                and parts[3] == "tools"
                and all(parts[1:])
            ):
                await self._call(scope, parts[2], parts[4], receive, send)
                return
        await self.app(scope, receive, send)

    async def _call(
        self, scope: Scope, episode_id: str, name: str, receive: Receive, send: Send
    ) -> None:
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        try:
            arguments = _arguments(scope, b"".join(chunks))
            owner = owner_of(scope)
            obs = await self.runner.run(
                episode_id, lambda: self.service.call(episode_id, name, arguments, owner=owner)
            )
            await send_json(send, 200, obs)
        except ServeError as exc:
            await send_json(send, exc.status, exc.body())


def _arguments(scope: Scope, raw: bytes) -> Any:
    """The tool arguments of a request: the guard's parse of the body, or the body parsed here."""
    if has_parsed_json(scope):
        return parsed_json(scope)
    try:
        return orjson.loads(raw) if raw.strip() else {}
    except orjson.JSONDecodeError as exc:
        raise InvalidArguments(f"the body is not valid JSON: {exc}") from None


def _lifespan(service: EnvService, runner: CallRunner) -> Any:
    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(_evict_forever(service))
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            service.store.close_all()
            runner.shutdown()

    return lifespan


async def _evict_forever(service: EnvService) -> None:
    """Sweep idle episodes so memory is returned even when nobody opens new ones."""
    period = min(30.0, max(0.05, service.limits.idle_timeout_s / 4))
    while True:
        await asyncio.sleep(period)
        service.store.evict_idle()


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ServeError)
    async def serve_error(_: Request, exc: ServeError) -> Response:
        return _json(exc.body(), exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> Response:
        parts = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
        return _json({"error": "invalid_request", "message": "; ".join(parts)}, 422)

    @app.exception_handler(Exception)
    async def internal(_: Request, exc: Exception) -> Response:  # logged by Starlette
        return _json(internal_error_body(), 500)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        message = str(exc.detail)
        if exc.status_code == 404:
            message = f"no route {request.method} {request.url.path}; see GET /openapi.json"
        return _json({"error": code, "message": message}, exc.status_code)


def _add_routes(app: FastAPI, service: EnvService, runner: CallRunner) -> None:
    async def run(request: Request, key: str | None, fn: Callable[..., T], *args: Any) -> T:
        owner = owner_of(request.scope)
        return await runner.run(key, lambda: fn(*args, owner=owner))

    @app.get("/health", tags=["server"])
    async def health() -> Response:
        """Liveness and load (open episodes / limit, calls in flight). Never needs the token."""
        return _json({**service.health(), **runner.stats()})

    @app.get("/tasks", tags=["server"])
    async def tasks() -> Response:
        """The ids of the tasks episodes can start from."""
        return _json({"count": len(service.tasks), "task_ids": service.tasks.ids()})

    @app.post("/episodes", response_model=EpisodeStart, status_code=201, responses=_ERRORS,
              tags=["episodes"])  # fmt: skip
    async def open_episode(request: Request, body: OpenEpisode | None = None) -> Response:
        """Open an isolated episode: from a task's S0, a seeded task pick, or the initial state."""
        body = body or OpenEpisode()
        return _json(await run(request, None, service.open_episode, body.task_id, body.seed), 201)

    @app.post("/episodes/{episode_id}/tools/{name}", response_model=Observation,
              responses=_ERRORS, openapi_extra=_TOOL_BODY, tags=["episodes"])  # fmt: skip
    async def call_tool(episode_id: str, name: str, request: Request) -> Response:
        """Call tool ``name`` with the JSON body as its arguments; returns the observation."""
        arguments = _arguments(request.scope, await request.body())
        return _json(await run(request, episode_id, service.call, episode_id, name, arguments))

    @app.get("/episodes/{episode_id}", response_model=EpisodeInfo, responses=_ERRORS,
             tags=["episodes"])  # fmt: skip
    async def episode_info(episode_id: str, request: Request) -> Response:
        """The episode's task, number of calls and current state hash."""
        return _json(await run(request, episode_id, service.info, episode_id))

    @app.get("/episodes/{episode_id}/reward", response_model=RewardOut, responses=_ERRORS,
             tags=["episodes"])  # fmt: skip
    async def reward_get(
        episode_id: str,
        request: Request,
        message: Annotated[list[str], Query(description="an agent message (repeatable)")] = [],  # noqa: B006
    ) -> Response:
        """The reward now, with the agent's messages to the user given as ``message`` params."""
        return _json(await run(request, episode_id, service.reward, episode_id, message))

    @app.post("/episodes/{episode_id}/reward", response_model=RewardOut, responses=_ERRORS,
              tags=["episodes"])  # fmt: skip
    async def reward_post(
        episode_id: str, request: Request, body: RewardRequest | None = None
    ) -> Response:
        """The reward now, with the agent's messages in the body (OpenAI format or strings)."""
        messages = (body or RewardRequest()).messages
        return _json(await run(request, episode_id, service.reward, episode_id, messages))

    @app.delete("/episodes/{episode_id}", responses=_ERRORS, tags=["episodes"])
    async def close_episode(episode_id: str, request: Request) -> Response:
        """Close the episode and free its slot."""
        return _json(await run(request, episode_id, service.close, episode_id))


def _document_bearer(app: FastAPI) -> None:
    """Declare the bearer scheme in the OpenAPI spec (the middleware enforces it)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            schema.setdefault("components", {})["securitySchemes"] = {
                "bearer": {"type": "http", "scheme": "bearer"}
            }
            schema["security"] = [{"bearer": []}]
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
