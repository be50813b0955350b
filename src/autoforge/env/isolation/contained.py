"""The host side of contained execution: tool code runs only in sandboxed worker processes.

An untrusted :class:`~autoforge.env.runtime.Environment` (the default) never imports or
executes its ``tools.py`` in the host. It owns a :class:`ContainedRuntime`: one worker process
(forked from a per-process fork server, see :mod:`autoforge.env.isolation.worker`, behind the OS
boundary of :mod:`autoforge.env.isolation.boundary`) that loads the module and hosts every episode
of
the environment and of the environments derived from it (``with_initial_state``).

Each :class:`ContainedEpisode` keeps a *mirror* of its state in the host (the same
copy-on-write :class:`~autoforge.env.state.cow.CowState` an inline episode uses): every reply
carries
the changes the call committed, which the host replays. Hashes, snapshots, diffs and resets
are computed on the mirror, so they cost what they cost inline. A worker that died, timed out
or answered nonsense is killed; the next call starts a fresh one and re-opens the episode from
its mirror, so every episode continues from its last successful call and the other episodes
on that worker are unaffected.

Replies are JSON lines read with a size cap, each carrying the sequence number of the request
it answers; a reply with another number, a line written outside a reply or a reply that does
not have the expected shape kills the worker. Nothing a worker sends can make the host run code.
"""

from __future__ import annotations

import collections
import itertools
import json
import logging
import marshal
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from autoforge.env.errors import EnvLoadError, SandboxViolation
from autoforge.env.isolation.boundary import Boundary, describe_boundary
from autoforge.env.isolation.worker import decode_changes, dumps, encode_changes, loads
from autoforge.env.runtime import Environment, Episode, Observation, _fail
from autoforge.env.state.base_delta import Delta, Fingerprint, delta, records
from autoforge.errors import AutoforgeError

log = logging.getLogger(__name__)

LOAD_TIMEOUT_S = 60.0
DEFAULT_GRACE_S = 1.0
DEFAULT_MEMORY_MB = 1024
MAX_REPLY_BYTES = 64 << 20
READ_CHUNK = 1 << 16  # below malloc's mmap threshold: a 1 MB read buffer costs an mmap per read
MAX_BASES = 16
#: a new base is sent as changes to a held one when at most 1/DELTA_SHARE of its records differ
DELTA_SHARE = 4
_KINDS = frozenset(
    {"unknown_tool", "invalid_arguments", "tool_error", "timeout", "sandbox", "crash"}
)
_IDS = itertools.count(1)


class WorkerFailure(AutoforgeError):
    """The worker died, timed out or answered nonsense."""

    def __init__(self, message: str, *, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


# -- the fork server -----------------------------------------------------------------------

#: the host variables the fork server and its workers get (nothing else of the host's
#: environment: API keys and serve tokens must not reach tool code)
WORKER_VARIABLES = (
    "PYTHONPATH",  # where autoforge is, when it is not installed
    "AUTOFORGE_WORKER_STDERR",  # keep the workers' stderr (debugging)
    "AUTOFORGE_SANDBOX_DISABLE",  # layers switched off (tests)
)


def worker_environment() -> dict[str, str]:
    """The fork server's whole environment: :data:`WORKER_VARIABLES` that are set, a fixed
    hash seed and the C.UTF-8 locale; built from nothing, never from ``os.environ``."""
    env = {name: os.environ[name] for name in WORKER_VARIABLES if name in os.environ}
    env.update(PYTHONHASHSEED="0", LC_ALL="C.UTF-8", PYTHONUTF8="1")
    return env


class _ForkServer:
    """``python -m autoforge.env.isolation.worker``: forks sandboxed workers on request."""

    def __init__(self) -> None:
        parent, child = socket.socketpair()
        stderr = None if os.environ.get("AUTOFORGE_WORKER_STDERR") else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "autoforge.env.isolation.worker",
                str(child.fileno()),
                str(os.getpid()),
            ],
            pass_fds=[child.fileno()],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            env=worker_environment(),
        )
        child.close()
        parent.settimeout(LOAD_TIMEOUT_S)
        self.sock = parent

    def spawn(self, memory_mb: int) -> tuple[int, socket.socket]:
        self.sock.sendall(dumps({"op": "spawn", "memory_mb": memory_mb}))
        data, fds, _, _ = socket.recv_fds(self.sock, 4096, 1)
        if not data or not fds:
            raise WorkerFailure("the sandbox fork server stopped")
        pid = int(json.loads(data)["pid"])
        return pid, socket.socket(fileno=fds[0])

    def close(self) -> None:
        self.sock.close()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


_SERVER: _ForkServer | None = None
_SERVER_PID = 0
_SERVER_LOCK = threading.Lock()


def _spawn(memory_mb: int) -> tuple[int, socket.socket]:
    """A new worker (pid, socket), restarting the fork server once if it died."""
    global _SERVER, _SERVER_PID
    with _SERVER_LOCK:
        for attempt in (1, 2):
            if _SERVER is None or os.getpid() != _SERVER_PID or _SERVER.proc.poll() is not None:
                _SERVER, _SERVER_PID = _ForkServer(), os.getpid()
            try:
                return _SERVER.spawn(memory_mb)
            except (OSError, ValueError, KeyError, WorkerFailure) as exc:
                _SERVER.close()
                _SERVER = None
                if attempt == 2:
                    raise WorkerFailure(f"could not start a sandbox worker: {exc}") from None
    raise AssertionError("unreachable")


# -- one worker ------------------------------------------------------------------------------


class _Worker:
    """One worker process and its socket (JSON lines)."""

    def __init__(self, memory_mb: int) -> None:
        self.pid, self.sock = _spawn(memory_mb)
        self.sock.setblocking(False)
        self.fd = self.sock.fileno()
        try:
            self.pidfd: int | None = os.pidfd_open(self.pid)
        except (AttributeError, OSError):
            self.pidfd = None
        self._buffer = b""
        self.seq = 0

    def quiet(self) -> bool:
        """Whether nothing waits on the socket between two requests (a worker that wrote a
        line nobody asked for is not to be trusted with the next request)."""
        return not self._buffer and not select.select([self.fd], [], [], 0)[0]

    def request(self, message: dict[str, Any], timeout_s: float) -> Any:
        """Send ``message`` as one line with the next sequence number; the reply it carries.

        The worker answers ``[seq, reply]``; a reply with another number (a line forged by
        tool code, or a stale one) raises :class:`WorkerFailure` and the caller kills the
        worker, so no reply is ever taken for another request's.
        """
        self.seq += 1
        message["seq"] = self.seq
        data = dumps(message)
        deadline = time.monotonic() + timeout_s
        try:
            self._send(data, deadline)
        except OSError:
            raise WorkerFailure("the sandbox worker is gone") from None
        line = self._read_line(deadline)
        try:
            reply = loads(line)
        except (ValueError, RecursionError):
            raise WorkerFailure("the sandbox worker sent an invalid reply") from None
        if (
            type(reply) is not list
            or len(reply) != 2
            or type(reply[0]) is not int
            or reply[0] != self.seq
        ):
            raise WorkerFailure(
                f"the sandbox worker's reply is not the answer to request {self.seq} "
                "(out of sequence or forged); the worker is killed"
            )
        return reply[1]

    def _send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:  # non-blocking: a worker that stops reading cannot block the host
                view = view[os.write(self.fd, view[:READ_CHUNK]) :]
                continue
            except BlockingIOError:
                pass
            left = deadline - time.monotonic()
            if left <= 0:
                raise WorkerFailure("the sandbox worker did not take the request", timed_out=True)
            select.select([], [self.fd], [], left)

    def _read_line(self, deadline: float) -> bytes:
        while True:
            cut = self._buffer.find(b"\n")
            if cut >= 0:
                line, self._buffer = self._buffer[:cut], self._buffer[cut + 1 :]
                return line
            if len(self._buffer) > MAX_REPLY_BYTES:
                raise WorkerFailure(
                    f"the sandbox worker's reply exceeds {MAX_REPLY_BYTES >> 20} MB"
                )
            left = deadline - time.monotonic()
            if left <= 0:
                raise WorkerFailure("the sandbox worker did not answer in time", timed_out=True)
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, READ_CHUNK)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                raise WorkerFailure("the sandbox worker died (a memory, CPU or syscall limit)")
            self._buffer += chunk

    def kill(self) -> None:
        """Stop the process and close the socket."""
        try:
            if self.pidfd is not None:
                signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None
        self.sock.close()


# -- the runtime of one tool module ----------------------------------------------------------


_WARNED: set[str] = set()


def _warn_missing(boundary: Boundary) -> None:
    text = describe_boundary(boundary)
    if boundary.missing and text not in _WARNED:
        _WARNED.add(text)
        warnings.warn(text, RuntimeWarning, stacklevel=4)
        log.warning(text)


class ContainedRuntime:
    """The worker of one tool module: started on creation (load errors raise here)."""

    def __init__(
        self, env: Environment, *, memory_mb: int = DEFAULT_MEMORY_MB, eager: bool = True
    ) -> None:
        self._load = {
            "op": "load",
            "spec": env.spec.model_dump(mode="json"),
            "source": env.tools_source,
            "filename": env.filename,
            "timeout": env.call_timeout_s,
        }
        self.call_timeout_s = env.call_timeout_s
        self.memory_mb = memory_mb
        self.grace_s = DEFAULT_GRACE_S
        self.lock = threading.RLock()
        self.worker: _Worker | None = None
        self.pid = os.getpid()
        self.generation = 0
        self.restarts = 0
        self.boundary = Boundary("process")
        # the bases the worker holds, each with its fingerprint (None: sent whole, no deltas)
        self.bases: collections.OrderedDict[int, Fingerprint | None] = collections.OrderedDict()
        self.pending: collections.deque[list[Any]] = collections.deque()
        if eager:
            with self.lock:
                self._start()

    def _start(self) -> _Worker:
        try:
            worker = _Worker(self.memory_mb)
        except WorkerFailure as exc:
            raise EnvLoadError(str(exc)) from None
        try:
            reply = worker.request(dict(self._load), LOAD_TIMEOUT_S)
        except WorkerFailure as exc:
            worker.kill()
            raise EnvLoadError(f"loading the tools in the sandbox worker failed: {exc}") from None
        if not isinstance(reply, dict) or not reply.get("ok"):
            worker.kill()
            _raise_load_error(reply)
        self.boundary = Boundary(**reply["boundary"])
        _warn_missing(self.boundary)
        self.worker = worker
        self.generation += 1
        self.bases.clear()
        self.pending.clear()
        return worker

    def retire(self) -> None:
        """Kill the worker; the next request starts a fresh one."""
        if self.worker is not None:
            self.worker.kill()
            self.worker = None
            self.restarts += 1

    def close(self) -> None:
        """Stop the worker for good (a later request would start a new one)."""
        with self.lock:
            if self.worker is not None:
                self.worker.kill()
                self.worker = None

    def request(self, episode: ContainedEpisode, message: dict[str, Any], timeout_s: float) -> Any:
        """Send ``message`` for ``episode`` (with the preparatory ops it needs); the reply."""
        with self.lock:
            if self.pid != os.getpid():  # a forked host: the worker belongs to the parent
                self.worker, self.pid = None, os.getpid()
            if self.worker is not None and not self.worker.quiet():
                self.retire()  # it wrote a line outside a reply: a fresh worker takes over
            worker = self.worker if self.worker is not None else self._start()
            pre = self._prepare(episode)
            message["pre"] = pre
            message["ep"] = episode.eid
            try:
                return worker.request(message, timeout_s)
            except (WorkerFailure, TypeError, ValueError, RecursionError):
                self.retire()  # the worker's bookkeeping no longer matches ours
                raise

    def _prepare(self, episode: ContainedEpisode) -> list[list[Any]]:
        pre: list[list[Any]] = []
        while self.pending:
            pre.append(self.pending.popleft())
        env = episode.env
        if env.base_id not in self.bases:
            pre.append(self._register(env))
            while len(self.bases) > MAX_BASES:
                old, _ = self.bases.popitem(last=False)
                pre.append(["dropbase", old])
        else:
            self.bases.move_to_end(env.base_id)
        if episode.generation != self.generation:
            changes = encode_changes(episode._state._committed_changes())
            pre.append(["open", episode.eid, env.base_id, changes])
            episode.generation = self.generation
        elif episode.reset_pending:
            pre.append(["reset", episode.eid])
        episode.reset_pending = False
        return pre

    def _register(self, env: Environment) -> list[Any]:
        """The op that gives the worker ``env``'s base state: the changes from the closest
        base it holds when they are few (:mod:`autoforge.env.state.base_delta`), else the state."""
        state = env.initial_state
        mine = env._digests.fingerprint()
        self.bases[env.base_id] = mine
        if mine is None:
            return ["base", env.base_id, state]
        best: tuple[int, int, Delta] | None = None
        limit = records(mine) // DELTA_SHARE
        for parent, theirs in reversed(self.bases.items()):
            if theirs is None or parent == env.base_id:
                continue
            bound = limit if best is None else best[0] - 1  # only a smaller one replaces best
            changes, size = delta(mine, theirs, state, bound)
            if size <= bound:
                best = (size, parent, changes)
        if best is None:
            return ["base", env.base_id, state]
        return ["derive", env.base_id, best[1], best[2]]

    def drop(self, episode: ContainedEpisode) -> None:
        """Forget ``episode`` in the worker (sent with the next request)."""
        if episode.generation == self.generation:
            self.pending.append(["drop", episode.eid])
            episode.generation = -1

    def __del__(self) -> None:
        worker = getattr(self, "worker", None)
        if worker is not None:
            worker.kill()


def _raise_load_error(reply: Any) -> None:
    if isinstance(reply, dict) and reply.get("etype") == "SandboxViolation":
        raise SandboxViolation(
            str(reply.get("msg")), line=reply.get("line"), construct=str(reply.get("construct"))
        )
    if isinstance(reply, dict) and reply.get("etype") == "EnvLoadError":
        raise EnvLoadError(str(reply.get("msg")))
    raise EnvLoadError(f"the sandbox worker could not load the tools: {reply}")


# -- episodes ----------------------------------------------------------------------------------


class ContainedEpisode(Episode):
    """An :class:`Episode` whose calls run in the environment's sandboxed worker."""

    memory_mb = DEFAULT_MEMORY_MB  # for a dedicated worker (``IsolatedEpisode``)
    grace_s = DEFAULT_GRACE_S

    def __init__(self, env: Environment, runtime: ContainedRuntime | None = None) -> None:
        super().__init__(env)
        self.eid = next(_IDS)
        self.generation = -1
        self.reset_pending = False
        self.restarts = 0
        self._own = runtime is None
        self._runtime = runtime

    @property
    def runtime(self) -> ContainedRuntime:
        """The runtime serving this episode (a dedicated one is started on first use)."""
        if self._runtime is None:
            self._runtime = ContainedRuntime(self.env, memory_mb=self.memory_mb, eager=False)
            self._runtime.grace_s = self.grace_s
        return self._runtime

    def call(self, tool: str, arguments: Mapping[str, Any] | str | None = None) -> Observation:
        """Validate here, run in the worker, replay the committed changes on the mirror."""
        self.calls += 1
        binding = self.env.tools.get(tool)
        if binding is None:
            return self._unknown(tool)
        parsed, problem = _parse(arguments)
        if problem is None:
            problem = binding.check(parsed)[1]
        if problem is not None:
            return _fail(tool, "invalid_arguments", f"invalid arguments for {tool}: {problem}")
        message = {"op": "call", "tool": tool, "args": parsed}
        timeout = self.env.call_timeout_s + self.runtime.grace_s
        try:
            reply = self.runtime.request(self, message, timeout)
        except (WorkerFailure, EnvLoadError) as exc:
            return self._failed(tool, exc)
        except (TypeError, ValueError, RecursionError) as exc:  # the request is not JSON
            return _fail(tool, "crash", f"{tool}: the state or arguments are not JSON ({exc})")
        return self._observe(tool, reply)

    def call_many(
        self, calls: list[tuple[str, Any]], after: Callable[[int], Any] | None = None
    ) -> list[Observation]:
        """Run ``(tool, arguments)`` calls in one round trip (falls back to one by one).

        ``after(i)`` runs once call ``i``'s changes are on the mirror, before call ``i + 1``'s:
        what the state was between two calls of the batch (a hash) can be read there.
        """
        if any(t not in self.env.tools for t, _ in calls):
            return self._one_by_one(calls, after)
        parsed = [(t, _parse(a)) for t, a in calls]
        if any(p[1] is not None for _, p in parsed):
            return self._one_by_one(calls, after)
        timeout = len(calls) * self.env.call_timeout_s + self.runtime.grace_s
        message = {"op": "batch", "calls": [[t, p[0]] for t, p in parsed]}
        try:
            replies = self.runtime.request(self, message, timeout)
        except (WorkerFailure, EnvLoadError, TypeError, ValueError, RecursionError):
            self.restarts += 1
            return self._one_by_one(calls, after)
        if not isinstance(replies, list) or len(replies) != len(calls):
            self.runtime.retire()
            return self._one_by_one(calls, after)
        self.calls += len(calls)
        out = []
        for i, ((tool, _), reply) in enumerate(zip(calls, replies, strict=True)):
            out.append(self._observe(tool, reply))
            if after is not None:
                after(i)
        return out

    def call_many_again(
        self,
        calls: list[tuple[str, Any]],
        times: int,
        after: Callable[[int], Any] | None = None,
    ) -> tuple[list[Observation], list[Rerun]]:
        """:meth:`call_many`, and in the same round trip ``times`` more runs of the same calls,
        each on a fresh episode of the worker from this episode's start (which it must be
        at): the verification replays of task generation in one request instead of one each.

        The further runs come back as :class:`Rerun` (observations, final state hash). A run
        whose replies equal the first run's exactly (``marshal`` bytes: types and key order
        included) made the same changes from the same start, so it has the first run's
        observations and final state; any other run is replayed on a mirror of its own.
        """
        if self._state._committed_changes() or self._state._tx:
            raise ValueError("call_many_again runs from the episode's start state")
        parsed = [(t, _parse(a)) for t, a in calls]
        if any(t not in self.env.tools for t, _ in calls) or any(p[1] is not None
                                                                 for _, p in parsed):  # fmt: skip
            return self._again_one_by_one(calls, times, after)
        timeout = (times + 1) * len(calls) * self.env.call_timeout_s + self.runtime.grace_s
        message = {"op": "again", "calls": [[t, p[0]] for t, p in parsed], "times": times}
        try:
            runs = self.runtime.request(self, message, timeout)
        except (WorkerFailure, EnvLoadError, TypeError, ValueError, RecursionError):
            self.restarts += 1
            return self._again_one_by_one(calls, times, after)
        if not (type(runs) is list and len(runs) == times + 1
                and all(type(r) is list and len(r) == len(calls) for r in runs)):  # fmt: skip
            self.runtime.retire()
            return self._again_one_by_one(calls, times, after)
        self.calls += len(calls)
        out = []
        for i, ((tool, _), reply) in enumerate(zip(calls, runs[0], strict=True)):
            out.append(self._observe(tool, reply))
            if after is not None:
                after(i)
        first = _exact(runs[0])
        reruns = []
        for run in runs[1:]:
            if first is not None and _exact(run) == first:
                reruns.append(Rerun(out, self.state_hash()))
                continue
            twin = ContainedEpisode(self.env, self._runtime)  # a mirror: never opened there
            seen = [twin._observe(tool, reply) for (tool, _), reply in zip(calls, run, strict=True)]
            reruns.append(Rerun(seen, twin.state_hash()))
        return out, reruns

    def _again_one_by_one(
        self, calls: list[tuple[str, Any]], times: int, after: Callable[[int], Any] | None
    ) -> tuple[list[Observation], list[Rerun]]:
        out = self._one_by_one(calls, after)
        reruns = []
        for _ in range(times):
            twin = ContainedEpisode(self.env, self._runtime)
            reruns.append(Rerun(twin._one_by_one(calls, None), twin.state_hash()))
            twin.close()
        return out, reruns

    def _one_by_one(
        self, calls: list[tuple[str, Any]], after: Callable[[int], Any] | None
    ) -> list[Observation]:
        out = []
        for i, (tool, arguments) in enumerate(calls):
            out.append(self.call(tool, arguments))
            if after is not None:
                after(i)
        return out

    def _failed(self, tool: str, exc: Exception) -> Observation:
        self.restarts += 1
        if isinstance(exc, WorkerFailure) and exc.timed_out:
            return _fail(tool, "timeout", f"{tool} timed out after {self.env.call_timeout_s:g} s")
        return _fail(tool, "sandbox", f"{tool} failed: {exc}")

    def _observe(self, tool: str, reply: Any) -> Observation:
        recycle = isinstance(reply, dict) and "recycle" in reply
        if recycle:
            reply = reply["recycle"]
        if not _well_formed(reply):
            self.runtime.retire()
            self.restarts += 1
            return _fail(tool, "crash", f"{tool} failed in the sandbox worker: {str(reply)[:300]}")
        ok, content, kind, changes, raw = reply
        if ok and changes:
            try:
                self._state._apply(decode_changes(changes))
            except Exception as exc:  # a malformed change list: trust nothing from this worker
                self._state._abort()
                self.runtime.retire()
                self.restarts += 1
                return _fail(tool, "crash", f"{tool}: the worker sent invalid changes ({exc})")
        if kind == "sandbox" or recycle:
            self.runtime.retire()  # a MemoryError may have left the worker in a bad state
            self.restarts += kind == "sandbox"
        if raw:
            return Observation(tool, ok, content, kind, content)
        return Observation(tool, ok, content, kind)

    def reset(self) -> None:
        """Back to the initial state, in the mirror and (with the next call) in the worker."""
        super().reset()
        if self._runtime is not None and self.generation == self._runtime.generation:
            self.reset_pending = True

    def close(self) -> None:
        """Forget the episode in the worker; a dedicated worker is stopped."""
        runtime = self._runtime
        if runtime is None:
            return
        if self._own:
            runtime.close()
            self._runtime = None
            self.generation = -1
        else:
            runtime.drop(self)

    def __del__(self) -> None:
        runtime = getattr(self, "_runtime", None)
        if runtime is None:
            return
        if getattr(self, "_own", False):
            worker = runtime.worker
            if worker is not None:
                worker.kill()
        else:
            runtime.drop(self)


@dataclass
class Rerun:
    """A further run of :meth:`ContainedEpisode.call_many_again`: what each call observed,
    and the hash of the state the run ended in."""

    observations: list[Observation]
    final_hash: str


def _exact(replies: list[Any]) -> bytes | None:
    """Replies as type-exact bytes (``True``, ``1`` and ``1.0`` differ), or None."""
    try:
        return marshal.dumps(replies, 2)
    except ValueError:
        return None


def _parse(arguments: Mapping[str, Any] | str | None) -> tuple[Any, str | None]:
    if arguments is None:
        return {}, None
    if isinstance(arguments, str):
        try:
            return (json.loads(arguments) if arguments.strip() else {}), None
        except (ValueError, RecursionError) as exc:
            return None, f"arguments are not valid JSON ({exc})"
    if isinstance(arguments, Mapping) and not isinstance(arguments, dict):
        arguments = dict(arguments)
    return arguments, None  # not JSON: the request fails to encode (a crash observation)


def _well_formed(reply: Any) -> bool:
    # exact types: the reply is fresh JSON, so there are no subclasses to allow for
    return (
        type(reply) is list
        and len(reply) == 5
        and type(reply[0]) is bool
        and type(reply[4]) is bool
        and type(reply[1]) is str
        and (reply[2] is None or reply[2] in _KINDS)
        and type(reply[3]) is list
        and all(type(c) is list and len(c) == 4 for c in reply[3])
    )


_PROBE: Boundary | None = None


def probe_boundary() -> Boundary:
    """The boundary a worker of this process gets (starts one tiny worker once)."""
    global _PROBE
    if _PROBE is None:
        from autoforge.env.artifact.spec import EnvironmentSpec

        env = Environment(EnvironmentSpec(name="probe"), "", {})
        _PROBE = env.boundary
        env.close()
    return _PROBE
