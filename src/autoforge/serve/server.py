"""Running the ASGI apps under uvicorn, with responses written in one piece.

uvicorn writes a response's status line and headers as soon as the app sends
``http.response.start``, then the body in a second write. On loopback each write wakes the
client, which then waits for the rest: two wake-ups (and, on a busy machine, two preemptions)
per tool call. :class:`CoalescingHttpToolsProtocol` holds the header block back until the body
arrives (the same event-loop step in practice; a ``call_soon`` flush covers bodiless responses)
and writes both at once. ``benchmarks/serve.py`` measures the difference.

The same protocol bounds slow and greedy clients, which uvicorn alone does not: the request
line and headers must arrive within ``HEADER_TIMEOUT_S`` of the connection opening or the
previous response (a client trickling header bytes, or connecting and saying nothing, is
dropped) and may not exceed ``MAX_HEADER_BYTES`` (431). The body is bounded by the request
guard (:mod:`autoforge.serve.guard`); idle keep-alive connections by uvicorn's
``timeout_keep_alive``; open connections by ``limit_concurrency`` (503 beyond).
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import orjson
from starlette.types import ASGIApp

HEADER_TIMEOUT_S = 10.0
MAX_HEADER_BYTES = 65_536
KEEP_ALIVE_S = 5
MAX_CONNECTIONS = 4096
SWITCH_INTERVAL_S = 0.001


class _CoalescingTransport:
    """Wraps a transport: a write that is a complete header block waits for the next write."""

    __slots__ = ("_loop", "_pending", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: bytes | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._pending is not None:
            head, self._pending = self._pending, None
            self._transport.write(head + bytes(data))
        elif bytes(data[:5]) == b"HTTP/" and bytes(data[-4:]) == b"\r\n\r\n":
            self._pending = bytes(data)
            self._loop.call_soon(self.flush)
        else:
            self._transport.write(data)

    def flush(self) -> None:
        """Write a held-back header block (a response without a body)."""
        if self._pending is not None:
            head, self._pending = self._pending, None
            self._transport.write(head)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def write_eof(self) -> None:
        self.flush()
        self._transport.write_eof()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


@functools.cache
def http_protocol() -> Any:
    """The protocol class for ``uvicorn.Config(http=...)``: uvicorn's httptools protocol
    writing each response's head and body together (``"auto"`` without httptools)."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        return "auto"

    class CoalescingHttpToolsProtocol(HttpToolsProtocol):
        header_timeout_s = HEADER_TIMEOUT_S
        max_header_bytes = MAX_HEADER_BYTES

        def connection_made(self, transport: Any) -> None:
            super().connection_made(_CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]
            self._header_timer: asyncio.TimerHandle | None = None
            self._header_bytes = 0
            self._start_header_timer()

        def _start_header_timer(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(self.header_timeout_s, self._too_slow)

        def _stop_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._header_bytes = 0
            self._start_header_timer()

        def on_url(self, url: bytes) -> None:
            self._count_header(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count_header(len(name) + len(value))
            super().on_header(name, value)

        def _count_header(self, n: int) -> None:
            self._header_bytes += n
            if self._header_bytes > self.max_header_bytes:
                raise ValueError("headers too large")  # the parser stops: send_400_response

        def send_400_response(self, msg: str) -> None:
            """uvicorn's answer to a request it cannot parse, as JSON (431 for huge headers)."""
            self._stop_header_timer()
            too_big = self._header_bytes > self.max_header_bytes
            status = b"431 Request Header Fields Too Large" if too_big else b"400 Bad Request"
            body = orjson.dumps(
                {"error": "headers_too_large", "message": "request line and headers over 64 KiB"}
                if too_big
                else {"error": "bad_request", "message": msg}
            )
            self.transport.write(
                b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
                b"connection: close\r\ncontent-length: "
                + str(len(body)).encode()
                + b"\r\n\r\n"
                + body
            )
            self.transport.close()

        def on_headers_complete(self) -> None:
            self._stop_header_timer()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._start_header_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_header_timer()
            super().connection_lost(exc)

    return CoalescingHttpToolsProtocol


def uvicorn_config(app: ASGIApp, host: str, port: int, **kwargs: Any) -> Any:
    """A quiet ``uvicorn.Config`` for ``app`` with the coalescing, bounded protocol."""
    import uvicorn

    options: dict[str, Any] = {
        "log_level": "warning",
        "access_log": False,
        "http": http_protocol(),
        "backlog": 2048,
        "timeout_keep_alive": KEEP_ALIVE_S,
        "limit_concurrency": MAX_CONNECTIONS,
        "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
    }
    options.update(kwargs)
    return uvicorn.Config(app, host=host, port=port, **options)


def run(app: ASGIApp, host: str, port: int, **kwargs: Any) -> None:
    """Serve ``app`` until interrupted.

    Tool calls run in worker threads; a CPU-bound one holds the GIL for up to the switch
    interval at a time, which the event loop waits for at each step. A 1 ms interval (Python's
    default is 5 ms) keeps ``/health`` and the other clients' requests fast while a call spins.
    """
    import sys

    import uvicorn

    sys.setswitchinterval(SWITCH_INTERVAL_S)
    uvicorn.Server(uvicorn_config(app, host, port, **kwargs)).run()
