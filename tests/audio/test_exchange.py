"""Resampling, channel matching and exchange playback (clips back to back)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from annotator.audio import Clip, concatenate, load_audio, resample, with_channels
from tests.support.sounds import dominant_frequency, noise, tone


def test_resampling_keeps_duration_and_pitch() -> None:
    clip = Clip(tone(1.0, 44100, frequency=1000.0), 44100)
    converted = resample(clip, 8000)
    assert converted.samplerate == 8000
    assert abs(converted.frames - 8000) <= 2
    assert dominant_frequency(converted.samples, 8000) == pytest.approx(1000.0, abs=5)
    assert converted.samples.dtype == np.float32 and not converted.samples.flags.writeable


def test_resampling_to_the_same_rate_is_the_same_clip() -> None:
    clip = Clip(noise(0.1, 8000), 8000)
    assert resample(clip, 8000) is clip


def test_channels_are_copied_up_from_mono_and_mixed_down_otherwise() -> None:
    mono = Clip(noise(0.1, 8000), 8000)
    stereo = with_channels(mono, 2)
    assert stereo.channels == 2 and np.array_equal(stereo.samples[:, 0], stereo.samples[:, 1])
    left_right = Clip(np.array([[1.0, 0.0], [0.5, -0.5]], dtype=np.float32), 8000)
    assert with_channels(left_right, 1).samples[:, 0].tolist() == [0.5, 0.0]
    assert with_channels(left_right, 2) is left_right


def test_an_exchange_lasts_the_sum_of_its_clips_plus_the_gap() -> None:
    prompt, reply = Clip(noise(1.25, 8000, seed=1), 8000), Clip(noise(0.75, 8000, seed=2), 8000)
    exchange = concatenate([prompt, reply], gap_s=0.3)
    assert exchange.samplerate == 8000
    assert exchange.frames == prompt.frames + reply.frames + 2400
    assert exchange.duration == pytest.approx(1.25 + 0.75 + 0.3)
    assert np.array_equal(exchange.samples[: prompt.frames], prompt.samples)
    assert not exchange.samples[prompt.frames : prompt.frames + 2400].any()
    assert np.array_equal(exchange.samples[prompt.frames + 2400 :], reply.samples)
    assert [(part.start, part.duration) for part in exchange.parts] == [(0.0, 1.25), (pytest.approx(1.55), 0.75)]


def test_an_exchange_of_different_rates_and_channels_uses_the_highest() -> None:
    prompt = Clip(tone(1.0, 16000, frequency=500.0, channels=2), 16000)
    reply = Clip(tone(0.5, 8000, frequency=700.0), 8000)
    exchange = concatenate([prompt, reply], gap_s=0.5)
    assert (exchange.samplerate, exchange.channels) == (16000, 2)
    assert abs(exchange.frames - 16000 * 2.0) <= 2
    tail = exchange.samples[24000 + 100 : -100]
    assert dominant_frequency(tail, 16000) == pytest.approx(700.0, abs=5)


def test_one_clip_is_its_own_exchange_and_none_is_an_error() -> None:
    clip = Clip(noise(0.1, 8000), 8000)
    assert concatenate([clip]) is clip
    with pytest.raises(ValueError):
        concatenate([])


def test_a_sample_log_exchange(sample_wavs: list[Path]) -> None:
    prompt, reply = (load_audio(path) for path in sample_wavs[:2])
    exchange = concatenate([prompt, reply])
    assert exchange.frames == prompt.frames + reply.frames + round(0.3 * 8000)
    assert [part.path for part in exchange.parts] == sample_wavs[:2]
