"""A trace of every thread when the window's process dies of a fatal signal.

A segfault in Qt or a binding kills the process without a word, and a window started from the desktop has
no terminal to print one in. Python's fault handler writes the Python stack of every thread to a file of
its own, DATA/crashes/crash-PID.txt (DATA: the annotator's data folder, as for the recovery journal), when
the process dies of SIGSEGV, SIGFPE, SIGABRT, SIGBUS or SIGILL. A process that ends normally removes its
file, so what is left in the folder are the crashes; a C backtrace needs gdb (docs/contributing.md says how).
"""

from __future__ import annotations

import atexit
import faulthandler
import os
import sys
import time
from pathlib import Path
from typing import IO

from annotator import __version__
from annotator.journal.files import data_dir

_trace: tuple[IO[str], Path] | None = None


def crash_folder() -> Path:
    return data_dir() / "crashes"


def record_crash_traces(folder: Path | None = None) -> Path | None:
    """Turn the fault handler on for this process, writing to a file of its own in FOLDER (crash_folder()
    by default); that file, or None when the folder cannot be written (then the handler writes to stderr)."""
    global _trace
    if _trace is not None:
        return _trace[1]
    folder = folder if folder is not None else crash_folder()
    path = folder / f"crash-{os.getpid()}.txt"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        stream = open(path, "w", encoding="utf-8")  # held open: the fault handler writes to it
        stream.write(f"annotator {__version__}, process {os.getpid()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
        stream.flush()
    except OSError:
        _trace_to_stderr()
        return None
    faulthandler.enable(file=stream, all_threads=True)
    _trace = (stream, path)
    atexit.register(forget_crash_trace)
    return path


def forget_crash_trace() -> None:
    """The process ends normally: its crash file is removed (the handler writes to stderr from now on)."""
    global _trace
    if _trace is None:
        return
    stream, path = _trace
    _trace = None
    _trace_to_stderr()
    stream.close()
    path.unlink(missing_ok=True)


def _trace_to_stderr() -> None:
    """The fault handler on standard error, or off when the process has none (a desktop launcher's pythonw)."""
    if sys.__stderr__ is not None:
        faulthandler.enable(file=sys.__stderr__, all_threads=True)
    else:
        faulthandler.disable()
