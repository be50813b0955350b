"""The one task model: its rollout view, the version 1 migration, and ``read_tasks``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.tasks.difficulty import DifficultyMetrics
from autoforge.tasks.model import (
    TASK_SCHEMA_VERSION,
    RequiredOutput,
    Task,
    TaskSet,
    TaskSetError,
    UserScenario,
    read_tasks,
    task_line,
)

#: A line of the former rollout record (``rollout.task.TaskSpec``, schema version 1).
V1_RECORD = {
    "schema_version": 1,
    "id": "t1",
    "env_id": "bookstore",
    "scenario": "Cancel order ORD-1.",
    "user_known_facts": {"order_id": "ORD-1"},
    "initial_state": None,
    "gold_state_hash": "g" * 64,
    "required_outputs": ["19.90", "Dune"],
    "domain": "books",
    "difficulty": "hard",
    "criteria": {
        "reward_basis": ["DB", "ACTION"],
        "actions": [{"name": "cancel_order", "arguments": {"order_id": "ORD-1"}}],
        "output_alternatives": {"19.90": ["19.9"]},
        "gold_user_state_hash": None,
    },
}


def synthesized(task: Task) -> Task:
    """A synthesized-looking task: identity, scenario parts, outputs with alternatives."""
    return task.model_copy(
        update={
            "scenario": UserScenario(
                intent="Buy a book", question="Can I order Dune?", unknown_info="the price"
            ),
            "user_facts": {"user_id": "u1", "budget": 30},
            "user_identity": {"email": "u1@example.com", "user_id": "other"},
            "required_outputs": [RequiredOutput(text="19.90", alternatives=["19.9"])],
            "difficulty": DifficultyMetrics(tool_calls=1, distinct_tools=1),
        }
    )


def test_rollout_view_of_a_synthesized_task(generated: Any) -> None:
    task = synthesized(generated[0][0])
    assert task.known_facts() == {"user_id": "u1", "budget": "30", "email": "u1@example.com"}
    text = task.scenario.as_text()
    assert "Can I order Dune?" in text and "the price" in text and "Buy a book" in text
    assert task.scenario.opening() == "Can I order Dune?"
    assert task.difficulty_level() == task.difficulty.level()
    assert task.required_outputs[0].found_in("that is 19.9 dollars")


def test_version_1_rollout_record_migrates() -> None:
    task = Task.model_validate(V1_RECORD)
    assert task.schema_version == TASK_SCHEMA_VERSION
    assert task.final_state_hash == "g" * 64 and task.user_facts == {"order_id": "ORD-1"}
    assert [(c.name, c.arguments, c.writes) for c in task.gold_calls] == [
        ("cancel_order", {"order_id": "ORD-1"}, None)
    ]
    assert [(o.text, o.alternatives) for o in task.required_outputs] == [
        ("19.90", ["19.9"]),
        ("Dune", []),
    ]
    assert task.scenario.as_text() == task.scenario.opening() == "Cancel order ORD-1."
    assert task.criteria.reward_basis == ["DB", "ACTION"] and task.blueprint is None
    assert task.difficulty_level() == "hard" and task.domain == "books"
    # written back, it is a version 2 record that reads the same
    assert Task.model_validate_json(task.model_dump_json()) == task


def test_version_1_rollout_record_with_its_defaults_dumped() -> None:
    # the former record wrote every field: null difficulty, domain and criteria included
    dumped = {**V1_RECORD, "difficulty": None, "domain": None, "criteria": None}
    task = Task.model_validate(dumped)
    assert task.difficulty_level() is None and task.domain is None and task.gold_calls == []
    assert task.criteria.reward_basis == ["DB", "COMMUNICATE"]
    assert [o.text for o in task.required_outputs] == ["19.90", "Dune"]


def test_version_1_synthesized_line_reads_and_round_trips(generated: Any) -> None:
    task = generated[0][0]
    old = json.loads(task_line(task))
    old["schema_version"] = 1
    for key in ("criteria", "domain"):  # version 1 synthesized tasks had neither
        del old[key]
    again = Task.model_validate(old)
    assert again.model_copy(update={"schema_version": task.schema_version}) == task


def test_old_names_in_a_version_2_record_are_refused() -> None:
    record = {**V1_RECORD, "schema_version": TASK_SCHEMA_VERSION, "criteria": {}}
    with pytest.raises(ValueError, match="gold_state_hash"):
        Task.model_validate(record)
    moved = {"id": "t", "env_id": "e", "scenario": "s", "criteria": {"actions": []}}
    with pytest.raises(ValueError, match="actions"):  # gold actions live in gold_calls now
        Task.model_validate({**moved, "schema_version": TASK_SCHEMA_VERSION})


def test_read_tasks_drops_a_cut_off_last_line(tmp_path: Path, generated: Any) -> None:
    tasks = generated[0][:2]
    path = tmp_path / "tasks.jsonl"
    path.write_text(task_line(tasks[0]) + json.dumps(V1_RECORD) + "\n" + task_line(tasks[1])[:50])
    got = read_tasks(path)
    assert [t.id for t in got] == [tasks[0].id, "t1"]
    TaskSet(path).append([tasks[1]])  # the cut-off line is replaced, not glued onto
    assert [t.id for t in read_tasks(path)] == [tasks[0].id, "t1", tasks[1].id]


def test_read_tasks_names_file_and_line(tmp_path: Path, generated: Any) -> None:
    path = tmp_path / "bad.jsonl"
    good = task_line(generated[0][0])
    path.write_text(good + "{not json\n")
    with pytest.raises(TaskSetError, match=r"bad\.jsonl:2: not JSON"):
        read_tasks(path)
    path.write_text(good + "\n" + json.dumps({"id": "x", "env_id": "e"}) + "\n")
    with pytest.raises(TaskSetError, match=r"bad\.jsonl:3: scenario: Field required"):
        read_tasks(path)
    with pytest.raises(TaskSetError, match="tasks file not found"):
        read_tasks(tmp_path / "missing.jsonl")
    assert TaskSet(tmp_path / "missing.jsonl").load() == []


def test_the_session_reaches_the_agent_through_every_runner(bookstore_env: Any) -> None:
    """A task's session context (who is signed in) is appended to the agent's system text by
    ``Task.with_session``, which ``bind_environment`` (eval, TRL, verl), ``serve`` and the
    parquet export use; a task without one leaves the policy as it is."""
    from autoforge.rollout import bind_environment
    from autoforge.tasks.export import prompt_messages

    plain = Task(id="t", env_id="bookstore", scenario=UserScenario(question="Hi"))
    signed = plain.model_copy(update={"session": {"user_id": "U7"}})
    assert plain.with_session("POLICY") == "POLICY"
    assert signed.with_session("POLICY").startswith("POLICY\n\n# Session")
    assert "- user_id: U7" in signed.with_session("")
    binding = bind_environment(bookstore_env, signed)
    assert binding.policy == signed.with_session(bookstore_env.spec.policy)
    assert "U7" in binding.policy and "U7" not in bind_environment(bookstore_env, plain).policy
    assert "U7" in prompt_messages(signed, "POLICY")[0]["content"]
    line = json.loads(task_line(signed))
    assert Task.model_validate(line).session == {"user_id": "U7"}
