"""The worker side of contained execution: a fork server and the workers it forks.

``python -m autoforge.env.isolation.worker FD`` starts the *fork server* (one per host process): it
imports everything tool code may need, prepares the server-wide layers of the OS boundary
(:func:`autoforge.env.isolation.boundary.prepare_server`) and then, for each ``spawn`` request on
its
control socket ``FD``, forks a worker, applies the per-worker layers
(:func:`autoforge.env.isolation.boundary.enter_worker`) and hands the worker's socket to the host
(``SCM_RIGHTS``). The host then talks to the worker directly.

A worker loads one ``tools.py`` (module body run here, never in the host) and hosts any number
of episodes of that environment: base states by id, episodes by id, each an inline
:class:`~autoforge.env.runtime.Episode` with its copy-on-write state. Requests and replies
are JSON lines (never pickle); each request carries a sequence number ``seq`` and its reply
is ``[seq, reply]`` (the host kills a worker whose reply carries another number). Requests
may carry preparatory operations (``pre``: register a base state, whole or as changes to a
held one; open/reset/drop an episode) so that an episode's first call costs no extra round
trip.
"""

from __future__ import annotations

import itertools
import json
import os
import secrets
import signal
import socket
import sys
import time
from collections.abc import Iterator
from typing import Any

from autoforge.env.artifact.spec import EnvironmentSpec
from autoforge.env.calls.limits import watchdog
from autoforge.env.errors import EnvLoadError, SandboxViolation
from autoforge.env.isolation import boundary as _boundary
from autoforge.env.runtime import Environment, Episode, Observation
from autoforge.env.state.base_delta import derive
from autoforge.env.state.cow import DELETED, RESTORED, Change
from autoforge.env.state.values import json_encoder, json_loads, to_jsonable

WORKER_FD = 3
READ_CHUNK = 1 << 16  # below malloc's mmap threshold: a 1 MB read buffer costs an mmap per read
RECYCLE_CPU_S = _boundary.CPU_LIMIT_S / 2
# modules the standard library imports lazily (no import is possible after the chroot)
_PRELOAD = (
    "_strptime calendar locale unicodedata encodings.idna encodings.latin_1 encodings.ascii "
    "encodings.utf_16 encodings.utf_32 encodings.cp1252 _pydatetime _pydecimal"
)


def encode_changes(changes: list[Change]) -> list[list[Any]]:
    """Changes as JSON-ready lists ``[collection, key, flag, value]`` (flag d/r/v)."""
    out: list[list[Any]] = []
    for name, key, value in changes:
        if value is DELETED:
            out.append([name, key, "d", None])
        elif value is RESTORED:
            out.append([name, key, "r", None])
        else:
            out.append([name, key, "v", value])
    return out


def decode_changes(entries: list[list[Any]]) -> list[Change]:
    """The inverse of :func:`encode_changes`."""
    flags = {"d": DELETED, "r": RESTORED}
    return [(c, k, flags.get(f, v)) for c, k, f, v in entries]


_ENCODE = json_encoder(default=to_jsonable, separators=(",", ":"))
#: requests between two looks at the worker's CPU time (a system call) for recycling
RECYCLE_CHECK_EVERY = 32


def dumps(message: Any) -> bytes:
    """One protocol line."""
    return (_ENCODE(message) + "\n").encode()


#: one protocol line's value, exactly as ``json`` reads it (see ``values.json_loads``)
loads = json_loads


class Host:
    """The environment, base states and episodes one worker hosts."""

    def __init__(self) -> None:
        self.env: Environment | None = None
        self.bases: dict[int, Environment] = {}
        self.episodes: dict[int, Episode] = {}
        self.boundary: dict[str, Any] = {}

    def load(self, message: dict[str, Any]) -> dict[str, Any]:
        spec = EnvironmentSpec.model_validate(message["spec"])
        try:
            self.env = Environment(
                spec,
                message["source"],
                {},
                call_timeout_s=message["timeout"],
                memory_limit_mb=None,
                filename=message["filename"],
                trusted=True,
            )
        except SandboxViolation as exc:
            return {
                "ok": False,
                "etype": "SandboxViolation",
                "msg": str(exc.args[0]),
                "line": exc.line,
                "construct": exc.construct,
            }
        except EnvLoadError as exc:
            return {"ok": False, "etype": "EnvLoadError", "msg": str(exc)}
        return {"ok": True, "boundary": self.boundary}

    def prepare(self, ops: list[list[Any]]) -> None:
        assert self.env is not None
        for op in ops:
            kind = op[0]
            if kind == "base":
                self.bases[op[1]] = self.env.with_initial_state(op[2], owned=True)  # decoded
            elif kind == "derive":  # a base given as changes to one held (env.base_delta)
                state = derive(self.bases[op[2]].initial_state, op[3])
                self.bases[op[1]] = self.env.with_initial_state(state, owned=True)
            elif kind == "open":
                episode = self.bases[op[2]].episode(mode="inline")
                if op[3]:
                    episode._state._apply(decode_changes(op[3]))
                self.episodes[op[1]] = episode
            elif kind == "reset":
                self.episodes[op[1]].reset()
            elif kind == "drop":
                self.episodes.pop(op[1], None)
            elif kind == "dropbase":
                self.bases.pop(op[1], None)

    def call(self, eid: int, tool: str, arguments: Any) -> list[Any]:
        return self._call(self.episodes[eid], tool, arguments)

    def _call(self, episode: Episode, tool: str, arguments: Any) -> list[Any]:
        obs: Observation = episode.call(tool, arguments)
        changes = encode_changes(episode._state._last_changes) if obs.ok else []
        raw = obs.ok and type(obs._result) is str  # a returned string is the content itself
        return [obs.ok, obs.content, obs.error_kind, changes, raw]

    def handle(self, message: dict[str, Any]) -> Any:
        op = message["op"]
        if op == "load":
            return self.load(message)
        self.prepare(message.get("pre", ()))
        if op == "call":
            return self.call(message["ep"], message["tool"], message["args"])
        if op == "batch":
            return [self.call(message["ep"], t, a) for t, a in message["calls"]]
        if op == "again":
            return self.again(message["ep"], message["calls"], int(message["times"]))
        return {"ok": True}

    def again(self, eid: int, calls: list[list[Any]], times: int) -> list[list[Any]]:
        """The calls on episode ``eid`` (which must be at its start), then ``times`` more
        times, each on a fresh episode from the same start (dropped afterwards): the
        replies of every run, the first run's first. A replay and its repetitions in one
        round trip."""
        episode = self.episodes[eid]
        runs = [[self._call(episode, t, a) for t, a in calls]]
        for _ in range(times):
            fresh = episode.env.episode(mode="inline")
            runs.append([self._call(fresh, t, a) for t, a in calls])
        return runs


def _read_lines(fd: int) -> Any:
    buffer = b""
    while True:
        chunk = os.read(fd, READ_CHUNK)
        if not chunk:
            return
        buffer += chunk
        while b"\n" in buffer:
            line, _, buffer = buffer.partition(b"\n")
            yield line


def _send(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def serve(fd: int) -> None:
    """The worker loop: one reply line per request line until the host closes the socket."""
    host = Host()
    host.boundary = json.loads(os.environ.get("AUTOFORGE_BOUNDARY", "{}"))
    for count, line in enumerate(_read_lines(fd)):
        seq = None
        try:
            message = loads(line)
            seq = message.get("seq")
            reply = host.handle(message)
        except Exception as exc:  # a protocol error: the host restarts the worker
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        if (
            count % RECYCLE_CHECK_EVERY == 0
            and isinstance(reply, list)
            and time.process_time() > RECYCLE_CPU_S
        ):
            reply = {"recycle": reply}
        try:
            data = dumps(reply if seq is None else [seq, reply])
        except (TypeError, ValueError, RecursionError) as exc:
            data = dumps([seq, {"error": f"the reply is not JSON: {exc}"}])
        _send(fd, data)


def _worker_child(
    sock: socket.socket, control: socket.socket, plan: Any, memory_mb: int, uid: int
) -> None:
    """In the forked child: own the socket as fd 3, apply the boundary, serve."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    control.close()
    os.dup2(sock.fileno(), WORKER_FD)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    if not os.environ.get("AUTOFORGE_WORKER_STDERR"):
        os.dup2(devnull, 2)
    os.dup2(2, 1)
    os.closerange(WORKER_FD + 1, 1 << 16)
    watchdog()  # its thread exists before RLIMIT_NPROC = 0
    disable = _disabled()
    result = _boundary.enter_worker(plan, memory_mb or None, disable, uid)
    os.environ["AUTOFORGE_BOUNDARY"] = json.dumps(result.to_dict())
    try:
        serve(WORKER_FD)
    finally:
        os._exit(0)


def _disabled() -> frozenset[str]:
    return frozenset(filter(None, os.environ.get("AUTOFORGE_SANDBOX_DISABLE", "").split(",")))


def _preload() -> None:
    import importlib

    import autoforge.env.isolation.sandbox  # noqa: F401  (the allowed modules)

    for name in _PRELOAD.split():
        try:
            importlib.import_module(name)
        except ImportError:
            continue
    try:  # libseccomp is loaded on first use: before the workers' descriptor limit
        import pyseccomp  # type: ignore[import-untyped]

        pyseccomp.SyscallFilter(defaction=pyseccomp.ALLOW)
    except (ImportError, OSError, RuntimeError):
        pass


def _worker_uids() -> Iterator[int]:
    """One uid per worker from :data:`~autoforge.env.isolation.boundary.WORKER_UIDS`, starting at a
    random place so that two fork servers (two host processes) rarely hand out the same."""
    uids = _boundary.WORKER_UIDS
    for n in itertools.count(secrets.randbelow(len(uids))):
        yield uids[n % len(uids)]


def _fork_worker(parent: socket.socket, start: tuple[Any, ...]) -> int:
    """Fork a worker (``start``: the arguments of :func:`_worker_child`); its pid as the host
    sees it. With namespaces, the worker gets a PID namespace of its own (see
    :func:`_keeper`): it sees no other process, so it can signal none."""
    plan = start[2]
    if not plan.namespaces:
        pid = os.fork()
        if pid == 0:
            parent.close()
            _worker_child(*start)
        return pid
    read, write = os.pipe()
    server = os.getpid()
    if os.fork() == 0:
        os.close(read)
        parent.close()
        _keeper(start, write, server)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        return int(fh.read())


def _keeper(start: tuple[Any, ...], report: int, server: int) -> None:
    """In a child of the fork server (pid ``server``): enter a new PID namespace for its
    children, fork its init (pid 1, which only waits: a worker at pid 1 would ignore
    default-action signals such as ``SIGXCPU``) and then the worker (pid 2); write the
    worker's host pid to ``report``, wait for the worker, stop the init, exit. Never returns.

    Each of the three dies with its parent, also when the parent died before the death
    signal was armed: the keeper checks its parent after arming it, and the init, whose
    parent is outside its namespace, waits on a pipe only the keeper writes to (an init
    left behind ignores every signal but ``SIGKILL``)."""
    try:
        _boundary.prctl(_boundary.PR_SET_PDEATHSIG, 9)  # dies with the fork server
        if os.getppid() != server:  # the server went before the line above
            os._exit(0)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        plan = start[2]
        try:
            _boundary.unshare_pid_namespace()
            plan.pid_namespace = True
        except OSError as exc:
            plan.missing["pid namespace"] = f"the worker sees the host's processes ({exc})"
        alive, held = os.pipe()  # EOF for the init once the keeper is gone
        init = os.fork() if plan.pid_namespace else 0
        if plan.pid_namespace and init == 0:
            _boundary.prctl(_boundary.PR_SET_PDEATHSIG, 9)
            os.closerange(0, alive)
            os.closerange(alive + 1, 1 << 16)
            while os.read(alive, 1):
                pass
            os._exit(0)
        os.close(alive)
        worker = os.fork()
        if worker == 0:
            os.close(report)
            os.close(held)
            _worker_child(*start)
        os.write(report, str(worker).encode())
        os.close(report)
        start[0].close()
        start[1].close()
        os.waitpid(worker, 0)
        if init:
            os.kill(init, signal.SIGKILL)
            os.waitpid(init, 0)
    finally:
        os._exit(0)


def fork_server(control_fd: int, host: int = 0) -> None:
    """Serve ``spawn`` requests on ``control_fd`` until the host (pid ``host``) goes away,
    also when it went while this process was starting (before the death signal was armed)."""
    _boundary.prctl(_boundary.PR_SET_PDEATHSIG, 9)  # the server dies with the host
    if host and os.getppid() != host:
        os._exit(0)
    _preload()
    plan = _boundary.prepare_server(_disabled())
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # workers are reaped automatically
    control = socket.socket(fileno=control_fd)
    uids = _worker_uids()
    for line in _read_lines(control.fileno()):
        request = json.loads(line)
        parent, child = socket.socketpair()
        start = (child, control, plan, int(request.get("memory_mb") or 0), next(uids))
        try:
            pid = _fork_worker(parent, start)
        except (OSError, ValueError):
            parent.close()
            child.close()
            continue  # the host sees no reply and reports that no worker could start
        child.close()
        socket.send_fds(control, [dumps({"pid": pid})], [parent.fileno()])
        parent.close()


if __name__ == "__main__":
    fork_server(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 0)
