"""Bounded, isolated sessions: one open episode each, evicted when idle.

Pure bookkeeping (no I/O, no event loop): the clock is injected so eviction is testable without
sleeping. A store never holds more than ``max_sessions`` episodes; when full, idle ones are
evicted first, and only if none is idle does opening fail with :class:`TooManySessions`, whose
message says what to do. Session ids are random (``secrets.token_urlsafe``), so one client cannot
guess another's episode.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from autoforge.serve.errors import TooManySessions, UnknownEpisode

E = TypeVar("E")


@dataclass(slots=True)
class CallLog:
    """One tool call made in a session (kept cheap: the reward builds records from these)."""

    name: str
    arguments: dict[str, Any]
    ok: bool
    content: str
    error_kind: str | None
    duration_s: float


@dataclass(slots=True)
class Session(Generic[E]):
    """One open episode: the runtime episode, what started it, and the calls made so far."""

    id: str
    episode: E
    task_id: str | None
    seed: int | None
    created: float
    last_used: float
    calls: list[CallLog] = field(default_factory=list)


class SessionStore(Generic[E]):
    """At most ``max_sessions`` open sessions; a session idle for ``idle_timeout_s`` is evicted."""

    def __init__(
        self,
        max_sessions: int = 256,
        idle_timeout_s: float = 600.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_close: Callable[[E], None] | None = None,
    ) -> None:
        if max_sessions < 1:
            raise ValueError("max_sessions must be at least 1")
        if idle_timeout_s <= 0:
            raise ValueError("idle_timeout_s must be positive")
        self.max_sessions = max_sessions
        self.idle_timeout_s = idle_timeout_s
        self._clock = clock
        self._on_close = on_close
        self._sessions: dict[str, Session[E]] = {}
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._sessions)

    def __iter__(self) -> Iterator[Session[E]]:
        return iter(list(self._sessions.values()))

    def open(
        self, episode: Callable[[], E], *, task_id: str | None = None, seed: int | None = None
    ) -> Session[E]:
        """Open a session around ``episode()`` (called only once a slot is free)."""
        if len(self._sessions) >= self.max_sessions:
            self.evict_idle()
        if len(self._sessions) >= self.max_sessions:
            raise TooManySessions(
                f"all {self.max_sessions} episode slots are in use; DELETE finished episodes "
                f"or retry after idle ones expire ({self.idle_timeout_s:g} s without a call)",
                extra={"max_sessions": self.max_sessions, "retry_after_s": self._retry_after()},
            )
        now = self._clock()
        sid = secrets.token_urlsafe(12)
        session = Session(
            id=sid, episode=episode(), task_id=task_id, seed=seed, created=now, last_used=now
        )
        self._sessions[sid] = session
        return session

    def get(self, session_id: str) -> Session[E]:
        """The open session ``session_id`` (marked as used now); ``UnknownEpisode`` if none."""
        session = self._sessions.get(session_id)
        if session is None:
            raise UnknownEpisode(
                f"no open episode {session_id!r} (never opened, deleted, or evicted after "
                f"{self.idle_timeout_s:g} s idle); open one with POST /episodes"
            )
        session.last_used = self._clock()
        return session

    def close(self, session_id: str) -> Session[E]:
        """Remove and return the session; ``UnknownEpisode`` if it is not open."""
        session = self.get(session_id)
        del self._sessions[session_id]
        self._release(session)
        return session

    def evict_idle(self) -> list[str]:
        """Drop every session unused for ``idle_timeout_s``; returns their ids."""
        cutoff = self._clock() - self.idle_timeout_s
        stale = [sid for sid, s in self._sessions.items() if s.last_used <= cutoff]
        for sid in stale:
            self._release(self._sessions.pop(sid))
        self.evicted += len(stale)
        return stale

    def close_all(self) -> None:
        """Close every session (server shutdown)."""
        for sid in list(self._sessions):
            self._release(self._sessions.pop(sid))

    def _release(self, session: Session[E]) -> None:
        if self._on_close is not None:
            self._on_close(session.episode)

    def _retry_after(self) -> float:
        """Seconds until the least recently used session becomes evictable."""
        oldest = min(s.last_used for s in self._sessions.values())
        return max(0.0, round(oldest + self.idle_timeout_s - self._clock(), 1))
