"""Attacks on the environment runtime: every payload of issue 14 against the default boundary.

Each test asserts what must hold: no file written (a canary path), no process spawned, no
socket opened, the host process alive and its state unchanged, the other episodes untouched.
The default (contained) mode is used unless a test says otherwise.
"""

from __future__ import annotations

import itertools
import json
import os
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from autoforge.env import Environment, EnvironmentSpec, EnvLoadError, SandboxViolation
from autoforge.env import describe_boundary as describe
from autoforge.env.calls.limits import CallTimeout, call_limited, watchdog
from autoforge.synth import check_directory
from autoforge.tooldocs.spec import ToolSpec

OBJ = {"type": "object", "properties": {}, "required": []}
KEYED = {"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]}

# the escape of the issue: statistics' globals (with sys) copied into the tool module
ESCAPE = """
import functools
import statistics

def _f():
    return 1

_g = functools.wraps(statistics.mean, (), ("__globals__",))(_f)

def {name}(state):
    m = sys.modules["os"]
    m.system("touch {canary}")
    open("{canary}", "w").write("x")
    return m.popen("id").read()
"""


def _env(source: str, names: list[str], state: dict[str, Any] | None = None, **kw: Any) -> Any:
    tools = [ToolSpec(name=n, parameters=KEYED if n.endswith("_k") else OBJ) for n in names]
    spec = EnvironmentSpec(name="attack", tools=tools)
    return Environment.from_parts(spec, textwrap.dedent(source), state or {"c": {}}, **kw)


@pytest.fixture
def canary(tmp_path: Path) -> Path:
    path = tmp_path / "canary"
    assert not path.exists()
    return path


def _children() -> set[int]:
    """Processes whose parent is this process (the fork server is expected)."""
    me = str(os.getpid())
    out = set()
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            if stat.rsplit(")", 1)[1].split()[1] == me:
                out.add(int(pid))
    return out


def test_boundary_is_the_os_layer_by_default() -> None:
    env = _env("def ping(state):\n    return 1\n", ["ping"])
    boundary = env.boundary
    assert boundary.contained and boundary.level in ("namespaces", "process")
    if os.geteuid() == 0:  # CI runs as root: every layer must be there
        assert boundary.level == "namespaces", describe(boundary)
        assert {"own uid", "rlimits", "no new processes"} <= set(boundary.layers)
        pytest.importorskip("pyseccomp")
        assert "seccomp" in boundary.layers, describe(boundary)
    trusted = _env("def ping(state):\n    return 1\n", ["ping"], trusted=True)
    assert trusted.boundary.level == "inline" and not trusted.boundary.contained


def test_wraps_globals_escape_is_refused_at_load(canary: Path) -> None:
    with pytest.raises(SandboxViolation):
        _env(ESCAPE.format(name="pwn", canary=canary), ["pwn"])
    assert not canary.exists()


def test_wraps_globals_escape_in_the_checker(tmp_path: Path, canary: Path) -> None:
    env_dir = tmp_path / "env"
    env_dir.mkdir()
    spec = EnvironmentSpec(name="attack", tools=[ToolSpec(name="pwn", parameters=OBJ)])
    (env_dir / "environment.json").write_text(spec.model_dump_json())
    (env_dir / "tools.py").write_text(ESCAPE.format(name="pwn", canary=canary))
    report = check_directory(env_dir)
    assert not report.ok and report.items[0].check == "load"
    assert not canary.exists()


ESCAPED_ACTIONS = {
    "write": "open({canary!r}, 'w').write('x')",
    "spawn": "os.system('touch {canary}')",
    "fork": "os.fork()",
    "socket": "socket.socket()",
    "connect": "socket.create_connection(('127.0.0.1', 22), timeout=1)",
    "read_passwd": "open('/etc/passwd').read()",
}


def _run_escaped(code: str, disable: frozenset[str] = frozenset()) -> str:
    """Apply the worker boundary in a forked child and run ``code`` there with the real
    ``os`` and ``socket`` (what a full escape from the Python layers would give)."""
    import socket

    from autoforge.env.isolation.boundary import enter_worker, prepare_server
    from autoforge.env.isolation.worker import _preload

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(read)
            _preload()  # as the fork server does
            enter_worker(prepare_server(disable), 256, disable)
            try:
                exec(code, {"os": os, "socket": socket})
                out = b"done"
            except BaseException as exc:
                out = f"refused: {type(exc).__name__}: {exc}".encode()
            os.write(write, out)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        text = fh.read().decode()
    os.waitpid(pid, 0)
    return text


# what each configuration of the boundary must refuse (every one keeps the canary absent)
LEVELS = {
    "all layers": (frozenset(), set(ESCAPED_ACTIONS) - {"spawn"}),
    "user namespace": (frozenset({"root"}), set(ESCAPED_ACTIONS) - {"spawn"}),
    "no seccomp": (frozenset({"seccomp"}), {"write", "fork", "connect", "read_passwd"}),
    "no namespaces": (frozenset({"namespaces"}), {"write", "fork", "socket", "connect"}),
}


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("action", sorted(ESCAPED_ACTIONS))
def test_os_layers_stop_an_escaped_payload(level: str, action: str, canary: Path) -> None:
    """The boundary does not rely on the AST layer: the kernel refuses what escaped code
    tries (files, processes, sockets), and the host is untouched; each fallback level still
    refuses what its remaining layers cover."""
    if os.geteuid() != 0 and level == "all layers":
        pytest.skip("uid nobody needs root")
    disable, refused = LEVELS[level]
    if "seccomp" not in disable and action in ("socket", "write"):
        pytest.importorskip("pyseccomp")
    before = _children()
    text = _run_escaped(ESCAPED_ACTIONS[action].format(canary=str(canary)), disable)
    assert not canary.exists()
    if action in refused:  # os.system reports a failed fork as a status, not an exception
        assert text.startswith("refused"), text
    assert _children() <= before


def test_two_argument_iter_and_size_bombs_are_refused() -> None:
    with pytest.raises(SandboxViolation):
        _env("def hang(state):\n    return any(iter(int, 1))\n", ["hang"])
    payloads = {
        "alias_iter": "f = iter\n    return any(f(int, 1))",
        "op_pow": "import operator\n    return operator.pow(10, 10**8)",
        "op_mul": "import operator\n    return len(operator.mul('x', 10**9))",
        "unbound_ljust": "return len(str.ljust('x', 10**9))",
        "stored_method": "f = 'x'.ljust\n    return len(f(10**9))",
        "deque_mul": "import collections\n    return len(collections.deque([1]) * 10**9)",
        "re_sub": "import re\n    return len(re.sub('', 'x' * 1000, 'y' * 100000))",
        "decimal_prec": "import decimal\n    return str(decimal.Context(prec=10**8).sqrt(2))[:5]",
        "localcontext": "import decimal\n    with decimal.localcontext(prec=10**8):\n"
        "        return str(decimal.Decimal(2).sqrt())[:5]",
        "big_result": "return 'x' * 9_000_000 + 'y' * 9_000_000",
    }
    source = "".join(f"def {n}(state):\n    {body}\n\n" for n, body in payloads.items())
    source += "def ping(state):\n    return 'pong'\n"
    env = _env(source, [*payloads, "ping"], call_timeout_s=2.0)
    ep = env.episode()
    for name in payloads:
        start = time.monotonic()
        obs = ep.call(name)
        assert not obs.ok and obs.error_kind in ("sandbox", "crash", "timeout"), (name, obs)
        assert time.monotonic() - start < 6, name
        assert ep.call("ping").content == "pong"


def test_module_level_bound_methods_closures_and_partials_are_refused() -> None:
    sources = [
        "_keep = [].append\n",
        "def _mk():\n    box = []\n    def f(x):\n        box.append(x)\n    return f\n"
        "_add = _mk()\n",
        "import functools\n_p = functools.partial(dict.update, {})\n",
    ]
    for src in sources:
        with pytest.raises(SandboxViolation):
            _env(src + "def ping(state):\n    return 1\n", ["ping"])
    ok = "import functools\n_by = functools.partial(sorted, reverse=True)\n"
    env = _env(ok + "def ping(state):\n    return _by([1, 3, 2])\n", ["ping"])
    assert env.episode().call("ping").result == [3, 2, 1]


def test_wraps_and_partial_at_call_time_hand_out_nothing(canary: Path) -> None:
    source = f"""
import functools
import statistics

def pwn(state):
    g = functools.wraps(statistics.mean, (), ("__globals__",))(pwn)
    return sys.modules["os"].system("touch {canary}")

def peek(state):
    return str(functools.partial(statistics.mean).func)
"""
    env = _env(source, ["pwn", "peek"])
    ep = env.episode()
    obs = ep.call("pwn")
    assert not obs.ok and obs.error_kind == "crash", obs
    peek = ep.call("peek")
    assert not peek.ok and "func" in peek.content
    assert not canary.exists()


def test_decimal_context_does_not_leak_between_episodes() -> None:
    source = """
    import decimal

    def _gen():
        with decimal.localcontext(prec=3):
            yield 1
            yield 2

    def leak(state):
        g = _gen()
        next(g)
        return str(decimal.Decimal(1) / decimal.Decimal(3))

    def third(state):
        return str(decimal.Decimal(1) / decimal.Decimal(3))
    """
    env = _env(source, ["leak", "third"])
    a, b = env.episode(), env.episode()
    assert a.call("leak").content == "0.333"
    assert len(b.call("third").content) > 20  # the default 28 digits
    import decimal

    assert decimal.getcontext().prec == 28


def test_self_containing_record_is_a_recorded_error() -> None:
    source = """
    def loop(state, key):
        rec = {"k": key}
        rec["self"] = rec
        state["c"][key] = rec
        return "ok"

    def put_k(state, key):
        state["c"][key] = {"v": 1}
        return "ok"
    """
    tools = [ToolSpec(name="loop", parameters=KEYED), ToolSpec(name="put_k", parameters=KEYED)]
    for trusted in (False, True):
        spec = EnvironmentSpec(name="attack", tools=tools)
        env = Environment.from_parts(spec, textwrap.dedent(source), {"c": {}}, trusted=trusted)
        ep = env.episode()
        before = ep.state_hash()
        obs = ep.call("loop", {"key": "a"})
        assert not obs.ok and obs.error_kind == "crash", obs
        assert ep.state_hash() == before and ep.diff() == [] and ep.snapshot() == {"c": {}}
        assert ep.call("put_k", {"key": "b"}).ok


def test_records_kept_by_one_episode_do_not_change_another() -> None:
    source = """
    def put_k(state, key):
        state["c"][key] = {"n": 1}
        return "ok"

    def bump_k(state, key):
        rec = state["c"][key]
        rec["n"] = rec["n"] + 1
        state["c"][key] = rec
        return rec["n"]
    """
    env = _env(source, ["put_k", "bump_k"], {"c": {"x": {"n": 0}}})
    a, b = env.episode(), env.episode()
    assert a.call("bump_k", {"key": "x"}).result == 1
    assert a.call("bump_k", {"key": "x"}).result == 2
    assert b.snapshot() == {"c": {"x": {"n": 0}}}
    assert b.call("bump_k", {"key": "x"}).result == 1
    assert a.snapshot() == {"c": {"x": {"n": 2}}}


def test_crash_and_hang_payloads_leave_the_host_and_other_episodes_alive() -> None:
    source = """
    import re

    def backtrack(state):
        return bool(re.match(r"(a+)+$", "a" * 40 + "b"))

    def forever(state):
        def g():
            while True:
                yield 1
        return len(list(g()))

    def put_k(state, key):
        state["c"][key] = 1
        return "ok"
    """
    env = _env(source, ["backtrack", "forever", "put_k"], call_timeout_s=0.5)
    other = env.episode()
    assert other.call("put_k", {"key": "o"}).ok
    ep = env.episode()
    ticks: list[float] = []
    stop = threading.Event()

    def heartbeat() -> None:
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    beat = threading.Thread(target=heartbeat)
    beat.start()
    try:
        for tool in ("backtrack", "forever"):
            start = time.monotonic()
            obs = ep.call(tool)
            assert obs.error_kind in ("timeout", "sandbox"), obs
            assert time.monotonic() - start < 5
    finally:
        stop.set()
        beat.join()
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert max(gaps) < 0.5  # the host thread kept running
    assert other.snapshot() == {"c": {"o": 1}}
    assert other.call("put_k", {"key": "p"}).ok
    assert ep.call("put_k", {"key": "q"}).ok and ep.snapshot() == {"c": {"q": 1}}


def test_timed_out_write_is_never_committed_by_the_next_call() -> None:
    source = """
    def slow_write_k(state, key):
        state["c"][key] = "half"
        while True:
            pass

    def put_k(state, key):
        state["c"][key] = "full"
        return "ok"
    """
    for trusted in (False, True):
        env = _env(source, ["slow_write_k", "put_k"], call_timeout_s=0.3, trusted=trusted)
        ep = env.episode()
        assert ep.call("slow_write_k", {"key": "a"}).error_kind == "timeout"
        assert ep.call("put_k", {"key": "b"}).ok
        assert ep.snapshot() == {"c": {"b": "full"}}


def test_second_timeout_during_a_slow_free_does_not_escape(monkeypatch: Any) -> None:
    """The watchdog refires every 100 ms; a refire landing while C code frees a huge list
    used to escape ``call_limited`` and keep hitting the thread. Refiring every 0.5 ms makes
    the window easy to hit (the old code failed about one run in three)."""
    from autoforge.env.calls import limits

    monkeypatch.setattr(limits, "REFIRE_S", 0.0005)

    def build() -> int:
        def g() -> Any:
            while True:
                yield 1

        return len(list(g()))

    errors: list[BaseException] = []

    def run() -> None:
        try:
            for _ in range(10):
                timed_out, _, _ = call_limited(build, (), {}, 0.15)
                assert timed_out
            time.sleep(0.3)  # a stray refire would land here
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not errors, errors
    assert not any(isinstance(e, CallTimeout) for e in errors)
    assert not watchdog()._active


def test_deeply_nested_tool_code_is_a_clean_violation() -> None:
    for body in ("-" * 100_000 + "1", "not " * 50_000 + "1", "1" + " + 1" * 100_000):
        with pytest.raises(SandboxViolation):
            _env(f"def ping(state):\n    return {body}\n", ["ping"])


def test_bad_env_files_give_clean_load_errors(tmp_path: Path) -> None:
    spec = EnvironmentSpec(name="attack", tools=[ToolSpec(name="ping", parameters=OBJ)])
    cases = {
        "latin1": ("def ping(state):\n    return 'caf\xe9'\n".encode("latin-1"), None),
        "deep": (b"def ping(state):\n    return 1\n", b"[" * 100_000 + b"]" * 100_000),
        "bigint": (b"def ping(state):\n    return 1\n", b'{"c": {"x": ' + b"9" * 5000 + b"}}"),
    }
    for name, (tools, state) in cases.items():
        root = tmp_path / name
        root.mkdir()
        (root / "environment.json").write_text(spec.model_dump_json())
        (root / "tools.py").write_bytes(tools)
        if state is not None:
            (root / "initial_state.json").write_bytes(state)
        with pytest.raises(EnvLoadError):
            Environment.load(root)


def test_missing_layers_are_reported_loudly(monkeypatch: Any) -> None:
    """Where namespaces or seccomp are unavailable the worker still runs, and says so."""
    from autoforge.env.isolation.contained import _ForkServer, _warn_missing
    from autoforge.env.isolation.worker import dumps

    monkeypatch.setenv("AUTOFORGE_SANDBOX_DISABLE", "namespaces,seccomp")
    server = _ForkServer()  # a server of its own: the shared one keeps its layers
    try:
        _, sock = server.spawn(256)
        spec = EnvironmentSpec(name="attack", tools=[ToolSpec(name="ping", parameters=OBJ)])
        load = {"op": "load", "spec": spec.model_dump(mode="json"), "filename": "t.py"}
        sock.sendall(dumps({**load, "source": "def ping(state):\n    return 1\n", "timeout": 2}))
        reply = json.loads(sock.makefile("rb").readline())
        sock.close()
    finally:
        server.close()
    from autoforge.env.isolation.boundary import Boundary

    boundary = Boundary(**reply["boundary"])
    assert boundary.level == "process" and boundary.contained
    assert {"namespaces", "seccomp"} <= set(boundary.missing)
    assert "rlimits" in boundary.layers
    with pytest.warns(RuntimeWarning, match="MISSING namespaces"):
        _warn_missing(boundary)
    assert "MISSING" in describe(boundary)
