"""Whenever a user turn is current, what the annotator types lands in the transcription editor:
right after opening a log, reopening it where they stopped, switching session, restoring unsaved
work, closing a dialog or a message box, and wherever in the window the focus happens to be."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from annotator.gui.app import parts_of
from annotator.gui.settings import AppSettings, LastPosition
from tests.support.gui_keys import press, type_text
from tests.support.killed_windows import crash_after_typing
from tests.support.modal_answers import when_modal

Key, Mod = Qt.Key, Qt.KeyboardModifier
SESSION = "travel:20261121:002"


def editor_text(window) -> str:
    return window.editor.text.toPlainText()


def first_user_index(window) -> int:
    return next(turn.index for turn in parts_of(window).navigator.session.turns if turn.speaker == "user")


def test_reopening_a_log_at_the_turn_left_types_into_the_editor(make_window, raw_log, qtbot):
    AppSettings().set_last_position(raw_log, LastPosition(SESSION, 3), None)
    window = make_window(raw_log)
    assert (
        parts_of(window).navigator.current_turn().id == "04"
        and parts_of(window).navigator.current_turn().speaker == "user"
    )
    type_text(qtbot, window, "yes please")
    assert editor_text(window) == "yes please"


@pytest.mark.slow
def test_opening_a_log_with_the_file_dialog_types_into_the_editor(
    make_window, raw_log, latin1_log, qtbot, answer_modal
):
    AppSettings().set_last_position(latin1_log, LastPosition("travel:20261121:003", 1), None)
    window = make_window(raw_log)
    answer = answer_modal(file=latin1_log)
    press(qtbot, window, Key.Key_O, Mod.ControlModifier)
    assert answer.answered and parts_of(window).controller.document.path == latin1_log
    assert parts_of(window).navigator.current_turn().speaker == "user"
    type_text(qtbot, window, "munich")
    assert editor_text(window) == "munich"


@pytest.mark.slow
def test_switching_session_with_the_keyboard_types_into_the_editor(make_window, two_session_log, qtbot):
    window = make_window(two_session_log)
    assert parts_of(window).navigator.session.index == 0 and parts_of(
        window
    ).navigator.current_turn().index == first_user_index(window)
    press(qtbot, window, Key.Key_PageDown, Mod.ControlModifier)
    assert parts_of(window).navigator.session.index == 1 and parts_of(window).navigator.current_turn().speaker == "user"
    stored = parts_of(window).navigator.current_turn().transcription or ""
    type_text(qtbot, window, " again")
    assert editor_text(window) == stored + " again"
    press(qtbot, window, Key.Key_PageUp, Mod.ControlModifier)
    assert parts_of(window).navigator.session.index == 0


@pytest.mark.slow
def test_choosing_a_session_in_the_bar_types_into_the_editor(make_window, two_session_log, qtbot):
    window = make_window(two_session_log)
    selector = window.session_bar.sessions
    selector.setFocus()
    press(qtbot, window, Key.Key_Down)  # the combo box's own key: the next session
    assert parts_of(window).navigator.session.index == 1
    stored = parts_of(window).navigator.current_turn().transcription or ""
    type_text(qtbot, window, " again")
    assert editor_text(window) == stored + " again"


@pytest.mark.slow
def test_restoring_unsaved_work_types_into_the_editor(make_window, raw_log, tmp_path, qtbot, boxes):
    crash_after_typing(raw_log, tmp_path)
    AppSettings().set_last_position(raw_log, LastPosition(SESSION, 3), None)
    answers = boxes()  # the default answer
    window = make_window(raw_log)
    assert answers.seen[0].clicked == "Restore" and "&Restore" in answers.seen[0].buttons
    assert window.isWindowModified()
    type_text(qtbot, window, "no")
    assert editor_text(window) == "no"


@pytest.mark.slow
def test_closing_a_dialog_or_a_message_box_types_into_the_editor(main_window, qtbot, tmp_path):
    window = main_window
    parts_of(window).navigator.select_row(first_user_index(window))
    window.table.setFocus()  # where the focus was when the box opened
    broken = tmp_path / "broken.xml"
    broken.write_text("<GC_LOG><GC_SESSION", encoding="utf-8")

    when_modal(QMessageBox, lambda box: qtbot.keyClick(box, Key.Key_Return))
    assert parts_of(window).navigator.open_path(broken) is False  # "Cannot open": an error box, dismissed with Enter
    qtbot.waitUntil(window.isActiveWindow)  # given back by the window itself: no window manager here
    type_text(qtbot, window, "one")

    press(qtbot, window, Key.Key_F1)
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible())
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    qtbot.keyClick(dialog, Key.Key_Escape)
    qtbot.waitUntil(window.isActiveWindow)
    type_text(qtbot, window, " two")
    assert editor_text(window) == "one two"


@pytest.mark.parametrize("where", ["table", "timeline", "details", "findings", "window"])
@pytest.mark.slow
def test_typing_with_the_focus_elsewhere_in_the_window_goes_to_the_editor(make_window, raw_log, qtbot, where):
    window = make_window(raw_log)
    parts_of(window).navigator.select_row(first_user_index(window))
    widget = {
        "table": window.table,
        "timeline": parts_of(window).timeline,
        "details": parts_of(window).detail,
        "findings": parts_of(window).findings.table,
        "window": window,
    }[where]
    widget.setFocus()
    qtbot.keyClicks(widget, "hello")
    assert editor_text(window) == "hello"
    assert QApplication.focusWidget() is window.editor.text


@pytest.mark.slow
def test_clicking_a_user_row_then_typing_goes_to_the_editor(main_window, qtbot):
    window = main_window
    row = first_user_index(window)
    rect = window.table.visualRect(parts_of(window).navigator.model.index(row, 0))
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert parts_of(window).navigator.current_turn().index == row
    type_text(qtbot, window, "fine")
    assert editor_text(window) == "fine"


def test_typing_on_a_system_turn_moves_to_the_next_user_turn_and_a_text_field_keeps_its_own(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(0)
    assert parts_of(window).navigator.current_turn().speaker == "system"
    window.table.setFocus()
    type_text(qtbot, window, "zz")
    assert parts_of(window).navigator.current_turn().index == first_user_index(window) and editor_text(window) == "zz"
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)  # the editor's own undo: its typing goes
    assert editor_text(window) == ""
    parts_of(window).navigator.select_row(first_user_index(window))
    window.table.setFocus()
    window.table.edit(
        parts_of(window).navigator.model.index(first_user_index(window), 6)
    )  # F2: the cell editor takes the text
    cell = window.table.delegate.open_editor
    assert cell is not None
    qtbot.keyClicks(cell, "in the cell")
    assert cell.text() == "in the cell" and editor_text(window) == ""
