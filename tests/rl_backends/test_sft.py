"""Cold-start SFT: which trajectories, which tokens are labels, the sparse agent-token loss, and
a short run on the tiny model that lowers the loss."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.rl.sft import (
    PrefixUnstable,
    SFTRunConfig,
    build_examples,
    per_turn_tokens,
    render_examples,
    select_trajectories,
    train_sft,
    trajectory_tokens,
)
from autoforge.rollout.trajectory import EndReason, Trajectory

GREETING = "Hi! How can I help you today?"


def _trajectory(task_id: str = "t1", reward: float | None = 1.0, **kw: Any) -> Trajectory:
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "find_customer_by_email", "arguments": '{"email": "a@b.c"}'},
    }
    messages = [
        {"role": "system", "content": "You are the bookstore agent."},
        {"role": "assistant", "content": GREETING},
        {"role": "user", "content": "What is my name? My email is a@b.c"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "name": "find_customer_by_email",
         "content": '{"customer_id": "C-1", "name": "Omar Fischer"}'},
        {"role": "assistant", "content": "Your name is Omar Fischer."},
        {"role": "user", "content": "Thanks!"},
        {"role": "assistant", "content": "You're welcome."},
    ]  # fmt: skip
    fields: dict[str, Any] = {
        "task_id": task_id, "env_id": "bookstore", "messages": messages, "reward": reward,
        "end_reason": EndReason.USER_STOP,
    }  # fmt: skip
    fields.update(kw)
    return Trajectory(**fields)


def test_selection_keeps_valid_successes() -> None:
    good = _trajectory("a")
    failed = _trajectory("b", reward=0.0)
    infra = _trajectory("c", infra_error="LLMFailure: down", reward=None)
    blamed = _trajectory("d", user_error=True)
    trajs = [good, failed, infra, blamed]
    assert [t.task_id for t in select_trajectories(trajs, "success")] == ["a"]
    assert [t.task_id for t in select_trajectories(trajs, "all")] == ["a", "b"]


def test_labels_are_exactly_the_agent_turns(tokenizer: Any, bookstore: Any) -> None:
    tools = [t.openai_tool() for t in bookstore.spec.tools][:2]
    traj = _trajectory()
    ids, mask = trajectory_tokens(traj.messages, tokenizer, tools)
    assert len(ids) == len(mask)
    # the sequence is the chat template's own rendering of the whole conversation
    rendered = [dict(m) for m in traj.messages]
    rendered[3] = {**rendered[3], "content": "", "tool_calls": [
        {"type": "function", "function": {"name": "find_customer_by_email",
                                          "arguments": {"email": "a@b.c"}}}]}  # fmt: skip
    full = tokenizer.apply_chat_template(rendered, tools=tools, tokenize=False)
    assert tokenizer.decode(ids) == full
    runs, current = [], []
    for tid, m in zip(ids, mask, strict=True):
        if m:
            current.append(tid)
        elif current:
            runs.append(tokenizer.decode(current))
            current = []
    assert runs == [
        '<tool_call>\n{"name": "find_customer_by_email", "arguments": {"email": "a@b.c"}}\n'
        "</tool_call><|im_end|>",
        "Your name is Omar Fischer.<|im_end|>",
        "You're welcome.<|im_end|>",
    ]  # the greeting (fixed text before the user spoke) is not trained
    rows = build_examples([traj], tokenizer, {"bookstore": tools}, max_length=10_000)
    assert [t for t in rows[0]["labels"] if t != -100] == [
        t for t, m in zip(ids, mask, strict=True) if m
    ]


def test_agent_token_loss_equals_dense_cross_entropy(tokenizer: Any) -> None:
    import torch

    from autoforge.rl.sft import agent_token_loss
    from autoforge.rl.trl.model import tiny_qwen2

    model = tiny_qwen2(tokenizer, seed=1)
    ids = torch.randint(0, 5000, (2, 12))
    labels = torch.full_like(ids, -100)
    labels[0, 5:8] = ids[0, 5:8]
    labels[1, 9:] = ids[1, 9:]
    batch = {"input_ids": ids, "attention_mask": torch.ones_like(ids), "labels": labels}
    dense = model(input_ids=ids, labels=labels).loss
    assert agent_token_loss(model, batch).item() == pytest.approx(dense.item(), rel=1e-5)


def test_sft_run_lowers_the_loss(tokenizer: Any, bookstore: Any, tmp_path: Path) -> None:
    from autoforge.examples import example_path
    from autoforge.rl.trl.model import tiny_qwen2

    path = tmp_path / "trajs.jsonl"
    trajs = [_trajectory("a"), _trajectory("b", reward=0.0)]
    path.write_text("".join(json.dumps(t.model_dump(mode="json")) + "\n" for t in trajs))
    config = SFTRunConfig(
        trajectories=[str(path)], env_dirs=[str(example_path())], output_dir=str(tmp_path / "o"),
        max_steps=8, learning_rate=1e-2, save_model=True,
    )  # fmt: skip
    result = train_sft(config, model=tiny_qwen2(tokenizer, seed=0), tokenizer=tokenizer)
    assert result["trajectories"] == 1 and result["examples"] == 1
    assert result["agent_tokens"] > 20
    losses = result["losses"]
    assert len(losses) == 8 and losses[-1] < losses[0] - 2.0  # 11.9 -> 7.8 when measured
    assert (tmp_path / "o" / "policy" / "config.json").is_file()
    assert (tmp_path / "o" / "sft_config.json").is_file()


# Qwen3-like: an assistant turn's reasoning is shown only after the last user message, so adding
# a user turn rewrites how earlier turns render.
DROPS_OLD_REASONING = (
    "{%- set ns = namespace(last=0) -%}"
    "{%- for m in messages -%}{%- if m.role == 'user' -%}{%- set ns.last = loop.index0 -%}"
    "{%- endif -%}{%- endfor -%}"
    "{%- for m in messages -%}<|im_start|>{{ m.role }}\n"
    "{%- if m.role == 'assistant' and loop.index0 < ns.last and '</think>' in m.content -%}"
    "{{ m.content.split('</think>')[-1] }}{%- else -%}{{ m.content }}{%- endif -%}"
    "<|im_end|>\n{%- endfor -%}"
    "{%- if add_generation_prompt -%}<|im_start|>assistant\n{%- endif -%}"
)


class UnstableTemplate:
    """The embedded tokenizer with a chat template that is not prefix-stable."""

    def __init__(self, tokenizer: Any) -> None:
        self.tok = tokenizer

    def apply_chat_template(self, messages: Any, **kwargs: Any) -> Any:
        kwargs.pop("tools", None)
        return self.tok.apply_chat_template(messages, chat_template=DROPS_OLD_REASONING, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.tok(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tok, name)


def _thinking_trajectory() -> Trajectory:
    traj = _trajectory()
    messages = [dict(m) for m in traj.messages]
    messages[5]["reasoning_content"] = "the tool said Omar"
    messages[7]["reasoning_content"] = "be polite"
    return traj.model_copy(update={"messages": messages})


def test_prefix_unstable_templates_fall_back_to_per_turn_examples(tokenizer: Any) -> None:
    unstable = UnstableTemplate(tokenizer)
    traj = _thinking_trajectory()
    with pytest.raises(PrefixUnstable):
        trajectory_tokens(traj.messages, unstable, None)
    rows, fallbacks = render_examples([traj, _trajectory("plain")], unstable, {}, 10_000)
    assert fallbacks == 1  # the trajectory without reasoning renders stably
    turns = per_turn_tokens(traj.messages, unstable, None)
    assert len(turns) == 3 and len(rows) == 3 + 1
    trained = [
        tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if m]) for ids, mask in turns
    ]
    assert trained[1] == "<think>the tool said Omar</think>Your name is Omar Fischer.<|im_end|>"
    assert trained[2] == "<think>be polite</think>You're welcome.<|im_end|>"
    # each turn's context is what the template shows at that point: earlier reasoning dropped
    ids, mask = turns[2]
    context = tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if not m])
    assert "the tool said Omar" not in context
    assert context.rstrip().endswith("<|im_start|>assistant")
    # the stable template is unchanged: one example, no fallback
    assert render_examples([traj], tokenizer, {}, 10_000)[1] == 0
