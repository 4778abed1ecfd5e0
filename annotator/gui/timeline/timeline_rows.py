"""What part of a session the timeline shows: the time window it opens on, and which lanes
under its turn band, with a lane-name axis that scrolls them.

A long session opens on its current turn (where the annotator stopped, or the
first turn) with some context, not on the whole session, where turns would be
slivers; a short one opens whole.

The turn band (row 0) and the time axis stay put: they are what every lane is
read against. The lanes below them (audio, markers, servers) get at least a
minimum height each, enough for a line of the normal font; when they do not
all fit, a window of them is shown and scrolls (the scroll bar, or the wheel
over the lane names), while the wheel over the lanes keeps zooming time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QFont, QFontMetrics, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsSceneWheelEvent

from annotator.gui.theme import theme_colour
from annotator.gui.timeline import timeline_style as style

WHOLE_SESSION_SECONDS = 120.0  # a session up to this long opens whole...
READING_SECONDS = 45.0  # ...a longer one on this much time around the current turn,
READING_LEAD = 0.25  # this share of it before the turn (what led to it), the rest after


def reading_window(full: tuple[float, float], turn: tuple[float, float] | None) -> tuple[float, float]:
    """The x range a session opens on, given the range of all of it (FULL) and the current TURN's span:
    all of a short session; else READING_SECONDS around the turn (from the session start when there
    is none), or the whole turn with a margin when it is longer."""
    left, right = full
    if right - left <= WHOLE_SESSION_SECONDS:
        return left, right
    if turn is None:
        return left, left + READING_SECONDS
    start, end = turn
    if end - start > READING_SECONDS * (1 - READING_LEAD):
        margin = (end - start) * 0.05
        return start - margin, end + margin
    view_left = min(max(start - READING_SECONDS * READING_LEAD, left), right - READING_SECONDS)
    return view_left, view_left + READING_SECONDS


def min_row_pixels(font: QFont) -> int:
    """The least height of a row: the turn band, the tallest thing in a row, holds a line of FONT."""
    return math.ceil(QFontMetrics(font).height() / style.TURN_HEIGHT) + 2


@dataclass(frozen=True)
class RowLayout:
    """LANES lanes under the turn band, SLOTS of them shown from index FIRST."""

    lanes: int
    slots: int
    first: int

    @classmethod
    def fit(cls, lanes: int, view_pixels: float, row_pixels: int, first: int) -> RowLayout:
        rows_that_fit = max(2, int(view_pixels // max(row_pixels, 1)))
        slots = min(lanes, rows_that_fit - 1)
        return cls(lanes, slots, max(0, min(first, lanes - slots)))

    @property
    def scrolls(self) -> bool:
        return self.lanes > self.slots

    @property
    def last_first(self) -> int:
        """The largest FIRST: the last lane at the bottom."""
        return self.lanes - self.slots

    @property
    def shown(self) -> range:
        """Indexes of the lanes shown, top to bottom."""
        return range(self.first, self.first + self.slots)

    @property
    def rows(self) -> int:
        """Rows in view: the turn band and the lanes shown."""
        return 1 + self.slots

    def row_of(self, lane_index: int) -> int:
        """The row lane LANE_INDEX is drawn on (outside 1..slots when scrolled away)."""
        return 1 + lane_index - self.first

    def lane_at(self, row: int) -> int | None:
        return self.first + row - 1 if 1 <= row <= self.slots else None


class LaneAxisItem(pg.AxisItem):
    """The lane names on the left; the wheel over them scrolls the lanes (SCROLL_BY(rows))."""

    def __init__(self, scroll_by, **kwargs):
        super().__init__("left", **kwargs)
        self._scroll_by = scroll_by

    def wheelEvent(self, event: QGraphicsSceneWheelEvent) -> None:
        steps = event.delta() / 120
        if steps:
            self._scroll_by(-int(math.copysign(max(1, round(abs(steps))), steps)))
        event.accept()


def place_stripes(
    view_box, old: list[QGraphicsRectItem], x_range: tuple[float, float], row_count: int
) -> list[QGraphicsRectItem]:
    """Every other row shaded across X_RANGE, so a lane can be followed across the view; the OLD stripes go."""
    for stripe in old:
        view_box.removeItem(stripe)
    left, right = x_range
    stripe_brush = QBrush(theme_colour("lane_stripe"))
    stripes = []
    for row in range(1, row_count, 2):
        stripe = QGraphicsRectItem(QRectF(left, row - 0.5, right - left, 1.0))
        stripe.setPen(QPen(Qt.PenStyle.NoPen))
        stripe.setBrush(stripe_brush)
        stripe.setZValue(-10)
        view_box.addItem(stripe, ignoreBounds=True)
        stripes.append(stripe)
    return stripes
