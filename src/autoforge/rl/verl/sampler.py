"""Dynamic sampling for verl's v1 trainer with ERPO's exclusions and a bounded number of refills.

verl's built-in filter (``algorithm.filter_groups``, in its v1 ``ReplayBuffer``) calls a group
flat when the ``rm_scores`` of *all* its trajectories are equal, and refills evicted groups until
the batch is full, however long that takes. Under ERPO that is wrong twice: rollouts excluded by
the MEU judge or by an infrastructure failure (whole ``response_mask`` zero, reward 0, see
:mod:`.episode`) still vote, so a group flat among its valid rollouts passes and an informative
one can be evicted; and a step whose tasks are all solved (or all failed) never ends.

:class:`ERPOReplayBuffer` keeps verl's replay buffer and changes exactly these two things:

* flatness is decided by :func:`flat_groups` on the valid rollouts only (a group with fewer than
  two valid rollouts carries no signal and is evicted too), the rule of
  :func:`autoforge.rl.informative_mask`;
* refills are bounded: while fewer than ``(max_gen_batches - 1) x batch_size`` refill prompts
  have been dispatched in the step, flat groups are evicted and refilled; after that the filter
  is off, groups are kept as they finish (flat ones carry advantage 0, DAPO's short batch), and
  refills only fill the batch. ``max_gen_batches`` is verl's own
  ``algorithm.filter_groups.max_num_gen_batches`` (which verl's v1 buffer ignores);
  ``autoforge train --backend verl`` sets it from ``ERPOConfig.max_sampling_rounds``. 0 means
  unbounded, verl's behaviour.

The ``autoforge_erpo`` trainer mode builds this buffer in place of verl's (see :mod:`.trainer`).
Importing this module needs verl.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from verl.trainer.ppo.v1 import replay_buffer as _rb
from verl.trainer.ppo.v1.replay_buffer import ReplayBuffer
from verl.utils.skip import SkipManager

from autoforge.rl.sampling import RolloutGroup, keep_groups

REWARD_METRIC = _rb.FILTER_GROUPS_REWARD_METRIC


def flat_groups(
    uids: Sequence[str], scores: Sequence[float], valid: Sequence[bool]
) -> dict[str, float | None]:
    """Per group uid: the shared score of its valid rollouts when the group is flat, else None.

    ``uids[k]``, ``scores[k]``, ``valid[k]`` describe trajectory ``k``. Flat = fewer than two
    valid rollouts, or all valid scores equal; the value is the valid rollouts' score (0.0 when
    none is valid), verl's per-value eviction statistic.
    """
    members: dict[str, list[int]] = {u: [] for u in dict.fromkeys(uids)}
    for k, u in enumerate(uids):
        members[u].append(k)
    groups = [
        RolloutGroup(u, "", [float(scores[k]) for k in ks], [not valid[k] for k in ks])
        for u, ks in members.items()
    ]
    keep = keep_groups(groups, mask_user_errors=True)
    out: dict[str, float | None] = {}
    for group, informative in zip(groups, keep, strict=True):
        firsts = [r for r, bad in zip(group.rewards, group.flags, strict=True) if not bad]
        out[group.task_id] = None if informative else (firsts[0] if firsts else 0.0)
    return out


class ERPOReplayBuffer(ReplayBuffer):
    """verl's synchronous ``ReplayBuffer`` with valid-only flatness and bounded refills."""

    max_gen_batches: int = 0
    refills: int = 0  # refill prompts dispatched in the current step
    _batch_size: int = 0

    @classmethod
    def from_buffer(cls, buffer: ReplayBuffer, max_gen_batches: int) -> ERPOReplayBuffer:
        """This class over the state of a buffer verl built (its constructor stays verl's)."""
        if buffer.filter_groups_metric not in (None, REWARD_METRIC):
            raise ValueError(
                "autoforge_erpo decides flat groups on the verifier reward: set "
                f"algorithm.filter_groups.metric={REWARD_METRIC} "
                f"(got {buffer.filter_groups_metric!r})"
            )
        out = cls.__new__(cls)
        out.__dict__.update(buffer.__dict__)
        out.max_gen_batches = max(0, int(max_gen_batches))
        out.refills = 0
        return out

    def refill_budget(self, batch_size: int) -> int | None:
        """Refill prompts per step while the filter is on; None = unbounded."""
        if self.max_gen_batches <= 0:
            return None
        return (self.max_gen_batches - 1) * batch_size

    def filtering(self, batch_size: int) -> bool:
        """Whether flat groups are still evicted in this step."""
        budget = self.refill_budget(batch_size)
        return budget is None or self.refills < budget

    def _dapo_filtered_keys(self, partition_id: str) -> tuple[set[str], Counter]:
        if partition_id == "val" or self.filter_groups_metric is None:
            return set(), Counter()
        if not self.filtering(self._batch_size):
            return set(), Counter()
        finished = self.finished_keys[partition_id]
        cache = self._dapo_classification_cache[partition_id]
        for uid in cache.keys() - finished:
            del cache[uid]
        new = finished - cache.keys()
        keys = [k for k in self.partitions[partition_id] if k.split("_")[0] in new]
        if keys:
            data = _rb.tq.kv_batch_get(
                keys=keys, partition_id=partition_id, select_fields=["rm_scores", "response_mask"]
            )
            scores = [float(v.sum().item()) for v in data["rm_scores"]]
            valid = [bool(m.sum().item() > 0) for m in data["response_mask"]]
            cache.update(flat_groups([k.split("_")[0] for k in keys], scores, valid))
        flat = {uid: value for uid, value in cache.items() if value is not None}
        return set(flat), Counter(flat.values())

    def sample(self, global_steps: int, partition_id: str, batch_size: int) -> tuple[Any, dict]:
        """verl's sample, with the bounded ERPO loop when dynamic sampling is on."""
        if partition_id == "val" or self.filter_groups_metric is None:
            return super().sample(global_steps, partition_id, batch_size)
        return self._sample_erpo(global_steps, partition_id, batch_size)

    @SkipManager.annotate_tq(role="rollout_tq", phase="sample")
    def _sample_erpo(self, global_steps: int, partition_id: str, batch_size: int) -> Any:
        self.refills = 0
        self._batch_size = batch_size
        metrics: dict = {}
        last_debug = time.time()
        while True:
            self._sync_metadata_from_transfer_queue()
            reasons = self._terminal_eviction_reasons(global_steps, partition_id)
            evicted, stale, _, new_metrics = self._evict_terminal_groups(
                global_steps, partition_id, reasons
            )
            if evicted:
                _rb._accumulate_eviction_metrics(metrics, new_metrics, stale)
            sampleable = self._sampleable_terminal_keys(partition_id, reasons)
            inflight = len(self.pending_keys[partition_id]) + len(self.running_keys[partition_id])
            need = batch_size - len(sampleable) - inflight
            if need > 0:
                self._refill(need, batch_size)
                continue
            if len(sampleable) >= batch_size and inflight == 0:
                break
            last_debug = self._wait_for_next_poll(partition_id, last_debug)
        selected, snapshot, _ = self._select_prompt_uids(partition_id, sampleable, batch_size)
        surplus = sampleable - set(selected)
        if surplus:
            self._clear_groups(partition_id, surplus)
            key = f"{self._metrics_prefix(partition_id)}/filter_groups/discarded_surplus_samples"
            metrics[key] = metrics.get(key, 0) + len(surplus)
        metrics[f"{self._metrics_prefix(partition_id)}/filter_groups/refill_prompts"] = self.refills
        return self._materialize_batch(partition_id, selected, snapshot), metrics

    def _refill(self, need: int, batch_size: int) -> None:
        """Dispatch ``need`` prompts, no more than the filter's budget while it is on."""
        budget = self.refill_budget(batch_size)
        if budget is not None and self.refills < budget:
            need = min(need, budget - self.refills)
        assert self.refill_fn is not None
        self.refill_fn(need)
        self.refills += need
