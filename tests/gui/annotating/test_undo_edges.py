"""Undo at its edges, in the real window with real keys: a restored journal is one undoable step,
the unsaved mark is the undo stack's clean state (and the document agrees), and undoing a change
made in another session shows that session."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.journal.recovery_journal import RecoveryJournal
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.gui_keys import press, type_text

Key, Mod = Qt.Key, Qt.KeyboardModifier
CTRL, CTRL_SHIFT = Mod.ControlModifier, Mod.ControlModifier | Mod.ShiftModifier


def _leave_work_of_a_dead_window(log: Path) -> None:
    """A journal holding two transcriptions and a task completion, whose window is gone (no lock)."""
    doc = LogDocument.load(log)
    journal = RecoveryJournal(doc, instance="deadwindow00")
    users = doc.sessions[0].user_turns
    set_transcription(users[0], "to boston")
    set_transcription(users[1], "on friday")
    set_task_completion(doc.sessions[0], "1")
    assert journal.record(doc)


def _annotations(window) -> tuple:
    session = parts_of(window).controller.document.sessions[0]
    return session.user_turns[0].transcription, session.user_turns[1].transcription, session.task_completion


def _focus(window, qtbot) -> None:
    window.activateWindow()  # the offscreen platform does not give it back after a question
    qtbot.waitUntil(window.isActiveWindow)
    window.table.setFocus()


def test_restoring_a_journal_is_one_step_ctrl_z_undoes_and_ctrl_shift_z_redoes(
    make_window, raw_log: Path, qtbot, boxes
):
    _leave_work_of_a_dead_window(raw_log)
    answers = boxes("Restore")
    window = make_window(raw_log)
    assert answers.titles == ["Restore unsaved work?"]
    assert _annotations(window) == ("to boston", "on friday", "1")
    assert window.isWindowModified()
    assert (
        parts_of(window).controller.undo_stack.count() == 1
        and parts_of(window).controller.undo_stack.undoText() == "Restore unsaved work"
    )
    _focus(window, qtbot)
    press(qtbot, window, Key.Key_Z, CTRL)
    assert _annotations(window) == (None, None, None), "the whole restore is undone at once"
    assert not window.isWindowModified() and not parts_of(window).controller.document.is_modified
    press(qtbot, window, Key.Key_Z, CTRL_SHIFT)
    assert _annotations(window) == ("to boston", "on friday", "1")
    assert window.isWindowModified() and parts_of(window).controller.document.is_modified


@pytest.mark.slow
def test_undoing_back_to_the_saved_state_leaves_nothing_unsaved(main_window, raw_log: Path, qtbot, boxes):
    window = main_window
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, CTRL)
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Key.Key_Return, CTRL)  # stored, and on to the next user turn
    press(qtbot, window, Key.Key_S, CTRL)
    assert not window.isWindowModified() and not parts_of(window).controller.document.is_modified
    type_text(qtbot, window, "on friday")
    press(qtbot, window, Key.Key_Return, CTRL)
    assert window.isWindowModified() and parts_of(window).controller.document.is_modified
    press(qtbot, window, Key.Key_Z, CTRL)
    assert parts_of(window).controller.document.sessions[0].user_turns[1].transcription is None
    assert not window.isWindowModified(), "the title shows no '*'"
    assert not parts_of(window).controller.document.is_modified, "the document says what the undo stack says"
    answers = boxes("Cancel")
    assert window.close(), "closing does not ask"
    assert answers.seen == []


def test_an_edit_undone_leaves_the_document_unmodified(main_window, qtbot):
    window = main_window
    press(qtbot, window, Key.Key_1, CTRL | Mod.AltModifier)
    assert window.isWindowModified() and parts_of(window).controller.document.is_modified
    window.table.setFocus()
    press(qtbot, window, Key.Key_Z, CTRL)
    assert not window.isWindowModified() and not parts_of(window).controller.document.is_modified


@pytest.mark.slow
def test_undoing_a_task_completion_of_another_session_shows_that_session(make_window, two_session_log, qtbot):
    window = make_window(two_session_log)
    press(qtbot, window, Key.Key_1, CTRL | Mod.AltModifier)
    press(qtbot, window, Key.Key_PageDown, CTRL)
    assert parts_of(window).navigator.session.index == 1
    press(qtbot, window, Key.Key_Z, CTRL)
    assert parts_of(window).controller.document.sessions[0].task_completion is None
    assert parts_of(window).navigator.session.index == 0, "the undone change is shown"
    press(qtbot, window, Key.Key_PageDown, CTRL)
    press(qtbot, window, Key.Key_Z, CTRL_SHIFT)
    assert (
        parts_of(window).controller.document.sessions[0].task_completion == "1"
        and parts_of(window).navigator.session.index == 0
    )


@pytest.mark.slow
def test_undoing_a_transcription_of_another_session_shows_that_session_and_turn(
    make_window,
    two_session_log,
    qtbot,
):
    window = make_window(two_session_log)
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, CTRL)
    turn = parts_of(window).navigator.current_turn()
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Key.Key_Return, CTRL)
    press(qtbot, window, Key.Key_PageDown, CTRL)
    assert parts_of(window).navigator.session.index == 1
    press(qtbot, window, Key.Key_Z, CTRL)
    assert turn.transcription is None
    assert parts_of(window).navigator.session.index == 0 and parts_of(window).navigator.current_turn() == turn
