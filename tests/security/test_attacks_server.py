"""Attacks on ``autoforge serve`` (issue 14, server findings): each payload is a test that the
server answers with a bounded JSON error, keeps other clients apart, and stays responsive.

In-process tests use FastAPI's TestClient (bound-to-loopback app, so the base URL is
127.0.0.1); the hang tests run the real CLI in a subprocess, so ``/health`` latency is measured
from another process, as a client would see it.
"""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from fastapi.testclient import TestClient

from autoforge.env import Environment, EnvironmentSpec
from autoforge.examples import example_path
from autoforge.serve.app import create_app
from autoforge.serve.guard import HttpLimits, RequestGuard
from autoforge.serve.mcp_server import McpEpisodes, mcp_http_app
from autoforge.serve.server import http_protocol, uvicorn_config
from autoforge.serve.service import EnvService, Limits
from autoforge.serve.sessions import LogLimits
from autoforge.tooldocs.spec import ToolSpec

BASE = "http://127.0.0.1"
DEEP = "[" * 1000 + "]" * 1000
EMPTY = {"type": "object", "properties": {}}
HANG_SOURCE = """
import re


def ping(state):
    return "pong"


def spin(state):
    n = 0
    while True:
        n += 1
    return n


def backtrack(state):
    return bool(re.match(r"(a+)+$", "a" * 40 + "b"))
"""
HANG_SPEC = EnvironmentSpec(
    name="hang",
    tools=[
        ToolSpec(name=n, parameters=EMPTY, access="read") for n in ("ping", "spin", "backtrack")
    ],
)


@pytest.fixture(scope="module")
def bookstore() -> Environment:
    return Environment.load(example_path("bookstore"))


@pytest.fixture(scope="module")
def hang_env() -> Environment:
    return Environment.from_parts(HANG_SPEC, HANG_SOURCE, None, call_timeout_s=1.0)


def _client(service: EnvService, **kw: Any) -> TestClient:
    return TestClient(create_app(service, **kw), base_url=BASE, raise_server_exceptions=False)


def _assert_json_error(response: Any, *statuses: int) -> dict[str, Any]:
    assert response.status_code in statuses, (response.status_code, response.text[:300])
    assert response.headers["content-type"].startswith("application/json"), response.text[:200]
    body = response.json()
    assert isinstance(body["error"], str) and isinstance(body["message"], str)
    assert "Traceback" not in response.text
    return dict(body)


# --- body size, deep JSON, 500s --------------------------------------------------------------


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast_path", "fastapi_route"])
def test_body_over_the_cap_is_a_json_413(bookstore: Environment, fast_path: bool) -> None:
    service = EnvService(bookstore)
    limits = HttpLimits(max_body_bytes=10_000)
    with _client(service, fast_path=fast_path, http=limits) as http:
        episode = http.post("/episodes").json()["episode_id"]
        big = json.dumps({"book_id": "x" * 20_000})
        response = http.post(f"/episodes/{episode}/tools/get_book", content=big)
        assert _assert_json_error(response, 413)["error"] == "body_too_large"
        chunked = http.post(f"/episodes/{episode}/tools/get_book", content=iter([big.encode()]))
        assert _assert_json_error(chunked, 413)["max_body_bytes"] == 10_000
        assert http.post("/episodes", content=big).status_code == 413
        assert service.info(episode)["n_calls"] == 0  # nothing reached the environment


async def test_body_trickled_slowly_gets_408() -> None:
    sent: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("the app must not run")

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(10)
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    guard = RequestGuard(app, limits=HttpLimits(body_timeout_s=0.1))
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/episodes",
        "headers": [(b"host", b"127.0.0.1")],
    }
    start = time.monotonic()
    await guard(scope, receive, send)
    assert time.monotonic() - start < 2
    assert sent[0]["status"] == 408 and orjson.loads(sent[1]["body"])["error"] == "request_timeout"


@pytest.mark.parametrize(
    "path", ["/episodes", "/episodes/{ep}/reward", "/episodes/{ep}/tools/get_book"]
)
@pytest.mark.parametrize("body", [DEEP, '{"messages": ' + DEEP + "}", '{"book_id": ' + DEEP + "}"])
def test_body_nested_1000_deep_is_a_json_4xx(bookstore: Environment, path: str, body: str) -> None:
    """A 2 KB body nested 1,000 deep once gave a plain-text 500 (RecursionError in validation)."""
    with _client(EnvService(bookstore)) as http:
        episode = http.post("/episodes").json()["episode_id"]
        response = http.post(path.format(ep=episode), content=body)
        _assert_json_error(response, 400, 413, 422)
        assert http.get("/health").status_code == 200


class _Exploding:
    """An episode whose every call fails inside the server (a bug, not the client's fault)."""

    def call(self, name: str, arguments: Any) -> Any:
        raise RuntimeError("secret internal detail")

    def state_hash(self) -> str:
        raise RuntimeError("secret internal detail")


@pytest.mark.parametrize("fast_path", [True, False], ids=["fast_path", "fastapi_route"])
def test_an_unexpected_exception_is_a_json_500_without_details(
    bookstore: Environment, fast_path: bool
) -> None:
    service = EnvService(bookstore)
    with _client(service, fast_path=fast_path) as http:
        episode = http.post("/episodes").json()["episode_id"]
        service.store.get(episode).episode = _Exploding()
        for response in (
            http.post(f"/episodes/{episode}/tools/get_book", json={"book_id": "B-1"}),
            http.get(f"/episodes/{episode}"),
        ):
            body = _assert_json_error(response, 500)
            assert body["error"] == "internal_error" and "secret" not in response.text


# --- bounded call logs, bounded error echoes --------------------------------------------------


def test_call_log_is_bounded_and_big_arguments_are_truncated(bookstore: Environment) -> None:
    """40 MB in once meant 80 MB retained: now every session's log has a count and byte bound."""
    log = LogLimits(max_calls=50, max_bytes=20_000, max_value_bytes=1000)
    service = EnvService(bookstore, limits=Limits(log=log))
    episode = service.open_episode()["episode_id"]
    session = service.store.get(episode)
    for i in range(120):
        service.call(episode, "get_book", {"book_id": f"B-{i}" + "x" * 5000})
    assert session.n_calls == 120 and len(session.calls) <= 50
    assert session.log_bytes <= 20_000 and session.log_dropped == 120 - len(session.calls)
    entry = session.calls[-1]
    assert entry.arguments["book_id"].startswith("<truncated: ")
    assert len(entry.content) <= 1000 + 40
    assert service.info(episode)["n_calls"] == 120


def test_an_error_response_does_not_amplify_the_body(bookstore: Environment) -> None:
    with _client(EnvService(bookstore)) as http:
        episode = http.post("/episodes").json()["episode_id"]
        body = json.dumps({"book_id": ["y" * 400_000]})
        response = http.post(f"/episodes/{episode}/tools/get_book", content=body)
        assert _assert_json_error(response, 422)["error"] == "invalid_arguments"
        assert len(response.content) < 1.2 * len(body)
        assert len(response.json()["message"]) <= 2010


# --- Host / Origin (DNS rebinding, cross-site pages) -------------------------------------------


def test_foreign_host_and_origin_are_refused_on_loopback(bookstore: Environment) -> None:
    with _client(EnvService(bookstore)) as http:
        rebound = http.post("/episodes", headers={"host": "attacker.example"})
        assert _assert_json_error(rebound, 421)["error"] == "host_not_allowed"
        cross = http.post("/episodes", headers={"origin": "http://attacker.example"})
        assert _assert_json_error(cross, 403)["error"] == "origin_not_allowed"
        other_port = http.post("/episodes", headers={"origin": "http://127.0.0.1:3000"})
        assert other_port.status_code == 403  # another local web app is another origin
        for host in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
            assert http.get("/health", headers={"host": host}).status_code == 200
        same = http.post("/episodes", headers={"origin": "http://127.0.0.1"})
        assert same.status_code == 201  # the server's own origin
        assert http.get("/health").json()["open_episodes"] == 1


def test_configured_host_and_origin_are_allowed(bookstore: Environment) -> None:
    limits = HttpLimits(
        allowed_hosts=frozenset({"env.internal"}), allowed_origins=frozenset({"https://ui.example"})
    )
    with _client(EnvService(bookstore), http=limits) as http:
        assert http.get("/health", headers={"host": "env.internal:8000"}).status_code == 200
        ok = http.post("/episodes", headers={"origin": "https://ui.example"})
        assert ok.status_code == 201
    public = TestClient(create_app(EnvService(bookstore), bind="0.0.0.0", token="t"))
    with public as http:  # beyond loopback the token guards; any Host, but still no foreign Origin
        assert http.get("/health", headers={"host": "anything.example"}).status_code == 200
        cross = http.get(
            "/tasks", headers={"origin": "http://evil.example", "authorization": "Bearer t"}
        )
        assert cross.status_code == 403


# --- tokens: episode ownership and quotas ------------------------------------------------------


def test_episode_ids_are_bound_to_the_token_that_opened_them(bookstore: Environment) -> None:
    with _client(EnvService(bookstore), token=["alice-token", "bob-token"]) as http:
        alice = {"Authorization": "Bearer alice-token"}
        bob = {"Authorization": "Bearer bob-token"}
        episode = http.post("/episodes", headers=alice).json()["episode_id"]
        call = f"/episodes/{episode}/tools/get_book"
        for response in (
            http.post(call, json={"book_id": "B-204"}, headers=bob),
            http.get(f"/episodes/{episode}", headers=bob),
            http.get(f"/episodes/{episode}/reward", headers=bob),
            http.delete(f"/episodes/{episode}", headers=bob),
        ):
            assert _assert_json_error(response, 404)["error"] == "unknown_episode"
        assert http.post(call, json={"book_id": "B-204"}, headers=alice).json()["ok"] is True
        assert http.get(f"/episodes/{episode}", headers=alice).json()["n_calls"] == 1


def test_per_token_session_quota(bookstore: Environment) -> None:
    service = EnvService(bookstore, limits=Limits(max_sessions=10, max_sessions_per_token=2))
    with _client(service, token=["a", "b"]) as http:
        a, b = {"Authorization": "Bearer a"}, {"Authorization": "Bearer b"}
        assert [http.post("/episodes", headers=a).status_code for _ in range(2)] == [201, 201]
        over = _assert_json_error(http.post("/episodes", headers=a), 429)
        assert over["error"] == "too_many_sessions" and over["max_per_token"] == 2
        assert http.post("/episodes", headers=b).status_code == 201  # b is not starved by a


def test_mcp_sessions_of_different_tokens_get_different_episodes(bookstore: Environment) -> None:
    episodes = McpEpisodes(EnvService(bookstore))
    mine = episodes.episode_for(("token-a", "sid-1"))
    theirs = episodes.episode_for(("token-b", "sid-1"))  # same session id, another token
    assert mine != theirs
    assert episodes.service.store.get(mine, "token-a").owner == "token-a"


def test_mcp_http_app_is_guarded(bookstore: Environment) -> None:
    app = mcp_http_app(EnvService(bookstore), http=HttpLimits(max_body_bytes=1000))
    with TestClient(app, base_url=BASE) as http:
        headers = {"accept": "application/json, text/event-stream"}
        assert http.post("/mcp", content="x" * 5000, headers=headers).status_code == 413
        rebound = http.post("/mcp", json={}, headers={**headers, "host": "attacker.example"})
        assert _assert_json_error(rebound, 421)["error"] == "host_not_allowed"


# --- calls off the event loop: stuck calls, /health ------------------------------------------


def test_a_stuck_call_gets_504_and_only_its_episode_is_busy(hang_env: Environment) -> None:
    service = EnvService(hang_env, limits=Limits(call_wait_s=0.3))
    with _client(service) as http:
        stuck = http.post("/episodes").json()["episode_id"]
        other = http.post("/episodes").json()["episode_id"]
        start = time.monotonic()
        first = http.post(f"/episodes/{stuck}/tools/spin")
        assert _assert_json_error(first, 504)["error"] == "call_timeout"
        assert time.monotonic() - start < 0.9  # answered before the runtime's 1 s limit
        busy = http.post(f"/episodes/{stuck}/tools/ping")
        assert _assert_json_error(busy, 409)["error"] == "episode_busy"
        assert http.post(f"/episodes/{other}/tools/ping").json()["content"] == "pong"
        time.sleep(1.0)  # the runtime's watchdog ends the spin; the episode is usable again
        assert http.post(f"/episodes/{stuck}/tools/ping").json()["content"] == "pong"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def hang_dir(tmp_path: Path) -> Path:
    (tmp_path / "environment.json").write_text(HANG_SPEC.model_dump_json())
    (tmp_path / "tools.py").write_text(HANG_SOURCE)
    return tmp_path


def _serve(env_dir: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "autoforge.cli.main", "serve", str(env_dir), "--port", str(port)]
    proc = subprocess.Popen(
        [*cmd, "--call-timeout", "1", *extra], stderr=subprocess.PIPE, text=True
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"{url}/health")
            return proc, url
        except httpx.TransportError:
            assert proc.poll() is None and time.monotonic() < deadline, "server did not start"
            time.sleep(0.1)


def _health_latencies_during(url: str, episode: str, tool: str) -> tuple[list[float], Any]:
    """Call ``tool`` in the background and time ``/health`` until the call returns."""
    result: dict[str, Any] = {}

    def call() -> None:
        result["r"] = httpx.post(f"{url}/episodes/{episode}/tools/{tool}", timeout=30)

    thread = threading.Thread(target=call)
    thread.start()
    time.sleep(0.2)  # the call is running
    latencies = []
    with httpx.Client(base_url=url) as client:
        while thread.is_alive():
            start = time.perf_counter()
            assert client.get("/health").status_code == 200
            latencies.append(time.perf_counter() - start)
            time.sleep(0.05)
    thread.join()
    return latencies, result["r"].json()


@pytest.mark.parametrize(
    ("mode", "tool"),
    [([], "spin"), ([], "backtrack"), (["--isolated"], "backtrack")],
    ids=["default-python-loop", "default-c-level-regex", "isolated-c-level-regex"],
)
def test_health_answers_within_50ms_while_a_tool_call_hangs(
    hang_dir: Path, mode: list[str], tool: str
) -> None:
    """One hanging call once stalled the event loop (and /health) for good. A Python loop
    is ended by the runtime's watchdog; a catastrophic regex (C code, holds the GIL) needs the
    worker process, which the host kills; /health keeps answering throughout."""
    proc, url = _serve(hang_dir, *mode)
    try:
        episode = httpx.post(f"{url}/episodes").json()["episode_id"]
        assert httpx.post(f"{url}/episodes/{episode}/tools/ping").json()["content"] == "pong"
        latencies, obs = _health_latencies_during(url, episode, tool)
        assert obs["error_kind"] == "timeout", obs
        # Under 50 ms as a rule; on a loaded shared CI box single requests can wait for a CPU
        # longer, so the bound on every sample is "never stalled" (the hang lasts 1-3 s).
        fast = sorted(latencies)[int(0.9 * len(latencies)) - 1]
        print(f"/health during a hang: max {max(latencies) * 1000:.1f} ms, n={len(latencies)}")
        assert len(latencies) >= 5 and fast < 0.05 and max(latencies) < 0.5, latencies
        assert httpx.post(f"{url}/episodes/{episode}/tools/ping").json()["content"] == "pong"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "execution boundary:" in err  # the CLI says which boundary runs the tool code


# --- slow and greedy clients at the protocol level --------------------------------------------


@pytest.fixture
def live_url(bookstore: Environment, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    import uvicorn

    monkeypatch.setattr(http_protocol(), "header_timeout_s", 0.3)
    port = _free_port()
    server = uvicorn.Server(uvicorn_config(create_app(EnvService(bookstore)), "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.01)
    yield "127.0.0.1", port
    server.should_exit = True
    thread.join(timeout=10)


def _closed_within(sock: socket.socket, seconds: float) -> bytes:
    """What the server sent before closing the connection (fails if it stays open)."""
    sock.settimeout(seconds)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_slow_or_silent_clients_are_dropped(live_url: tuple[str, int]) -> None:
    with socket.create_connection(live_url) as silent, socket.create_connection(live_url) as slow:
        slow.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a")  # never finishes
        start = time.monotonic()
        assert _closed_within(silent, 3) == b""
        assert _closed_within(slow, 3) == b""
        assert time.monotonic() - start < 2
    assert httpx.get(f"http://{live_url[0]}:{live_url[1]}/health").status_code == 200


def test_huge_headers_get_a_json_431(live_url: tuple[str, int]) -> None:
    with socket.create_connection(live_url) as sock:
        sock.sendall(
            b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n"
        )
        reply = _closed_within(sock, 3)
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431") and orjson.loads(body)["error"] == "headers_too_large"
