"""The coalescing transport: a response's head and body leave in one write; a head alone is
still flushed (bodiless responses)."""

from __future__ import annotations

import asyncio
from typing import Any

from autoforge.serve.server import http_protocol
from autoforge.serve.wire import CoalescingTransport


class Recorder:
    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str) -> str:
        return f"info:{name}"


HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n"


def test_head_and_body_are_one_write_and_a_lone_head_is_flushed() -> None:
    async def main() -> list[bytes]:
        raw = Recorder()
        transport = CoalescingTransport(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        transport.write(HEAD)
        transport.write(b"{}")
        assert raw.writes == [HEAD + b"{}"]
        transport.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        assert raw.writes == [HEAD + b"{}"]  # held back until the loop turns
        await asyncio.sleep(0)
        transport.write(b"chunk")  # not a head: written at once
        transport.write(b"HTTP/1.1 304 Not Modified\r\n\r\n")
        transport.close()  # closing flushes too
        assert raw.closed and transport.get_extra_info("peername") == "info:peername"
        return raw.writes

    writes = asyncio.run(main())
    assert writes == [
        HEAD + b"{}",
        b"HTTP/1.1 204 No Content\r\n\r\n",
        b"chunk",
        b"HTTP/1.1 304 Not Modified\r\n\r\n",
    ]


def test_the_protocol_is_uvicorns_httptools_one() -> None:
    protocol = http_protocol()
    assert protocol != "auto" and protocol.__mro__[1].__name__ == "HttpToolsProtocol"
