"""The session bar follows each change with what it can have changed: a transcription moves the progress
and reads nothing else of the session; task completion and the review are read again when they change
(each reading walks every element of the session: a walk per Ctrl+Enter on a session of 70,000 turns)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

import annotator.gui.annotating.navigation as navigation
from annotator.gui.app import parts_of
from annotator.log.elements import Session
from tests.support.gui_keys import press, type_text


@pytest.mark.slow
def test_a_transcription_moves_the_progress_without_reading_the_session_again(
    qtbot, make_window, raw_log: Path, monkeypatch
):
    window = make_window(raw_log)
    walks = []
    original_annotations, original_reviewer = Session.annotations, navigation.session_reviewer
    monkeypatch.setattr(
        Session,
        "annotations",
        property(lambda session: walks.append("annotations") or original_annotations.fget(session)),
    )
    monkeypatch.setattr(navigation, "session_reviewer", lambda el: walks.append("reviewer") or original_reviewer(el))
    bar = parts_of(window).navigator.session_bar
    before = parts_of(window).navigator.model.transcription_progress()
    window.table.setFocus()
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # the first user turn to transcribe
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    done, users = parts_of(window).navigator.model.transcription_progress()
    assert (done, users) == (before[0] + 1, before[1])
    assert bar.progress.text().startswith(f"{done} of {users} user turns transcribed")
    assert walks == []
    press(qtbot, window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    assert parts_of(window).navigator.session.task_completion == "1"
    assert bar.task.currentData() == "1"
