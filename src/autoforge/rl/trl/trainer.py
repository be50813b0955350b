"""``ERPOTrainer``: TRL's ``GRPOTrainer`` with autoforge episodes and ERPO advantages.

What TRL keeps doing: batching prompts into groups of ``num_generations``, log-prob and
reference passes, the PPO-clip loss (``loss_type="dapo"``: token-level, clip-higher, k3 KL;
the same formula as :func:`autoforge.rl.ppo_clip_loss`), optimisation, checkpoints, logging.

What this subclass replaces:

* **Rollouts** (TRL's ``rollout_func``, the path that keeps the exact sampled tokens): each
  dataset row names a task (``task_id``, ``env_id`` columns); its ``num_generations`` rollouts
  are multi-turn episodes in the autoforge environment (:func:`.episodes.token_episode`), with
  tool results and simulated-user turns as mask-0 tokens (``env_mask``).
* **Dynamic sampling** with :class:`autoforge.rl.DynamicSampler`: groups whose valid rollouts all
  got the same reward are replaced by fresh tasks from the pool, for up to
  ``max_sampling_rounds`` rounds; groups still uninformative after that stay in the batch only
  to keep TRL's shapes, fully masked (DAPO's short batch).
* **Advantages** with :func:`autoforge.rl.compute_advantages` (ERPO: per-task baseline,
  per-environment std; or GRPO for the ablation), over the whole generation batch. Rollouts the
  MEU judge flags, infrastructure failures and the masked filler groups are *excluded*: left out
  of every mean and std, advantage 0, and every token masked out of the loss.

Per generation step it logs ``erpo/*`` metrics (reward, advantage statistics, masked counts,
sampling rounds) into TRL's logs and, when ``step_log`` is set, one JSON line per step.
"""

from __future__ import annotations

import asyncio
import copy
import json
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from trl import GRPOConfig, GRPOTrainer

from autoforge.rl.config import DEFAULT_BUDGET, ERPOConfig
from autoforge.rl.episode import EpisodeDeps, TokenEpisodeConfig, token_episode
from autoforge.rl.policy import BatchedGenerator, SamplingConfig
from autoforge.rl.tokens import ChatCodec
from autoforge.rl.trl.batch import StepBatch, sample_step, step_advantages
from autoforge.rollout import episode_seed
from autoforge.tasks import Task


def verifier_reward(prompts: Any, completions: Any, **kwargs: Any) -> list[float | None]:
    """TRL reward function: the environment verifier's reward carried by the rollout."""
    return list(kwargs["verifier_reward"])


@dataclass(frozen=True)
class _Flat:
    """A rollout reduced to what the advantage needs (cheap to gather across processes)."""

    task_id: str
    env_id: str
    reward: float | None
    user_error: bool


def grpo_args(
    erpo: ERPOConfig,
    *,
    output_dir: str,
    max_steps: int,
    learning_rate: float = 1e-6,
    micro_steps: int = 1,
    seed: int = 0,
    max_completion_tokens: int = DEFAULT_BUDGET.episode,
    **overrides: Any,
) -> GRPOConfig:
    """A ``GRPOConfig`` carrying ``erpo``'s loss settings; one optimiser step per generation.

    A generation batch is ``tasks_per_batch`` task groups of ``group_size`` rollouts, split into
    ``micro_steps`` accumulation micro-batches.
    """
    rollouts = erpo.tasks_per_batch * erpo.group_size
    if rollouts % micro_steps:
        raise ValueError(f"{rollouts} rollouts per batch do not split into {micro_steps} steps")
    values: dict[str, Any] = {
        "output_dir": output_dir,
        "max_steps": max_steps,
        "learning_rate": learning_rate,
        "num_generations": erpo.group_size,
        "per_device_train_batch_size": rollouts // micro_steps,
        "gradient_accumulation_steps": micro_steps,
        "steps_per_generation": micro_steps,
        "num_iterations": 1,
        "epsilon": erpo.clip_eps_low,
        "epsilon_high": erpo.clip_eps_high if erpo.clip_eps_high is not None else erpo.clip_eps_low,
        "beta": erpo.kl_beta,
        "loss_type": "dapo" if erpo.loss_agg == "token" else "grpo",
        "max_completion_length": max_completion_tokens,
        "logging_steps": 1,
        "save_strategy": "no",
        "report_to": "none",
        "seed": seed,
        "remove_unused_columns": False,
        "bf16": False,
    }
    values.update(overrides)
    return GRPOConfig(**values)


def task_rows(tasks: Sequence[Task]) -> list[dict[str, str]]:
    """Dataset rows: a readable prompt (the task's question) and the ids the trainer reads."""
    return [{"prompt": t.scenario.opening(), "task_id": t.id, "env_id": t.env_id} for t in tasks]


class ERPOTrainer(GRPOTrainer):
    """GRPOTrainer whose rollouts are autoforge episodes and whose advantages are ERPO's."""

    def __init__(
        self,
        *,
        model: Any,
        tokenizer: Any,
        args: GRPOConfig,
        train_dataset: Any,
        tasks: Mapping[str, Task],
        deps_factory: Any,
        erpo: ERPOConfig | None = None,
        episode: TokenEpisodeConfig | None = None,
        sampling: SamplingConfig | None = None,
        step_log: str | Path | None = None,
        callbacks: list[Any] | None = None,
        ref_model: Any = None,
    ) -> None:
        beta = float(args.beta)
        if beta > 0 and ref_model is None:
            raise ValueError("kl_beta > 0 needs a reference model (ref_model=...)")
        if beta > 0:  # TRL would reload the policy from its config path; ours may have none
            args = copy.copy(args)  # (dataclasses.replace would re-derive batch sizes)
            args.beta = 0.0
        self.erpo = erpo or ERPOConfig.model_validate({})
        self.episode_config = episode or TokenEpisodeConfig.model_validate({})
        self.pool = dict(tasks)
        self.step_log = Path(step_log) if step_log is not None else None
        self.step_records: list[dict[str, Any]] = []
        self._rows: list[dict[str, Any]] = []
        self._batch: StepBatch | None = None
        self._loop = asyncio.new_event_loop()
        self._rng = random.Random(args.seed)
        self.last_advantages: np.ndarray = np.zeros(0)
        self.last_batch: StepBatch | None = None
        super().__init__(
            model=model,
            reward_funcs=[verifier_reward],
            args=args,
            train_dataset=train_dataset,
            processing_class=tokenizer,
            rollout_func=_rollout_func,
            callbacks=callbacks,
        )
        generator = BatchedGenerator(
            lambda: self.accelerator.unwrap_model(self.model),
            tokenizer,
            sampling or SamplingConfig(),
        )
        self.deps: EpisodeDeps = deps_factory(generator, ChatCodec(tokenizer))
        if beta > 0:
            self._set_reference(ref_model, beta)

    def _set_reference(self, ref_model: Any, beta: float) -> None:
        """The k3 KL term of TRL's loss against ``ref_model`` (frozen, eval mode)."""
        from trl.trainer.utils import add_fused_lm_head

        ref_model.eval().requires_grad_(False)
        if self.accelerator.device.type != "cpu":  # the CPU path computes log-probs itself
            add_fused_lm_head(ref_model, temperature=self.temperature)
        self.ref_model = self.accelerator.prepare_model(ref_model, evaluation_mode=True)
        self.beta = beta
        self.args.beta = beta  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ rollouts

    def erpo_rollout(self, prompts: list[Any]) -> dict[str, Any]:
        """TRL's ``rollout_func``: episodes for this process's rows, dynamic sampling, tokens."""
        rows = self._rows
        g = int(self.num_generations or 1)
        if len(rows) != len(prompts) or len(rows) % g:
            raise RuntimeError(f"{len(prompts)} prompts for {len(rows)} rows, group size {g}")
        task_ids = [str(rows[k]["task_id"]) for k in range(0, len(rows), g)]
        for k, tid in enumerate(task_ids):
            if any(str(r["task_id"]) != tid for r in rows[k * g : (k + 1) * g]):
                raise RuntimeError("a generation group mixes tasks")
        self._batch = self._sample(task_ids)
        return self._rollout_output(self._batch)

    def _sample(self, task_ids: list[str]) -> StepBatch:
        """Dynamic sampling over this step's tasks (see :func:`.batch.sample_step`)."""

        def run(ids: list[str], round_index: int) -> list[list[Any]]:
            return self._loop.run_until_complete(self._groups(ids, round_index))

        return sample_step(task_ids, run, sorted(self.pool), self.erpo, self._rng)

    async def _groups(self, task_ids: list[str], round_index: int) -> list[list[Any]]:
        """``num_generations`` concurrent episodes of each task, one list per task."""
        g = int(self.num_generations or 1)
        base = self.args.seed * 1_000_003 + self.state.global_step * 101 + round_index
        jobs = [
            token_episode(
                self.pool[tid],
                episode_seed(base, tid, j),
                self.deps,
                self.episode_config,
                trial=j,
            )
            for tid in task_ids
            for j in range(g)
        ]
        done = await asyncio.gather(*jobs)
        return [list(done[k * g : (k + 1) * g]) for k in range(len(task_ids))]

    @staticmethod
    def _rollout_output(batch: StepBatch) -> dict[str, Any]:
        """TRL's rollout dict: exact tokens, sampling log-probs, ``env_mask`` and extra fields."""
        masks = [
            [0] * len(r.trace.mask) if ex else list(r.trace.mask)
            for r, ex in zip(batch.rollouts, batch.excluded, strict=True)
        ]
        return {
            "prompt_ids": [r.trace.prompt_ids for r in batch.rollouts],
            "completion_ids": [r.trace.completion_ids for r in batch.rollouts],
            "logprobs": [r.trace.logprobs for r in batch.rollouts],
            "env_mask": masks,
            "verifier_reward": [r.reward for r in batch.rollouts],
            "task_id": [r.task_id for r in batch.rollouts],
            "env_id": [r.env_id for r in batch.rollouts],
            "user_error": [r.user_error for r in batch.rollouts],
            "erpo_excluded": list(batch.excluded),
        }

    # ------------------------------------------------------------------ log-probs

    def _get_per_token_logps_and_entropies(
        self,
        model: Any,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        logits_to_keep: int,
        batch_size: int | None = None,
        compute_entropy: bool = False,
        compute_aux_loss: bool = False,
        **multimodal: Any,
    ) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """On CPU, dense logits of the kept positions (TRL's tiled torch fallback of its fused
        LM head ran ~20x slower here); elsewhere TRL's fused kernel."""
        if input_ids.device.type != "cpu" or compute_aux_loss or any(multimodal.values()):
            out: tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None]
            out = super()._get_per_token_logps_and_entropies(
                model, input_ids, attention_mask, logits_to_keep, batch_size,
                compute_entropy, compute_aux_loss, **multimodal,
            )  # fmt: skip
            return out
        step = batch_size or input_ids.size(0)
        logps: list[torch.Tensor] = []
        entropies: list[torch.Tensor] = []
        for start in range(0, input_ids.size(0), step):
            ids = input_ids[start : start + step]
            outputs = model(
                input_ids=ids,
                attention_mask=attention_mask[start : start + step],
                logits_to_keep=logits_to_keep + 1,
            )
            logits = outputs.logits[:, :-1, :].float() / self.temperature
            lse = torch.logsumexp(logits, dim=-1)
            target = ids[:, -logits_to_keep:].unsqueeze(-1)
            logps.append(logits.gather(-1, target).squeeze(-1) - lse)
            if compute_entropy:
                entropies.append(lse - (torch.softmax(logits, dim=-1) * logits).sum(-1))
        ent = torch.cat(entropies) if compute_entropy else None
        return torch.cat(logps), ent, None

    # ------------------------------------------------------------------ advantages

    def _generate_and_score_completions(self, inputs: list[dict[str, Any]]) -> dict[str, Any]:
        self._rows = inputs
        out: dict[str, Any] = super()._generate_and_score_completions(inputs)
        if self._batch is None:
            raise RuntimeError("no rollouts were recorded for this step")
        adv_all, record = self._erpo_advantages(self._batch)
        n_local = len(self._batch.rollouts)
        start = self.accelerator.process_index * n_local
        local = adv_all[start : start + n_local]
        out["advantages"] = torch.tensor(
            local, dtype=torch.float32, device=out["advantages"].device
        )
        self._record(record)
        self.last_batch, self._batch = self._batch, None
        return out

    def _erpo_advantages(self, batch: StepBatch) -> tuple[np.ndarray, dict[str, Any]]:
        """ERPO advantages over the whole generation batch (all processes) and step statistics."""
        from accelerate.utils import gather_object  # type: ignore[import-untyped]

        rollouts = [_Flat(r.task_id, r.env_id, r.reward, r.user_error) for r in batch.rollouts]
        extra, extra_ex = batch.pool_extra()
        flat_extra = [_Flat(r.task_id, r.env_id, r.reward, r.user_error) for r in extra]
        adv, record = step_advantages(
            gather_object(rollouts),
            gather_object(list(batch.excluded)),
            gather_object(list(batch.filler)),
            self.erpo,
            gather_object([r.trace.agent_tokens for r in batch.rollouts]),
            (gather_object(flat_extra), gather_object(list(extra_ex))),
        )
        record = {"step": int(self.state.global_step), **record}
        record["sampling_rounds"] = batch.rounds
        record["dropped_agent_tokens"] = sum(r.trace.dropped_agent_tokens for r in batch.rollouts)
        record["groups_dropped"] = batch.groups_dropped
        self.last_advantages = adv
        return adv, record

    def _record(self, record: dict[str, Any]) -> None:
        """Into TRL's metrics (averaged per logging step) and the JSONL step log."""
        for key, value in record.items():
            if isinstance(value, int | float) and key != "step":
                self._metrics["train"][f"erpo/{key}"].append(float(value))
        self.step_records.append(record)
        if self.step_log is not None and self.accelerator.is_main_process:
            self.step_log.parent.mkdir(parents=True, exist_ok=True)
            with self.step_log.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(record) + "\n")


def _rollout_func(prompts: list[Any], trainer: Any) -> dict[str, Any]:
    return dict(trainer.erpo_rollout(prompts))


def finite(record: Mapping[str, Any]) -> bool:
    """Every numeric value of a step record is finite."""
    return all(math.isfinite(v) for v in record.values() if isinstance(v, int | float))
