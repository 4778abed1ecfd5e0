"""A recovery journal folder that cannot be written (here its path is a file, as a full or broken disk
would refuse it): a Reload keeps the unsaved edits in memory and offers them back, the changed-on-disk
question promises no journal, and the window's lock is warned about, then written once the folder works."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.journal.files import journal_dir, others_holding
from tests.support.gui_keys import press, type_text
from tests.support.killed_windows import assert_reloaded_with_the_edit_on_top, changed_behind_the_window

Key, Mod = Qt.Key, Qt.KeyboardModifier
TYPED = "i want to fly to boston on friday"


@pytest.fixture
def blocked_journal_folder() -> Path:
    """The journal folder's path taken by a file: every journal and lock write fails (mkdir refuses)."""
    folder = journal_dir()
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_bytes(b"not a folder")
    return folder


@pytest.mark.slow
def test_reload_offers_back_the_edits_the_journal_could_not_hold(
    make_window, raw_log: Path, qtbot, boxes, blocked_journal_folder: Path
):
    window = make_window(raw_log)  # it opens on the first user turn
    type_text(qtbot, window, TYPED)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    qtbot.waitUntil(
        lambda: "recovery journal cannot be written" in parts_of(window).recovery.warning.text(), timeout=10000
    )
    changed_behind_the_window(raw_log)
    answers = boxes("Reload", "Restore")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert answers.titles == ["Log changed on disk", "Restore unsaved work?"]
    question = answers.seen[0].informative
    assert "stay in the recovery journal" not in question and "kept in this window" in question
    assert_reloaded_with_the_edit_on_top(window, TYPED)


@pytest.mark.slow
def test_the_lock_is_warned_about_then_written_once_the_folder_works(
    make_window, raw_log: Path, qtbot, blocked_journal_folder: Path
):
    window = make_window(raw_log)
    warning = parts_of(window).recovery.warning
    assert warning.isVisible() and "lock cannot be written" in warning.text()
    assert others_holding(raw_log.resolve(), "another window") == {}
    blocked_journal_folder.unlink()  # the space is freed, the folder can be made
    qtbot.waitUntil(lambda: others_holding(raw_log.resolve(), "another window") != {}, timeout=20000)
    assert not warning.isVisible()
