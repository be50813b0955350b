"""The tau-bench / tau2-bench reader of :mod:`autoforge.synth.fidelity.bench`: a domain directory's
``db.json``, ``tasks.json``, ``gt_replay.json`` (and ``tools_meta.json``, ``tools.json``,
``splits.json``) as the :class:`~autoforge.synth.fidelity.bench.Bench` recording the fidelity replay
compares against.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from autoforge.adapters.tau.replay_formats import per_task_states, rekey_diff
from autoforge.errors import UserError
from autoforge.synth import (
    NO_OUTPUT,
    Bench,
    BenchAction,
    BenchTask,
    FidelityReport,
    data_to_state,
    run_fidelity,
)


def _read_json(path: Path) -> Any:
    if not path.is_file():
        raise UserError(
            f"{path} not found: a benchmark dir needs db.json, tasks.json, gt_replay.json"
        )
    return json.loads(path.read_text(encoding="utf-8"))


def _task_actions(task: Mapping[str, Any]) -> list[dict[str, Any]]:
    crit = task.get("evaluation_criteria") or {}
    actions = crit.get("actions") if isinstance(crit, Mapping) else None
    return list(actions if actions is not None else task.get("actions") or [])


def split_ids(path: Path, split: str | None) -> tuple[str, set[str] | None]:
    """The task ids of ``split`` in ``path/splits.json``.

    ``None`` picks ``test`` when the file has one (so a reported figure is on held-out tasks),
    else every task; ``"all"`` is every task. An unknown split is a :class:`UserError`.
    """
    file = path / "splits.json"
    splits = json.loads(file.read_text(encoding="utf-8")) if file.is_file() else {}
    if split is None:
        split = "test" if "test" in splits else "all"
    if split == "all":
        return "all", None
    if split not in splits:
        have = ", ".join(sorted(splits)) or "none (no splits.json)"
        raise UserError(f"--split {split!r}: {path} has splits {have}; or use --split all")
    return split, {str(i) for i in splits[split]}


def _bench_action(raw: Mapping[str, Any], result: Mapping[str, Any] | None) -> BenchAction:
    return BenchAction(
        name=str(raw["name"]),
        arguments=dict(raw.get("arguments") or {}),
        oracle_error=bool((result or {}).get("error")),
        oracle_output=(result or {}).get("observation", NO_OUTPUT),
    )


def _agent_setup(task: Mapping[str, Any], tools: set[str]) -> list[BenchAction] | None:
    """The agent-side initialisation calls of ``task`` when every one is an agent tool (the
    user-side ones are left out); ``None`` when the agent's start state cannot be rebuilt."""
    init = task.get("initial_state") or {}
    if not isinstance(init, Mapping) or init.get("initialization_data"):
        return None
    steps = [s for s in init.get("initialization_actions") or [] if s.get("env_type") != "user"]
    if any(s.get("func_name") not in tools for s in steps):
        return None
    return [
        BenchAction(
            name=str(s["func_name"]), arguments=dict(s.get("arguments") or {}), oracle_error=False
        )
        for s in steps
    ]


def _skip_reason(raw: Mapping[str, Any], oracle: Any, agent_side: bool, tools: set[str]) -> str:
    acts = _task_actions(raw)
    if oracle is None:
        return "no oracle replay"
    if raw.get("initial_state") and not (agent_side and _agent_setup(raw, tools) is not None):
        return "task has its own initial state"
    if not agent_side and any(a.get("requestor") not in (None, "assistant") for a in acts):
        return "user-side actions"
    return ""


def _load_task(
    raw: Mapping[str, Any],
    oracle: Any,
    agent_side: bool,
    db: Mapping[str, Any],
    state: Any,
    tools: set[str],
) -> BenchTask:
    """One task of a shared-``db.json`` benchmark; with ``agent_side`` the user's actions are
    dropped (the agent's database is what is compared) and the agent-side initialisation calls
    become the task's setup."""
    skip = _skip_reason(raw, oracle, agent_side, tools)
    setup = (_agent_setup(raw, tools) or []) if agent_side and not skip else []
    acts = _task_actions(raw)
    results = list((oracle or {}).get("action_results", []))
    pairs = [(a, results[i] if i < len(results) else None) for i, a in enumerate(acts)]
    kept = [(a, r) for a, r in pairs if a.get("requestor") in (None, "assistant") or not agent_side]
    actions = [_bench_action(a, r) for a, r in kept]
    diff = rekey_diff(db, state, list((oracle or {}).get("db_diff", [])))
    return BenchTask(
        id=str(raw["id"]), actions=actions, diff=diff, skipped=skip,
        dropped_user_actions=len(pairs) - len(kept), setup=setup,
    )  # fmt: skip


def _load_per_task_states(
    path: Path, db: Mapping[str, Any], replay: Mapping[str, Any]
) -> list[BenchTask]:
    """Tasks that carry their own initial state and final state (ACEBench's agent shape)."""
    tasks_raw = {str(t["id"]): t for t in _read_json(path / "tasks.json")}
    out = []
    for oracle in replay.get("tasks", []):
        raw = tasks_raw.get(str(oracle["id"]))
        if raw is None:
            continue
        alts = oracle.get("alternatives") or [{}]
        results = alts[0].get("action_results") or []
        acts = list(raw.get("actions") or [])
        start, diff = per_task_states(
            db, oracle.get("initial_state") or {}, raw.get("ground_truth_final_state")
        )
        skip = "" if len(results) == len(acts) else "oracle results do not pair with the actions"
        actions = [
            _bench_action(a, results[i] if i < len(results) else None) for i, a in enumerate(acts)
        ]
        out.append(
            BenchTask(id=str(oracle["id"]), actions=actions, diff=diff, skipped=skip, initial=start)
        )
    return out


def load_bench(path: Path, split: str | None = None, *, agent_side: bool = False) -> Bench:
    """Read ``db.json``, ``tasks.json``, ``gt_replay.json`` (and ``tools_meta.json``), keeping
    the tasks of ``split`` (:func:`split_ids`).

    ``agent_side``: tasks whose initialisation is all on the user's side are kept, and their
    user-side actions dropped, so the agent's tools are replayed against the agent's database
    (tau2 telecom). Replay tasks with their own ``initial_state`` and a final state per task
    (ACEBench) are read by :mod:`autoforge.adapters.tau.replay_formats`.
    """
    db = _read_json(path / "db.json")
    state, _ = data_to_state(db)
    replay = _read_json(path / "gt_replay.json")
    split_name, wanted = split_ids(path, split)
    writes: set[str] = set()
    meta_path = path / "tools_meta.json"
    if meta_path.is_file():
        for m in json.loads(meta_path.read_text(encoding="utf-8")):
            if m.get("mutates_state"):
                writes.add(str(m["name"]))
    names: list[str] = []
    tools_path = path / "tools.json"
    if tools_path.is_file():
        for t in json.loads(tools_path.read_text(encoding="utf-8")):
            names.append(str((t.get("function") or t).get("name")))
    tasks: list[BenchTask]
    if any("alternatives" in t for t in replay.get("tasks", [])):
        tasks = [
            t for t in _load_per_task_states(path, db, replay) if wanted is None or t.id in wanted
        ]
    else:
        by_id = {str(t["id"]): t for t in replay.get("tasks", [])}
        tasks = [
            _load_task(raw, by_id.get(str(raw["id"])), agent_side, db, state, set(names))
            for raw in _read_json(path / "tasks.json")
            if wanted is None or str(raw["id"]) in wanted
        ]
    return Bench(
        path=path, state=state, tasks=tasks, writes=writes, tool_names=names, split=split_name
    )


def bench_fidelity(
    env_dir: Path,
    bench_dir: Path,
    *,
    limit: int | None = None,
    split: str | None = None,
    agent_side: bool = False,
) -> FidelityReport:
    """:func:`~autoforge.synth.fidelity.bench.run_fidelity` over the tasks of ``split`` of the
    domain directory ``bench_dir`` (:func:`load_bench`; ``agent_side`` as there)."""
    return run_fidelity(env_dir, load_bench(bench_dir, split, agent_side=agent_side), limit=limit)
