"""Ctrl-C and SIGTERM for long commands: stop at once, keep what is done, say how to resume.

``asyncio.run`` replaces Python's default SIGINT handler with one that only *cancels* the main
task. A cancellation takes effect at the task's next real suspension, and the CPU-bound stages
of ``forge`` (task generation, replay, exports) rarely suspend, so a Ctrl-C used to be noticed
only after the whole run. :func:`stop_on_signals` installs a handler of its own, which asyncio
leaves alone, and that raises :class:`KeyboardInterrupt` in the main thread at the next
bytecode, whatever the stage is doing.

One place swallows an exception raised there: a finaliser (``__del__``), which the garbage
collector may run in the middle of any allocation; Python prints "Exception ignored" and goes
on, so a Ctrl-C that lands there would be lost and the run would go on to its end. The handler
therefore looks at the frames it interrupts: inside a finaliser it does not raise, and has the
signal delivered again to the main thread a moment later, when the finaliser has returned.
"""

from __future__ import annotations

import _thread
import asyncio
import contextlib
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")

#: The exit status of a command stopped by SIGINT (128 + 2), as shells report it.
EXIT_INTERRUPTED = 130

_SIGNALS = (signal.SIGINT, signal.SIGTERM)

#: Seconds an interrupted coroutine gets to record where it stopped (``run.json``).
CLEANUP_S = 0.5


#: Seconds after which a signal that landed in a finaliser is delivered again.
REDELIVER_S = 0.02

_received: list[int] = []  # the signal that stopped the command (its exit status is 128 + it)
_lock = threading.Lock()
_active = [False]  # whether a stop_on_signals block is running (a redelivery is still wanted)


def _in_finaliser(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside a ``__del__`` (where a raised exception is ignored)."""
    while frame is not None:
        if frame.f_code.co_name == "__del__":
            return True
        frame = frame.f_back
    return False


def _redeliver(signum: int) -> None:
    with _lock:
        if _active[0]:
            _thread.interrupt_main(signal.Signals(signum))


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    if not _active[0]:
        return  # a redelivery that arrived after the block ended: the signal was handled
    if _in_finaliser(frame):
        timer = threading.Timer(REDELIVER_S, _redeliver, (signum,))
        timer.daemon = True
        timer.start()
        return
    _received.append(signum)
    raise KeyboardInterrupt


def _settle() -> None:
    """A Python call: a signal still pending is handled here, by this module's handler."""


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise ``KeyboardInterrupt`` immediately.

    Outside the main thread (signal handlers cannot be installed there) the block runs with
    the handlers as they are.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _raise_interrupt) for sig in _SIGNALS}
    _active[0] = True
    try:
        yield
    finally:
        with _lock:
            _active[0] = False
        _settle()  # a redelivery already on its way is dropped, not raised by the old handler
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _interrupt_as_such(run: Callable[[asyncio.Task[T]], T], task: asyncio.Task[T]) -> T:
    """``run(task)``, with a ``KeyboardInterrupt`` that surfaced inside a task group (an HTTP
    client's, while a model call was waiting) raised as itself rather than as the group that
    wraps it, which no ``except KeyboardInterrupt`` would see (a traceback instead of exit
    130)."""
    try:
        return run(task)
    except BaseExceptionGroup as group:
        if group.subgroup(KeyboardInterrupt) is not None:
            raise KeyboardInterrupt from None
        raise


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, except on ``KeyboardInterrupt``: the main task gets
    :data:`CLEANUP_S` seconds to unwind (its ``finally`` blocks save the manifest), and the loop
    closes without waiting for its worker threads (``asyncio.run`` joins them, which lasts as
    long as the slowest model call or generation worker)."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    task = loop.create_task(main)
    try:
        return _interrupt_as_such(loop.run_until_complete, task)
    except KeyboardInterrupt:
        if not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                loop.run_until_complete(asyncio.wait([task], timeout=CLEANUP_S))
        raise
    finally:
        with contextlib.suppress(Exception):
            loop.run_until_complete(loop.shutdown_asyncgens())
        asyncio.set_event_loop(None)
        loop.close()


def ignore_further_signals() -> None:
    """While the interrupted command writes its last lines, a second Ctrl-C changes nothing."""
    if threading.current_thread() is threading.main_thread():
        for sig in _SIGNALS:
            signal.signal(sig, signal.SIG_IGN)


def resume_command() -> str:
    """The command line that resumes this run: the same arguments again."""
    return shlex.join(["autoforge", *sys.argv[1:]])


def exit_interrupted() -> NoReturn:
    """Exit now with 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM).

    Threads still working for the stopped run (a model call, a generation worker) would keep
    the interpreter alive until they finish; their results are not needed, and what is done
    is already on disk, so the process then ends without waiting for them.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    busy = [t for t in threading.enumerate()
            if t is not threading.main_thread() and t.is_alive() and not t.daemon]  # fmt: skip
    code = 128 + _received[0] if _received else EXIT_INTERRUPTED
    if busy:
        os._exit(code)
    raise SystemExit(code)
