"""Plot furniture shared by the timeline and the waveform: a view box that zooms time only, a time
axis, the plot they sit in, and the playback cursor."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette, QPen
from PySide6.QtWidgets import QGraphicsSceneWheelEvent

from annotator.clock import format_clock
from annotator.gui.theme import theme_colour


class TimeViewBox(pg.ViewBox):
    """The wheel zooms the time (x) axis only, even where y may be dragged."""

    def wheelEvent(self, ev: QGraphicsSceneWheelEvent, axis: int | None = None) -> None:
        super().wheelEvent(ev, axis=0)


class TimeAxisItem(pg.AxisItem):
    """Seconds from the session start, readable at every zoom level."""

    def tickStrings(self, values, scale, spacing):
        return [format_clock(v * scale, spacing * scale) for v in values]


def time_plot(view_box: TimeViewBox, axes: dict[str, pg.AxisItem], palette: QPalette) -> pg.PlotWidget:
    """A plot in the palette's colours, without pyqtgraph's buttons and menu, that never takes the
    keyboard from the transcription editor."""
    plot = pg.PlotWidget(viewBox=view_box, axisItems=axes)
    plot.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    item = plot.getPlotItem()
    item.hideButtons()
    item.setMenuEnabled(False)
    colour_plot(plot, palette)
    return plot


def colour_plot(plot: pg.PlotWidget, palette: QPalette) -> None:
    """The plot's background and axes in PALETTE's colours (again when the theme changes)."""
    plot.setBackground(palette.color(QPalette.ColorRole.Base))
    text = palette.color(QPalette.ColorRole.Text)
    item = plot.getPlotItem()
    for name in ("left", "bottom"):
        axis = item.getAxis(name)
        axis.setPen(pg.mkPen(QColor(text.red(), text.green(), text.blue(), 110)))
        axis.setTextPen(pg.mkPen(text))


def cursor_pen() -> QPen:
    return pg.mkPen(theme_colour("playback_cursor"), width=2)


def add_cursor_line(view_box: TimeViewBox) -> pg.InfiniteLine:
    """The playback position: a vertical line over everything, hidden until there is one."""
    line = pg.InfiniteLine(angle=90, movable=False, pen=cursor_pen())
    line.setZValue(20)
    line.hide()
    view_box.addItem(line, ignoreBounds=True)
    return line
