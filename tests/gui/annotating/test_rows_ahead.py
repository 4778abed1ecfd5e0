"""The turn table makes the rows two pages above and below the view once a scroll has been painted, so the next
page down (or up) paints rows whose cells are already made; a transcription drops its row's, which is made
again with the new text."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.annotating.turn_table import Column
from annotator.gui.app import parts_of
from tests.support.gui_keys import press, type_text
from tests.support.timeline_view import long_timed_log, open_window

Key = Qt.Key


def count_rows_made(model) -> list[int]:
    """The rows whose cells the model makes from now on (a spy around the real RowPainter.paint)."""
    made: list[int] = []
    paint = model.painter.paint

    def counted(turn, hit_of):
        made.append(turn.index)
        return paint(turn, hit_of)

    model.painter.paint = counted
    return made


def settled() -> None:
    """Five passes of the event loop: the rows ahead are made on a 0 ms timer, due in the first (when the timer
    was started with the scroll bar's value as its interval, they were not, and these tests failed now and then)."""
    for _ in range(5):
        QApplication.processEvents()


@pytest.mark.slow
def test_a_page_down_paints_rows_made_ahead(qtbot, make_window, tmp_path: Path):
    window = open_window(make_window, long_timed_log(tmp_path))
    table, model = window.table, parts_of(window).navigator.model
    table.setFocus()
    parts_of(window).navigator.select_row(100)  # past the rows the table measures its columns on (MEASURED_ROWS)
    settled()
    made = count_rows_made(model)
    for key in (Key.Key_PageDown, Key.Key_PageDown, Key.Key_PageUp):
        table.setFocus()
        del made[:]
        qtbot.keyClick(table, key)
        table.viewport().repaint()  # the paint of the rows scrolled into view
        shown = range(table.rowAt(0), table.rowAt(table.viewport().height() - 1) + 1)
        assert len(shown) > 3 and 50 < shown[0] and shown[-1] < 250
        assert not set(made) & set(shown)  # every row shown was made before its paint
        settled()
        assert set(made) <= set(table.rows_ahead.rows())  # then the page beyond, in idle time


@pytest.mark.slow
def test_a_row_made_ahead_is_made_again_when_its_turn_is_transcribed(qtbot, make_window, tmp_path: Path):
    window = open_window(make_window, long_timed_log(tmp_path))
    table, model = window.table, parts_of(window).navigator.model
    table.setFocus()
    qtbot.keyClick(table, Key.Key_PageDown)
    settled()
    below = table.rowAt(table.viewport().height() - 1) + 2  # not shown, made ahead
    turn = parts_of(window).navigator.session.turns[below]
    assert turn.speaker == "user" or parts_of(window).navigator.session.turns[below + 1].speaker == "user"
    row = below if turn.speaker == "user" else below + 1
    assert model.index(row, Column.TRANSCRIPTION).data() == "to transcribe"
    parts_of(window).navigator.select_row(row)
    table.setFocus()
    press(qtbot, window, Key.Key_F2)
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Key.Key_Return)
    qtbot.waitUntil(lambda: parts_of(window).navigator.session.turns[row].transcription == "to boston")
    assert model.index(row, Column.TRANSCRIPTION).data() == "to boston"


@pytest.mark.slow
def test_the_rows_ahead_are_made_in_the_next_pass_of_the_event_loop_wherever_the_view_is(
    qtbot, make_window, tmp_path: Path
):
    """Down a session the scroll bar's value is large: the rows must not wait that many milliseconds."""
    window = open_window(make_window, long_timed_log(tmp_path))
    table, model = window.table, parts_of(window).navigator.model
    settled()
    table.scrollToBottom()
    assert table.verticalScrollBar().value() > 250  # rows (ScrollPerItem): the old interval in ms
    settled()
    wanted = table.rows_ahead.rows()
    assert wanted.start > 200 and all(row in model._painted for row in wanted)
