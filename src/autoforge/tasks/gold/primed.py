"""A run again after S0 was repaired, with its first calls sent ahead in one batch.

When a gold run fails on a step whose error S0 can be repaired for (a status a rule asks for,
a record a uniqueness rule says S0 must not hold), instantiation runs the blueprint again on
the repaired S0 with the same facts. The calls the failed run made before that step are then,
in all likelihood, made again with the same arguments: sending them to the sandbox one by one
costs one round trip each, sending them in one batch one round trip for all. The batch holds
no call a stated guard checks (the host checks those against the state between calls, which
it only knows call by call), and the run takes an observation from it only while it asks for
exactly the next call of the batch; any other call ends it (:class:`_Diverged`), and the run
starts over on a fresh episode.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from typing import Any, TypeVar

from autoforge.env import json_encoder
from autoforge.tasks.model import GoldCall

R = TypeVar("R")


class _Diverged(Exception):
    """The run asked a primed episode for another call than the one its batch ran next."""


class Primed:
    """An episode whose first calls were run ahead, in one batch (``call_many``): ``call``
    hands back the batch's next observation when asked for exactly the batch's next call,
    and sends any call after the batch to the episode; everything else is the episode's."""

    def __init__(self, episode: Any, calls: list[tuple[str, Any]]) -> None:
        self.episode = episode
        self._ran = [(tool, arguments_text(args)) for tool, args in calls]
        self._observed = list(episode.call_many(calls))
        self.served = 0

    @property
    def done(self) -> bool:
        """Whether every call of the batch was handed out."""
        return self.served == len(self._ran)

    def call(self, tool: str, arguments: Any) -> Any:
        """The batch's next observation, or the episode's answer once the batch is used up."""
        i = self.served
        if i >= len(self._ran):
            return self.episode.call(tool, arguments)
        if self._ran[i] != (tool, arguments_text(arguments)):
            raise _Diverged
        self.served += 1
        return self._observed[i]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.episode, name)


def ahead(calls: Sequence[GoldCall], guarded: Container[str]) -> list[tuple[str, Any]]:
    """The calls to send ahead: a failed run's calls up to the first one of a ``guarded``
    tool (none when fewer than two: one call is one round trip either way)."""
    out: list[tuple[str, Any]] = []
    for call in calls:
        if call.name in guarded:
            break
        out.append((call.name, call.arguments))
    return out if len(out) > 1 else []


def prime(episode: Any, calls: list[tuple[str, Any]]) -> Primed | None:
    """``episode`` with ``calls`` run ahead in one batch, or None (no calls, or an episode
    that cannot batch)."""
    if not calls or not callable(getattr(episode, "call_many", None)):
        return None
    return Primed(episode, calls)


def run_primed(run: Callable[[Any], R], fresh: Callable[[], Any], sent: list[tuple[str, Any]]) -> R:
    """``run(episode)`` on a ``fresh()`` episode with ``sent`` run ahead (:func:`prime`);
    where the run asks for other calls than the batch ran (or is done before the batch
    is), ``run`` again on another fresh episode, as without a batch."""
    primed = prime(fresh(), sent)
    if primed is not None:
        try:
            out = run(primed)
            if primed.done:
                return out
        except _Diverged:
            pass
    return run(fresh())


#: ``json.dumps(value, sort_keys=True)`` with its C encoder built once: the same text, where
#: ``json.dumps`` given an option builds a new encoder per call (half the cost of a small value)
_SORTED_JSON = json_encoder(sort_keys=True)


def arguments_text(arguments: Any) -> str:
    """Arguments as exact text (``True``, ``1`` and ``1.0`` differ, key order does not)."""
    return _SORTED_JSON(arguments)


__all__ = ["Primed", "ahead", "arguments_text", "prime", "run_primed"]
