"""Ctrl+F in the real window: the find bar, hits highlighted in the turn table, F3 / Shift+F3, Escape."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.annotating.turn_table import Column
from annotator.gui.app import parts_of
from annotator.gui.theme import theme_colour
from annotator.gui.widgets.roles import SEARCH_HIT_ROLE
from tests.support.gui_keys import press, type_text

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def _hit(window, row: int, column: Column):
    return parts_of(window).navigator.model.index(row, column).data(SEARCH_HIT_ROLE)


def _current_row(window) -> int:
    return parts_of(window).navigator.current_turn().index


@pytest.mark.slow
def test_ctrl_f_finds_highlights_and_steps(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)
    parts_of(window).navigator.select_row(0)
    press(qtbot, window, Qt.Key.Key_F, CTRL)
    bar = parts_of(window).find.bar
    assert bar.isVisible() and QApplication.focusWidget() is bar.text
    type_text(qtbot, window, "boston")
    # turn 2: transcription; turn 4: transcription, recognizer and parse (:destination=Boston); turn 5: system
    qtbot.waitUntil(lambda: bar.count.text() == "5 hits")
    assert _hit(window, 1, Column.TRANSCRIPTION) == "hit" and _hit(window, 1, Column.RECOGNIZER) is None
    assert _hit(window, 3, Column.RECOGNIZER) == "hit"
    background = parts_of(window).navigator.model.index(1, Column.TRANSCRIPTION).data(Qt.ItemDataRole.BackgroundRole)
    assert background.color() == theme_colour("search_hit_background")
    press(qtbot, window, Qt.Key.Key_F3)
    assert _current_row(window) == 1 and bar.count.text() == "1 of 5"
    assert _hit(window, 1, Column.TRANSCRIPTION) == "current"
    assert QApplication.focusWidget() is bar.text  # stepping leaves the focus in the find box
    press(qtbot, window, Qt.Key.Key_F3)
    assert _current_row(window) == 3 and bar.count.text() == "2 of 5"
    press(qtbot, window, Qt.Key.Key_F3, SHIFT)
    press(qtbot, window, Qt.Key.Key_F3, SHIFT)
    assert bar.count.text() == "5 of 5" and _current_row(window) == 4  # wrapped round to the last hit
    press(qtbot, window, Qt.Key.Key_Return)  # Enter in the find box is the next hit
    assert bar.count.text() == "1 of 5" and _current_row(window) == 1


@pytest.mark.slow
def test_escape_closes_the_bar_clears_the_highlights_and_returns_the_focus(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)
    parts_of(window).navigator.select_row(1, focus_editor=True)
    editor_text = parts_of(window).navigator.editor.text
    assert QApplication.focusWidget() is editor_text
    press(qtbot, window, Qt.Key.Key_F, CTRL)
    type_text(qtbot, window, "chicago")
    qtbot.waitUntil(lambda: parts_of(window).find.bar.count.text() == "3 hits")
    press(qtbot, window, Qt.Key.Key_Escape)
    assert not parts_of(window).find.bar.isVisible()
    assert QApplication.focusWidget() is editor_text
    assert _hit(window, 5, Column.TRANSCRIPTION) is None


@pytest.mark.slow
def test_case_toggle_and_a_bad_regex(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)
    press(qtbot, window, Qt.Key.Key_F, CTRL)
    bar = parts_of(window).find.bar
    type_text(qtbot, window, "Boston")
    qtbot.waitUntil(lambda: bar.count.text() == "5 hits")
    bar.case.setChecked(True)
    assert bar.count.text() == "2 hits"  # the system's prompt and the parse's :destination
    bar.regex.setChecked(True)
    press(qtbot, window, Qt.Key.Key_ParenLeft)
    assert bar.count.text() == "bad pattern"
    assert window.statusBar().currentMessage().startswith("bad regular expression 'Boston(': missing )")
    assert _hit(window, 4, Column.SYSTEM) is None
    press(qtbot, window, Qt.Key.Key_Backspace)
    qtbot.waitUntil(lambda: bar.count.text() == "2 hits")


@pytest.mark.slow
def test_the_hits_follow_an_edit(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)
    press(qtbot, window, Qt.Key.Key_F, CTRL)
    type_text(qtbot, window, "zanzibar")
    qtbot.waitUntil(lambda: parts_of(window).find.bar.count.text() == "no hits")
    parts_of(window).navigator.model.setData(
        parts_of(window).navigator.model.index(7, Column.TRANSCRIPTION), "to zanzibar"
    )
    qtbot.waitUntil(lambda: parts_of(window).find.bar.count.text() == "1 hit")
    assert _hit(window, 7, Column.TRANSCRIPTION) == "hit"
