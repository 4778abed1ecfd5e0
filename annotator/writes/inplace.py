"""Writing a file that has other hard links in place, and recovering such a write interrupted half way.

Replacing a hard-linked file (write_atomic's temp file + rename) would give the
name being saved a new file and leave its other names with the old one. So
such a file keeps its inode and is overwritten, which cannot be atomic;
instead every moment leaves something complete to fall back on. The writer
holds an exclusive flock on the file throughout, and:

1. writes the new content to `.inplace-DEV-INODE.new` beside it (complete and
   fsynced before it gets that name, like every file here);
2. copies the current content to `.inplace-DEV-INODE.backup` the same way;
3. copies the new content over the file from its start, truncates it to that
   length and fsyncs it;
4. removes the backup, then the new-content file.

A kill before step 2 completes leaves the file as it was. A kill after it
leaves the backup, and the next load of the file (recover_interrupted_write,
run by every load) finishes the job under the same lock: a file equal to the
new-content file is the complete new version, one equal to the backup the
untouched old one, anything else is torn and the backup is copied back over
it. The file is then exactly the old or the new version, the leftovers are
removed, and a note says what happened. A write that fails (disk full...)
copies the backup back at once. Loading takes a shared flock while it reads,
so it never reads a file half overwritten by a live writer.

The side files are named after the file's device and inode, not its name, so
a load through any of its names in the same folder finds them; a name in
another folder does not (the backup lies beside the name that was saved).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from annotator.errors import LogReadError, WriteError
from annotator.input_files import check_regular_file
from annotator.writes.durable import Writer, Written, sync_folder, write_content

try:
    import fcntl
except ImportError:  # Windows: no flock; the backup protocol still holds for a single writer
    fcntl = None  # type: ignore[assignment]  # mypy types the name as the module; None stands for its absence

_COPY_CHUNK = 1 << 16


def lock(fd: int, exclusive: bool) -> None:
    """Wait for an advisory lock on FD (POSIX; a no-op elsewhere)."""
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)


def side_files(target: Path) -> tuple[Path, Path]:
    """(new content, backup) beside TARGET, named after its device and inode (OSError if it is not there)."""
    info = os.stat(target)
    stem = f".inplace-{info.st_dev}-{info.st_ino}"
    return target.with_name(stem + ".new"), target.with_name(stem + ".backup")


def links_notice(path: Path, others: int) -> str:
    plural = "s" if others != 1 else ""
    return (
        f"{path} has {others} other hard link{plural}: it was written in place (not replaced), "
        "so every name of the file shows the change"
    )


def write_in_place(path: Path, target: Path, content: bytes | Writer, others: int) -> Written:
    """Overwrite TARGET (which has OTHERS other hard links) with CONTENT, keeping its inode (see module)."""
    try:
        new_file, backup = side_files(target)
        held = os.open(target, os.O_RDONLY)
    except OSError as error:
        raise WriteError(f"{path}: not written, the previous file is intact: {error.strerror or error}") from None
    try:
        lock(held, exclusive=True)
        _recover_locked(target, new_file, backup)
        try:
            _complete_file(new_file, target, lambda stream: write_content(stream, content))
            _complete_file(backup, target, lambda stream: _copy_stream(target, stream))
        except OSError as error:
            _remove(backup, new_file)
            raise WriteError(f"{path}: not written, the previous file is intact: {error.strerror or error}") from None
        try:
            _copy_over(new_file, target)
        except OSError as error:
            _restore_after_failure(path, target, backup, error)
            _remove(backup, new_file)
            raise WriteError(f"{path}: not written, the previous file is intact: {error.strerror or error}") from None
        _remove(backup, new_file)
    finally:
        os.close(held)
    return Written(target, (links_notice(path, others),))


def _restore_after_failure(path: Path, target: Path, backup: Path, error: OSError) -> None:
    try:
        _copy_over(backup, target)
    except OSError:
        raise WriteError(
            f"{path}: not written ({error.strerror or error}), and putting the previous content "
            f"back failed too: it is in {backup}"
        ) from None


def _complete_file(final: Path, target: Path, fill: Callable[[BinaryIO], None]) -> None:
    """Create FINAL with what FILL writes: in a locked temporary file, fsynced, then renamed to FINAL.

    The temporary file is named like every save's of TARGET, so a kill's leftover is removed by a later save."""
    handle, temp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=final.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            lock(stream.fileno(), exclusive=True)  # a stale-file cleanup must not take it while it grows
            fill(stream)
            stream.flush()
            os.fsync(stream.fileno())
            os.replace(temp_name, final)
    except BaseException:
        _remove(Path(temp_name))
        raise
    sync_folder(final.parent)


def _copy_stream(source: Path, stream: BinaryIO) -> None:
    with open(source, "rb") as reader:
        shutil.copyfileobj(reader, stream, _COPY_CHUNK)


def _copy_over(source: Path, target: Path) -> None:
    """Write SOURCE's bytes over TARGET from its start, truncate to them, fsync: same inode, new content."""
    with open(source, "rb") as reader:
        fd = os.open(target, os.O_WRONLY)
        try:
            with os.fdopen(fd, "wb", closefd=False) as writer:
                shutil.copyfileobj(reader, writer, _COPY_CHUNK)
                writer.flush()
                os.ftruncate(fd, writer.tell())
            os.fsync(fd)
        finally:
            os.close(fd)


def _remove(*paths: Path) -> None:
    for path in paths:
        try:
            os.unlink(path)
        except OSError:
            pass
    if paths:
        sync_folder(paths[0].parent)


def recover_interrupted_write(path: str | Path) -> list[str]:
    """Finish or undo an in-place write of PATH killed half way (see module); notes on what was done.

    Costs two lstats when there is nothing to recover. Raises LogReadError when a torn file cannot
    be put back (the message names the backup, so nothing is lost)."""
    real = Path(os.path.realpath(path))
    try:
        new_file, backup = side_files(real)
    except OSError:
        return []  # loading will say what is wrong with the file itself
    if not os.path.lexists(backup) and not os.path.lexists(new_file):
        return []
    try:
        check_regular_file(real)
        held = os.open(real, os.O_RDONLY)
    except OSError:
        return []  # loading will say what is wrong with the file itself
    try:
        lock(held, exclusive=True)  # a live writer finishes first
        outcome = _recover_locked(real, new_file, backup)
    except OSError as error:
        raise LogReadError(
            path,
            f"holds a save interrupted half way that could not be put right "
            f"({error.strerror or error}); the previous content is in {backup}",
        ) from None
    finally:
        os.close(held)
    if outcome is None:
        return []
    return [
        f"a save of this file was interrupted while it was written in place (it has other hard links) and {outcome}"
    ]


def _recover_locked(target: Path, new_file: Path, backup: Path) -> str | None:
    """With the file's lock held: put an interrupted in-place write right; what was done, or None."""
    if not os.path.lexists(backup):
        if os.path.lexists(new_file):  # killed before the backup existed: the file was never touched
            _remove(new_file)
        return None
    current = _sha256(target)
    if os.path.lexists(new_file) and current == _sha256(new_file):
        outcome = "had finished: the file holds the version that save wrote"
    elif current == _sha256(backup):
        outcome = "had not changed it: the file holds the version from before that save"
    else:
        _copy_over(backup, target)
        outcome = "was rolled back: the file holds the version from before that save, restored from its backup"
    _remove(backup, new_file)
    return outcome


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for chunk in iter(lambda: stream.read(_COPY_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()
