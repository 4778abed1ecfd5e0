"""The window on a log whose file name is not UTF-8: it shows the log, and edits are journalled.

A Latin-1 name such as b"pr\\xe9-hublog.xml" (Python holds it as "pr\\udce9-hublog.xml")
is a name Linux allows. The window showed no log for it (its settings keys hashed the
path as UTF-8), and the recovery journal failed on every edit: its "log" field held the
path with its surrogate, which no UTF-8 file can hold (it is now written with name_text).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.journal.entries import parse_journal
from annotator.journal.files import journal_dir
from annotator.log.document import LogDocument
from tests.support.gui_keys import press, type_text

TYPED = "i want to fly to boston"


def _latin1_copy(raw_log: Path, tmp_path: Path) -> Path:
    folder = tmp_path / os.fsdecode(b"corpus-\xe9")
    folder.mkdir()
    path = folder / os.fsdecode(b"pr\xe9-hublog.xml")
    shutil.copyfile(raw_log, path)
    return path


def test_the_window_shows_a_log_with_a_latin1_name(make_window, raw_log: Path, tmp_path: Path):
    path = _latin1_copy(raw_log, tmp_path)
    window = make_window(path)
    assert parts_of(window).controller.document is not None and parts_of(window).controller.document.path == path
    assert parts_of(window).navigator.model.rowCount() == len(LogDocument.load(path).sessions[0].turns)


@pytest.mark.slow
def test_edits_to_such_a_log_are_journalled(make_window, raw_log: Path, tmp_path: Path, qtbot):
    path = _latin1_copy(raw_log, tmp_path)
    window = make_window(path)
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    type_text(qtbot, window, TYPED)
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)

    def journalled() -> list[tuple]:
        return [parse_journal(file.read_bytes()) for file in journal_dir().glob("*.json")]

    qtbot.waitUntil(lambda: len(journalled()) == 1, timeout=5000)
    log_path, _sha256, _written, edits = journalled()[0]
    assert log_path == str(path), "the name read back is the file's own name"
    assert [edit.text for edit in edits.transcriptions] == [TYPED]
    assert not parts_of(window).recovery.warning.isVisible()
