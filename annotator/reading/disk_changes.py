"""What happened to a log's file behind the document's back.

Another program may rewrite a log while it is open: `changed_since` compares
the file now with the stamp taken when it was read, so that a save in place
never silently throws the other program's bytes away.

A save killed half way (power cut, kill -9) leaves its hidden temporary file
`.NAME.xxxxxxxx.tmp` beside the log; the log itself is intact (os.replace is
atomic). Such leftovers are ignored by loading (they do not end in .xml) and
removed by the next save of the same file. A live writer holds an flock on its
temporary file until it has replaced the target, so only the files of dead
writers are removed; POSIX only (elsewhere leftovers stay, harmless).
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from pathlib import Path
from typing import BinaryIO

from annotator.input_files import NotRegularFileError, check_regular_file, open_input_file
from annotator.reading.loading import FileStamp
from annotator.writes.atomic import write_atomic
from annotator.writes.durable import Writer, Written

try:
    import fcntl
except ImportError:  # Windows: no flock, no cleanup
    fcntl = None  # type: ignore[assignment]  # mypy types the name as the module; None stands for its absence

# A temporary file younger than this is never touched: its writer may not hold its lock yet.
STALE_AFTER_SECONDS = 2.0
_CHUNK = 1 << 20


def changed_since(path: str | Path, stamp: FileStamp) -> bool:
    """True when PATH no longer holds the bytes STAMP describes (removed, resized or rewritten).

    The modification time alone is not trusted either way: a rewrite within one
    clock tick keeps it, `touch` changes it without changing a byte. Equal sizes
    are therefore decided by the content hash. A file that exists but cannot be
    read counts as unchanged: the write itself will say what is wrong.
    """
    try:
        info = check_regular_file(path)
    except (FileNotFoundError, NotRegularFileError):
        return True
    except OSError:
        return False
    if info.st_size != stamp.size:
        return True
    try:
        return _sha256(path) != stamp.sha256
    except NotRegularFileError:
        return True
    except OSError:
        return False


def _sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open_input_file(path) as stream:
        for chunk in iter(lambda: stream.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def lock_held(fd: int, held: list[int]) -> None:
    """An flock on the temporary file open at FD, through a descriptor of its own added to HELD (the caller
    closes them once the file has replaced its target): remove_stale_temp_files leaves it alone meanwhile."""
    if fcntl is not None:
        held.append(os.dup(fd))
        fcntl.flock(held[-1], fcntl.LOCK_EX)


def write_locked(target: Path, content: bytes | Writer) -> Written:
    """write_atomic(TARGET, CONTENT), holding an flock on the temporary file until it has replaced TARGET."""
    held: list[int] = []

    def write(stream: BinaryIO) -> None:
        lock_held(stream.fileno(), held)  # kept after write_atomic closes its stream, through os.replace
        if isinstance(content, (bytes, bytearray)):
            stream.write(content)
        else:
            content(stream)

    try:
        return write_atomic(target, write)
    finally:
        for fd in held:
            os.close(fd)


def _temp_name_pattern(target: Path) -> re.Pattern[str]:
    # tempfile.mkstemp(prefix=".NAME.", suffix=".tmp") adds eight characters from [a-z0-9_].
    return re.compile(re.escape(f".{target.name}.") + r"[a-z0-9_]{8}\.tmp")


def stale_temp_files(target: str | Path) -> list[Path]:
    """The temporary files interrupted saves of TARGET left beside it (live writers' included)."""
    target = Path(target)
    pattern = _temp_name_pattern(target)
    try:
        names = os.listdir(target.parent if str(target.parent) else ".")
    except OSError:
        return []
    return sorted(target.parent / name for name in names if pattern.fullmatch(name))


def remove_stale_temp_files(target: str | Path) -> int:
    """Remove what killed saves of TARGET left behind; the number removed. Never raises."""
    if fcntl is None:
        return 0
    removed = 0
    now = time.time()
    for candidate in stale_temp_files(target):
        try:
            info = os.lstat(candidate)
            if now - info.st_mtime < STALE_AFTER_SECONDS or not os.path.isfile(candidate) or os.path.islink(candidate):
                continue
            fd = os.open(candidate, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held by a live writer: leave it
            os.unlink(candidate)
            removed += 1
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed
