"""`annotator replace` over five logs is all or nothing even when a write fails after every check passed.

Run for real, as a child process: a file size limit the third or the fifth log's new version exceeds
(RLIMIT_FSIZE, EFBIG), and a disk (a tmpfs) with room for every new version but not for writing the last log
in place (it has another hard link, annotator.writes.inplace): the logs already replaced by then are put
back. Either way every log, every folder and every NAME.orig.xml is byte for byte as before, the exit status
is 2 and stderr is one line naming the file."""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli import file_size_limit, run_annotator
from tests.support.replace_corpus import FIND, make_corpus, state
from tests.support.tmpfs import PAGE, fill, mount_tmpfs, unmount

PADDING = 30_000  # bytes of comment that make one log larger than the limit, the others staying below it
LIMIT = 40_000  # session 001 is 26,706 bytes


@pytest.mark.slow
@pytest.mark.parametrize("place", [2, 4])
def test_a_file_too_large_part_way_leaves_every_log_as_it_was(tmp_path: Path, place: int):
    logs = make_corpus(tmp_path / "corpus")
    with logs[place].open("ab") as stream:
        stream.write(b"<!-- " + b"x" * PADDING + b" -->\n")
    before = state(tmp_path)
    done = run_annotator("replace", tmp_path / "corpus", *FIND, preexec_fn=file_size_limit(LIMIT))
    lines = done.stderr.splitlines()
    assert (done.returncode, len(lines)) == (2, 1), done.stderr
    assert lines[0].startswith(f"annotator: {logs[place].parent}/"), lines
    assert lines[0].endswith(": not written, the previous file is intact: File too large; nothing written"), lines
    assert state(tmp_path) == before, "no log rewritten, no NAME.orig.xml made, no temporary file left"


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[Path]:
    mountpoint = tmp_path / "disk"
    if not mount_tmpfs(mountpoint, size="1m"):
        pytest.skip("mounting a tmpfs is not permitted here")
    try:
        yield mountpoint
    finally:
        unmount(mountpoint)


def _pages(path: Path) -> int:
    return math.ceil(path.stat().st_size / PAGE)


@pytest.mark.slow
def test_a_log_that_cannot_be_written_last_puts_back_those_replaced_before_it(disk: Path):
    logs = make_corpus(disk / "corpus")
    os.link(logs[-1], disk / "another-name.xml")  # so the last log is written in place, which needs room
    # Room for what the run stages (each log's new version and NAME.orig.xml, and a copy of the last log's
    # content to write back), not for the side files of the in-place write that follows.
    staged = sum(2 * _pages(log) for log in logs) + _pages(logs[-1])
    fill(disk, spare_pages=staged)
    before = state(disk / "corpus")
    done = run_annotator("replace", disk / "corpus", *FIND)
    lines = done.stderr.splitlines()
    assert (done.returncode, len(lines)) == (2, 1), done.stderr
    assert lines[0] == (
        f"annotator: {logs[-1]}: not written, the previous file is intact: No space left on device; "
        "nothing written: the files already replaced were put back as they were"
    )
    assert state(disk / "corpus") == before, "the four logs replaced first are back, their NAME.orig.xml gone"
    assert (disk / "another-name.xml").read_bytes() == logs[-1].read_bytes()
