"""The corpus the tests of `annotator replace` over many logs work on: LOGS copies of session 001 (which says
"boston"), each in its own folder, and the state of a folder to compare before and after a run."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from tests.support.repository import SAMPLE_LOGS

SAMPLE = SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
LOGS = 5
FIND = ["--find", "boston", "--replace", "austin"]  # the same length: a log keeps its size


def make_corpus(root: Path, count: int = LOGS) -> list[Path]:
    """COUNT copies of session 001, each in its own folder below ROOT."""
    logs = []
    for number in range(count):
        log = root / f"part{number}" / f"log{number}-hublog.xml"
        log.parent.mkdir(parents=True)
        shutil.copyfile(SAMPLE, log)
        logs.append(log)
    return logs


def state(root: Path) -> dict[str, tuple]:
    """Every entry below ROOT by lstat and, for regular files, content (a FIFO is never opened)."""
    found = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            info = os.lstat(path)
            content = path.read_bytes() if stat.S_ISREG(info.st_mode) else b""
            found[str(path.relative_to(root))] = (stat.S_IFMT(info.st_mode), info.st_mode & 0o777, content)
    return found
