"""Transports: the only part of the client that differs between a real endpoint and a test fake.

``OpenAITransport`` sends Chat Completions requests with the ``openai`` SDK (to a remote
endpoint or the embedded llama.cpp server, started on first use). ``ScriptedTransport`` answers
from a list of canned responses and records every request, so unit tests exercise the same
client code path (retries, validation, cache, accounting, action protocol) without a model.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from weakref import WeakKeyDictionary

from autoforge.errors import UserError
from autoforge.llm.config import EmbeddedConfig, Endpoint
from autoforge.llm.types import ScriptExhausted, TransportError

if TYPE_CHECKING:
    from openai import AsyncOpenAI


class Transport(Protocol):
    """Sends one Chat Completions request body and returns the raw response as a dict."""

    def cache_label(self, endpoint: Endpoint) -> str:
        """What identifies the endpoint in cache keys (stable across runs)."""
        ...

    async def complete(
        self, endpoint: Endpoint, body: dict[str, Any], purpose: str
    ) -> dict[str, Any]:
        """Raise ``TransportError`` (retryable or not) when the endpoint fails."""
        ...

    async def aclose(self) -> None: ...


def _map_openai_error(exc: Exception, endpoint: Endpoint) -> Exception:
    import openai

    where = f"{endpoint.label} (role {endpoint.role}, model {endpoint.model or '?'})"
    if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
        return UserError(f"LLM endpoint {where} refused the API key: {exc}")
    if isinstance(exc, openai.NotFoundError):
        return UserError(f"LLM endpoint {where} answered 404 (wrong base_url or model?): {exc}")
    if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
        return TransportError(f"{where}: {exc}", retryable=True)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        retry = status == 429 or status >= 500
        return TransportError(f"{where}: HTTP {status}: {exc}", retryable=retry, status=status)
    return exc


class OpenAITransport:
    """Real HTTP transport over the ``openai`` SDK (its own retries off: the client retries)."""

    def __init__(self, embedded: EmbeddedConfig | None = None) -> None:
        self.embedded = embedded or EmbeddedConfig()
        # per event loop: an httpx client must not outlive or cross its loop
        self._clients: WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[tuple[str, str], AsyncOpenAI]
        ]
        self._clients = WeakKeyDictionary()
        self._models: dict[str, str] = {}

    def cache_label(self, endpoint: Endpoint) -> str:
        return endpoint.label

    async def _base_url(self, endpoint: Endpoint) -> str:
        if endpoint.base_url is not None:
            return endpoint.base_url
        from autoforge.llm.embedded import ensure_server

        server = await asyncio.to_thread(
            ensure_server, endpoint.embedded or "default", self.embedded
        )
        return server.base_url

    def _client(self, base_url: str, endpoint: Endpoint) -> AsyncOpenAI:
        from openai import AsyncOpenAI

        per_loop = self._clients.setdefault(asyncio.get_running_loop(), {})
        key = (base_url, endpoint.api_key)
        client = per_loop.get(key)
        if client is None:
            client = AsyncOpenAI(base_url=base_url, api_key=endpoint.api_key, max_retries=0)
            per_loop[key] = client
        return client

    async def _model(self, client: AsyncOpenAI, base_url: str, endpoint: Endpoint) -> str:
        """The configured model, or the endpoint's first listed model when none is configured."""
        if endpoint.model:
            return endpoint.model
        if base_url not in self._models:
            page = await client.models.list()
            if not page.data:
                raise UserError(f"{base_url} lists no models; set the model explicitly")
            self._models[base_url] = page.data[0].id
        return self._models[base_url]

    async def complete(
        self, endpoint: Endpoint, body: dict[str, Any], purpose: str
    ) -> dict[str, Any]:
        import openai

        try:
            base_url = await self._base_url(endpoint)
            client = self._client(base_url, endpoint)
            request = dict(body)
            request["model"] = await self._model(client, base_url, endpoint)
            extra = {**endpoint.extra_body, **request.pop("extra_body", {})}
            resp = await client.chat.completions.create(
                **request, extra_body=extra or None, timeout=endpoint.timeout_s
            )
        except openai.OpenAIError as exc:
            raise _map_openai_error(exc, endpoint) from exc
        return resp.to_dict()

    async def aclose(self) -> None:
        for client in self._clients.pop(asyncio.get_running_loop(), {}).values():
            await client.close()


@dataclass
class RecordedRequest:
    """One request a scripted client received (for assertions in tests)."""

    role: str
    purpose: str
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    @property
    def response_format(self) -> dict[str, Any] | None:
        return self.body.get("response_format")

    @property
    def tools(self) -> list[dict[str, Any]] | None:
        return self.body.get("tools")


ScriptItem = str | dict[str, Any] | BaseException | Callable[[RecordedRequest], Any]


def _approx_tokens(text: str) -> int:
    return max(1, len(text) // 4) if text else 0


def scripted_response(item: Any, body: dict[str, Any]) -> dict[str, Any]:
    """Turn one script item into a raw Chat Completions response dict.

    A string is the assistant's content; a dict with ``role`` or ``tool_calls`` is an assistant
    message; a dict with ``choices`` is a full raw response; any other dict is a JSON object
    answered as content (for structured and protocol calls). Token counts are estimated
    (4 characters per token) so accounting has non-zero figures.
    """
    if isinstance(item, dict) and "choices" in item:
        return item
    if isinstance(item, str):
        message: dict[str, Any] = {"role": "assistant", "content": item}
    elif isinstance(item, dict) and ("role" in item or "tool_calls" in item):
        message = {"role": "assistant", "content": None, **item}
    elif isinstance(item, dict):
        message = {"role": "assistant", "content": json.dumps(item)}
    else:
        raise TypeError(f"unsupported scripted response: {item!r}")
    prompt = json.dumps(body.get("messages", []))
    completion = json.dumps(message.get("tool_calls")) if message.get("tool_calls") else ""
    completion += message.get("content") or ""
    return {
        "id": "scripted",
        "model": "scripted",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": _approx_tokens(prompt),
            "completion_tokens": _approx_tokens(completion),
        },
    }


class ScriptedTransport:
    """Answers requests from a script, in order; records them in ``requests``."""

    def __init__(self, responses: Sequence[ScriptItem]) -> None:
        self.script: list[ScriptItem] = list(responses)
        self.requests: list[RecordedRequest] = []

    def cache_label(self, endpoint: Endpoint) -> str:
        return f"scripted:{endpoint.label}"

    async def complete(
        self, endpoint: Endpoint, body: dict[str, Any], purpose: str
    ) -> dict[str, Any]:
        request = RecordedRequest(role=endpoint.role, purpose=purpose, body=body)
        self.requests.append(request)
        if not self.script:
            raise ScriptExhausted(
                f"scripted client has no response left for request #{len(self.requests)}"
            )
        item: Any = self.script.pop(0)
        if callable(item) and not isinstance(item, BaseException):
            item = item(request)
            if inspect.isawaitable(item):
                item = await item
        if isinstance(item, BaseException):
            raise item
        return scripted_response(item, body)

    async def aclose(self) -> None:
        return None
