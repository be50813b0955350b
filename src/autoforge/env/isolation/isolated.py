"""Isolated episodes: a contained episode with a sandboxed worker process of its own.

``env.episode(mode="isolated")`` gives the episode its own worker (see
:mod:`autoforge.env.isolation.contained`) instead of the environment's shared one: a memory bomb or
a
killed worker then never costs another episode even a restart. ``memory_mb`` (the worker's
``RLIMIT_AS`` above its size at start) and ``grace_s`` (how long past the call's time limit
the host waits before killing the worker) can be set before the first call.
"""

from __future__ import annotations

from autoforge.env.isolation.contained import ContainedEpisode, WorkerFailure
from autoforge.env.runtime import Environment

DEFAULT_MEMORY_MB = 512
DEFAULT_GRACE_S = 2.0

__all__ = ["IsolatedEpisode", "WorkerFailure"]


class IsolatedEpisode(ContainedEpisode):
    """A :class:`ContainedEpisode` whose worker serves only this episode."""

    memory_mb = DEFAULT_MEMORY_MB
    grace_s = DEFAULT_GRACE_S

    def __init__(self, env: Environment) -> None:
        super().__init__(env, None)
