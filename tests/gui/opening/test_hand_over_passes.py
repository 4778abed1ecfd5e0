"""Opening a log in the real window: the turns are shown in the hand-over's pass of the event loop, the views
following the selection in later passes (gui/opening/hand_over_passes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of


def _views_state(window) -> dict:
    parts = parts_of(window)
    navigator = parts.navigator
    return {
        "session": navigator.session,
        "turn": navigator.current_turn(),
        "timeline session": parts.timeline.timeline.session,
        "timeline turn": parts.timeline.selected_turn,
        "metrics": parts.metrics.metrics is not None,
        "playback turn": parts_of(window).playback.turn,
    }


def _first_user_row(session) -> int:
    """Where an open lands when no turn is transcribed yet: the session's first user turn, not its greeting."""
    return next(row for row, turn in enumerate(session.turns) if turn.speaker == "user")


def test_a_timer_and_a_key_posted_at_the_hand_over_run_before_the_timeline_shows_the_session(
    make_window, raw_log: Path
):
    window = make_window()
    seen = {}

    def at_the_hand_over(_document) -> None:
        # What the annotator types as the turns appear: Alt+Down, the next turn, to the widget with the focus.
        focus = QApplication.focusWidget()
        QApplication.postEvent(focus, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier))
        QApplication.postEvent(
            focus, QKeyEvent(QEvent.Type.KeyRelease, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
        )
        QTimer.singleShot(0, lambda: seen.update(_views_state(window)))

    parts_of(window).controller.document_opened.connect(at_the_hand_over)
    assert parts_of(window).navigator.open_path(raw_log)
    session = parts_of(window).navigator.session
    moved = _first_user_row(session) + 1
    assert seen["session"] is session and seen["turn"] is session.turns[moved], "the key moved the selection"
    assert seen["timeline session"] is None and seen["playback turn"] is None, (
        "the timer ran before the turn's and the session's views were filled"
    )
    assert _views_state(window) == {
        "session": session,
        "turn": session.turns[moved],
        "timeline session": session,
        "timeline turn": moved,
        "metrics": True,
        "playback turn": session.turns[moved],
    }
    assert parts_of(window).detail._element is session.turns[moved]


@pytest.mark.slow
def test_the_views_end_on_the_session_and_turn_shown(make_window, raw_log: Path, annotated_log: Path):
    window = make_window(raw_log)
    assert parts_of(window).navigator.open_path(annotated_log)
    session = parts_of(window).navigator.session
    row = _first_user_row(session)
    assert _views_state(window) == {
        "session": session,
        "turn": session.turns[row],
        "timeline session": session,
        "timeline turn": row,
        "metrics": True,
        "playback turn": session.turns[row],
    }
    assert parts_of(window).detail._element is session.turns[row]
    assert not parts_of(window).controller.after_hand_over.collecting


@pytest.mark.slow
def test_a_close_asked_between_the_passes_closes_the_window_once_they_are_done(make_window, qtbot, raw_log: Path):
    """A close (the window's X, Ctrl+Q, the packaged app's smoke test) arriving while the open fills its views
    was refused, and the window stayed open for good."""
    window = make_window()
    closed = []
    window.closing.connect(lambda: closed.append(_views_state(window)))
    parts_of(window).controller.document_opened.connect(lambda _document: QTimer.singleShot(0, window.close))
    assert parts_of(window).navigator.open_path(raw_log)
    assert not closed, "not in the middle of the passes"
    qtbot.waitUntil(lambda: not window.isVisible())
    session = parts_of(window).navigator.session
    row = _first_user_row(session)
    assert closed == [
        {
            "session": session,
            "turn": session.turns[row],
            "timeline session": session,
            "timeline turn": row,
            "metrics": True,
            "playback turn": session.turns[row],
        }
    ]
