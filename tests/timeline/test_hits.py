"""What is under a point of the timeline, and its tooltip, on a real log and without Qt."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.clock import format_duration
from annotator.log.document import LogDocument
from annotator.timeline.data import AUDIO_LANE, TimelineData, build_timeline
from annotator.timeline.hits import TURN_ROW, audio_summary, hit_test

TOLERANCE = 0.01  # seconds


@pytest.fixture
def timeline(annotated_log: Path) -> TimelineData:
    return build_timeline(LogDocument.load(annotated_log).sessions[0])


def row_of(timeline: TimelineData, name: str) -> int:
    return 1 + next(i for i, lane in enumerate(timeline.lanes) if lane.name == name)


def test_a_turn_is_named_with_its_state_and_duration(timeline):
    turns = timeline.turns
    start, end = turns.starts[1], turns.ends[1]
    hit = hit_test(timeline, timeline.lanes, TURN_ROW, (start + end) / 2, TOLERANCE)
    turn = timeline.session.turns[hit.payload]
    assert (hit.kind, hit.position) == ("turn", 1)
    assert hit.text.startswith(f"turn {turn.id} · ")
    assert format_duration(end - start) in hit.text


def test_a_message_or_event_tick_is_named_with_its_time(timeline):
    row = row_of(timeline, "audio")
    tick = float(timeline.lanes[row - 1].ticks.starts[1])
    hit = hit_test(timeline, timeline.lanes, row, tick, TOLERANCE)
    assert hit.kind in ("message", "event") and f"at {tick:.3f} s" in hit.text


def test_an_operation_bar_names_its_server(timeline):
    row = row_of(timeline, "recognizer")
    bars = timeline.lanes[row - 1].bars
    hit = hit_test(timeline, timeline.lanes, row, (bars.starts[0] + bars.ends[0]) / 2, TOLERANCE)
    assert hit.kind == "operation" and "server: recognizer" in hit.text


def test_an_audio_segment_names_its_file(timeline):
    row = row_of(timeline, AUDIO_LANE)
    bars = timeline.lanes[row - 1].bars
    hit = hit_test(timeline, timeline.lanes, row, (bars.starts[0] + bars.ends[0]) / 2, TOLERANCE)
    assert hit.kind == "audio" and "written in the log: " in hit.text
    assert audio_summary(timeline, hit.payload).startswith(f"turn {timeline.session.turns[0].id}: ")


def test_nothing_is_hit_off_the_rows_or_between_items(timeline):
    assert hit_test(timeline, timeline.lanes, len(timeline.lanes) + 1, 1.0, TOLERANCE) is None
    assert hit_test(timeline, timeline.lanes, TURN_ROW, -100.0, TOLERANCE) is None
