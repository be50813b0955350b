"""The tau-bench / tau2-bench reader of :mod:`autoforge.synth.fidelity`: a domain directory's
``db.json``, ``tasks.json``, ``gt_replay.json`` (and ``tools_meta.json``, ``tools.json``,
``splits.json``) as the :class:`~autoforge.synth.fidelity.Bench` recording the fidelity replay
compares against.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from autoforge.errors import UserError
from autoforge.synth.fidelity import (
    NO_OUTPUT,
    Bench,
    BenchAction,
    BenchTask,
    FidelityReport,
    run_fidelity,
)
from autoforge.synth.infer import data_to_state


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


def load_bench(path: Path, split: str | None = None) -> Bench:
    """Read ``db.json``, ``tasks.json``, ``gt_replay.json`` (and ``tools_meta.json``), keeping
    the tasks of ``split`` (:func:`split_ids`)."""
    state, _ = data_to_state(_read_json(path / "db.json"))
    tasks_raw = _read_json(path / "tasks.json")
    replay = _read_json(path / "gt_replay.json")
    split_name, wanted = split_ids(path, split)
    by_id = {str(t["id"]): t for t in replay.get("tasks", [])}
    tasks = []
    for raw in tasks_raw:
        tid = str(raw["id"])
        if wanted is not None and tid not in wanted:
            continue
        oracle = by_id.get(tid)
        acts = _task_actions(raw)
        skip = ""
        if oracle is None:
            skip = "no oracle replay"
        elif raw.get("initial_state"):
            skip = "task has its own initial state"
        elif any(a.get("requestor") not in (None, "assistant") for a in acts):
            skip = "user-side actions"
        results = (oracle or {}).get("action_results", [])
        actions = [
            _bench_action(a, results[i] if i < len(results) else None) for i, a in enumerate(acts)
        ]
        diff = list((oracle or {}).get("db_diff", []))
        tasks.append(BenchTask(id=tid, actions=actions, diff=diff, skipped=skip))
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
    return Bench(
        path=path, state=state, tasks=tasks, writes=writes, tool_names=names, split=split_name
    )


def bench_fidelity(
    env_dir: Path, bench_dir: Path, *, limit: int | None = None, split: str | None = None
) -> FidelityReport:
    """:func:`~autoforge.synth.fidelity.run_fidelity` over the tasks of ``split`` of the
    domain directory ``bench_dir`` (:func:`load_bench`)."""
    return run_fidelity(env_dir, load_bench(bench_dir, split), limit=limit)
