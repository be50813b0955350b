"""The agent: a tool-calling policy over the LLM layer.

Its system prompt is the environment's policy text; its tools are the environment's tools in
OpenAI format, called natively or through the LLM layer's action protocol (``tool_mode``).
Interleaved thinking: when the model returns reasoning (``reasoning_content``, which the LLM
layer also fills from ``<think>`` blocks), ``keep_thinking=True`` keeps it on the assistant
messages of the agent's own context across turns (``inline_thinking`` also writes it back as a
``<think>`` block for chat templates that read it from the content); ``keep_thinking=False``
drops it. The user never sees it either way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from autoforge.llm import TokenUsage, ToolMode
from autoforge.rollout.agent_guards import check_calls, check_reply
from autoforge.rollout.thinking import message_reasoning, split_thinking

AGENT_STOP_TOKEN = "###STOP###"


class ChatClient(Protocol):
    """The part of ``autoforge.llm.LLMClient`` rollouts use."""

    async def chat(
        self,
        messages: list[dict[str, Any]],
        *,
        role: str = "agent",
        purpose: str,
        tools: list[dict[str, Any]] | None = None,
        tool_mode: Any = "auto",
        temperature: float = 0.0,
        max_tokens: int = 512,
        seed: int | None = None,
    ) -> Any: ...


class AgentConfig(BaseModel):
    """How the agent calls the model."""

    tool_mode: ToolMode = Field(default="auto", description="auto | native | protocol")
    keep_thinking: bool = True
    inline_thinking: bool = False
    temperature: float = 0.0
    max_tokens: int = 1024
    stop_token: str = AGENT_STOP_TOKEN
    transfer_tools: list[str] = Field(
        default_factory=list,
        description="tools whose successful call hands over to a human (ends as TRANSFER); "
        "none by default: whoever knows the environment's hand-off tool names it (a benchmark "
        "adapter, or the convention profile the environment was synthesized with)",
    )
    greeting: str | None = "Hi! How can I help you today?"
    guards: Literal["protocol", "on", "off"] = Field(
        default="protocol",
        description="re-ask once on a refusal, an action claimed without its tool call, or a call "
        "passing the tool documentation's example value "
        "(agent_guards): protocol (only when tools went through the action protocol) | on | off",
    )


@dataclass
class ParsedCall:
    """One tool call the agent asked for."""

    call_id: str
    name: str
    arguments: dict[str, Any]
    error: str | None = None


@dataclass
class AgentStep:
    """The outcome of one agent LLM call."""

    message: dict[str, Any]
    text: str
    calls: list[ParsedCall] = field(default_factory=list)
    stop: bool = False
    latency_s: float = 0.0


def parse_arguments(raw: Any) -> tuple[dict[str, Any], str | None]:
    """Tool-call arguments as a dict, or ``({}, error)`` when they are not a JSON object."""
    if isinstance(raw, dict):
        return raw, None
    if raw in (None, ""):
        return {}, None
    try:
        value = json.loads(raw)
    except (TypeError, json.JSONDecodeError) as exc:
        return {}, f"arguments are not valid JSON: {exc}"
    if not isinstance(value, dict):
        return {}, "arguments must be a JSON object"
    return value, None


def parse_calls(message: dict[str, Any], step: int) -> list[ParsedCall]:
    """The tool calls of an assistant message, with ids filled in when missing."""
    calls = []
    for i, call in enumerate(message.get("tool_calls") or []):
        fn = call.get("function") or {}
        args, error = parse_arguments(fn.get("arguments"))
        call_id = str(call.get("id") or f"call_{step}_{i}")
        calls.append(ParsedCall(call_id, str(fn.get("name", "")), args, error))
    return calls


class Agent:
    """A stateful agent for one episode: holds its own context."""

    def __init__(
        self,
        client: ChatClient,
        *,
        policy: str,
        tools: list[dict[str, Any]],
        config: AgentConfig | None = None,
        seed: int | None = None,
    ) -> None:
        self.client = client
        self.tools = tools
        self.config = config or AgentConfig()
        self.seed = seed
        self.usage = TokenUsage()
        self.notes: list[str] = []  # guards that fired (agent_guards), copied to the trajectory
        self.done_tools: list[str] = []  # tools called with success in this episode
        self._guarded: set[str] = set()  # guard kinds that re-asked since the user last spoke
        self._turn_calls = 0  # tool calls since the user last spoke
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": policy}]
        self.transcript: list[dict[str, Any]] = [{"role": "system", "content": policy}]
        if self.config.greeting:
            self._append({"role": "assistant", "content": self.config.greeting})

    def _append(self, message: dict[str, Any], raw: dict[str, Any] | None = None) -> None:
        """Add to the context and (with reasoning always kept) to the transcript."""
        self.messages.append(message)
        self.transcript.append(raw if raw is not None else message)

    def hear(self, text: str) -> None:
        """The user said ``text``."""
        self._guarded.clear()
        self._turn_calls = 0
        self._append({"role": "user", "content": text})

    def observe(self, call: ParsedCall, content: str, ok: bool = True) -> None:
        """The result of a tool call it made (``ok``: it succeeded)."""
        self._turn_calls += 1
        if ok:
            self.done_tools.append(call.name)
        self._append(
            {"role": "tool", "tool_call_id": call.call_id, "name": call.name, "content": content}
        )

    def _context_message(self, message: dict[str, Any], visible: str) -> dict[str, Any]:
        out: dict[str, Any] = {"role": "assistant", "content": visible or None}
        if message.get("tool_calls"):
            out["tool_calls"] = message["tool_calls"]
        reasoning = message_reasoning(message)
        if self.config.keep_thinking and reasoning:
            out["reasoning_content"] = reasoning
            if self.config.inline_thinking:
                out["content"] = f"<think>{reasoning}</think>{visible}"
        return out

    async def _ask(self, messages: list[dict[str, Any]]) -> Any:
        """One model call on ``messages``; its token usage is added to the agent's."""
        resp = await self.client.chat(
            messages,
            role="agent",
            purpose="rollout.agent",
            tools=self.tools or None,
            tool_mode=self.config.tool_mode,
            temperature=self.config.temperature,
            max_tokens=self.config.max_tokens,
            seed=self.seed,
        )
        self.usage.add_response(resp)
        return resp

    def _guard_active(self, resp: Any) -> bool:
        if self.config.guards == "protocol":
            return getattr(resp, "tool_mode", "native") == "protocol"
        return self.config.guards == "on"

    async def _guarded_ask(self, step: int) -> Any:
        """Ask the model; re-ask once (per guard kind and user turn) when a guard fires.

        A reply is checked by ``check_reply``; a tool call (the first answer or the re-ask's)
        by ``check_calls``. The rejected answer and the nudge are shown only to the re-ask,
        not kept in the context; the hit is noted in ``self.notes`` (``agent_notes``).
        """
        context = list(self.messages)
        resp = await self._ask(context)
        if not self._guard_active(resp):
            return resp
        message = resp.message
        if not message.get("tool_calls"):
            text, _ = split_thinking(message.get("content"))
            hit = check_reply(text, self._tool_names(), self.done_tools, self._turn_calls)
            if hit is None or hit.kind in self._guarded:
                return resp
            self._note(step, hit.kind, hit.note)
            rejected = {"role": "assistant", "content": text}
            context = [*context, rejected, {"role": "user", "content": hit.nudge}]
            resp = await self._ask(context)
        if resp.message.get("tool_calls"):  # also the call a reply guard's nudge asked for
            return await self._guard_calls(step, resp, context)
        return resp

    def _note(self, step: int, kind: str, note: str) -> None:
        """Record a guard hit; the kind re-asks no more until the user speaks again."""
        self._guarded.add(kind)
        self.notes.append(f"step {step}: {kind} guard: {note}")

    def _known_text(self) -> str:
        """The text task facts can come from: the policy, user messages, tool results.

        The agent's own messages are left out: a value it wrote itself is no evidence.
        """
        return "\n".join(
            str(m.get("content") or "")
            for m in self.messages
            if m.get("role") in ("system", "user", "tool")
        )

    async def _guard_calls(self, step: int, resp: Any, context: list[dict[str, Any]]) -> Any:
        """Re-ask once when a call passes the tool documentation's example value.

        ``context``: the messages ``resp`` answered; the re-ask extends them.
        The rejected call is not run: the re-ask sees it answered by a tool message holding
        the nudge (valid history in native mode too), and neither is kept in the context.
        """
        calls = parse_calls(resp.message, step)
        hit = check_calls([(c.name, c.arguments) for c in calls], self.tools, self._known_text())
        if hit is None or hit.kind in self._guarded:
            return resp
        self._note(step, hit.kind, hit.note)
        rejected = {"role": "assistant", "content": None, "tool_calls": resp.message["tool_calls"]}
        answers = [
            {"role": "tool", "tool_call_id": c.call_id, "name": c.name, "content": hit.nudge}
            for c in calls
        ]
        return await self._ask([*context, rejected, *answers])

    def _tool_names(self) -> list[str]:
        return [str((t.get("function") or t).get("name", "")) for t in self.tools]

    async def step(self, step: int) -> AgentStep:
        """Ask the model for its next message; append it to the context and return it."""
        resp = await self._guarded_ask(step)
        message = dict(resp.message)
        visible, _ = split_thinking(message.get("content"))
        stop = self.config.stop_token in visible
        visible = visible.replace(self.config.stop_token, "").strip()
        raw: dict[str, Any] = {"role": "assistant", "content": visible or None}
        if message.get("tool_calls"):
            raw["tool_calls"] = message["tool_calls"]
        if message_reasoning(message):
            raw["reasoning_content"] = message_reasoning(message)
        self._append(self._context_message(message, visible), raw)
        calls = parse_calls(message, step)
        return AgentStep(message, visible, calls, stop and not calls, float(resp.latency_s))
