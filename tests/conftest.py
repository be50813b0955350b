"""Shared test fixtures: where the benchmark data lives, and markers."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


#: Where the README says how to get the benchmark data the skipped tests need.
BENCH_DATA_HELP = "README.md, section 'Tests'"


def bench_root() -> Path:
    """The extracted benchmark data: ``$AUTOFORGE_BENCH_ROOT``, else ``../shared/benchmarks``
    beside the checkout."""
    env = os.environ.get("AUTOFORGE_BENCH_ROOT")
    return Path(env) if env else REPO_ROOT.parent / "shared" / "benchmarks"


def missing_bench_data(root: Path) -> str:
    """The one line a test that needs the benchmark data skips (or fails) with."""
    return (
        f"benchmark data not found at {root}: set AUTOFORGE_BENCH_ROOT to the extracted "
        f"benchmarks folder ({BENCH_DATA_HELP})"
    )


@pytest.fixture(scope="session")
def embedded_small_config() -> Any:
    """The embedded 0.5B model's config (its server started once), no cache: real answers
    every run. Skipped, with the pip command to run, when the ``[model-small]`` extra is not
    installed."""
    from autoforge.llm.config import build_config
    from autoforge.llm.embedded import MODELS, ModelNotInstalled, chunk_paths, ensure_server

    try:
        import xllamacpp  # noqa: F401

        chunk_paths(MODELS["small"])
    except (ImportError, ModelNotInstalled) as exc:
        pytest.skip(f"embedded model not installed ({exc}); pip install -e '.[model-small]'")
    cfg = build_config(environ={}, overrides={"embedded": {"model": "small"}, "cache": False})
    ensure_server("small", cfg.embedded)
    return cfg


@pytest.fixture(scope="session")
def benchmarks_dir() -> Path:
    """Path of the benchmark data. Without it the test is skipped with one line naming
    ``AUTOFORGE_BENCH_ROOT``; ``AUTOFORGE_REQUIRE_BENCH=1`` (CI) makes that a failure."""
    root = bench_root()
    if not root.is_dir():
        if os.environ.get("AUTOFORGE_REQUIRE_BENCH") == "1":
            pytest.fail(missing_bench_data(root))
        pytest.skip(missing_bench_data(root))
    return root


class LiveServer:
    """A uvicorn server in a thread on 127.0.0.1 and a free port, stopped on exit."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        from autoforge.serve.server import uvicorn_config

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn_config(app, "127.0.0.1", self.port, timeout_keep_alive=30)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture
def live_server() -> Iterator[Callable[[Any], LiveServer]]:
    """``live_server(app)`` starts ``app`` on a free loopback port; all are stopped at the end."""
    started: list[LiveServer] = []

    def start(app: Any) -> LiveServer:
        server = LiveServer(app).__enter__()
        started.append(server)
        return server

    yield start
    for server in started:
        server.__exit__()
