"""Pure parsing of model output: thinking split-off, code-fence stripping, JSON extraction.

Small and local models often wrap JSON in Markdown fences or prefix it with a sentence; reasoning
models put their thinking in ``<think>...</think>``. These helpers turn such text into what the
caller asked for, without any I/O.
"""

from __future__ import annotations

import json
import re
from typing import Any

_THINK_RE = re.compile(r"<think>(.*?)(?:</think>|$)", re.DOTALL)
_FENCE_RE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)(?:```|$)", re.DOTALL)


def split_thinking(content: str | None) -> tuple[str | None, str | None]:
    """Split ``<think>...</think>`` blocks off ``content``.

    Returns ``(content_without_thinking, thinking)``; ``thinking`` is None when there was none.
    An unclosed ``<think>`` (the model ran out of tokens while thinking) counts as thinking.
    A bare ``</think>`` without opening tag (templates that open the block in the prompt)
    marks everything before it as thinking.
    """
    if not content:
        return content, None
    if "<think>" not in content and "</think>" in content:
        thought, _, rest = content.partition("</think>")
        return rest.strip(), thought.strip() or None
    parts = [m.group(1).strip() for m in _THINK_RE.finditer(content)]
    if not parts:
        return content, None
    rest = _THINK_RE.sub("", content).replace("</think>", "").strip()
    thinking = "\n\n".join(p for p in parts if p)
    return rest, thinking or None


def strip_fences(text: str) -> str:
    """The body of the first Markdown code fence in ``text``, or ``text`` itself when none."""
    match = _FENCE_RE.search(text)
    return match.group(1).strip() if match else text.strip()


def extract_json(text: str) -> Any:
    """Parse a JSON value out of model output.

    Tries, in order: the whole text, the body of a code fence, and the outermost ``{...}`` or
    ``[...]`` span. Raises ``ValueError`` with the JSON decoder's message when all fail.
    """
    candidates = [text.strip()]
    if "```" in text:
        candidates.append(strip_fences(text))
    for opener, closer in (("{", "}"), ("[", "]")):
        start, end = text.find(opener), text.rfind(closer)
        if 0 <= start < end:
            candidates.append(text[start : end + 1])
    error: json.JSONDecodeError | None = None
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError as exc:
            error = error or exc
    raise ValueError(f"not valid JSON: {error}" if error else "empty output")


def canonical_json(value: Any) -> str:
    """A stable serialisation (sorted keys, no whitespace) used for hashing and ids."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
