"""``LLMClient``: the one seam every LLM call in autoforge goes through.

One async client over the OpenAI-compatible Chat Completions API, with per-role endpoints,
a purpose tag on every call, structured output validated with pydantic (re-asking with the
validation error), tool calling either native or through the schema-constrained action
protocol, transport retries with exponential backoff, a concurrency limit per endpoint, token
and latency accounting, and an on-disk response cache.

``LLMClient.scripted([...])`` swaps only the transport for a deterministic fake.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar
from weakref import WeakKeyDictionary

from pydantic import BaseModel, ValidationError

from autoforge.llm import protocol
from autoforge.llm.accounting import UsageLedger
from autoforge.llm.cache import ResponseCache, request_key
from autoforge.llm.config import Endpoint, LLMConfig, build_config, resolve_endpoint
from autoforge.llm.parsing import canonical_json, extract_json, split_thinking
from autoforge.llm.textcalls import with_text_calls
from autoforge.llm.transport import (
    OpenAITransport,
    RecordedRequest,
    ScriptedTransport,
    ScriptItem,
    Transport,
)
from autoforge.llm.types import (
    ROLES,
    ChatResponse,
    LLMFailure,
    Message,
    TokenUsage,
    ToolMode,
    TransportError,
)

M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]

_FEEDBACK = (
    "Your previous answer was rejected: {error}\n"
    "Answer again with only a JSON object that matches the required schema."
)
_MAX_ERROR_CHARS = 1500


def is_retryable(exc: BaseException) -> bool:
    """Transport problems worth retrying: connection, timeout, 429 and 5xx."""
    if isinstance(exc, TransportError):
        return exc.retryable
    return isinstance(exc, ConnectionError | TimeoutError | asyncio.TimeoutError)


def _normalize_tool_calls(calls: Any, key: str) -> list[dict[str, Any]]:
    out = []
    for i, call in enumerate(calls or []):
        fn = dict(call.get("function") or {})
        args = fn.get("arguments", "{}")
        fn["arguments"] = args if isinstance(args, str) else canonical_json(args)
        out.append(
            {"id": call.get("id") or protocol.call_id(key, i), "type": "function", "function": fn}
        )
    return out


def assistant_message(raw: dict[str, Any], key: str) -> tuple[Message, str | None]:
    """The assistant message of a raw response, thinking split off into ``reasoning_content``."""
    choices = raw.get("choices") or [{}]
    msg = choices[0].get("message") or {}
    content, thinking = split_thinking(msg.get("content"))
    reasoning = msg.get("reasoning_content") or msg.get("reasoning") or thinking
    out: Message = {"role": "assistant", "content": content}
    calls = _normalize_tool_calls(msg.get("tool_calls"), key)
    if calls:
        out["tool_calls"] = calls
    if reasoning:
        out["reasoning_content"] = reasoning
    return out, choices[0].get("finish_reason")


def _token_usage(raw: dict[str, Any]) -> TokenUsage:
    usage = raw.get("usage") or {}
    return TokenUsage(
        prompt_tokens=int(usage.get("prompt_tokens") or 0),
        completion_tokens=int(usage.get("completion_tokens") or 0),
    )


class LLMClient:
    """Async LLM client for all roles. Build it with ``get_client`` or ``LLMClient.scripted``."""

    def __init__(
        self,
        config: LLMConfig | None = None,
        *,
        transport: Transport | None = None,
        cache: ResponseCache | Path | bool | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        self.config = config if config is not None else build_config()
        self.endpoints: dict[str, Endpoint] = {r: resolve_endpoint(self.config, r) for r in ROLES}
        self.transport: Transport = transport or OpenAITransport(self.config.embedded)
        self.cache = self._open_cache(cache)
        self.usage = UsageLedger()
        self._sleep: Sleep = sleep or asyncio.sleep
        # per event loop (a semaphore binds to one loop; tests and CLIs run several loops)
        self._semaphores: WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]]
        self._semaphores = WeakKeyDictionary()

    def _open_cache(self, cache: ResponseCache | Path | bool | None) -> ResponseCache | None:
        if isinstance(cache, ResponseCache):
            return cache
        if isinstance(cache, Path):
            return ResponseCache(cache)
        enabled = self.config.cache if cache is None else cache
        return ResponseCache(self.config.resolved_cache_path()) if enabled else None

    @classmethod
    def scripted(
        cls,
        responses: Sequence[ScriptItem],
        *,
        config: LLMConfig | None = None,
        cache: ResponseCache | Path | bool = False,
        sleep: Sleep | None = None,
    ) -> LLMClient:
        """A client whose transport answers from ``responses`` in order.

        Items: a string (assistant content), a dict (an assistant message when it has ``role``
        or ``tool_calls``, else a JSON object answered as content), an exception to raise
        (``TransportError(..., retryable=True)`` exercises retries), or a callable
        ``(RecordedRequest) -> item``. Requests are recorded in ``client.requests``; backoff
        sleeps are not slept but recorded in ``client.sleeps``. The environment is ignored
        unless ``config`` is given; the cache is off unless asked for.
        """
        sleeps: list[float] = []

        async def record_sleep(seconds: float) -> None:
            sleeps.append(seconds)

        client = cls(
            config if config is not None else build_config(environ={}),
            transport=ScriptedTransport(responses),
            cache=cache,
            sleep=sleep or record_sleep,
        )
        client.sleeps = sleeps
        return client

    sleeps: list[float]

    @property
    def requests(self) -> list[RecordedRequest]:
        """Requests received by a scripted transport (empty for a real one)."""
        return list(getattr(self.transport, "requests", []))

    def rules_only(self, role: str = "synthesizer") -> bool:
        """Whether ``role`` has no model (``--llm none``): callers use their rule-based path."""
        return self.endpoint(role).disabled

    def endpoint(self, role: str) -> Endpoint:
        if role not in self.endpoints:
            raise ValueError(f"unknown LLM role {role!r}; roles: {', '.join(ROLES)}")
        return self.endpoints[role]

    def _semaphore(self, ep: Endpoint) -> asyncio.Semaphore:
        per_loop = self._semaphores.setdefault(asyncio.get_running_loop(), {})
        if ep.label not in per_loop:
            per_loop[ep.label] = asyncio.Semaphore(ep.max_concurrency)
        return per_loop[ep.label]

    def _backoff(self, attempt: int) -> float:
        base = self.config.backoff_base_s * (2**attempt)
        return min(base, self.config.backoff_max_s) * random.uniform(1.0, 1.25)

    async def _send(self, ep: Endpoint, body: dict[str, Any], purpose: str) -> dict[str, Any]:
        """One request with transport retries; raises ``LLMFailure`` when they run out."""
        retries = self.config.max_retries
        for attempt in range(retries + 1):
            try:
                async with self._semaphore(ep):
                    return await self.transport.complete(ep, body, purpose)
            except Exception as exc:
                if not is_retryable(exc):
                    raise
                if attempt == retries:
                    self.usage.record_failure(ep.role, purpose)
                    raise LLMFailure(
                        f"{ep.label} failed after {retries + 1} attempts: {exc}",
                        role=ep.role,
                        purpose=purpose,
                    ) from exc
                self.usage.record_retry(ep.role, purpose)
                await self._sleep(self._backoff(attempt))
        raise AssertionError("unreachable")

    async def _complete(
        self, ep: Endpoint, body: dict[str, Any], purpose: str, use_cache: bool
    ) -> tuple[dict[str, Any], str, bool, float]:
        """Cache lookup, else send; returns ``(raw, key, cached, latency_s)`` and accounts it."""
        if ep.disabled:
            self.usage.record_failure(ep.role, purpose)
            raise LLMFailure(
                f"no LLM for role {ep.role!r} (model 'none': rules only); give a model "
                "(--llm-model default|small, or --llm-base-url) to use one",
                role=ep.role,
                purpose=purpose,
            )
        key = request_key(self.transport.cache_label(ep), body)
        deterministic = body.get("temperature", 0) == 0 or body.get("seed") is not None
        cache = self.cache if use_cache and deterministic else None
        hit = cache.get(key) if cache is not None else None
        start = time.monotonic()
        raw = hit if hit is not None else await self._send(ep, body, purpose)
        latency = time.monotonic() - start
        if hit is None and cache is not None:
            cache.put(key, raw, model=str(raw.get("model", "")))
        usage = _token_usage(raw)
        self.usage.record(
            ep.role,
            purpose,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            latency_s=latency,
            cached=hit is not None,
        )
        return raw, key, hit is not None, latency

    @staticmethod
    def _body(
        messages: list[Message],
        *,
        temperature: float,
        max_tokens: int,
        seed: int | None,
        tools: list[dict[str, Any]] | None = None,
        response_format: dict[str, Any] | None = None,
        extra_body: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "messages": messages,
            "temperature": temperature,
            "max_tokens": max_tokens,
        }
        if seed is not None:
            body["seed"] = seed
        if tools:
            body["tools"] = tools
        if response_format is not None:
            body["response_format"] = response_format
        if extra_body:
            body["extra_body"] = extra_body
        return body

    async def _respond(
        self, ep: Endpoint, body: dict[str, Any], purpose: str, use_cache: bool
    ) -> tuple[ChatResponse, str]:
        raw, key, cached, latency = await self._complete(ep, body, purpose, use_cache)
        message, finish = assistant_message(raw, key)
        resp = ChatResponse(
            message=message,
            usage=_token_usage(raw),
            cached=cached,
            latency_s=latency,
            model=str(raw.get("model") or ep.model),
            role=ep.role,
            purpose=purpose,
            finish_reason=finish,
        )
        return resp, key

    async def _validated(
        self,
        ep: Endpoint,
        messages: list[Message],
        purpose: str,
        parse: Callable[[ChatResponse, str], T],
        *,
        retries: int | None,
        use_cache: bool,
        **body_args: Any,
    ) -> tuple[T, ChatResponse]:
        """Ask, parse, and on a parse error ask again with the error fed back."""
        limit = self.config.structured_retries if retries is None else retries
        history = list(messages)
        attempts: list[dict[str, Any]] = []
        for attempt in range(limit + 1):
            body = self._body(history, **body_args)
            resp, key = await self._respond(ep, body, purpose, use_cache)
            resp.attempts = attempt + 1
            try:
                return parse(resp, key), resp
            except (ValueError, ValidationError) as exc:
                error = str(exc)[:_MAX_ERROR_CHARS]
                attempts.append({"output": resp.content, "error": error})
                if attempt < limit:
                    self.usage.record_retry(ep.role, purpose)
                history = [
                    *history,
                    {"role": "assistant", "content": resp.content or ""},
                    {"role": "user", "content": _FEEDBACK.format(error=error)},
                ]
        self.usage.record_failure(ep.role, purpose)
        raise LLMFailure(
            f"no valid answer after {limit + 1} attempts: {attempts[-1]['error']}",
            role=ep.role,
            purpose=purpose,
            attempts=attempts,
        )

    async def chat(
        self,
        messages: list[Message],
        *,
        role: str = "agent",
        purpose: str,
        tools: list[dict[str, Any]] | None = None,
        tool_mode: ToolMode = "auto",
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: int | None = None,
        cache: bool = True,
        retries: int | None = None,
        extra_body: dict[str, Any] | None = None,
    ) -> ChatResponse:
        """One assistant turn. With ``tools``, the answer may carry ``tool_calls``.

        ``tool_mode``: ``native`` sends ``tools=``; ``protocol`` uses the schema-constrained
        action protocol (the reply is converted back to ``tool_calls``); ``auto`` takes the
        role's setting (protocol for the embedded model, native otherwise). Responses are
        cached only when deterministic (temperature 0 or a ``seed``) and ``cache`` is true;
        pass a different ``seed`` per sample to get distinct cached samples.
        Raises ``LLMFailure`` when the endpoint keeps failing or (protocol mode) the model
        keeps answering with an invalid action.
        """
        ep = self.endpoint(role)
        mode = ep.tool_mode if tool_mode == "auto" else tool_mode
        args: dict[str, Any] = {
            "temperature": temperature,
            "max_tokens": max_tokens,
            "seed": seed,
            "extra_body": extra_body,
        }
        if not tools or mode == "native":
            resp, _ = await self._respond(
                ep, self._body(messages, tools=tools, **args), purpose, cache
            )
            if tools and not resp.tool_calls:  # a call written as text, not as tool_calls
                resp.message = with_text_calls(resp.message, tools)
            return resp
        return await self._protocol_chat(ep, messages, tools, purpose, cache, retries, args)

    async def _protocol_chat(
        self,
        ep: Endpoint,
        messages: list[Message],
        tools: list[dict[str, Any]],
        purpose: str,
        use_cache: bool,
        retries: int | None,
        args: dict[str, Any],
    ) -> ChatResponse:
        rendered = protocol.render_history(messages, tools)
        fmt = protocol.response_format(protocol.action_schema(tools), protocol.SCHEMA_NAME)

        def parse(resp: ChatResponse, key: str) -> Message:
            if resp.tool_calls:  # the endpoint called natively after all: accept it
                return resp.message
            try:
                return protocol.parse_action(resp.content, tools, key)
            except ValueError:  # a call in another common shape ({"name": ...}) still counts
                message = with_text_calls({"role": "assistant", "content": resp.content}, tools)
                if message.get("tool_calls"):
                    return message
                raise

        message, resp = await self._validated(
            ep,
            rendered,
            purpose,
            parse,
            retries=retries,
            use_cache=use_cache,
            response_format=fmt,
            **args,
        )
        if resp.reasoning_content:
            message = {**message, "reasoning_content": resp.reasoning_content}
        resp.message = message
        resp.tool_mode = "protocol"
        return resp

    async def structured(
        self,
        messages: list[Message],
        output: type[M],
        *,
        role: str = "synthesizer",
        purpose: str,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        seed: int | None = None,
        cache: bool = True,
        retries: int | None = None,
        strict: bool = True,
        extra_body: dict[str, Any] | None = None,
    ) -> M:
        """Ask for a JSON object matching ``output`` and return it validated.

        Sends ``response_format`` json_schema (``output.model_json_schema()``, in strict form
        when ``strict``: see ``protocol.strict_schema``); tolerates
        Markdown fences; on invalid output re-asks up to ``retries`` times (default
        ``config.structured_retries``) with the validation error, then raises ``LLMFailure``.
        """
        value, _ = await self.structured_response(
            messages,
            output,
            role=role,
            purpose=purpose,
            temperature=temperature,
            max_tokens=max_tokens,
            seed=seed,
            cache=cache,
            retries=retries,
            strict=strict,
            extra_body=extra_body,
        )
        return value

    async def structured_response(
        self,
        messages: list[Message],
        output: type[M],
        *,
        role: str = "synthesizer",
        purpose: str,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        seed: int | None = None,
        cache: bool = True,
        retries: int | None = None,
        strict: bool = True,
        extra_body: dict[str, Any] | None = None,
    ) -> tuple[M, ChatResponse]:
        """Like ``structured`` but also returns the final ``ChatResponse`` (usage, attempts)."""
        ep = self.endpoint(role)
        schema = output.model_json_schema()
        schema = protocol.strict_schema(schema) if strict else schema
        fmt = protocol.response_format(schema, output.__name__, strict=strict)

        def parse(resp: ChatResponse, key: str) -> M:
            return output.model_validate(extract_json(resp.content or ""))

        return await self._validated(
            ep,
            list(messages),
            purpose,
            parse,
            retries=retries,
            use_cache=cache,
            temperature=temperature,
            max_tokens=max_tokens,
            seed=seed,
            response_format=fmt,
            extra_body=extra_body,
        )

    async def aclose(self) -> None:
        """Close HTTP connections of the current event loop (the cache stays open)."""
        await self.transport.aclose()

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(self, *exc: object) -> Literal[False]:
        await self.aclose()
        return False


def get_client(config: LLMConfig | None = None) -> LLMClient:
    """The client for ``config`` (default: config file, environment, embedded model)."""
    return LLMClient(config)
