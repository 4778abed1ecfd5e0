"""Colours and sizes of the timeline, in one place."""

from __future__ import annotations

from PySide6.QtGui import QColor

from annotator.timeline import data

BAR_HEIGHT = 0.62  # of a lane's height (lanes are 1.0 apart)
TURN_HEIGHT = 0.8
TICK_HEIGHT = 0.9  # taller than bars, so ticks show around the bars drawn over them
MAX_LABELS = 200  # above this many bars in view, none is labelled
LABEL_MIN_PIXELS = 24  # narrower bars get no label at all
LABEL_MIN_CHARACTERS = 6  # an elided label shorter than this (ellipsis included) is left out
HIT_PIXELS = 4  # hover and click tolerance

TURN_FILL = {
    data.UNKNOWN_SPEAKER: QColor("#b9bec6"),
    data.SYSTEM_TURN: QColor("#8c9db5"),  # blue-grey
    data.USER_TRANSCRIBED: QColor("#6fb06f"),  # green
    data.USER_UNTRANSCRIBED: QColor("#e7a93b"),  # amber, hatched
}
TURN_HATCH = QColor(120, 70, 0, 110)
SELECTED_OUTLINE = QColor("#1c2733")
SELECTION_SHADE = QColor(60, 110, 200, 28)  # the selected turn's span across all lanes

AUDIO_FILL = {data.AUDIO_INPUT: QColor("#6fb06f"), data.AUDIO_OUTPUT: QColor("#8c9db5"),
              data.AUDIO_MISSING: QColor("#fbe3e0")}  # pale, red-hatched and red-outlined: no file to play
MISSING_AUDIO_MARK = QColor("#c0392b")
TICK_COLOURS = {data.MESSAGE: QColor("#3d4a5c"), data.EVENT: QColor("#c0392b"), data.MARKER: QColor("#8e44ad")}

# Server lanes cycle through muted, distinguishable fills.
LANE_FILLS = [QColor(c) for c in ("#5b8fc7", "#d08c4c", "#58a89a", "#a679b8", "#c9b04a", "#cc6f7b", "#7f9a55",
                                  "#8a7f70")]
LABEL_COLOUR = QColor("#16202a")
STRIPE = QColor(0, 0, 0, 12)  # every other lane


def lane_fill(lane_number: int) -> QColor:
    return LANE_FILLS[lane_number % len(LANE_FILLS)]


def outline_of(fill: QColor) -> QColor:
    return fill.darker(150)
