"""Opening a file the user named, for reading, without ever opening what is not a regular file.

A FIFO named like a log (`x.xml`) blocks whoever opens it for reading until a
writer appears, which may be never; a device can have side effects on open
(a tape rewinds, a terminal becomes ours); a socket cannot be opened at all.
So every input the user names (logs, annotation files, marker files, import
sources) is opened here: the path is stat()ed first (following symlinks, which
are fine when they lead to a regular file) and refused unless it is a regular
file; then it is opened with O_NONBLOCK, so that a FIFO swapped in after the
stat cannot block either, checked again with fstat, and O_NONBLOCK is cleared.

The refusal is an OSError (NotRegularFileError) whose strerror says what the
path is, so every `except OSError as error: ... error.strerror` that already
turns a missing file into one line does the same for these.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

try:
    import fcntl
except ImportError:  # Windows: no FIFOs to fear, no O_NONBLOCK to clear
    fcntl = None  # type: ignore[assignment]  # mypy types the name as the module; None stands for its absence

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)


class NotRegularFileError(OSError):
    """PATH exists but is a FIFO, socket, device or folder; it was not opened."""


def what_it_is(mode: int) -> str | None:
    """Why a file of this st_mode is not read as a file, in plain words; None for a regular file."""
    kind = kind_words(mode)
    if kind is None or stat.S_ISDIR(mode):
        return kind
    return f"{kind}; not opened"


def kind_words(mode: int) -> str | None:
    """What a file of this st_mode is, when it is not a regular file ("is a socket, not a regular file")."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    return "is not a regular file"


def _refusal(path: str | Path, mode: int) -> NotRegularFileError:
    code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
    return NotRegularFileError(code, what_it_is(mode), str(path))


def check_regular_file(path: str | Path) -> os.stat_result:
    """stat(PATH) when it is a regular file (symlinks followed); NotRegularFileError or the OSError otherwise."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise _refusal(path, info.st_mode)
    return info


def open_input_file(path: str | Path) -> BinaryIO:
    """PATH opened for binary reading, if it is a regular file; never blocks, never opens anything else."""
    before = check_regular_file(path)
    fd = os.open(path, _OPEN_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or (info.st_dev, info.st_ino) != (before.st_dev, before.st_ino):
            raise (
                _refusal(path, info.st_mode)
                if not stat.S_ISREG(info.st_mode)
                else OSError(errno.EAGAIN, "was replaced while being opened; try again", str(path))
            )
        if fcntl is not None and _OPEN_FLAGS & getattr(os, "O_NONBLOCK", 0):
            flags = fcntl.fcntl(fd, fcntl.F_GETFL)
            fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_problem(error: OSError) -> str:
    """An OSError from opening or reading an input, as the words after its file name."""
    if isinstance(error, NotRegularFileError):
        assert error.strerror is not None  # _refusal always says what the file is
        return error.strerror
    return f"cannot read: {error.strerror or error}"


def read_input_bytes(path: str | Path) -> bytes:
    """The whole content of the regular file PATH (see open_input_file)."""
    with open_input_file(path) as stream:
        return stream.read()


def utf8_problem(error: UnicodeDecodeError) -> str:
    """A UnicodeDecodeError of an input, as the words after its file name."""
    return f"not UTF-8 text ({error.reason} at byte {error.start})"


def read_input_text(path: str | Path, refuse: Callable[[str], Exception]) -> str:
    """The regular file PATH decoded as UTF-8 (a byte-order mark allowed). When it cannot be read
    or is not UTF-8, raises refuse(the words after the file name that say why)."""
    try:
        return read_input_bytes(path).decode("utf-8-sig")
    except OSError as error:
        raise refuse(read_problem(error)) from None
    except UnicodeDecodeError as error:
        raise refuse(utf8_problem(error)) from None
