"""Crash recovery for real: a window killed with SIGKILL after typing a transcription leaves a
journal; reopening the log offers Restore (the default) and restores the text exactly."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.journal.files import journal_dir
from annotator.log.document import LogDocument
from tests.support.gui_keys import press, type_text
from tests.support.killed_windows import (
    GENEROUS_SECONDS,
    TYPED,
    assert_reloaded_with_the_edit_on_top,
    changed_behind_the_window,
    crash_after_typing,
    run_and_kill,
)

Key, Mod = Qt.Key, Qt.KeyboardModifier


def _journals() -> list[Path]:
    return sorted(journal_dir().glob("*.json"))


@pytest.mark.slow
def test_killed_session_is_restored_exactly(make_window, raw_log: Path, tmp_path: Path, boxes):
    original = raw_log.read_bytes()
    crash_after_typing(raw_log, tmp_path)
    assert raw_log.read_bytes() == original, "the kill lost nothing and wrote nothing to the log"
    assert len(_journals()) == 1
    answers = boxes()  # the default button
    window = make_window(raw_log)
    assert answers.seen[0].clicked == "Restore" and "1 transcription" in answers.seen[0].text
    assert parts_of(window).controller.document.sessions[0].user_turns[0].transcription == TYPED
    assert window.isWindowModified(), "restored work is unsaved work"
    parts_of(window).controller.save()
    assert _journals() == [], "a save removes the journal"


@pytest.mark.slow
def test_declining_discards_the_journal(make_window, raw_log: Path, tmp_path: Path, boxes):
    crash_after_typing(raw_log, tmp_path)
    answers = boxes("Discard")
    window = make_window(raw_log)
    assert "1 transcription" in answers.seen[0].text
    assert parts_of(window).controller.document.sessions[0].user_turns[0].transcription is None
    assert _journals() == []


# --- typing not yet stored (no Ctrl+Enter, no turn change) is unsaved work like any other ---------


@pytest.mark.slow
def test_typing_not_yet_stored_survives_a_kill_and_is_saved_by_ctrl_s(
    make_window, raw_log: Path, tmp_path: Path, qtbot, boxes
):
    lines = run_and_kill(
        raw_log, tmp_path, [{"row": 0}, {"keys": "Ctrl+Down"}, {"type": TYPED}, {"wait": GENEROUS_SECONDS}]
    )
    assert lines[-1]["state"]["transcriptions"]["02"] == TYPED, "the killed window showed it as typing"
    answers = boxes("Restore")
    window = make_window(raw_log)
    assert answers.titles == ["Restore unsaved work?"] and "1 transcription" in answers.seen[0].text
    window.activateWindow()  # the offscreen platform does not give it back after the question
    qtbot.waitUntil(window.isActiveWindow)
    turn = parts_of(window).controller.document.sessions[0].user_turns[0]
    parts_of(window).navigator.select_turn(turn, focus_editor=True)
    assert window.editor.turn == turn and window.editor.text.toPlainText() == TYPED
    assert window.isWindowModified()
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert LogDocument.load(raw_log).sessions[0].user_turns[0].transcription == TYPED
    assert not window.isWindowModified()


def test_typing_shows_the_unsaved_mark_until_it_is_undone(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    assert not window.isWindowModified()
    type_text(qtbot, window, "ok")
    assert window.isWindowModified(), "typed text is unsaved work"
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)  # the editor undoes its own typing first
    assert window.editor.text.toPlainText() == ""
    assert not window.isWindowModified()


@pytest.mark.slow
def test_closing_with_typing_alone_asks(main_window, qtbot, boxes):
    window = main_window
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    type_text(qtbot, window, "yes please")
    answers = boxes("Cancel")
    assert not window.close()
    assert answers.titles == ["Unsaved annotations"] and window.isVisible()


# --- Reload in the changed-on-disk dialog --------------------------------------------------------------


@pytest.mark.slow
def test_reload_offers_the_unsaved_edits_on_top_of_the_new_file(main_window, raw_log: Path, qtbot, boxes):
    window = main_window
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    type_text(qtbot, window, TYPED)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)  # stored; the journal may not have it yet
    changed_behind_the_window(raw_log)
    answers = boxes("Reload", "Restore")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert answers.titles == ["Log changed on disk", "Restore unsaved work?"]
    assert "changed on disk" in answers.seen[1].informative
    assert_reloaded_with_the_edit_on_top(window, TYPED)


@pytest.mark.slow
def test_quitting_over_a_reload_that_restored_the_edits_stays_on_them(main_window, raw_log: Path, qtbot, boxes):
    """Ctrl+Q, Save, the log changed on disk, Reload, Restore: the restored edits are unsaved and on the screen,
    so the window stays open and says why."""
    window = main_window
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    type_text(qtbot, window, TYPED)
    changed_behind_the_window(raw_log)
    answers = boxes("Save", "Reload", "Restore")
    press(qtbot, window, Key.Key_Q, Mod.ControlModifier)
    assert answers.titles == ["Unsaved annotations", "Log changed on disk", "Restore unsaved work?"]
    assert window.isVisible()
    assert_reloaded_with_the_edit_on_top(window, TYPED)
    assert "nothing else was done" in window.statusBar().currentMessage()
