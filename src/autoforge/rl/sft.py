"""Cold-start SFT: fine-tune the policy on successful trajectories, on the agent's tokens only.

``autoforge sft``: trajectories JSONL (from ``autoforge.rollout``) -> a policy that imitates the
agent turns of the episodes that solved their task, before ERPO starts from it.

Each trajectory is rendered with the policy's chat template and the environment's tools, the
same prompt the TRL backend builds, segment by segment: the opening (system policy, tools,
greeting, first user turn), then each later message. Only the assistant messages' own tokens
(content or ``<tool_call>`` blocks, and their end-of-turn token) are labels; system text, user
turns, tool results and template headers are context (label -100). The loss projects through
the LM head only at labelled positions: agent episodes are mostly context, and a 150k-token
vocabulary makes full logits the dominant cost.

Prefix stability: slicing by prefix is only right when rendering a longer conversation starts
with the text of the shorter one. Templates that rewrite earlier turns (Qwen3 drops reasoning
before the last user turn) break that; each trajectory is checked as it is rendered, and one that
fails falls back to one example per agent turn, each in the context the template gives that turn
(:func:`per_turn_tokens`). ``train_sft`` reports how many needed it (``prefix_fallbacks``).

Which trajectories: by default those with reward 1 (``success``), never infrastructure errors
nor episodes the MEU judge blamed on the user.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from autoforge.errors import AutoforgeError, UserError
from autoforge.rollout import Trajectory

Selection = Literal["success", "all"]


class SFTRunConfig(BaseModel):
    """One SFT run (written next to the outputs as ``sft_config.json``)."""

    schema_version: Literal[1] = 1
    trajectories: list[str] = Field(description="trajectory JSONL files")
    env_dirs: list[str] = Field(description="environments (for their tool lists)")
    model: str = Field(default="tiny", description="'tiny', 'embedded-small' or a local HF dir")
    output_dir: str
    select: Selection = "success"
    epochs: float = Field(default=1.0, gt=0)
    max_steps: int = Field(default=-1, description="overrides epochs when > 0")
    learning_rate: float = Field(default=1e-5, gt=0)
    batch_size: int = Field(default=1, ge=1)
    max_length: int = Field(default=8192, ge=16)
    seed: int = 0
    save_model: bool = True


def select_trajectories(trajs: Sequence[Trajectory], select: Selection) -> list[Trajectory]:
    """Valid trajectories (no infra error, user not blamed); with ``success``, reward 1 only."""
    keep = [t for t in trajs if not t.is_infra_error and t.user_error is not True]
    return [t for t in keep if t.success] if select == "success" else keep


def _template_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """A transcript message as chat templates expect it (tool-call arguments as objects,
    reasoning back as a ``<think>`` block)."""
    out: dict[str, Any] = {"role": message["role"], "content": message.get("content") or ""}
    for key in ("name", "tool_call_id"):
        if message.get(key):
            out[key] = message[key]
    if message.get("role") == "assistant":
        if message.get("reasoning_content"):
            out["content"] = f"<think>{message['reasoning_content']}</think>{out['content']}"
        if message.get("tool_calls"):
            out["tool_calls"] = [_call_object(c) for c in message["tool_calls"]]
    return out


def _call_object(call: Mapping[str, Any]) -> dict[str, Any]:
    fn = dict(call.get("function") or {})
    args = fn.get("arguments")
    if isinstance(args, str):
        try:
            fn["arguments"] = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError:
            fn["arguments"] = {}
    return {"id": call.get("id", ""), "type": "function", "function": fn}


class PrefixUnstable(AutoforgeError, ValueError):
    """The chat template renders an earlier part of the conversation differently once later
    messages follow (e.g. Qwen3 drops reasoning before the last user turn)."""


def _renderer(
    messages: Sequence[Mapping[str, Any]], tokenizer: Any, tools: list[dict[str, Any]] | None
) -> Any:
    msgs = [_template_message(m) for m in messages]
    extra: dict[str, Any] = {"tools": tools} if tools else {}

    def render(upto: int, generation: bool = False) -> str:
        if upto == 0:
            return ""
        text = tokenizer.apply_chat_template(
            msgs[:upto], tokenize=False, add_generation_prompt=generation, **extra
        )
        return str(text)

    return msgs, render


def _end_of_turn(tokenizer: Any) -> str:
    from autoforge.rl.tokens import end_of_turn_id

    return str(tokenizer.convert_ids_to_tokens(end_of_turn_id(tokenizer)))


def trajectory_tokens(
    messages: Sequence[Mapping[str, Any]], tokenizer: Any, tools: list[dict[str, Any]] | None
) -> tuple[list[int], list[int]]:
    """``(input_ids, assistant_mask)`` of a transcript; mask 1 on the agent's own tokens.

    Rendered by difference of the chat template over growing prefixes, so every segment is
    exactly what the template would produce; assistant segments are split into header (mask
    0), body through the end-of-turn token (mask 1) and trailing glue (mask 0). Raises
    :class:`PrefixUnstable` when a longer prefix does not start with the shorter one's text
    (slicing would then misalign segments and labels).
    """
    msgs, render = _renderer(messages, tokenizer, tools)
    ids: list[int] = []
    mask: list[int] = []

    def add(text: str, bit: int) -> None:
        piece = tokenizer(text, add_special_tokens=False)["input_ids"]
        ids.extend(piece)
        mask.extend([bit] * len(piece))

    def tail(full: str, done: str, i: int) -> str:
        if not full.startswith(done):
            raise PrefixUnstable(f"message {i} changes how the messages before it render")
        return full[len(done) :]

    done = ""
    eot = _end_of_turn(tokenizer)
    heard = False  # the greeting before the first user turn is fixed text, not the agent's
    for i, message in enumerate(msgs):
        heard = heard or message["role"] == "user"
        if message["role"] == "assistant" and heard:
            head = render(i, generation=True)
            full = render(i + 1)
            add(tail(head, done, i), 0)
            body = tail(full, head, i)
            cut = body.find(eot) + len(eot) if eot in body else len(body)
            add(body[:cut], 1)
            add(body[cut:], 0)
            done = full
        else:
            full = render(i + 1)
            add(tail(full, done, i), 0)
            done = full
    return ids, mask


def per_turn_tokens(
    messages: Sequence[Mapping[str, Any]], tokenizer: Any, tools: list[dict[str, Any]] | None
) -> list[tuple[list[int], list[int]]]:
    """One ``(input_ids, mask)`` per agent turn: the template's rendering of the history before
    it (with the generation prompt, mask 0), then the turn through its end-of-turn token (mask 1).

    The fallback for prefix-unstable templates: each turn is trained in exactly the context the
    template gives it at that point. A turn whose own rendering does not extend its context is
    left out.
    """
    msgs, render = _renderer(messages, tokenizer, tools)
    eot = _end_of_turn(tokenizer)
    out = []
    heard = False
    for i, message in enumerate(msgs):
        heard = heard or message["role"] == "user"
        if message["role"] != "assistant" or not heard:
            continue
        head, full = render(i, generation=True), render(i + 1)
        if not full.startswith(head):
            continue
        body = full[len(head) :]
        body = body[: body.find(eot) + len(eot)] if eot in body else body
        context = list(tokenizer(head, add_special_tokens=False)["input_ids"])
        turn = list(tokenizer(body, add_special_tokens=False)["input_ids"])
        out.append((context + turn, [0] * len(context) + [1] * len(turn)))
    return out


def render_examples(
    trajs: Sequence[Trajectory],
    tokenizer: Any,
    tools_by_env: Mapping[str, list[dict[str, Any]]],
    max_length: int,
) -> tuple[list[dict[str, list[int]]], int]:
    """SFT rows ``{input_ids, labels}`` and how many trajectories needed per-turn rendering.

    A trajectory is one row when the template is prefix-stable on it; otherwise
    (:class:`PrefixUnstable`) one row per agent turn (:func:`per_turn_tokens`).
    """
    rows = []
    fallbacks = 0
    for traj in trajs:
        tools = tools_by_env.get(traj.env_id)
        try:
            pieces = [trajectory_tokens(traj.messages, tokenizer, tools)]
        except PrefixUnstable:
            fallbacks += 1
            pieces = per_turn_tokens(traj.messages, tokenizer, tools)
        for ids, mask in pieces:
            ids, mask = ids[:max_length], mask[:max_length]
            if any(mask):
                labels = [t if m else -100 for t, m in zip(ids, mask, strict=True)]
                rows.append({"input_ids": ids, "labels": labels})
    return rows, fallbacks


def build_examples(
    trajs: Sequence[Trajectory],
    tokenizer: Any,
    tools_by_env: Mapping[str, list[dict[str, Any]]],
    max_length: int,
) -> list[dict[str, list[int]]]:
    """SFT rows ``{input_ids, labels}`` (labels -100 off the agent's tokens), cut to length."""
    return render_examples(trajs, tokenizer, tools_by_env, max_length)[0]


def _collate(rows: list[dict[str, list[int]]], pad_id: int) -> dict[str, Any]:
    """Right-padded ``input_ids``, ``attention_mask`` and ``labels`` tensors."""
    import torch

    width = max(len(r["input_ids"]) for r in rows)
    ids = torch.full((len(rows), width), pad_id, dtype=torch.long)
    labels = torch.full((len(rows), width), -100, dtype=torch.long)
    attention = torch.zeros((len(rows), width), dtype=torch.long)
    for i, r in enumerate(rows):
        n = len(r["input_ids"])
        ids[i, :n] = torch.tensor(r["input_ids"])
        labels[i, :n] = torch.tensor(r["labels"])
        attention[i, :n] = 1
    return {"input_ids": ids, "attention_mask": attention, "labels": labels}


def agent_token_loss(model: Any, batch: Mapping[str, Any]) -> Any:
    """Mean next-token cross-entropy over labelled positions, projecting only those through
    the LM head (the backbone runs on the whole sequence)."""
    import torch

    backbone = model.get_decoder()
    hidden = backbone(
        input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]
    ).last_hidden_state
    targets = batch["labels"][:, 1:]
    where = targets != -100
    picked = hidden[:, :-1][where]
    logits = model.get_output_embeddings()(picked).float()
    return torch.nn.functional.cross_entropy(logits, targets[where])


def _sft_trainer_class() -> Any:
    from transformers import Trainer

    class AgentSFTTrainer(Trainer):
        """``Trainer`` whose loss is :func:`agent_token_loss`."""

        def compute_loss(
            self,
            model: Any,
            inputs: dict[str, Any],
            return_outputs: bool = False,
            num_items_in_batch: Any = None,
        ) -> Any:
            loss = agent_token_loss(model, inputs)
            return (loss, None) if return_outputs else loss

    return AgentSFTTrainer


def _tools_by_env(env_dirs: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    from autoforge.env import EnvDir

    out = {}
    for d in env_dirs:
        spec = EnvDir(Path(d)).read_spec()  # the tools only: no tool code needs to run
        out[spec.name] = [tool.openai_tool() for tool in spec.tools]
    return out


def load_trajectories(paths: Sequence[str]) -> list[Trajectory]:
    """Every trajectory of the JSONL files (last line per ``(task_id, trial)`` in each)."""
    from autoforge.rollout import read_trajectories

    trajs: list[Trajectory] = []
    for path in paths:
        if not Path(path).is_file():
            raise UserError(f"trajectories file not found: {path}")
        trajs.extend(read_trajectories(path))
    return trajs


def train_sft(config: SFTRunConfig, *, model: Any = None, tokenizer: Any = None) -> dict[str, Any]:
    """Run SFT; save the policy under ``<output>/policy``; return counts and the loss history."""
    from datasets import Dataset
    from transformers import TrainingArguments

    from autoforge.rl.trl.model import load_policy

    chosen = select_trajectories(load_trajectories(config.trajectories), config.select)
    if model is None or tokenizer is None:
        model, tokenizer = load_policy(config.model, seed=config.seed)
    rows, fallbacks = render_examples(
        chosen, tokenizer, _tools_by_env(config.env_dirs), config.max_length
    )
    if not rows:
        raise UserError(f"no trajectory to learn from (selection {config.select!r})")
    out = Path(config.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "sft_config.json").write_text(config.model_dump_json(indent=2) + "\n")
    args = TrainingArguments(
        output_dir=str(out), num_train_epochs=config.epochs, max_steps=config.max_steps,
        learning_rate=config.learning_rate, per_device_train_batch_size=config.batch_size,
        logging_steps=1, save_strategy="no", report_to="none", seed=config.seed,
        remove_unused_columns=False, use_cpu=_no_gpu(),
    )  # fmt: skip
    pad = int(tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0)
    trainer = _sft_trainer_class()(
        model=model, args=args, train_dataset=Dataset.from_list(rows),
        data_collator=lambda batch: _collate(batch, pad),
    )  # fmt: skip
    trainer.train()
    if config.save_model:
        trainer.save_model(str(out / "policy"))
        tokenizer.save_pretrained(str(out / "policy"))
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    agent_tokens = sum(sum(1 for t in r["labels"] if t != -100) for r in rows)
    return {"trajectories": len(chosen), "examples": len(rows), "agent_tokens": agent_tokens,
            "prefix_fallbacks": fallbacks, "losses": losses}  # fmt: skip


def _no_gpu() -> bool:
    import torch

    return not torch.cuda.is_available()
