"""The server's outer layer: who may talk to it, how much they may send, and JSON for failures.

One ASGI middleware, outermost, in front of the HTTP API and the MCP app:

- **Host / Origin** (DNS rebinding, cross-site requests): when bound to loopback only the
  ``Host`` names ``localhost``, ``127.0.0.1`` and ``[::1]`` (plus any configured) are served,
  so a web page whose domain an attacker re-points at 127.0.0.1 gets 421; a request carrying an
  ``Origin`` is served only from the server's own origin or a configured one (403), so no
  other site can drive episodes from a visitor's browser;
- **body**: read in full before the app runs, at most ``max_body_bytes`` (413, also for chunked
  bodies without a length) and within ``body_timeout_s`` (408: a client trickling its body
  cannot hold a connection open), and a JSON body nested deeper than ``max_json_depth`` is
  refused (422) before any code walks it recursively;
- **every failure is JSON**: an exception that escapes the app becomes ``500
  {"error": "internal_error", ...}`` (logged here with its traceback; none reaches the client).

What it costs per request is in ``benchmarks/serve.py`` (guards on vs off).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from autoforge.serve.errors import (
    BadHost,
    BadOrigin,
    BodyTooLarge,
    RequestTimeout,
    ServeError,
    TooDeep,
)

log = logging.getLogger("autoforge.serve")

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: where a parsed JSON body is left for the handlers (so the tool-call path parses once)
JSON_SCOPE_KEY = "autoforge.json"
_NOT_JSON = object()


@dataclass(frozen=True)
class HttpLimits:
    """Bounds of one HTTP request (see the module docstring); ``None`` turns a check off.

    ``allowed_hosts``: extra ``Host`` names to serve beyond the loopback ones;
    ``allowed_origins``: extra ``Origin`` values (``https://app.example``) allowed to call.
    """

    max_body_bytes: int | None = 1_048_576
    body_timeout_s: float | None = 30.0
    max_json_depth: int | None = 64
    allowed_hosts: frozenset[str] = frozenset()
    allowed_origins: frozenset[str] = frozenset()


def host_names(bind: str, extra: Iterable[str] = ()) -> frozenset[str] | None:
    """The ``Host`` names to accept when bound to ``bind``: the loopback names on loopback,
    else only ``extra`` (None: any host, when bound beyond loopback with nothing configured)."""
    from autoforge.serve.auth import is_loopback

    names = frozenset(_host_only(h) for h in extra)
    if is_loopback(bind):
        return LOOPBACK_NAMES | names
    return names or None


class RequestGuard:
    """The checks of :class:`HttpLimits` around ``app`` (HTTP only; lifespan passes through)."""

    def __init__(
        self, app: ASGIApp, *, limits: HttpLimits | None = None, bind: str = "127.0.0.1"
    ) -> None:
        self.app = app
        self.limits = limits or HttpLimits()
        self.hosts = host_names(bind, self.limits.allowed_hosts)
        self.origins = frozenset(o.rstrip("/").lower() for o in self.limits.allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            self._check_peer(scope)
            receive = await self._buffer_body(scope, receive)
            await self.app(scope, receive, tracking_send)
        except ServeError as exc:
            if not started:
                await send_json(send, exc.status, exc.body())
        except Exception:
            log.exception("request %s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                await send_json(send, 500, internal_error_body())

    def _check_peer(self, scope: Scope) -> None:
        headers = dict(scope["headers"])
        host = headers.get(b"host", b"").decode("latin-1")
        if self.hosts is not None and _host_only(host) not in self.hosts:
            raise BadHost(
                f"this server does not answer for host {host[:100]!r}; use "
                "http://127.0.0.1:PORT (or pass --allow-host NAME when serving under another name)"
            )
        origin = headers.get(b"origin")
        if origin is not None:
            value = origin.decode("latin-1").rstrip("/").lower()
            own = f"{scope.get('scheme', 'http')}://{host}".lower()
            if value != own and value not in self.origins:
                raise BadOrigin(
                    f"requests from origin {value[:100]!r} are not allowed (a web page may not "
                    "drive this server); pass --allow-origin ORIGIN to allow it"
                )

    async def _buffer_body(self, scope: Scope, receive: Receive) -> Receive:
        """Read the whole body within the limits; a ``receive`` that replays it."""
        cap, limits = self.limits.max_body_bytes, self.limits
        declared = dict(scope["headers"]).get(b"content-length")
        if cap is not None and declared is not None and declared.isdigit() and int(declared) > cap:
            raise _too_large(cap)
        chunks: list[bytes] = []
        size = 0
        timeout = limits.body_timeout_s
        deadline = None if timeout is None else asyncio.get_running_loop().time() + timeout
        while True:
            message = await _receive_by(receive, deadline)
            if message["type"] != "http.request":  # the client went away
                return _replay(b"", receive, first=message)
            chunk = message.get("body", b"")
            size += len(chunk)
            if cap is not None and size > cap:
                raise _too_large(cap)
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        if body.lstrip()[:1] in (b"{", b"["):
            scope[JSON_SCOPE_KEY] = _parse_bounded(body, limits.max_json_depth)
        return _replay(body, receive)


def _parse_bounded(body: bytes, max_depth: int | None) -> Any:
    """The body as JSON if it parses (else a marker: the handler reports the syntax error);
    ``TooDeep`` when it nests deeper than ``max_depth``."""
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        if "recursion" in str(exc).lower():  # orjson stops at 1024 levels
            raise _too_deep(max_depth or 1024) from None
        return _NOT_JSON
    if max_depth is not None and json_depth(value, max_depth) > max_depth:
        raise _too_deep(max_depth)
    return value


def parsed_json(scope: Scope) -> Any:
    """The body the guard already parsed, or ``None`` when it did not (or could not)."""
    value = scope.get(JSON_SCOPE_KEY, _NOT_JSON)
    return None if value is _NOT_JSON else value


def has_parsed_json(scope: Scope) -> bool:
    """Whether :func:`parsed_json` holds the body's value."""
    return scope.get(JSON_SCOPE_KEY, _NOT_JSON) is not _NOT_JSON


def json_depth(value: Any, stop_after: int) -> int:
    """How deep arrays/objects nest in ``value`` (iterative; stops counting past ``stop_after``)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        if deepest > stop_after:
            return deepest
        stack.extend((child, depth + 1) for child in item if isinstance(child, dict | list))
    return deepest


async def _receive_by(receive: Receive, deadline: float | None) -> Message:
    if deadline is None:
        return await receive()
    try:
        async with asyncio.timeout_at(deadline):  # a timer handle, no extra task
            return await receive()
    except TimeoutError:
        raise RequestTimeout("the request body did not arrive in time; send it in one go") from None


def _replay(body: bytes, receive: Receive, *, first: Message | None = None) -> Receive:
    pending: list[Message] = [first or {"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replay


def _host_only(host: str) -> str:
    """``"[::1]:8000"`` -> ``"::1"``, ``"Localhost:80"`` -> ``"localhost"``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _too_large(cap: int) -> BodyTooLarge:
    return BodyTooLarge(
        f"the request body is over {cap} bytes; send less (or start the server with a larger "
        "--max-body-bytes)",
        extra={"max_body_bytes": cap},
    )


def _too_deep(depth: int) -> TooDeep:
    return TooDeep(f"the JSON body nests deeper than {depth} levels; flatten it")


def internal_error_body() -> dict[str, Any]:
    """The body of a 500: no traceback, just what happened and what to do."""
    return {
        "error": "internal_error",
        "message": "the server failed on this request (the traceback is in the server log); "
        "retry, and report it if it persists",
    }


async def send_json(
    send: Send, status: int, obj: Any, headers: Iterable[tuple[bytes, bytes]] = ()
) -> None:
    """Send a complete JSON response."""
    body = orjson.dumps(obj)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
