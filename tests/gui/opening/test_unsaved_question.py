"""The question asked before unsaved work would go (close, quit, open another log): answered from
the keyboard, and every answer leaves the application without an exception on stderr."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from annotator.gui.app import parts_of
from annotator.log.document import LogDocument
from tests.support.gui_keys import press
from tests.support.repository import REPO
from tests.support.window_script import WINDOW_PRELUDE

Key, Mod = Qt.Key, Qt.KeyboardModifier


class KeyAnswer:
    """Presses KEY (with MODIFIERS) in the next message box, as an annotator would."""

    def __init__(self, key: Qt.Key, modifiers=Mod.AltModifier):
        self.key, self.modifiers = key, modifiers
        self.buttons: list[str] = []
        self._tries = 500
        QTimer.singleShot(0, self._poll)

    def _poll(self) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            self._tries -= 1
            if self._tries > 0:
                QTimer.singleShot(20, self._poll)
            return
        if QApplication.activeWindow() is not box:  # keys reach only the active window, as on a desktop
            box.activateWindow()
            QTimer.singleShot(20, self._poll)
            return
        self.buttons = [button.text() for button in box.buttons()]
        QTest.keyClick(box, self.key, self.modifiers)


@pytest.mark.parametrize(
    ("key", "closes", "saved"), [(Key.Key_S, True, True), (Key.Key_D, True, False), (Key.Key_C, False, False)]
)
@pytest.mark.slow
def test_each_answer_has_its_own_key(main_window, qtbot, raw_log, key, closes, saved):
    window = main_window
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    answer = KeyAnswer(key)
    assert window.close() is closes
    assert sorted(answer.buttons) == ["&Cancel", "&Discard", "&Save"]
    assert window.isVisible() is not closes
    assert (LogDocument.load(raw_log).sessions[0].task_completion == "1") is saved


@pytest.mark.slow
def test_quit_then_discard_destroys_the_window_without_an_exception(main_window, qtbot):
    """The undo stack dies with the window while it still holds the discarded edits; whatever it
    announces then must not reach a window that is already gone (fail_on_unhandled_exceptions)."""
    window = main_window
    press(qtbot, window, Key.Key_0, Mod.ControlModifier | Mod.AltModifier)
    assert window.isWindowModified()
    answer = KeyAnswer(Key.Key_D)
    press(qtbot, window, Key.Key_Q, Mod.ControlModifier)
    assert answer.buttons and not window.isVisible()
    assert not parts_of(
        window
    ).controller.undo_stack.isClean()  # the discarded work is still in the stack as it is destroyed
    window.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(window)


@pytest.mark.slow
def test_the_real_app_quits_after_discard_with_nothing_on_stderr(raw_log: Path, tmp_path: Path):
    """The whole program, as `annotator LOG` runs it: Ctrl+Alt+0, Ctrl+Q, Alt+D, then exit."""
    script = WINDOW_PRELUDE.format(settings=str(tmp_path / "settings"), log=str(raw_log)) + textwrap.dedent("""
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QMessageBox

        def answer():
            box = QApplication.activeModalWidget()
            if not isinstance(box, QMessageBox) or QApplication.activeWindow() is not box:
                if isinstance(box, QMessageBox):
                    box.activateWindow()
                QTimer.singleShot(20, answer)
                return
            QTest.keyClick(box, Qt.Key.Key_D, Qt.KeyboardModifier.AltModifier)

        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
        QTimer.singleShot(0, answer)
        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
        assert not window.isVisible(), "the window should have closed"
        parts_of(window).playback.close()
        print("quit", flush=True)
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, env=dict(os.environ), capture_output=True, text=True, timeout=120
    )
    stderr = [line for line in done.stderr.splitlines() if not line.startswith("This plugin does not support ")]
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "quit"
    assert stderr == []
