"""The timeline's lanes are played back from the picture of their last paint while nothing they show changed,
and drawn afresh when it did: a transcription restyles its turn, a zoom changes every lane."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of
from tests.support.gui_keys import focused, press, type_text

# Run again on the floor pins (scripts/test-qt-floor.sh): pyqtgraph's plot items and custom graphics items.
pytestmark = pytest.mark.qt_floor

Key = Qt.Key


def painted(window) -> None:
    """Let the window do what it was asked, then paint the timeline now (a paint the test can count on)."""
    for _ in range(5):
        QApplication.processEvents()
    parts_of(window).timeline.plot.viewport().repaint()


def lanes(timeline) -> list:
    return [item for item in (timeline.turn_band, *timeline.lane_items) if item.isVisible()]


def made(timeline) -> list[int]:
    return [item.pictures_made for item in lanes(timeline)]


def test_a_repaint_plays_the_lanes_back_and_a_transcription_draws_its_turn_afresh(main_window, qtbot):
    window = main_window
    timeline = parts_of(window).timeline
    user_row = next(
        turn.index
        for turn in parts_of(window).navigator.session.turns
        if turn.speaker == "user" and turn.transcription is None
    )
    parts_of(window).navigator.select_row(user_row)
    painted(window)
    shown, before = timeline.x_range(), made(timeline)
    assert all(count >= 1 for count in before)

    timeline.set_cursor(sum(shown) / 2)  # the playback cursor moving over the lanes repaints them
    painted(window)
    assert made(timeline) == before  # played back: nothing a lane shows changed

    window.table.setFocus()
    press(qtbot, window, Key.Key_F2)
    assert focused(window) is window.table.delegate.open_editor
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Key.Key_Return)
    qtbot.waitUntil(lambda: parts_of(window).navigator.session.turns[user_row].transcription == "to boston")
    painted(window)
    assert timeline.x_range() == shown
    after = made(timeline)
    assert after[0] == before[0] + 1  # the turn band: the turn is drawn as transcribed now
    assert after[1:] == before[1:]  # the servers' lanes did not change

    timeline.zoom(0.5)
    painted(window)
    left, right = timeline.x_range()
    in_view = [item.boundingRect().right() >= left and item.boundingRect().left() <= right for item in lanes(timeline)]
    assert in_view[0] and any(in_view[1:])
    assert [now > then for now, then in zip(made(timeline), after)] == in_view  # a lane out of view is not painted
