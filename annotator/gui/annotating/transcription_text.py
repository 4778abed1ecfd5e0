"""The editor's text box: hands the window's keys to the window, refuses a paste past EDITOR_MAX_CHARS and
drops the control characters XML cannot store, leaves dropped files to the window, and reports losing focus."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QMimeData, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QFocusEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from annotator.gui.keyboard import hand_to_window
from annotator.log.text import without_non_xml

EDITOR_MAX_CHARS = 12_000  # longer ones are shown by their start, read-only: Qt lays a paragraph out again at each key
MODIFIER_KEYS = frozenset(
    (Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta, Qt.Key.Key_AltGr, Qt.Key.Key_CapsLock)
)


class TranscriptionTextEdit(QPlainTextEdit):
    """A plain-text box that hands the window's keys to the window and reports losing focus."""

    focus_lost = Signal()
    characters_removed = Signal(int)  # control characters dropped from a paste
    paste_refused = Signal(int)  # a paste that would make the text this long, past EDITOR_MAX_CHARS
    key_typed = Signal()  # a key other than a lone modifier reached the box (pause while typing listens)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.passthrough_keys: list[QKeySequence] = []

    def event(self, event: QEvent) -> bool:
        document = self.document()
        if hand_to_window(event, self.passthrough_keys, document.isUndoAvailable(), document.isRedoAvailable()):
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() not in MODIFIER_KEYS:
            self.key_typed.emit()
        super().keyPressEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        if event.reason() != Qt.FocusReason.PopupFocusReason:  # opening a menu is not leaving
            self.focus_lost.emit()

    def insertFromMimeData(self, source: QMimeData) -> None:
        """Paste text without the control characters XML cannot store (said in the status bar); a paste that
        would make the text longer than EDITOR_MAX_CHARS is refused (said too)."""
        pasted = source.text()
        cursor = self.textCursor()
        length = self.document().characterCount() - 1 - (cursor.selectionEnd() - cursor.selectionStart()) + len(pasted)
        if length > EDITOR_MAX_CHARS:
            self.paste_refused.emit(length)
            return
        text, removed = without_non_xml(pasted)
        if removed:
            self.textCursor().insertText(text)
            self.ensureCursorVisible()
            self.characters_removed.emit(removed)
            return
        super().insertFromMimeData(source)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return not source.hasUrls() and super().canInsertFromMimeData(source)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.ignore()  # a dropped file is for the window to open, not text to insert
            return
        super().dragEnterEvent(event)
