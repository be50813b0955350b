"""The hand-labelled transcript set (``benchmarks/transcripts``) and its scorer: every episode
labelled under the rubric's kinds, the split fixed by the id alone, the confusion counts right."""

from __future__ import annotations

from collections import Counter

import pytest
from transcripts import (
    LABEL_KINDS,
    confusion,
    episode_id,
    load_episodes,
    load_labels,
    load_tasks,
    split_of,
)

from autoforge.rollout.judge import code_verdict
from autoforge.rollout.trajectory import Trajectory


def test_split_is_a_function_of_the_id_alone() -> None:
    ids = [f"shop:shop-{i:04d}:0" for i in range(400)]
    splits = Counter(split_of(i) for i in ids)
    assert set(splits) == {"dev", "held"}
    assert 150 < splits["held"] < 250
    assert [split_of(i) for i in ids] == [split_of(i) for i in ids]


def test_a_tagged_collection_gets_its_own_ids() -> None:
    traj = Trajectory(task_id="shop-1", env_id="shop", trial=2)
    assert episode_id(traj) == "shop:shop-1:2"
    assert episode_id(traj, "loop2") == "loop2/shop:shop-1:2"


def test_confusion_counts_and_rates() -> None:
    pairs = [({"invent_fact"}, {"invent_fact"}), (set(), {"invent_fact"}), ({"stop_early"}, set())]
    row = confusion(pairs, "invent_fact")
    assert (row["tp"], row["fp"], row["fn"], row["tn"]) == (1, 1, 0, 1)
    assert row["precision"] == 0.5 and row["recall"] == 1.0
    anyrow = confusion(pairs, "any")
    assert (anyrow["tp"], anyrow["fp"], anyrow["fn"], anyrow["tn"]) == (1, 1, 1, 0)
    assert confusion([(set(), set())], "stop_early")["precision"] is None


EPISODES = load_episodes()
needs_set = pytest.mark.skipif(not EPISODES, reason="benchmarks/transcripts holds no episodes")


@needs_set
def test_every_episode_is_labelled_under_the_rubric_kinds() -> None:
    labels = load_labels()
    ids = {row["episode"] for row in EPISODES}
    assert set(labels) == ids
    for label in labels.values():
        assert label["labeller"]
        assert isinstance(label["goals_conveyed"], bool)
        for error in label["errors"]:
            assert error["kind"] in LABEL_KINDS
            assert isinstance(error["turn"], int) and error["turn"] >= 0


@needs_set
def test_stored_episodes_replay_through_the_judge() -> None:
    """Each row's split is its id's, its task is stored, and the code rules run on it."""
    tasks = load_tasks()
    for row in EPISODES:
        assert row["split"] == split_of(row["episode"])
        traj = Trajectory.model_validate(row["trajectory"])
        task = tasks[f"{traj.env_id}:{traj.task_id}"]
        assert not any(m.get("role") == "system" for m in traj.messages)
        code_verdict(task, traj, apply=False)


def test_kappa_is_one_for_equal_readers_and_zero_at_chance() -> None:
    from transcripts import _kappa

    assert _kappa([True, False, True, False], [True, False, True, False]) == 1.0
    assert _kappa([True, True, False, False], [True, False, True, False]) == 0.0
