"""The voice-activity detector on real synthetic speech: espeak-ng words with known silences, made with sox."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from annotator.audio import load_audio
from annotator.audio.voice_activity import speech_intervals
from tests.support.sounds import noise
from tests.support.speech import needs_tools, words_with_silence

GAP_TOLERANCE_S = 0.100


@needs_tools
def test_two_words_and_the_silence_between_them(tmp_path: Path) -> None:
    path, gap_start, gap_end = words_with_silence(tmp_path, 1.0)
    clip = load_audio(path)
    intervals = speech_intervals(clip.samples, clip.samplerate)
    assert len(intervals) == 2, intervals
    (first_start, first_end), (second_start, second_end) = intervals
    assert first_end == pytest.approx(gap_start, abs=GAP_TOLERANCE_S)
    assert second_start == pytest.approx(gap_end, abs=GAP_TOLERANCE_S)
    assert first_start < GAP_TOLERANCE_S and second_end > clip.duration - GAP_TOLERANCE_S


@needs_tools
def test_the_silence_is_found_on_a_noisy_telephone_line(tmp_path: Path) -> None:
    path, gap_start, gap_end = words_with_silence(tmp_path, 1.0)
    clip = load_audio(path)
    line = clip.samples * np.float32(0.2) + noise(clip.duration, 8000, level=0.003)[: clip.frames]
    intervals = speech_intervals(line, 8000)
    assert len(intervals) == 2, intervals
    assert intervals[0][1] == pytest.approx(gap_start, abs=GAP_TOLERANCE_S)
    assert intervals[1][0] == pytest.approx(gap_end, abs=GAP_TOLERANCE_S)


@needs_tools
def test_a_short_pause_inside_speech_is_not_a_gap(tmp_path: Path) -> None:
    path, _, _ = words_with_silence(tmp_path, 0.1)
    clip = load_audio(path)
    assert len(speech_intervals(clip.samples, clip.samplerate)) == 1


def test_silence_and_a_too_short_clip_hold_no_speech() -> None:
    assert speech_intervals(np.zeros((16000, 1), dtype=np.float32), 8000) == []
    assert speech_intervals(np.zeros((10, 1), dtype=np.float32), 8000) == []


def test_a_sample_turn_is_mostly_speech(sample_wavs: list[Path]) -> None:
    clip = load_audio(sample_wavs[1])
    intervals = speech_intervals(clip.samples, clip.samplerate)
    assert intervals and all(0.0 <= start < end <= clip.duration for start, end in intervals)
    assert sum(end - start for start, end in intervals) > 0.5 * clip.duration
