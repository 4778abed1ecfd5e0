"""The pieces every durable write shares: what is written (bytes, or a function writing to a stream), what a
write did, the new file given the old one's owner and mode, and a folder's entries made durable."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

Writer = Callable[[BinaryIO], None]


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
