"""Faults written into finished transcripts: recorded, and found (or not) by the code rules."""

from __future__ import annotations

import random

from lab.transcript_faults import fact_alternatives, inject
from test_goals import bookstore_task  # type: ignore[import-not-found]

from autoforge.rollout.judge import code_verdict
from autoforge.rollout.trajectory import EndReason, Trajectory
from autoforge.tasks.model import Task

QUESTION = "Can you tell me the shipping fee of order ORD-4722?"
REVIEW = "Please add a review for book B-7, rating 5. It is for my cousin Ann."


def word_task(name: str = "Ann") -> Task:
    task = bookstore_task()
    return task.model_copy(update={"user_facts": {**task.user_facts, "name": name}})


def played() -> Trajectory:
    messages = [
        {"role": "system", "content": "policy"},
        {"role": "assistant", "content": "Hi! How can I help?"},
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": "Which book would you like to review?"},
        {"role": "user", "content": REVIEW},
        {"role": "assistant", "content": "Done. The fee is 4.99."},
    ]
    return Trajectory(task_id="t", messages=messages, end_reason=EndReason.USER_STOP)


def rules(task: Task, traj: Trajectory) -> list[str]:
    return code_verdict(task, traj, apply=False).rules


def test_a_clean_transcript_fires_no_rule() -> None:
    assert rules(word_task(), played()) == []


def test_each_kind_is_recorded_and_the_original_is_untouched() -> None:
    task, traj = word_task(), played()
    alternatives = fact_alternatives([task, word_task("Bea")])
    expected = {
        "change_fact": ["contradicted_fact"],
        "invent_fact": ["invented_identifier"],
        "drop_goal": ["goal_unsaid"],
        "stop_early": ["stopped_early"],
        # a name no message or fact holds, where the one name-valued fact goes unsaid
        "contradict_words": ["contradicted_fact"],
    }
    for kind, fired in expected.items():
        faulted = inject(kind, task, traj, random.Random(0), alternatives)  # type: ignore[arg-type]
        assert faulted is not None, kind
        assert [f.kind for f in faulted.faults] == [kind]
        assert rules(task, faulted) == fired, kind
    assert traj.faults == [] and traj.messages == played().messages


def test_contradict_words_says_another_value_of_the_same_fact() -> None:
    task = word_task()
    faulted = inject("contradict_words", task, played(), random.Random(0), {"name": ["Ann", "Bea"]})
    assert faulted is not None
    assert "my cousin Bea" in faulted.messages[4]["content"]
    assert faulted.faults[0].detail == "name: 'Ann' said as 'Bea'"


def test_no_place_for_a_fault_gives_none() -> None:
    task, traj = word_task(), played()
    assert inject("contradict_words", task, traj, random.Random(0), {}) is None
    quiet = traj.model_copy(update={"end_reason": EndReason.AGENT_STOP})
    assert inject("drop_goal", task, quiet, random.Random(0)) is None
    no_question = traj.model_copy(deep=True)
    for i in (1, 3):  # the greeting is a question too ("How can I help?")
        no_question.messages[i] = {"role": "assistant", "content": "Sure."}
    assert inject("stop_early", task, no_question, random.Random(0)) is None
