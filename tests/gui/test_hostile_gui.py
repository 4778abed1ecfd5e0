"""Every hostile or broken log of tests/hostile through the GUI loader: a refused one is a message
box naming the file, and the window keeps the log it had; one that loads shows its finding."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from annotator.gui.app import parts_of
from tests.support.hostile_corpus import hostile_cases

CASES = hostile_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.path.name for case in CASES])
@pytest.mark.slow
def test_hostile_log_in_the_window(case, make_window, annotated_log: Path, answer_modal, tmp_path: Path, qtbot):
    window = make_window(annotated_log)
    target = tmp_path / "hostile" / case.path.name
    shutil.copytree(case.path.parent, target.parent, ignore=shutil.ignore_patterns("*.py", "*.yaml"))
    if case.refused:
        answer = answer_modal()
        assert not parts_of(window).navigator.open_path(target)
        qtbot.waitUntil(lambda: answer.answered, timeout=5000)
        assert case.path.name in answer.text and case.fragment in answer.text
        assert parts_of(window).controller.document.path == annotated_log, "the app keeps what was open"
    else:
        assert parts_of(window).navigator.open_path(target)
        assert parts_of(window).controller.document.path == target


def test_a_fifo_named_like_a_log_is_refused_without_hanging(
    make_window, annotated_log: Path, answer_modal, tmp_path: Path, qtbot
):
    """Opening a FIFO for reading would block the window until someone writes into it."""
    window = make_window(annotated_log)
    fifo = tmp_path / "pipe.xml"
    os.mkfifo(fifo)
    answer = answer_modal()
    assert not parts_of(window).navigator.open_path(fifo)
    qtbot.waitUntil(lambda: answer.answered, timeout=5000)
    assert str(fifo) in answer.text and "named pipe (FIFO)" in answer.text
    assert parts_of(window).controller.document.path == annotated_log
