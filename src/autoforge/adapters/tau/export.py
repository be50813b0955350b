"""Export of a task set in the tau2-bench domain layout.

``export_tau2(tasks, env_spec, out_dir)`` writes ``tasks.json`` (tau2 ``Task`` objects: ``id``,
``description``, ``user_scenario`` with tau2's ``instructions`` fields, ``ticket``,
``initial_state``, ``evaluation_criteria`` with ``actions``, ``communicate_info`` and
``reward_basis``), ``db.json``, ``policy.md`` and ``split_tasks.json``. When all tasks share one
S0, ``db.json`` is that state and each task's ``initial_state`` is null. Otherwise ``db.json``
holds the empty collections and each task carries its full S0 as
``initial_state.initialization_data.agent_data``, which tau2 merges into the (empty) database,
so every task starts from exactly its own S0. A task's session user (who is signed in, told to
the agent in autoforge's own runners) goes into the user's ``known_info``: tau2 has no per-task
context for the agent.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from autoforge.env import EnvironmentSpec
from autoforge.errors import UserError
from autoforge.tasks import Task, splits


def tau2_task(task: Task, domain: str, shared_state: bool) -> dict[str, Any]:
    """One task as a tau2-bench ``Task`` object."""
    actions = [
        {
            "action_id": f"{task.id}_{i}",
            "requestor": "assistant",
            "name": call.name,
            "arguments": call.arguments,
            "info": None,
            "compare_args": None,
        }
        for i, call in enumerate(task.gold_calls)
    ]
    communicate = [out.text for out in task.required_outputs]
    initial = None
    if not shared_state:
        initial = {
            "initialization_data": {"agent_data": task.initial_state, "user_data": None},
            "initialization_actions": None,
            "message_history": None,
        }
    scenario = task.scenario
    return {
        "id": task.id,
        "description": {
            "purpose": scenario.intent,
            "relevant_policies": None,
            "notes": f"autoforge task; difficulty {task.difficulty.model_dump()}",
        },
        "user_scenario": {
            "persona": scenario.persona,
            "instructions": {
                "domain": domain,
                "reason_for_call": scenario.question,
                "known_info": _known_info(task),
                "unknown_info": scenario.unknown_info,
                "task_instructions": scenario.intent,
            },
        },
        "ticket": None,
        "initial_state": initial,
        "evaluation_criteria": {
            "actions": actions,
            "env_assertions": None,
            "communicate_info": communicate,
            "nl_assertions": None,
            "reward_basis": ["DB", "COMMUNICATE"] if communicate else ["DB"],
        },
    }


def _known_info(task: Task) -> str:
    """The user's facts, plus the session user's key where the task has one: tau2 gives the
    agent no per-task context (the forged environment tells the agent who is signed in), so in
    the export the user holds it and gives it when asked, as tau2 airline's users do."""
    info = task.scenario.known_info
    if not task.session:
        return info
    keys = ", ".join(f"{k} {v}" for k, v in task.session.items())
    signed = f"You are signed in to your account ({keys}); give it if you are asked."
    return f"{info} {signed}".strip()


def export_tau2(
    tasks: Sequence[Task], spec: EnvironmentSpec, out_dir: str | Path, test_fraction: float = 0.2
) -> Path:
    """Write the tau2-bench domain files for ``tasks`` into ``out_dir``; returns ``out_dir``."""
    if not tasks:
        raise UserError("no tasks to export")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    shared = len({t.initial_state_hash for t in tasks}) == 1
    db = tasks[0].initial_state if shared else {c.name: {} for c in spec.state_schema.collections}
    _write_json(out / "db.json", db)
    _write_json(out / "tasks.json", [tau2_task(t, spec.name, shared) for t in tasks])
    _write_json(out / "split_tasks.json", splits(tasks, test_fraction))
    (out / "policy.md").write_text(spec.policy or f"# {spec.name}\n\n{spec.description}\n")
    return out


def _write_json(path: Path, value: Any) -> None:
    path.write_text(json.dumps(value, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
