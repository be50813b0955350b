"""Separating a model's reasoning from what it says.

Reasoning arrives either as ``reasoning_content`` on the message or as ``<think>...</think>``
blocks inside ``content``. The visible text (what the other party reads, what the reward checks)
never contains it; whether the *speaker* keeps it in its own context is the caller's choice.
"""

from __future__ import annotations

import re
from typing import Any

_THINK_BLOCK = re.compile(r"<think>(.*?)</think>", re.DOTALL | re.IGNORECASE)
_OPEN_THINK = re.compile(r"<think>(.*)\Z", re.DOTALL | re.IGNORECASE)
_LEADING_CLOSE = re.compile(r"\A(.*?)</think>", re.DOTALL | re.IGNORECASE)


def split_thinking(text: str | None) -> tuple[str, str]:
    """``(visible, thinking)`` of a content string.

    Handles closed blocks, an unclosed trailing ``<think>`` (a truncated answer) and a leading
    ``...</think>`` without its opening tag (templates that put ``<think>`` in the prompt).
    """
    if not text:
        return "", ""
    thoughts: list[str] = []
    if "<think>" not in text.lower():
        lead = _LEADING_CLOSE.match(text)
        if lead:
            thoughts.append(lead.group(1))
            text = text[lead.end() :]
    thoughts.extend(m.group(1) for m in _THINK_BLOCK.finditer(text))
    visible = _THINK_BLOCK.sub("", text)
    tail = _OPEN_THINK.search(visible)
    if tail:
        thoughts.append(tail.group(1))
        visible = visible[: tail.start()]
    return visible.strip(), "\n".join(t.strip() for t in thoughts if t.strip())


def message_reasoning(message: dict[str, Any]) -> str:
    """All reasoning of an assistant message: ``reasoning_content`` and ``<think>`` blocks."""
    parts = [str(message.get("reasoning_content") or "").strip()]
    content = message.get("content")
    if isinstance(content, str):
        parts.append(split_thinking(content)[1])
    return "\n".join(p for p in parts if p)


def visible_text(message: dict[str, Any]) -> str:
    """The text of a message without any reasoning."""
    content = message.get("content")
    return split_thinking(content)[0] if isinstance(content, str) else ""
