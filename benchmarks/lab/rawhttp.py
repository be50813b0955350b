"""A minimal keep-alive HTTP/1.1 client on asyncio streams, for load tests and benchmarks.

httpx's async pool spends most of its time in bookkeeping once hundreds of requests are queued
(``_assign_requests_to_connections`` is quadratic), which would measure the client, not the
server. This client is one connection, one request at a time, nothing else: open as many as
you want concurrent clients. Loopback/trusted servers only (no TLS, no redirects).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any


class RawConnection:
    """One persistent connection to ``host:port``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str):
        self._reader = reader
        self._writer = writer
        self._host = host.encode()

    @classmethod
    async def open(cls, host: str, port: int) -> RawConnection:
        """Connect (no request is sent yet)."""
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer, f"{host}:{port}")

    async def request(
        self, method: str, path: str, body: bytes = b"", *, token: str | None = None
    ) -> tuple[int, bytes]:
        """Send one request and read the whole response: ``(status, body)``."""
        head = [
            f"{method} {path} HTTP/1.1".encode(),
            b"Host: " + self._host,
            b"Content-Type: application/json",
            b"Content-Length: " + str(len(body)).encode(),
        ]
        if token is not None:
            head.append(f"Authorization: Bearer {token}".encode())
        self._writer.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        return await self._read_response()

    async def json(self, method: str, path: str, obj: Any = None, **kw: Any) -> tuple[int, Any]:
        """:meth:`request` with a JSON body and a JSON answer."""
        body = b"" if obj is None else json.dumps(obj).encode()
        status, raw = await self.request(method, path, body, **kw)
        return status, json.loads(raw) if raw else None

    async def _read_response(self) -> tuple[int, bytes]:
        header = await self._reader.readuntil(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        fields = {}
        for line in lines[1:]:
            if ":" in line:
                name, _, value = line.partition(":")
                fields[name.strip().lower()] = value.strip()
        if "content-length" in fields:
            return status, await self._reader.readexactly(int(fields["content-length"]))
        if fields.get("transfer-encoding", "").lower() == "chunked":
            return status, await self._read_chunked()
        return status, b""

    async def _read_chunked(self) -> bytes:
        parts: list[bytes] = []
        while True:
            size = int((await self._reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self._reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await self._reader.readexactly(size))
            await self._reader.readexactly(2)

    async def close(self) -> None:
        """Close the connection."""
        self._writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self._writer.wait_closed()
