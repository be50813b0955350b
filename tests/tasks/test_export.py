"""Exports: the tau2-bench domain layout (compared with the real retail files) and parquet."""

from __future__ import annotations

import builtins
import json
from pathlib import Path
from typing import Any

import pytest

from autoforge.adapters.tau import export_tau2
from autoforge.errors import UserError
from autoforge.tasks.export import export_parquet, parquet_rows, splits


def test_tau2_export_matches_the_real_layout(
    generated: Any, bookstore_env: Any, benchmarks_dir: Path, tmp_path: Path
) -> None:
    tasks, _ = generated
    out = export_tau2(tasks, bookstore_env.spec, tmp_path / "bookstore")
    assert {p.name for p in out.iterdir()} == {
        "db.json",
        "tasks.json",
        "policy.md",
        "split_tasks.json",
    }
    ours = json.loads((out / "tasks.json").read_text())
    real = json.loads((benchmarks_dir / "tau2-bench" / "retail" / "tasks.json").read_text())
    assert len(ours) == len(tasks)
    real_task, our_task = real[0], ours[0]
    upstream = {
        "id",
        "description",
        "user_scenario",
        "ticket",
        "initial_state",
        "evaluation_criteria",
    }
    assert upstream <= set(real_task) and set(our_task) == upstream
    assert set(our_task["evaluation_criteria"]) == set(real_task["evaluation_criteria"])
    assert set(our_task["user_scenario"]) == set(real_task["user_scenario"])
    assert set(our_task["user_scenario"]["instructions"]) == set(
        real_task["user_scenario"]["instructions"]
    )
    assert set(our_task["description"]) == set(real_task["description"])
    real_action = real_task["evaluation_criteria"]["actions"][0]
    for task, entry in zip(tasks, ours, strict=True):
        actions = entry["evaluation_criteria"]["actions"]
        assert all(set(a) == set(real_action) for a in actions)
        assert [a["name"] for a in actions] == [c.name for c in task.gold_calls]
        assert entry["evaluation_criteria"]["communicate_info"] == [
            o.text for o in task.required_outputs
        ]
        assert "DB" in entry["evaluation_criteria"]["reward_basis"]
        # each task carries its own S0; the shared db is the empty skeleton
        assert entry["initial_state"]["initialization_data"]["agent_data"] == task.initial_state
    db = json.loads((out / "db.json").read_text())
    assert db == {c.name: {} for c in bookstore_env.spec.state_schema.collections}
    split = json.loads((out / "split_tasks.json").read_text())
    assert (
        sorted(split["train"] + split["test"])
        == sorted(split["base"])
        == sorted(t.id for t in tasks)
    )
    assert (out / "policy.md").read_text() == bookstore_env.spec.policy
    with pytest.raises(UserError):
        export_tau2([], bookstore_env.spec, tmp_path / "empty")


def test_tau2_shared_state(generated: Any, bookstore_env: Any, tmp_path: Path) -> None:
    task = generated[0][0]
    out = export_tau2([task], bookstore_env.spec, tmp_path)
    assert json.loads((out / "db.json").read_text()) == task.initial_state
    assert json.loads((out / "tasks.json").read_text())[0]["initial_state"] is None


def test_splits_are_stable(generated: Any) -> None:
    tasks = generated[0]
    assert set(splits(tasks)["test"]) == set(splits(list(reversed(tasks)))["test"])
    assert splits(tasks, test_fraction=0.0)["test"] == []


def test_parquet_rows_and_file(generated: Any, tmp_path: Path) -> None:
    tasks = generated[0]
    rows = parquet_rows(tasks, policy="Be nice.")
    assert [r["task_id"] for r in rows] == [t.id for t in tasks]
    first = rows[0]
    assert first["prompt"][0] == {"role": "system", "content": "Be nice."}
    assert first["prompt"][1] == {"role": "user", "content": tasks[0].scenario.question}
    assert {"env_id", "task_id", "agent_name", "extra_info", "prompt"} <= set(first)
    assert first["extra_info"]["final_state_hash"] == tasks[0].final_state_hash
    import pyarrow.parquet as pq

    path = export_parquet(tasks, tmp_path / "train.parquet", policy="Be nice.")
    table = pq.read_table(path)
    assert table.num_rows == len(tasks)
    back = table.to_pylist()
    assert back[0]["prompt"] == first["prompt"] and back[0]["task_id"] == tasks[0].id
    assert json.loads(back[0]["extra_info"]["required_outputs"]) == [
        o.model_dump(mode="json") for o in tasks[0].required_outputs
    ]


def test_parquet_without_pyarrow_is_a_clear_error(
    generated: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_pyarrow(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    with pytest.raises(UserError, match="pyarrow"):
        export_parquet(generated[0], tmp_path / "x.parquet")
