"""Running the ASGI apps under uvicorn, with responses written in one piece.

uvicorn writes a response's status line and headers as soon as the app sends
``http.response.start``, then the body in a second write. On loopback each write wakes the
client, which then waits for the rest: two wake-ups (and, on a busy machine, two preemptions)
per tool call. :class:`CoalescingHttpToolsProtocol` holds the header block back until the body
arrives (the same event-loop step in practice; a ``call_soon`` flush covers bodiless responses)
and writes both at once. ``benchmarks/serve.py`` measures the difference.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from starlette.types import ASGIApp


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
        def connection_made(self, transport: Any) -> None:
            super().connection_made(_CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]

    return CoalescingHttpToolsProtocol


def uvicorn_config(app: ASGIApp, host: str, port: int, **kwargs: Any) -> Any:
    """A quiet ``uvicorn.Config`` for ``app`` with the coalescing protocol."""
    import uvicorn

    options: dict[str, Any] = {
        "log_level": "warning",
        "access_log": False,
        "http": http_protocol(),
        "backlog": 2048,
    }
    options.update(kwargs)
    return uvicorn.Config(app, host=host, port=port, **options)


def run(app: ASGIApp, host: str, port: int, **kwargs: Any) -> None:
    """Serve ``app`` until interrupted."""
    import uvicorn

    uvicorn.Server(uvicorn_config(app, host, port, **kwargs)).run()
