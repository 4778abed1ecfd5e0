"""Standard output that cannot take a command's output ends the command with one line, never an internal error.

Output sent to `/dev/full` fails with ENOSPC, a reader that went away (`| head -1`) with EPIPE, and from
whatever line of the command happened to print: an OSError there is indistinguishable from the failure of a
file the command reads or writes, so it surfaced as an internal error. A closed descriptor (`>&-`) fails
nothing at all: Python then has no sys.stdout and print() drops every line, so the command "succeeded"
with its output lost.

While a command runs, sys.stdout is wrapped so that a write or flush that fails raises
StandardOutputFailed, which no `except OSError` of the command mistakes for its own file's failure, and
which the entry point (annotator.cli.main) turns into one line and status 2. A closed descriptor is given
/dev/null, so that no file the command opens takes its number (a child process would write its output
into it), and stands for a stream whose every write fails. The output is flushed before the guard ends,
so that the last buffered block fails inside it, not in the interpreter's flush at exit; after a failure
the descriptor is pointed at /dev/null, as Python's documentation on SIGPIPE does, so that the flush at
exit has nothing left to fail on.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO


class StandardOutputFailed(Exception):
    """Writing the command's standard output failed with ERROR (an OSError)."""

    def __init__(self, error: OSError):
        self.error = error
        reason = "it is closed" if error.errno == errno.EBADF else error.strerror or str(error)
        super().__init__(f"cannot write to standard output: {reason}")

    @property
    def reader_gone(self) -> bool:
        """The reading end of a pipe was closed (`| head -1`): the reader has what it wanted."""
        return isinstance(self.error, BrokenPipeError)

    @property
    def exit_status(self) -> int:
        """Status 2, or for a reader gone the shell's for a process SIGPIPE ended (128 + 13), as the
        commands Unix pipes are made of end; the work after the last line read is not done either."""
        return 128 + signal.SIGPIPE if self.reader_gone else 2


class _Closed:
    """What a closed standard output stands for: every write fails as writing to a closed descriptor does."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))

    def writelines(self, lines: Any) -> None:
        self.write("")

    def flush(self) -> None:
        pass  # nothing was taken, so nothing is waiting

    def isatty(self) -> bool:
        return False


class _Guarded:
    """STREAM whose write, writelines and flush raise StandardOutputFailed instead of OSError."""

    def __init__(self, stream: Any):
        self._stream = stream

    def write(self, text: str) -> int:
        return _guarded(self._stream.write, text)

    def writelines(self, lines: Any) -> None:
        _guarded(self._stream.writelines, lines)

    def flush(self) -> None:
        _guarded(self._stream.flush)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _guarded(call: Any, *args: Any) -> Any:
    try:
        return call(*args)
    except OSError as error:
        raise StandardOutputFailed(error) from error


@contextmanager
def guarded_standard_output() -> Iterator[None]:
    """Within the block, a failure to write sys.stdout raises StandardOutputFailed (see module); the
    output is flushed at the block's end, and sys.stdout restored after it."""
    original: TextIO | None = sys.stdout
    if original is None:
        _fill_closed_descriptor()
    sys.stdout = _Guarded(original if original is not None else _Closed())
    try:
        try:
            yield
        finally:
            sys.stdout.flush()  # even as an error or exit passes: its lines must not fail at exit instead
    except StandardOutputFailed:
        _discard_into_null(original)
        raise
    finally:
        sys.stdout = original


def _fill_closed_descriptor() -> None:
    """Put /dev/null on descriptor 1 when it is closed, so that no file opened later takes that number."""
    try:
        os.fstat(1)
    except OSError:
        null = os.open(os.devnull, os.O_WRONLY)
        if null != 1:
            os.dup2(null, 1)
            os.close(null)


def _discard_into_null(stream: TextIO | None) -> None:
    """Point the process's own standard output at /dev/null: what is still buffered goes nowhere at exit,
    instead of failing again. A stream standing in for it (a test's capture) is left alone."""
    if stream is None or stream is not sys.__stdout__:
        return
    try:
        descriptor = sys.__stdout__.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, descriptor)
    except OSError:
        pass
    finally:
        os.close(null)
