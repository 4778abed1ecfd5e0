"""`annotator fold DIR` with no annotation file reads the `NAME-human.xml` beside each log: one that is there but
is no regular file is named for what it is, never opened (a FIFO would block the fold), and nothing is written."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.cli import run_annotator

HUMAN = "travel-20261121-001/travel-20261121-001-human.xml"


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return "is a named pipe (FIFO), not a regular file"


def _folder(path: Path) -> str:
    path.mkdir()
    return "is a folder, not a file"


@pytest.mark.parametrize("make", [_fifo, _folder], ids=["fifo", "folder"])
def test_a_human_file_that_is_no_regular_file_is_named_for_what_it_is(corpus: Path, tmp_path: Path, make: Callable):
    human = corpus / HUMAN
    human.unlink(missing_ok=True)
    said = make(human)
    out = tmp_path / "folded"
    done = run_annotator("fold", corpus, "-o", out, timeout=60)  # opened, the FIFO would block until the timeout
    assert (done.returncode, done.stderr) == (2, f"annotator: {human}: {said}; nothing was folded\n")
    assert not out.exists()
