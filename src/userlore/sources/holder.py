"""Who holds a lease or runs a sync: a process identity another process can check.

A holder is ``<host key>.<pid>.<start>``: the host key digests the host name, the boot id and the
PID namespace (Linux), so two containers sharing a host name never take each other's PIDs for
their own; ``start`` is the process start time in clock ticks since boot (``0`` where unknown),
so a PID reused by a later process is not mistaken for the holder. Another process on the same
host can then tell for certain that a holder is gone (:func:`holder_gone`) and take its work
over at once instead of waiting for a lease to expire. On another host nothing can be told:
:func:`holder_gone` answers ``False`` and the lease (or the age bound of a run) decides.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import socket
from pathlib import Path

__all__ = ["holder_gone", "this_holder"]

_HOLDER = re.compile(r"([0-9a-f]{12})\.([0-9]{1,10})\.([0-9]{1,20})")


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return ""


@functools.cache
def _host_key() -> str:
    parts = [socket.gethostname(), _read("/proc/sys/kernel/random/boot_id")]
    try:
        parts.append(str(os.stat("/proc/self/ns/pid").st_ino))
    except OSError:
        parts.append("")
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()[:12]


def _start_ticks(pid: int) -> int | None:
    """The start time of ``pid`` (Linux), ``0`` where unknown, ``None`` when it is gone."""
    stat = _read(f"/proc/{pid}/stat")
    if stat:
        fields = stat.rsplit(")", 1)[-1].split()
        # fields[0] is the state (field 3 of proc(5)); start time is field 22
        if fields and fields[0] in ("Z", "X", "x"):
            return None  # a zombie (killed, not yet reaped) holds nothing
        return int(fields[19]) if len(fields) > 19 and fields[19].isdigit() else 0
    try:  # no /proc, or it hides other users' processes
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except OSError:
        return 0  # it exists (owned by someone else)
    return 0


def this_holder() -> str:
    """The holder identity of the calling process."""
    pid = os.getpid()
    return f"{_host_key()}.{pid}.{_start_ticks(pid) or 0}"


def holder_gone(holder: str | None) -> bool:
    """Whether ``holder`` is certainly no longer running (same host, its process has ended).

    ``False`` for holders of other hosts, malformed or missing holders, and live processes.
    """
    if not holder:
        return False
    match = _HOLDER.fullmatch(holder)
    if match is None or match.group(1) != _host_key():
        return False
    pid, start = int(match.group(2)), int(match.group(3))
    current = _start_ticks(pid)
    if current is None:
        return True
    return bool(start and current and current != start)  # the PID now names a later process
