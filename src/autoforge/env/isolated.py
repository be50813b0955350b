"""Isolated episodes: tool code runs in a worker subprocess with a memory limit and a hard timeout.

Used for code that has not been trusted yet (the conformance checker, synthesis checking a
freshly generated ``tools.py``). The sandbox checks still apply inside the worker; on top:

* the worker runs under ``RLIMIT_AS`` (its address space at start + ``memory_mb``; Linux), so
  a memory bomb ends in ``MemoryError`` or the worker's death, never the host's;
* the host waits ``call_timeout_s + grace_s`` for each reply and kills the worker otherwise
  (a C-level loop the in-process watchdog cannot interrupt);
* messages are JSON lines (never pickle), so a worker that escaped the sandbox still cannot
  make the host run code by what it sends back.

The host keeps a mirror of the episode state: each reply carries the changes the call
committed, which the host replays. A worker that died or was killed is restarted on the next
call from the mirror, so the episode continues from the last successful call. One worker per
episode, started lazily; ``close()`` (or leaving a ``with`` block) stops it.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from typing import Any

from autoforge.env.cow import DELETED, RESTORED, Change
from autoforge.env.runtime import Environment, Episode, ErrorKind, Observation, _fail
from autoforge.env.values import to_jsonable
from autoforge.errors import AutoforgeError

DEFAULT_MEMORY_MB = 512
DEFAULT_GRACE_S = 2.0
INIT_TIMEOUT_S = 120.0


class WorkerFailure(AutoforgeError):
    """The worker died, timed out or answered nonsense."""

    def __init__(self, message: str, *, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


def encode_changes(changes: list[Change]) -> list[dict[str, Any]]:
    """Changes as JSON-ready dicts (``d``: deleted, ``r``: restored to base, ``v``: value)."""
    out: list[dict[str, Any]] = []
    for name, key, value in changes:
        entry: dict[str, Any] = {"c": name, "k": key}
        if value is DELETED:
            entry["d"] = 1
        elif value is RESTORED:
            entry["r"] = 1
        else:
            entry["v"] = value
        out.append(entry)
    return out


def decode_changes(entries: list[dict[str, Any]]) -> list[Change]:
    """The inverse of :func:`encode_changes`."""
    return [
        (e["c"], e["k"], DELETED if "d" in e else RESTORED if "r" in e else e["v"]) for e in entries
    ]


def _dumps(message: dict[str, Any]) -> bytes:
    return (json.dumps(message, default=to_jsonable) + "\n").encode()


class _Worker:
    """One worker process and its JSON-lines pipes."""

    def __init__(self, memory_mb: int) -> None:
        env = dict(os.environ, PYTHONHASHSEED="0", AUTOFORGE_WORKER_MEMORY_MB=str(memory_mb))
        stderr = None if os.environ.get("AUTOFORGE_WORKER_STDERR") else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "autoforge.env.isolated"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=env,
        )
        self._buffer = b""

    def request(self, message: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        """Send one message and wait for its reply line."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(_dumps(message))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise WorkerFailure(self._death()) from None
        line = self._read_line(time.monotonic() + timeout_s)
        try:
            reply: dict[str, Any] = json.loads(line)
        except json.JSONDecodeError:
            raise WorkerFailure("the isolated worker sent an invalid reply") from None
        return reply

    def _read_line(self, deadline: float) -> bytes:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise WorkerFailure("the isolated worker did not answer in time", timed_out=True)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise WorkerFailure(self._death())
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _death(self) -> str:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "the isolated worker stopped answering"
        if code < 0:
            return f"the isolated worker was killed by signal {-code} (memory or time limit)"
        return f"the isolated worker exited with status {code}"

    def kill(self) -> None:
        """Stop the process (no-op when it already ended)."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


class IsolatedEpisode(Episode):
    """An :class:`Episode` whose tool calls run in a worker subprocess (see module doc)."""

    def __init__(
        self,
        env: Environment,
        *,
        memory_mb: int = DEFAULT_MEMORY_MB,
        grace_s: float = DEFAULT_GRACE_S,
    ) -> None:
        super().__init__(env)
        self.memory_mb = memory_mb
        self.grace_s = grace_s
        self.restarts = 0
        self._worker: _Worker | None = None

    def _start(self) -> _Worker:
        worker = _Worker(self.memory_mb)
        env = self.env
        message = {
            "op": "init",
            "spec": env.spec.model_dump(mode="json"),
            "source": env.tools_source,
            "state": env.initial_state,
            "changes": encode_changes(self._state._committed_changes()),
            "timeout": env.call_timeout_s,
        }
        try:
            reply = worker.request(message, INIT_TIMEOUT_S)
        except WorkerFailure:
            worker.kill()
            raise
        if not reply.get("ok"):
            worker.kill()
            raise WorkerFailure(f"the isolated worker could not load the tools: {reply['error']}")
        return worker

    def call(self, tool: str, arguments: Any = None) -> Observation:
        """Run the call in the worker; failures of the worker are error observations."""
        self.calls += 1
        try:
            json.dumps(arguments)
        except (TypeError, ValueError) as exc:
            return _fail(tool, "invalid_arguments", f"arguments are not JSON: {exc}")
        try:
            if self._worker is None:
                self._worker = self._start()
            message = {"op": "call", "tool": tool, "arguments": arguments}
            reply = self._worker.request(message, self.env.call_timeout_s + self.grace_s)
        except WorkerFailure as exc:
            self._stop_worker()
            if exc.timed_out:
                return _fail(
                    tool, "timeout", f"{tool} timed out after {self.env.call_timeout_s:g} s"
                )
            kind: ErrorKind = "sandbox" if "signal" in str(exc) else "crash"
            return _fail(tool, kind, f"{tool} failed: {exc}")
        if "content" not in reply:
            self._stop_worker()
            return _fail(
                tool, "crash", f"{tool} failed in the isolated worker: {reply.get('error')}"
            )
        self._state._apply(decode_changes(reply["changes"]))
        if reply["error_kind"] == "sandbox":
            self._stop_worker()  # a MemoryError may have left the worker in a bad state
        return Observation(tool, reply["ok"], reply["content"], reply["error_kind"])

    def _stop_worker(self) -> None:
        if self._worker is not None:
            self._worker.kill()
            self._worker = None
            self.restarts += 1

    def reset(self) -> None:
        """Back to the initial state, in the mirror and the worker."""
        super().reset()
        if self._worker is not None:
            try:
                self._worker.request({"op": "reset"}, INIT_TIMEOUT_S)
            except WorkerFailure:
                self._stop_worker()

    def close(self) -> None:
        """Stop the worker."""
        if self._worker is not None:
            self._worker.kill()
            self._worker = None

    def __del__(self) -> None:
        worker = getattr(self, "_worker", None)
        if worker is not None and worker.proc.poll() is None:
            worker.proc.kill()


# -- worker side -------------------------------------------------------------------------------


def _limit_memory() -> None:
    """Cap the address space at its current size plus ``AUTOFORGE_WORKER_MEMORY_MB``."""
    try:
        import resource
    except ImportError:  # not on this platform: the timeout still applies
        return
    extra = int(os.environ.get("AUTOFORGE_WORKER_MEMORY_MB", DEFAULT_MEMORY_MB)) << 20
    try:
        with open("/proc/self/statm") as fh:
            current = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        current = 0
    limit = current + extra
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def _handle(
    message: dict[str, Any], episode: Episode | None
) -> tuple[dict[str, Any], Episode | None]:
    from autoforge.env.spec import EnvironmentSpec

    op = message.get("op")
    if op == "init":
        spec = EnvironmentSpec.model_validate(message["spec"])
        env = Environment.from_parts(
            spec, message["source"], message["state"], call_timeout_s=message["timeout"]
        )
        episode = env.episode()
        episode._state._apply(decode_changes(message["changes"]))
        return {"ok": True}, episode
    if episode is None:
        return {"ok": False, "error": "not initialised"}, None
    if op == "reset":
        episode.reset()
        return {"ok": True}, episode
    obs = episode.call(message["tool"], message["arguments"])
    changes = encode_changes(episode._state._last_changes) if obs.ok else []
    reply = {"ok": obs.ok, "content": obs.content, "error_kind": obs.error_kind}
    return {**reply, "changes": changes}, episode


def main() -> None:
    """Worker loop: JSON-lines requests on stdin, replies on the original stdout."""
    out = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # anything printed by accident goes to stderr, not the protocol
    _limit_memory()
    episode: Episode | None = None
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if message.get("op") == "quit":
            break
        try:
            reply, episode = _handle(message, episode)
        except Exception as exc:
            reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
        try:
            out.write(_dumps(reply))
        except (TypeError, ValueError) as exc:
            # the worker's state now differs from the host's mirror: report and exit, the
            # host restarts a worker from its mirror
            content = f"Error: the tool left a value in the state that is not JSON: {exc}"
            failure = {"ok": False, "content": content, "error_kind": "crash", "changes": []}
            out.write(_dumps(failure))
            break


if __name__ == "__main__":
    main()
