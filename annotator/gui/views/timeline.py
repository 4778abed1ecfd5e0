"""The session timeline: turns, audio segments and one lane per server, over seconds from the session start.

Each lane is one graphics item painting numpy arrays (timeline_lane_item), so
a session of 200k operations redraws within a frame; hover and click are
binary searches on the same arrays (timeline_hits). Wheel zooms time, drag
pans, Fit shows everything. The widget only shows and reports: the main
window connects turn_clicked / element_clicked to the selection, and calls
select_turn, set_cursor and refresh_turns.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QCursor, QFontMetrics, QPalette, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QLabel, QSizePolicy, QToolBar, QToolTip, QVBoxLayout, QWidget

from annotator.gui.views import timeline_style as style
from annotator.gui.views.time_axis import TimeAxisItem, TimeViewBox
from annotator.gui.views.timeline_hits import TURN_ROW, TimelineHit, hit_test
from annotator.gui.views.timeline_lane_item import IntervalLaneItem, KindStyle
from annotator.log.views import Session
from annotator.timeline import data
from annotator.timeline.data import AUDIO_LANE, Lane, TimelineData, build_timeline
from annotator.timeline.intervals import Intervals

MAX_VISIBLE_ROWS = 12  # more lanes than this scroll vertically
ZOOM_STEP = 2.0
MIN_SPAN = 0.01  # seconds: the deepest zoom

_TURN_STYLES = {
    kind: KindStyle(fill, style.outline_of(fill), hatch=style.TURN_HATCH if kind == data.USER_UNTRANSCRIBED else None)
    for kind, fill in style.TURN_FILL.items()
}
_AUDIO_STYLES = {kind: KindStyle.solid(fill) for kind, fill in style.AUDIO_FILL.items()}


def _server_styles(lane_number: int) -> dict[int, KindStyle]:
    fill = style.lane_fill(lane_number)
    return {data.OPERATION: KindStyle.solid(fill),
            data.VIRTUAL_OPERATION: KindStyle(fill.lighter(130), style.outline_of(fill), dashed=True)}


class TimelineView(QWidget):
    turn_clicked = Signal(int)  # the index of the turn in session.turns
    element_clicked = Signal(object)  # an OperationView / MessageView / EventView, or a marker's object

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.timeline = TimelineData.empty()
        self.marker_lanes: list[Lane] = []
        self.turn_band: IntervalLaneItem | None = None
        self.lane_items: list[IntervalLaneItem] = []
        self.selected_turn: int | None = None
        self._turn_positions: dict[int, int] = {}  # turn index -> position in the turn band's arrays
        self._stripes: list[QGraphicsRectItem] = []
        self._build_toolbar()
        self._build_plot()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.plot, 1)
        self._apply_rows()

    # ----- construction
    def _build_toolbar(self) -> None:
        self.toolbar = QToolBar("Timeline", self)
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.fit_action = QAction("Fit", self, toolTip="Show the whole session")
        self.zoom_in_action = QAction("Zoom in", self, toolTip="Zoom in (or turn the mouse wheel over the timeline)")
        self.zoom_out_action = QAction("Zoom out", self, toolTip="Zoom out")
        self.fit_action.triggered.connect(self.fit)
        self.zoom_in_action.triggered.connect(lambda: self.zoom(1 / ZOOM_STEP))
        self.zoom_out_action.triggered.connect(lambda: self.zoom(ZOOM_STEP))
        for action in (self.fit_action, self.zoom_in_action, self.zoom_out_action):
            self.toolbar.addAction(action)
        spacer = QWidget(self.toolbar)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.toolbar.addWidget(spacer)
        self.legend = QLabel(_legend_html(), self.toolbar)
        self.legend.setContentsMargins(0, 0, 8, 0)
        self.toolbar.addWidget(self.legend)

    def _build_plot(self) -> None:
        self.view_box = TimeViewBox(enableMenu=False)
        self.view_box.invertY(True)  # the turn band on top
        self.view_box.setMouseEnabled(x=True, y=False)
        self.plot = pg.PlotWidget(viewBox=self.view_box, axisItems={"bottom": TimeAxisItem("bottom")})
        self.plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # never take the keyboard from the transcription editor
        palette = self.palette()
        self.plot.setBackground(palette.color(QPalette.ColorRole.Base))
        item = self.plot.getPlotItem()
        item.hideButtons()
        item.setMenuEnabled(False)
        item.showGrid(x=True, y=False, alpha=0.22)
        # Grid lines at major ticks only: minor ones double the cost of every redraw for little use.
        item.getAxis("bottom").setStyle(maxTickLevel=0)
        text = palette.color(QPalette.ColorRole.Text)
        for name in ("left", "bottom"):
            axis = item.getAxis(name)
            axis.setPen(pg.mkPen(QColor(text.red(), text.green(), text.blue(), 110)))
            axis.setTextPen(pg.mkPen(text))
        left = item.getAxis("left")
        left.setStyle(tickLength=0)
        left.setGrid(False)
        self.selection_shade = QGraphicsRectItem()
        self.selection_shade.setPen(QPen(Qt.PenStyle.NoPen))
        self.selection_shade.setBrush(QBrush(style.SELECTION_SHADE))
        self.selection_shade.setZValue(-5)
        self.selection_shade.hide()
        self.view_box.addItem(self.selection_shade, ignoreBounds=True)
        self.cursor_line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(style.CURSOR_COLOUR, width=2))
        self.cursor_line.setZValue(20)
        self.cursor_line.hide()
        self.view_box.addItem(self.cursor_line, ignoreBounds=True)
        scene = self.plot.scene()
        scene.sigMouseClicked.connect(self._on_scene_clicked)
        scene.sigMouseMoved.connect(self._on_scene_moved)

    # ----- public API
    def set_session(self, session: Session | None) -> None:
        """Show SESSION (None: nothing); forgets the selection, markers and cursor; fits the view."""
        self.timeline = build_timeline(session)
        self.marker_lanes = []
        self.selected_turn = None
        self._turn_positions = {index: pos for pos, index in enumerate(self.timeline.turns.payloads)}
        self.cursor_line.hide()
        self._rebuild_items()
        self.fit()

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
        self.selection_shade.setRect(QRectF(start, -0.5, max(end - start, 1e-6), self._row_count()))
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

    def fit(self) -> None:
        """Show the whole session."""
        left, right = self.full_range()
        self.view_box.setXRange(left, right, padding=0)

    def zoom(self, factor: float) -> None:
        """Scale the visible time span by FACTOR (< 1 zooms in) around its centre."""
        self.view_box.scaleBy(x=factor, y=None)

    def refresh_turns(self) -> None:
        """Restyle the turn band after annotations changed (transcribed user turns look different)."""
        if self.timeline.session is None or self.turn_band is None:
            return
        data.restyle_turns(self.timeline.session, self.timeline.turns)
        self.turn_band.restyled()

    def add_marker_lane(self, name: str, points: list[tuple[float, object]]) -> None:
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

    # ----- geometry helpers (public for tests and the main window)
    @property
    def lanes(self) -> list[Lane]:
        """The lanes in row order below the turn band: audio, servers, markers."""
        return self.timeline.lanes + self.marker_lanes

    def lane_names(self) -> list[str]:
        return [lane.name for lane in self.lanes]

    def x_range(self) -> tuple[float, float]:
        left, right = self.view_box.viewRange()[0]
        return float(left), float(right)

    def row_of_lane(self, name: str) -> int:
        return 1 + self.lane_names().index(name)

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
        return hit_test(self.timeline, self.lanes, row, point.x(), tolerance)

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

    # ----- items
    def _rebuild_items(self) -> None:
        for item in [self.turn_band, *self.lane_items, *self._stripes]:
            if item is not None:
                self.view_box.removeItem(item)
        self.turn_band, self.lane_items, self._stripes = None, [], []
        if self.timeline.session is not None:
            self.turn_band = IntervalLaneItem(TURN_ROW, self.timeline.turns, Intervals.empty(), _TURN_STYLES, {},
                                              style.TURN_HEIGHT)
            self.view_box.addItem(self.turn_band, ignoreBounds=True)
            self.turn_band.selected = self._turn_positions.get(self.selected_turn)
        server_number = 0
        for row, lane in enumerate(self.lanes, start=1):
            if lane.name == AUDIO_LANE and row == 1:
                bar_styles = _AUDIO_STYLES
            else:
                bar_styles = _server_styles(server_number)
                server_number += 1
            item = IntervalLaneItem(row, lane.bars, lane.ticks, bar_styles, style.TICK_COLOURS)
            self.view_box.addItem(item, ignoreBounds=True)
            self.lane_items.append(item)
        self._apply_rows()

    def _row_count(self) -> int:
        return (1 + len(self.lanes)) if self.timeline.session is not None else 0

    def _apply_rows(self) -> None:
        rows = self._row_count()
        left_axis = self.plot.getPlotItem().getAxis("left")
        names = (["turns"] + self.lane_names()) if rows else []
        left_axis.setTicks([list(enumerate(names)), []])
        metrics = QFontMetrics(self.plot.font())
        left_axis.setWidth(max([metrics.horizontalAdvance(n) for n in names] + [20]) + 14)
        left, right = self.full_range()
        visible_rows = max(1, min(rows, MAX_VISIBLE_ROWS))
        scrolls = rows > MAX_VISIBLE_ROWS
        self.view_box.setMouseEnabled(x=True, y=scrolls)
        self.view_box.setLimits(xMin=left, xMax=right, minXRange=min(MIN_SPAN, right - left),
                                maxXRange=right - left, yMin=-0.5, yMax=max(rows, 1) - 0.5,
                                minYRange=visible_rows, maxYRange=visible_rows)
        self.view_box.setYRange(-0.5, visible_rows - 0.5, padding=0)
        for row in range(1, rows, 2):
            stripe = QGraphicsRectItem(QRectF(left, row - 0.5, right - left, 1.0))
            stripe.setPen(QPen(Qt.PenStyle.NoPen))
            stripe.setBrush(QBrush(style.STRIPE))
            stripe.setZValue(-10)
            self.view_box.addItem(stripe, ignoreBounds=True)
            self._stripes.append(stripe)
        if self.selected_turn is not None and self.selection_shade.isVisible():
            shade = self.selection_shade.rect()
            self.selection_shade.setRect(QRectF(shade.left(), -0.5, shade.width(), rows))

    def full_range(self) -> tuple[float, float]:
        """The x range that shows everything (what Fit sets), with a little margin."""
        extent = self.timeline.extent
        for lane in self.marker_lanes:
            bounds = lane.ticks.bounds()
            if bounds is not None:
                extent = max(extent, bounds[1])
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
            self.select_turn(hit.payload)
            self.turn_clicked.emit(hit.payload)
        else:
            self.element_clicked.emit(self.timeline.view_of(hit.payload))

    def _on_scene_moved(self, scene_pos: QPointF) -> None:
        text = self.tooltip_at(scene_pos)
        if text:
            QToolTip.showText(QCursor.pos(), text, self.plot)
        else:
            QToolTip.hideText()


def _legend_html() -> str:
    entries = [(style.TURN_FILL[data.SYSTEM_TURN], "system"), (style.TURN_FILL[data.USER_TRANSCRIBED], "user"),
               (style.TURN_FILL[data.USER_UNTRANSCRIBED], "not transcribed"),
               (style.TICK_COLOURS[data.MESSAGE], "message"), (style.TICK_COLOURS[data.EVENT], "event")]
    return "&nbsp;&nbsp;".join(f"<span style='color:{c.name()}'>■</span>&nbsp;{t}" for c, t in entries)
