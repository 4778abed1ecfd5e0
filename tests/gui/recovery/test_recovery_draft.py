"""Typing not yet stored when the window was killed comes back as it was: a draft in its turn's editor,
unsaved and not counted as transcribed, until Ctrl+Enter stores it (a real window killed with SIGKILL)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of
from annotator.journal.entries import parse_journal
from annotator.journal.files import journal_dir
from annotator.log.document import LogDocument
from tests.support.gui_keys import press, type_text
from tests.support.killed_windows import GENEROUS_SECONDS, run_and_kill

Key, Mod = Qt.Key, Qt.KeyboardModifier
TYPED = "i want to fly to boston"


@pytest.mark.slow
def test_restored_typing_is_a_draft_in_its_editor_until_ctrl_enter(
    make_window, raw_log: Path, tmp_path: Path, qtbot, boxes
):
    lines = run_and_kill(raw_log, tmp_path, [{"type": TYPED}, {"wait": GENEROUS_SECONDS}])  # on 02, not stored
    assert lines[-1]["state"]["transcriptions"]["02"] == TYPED
    journals = sorted(journal_dir().glob("*.json"))
    assert [parse_journal(path.read_bytes())[3].typing for path in journals] == [(0, 1)], "journalled as typing"
    answers = boxes("Restore")
    window = make_window(raw_log)
    assert answers.titles == ["Restore unsaved work?"]
    turn = parts_of(window).controller.document.sessions[0].user_turns[0]
    assert parts_of(window).navigator.current_turn() is turn and window.editor.text.toPlainText() == TYPED
    assert turn.transcription is None, "typing is not stored by a restore"
    assert "0 of 5 user turns transcribed" in window.session_bar.progress.text()
    assert window.isWindowModified() and parts_of(window).controller.pending_text() == (turn, TYPED)
    window.activateWindow()  # the offscreen platform does not give it back after the question
    qtbot.waitUntil(window.isActiveWindow)
    assert QApplication.focusWidget() is window.editor.text
    type_text(qtbot, window, " please")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert turn.transcription == TYPED + " please"
    assert "1 of 5 user turns transcribed" in window.session_bar.progress.text()
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert LogDocument.load(raw_log).sessions[0].user_turns[0].transcription == TYPED + " please"
