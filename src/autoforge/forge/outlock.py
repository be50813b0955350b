"""One forge run per ``--out`` at a time: an exclusive ``flock`` on ``OUT/.forge.lock``.

Two runs into one directory both resumed the same stages and appended the same tasks twice
(and both exited 0). The lock is an advisory ``flock`` held on an open file for the whole run:
the kernel drops it when the process ends, however it ends (SIGKILL included), so a crashed run
never leaves a stale lock behind and the next run resumes as before. The holder writes its pid,
start time and command line into the file, so a refused run can say who holds the directory.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from autoforge.errors import UserError

LOCK_NAME = ".forge.lock"


class OutDirLocked(UserError):
    """Another process is writing to this ``--out``."""


def _holder(path: Path) -> str:
    """Who holds the lock, as its holder wrote it (the file may be mid-write: best effort)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        text = ""
    return text.replace("\n", ", ") if text else "a process that has not written its pid yet"


@contextlib.contextmanager
def out_lock(root: Path) -> Iterator[Path]:
    """Hold the lock of ``root`` (created if missing) for the ``with`` block, or raise
    :class:`OutDirLocked` naming the process that holds it."""
    root.mkdir(parents=True, exist_ok=True)
    path = root / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            raise OutDirLocked(
                f"{root} is in use by another forge run ({_holder(path)}); wait for it to "
                "finish (or stop it), or pass another --out"
            ) from None
        started = datetime.now(UTC).isoformat(timespec="seconds")
        note = f"pid {os.getpid()}\nstarted {started}\ncommand {' '.join(sys.argv)[:500]}\n"
        os.ftruncate(fd, 0)
        os.pwrite(fd, note.encode("utf-8", errors="replace"), 0)
        yield path
    finally:
        os.close(fd)  # closing drops the flock
