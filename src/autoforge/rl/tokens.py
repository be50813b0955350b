"""Token-in/token-out episodes: the exact sampled tokens, with a mask of what the agent wrote.

A multi-turn episode is one token sequence: the prompt (system policy, tools, greeting, the
user's first message), then alternating *agent* segments (sampled by the policy: mask 1, with
their sampling log-probs) and *context* segments (tool results, the simulated user's replies,
chat-template glue: mask 0). The agent's tokens are never decoded and re-encoded: what the
trainer scores is exactly what was sampled, so the PPO ratio is taken on the right tokens.

Context segments are rendered with the tokenizer's own chat template by difference: render a
dummy exchange ending with an assistant turn, render it again followed by the new messages and
the generation prompt, and keep the tail after the dummy assistant's end-of-turn token (the
trick TRL uses for tool results). :class:`ChatCodec` also parses Qwen/Hermes-style
``<tool_call>{...}</tool_call>`` blocks out of generated text into OpenAI tool calls.

Interleaved thinking (``keep_thinking``): kept, the trace only grows, so every later turn sees
the earlier turns' exact sampled tokens, reasoning included. Dropped, the context of every turn is
the chat-template rendering of the history with earlier reasoning removed
(:meth:`ChatCodec.history_ids`); :meth:`TokenTrace.rebase` then keeps the longest prefix the old
trace shares with that rendering and replaces the rest. Sampled tokens past the shared prefix
(an earlier turn's reasoning and what followed it) leave the trace: a single causal sequence cannot
hold both what a turn was sampled from and the shorter history later turns saw. They are
counted in ``dropped_agent_tokens``; the last turn and every turn without reasoning keep their
exact tokens.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

TOOL_CALL_RE = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)


@dataclass
class TokenTrace:
    """One episode as tokens: ``prompt_ids`` then ``completion_ids`` with a per-token mask.

    ``mask[i] == 1`` where the policy sampled ``completion_ids[i]`` (trainable), 0 for context
    tokens; ``logprobs[i]`` is the sampling log-prob (0.0 for context tokens).
    """

    prompt_ids: list[int]
    completion_ids: list[int] = field(default_factory=list)
    mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    truncated: bool = False
    dropped_agent_tokens: int = 0

    def add_context(self, ids: list[int]) -> None:
        """Append tokens the agent did not write (mask 0)."""
        self.completion_ids.extend(ids)
        self.mask.extend([0] * len(ids))
        self.logprobs.extend([0.0] * len(ids))

    def add_sampled(self, ids: list[int], logprobs: list[float]) -> None:
        """Append tokens the policy sampled (mask 1)."""
        if len(ids) != len(logprobs):
            raise ValueError(f"{len(ids)} sampled tokens but {len(logprobs)} log-probs")
        self.completion_ids.extend(ids)
        self.mask.extend([1] * len(ids))
        self.logprobs.extend(float(x) for x in logprobs)

    def rebase(self, ids: list[int]) -> None:
        """Make ``ids`` (a fresh rendering of the whole context) the trace's tokens.

        The longest common prefix is kept with its masks and log-probs; the rest of the old
        trace is dropped (its sampled tokens counted in ``dropped_agent_tokens``) and the rest of
        ``ids`` appended as context.
        """
        old = self.ids
        common = 0
        for a, b in zip(old, ids, strict=False):
            if a != b:
                break
            common += 1
        n_prompt = len(self.prompt_ids)
        if common < n_prompt:
            self.prompt_ids = self.prompt_ids[:common]
            n_prompt = common
        keep = common - n_prompt
        self.dropped_agent_tokens += sum(self.mask[keep:])
        del self.completion_ids[keep:], self.mask[keep:], self.logprobs[keep:]
        self.add_context(ids[common:])

    @property
    def ids(self) -> list[int]:
        """Prompt and completion: the context the policy sees next."""
        return self.prompt_ids + self.completion_ids

    @property
    def agent_tokens(self) -> int:
        """How many completion tokens the policy sampled."""
        return sum(self.mask)


class ChatCodec:
    """Chat-template rendering and tool-call parsing around one tokenizer."""

    def __init__(self, tokenizer: Any, chat_template_kwargs: dict[str, Any] | None = None) -> None:
        self.tokenizer = tokenizer
        self.kwargs = dict(chat_template_kwargs or {})
        self.eos_id: int = end_of_turn_id(tokenizer)

    def _ids(self, messages: list[dict[str, Any]], *, generation: bool, **extra: Any) -> list[int]:
        text = self.tokenizer.apply_chat_template(
            messages, tokenize=False, add_generation_prompt=generation, **self.kwargs, **extra
        )
        return list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def prompt_ids(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> list[int]:
        """The first prompt: ``messages`` with the tools, ending with the generation prompt."""
        extra: dict[str, Any] = {"tools": tools} if tools else {}
        return self._ids(messages, generation=True, **extra)

    def history_ids(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> list[int]:
        """The whole conversation rendered by the template, through the generation prompt.

        Tool-call arguments are passed to the template as objects (the form the model writes);
        whatever reasoning the messages still carry is rendered as the template renders it.
        """
        extra: dict[str, Any] = {"tools": tools} if tools else {}
        return self._ids([_renderable(m) for m in messages], generation=True, **extra)

    def suffix_ids(self, messages: list[dict[str, Any]]) -> list[int]:
        """Tokens of non-assistant ``messages`` following an assistant turn that ended in EOS,
        through the next generation prompt."""
        if not messages or any(m.get("role") == "assistant" for m in messages):
            raise ValueError("suffix_ids takes one or more non-assistant messages")
        dummy: dict[str, Any] = {"role": "assistant", "content": "ok"}
        if messages[0].get("role") == "tool":
            name = str(messages[0].get("name") or "tool")
            dummy["tool_calls"] = [
                {"id": "d0", "type": "function", "function": {"name": name, "arguments": {}}}
            ]
        prefix_msgs = [{"role": "user", "content": "hi"}, dummy]
        prefix = self._ids(prefix_msgs, generation=False)
        full = self._ids(prefix_msgs + [_plain(m) for m in messages], generation=True)
        ends = [i for i, t in enumerate(prefix) if t == self.eos_id]
        if ends:
            prefix = prefix[: ends[-1] + 1]
        if full[: len(prefix)] != prefix:
            raise ValueError("chat template is not prefix-stable: cannot render context suffix")
        return full[len(prefix) :]

    def decode(self, ids: list[int]) -> str:
        """Text of sampled tokens, special tokens dropped."""
        return str(self.tokenizer.decode(ids, skip_special_tokens=True))

    def parse_assistant(self, text: str, call_prefix: str) -> dict[str, Any]:
        """An OpenAI assistant message from generated text (content plus ``tool_calls``).

        A ``<tool_call>`` block whose body is not a JSON object with a ``name`` still becomes
        a call (named ``""`` with the raw body as arguments) so the environment reports the
        mistake back to the agent instead of the turn silently turning into chat.
        """
        calls = []
        for i, body in enumerate(TOOL_CALL_RE.findall(text)):
            name, arguments = _parse_call_body(body)
            calls.append(
                {
                    "id": f"{call_prefix}_{i}",
                    "type": "function",
                    "function": {"name": name, "arguments": arguments},
                }
            )
        content = TOOL_CALL_RE.sub("", text).strip()
        message: dict[str, Any] = {"role": "assistant", "content": content or None}
        if calls:
            message["tool_calls"] = calls
        return message


def end_of_turn_id(tokenizer: Any) -> int:
    """The token that ends a chat turn: ``<|im_end|>`` when the vocabulary has it (ChatML
    templates; some tokenizers' ``eos_token`` is ``<|endoftext|>`` instead), else the EOS."""
    tid = tokenizer.convert_tokens_to_ids("<|im_end|>")
    if isinstance(tid, int) and tid >= 0 and tid != getattr(tokenizer, "unk_token_id", None):
        return tid
    return int(tokenizer.eos_token_id)


def _parse_call_body(body: str) -> tuple[str, str]:
    """``(name, arguments as a JSON string)`` of one tool-call body."""
    try:
        value = json.loads(body)
    except json.JSONDecodeError:
        return "", body
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return "", body
    args = value.get("arguments", {})
    return value["name"], args if isinstance(args, str) else json.dumps(args)


def _plain(message: dict[str, Any]) -> dict[str, Any]:
    """A message reduced to what chat templates read (role, content, tool name)."""
    out: dict[str, Any] = {"role": message["role"], "content": message.get("content") or ""}
    if message.get("name"):
        out["name"] = message["name"]
    if message.get("tool_call_id"):
        out["tool_call_id"] = message["tool_call_id"]
    return out


def _renderable(message: dict[str, Any]) -> dict[str, Any]:
    """A history message for a chat template: content as text, tool-call arguments as objects."""
    out = _plain(message)
    if message.get("reasoning_content"):
        out["reasoning_content"] = message["reasoning_content"]
    calls = []
    for call in message.get("tool_calls") or []:
        fn = dict(call.get("function") or {})
        args = fn.get("arguments")
        if isinstance(args, str):
            with contextlib.suppress(json.JSONDecodeError):
                fn["arguments"] = json.loads(args) if args.strip() else {}
        calls.append({**call, "function": fn})
    if calls:
        out["tool_calls"] = calls
    return out
