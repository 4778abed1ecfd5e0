"""One timeline lane as ONE graphics item: bars and ticks painted from arrays.

A lane may hold 100k operations, so there is no item per bar: paint() culls
the arrays to the visible x-range with binary searches, merges bars narrower
than a few pixels into runs of covered pixel columns, and hands Qt a few
batched drawRects/drawLines calls, in device pixels (crisp 1-pixel edges,
no sub-pixel bars vanishing). Labels are drawn only when few bars are in view.

What a paint draws is kept as a QPicture while the view, the lane's row and its kinds stay the same: a
repaint that changes none of them (the selection moving within the view, the playback cursor passing, a
tooltip closing, another pane's paint exposing the timeline) plays the picture back instead of fitting
each label again in Python. The selection's outline is drawn over it, so moving it keeps the picture.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from pyqtgraph.Qt.internals import PrimitiveArray  # the batched drawRects path pyqtgraph's own items use
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QPainter, QPen, QPicture
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from annotator.gui.theme import theme_colour
from annotator.gui.timeline import timeline_style as style
from annotator.timeline.intervals import Intervals, PixelBars, to_pixel_bars, to_pixel_ticks


@dataclass(frozen=True)
class KindStyle:
    """How bars of one kind look: fill, outline, an optional hatch drawn over the fill."""

    fill: QColor
    outline: QColor | None = None
    dashed: bool = False
    hatch: QColor | None = None

    @classmethod
    def solid(cls, fill: QColor) -> KindStyle:
        return cls(fill, style.outline_of(fill))


class IntervalLaneItem(pg.GraphicsObject):
    """Bars (intervals) and ticks (points) of one lane, centred on y = ROW."""

    def __init__(
        self,
        row: float,  # a lane's row, or a strip's centre between rows
        bars: Intervals,
        ticks: Intervals,
        bar_styles: dict[int, KindStyle],
        tick_colours: dict[int, QColor],
        bar_height: float = style.BAR_HEIGHT,
    ):
        super().__init__()
        self.row = row
        self.bars = bars
        self.ticks = ticks
        self.bar_styles = bar_styles
        self.tick_colours = tick_colours
        self.bar_height = bar_height
        self.selected: int | None = None  # position in `bars` outlined as the selection
        self._bar_kinds = sorted(set(np.unique(bars.kinds).tolist())) if len(bars) else []
        self._tick_kinds = sorted(set(np.unique(ticks.kinds).tolist())) if len(ticks) else []
        self._rects = PrimitiveArray(QRectF, 4)
        self._lines = PrimitiveArray(QLineF, 4)
        self._bounds = self._data_bounds()
        # The pixel layout of the last paint: a repaint at the same zoom (the playback cursor
        # moving over the lane, a tooltip closing) reuses it instead of redoing the numpy work.
        self._layout_key: tuple | None = None
        self._bar_layout: list[tuple[int, PixelBars]] = []
        self._tick_layout: list[tuple[int, np.ndarray]] = []
        self.last_paint_counts = (0, 0, 0)  # detailed bars, merged runs, labels: for tests and benchmarks
        self._picture: QPicture | None = None
        self._picture_key: tuple | None = None
        self.pictures_made = 0  # how often the lane was drawn afresh rather than played back: for tests

    def _data_bounds(self) -> QRectF:
        spans = [b for b in (self.bars.bounds(), self.ticks.bounds()) if b is not None]
        if not spans:
            return QRectF()
        left = min(s[0] for s in spans)
        right = max(s[1] for s in spans)
        return QRectF(left, self.row - 0.5, max(right - left, 1e-9), 1.0)

    def move_to_row(self, row: int) -> None:
        """Draw the lane on ROW (the lanes scroll under the turn band by changing rows)."""
        if row != self.row:
            self.prepareGeometryChange()
            self.row = row
            self._bounds = self._data_bounds()
            self._picture = None

    def restyled(self) -> None:
        """Kinds changed in place (e.g. a turn got transcribed): drawn afresh."""
        self._bar_kinds = sorted(set(np.unique(self.bars.kinds).tolist())) if len(self.bars) else []
        self._layout_key = None
        self._picture = None
        self.update()

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        view = self.viewRect()
        if view is None or self._bounds.isNull():
            return
        transform = painter.transform()  # item -> device; the view only scales and translates
        scale, offset = transform.m11(), transform.m31()
        y_scale, y_offset = transform.m22(), transform.m32()
        if scale <= 0:
            return
        width = int(view.right() * scale + offset) + 2
        top = (self.row - self.bar_height / 2) * y_scale + y_offset
        height = self.bar_height * y_scale
        if height < 0:
            top, height = top + height, -height
        key = (view.left(), view.right(), scale, offset, width, y_scale, y_offset, painter.font().key())
        if self._picture is None or key != self._picture_key:
            self._picture_key = key
            self._picture = self._draw_picture(
                painter.font(), (view.left(), view.right()), (scale, offset, width), y_scale, y_offset, top, height
            )
        painter.save()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.drawPicture(0, 0, self._picture)
        self._paint_selection(painter, scale, offset, width, top, height)
        painter.restore()

    def _draw_picture(self, font, x_range, x_pixels, y_scale, y_offset, top, height) -> QPicture:
        """The lane's ticks, bars and labels over X_RANGE (seconds) in device pixels (X_PIXELS: scale, offset,
        width), in FONT."""
        (x0, x1), (scale, offset, width) = x_range, x_pixels
        picture = QPicture()
        recorder = QPainter(picture)
        recorder.setFont(font)
        recorder.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        self._update_layout(x0, x1, scale, offset, width)
        # Ticks go under the bars and stand out above and below them: zoomed out, a tick in
        # every pixel column would otherwise hide the lane's operations completely.
        self._paint_ticks(recorder, y_scale, y_offset)
        self.last_paint_counts = self._paint_bars(recorder, x0, scale, offset, width, top, height)
        recorder.end()
        self.pictures_made += 1
        return picture

    def _update_layout(self, x0: float, x1: float, scale: float, offset: float, width: int) -> None:
        key = (x0, x1, scale, offset, width)
        if key == self._layout_key:
            return
        self._layout_key = key
        self._bar_layout = []
        i0, i1 = self.bars.visible(x0, x1)
        if i0 < i1:
            kinds_in_view = self.bars.kinds[i0:i1]
            for kind in self._bar_kinds:
                mask = None if len(self._bar_kinds) == 1 else kinds_in_view == kind
                self._bar_layout.append((kind, to_pixel_bars(self.bars, i0, i1, scale, offset, width, mask)))
        self._tick_layout = []
        i0, i1 = self.ticks.visible(x0, x1)
        if i0 < i1:
            kinds_in_view = self.ticks.kinds[i0:i1]
            for kind in self._tick_kinds:
                mask = None if len(self._tick_kinds) == 1 else kinds_in_view == kind
                self._tick_layout.append((kind, to_pixel_ticks(self.ticks, i0, i1, scale, offset, width, mask)))

    def _paint_bars(self, painter, x0, scale, offset, width, top, height) -> tuple[int, int, int]:
        labelled: list[tuple[int, float, float]] = []
        detailed = merged = 0
        for kind, pixels in self._bar_layout:
            kind_style = self.bar_styles.get(kind) or KindStyle.solid(theme_colour("turn_unknown"))
            self._draw_rects(
                painter,
                pixels.merged_left,
                pixels.merged_width,
                top,
                height,
                QBrush(kind_style.fill),
                Qt.PenStyle.NoPen,
            )
            pen = QPen(kind_style.outline or kind_style.fill, 0)
            if kind_style.dashed:
                pen.setStyle(Qt.PenStyle.DashLine)
            fill = Qt.BrushStyle.NoBrush if kind_style.dashed else QBrush(kind_style.fill)
            self._draw_rects(painter, pixels.detail_left, pixels.detail_width - 1, top, height - 1, fill, pen)
            if kind_style.hatch is not None:
                hatch = QBrush(kind_style.hatch, Qt.BrushStyle.BDiagPattern)
                self._draw_rects(
                    painter, pixels.detail_left, pixels.detail_width, top, height, hatch, Qt.PenStyle.NoPen
                )
                self._draw_rects(
                    painter, pixels.merged_left, pixels.merged_width, top, height, hatch, Qt.PenStyle.NoPen
                )
            detailed += len(pixels.detail_index)
            merged += len(pixels.merged_left)
            if not kind_style.dashed:
                labelled += zip(pixels.detail_index.tolist(), pixels.detail_left.tolist(), pixels.detail_width.tolist())
        labels = 0
        if 0 < len(labelled) <= style.MAX_LABELS:
            labels = self._paint_labels(painter, labelled, x0 * scale + offset, top, height)
        return detailed, merged, labels

    def _paint_selection(self, painter, scale, offset, width, top, height) -> None:
        if self.selected is None or not 0 <= self.selected < len(self.bars):
            return
        left = self.bars.starts[self.selected] * scale + offset
        right = self.bars.ends[self.selected] * scale + offset
        if right < -4 or left > width + 4:
            return
        left, right = max(left, -4.0), min(right, width + 4.0)
        right = max(right, left + 3)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(theme_colour("selected_outline"), 2))
        painter.drawRect(QRectF(left, top - 1, right - left, height + 1))

    def _paint_labels(self, painter, labelled, view_left, top, height) -> int:
        metrics = QFontMetrics(painter.font())
        if height < metrics.height() * 0.8:
            return 0
        painter.setPen(theme_colour("label_text"))
        drawn = 0
        for index, left, bar_width in labelled:
            if bar_width < style.LABEL_MIN_PIXELS:
                continue
            text = self._fitted_label(metrics, self.bars.label(index), int(bar_width - 6))
            if text:
                visible_left = max(left, view_left)
                painter.drawText(
                    QRectF(visible_left + 3, top, left + bar_width - visible_left - 6, height),
                    Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                    text,
                )
                drawn += 1
        return drawn

    def _fitted_label(self, metrics: QFontMetrics, label: str, room: int) -> str:
        """LABEL if it fits; else its head before " · " (a turn's id without its duration); else elided."""
        if metrics.horizontalAdvance(label) <= room:
            return label
        head = label.split(" · ", 1)[0]
        if head != label and metrics.horizontalAdvance(head) <= room:
            return head
        text = metrics.elidedText(label, Qt.TextElideMode.ElideRight, room)
        return text if len(text) >= style.LABEL_MIN_CHARACTERS else ""  # "r…" tells nothing

    def _paint_ticks(self, painter, y_scale, y_offset) -> None:
        top = (self.row - style.TICK_HEIGHT / 2) * y_scale + y_offset
        bottom = (self.row + style.TICK_HEIGHT / 2) * y_scale + y_offset
        for kind, columns in self._tick_layout:
            if not len(columns):
                continue
            self._lines.resize(len(columns))
            lines = self._lines.ndarray()
            lines[:, 0] = columns
            lines[:, 1] = top
            lines[:, 2] = columns
            lines[:, 3] = bottom
            painter.setPen(QPen(self.tick_colours.get(kind) or theme_colour("tick_message"), 1))
            painter.drawLines(*self._lines.drawargs())

    def _draw_rects(self, painter, left, width, top, height, brush, pen) -> None:
        if not len(left):
            return
        self._rects.resize(len(left))
        rects = self._rects.ndarray()
        rects[:, 0] = left
        rects[:, 1] = top
        rects[:, 2] = width
        rects[:, 3] = height
        painter.setPen(pen)
        painter.setBrush(brush)
        painter.drawRects(*self._rects.drawargs())
