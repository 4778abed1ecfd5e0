"""Many lanes in a short timeline: rows keep a legible height, the lanes scroll under a turn band
and a time axis that stay put, and the mouse still finds what is drawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QFontMetrics, QWheelEvent
from PySide6.QtWidgets import QApplication

from annotator.gui.timeline.timeline_rows import READING_SECONDS, RowLayout, min_row_pixels, reading_window
from annotator.gui.timeline.view import TimelineView
from tests.support.timeline_view import show_timeline

# Run again on the floor pins (scripts/test-qt-floor.sh): pyqtgraph's plot items and custom graphics items.
pytestmark = pytest.mark.qt_floor

MARKER_LANES = 8


@pytest.fixture
def short_view(qtbot, annotated_log: Path) -> TimelineView:
    """The sample session in a timeline as short as its dock, with eight marker lanes."""
    view = show_timeline(qtbot, annotated_log, 1200, 230)
    for number in range(MARKER_LANES):
        view.add_marker_lane(f"marker_{number}", [(2.0 + 4 * number, f"hit {number}")])
    QApplication.processEvents()
    return view


def row_height(view: TimelineView) -> float:
    bottom, top = view.view_box.viewRange()[1]
    return view.view_box.height() / (top - bottom)


def test_rows_keep_a_legible_height_and_the_rest_scroll(short_view):
    view = short_view
    assert len(view.lanes) >= MARKER_LANES + 6
    assert row_height(view) >= min_row_pixels(view.plot.font()) >= QFontMetrics(view.plot.font()).height() + 4
    assert view.lane_scroll.isVisible() and view.rows.slots < len(view.lanes)
    view.plot.viewport().repaint()
    assert view.turn_band.last_paint_counts[2] > 0, "turn labels are drawn"


def test_scrolling_keeps_the_turn_band_on_top_and_finds_the_lanes_shown(short_view):
    view = short_view
    turns = view.timeline.turns
    view.lane_scroll.setValue(view.lane_scroll.maximum())
    QApplication.processEvents()
    last = view.lane_names()[-1]
    assert view.rows.first > 0 and view.row_of_lane(last) == view.rows.slots
    hit = view.hit_at(view.scene_point((turns.starts[2] + turns.ends[2]) / 2, 0))
    assert hit is not None and hit.kind == "turn" and hit.payload == turns.payloads[2]
    names = dict(view.plot.getPlotItem().getAxis("left")._tickLevels[0])
    assert names[0] == "turns" and names[view.rows.slots] == last
    hidden = view.lane_items[0]
    assert not hidden.isVisible(), "the audio lane scrolled away under the turn band"
    view.reveal_lane("marker_0")
    row = view.row_of_lane("marker_0")
    assert 1 <= row <= view.rows.slots
    hit = view.hit_at(view.scene_point(2.0, row))
    assert hit is not None and hit.kind == "marker" and hit.payload == "hit 0"


def test_the_wheel_over_the_lane_names_scrolls_lanes_and_over_the_lanes_zooms_time(short_view):
    view = short_view
    axis = view.plot.getPlotItem().getAxis("left")
    viewport = view.plot.viewport()
    at = QPointF(view.plot.mapFromScene(axis.sceneBoundingRect().center()))
    x_before = view.x_range()
    event = QWheelEvent(
        at,
        QPointF(viewport.mapToGlobal(at.toPoint())),
        QPoint(0, 0),
        QPoint(0, -240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(viewport, event)
    assert view.rows.first == 2 and view.lane_scroll.value() == 2
    assert view.x_range() == pytest.approx(x_before)


def test_a_taller_timeline_shows_more_lanes_and_a_tall_one_all(short_view):
    view = short_view
    slots = view.rows.slots
    view.resize(1200, 700)
    QApplication.processEvents()
    assert view.rows.slots == len(view.lanes) and not view.lane_scroll.isVisible()
    assert view.rows.slots > slots


def test_the_row_layout_clamps_the_first_lane():
    rows = RowLayout.fit(lanes=14, view_pixels=170, row_pixels=21, first=12)
    assert rows.slots == 7 and rows.first == 7 and rows.scrolls
    assert list(rows.shown) == list(range(7, 14)) and rows.lane_at(1) == 7 and rows.lane_at(8) is None
    assert RowLayout.fit(lanes=3, view_pixels=170, row_pixels=21, first=5).first == 0
    assert RowLayout.fit(lanes=3, view_pixels=10, row_pixels=21, first=0).slots == 1


def test_the_reading_window_holds_the_turn_with_context_and_stays_in_the_session():
    full = (-15.0, 1515.0)
    assert reading_window((-0.4, 40.0), (10.0, 12.0)) == (-0.4, 40.0)  # a short session: all of it
    left, right = reading_window(full, (1000.0, 1002.0))
    assert right - left == READING_SECONDS and left < 1000.0 - 5 and 1002.0 + 5 < right
    assert reading_window(full, None) == (-15.0, -15.0 + READING_SECONDS)
    left, right = reading_window(full, (1510.0, 1512.0))  # the last turn: the window ends with the session
    assert right == 1515.0 and left == 1515.0 - READING_SECONDS
    left, right = reading_window(full, (100.0, 400.0))  # a turn longer than the window: all of it
    assert left < 100.0 and 400.0 < right and right - left < 400


def test_marker_lanes_redrawn_after_an_edit_keep_the_lanes_where_they_were_scrolled(short_view):
    """The markers controller clears and re-adds its lanes after every edit."""
    view = short_view
    view.lane_scroll.setValue(view.lane_scroll.maximum())
    first = view.rows.first
    view.clear_marker_lanes()
    for number in range(MARKER_LANES):
        view.add_marker_lane(f"marker_{number}", [(2.0 + 4 * number, f"hit {number}")])
    assert view.rows.first == first and view.lane_scroll.value() == first
