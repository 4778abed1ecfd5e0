"""Opening a log in the real window: the log's folder is walked for its audio on the opening worker (a big
folder's walk stalled the GUI thread when the first turn's audio was looked up by name)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from annotator.gui.app import parts_of


def test_audio_found_only_by_name_plays_without_a_walk_of_its_folder_on_the_gui_thread(
    make_window, raw_log: Path, monkeypatch
):
    walked_on = []
    walk = os.walk

    def noted_walk(*args, **kwargs):
        walked_on.append(threading.current_thread() is threading.main_thread())
        return walk(*args, **kwargs)

    monkeypatch.setattr(os, "walk", noted_walk)
    window = make_window(raw_log)
    turn = parts_of(window).navigator.current_turn()
    written = turn.audio_data("input" if turn.speaker == "user" else "output").text
    assert os.path.isabs(written) and not os.path.exists(written), "the log's paths are the recording machine's"
    assert parts_of(window).playback.clip is not None and parts_of(window).playback.clip.path.name == Path(written).name
    assert parts_of(window).waveform.frames == len(parts_of(window).playback.clip.samples), "the waveform shows it"
    assert walked_on == [False], "the folder was walked once, on a worker: playback and the timeline share the walk"
    segments = parts_of(window).timeline.timeline.audio_lane.bars.payloads
    assert any(segment.path is not None and segment.path.name == Path(written).name for segment in segments), (
        "the timeline found the audio by name too"
    )
