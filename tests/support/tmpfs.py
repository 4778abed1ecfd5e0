"""A real full disk for the tests of failed writes: a 256 KiB tmpfs (mounting needs root; callers skip
without it), filled to the brim."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def mount_tmpfs(mountpoint: Path) -> bool:
    mountpoint.mkdir()
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs", str(mountpoint)],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def unmount(mountpoint: Path) -> None:
    if subprocess.run(["umount", str(mountpoint)], capture_output=True, timeout=30).returncode:
        subprocess.run(["umount", "-l", str(mountpoint)], capture_output=True, timeout=30)


def fill(folder: Path) -> None:
    """Write until the file system is full (ENOSPC), keeping what fitted."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
