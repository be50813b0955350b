"""Dynamic sampling in verl (0.9.x) under ERPO: flat groups decided on valid rollouts only, and a
bounded number of refills, through verl's own ``ReplayBuffer`` machinery over a fake
TransferQueue whose trajectories are verl ``DataProto`` rows. Needs verl (the CI's second
environment, ``.ci/run``, installs it)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

if os.environ.get("AUTOFORGE_REQUIRE_VERL"):  # CI's verl environment: missing verl is a failure
    import verl
verl = pytest.importorskip(
    "verl", reason="needs the [verl] extra: pip install -e '.[verl]' (see docs/verl.md)"
)
torch = pytest.importorskip("torch", reason="needs the [train] extra: pip install -e '.[train]'")

from omegaconf import OmegaConf  # noqa: E402
from verl import DataProto  # noqa: E402
from verl.trainer.ppo.v1 import replay_buffer as rb  # noqa: E402

from autoforge.rl.verl.sampler import ERPOReplayBuffer  # noqa: E402
from autoforge.rl.verl.trainer import erpo_replay_buffer  # noqa: E402

WIDTH = 4


def trajectory(score: float, valid: bool) -> DataProto:
    """One finished trajectory as the agent loop leaves it: reward on the last token, and an
    all-zero response mask when the rollout is excluded (MEU / infrastructure)."""
    mask = torch.ones(1, WIDTH, dtype=torch.long) * int(valid)
    scores = torch.zeros(1, WIDTH)
    scores[0, -1] = score
    return DataProto.from_dict(tensors={"rm_scores": scores, "response_mask": mask})


class FakeTQ:
    """The part of ``transfer_queue`` the replay buffer uses, over an in-memory dict.

    ``plan(uid_index)`` gives the ``(score, valid)`` rollouts of each prompt; a refill finishes
    its prompts at once."""

    def __init__(self, plan: Any, max_prompts: int = 100) -> None:
        self.plan = plan
        self.max_prompts = max_prompts
        self.store: dict[str, dict[str, Any]] = {}
        self.values: dict[str, DataProto] = {}
        self.prompts = 0

    def submit(self, n: int) -> int:
        if self.prompts + n > self.max_prompts:
            raise RuntimeError(f"unbounded refill: {self.prompts + n} prompts")
        for _ in range(n):
            uid = f"u{self.prompts}"
            self.store[uid] = {"is_prompt": True, "status": "finished", "global_steps": 0}
            for j, (score, valid) in enumerate(self.plan(self.prompts)):
                self.store[f"{uid}_{j}_0"] = {"status": "finished"}
                self.values[f"{uid}_{j}_0"] = trajectory(score, valid)
            self.prompts += 1
        return n

    def kv_list(self) -> dict[str, dict[str, Any]]:
        return {"train": dict(self.store)}

    def kv_batch_get(self, keys: list[str], partition_id: str, select_fields: list[str]) -> Any:
        batch = DataProto.concat([self.values[k] for k in keys]).batch
        return {f: list(batch[f]) for f in select_fields}

    def kv_clear(self, partition_id: str, keys: list[str]) -> None:
        for key in keys:
            self.store.pop(key, None)


def buffer(tq: FakeTQ, monkeypatch: pytest.MonkeyPatch, batch: int) -> rb.ReplayBuffer:
    """verl's synchronous replay buffer, DAPO on, as verl's trainer builds it."""
    monkeypatch.setattr(rb, "tq", tq)
    return rb.ReplayBuffer(
        trainer_mode="sync", trainer_config=OmegaConf.create({}), max_off_policy_threshold=None,
        max_off_policy_strategy="drop", sampler_kwargs=OmegaConf.create({}), poll_interval=0.0,
        refill_fn=tq.submit, filter_groups_metric="reward", train_batch_size=batch,
        gen_batch_size=1, max_inflight_gen_batches=1,
    )  # fmt: skip


def erpo(base: rb.ReplayBuffer, rounds: int) -> rb.ReplayBuffer:
    config = OmegaConf.create({"algorithm": {"filter_groups": {"max_num_gen_batches": rounds}}})
    out = erpo_replay_buffer(base, config)
    assert isinstance(out, ERPOReplayBuffer)
    return out


# (score, valid) per rollout; a False is a rollout the agent loop excluded (reward 0, no mask)
GROUPS = {
    0: [(1.0, True), (1.0, True), (0.0, False)],  # flat among valid: verl keeps it
    1: [(1.0, True), (0.0, True), (0.0, False)],  # informative
    2: [(0.0, True), (0.0, True), (1.0, False)],  # flat among valid: verl keeps it
    3: [(1.0, True), (0.0, False), (0.0, False)],  # one valid rollout: no signal
    4: [(0.0, True), (0.0, True), (0.0, True)],  # flat for both
}


def test_flat_groups_are_decided_on_valid_rollouts_only(monkeypatch: pytest.MonkeyPatch) -> None:
    tq = FakeTQ(lambda i: GROUPS[i])
    base = buffer(tq, monkeypatch, batch=5)
    tq.submit(5)
    base._sync_metadata_from_transfer_queue()
    verl_flat, _ = base._dapo_filtered_keys("train")
    assert verl_flat == {"u4"}  # verl's rule counts the excluded rollouts' zeros
    ours = erpo(buffer(tq, monkeypatch, batch=5), rounds=3)
    ours._batch_size = 5
    ours._sync_metadata_from_transfer_queue()
    flat, counts = ours._dapo_filtered_keys("train")
    assert flat == {"u0", "u2", "u3", "u4"}
    assert counts == {1.0: 2, 0.0: 2}


def test_refills_are_bounded_and_the_batch_still_fills(monkeypatch: pytest.MonkeyPatch) -> None:
    def plan(i: int) -> list[tuple[float, bool]]:  # every group is flat
        return [(1.0, True), (1.0, True)]

    tq = FakeTQ(plan, max_prompts=40)
    base = buffer(tq, monkeypatch, batch=4)
    tq.submit(4)
    with pytest.raises(RuntimeError, match="unbounded refill"):
        base.sample(global_steps=1, partition_id="train", batch_size=4)  # verl never stops

    tq = FakeTQ(plan, max_prompts=40)
    ours = erpo(buffer(tq, monkeypatch, batch=4), rounds=3)
    tq.submit(4)
    meta, metrics = ours.sample(global_steps=1, partition_id="train", batch_size=4)
    assert ours.refills <= 2 * 4 + 4  # (rounds - 1) x batch filtered, then one filling batch
    assert metrics["training/filter_groups/refill_prompts"] == ours.refills
    assert len({k.split("_")[0] for k in meta.keys}) == 4 and len(meta.keys) == 8


def test_informative_groups_need_no_refill(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(0)

    def plan(i: int) -> list[tuple[float, bool]]:
        return [(1.0, True), (0.0, True), (float(rng.integers(2)), bool(rng.integers(2)))]

    tq = FakeTQ(plan)
    ours = erpo(buffer(tq, monkeypatch, batch=3), rounds=2)
    tq.submit(3)
    meta, _ = ours.sample(global_steps=1, partition_id="train", batch_size=3)
    assert ours.refills == 0 and len(meta.keys) == 9


def test_a_non_reward_metric_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    tq = FakeTQ(lambda i: GROUPS[0])
    base = buffer(tq, monkeypatch, batch=2)
    base.filter_groups_metric = "acc"
    with pytest.raises(ValueError, match=r"filter_groups\.metric=reward"):
        ERPOReplayBuffer.from_buffer(base, 3)
