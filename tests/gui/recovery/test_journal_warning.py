"""A recovery journal that cannot be written is a warning that stays in the status bar, saying
that unsaved work is not protected and how to fix it, until a write succeeds."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from tests.support.gui_keys import press

Key, Mod = Qt.Key, Qt.KeyboardModifier


def _warning(window) -> QLabel | None:
    label = window.statusBar().findChild(QLabel, "journal_warning")
    return label if label is not None and label.isVisible() else None


@pytest.mark.slow
def test_an_unwritable_data_folder_is_a_warning_until_a_write_succeeds(
    make_window, raw_log: Path, qtbot, isolated_user_data: Path
):
    window = make_window(raw_log)
    assert _warning(window) is None and (isolated_user_data / "journals").is_dir()
    isolated_user_data.rename(isolated_user_data.with_name("moved"))
    isolated_user_data.write_text("a file where the data folder should be")  # mkdir fails, even for root
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    qtbot.waitUntil(lambda: _warning(window) is not None, timeout=10_000)
    text = _warning(window).text()
    assert "not protected" in text and str(isolated_user_data) in text and "Ctrl+S" in text
    window.show_status("Opened something else")  # a passing message does not replace it
    window.statusBar().clearMessage()
    assert _warning(window) is not None, "the warning stays"
    isolated_user_data.unlink()  # the annotator frees the folder: the next attempt succeeds
    qtbot.waitUntil(lambda: _warning(window) is None, timeout=10_000)
    assert any((isolated_user_data / "journals").glob("*.json"))
