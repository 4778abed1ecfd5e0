"""Atomic file writes: temp file in the same folder, flush, fsync, os.replace.

A failure at any point (disk full, read-only folder, permission denied)
leaves the previous file untouched and raises WriteError saying why.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from annotator.errors import WriteError

Writer = Callable[[BinaryIO], None]


def write_atomic(path: str | Path, content: bytes | Writer) -> None:
    """Replace PATH with CONTENT (bytes, or a function writing to a binary stream)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise WriteError(f"{path}: cannot write in {folder}: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            if isinstance(content, (bytes, bytearray)):
                stream.write(content)
            else:
                content(stream)
            stream.flush()
            os.fsync(stream.fileno())
        _keep_permissions(path, temp_name)
        os.replace(temp_name, path)
    except BaseException as error:
        try:
            os.unlink(temp_name)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise WriteError(f"{path}: not written, the previous file is intact: {error.strerror or error}") from None
        raise
    _sync_folder(folder)


def _keep_permissions(target: Path, temp_name: str) -> None:
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temp_name, mode)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where folders cannot be opened."""
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
