"""The audio lane's segments, built from real logs and real files: where each side's audio is drawn
and whether its file is there."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from annotator.log.document import LogDocument
from annotator.timeline import data
from annotator.timeline.data import AUDIO_LANE, build_timeline
from tests.support.audio_shapes import EXPECTED, write_audio_shapes


def audio_lane(timeline: data.TimelineData) -> data.Lane:
    return next(lane for lane in timeline.lanes if lane.name == AUDIO_LANE)


def segments_by_turn(timeline: data.TimelineData) -> dict[str, tuple[int, data.AudioSegment]]:
    lane = audio_lane(timeline)
    turns = timeline.session.turns
    return {turns[segment.turn_index].id: (position, segment) for position, segment in enumerate(lane.bars.payloads)}


def test_each_turn_with_audio_has_one_segment_where_its_audio_was_heard(tmp_path: Path):
    log = write_audio_shapes(tmp_path / "shapes")
    timeline = build_timeline(LogDocument.load(log).sessions[0])
    lane = audio_lane(timeline)
    found = segments_by_turn(timeline)
    assert sorted(found) == sorted(EXPECTED)
    for turn_id, (side, start, end, written, present) in EXPECTED.items():
        position, segment = found[turn_id]
        assert segment.side == side, turn_id
        assert (lane.bars.starts[position], lane.bars.ends[position]) == pytest.approx((start, end)), turn_id
        assert segment.written == written
        assert (segment.path is not None) == present, turn_id
        kind = int(lane.bars.kinds[position])
        if not present:
            assert kind == data.AUDIO_MISSING
        else:
            assert kind == (data.AUDIO_INPUT if side == "user" else data.AUDIO_OUTPUT)


def test_a_message_carries_system_audio_and_a_click_shows_that_message(tmp_path: Path):
    log = write_audio_shapes(tmp_path / "shapes")
    timeline = build_timeline(LogDocument.load(log).sessions[0])
    _, segment = segments_by_turn(timeline)["3"]
    assert segment.carrier.tag == "GC_MESSAGE" and segment.carrier.get("name") == "filelog"
    view = timeline.view_of(segment)
    assert view.el is segment.carrier and view.name == "filelog"


def test_missing_audio_names_the_file_as_written_and_as_looked_for(tmp_path: Path):
    folder = tmp_path / "shapes"
    log = write_audio_shapes(folder)
    timeline = build_timeline(LogDocument.load(log).sessions[0])
    _, gone = segments_by_turn(timeline)["5"]
    assert gone.path is None and gone.written == "gone.wav"
    assert gone.looked_for == str(folder.resolve() / "gone.wav")
    assert "not found" in gone.problem and "gone.wav" in gone.problem
    _, folder_path = segments_by_turn(timeline)["6"]
    assert folder_path.path is None and folder_path.refused
    assert "is a folder" in folder_path.problem


def test_sample_log_system_audio_spans_play_audio_not_the_synthesis(annotated_log: Path):
    """In the sample logs the synthesizer's operation carries the file, play_audio is when it was heard."""
    timeline = build_timeline(LogDocument.load(annotated_log).sessions[0])
    root = etree.parse(str(annotated_log)).getroot().find("GC_SESSION")
    origin = float(root.get("stime"))
    lane = audio_lane(timeline)
    found = segments_by_turn(timeline)
    system_turns = [t for t in root.iter("GC_TURN") if "audio_output" in etree.tostring(t, encoding=str)]
    assert system_turns
    for turn in system_turns:
        play = next(op for op in turn.iter("GC_OPERATION") if op.get("type_start_utt") == "system")
        position, segment = found[turn.get("id")]
        assert segment.side == "system" and segment.path is not None
        assert lane.bars.starts[position] == pytest.approx(float(play.get("stime")) - origin)
        assert lane.bars.ends[position] == pytest.approx(float(play.get("etime")) - origin)
    user_turns = [t for t in root.iter("GC_TURN") if "audio_input" in etree.tostring(t, encoding=str)]
    assert len(found) == len(system_turns) + len(user_turns)


def test_absolute_paths_of_the_recording_machine_are_found_by_name(absolute_audio_log: Path):
    timeline = build_timeline(LogDocument.load(absolute_audio_log).sessions[0])
    segments = audio_lane(timeline).bars.payloads
    assert segments and all(
        s.path is not None and s.path.parent == absolute_audio_log.parent.resolve() for s in segments
    )
    assert all(s.written.startswith("/home/communicator/") for s in segments)
