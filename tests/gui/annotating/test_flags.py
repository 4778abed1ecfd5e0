"""Flags and comments in the real window: Alt+Shift keys toggle them on the selected turn, the turn table
shows them, each toggle is one undo step, and they are saved into the log."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.annotating.turn_table import Column
from annotator.gui.app import parts_of
from annotator.log.document import LogDocument
from annotator.log.flags import turn_comment, turn_flags
from tests.support.gui_keys import press
from tests.support.modal_answers import answer_input

ALT_SHIFT = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier


def _first_user_row(window) -> int:
    model = parts_of(window).navigator.model
    return next(row for row in range(model.rowCount()) if model.turn_at(row).speaker == "user")


def _select_first_user_turn(window):
    row = _first_user_row(window)
    parts_of(window).navigator.select_row(row)
    return row, parts_of(window).navigator.model.turn_at(row)


@pytest.mark.slow
def test_flag_keys_toggle_flags_shown_in_the_table_and_each_is_one_undo_step(qtbot, main_window, raw_log):
    row, turn = _select_first_user_turn(main_window)
    press(qtbot, main_window, Qt.Key.Key_I, ALT_SHIFT)
    press(qtbot, main_window, Qt.Key.Key_Z, ALT_SHIFT)
    press(qtbot, main_window, Qt.Key.Key_X, ALT_SHIFT)
    press(qtbot, main_window, Qt.Key.Key_X, ALT_SHIFT)  # again: cross-talk off
    assert turn_flags(turn.facts()) == ("inaudible", "noise")
    cell = parts_of(main_window).navigator.model.index(row, Column.FLAGS)
    assert cell.data() == "I Z"
    assert cell.data(Qt.ItemDataRole.DecorationRole) is not None
    assert "inaudible" in cell.data(Qt.ItemDataRole.ToolTipRole)
    stack = parts_of(main_window).controller.undo_stack
    assert stack.count() == 4
    press(qtbot, main_window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert turn_flags(turn.facts()) == ("inaudible", "cross-talk", "noise")
    press(qtbot, main_window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert turn_flags(turn.facts()) == ("inaudible", "noise")
    press(qtbot, main_window, Qt.Key.Key_T, ALT_SHIFT)
    press(qtbot, main_window, Qt.Key.Key_N, ALT_SHIFT)
    assert parts_of(main_window).navigator.model.index(row, Column.FLAGS).data() == "I T N Z"
    press(qtbot, main_window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    saved = LogDocument.load(raw_log)
    again = saved.sessions[0].turns[turn.index]
    assert turn_flags(again.facts()) == ("inaudible", "truncated", "non-native", "noise")


@pytest.mark.slow
def test_alt_shift_c_asks_for_a_comment_shown_in_the_table_and_undone_in_one_step(qtbot, main_window):
    row, turn = _select_first_user_turn(main_window)
    seen = answer_input(qtbot, "door slams, then quiet")
    press(qtbot, main_window, Qt.Key.Key_C, ALT_SHIFT)
    qtbot.waitUntil(lambda: turn_comment(turn.facts()) is not None)
    assert seen and f"turn {turn.id}" in seen[0][0]
    assert turn_comment(turn.facts()) == "door slams, then quiet"
    cell = parts_of(main_window).navigator.model.index(row, Column.FLAGS)
    assert cell.data() == "C" and "door slams" in cell.data(Qt.ItemDataRole.ToolTipRole)
    answer_input(qtbot, "")  # an empty comment removes it
    qtbot.waitUntil(lambda: QApplication.activeWindow() is main_window)  # the dialog gone, the window has the keys
    press(qtbot, main_window, Qt.Key.Key_C, ALT_SHIFT)
    qtbot.waitUntil(lambda: turn_comment(turn.facts()) is None)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not None)  # the window has the keyboard again
    press(qtbot, main_window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert turn_comment(turn.facts()) == "door slams, then quiet"


@pytest.mark.slow
def test_a_system_turn_takes_no_flag_and_the_status_bar_says_why(qtbot, main_window):
    model = parts_of(main_window).navigator.model
    row = next(row for row in range(model.rowCount()) if model.turn_at(row).speaker == "system")
    parts_of(main_window).navigator.select_row(row)
    press(qtbot, main_window, Qt.Key.Key_I, ALT_SHIFT)
    assert turn_flags(model.turn_at(row).facts()) == () and parts_of(main_window).controller.undo_stack.count() == 0
    assert "system turn" in main_window.statusBar().currentMessage()
