"""Real key presses for the GUI tests, delivered where the keyboard would deliver them (the focus widget), and
closing a window as the annotator would."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from annotator.gui.app import parts_of
from annotator.gui.main_window import MainWindow

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def focused(window: QWidget) -> QWidget:
    return QApplication.focusWidget() or window


def press(qtbot, window: QWidget, key: Qt.Key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A real key press delivered where the keyboard would deliver it: the focus widget."""
    qtbot.keyClick(focused(window), key, modifiers)


def type_text(qtbot, window: QWidget, text: str) -> None:
    qtbot.keyClicks(focused(window), text)


def close_window(window: MainWindow) -> None:
    """Close WINDOW now, as the annotator would, without the question about a test's unsaved edits
    (closing saves its layout: a test reopens a window to see what was kept)."""
    parts_of(window).controller.undo_stack.setClean()
    parts_of(window).playback.close()
    window.close()
