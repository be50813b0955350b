"""The operating-system boundary around workers that run untrusted tool code.

Layers, strongest first (each one is tried; what is missing is skipped and said loudly):

* ``namespaces``: the fork server enters its own network namespace (no interface but a
  down loopback: no network), mount namespace (an empty read-only root mounted in it), IPC
  namespace (no SysV object shared with the host) and UTS namespace; each worker then
  ``chroot``\\ s into that empty root and drops to a uid of its own from
  :data:`WORKER_UIDS`. Needs root, or unprivileged user namespaces (then the worker keeps the
  caller's uid inside its user namespace and drops every capability instead of changing uid).
* ``rlimits``: every worker runs under ``RLIMIT_AS`` (memory), ``RLIMIT_CPU``,
  ``RLIMIT_NPROC`` = 0 (no new process or thread), ``RLIMIT_NOFILE`` (no new file descriptor),
  ``RLIMIT_FSIZE`` = 0 (no file written) and ``RLIMIT_CORE`` = 0.
* ``seccomp``: a syscall filter (``pyseccomp``, optional) refusing sockets, ``exec``, ``fork``,
  signals (``kill``, ``tgkill``, ``rt_sigqueueinfo``, ``rt_tgsigqueueinfo``,
  ``pidfd_send_signal``) and ``prlimit64``/scheduling calls aimed at other processes,
  ``ptrace``, SysV and POSIX IPC, mounts, namespaces, opening files for writing (``openat2``
  entirely) and changing the file system, with ``no_new_privs`` set.

:func:`enter_worker` applies the per-worker layers (in the child, after everything tool code
may need is imported); :func:`prepare_server` the per-server ones. :class:`Boundary` describes
what is active; :func:`describe_boundary` renders it for ``autoforge check`` and ``serve``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import functools
import os
import resource
import sys
import termios
from dataclasses import dataclass, field
from typing import Any

NOBODY = 65534
#: the uids (and gids) workers run as, one per worker: a worker cannot signal, trace or
#: throttle another worker, nor a host process that runs as ``nobody``
WORKER_UIDS = range(2_100_000_000, 2_100_000_000 + 1_000_000)
CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
EMPTY_ROOT = "/tmp/autoforge-empty-root"
WORKER_FDS = 4  # 0, 1, 2 and the protocol socket (fd 3); no other descriptor can be opened
CPU_LIMIT_S = 600

#: what the worker may call once the filter is in place: it only runs Python tool code on JSON
#: read from and written to descriptors it already holds. Found by tracing the contained tests
#: (every call after the filter point) plus the calls CPython and glibc make on paths those
#: tests rarely reach (memory growth, sleeping, exceptions, thread wake-ups); names that are
#: not syscalls on the running architecture (``open``, ``poll``, ``select`` ...) are skipped.
#: Anything else fails with ``EPERM``.
_ALLOWED_SYSCALLS = (
    # descriptors already open (fd 0-3); no new ones beyond read-only opens, below
    "read", "readv", "pread64", "write", "writev", "pwrite64", "close", "lseek", "fcntl",
    "fstat", "newfstatat", "stat", "lstat", "statx", "getdents64", "readlink", "readlinkat",
    "getcwd", "access", "faccessat", "faccessat2",
    "poll", "ppoll", "select", "pselect6",
    # memory
    "brk", "mmap", "munmap", "mremap", "mprotect", "madvise",
    # threads (the watchdog's wake-ups) and time
    "futex", "set_robust_list", "get_robust_list", "rseq", "sched_yield",
    "clock_gettime", "clock_getres", "gettimeofday", "time", "clock_nanosleep", "nanosleep",
    "getrusage", "getrandom",
    # signals handled in the process itself
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "sigaltstack",
    "restart_syscall",
    # identity, read only
    "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid",
    "exit", "exit_group",
)  # fmt: skip
#: allowed only with the worker itself as the target (argument 0: a pid)
_SELF_ONLY_SYSCALLS = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")


@dataclass
class Boundary:
    """What separates tool code from the host: the active layers and the missing ones."""

    level: str  # "namespaces", "process" (subprocess + whatever layers work) or "inline"
    layers: list[str] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)

    @property
    def contained(self) -> bool:
        """Whether tool code runs outside the host process."""
        return self.level != "inline"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record."""
        return {"level": self.level, "layers": self.layers, "missing": self.missing}


def describe_boundary(boundary: Boundary) -> str:
    """One line for people: the level, the active layers and what is missing (and why)."""
    text = f"sandbox boundary: {boundary.level} ({', '.join(boundary.layers) or 'none'})"
    if boundary.missing:
        gaps = "; ".join(f"{k}: {v}" for k, v in boundary.missing.items())
        text += f"; MISSING {gaps}"
    return text


@functools.lru_cache(maxsize=1)
def _libc() -> Any:
    """The C library, loaded once (before the chroot, where it could not be found)."""
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def prctl(option: int, value: int) -> bool:
    """``prctl(option, value)`` where the platform has it (Linux); whether it succeeded."""
    fn = getattr(_libc(), "prctl", None)
    return fn is not None and fn(option, value, 0, 0, 0) == 0


def _check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def _unshare(libc: Any, flags: int) -> None:
    _check(libc.unshare(flags), "unshare")


def _write(path: str, text: str) -> None:
    with open(path, "w") as fh:
        fh.write(text)


def _unshare_all(libc: Any, flags: int, plan: ServerPlan) -> None:
    """``unshare(flags)`` plus new IPC and UTS namespaces where they are permitted; where
    they are not, without them, said in ``plan.missing``."""
    try:
        _unshare(libc, flags | CLONE_NEWIPC | CLONE_NEWUTS)
        plan.kinds = "network+mount+ipc+uts"
    except OSError as exc:
        _unshare(libc, flags)
        plan.kinds = "network+mount"
        plan.missing["ipc+uts namespaces"] = (
            f"SysV IPC and the host name are shared with the host ({exc}); seccomp still "
            "refuses the IPC calls"
        )


def unshare_pid_namespace() -> None:
    """Put this process's next children in a new PID namespace (the first one is its pid 1)."""
    _unshare(_libc(), CLONE_NEWPID)


def _enter_user_namespace(libc: Any, plan: ServerPlan) -> None:
    uid, gid = os.getuid(), os.getgid()
    _unshare_all(libc, CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS, plan)
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"0 {uid} 1")
    _write("/proc/self/gid_map", f"0 {gid} 1")


def _empty_root(libc: Any) -> str:
    """An empty directory, mounted read-only (tmpfs) in this mount namespace when possible."""
    os.makedirs(EMPTY_ROOT, mode=0o555, exist_ok=True)
    if os.listdir(EMPTY_ROOT):
        raise OSError(errno.ENOTEMPTY, f"{EMPTY_ROOT} is not empty")
    _check(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "mount --make-rprivate")
    flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
    _check(
        libc.mount(b"tmpfs", EMPTY_ROOT.encode(), b"tmpfs", flags, b"size=4k,mode=555"),
        "mount tmpfs",
    )
    return EMPTY_ROOT


@dataclass
class ServerPlan:
    """What the fork server prepared for its workers."""

    namespaces: str = ""  # "", "root" or "user"
    kinds: str = ""  # the namespaces entered ("network+mount+ipc+uts")
    pid_namespace: bool = False  # set per worker, in the process that forks it
    root: str = ""
    missing: dict[str, str] = field(default_factory=dict)


def prepare_server(disable: frozenset[str] = frozenset()) -> ServerPlan:
    """In the fork server: enter new network and mount namespaces with an empty root.

    As root the namespaces are entered directly (workers then become ``nobody``); otherwise
    (or with ``"root"`` in ``disable``, to test that path) through a user namespace."""
    plan = ServerPlan()
    if "namespaces" in disable or not sys.platform.startswith("linux"):
        plan.missing["namespaces"] = "disabled" if "namespaces" in disable else sys.platform
        return plan
    libc = _libc()
    try:
        if os.geteuid() == 0 and "root" not in disable:
            _unshare_all(libc, CLONE_NEWNET | CLONE_NEWNS, plan)
            plan.namespaces = "root"
        else:
            _enter_user_namespace(libc, plan)
            plan.namespaces = "user"
    except OSError as exc:
        plan.missing["namespaces"] = f"no network/mount namespace ({exc})"
        return plan
    try:
        plan.root = _empty_root(libc)
    except OSError as exc:
        plan.missing["empty root"] = f"no read-only empty root ({exc})"
    return plan


def _limit(kind: int, value: int) -> None:
    _, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY and value > hard:
        value = hard
    resource.setrlimit(kind, (value, value))


def _rlimits(memory_mb: int | None) -> None:
    if memory_mb is not None:
        try:
            with open("/proc/self/statm") as fh:
                current = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        except OSError:  # no /proc (not Linux): the worker's size is unknown
            current = 1 << 30
        _limit(resource.RLIMIT_AS, current + (memory_mb << 20))
    _limit(resource.RLIMIT_CPU, CPU_LIMIT_S)
    _limit(resource.RLIMIT_FSIZE, 0)
    _limit(resource.RLIMIT_CORE, 0)
    _limit(resource.RLIMIT_NOFILE, WORKER_FDS)


def _drop_capabilities(libc: Any) -> None:
    """Clear every capability (user-namespace mode, where the uid cannot change)."""

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [(n, ctypes.c_uint32) for n in ("effective", "permitted", "inheritable")]

    header = Header(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (Data * 2)()
    _check(libc.capset(ctypes.byref(header), data), "capset")


def _add_rule(flt: Any, action: Any, name: str, *args: Any) -> None:
    """Add one rule to ``flt``; a name that is no syscall on this architecture is skipped."""
    try:
        flt.add_rule(action, name, *args)
    except (ValueError, OSError, RuntimeError):
        return


def _seccomp() -> None:
    """Load :func:`worker_filter` into this process (every thread)."""
    sc: Any = sys.modules.get("pyseccomp")  # the fork server imports it before any limit
    if sc is None:
        try:
            import pyseccomp  # type: ignore[import-untyped]  # reported if missing
        except OSError as exc:  # past the descriptor limit an absent module cannot be searched
            raise ImportError("pyseccomp") from exc
        sc = pyseccomp

    worker_filter(sc).load()


def worker_filter(sc: Any) -> Any:
    """The worker's seccomp filter (``sc``: the :mod:`pyseccomp` module), not yet loaded.

    An allow-list: :data:`_ALLOWED_SYSCALLS`, by name so that each architecture gets its own
    numbers; signals and ``prlimit64`` only aimed at the worker itself; ``ioctl`` only
    ``TCGETS``; ``open``/``openat`` only read-only without ``O_CREAT``. Every other call fails
    with ``EPERM`` (an ``OSError`` in Python, not a killed worker)."""
    flt = sc.SyscallFilter(defaction=sc.ERRNO(errno.EPERM))  # an allow-list
    flt.set_attr(sc.Attr.CTL_TSYNC, 1)  # every thread of the worker, the watchdog's too
    for name in _ALLOWED_SYSCALLS:
        _add_rule(flt, sc.ALLOW, name)
    me = os.getpid()
    for name in _SELF_ONLY_SYSCALLS:
        _add_rule(flt, sc.ALLOW, name, sc.Arg(0, sc.EQ, me))
    _add_rule(flt, sc.ALLOW, "prlimit64", sc.Arg(0, sc.EQ, 0))  # getrlimit/setrlimit of itself
    _add_rule(flt, sc.ALLOW, "ioctl", sc.Arg(1, sc.EQ, termios.TCGETS))  # isatty
    read_only = os.O_ACCMODE | os.O_CREAT  # O_RDONLY is 0: no write access, no creation
    _add_rule(flt, sc.ALLOW, "openat", sc.Arg(2, sc.MASKED_EQ, read_only, 0))
    _add_rule(flt, sc.ALLOW, "open", sc.Arg(1, sc.MASKED_EQ, read_only, 0))
    # ENOSYS, not EPERM: glibc then falls back to the calls the rules above judge
    _add_rule(flt, sc.ERRNO(errno.ENOSYS), "clone3")
    _add_rule(flt, sc.ERRNO(errno.ENOSYS), "openat2")  # flags beyond what the openat rule sees
    return flt


def enter_worker(
    plan: ServerPlan,
    memory_mb: int | None,
    disable: frozenset[str] = frozenset(),
    uid: int = NOBODY,
) -> Boundary:
    """In a freshly forked worker: apply every per-worker layer that works; the result.

    The steps, in this order: die with the fork server, resource limits, chroot into the empty
    root, drop to ``uid`` (the fork server gives each worker its own from
    :data:`WORKER_UIDS`; or drop every capability), no new processes, ``no_new_privs``,
    seccomp. Raises nothing: a layer that fails is listed in ``missing`` (the host reports it).
    """
    libc = _libc()
    layers: list[str] = []
    missing = dict(plan.missing)
    prctl(PR_SET_PDEATHSIG, 9)  # the worker dies with the fork server
    if plan.namespaces:
        layers.append(f"{plan.kinds} namespaces ({plan.namespaces})")
    if plan.pid_namespace:
        layers.append("pid namespace")
    _apply_rlimits(memory_mb, layers, missing)
    if plan.root:
        _enter_root(plan.root, layers, missing)
    _drop_privileges(plan.namespaces, libc, layers, missing, uid)
    _forbid_processes(layers, missing)
    if not prctl(PR_SET_NO_NEW_PRIVS, 1):
        missing["no_new_privs"] = "prctl is not available"
    _apply_seccomp(disable, layers, missing)
    level = "namespaces" if plan.namespaces and "uid" not in missing else "process"
    return Boundary(level=level, layers=layers, missing=missing)


# The steps of enter_worker: each appends the layer it set to ``layers`` or says in
# ``missing`` why it could not.


def _apply_rlimits(memory_mb: int | None, layers: list[str], missing: dict[str, str]) -> None:
    """Memory, CPU, file and core limits (:func:`_rlimits`)."""
    try:
        _rlimits(memory_mb)
        layers.append("rlimits")
    except (OSError, ValueError) as exc:
        missing["rlimits"] = str(exc)


def _enter_root(root: str, layers: list[str], missing: dict[str, str]) -> None:
    """``chroot`` into the fork server's empty read-only root."""
    try:
        os.chroot(root)
        os.chdir("/")
        layers.append("empty read-only root")
    except OSError as exc:
        missing["empty root"] = f"chroot failed ({exc})"


def _drop_privileges(
    namespaces: str, libc: Any, layers: list[str], missing: dict[str, str], uid: int
) -> None:
    """Become ``uid`` (namespaces entered as root), or drop every capability (in a user
    namespace); without namespaces the worker keeps the host's user, said in ``missing``."""
    if namespaces == "root":
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            layers.append("uid nobody" if uid == NOBODY else "own uid")
        except OSError as exc:
            missing["uid"] = f"cannot become uid {uid} ({exc})"
    elif namespaces == "user":
        try:
            _drop_capabilities(libc)
            layers.append("no capabilities")
        except OSError as exc:
            missing["capabilities"] = str(exc)
    else:
        missing.setdefault("uid", "the worker runs as the host's user")


def _forbid_processes(layers: list[str], missing: dict[str, str]) -> None:
    """``RLIMIT_NPROC`` = 0: no new process or thread."""
    try:
        _limit(resource.RLIMIT_NPROC, 0)
        layers.append("no new processes")
    except (OSError, ValueError) as exc:
        missing["nproc"] = str(exc)


def _apply_seccomp(disable: frozenset[str], layers: list[str], missing: dict[str, str]) -> None:
    """The syscall filter (:func:`_seccomp`), unless ``disable`` names it."""
    if "seccomp" in disable:
        missing["seccomp"] = "disabled"
        return
    try:
        _seccomp()
        layers.append("seccomp")
    except ImportError:
        missing["seccomp"] = "pyseccomp is not installed (pip install pyseccomp)"
    except (OSError, RuntimeError, ValueError) as exc:
        missing["seccomp"] = f"the filter could not be loaded ({exc})"
