"""Durations and positions as a clock shows them: '0:05', '-0:05', '1:02:03'.

A negative value (a turn whose etime comes before its stime) keeps its sign in
front of the whole clock: -5 s is '-0:05', never the '-1:55' that floor
division of the minutes would give. format_clock labels a time axis (with
decimals when its ticks are close), format_duration a span ('250 ms', '2.50 s',
'1:05.0').
"""

from __future__ import annotations

import math


def clock_text(seconds: float) -> str:
    """SECONDS rounded to the second, as m:ss or h:mm:ss, with a leading '-' when negative."""
    whole = int(round(abs(seconds)))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    sign = "-" if seconds < 0 and whole else ""
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}" if hours else f"{sign}{minutes}:{secs:02d}"


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


def format_duration(seconds: float) -> str:
    """'250 ms', '2.50 s', '1:05.0'; a negative duration keeps its sign in front ('-250 ms', '-1:05.0')."""
    size = abs(seconds)
    if size < 1:
        return f"{seconds * 1000:.0f} ms"
    if size < 60:
        return f"{seconds:.2f} s"
    return format_clock(seconds, 0.1)
