"""Saves of one log exclude each other, across processes: the window's Save, fold, adjudicate and replace.

A save over the file a document was read from checks that nobody changed it since
(annotator.reading.disk_changes), then replaces it. Two saves running at once could both
pass the check before either replaced the file, and the second would throw the first
one's annotations away. So a save holds this lock from its check to its rename, and
the loser of a race finds the change when its turn comes and refuses.

The lock is an flock on the folder the file is written in (symlinks followed): it
leaves no file behind, and the rename it guards happens in that folder. It is taken
by every writer of a log (LogDocument.save, and fold writing a folder over itself);
other saves into the same folder wait their turn, which costs nothing but a pause.
Within one process the lock is re-entrant (a fold of a folder holds it while its
documents are saved). A folder that cannot be opened, or a system without flock, goes
unlocked: the write itself says what is wrong. A lock held longer than WAIT_SECONDS
is refused rather than waited for without end. A folder this process writes alone (a staging folder,
itself held under its own flock while its writer lives: annotator.outputs.stale_staging) is marked
private and its saves take no lock: nobody else saves there, and its flock would keep them waiting.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from annotator.errors import WriteError

try:
    import fcntl
except ImportError:  # Windows: no flock; saves are checked, not excluded
    fcntl = None  # type: ignore[assignment]  # mypy types the name as the module; None stands for its absence

WAIT_SECONDS = 120.0
_POLL_SECONDS = 0.02


class _FolderLock:
    """This process's hold of one folder's flock: the threads take turns, one thread may nest."""

    def __init__(self) -> None:
        self.turn = threading.RLock()
        self.fd: int | None = None
        self.depth = 0


_locks: dict[str, _FolderLock] = {}
_locks_guard = threading.Lock()
_private: set[str] = set()  # folders only this process writes in (see mark_private)


def mark_private(folder: str | Path) -> None:
    """FOLDER is written by this process alone until unmark_private: saves into it take no lock."""
    with _locks_guard:
        _private.add(os.path.realpath(folder))


def unmark_private(folder: str | Path) -> None:
    with _locks_guard:
        _private.discard(os.path.realpath(folder))


def save_folder(path: str | Path) -> str:
    """The folder a save of PATH renames in: the real folder of the file its symlinks finally name."""
    return os.path.dirname(os.path.realpath(path)) or "."


@contextmanager
def holding_save_lock(path: str | Path, wait_seconds: float = WAIT_SECONDS) -> Iterator[None]:
    """Hold the save lock of PATH's folder (see module) while the block runs."""
    folder = save_folder(path)
    with _locks_guard:
        private = folder in _private
        lock = _locks.setdefault(folder, _FolderLock())
    if private:
        yield
        return
    deadline = time.monotonic() + wait_seconds
    if not lock.turn.acquire(timeout=wait_seconds):
        raise _busy(path, folder, wait_seconds)
    try:
        if lock.depth == 0:
            lock.fd = _locked_folder(path, folder, deadline, wait_seconds)
        lock.depth += 1
        try:
            yield
        finally:
            lock.depth -= 1
            if lock.depth == 0 and lock.fd is not None:
                os.close(lock.fd)  # releases the flock
                lock.fd = None
    finally:
        lock.turn.release()


def _locked_folder(path: str | Path, folder: str, deadline: float, wait_seconds: float) -> int | None:
    """An open descriptor of FOLDER holding its exclusive flock; None where there is nothing to lock."""
    if fcntl is None:
        return None
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise _busy(path, folder, wait_seconds) from None
                time.sleep(_POLL_SECONDS)
            except OSError:
                os.close(fd)  # a file system without flock
                return None
    except BaseException:
        os.close(fd)
        raise


def _busy(path: str | Path, folder: str, wait_seconds: float) -> WriteError:
    return WriteError(
        f"{path}: another program has been saving into {folder} for {wait_seconds:g} s; "
        "nothing written: try again when it has finished"
    )
