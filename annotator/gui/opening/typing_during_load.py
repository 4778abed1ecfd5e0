"""The window's input while a log loads: clicks, wheel and drops are swallowed, keys are kept (those typed
on the progress dialog too: only its Escape cancels the load, a Space must not press its Cancel).

While LogOpener reads a log the window must not act on input (an action that could start another
open, close or quit, or edit the log being replaced, cannot run half way through this one). But an
annotator who goes on typing the transcription they were writing should not lose it: the keys aimed
at the window are kept, in order, and given to the widget that has the focus once the log is shown
(LogOpener.deliver_typed). The keys of the actions that open, close or quit are dropped: pressed
during a load they were refused, as the status bar said.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QWidget

from annotator.gui.keyboard import copy_key_event

# The actions (gui/actions.py names) whose keys are not kept: they would open, close or quit again.
REENTERING_ACTIONS = ("open", "close", "quit")
KEPT = {QEvent.Type.KeyPress, QEvent.Type.KeyRelease}


class InputBlocker(QObject):
    """Swallows the user's clicks, wheel and drops aimed at WINDOW (its dialogs are windows of their own
    and keep working), and keeps its keys for later (see the module's docstring), shortcuts included,
    while installed on the application."""

    BLOCKED = {
        QEvent.Type.KeyPress,
        QEvent.Type.KeyRelease,
        QEvent.Type.ShortcutOverride,
        QEvent.Type.MouseButtonPress,
        QEvent.Type.MouseButtonRelease,
        QEvent.Type.MouseButtonDblClick,
        QEvent.Type.Wheel,
        QEvent.Type.DragEnter,
        QEvent.Type.DragMove,
        QEvent.Type.Drop,
        QEvent.Type.ContextMenu,
    }
    KEYS = {QEvent.Type.KeyPress, QEvent.Type.KeyRelease, QEvent.Type.ShortcutOverride}

    def __init__(self, window: QWidget, progress: QWidget | None = None):
        super().__init__(window)
        self.window = window
        self.progress = progress  # the load's progress dialog: only Escape cancels it, other keys are kept
        self.typed: list[QKeyEvent] = []
        self._refused = _reentering_keys(window)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() not in self.BLOCKED or not isinstance(watched, QWidget) or not self._aimed_here(watched, event):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # an accepted override keeps the shortcut from firing; the key press is kept next
        elif event.type() in KEPT and isinstance(event, QKeyEvent) and _combination(event) not in self._refused:
            self.typed.append(copy_key_event(event))
        return True

    def _aimed_here(self, watched: QWidget, event: QEvent) -> bool:
        if watched.window() is self.window:
            return True
        return (
            self.progress is not None
            and watched.window() is self.progress
            and event.type() in self.KEYS
            and isinstance(event, QKeyEvent)
            and event.key() != Qt.Key.Key_Escape
        )


def deliver(typed: list[QKeyEvent], window: QWidget) -> None:
    """Send TYPED, in order, to the widget of WINDOW that has the focus as each one goes (a key may move it),
    or to WINDOW itself: the keyboard's owner (gui/keyboard.py) sends the typing to the transcription."""
    for event in typed:
        target = QApplication.focusWidget() or (window if window.isActiveWindow() else None)
        if target is None:
            return
        QApplication.sendEvent(target, event)


def _reentering_keys(window: QWidget) -> set[str]:
    actions = getattr(window, "actions", None)
    keys = set()
    for name in REENTERING_ACTIONS:
        action = getattr(actions, name, None)
        for sequence in action.shortcuts() if action is not None else ():
            keys.add(sequence.toString(QKeySequence.SequenceFormat.PortableText))
    return keys


def _combination(event: QKeyEvent) -> str:
    return QKeySequence(event.keyCombination()).toString(QKeySequence.SequenceFormat.PortableText)
