"""Running the ASGI apps under uvicorn, with responses written in one piece.

uvicorn writes a response's status line and headers as soon as the app sends
``http.response.start``, then the body in a second write. On loopback each write wakes the
client, which then waits for the rest: two wake-ups (and, on a busy machine, two preemptions)
per tool call. The protocol of :func:`http_protocol` (:mod:`autoforge.serve.httptools`) holds
the header block back until the body arrives (the same event-loop step in practice; a
``call_soon`` flush covers bodiless responses) and writes both at once. ``benchmarks/serve.py``
measures the difference.

The same protocol bounds slow and greedy clients, which uvicorn alone does not: the request
line and headers must arrive within ``HEADER_TIMEOUT_S`` of the connection opening or the
previous response (a client trickling header bytes, or connecting and saying nothing, is
dropped) and may not exceed ``MAX_HEADER_BYTES`` (431). The body is bounded by the request
guard (:mod:`autoforge.serve.guard`); idle keep-alive connections by uvicorn's
``timeout_keep_alive``; open connections by ``limit_concurrency`` (503 beyond).
"""

from __future__ import annotations

import functools
from typing import Any

from starlette.types import ASGIApp

from autoforge.serve.wire import MAX_HEADER_BYTES

KEEP_ALIVE_S = 5
MAX_CONNECTIONS = 4096
SWITCH_INTERVAL_S = 0.001


@functools.cache
def http_protocol() -> Any:
    """The protocol class for ``uvicorn.Config(http=...)``: uvicorn's httptools protocol
    writing each response's head and body together (``"auto"`` without httptools)."""
    try:
        from autoforge.serve.httptools import CoalescingHttpToolsProtocol
    except ImportError:
        return "auto"
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
