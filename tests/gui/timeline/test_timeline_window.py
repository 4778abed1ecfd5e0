"""The timeline in the assembled window: where a log opens, marker lanes in the docked strip,
and the status message of an audio segment clicked with the mouse."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of
from annotator.gui.settings import AppSettings, LastPosition
from annotator.gui.timeline.timeline_rows import min_row_pixels
from annotator.gui.timeline.view import TimelineView
from tests.support.audio_shapes import write_audio_shapes
from tests.support.gui_keys import close_window
from tests.support.timeline_view import TURN_SECONDS, long_timed_log, open_window


def turn_span(timeline: TimelineView, index: int) -> tuple[float, float]:
    position = timeline.timeline.turns.payloads.index(index)
    return float(timeline.timeline.turns.starts[position]), float(timeline.timeline.turns.ends[position])


def test_reopening_a_long_log_shows_the_turn_where_the_annotator_stopped(
    qtbot, make_window, tmp_path: Path, settings: AppSettings
):
    log = long_timed_log(tmp_path)
    settings.set_last_position(log, LastPosition("long", 200), None)
    window = open_window(make_window, log)
    assert parts_of(window).navigator.current_turn().index == 200
    timeline = parts_of(window).timeline
    left, right = timeline.x_range()
    start, end = turn_span(timeline, 200)
    assert left <= start and end <= right, "the current turn is in view"
    assert right - left < timeline.timeline.extent / 10, "not the whole session"
    assert left < start - 2 * TURN_SECONDS and end + 2 * TURN_SECONDS < right, "with turns around it"
    assert timeline.selected_turn == 200 and timeline.selection_shade.isVisible()
    close_window(window)


def test_opening_a_long_log_for_the_first_time_shows_its_first_turns(qtbot, make_window, tmp_path: Path):
    window = open_window(make_window, long_timed_log(tmp_path))
    timeline = parts_of(window).timeline
    left, right = timeline.x_range()
    assert left <= 0.0 and turn_span(timeline, 3)[1] <= right < timeline.timeline.extent / 10
    first_user_turn = next(turn.index for turn in parts_of(window).navigator.session.turns if turn.speaker == "user")
    assert timeline.selected_turn == first_user_turn
    close_window(window)


def test_a_short_session_opens_whole(qtbot, make_window, annotated_log: Path):
    window = open_window(make_window, annotated_log)
    timeline = parts_of(window).timeline
    assert timeline.x_range() == pytest.approx(timeline.full_range())
    close_window(window)


def test_the_shipped_kpis_keep_every_lane_legible_in_the_docked_strip(qtbot, make_window, annotated_log: Path):
    window = open_window(make_window, annotated_log)
    window.resizeDocks([parts_of(window).docks.timeline], [230], Qt.Orientation.Vertical)
    window.action_table.load_kpis.trigger()
    QApplication.processEvents()
    timeline = parts_of(window).timeline
    markers = [name for name in timeline.lane_names() if name.startswith("marker_")]
    assert len(markers) >= 5
    assert timeline.height() <= 260
    bottom, top = timeline.view_box.viewRange()[1]
    row_pixels = timeline.view_box.height() / (top - bottom)
    assert row_pixels >= QFontMetrics(timeline.plot.font()).height() + 4, "a row holds a line of the normal font"
    assert row_pixels >= min_row_pixels(timeline.plot.font())
    assert timeline.lane_scroll.isVisible(), "the lanes that do not fit scroll"
    timeline.plot.viewport().repaint()
    assert timeline.turn_band.last_paint_counts[2] > 0, "the turn labels are drawn"
    close_window(window)


def test_clicking_missing_audio_names_the_file_in_the_status_bar(qtbot, make_window, tmp_path: Path):
    log = write_audio_shapes(tmp_path / "shapes")
    window = open_window(make_window, log)
    timeline = parts_of(window).timeline
    lane = timeline.timeline.audio_lane
    position = next(i for i, s in enumerate(lane.bars.payloads) if s.written == "gone.wav")
    centre = (lane.bars.starts[position] + lane.bars.ends[position]) / 2
    timeline.reveal_lane(lane.name)
    point = timeline.plot.mapFromScene(timeline.scene_point(centre, timeline.row_of_lane(lane.name)))
    qtbot.mouseClick(timeline.plot.viewport(), Qt.MouseButton.LeftButton, pos=point)
    message = window.statusBar().currentMessage()
    assert "gone.wav" in message and str(log.parent.resolve() / "gone.wav") in message
    assert parts_of(window).navigator.current_turn().id == "5", "the click selects the turn the audio belongs to"
    close_window(window)


def test_the_playback_cursor_runs_over_the_system_audio_segment(qtbot, make_window, annotated_log: Path, audio_sink):
    """The sample's system audio is named by synthesize but heard during play_audio: the cursor
    starts where the segment is drawn, not where the file was made."""
    window = open_window(make_window, annotated_log)
    parts_of(window).navigator.select_row(0)  # the greeting, a system turn with its audio
    turn = parts_of(window).navigator.current_turn()
    assert turn.speaker == "system" and parts_of(window).playback.clip is not None
    timeline = parts_of(window).timeline
    lane = timeline.timeline.audio_lane
    position = next(i for i, s in enumerate(lane.bars.payloads) if s.turn_index == turn.index and s.side == "system")
    play = next(op for op in turn.el.iter("GC_OPERATION") if op.get("name") == "play_audio")
    assert lane.bars.starts[position] == pytest.approx(turn.session.since_start(play.get("stime")))
    parts_of(window).playback.seek(1.0)
    assert timeline.cursor_line.value() == pytest.approx(lane.bars.starts[position] + 1.0, abs=0.01)
    close_window(window)


def test_a_move_that_scrolls_the_timeline_paints_it_once(qtbot, make_window, tmp_path: Path):
    """The lanes and the axis are moved to the new range before the paint, not during it (which asked for a
    second paint of the whole timeline at every move that scrolled it)."""
    from PySide6.QtCore import QEvent, QObject

    class Paints(QObject):
        count = 0

        def eventFilter(self, _watched, event) -> bool:
            self.count += event.type() == QEvent.Type.Paint
            return False

    window = open_window(make_window, long_timed_log(tmp_path))
    timeline = parts_of(window).timeline
    paints = Paints(timeline)
    timeline.plot.viewport().installEventFilter(paints)
    counts = []
    for key in (Qt.Key.Key_End, Qt.Key.Key_Home, Qt.Key.Key_End):  # each scrolls it
        window.table.setFocus()
        before_range, before = timeline.x_range(), paints.count
        qtbot.keyClick(window.table, key, Qt.KeyboardModifier.ControlModifier)
        for _ in range(5):
            QApplication.processEvents()
        assert timeline.x_range() != before_range  # it scrolled
        counts.append(paints.count - before)
    assert counts[1:] == [1, 1]  # the first move also paints what the timeline shows for the first time
