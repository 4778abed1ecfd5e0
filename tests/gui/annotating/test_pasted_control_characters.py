"""Control characters pasted into a transcription (from a terminal, a PDF, a spreadsheet) are
replaced by spaces with a word in the status bar: the text is kept, nothing raises, and the saved
log holds the transcription, never an empty GC_ANNOT."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.analysis.validation import Severity, validate_document
from annotator.gui.annotating.turn_table import Column
from annotator.gui.app import parts_of
from annotator.log.document import LogDocument
from tests.support.gui_keys import press

Key, Mod = Qt.Key, Qt.KeyboardModifier
PASTED = "i want\x01to fly\x02 to boston\x00"


@pytest.mark.slow
def test_paste_into_the_editor_keeps_the_words(main_window, raw_log, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    turn = parts_of(window).navigator.current_turn()
    QApplication.clipboard().setText(PASTED)
    press(qtbot, window, Key.Key_V, Mod.ControlModifier)
    assert window.editor.text.toPlainText() == "i want to fly  to boston "
    assert window.statusBar().currentMessage() == "3 control characters that XML cannot store were replaced by spaces"
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert turn.transcription == "i want to fly to boston"
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    saved = LogDocument.load(raw_log)
    assert saved.sessions[0].turn(turn.id).transcription == "i want to fly to boston"
    assert not [f for f in validate_document(saved, audio=False) if f.severity is Severity.ERROR]


@pytest.mark.slow
def test_a_cell_edit_with_control_characters_is_stored_cleaned(main_window, qtbot):
    window = main_window
    turn = parts_of(window).navigator.session.user_turns[0]
    index = parts_of(window).navigator.model.index(turn.index, Column.TRANSCRIPTION)
    assert parts_of(window).navigator.model.setData(index, PASTED)
    assert turn.transcription == "i want to fly to boston"
    assert window.statusBar().currentMessage().startswith("3 control characters")
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert turn.transcription is None
