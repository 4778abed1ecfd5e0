"""Every command whose standard output cannot be written says so in one line and exits 2, never 70.

Each sub-command (tests.support.every_command) runs for real, as a child process, with its standard output
/dev/full (ENOSPC), closed (`>&-`), or a pipe whose reader is gone (`| head -1`: EPIPE). A command that prints
nothing on standard output has nothing to fail on and succeeds. `replace` prints its changes before it
writes, so a change list that cannot be printed leaves every log as it was.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

from annotator.cli.main import COMMANDS
from tests.support.cli import run_annotator
from tests.support.every_command import EVERY_COMMAND, WINDOW
from tests.support.output_commands import make_work

# commands that print nothing on standard output (their report goes to stderr)
SILENT = {"export", "fold", "extract", "import", "assign", "index", "index --clear", "markers", "align"}
NO_SPACE = "annotator: cannot write to standard output: No space left on device"
CLOSED = "annotator: cannot write to standard output: it is closed"


@contextmanager
def full_output() -> Iterator[IO[bytes]]:
    with open("/dev/full", "wb") as stream:
        yield stream


@contextmanager
def reader_gone() -> Iterator[int]:
    reading, writing = os.pipe()
    os.close(reading)  # before the command starts: its first write finds nobody reading
    try:
        yield writing
    finally:
        os.close(writing)


def _close_standard_output() -> None:
    os.close(1)


def run_with_output(argv: list, stdout, closed: bool = False) -> subprocess.CompletedProcess:
    return run_annotator(*argv, stdout=stdout, preexec_fn=_close_standard_output if closed else None)


def test_every_command_is_covered() -> None:
    assert {name.split()[0] for name in EVERY_COMMAND if not name.startswith("-")} == set(COMMANDS) - {WINDOW}


@contextmanager
def closed_output() -> Iterator[int]:
    yield subprocess.DEVNULL  # replaced by nothing: the child closes its descriptor 1 (_close_standard_output)


OUTPUTS = {"full": full_output, "closed": closed_output, "reader gone": reader_gone}


@pytest.mark.slow
@pytest.mark.parametrize("output", sorted(OUTPUTS))
@pytest.mark.parametrize("name", sorted(EVERY_COMMAND))
def test_standard_output_that_cannot_be_written(name: str, output: str, tmp_path: Path) -> None:
    """Full or closed: one line and status 2. A reader gone, as `| head` ends a command: no word (the reader has
    what it wanted), the status of a process SIGPIPE ended, and no complaint from the interpreter's flush at exit."""
    work, out = make_work(tmp_path / "work"), tmp_path / "out"
    out.mkdir()
    with OUTPUTS[output]() as stream:
        done = run_with_output(EVERY_COMMAND[name](work, out), stream, closed=output == "closed")
    if name in SILENT:
        assert done.returncode == 0, done.stderr
    elif output == "reader gone":
        assert done.returncode == 128 + signal.SIGPIPE, done.stderr
        assert "standard output" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    else:
        said = NO_SPACE if output == "full" else CLOSED
        assert (done.returncode, done.stderr.splitlines()[-1:]) == (2, [said]), done.stderr
        assert "internal error" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow
def test_replace_whose_changes_cannot_be_printed_writes_nothing(tmp_path: Path) -> None:
    work = make_work(tmp_path / "work")
    before = {path: path.read_bytes() for path in work.corpus.rglob("*") if path.is_file()}
    with full_output() as stream:
        done = run_with_output(["replace", work.corpus, "--find", "boston", "--replace", "austin"], stream)
    assert (done.returncode, done.stderr.splitlines()) == (2, [NO_SPACE])
    assert {path: path.read_bytes() for path in work.corpus.rglob("*") if path.is_file()} == before
