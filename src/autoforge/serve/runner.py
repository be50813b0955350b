"""Running episode work off the event loop: worker threads, one call at a time per episode.

A tool call is synchronous and may run until the runtime's own time limit (or, for code stuck
in C, longer: only a worker process can be killed). Run on the event loop, one such call would
stall every other client and ``/health``; here it runs in a thread of a bounded pool while the
loop keeps answering. Calls of one episode are serialised (an episode is not thread-safe) by an
``asyncio.Lock`` that is released when the thread really finishes, not when the request gives
up. A request waits at most ``wait_s`` for its call (504 ``call_timeout`` after that; the
episode stays locked until the call ends, so the next request to it gets 409
``episode_busy``); other episodes are unaffected.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from autoforge.serve.errors import CallStuck, EpisodeBusy

T = TypeVar("T")

DEFAULT_THREADS = 16


class CallRunner:
    """Runs blocking episode work in a thread pool, serialised per key, with a wait limit."""

    def __init__(
        self, wait_s: float, *, threads: int = DEFAULT_THREADS, inline: bool = False
    ) -> None:
        if wait_s <= 0:
            raise ValueError("wait_s must be positive")
        self.wait_s = wait_s
        self.inline = inline
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="autoforge-call")
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self.running = 0
        self.overdue = 0

    async def run(self, key: str | None, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker thread; with ``key``, after the previous call of that key.

        With ``inline`` (benchmarks only: how the server ran before) ``fn`` runs on the loop.
        """
        if self.inline:
            return fn(*args)
        lock = None
        if key is not None:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = asyncio.Lock()
            await self._acquire(lock, key)
        work = self._pool.submit(fn, *args)
        self.running += 1
        try:
            async with asyncio.timeout(self.wait_s):  # a timer handle, no extra task
                return await asyncio.wrap_future(work)
        except TimeoutError:
            self.overdue += 1
            raise CallStuck(
                f"the call did not finish within {self.wait_s:g} s (the tool is stuck); this "
                "episode stays busy until it ends: open a new episode",
                extra={"wait_s": self.wait_s},
            ) from None
        finally:
            if work.done():
                self._finished(lock)
            else:  # given up on (timeout, client gone): free the episode when it really ends
                loop = asyncio.get_running_loop()
                work.add_done_callback(lambda _: loop.call_soon_threadsafe(self._finished, lock))

    async def _acquire(self, lock: asyncio.Lock, key: str) -> None:
        if not lock.locked():
            await lock.acquire()  # free: returns without suspending
            return
        try:
            async with asyncio.timeout(self.wait_s):
                await lock.acquire()
        except TimeoutError:
            raise EpisodeBusy(
                f"episode {key} is still running an earlier call that outlived its time "
                "limit; retry later or open a new episode",
            ) from None

    def _finished(self, lock: asyncio.Lock | None) -> None:
        self.running -= 1
        if lock is not None:
            lock.release()

    def stats(self) -> dict[str, int]:
        """Calls in flight, and requests that gave up waiting for theirs (since start)."""
        return {"calls_running": self.running, "calls_overdue": self.overdue}

    def shutdown(self) -> None:
        """Stop taking work; threads still stuck in a call are left to finish (daemon-like)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
