"""The keyboard dialog rebinds any action for real: a key recorded in the dialog drives the window (also
while typing in the editor), the old key no longer does, a key shared by two actions cannot be saved,
and only the user's own keys are stored, for the next window too."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of
from annotator.gui.preferences.keys_dialog import ShortcutsDialog
from annotator.gui.settings import AppSettings
from tests.support.gui_keys import close_window, press, type_text
from tests.support.no_audio import NOTHING_TO_PLAY, without_user_audio

Key, Mod = Qt.Key, Qt.KeyboardModifier


def open_keys_dialog(qtbot, window) -> ShortcutsDialog:
    """F1, as the annotator opens it."""
    press(qtbot, window, Key.Key_F1)
    dialog = parts_of(window).preferences.keys_dialog
    assert isinstance(dialog, ShortcutsDialog) and dialog.isVisible()
    return dialog


def record(qtbot, dialog: ShortcutsDialog, action: str, key: Key, modifiers=Mod.NoModifier) -> None:
    """Select ACTION, press KEY in the recorder and click Set."""
    dialog.select(action)
    dialog.recorder.setFocus()
    qtbot.keyClick(dialog.recorder, key, modifiers)
    qtbot.mouseClick(dialog.set_button, Qt.MouseButton.LeftButton)


def save(qtbot, dialog: ShortcutsDialog) -> None:
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)


def played(qtbot, window, key: Key, modifiers) -> bool:
    """Whether KEY, pressed in the editor while typing, reached Playback > Play (nothing to play here)."""
    window.statusBar().clearMessage()
    press(qtbot, window, key, modifiers)
    return window.statusBar().currentMessage() == NOTHING_TO_PLAY


def test_a_rebound_play_key_plays_from_the_editor_and_the_old_key_no_longer_does(make_window, raw_log, qtbot):
    window = make_window(without_user_audio(raw_log))
    dialog = open_keys_dialog(qtbot, window)
    # Ctrl+A is one the editor takes for itself (select all): it must be let through once it is a window key
    record(qtbot, dialog, "play_pause", Key.Key_A, Mod.ControlModifier)
    assert "Ctrl+A" in dialog.listed_keys()
    save(qtbot, dialog)
    assert not dialog.isVisible()
    assert window.action_table.play_pause.shortcuts() == [QKeySequence("Ctrl+A")]
    parts_of(window).navigator.select_row(1, focus_editor=True)
    type_text(qtbot, window, "hello there")
    assert played(qtbot, window, Key.Key_A, Mod.ControlModifier), "the rebound key reached playback"
    assert window.editor.text.textCursor().selectedText() == "", "the editor did not select all"
    assert not played(qtbot, window, Key.Key_Space, Mod.ControlModifier), "the old key is free"
    assert window.editor.text.toPlainText().startswith("hello there")
    assert json.loads(AppSettings().shortcut_overrides) == {"play_pause": ["Ctrl+A"]}, "only what the user changed"


def test_a_key_bound_twice_is_named_and_cannot_be_saved_until_resolved(make_window, qtbot):
    window = make_window()
    dialog = open_keys_dialog(qtbot, window)
    record(qtbot, dialog, "play_pause", Key.Key_R, Mod.ControlModifier)  # Replay's key
    assert not dialog.save_button.isEnabled()
    assert "Play / pause" in dialog.conflict_text() and "Replay" in dialog.conflict_text()
    assert "Ctrl+R" in dialog.conflict_text()
    dialog.save()  # what the Save button would do were it enabled: refused
    assert dialog.isVisible() and AppSettings().shortcut_overrides == "{}"
    assert window.action_table.play_pause.shortcuts() == [QKeySequence("Ctrl+Space")]
    dialog.select("replay")
    qtbot.mouseClick(dialog.clear_button, Qt.MouseButton.LeftButton)
    assert dialog.save_button.isEnabled() and dialog.conflict_text() == ""
    save(qtbot, dialog)
    assert window.action_table.play_pause.shortcuts() == [QKeySequence("Ctrl+R")]
    assert window.action_table.replay.shortcuts() == []
    assert json.loads(AppSettings().shortcut_overrides) == {"play_pause": ["Ctrl+R"], "replay": []}


@pytest.mark.slow
def test_the_keys_persist_into_a_new_window_and_restore_to_the_defaults(make_window, raw_log, qtbot):
    window = make_window()
    dialog = open_keys_dialog(qtbot, window)
    record(qtbot, dialog, "next_turn", Key.Key_F9)
    save(qtbot, dialog)
    close_window(window)
    window = make_window(without_user_audio(raw_log))
    assert window.action_table.next_turn.shortcuts() == [QKeySequence("F9")]
    assert window.action_table.play_pause.shortcuts() == [QKeySequence("Ctrl+Space")], "untouched: the table's key"
    parts_of(window).navigator.select_row(1, focus_editor=True)
    press(qtbot, window, Key.Key_F9)
    assert parts_of(window).navigator.current_turn().id == "03"
    dialog = open_keys_dialog(qtbot, window)
    assert "F9" in dialog.listed_keys()
    restore = next(b for b in dialog.findChildren(type(dialog.set_button)) if b.text() == "Restore all defaults")
    qtbot.mouseClick(restore, Qt.MouseButton.LeftButton)
    save(qtbot, dialog)
    assert AppSettings().shortcut_overrides == "{}"
    assert window.action_table.next_turn.shortcuts() == [QKeySequence("Alt+Down")]


def test_an_override_for_an_action_that_no_longer_exists_is_ignored(settings, make_window, qtbot):
    settings.shortcut_overrides = json.dumps({"no_such_action": ["F9"], "replay": ["F10"], "back": ["Nonsense+Q+"]})
    window = make_window()
    assert window.action_table.replay.shortcuts() == [QKeySequence("F10")]
    assert window.action_table.back.shortcuts() == [], "a key Qt cannot read binds nothing"
    assert all(QKeySequence("F9") not in action.shortcuts() for _spec, action in window.action_table)


def test_unreadable_overrides_leave_the_table_keys(settings, make_window):
    settings.shortcut_overrides = "{not json"
    window = make_window()
    assert window.action_table.play_pause.shortcuts() == [QKeySequence("Ctrl+Space")]


def test_the_keys_dialog_opens_from_the_preferences_keys_page(make_window, qtbot):
    window = make_window()
    press(qtbot, window, Key.Key_Comma, Mod.ControlModifier)
    preferences = parts_of(window).preferences.dialog
    preferences.show_page("Keys")
    qtbot.mouseClick(preferences.keys_button, Qt.MouseButton.LeftButton)
    dialog = parts_of(window).preferences.keys_dialog
    assert dialog is not None and dialog.isVisible()
    assert len(dialog.names) == len(list(window.action_table)), "every action is listed, with keys or not"
    dialog.close()
    preferences.close()
    assert QApplication.activeModalWidget() is None
