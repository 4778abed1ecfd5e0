"""The window's dialogs take the keyboard when they show, and the keys typed while one is on its way reach it.

On a real display the keys typed between F1 (or Ctrl+,) and the moment the dialog has the keyboard were sent by
the platform to the window; they are queued in the window's event queue while the dialog is made. The test
queues them the same way (posted to the editor that has the focus) before the real key that opens the dialog."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of
from tests.support.gui_keys import press, type_text

Key, Mod = Qt.Key, Qt.KeyboardModifier


def _queue_keys(widget, keys: list[tuple[Key, str]]) -> None:
    """KEYS aimed at WIDGET, waiting in the event queue as keys typed during a busy moment do."""
    for key, text in keys:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.postEvent(widget, QKeyEvent(kind, key, Mod.NoModifier, text))


def _letters(text: str) -> list[tuple[Key, str]]:
    return [(Key(ord(letter.upper())), letter) for letter in text]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("key", "modifiers", "dialog_of"),
    [
        (Key.Key_F1, Mod.NoModifier, lambda parts: parts.preferences.keys_dialog),
        (Key.Key_Comma, Mod.ControlModifier, lambda parts: parts.preferences.dialog),
    ],
    ids=["F1", "Ctrl+,"],
)
def test_an_escape_typed_while_the_dialog_comes_closes_it_and_the_typing_goes_on(
    qtbot, make_window, raw_log: Path, key, modifiers, dialog_of
):
    window = make_window(raw_log)
    editor = window.editor.text
    qtbot.waitUntil(editor.hasFocus)
    type_text(qtbot, window, "fly")
    _queue_keys(editor, [(Key.Key_Escape, ""), *_letters(" to boston")])  # typed right after the key below
    press(qtbot, window, key, modifiers)
    dialog = dialog_of(parts_of(window))
    assert dialog is not None
    qtbot.waitUntil(lambda: editor.toPlainText() == "fly to boston")
    assert not dialog.isVisible(), "the Escape typed while it came closed it"
    qtbot.waitUntil(window.isActiveWindow)


@pytest.mark.slow
def test_f1_takes_the_keyboard_and_escape_closes_it(qtbot, make_window, raw_log: Path):
    window = make_window(raw_log)
    press(qtbot, window, Key.Key_F1)
    dialog = parts_of(window).preferences.keys_dialog
    qtbot.waitUntil(dialog.isActiveWindow)
    assert QApplication.focusWidget() is not None and QApplication.focusWidget().window() is dialog
    press(qtbot, window, Key.Key_Escape)
    qtbot.waitUntil(lambda: _deleted(dialog) or not dialog.isVisible())
    qtbot.waitUntil(window.isActiveWindow)
    type_text(qtbot, window, "boston")
    assert window.editor.text.toPlainText() == "boston", "the typing goes on in the transcription"


def _deleted(widget) -> bool:
    import shiboken6

    return not shiboken6.isValid(widget)
