"""The ``autoforge_erpo`` trainer mode: verl's synchronous v1 trainer with env-carrying uids.

verl gives an advantage estimator only ``uid`` per sample. This subclass overrides one method,
``_fetch_one_gen_batch``, to write each prompt's uid as ``env_uid(env_id, task_id, nonce)``
(the ids come from the dataset's ``env_id``/``task_id`` columns, or ``extra_info``, as
``autoforge tasks export --format parquet`` writes them), and it builds
:class:`~autoforge.rl.verl.sampler.ERPOReplayBuffer` (dynamic sampling on valid rollouts only,
bounded refills) where verl would build its synchronous ``ReplayBuffer``; everything else is
verl's.
Selected with ``trainer.v1.trainer_mode=autoforge_erpo``; importing this module registers it.
"""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
from verl.trainer.ppo.v1.replay_buffer import ReplayBuffer
from verl.trainer.ppo.v1.trainer_base import register_trainer
from verl.trainer.ppo.v1.trainer_sync import PPOTrainerSync
from verl.utils import tensordict_utils as tu

from autoforge.rl.verl.estimator import env_uid
from autoforge.rl.verl.sampler import ERPOReplayBuffer

TRAINER_MODE = "autoforge_erpo"


def _column(batch: dict[str, Any], key: str, n: int) -> list[str]:
    """A per-row id from a top-level column, else from ``extra_info``, else ``""``."""
    if key in batch:
        return [str(v) for v in batch[key]]
    infos = batch.get("extra_info")
    if infos is None:
        return [""] * n
    return [str((info or {}).get(key, "")) for info in infos]


def env_uids(batch: dict[str, Any]) -> np.ndarray:
    """The uids of a dataloader batch, one per prompt, carrying env and task ids."""
    n = len(batch["raw_prompt"])
    envs, tasks = _column(batch, "env_id", n), _column(batch, "task_id", n)
    return np.array(
        [env_uid(e, t, uuid.uuid4().hex) for e, t in zip(envs, tasks, strict=True)], dtype=object
    )


def erpo_replay_buffer(buffer: Any, config: Any) -> Any:
    """verl's synchronous buffer as an :class:`ERPOReplayBuffer` (others are left alone)."""
    if type(buffer) is not ReplayBuffer:  # a custom sampler, or the async buffer
        return buffer
    groups = config.algorithm.get("filter_groups", None) or {}
    return ERPOReplayBuffer.from_buffer(buffer, int(groups.get("max_num_gen_batches", 0) or 0))


@register_trainer(TRAINER_MODE)
class AutoforgeERPOTrainer(PPOTrainerSync):
    """``PPOTrainerSync`` whose prompt uids carry the environment id and whose replay buffer
    filters on valid rollouts with bounded refills (see module docstring)."""

    def _build_replay_buffer(self) -> Any:
        return erpo_replay_buffer(super()._build_replay_buffer(), self.config)

    def _fetch_one_gen_batch(self) -> Any:
        it = getattr(self, "train_dataloader_it", None) or iter(self.train_dataloader)
        try:
            batch_dict = next(it)
        except StopIteration:
            it = iter(self.train_dataloader)
            batch_dict = next(it)
        self.train_dataloader_it = it
        batch_dict["uid"] = env_uids(batch_dict)
        return tu.get_tensordict(batch_dict)
