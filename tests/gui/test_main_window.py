"""The real main window, driven with real key events on copies of the sample logs."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox

from annotator.gui.actions import ACTIONS, all_key_sequences, key_text
from annotator.gui.annotating.turn_table import Column
from annotator.gui.app import parts_of
from annotator.gui.preferences.keys_dialog import ShortcutsDialog
from annotator.gui.settings import AppSettings
from annotator.gui.widgets.roles import NEEDS_TRANSCRIPTION_ROLE
from annotator.log.document import LogDocument
from tests.support.gui_keys import focused, press, type_text
from tests.support.no_audio import NOTHING_TO_PLAY, without_user_audio
from tests.support.pane_readouts import metric_text

Key, Mod = Qt.Key, Qt.KeyboardModifier
Button = QMessageBox.StandardButton


def current_row(window) -> int:
    return window.table.currentIndex().row()


def selected_rows(window) -> list[int]:
    return sorted({index.row() for index in window.table.selectionModel().selectedRows()})


def editor_has_focus(window) -> bool:
    return QApplication.focusWidget() is window.editor.text


def first_user_row(window) -> int:
    return next(t.index for t in parts_of(window).navigator.session.turns if t.speaker == "user")


def test_opens_a_log_and_selects_its_first_user_turn_to_transcribe(main_window, raw_log):
    window = main_window
    assert parts_of(window).controller.document.path == raw_log
    assert raw_log.name in window.windowTitle()
    assert not window.isWindowModified()
    assert parts_of(window).navigator.model.rowCount() == len(parts_of(window).navigator.session.turns) == 10
    assert current_row(window) == 1 and selected_rows(window) == [1]  # 01 is the system's greeting
    assert window.editor.turn == parts_of(window).navigator.session.turns[1]
    assert window.session_bar.session_name.text() == "travel:20261121:002"
    assert window.session_bar.session_name.font().bold()
    assert window.session_bar.task.currentText() == "unset"
    assert "0 of 5 user turns transcribed" in window.session_bar.progress.text()
    user_row = first_user_row(window)
    assert parts_of(window).navigator.model.index(user_row, 0).data(NEEDS_TRANSCRIPTION_ROLE) is True
    assert parts_of(window).navigator.model.index(user_row, 0).data(Qt.ItemDataRole.DecorationRole) is not None
    assert parts_of(window).detail.topLevelItem(0).text(0) == "GC_TURN 02"


@pytest.mark.slow
def test_alt_and_ctrl_arrows_move_between_turns(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    window.table.setFocus()
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)
    assert selected_rows(window) == [1]
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)
    assert selected_rows(window) == [2]
    press(qtbot, window, Key.Key_Up, Mod.AltModifier)
    assert selected_rows(window) == [1]
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)  # next user turn: 04
    assert selected_rows(window) == [3] and parts_of(window).navigator.current_turn().id == "04"
    press(qtbot, window, Key.Key_Up, Mod.ControlModifier)
    assert parts_of(window).navigator.current_turn().id == "02"
    press(qtbot, window, Key.Key_Up, Mod.ControlModifier)  # none before: stays
    assert parts_of(window).navigator.current_turn().id == "02"
    assert window.statusBar().currentMessage() == "No user turn before turn 02 in session travel:20261121:002"


def test_focus_lands_in_the_editor_on_user_turns_only(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    window.table.setFocus()
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)  # 02, user
    assert parts_of(window).navigator.current_turn().speaker == "user"
    assert editor_has_focus(window)
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)  # 03, system: the editor has nothing to take
    assert parts_of(window).navigator.current_turn().speaker == "system"
    assert focused(window) is window.table
    assert not window.editor.text.isEnabled()


def test_type_and_commit_with_ctrl_enter_moves_to_next_untranscribed(main_window, qtbot):
    window = main_window
    window.table.setFocus()
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    turn = parts_of(window).navigator.current_turn()
    assert turn.id == "02" and editor_has_focus(window)
    type_text(qtbot, window, "i need to go to san francisco please")
    assert "WER" in window.editor.score.text()
    assert turn.transcription is None  # not stored per keystroke
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert (
        parts_of(window).controller.document.session("travel:20261121:002").turns[1].transcription
        == "i need to go to san francisco please"
    )
    assert parts_of(window).navigator.current_turn().id == "04"  # the next user turn still to transcribe
    assert editor_has_focus(window)
    assert (
        parts_of(window).navigator.model.index(1, Column.WER).data() == "12.5 %"
    )  # "please" missed: 1 deletion of 8 words
    assert parts_of(window).navigator.model.index(1, 0).data(NEEDS_TRANSCRIPTION_ROLE) is False
    assert "1 of 5 user turns transcribed" in window.session_bar.progress.text()
    assert window.isWindowModified()


@pytest.mark.slow
def test_ctrl_enter_skips_transcribed_turns_and_wraps(main_window, qtbot):
    window = main_window
    for text in ("one", "two"):
        parts_of(window).navigator.select_row(first_user_row(window), focus_editor=True)
        parts_of(window).navigator.step_turn(+1, users_only=True) if text == "two" else None
        type_text(qtbot, window, text)
        press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert [t.transcription for t in parts_of(window).navigator.session.user_turns] == ["one", "two", None, None, None]
    parts_of(window).navigator.select_row(9, focus_editor=True)  # the last user turn
    type_text(qtbot, window, "bye")
    press(qtbot, window, Key.Key_Enter, Mod.ControlModifier | Mod.KeypadModifier)  # the keypad's Enter too
    assert parts_of(window).navigator.current_turn().id == "06"  # wrapped round to the first still untranscribed


def test_auto_play_asks_playback_for_the_next_turn(make_window, raw_log, qtbot):
    window = make_window(without_user_audio(raw_log))
    parts_of(window).navigator.select_row(1, focus_editor=True)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert parts_of(window).navigator.current_turn().id == "04" and parts_of(window).playback.turn.id == "04"
    assert window.statusBar().currentMessage() == NOTHING_TO_PLAY, "playback was asked to play turn 04"
    window.action_table.auto_play.trigger()  # off
    assert AppSettings().auto_play is False
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert parts_of(window).playback.turn.id == "06"
    assert window.statusBar().currentMessage().startswith("turn 06: "), "turn 06 shown, not played"


def test_transport_and_navigation_keys_work_while_typing(make_window, raw_log, qtbot):
    window = make_window(without_user_audio(raw_log))
    parts_of(window).navigator.select_row(1, focus_editor=True)
    type_text(qtbot, window, "hello there")
    for key in (Key.Key_Space, Key.Key_R):
        window.statusBar().clearMessage()
        press(qtbot, window, key, Mod.ControlModifier)
        assert window.statusBar().currentMessage() == NOTHING_TO_PLAY, "the key reached playback"
    assert window.editor.text.toPlainText() == "hello there"  # no key reached the text
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)  # leaving the turn stores the typing
    assert parts_of(window).navigator.session.turns[1].transcription == "hello there"
    assert parts_of(window).navigator.current_turn().id == "03"


def test_ctrl_left_goes_back_two_seconds_while_typing(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(1, focus_editor=True)  # turn 02, 2.2 s of audio
    type_text(qtbot, window, "hello there")
    parts_of(window).waveform.clicked_at.emit(2.2)
    press(qtbot, window, Key.Key_Left, Mod.ControlModifier)
    assert abs(parts_of(window).playback.player.position - 0.2) < 0.01
    assert window.editor.text.textCursor().position() == len("hello there")  # Ctrl+Left did not move the cursor


def test_ctrl_1_and_ctrl_0_set_task_completion_and_undo_restores(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(1, focus_editor=True)  # keys work from inside the editor
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    assert parts_of(window).navigator.session.task_completion == "1"
    assert window.session_bar.task.currentText() == "completed (1)"
    qtbot.waitUntil(lambda: metric_text(parts_of(window).metrics, "task_completion") == "1")  # refreshed when idle
    press(qtbot, window, Key.Key_0, Mod.ControlModifier | Mod.AltModifier)
    assert parts_of(window).navigator.session.task_completion == "0"
    assert parts_of(window).controller.undo_stack.undoText() == "Mark task not completed"
    window.table.setFocus()
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert parts_of(window).navigator.session.task_completion == "1"
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert parts_of(window).navigator.session.task_completion is None
    assert window.session_bar.task.currentText() == "unset"
    assert not window.isWindowModified()
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier | Mod.ShiftModifier)
    assert parts_of(window).navigator.session.task_completion == "1"
    assert window.isWindowModified()


def test_task_completion_combo_is_undoable(main_window, qtbot):
    window = main_window
    combo = window.session_bar.task
    combo.setFocus()
    press(qtbot, window, Key.Key_Down)  # a real key on the combo box: unset -> completed
    assert parts_of(window).navigator.session.task_completion == "1"
    assert parts_of(window).controller.undo_stack.undoText() == "Mark task completed"


def test_undo_and_redo_a_transcription(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(1, focus_editor=True)
    type_text(qtbot, window, "to san francisco")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    turn = parts_of(window).navigator.session.turns[1]
    assert turn.transcription == "to san francisco"
    assert parts_of(window).controller.undo_stack.undoText() == "Transcribe turn 02"
    assert window.action_table.undo.isEnabled()
    # In the editor of turn 04 with nothing typed, Ctrl+Z is the window's undo.
    assert editor_has_focus(window) and parts_of(window).navigator.current_turn().id == "04"
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert turn.transcription is None
    assert parts_of(window).navigator.current_turn().id == "02"  # the undone turn is shown
    assert window.editor.text.toPlainText() == ""
    assert not window.isWindowModified()
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier | Mod.ShiftModifier)
    assert turn.transcription == "to san francisco"
    assert window.editor.text.toPlainText() == "to san francisco"


def test_the_edit_menu_names_what_undo_and_redo_would_change(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(1, focus_editor=True)
    type_text(qtbot, window, "to san francisco")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    edit = {action.shortcut().toString(): action for action in window.menus.edit.actions()}
    undo, redo = edit["Ctrl+Z"], edit["Ctrl+Shift+Z"]
    assert undo.text().replace("&", "") == "Undo Transcribe turn 02" and undo.isEnabled()
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert redo.text().replace("&", "") == "Redo Transcribe turn 02" and redo.isEnabled()
    assert undo.text().replace("&", "") == "Undo" and not undo.isEnabled()


def test_ctrl_z_undoes_typing_in_the_editor_before_the_window_history(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(1, focus_editor=True)
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)  # one step in the window's history
    type_text(qtbot, window, "abc")
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert window.editor.text.toPlainText() != "abc"  # the typing went first
    assert parts_of(window).navigator.session.task_completion == "1"


def test_ctrl_i_prefills_with_the_recognizer_text(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(3, focus_editor=True)
    press(qtbot, window, Key.Key_I, Mod.ControlModifier)
    assert window.editor.text.toPlainText() == "from the mile i city"
    assert parts_of(window).navigator.session.turns[3].transcription is None
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert parts_of(window).navigator.session.turns[3].transcription == "from the mile i city"


def test_no_two_actions_share_a_key(main_window):
    keys = [sequence.toString() for sequence in all_key_sequences()]
    assert len(keys) == len(set(keys))
    bound = [
        s.toString()
        for action in main_window.findChildren(type(main_window.action_table.open))
        for s in action.shortcuts()
    ]
    assert len(bound) == len(set(bound))
    assert set(keys) <= set(bound)


@pytest.mark.slow
def test_every_key_is_in_its_menu_and_in_the_shortcuts_dialog(main_window, qtbot):
    window = main_window
    in_menus = {action for menu in window.menuBar().findChildren(QMenu) for action in menu.actions()}
    for spec, action in window.action_table:
        assert action in in_menus, spec.name
        assert [s.toString() for s in action.shortcuts()] == [QKeySequence(k).toString() for k in spec.keys]
    press(qtbot, window, Key.Key_F1)
    dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, ShortcutsDialog) and w.isVisible())
    listed = dialog.listed_keys()
    for spec in ACTIONS:
        if spec.keys:
            assert key_text(spec) in listed, spec.name
    assert len(listed) == sum(1 for spec in ACTIONS if spec.keys)
    # the list scrolls inside a dialog that fits the screen (it outgrew 720 pixels with the n-best and concepts keys)
    assert dialog.frameGeometry().height() <= dialog.screen().availableGeometry().height()
    assert dialog.table.verticalScrollBar().maximum() > 0  # the offscreen screen is 800 pixels high
    dialog.close()


@pytest.mark.slow
def test_settings_persist_between_windows(make_window, raw_log):
    window = make_window(raw_log)
    assert window.action_table.auto_play.isChecked() and not window.action_table.loop.isChecked()
    window.action_table.loop.trigger()
    window.menus.speeds.actions()[-1].trigger()  # 2x
    window.close()
    settings = AppSettings()
    assert settings.loop is True and settings.speed == 2.0 and settings.auto_play is True
    assert not settings.window_geometry.isEmpty()
    again = make_window()
    assert again.action_table.loop.isChecked()
    assert [a.data() for a in again.menus.speeds.actions() if a.isChecked()] == [2.0]


def test_a_log_of_several_sessions_shows_the_session_selector(make_window, tmp_path, raw_log, qtbot):
    text = raw_log.read_text(encoding="utf-8")
    start, end = text.index("<GC_SESSION"), text.index("</GC_SESSION>") + len("</GC_SESSION>")
    second = text[start:end].replace('id="travel:20261121:002"', 'id="second"', 1)
    two = tmp_path / "two.xml"
    two.write_text(text[:end] + "\n  " + second + text[end:], encoding="utf-8")
    window = make_window(two)
    selector = window.session_bar.sessions
    assert selector.isVisible() and selector.count() == 2
    selector.setCurrentIndex(1)
    assert parts_of(window).navigator.session.id == "second" and current_row(window) == 1  # its first user turn
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    assert parts_of(window).controller.document.sessions[1].task_completion == "1"
    assert parts_of(window).controller.document.sessions[0].task_completion is None


def test_cli_gui_command_parses_an_optional_path():
    import argparse

    from annotator.cli import gui

    parser = argparse.ArgumentParser()
    gui.add_arguments(parser)
    assert parser.parse_args([]).path is None
    assert parser.parse_args(["some/log.xml"]).path == "some/log.xml"


def test_sample_session_is_found():
    from annotator.gui.app import sample_session

    path = sample_session()
    assert path is not None and path.name == "travel-20261121-001-hublog.xml"


def test_editing_in_the_table_cell_with_f2(main_window, qtbot, raw_log):
    window = main_window
    parts_of(window).navigator.select_row(3)
    window.table.setFocus()
    press(qtbot, window, Key.Key_F2)
    cell_editor = focused(window)
    assert cell_editor is window.table.delegate.open_editor
    type_text(qtbot, window, "from the mile high city")
    press(qtbot, window, Key.Key_Return)  # the delegate commits on the next turn of the event loop
    qtbot.waitUntil(lambda: parts_of(window).navigator.session.turns[3].transcription == "from the mile high city")
    assert parts_of(window).controller.undo_stack.undoText() == "Transcribe turn 04"
    # A cell still being edited is stored by Ctrl+S, which reaches the window from inside the cell.
    parts_of(window).navigator.select_row(5)
    window.table.setFocus()
    press(qtbot, window, Key.Key_F2)
    type_text(qtbot, window, "denver")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert LogDocument.load(raw_log).sessions[0].turns[5].transcription == "denver"
    assert not window.isWindowModified()


def test_a_logs_own_task_completion_is_shown_put_back_by_undo_but_never_offered(make_window, raw_log: Path, qtbot):
    text = raw_log.read_text(encoding="utf-8")
    start = text.index(">", text.index("<GC_SESSION")) + 1
    raw_log.write_text(text[:start] + '<GC_ANNOT type_task_completion="2"/>' + text[start:], encoding="utf-8")
    window = make_window(raw_log)
    combo = window.session_bar.task
    assert combo.currentText() == "2 (from the log)"
    assert not combo.model().item(combo.currentIndex()).isEnabled()
    window.table.setFocus()
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    assert parts_of(window).navigator.session.task_completion == "1"
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert parts_of(window).navigator.session.task_completion == "2" and combo.currentText() == "2 (from the log)"
    assert not window.isWindowModified()
    press(qtbot, window, Key.Key_0, Mod.ControlModifier | Mod.AltModifier)
    combo.setFocus()
    press(qtbot, window, Key.Key_Down)  # past "not completed (0)" lies only the log's value, which is not offered
    assert parts_of(window).navigator.session.task_completion == "0"
