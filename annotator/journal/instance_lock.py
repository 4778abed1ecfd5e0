"""Who has a log open for editing, and whether that program still runs.

Each window editing a log keeps a small lock file beside its recovery journal
(annotator.journal.recovery_journal): the process id, the host, the boot id and the
process's start time, and when the log was opened. Another window reads it:

  LIVE     this host, that process runs and started when the lock says;
  DEAD     this host, and the process is gone, or its pid now belongs to another
           process (the start time differs), or the machine has rebooted since;
  UNKNOWN  another host wrote it (a data folder shared over the network): it
           cannot be checked from here, so the annotator has to be asked.

The start time and boot id come from /proc on Linux; elsewhere a lock whose pid
runs counts as live.
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from annotator.input_files import read_input_bytes
from annotator.writes.atomic import write_atomic

LIVE, DEAD, UNKNOWN = "live", "dead", "unknown"
_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
_START_TIME_FIELD = 19  # starttime (field 22 of /proc/PID/stat), counted after the ")" closing the name


@dataclass(frozen=True)
class InstanceLock:
    pid: int
    host: str
    boot: str | None  # None where the system does not tell
    started: int | None  # the process's start time in clock ticks since boot; None: unknown
    since: datetime  # when the log was opened

    @classmethod
    def of_this_process(cls) -> InstanceLock:
        return cls(os.getpid(), this_host(), _boot_id(), process_start_time(os.getpid()), datetime.now().astimezone())

    def to_bytes(self) -> bytes:
        content = {
            "pid": self.pid,
            "host": self.host,
            "boot": self.boot,
            "started": self.started,
            "since": self.since.isoformat(timespec="seconds"),
        }
        return json.dumps(content).encode("utf-8")

    @classmethod
    def parse(cls, raw: bytes) -> InstanceLock:
        """Raises ValueError on anything but a lock this module wrote."""
        try:
            content = json.loads(raw.decode("utf-8"))
            pid, host, boot, started = content["pid"], content["host"], content["boot"], content["started"]
            since = datetime.fromisoformat(content["since"]).astimezone()
        except (KeyError, TypeError, AttributeError, OverflowError, RecursionError) as error:
            raise ValueError(f"not a lock file: {error}") from None
        if not (
            _is_int(pid)
            and pid > 0
            and isinstance(host, str)
            and (boot is None or isinstance(boot, str))
            and (started is None or _is_int(started))
        ):
            raise ValueError("not a lock file: a field has the wrong type")
        return cls(pid, host, boot, started, since)

    def state(self) -> str:
        if self.host != this_host():
            return UNKNOWN
        boot = _boot_id()
        if self.boot is not None and boot is not None and self.boot != boot:
            return DEAD
        if not _pid_runs(self.pid) or _is_zombie(self.pid):
            return DEAD
        started = process_start_time(self.pid)
        if self.started is not None and started is not None and started != self.started:
            return DEAD  # the pid was reused by another process
        return LIVE

    def describe(self) -> str:
        """'process 1234 on this computer, since 2026-11-21 14:02' / 'the computer lab-3, since ...'."""
        where = f"process {self.pid} on this computer" if self.host == this_host() else f"the computer {self.host}"
        return f"{where}, since {self.since:%Y-%m-%d %H:%M}"


def write_lock(path: Path, lock: InstanceLock) -> None:
    """Write LOCK at PATH atomically. Raises WriteError."""
    write_atomic(path, lock.to_bytes())


def read_lock(path: Path) -> InstanceLock | None:
    """The lock at PATH, or None when there is none or it cannot be read (no live window wrote it:
    locks are written atomically)."""
    try:
        return InstanceLock.parse(read_input_bytes(path))  # a FIFO put in the journal folder is never opened
    except (OSError, ValueError):
        return None


def this_host() -> str:
    return socket.gethostname()


def process_start_time(pid: int) -> int | None:
    """PID's start time in clock ticks since boot (Linux), None when it cannot be read."""
    try:
        return int(_stat_fields(pid)[_START_TIME_FIELD])
    except (OSError, ValueError, IndexError):
        return None


def _is_zombie(pid: int) -> bool:
    """Killed but not yet reaped by its parent: it runs no more."""
    try:
        return _stat_fields(pid)[0] == "Z"
    except (OSError, IndexError):
        return False


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the process name (which may hold spaces and parentheses)."""
    return (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()


def _boot_id() -> str | None:
    try:
        return _BOOT_ID.read_text().strip() or None
    except OSError:
        return None


def _pid_runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    except OSError:
        return False
    return True


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
