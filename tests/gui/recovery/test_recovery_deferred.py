"""The recovery journal reads the file's values after the window shows the log (journal/baseline.py,
gui/runtime/idle_steps.py): an edit made by real keys before that read ends is journalled all the same, and a
window killed right after such edits has them restored when the log is opened again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.journal.entries import parse_journal
from annotator.log.document import LogDocument
from tests.support.gui_keys import press
from tests.support.killed_windows import GENEROUS_SECONDS, run_and_kill

Key, Mod = Qt.Key, Qt.KeyboardModifier
TYPED = "from boston to denver on monday"


@pytest.fixture
def log(big_log: Path, tmp_path: Path) -> Path:
    copy = tmp_path / big_log.name
    shutil.copy(big_log, copy)
    return copy


@pytest.mark.slow
def test_an_edit_made_before_the_file_is_read_is_journalled(make_window, log: Path, qtbot):
    window = make_window(log)
    journal = parts_of(window).recovery.journal
    assert not journal.baseline.ready, "the file's values are read after the window shows the log"
    was = parts_of(window).controller.document.sessions[0].task_completion
    press(qtbot, window, Key.Key_0, Mod.ControlModifier | Mod.AltModifier)  # task not completed (the file says 1)
    assert not journal.baseline.ready
    assert parts_of(window).controller.undo_stack.count() == 1, journal.unsaved_edits(
        parts_of(window).controller.document
    )
    qtbot.waitUntil(journal.file.exists, timeout=int(GENEROUS_SECONDS * 1000))
    written = parse_journal(journal.file.read_bytes())[3]
    assert [(edit.value, edit.was) for edit in written.task_completion] == [("0", was)]
    qtbot.waitUntil(lambda: journal.baseline.ready, timeout=60_000)
    journal.flush()
    assert parse_journal(journal.file.read_bytes())[3] == written, "the read did not take the edit for the file's"


@pytest.mark.slow
def test_edits_right_after_the_open_survive_a_kill(make_window, log: Path, tmp_path: Path, boxes):
    lines = run_and_kill(
        log,
        tmp_path,
        [
            {"keys": "Ctrl+Alt+0"},
            {"row": 0},
            {"keys": "Ctrl+Down"},
            {"type": TYPED},
            {"keys": "Ctrl+Return"},
            {"wait": GENEROUS_SECONDS},
        ],
    )
    assert lines[0]["event"] == "opened" and lines[0]["opened"]
    answers = boxes("Restore")
    window = make_window(log)
    assert answers.titles == ["Restore unsaved work?"]
    session = parts_of(window).controller.document.sessions[0]
    assert session.task_completion == "0"
    assert any((turn.transcription or "").endswith(TYPED) for turn in session.user_turns)
    assert not any((turn.transcription or "").endswith(TYPED) for turn in LogDocument.load(log).sessions[0].user_turns)


@pytest.mark.slow
def test_a_log_replaced_before_its_values_are_read_leaves_no_reading_behind(
    make_window, log: Path, raw_log: Path, qtbot
):
    window = make_window(log)
    first = parts_of(window).recovery.journal
    assert not first.baseline.ready
    assert parts_of(window).navigator.open_path(raw_log)
    journal = parts_of(window).recovery.journal
    assert journal is not first  # its reading may be running or, on a small log, over already
    qtbot.waitUntil(lambda: journal.baseline.ready, timeout=60_000)
    assert not first.baseline.ready, "the replaced log's reading stopped with it"
    assert not parts_of(window).recovery._baseline_reading.running
