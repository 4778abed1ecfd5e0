"""The session timeline: turns (with the doubt strip), audio segments, markers and a lane per server, over seconds.

Each lane is one graphics item painting numpy arrays (timeline_lane_item), so a session of 200k operations redraws
within a frame; hover and click are binary searches on them (annotator.timeline.hits). Wheel zooms, drag pans, Fit
shows all; the turn band and time axis stay put while the lanes scroll under them (timeline_rows). A session opens
on its current turn with some context. The main window connects turn_clicked / element_clicked / message_shown and
calls set_session, select_turn and set_cursor; on_annotation_changed restyles the turn changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QCursor, QFontMetrics, QPen
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsRectItem,
    QHBoxLayout,
    QScrollBar,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from annotator.gui.theme import theme_changes, theme_colour
from annotator.gui.timeline import timeline_style as style
from annotator.gui.timeline.timeline_doubt import doubt_strip_item
from annotator.gui.timeline.timeline_lane_item import IntervalLaneItem
from annotator.gui.timeline.timeline_legend import audio_styles, legend_entries, server_styles, turn_styles
from annotator.gui.timeline.timeline_rows import LaneAxisItem, RowLayout, min_row_pixels, place_stripes, reading_window
from annotator.gui.timeline.timeline_toolbar import TimelineToolbar
from annotator.gui.widgets import time_axis
from annotator.gui.widgets.plain_text import plain_tooltip
from annotator.log.document import AnnotationChange
from annotator.log.elements import Session, Turn
from annotator.timeline import data
from annotator.timeline.audio import SIDE_OF_DIRECTION, AudioSegment
from annotator.timeline.data import Lane, TimelineData, build_timeline
from annotator.timeline.hits import TURN_ROW, TimelineHit, audio_summary, hit_test
from annotator.timeline.intervals import Intervals

MIN_SPAN = 0.01  # seconds: the deepest zoom


class TimelineView(QWidget):
    turn_clicked = Signal(int)  # the index of the turn in session.turns
    element_clicked = Signal(object)  # an OperationView / MessageView / EventView, or a marker's object
    message_shown = Signal(str)  # a line for the status bar (an audio segment clicked: its file, or why it is missing)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("timeline")
        self.timeline = TimelineData.empty()
        self.marker_lanes: list[Lane] = []
        self.turn_band: IntervalLaneItem | None = None
        self.doubt_strip: IntervalLaneItem | None = None
        self.lane_items: list[IntervalLaneItem] = []
        self.selected_turn: int | None = None
        self._turn_positions: dict[int, int] = {}  # turn index -> position in the turn band's arrays
        self._audio_positions: dict[tuple[int, str], int] | None = None  # (turn index, side) -> audio bar, when asked
        self._stripes: list[QGraphicsRectItem] = []
        self.rows = RowLayout(0, 0, 0)
        # The first lane the user scrolled to: kept while lanes come and go (marker lanes are
        # redrawn after every edit), while rows.first is it clamped to the lanes there are.
        self._scrolled_to = 0
        self.toolbar = TimelineToolbar(self, self.fit, self.zoom)
        self.fit_action, self.zoom_in_action = self.toolbar.fit_action, self.toolbar.zoom_in_action
        self.zoom_out_action, self.legend = self.toolbar.zoom_out_action, self.toolbar.legend
        self._build_plot()
        self.lane_scroll = QScrollBar(Qt.Orientation.Vertical, self)
        self.lane_scroll.setToolTip("Scroll the lanes (or turn the mouse wheel over the lane names)")
        self.lane_scroll.valueChanged.connect(self.scroll_lanes_to)
        plot_row, layout = QHBoxLayout(), QVBoxLayout(self)
        for box in (plot_row, layout):
            box.setContentsMargins(0, 0, 0, 0)
            box.setSpacing(0)
        plot_row.addWidget(self.plot, 1)
        plot_row.addWidget(self.lane_scroll)
        layout.addWidget(self.toolbar)
        layout.addLayout(plot_row, 1)
        self._apply_rows()
        self.view_box.sigResized.connect(lambda _box: self._layout_rows())
        theme_changes().changed.connect(self.restyle)

    # ----- construction
    def _build_plot(self) -> None:
        self.view_box = time_axis.TimeViewBox(enableMenu=False)
        self.view_box.invertY(True)  # the turn band on top
        self.view_box.setMouseEnabled(x=True, y=False)
        axes = {"bottom": time_axis.TimeAxisItem("bottom"), "left": LaneAxisItem(self.scroll_lanes_by)}
        self.plot = time_axis.time_plot(self.view_box, axes, self.palette())
        item = self.plot.getPlotItem()
        item.showGrid(x=True, y=False, alpha=0.22)
        # Grid lines at major ticks only: minor ones double the cost of every redraw for little use.
        item.getAxis("bottom").setStyle(maxTickLevel=0)
        item.getAxis("left").setStyle(tickLength=0)
        item.getAxis("left").setGrid(False)
        self.selection_shade = QGraphicsRectItem()
        self.selection_shade.setPen(QPen(Qt.PenStyle.NoPen))
        self.selection_shade.setBrush(QBrush(theme_colour("selection_shade")))
        self.selection_shade.setZValue(-5)
        self.selection_shade.hide()
        self.view_box.addItem(self.selection_shade, ignoreBounds=True)
        self.cursor_line = time_axis.add_cursor_line(self.view_box)
        scene = self.plot.scene()
        scene.sigMouseClicked.connect(self._on_scene_clicked)
        scene.sigMouseMoved.connect(self._on_scene_moved)

    # ----- public API
    def restyle(self) -> None:
        """The theme changed: the plot, legend, lanes, stripes, selection and cursor in the new scheme's colours."""
        time_axis.colour_plot(self.plot, QApplication.palette(self))
        self.legend.show_entries(legend_entries())
        self.selection_shade.setBrush(QBrush(theme_colour("selection_shade")))
        self.cursor_line.setPen(time_axis.cursor_pen())
        self._rebuild_items()

    def set_session(
        self, session: Session | None, turn_index: int | None = None, timeline: TimelineData | None = None
    ) -> None:
        """Show SESSION (None: nothing), turn TURN_INDEX selected and in view (see reading_range), from TIMELINE
        if given (build_timeline made off the GUI thread); forgets markers, cursor, scroll."""
        self.timeline = timeline if timeline is not None and session is not None else build_timeline(session)
        self.marker_lanes, self.selected_turn = [], None
        self._turn_positions = {index: pos for pos, index in enumerate(self.timeline.turns.payloads)}
        self._audio_positions = None
        self.cursor_line.hide()
        self.rows, self._scrolled_to = RowLayout(0, 0, 0), 0
        self._rebuild_items()
        self.view_box.setXRange(*self.reading_range(turn_index), padding=0)
        self.select_turn(turn_index)

    def show_turn(self, turn: Turn | None) -> None:
        """The turn selected in the window: outlined, and scrolled into view if it is off-screen."""
        self.select_turn(None if turn is None else turn.index)

    def select_turn(self, index: int | None) -> None:
        """Outline turn INDEX and scroll it into view if it is off-screen; emits nothing."""
        position = self._turn_positions.get(index) if index is not None else None
        self.selected_turn = index if position is not None else None
        if self.turn_band is not None:
            self.turn_band.selected = position
            self.turn_band.update()
        if position is None:
            self.selection_shade.hide()
            return
        start, end = self.timeline.turns.starts[position], self.timeline.turns.ends[position]
        self.selection_shade.setRect(QRectF(start, -0.5, max(end - start, 1e-6), self.rows.rows))
        self.selection_shade.show()
        self.ensure_visible(start, end)

    def set_cursor(self, seconds: float | None) -> None:
        """Put the playback cursor at SECONDS from the session start (None hides it); follows it off-screen."""
        if seconds is None:
            self.cursor_line.hide()
            return
        (left, right), was_visible = self.x_range(), self.cursor_line.isVisible()
        previous = self.cursor_line.value()
        self.cursor_line.setValue(seconds)
        self.cursor_line.show()
        following = not was_visible or left <= previous <= right  # not when the user has panned away
        if following and not left <= seconds <= right:
            span = right - left
            self.view_box.setXRange(seconds - span * 0.1, seconds + span * 0.9, padding=0)

    def reading_range(self, turn_index: int | None) -> tuple[float, float]:
        """The time a session opens on, around turn TURN_INDEX (see reading_window)."""
        position = self._turn_positions.get(turn_index) if turn_index is not None else None
        turns = self.timeline.turns
        span = None if position is None else (float(turns.starts[position]), float(turns.ends[position]))
        return reading_window(self.full_range(), span)

    def audio_start(self, turn: Turn, direction: str) -> float | None:
        """Where the audio lane draws TURN's audio of DIRECTION ("input", "output") to start: where
        the playback cursor of that audio starts. None if the timeline shows another session."""
        lane = self.timeline.audio_lane
        side = SIDE_OF_DIRECTION.get(direction)
        if lane is None or side is None or turn.session != self.timeline.session:
            return None
        if self._audio_positions is None:
            self._audio_positions = {(s.turn_index, s.side): i for i, s in enumerate(lane.bars.payloads)}
        position = self._audio_positions.get((turn.index, side))
        return None if position is None else float(lane.bars.starts[position])

    def fit(self) -> None:
        """Show the whole session."""
        left, right = self.full_range()
        self.view_box.setXRange(left, right, padding=0)

    def zoom(self, factor: float) -> None:
        """Scale the visible time span by FACTOR (< 1 zooms in) around its centre."""
        self.view_box.scaleBy(x=factor, y=None)

    def refresh_turns(self, indices: list[int] | None = None) -> None:
        """Restyle the turn band (transcribed user turns look different): the turns INDICES, or all."""
        if self.timeline.session is None or self.turn_band is None:
            return
        positions = None if indices is None else [self._turn_positions[i] for i in indices if i in self._turn_positions]
        data.restyle_turns(self.timeline.session, self.timeline.turns, self.timeline.speakers, positions)
        self.turn_band.restyled()

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        """Restyle the turns a transcription change concerns (the turn, and those sharing its id)."""
        if change.turn is not None and change.session == self.timeline.session:
            self.refresh_turns([t.index for t in change.session.document.facts_cache.turns_sharing_key(change.turn)])

    def add_marker_lane(self, name: str, points: Sequence[tuple[float, object]]) -> None:
        """A lane of ticks at (seconds, object); clicking one emits element_clicked(object). Replaces a lane of that name."""
        self.marker_lanes = [lane for lane in self.marker_lanes if lane.name != name]
        times = [float(t) for t, _ in points]
        ticks = Intervals.build(times, times, [obj for _, obj in points], [data.MARKER] * len(points), label_of=str)
        self.marker_lanes.append(Lane(name, ticks=ticks))
        self._rebuild_items()

    def clear_marker_lanes(self) -> None:
        if self.marker_lanes:
            self.marker_lanes = []
            self._rebuild_items()

    def scroll_lanes_to(self, first: int) -> None:
        """Show the lanes from index FIRST down (as many as fit) under the turn band."""
        first = max(0, min(first, self.rows.last_first))
        self._scrolled_to = first
        if first != self.rows.first:
            self.rows = RowLayout(self.rows.lanes, self.rows.slots, first)
            self._place_rows()

    def scroll_lanes_by(self, step: int) -> None:
        self.scroll_lanes_to(self.rows.first + step)

    def reveal_lane(self, name: str) -> None:
        """Scroll the lanes so lane NAME is shown."""
        index = self.lane_names().index(name)
        if index not in self.rows.shown:
            self.scroll_lanes_to(index if index < self.rows.first else index - self.rows.slots + 1)

    # ----- geometry helpers (public for tests and the main window)
    @property
    def lanes(self) -> list[Lane]:
        """The lanes in row order below the turn band: audio, markers, servers."""
        audio = self.timeline.lanes[:1] if self.timeline.audio_lane is not None else []
        return audio + self.marker_lanes + self.timeline.lanes[len(audio) :]

    def lane_names(self) -> list[str]:
        return [lane.name for lane in self.lanes]

    def x_range(self) -> tuple[float, float]:
        left, right = self.view_box.viewRange()[0][:2]
        return float(left), float(right)

    def row_of_lane(self, name: str) -> int:
        """The row lane NAME is drawn on; outside 1..rows.slots while it is scrolled away (see reveal_lane)."""
        return self.rows.row_of(self.lane_names().index(name))

    def row_pixels(self) -> float:
        """The height of a row on screen."""
        return self.view_box.height() / max(self.rows.rows, 1)

    def scene_point(self, seconds: float, row: float) -> QPointF:
        """Where (seconds, row) is in the scene (for tests and hit-testing)."""
        return self.view_box.mapViewToScene(QPointF(seconds, row))

    def hit_at(self, scene_pos: QPointF) -> TimelineHit | None:
        """The turn, operation, message, event or marker under a scene point."""
        if not self.view_box.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.view_box.mapSceneToView(scene_pos)
        row = int(np.floor(point.y() + 0.5))
        tolerance = style.HIT_PIXELS * self.view_box.viewPixelSize()[0]
        lanes = self.lanes
        return hit_test(self.timeline, [lanes[i] for i in self.rows.shown], row, point.x(), tolerance)

    def tooltip_at(self, scene_pos: QPointF) -> str | None:
        hit = self.hit_at(scene_pos)
        return None if hit is None else hit.text

    def ensure_visible(self, start: float, end: float) -> None:
        left, right = self.x_range()
        if left <= start and end <= right:
            return
        span = right - left
        if end - start <= span * 0.9:
            centre = (start + end) / 2
            self.view_box.setXRange(centre - span / 2, centre + span / 2, padding=0)
        else:
            margin = (end - start) * 0.05
            self.view_box.setXRange(start - margin, end + margin, padding=0)
        # The view box moves its items to the new range when the scene is about to paint; moved during that
        # paint, they ask for a second one. Moved now, the lanes and the axis are painted once.
        self.view_box.prepareForPaint()

    # ----- items
    def _rebuild_items(self) -> None:
        for item in [self.turn_band, self.doubt_strip, *self.lane_items]:
            if item is not None:
                self.view_box.removeItem(item)
        self.turn_band, self.doubt_strip, self.lane_items = None, None, []
        if self.timeline.session is not None:
            self.turn_band = IntervalLaneItem(
                TURN_ROW, self.timeline.turns, Intervals.empty(), turn_styles(), {}, style.TURN_HEIGHT
            )
            selected = self.selected_turn
            self.turn_band.selected = self._turn_positions.get(selected) if selected is not None else None
            self.doubt_strip = doubt_strip_item(self.timeline)  # over the turn band: added after it
            for item in (self.turn_band, self.doubt_strip):
                self.view_box.addItem(item, ignoreBounds=True)
        server_number = 0  # a server keeps its colour whatever marker lanes come and go
        tick_colours = style.colours(style.TICK_COLOURS)
        for row, lane in enumerate(self.lanes, start=1):
            if lane is self.timeline.audio_lane:
                bar_styles = audio_styles()
            elif any(lane is marker for marker in self.marker_lanes):
                bar_styles = {}  # ticks only
            else:
                bar_styles = server_styles(server_number)
                server_number += 1
            item = IntervalLaneItem(row, lane.bars, lane.ticks, bar_styles, tick_colours)
            self.view_box.addItem(item, ignoreBounds=True)
            self.lane_items.append(item)
        self._apply_rows()

    def _apply_rows(self) -> None:
        """After the lanes changed: the lane-name axis width, the time limits, then the rows."""
        names = (["turns"] + self.lane_names()) if self.timeline.session is not None else []
        metrics = QFontMetrics(self.plot.font())
        self.plot.getPlotItem().getAxis("left").setWidth(max([metrics.horizontalAdvance(n) for n in names] + [20]) + 14)
        left, right = self.full_range()
        self.view_box.setLimits(xMin=left, xMax=right, minXRange=min(MIN_SPAN, right - left), maxXRange=right - left)
        self._layout_rows(force=True)

    def _layout_rows(self, force: bool = False) -> None:
        """Fit the rows to the view's height: each at least a line of the font high; the rest scroll."""
        lanes = len(self.lanes) if self.timeline.session is not None else 0
        rows = RowLayout.fit(lanes, self.view_box.height(), min_row_pixels(self.plot.font()), self._scrolled_to)
        if force or rows != self.rows:
            self.rows = rows
            self._place_rows()

    def _place_rows(self) -> None:
        rows = self.rows
        shown = set(rows.shown)
        for index, item in enumerate(self.lane_items):
            item.setVisible(index in shown)
            if index in shown:
                item.move_to_row(rows.row_of(index))
        names = self.lane_names()
        ticks = [(0, "turns")] + [(rows.row_of(i), names[i]) for i in rows.shown] if self.turn_band is not None else []
        self.plot.getPlotItem().getAxis("left").setTicks([ticks, []])
        bottom = rows.rows - 0.5 if self.turn_band is not None else 0.5
        self.view_box.setLimits(yMin=-0.5, yMax=bottom, minYRange=bottom + 0.5, maxYRange=bottom + 0.5)
        self.view_box.setYRange(-0.5, bottom, padding=0)
        self._stripes = place_stripes(
            self.view_box, self._stripes, self.full_range(), rows.rows if self.turn_band is not None else 0
        )
        blocked = self.lane_scroll.blockSignals(True)
        self.lane_scroll.setRange(0, rows.last_first)
        self.lane_scroll.setPageStep(max(rows.slots, 1))
        self.lane_scroll.setValue(rows.first)
        self.lane_scroll.blockSignals(blocked)
        self.lane_scroll.setVisible(rows.scrolls)
        if self.selected_turn is not None and self.selection_shade.isVisible():
            shade = self.selection_shade.rect()
            self.selection_shade.setRect(QRectF(shade.left(), -0.5, shade.width(), rows.rows))

    def full_range(self) -> tuple[float, float]:
        """The x range that shows everything (what Fit sets), with a little margin."""
        extent = self.timeline.extent
        extent = max([extent] + [bounds[1] for bounds in (lane.ticks.bounds() for lane in self.marker_lanes) if bounds])
        if extent <= 0:
            return -0.5, 1.0
        pad = max(extent * 0.01, 0.05)
        return -pad, extent + pad

    # ----- mouse
    def _on_scene_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        hit = self.hit_at(event.scenePos())
        if hit is None:
            return
        if hit.kind == "turn":
            turn_index = cast(int, hit.payload)  # a turn's hit carries the turn's index
            self.select_turn(turn_index)
            self.turn_clicked.emit(turn_index)
            return
        self.element_clicked.emit(self.timeline.view_of(hit.payload))
        if hit.kind == "audio":
            segment = cast(AudioSegment, hit.payload)  # an audio bar's hit carries its segment
            self.message_shown.emit(audio_summary(self.timeline, segment))

    def _on_scene_moved(self, scene_pos: QPointF) -> None:
        text = self.tooltip_at(scene_pos)
        if text:
            QToolTip.showText(QCursor.pos(), plain_tooltip(text), self.plot)
        else:
            QToolTip.hideText()
