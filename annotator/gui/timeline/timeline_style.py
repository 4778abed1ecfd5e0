"""Colours and sizes of the timeline, in one place: the colours from the theme table, in the scheme shown."""

from __future__ import annotations

from PySide6.QtGui import QColor

from annotator.gui.theme import LANE_COLOURS, theme_colour
from annotator.timeline import data

BAR_HEIGHT = 0.62  # of a lane's height (lanes are 1.0 apart)
TURN_HEIGHT = 0.8
TICK_HEIGHT = 0.9  # taller than bars, so ticks show around the bars drawn over them
MAX_LABELS = 200  # above this many bars in view, none is labelled
LABEL_MIN_PIXELS = 24  # narrower bars get no label at all
LABEL_MIN_CHARACTERS = 6  # an elided label shorter than this (ellipsis included) is left out
HIT_PIXELS = 4  # hover and click tolerance

TURN_FILL = {
    data.UNKNOWN_SPEAKER: "turn_unknown",
    data.SYSTEM_TURN: "turn_system",
    data.USER_TRANSCRIBED: "turn_user",
    data.USER_UNTRANSCRIBED: "turn_untranscribed",
}  # hatched
# Pale, red-hatched and red-outlined: no file to play.
AUDIO_FILL = {data.AUDIO_INPUT: "turn_user", data.AUDIO_OUTPUT: "turn_system", data.AUDIO_MISSING: "audio_missing"}
TICK_COLOURS = {data.MESSAGE: "tick_message", data.EVENT: "tick_event", data.MARKER: "tick_marker"}


def colours(names: dict[int, str]) -> dict[int, QColor]:
    """Each kind's colour in the scheme shown, from a {kind: theme colour name} table above."""
    return {kind: theme_colour(name) for kind, name in names.items()}


def lane_fill(lane_number: int) -> QColor:
    """Server lanes cycle through muted, distinguishable fills."""
    return theme_colour(LANE_COLOURS[lane_number % len(LANE_COLOURS)])


def outline_of(fill: QColor) -> QColor:
    return fill.darker(150)
