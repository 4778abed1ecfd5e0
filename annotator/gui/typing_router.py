"""Typing meant for the transcription reaches the editor, wherever the focus is in the window.

An annotator types as soon as a turn is on screen: after opening a log, after
a dialog closes, after clicking the table or the timeline. Whatever widget
then holds the focus, printable text typed while a turn to transcribe is
current goes into the transcription editor instead of being eaten by a table's
keyboard search or a combo box. Widgets that take text themselves (the
session filter, a cell being edited, spin boxes) keep it, and keys with Ctrl,
Alt or Meta stay shortcuts.

When one of the window's dialogs or message boxes closes, the window is made
active again: without a window manager that does it (a bare X server, the
offscreen platform, some tiling set-ups) nothing would be active and every
key typed next would be lost.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QTextEdit,
    QWidget,
)

TAKES_TYPING = "takes_typing"  # a widget property: the widget (an editable table) wants typed characters itself
_SHORTCUT_MODIFIERS = (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                       | Qt.KeyboardModifier.MetaModifier)


def takes_text(widget: QWidget) -> bool:
    """Whether WIDGET wants typed characters for itself."""
    if widget.property(TAKES_TYPING):
        return True
    if isinstance(widget, (QLineEdit, QAbstractSpinBox)):
        return True
    if isinstance(widget, QComboBox):
        return widget.isEditable()
    if isinstance(widget, (QPlainTextEdit, QTextEdit)):
        return not widget.isReadOnly()
    return False


class TypingRouter(QObject):
    """An application event filter sending WINDOW's stray typing to the widget CLAIM() focuses and
    returns (None: no turn wants typing now, the key goes where it was going)."""

    def __init__(self, window: QWidget, claim: Callable[[], QWidget | None]):
        super().__init__(window)
        self._window = window
        self._claim = claim
        QApplication.instance().installEventFilter(self)  # removed by Qt when this object dies

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not isinstance(watched, QWidget):
            return False
        if event.type() == QEvent.Type.Hide and self._is_own_dialog(watched):
            QTimer.singleShot(0, self, self._reactivate)  # dropped if the window goes first
            return False
        if event.type() != QEvent.Type.KeyPress:
            return False
        if not self._is_stray_typing(watched, event):
            return False
        target = self._claim()
        if target is None or not takes_text(target):  # a read-only editor would ignore the key, which then
            return False  # climbs to its parents and comes back here: an endless loop
        QApplication.sendEvent(target, QKeyEvent(event.type(), event.key(), event.modifiers(), event.text(),
                                                 event.isAutoRepeat(), event.count()))
        return True

    def _is_own_dialog(self, widget: QWidget) -> bool:
        parent = widget.parentWidget()
        return widget.isWindow() and widget is not self._window and parent is not None and parent.window() is self._window

    def _reactivate(self) -> None:
        # Qt may name the window active again while the platform's focus has gone with the dialog's own
        # window (offscreen, or no window manager): activating the window again is harmless when it has both.
        if (self._window.isVisible() and QApplication.activeWindow() in (None, self._window)
                and QApplication.activeModalWidget() is None and QApplication.activePopupWidget() is None):
            self._window.activateWindow()

    def _is_stray_typing(self, watched: QWidget, event: QKeyEvent) -> bool:
        text = event.text()
        if not text or not text.isprintable() or event.modifiers() & _SHORTCUT_MODIFIERS:
            return False
        if watched.window() is not self._window or takes_text(watched):
            return False
        return QApplication.activePopupWidget() is None and QApplication.activeModalWidget() is None
