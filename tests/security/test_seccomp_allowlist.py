"""The worker's seccomp filter is an allow-list: a call it does not name fails with EPERM
(an OSError for tool code, not a dead worker) while the calls the worker needs still work."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import sys
from typing import Any

import pytest

from autoforge.env.isolation import boundary

LAYER = "os-boundary"
sc: Any = pytest.importorskip("pyseccomp")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="seccomp is Linux")

#: dangerous calls, none of them named by the filter
OUTSIDE = ("mknod", "personality", "ptrace", "keyctl", "bpf", "perf_event_open",
           "userfaultfd", "mount", "unshare", "socket", "memfd_create", "shmget")  # fmt: skip
#: harmless calls a deny-list would let through: refused only because the filter allows by name
UNNAMED = ("uname", "sysinfo", "getcpu", "getpgid", "getsid")


def _raw(name: str) -> int | None:
    """``syscall(name, 0, 0, 0, 0, 0)``: 0 or the errno; None where ``name`` is no syscall here."""
    number = sc.resolve_syscall(sc.system_arch(), name)
    if number < 0:
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *([ctypes.c_long(0)] * 5))
    return 0 if result >= 0 else ctypes.get_errno()


def _errno_of(call: Any) -> int:
    try:
        call()
    except OSError as exc:
        return exc.errno or -1
    return 0


def _probe(r: int, w: int) -> dict[str, Any]:
    """In the filtered child (``r``, ``w``: a pipe opened before the filter): what each probe
    returned."""
    allowed = {
        "pipe write+read": _errno_of(lambda: os.write(w, b"x") and os.read(r, 1)),
        "getpid": _errno_of(os.getpid),
        "kill self": _errno_of(lambda: os.kill(os.getpid(), 0)),
        "read-only open": _errno_of(lambda: os.close(os.open(os.devnull, os.O_RDONLY))),
        "getrandom": _errno_of(lambda: os.urandom(8)),
    }
    refused = {
        "kill another": _errno_of(lambda: os.kill(os.getppid(), 0)),
        "open for writing": _errno_of(lambda: os.open(os.devnull, os.O_WRONLY)),
        "create": _errno_of(lambda: os.open("/tmp/af-sc-x", os.O_RDONLY | os.O_CREAT)),
        "prlimit of another": _errno_of(
            lambda: __import__("resource").prlimit(os.getppid(), 7)  # RLIMIT_NOFILE
        ),
    }
    raw = {name: _raw(name) for name in OUTSIDE + UNNAMED}
    return {"allowed": allowed, "refused": refused, "raw": raw}


def _in_filtered_child() -> dict[str, Any]:
    """Fork, load the worker's filter in the child (``no_new_privs`` first), run
    :func:`_probe` and hand its result back over a pipe."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            os.close(r)
            probe_pipe = os.pipe()  # the worker's descriptors, too, exist before the filter
            boundary.prctl(boundary.PR_SET_NO_NEW_PRIVS, 1)
            boundary._seccomp()
            os.write(w, json.dumps(_probe(*probe_pipe)).encode())
            code = 0
        except BaseException as exc:
            os.write(w, repr(exc).encode())
        finally:
            os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, data
    return dict(json.loads(data))


def test_calls_outside_the_list_fail_with_eperm_and_needed_ones_work() -> None:
    seen = _in_filtered_child()
    assert all(v == 0 for v in seen["allowed"].values()), seen["allowed"]
    assert all(v == errno.EPERM for v in seen["refused"].values()), seen["refused"]
    raw = {k: v for k, v in seen["raw"].items() if v is not None}
    assert set(OUTSIDE) & set(raw), "no probe is a syscall on this architecture"
    assert all(v == errno.EPERM for v in raw.values()), raw


def test_the_filter_refuses_by_default() -> None:
    """The default action is EPERM, not ALLOW: the calls in UNNAMED, which no rule names, are
    refused in the child above; here the filter's own default says so."""
    flt = boundary.worker_filter(sc)
    assert flt.get_attr(sc.Attr.ACT_DEFAULT) == sc.ERRNO(errno.EPERM)
    assert flt.get_attr(sc.Attr.ACT_DEFAULT) != sc.ALLOW
    assert not set(OUTSIDE + UNNAMED) & set(boundary._ALLOWED_SYSCALLS)
