"""What an episode did to the state, and how its final state differs from S* (for the viewer).

A trajectory stores the final state's hash, not the state. Tools are deterministic functions
of state and arguments, and a failed call changes nothing, so the final state is rebuilt by
replaying the episode's successful agent tool calls from the task's initial state; S* by
replaying the task's gold calls. The replay's hash is checked against the recorded one (a
mismatch, e.g. a tool that reads the clock, is reported, not hidden). Only the records either
side touched are compared, so a large benchmark database costs no more than a small one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, Field

from autoforge.env import Environment, Episode, diff_states
from autoforge.rollout import Trajectory
from autoforge.tasks import Task

MAX_OPS = 200


class EpisodeDiff(BaseModel):
    """The state side of one episode, as far as it could be rebuilt."""

    replayed: bool = False
    note: str = ""
    hash_matches: bool | None = None
    gold_known: bool = False
    gold_matches_task: bool | None = None
    changes: list[dict[str, Any]] = Field(
        default_factory=list, description="initial state -> final state"
    )
    vs_gold: list[dict[str, Any]] = Field(
        default_factory=list, description="S* -> final state ('old' = S*, 'new' = final)"
    )
    truncated: bool = False


def _records(diff: Iterable[Mapping[str, Any]]) -> set[tuple[Any, Any]]:
    """``(collection, key)`` of every record a diff touches (whole collections: key None)."""
    out: set[tuple[Any, Any]] = set()
    for op in diff:
        path = list(op.get("path") or [])
        if path:
            out.add((path[0], path[1] if len(path) > 1 else None))
    return out


def _sub_state(view: Mapping[str, Any], keys: set[tuple[Any, Any]]) -> dict[str, Any]:
    """Only the touched records of a state (absent records stay absent)."""
    out: dict[str, Any] = {}
    for coll, key in sorted(keys, key=str):
        if coll not in view:
            continue
        if key is None:
            out[coll] = view[coll]
            continue
        records = view[coll]
        if key in records:
            out.setdefault(coll, {})[key] = records[key]
        else:
            out.setdefault(coll, {})
    return out


def compare_to_gold(final: Episode, gold: Episode) -> list[dict[str, Any]]:
    """``diff_states(S*, final)`` over the records either episode touched."""
    keys = _records(final.diff()) | _records(gold.diff())
    return diff_states(_sub_state(gold.state, keys), _sub_state(final.state, keys))


def _replay(env: Environment, task: Task, calls: Iterable[tuple[str, dict[str, Any]]]) -> Episode:
    ep = env.episode(state=task.initial_state)
    for name, arguments in calls:
        ep.call(name, arguments)
    return ep


def episode_diff(
    env: Environment, task: Task, traj: Trajectory, limit: int = MAX_OPS
) -> EpisodeDiff:
    """Rebuild the episode's final state (and S*) in ``env`` and compare them."""
    out = EpisodeDiff()
    if traj.final_state_hash is None:
        out.note = "no final state recorded (the episode failed before it ended)"
        return out
    agent_calls = [
        (c.name, dict(c.arguments)) for c in traj.tool_calls if c.ok and c.requestor != "user"
    ]
    final = _replay(env, task, agent_calls)
    out.replayed = True
    out.hash_matches = final.state_hash() == traj.final_state_hash
    if not out.hash_matches:
        out.note = "replaying the agent's calls did not reproduce the recorded final state"
    out.changes = final.diff()
    gold_actions = [a for a in task.gold_calls if a.requestor != "user"]
    if gold_actions:
        gold = _replay(env, task, [(a.name, dict(a.arguments)) for a in gold_actions])
        out.gold_known = True
        if task.final_state_hash is not None:
            out.gold_matches_task = gold.state_hash() == task.final_state_hash
        out.vs_gold = compare_to_gold(final, gold)
    elif task.final_state_hash is not None:
        out.note = out.note or "the task has an S* hash but no gold calls to rebuild S* from"
    out.truncated = len(out.changes) > limit or len(out.vs_gold) > limit
    out.changes, out.vs_gold = out.changes[:limit], out.vs_gold[:limit]
    return out
