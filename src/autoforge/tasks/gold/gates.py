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
* ``scenario``: the written scenario leaves out a fact the blueprint needs;
* ``repeated_ask``: the written request asks for the same thing twice (two answers said alike,
  so the user could not tell which is which);
* ``doomed_after_terminal`` / ``doomed_after_status`` / ``doomed_repeat_unique`` /
  ``doomed_one_record``: decided from the blueprint before any S0 is drawn
  (:func:`~autoforge.tasks.gold.plausible.doomed`,
  :func:`~autoforge.tasks.gold.instantiate.over_one_record`): a write on a record an earlier call
  cancelled, or left in a status the write's guard refuses, a second record a uniqueness rule
  forbids, or a step that needs several elements over the one record a finder must return; no
  instantiation run is spent on them.

Every rejection is counted by reason in :class:`GateStats`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable
from typing import Any, cast

import networkx as nx
from pydantic import BaseModel, Field

from autoforge.env import EnvironmentLike, EnvironmentSpec, EpisodeLike
from autoforge.lexicon import tool_access
from autoforge.tasks.blueprints.blueprint import Blueprint
from autoforge.tasks.difficulty import DifficultyMetrics, DifficultySpec
from autoforge.tasks.gold.instantiate import GoldFailure, GoldRun, execute
from autoforge.tasks.gold.primed import arguments_text
from autoforge.tasks.model import GoldCall, RequiredOutput, Task
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
    "repeated_ask",
    "secret_fact",
    "order_dependent",
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


#: Words of a fact's name that make it a secret: a user is never asked to say one.
SECRET_WORDS = frozenset({"pin", "password", "passcode", "passphrase", "cvv", "cvc", "secret",
                          "otp"})  # fmt: skip


def secret_facts(names: Iterable[str]) -> list[str]:
    """The fact names among ``names`` that name a secret (``card_pin``, ``password``).

    Why: a task whose user must state a PIN or password teaches an agent to ask for one; a
    write the docs guard by a secret is not a request to build from the user's words."""
    return [n for n in names if SECRET_WORDS & set(re.split(r"[^a-z]+", n.lower()))]


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
    calls: list[GoldCall] | None = None,
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

    ``calls``: the gold run's calls. The first replay then runs them in one batch too, and
    re-executes the blueprint over that batch's results (:func:`replay_batched`); a blueprint
    that asks for another call than the gold run made fails the replay. Where the episode
    has ``call_many_again`` (the contained runtime), the later replays travel in that same
    round trip, each still run from S0 on its own episode in the worker.
    """
    bound = bound or bind_state(env, initial_state)
    if times < 1:
        return None
    reruns: list[Any] | None = None
    try:
        if calls:
            first, reruns = replay_batched(bp, env.spec, bound, facts, calls, times - 1)
        else:
            episode = bound.episode()
            first = execute(bp, env.spec, episode, facts, initial_hash=episode.state_hash())
    except GoldFailure:
        return None
    if first is None:
        return None
    if first.final_hash != final_hash or any(first.values[o] != values[o] for o in bp.outputs):
        return None
    if reruns is not None:
        return first if all(_agree(r.observations, r.final_hash, first) for r in reruns) else None
    if not all(calls_agree(bound.episode(), first) for _ in range(times - 1)):
        return None
    return first


def order_matters(bound: EnvironmentLike, bp: Blueprint, calls: list[GoldCall],
                  final_hash: str) -> bool:  # fmt: skip
    """Whether two consecutive writes that do not depend on each other (neither one's node
    feeds the other's) give another S* when run the other way round, and both orders run.

    Why: a request that asks for both ("cancel order A and order B") fixes no order, so an
    agent that does them the other way is as right; when that changes the end state (records
    created under keys given in sequence) the exact-state reward fails it. A swapped order
    that fails (the second write needs what the first did) is one no agent ends in, and
    does not count."""
    writes = [i for i, c in enumerate(calls) if c.writes]
    dag = bp.dag()
    for a, b in itertools.pairwise(writes):
        first, second = calls[a].node, calls[b].node
        if not first or not second or first not in dag or second not in dag:
            continue
        if first in nx.ancestors(dag, second):
            continue
        order = list(calls)
        order[a], order[b] = order[b], order[a]
        episode = bound.episode()
        if all(episode.call(c.name, dict(c.arguments)).ok for c in order) and (
                episode.state_hash() != final_hash):  # fmt: skip
            return True
    return False


class _Diverged(Exception):
    """The blueprint asked for another call than the batch ran (or for none of the rest)."""


class _Recorded:
    """An episode whose calls were already run, in one batch, on a real episode: ``call``
    hands back the next observation when the blueprint asks for exactly the next call of the
    batch, and ``state_hash`` the hash the real episode had after the calls handed out so
    far (:class:`_Diverged` otherwise)."""

    def __init__(self, ran: list[tuple[str, str]], observed: list[Any], hashes: dict[int, str]):
        self._ran, self._observed, self._hashes = ran, observed, hashes
        self.served = 0

    def call(self, tool: str, arguments: Any) -> Any:
        i = self.served
        if i >= len(self._ran) or self._ran[i] != (tool, arguments_text(arguments)):
            raise _Diverged
        self.served += 1
        return self._observed[i]

    def state_hash(self) -> str:
        found = self._hashes.get(self.served)
        if found is None:
            raise _Diverged
        return found


def replay_batched(
    bp: Blueprint,
    spec: EnvironmentSpec,
    bound: EnvironmentLike,
    facts: dict[str, Any],
    calls: list[GoldCall],
    again: int = 0,
) -> tuple[GoldRun | None, list[Any] | None]:
    """The first replay of :func:`replay_is_stable` in one round trip to the sandbox worker.

    ``calls`` (the gold run's) run in one batch on a fresh episode from S0, with the state
    hash taken after each state-changing call; then the blueprint is executed again with
    ``facts``, each call it makes answered by the batch. Where every call the blueprint makes
    is, in order and with the same arguments, the one the batch ran, the batch *is* a
    call-by-call replay (each call saw the state the previous ones left), so the result is the
    same as :func:`~autoforge.tasks.gold.instantiate.execute` on a live episode. Returns None
    where the blueprint asked for another call, or for fewer: with the same S0 and facts a
    deterministic environment answers as it did in the gold run, so the blueprint makes the
    same calls. Raises :class:`~autoforge.tasks.gold.instantiate.GoldFailure` as ``execute`` does.

    ``again``: where the episode has ``call_many_again``, the calls also run that many more
    times from S0 in the same round trip; their runs (observations and final hash) come back
    second, else None (the caller replays them itself).
    """
    writes = {t.name for t in spec.tools if tool_access(t) == "write"}
    episode = bound.episode()
    hashes = {0: episode.state_hash()}
    batch = [(c.name, c.arguments) for c in calls]

    def after(i: int) -> None:
        if batch[i][0] in writes or i == len(batch) - 1:
            hashes[i + 1] = episode.state_hash()

    many = getattr(episode, "call_many", None)
    twice = getattr(episode, "call_many_again", None)
    reruns: list[Any] | None = None
    if again and callable(twice):
        observed, reruns = twice(batch, again, after=after)
    elif callable(many):
        observed = list(many(batch, after=after))
    else:
        observed = []
        for i, (tool, arguments) in enumerate(batch):
            observed.append(episode.call(tool, arguments))
            after(i)
    recorded = _Recorded([(t, arguments_text(a)) for t, a in batch], observed, hashes)
    try:
        run = execute(bp, spec, cast(EpisodeLike, recorded), facts, initial_hash=hashes[0])
    except _Diverged:
        return None, reruns
    return (run if recorded.served == len(batch) else None), reruns


def calls_agree(episode: Any, run: GoldRun) -> bool:
    """Whether ``run``'s calls, replayed on ``episode``, all succeed with the results ``run``
    saw and end in its final hash (in one batch where the episode has ``call_many``)."""
    calls = [(c.name, c.arguments) for c in run.calls]
    many = getattr(episode, "call_many", None)
    observed = many(calls) if callable(many) else [episode.call(t, a) for t, a in calls]
    return _agree(observed, lambda: str(episode.state_hash()), run)


def _agree(observed: list[Any], final_hash: str | Callable[[], str], run: GoldRun) -> bool:
    """Whether a replay's observations all succeeded with the results ``run`` saw and its
    final state hash (a string, or read when needed) is ``run``'s."""
    for call, obs in zip(run.calls, observed, strict=True):
        if not obs.ok or obs.result != run.values.get(call.node):
            return False
    return (final_hash() if callable(final_hash) else final_hash) == run.final_hash


class Deduplicator:
    """Remembers task signatures (blueprint structure + fact values)."""

    def __init__(self, existing: Iterable[Task] = ()) -> None:
        self.seen: set[str] = set()
        for task in existing:
            if task.blueprint is not None:
                self.seen.add(task.blueprint.signature({**task.user_facts, **task.session}))

    def is_new(self, signature: str) -> bool:
        """True (and remembered) the first time a signature is seen."""
        if signature in self.seen:
            return False
        self.seen.add(signature)
        return True


def difficulty_violations(metrics: DifficultyMetrics, spec: DifficultySpec) -> list[str]:
    """The metrics outside the requested ranges (empty: the task is as hard as asked)."""
    return spec.violations(metrics)
