"""Plot furniture shared by the timeline and the waveform: a view box that zooms time only, and a time axis."""

from __future__ import annotations

import pyqtgraph as pg

from annotator.log.clock import format_clock


class TimeViewBox(pg.ViewBox):
    """The wheel zooms the time (x) axis only, even where y may be dragged."""

    def wheelEvent(self, ev, axis=None):
        super().wheelEvent(ev, axis=0)


class TimeAxisItem(pg.AxisItem):
    """Seconds from the session start, readable at every zoom level."""

    def tickStrings(self, values, scale, spacing):
        return [format_clock(v * scale, spacing * scale) for v in values]
