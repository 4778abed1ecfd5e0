"""Speed change that keeps the pitch, with Rubber Band's command-line tool."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from annotator.audio import change_speed, load_audio, stretch_available
from annotator.errors import AudioError
from tests.support.sounds import dominant_frequency, tone

needs_rubberband = pytest.mark.skipif(
    not stretch_available(), reason="rubberband-cli is not installed (scripts/system-deps.sh installs it)"
)


def test_speed_1_returns_the_samples_untouched() -> None:
    samples = tone(0.5, 8000)
    before = samples.copy()
    assert change_speed(samples, 8000, 1.0) is samples
    assert np.array_equal(samples, before)


@needs_rubberband
@pytest.mark.parametrize("speed", [0.25, 0.5, 0.75, 1.5, 2.0])
def test_speed_changes_length_but_not_pitch(speed: float) -> None:
    samples = tone(2.0, 16000, frequency=440.0)
    stretched = change_speed(samples, 16000, speed)
    assert stretched.dtype == np.float32 and stretched.shape[1] == 1
    assert stretched.shape[0] == pytest.approx(samples.shape[0] / speed, rel=0.15)
    middle = stretched[len(stretched) // 4 : 3 * len(stretched) // 4]
    assert dominant_frequency(middle, 16000) == pytest.approx(440.0, rel=0.03)


@needs_rubberband
def test_stereo_stays_stereo() -> None:
    stretched = change_speed(tone(1.0, 8000, channels=2), 8000, 2.0)
    assert stretched.shape[1] == 2


@needs_rubberband
def test_real_speech_at_double_speed_is_about_half_as_long(sample_wavs: list[Path]) -> None:
    clip = load_audio(sample_wavs[0])
    stretched = change_speed(clip.samples, clip.samplerate, 2.0)
    assert stretched.shape[0] == pytest.approx(clip.frames / 2, rel=0.15)


@pytest.mark.parametrize("speed", [0.1, 0.24, 2.01, 4.0])
def test_speeds_outside_quarter_to_double_are_refused(speed: float) -> None:
    with pytest.raises(ValueError):
        change_speed(tone(0.1, 8000), 8000, speed)


def test_without_the_tool_the_error_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no rubberband on it
    assert not stretch_available()
    with pytest.raises(AudioError, match="speed change needs rubberband-cli; install it"):
        change_speed(tone(0.1, 8000), 8000, 1.5)
    assert change_speed(samples := tone(0.1, 8000), 8000, 1.0) is samples


def test_a_failing_tool_is_one_line_with_its_own_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tool = tmp_path / "rubberband"
    tool.write_text("#!/bin/sh\necho 'Rubber Band' >&2\necho 'ERROR: cannot stretch this' >&2\nexit 1\n")
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(AudioError) as caught:
        change_speed(tone(0.1, 8000), 8000, 1.5)
    assert str(caught.value) == "speed change failed: rubberband: ERROR: cannot stretch this"
