"""Ctrl+= (and Ctrl++) / Ctrl+- / Ctrl+0 zoom the text of the turn table and the editor, rows follow, and the
zoom is kept for the next window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.gui.appearance.zoom import ZOOM_STEPS, next_zoom
from annotator.gui.settings import AppSettings
from tests.support.gui_keys import close_window, press

CTRL = Qt.KeyboardModifier.ControlModifier


def sizes(window) -> tuple[float, float, int]:
    """The table's point size, the editor's typing point size, and the height of the table's first row."""
    table = parts_of(window).navigator.table
    return (
        table.font().pointSizeF(),
        parts_of(window).navigator.editor.text.font().pointSizeF(),
        table.verticalHeader().sectionSize(0),
    )


def test_ctrl_equals_enlarges_the_table_and_the_editor_and_their_rows(qtbot, main_window):
    table_points, editor_points, row_height = sizes(main_window)
    press(qtbot, main_window, Qt.Key.Key_Equal, CTRL)
    assert parts_of(main_window).appearance.zoom.percent == 110
    bigger = sizes(main_window)
    assert bigger[0] == pytest.approx(table_points * 1.1)
    assert bigger[1] == pytest.approx(editor_points * 1.1)
    assert bigger[2] > row_height
    assert bigger[2] == parts_of(main_window).navigator.table.fontMetrics().height() + 10
    assert AppSettings().zoom == 110


def test_ctrl_plus_minus_and_zero_step_and_reset(qtbot, main_window):
    table_points = parts_of(main_window).navigator.table.font().pointSizeF()
    row_height = sizes(main_window)[2]
    press(qtbot, main_window, Qt.Key.Key_Plus, CTRL)
    press(qtbot, main_window, Qt.Key.Key_Plus, CTRL)
    assert parts_of(main_window).appearance.zoom.percent == 125
    for _ in range(4):
        press(qtbot, main_window, Qt.Key.Key_Minus, CTRL)
    assert parts_of(main_window).appearance.zoom.percent == 80
    assert parts_of(main_window).navigator.table.font().pointSizeF() == pytest.approx(table_points * 0.8)
    assert sizes(main_window)[2] < row_height
    press(qtbot, main_window, Qt.Key.Key_0, CTRL)
    assert parts_of(main_window).appearance.zoom.percent == 100
    assert parts_of(main_window).navigator.table.font().pointSizeF() == pytest.approx(table_points)
    assert sizes(main_window)[2] == row_height


@pytest.mark.slow
def test_the_zoom_stops_at_its_first_and_last_steps(qtbot, main_window):
    for _ in range(len(ZOOM_STEPS) + 2):
        press(qtbot, main_window, Qt.Key.Key_Equal, CTRL)
    assert parts_of(main_window).appearance.zoom.percent == 300
    for _ in range(len(ZOOM_STEPS) + 2):
        press(qtbot, main_window, Qt.Key.Key_Minus, CTRL)
    assert parts_of(main_window).appearance.zoom.percent == 50
    assert [next_zoom(100, +1), next_zoom(105, -1), next_zoom(300, +1), next_zoom(50, -1)] == [110, 100, 300, 50]


@pytest.mark.slow
def test_the_zoom_is_kept_for_the_next_window(qtbot, make_window, raw_log):
    first = make_window(raw_log)
    table_points, editor_points, row_height = sizes(first)
    for _ in range(3):
        press(qtbot, first, Qt.Key.Key_Equal, CTRL)  # 110, 125, 150
    close_window(first)
    second = make_window(raw_log)
    assert parts_of(second).appearance.zoom.percent == 150
    table_now, editor_now, row_now = sizes(second)
    assert table_now == pytest.approx(table_points * 1.5)
    assert editor_now == pytest.approx(editor_points * 1.5)
    assert row_now > row_height
