"""Loudness normalisation on real speech: the sample turns, made quiet, come back to the target."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from annotator.audio import load_audio
from annotator.audio.loudness import (
    CEILING_DBFS,
    MAX_GAIN_DB,
    integrated_loudness,
    limit_peaks,
    normalise,
    normalise_parts,
)
from tests.support.sounds import noise, tone

CEILING = 10 ** (CEILING_DBFS / 20)


def _quiet(path: Path, db: float) -> tuple[np.ndarray, int]:
    clip = load_audio(path)
    return (clip.samples * np.float32(10 ** (db / 20))).astype(np.float32), clip.samplerate


def test_a_quiet_turn_is_raised_to_the_target(sample_wavs: list[Path]) -> None:
    samples, rate = _quiet(sample_wavs[1], -20.0)
    before = integrated_loudness(samples, rate)
    assert before is not None and before < -35.0
    result = normalise(samples, rate, -23.0)
    assert not result.limited and result.note == ""
    assert result.gain_db == pytest.approx(-23.0 - before)
    assert integrated_loudness(result.samples, rate) == pytest.approx(-23.0, abs=0.1)
    assert not result.samples.flags.writeable


def test_a_turn_already_loud_enough_plays_as_recorded(sample_wavs: list[Path]) -> None:
    clip = load_audio(sample_wavs[0])
    result = normalise(clip.samples, clip.samplerate, -23.0)
    assert result.loudness is not None and result.loudness > -23.0
    assert result.samples is clip.samples and result.gain_db == 0.0


def test_the_limiter_keeps_every_sample_under_the_ceiling(sample_wavs: list[Path]) -> None:
    samples, rate = _quiet(sample_wavs[1], -20.0)
    result = normalise(samples, rate, -12.0)  # 11 dB above -23: the turn's peaks would pass full scale
    assert result.limited
    assert np.abs(result.samples).max() <= CEILING + 1e-6
    # Limiting is local: louder than one gain for the whole clip that keeps its highest peak under the ceiling.
    whole_clip_gain = CEILING / np.abs(samples).max()
    assert integrated_loudness(result.samples, rate) > integrated_loudness(samples * whole_clip_gain, rate) + 1.0


def test_limit_peaks_leaves_quiet_samples_alone_and_does_not_click() -> None:
    rate = 8000
    samples = tone(1.0, rate, level=0.3)
    samples[4000:4010] = 1.5  # one loud burst in the middle
    limited, acted = limit_peaks(samples, rate)
    assert acted and np.abs(limited).max() <= CEILING + 1e-6
    assert np.array_equal(limited[:3000], samples[:3000]) and np.array_equal(limited[5000:], samples[5000:])
    gain = np.abs(limited[3900:4100, 0]) / np.maximum(np.abs(samples[3900:4100, 0]), 1e-9)
    assert np.abs(np.diff(gain[np.abs(samples[3900:4100, 0]) > 0.05])).max() < 0.5  # smooth, not a step


def test_too_short_and_silent_clips_play_as_recorded_and_say_why() -> None:
    short = noise(0.3, 8000, level=0.01)
    result = normalise(short, 8000)
    assert result.samples is short and result.loudness is None and "too short" in result.note
    silent = np.zeros((8000, 1), dtype=np.float32)
    assert "silent" in normalise(silent, 8000).note


def test_the_gain_is_capped_for_near_silence() -> None:
    hiss = noise(2.0, 8000, level=0.0005)
    result = normalise(hiss, 8000)
    assert result.gain_db == MAX_GAIN_DB


def test_each_part_of_an_exchange_is_normalised_on_its_own(sample_wavs: list[Path]) -> None:
    loud = load_audio(sample_wavs[0])
    quiet, rate = _quiet(sample_wavs[1], -20.0)
    joined = np.concatenate([loud.samples, quiet])
    split = loud.samples.shape[0]
    out = normalise_parts(joined, rate, [(0, split), (split, joined.shape[0])])
    assert np.array_equal(out[:split], loud.samples)
    assert integrated_loudness(out[split:], rate) == pytest.approx(-23.0, abs=0.1)
