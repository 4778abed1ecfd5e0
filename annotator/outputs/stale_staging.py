"""Staging folders that say whether their writer still runs, so that the next run removes a dead one.

A command killed outright (SIGKILL, the out-of-memory killer, a power cut) cannot remove its hidden
staging folder `.NAME.XXXXXXXX.tmp`, with megabytes of partial files in it. Each staging folder is
therefore held under an exclusive flock() for as long as its writer lives (the kernel releases it
when the process dies, however it dies), and every run that is about to stage an output NAME in a
folder first removes the `.NAME.*.tmp` folders there whose lock it can take: their writer is gone.
A folder in use by a concurrent run is locked and left alone.

A new folder is made as `.NAME.XXXXXXXX.new` and renamed to `.tmp` only once locked, so that a sweep
never sees an unlocked folder of a live writer; a `.new` folder is swept only when an hour old (its
writer was killed between its mkdir and its lock). Where there is no flock (Windows), staging folders
are made as before and never swept.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

from annotator.writes.save_lock import mark_private, unmark_private

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]  # mypy types the name as the module; None stands for its absence

STAGING_SUFFIX = ".tmp"
_UNLOCKED_SUFFIX = ".new"
_RANDOM_LENGTH = 8  # what tempfile.mkdtemp puts between prefix and suffix
_ABANDONED_SECONDS = 3600.0  # an unlocked `.new` folder this old lost its writer before it took its lock
_DIRECTORY_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)


class StagingFolder:
    """A new, empty staging folder for an output NAME in HOME, locked until release()."""

    path: Path  # the folder; set in either branch of __init__

    def __init__(self, home: Path, name: str):
        remove_stale(home, name)
        if fcntl is None:
            self.path = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=STAGING_SUFFIX, dir=home))
            self._fd: int | None = None
            return
        while True:
            made = Path(tempfile.mkdtemp(prefix=f".{name}.", suffix=_UNLOCKED_SUFFIX, dir=home))
            fd = os.open(made, _DIRECTORY_FLAGS)
            fcntl.flock(fd, fcntl.LOCK_EX)
            path = made.with_name(made.name[: -len(_UNLOCKED_SUFFIX)] + STAGING_SUFFIX)
            if not os.path.lexists(path):
                os.rename(made, path)
                self.path, self._fd = path, fd
                mark_private(path)  # its writer's saves need no save lock: its own flock keeps others out
                return
            os.close(fd)  # that name is taken (one chance in 10^12): draw again
            os.rmdir(made)

    def release(self) -> None:
        """The writer is done with the folder (removed, or renamed into place)."""
        if self._fd is not None:
            unmark_private(self.path)
            os.close(self._fd)
            self._fd = None


def remove_stale(home: Path, name: str) -> list[Path]:
    """Remove the staging folders for NAME in HOME whose writer is gone. The folders removed."""
    if fcntl is None:
        return []
    removed = []
    prefix = f".{name}."
    try:
        entries = list(os.scandir(home))
    except OSError:
        return []
    for entry in entries:
        middle, suffix = entry.name[len(prefix) : -4], entry.name[-4:]
        if not (
            entry.name.startswith(prefix)
            and suffix in (STAGING_SUFFIX, _UNLOCKED_SUFFIX)
            and len(middle) == _RANDOM_LENGTH
            and entry.is_dir(follow_symlinks=False)
        ):
            continue
        if suffix == _UNLOCKED_SUFFIX and not _older_than(entry, _ABANDONED_SECONDS):
            continue
        if _remove_if_unlocked(Path(entry.path)):
            removed.append(Path(entry.path))
    return removed


def _older_than(entry: os.DirEntry, seconds: float) -> bool:
    try:
        return time.time() - entry.stat(follow_symlinks=False).st_mtime > seconds
    except OSError:
        return False


def _remove_if_unlocked(folder: Path) -> bool:
    try:
        fd = os.open(folder, _DIRECTORY_FLAGS)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # its writer runs
        os.close(fd)
        return False
    try:
        shutil.rmtree(folder, ignore_errors=True)  # under the lock: no other sweep removes it meanwhile
    finally:
        os.close(fd)
    return not os.path.lexists(folder)
