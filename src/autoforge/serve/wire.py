"""What a served response and request look like on the wire: the header limits, and the
transport wrapper that writes a response's head and body in one piece.

Free of uvicorn, so that :mod:`autoforge.serve.server` (which configures uvicorn) and
:mod:`autoforge.serve.httptools` (the protocol, imported only when uvicorn's httptools is
installed) share them without importing each other.
"""

from __future__ import annotations

import asyncio
from typing import Any

#: the request line and headers must arrive within this many seconds of the connection
#: opening or of the previous response
HEADER_TIMEOUT_S = 10.0
#: the request line and headers together may not exceed this many bytes (431 beyond)
MAX_HEADER_BYTES = 65_536


class CoalescingTransport:
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
