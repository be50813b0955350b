"""Tool calls written as text, turned into OpenAI ``tool_calls``.

Small models served without a tool-call parser (llama.cpp without ``--jinja``, a bare
OpenAI-compatible server) answer a request that carries ``tools=`` with the call as text:
``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` (Qwen's template), a JSON object
in a code fence, or the bare object. Whatever reads the reply (verifiers, ``autoforge eval``)
would see chat and no call. :func:`calls_from_text` recovers those calls; it accepts only JSON
objects that name one of the offered tools, so prose that merely contains JSON stays prose.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any

_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_FENCE = re.compile(r"```(?:json|tool_call)?\s*(.*?)```", re.DOTALL)
#: keys under which models put the arguments object
_ARG_KEYS = ("arguments", "parameters", "args", "input")
#: keys under which models put the tool name
_NAME_KEYS = ("name", "tool", "function", "action", "tool_name")


def tool_names(tools: Iterable[dict[str, Any]]) -> set[str]:
    """The names of OpenAI-format tools (``{"type": "function", "function": {...}}`` or flat)."""
    names = set()
    for tool in tools:
        spec = tool.get("function", tool) if isinstance(tool, dict) else {}
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            names.add(spec["name"])
    return names


def _json_objects(text: str) -> list[tuple[Any, int, int]]:
    """``(value, start, end)`` of every JSON object or list in ``text`` not inside another."""
    decoder = json.JSONDecoder()
    found: list[tuple[Any, int, int]] = []
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                i += 1
                continue
            found.append((value, i, end))
            i = end
        else:
            i += 1
    return found


def _as_call(value: Any, names: set[str]) -> tuple[str, dict[str, Any]] | None:
    """``(name, arguments)`` when ``value`` is a call of one of ``names``."""
    if not isinstance(value, dict):
        return None
    inner = value.get("function")
    if isinstance(inner, dict):  # {"function": {"name": ..., "arguments": ...}}
        return _as_call(inner, names)
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
    if name not in names:
        return None
    args: Any = next((value[k] for k in _ARG_KEYS if k in value), {})
    if isinstance(args, str):
        try:
            args = json.loads(args or "{}")
        except json.JSONDecodeError:
            return None
    return (name, args) if isinstance(args, dict) else None


def _read(text: str) -> tuple[list[Any], str]:
    """The JSON values that may be calls, and the text around them: inside ``<tool_call>``
    tags, else inside code fences, else anywhere in the text."""
    for pattern in (_TAGGED, _FENCE):
        bodies = pattern.findall(text)
        values = [v for body in bodies for v, _, _ in _json_objects(body)]
        if values:
            return values, pattern.sub("", text)
    spans = _json_objects(text)
    rest, last = [], 0
    for _, start, end in spans:
        rest.append(text[last:start])
        last = end
    rest.append(text[last:])
    return [v for v, _, _ in spans], "".join(rest)


def calls_from_text(
    text: str | None, tools: Iterable[dict[str, Any]], *, id_prefix: str = "call"
) -> tuple[str | None, list[dict[str, Any]]]:
    """``(remaining text, tool_calls)`` read from an assistant's text; ``(text, [])`` when it
    holds no call of an offered tool. Call ids depend only on the text (reruns agree)."""
    if not text or "{" not in text:
        return text, []
    names = tool_names(tools)
    values, rest = _read(text)
    flat = [x for v in values for x in (v if isinstance(v, list) else [v])]
    calls = [call for call in (_as_call(v, names) for v in flat) if call is not None]
    if not calls:
        return text, []
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    out = [
        {
            "id": f"{id_prefix}_{digest}_{i}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)},
        }
        for i, (name, args) in enumerate(calls)
    ]
    return rest.strip() or None, out


def with_text_calls(message: dict[str, Any], tools: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """``message`` with the calls its text holds as ``tool_calls`` (unchanged when it already
    has tool calls or its text holds none)."""
    if message.get("tool_calls"):
        return message
    content = message.get("content")
    rest, calls = calls_from_text(content if isinstance(content, str) else None, tools)
    if not calls:
        return message
    return {**message, "content": rest, "tool_calls": calls}
