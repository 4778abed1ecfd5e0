"""The `annotator` command run for real, as a user runs it: `python -m annotator ARGS` in a child process of the
interpreter running the tests, with this repository's code first on its path (command_environment)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO

from tests.support.repository import command_environment

DEFAULT_TIMEOUT_SECONDS = 300


def run_annotator(
    *args: str | bytes | os.PathLike[str],
    cwd: Path | None = None,
    timeout: float | None = DEFAULT_TIMEOUT_SECONDS,
    env: Mapping[str, str] | None = None,
    text: bool = True,
    preexec_fn: Callable[[], object] | None = None,
    stdout: int | IO[bytes] | None = None,
) -> subprocess.CompletedProcess:
    """The finished command, its output captured: as text, or as bytes with TEXT false (for a file name that is not
    UTF-8, given as bytes in ARGS). ENV holds variables set on top of the test's own environment; TIMEOUT None waits
    as long as the command runs; PREEXEC_FN runs in the child before the command (a resource limit, one core).
    STDOUT (a file, a descriptor, subprocess.DEVNULL) takes the command's standard output instead of the capture."""
    return subprocess.run(
        [sys.executable, "-m", "annotator", *(arg if isinstance(arg, bytes) else str(arg) for arg in args)],
        stdout=subprocess.PIPE if stdout is None else stdout,
        stderr=subprocess.PIPE,
        text=text,
        cwd=cwd,
        env={**command_environment(), **(env or {})},
        timeout=timeout,
        preexec_fn=preexec_fn,
    )


def file_size_limit(limit: int) -> Callable[[], None]:
    """A PREEXEC_FN for run_annotator: no file the command writes grows past LIMIT bytes, as on a disk that fills
    up (Python ignores SIGXFSZ, so a write past it fails with EFBIG)."""

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return limited


# A small parent for the command, reporting the peak resident memory of its one child: a child started straight
# from the test process can count the test process's own memory (Linux keeps the larger of the two at exec).
_MEASURING_PARENT = (
    "import resource, subprocess, sys\n"
    "done = subprocess.run(sys.argv[1:])\n"
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
    "sys.exit(done.returncode)\n"
)


def run_annotator_measured(
    *args: str | os.PathLike[str], timeout: float | None = DEFAULT_TIMEOUT_SECONDS
) -> tuple[subprocess.CompletedProcess, int]:
    """The finished command as run_annotator gives it (text output), and its peak resident memory in bytes."""
    return run_python_measured("-m", "annotator", *args, timeout=timeout)


def run_python_measured(
    *args: str | os.PathLike[str], timeout: float | None = DEFAULT_TIMEOUT_SECONDS
) -> tuple[subprocess.CompletedProcess, int]:
    """`python ARGS` finished (text output) and its peak resident memory in bytes: the yardstick a command's
    memory is measured against (a bare lxml parse) is measured the same way."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURING_PARENT, sys.executable, *map(str, args)],
        capture_output=True,
        text=True,
        env=command_environment(),
        timeout=timeout,
    )
    said, _, peak = done.stderr.rstrip("\n").rpartition("\n")
    done.stderr = said + "\n" if said else ""
    return done, int(peak) * 1024
