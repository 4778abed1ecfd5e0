"""Which file an open names: a log, or the first log of a folder; and whether two paths are one file."""

from __future__ import annotations

from pathlib import Path

from annotator.corpus.paths import first_log_path
from annotator.errors import LogReadError


def resolve_log_path(path: str | Path) -> Path:
    """A log file as given; for a folder, the first log in it (the corpus browser will list them all)."""
    path = Path(path)
    if not path.exists():
        raise LogReadError(path, "no such file or folder")
    if path.is_dir():
        first = first_log_path(path)  # not the whole list: a corpus of thousands of logs took 50-200 ms
        if first is None:
            raise LogReadError(path, "this folder holds no log files (*.xml)")
        return first
    return path


def same_file(a: Path, b: Path) -> bool:
    """A and B name the same file (False when either cannot be resolved)."""
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
