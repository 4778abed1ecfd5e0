"""Durations and positions as a clock shows them: '0:05', '-0:05', '1:02:03'.

A negative value (a turn whose etime comes before its stime) keeps its sign in
front of the whole clock: -5 s is '-0:05', never the '-1:55' that floor
division of the minutes would give.
"""

from __future__ import annotations


def clock_text(seconds: float) -> str:
    """SECONDS rounded to the second, as m:ss or h:mm:ss, with a leading '-' when negative."""
    whole = int(round(abs(seconds)))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    sign = "-" if seconds < 0 and whole else ""
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}" if hours else f"{sign}{minutes}:{secs:02d}"
