"""The last position in a log is written once the selection rests, and at once when the log is left or
the window closes: not at every move (each write rewrites the whole settings file on the GUI thread)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of
from annotator.gui.opening.position_writer import WRITE_AFTER_MS
from tests.support.gui_keys import press


def _move_down(qtbot, window, times: int) -> None:
    window.table.setFocus()
    for _ in range(times):
        press(qtbot, window, Qt.Key.Key_Down)
        window.table.setFocus()


@pytest.mark.slow
def test_the_position_is_written_once_the_selection_rests(qtbot, make_window, settings, raw_log: Path):
    window = make_window(raw_log)
    session = parts_of(window).navigator.session
    start = settings.last_position(raw_log, None)
    _move_down(qtbot, window, 3)
    moved_to = parts_of(window).navigator.current_turn().index
    assert moved_to != (start.turn_index if start else 0)
    assert settings.last_position(raw_log, None) == start  # not at every move
    qtbot.waitUntil(
        lambda: (
            settings.last_position(raw_log, None) is not None
            and settings.last_position(raw_log, None).turn_index == moved_to
        ),
        timeout=WRITE_AFTER_MS * 5,
    )
    assert settings.last_position(raw_log, None).session_id == session.id


def test_closing_the_window_writes_the_position_at_once(qtbot, make_window, settings, raw_log: Path):
    window = make_window(raw_log)
    _move_down(qtbot, window, 2)
    moved_to = parts_of(window).navigator.current_turn().index
    window.close()
    assert settings.last_position(raw_log, None).turn_index == moved_to


@pytest.mark.slow
def test_opening_another_log_writes_the_position_and_reopening_returns_to_it(
    qtbot, make_window, settings, raw_log: Path, latin1_log: Path
):
    window = make_window(raw_log)
    _move_down(qtbot, window, 4)
    moved_to = parts_of(window).navigator.current_turn().index
    assert parts_of(window).navigator.open_path(latin1_log)
    assert settings.last_position(raw_log, None).turn_index == moved_to
    assert parts_of(window).navigator.open_path(raw_log)
    QApplication.processEvents()
    assert parts_of(window).navigator.current_turn().index == moved_to
