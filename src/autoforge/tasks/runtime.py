"""What task synthesis needs from the environment runtime (``autoforge.env.Environment``).

Typed as protocols so the pipeline stays independent of the runtime's implementation: any object
with ``spec``, ``initial_state`` and ``episode(state)`` whose episodes ``call`` tools and hash
their state works (the real runtime, or a fake in unit tests).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from autoforge.env.spec import EnvironmentSpec


class ObservationLike(Protocol):
    """The outcome of one tool call."""

    ok: bool
    content: str
    result: Any
    error_kind: str | None


class EpisodeLike(Protocol):
    """An isolated run over a private copy of a state."""

    @property
    def state(self) -> Mapping[str, Any]:
        """The current state (read-only view)."""
        ...

    def call(self, name: str, arguments: dict[str, Any]) -> ObservationLike:
        """Call a tool; never raises for tool errors."""
        ...

    def snapshot(self) -> dict[str, Any]:
        """A plain, independent copy of the current state."""
        ...

    def state_hash(self) -> str:
        """The canonical hash of the current state."""
        ...


class EnvironmentLike(Protocol):
    """An environment: its spec, its initial state and a factory of episodes."""

    @property
    def spec(self) -> EnvironmentSpec:
        """The environment's spec (tools and state schema)."""
        ...

    @property
    def initial_state(self) -> dict[str, Any]:
        """The environment's own initial state (treated as read-only)."""
        ...

    def episode(self, state: dict[str, Any] | None = None) -> EpisodeLike:
        """An isolated episode starting from ``state`` (default: ``initial_state``)."""
        ...


class _Bound:
    """An environment whose default initial state is ``state`` (fallback for :func:`bind_state`)."""

    def __init__(self, env: EnvironmentLike, state: dict[str, Any]) -> None:
        self._env = env
        self._state = state

    @property
    def spec(self) -> EnvironmentSpec:
        return self._env.spec

    @property
    def initial_state(self) -> dict[str, Any]:
        return self._state

    def episode(self, state: dict[str, Any] | None = None) -> EpisodeLike:
        return self._env.episode(state=self._state if state is None else state)


def bind_state(env: EnvironmentLike, state: dict[str, Any]) -> EnvironmentLike:
    """``env`` starting from ``state``: episodes of the result start there, cheaply.

    The real runtime copies a custom start state and digests it for hashing once per
    ``with_initial_state``; episodes of the bound environment then share that work, which
    matters when one S0 is executed many times (retries, replays).
    """
    with_state = getattr(env, "with_initial_state", None)
    if callable(with_state):
        bound: EnvironmentLike = with_state(state)
        return bound
    return _Bound(env, state)
