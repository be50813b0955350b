"""The policy as an agent LLM: batched sampling from a torch model, recorded token by token.

:class:`BatchedGenerator` turns concurrent episode requests into batched ``model.generate``
calls: every request that arrives while the event loop runs the other episodes up to their next
await joins the same batch (generation itself runs in a worker thread, one batch at a time).

:class:`TokenAgentClient` is a ``ChatClient`` for :class:`autoforge.rollout.Agent`: the rollout
stage's episode loop, user simulation, reward and judge run unchanged, while every agent turn is
sampled token-in/token-out into a :class:`~autoforge.rl.tokens.TokenTrace` (see there).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from autoforge.llm import TokenUsage
from autoforge.rl.config import DEFAULT_BUDGET
from autoforge.rl.tokens import ChatCodec, TokenTrace
from autoforge.rollout import AGENT_STOP_TOKEN


@dataclass(frozen=True)
class SamplingConfig:
    """How agent turns are sampled."""

    temperature: float = 1.0
    top_p: float = 1.0
    top_k: int = 0
    max_turn_tokens: int = DEFAULT_BUDGET.turn
    max_batch: int = 64


@dataclass
class _Request:
    ids: list[int]
    max_new_tokens: int
    future: asyncio.Future[tuple[list[int], list[float]]]


class BatchedGenerator:
    """Samples continuations of token sequences from ``model_fn()``, batching concurrent calls."""

    def __init__(self, model_fn: Callable[[], Any], tokenizer: Any, config: SamplingConfig) -> None:
        self.model_fn = model_fn
        self.config = config
        self.pad_id = int(
            tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        )
        self.eos_ids = eos_ids(tokenizer)
        self._pending: list[_Request] = []
        self._worker: asyncio.Task[None] | None = None
        self.batches: list[int] = []

    async def generate(self, ids: list[int], max_new_tokens: int) -> tuple[list[int], list[float]]:
        """Sampled new tokens (through the first EOS) and their log-probs."""
        future: asyncio.Future[tuple[list[int], list[float]]] = (
            asyncio.get_running_loop().create_future()
        )
        self._pending.append(_Request(list(ids), max(1, max_new_tokens), future))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.ensure_future(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._pending:
            for _ in range(3):  # let every runnable episode reach its next request
                await asyncio.sleep(0)
            batch = self._pending[: self.config.max_batch]
            del self._pending[: len(batch)]
            self.batches.append(len(batch))
            try:
                results = await asyncio.to_thread(self._sample, batch)
            except Exception as exc:
                for req in batch:
                    if not req.future.done():
                        req.future.set_exception(exc)
                continue
            for req, res in zip(batch, results, strict=True):
                if not req.future.done():
                    req.future.set_result(res)

    def _sample(self, batch: list[_Request]) -> list[tuple[list[int], list[float]]]:
        import torch

        model = self.model_fn()
        device = next(model.parameters()).device
        width = max(len(r.ids) for r in batch)
        input_ids = torch.full((len(batch), width), self.pad_id, dtype=torch.long)
        attention = torch.zeros((len(batch), width), dtype=torch.long)
        for row, req in enumerate(batch):  # left padding
            input_ids[row, width - len(req.ids) :] = torch.tensor(req.ids)
            attention[row, width - len(req.ids) :] = 1
        cfg = self.config
        with torch.no_grad():
            out = model.generate(
                input_ids=input_ids.to(device),
                attention_mask=attention.to(device),
                do_sample=cfg.temperature > 0,
                temperature=cfg.temperature if cfg.temperature > 0 else None,
                top_p=cfg.top_p,
                top_k=cfg.top_k or None,
                max_new_tokens=max(r.max_new_tokens for r in batch),
                eos_token_id=sorted(self.eos_ids),
                pad_token_id=self.pad_id,
                output_logits=True,
                return_dict_in_generate=True,
                use_cache=True,
            )
        new = out.sequences[:, width:].cpu()
        logits = torch.stack(out.logits, dim=1).float().cpu()  # (B, T, V), raw
        scale = cfg.temperature if cfg.temperature > 0 else 1.0
        logps = torch.log_softmax(logits / scale, dim=-1)
        chosen = logps.gather(-1, new.unsqueeze(-1)).squeeze(-1)
        return [self._cut(new[i].tolist(), chosen[i].tolist(), r) for i, r in enumerate(batch)]

    def _cut(
        self, ids: list[int], logps: list[float], req: _Request
    ) -> tuple[list[int], list[float]]:
        """A row's own tokens: through its first EOS, at most its own token limit."""
        n = min(len(ids), req.max_new_tokens)
        for i in range(n):
            if ids[i] in self.eos_ids:
                n = i + 1
                break
        return ids[:n], logps[:n]


def eos_ids(tokenizer: Any) -> set[int]:
    """End-of-turn ids: the tokenizer's EOS plus ``<|im_end|>``/``<|endoftext|>`` if present."""
    ids = {int(tokenizer.eos_token_id)}
    for name in ("<|im_end|>", "<|endoftext|>"):
        tid = tokenizer.convert_tokens_to_ids(name)
        if isinstance(tid, int) and tid != getattr(tokenizer, "unk_token_id", None):
            ids.add(tid)
    return ids


@dataclass
class _Response:
    """The part of ``autoforge.llm.ChatResponse`` the rollout's agent reads."""

    message: dict[str, Any]
    usage: TokenUsage
    cached: bool = False
    latency_s: float = 0.0


@dataclass
class TokenAgentClient:
    """A ``ChatClient`` for one episode's agent that samples from the policy, token by token.

    ``max_completion_tokens`` caps the whole episode's completion (agent plus context tokens,
    what the trainer will score); when it is reached the agent is made to stop, and the trace
    is marked ``truncated``. ``keep_thinking=False``: every turn's context is the template
    rendering of the agent's history, whose earlier reasoning the agent already stripped
    (:meth:`TokenTrace.rebase`); True: the trace only grows by the exact sampled tokens.
    """

    generator: BatchedGenerator
    codec: ChatCodec
    max_completion_tokens: int
    max_turn_tokens: int = DEFAULT_BUDGET.turn
    keep_thinking: bool = True
    trace: TokenTrace | None = None
    turns: int = 0
    _seen: int = field(default=0, repr=False)

    async def chat(self, messages: list[dict[str, Any]], **kwargs: Any) -> _Response:
        """Extend the trace with the messages new since the last call, then sample a turn."""
        started = time.perf_counter()
        self._extend(messages, kwargs.get("tools"))
        trace = self.trace
        assert trace is not None
        budget = self.max_completion_tokens - len(trace.completion_ids)
        if budget <= 0:
            trace.truncated = True
            return _Response({"role": "assistant", "content": AGENT_STOP_TOKEN}, TokenUsage())
        limit = min(budget, self.max_turn_tokens, int(kwargs.get("max_tokens") or budget))
        ids, logps = await self.generator.generate(trace.ids, limit)
        trace.add_sampled(ids, logps)
        self._seen = len(messages) + 1  # the Agent appends this turn's message next
        self.turns += 1
        message = self.codec.parse_assistant(self.codec.decode(ids), f"call_{self.turns}")
        usage = TokenUsage(prompt_tokens=len(trace.ids) - len(ids), completion_tokens=len(ids))
        return _Response(message, usage, latency_s=time.perf_counter() - started)

    def _extend(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> None:
        if self.trace is None:
            self.trace = TokenTrace(prompt_ids=self.codec.prompt_ids(messages, tools))
            return
        if messages[self._seen - 1].get("role") != "assistant":
            raise RuntimeError("agent context diverged from the token trace")
        new = messages[self._seen :]
        if not new:
            raise RuntimeError("agent asked for two turns in a row with nothing in between")
        if not self.keep_thinking:
            self.trace.rebase(self.codec.history_ids(messages, tools))
            return
        if not self.trace.completion_ids or self.trace.completion_ids[-1] not in (
            self.generator.eos_ids
        ):
            self.trace.add_context([self.codec.eos_id])  # close a turn cut by the token limit
        self.trace.add_context(self.codec.suffix_ids(new))
