"""Does an endpoint's chat template keep the reasoning of earlier turns? (interleaved thinking)

With ``--keep-thinking`` the agent sends its earlier turns' reasoning back on each assistant
message (``reasoning_content``). Whether the model then sees it is the server's chat template's
decision: stock Qwen3 templates drop reasoning from turns before the last user message, so
training (which keeps it) and evaluation could see different histories.

:func:`probe_reasoning` checks this once per endpoint with three one-token requests on the same
short conversation (user, assistant, user): without reasoning, with a long ``reasoning_content``
on the assistant turn, and with the same reasoning inline as a ``<think>`` block in its content.
The prompt-token counts the server reports say whether each form reached the prompt. The result
is cached on the client per endpoint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autoforge.llm.types import Message

PROBE_REASONING = " ".join(f"check{i}" for i in range(40))
_CONVERSATION: list[Message] = [
    {"role": "user", "content": "Say ok."},
    {"role": "assistant", "content": "ok"},
    {"role": "user", "content": "Say ok again."},
]


@dataclass(frozen=True)
class ReasoningProbe:
    """What one endpoint's template does with an earlier turn's reasoning.

    ``field_kept``: ``reasoning_content`` reaches the prompt; ``inline_kept``: a ``<think>``
    block in the content does; ``extra_tokens``: prompt tokens the field added (0 = dropped).
    """

    endpoint: str
    field_kept: bool
    inline_kept: bool
    extra_tokens: int

    @property
    def kept(self) -> bool:
        """Earlier reasoning reaches the model in one form or the other."""
        return self.field_kept or self.inline_kept


def _variant(form: str) -> list[Message]:
    messages = [dict(m) for m in _CONVERSATION]
    if form == "field":
        messages[1]["reasoning_content"] = PROBE_REASONING
    elif form == "inline":
        messages[1]["content"] = f"<think>{PROBE_REASONING}</think>ok"
    return messages


async def probe_reasoning(client: Any, role: str = "agent") -> ReasoningProbe:
    """Probe ``role``'s endpoint once (cached on ``client`` per endpoint label and model)."""
    ep = client.endpoint(role)
    key = f"{ep.label} {ep.model}"
    cache: dict[str, ReasoningProbe] = client.__dict__.setdefault("_reasoning_probes", {})
    if key in cache:
        return cache[key]
    counts = {}
    for form in ("plain", "field", "inline"):
        resp = await client.chat(
            _variant(form), role=role, purpose="llm.reasoning_probe", max_tokens=1, cache=False
        )
        counts[form] = int(resp.usage.prompt_tokens)
    # a kept 40-word reasoning adds tens of tokens; a few tokens of template noise do not count
    margin = 10
    probe = ReasoningProbe(
        endpoint=key,
        field_kept=counts["field"] - counts["plain"] > margin,
        inline_kept=counts["inline"] - counts["plain"] > margin,
        extra_tokens=max(0, counts["field"] - counts["plain"]),
    )
    cache[key] = probe
    return probe
