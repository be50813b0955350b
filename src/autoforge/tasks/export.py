"""Export of a task set as a verl/HF parquet file, and the stable train/test split of task ids.

**parquet** (``export_parquet(tasks, path)``): one row per task with ``prompt`` (chat messages),
``env_id``, ``task_id``, ``agent_name``, ``data_source``, ``reward_model`` and ``extra_info``,
the layout verl's RL datasets read (also loadable with HF ``datasets``). Needs ``pyarrow``
(``pip install 'autoforge[parquet]'``). Benchmark layouts (tau2-bench) are written by their
adapter (:mod:`autoforge.adapters.tau`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from autoforge.errors import UserError, install_hint
from autoforge.tasks.model import Task


def _split(task_id: str, test_fraction: float) -> str:
    bucket = int(hashlib.sha256(task_id.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return "test" if bucket < test_fraction else "train"


def splits(tasks: Sequence[Task], test_fraction: float = 0.2) -> dict[str, list[str]]:
    """``{"train": [...], "test": [...], "base": [...]}``, stable per task id (hash buckets)."""
    out: dict[str, list[str]] = {"train": [], "test": [], "base": []}
    for task in tasks:
        out[_split(task.id, test_fraction)].append(task.id)
        out["base"].append(task.id)
    return out


def prompt_messages(task: Task, policy: str = "") -> list[dict[str, str]]:
    """The chat prompt of a task: the policy (with the task's session context) as system
    message, the user's question."""
    system = task.with_session(policy or f"You are a helpful agent of the {task.env_id} service.")
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": task.scenario.question},
    ]


def parquet_rows(
    tasks: Sequence[Task],
    policy: str = "",
    agent_name: str = "tool_agent",
    test_fraction: float = 0.2,
) -> list[dict[str, Any]]:
    """The rows :func:`export_parquet` writes (plain dicts; JSON-heavy fields as strings)."""
    return [
        {
            "data_source": f"autoforge/{task.env_id}",
            "prompt": prompt_messages(task, policy),
            "env_id": task.env_id,
            "task_id": task.id,
            "agent_name": agent_name,
            "ability": "tool_use",
            "reward_model": {"style": "rule", "ground_truth": task.final_state_hash},
            "extra_info": {
                "index": i,
                "task_id": task.id,
                "env_id": task.env_id,
                "split": _split(task.id, test_fraction),
                "initial_state_hash": task.initial_state_hash,
                "final_state_hash": task.final_state_hash,
                "required_outputs": json.dumps(
                    [o.model_dump(mode="json") for o in task.required_outputs]
                ),
                "difficulty": json.dumps(task.difficulty.model_dump()),
            },
        }
        for i, task in enumerate(tasks)
    ]


def export_parquet(
    tasks: Sequence[Task], path: str | Path, policy: str = "", agent_name: str = "tool_agent"
) -> Path:
    """Write one parquet row per task (see :func:`parquet_rows`); needs pyarrow."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise UserError("parquet export needs pyarrow: " + install_hint("parquet")) from None
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist(parquet_rows(tasks, policy, agent_name))
    pq.write_table(table, target)
    return target
