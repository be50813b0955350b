"""Benchmark replay files in shapes other than one shared ``db.json`` with a ``db_diff`` per task.

Two shapes are read into the same :class:`autoforge.synth.fidelity.bench.BenchTask` list that the
replay scores, so every figure keeps coming from one scoring code:

* **list-indexed diffs**: when ``db.json`` holds lists of records, the state keys them by their
  id field (:func:`autoforge.synth.state.infer.data_to_state`), while the oracle's diff paths index
  the lists (``["lines", 1, "data_refueling_gb"]``). :func:`rekey_diff` turns the index into the
  record's key (an op appending a record takes the new record's key);
* **per-task states** (``gt_replay.json`` tasks with their own ``initial_state`` and the task's
  ``ground_truth_final_state``, a list of ``{section: value}``): each task starts from the
  shared data overlaid with its own sections, and its diff is computed between that state and
  the final one overlaid the same way, both through ``data_to_state`` so the comparison happens
  in the state shape the environment holds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from autoforge.env import diff_states
from autoforge.synth import data_to_state


def _id_of(record: Mapping[str, Any], keys: Mapping[str, Any]) -> str | None:
    """The key ``record`` has in a keyed collection: the value of the field that keys it."""
    for value in record.values():
        if isinstance(value, str | int) and str(value) in keys and keys[str(value)] == record:
            return str(value)
    return None


def rekey_diff(
    raw: Mapping[str, Any], state: Mapping[str, Any], diff: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``diff`` with list indices into ``raw``'s top-level record lists replaced by the keys
    ``state`` gives those records (``state = data_to_state(raw)``).

    An index past the end (an appended record) takes the key of the new record: the value of
    the same id field the existing records are keyed by. An op whose record cannot be keyed is
    kept as it is (it then names no record of the state and shows up as a disagreement).
    """
    out: list[dict[str, Any]] = []
    for op in diff:
        path = list(op["path"])
        coll = path[0] if path else None
        rows = raw.get(coll) if isinstance(coll, str) else None
        if (
            isinstance(coll, str)
            and isinstance(rows, list)
            and len(path) >= 2
            and isinstance(path[1], int)
        ):
            keyed = state.get(coll) or {}
            key: str | None = None
            if 0 <= path[1] < len(rows):
                key = _id_of(rows[path[1]], keyed)
            elif len(path) == 2 and isinstance(op.get("new"), Mapping):
                key = _new_key(op["new"], rows, keyed)
            if key is not None:
                path[1] = key
        out.append({**op, "path": path})
    return out


def _new_key(new: Mapping[str, Any], rows: list[Any], keyed: Mapping[str, Any]) -> str | None:
    """The key an appended record gets: its value of the field the existing rows are keyed by."""
    first = rows[0] if rows else None
    if not isinstance(first, Mapping):
        return None
    for field, value in first.items():
        if isinstance(value, str | int) and keyed.get(str(value)) == first:
            got = new.get(field)
            return None if got is None else str(got)
    return None


def _overlay(base: Mapping[str, Any], sections: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``base`` with each top-level section of ``sections`` replacing its own."""
    merged = json.loads(json.dumps(base))
    merged.update(json.loads(json.dumps(dict(sections))))
    return merged


def final_sections(final: Any) -> dict[str, Any]:
    """``ground_truth_final_state`` as one mapping (it may be a list of one-section mappings)."""
    if isinstance(final, Mapping):
        return dict(final)
    out: dict[str, Any] = {}
    for part in final or []:
        if isinstance(part, Mapping):
            out.update(part)
    return out


def per_task_states(
    raw_db: Mapping[str, Any], initial: Mapping[str, Any], final: Any
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A task's initial state (shape of the environment's state) and the diff to its final one.

    Sections the final state does not list are unchanged.
    """
    start_raw = _overlay(raw_db, initial)
    end_raw = _overlay(start_raw, final_sections(final))
    start, _ = data_to_state(start_raw)
    end, _ = data_to_state(end_raw)
    return start, diff_states(start, end)
