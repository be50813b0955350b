"""Value types and errors of the LLM layer: responses, token usage, failures.

Kept free of I/O so every other module (and callers in other stages) can import them cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, Field

from autoforge.errors import AutoforgeError, UserError

Role = Literal["synthesizer", "agent", "user", "judge"]
ROLES: tuple[Role, ...] = ("synthesizer", "agent", "user", "judge")
ToolMode = Literal["auto", "native", "protocol"]

Message = dict[str, Any]
"""An OpenAI Chat Completions message: ``{"role": ..., "content": ..., ...}``."""


class LLMFailure(UserError):
    """An LLM call that could not produce a usable answer after all retries.

    Callers record the item as failed (a tool that could not be synthesized, a task that could
    not be written) instead of crashing the whole run. ``attempts`` holds the raw outputs and
    the reasons they were rejected, for the failure report.
    """

    def __init__(
        self,
        message: str,
        *,
        role: str = "",
        purpose: str = "",
        attempts: list[dict[str, Any]] | None = None,
    ) -> None:
        self.role = role
        self.purpose = purpose
        self.attempts = list(attempts or [])
        where = f"[{role}/{purpose}] " if role or purpose else ""
        super().__init__(f"{where}{message}")


class TransportError(AutoforgeError):
    """The endpoint could not be reached or answered with an error status.

    ``retryable`` marks connection problems, timeouts, 429 and 5xx: the client retries those
    with exponential backoff; others (400, 401, 404) fail at once.
    """

    def __init__(self, message: str, *, retryable: bool, status: int | None = None) -> None:
        self.retryable = retryable
        self.status = status
        super().__init__(message)


class ScriptExhausted(AssertionError):
    """A scripted fake client was called more often than it has responses (a test bug)."""


class TokenUsage(BaseModel):
    """LLM calls and tokens: the one usage type of autoforge.

    One response's usage holds only its token counts, as the endpoint reported them (0 when it
    reports none); sums over many calls (a role in an episode, a forge stage, a synthesized
    tool) also count ``calls``, ``cache_hits`` (calls answered from the cache: their tokens
    were not spent again) and ``latency_s``.
    """

    calls: int = 0
    cache_hits: int = Field(
        default=0, validation_alias=AliasChoices("cache_hits", "cached_calls")
    )  # trajectories written before this type called it cached_calls
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            calls=self.calls + other.calls,
            cache_hits=self.cache_hits + other.cache_hits,
            prompt_tokens=self.prompt_tokens + other.prompt_tokens,
            completion_tokens=self.completion_tokens + other.completion_tokens,
            latency_s=self.latency_s + other.latency_s,
        )

    def __sub__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            calls=self.calls - other.calls,
            cache_hits=self.cache_hits - other.cache_hits,
            prompt_tokens=self.prompt_tokens - other.prompt_tokens,
            completion_tokens=self.completion_tokens - other.completion_tokens,
            latency_s=self.latency_s - other.latency_s,
        )

    def add(self, prompt: int, completion: int, *, cached: bool, latency_s: float) -> None:
        """Account one call."""
        self.calls += 1
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.cache_hits += int(cached)
        self.latency_s += latency_s

    def add_response(self, resp: Any) -> None:
        """Account one LLM response (anything with ``usage``, ``cached`` and ``latency_s``)."""
        self.add(
            resp.usage.prompt_tokens,
            resp.usage.completion_tokens,
            cached=bool(resp.cached),
            latency_s=float(resp.latency_s),
        )


@dataclass
class ChatResponse:
    """The result of ``LLMClient.chat``.

    ``message`` is an OpenAI-format assistant message: ``content`` (str or None), plus
    ``tool_calls`` when the model called tools and ``reasoning_content`` when it exposed its
    thinking (from the endpoint's field or ``<think>`` tags in the content).
    """

    message: Message
    usage: TokenUsage = field(default_factory=TokenUsage)
    cached: bool = False
    latency_s: float = 0.0
    model: str = ""
    role: str = ""
    purpose: str = ""
    finish_reason: str | None = None
    attempts: int = 1
    tool_mode: str = "native"  # "protocol" when tools went through the action protocol

    @property
    def content(self) -> str | None:
        value = self.message.get("content")
        return value if isinstance(value, str) else None

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        return list(self.message.get("tool_calls") or [])

    @property
    def reasoning_content(self) -> str | None:
        value = self.message.get("reasoning_content")
        return value if isinstance(value, str) else None

    def history_message(self, *, keep_reasoning: bool = False) -> Message:
        """The message to append to a conversation; drops the thinking unless asked to keep it."""
        msg = dict(self.message)
        if not keep_reasoning:
            msg.pop("reasoning_content", None)
        return msg
