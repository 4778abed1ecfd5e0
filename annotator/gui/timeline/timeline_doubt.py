"""The timeline's doubt strip: along the bottom of each user turn in the turn band, the colour of its doubt.

The spans and their steps on the ramp are TimelineData.doubts (made with the timeline, off the GUI
thread); the turn's tooltip gives the score and its reasons (annotator.timeline.hits).
"""

from __future__ import annotations

from annotator.gui.colours import doubt_ramp
from annotator.gui.timeline.timeline_lane_item import IntervalLaneItem, KindStyle
from annotator.timeline.data import TimelineData
from annotator.timeline.hits import TURN_ROW
from annotator.timeline.intervals import Intervals

STRIP_HEIGHT = 0.26  # of a row: over the lower third of the turn bars (style.TURN_HEIGHT 0.8, centred)
STRIP_CENTRE = TURN_ROW + 0.4 - STRIP_HEIGHT / 2  # y grows downwards: the strip's bottom is the bars' bottom


def doubt_strip_item(timeline: TimelineData) -> IntervalLaneItem:
    styles = {step: KindStyle(colour) for step, colour in enumerate(doubt_ramp())}  # in the scheme shown
    return IntervalLaneItem(STRIP_CENTRE, timeline.doubts, Intervals.empty(), styles, {}, STRIP_HEIGHT)
