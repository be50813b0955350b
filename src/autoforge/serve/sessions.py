"""Bounded, isolated sessions: one open episode each, owned by one client, evicted when idle.

Pure bookkeeping (no I/O, no event loop): the clock is injected so eviction is testable without
sleeping. A store never holds more than ``max_sessions`` episodes, nor more than
``max_per_owner`` for one owner (a bearer token): when full, idle ones are evicted first, and
only if none is idle does opening fail with :class:`TooManySessions`, whose message says what to
do. Session ids are random (``secrets.token_urlsafe``) and bound to the owner that opened them:
another owner gets the same 404 as for an id that never existed. Each session's call log is
bounded in calls and bytes (see :class:`LogLimits`), oldest entries dropped first. Thread-safe
(the server runs calls in worker threads).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import orjson

from autoforge.serve.errors import TooManySessions, UnknownEpisode

E = TypeVar("E")

#: the owner of sessions opened without a token (a loopback server with no auth)
LOCAL_OWNER = "local"
_TRUNCATED = "<truncated: {n} bytes>"


@dataclass(frozen=True)
class LogLimits:
    """Bounds of one session's call log: the calls kept (the latest), their bytes in all, and
    the size above which one argument value or observation is replaced by a short marker."""

    max_calls: int = 1000
    max_bytes: int = 1_048_576
    max_value_bytes: int = 4096


@dataclass(slots=True)
class CallLog:
    """One tool call made in a session (kept cheap: the reward builds records from these)."""

    name: str
    arguments: dict[str, Any]
    ok: bool
    content: str
    error_kind: str | None
    duration_s: float
    size: int = 0


def bounded_entry(
    name: str,
    arguments: dict[str, Any],
    obs: dict[str, Any],
    duration_s: float,
    max_value_bytes: int,
) -> CallLog:
    """A log entry whose big argument values and observation are replaced by size markers."""
    kept: dict[str, Any] = {}
    size = len(name)
    for key, value in list(arguments.items())[:256]:
        encoded = _size(value)
        kept[str(key)[:256]] = value if encoded <= max_value_bytes else _TRUNCATED.format(n=encoded)
        size += min(encoded, max_value_bytes) + min(len(str(key)), 256)
    content = str(obs["content"])
    if len(content) > max_value_bytes:
        content = content[:max_value_bytes] + " " + _TRUNCATED.format(n=len(content))
    size += len(content)
    return CallLog(name, kept, obs["ok"], content, obs["error_kind"], duration_s, size)


def _size(value: Any) -> int:
    if isinstance(value, str):
        return len(value) + 2
    try:
        return len(orjson.dumps(value))
    except (TypeError, orjson.JSONEncodeError):
        return len(repr(value))


@dataclass(slots=True)
class Session(Generic[E]):
    """One open episode: the runtime episode, its owner, what started it, and its calls
    (``calls`` keeps the latest ones within the log limits; ``n_calls`` counts them all)."""

    id: str
    episode: E
    task_id: str | None
    seed: int | None
    created: float
    last_used: float
    owner: str = LOCAL_OWNER
    calls: deque[CallLog] = field(default_factory=deque)
    n_calls: int = 0
    log_bytes: int = 0
    log_dropped: int = 0

    def log(self, entry: CallLog, limits: LogLimits) -> None:
        """Append ``entry``, dropping the oldest entries beyond the count and byte bounds."""
        self.calls.append(entry)
        self.n_calls += 1
        self.log_bytes += entry.size
        while len(self.calls) > limits.max_calls or (
            self.log_bytes > limits.max_bytes and len(self.calls) > 1
        ):
            self.log_bytes -= self.calls.popleft().size
            self.log_dropped += 1


class SessionStore(Generic[E]):
    """At most ``max_sessions`` open sessions; a session idle for ``idle_timeout_s`` is evicted."""

    def __init__(
        self,
        max_sessions: int = 256,
        idle_timeout_s: float = 600.0,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_close: Callable[[E], None] | None = None,
        max_per_owner: int | None = None,
    ) -> None:
        if max_sessions < 1 or (max_per_owner is not None and max_per_owner < 1):
            raise ValueError("max_sessions and max_per_owner must be at least 1")
        if idle_timeout_s <= 0:
            raise ValueError("idle_timeout_s must be positive")
        self.max_sessions = max_sessions
        self.idle_timeout_s = idle_timeout_s
        self._clock = clock
        self._on_close = on_close
        self.max_per_owner = max_sessions if max_per_owner is None else max_per_owner
        self._sessions: dict[str, Session[E]] = {}
        self._lock = threading.RLock()
        self.evicted = 0

    def __len__(self) -> int:
        return len(self._sessions)

    def __iter__(self) -> Iterator[Session[E]]:
        return iter(list(self._sessions.values()))

    def open(
        self,
        episode: Callable[[], E],
        *,
        task_id: str | None = None,
        seed: int | None = None,
        owner: str = LOCAL_OWNER,
    ) -> Session[E]:
        """Open a session of ``owner`` around ``episode()`` (called only once a slot is free)."""
        with self._lock:
            self._make_room(owner)
            now = self._clock()
            sid = secrets.token_urlsafe(12)
            session = Session(
                id=sid, episode=episode(), task_id=task_id, seed=seed, created=now,
                last_used=now, owner=owner,
            )  # fmt: skip
            self._sessions[sid] = session
            return session

    def _make_room(self, owner: str) -> None:
        if len(self._sessions) >= self.max_sessions or self.owned(owner) >= self.max_per_owner:
            self.evict_idle()
        if len(self._sessions) >= self.max_sessions:
            raise TooManySessions(
                f"all {self.max_sessions} episode slots are in use; DELETE finished episodes "
                f"or retry after idle ones expire ({self.idle_timeout_s:g} s without a call)",
                extra={"max_sessions": self.max_sessions, "retry_after_s": self._retry_after()},
            )
        if self.owned(owner) >= self.max_per_owner:
            raise TooManySessions(
                f"this token already has {self.max_per_owner} open episodes (its quota); "
                "DELETE finished ones or retry after idle ones expire "
                f"({self.idle_timeout_s:g} s without a call)",
                extra={"max_per_token": self.max_per_owner, "retry_after_s": self._retry_after()},
            )

    def owned(self, owner: str) -> int:
        """How many open sessions ``owner`` has."""
        return sum(s.owner == owner for s in self._sessions.values())

    def get(self, session_id: str, owner: str = LOCAL_OWNER) -> Session[E]:
        """The open session ``session_id`` of ``owner`` (marked as used now); ``UnknownEpisode``
        if there is none, also when it belongs to another owner (no existence oracle)."""
        session = self._sessions.get(session_id)
        if session is None or session.owner != owner:
            raise UnknownEpisode(
                f"no open episode {session_id[:64]!r} (never opened, deleted, or evicted after "
                f"{self.idle_timeout_s:g} s idle); open one with POST /episodes"
            )
        session.last_used = self._clock()
        return session

    def close(self, session_id: str, owner: str = LOCAL_OWNER) -> Session[E]:
        """Remove and return the session; ``UnknownEpisode`` if ``owner`` has no such one."""
        with self._lock:
            session = self.get(session_id, owner)
            del self._sessions[session_id]
        self._release(session)
        return session

    def evict_idle(self) -> list[str]:
        """Drop every session unused for ``idle_timeout_s``; returns their ids."""
        with self._lock:
            cutoff = self._clock() - self.idle_timeout_s
            stale = [self._sessions.pop(sid) for sid, s in list(self._sessions.items())
                     if s.last_used <= cutoff]  # fmt: skip
            self.evicted += len(stale)
        for session in stale:
            self._release(session)
        return [s.id for s in stale]

    def close_all(self) -> None:
        """Close every session (server shutdown)."""
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for session in sessions:
            self._release(session)

    def _release(self, session: Session[E]) -> None:
        if self._on_close is not None:
            self._on_close(session.episode)

    def _retry_after(self) -> float:
        """Seconds until the least recently used session becomes evictable."""
        oldest = min(s.last_used for s in self._sessions.values())
        return max(0.0, round(oldest + self.idle_timeout_s - self._clock(), 1))
