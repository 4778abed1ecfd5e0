"""The transcription editor alone: commits when editing is finished, live diff and WER, pre-fill,
and the window's keys passing through it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, Qt, QUrl
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QApplication, QLineEdit, QVBoxLayout, QWidget

from annotator.analysis.word_alignment import LIVE_DIFF_MAX_WORDS
from annotator.gui.annotating.transcription_editor import TranscriptionEditor
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.settings import AppSettings
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument

Key, Mod = Qt.Key, Qt.KeyboardModifier


class Harness(QWidget):
    """The editor and a second focusable widget, in one shown, active window; the document
    controller holds the log and its undo stack, and the editor hears its changes as the window wires it."""

    def __init__(self, log: Path):
        super().__init__()
        self.controller = DocumentController(self, AppSettings())
        assert self.controller.open_path(log)
        self.editor = TranscriptionEditor(self.controller.undo_stack, self)
        self.controller.annotation_changed.connect(self.editor.on_annotation_changed)
        self.elsewhere = QLineEdit(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.editor)
        layout.addWidget(self.elsewhere)


@pytest.fixture
def harness(qtbot, absolute_audio_log) -> Harness:
    harness = Harness(absolute_audio_log)
    qtbot.addWidget(harness)
    harness.show()
    harness.activateWindow()
    qtbot.waitUntil(harness.isActiveWindow)
    return harness


@pytest.fixture
def document(harness) -> LogDocument:
    return harness.controller.document


@pytest.fixture
def stack(harness) -> QUndoStack:
    return harness.controller.undo_stack


def turns(document):
    return document.sessions[0].turns


def test_a_user_turn_is_editable_and_a_system_turn_is_not(harness, document):
    editor = harness.editor
    editor.set_turn(turns(document)[1])
    assert editor.text.isEnabled() and "Turn 02" in editor.title.text()
    assert "Recognizer heard: i need to go to san francisco" in editor.diff.text()
    editor.set_turn(turns(document)[0])
    assert not editor.text.isEnabled()
    assert "nothing to transcribe" in editor.text.placeholderText()
    editor.set_turn(None)
    assert not editor.text.isEnabled() and "No turn" in editor.title.text()


def test_typing_shows_a_live_diff_and_wer_but_stores_nothing(harness, document, stack, qtbot):
    editor = harness.editor
    editor.set_turn(turns(document)[3])  # heard: "from the mile i city"
    editor.focus_text()
    qtbot.keyClicks(editor.text, "from the mile high city")
    assert "WER 20.0 %" in editor.score.text()  # one substitution in five words
    assert "1 sub" in editor.score.text() and "0 del" in editor.score.text()
    assert "<s" in editor.diff.text() and ">i</s>" in editor.diff.text() and "high" in editor.diff.text()
    assert stack.count() == 0 and turns(document)[3].transcription is None
    assert editor.has_pending_edit


def test_leaving_the_editor_commits_once(harness, document, stack, qtbot):
    editor = harness.editor
    editor.set_turn(turns(document)[1])
    editor.focus_text()
    qtbot.keyClicks(editor.text, "i need to go to san francisco")
    with qtbot.waitSignal(editor.transcription_committed):
        harness.elsewhere.setFocus()
    assert turns(document)[1].transcription == "i need to go to san francisco"
    assert stack.count() == 1 and stack.undoText() == "Transcribe turn 02"
    editor.focus_text()
    harness.elsewhere.setFocus()  # nothing typed this time: no empty undo step
    assert stack.count() == 1


def test_showing_another_turn_commits_the_typing(harness, document, stack, qtbot):
    editor = harness.editor
    editor.set_turn(turns(document)[1])
    editor.focus_text()
    qtbot.keyClicks(editor.text, "to san francisco")
    editor.set_turn(turns(document)[3])
    assert turns(document)[1].transcription == "to san francisco"
    assert editor.text.toPlainText() == ""


def test_undo_elsewhere_is_reflected_unless_the_annotator_is_typing(harness, document, stack, qtbot):
    editor = harness.editor
    editor.set_turn(turns(document)[1])
    editor.focus_text()
    qtbot.keyClicks(editor.text, "first words")
    assert editor.commit()
    stack.undo()
    assert editor.text.toPlainText() == ""
    stack.redo()
    assert editor.text.toPlainText() == "first words"
    qtbot.keyClicks(editor.text, " and more")
    set_transcription(turns(document)[1], "changed elsewhere")
    assert editor.text.toPlainText() == "first words and more"  # typing is never thrown away


def test_prefill_puts_the_recognizer_text_in_and_ctrl_z_takes_it_out(harness, document, qtbot):
    editor = harness.editor
    editor.set_turn(turns(document)[3])
    editor.focus_text()
    assert editor.prefill_from_recognizer()
    assert editor.text.toPlainText() == "from the mile i city"
    assert turns(document)[3].transcription is None
    qtbot.keyClick(editor.text, Key.Key_Z, Mod.ControlModifier)
    assert editor.text.toPlainText() == ""


def test_automatic_prefill_is_off_by_default_and_never_stored_unasked(harness, document, stack):
    editor = harness.editor
    assert editor.auto_prefill is False
    editor.auto_prefill = True
    editor.set_turn(turns(document)[5])
    assert editor.text.toPlainText() == "denver"
    editor.set_turn(turns(document)[7])  # passed through without a word typed
    assert turns(document)[5].transcription is None and stack.count() == 0
    assert editor.commit()  # Ctrl+Enter accepts it as it is
    assert turns(document)[7].transcription == "on friday evening"


def test_a_dropped_file_is_not_text(harness):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile("/tmp/some.xml")])
    assert not harness.editor.text.canInsertFromMimeData(mime)


def test_window_keys_pass_through_to_their_actions(harness, document, qtbot):
    editor = harness.editor
    back = QAction("Back 2 s", harness)
    back.setShortcut(QKeySequence("Ctrl+Left"))
    back.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    harness.addAction(back)
    editor.set_turn(turns(document)[1])
    editor.focus_text()
    qtbot.keyClicks(editor.text, "two words")
    # Without pass-through a text box keeps Ctrl+Left for itself (one word left) ...
    with qtbot.assertNotEmitted(back.triggered):
        qtbot.keyClick(editor.text, Key.Key_Left, Mod.ControlModifier)
    assert editor.text.textCursor().position() == len("two ")
    # ... with it, the action fires and the cursor stays.
    editor.set_passthrough_keys([QKeySequence("Ctrl+Left")])
    with qtbot.waitSignal(back.triggered):
        qtbot.keyClick(editor.text, Key.Key_Left, Mod.ControlModifier)
    assert editor.text.textCursor().position() == len("two ")
    assert QApplication.focusWidget() is editor.text


def test_a_text_too_long_to_align_live_says_so_instead(harness, document, qtbot):
    editor = harness.editor
    editor.set_turn(turns(document)[3])  # heard: "from the mile i city"
    editor.focus_text()
    QApplication.clipboard().setText("word " * (LIVE_DIFF_MAX_WORDS + 1))
    qtbot.keyClick(editor.text, Key.Key_V, Mod.ControlModifier)
    assert f"{LIVE_DIFF_MAX_WORDS + 1:,} words" in editor.diff.text()
    assert "too long" in editor.diff.text() and editor.score.text() == ""
    editor.text.selectAll()
    qtbot.keyClicks(editor.text, "from the mile high city")  # back under the limit, the diff is live again
    assert "WER 20.0 %" in editor.score.text()
