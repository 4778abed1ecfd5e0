"""What is under a point of the timeline, and how to describe it in a tooltip.

Rows and x in view units (row 0 is the turn band, row n the n-th
lane) and a tolerance in seconds; binary searches on the lane arrays, never
a scan of items.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from annotator.analysis.doubt import turn_doubt
from annotator.clock import format_duration
from annotator.log.inner_elements import ActivityMixin, EventView
from annotator.timeline import data
from annotator.timeline.audio import AudioSegment
from annotator.timeline.data import Lane, TimelineData

TURN_ROW = 0
_TURN_STATES = {
    data.UNKNOWN_SPEAKER: "speaker unknown",
    data.SYSTEM_TURN: "system",
    data.USER_TRANSCRIBED: "user · transcribed",
    data.USER_UNTRANSCRIBED: "user · not transcribed",
}


@dataclass(frozen=True)
class TimelineHit:
    kind: str  # "turn", "operation", "audio", "message", "event" or "marker"
    row: int
    position: int  # in the lane's (or turn band's) sorted arrays
    payload: object  # the turn index, the lxml element, or the marker object
    text: str  # the tooltip


def hit_test(timeline: TimelineData, lanes: list[Lane], row: int, x: float, tolerance: float) -> TimelineHit | None:
    """The turn, tick or bar at (row, x); ticks win over bars, the shortest containing bar over longer ones."""
    if row == TURN_ROW:
        position = timeline.turns.hit(x, tolerance)
        if position is None:
            return None
        return TimelineHit("turn", row, position, timeline.turns.payloads[position], _turn_text(timeline, position))
    if not 1 <= row <= len(lanes):
        return None
    lane = lanes[row - 1]
    position = lane.ticks.hit(x, tolerance)
    if position is not None:
        kind = {data.MESSAGE: "message", data.EVENT: "event"}.get(int(lane.ticks.kinds[position]), "marker")
        return TimelineHit(
            kind, row, position, lane.ticks.payloads[position], _tick_text(timeline, lane, position, kind)
        )
    position = lane.bars.hit(x, tolerance)
    if position is None:
        return None
    payload = lane.bars.payloads[position]
    if isinstance(payload, AudioSegment):
        return TimelineHit("audio", row, position, payload, _audio_text(timeline, lane, position))
    return TimelineHit("operation", row, position, payload, _bar_text(timeline, lane, position))


def _turn_text(timeline: TimelineData, position: int) -> str:
    turns = timeline.turns
    assert timeline.session is not None, "only a session's timeline has turns"
    turn = timeline.session.turns[turns.payloads[position]]
    duration = turns.ends[position] - turns.starts[position]
    state = _TURN_STATES.get(int(turns.kinds[position]), "")
    doubt = turn_doubt(turn)
    return (
        f"turn {turn.id} · {state}\nduration: {format_duration(duration)}\n"
        f"from {turns.starts[position]:.2f} s to {turns.ends[position]:.2f} s"
        + ("" if doubt is None else "\n" + doubt.describe())
    )


def _span_lines(intervals, position: int) -> list[str]:
    duration = intervals.ends[position] - intervals.starts[position]
    return [
        f"duration: {format_duration(duration)}",
        f"from {intervals.starts[position]:.3f} s to {intervals.ends[position]:.3f} s",
    ]


def audio_summary(timeline: TimelineData, segment: AudioSegment) -> str:
    """One line naming a segment's file: where it was found, or which file is missing and why."""
    turn = ""
    if segment.turn_index is not None:
        assert timeline.session is not None, "a segment of a turn is on its session's timeline"
        turn = f"turn {timeline.session.turns[segment.turn_index].id}: "
    if segment.path is not None:
        return f"{turn}{segment.side} audio {segment.path}"
    return (
        f"{turn}{segment.side} audio missing: {segment.written or '(empty path)'} "
        f"(looked for {segment.looked_for}): {segment.problem}"
    )


def _audio_text(timeline: TimelineData, lane: Lane, position: int) -> str:
    segment: AudioSegment = lane.bars.payloads[position]
    carrier = cast(ActivityMixin, timeline.view_of(segment))  # an audio GC_DATA sits in an activity
    title = f"{segment.side} audio" + (" · MISSING" if segment.path is None else f" · {segment.file_name}")
    lines = [title, f"written in the log: {segment.written or '(empty)'}"]
    if segment.path is not None:
        lines.append(f"file: {segment.path}")
    else:
        lines += [f"looked for: {segment.looked_for}", segment.problem or ""]
    lines.append(f"carried by: {carrier.el.tag} {carrier.name or ''} ({carrier.server or data.NO_SERVER})")
    return "\n".join(lines + _span_lines(lane.bars, position))


def _bar_text(timeline: TimelineData, lane: Lane, position: int) -> str:
    bars = lane.bars
    operation = timeline.view_of(bars.payloads[position])
    name = getattr(operation, "name", None) or bars.label(position) or "(unnamed operation)"
    server = getattr(operation, "server", None) or lane.name
    lines = [name, f"server: {server}", *_span_lines(bars, position)]
    if int(bars.kinds[position]) == data.VIRTUAL_OPERATION:
        lines[0] += "  (virtual: a duration, not a call)"
    return "\n".join(lines)


def _tick_text(timeline: TimelineData, lane: Lane, position: int, kind: str) -> str:
    ticks = lane.ticks
    at = f"at {ticks.starts[position]:.3f} s"
    if kind == "marker":
        return f"{lane.name}: {ticks.label(position)}\n{at}"
    element = cast(ActivityMixin, timeline.view_of(ticks.payloads[position]))  # a message's or an event's view
    if kind == "event":
        title = " ".join(t for t in ("event", cast(EventView, element).etype, element.name) if t)
    else:
        title = " ".join(t for t in ("message", element.name) if t)
    return f"{title}\nserver: {element.server or data.NO_SERVER}\n{at}"
