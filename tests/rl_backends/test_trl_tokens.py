"""Token-in/token-out episodes: chat-template suffixes, tool-call parsing, and a whole bookstore
episode through the rollout stage's loop with a scripted policy, checked token by token."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from autoforge.rl.config import TokenBudget
from autoforge.rl.episode import EpisodeDeps, TokenEpisodeConfig, token_episode
from autoforge.rl.tokens import ChatCodec, TokenTrace
from autoforge.rollout import bind_environment, fault_oracle, scripted_user
from autoforge.rollout.agent import AgentConfig
from autoforge.rollout.episode import EpisodeConfig
from autoforge.rollout.trajectory import EndReason


class ScriptedPolicy:
    """Stands in for ``BatchedGenerator``: answers each request with the next scripted text."""

    def __init__(self, tokenizer: Any, texts: list[str]) -> None:
        self.tok = tokenizer
        self.texts = list(texts)
        self.eos_ids = {int(tokenizer.eos_token_id)}
        self.emitted: list[int] = []
        self.contexts: list[list[int]] = []

    async def generate(self, ids: list[int], max_new_tokens: int) -> tuple[list[int], list[float]]:
        self.contexts.append(list(ids))
        text = self.texts.pop(0) if self.texts else "Bye."
        out = self.tok(text, add_special_tokens=False)["input_ids"] + [self.tok.eos_token_id]
        out = out[:max_new_tokens]
        self.emitted.extend(out)
        return out, [-0.5] * len(out)


def test_suffix_is_the_template_tail(tokenizer: Any) -> None:
    codec = ChatCodec(tokenizer)
    head = [{"role": "user", "content": "hello"}, {"role": "assistant", "content": "Hi there"}]
    new = [{"role": "user", "content": "I need my order."}]
    full = tokenizer.apply_chat_template(head + new, tokenize=False, add_generation_prompt=True)
    suffix = tokenizer.decode(codec.suffix_ids(new))
    assert full.endswith(suffix)
    assert suffix == "\n<|im_start|>user\nI need my order.<|im_end|>\n<|im_start|>assistant\n"
    tool = [{"role": "tool", "name": "get_order", "tool_call_id": "c1", "content": '{"a": 1}'}]
    tool_suffix = tokenizer.decode(codec.suffix_ids(tool))
    assert '<tool_response>\n{"a": 1}\n</tool_response>' in tool_suffix
    assert tool_suffix.endswith("<|im_start|>assistant\n")
    with pytest.raises(ValueError):
        codec.suffix_ids([{"role": "assistant", "content": "x"}])


def test_parse_tool_calls(tokenizer: Any) -> None:
    codec = ChatCodec(tokenizer)
    text = (
        'Let me check.\n<tool_call>\n{"name": "get_book", "arguments": {"book_id": "B-1"}}\n'
        "</tool_call>\n<tool_call>\nnot json\n</tool_call>"
    )
    msg = codec.parse_assistant(text, "call_3")
    assert msg["content"] == "Let me check."
    first, second = msg["tool_calls"]
    assert first["id"] == "call_3_0"
    assert first["function"]["name"] == "get_book"
    assert json.loads(first["function"]["arguments"]) == {"book_id": "B-1"}
    assert second["function"] == {"name": "", "arguments": "not json"}
    assert codec.parse_assistant("plain answer", "c") == {
        "role": "assistant",
        "content": "plain answer",
    }


def test_trace_rejects_mismatched_logprobs() -> None:
    trace = TokenTrace(prompt_ids=[1, 2])
    trace.add_sampled([5, 6], [-0.1, -0.2])
    trace.add_context([7])
    assert trace.ids == [1, 2, 5, 6, 7] and trace.mask == [1, 1, 0] and trace.agent_tokens == 2
    with pytest.raises(ValueError):
        trace.add_sampled([1], [])


def _deps(tokenizer: Any, env: Any, policy: ScriptedPolicy) -> EpisodeDeps:
    return EpisodeDeps(
        policy,  # type: ignore[arg-type]
        ChatCodec(tokenizer),
        lambda task: bind_environment(env, task),
        scripted_user,
        fault_oracle,
    )


def test_episode_keeps_exact_tokens_and_masks_context(
    tokenizer: Any, bookstore: Any, bookstore_tasks: list[Any], solve: Any
) -> None:
    task = bookstore_tasks[0]
    policy = ScriptedPolicy(tokenizer, solve(task))
    cfg = TokenEpisodeConfig(budget=TokenBudget(episode=2048, turn=128))
    out = asyncio.run(token_episode(task, 7, _deps(tokenizer, bookstore, policy), cfg))

    assert out.trajectory.end_reason == EndReason.USER_STOP
    assert out.reward == 1.0 and out.user_error is False
    trace = out.trace
    agent = [t for t, m in zip(trace.completion_ids, trace.mask, strict=True) if m == 1]
    assert agent == policy.emitted  # exactly the sampled tokens, in order
    assert trace.logprobs[trace.mask.index(1)] == -0.5
    assert [0.0] * trace.mask.count(0) == [
        lp for lp, m in zip(trace.logprobs, trace.mask, strict=True) if m == 0
    ]
    # the prompt is the template rendering of the agent's opening context with its tools
    binding = bind_environment(bookstore, task)
    opening = [
        {"role": "system", "content": binding.policy},
        {"role": "assistant", "content": "Hi! How can I help you today?"},
        {"role": "user", "content": scripted_user(task).turns[0]},
    ]
    expected = tokenizer.apply_chat_template(
        opening, tools=binding.tools, tokenize=False, add_generation_prompt=True
    )
    assert tokenizer.decode(trace.prompt_ids) == expected
    # context segments: the tool result, then the user's facts turn, each closing with the
    # generation prompt; each request saw exactly the trace so far
    segments = _segments(trace)
    tool_text = tokenizer.decode(segments[0])
    assert tool_text.startswith("\n<|im_start|>user\n<tool_response>\n")
    assert len(out.trajectory.tool_calls) == len(task.gold_calls)
    assert all(c.ok and c.observation in tool_text for c in out.trajectory.tool_calls)
    assert scripted_user(task).turns[1] in tokenizer.decode(segments[1])
    assert all(tokenizer.decode(s).endswith("<|im_start|>assistant\n") for s in segments)
    assert policy.contexts[-1] == trace.ids[: len(policy.contexts[-1])]
    assert len(policy.contexts) == 3


def _segments(trace: TokenTrace) -> list[list[int]]:
    """Runs of mask-0 tokens in the completion."""
    runs: list[list[int]] = []
    current: list[int] = []
    for tid, m in zip(trace.completion_ids, trace.mask, strict=True):
        if m == 0:
            current.append(tid)
        elif current:
            runs.append(current)
            current = []
    return [*runs, current] if current else runs


def test_token_budget_stops_the_agent(
    tokenizer: Any, bookstore: Any, bookstore_tasks: list[Any]
) -> None:
    task = bookstore_tasks[0]
    policy = ScriptedPolicy(tokenizer, ["word " * 40] * 5)
    cfg = TokenEpisodeConfig(budget=TokenBudget(episode=30, turn=20))
    out = asyncio.run(token_episode(task, 1, _deps(tokenizer, bookstore, policy), cfg))
    assert out.trace.truncated
    assert out.trajectory.end_reason == EndReason.AGENT_STOP
    assert out.trace.agent_tokens == 20 and len(out.trace.completion_ids) >= 30
    # the cut turn was closed with an end-of-turn token the agent did not write
    first_context = out.trace.mask.index(0)
    end_of_turn = tokenizer.convert_tokens_to_ids("<|im_end|>")  # not eos (<|endoftext|>)
    assert out.trace.completion_ids[first_context] == end_of_turn == ChatCodec(tokenizer).eos_id


def test_gold_solutions_score_one_on_every_synthesized_task(
    tokenizer: Any, bookstore: Any, bookstore_tasks: list[Any], solve: Any
) -> None:
    """Token episodes reach the verifier's reward 1 for reads and writes alike."""

    async def play(task: Any) -> Any:
        policy = ScriptedPolicy(tokenizer, solve(task))
        deps = _deps(tokenizer, bookstore, policy)
        cfg = TokenEpisodeConfig(budget=TokenBudget(episode=4096, turn=512))
        return await token_episode(task, 0, deps, cfg)

    outs = [asyncio.run(play(t)) for t in bookstore_tasks]
    assert any(t.changes_state for t in bookstore_tasks)
    assert [o.reward for o in outs] == [1.0] * len(bookstore_tasks), [
        o.trajectory.reward_reason for o in outs
    ]


def _thinking_episode(tokenizer: Any, env: Any, task: Any, solve: Any, keep: bool) -> Any:
    """The scripted solution with a reasoning block before every turn's answer."""
    turns = [
        f"<think>plan {i}: check the order first</think>{t}" for i, t in enumerate(solve(task))
    ]
    policy = ScriptedPolicy(tokenizer, turns)
    cfg = TokenEpisodeConfig(
        budget=TokenBudget(episode=4096, turn=512),
        episode=EpisodeConfig(agent=AgentConfig(keep_thinking=keep)),
    )
    out = asyncio.run(token_episode(task, 7, _deps(tokenizer, env, policy), cfg))
    return policy, out


def test_keep_thinking_switches_what_turn_3_is_sampled_from(
    tokenizer: Any, bookstore: Any, bookstore_tasks: list[Any], solve: Any
) -> None:
    task = bookstore_tasks[0]
    kept, kept_out = _thinking_episode(tokenizer, bookstore, task, solve, keep=True)
    dropped, dropped_out = _thinking_episode(tokenizer, bookstore, task, solve, keep=False)
    assert len(kept.contexts) >= 3 and len(dropped.contexts) >= 3
    assert kept.contexts[0] == dropped.contexts[0]  # same opening prompt
    turn3_keep, turn3_drop = kept.contexts[2], dropped.contexts[2]
    assert turn3_keep != turn3_drop
    keep_text, drop_text = tokenizer.decode(turn3_keep), tokenizer.decode(turn3_drop)
    assert "plan 0" in keep_text and "plan 1" in keep_text  # exact earlier reasoning kept
    assert "plan 0" not in drop_text and "plan 1" not in drop_text
    # kept: the exact sampled tokens of turns 1 and 2 are in turn 3's context, in order
    first = kept.emitted[: kept.emitted.index(tokenizer.eos_token_id) + 1]
    assert any(
        turn3_keep[i : i + len(first)] == first for i in range(len(turn3_keep) - len(first) + 1)
    )
    # dropped: turn 3's context is a template rendering of the reasoning-free history
    assert turn3_drop[-3:] == kept.contexts[0][-3:]  # ends with the assistant generation prompt
    assert dropped_out.trace.dropped_agent_tokens > 0 and kept_out.trace.dropped_agent_tokens == 0
    # both traces still end with the last turn's exact tokens, and both episodes solve the task
    assert kept_out.reward == dropped_out.reward == 1.0
    assert dropped_out.trace.completion_ids[-3:] == dropped.emitted[-3:]


def test_rebase_keeps_the_shared_prefix_and_counts_dropped_samples() -> None:
    trace = TokenTrace(prompt_ids=[1, 2])
    trace.add_sampled([10, 11, 12], [-0.1, -0.2, -0.3])  # turn 1: reasoning 10 11, answer 12
    trace.add_context([20])
    trace.rebase([1, 2, 10, 12, 20, 21])  # re-rendered: 11 dropped, then new context
    assert trace.ids == [1, 2, 10, 12, 20, 21]
    assert trace.mask == [1, 0, 0, 0] and trace.logprobs[0] == -0.1
    assert trace.dropped_agent_tokens == 2  # 11 and 12 left the trace as sampled tokens
