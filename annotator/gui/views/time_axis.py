"""Plot furniture shared by the timeline and the waveform: a view box that zooms time only, and a time axis."""

from __future__ import annotations

import math

import pyqtgraph as pg


class TimeViewBox(pg.ViewBox):
    """The wheel zooms the time (x) axis only, even where y may be dragged."""

    def wheelEvent(self, ev, axis=None):
        super().wheelEvent(ev, axis=0)


def format_clock(value: float, spacing: float) -> str:
    """Seconds as '12.5 s' below a minute, else 'm:ss' / 'h:mm:ss' (with decimals when ticks are close)."""
    decimals = max(0, min(3, -math.floor(math.log10(spacing)))) if spacing > 0 else 0
    value = round(value, decimals)  # so 59.96 never shows as "0:60"
    if abs(value) < 60:
        return f"{value:.{decimals}f} s"
    sign = "-" if value < 0 else ""
    value = abs(value)
    hours, rest = divmod(value, 3600)
    minutes, seconds = divmod(rest, 60)
    width = 2 + (decimals + 1 if decimals else 0)
    seconds_text = f"{seconds:0{width}.{decimals}f}"
    if hours >= 1:
        return f"{sign}{int(hours)}:{int(minutes):02d}:{seconds_text}"
    return f"{sign}{int(minutes)}:{seconds_text}"


class TimeAxisItem(pg.AxisItem):
    """Seconds from the session start, readable at every zoom level."""

    def tickStrings(self, values, scale, spacing):
        return [format_clock(v * scale, spacing * scale) for v in values]


def format_duration(seconds: float) -> str:
    """'250 ms', '2.50 s', '1:05.0'; a negative duration keeps its sign in front ('-250 ms', '-1:05.0')."""
    size = abs(seconds)
    if size < 1:
        return f"{seconds * 1000:.0f} ms"
    if size < 60:
        return f"{seconds:.2f} s"
    return format_clock(seconds, 0.1)
