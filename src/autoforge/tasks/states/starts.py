"""Start states S0 for instantiation: drawn (or copied from the environment), bound once, and
shared by a few consecutive attempts."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from autoforge.env import EnvironmentLike
from autoforge.tasks.runtime import bind_state
from autoforge.tasks.states.population import copy_json


class Sampler(Protocol):
    """What draws S0s: a :class:`~autoforge.tasks.states.population.StateGenerator` (generated
    values) or a :class:`~autoforge.tasks.states.datastart.DataSampler` (subsets of the data)."""

    def sample(self, rng: random.Random) -> dict[str, Any]:
        """A new start state."""
        ...


@dataclass
class Start:
    """A start state S0 bound to the environment, its hash computed once when first asked."""

    state: dict[str, Any]
    bound: EnvironmentLike
    _hash: str = ""

    def hash(self) -> str:
        """The canonical hash of S0."""
        if not self._hash:
            self._hash = self.bound.episode().state_hash()
        return self._hash


def fresh_start(env: EnvironmentLike, generator: Sampler | None, rng: random.Random) -> Start:
    """A new S0 (generated, or a copy of the environment's initial state), bound."""
    state = generator.sample(rng) if generator else copy_json(env.initial_state)
    return Start(state, bind_state(env, state, owned=True))  # a start is never changed


class StartPool:
    """Start states shared by ``uses`` consecutive instantiation attempts, then replaced.

    Why: drawing, copying and digesting a fresh S0 for every attempt cost about a fifth of
    the whole pipeline, while the S0s differ only by a few perturbed values of one of a
    handful of base populations. Sharing one bound S0 among a few attempts (each with its own
    blueprint and facts) keeps that diversity and pays the copy and the base hashes once. A
    start is never changed: repairs work on a copy. ``uses=1`` gives every attempt its own S0.
    """

    def __init__(self, env: EnvironmentLike, generator: Sampler | None, uses: int = 4) -> None:
        self.env = env
        self.generator = generator
        self.uses = uses
        self._current: Start | None = None
        self._left = 0

    def take(self, rng: random.Random) -> Start:
        """The current start, or a new one (drawn with ``rng``) when it has been used up."""
        if self._current is None or self._left <= 0:
            self._current = fresh_start(self.env, self.generator, rng)
            self._left = self.uses
        self._left -= 1
        return self._current


__all__ = ["Sampler", "Start", "StartPool", "fresh_start"]
