"""Quality gates: keep a task only if executable, verifiable, stable, new and as hard as asked.

* ``gold_error`` / ``degenerate`` / ``no_fact_value``: instantiation found no S0 and facts under
  which the gold run executes without a tool error and with informative reasoning steps;
* ``do_nothing_passes``: S* equals S0 and nothing must be told, so an agent that does nothing
  would pass;
* ``nondeterministic``: replaying the gold run twice from S0 with the same facts does not give
  the same final hash and outputs;
* ``duplicate``: the canonical blueprint+facts signature was seen before;
* ``repeated_call``: the gold run made the same state-changing call twice (merged walks that
  converge on one action through different bindings) and the blueprint without the repeat
  no longer runs (usually the repeat is simply dropped);
* ``difficulty``: a metric is outside the requested range;
* ``scenario``: the written scenario leaves out a fact the blueprint needs.

Every rejection is counted by reason in :class:`GateStats`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from autoforge.env import EnvironmentLike
from autoforge.tasks.blueprint import Blueprint
from autoforge.tasks.difficulty import DifficultyMetrics, DifficultySpec
from autoforge.tasks.instantiate import GoldFailure, GoldRun, execute
from autoforge.tasks.model import RequiredOutput, Task
from autoforge.tasks.runtime import bind_state

REASONS = (
    "no_walk",
    "invalid_blueprint",
    "difficulty",
    "gold_error",
    "degenerate",
    "no_fact_value",
    "missing_fact",
    "do_nothing_passes",
    "nondeterministic",
    "duplicate",
    "repeated_call",
    "scenario",
)


class GateStats(BaseModel):
    """Attempts, acceptances and rejections by reason."""

    attempts: int = 0
    accepted: int = 0
    rejected: dict[str, int] = Field(default_factory=dict)

    def reject(self, reason: str) -> None:
        """Count one rejection."""
        self.rejected[reason] = self.rejected.get(reason, 0) + 1

    @property
    def accept_rate(self) -> float:
        """Accepted / attempts (0 when nothing was attempted)."""
        return self.accepted / self.attempts if self.attempts else 0.0


def do_nothing_passes(initial_hash: str, final_hash: str, outputs: list[RequiredOutput]) -> bool:
    """Whether an agent that calls nothing and says nothing would be scored as successful."""
    return final_hash == initial_hash and not any(o.text for o in outputs)


def replay_is_stable(
    bp: Blueprint,
    env: EnvironmentLike,
    initial_state: dict[str, Any],
    facts: dict[str, Any],
    final_hash: str,
    values: dict[str, Any],
    times: int = 2,
    bound: EnvironmentLike | None = None,
) -> GoldRun | None:
    """Replay the gold run ``times`` times from S0 with fixed facts: same hash, same outputs?

    Returns the first replay (which also records, per call, whether it changed the state:
    ``GoldCall.writes``), or None when a replay failed or disagreed. ``bound``: ``env``
    already started at ``initial_state`` (see :func:`~autoforge.tasks.runtime.bind_state`).

    The first replay re-executes the blueprint (reasoning included). The later ones replay
    its calls and must give the same result for every call and the same final hash: the
    reasoning is pure code over those results, so that checks the same thing, and an episode
    with ``call_many`` (the contained runtime) then runs all of a replay's calls in one round
    trip to its sandbox worker instead of one per call.
    """
    bound = bound or bind_state(env, initial_state)
    if times < 1:
        return None
    episode = bound.episode()
    try:
        first = execute(bp, env.spec, episode, facts, initial_hash=episode.state_hash())
    except GoldFailure:
        return None
    if first.final_hash != final_hash or any(first.values[o] != values[o] for o in bp.outputs):
        return None
    if not all(calls_agree(bound.episode(), first) for _ in range(times - 1)):
        return None
    return first


def calls_agree(episode: Any, run: GoldRun) -> bool:
    """Whether ``run``'s calls, replayed on ``episode``, all succeed with the results ``run``
    saw and end in its final hash (in one batch where the episode has ``call_many``)."""
    calls = [(c.name, c.arguments) for c in run.calls]
    many = getattr(episode, "call_many", None)
    observed = many(calls) if callable(many) else [episode.call(t, a) for t, a in calls]
    for call, obs in zip(run.calls, observed, strict=True):
        if not obs.ok or obs.result != run.values.get(call.node):
            return False
    return bool(episode.state_hash() == run.final_hash)


class Deduplicator:
    """Remembers task signatures (blueprint structure + fact values)."""

    def __init__(self, existing: Iterable[Task] = ()) -> None:
        self.seen: set[str] = set()
        for task in existing:
            if task.blueprint is not None:
                self.seen.add(task.blueprint.signature(task.user_facts))

    def is_new(self, signature: str) -> bool:
        """True (and remembered) the first time a signature is seen."""
        if signature in self.seen:
            return False
        self.seen.add(signature)
        return True


def difficulty_violations(metrics: DifficultyMetrics, spec: DifficultySpec) -> list[str]:
    """The metrics outside the requested ranges (empty: the task is as hard as asked)."""
    return spec.violations(metrics)
