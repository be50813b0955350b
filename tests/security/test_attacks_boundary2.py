"""Containment, second round (issue 34, the sandbox side): what an escaped worker can reach,
the pipe protocol, the wrappers handed to tool code and state kept between episodes."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from autoforge.env import Environment, EnvironmentSpec
from autoforge.tooldocs.spec import ToolSpec

LAYER = "os-boundary"
OBJ = {"type": "object", "properties": {}, "required": []}
SECRETS = {"OPENAI_API_KEY": "sk-canary-4c1d", "AUTOFORGE_SERVE_TOKEN": "tok-canary-77ae"}


def _env(source: str, names: list[str], **kw: Any) -> Any:
    tools = [ToolSpec(name=n, parameters=OBJ) for n in names]
    spec = EnvironmentSpec(name="attack", tools=tools)
    return Environment.from_parts(spec, textwrap.dedent(source), {"c": {}}, **kw)


def _environ_of(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as fh:
        raw = fh.read().split(b"\0")
    return dict(item.decode().partition("=")[::2] for item in raw if item)


@pytest.mark.stopped_by("os-boundary")
def test_host_secrets_never_reach_the_fork_server_or_a_worker(monkeypatch: Any) -> None:
    """OPENAI_API_KEY and AUTOFORGE_SERVE_TOKEN set in the host: neither the fork server's
    environment nor a worker's (read from the host through /proc) holds them, or any other
    host variable beyond the named ones."""
    from autoforge.env.contained import WORKER_VARIABLES, _ForkServer
    from autoforge.env.worker import dumps

    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    server = _ForkServer()  # a server of its own, started with the secrets set
    try:
        pid, sock = server.spawn(256)
        spec = EnvironmentSpec(name="attack", tools=[ToolSpec(name="ping", parameters=OBJ)])
        load = {"op": "load", "spec": spec.model_dump(mode="json"), "filename": "t.py"}
        sock.sendall(dumps({**load, "source": "def ping(state):\n    return 1\n", "timeout": 2}))
        assert sock.makefile("rb").readline()  # the worker is up and past its boundary
        for who in (server.proc.pid, pid):
            seen = _environ_of(who)
            assert not set(SECRETS) & set(seen), (who, seen)
            assert not any(v in str(seen) for v in SECRETS.values())
            allowed = {*WORKER_VARIABLES, "PYTHONHASHSEED", "LC_ALL", "PYTHONUTF8"}
            assert set(seen) <= allowed, set(seen) - allowed
        sock.close()
    finally:
        server.close()
