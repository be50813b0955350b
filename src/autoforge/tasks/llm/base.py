"""Shared pieces of the LLM task-synthesis hooks: statistics, the sync bridge, prompt helpers.

See :mod:`autoforge.tasks.llm.hooks` for the hooks themselves.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Coroutine, Sequence
from typing import Any, Literal, TypeVar, cast

from pydantic import BaseModel, Field

from autoforge.env import EnvironmentSpec
from autoforge.lexicon import output_leaves, param_leaves
from autoforge.llm import LLMClient, LLMFailure
from autoforge.tooldocs import ToolSpec

HOOK_STATS_SCHEMA_VERSION = 1
T = TypeVar("T")
Message = dict[str, Any]


class HookStats(BaseModel):
    """What one LLM hook did: requests, items decided by the model, fallbacks by reason."""

    schema_version: int = HOOK_STATS_SCHEMA_VERSION
    hook: str
    requests: int = Field(default=0, description="structured LLM calls (each with its re-asks)")
    decided: int = Field(default=0, description="items decided (edges, pairs, scenarios)")
    by_llm: int = Field(default=0, description="items decided by a valid model answer")
    retries: int = Field(default=0, description="re-asks with problems fed back")
    fallbacks: dict[str, int] = Field(default_factory=dict, description="reason -> items")
    dropped: dict[str, int] = Field(default_factory=dict, description="proposals dropped")

    def fallback(self, reason: str, items: int = 1) -> None:
        """Count ``items`` decided by the deterministic default because of ``reason``."""
        self.fallbacks[reason] = self.fallbacks.get(reason, 0) + items

    def drop(self, reason: str) -> None:
        """Count one invalid proposal."""
        self.dropped[reason] = self.dropped.get(reason, 0) + 1


# ------------------------------------------------------------------------- sync bridge


class _LoopThread:
    """One background event loop (daemon thread) on which sync hook calls run coroutines.

    A persistent loop keeps the client's HTTP connections alive between calls, and works
    whether or not the calling thread has an event loop of its own running.
    """

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        loop = self._ensure()
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            coro.close()
            raise RuntimeError("a sync LLM hook was called on the hooks' own loop; await it")
        return asyncio.run_coroutine_threadsafe(coro, loop).result()

    def _ensure(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="autoforge-llm-hooks", daemon=True
                )
                thread.start()
                self._loop = loop
            return self._loop


_BRIDGE = _LoopThread()


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion from sync code (on the hooks' background loop)."""
    return _BRIDGE.run(coro)


def choice(values: Sequence[str]) -> Any:
    """``Literal[values...]`` built at run time (an enum in the JSON schema)."""
    return cast(Any, Literal)[tuple(values)]


def sentence(text: str, limit: int = 160) -> str:
    """The first sentence of ``text``, on one line, at most ``limit`` characters."""
    flat = " ".join(text.split())
    first = re.split(r"(?<=[.!?])\s", flat, maxsplit=1)[0]
    return first if len(first) <= limit else first[: limit - 3] + "..."


def tool_line(tool: ToolSpec, spec: EnvironmentSpec, max_fields: int = 14) -> str:
    """``- name: what it does. Takes: a, b. Returns: x, y.`` for a prompt."""
    state = spec.state_schema
    params = [leaf.path for leaf in param_leaves(tool, state)][:max_fields]
    outs = [leaf.path for leaf in output_leaves(tool, state)][:max_fields]
    desc = sentence(tool.description) or tool.name.replace("_", " ")
    return (
        f"- {tool.name}: {desc} Takes: {', '.join(params) or 'nothing'}. "
        f"Returns: {', '.join(outs) or 'not documented'}."
    )


async def ask(
    client: LLMClient,
    messages: list[Message],
    output: type[BaseModel],
    stats: HookStats,
    *,
    role: str,
    purpose: str,
    max_tokens: int,
) -> BaseModel | None:
    """One structured request; None (counted as ``llm_failure`` by the caller) on LLMFailure."""
    stats.requests += 1
    try:
        value, resp = await client.structured_response(
            messages, output, role=role, purpose=purpose, max_tokens=max_tokens
        )
    except LLMFailure:
        return None
    stats.retries += max(0, resp.attempts - 1)
    return value
