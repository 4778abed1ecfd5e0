"""The pieces every durable write shares: what is written (bytes, or a function writing to a stream), what a
write did, the new version written complete beside the file it is to replace, the new file given the old one's
owner and mode, and a folder's entries made durable."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from annotator.errors import WriteError

Writer = Callable[[BinaryIO], None]
OnOpen = Callable[[int], None]


@dataclass(frozen=True)
class Written:
    """What a write did: the file it wrote (symlinks followed), and anything the user should be told."""

    path: Path
    notices: tuple[str, ...] = ()


def write_content(stream: BinaryIO, content: bytes | Writer) -> None:
    if isinstance(content, (bytes, bytearray)):
        stream.write(content)
    else:
        content(stream)


def write_beside(
    path: Path, target: Path, content: bytes | Writer, existing: os.stat_result | None, on_open: OnOpen | None = None
) -> Path:
    """A new temporary file `.NAME.xxxxxxxx.tmp` beside TARGET (the file a write to PATH lands in) holding CONTENT,
    flushed and fsynced, with the owner and mode of EXISTING (TARGET's stat, None when it is new); ON_OPEN gets its
    descriptor first (to take an flock). Raises WriteError saying why, and then no such file is left."""
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise WriteError(f"{path}: cannot write in {folder}: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            if on_open is not None:
                on_open(stream.fileno())
            write_content(stream, content)
            stream.flush()
            os.fsync(stream.fileno())
            keep_owner_and_mode(stream.fileno(), existing)
    except BaseException as error:
        remove_quietly(Path(name))
        if isinstance(error, OSError):
            raise WriteError(f"{path}: not written, the previous file is intact: {error.strerror or error}") from None
        raise
    return Path(name)


def remove_quietly(path: Path) -> None:
    """Remove PATH if it is there; a failure leaves it, as a stale temporary file a later save removes."""
    try:
        os.unlink(path)
    except OSError:
        pass


def keep_owner_and_mode(fd: int, existing: os.stat_result | None) -> None:
    """Give the new file behind FD the owner, group and mode of EXISTING (the umask's mode for a new file)."""
    if existing is None:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        return
    if hasattr(os, "fchown"):
        for owner in (existing.st_uid, -1):  # another owner needs root; the group needs membership only
            try:
                os.fchown(fd, owner, existing.st_gid)
                break
            except PermissionError:
                continue
    os.fchmod(fd, existing.st_mode & 0o7777)  # after chown, which may clear set-id bits


def sync_folder(folder: Path) -> None:
    """Make a rename or unlink itself durable (POSIX); harmless where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
