"""Containment, second round (issue 34, the sandbox side): what an escaped worker can reach,
the pipe protocol, the wrappers handed to tool code and state kept between episodes."""

from __future__ import annotations

import json
import textwrap
from typing import Any

import pytest

from autoforge.env import Environment, EnvironmentSpec
from autoforge.tooldocs.spec import ToolSpec

LAYER = "os-boundary"
OBJ = {"type": "object", "properties": {}, "required": []}
SECRETS = {"OPENAI_API_KEY": "sk-canary-4c1d", "AUTOFORGE_SERVE_TOKEN": "tok-canary-77ae"}


def _env(source: str, names: list[str], **kw: Any) -> Any:
    tools = [ToolSpec(name=n, parameters=OBJ) for n in names]
    spec = EnvironmentSpec(name="attack", tools=tools)
    return Environment.from_parts(spec, textwrap.dedent(source), {"c": {}}, **kw)


def _environ_of(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/environ", "rb") as fh:
        raw = fh.read().split(b"\0")
    return dict(item.decode().partition("=")[::2] for item in raw if item)


@pytest.mark.stopped_by("os-boundary")
def test_host_secrets_never_reach_the_fork_server_or_a_worker(monkeypatch: Any) -> None:
    """OPENAI_API_KEY and AUTOFORGE_SERVE_TOKEN set in the host: neither the fork server's
    environment nor a worker's (read from the host through /proc) holds them, or any other
    host variable beyond the named ones."""
    from autoforge.env.isolation.contained import WORKER_VARIABLES, _ForkServer
    from autoforge.env.isolation.worker import dumps

    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    server = _ForkServer()  # a server of its own, started with the secrets set
    try:
        pid, sock = server.spawn(256)
        spec = EnvironmentSpec(name="attack", tools=[ToolSpec(name="ping", parameters=OBJ)])
        load = {"op": "load", "spec": spec.model_dump(mode="json"), "filename": "t.py"}
        sock.sendall(dumps({**load, "source": "def ping(state):\n    return 1\n", "timeout": 2}))
        assert sock.makefile("rb").readline()  # the worker is up and past its boundary
        for who in (server.proc.pid, pid):
            seen = _environ_of(who)
            assert not set(SECRETS) & set(seen), (who, seen)
            assert not any(v in str(seen) for v in SECRETS.values())
            allowed = {*WORKER_VARIABLES, "PYTHONHASHSEED", "LC_ALL", "PYTHONUTF8"}
            assert set(seen) <= allowed, set(seen) - allowed
        sock.close()
    finally:
        server.close()


RW = """
def put(state):
    state["c"]["n"] = state["c"].get("n", 0) + 1
    return "put"

def get(state):
    return str(state["c"].get("n", 0))
"""


def _forged_line(seq: int) -> bytes:
    from autoforge.env.isolation.worker import dumps

    # a reply that would say "ok" and write a record the tool never wrote
    return dumps([seq, [True, "forged", None, [["c", "evil", "v", 1]], False]])


@pytest.mark.stopped_by("os-boundary")
def test_a_forged_reply_waiting_on_the_pipe_is_never_accepted() -> None:
    """A line written on the worker's pipe outside a reply (what an escaped tool could do):
    the host never takes it for the next call's answer, starts a fresh worker, and later
    calls are not one behind."""
    env = _env(RW, ["put", "get"])
    ep = env.episode()
    assert ep.call("put").ok
    runtime = ep.runtime
    old = runtime.worker
    assert old is not None
    for seq in (old.seq + 1, old.seq):  # the next number, and a stale one
        worker = runtime.worker
        assert worker is not None
        worker._buffer += _forged_line(seq)
        obs = ep.call("get")
        assert obs.ok and obs.content == "1", obs  # the real answer, not "forged"
        assert runtime.worker is not worker  # the worker that wrote it was killed
    assert ep.snapshot() == {"c": {"n": 1}}
    assert [ep.call(t).content for t in ("put", "get", "put", "get")] == ["put", "2", "put", "3"]


@pytest.mark.stopped_by("os-boundary")
def test_a_reply_out_of_sequence_kills_the_worker_and_fails_the_call_cleanly() -> None:
    """The worker's end of the pipe answers a request with a forged line (another sequence
    number) before the genuine reply: the call fails cleanly, the state is unchanged, the
    worker is killed, and the next call is answered by a fresh worker, in step."""
    import socket
    import threading

    from autoforge.env.isolation import contained
    from autoforge.env.isolation.worker import dumps, loads

    env = _env(RW, ["put", "get"])
    ep = env.episode()
    assert ep.call("put").ok
    runtime = ep.runtime
    real = runtime.worker
    assert real is not None
    host_end, peer = socket.socketpair()
    fake = object.__new__(contained._Worker)
    fake.pid, fake.sock, fake.pidfd = real.pid, host_end, None
    fake.fd, fake._buffer, fake.seq = host_end.fileno(), b"", real.seq
    host_end.setblocking(False)
    runtime.worker = fake  # the host now talks to a peer this test plays

    def peer_side() -> None:
        request = loads(peer.makefile("rb").readline())
        peer.sendall(_forged_line(request["seq"] + 1))  # forged: not this request's number
        peer.sendall(dumps([request["seq"], [True, "genuine", None, [], False]]))

    thread = threading.Thread(target=peer_side)
    thread.start()
    obs = ep.call("put")
    thread.join()
    peer.close()
    real.kill()
    assert not obs.ok and obs.error_kind in ("sandbox", "crash"), obs
    assert "sequence" in obs.content
    assert runtime.worker is None  # killed: the next call gets a fresh worker
    assert ep.snapshot() == {"c": {"n": 1}}
    assert [ep.call(t).content for t in ("get", "put", "get")] == ["1", "put", "2"]


WRAPS_PAYLOADS = {
    # issue 34: override the keywords of the partial the real functools.wraps returns
    "keywords": 'functools.wraps(statistics.mean)(_s, assigned=(), updated=("__globals__",))',
    # issue 34: the partial's .func is update_wrapper itself
    "func": 'functools.wraps(len).func(_s, statistics.median, (), ("__globals__",))',
    "two_positional": 'functools.wraps(statistics.mean, (), ("__globals__",))(_s)',
    "library_wrapper": "functools.wraps(len)(statistics.median)",
    "partial_func": "functools.partial(statistics.mean).func",
    "partial_keywords": "functools.partial(statistics.mean).keywords",
    "wrapper_func": "functools.wraps(len).func",
    "wrapper_keywords": "functools.wraps(len).keywords",
}


@pytest.mark.stopped_by("python-sandbox")
@pytest.mark.parametrize("payload", WRAPS_PAYLOADS.values(), ids=list(WRAPS_PAYLOADS))
def test_wraps_and_partial_expose_only_their_positional_use(payload: str) -> None:
    """Each payload fails at call time (before it reaches ``sys``), and a library function
    is never renamed for every episode."""
    import statistics

    source = f"""
    import functools
    import statistics

    def _s():
        return 0

    def pwn(state):
        {payload}
        return sys.modules["os"].getuid()
    """
    env = _env(source, ["pwn"])
    obs = env.episode().call("pwn")
    assert not obs.ok, obs
    assert "NameError" not in obs.content, obs  # stopped before the line that uses sys
    assert statistics.median.__name__ == "median"


@pytest.mark.stopped_by("control")
def test_wraps_still_decorates_tool_functions() -> None:
    """The documented use keeps working (a decorator of the tool code's own)."""
    source = '''
    import functools

    def _deco(fn):
        @functools.wraps(fn)
        def inner(state):
            return "wrapped " + fn(state)
        return inner

    @_deco
    def hello(state):
        """Say hello."""
        return "hello"
    '''
    env = _env(source, ["hello"])
    assert env.episode().call("hello").content == "wrapped hello"


@pytest.mark.stopped_by("episode-isolation")
def test_a_closure_rebound_with_nonlocal_is_refused_at_load() -> None:
    """Issue 34: a module-level closure rebound with ``nonlocal`` kept episode A's state and
    episode B wrote into it. Refused at load, also when a nested function does the rebinding;
    a closure that only reads what it captured (a decorator) still loads."""
    from autoforge.env import SandboxViolation

    leak = """
    def _mk():
        held = None
        def keep(state):
            nonlocal held
            if held is None:
                held = state["c"]
            held["x"] = 1
            return "kept"
        return keep

    _keep = _mk()

    def keep(state):
        return _keep(state)
    """
    nested = """
    def _mk():
        n = 0
        def count(state):
            def bump():
                nonlocal n
                n += 1
            bump()
            return n
        return count

    _count = _mk()

    def count(state):
        return _count(state)
    """
    for source, name in ((leak, "keep"), (nested, "count")):
        with pytest.raises(SandboxViolation, match="nonlocal"):
            _env(source, [name])
    reads = """
    def _deco(fn):
        def inner(state):
            return fn(state) + 1
        return inner

    def _mk():
        def counter(state):
            n = 0
            def bump():
                nonlocal n
                n += 1
            bump()
            return n
        return counter

    @_deco
    def one(state):
        return 1

    _two = _mk()

    def two(state):
        return _two(state)
    """
    env = _env(reads, ["one", "two"])
    ep = env.episode()
    assert ep.call("one").result == 2 and ep.call("two").result == 1


@pytest.mark.stopped_by("episode-isolation")
def test_a_module_level_decimal_context_is_refused() -> None:
    """Issue 34: ``_ctx = decimal.Context(...)`` passed the freeze check and its traps and
    flags were shared by every episode."""
    from autoforge.env import SandboxViolation

    for holder in ("_ctx = decimal.Context(prec=6)", "_ctxs = (decimal.Context(prec=6),)"):
        source = f"""
        import decimal

        {holder}

        def ping(state):
            return 1
        """
        with pytest.raises(SandboxViolation, match=r"decimal\.Context"):
            _env(source, ["ping"])


@pytest.mark.stopped_by("episode-isolation")
@pytest.mark.parametrize("trusted", [False, True], ids=["contained", "inline"])
def test_the_decimal_flags_of_one_call_are_not_seen_by_the_next(trusted: bool) -> None:
    """Issue 34: the thread's decimal flags carried over between episodes: one episode's
    inexact division was visible to another through ``localcontext().flags``."""
    source = """
    import decimal

    def divide(state):
        return str(decimal.Decimal(1) / decimal.Decimal(3))

    def look(state):
        with decimal.localcontext() as ctx:
            return [ctx.flags[decimal.Inexact], ctx.flags[decimal.Rounded], ctx.prec]
    """
    env = _env(source, ["divide", "look"], trusted=trusted)
    a, b = env.episode(), env.episode()
    assert b.call("look").result == [False, False, 28]
    assert a.call("divide").ok
    assert b.call("look").result == [False, False, 28]
    assert a.call("look").result == [False, False, 28]


# x86_64 numbers of the calls an escaped worker used against other processes (issue 34)
SYSCALLS = {
    "rt_sigqueueinfo": 129,
    "rt_tgsigqueueinfo": 297,
    "pidfd_send_signal": 424,
    "prlimit64": 302,
    "shmget": 29,
    "msgget": 68,
    "semget": 64,
    "openat2": 437,
    "setpriority": 141,
    "kill": 62,
}


def _escaped_syscalls(target: int) -> dict[str, list[int]]:
    """In a forked child behind the whole worker boundary (what a full escape from the
    Python layers gives), try each call against ``target`` (a process of the worker's uid):
    ``[result, errno]`` for each."""
    import ctypes
    import os

    from autoforge.env.isolation.boundary import _libc, enter_worker, prepare_server
    from autoforge.env.isolation.worker import _preload

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(read)
            _preload()
            enter_worker(prepare_server(frozenset()), 256, frozenset())
            libc = _libc()
            info = (ctypes.c_int * 32)(0, 0, -1)  # si_code SI_QUEUE
            old = (ctypes.c_ulong * 2)()
            how = (ctypes.c_ulonglong * 3)()
            n = SYSCALLS
            long = ctypes.c_long
            calls = {
                "rt_sigqueueinfo": (n["rt_sigqueueinfo"], long(target), 0, info),
                "rt_tgsigqueueinfo": (n["rt_tgsigqueueinfo"], long(target), long(target), 0, info),
                "pidfd_send_signal": (n["pidfd_send_signal"], 0, 0, None, 0),
                "prlimit64": (n["prlimit64"], long(target), 7, None, old),
                "shmget": (n["shmget"], 0, 200 << 20, 0o1600),
                "msgget": (n["msgget"], 0, 0o1600),
                "semget": (n["semget"], 0, 1, 0o1600),
                "openat2": (n["openat2"], -100, b"/", how, 24),
                "setpriority": (n["setpriority"], 0, long(target), 19),
                "kill": (n["kill"], long(target), 0),
            }
            out = {}
            for name, args in calls.items():
                ctypes.set_errno(0)
                out[name] = [libc.syscall(*args), ctypes.get_errno()]
            os.write(write, json.dumps(out).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        text = fh.read().decode()
    os.waitpid(pid, 0)
    return dict(json.loads(text))


@pytest.mark.stopped_by("os-boundary")
def test_an_escaped_worker_cannot_signal_throttle_or_share_ipc() -> None:
    """Issue 34: from an escaped worker, rt_sigqueueinfo, rt_tgsigqueueinfo,
    pidfd_send_signal and prlimit64 reached another process of the same uid, shmget made a
    200 MB segment that outlived everything, msgget a queue that crossed episodes, and
    openat2 was not filtered. The seccomp filter refuses each (EPERM; ENOSYS for openat2)."""
    import errno
    import os
    import platform
    import subprocess

    pytest.importorskip("pyseccomp")
    if platform.machine() != "x86_64" or os.geteuid() != 0:
        pytest.skip("x86_64 syscall numbers; a target of the workers' uid needs root")
    from autoforge.env.isolation.boundary import NOBODY

    target = subprocess.Popen(["sleep", "60"], user=NOBODY, group=NOBODY)
    try:
        seen = _escaped_syscalls(target.pid)
        assert target.poll() is None  # alive and untouched
    finally:
        target.kill()
        target.wait()
    expected = {name: [-1, errno.EPERM] for name in SYSCALLS}
    expected["openat2"] = [-1, errno.ENOSYS]
    assert seen == expected


def _status_of(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as fh:
        return dict(line.rstrip("\n").partition(":\t")[::2] for line in fh if ":\t" in line)


@pytest.mark.stopped_by("os-boundary")
def test_each_worker_has_its_own_uid_and_ipc_namespace() -> None:
    """Issue 34: every worker ran as 65534, so one could signal or throttle another (and any
    host process of nobody), and SysV objects were the host's. Workers now get a uid each
    from a range and the fork server an IPC and UTS namespace of its own."""
    import os

    from autoforge.env.isolation.boundary import NOBODY, WORKER_UIDS
    from autoforge.env.isolation.contained import _ForkServer

    if os.geteuid() != 0:
        pytest.skip("changing uid needs root")
    server = _ForkServer()
    try:
        spawned = [server.spawn(256) for _ in range(3)]
        uids = []
        for pid, sock in spawned:
            sock.sendall(b'{"op": "ping", "seq": 1}\n')
            assert sock.makefile("rb").readline()  # past its boundary
            uids.append(int(_status_of(pid)["Uid"].split()[0]))
            sock.close()
        assert len(set(uids)) == 3 and all(u in WORKER_UIDS and u != NOBODY for u in uids)
        for name in ("ipc", "uts", "net", "mnt"):
            assert os.readlink(f"/proc/{server.proc.pid}/ns/{name}") != os.readlink(
                f"/proc/self/ns/{name}"
            ), name
    finally:
        server.close()


def _children_of(pid: int) -> set[int]:
    import os

    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    if int(fh.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.add(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return out


@pytest.mark.stopped_by("os-boundary")
def test_each_worker_has_a_pid_namespace_and_leaves_nothing_behind() -> None:
    """Issue 34: no PID namespace, so an escaped worker saw (and could aim signals at) every
    process. A worker is now pid 2 of a namespace of its own (its pid 1 only waits), and
    killing it ends its keeper and init too: nothing stays behind."""
    import os
    import time

    from autoforge.env.isolation.contained import _ForkServer

    server = _ForkServer()
    try:
        pid, sock = server.spawn(256)
        sock.sendall(b'{"op": "ping", "seq": 1}\n')
        assert sock.makefile("rb").readline()
        nspid = _status_of(pid)["NSpid"].split()
        assert nspid[0] == str(pid) and nspid[-1] == "2", nspid
        assert os.readlink(f"/proc/{pid}/ns/pid") != os.readlink("/proc/self/ns/pid")
        assert _children_of(server.proc.pid)  # the keeper
        os.kill(pid, 9)
        sock.close()
        deadline = time.monotonic() + 5
        while _children_of(server.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _children_of(server.proc.pid)
    finally:
        server.close()


@pytest.mark.stopped_by("os-boundary")
def test_a_fork_server_whose_host_went_while_it_started_exits() -> None:
    """Issue 32: a Ctrl-C 1.5 s into ``forge`` left a sandbox process behind (parent 1),
    alive after SIGTERM: the host died before the fork server (or a keeper, or an init)
    armed its death signal. Each now checks its parent after arming it (an init waits on a
    pipe only its keeper holds). Here the server is told a host that is not its parent."""
    import socket
    import subprocess
    import sys

    here, there = socket.socketpair()
    proc = subprocess.Popen(
        [sys.executable, "-m", "autoforge.env.isolation.worker", str(there.fileno()), "1"],
        pass_fds=[there.fileno()],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    there.close()
    try:
        assert proc.wait(timeout=30) == 0  # gone, though its control socket is still open
    finally:
        if proc.poll() is None:
            proc.kill()
        here.close()


REEXPORTS = ["statistics.repeat(1)", "statistics.mul('a', 3)", "statistics.namedtuple('P', 'a')"]


@pytest.mark.stopped_by("python-sandbox")
@pytest.mark.parametrize("payload", REEXPORTS, ids=["repeat", "mul", "namedtuple"])
def test_names_a_module_imported_from_elsewhere_are_not_exposed(payload: str) -> None:
    """``statistics.repeat`` is ``itertools.repeat`` (denied there: unbounded) and
    ``statistics.mul`` is ``operator.mul`` (guarded there): a wholesale-allowed module exposes
    only its own objects, refused at load with the name."""
    from autoforge.env.errors import SandboxViolation

    source = f"""
    import statistics

    def pwn(state):
        return str({payload})
    """
    with pytest.raises(SandboxViolation, match="not available in the sandbox"):
        _env(source, ["pwn"])
