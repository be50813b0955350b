"""Starting an environment from another state, for task synthesis.

The pipeline is typed against the environment protocols of :mod:`autoforge.env.protocols`
(``EnvironmentLike``, ``EpisodeLike``): the real runtime or a fake in unit tests.
"""

from __future__ import annotations

from typing import Any

from autoforge.env import EnvironmentLike, EnvironmentSpec, EpisodeLike


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


def bind_state(env: EnvironmentLike, state: dict[str, Any], owned: bool = False) -> EnvironmentLike:
    """``env`` starting from ``state``: episodes of the result start there, cheaply.

    The real runtime copies a custom start state and digests it for hashing once per
    ``with_initial_state``; episodes of the bound environment then share that work, which
    matters when one S0 is executed many times (retries, replays). ``owned``: ``state`` is
    handed over (generated for this, never changed afterwards), so the runtime need not copy it.
    """
    with_state = getattr(env, "with_initial_state", None)
    if callable(with_state):
        bound: EnvironmentLike = with_state(state, owned=True) if owned else with_state(state)
        return bound
    return _Bound(env, state)
