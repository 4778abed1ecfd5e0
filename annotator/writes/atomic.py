"""Atomic file writes: temp file in the same folder, flush, fsync, os.replace.

A failure at any point (disk full, read-only folder, permission denied)
leaves the previous file untouched and raises WriteError saying why.

What is written is the file the path names in the end: a symlink (or a chain
of them) is followed and its target replaced, in the target's folder, so the
link stays a link and the real file gets the content. The replacement keeps
the file's mode, group and, where permitted, owner. A file that is read-only
(no write permission bit, or one this user may not write) is not replaced:
os.replace in a writable folder would go through where a plain write would not. Nor is anything that
is not a regular file (a device, a FIFO, a socket, a folder): a rename would put a file in place of
/dev/null. A file with other hard
links is not replaced (that would detach it from its other names) but written
in place, with a backup until done (annotator.writes.inplace); the result says so.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from annotator.errors import WriteError
from annotator.input_files import kind_words
from annotator.writes.durable import Writer, Written, remove_quietly, sync_folder, write_beside
from annotator.writes.inplace import write_in_place


def write_target(path: str | Path) -> Path:
    """The file a write to PATH lands in: PATH, or for a symlink the file its chain finally names."""
    path = Path(path)
    if not os.path.islink(path):
        return path
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:
        final = os.path.realpath(path)
        raise WriteError(f"{path}: is a symbolic link to {final}, which does not exist; not written") from None
    except OSError as error:
        raise WriteError(
            f"{path}: is a symbolic link that cannot be followed ({error.strerror or error}); not written"
        ) from None


def write_atomic(path: str | Path, content: bytes | Writer) -> Written:
    """Replace PATH (or the file a symlink at PATH names) with CONTENT (bytes, or a function writing to a stream)."""
    path = Path(path)
    target, existing = writable_target(path)
    if existing is not None and stat.S_ISREG(existing.st_mode) and existing.st_nlink > 1:
        return write_in_place(path, target, content, existing.st_nlink - 1)
    folder = target.parent if str(target.parent) else Path(".")
    temp = write_beside(path, target, content, existing)
    try:
        os.replace(temp, target)
    except BaseException as error:
        remove_quietly(temp)
        if isinstance(error, OSError):
            raise WriteError(f"{path}: not written, the previous file is intact: {error.strerror or error}") from None
        raise
    sync_folder(folder)
    return Written(target)


def writable_target(path: Path) -> tuple[Path, os.stat_result | None]:
    """The file a write to PATH lands in (write_target) and its stat (None for a new file), once
    refuse_unwritable has let it through."""
    target = write_target(path)
    try:
        existing: os.stat_result | None = os.stat(target)
    except OSError:
        existing = None
    refuse_unwritable(path, existing, target)
    return target, existing


def refuse_unwritable(path: str | Path, existing: os.stat_result | None = None, target: Path | None = None) -> None:
    """Raise WriteError when the file PATH names (TARGET, its stat EXISTING, when known) is not a regular
    file (a device, FIFO, socket or folder is never replaced), or is read-only: no write permission bit
    at all (as chmod a-w leaves it, which root's own writes would ignore), or not writable by this user.
    A file that does not exist yet passes."""
    if target is None:
        target = write_target(path)
    if existing is None:
        try:
            existing = os.stat(target)
        except OSError:
            return
    refuse_not_regular(path, existing.st_mode)
    mode = stat.filemode(existing.st_mode)
    if existing.st_mode & 0o222 == 0:
        raise WriteError(f"{path}: is read-only ({mode}); not written: make it writable or write to another file")
    if not (os.access(target, os.W_OK) or _on_read_only_file_system(target)):
        raise WriteError(
            f"{path}: not written, the previous file is intact: {os.strerror(errno.EACCES)} "
            f"(this user may not write it: {mode}, owner id {existing.st_uid})"
        )


def refuse_not_regular(path: str | Path, mode: int) -> None:
    """WriteError when MODE (of what PATH names) is anything but a regular file: nothing is written there."""
    kind = kind_words(mode)
    if kind is not None:
        raise WriteError(f"{path}: {kind}; nothing written (an output must be a regular file or a new name)")


def existing_mode(path: str | Path) -> int | None:
    """The st_mode of what PATH names (symlinks followed), None when nothing is there (or it cannot be seen)."""
    try:
        return os.stat(path).st_mode
    except OSError:
        return None


def refuse_special_output(path: str | Path) -> None:
    """WriteError when PATH (symlinks followed) exists and is not a regular file: checked before an output
    is written, whatever --force says. A link whose target is missing passes (its write says so)."""
    mode = existing_mode(path)
    if mode is not None:
        refuse_not_regular(path, mode)


def _on_read_only_file_system(path: Path) -> bool:
    """Whether PATH lies on a file system mounted read-only: the write's own error says so better."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # AttributeError: no statvfs (Windows)
        return False
