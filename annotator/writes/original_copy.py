"""The first save over a log keeps the untouched original beside it, as NAME.orig.xml.

Only the first one: once NAME.orig.xml exists it is never replaced, so it
stays the log as it was before any save of this tool (the window's Save, and
`annotator fold` writing over its input). Saving to another file keeps
nothing. For a log reached through a symlink the copy goes beside the real
file, where the save writes. The corpus scan never lists *.orig.xml as a log
(annotator.corpus.paths).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from annotator.errors import WriteError
from annotator.input_files import kind_words, read_input_bytes
from annotator.writes.atomic import existing_mode, write_atomic

ORIGINAL_COPY_SUFFIX = ".orig.xml"  # never read as a log (annotator.corpus.paths)


def original_copy_path(log_path: Path) -> Path:
    """Where the first save keeps the untouched log: NAME.orig.xml beside NAME.xml."""
    stem = log_path.name[:-4] if log_path.name.lower().endswith(".xml") else log_path.name
    return log_path.with_name(stem + ORIGINAL_COPY_SUFFIX)


def original_to_keep(log_path: Path) -> tuple[Path, bytes] | None:
    """(NAME.orig.xml beside the real file, the log's bytes now) before the first save over LOG_PATH;
    None when the copy exists already or there is no file to copy."""
    real = Path(os.path.realpath(log_path))
    target = original_copy_path(real)
    if check_original_keepable(log_path) or not real.exists():
        return None
    try:
        return target, read_input_bytes(real)
    except OSError as error:
        raise WriteError(f"{log_path}: cannot keep a copy of the original: {error.strerror or error}") from None


def check_original_keepable(log_path: Path) -> bool:
    """Whether NAME.orig.xml (beside the real file of LOG_PATH) exists, as a regular file; WriteError when
    something else is there (a FIFO, a folder, a device, a link to nothing), which would leave a save over
    the log with no copy of its original at all."""
    target = original_copy_path(Path(os.path.realpath(log_path)))
    if not os.path.lexists(target):
        return False
    mode = existing_mode(target)
    if mode is not None and stat.S_ISREG(mode):
        return True
    kind = "is a link to nothing" if mode is None else kind_words(mode)
    raise WriteError(
        f"{log_path}: its original copy {target} {kind}; not written, as no copy of the original could be kept"
    )


def keep_original(log_path: Path) -> Path | None:
    """Write NAME.orig.xml (atomically) unless it exists already; the copy written, or None."""
    found = original_to_keep(log_path)
    if found is None:
        return None
    write_atomic(*found)
    return found[0]
