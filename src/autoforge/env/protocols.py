"""What the other stages may rely on from an environment, its episodes and their observations.

The runtime's :class:`~autoforge.env.runtime.Environment`, :class:`~autoforge.env.runtime.Episode`
and :class:`~autoforge.env.runtime.Observation` satisfy these protocols; task synthesis, the
rollout loop and the server are typed against them, so each also runs over a fake in unit tests
(or a wrapper such as :func:`autoforge.tasks.runtime.bind_state`) without depending on how the
runtime executes tool code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from autoforge.env.artifact.spec import EnvironmentSpec


class ObservationLike(Protocol):
    """The outcome of one tool call (never an exception for the agent's mistakes)."""

    @property
    def ok(self) -> bool:
        """Whether the call succeeded."""
        ...

    @property
    def content(self) -> str:
        """What the agent sees: the returned text or JSON, or ``Error: ...``."""
        ...

    @property
    def error_kind(self) -> str | None:
        """None on success, else why the call failed (``unknown_tool``, ``tool_error``...)."""
        ...

    @property
    def result(self) -> Any:
        """The returned value as JSON data (None when the call failed)."""
        ...


class EpisodeLike(Protocol):
    """An isolated run over a private copy of a state."""

    @property
    def state(self) -> Mapping[str, Any]:
        """The current state (read-only view)."""
        ...

    def call(self, name: str, arguments: Mapping[str, Any], /) -> ObservationLike:
        """Call a tool; never raises for the agent's mistakes or tool errors."""
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
