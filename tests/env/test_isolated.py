"""Isolated episodes: the worker subprocess enforces memory and hard time limits."""

from __future__ import annotations

import time
from typing import Any

from autoforge.env import state_hash
from autoforge.env.isolation.isolated import IsolatedEpisode
from autoforge.tooldocs.spec import ToolSpec

SOURCE = """
import re


def grow(state):
    x = [0]
    while True:
        x.extend(x)          # not guarded: only the worker's memory limit stops it


def backtrack(state):
    # catastrophic backtracking in C: the in-process watchdog cannot interrupt it
    return bool(re.match(r"(a+)+$", "a" * 40 + "b"))


def bump(state, key):
    state["c"][key] = state["c"].get(key, 0) + 1
    return state["c"][key]
"""


def _env(env_factory: Any, schema_obj: Any) -> Any:
    tools = [
        ToolSpec(name="grow", parameters=schema_obj({})),
        ToolSpec(name="backtrack", parameters=schema_obj({})),
        ToolSpec(name="bump", parameters=schema_obj({"key": {"type": "string"}}, ["key"])),
    ]
    return env_factory(SOURCE, tools, {"c": {}}, call_timeout_s=1.0)


def test_isolated_limits_and_restart_from_mirror(env_factory: Any, schema_obj: Any) -> None:
    env = _env(env_factory, schema_obj)
    ep = env.episode(mode="isolated")
    assert isinstance(ep, IsolatedEpisode)
    ep.grace_s = 0.5
    ep.memory_mb = 128
    try:
        assert ep.call("bump", {"key": "a"}).result == 1
        assert ep.call("bump", {"key": "a"}).result == 2

        bomb = ep.call("grow")
        assert bomb.error_kind == "sandbox", bomb.content
        assert "memory" in bomb.content or "signal" in bomb.content

        start = time.monotonic()
        stuck = ep.call("backtrack")
        assert stuck.error_kind == "timeout" and time.monotonic() - start < 5
        assert ep.restarts >= 2

        # a fresh worker continues from the mirrored state
        assert ep.call("bump", {"key": "a"}).result == 3
        assert ep.call("bump", {"key": "b"}).result == 1
        assert ep.snapshot() == {"c": {"a": 3, "b": 1}}

        inline = env.episode()
        for key in ("a", "a", "a", "b"):
            inline.call("bump", {"key": key})
        assert ep.state_hash() == inline.state_hash() == state_hash(ep.snapshot())
        assert ep.diff() == inline.diff()

        ep.reset()
        assert ep.snapshot() == {"c": {}}
        assert ep.call("bump", {"key": "a"}).result == 1
        assert ep.call("nope").error_kind == "unknown_tool"
        assert ep.call("bump", {"key": 5}).error_kind == "invalid_arguments"
    finally:
        ep.close()
