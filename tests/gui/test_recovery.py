"""Crash recovery for real: a window killed with SIGKILL after typing a transcription leaves a
journal; reopening the log offers Restore (the default) and restores the text exactly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from annotator.log.document import LogDocument
from annotator.log.recovery_journal import RecoveryJournal
from tests.conftest import REPO
from tests.gui.window_script import WINDOW_PRELUDE

TYPED = "i want to fly to boston on friday"

CRASHING_SESSION = WINDOW_PRELUDE + """QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
QTest.keyClicks(QApplication.focusWidget(), {typed!r})
QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
deadline = time.monotonic() + 2.5  # the journal must be written within 2 s of the edit
while time.monotonic() < deadline:
    app.processEvents()
    time.sleep(0.01)
print("typed into turn", window.document.sessions[0].user_turns[0].id, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _crash_after_typing(log: Path, tmp_path: Path) -> None:
    settings = tmp_path / "crash-settings"
    settings.mkdir()
    script = CRASHING_SESSION.format(settings=str(settings), log=str(log), typed=TYPED)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=REPO, env=dict(os.environ),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stdout + done.stderr
    assert "typed into turn" in done.stdout


def _answer_with(choice: str) -> dict:
    """Click Restore (the default button) or Discard on the next modal box."""
    seen: dict = {}

    def poll() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, poll)
            return
        seen["text"] = box.text()
        seen["default"] = box.defaultButton().text()
        button = box.defaultButton() if choice == "default" else box.button(QMessageBox.StandardButton.Discard)
        button.click()

    QTimer.singleShot(0, poll)
    return seen


def test_killed_session_is_restored_exactly(make_window, raw_log: Path, tmp_path: Path, qtbot):
    original = raw_log.read_bytes()
    _crash_after_typing(raw_log, tmp_path)
    assert raw_log.read_bytes() == original, "the kill lost nothing and wrote nothing to the log"
    assert RecoveryJournal.for_document(LogDocument.load(raw_log)).pending() is not None
    seen = _answer_with("default")
    window = make_window(raw_log)
    assert seen["default"] == "&Restore" and "1 transcription" in seen["text"]
    assert window.document.sessions[0].user_turns[0].transcription == TYPED
    assert window.isWindowModified(), "restored work is unsaved work"
    window.controller.save()
    assert RecoveryJournal.for_document(window.document).pending() is None, "a save removes the journal"


def test_declining_discards_the_journal(make_window, raw_log: Path, tmp_path: Path):
    _crash_after_typing(raw_log, tmp_path)
    seen = _answer_with("discard")
    window = make_window(raw_log)
    assert "1 transcription" in seen["text"]
    assert window.document.sessions[0].user_turns[0].transcription is None
    assert RecoveryJournal.for_document(window.document).pending() is None
