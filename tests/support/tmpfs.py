"""A real full disk for the tests of failed writes: a tmpfs of 256 KiB or another size (mounting needs root;
callers skip without it), filled to the brim, or to all but a given number of pages."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

PAGE = 4096  # what a tmpfs counts its space in


def mount_tmpfs(mountpoint: Path, size: str = "256k") -> bool:
    mountpoint.mkdir()
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(mountpoint)],
            capture_output=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def unmount(mountpoint: Path) -> None:
    if subprocess.run(["umount", str(mountpoint)], capture_output=True, timeout=30).returncode:
        subprocess.run(["umount", "-l", str(mountpoint)], capture_output=True, timeout=30)


def fill(folder: Path, spare_pages: int = 0) -> None:
    """Write until the file system is full (ENOSPC), keeping what fitted, then give SPARE_PAGES back (4 KiB each)."""
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:
        pass
    finally:
        os.close(fd)
    if spare_pages:
        filler = folder / "filler"
        os.truncate(filler, max(0, filler.stat().st_size - spare_pages * PAGE))
