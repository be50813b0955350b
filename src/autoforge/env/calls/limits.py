"""Per-call time limits for in-process tool calls, from any thread, at ~1 us per call.

Why this design (alternatives measured or ruled out, see ``docs/sandbox.md``):

* ``signal.setitimer`` only works in the main thread; rollouts call tools from worker threads
  and event loops.
* ``sys.settrace`` budgets cost a Python callback per line (10x slower tools).
* Running each call in a helper thread and abandoning it on timeout leaks a spinning thread.

So one daemon *watchdog* thread keeps the deadlines of the calls in flight. A call registers
its thread and deadline (a dict insert under a lock); when a deadline passes, the watchdog
raises :class:`CallTimeout` *inside the calling thread* with ``PyThreadState_SetAsyncExc``
and repeats every 100 ms until the call ends (so ``finally:`` loops end too). The watchdog
sleeps until the earliest deadline and is only woken when a new call needs it sooner than it
would wake anyway. After the last call it keeps its rhythm for :data:`LINGER_S` instead of
going to sleep for good, so a stream of short calls (a rollout, a benchmark loop, the sandbox
worker's request loop) wakes no thread per call: waking it cost a thread switch and a GIL
hand-off per call, more than the call itself.

Limits: the exception is delivered between bytecodes, so a single long C-level operation
(a huge regex backtrack, ``math.factorial`` of a big number) finishes before the call ends;
the isolated mode (a subprocess killed on timeout) is the hard boundary.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import threading
import time
from collections.abc import Callable
from typing import Any

REFIRE_S = 0.1
POLL_S = 0.02
LINGER_S = 1.0
DEFAULT_MEMORY_LIMIT_MB = 1024


class CallTimeout(BaseException):
    """Raised inside a tool call that ran past its deadline (tool code cannot catch it)."""


class ResourceLimit(BaseException):
    """Raised by the sandbox's guards when a tool builds an oversized value."""


_PROTO_SET = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.py_object)
_PROTO_CLEAR = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p)
_set_async_exc = _PROTO_SET(("PyThreadState_SetAsyncExc", ctypes.pythonapi))
_clear_async_exc = _PROTO_CLEAR(("PyThreadState_SetAsyncExc", ctypes.pythonapi))


def _rss_bytes(fd: int | None = None) -> int:
    """The resident set size of this process (0 where /proc is not available).

    ``fd``: an open ``/proc/self/statm`` of this process (one ``pread``, no open/close).
    """
    try:
        if fd is not None:
            return int(os.pread(fd, 128, 0).split()[1]) * _PAGE
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return 0


def _open_statm() -> int | None:
    try:
        return os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class _Token:
    __slots__ = ("done", "finishing", "fire_at", "fired", "mem_fired", "mem_limit", "rss0", "tid")

    def __init__(self, tid: int, fire_at: float, mem_limit: int | None) -> None:
        self.tid = tid
        self.fire_at = fire_at
        self.mem_limit = mem_limit
        self.rss0: int | None = None  # set by the watchdog on its first look
        self.fired = False
        self.mem_fired = False
        self.done = False
        self.finishing = False  # the call returned: never fire again


class Watchdog:
    """The process-wide deadline and memory keeper (one daemon thread, started on first use).

    While calls with a memory limit are in flight it wakes every :data:`POLL_S` to sample the
    process's resident memory (the baseline is taken by the call itself when it registers); a
    call during which it grew by more than the call's limit gets :class:`ResourceLimit`. When
    no call is in flight it keeps its last rhythm for :data:`LINGER_S`, then sleeps until the
    next call registers.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()  # taken directly on the hot path (``with self._cond``
        # runs Condition.__enter__ in Python); holding it is holding the condition
        self._cond = threading.Condition(self._lock)
        self._active: dict[int, _Token] = {}
        self._wake_at: float | None = None
        self._linger_until = 0.0  # until then, sleep no longer than this when idle
        self._poll_until = 0.0  # until then, keep the memory rhythm when idle
        self._statm: int | None = None  # opened on the first memory-limited call
        self._thread = threading.Thread(target=self._loop, name="autoforge-watchdog", daemon=True)
        self._thread.start()

    def start(self, timeout_s: float, memory_limit_mb: float | None = None) -> _Token | None:
        """Register the current thread's call; None when a call is already guarded here.

        The watchdog is woken only when it would otherwise look too late: more than half a
        poll after this call's deadline, or (for a memory-limited call) more than 1.5
        :data:`POLL_S` from now.
        """
        tid = threading.get_ident()
        now = time.monotonic()
        limit = None
        token = _Token(tid, now + timeout_s, None)
        if memory_limit_mb is not None:
            token.mem_limit = limit = int(memory_limit_mb * (1 << 20))
            if self._statm is None:
                self._statm = _open_statm()
            token.rss0 = _rss_bytes(self._statm)
        need_by = token.fire_at if limit is None else min(token.fire_at, now + POLL_S)
        with self._lock:
            if tid in self._active:
                return None
            self._active[tid] = token
            self._linger_until = now + LINGER_S
            if limit is not None:
                self._poll_until = now + LINGER_S
            # half a poll of slack: a watchdog already polling is never woken early (each
            # wake-up would move its next wake a little later and ask for another)
            if self._wake_at is None or need_by + POLL_S / 2 < self._wake_at:
                self._wake_at = need_by
                self._cond.notify()
        return token

    def stop(self, token: _Token) -> None:
        """Unregister; clears a limit exception that was raised but not yet delivered."""
        with self._lock:
            if self._active.get(token.tid) is token:
                del self._active[token.tid]
            token.done = True
            if token.fired or token.mem_fired:
                _clear_async_exc(token.tid, None)

    def _check_memory(self) -> None:
        tokens = [t for t in self._active.values() if t.mem_limit is not None]
        if not tokens:
            return
        rss = _rss_bytes(self._statm)
        for token in tokens:
            if token.rss0 is None:
                token.rss0 = rss
            elif token.finishing:
                continue
            elif token.mem_limit is not None and rss - token.rss0 > token.mem_limit:
                token.mem_fired = True
                _set_async_exc(token.tid, ResourceLimit)

    def _loop(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                wake: float | None = None
                self._check_memory()
                for tid, token in self._active.items():
                    if token.fire_at <= now and not token.finishing:
                        token.fired = True
                        _set_async_exc(tid, CallTimeout)
                        token.fire_at = now + REFIRE_S
                    wake = token.fire_at if wake is None else min(wake, token.fire_at)
                if any(t.mem_limit is not None for t in self._active.values()):
                    wake = min(wake if wake is not None else now + POLL_S, now + POLL_S)
                if not self._active:  # keep the rhythm a while: the next call needs no wake
                    if now < self._poll_until:
                        wake = now + POLL_S
                    elif now < self._linger_until:
                        wake = self._linger_until
                self._wake_at = wake
                self._cond.wait(None if wake is None else max(0.0, wake - now))


_WATCHDOG: Watchdog | None = None
_WATCHDOG_LOCK = threading.Lock()


def watchdog() -> Watchdog:
    """The watchdog of this process (recreated after a fork, see :func:`_after_fork`)."""
    global _WATCHDOG
    dog = _WATCHDOG
    if dog is None:
        with _WATCHDOG_LOCK:
            if _WATCHDOG is None:
                _WATCHDOG = Watchdog()
            dog = _WATCHDOG
    return dog


def _after_fork() -> None:
    """In a forked child: the parent's watchdog thread does not exist here (nor its lock's
    holder); the next call starts a watchdog of the child's own. Checked by a fork hook rather
    than ``os.getpid()`` per call, a system call on the hot path."""
    global _WATCHDOG, _WATCHDOG_LOCK
    old, _WATCHDOG, _WATCHDOG_LOCK = _WATCHDOG, None, threading.Lock()
    if old is not None and old._statm is not None:  # the parent's /proc/<pid>/statm
        with contextlib.suppress(OSError):
            os.close(old._statm)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def call_limited(
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    timeout_s: float,
    memory_limit_mb: float | None = None,
) -> tuple[bool, Any, BaseException | None]:
    """Run ``fn(*args, **kwargs)`` with a deadline; ``(timed_out, result, exception)``.

    Never raises what ``fn`` raises: the exception comes back as the third element
    (a :class:`CallTimeout` means the deadline passed; a :class:`ResourceLimit` that the
    process grew by more than ``memory_limit_mb`` during the call, or a size guard tripped).
    """
    dog = watchdog()
    token = dog.start(timeout_s, memory_limit_mb)
    result: Any = None
    error: BaseException | None = None
    try:
        result = fn(*args, **kwargs)
    except BaseException as exc:
        error = exc
    if token is not None:
        token.finishing = True  # a plain store: no limit exception can land before it
        # A limit exception raised while C code was still running (freeing a huge list) is
        # delivered at the next check point: the call below. It is caught here and the
        # unregistering is retried until it went through; from then on nothing is pending.
        while not token.done:
            try:
                dog.stop(token)
            except (CallTimeout, ResourceLimit) as exc:
                error = error or exc
    timed_out = isinstance(error, CallTimeout) or (token is not None and token.fired)
    if token is not None and token.mem_fired and not timed_out:
        limit = (token.mem_limit or 0) >> 20
        error = ResourceLimit(f"the call grew the process memory by more than {limit} MB")
    return timed_out, (None if timed_out else result), error
