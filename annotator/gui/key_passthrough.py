"""The one key rule of the window's text fields (the transcription editor, the table's cell editor):
the window's keys reach their actions while the cursor is in the field, except undo and redo
while the field has typing of its own to undo or redo (that goes first)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence

UNDO, REDO = QKeySequence("Ctrl+Z"), QKeySequence("Ctrl+Shift+Z")


def hand_to_window(event: QEvent, window_keys: list[QKeySequence], can_undo: bool, can_redo: bool) -> bool:
    """Whether EVENT, offered to a text field, is one of WINDOW_KEYS that the field leaves to the window's
    actions. True means the event was ignored: the caller returns True from event() and Qt's shortcut
    map triggers the window's QAction."""
    if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
        return False
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    pressed = QKeySequence(event.key() | modifiers.value)
    if (pressed == UNDO and can_undo) or (pressed == REDO and can_redo):
        return False
    if not any(pressed == key for key in window_keys):
        return False
    event.ignore()  # not overridden
    return True
