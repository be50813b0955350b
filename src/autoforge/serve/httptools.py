"""uvicorn's httptools protocol with responses written in one piece and bounded headers.

Imported only by :func:`autoforge.serve.server.http_protocol`, and only when uvicorn's
httptools implementation is installed (the import fails otherwise and uvicorn picks its own).
What it does and why: the docstring of :mod:`autoforge.serve.server`.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from autoforge.serve.wire import HEADER_TIMEOUT_S, MAX_HEADER_BYTES, CoalescingTransport


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    """Writes each response's head and body together; drops clients whose request line and
    headers take over ``header_timeout_s`` or exceed ``max_header_bytes`` (431)."""

    header_timeout_s = HEADER_TIMEOUT_S
    max_header_bytes = MAX_HEADER_BYTES

    def connection_made(self, transport: Any) -> None:
        super().connection_made(CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]
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
            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body
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
